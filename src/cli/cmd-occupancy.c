/*
 * cmd-occupancy.c -- `smsim occupancy`: the exact theoretical occupancy
 * of one launch (or a CSV of them), the binding limit, and the
 * textbook estimate beside it.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <gio/gunixinputstream.h>
#include <json-glib/json-glib.h>

#include "cli/batch.h"
#include "cli/cli.h"
#include "cli/explain.h"
#include "models/csv.h"
#include "models/occ.h"
#include "models/textfile.h"

static int occupancy_exec (int argc, char **argv);

const CmdEntry cmd_occupancy_entry = {
    "occupancy", "theoretical occupancy of a launch, and what limits it",
    occupancy_exec
};

typedef struct {
    gint64 threads;
    gint64 regs;
    gint64 smem;
    gint64 dyn_smem;
    gint64 carveout;
    char *format;
    char *batch;
    char *output;
} OccOptions;

static void
limit_text (GString *out, int blocks)
{
    if (blocks == OCC_UNLIMITED)
        g_string_append (out, "-");
    else
        g_string_append_printf (out, "%d", blocks);
}

static void
text_table (GString *o, const GpuSpec *s, const OccResult *r)
{
    unsigned lim = r->limiter;
    g_string_append_printf (o, "  %-15s %-26s %-22s %s\n", "resource",
                            "per SM", "per block", "blocks/SM");
#define ROW(name, sm, blk, value, bit)                                        \
    do {                                                                      \
        g_string_append_printf (o, "  %-15s %-26s %-22s ", name, sm, blk);    \
        limit_text (o, value);                                                \
        g_string_append (o, (lim & (bit)) ? "  <- limit\n" : "\n");           \
    } while (0)
    g_autofree char *b1 = g_strdup_printf ("%d block%s", s->sm.max_blocks,
                                           s->sm.max_blocks == 1 ? "" : "s");
    g_autofree char *w1 = g_strdup_printf ("%d warps", r->max_warps_per_sm);
    g_autofree char *w2 = g_strdup_printf ("%d warps", r->warps_per_block);
    g_autofree char *r1 = g_strdup_printf ("%d (%d x %d)", s->sm.registers,
                                           s->sm.sub_partitions,
                                           r->regs_per_sub_partition);
    g_autofree char *r2 = g_strdup_printf ("%" G_GINT64_FORMAT,
                                           r->regs_per_block);
    g_autofree char *m1 = g_strdup_printf ("%" G_GINT64_FORMAT " B%s",
                                           r->smem_pool,
                                           s->alloc.carveout ? " (carveout)" : "");
    g_autofree char *m2 = g_strdup_printf ("%" G_GINT64_FORMAT " B",
                                           r->smem_per_block);
    ROW ("block slots", b1, "1", r->limit_blocks, OCC_LIMITER_BLOCKS);
    ROW ("warp slots", w1, w2, r->limit_warps, OCC_LIMITER_WARPS);
    ROW ("registers", r1, r2, r->limit_regs, OCC_LIMITER_REGS);
    ROW ("shared memory", m1, m2, r->limit_smem, OCC_LIMITER_SMEM);
#undef ROW
}

static void
print_text (GString *o, const GpuSpec *s, const OccLaunch *l,
            const OccResult *r, const OccTextbook *e)
{
    char limiter[64];
    g_string_append_printf (o, "Occupancy on %s (%s, cc %d.%d)\n", s->id,
                            s->device.name, s->device.cc_major,
                            s->device.cc_minor);
    g_string_append_printf (o, "Launch: %" G_GINT64_FORMAT " threads/block, %"
                            G_GINT64_FORMAT " registers/thread, %"
                            G_GINT64_FORMAT " B static + %" G_GINT64_FORMAT
                            " B dynamic shared memory, carveout ",
                            l->threads_per_block, l->regs_per_thread,
                            l->static_smem_bytes, l->dyn_smem_bytes);
    if (l->carveout_pct < 0)
        g_string_append (o, "default\n\n");
    else if (!s->alloc.carveout)
        g_string_append_printf (o, "%d %% (ignored: the %s preset has no "
                                "carveout)\n\n", l->carveout_pct, s->id);
    else
        g_string_append_printf (o, "%d %%\n\n", l->carveout_pct);
    text_table (o, s, r);
    g_string_append_printf (o, "\nActive blocks per SM:   %d\n"
                            "Active warps per SM:    %d of %d\n"
                            "Active threads per SM:  %d of %d\n"
                            "Occupancy:              %.1f %%\n"
                            "Limited by:             %s\n\n",
                            r->blocks_per_sm, r->warps_per_sm,
                            r->max_warps_per_sm, r->threads_per_sm,
                            s->sm.max_threads,
                            explain_tenth (r->occupancy_pct),
                            occ_limiter_name (r->limiter, limiter,
                                              sizeof limiter));
    explain_limits (o, s, l, r);
    explain_textbook (o, s, l, r, e);
}

static const char csv_header[] =
    "gpu,threads,regs,static_smem,dyn_smem,carveout,blocks_per_sm,"
    "warps_per_sm,threads_per_sm,occupancy,limiter,limit_blocks,limit_warps,"
    "limit_regs,limit_smem,regs_per_block,smem_per_block,textbook_occupancy\n";

static void
print_csv (GString *o, const GpuSpec *s, const OccLaunch *l,
           const OccResult *r, const OccTextbook *e)
{
    char limiter[64];
    const int limits[] = { r->limit_blocks, r->limit_warps, r->limit_regs,
                           r->limit_smem };
    g_string_append (o, csv_header);
    csv_append_field (o, s->id);
    g_string_append_printf (o, ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                            ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%d,%d,%d,"
                            "%d,%.2f,%s", l->threads_per_block, l->regs_per_thread,
                            l->static_smem_bytes, l->dyn_smem_bytes,
                            l->carveout_pct, r->blocks_per_sm, r->warps_per_sm,
                            r->threads_per_sm, r->occupancy_pct,
                            occ_limiter_name (r->limiter, limiter,
                                              sizeof limiter));
    for (guint i = 0; i < G_N_ELEMENTS (limits); i++) {
        g_string_append_c (o, ',');
        if (limits[i] != OCC_UNLIMITED)
            g_string_append_printf (o, "%d", limits[i]);
    }
    g_string_append_printf (o, ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                            ",%.2f\n", r->regs_per_block, r->smem_per_block,
                            e->occupancy_pct);
}

static void
json_int (JsonBuilder *b, const char *name, gint64 value)
{
    json_builder_set_member_name (b, name);
    if (value == OCC_UNLIMITED)
        json_builder_add_null_value (b);
    else
        json_builder_add_int_value (b, value);
}

static void
print_json (GString *o, const GpuSpec *s, const OccLaunch *l,
            const OccResult *r, const OccTextbook *e)
{
    char limiter[64];
    g_autoptr (JsonBuilder) b = json_builder_new ();
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "gpu");
    json_builder_add_string_value (b, s->id);
    json_int (b, "threads", l->threads_per_block);
    json_int (b, "regs", l->regs_per_thread);
    json_int (b, "static_smem", l->static_smem_bytes);
    json_int (b, "dyn_smem", l->dyn_smem_bytes);
    json_int (b, "carveout", l->carveout_pct);
    json_int (b, "blocks_per_sm", r->blocks_per_sm);
    json_int (b, "warps_per_sm", r->warps_per_sm);
    json_int (b, "threads_per_sm", r->threads_per_sm);
    json_int (b, "max_warps_per_sm", r->max_warps_per_sm);
    json_builder_set_member_name (b, "occupancy");
    json_builder_add_double_value (b, r->occupancy_pct);
    json_builder_set_member_name (b, "limiter");
    json_builder_add_string_value (b, occ_limiter_name (r->limiter, limiter,
                                                        sizeof limiter));
    json_builder_set_member_name (b, "limits");
    json_builder_begin_object (b);
    json_int (b, "blocks", r->limit_blocks);
    json_int (b, "warps", r->limit_warps);
    json_int (b, "registers", r->limit_regs);
    json_int (b, "shared_mem", r->limit_smem);
    json_builder_end_object (b);
    json_int (b, "regs_per_warp", r->regs_per_warp);
    json_int (b, "regs_per_block", r->regs_per_block);
    json_int (b, "smem_per_block", r->smem_per_block);
    json_int (b, "smem_pool", r->smem_pool);
    json_int (b, "launch_carveout", r->launch_carveout);
    json_int (b, "l1_bytes", r->l1_bytes);
    json_builder_set_member_name (b, "textbook_occupancy");
    json_builder_add_double_value (b, e->occupancy_pct);
    json_builder_end_object (b);
    g_autoptr (JsonNode) root = json_builder_get_root (b);
    g_autofree char *text = json_to_string (root, TRUE);
    g_string_append_printf (o, "%s\n", text);
}

static int
one_launch (const CmdEntry *cmd, const GpuSpec *spec, const OccOptions *o,
            CliFormat format)
{
    OccLaunch launch = { o->threads, o->regs, o->smem, o->dyn_smem,
                         (int) CLAMP (o->carveout, -2, 101) };
    OccResult r;
    OccTextbook e;
    g_autoptr (GError) error = NULL;
    g_autoptr (GString) out = g_string_new (NULL);

    /* Clamped only to fit an int: occ_check refuses what is out of
     * range, but the value it would name is the option's. */
    if (o->carveout < -1 || o->carveout > 100) {
        cli_error (cmd, "--carveout %" G_GINT64_FORMAT ": must be 0..100 "
                        "(or -1, the default)", o->carveout);
        return CLI_EXIT_FAIL;
    }
    occ_compute (spec, &launch, &r);
    if (!occ_check (spec, &launch, &r, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    occ_textbook (spec, &launch, &e);
    if (format == CLI_FORMAT_TEXT)
        print_text (out, spec, &launch, &r, &e);
    else if (format == CLI_FORMAT_CSV)
        print_csv (out, spec, &launch, &r, &e);
    else
        print_json (out, spec, &launch, &r, &e);
    if (!cli_write_output (o->output, out, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

static int
batch (const CmdEntry *cmd, const GpuSpec *spec, const OccOptions *o)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (GString) out = g_string_new (NULL);
    g_autoptr (GFile) file = g_file_new_for_commandline_arg (o->batch);
    g_autoptr (GInputStream) in = NULL;
    BatchCount count;

    g_autofree char *path = g_file_get_path (file);
    if (g_strcmp0 (o->batch, "-") == 0)
        in = g_unix_input_stream_new (0, FALSE);
    /* Read as it streams, but a device such as /dev/zero never ends a
     * line. */
    else if (path == NULL || textfile_check_regular (path, &error))
        in = G_INPUT_STREAM (g_file_read (file, NULL, &error));
    if (in == NULL || !batch_run (spec, in, o->batch, out, &count, &error) ||
        !cli_write_output (o->output, out, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    /* A launch that cannot run is an answer; a row that cannot be read
     * is bad input, though the others are still answered. */
    if (count.unreadable > 0)
        cli_error (cmd, "%u of %u rows could not be read (see their error "
                        "column)", count.unreadable, count.rows);
    else if (count.errors > 0)
        cli_error (cmd, "%u of %u rows cannot launch (see their error "
                        "column)", count.errors, count.rows);
    return count.unreadable > 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

static gboolean
check_options (const CmdEntry *cmd, const OccOptions *o, int argc,
               char **argv)
{
    if (argc > 1) {
        cli_error (cmd, "unexpected argument '%s'", argv[1]);
        return FALSE;
    }
    if (!cli_check_count (cmd, "--threads", o->threads) ||
        !cli_check_count (cmd, "--regs", o->regs) ||
        !cli_check_count (cmd, "--smem", o->smem) ||
        !cli_check_count (cmd, "--dyn-smem", o->dyn_smem))
        return FALSE;
    /* The CSV gives each row's launch and the answer is CSV: one
     * launch's options would be ignored, so they are refused. */
    if (o->batch != NULL &&
        (o->threads != G_MININT64 || o->regs != G_MININT64 || o->smem != 0 ||
         o->dyn_smem != 0 || o->carveout != -1 ||
         (o->format != NULL && strcmp (o->format, "csv") != 0))) {
        cli_error (cmd, "--batch takes each launch from its CSV and answers "
                        "in CSV: it does not take --threads, --regs, --smem, "
                        "--dyn-smem, --carveout, or a --format but csv");
        return FALSE;
    }
    if (o->batch != NULL)
        return TRUE;
    if (o->threads == G_MININT64 || o->regs == G_MININT64) {
        cli_error (cmd, "give --threads (block size) and --regs (registers "
                        "per thread, from ptxas -v), or --batch FILE");
        return FALSE;
    }
    return TRUE;
}

/* The answers, written once the batch is read, would replace it or the
 * preset. */
static gboolean
check_files (const CmdEntry *cmd, const OccOptions *o,
             const CliGpuOptions *gpu)
{
    g_autoptr (GError) error = NULL;
    const CliFileArg inputs[] = { { "--batch", o->batch },
                                  { "--gpu", cli_gpu_file (gpu) },
                                  { "--config", gpu->config } };
    const CliFileArg out = { "-o", o->output };
    if (cli_check_not_input (&out, inputs, G_N_ELEMENTS (inputs), &error) &&
        cli_check_not_preset (&out, 1, gpu->gpu, gpu->config, &error))
        return TRUE;
    cli_error (cmd, "%s", error->message);
    return FALSE;
}

static const char description[] =
    "Follows the CUDA runtime's occupancy rules exactly (registers per warp\n"
    "in allocation units, per sub-partition; shared memory in allocation\n"
    "units plus the driver's per-block reserve; carveout steps; block and\n"
    "warp slots) and shows the textbook per-thread estimate beside it.\n"
    "Shared memory above the 48 KB default is taken as opted in.\n\n"
    "--batch reads a CSV with a header naming the columns\n"
    "regs,static_smem,block_size,dyn_smem,carveout (carveout empty or -1 =\n"
    "default) and writes each row back with blocks_per_sm,warps_per_sm,\n"
    "occupancy,limiter,error appended (occupancy in %), in CSV; a row that\n"
    "cannot be read makes the exit status 2, the others still answered\n"
    "(a short row padded to the header's width, a long one cut to it,\n"
    "one with a quote left open written back field by field).  Other\n"
    "columns pass through, but not under the answer's names.  A NUL byte\n"
    "or a line of more than 1 MiB ends the read with an error (standard\n"
    "input is read as it comes, so /dev/zero is refused at once).\n\n"
    "Examples:\n"
    "  smsim occupancy --gpu v100 --threads 128 --regs 37\n"
    "  smsim occupancy --gpu a100 --threads 256 --regs 32 --smem 32768\n"
    "  smsim occupancy --gpu a6000 --threads 128 --regs 32 --smem 49152 "
    "--carveout 50\n"
    "  smsim occupancy --gpu a100 --batch examples/launches.csv -o answers.csv";

static int
occupancy_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &cmd_occupancy_entry;
    g_auto (CliGpuOptions) gpu = { 0 };
    OccOptions o = { G_MININT64, G_MININT64, 0, 0, -1, NULL, NULL, NULL };
    const GOptionEntry entries[] = {
        { "threads", 't', 0, G_OPTION_ARG_INT64, &o.threads,
          "threads per block", "T" },
        { "regs", 'r', 0, G_OPTION_ARG_INT64, &o.regs,
          "registers per thread", "R" },
        { "smem", 's', 0, G_OPTION_ARG_INT64, &o.smem,
          "static shared memory per block, bytes", "B" },
        { "dyn-smem", 'd', 0, G_OPTION_ARG_INT64, &o.dyn_smem,
          "dynamic shared memory per block, bytes", "B" },
        { "carveout", 'c', 0, G_OPTION_ARG_INT64, &o.carveout,
          "shared-memory carveout preference, % (default: none)", "PCT" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &o.format,
          "text (default), csv or json", "FORMAT" },
        { "batch", 'b', 0, G_OPTION_ARG_FILENAME, &o.batch,
          "CSV of launches to answer ('-' for standard input)", "FILE" },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output,
          "write here (a file whole or not at all; through links, into a "
          "device as is) instead of standard output",
          "FILE" },
        G_OPTION_ENTRY_NULL
    };
    g_autoptr (GOptionContext) ctx = cli_context_new (cmd, "", description);
    g_autoptr (GError) error = NULL;
    CliFormat format = CLI_FORMAT_TEXT;
    int status = CLI_EXIT_USAGE;

    cli_gpu_options_init (&gpu);
    g_option_context_add_main_entries (ctx, gpu.entries, NULL);
    g_option_context_add_main_entries (ctx, entries, NULL);
    if (cli_parse (ctx, cmd, &argc, &argv) && cli_check_sets (cmd, gpu.sets) &&
        check_options (cmd, &o, argc, argv) &&
        check_files (cmd, &o, &gpu)) {
        if (!cli_format_parse (o.format, 7u, &format, &error)) {
            cli_error (cmd, "%s", error->message);
        } else if (!cli_check_output ("-o", o.output, &error)) {
            /* Said of -o, before any work, as the other commands do:
             * the write would fail naming its temporary file. */
            cli_error (cmd, "%s", error->message);
            status = CLI_EXIT_FAIL;
        } else {
            g_autoptr (Preset) preset = cli_gpu_options_load (&gpu, &error);
            if (preset == NULL) {
                cli_error (cmd, "%s", error->message);
                status = cli_error_status (error);
            } else if (o.batch != NULL) {
                status = batch (cmd, preset_spec (preset), &o);
            } else {
                status = one_launch (cmd, preset_spec (preset), &o, format);
            }
        }
    }
    g_free (o.format);
    g_free (o.batch);
    g_free (o.output);
    return status;
}
