/*
 * mem.h -- the memory system as the SM sees it.
 *
 * The SM hands over one warp memory instruction at a time from its
 * queues (lsu.h).  The memory system answers with the cycle it can take
 * the next one from the same queue (its throughput: a request touching
 * 32 lines holds an L1 tag stage far longer than one touching 1), and
 * later calls 'done' at the cycle the data is back (loads) or the write
 * has left (stores), through the event queue.  The memory-hierarchy
 * issue provides the real one; memfixed.h is a fixed-latency stand-in.
 */
#ifndef SMSIM_SIM_MEM_H
#define SMSIM_SIM_MEM_H

#include "sim/instr.h"

typedef void (*MemDone) (void *ctx, guint64 cookie, Cycle at);

/* Mirrors (gpu.h): a request its mirrors' requests replay, right after
 * it, leads; theirs follow it.  Recording what a request did costs the
 * line loop, so a request with no mirrors does neither. */
typedef enum {
    MEM_ALONE,
    MEM_LEADS,
    MEM_FOLLOWS
} MemRole;

typedef struct {
    const Instr *instr;     /* op, width, mask, lane addresses (borrowed) */
    int sm;                 /* requesting SM */
    guint64 cookie;         /* handed back to 'done' */
    MemDone done;           /* NULL: nobody waits (a mirror SM's request,
                             * gpu.h), so no completion is scheduled */
    void *ctx;
    MemRole role;
} MemRequest;

typedef struct MemSys MemSys;
typedef struct {
    /* Take 'req' at 'now'; return the cycle (> now) from which this
     * SM's queue for that space may hand over its next request. */
    Cycle (*access) (MemSys *m, const MemRequest *req, Cycle now);
    void (*free) (MemSys *m);
} MemSysOps;

struct MemSys {
    const MemSysOps *ops;
};

static inline Cycle
mem_access (MemSys *m, const MemRequest *req, Cycle now)
{
    return m->ops->access (m, req, now);
}

static inline void
mem_free (MemSys *m)
{
    if (m != NULL)
        m->ops->free (m);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MemSys, mem_free)

#endif
