/*
 * run_sim.c -- one simulation of a launch on the whole GPU.  See
 * run_sim.h.
 */
#include "config.h"

#include "models/run_sim.h"
#include "models/run_tail.h"

guint64
run_launch_block (const RunWindow *w, guint64 block)
{
    return block >= w->tail_from ? block + w->tail_shift : block;
}

static InstrStream *
open_warp (void *ctx, guint64 block, int warp)
{
    const RunWindow *w = ctx;
    InstrStream *s = kern_open_warp_window (w->k, run_launch_block (w, block),
                                            warp, w->iterations);
    /* A warp that exits before the loop does no iteration's work: the
     * probe measures the warps that do. */
    return w->probe != NULL && kern_stream_plays_loop (s)
               ? probe_wrap (w->probe, s, block) : s;
}

static InstrStream *
open_mirror (void *ctx, guint64 block, int warp)
{
    const RunWindow *w = ctx;
    return kern_open_mirror_window (w->k, run_launch_block (w, block), warp,
                                    w->iterations);
}

/* A block's warp instructions with the window, by its kind's: an edge
 * block of sgemm-2 at 100 (4 of its 32 columns busy) does a fraction
 * of a whole one's, and 1 SM in full with 15 mirrors counted 250,880
 * of the launch's 197,568 at one block's for each. */
static double
block_weight (void *ctx, guint64 block)
{
    RunWindow *w = ctx;
    guint64 b = run_launch_block (w, block);
    gint64 key = (gint64) kern_block_work_key (kern_block_work (w->k, b));
    double *n = g_hash_table_lookup (w->weights, &key);
    if (n != NULL)
        return *n;
    n = g_new0 (double, 1);
    for (int warp = 0; warp < kern_warps (w->k); warp++) {
        g_autoptr (InstrStream) s = kern_open_warp_window (w->k, b, warp,
                                                           w->iterations);
        while (instr_stream_next (s) != NULL)
            *n += 1;
    }
    g_hash_table_insert (w->weights, g_memdup2 (&key, sizeof key), n);
    return *n;
}

void
run_window_clear (RunWindow *win)
{
    g_clear_pointer (&win->weights, g_hash_table_unref);
}

/* Detailed SM 'sm' has retired one more block, maybe a bound's. */
static void
reach_bound (RunWindow *w, int sm)
{
    for (int i = 0; w->gpu != NULL && i < 2; i++)
        if (w->n_retired[sm] == w->bound[i]) {
            SimStats s;
            gpu_sm_stats (w->gpu, sm, &s);
            stats_add (&w->st_bound[i], &s);
            if (++w->reached[i] == w->detailed) {
                gpu_mem_stats (w->gpu, &w->mem_bound[i]);
                w->mem_at[i] = gpu_cycles (w->gpu);
            }
        }
}

static void
block_retired (void *ctx, int sm, guint64 block, Cycle at)
{
    RunWindow *w = ctx;
    if (w->guess_pack && w->gpu != NULL) {
        w->guess_pack = FALSE;
        gpu_set_pack_last_wave (w->gpu,
                                run_tail_guess (w->probe, sm, w->sm_count,
                                                w->per_sm, w->iterations));
    }
    if (w->progress != NULL && w->done < w->full) {
        w->done++;
        /* In doubles: done x total would wrap past 2^32 blocks. */
        w->progress (w->progress_ctx,
                     (guint64) ((double) w->done * (double) w->total /
                                (double) w->full),
                     w->total);
    }
    if (w->block_sm != NULL) {
        w->block_sm[block] = sm;
        w->last_retired[sm] = MAX (w->last_retired[sm], at);
    }
    if (w->block_end != NULL)
        w->block_end[block] = at;
    w->n_all++;
    for (int i = 0; i < 2; i++)
        if (w->n_all == w->nth[i]) {
            w->nth_at[i] = at;
            if (w->gpu != NULL)
                run_take_sample (w->gpu, &w->nth_sample[i]);
        }
    if (w->retired != NULL && w->n_retired[sm] < w->keep) {
        w->retired[sm * w->keep + w->n_retired[sm]++] = at;
        reach_bound (w, sm);
    }
}

Gpu *
run_gpu_for (const GpuSpec *spec, const OccResult *occ, guint64 blocks,
         int detailed, RunWindow *win)
{
    GpuWorkload w = { blocks, win->k->threads, occ->blocks_per_sm,
                      (guint64) MAX (occ->l1_bytes, 0), open_warp, win,
                      detailed, open_mirror,
                      win->retired != NULL || win->block_sm != NULL ||
                              win->block_end != NULL ||
                              win->progress != NULL || win->nth[0] > 0 ||
                              win->nth[1] > 0 || win->guess_pack
                          ? block_retired : NULL,
                      win->warm_l2, win->pack_last_wave, NULL };
    /* The window may differ from the last run's (run_sample.c). */
    run_window_clear (win);
    if (win->k->uneven && detailed > 0 && detailed < spec->device.sm_count) {
        win->weights = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                              g_free, g_free);
        w.block_weight = block_weight;
    }
    return gpu_new (spec, &w);
}

void
run_take_sample (const Gpu *gpu, RunSample *out)
{
    gpu_stats (gpu, &out->st);
    gpu_mem_stats (gpu, &out->mem);
    gpu_mem_loop_stats (gpu, &out->loop);
}

/* Counters are all 64-bit: they are combined as arrays. */
G_STATIC_ASSERT (sizeof (SimStats) % sizeof (guint64) == 0);
G_STATIC_ASSERT (sizeof (MemStats) % sizeof (guint64) == 0);

static void
combine (guint64 *total, const guint64 *a, double times_a, const guint64 *b,
         const guint64 *c, double times_bc, gsize n)
{
    for (gsize i = 0; i < n; i++) {
        double v = (double) a[i] * times_a +
                   times_bc * ((double) b[i] - (double) c[i]);
        total[i] = v > 0 ? (guint64) (v + 0.5) : 0;
    }
}

void
run_sample_combine (RunSample *total, const RunSample *a, double times_a,
                    const RunSample *b, const RunSample *c, double times_bc)
{
    combine ((guint64 *) &total->st, (const guint64 *) &a->st, times_a,
             (const guint64 *) &b->st, (const guint64 *) &c->st, times_bc,
             sizeof total->st / sizeof (guint64));
    combine ((guint64 *) &total->mem, (const guint64 *) &a->mem, times_a,
             (const guint64 *) &b->mem, (const guint64 *) &c->mem, times_bc,
             sizeof total->mem / sizeof (guint64));
}

void
run_count_cost (const Gpu *gpu, RunCost *cost)
{
    cost->instructions += gpu_simulated_instructions (gpu);
    cost->events += gpu_events (gpu);
}

/* With mirrors SM i takes blocks i, i + SMs, i + 2 SMs ... (gpu.c), so
 * the SMs in full take their share exactly; a share worked out as
 * SMs in full over SMs overshot where the last round is partial
 * (sgemm-4 at 1024 on the A6000: all 256 blocks at 13 of the 16
 * retirements). */
void
run_window_progress (RunWindow *win, const RunOptions *o, guint64 blocks,
                     int detailed, int sm_count)
{
    guint64 all = (guint64) sm_count, d = (guint64) MAX (detailed, 1);
    win->progress = o->progress;
    win->progress_ctx = o->progress_ctx;
    win->total = blocks;
    win->full = 0;
    for (guint64 i = 0; i < MIN (d, MIN (all, blocks)); i++)
        win->full += (blocks - i + all - 1) / all;
    win->done = 0;
    if (win->progress != NULL)
        win->progress (win->progress_ctx, 0, win->total);
}

void
run_simulate (const GpuSpec *spec, const KernInstance *k,
              const OccResult *occ, guint64 blocks, guint64 iterations,
              int detailed, const RunOptions *o, RunL2 *l2, RunSample *out,
              RunCost *cost)
{
    g_auto (RunWindow) win = {
        .k = k, .iterations = iterations, .warm_l2 = l2->from
    };
    run_window_progress (&win, o, blocks, detailed, spec->device.sm_count);
    g_autoptr (Gpu) gpu = run_gpu_for (spec, occ, blocks, detailed, &win);
    gpu_run (gpu);
    run_take_sample (gpu, out);
    run_count_cost (gpu, cost);
    g_assert (l2->left == NULL);
    if (l2->keep)
        l2->left = gpu_l2_copy (gpu);
}
