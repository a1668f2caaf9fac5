/*
 * cache.c -- sectored set-associative tags with LRU.  See cache.h.
 */
#include "config.h"

#include "sim/cache.h"

typedef struct {
    guint64 tag;        /* line address; valid when 'present' != 0 */
    guint64 used;       /* last touch, for LRU */
    guint64 ready;      /* cycle the last fill's data arrives */
    guint32 present;    /* sector mask */
    guint32 dirty;
} Way;

struct Cache {
    Way *ways;          /* n_sets x assoc */
    guint64 n_sets;
    int assoc;
    guint64 clock;      /* touches so far: the LRU order */
    guint64 bytes;
};

Cache *
cache_new (guint64 bytes, int line_bytes, int sector_bytes, int assoc)
{
    Cache *c = g_new0 (Cache, 1);
    g_assert (line_bytes > 0 && sector_bytes > 0 && assoc > 0);
    g_assert (line_bytes / sector_bytes <= 32);
    c->assoc = assoc;
    c->n_sets = bytes / ((guint64) line_bytes * (guint64) assoc);
    c->bytes = c->n_sets * (guint64) line_bytes * (guint64) assoc;
    c->ways = g_new0 (Way, MAX (c->n_sets, 1) * (guint64) assoc);
    return c;
}

void
cache_free (Cache *c)
{
    if (c == NULL)
        return;
    g_free (c->ways);
    g_free (c);
}

static Way *
set_of (Cache *c, guint64 line)
{
    return &c->ways[(line % c->n_sets) * (guint64) c->assoc];
}

static Way *
find (Cache *c, guint64 line)
{
    Way *set = set_of (c, line);
    for (int w = 0; w < c->assoc; w++)
        if (set[w].present != 0 && set[w].tag == line)
            return &set[w];
    return NULL;
}

guint32
cache_lookup (Cache *c, guint64 line, guint32 want, guint64 *ready)
{
    *ready = 0;
    if (c->n_sets == 0)
        return 0;
    Way *way = find (c, line);
    if (way == NULL)
        return 0;
    way->used = ++c->clock;
    *ready = way->ready;
    return way->present & want;
}

static Way *
victim (Cache *c, guint64 line)
{
    Way *set = set_of (c, line);
    Way *v = &set[0];
    for (int w = 0; w < c->assoc; w++) {
        if (set[w].present == 0)
            return &set[w];
        if (set[w].used < v->used)
            v = &set[w];
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
    Way *way = find (c, line);
    if (way == NULL) {
        way = victim (c, line);
        if (way->present != 0 && way->dirty != 0) {
            *evicted_line = way->tag;
            *evicted_dirty = way->dirty;
        }
        way->tag = line;
        way->present = 0;
        way->dirty = 0;
        way->ready = 0;
    }
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
    Way *way = find (c, line);
    if (way != NULL)
        way->present = way->dirty = 0;
}

guint64
cache_bytes (const Cache *c)
{
    return c->bytes;
}
