/*
 * sweep_point.h -- one point of a sweep, run: its GPU from the cache
 * (sweep_cache.h), then either the occupancy calculator alone (occ.h) or
 * a whole-GPU simulation (run.h), and its results as CSV fields.
 *
 * Results are the `smsim run --format json` keys, flattened (stalls.NAME
 * for each Nsight Compute state), or the occupancy figures; the last
 * column, error, is empty unless the point could not run (an
 * inconsistent hypothetical GPU, a launch it cannot hold, parameters
 * the kernel model rejects), and then the other results are empty.
 * Numbers are printed the same way on every machine and locale.
 */
#ifndef SMSIM_MODELS_SWEEP_POINT_H
#define SMSIM_MODELS_SWEEP_POINT_H

#include <glib.h>

#include "models/sweep_cache.h"
#include "models/sweep_key.h"

typedef enum {
    SWEEP_MODE_RUN,         /* simulate (run_kernel) */
    SWEEP_MODE_OCCUPANCY    /* the occupancy calculator only */
} SweepMode;

/* The result column names of 'mode', comma-separated, "error" last. */
const char *sweep_point_columns (SweepMode mode);

/* Whether the 'n' 'results' (a row's fields past the point's values,
 * one per column of 'mode') are of the kinds sweep_point_eval writes:
 * a whole number (>= 0, in 64 bits), a decimal number ([-]D[.D][e[+-]D]
 * as %g and %.2f write them), a theoretical occupancy (a decimal from 0
 * to 100), true or false, occupancy mode's limiter (occ_limiter_name's
 * names), or UTF-8 text (run mode's limiter, error); or, where the
 * error is not empty, no results at all.  If not, '*why'
 * names the column and its value (owned by the caller). */
gboolean sweep_point_check (SweepMode mode, const char *const *results,
                            guint n, char **why);

/* The same of 'text', a row's results as written (the fields past the
 * point's values and their comma), which must also be spelt as
 * sweep_point_eval writes them (no spaces or quotes it would not
 * write): a row copied from a journal or a shard as it is must be the
 * row the sweep would have written. */
gboolean sweep_point_check_text (SweepMode mode, const char *text,
                                 char **why);

/* The mode whose result columns are 'columns' (comma-separated, as
 * sweep_point_columns gives them); FALSE if neither's. */
gboolean sweep_point_mode_of (const char *columns, SweepMode *mode);

/* Run the point whose n_keys 'keys' have 'values'; append a comma and
 * each result field to 'row'.  Safe to call from several threads. */
void sweep_point_eval (SweepCache *cache, SweepMode mode,
                       const SweepKey *keys, const char *const *values,
                       guint n_keys, GString *row);

#endif
