/*
 * batch.h -- `smsim occupancy --batch`: a CSV of launches in, the same
 * rows out with blocks_per_sm, warps_per_sm, occupancy (%), limiter and
 * error appended.  A row that cannot be read or cannot launch gets an
 * error message in its last column; the other rows go on.
 */
#ifndef SMSIM_CLI_BATCH_H
#define SMSIM_CLI_BATCH_H

#include <gio/gio.h>

#include "sim/spec.h"

typedef struct {
    guint rows;
    guint errors;        /* rows with an error, of which: */
    guint unreadable;    /* rows that could not be read (bad input) */
} BatchCount;

/* Read 'in' (named 'name' in messages), append the output CSV to 'out'.
 * Fails only when the input cannot be read or has no usable header. */
gboolean batch_run (const GpuSpec *spec, GInputStream *in, const char *name,
                    GString *out, BatchCount *count, GError **error);

#endif
