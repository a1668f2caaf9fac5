/*
 * cmd-run.c -- `smsim run`: simulate one launch of a kernel model on a
 * whole GPU and report time, throughput, occupancy, the stall breakdown
 * in Nsight Compute's names, and the memory counters.
 */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include <json-glib/json-glib.h>

#include "cli/cli.h"
#include "models/run.h"

static int run_exec (int argc, char **argv);

const CmdEntry cmd_run_entry = {
    "run", "simulate one kernel launch on a whole GPU", run_exec
};

typedef struct {
    char *kernel;
    gint64 size;
    char **params;
    gint64 regs;
    gint64 smem;
    gboolean exact;
    gboolean sampled;
    gboolean verbose;
    char *format;
    char *output;
} RunArgs;

static void
text_report (GString *o, const GpuSpec *s, const KernInstance *k,
             const RunResult *r)
{
    char limiter[64];
    g_string_append_printf (o, "%s on %s, size %" G_GINT64_FORMAT ": grid %"
                            G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT
                            ", %d threads, %" G_GINT64_FORMAT " registers, %"
                            G_GINT64_FORMAT " B shared memory per block\n\n",
                            k->model->id, s->id, k->size, k->grid_x, k->grid_y,
                            k->threads, r->launch.regs_per_thread,
                            r->launch.static_smem_bytes + r->launch.dyn_smem_bytes);
    g_string_append_printf (o, "simulation           %s\n",
                            r->sampled ? "sampled" : "exact");
    if (r->sampled)
        g_string_append_printf (o, "window               %" G_GUINT64_FORMAT
                                " of %" G_GUINT64_FORMAT " main-loop "
                                "iterations, %" G_GUINT64_FORMAT " waves\n",
                                r->window, k->iterations, r->waves);
    g_string_append_printf (o, "cycles               %" G_GUINT64_FORMAT "\n"
                            "time                 %.4f ms\n"
                            "throughput           %.1f GFLOP/s\n"
                            "occupancy            %.1f %% theoretical "
                            "(%d blocks/SM, %s), %.1f %% achieved\n"
                            "warp instructions    %" G_GUINT64_FORMAT "\n"
                            "L1 hit rate          %.1f %%\n"
                            "L2 hit rate          %.1f %%\n"
                            "DRAM traffic         %" G_GUINT64_FORMAT " B\n"
                            "shared-memory bank conflicts  %" G_GUINT64_FORMAT
                            " extra wavefronts\n",
                            r->cycles, r->time_ms, r->gflops,
                            r->occ.occupancy_pct, r->occ.blocks_per_sm,
                            occ_limiter_name (r->occ.limiter, limiter,
                                              sizeof limiter),
                            r->achieved_occupancy_pct,
                            r->stats.warp_instructions, 100 * r->l1_hit_rate,
                            100 * r->l2_hit_rate, r->dram_bytes,
                            r->mem.smem_conflicts);
    char limit[256];
    run_limiter (s, r, limit, sizeof limit);
    g_string_append_printf (o, "limited by           %s\n", limit);
    g_string_append (o, "\nwarp cycles per issued instruction, by state:\n");
    double total = 0;
    for (int i = 0; i < STALL_N; i++) {
        double v = stats_per_issue (&r->stats, (StallReason) i);
        total += v;
        if (v >= 0.005)
            g_string_append_printf (o, "  %-20s %7.2f\n",
                                    stats_stall_name ((StallReason) i), v);
    }
    g_string_append_printf (o, "  %-20s %7.2f\n", "(total)", total);
}

static void
member_double (JsonBuilder *b, const char *name, double v)
{
    json_builder_set_member_name (b, name);
    json_builder_add_double_value (b, v);
}

static void
member_int (JsonBuilder *b, const char *name, gint64 v)
{
    json_builder_set_member_name (b, name);
    json_builder_add_int_value (b, v);
}

static void
json_report (GString *o, const GpuSpec *s, const KernInstance *k,
             const RunResult *r)
{
    g_autoptr (JsonBuilder) b = json_builder_new ();
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "gpu");
    json_builder_add_string_value (b, s->id);
    json_builder_set_member_name (b, "kernel");
    json_builder_add_string_value (b, k->model->id);
    member_int (b, "size", k->size);
    member_int (b, "cycles", (gint64) r->cycles);
    member_double (b, "time_ms", r->time_ms);
    member_double (b, "gflops", r->gflops);
    member_double (b, "theoretical_occupancy", r->occ.occupancy_pct);
    member_double (b, "achieved_occupancy", r->achieved_occupancy_pct);
    member_int (b, "warp_instructions", (gint64) r->stats.warp_instructions);
    json_builder_set_member_name (b, "stalls");
    json_builder_begin_object (b);
    for (int i = 0; i < STALL_N; i++)
        member_double (b, stats_stall_name ((StallReason) i),
                       stats_per_issue (&r->stats, (StallReason) i));
    json_builder_end_object (b);
    member_double (b, "l1_hit_rate", r->l1_hit_rate);
    member_double (b, "l2_hit_rate", r->l2_hit_rate);
    member_int (b, "dram_bytes", (gint64) r->dram_bytes);
    member_int (b, "smem_bank_conflicts", (gint64) r->mem.smem_conflicts);
    char limit[256];
    run_limiter (s, r, limit, sizeof limit);
    json_builder_set_member_name (b, "limiter");
    json_builder_add_string_value (b, limit);
    json_builder_set_member_name (b, "sampled");
    json_builder_add_boolean_value (b, r->sampled);
    member_int (b, "window_iterations", (gint64) r->window);
    member_int (b, "waves", (gint64) r->waves);
    json_builder_end_object (b);
    g_autoptr (JsonNode) root = json_builder_get_root (b);
    g_autofree char *text = json_to_string (root, TRUE);
    g_string_append_printf (o, "%s\n", text);
}

static double
seconds (void)
{
    struct timespec ts;
    clock_gettime (CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static int
simulate (const CmdEntry *cmd, const CliGpuOptions *gpu, const RunArgs *a,
          CliFormat format)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = cli_gpu_options_load (gpu, &error);
    const KernModel *model = kern_find (a->kernel);
    RunOptions o = { a->regs, a->smem,
                     a->exact ? RUN_EXACT : a->sampled ? RUN_SAMPLED : RUN_AUTO };
    RunResult r;
    g_autoptr (GString) out = g_string_new (NULL);

    if (preset == NULL) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    if (model == NULL) {
        cli_error (cmd, "unknown kernel '%s' (`smsim kernels` lists them)",
                   a->kernel);
        return CLI_EXIT_FAIL;
    }
    const GpuSpec *spec = preset_spec (preset);
    g_autoptr (KernInstance) k = kern_instance_new (
        model, spec, a->size, (const char *const *) a->params, &error);
    double t0 = seconds ();
    if (k == NULL || !run_kernel (spec, k, &o, &r, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    double wall = seconds () - t0;
    if (format == CLI_FORMAT_JSON)
        json_report (out, spec, k, &r);
    else
        text_report (out, spec, k, &r);
    if (!cli_write_output (a->output, out, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    if (a->verbose)
        fprintf (stderr, "smsim run: %" G_GUINT64_FORMAT " warp instructions "
                 "simulated in %.2f s: %.1f million per second (%"
                 G_GUINT64_FORMAT " events)\n", r.simulated_instructions, wall,
                 (double) r.simulated_instructions / wall / 1e6, r.events);
    return CLI_EXIT_OK;
}

static const char description[] =
    "Runs every SM of the GPU on shared L2 and DRAM.  A launch of more than\n"
    "a million warp-iterations of main loop is sampled: the first wave, the\n"
    "first two and the first with the partial last wave are simulated on\n"
    "the whole GPU for windows of 2, 4, 8 ... main-loop iterations until\n"
    "the cost of one more iteration settles within 1 % (or the window\n"
    "reaches 32), then extrapolated (--exact forbids it, --sampled forces\n"
    "it).  'limited by' names the busiest unit from the counters.\n"
    "Stall states are Nsight Compute's, in warp cycles per issued\n"
    "instruction: they add up to the average cycles between a warp's\n"
    "issues.\n\n"
    "Examples:\n"
    "  smsim run --gpu a100 --kernel vecadd --size 1048576\n"
    "  smsim run --gpu a6000 --kernel loaduse --size 2688 --param ITERS=50\n"
    "  smsim run --gpu a100 --kernel stream --size 4194304 --format json";

static int
run_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &cmd_run_entry;
    g_auto (CliGpuOptions) gpu = { 0 };
    RunArgs a = { NULL, -1, NULL, -1, -1, FALSE, FALSE, FALSE, NULL, NULL };
    const GOptionEntry entries[] = {
        { "kernel", 'k', 0, G_OPTION_ARG_STRING, &a.kernel,
          "kernel model (see `smsim kernels`)", "ID" },
        { "size", 'n', 0, G_OPTION_ARG_INT64, &a.size,
          "problem size (the kernel's --size; `smsim kernels` says what it is)",
          "N" },
        { "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &a.params,
          "a kernel parameter (repeatable)", "NAME=VALUE" },
        { "regs", 'r', 0, G_OPTION_ARG_INT64, &a.regs,
          "registers per thread instead of the model's", "R" },
        { "smem", 's', 0, G_OPTION_ARG_INT64, &a.smem,
          "static shared memory per block instead of the model's", "B" },
        { "exact", 0, 0, G_OPTION_ARG_NONE, &a.exact,
          "simulate every instruction of every warp (no sampling)", NULL },
        { "sampled", 0, 0, G_OPTION_ARG_NONE, &a.sampled,
          "sample a window of the main loop even if the launch is small",
          NULL },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &a.format,
          "text (default) or json", "FORMAT" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.output,
          "write here (whole or not at all) instead of standard output",
          "FILE" },
        { "verbose", 'v', 0, G_OPTION_ARG_NONE, &a.verbose,
          "print the simulation rate on standard error", NULL },
        G_OPTION_ENTRY_NULL
    };
    g_autoptr (GOptionContext) ctx = cli_context_new (cmd, "", description);
    g_autoptr (GError) error = NULL;
    CliFormat format = CLI_FORMAT_TEXT;
    int status = CLI_EXIT_USAGE;

    cli_gpu_options_init (&gpu);
    g_option_context_add_main_entries (ctx, gpu.entries, NULL);
    g_option_context_add_main_entries (ctx, entries, NULL);
    if (!cli_parse (ctx, cmd, &argc, &argv))
        ;
    else if (argc > 1)
        cli_error (cmd, "unexpected argument '%s'", argv[1]);
    else if (a.kernel == NULL || a.size < 0)
        cli_error (cmd, "give --kernel ID and --size N (see `smsim kernels`)");
    else if (!cli_format_parse (a.format, 1u << CLI_FORMAT_TEXT |
                                              1u << CLI_FORMAT_JSON,
                                &format, &error))
        cli_error (cmd, "%s", error->message);
    else
        status = simulate (cmd, &gpu, &a, format);
    g_free (a.kernel);
    g_strfreev (a.params);
    g_free (a.format);
    g_free (a.output);
    return status;
}
