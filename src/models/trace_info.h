/*
 * trace_info.h -- what a trace asks of the machine, counted from its
 * instructions (`smsim trace info`): the instruction mix by operation
 * and width, the bytes requested from each memory space, barriers, and
 * the FLOPs the FP32 instructions do.
 *
 * Bytes requested are what the active lanes ask for (lanes x width),
 * before coalescing: the algorithm's traffic, not the hardware's.
 */
#ifndef SMSIM_MODELS_TRACE_INFO_H
#define SMSIM_MODELS_TRACE_INFO_H

#include "models/trace_head.h"
#include "sim/instr.h"

typedef enum {
    TRACE_GLOBAL_LOAD,
    TRACE_GLOBAL_STORE,
    TRACE_SHARED_LOAD,
    TRACE_SHARED_STORE,
    TRACE_N_SPACES
} TraceSpace;

/* Widths 0 (not memory), 1, 2, 4, 8, 16 bytes per lane. */
#define TRACE_N_WIDTHS 6

typedef struct {
    guint64 warp_instructions;
    guint64 by_op[INSTR_N_OPS][TRACE_N_WIDTHS];   /* warp instructions */
    guint64 bytes[TRACE_N_SPACES];
    guint64 barriers;                             /* warp BAR instructions */
    double flops;                                 /* lanes x FLOPs per lane */
} TraceInfo;

/* Count 'in' (a TraceVisitFn for trace_reader_scan: 'ctx' is the
 * TraceInfo). */
void trace_info_add (void *ctx, guint64 block, int warp, guint64 section,
                     const Instr *in);

/* Width in bytes of width class 'w'. */
int trace_info_width (int w);
const char *trace_info_space_name (TraceSpace s);

#endif
