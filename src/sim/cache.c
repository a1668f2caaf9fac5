/*
 * cache.c -- sectored set-associative tags with LRU.  See cache.h.
 *
 * Tags sit apart from the rest of each way's state so a lookup scans one
 * or two host cache lines per set, not eight: the L2 of a big GPU has
 * hundreds of thousands of lines and every global access looks at it.
 */
#include "config.h"

#include "sim/cache.h"

typedef struct {
    guint64 used;       /* last touch, for LRU */
    guint64 ready;      /* cycle the last fill's data arrives */
    guint32 present;    /* sector mask; 0: the way is empty */
    guint32 dirty;
} Way;

struct Cache {
    guint64 *tags;      /* n_sets x assoc line addresses */
    Way *ways;          /* the same shape */
    guint64 n_sets;
    int assoc;
    guint64 clock;      /* touches so far: the LRU order */
    guint64 bytes;
    gint64 last;        /* way index of the last lookup's line, or -1 */
    guint64 last_line;
    gboolean hashed;
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
    c->bytes = c->n_sets * (guint64) line_bytes * (guint64) assoc;
    c->tags = g_new0 (guint64, MAX (c->n_sets, 1) * (guint64) assoc);
    c->ways = g_new0 (Way, MAX (c->n_sets, 1) * (guint64) assoc);
    c->last = -1;
    return c;
}

void
cache_free (Cache *c)
{
    if (c == NULL)
        return;
    g_free (c->tags);
    g_free (c->ways);
    g_free (c);
}

/* The set of 'line'.  The L2 hashes addresses over its slices and sets
 * (the function is not published); with a plain modulo the power-of-two
 * strides of matrix rows would pile onto a few sets.  smsim mixes the
 * line number with a multiplicative (Fibonacci) hash there: an
 * assumption, uniform and deterministic.  L1 keeps the plain index. */
static guint64
set_base (const Cache *c, guint64 line)
{
    guint64 h = c->hashed
                    ? (line * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 24
                    : line;
    return (h % c->n_sets) * (guint64) c->assoc;
}

/* Index of the way holding 'line', or -1. */
static gint64
find (Cache *c, guint64 line)
{
    if (c->last >= 0 && c->last_line == line && c->ways[c->last].present)
        return c->last;
    guint64 base = set_base (c, line);
    for (int w = 0; w < c->assoc; w++)
        if (c->tags[base + (guint64) w] == line &&
            c->ways[base + (guint64) w].present != 0) {
            c->last = (gint64) (base + (guint64) w);
            c->last_line = line;
            return c->last;
        }
    return -1;
}

guint32
cache_lookup (Cache *c, guint64 line, guint32 want, guint64 *ready)
{
    *ready = 0;
    if (c->n_sets == 0)
        return 0;
    gint64 i = find (c, line);
    if (i < 0)
        return 0;
    Way *way = &c->ways[i];
    way->used = ++c->clock;
    *ready = way->ready;
    return way->present & want;
}

static guint64
victim (Cache *c, guint64 line)
{
    guint64 base = set_base (c, line);
    guint64 v = base;
    for (int w = 0; w < c->assoc; w++) {
        guint64 i = base + (guint64) w;
        if (c->ways[i].present == 0)
            return i;
        if (c->ways[i].used < c->ways[v].used)
            v = i;
    }
    return v;
}

void
cache_fill (Cache *c, guint64 line, guint32 fill, guint64 ready,
            gboolean dirty, guint64 *evicted_line, guint32 *evicted_dirty)
{
    *evicted_dirty = 0;
    if (c->n_sets == 0)
        return;
    gint64 i = find (c, line);
    if (i < 0) {
        i = (gint64) victim (c, line);
        Way *old = &c->ways[i];
        if (old->present != 0 && old->dirty != 0) {
            *evicted_line = c->tags[i];
            *evicted_dirty = old->dirty;
        }
        c->tags[i] = line;
        *old = (Way) { 0 };
        c->last = i;
        c->last_line = line;
    }
    Way *way = &c->ways[i];
    way->present |= fill;
    way->ready = MAX (way->ready, ready);
    if (dirty)
        way->dirty |= fill;
    way->used = ++c->clock;
}

void
cache_invalidate (Cache *c, guint64 line)
{
    if (c->n_sets == 0)
        return;
    gint64 i = find (c, line);
    if (i >= 0)
        c->ways[i].present = c->ways[i].dirty = 0;
}
