/*
 * test-kern.c -- kernel models: instruction counts from hand formulas,
 * addresses, launches, and rejected parameters; and `run_kernel` on the
 * microbenchmarks against the presets' sourced latencies.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>

#include "models/kern.h"
#include "models/kgen.h"
#include "models/ref.h"
#include "models/run.h"
#include "sim/coal.h"
#include "testutil.h"

static KernInstance *
make (const GpuSpec *spec, const char *id, gint64 size, const char *p0)
{
    g_autoptr (GError) error = NULL;
    const char *params[] = { p0, NULL };
    const KernModel *m = kern_find (id);
    cr_assert_not_null (m, "%s", id);
    KernInstance *k = kern_instance_new (m, spec, size, params, &error);
    cr_assert_not_null (k, "%s: %s", id, error ? error->message : "");
    return k;
}

/* Count every warp's instructions by kind, and the sectors of its
 * global loads. */
static void
count (const KernInstance *k, guint64 *ops, guint64 *load_sectors)
{
    memset (ops, 0, INSTR_N_OPS * sizeof *ops);
    *load_sectors = 0;
    int warps = (k->threads + 31) / 32;
    for (guint64 b = 0; b < kern_blocks (k); b++)
        for (int w = 0; w < warps; w++) {
            g_autoptr (InstrStream) s = kern_open_warp (k, b, w);
            const Instr *in;
            while ((in = instr_stream_next (s)) != NULL) {
                ops[in->op]++;
                if (in->op == INSTR_LDG) {
                    CoalResult c;
                    coal_access (in, 128, 32, &c);
                    *load_sectors += (guint64) c.sectors;
                }
            }
        }
}

Test (kern, vecadd_counts)
{
    g_autoptr (Preset) p = tu_preset ("a100");
    /* N = 1000 with 128-thread blocks: 8 blocks of 4 warps; per warp, of
     * its 12 instructions, 2 loads, 1 FADD, 1 store, 1 EXIT.  Loads of 1000 floats: x and y
     * each 4000 B = 125 sectors, 256-byte aligned. */
    g_autoptr (KernInstance) k = make (preset_spec (p), "vecadd", 1000, NULL);
    guint64 ops[INSTR_N_OPS], sectors;
    cr_assert_eq (kern_blocks (k), 8);
    count (k, ops, &sectors);
    cr_assert_eq (ops[INSTR_LDG], 2 * 32);
    cr_assert_eq (ops[INSTR_FADD], 32);
    cr_assert_eq (ops[INSTR_STG], 32);
    cr_assert_eq (ops[INSTR_EXIT], 32);
    cr_assert_eq (sectors, 2 * 125, "%" G_GUINT64_FORMAT " sectors", sectors);
    cr_assert_float_eq (k->flops, 1000.0, 1e-9);
}

Test (kern, rejects_bad_parameters)
{
    g_autoptr (Preset) p = tu_preset ("a100");
    const GpuSpec *s = preset_spec (p);
    struct { const char *id; gint64 size; const char *param; KernError code; } bad[] = {
        { "vecadd", 100, "BLOCK=2000", KERN_ERROR_PARAM },
        { "vecadd", 100, "BLOCK=abc", KERN_ERROR_PARAM },
        { "vecadd", 100, "NOPE=1", KERN_ERROR_UNKNOWN },
        { "vecadd", -5, NULL, KERN_ERROR_SIZE },
        { "stream", 1000, NULL, KERN_ERROR_SIZE },   /* not a multiple of 256 */
        /* The loop reads Mds rows as float4: TILE_WIDTH % 4 == 0. */
        { "pmpp-tiled", 60, "TILE_WIDTH=6", KERN_ERROR_PARAM },
    };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
        g_autoptr (GError) error = NULL;
        const char *params[] = { bad[i].param, NULL };
        KernInstance *k = kern_instance_new (kern_find (bad[i].id), s,
                                             bad[i].size, params, &error);
        cr_assert_null (k, "row %u accepted", i);
        cr_assert (g_error_matches (error, SMSIM_KERN_ERROR, (gint) bad[i].code),
                   "row %u: %s", i, error->message);
    }
}

/* pchase through run_kernel: 2000 loads over 16 KB (fits L1): the first
 * 128 miss to DRAM, the rest hit L1. */
Test (kern, pchase_through_run)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (KernInstance) k = make (s, "pchase", 2000, "WS=16384");
    RunOptions o = { -1, -1, RUN_EXACT };
    RunResult r;
    g_autoptr (GError) error = NULL;
    cr_assert (run_kernel (s, k, &o, &r, &error), "%s",
               error ? error->message : "");
    /* 128 cold loads at DRAM latency, 1872 at L1 latency, then EXIT and
     * retire (2 cycles).  Hand formula with the preset's figures. */
    guint64 want = 128 * (guint64) s->mem.dram_latency_cycles +
                   1872 * (guint64) s->mem.l1_hit_latency_cycles + 2;
    cr_assert (llabs ((gint64) r.cycles - (gint64) want) <= 4,
               "%" G_GUINT64_FORMAT " cycles, expected %" G_GUINT64_FORMAT,
               r.cycles, want);
}

Test (kern, timing_needs_a_timing_preset)
{
    g_autoptr (Preset) p = tu_preset ("k40");
    g_autoptr (KernInstance) k = make (preset_spec (p), "vecadd", 1024, NULL);
    RunOptions o = RUN_OPTIONS_INIT;
    RunResult r;
    g_autoptr (GError) error = NULL;
    cr_assert_not (run_kernel (preset_spec (p), k, &o, &r, &error));
    cr_assert (strstr (error->message, "no sourced timing") != NULL);
}

/* ------------------------------------------------------------------ */
/* SGEMM                                                               */

/* Per main-loop iteration, the reference SASS of each kernel (CUDA 13.0,
 * sm_86, ../shared/data/sass/sgemm*_sm86.sass.gz), counted by
 * kernels/cuda/sassmix.py `loops`: one iteration is the instructions
 * from the loop's branch target to its backward branch.  "int" is IMAD +
 * integer ALU + MOV + uniform-datapath + other.  Kernels 1 and 2 unroll
 * 16 k steps per iteration. */
typedef struct {
    int kernel;
    int ffma, ldg, ldg128, sts, sts128, lds, lds64, lds128, bar, ints, bra;
} Mix;

static const Mix sass_mix[] = {
    { 1, 16, 32, 0, 0, 0, 0, 0, 0, 0, 25, 1 },
    { 2, 16, 32, 0, 0, 0, 0, 0, 0, 0, 25, 1 },
    { 3, 32, 2, 0, 2, 0, 32, 0, 8, 2, 7, 1 },
    { 4, 64, 2, 0, 2, 0, 8, 0, 16, 2, 7, 1 },
    { 5, 512, 8, 0, 8, 0, 0, 0, 32, 2, 16, 1 },
    { 6, 512, 0, 2, 4, 1, 0, 0, 32, 2, 8, 1 },
    { 7, 512, 0, 2, 8, 0, 64, 0, 16, 2, 15, 1 },
    { 8, 512, 0, 2, 8, 0, 4, 4, 30, 2, 16, 1 },
    { 9, 1024, 0, 4, 8, 2, 0, 0, 64, 2, 23, 3 },
    { 10, 2048, 0, 8, 16, 4, 0, 0, 96, 2, 28, 1 },
};

static gboolean
within (int got, int want)
{
    /* The issue's 10 %, rounded down: a count under 10 must match. */
    return abs (got - want) <= want / 10;
}

static void
tally (const KOp *o, Mix *m)
{
    switch (o->op) {
    case INSTR_FFMA: m->ffma++; break;
    case INSTR_LDG: *(o->width == 16 ? &m->ldg128 : &m->ldg) += 1; break;
    case INSTR_STS: *(o->width == 16 ? &m->sts128 : &m->sts) += 1; break;
    case INSTR_LDS:
        *(o->width == 16 ? &m->lds128 : o->width == 8 ? &m->lds64 : &m->lds) += 1;
        break;
    case INSTR_BAR: m->bar++; break;
    case INSTR_BRA: m->bra++; break;
    case INSTR_IMAD: case INSTR_IADD3: case INSTR_MOV: case INSTR_SHF:
    case INSTR_LOP3: case INSTR_ISETP: case INSTR_LEA:
        m->ints++;
        break;
    default: break;
    }
}

Test (kern, sgemm_main_loop_mix_matches_sass)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    for (guint i = 0; i < G_N_ELEMENTS (sass_mix); i++) {
        const Mix *w = &sass_mix[i];
        g_autofree char *id = g_strdup_printf ("sgemm-%d", w->kernel);
        g_autoptr (KernInstance) k = make (preset_spec (p), id, 1024, NULL);
        const KProgram *prog = k->data;
        const GArray *body = prog->seg[KGEN_BODY];
        Mix g = { w->kernel, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
        for (guint j = 0; j < body->len; j++)
            tally (&g_array_index (body, KOp, j), &g);
        const int *want = &w->ffma, *got = &g.ffma;
        static const char *const names[] = { "FFMA", "LDG", "LDG.128", "STS",
                                             "STS.128", "LDS", "LDS.64",
                                             "LDS.128", "BAR", "int", "BRA" };
        for (int c = 0; c < 11; c++)
            cr_expect (within (got[c], want[c]), "%s: %s %d per iteration, "
                       "SASS %d", id, names[c], got[c], want[c]);
    }
}

/* Naive kernel at n: n^3/32 warp FFMAs and 2 n^3/32 warp loads in the
 * loop, plus n^2/32 loads of C and n^2/32 stores (issue 5). */
Test (kern, sgemm1_counts)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const guint64 n = 64;
    g_autoptr (KernInstance) k = make (preset_spec (p), "sgemm-1", (gint64) n, NULL);
    guint64 ops[INSTR_N_OPS], sectors;
    count (k, ops, &sectors);
    cr_assert_eq (ops[INSTR_FFMA] - n * n / 32, n * n * n / 32);
    cr_assert_eq (ops[INSTR_LDG], 2 * n * n * n / 32 + n * n / 32);
    cr_assert_eq (ops[INSTR_STG], n * n / 32);
    /* A loads: 32 lanes on 32 rows: 32 sectors each; B: one address: 1;
     * C: 32 rows: 32.  Per warp k-step 33 sectors. */
    cr_assert_eq (sectors, n * n * n / 32 * 33 + n * n / 32 * 32);
}

/* Kernel 2's B loads are 4 sectors (32 consecutive floats), its A loads
 * 1 (a broadcast). */
Test (kern, sgemm2_coalesced)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const guint64 n = 64;
    g_autoptr (KernInstance) k = make (preset_spec (p), "sgemm-2", (gint64) n, NULL);
    guint64 ops[INSTR_N_OPS], sectors;
    count (k, ops, &sectors);
    cr_assert_eq (sectors, n * n * n / 32 * (4 + 1) + n * n / 32 * 4);
}

/* Tiled kernels pass two barriers per main-loop iteration: BK-deep tiles
 * over K = n: per block 2 n / BK. */
Test (kern, sgemm_barriers)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const guint64 n = 256;
    for (int kernel = 3; kernel <= 10; kernel++) {
        g_autofree char *id = g_strdup_printf ("sgemm-%d", kernel);
        g_autoptr (KernInstance) k = make (preset_spec (p), id, (gint64) n, NULL);
        guint64 ops[INSTR_N_OPS], sectors;
        int warps = k->threads / 32;
        count (k, ops, &sectors);
        guint64 bk = (guint64) kern_param (k, "BK");
        cr_expect_eq (ops[INSTR_BAR], kern_blocks (k) * (guint64) warps * 2 * n / bk,
                      "%s", id);
        /* The product's n^3 multiply-adds are n^3 / 32 warp FFMAs; the
         * epilogue adds one per result (beta * C). */
        cr_expect_eq (ops[INSTR_FFMA], n * n * n / 32 + n * n / 32, "%s", id);
    }
}

/* Sizes the kernels cannot run are rejected with the reason. */
Test (kern, sgemm_rejects_untiled_sizes)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    g_autoptr (GError) error = NULL;
    KernInstance *k = kern_instance_new (kern_find ("sgemm-5"), preset_spec (p),
                                         1000, NULL, &error);
    cr_assert_null (k);
    cr_assert (strstr (error->message, "out of bounds") != NULL, "%s",
               error->message);
    g_clear_error (&error);
    const char *bad[] = { "TM=3", NULL };
    k = kern_instance_new (kern_find ("sgemm-6"), preset_spec (p), 1024, bad,
                           &error);
    cr_assert_null (k);
    cr_assert (g_error_matches (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM),
               "%s", error->message);
}

/* Parameter sets the models cannot follow are refused, not simulated
 * wrongly: kernel 1 is written for 32 x 32 threads; kernel 10 with
 * WN = 64, WNITER = 16 leaves 4 columns per subtile, fewer than TN = 8;
 * with WN = 256, WNITER = 16, TN = 16 one lane covers a subtile's 16
 * columns, so a warp's 32 lanes would need 32 rows of TM = 8 in the
 * 64-row warp tile: (64 x 256) / (32 x 8 x 16 x 16) is not whole. */
Test (kern, sgemm_rejects_what_the_model_cannot_follow)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    static const struct {
        const char *id, *p1, *p2, *p3, *needle;
    } bad[] = {
        { "sgemm-1", "THREADS=256", NULL, NULL, "one tiling" },
        { "sgemm-3", "BM=64", NULL, NULL, "one tiling" },
        { "sgemm-10", "WNITER=16", "TN=8", NULL, "multiple of TN" },
        { "sgemm-10", "WN=256", "WNITER=16", "TN=16", "32 lanes" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
        g_autoptr (GError) error = NULL;
        const char *params[] = { bad[i].p1, bad[i].p2, bad[i].p3, NULL };
        KernInstance *k = kern_instance_new (kern_find (bad[i].id),
                                             preset_spec (p), 1024, params,
                                             &error);
        cr_assert_null (k, "%s %s accepted", bad[i].id, bad[i].p1);
        cr_assert (g_error_matches (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM)
                       && strstr (error->message, bad[i].needle) != NULL,
                   "%s", error->message);
    }
}

/* Sampling: on a GPU made small (8 SMs) so that size 256 runs several
 * waves for kernels 1-3, the sampled run (windows of the main loop,
 * extrapolated over iterations and waves) stays within 2 % of the exact
 * one in cycles (issue 6). */
Test (kern, sampled_matches_exact, .timeout = 120)
{
    const char *sets[] = { "device.sm_count=8", NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load ("a6000", NULL, sets, &error);
    const GpuSpec *s = preset_spec (p);
    for (int kernel = 1; kernel <= 10; kernel++) {
        g_autofree char *id = g_strdup_printf ("sgemm-%d", kernel);
        g_autoptr (KernInstance) k = make (s, id, 256, NULL);
        RunOptions exact = { -1, -1, RUN_EXACT }, sampled = { -1, -1, RUN_SAMPLED };
        RunResult re, rs;
        cr_assert (run_kernel (s, k, &exact, &re, &error));
        cr_assert (run_kernel (s, k, &sampled, &rs, &error));
        double diff = fabs ((double) rs.cycles - (double) re.cycles) / (double) re.cycles;
        cr_expect_leq (diff, 0.02, "%s: sampled %" G_GUINT64_FORMAT " (window %"
                       G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                       " waves), exact %" G_GUINT64_FORMAT " cycles", id, rs.cycles,
                       rs.window, k->iterations, rs.waves, re.cycles);
    }
}

/* The compiled-in reference numbers are the CSV's, row for row, source
 * included (src/models/ref/sgemm_published.csv). */
Test (kern, reference_table_matches_csv)
{
    g_autofree char *path = g_build_filename (SMSIM_TOP_SRCDIR, "src", "models",
                                              "ref", "sgemm_published.csv",
                                              NULL);
    g_autofree char *text = NULL;
    cr_assert (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
    guint n;
    const RefRow *rows = ref_rows (&n);
    g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
    guint seen = 0;
    for (int i = 1; lines[i] != NULL; i++) {
        if (*lines[i] == '\0')
            continue;
        cr_assert_lt (seen, n, "more CSV rows than compiled rows");
        const RefRow *r = &rows[seen++];
        g_autofree char *gflops = g_strdup_printf (",%.1f,", r->gflops);
        g_autofree char *kernel = g_strdup_printf (",%d,%d,", r->size, r->kernel);
        cr_expect (strstr (lines[i], kernel) != NULL, "row %u: %s", seen, lines[i]);
        cr_expect (strstr (lines[i], gflops) != NULL, "row %u: %s", seen, lines[i]);
        cr_expect (strstr (lines[i], r->gpu[1] == '6' ? "A6000" : "A100") != NULL);
        cr_expect (strncmp (r->source, "siboehm/SGEMM_CUDA@", 19) == 0);
    }
    cr_assert_eq (seen, n);
}

/* PMPP tiled matmul, Width 64, TILE_WIDTH 16 (seed 000): 16 blocks of
 * 256 threads (8 warps); per block 2 barriers per phase, 4 phases; per
 * warp 16 FFMAs per phase; every M and N element loaded once per block
 * that needs it: 2 x 64^3 / 16 floats = 32768 floats = 1024 warp loads. */
Test (kern, pmpp_counts)
{
    g_autoptr (Preset) p = tu_preset ("a100");
    g_autoptr (KernInstance) k = make (preset_spec (p), "pmpp-tiled", 64, NULL);
    guint64 ops[INSTR_N_OPS], sectors;
    cr_assert_eq (kern_blocks (k), 16);
    cr_assert_eq (k->threads, 256);
    cr_assert_eq (k->static_smem, 2 * 16 * 16 * 4);
    count (k, ops, &sectors);
    cr_assert_eq (ops[INSTR_BAR], 16 * 8 * 4 * 2);
    cr_assert_eq (ops[INSTR_FFMA], 16 * 8 * 4 * 16);
    cr_assert_eq (ops[INSTR_LDG], 1024);
    cr_assert_eq (ops[INSTR_STG], 16 * 8);
    /* A warp's M load covers two 16-float rows (2 x 64 B, 2 sectors
     * each): 4 sectors; its N load the same. */
    cr_assert_eq (sectors, 1024 * 4);
    /* The dynamic version moves the tiles to dynamic shared memory. */
    g_autoptr (KernInstance) d = make (preset_spec (p), "pmpp-tiled", 64, "DYNAMIC=1");
    cr_assert_eq (d->static_smem, 0);
    cr_assert_eq (d->dyn_smem, 2 * 16 * 16 * 4);
}
