/*
 * run_replay.h -- the L2 a whole launch leaves, rebuilt from its
 * address streams without timing: what back-to-back launches start
 * from when the warm-up was sampled over part of the launch, and the
 * DRAM traffic of a sampled launch whose one cold wave stands for many
 * (run.c).
 */
#ifndef SMSIM_MODELS_RUN_REPLAY_H
#define SMSIM_MODELS_RUN_REPLAY_H

#include "models/kern.h"
#include "models/run.h"
#include "sim/cache.h"
#include "sim/spec.h"

/* Every block's global accesses, the whole loop, through an empty L2's
 * tags (memhier_l2_touch): 'per_wave' blocks at a time, their warps
 * taking an instruction each in turn.  NULL as soon as the L2 has had
 * to push out more than 'max_evicted' lines to make room.  'progress'
 * (may be NULL) hears of the waves done.  How far the result is from
 * the L2 a timed launch leaves: run_replay.c. */
Cache *run_replay_l2 (const GpuSpec *spec, const KernInstance *k,
                      guint64 per_wave, guint64 max_evicted,
                      RunProgressFn progress, void *progress_ctx);

/* What such a replay costs: the lines its accesses touch, from block
 * 0's first warp, times the launch's warps. */
double run_replay_cost (const GpuSpec *spec, const KernInstance *k);

/* The DRAM traffic of the same replay, pushing out whatever it must:
 * the sectors loads missed, and the dirty ones evictions pushed out.
 * 'progress' (may be NULL) hears of the waves done. */
typedef struct {
    guint64 read_sectors;
    guint64 written_sectors;
} RunReplayTraffic;

void run_replay_traffic (const GpuSpec *spec, const KernInstance *k,
                         guint64 per_wave, RunProgressFn progress,
                         void *progress_ctx, RunReplayTraffic *out);

#endif
