/*
 * evq.c -- the event queue: a binary min-heap.  See evq.h.
 *
 * Heap entries are small and by value (no allocation per event); the
 * order key packs cycle and priority into one word so a comparison is
 * two integer compares.
 */
#include "config.h"

#include "sim/evq.h"

typedef struct {
    guint64 key;      /* cycle << 3 | priority */
    guint64 seq;      /* schedule order: ties broken first come, first run */
    EvqHandler fn;
    void *ctx;
    guint64 arg;
} Event;

G_STATIC_ASSERT (EVQ_N_PRI <= 8);
#define PRI_BITS 3

struct EvqQueue {
    Event *heap;
    gsize len;
    gsize cap;
    guint64 next_seq;
    Cycle now;
    guint64 processed;
    GHashTable *cancelled;   /* ids marked by evq_cancel; NULL until used */
};

EvqQueue *
evq_new (void)
{
    EvqQueue *q = g_new0 (EvqQueue, 1);
    q->cap = 64;
    q->heap = g_new (Event, q->cap);
    return q;
}

void
evq_free (EvqQueue *q)
{
    if (q == NULL)
        return;
    g_free (q->heap);
    g_clear_pointer (&q->cancelled, g_hash_table_unref);
    g_free (q);
}

static gboolean
before (const Event *a, const Event *b)
{
    return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static void
sift_up (Event *h, gsize i)
{
    Event e = h[i];
    while (i > 0) {
        gsize parent = (i - 1) / 2;
        if (!before (&e, &h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = e;
}

static void
sift_down (Event *h, gsize len, gsize i)
{
    Event e = h[i];
    for (;;) {
        gsize child = 2 * i + 1;
        if (child >= len)
            break;
        if (child + 1 < len && before (&h[child + 1], &h[child]))
            child++;
        if (!before (&h[child], &e))
            break;
        h[i] = h[child];
        i = child;
    }
    h[i] = e;
}

guint64
evq_schedule (EvqQueue *q, Cycle at, EvqPriority pri, EvqHandler fn,
              void *ctx, guint64 arg)
{
    g_assert (at >= q->now);
    g_assert (at < (G_MAXUINT64 >> PRI_BITS));
    if (q->len == q->cap) {
        q->cap *= 2;
        q->heap = g_renew (Event, q->heap, q->cap);
    }
    Event *e = &q->heap[q->len];
    e->key = at << PRI_BITS | (guint64) pri;
    e->seq = q->next_seq++;
    e->fn = fn;
    e->ctx = ctx;
    e->arg = arg;
    sift_up (q->heap, q->len++);
    return e->seq;
}

void
evq_cancel (EvqQueue *q, guint64 id)
{
    if (q->cancelled == NULL)
        q->cancelled = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                              g_free, NULL);
    guint64 *key = g_new (guint64, 1);
    *key = id;
    g_hash_table_add (q->cancelled, key);
}

static gboolean
was_cancelled (EvqQueue *q, guint64 seq)
{
    return q->cancelled != NULL && g_hash_table_remove (q->cancelled, &seq);
}

gboolean
evq_run_until (EvqQueue *q, Cycle limit)
{
    while (q->len > 0) {
        Event e = q->heap[0];
        Cycle at = e.key >> PRI_BITS;
        if (at >= limit)
            return TRUE;
        q->heap[0] = q->heap[--q->len];
        if (q->len > 0)
            sift_down (q->heap, q->len, 0);
        if (was_cancelled (q, e.seq))
            continue;
        q->now = at;
        q->processed++;
        e.fn (e.ctx, e.arg, at);
    }
    return FALSE;
}

void
evq_run (EvqQueue *q)
{
    evq_run_until (q, CYCLE_NEVER >> PRI_BITS);
}

Cycle
evq_now (const EvqQueue *q)
{
    return q->now;
}

guint64
evq_processed (const EvqQueue *q)
{
    return q->processed;
}

gsize
evq_pending (const EvqQueue *q)
{
    return q->len;
}
