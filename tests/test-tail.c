/*
 * test-tail.c -- a partial last wave dealt out to SMs whole or one
 * block an SM: the dispatcher's two orders (gpu.c) and the rule that
 * chooses between them (run_tail.h), by hand.
 */
#include "config.h"

#include <criterion/criterion.h>

#include "models/kern.h"
#include "models/preset.h"
#include "models/run_tail.h"
#include "sim/gpu.h"

/* Round robin leaves every SM fewer blocks of the last wave than it has
 * slots only where that wave is at most (slots - 1) x SMs blocks. */
Test (tail, packing_can_matter_only_where_round_robin_leaves_slots_empty)
{
    /* The A100's 108 SMs, 4 in full, 2 blocks an SM, a wave and 40 more. */
    cr_expect (run_tail_may_pack (4, 108, 2, 1, 40));
    cr_expect (run_tail_may_pack (4, 108, 2, 1, 108), "one each, 2 slots");
    cr_expect_not (run_tail_may_pack (4, 108, 2, 1, 109),
                   "109 blocks: round robin gives SM 0 two");
    cr_expect_not (run_tail_may_pack (4, 108, 2, 1, 1), "a single block");
    cr_expect (run_tail_may_pack (4, 108, 3, 1, 216), "3 slots, 2 each");
    cr_expect_not (run_tail_may_pack (4, 108, 1, 1, 40), "one slot an SM");
    cr_expect_not (run_tail_may_pack (108, 108, 2, 1, 40),
                   "every SM in full: the exact dispatcher");
    cr_expect_not (run_tail_may_pack (4, 108, 2, 0, 40),
                   "no whole wave: the blocks go out at the start");
    cr_expect_not (run_tail_may_pack (4, 108, 2, 1, 0), "no partial wave");
}

/* Four SMs in full, two blocks each, retiring at (1000, 1100), (2000,
 * 2050), (4000, 4100) and (7200, 7000): gaps 100, 50, 100 and 200,
 * median 100; the first retirements span 6000 cycles, which four
 * evenly spread draws do for 3/5 of the whole, 10,000.  With 40 blocks
 * in the last wave on 108 SMs, the first SM frees its second slot
 * before 108 x 100 / 10,000 = 1.08 SMs free their first: it takes two
 * (40 x 10,000 / 108 = 3,704 > 100).  With one block in the last wave
 * (92.6 < 100), or gaps of 5,000, it does not. */
Test (tail, sms_whose_blocks_retire_together_take_the_last_wave_whole)
{
    Cycle ends[] = { 1000, 1100, 2000, 2050, 4000, 4100, 7200, 7000 };
    cr_expect (run_tail_packs (ends, 4, 2, 40, 108));
    cr_expect_not (run_tail_packs (ends, 4, 2, 1, 108));
    cr_expect (run_tail_packs (ends, 4, 2, 2, 108), "185 > 100");
    /* On 100 SMs, 100 x 100 / 10,000 = 1 SM frees its first slot by
     * then: not fewer than a last wave of 1 block, so no packing
     * (1 x 10,000 / 100 = 100, not > 100). */
    cr_expect_not (run_tail_packs (ends, 4, 2, 1, 100), "100 = 100");
    Cycle apart[] = { 1000, 6000, 2000, 7000, 4000, 9000, 7000, 12000 };
    cr_expect_not (run_tail_packs (apart, 4, 2, 40, 108));
    cr_expect_not (run_tail_packs (ends, 1, 2, 40, 108),
                   "one SM in full tells no spread");
}

/* Three blocks an SM: the gap is from an SM's first retirement to its
 * last.  SMs (0, 10, 20) and (1000, 1010, 1500): gaps 20 and 500,
 * median 260; first retirements 1000 apart, 3000 for two draws. */
Test (tail, an_sm_frees_all_its_slots_by_its_last_retirement)
{
    Cycle ends[] = { 20, 0, 10, 1500, 1000, 1010 };
    /* 3000 x tail / 100 against 260: packs from 9 blocks on. */
    cr_expect_not (run_tail_packs (ends, 2, 3, 8, 100));
    cr_expect (run_tail_packs (ends, 2, 3, 9, 100));
}

/* The dispatcher's orders, seen from block_retired (the SMs in full)
 * and the streams opened (every block, mirrors' too). */
typedef struct {
    const KernInstance *k;
    guint64 opened[64];
    guint64 block_of[4][4];     /* each SM in full's blocks, in order */
    int n[4];
} Dealt;

static InstrStream *
open_own (void *ctx, guint64 block, int warp)
{
    Dealt *d = ctx;
    d->opened[block]++;
    return kern_open_warp (d->k, block, warp);
}

static InstrStream *
open_mirror (void *ctx, guint64 block, int warp)
{
    Dealt *d = ctx;
    d->opened[block]++;
    return kern_open_mirror_window (d->k, block, warp, d->k->iterations);
}

static void
retired (void *ctx, int sm, guint64 block, Cycle at)
{
    Dealt *d = ctx;
    (void) at;
    cr_assert_lt (sm, 4);
    cr_assert_lt (d->n[sm], 4);
    d->block_of[sm][d->n[sm]++] = block;
}

/* 36 one-warp blocks on 12 SMs of 2 slots, 4 in full (SM s mirrored by
 * s + 4 and s + 8): a wave of 24 and 12 more.  The first wave goes
 * round robin either way, SM s taking s and 12 + s.  Round robin gives
 * the last wave's 12 one to each SM, SM s block 24 + s; packed, the
 * first 6 SMs take two each, SM s blocks 24 + 2s and 25 + 2s.  Either
 * way every block runs once. */
static void
deal (gboolean pack, Dealt *d)
{
    const char *sets[] = { "device.sm_count=12", NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load ("a100", NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    const GpuSpec *s = preset_spec (p);
    const char *params[] = { "ITERS=4", "FOOTPRINT=128", NULL };
    g_autoptr (KernInstance) k =
        kern_instance_new (kern_find ("loaduse"), s, 36, params, &error);
    cr_assert_not_null (k, "%s", error ? error->message : "");
    cr_assert_eq (kern_blocks (k), 36);
    *d = (Dealt) { .k = k };
    GpuWorkload w = { .n_blocks = 36, .threads_per_block = 32,
                      .max_blocks = 2, .l1_bytes = 64 * 1024,
                      .open_warp = open_own, .ctx = d, .detailed_sms = 4,
                      .open_mirror = open_mirror, .block_retired = retired,
                      .pack_last_wave = pack };
    g_autoptr (Gpu) gpu = gpu_new (s, &w);
    gpu_run (gpu);
    d->k = NULL;
    for (guint64 b = 0; b < 36; b++)
        cr_expect_eq (d->opened[b], 1, "block %" G_GUINT64_FORMAT " ran %"
                      G_GUINT64_FORMAT " times", b, d->opened[b]);
}

static void
expect_blocks (const Dealt *d, int sm, int n, const guint64 *want)
{
    cr_expect_eq (d->n[sm], n, "SM %d ran %d blocks", sm, d->n[sm]);
    /* The first wave's two retire in either order. */
    gboolean first = (d->block_of[sm][0] == want[0] &&
                      d->block_of[sm][1] == want[1]) ||
                     (d->block_of[sm][0] == want[1] &&
                      d->block_of[sm][1] == want[0]);
    cr_expect (first, "SM %d: first wave %" G_GUINT64_FORMAT " and %"
               G_GUINT64_FORMAT, sm, d->block_of[sm][0], d->block_of[sm][1]);
    for (int i = 2; i < MIN (n, d->n[sm]); i++) {
        gboolean found = FALSE;
        for (int j = 2; j < n; j++)
            found |= d->block_of[sm][i] == want[j];
        cr_expect (found, "SM %d ran block %" G_GUINT64_FORMAT, sm,
                   d->block_of[sm][i]);
    }
}

Test (tail, round_robin_gives_the_last_wave_one_block_an_sm)
{
    Dealt d;
    deal (FALSE, &d);
    for (int sm = 0; sm < 4; sm++) {
        guint64 want[] = { (guint64) sm, 12 + (guint64) sm,
                           24 + (guint64) sm };
        expect_blocks (&d, sm, 3, want);
    }
}

Test (tail, packed_the_first_sms_take_the_last_wave_whole)
{
    Dealt d;
    deal (TRUE, &d);
    for (int sm = 0; sm < 4; sm++) {
        guint64 want[] = { (guint64) sm, 12 + (guint64) sm,
                           24 + 2 * (guint64) sm, 25 + 2 * (guint64) sm };
        expect_blocks (&d, sm, 4, want);
    }
}
