/*
 * cmd-kernels.c -- `smsim kernels`: the kernel models and their
 * parameters, defaults and ranges.
 */
#include "config.h"

#include <stdio.h>

#include "cli/cli.h"
#include "models/kern.h"
#include "models/kern_regs.h"

static int kernels_exec (int argc, char **argv);

const CmdEntry cmd_kernels_entry = {
    "kernels", "list the kernel models and their parameters", kernels_exec
};

static int
kernels_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &cmd_kernels_entry;
    g_autoptr (GOptionContext) ctx = cli_context_new (
        cmd, "",
        "Each model is run with `smsim run --kernel ID --size N [--param "
        "NAME=VALUE ...]`.\n"
        "Registers per thread come from ptxas -v of the project's CUDA "
        "sources (kernels/cuda/registers.csv), one column per compiled "
        "architecture; --regs overrides them.");
    guint n;
    if (!cli_parse (ctx, cmd, &argc, &argv))
        return CLI_EXIT_USAGE;
    if (argc > 1) {
        cli_error (cmd, "unexpected argument '%s'", argv[1]);
        return CLI_EXIT_USAGE;
    }
    const KernModel *const *models = kern_models (&n);
    for (guint i = 0; i < n; i++) {
        const KernModel *m = models[i];
        g_print ("%-12s %s\n", m->id, m->summary);
        g_print ("%-12s   --size: %s\n", "", m->size_help);
        if (m->n_params == 0)
            g_print ("%-12s   %-10s none\n", "", "parameters");
        for (int p = 0; p < m->n_params; p++)
            g_print ("%-12s   %-10s default %-8" G_GINT64_FORMAT
                     " range %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT "  %s\n",
                     "", m->params[p].name, m->params[p].def, m->params[p].min,
                     m->params[p].max, m->params[p].help);
        g_autofree char *regs = kern_regs_summary (m->id);
        if (regs != NULL) {
            g_auto (GStrv) lines = g_strsplit (regs, "\n", -1);
            for (guint l = 0; lines[l] != NULL; l++)
                g_print ("%-12s   %-10s %s\n", "", l == 0 ? "registers" : "",
                         lines[l]);
        }
    }
    g_print ("\nRegisters per thread: ptxas -v of kernels/cuda (registers.csv, "
             "nvcc %s).\nA GPU takes the column of its compute capability: "
             "%s.\nOther tilings take the row of the nearer compiled set: "
             "sgemm-9..11 with BM=64 the a100 row, else a6000;\npmpp-tiled "
             "the next compiled TILE_WIDTH up (8, 16, 32).  --regs R "
             "overrides.\n",
             kern_regs_nvcc_version, kern_regs_arch_rule ());
    return CLI_EXIT_OK;
}
