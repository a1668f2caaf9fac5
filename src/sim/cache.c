/*
 * cache.c -- sectored set-associative tags with LRU.  See cache.h.
 *
 * A set is its ways side by side, each way 16 bytes: a 4-way L1 set is
 * one 64-byte host cache line, a 16-way L2 set four.  The L2 of a big
 * GPU has hundreds of thousands of lines, and a streaming kernel misses
 * in it on nearly every access, so a miss must cost one pass over one
 * stretch of memory, not a tag scan and then a victim scan over
 * scattered ways.  Every field is 32 bits, by the means each says:
 * tags the line's low bits (the high ones apart, once a line needs
 * them), LRU stamps renumbered before the clock wraps, fill times
 * counted from a base that moves forward.
 */
#include "config.h"

#include <string.h>

#include "sim/cache.h"
#include "sim/sim.h"

/* A way, 16 bytes: a set of four ways is one 64-byte host cache line,
 * so an L1 lookup -- most of sgemm-1's run -- reads one line, where the
 * 64-bit layout spread a set over two. */
typedef struct {
    guint32 tag;      /* the line address's low 32 bits; all ones when
                       * empty (c->high holds the rest, see there) */
    guint32 used;     /* last touch: the LRU order (see touch) */
    guint32 sectors;  /* present sectors | dirty sectors << 16 (or the
                       * present ones alone, see c->dirty); 0 exactly
                       * when empty */
    guint32 ready;    /* when the last fill's data arrives: 0 for long
                       * past (or cycle 0), else ready_base + ready - 1 */
} Way;

#define CACHE_EMPTY_TAG G_MAXUINT32

struct Cache {
    Way *ways;          /* n_sets x assoc, set by set */
    guint64 n_sets;
    int assoc;
    guint32 present;    /* the mask of a line's sectors */
    guint32 clock;      /* touches since the stamps were last renumbered */
    guint64 ready_base; /* what a way's 'ready' counts from */
    guint64 empty;      /* empty ways: once none, a miss looks for none */
    guint64 evictions;  /* lines a fill pushed out */
    gboolean hashed;
    guint64 set_magic;  /* for remainder40 (0: n_sets too large) */
    /* Lines below it take find's plain path: every preset's lines, all
     * but always (see find).  CACHE_EMPTY_TAG while set_magic serves
     * and no line has needed 'high'; else 0, and every line the other
     * path. */
    guint64 plain_below;
    /* Line addresses of 2^32 - 1 and up (no preset's memory has so many
     * lines, but the tests and a hand-made trace may): NULL until one
     * comes; then every way's high 32 bits, all ones when empty. */
    guint32 *high;
    /* Lines of more than 16 sectors (the limit is 32) keep their dirty
     * sectors here, one word a way; else NULL, and they share 'sectors'
     * with the present ones. */
    guint32 *dirty;
    /* The last line found, to skip the scan when the same line comes
     * again (a warp's sectors of one line arrive one after another). */
    guint64 hit_line;
    Way *hit;           /* or NULL */
    /* A lookup that missed leaves the way its fill would take: the
     * memory model fills right after the miss, so the set is not read
     * twice.  Any other operation forgets it. */
    guint64 miss_line;
    Way *miss;          /* or NULL */
};

static guint64
n_ways (const Cache *c)
{
    return MAX (c->n_sets, 1) * (guint64) c->assoc;
}

static guint64
way_index (const Cache *c, const Way *w)
{
    return (guint64) (w - c->ways);
}

guint64
cache_host_bytes (guint64 bytes, int line_bytes, int sector_bytes, int assoc)
{
    g_assert (line_bytes > 0 && sector_bytes > 0 && assoc > 0);
    guint64 sets = bytes / ((guint64) line_bytes * (guint64) assoc);
    guint64 ways = MAX (sets, 1) * (guint64) assoc;
    gsize per_way = sizeof (Way) +
                    (line_bytes / sector_bytes > 16 ? sizeof (guint32) : 0);
    return sizeof (Cache) + ways * per_way;
}

Cache *
cache_new (guint64 bytes, int line_bytes, int sector_bytes, int assoc,
           gboolean hashed)
{
    Cache *c = g_new0 (Cache, 1);
    c->hashed = hashed;
    g_assert (line_bytes > 0 && sector_bytes > 0 && assoc > 0);
    int sectors = line_bytes / sector_bytes;
    g_assert (sectors <= 32);
    c->present = sectors < 32 ? (1u << sectors) - 1 : G_MAXUINT32;
    c->assoc = assoc;
    c->n_sets = bytes / ((guint64) line_bytes * (guint64) assoc);
    if (c->n_sets > 0 && c->n_sets <= 1u << 24)
        c->set_magic = G_MAXUINT64 / c->n_sets + 1;
    c->plain_below = c->set_magic != 0 ? CACHE_EMPTY_TAG : 0;
    /* Host-cache-line aligned, so a set of four ways is one line. */
    c->ways = g_aligned_alloc0 (n_ways (c), sizeof (Way), 64);
    for (guint64 i = 0; i < n_ways (c); i++)
        c->ways[i].tag = CACHE_EMPTY_TAG;
    if (sectors > 16)
        c->dirty = g_new0 (guint32, n_ways (c));
    c->empty = c->n_sets * (guint64) assoc;
    return c;
}

void
cache_free (Cache *c)
{
    if (c == NULL)
        return;
    g_aligned_free (c->ways);
    g_free (c->high);
    g_free (c->dirty);
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

/* What a line's set is picked by: see set_of. */
static guint64
hash_of (const Cache *c, guint64 line)
{
    return c->hashed ? (line * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 24
                     : line;
}

/* The set of 'line'.  The L2 hashes addresses over its slices and sets
 * (the function is not published); with a plain modulo the power-of-two
 * strides of matrix rows would pile onto a few sets.  smsim mixes the
 * line number with a multiplicative (Fibonacci) hash there: an
 * assumption, uniform and deterministic.  The L1 hashes where its
 * preset says so (mem.l1_hashed_index; no preset does: memhier.h). */
static guint64
set_of (const Cache *c, guint64 line)
{
    guint64 h = hash_of (c, line);
    return c->set_magic != 0 && h >> 40 == 0 ? remainder40 (c, h)
                                             : h % c->n_sets;
}

/* ------------------------------------------------------------------ */
/* A way's fields                                                      */

/* Give every way its high 32 bits, from now on compared with the low
 * ones: the first line of 2^32 - 1 or more has come (2^32 - 1 itself
 * because its low bits are the empty tag). */
static G_GNUC_NO_INLINE void
widen (Cache *c)
{
    c->high = g_new (guint32, n_ways (c));
    c->plain_below = 0;
    for (guint64 i = 0; i < n_ways (c); i++)
        c->high[i] = c->ways[i].sectors == 0 ? CACHE_EMPTY_TAG : 0;
}

static gboolean
holds (const Cache *c, const Way *w, guint64 line)
{
    return w->tag == (guint32) line &&
           (c->high == NULL || c->high[way_index (c, w)] == line >> 32);
}

static guint64
line_of (const Cache *c, const Way *w)
{
    guint64 high = c->high != NULL ? c->high[way_index (c, w)] : 0;
    return high << 32 | w->tag;
}

static void
set_line (Cache *c, Way *w, guint64 line)
{
    w->tag = (guint32) line;
    if (c->high != NULL)
        c->high[way_index (c, w)] = (guint32) (line >> 32);
}

static guint32
dirty_of (const Cache *c, const Way *w)
{
    return c->dirty != NULL ? c->dirty[way_index (c, w)] : w->sectors >> 16;
}

/* Returns the sectors of 'fill' that were not dirty before (none if
 * 'dirty' is FALSE). */
static guint32
add_sectors (Cache *c, Way *w, guint32 fill, gboolean dirty)
{
    guint32 dirtied = dirty ? fill & ~dirty_of (c, w) : 0;
    w->sectors |= fill;
    if (dirty && c->dirty != NULL)
        c->dirty[way_index (c, w)] |= fill;
    else if (dirty)
        w->sectors |= fill << 16;
    return dirtied;
}

static guint64
ready_of (const Cache *c, const Way *w)
{
    return w->ready != 0 ? c->ready_base + w->ready - 1 : 0;
}

/* Count every way's 'ready' from 'base' (later than the one before);
 * those before it become 0, read as long past.  The memory model reads
 * a ready only to make a hit wait for a fill still on its way (done =
 * MAX (done, ready), done later than the access), and accesses come in
 * time order give or take the queueing of one request, far less than
 * the 2^31 cycles set_ready keeps the base behind the latest fill: a
 * time before the base has passed for every access still to come, so
 * 0 waits no less than it would. */
static void
move_ready_base (Cache *c, guint64 base)
{
    for (guint64 i = 0; i < n_ways (c); i++) {
        guint64 at = ready_of (c, &c->ways[i]);
        c->ways[i].ready = at >= base ? (guint32) (at - base + 1) : 0;
    }
    c->ready_base = base;
}

static void
set_ready (Cache *c, Way *w, guint64 at)
{
    if (at < c->ready_base) {
        w->ready = 0;
        return;
    }
    if (at - c->ready_base >= G_MAXUINT32)
        move_ready_base (c, at - (G_GUINT64_CONSTANT (1) << 31));
    w->ready = (guint32) (at - c->ready_base + 1);
}

/* Renumber the LRU stamps of every set 1..assoc, in the order they
 * were (equal ones, such as the 0 of ways never filled, stay equal):
 * only their order within a set is ever read, and after 2^32 touches
 * the clock would wrap. */
static G_GNUC_NO_INLINE void
renumber (Cache *c)
{
    g_autofree guint32 *rank = g_new (guint32, (gsize) c->assoc);
    for (guint64 s = 0; s < MAX (c->n_sets, 1); s++) {
        Way *set = &c->ways[s * (guint64) c->assoc];
        for (int w = 0; w < c->assoc; w++) {
            rank[w] = 1;
            for (int o = 0; o < c->assoc; o++)
                rank[w] += set[o].used < set[w].used;
        }
        for (int w = 0; w < c->assoc; w++)
            set[w].used = rank[w];
    }
    c->clock = (guint32) c->assoc;
}

static void
touch (Cache *c, Way *w)
{
    if (G_UNLIKELY (c->clock == G_MAXUINT32))
        renumber (c);
    w->used = ++c->clock;
}

void
cache_skip_touches (Cache *c, guint64 n)
{
    while (n > 0) {
        if (c->clock == G_MAXUINT32)
            renumber (c);
        guint32 step = (guint32) MIN (n, G_MAXUINT32 - c->clock);
        c->clock += step;
        n -= step;
    }
}

/* ------------------------------------------------------------------ */
/* Lookups                                                             */

/* The ways of the set of 'line', side by side. */
static Way *
set_ways (const Cache *c, guint64 line)
{
    return &c->ways[set_of (c, line) * (guint64) c->assoc];
}

/* The way of 'set' holding 'line', or NULL.  A hit reads the tags only
 * (of a four-way set, one host line). */
static Way *
way_of (const Cache *c, Way *set, guint64 line)
{
    for (int w = 0; w < c->assoc; w++)
        if (holds (c, &set[w], line))
            return &set[w];
    return NULL;
}

/* set_ways and way_of for a line below c->plain_below: one in 32 bits
 * (so its hash or itself below 2^40, remainder40's bound) where no way
 * has high bits, its tag the whole line.  Most of a run is L1 hits,
 * and the tests the general path makes of each line were a tenth of a
 * hit's instructions. */
static Way *
plain_set (const Cache *c, guint64 line)
{
    return &c->ways[remainder40 (c, hash_of (c, line)) * (guint64) c->assoc];
}

static Way *
plain_way_of (const Cache *c, Way *set, guint32 tag)
{
    for (int w = 0; w < c->assoc; w++)
        if (set[w].tag == tag)
            return &set[w];
    return NULL;
}

/* The way of 'set' a fill takes: the first empty one, else the least
 * recently used (the first of equals). */
static G_GNUC_NO_INLINE Way *
victim (const Cache *c, Way *set)
{
    for (int w = 0; w < c->assoc && c->empty > 0; w++)
        if (set[w].sectors == 0)
            return &set[w];
    Way *v = &set[0];
    for (int w = 1; w < c->assoc; w++)
        if (set[w].used < v->used)
            v = &set[w];
    return v;
}

/* The way holding 'line', or NULL with '*set' its set.  Inlined, as
 * cache_lookup is: see there. */
G_ALWAYS_INLINE static inline Way *
find (Cache *c, guint64 line, Way **set)
{
    if (c->hit != NULL && c->hit_line == line)
        return c->hit;
    Way *i;
    if (G_LIKELY (line < c->plain_below)) {
        *set = plain_set (c, line);
        i = plain_way_of (c, *set, (guint32) line);
    } else {
        if (G_UNLIKELY (line >= CACHE_EMPTY_TAG) && c->high == NULL)
            widen (c);
        *set = set_ways (c, line);
        i = way_of (c, *set, line);
    }
    if (i != NULL) {
        c->hit = i;
        c->hit_line = line;
    }
    return i;
}

/* Inlined into its callers, with find (LTO does it across files): an
 * L1 lookup per line of a request is most of sgemm-1's run, and GCC
 * left either one a call, whose entry, exit and spills were 7 % of
 * that run's instructions. */
G_ALWAYS_INLINE inline guint32
cache_lookup (Cache *c, guint64 line, guint32 want, guint64 *ready)
{
    *ready = 0;
    c->miss = NULL;
    if (c->n_sets == 0)
        return 0;
    Way *set;
    Way *i = find (c, line, &set);
    if (i == NULL) {
        c->miss_line = line;
        c->miss = victim (c, set);
        return 0;
    }
    touch (c, i);
    *ready = ready_of (c, i);
    return i->sectors & want;   /* no dirty bits: 'want' is below them */
}

/* Empty the way 'v' for 'line', handing back what it held. */
static void
take (Cache *c, Way *v, guint64 line, guint64 *evicted_line,
      guint32 *evicted_dirty)
{
    if (v->sectors == 0)
        c->empty--;
    else
        c->evictions++;
    *evicted_dirty = dirty_of (c, v);
    if (*evicted_dirty != 0)
        *evicted_line = line_of (c, v);
    if (c->dirty != NULL)
        c->dirty[way_index (c, v)] = 0;
    set_line (c, v, line);
    v->sectors = v->ready = 0;
    c->hit = v;
    c->hit_line = line;
}

guint32
cache_fill (Cache *c, guint64 line, guint32 fill, guint64 ready,
            gboolean dirty, guint64 *evicted_line, guint32 *evicted_dirty)
{
    *evicted_dirty = 0;
    Way *remembered = c->miss_line == line ? c->miss : NULL, *set;
    c->miss = NULL;
    if (c->n_sets == 0 || fill == 0)
        return 0;
    g_assert ((fill & ~c->present) == 0);
    Way *i = remembered == NULL ? find (c, line, &set) : NULL;
    if (i == NULL) {
        i = remembered != NULL ? remembered : victim (c, set);
        take (c, i, line, evicted_line, evicted_dirty);
    }
    guint32 dirtied = add_sectors (c, i, fill, dirty);
    set_ready (c, i, MAX (ready_of (c, i), ready));
    touch (c, i);
    return dirtied;
}

void
cache_invalidate (Cache *c, guint64 line)
{
    c->miss = NULL;
    if (c->n_sets == 0)
        return;
    Way *set;
    Way *i = find (c, line, &set);
    if (i == NULL)
        return;
    set_line (c, i, G_MAXUINT64);
    c->empty++;
    i->sectors = i->ready = 0;
    if (c->dirty != NULL)
        c->dirty[way_index (c, i)] = 0;
    c->hit = NULL;
}

/* ------------------------------------------------------------------ */
/* Copies and counts                                                   */

static guint32 *
copy_words (const guint32 *w, guint64 n)
{
    return w != NULL ? g_memdup2 (w, n * sizeof (guint32)) : NULL;
}

Cache *
cache_copy (const Cache *c)
{
    Cache *d = g_new (Cache, 1);
    *d = *c;
    d->ways = g_aligned_alloc (n_ways (c), sizeof (Way), 64);
    memcpy (d->ways, c->ways, n_ways (c) * sizeof (Way));
    for (guint64 i = 0; i < n_ways (c); i++)
        d->ways[i].ready = 0;
    d->ready_base = 0;
    d->high = copy_words (c->high, n_ways (c));
    d->dirty = copy_words (c->dirty, n_ways (c));
    d->hit = d->miss = NULL;
    return d;
}

void
cache_census (const Cache *c, guint64 *lines, guint64 *dirty_sectors)
{
    *lines = *dirty_sectors = 0;
    for (guint64 i = 0; i < c->n_sets * (guint64) c->assoc; i++) {
        *lines += c->ways[i].sectors != 0;
        *dirty_sectors += (guint) sim_popcount32 (dirty_of (c, &c->ways[i]));
    }
}

guint64
cache_evictions (const Cache *c)
{
    return c->evictions;
}
