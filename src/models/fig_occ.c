/*
 * fig_occ.c -- figures 1 and 2: occupancy, from the exact rules of
 * occ.h and the textbook estimate beside them.
 *
 *   occupancy         NVIDIA's calculator's three graphs: occupancy as
 *                     the block size, the registers per thread and the
 *                     shared memory per block vary one at a time around
 *                     a launch (marked), each point tagged with the limit
 *                     that binds there.
 *   occupancy-cliff   PMPP 4.7's register cliff (512-thread blocks, 31
 *                     -> 33 registers: 100 % -> 75 % on the A100) and
 *                     PMPP 5.6's shared-memory example (32 KB per
 *                     256-thread block: 50 % exact, 64 % by the per-thread
 *                     estimate), exact against textbook.
 */
#include "config.h"

#include "models/fig.h"
#include "models/occ.h"

extern const FigDef fig_occupancy_def, fig_cliff_def;

/* The colour class of a point: which limit binds, or "several" when
 * more than one does (the label of the marked launch names them all). */
enum { CLASS_BLOCKS = 1, CLASS_WARPS, CLASS_REGS, CLASS_SMEM, CLASS_SEVERAL };

static int
limit_class (unsigned limiter)
{
    switch (limiter) {
    case OCC_LIMITER_BLOCKS:
        return CLASS_BLOCKS;
    case OCC_LIMITER_WARPS:
        return CLASS_WARPS;
    case OCC_LIMITER_REGS:
        return CLASS_REGS;
    case OCC_LIMITER_SMEM:
        return CLASS_SMEM;
    default:
        return CLASS_SEVERAL;
    }
}

/* One row of the calculator graphs; an impossible launch has none. */
static void
calc_row (FigData *d, const GpuSpec *s, const char *graph, gint64 x,
          const OccLaunch *l)
{
    OccResult r;
    char name[64];
    occ_compute (s, l, &r);
    if (r.status != OCC_OK)
        return;
    g_string_append_printf (d->csv, "%s,%" G_GINT64_FORMAT ",%.4f,%s,%d\n",
                            graph, x, r.occupancy_pct,
                            occ_limiter_name (r.limiter, name, sizeof name),
                            limit_class (r.limiter));
}

/* Shared memory in about a thousand steps of whole allocation units. */
static gint64
smem_step (const GpuSpec *s)
{
    gint64 unit = MAX (s->alloc.smem_unit, 1);
    gint64 units = (s->sm.smem_per_block_optin / 1000 + unit - 1) / unit;
    return MAX (units, 1) * unit;
}

static void
calc_graphs (FigData *d, const GpuSpec *s, const OccLaunch *at)
{
    g_string_append (d->csv, "graph,x,occupancy_pct,limiter,class\n");
    for (gint64 t = s->device.warp_size; t <= s->sm.max_threads_per_block;
         t += s->device.warp_size) {
        OccLaunch l = *at;
        l.threads_per_block = t;
        calc_row (d, s, "threads", t, &l);
    }
    for (gint64 r = 1; r <= s->alloc.max_regs_per_thread; r++) {
        OccLaunch l = *at;
        l.regs_per_thread = r;
        calc_row (d, s, "regs", r, &l);
    }
    for (gint64 b = 0; b <= s->sm.smem_per_block_optin; b += smem_step (s)) {
        OccLaunch l = *at;
        l.static_smem_bytes = MIN (b, s->sm.smem_per_block);
        l.dyn_smem_bytes = b - l.static_smem_bytes;
        calc_row (d, s, "smem", b, &l);
    }
}

static gboolean
occupancy_build (const FigOptions *o, FigData *d, GError **error)
{
    g_autoptr (Preset) p = fig_preset (o, &fig_occupancy_def, NULL,
                                       NULL, error);
    if (p == NULL)
        return FALSE;
    const GpuSpec *s = preset_spec (p);
    OccLaunch at = { o->threads >= 0 ? o->threads : 256,
                     o->regs >= 0 ? o->regs : 40, 0, 0, -1 };
    gint64 smem = o->smem >= 0 ? o->smem : 8192;
    at.static_smem_bytes = MIN (smem, s->sm.smem_per_block);
    at.dyn_smem_bytes = smem - at.static_smem_bytes;
    OccResult r;
    char name[64];
    occ_compute (s, &at, &r);
    if (!occ_check (s, &at, &r, error))
        return FALSE;
    calc_graphs (d, s, &at);
    fig_var_str (d, "gpu", "%s", s->device.name);
    fig_var_str (d, "cc", "%d.%d", s->device.cc_major, s->device.cc_minor);
    fig_var_num (d, "cur_threads", (double) at.threads_per_block);
    fig_var_num (d, "cur_regs", (double) at.regs_per_thread);
    fig_var_num (d, "cur_smem", (double) smem);
    fig_var_num (d, "cur_occ", r.occupancy_pct);
    fig_var_str (d, "cur_limiter", "%s",
                 occ_limiter_name (r.limiter, name, sizeof name));
    fig_var_num (d, "max_threads", s->sm.max_threads_per_block);
    fig_var_num (d, "max_regs", s->alloc.max_regs_per_thread);
    fig_var_num (d, "max_smem", (double) s->sm.smem_per_block_optin);
    return TRUE;
}

const FigDef fig_occupancy_def = {
    "occupancy", 1,
    "occupancy vs block size, registers per thread and shared memory per "
    "block (the calculator's three graphs), binding limit shaded",
    "a100", "--gpu --threads (256) --regs (40) --smem (8192)", occupancy_build, FALSE, NULL
};

/* ------------------------------------------------------------------ */
/* Figure 2: the cliff                                                 */

static void
cliff_row (FigData *d, const GpuSpec *s, const char *panel, gint64 x,
           const OccLaunch *l)
{
    OccResult r;
    OccTextbook t;
    occ_compute (s, l, &r);
    if (r.status != OCC_OK)
        return;
    occ_textbook (s, l, &t);
    g_string_append_printf (d->csv, "%s,%" G_GINT64_FORMAT ",%.4f,%.4f\n",
                            panel, x, r.occupancy_pct, t.occupancy_pct);
}

static double
exact_pct (const GpuSpec *s, const OccLaunch *l)
{
    OccResult r;
    occ_compute (s, l, &r);
    return r.status == OCC_OK ? r.occupancy_pct : 0;
}

static double
textbook_pct (const GpuSpec *s, const OccLaunch *l)
{
    OccTextbook t;
    occ_textbook (s, l, &t);
    return t.occupancy_pct;
}

/* The seeds' launches: PMPP 4.7 (seed 001) 512 threads; PMPP 5.6 (seed
 * 000) 256 threads with 32 KB. */
#define CLIFF_REG_THREADS 512
#define CLIFF_SMEM_THREADS 256
#define CLIFF_SMEM_BYTES 32768

static void
cliff_vars (FigData *d, const GpuSpec *s)
{
    OccLaunch r31 = { CLIFF_REG_THREADS, 31, 0, 0, -1 };
    OccLaunch r33 = { CLIFF_REG_THREADS, 33, 0, 0, -1 };
    OccLaunch sm = { CLIFF_SMEM_THREADS, 32, CLIFF_SMEM_BYTES, 0, -1 };
    fig_var_str (d, "gpu", "%s", s->device.name);
    fig_var_num (d, "occ31", exact_pct (s, &r31));
    fig_var_num (d, "occ33", exact_pct (s, &r33));
    fig_var_num (d, "text33", textbook_pct (s, &r33));
    fig_var_num (d, "occ32k", exact_pct (s, &sm));
    fig_var_num (d, "text32k", textbook_pct (s, &sm));
}

static gboolean
cliff_build (const FigOptions *o, FigData *d, GError **error)
{
    g_autoptr (Preset) p = fig_preset (o, &fig_cliff_def, NULL, NULL,
                                       error);
    if (p == NULL)
        return FALSE;
    const GpuSpec *s = preset_spec (p);
    g_string_append (d->csv, "panel,x,exact_pct,textbook_pct\n");
    for (gint64 r = 16; r <= 64; r++) {
        OccLaunch l = { CLIFF_REG_THREADS, r, 0, 0, -1 };
        cliff_row (d, s, "regs", r, &l);
    }
    for (gint64 b = 0; b <= 2 * CLIFF_SMEM_BYTES; b += 512) {
        OccLaunch l = { CLIFF_SMEM_THREADS, 32, MIN (b, s->sm.smem_per_block),
                        0, -1 };
        l.dyn_smem_bytes = b - l.static_smem_bytes;
        cliff_row (d, s, "smem", b, &l);
    }
    cliff_vars (d, s);
    return TRUE;
}

const FigDef fig_cliff_def = {
    "occupancy-cliff", 2,
    "the occupancy cliff: PMPP's 31 -> 33 registers and 32 KB shared-memory "
    "examples, exact vs textbook",
    "a100", "--gpu", cliff_build, FALSE, NULL
};
