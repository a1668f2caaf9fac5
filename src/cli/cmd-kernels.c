/*
 * cmd-kernels.c -- `smsim kernels`: the kernel models and their
 * parameters, defaults and ranges.
 */
#include "config.h"

#include <stdio.h>

#include "cli/cli.h"
#include "models/kern.h"

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
        "NAME=VALUE ...]`.");
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
        printf ("%-12s %s\n", m->id, m->summary);
        printf ("%-12s   --size: %s\n", "", m->size_help);
        for (int p = 0; p < m->n_params; p++)
            printf ("%-12s   %-10s default %-8" G_GINT64_FORMAT " range %"
                    G_GINT64_FORMAT "..%" G_GINT64_FORMAT "  %s\n", "",
                    m->params[p].name, m->params[p].def, m->params[p].min,
                    m->params[p].max, m->params[p].help);
    }
    return CLI_EXIT_OK;
}
