/*
 * sweep_merge.h -- join the shard files of one sweep into the CSV the
 * whole sweep writes without --shard, byte for byte.
 *
 * A shard file:
 *
 *   # smsim sweep shard I/N of P points, sweep FINGERPRINT
 *   # points file: R rows of KEY,...; values DIGEST   with --points
 *   # vary KEY=V1,V2,...                             one per --vary key
 *   point,KEY,...,RESULT,...                         the header
 *   ROW ...                                          its points, in order
 *
 * (the grid lines: sweep_grid.h).  Every file must be a shard of the
 * same sweep: the same N, P, header, fingerprint
 * (sweep_whole_fingerprint: the GPU, the keys and their values) and
 * grid lines but for the digest.  Each shard 1..N must be given once,
 * and shard I must hold exactly the points I-1, I-1+N, I-1+2N, ...
 * below P, in order, each row with the header's number of fields and
 * the values of the point its number names, written as the sweep
 * writes them: a --vary key's value is checked on its line against the
 * grid; the points file's, which the shard does not carry, against the
 * digest, which names the shard but not the line, and, where the file
 * is given, against the file's row, which names both lines (the file
 * must then have the sweep's keys and rows; where the shard agrees with
 * its digest, a difference is the file's, and the file's line comes
 * first).  So a missing, repeated, truncated, edited or foreign shard
 * is an error naming the file (and line), not a silent gap, a mix or a
 * row of no point.  A shard without a
 * fingerprint or grid lines (older smsim wrote none) is refused:
 * nothing then tells its sweep, or its rows' values.  The header must
 * end in the result columns of run or occupancy mode, and each row's
 * results be of their columns' kinds and spelt as the sweep writes
 * them, as a resumed journal's are (sweep_point_check_text); their
 * values are not checked (that would mean running the points).
 */
#ifndef SMSIM_MODELS_SWEEP_MERGE_H
#define SMSIM_MODELS_SWEEP_MERGE_H

#include <glib.h>

/* The 'n' texts, named 'names[i]' in messages, joined into 'out';
 * 'points_text', named 'points_name', is the sweep's points file to
 * check the rows against (both NULL: none). */
gboolean sweep_merge_texts (guint n, const char *const *names,
                            const char *const *texts, const char *points_name,
                            const char *points_text, GString *out,
                            GError **error);

/* The same, read from files ('points_path' NULL: none). */
gboolean sweep_merge_files (const char *const *paths, const char *points_path,
                            GString *out, GError **error);

#endif
