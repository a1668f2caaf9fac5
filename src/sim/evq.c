/*
 * evq.c -- the event queue.  See evq.h.
 *
 * Most events fall in the next few hundred cycles (a scheduler's next
 * tick, a memory return), so they go to a timing wheel: one bucket per
 * cycle of a window of WHEEL cycles starting at 'now', each bucket a
 * FIFO list per priority.  Schedule and run are O(1) there; a bitmap
 * finds the next busy cycle.  Events further out wait in a binary heap
 * and move to the wheel, in (cycle, priority, sequence) order, as soon as
 * the window reaches them, which is before anything else can be put in
 * their bucket: so each bucket list stays in sequence order and the total
 * order is exactly (cycle, priority, sequence).
 */
#include "config.h"

#include <string.h>

#include "sim/evq.h"

#define WHEEL_BITS 10
#define WHEEL (1u << WHEEL_BITS)
#define WHEEL_MASK (WHEEL - 1)
#define NIL G_MAXUINT32

typedef struct {
    guint32 next;
    EvqPriority pri;
    Cycle at;
    guint64 seq;
    EvqHandler fn;
    void *ctx;
    guint64 arg;
} Node;

typedef struct {
    guint32 head;
    guint32 tail;
} List;

/* Overflow heap entry: the node is in the pool. */
typedef struct {
    guint64 key;   /* cycle << 3 | priority */
    guint64 seq;
    guint32 node;
} Far;

G_STATIC_ASSERT (EVQ_N_PRI <= 8);
#define PRI_BITS 3

struct EvqQueue {
    Node *pool;
    guint32 pool_len;
    guint32 pool_cap;
    guint32 free_list;
    List bucket[WHEEL][EVQ_N_PRI];
    guint64 busy[WHEEL / 64];   /* slot has an event of some priority */
    Far *far;
    gsize far_len;
    gsize far_cap;
    gsize pending;
    guint64 next_seq;
    Cycle now;
    guint64 processed;
    GHashTable *cancelled;      /* ids marked by evq_cancel */
    gboolean stopped;           /* evq_stop: leave the run loop */
};

EvqQueue *
evq_new (void)
{
    EvqQueue *q = g_new0 (EvqQueue, 1);
    for (guint s = 0; s < WHEEL; s++)
        for (int p = 0; p < EVQ_N_PRI; p++)
            q->bucket[s][p].head = q->bucket[s][p].tail = NIL;
    q->free_list = NIL;
    return q;
}

void
evq_free (EvqQueue *q)
{
    if (q == NULL)
        return;
    g_free (q->pool);
    g_free (q->far);
    g_clear_pointer (&q->cancelled, g_hash_table_unref);
    g_free (q);
}

static guint32
node_new (EvqQueue *q)
{
    if (q->free_list != NIL) {
        guint32 n = q->free_list;
        q->free_list = q->pool[n].next;
        return n;
    }
    if (q->pool_len == q->pool_cap) {
        q->pool_cap = q->pool_cap ? 2 * q->pool_cap : 256;
        q->pool = g_renew (Node, q->pool, q->pool_cap);
    }
    return q->pool_len++;
}

/* ------------------------------------------------------------------ */
/* The wheel                                                           */

static void
wheel_append (EvqQueue *q, guint32 n)
{
    Node *node = &q->pool[n];
    guint slot = (guint) (node->at & WHEEL_MASK);
    List *l = &q->bucket[slot][node->pri];
    node->next = NIL;
    if (l->tail == NIL)
        l->head = n;
    else
        q->pool[l->tail].next = n;
    l->tail = n;
    q->busy[slot / 64] |= G_GUINT64_CONSTANT (1) << (slot % 64);
}

/* The first busy slot at or after 'from' (wrapping), or NIL. */
static guint32
next_busy (const EvqQueue *q, guint from)
{
    for (guint i = 0; i <= WHEEL / 64; i++) {
        guint word = (from / 64 + i) % (WHEEL / 64);
        guint64 bits = q->busy[word];
        if (i == 0)
            bits &= ~G_GUINT64_CONSTANT (0) << (from % 64);
        else if (i == WHEEL / 64)
            bits &= ~(~G_GUINT64_CONSTANT (0) << (from % 64));
        if (bits != 0)
            return word * 64 + (guint) __builtin_ctzll (bits);
    }
    return NIL;
}

/* ------------------------------------------------------------------ */
/* The overflow heap                                                   */

static gboolean
before (const Far *a, const Far *b)
{
    return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

static void
far_push (EvqQueue *q, guint32 n)
{
    if (q->far_len == q->far_cap) {
        q->far_cap = q->far_cap ? 2 * q->far_cap : 64;
        q->far = g_renew (Far, q->far, q->far_cap);
    }
    Far e = { q->pool[n].at << PRI_BITS | (guint64) q->pool[n].pri,
              q->pool[n].seq, n };
    gsize i = q->far_len++;
    while (i > 0 && before (&e, &q->far[(i - 1) / 2])) {
        q->far[i] = q->far[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->far[i] = e;
}

static guint32
far_pop (EvqQueue *q)
{
    guint32 top = q->far[0].node;
    Far e = q->far[--q->far_len];
    gsize i = 0;
    for (;;) {
        gsize c = 2 * i + 1;
        if (c >= q->far_len)
            break;
        if (c + 1 < q->far_len && before (&q->far[c + 1], &q->far[c]))
            c++;
        if (!before (&q->far[c], &e))
            break;
        q->far[i] = q->far[c];
        i = c;
    }
    if (q->far_len > 0)
        q->far[i] = e;
    return top;
}

/* Move every far event the window now covers into the wheel. */
static void
migrate (EvqQueue *q)
{
    while (q->far_len > 0 && (q->far[0].key >> PRI_BITS) < q->now + WHEEL)
        wheel_append (q, far_pop (q));
}

/* ------------------------------------------------------------------ */
/* API                                                                 */

guint64
evq_schedule (EvqQueue *q, Cycle at, EvqPriority pri, EvqHandler fn,
              void *ctx, guint64 arg)
{
    g_assert (at >= q->now);
    g_assert (at < (G_MAXUINT64 >> PRI_BITS));
    guint32 n = node_new (q);
    Node *node = &q->pool[n];
    node->pri = pri;
    node->at = at;
    node->seq = q->next_seq++;
    node->fn = fn;
    node->ctx = ctx;
    node->arg = arg;
    if (at < q->now + WHEEL)
        wheel_append (q, n);
    else
        far_push (q, n);
    q->pending++;
    return node->seq;
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

/* The cycle of the next event, or CYCLE_NEVER; moves the window to an
 * empty wheel's first far event. */
static Cycle
next_cycle (EvqQueue *q)
{
    guint32 slot = next_busy (q, (guint) (q->now & WHEEL_MASK));
    if (slot != NIL)
        return q->now + ((slot - (guint) (q->now & WHEEL_MASK)) & WHEEL_MASK);
    if (q->far_len == 0)
        return CYCLE_NEVER;
    return q->far[0].key >> PRI_BITS;
}

/* Take the first event of 'slot' (which is busy). */
static guint32
take (EvqQueue *q, guint slot)
{
    for (int p = 0; p < EVQ_N_PRI; p++) {
        List *l = &q->bucket[slot][p];
        if (l->head == NIL)
            continue;
        guint32 n = l->head;
        l->head = q->pool[n].next;
        if (l->head == NIL)
            l->tail = NIL;
        return n;
    }
    g_assert_not_reached ();
}

static void
update_busy (EvqQueue *q, guint slot)
{
    for (int p = 0; p < EVQ_N_PRI; p++)
        if (q->bucket[slot][p].head != NIL)
            return;
    q->busy[slot / 64] &= ~(G_GUINT64_CONSTANT (1) << (slot % 64));
}

static gboolean
was_cancelled (EvqQueue *q, guint64 seq)
{
    return q->cancelled != NULL && g_hash_table_remove (q->cancelled, &seq);
}

gboolean
evq_run_until (EvqQueue *q, Cycle limit)
{
    q->stopped = FALSE;
    for (;;) {
        if (q->stopped)
            return q->pending > 0;
        Cycle at = next_cycle (q);
        if (at == CYCLE_NEVER)
            return FALSE;
        if (at >= limit)
            return TRUE;
        if (at != q->now) {
            q->now = at;
            migrate (q);
        }
        guint slot = (guint) (at & WHEEL_MASK);
        guint32 n = take (q, slot);
        Node node = q->pool[n];
        update_busy (q, slot);
        q->pool[n].next = q->free_list;
        q->free_list = n;
        q->pending--;
        if (was_cancelled (q, node.seq))
            continue;
        q->processed++;
        node.fn (node.ctx, node.arg, at);
    }
}

void
evq_stop (EvqQueue *q)
{
    q->stopped = TRUE;
}

void
evq_run (EvqQueue *q)
{
    evq_run_until (q, CYCLE_NEVER);
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
    return q->pending;
}
