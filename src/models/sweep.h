/*
 * sweep.h -- a what-if sweep: its points (sweep_grid.h) checked, before
 * any runs, against the keys (sweep_key.h), the base GPU, the kernel
 * models and the mode; then each point's CSV row on demand.
 *
 * A row is the point's number, its values as given, then its results
 * (sweep_point.h).  The header names the same columns.  A sweep can be
 * one shard of a bigger one (sweep_grid.h says which points are whose).
 *
 * Checked before any point runs, each error naming the key, value and
 * where it was given (--vary KEY, or FILE:LINE): unknown keys, values
 * of the wrong type or out of a key's range, preset values the key
 * table rejects, kernel parameters that the kernel of a point holding
 * them lacks or bounds (a points file's row: its own kernel), a mode
 * without the keys it needs (run: kernel and size; occupancy: threads
 * and regs, or kernel and size).  What only a point can tell (limits
 * that contradict each other, a launch the GPU cannot hold) becomes an
 * error in that point's row.
 *
 * Ownership: sweep_new returns an owned Sweep; it copies its options.
 */
#ifndef SMSIM_MODELS_SWEEP_H
#define SMSIM_MODELS_SWEEP_H

#include <glib.h>

#include "models/sweep_point.h"

typedef struct {
    const char *gpu;                /* --gpu, --config: either may be NULL */
    const char *config;
    const char *const *sets;        /* --set list, may be NULL */
    SweepMode mode;
    const char *const *vary;        /* "KEY=V1,V2,...", may be NULL */
    const char *points_file;        /* a CSV of points, or NULL */
    guint shard_index;              /* 1-based */
    guint shard_count;              /* 0: not a shard (the whole sweep) */
} SweepOptions;

typedef struct Sweep Sweep;

Sweep *sweep_new (const SweepOptions *options, GError **error);
void sweep_free (Sweep *sweep);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Sweep, sweep_free)

guint64 sweep_n_points (const Sweep *sweep);        /* in the whole sweep */
guint64 sweep_n_mine (const Sweep *sweep);          /* in this shard */
/* The number of this shard's k-th point (k < sweep_n_mine). */
guint64 sweep_point_at (const Sweep *sweep, guint64 k);
/* TRUE when --shard was given (even 1/1): the output is a shard file. */
gboolean sweep_is_shard (const Sweep *sweep);
void sweep_shard (const Sweep *sweep, guint *index, guint *count);

/* Append the lines a shard file carries after its first one: the grid,
 * with the digest of this shard's points (sweep_grid_describe). */
void sweep_shard_grid (const Sweep *sweep, GString *out);

/* The CSV header line (no line break). */
const char *sweep_header (const Sweep *sweep);

/* A digest of everything that decides this shard's rows (GPU, options,
 * every point's values): a journal is resumed only by its own sweep. */
const char *sweep_fingerprint (const Sweep *sweep);

/* A digest of everything that decides the whole sweep's rows (GPU,
 * columns, every key's values), the same in each of its shards: shard
 * files carry it, and sweep_merge joins only shards whose digests
 * agree.  64 hex digits. */
const char *sweep_whole_fingerprint (const Sweep *sweep);

/* Run point 'point' and append its row (no line break) to 'row'.  Safe
 * to call from several threads. */
void sweep_row (Sweep *sweep, guint64 point, GString *row);

/* Whether 'row' (a journal's, say) can be this shard's row of point
 * 'point': the point is this shard's, the row starts with the point's
 * number and values exactly as sweep_row writes them, and its results
 * are of their columns' types and spelt as sweep_row writes them
 * (sweep_point_check_text).  Their values are not checked (that would
 * mean running the point).  If not, '*why' names what differs (owned
 * by the caller). */
gboolean sweep_check_row (const Sweep *sweep, guint64 point, const char *row,
                          char **why);

#endif
