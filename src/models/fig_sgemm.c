/*
 * fig_sgemm.c -- figures 6, 7 and 8: the SGEMM kernel progression.
 *
 *   sgemm-validation  simulated vs published GFLOP/s at 4096 on the A6000
 *                     and the A100, the error of each, cuBLAS as the
 *                     reference line: validate.h's table (run here, or
 *                     read from `smsim validate --format csv` output);
 *   roofline          each kernel at its simulated arithmetic intensity
 *                     (FLOPs over DRAM bytes, and over L2 bytes) and
 *                     GFLOP/s, under the preset's FP32 peak and its DRAM
 *                     and L2 bandwidths;
 *   stall-breakdown   warp cycles per issued instruction by Nsight
 *                     Compute stall reason, per kernel.
 * The last two run every SGEMM model once (shared through the cache), at
 * 1024 by default and sampled: a size the simulator runs in seconds.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "models/fig.h"
#include "models/ref.h"
#include "models/run_sample.h"
#include "models/validate.h"

extern const FigDef fig_validation_def, fig_roofline_def, fig_stalls_def;

/* ------------------------------------------------------------------ */
/* Figure 6: validation                                                */

static const char *const validated_gpus[] = { "a6000", "a100" };

static double
cublas_of (const char *gpu)
{
    guint n;
    const RefRow *rows = ref_rows (&n);
    for (guint i = 0; i < n; i++)
        if (rows[i].kernel == 0 && strcmp (rows[i].gpu, gpu) == 0)
            return rows[i].gflops;
    return 0;
}

static void
validation_row (FigData *d, const FigValidRow *v)
{
    g_string_append_printf (d->csv, "%s,%d,", v->gpu, v->kernel);
    /* The bar's label, to the whole percent: 0, not -0, for a miss
     * under half a percent either way. */
    double label = round (v->error_pct);
    if (v->modeled)
        g_string_append_printf (d->csv, "%.1f,%.1f,%.2f,%.1f,%+.0f%%\n",
                                v->simulated_gflops, v->reference_gflops,
                                v->error_pct, cublas_of (v->gpu),
                                label == 0 ? 0.0 : label);
    else
        g_string_append_printf (d->csv, ",%.1f,,%.1f,no model\n",
                                v->reference_gflops, cublas_of (v->gpu));
}

static void
add_validated (GArray *rows, const char *gpu, const ValidateResult *r)
{
    for (guint i = 0; i < r->rows->len; i++) {
        const ValidateRow *v = &g_array_index (r->rows, ValidateRow, i);
        FigValidRow row = { { 0 }, v->ref->kernel, v->modeled,
                            v->simulated_gflops, v->ref->gflops,
                            v->error_pct };
        g_strlcpy (row.gpu, gpu, sizeof row.gpu);
        g_array_append_val (rows, row);
    }
}

static void
validate_progress (void *ctx, const char *gpu, int kernel, int done,
                   int total)
{
    const FigOptions *o = ctx;
    g_autofree char *what = g_strdup_printf ("%s sgemm-%d", gpu, kernel);
    if (o->progress != NULL)
        o->progress (o->progress_ctx, what, done, total);
}

/* validate.h's table for both GPUs (several minutes). */
static GArray *
validate_both (const FigOptions *o, GError **error)
{
    g_autoptr (GArray) rows = g_array_new (FALSE, TRUE, sizeof (FigValidRow));
    for (guint g = 0; g < G_N_ELEMENTS (validated_gpus); g++) {
        g_autoptr (Preset) p = preset_load (validated_gpus[g], NULL, o->sets,
                                            error);
        ValidateResult r;
        if (p == NULL || !validate_gpu (preset_spec (p), validate_progress,
                                        (void *) o, &r, error))
            return NULL;
        add_validated (rows, validated_gpus[g], &r);
        validate_result_clear (&r);
    }
    return g_steal_pointer (&rows);
}

static gboolean
validation_build (const FigOptions *o, FigData *d, GError **error)
{
    g_autoptr (GArray) simulated = NULL;
    const GArray *rows = o->validation;
    int n_gpus = 0;
    if (rows == NULL) {
        simulated = validate_both (o, error);
        if (simulated == NULL)
            return FALSE;
        rows = simulated;
    }
    g_string_append (d->csv, "gpu,kernel,simulated_gflops,reference_gflops,"
                             "error_pct,cublas_gflops,label\n");
    for (guint g = 0; g < G_N_ELEMENTS (validated_gpus); g++) {
        gboolean any = FALSE;
        for (guint i = 0; i < rows->len; i++) {
            const FigValidRow *v = &g_array_index (rows, FigValidRow, i);
            if (strcmp (v->gpu, validated_gpus[g]) != 0)
                continue;
            validation_row (d, v);
            any = TRUE;
        }
        if (any)
            fig_var_str (d, n_gpus++ ? "gpu2" : "gpu1", "%s",
                         validated_gpus[g]);
    }
    if (n_gpus == 0) {
        g_set_error (error, SMSIM_FIG_ERROR, FIG_ERROR_INPUT,
                     "figure sgemm-validation: no a6000 or a100 rows");
        return FALSE;
    }
    fig_var_num (d, "n_gpus", n_gpus);
    fig_var_str (d, "origin", "%s", o->validation ? "from a validate table"
                                                  : "simulated now");
    return TRUE;
}

const FigDef fig_validation_def = {
    "sgemm-validation", 6,
    "SGEMM kernels at 4096: simulated vs published GFLOP/s, A6000 and "
    "A100, error on each bar, cuBLAS line (minutes unless --from)",
    "a6000", "--from FILE.csv (`smsim validate --format csv`) --set",
    validation_build, FALSE
};

/* ------------------------------------------------------------------ */
/* Figures 7 and 8: every SGEMM model, one size                        */

#define SGEMM_SIZE 1024

/* Can 'm' run at 'size'?  A model whose tile does not divide the size
 * (sgemm-11's 128 x 256 at 128) is left out rather than failing the
 * figure; any other error is the run's to report.  '*mode': sampled,
 * unless the loop is too short to cut (sgemm-3 at 64 has 2 iterations;
 * sampling it is refused), where the launch is small enough to run
 * whole. */
static gboolean
runs_at (const GpuSpec *spec, const KernModel *m, gint64 size, RunMode *mode)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (KernInstance) k = kern_instance_new (m, spec, size, NULL, &error);
    *mode = k != NULL && run_can_sample (k) ? RUN_SAMPLED : RUN_AUTO;
    return k != NULL || !g_error_matches (error, SMSIM_KERN_ERROR,
                                          KERN_ERROR_SIZE);
}

/* The SGEMM models in registry order that run at the size, each once. */
static guint
sgemm_runs (const FigOptions *o, const FigDef *fig, Preset **preset,
            FigRun **runs, GError **error)
{
    g_autofree char *key = NULL;
    guint n_models, n = 0;
    const KernModel *const *models = kern_models (&n_models);
    *preset = fig_preset (o, fig, NULL, TRUE, &key, error);
    if (*preset == NULL)
        return 0;
    gint64 size = o->size > 0 ? o->size : SGEMM_SIZE;
    *runs = g_new0 (FigRun, n_models);
    for (guint i = 0; i < n_models; i++) {
        RunMode mode;
        if (g_str_has_prefix (models[i]->id, "sgemm-") &&
            runs_at (preset_spec (*preset), models[i], size, &mode))
            fig_run_init (&(*runs)[n++], preset_spec (*preset), key,
                          models[i]->id, size, NULL, mode);
    }
    if (fig_run_all (o, *runs, n, error))
        return n;
    for (guint i = 0; i < n; i++)
        fig_run_clear (&(*runs)[i]);
    g_clear_pointer (runs, g_free);
    g_clear_pointer (preset, preset_free);
    return 0;
}

static void
runs_free (FigRun *runs, guint n)
{
    for (guint i = 0; i < n; i++)
        fig_run_clear (&runs[i]);
    g_free (runs);
}

static void
size_vars (FigData *d, const GpuSpec *s, const FigRun *r)
{
    fig_var_str (d, "gpu", "%s", s->device.name);
    fig_var_num (d, "size", (double) r->size);
}

static void
roofline_rows (FigData *d, const GpuSpec *s, const FigRun *runs, guint n)
{
    g_string_append (d->csv, "kernel,gflops,ai_dram,ai_l2,flops,dram_bytes,"
                             "l2_bytes\n");
    for (guint i = 0; i < n; i++) {
        const RunResult *r = &runs[i].result;
        double l2 = (double) r->mem.l2_sectors * s->mem.l1_sector_bytes;
        double dram = (double) r->dram_bytes;
        g_string_append_printf (d->csv, "%s,%.1f,%.3f,%.3f,%.0f,%.0f,%.0f\n",
                                runs[i].kernel, r->gflops,
                                dram > 0 ? runs[i].flops / dram : 0,
                                l2 > 0 ? runs[i].flops / l2 : 0,
                                runs[i].flops, dram, l2);
    }
}

static gboolean
roofline_build (const FigOptions *o, FigData *d, GError **error)
{
    Preset *p = NULL;
    FigRun *runs = NULL;
    guint n = sgemm_runs (o, &fig_roofline_def, &p, &runs, error);
    if (n == 0)
        return FALSE;
    const GpuSpec *s = preset_spec (p);
    /* FP32 peak: one FFMA (2 FLOPs) per lane per cycle. */
    double peak = 2.0 * s->device.sm_count * s->sm.sub_partitions *
                  s->pipe.fma_lanes * s->device.sm_clock_mhz / 1e3;
    roofline_rows (d, s, runs, n);
    size_vars (d, s, &runs[0]);
    fig_var_num (d, "peak_gflops", peak);
    fig_var_num (d, "dram_gbs", s->device.dram_bandwidth_gbs);
    fig_var_num (d, "l2_gbs", s->mem.l2_bandwidth_gbs);
    runs_free (runs, n);
    preset_free (p);
    return TRUE;
}

const FigDef fig_roofline_def = {
    "roofline", 7,
    "roofline: each SGEMM kernel at its simulated arithmetic intensity "
    "(DRAM and L2 bytes) and GFLOP/s",
    "a6000", "--gpu --size (1024)", roofline_build, TRUE
};

static gboolean
stalls_build (const FigOptions *o, FigData *d, GError **error)
{
    Preset *p = NULL;
    FigRun *runs = NULL;
    guint n = sgemm_runs (o, &fig_stalls_def, &p, &runs, error);
    if (n == 0)
        return FALSE;
    g_string_append (d->csv, "kernel");
    for (int r = 0; r < STALL_N; r++)
        g_string_append_printf (d->csv, ",%s", stats_stall_name ((StallReason) r));
    g_string_append (d->csv, ",total\n");
    for (guint i = 0; i < n; i++) {
        double total = 0;
        g_string_append (d->csv, runs[i].kernel);
        for (int r = 0; r < STALL_N; r++) {
            double v = stats_per_issue (&runs[i].result.stats, (StallReason) r);
            total += v;
            g_string_append_printf (d->csv, ",%.4f", v);
        }
        g_string_append_printf (d->csv, ",%.4f\n", total);
    }
    size_vars (d, preset_spec (p), &runs[0]);
    fig_var_num (d, "n_reasons", STALL_N);
    runs_free (runs, n);
    preset_free (p);
    return TRUE;
}

const FigDef fig_stalls_def = {
    "stall-breakdown", 8,
    "SGEMM kernels: warp cycles per issued instruction by stall reason "
    "(Nsight Compute names)",
    "a6000", "--gpu --size (1024)", stalls_build, TRUE
};
