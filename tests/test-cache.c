/*
 * test-cache.c -- the sectored, set-associative LRU tags (cache.h).
 *
 * Geometry by hand: a cache of B bytes with L-byte lines and A ways has
 * B / (L x A) sets, and an unhashed one puts line n in set n mod sets.
 * LRU: of a full set, the way touched longest ago (a lookup that hits
 * or a fill touches) is the one a fill takes.
 */
#include "config.h"

#include <criterion/criterion.h>

#include "sim/cache.h"

/* Fill all four sectors of 'line', clean, ready at 'ready'; returns the
 * dirty sectors it evicted. */
static guint32
fill (Cache *c, guint64 line, guint64 ready, guint64 *evicted)
{
    guint32 dirty = 0;
    cache_fill (c, line, 0xf, ready, FALSE, evicted, &dirty);
    return dirty;
}

static gboolean
present (Cache *c, guint64 line)
{
    guint64 ready;
    return cache_lookup (c, line, 0xf, &ready) == 0xf;
}

/* 2 sets x 2 ways of 128 B: lines 0, 2, 4 share set 0. */
Test (cache, lru_takes_the_way_touched_longest_ago)
{
    g_autoptr (Cache) c = cache_new (512, 128, 32, 2, FALSE);
    guint64 ev;
    fill (c, 0, 0, &ev);
    fill (c, 2, 0, &ev);
    cr_assert (present (c, 0));    /* 0 is now the more recent */
    fill (c, 4, 0, &ev);           /* takes 2's way */
    cr_expect (!present (c, 2));
    cr_expect (present (c, 0));
    cr_expect (present (c, 4));
    fill (c, 1, 0, &ev);           /* set 1: leaves set 0 alone */
    cr_expect (present (c, 0) && present (c, 4) && present (c, 1));
}

/* 3 sets x 3 ways (neither a power of two): line n in set n mod 3,
 * for lines past 32 bits as well.  2^32 - 1 = 3 x 1431655765 and
 * 2^33 + 1 = 3 x 2863311531: both in set 0, with 0, 3 and 6. */
Test (cache, sets_are_the_line_modulo_the_set_count)
{
    g_autoptr (Cache) c = cache_new (3 * 3 * 128, 128, 32, 3, FALSE);
    guint64 ev, big32 = G_MAXUINT32, big33 = (G_GUINT64_CONSTANT (1) << 33) + 1;
    fill (c, 0, 0, &ev);
    fill (c, 3, 0, &ev);
    fill (c, 6, 0, &ev);
    fill (c, 1, 0, &ev);
    fill (c, 5, 0, &ev);
    fill (c, big32, 0, &ev);       /* evicts 0, the oldest of set 0 */
    cr_expect (!present (c, 0));
    cr_expect (present (c, 3) && present (c, 6) && present (c, big32));
    fill (c, big33, 0, &ev);       /* 3 is now the oldest (lookups
                                    * above touched 3, 6, big32) */
    cr_expect (!present (c, 3));
    cr_expect (present (c, 1) && present (c, 5), "sets 1 and 2 untouched");
    /* 2^32 = 3 x 1431655765 + 1: set 1, which holds 1 alone so far. */
    fill (c, big32 + 1, 0, &ev);
    cr_expect (present (c, 1) && present (c, big32 + 1) && present (c, big33));
}

/* Sectors: a fill brings only those asked for; a dirty line's eviction
 * hands back its dirty sectors and address; a hit waits for a fill
 * still on its way. */
Test (cache, sectors_dirt_and_fill_times)
{
    g_autoptr (Cache) c = cache_new (128, 128, 32, 1, FALSE);  /* 1 line */
    guint64 ready, ev = 0;
    guint32 dirty = 0;
    cache_fill (c, 7, 0x3, 100, FALSE, &ev, &dirty);
    cr_expect_eq (cache_lookup (c, 7, 0xf, &ready), 0x3);
    cr_expect_eq (ready, 100);
    cache_fill (c, 7, 0x4, 250, TRUE, &ev, &dirty);    /* sector 2, dirty */
    cr_expect_eq (cache_lookup (c, 7, 0xf, &ready), 0x7);
    cr_expect_eq (ready, 250, "the later fill's time");
    cache_fill (c, 9, 0x1, 300, FALSE, &ev, &dirty);   /* evicts 7 */
    cr_expect_eq (dirty, 0x4);
    cr_expect_eq (ev, 7);
    cr_expect_eq (cache_lookup (c, 7, 0xf, &ready), 0);
    cache_invalidate (c, 9);
    cr_expect_eq (cache_lookup (c, 9, 0xf, &ready), 0);
}

/* A lookup answers for the sectors asked for (cache.h: "returns the
 * sectors present" of 'want'), not for the line: the memory model
 * counts the L2's hit sectors from it, and a miss of the sectors asked
 * must not read as a hit on others.  Line 7 holds sectors 0-1 (0x3):
 * asked for sector 2 (0x4), none is there: 0; asked for 1-2 (0x6),
 * sector 1: 0x2; asked for all four, 0x3. */
Test (cache, a_lookup_answers_for_the_sectors_asked)
{
    g_autoptr (Cache) c = cache_new (128, 128, 32, 1, FALSE);  /* 1 line */
    guint64 ready, ev = 0;
    guint32 dirty = 0;
    cache_fill (c, 7, 0x3, 0, FALSE, &ev, &dirty);
    cr_expect_eq (cache_lookup (c, 7, 0x4, &ready), 0);
    cr_expect_eq (cache_lookup (c, 7, 0x6, &ready), 0x2);
    cr_expect_eq (cache_lookup (c, 7, 0xf, &ready), 0x3);
}

/* A store's fill says which sectors it made dirty that were not: each
 * a write-back to come (MemStats.l2_dirtied_sectors).  Sectors 0-1
 * dirtied; then 1-2, of which only 2 is new; a clean fill dirties
 * none; and once the line is pushed out, writing it again dirties it
 * again, a second write-back. */
Test (cache, a_fill_says_what_it_dirtied)
{
    g_autoptr (Cache) c = cache_new (128, 128, 32, 1, FALSE);  /* 1 line */
    guint64 ev = 0;
    guint32 dirty = 0;
    cr_expect_eq (cache_fill (c, 7, 0x3, 0, TRUE, &ev, &dirty), 0x3);
    cr_expect_eq (cache_fill (c, 7, 0x6, 0, TRUE, &ev, &dirty), 0x4);
    cr_expect_eq (cache_fill (c, 7, 0x8, 0, FALSE, &ev, &dirty), 0);
    cr_expect_eq (cache_fill (c, 7, 0x1, 0, TRUE, &ev, &dirty), 0);
    cr_expect_eq (cache_fill (c, 9, 0x1, 0, FALSE, &ev, &dirty), 0);
    cr_expect_eq (dirty, 0x7, "line 7's dirty sectors, pushed out");
    cr_expect_eq (cache_fill (c, 7, 0x3, 0, TRUE, &ev, &dirty), 0x3);
}

/* No capacity: every lookup misses and fills are dropped. */
Test (cache, zero_bytes_always_misses)
{
    g_autoptr (Cache) c = cache_new (0, 128, 32, 4, FALSE);
    guint64 ev;
    fill (c, 1, 0, &ev);
    cr_expect (!present (c, 1));
}

/* A way emptied by a write that does not allocate is the one the next
 * fill of its set takes, before any LRU victim, in a cache that had
 * been full everywhere.  1 set x 4 ways: lines 0-3 fill it; 1 goes;
 * line 9 takes 1's way, so 0 (the least recently used) stays; line 10
 * then evicts 0. */
Test (cache, an_emptied_way_is_filled_before_the_lru_one)
{
    g_autoptr (Cache) c = cache_new (4 * 128, 128, 32, 4, FALSE);
    guint64 ev;
    for (guint64 l = 0; l < 4; l++)
        fill (c, l, 0, &ev);
    cache_invalidate (c, 1);
    cr_assert (!present (c, 1));
    fill (c, 9, 0, &ev);
    cr_expect (present (c, 0), "the LRU line stays while a way is empty");
    cr_expect (present (c, 2) && present (c, 3) && present (c, 9));
    /* Lookups above touched 0, 2, 3, 9 in that order: 0 is the LRU. */
    fill (c, 10, 0, &ev);
    cr_expect (!present (c, 0));
    cr_expect (present (c, 2) && present (c, 3) && present (c, 9) &&
               present (c, 10));
}

/* A hashed cache (the L2's) puts line n in set ((n x 0x9E3779B97F4A7C15
 * mod 2^64) >> 24) mod sets, the function cache.c documents: computed
 * here with a plain modulo, over 40-bit hashes.  3 sets x 2 ways: of the
 * first three lines that hash to set 0, the third evicts the first; a
 * line of another set evicts nothing there. */
static guint64
hashed_set (guint64 line, guint64 sets)
{
    return ((line * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 24) % sets;
}

Test (cache, hashed_sets_follow_the_documented_hash)
{
    g_autoptr (Cache) c = cache_new (3 * 2 * 128, 128, 32, 2, TRUE);
    guint64 same[3], other = 0, ev;
    int n = 0;
    for (guint64 l = 1; n < 3; l++)
        if (hashed_set (l, 3) == 0)
            same[n++] = l;
    for (guint64 l = 1; other == 0; l++)
        if (hashed_set (l, 3) != 0)
            other = l;
    cr_assert_gt ((same[0] * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 24,
                  G_MAXUINT32, "the hashes are past 32 bits");
    fill (c, same[0], 0, &ev);
    fill (c, same[1], 0, &ev);
    fill (c, other, 0, &ev);
    cr_expect (present (c, same[0]) && present (c, same[1]));
    fill (c, same[2], 0, &ev);     /* same[0] was touched first: LRU */
    cr_expect (!present (c, same[0]));
    cr_expect (present (c, same[1]) && present (c, same[2]) &&
               present (c, other));
}

/* A copy is the cache as it stood, with every fill arrived: 2 sets x 2
 * ways of 128 B; line 0 (dirty sector 0, its fill due at 500) and line
 * 2 in set 0, 0 the more recently touched; line 1 in set 1.  In the
 * copy a fill of line 4 takes 2's way (the LRU order kept), and one of
 * 6 then 0's, which hands back its dirty sector (4, touched in the
 * copy, is newer than 0, touched before it); line 1 is there, ready at
 * 0, and in a second copy line 0 is ready at 0 too.  The original is
 * left as it was. */
Test (cache, a_copy_keeps_lines_dirt_and_order_with_fills_arrived)
{
    g_autoptr (Cache) c = cache_new (512, 128, 32, 2, FALSE);
    guint64 ev, ready;
    guint32 dirty;
    cache_fill (c, 0, 0x1, 500, TRUE, &ev, &dirty);
    fill (c, 2, 0, &ev);
    fill (c, 1, 0, &ev);
    cr_assert_eq (cache_lookup (c, 0, 0x1, &ready), 0x1);   /* 0 is newer */
    g_autoptr (Cache) d = cache_copy (c);
    cr_expect_eq (fill (d, 4, 0, &ev), 0);         /* evicts 2, the older */
    cr_expect (!present (d, 2));
    cr_expect_eq (fill (d, 6, 0, &ev), 0x1);       /* then 0, dirty: the */
    cr_expect_eq (ev, 0);                          /* copy's touches go on */
    cr_expect (present (d, 4));                    /* after the original's */
    cr_expect_eq (cache_lookup (d, 1, 0xf, &ready), 0xf);
    cr_expect_eq (ready, 0, "line 1 ready at %" G_GUINT64_FORMAT, ready);
    g_autoptr (Cache) e = cache_copy (c);
    cr_expect_eq (cache_lookup (e, 0, 0x1, &ready), 0x1);
    cr_expect_eq (ready, 0, "line 0 ready at %" G_GUINT64_FORMAT, ready);
    cr_expect_eq (cache_lookup (c, 0, 0x1, &ready), 0x1);
    cr_expect_eq (ready, 500);
    cr_expect (present (c, 2));
    cr_expect (!present (c, 4));
}

/* LRU stamps are 32 bits, renumbered in each set's order when the
 * clock would wrap.  1 set x 4 ways of dirty lines 0-3 (so a fill
 * names the line it evicts); touches of 1 then 0 leave the order 2, 3,
 * 1, 0; the clock is then wound to its last stamp, which 3 takes, and
 * touching 2 renumbers: the order is 1, 0, 3, 2, the order fills then
 * evict them in. */
Test (cache, lru_order_survives_the_stamps_renumbering)
{
    g_autoptr (Cache) c = cache_new (4 * 128, 128, 32, 4, FALSE);
    guint64 ev = 0;
    guint32 dirty = 0;
    for (guint64 l = 0; l < 4; l++)
        cache_fill (c, l, 0xf, 0, TRUE, &ev, &dirty);
    cr_assert (present (c, 1) && present (c, 0));
    cache_skip_touches (c, G_MAXUINT32 - 7);  /* 6 touches so far */
    cr_assert (present (c, 3));               /* stamp 2^32 - 1 */
    cr_assert (present (c, 2));               /* renumbered first */
    guint64 order[] = { 1, 0, 3, 2 };
    for (int i = 0; i < 4; i++) {
        fill (c, 10 + (guint64) i, 0, &ev);
        cr_expect_eq (ev, order[i], "fill %d evicted %" G_GUINT64_FORMAT,
                      i, ev);
    }
}

/* Fill times are 32-bit offsets from a base moved forward when one
 * would not fit; a time before the new base reads as 0, long past.
 * 2 sets x 1 way: line 0 (set 0) ready at 100; line 1 (set 1) at 2^33
 * moves the base to 2^33 - 2^31: line 0 reads 0, line 1 exactly, as
 * does line 2 (set 0) filled at 2^33 - 2^31 + 7, just past the base. */
Test (cache, a_fill_time_far_in_the_past_reads_as_0_once_the_base_moves)
{
    g_autoptr (Cache) c = cache_new (2 * 128, 128, 32, 1, FALSE);
    const guint64 far = G_GUINT64_CONSTANT (1) << 33;
    guint64 ev, ready;
    fill (c, 0, 100, &ev);
    cr_expect_eq (cache_lookup (c, 0, 0xf, &ready), 0xf);
    cr_expect_eq (ready, 100);
    fill (c, 1, far, &ev);
    cr_expect_eq (cache_lookup (c, 0, 0xf, &ready), 0xf);
    cr_expect_eq (ready, 0, "line 0 ready at %" G_GUINT64_FORMAT, ready);
    cr_expect_eq (cache_lookup (c, 1, 0xf, &ready), 0xf);
    cr_expect_eq (ready, far);
    fill (c, 2, far - (far >> 2) + 7, &ev);
    cr_expect_eq (cache_lookup (c, 2, 0xf, &ready), 0xf);
    cr_expect_eq (ready, far - (far >> 2) + 7);
    fill (c, 1, 50, &ev);                   /* an earlier fill: kept */
    cr_expect_eq (cache_lookup (c, 1, 0xf, &ready), 0xf);
    cr_expect_eq (ready, far);
}

/* Tags keep a line's low 32 bits until a line of 2^32 - 1 or more
 * comes; from then on its high bits too.  1 set x 4 ways: line 5,
 * then 2^32 + 5 (dirty), 2^32 - 1 and 2^40 + 5; 5 and 2^32 + 5 are
 * different lines, 2^33 + 5 is none of them, and the eviction of
 * 2^32 + 5 names it in full. */
Test (cache, lines_past_32_bits_are_told_apart_and_found_again)
{
    g_autoptr (Cache) c = cache_new (4 * 128, 128, 32, 4, FALSE);
    const guint64 big = G_GUINT64_CONSTANT (1) << 32;
    guint64 ev = 0, ready;
    guint32 dirty = 0;
    fill (c, 5, 0, &ev);
    cr_expect (!present (c, big + 5));
    cache_fill (c, big + 5, 0x2, 0, TRUE, &ev, &dirty);
    fill (c, big - 1, 0, &ev);
    fill (c, (big << 8) + 5, 0, &ev);
    cr_expect (present (c, 5), "filled before the wide line came");
    cr_expect_eq (cache_lookup (c, big + 5, 0xf, &ready), 0x2);
    cr_expect (present (c, big - 1) && present (c, (big << 8) + 5));
    cr_expect (!present (c, 2 * big + 5));
    g_autoptr (Cache) d = cache_copy (c);
    cr_expect (present (d, (big << 8) + 5) && !present (d, 2 * big + 5));
    /* Touched in the order 5, big + 5, big - 1, 2^40 + 5: two fills
     * evict 5, then big + 5. */
    fill (c, 1, 0, &ev);
    dirty = fill (c, 2, 0, &ev);
    cr_expect_eq (dirty, 0x2);
    cr_expect_eq (ev, big + 5);
    cr_expect (!present (c, big + 5) && !present (c, 5));
}

/* Lines of 16 sectors keep dirty bits beside the present ones, of 32
 * apart: either way a lookup sees present sectors only and an eviction
 * hands back the dirty ones; the census counts them. */
Test (cache, sixteen_and_thirty_two_sector_lines)
{
    g_autoptr (Cache) c16 = cache_new (128, 128, 8, 1, FALSE);
    g_autoptr (Cache) c32 = cache_new (256, 256, 8, 1, FALSE);
    guint64 ev = 0, ready, lines, dirty_sectors;
    guint32 dirty = 0;
    cache_fill (c16, 3, 0x8000, 0, TRUE, &ev, &dirty);
    cache_fill (c16, 3, 0x0001, 0, FALSE, &ev, &dirty);
    cr_expect_eq (cache_lookup (c16, 3, 0xffff, &ready), 0x8001);
    cache_census (c16, &lines, &dirty_sectors);
    cr_expect (lines == 1 && dirty_sectors == 1);
    cache_fill (c16, 4, 0x1, 0, FALSE, &ev, &dirty);
    cr_expect_eq (dirty, 0x8000);
    cr_expect_eq (ev, 3);
    cache_fill (c32, 3, 0xffff0000u, 0, TRUE, &ev, &dirty);
    cache_fill (c32, 3, 0x0000ffffu, 0, FALSE, &ev, &dirty);
    cr_expect_eq (cache_lookup (c32, 3, G_MAXUINT32, &ready), G_MAXUINT32);
    cache_census (c32, &lines, &dirty_sectors);
    cr_expect (lines == 1 && dirty_sectors == 16);
    cache_fill (c32, 4, 0x1, 0, FALSE, &ev, &dirty);
    cr_expect_eq (dirty, 0xffff0000u);
    cr_expect_eq (ev, 3);
    cache_census (c32, &lines, &dirty_sectors);
    cr_expect (lines == 1 && dirty_sectors == 0);
}

/* What the tags take grows by a way's 16 bytes (cache.c: tag, LRU
 * stamp, sectors, fill time, 32 bits each) per line of capacity, and
 * by 4 more where a line of over 16 sectors keeps its dirty bits
 * apart; a cache of no sets still holds one set.  A 16 GiB L2 of
 * 128-byte lines is 2^27 ways: 2 GiB. */
Test (cache, host_bytes_per_line)
{
    guint64 one = cache_host_bytes (4 * 128, 128, 32, 4);
    cr_expect_eq (cache_host_bytes (8 * 128, 128, 32, 4) - one, 4 * 16);
    cr_expect_eq (cache_host_bytes (0, 128, 32, 4), one);
    cr_expect_eq (cache_host_bytes (8 * 256, 256, 8, 4) -
                      cache_host_bytes (4 * 256, 256, 8, 4), 4 * 20);
    cr_expect_eq (cache_host_bytes ((guint64) 16 << 30, 128, 32, 16) - one +
                      4 * 16, (guint64) 2 << 30);
}
