/*
 * test-coal.c -- the coalescer: distinct sectors and lines per warp
 * memory instruction (Nsight Compute's "sectors per request").
 *
 * Expected values are hand calculations written beside each row: a
 * lane's access is [addr, addr + width); sector s of a line holds bytes
 * [32 s, 32 s + 32) of it (128 B lines, 32 B sectors unless a row says
 * otherwise); a count is of DISTINCT sectors and lines.  A brute-force
 * reference (every byte of every lane) cross-checks random accesses.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <criterion/theories.h>

#include "sim/coal.h"

/* Criterion hands each row to a fresh process: rows hold arrays, not
 * pointers (a pointer into .rodata is not valid there). */
typedef struct {
    char what[64];
    int line_bytes, sector_bytes;
    int width;
    guint32 active;
    gboolean explicit_form;
    guint64 base;                 /* stride form */
    gint64 stride;
    guint64 addr[32];             /* explicit form */
    int sectors, lines;
    guint64 bytes;
    guint64 first_line;           /* line_addr[0] */
    guint32 first_sectors;        /* line_sectors[0] */
} Case;

#define ALL 0xffffffffu

static const Case cases[] = {
    /* 32 consecutive floats, aligned: bytes 0x1000..0x107f, one line,
     * its 4 sectors. */
    { "floats, aligned", 128, 32, 4, ALL, FALSE, 0x1000, 4, { 0 },
      4, 1, 128, 0x1000, 0xf },
    /* Misaligned by 4: 0x1004..0x1083 covers sectors 0x1000, 0x1020,
     * 0x1040, 0x1060 (line 0x1000) and 0x1080 (line 0x1080): 5, 2. */
    { "floats, misaligned by 4", 128, 32, 4, ALL, FALSE, 0x1004, 4, { 0 },
      5, 2, 128, 0x1000, 0xf },
    /* Stride 2 floats: lane i at 0x1000 + 8 i, the last at 0x10f8:
     * 256 bytes spanned, every sector of 2 lines is hit: 8, 2. */
    { "floats, stride 2", 128, 32, 4, ALL, FALSE, 0x1000, 8, { 0 },
      8, 2, 128, 0x1000, 0xf },
    /* Stride 32 floats = 128 B: each lane alone in its own line, in
     * sector 0 of it: 32 sectors, 32 lines. */
    { "floats, stride 32", 128, 32, 4, ALL, FALSE, 0x1000, 128, { 0 },
      32, 32, 128, 0x1000, 0x1 },
    /* Stride 0: every lane the same word, one sector (broadcast). */
    { "floats, one address", 128, 32, 4, ALL, FALSE, 0x1040, 0, { 0 },
      1, 1, 128, 0x1000, 0x4 },
    /* float4, consecutive: 32 x 16 = 512 bytes from 0x1000: 16 sectors
     * in 4 lines. */
    { "float4, consecutive", 128, 32, 16, ALL, FALSE, 0x1000, 16, { 0 },
      16, 4, 512, 0x1000, 0xf },
    /* float4 misaligned by 8: 0x1008..0x1207 spans sectors 0x1000 to
     * 0x1200, (0x1200 - 0x1000) / 32 + 1 = 17, in lines 0x1000..0x1200:
     * 5. */
    { "float4, misaligned by 8", 128, 32, 16, ALL, FALSE, 0x1008, 16, { 0 },
      17, 5, 512, 0x1000, 0xf },
    /* Half the lanes (0-15) of a stride-32-float access: 16 lines, one
     * sector each; 16 x 4 bytes asked for. */
    { "stride 32, lanes 0-15", 128, 32, 4, 0x0000ffffu, FALSE, 0x1000, 128,
      { 0 }, 16, 16, 64, 0x1000, 0x1 },
    /* Every other lane of the same: also 16 (lane 0 first, at 0x1000). */
    { "stride 32, even lanes", 128, 32, 4, 0x55555555u, FALSE, 0x1000, 128,
      { 0 }, 16, 16, 64, 0x1000, 0x1 },
    /* Odd lanes of consecutive floats: lanes 1, 3, .. 31 still touch all
     * 4 sectors (each sector holds lanes 8j..8j+7, four of them odd). */
    { "floats, odd lanes", 128, 32, 4, 0xaaaaaaaau, FALSE, 0x1000, 4, { 0 },
      4, 1, 64, 0x1000, 0xf },
    /* Lanes 0-7 of consecutive floats: 32 bytes, sector 0 only. */
    { "floats, lanes 0-7", 128, 32, 4, 0x000000ffu, FALSE, 0x1000, 4, { 0 },
      1, 1, 32, 0x1000, 0x1 },
    /* No active lane: nothing at all. */
    { "no active lane", 128, 32, 4, 0, FALSE, 0x1000, 4, { 0 },
      0, 0, 0, 0, 0 },
    /* Descending: lane i at 0x107c - 4 i, lanes 31..0 cover
     * 0x1000..0x107f: as the aligned row. */
    { "floats, stride -1", 128, 32, 4, ALL, FALSE, 0x107c, -4, { 0 },
      4, 1, 128, 0x1000, 0xf },
    /* doubles, consecutive: 256 bytes, 8 sectors, 2 lines. */
    { "doubles, consecutive", 128, 32, 8, ALL, FALSE, 0x1000, 8, { 0 },
      8, 2, 256, 0x1000, 0xf },
    /* chars, consecutive: 32 bytes, 1 sector; shorts: 64 bytes, 2. */
    { "chars, consecutive", 128, 32, 1, ALL, FALSE, 0x1000, 1, { 0 },
      1, 1, 32, 0x1000, 0x1 },
    { "shorts, consecutive", 128, 32, 2, ALL, FALSE, 0x1000, 2, { 0 },
      2, 1, 64, 0x1000, 0x3 },
    /* One lane, a 16-byte access at 0x1018: 0x1018..0x1027 straddles the
     * sector boundary at 0x1020: sectors 0 and 1 of one line. */
    { "16 B straddling a sector", 128, 32, 16, 0x1u, FALSE, 0x1018, 0,
      { 0 }, 2, 1, 16, 0x1000, 0x3 },
    /* One lane at 0x1078: 0x1078..0x1087 straddles the line boundary at
     * 0x1080: sector 3 of line 0x1000 and sector 0 of line 0x1080. */
    { "16 B straddling a line", 128, 32, 16, 0x1u, FALSE, 0x1078, 0,
      { 0 }, 2, 2, 16, 0x1000, 0x8 },
    /* Every lane straddles: base 0x78, stride 128, width 16: lane i
     * covers 0x78 + 128 i .. 0x87 + 128 i, the last sector of line i
     * and the first of line i + 1; 33 lines from 0 to 0x1000, sector
     * masks 0x8, 0x9 x 31, 0x1: 64 sectors. */
    { "16 B, every lane straddles", 128, 32, 16, ALL, FALSE, 0x78, 128,
      { 0 }, 64, 33, 512, 0x0, 0x8 },
    /* ... and with stride 256 the lines stop sharing: 64 lines, the
     * most a warp can touch. */
    { "16 B, 64 lines", 128, 32, 16, ALL, FALSE, 0x78, 256,
      { 0 }, 64, 64, 512, 0x0, 0x8 },

    /* Explicit form.  A transpose-like gather: lane i reads
     * 0x1000 * (i % 4) + 4 * (i / 4), so lanes 0, 4, .. 28 read the 8
     * floats at 0x0000..0x001f, lanes 1, 5, .. those at 0x1000, etc.:
     * 4 lines, sector 0 of each; addresses arrive out of order. */
    { "explicit, 4-way gather", 128, 32, 4, ALL, TRUE, 0, 0,
      { 0x0000, 0x1000, 0x2000, 0x3000, 0x0004, 0x1004, 0x2004, 0x3004,
        0x0008, 0x1008, 0x2008, 0x3008, 0x000c, 0x100c, 0x200c, 0x300c,
        0x0010, 0x1010, 0x2010, 0x3010, 0x0014, 0x1014, 0x2014, 0x3014,
        0x0018, 0x1018, 0x2018, 0x3018, 0x001c, 0x101c, 0x201c, 0x301c },
      4, 4, 128, 0x0000, 0x1 },
    /* The 32 floats of one line, lanes in reverse: 4 sectors, 1 line. */
    { "explicit, reversed line", 128, 32, 4, ALL, TRUE, 0, 0,
      { 0x207c, 0x2078, 0x2074, 0x2070, 0x206c, 0x2068, 0x2064, 0x2060,
        0x205c, 0x2058, 0x2054, 0x2050, 0x204c, 0x2048, 0x2044, 0x2040,
        0x203c, 0x2038, 0x2034, 0x2030, 0x202c, 0x2028, 0x2024, 0x2020,
        0x201c, 0x2018, 0x2014, 0x2010, 0x200c, 0x2008, 0x2004, 0x2000 },
      4, 1, 128, 0x2000, 0xf },
    /* Lanes 0-3 only: 0x5000 and 0x5004 share sector 0 of line 0x5000;
     * 0x4ff0 is sector 3 of line 0x4f80; 0x9000 is a line of its own;
     * the other lanes' garbage addresses are ignored: 3 sectors, 3
     * lines, the lowest line 0x4f80 with sector 3 (0x4ff0 - 0x4f80 =
     * 0x70 = 112 = 3 x 32 + 16). */
    { "explicit, 4 lanes", 128, 32, 4, 0xfu, TRUE, 0, 0,
      { 0x5000, 0x5004, 0x4ff0, 0x9000, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28 },
      3, 3, 16, 0x4f80, 0x8 },

    /* Other geometries.  32 B lines of one sector: consecutive floats
     * span 4 lines. */
    { "32 B lines", 32, 32, 4, ALL, FALSE, 0x1000, 4, { 0 },
      4, 4, 128, 0x1000, 0x1 },
    /* 4 B sectors, 32 per line: consecutive floats fill the line's
     * whole mask (bit 31 included). */
    { "4 B sectors", 128, 4, 4, ALL, FALSE, 0x1000, 4, { 0 },
      32, 1, 128, 0x1000, 0xffffffffu },
    /* 64 B lines, 16 B sectors, float4 consecutive: 512 bytes = 32
     * sectors in 8 lines. */
    { "64 B lines, 16 B sectors", 64, 16, 16, ALL, FALSE, 0x1000, 16, { 0 },
      32, 8, 512, 0x1000, 0xf },
    /* A trace may give any signed 64-bit stride: lane i is at base +
     * i x stride modulo 2^64, without signed overflow (the sanitizer
     * build aborts on one; stride_and_explicit_forms_agree also runs
     * instr_lane_addr on it).  Stride 2^63 - 1, chars: lane 0 at 0,
     * lane 1 at 2^63 - 1, lane 2 at 2^64 - 2, lane 3 at 2^63 - 3: lanes
     * 1 and 3 share the last sector of line 2^63 - 128, so 3 lines of
     * one sector each, line 0 first.  Stride -2^63: lanes 0 and 2 at 0,
     * 1 and 3 at 2^63: 2 lines. */
    { "chars, stride 2^63 - 1", 128, 32, 1, 0xfu, FALSE, 0, G_MAXINT64,
      { 0 }, 3, 3, 4, 0, 0x1 },
    { "chars, stride -2^63", 128, 32, 1, 0xfu, FALSE, 0, G_MININT64,
      { 0 }, 2, 2, 4, 0, 0x1 },
};

static void
make_instr (const Case *c, Instr *in)
{
    instr_init (in, INSTR_LDG);
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

/* What every result must satisfy: lines ascending and distinct, each
 * with a sector, and 'sectors' the sum of the masks. */
static void
check_consistent (const CoalResult *r)
{
    int sum = 0;
    cr_assert (r->lines >= 0 && r->lines <= COAL_MAX_LINES);
    for (int i = 0; i < r->lines; i++) {
        cr_assert_neq (r->line_sectors[i], 0);
        if (i > 0)
            cr_assert_gt (r->line_addr[i], r->line_addr[i - 1]);
        sum += __builtin_popcount (r->line_sectors[i]);
    }
    cr_assert_eq (r->sectors, sum);
}

ParameterizedTestParameters (coal, worked_examples)
{
    return cr_make_param_array (Case, cases, G_N_ELEMENTS (cases));
}

ParameterizedTest (const Case *c, coal, worked_examples)
{
    Instr in;
    CoalResult r;
    make_instr (c, &in);
    coal_access (&in, c->line_bytes, c->sector_bytes, &r);
    cr_expect_eq (r.sectors, c->sectors, "%s: sectors %d, expected %d",
                  c->what, r.sectors, c->sectors);
    cr_expect_eq (r.lines, c->lines, "%s: lines %d, expected %d", c->what,
                  r.lines, c->lines);
    cr_expect_eq (r.bytes, c->bytes, "%s: bytes", c->what);
    if (c->lines > 0) {
        cr_expect_eq (r.line_addr[0], c->first_line, "%s: first line 0x%"
                      G_GINT64_MODIFIER "x", c->what, r.line_addr[0]);
        cr_expect_eq (r.line_sectors[0], c->first_sectors,
                      "%s: first line's sectors 0x%x", c->what,
                      r.line_sectors[0]);
    }
    check_consistent (&r);
}

/* The stride form and the same addresses written out agree. */
Test (coal, stride_and_explicit_forms_agree)
{
    for (gsize k = 0; k < G_N_ELEMENTS (cases); k++) {
        const Case *c = &cases[k];
        if (c->explicit_form)
            continue;
        Instr s, e;
        CoalResult rs, re;
        make_instr (c, &s);
        e = s;
        e.addr_mode = INSTR_ADDR_EXPLICIT;
        for (int lane = 0; lane < 32; lane++)
            e.addr[lane] = instr_lane_addr (&s, lane);
        coal_access (&s, c->line_bytes, c->sector_bytes, &rs);
        coal_access (&e, c->line_bytes, c->sector_bytes, &re);
        cr_assert_eq (rs.sectors, re.sectors, "%s", c->what);
        cr_assert_eq (rs.lines, re.lines, "%s", c->what);
        for (int i = 0; i < rs.lines; i++) {
            cr_assert_eq (rs.line_addr[i], re.line_addr[i], "%s", c->what);
            cr_assert_eq (rs.line_sectors[i], re.line_sectors[i], "%s",
                          c->what);
        }
    }
}

/* Full masks of the straddling rows, beyond the first line. */
Test (coal, masks_of_straddling_lanes)
{
    Case c = cases[0];
    Instr in;
    CoalResult r;
    /* floats misaligned by 4 (row 2): line 0x1000 sectors 0-3, line
     * 0x1080 sector 0 (bytes 0x1080..0x1083 of lane 31). */
    c.base = 0x1004;
    make_instr (&c, &in);
    coal_access (&in, 128, 32, &r);
    cr_assert_eq (r.lines, 2);
    cr_assert_eq (r.line_addr[1], 0x1080);
    cr_assert_eq (r.line_sectors[1], 0x1);
    /* Every lane straddling (base 0x78, stride 128, 16 B): line 0 gets
     * sector 3, lines 1..31 sectors 0 and 3, line 32 (0x1000) sector 0. */
    c.width = 16;
    c.base = 0x78;
    c.stride = 128;
    make_instr (&c, &in);
    coal_access (&in, 128, 32, &r);
    cr_assert_eq (r.lines, 33);
    for (int i = 1; i < 32; i++) {
        cr_assert_eq (r.line_addr[i], 128 * (guint64) i);
        cr_assert_eq (r.line_sectors[i], 0x9);
    }
    cr_assert_eq (r.line_addr[32], 0x1000);
    cr_assert_eq (r.line_sectors[32], 0x1);
}

/* An access at the top of the address space wraps to line 0 (a stride
 * of -1 from 0 does this); it must not crash or run off the arrays. */
Test (coal, wraps_at_the_top_of_the_address_space)
{
    Instr in;
    CoalResult r;
    instr_init (&in, INSTR_LDG);
    in.width = 16;
    in.active = 0x1u;
    in.addr_mode = INSTR_ADDR_STRIDE;
    in.addr_base = G_MAXUINT64 - 7;   /* bytes 2^64-8 .. 2^64-1, 0 .. 7 */
    coal_access (&in, 128, 32, &r);
    cr_assert_eq (r.lines, 2);
    cr_assert_eq (r.sectors, 2);
    cr_assert_eq (r.line_addr[0], 0);
    cr_assert_eq (r.line_sectors[0], 0x1);
    cr_assert_eq (r.line_addr[1], G_MAXUINT64 - 127);
    cr_assert_eq (r.line_sectors[1], 0x8);
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

/* Aligned 4-byte accesses with an active lane: 1 <= sectors <= 32 (one
 * per lane at most, since a lane's 4 bytes sit in one sector) and
 * lines <= sectors (every line touched has a sector touched). */
TheoryDataPoints (coal, aligned_floats_bounds) = {
    DataPoints (gint64, 0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 1000, -1, -8, -33),
    DataPoints (guint32, 0u, 1u, 0x80000000u, 0x0000ffffu, 0xaaaaaaaau,
                0x12345678u, 0xffffffffu),
    DataPoints (guint64, 0, 4, 60, 124, 0x7ffffffc, 0x100000000),
};

Theory ((gint64 stride_floats, guint32 active, guint64 base), coal,
        aligned_floats_bounds)
{
    cr_assume (active != 0);
    Instr in;
    CoalResult r;
    instr_init (&in, INSTR_LDG);
    in.width = 4;
    in.active = active;
    in.addr_mode = INSTR_ADDR_STRIDE;
    in.addr_base = base + 0x100000;   /* negative strides stay positive */
    in.addr_stride = 4 * stride_floats;
    coal_access (&in, 128, 32, &r);
    cr_assert_geq (r.sectors, 1);
    cr_assert_leq (r.sectors, __builtin_popcount (active));
    cr_assert_leq (r.sectors, 32);
    cr_assert_leq (r.lines, r.sectors);
    cr_assert_geq (r.lines, 1);
    cr_assert_eq (r.bytes, 4 * (guint64) __builtin_popcount (active));
    check_consistent (&r);
}

/* Brute force: every byte of every active lane, as (line, sector). */
static int
cmp_u64 (const void *a, const void *b)
{
    guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
    return (x > y) - (x < y);
}

static int
brute_sectors (const Instr *in, int sector_bytes, guint64 *sector_addr)
{
    int n = 0;
    for (int lane = 0; lane < 32; lane++) {
        if (!(in->active & (1u << lane)))
            continue;
        for (int b = 0; b < in->width; b++)
            sector_addr[n++] = (instr_lane_addr (in, lane) + (guint64) b) &
                               ~(guint64) (sector_bytes - 1);
    }
    qsort (sector_addr, (size_t) n, sizeof *sector_addr, cmp_u64);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || sector_addr[m - 1] != sector_addr[i])
            sector_addr[m++] = sector_addr[i];
    return m;
}

/* A random run of lanes lo..hi, or a random mask: the fast path takes
 * only runs. */
static guint32
random_mask (GRand *rng)
{
    if (g_rand_boolean (rng))
        return g_rand_int (rng);
    int lo = g_rand_int_range (rng, 0, 32), hi = g_rand_int_range (rng, lo, 32);
    return (guint32) (((G_GUINT64_CONSTANT (2) << hi) - 1) &
                      ~((G_GUINT64_CONSTANT (1) << lo) - 1));
}

/* Random accesses (fixed seed: the same every run), explicit and stride
 * forms, misaligned ones included, in several geometries, match the
 * brute force sector for sector. */
Test (coal, matches_brute_force)
{
    static const int widths[] = { 1, 2, 4, 8, 16 };
    static const int geometry[][2] = { { 128, 32 }, { 128, 4 }, { 64, 16 },
                                       { 32, 32 }, { 16, 1 } };
    g_autoptr (GRand) rng = g_rand_new_with_seed (20240404);
    guint64 want[32 * 16];
    for (int t = 0; t < 40000; t++) {
        Instr in;
        CoalResult r;
        instr_init (&in, INSTR_LDG);
        in.width = (guint8) widths[g_rand_int_range (rng, 0, 5)];
        in.active = random_mask (rng);
        /* Small spans make sharing likely; some lanes are misaligned. */
        gint32 span = 1 << g_rand_int_range (rng, 4, 14);
        if (t % 2) {
            in.addr_mode = INSTR_ADDR_EXPLICIT;
            for (int lane = 0; lane < 32; lane++)
                in.addr[lane] =
                    0x10000 + (guint64) g_rand_int_range (rng, 0, span);
        } else {
            in.addr_mode = INSTR_ADDR_STRIDE;
            in.addr_base = 0x10000 + (guint64) g_rand_int_range (rng, 0, 256);
            in.addr_stride = g_rand_int_range (rng, -20, 21);
        }
        const int *geo = geometry[g_rand_int_range (rng, 0, 5)];
        /* A quarter of the stride ones: whole lines (a row per lane),
         * or whole lines and a little, either way. */
        if (t % 4 == 2) {
            in.addr_stride = (gint64) geo[0] * g_rand_int_range (rng, -3, 40);
            if (g_rand_boolean (rng))
                in.addr_stride += g_rand_int_range (rng, -4, 5);
        }
        const int per_line = geo[0] / geo[1];
        coal_access (&in, geo[0], geo[1], &r);
        int n = brute_sectors (&in, geo[1], want);
        cr_assert_eq (r.sectors, n, "trial %d", t);
        check_consistent (&r);
        int k = 0;
        for (int i = 0; i < r.lines; i++)
            for (int s = 0; s < per_line; s++)
                if (r.line_sectors[i] & (1u << s))
                    cr_assert_eq (r.line_addr[i] + (guint64) (s * geo[1]),
                                  want[k++], "trial %d", t);
    }
}
