/*
 * smsim.c -- main: find the subcommand in the table and run it (tmux's
 * cmd.c model: one table, usage generated from it, unique prefixes
 * accepted, "unknown" and "ambiguous" reported).
 */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "models/tempfiles.h"

static const CmdEntry *const cmd_table[] = {
    &cmd_gpus_entry,
    &cmd_query_entry,
    &cmd_occupancy_entry,
    &cmd_kernels_entry,
    &cmd_run_entry,
    &cmd_validate_entry,
    &cmd_trace_entry,
    &cmd_sweep_entry,
    &cmd_plot_entry,
};

/* The text of `smsim --help`, for standard output or, after a missing
 * command, standard error. */
static char *
usage (void)
{
    GString *out = g_string_new (NULL);
    g_string_append_printf (out,
                            "Usage: smsim COMMAND [OPTION...]\n\n"
                            "smsim %s: a GPU-free, cycle-approximate "
                            "simulator of the NVIDIA streaming "
                            "multiprocessor.\n\nCommands:\n",
                            PACKAGE_VERSION);
    for (guint i = 0; i < G_N_ELEMENTS (cmd_table); i++)
        g_string_append_printf (out, "  %-12s %s\n", cmd_table[i]->name,
                                cmd_table[i]->summary);
    g_string_append (out,
                     "\n`smsim COMMAND --help` (or `smsim help COMMAND`) "
                     "explains each command.\nExamples:\n"
                     "  smsim gpus\n"
                     "  smsim query --gpu a100\n"
                     "  smsim occupancy --gpu a100 --threads 256 --regs 33\n"
                     "  smsim run --gpu a6000 --kernel sgemm-5 --size 1024\n"
                     "  smsim validate\n"
                     "  smsim sweep --gpu a100 --mode occupancy --vary "
                     "threads=128,256 --vary regs=32,64\n"
                     "\nExit status: 0 success; 1 a bad command line (an "
                     "option missing, malformed\nor given twice, or options "
                     "that clash); 2 bad input (a file, a value the\npreset "
                     "or kernel refuses) or a failed run.\n");
    return g_string_free (out, FALSE);
}

/* Exact name, else the one command the prefix names. */
static const CmdEntry *
lookup (const char *name)
{
    const CmdEntry *found = NULL;
    int matches = 0;
    for (guint i = 0; i < G_N_ELEMENTS (cmd_table); i++) {
        if (strcmp (cmd_table[i]->name, name) == 0)
            return cmd_table[i];
        if (g_str_has_prefix (cmd_table[i]->name, name)) {
            found = cmd_table[i];
            matches++;
        }
    }
    if (matches == 1)
        return found;
    if (matches == 0) {
        fprintf (stderr, "smsim: unknown command '%s' (`smsim --help` lists "
                         "them)\n", name);
        return NULL;
    }
    fprintf (stderr, "smsim: ambiguous command '%s', could be:", name);
    for (guint i = 0; i < G_N_ELEMENTS (cmd_table); i++)
        if (g_str_has_prefix (cmd_table[i]->name, name))
            fprintf (stderr, " %s", cmd_table[i]->name);
    fputc ('\n', stderr);
    return NULL;
}

/* Run at exit, so that it also sees what GOption's --help prints before
 * it calls exit(0): output lost on a full disk or a closed pipe is a
 * failure, not a success with nothing in it.  A command that reported a
 * failed write itself cleared the error (cli_write_output).  SIGPIPE
 * keeps its default end, through on_signal: `smsim kernels | head -1`
 * ends quietly, as other tools do. */
static void
check_stdout (void)
{
    errno = 0;
    if (fflush (stdout) == 0 && !ferror (stdout))
        return;
    /* 0 when the write that failed was an earlier one: cli_print kept
     * its reason.  ("failed" alone only for text printed past it.) */
    int err = errno != 0 ? errno : cli_stdout_errno ();
    const char *name = g_get_prgname () ? g_get_prgname () : "smsim";
    if (err != 0)
        fprintf (stderr, "%s: writing standard output: %s\n", name,
                 g_strerror (err));
    else
        fprintf (stderr, "%s: writing standard output failed\n", name);
    _exit (CLI_EXIT_FAIL);
}

/* Interrupted (Ctrl-C, kill, a closed terminal, a reader of standard
 * output gone while a file is staged beside its target: validate
 * --csv-output v.csv | head): no temporary file is left beside an
 * output; then die of the signal, so that the shell sees why. */
static void
on_signal (int sig)
{
    tempfiles_unlink_all ();
    signal (sig, SIG_DFL);
    raise (sig);
}

static void
catch_signals (void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    struct sigaction sa;
    memset (&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset (&sa.sa_mask);
    for (guint i = 0; i < G_N_ELEMENTS (sigs); i++) {
        struct sigaction old;
        /* One ignored (nohup, a background job of a non-interactive
         * shell) stays ignored. */
        if (sigaction (sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction (sigs[i], &sa, NULL);
    }
}

int
main (int argc, char **argv)
{
    atexit (check_stdout);
    catch_signals ();
    setlocale (LC_ALL, "");
    /* Numbers print the same everywhere: output is deterministic. */
    setlocale (LC_NUMERIC, "C");
    g_set_print_handler (cli_print);
    /* `smsim help COMMAND`, as git and go take it: COMMAND --help. */
    if (argc > 3 && strcmp (argv[1], "help") == 0) {
        g_printerr ("smsim: help takes one command, not '%s'\n", argv[3]);
        return CLI_EXIT_USAGE;
    }
    if (argc == 3 && strcmp (argv[1], "help") == 0) {
        const CmdEntry *cmd = lookup (argv[2]);     /* or says why not */
        char *args[] = { argv[2], (char *) "--help", NULL };
        return cmd != NULL ? cmd->exec (2, args) : CLI_EXIT_USAGE;
    }
    if (argc < 2 || strcmp (argv[1], "--help") == 0 ||
        strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0) {
        g_autofree char *text = usage ();
        if (argc < 2) {
            fputs (text, stderr);
            return CLI_EXIT_USAGE;
        }
        g_print ("%s", text);
        return CLI_EXIT_OK;
    }
    if (strcmp (argv[1], "--version") == 0) {
#ifdef SMSIM_PGO
        g_print ("smsim %s (built from a profile: make pgo)\n", PACKAGE_VERSION);
#else
        g_print ("smsim %s\n", PACKAGE_VERSION);
#endif
        return CLI_EXIT_OK;
    }
    const CmdEntry *cmd = lookup (argv[1]);
    if (cmd == NULL)
        return CLI_EXIT_USAGE;
    return cmd->exec (argc - 1, argv + 1);
}
