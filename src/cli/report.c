/*
 * report.c -- run one launch and report it, for `smsim run` and
 * `smsim trace replay`.  See report.h.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include <json-glib/json-glib.h>

#include "cli/progress.h"
#include "cli/report.h"
#include "models/kern_trace.h"
#include "models/run.h"
#include "models/run_sample.h"

/* The L2 the timed launches started from (RunWarm). */
static const char *
warm_text (RunWarm warm)
{
    switch (warm) {
    case RUN_WARM_LEFT:
        return "from the L2 the warm-up left";
    case RUN_WARM_REPLAYED:
        return "from the L2 a whole launch leaves (the warm-up was "
               "sampled: its global accesses replayed, untimed)";
    case RUN_WARM_OUTGROWN:
        return "cold (the warm-up was sampled, and its data outgrow the "
               "L2: each launch starts on what the one before touched "
               "longest ago)";
    case RUN_WARM_TOO_DEAR:
        return "cold (the warm-up was sampled, and replaying its accesses "
               "into a whole launch's L2 would take longer than a few "
               "seconds)";
    case RUN_WARM_NONE:
        break;
    }
    return "cold";
}

/* The same for JSON's "warm_l2". */
static const char *
warm_name (RunWarm warm)
{
    static const char *const names[] = {
        [RUN_WARM_NONE] = "none", [RUN_WARM_LEFT] = "warm-up",
        [RUN_WARM_REPLAYED] = "replay", [RUN_WARM_OUTGROWN] = "cold-outgrown",
        [RUN_WARM_TOO_DEAR] = "cold-replay-too-dear",
    };
    return names[warm];
}

/* The DRAM traffic, and where a sampled run's was held to what the L2
 * allows (run_counters_bound_dram) or replayed (run.c), what the
 * extrapolation said. */
static void
text_dram (GString *o, const RunResult *r)
{
    const MemStats *m = &r->mem, *x = &r->extrapolated;
    g_string_append_printf (o, "DRAM traffic         %" G_GUINT64_FORMAT
                            " B (%" G_GUINT64_FORMAT " read, %"
                            G_GUINT64_FORMAT " written back)\n",
                            r->dram_bytes, m->dram_read_bytes,
                            m->dram_write_bytes);
    if (x->dram_read_bytes == m->dram_read_bytes &&
        x->dram_write_bytes == m->dram_write_bytes)
        return;
    g_string_append_printf (o, "                     %s; extrapolated, %"
                            G_GUINT64_FORMAT " read and %" G_GUINT64_FORMAT
                            " written back\n",
                            r->traffic_replayed
                                ? "replayed through the L2 (one cold wave "
                                  "stood for many)"
                                : "held to what the L2 allows",
                            x->dram_read_bytes, x->dram_write_bytes);
}

/* The partial last wave dealt out to SMs whole (run_tail.h): each SM
 * takes a block for every slot, the first fewer if the wave has fewer
 * blocks than an SM slots (gpu.c, mirrored_block). */
static void
last_wave_line (GString *o, const GpuSpec *s, const RunResult *r)
{
    guint64 per_sm = (guint64) r->occ.blocks_per_sm;
    guint64 tail = r->blocks % ((guint64) s->device.sm_count * per_sm);
    g_string_append_printf (o, "last wave            its %" G_GUINT64_FORMAT
                            " blocks dealt %" G_GUINT64_FORMAT " to an SM, "
                            "not one (an SM's blocks retire together)\n",
                            tail, MIN (tail, per_sm));
}

static void
text_report (GString *o, const Preset *preset, const KernInstance *k,
             const RunResult *r)
{
    const GpuSpec *s = preset_spec (preset);
    g_autofree char *what_if = preset_what_if (preset);
    char limiter[64];
    g_string_append_printf (o, "%s on %s, size %" G_GINT64_FORMAT ": grid %"
                            G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT
                            ", %d threads, %" G_GINT64_FORMAT " registers, %"
                            G_GINT64_FORMAT " B shared memory per block\n",
                            k->model->id, s->id, k->size, k->grid_x, k->grid_y,
                            k->threads, r->launch.regs_per_thread,
                            r->launch.static_smem_bytes + r->launch.dyn_smem_bytes);
    /* A what-if's table says so: saved, it is not the preset's. */
    if (what_if != NULL)
        g_string_append_printf (o, "what-if: %s\n", what_if);
    g_string_append (o, "\n");
    /* Mirrors approximate: a run with them is not exact, whole as it is. */
    gboolean mirrored = r->detailed_sms < s->device.sm_count;
    g_string_append_printf (o, "simulation           %s, %d of %d SMs in full"
                            "%s\n", r->sampled ? "sampled"
                                     : mirrored ? "whole launch" : "exact",
                            r->detailed_sms, s->device.sm_count,
                            mirrored ? " (the others mirror them)" : "");
    if (r->by_waves)
        g_string_append_printf (o, "waves                %" G_GUINT64_FORMAT
                                " of %" G_GUINT64_FORMAT " simulated, the "
                                "rest at the rate of the run's later half "
                                "(no main loop to cut)\n", r->waves_run,
                                r->waves);
    else if (r->sampled) {
        g_string_append_printf (o, "window               %" G_GUINT64_FORMAT
                                " of %" G_GUINT64_FORMAT " main-loop "
                                "iterations, %" G_GUINT64_FORMAT " wave%s\n",
                                r->window, k->iterations, r->waves,
                                r->waves == 1 ? "" : "s");
        if (r->block_kinds > 1)
            g_string_append_printf (o, "blocks               %d kinds, timed "
                                    "apart (some have idle threads)\n",
                                    r->block_kinds);
        if (r->block_kinds_met < r->block_kinds)
            g_string_append_printf (o, "                     %d of them met "
                                    "on the SMs in full, the others scaled "
                                    "by their busy threads\n",
                                    r->block_kinds_met);
        if (r->last_wave_whole)
            last_wave_line (o, s, r);
    }
    /* How rough, docs/sampling.md measures: sgemm-1 at 1024 on 8 SMs
     * moves 1.4 times the exact run's DRAM bytes, sgemm-4 at 2048 on the
     * A6000 two thirds of them. */
    if (r->sampled || r->by_waves)
        g_string_append (o, "counters             extrapolated too, more "
                            "roughly than the cycles: traffic and hit rates "
                            "may be tens of % off (--exact counts them)\n");
    else if (mirrored)
        g_string_append (o, "counters             issue, stalls and shared "
                            "memory the SMs in full's, standing for their "
                            "mirrors' blocks by each block's work; memory "
                            "traffic every SM's own\n");
    if (r->launches > 1)
        g_string_append_printf (o, "launches             %" G_GUINT64_FORMAT
                                " back to back after a warm-up, %.2f us "
                                "apart: one below, %s\n", r->launches,
                                s->device.launch_gap_us,
                                warm_text (r->warm));
    g_string_append_printf (o, "cycles               %" G_GUINT64_FORMAT "\n"
                            "time                 %.4f ms%s\n"
                            "throughput           %.1f GFLOP/s\n"
                            "occupancy            %.1f %% theoretical "
                            "(%d block%s/SM, %s), %.1f %% achieved\n"
                            "warp instructions    %" G_GUINT64_FORMAT "\n"
                            "L1 hit rate          %.1f %%\n"
                            "L2 hit rate          %.1f %%\n",
                            r->cycles, r->time_ms,
                            r->launches > 1 ? " a launch, with its share of "
                                              "the gaps (bandwidths: over "
                                              "the kernel's)" : "",
                            r->gflops,
                            r->occ.occupancy_pct, r->occ.blocks_per_sm,
                            r->occ.blocks_per_sm == 1 ? "" : "s",
                            occ_limiter_name (r->occ.limiter, limiter,
                                              sizeof limiter),
                            r->achieved_occupancy_pct,
                            r->stats.warp_instructions, 100 * r->l1_hit_rate,
                            100 * r->l2_hit_rate);
    text_dram (o, r);
    g_string_append_printf (o, "bandwidth            L1 %.1f, L2 %.1f, DRAM "
                            "%.1f GB/s\n"
                            "shared-memory bank conflicts  %" G_GUINT64_FORMAT
                            " extra wavefronts\n",
                            r->l1_gbs, r->l2_gbs, r->dram_gbs,
                            r->mem.smem_conflicts);
    if (s->fetch.l0_bytes > 0)
        g_string_append_printf (o, "instruction fetch    %" G_GUINT64_FORMAT
                                " lines missed in L0, %" G_GUINT64_FORMAT
                                " in L1 (fetch.*)\n",
                                r->stats.fetch_l0_misses,
                                r->stats.fetch_l1_misses);
    char limit[256];
    run_limiter (s, r, limit, sizeof limit);
    g_string_append_printf (o, "limited by           %s\n", limit);
    RunUnit unit;
    double ceiling = run_ceiling (s, r, &unit);
    if (ceiling > 0)
        g_string_append_printf (o, "ceiling              %.1f GFLOP/s, with "
                                "%s at %s\n", ceiling, run_unit_name (unit),
                                run_unit_peak (unit));
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
    member_int (b, "dram_read_bytes", (gint64) r->mem.dram_read_bytes);
    member_int (b, "dram_write_bytes", (gint64) r->mem.dram_write_bytes);
    member_double (b, "l1_gbs", r->l1_gbs);
    member_double (b, "l2_gbs", r->l2_gbs);
    member_double (b, "dram_gbs", r->dram_gbs);
    member_int (b, "smem_bank_conflicts", (gint64) r->mem.smem_conflicts);
    member_int (b, "fetch_l0_misses", (gint64) r->stats.fetch_l0_misses);
    member_int (b, "fetch_l1_misses", (gint64) r->stats.fetch_l1_misses);
    char limit[256];
    run_limiter (s, r, limit, sizeof limit);
    json_builder_set_member_name (b, "limiter");
    json_builder_add_string_value (b, limit);
    RunUnit unit;
    double ceiling = run_ceiling (s, r, &unit);
    member_double (b, "ceiling_gflops", ceiling);
    json_builder_set_member_name (b, "ceiling_unit");
    if (ceiling > 0)
        json_builder_add_string_value (b, run_unit_name (unit));
    else
        json_builder_add_null_value (b);
    json_builder_set_member_name (b, "sampled");
    json_builder_add_boolean_value (b, r->sampled);
    member_int (b, "window_iterations", (gint64) r->window);
    member_int (b, "waves", (gint64) r->waves);
    member_int (b, "waves_simulated", (gint64) r->waves_run);
    member_int (b, "block_kinds", r->block_kinds);
    member_int (b, "block_kinds_met", r->block_kinds_met);
    json_builder_set_member_name (b, "last_wave_whole");
    json_builder_add_boolean_value (b, r->last_wave_whole);
    json_builder_set_member_name (b, "sampled_by_waves");
    json_builder_add_boolean_value (b, r->by_waves);
    member_int (b, "detailed_sms", r->detailed_sms);
    member_int (b, "launches", (gint64) r->launches);
    /* A warm L2, the warm-up's or a replayed one; "warm_l2" says which,
     * or why the timed launches were taken as cold. */
    json_builder_set_member_name (b, "warm_l2_simulated");
    json_builder_add_boolean_value (b, r->warm == RUN_WARM_LEFT ||
                                           r->warm == RUN_WARM_REPLAYED);
    json_builder_set_member_name (b, "warm_l2");
    json_builder_add_string_value (b, warm_name (r->warm));
    member_double (b, "kernel_ms", r->kernel_ms);
    json_builder_end_object (b);
    g_autoptr (JsonNode) root = json_builder_get_root (b);
    g_autofree char *text = json_to_string (root, TRUE);
    g_string_append_printf (o, "%s\n", text);
}

void
report_options_init (ReportOptions *o)
{
    const GOptionEntry entries[] = {
        { "regs", 'r', 0, G_OPTION_ARG_INT64, &o->regs,
          "registers per thread instead of the model's", "R" },
        { "smem", 's', 0, G_OPTION_ARG_INT64, &o->smem,
          "static shared memory per block instead of the model's (not "
          "less: its shared accesses reach all of that)", "B" },
        { "exact", 0, 0, G_OPTION_ARG_NONE, &o->exact,
          "simulate every instruction of every warp (no sampling)", NULL },
        { "sampled", 0, 0, G_OPTION_ARG_NONE, &o->sampled,
          "sample even if the launch is small: a window of the main loop, "
          "or, where it has none, its first waves (refused where the waves "
          "are too few to sample)",
          NULL },
        { "window", 0, 0, G_OPTION_ARG_INT64, &o->window,
          "sample with a window of N main-loop iterations (at least 4, at "
          "most the loop), kept whatever the first wave does: to see how "
          "the answer moves with it (implies --sampled)", "N" },
        { "detailed-sms", 0, 0, G_OPTION_ARG_INT, &o->detailed_sms,
          "SMs simulated in full (at most the GPU's), the others mirroring "
          "them (default, or 0: 4 when sampled, all on a GPU of fewer than "
          "12 SMs or when exact)",
          "N" },
        { "launches", 0, 0, G_OPTION_ARG_INT64, &o->launches,
          "time N launches back to back in one stream after a warm-up "
          "launch, as published figures are timed (1: one cold launch, the "
          "default)",
          "N" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &o->format,
          "text (default) or json", "FORMAT" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
          "write here (a file whole or not at all; through links, into a "
          "device as is) instead of standard output",
          "FILE" },
        { "verbose", 'v', 0, G_OPTION_ARG_NONE, &o->verbose,
          "print the simulation rate and peak memory on standard error",
          NULL },
        G_OPTION_ENTRY_NULL
    };
    G_STATIC_ASSERT (sizeof entries == sizeof o->entries);
    o->regs = o->smem = G_MININT64;
    o->exact = o->sampled = o->verbose = FALSE;
    o->detailed_sms = 0;
    o->window = G_MININT64;
    o->launches = 1;
    o->format = o->output = NULL;
    memcpy (o->entries, entries, sizeof entries);
}

void
report_options_clear (ReportOptions *o)
{
    g_clear_pointer (&o->format, g_free);
    g_clear_pointer (&o->output, g_free);
}

gboolean
report_format (const ReportOptions *o, CliFormat *format, GError **error)
{
    return cli_format_parse (o->format, 1u << CLI_FORMAT_TEXT |
                                            1u << CLI_FORMAT_JSON,
                             format, error);
}

static void
progress (void *ctx, guint64 done, guint64 total)
{
    progress_update (ctx, done, total);
}

/* Past this many warp instructions an exact run takes minutes: about
 * 2 million a second on one 2.3 GHz core (sgemm-2 at 1024, 1.6e8 of
 * them in 65 s; sgemm-1 at 4096, 9.9e9, 3.2 of its 16384 blocks a
 * second over the first 40 s, 1.9 million). */
#define LONG_RUN_INSTRUCTIONS 1e9
#define HOST_INSTRUCTIONS_PER_S 2e6

/* The least window --window takes (report_run). */
#define MIN_WINDOW 4

/* What to do about a sampled run at its shortest window 'least': a
 * shorter --window where there is one, else a smaller launch. */
static char *
sampled_advice (const GpuSpec *spec, const KernInstance *k,
                const RunOptions *o, guint64 least, double launches)
{
    RunOptions shortest = *o;
    guint64 w;
    shortest.window = MIN_WINDOW;
    double n = run_sampled_cost (spec, k, &shortest, &w) * launches;
    if (least <= MIN_WINDOW || n <= 0)
        return g_strdup_printf ("a window is %d iterations at the least: a "
                                "smaller --size or --param takes less",
                                MIN_WINDOW);
    return g_strdup_printf ("--window %d, the least (and the least "
                            "accurate), would take about %.1f billion, a "
                            "smaller --size or --param less", MIN_WINDOW,
                            n / 1e9);
}

/* Before a run of many minutes, what it will cost: the bar's estimate
 * of the time left comes only once blocks retire.  An exact one only
 * under --exact: unasked, a launch that large is sampled
 * (run_should_sample).  A sampled one where even its shortest window is
 * that large (run_sampled_cost), as where an iteration is millions of
 * instructions: no window the run picks brings it within its budget.
 * On a terminal only, as the bar: a script's log holds the report
 * alone. */
static void
warn_long_run (const CmdEntry *cmd, const GpuSpec *spec, const KernInstance *k,
               const RunOptions *o, const Progress *bar)
{
    /* Launches back to back run two: a warm-up and the timed one. */
    double launches = o->launches > 1 ? 2 : 1;
    gboolean exact = o->mode == RUN_EXACT;
    guint64 least = 0;
    if (bar == NULL)
        return;
    double n = (exact ? run_estimate_instructions (k, kern_blocks (k))
                      : run_sampled_cost (spec, k, o, &least)) * launches;
    if (n < LONG_RUN_INSTRUCTIONS)
        return;
    g_autofree char *where =
        exact ? g_strdup ("")
              : g_strdup_printf (", at a window of %" G_GUINT64_FORMAT " of %"
                                 G_GUINT64_FORMAT " iterations%s", least,
                                 k->iterations,
                                 o->window == 0 && least < k->iterations
                                     ? ", the shortest it cuts one to" : "");
    g_autofree char *advice = exact ? g_strdup ("--sampled takes seconds")
                                    : sampled_advice (spec, k, o, least,
                                                      launches);
    fprintf (stderr, "smsim %s: %s run of about %.1f billion warp "
             "instructions%s: some %.0f minutes at 2 million a second (one "
             "2.3 GHz core); %s\n", cmd->name, exact ? "an exact" : "a sampled",
             n / 1e9, where, n / HOST_INSTRUCTIONS_PER_S / 60, advice);
}

int
report_run (const CmdEntry *cmd, const Preset *preset, const KernInstance *k,
            const ReportOptions *a, CliFormat format)
{
    const GpuSpec *spec = preset_spec (preset);
    g_autoptr (GError) error = NULL;
    gboolean window = a->window != G_MININT64;
    if (!cli_check_count (cmd, "--regs", a->regs) ||
        !cli_check_count (cmd, "--smem", a->smem))
        return CLI_EXIT_USAGE;
    if (a->detailed_sms < 0) {
        cli_error (cmd, "--detailed-sms %d: give 1 or more (0: the default)",
                   a->detailed_sms);
        return CLI_EXIT_USAGE;
    }
    if (window && a->window < MIN_WINDOW) {
        cli_error (cmd, "--window %" G_GINT64_FORMAT ": give %d or more "
                   "main-loop iterations, as sampling needs", a->window,
                   MIN_WINDOW);
        return CLI_EXIT_USAGE;
    }
    if (a->launches < 1) {
        cli_error (cmd, "--launches %" G_GINT64_FORMAT ": give 1 or more",
                   a->launches);
        return CLI_EXIT_USAGE;
    }
    if ((window || a->sampled) && a->exact) {
        cli_error (cmd, "--%s samples the main loop; --exact forbids it: "
                   "give one or the other", window ? "window" : "sampled");
        return CLI_EXIT_USAGE;
    }
    /* The status the write would fail with, before the run. */
    if (!cli_check_output ("-o", a->output, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    g_autofree char *label = g_strdup_printf ("smsim %s", cmd->name);
    g_autoptr (Progress) bar = progress_new (label, "blocks");
    RunOptions o = { a->regs != G_MININT64 ? a->regs : -1,
                     a->smem != G_MININT64 ? a->smem : -1,
                     a->exact ? RUN_EXACT : a->sampled ? RUN_SAMPLED : RUN_AUTO,
                     a->detailed_sms, window ? (guint64) a->window : 0,
                     progress, bar, (guint64) a->launches };
    warn_long_run (cmd, spec, k, &o, bar);
    RunResult r;
    g_autoptr (GString) out = g_string_new (NULL);
    double t0 = (double) g_get_monotonic_time () * 1e-6;
    gboolean ran = run_kernel (spec, k, &o, &r, &error);
    g_clear_pointer (&bar, progress_free);
    if (!ran || !kern_trace_check (k, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    double wall = (double) g_get_monotonic_time () * 1e-6 - t0;
    if (format == CLI_FORMAT_JSON)
        json_report (out, spec, k, &r);
    else
        text_report (out, preset, k, &r);
    if (!cli_write_output (a->output, out, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    if (a->verbose) {
        struct rusage ru;
        getrusage (RUSAGE_SELF, &ru);
        fprintf (stderr, "smsim %s: %" G_GUINT64_FORMAT " warp instructions "
                 "simulated in %.2f s: %.1f million per second (%"
                 G_GUINT64_FORMAT " events); peak memory %ld KiB\n", cmd->name,
                 r.simulated_instructions, wall,
                 (double) r.simulated_instructions / wall / 1e6, r.events,
                 ru.ru_maxrss);
        /* Its seconds are in the rate's; its work is of another kind. */
        if (r.replay_lines > 0)
            fprintf (stderr, "smsim %s: the seconds include replaying the "
                     "launch's accesses into the L2, %.0f million line "
                     "touches at most\n", cmd->name, r.replay_lines / 1e6);
    }
    return CLI_EXIT_OK;
}
