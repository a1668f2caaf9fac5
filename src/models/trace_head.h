/*
 * trace_head.h -- a trace's header (traces/FORMAT.md, "Header"): the
 * format's version, the kernel and its parameters, the launch (grid,
 * block, registers, static and dynamic shared memory), its FLOPs and
 * main-loop iterations, one "key value" line each, ended by "records".
 *
 * Pure: no I/O.  Errors name the key and value; the caller adds file
 * and line.  A TraceHead owns its strings (trace_head_clear frees them).
 */
#ifndef SMSIM_MODELS_TRACE_HEAD_H
#define SMSIM_MODELS_TRACE_HEAD_H

#include "models/kern.h"

#define TRACE_VERSION 1

/* The header's flops: a whole number, at most 2^53, past which a
 * double (KernInstance's flops) no longer holds every count exactly. */
#define TRACE_FLOPS_MAX (G_GUINT64_CONSTANT (1) << 53)

typedef struct {
    char *gpu;                      /* the preset the launch was made for */
    char *kernel;
    gint64 size;
    int n_params;
    char *param_name[KERN_MAX_PARAMS];
    gint64 param_value[KERN_MAX_PARAMS];
    guint64 grid_x, grid_y;
    int threads;
    int regs;
    gint64 static_smem, dyn_smem;
    double flops;
    guint64 iterations;
    unsigned seen;                  /* keys parsed so far */
} TraceHead;

/* The header of 'k''s trace, made for preset 'gpu'. */
void trace_head_from_kernel (TraceHead *h, const KernInstance *k,
                             const char *gpu);
void trace_head_clear (TraceHead *h);

/* Whether 'flops' can be a header's: a whole number, 0..TRACE_FLOPS_MAX. */
gboolean trace_head_flops_ok (double flops);

/* Append the header's lines, "records" included ('h''s flops must be
 * trace_head_flops_ok). */
void trace_head_format (const TraceHead *h, GString *out);

/* Parse header line number 'line_no' (1-based; line 1 names the format
 * and version); '*done' is set at "records", which checks that every
 * key was given. */
gboolean trace_head_parse_line (TraceHead *h, int line_no, const char *line,
                                gboolean *done, GError **error);

/* Warps per block. */
int trace_head_warps (const TraceHead *h);
guint64 trace_head_blocks (const TraceHead *h);

#endif
