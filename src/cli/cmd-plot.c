/*
 * cmd-plot.c -- `smsim plot NAME|all`: compute a figure's data (fig.h),
 * write it as CSV and draw it with gnuplot (gnuplot.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "cli/cli.h"
#include "cli/gnuplot.h"
#include "cli/progress.h"
#include "cli/valcsv.h"
#include "models/fig.h"

static int plot_exec (int argc, char **argv);

const CmdEntry cmd_plot_entry = {
    "plot", "draw a figure of the memory-architecture chapter (gnuplot)",
    plot_exec
};

typedef struct {
    gboolean list;
    gboolean verbose;
    char *output;
    char *data;
    char *format;
    char *from;
    char *kernel;
    char **params;
    gint64 size, threads, regs, smem;    /* NOT_GIVEN: the figure's own */
} PlotArgs;

#define NOT_GIVEN G_MININT64

static void
list_figures (void)
{
    guint n;
    const FigDef *const *figs = fig_all (&n);
    for (guint i = 0; i < n; i++) {
        g_print ("%2d  %-17s %s\n    %-17s ", figs[i]->number, figs[i]->name,
                 figs[i]->summary, "");
        if (figs[i]->own_gpus != NULL) {
            g_autofree char *gpus = g_strjoinv (
                " and ", (char **) figs[i]->own_gpus);
            g_print ("runs %s; ", gpus);
        } else
            g_print ("default --gpu %s; ", figs[i]->default_gpu);
        g_print ("takes %s\n", figs[i]->options);
    }
}

static void
progress (void *ctx, const char *what, int done, int total)
{
    (void) what;
    progress_update (ctx, (guint64) done, (guint64) total);
}

/* 'out' with its extension replaced by ".csv". */
static char *
csv_beside (const char *out)
{
    const char *dot = strrchr (out, '.');
    const char *slash = strrchr (out, '/');
    gsize stem = dot != NULL && (slash == NULL || dot > slash)
                     ? (gsize) (dot - out) : strlen (out);
    return g_strdup_printf ("%.*s.csv", (int) stem, out);
}

static gboolean
draw (const CmdEntry *cmd, const FigDef *fig, const FigData *d,
      const char *out, const char *data, GError **error)
{
    g_autofree char *warnings = NULL;
    gboolean ok = gnuplot_render (fig->name, d->vars->str, data, out,
                                  &warnings, error);
    if (ok && warnings != NULL && *warnings != '\0')
        fprintf (stderr, "smsim %s: gnuplot on %s:\n%s", cmd->name, fig->name,
                 warnings);
    if (!ok && g_error_matches (*error, SMSIM_GNUPLOT_ERROR,
                                GNUPLOT_ERROR_MISSING))
        g_prefix_error (error, "the data is in %s, but ", data);
    return ok;
}

/* Compute, write the CSV, draw.  Returns an exit status.  Once gnuplot
 * is found missing ('*no_gnuplot'), the rest only get their CSV. */
static int
plot_one (const CmdEntry *cmd, const FigDef *fig, FigOptions *o,
          const char *out, const char *data, gboolean verbose,
          gboolean *no_gnuplot)
{
    g_auto (FigData) d;
    g_autoptr (GError) error = NULL;
    double t0 = (double) g_get_monotonic_time () * 1e-6;
    fig_data_init (&d);
    g_autoptr (Progress) bar = progress_new (fig->name, "simulations");
    o->progress = progress;
    o->progress_ctx = bar;
    gboolean ok = fig->build (o, &d, &error);
    g_clear_pointer (&bar, progress_free);
    if (ok && d.notes->len > 0)
        fprintf (stderr, "smsim %s: %s: %s", cmd->name, fig->name,
                 d.notes->str);
    if (ok)
        ok = cli_write_output (data, d.csv, &error);
    double t1 = (double) g_get_monotonic_time () * 1e-6;
    if (ok && *no_gnuplot)
        return CLI_EXIT_FAIL;
    if (ok)
        ok = draw (cmd, fig, &d, out, data, &error);
    if (!ok) {
        cli_error (cmd, "%s: %s", fig->name, error->message);
        *no_gnuplot = g_error_matches (error, SMSIM_GNUPLOT_ERROR,
                                       GNUPLOT_ERROR_MISSING);
        return cli_error_status (error);
    }
    g_print ("%s\n", out);
    fflush (stdout);
    if (verbose)
        fprintf (stderr, "smsim plot: %-17s data %6.2f s, gnuplot %5.2f s\n",
                 fig->name, t1 - t0, (double) g_get_monotonic_time () * 1e-6 - t1);
    return CLI_EXIT_OK;
}

/* Whether every figure can have its preset: a GPU that cannot run one
 * stops all before the first is drawn, not halfway through. */
static gboolean
check_all_gpus (const CmdEntry *cmd, const FigOptions *o,
                const FigDef *const *figs, guint n)
{
    for (guint i = 0; i < n; i++) {
        g_autoptr (GError) error = NULL;
        if (!fig_check_presets (o, figs[i], &error)) {
            gboolean no_timing = g_error_matches (error, SMSIM_FIG_ERROR,
                                                  FIG_ERROR_OPTION);
            cli_error (cmd, "all: %s%s", error->message,
                       no_timing ? " (the occupancy figures take any GPU: "
                                   "`smsim plot occupancy --gpu ...`)"
                                 : "");
            return FALSE;
        }
    }
    return TRUE;
}

/* Every figure into 'dir'; without gnuplot, every CSV all the same. */
static int
plot_all (const CmdEntry *cmd, FigOptions *o, const PlotArgs *a)
{
    const char *dir = a->output ? a->output : "figures";
    const char *ext = a->format ? a->format : "png";
    gboolean no_gnuplot = FALSE;
    guint n;
    const FigDef *const *figs = fig_all (&n);
    if (!check_all_gpus (cmd, o, figs, n))
        return CLI_EXIT_FAIL;
    if (g_mkdir_with_parents (dir, 0777) != 0) {
        cli_error (cmd, "cannot create %s: %s", dir, g_strerror (errno));
        return CLI_EXIT_FAIL;
    }
    for (guint i = 0; i < n; i++) {
        g_autofree char *out = g_strdup_printf ("%s/%s.%s", dir, figs[i]->name,
                                                ext);
        g_autofree char *data = csv_beside (out);
        int status = plot_one (cmd, figs[i], o, out, data, a->verbose,
                               &no_gnuplot);
        if (status != CLI_EXIT_OK && !no_gnuplot)
            return status;
    }
    if (no_gnuplot)
        cli_error (cmd, "no figure drawn without gnuplot; the CSVs are in %s",
                   dir);
    return no_gnuplot ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* gnuplot takes its file names in a command line: a line break in one
 * would end the command (fig_append_quoted makes it a space, and the
 * figure went to another file). */
static gboolean
one_line (const char *option, const char *path, GError **error)
{
    if (path == NULL || strpbrk (path, "\n\r") == NULL)
        return TRUE;
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "%s: a file name with a line break, which gnuplot cannot "
                 "be given", option);
    return FALSE;
}

/* No figure or CSV may replace the preset it is drawn from (--gpu
 * given a file, or --config). */
static gboolean
check_presets (const FigOptions *o, const char *option, const char *path,
               GError **error)
{
    const char *gpu = o->gpu != NULL && preset_is_path (o->gpu) ? o->gpu
                                                                 : NULL;
    const CliFileArg presets[] = { { "--gpu", gpu }, { "--config", o->config } };
    const CliFileArg out = { option, path };
    return cli_check_not_input (&out, presets, G_N_ELEMENTS (presets), error) &&
           cli_check_not_preset (&out, 1, o->gpu, o->config, error);
}

/* With all, no figure or CSV written into the directory may be --from
 * (it would be replaced before the figures after it read it) or the
 * preset. */
static gboolean
check_all_paths (const FigOptions *o, const PlotArgs *a, GError **error)
{
    const char *dir = a->output ? a->output : "figures";
    const char *ext = a->format ? a->format : "png";
    guint n;
    if (!one_line ("-o", a->output, error))
        return FALSE;
    const FigDef *const *figs = fig_all (&n);
    for (guint i = 0; i < n; i++) {
        g_autofree char *out = g_strdup_printf ("%s/%s.%s", dir, figs[i]->name,
                                                ext);
        g_autofree char *data = csv_beside (out);
        g_autofree char *out_opt = g_strdup_printf ("figure %s (in %s)",
                                                    figs[i]->name, dir);
        g_autofree char *data_opt = g_strdup_printf ("the CSV of figure %s "
                                                     "(in %s)", figs[i]->name,
                                                     dir);
        const CliFileArg files[] = {
            { "--from", a->from }, { out_opt, out }, { data_opt, data },
        };
        if (!cli_check_distinct (files, G_N_ELEMENTS (files), error) ||
            !check_presets (o, out_opt, out, error) ||
            !check_presets (o, data_opt, data, error))
            return FALSE;
    }
    return TRUE;
}

/* One figure: its output, its CSV and --from are three files.  The
 * CSV's default is -o's name: --from v.csv -o v.png would draw the
 * validation over its own table. */
static gboolean
check_paths (const PlotArgs *a, const char *path, const char *data,
             GError **error)
{
    if (!one_line (a->output ? "-o" : "the figure", path, error) ||
        !one_line ("--data", data, error))
        return FALSE;
    const CliFileArg files[] = {
        { "--from", a->from },
        { a->output ? "-o" : "the figure (default NAME.png)", path },
        { a->data ? "--data" : "--data (default: -o with .csv)", data },
    };
    return cli_check_distinct (files, G_N_ELEMENTS (files), error);
}

static int
plot_named (const CmdEntry *cmd, const char *name, FigOptions *o,
            const PlotArgs *a)
{
    g_autoptr (FigCache) cache = fig_cache_new ();
    g_autoptr (GArray) validation = NULL;
    g_autoptr (GError) error = NULL;
    gboolean all = strcmp (name, "all") == 0;
    const FigDef *fig = all ? NULL : fig_find (name);
    g_autofree char *out = all ? NULL : g_strdup_printf ("%s.png", fig->name);
    const char *path = a->output ? a->output : out;
    g_autofree char *data = all ? NULL
                          : a->data ? g_strdup (a->data) : csv_beside (path);
    if (!(all ? check_all_paths (o, a, &error)
              : check_paths (a, path, data, &error) &&
                    check_presets (o, a->output ? "-o" : "the figure", path,
                                   &error) &&
                    check_presets (o, "--data", data, &error))) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_USAGE;
    }
    /* The status the writes would fail with, before the simulations. */
    if (!all && (!cli_check_output (a->output ? "-o" : "the figure", path,
                                    &error) ||
                 !cli_check_output ("--data", data, &error))) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    if (all && a->output != NULL && *a->output == '\0') {
        cli_error (cmd, "-o '': an empty directory name");
        return CLI_EXIT_FAIL;
    }
    o->cache = cache;
    if (a->from != NULL) {
        validation = valcsv_read (a->from, &error);
        if (validation == NULL) {
            cli_error (cmd, "%s", error->message);
            return CLI_EXIT_FAIL;
        }
        o->validation = validation;
    }
    if (all)
        return plot_all (cmd, o, a);
    gboolean no_gnuplot = FALSE;
    return plot_one (cmd, fig, o, path, data, a->verbose, &no_gnuplot);
}

/* A figure is given only the options it reads (its FigDef says which):
 * --gpu and --config where it has no GPUs of its own, --set there or
 * where it names it, but not beside --from, whose table was simulated
 * already. */
static gboolean
check_takes (const CmdEntry *cmd, const FigDef *fig,
             const CliGpuOptions *gpu, const PlotArgs *a)
{
    gboolean takes_gpu = fig->own_gpus == NULL;
    const struct {
        const char *name;
        gboolean given, taken;
    } opts[] = {
        { "--gpu", gpu->gpu != NULL, takes_gpu },
        { "--config", gpu->config != NULL, takes_gpu },
        { "--set", gpu->sets != NULL, takes_gpu },
        { "--size", a->size != NOT_GIVEN, FALSE },
        { "--kernel", a->kernel != NULL, FALSE },
        { "--param", a->params != NULL, FALSE },
        { "--threads", a->threads != NOT_GIVEN, FALSE },
        { "--regs", a->regs != NOT_GIVEN, FALSE },
        { "--smem", a->smem != NOT_GIVEN, FALSE },
        { "--from", a->from != NULL, FALSE },
    };
    for (guint i = 0; i < G_N_ELEMENTS (opts); i++)
        if (opts[i].given && !opts[i].taken &&
            strstr (fig->options, opts[i].name) == NULL) {
            cli_error (cmd, "figure %s does not take %s (it takes %s)",
                       fig->name, opts[i].name, fig->options);
            return FALSE;
        }
    if (a->from != NULL && gpu->sets != NULL) {
        cli_error (cmd, "figure %s draws the table --from %s names, as it "
                        "was simulated: --set would change nothing (give "
                        "one or the other)", fig->name, a->from);
        return FALSE;
    }
    return TRUE;
}

/* A negative count is an error, not the figure's default (which -1
 * stands for in FigOptions); from 0 up, the figure's models judge. */
static gboolean
check_counts (const CmdEntry *cmd, const PlotArgs *a)
{
    G_STATIC_ASSERT (NOT_GIVEN == G_MININT64);
    return cli_check_count (cmd, "--size", a->size) &&
           cli_check_count (cmd, "--threads", a->threads) &&
           cli_check_count (cmd, "--regs", a->regs) &&
           cli_check_count (cmd, "--smem", a->smem);
}

/* The command line makes sense before anything runs. */
static gboolean
check_args (const CmdEntry *cmd, int argc, char **argv,
            const CliGpuOptions *gpu, const PlotArgs *a)
{
    if (argc != 2) {
        cli_error (cmd, argc < 2 ? "name a figure, or all (`smsim plot "
                                   "--list` lists them)"
                                 : "one figure at a time (or all)");
        return FALSE;
    }
    gboolean all = strcmp (argv[1], "all") == 0;
    if (!all && fig_find (argv[1]) == NULL) {
        cli_error (cmd, "no figure '%s' (`smsim plot --list` lists them)",
                   argv[1]);
        return FALSE;
    }
    if (!all && !check_takes (cmd, fig_find (argv[1]), gpu, a))
        return FALSE;
    if (!check_counts (cmd, a))
        return FALSE;
    /* --size, --kernel ... mean something else in each figure. */
    if (all && (a->size != NOT_GIVEN || a->kernel != NULL ||
                a->params != NULL || a->threads != NOT_GIVEN ||
                a->regs != NOT_GIVEN || a->smem != NOT_GIVEN)) {
        cli_error (cmd, "all draws each figure at its own defaults: --size, "
                        "--kernel, --param, --threads, --regs and --smem "
                        "name one figure's launch");
        return FALSE;
    }
    if (all && a->data != NULL) {
        cli_error (cmd, "--data names one figure's CSV; with all, each goes "
                        "beside its figure");
        return FALSE;
    }
    g_autofree char *probe = a->format ? g_strconcat ("x.", a->format, NULL)
                                       : NULL;
    const char *out = all ? probe : a->output;
    /* An empty name has no extension, but is refused as an empty name,
     * as every command refuses it (cli_check_output). */
    if (out != NULL && *out != '\0' && !gnuplot_format_ok (out)) {
        cli_error (cmd, "%s: figures are drawn as png, pdf or svg",
                   all ? a->format : a->output);
        return FALSE;
    }
    if (!all && a->format != NULL) {
        cli_error (cmd, "--format is for all; one figure takes its format "
                        "from -o FILE's extension");
        return FALSE;
    }
    return TRUE;
}

static const char description[] =
    "Computes the data of one figure (or all), writes it as CSV and draws\n"
    "it with gnuplot from plots/NAME.gp and the shared plots/style.gp.\n"
    "NAME is a figure's name or number (`smsim plot --list`).  -o FILE\n"
    "picks the output and its format by extension: .png (pngcairo), .pdf\n"
    "or .svg; the CSV goes beside it (FILE with .csv) unless --data says\n"
    "otherwise.  With all, -o names a directory (default figures/) and\n"
    "--format the format; runs shared by figures are simulated once.\n\n"
    "Figures that simulate say their GPU, size and whether they were\n"
    "sampled in their titles.  roofline and stall-breakdown draw the SGEMM\n"
    "kernels whose tiles fit --size (all do at multiples of 256) and name\n"
    "the others on standard error.  sgemm-validation runs the whole\n"
    "validation (some 7-10 s a GPU on one core) unless --from names a table\n"
    "written by `smsim validate --format csv`.  Without gnuplot the CSV is\n"
    "still written and the exit status is 2.\n\n"
    "Examples:\n"
    "  smsim plot --list\n"
    "  smsim plot occupancy --gpu a100 --threads 256 --regs 40 -o occ.png\n"
    "  smsim plot bank-conflicts -o banks.pdf\n"
    "  smsim plot roofline --gpu a100 --size 256 -o roofline.svg\n"
    "  smsim validate --format csv -o v.csv && "
    "smsim plot sgemm-validation --from v.csv\n"
    "  smsim plot all -o figures --from v.csv";

static void
fig_options_from (FigOptions *o, const CliGpuOptions *gpu, const PlotArgs *a)
{
    o->gpu = gpu->gpu;
    o->config = gpu->config;
    o->sets = (const char *const *) gpu->sets;
    o->size = a->size != NOT_GIVEN ? a->size : -1;
    o->kernel = a->kernel;
    o->params = (const char *const *) a->params;
    o->threads = a->threads != NOT_GIVEN ? a->threads : -1;
    o->regs = a->regs != NOT_GIVEN ? a->regs : -1;
    o->smem = a->smem != NOT_GIVEN ? a->smem : -1;
}

static void
plot_args_clear (PlotArgs *a)
{
    g_free (a->output);
    g_free (a->data);
    g_free (a->format);
    g_free (a->from);
    g_free (a->kernel);
    g_strfreev (a->params);
}

static int
plot_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &cmd_plot_entry;
    g_auto (CliGpuOptions) gpu = { 0 };
    PlotArgs a = { .size = NOT_GIVEN, .threads = NOT_GIVEN,
                   .regs = NOT_GIVEN, .smem = NOT_GIVEN };
    const GOptionEntry entries[] = {
        { "list", 'l', 0, G_OPTION_ARG_NONE, &a.list,
          "list the figures, their defaults and options", NULL },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.output,
          "the figure (.png, .pdf, .svg; default NAME.png), or with all a "
          "directory (default figures)", "FILE" },
        { "data", 0, 0, G_OPTION_ARG_FILENAME, &a.data,
          "where the CSV goes (default: the output with .csv)", "FILE" },
        { "format", 0, 0, G_OPTION_ARG_STRING, &a.format,
          "with all: png (default), pdf or svg", "FORMAT" },
        { "from", 0, 0, G_OPTION_ARG_FILENAME, &a.from,
          "sgemm-validation: a `smsim validate --format csv` table instead "
          "of running the validation", "FILE" },
        { "size", 'n', 0, G_OPTION_ARG_INT64, &a.size,
          "problem size for the figures that simulate", "N" },
        { "kernel", 'k', 0, G_OPTION_ARG_STRING, &a.kernel,
          "timeline, what-if: the kernel model", "ID" },
        { "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &a.params,
          "timeline, what-if: a kernel parameter (repeatable)",
          "NAME=VALUE" },
        { "threads", 0, 0, G_OPTION_ARG_INT64, &a.threads,
          "occupancy: threads per block of the marked launch", "T" },
        { "regs", 0, 0, G_OPTION_ARG_INT64, &a.regs,
          "occupancy: registers per thread of the marked launch", "R" },
        { "smem", 0, 0, G_OPTION_ARG_INT64, &a.smem,
          "occupancy: shared memory per block of the marked launch", "B" },
        { "verbose", 'v', 0, G_OPTION_ARG_NONE, &a.verbose,
          "print the seconds each figure took on standard error", NULL },
        G_OPTION_ENTRY_NULL
    };
    g_autoptr (GOptionContext) ctx = cli_context_new (cmd, "NAME|all",
                                                      description);
    FigOptions o = FIG_OPTIONS_INIT;
    int status = CLI_EXIT_USAGE;

    cli_gpu_options_init (&gpu);
    g_option_context_add_main_entries (ctx, gpu.entries, NULL);
    g_option_context_add_main_entries (ctx, entries, NULL);
    if (!cli_parse (ctx, cmd, &argc, &argv) || !cli_check_sets (cmd, gpu.sets) ||
        !cli_check_params (cmd, a.params, a.kernel))
        ;
    else if (a.list && argc > 1)
        cli_error (cmd, "--list lists the figures; it takes no NAME ('%s')",
                   argv[1]);
    else if (a.list) {
        list_figures ();
        status = CLI_EXIT_OK;
    } else if (check_args (cmd, argc, argv, &gpu, &a)) {
        fig_options_from (&o, &gpu, &a);
        status = plot_named (cmd, argv[1], &o, &a);
    }
    plot_args_clear (&a);
    return status;
}
