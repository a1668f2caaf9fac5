/*
 * fig_timeline.c -- figure 9: a warp timeline of one SM running a small
 * tiled matmul (PMPP's, by default 32 x 32 with 16 x 16 tiles: four
 * blocks of eight warps, two phases each).  Every block goes to the one
 * SM, on an L2 and DRAM of its own.
 *
 * Each warp's row is its state every cycle as the SM charged it (sm.h's
 * state hook): the Nsight Compute names of stats.h, the same intervals
 * that sum to the run's stall breakdown.  Consecutive intervals of one
 * warp in the same state are joined, except 'selected', which stays one
 * row per issue.  Thirteen states are too many to tell apart in
 * grayscale, so the figure draws seven and groups the six that are
 * short or rare in a tiled kernel (wait, math_pipe_throttle,
 * lg_throttle, branch_resolving, dispatch_stall, and no_instruction,
 * which only a what-if instruction cache gives) as 'other', which the
 * title names (other_states); the legend gives every group's share of
 * the warp cycles, so a large 'other' shows.
 *
 * CSV: slot,block,state,group,start,end -- 'state' the Nsight name,
 * 'group' the figure's number for it (the G_ enum below, 0-7 in the
 * order of the legend; plots/timeline.gp selects by it).
 */
#include "config.h"

#include "models/fig.h"
#include "models/run.h"
#include "sim/memhier.h"
#include "sim/sm.h"

extern const FigDef fig_timeline_def;

/* What the figure draws apart; the rest is G_OTHER. */
enum {
    G_SELECTED, G_LONG, G_SHORT, G_BARRIER, G_MIO, G_NOT_SELECTED, G_DRAIN,
    G_OTHER, N_GROUPS
};

static int
group_of (StallReason r)
{
    switch (r) {
    case STALL_SELECTED: return G_SELECTED;
    case STALL_LONG_SCOREBOARD: return G_LONG;
    case STALL_SHORT_SCOREBOARD: return G_SHORT;
    case STALL_BARRIER: return G_BARRIER;
    case STALL_MIO_THROTTLE: return G_MIO;
    case STALL_NOT_SELECTED: return G_NOT_SELECTED;
    case STALL_DRAIN: return G_DRAIN;
    default: return G_OTHER;
    }
}

/* A bigger launch would make an unreadable figure and a huge CSV. */
#define MAX_ISSUES 400000

/* A warp slot's latest interval, held back to join the next one. */
typedef struct {
    gboolean open;
    guint64 block;
    StallReason reason;
    Cycle from, to;
} Span;

typedef struct {
    const KernInstance *k;
    guint64 next_block;
    Span *spans;             /* by warp slot */
    GString *csv;
    guint64 issues;
    guint64 group_cycles[N_GROUPS];
    Cycle end;
    int rows;                /* warp slots used */
} Timeline;

static void
emit (Timeline *t, int slot, const Span *s)
{
    g_string_append_printf (t->csv, "%d,%" G_GUINT64_FORMAT ",%s,%d,%"
                            G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "\n", slot,
                            s->block, stats_stall_name (s->reason),
                            group_of (s->reason), s->from, s->to);
}

static void
on_state (void *ctx, int sm, int slot, guint64 block, StallReason reason,
          Cycle from, Cycle to)
{
    Timeline *t = ctx;
    Span *s = &t->spans[slot];
    (void) sm;
    t->group_cycles[group_of (reason)] += to - from;
    t->issues += reason == STALL_SELECTED ? to - from : 0;
    t->end = MAX (t->end, to);
    t->rows = MAX (t->rows, slot + 1);
    if (s->open && s->reason == reason && reason != STALL_SELECTED &&
        s->block == block && s->to == from) {
        s->to = to;
        return;
    }
    if (s->open)
        emit (t, slot, s);
    *s = (Span) { TRUE, block, reason, from, to };
}

static gboolean
next_block (void *ctx, int sm, guint64 *block)
{
    (void) sm;
    Timeline *t = ctx;
    if (t->next_block >= kern_blocks (t->k) || t->issues > MAX_ISSUES)
        return FALSE;
    *block = t->next_block++;
    return TRUE;
}

static InstrStream *
open_warp (void *ctx, guint64 block, int warp)
{
    Timeline *t = ctx;
    return kern_open_warp (t->k, block, warp);
}

/* Run every block of 'k' on one SM of 's', recording into 't'. */
static void
simulate (const GpuSpec *s, const KernInstance *k, const OccResult *occ,
          Timeline *t)
{
    SmWorkload work = { .threads_per_block = k->threads,
                        .max_blocks = occ->blocks_per_sm,
                        .next_block = next_block, .open_warp = open_warp,
                        .ctx = t };
    g_autoptr (EvqQueue) q = evq_new ();
    MemSys *mem = memhier_new (s, q, 1, (guint64) MAX (occ->l1_bytes, 0));
    g_autoptr (Sm) sm = sm_new (s, 0, q, mem, &work);
    sm_set_state_hook (sm, on_state, t);
    sm_start (sm, 0);
    evq_run (q);
    for (int slot = 0; slot < t->rows; slot++)
        if (t->spans[slot].open)
            emit (t, slot, &t->spans[slot]);
    g_clear_pointer (&sm, sm_free);
    mem_free (mem);
}

static KernInstance *
timeline_kernel (const FigOptions *o, const GpuSpec *s, GError **error)
{
    static const char *const tile16[] = { "TILE_WIDTH=16", NULL };
    const char *id = o->kernel ? o->kernel : "pmpp-tiled";
    const KernModel *m = kern_find (id);
    if (m == NULL) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_UNKNOWN,
                     "unknown kernel '%s' (`smsim kernels` lists them)", id);
        return NULL;
    }
    const char *const *params = o->params || o->kernel ? o->params : tile16;
    KernInstance *k = kern_instance_new (m, s, o->size >= 0 ? o->size : 32,
                                         params, error);
    /* The default fits the default kernel: say where 32 came from. */
    if (k == NULL && o->size < 0)
        g_prefix_error (error, "at the figure's default size (give --size): ");
    return k;
}

/* The states drawn as 'other', as the title lists them: from group_of,
 * so that the title cannot leave one out. */
static char *
other_states (void)
{
    GString *s = g_string_new (NULL);
    for (int r = 0; r < STALL_N; r++)
        if (group_of ((StallReason) r) == G_OTHER)
            g_string_append_printf (s, "%s%s", s->len ? ", " : "",
                                    stats_stall_name ((StallReason) r));
    return g_string_free (s, FALSE);
}

/* Each group's share of the warp cycles, in percent (share_0 ..). */
static void
add_shares (FigData *d, const Timeline *t)
{
    guint64 total = 0;
    for (int g = 0; g < N_GROUPS; g++)
        total += t->group_cycles[g];
    for (int g = 0; g < N_GROUPS; g++) {
        g_autofree char *name = g_strdup_printf ("share_%d", g);
        fig_var_num (d, name, total ? 100.0 * (double) t->group_cycles[g] /
                                          (double) total : 0);
    }
}

static gboolean
timeline_build (const FigOptions *o, FigData *d, GError **error)
{
    g_autoptr (Preset) p = fig_preset (o, &fig_timeline_def, NULL, NULL,
                                       error);
    if (p == NULL)
        return FALSE;
    const GpuSpec *s = preset_spec (p);
    g_autoptr (KernInstance) k = timeline_kernel (o, s, error);
    OccLaunch l = { 0, 0, 0, 0, -1 };
    OccResult occ;
    if (k == NULL)
        return FALSE;
    l.threads_per_block = k->threads;
    l.regs_per_thread = k->regs;
    l.static_smem_bytes = k->static_smem;
    l.dyn_smem_bytes = k->dyn_smem;
    occ_compute (s, &l, &occ);
    if (!occ_check (s, &l, &occ, error) || !occ_check_fits (s, &occ, error) ||
        !run_check_caches (s, &occ, 1, 1, error))
        return FALSE;
    int n_slots = s->sm.max_threads / s->device.warp_size;
    g_autofree Span *spans = g_new0 (Span, n_slots);
    Timeline t = { .k = k, .spans = spans, .csv = d->csv };
    g_string_append (d->csv, "slot,block,state,group,start,end\n");
    simulate (s, k, &occ, &t);
    if (t.issues > MAX_ISSUES) {
        g_set_error (error, SMSIM_FIG_ERROR, FIG_ERROR_OPTION,
                     "%s at %" G_GINT64_FORMAT " issues more "
                     "than %d warp instructions on one SM: too many to draw; "
                     "choose a smaller --size", k->model->id, k->size,
                     MAX_ISSUES);
        return FALSE;
    }
    fig_var_str (d, "gpu", "%s", s->device.name);
    fig_var_str (d, "kernel", "%s", k->model->id);
    fig_var_num (d, "size", (double) k->size);
    g_autofree char *size_label = fig_size_label (k->model->id, k->size);
    fig_var_str (d, "size_label", "%s", size_label);
    fig_var_num (d, "threads", k->threads);
    fig_var_num (d, "warps_per_block", kern_warps (k));
    fig_var_num (d, "blocks", (double) kern_blocks (k));
    fig_var_num (d, "cycles", (double) t.end);
    fig_var_num (d, "n_slots", t.rows);
    g_autofree char *other = other_states ();
    fig_var_str (d, "other_states", "%s", other);
    add_shares (d, &t);
    return TRUE;
}

const FigDef fig_timeline_def = {
    "timeline", 9,
    "warp timeline of one SM running a small tiled matmul: each warp's "
    "state every cycle, by Nsight Compute stall reason",
    "a6000", "--gpu --kernel (pmpp-tiled) --size (32) --param (TILE_WIDTH=16)",
    timeline_build, TRUE, NULL
};
