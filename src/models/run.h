/*
 * run.h -- one kernel launch simulated on a whole GPU: occupancy from
 * the launch (with --regs/--smem overrides), every SM on shared L2 and
 * DRAM, and the figures `smsim run` reports.
 *
 * Sampling (DESIGN.md principle 5): every block of a matmul does the same
 * work, so a big launch is simulated wave by wave on the whole GPU for a
 * window of its main loop.  The window doubles (2, 4, 8, ... iterations,
 * at most 128) until the cycles one more iteration costs, measured
 * between the last two windows, change by less than 1 % twice running:
 * the wave's time and counters are then extrapolated linearly to the
 * full loop.  The later waves are measured in a short window (one, two
 * and four waves of 8 iterations) and their remaining iterations
 * extrapolated at the first wave's cost; a partial last wave likewise,
 * at its own cost (run.c says why).
 */
#ifndef SMSIM_MODELS_RUN_H
#define SMSIM_MODELS_RUN_H

#include "models/kern.h"
#include "models/occ.h"
#include "sim/memhier.h"
#include "sim/stats.h"

typedef enum {
    RUN_AUTO,           /* sample launches of over 2x10^7 warp instructions */
    RUN_EXACT,          /* every instruction of every warp */
    RUN_SAMPLED         /* a window of the main loop, extrapolated */
} RunMode;

typedef struct {
    gint64 regs;        /* per thread; -1: the model's */
    gint64 smem;        /* static bytes per block; -1: the model's */
    RunMode mode;
    int detailed_sms;   /* SMs simulated in full, the rest mirrors (gpu.h);
                         * 0: all when exact, SAMPLED_DETAILED_SMS when
                         * sampled */
} RunOptions;

#define RUN_OPTIONS_INIT { -1, -1, RUN_AUTO, 0 }

typedef struct {
    OccLaunch launch;
    OccResult occ;
    guint64 blocks;
    Cycle cycles;
    double time_ms;
    double gflops;
    double achieved_occupancy_pct;
    double l1_hit_rate;          /* of global load sectors */
    double l2_hit_rate;
    guint64 dram_bytes;
    /* Achieved bandwidth per level, GB/s over the whole run: global
     * sectors through L1 (loads and stores), sectors L2 served, DRAM
     * reads and write-backs. */
    double l1_gbs;
    double l2_gbs;
    double dram_gbs;
    SimStats stats;
    MemStats mem;
    guint64 events;
    gboolean sampled;
    guint64 window;             /* main-loop iterations simulated per block */
    guint64 waves;              /* full and partial waves of blocks */
    int detailed_sms;           /* simulated in full; the rest mirrored */
    guint64 simulated_instructions;   /* what the run actually simulated */
} RunResult;

gboolean run_kernel (const GpuSpec *spec, const KernInstance *k,
                     const RunOptions *options, RunResult *out,
                     GError **error);

/* What limits the kernel, from the counters alone (never per kernel):
 * the busiest of the FP32 pipe, instruction issue, the L1 (tag stage and
 * data path), shared-memory wavefronts, L2 and DRAM bandwidth, as a
 * fraction of its peak; below 60 % for all of them, latency with too few
 * warps, named by the largest stall.  Writes a sentence to 'buf'. */
void run_limiter (const GpuSpec *spec, const RunResult *r, char *buf,
                  gsize size);

#endif
