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
 * At a size some models' tiles do not divide, they draw the others and
 * name those in the notes; at one none runs at, they fail.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/fig.h"
#include "models/ref.h"
#include "models/run_sample.h"
#include "models/validate.h"

extern const FigDef fig_validation_def, fig_roofline_def, fig_stalls_def;

/* ------------------------------------------------------------------ */
/* Figure 6: validation                                                */

static const char *const validated_gpus[] = { "a6000", "a100", NULL };

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
    /* The bar's label, to a tenth of a percent with its sign (a miss
     * of -0.43 % is not "+0%"); unsigned for one that rounds to
     * nothing either way. */
    double tenths = round (v->error_pct * 10);
    char label[32];
    if (tenths == 0)
        g_strlcpy (label, "0.0%", sizeof label);
    else
        g_snprintf (label, sizeof label, "%+.1f%%", tenths / 10);
    if (v->modeled)
        g_string_append_printf (d->csv, "%.1f,%.1f,%.2f,%.1f,%s\n",
                                v->simulated_gflops, v->reference_gflops,
                                v->error_pct, cublas_of (v->gpu), label);
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
    for (guint g = 0; validated_gpus[g] != NULL; g++) {
        g_autoptr (Preset) p = preset_load (validated_gpus[g], NULL, o->sets,
                                            error);
        ValidateResult r;
        if (p == NULL || !validate_gpu (preset_spec (p), validated_gpus[g],
                                        validate_progress,
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
    for (guint g = 0; validated_gpus[g] != NULL; g++) {
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
    "A100, error on each bar, cuBLAS line (some 15-20 s of CPU unless --from)",
    NULL, "--from FILE.csv (`smsim validate --format csv`) --set",
    validation_build, FALSE, validated_gpus
};

/* ------------------------------------------------------------------ */
/* Figures 7 and 8: every SGEMM model, one size                        */

#define SGEMM_SIZE 1024

/* Why 'm' cannot run at 'size' (its tile does not divide the size, as
 * sgemm-11's 128 x 256 does not divide 128, or the grid outgrows the
 * GPU's), or NULL if it can.  Such a model is left out rather than
 * failing the figure; any other error is the run's to report.  '*mode':
 * sampled, unless the loop is too short to cut (sgemm-3 at 64 has 2
 * iterations; sampling it is refused), where the launch is small enough
 * to run whole. */
static char *
why_not_at (const GpuSpec *spec, const KernModel *m, gint64 size,
            RunMode *mode)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (KernInstance) k = kern_instance_new (m, spec, size, NULL, &error);
    *mode = k != NULL && run_can_sample (k) ? RUN_SAMPLED : RUN_AUTO;
    if (k != NULL || !g_error_matches (error, SMSIM_KERN_ERROR,
                                       KERN_ERROR_SIZE))
        return NULL;
    return g_strdup (error->message);
}

static gint64
gcd (gint64 a, gint64 b)
{
    while (b != 0) {
        gint64 r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* The smallest size 'm' runs at with its default parameters on 'spec',
 * up to SGEMM_SIZE (0 if none), asked of the model itself: its tile
 * rules live in kern_sgemm.c (kernels 1-3 have no tile parameters at
 * all), and the smallest size a tile divides is the step of all the
 * others. */
static gint64
smallest_size (const GpuSpec *spec, const KernModel *m)
{
    for (gint64 s = 16; s <= SGEMM_SIZE; s += 16) {
        g_autoptr (KernInstance) k = kern_instance_new (m, spec, s, NULL, NULL);
        if (k != NULL)
            return s;
    }
    return 0;
}

/* The sizes every SGEMM model runs at are the multiples of this (up to
 * what the GPU's grid takes). */
static gint64
all_run_step (const GpuSpec *spec)
{
    guint n;
    const KernModel *const *models = kern_models (&n);
    gint64 step = 1;
    for (guint i = 0; i < n; i++) {
        gint64 v = g_str_has_prefix (models[i]->id, "sgemm-")
                       ? smallest_size (spec, models[i]) : 0;
        if (v > 0)
            step = step / gcd (step, v) * v;
    }
    return step;
}

/* The models left out, each with why, in the notes the user sees. */
static void
note_left_out (FigData *d, const GpuSpec *spec, gint64 size,
               const GPtrArray *why, guint of)
{
    g_string_append_printf (d->notes, "%u of the %u SGEMM kernels cannot run "
                            "at %" G_GINT64_FORMAT " and %s left out (all "
                            "run at multiples of %" G_GINT64_FORMAT " that the "
                            "GPU's grid takes):\n",
                            why->len, of, size, why->len == 1 ? "is" : "are",
                            all_run_step (spec));
    for (guint i = 0; i < why->len; i++)
        g_string_append_printf (d->notes, "  %s\n", (char *) why->pdata[i]);
}

typedef struct {
    Preset *preset;
    FigRun *runs;
    guint n;
} SgemmRuns;

static void
sgemm_runs_clear (SgemmRuns *r)
{
    for (guint i = 0; i < r->n; i++)
        fig_run_clear (&r->runs[i]);
    g_clear_pointer (&r->runs, g_free);
    g_clear_pointer (&r->preset, preset_free);
    r->n = 0;
}

/* The SGEMM models in registry order that run at the size, each once;
 * the others are noted in 'd', and an error if none runs. */
static gboolean
sgemm_runs (const FigOptions *o, const FigDef *fig, FigData *d,
            SgemmRuns *r, GError **error)
{
    g_autofree char *key = NULL;
    g_autoptr (GPtrArray) left_out = g_ptr_array_new_with_free_func (g_free);
    guint n_models, of = 0;
    const KernModel *const *models = kern_models (&n_models);
    gint64 size = o->size >= 0 ? o->size : SGEMM_SIZE;
    r->preset = fig_preset (o, fig, NULL, &key, error);
    if (r->preset == NULL)
        return FALSE;
    r->runs = g_new0 (FigRun, n_models);
    for (guint i = 0; i < n_models; i++) {
        RunMode mode;
        if (!g_str_has_prefix (models[i]->id, "sgemm-"))
            continue;
        char *why = why_not_at (preset_spec (r->preset), models[i], size,
                                &mode);
        of++;
        if (why != NULL)
            g_ptr_array_add (left_out, why);
        else
            fig_run_init (&r->runs[r->n++], preset_spec (r->preset), key,
                          models[i]->id, size, NULL, mode);
    }
    if (r->n == 0) {
        /* The first's reason: sgemm-1's tile is the smallest. */
        g_set_error (error, SMSIM_FIG_ERROR, FIG_ERROR_OPTION,
                     "no SGEMM kernel runs at size %" G_GINT64_FORMAT
                     " (all run at multiples of %" G_GINT64_FORMAT " that the "
                     "GPU's grid takes; the default is %d): %s",
                     size, all_run_step (preset_spec (r->preset)), SGEMM_SIZE,
                     (char *) left_out->pdata[0]);
        sgemm_runs_clear (r);
        return FALSE;
    }
    if (left_out->len > 0)
        note_left_out (d, preset_spec (r->preset), size, left_out, of);
    if (fig_run_all (o, r->runs, r->n, error))
        return TRUE;
    sgemm_runs_clear (r);
    return FALSE;
}

/* GPU, size and how the runs were run, for the title. */
static void
size_vars (FigData *d, const SgemmRuns *r)
{
    fig_var_str (d, "gpu", "%s", preset_spec (r->preset)->device.name);
    fig_var_num (d, "size", (double) r->runs[0].size);
    fig_var_str (d, "sampling", "%s", fig_run_sampling (r->runs, r->n));
}

/* Bytes L2 served the run. */
static double
l2_bytes (const GpuSpec *s, const FigRun *run)
{
    return (double) run->result.mem.l2_sectors * s->mem.l1_sector_bytes;
}

/* FLOPs per DRAM byte and per L2 byte (0 where none moved). */
static void
intensities (const GpuSpec *s, const FigRun *run, double *dram, double *l2)
{
    double dram_bytes = (double) run->result.dram_bytes;
    *dram = dram_bytes > 0 ? run->flops / dram_bytes : 0;
    *l2 = l2_bytes (s, run) > 0 ? run->flops / l2_bytes (s, run) : 0;
}

static void
roofline_rows (FigData *d, const GpuSpec *s, const FigRun *runs, guint n)
{
    g_string_append (d->csv, "kernel,gflops,ai_dram,ai_l2,flops,dram_bytes,"
                             "l2_bytes\n");
    for (guint i = 0; i < n; i++) {
        const RunResult *r = &runs[i].result;
        double ai_dram, ai_l2;
        intensities (s, &runs[i], &ai_dram, &ai_l2);
        g_string_append_printf (d->csv, "%s,%.1f,%.3f,%.3f,%.0f,%.0f,%.0f\n",
                                runs[i].kernel, r->gflops, ai_dram, ai_l2,
                                runs[i].flops, (double) r->dram_bytes,
                                l2_bytes (s, &runs[i]));
    }
}

/* A log axis from 'lo' to 'hi' (the ends the roofs want), an end moved
 * out to a power of ten where point 'v' would lie past it or within 20
 * % of it: small sizes run far below the roofs (sgemm-1 at 96, 31
 * GFLOP/s), big ones far to the right.  'v' <= 0 is not drawn. */
static void
widen (double v, double *lo, double *hi)
{
    if (v <= 0)
        return;
    if (v / 1.2 < *lo)
        *lo = pow (10, floor (log10 (v / 1.2)));
    if (v * 1.2 > *hi)
        *hi = pow (10, ceil (log10 (v * 1.2)));
}

static void
roofline_axes (FigData *d, const GpuSpec *s, const FigRun *runs, guint n,
               double peak)
{
    double x_lo = 0.5, x_hi = 2000, y_lo = 100, y_hi = 2 * peak;
    for (guint i = 0; i < n; i++) {
        double ai_dram, ai_l2;
        intensities (s, &runs[i], &ai_dram, &ai_l2);
        widen (ai_dram, &x_lo, &x_hi);
        widen (ai_l2, &x_lo, &x_hi);
        widen (runs[i].result.gflops, &y_lo, &y_hi);
    }
    fig_var_num (d, "x_lo", x_lo);
    fig_var_num (d, "x_hi", x_hi);
    fig_var_num (d, "y_lo", y_lo);
    fig_var_num (d, "y_hi", y_hi);
}

static gboolean
roofline_build (const FigOptions *o, FigData *d, GError **error)
{
    SgemmRuns r = { NULL, NULL, 0 };
    if (!sgemm_runs (o, &fig_roofline_def, d, &r, error))
        return FALSE;
    const GpuSpec *s = preset_spec (r.preset);
    /* FP32 peak: one FFMA (2 FLOPs) per lane per cycle. */
    double peak = 2.0 * s->device.sm_count * s->sm.sub_partitions *
                  s->pipe.fma_lanes * s->device.sm_clock_mhz / 1e3;
    roofline_rows (d, s, r.runs, r.n);
    size_vars (d, &r);
    fig_var_num (d, "peak_gflops", peak);
    fig_var_num (d, "dram_gbs", s->device.dram_bandwidth_gbs);
    fig_var_num (d, "l2_gbs", s->mem.l2_bandwidth_gbs);
    roofline_axes (d, s, r.runs, r.n, peak);
    sgemm_runs_clear (&r);
    return TRUE;
}

const FigDef fig_roofline_def = {
    "roofline", 7,
    "roofline: each SGEMM kernel at its simulated arithmetic intensity "
    "(DRAM and L2 bytes) and GFLOP/s",
    "a6000", "--gpu --size (1024)", roofline_build, TRUE, NULL
};

static gboolean
stalls_build (const FigOptions *o, FigData *d, GError **error)
{
    SgemmRuns sg = { NULL, NULL, 0 };
    if (!sgemm_runs (o, &fig_stalls_def, d, &sg, error))
        return FALSE;
    const FigRun *runs = sg.runs;
    g_string_append (d->csv, "kernel");
    for (int r = 0; r < STALL_N; r++)
        g_string_append_printf (d->csv, ",%s", stats_stall_name ((StallReason) r));
    g_string_append (d->csv, ",total\n");
    for (guint i = 0; i < sg.n; i++) {
        double total = 0;
        g_string_append (d->csv, runs[i].kernel);
        for (int r = 0; r < STALL_N; r++) {
            double v = stats_per_issue (&runs[i].result.stats, (StallReason) r);
            total += v;
            g_string_append_printf (d->csv, ",%.4f", v);
        }
        g_string_append_printf (d->csv, ",%.4f\n", total);
    }
    size_vars (d, &sg);
    fig_var_num (d, "n_reasons", STALL_N);
    /* The script gives sgemm-1..4, the first rows, a panel of their own
     * (their stalls are an order of magnitude longer) where both they
     * and later kernels ran: not at 64, where only they run, nor where
     * the grid leaves only later ones. */
    guint early = 0;
    for (guint i = 0; i < sg.n; i++)
        early += atoi (runs[i].kernel + strlen ("sgemm-")) <= 4;
    fig_var_num (d, "n_kernels", sg.n);
    fig_var_num (d, "n_early", early);
    sgemm_runs_clear (&sg);
    return TRUE;
}

const FigDef fig_stalls_def = {
    "stall-breakdown", 8,
    "SGEMM kernels: warp cycles per issued instruction by stall reason "
    "(Nsight Compute names)",
    "a6000", "--gpu --size (1024)", stalls_build, TRUE, NULL
};
