/*
 * cmd-gpus.c -- `smsim gpus`: the presets in the search path.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static int gpus_exec (int argc, char **argv);

const CmdEntry cmd_gpus_entry = {
    "gpus", "list the GPU presets", gpus_exec
};

static void
print_row (const Preset *preset, int width)
{
    const GpuSpec *s = preset_spec (preset);
    g_autofree char *cc = g_strdup_printf ("%d.%d", s->device.cc_major,
                                           s->device.cc_minor);
    g_print ("%-*s %-4s %5d %6d %8d %-6s  %s\n", width, s->id, cc,
             s->device.sm_count, s->device.sm_clock_mhz,
             s->sm.smem_bytes / 1024, s->timing ? "yes" : "no",
             s->description);
}

static int
gpus_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &cmd_gpus_entry;
    g_autoptr (GOptionContext) ctx = cli_context_new (
        cmd, "",
        "Presets are the regular files NAME.ini in SMSIM_PRESET_DIR, "
        SMSIM_SRC_PRESET_DIR " (the source tree) and "
        SMSIM_DATA_PRESET_DIR " (the first of a name wins; a link to a "
        "device or a directory is passed over).\n"
        "`smsim query --gpu NAME` shows one in "
        "full; `--sources` shows where each value comes from.\n"
        "'timing: no' presets answer occupancy and query but not run.");
    int status = CLI_EXIT_OK;
    if (!cli_parse (ctx, cmd, &argc, &argv))
        return CLI_EXIT_USAGE;
    if (argc > 1) {
        cli_error (cmd, "unexpected argument '%s'", argv[1]);
        return CLI_EXIT_USAGE;
    }
    g_auto (GStrv) names = preset_names ();
    g_autoptr (GPtrArray) presets = g_ptr_array_new_with_free_func (
        (GDestroyNotify) preset_free);
    /* Loaded first: the name column is as wide as the longest name (a
     * user's preset may be called a100-2x-regs). */
    int width = 10;
    for (int i = 0; names[i] != NULL; i++) {
        g_autoptr (GError) error = NULL;
        Preset *preset = preset_load (names[i], NULL, NULL, &error);
        if (preset == NULL) {
            cli_error (cmd, "%s", error->message);
            status = CLI_EXIT_FAIL;
            continue;
        }
        width = MAX (width, (int) strlen (preset_spec (preset)->id));
        g_ptr_array_add (presets, preset);
    }
    g_print ("%-*s %-4s %5s %6s %8s %-6s  %s\n", width, "name", "cc", "SMs",
             "MHz", "smemKiB", "timing", "description");
    for (guint i = 0; i < presets->len; i++)
        print_row (presets->pdata[i], width);
    if (names[0] == NULL) {
        cli_error (cmd, "no presets found (set SMSIM_PRESET_DIR)");
        status = CLI_EXIT_FAIL;
    }
    return status;
}
