/*
 * gpu.h -- the whole GPU: every SM of the preset on one event queue,
 * sharing L2 and DRAM (memhier.h), and the block dispatcher.
 *
 * Blocks go out in order, round robin across the SMs (block 0 to SM 0,
 * block 1 to SM 1, ...) until every SM holds as many as occupancy
 * allows; after that each retiring block's SM takes the next one.  The
 * waves, and the partial last wave, follow from that.  With mirrors
 * (below) SM i's r-th block is fixed instead: round robin, or for a
 * partial last wave as the workload asks (gpu.c).
 *
 * Mirrors: a workload may ask for only 'detailed_sms' SMs to be
 * simulated in full.  The others are mirrors (sm.h): SM i + k x
 * detailed_sms follows SM i, taking a block whenever SM i does and
 * sending its own blocks' global memory requests to the shared L2 and
 * DRAM the cycle SM i's warp sends the corresponding one.  Its L1 hits
 * and misses are SM i's (memhier.h): its timing is SM i's, and an L1
 * of its own, missing where SM i's hit, would send traffic at a pace
 * its misses would have slowed.  L2 and DRAM thus carry the whole
 * GPU's traffic, addresses and all, at the cost of the global memory
 * instructions alone; what the mirrors do not play (issue, pipes,
 * shared memory) counts as their SM's, in the proportion of blocks
 * run, each by its weight where blocks differ (block_weight).  The
 * price: a mirror's warps are in lockstep with their SM's, so the L2
 * sees 'detailed_sms' groups of SMs in step where the real GPU drifts,
 * and the L1s behave as the detailed SMs' blocks do.
 */
#ifndef SMSIM_SIM_GPU_H
#define SMSIM_SIM_GPU_H

#include "sim/instr.h"
#include "sim/memhier.h"
#include "sim/sm.h"
#include "sim/stats.h"

typedef struct {
    guint64 n_blocks;
    int threads_per_block;
    int max_blocks;       /* resident per SM (theoretical occupancy) */
    guint64 l1_bytes;     /* L1 capacity left by the launch's carveout */
    InstrStream *(*open_warp) (void *ctx, guint64 block, int warp);
    void *ctx;
    /* 0 (or the SM count or more): every SM in full.  Otherwise that
     * many, the rest mirrors; 'open_mirror' then gives a warp's
     * local/global-queue instructions alone (sm.h). */
    int detailed_sms;
    InstrStream *(*open_mirror) (void *ctx, guint64 block, int warp);
    /* Told when a block of a detailed SM retires (may be NULL). */
    void (*block_retired) (void *ctx, int sm, guint64 block, Cycle at);
    /* The L2 a launch before this one left (gpu_l2_copy), or NULL: a
     * cold start. */
    const Cache *warm_l2;
    /* With mirrors: the last wave, if partial, goes to the SMs
     * 'max_blocks' blocks at a time, SM i taking its blocks i x
     * max_blocks on, not one to each in turn (gpu.c). */
    gboolean pack_last_wave;
    /* With mirrors: a block's share of the work (its warp
     * instructions, say), by which a detailed SM's counters stand for
     * its mirrors' blocks; NULL: every block alike (sm.h). */
    double (*block_weight) (void *ctx, guint64 block);
} GpuWorkload;

typedef struct Gpu Gpu;

/* All SMs of 'spec' (a timing preset); 'spec' and 'work' are borrowed. */
Gpu *gpu_new (const GpuSpec *spec, const GpuWorkload *work);
void gpu_free (Gpu *gpu);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Gpu, gpu_free)

/* Run every block to the end, or until gpu_stop. */
void gpu_run (Gpu *gpu);
/* From within the run (a stream or hook): end it after this event. */
void gpu_stop (Gpu *gpu);
/* GpuWorkload.pack_last_wave, set from within the run (a block_retired
 * hook) before the last wave's first block goes out; and as it stands. */
void gpu_set_pack_last_wave (Gpu *gpu, gboolean pack);
gboolean gpu_packs_last_wave (const Gpu *gpu);

Cycle gpu_cycles (const Gpu *gpu);
/* The SMs' counters added up, each detailed SM's times the blocks its
 * group ran over the blocks it ran ('cycles' is the GPU's). */
void gpu_stats (const Gpu *gpu, SimStats *out);
/* The same, of detailed SM 'sm' and its mirrors alone. */
void gpu_sm_stats (const Gpu *gpu, int sm, SimStats *out);
/* The memory counters; the shared-memory ones, which mirrors do not
 * play, scaled by all blocks over the detailed SMs' blocks. */
void gpu_mem_stats (const Gpu *gpu, MemStats *out);
/* The same, of the main loop's requests alone (Instr.loop). */
void gpu_mem_loop_stats (const Gpu *gpu, MemStats *out);
guint64 gpu_events (const Gpu *gpu);
/* Warp instructions the detailed SMs issued: the simulation's work. */
guint64 gpu_simulated_instructions (const Gpu *gpu);
/* sm_each_stream on every SM simulated in full. */
void gpu_each_stream (Gpu *gpu, void (*fn) (InstrStream *s, void *ctx),
                      void *ctx);
/* The L2 as the run leaves it, for the next launch (GpuWorkload). */
Cache *gpu_l2_copy (const Gpu *gpu);

#endif
