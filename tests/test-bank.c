/*
 * test-bank.c -- shared-memory bank conflicts: wavefronts per warp
 * shared-memory instruction.
 *
 * Expected values are hand calculations written beside each row: with
 * 32 banks of 4 B, byte address a is word a / 4 in bank (a / 4) mod 32;
 * a phase (the whole warp for 32-bit accesses, half-warps for 64-bit,
 * quarter-warps for 128-bit) costs the largest number of DISTINCT words
 * one bank holds; same-word lanes are one delivery (broadcast).  A naive
 * reference (quadratic, no sorting) cross-checks random accesses.
 */
#include "config.h"

#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/theories.h>

#include "sim/bank.h"

/* Criterion hands each row to a fresh process: rows hold arrays, not
 * pointers (a pointer into .rodata is not valid there). */
typedef struct {
    char what[64];
    int n_banks, bank_bytes;
    int width;
    guint32 active;
    gboolean explicit_form;
    guint64 base;                 /* stride form */
    gint64 stride;
    guint64 addr[32];             /* explicit form */
    int wavefronts, ideal;
    gboolean merged;              /* mem.smem_merge_phases */
} Case;

#define ALL 0xffffffffu

static const Case cases[] = {
    /* Row of a 32 x 32 float tile: lane i reads word i, bank i: 1. */
    { "tile row", 32, 4, 4, ALL, FALSE, 0x0, 4, { 0 }, 1, 1, FALSE },
    /* Column: lane i reads word 32 i, all in bank 0, 32 distinct: 32. */
    { "tile column", 32, 4, 4, ALL, FALSE, 0x0, 128, { 0 }, 32, 1, FALSE },
    /* Column of a tile padded to 33: word 33 i, bank i: 1. */
    { "padded column", 32, 4, 4, ALL, FALSE, 0x0, 132, { 0 }, 1, 1, FALSE },
    /* Every lane one word: one delivery, broadcast: 1. */
    { "one word", 32, 4, 4, ALL, FALSE, 0x40, 0, { 0 }, 1, 1, FALSE },
    /* float4 consecutive: lane i reads bytes 16 i..16 i + 15 = words
     * 4 i..4 i + 3.  Quarter-warp j (lanes 8 j..8 j + 7) reads words
     * 32 j..32 j + 31, each bank once: 4 phases of 1, no conflict. */
    { "float4 consecutive", 32, 4, 16, ALL, FALSE, 0x0, 16, { 0 }, 4, 4,
      FALSE },
    /* Stride 2 floats: word 2 i, bank 2 i mod 32; lanes i and i + 16
     * share a bank with different words: 2. */
    { "stride 2 floats", 32, 4, 4, ALL, FALSE, 0x0, 8, { 0 }, 2, 1, FALSE },
    /* 64-bit consecutive: lane i reads words 2 i, 2 i + 1; half-warp h
     * reads words 32 h..32 h + 31, each bank once: 2 phases of 1. */
    { "64-bit consecutive", 32, 4, 8, ALL, FALSE, 0x0, 8, { 0 }, 2, 2, FALSE },

    /* Column with lanes 0-15 active: 16 distinct words in bank 0. */
    { "column, 16 lanes", 32, 4, 4, 0x0000ffffu, FALSE, 0x0, 128, { 0 },
      16, 1, FALSE },
    /* Column, one lane: no one to conflict with. */
    { "column, 1 lane", 32, 4, 4, 0x1u, FALSE, 0x0, 128, { 0 }, 1, 1, FALSE },
    /* No active lane: nothing. */
    { "no active lane", 32, 4, 4, 0, FALSE, 0x0, 128, { 0 }, 0, 0, FALSE },
    /* chars, consecutive: bytes 0..31 are words 0..7, four lanes to a
     * word (multicast): 1. */
    { "chars consecutive", 32, 4, 1, ALL, FALSE, 0x0, 1, { 0 }, 1, 1, FALSE },
    /* shorts, consecutive: bytes 0..63 are words 0..15: 1. */
    { "shorts consecutive", 32, 4, 2, ALL, FALSE, 0x0, 2, { 0 }, 1, 1, FALSE },
    /* chars, stride 128 B: word 32 i, bank 0: 32 (an 8-bit access is
     * served as its 32-bit word). */
    { "chars column", 32, 4, 1, ALL, FALSE, 0x0, 128, { 0 }, 32, 1, FALSE },
    /* 64-bit, stride 256 B: half-warp lanes read words 64 i, 64 i + 1,
     * banks 0 and 1, 16 distinct words each: 16 per phase, 32 in all. */
    { "64-bit column", 32, 4, 8, ALL, FALSE, 0x0, 256, { 0 }, 32, 2, FALSE },
    /* 64-bit, stride 16 B: lane i reads words 4 i, 4 i + 1; in a half-
     * warp lanes i and i + 8 meet in banks 4 i mod 32 (and + 1): 2 per
     * phase, 4 in all. */
    { "64-bit, every other", 32, 4, 8, ALL, FALSE, 0x0, 16, { 0 }, 4, 2,
      FALSE },
    /* 64-bit, only lanes 16-31: one phase: 1. */
    { "64-bit, upper half", 32, 4, 8, 0xffff0000u, FALSE, 0x0, 8, { 0 },
      1, 1, FALSE },
    /* float4, stride 512 B: quarter-warp lanes read words 128 i..+3,
     * banks 0-3, 8 distinct words each: 8 per phase, 32 in all. */
    { "float4 column", 32, 4, 16, ALL, FALSE, 0x0, 512, { 0 }, 32, 4, FALSE },
    /* float4, all lanes one vector: 4 distinct banks per phase: 4. */
    { "float4 one vector", 32, 4, 16, ALL, FALSE, 0x0, 0, { 0 }, 4, 4, FALSE },
    /* float4, one lane per quarter-warp: 4 phases of 1. */
    { "float4, 4 lanes", 32, 4, 16, 0x01010101u, FALSE, 0x0, 16, { 0 },
      4, 4, FALSE },
    /* float4, lanes 0-7 only: 1 phase. */
    { "float4, lanes 0-7", 32, 4, 16, 0x000000ffu, FALSE, 0x0, 16, { 0 },
      1, 1, FALSE },

    /* Explicit form: lane i reads word 7 i mod 32, a permutation of the
     * banks: 1. */
    { "explicit permutation", 32, 4, 4, ALL, TRUE, 0, 0,
      { 0, 28, 56, 84, 112, 12, 40, 68, 96, 124, 24, 52, 80, 108, 8, 36,
        64, 92, 120, 20, 48, 76, 104, 4, 32, 60, 88, 116, 16, 44, 72, 100 },
      1, 1, FALSE },
    /* Row, but lane 5 reads word 38 (byte 152) instead of word 5: bank 6
     * now holds words 6 and 38: 2. */
    { "explicit, one conflict", 32, 4, 4, ALL, TRUE, 0, 0,
      { 0, 4, 8, 12, 16, 152, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60,
        64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116, 120,
        124 }, 2, 1, FALSE },
    /* Lanes 2k and 2k + 1 read word 32 k: 16 distinct words in bank 0,
     * each read twice (the pairs are broadcasts): 16. */
    { "explicit, paired column", 32, 4, 4, ALL, TRUE, 0, 0,
      { 0, 0, 128, 128, 256, 256, 384, 384, 512, 512, 640, 640, 768, 768,
        896, 896, 1024, 1024, 1152, 1152, 1280, 1280, 1408, 1408, 1536,
        1536, 1664, 1664, 1792, 1792, 1920, 1920 }, 16, 1, FALSE },

    /* What-if geometries.  16 banks: a 32-bit warp is two phases of 16
     * lanes, consecutive words are conflict-free in each: 2. */
    { "16 banks, row", 16, 4, 4, ALL, FALSE, 0x0, 4, { 0 }, 2, 2, FALSE },
    /* 32 banks of 8 B (Kepler's 8-byte mode): a 64-bit warp is one
     * phase, 8-byte word i in bank i: 1. */
    { "8 B banks, 64-bit", 32, 8, 8, ALL, FALSE, 0x0, 8, { 0 }, 1, 1, FALSE },
    /* ... and 32-bit lanes 2 i, 2 i + 1 share 8-byte word i: 1. */
    { "8 B banks, 32-bit", 32, 8, 4, ALL, FALSE, 0x0, 4, { 0 }, 1, 1, FALSE },
    /* Any signed 64-bit stride, without signed overflow (the sanitizer
     * build aborts on one): -2^63 puts the even lanes at 0 and the odd
     * ones at 2^63, two words of bank 0: 2. */
    { "stride -2^63", 32, 4, 4, ALL, FALSE, 0x0, G_MININT64, { 0 }, 2, 1,
      FALSE },

    /* Phases merged: the whole warp is one phase at every width.  All
     * lanes one float4: words 0-3, a bank each: 1 (4 split). */
    { "merged, float4 one vector", 32, 4, 16, ALL, FALSE, 0x0, 0, { 0 }, 1, 1,
      TRUE },
    /* All lanes one 64-bit word: words 0-1: 1 (2 split). */
    { "merged, 64-bit one word", 32, 4, 8, ALL, FALSE, 0x8, 0, { 0 }, 1, 1,
      TRUE },
    /* float4 consecutive: 128 distinct words, 4 in each bank: 4, and
     * 128 / 32 = 4 ideal: no conflict, as split. */
    { "merged, float4 consecutive", 32, 4, 16, ALL, FALSE, 0x0, 16, { 0 },
      4, 4, TRUE },
    /* Lane l at (l % 16) x 32 B (kernel 6's Bs): chunk c = l % 16 is
     * words 8c..8c + 3, in banks 8c mod 32 ..; chunks 0, 4, 8, 12 share
     * banks 0-3, and so on: 4 words a bank, 4 (8 split); 64 distinct
     * words: 2 ideal. */
    { "merged, k6 Bs", 32, 4, 16, ALL, TRUE, 0, 0,
      { 0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416,
        448, 480, 0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352,
        384, 416, 448, 480 }, 4, 2, TRUE },
    /* float4 column (stride 512 B): banks 0-3 hold 32 distinct words
     * each: 32, no fewer than split; 128 words: 4 ideal. */
    { "merged, float4 column", 32, 4, 16, ALL, FALSE, 0x0, 512, { 0 }, 32,
      4, TRUE },
    /* 32-bit accesses were one phase already: a column stays 32. */
    { "merged, tile column", 32, 4, 4, ALL, FALSE, 0x0, 128, { 0 }, 32, 1,
      TRUE },
};

static void
make_instr (const Case *c, Instr *in)
{
    instr_init (in, INSTR_LDS);
    in->width = (guint8) c->width;
    in->active = c->active;
    if (c->explicit_form) {
        in->addr_mode = INSTR_ADDR_EXPLICIT;
        memcpy (in->addr, c->addr, sizeof in->addr);
    } else {
        in->addr_mode = INSTR_ADDR_STRIDE;
        in->addr_base = c->base;
        in->addr_stride = c->stride;
    }
}

ParameterizedTestParameters (bank, worked_examples)
{
    return cr_make_param_array (Case, cases, G_N_ELEMENTS (cases));
}

ParameterizedTest (const Case *c, bank, worked_examples)
{
    Instr in;
    BankResult r;
    make_instr (c, &in);
    bank_access (&in, c->n_banks, c->bank_bytes, c->merged, &r);
    cr_expect_eq (r.wavefronts, c->wavefronts, "%s: %d wavefronts, expected %d",
                  c->what, r.wavefronts, c->wavefronts);
    cr_expect_eq (r.ideal, c->ideal, "%s: ideal %d, expected %d", c->what,
                  r.ideal, c->ideal);
    cr_expect_eq (r.conflicts, c->wavefronts - c->ideal, "%s: conflicts",
                  c->what);
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

/* A stride of s words coprime with 32 (odd) sends lanes 0..31 to banks
 * s i mod 32, a permutation: 1 wavefront, whatever lanes are active
 * (CUDA C++ Programming Guide, "Shared Memory", strided access). */
TheoryDataPoints (bank, coprime_stride_is_conflict_free) = {
    DataPoints (gint64, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63,
                65, 127, 1025, -1, -3, -33),
    DataPoints (guint32, 1u, 0x0000ffffu, 0x80000001u, 0xaaaaaaaau,
                0xffffffffu),
    DataPoints (guint64, 0, 4, 0x400, 0xbffc),
};

Theory ((gint64 stride_words, guint32 active, guint64 base), bank,
        coprime_stride_is_conflict_free)
{
    cr_assume (stride_words % 2 != 0);
    Instr in;
    BankResult r;
    instr_init (&in, INSTR_LDS);
    in.width = 4;
    in.active = active;
    in.addr_mode = INSTR_ADDR_STRIDE;
    in.addr_base = base + 0x100000;   /* negative strides stay positive */
    in.addr_stride = 4 * stride_words;
    bank_access (&in, 32, 4, FALSE, &r);
    cr_assert_eq (r.wavefronts, 1, "stride %" G_GINT64_FORMAT ": %d",
                  stride_words, r.wavefronts);
    cr_assert_eq (r.conflicts, 0);
}

/* Every stride from 0 to 256 words, in a loop: odd ones give 1, and an
 * even stride 2^t m (m odd) gives gcd(stride, 32) = min(2^t, 32)
 * (the lanes fold onto 32 / gcd banks). */
Test (bank, stride_sweep)
{
    for (gint64 s = 0; s <= 256; s++) {
        Instr in;
        BankResult r;
        instr_init (&in, INSTR_LDS);
        in.width = 4;
        in.addr_mode = INSTR_ADDR_STRIDE;
        in.addr_base = 0x1000;
        in.addr_stride = 4 * s;
        bank_access (&in, 32, 4, FALSE, &r);
        int want = s == 0 ? 1 : MIN (1 << __builtin_ctzll ((guint64) s), 32);
        cr_assert_eq (r.wavefronts, want, "stride %" G_GINT64_FORMAT, s);
    }
}

/* Naive reference: per phase, for each bank, count distinct words by
 * comparing every pair (no sorting, no sets). */
static int
naive_phase (const Instr *in, int first, int n_lanes, int n_banks,
             int bank_bytes)
{
    guint64 words[32 * 17];
    int n = 0, worst = 0;
    for (int lane = first; lane < first + n_lanes && lane < 32; lane++) {
        if (!(in->active & (1u << lane)))
            continue;
        guint64 a = instr_lane_addr (in, lane);
        for (guint64 b = a; b < a + in->width; b++)
            words[n++] = b / (guint64) bank_bytes;
    }
    for (int bank = 0; bank < n_banks; bank++) {
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if ((int) (words[i] % (guint64) n_banks) != bank)
                continue;
            gboolean seen = FALSE;
            for (int j = 0; j < i && !seen; j++)
                seen = words[j] == words[i];
            distinct += !seen;
        }
        worst = MAX (worst, distinct);
    }
    return worst;
}

/* Random naturally aligned accesses (fixed seed), explicit and stride
 * forms, match the reference, and no phase exceeds 32 wavefronts:
 * wavefronts <= 32 x phases. */
Test (bank, matches_reference_and_bounded)
{
    static const int widths[] = { 1, 2, 4, 8, 16 };
    g_autoptr (GRand) rng = g_rand_new_with_seed (4242);
    for (int t = 0; t < 20000; t++) {
        Instr in;
        BankResult r;
        int w = widths[g_rand_int_range (rng, 0, 5)];
        instr_init (&in, INSTR_LDS);
        in.width = (guint8) w;
        in.active = g_rand_int (rng) | (t % 4 < 2 ? 0u : 0x0f0f0f0fu);
        if (t % 2) {
            /* A small window makes conflicts and broadcasts both likely. */
            gint32 window = 1 << g_rand_int_range (rng, 5, 14);
            in.addr_mode = INSTR_ADDR_EXPLICIT;
            for (int lane = 0; lane < 32; lane++)
                in.addr[lane] = (guint64) g_rand_int_range (rng, 0, window) &
                                ~(guint64) (w - 1);
        } else {
            in.addr_mode = INSTR_ADDR_STRIDE;
            in.addr_base = 0x10000 + (guint64) w * (guint64)
                           g_rand_int_range (rng, 0, 64);
            in.addr_stride = w * g_rand_int_range (rng, -40, 41);
        }
        bank_access (&in, 32, 4, FALSE, &r);

        int lanes = 32 / MAX (1, w / 4), want = 0, phases = 0;
        for (int first = 0; first < 32; first += lanes) {
            int p = naive_phase (&in, first, lanes, 32, 4);
            cr_assert_leq (p, 32, "trial %d", t);
            want += p;
            phases += p > 0;
        }
        cr_assert_eq (r.wavefronts, want, "trial %d", t);
        cr_assert_eq (r.ideal, phases, "trial %d", t);
        cr_assert_leq (r.wavefronts, 32 * r.ideal, "trial %d", t);
        cr_assert_geq (r.wavefronts, r.ideal, "trial %d", t);
    }
}

/* A misaligned access (CUDA forbids them; a bad trace may have one)
 * counts the words it overlaps and does not crash: a 16-byte lane at
 * byte 2 covers words 0..4, five banks. */
Test (bank, misaligned_lane_counts_its_words)
{
    Instr in;
    BankResult r;
    instr_init (&in, INSTR_LDS);
    in.width = 16;
    in.active = 0x3u;
    in.addr_mode = INSTR_ADDR_EXPLICIT;
    in.addr[0] = 2;       /* words 0..4 */
    in.addr[1] = 130;     /* words 32..36: banks 0..4 again */
    bank_access (&in, 32, 4, FALSE, &r);
    cr_assert_eq (r.wavefronts, 2);
    cr_assert_eq (r.ideal, 1);
}

/* The memo gives bank_access's answers: a few random patterns replayed
 * many times, shifted by whole words (the memo's hits) and by part of a
 * word (which moves lanes across word boundaries, so must not hit), are
 * checked against the naive reference each time. */
Test (bank, memo_matches_reference)
{
    static const int widths[] = { 4, 8, 16 };
    g_autoptr (GRand) rng = g_rand_new_with_seed (77);
    Instr pattern[6];
    BankMemo memo;
    bank_memo_init (&memo, 32, 4, FALSE);
    for (int p = 0; p < 6; p++) {
        Instr *in = &pattern[p];
        instr_init (in, INSTR_LDS);
        in->width = (guint8) widths[p % 3];
        in->active = p < 3 ? 0xffffffffu : g_rand_int (rng) | 1u;
        in->addr_mode = INSTR_ADDR_EXPLICIT;
        for (int lane = 0; lane < 32; lane++)
            in->addr[lane] = (guint64) g_rand_int_range (rng, 0, 1024) &
                             ~(guint64) (in->width - 1);
    }
    for (int t = 0; t < 3000; t++) {
        Instr in = pattern[g_rand_int_range (rng, 0, 6)];
        guint64 shift = 4 * (guint64) g_rand_int_range (rng, 0, 4096) +
                        (t % 5 == 0 ? 2 : 0);
        for (int lane = 0; lane < 32; lane++)
            in.addr[lane] += shift;
        BankResult r;
        bank_memo_access (&memo, &in, &r);
        int lanes = 32 / (in.width / 4), want = 0, phases = 0;
        for (int first = 0; first < 32; first += lanes) {
            int p = naive_phase (&in, first, lanes, 32, 4);
            want += p;
            phases += p > 0;
        }
        cr_assert_eq (r.wavefronts, want, "trial %d", t);
        cr_assert_eq (r.ideal, phases, "trial %d", t);
        cr_assert_eq (r.conflicts, want - phases, "trial %d", t);
    }
}

/* The distinct 4-byte words the warp's active lanes touch, naively. */
static int
naive_words (const Instr *in)
{
    guint64 words[32 * 16];
    int n = 0;
    for (int lane = 0; lane < 32; lane++) {
        if (!(in->active & (1u << lane)))
            continue;
        guint64 a = instr_lane_addr (in, lane);
        for (guint64 w = a / 4; w <= (a + in->width - 1) / 4; w++) {
            gboolean seen = FALSE;
            for (int j = 0; j < n && !seen; j++)
                seen = words[j] == w;
            if (!seen)
                words[n++] = w;
        }
    }
    return n;
}

/* Phases merged (mem.smem_merge_phases): the whole warp is the naive
 * reference's one phase, at every width; never more than the split, as
 * a bank's distinct words over the warp are at most the sum of its
 * phases'; its ideal the warp's distinct words over 32, rounded up; and
 * the memo keeps to the rule it was made with. */
Test (bank, merged_matches_reference)
{
    static const int widths[] = { 4, 8, 16 };
    g_autoptr (GRand) rng = g_rand_new_with_seed (91);
    BankMemo merged, split;
    bank_memo_init (&merged, 32, 4, TRUE);
    bank_memo_init (&split, 32, 4, FALSE);
    for (int t = 0; t < 600; t++) {
        Instr in;
        instr_init (&in, INSTR_LDS);
        in.width = (guint8) widths[t % 3];
        in.active = t % 2 ? 0xffffffffu : g_rand_int (rng) | 1u;
        in.addr_mode = INSTR_ADDR_EXPLICIT;
        /* Few distinct addresses now and then: broadcasts across phases. */
        int spread = t % 4 == 0 ? 4 : 256;
        for (int lane = 0; lane < 32; lane++)
            in.addr[lane] = (guint64) g_rand_int_range (rng, 0, spread) *
                            in.width;
        BankResult m, s, mm;
        bank_access (&in, 32, 4, TRUE, &m);
        bank_access (&in, 32, 4, FALSE, &s);
        bank_memo_access (&merged, &in, &mm);
        cr_assert_eq (m.wavefronts, naive_phase (&in, 0, 32, 32, 4),
                      "trial %d", t);
        cr_assert_eq (m.ideal, (naive_words (&in) + 31) / 32, "trial %d", t);
        cr_assert_leq (m.wavefronts, s.wavefronts, "trial %d", t);
        cr_assert_eq (mm.wavefronts, m.wavefronts, "trial %d", t);
        bank_memo_access (&split, &in, &mm);
        cr_assert_eq (mm.wavefronts, s.wavefronts, "trial %d", t);
    }
}
