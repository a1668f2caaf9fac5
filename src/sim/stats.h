/*
 * stats.h -- what a run counts: issue, stall reasons, operations.
 *
 * Stall reasons carry Nsight Compute's names (one enum, one name table:
 * ../shared/data/microarch.md section 3).  Every resident warp is in
 * exactly one state every cycle; the warp module charges whole
 * intervals, so per warp the states sum to its resident cycles.
 * Reported like Nsight Compute's warp-state statistics: warp cycles per
 * issued instruction by reason, 'selected' included (1 per issue), so
 * the values sum to the average cycles between a warp's issues.
 *
 * Stats observe; they never print (report formatting lives in src/cli).
 */
#ifndef SMSIM_SIM_STATS_H
#define SMSIM_SIM_STATS_H

#include "sim/instr.h"

typedef enum {
    STALL_SELECTED,         /* issued this cycle */
    STALL_NOT_SELECTED,     /* eligible, another warp issued */
    STALL_WAIT,             /* fixed-latency dependence or stall count */
    STALL_LONG_SCOREBOARD,  /* waiting on an L1TEX (global) result */
    STALL_SHORT_SCOREBOARD, /* waiting on an MIO (shared, MUFU) result */
    STALL_BARRIER,          /* at __syncthreads */
    STALL_MATH_PIPE,        /* math_pipe_throttle: the pipe is busy */
    STALL_MIO_THROTTLE,     /* the shared-memory queue is full */
    STALL_LG_THROTTLE,      /* the local/global queue is full */
    STALL_BRANCH,           /* branch_resolving */
    STALL_DRAIN,            /* exited, stores still in flight */
    STALL_DISPATCH,         /* dispatch_stall: register read ports busy */
    STALL_NO_INSTRUCTION,   /* the next instruction not fetched yet */
    STALL_N
} StallReason;

const char *stats_stall_name (StallReason reason);

typedef struct {
    Cycle cycles;                      /* first launch to last retire */
    guint64 warp_instructions;         /* issued */
    guint64 thread_instructions;       /* issued x active lanes */
    guint64 flops;                     /* FP32 operations */
    guint64 op_count[INSTR_N_OPS];
    guint64 warp_cycles[STALL_N];      /* resident warp-cycles by state */
    guint64 resident_warp_cycles;      /* their sum */
    guint64 active_cycles;             /* SM-cycles with a block resident
                                        * (Nsight Compute's active cycles) */
    guint64 warps_done;
    guint64 blocks_done;
    /* Instruction lines the L0s and the L1 missed, what the prefetcher
     * asked for included (icache.h); 0 where fetch is perfect. */
    guint64 fetch_l0_misses;
    guint64 fetch_l1_misses;
} SimStats;

/* Add 'b' into 'a' (several SMs into one GPU). */
void stats_add (SimStats *a, const SimStats *b);
/* Add 'b' 'times' over (an SM standing for its mirrors too: gpu.h);
 * 'cycles' is the larger of the two, as in stats_add. */
void stats_add_scaled (SimStats *a, const SimStats *b, double times);
/* A count 'times' over, to the nearest. */
guint64 stats_scale (guint64 v, double times);

/* Warp cycles per issued instruction for 'reason' (0 with no issue). */
double stats_per_issue (const SimStats *s, StallReason reason);

#endif
