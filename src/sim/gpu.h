/*
 * gpu.h -- the whole GPU: every SM of the preset on one event queue,
 * sharing L2 and DRAM (memhier.h), and the block dispatcher.
 *
 * Blocks go out in order, round robin across the SMs (block 0 to SM 0,
 * block 1 to SM 1, ...) until every SM holds as many as occupancy
 * allows; after that each retiring block's SM takes the next one.  The
 * waves, and the partial last wave, follow from that.
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
} GpuWorkload;

typedef struct Gpu Gpu;

/* All SMs of 'spec' (a timing preset); 'spec' and 'work' are borrowed. */
Gpu *gpu_new (const GpuSpec *spec, const GpuWorkload *work);
void gpu_free (Gpu *gpu);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Gpu, gpu_free)

/* Run every block to the end. */
void gpu_run (Gpu *gpu);

Cycle gpu_cycles (const Gpu *gpu);
/* The SMs' counters added up ('cycles' is the GPU's). */
void gpu_stats (const Gpu *gpu, SimStats *out);
const MemStats *gpu_mem_stats (const Gpu *gpu);
guint64 gpu_events (const Gpu *gpu);

#endif
