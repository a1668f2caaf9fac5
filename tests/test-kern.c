/*
 * test-kern.c -- kernel models: instruction counts from hand formulas,
 * addresses, launches, and rejected parameters; and `run_kernel` on the
 * microbenchmarks against the presets' sourced latencies.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "models/csv.h"
#include "models/kern.h"
#include "models/kgen.h"
#include "models/probe.h"
#include "models/ref.h"
#include "models/run.h"
#include "models/run_kinds.h"
#include "models/run_marks.h"
#include "models/run_replay.h"
#include "models/run_sample.h"
#include "models/run_tail.h"
#include "models/run_waves.h"
#include "models/validate.h"
#include "sim/coal.h"
#include "sim/regfile.h"
#include "testutil.h"

/* An instance of 'id' with the NULL-terminated 'params' (may be NULL). */
static KernInstance *
make_with (const GpuSpec *spec, const char *id, gint64 size,
           const char *const *params)
{
    g_autoptr (GError) error = NULL;
    const KernModel *m = kern_find (id);
    cr_assert_not_null (m, "%s", id);
    KernInstance *k = kern_instance_new (m, spec, size, params, &error);
    cr_assert_not_null (k, "%s: %s", id, error ? error->message : "");
    return k;
}

static KernInstance *
make (const GpuSpec *spec, const char *id, gint64 size, const char *p0)
{
    const char *params[] = { p0, NULL };
    return make_with (spec, id, size, params);
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
    RunOptions o = { .regs = -1, .smem = -1, .mode = RUN_EXACT };
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

/* smemld through run_kernel: 32 warps keep one SM's shared memory busy,
 * so each load takes its wavefronts in cycles (32 banks of 4 B, one
 * wavefront a cycle: smem_bytes_per_clk 128), and the run counts them
 * exactly.  The wavefronts by hand, bank = word % 32, 64-bit loads in
 * half-warp phases, 128-bit in quarter-warp ones, a phase costing the
 * distinct words of its busiest bank:
 *   uniform: one word (or one 8/16-B chunk) per phase: 1 a phase;
 *   k6-bs (lane l at (l % 16) x 32 B): at 4 B, 16 words 8 apart, 4 in
 *     each of banks 0, 8, 16, 24: 4; at 16 B a quarter reaches 8 chunks
 *     32 B apart, two on each group of 4 banks: 2 a quarter, 8;
 *   rows: consecutive, 1 a phase; stride2: every other word or chunk,
 *     2 a phase. */
Test (kern, smemld_takes_its_wavefronts)
{
    static const struct {
        const char *width, *pattern;
        int wavefronts;
    } cases[] = {
        { "WIDTH=4", "PATTERN=0", 1 },  { "WIDTH=16", "PATTERN=0", 4 },
        { "WIDTH=8", "PATTERN=0", 2 },  { "WIDTH=16", "PATTERN=1", 4 },
        { "WIDTH=4", "PATTERN=2", 4 },  { "WIDTH=16", "PATTERN=2", 8 },
        { "WIDTH=16", "PATTERN=3", 4 }, { "WIDTH=4", "PATTERN=4", 2 },
        { "WIDTH=8", "PATTERN=4", 4 },
    };
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *s = preset_spec (p);
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        const char *params[] = { cases[i].width, cases[i].pattern, "ITERS=8",
                                 NULL };
        g_autoptr (KernInstance) k = make_with (s, "smemld", 32, params);
        RunOptions o = { .regs = -1, .smem = -1, .mode = RUN_EXACT };
        RunResult r;
        g_autoptr (GError) error = NULL;
        cr_assert (run_kernel (s, k, &o, &r, &error), "%s",
                   error ? error->message : "");
        guint64 loads = 32 * 8 * 64;  /* warps x iterations x loads */
        guint64 want = loads * (guint64) cases[i].wavefronts;
        cr_expect_eq (r.mem.smem_requests, loads, "%s %s", cases[i].width,
                      cases[i].pattern);
        cr_expect_eq (r.mem.smem_wavefronts, want, "%s %s: %" G_GUINT64_FORMAT
                      " wavefronts, expected %" G_GUINT64_FORMAT,
                      cases[i].width, cases[i].pattern, r.mem.smem_wavefronts,
                      want);
        /* The floor is the wavefronts; a tenth more for the warps'
         * scheduling, which leaves the queue empty now and then. */
        cr_expect (r.cycles >= want && r.cycles <= want + want / 10,
                   "%s %s: %" G_GUINT64_FORMAT " cycles, expected %"
                   G_GUINT64_FORMAT " to a tenth more", cases[i].width,
                   cases[i].pattern, r.cycles, want);
    }
}

/* The same with mem.smem_merge_phases: the whole warp one phase, so a
 * warp-uniform 128-bit load is 1 wavefront (words 0-3, a bank each),
 * not 4, and kernel 6's Bs pattern 4 (16 chunks 32 B apart, 4 to each
 * group of 4 banks), not 8; the run counts them so, and the uniform
 * loads go under the split's 4 cycles each (the floor is then 1, with
 * 3 instructions a load on 4 schedulers behind it). */
Test (kern, smemld_merged_phases)
{
    const char *sets[] = { "mem.smem_merge_phases=true", NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load ("a6000", NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    const GpuSpec *s = preset_spec (p);
    const struct {
        const char *pattern;
        int wavefronts;
    } cases[] = { { "PATTERN=0", 1 }, { "PATTERN=2", 4 } };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        const char *params[] = { "WIDTH=16", cases[i].pattern, "ITERS=8",
                                 NULL };
        g_autoptr (KernInstance) k = make_with (s, "smemld", 32, params);
        RunOptions o = { .regs = -1, .smem = -1, .mode = RUN_EXACT };
        RunResult r;
        cr_assert (run_kernel (s, k, &o, &r, &error), "%s",
                   error ? error->message : "");
        guint64 loads = 32 * 8 * 64;
        cr_expect_eq (r.mem.smem_wavefronts,
                      loads * (guint64) cases[i].wavefronts, "%s",
                      cases[i].pattern);
        if (cases[i].wavefronts == 1)
            cr_expect_lt (r.cycles, 2 * loads, "%" G_GUINT64_FORMAT,
                          r.cycles);
    }
}

/* kernels/cuda/probes.cu's icache loop with fetch modelled (icache.h),
 * its keys set here, not the preset's: 16 KB L0s, no L1, a line 33 + 250
 * = 283 cycles away, 4 lines asked for ahead; and register reads that
 * never conflict (regfile.banks 0), so that a warp with its instructions
 * at hand issues one a cycle (the FFMAs' 8 chains cover their 4-cycle
 * latency).  One warp a sub-partition.  N = 4096: the loop's 4099
 * instructions are 512.4 lines of 8 and miss every one each pass
 * (test-icache): 5 lines every 283 + 8 cycles (test-icache's stream),
 * and the branch back to the loop's head waits a whole latency.  N =
 * 256: 32.4 lines fit the L0 (128 lines) and miss on the first pass
 * alone, as the big loop's do; then one instruction a cycle.  The lines
 * missed, each sub-partition's: the prologue's BAR and the loop are
 * 1 + 4099 instructions, lines 0-512, and the prefetcher asks for 4
 * past them, every pass: 64 x 517; or 1 + 259, lines 0-32, and 4 past
 * them, once: 37.  With no L1 every one misses there too. */
Test (kern, iloop_waits_for_lines_it_outgrows)
{
    const char *sets[] = { "fetch.l0_bytes=16384", "fetch.l1_bytes=0",
                           "fetch.l0_miss_cycles=33", "fetch.l1_miss_cycles=250",
                           "fetch.prefetch_lines=4", "fetch.l1_line_cycles=1",
                           "regfile.banks=0", NULL };
    enum { ITERS = 64 };
    const double line = (283.0 + 8) / 5;
    const struct {
        const char *n;
        double want;            /* cycles */
        gboolean waits;         /* mostly for instructions */
        guint64 lines;          /* missed, by the 4 sub-partitions */
    } cases[] = {
        { "N=256", ITERS * 259 + 283 + 259 / 8.0 * line, FALSE, 4 * 37 },
        { "N=4096", ITERS * (283 + 4099 / 8.0 * line), TRUE,
          4 * ITERS * 517 },
    };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load ("a6000", NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    const GpuSpec *s = preset_spec (p);
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        const char *params[] = { cases[i].n, "ITERS=64", NULL };
        g_autoptr (KernInstance) k = make_with (s, "iloop", 4, params);
        RunOptions o = { .regs = -1, .smem = -1, .mode = RUN_EXACT };
        RunResult r;
        cr_assert (run_kernel (s, k, &o, &r, &error), "%s",
                   error ? error->message : "");
        cr_expect (fabs ((double) r.cycles - cases[i].want) <=
                       0.05 * cases[i].want,
                   "%s: %" G_GUINT64_FORMAT " cycles, expected %.0f within "
                   "5 %%", cases[i].n, r.cycles, cases[i].want);
        cr_expect_eq (r.stats.fetch_l0_misses, cases[i].lines,
                      "%s: %" G_GUINT64_FORMAT " lines missed", cases[i].n,
                      r.stats.fetch_l0_misses);
        cr_expect_eq (r.stats.fetch_l1_misses, cases[i].lines);
        guint64 waits = r.stats.warp_cycles[STALL_NO_INSTRUCTION];
        cr_expect ((waits * 2 > r.stats.resident_warp_cycles) == cases[i].waits,
                   "%s: %" G_GUINT64_FORMAT " warp cycles of %" G_GUINT64_FORMAT
                   " waiting for instructions", cases[i].n, waits,
                   r.stats.resident_warp_cycles);
    }
}

/* run_sample_combine: total = a x times_a + (b - c) x times_bc, each
 * counter rounded to the nearest whole count, never below zero.
 * cycles: 3 x 0.9 = 2.7 -> 3 (cut, it was 2); warp instructions:
 * (10 - 4) x 0.25 = 1.5 -> 2 (cut, 1); DRAM bytes read: 1 x 0.9 +
 * (0 - 8) x 0.25 = -1.1 -> 0; L2 sectors: 10 x 0.9 + (7 - 3) x 0.25 =
 * 9 + 1 = 10. */
Test (kern, combined_samples_round_to_the_nearest_count)
{
    RunSample a = { 0 }, b = { 0 }, c = { 0 }, total;
    a.st.cycles = 3;
    b.st.warp_instructions = 10;
    c.st.warp_instructions = 4;
    a.mem.dram_read_bytes = 1;
    c.mem.dram_read_bytes = 8;
    a.mem.l2_sectors = 10;
    b.mem.l2_sectors = 7;
    c.mem.l2_sectors = 3;
    memset (&total, 0xff, sizeof total);
    run_sample_combine (&total, &a, 0.9, &b, &c, 0.25);
    cr_expect_eq (total.st.cycles, 3);
    cr_expect_eq (total.st.warp_instructions, 2);
    cr_expect_eq (total.mem.dram_read_bytes, 0);
    cr_expect_eq (total.mem.l2_sectors, 10);
    cr_expect_eq (total.st.active_cycles, 0);
}

/* What a progress callback saw. */
typedef struct {
    guint calls;
    guint64 done[40], total;
} Seen;

static void
seen (void *ctx, guint64 done, guint64 total)
{
    Seen *s = ctx;
    if (s->calls < G_N_ELEMENTS (s->done))
        s->done[s->calls] = done;
    s->calls++;
    s->total = total;
}

static void
run_seen (const char *id, gint64 size, int detailed, guint64 launches,
          Seen *got)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (KernInstance) k = make (s, id, size, NULL);
    RunOptions o = { .regs = -1, .smem = -1, .mode = RUN_EXACT,
                     .detailed_sms = detailed, .progress = seen,
                     .progress_ctx = got, .launches = launches };
    RunResult r;
    g_autoptr (GError) error = NULL;
    *got = (Seen) { 0 };
    cr_assert (run_kernel (s, k, &o, &r, &error), "%s",
               error ? error->message : "");
}

/* A run tells of none done as it starts, then of every block an SM in
 * full retires.  sgemm-4 at 256 is 256 / 64 = 4 x 4 = 16 blocks (BM =
 * BN = 64), one an SM on the A6000's 84: every SM in full, 0, 1, 2 ...
 * 16 of 16.  With 3 in full the others mirror them (gpu.h): SMs 0-2
 * take blocks 0-2 and the mirrors the other 13, so each of the three
 * retirements stands for 16 / 3 blocks: 0, 5, 10, 16 of 16.  With a
 * warm-up launch (RunOptions.launches), each launch is half the bar:
 * 0 ... 16 of 32, then 16 ... 32. */
Test (kern, run_reports_progress)
{
    Seen got;
    run_seen ("sgemm-4", 256, 0, 50, &got);
    cr_expect_eq (got.calls, 34);
    cr_expect_eq (got.total, 32);
    for (guint i = 0; i < MIN (got.calls, 34); i++)
        cr_expect_eq (got.done[i], i <= 16 ? i : i - 1, "call %u", i);
    run_seen ("sgemm-4", 256, 0, 1, &got);
    cr_expect_eq (got.calls, 17);
    cr_expect_eq (got.total, 16);
    for (guint i = 0; i < MIN (got.calls, 17); i++)
        cr_expect_eq (got.done[i], i, "call %u", i);
    run_seen ("sgemm-4", 256, 3, 1, &got);
    cr_expect_eq (got.calls, 4);
    cr_expect_eq (got.total, 16);
    const guint64 want[] = { 0, 5, 10, 16 };
    for (guint i = 0; i < MIN (got.calls, 4); i++)
        cr_expect_eq (got.done[i], want[i], "call %u: %" G_GUINT64_FORMAT,
                      i, got.done[i]);
}

/* Every call a progress callback saw. */
static void
seen_all (void *ctx, guint64 done, guint64 total)
{
    GArray *calls = ctx;
    guint64 call[2] = { done, total };
    g_array_append_vals (calls, call, 2);
}

/* Where the L2 is replayed (warm_launches), the replay has the first
 * half of the timed launch's half of the bar, its W waves reported at
 * 0, 1 ... W: of a bar of 2S (S, the warm-up's units), at (2S + iS/W) /
 * 2, between the warm-up's end at S and the timed launch's start at
 * 3S/2.  sgemm-4 at 1024 on the A100, sampled: 256 blocks, W of them
 * 108 x (blocks an SM) a wave; the bar then runs to 2S of 2S.  Where
 * the launch is taken as cold instead, the bar ends too. */
Test (kern, a_replay_has_its_share_of_the_bar, .timeout = 60)
{
    g_autoptr (Preset) p = tu_preset ("a100");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (KernInstance) k = make (s, "sgemm-4", 1024, NULL);
    g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (guint64));
    RunOptions o = { .regs = -1, .smem = -1, .mode = RUN_SAMPLED,
                     .progress = seen_all, .progress_ctx = calls,
                     .launches = 50 };
    RunResult r;
    g_autoptr (GError) error = NULL;
    cr_assert (run_kernel (s, k, &o, &r, &error), "%s",
               error ? error->message : "");
    cr_assert_eq (r.warm, RUN_WARM_REPLAYED);
    const guint64 *c = (const guint64 *) (void *) calls->data;
    guint n = calls->len / 2;
    cr_assert_gt (n, 0);
    guint64 whole = c[2 * (n - 1) + 1], half = whole / 2;
    guint64 waves = (256 + 108 * (guint64) r.occ.blocks_per_sm - 1) /
                    (108 * (guint64) r.occ.blocks_per_sm);
    cr_assert_gt (waves, 1, "a replay of one wave reports nothing inside");
    cr_expect_eq (c[2 * (n - 1)], whole, "the bar ends at %" G_GUINT64_FORMAT
                  " of %" G_GUINT64_FORMAT, c[2 * (n - 1)], whole);
    /* The calls strictly inside the replay's quarter, in order. */
    guint64 want = 1;
    for (guint i = 0; i < n; i++) {
        guint64 at = c[2 * i];
        cr_expect_eq (c[2 * i + 1], whole);
        if (at <= half || at >= half + half / 2)
            continue;
        cr_expect_eq (at, (2 * half + want * half / waves) / 2,
                      "call %u at %" G_GUINT64_FORMAT ": wave %" G_GUINT64_FORMAT
                      " of %" G_GUINT64_FORMAT, i, at, want, waves);
        want++;
    }
    cr_expect_eq (want, waves, "%" G_GUINT64_FORMAT " calls inside the "
                  "replay's quarter, want %" G_GUINT64_FORMAT, want - 1,
                  waves - 1);

    /* Taken as cold (12 MB in an L2 of 4 MB): no timed launch, and the
     * bar ends all the same. */
    const char *sets[] = { "device.l2_kib=4096", NULL };
    g_autoptr (Preset) small = preset_load ("a100", NULL, sets, &error);
    cr_assert_not_null (small);
    g_autoptr (KernInstance) k4 = make (preset_spec (small), "sgemm-4", 1024,
                                        NULL);
    g_array_set_size (calls, 0);
    cr_assert (run_kernel (preset_spec (small), k4, &o, &r, &error), "%s",
               error ? error->message : "");
    cr_assert_eq (r.warm, RUN_WARM_OUTGROWN);
    c = (const guint64 *) (void *) calls->data;
    n = calls->len / 2;
    cr_assert_gt (n, 0);
    cr_expect (c[2 * (n - 1)] == c[2 * (n - 1) + 1] && c[2 * (n - 1)] > 0,
               "the bar ends at %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT,
               c[2 * (n - 1)], c[2 * (n - 1) + 1]);
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

static const char *const mix_names[] = { "FFMA", "LDG", "LDG.128", "STS",
                                         "STS.128", "LDS", "LDS.64",
                                         "LDS.128", "BAR", "int", "BRA" };

static gboolean
within (int got, int want)
{
    /* The issue's 10 %, rounded down: a count under 10 must match. */
    return abs (got - want) <= want / 10;
}

static void
tally (int op, int width, Mix *m)
{
    switch (op) {
    case INSTR_FFMA: m->ffma++; break;
    case INSTR_LDG: *(width == 16 ? &m->ldg128 : &m->ldg) += 1; break;
    case INSTR_STS: *(width == 16 ? &m->sts128 : &m->sts) += 1; break;
    case INSTR_LDS:
        *(width == 16 ? &m->lds128 : width == 8 ? &m->lds64 : &m->lds) += 1;
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
        for (guint j = 0; j < body->len; j++) {
            const KOp *o = &g_array_index (body, KOp, j);
            tally (o->op, o->width, &g);
        }
        const int *want = &w->ffma, *got = &g.ffma;
        for (int c = 0; c < 11; c++)
            cr_expect (within (got[c], want[c]), "%s: %s %d per iteration, "
                       "SASS %d", id, mix_names[c], got[c], want[c]);
    }
}

/* Kernel 11 per 2·BK step (32 k values).  A warp plays only its half's
 * load block, so sassmix.py counts a warp's path averaged over the two
 * halves (kernels/cuda/README.md), and so does this test: iteration 1
 * (not the last, where neither half loads) of a warp of each half,
 * played in a window of 3.  Columns as sass_mix above; the .5s are the
 * halves' averages.
 *
 * A6000 setting: the reference SASS (sm_86, sgemm_more_sm86.sass.gz,
 * k11_double_buffering; kernels/cuda/sass_mix.csv "reference"); IMAD
 * 5.5 + INT_ALU 58 + MOV 1 + OTHER 5 = 69.5.  Our CUDA source
 * (kernels/cuda/sgemm.cuh sgemm11, "ours") has the same FFMA, LDS,
 * LDG, STS and BAR counts but 10 more integer instructions (IMAD 7.5,
 * INT_ALU 65, MOV 2: 79.5) and a fourth branch, which skips stage 1
 * when its slice is past K (K / BK odd); the reference does not check.
 *
 * A100 setting (sgemm11<64,128,16,32,32,2,4,4,256>): no reference SASS
 * exists for it, so ours (sm_80, kernels/cuda/sass_mix.csv
 * "sgemm-11/a100", unsigned indices): IMAD 3.5 + INT_ALU 27.5 + MOV 3 +
 * UNIFORM 14.5 + OTHER 5 + one HFMA2.MMA (FP_OTHER: nvcc's register
 * move) = 54.5, and its 4 branches. */
static const char *const k11_a100[] = { "BM=64", "BN=128", "BK=16", "WM=32",
                                        "WN=32", "WNITER=2", "TM=4", "TN=4",
                                        NULL };

/* Tally warp 'warp''s instructions of main-loop iteration 'iter' of a
 * stream of 'iterations'. */
static void
tally_iteration (const KernInstance *k, int warp, guint64 iter,
                 guint64 iterations, Mix *m)
{
    g_autoptr (InstrStream) s = kern_open_warp_window (k, 0, warp, iterations);
    const Instr *in;
    while ((in = instr_stream_next (s)) != NULL) {
        int seg = -1;
        guint64 at = 0;
        cr_assert (kgen_stream_position (s, &seg, &at));
        if (seg == KGEN_BODY && at == iter)
            tally (in->op, in->width, m);
    }
}

static void
check_k11_mix (const GpuSpec *spec, const char *const *params, gint64 size,
               const double *want, const char *what)
{
    g_autoptr (KernInstance) k = make_with (spec, "sgemm-11", size, params);
    int warps = kern_warps (k);
    Mix half0 = { 0 }, half1 = { 0 }, other = { 0 };
    tally_iteration (k, 0, 1, 3, &half0);
    tally_iteration (k, warps - 1, 1, 3, &half1);
    /* Every warp of a half plays the same path. */
    tally_iteration (k, warps / 2 - 1, 1, 3, &other);
    cr_expect (memcmp (&other, &half0, sizeof other) == 0, "%s", what);
    const int *a = &half0.ffma, *b = &half1.ffma;
    for (int c = 0; c < 11; c++) {
        double got = (a[c] + b[c]) / 2.0;
        /* 10 %, and a count under 10 must match. */
        gboolean ok = want[c] < 10 ? got == want[c]
                                   : fabs (got - want[c]) <= 0.1 * want[c];
        cr_expect (ok, "sgemm-11 %s: %s %.1f per iteration, SASS %.1f", what,
                   mix_names[c], got, want[c]);
    }
}

Test (kern, sgemm11_mix_matches_sass)
{
    /* FFMA, LDG, LDG.128, STS, STS.128, LDS, LDS.64, LDS.128, BAR, int, BRA */
    static const double a6000[] = { 4096, 0, 12, 16, 8, 0, 0, 192, 2, 69.5, 3 };
    static const double a100[] = { 1024, 0, 6, 8, 4, 0, 0, 96, 2, 54.5, 4 };
    g_autoptr (Preset) p6 = tu_preset ("a6000");
    g_autoptr (Preset) p1 = tu_preset ("a100");
    check_k11_mix (preset_spec (p6), NULL, 256, a6000, "a6000 setting");
    check_k11_mix (preset_spec (p1), k11_a100, 256, a100, "a100 setting");
}

/* The launch of kernels/cuda/README.md: grid (N/256, M/128), 256
 * threads, 2 x (128 x 16 + 16 x 256) x 4 = 49152 B; A100 setting grid
 * (N/128, M/64), 2 x (64 x 16 + 16 x 128) x 4 = 24576 B.  Registers
 * from kernels/cuda/registers.csv (sm_86 174; sm_80 a100 70). */
Test (kern, sgemm11_launch)
{
    g_autoptr (Preset) p6 = tu_preset ("a6000");
    g_autoptr (Preset) p1 = tu_preset ("a100");
    g_autoptr (KernInstance) k = make (preset_spec (p6), "sgemm-11", 4096, NULL);
    cr_assert_eq (k->grid_x, 16);
    cr_assert_eq (k->grid_y, 32);
    cr_assert_eq (k->threads, 256);
    cr_assert_eq (k->static_smem, 49152);
    cr_assert_eq (k->regs, 174);
    cr_assert_eq (k->iterations, 4096 / 32);
    g_autoptr (KernInstance) a = make_with (preset_spec (p1), "sgemm-11", 4096,
                                            k11_a100);
    cr_assert_eq (a->grid_x, 32);
    cr_assert_eq (a->grid_y, 64);
    cr_assert_eq (a->static_smem, 24576);
    cr_assert_eq (a->regs, 70);
}

/* One block of kernel 11, every warp played whole, its accesses checked
 * against the algorithm: size 256 on the A6000 setting, block 1 (blockIdx
 * (0, 1): rows 128..255 of A and C, columns 0..255 of B and C).  K has 16
 * slices of BK = 16; the loop runs 8 steps. */
typedef struct {
    guint64 a_base, b_base;     /* where A[0][0] and B[0][0] are */
    int bar[8];                 /* barriers per warp */
    GHashTable *a_seen, *b_seen;   /* float address -> loads */
    gboolean half_ok, stage_ok, rows_ok;
    guint64 a_floats, b_floats;
    guint64 lds_stage[2];       /* LDS.128 per stage, all warps */
} K11Block;

static void
k11_global (K11Block *r, const Instr *in, int warp)
{
    int half = warp / 4;
    for (int lane = 0; lane < 32; lane++) {
        guint64 addr = instr_lane_addr (in, lane);
        gboolean is_a = addr < r->b_base;
        guint64 elem = (addr - (is_a ? r->a_base : r->b_base)) / 4;
        guint64 row = elem / 256, col = elem % 256;
        /* A: column col, slice col / 16; B: row 'row', slice row / 16;
         * even slices are half 0's, odd half 1's. */
        guint64 slice = (is_a ? col : row) / 16;
        r->half_ok &= (int) (slice % 2) == half;
        if (is_a)
            r->rows_ok &= row >= 128 && row < 256;
        for (int f = 0; f < 4; f++) {
            GHashTable *t = is_a ? r->a_seen : r->b_seen;
            gpointer key = GSIZE_TO_POINTER (addr + 4 * (guint64) f);
            g_hash_table_insert (t, key, GINT_TO_POINTER (
                GPOINTER_TO_INT (g_hash_table_lookup (t, key)) + 1));
            *(is_a ? &r->a_floats : &r->b_floats) += 1;
        }
    }
}

/* Shared memory: As stages at 0 and 8192, Bs stages at 16384 and 32768
 * (As declared first, 2 x 128 x 16 floats; Bs 2 x 16 x 256). */
static int
k11_stage (guint64 addr)
{
    if (addr < 16384)
        return addr < 8192 ? 0 : 1;
    return addr < 32768 ? 0 : 1;
}

Test (kern, sgemm11_block_accesses)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    g_autoptr (KernInstance) k = make (preset_spec (p), "sgemm-11", 256, NULL);
    K11Block r = { 0 };
    r.a_seen = g_hash_table_new (NULL, NULL);
    r.b_seen = g_hash_table_new (NULL, NULL);
    r.half_ok = r.stage_ok = r.rows_ok = TRUE;
    /* A[0][0]: block 0's warp 0 lane 0 first load (thread 0: aRow 0,
     * aCol4 0, slice 0); B[0][0]: its first B load (bRow 0, bCol4 0). */
    {
        g_autoptr (InstrStream) s = kern_open_warp (k, 0, 0);
        const Instr *in;
        int n = 0;
        while ((in = instr_stream_next (s)) != NULL && n < 5)
            if (in->op == INSTR_LDG) {
                if (n == 0)
                    r.a_base = instr_lane_addr (in, 0);
                if (n == 4)   /* 4 A loads (128 x 16 / 128 threads / 4), then B */
                    r.b_base = instr_lane_addr (in, 0);
                n++;
            }
    }
    for (int w = 0; w < 8; w++) {
        g_autoptr (InstrStream) s = kern_open_warp (k, 1, w);
        const Instr *in;
        int lds_in_iter = 0;
        guint64 last_iter = G_MAXUINT64;
        while ((in = instr_stream_next (s)) != NULL) {
            int seg = -1;
            guint64 iter = 0;
            cr_assert (kgen_stream_position (s, &seg, &iter));
            if (seg == KGEN_BODY && iter != last_iter) {
                last_iter = iter;
                lds_in_iter = 0;
            }
            if (in->op == INSTR_BAR)
                r.bar[w]++;
            else if (in->op == INSTR_LDG && seg != KGEN_EPILOGUE)
                k11_global (&r, in, w);
            else if (in->op == INSTR_STS)
                for (int lane = 0; lane < 32; lane++)
                    r.stage_ok &= k11_stage (instr_lane_addr (in, lane)) == w / 4;
            else if (in->op == INSTR_LDS) {
                /* Stage 0's 96 reads, then stage 1's. */
                int stage = lds_in_iter++ < 96 ? 0 : 1;
                for (int lane = 0; lane < 32; lane++)
                    r.stage_ok &= k11_stage (instr_lane_addr (in, lane)) == stage;
                r.lds_stage[stage]++;
            }
        }
    }
    for (int w = 0; w < 8; w++)
        cr_expect_eq (r.bar[w], 1 + 2 * 8, "warp %d", w);
    cr_expect (r.half_ok, "a half loaded the other half's slice");
    cr_expect (r.stage_ok, "a shared access in the wrong stage");
    cr_expect (r.rows_ok, "an A load outside the block's rows");
    /* Every float of the block's A rows (128 x 256) and B columns (256
     * x 256) loaded exactly once. */
    cr_expect_eq (r.a_floats, 128 * 256);
    cr_expect_eq (g_hash_table_size (r.a_seen), 128 * 256);
    cr_expect_eq (r.b_floats, 256 * 256);
    cr_expect_eq (g_hash_table_size (r.b_seen), 256 * 256);
    /* 8 warps x 8 steps x 96 LDS.128 per stage. */
    cr_expect_eq (r.lds_stage[0], 8 * 8 * 96);
    cr_expect_eq (r.lds_stage[1], 8 * 8 * 96);
    g_hash_table_destroy (r.a_seen);
    g_hash_table_destroy (r.b_seen);
}

/* Lane addresses worked by hand from sgemm.cuh (A6000 setting, size
 * 256, block 1: cRow 1, cCol 0). */
Test (kern, sgemm11_lane_addresses)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    g_autoptr (KernInstance) k = make (preset_spec (p), "sgemm-11", 256, NULL);
    guint64 a_base = 0;
    const Instr *in;
    {
        g_autoptr (InstrStream) s = kern_open_warp (k, 0, 0);
        while ((in = instr_stream_next (s)) != NULL && in->op != INSTR_LDG)
            ;
        a_base = instr_lane_addr (in, 0);     /* A[0][0], as above */
    }
    /* Warp 5 (half 1) lane 3: thread 163, lt = 35, aRow = 35 / (16/4) =
     * 8, aCol4 = 3; its first load is slice 1's A: A[128 + 8][16 + 12]. */
    g_autoptr (InstrStream) s = kern_open_warp (k, 1, 5);
    while ((in = instr_stream_next (s)) != NULL && in->op != INSTR_LDG)
        ;
    cr_assert_eq (instr_lane_addr (in, 3), a_base + ((128 + 8) * 256 + 16 + 12) * 4);
    /* Its first shared stores: As stage 1, transposed, As[(aCol4 * 4 +
     * i) * BM + aRow] for i = 0..3: 8192 + ((12 + i) * 128 + 8) * 4. */
    for (int i = 0; i < 4; i++) {
        while ((in = instr_stream_next (s)) != NULL && in->op != INSTR_STS)
            ;
        cr_assert_eq (instr_lane_addr (in, 3), 8192 + (guint64) ((12 + i) * 128 + 8) * 4,
                      "component %d", i);
    }
    /* Warp 2 lane 5 in stage 1 of the first step, dot step 0: warpRow =
     * 2 / (256/32) = 0, warpCol = 2, tRowW = 5 / (32/8) = 1, tColW =
     * 5 % 4 = 1.  First As read As1[0 + tRowW * TM] = 8192 + 8 * 4;
     * first Bs read Bs1[warpCol * WN + tColW * TN] = 32768 + 72 * 4.
     * Each step reads 4 As float4 then 2 Bs float4; stage 0 has 96.
     * The 4 As reads: WM = 128 in WMITER = 128 x 32 / (32 x 8 x 8) = 2
     * subtiles of WSUBM = 64 rows, TM = 8 rows (2 float4) in each:
     * As1[8 + m x 64 + 4h] for m, h = 0, 1.  The 2 Bs reads (WNITER =
     * 1, TN = 8): Bs1[72 + 4h]. */
    const guint64 want[] = { 8192 + 8 * 4, 8192 + 12 * 4, 8192 + 72 * 4,
                             8192 + 76 * 4, 32768 + 72 * 4, 32768 + 76 * 4 };
    g_autoptr (InstrStream) t = kern_open_warp (k, 1, 2);
    int lds = 0;
    while ((in = instr_stream_next (t)) != NULL) {
        if (in->op != INSTR_LDS)
            continue;
        if (lds >= 96)
            cr_assert_eq (instr_lane_addr (in, 5), want[lds - 96],
                          "read %d of the step: %" G_GUINT64_FORMAT, lds - 96,
                          instr_lane_addr (in, 5));
        if (lds == 101)
            break;
        lds++;
    }
    cr_assert_eq (lds, 101);
}

/* The epilogue's stores of C cover the block's tile once: sgemm-11 at
 * 256 on the A6000 (BM 128 x BN 256, 256 threads of 2 subtiles x 8 x
 * 8 results: 128 x 256 = 32,768 floats), block 0 (cRow 0, cCol 0), each
 * STG a float4 a lane.  C[0][0] is the lowest address stored; from it,
 * every float must fall in rows 0..127 and columns 0..255 of the 256
 * wide C, and none twice. */
Test (kern, sgemm11_stores_each_result_once)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    g_autoptr (KernInstance) k = make (preset_spec (p), "sgemm-11", 256, NULL);
    g_autoptr (GArray) addr = g_array_new (FALSE, FALSE, sizeof (guint64));
    guint64 c0 = G_MAXUINT64;
    for (int w = 0; w < 8; w++) {
        g_autoptr (InstrStream) s = kern_open_warp (k, 0, w);
        const Instr *in;
        while ((in = instr_stream_next (s)) != NULL) {
            if (in->op != INSTR_STG)
                continue;
            cr_assert_eq (in->width, 16);
            for (int lane = 0; lane < 32; lane++) {
                guint64 a = instr_lane_addr (in, lane);
                g_array_append_val (addr, a);
                c0 = MIN (c0, a);
            }
        }
    }
    cr_assert_eq (addr->len * 4, 128 * 256, "%u float4 stores", addr->len);
    g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
    for (guint i = 0; i < addr->len; i++)
        for (guint64 j = 0; j < 4; j++) {
            guint64 f = (g_array_index (addr, guint64, i) - c0) / 4 + j;
            cr_assert_lt (f / 256, 128, "row %" G_GUINT64_FORMAT, f / 256);
            g_hash_table_add (seen, GSIZE_TO_POINTER (f + 1));
        }
    cr_expect_eq (g_hash_table_size (seen), 128 * 256);
}

/* K / BK odd: the loop's last step has no stage 1.  Size 96 with 32 x
 * 32 x 32 tiles (2 warps of 16 x 32, TM = TN = 4: 16 results per
 * thread): 3 slices, 2 steps.  Per warp 1 + 2 x 2 barriers; FFMAs 3
 * slices x 32 k x 16 results, plus 16 in the epilogue; every float of
 * the three slices loaded, none past K. */
Test (kern, sgemm11_odd_slices)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    static const char *const params[] = { "BM=32", "BN=32", "BK=32", "WM=16",
                                          "WN=32", "WNITER=1", "TM=4", "TN=4",
                                          "THREADS=64", NULL };
    g_autoptr (KernInstance) k = make_with (preset_spec (p), "sgemm-11", 96,
                                            params);
    cr_assert_eq (k->iterations, 2);
    guint64 ops[INSTR_N_OPS], sectors;
    count (k, ops, &sectors);
    guint64 warps = kern_blocks (k) * 2;
    cr_expect_eq (ops[INSTR_BAR], warps * 5);
    cr_expect_eq (ops[INSTR_FFMA], warps * (3 * 32 * 16 + 16));
    /* Loads: A 32 x 96 and B 96 x 32 floats per block, as float4 over
     * 32 lanes, plus C's 16 float4 per thread in the epilogue (4 per
     * lane: 4 warp loads per warp). */
    cr_expect_eq (ops[INSTR_LDG],
                  kern_blocks (k) * (2 * 32 * 96 / 4 / 32) + warps * 4);
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

/* Kernels 1 and 2 check their bounds (kernels/cuda/sgemm.cuh), so any
 * size runs: ceil(n / 32)^2 blocks of 32 warps, and thread (row, col)
 * of C, for row and col below n, does n multiply-adds (the loop's K / 16
 * steps of 16 and the tail's K mod 16) plus beta * C's, loads 2 n floats
 * and C's, and stores C.  Lanes past C's edge take no part; a warp with
 * none left plays the prologue and EXIT alone.  Every load stays inside
 * A, B or C, n x n floats each (laid out from 2^32, 4 KiB apart). */
Test (kern, sgemm_naive_any_size)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const guint64 sizes[] = { 1, 17, 100 };
    for (int kernel = 1; kernel <= 2; kernel++)
        for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
            guint64 n = sizes[i], tiles = (n + 31) / 32;
            guint64 a = G_GUINT64_CONSTANT (1) << 32;
            guint64 bytes = (n * n * 4 + 4095) / 4096 * 4096;
            g_autofree char *id = g_strdup_printf ("sgemm-%d", kernel);
            g_autoptr (KernInstance) k = make (preset_spec (p), id,
                                               (gint64) n, NULL);
            cr_assert_eq (kern_blocks (k), tiles * tiles);
            guint64 warps = 0, ffma = 0, ffma_lanes = 0, ldg_lanes = 0;
            guint64 stg_lanes = 0, outside = 0;
            for (guint64 b = 0; b < kern_blocks (k); b++)
                for (int w = 0; w < 32; w++) {
                    g_autoptr (InstrStream) st = kern_open_warp (k, b, w);
                    const Instr *in;
                    warps++;
                    while ((in = instr_stream_next (st)) != NULL) {
                        guint64 lanes = (guint64) __builtin_popcount (in->active);
                        ffma += in->op == INSTR_FFMA;
                        ffma_lanes += in->op == INSTR_FFMA ? lanes : 0;
                        ldg_lanes += in->op == INSTR_LDG ? lanes : 0;
                        stg_lanes += in->op == INSTR_STG ? lanes : 0;
                        if (in->op != INSTR_LDG && in->op != INSTR_STG)
                            continue;
                        for (int l = 0; l < 32; l++) {
                            guint64 at = instr_lane_addr (in, l);
                            if ((in->active >> l & 1) &&
                                (at < a || at >= a + 3 * bytes ||
                                 (at - a) % bytes >= n * n * 4))
                                outside++;
                        }
                    }
                }
            cr_expect_eq (warps, tiles * tiles * 32, "%s at %lu", id, (unsigned long) n);
            cr_expect_eq (ffma, tiles * n * (n + 1), "%s at %lu", id, (unsigned long) n);
            cr_expect_eq (ffma_lanes, n * n * (n + 1), "%s at %lu", id, (unsigned long) n);
            cr_expect_eq (ldg_lanes, n * n * (2 * n + 1), "%s at %lu", id, (unsigned long) n);
            cr_expect_eq (stg_lanes, n * n, "%s at %lu", id, (unsigned long) n);
            cr_expect_eq (outside, 0, "%s at %lu", id, (unsigned long) n);
        }
}

/* What a block does (kern_block_work), by hand: of kernels 1 and 2's
 * ceil(n / 32)^2 blocks, thread (row, col) of C works for row and col
 * below n, so the blocks' lanes add up to n^2; a warp is one row of C
 * (kernel 1, warps walking its columns: min(32, n - 32 by) of them in
 * block row by) or one column (kernel 2, the same by bx), so the busy
 * warps add up to n in each of the ceil(n / 32) block rows or columns.
 * A tiled kernel's block is all of its threads. */
Test (kern, sgemm_block_work)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const guint64 sizes[] = { 1, 17, 100, 1000 };
    for (int kernel = 1; kernel <= 2; kernel++)
        for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
            guint64 n = sizes[i], tiles = (n + 31) / 32, lanes = 0, warps = 0;
            g_autofree char *id = g_strdup_printf ("sgemm-%d", kernel);
            g_autoptr (KernInstance) k = make (preset_spec (p), id,
                                               (gint64) n, NULL);
            for (guint64 b = 0; b < kern_blocks (k); b++) {
                KernBlockWork w = kern_block_work (k, b);
                lanes += w.lanes;
                warps += (guint64) w.warps;
            }
            cr_expect_eq (lanes, n * n, "%s at %lu", id, (unsigned long) n);
            cr_expect_eq (warps, tiles * n, "%s at %lu", id, (unsigned long) n);
            cr_expect_eq (k->uneven, n % 32 != 0);
        }
    g_autoptr (KernInstance) k = make (preset_spec (p), "sgemm-5", 256, NULL);
    KernBlockWork w = kern_block_work (k, kern_blocks (k) - 1);
    cr_expect_eq (w.lanes, 256);
    cr_expect_eq (w.warps, 8);
    cr_expect_not (k->uneven);
}

/* A launch whose edge blocks have idle threads is sampled as any other
 * (past 20 million warp instructions: sgemm-2 at 1000 does some n^3 / 32
 * FFMAs alone), mirrors and all: a mirror sends its own block's
 * requests, an edge block's from its busy lanes alone, and the run
 * times each kind of block on the SMs in full. */
Test (kern, uneven_blocks_are_mirrored)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *s = preset_spec (p);
    RunOptions automatic = { .regs = -1, .smem = -1, .mode = RUN_AUTO };
    g_autoptr (KernInstance) even = make (s, "sgemm-2", 1024, NULL);
    g_autoptr (KernInstance) uneven = make (s, "sgemm-2", 1000, NULL);
    cr_expect (run_should_sample (even, &automatic, kern_blocks (even)));
    cr_expect (run_should_sample (uneven, &automatic, kern_blocks (uneven)));
    /* One 1024-thread block an SM: the A6000 holds 1536 threads. */
    OccResult occ = { .blocks_per_sm = 1 };
    cr_expect_eq (run_sampled_detailed_sms (uneven, &occ, kern_blocks (uneven),
                                            s->device.sm_count, 0), 4);
    cr_expect_eq (run_sampled_detailed_sms (even, &occ, kern_blocks (even),
                                            s->device.sm_count, 0), 4);
}

/* A mirror's block counts as its own work, not its SM's block's.
 * sgemm-2 at 100 on the A6000: 16 blocks of 32 warps, 100 = 3 x 32 +
 * 4, so the last column's blocks have 4 of 32 lanes busy and the last
 * row's 4 of 32 warps (the rest exit before the loop).  Its warp
 * instructions, counted here warp by warp from the model's streams,
 * are what the whole launch issues, whether every SM runs in full or
 * one does and 15 mirror it (which counted 250,880, 16 times block
 * 0's, before the blocks' weights). */
Test (kern, mirrored_counts_go_by_each_blocks_work)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (KernInstance) k = make (s, "sgemm-2", 100, NULL);
    guint64 want = 0;
    for (guint64 b = 0; b < kern_blocks (k); b++)
        for (int w = 0; w < kern_warps (k); w++) {
            g_autoptr (InstrStream) st = kern_open_warp (k, b, w);
            while (instr_stream_next (st) != NULL)
                want++;
        }
    cr_assert (k->uneven);
    for (int detailed = 0; detailed <= 1; detailed++) {
        RunOptions o = { .regs = -1, .smem = -1, .mode = RUN_EXACT,
                         .detailed_sms = detailed };
        RunResult r;
        g_autoptr (GError) error = NULL;
        cr_assert (run_kernel (s, k, &o, &r, &error), "%s",
                   error ? error->message : "");
        cr_expect_eq (r.stats.warp_instructions, want,
                      "%d SMs in full: %" G_GUINT64_FORMAT " warp "
                      "instructions, the streams hold %" G_GUINT64_FORMAT,
                      detailed ? detailed : s->device.sm_count,
                      r.stats.warp_instructions, want);
    }
}

/* A mirror's stream gives a warp's global loads and stores, then
 * nothing, however often it is asked (sm.c asks at each of its SM's
 * requests).  At 600 = 18 x 32 + 24 kernel 2's last grid row of blocks
 * has 24 warps with rows of C and 8 without, which exit before the
 * loop: their mirror streams give nothing at all.  They once went on
 * to the epilogue's loads and C's stores when asked again. */
Test (kern, mirror_streams_end_for_good)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    g_autoptr (KernInstance) k = make (preset_spec (p), "sgemm-2", 600, NULL);
    guint64 corner = kern_blocks (k) - 1;
    int idle = 0;
    for (int w = 0; w < kern_warps (k); w++) {
        g_autoptr (InstrStream) full = kern_open_warp (k, corner, w);
        g_autoptr (InstrStream) lg = kern_open_mirror_window (k, corner, w,
                                                              k->iterations);
        guint64 n_full = 0, n_lg = 0;
        const Instr *in;
        idle += !kern_stream_plays_loop (full);
        while ((in = instr_stream_next (full)) != NULL)
            n_full += instr_info (in->op)->pipe == PIPE_LG;
        while (instr_stream_next (lg) != NULL)
            n_lg++;
        for (int again = 0; again < 3; again++)
            cr_expect_null (instr_stream_next (lg), "warp %d, asked again", w);
        cr_expect_eq (n_lg, n_full, "warp %d: %" G_GUINT64_FORMAT " of %"
                      G_GUINT64_FORMAT " loads and stores", w, n_lg, n_full);
        if (!kern_stream_plays_loop (full))
            cr_expect_eq (n_lg, 0, "idle warp %d", w);
    }
    cr_expect_eq (idle, 8);
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
        /* Kernel 3 takes no parameters: its tiles are 32 x 32. */
        guint64 bk = kernel == 3 ? 32 : (guint64) kern_param (k, "BK");
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
    g_clear_error (&error);
    /* Kernel 11's 128 x 256 tile does not divide 128. */
    k = kern_instance_new (kern_find ("sgemm-11"), preset_spec (p), 128, NULL,
                           &error);
    cr_assert_null (k);
    cr_assert (g_error_matches (error, SMSIM_KERN_ERROR, KERN_ERROR_SIZE),
               "%s", error->message);
}

/* A launch whose buffers do not fit the GPU's memory never runs
 * (cudaMalloc fails first).  The A100 has 40960 MiB = 42,949,672,960
 * B.  vecadd's x, y and z take 12 B an element: 3,579,139,413 elements
 * are 42,949,672,956 B and fit, one more does not.  sgemm-5's A, B
 * and C at 65536 are 3 x 2^32 floats, 48 GiB. */
Test (kern, buffers_must_fit_device_memory)
{
    g_autoptr (Preset) p = tu_preset ("a100");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (GError) error = NULL;
    cr_assert_eq (s->device.global_mem_mib, 40960);
    g_autoptr (KernInstance) fits = make (s, "vecadd", 3579139413, NULL);
    cr_assert_float_eq (fits->device_bytes, 42949672956.0, 0.5);
    KernInstance *k = kern_instance_new (kern_find ("vecadd"), s, 3579139414,
                                         NULL, &error);
    cr_assert_null (k);
    cr_assert (g_error_matches (error, SMSIM_KERN_ERROR, KERN_ERROR_SIZE),
               "%s", error ? error->message : "no error");
    g_clear_error (&error);
    k = kern_instance_new (kern_find ("sgemm-5"), s, 65536, NULL, &error);
    cr_assert_null (k);
    cr_assert (strstr (error->message, "48.0 GiB") != NULL, "%s",
               error->message);
}

/* What a sampled run takes at the least, before it runs.  An iloop
 * warp does N + 3 instructions an iteration (N FFMAs, the counter,
 * compare and branch) and 3 besides (a barrier either side of the
 * loop, and the exit).  N = 2^20, 2^20 iterations, one block of 32
 * warps: the run starts at 64 iterations and may be cut to 32 (twice
 * the 16th, where the first wave may settle), (3 + 32 x 1048579) x 32 =
 * 1,073,744,992; a window asked for is kept, 4: (3 + 4 x 1048579) x 32
 * = 134,218,208.
 * With ITERS = 16 the launch is still sampled (past 20 million), its
 * window the whole loop, which is kept.  Exact, nothing is sampled. */
Test (kern, sampled_cost_at_the_shortest_window)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *s = preset_spec (p);
    const char *params[] = { "N=1048576", "ITERS=1048576", NULL };
    g_autoptr (KernInstance) k = make_with (s, "iloop", 32, params);
    RunOptions o = RUN_OPTIONS_INIT;
    guint64 w = 0;
    cr_assert_float_eq (run_sampled_cost (s, k, &o, &w), 1073744992.0, 0.5);
    cr_assert_eq (w, 32);
    o.window = 4;
    cr_assert_float_eq (run_sampled_cost (s, k, &o, &w), 134218208.0, 0.5);
    cr_assert_eq (w, 4);
    const char *whole[] = { "N=1048576", "ITERS=16", NULL };
    g_autoptr (KernInstance) k16 = make_with (s, "iloop", 32, whole);
    o.window = 0;
    cr_assert_float_eq (run_sampled_cost (s, k16, &o, &w),
                        (3 + 16 * 1048579.0) * 32, 0.5);
    cr_assert_eq (w, 16);
    o.mode = RUN_EXACT;
    cr_assert_float_eq (run_sampled_cost (s, k, &o, &w), 0, 0);
}

/* The error kern_instance_new gives 'id' at 'size' with the parameters
 * 'params' on an A6000 of 'mib' MiB of device memory. */
static char *
memory_error (const char *mib, const char *id, gint64 size,
              const char *const *params)
{
    g_autofree char *set = g_strconcat ("device.global_mem_mib=", mib, NULL);
    const char *sets[] = { set, NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load ("a6000", NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    KernInstance *k = kern_instance_new (kern_find (id), preset_spec (p), size,
                                         params, &error);
    cr_assert_null (k, "%s at %" G_GINT64_FORMAT " fits %s MiB", id, size,
                    mib);
    cr_assert (g_error_matches (error, SMSIM_KERN_ERROR, KERN_ERROR_SIZE),
               "%s", error->message);
    return g_strdup (error->message);
}

#define cr_assert_has(text, part) \
    cr_assert (strstr ((text), (part)) != NULL, "'%s' lacks '%s'", (text), \
               (part))

/* The sizes are printed in a unit that shows them, and the message
 * names what made the buffers big: the size, or the parameter whose
 * bytes the loads reach. */
Test (kern, memory_error_shows_sizes_and_cause)
{
    /* vecadd's three buffers of 2^20 floats are 12 x 2^20 B, 12 MiB,
     * against 1 MiB (a GiB each would read 0.0 and 0.0). */
    g_autofree char *small = memory_error ("1", "vecadd", 1048576, NULL);
    cr_assert_has (small, "vecadd: size 1048576: its buffers take 12.0 MiB; "
                          "a6000 has 1.0 MiB of device memory");
    /* 89478486 elements are 1,073,741,832 B, 8 more than 1024 MiB:
     * both would read 1.0 GiB, so both are given in bytes. */
    g_autofree char *tie = memory_error ("1024", "vecadd", 89478486, NULL);
    cr_assert_has (tie, "its buffers take 1073741832 B; a6000 has 1073741824 "
                        "B of device memory");
    /* loaduse's 100 warps read a 128 B line each for 2^20 iterations:
     * 128 x 100 x 2^20 B, 12.5 GiB, of a FOOTPRINT of 1 GiB, so all of
     * it, against 512 MiB.  Fewer warps would not help while FOOTPRINT
     * stays: FOOTPRINT is named. */
    const char *reach[] = { "FOOTPRINT=1073741824", "ITERS=1048576", NULL };
    g_autofree char *loads = memory_error ("512", "loaduse", 100, reach);
    cr_assert_has (loads, "loaduse: FOOTPRINT = 1073741824: at size 100 its "
                          "loads reach 1.0 GiB of it; a6000 has 512.0 MiB of "
                          "device memory");
    cr_assert (strstr (loads, "size 100:") == NULL, "%s", loads);
}

/* Parameters a kernel does not take are refused (they changed nothing):
 * kernels 1-3 are written for one tiling, 32 x 32 threads; kernel 4
 * computes one column of TM results a thread; only kernels 10 and 11
 * have a warp tile. */
Test (kern, sgemm_refuses_parameters_it_does_not_take)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    static const struct {
        const char *id, *param, *takers;
    } bad[] = {
        { "sgemm-1", "THREADS=256", "take it: sgemm-4, sgemm-5," },
        { "sgemm-3", "BM=64", "take it: sgemm-4, sgemm-5," },
        { "sgemm-4", "TN=4", "take it: sgemm-5, sgemm-6," },
        { "sgemm-9", "WNITER=2", "take it: sgemm-10, sgemm-11;" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
        g_autoptr (GError) error = NULL;
        const char *params[] = { bad[i].param, NULL };
        KernInstance *k = kern_instance_new (kern_find (bad[i].id),
                                             preset_spec (p), 1024, params,
                                             &error);
        cr_assert_null (k, "%s %s accepted", bad[i].id, bad[i].param);
        cr_assert (g_error_matches (error, SMSIM_KERN_ERROR,
                                    KERN_ERROR_UNKNOWN) &&
                       strstr (error->message, bad[i].takers) != NULL,
                   "%s", error->message);
    }
}

/* Parameter sets the models cannot follow are refused, not simulated
 * wrongly: kernel 10 with
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
        { "sgemm-10", "WNITER=16", "TN=8", NULL, "multiple of TN" },
        { "sgemm-10", "WN=256", "WNITER=16", "TN=16", "32 lanes" },
        /* Kernel 11's halves: one warp has none to split; two warps
         * whose half (32 threads) cannot cover a 256-column Bs row in
         * float4s (64 of them). */
        { "sgemm-11", "BN=32", "THREADS=32", NULL, "multiple of 64" },
        { "sgemm-11", "WN=128", "THREADS=64", NULL, "THREADS/2" },
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

/* The probe (probe.h): one warp loops { load; use it } over one
 * 128-byte line, 10 iterations.  A warp enters an iteration when it
 * issues the last instruction of the one before (the FFMA), which
 * waits for its load: iteration 1 is entered a DRAM round trip after
 * the start (the first load misses everywhere; the preset's latency is
 * load-to-use), every later one an L1 hit plus the FFMA's issue cycle
 * after that, and the epilogue (iteration 10) one more such step on.
 * With one warp, iterations done are its own. */
typedef struct {
    const KernInstance *k;
    Probe *probe;
} Watch;

static InstrStream *
open_watched (void *ctx, guint64 block, int warp)
{
    Watch *w = ctx;
    return probe_wrap (w->probe, kern_open_warp (w->k, block, warp), block);
}

/* 'blocks' one-warp blocks of `loaduse` (10 iterations over one line)
 * on 's', watched by 'probe'. */
static void
run_watched (const GpuSpec *s, guint64 blocks, Probe *probe)
{
    const char *params[] = { "ITERS=10", "FOOTPRINT=128", NULL };
    g_autoptr (KernInstance) k = make_with (s, "loaduse", (gint64) blocks,
                                            params);
    Watch watch = { k, probe };
    GpuWorkload w = { .n_blocks = blocks, .threads_per_block = 32,
                      .max_blocks = 1, .l1_bytes = 64 * 1024,
                      .open_warp = open_watched, .ctx = &watch };
    g_autoptr (Gpu) gpu = gpu_new (s, &w);
    probe_set_gpu (probe, gpu);
    gpu_run (gpu);
    probe_set_gpu (probe, NULL);    /* the run is over: its clock goes */
}

Test (kern, probe_marks_iteration_entries)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (Probe) probe = probe_new (1, 1, 10, 1);
    run_watched (s, 1, probe);
    Cycle hit = (Cycle) s->mem.l1_hit_latency_cycles + 1;
    cr_expect_eq (probe_entered (probe, 0, 1), (Cycle) s->mem.dram_latency_cycles);
    for (guint64 i = 2; i <= 10; i++)
        cr_expect_eq (probe_entered (probe, 0, i) - probe_entered (probe, 0, i - 1),
                      hit, "iteration %" G_GUINT64_FORMAT, i);
}

/* run_tail_guess reads the probe: two one-warp blocks of 10
 * iterations (blocks 0 and 1 watched, of 3, up to 11).  Block 0 has
 * entered its 10th iteration, not an 11th.  Read as SM 0 of 2 with two
 * blocks each, SM 0's are blocks 0 and 2, and block 2 never ran. */
Test (kern, the_last_waves_guess_reads_the_blocks_progress)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (Probe) probe = probe_new (2, 1, 11, 3);
    run_watched (s, 2, probe);
    cr_expect (run_tail_guess (probe, 0, 2, 1, 10));
    cr_expect (run_tail_guess (probe, 1, 2, 1, 10));
    cr_expect_not (run_tail_guess (probe, 0, 2, 1, 11));
    cr_expect_not (run_tail_guess (probe, 0, 2, 2, 10));
    cr_expect_not (run_tail_guess (NULL, 0, 2, 1, 10));
}

/* The same block by block: two one-warp blocks, on SMs 0 and 1 (round
 * robin), each the only warp of its SM and of its block, so each
 * block's marks are the single warp's above.  Entries in a block are
 * its own: [iteration 2, iteration 5) holds the entries into 2, 3 and
 * 4.  A block the probe never watched has no warps and never
 * entered, and is none of its wave's blocks. */
Test (kern, probe_marks_each_blocks_entries)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (Probe) probe = probe_new (2, 1, 10, 3);
    run_watched (s, 2, probe);
    Cycle hit = (Cycle) s->mem.l1_hit_latency_cycles + 1;
    for (guint64 b = 0; b < 2; b++) {
        cr_expect_eq (probe_block_warps (probe, b), 1);
        cr_expect_eq (probe_block_entered (probe, b, 1),
                      (Cycle) s->mem.dram_latency_cycles, "block %" G_GUINT64_FORMAT, b);
        for (guint64 i = 2; i <= 10; i++)
            cr_expect_eq (probe_block_entered (probe, b, i) -
                          probe_block_entered (probe, b, i - 1), hit,
                          "block %" G_GUINT64_FORMAT ", iteration %" G_GUINT64_FORMAT, b, i);
        cr_expect_eq (probe_block_entries_between (probe, b,
                                                   probe_block_entered (probe, b, 2),
                                                   probe_block_entered (probe, b, 5)), 3);
    }
    cr_expect_eq (probe_block_warps (probe, 2), 0);
    cr_expect_eq (probe_warps (probe, 0), 2);
    cr_expect_eq (probe_blocks (probe, 0), 2);
    cr_expect_eq (probe_block_entered (probe, 2, 1), CYCLE_NEVER);
    cr_expect_eq (probe_block_entries_between (probe, 2, 0, CYCLE_NEVER), 0);
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
    for (int kernel = 1; kernel <= 11; kernel++) {
        g_autofree char *id = g_strdup_printf ("sgemm-%d", kernel);
        /* Kernel 11 at 512: 8 blocks, 16 steps, windows shorter than
         * the loop. */
        g_autoptr (KernInstance) k = make (s, id, kernel == 11 ? 512 : 256, NULL);
        RunOptions exact = { .regs = -1, .smem = -1, .mode = RUN_EXACT },
                   sampled = { .regs = -1, .smem = -1, .mode = RUN_SAMPLED };
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

/* A launch on the A6000 with 'set' (its SM count), run in 'mode' with
 * 'window' (0: the automatic one); 'grid_x' and 'iterations', if not
 * NULL, get the kernel's. */
static void
run_gpu_window (const char *gpu, const char *set, const char *id,
                gint64 size, RunMode mode, guint64 window, RunResult *r,
                guint64 *grid_x, guint64 *iterations)
{
    const char *sets[] = { set, NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load (gpu, NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (KernInstance) k = make (s, id, size, NULL);
    RunOptions o = { .regs = -1, .smem = -1, .mode = mode, .window = window };
    cr_assert (run_kernel (s, k, &o, r, &error), "%s",
               error ? error->message : "");
    if (grid_x != NULL)
        *grid_x = k->grid_x;
    if (iterations != NULL)
        *iterations = k->iterations;
}

static void
run_window (const char *set, const char *id, gint64 size, RunMode mode,
            guint64 window, RunResult *r, guint64 *grid_x,
            guint64 *iterations)
{
    run_gpu_window ("a6000", set, id, size, mode, window, r, grid_x,
                    iterations);
}

static void
run_on (const char *set, const char *id, gint64 size, RunMode mode,
        RunResult *r, guint64 *grid_x, guint64 *iterations)
{
    run_window (set, id, size, mode, 0, r, grid_x, iterations);
}

/* The same launch run exact and sampled. */
typedef struct {
    RunResult exact, sampled;
    guint64 grid_x, iterations;
} Both;

static void
run_both (const char *set, const char *id, gint64 size, Both *b)
{
    run_on (set, id, size, RUN_EXACT, &b->exact, NULL, NULL);
    run_on (set, id, size, RUN_SAMPLED, &b->sampled, &b->grid_x,
            &b->iterations);
    cr_assert (b->sampled.sampled);
}

/* Sampled within 2 % of exact in cycles (issue 6). */
static void
expect_cycles_close (const Both *b)
{
    double e = (double) b->exact.cycles, a = (double) b->sampled.cycles;
    cr_expect_leq (fabs (a - e) / e, 0.02, "sampled %" G_GUINT64_FORMAT
                   " (window %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                   " waves), exact %" G_GUINT64_FORMAT " cycles",
                   b->sampled.cycles, b->sampled.window, b->sampled.waves,
                   b->exact.cycles);
}

/* 'id' at 'size' on the A6000 with 'sets', sampled and exact; returns
 * the preset, whose spec '*k' and the results go with. */
static Preset *
run_a6000_both (const char *const *sets, const char *id, gint64 size,
                KernInstance **k, RunResult *sampled, RunResult *exact)
{
    g_autoptr (GError) error = NULL;
    Preset *p = preset_load ("a6000", NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    const GpuSpec *s = preset_spec (p);
    *k = make (s, id, size, NULL);
    RunOptions so = { .regs = -1, .smem = -1, .mode = RUN_SAMPLED },
               eo = { .regs = -1, .smem = -1, .mode = RUN_EXACT };
    cr_assert (run_kernel (s, *k, &so, sampled, &error), "%s",
               error ? error->message : "");
    cr_assert (run_kernel (s, *k, &eo, exact, &error), "%s",
               error ? error->message : "");
    return p;
}

/* A launch on a 12-SM A100, sampled with 4 SMs in full and exact. */
static void
run_a100_12_both (const char *id, gint64 size, RunResult *sampled,
                  RunResult *exact)
{
    const char *sets[] = { "device.sm_count=12", NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load ("a100", NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (KernInstance) k = make (s, id, size, NULL);
    RunOptions so = { .regs = -1, .smem = -1, .mode = RUN_SAMPLED,
                      .detailed_sms = 4 },
               eo = { .regs = -1, .smem = -1, .mode = RUN_EXACT };
    cr_assert (run_kernel (s, k, &so, sampled, &error), "%s",
               error ? error->message : "");
    cr_assert (run_kernel (s, k, &eo, exact, &error), "%s",
               error ? error->message : "");
}

/* A partial last wave where an SM holds two blocks (run_tail.c).
 * sgemm-10 at 768 on 12 SMs: 36 blocks of 4 warps, a wave of 24 and 12
 * more.  An SM's two, started together, retire together, so the exact
 * run gives 4 SMs two of the 12 (and 4 one), and ends with a pair;
 * mirrors dealt them out round robin, one to each SM, and a lone block
 * runs faster than a pair: 20 % short of exact.  sgemm-4 at 384, 36
 * blocks of 16 warps, which share an SM unevenly (one retires some
 * 100,000 cycles before the other, as at 1024 on the whole A100): one
 * to each SM, as round robin has it. */
Test (kern, a_partial_last_wave_goes_to_sms_as_their_slots_free,
      .timeout = 60)
{
    const struct {
        const char *id;
        gint64 size;
    } cases[] = { { "sgemm-10", 768 }, { "sgemm-4", 384 } };
    for (gsize i = 0; i < G_N_ELEMENTS (cases); i++) {
        RunResult r, e;
        run_a100_12_both (cases[i].id, cases[i].size, &r, &e);
        cr_assert_eq (r.blocks, 36);
        cr_assert_eq (r.occ.blocks_per_sm, 2);
        cr_assert_eq (r.detailed_sms, 4);
        double err = ((double) r.cycles - (double) e.cycles) /
                     (double) e.cycles;
        cr_expect_leq (fabs (err), 0.02, "%s at %" G_GINT64_FORMAT ": %"
                       G_GUINT64_FORMAT " cycles sampled, %" G_GUINT64_FORMAT
                       " exact (%+.1f %%)", cases[i].id, cases[i].size,
                       r.cycles, e.cycles, 100 * err);
    }
}

/* A run whose first wave settles early goes on with the shorter window
 * it then takes, its streams cut short in flight (run_sample.c), where
 * it used to stop and start again with it.  Either way it must be the
 * run with that window asked for, counter for counter: the streams play
 * their first iterations alike whatever their window (kgen.h), and the
 * marks the run goes by are taken at the same points.  Kernel 3 at 3072
 * on a 12-SM A6000 (4 SMs in full, 8 mirrors, whose streams are cut
 * too) settles by its 16th iteration of 96.  (A loop of 64 or fewer,
 * as at 2048, is never cut.) */
Test (kern, sampled_window_cut_in_flight_is_the_window_asked_for,
      .timeout = 120)
{
    RunResult a, b;
    guint64 iterations;
    run_window ("device.sm_count=12", "sgemm-3", 3072, RUN_SAMPLED, 0, &a,
                NULL, &iterations);
    cr_assert (a.sampled && a.detailed_sms == 4);
    cr_assert (a.window < MIN (iterations, 64), "window %" G_GUINT64_FORMAT
               " of %" G_GUINT64_FORMAT ": not shortened", a.window,
               iterations);
    run_window ("device.sm_count=12", "sgemm-3", 3072, RUN_SAMPLED, a.window,
                &b, NULL, NULL);
    cr_assert_eq (b.window, a.window);
    /* Cut, not started again: the same work as the run asked for. */
    cr_expect_eq (a.simulated_instructions, b.simulated_instructions);
    cr_expect_eq (a.events, b.events);
    cr_expect_eq (a.cycles, b.cycles);
    cr_expect_eq (memcmp (&a.stats, &b.stats, sizeof a.stats), 0);
    cr_expect_eq (memcmp (&a.mem, &b.mem, sizeof a.mem), 0);
    cr_expect_eq (a.dram_bytes, b.dram_bytes);
}

/* Sampling where the grid's rows differ: kernel 3 at 512 on an 8-SM
 * A6000 is 16 x 16 blocks of 1024 threads, one an SM, so each grid row
 * is 2 waves and the launch 32.  A row's blocks read all of B, so the
 * first row's 2 waves bring it into L2 and every later row finds it
 * there: the second wave, still in the first row, costs more than a
 * later row's waves, and a run extrapolating it made the launch 5 %
 * long.  The run takes the first row and the next; within 2 % of
 * exact in cycles (issue 6).  Its counters go by the same waves: the
 * three matrices, 1 MB each, fit the A6000's 6 MB L2, so each is read
 * from DRAM once and nothing is evicted or written back -- 3 x 512^2 x
 * 4 bytes, where scaling the first row's cold misses to all rows made
 * it 3.3 times that (as extrapolated: the L2's size would cap it at
 * the three matrices, run_counters_bound_dram); and the time warps wait
 * on global loads is the exact run's (13.7 % more with the first row's
 * rate). */
Test (kern, sampled_later_waves_from_the_second_grid_row, .timeout = 120)
{
    Both b;
    run_both ("device.sm_count=8", "sgemm-3", 512, &b);
    cr_assert_eq (b.sampled.occ.blocks_per_sm, 1);
    cr_assert_eq (b.grid_x, 16);
    cr_assert_eq (b.sampled.waves, 32);
    cr_expect_eq (b.sampled.block_kinds, 1);
    expect_cycles_close (&b);
    double dram = 3.0 * 512 * 512 * 4;
    const MemStats *x = &b.sampled.extrapolated;
    guint64 moved = x->dram_read_bytes + x->dram_write_bytes;
    cr_expect_leq (fabs ((double) moved - dram), 0.02 * dram,
                   "DRAM: sampled %" G_GUINT64_FORMAT " B, 3 matrices %.0f B",
                   moved, dram);
    double e = stats_per_issue (&b.exact.stats, STALL_LONG_SCOREBOARD);
    double a = stats_per_issue (&b.sampled.stats, STALL_LONG_SCOREBOARD);
    cr_expect_leq (fabs (a - e), 0.05 * e, "long_scoreboard: sampled %.3f, exact "
                   "%.3f per issue", a, e);
}

/* The memory counters of the iterations a window cuts go at the first
 * wave's loop's rate.  sgemm-1 at 512 on a 256-SM A6000 is one wave of
 * 16 x 16 blocks, one an SM; cut to 8 of its 32 iterations, the rest
 * are extrapolated.  Its three matrices, 1 MB each, fit the 6 MB L2:
 * each is read from DRAM once, 3 x 512^2 x 4 bytes, and nothing is
 * written back.  A block's 32 warps share A's lines and meet at no
 * barrier, so the leaders' first touches bring them in for the rest:
 * the counts between two marks of the wave's average progress hold
 * what the leaders did ahead of it, and made the DRAM bytes 2.3 times
 * that.  By the first block's retirement every warp has done its 8
 * (run_counters_first_memory).  As extrapolated, before the L2's size
 * caps the reads (run_counters_bound_dram). */
Test (kern, sampled_dram_goes_by_the_first_waves_whole_window)
{
    RunResult r;
    guint64 grid_x, iterations;
    run_window ("device.sm_count=256", "sgemm-1", 512, RUN_SAMPLED, 8, &r,
                &grid_x, &iterations);
    cr_assert_eq (grid_x * grid_x, 256);
    cr_assert_eq (r.waves, 1);
    cr_assert_eq (r.window, 8);
    cr_assert_eq (iterations, 32);
    double dram = 3.0 * 512 * 512 * 4;
    guint64 moved = r.extrapolated.dram_read_bytes +
                    r.extrapolated.dram_write_bytes;
    cr_expect_leq (fabs ((double) moved - dram), 0.02 * dram,
                   "DRAM: sampled %" G_GUINT64_FORMAT " B, 3 matrices %.0f B",
                   moved, dram);
}

/* With more than one block an SM, the waves past the first go by their
 * own rate where their loop's data stay in L2 from one wave to the
 * next.  sgemm-4 at 1024 on an 8-SM A6000: 16 x 16 blocks, two an SM,
 * 16 waves of one grid row each; a row reads its 64 rows of A and all
 * of B (4 MB), which the 6 MB L2 holds for the next row, so A, B and C
 * are each read from DRAM once: 3 x 1024^2 x 4 bytes (the exact run:
 * 12,625,792).  Scaling the run's four cold waves by the blocks, at the
 * first wave's rate, read B once a wave: 4 times that. */
Test (kern, sampled_later_waves_read_what_the_first_left_in_l2)
{
    RunResult r;
    guint64 grid_x, iterations;
    run_on ("device.sm_count=8", "sgemm-4", 1024, RUN_SAMPLED, &r, &grid_x,
            &iterations);
    cr_assert_eq (grid_x * grid_x, 256);
    cr_assert_eq (r.occ.blocks_per_sm, 2);
    cr_assert (r.window < iterations, "window %" G_GUINT64_FORMAT " of %"
               G_GUINT64_FORMAT, r.window, iterations);
    double reads = 3.0 * 1024 * 1024 * 4;
    cr_expect_leq (fabs ((double) r.mem.dram_read_bytes - reads), 0.02 * reads,
                   "DRAM reads: sampled %" G_GUINT64_FORMAT " B, 3 matrices "
                   "%.0f B", r.mem.dram_read_bytes, reads);
}

/* What the L2's size allows a sampled run's DRAM traffic
 * (run_counters_bound_dram).  sgemm-1 at 1024 on the A100: A, B and C,
 * 3 x 1024^2 x 4 bytes, fit its 40 MB L2, so each is read from DRAM
 * once and nothing is written back, where the extrapolation, a wave's
 * cold misses scaled, read 2.7 times that.  C's 1024^2 floats are each
 * stored once, by one thread: 4 MiB of sectors dirtied. */
Test (kern, sampled_dram_reads_data_that_fit_the_l2_once)
{
    RunResult r;
    run_gpu_window ("a100", NULL, "sgemm-1", 1024, RUN_SAMPLED, 0, &r, NULL,
                    NULL);
    cr_assert (r.sampled);
    double data = 3.0 * 1024 * 1024 * 4;
    cr_assert_gt ((double) r.extrapolated.dram_read_bytes, data);
    cr_expect_eq (r.mem.dram_read_bytes, (guint64) data);
    cr_expect_eq (r.mem.dram_write_bytes, 0);
    double c = 1024.0 * 1024 * 4, dirtied = 32.0 * r.mem.l2_dirtied_sectors;
    cr_expect_leq (fabs (dirtied - c), 0.01 * c, "dirtied %.0f B, C %.0f B",
                   dirtied, c);
}

/* A replay of the launch's traffic (replay_traffic, run.c) takes a
 * second or more, so it has the second half of the bar, the sampled
 * run the first: of a bar of 2S (S, the run's units), its W waves end
 * at S + iS/W, i = 1 ... W, and nothing else passes S. */
static void
expect_replay_half (GArray *calls, guint64 waves)
{
    const guint64 *c = (const guint64 *) (void *) calls->data;
    guint n = calls->len / 2;
    cr_assert_gt (n, 0);
    guint64 whole = c[2 * (n - 1) + 1], half = whole / 2, next = 1;
    cr_expect_eq (c[2 * (n - 1)], whole, "the bar ends at %" G_GUINT64_FORMAT
                  " of %" G_GUINT64_FORMAT, c[2 * (n - 1)], whole);
    for (guint i = 0; i < n; i++) {
        guint64 at = c[2 * i];
        cr_expect_eq (c[2 * i + 1], whole);
        if (at <= half)
            continue;
        guint64 want = half + (guint64) ((double) next * (double) half /
                                         (double) waves);
        cr_expect_leq (llabs ((gint64) at - (gint64) want), 1,
                       "call %u at %" G_GUINT64_FORMAT ": wave %"
                       G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " at %"
                       G_GUINT64_FORMAT, i, at, next, waves, want);
        next++;
    }
    cr_expect_eq (next, waves + 1, "%" G_GUINT64_FORMAT " calls past "
                  "half the bar, want %" G_GUINT64_FORMAT, next - 1, waves);
}

/* Where one cold wave stands for many whose data the L2 partly holds,
 * the DRAM traffic is a replay's of the launch's addresses (run.c,
 * replay_traffic).  sgemm-3 at 2048 on the A100: 64 x 64 blocks of 32 x
 * 32, two an SM, 19 waves, of which the run takes the first and the
 * partial last.  A grid row's 64 blocks share a 256 KB strip of A, and
 * every row reads all of B's 64 strips, 16 MiB; the 40 MB L2 holds B,
 * the rows' strips of A and C in flight, so each matrix is read from
 * DRAM once, 3 x 2048^2 x 4 bytes, and of C's 16 MiB stored no more
 * than that is written back.  The cold wave's misses, scaled over the
 * 19, read 3.9 times that.  With an L2 of 20 MB, less than half the
 * data, the waves find little of each other's there: no replay. */
Test (kern, sampled_dram_replays_a_cold_wave_standing_for_many,
      .timeout = 60)
{
    g_autoptr (Preset) p = tu_preset ("a100");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (KernInstance) k = make (s, "sgemm-3", 2048, NULL);
    g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (guint64));
    RunOptions o = { .regs = -1, .smem = -1, .mode = RUN_SAMPLED,
                     .progress = seen_all, .progress_ctx = calls };
    RunResult r;
    g_autoptr (GError) error = NULL;
    cr_assert (run_kernel (s, k, &o, &r, &error), "%s",
               error ? error->message : "");
    cr_assert_eq (r.waves, 19);
    expect_replay_half (calls, 19);
    cr_assert_lt (r.waves_run, 19);
    cr_expect (r.traffic_replayed);
    /* Its work, which --verbose reports: a warp of sgemm-3 loads a line
     * of A and one of B an iteration, 64 of them, and C's line, and
     * stores it: (2 x 64 + 2) lines x 32 warps x 4096 blocks. */
    cr_expect_float_eq (r.replay_lines, 130.0 * 32 * 4096, 1e-9);
    double data = 3.0 * 2048 * 2048 * 4, c = 2048.0 * 2048 * 4;
    cr_expect_leq (fabs ((double) r.mem.dram_read_bytes - data), 0.01 * data,
                   "DRAM reads %" G_GUINT64_FORMAT " B, the matrices %.0f",
                   r.mem.dram_read_bytes, data);
    cr_expect_leq ((double) r.mem.dram_write_bytes, c);
    cr_expect_gt ((double) r.extrapolated.dram_read_bytes, 2 * data);
    run_gpu_window ("a100", "device.l2_kib=20480", "sgemm-3", 2048,
                    RUN_SAMPLED, 0, &r, NULL, NULL);
    cr_expect (!r.traffic_replayed);
    cr_expect_float_eq (r.replay_lines, 0, 1e-9);
}

/* C's write-backs, which a run of a few waves does not see: sgemm-3 at
 * 768 on an 8-SM A6000 with a 3 MiB L2, 576 blocks of 32 x 32, one an
 * SM, 72 waves.  The three matrices, 2.25 MiB each, outgrow the L2, and
 * the exact run writes most of C (2.25 MiB) back as the later waves'
 * loads push it out; the sampled run's own waves pushed out next to
 * none of theirs, and its DRAM bytes, so extrapolated, came out 19 %
 * short of exact.  Each wave's stores held at the end only as far as
 * the later waves' fills leave room, within 10 % of exact. */
Test (kern, sampled_dram_writes_back_what_later_waves_push_out,
      .timeout = 120)
{
    const char *sets[] = { "device.sm_count=8", "device.l2_kib=3072", NULL };
    g_autoptr (KernInstance) k = NULL;
    RunResult r, e;
    g_autoptr (Preset) p = run_a6000_both (sets, "sgemm-3", 768, &k, &r, &e);
    cr_assert_eq (r.waves, 72);
    cr_assert_lt (r.waves_run, 72);
    double c = 768.0 * 768 * 4;
    cr_expect_leq ((double) r.mem.dram_write_bytes, c);
    double x = (double) e.dram_bytes;
    cr_expect_leq (fabs ((double) r.dram_bytes - x), 0.1 * x,
                   "DRAM: sampled %" G_GUINT64_FORMAT " B (%" G_GUINT64_FORMAT
                   " written back), exact %" G_GUINT64_FORMAT " B (%"
                   G_GUINT64_FORMAT ")", r.dram_bytes,
                   r.mem.dram_write_bytes, e.dram_bytes,
                   e.mem.dram_write_bytes);
}

/* Where a wave's loop reads more than the L2 holds before a grid row
 * on reads its data again, the window is made to read at least that
 * much, lest the later blocks find in L2 the window's data, where they
 * would not find the loop's (run_marks_l2_window).  sgemm-5 at 768
 * on a 2-SM A6000 with a 2304 KiB L2: 6 x 6 blocks of 128 x 128, two an
 * SM, 9 waves of 4, 96 iterations of BK = 8.  The first wave, blocks
 * 0-3 of grid row 0, reads each iteration 128 x 8 floats of A and 4 x 8
 * x 128 of B: 4 + 16 = 20 KiB.  A block's B is read again a grid row
 * on, 6 blocks or 1.5 waves later: 30 KiB an iteration in between,
 * 2880 KiB over the loop, more than the L2.  A window of 2304 / 30 =
 * 76.8 iterations reads as much, more than the 64 the run starts with:
 * it takes twice that, 154, the loop's 96 at most (the run, 4 waves of
 * 16 blocks, affords them).  So its later waves read from DRAM about
 * what the exact run's do: 4.6 % less, where with the window of 64 they
 * read 26 % less (13.7 MB against 18.4). */
Test (kern, sampled_window_reads_what_the_l2_holds)
{
    const char *sets[] = { "device.sm_count=2", "device.l2_kib=2304", NULL };
    g_autoptr (KernInstance) k = NULL;
    RunResult r, e;
    g_autoptr (Preset) p = run_a6000_both (sets, "sgemm-5", 768, &k, &r, &e);
    const GpuSpec *s = preset_spec (p);
    cr_assert_eq (k->grid_x * k->grid_y, 36);
    cr_assert_eq (r.occ.blocks_per_sm, 2);
    cr_assert_eq (k->iterations, 96);
    cr_assert_gt (r.waves, r.waves_run);
    cr_expect_eq (r.window, 96, "window %" G_GUINT64_FORMAT, r.window);
    double x = (double) e.mem.dram_read_bytes;
    cr_expect_leq (fabs ((double) r.mem.dram_read_bytes - x), 0.1 * x,
                   "DRAM reads: sampled %" G_GUINT64_FORMAT " B, exact %"
                   G_GUINT64_FORMAT " B", r.mem.dram_read_bytes,
                   e.mem.dram_read_bytes);
    /* Lengthened in flight, at its eighth iteration, it is the run with
     * that window asked for, counter for counter (as a window cut
     * short is: sampled_window_cut_in_flight_is_the_window_asked_for). */
    RunOptions asked = { .regs = -1, .smem = -1, .mode = RUN_SAMPLED,
                         .window = r.window };
    RunResult a;
    g_autoptr (GError) error = NULL;
    cr_assert (run_kernel (s, k, &asked, &a, &error));
    cr_expect_eq (r.simulated_instructions, a.simulated_instructions);
    cr_expect_eq (r.events, a.events);
    cr_expect_eq (r.cycles, a.cycles);
    cr_expect_eq (memcmp (&r.stats, &a.stats, sizeof a.stats), 0);
    cr_expect_eq (memcmp (&r.mem, &a.mem, sizeof a.mem), 0);
}

/* The same rule by hand (run_marks_l2_window): a 6 MiB L2 (6,291,456
 * B), a loop of 256 iterations, a run that starts with a window of 64
 * and affords up to 200, and a block's data read again 2 waves on. */
Test (kern, the_window_an_l2_asks_for_by_hand)
{
    RunFirstWave f = { .l2_bytes = 6291456, .iterations = 256,
                       .window = 64, .longest = 200, .reuse = 2 };
    /* 1 MiB read by iteration 16: 65,536 B an iteration, 131,072 over
     * the 2 waves, 32 MiB over the loop, more than the L2.  6 MiB of it
     * is 48 iterations, within the window: 48. */
    cr_expect_eq (run_marks_l2_window (&f, 1048576, 16), 48);
    /* 1,000,000 B by iteration 16: 125,000 B; 6,291,456 / 125,000 =
     * 50.33, so 51 iterations read what the L2 holds (50 read less). */
    cr_expect_eq (run_marks_l2_window (&f, 1000000, 16), 51);
    /* A window of 32 falls short of 48: twice that, 96, as the run
     * affords 200. */
    f.window = 32;
    cr_expect_eq (run_marks_l2_window (&f, 1048576, 16), 96);
    /* Half as much read, 65,536 B over the 2 waves: 96 iterations
     * needed, twice that 192, but the run affords 150: 150. */
    f.longest = 150;
    cr_expect_eq (run_marks_l2_window (&f, 524288, 16), 150);
    /* Affording 40, short of the 48 needed: no floor. */
    f.longest = 40;
    cr_expect_eq (run_marks_l2_window (&f, 1048576, 16), 0);
    /* A loop that fits: with one wave to the reuse, 65,536 B an
     * iteration over 64 iterations is 4 MiB, within 6 MiB: no floor. */
    RunFirstWave fits = { .l2_bytes = 6291456, .iterations = 64,
                          .window = 32, .longest = 64, .reuse = 1 };
    cr_expect_eq (run_marks_l2_window (&fits, 1048576, 16), 0);
    /* With 4 waves to the reuse it outgrows the L2 (16 MiB): 24. */
    fits.reuse = 4;
    cr_expect_eq (run_marks_l2_window (&fits, 1048576, 16), 24);
    /* Nothing read yet, or a run that affords no window: no floor. */
    cr_expect_eq (run_marks_l2_window (&fits, 0, 16), 0);
    fits.longest = 0;
    cr_expect_eq (run_marks_l2_window (&fits, 1048576, 16), 0);
}


/* Sampling where blocks differ: sgemm-1 at 200 on a 4-SM A6000 is 7 x 7
 * blocks, one an SM, 13 waves; its last block column has 8 of each
 * warp's 32 lanes busy (200 = 6 x 32 + 8), its last block row 8 of 32
 * warps, so those 13 blocks do a quarter of a whole one's work or less.
 * The run times each kind of block and deals the launch's blocks out
 * to the SMs as they free (run_sample.c); taking every wave as whole
 * blocks made it 17 % long.  sgemm-2 at 300 on 8 SMs (10 x 10 blocks,
 * 12 waves and a partial one; 300 = 9 x 32 + 12) the same way, where it
 * was 6 % long.  Within 2 % of exact in cycles (issue 6). */
Test (kern, sampled_deals_out_uneven_blocks, .timeout = 120)
{
    Both b;
    run_both ("device.sm_count=4", "sgemm-1", 200, &b);
    cr_assert_eq (b.sampled.waves, 13);
    cr_assert_lt (b.sampled.waves_run, 13);
    /* Whole blocks, the last column's, the last row's and the corner. */
    cr_expect_eq (b.sampled.block_kinds, 4);
    expect_cycles_close (&b);
    /* The counters go by the waves of the run that are not the
     * launch's last: A, B and C, 200 x 200 floats each in rows of 25
     * sectors, fit the L2 and are read from DRAM once, 480,000 bytes;
     * with the last wave's addition standing for the waves past the
     * run, its first touches of A's last rows made it 61 % more (as
     * extrapolated, before the L2's size caps it), and its 8-warp
     * blocks' warp instructions 12 % fewer than exact. */
    guint64 moved = b.sampled.extrapolated.dram_read_bytes +
                    b.sampled.extrapolated.dram_write_bytes;
    cr_expect_leq (fabs ((double) moved - 480000.0), 0.1 * 480000,
                   "DRAM: sampled %" G_GUINT64_FORMAT " B", moved);
    double e = (double) b.exact.stats.warp_instructions;
    cr_expect_leq (fabs ((double) b.sampled.stats.warp_instructions - e), 0.05 * e,
                   "warp instructions: sampled %" G_GUINT64_FORMAT ", exact %.0f",
                   b.sampled.stats.warp_instructions, e);
    run_both ("device.sm_count=8", "sgemm-2", 300, &b);
    cr_assert_eq (b.sampled.waves, 13);
    cr_assert_lt (b.sampled.waves_run, 13);
    cr_expect_eq (b.sampled.block_kinds, 4);
    expect_cycles_close (&b);
    /* sgemm-2 at 65 on one SM: 3 x 3 blocks, 9 waves, 3 a grid row; 65
     * = 2 x 32 + 1, so the last row's and column's blocks have one
     * busy lane or warp.  The run plays waves past the first row's as
     * the launch's last, so it meets those; with only the last full
     * wave the launch's it missed the last row (-14 %). */
    run_both ("device.sm_count=1", "sgemm-2", 65, &b);
    cr_assert_eq (b.sampled.waves, 9);
    cr_assert_lt (b.sampled.waves_run, 9);
    cr_expect_eq (b.sampled.block_kinds, 4);
    expect_cycles_close (&b);
}

/* An uneven launch and the waves it makes. */
typedef struct {
    const char *id;
    gint64 size;
    guint64 waves;
} UnevenRun;

/* The same with mirrors: on a 12-SM A6000, 4 SMs in full and 8
 * mirrors.  sgemm-1 at 300 (9 x 32 + 12) is 10 x 10 blocks, one an SM,
 * so 8 waves and 4 blocks more; of its 100 blocks 81 are whole, 9 in
 * the last column have 12 of each warp's 32 lanes busy, 9 in the last
 * row 12 of their 32 warps, and the corner both.  sgemm-2 at 400 (12 x
 * 32 + 16), 13 x 13 blocks, 14 waves and 1.  Within 2 % of exact in
 * cycles (issue 6). */
Test (kern, sampled_mirrors_uneven_blocks)
{
    const UnevenRun runs[] = { { "sgemm-1", 300, 9 }, { "sgemm-2", 400, 15 } };
    for (gsize i = 0; i < G_N_ELEMENTS (runs); i++) {
        Both b;
        run_both ("device.sm_count=12", runs[i].id, runs[i].size, &b);
        cr_assert_eq (b.sampled.waves, runs[i].waves);
        cr_assert_lt (b.sampled.waves_run, runs[i].waves);
        cr_expect_eq (b.sampled.detailed_sms, 4);
        cr_expect_eq (b.sampled.block_kinds, 4);
        expect_cycles_close (&b);
    }
}

/* The kinds the SMs in full met: those of the blocks they ran
 * (RunWindow.block_sm, -1 on a mirror).  Five blocks of three kinds,
 * of which the SMs in full ran blocks 0 (kind 0) and 3 (kind 0 again)
 * and 4 (kind 2): two kinds met, kind 1 not. */
Test (kern, kinds_met_are_those_the_sms_in_full_ran)
{
    int of[] = { 0, 1, 2, 0, 2 }, block_sm[] = { 0, -1, -1, 1, 3 };
    RunKinds c = { .n = 3, .of = of };
    RunWindow win = { .block_sm = block_sm };
    cr_expect_eq (run_kinds_met (&c, &win, 5), 2);
    block_sm[4] = -1;
    cr_expect_eq (run_kinds_met (&c, &win, 5), 1);
    cr_expect_eq (run_kinds_met (&c, &win, 0), 0);
}

/* run_kinds_dealt by hand, one block an SM at a time: each launch
 * block goes, in order, to the SM that frees first and takes its
 * kind's time in the run.
 * - vecadd at 640: 5 blocks of 128 threads, all of one kind.  The run's
 *   3 blocks on one SM in full retire at 100, 300 and 600, so took 100,
 *   200 and 300; the kind's time is over the run's blocks in waves
 *   'later_from' to 'later_to', here block 1 alone: 200.  Five blocks
 *   of 200 on 3 SMs, two on the first two: 400.
 * - sgemm-1 at 40 on the A100: 2 x 2 blocks of 32 x 32 threads, a
 *   warp's lanes along x (kern_sgemm_naive_lanes): block 0 all 1024
 *   lanes, block 1 (x 32-39) 32 warps of 8, 256 lanes, block 2 (y
 *   32-39) 8 warps of 32, 256 lanes, block 3 64: four kinds.  The run
 *   met blocks 0 and 1 (no later blocks), retiring at 1000 and 1500:
 *   1000 and 500.  Blocks 2 and 3, of kinds the run did not meet, take
 *   the most met kind's time in proportion to their lanes; with a tie,
 *   the first met, block 0's: 1000 x 256/1024 = 250 and 1000 x 64/1024
 *   = 62.5.  On one SM 1000 + 500 + 250 + 62.5 = 1812.5; on two, block
 *   0 on one SM and the rest on the other, 812.5, so 1000. */
Test (kern, kinds_dealt_by_hand)
{
    static const struct {
        const char *kernel;
        gint64 size;
        guint64 run, later_from, later_to;
        Cycle end[3];
        int sms;
        double want;
    } cases[] = {
        { "vecadd", 640, 3, 1, 2, { 100, 300, 600 }, 3, 400 },
        { "sgemm-1", 40, 2, 0, 0, { 1000, 1500 }, 1, 1812.5 },
        { "sgemm-1", 40, 2, 0, 0, { 1000, 1500 }, 2, 1000 },
    };
    g_autoptr (Preset) p = tu_preset ("a100");
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        g_autoptr (KernInstance) k = make (preset_spec (p), cases[i].kernel,
                                           cases[i].size, NULL);
        int block_sm[3] = { 0, 0, 0 };
        Cycle end[3];
        double ext[3] = { 0, 0, 0 };
        memcpy (end, cases[i].end, sizeof end);
        RunWindow win = { .k = k, .block_sm = block_sm, .block_end = end };
        RunKinds c;
        run_kinds_init (&c, k, &win, cases[i].run);
        double got = run_kinds_dealt (k, &win, &c, ext, cases[i].run,
                                      cases[i].later_from, cases[i].later_to,
                                      cases[i].sms);
        cr_expect (fabs (got - cases[i].want) < 1e-9, "%s on %d SMs: %.2f, "
                   "by hand %.2f", cases[i].kernel, cases[i].sms, got,
                   cases[i].want);
        run_kinds_clear (&c);
    }
}

/* The same where an SM holds two blocks, so the full waves past the
 * run's go by the SMs' rate (run_sample.c): on a 4-SM A100 (2048
 * threads an SM) two of sgemm-1 and -2's 1024-thread blocks, 8 a wave.
 * sgemm-1 at 450 (450 = 14 x 32 + 2) is 15 x 15 = 225 blocks, 28 full
 * waves and one block; sgemm-2 at 500 (15 x 32 + 20) 16 x 16 = 256, 32
 * waves.  A wave's warps scaled by its blocks' lanes over the run's, a
 * wave off (the run's own last, the launch's, instead of one it
 * skipped), made them +20 and +6.7 % of exact; by the busy warps of
 * the waves skipped, within 2 % (issue 6). */
Test (kern, sampled_uneven_waves_by_rate, .timeout = 120)
{
    const UnevenRun runs[] = { { "sgemm-1", 450, 29 }, { "sgemm-2", 500, 32 } };
    for (gsize i = 0; i < G_N_ELEMENTS (runs); i++) {
        Both b;
        run_gpu_window ("a100", "device.sm_count=4", runs[i].id,
                        runs[i].size, RUN_EXACT, 0, &b.exact, NULL, NULL);
        run_gpu_window ("a100", "device.sm_count=4", runs[i].id,
                        runs[i].size, RUN_SAMPLED, 0, &b.sampled, NULL,
                        &b.iterations);
        cr_assert (b.sampled.sampled);
        cr_assert_eq (b.sampled.occ.blocks_per_sm, 2);
        cr_assert_eq (b.sampled.waves, runs[i].waves);
        cr_assert_lt (b.sampled.waves_run, runs[i].waves);
        /* Whole blocks, the last column's, the last row's, the corner. */
        cr_expect_eq (b.sampled.block_kinds, 4);
        expect_cycles_close (&b);
    }
}

/* A window that is the whole loop, 64 iterations or fewer, is kept
 * even where the first wave's cost per iteration settles early
 * (run_sample.c): kernel 2 at 1000 on the A6000 (K in 62 pieces of 16
 * and one of 8), whose warps meet at no barrier and drift apart, seems
 * settled by 16 and was cut to 32 (-6.2 % of exact; docs/sampling.md). */
Test (kern, sampled_keeps_a_window_of_the_whole_loop)
{
    RunResult r;
    guint64 iterations;
    run_window (NULL, "sgemm-2", 1000, RUN_SAMPLED, 0, &r, NULL, &iterations);
    cr_assert (r.sampled);
    cr_assert_leq (iterations, 64);
    cr_expect_lt (r.waves_run, r.waves);
    cr_expect_eq (r.window, iterations, "window %" G_GUINT64_FORMAT " of %"
                  G_GUINT64_FORMAT, r.window, iterations);
}

/* Which kinds the SMs in full meet follows from the dealing (gpu.h):
 * kernel 2 at 1000 on the A6000 is 32 x 32 blocks, one an SM, and the
 * run takes two full waves of 84 and the partial one, the launch's own
 * last 16 (blocks 1008-1023, the grid's last row).  SMs 0-3 run blocks
 * 0-3 and 84-87 (rows 0 and 2, columns 0-3 and 20-23: whole) and the
 * partial wave's first four, 1008-1011 (last row, columns 16-19).  So
 * they meet 2 of the 4 kinds: not the last column's, nor the corner. */
Test (kern, sampled_counts_the_kinds_the_sms_in_full_met)
{
    RunResult r;
    run_window (NULL, "sgemm-2", 1000, RUN_SAMPLED, 0, &r, NULL, NULL);
    cr_assert (r.sampled && r.detailed_sms == 4);
    cr_assert_eq (r.waves_run, 3);
    cr_expect_eq (r.block_kinds, 4);
    cr_expect_eq (r.block_kinds_met, 2);
}

/* Sampling where an SM holds two blocks and the launch runs many waves:
 * kernel 7 at 1024 on a 4-SM A6000 is 64 blocks, 2 per SM, so 8
 * waves, and 128 iterations, past the window.  The run takes 4 waves,
 * each block's iterations past the window at the SMs' rate then, and
 * the 4 waves past the run go at the SMs' rate in the run's waves past
 * the first (run_sample.c).  Within 2 % of exact in cycles (issue 6).  (Where
 * this and the second wave's addition, used before, part ways is
 * longer loops -- 2048 on 8 SMs, docs/sampling.md -- whose exact runs take
 * minutes.) */
Test (kern, sampled_later_waves_at_the_later_waves_rate, .timeout = 120)
{
    Both b;
    run_both ("device.sm_count=4", "sgemm-7", 1024, &b);
    cr_assert_eq (b.sampled.occ.blocks_per_sm, 2);
    cr_assert (b.sampled.window < b.iterations && b.sampled.waves >= 8,
               "window %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ", %"
               G_GUINT64_FORMAT " waves", b.sampled.window, b.iterations,
               b.sampled.waves);
    expect_cycles_close (&b);
}

/* The same where the first wave's rate misleads: kernel 4 at 1024 on 8
 * SMs is 256 blocks, 2 per SM, so 16 waves.  The first wave's two
 * blocks an SM start together and load together; in later waves they
 * are staggered and overlap, so the SMs do an iteration faster, and
 * the 15 waves past the first at the first wave's rate made the launch
 * 5.0 % long (4.4 to 7.7 % with the L2 or DRAM latency a cycle or two
 * off; docs/sampling.md).  Within 2 % of exact (issue 6). */
Test (kern, sampled_later_waves_past_the_lockstep_start, .timeout = 120)
{
    Both b;
    run_both ("device.sm_count=8", "sgemm-4", 1024, &b);
    cr_assert_eq (b.sampled.occ.blocks_per_sm, 2);
    cr_assert (b.sampled.sampled && b.sampled.waves == 16);
    expect_cycles_close (&b);
}

/* A block's iterations past the window go at the rate the SMs in full
 * did iterations with its wave's blocks sharing their SMs with as many
 * as it does, pooled over those SMs (run_sample.c): kernel 8 on a
 * 12-SM A6000, 4 SMs in full and 8 mirrors, 2 blocks an SM.  At 512
 * (16 blocks, 64 iterations) with a window of 16 the 4 SMs in full
 * hold 2 blocks and the mirrors 1; at 768 (36 blocks, 96 iterations) with a window of 8
 * the 12 blocks of the partial last wave each run alone on an SM.
 * Each SM's own rate, over iterations 4-8 or 2-4, made these +3.1 and
 * +10.6 % of exact: the latest of four short measures is the highest
 * of four noisy ones.  Within 2 % (issue 6). */
Test (kern, sampled_rate_is_pooled_over_the_sms, .timeout = 120)
{
    const struct {
        gint64 size;
        guint64 window;
    } runs[] = { { 512, 16 }, { 768, 8 } };
    for (gsize i = 0; i < G_N_ELEMENTS (runs); i++) {
        Both b;
        run_window ("device.sm_count=12", "sgemm-8", runs[i].size, RUN_EXACT, 0,
                    &b.exact, NULL, NULL);
        run_window ("device.sm_count=12", "sgemm-8", runs[i].size, RUN_SAMPLED,
                    runs[i].window, &b.sampled, NULL, &b.iterations);
        cr_assert_eq (b.sampled.occ.blocks_per_sm, 2);
        cr_assert_eq (b.sampled.detailed_sms, 4);
        cr_assert (b.sampled.window < b.iterations);
        expect_cycles_close (&b);
    }
}

/* A run that costs little keeps the largest window even where the
 * first wave settles early (run_sample.c): kernel 10 at 1024 on 8 SMs is 64
 * blocks, 2 an SM, so 4 waves, all in the run, and 64 iterations.
 * Cut to a window of 32, its blocks read half of A and B, 4 MB, which
 * the 6 MB L2 holds where the whole loop's 8 MB it does not, and the
 * sampled run came out 2.9 % short of exact.  With 64 it is the whole
 * loop.  Within 2 % of exact in cycles (issue 6). */
Test (kern, sampled_keeps_the_window_where_it_is_cheap, .timeout = 120)
{
    Both b;
    run_both ("device.sm_count=8", "sgemm-10", 1024, &b);
    cr_assert_eq (b.sampled.occ.blocks_per_sm, 2);
    cr_assert_eq (b.sampled.waves, 4);
    cr_expect_eq (b.sampled.window, 64);
    expect_cycles_close (&b);
}

/* A run that takes every wave spends the budget on the window
 * (run_sample.c, affordable_window): kernel 5 at 640 on 8 SMs is 5 x 5
 * blocks of 8 warps, two an SM, so a full wave and a partial one, and
 * K / BK = 80 iterations, past the largest window of 64.  An iteration
 * is some 580 warp instructions a warp (512 FFMA, 8 LDG, 8 STS, 32
 * LDS.128, 2 BAR, 16 integer and a branch: the table in kern_sgemm.c),
 * so the whole loop is 25 x 8 x 80 x 580 = 9.3 million, well within
 * the 40 million: the run takes all 80 iterations, extrapolates
 * nothing, and is the exact run to the cycle (with 64 it was not). */
Test (kern, sampled_spends_the_budget_on_the_window, .timeout = 120)
{
    RunResult exact, sampled;
    guint64 iterations;
    run_on ("device.sm_count=8", "sgemm-5", 640, RUN_EXACT, &exact, NULL,
            &iterations);
    run_on ("device.sm_count=8", "sgemm-5", 640, RUN_SAMPLED, &sampled, NULL,
            NULL);
    cr_assert_eq (iterations, 80);
    cr_assert (sampled.sampled);
    cr_expect_eq (sampled.waves, 2);
    cr_expect_eq (sampled.window, 80);
    cr_expect_eq (sampled.cycles, exact.cycles);
}

/* Where the budget binds, the window stops short of the loop: kernel 7
 * at 1024 on the A6000 is 8 x 8 blocks of 8 warps, two an SM, so one
 * partial wave, and 128 iterations.  An iteration is 620 warp
 * instructions a warp (512 FFMA, 2 LDG, 8 STS, 64 LDS, 16 LDS.128, 2
 * BAR, 15 integer, a branch: the table in kern_sgemm.c), and 40
 * million over 64 x 8 warps is 78,125 a warp: 1 + (78,125 - c) / 620
 * iterations, where c, what a warp runs with one iteration, is at
 * least 620 and less than 6 x 620 -- so 121 to 126. */
Test (kern, sampled_window_stops_at_the_budget)
{
    RunResult r;
    guint64 iterations;
    run_on ("device.sm_count=84", "sgemm-7", 1024, RUN_SAMPLED, &r, NULL,
            &iterations);
    cr_assert_eq (iterations, 128);
    cr_assert_eq (r.waves, 1);
    cr_expect (r.window >= 121 && r.window <= 126,
               "window %" G_GUINT64_FORMAT, r.window);
}

/* Not where full waves go past the run: there the window is not all
 * that is cut, and the time is the launch's (run_sample.c).  Kernel 1 at 2048
 * on 8 SMs: 4096 blocks of 1024 threads, one an SM, so 512 waves, of
 * which the run takes a few; its first wave settles before 32 of its
 * 128 iterations, and the window shrinks, though the run is cheap. */
Test (kern, sampled_shrinks_the_window_past_the_run)
{
    RunResult r;
    run_on ("device.sm_count=8", "sgemm-1", 2048, RUN_SAMPLED, &r, NULL, NULL);
    cr_assert_eq (r.waves, 512);
    cr_expect_lt (r.window, 64, "window %" G_GUINT64_FORMAT, r.window);
}

/* A sampled run that would be the whole launch, every wave and the
 * whole loop, at a cost the automatic choice runs exact, runs every SM
 * in full (run_sample.c): it is the exact run, cycle for cycle.
 * - Kernel 2 at 256 on the A6000: 64 blocks, one an SM, so one partial
 *   wave, and 16 iterations.  With mirrors it was 3.3 % long.
 * - Kernel 5 at 640 on 12 SMs: 25 blocks, two an SM, so a full wave of
 *   24 and one block; 80 iterations, past the largest window, but the
 *   run affords them all (9.3 million warp instructions: the test
 *   above), so it too is the whole launch. */
Test (kern, sampled_whole_launch_is_exact, .timeout = 120)
{
    static const struct {
        const char *set, *kernel;
        gint64 size;
        int sms;
        guint64 waves;
    } cases[] = {
        { "device.sm_count=84", "sgemm-2", 256, 84, 1 },
        { "device.sm_count=12", "sgemm-5", 640, 12, 2 },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        Both b;
        run_both (cases[i].set, cases[i].kernel, cases[i].size, &b);
        cr_assert_eq (b.sampled.waves, cases[i].waves, "%s", cases[i].kernel);
        cr_expect_eq (b.sampled.window, b.iterations, "%s", cases[i].kernel);
        cr_expect_eq (b.sampled.detailed_sms, cases[i].sms, "%s",
                      cases[i].kernel);
        cr_expect_eq (b.sampled.cycles, b.exact.cycles, "%s", cases[i].kernel);
    }
}

/* A window asked for is the run's, kept whatever the first wave does
 * (RunOptions).  Kernel 5 at 640 on 8 SMs: 5 x 5 blocks, two an SM,
 * so a full wave of 16 and a partial one of 9, and K / BK = 640 / 8 =
 * 80 iterations, past the automatic window of 64.  Asked for all 80,
 * the run has every wave and the whole loop, nothing cut and nothing
 * extrapolated: it is the exact run, to the cycle.  Kernel 4 at 1024
 * on 8 SMs (128 iterations, 256 blocks of 512 threads, two an SM by
 * its registers: 16 full waves, more than the run takes) has a first
 * wave whose cost per iteration settles by 32 iterations: asked for
 * 96, the run keeps 96 where the automatic rule would start again at
 * twice the settling point. */
Test (kern, sampled_window_as_asked, .timeout = 120)
{
    RunResult exact, whole, kept;
    guint64 iterations;
    run_on ("device.sm_count=8", "sgemm-5", 640, RUN_EXACT, &exact, NULL,
            &iterations);
    cr_assert_eq (iterations, 80);
    run_window ("device.sm_count=8", "sgemm-5", 640, RUN_AUTO, 80, &whole,
                NULL, NULL);
    cr_assert (whole.sampled);
    cr_expect_eq (whole.window, 80);
    cr_expect_eq (whole.cycles, exact.cycles);
    run_window ("device.sm_count=8", "sgemm-4", 1024, RUN_AUTO, 96, &kept,
                NULL, &iterations);
    cr_assert_eq (iterations, 128);
    cr_assert_eq (kept.occ.blocks_per_sm, 2);
    cr_assert (kept.sampled);
    cr_expect_eq (kept.window, 96);
}

/* A launch with no main loop is sampled by waves (run_waves.c): vecadd
 * and stream at 2^22 elements on an A6000 cut to 8 SMs and a 1 MB L2,
 * so that the exact run is cheap and still hundreds of waves.  By hand:
 * vecadd's 128-thread blocks sit 12 to an SM (1536 threads; 12
 * registers, no shared memory), stream's 256-thread blocks 6, so a wave
 * is 8 x 1536 = 12288 elements either way, 12 B each for vecadd (two
 * loads, a store) and 8 B for stream; the run takes the full waves that
 * touch eight times the L2, ceil (8 MiB / wave bytes), and the partial
 * last wave, if any.  Cycles within 2 % of exact (issue 6); DRAM bytes
 * all that the launch moves but what its L2 still holds dirty at the end:
 * from bytes - 1 MiB to bytes; warp instructions within 1 %. */
Test (kern, sampled_by_waves_where_there_is_no_loop, .timeout = 120)
{
    static const struct {
        const char *kernel;
        double bytes_per_element;
    } cases[] = { { "vecadd", 12.0 }, { "stream", 8.0 } };
    const char *sets[] = { "device.sm_count=8", "device.l2_kib=1024", NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load ("a6000", NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    const GpuSpec *s = preset_spec (p);
    const gint64 n = 1 << 22;
    const double wave = 8.0 * 1536.0, l2 = 1024.0 * 1024.0;
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        const char *id = cases[i].kernel;
        g_autoptr (KernInstance) k = make (s, id, n, NULL);
        RunOptions exact = { .regs = -1, .smem = -1, .mode = RUN_EXACT },
                   sampled = { .regs = -1, .smem = -1, .mode = RUN_SAMPLED };
        RunResult re, rs;
        cr_assert (run_kernel (s, k, &exact, &re, &error), "%s", id);
        cr_assert (run_kernel (s, k, &sampled, &rs, &error), "%s: %s", id,
                   error ? error->message : "");
        cr_assert (rs.sampled && rs.by_waves, "%s", id);
        cr_expect_eq (rs.waves, (guint64) ceil ((double) n / wave), "%s", id);
        guint64 full = (guint64) ceil (8.0 * l2 /
                                       (wave * cases[i].bytes_per_element));
        guint64 partial = (guint64) n % (guint64) wave != 0;
        cr_expect_eq (rs.waves_run, full + partial, "%s: %" G_GUINT64_FORMAT
                      " waves run", id, rs.waves_run);
        double e = (double) re.cycles, a = (double) rs.cycles;
        cr_expect_leq (fabs (a - e) / e, 0.02, "%s: sampled %" G_GUINT64_FORMAT
                       " cycles, exact %" G_GUINT64_FORMAT, id, rs.cycles,
                       re.cycles);
        double bytes = (double) n * cases[i].bytes_per_element;
        cr_expect (rs.dram_bytes <= bytes && rs.dram_bytes >= bytes - l2,
                   "%s: %" G_GUINT64_FORMAT " B of DRAM traffic, %.0f B moved",
                   id, rs.dram_bytes, bytes);
        /* Counters go at the rate they did over the span, as the
         * cycles do: the instructions in flight at its two ends differ
         * a little (a window's run is off by as much: 0.5 % on sgemm-4
         * at 1024). */
        double ie = (double) re.stats.warp_instructions;
        cr_expect_leq (fabs ((double) rs.stats.warp_instructions - ie), 0.01 * ie,
                       "%s: %" G_GUINT64_FORMAT " warp instructions, exact %"
                       G_GUINT64_FORMAT, id, rs.stats.warp_instructions,
                       re.stats.warp_instructions);
    }
}

/* run_waves_to_run by hand: the full waves that touch L2_FILLS (8)
 * times the L2, at least WAVES_LEAST (8), and none unless the launch
 * has twice as many full waves.  vecadd on an A6000 cut to 8 SMs: 12
 * blocks of 128 threads an SM (above), a wave 96 blocks of 128
 * elements at 12 B each, 147,456 B.  With a 1 MiB L2, ceil (8 MiB /
 * 147,456 B) = ceil (56.9) = 57 waves, taken from 2 x 57 = 114 full
 * waves (114 x 12,288 elements) on and not from 113; with a 64 KiB L2,
 * ceil (512 KiB / 147,456 B) = 4, fewer than 8: 8 waves, taken from 16
 * full waves on and not from 15. */
Test (kern, run_by_waves_takes_twice_its_waves_or_none)
{
    static const struct {
        const char *l2;
        gint64 waves;
        guint64 run;
    } cases[] = {
        { "device.l2_kib=1024", 114, 57 },
        { "device.l2_kib=1024", 113, 0 },
        { "device.l2_kib=64", 16, 8 },
        { "device.l2_kib=64", 15, 0 },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        const char *sets[] = { "device.sm_count=8", cases[i].l2, NULL };
        g_autoptr (GError) error = NULL;
        g_autoptr (Preset) p = preset_load ("a6000", NULL, sets, &error);
        cr_assert_not_null (p, "%s", error ? error->message : "");
        g_autoptr (KernInstance) k = make (preset_spec (p), "vecadd",
                                           cases[i].waves * 96 * 128, NULL);
        guint64 run = run_waves_to_run (preset_spec (p), k, kern_blocks (k),
                                        96);
        cr_expect_eq (run, cases[i].run, "%s, %" G_GINT64_FORMAT " waves: %"
                      G_GUINT64_FORMAT " run", cases[i].l2, cases[i].waves,
                      run);
    }
}

/* Mirrors pay where each SM in full stands for two or more on average
 * (run_sample.c): a sampled run simulates 4 SMs in full on a GPU of 12 SMs or
 * more, and every SM on a smaller one.  Kernel 4 at 1024: 128
 * iterations, past the window, so never the whole launch (above). */
Test (kern, sampled_mirrors_from_twelve_sms)
{
    const struct {
        const char *set;
        int detailed;
    } cases[] = {
        { "device.sm_count=8", 8 },
        { "device.sm_count=11", 11 },
        { "device.sm_count=12", 4 },
        { "device.sm_count=84", 4 },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        RunResult r;
        run_on (cases[i].set, "sgemm-4", 1024, RUN_SAMPLED, &r, NULL, NULL);
        cr_expect_eq (r.detailed_sms, cases[i].detailed, "%s", cases[i].set);
    }
}

/* A window asked for that is the whole loop leaves a launch small
 * enough to run exact whole, every SM in full (sample_is_launch).
 * sgemm-4 at 256 on the A6000 (84 SMs): K / BK = 256 / 8 = 32
 * iterations, a 4 x 4 grid, 16 blocks, under one wave however many an
 * SM holds, and 16 x 16 warps of a few thousand instructions, far under
 * 20 million.  A window of 32 is the whole loop: all 84 SMs in full; of
 * 31 the loop is cut: 4. */
Test (kern, a_window_of_the_whole_loop_runs_every_sm_in_full)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    g_autoptr (KernInstance) k = make (preset_spec (p), "sgemm-4", 256, NULL);
    OccResult occ = { .blocks_per_sm = 1 };
    cr_assert_eq (k->iterations, 32);
    cr_assert_eq (kern_blocks (k), 16);
    cr_expect_eq (run_sampled_detailed_sms (k, &occ, 16, 84, 32), 84);
    cr_expect_eq (run_sampled_detailed_sms (k, &occ, 16, 84, 31), 4);
}

/* Achieved occupancy as Nsight Compute counts it: resident warps per
 * cycle an SM is active, over the warps it can hold.  One one-warp
 * block: one warp resident in each active cycle of the one SM that has
 * it, of the 48 a CC 8.6 SM holds (CUDA Programming Guide, Table 21):
 * 100/48 %, however many SMs stand idle. */
Test (kern, achieved_occupancy_counts_active_cycles)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    g_autoptr (GError) error = NULL;
    const GpuSpec *s = preset_spec (p);
    g_autoptr (KernInstance) k = make (s, "loaduse", 1, NULL);
    RunOptions exact = { .regs = -1, .smem = -1, .mode = RUN_EXACT };
    RunResult r;
    cr_assert (run_kernel (s, k, &exact, &r, &error));
    cr_expect_eq (r.stats.active_cycles, r.stats.resident_warp_cycles);
    cr_expect (fabs (r.achieved_occupancy_pct - 100.0 / 48.0) < 1e-9,
               "%.6f %%", r.achieved_occupancy_pct);
}

/* A sampled run's counters past its window come from the first wave's
 * rate, read while that wave runs: the cycles its warps have spent so
 * far must be in it.  One-warp blocks of a load-use loop, 2000
 * iterations, a window of 64 (asked for: the launch is one wave and
 * cheap, so the automatic window would be the whole loop, which the
 * budget affords).  By definition a warp is
 * 'selected' one cycle per instruction it issues; resident warp cycles
 * are the states' sum; both match the exact run (its own count). */
Test (kern, sampled_counters_include_running_warps)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    g_autoptr (GError) error = NULL;
    const GpuSpec *s = preset_spec (p);
    const char *params[] = { "ITERS=2000", NULL };
    g_autoptr (KernInstance) k = make_with (s, "loaduse", 64, params);
    RunOptions exact = { .regs = -1, .smem = -1, .mode = RUN_EXACT },
                   sampled = { .regs = -1, .smem = -1, .mode = RUN_SAMPLED,
                               .window = 64 };
    RunResult re, rs;
    cr_assert (run_kernel (s, k, &exact, &re, &error));
    cr_assert (run_kernel (s, k, &sampled, &rs, &error));
    cr_assert (rs.sampled && rs.window == 64);
    cr_expect (fabs (stats_per_issue (&rs.stats, STALL_SELECTED) - 1.0) < 0.01,
               "selected %.3f per issue", stats_per_issue (&rs.stats, STALL_SELECTED));
    guint64 sum = 0;
    for (int r = 0; r < STALL_N; r++)
        sum += rs.stats.warp_cycles[r];
    cr_expect_eq (sum, rs.stats.resident_warp_cycles);
    for (int r = 0; r < STALL_N; r++) {
        double e = stats_per_issue (&re.stats, (StallReason) r);
        double a = stats_per_issue (&rs.stats, (StallReason) r);
        cr_expect (fabs (a - e) <= 0.02 * MAX (e, 1.0), "%s: sampled %.3f, exact %.3f",
                   stats_stall_name ((StallReason) r), a, e);
    }
    cr_expect (fabs (rs.achieved_occupancy_pct - re.achieved_occupancy_pct) <=
                   0.02 * re.achieved_occupancy_pct,
               "achieved occupancy: sampled %.3f %%, exact %.3f %%",
               rs.achieved_occupancy_pct, re.achieved_occupancy_pct);
}

/* With many blocks an SM, a greedy scheduler runs some far ahead, and
 * the first wave's blocks retire early and hand their SMs to the next
 * wave's while the wave's rate is still being read: that work is in the
 * counters between its marks too.  sgemm-9 with 64 x 64 tiles (256
 * threads, 56 registers) on an A100 with twice the registers, 8 blocks
 * an SM, on 4 SMs (all in full) at 1024, a window of 32 of its 64
 * iterations: the launch's warp instructions, counted warp by warp,
 * within 0.5 %.  Counted as the first wave's, the next wave's work made
 * them 1.43 times that. */
Test (kern, sampled_rate_counts_the_blocks_that_replace_retired_ones,
      .timeout = 120)
{
    g_autoptr (GError) error = NULL;
    const char *sets[] = { "device.sm_count=4", "sm.registers=131072",
                           "sm.max_regs_per_block=131072", NULL };
    g_autoptr (Preset) p = preset_load ("a100", NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    const GpuSpec *s = preset_spec (p);
    const char *params[] = { "BM=64", "BN=64", "BK=16", "TM=4", "TN=4", NULL };
    g_autoptr (KernInstance) k = make_with (s, "sgemm-9", 1024, params);
    RunOptions o = { .regs = -1, .smem = -1, .mode = RUN_SAMPLED,
                     .window = 32 };
    RunResult r;
    cr_assert (run_kernel (s, k, &o, &r, &error), "%s",
               error ? error->message : "");
    cr_assert (r.sampled && r.window == 32 && r.occ.blocks_per_sm == 8);
    guint64 ops[INSTR_N_OPS], sectors, all = 0;
    count (k, ops, &sectors);
    for (int i = 0; i < INSTR_N_OPS; i++)
        all += ops[i];
    cr_expect (fabs ((double) r.stats.warp_instructions / (double) all - 1) <
                   0.005,
               "%" G_GUINT64_FORMAT " warp instructions, %" G_GUINT64_FORMAT
               " in the launch", r.stats.warp_instructions, all);
}

/* The compiled-in reference numbers are the CSV's, row for row, source
 * included (src/models/ref/sgemm_published.csv): each row's GPU (the
 * preset whose published run it is), size, kernel, GFLOP/s to the
 * CSV's one decimal, and source, whole. */
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
        g_autoptr (GPtrArray) f = csv_split (lines[i]);
        cr_assert_eq (f->len, 7, "row %u: %s", seen, lines[i]);
        const char *gpu = strcmp (r->gpu, "a6000") == 0 ? "NVIDIA RTX A6000"
                          : strcmp (r->gpu, "a100") == 0
                              ? "NVIDIA A100 (SKU not stated)"
                              : "(no published GPU)";
        g_autofree char *size = g_strdup_printf ("%d", r->size);
        g_autofree char *kernel = g_strdup_printf ("%d", r->kernel);
        g_autofree char *gflops = g_strdup_printf ("%.1f", r->gflops);
        cr_expect_str_eq (f->pdata[0], gpu, "row %u: %s", seen, r->gpu);
        cr_expect_str_eq (f->pdata[2], size, "row %u", seen);
        cr_expect_str_eq (f->pdata[3], kernel, "row %u", seen);
        cr_expect_str_eq (f->pdata[5], gflops, "row %u", seen);
        cr_expect_str_eq (f->pdata[6], r->source, "row %u", seen);
    }
    cr_assert_eq (seen, n);
}

/* validate_summarize by hand, on five made-up kernels (published ->
 * simulated GFLOP/s): 1: 100 -> 110, +10 %; 2: 110 -> 90, -200/11 %;
 * 3: 200 -> 250, +25 %; 4: 400, not modelled; 5: 120 -> 90, -25 %.
 * - MAPE over the four modelled: (10 + 200/11 + 25 + 25) / 4 = 860/44
 *   = 19.545... %.
 * - The largest miss, signed: +25 (kernel 3), met first; kernel 5's
 *   -25 is no larger.
 * - Pairs published more than 10 % apart, both modelled: 1-2 is 10
 *   apart, not more than 10 % of 100, and 2-5 10, under 11: neither
 *   counts.  1-3 (110 < 250), 2-3 (90 < 250) and 3-5 (250 > 90) keep
 *   the published order; 1-5 (100 < 120 published, 110 > 90
 *   simulated) does not: 3 of 4, "1 < 5". */
Test (kern, validate_summary_by_hand)
{
    static const RefRow refs[] = {
        { "x", 1, 4096, 100.0, "" }, { "x", 2, 4096, 110.0, "" },
        { "x", 3, 4096, 200.0, "" }, { "x", 4, 4096, 400.0, "" },
        { "x", 5, 4096, 120.0, "" },
    };
    static const double simulated[] = { 110.0, 90.0, 250.0, 0.0, 90.0 };
    ValidateResult r = { 0 };
    r.rows = g_array_new (FALSE, TRUE, sizeof (ValidateRow));
    r.disagreements = g_string_new (NULL);
    for (guint i = 0; i < G_N_ELEMENTS (refs); i++) {
        ValidateRow row = { .ref = &refs[i], .modeled = refs[i].kernel != 4,
                            .simulated_gflops = simulated[i] };
        row.error_pct = row.modeled ? 100.0 * (simulated[i] - refs[i].gflops) /
                                          refs[i].gflops
                                    : 0;
        g_array_append_val (r.rows, row);
    }
    validate_summarize (&r);
    cr_expect (fabs (r.mape_pct - 860.0 / 44.0) < 1e-9, "MAPE %.6f %%",
               r.mape_pct);
    cr_expect (fabs (r.max_error_pct - 25.0) < 1e-9, "largest miss %.6f %%",
               r.max_error_pct);
    cr_expect_eq (r.pairs, 4);
    cr_expect_eq (r.pairs_agree, 3);
    cr_expect_str_eq (r.disagreements->str, "1 < 5");
    validate_result_clear (&r);
}

/* The registers of every model instance that kernels/cuda compiles are
 * registers.csv's, read here from the source tree, so the table built
 * into smsim cannot drift from the CSV: each row's kernel and parameter
 * set on a GPU of its architecture (sm_75 T4, sm_80 A100, sm_86 A6000,
 * sm_90 H100), and its static shared memory. */
static const char *const sgemm_a100_set[][12] = {
    [9] = { "BM=64", "BN=64", "BK=16", "TM=4", "TN=4", NULL },
    [10] = { "BM=64", "BN=128", "BK=16", "WM=32", "WN=64", "WNITER=1",
             "TM=4", "TN=4", "THREADS=128", NULL },
    [11] = { "BM=64", "BN=128", "BK=16", "WM=32", "WN=32", "WNITER=2",
             "TM=4", "TN=4", NULL },
};

static KernInstance *
instance_of_row (const GpuSpec *s, const char *kernel, const char *set)
{
    int n;
    if (strcmp (kernel, "vecadd") == 0)
        return make (s, "vecadd", 4096, NULL);
    if (strcmp (kernel, "pmpp-tiled-dyn") == 0)
        return make (s, "pmpp-tiled", 256, "DYNAMIC=1");
    if (strcmp (kernel, "pmpp-tiled") == 0)
        return make (s, "pmpp-tiled", 256, set);
    cr_assert (sscanf (kernel, "sgemm-%d", &n) == 1 && n >= 1 && n <= 11,
               "unknown kernel %s", kernel);
    if (strcmp (set, "a100") == 0)
        return make_with (s, kernel, 1024, sgemm_a100_set[n]);
    cr_assert (strcmp (set, n >= 9 ? "a6000" : "default") == 0, "%s %s",
               kernel, set);
    return make (s, kernel, 1024, NULL);
}

Test (kern, registers_match_registers_csv)
{
    static const struct { const char *arch, *gpu; } gpus[] = {
        { "sm_75", "t4" }, { "sm_80", "a100" }, { "sm_86", "a6000" },
        { "sm_90", "h100" },
    };
    g_autofree char *path = g_build_filename (SMSIM_TOP_SRCDIR, "kernels",
                                              "cuda", "registers.csv", NULL);
    g_autofree char *text = NULL;
    cr_assert (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
    g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
    cr_assert_str_eq (lines[0], "kernel,params,arch,registers,"
                      "static_smem_bytes,spill_bytes,nvcc_version");
    Preset *presets[G_N_ELEMENTS (gpus)];
    for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
        presets[g] = tu_preset (gpus[g].gpu);
    int checked = 0;
    for (int i = 1; lines[i] != NULL; i++) {
        if (*lines[i] == '\0')
            continue;
        g_auto (GStrv) f = g_strsplit (lines[i], ",", -1);
        cr_assert_eq (g_strv_length (f), 7, "line %d: %s", i + 1, lines[i]);
        guint g = 0;
        while (g < G_N_ELEMENTS (gpus) && strcmp (gpus[g].arch, f[2]) != 0)
            g++;
        cr_assert_lt (g, G_N_ELEMENTS (gpus), "line %d: arch %s", i + 1, f[2]);
        g_autoptr (KernInstance) k =
            instance_of_row (preset_spec (presets[g]), f[0], f[1]);
        cr_expect_eq (k->regs, atoi (f[3]), "%s %s on %s: model %d registers, "
                      "registers.csv %s", f[0], f[1], gpus[g].gpu, k->regs,
                      f[3]);
        cr_expect_eq (k->static_smem, atoi (f[4]), "%s %s: static shared "
                      "memory %" G_GINT64_FORMAT ", registers.csv %s", f[0],
                      f[1], k->static_smem, f[4]);
        checked++;
    }
    /* 19 instantiations (instances.cu) x 4 architectures */
    cr_expect_eq (checked, 19 * 4);
    for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
        preset_free (presets[g]);
}

/* A GPU with no column of its own takes the nearest compiled one
 * (kern_regs.h): the V100 (cc 7.0) the sm_75 column, like the T4. */
Test (kern, registers_of_an_older_gpu)
{
    g_autoptr (Preset) v = tu_preset ("v100");
    g_autoptr (Preset) t = tu_preset ("t4");
    g_autoptr (KernInstance) kv = make (preset_spec (v), "sgemm-5", 1024, NULL);
    g_autoptr (KernInstance) kt = make (preset_spec (t), "sgemm-5", 1024, NULL);
    cr_assert_eq (kv->regs, kt->regs);
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

/* ------------------------------------------------------------------ */
/* Register-file read ports of the SGEMM FFMAs                         */

/* Read-port cycles per FFMA of a model's main loop under the rule of
 * regfile.h, on the a6000 preset's shape: the body played twice by one
 * warp (all of it, kernel 11's guarded loads too, as tools/rfports.py
 * plays the SASS listing), the second pass counted. */
static double
model_port_cycles (const KernInstance *k, RegfileShape shape)
{
    const GArray *body = ((const KProgram *) k->data)->seg[KGEN_BODY];
    RegfileCache cache;
    int n = 0, total = 0;
    regfile_cache_init (&cache);
    for (int pass = 0; pass < 2; pass++)
        for (guint j = 0; j < body->len; j++) {
            const KOp *o = &g_array_index (body, KOp, j);
            Instr in;
            instr_init (&in, (InstrOp) o->op);
            memcpy (in.src, o->src, sizeof in.src);
            in.reuse = o->reuse;
            int c = regfile_most (regfile_read_operands (&cache, shape, 0,
                                                         &in));
            if (pass == 1 && o->op == INSTR_FFMA) {
                n++;
                total += c;
            }
        }
    cr_assert_gt (n, 0);
    return (double) total / n;
}

/* The expected figures are those tools/rfports.py measured on the
 * reference SASS (../shared/data/sass/sgemm*_sm86.sass.gz, CUDA 13.0;
 * committed as kernels/cuda/rf_ports.csv).  The models order each dot
 * step's FFMAs as one chain per B value over the A fragment, with
 * accumulators in the bank the A value is not in (kern_sgemm.c
 * outer_product), the pattern of nvcc's k10 loop; nvcc mixes in shorter
 * chains, so the models come out up to 0.1 cycle per FFMA lower
 * (kernels 6 and 8) -- the tolerance below.  A model with the old
 * synthetic operands (no reuse bits; every FFMA reads three registers,
 * two or three in one bank) gives 2 or more and fails for kernels 4-11. */
Test (kern, sgemm_ffma_read_ports_match_sass)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *spec = preset_spec (p);
    RegfileShape shape = { spec->regfile.banks, spec->regfile.reuse_entries };
    g_autofree char *path = g_build_filename (SMSIM_TOP_SRCDIR, "kernels",
                                              "cuda", "rf_ports.csv", NULL);
    g_autofree char *text = NULL;
    cr_assert (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
    cr_assert_eq (shape.banks, 2);      /* the figures are for 2 banks */
    cr_assert (strstr (text, "--banks 2") != NULL);
    g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
    int checked = 0;
    for (int i = 0; lines[i] != NULL; i++) {
        g_auto (GStrv) f = g_strsplit (lines[i], ",", -1);
        if (g_strv_length (f) != 6 || strcmp (f[1], "sm_86") != 0)
            continue;
        double want = g_ascii_strtod (f[3], NULL);
        g_autoptr (KernInstance) k = make (spec, f[0], 1024, NULL);
        double got = model_port_cycles (k, shape);
        cr_expect (fabs (got - want) <= 0.1, "%s: %.3f port cycles per "
                   "FFMA, the SASS %.3f", f[0], got, want);
        checked++;
    }
    cr_assert_eq (checked, 9);  /* kernels 3-11 */
}

/* A run in 'mode' of 'launches' launches on the A100 with 'set' (or
 * none); returns the preset, whose spec the result goes with. */
static Preset *
run_a100 (const char *set, const char *kernel, gint64 size, RunMode mode,
          guint64 launches, RunResult *r)
{
    const char *sets[] = { set, NULL };
    g_autoptr (GError) error = NULL;
    Preset *p = preset_load ("a100", NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (KernInstance) k = make (s, kernel, size, NULL);
    RunOptions o = { .regs = -1, .smem = -1, .mode = mode,
                     .launches = launches };
    cr_assert (run_kernel (s, k, &o, r, &error), "%s",
               error ? error->message : "");
    return p;
}

/* run_ceiling by hand, on the A100 (1410 MHz, 108 SMs; a100.ini).
 * Kernel 4 (BM = BN = 64, BK = 8, TM = 8, 512 threads) takes, per warp
 * and tile, 8 LDS of B (32 consecutive words: 1 wavefront each), 16
 * LDS.128 of A (one address for the whole warp; a 128-bit access goes
 * by quarter-warps, 1 wavefront each, so 4) and 2 STS (32 consecutive
 * words: 1 each): 74 wavefronts of one cycle for 32 x 8 x 8 FFMA, 4096
 * flops.  Nothing else in the kernel touches shared memory.
 * - At 256 the grid is 4 x 4: 16 blocks on 16 SMs, the busiest SM one
 *   block of 16 warps x 32 tiles x 74 = 37,888 cycles for 2 x 256^3
 *   flops: 2 x 256^3 / 37,888 x 1.41 GHz = 1248.7 GFLOP/s.
 * - On 8 SMs at 512, 64 blocks, 8 to every SM: 4096 / 74 flops a cycle
 *   on each, x 8 x 1.41 GHz = 624.35 GFLOP/s.
 * - On 8 SMs at 640, 100 blocks, two at a time on an SM: the SMs that
 *   run the most run 13, so the launch keeps the wavefronts busy at
 *   most 100 of 8 x 13 = 104 SM-blocks: 624.35 x 100 / 104.
 * Where the GPU's own units set it, the last wave's idle SMs do not
 * idle them: vecadd of 4096 floats on the A100 reads 2 x 4096 x 4 B
 * from DRAM (its 16 KB of results stay in the 40 MB L2) for 4096 FADD,
 * 8 bytes a flop, so at the preset's 1500 GB/s 187.5 GFLOP/s, though
 * its 32 blocks of 128 threads leave 76 of the 108 SMs idle. */
Test (kern, ceiling_by_hand, .timeout = 60)
{
    static const struct {
        const char *set;
        const char *kernel;
        gint64 size;
        double gflops;
        RunUnit unit;
    } cases[] = {
        { NULL, "sgemm-4", 256, 2.0 * 256 * 256 * 256 / 37888.0 * 1.41,
          RUN_UNIT_SMEM },
        { "device.sm_count=8", "sgemm-4", 512, 4096.0 / 74.0 * 8 * 1.41,
          RUN_UNIT_SMEM },
        { "device.sm_count=8", "sgemm-4", 640,
          4096.0 / 74.0 * 8 * 1.41 * 100.0 / 104.0, RUN_UNIT_SMEM },
        { NULL, "vecadd", 4096, 1500.0 / 8.0, RUN_UNIT_DRAM },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        RunResult r;
        RunUnit unit;
        g_autoptr (Preset) p = run_a100 (cases[i].set, cases[i].kernel,
                                         cases[i].size, RUN_EXACT, 1, &r);
        double c = run_ceiling (preset_spec (p), &r, &unit);
        cr_expect_eq (unit, cases[i].unit, "%s at %" G_GINT64_FORMAT ": %s",
                      cases[i].kernel, cases[i].size, run_unit_name (unit));
        cr_expect (fabs (c - cases[i].gflops) < 1e-6 * cases[i].gflops,
                   "%s at %" G_GINT64_FORMAT ": %.3f GFLOP/s, by hand %.3f",
                   cases[i].kernel, cases[i].size, c, cases[i].gflops);
        cr_expect_leq (r.gflops, c);
    }
}

/* A unit's use on the SMs that run the most blocks never passes every
 * cycle.  By hand on the H100 (132 SMs): 1024 blocks, the busiest SMs
 * run 8, so the launch keeps an SM's unit busy at most 1024 / (132 x 8)
 * = 0.9697 of the time.  The L1 busy 99 % of every SM's cycles would
 * divide to 102.1 %: those SMs' L1 is busy every cycle, 100 %.  Busy
 * 102 % of them, the counters disagree with the cycles, and the
 * division shows it: 102 / 0.9697 = 105.2 %.  Busy every cycle, 100 %,
 * is not past it: 100 % on those SMs, not 103.1. */
Test (kern, busiest_sm_use_passes_no_cycle)
{
    g_autoptr (Preset) p = tu_preset ("h100");
    const GpuSpec *s = preset_spec (p);
    cr_assert_eq (s->device.sm_count, 132);
    const struct {
        double busy;
        const char *expect;
    } cases[] = {
        { 0.99, "L1/LSU throughput (100 % of its peak)" },
        { 1.00, "L1/LSU throughput (100 % of its peak)" },
        { 1.02, "L1/LSU throughput (105 % of its peak)" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        RunResult r = { 0 };
        r.blocks = 1024;
        r.cycles = 1000000;
        r.kernel_ms = r.time_ms = 1.0;
        r.gflops = 1000.0;
        r.mem.l1_busy_cycles = (guint64) (cases[i].busy * 1000000.0 * 132);
        char buf[256];
        run_limiter (s, &r, buf, sizeof buf);
        cr_expect_str_eq (buf, cases[i].expect, "L1 busy %.2f: %s",
                          cases[i].busy, buf);
    }
}

/* run_limiter's other rules by hand, on the H100 (132 SMs), every unit
 * idle but the L1:
 * - a unit at 60 % of its peak, exactly, is the limiter: 132 blocks
 *   (one for every SM, so the busiest SMs run 1 and the division is by
 *   132 / 132 = 1), the L1 busy 0.6 of every SM's cycles; with 66
 *   blocks, busy 0.3 of all of them, 0.3 / (66 / 132) = 0.6 on the SMs
 *   that run blocks, which it says;
 * - below that the warps' commonest wait names it, issuing itself
 *   ("selected") not counted: 1000 warp-cycles selected, 500 waiting
 *   a fixed latency ("wait"), 400 at a barrier is latency not hidden;
 *   600 at the barrier, no unit near its peak;
 * - with every unit idle, the first of them is the busiest: FP32. */
Test (kern, limiter_by_hand)
{
    g_autoptr (Preset) p = tu_preset ("h100");
    const GpuSpec *s = preset_spec (p);
    cr_assert_eq (s->device.sm_count, 132);
    const struct {
        guint64 blocks;
        double busy;
        guint64 barrier;
        const char *expect;
    } cases[] = {
        { 132, 0.6, 0, "L1/LSU throughput (60 % of its peak)" },
        { 66, 0.3, 0, "L1/LSU throughput (60 % of its peak on the SMs "
                      "that run blocks)" },
        { 132, 0.1, 400, "latency: too few warps to hide it (busiest unit, "
                         "L1/LSU throughput, at 10 %; warps wait most on "
                         "wait)" },
        { 132, 0.1, 600, "no unit near its peak (busiest unit, L1/LSU "
                         "throughput, at 10 %; warps wait most on "
                         "barrier)" },
        { 132, 0, 600, "no unit near its peak (busiest unit, the FP32 pipe, "
                       "at 0 %; warps wait most on barrier)" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        RunResult r = { 0 };
        r.blocks = cases[i].blocks;
        r.cycles = 1000000;
        r.kernel_ms = r.time_ms = 1.0;
        r.mem.l1_busy_cycles = (guint64) (cases[i].busy * 1000000.0 * 132);
        r.stats.warp_cycles[STALL_SELECTED] = 1000;
        r.stats.warp_cycles[STALL_WAIT] = 500;
        r.stats.warp_cycles[STALL_BARRIER] = cases[i].barrier;
        char buf[256];
        run_limiter (s, &r, buf, sizeof buf);
        cr_expect_str_eq (buf, cases[i].expect, "case %u: %s", i, buf);
    }
}

/* Back-to-back launches (RunOptions.launches; ../shared/data/README.md
 * 1b): a warm-up launch, then the timed ones, each from the L2 the one
 * before left.  vecadd of 2^20 floats on the A100 reads A and B, 8 MB,
 * from DRAM in the warm-up and leaves them in its 40 MB L2: a timed
 * launch, its L1s empty, reads nothing from DRAM, and takes fewer
 * cycles than the cold one.  With an L2 of 16 KB it reads them again,
 * all but at most 16 KB.  A launch's time is the kernel's plus the
 * preset's gap, 0.9 us, for n - 1 of n launches.  Where the warm-up is
 * sampled over part of the launch (sgemm-4 at 1024: a window of under
 * its 128 iterations), the L2 it leaves is not a whole launch's: its
 * accesses are replayed into one where its data fit.  sgemm-4 at 1024
 * reads A, B and C, 3 x 4 MB, which the 40 MB L2 holds: a timed launch
 * reads nothing from DRAM.  In an L2 of 4 MB they do not fit, and the
 * timed launches are taken as cold: 12 MB from DRAM, at least. */
Test (kern, back_to_back_launches_start_from_the_l2_left, .timeout = 60)
{
    static const struct {
        const char *set;
        guint64 launches;
        guint64 dram_lo, dram_hi;
        RunWarm warm;
    } cases[] = {
        { NULL, 1, 8u << 20, 8u << 20, RUN_WARM_NONE },
        { NULL, 2, 0, 0, RUN_WARM_LEFT },
        { NULL, 50, 0, 0, RUN_WARM_LEFT },
        { "device.l2_kib=16", 50, (8u << 20) - (16u << 10), 8u << 20,
          RUN_WARM_LEFT },
    };
    Cycle cold = 0;
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        RunResult r;
        g_autoptr (Preset) p = run_a100 (cases[i].set, "vecadd", 1 << 20,
                                         RUN_EXACT, cases[i].launches, &r);
        double n = (double) cases[i].launches;
        cr_expect_eq (r.launches, cases[i].launches);
        cr_expect_eq (r.warm, cases[i].warm, "%" G_GUINT64_FORMAT
                      " launches", cases[i].launches);
        cr_expect (r.mem.dram_read_bytes >= cases[i].dram_lo &&
                       r.mem.dram_read_bytes <= cases[i].dram_hi,
                   "%" G_GUINT64_FORMAT " launches: %" G_GUINT64_FORMAT " B",
                   cases[i].launches, r.mem.dram_read_bytes);
        cr_expect (fabs (r.time_ms - r.kernel_ms - 0.9e-3 * (n - 1) / n) < 1e-12,
                   "time %.9f ms, kernel %.9f ms", r.time_ms, r.kernel_ms);
        if (i == 0)
            cold = r.cycles;
        else if (cases[i].set == NULL)
            cr_expect_lt (r.cycles, cold);
    }
    static const struct {
        const char *set;
        RunWarm warm;
        guint64 dram_lo, dram_hi;
    } sampled[] = {
        { NULL, RUN_WARM_REPLAYED, 0, 0 },
        { "device.l2_kib=4096", RUN_WARM_OUTGROWN, 12u << 20, G_MAXUINT64 },
    };
    for (guint i = 0; i < G_N_ELEMENTS (sampled); i++) {
        RunResult r;
        g_autoptr (Preset) p = run_a100 (sampled[i].set, "sgemm-4", 1024,
                                         RUN_SAMPLED, 50, &r);
        cr_assert (r.sampled && r.window < 128, "window %" G_GUINT64_FORMAT,
                   r.window);
        const char *l2 = sampled[i].set ? sampled[i].set : "40 MB L2";
        cr_expect_eq (r.warm, sampled[i].warm, "%s", l2);
        cr_expect (r.mem.dram_read_bytes >= sampled[i].dram_lo &&
                       r.mem.dram_read_bytes <= sampled[i].dram_hi,
                   "%s: %" G_GUINT64_FORMAT " B", l2, r.mem.dram_read_bytes);
    }
}

/* run_replay_l2: the L2 a whole launch leaves, from its accesses.  On
 * the A100 (128 B lines of four 32 B sectors, 40 MB):
 * - vecadd of 2^20 floats reads A and B and writes C, 4 MB each: 3 x
 *   2^22 / 128 = 98,304 lines, C's 2^22 / 32 = 131,072 sectors dirty;
 * - sgemm-4 at 256 reads A, B and C (beta is not 0) and writes C, 256
 *   KB each: 6,144 lines, 8,192 sectors dirty;
 * - in an L2 of 16 KB, at most its 128 lines, and since a launch ends
 *   storing C, the last lines touched are C's, all dirty (every
 *   sector);
 * - with lines of 256 B in sectors of 8 B (32 a line, as many as a
 *   line may have), vecadd's 12 MB are 49,152 lines and C's 4 MB
 *   524,288 dirty sectors.
 * A replay that may evict no more than 1 in 16 of the L2's lines gives
 * up on vecadd's 12 MB in an L2 of 4 MB (256 lines allowed).  In the
 * L2 of 16 KB vecadd's 98,304 lines, each touched once, evict all but
 * the 128 it holds: 98,176, which a replay allowed as many completes
 * and one allowed 98,175 gives up on. */
Test (kern, a_replayed_l2_holds_what_a_launch_touched, .timeout = 60)
{
    static const struct {
        const char *set[3], *kernel;
        gint64 size;
        guint64 max_evicted, lines, dirty;
    } cases[] = {
        { { NULL }, "vecadd", 1 << 20, G_MAXUINT64, 98304, 131072 },
        { { NULL }, "sgemm-4", 256, G_MAXUINT64, 6144, 8192 },
        { { "device.l2_kib=16" }, "vecadd", 1 << 20, G_MAXUINT64, 128, 512 },
        { { "mem.l1_line_bytes=256", "mem.l1_sector_bytes=8" }, "vecadd",
          1 << 20, G_MAXUINT64, 49152, 524288 },
        { { "device.l2_kib=4096" }, "vecadd", 1 << 20, 4096 * 1024 / 128 / 16,
          0, 0 },
        { { "device.l2_kib=16" }, "vecadd", 1 << 20, 98176, 128, 512 },
        { { "device.l2_kib=16" }, "vecadd", 1 << 20, 98175, 0, 0 },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        g_autoptr (GError) error = NULL;
        g_autoptr (Preset) p = preset_load ("a100", NULL, cases[i].set, &error);
        cr_assert_not_null (p, "%s", error ? error->message : "");
        const GpuSpec *s = preset_spec (p);
        g_autoptr (KernInstance) k = make (s, cases[i].kernel, cases[i].size,
                                           NULL);
        g_autoptr (Cache) l2 = run_replay_l2 (s, k, 108, cases[i].max_evicted,
                                              NULL, NULL);
        guint64 lines = 0, dirty = 0;
        if (cases[i].lines == 0) {
            cr_expect_null (l2, "case %u: replayed, not given up", i);
            continue;
        }
        cr_assert_not_null (l2, "case %u: given up", i);
        cache_census (l2, &lines, &dirty);
        cr_expect_eq (lines, cases[i].lines, "case %u: %" G_GUINT64_FORMAT
                      " lines", i, lines);
        cr_expect_eq (dirty, cases[i].dirty, "case %u: %" G_GUINT64_FORMAT
                      " dirty sectors", i, dirty);
    }
}

/* run_replay_cost by hand, on the A100's 128 B lines: sgemm-1 at 1024,
 * each of its 32,768 warps reading, for each of 1024 values of k, 32
 * rows of A (32 lines) and one word of B (one line), then C's 32 rows
 * (32 lines) and writing them (32 more): (33 x 1024 + 64) x 32,768 =
 * 1,109,393,408, within the budget run.c gives a replay; vecadd of 2^20
 * floats, each warp two loads and a store of one line each: 3 x 32,768
 * = 98,304. */
Test (kern, a_replay_costs_the_lines_its_accesses_touch)
{
    static const struct {
        const char *kernel;
        gint64 size;
        double lines;
    } cases[] = {
        { "sgemm-1", 1024, (33.0 * 1024 + 64) * 32768 },
        { "vecadd", 1 << 20, 3.0 * 32768 },
    };
    g_autoptr (Preset) p = tu_preset ("a100");
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        g_autoptr (KernInstance) k = make (preset_spec (p), cases[i].kernel,
                                           cases[i].size, NULL);
        double c = run_replay_cost (preset_spec (p), k);
        cr_expect_eq (c, cases[i].lines, "%s: %.0f lines, by hand %.0f",
                      cases[i].kernel, c, cases[i].lines);
    }
}
