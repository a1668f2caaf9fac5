/*
 * run.c -- simulate one launch on the whole GPU.  See run.h.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "models/run.h"
#include "sim/gpu.h"

typedef struct {
    const KernInstance *k;
    guint64 iterations;
} Window;

static InstrStream *
open_warp (void *ctx, guint64 block, int warp)
{
    const Window *w = ctx;
    return kern_open_warp_window (w->k, block, warp, w->iterations);
}

/* What one simulation counted: 'blocks' blocks, the main loop cut to
 * some number of iterations. */
typedef struct {
    SimStats st;
    MemStats mem;
    guint64 window;     /* main-loop iterations simulated */
} Sample;

/* The work the simulations of a run actually did (for --verbose). */
typedef struct {
    guint64 instructions;
    guint64 events;
} Cost;

static void
simulate (const GpuSpec *spec, const KernInstance *k, const OccResult *occ,
          guint64 blocks, guint64 iterations, Sample *out, Cost *cost)
{
    Window win = { k, iterations };
    GpuWorkload w = { blocks, k->threads, occ->blocks_per_sm,
                      (guint64) MAX (occ->l1_bytes, 0), open_warp, &win };
    g_autoptr (Gpu) gpu = gpu_new (spec, &w);
    gpu_run (gpu);
    out->window = iterations;
    gpu_stats (gpu, &out->st);
    out->mem = *gpu_mem_stats (gpu);
    cost->instructions += out->st.warp_instructions;
    cost->events += gpu_events (gpu);
}

/* Counters are all 64-bit: they are combined as arrays. */
G_STATIC_ASSERT (sizeof (SimStats) % sizeof (guint64) == 0);
G_STATIC_ASSERT (sizeof (MemStats) % sizeof (guint64) == 0);

static void
add_scaled_array (guint64 *t, const guint64 *x, const guint64 *y, gsize n,
                  double times)
{
    for (gsize i = 0; i < n; i++) {
        double v = (double) t[i] + times * ((double) x[i] - (double) y[i]);
        t[i] = v > 0 ? (guint64) (v + 0.5) : 0;
    }
}

/* total += times x (a - b), counter by counter, never below zero.
 * 'total' may be 'a' or 'b'. */
static void
add_difference (Sample *total, const Sample *a, const Sample *b, double times)
{
    add_scaled_array ((guint64 *) &total->st, (const guint64 *) &a->st,
                      (const guint64 *) &b->st, sizeof total->st / 8, times);
    add_scaled_array ((guint64 *) &total->mem, (const guint64 *) &a->mem,
                      (const guint64 *) &b->mem, sizeof total->mem / 8, times);
}

/* The largest window: past it the last measured cost per iteration is
 * taken as settled.  It was 32, and that was too short: in one wave on
 * the A6000 at 4096 the cost of an iteration still climbs for a hundred
 * iterations as the L2 hit rate rises (kernel 5: 3,474 cycles between
 * the windows 16 and 32, 3,919 between 32 and 64, 4,558 between 64 and
 * 128, 4,636 over the whole loop; kernel 7 2,858 -> 3,302; kernel 4
 * 2,907 -> 3,148), so the sampled runs came out up to a third fast.
 * Between 64 and 128 every SGEMM kernel is within 4 % of its whole-loop
 * cost but kernel 10, which swings (5,061, 5,425, 5,515, 5,019). */
#define MAX_WINDOW 128

/* Settled: the cost of one more iteration agreed within 1 % this many
 * times running.  Once is not enough: kernel 2 at 512 on the A6000
 * agrees between the windows 4-8 and 8-16 and then changes, and its
 * sampled run came out 6 % short. */
#define SETTLED 2

/* The window the later waves are measured in (see ALL_WAVES_UP_TO). */
#define LATER_WAVE_WINDOW 8

/* A wave of 'blocks' blocks: windows of 2, 4, 8 ... iterations until the
 * cost of one more iteration has settled (SETTLED) or the window
 * reaches MAX_WINDOW; with 'fixed' set, just the windows fixed / 2 and
 * fixed.  Leaves the last two windows in 'lo' and 'hi', and in 'shorter'
 * (if not NULL) the one of LATER_WAVE_WINDOW iterations, or 'hi' if the
 * series stopped short of it. */
static void
sample_wave (const GpuSpec *spec, const KernInstance *k, const OccResult *occ,
             guint64 blocks, guint64 fixed, Sample *lo, Sample *hi,
             Sample *shorter, Cost *cost)
{
    guint64 iters = k->iterations, i1 = MIN (fixed ? fixed / 2 : 2, iters), i2;
    double slope_before = -1;
    int agreed = 0;
    simulate (spec, k, occ, blocks, i1, lo, cost);
    for (;;) {
        i2 = MIN (2 * i1, iters);
        simulate (spec, k, occ, blocks, i2, hi, cost);
        if (shorter != NULL && i2 <= LATER_WAVE_WINDOW)
            *shorter = *hi;
        double slope = ((double) hi->st.cycles - (double) lo->st.cycles) /
                       (double) (i2 - i1);
        agreed = slope_before >= 0 &&
                         fabs (slope - slope_before) <= 0.01 * slope
                     ? agreed + 1 : 0;
        if (i2 == iters || i2 >= MAX_WINDOW || fixed || agreed == SETTLED)
            return;
        slope_before = slope;
        *lo = *hi;
        i1 = i2;
    }
}

/* total += n more iterations at the cost of one between 'lo' and 'hi'. */
static void
extrapolate (Sample *total, const Sample *lo, const Sample *hi, double n)
{
    add_difference (total, hi, lo, n / (double) (hi->window - lo->window));
}

/* Sampling assumes the main loop's iterations cost alike, as in a
 * matmul; a launch small enough to run whole is run whole.  "Small" is
 * in warp instructions, what the simulation's time goes by: an exact
 * run of 20 million takes a few seconds. */
#define SAMPLE_ABOVE_WARP_INSTRUCTIONS 20000000.0

static guint64
count_instructions (const KernInstance *k, guint64 iterations)
{
    g_autoptr (InstrStream) s = kern_open_warp_window (k, 0, 0, iterations);
    guint64 n = 0;
    while (instr_stream_next (s) != NULL)
        n++;
    return n;
}

/* The launch's warp instructions, from block 0's first warp: its
 * stream with one and with two iterations gives the cost outside the
 * loop and per iteration. */
static double
estimate_instructions (const KernInstance *k, guint64 blocks)
{
    double one = (double) count_instructions (k, 1);
    double two = (double) count_instructions (k, 2);
    double per_warp = one + (two - one) * (double) (k->iterations - 1);
    return per_warp * (double) blocks * (double) kern_warps (k);
}

static gboolean
should_sample (const KernInstance *k, const RunOptions *o, guint64 blocks)
{
    if (o->mode == RUN_EXACT || k->iterations < 4)
        return FALSE;
    if (o->mode == RUN_SAMPLED)
        return TRUE;
    return estimate_instructions (k, blocks) > SAMPLE_ABOVE_WARP_INSTRUCTIONS;
}

/* Waves: the first wave starts on an idle GPU; its windows give the
 * cost of one iteration once the blocks have drifted out of their
 * lockstep start, which takes a while (the cost per iteration can jump
 * after a dozen iterations as the blocks sharing L2 data drift apart).
 * With at most ALL_WAVES_UP_TO full waves the whole launch is simulated
 * in the first wave's largest window (what a wave adds depends on the
 * L2 data the one before left: kernel 3 at 512 on the A6000, 4 waves,
 * came out 6 % long from the second wave's addition counted twice).
 * With more, the later waves are measured in a short window
 * (LATER_WAVE_WINDOW): one, two and four waves.  The second wave adds
 * more than the later ones, which start out of step (kernel 2 on 8 SMs
 * at 512: 9 % more), and some kernels alternate from wave to wave
 * (kernel 3 there: a wave of 23,440 cycles, then one of 20,990), so
 * each later wave adds half of what the third and fourth add together.
 * The partial last wave adds what it adds after one.  Each wave's
 * remaining iterations cost what the first wave's settled iterations
 * cost; a partial last wave's what its own do (fewer SMs share L2 and
 * DRAM).  The short window costs a later wave's extrapolation a little
 * (its first iterations stand in for settled ones: at most 8 of the
 * 128 or more a 4096 launch has), and saves most of the time: with
 * the later waves in the first wave's largest window, kernel 9 at 4096
 * on the A6000 simulated 253 million warp instructions (windows up to
 * 32), now 190 million. */
#define ALL_WAVES_UP_TO 3

static void
run_sampled (const GpuSpec *spec, const KernInstance *k, RunResult *r)
{
    guint64 per_wave = (guint64) spec->device.sm_count *
                       (guint64) r->occ.blocks_per_sm;
    guint64 full = r->blocks / per_wave, tail = r->blocks % per_wave;
    guint64 iters = k->iterations;
    Sample lo, hi, shorter, total, more, tail_lo, tail_hi;
    Cost cost = { 0, 0 };

    sample_wave (spec, k, &r->occ, MIN (r->blocks, per_wave), 0, &lo, &hi,
                 &shorter, &cost);
    guint64 w = r->window = hi.window;
    gboolean many = full > ALL_WAVES_UP_TO;
    /* Many waves: the later ones in the shorter window (1 wave there
     * is 'one'), each with its remaining iterations extrapolated. */
    const Sample *one = many ? &shorter : &hi;
    guint64 later = one->window;
    total = hi;
    extrapolate (&total, &lo, &hi, (double) (iters - w));
    if (full >= 2)
        extrapolate (&total, &lo, &hi,
                     (double) ((full - 1) * (iters - later)));
    if (full >= 1 && tail > 0) {
        sample_wave (spec, k, &r->occ, tail, w, &tail_lo, &tail_hi, NULL,
                     &cost);
        extrapolate (&total, &tail_lo, &tail_hi, (double) (iters - later));
    }
    if (many) {
        Sample two, four;
        simulate (spec, k, &r->occ, 2 * per_wave, later, &two, &cost);
        simulate (spec, k, &r->occ, 4 * per_wave, later, &four, &cost);
        add_difference (&total, &two, one, 1.0);
        add_difference (&total, &four, &two, (double) (full - 2) / 2);
        if (tail > 0) {
            simulate (spec, k, &r->occ, per_wave + tail, later, &more, &cost);
            add_difference (&total, &more, one, 1.0);
        }
    } else if (r->blocks > per_wave) {
        simulate (spec, k, &r->occ, r->blocks, w, &more, &cost);
        add_difference (&total, &more, &hi, 1.0);
    }
    r->stats = total.st;
    r->mem = total.mem;
    r->cycles = total.st.cycles;
    r->events = cost.events;
    r->simulated_instructions = cost.instructions;
    r->sampled = TRUE;
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
    double per_s = r->time_ms > 0 ? 1.0 / (r->time_ms * 1e-3) / 1e9 : 0;
    double sector = spec->mem.l1_sector_bytes;
    r->l1_gbs = (double) (m->load_sectors + m->store_sectors) * sector * per_s;
    r->l2_gbs = (double) m->l2_sectors * sector * per_s;
    r->dram_gbs = (double) r->dram_bytes * per_s;
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
    guint64 per_wave = (guint64) spec->device.sm_count *
                       (guint64) out->occ.blocks_per_sm;
    out->waves = (out->blocks + per_wave - 1) / per_wave;
    if (should_sample (k, options, out->blocks)) {
        run_sampled (spec, k, out);
    } else {
        Sample s;
        Cost cost = { 0, 0 };
        simulate (spec, k, &out->occ, out->blocks, k->iterations, &s, &cost);
        out->stats = s.st;
        out->mem = s.mem;
        out->events = cost.events;
        out->cycles = s.st.cycles;
        out->window = k->iterations;
        out->simulated_instructions = cost.instructions;
    }
    figures (spec, k, out);
    return TRUE;
}

void
run_limiter (const GpuSpec *spec, const RunResult *r, char *buf, gsize size)
{
    const SimStats *st = &r->stats;
    const MemStats *m = &r->mem;
    double sm_cycles = (double) r->cycles * spec->device.sm_count;
    double sp_cycles = sm_cycles * spec->sm.sub_partitions;
    double fp32 = (double) (st->op_count[INSTR_FFMA] + st->op_count[INSTR_FADD] +
                            st->op_count[INSTR_FMUL]) * 32.0 /
                  (sp_cycles * spec->pipe.fma_lanes);
    double bytes_per_cycle = 1e3 / spec->device.sm_clock_mhz;  /* GB/s -> B/clk */
    const struct {
        const char *name;
        double use;
    } parts[] = {
        { "the FP32 pipe", fp32 },
        { "instruction issue", (double) st->warp_instructions / sp_cycles },
        { "L1/LSU throughput", (double) m->l1_busy_cycles / sm_cycles },
        { "shared-memory wavefronts",
          (double) m->smem_wavefronts /
              (sm_cycles * spec->mem.smem_bytes_per_clk / (spec->mem.smem_banks * 4.0)) },
        { "L2 bandwidth",
          (double) m->l2_sectors * spec->mem.l1_sector_bytes /
              ((double) r->cycles * spec->mem.l2_bandwidth_gbs * bytes_per_cycle) },
        { "DRAM bandwidth",
          (double) (m->dram_read_bytes + m->dram_write_bytes) /
              ((double) r->cycles * spec->device.dram_stream_gbs * bytes_per_cycle) },
    };
    int best = 0;
    for (guint i = 1; i < G_N_ELEMENTS (parts); i++)
        if (parts[i].use > parts[best].use)
            best = (int) i;
    if (r->cycles > 0 && parts[best].use >= 0.6) {
        g_snprintf (buf, size, "%s (%.0f %% of its peak)", parts[best].name,
                    100 * parts[best].use);
        return;
    }
    int stall = STALL_NOT_SELECTED;
    for (int i = STALL_NOT_SELECTED; i < STALL_N; i++)
        if (st->warp_cycles[i] > st->warp_cycles[stall])
            stall = i;
    g_snprintf (buf, size, "latency: too few warps to hide it (busiest unit, "
                "%s, at %.0f %%; warps wait most on %s)", parts[best].name,
                100 * parts[best].use, stats_stall_name ((StallReason) stall));
}
