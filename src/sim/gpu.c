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
    int n_sm;              /* simulated in full */
    int *mirrors;          /* SM i's mirrors from i x per_sm on */
    int per_sm;
    int all;               /* SMs, mirrors included */
    int round;             /* of the first wave; -1 after it */
    guint64 *rounds;       /* with mirrors: blocks each SM has taken */
    guint64 next_block;    /* after the first wave */
};

/* The first wave goes round robin, block round x SMs + i to SM i
 * (mirrors included), as the hardware hands them out; after it each
 * SM whose block retires takes the next.  With mirrors, SM i's r-th
 * block is always r x SMs + i: a group of SMs in lockstep retire
 * together, and handing them the next blocks in a row would put blocks
 * of one grid row, which share their data, on SMs in step (kernel 2 at
 * 512 on the A6000, 4 SMs in full: 8.4 % slow against all in full);
 * round robin is what SMs of one speed get.  It has a price: kernel 2
 * at 1024 on the A6000, every SM in full, takes 4.3 % longer handed
 * out round robin than in retirement order (docs/sampling.md).
 *
 * Round robin deals a partial last wave out one block an SM, where an
 * exact run gives each block to the SM that frees a slot first: where
 * an SM's blocks, started together, retire together, that is all of
 * them at once, and its slots fill again together (sgemm-10 at 2048 on
 * the A100: 216 blocks a wave and 40 more, 18 SMs taking two of them
 * and 4 one; one each to 40 SMs came out 22 % short, a lone block
 * running faster than a pair).  'pack_last_wave' deals it out so. */
static guint64
mirrored_block (const Gpu *g, int sm, guint64 round)
{
    guint64 m = (guint64) g->work.max_blocks;
    guint64 full = g->work.n_blocks / (m * (guint64) g->all);
    if (!g->work.pack_last_wave || round < full * m)
        return round * (guint64) g->all + (guint64) sm;
    if (round >= (full + 1) * m)
        return G_MAXUINT64;
    return full * m * (guint64) g->all + m * (guint64) sm + (round - full * m);
}

static gboolean
next_block (void *ctx, int sm, guint64 *block)
{
    Gpu *g = ctx;
    guint64 b = g->rounds != NULL ? mirrored_block (g, sm, g->rounds[sm]++)
                : g->round >= 0 ? (guint64) g->round * (guint64) g->all +
                                      (guint64) sm
                                : g->next_block++;
    if (b >= g->work.n_blocks)
        return FALSE;
    *block = b;
    return TRUE;
}

static InstrStream *
open_warp (void *ctx, guint64 block, int warp)
{
    Gpu *g = ctx;
    return g->work.open_warp (g->work.ctx, block, warp);
}

static InstrStream *
open_mirror (void *ctx, guint64 block, int warp)
{
    Gpu *g = ctx;
    return g->work.open_mirror (g->work.ctx, block, warp);
}

static void
block_retired (void *ctx, int sm, guint64 block, Cycle at)
{
    Gpu *g = ctx;
    g->work.block_retired (g->work.ctx, sm, block, at);
}

static double
block_weight (void *ctx, guint64 block)
{
    Gpu *g = ctx;
    return g->work.block_weight (g->work.ctx, block);
}

Gpu *
gpu_new (const GpuSpec *spec, const GpuWorkload *work)
{
    Gpu *g = g_new0 (Gpu, 1);
    int all = spec->device.sm_count;
    g->work = *work;
    g->all = all;
    g->round = -1;
    g->n_sm = work->detailed_sms > 0 ? MIN (work->detailed_sms, all) : all;
    g_assert (g->n_sm == all || work->open_mirror != NULL);
    /* SM i's mirrors: i + n_sm, i + 2 n_sm, ... */
    g->per_sm = (all + g->n_sm - 1) / g->n_sm - 1;
    g->mirrors = g_new0 (int, MAX (g->n_sm * g->per_sm, 1));
    if (g->n_sm < all)
        g->rounds = g_new0 (guint64, all);
    g->q = evq_new ();
    g->mem = memhier_new (spec, g->q, all, work->l1_bytes);
    if (work->warm_l2 != NULL)
        memhier_warm_l2 (g->mem, work->warm_l2);
    g->sms = g_new0 (Sm *, g->n_sm);
    for (int i = 0; i < g->n_sm; i++) {
        SmWorkload sw = { work->threads_per_block, work->max_blocks,
                          next_block, open_warp, g, 0,
                          &g->mirrors[i * g->per_sm], open_mirror,
                          work->block_retired != NULL ? block_retired : NULL,
                          work->block_weight != NULL ? block_weight : NULL };
        for (int m = i + g->n_sm; m < all; m += g->n_sm)
            g->mirrors[i * g->per_sm + sw.n_mirrors++] = m;
        g->sms[i] = sm_new (spec, i, g->q, g->mem, &sw);
    }
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
    g_free (g->mirrors);
    g_free (g->rounds);
    mem_free (g->mem);
    evq_free (g->q);
    g_free (g);
}

void
gpu_run (Gpu *g)
{
    /* The first wave, one block per SM per round. */
    for (g->round = 0; g->round < g->work.max_blocks; g->round++)
        for (int i = 0; i < g->n_sm; i++)
            sm_launch_block (g->sms[i], 0);
    g->next_block = MIN (g->work.n_blocks,
                         (guint64) g->work.max_blocks * (guint64) g->all);
    g->round = -1;
    evq_run (g->q);
}

void
gpu_stop (Gpu *g)
{
    evq_stop (g->q);
}

void
gpu_set_pack_last_wave (Gpu *g, gboolean pack)
{
    g->work.pack_last_wave = pack;
}

gboolean
gpu_packs_last_wave (const Gpu *g)
{
    return g->work.pack_last_wave;
}

Cycle
gpu_cycles (const Gpu *g)
{
    return evq_now (g->q);
}

/* How much work SM i's group took for each of its own (blocks by
 * their weight, launched, not retired: the counters may be read
 * mid-run). */
static double
group_weight (const Gpu *g, int i)
{
    double own = sm_blocks_weight (g->sms[i]);
    if (own <= 0)
        return 1.0;
    return (own + sm_mirror_weight (g->sms[i])) / own;
}

void
gpu_sm_stats (const Gpu *g, int sm, SimStats *out)
{
    SimStats s;
    g_assert (sm >= 0 && sm < g->n_sm);
    *out = (SimStats) { 0 };
    sm_stats (g->sms[sm], gpu_cycles (g), &s);
    stats_add_scaled (out, &s, group_weight (g, sm));
}

void
gpu_stats (const Gpu *g, SimStats *out)
{
    *out = (SimStats) { 0 };
    for (int i = 0; i < g->n_sm; i++) {
        SimStats s;
        gpu_sm_stats (g, i, &s);
        stats_add (out, &s);
    }
    out->cycles = gpu_cycles (g);
}

/* Shared-memory counts, which mirrors do not play, scaled by all
 * blocks over the detailed SMs' blocks, each by its weight. */
static void
mirror_smem (const Gpu *g, MemStats *out)
{
    double own = 0, mirrored = 0;
    for (int i = 0; i < g->n_sm; i++) {
        own += sm_blocks_weight (g->sms[i]);
        mirrored += sm_mirror_weight (g->sms[i]);
    }
    if (mirrored <= 0 || own <= 0)
        return;
    double times = (own + mirrored) / own;
    out->smem_requests = stats_scale (out->smem_requests, times);
    out->smem_wavefronts = stats_scale (out->smem_wavefronts, times);
    out->smem_conflicts = stats_scale (out->smem_conflicts, times);
}

void
gpu_mem_stats (const Gpu *g, MemStats *out)
{
    memhier_stats (g->mem, out);
    mirror_smem (g, out);
}

void
gpu_mem_loop_stats (const Gpu *g, MemStats *out)
{
    memhier_loop_stats (g->mem, out);
    mirror_smem (g, out);
}

guint64
gpu_events (const Gpu *g)
{
    return evq_processed (g->q);
}

guint64
gpu_simulated_instructions (const Gpu *g)
{
    guint64 n = 0;
    for (int i = 0; i < g->n_sm; i++)
        n += sm_warp_instructions (g->sms[i]);
    return n;
}

void
gpu_each_stream (Gpu *g, void (*fn) (InstrStream *s, void *ctx), void *ctx)
{
    for (int i = 0; i < g->n_sm; i++)
        sm_each_stream (g->sms[i], fn, ctx);
}

Cache *
gpu_l2_copy (const Gpu *g)
{
    return memhier_l2_copy (g->mem);
}
