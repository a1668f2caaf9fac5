/*
 * evq.h -- THE event queue: the only clock in the program.
 *
 * Events are ordered by (cycle, priority, sequence number): a total,
 * deterministic order (Akita's eventqueue.go, with gem5's named
 * priorities between the two keys).  Components schedule work only
 * when they have some: a warp waiting 500 cycles on memory is one
 * event, not 500 loop turns (DESIGN.md principle 3).
 *
 * A handler may schedule further events, at its own cycle or later;
 * never earlier (asserted).  Cancelling only marks: the event stays in
 * the heap and is skipped when it comes up (Redis's AE_DELETED_EVENT_ID).
 *
 * Cost: O(1) per schedule and per event run for events within 1024
 * cycles of now (a timing wheel: nearly all of them), O(log n) for the
 * rest (a binary heap they wait in until the wheel reaches them).
 */
#ifndef SMSIM_SIM_EVQ_H
#define SMSIM_SIM_EVQ_H

#include "sim/sim.h"

/* Same-cycle order, first to last, and why. */
typedef enum {
    /* Data that arrives at cycle t is usable by an instruction issued
     * at t: returns run before the schedulers look. */
    EVQ_PRI_MEM_RETURN,
    /* Barrier releases and freed queue slots, likewise before issue. */
    EVQ_PRI_WAKE,
    /* Warp schedulers pick and issue. */
    EVQ_PRI_ISSUE,
    /* New blocks start after the retiring ones freed their resources. */
    EVQ_PRI_DISPATCH,
    /* Observers sample last, when the cycle's state is final. */
    EVQ_PRI_STATS,
    EVQ_N_PRI
} EvqPriority;

typedef void (*EvqHandler) (void *ctx, guint64 arg, Cycle now);

typedef struct EvqQueue EvqQueue;

EvqQueue *evq_new (void);
void evq_free (EvqQueue *q);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EvqQueue, evq_free)

/* Run 'fn (ctx, arg, at)' at cycle 'at'; returns an id for evq_cancel. */
guint64 evq_schedule (EvqQueue *q, Cycle at, EvqPriority pri, EvqHandler fn,
                      void *ctx, guint64 arg);
void evq_cancel (EvqQueue *q, guint64 id);

/* Run events until none is left or the next is at 'limit' or later
 * (a deterministic boundary: RunUntil in Akita).  Returns TRUE if events
 * remain. */
gboolean evq_run_until (EvqQueue *q, Cycle limit);
void evq_run (EvqQueue *q);
/* From an event's handler: return from evq_run(_until) once it is done
 * (Redis's aeStop), the events left pending. */
void evq_stop (EvqQueue *q);

Cycle evq_now (const EvqQueue *q);
guint64 evq_processed (const EvqQueue *q);   /* events run so far */
gsize evq_pending (const EvqQueue *q);

#endif
