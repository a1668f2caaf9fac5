/*
 * cmd-query.c -- `smsim query`: a preset laid out like the seeds'
 * query.cu output, every value with its source, or the key table.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "cli/cli.h"
#include "models/pkey.h"

static int query_exec (int argc, char **argv);

const CmdEntry cmd_query_entry = {
    "query", "show a GPU preset's device properties and their sources",
    query_exec
};

/* The CUDA book's query.cu prints these, in this order, this way. */
static void
print_query_cu (const GpuSpec *s)
{
    g_print ("Device id:                                 0\n");
    g_print ("Device name:                               %s\n", s->device.name);
    g_print ("Compute capability:                        %d.%d\n",
             s->device.cc_major, s->device.cc_minor);
    g_print ("Amount of global memory:                   %g GB\n",
             s->device.global_mem_mib / 1024.0);
    g_print ("Amount of constant memory:                 %g KB\n",
             (double) s->device.const_mem_kib);
    g_print ("Maximum grid size:                         %d %d %d\n",
             s->device.max_grid_x, s->device.max_grid_y, s->device.max_grid_z);
    g_print ("Maximum block size:                        %d %d %d\n",
             s->device.max_block_x, s->device.max_block_y,
             s->device.max_block_z);
    g_print ("Number of SMs:                             %d\n",
             s->device.sm_count);
    g_print ("Maximum amount of shared memory per block: %g KB\n",
             s->sm.smem_per_block / 1024.0);
    g_print ("Maximum amount of shared memory per SM:    %g KB\n",
             s->sm.smem_bytes / 1024.0);
    g_print ("Maximum number of registers per block:     %d K\n",
             s->sm.max_regs_per_block / 1024);
    g_print ("Maximum number of registers per SM:        %d K\n",
             s->sm.registers / 1024);
    g_print ("Maximum number of threads per block:       %d\n",
             s->sm.max_threads_per_block);
    g_print ("Maximum number of threads per SM:          %d\n",
             s->sm.max_threads);
}

/* A unified L1/shared array holds the SM's shared memory (the rule
 * preset_rules.c checks under a carveout); one smaller than it is an L1
 * of its own beside a separate shared memory, as the P100's 24 KB beside
 * its 64 KB. */
static const char *
l1_label (const GpuSpec *s)
{
    gboolean unified = s->alloc.carveout ||
                       (gint64) s->sm.l1_smem_kib * 1024 >= s->sm.smem_bytes;
    return unified ? "Unified L1/shared per SM:"
                   : "L1 cache per SM (shared separate):";
}

static void
print_more (const GpuSpec *s)
{
    const SpecIntList *steps = &s->alloc.carveout_steps_kib;
    g_print ("\nMore (smsim preset '%s'):\n", s->id);
    g_print ("  SM clock (sustained):                    %d MHz\n",
             s->device.sm_clock_mhz);
    g_print ("  FP32 peak:                               %.1f GFLOP/s\n",
             2.0 * s->sm.fp32_lanes * s->device.sm_count *
                 s->device.sm_clock_mhz / 1000.0);
    g_print ("  DRAM bandwidth (peak / measured):        %.0f / %.0f GB/s\n",
             s->device.dram_bandwidth_gbs, s->device.dram_stream_gbs);
    g_print ("  L2 cache:                                %d KB\n",
             s->device.l2_kib);
    g_print ("  Shared memory per block, opt-in:         %d B\n",
             s->sm.smem_per_block_optin);
    g_print ("  Shared memory reserved per block:        %d B\n",
             s->sm.smem_reserved_per_block);
    g_print ("  %-40s %d KB\n", l1_label (s), s->sm.l1_smem_kib);
    g_print ("  Carveout steps:                          ");
    for (int i = 0; i < steps->n; i++)
        g_print ("%s%d", i ? "/" : "", steps->v[i]);
    g_print (" KB%s\n", s->alloc.carveout ? "" : " (no carveout preference)");
    g_print ("  Maximum blocks per SM:                   %d\n",
             s->sm.max_blocks);
    g_print ("  Sub-partitions (warp schedulers):        %d\n",
             s->sm.sub_partitions);
    g_print ("  Register allocation unit:                %d per warp\n",
             s->alloc.reg_unit);
    g_print ("  Shared-memory allocation unit:           %d B\n",
             s->alloc.smem_unit);
    g_print ("  Timing model:                            %s\n",
             s->timing ? "yes" : "no (occupancy and query only)");
}

static char *
value_with_unit (const Preset *preset, const PkeyInfo *info, guint i)
{
    return g_strdup_printf ("%s%s%s", preset_text (preset, i),
                            *info->unit ? " " : "", info->unit);
}

static void
print_sources (const Preset *preset)
{
    guint n, assumed = 0, shown = 0;
    const PkeyInfo *keys = pkey_table (&n);
    for (guint i = 0; i < n; i++) {
        int line = 0;
        if (!preset_has (preset, i))
            continue;
        const char *origin = preset_origin (preset, i, &line);
        g_autofree char *value = value_with_unit (preset, &keys[i], i);
        g_autofree char *base = g_path_get_basename (origin);
        const char *source = preset_source (preset, i);
        if (strcmp (keys[i].group, "preset") == 0)
            source = "names the preset";
        else if (*source == '\0')
            source = "no source given";
        g_print ("[%s] %s = %s\n    %s (%s", keys[i].group, keys[i].key, value,
                 source, base);
        if (line > 0)
            g_print (":%d", line);
        g_print (")\n");
        assumed += preset_assumed (preset, i);
        shown++;
    }
    g_print ("\n%u values, %u of them ASSUMED (no published source).\n", shown,
             assumed);
}

static void
print_keys (void)
{
    guint n;
    const PkeyInfo *keys = pkey_table (&n);
    g_print ("%-34s %-14s %-10s %s\n", "key", "range", "unit", "meaning");
    for (guint i = 0; i < n; i++) {
        g_autofree char *name = g_strdup_printf ("%s.%s", keys[i].group,
                                                 keys[i].key);
        g_autofree char *range = pkey_range_text (&keys[i]);
        g_print ("%-34s %-14s %-10s %s%s\n", name, range, keys[i].unit,
                 keys[i].help,
                 keys[i].need == PKEY_TIMING ? " (timing presets)" : "");
    }
}

static void
print_keys_json (void)
{
    guint n;
    const PkeyInfo *keys = pkey_table (&n);
    g_autoptr (JsonBuilder) b = json_builder_new ();
    json_builder_begin_object (b);
    for (guint i = 0; i < n; i++) {
        g_autofree char *name = g_strdup_printf ("%s.%s", keys[i].group,
                                                 keys[i].key);
        g_autofree char *range = pkey_range_text (&keys[i]);
        json_builder_set_member_name (b, name);
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "range");
        json_builder_add_string_value (b, range);
        json_builder_set_member_name (b, "unit");
        json_builder_add_string_value (b, keys[i].unit);
        json_builder_set_member_name (b, "meaning");
        json_builder_add_string_value (b, keys[i].help);
        json_builder_set_member_name (b, "timing_only");
        json_builder_add_boolean_value (b, keys[i].need == PKEY_TIMING);
        json_builder_end_object (b);
    }
    json_builder_end_object (b);
    g_autoptr (JsonNode) root = json_builder_get_root (b);
    g_autofree char *text = json_to_string (root, TRUE);
    g_print ("%s\n", text);
}

static void
print_json (const Preset *preset)
{
    guint n;
    const PkeyInfo *keys = pkey_table (&n);
    g_autoptr (JsonBuilder) b = json_builder_new ();
    json_builder_begin_object (b);
    for (guint i = 0; i < n; i++) {
        if (!preset_has (preset, i))
            continue;
        g_autofree char *name = g_strdup_printf ("%s.%s", keys[i].group,
                                                 keys[i].key);
        json_builder_set_member_name (b, name);
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "value");
        json_builder_add_string_value (b, preset_text (preset, i));
        json_builder_set_member_name (b, "unit");
        json_builder_add_string_value (b, keys[i].unit);
        json_builder_set_member_name (b, "source");
        json_builder_add_string_value (b, preset_source (preset, i));
        json_builder_set_member_name (b, "assumed");
        json_builder_add_boolean_value (b, preset_assumed (preset, i));
        json_builder_end_object (b);
    }
    json_builder_end_object (b);
    g_autoptr (JsonNode) root = json_builder_get_root (b);
    g_autofree char *text = json_to_string (root, TRUE);
    g_print ("%s\n", text);
}

static int
show (const CmdEntry *cmd, const CliGpuOptions *gpu, gboolean sources,
      CliFormat format)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = cli_gpu_options_load (gpu, &error);
    if (preset == NULL) {
        cli_error (cmd, "%s", error->message);
        return cli_error_status (error);
    }
    if (format == CLI_FORMAT_JSON)
        print_json (preset);
    else if (sources)
        print_sources (preset);
    else {
        print_query_cu (preset_spec (preset));
        print_more (preset_spec (preset));
    }
    return CLI_EXIT_OK;
}

static int
query_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &cmd_query_entry;
    g_auto (CliGpuOptions) gpu = { 0 };
    gboolean sources = FALSE, keys = FALSE;
    g_autofree char *format_text = NULL;
    const GOptionEntry entries[] = {
        { "sources", 's', 0, G_OPTION_ARG_NONE, &sources,
          "list every preset value with its source (ASSUMED marks values "
          "with none)", NULL },
        { "keys", 'k', 0, G_OPTION_ARG_NONE, &keys,
          "list the preset keys: range, unit, meaning (every preset's: "
          "takes no --gpu, --config, --set or --sources)",
          NULL },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
          "text (default) or json (every key with value, unit, source)",
          "FORMAT" },
        G_OPTION_ENTRY_NULL
    };
    g_autoptr (GOptionContext) ctx = cli_context_new (
        cmd, "",
        "The first block is laid out like the CUDA book's query.cu output.\n\n"
        "Examples:\n  smsim query --gpu rtx2070\n"
        "  smsim query --gpu a100 --sources\n"
        "  smsim query --gpu a100 --set sm.registers=131072\n"
        "  smsim query --keys");
    g_autoptr (GError) error = NULL;
    CliFormat format;

    cli_gpu_options_init (&gpu);
    g_option_context_add_main_entries (ctx, gpu.entries, NULL);
    g_option_context_add_main_entries (ctx, entries, NULL);
    if (!cli_parse (ctx, cmd, &argc, &argv) || !cli_check_sets (cmd, gpu.sets))
        return CLI_EXIT_USAGE;
    if (!cli_format_parse (format_text, 1u << CLI_FORMAT_TEXT |
                                            1u << CLI_FORMAT_JSON,
                           &format, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_USAGE;
    }
    if (argc > 1) {
        cli_error (cmd, "unexpected argument '%s'", argv[1]);
        return CLI_EXIT_USAGE;
    }
    /* The keys are every preset's: a preset asked for too is a mistake,
     * not something to ignore. */
    if (keys && (gpu.gpu || gpu.config || gpu.sets || sources)) {
        cli_error (cmd, "--keys lists every preset's keys: it takes no "
                   "--gpu, --config, --set or --sources");
        return CLI_EXIT_USAGE;
    }
    if (keys) {
        if (format == CLI_FORMAT_JSON)
            print_keys_json ();
        else
            print_keys ();
        return CLI_EXIT_OK;
    }
    return show (cmd, &gpu, sources, format);
}
