/*
 * lsu.c -- a memory instruction queue of the SM.  See lsu.h.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "sim/lsu.h"

typedef struct {
    Instr instr;
    guint64 cookie;
    MemDone done;
    void *ctx;
} Entry;

struct LsuQueue {
    Entry *ring;
    int depth;
    int head;
    int count;
    Cycle mem_ready;          /* the memory system takes the next then */
    gboolean drain_pending;   /* a drain event is scheduled */
    EvqQueue *q;
    MemSys *mem;
    int sm;
    LsuRoom room;
    void *room_ctx;
    LsuHandedOver handed_over;
    void *handed_over_ctx;
};

LsuQueue *
lsu_new (int depth, EvqQueue *q, MemSys *mem, int sm, LsuRoom room,
         void *room_ctx)
{
    LsuQueue *l = g_new0 (LsuQueue, 1);
    g_assert (depth >= 1);
    l->ring = g_new (Entry, depth);
    l->depth = depth;
    l->q = q;
    l->mem = mem;
    l->sm = sm;
    l->room = room;
    l->room_ctx = room_ctx;
    return l;
}

void
lsu_free (LsuQueue *l)
{
    if (l == NULL)
        return;
    g_free (l->ring);
    g_free (l);
}

gboolean
lsu_has_room (const LsuQueue *l)
{
    return l->count < l->depth;
}

void
lsu_set_hand_over_hook (LsuQueue *l, LsuHandedOver hook, void *ctx)
{
    l->handed_over = hook;
    l->handed_over_ctx = ctx;
}

static void
hand_over (LsuQueue *l, const Instr *instr, guint64 cookie, MemDone done,
           void *ctx, Cycle now)
{
    /* The hook is the mirrors' (sm.c): they replay this request. */
    MemRequest req = { instr, l->sm, cookie, done, ctx,
                       l->handed_over != NULL ? MEM_LEADS : MEM_ALONE };
    l->mem_ready = mem_access (l->mem, &req, now);
    g_assert (l->mem_ready > now);
    if (l->handed_over != NULL)
        l->handed_over (l->handed_over_ctx, cookie, now);
}

static void drain (void *ctx, guint64 arg, Cycle now);

static void
schedule_drain (LsuQueue *l)
{
    if (l->count == 0 || l->drain_pending)
        return;
    l->drain_pending = TRUE;
    evq_schedule (l->q, l->mem_ready, EVQ_PRI_WAKE, drain, l, 0);
}

/* The memory system can take the head now. */
static void
drain (void *ctx, guint64 arg, Cycle now)
{
    LsuQueue *l = ctx;
    (void) arg;
    l->drain_pending = FALSE;
    Entry *e = &l->ring[l->head];
    gboolean was_full = l->count == l->depth;
    hand_over (l, &e->instr, e->cookie, e->done, e->ctx, now);
    l->head = (l->head + 1) % l->depth;
    l->count--;
    schedule_drain (l);
    if (was_full)
        l->room (l->room_ctx, now);
}

void
lsu_push (LsuQueue *l, const Instr *instr, guint64 cookie, MemDone done,
          void *ctx, Cycle now)
{
    g_assert (l->count < l->depth);
    if (l->count == 0 && l->mem_ready <= now) {
        hand_over (l, instr, cookie, done, ctx, now);
        return;
    }
    Entry *e = &l->ring[(l->head + l->count) % l->depth];
    /* Sizes the compiler knows: a variable one became a `rep movs`,
     * slow to start, for the 32 bytes of a stride-form instruction. */
    if (instr->addr_mode == INSTR_ADDR_EXPLICIT)
        memcpy (&e->instr, instr, sizeof *instr);
    else
        memcpy (&e->instr, instr, offsetof (Instr, addr));
    e->cookie = cookie;
    e->done = done;
    e->ctx = ctx;
    l->count++;
    schedule_drain (l);
}
