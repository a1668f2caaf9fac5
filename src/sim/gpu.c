/*
 * gpu.c -- all SMs, shared L2 and DRAM, the block dispatcher.  See gpu.h.
 */
#include "config.h"

#include "sim/gpu.h"

struct Gpu {
    GpuWorkload work;
    EvqQueue *q;
    MemSys *mem;
    Sm **sms;
    int n_sm;
    guint64 next_block;
};

static gboolean
next_block (void *ctx, guint64 *block)
{
    Gpu *g = ctx;
    if (g->next_block >= g->work.n_blocks)
        return FALSE;
    *block = g->next_block++;
    return TRUE;
}

static InstrStream *
open_warp (void *ctx, guint64 block, int warp)
{
    Gpu *g = ctx;
    return g->work.open_warp (g->work.ctx, block, warp);
}

Gpu *
gpu_new (const GpuSpec *spec, const GpuWorkload *work)
{
    Gpu *g = g_new0 (Gpu, 1);
    g->work = *work;
    g->n_sm = spec->device.sm_count;
    g->q = evq_new ();
    g->mem = memhier_new (spec, g->q, g->n_sm, work->l1_bytes);
    g->sms = g_new0 (Sm *, g->n_sm);
    SmWorkload sw = { work->threads_per_block, work->max_blocks, next_block,
                      open_warp, g };
    for (int i = 0; i < g->n_sm; i++)
        g->sms[i] = sm_new (spec, i, g->q, g->mem, &sw);
    return g;
}

void
gpu_free (Gpu *g)
{
    if (g == NULL)
        return;
    for (int i = 0; i < g->n_sm; i++)
        sm_free (g->sms[i]);
    g_free (g->sms);
    mem_free (g->mem);
    evq_free (g->q);
    g_free (g);
}

void
gpu_run (Gpu *g)
{
    /* The first wave, one block per SM per round. */
    for (int round = 0; round < g->work.max_blocks; round++)
        for (int i = 0; i < g->n_sm; i++)
            sm_launch_block (g->sms[i], 0);
    evq_run (g->q);
}

Cycle
gpu_cycles (const Gpu *g)
{
    return evq_now (g->q);
}

void
gpu_stats (const Gpu *g, SimStats *out)
{
    *out = (SimStats) { 0 };
    for (int i = 0; i < g->n_sm; i++)
        stats_add (out, sm_stats (g->sms[i]));
    out->cycles = gpu_cycles (g);
}

const MemStats *
gpu_mem_stats (const Gpu *g)
{
    return memhier_stats (g->mem);
}

guint64
gpu_events (const Gpu *g)
{
    return evq_processed (g->q);
}
