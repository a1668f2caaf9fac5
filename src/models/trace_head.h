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

/* Append the header's lines, "records" included. */
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
