/*
 * run_waves.c -- sampled runs of launches without a main loop: the
 * first waves whole, the rest at their rate.  See run_waves.h.
 *
 * A launch of vecadd or stream is millions of short blocks, each a few
 * loads and a store: no loop to cut, and the exact run's time grows
 * with the blocks (stream at 2^26 floats on the A100, 303 waves, takes
 * 4 s; vecadd at 2^31, 210 s).  Its waves are alike, though, once the
 * L2 has filled: what a run of the first waves shows then, the blocks
 * retiring at a steady rate, holds for the rest.  A trace's launch
 * says nothing of its buffers (KernInstance.device_bytes), so when its
 * L2 would fill is not known, and it runs whole.
 */
#include "config.h"

#include <math.h>

#include "models/run_sample.h"
#include "models/run_waves.h"

/* The run's waves touch this many times the L2 in data, and the rate
 * is taken over their second half: a launch's first L2-full of written
 * data waits there, dirty, with no write-back (stream on the A100: 40
 * MB, 23 of its waves of 1.8 MB), so its first waves are faster than
 * the rest, and the rate is taken once the L2 has filled four times
 * over, its write-backs long under way. */
#define L2_FILLS 8

/* And at least this many waves, the rate taken over three or more. */
#define WAVES_LEAST 8

guint64
run_waves_to_run (const GpuSpec *spec, const KernInstance *k, guint64 blocks,
                  guint64 per_wave)
{
    if (k->device_bytes <= 0 || blocks == 0)
        return 0;
    double wave_bytes = k->device_bytes / (double) blocks * (double) per_wave;
    double need = ceil (L2_FILLS * (double) spec->device.l2_kib * 1024.0 /
                        wave_bytes);
    guint64 run = need > WAVES_LEAST ? (guint64) MIN (need, 1e15)
                                     : WAVES_LEAST;
    return blocks / per_wave >= 2 * run ? run : 0;
}

gboolean
run_waves_wanted (const GpuSpec *spec, const KernInstance *k,
                  const RunOptions *o, guint64 blocks, guint64 per_wave)
{
    if (o->mode == RUN_EXACT || o->window > 0 || run_can_sample (k) ||
        run_waves_to_run (spec, k, blocks, per_wave) == 0)
        return FALSE;
    return o->mode == RUN_SAMPLED || run_is_large (k, blocks);
}

/* The run: its full waves and the launch's partial last wave, so that
 * it ends as the launch does, its last blocks on fewer SMs.  The blocks
 * past it retire at the rate they did from half its full waves (the
 * L2 filled four times over: L2_FILLS) to the last full wave's start (every
 * SM still busy), and the counters go as they went over that span:
 * its cycles, instructions and bytes per block.  Over that span, not
 * the whole run: the run's first waves write into an L2 with room,
 * and the L2 the run leaves holds dirty lines it never wrote back,
 * which the launch writes back as it goes on. */
void
run_by_waves (const GpuSpec *spec, const KernInstance *k, RunResult *r,
              const RunOptions *o, RunL2 *l2)
{
    int all = spec->device.sm_count;
    guint64 per_wave = (guint64) all * (guint64) r->occ.blocks_per_sm;
    guint64 run = run_waves_to_run (spec, k, r->blocks, per_wave);
    g_assert (run >= WAVES_LEAST);
    guint64 run_blocks = run * per_wave + r->blocks % per_wave;
    g_auto (RunWindow) win = {
        .k = k, .iterations = k->iterations, .warm_l2 = l2->from,
        .nth = { run / 2 * per_wave, run_blocks - per_wave }
    };
    run_window_progress (&win, o, run_blocks, all, all);
    g_autoptr (Gpu) gpu = run_gpu_for (spec, &r->occ, run_blocks, all, &win);
    win.gpu = gpu;
    gpu_run (gpu);
    win.gpu = NULL;
    g_assert (win.n_all == run_blocks);

    RunSample s, launch;
    RunCost cost = { 0, 0 };
    run_take_sample (gpu, &s);
    run_count_cost (gpu, &cost);
    double times = (double) (r->blocks - run_blocks) /
                   (double) (win.nth[1] - win.nth[0]);
    run_sample_combine (&launch, &s, 1.0, &win.nth_sample[1], &win.nth_sample[0],
                        times);
    double cycles = (double) s.st.cycles +
                    times * (double) (win.nth_at[1] - win.nth_at[0]);
    r->stats = launch.st;
    r->mem = launch.mem;
    r->cycles = r->stats.cycles = (Cycle) (cycles + 0.5);
    r->detailed_sms = all;
    r->window = k->iterations;
    r->waves_run = (run_blocks + per_wave - 1) / per_wave;
    r->sampled = r->by_waves = TRUE;
    r->events = cost.events;
    r->simulated_instructions = cost.instructions;
}
