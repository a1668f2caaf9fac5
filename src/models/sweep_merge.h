/*
 * sweep_merge.h -- join the shard files of one sweep into the CSV the
 * whole sweep writes without --shard, byte for byte.
 *
 * Every file must be a shard file (its first line says "# smsim sweep
 * shard I/N of P points, sweep FINGERPRINT") of the same sweep: the
 * same N, P, header and fingerprint (sweep_whole_fingerprint: the GPU,
 * the keys and their values).  Each shard 1..N must be given once, and
 * shard I must hold exactly the points I-1, I-1+N, I-1+2N, ... below P,
 * in order, each row with the header's number of fields.  So a missing,
 * repeated, truncated or foreign shard is an error naming the file (and
 * line), not a silent gap or a mix.  A shard line without a fingerprint
 * (older smsim wrote none) is refused: nothing then tells its sweep.
 */
#ifndef SMSIM_MODELS_SWEEP_MERGE_H
#define SMSIM_MODELS_SWEEP_MERGE_H

#include <glib.h>

/* The 'n' texts, named 'names[i]' in messages, joined into 'out'. */
gboolean sweep_merge_texts (guint n, const char *const *names,
                            const char *const *texts, GString *out,
                            GError **error);

/* The same, read from files. */
gboolean sweep_merge_files (const char *const *paths, GString *out,
                            GError **error);

#endif
