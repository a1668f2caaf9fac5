/*
 * sweep_run.h -- run a sweep's points (this shard's) on N threads,
 * journal each row as it finishes, and lay out the CSV in point order.
 *
 * The simulator and the occupancy rules hold no global mutable state,
 * so points run side by side; only the journal, the rows and the
 * progress count are shared, under one lock.  Rows come out in point
 * order whatever the number of threads or the order they finish in, so
 * the CSV is the same with -j 1 and -j 8.
 *
 * Output: the header and the rows; a shard's output starts with the
 * line "# smsim sweep shard I/N of P points, sweep FINGERPRINT" (the
 * whole sweep's, sweep_whole_fingerprint) and the grid's lines
 * (sweep_shard_grid), which sweep_merge reads.
 */
#ifndef SMSIM_MODELS_SWEEP_RUN_H
#define SMSIM_MODELS_SWEEP_RUN_H

#include "models/sweep.h"

/* The most points run at once (-j).  Points are CPU-bound, so threads
 * beyond the cores add no speed, only memory (a run-mode point holds
 * tens of megabytes); past this many, -j is surely a typo.  Fewer
 * threads than asked are started when fewer points are left to run. */
#define SWEEP_RUN_MAX_JOBS 1024

/* Called once before the points run (with the rows a resumed sweep
 * already has), then after each row is journaled (under the lock: keep
 * it short). */
typedef void (*SweepProgress) (void *ctx, guint64 done, guint64 total);

typedef struct {
    const char *journal;        /* path, or NULL for none */
    gboolean resume;            /* skip the points the journal holds */
    guint jobs;                 /* points at once, 1..SWEEP_RUN_MAX_JOBS */
    SweepProgress progress;     /* may be NULL */
    void *ctx;
} SweepRunOptions;

/* Fails only when the journal cannot be read or written: a point that
 * cannot run is a row with an error.  A journal the failed run made
 * and finished no point into is removed (sweep_journal_abandon). */
gboolean sweep_run (Sweep *sweep, const SweepRunOptions *options,
                    GString *out, GError **error);

/* The first line of a shard's output, without its line break. */
char *sweep_run_shard_line (guint index, guint count, guint64 points,
                            const char *fingerprint);

#endif
