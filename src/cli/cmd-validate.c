/*
 * cmd-validate.c -- `smsim validate`: simulated vs published SGEMM
 * throughput on the A6000 and the A100, error shown side by side.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "models/csv.h"
#include "models/validate.h"

static int validate_exec (int argc, char **argv);

const CmdEntry cmd_validate_entry = {
    "validate", "simulated vs published SGEMM GFLOP/s (A6000, A100)",
    validate_exec
};

static void
progress (void *ctx, const char *gpu, int kernel, int done, int total)
{
    (void) gpu;
    (void) kernel;
    progress_update (ctx, (guint64) done, (guint64) total);
}

static gboolean
above_ceiling (const ValidateRow *v)
{
    return v->modeled && v->ceiling_gflops > 0 &&
           v->ref->gflops > v->ceiling_gflops;
}

static void
text (GString *o, const Preset *preset, const char *published,
      const ValidateResult *r)
{
    const GpuSpec *s = preset_spec (preset);
    g_autofree char *what_if = preset_what_if (preset);
    int above = 0;
    g_string_append_printf (o, "%s (%s), SGEMM at 4096, GFLOP/s", s->id,
                            s->device.name);
    if (strcmp (s->id, published) != 0)
        g_string_append_printf (o, ", beside %s's published figures",
                                published);
    g_string_append_c (o, '\n');
    /* A what-if's table says so: saved, it is not the preset's. */
    if (what_if != NULL)
        g_string_append_printf (o, "  what-if: %s\n", what_if);
    g_string_append_printf (o, "  %-9s %12s %12s %9s %16s\n", "kernel",
                            "simulated", "published", "error", "ceiling");
    for (guint i = 0; i < r->rows->len; i++) {
        const ValidateRow *v = &g_array_index (r->rows, ValidateRow, i);
        if (!v->modeled) {
            g_string_append_printf (o, "  sgemm-%-3d %12s %12.1f %9s\n",
                                    v->ref->kernel, "not modelled",
                                    v->ref->gflops, "-");
            continue;
        }
        g_string_append_printf (o, "  sgemm-%-3d %12.1f %12.1f %+8.1f%% "
                                "%9.0f %s%s\n", v->ref->kernel,
                                v->simulated_gflops, v->ref->gflops,
                                v->error_pct, v->ceiling_gflops,
                                run_unit_brief (v->ceiling_unit),
                                above_ceiling (v) ? " *" : "");
        above += above_ceiling (v);
    }
    if (r->cublas_gflops > 0)
        g_string_append_printf (o, "  %-9s %12s %12.1f   (reference line)\n",
                                "cuBLAS", "-", r->cublas_gflops);
    g_string_append_printf (o, "  MAPE %.1f %%, largest error %+.1f %%; "
                            "order kept in %d of %d pairs more than 10 %% "
                            "apart%s%s\n", r->mape_pct, r->max_error_pct,
                            r->pairs_agree, r->pairs,
                            r->disagreements->len ? ", not in: " : "",
                            r->disagreements->str);
    if (above > 0)
        g_string_append_printf (o, "  * %d kernel%s published above the "
                                "ceiling: the GPU does that unit's work in\n"
                                "    fewer cycles than smsim charges (FP32, "
                                "issue, smem: no timing can make that\n"
                                "    up; L1, L2, DRAM: at the traffic smsim's "
                                "hit rates let through)\n", above,
                                above == 1 ? "" : "s");
    g_string_append_c (o, '\n');
}

static void
csv (GString *o, const GpuSpec *s, const ValidateResult *r)
{
    for (guint i = 0; i < r->rows->len; i++) {
        const ValidateRow *v = &g_array_index (r->rows, ValidateRow, i);
        g_string_append_printf (o, "%s,sgemm-%d,%d,", s->id, v->ref->kernel,
                                v->ref->size);
        if (v->modeled)
            g_string_append_printf (o, "%.1f,%.1f,%.2f,", v->simulated_gflops,
                                    v->ref->gflops, v->error_pct);
        else
            g_string_append_printf (o, ",%.1f,,", v->ref->gflops);
        csv_append_field (o, v->ref->source);
        g_string_append_c (o, '\n');
    }
}

/* Whether the reference table has figures for 'gpu' (ref.h). */
static gboolean
is_published (const char *gpu)
{
    guint n;
    const RefRow *rows = ref_rows (&n);
    for (guint i = 0; gpu != NULL && i < n; i++)
        if (strcmp (rows[i].gpu, gpu) == 0)
            return TRUE;
    return FALSE;
}

/* The GPU whose published figures 'preset' stands beside: the one it
 * starts from (a --gpu, or a --config's base=).  'config': the file, or
 * NULL for a shipped preset with --set alone (which cannot rename it). */
static const char *
published_of (const Preset *preset, const char *config, GError **error)
{
    const char *root = preset_root (preset);
    const char *id = preset_spec (preset)->id;
    /* The table carries the preset's name: a what-if named as a GPU
     * with published figures would pass for that GPU's table. */
    if (is_published (root) && strcmp (id, root) != 0 && is_published (id)) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_VALUE,
                     "%s is named %s but starts from %s: give the what-if "
                     "a file name of its own", config, id, root);
        return NULL;
    }
    if (is_published (root))
        return root;
    if (root != NULL)
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_VALUE,
                     "%s starts from %s: published numbers exist for a6000 "
                     "and a100", config, root);
    else
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_VALUE,
                     "%s starts from no shipped preset named as such (a "
                     "base= that is a path names a file): give it [preset] "
                     "base = a6000 or a100, whose published figures it is "
                     "set beside", config);
    return NULL;
}

/* One GPU's table into 'out' in 'format', and into 'csv_too' as CSV
 * when it is not NULL: the preset 'name', or the --config 'config' on
 * it (or on its own base= when 'name' is NULL). */
static int
one_gpu (const CmdEntry *cmd, const char *name, const char *config,
         const char *const *sets, CliFormat format, GString *out,
         GString *csv_too)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = preset_load (name, config, sets, &error);
    const char *published = preset != NULL
                                ? published_of (preset, config, &error)
                                : NULL;
    ValidateResult r;
    g_autofree char *label = g_strdup_printf (
        "smsim validate %s", preset != NULL ? preset_spec (preset)->id : "");
    g_autoptr (Progress) bar = progress_new (label, "kernels");
    gboolean ok = published != NULL &&
                  validate_gpu (preset_spec (preset), published, progress,
                                bar, &r, &error);
    g_clear_pointer (&bar, progress_free);
    if (!ok) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    if (format == CLI_FORMAT_CSV)
        csv (out, preset_spec (preset), &r);
    else
        text (out, preset, published, &r);
    if (csv_too != NULL)
        csv (csv_too, preset_spec (preset), &r);
    validate_result_clear (&r);
    return CLI_EXIT_OK;
}

static const char description[] =
    "Runs each SGEMM kernel model at 4096 (sampled), timed as 50\n"
    "launches back to back after a warm-up, the way the published\n"
    "figures were (`smsim run --launches`), and sets its GFLOP/s beside\n"
    "the published figure (siboehm/SGEMM_CUDA; the A100 run used the A100\n"
    "settings of kernels 9 and 10).  The error is (simulated - published)\n"
    "/ published; MAPE is the mean of its magnitude.  Presets are never\n"
    "fitted to this table.\n\n"
    "A sampled figure is a few per cent from the exact run's (kernels\n"
    "4-11 on the A6000: -4.3 to +6.4 % in cycles, docs/sampling.md) and\n"
    "moves by as much with any small change to the GPU, a latency a\n"
    "cycle off among them (`make bench-stability`), where the exact run\n"
    "moves by a tenth of a per cent: compare two sampled figures a few\n"
    "per cent apart with `smsim run --exact` (minutes for kernels 4-11).\n\n"
    "The ceiling is the most smsim's costs allow the kernel at the work\n"
    "per flop the run counted: the lowest GFLOP/s at which one unit\n"
    "(FP32, issue, L1, smem wavefronts, L2, DRAM) would be busy every\n"
    "cycle -- an SM's own units on the SMs that run the most blocks.  For\n"
    "FP32, issue and smem that work is the kernel's whatever the timing;\n"
    "for L1, L2 and DRAM it is the traffic the run's hit rates let\n"
    "through.  A published figure above it (marked *) says the GPU does\n"
    "that unit's work in fewer cycles, or at a higher clock, than the\n"
    "preset and the model charge.  The counts are the sampled run's.\n"
    "Not in the CSV, whose columns DESIGN.md fixes.\n\n"
    "CSV columns: gpu,kernel,size,simulated_gflops,reference_gflops,"
    "error_pct,source\n\n"
    "--csv-output FILE writes the CSV table as well, so that one run gives\n"
    "both (`make results` draws `smsim plot sgemm-validation` from it).\n"
    "The two are written both or neither: where one cannot be written, the\n"
    "other file is not left behind (a device or standard output is written\n"
    "once the files are whole, before they are put in place; only a rename\n"
    "failing after the other output is in place leaves that one).\n\n"
    "--config FILE validates a what-if preset: one whose base= is a6000\n"
    "or a100 is set beside that GPU's published figures (its kernels\n"
    "launched as that run launched them) under its own name; with --gpu\n"
    "a6000 or a100 (not all), the file (without a base=) overrides that\n"
    "GPU's keys, as --set does.  A table made with --set names the values\n"
    "it gave ('what-if:' under its title; not in the CSV).\n\n"
    "Examples:\n"
    "  smsim validate\n"
    "  smsim validate --gpu a6000 --format csv -o a6000.csv\n"
    "  smsim validate --config examples/a100-2x-regs.ini\n"
    "  smsim validate --csv-output v.csv && "
    "smsim plot sgemm-validation --from v.csv";

/* --gpu names a GPU with published figures, checked before the minutes
 * the validation takes: an unknown one is the loader's error, as in every
 * command, and one without figures is bad input too, as a --config that
 * starts from one is (exit 2 both). */
static gboolean
check_published (const char *gpu, GError **error)
{
    if (gpu == NULL || strcmp (gpu, "all") == 0 || is_published (gpu))
        return TRUE;
    g_autoptr (Preset) preset = preset_load (gpu, NULL, NULL, error);
    if (preset != NULL)
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_VALUE,
                     "--gpu %s: published numbers exist for a6000 and a100",
                     gpu);
    return FALSE;
}

/* The command line makes sense before the minutes the validation takes. */
static gboolean
check_args (const CmdEntry *cmd, int argc, char **argv, const char *config,
            const char *output, const char *csv_output)
{
    g_autoptr (GError) error = NULL;
    /* The CSV and the table would replace each other; either would
     * replace the preset. */
    const CliFileArg files[] = {
        { "--config", config }, { "-o", output },
        { "--csv-output", csv_output },
    };
    if (argc > 1) {
        cli_error (cmd, "unexpected argument '%s'", argv[1]);
        return FALSE;
    }
    if (!cli_check_distinct (files, G_N_ELEMENTS (files), &error) ||
        !cli_check_not_preset (&files[1], 2, NULL, config, &error)) {
        cli_error (cmd, "%s", error->message);
        return FALSE;
    }
    return TRUE;
}

static int
validate_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &cmd_validate_entry;
    g_autofree char *gpu = NULL;
    g_autofree char *format_text = NULL;
    g_autofree char *output = NULL;
    g_autofree char *csv_output = NULL;
    g_autofree char *config = NULL;
    g_auto (GStrv) sets = NULL;
    const GOptionEntry entries[] = {
        { "gpu", 'g', 0, G_OPTION_ARG_STRING, &gpu,
          "a6000, a100 or all (default)", "NAME" },
        { "config", 0, 0, G_OPTION_ARG_FILENAME, &config,
          "a what-if preset file: alone, set beside the published figures "
          "of its base= (a6000 or a100); with --gpu, its keys override "
          "that GPU's", "FILE" },
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
          "override a preset key for a what-if (repeatable)", "KEY=VALUE" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
          "text (default) or csv", "FORMAT" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
          "write here (a file whole or not at all; through links, into a "
          "device as is) instead of standard output",
          "FILE" },
        { "csv-output", 0, 0, G_OPTION_ARG_FILENAME, &csv_output,
          "also write the CSV table here (a file whole or not at all; "
          "through links, into a device as is)", "FILE" },
        G_OPTION_ENTRY_NULL
    };
    g_autoptr (GOptionContext) ctx = cli_context_new (cmd, "", description);
    g_autoptr (GError) error = NULL;
    g_autoptr (GString) out = g_string_new (NULL);
    g_autoptr (GString) csv_out = NULL;
    CliFormat format;
    g_option_context_add_main_entries (ctx, entries, NULL);
    if (!cli_parse (ctx, cmd, &argc, &argv) || !cli_check_sets (cmd, sets))
        return CLI_EXIT_USAGE;
    if (!cli_format_parse (format_text, 1u << CLI_FORMAT_TEXT |
                                            1u << CLI_FORMAT_CSV,
                           &format, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_USAGE;
    }
    if (!check_args (cmd, argc, argv, config, output, csv_output))
        return CLI_EXIT_USAGE;
    /* The status the writes would fail with, before the validation. */
    if (!cli_check_output ("-o", output, &error) ||
        !cli_check_output ("--csv-output", csv_output, &error) ||
        !check_published (gpu, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    gboolean all = gpu == NULL || strcmp (gpu, "all") == 0;
    gboolean alone = config != NULL && gpu == NULL;
    if (config != NULL && gpu != NULL && all) {
        cli_error (cmd, "--config with --gpu all: both tables would carry "
                   "the file's name; give --gpu a6000 or a100");
        return CLI_EXIT_USAGE;
    }
    static const char header[] = "gpu,kernel,size,simulated_gflops,"
                                 "reference_gflops,error_pct,source\n";
    if (format == CLI_FORMAT_CSV)
        g_string_append (out, header);
    if (csv_output != NULL)
        csv_out = g_string_new (header);
    const char *gpus[] = { "a6000", "a100" };
    if (alone && one_gpu (cmd, NULL, config, (const char *const *) sets,
                          format, out, csv_out) != 0)
        return CLI_EXIT_FAIL;
    for (guint i = 0; i < G_N_ELEMENTS (gpus) && !alone; i++)
        if ((all || strcmp (gpu, gpus[i]) == 0) &&
            one_gpu (cmd, gpus[i], config, (const char *const *) sets, format,
                     out, csv_out) != 0)
            return CLI_EXIT_FAIL;
    /* Both or neither: one left without the other would pass for the
     * whole of a run that failed. */
    const CliOutput outs[] = { { output, out }, { csv_output, csv_out } };
    if (!cli_write_outputs (outs, csv_out != NULL ? 2 : 1, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}
