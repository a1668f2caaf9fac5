/*
 * cmd-sweep.c -- `smsim sweep`: what-if sweeps over presets, kernel
 * parameters and launches, on all cores, resumable, shardable across
 * machines; `smsim sweep --merge` joins the shards.
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__    /* defined by the headers above */
#include <malloc.h>
#endif

#include <glib/gstdio.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "models/cores.h"
#include "models/sweep_grid.h"
#include "models/sweep_merge.h"
#include "models/sweep_run.h"

static int sweep_exec (int argc, char **argv);

const CmdEntry cmd_sweep_entry = {
    "sweep", "what-if sweeps: a grid or list of points, CSV out", sweep_exec
};

typedef struct {
    char **vary;
    char *points;
    char *mode;
    gint jobs;
    char *shard;
    gboolean resume;
    gboolean merge;
    char *output;
} SweepArgs;

static void
sweep_args_clear (SweepArgs *a)
{
    g_clear_pointer (&a->vary, g_strfreev);
    g_clear_pointer (&a->points, g_free);
    g_clear_pointer (&a->mode, g_free);
    g_clear_pointer (&a->shard, g_free);
    g_clear_pointer (&a->output, g_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SweepArgs, sweep_args_clear)

typedef struct {
    Progress *bar;
    guint64 kill_after;     /* tests only: 0, or die after this many rows */
    guint64 first;
    gboolean started;
} Watch;

/* The test suite interrupts a sweep at a known point the way a crash or
 * a cluster's time limit would, to check --resume (tests/cli/sweep-resume.sh). */
static void
on_row (void *ctx, guint64 done, guint64 total)
{
    Watch *w = ctx;
    if (!w->started) {
        w->started = TRUE;
        w->first = done;
    }
    progress_update (w->bar, done, total);
    if (w->kill_after > 0 && done - w->first >= w->kill_after)
        raise (SIGKILL);
}

static gboolean
to_stdout (const char *path)
{
    return path == NULL || strcmp (path, "-") == 0;
}

/* FILE.journal, or none where the output is not a file: standard
 * output, or a device or FIFO (cli_output_target), beside which a
 * journal would be a stray file (/dev/stdout.journal). */
static char *
journal_of (const SweepArgs *a)
{
    gboolean direct = FALSE;
    if (to_stdout (a->output))
        return NULL;
    g_autofree char *target = cli_output_target (a->output, &direct, NULL);
    return target == NULL || direct ? NULL
                                    : g_strconcat (a->output, ".journal", NULL);
}

/* The --vary list as a command line: each KEY=V1,V2,... (the grid,
 * made later, takes them in full); no key varied twice, or varied and
 * set, as which value a point would take is the user's to say, not the
 * order of the options'. */
static gboolean
check_vary (const CmdEntry *cmd, char **vary, char **sets)
{
    for (int i = 0; vary != NULL && vary[i] != NULL; i++) {
        g_autoptr (GError) error = NULL;
        if (!sweep_grid_parse_vary (vary[i], NULL, NULL, &error)) {
            cli_error (cmd, "%s", error->message);
            return FALSE;
        }
    }
    if (!cli_check_once (cmd, "--vary", vary, "give its values in one list"))
        return FALSE;
    for (int i = 0; vary != NULL && vary[i] != NULL; i++) {
        g_autofree char *key = preset_set_name (vary[i]);
        for (int j = 0; key != NULL && sets != NULL && sets[j] != NULL; j++) {
            g_autofree char *set = preset_set_name (sets[j]);
            if (set != NULL && strcmp (key, set) == 0) {
                cli_error (cmd, "--vary %s and --set %s: a key is varied or "
                           "set, not both", vary[i], sets[j]);
                return FALSE;
            }
        }
    }
    return TRUE;
}

/* The merged CSV, written once the shards are read, would replace one
 * of them or the points file. */
static gboolean
check_merge_files (const SweepArgs *a, char **files, GError **error)
{
    g_autoptr (GArray) inputs = g_array_new (FALSE, FALSE, sizeof (CliFileArg));
    const CliFileArg points = { "--points", a->points };
    g_array_append_val (inputs, points);
    for (int i = 0; files[i] != NULL; i++) {
        const CliFileArg shard = { "--merge", files[i] };
        g_array_append_val (inputs, shard);
    }
    const CliFileArg out = { "-o", a->output };
    return cli_check_not_input (&out, (const CliFileArg *) inputs->data,
                                inputs->len, error);
}

static int
merge (const CmdEntry *cmd, const SweepArgs *a, char **files)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (GString) out = g_string_new (NULL);
    if (files[0] == NULL) {
        cli_error (cmd, "--merge needs the shard files: --merge A.csv B.csv "
                   "... -o OUT.csv");
        return CLI_EXIT_USAGE;
    }
    if (!check_merge_files (a, files, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_USAGE;
    }
    if (!cli_check_output ("-o", a->output, &error) ||
        !sweep_merge_files ((const char *const *) files, a->points, out,
                            &error) ||
        !cli_write_output (a->output, out, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

static gboolean
parse_mode (const char *text, SweepMode *mode, GError **error)
{
    if (text == NULL || strcmp (text, "run") == 0)
        *mode = SWEEP_MODE_RUN;
    else if (strcmp (text, "occupancy") == 0)
        *mode = SWEEP_MODE_OCCUPANCY;
    else {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     "--mode %s: must be run or occupancy", text);
        return FALSE;
    }
    return TRUE;
}

/* Check the command line; fill 'o' (its strings borrowed from 'a'). */
static gboolean
options_of (const CliGpuOptions *gpu, const SweepArgs *a, SweepOptions *o,
            GError **error)
{
    memset (o, 0, sizeof *o);
    o->gpu = gpu->gpu;
    o->config = gpu->config;
    o->sets = (const char *const *) gpu->sets;
    o->vary = (const char *const *) a->vary;
    o->points_file = a->points;
    if (!parse_mode (a->mode, &o->mode, error))
        return FALSE;
    if (a->shard != NULL && !sweep_grid_parse_shard (a->shard, &o->shard_index,
                                                     &o->shard_count, error))
        return FALSE;
    if (a->jobs < 1 || a->jobs > SWEEP_RUN_MAX_JOBS) {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     "-j %d: must be 1..%d", a->jobs, SWEEP_RUN_MAX_JOBS);
        return FALSE;
    }
    g_autofree char *journal = journal_of (a);
    if (a->resume && journal == NULL) {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     "--resume needs -o FILE, a file (the journal is "
                     "FILE.journal)");
        return FALSE;
    }
    /* The CSV replaces its file at the end; the journal is appended to
     * as points finish, then removed. */
    const CliFileArg inputs[] = { { "--points", a->points },
                                  { "--gpu", cli_gpu_file (gpu) },
                                  { "--config", gpu->config } };
    const CliFileArg outs[] = { { "-o", a->output },
                                { "the journal (-o FILE.journal)", journal } };
    return cli_check_not_input (&outs[0], inputs, G_N_ELEMENTS (inputs),
                                error) &&
           cli_check_not_input (&outs[1], inputs, G_N_ELEMENTS (inputs),
                                error) &&
           cli_check_not_preset (outs, G_N_ELEMENTS (outs), gpu->gpu,
                                 gpu->config, error);
}

/* Each simulated point allocates and frees tens of megabytes (every
 * SM's state, the caches).  glibc hands blocks that big back to the
 * kernel at once, so the next point faults them in again page by page
 * (5,000 faults a small point) and threads queue on the process's
 * memory-map lock.  Keeping freed memory for reuse removes both: 15
 * times fewer page faults, system time near zero. */
static void
keep_freed_memory (void)
{
#ifdef __GLIBC__
    mallopt (M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt (M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
#endif
}

static int
sweep (const CmdEntry *cmd, const SweepOptions *o, const SweepArgs *a)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Sweep) s = sweep_new (o, &error);
    g_autofree char *journal = journal_of (a);
    g_autoptr (GString) out = g_string_new (NULL);
    const char *kill = g_getenv ("SMSIM_SWEEP_TEST_KILL_AFTER");
    Watch w = { NULL, kill ? g_ascii_strtoull (kill, NULL, 10) : 0, 0, FALSE };
    SweepRunOptions ro = { journal, a->resume, (guint) a->jobs, on_row, &w };

    if (s == NULL) {
        cli_error (cmd, "%s", error->message);
        return cli_error_status (error);
    }
    keep_freed_memory ();
    w.bar = progress_new ("smsim sweep", "points");
    gboolean ok = sweep_run (s, &ro, out, &error);
    progress_free (w.bar);
    if (ok && !cli_write_output (a->output, out, &error)) {
        /* The journal holds every row, for --resume; none when the
         * shard has no points, and then it would only refuse the next
         * run (sweep_run removes one it fails on itself). */
        if (journal != NULL && sweep_n_mine (s) == 0)
            g_remove (journal);
        ok = FALSE;
    }
    if (!ok) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    if (journal != NULL)
        g_remove (journal);     /* the output is whole: the journal is done */
    return CLI_EXIT_OK;
}

static const char description[] =
    "Runs every point of a grid (the cartesian product of the --vary\n"
    "lists) or of a points file (a CSV whose header names the keys, one\n"
    "point per line), or of both (each file row times the grid), and\n"
    "writes one CSV row per point: 'point' (its number, 0..), the values\n"
    "of the keys, then the results: in run mode cycles, time_ms, gflops,\n"
    "the occupancies, warp_instructions, stalls.NAME for each stall, the\n"
    "hit rates, dram_bytes, the bandwidths, smem_bank_conflicts, limiter,\n"
    "sampled, window_iterations and waves (as `smsim run --format json`\n"
    "names them; these of its keys alone), in occupancy mode\n"
    "blocks_per_sm, warps_per_sm, occupancy, limiter, textbook_occupancy;\n"
    "units: occupancies in %, hit rates as fractions (0.936, not 93.6),\n"
    "time_ms in ms, dram_bytes in bytes, the bandwidths (*_gbs) in GB/s;\n"
    "the last column, error, says why a point could not run (its other\n"
    "results are then empty) and the sweep goes on.\n\n"
    "KEY: a preset key GROUP.KEY (`smsim query --keys`; each point loads\n"
    "the preset afresh with it applied, as --set would), param.NAME (a\n"
    "kernel parameter, `smsim kernels`), kernel, size, regs, smem (instead\n"
    "of the kernel model's), and in occupancy mode threads, dyn_smem and\n"
    "carveout (percent, -1 for none).  Run mode needs kernel and size;\n"
    "occupancy mode threads and regs, or kernel and size.  Give one value\n"
    "to hold a key fixed.  Unknown keys, bad values (empty, or with a\n"
    "line break or other control character) and malformed points files\n"
    "are refused before any point runs.  A param.NAME value must suit the\n"
    "kernel of each point it is in: on a points file's row, that row's\n"
    "kernel; from --vary, or beside a --vary kernel, every kernel swept.\n"
    "No value may be empty, so a kernel without NAME is swept apart from\n"
    "a param.NAME key.\n\n"
    "Order: points file rows outermost, then the --vary keys in the order\n"
    "given, the last changing fastest.  The rows come out in that order\n"
    "whatever -j.  -j is at most " G_STRINGIFY (SWEEP_RUN_MAX_JOBS)
    ", and no more threads start than there\n"
    "are points left to run.  With -o FILE, each row is also appended to\n"
    "FILE.journal as it finishes; FILE is written whole at the end and the\n"
    "journal removed, as it is when the sweep fails before a row is in it.\n"
    "After an interruption, the same command with --resume runs only the\n"
    "points the journal lacks.  A journal of another sweep, or with a\n"
    "line that is not the sweep's row of its point (values not the\n"
    "point's, a field missing, a result not of its column's type, a point\n"
    "twice), is an error naming its line.  A result edited to another\n"
    "number of its type cannot be told.\n\n"
    "Shards: --shard I/N runs the points whose number mod N is I-1, and\n"
    "its output starts with the line '# smsim sweep shard I/N of P\n"
    "points, sweep FINGERPRINT', the fingerprint a digest of the GPU's\n"
    "values, the columns and every key's values, then the grid: a line\n"
    "'# points file: R rows of KEY,...; values DIGEST' (the digest of the\n"
    "shard's values of the file's columns; the file is not carried) and\n"
    "a line '# vary KEY=V1,V2,...' per --vary key.  --merge checks that\n"
    "the files are shards 1..N of one sweep (one fingerprint, one grid),\n"
    "each once and complete (every point number present once, every row\n"
    "with the header's columns, results of their columns' types (as a\n"
    "resumed journal's) and its point's values: a --vary key's\n"
    "named with its line, a points file's by the digest, naming the\n"
    "shard, or, given the file with --points, by its row, naming both\n"
    "lines), and writes the CSV the whole sweep would have written.  A\n"
    "shard without a fingerprint or grid lines (an older smsim's) is\n"
    "refused: run that shard again.  One run takes at most ten million\n"
    "points (each row waits in memory to be written in order); shard a\n"
    "larger sweep.\n\n"
    "Examples:\n"
    "  smsim sweep --gpu a100 --mode occupancy --vary threads=64,128,256 \\\n"
    "      --vary regs=32,64,128 --vary sm.registers=65536,131072\n"
    "  smsim sweep --gpu a6000 --vary kernel=sgemm-4,sgemm-5 \\\n"
    "      --vary size=256,512 --vary sched.policy=lrr,gto -o k.csv\n"
    "  smsim sweep --gpu a100 --points points.csv --shard 2/4 -o s2.csv\n"
    "  smsim sweep --merge s1.csv s2.csv s3.csv s4.csv -o all.csv\n"
    "  smsim sweep --merge --points points.csv s1.csv s2.csv -o all.csv";

static int
sweep_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &cmd_sweep_entry;
    g_auto (CliGpuOptions) gpu = { 0 };
    g_auto (SweepArgs) a = { 0 };
    gboolean jobs_given = cli_given (argc, argv, "--jobs", 'j');
    a.jobs = (gint) MIN (cores_usable (), SWEEP_RUN_MAX_JOBS);
    const GOptionEntry entries[] = {
        { "vary", 'V', 0, G_OPTION_ARG_STRING_ARRAY, &a.vary,
          "a key and its values (repeatable; the grid is their product)",
          "KEY=V1,V2,..." },
        { "points", 0, 0, G_OPTION_ARG_FILENAME, &a.points,
          "a CSV of points: a header of keys, one point per line (with "
          "--merge: the sweep's, to check the shards' rows against)",
          "FILE" },
        { "mode", 'm', 0, G_OPTION_ARG_STRING, &a.mode,
          "run (simulate, the default) or occupancy (the calculator only)",
          "MODE" },
        { "jobs", 'j', 0, G_OPTION_ARG_INT, &a.jobs,
          "points run at once, 1.." G_STRINGIFY (SWEEP_RUN_MAX_JOBS)
          " (default: the cores smsim may run on, its CPU affinity)",
          "N" },
        { "shard", 0, 0, G_OPTION_ARG_STRING, &a.shard,
          "run only shard I of N (1-based: points whose number mod N is I-1)",
          "I/N" },
        { "resume", 0, 0, G_OPTION_ARG_NONE, &a.resume,
          "skip the points FILE.journal holds (after an interruption)", NULL },
        { "merge", 0, 0, G_OPTION_ARG_NONE, &a.merge,
          "join the shard files given as arguments (all N of them)", NULL },
        { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.output,
          "write the CSV here (a file whole or not at all, with a journal "
          "FILE.journal; through links, into a device as is) instead of "
          "standard output", "FILE" },
        G_OPTION_ENTRY_NULL
    };
    g_autoptr (GOptionContext) ctx = cli_context_new (cmd, "[SHARD.csv...]",
                                                      description);
    g_autoptr (GError) error = NULL;
    SweepOptions o;

    cli_gpu_options_init (&gpu);
    g_option_context_add_main_entries (ctx, gpu.entries, NULL);
    g_option_context_add_main_entries (ctx, entries, NULL);
    if (!cli_parse (ctx, cmd, &argc, &argv) || !cli_check_sets (cmd, gpu.sets) ||
        !check_vary (cmd, a.vary, gpu.sets))
        return CLI_EXIT_USAGE;
    /* The shards carry their points and results: what would make new
     * ones is refused, not ignored. */
    if (a.merge && (gpu.gpu || gpu.config || gpu.sets || a.vary ||
                    a.mode || a.shard || a.resume || jobs_given)) {
        cli_error (cmd, "--merge joins shards as they are: it takes the "
                   "shard files, -o and --points (the sweep's, to check "
                   "against), not --gpu, --config, --set, --vary, --mode, "
                   "--shard, --resume or -j");
        return CLI_EXIT_USAGE;
    }
    if (a.merge)
        return merge (cmd, &a, argv + 1);
    if (argc > 1) {
        cli_error (cmd, "unexpected argument '%s' (files are for --merge)",
                   argv[1]);
        return CLI_EXIT_USAGE;
    }
    if (!options_of (&gpu, &a, &o, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_USAGE;
    }
    /* Before any point runs (or a journal is made: -o '' would have
     * made ./.journal): the status the write would fail with. */
    if (!cli_check_output ("-o", a.output, &error)) {
        cli_error (cmd, "%s", error->message);
        return CLI_EXIT_FAIL;
    }
    return sweep (cmd, &o, &a);
}
