/*
 * fig_whatif.c -- figure 11, what-if: a kernel's time on hypothetical
 * SMs that have a quarter, half, twice or four times one resource of the
 * preset's, the rest unchanged:
 *   registers       the register file (and the per-block cap, when it
 *                   would exceed it);
 *   shared memory   the shared-memory carveout and every step of it, the
 *                   per-block limits where they would exceed it; the L1
 *                   keeps its size (the unified array grows or shrinks);
 *   DRAM latency    the pointer-chase latency of DRAM;
 *   schedulers      sub-partitions, each with its scheduler and pipes
 *                   (the register file is split among more of them).
 * By default PMPP's tiled matmul at 256 x 256: small enough to run whole
 * in a fraction of a second per SM design.  A design the kernel cannot
 * launch on (a quarter of the registers for a block of sgemm-5's; four
 * times the schedulers, each with a quarter of the registers, for a
 * warp of sgemm-10's) is a gap in its line, named in the figure and the
 * notes: that it cannot launch is the answer there.
 */
#include "config.h"

#include <math.h>

#include "models/fig.h"

extern const FigDef fig_whatif_def;

enum { RES_REGS, RES_SMEM, RES_DRAM, RES_SCHED, N_RES };

static const char *const res_names[N_RES] = {
    "registers", "shared memory", "DRAM latency", "schedulers"
};

static const double factors[] = { 0.25, 0.5, 2, 4 };

#define N_POINTS (N_RES * G_N_ELEMENTS (factors) + 1)

static void
smem_sets (GPtrArray *sets, const GpuSpec *s, double f)
{
    gint64 kib = (gint64) llround (s->sm.smem_bytes / 1024.0 * f);
    gint64 bytes = kib * 1024, room = bytes - s->sm.smem_reserved_per_block;
    GString *steps = g_string_new ("alloc.carveout_steps_kib=");
    gint64 last = -1;
    for (int i = 0; i < s->alloc.carveout_steps_kib.n; i++) {
        gint64 step = (gint64) llround (s->alloc.carveout_steps_kib.v[i] * f);
        if (i == s->alloc.carveout_steps_kib.n - 1)
            step = kib;
        if (step <= last)
            continue;
        g_string_append_printf (steps, "%s%" G_GINT64_FORMAT,
                                last < 0 ? "" : ";", step);
        last = step;
    }
    g_ptr_array_add (sets, g_string_free (steps, FALSE));
    g_ptr_array_add (sets, g_strdup_printf ("sm.smem_bytes=%" G_GINT64_FORMAT,
                                            bytes));
    g_ptr_array_add (sets, g_strdup_printf (
        "sm.smem_per_block=%" G_GINT64_FORMAT,
        MIN ((gint64) s->sm.smem_per_block, room)));
    g_ptr_array_add (sets, g_strdup_printf (
        "sm.smem_per_block_optin=%" G_GINT64_FORMAT,
        MIN ((gint64) s->sm.smem_per_block_optin, room)));
    g_ptr_array_add (sets, g_strdup_printf (
        "sm.l1_smem_kib=%" G_GINT64_FORMAT,
        s->sm.l1_smem_kib - s->sm.smem_bytes / 1024 + kib));
}

/* The --set assignments that scale 'res' by 'f' on 's'; NULL-terminated. */
static GStrv
scaled_sets (const GpuSpec *s, int res, double f, double *value)
{
    GPtrArray *sets = g_ptr_array_new ();
    int regs = (int) llround (s->sm.registers * f);
    int sps = (int) llround (s->sm.sub_partitions * f);
    int lat = (int) llround (s->mem.dram_latency_cycles * f);
    switch (res) {
    case RES_REGS:
        g_ptr_array_add (sets, g_strdup_printf ("sm.registers=%d", regs));
        g_ptr_array_add (sets, g_strdup_printf ("sm.max_regs_per_block=%d",
                                                MIN (regs, s->sm.max_regs_per_block)));
        *value = regs;
        break;
    case RES_SMEM:
        smem_sets (sets, s, f);
        *value = llround (s->sm.smem_bytes / 1024.0 * f);
        break;
    case RES_DRAM:
        g_ptr_array_add (sets, g_strdup_printf ("mem.dram_latency_cycles=%d",
                                                lat));
        *value = lat;
        break;
    default:
        g_ptr_array_add (sets, g_strdup_printf ("sm.sub_partitions=%d", sps));
        g_ptr_array_add (sets, g_strdup_printf (
            "sm.fp32_lanes=%d", sps * s->pipe.fma_lanes));
        *value = sps;
        break;
    }
    g_ptr_array_add (sets, NULL);
    return (GStrv) g_ptr_array_free (sets, FALSE);
}

static double
base_value (const GpuSpec *s, int res)
{
    return res == RES_REGS   ? s->sm.registers
           : res == RES_SMEM ? s->sm.smem_bytes / 1024.0
           : res == RES_DRAM ? s->mem.dram_latency_cycles
                             : s->sm.sub_partitions;
}

typedef struct {
    int res;                 /* -1: the preset as it is */
    double factor;
    double value;
    Preset *preset;
} Design;

/* The design with 'res' scaled by 'f' (the preset itself for 1). */
static guint
find_design (const Design *ds, guint n, int res, double f)
{
    for (guint i = 1; i < n; i++)
        if (ds[i].res == res && ds[i].factor == f)
            return i;
    return 0;
}

/* "registers x1/4" */
static char *
design_name (const Design *d)
{
    return g_strdup_printf (d->factor < 1 ? "%s x1/%g" : "%s x%g",
                            res_names[d->res],
                            d->factor < 1 ? 1 / d->factor : d->factor);
}

/* The rows; a design that cannot launch has no time, and is named in
 * 'gaps' and the notes. */
static void
write_rows (FigData *d, const Design *ds, const FigRun *runs, guint n,
            GString *gaps)
{
    static const double all[] = { 0.25, 0.5, 1, 2, 4 };
    double base = runs[0].result.time_ms;
    g_string_append (d->csv, "resource,factor,value,time_ms,relative_time,"
                             "occupancy_pct\n");
    for (int res = 0; res < N_RES; res++)
        for (guint k = 0; k < G_N_ELEMENTS (all); k++) {
            guint i = find_design (ds, n, res, all[k]);
            const RunResult *r = &runs[i].result;
            double value = i == 0 ? base_value (preset_spec (ds[0].preset), res)
                                  : ds[i].value;
            g_string_append_printf (d->csv, "%s,%g,%g,", res_names[res],
                                    all[k], value);
            if (runs[i].cannot_launch == NULL) {
                g_string_append_printf (d->csv, "%.5f,%.4f,%.2f\n",
                                        r->time_ms, r->time_ms / base,
                                        r->occ.occupancy_pct);
                continue;
            }
            g_autofree char *name = design_name (&ds[i]);
            g_string_append (d->csv, ",,\n");
            g_string_append_printf (gaps, "%s%s", gaps->len > 0 ? ", " : "",
                                    name);
            if (d->notes->len == 0)
                g_string_append (d->notes, "designs the kernel cannot launch "
                                           "on, gaps in their lines:\n");
            g_string_append_printf (d->notes, "  %s: %s\n", name,
                                    runs[i].cannot_launch->message);
        }
}

/* The preset, and one design per resource and factor, each run. */
static gboolean
run_designs (const FigOptions *o, Design *ds, FigRun *runs, GError **error)
{
    const char *kernel = o->kernel ? o->kernel : "pmpp-tiled";
    gint64 size = o->size >= 0 ? o->size : 256;
    for (guint i = 0; i < N_POINTS; i++) {
        g_autofree char *key = NULL;
        g_auto (GStrv) sets = NULL;
        ds[i].res = i == 0 ? -1 : (int) ((i - 1) / G_N_ELEMENTS (factors));
        ds[i].factor = i == 0 ? 1 : factors[(i - 1) % G_N_ELEMENTS (factors)];
        if (i > 0)
            sets = scaled_sets (preset_spec (ds[0].preset), ds[i].res,
                                ds[i].factor, &ds[i].value);
        ds[i].preset = fig_preset (o, &fig_whatif_def,
                                   (const char *const *) sets, &key,
                                   error);
        if (ds[i].preset == NULL)
            return FALSE;
        fig_run_init (&runs[i], preset_spec (ds[i].preset), key, kernel, size,
                      o->params, RUN_AUTO);
        runs[i].may_not_launch = i > 0;
    }
    return fig_run_all (o, runs, N_POINTS, error);
}

static gboolean
whatif_build (const FigOptions *o, FigData *d, GError **error)
{
    Design ds[N_POINTS] = { { 0 } };
    FigRun runs[N_POINTS] = { { 0 } };
    gboolean ok = run_designs (o, ds, runs, error);
    if (ok) {
        const GpuSpec *s = preset_spec (ds[0].preset);
        g_autoptr (GString) gaps = g_string_new (NULL);
        write_rows (d, ds, runs, N_POINTS, gaps);
        fig_var_str (d, "cannot_launch", "%s", gaps->str);
        fig_var_str (d, "gpu", "%s", s->device.name);
        fig_var_str (d, "kernel", "%s", runs[0].kernel);
        fig_var_num (d, "size", (double) runs[0].size);
        g_autofree char *size_label = fig_size_label (runs[0].kernel,
                                                      runs[0].size);
        fig_var_str (d, "size_label", "%s", size_label);
        fig_var_num (d, "base_ms", runs[0].result.time_ms);
        fig_var_str (d, "sampling", "%s", fig_run_sampling (runs, N_POINTS));
    }
    for (guint i = 0; i < N_POINTS; i++) {
        fig_run_clear (&runs[i]);
        g_clear_pointer (&ds[i].preset, preset_free);
    }
    return ok;
}

const FigDef fig_whatif_def = {
    "what-if", 11,
    "what-if: a kernel's time as one SM resource (registers, shared memory, "
    "DRAM latency, schedulers) is scaled by 1/4 .. 4",
    "a6000", "--gpu --kernel (pmpp-tiled) --size (256) --param",
    whatif_build, TRUE, NULL
};
