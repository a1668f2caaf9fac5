/*
 * run_marks.c -- a sampled run's marks: where the first wave's cost per
 * iteration settles, what its loop reads from DRAM, the window cut
 * short or lengthened in flight, and the later waves' samples.  See
 * run_marks.h; why, at run_sampled ().
 */
#include "config.h"

#include <math.h>

#include "models/run_marks.h"

/* Settled: the cost of one more iteration agreed within SETTLED_PCT
 * this many times running.  Once is not enough: kernel 2 at 512 on the
 * A6000 agrees between the iterations 4-8 and 8-16 and then changes,
 * and its sampled run came out 6 % short. */
#define SETTLED 2

/* 2 %, the sampled runs' aim.  At 1 %, kernel 1 at 4096 on the A6000
 * (16,731, 17,177, 17,039, 16,853 and 16,903 cycles an iteration over
 * iterations 1-2 ... 16-32) never settled, and ran twice the window to
 * no end: its result moved by 0.2 %. */
#define SETTLED_PCT 2.0

/* No earlier: the blocks' lockstep start makes the first iterations
 * alike and cheap (kernel 2 at 4096 on the A6000: 1,511 and 1,545
 * cycles an iteration over iterations 2-4 and 4-8, then 2,013, 2,331
 * and 2,333 over 8-16, 16-32 and 32-64).  Later is no sure thing
 * either: kernel 2 at 1000 on the A6000, every SM in full, takes 1,627
 * and 1,638 over 4-8 and 8-16, settles, and is cut to 32 of its 62
 * iterations, but takes 1,713 over 16-32 as its warps, which meet at
 * no barrier, drift apart: -6.3 % of exact, and -0.8 % with all 62.
 * Never cutting a window of 64 would make the A6000's validation take
 * 39 % longer (9.7 against 13.5 s on one core) and move it by 1.3 % at
 * most (kernel 10). */
#define SETTLED_FROM 16

/* From this mark on, the first wave's reads from DRAM tell its loop's
 * (run_marks_l2_window): before, the loads of the next iteration's
 * tiles, in flight, are a large part of them (kernels 7-9 at 2048 on 8 SMs: 21
 * MB for the loop at 4 iterations, 19 at 8, 18 at 16, against 17). */
#define FOOTPRINT_FROM 8

/* The shortest window whose waves read from DRAM, between a block and
 * the one a grid row on that reads its data again (f->reuse waves),
 * at least what the L2 holds, where their whole loops read more: then
 * the later block finds its data gone from L2 with the window's, as
 * with the loop's, where with a shorter window it would find them
 * there.  The first wave read 'read' bytes, cold, each block's data
 * once, the wave's blocks sharing it through L2, as far as its blocks'
 * leaders went, 'leaders' iterations (probe_leaders).  Not the wave's
 * own count: where warps meet at no barrier, the leaders run far
 * ahead (kernel 1 at 2048 on 8 SMs: 65 iterations in at the wave's
 * 16th, whose 1.1 MB read would have made its loop 8.6 MB, where it
 * reads 2.1).
 *
 * The window the run is to have at least: that one where the window
 * reaches it already; else twice that, as far as the run affords
 * (f->longest), or none (0) where it does not afford that one, or
 * where its waves stop short of the reuse (f->longest 0).  Twice,
 * because the reuse distance is only roughly a wave's (blocks of two
 * waves share an SM) and the footprint an estimate: with the window
 * just long enough, kernels 4-8 at 2048 on 8 SMs came out -2.9 to +5.4
 * % of exact (windows of 81 to 83), and -0.9 to +2.0 % with twice, as
 * far as the run affords (125 to 162). */
guint64
run_marks_l2_window (const RunFirstWave *f, double read, double leaders)
{
    double l2 = (double) f->l2_bytes;
    double per = read / leaders * f->reuse;    /* an iteration's, reused */
    if (f->longest == 0 || read <= 0 || leaders <= 0 ||
        per * (double) f->iterations <= l2)
        return 0;
    guint64 need = MIN ((guint64) ceil (l2 / per), f->iterations);
    if (need <= f->window)
        return need;
    if (f->longest < need)
        return 0;
    return MIN (MIN (2 * need, f->iterations), f->longest);
}

/* Marks are taken at powers of two short of the window's end, where
 * the warps that finish first leave the rest a slower SM.  What the
 * run's window is to be from here, or 0: as it is (1. at run_sampled,
 * run_sample.c). */
static guint64
first_wave_mark (RunFirstWave *f, guint64 i, Cycle at)
{
    if ((i & (i - 1)) != 0 || i >= f->window)
        return 0;
    f->iteration[0] = f->iteration[1];
    f->at[0] = f->at[1];
    f->sample[0] = f->sample[1];
    f->iteration[1] = i;
    f->at[1] = at;
    run_take_sample (f->gpu, &f->sample[1]);
    /* Where the loop outgrows the L2, the window reads at least as much
     * (run_marks_l2_window), and is never cut below that. */
    if (i >= FOOTPRINT_FROM && f->floor == 0 && !f->keep)
        f->floor = MAX (run_marks_l2_window (f, (double)
                                             f->sample[1].loop.dram_read_bytes,
                                             probe_leaders (f->probe, 0)), 1);
    if (++f->n >= 2) {
        double slope = (double) (f->at[1] - f->at[0]) /
                       (double) (f->iteration[1] - f->iteration[0]);
        f->agreed = f->n > 2 && fabs (slope - f->slope_before) <=
                                    SETTLED_PCT / 100 * slope
                        ? f->agreed + 1 : 0;
        f->slope_before = slope;
        f->settled = f->agreed >= SETTLED && i >= SETTLED_FROM;
    }
    if (f->floor > f->window)
        return f->floor;
    /* Settled early: the run is to have a shorter window, twice 'i',
     * unless it keeps this one.  Not settled by half the window: the
     * run goes on as it is, and these marks give the counters' rate. */
    return f->settled && 2 * i < f->window && 2 * i >= f->floor && !f->keep
               ? 2 * i : 0;
}

guint64
run_marks_shortest (guint64 window)
{
    /* first_wave_mark: a cut to 2 i, i a power of two from SETTLED_FROM,
     * short of the window. */
    return 2 * SETTLED_FROM < window ? 2 * SETTLED_FROM : window;
}

static void
later_wave_mark (RunLaterWave *l, int wave, guint64 i, Cycle at)
{
    /* Its blocks open one by one: only once all have (as many watched
     * blocks as the first wave's) is its count the wave's.  Not as many
     * watched warps: where blocks differ, a wave's busy warps do too
     * (sgemm-2 at 300 on 8 SMs: a block of its third wave has 12, and
     * the wave, never as busy as the first, was never sampled; its
     * counters, the run's scaled by the blocks, came to 1.67 times the
     * exact run's DRAM bytes, and now to 1.44 times). */
    if (l->taken == 2 || wave != (l->taken == 0 ? l->wave : l->wave_hi) ||
        i < (l->taken == 0 ? l->lo : l->hi) ||
        probe_blocks (l->probe, wave) < probe_blocks (l->probe, 0))
        return;
    l->at[l->taken] = at;
    run_take_sample (l->gpu, &l->sample[l->taken++]);
}

typedef struct {
    guint64 window;
    gboolean apply, ok;
} Cut;

static void
cut_stream (InstrStream *s, void *ctx)
{
    Cut *c = ctx;
    c->ok = c->ok &&
            kern_stream_window (probe_unwrap (s), c->window, c->apply);
}

/* Whether a block has retired: its streams, gone, played the old
 * window. */
static gboolean
any_retired (const RunWindow *win)
{
    for (int i = 0; i < win->detailed; i++)
        if (win->last_retired[i] != 0)
            return TRUE;
    return FALSE;
}

/* The run to have the window 'w' from now on, shorter or longer:
 * every stream cut (or lengthened) to it plays on as one opened with it
 * would, so the run goes on as a run started with it, to the digit.
 * Where a stream cannot take it (a trace's, or a warp's already past
 * 'w', as kernel 1's warps, which meet at no barrier, often are, or
 * one in its epilogue), or a block has retired, the run stops and
 * starts again (1. at run_sampled, run_sample.c). */
static void
rewindow (RunMarks *m, guint64 w)
{
    Cut c = { w, FALSE, TRUE };
    Gpu *gpu = m->first->gpu;
    m->first->next = w;
    gpu_each_stream (gpu, cut_stream, &c);
    if (!c.ok || m->later->taken > 0 || any_retired (m->win)) {
        gpu_stop (gpu);
        return;
    }
    c.apply = TRUE;
    gpu_each_stream (gpu, cut_stream, &c);
    g_assert (c.ok);
    m->first->window = m->win->iterations = w;
    m->first->moved = TRUE;
    probe_set_window (m->win->probe, w);
    m->later->lo = MAX (w / 4, 1);
    m->later->hi = MAX (w / 2, 2);
}

void
run_marks_on (void *ctx, int wave, guint64 i, Cycle at)
{
    RunMarks *m = ctx;
    guint64 w = wave == 0 && m->first != NULL
                     ? first_wave_mark (m->first, i, at) : 0;
    if (w > 0)
        rewindow (m, w);
    if (m->later->wave >= 0)
        later_wave_mark (m->later, wave, i, at);
}

/* The block-iterations the GPU did between the first wave's last two
 * marks: the wave's, and those of the blocks that took its retired
 * blocks' places meanwhile, whose work the counters hold too.  With
 * many blocks an SM, the greedy scheduler runs some far ahead of the
 * others: sgemm-9 with 64 x 64 tiles at 2048, on an A100 with twice
 * the registers (8 blocks an SM), retired some of its first wave's
 * blocks before the wave's mark at 32 of 64 iterations, and the tail's
 * work, counted as the wave's, made the warp instructions 1.30 times a
 * run of the whole loop's, and the FP32 pipe 106 % busy.  'scale':
 * the GPU's block-iterations a watched warp's entry stands for. */
double
run_marks_first_apart (const RunFirstWave *f, const Probe *probe,
                       guint64 first, double scale)
{
    return (double) (f->iteration[1] - f->iteration[0]) * (double) first +
           (double) probe_later_entries_between (probe, 1, f->at[0],
                                                 f->at[1]) * scale;
}

/* The later waves' samples as a span, in the GPU's block-iterations
 * ('scale' as for run_marks_first_apart). */
RunSpan
run_marks_later_span (const RunLaterWave *l, double scale)
{
    return (RunSpan) {
        l->sample[0], l->sample[1],
        (double) probe_entries_between (l->probe, l->at[0], l->at[1]) * scale
    };
}

/* The rates by rows (run_counters.h): the later wave's, and what one of
 * the run's 'waves' waves between the bounds added ('scale' as for
 * run_marks_first_apart). */
void
run_marks_later_rates (RunRates *r, const RunLaterWave *l,
                       const RunWindow *win, double scale, double waves)
{
    const Probe *probe = l->probe;
    double window = (double) probe_warps (probe, 0) * (double) win->iterations;
    r->later = run_marks_later_span (l, scale);
    r->bounds = (RunSpan) { .apart = waves };
    r->bounds.from.st = win->st_bound[0];
    r->bounds.to.st = win->st_bound[1];
    /* The memory's bounds are the last detailed SM's, when the others
     * have done part of the next wave or none: they are apart by the
     * waves' worth of iterations the watched warps entered between. */
    r->mem_bounds = (RunSpan) {
        .apart = (double) probe_entries_between (probe, win->mem_at[0],
                                                 win->mem_at[1]) / window
    };
    r->mem_bounds.from.mem = win->mem_bound[0];
    r->mem_bounds.to.mem = win->mem_bound[1];
}
