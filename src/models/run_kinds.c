/*
 * run_kinds.c -- the kinds of block in a sampled run and the launch's
 * blocks past it by kind.  See run_kinds.h; why, at run_sampled ()
 * (run_sample.c).
 */
#include "config.h"

#include "models/run_kinds.h"

static int
kind_of (const RunKinds *c, KernBlockWork w)
{
    gint64 key = (gint64) kern_block_work_key (w);
    return GPOINTER_TO_INT (g_hash_table_lookup (c->index, &key)) - 1;
}

static int
kinds_add (RunKinds *c, KernBlockWork w)
{
    gint64 key = (gint64) kern_block_work_key (w);
    c->work[c->n] = w;
    g_hash_table_insert (c->index, g_memdup2 (&key, sizeof key),
                         GINT_TO_POINTER (c->n + 1));
    return c->n++;
}

void
run_kinds_init (RunKinds *c, const KernInstance *k, const RunWindow *win,
                guint64 blocks)
{
    c->n = 0;
    c->of = g_new0 (int, blocks);
    c->work = g_new (KernBlockWork, k->uneven ? blocks : 1);
    c->index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                      NULL);
    kinds_add (c, kern_block_work (k, run_launch_block (win, 0)));
    for (guint64 b = 1; k->uneven && b < blocks; b++) {
        KernBlockWork w = kern_block_work (k, run_launch_block (win, b));
        int i = kind_of (c, w);
        c->of[b] = i >= 0 ? i : kinds_add (c, w);
    }
}

void
run_kinds_clear (RunKinds *c)
{
    g_free (c->of);
    g_free (c->work);
    g_hash_table_unref (c->index);
}

int
run_kinds_met (const RunKinds *c, const RunWindow *win, guint64 blocks)
{
    g_autofree gboolean *met = g_new0 (gboolean, c->n);
    int n = 0;
    for (guint64 b = 0; b < blocks; b++)
        if (win->block_sm[b] >= 0 && !met[c->of[b]]) {
            met[c->of[b]] = TRUE;
            n++;
        }
    return n;
}

/* The time each kind of block takes (RunKinds): from its SM's block
 * before retiring to its own retiring, plus its iterations past the
 * window ('ext', latest_end in run_sample.c), on average over the
 * run's blocks of the kind in its waves 'later_from' to 'later_to'
 * (past the first row: full_waves_to_run) where it had some there,
 * else anywhere in the run.  One block per SM: an SM's blocks come to
 * it in the launch's order, one at a time.  'took[ref]' is the most met
 * kind's. */
static int
kind_times (const RunWindow *win, const RunKinds *c, const double *ext,
            guint64 blocks, guint64 later_from, guint64 later_to, int sms,
            double *took)
{
    g_autofree Cycle *before = g_new0 (Cycle, sms);
    g_autofree double *sum = g_new0 (double, 2 * c->n);
    g_autofree guint64 *n = g_new0 (guint64, 2 * c->n);
    for (guint64 b = 0; b < blocks; b++) {
        int sm = win->block_sm[b];
        if (sm < 0)
            continue;
        int later = b >= later_from && b < later_to;
        sum[2 * c->of[b] + later] +=
            (double) (win->block_end[b] - before[sm]) + ext[b];
        n[2 * c->of[b] + later]++;
        before[sm] = win->block_end[b];
    }
    int ref = 0;
    for (int i = 0; i < c->n; i++) {
        int at = 2 * i + (n[2 * i + 1] > 0);
        took[i] = n[at] > 0 ? sum[at] / (double) n[at] : 0;
        if (n[2 * i + 1] + n[2 * i] > n[2 * ref + 1] + n[2 * ref])
            ref = i;
    }
    return ref;
}

/* Sift the SM at heap position 'i' down to its place (earliest free
 * first). */
static void
heap_down (double *free_at, int n, int i)
{
    for (;;) {
        int least = i, l = 2 * i + 1, r = l + 1;
        if (l < n && free_at[l] < free_at[least])
            least = l;
        if (r < n && free_at[r] < free_at[least])
            least = r;
        if (least == i)
            return;
        double t = free_at[i];
        free_at[i] = free_at[least];
        free_at[least] = t;
        i = least;
    }
}

/* Where blocks differ (KernInstance.uneven) and an SM holds one at a
 * time: when the launch ends, its blocks dealt out in order, each to
 * the SM that frees first, as the hardware hands them out, each taking
 * its kind's time in the run (kind_times); a kind the run did not
 * meet, the most met one's in proportion to its lanes.  Waves of whole
 * blocks would not do: sgemm-1 at 1000 on the A6000 has 63 edge blocks
 * among its 1024, which take a quarter of a whole one's time, and came
 * out +8.9 % of exact with them (+6.6 % with every SM in full); dealt
 * out with its exact run's own block times, it ends 0.07 % early. */
double
run_kinds_dealt (const KernInstance *k, const RunWindow *win,
                 const RunKinds *c, const double *ext, guint64 blocks,
                 guint64 later_from, guint64 later_to, int sms)
{
    g_autofree double *took = g_new0 (double, c->n);
    g_autofree double *free_at = g_new0 (double, sms);
    int ref = kind_times (win, c, ext, blocks, later_from, later_to, sms,
                          took);
    double end = 0;
    for (guint64 b = 0; b < kern_blocks (k); b++) {
        KernBlockWork w = kern_block_work (k, b);
        int i = kind_of (c, w);
        free_at[0] += i >= 0 && took[i] > 0
                          ? took[i]
                          : took[ref] * (double) w.lanes /
                                (double) MAX (c->work[ref].lanes, 1);
        end = MAX (end, free_at[0]);
        heap_down (free_at, sms, 0);
    }
    return end;
}

/* Where blocks differ and the full waves past the run's go by rate:
 * the warps on the SMs in full (probe_warps) one of them stands for.
 * The rate (span_cost) is cycles per iteration of a watched warp, and
 * a block's idle warps are not watched (run_sim.c), so a wave counts
 * its blocks' busy warps (kern_block_work): those of launch blocks
 * 'from' to 'to', the full waves the run did not play, on average,
 * times the blocks a wave has on the SMs in full (the run's first
 * wave's watched).  Scaling a whole wave's warps by the blocks' lanes
 * over the run's did not do: the run's rate had its edge blocks' in
 * it already, and with the range one wave off, past the run's own
 * last wave (the launch's) rather than before it, sgemm-1 at 500 and
 * sgemm-2 at 333 on a 4-SM A100, 2 blocks an SM and 32 and 15 waves,
 * came out +7.9 and +9.6 % of exact; by busy warps +0.3 and -2.0 %. */
double
run_kinds_wave_warps (const KernInstance *k, const Probe *probe,
                      guint64 from, guint64 to, guint64 per_wave)
{
    double warps = 0, watched = 0;
    for (guint64 i = from; i < to; i++)
        warps += (double) kern_block_work (k, i).warps;
    for (guint64 i = 0; i < per_wave; i++)
        watched += probe_block_warps (probe, i) > 0;
    return watched * warps / (double) MAX (to - from, 1);
}

