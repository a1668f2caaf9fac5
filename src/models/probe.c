/*
 * probe.c -- iterations done per wave.  See probe.h.
 */
#include "config.h"

#include "models/kern.h"
#include "models/probe.h"

typedef struct {
    GArray *at;            /* of Cycle: each entry's, in time order */
    guint32 opened;        /* warps */
    guint32 blocks;        /* with a warp opened (a wave's) */
    guint64 furthest;      /* a block's: the latest iteration a warp of
                            * it entered */
} Wave;

struct Probe {
    guint64 per_wave;
    int waves;
    guint64 window;
    Wave *wave;
    guint64 n_blocks;
    Wave *block;           /* the same, block by block */
    const Gpu *gpu;
    ProbeMarkFn mark;
    void *mark_ctx;
};

Probe *
probe_new (guint64 per_wave, int waves, guint64 window, guint64 blocks)
{
    Probe *p = g_new0 (Probe, 1);
    g_assert (per_wave >= 1 && waves >= 1);
    p->per_wave = per_wave;
    p->waves = waves;
    p->window = window;
    p->wave = g_new0 (Wave, waves);
    for (int j = 0; j < waves; j++)
        p->wave[j].at = g_array_new (FALSE, FALSE, sizeof (Cycle));
    p->n_blocks = blocks;
    p->block = g_new0 (Wave, blocks);
    return p;
}

void
probe_free (Probe *p)
{
    if (p == NULL)
        return;
    for (int j = 0; j < p->waves; j++)
        g_array_free (p->wave[j].at, TRUE);
    for (guint64 b = 0; b < p->n_blocks; b++)
        if (p->block[b].at != NULL)
            g_array_free (p->block[b].at, TRUE);
    g_free (p->wave);
    g_free (p->block);
    g_free (p);
}

void
probe_set_gpu (Probe *p, const Gpu *gpu)
{
    p->gpu = gpu;
}

void
probe_on_marks (Probe *p, ProbeMarkFn fn, void *ctx)
{
    p->mark = fn;
    p->mark_ctx = ctx;
}

/* When 'v' had done 'iteration' iterations. */
static Cycle
entered (const Probe *p, const Wave *v, guint64 iteration)
{
    g_assert (iteration >= 1 && iteration <= p->window);
    guint64 n = iteration * v->opened;
    if (n == 0 || n > v->at->len)
        return CYCLE_NEVER;
    return g_array_index (v->at, Cycle, n - 1);
}

Cycle
probe_entered (const Probe *p, int wave, guint64 iteration)
{
    g_assert (wave >= 0 && wave < p->waves);
    return entered (p, &p->wave[wave], iteration);
}

guint
probe_warps (const Probe *p, int wave)
{
    g_assert (wave >= 0 && wave < p->waves);
    return p->wave[wave].opened;
}

double
probe_leaders (const Probe *p, int wave)
{
    g_assert (wave >= 0 && wave < p->waves);
    guint64 from = (guint64) wave * p->per_wave;
    guint64 to = wave == p->waves - 1 ? p->n_blocks
                                      : MIN (from + p->per_wave, p->n_blocks);
    double sum = 0;
    int n = 0;
    for (guint64 b = from; b < to; b++)
        if (p->block[b].at != NULL) {
            sum += (double) p->block[b].furthest;
            n++;
        }
    return n > 0 ? sum / n : 0;
}

guint
probe_blocks (const Probe *p, int wave)
{
    g_assert (wave >= 0 && wave < p->waves);
    return p->wave[wave].blocks;
}

/* Block 'block''s record; one it never watched has no warps. */
static const Wave *
block_of (const Probe *p, guint64 block)
{
    static const Wave none = { NULL, 0, 0, 0 };
    g_assert (block < p->n_blocks);
    return p->block[block].at != NULL ? &p->block[block] : &none;
}

Cycle
probe_block_entered (const Probe *p, guint64 block, guint64 iteration)
{
    const Wave *v = block_of (p, block);
    return v->opened > 0 ? entered (p, v, iteration) : CYCLE_NEVER;
}

guint
probe_block_warps (const Probe *p, guint64 block)
{
    return block_of (p, block)->opened;
}

/* Entries of 'v' before 'at' (its times are in order). */
static guint64
entries_before (const Wave *v, Cycle at)
{
    guint64 lo = 0, hi = v->at->len;
    while (lo < hi) {
        guint64 mid = lo + (hi - lo) / 2;
        if (g_array_index (v->at, Cycle, mid) < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

guint64
probe_block_entries_between (const Probe *p, guint64 block, Cycle from,
                             Cycle to)
{
    const Wave *v = block_of (p, block);
    if (v->opened == 0)
        return 0;
    return entries_before (v, to) - entries_before (v, from);
}

guint64
probe_entries_between (const Probe *p, Cycle from, Cycle to)
{
    return probe_later_entries_between (p, 0, from, to);
}

guint64
probe_later_entries_between (const Probe *p, int wave, Cycle from, Cycle to)
{
    guint64 n = 0;
    for (int j = wave; j < p->waves; j++)
        n += entries_before (&p->wave[j], to) - entries_before (&p->wave[j], from);
    return n;
}

/* A warp of block 'block', of 'wave', entered iteration 'i' now. */
static void
enter (Probe *p, guint64 block, int wave, guint64 i)
{
    Cycle now = gpu_cycles (p->gpu);
    Wave *v = &p->wave[wave];
    p->block[block].furthest = MAX (p->block[block].furthest, i);
    g_array_append_val (p->block[block].at, now);
    g_array_append_val (v->at, now);
    if (p->mark != NULL && v->at->len % v->opened == 0)
        p->mark (p->mark_ctx, wave, v->at->len / v->opened, now);
}

typedef struct {
    InstrStream base;
    InstrStream *inner;
    Probe *p;
    guint64 block;
    int wave;
    gint64 at;             /* the iteration it stands in (-1: prologue) */
} Watched;

static const Instr *
watched_next (InstrStream *s)
{
    Watched *w = (Watched *) s;
    const Instr *in = instr_stream_next (w->inner);
    gint64 i;
    if (in != NULL && kern_stream_position (w->inner, &i) && i > w->at &&
        (guint64) i <= w->p->window) {
        /* A window's stream jumps from its last iteration to the
         * epilogue: each warp makes 'window' entries, in order. */
        w->at = i;
        if (i >= 1)
            enter (w->p, w->block, w->wave, (guint64) i);
    }
    return in;
}

static void
watched_free (InstrStream *s)
{
    Watched *w = (Watched *) s;
    instr_stream_free (w->inner);
    g_free (w);
}

static const InstrStreamOps watched_ops = { watched_next, watched_free };

InstrStream *
probe_unwrap (InstrStream *s)
{
    return s->ops == &watched_ops ? ((Watched *) s)->inner : s;
}

void
probe_set_window (Probe *p, guint64 window)
{
    g_assert (window >= 1);
    p->window = window;
}

InstrStream *
probe_wrap (Probe *p, InstrStream *inner, guint64 block)
{
    Watched *w = g_new0 (Watched, 1);
    w->base.ops = &watched_ops;
    w->inner = inner;
    w->p = p;
    g_assert (block < p->n_blocks);
    w->block = block;
    w->wave = (int) MIN (block / p->per_wave, (guint64) p->waves - 1);
    w->at = -1;
    p->wave[w->wave].opened++;
    if (p->block[block].at == NULL) {
        p->block[block].at = g_array_new (FALSE, FALSE, sizeof (Cycle));
        p->wave[w->wave].blocks++;
    }
    p->block[block].opened++;
    return &w->base;
}
