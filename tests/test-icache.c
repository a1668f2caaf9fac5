/*
 * test-icache.c -- the instruction caches (icache.h).
 *
 * By hand: a line the L0 misses comes l0_miss_cycles after the L1 has
 * it and sends it, the L1 sending one line every l1_line_cycles; a line
 * the L1 misses is there l1_miss_cycles after it was asked for.  A warp
 * that streams through code asks, on reaching line L, for L + 1 .. L + P
 * too.  A warp that waits for line L asks for nothing more until L
 * comes; 8 cycles after, it reaches L + 1 and asks for L + 1 + P, lines
 * L + 1 .. L + P being on their way: so past the first lines, P + 1
 * lines take latency + 8 cycles, or 8 cycles a line where 8 P covers
 * the latency.
 */
#include "config.h"

#include <criterion/criterion.h>

#include "sim/icache.h"

#define LINE ICACHE_LINE_BYTES

static SpecFetch
fetch_spec (int l0, int l1, int prefetch, int line_cycles)
{
    return (SpecFetch) { .l0_bytes = l0, .l1_bytes = l1, .l0_miss_cycles = 10,
                         .l1_miss_cycles = 100, .l1_line_cycles = line_cycles,
                         .prefetch_lines = prefetch };
}

Test (icache, off_where_the_l0_has_no_bytes)
{
    SpecFetch f = fetch_spec (0, 65536, 4, 1);
    cr_assert_null (icache_new (&f, 4));
}

/* One set of 4 lines, no L1: a miss is 100 + 10 cycles; the line in
 * flight makes a second warp wait for the same cycle; once there, it
 * hits at once. */
Test (icache, a_miss_costs_both_latencies_then_hits)
{
    SpecFetch f = fetch_spec (512, 0, 0, 1);
    g_autoptr (Icache) ic = icache_new (&f, 1);
    guint64 l0, l1;
    cr_assert_eq (icache_fetch (ic, 0, 0, 0), 110);
    cr_assert_eq (icache_fetch (ic, 0, 64, 5), 110);
    cr_assert_eq (icache_fetch (ic, 0, 120, 200), 200);
    icache_misses (ic, &l0, &l1);
    cr_assert_eq (l0, 1);
    cr_assert_eq (l1, 1);
}

/* Sub-partitions have L0s of their own and share the L1: the second
 * L0's miss finds the line in the L1 (10 cycles), and a fifth line
 * pushes the least recently used out of a 4-line L0 but not out of a
 * 32-line L1.  The L1 sends lines with no limit (l1_line_cycles 0). */
Test (icache, the_l1_holds_what_an_l0_drops)
{
    SpecFetch f = fetch_spec (512, 4096, 0, 0);
    g_autoptr (Icache) ic = icache_new (&f, 2);
    guint64 l0, l1;
    cr_assert_eq (icache_fetch (ic, 0, 0, 0), 110);
    cr_assert_eq (icache_fetch (ic, 1, 0, 200), 210);
    for (guint32 k = 1; k <= 4; k++)
        cr_assert_eq (icache_fetch (ic, 0, k * LINE, 300), 410);
    cr_assert_eq (icache_fetch (ic, 0, 0, 1000), 1010);
    icache_misses (ic, &l0, &l1);
    cr_assert_eq (l0, 7);       /* 0 twice, 0 on sp 1, 1-4 */
    cr_assert_eq (l1, 5);       /* 0-4 */
}

/* The L1 sends the lines it holds a line every 4 cycles: sub-partition
 * 0 brings lines 0-3 into it (misses, forwarded as they come, at 110
 * all), then sub-partition 1 asks for them at 200 (line 0, and 1-3
 * ahead), which leave the L1 at 200, 204, 208 and 212. */
Test (icache, the_l1_sends_a_line_at_a_time)
{
    SpecFetch f = fetch_spec (4096, 4096, 3, 4);
    g_autoptr (Icache) ic = icache_new (&f, 2);
    cr_assert_eq (icache_fetch (ic, 0, 0, 0), 110);
    cr_assert_eq (icache_fetch (ic, 0, 3 * LINE, 0), 110);
    cr_assert_eq (icache_fetch (ic, 1, 0, 200), 210);
    cr_assert_eq (icache_fetch (ic, 1, 1 * LINE, 200), 214);
    cr_assert_eq (icache_fetch (ic, 1, 2 * LINE, 200), 218);
    cr_assert_eq (icache_fetch (ic, 1, 3 * LINE, 200), 222);
}

/* A miss goes past the L1's port: a line the L1 holds, asked for a
 * cycle after a miss, leaves it at once (11), not after the miss's
 * line (110). */
Test (icache, a_miss_holds_up_no_hit)
{
    SpecFetch f = fetch_spec (4096, 4096, 0, 4);
    g_autoptr (Icache) ic = icache_new (&f, 2);
    cr_assert_eq (icache_fetch (ic, 0, 0, 0), 110);
    cr_assert_eq (icache_fetch (ic, 0, 40 * LINE, 200), 310);
    cr_assert_eq (icache_fetch (ic, 1, 0, 201), 211);
}

/* A warp issuing one instruction a cycle through 'lines' lines of
 * straight code, asking for each line as it reaches it; returns the
 * cycle each line is reached in 'at'. */
static void
stream (Icache *ic, guint32 lines, Cycle *at)
{
    Cycle t = 0;
    for (guint32 l = 0; l < lines; l++) {
        t = icache_fetch (ic, 0, l * LINE, t);
        at[l] = t;
        t += LINE / 16;
    }
}

/* Latency 110, 4 lines ahead: 5 lines every 118 cycles, 23.6 a line;
 * 16 lines ahead cover 128 cycles, more than the latency: 8 a line. */
Test (icache, lines_ahead_hide_the_latency_they_cover)
{
    enum { LINES = 1001, FROM = 100 };    /* 900 lines: whole fives */
    Cycle at[LINES];
    SpecFetch f = fetch_spec (4096, 0, 4, 1);
    g_autoptr (Icache) ic = icache_new (&f, 1);
    stream (ic, LINES, at);
    double per_line = (double) (at[LINES - 1] - at[FROM]) / (LINES - 1 - FROM);
    cr_assert_float_eq (per_line, (110.0 + 8) / 5, 1e-9, "%.3f a line",
                        per_line);

    f.prefetch_lines = 16;
    g_autoptr (Icache) wide = icache_new (&f, 1);
    stream (wide, LINES, at);
    per_line = (double) (at[LINES - 1] - at[FROM]) / (LINES - 1 - FROM);
    cr_assert_float_eq (per_line, 8.0, 1e-9, "%.3f a line", per_line);
}

/* The lines an L0 of 8 sets of 4 ways misses as a warp plays a loop of
 * 'lines' lines 'passes' times, 'ahead' lines asked for ahead. */
static guint64
loop_misses (guint32 lines, int passes, int ahead)
{
    SpecFetch f = fetch_spec (4096, 0, ahead, 0);
    g_autoptr (Icache) ic = icache_new (&f, 1);
    Cycle t = 0;
    guint64 l0, l1;
    for (int pass = 0; pass < passes; pass++)
        for (guint32 l = 0; l < lines; l++)
            t = icache_fetch (ic, 0, l * LINE, t) + 8;
    icache_misses (ic, &l0, &l1);
    return l0;
}

/* A loop of K lines played 5 times through an L0 of 8 sets of 4 ways
 * (32 lines): line l goes to set l mod 8, and a set whose lines are
 * more than its 4 ways misses every one of them every pass (LRU drops
 * the one asked for next), while the others miss on the first pass
 * alone.  K = 8 and 32 fit: K misses.  K = 33: set 0 holds 0, 8, 16, 24
 * and 32, 5 lines, which miss 5 times each, and the 28 others once: 53.
 * K = 40 and 64: every set has 5 or 8 lines, every line misses every
 * pass, 200 and 320, as a fully associative LRU cache would from 33 on. */
Test (icache, a_loop_misses_in_the_sets_it_outgrows)
{
    enum { PASSES = 5 };
    const guint32 sizes[] = { 8, 32, 33, 40, 64 };
    const guint64 want[] = { 8, 32, 53, 200, 320 };
    for (guint k = 0; k < G_N_ELEMENTS (sizes); k++) {
        guint64 l0 = loop_misses (sizes[k], PASSES, 0);
        cr_assert_eq (l0, want[k], "%u lines: %" G_GUINT64_FORMAT " misses",
                      sizes[k], l0);
    }
}

/* The prefetcher brings the 4 lines past a loop's end in too: a loop of
 * 28 lines in an L0 of 32 (8 sets of 4) misses its 28 and the 4 past
 * it on the first pass, and nothing after (lines 0-31, 4 a set); one of
 * 29 brings line 32 in as well, a fifth line for set 0 (0, 8, 16, 24,
 * 32), which then misses again every pass. */
Test (icache, the_lines_ahead_take_room_too)
{
    enum { PASSES = 5 };
    const guint32 sizes[] = { 28, 29 };
    for (guint k = 0; k < G_N_ELEMENTS (sizes); k++) {
        guint64 l0 = loop_misses (sizes[k], PASSES, 4);
        if (k == 0)
            cr_assert_eq (l0, 32, "%" G_GUINT64_FORMAT " misses", l0);
        else
            cr_assert_gt (l0, 33 + PASSES - 1, "%" G_GUINT64_FORMAT " misses",
                          l0);
    }
}
