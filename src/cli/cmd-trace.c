/*
 * cmd-trace.c -- `smsim trace gen|info|replay`: write a kernel model's
 * trace file, summarize one, replay one on a GPU (traces/FORMAT.md).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/progress.h"
#include "cli/report.h"
#include "models/kern_trace.h"
#include "models/trace_info.h"
#include "models/trace_read.h"
#include "models/trace_write.h"

static int trace_exec (int argc, char **argv);
static int gen_exec (int argc, char **argv);
static int info_exec (int argc, char **argv);
static int replay_exec (int argc, char **argv);

const CmdEntry cmd_trace_entry = {
    "trace", "write a kernel model's trace file, summarize or replay one",
    trace_exec
};

static const CmdEntry actions[] = {
    { "trace gen", "write a kernel model's trace to a file", gen_exec },
    { "trace info", "summarize a trace: instruction mix, bytes, barriers, "
      "FLOPs", info_exec },
    { "trace replay", "simulate a trace file on a whole GPU, reported as "
      "`smsim run` reports", replay_exec },
};

/* The preset named by --gpu/--config/--set, 'fallback' if none. */
static Preset *
load_preset (CliGpuOptions *gpu, const char *fallback, GError **error)
{
    if (gpu->gpu == NULL && gpu->config == NULL)
        gpu->gpu = g_strdup (fallback);
    return cli_gpu_options_load (gpu, error);
}

/* ------------------------------------------------------------------ */
/* gen                                                                 */

static void
gen_progress (void *ctx, guint64 done, guint64 blocks)
{
    progress_update (ctx, done, blocks);
}

/* Into 'path'; messages name 'output', as given (-o), and a link's
 * 'path' beside it. */
static int
gen_write (const CmdEntry *cmd, CliGpuOptions *gpu, const char *kernel,
           gint64 size, char **params, const char *output, const char *path)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = load_preset (gpu, "a6000", &error);
    const KernModel *model = kern_find (kernel);
    g_autoptr (KernInstance) k = NULL;
    if (preset != NULL && model == NULL)
        g_set_error (&error, SMSIM_KERN_ERROR, KERN_ERROR_UNKNOWN,
                     "unknown kernel '%s' (`smsim kernels` lists them)", kernel);
    if (error == NULL)
        k = kern_instance_new (model, preset_spec (preset), size,
                               (const char *const *) params, &error);
    gboolean link = strcmp (output, path) != 0;
    g_autoptr (Progress) bar =
        k != NULL ? progress_new ("smsim trace gen", "blocks") : NULL;
    if (k != NULL && !trace_write (k, preset_spec (preset)->id, path,
                                   gen_progress, bar, &error) && link)
        g_prefix_error (&error, "-o %s (a link): ", output);
    g_clear_pointer (&bar, progress_free);
    if (error != NULL) {
        cli_error (cmd, "%s", error->message);
        return cli_error_status (error);
    }
    g_print ("%s: %s, size %" G_GINT64_FORMAT ", %" G_GUINT64_FORMAT
             " block%s of %d warp%s, %" G_GUINT64_FORMAT " main-loop "
             "iteration%s each\n",
             output, model->id, size, kern_blocks (k),
             kern_blocks (k) == 1 ? "" : "s", kern_warps (k),
             k->threads > 32 ? "s" : "", k->iterations,
             k->iterations == 1 ? "" : "s");
    return CLI_EXIT_OK;
}

/* gen_write into the file 'output' names after its symlinks (renaming
 * over a link would leave the file it points to as it was).  A device or
 * FIFO has no "whole or not at all", which a trace promises. */
static int
gen_to (const CmdEntry *cmd, CliGpuOptions *gpu, const char *kernel,
        gint64 size, char **params, const char *output)
{
    g_autoptr (GError) error = NULL;
    gboolean direct;
    /* A directory, or a missing one, as run and plot say it (exit 2). */
    if (!cli_check_output ("-o", output, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    g_autofree char *target = cli_output_target (output, &direct, &error);
    if (target == NULL) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    if (direct) {
        cli_error (cmd, "-o %s: not a regular file; a trace goes to a file, "
                        "renamed into place once whole", output);
        return CLI_EXIT_FAIL;
    }
    return gen_write (cmd, gpu, kernel, size, params, output, target);
}

static int
gen_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &actions[0];
    g_auto (CliGpuOptions) gpu = { 0 };
    g_autofree char *kernel = NULL, *output = NULL;
    g_auto (GStrv) params = NULL;
    gint64 size = G_MININT64;    /* not given */
    const GOptionEntry entries[] = {
        { "kernel", 'k', 0, G_OPTION_ARG_STRING, &kernel,
          "kernel model (see `smsim kernels`)", "ID" },
        { "size", 'n', 0, G_OPTION_ARG_INT64, &size, "problem size", "N" },
        { "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &params,
          "a kernel parameter (repeatable)", "NAME=VALUE" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
          "the trace file; a name ending in .gz is gzip-compressed", "FILE" },
        G_OPTION_ENTRY_NULL
    };
    g_autoptr (GOptionContext) ctx = cli_context_new (
        cmd, "", "The launch is made for --gpu (a6000 if none is given): the\n"
        "registers per thread of some models depend on it.  The file is\n"
        "written whole or not at all: to a temporary file beside it, renamed\n"
        "into place once whole, and removed if the run is interrupted.\n"
        "Traces are big (some 35 bytes a warp instruction, 1.2 gzipped):\n"
        "one its file system has no room for is refused after its first\n"
        "block, from the size the blocks so far project.  On a terminal a\n"
        "progress bar (blocks written) is drawn on standard error.\n\n"
        "Examples:\n"
        "  smsim trace gen --kernel vecadd --size 4096 -o vecadd.trace\n"
        "  smsim trace gen --kernel sgemm-5 --size 256 -o sgemm5.trace.gz");
    cli_gpu_options_init (&gpu);
    g_option_context_add_main_entries (ctx, gpu.entries, NULL);
    g_option_context_add_main_entries (ctx, entries, NULL);
    if (!cli_parse (ctx, cmd, &argc, &argv) || !cli_check_sets (cmd, gpu.sets) ||
        !cli_check_params (cmd, params, kernel))
        return CLI_EXIT_USAGE;
    if (argc > 1) {
        cli_error (cmd, "unexpected argument '%s'", argv[1]);
        return CLI_EXIT_USAGE;
    }
    if (kernel == NULL || size == G_MININT64 || output == NULL) {
        cli_error (cmd, "give --kernel ID, --size N and -o FILE");
        return CLI_EXIT_USAGE;
    }
    if (!cli_check_count (cmd, "--size", size))
        return CLI_EXIT_USAGE;
    /* Elsewhere '-' is standard output; a trace is written whole or not
     * at all, through a temporary file renamed into place. */
    if (strcmp (output, "-") == 0) {
        cli_error (cmd, "-o -: a trace goes to a file (it is renamed into "
                        "place once whole), not to standard output");
        return CLI_EXIT_USAGE;
    }
    g_autoptr (GError) error = NULL;
    const CliFileArg presets[] = { { "--gpu", cli_gpu_file (&gpu) },
                                   { "--config", gpu.config } };
    const CliFileArg out = { "-o", output };
    if (!cli_check_not_input (&out, presets, G_N_ELEMENTS (presets),
                              &error) ||
        !cli_check_not_preset (&out, 1, gpu.gpu, gpu.config, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_USAGE;
    }
    return gen_to (cmd, &gpu, kernel, size, params, output);
}

/* ------------------------------------------------------------------ */
/* info                                                                */

static void
info_launch (GString *o, const TraceReader *r)
{
    const TraceHead *h = trace_reader_head (r);
    g_string_append_printf (o, "%s: smsim trace %d, %s\n",
                            trace_reader_path (r), TRACE_VERSION,
                            trace_reader_is_gzip (r) ? "gzip" : "plain text");
    g_string_append_printf (o, "kernel               %s, size %"
                            G_GINT64_FORMAT, h->kernel, h->size);
    for (int i = 0; i < h->n_params; i++)
        g_string_append_printf (o, "%s%s=%" G_GINT64_FORMAT, i ? " " : " (",
                                h->param_name[i], h->param_value[i]);
    g_string_append_printf (o, "%s, made for %s\n", h->n_params ? ")" : "",
                            h->gpu);
    g_string_append_printf (o, "launch               grid %" G_GUINT64_FORMAT
                            " x %" G_GUINT64_FORMAT ", %d threads (%d warps), "
                            "%d registers, %" G_GINT64_FORMAT " + %"
                            G_GINT64_FORMAT " B shared memory per block\n"
                            "main loop            %" G_GUINT64_FORMAT
                            " iterations per block\n", h->grid_x, h->grid_y,
                            h->threads, trace_head_warps (h), h->regs,
                            h->static_smem, h->dyn_smem, h->iterations);
}

static void
info_counts (GString *o, const TraceHead *h, const TraceInfo *t)
{
    guint64 blocks = trace_head_blocks (h);
    g_string_append_printf (o, "warp instructions    %" G_GUINT64_FORMAT "\n"
                            "FLOPs                %.0f (header), %.0f (FP32 "
                            "instructions x active lanes)\n"
                            "barriers             %" G_GUINT64_FORMAT " warp "
                            "BAR instructions, %.2f per warp per block\n",
                            t->warp_instructions, h->flops, t->flops,
                            t->barriers,
                            (double) t->barriers /
                                ((double) blocks * trace_head_warps (h)));
    g_string_append (o, "\nbytes requested (active lanes x width, before "
                     "coalescing):\n");
    for (int s = 0; s < TRACE_N_SPACES; s++)
        g_string_append_printf (o, "  %-18s %" G_GUINT64_FORMAT "\n",
                                trace_info_space_name ((TraceSpace) s),
                                t->bytes[s]);
    g_string_append (o, "\ninstruction mix (warp instructions, by operation "
                     "and bits per lane):\n");
    for (int op = 0; op < INSTR_N_OPS; op++)
        for (int w = 0; w < TRACE_N_WIDTHS; w++) {
            char name[32];
            if (t->by_op[op][w] == 0)
                continue;
            g_snprintf (name, sizeof name, "%s%s%.0d",
                        instr_info ((InstrOp) op)->name, w ? "." : "",
                        8 * trace_info_width (w));
            g_string_append_printf (o, "  %-18s %" G_GUINT64_FORMAT "\n", name,
                                    t->by_op[op][w]);
        }
}

static int
info_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &actions[1];
    g_autoptr (GOptionContext) ctx = cli_context_new (
        cmd, "FILE", "Reads the whole file once, checking every line.\n\n"
        "Example:\n"
        "  smsim trace info traces/vecadd-4096.trace.gz");
    g_autoptr (GError) error = NULL;
    TraceInfo t = { 0 };
    if (!cli_parse (ctx, cmd, &argc, &argv))
        return CLI_EXIT_USAGE;
    if (argc != 2) {
        cli_error (cmd, "give one trace FILE");
        return CLI_EXIT_USAGE;
    }
    g_autoptr (TraceReader) r = trace_reader_open (argv[1], &error);
    if (r == NULL || !trace_reader_scan (r, trace_info_add, &t, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    g_autoptr (GString) out = g_string_new (NULL);
    info_launch (out, r);
    info_counts (out, trace_reader_head (r), &t);
    g_print ("%s", out->str);
    return CLI_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* replay                                                              */

/* The preset of the options, or of 'header_gpu', the GPU the trace
 * at 'path' names, if none.  That GPU is the file's word, not the
 * user's: one that cannot be loaded is said to be the header's
 * ("unknown GPU 'zz'" named no file), but a --set's fault on it is the
 * --set's, so the header's GPU is loaded alone first.  It is a preset's
 * name: "x.ini" would be a file found from wherever smsim runs, not
 * from the trace. */
static Preset *
load_replay_preset (CliGpuOptions *gpu, const char *path,
                    const char *header_gpu, GError **error)
{
    if (gpu->gpu == NULL && gpu->config == NULL) {
        if (g_str_has_suffix (header_gpu, ".ini")) {
            g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_NOT_FOUND,
                         "%s: its header's 'gpu %s' names a file, not a "
                         "preset (traces/FORMAT.md); give the GPU with "
                         "--gpu or --config", path, header_gpu);
            return NULL;
        }
        g_autoptr (Preset) alone = preset_load (header_gpu, NULL, NULL, error);
        if (alone == NULL) {
            g_prefix_error (error, "%s: its header's 'gpu %s' (--gpu picks "
                            "another): ", path, header_gpu);
            return NULL;
        }
    }
    return load_preset (gpu, header_gpu, error);
}

/* A trace has no instruction addresses, so a replay fetches every
 * instruction in time: on a GPU that models fetch it would report the
 * what-if in effect, and no line missed, for the GPU's fetch it never
 * ran. */
static gboolean
check_replay_fetch (const Preset *preset, const char *path, GError **error)
{
    int l0_bytes = preset_spec (preset)->fetch.l0_bytes;
    if (l0_bytes == 0)
        return TRUE;
    g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_VALUE,
                 "%s: a trace carries no instruction addresses "
                 "(traces/FORMAT.md), so its replay cannot model "
                 "instruction fetch, which fetch.l0_bytes = %d asks for: "
                 "replay with it 0, or run the kernel model (smsim run)",
                 path, l0_bytes);
    return FALSE;
}

/* The report, written after the run, would replace the trace or the
 * preset it was read from. */
static gboolean
check_replay_files (const char *trace, const CliGpuOptions *gpu,
                    const ReportOptions *ro, GError **error)
{
    const CliFileArg inputs[] = {
        { "the trace", trace }, { "--gpu", cli_gpu_file (gpu) },
        { "--config", gpu->config },
    };
    const CliFileArg out = { "-o", ro->output };
    return cli_check_not_input (&out, inputs, G_N_ELEMENTS (inputs), error) &&
           cli_check_not_preset (&out, 1, gpu->gpu, gpu->config, error);
}

static int
replay_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &actions[2];
    g_auto (CliGpuOptions) gpu = { 0 };
    g_auto (ReportOptions) ro = { 0 };
    g_autoptr (GOptionContext) ctx = cli_context_new (
        cmd, "FILE", "The trace's launch (grid, block, registers, shared\n"
        "memory) and main loop come from its header; --regs and --smem\n"
        "override them, and a sampled run plays a window of the recorded\n"
        "iterations, as `smsim run` does with the model.  Without --gpu,\n"
        "the GPU the trace was made for.  Memory stays bounded by the\n"
        "resident warps and 8 bytes a block (its lanes' work, by which a\n"
        "sampled run tells blocks apart), however long the file.  --window\n"
        "needs the trace's iteration markers (traces/FORMAT.md).  On a\n"
        "terminal a progress bar (blocks retired) is drawn on standard\n"
        "error.\n\n"
        "Example:\n"
        "  smsim trace replay traces/vecadd-4096.trace.gz --gpu a100");
    g_autoptr (GError) error = NULL;
    CliFormat format = CLI_FORMAT_TEXT;
    cli_gpu_options_init (&gpu);
    report_options_init (&ro);
    g_option_context_add_main_entries (ctx, gpu.entries, NULL);
    g_option_context_add_main_entries (ctx, ro.entries, NULL);
    if (!cli_parse (ctx, cmd, &argc, &argv) || !cli_check_sets (cmd, gpu.sets))
        return CLI_EXIT_USAGE;
    if (argc != 2) {
        cli_error (cmd, "give one trace FILE");
        return CLI_EXIT_USAGE;
    }
    if (!report_format (&ro, &format, &error) ||
        !check_replay_files (argv[1], &gpu, &ro, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_USAGE;
    }
    g_autoptr (KernInstance) k = kern_trace_open (argv[1], &error);
    g_autoptr (Preset) preset =
        k ? load_replay_preset (&gpu, argv[1], kern_trace_gpu (k), &error)
          : NULL;
    if (preset == NULL || !check_replay_fetch (preset, argv[1], &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    return report_run (cmd, preset, k, &ro, format);
}

/* ------------------------------------------------------------------ */

/* `smsim trace --help`, for standard output or, after a missing
 * action, standard error. */
static char *
usage (void)
{
    GString *out = g_string_new (NULL);
    g_string_append_printf (out,
                            "Usage: smsim trace ACTION [OPTION...]\n\n"
                            "%s.\n\nActions:\n",
                            cmd_trace_entry.summary);
    for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
        g_string_append_printf (out, "  %-8s %s\n", actions[i].name + 6,
                                actions[i].summary);
    g_string_append (out, "\n`smsim trace ACTION --help` explains each; "
                          "traces/FORMAT.md the file.\n");
    return g_string_free (out, FALSE);
}

static int
trace_exec (int argc, char **argv)
{
    if (argc < 2 || strcmp (argv[1], "--help") == 0 ||
        strcmp (argv[1], "-h") == 0) {
        g_autofree char *text = usage ();
        if (argc < 2) {
            fputs (text, stderr);
            return CLI_EXIT_USAGE;
        }
        g_print ("%s", text);
        return CLI_EXIT_OK;
    }
    for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
        if (strcmp (actions[i].name + 6, argv[1]) == 0)
            return actions[i].exec (argc - 1, argv + 1);
    cli_error (&cmd_trace_entry, "unknown action '%s' (gen, info or replay)",
               argv[1]);
    return CLI_EXIT_USAGE;
}
