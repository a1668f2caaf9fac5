/*
 * cmd-run.c -- `smsim run`: simulate one launch of a kernel model on a
 * whole GPU and report time, throughput, occupancy, the stall breakdown
 * in Nsight Compute's names, and the memory counters.
 */
#include "config.h"

#include "cli/report.h"

static int run_exec (int argc, char **argv);

const CmdEntry cmd_run_entry = {
    "run", "simulate one kernel launch on a whole GPU", run_exec
};

typedef struct {
    char *kernel;
    gint64 size;
    char **params;
} RunArgs;

static int
simulate (const CmdEntry *cmd, const CliGpuOptions *gpu, const RunArgs *a,
          const ReportOptions *ro, CliFormat format)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = cli_gpu_options_load (gpu, &error);
    const KernModel *model = kern_find (a->kernel);

    if (preset == NULL) {
        cli_error (cmd, "%s", error->message);
        return cli_error_status (error);
    }
    if (model == NULL) {
        cli_error (cmd, "unknown kernel '%s' (`smsim kernels` lists them)",
                   a->kernel);
        return CLI_EXIT_FAIL;
    }
    const GpuSpec *spec = preset_spec (preset);
    g_autoptr (KernInstance) k = kern_instance_new (
        model, spec, a->size, (const char *const *) a->params, &error);
    if (k == NULL) {
        cli_error (cmd, "%s", error->message);
        return cli_error_status (error);
    }
    return report_run (cmd, preset, k, ro, format);
}

static const char description[] =
    "Runs every SM of the GPU on shared L2 and DRAM.  A launch of more than\n"
    "20 million warp instructions (estimated from its first warp) is\n"
    "sampled, if it has a main loop of 4 or more iterations to cut (one\n"
    "without, as vecadd and stream, runs exact however large).  Four SMs\n"
    "are simulated in full (all on a GPU of fewer than 12, and where\n"
    "the run would be the whole launch, every wave and the\n"
    "whole loop, at under 20 million: then it is the exact run); each of\n"
    "the others mirrors one of them, taking blocks of its own when that SM\n"
    "does and sending their global loads and stores, addresses and all, to\n"
    "the shared L2 and DRAM in step with it, missing in L1 where its\n"
    "requests did (--detailed-sms sets how many; --exact simulates all in\n"
    "full unless told otherwise).\n"
    "The first wave and the partial last one run to the end with each\n"
    "block's loop cut to a window of 64 iterations (more: below); with one\n"
    "block per SM, so do the waves of the grid's first row and a row's\n"
    "worth of waves after them, where a row is at most 4 waves (later rows\n"
    "find the data the first brought into L2); with any, up to 4 waves\n"
    "where they come to at most 40 million warp instructions.  Meanwhile\n"
    "the first wave's cost per main-loop iteration -- the time its warps\n"
    "take to do 1, 2, 4, 8 ... iterations' worth of work -- is watched: if\n"
    "it agrees within 2 % twice running, from 16 iterations on and before\n"
    "32, the run goes on with its window cut to twice the iterations where\n"
    "it settled (or starts again with it, where a warp is past it already\n"
    "or the kernel is a trace's), unless the window is the whole loop, or\n"
    "the run takes every full wave of\n"
    "the launch and 40 million warp instructions afford it 64 iterations:\n"
    "then it takes as many as they afford (the whole loop if they do) and\n"
    "keeps them.  Where the run reaches the grid's second row of blocks\n"
    "and the waves' loops, by what the first wave read from DRAM in 8\n"
    "iterations, read more than the L2 holds from one row to the next,\n"
    "the window is never cut short of reading as much, and is lengthened\n"
    "to twice that where it falls short (as far as the 40 million\n"
    "afford): a shorter one's data would wait in L2 for the next row.\n"
    "Each block's remaining iterations lengthen its SM's run\n"
    "at the rate the SMs in full did iterations in the window, its wave's\n"
    "blocks sharing their SMs with as many as it does (pooled: one SM's is\n"
    "a noisy measure), and the run ends with the last SM.  Each further\n"
    "full wave adds, with one block per SM, what the run's waves past the\n"
    "first row added; with more, its iterations at the rate the SMs did\n"
    "them in the run's waves past the first, or in the first if the run\n"
    "has no more.  Where blocks differ (sgemm-1 and -2's at a size not a\n"
    "multiple of 32, whose edge blocks have idle threads) each kind's\n"
    "iterations go at its own rate on the SMs in full, and where an SM\n"
    "holds one, the launch's blocks are dealt out in order to the SMs as\n"
    "they free, each taking the time the run's blocks of its kind took (a\n"
    "kind the SMs in full did not meet, a whole block's in proportion to\n"
    "its busy lanes).  Mirrors take\n"
    "blocks round robin, which deals a partial last wave out one block an\n"
    "SM; where an SM holds more, and its first wave's blocks retired\n"
    "together (closer than the SMs in full drifted apart; the exact\n"
    "dispatcher then gives an SM a block for every slot at once), the\n"
    "last wave is dealt out to SMs whole: as guessed at the first\n"
    "retirement, and, where the guess was wrong, in a run taken again\n"
    "(the report's 'last wave' line).\n"
    "The counters go by the same waves, but with more than one block per SM\n"
    "at the first wave's rate, the memory's at the later waves' where a\n"
    "wave's whole loop reads no more from DRAM than the L2 holds (so the\n"
    "next wave finds its data there).  The DRAM traffic is then held to what\n"
    "the L2's size allows: data that fit it are read once and none written\n"
    "back; otherwise the sectors stores dirtied are written back but for\n"
    "those the L2 still holds at the end -- the last wave's, and earlier\n"
    "waves' as far as the fills after them leave room.  Where one cold\n"
    "wave stands for later ones and the data are at most twice the L2, the\n"
    "traffic is instead replayed through the L2 from the launch's\n"
    "addresses, where that costs at most some 3 s.  Mirrors run in\n"
    "lockstep with their SM, which costs accuracy: up to 5.3 % in GFLOP/s\n"
    "at 4096 on the A6000 against every SM in full (docs/sampling.md;\n"
    "`--detailed-sms` with the SM count runs them all in full, up to some\n"
    "40 times slower)\n"
    "(--exact forbids sampling, --sampled forces it; --window N forces it\n"
    "with a window of N iterations, kept as given: `make bench-window`\n"
    "shows how the answer moves with it).\n"
    "--launches N times N launches back to back in one stream after a\n"
    "warm-up launch, as published figures are timed: the warm-up runs\n"
    "cold, then one launch from the L2 it left (L1s empty) stands for the\n"
    "N, its time carrying its share of the N - 1 gaps between them\n"
    "(device.launch_gap_us).  A warm-up sampled over part of the launch\n"
    "leaves no whole launch's L2: where the launch's data fit in the L2,\n"
    "its global accesses are replayed into one, untimed; where they do not,\n"
    "or a replay would take more than a few seconds, the launches are\n"
    "taken as cold.  The report says which.\n"
    "'bandwidth' is what each level moved over the run: global sectors\n"
    "through L1, sectors L2 served, DRAM reads and write-backs.  'limited\n"
    "by' names the busiest unit from the counters, where it is busy 60 %\n"
    "of the time or more (an SM's own unit on the SMs that run the most\n"
    "blocks; DRAM against the measured stream bandwidth the preset gives\n"
    "it, below the datasheet's peak); else latency, where warps wait most\n"
    "on results, or no unit near its peak.  'ceiling' is the most\n"
    "GFLOP/s the model's costs allow at the work per flop counted: the\n"
    "lowest at which one unit would be busy every cycle (an SM's own on\n"
    "the SMs that run the most blocks, the tail wave counted).  For FP32,\n"
    "issue and shared memory that work does not depend on the timing;\n"
    "for L1, L2 and DRAM it is the traffic the run's hit rates let\n"
    "through.  'instruction fetch', shown where a what-if models it\n"
    "(--set fetch.l0_bytes=...; every preset fetches instructions in\n"
    "time), counts the instruction lines the L0 and L1 instruction\n"
    "caches missed (JSON fetch_l0_misses, fetch_l1_misses).\n"
    "A report of a what-if names the values --set gave ('what-if:' under\n"
    "its title).\n"
    "Stall states are Nsight Compute's, in warp cycles per issued\n"
    "instruction: they add up to the average cycles between a warp's\n"
    "issues.  In the JSON, occupancies are in %, hit rates fractions\n"
    "(0.75, not 75), time_ms in ms and bandwidths (*_gbs) in GB/s.\n"
    "On a terminal a progress bar (blocks retired; a traffic replay's\n"
    "waves, where there is one, its second half) is drawn on\n"
    "standard error while the run lasts, and an --exact run of a billion\n"
    "warp instructions or more (minutes) first says how many, as does a\n"
    "sampled run whose shortest window makes that many (an iteration of\n"
    "millions of instructions), with what a shorter --window would take.\n\n"
    "Examples:\n"
    "  smsim run --gpu a100 --kernel vecadd --size 1048576\n"
    "  smsim run --gpu a6000 --kernel loaduse --size 2688 --param ITERS=50\n"
    "  smsim run --gpu a100 --kernel stream --size 4194304 --format json";

/* The report, written after the run, would replace the preset. */
static gboolean
check_files (const CliGpuOptions *gpu, const ReportOptions *ro,
             GError **error)
{
    const CliFileArg presets[] = { { "--gpu", cli_gpu_file (gpu) },
                                   { "--config", gpu->config } };
    const CliFileArg out = { "-o", ro->output };
    return cli_check_not_input (&out, presets, G_N_ELEMENTS (presets), error) &&
           cli_check_not_preset (&out, 1, gpu->gpu, gpu->config, error);
}

static int
run_exec (int argc, char **argv)
{
    const CmdEntry *cmd = &cmd_run_entry;
    g_auto (CliGpuOptions) gpu = { 0 };
    g_auto (ReportOptions) ro = { 0 };
    RunArgs a = { NULL, G_MININT64, NULL };    /* size: not given */
    const GOptionEntry entries[] = {
        { "kernel", 'k', 0, G_OPTION_ARG_STRING, &a.kernel,
          "kernel model (see `smsim kernels`)", "ID" },
        { "size", 'n', 0, G_OPTION_ARG_INT64, &a.size,
          "problem size (the kernel's --size; `smsim kernels` says what it is)",
          "N" },
        { "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &a.params,
          "a kernel parameter (repeatable)", "NAME=VALUE" },
        G_OPTION_ENTRY_NULL
    };
    g_autoptr (GOptionContext) ctx = cli_context_new (cmd, "", description);
    g_autoptr (GError) error = NULL;
    CliFormat format = CLI_FORMAT_TEXT;
    int status = CLI_EXIT_USAGE;

    cli_gpu_options_init (&gpu);
    report_options_init (&ro);
    g_option_context_add_main_entries (ctx, gpu.entries, NULL);
    g_option_context_add_main_entries (ctx, entries, NULL);
    g_option_context_add_main_entries (ctx, ro.entries, NULL);
    if (!cli_parse (ctx, cmd, &argc, &argv) || !cli_check_sets (cmd, gpu.sets) ||
        !cli_check_params (cmd, a.params, a.kernel))
        ;
    else if (argc > 1)
        cli_error (cmd, "unexpected argument '%s'", argv[1]);
    else if (a.kernel == NULL || a.size == G_MININT64)
        cli_error (cmd, "give --kernel ID and --size N (see `smsim kernels`)");
    else if (!cli_check_count (cmd, "--size", a.size))
        ;
    else if (!report_format (&ro, &format, &error) ||
             !check_files (&gpu, &ro, &error))
        cli_error (cmd, "%s", error->message);
    else
        status = simulate (cmd, &gpu, &a, &ro, format);
    g_free (a.kernel);
    g_strfreev (a.params);
    return status;
}
