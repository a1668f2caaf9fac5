/*
 * test-occ.c -- exact occupancy (occ_compute) and the textbook estimate.
 *
 * Every expected value is written here with where it comes from: the
 * seeds' worked examples, NVIDIA's calculator (cuda_occupancy.h results
 * recorded in ../shared/data/microarch.md 2.5 and data/README.md 1c), or
 * a hand calculation from the allocation rules shown beside the row.
 * The presets are the shipped ones: a wrong preset value fails here.
 */
#include "config.h"

#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "models/occ.h"
#include "testutil.h"

#define R OCC_LIMITER_REGS
#define S OCC_LIMITER_SMEM
#define W OCC_LIMITER_WARPS
#define B OCC_LIMITER_BLOCKS

/* Criterion hands each row to a fresh process: rows hold arrays, not
 * pointers (a pointer into .rodata is not valid there). */
typedef struct {
    char gpu[16];
    int threads, regs, static_smem, dyn_smem, carveout;
    int blocks, warps;
    double pct;
    unsigned limiter;
} Case;

static const Case cases[] = {
    /* Seed 003 (Lei Mao, "CUDA occupancy calculation"), cc 7.0:
     * 37 x 32 = 1184 -> 1280 per warp; 16384 / 1280 = 12 warps per
     * sub-partition, 48 per SM; 128 threads = 4 warps -> 12 blocks. */
    { "v100", 128, 37, 0, 0, -1, 12, 48, 75.0, R },
    /* Same, 320 threads = 10 warps: 48 / 10 = 4 blocks, 40 warps,
     * 62.5 % (the blog rounds to 63 %). */
    { "v100", 320, 37, 0, 0, -1, 4, 40, 62.5, R },

    /* Seed 001 (PMPP 4.7), A100: 2048 thread slots, 32 block slots.
     * 16 registers never bind (512 per warp, 32 warps per quarter). */
    { "a100", 1024, 16, 0, 0, -1, 2, 64, 100.0, W },
    { "a100", 512, 16, 0, 0, -1, 4, 64, 100.0, W },
    { "a100", 256, 16, 0, 0, -1, 8, 64, 100.0, W },
    { "a100", 128, 16, 0, 0, -1, 16, 64, 100.0, W },
    { "a100", 64, 16, 0, 0, -1, 32, 64, 100.0, W | B },
    /* 32-thread blocks: 32 block slots x 1 warp = 32 of 64 warps. */
    { "a100", 32, 16, 0, 0, -1, 32, 32, 50.0, B },
    /* 768-thread blocks = 24 warps: 64 / 24 = 2 blocks, 48 warps. */
    { "a100", 768, 16, 0, 0, -1, 2, 48, 75.0, W },
    /* 31 regs x 512 threads: 992 -> 1024 per warp, 16 warps per
     * quarter, 64 per SM: 4 blocks (the warps allow 4 too). */
    { "a100", 512, 31, 0, 0, -1, 4, 64, 100.0, R | W },
    /* 33 regs: 1056 -> 1280 per warp, 12 per quarter, 48 per SM:
     * 3 blocks, 75 % (PMPP's "performance cliff"). */
    { "a100", 512, 33, 0, 0, -1, 3, 48, 75.0, R },
    /* 64 regs: 2048 per warp, 8 per quarter, 32 warps: 50 %. */
    { "a100", 512, 64, 0, 0, -1, 2, 32, 50.0, R },

    /* Seed 000 (PMPP 5.6): 32 KB of shared memory, 256 threads, A100.
     * 32768 + 1024 reserved = 33792 B per block (a multiple of 128);
     * 167936 / 33792 = 4.97 -> 4 blocks x 8 warps = 32 warps, 50 %. */
    { "a100", 256, 32, 32768, 0, -1, 4, 32, 50.0, S },

    /* Seed 002 (CUDA book, occupancy section), cc 3.5, 128 threads:
     * 48 KB per SM; 3 KB -> 16 blocks (also the block slots and
     * 64 warps / 4), 6 KB -> 8, 12 KB -> 4. */
    { "k40", 128, 16, 3072, 0, -1, 16, 64, 100.0, S | W | B },
    { "k40", 128, 16, 6144, 0, -1, 8, 32, 50.0, S },
    { "k40", 128, 16, 12288, 0, -1, 4, 16, 25.0, S },

    /* Seed 004 / Boehm kernel 3 on the A6000: 1024 threads, 37 regs,
     * 8 KB: 1280 per warp, 12 warps per quarter = 48 = one 32-warp
     * block; warp slots 48 / 32 = 1 too. 32 of 48 warps. */
    { "a6000", 1024, 37, 8192, 0, -1, 1, 32, 100.0 * 32 / 48, R | W },

    /* microarch.md 2.5, computed with cuda_occupancy.h (CUDA 13.0). */
    { "a6000", 1024, 37, 0, 0, -1, 1, 32, 100.0 * 32 / 48, R | W },
    { "a6000", 512, 40, 4096, 0, -1, 3, 48, 100.0, R | W },
    { "a6000", 256, 128, 8192, 0, -1, 2, 16, 100.0 * 16 / 48, R },
    { "a6000", 256, 255, 8192, 0, -1, 1, 8, 100.0 * 8 / 48, R },
    { "a6000", 128, 32, 49152, 0, -1, 2, 8, 100.0 * 8 / 48, S },
    { "a6000", 128, 32, 49152, 0, 50, 1, 4, 100.0 * 4 / 48, S },
    { "a6000", 128, 32, 8192, 0, 0, 1, 4, 100.0 * 4 / 48, S },
    { "a100", 1024, 37, 0, 0, -1, 1, 32, 50.0, R },
    { "a100", 256, 128, 8192, 0, -1, 2, 16, 25.0, R },
    { "a100", 128, 32, 49152, 0, -1, 3, 12, 18.75, S },
    { "a100", 32, 16, 0, 0, -1, 32, 32, 50.0, B },
    { "a100", 128, 33, 0, 0, -1, 12, 48, 75.0, R },
    { "a100", 128, 32, 20000, 0, -1, 7, 28, 43.75, S },
    { "h100", 128, 32, 49152, 0, -1, 4, 16, 25.0, S },

    /* DESIGN.md: cc 8.0, 33 regs, 96 threads. 48 warps by registers,
     * 3 warps per block, not rounded: 16 blocks (the spreadsheet's
     * warp-granularity shortcut gives 12). */
    { "a100", 96, 33, 0, 0, -1, 16, 48, 75.0, R },

    /* data/README.md 1c (ptxas register counts, cuda_occupancy.h):
     * K5 on A6000: 128 regs, 256 threads, 8 KB -> 2 blocks. */
    { "a6000", 256, 128, 8192, 0, -1, 2, 16, 100.0 * 16 / 48, R },
    /* K10: 168 x 32 = 5376 (21 units), 16384 / 5376 = 3 per quarter,
     * 12 warps, 4-warp blocks -> 3 blocks, 25 %. */
    { "a6000", 128, 168, 16384, 0, -1, 3, 12, 25.0, R },
    /* K11: 170 x 32 = 5440 -> 5632, 2 per quarter = 8 warps = 1 block;
     * 48 KB + 1 KB = 50176 B: 102400 / 50176 = 2. */
    { "a6000", 256, 170, 49152, 0, -1, 1, 8, 100.0 * 8 / 48, R },
    /* K9 with the A100 settings: 41 x 32 = 1312 -> 1536, 10 per
     * quarter, 40 warps / 8 = 5 blocks, 62.5 %. */
    { "a100", 256, 41, 8192, 0, -1, 5, 40, 62.5, R },

    /* Hand calculations for the edges of the rules. */
    /* Dynamic shared memory at the A100 opt-in maximum: 166912 + 1024
     * = 167936 B, exactly the SM: 1 block. */
    { "a100", 128, 32, 0, 166912, -1, 1, 4, 100.0 * 4 / 64, S },
    /* The 128 B allocation unit of cc 8.x (microarch.md 2.1, 2.2 item
     * 4: the reserve added, then rounded up): 54926 B dynamic + 1024
     * reserved = 55950 B, not a multiple of 128 (437 x 128 = 55936),
     * so 438 x 128 = 56064 B a block; 167936 / 56064 = 2.995 -> 2
     * blocks x 4 warps = 8 of 64, 12.5 %.  Unrounded, 3 x 55950 =
     * 167850 <= 167936 would make it 3. */
    { "a100", 128, 32, 0, 54926, -1, 2, 8, 12.5, S },
    /* 100 % carveout preference = the default on A100. */
    { "a100", 256, 32, 32768, 0, 100, 4, 32, 50.0, S },
    /* 25 % of 167936 = 41984 -> 64 KB step; 65536 / 33792 = 1. */
    { "a100", 256, 32, 32768, 0, 25, 1, 8, 12.5, S },
    /* Turing's smallest step is 32 KB: carveout 0 still gives
     * 32768 / 8192 = 4 blocks (no reserve before cc 8). */
    { "t4", 128, 32, 8192, 0, 0, 4, 16, 50.0, S },
    /* 0 registers: no register limit (the runtime allows it). */
    { "a100", 256, 0, 0, 0, -1, 8, 64, 100.0, W },
    /* Threads not a multiple of 32 take whole warps: 33 threads = 2
     * warps; 32 block slots x 2 = 64 warps. */
    { "a100", 33, 16, 0, 0, -1, 32, 64, 100.0, W | B },
    /* P100 (cc 6.0): 2 sub-partitions of 32768 registers; 96 regs x 32
     * = 3072 per warp: 10 warps each, 20 per SM; 128-thread blocks -> 5. */
    { "p100", 128, 96, 0, 0, -1, 5, 20, 100.0 * 20 / 64, R },
};

ParameterizedTestParameters (occ, worked_examples)
{
    return cr_make_param_array (Case, cases, G_N_ELEMENTS (cases));
}

ParameterizedTest (const Case *c, occ, worked_examples)
{
    g_autoptr (Preset) preset = tu_preset (c->gpu);
    OccLaunch l = { c->threads, c->regs, c->static_smem, c->dyn_smem,
                    c->carveout };
    OccResult r;
    char got[64], want[64];
    occ_compute (preset_spec (preset), &l, &r);
    cr_assert_eq (r.status, OCC_OK, "%s %d threads %d regs: status %d",
                  c->gpu, c->threads, c->regs, r.status);
    cr_expect_eq (r.blocks_per_sm, c->blocks, "%s %d thr %d regs %d+%d B: "
                  "blocks %d, expected %d", c->gpu, c->threads, c->regs,
                  c->static_smem, c->dyn_smem, r.blocks_per_sm, c->blocks);
    cr_expect_eq (r.warps_per_sm, c->warps);
    cr_expect_float_eq (r.occupancy_pct, c->pct, 1e-9);
    cr_expect_eq (r.limiter, c->limiter, "%s %d thr %d regs: limiter %s, "
                  "expected %s", c->gpu, c->threads, c->regs,
                  occ_limiter_name (r.limiter, got, sizeof got),
                  occ_limiter_name (c->limiter, want, sizeof want));
}

/* ------------------------------------------------------------------ */
/* Launches that cannot run                                            */

typedef struct {
    char gpu[16];
    gint64 threads, regs, static_smem, dyn_smem;
    int carveout;
    OccStatus status;
    char message[48];   /* must appear in the error */
} Impossible;

static const Impossible impossible[] = {
    /* 255 x 32 = 8160 -> 8192 per warp x 16 warps = 131072 > 65536. */
    { "a100", 512, 255, 0, 0, -1, OCC_REGS_PER_BLOCK, "131072" },
    /* 9 warps of 192 x 32 = 6144 registers are 55296 <= 65536, but the
     * check rounds the warps up to 4 sub-partitions' worth: 12 x 6144 =
     * 73728 > 65536 (microarch.md 2.2). */
    { "a100", 288, 192, 0, 0, -1, OCC_REGS_PER_BLOCK, "73728" },
    { "a100", 0, 32, 0, 0, -1, OCC_BAD_INPUT, "at least 1 thread" },
    { "a100", -5, 32, 0, 0, -1, OCC_BAD_INPUT, "-5" },
    { "a100", 1025, 32, 0, 0, -1, OCC_TOO_MANY_THREADS, "1024" },
    { "a100", 2000, 32, 0, 0, -1, OCC_TOO_MANY_THREADS, "2000" },
    { "a100", 128, -1, 0, 0, -1, OCC_BAD_INPUT, "negative" },
    { "a100", 128, 257, 0, 0, -1, OCC_TOO_MANY_REGS, "256" },
    { "k40", 128, 256, 0, 0, -1, OCC_TOO_MANY_REGS, "255" },
    { "a100", 128, 32, -4, 0, -1, OCC_BAD_INPUT, "negative" },
    { "a100", 128, 32, 0, -4096, -1, OCC_BAD_INPUT, "negative" },
    { "a100", 128, 32, 0, 0, 101, OCC_BAD_INPUT, "0..100" },
    /* Static shared memory is capped at 48 KB by the compiler. */
    { "a100", 128, 32, 49153, 0, -1, OCC_STATIC_SMEM, "49152" },
    /* One byte over the A100's opt-in maximum of 166912 B. */
    { "a100", 128, 32, 0, 166913, -1, OCC_SMEM_PER_BLOCK, "166912" },
    { "a100", 128, 32, 40000, 126913, -1, OCC_SMEM_PER_BLOCK, "166913" },
    /* CUDA book: over 48 KB on cc 3.5 cannot launch. */
    { "k40", 128, 16, 0, 49153, -1, OCC_SMEM_PER_BLOCK, "49152" },
    { "h100", 128, 32, 0, 232449, -1, OCC_SMEM_PER_BLOCK, "232448" },
    { "a6000", 128, 32, 0, 101377, -1, OCC_SMEM_PER_BLOCK, "101376" },
};

ParameterizedTestParameters (occ, impossible)
{
    return cr_make_param_array (Impossible, impossible,
                                G_N_ELEMENTS (impossible));
}

ParameterizedTest (const Impossible *c, occ, impossible)
{
    g_autoptr (Preset) preset = tu_preset (c->gpu);
    g_autoptr (GError) error = NULL;
    OccLaunch l = { c->threads, c->regs, c->static_smem, c->dyn_smem,
                    c->carveout };
    OccResult r;
    occ_compute (preset_spec (preset), &l, &r);
    cr_assert_eq (r.status, c->status, "status %d, expected %d", r.status,
                  c->status);
    cr_assert_eq (r.blocks_per_sm, 0);
    cr_assert_not (occ_check (preset_spec (preset), &l, &r, &error));
    cr_assert_not_null (error);
    cr_assert (strstr (error->message, c->message) != NULL,
               "'%s' lacks '%s'", error->message, c->message);
}

/* ------------------------------------------------------------------ */
/* Properties over every preset                                        */

static const char *const gpus[] = { "k40", "p100", "v100", "t4", "rtx2070",
                                    "a100", "a6000", "h100" };

static int
blocks (const GpuSpec *s, int threads, int regs, int smem)
{
    OccLaunch l = { threads, regs, 0, smem, -1 };
    OccResult r;
    occ_compute (s, &l, &r);
    return r.status == OCC_OK ? r.blocks_per_sm : 0;
}

Test (occ, never_rises_with_registers)
{
    for (guint g = 0; g < G_N_ELEMENTS (gpus); g++) {
        g_autoptr (Preset) p = tu_preset (gpus[g]);
        for (int t = 32; t <= 1024; t += 32) {
            int prev = blocks (preset_spec (p), t, 0, 0);
            for (int regs = 1; regs <= 256; regs++) {
                int now = blocks (preset_spec (p), t, regs, 0);
                cr_assert_leq (now, prev, "%s %d thr: %d regs gives %d "
                               "blocks, %d regs gave %d", gpus[g], t, regs,
                               now, regs - 1, prev);
                prev = now;
            }
        }
    }
}

Test (occ, never_rises_with_shared_memory)
{
    for (guint g = 0; g < G_N_ELEMENTS (gpus); g++) {
        g_autoptr (Preset) p = tu_preset (gpus[g]);
        const GpuSpec *s = preset_spec (p);
        for (int t = 32; t <= 1024; t *= 2) {
            int prev = blocks (s, t, 32, 0);
            for (int smem = 64; smem <= s->sm.smem_bytes + 1024; smem += 64) {
                int now = blocks (s, t, 32, smem);
                cr_assert_leq (now, prev, "%s %d thr: %d B gives %d blocks",
                               gpus[g], t, smem, now);
                prev = now;
            }
        }
    }
}

/* Whatever the launch, the resident blocks fit every per-SM resource. */
Test (occ, never_exceeds_a_limit)
{
    for (guint g = 0; g < G_N_ELEMENTS (gpus); g++) {
        g_autoptr (Preset) p = tu_preset (gpus[g]);
        const GpuSpec *s = preset_spec (p);
        for (int t = 1; t <= 1024; t += 37)
            for (int regs = 0; regs <= 255; regs += 17)
                for (int smem = 0; smem <= 60000; smem += 3001) {
                    OccLaunch l = { t, regs, 0, smem, -1 };
                    OccResult r;
                    occ_compute (s, &l, &r);
                    if (r.status != OCC_OK)
                        continue;
                    cr_assert_leq (r.blocks_per_sm, s->sm.max_blocks);
                    cr_assert_leq (r.threads_per_sm, s->sm.max_threads);
                    cr_assert_leq (r.warps_per_sm, r.max_warps_per_sm);
                    cr_assert_leq (r.blocks_per_sm * r.regs_per_block,
                                   s->sm.registers);
                    cr_assert_leq (r.blocks_per_sm * r.smem_per_block,
                                   s->sm.smem_bytes);
                    cr_assert_geq (r.blocks_per_sm, 1, "%s: a launch that "
                                   "passes the checks runs at least one "
                                   "block", gpus[g]);
                }
    }
}

/* PMPP 4.7: block size is not monotonic; 32 -> 64 threads doubles the
 * occupancy on A100 (block slots bind at 32). */
Test (occ, block_size_is_not_monotonic)
{
    g_autoptr (Preset) p = tu_preset ("a100");
    OccLaunch l32 = { 32, 16, 0, 0, -1 }, l64 = { 64, 16, 0, 0, -1 };
    OccResult r32, r64;
    occ_compute (preset_spec (p), &l32, &r32);
    occ_compute (preset_spec (p), &l64, &r64);
    cr_assert_float_eq (r64.occupancy_pct, 2 * r32.occupancy_pct, 1e-9);
}

/* The carveout the driver picks at launch (assumed rule 'fit'): the
 * smallest step holding the resident blocks.  A6000 kernel 3: one block
 * of 9216 B -> the 16 KB step, leaving 128 - 16 = 112 KB of L1. */
Test (occ, launch_carveout_fit)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    OccLaunch l = { 1024, 37, 8192, 0, -1 };
    OccResult r;
    cr_assert_eq (preset_spec (p)->alloc.launch_carveout, SPEC_CARVEOUT_FIT);
    occ_compute (preset_spec (p), &l, &r);
    cr_assert_eq (r.launch_carveout, 16 * 1024);
    cr_assert_eq (r.l1_bytes, 112 * 1024);
}

/* The same rule where more than one block is resident: the step must
 * hold them all, not one.  A6000, 128 threads, 32 registers, 48 KB
 * static (microarch.md 2.5: 2 blocks an SM): each block 49152 + 1024 =
 * 50176 B, the two 100352 B.  The A6000's steps (microarch.md 2.3,
 * cc 8.6) are 0, 8, 16, 32, 64 and 100 KB: 64 KB = 65536 B holds one
 * block but not two, so the 100 KB step, leaving 128 - 100 = 28 KB of
 * L1 (sized for one block it would be 64 KB, and 64 KB of L1). */
Test (occ, launch_carveout_fit_holds_every_resident_block)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    OccLaunch l = { 128, 32, 49152, 0, -1 };
    OccResult r;
    occ_compute (preset_spec (p), &l, &r);
    cr_assert_eq (r.blocks_per_sm, 2);
    cr_assert_eq (r.smem_per_block, 50176);
    cr_assert_eq (r.launch_carveout, 100 * 1024);
    cr_assert_eq (r.l1_bytes, 28 * 1024);
}

/* A block that passes every per-block check yet finds no room on the
 * SM: the what-if figure's "four times the schedulers" for sgemm-10 on
 * the A6000.  16 sub-partitions split 65536 registers into 4096 each;
 * 168 registers x 32 = 5376 per warp (a multiple of 256 already) does
 * not fit one, so 0 warps an SM, 0 blocks.  The calculator answers 0
 * (as CUDA's does); a launch cannot run.  With the shipped 4
 * sub-partitions, 16384 each hold 3 warps, 12 an SM: 3 blocks of 4. */
Test (occ, no_block_fits_is_an_answer_not_a_launch)
{
    const char *sets[] = { "sm.sub_partitions=16", "sm.fp32_lanes=512",
                           NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) four = preset_load ("a6000", NULL, sets, &error);
    g_autoptr (Preset) p = tu_preset ("a6000");
    cr_assert_not_null (four, "%s", error ? error->message : "");
    OccLaunch l = { 128, 168, 0, 0, -1 };
    OccResult r;
    occ_compute (preset_spec (four), &l, &r);
    cr_assert (occ_check (preset_spec (four), &l, &r, NULL));
    cr_assert_eq (r.regs_per_warp, 5376);
    cr_assert_eq (r.regs_per_sub_partition, 4096);
    cr_assert_eq (r.blocks_per_sm, 0);
    cr_assert_eq (r.limiter & R, R);
    cr_assert_not (occ_check_fits (preset_spec (four), &r, &error));
    cr_assert (g_error_matches (error, SMSIM_LAUNCH_ERROR, OCC_NO_BLOCK_FITS));
    cr_assert (strstr (error->message, "registers") != NULL, "%s",
               error->message);

    occ_compute (preset_spec (p), &l, &r);
    cr_assert_eq (r.blocks_per_sm, 3);
    cr_assert (occ_check_fits (preset_spec (p), &r, NULL));
}

/* ------------------------------------------------------------------ */
/* The textbook estimate                                               */

Test (occ, textbook_pmpp_shared_memory)
{
    /* Seed 000: 32 KB / 256 threads.  The seed writes 132 B/thread and
     * 1272 threads, 62 %; 32768 / 256 is 128 B, and 167936 / 128 = 1312
     * threads = 64.06 %.  The exact answer is 50 % (4 whole blocks). */
    g_autoptr (Preset) p = tu_preset ("a100");
    OccLaunch l = { 256, 32, 32768, 0, -1 };
    OccTextbook e;
    occ_textbook (preset_spec (p), &l, &e);
    cr_assert_float_eq (e.smem_bytes_per_thread, 128.0, 1e-12);
    cr_assert_float_eq (e.threads_by_smem, 1312.0, 1e-12);
    cr_assert_float_eq (e.occupancy_pct, 100.0 * 1312 / 2048, 1e-9);
}

Test (occ, textbook_registers)
{
    /* Seed 001: 33 registers, per-thread arithmetic: 65536 / 33 = 1985
     * threads (96.9 %), where the exact rules give 75 %. */
    g_autoptr (Preset) p = tu_preset ("a100");
    OccLaunch l = { 512, 33, 0, 0, -1 };
    OccTextbook e;
    occ_textbook (preset_spec (p), &l, &e);
    cr_assert_float_eq (e.threads, 1985.0, 1e-12);
}

Test (occ, textbook_agrees_on_the_cuda_book_cases)
{
    /* Seed 002: on cc 3.5 with 128-thread blocks, 3/6/12 KB per block
     * give 100/50/25 % by the book's arithmetic, as by the exact one. */
    g_autoptr (Preset) p = tu_preset ("k40");
    const int kb[] = { 3, 6, 12 };
    const double pct[] = { 100.0, 50.0, 25.0 };
    for (int i = 0; i < 3; i++) {
        OccLaunch l = { 128, 16, kb[i] * 1024, 0, -1 };
        OccTextbook e;
        occ_textbook (preset_spec (p), &l, &e);
        cr_assert_float_eq (e.occupancy_pct, pct[i], 1e-9);
    }
}

Test (occ, textbook_counts_block_slots)
{
    /* One-warp blocks on the A100: 32 block slots x 32 threads = 1024
     * of its 2048 threads, 50 %, though registers (65536 / 32 = 2048
     * threads) and shared memory (none) would allow all. */
    g_autoptr (Preset) p = tu_preset ("a100");
    OccLaunch l = { 32, 32, 0, 0, -1 };
    OccTextbook e;
    occ_textbook (preset_spec (p), &l, &e);
    cr_assert_float_eq (e.threads_by_slots, 1024.0, 1e-12);
    cr_assert_float_eq (e.occupancy_pct, 50.0, 1e-9);
}

Test (occ, limiter_names)
{
    char buf[64];
    cr_assert_str_eq (occ_limiter_name (R | W, buf, sizeof buf),
                      "registers+warps");
    cr_assert_str_eq (occ_limiter_name (S, buf, sizeof buf), "shared_mem");
    cr_assert_str_eq (occ_limiter_name (0, buf, sizeof buf), "none");
}
