/*
 * run.c -- simulate one launch on the whole GPU.  See run.h.
 */
#include "config.h"

#include <string.h>

#include "models/run.h"
#include "sim/gpu.h"

static InstrStream *
open_warp (void *ctx, guint64 block, int warp)
{
    return kern_open_warp (ctx, block, warp);
}

static void
launch_of (const KernInstance *k, const RunOptions *o, OccLaunch *l)
{
    l->threads_per_block = k->threads;
    l->regs_per_thread = o->regs >= 0 ? o->regs : k->regs;
    l->static_smem_bytes = o->smem >= 0 ? o->smem : k->static_smem;
    l->dyn_smem_bytes = k->dyn_smem;
    l->carveout_pct = -1;
}

static void
figures (const GpuSpec *spec, const KernInstance *k, RunResult *r)
{
    const MemStats *m = &r->mem;
    double hz = (double) spec->device.sm_clock_mhz * 1e6;
    r->time_ms = (double) r->cycles / hz * 1e3;
    r->gflops = r->time_ms > 0 ? k->flops / (r->time_ms * 1e-3) / 1e9 : 0;
    r->achieved_occupancy_pct =
        100.0 * (double) r->stats.resident_warp_cycles /
        ((double) r->cycles * r->occ.max_warps_per_sm * spec->device.sm_count);
    r->l1_hit_rate = m->load_sectors
                         ? (double) m->l1_hit_sectors / (double) m->load_sectors
                         : 0;
    r->l2_hit_rate = m->l2_sectors
                         ? (double) m->l2_hit_sectors / (double) m->l2_sectors
                         : 0;
    r->dram_bytes = m->dram_read_bytes + m->dram_write_bytes;
}

gboolean
run_kernel (const GpuSpec *spec, const KernInstance *k,
            const RunOptions *options, RunResult *out, GError **error)
{
    memset (out, 0, sizeof *out);
    if (!spec->timing) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_UNKNOWN,
                     "%s has no sourced timing numbers (an occupancy and "
                     "query preset): use v100, t4, a100, a6000 or h100",
                     spec->id);
        return FALSE;
    }
    launch_of (k, options, &out->launch);
    occ_compute (spec, &out->launch, &out->occ);
    if (!occ_check (spec, &out->launch, &out->occ, error)) {
        g_prefix_error (error, "%s: ", k->model->id);
        return FALSE;
    }
    out->blocks = kern_blocks (k);
    GpuWorkload w = { out->blocks, k->threads, out->occ.blocks_per_sm,
                      (guint64) MAX (out->occ.l1_bytes, 0), open_warp,
                      (void *) k };
    g_autoptr (Gpu) gpu = gpu_new (spec, &w);
    gpu_run (gpu);
    out->cycles = gpu_cycles (gpu);
    gpu_stats (gpu, &out->stats);
    out->mem = *gpu_mem_stats (gpu);
    out->events = gpu_events (gpu);
    figures (spec, k, out);
    return TRUE;
}
