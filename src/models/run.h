/*
 * run.h -- one kernel launch simulated on a whole GPU: occupancy from
 * the launch (with --regs/--smem overrides), every SM on shared L2 and
 * DRAM, and the figures `smsim run` reports.
 */
#ifndef SMSIM_MODELS_RUN_H
#define SMSIM_MODELS_RUN_H

#include "models/kern.h"
#include "models/occ.h"
#include "sim/memhier.h"
#include "sim/stats.h"

typedef struct {
    gint64 regs;        /* per thread; -1: the model's */
    gint64 smem;        /* static bytes per block; -1: the model's */
} RunOptions;

#define RUN_OPTIONS_INIT { -1, -1 }

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
    SimStats stats;
    MemStats mem;
    guint64 events;
    gboolean sampled;
} RunResult;

gboolean run_kernel (const GpuSpec *spec, const KernInstance *k,
                     const RunOptions *options, RunResult *out,
                     GError **error);

#endif
