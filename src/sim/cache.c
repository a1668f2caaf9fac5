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

#include "sim/cache.h"

#define CACHE_EMPTY G_MAXUINT64

/* A set is SET_WORDS x assoc words: */
enum { SET_TAG, SET_USED, SET_SECTORS, SET_READY, SET_WORDS };
/* SET_TAG: line address or CACHE_EMPTY;  SET_USED: last touch (the LRU
 * order);  SET_SECTORS: present sectors | dirty sectors << 32, 0 exactly
 * when the tag is empty;  SET_READY: the cycle the last fill's data
 * arrives. */

struct Cache {
    guint64 *sets;
    guint64 n_sets;
    int assoc;
    int assoc_shift;    /* log2 (assoc), or -1: a way's set without a
                         * 64-bit division where it can */
    guint64 clock;      /* touches so far: the LRU order */
    gboolean hashed;
    guint64 set_magic;  /* for set_of's remainder by n_sets (0: none) */
    /* The last line found, to skip the scan when the same line comes
     * again (a warp's sectors of one line arrive one after another). */
    guint64 hit_line;
    gint64 hit_way;     /* or -1 */
    /* A lookup that missed leaves the way its fill would take: the
     * memory model fills right after the miss, so the set is not read
     * twice.  Any other operation forgets it. */
    guint64 miss_line;
    gint64 miss_way;    /* or -1 */
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
    c->assoc_shift = (assoc & (assoc - 1)) == 0
                         ? g_bit_nth_lsf ((gulong) assoc, -1) : -1;
    c->n_sets = bytes / ((guint64) line_bytes * (guint64) assoc);
    if (c->n_sets > 0 && c->n_sets <= G_MAXUINT32)
        c->set_magic = G_MAXUINT64 / c->n_sets + 1;
    guint64 n_ways = MAX (c->n_sets, 1) * (guint64) assoc;
    c->sets = g_new0 (guint64, SET_WORDS * n_ways);
    for (guint64 s = 0; s < MAX (c->n_sets, 1); s++)
        for (int w = 0; w < assoc; w++)
            c->sets[s * SET_WORDS * (guint64) assoc + (guint64) w] = CACHE_EMPTY;
    c->hit_way = c->miss_way = -1;
    return c;
}

void
cache_free (Cache *c)
{
    if (c == NULL)
        return;
    g_free (c->sets);
    g_free (c);
}

/* h % n_sets for a 32-bit h, without a division (Lemire, Kaser and
 * Kurz, "Faster remainder by direct computation", 2019: exact for
 * 32-bit numerators and divisors). */
static guint64
remainder32 (const Cache *c, guint64 h)
{
#ifdef __SIZEOF_INT128__
    guint64 low = c->set_magic * h;
    return (guint64) (((unsigned __int128) low * c->n_sets) >> 64);
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
    return h <= G_MAXUINT32 && c->set_magic != 0 ? remainder32 (c, h)
                                                  : h % c->n_sets;
}

static guint64 *
tags_of (const Cache *c, guint64 set)
{
    return &c->sets[set * SET_WORDS * (guint64) c->assoc];
}

/* Way index of 'line', or -1; on a miss '*victim' gets the way a fill
 * would take: the first empty one, else the least recently used. */
static gint64
scan (const Cache *c, guint64 line, gint64 *victim)
{
    guint64 set = set_of (c, line);
    const guint64 *tag = tags_of (c, set);
    const guint64 *used = tag + SET_USED * c->assoc;
    int v = -1;
    for (int w = 0; w < c->assoc; w++) {
        if (tag[w] == line)
            return (gint64) (set * (guint64) c->assoc) + w;
        if (tag[w] == CACHE_EMPTY && v < 0)
            v = w;
    }
    if (v < 0) {
        v = 0;
        for (int w = 1; w < c->assoc; w++)
            if (used[w] < used[v])
                v = w;
    }
    *victim = (gint64) (set * (guint64) c->assoc) + v;
    return -1;
}

static gint64
find (Cache *c, guint64 line, gint64 *victim)
{
    *victim = -1;
    if (c->hit_way >= 0 && c->hit_line == line)
        return c->hit_way;
    gint64 i = scan (c, line, victim);
    if (i >= 0) {
        c->hit_way = i;
        c->hit_line = line;
    }
    return i;
}

static guint64 *
tag_at (const Cache *c, gint64 i)
{
    guint64 set = c->assoc_shift >= 0 ? (guint64) i >> c->assoc_shift
                                      : (guint64) i / (guint64) c->assoc;
    return &tags_of (c, set)[(guint64) i - set * (guint64) c->assoc];
}

/* Word 'what' of way 'i'. */
static guint64 *
word (const Cache *c, gint64 i, int what)
{
    return tag_at (c, i) + what * c->assoc;
}

static void
touch (Cache *c, gint64 i)
{
    *word (c, i, SET_USED) = ++c->clock;
}

guint32
cache_lookup (Cache *c, guint64 line, guint32 want, guint64 *ready)
{
    *ready = 0;
    c->miss_way = -1;
    if (c->n_sets == 0)
        return 0;
    gint64 victim;
    gint64 i = find (c, line, &victim);
    if (i < 0) {
        c->miss_line = line;
        c->miss_way = victim;
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
    gint64 victim = c->miss_way, i = -1;
    gboolean remembered = victim >= 0 && c->miss_line == line;
    c->miss_way = -1;
    if (c->n_sets == 0 || fill == 0)
        return;
    if (!remembered)
        i = find (c, line, &victim);
    guint64 *sectors;
    if (i < 0) {
        i = victim;
        sectors = word (c, i, SET_SECTORS);
        if ((*sectors >> 32) != 0) {
            *evicted_line = *tag_at (c, i);
            *evicted_dirty = (guint32) (*sectors >> 32);
        }
        *tag_at (c, i) = line;
        *sectors = 0;
        *word (c, i, SET_READY) = 0;
        c->hit_way = i;
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
    c->miss_way = -1;
    if (c->n_sets == 0)
        return;
    gint64 victim;
    gint64 i = find (c, line, &victim);
    if (i < 0)
        return;
    *tag_at (c, i) = CACHE_EMPTY;
    *word (c, i, SET_SECTORS) = *word (c, i, SET_READY) = 0;
    c->hit_way = -1;
}
