/*
 * fig_timeline.c -- figure 9: a warp timeline of one SM running a small
 * tiled matmul (PMPP's, by default 32 x 32 with 16 x 16 tiles: four
 * blocks of eight warps, two phases each).  Every block goes to the one
 * SM, on an L2 and DRAM of its own.
 *
 * The SM reports issues and warp launches and retirements (sm.h's
 * hooks), not its stall states, so the gaps between a warp's issues are
 * named from what the warp was waiting for, the way its scoreboard
 * decides (warp.c):
 *   barrier           the instruction before the gap was BAR.SYNC;
 *   long_scoreboard   the instruction after it reads or overwrites a
 *                     register a global load has not yet delivered to
 *                     any reader;
 *   short_scoreboard  ... a shared-memory load or MUFU result;
 *   other             none of these: a busy pipe or queue, another
 *                     warp selected, a fixed-latency dependence.
 * A register counts as delivered once an instruction that reads it has
 * issued (it could only issue with the value there).
 */
#include "config.h"

#include "models/fig.h"
#include "sim/memhier.h"
#include "sim/sm.h"

extern const FigDef fig_timeline_def;

enum { ST_ISSUE, ST_LONG, ST_SHORT, ST_BARRIER, ST_OTHER, N_STATES };

static const char *const state_names[N_STATES] = {
    "issue", "long_scoreboard", "short_scoreboard", "barrier", "other"
};

/* A bigger launch would make an unreadable figure and a huge CSV. */
#define MAX_ISSUES 400000

typedef struct {
    gboolean live;
    guint64 block;
    Cycle last;              /* cycle after the last issue (or launch) */
    int last_op;             /* INSTR_N_OPS before the first issue */
    guint8 pending[256];     /* ST_LONG / ST_SHORT: a load not yet read */
} TlWarp;

typedef struct {
    const KernInstance *k;
    guint64 next_block;
    TlWarp *warps;           /* by warp slot */
    GString *csv;
    guint64 issues;
    Cycle end;
    int rows;                /* warp slots used */
} Timeline;

static void
segment (Timeline *t, int slot, int state, Cycle from, Cycle to)
{
    if (to <= from)
        return;
    g_string_append_printf (t->csv, "%d,%" G_GUINT64_FORMAT ",%s,%d,%"
                            G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT "\n", slot,
                            t->warps[slot].block, state_names[state], state,
                            from, to);
    t->end = MAX (t->end, to);
    t->rows = MAX (t->rows, slot + 1);
}

/* A wait on global memory outranks one on shared memory. */
static int
reg_wait (const TlWarp *w, int reg, int state)
{
    if (reg == INSTR_NO_REG || w->pending[reg] == 0 || state == ST_LONG)
        return state;
    return w->pending[reg];
}

/* What the warp waited for before issuing 'in'. */
static int
gap_state (const TlWarp *w, const Instr *in)
{
    int state = ST_OTHER;
    if (w->last_op == INSTR_BAR)
        return ST_BARRIER;
    for (int k = 0; k < 3; k++)
        state = reg_wait (w, in->src[k], state);
    for (int k = 0; in->dst != INSTR_NO_REG && k < in->n_dst; k++)
        state = reg_wait (w, in->dst + k, state);
    return state;
}

static void
note_registers (TlWarp *w, const Instr *in)
{
    InstrLatency lat = instr_info ((InstrOp) in->op)->latency;
    for (int k = 0; k < 3; k++)
        if (in->src[k] != INSTR_NO_REG)
            w->pending[in->src[k]] = 0;
    for (int k = 0; in->dst != INSTR_NO_REG && k < in->n_dst &&
                    in->dst + k < INSTR_NO_REG; k++)
        w->pending[in->dst + k] = lat == LAT_GLOBAL ? ST_LONG
                                  : lat == LAT_SHARED || lat == LAT_XU
                                      ? ST_SHORT : 0;
}

static void
on_issue (void *ctx, int sm, int sp, int slot, guint64 block,
          const Instr *in, Cycle now)
{
    Timeline *t = ctx;
    TlWarp *w = &t->warps[slot];
    (void) sm;
    (void) sp;
    (void) block;
    segment (t, slot, gap_state (w, in), w->last, now);
    segment (t, slot, ST_ISSUE, now, now + 1);
    note_registers (w, in);
    w->last = now + 1;
    w->last_op = in->op;
    t->issues++;
}

static void
on_warp (void *ctx, int sm, int slot, guint64 block, gboolean retired,
         Cycle now)
{
    Timeline *t = ctx;
    TlWarp *w = &t->warps[slot];
    (void) sm;
    if (retired) {
        w->live = FALSE;
        return;
    }
    *w = (TlWarp) { TRUE, block, now, INSTR_N_OPS, { 0 } };
}

static gboolean
next_block (void *ctx, guint64 *block)
{
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
    SmWorkload work = { k->threads, occ->blocks_per_sm, next_block,
                        open_warp, t };
    g_autoptr (EvqQueue) q = evq_new ();
    MemSys *mem = memhier_new (s, q, 1, (guint64) MAX (occ->l1_bytes, 0));
    g_autoptr (Sm) sm = sm_new (s, 0, q, mem, &work);
    sm_set_issue_hook (sm, on_issue, t);
    sm_set_warp_hook (sm, on_warp, t);
    sm_start (sm, 0);
    evq_run (q);
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
    return kern_instance_new (m, s, o->size > 0 ? o->size : 32, params, error);
}

static gboolean
timeline_build (const FigOptions *o, FigData *d, GError **error)
{
    g_autoptr (Preset) p = fig_preset (o, &fig_timeline_def, NULL, TRUE, NULL,
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
    if (!occ_check (s, &l, &occ, error))
        return FALSE;
    int n_slots = s->sm.max_threads / s->device.warp_size;
    g_autofree TlWarp *warps = g_new0 (TlWarp, n_slots);
    Timeline t = { k, 0, warps, d->csv, 0, 0, 0 };
    g_string_append (d->csv, "slot,block,state,state_id,start,end\n");
    simulate (s, k, &occ, &t);
    if (t.issues > MAX_ISSUES) {
        g_set_error (error, SMSIM_FIG_ERROR, FIG_ERROR_OPTION,
                     "figure timeline: %s at %" G_GINT64_FORMAT " issues more "
                     "than %d warp instructions on one SM: too many to draw; "
                     "choose a smaller --size", k->model->id, k->size,
                     MAX_ISSUES);
        return FALSE;
    }
    fig_var_str (d, "gpu", "%s", s->device.name);
    fig_var_str (d, "kernel", "%s", k->model->id);
    fig_var_num (d, "size", (double) k->size);
    fig_var_num (d, "threads", k->threads);
    fig_var_num (d, "blocks", (double) kern_blocks (k));
    fig_var_num (d, "cycles", (double) t.end);
    fig_var_num (d, "n_slots", t.rows);
    return TRUE;
}

const FigDef fig_timeline_def = {
    "timeline", 9,
    "warp timeline of one SM running a small tiled matmul: issue, "
    "scoreboard and barrier waits per warp",
    "a6000", "--gpu --kernel (pmpp-tiled) --size (32) --param (TILE_WIDTH=16)",
    timeline_build
};
