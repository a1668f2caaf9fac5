/*
 * run_sample.c -- sampled runs: the whole GPU for a window of the main
 * loop and some of the waves, extrapolated over the rest.  See
 * run_sample.h; how, at run_sampled ().
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "models/run_counters.h"
#include "models/run_kinds.h"
#include "models/run_marks.h"
#include "models/run_sample.h"
#include "models/run_sim.h"
#include "models/run_tail.h"

/* SMs simulated in full in a sampled run; the others mirror them
 * (gpu.h).  Four divide the SM counts of every timing preset (80, 40,
 * 108, 84, 132) evenly. */
#define SAMPLED_DETAILED_SMS 4

/* Mirrors that each SM simulated in full must stand for before they
 * pay: with fewer (a GPU of under 12 SMs, made small with --set), all
 * run in full, at most three times as long.  Lockstep costs accuracy
 * (gpu.h): kernel 5 at 1024 on 8 SMs came out +3.1 % of exact with four
 * in full and +0.8 % with all eight. */
#define MIRRORS_PER_DETAILED_SM 2

/* The largest window a run starts with (one that takes every wave may
 * afford more: affordable_window).  Measured against sampled runs with
 * the whole loop (up to 512 iterations) on the A6000 at 4096, in cycles, with
 * the later waves extrapolated as run_sampled () says: a window of 64
 * is off by up to 4.0 % where an SM holds more than one block (kernel
 * 8, -4.0 %; kernel 6, -3.3 %; kernel 4, -2.1 %), 32 by up to 6.6 %
 * (kernel 4); where it holds one, kernel 1 by -2.5 % and kernels 2 and
 * 3 by +1.1 and -0.02 % (kernel 2 at 128: -5.8 %; a window's rate is a
 * noisy measure of a loop whose warps drift apart).  (With the second
 * wave's addition standing for the later waves whatever the blocks per
 * SM, 64 was off by up to 12 % and 128 by up to 6.6 %, kernel 7 both
 * times.)  The first wave's cost per iteration is flat past 16
 * iterations in all of them but kernel 2's. */
#define MAX_WINDOW 64

/* Sampling assumes the main loop's iterations cost alike, as in a
 * matmul; a launch small enough to run whole is run whole.  "Small" is
 * in warp instructions, what the simulation's time goes by: an exact
 * run of 20 million takes a few seconds. */
#define SAMPLE_ABOVE_WARP_INSTRUCTIONS 20000000

static guint64
count_instructions (const KernInstance *k, guint64 iterations)
{
    g_autoptr (InstrStream) s = kern_open_warp_window (k, 0, 0, iterations);
    guint64 n = 0;
    while (instr_stream_next (s) != NULL)
        n++;
    return n;
}

/* A warp's instructions with one iteration, and each further one adds,
 * from block 0's first warp: its stream with one and with two. */
typedef struct {
    double one, per_iteration;
} WarpCost;

static WarpCost
warp_cost (const KernInstance *k)
{
    double one = (double) count_instructions (k, 1);
    return (WarpCost) { one, (double) count_instructions (k, 2) - one };
}

/* The warp instructions of 'blocks' blocks whose loop is cut to
 * 'iterations'. */
static double
estimate_instructions (const KernInstance *k, guint64 blocks,
                       guint64 iterations)
{
    WarpCost c = warp_cost (k);
    double per_warp = c.one + c.per_iteration * (double) (iterations - 1);
    return per_warp * (double) blocks * (double) kern_warps (k);
}

double
run_estimate_instructions (const KernInstance *k, guint64 blocks)
{
    return estimate_instructions (k, blocks, MAX (k->iterations, 1));
}

gboolean
run_is_large (const KernInstance *k, guint64 blocks)
{
    return run_estimate_instructions (k, blocks) >
           SAMPLE_ABOVE_WARP_INSTRUCTIONS;
}

gboolean
run_can_sample (const KernInstance *k)
{
    gint64 at;
    g_autoptr (InstrStream) s = kern_open_warp_window (k, 0, 0, 1);
    return k->iterations >= 4 && kern_stream_position (s, &at) &&
           warp_cost (k).per_iteration > 0;
}

gboolean
run_should_sample (const KernInstance *k, const RunOptions *o,
                   guint64 blocks)
{
    if (o->mode == RUN_EXACT || !run_can_sample (k))
        return FALSE;
    if (o->mode == RUN_SAMPLED || o->window > 0)
        return TRUE;
    return run_is_large (k, blocks);
}

/* Full waves in a sampled run (then the partial last wave).  With one
 * block per SM: the waves with a block of the grid's first row
 * (blockIdx.y 0), then a row's worth of whole waves (at least one),
 * whose additions stand for the later ones (2. at run_sampled).  The
 * blocks of one row share their rows of A and each row's blocks read
 * all of B, so the first row's waves bring B into L2 and the later
 * rows' find it there: kernel 3 on 8 SMs at 1024 (4 waves a row)
 * retires its waves 92,000 cycles apart in the first row, then 92,000,
 * 82,000, 82,000, 82,000 in every later one, and its second wave's
 * addition, which stood for all the later waves, made it 8.1 % long
 * (now -0.03 %); kernel 2 on 21 SMs at 1024 (1.5 waves a row, as at
 * 4096 on the A6000) went from +4.6 % to -1.0 % of exact.  A grid of
 * one row, or of rows of many waves (by_rows), takes two waves; any
 * grid up to STEADY_WAVES where they are more and cost at most
 * STEADY_BUDGET.  With more blocks per SM, up to STEADY_WAVES where
 * they cost at most STEADY_BUDGET, else the first alone, and every
 * full wave's iterations go at the SMs' rate over the run's waves past
 * the first (2. at run_sampled).  The first wave's blocks start in
 * lockstep and load together; later an SM's blocks are staggered, one
 * loading while another computes, as in the rest of the launch.  And
 * one wave's rate is a noisy measure: with the L2 or DRAM latency a
 * cycle or two off (exact runs move 0.4 % at most), kernels 4-10 at
 * 1024 on 8 SMs came out -6.4 to +7.7 % of exact at the first wave's
 * rate (kernel 4 +4.4 to +7.7 %, kernel 5 -6.4 to +2.9 %), and -0.4 to
 * +4.2 % at the later waves' (kernel 10, whose four waves the run
 * takes whole, -7.7 to -2.6 %).  At 2048 there, kernels 4-10 -3.8 to
 * -0.2 % and -3.6 to +3.1 %.  This was tried once and reverted on
 * kernel 5 at 2048, then +9.0 %; with fills on the L1's data path it
 * is +3.1 %.  At 4096 the budget keeps the first wave's rate: three
 * waves would take the A6000's validation from 9 to 15 s. */
#define MAX_ROW_WAVES 4

/* Full waves a run takes, if they cost at most STEADY_BUDGET warp
 * instructions of the whole GPU, mirrors' included: a few seconds
 * (kernel 9 at 1024 on 8 SMs, 4 waves, 37 million, 4.2 s on one core;
 * kernel 7 there, 4 waves of 125 iterations, 40 million, 4.6 s).
 * On the A6000's 84 SMs four waves of even kernel 4 at 4096 are 69
 * million.  With one block per SM too, where they are more than the
 * grid rows' waves: there each later wave adds what the run's waves
 * past the first row added, on average, and one wave's addition is a
 * noisy measure -- kernel 2 at 256 on 8 SMs (8 waves, a row one wave),
 * whose blocks take 30 to 34 thousand cycles as its L1 hits or misses,
 * came out -2.2 % of exact with two waves and -0.02 % with four. */
#define STEADY_WAVES 4
#define STEADY_BUDGET 40000000
/* A launch cheap enough to run exact is one a sampled run affords
 * whole (sample_is_launch). */
G_STATIC_ASSERT (SAMPLE_ABOVE_WARP_INSTRUCTIONS <= STEADY_BUDGET);

/* Whether the run takes two grid rows' waves: not for a grid of one
 * row, nor for rows of more than MAX_ROW_WAVES waves, where the run
 * would grow into much of the launch on a small GPU (kernel 3 at 4096
 * on 8 SMs, 16 waves a row: 2.85 s instead of 0.18 s, for 0.01 % of
 * the cycles; its B, ten times the L2, does not wait there for the
 * next row). */
static gboolean
by_rows (const KernInstance *k, guint64 per_wave)
{
    return k->grid_y > 1 &&
           (k->grid_x + per_wave - 1) / per_wave <= MAX_ROW_WAVES;
}

static guint64
first_row_waves (const KernInstance *k, guint64 per_wave)
{
    return by_rows (k, per_wave) ? (k->grid_x + per_wave - 1) / per_wave : 1;
}

/* The most iterations, 'from' up to the whole loop, at which 'blocks'
 * blocks cost at most STEADY_BUDGET (estimate_instructions, which is
 * linear in them); 0 if not even 'from'. */
static guint64
affordable_window (const KernInstance *k, guint64 blocks, guint64 from)
{
    WarpCost c = warp_cost (k);    /* per_iteration > 0: run_can_sample */
    double per_warp = STEADY_BUDGET / ((double) blocks * (double) kern_warps (k));
    if (per_warp < c.one + c.per_iteration * (double) (from - 1))
        return 0;
    double most = 1 + floor ((per_warp - c.one) / c.per_iteration);
    return most >= (double) k->iterations ? k->iterations : (guint64) most;
}

/* Whether a run of 'waves' full waves fits STEADY_BUDGET. */
static gboolean
steady_affordable (const KernInstance *k, guint64 per_wave, guint64 waves)
{
    return estimate_instructions (k, waves * per_wave,
                                  MIN (k->iterations, MAX_WINDOW)) <=
           STEADY_BUDGET;
}

static guint64
full_waves_to_run (const KernInstance *k, const OccResult *occ,
                   guint64 per_wave, guint64 full)
{
    guint64 waves = MIN (full, STEADY_WAVES);
    gboolean steady = waves > 1 && steady_affordable (k, per_wave, waves);
    guint64 rows = first_row_waves (k, per_wave) +
                   (by_rows (k, per_wave) ? MAX (k->grid_x / per_wave, 1) : 1);
    if (occ->blocks_per_sm > 1)
        return steady ? waves : 1;
    return steady ? MAX (rows, waves) : rows;
}

/* The blocks a sampled run simulates: its first 'run_full' full waves
 * and the partial last one, or every block where those are all. */
static guint64
blocks_to_run (guint64 blocks, guint64 per_wave, guint64 run_full)
{
    return blocks / per_wave > run_full
               ? run_full * per_wave + blocks % per_wave
               : blocks;
}

/* The window a sampled run of 'run_blocks' blocks starts with, and
 * whether it keeps it ('*keep'), the marks cutting it no shorter (1. at
 * run_sampled): 'window' where one is asked for; else MAX_WINDOW, or as
 * many as it affords where it takes 'every_wave' of the launch. */
static guint64
start_window (const KernInstance *k, guint64 run_blocks, gboolean every_wave,
              guint64 window, gboolean *keep)
{
    guint64 w = MIN (k->iterations, window > 0 ? window : MAX_WINDOW);
    guint64 afford = window == 0 && every_wave
                         ? affordable_window (k, run_blocks, w) : 0;
    w = MAX (w, afford);
    *keep = window > 0 || afford > 0 || w == k->iterations;
    return w;
}

double
run_sampled_least (const KernInstance *k, const OccResult *occ,
                   guint64 blocks, int sm_count, guint64 window,
                   guint64 *least)
{
    guint64 per_wave = (guint64) sm_count * (guint64) occ->blocks_per_sm;
    guint64 full = blocks / per_wave;
    guint64 run_full = full_waves_to_run (k, occ, per_wave, full);
    guint64 run_blocks = blocks_to_run (blocks, per_wave, run_full);
    gboolean keep;
    guint64 w = start_window (k, run_blocks, full <= run_full, window, &keep);
    *least = keep ? w : run_marks_shortest (w);
    return estimate_instructions (k, run_blocks, *least);
}

/* Whether a sampled run would be the whole launch -- every full wave
 * and the whole loop -- at a cost the automatic choice runs exact
 * (SAMPLE_ABOVE_WARP_INSTRUCTIONS): then its SMs all run in full, and
 * it is the exact run.  Mirrors would buy a few seconds at most, and
 * cost accuracy (gpu.h): kernel 2 at 256 and 512 on the A6000, one and
 * three waves, came out +3.3 and +7.1 % of exact with four SMs in full. */
static gboolean
sample_is_launch (const KernInstance *k, const OccResult *occ,
                  guint64 blocks, guint64 per_wave, guint64 window)
{
    guint64 full = blocks / per_wave;
    /* Without a window asked for, such a run affords the whole loop
     * (affordable_window: the cost below is within its budget). */
    return (window == 0 || k->iterations <= window) &&
           full <= full_waves_to_run (k, occ, per_wave, full) &&
           estimate_instructions (k, blocks, k->iterations) <=
               SAMPLE_ABOVE_WARP_INSTRUCTIONS;
}

int
run_sampled_detailed_sms (const KernInstance *k, const OccResult *occ,
                          guint64 blocks, int sm_count, guint64 window)
{
    guint64 per_wave = (guint64) sm_count * (guint64) occ->blocks_per_sm;
    if (sm_count < SAMPLED_DETAILED_SMS * (1 + MIRRORS_PER_DETAILED_SM) ||
        sample_is_launch (k, occ, blocks, per_wave, window))
        return sm_count;
    return SAMPLED_DETAILED_SMS;
}

/* Cycles per iteration of one warp on the SMs simulated in full (all of
 * them together), from wave 'from' at iteration 'lo' to wave 'to' at
 * 'hi': the rate the SMs did iterations at then, whichever waves'.  0
 * if either was not reached. */
static double
span_cost (const Probe *probe, int from, guint64 lo, int to, guint64 hi)
{
    Cycle a = probe_entered (probe, from, lo), b = probe_entered (probe, to, hi);
    guint64 done = a == CYCLE_NEVER || b == CYCLE_NEVER || b <= a
                       ? 0 : probe_entries_between (probe, a, b);
    return done == 0 ? 0 : (double) (b - a) / (double) done;
}

/* What a full wave past 'row' added: on each SM simulated in full, the
 * time from its 'row'-th wave's last block retiring to its 'run'-th's,
 * over the waves between, on average (one block per SM: 2. at
 * run_sampled). */
static double
later_wave_added (const RunWindow *win, int detailed, guint64 row, guint64 run)
{
    int n = 0;
    double sum = 0;
    for (int i = 0; i < detailed; i++)
        if (win->n_retired[i] == win->keep) {
            const Cycle *t = &win->retired[i * win->keep];
            sum += (double) (t[run - 1] - t[row - 1]) / (double) (run - row);
            n++;
        }
    return n > 0 ? sum / n : 0;
}

/* Where the run would have ended with the whole loop: the latest, over
 * the SMs simulated in full, of an SM's last retirement plus each of
 * its blocks' 'more' iterations, at the rate the SMs did iterations
 * (their blocks' together) while a block of the same wave, sharing its
 * SM with as many, was between its 'lo'-th and 'hi'-th (2. at
 * run_sampled).  Pooled over the SMs: blocks alike and alike placed
 * settle into different cycles of issue, and one SM's short span is a
 * noisy measure of the whole loop (kernel 5 at 2048 on the A100: the
 * tail's lone blocks on the four SMs in full ran at 407, 407, 516 and
 * 407 cycles a warp-iteration up to their 64th, and, in a run of the
 * whole loop, at 437 to 444 from the 128th to the 256th; +8.2 % of
 * exact with each SM's own rate, +3.0 % pooled). */
static double
latest_end (const Probe *probe, const RunWindow *win, const RunKinds *kinds,
            guint64 blocks, guint64 per_wave, int per_sm, int detailed,
            guint64 lo, guint64 hi, double more, double *ext)
{
    /* A pool per wave, per count of blocks sharing the SM (capped at
     * the blocks an SM holds, as one may retire and its successor start
     * within the span) and per kind of block (an edge block of kernel 1
     * does its iterations four times as fast as a whole one). */
    guint64 pools = ((blocks + per_wave - 1) / per_wave) * (guint64) per_sm *
                    (guint64) kinds->n;
    g_autofree double *end = g_new0 (double, detailed);
    g_autofree double *span = g_new0 (double, pools);
    g_autofree double *done = g_new0 (double, pools);
    g_autofree gint64 *pool = g_new (gint64, blocks);
    /* Each SM's blocks, chained: 'first' by SM, 'next' by block. */
    g_autofree gint64 *first = g_new (gint64, detailed);
    g_autofree gint64 *next = g_new (gint64, blocks);
    double latest = 0;
    for (int i = 0; i < detailed; i++) {
        end[i] = (double) win->last_retired[i];
        first[i] = -1;
    }
    for (guint64 b = blocks; b-- > 0;)
        if (win->block_sm[b] >= 0) {
            next[b] = first[win->block_sm[b]];
            first[win->block_sm[b]] = (gint64) b;
        }
    for (int i = 0; i < detailed; i++)
        for (gint64 b = first[i]; b >= 0; b = next[b]) {
            Cycle from = probe_block_entered (probe, (guint64) b, lo);
            Cycle to = probe_block_entered (probe, (guint64) b, hi);
            guint64 n = 0;
            int sharing = 0;    /* blocks that iterated then, itself too */
            pool[b] = -1;
            if (from == CYCLE_NEVER || to == CYCLE_NEVER)
                continue;
            for (gint64 c = first[i]; c >= 0; c = next[c]) {
                guint64 e = probe_block_entries_between (probe, (guint64) c,
                                                         from, to);
                n += e;
                sharing += e > 0;
            }
            if (n == 0)
                continue;
            pool[b] = ((gint64) ((guint64) b / per_wave * (guint64) per_sm) +
                       MIN (sharing, per_sm) - 1) * kinds->n + kinds->of[b];
            span[pool[b]] += (double) (to - from);
            done[pool[b]] += (double) n;
        }
    for (int i = 0; i < detailed; i++)
        for (gint64 b = first[i]; b >= 0; b = next[b])
            if (pool[b] >= 0) {
                double e = more * probe_block_warps (probe, (guint64) b) *
                           span[pool[b]] / done[pool[b]];
                end[i] += e;
                if (ext != NULL)
                    ext[b] = e;
            }
    for (int i = 0; i < detailed; i++)
        latest = MAX (latest, end[i]);
    return latest;
}

/* The block-iterations the first wave's warps had entered by the
 * run's first retirement (RunWindow.nth[0]), the whole GPU's blocks'
 * worth: run_counters_first_memory's 'done'. */
static double
first_wave_done (const Probe *probe, const RunWindow *win, guint64 first)
{
    return (double) probe_entries_between (probe, 0, win->nth_at[0] + 1) /
           (double) probe_warps (probe, 0) * (double) first;
}

/* Whether a wave's loop, over the whole of it, reads no more from DRAM
 * than the L2 holds, as the first wave's did in its window ('loop',
 * its requests by the run's first retirement, over 'done'
 * block-iterations): then the next wave finds in L2 what this one
 * brought, over the whole loop as over the window, and the waves past
 * the first go at their own rate (run_counters.h, by rate).  Where it
 * reads more, the window's smaller footprint lets the run's later waves
 * find in L2 what the whole loop's would have pushed out (kernels 5, 7
 * and 10 at 2048 on 8 SMs, B 16 MB against 6 MB: their DRAM bytes at
 * the later waves' rate came out 49-55 % short of the exact runs'), and
 * every wave goes at the first's, cold, rate. */
static gboolean
loop_fits_l2 (const GpuSpec *spec, const MemStats *loop, double done,
              guint64 first, guint64 iters)
{
    if (done <= 0 || loop->load_requests + loop->store_requests == 0)
        return FALSE;
    double whole = (double) loop->dram_read_bytes * (double) first *
                   (double) iters / done;
    return whole <= (double) spec->device.l2_kib * 1024;
}

/* Whether the run's last wave should go to SMs whole (run_tail.c),
 * by how the SMs in full retired their first wave's blocks: with
 * mirrors SM s's are blocks s, s + SMs, ... (gpu.c). */
static gboolean
first_wave_packs (const RunWindow *win, int d, int per_sm, guint64 tail,
                  const GpuSpec *spec)
{
    guint64 all = (guint64) spec->device.sm_count;
    g_autofree Cycle *ends = g_new (Cycle, d * per_sm);
    for (int s = 0; s < d; s++)
        for (int i = 0; i < per_sm; i++)
            ends[s * per_sm + i] = win->block_end[(guint64) i * all +
                                                  (guint64) s];
    return run_tail_packs (ends, d, per_sm, tail, spec->device.sm_count);
}

/* A sampled run: the launch's first full_waves_to_run () waves and its
 * partial last wave (all of it, if it has no more), each block's loop
 * cut to a window 'w', simulated to the end.
 *
 * 1. The window.  The run starts at MAX_WINDOW (or the whole loop, or
 *    more where it can afford them: below), and the probe watches its first
 *    wave: the cost of one more iteration is the time the wave takes to do
 *    one more iteration's worth of work, between the marks at 1, 2, 4, 8
 *    ... iterations done.  If that settles (run_marks.c: SETTLED, from
 *    SETTLED_FROM on) before half the window, the run goes on with the
 *    window twice the iterations where it settled, its streams cut short
 *    in flight (run_marks.c, shorten:
 *    the same run as one started with that window, and 4 % off the A6000's
 *    validation, where kernels 3, 10 and 11 settle by 16), or, where they
 *    cannot be cut (kernel 1's, some of whose warps are past it by then),
 *    stops and starts again with it; else it goes on as it is.  A
 *    run that takes every full wave of the launch, where STEADY_BUDGET
 *    affords MAX_WINDOW, takes as many iterations as it affords, the whole
 *    loop if it can, and keeps them (affordable_window): the window is then
 *    all that is cut, a shorter one saves at most half of a small run, and
 *    each iteration cut is one more extrapolated.  So is a window that
 *    is the whole loop (MAX_WINDOW or fewer): there too a cut saves at
 *    most half the run, and a loop whose warps drift apart, meeting at
 *    no barrier, costs more an iteration as it goes on than its first
 *    16 iterations show (kernel 2 at 1000 on the A6000, 62 iterations:
 *    -6.2 % of exact with 32, +1.2 % whole).  A short window costs
 *    accuracy where the loop's data outgrow the L2 and the window's do not
 *    (kernel 10 at 1024 on 8 SMs, 4 waves, came out -2.9 % of exact with a
 *    window of 32, -0.7 % with a 64 MB L2; 64 is its whole loop), and a
 *    window's rate is a noisy measure (kernel 7 at 1024 on 8 SMs, 4
 *    waves, 128 iterations: +2.0 % of exact with 64, -0.14 % with the 125
 *    the budget affords; kernels 5, 6 and 8 there take the whole loop).
 *    Not where waves go past the run: kernel 1 at 4096 on the A6000 (38
 *    million) would take the validation from 9 to 11 s.  A window asked for
 *    (RunOptions) is kept too, whatever the first wave does; the run's
 *    waves are chosen as for the automatic one.  Until the first wave's
 *    first block retires the run is the first wave alone, so the marks are
 *    the same as in a run of that wave only.
 *    Where the run's waves reach a grid row past the first (whose
 *    blocks read the first row's data again) and the waves' loops,
 *    going by what the first wave read from DRAM by its 8th iteration
 *    (cold: each block's data once), read more than the L2 holds from
 *    one row to the next, the window is not cut short of reading that
 *    much, and where it falls short it is lengthened in flight (or the
 *    run started again, watched) to twice that, as far as STEADY_BUDGET
 *    affords, if it affords that much (run_marks_l2_window): a
 *    shorter window's data wait in L2 for the next row, where the
 *    loop's would not.  Kernels 4-10 at 2048 on 8 SMs came out -6.2 to
 *    +4.6 % of exact with windows of 32 and 64, and -0.9 to +2.0 % with
 *    the 64 to 162 this takes (kernel 8: -6.2 and -0.9 %, at 64 and
 *    135).  At 4096 on the A100 it would take more than the budget
 *    affords, and would move the cycles by 0.5 % at most (kernels 5 and
 *    8, --window 256); on the A6000 no window there changes.
 *    A wave's cost per iteration can climb for its first dozen
 *    iterations as its blocks drift out of their lockstep start and
 *    the L2 fills (SETTLED_FROM); the marks see that in one run,
 *    where windows of 2, 4, 8 ... iterations each simulated from the
 *    start cost twice as much.
 * 2. The extrapolation.  Each block's iterations past 'w' lengthen
 *    its SM's run by the time the SMs in full took for that much work
 *    while blocks of its wave, sharing their SMs with as many as it
 *    did, were between a quarter and half of their window
 *    (latest_end); the run ends when the last SM does.  Not the SMs'
 *    average: where the last wave leaves some SMs a block more than
 *    others, those end last (kernel 4 at 1024 on the A6000, every SM
 *    in full: 256 blocks, 2 an SM, so 4 SMs run 4 blocks and 80 run 3;
 *    -15 % of exact with the average, -4.2 % with the latest).  The full waves past the
 *    run's are where an SM's blocks per wave part the cases:
 *    - One: a wave's blocks start one by one as the last wave's retire,
 *      so each full wave past the run's adds what one of the run's
 *      waves past the grid's first row added on the SMs simulated in
 *      full, on average -- from the wave before's last block retiring
 *      to its own -- and its iterations as those waves' did
 *      (full_waves_to_run says why not the first row's).  The first
 *      wave's rate would not do: its blocks start together, and their
 *      lockstep made kernels 2 and 3 on the A6000 at 1024 come out 12
 *      % long with it.
 *    - More: blocks of two waves share an SM, the older one ahead
 *      under an oldest-first scheduler (kernel 7 at 4096, whole loop:
 *      one block of a pair retires at 1.42 and the other at 2.69
 *      million cycles), so the time between two waves' last
 *      retirements is not a wave's cost: with it, kernels 4-10 on 8
 *      SMs at 2048 (13 to 61 waves) came out -7.7 to +6.4 % of exact
 *      with the whole loop, and up to +12 % with windows of 32.  What
 *      holds is the SMs' throughput: every full wave does its
 *      iterations at the rate the SMs did iterations in the first
 *      wave, those the run cut and those of the waves past it: -1.7
 *      to -0.1 % of exact with the whole loop, -1.9 to +3.2 % with
 *      windows of 32.  The waves past the run's go at a later rate
 *      where the run can take STEADY_WAVES: from the second wave a
 *      quarter through to the last half through, when the blocks an
 *      SM holds no longer start together (full_waves_to_run).  A
 *      single later wave's rate would not do: kernel 7 at 1024 on 4
 *      SMs came out +2.0, -3.1, -1.8 and -0.6 % of exact with the
 *      second, third, fourth and fifth wave's.  That span crosses the
 *      ends and starts of blocks, so its rate carries some of their
 *      fixed costs (prologue, epilogue), scaled by the iterations;
 *      against exact runs it does better than the first wave's all the
 *      same (full_waves_to_run).  Otherwise a wave's blocks' fixed
 *      costs are in the run's waves only.
 *    Where blocks differ (KernInstance.uneven), each block's iterations
 *    past 'w' go at the rate of its own kind's, and with one block per
 *    SM the launch's blocks are dealt out to the SMs, each taking its
 *    kind's time (run_kinds_dealt, run_kinds.c); with more, the full
 *    waves past the run's go by the rate above, by their blocks' busy
 *    warps (run_kinds_wave_warps).  Only the SMs in full time the
 *    kinds: a mirror sends its own block's requests, an edge block's
 *    busy lanes' alone, but in its SM's block's time.  That is enough:
 *    sgemm-1 at 1000 on the A100 came out -0.13 % of exact with 4 SMs
 *    in full, in 3.5 s, and -0.28 % with all 108, in 28 s.
 * 3. The last wave.  With mirrors, blocks go out round robin (gpu.c),
 *    which deals a partial last wave out one block an SM; an exact run
 *    gives each to the SM that frees a slot first, and where an SM's
 *    blocks retire together, that is all of its slots' at once.  Where
 *    that can matter (run_tail_may_pack), how the run's first wave
 *    retired tells whether they do (run_tail.c).  That is known only
 *    after the last wave's first blocks went out, at the first wave's
 *    first retirement, so they go out as a guess then says (whether
 *    that SM's blocks have all entered their last iteration,
 *    run_tail_guess), and where it was wrong the run is taken again,
 *    the same but for the last wave, dealt out as the first wave's
 *    retirements say (gpu.h), at twice the cost.  sgemm-10 at 2048 on
 *    the A100 (a wave of 216 blocks and 40 more) went from -22.0 to
 *    +1.3 % of exact.  The guess was right in every launch measured
 *    but sgemm-7 at 2048 on the A100, which is taken again.
 * Counters: extrapolated over the same waves (run_counters.c). */
gboolean
run_sampled (const GpuSpec *spec, const KernInstance *k, RunResult *r,
             const RunOptions *o, RunL2 *l2)
{
    guint64 window = o->window;
    guint64 per_wave = (guint64) spec->device.sm_count *
                       (guint64) r->occ.blocks_per_sm;
    guint64 full = r->blocks / per_wave, tail = r->blocks % per_wave;
    guint64 iters = k->iterations;
    guint64 first = MIN (r->blocks, per_wave);
    guint64 run_full = full_waves_to_run (k, &r->occ, per_wave, full);
    guint64 row = first_row_waves (k, per_wave);
    guint64 run_blocks = blocks_to_run (r->blocks, per_wave, run_full);
    int waves = (int) ((run_blocks + per_wave - 1) / per_wave);
    int per_sm = r->occ.blocks_per_sm, d = r->detailed_sms;
    gboolean by_rate = per_sm > 1;    /* 2. above */
    gboolean later_waves = !by_rate && full > run_full;
    gboolean steady = by_rate && full > run_full && run_full > 1;
    int keep = (int) run_full * per_sm;
    /* Where blocks differ, the run's last waves are the launch's own --
     * its partial one, and its full ones past the first row's but one,
     * whose addition stands for the waves past the run (run_counters.c:
     * the last one's, its own blocks' first touches of the bottom rows of
     * A among them, made sgemm-1's DRAM bytes at 1000 on the A6000 6.8
     * times the exact run's) -- so that the run meets the last rows of
     * blocks, at C's edge, as well as the first rows' (run_kinds_dealt).
     * With only the last full wave the launch's, sgemm-2 at 65 on one SM
     * (3 waves a grid row) never met its last row and came out -14 % of
     * exact. */
    guint64 own_last = k->uneven && full > run_full && run_full > row + 1
                           ? run_full - row - 1 : 0;
    gboolean own_tail = k->uneven && full > run_full && tail > 0;
    g_autofree Cycle *retired = g_new0 (Cycle, (gsize) (d * keep));
    g_autofree int *n_retired = g_new0 (int, d);
    g_autofree int *block_sm = g_new (int, run_blocks);
    g_autofree Cycle *last_retired = g_new0 (Cycle, d);
    /* Whether the last wave goes to SMs whole is known only from how
     * the first one retired: guessed, and the run taken again where the
     * guess was wrong (3. above). */
    gboolean may_pack = !k->uneven &&
                        run_tail_may_pack (d, spec->device.sm_count, per_sm,
                                           full, tail);
    gboolean dealt_right = FALSE;
    g_autofree Cycle *block_end = k->uneven || may_pack
                                      ? g_new0 (Cycle, run_blocks) : NULL;
    g_autofree double *ext = g_new0 (double, run_blocks);
    RunCost cost = { 0, 0 };
    gboolean keep_window;
    guint64 w = start_window (k, run_blocks, full <= run_full, window,
                              &keep_window);
    /* A block's data are read again a grid row on (by_rows), so many
     * waves later; where the run's waves stop short of that, no
     * window's data wait in L2 for them (run_marks_l2_window). */
    double reuse = k->grid_y > 1 ? MAX (1.0, (double) k->grid_x /
                                                 (double) per_wave)
                                 : 1.0;
    RunFirstWave f = {
        .window = w, .keep = keep_window,
        .l2_bytes = (guint64) spec->device.l2_kib * 1024, .iterations = iters,
        .reuse = reuse,
        .longest = (double) waves > reuse + 1
                       ? affordable_window (k, run_blocks, w) : 0
    };
    gboolean watch = TRUE;
    RunLaterWave later = { .wave = -1 };
    /* Retirements in order matter only to later_wave_added and the
     * bounds. */
    g_auto (RunWindow) win = {
        .k = k, .iterations = w, .per_sm = per_sm,
        .sm_count = spec->device.sm_count,
        .retired = by_rate ? NULL : retired,
        .n_retired = n_retired, .keep = keep, .block_sm = block_sm,
        .last_retired = last_retired, .block_end = block_end,
        .detailed = d,
        .bound = { (int) row, (int) (run_full - own_last) },
        .nth = { 1, 0 }    /* first_wave_done */
    };
    RunMarks marks = { &f, &later, &win };
    RunKinds kinds;
    if (own_last || own_tail) {
        win.tail_from = (run_full - own_last) * per_wave;
        win.tail_shift = (full - run_full) * per_wave;
    }
    g_autoptr (Probe) probe = NULL;
    g_autoptr (Gpu) gpu = NULL;

    /* The first pass watches its first wave; if that settles early, the
     * run goes on at twice the iterations where it did, or, if its
     * streams cannot be cut, starts again at that window, unwatched;
     * likewise with a longer window where the loop outgrows the L2, but
     * watched again (1. above). */
    for (;;) {
        g_clear_pointer (&gpu, gpu_free);
        g_clear_pointer (&probe, probe_free);
        memset (n_retired, 0, sizeof *n_retired * (gsize) d);
        memset (last_retired, 0, sizeof *last_retired * (gsize) d);
        memset (block_sm, 0xff, sizeof *block_sm * run_blocks);
        if (block_end != NULL)
            memset (block_end, 0, sizeof *block_end * run_blocks);
        win.iterations = w;
        win.warm_l2 = l2->from;
        win.guess_pack = may_pack && !dealt_right;
        win.n_all = 0;
        run_window_progress (&win, o, run_blocks, d, spec->device.sm_count);
        win.probe = probe = probe_new (per_wave, waves, w, run_blocks);
        gpu = run_gpu_for (spec, &r->occ, run_blocks, d, &win);
        probe_set_gpu (probe, gpu);
        memset (win.st_bound, 0, sizeof win.st_bound);
        memset (win.reached, 0, sizeof win.reached);
        win.gpu = gpu;
        f.gpu = gpu;
        f.probe = probe;
        marks.first = watch ? &f : NULL;
        later = (RunLaterWave) {
            .gpu = gpu, .probe = probe,
            .wave = later_waves || (steady && row < run_full) ? (int) row
                                                              : -1,
            .wave_hi = later_waves ? (int) row : (int) run_full - 1,
            .lo = MAX (w / 4, 1), .hi = MAX (w / 2, 2)
        };
        probe_on_marks (probe, run_marks_on, &marks);
        gpu_run (gpu);
        f.gpu = NULL;
        later.gpu = win.gpu = NULL;
        run_count_cost (gpu, &cost);
        if (f.moved)
            w = f.window;
        else if (f.next != 0) {
            /* Up to its mark, a shorter window's run is the one just
             * stopped, marks and all; a longer one's marks come after. */
            watch = f.next > w;
            w = f.next;
            f.next = 0;
            if (watch)
                f = (RunFirstWave) { .window = w, .keep = TRUE };
            continue;
        }
        if (!may_pack || dealt_right)
            break;
        gboolean packs = first_wave_packs (&win, d, per_sm, tail, spec);
        if (packs == gpu_packs_last_wave (gpu))
            break;
        /* The same run, its first wave and all, but for the last wave's
         * blocks: its marks stand. */
        win.pack_last_wave = packs;
        dealt_right = TRUE;
        watch = FALSE;
        f.moved = FALSE;
    }
    /* Marks at 2 and at 4 or past (iters >= 4), unless no warp ever
     * entered an iteration: a trace whose warps' loops are empty where
     * block 0's first warp's is not (run_can_sample). */
    if (f.n < 2)
        return FALSE;
    r->window = w;
    r->waves_run = (guint64) waves;
    /* Only a run of the whole launch leaves a whole launch's L2. */
    g_assert (l2->left == NULL);
    if (l2->keep && w == iters && run_blocks == r->blocks)
        l2->left = gpu_l2_copy (gpu);

    /* Cycles: the run, each block's iterations past w at the SMs' rate
     * between a quarter and half of its window (past that, the warps
     * that finish first leave the rest a slower SM), to the last SM's
     * end; the full waves past the run's, each what the run's waves
     * past the first row added, or by rate its iterations at the later
     * waves' (the first wave's where the run has no later ones; 2.
     * above). */
    guint64 lo = MAX (w / 4, 1), hi = MAX (w / 2, 2);
    double more = (double) (iters - w);
    run_kinds_init (&kinds, k, &win, run_blocks);
    double total = latest_end (probe, &win, &kinds, run_blocks, per_wave,
                               per_sm, d, lo, hi, more, ext);
    /* By rate: from the second wave a quarter through to the last half
     * through, several waves' worth, where the run has them. */
    double rate_cost = steady ? span_cost (probe, 1, lo, (int) run_full - 1, hi)
                              : 0;
    if (rate_cost <= 0)
        rate_cost = span_cost (probe, 0, lo, 0, hi);
    /* The launch's full waves the run did not play: past those it
     * played from the start, before its last ones (own_last). */
    guint64 unplayed = (run_full - own_last) * per_wave;
    guint64 past = (full - run_full) * per_wave;
    if (full > run_full && by_rate) {
        double wave_warps =
            k->uneven ? run_kinds_wave_warps (k, probe, unplayed,
                                              unplayed + past, per_wave)
                      : (double) probe_warps (probe, 0);
        total += (double) (full - run_full) * wave_warps * (double) iters *
                 rate_cost;
    } else if (full > run_full && k->uneven)
        total = run_kinds_dealt (k, &win, &kinds, ext, run_blocks,
                                 row * per_wave, run_full * per_wave,
                                 spec->device.sm_count);
    else if (full > run_full) {
        double longer = 0;
        for (guint64 j = row; j < run_full; j++)
            longer += more * probe_warps (probe, (int) j) *
                      span_cost (probe, (int) j, lo, (int) j, hi);
        total += (double) (full - run_full) *
                 (later_wave_added (&win, d, row, run_full) +
                  longer / (double) (run_full - row));
    }

    RunSample run, all;
    run_take_sample (gpu, &run);
    RunShape shape = {
        (double) r->blocks, (double) run_blocks, more,
        (double) (row * per_wave), (double) iters,
        (double) (full - run_full), (double) per_wave
    };
    /* The GPU's block-iterations a watched warp's entry stands for:
     * SMs over watched SMs, over warps a block. */
    double scale = (double) spec->device.sm_count /
                   ((double) d * (double) kern_warps (k));
    RunRates rates = {
        .first = { f.sample[0], f.sample[1],
                   run_marks_first_apart (&f, probe, first, scale) },
        .by_rows = later_waves && later.taken == 2 && win.reached[1] == d
    };
    double done = first_wave_done (probe, &win, first);
    rates.first_mem = run_counters_first_memory (
        &rates.first, &win.nth_sample[0].loop, done);
    if (steady && later.taken == 2 &&
        loop_fits_l2 (spec, &win.nth_sample[0].loop, done, first, iters)) {
        rates.by_rate = TRUE;
        rates.later = run_marks_later_span (&later, scale);
    }
    if (rates.by_rows)
        run_marks_later_rates (&rates, &later, &win, scale,
                          (double) (run_full - own_last - row));
    run_counters (&all, &run, &shape, &rates);
    r->cold_counters = !rates.by_rate && !rates.by_rows &&
                       run_blocks < r->blocks;
    r->stats = all.st;
    r->mem = all.mem;
    r->cycles = r->stats.cycles = (Cycle) (total + 0.5);
    r->events = cost.events;
    r->simulated_instructions = cost.instructions;
    r->sampled = TRUE;
    r->last_wave_whole = may_pack && gpu_packs_last_wave (gpu);
    r->block_kinds = kinds.n;
    r->block_kinds_met = run_kinds_met (&kinds, &win, run_blocks);
    run_kinds_clear (&kinds);
    return TRUE;
}
