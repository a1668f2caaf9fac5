/*
 * cache.c -- sectored set-associative tags with LRU.  See cache.h.
 *
 * Each set keeps its tags, LRU stamps, sector masks and fill times side
 * by side (a 16-way set is eight adjacent host cache lines): the L2 of a big GPU has hundreds of thousands of lines, and a
 * streaming kernel misses in it on nearly every access, so a miss must
 * cost one pass over one stretch of memory, not a tag scan and then a
 * victim scan over scattered ways.  An empty way holds the tag
 * CACHE_EMPTY, so the scan reads tags only.
 */
#include "config.h"

#include <string.h>

#include "sim/cache.h"
#include "sim/sim.h"

#define CACHE_EMPTY G_MAXUINT64

/* A set is SET_WORDS x assoc words: */
enum { SET_TAG, SET_USED, SET_SECTORS, SET_READY, SET_WORDS };
/* SET_TAG: line address or CACHE_EMPTY;  SET_USED: last touch (the LRU
 * order);  SET_SECTORS: present sectors | dirty sectors << 32, 0 exactly
 * when the tag is empty;  SET_READY: the cycle the last fill's data
 * arrives. */

/* A way: its set's words and its index there.  Kept whole (not as one
 * way number) so no operation works the set out again. */
typedef struct {
    guint64 *set;
    int way;
} Slot;

static const Slot NO_SLOT = { NULL, -1 };

struct Cache {
    guint64 *sets;
    guint64 n_sets;
    int assoc;
    guint64 clock;      /* touches so far: the LRU order */
    guint64 empty;      /* empty ways: once none, a miss looks for none */
    guint64 evictions;  /* lines a fill pushed out */
    gboolean hashed;
    guint64 set_magic;  /* for remainder40 (0: n_sets too large) */
    /* The last line found, to skip the scan when the same line comes
     * again (a warp's sectors of one line arrive one after another). */
    guint64 hit_line;
    Slot hit;           /* or NO_SLOT */
    /* A lookup that missed leaves the way its fill would take: the
     * memory model fills right after the miss, so the set is not read
     * twice.  Any other operation forgets it. */
    guint64 miss_line;
    Slot miss;          /* or NO_SLOT */
};

Cache *
cache_new (guint64 bytes, int line_bytes, int sector_bytes, int assoc,
           gboolean hashed)
{
    Cache *c = g_new0 (Cache, 1);
    c->hashed = hashed;
    g_assert (line_bytes > 0 && sector_bytes > 0 && assoc > 0);
    g_assert (line_bytes / sector_bytes <= 32);
    c->assoc = assoc;
    c->n_sets = bytes / ((guint64) line_bytes * (guint64) assoc);
    if (c->n_sets > 0 && c->n_sets <= 1u << 24)
        c->set_magic = G_MAXUINT64 / c->n_sets + 1;
    guint64 n_ways = MAX (c->n_sets, 1) * (guint64) assoc;
    /* Host-cache-line aligned, so a set of four ways or fewer spans as
     * few of them as it can. */
    c->sets = g_aligned_alloc0 (SET_WORDS * n_ways, sizeof (guint64), 64);
    for (guint64 s = 0; s < MAX (c->n_sets, 1); s++)
        for (int w = 0; w < assoc; w++)
            c->sets[s * SET_WORDS * (guint64) assoc + (guint64) w] = CACHE_EMPTY;
    c->empty = c->n_sets * (guint64) assoc;
    c->hit = c->miss = NO_SLOT;
    return c;
}

void
cache_free (Cache *c)
{
    if (c == NULL)
        return;
    g_aligned_free (c->sets);
    g_free (c);
}

/* h % n_sets for h < 2^40 and n_sets <= 2^24 (the L2's hash below
 * has 40 bits; L1 line numbers fit too), by the quotient: with M =
 * set_magic = 2^64 / n_sets + e (0 < e <= 1), h M / 2^64 exceeds
 * h / n_sets by less than 2^-24 <= 1 / n_sets, too little to reach the
 * next integer, so its floor is the quotient.  A 64-bit division per
 * lookup was 3 % of a DRAM-bound stream. */
static guint64
remainder40 (const Cache *c, guint64 h)
{
#ifdef __SIZEOF_INT128__
    guint64 q = (guint64) (((unsigned __int128) h * c->set_magic) >> 64);
    return h - q * c->n_sets;
#else
    return h % c->n_sets;
#endif
}

/* The set of 'line'.  The L2 hashes addresses over its slices and sets
 * (the function is not published); with a plain modulo the power-of-two
 * strides of matrix rows would pile onto a few sets.  smsim mixes the
 * line number with a multiplicative (Fibonacci) hash there: an
 * assumption, uniform and deterministic.  L1 keeps the plain index. */
static guint64
set_of (const Cache *c, guint64 line)
{
    guint64 h = c->hashed
                    ? (line * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 24
                    : line;
    return c->set_magic != 0 && h >> 40 == 0 ? remainder40 (c, h)
                                             : h % c->n_sets;
}

static guint64 *
tags_of (const Cache *c, guint64 set)
{
    return &c->sets[set * SET_WORDS * (guint64) c->assoc];
}

/* Word 'what' of the way at 's'. */
static guint64 *
word (const Cache *c, Slot s, int what)
{
    return &s.set[what * c->assoc + s.way];
}

/* The way holding 'line', or NO_SLOT; on a miss '*victim' gets the way
 * a fill would take: the first empty one, else the least recently
 * used.  A hit reads the tags only. */
static Slot
scan (const Cache *c, guint64 line, Slot *victim)
{
    guint64 *tag = tags_of (c, set_of (c, line));
    for (int w = 0; w < c->assoc; w++)
        if (tag[w] == line)
            return (Slot) { tag, w };
    int v = -1;
    for (int w = 0; w < c->assoc && v < 0 && c->empty > 0; w++)
        if (tag[w] == CACHE_EMPTY)
            v = w;
    if (v < 0) {
        const guint64 *used = tag + SET_USED * c->assoc;
        guint64 least = used[0];
        v = 0;
        for (int w = 1; w < c->assoc; w++)
            if (used[w] < least) {
                least = used[w];
                v = w;
            }
    }
    *victim = (Slot) { tag, v };
    return NO_SLOT;
}

static Slot
find (Cache *c, guint64 line, Slot *victim)
{
    *victim = NO_SLOT;
    if (c->hit.set != NULL && c->hit_line == line)
        return c->hit;
    Slot i = scan (c, line, victim);
    if (i.set != NULL) {
        c->hit = i;
        c->hit_line = line;
    }
    return i;
}

static void
touch (Cache *c, Slot i)
{
    *word (c, i, SET_USED) = ++c->clock;
}

guint32
cache_lookup (Cache *c, guint64 line, guint32 want, guint64 *ready)
{
    *ready = 0;
    c->miss = NO_SLOT;
    if (c->n_sets == 0)
        return 0;
    Slot victim;
    Slot i = find (c, line, &victim);
    if (i.set == NULL) {
        c->miss_line = line;
        c->miss = victim;
        return 0;
    }
    touch (c, i);
    *ready = *word (c, i, SET_READY);
    return (guint32) *word (c, i, SET_SECTORS) & want;
}

void
cache_fill (Cache *c, guint64 line, guint32 fill, guint64 ready,
            gboolean dirty, guint64 *evicted_line, guint32 *evicted_dirty)
{
    *evicted_dirty = 0;
    Slot victim = c->miss, i = NO_SLOT;
    gboolean remembered = victim.set != NULL && c->miss_line == line;
    c->miss = NO_SLOT;
    if (c->n_sets == 0 || fill == 0)
        return;
    if (!remembered)
        i = find (c, line, &victim);
    guint64 *sectors;
    if (i.set == NULL) {
        i = victim;
        sectors = word (c, i, SET_SECTORS);
        if ((*sectors >> 32) != 0) {
            *evicted_line = *word (c, i, SET_TAG);
            *evicted_dirty = (guint32) (*sectors >> 32);
        }
        if (*word (c, i, SET_TAG) == CACHE_EMPTY)
            c->empty--;
        else
            c->evictions++;
        *word (c, i, SET_TAG) = line;
        *sectors = 0;
        *word (c, i, SET_READY) = 0;
        c->hit = i;
        c->hit_line = line;
    }
    sectors = word (c, i, SET_SECTORS);
    *sectors |= fill | (dirty ? (guint64) fill << 32 : 0);
    guint64 *when = word (c, i, SET_READY);
    *when = MAX (*when, ready);
    touch (c, i);
}

void
cache_invalidate (Cache *c, guint64 line)
{
    c->miss = NO_SLOT;
    if (c->n_sets == 0)
        return;
    Slot victim;
    Slot i = find (c, line, &victim);
    if (i.set == NULL)
        return;
    *word (c, i, SET_TAG) = CACHE_EMPTY;
    c->empty++;
    *word (c, i, SET_SECTORS) = *word (c, i, SET_READY) = 0;
    c->hit = NO_SLOT;
}

Cache *
cache_copy (const Cache *c)
{
    Cache *d = g_new (Cache, 1);
    guint64 n_ways = MAX (c->n_sets, 1) * (guint64) c->assoc;
    *d = *c;
    d->sets = g_aligned_alloc (SET_WORDS * n_ways, sizeof (guint64), 64);
    memcpy (d->sets, c->sets, SET_WORDS * n_ways * sizeof (guint64));
    for (guint64 s = 0; s < MAX (c->n_sets, 1); s++)
        memset (tags_of (d, s) + SET_READY * c->assoc, 0,
                (gsize) c->assoc * sizeof (guint64));
    d->hit = d->miss = NO_SLOT;
    return d;
}

void
cache_census (const Cache *c, guint64 *lines, guint64 *dirty_sectors)
{
    *lines = *dirty_sectors = 0;
    for (guint64 s = 0; s < c->n_sets; s++) {
        const guint64 *sectors = tags_of (c, s) + SET_SECTORS * c->assoc;
        for (int w = 0; w < c->assoc; w++) {
            *lines += sectors[w] != 0;
            *dirty_sectors += (guint) sim_popcount32 ((guint32) (sectors[w] >> 32));
        }
    }
}

guint64
cache_evictions (const Cache *c)
{
    return c->evictions;
}
