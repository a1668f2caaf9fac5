/*
 * test-fig.c -- the figures' data (fig.h): each CSV checked against
 * values derived by hand from the hardware rules and the seeds, written
 * beside each check.  Never against the program's own earlier output.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "models/fig.h"

/* ------------------------------------------------------------------ */
/* Building a figure and reading its CSV                               */

static FigData
build (const char *name, const FigOptions *o)
{
    FigData d;
    g_autoptr (GError) error = NULL;
    const FigDef *fig = fig_find (name);
    cr_assert_not_null (fig, "no figure %s", name);
    fig_data_init (&d);
    cr_assert (fig->build (o, &d, &error), "figure %s: %s", name,
               error ? error->message : "?");
    return d;
}

static int
column_of (const char *csv, const char *column)
{
    g_autofree char *header = g_strndup (csv, strcspn (csv, "\n"));
    g_auto (GStrv) names = g_strsplit (header, ",", -1);
    for (int i = 0; names[i] != NULL; i++)
        if (strcmp (names[i], column) == 0)
            return i;
    cr_assert_fail ("no column %s in '%s'", column, header);
    return -1;
}

/* Field 'column' of the row whose first fields are 'key' ("regs,40");
 * the test fails if there is no such row. */
static char *
field (const FigData *d, const char *key, const char *column)
{
    int c = column_of (d->csv->str, column);
    g_autofree char *prefix = g_strconcat ("\n", key, ",", NULL);
    const char *row = strstr (d->csv->str, prefix);
    cr_assert_not_null (row, "no row %s", key);
    g_autofree char *line = g_strndup (row + 1, strcspn (row + 1, "\n"));
    g_auto (GStrv) f = g_strsplit (line, ",", -1);
    cr_assert (c < (int) g_strv_length (f), "row %s is short", key);
    return g_strdup (f[c]);
}

static double
num (const FigData *d, const char *key, const char *column)
{
    g_autofree char *text = field (d, key, column);
    return g_ascii_strtod (text, NULL);
}

/* gnuplot number variable 'name' of the figure (the test fails if it
 * has none). */
static double
var (const FigData *d, const char *name)
{
    g_autofree char *at = g_strdup_printf ("\n%s = ", name);
    g_autofree char *vars = g_strconcat ("\n", d->vars->str, NULL);
    const char *line = strstr (vars, at);
    cr_assert_not_null (line, "no variable %s in %s", name, d->vars->str);
    return g_ascii_strtod (line + strlen (at), NULL);
}

static int
rows (const FigData *d)
{
    int n = 0;
    for (const char *c = d->csv->str; *c; c++)
        n += *c == '\n';
    return n - 1;
}

/* ------------------------------------------------------------------ */
/* Figure 1: the calculator's graphs                                   */

Test (fig, occupancy_a100_default_launch)
{
    FigOptions o = FIG_OPTIONS_INIT;
    g_auto (FigData) d = build ("occupancy", &o);
    /* A100, 256 threads, 40 registers, 8 KB.  Registers: 40 x 32 = 1280
     * per warp (a multiple of 256); a sub-partition's 16384 hold 12
     * warps, 48 per SM; 8-warp blocks -> 6 blocks = 48 of 64 warps:
     * 75 %.  Shared memory 8192 + 1024 = 9216 B: 167936 / 9216 = 18
     * blocks, not binding. */
    cr_assert_float_eq (num (&d, "regs,40", "occupancy_pct"), 75.0, 1e-9);
    g_autofree char *lim = field (&d, "regs,40", "limiter");
    cr_assert_str_eq (lim, "registers");
    /* 32 registers: 1024 per warp, 16 per sub-partition, 64 warps = 8
     * blocks, as the 64 warp slots allow: 100 %. */
    cr_assert_float_eq (num (&d, "regs,32", "occupancy_pct"), 100.0, 1e-9);
    /* 32-thread blocks: one warp each; shared memory allows 18 blocks
     * (above), registers 48, block slots 32: 18 warps of 64 = 28.125 %. */
    cr_assert_float_eq (num (&d, "threads,32", "occupancy_pct"), 28.125,
                        1e-9);
    g_autofree char *lim32 = field (&d, "threads,32", "limiter");
    cr_assert_str_eq (lim32, "shared_mem");
    /* 48 KB per 256-thread block: 49152 + 1024 = 50176 B; 167936 /
     * 50176 = 3.3 -> 3 blocks = 24 warps: 37.5 %. */
    cr_assert_float_eq (num (&d, "smem,49152", "occupancy_pct"), 37.5, 1e-9);
    /* One row per block size (32 .. 1024 by 32) and register count
     * (1 .. 255). */
    cr_assert_eq (strstr (d.csv->str, "\nthreads,1056,") != NULL, FALSE);
    cr_assert_not_null (strstr (d.csv->str, "\nthreads,1024,"));
    cr_assert_not_null (strstr (d.csv->str, "\nregs,255,"));
}

Test (fig, occupancy_a6000_hand_calculation)
{
    /* cc 8.6: 1536 threads = 48 warp slots, 16 block slots, 100 KB of
     * shared memory.  128 threads, 32 registers, 48 KB: 49152 + 1024 =
     * 50176 B; 102400 / 50176 = 2.04 -> 2 blocks x 4 warps = 8 of 48:
     * 16.67 %, limited by shared memory. */
    FigOptions o = FIG_OPTIONS_INIT;
    o.gpu = "a6000";
    o.threads = 128;
    o.regs = 32;
    o.smem = 49152;
    g_auto (FigData) d = build ("occupancy", &o);
    cr_assert_float_eq (num (&d, "smem,49152", "occupancy_pct"),
                        100.0 * 8 / 48, 1e-3);
    g_autofree char *lim = field (&d, "smem,49152", "limiter");
    cr_assert_str_eq (lim, "shared_mem");
    /* Same launch without shared memory: registers 1024 per warp, 16
     * warps per sub-partition = 64 > 48 slots: 12 blocks of 4 warps,
     * the 48 warp slots bind: 100 %. */
    cr_assert_float_eq (num (&d, "smem,0", "occupancy_pct"), 100.0, 1e-9);
    /* 255 registers: 8160 -> 8192 per warp, 2 per sub-partition, 8 per
     * SM: 2 blocks of 4 warps = 8 of 48. */
    cr_assert_float_eq (num (&d, "regs,255", "occupancy_pct"),
                        100.0 * 8 / 48, 1e-3);
}

/* ------------------------------------------------------------------ */
/* Figure 2: the cliff                                                 */

Test (fig, cliff_pmpp_examples)
{
    FigOptions o = FIG_OPTIONS_INIT;
    g_auto (FigData) d = build ("occupancy-cliff", &o);
    /* Seed 001 (PMPP 4.7), A100, 512 threads: 31 registers -> 992,
     * rounded to 1024 per warp, 16 per sub-partition, 64 warps: 100 %;
     * 33 -> 1056, rounded to 1280, 12 per sub-partition, 48 warps = 3
     * blocks: 75 %.  The textbook divides 65536 by 33: 1985 threads,
     * 96.92 %. */
    cr_assert_float_eq (num (&d, "regs,31", "exact_pct"), 100.0, 1e-9);
    cr_assert_float_eq (num (&d, "regs,33", "exact_pct"), 75.0, 1e-9);
    cr_assert_float_eq (num (&d, "regs,33", "textbook_pct"),
                        100.0 * 1985 / 2048, 1e-3);
    /* Seed 000 (PMPP 5.6), 256 threads, 32 KB: 32768 + 1024 = 33792 B,
     * 167936 / 33792 = 4 blocks = 32 warps: 50 %; the textbook: 128 B
     * per thread, 167936 / 128 = 1312 threads: 64.06 %. */
    cr_assert_float_eq (num (&d, "smem,32768", "exact_pct"), 50.0, 1e-9);
    cr_assert_float_eq (num (&d, "smem,32768", "textbook_pct"),
                        100.0 * 1312 / 2048, 1e-3);
    /* No shared memory: the warp slots, 100 % both ways. */
    cr_assert_float_eq (num (&d, "smem,0", "exact_pct"), 100.0, 1e-9);
    cr_assert_float_eq (num (&d, "smem,0", "textbook_pct"), 100.0, 1e-9);
}

/* ------------------------------------------------------------------ */
/* Figures 4 and 5: sectors and wavefronts per pattern                 */

Test (fig, coalescing_sectors_per_pattern)
{
    FigOptions o = FIG_OPTIONS_INIT;
    g_auto (FigData) d = build ("coalescing", &o);
    /* 32 lanes x 4 B, 32 B sectors, aligned: stride 1 spans 128 B = 4
     * sectors; stride 2 spans 256 B = 8; stride 4 puts two lanes in a
     * sector: 16; stride 8 (32 B) one lane per sector: 32, as stride 32;
     * misaligned by 4 B, 128 B straddle 5 sectors; one address: 1;
     * float4 lanes, 512 B: 16. */
    static const struct {
        const char *pattern;
        int sectors;
        double efficiency;
    } want[] = {
        { "stride 1", 4, 100 }, { "stride 2", 8, 50 }, { "stride 4", 16, 25 },
        { "stride 8", 32, 12.5 }, { "stride 32", 32, 12.5 },
        { "misaligned", 5, 80 }, { "broadcast", 1, 12.5 },
        { "float4", 16, 100 },
    };
    cr_assert_eq (rows (&d), (int) G_N_ELEMENTS (want));
    for (guint i = 0; i < G_N_ELEMENTS (want); i++) {
        cr_assert_float_eq (num (&d, want[i].pattern, "sectors"),
                            want[i].sectors, 1e-9, "%s", want[i].pattern);
        /* Efficiency: distinct bytes asked (128; 4 for the broadcast;
         * 512 for float4) over sectors x 32 B. */
        cr_assert_float_eq (num (&d, want[i].pattern, "efficiency_pct"),
                            want[i].efficiency, 1e-9, "%s", want[i].pattern);
    }
}

Test (fig, bank_wavefronts_per_pattern)
{
    FigOptions o = FIG_OPTIONS_INIT;
    g_auto (FigData) d = build ("bank-conflicts", &o);
    /* 32 banks of 4 B.  Row: words 0..31, all banks once: 1.  Column of
     * a 32-wide tile: words 32 i, all in bank 0: 32.  Padded to 33:
     * words 33 i, bank i: 1.  float4 row: four quarter-warp phases of
     * 8 lanes x 4 words = 32 banks: 4 (the ideal, no conflict).  One
     * word for all: broadcast, 1.  Stride 2: words 2 i, banks 0, 2 ..
     * 30 each twice: 2. */
    static const struct {
        const char *pattern;
        int wavefronts, ideal;
    } want[] = {
        { "row", 1, 1 }, { "column", 32, 1 }, { "padded column", 1, 1 },
        { "float4 row", 4, 4 }, { "broadcast", 1, 1 }, { "stride 2", 2, 1 },
    };
    cr_assert_eq (rows (&d), (int) G_N_ELEMENTS (want));
    for (guint i = 0; i < G_N_ELEMENTS (want); i++) {
        cr_assert_float_eq (num (&d, want[i].pattern, "wavefronts"),
                            want[i].wavefronts, 1e-9, "%s", want[i].pattern);
        cr_assert_float_eq (num (&d, want[i].pattern, "ideal"), want[i].ideal,
                            1e-9, "%s", want[i].pattern);
    }
}

/* ------------------------------------------------------------------ */
/* Figure 3: latency hiding                                            */

Test (fig, latency_hiding_follows_littles_law, .timeout = 120)
{
    FigOptions o = FIG_OPTIONS_INIT;
    g_auto (FigData) d = build ("latency-hiding", &o);
    /* Little's law on the A100's pointer-chase latencies (33, 206 and
     * 552 cycles): W warps with one load in flight issue 2 W
     * instructions per latency: 1 warp at L1, 2 / 33 = 0.0606. */
    cr_assert_float_eq (num (&d, "L1,1", "littles_law_ipc"), 2.0 / 33, 1e-4);
    cr_assert_float_eq (num (&d, "DRAM,32", "littles_law_ipc"), 64.0 / 552,
                        1e-4);
    /* One-warp blocks: the 32 block slots cap the points at 32. */
    cr_assert_null (strstr (d.csv->str, "\nL1,48,"));
    /* Simulated: one iteration is the latency and the use's issue, so
     * within 5 % below the law and never above it. */
    static const char *const keys[] = { "L1,1", "L1,32", "L2,1", "L2,32",
                                        "DRAM,1", "DRAM,32" };
    for (guint i = 0; i < G_N_ELEMENTS (keys); i++) {
        double ipc = num (&d, keys[i], "ipc");
        double law = num (&d, keys[i], "littles_law_ipc");
        cr_assert (ipc <= law * 1.001 && ipc >= law * 0.95,
                   "%s: %g against %g", keys[i], ipc, law);
    }
    /* Every point is an exact run (fig_latency.c asks for RUN_EXACT),
     * and the title says so. */
    cr_assert_not_null (strstr (d.vars->str, "\nsampling = 'exact'\n"),
                        "%s", d.vars->str);
}

/* ------------------------------------------------------------------ */
/* Figure 6: the validation table                                      */

Test (fig, validation_from_rows)
{
    FigValidRow in[] = {
        { "a6000", 1, TRUE, 291.2, 309.0, -5.76 },
        { "a6000", 11, FALSE, 0, 17278.3, 0 },
        { "a100", 2, TRUE, 4933.3, 3119.0, 58.17 },
        { "a100", 1, TRUE, 298.7, 300.0, -0.43 },
        { "a100", 3, TRUE, 1850.0, 2000.0, -7.5 },
        { "a100", 4, TRUE, 2000.8, 2001.5, -0.04 },
    };
    g_autoptr (GArray) rows_in = g_array_new (FALSE, FALSE, sizeof *in);
    g_array_append_vals (rows_in, in, G_N_ELEMENTS (in));
    FigOptions o = FIG_OPTIONS_INIT;
    o.validation = rows_in;
    g_auto (FigData) d = build ("sgemm-validation", &o);
    /* cuBLAS from the published table (siboehm/SGEMM_CUDA): 23249.6 on
     * the A6000, 19029.5 on the A100. */
    cr_assert_float_eq (num (&d, "a6000,1", "cublas_gflops"), 23249.6, 1e-9);
    cr_assert_float_eq (num (&d, "a100,2", "cublas_gflops"), 19029.5, 1e-9);
    /* Labels: the error to a tenth of a percent, with its sign; one
     * that rounds to nothing has none. */
    static const char *const labels[][2] = {
        { "a100,2", "+58.2%" }, { "a6000,1", "-5.8%" }, { "a100,1", "-0.4%" },
        { "a100,3", "-7.5%" }, { "a100,4", "0.0%" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (labels); i++) {
        g_autofree char *label = field (&d, labels[i][0], "label");
        cr_assert_str_eq (label, labels[i][1], "%s", labels[i][0]);
    }
    g_autofree char *missing = field (&d, "a6000,11", "simulated_gflops");
    cr_assert_str_eq (missing, "");
    cr_assert_not_null (strstr (d.vars->str, "n_gpus = 2"));
}

/* ------------------------------------------------------------------ */
/* Figures 7 and 8: SGEMM at a small size                              */

Test (fig, roofline_and_stalls_count_what_they_must, .timeout = 300)
{
    g_autoptr (FigCache) cache = fig_cache_new ();
    FigOptions o = FIG_OPTIONS_INIT;
    o.size = 128;
    o.cache = cache;
    g_auto (FigData) roof = build ("roofline", &o);
    g_auto (FigData) stalls = build ("stall-breakdown", &o);
    /* 2 x 128^3 = 4194304 FLOPs for every kernel; intensity is FLOPs
     * over bytes; A6000 peak: 84 SMs x 4 x 32 lanes x 2 x 1800 MHz. */
    cr_assert_float_eq (num (&roof, "sgemm-1", "flops"), 4194304.0, 1e-9);
    cr_assert_not_null (strstr (roof.vars->str, "peak_gflops = 38707.2"));
    /* A, B and C (3 x 128^2 x 4 B = 196608) fit the A6000's 6 MB L2
     * many times over: each byte crosses DRAM at least once and is read
     * at most once, and C is written back at most once (65536 B). */
    static const char *const k[] = { "sgemm-1", "sgemm-5", "sgemm-10" };
    for (guint i = 0; i < G_N_ELEMENTS (k); i++) {
        cr_assert_geq (num (&roof, k[i], "dram_bytes"), 196608.0, "%s", k[i]);
        cr_assert_leq (num (&roof, k[i], "dram_bytes"), 196608.0 + 65536.0,
                       "%s", k[i]);
        /* A warp spends exactly one cycle issuing each instruction
         * (that the states add up is test-sm's stall_totals_balance). */
        cr_assert_float_eq (num (&stalls, k[i], "selected"), 1.0, 1e-9);
    }
}

/* Where some kernels' tiles do not divide the size, the others are
 * drawn and the rest named; where none runs, the figure fails saying
 * why (it used to return FALSE with no error, and the CLI crashed). */
/* sgemm-1..4 get a panel of their own beside the later kernels, by
 * which kernels ran, not how many: with the grid held to 8 blocks a
 * side, at 512 the 32 x 32 tiles of kernels 1-3 (16 a side) cannot
 * run, kernel 4's 64 x 64 (8) and the 128-wide ones (4) can. */
Test (fig, stall_panels_split_by_kernel, .timeout = 120)
{
    static const char *const grid[] = { "device.max_grid_y=8", NULL };
    FigOptions o = FIG_OPTIONS_INIT;
    o.size = 512;
    o.sets = grid;
    g_auto (FigData) d = build ("stall-breakdown", &o);
    cr_assert_eq (var (&d, "n_kernels"), 8);
    cr_assert_eq (var (&d, "n_early"), 1, "%s", d.vars->str);
}

Test (fig, sgemm_figures_at_sizes_their_tiles_do_not_fit, .timeout = 120)
{
    static const char *const figs[] = { "roofline", "stall-breakdown" };
    /* 100 is no multiple of 32 (sgemm-3's tile), 8 and 1 are below it:
     * only kernels 1 and 2, which check their bounds, run. */
    static const gint64 sizes[] = { 100, 8, 1 };
    for (guint f = 0; f < G_N_ELEMENTS (figs); f++)
        for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
            FigOptions o = FIG_OPTIONS_INIT;
            o.size = sizes[i];
            g_auto (FigData) d = build (figs[f], &o);
            cr_assert_not_null (strstr (d.notes->str,
                                        "9 of the 11 SGEMM kernels"),
                                "%s at %" G_GINT64_FORMAT ": %s", figs[f],
                                sizes[i], d.notes->str);
        }
    /* Past every grid nothing runs: an error. */
    g_auto (FigData) none;
    g_autoptr (GError) error = NULL;
    FigOptions huge = FIG_OPTIONS_INIT;
    huge.size = G_GINT64_CONSTANT (100000000000);
    fig_data_init (&none);
    cr_assert_not (fig_find ("roofline")->build (&huge, &none, &error));
    cr_assert (g_error_matches (error, SMSIM_FIG_ERROR, FIG_ERROR_OPTION));
    /* At 96 sgemm-1..3 (32 x 32 tiles) run; sgemm-4 (64 x 64) and the
     * 128-wide ones do not: 3 rows, 8 of 11 named. */
    FigOptions o = FIG_OPTIONS_INIT;
    o.size = 96;
    g_auto (FigData) d = build ("roofline", &o);
    cr_assert_eq (rows (&d), 3);
    cr_assert_not_null (strstr (d.notes->str, "8 of the 11 SGEMM kernels"),
                        "%s", d.notes->str);
    cr_assert_not_null (strstr (d.notes->str, "sgemm-11: size 96"));
    /* Every point lies inside the axes: sgemm-1 there runs far below
     * the roofs' usual floor of 100 GFLOP/s. */
    double x_lo = var (&d, "x_lo"), x_hi = var (&d, "x_hi");
    double y_lo = var (&d, "y_lo"), y_hi = var (&d, "y_hi");
    static const char *const k[] = { "sgemm-1", "sgemm-2", "sgemm-3" };
    for (guint i = 0; i < G_N_ELEMENTS (k); i++) {
        double g = num (&d, k[i], "gflops");
        cr_assert (g > y_lo && g < y_hi, "%s: %g outside %g..%g", k[i], g,
                   y_lo, y_hi);
        static const char *const ai[] = { "ai_dram", "ai_l2" };
        for (guint a = 0; a < G_N_ELEMENTS (ai); a++) {
            double x = num (&d, k[i], ai[a]);
            cr_assert (x > x_lo && x < x_hi, "%s %s: %g outside %g..%g",
                       k[i], ai[a], x, x_lo, x_hi);
        }
    }
}

/* A title says "sampled" only if every run was, "exact" if none was. */
Test (fig, sampling_of_runs)
{
    FigRun runs[3] = { { 0 } };
    cr_assert_str_eq (fig_run_sampling (runs, 3), "exact");
    runs[1].result.sampled = TRUE;
    cr_assert_str_eq (fig_run_sampling (runs, 3), "partly sampled");
    runs[0].result.sampled = runs[2].result.sampled = TRUE;
    cr_assert_str_eq (fig_run_sampling (runs, 3), "sampled");
}

/* ------------------------------------------------------------------ */
/* Figure 9: the timeline                                              */

Test (fig, timeline_draws_the_sm_states)
{
    FigOptions o = FIG_OPTIONS_INIT;
    g_auto (FigData) d = build ("timeline", &o);
    /* PMPP 32 x 32, 16 x 16 tiles: 4 blocks of 8 warps, all resident at
     * once (32 of the A6000's 48 warp slots), launched at cycle 0.  Per
     * warp (kern_pmpp.c): 10 prologue instructions; per phase 1 IMAD,
     * 2 LDG, 2 STS, BAR, 16 x (LDS + FFMA), 4 LDS.128, 4 IADD3, 2 MOV,
     * BAR, BRA = 50, two phases; 3 in the epilogue and EXIT: 114.  Each
     * issue is one 'selected' row of one cycle: 32 x 114 = 3648. */
    static const char *const groups[] = {
        "selected", "long_scoreboard", "short_scoreboard", "barrier",
        "mio_throttle", "not_selected", "drain"
    };
    guint64 reached[32] = { 0 }, cycles[32] = { 0 };
    int issues[32] = { 0 };
    guint64 barrier = 0;
    g_auto (GStrv) lines = g_strsplit (d.csv->str, "\n", -1);
    cr_assert_str_eq (lines[0], "slot,block,state,group,start,end");
    for (int i = 1; lines[i] != NULL && *lines[i]; i++) {
        g_auto (GStrv) f = g_strsplit (lines[i], ",", -1);
        int slot = atoi (f[0]), group = atoi (f[3]);
        guint64 start = g_ascii_strtoull (f[4], NULL, 10);
        guint64 end = g_ascii_strtoull (f[5], NULL, 10);
        cr_assert (slot >= 0 && slot < 32, "%s", lines[i]);
        /* A warp's rows tile its residency: each starts where the last
         * ended (the CSV lists a slot's rows in time order). */
        cr_assert_eq (start, reached[slot], "%s: slot %d was at %"
                      G_GUINT64_FORMAT, lines[i], slot, reached[slot]);
        cr_assert_lt (start, end, "%s", lines[i]);
        reached[slot] = end;
        cycles[slot] += end - start;
        /* Drawn apart: the seven states named; the rest is group 7. */
        int want = 7;
        for (int g = 0; g < (int) G_N_ELEMENTS (groups); g++)
            if (strcmp (f[2], groups[g]) == 0)
                want = g;
        cr_assert_eq (group, want, "%s", lines[i]);
        if (strcmp (f[2], "selected") == 0) {
            cr_assert_eq (end - start, 1, "%s", lines[i]);
            issues[slot]++;
        }
        barrier += strcmp (f[2], "barrier") == 0 ? end - start : 0;
    }
    for (int slot = 0; slot < 32; slot++) {
        cr_assert_eq (issues[slot], 114, "slot %d: %d issues", slot,
                      issues[slot]);
        cr_assert_eq (cycles[slot], reached[slot]);
    }
    /* Four barriers per warp, and the warps of a block do not all
     * arrive in the same cycle. */
    cr_assert_gt (barrier, 0);
    cr_assert_not_null (strstr (d.vars->str, "n_slots = 32"));
    /* The title names group 7: stats.h's thirteen states less the seven
     * drawn apart, in its order. */
    cr_assert_not_null (strstr (d.vars->str, "\nother_states = 'wait, "
                                "math_pipe_throttle, lg_throttle, "
                                "branch_resolving, dispatch_stall, "
                                "no_instruction'\n"),
                        "%s", d.vars->str);
    /* The legend's shares cover every warp cycle. */
    double shares = 0;
    for (int g = 0; g < 8; g++) {
        g_autofree char *name = g_strdup_printf ("\nshare_%d = ", g);
        const char *at = strstr (d.vars->str, name);
        cr_assert_not_null (at, "no share_%d", g);
        shares += g_ascii_strtod (at + strlen (name), NULL);
    }
    cr_assert_float_eq (shares, 100.0, 1e-6);
}

/* The timeline's and the what-if's titles name the size as the kernel
 * reads it: PMPP's --size 32 is a 32 x 32 matrix, vecadd's --size 256
 * is 256 elements, no 256 x 256 matrix. */
Test (fig, titles_name_the_size_as_the_kernel_reads_it)
{
    FigOptions o = FIG_OPTIONS_INIT;
    g_auto (FigData) pmpp = build ("timeline", &o);
    cr_assert_not_null (strstr (pmpp.vars->str, "\nsize_label = '32 x 32'\n"),
                        "%s", pmpp.vars->str);
    o.kernel = "vecadd";
    o.size = 256;
    g_auto (FigData) vec = build ("timeline", &o);
    cr_assert_not_null (strstr (vec.vars->str, "\nsize_label = '--size 256'\n"),
                        "%s", vec.vars->str);
}

/* The timeline's warp-slot axis counts a block's warps: 33 threads are
 * two warps (the second with one lane), not 33 / 32 = 1. */
Test (fig, timeline_counts_a_partial_warp)
{
    static const char *const params[] = { "BLOCK=33", NULL };
    FigOptions o = FIG_OPTIONS_INIT;
    o.kernel = "vecadd";
    o.size = 66;
    o.params = params;
    g_auto (FigData) d = build ("timeline", &o);
    cr_assert_not_null (strstr (d.vars->str, "\nwarps_per_block = 2\n"),
                        "%s", d.vars->str);
}

/* ------------------------------------------------------------------ */
/* Figure 11: what-if                                                  */

Test (fig, whatif_relative_to_the_preset, .timeout = 120)
{
    FigOptions o = FIG_OPTIONS_INIT;
    o.size = 64;
    g_auto (FigData) d = build ("what-if", &o);
    /* A quarter of the schedulers (one sub-partition of four) issues at
     * most a quarter as often: the kernel cannot get faster. */
    cr_assert_gt (num (&d, "schedulers,0.25", "relative_time"), 1.0);
    /* A6000: 65536 registers, 100 KB of shared memory, 4 schedulers;
     * the scaled designs carry the scaled values. */
    cr_assert_float_eq (num (&d, "registers,0.25", "value"), 16384, 1e-9);
    cr_assert_float_eq (num (&d, "shared memory,4", "value"), 400, 1e-9);
    cr_assert_float_eq (num (&d, "schedulers,0.5", "value"), 2, 1e-9);
    /* a6000.ini: dram_latency_cycles = 556 (RRZE pointer chase). */
    cr_assert_float_eq (num (&d, "DRAM latency,2", "value"), 2 * 556, 1e-9);
    /* A quarter of the registers: 40 x 32 = 1280 per warp, 4096 per
     * sub-partition hold 3 warps, 12 per SM: one 8-warp block of 48
     * warp slots, 16.67 %. */
    cr_assert_float_eq (num (&d, "registers,0.25", "occupancy_pct"),
                        100.0 * 8 / 48, 1e-2);
    /* Four times the DRAM latency cannot make the kernel faster. */
    cr_assert_geq (num (&d, "DRAM latency,4", "time_ms"),
                   num (&d, "DRAM latency,1", "time_ms"));
    /* 64 x 64 in 16 x 16 tiles is 16 blocks of 8 warps, each some 200
     * warp instructions: far below the 2 x 10^7 above which a run is
     * sampled (RUN_AUTO), so every design runs exact. */
    cr_assert_not_null (strstr (d.vars->str, "\nsampling = 'exact'\n"),
                        "%s", d.vars->str);
    cr_assert_not_null (strstr (d.vars->str, "\nsize_label = '64 x 64'\n"),
                        "%s", d.vars->str);
}

Test (fig, find_by_name_or_number)
{
    cr_assert_str_eq (fig_find ("7")->name, "roofline");
    cr_assert_str_eq (fig_find ("bank-conflicts")->name, "bank-conflicts");
    cr_assert_null (fig_find ("12"));
    cr_assert_null (fig_find ("nosuch"));
    guint n;
    const FigDef *const *all = fig_all (&n);
    cr_assert_eq (n, 11);
    for (guint i = 0; i < n; i++)
        cr_assert_eq (all[i]->number, (int) i + 1);
}
