/*
 * memfixed.c -- the fixed-latency memory stand-in.  See memfixed.h.
 */
#include "config.h"

#include "sim/memfixed.h"

typedef struct {
    MemSys base;
    EvqQueue *q;
    Cycle global_cycles;
    Cycle shared_cycles;
} MemFixed;

static Cycle
fixed_access (MemSys *m, const MemRequest *req, Cycle now)
{
    MemFixed *f = (MemFixed *) m;
    InstrPipe pipe = instr_info (req->instr->op)->pipe;
    Cycle latency = pipe == PIPE_MIO ? f->shared_cycles : f->global_cycles;
    if (req->done != NULL)
        evq_schedule (f->q, now + latency, EVQ_PRI_MEM_RETURN,
                      (EvqHandler) req->done, req->ctx, req->cookie);
    return now + 1;
}

static void
fixed_free (MemSys *m)
{
    g_free (m);
}

static const MemSysOps fixed_ops = { fixed_access, fixed_free };

MemSys *
memfixed_new (EvqQueue *q, Cycle global_cycles, Cycle shared_cycles)
{
    MemFixed *f = g_new0 (MemFixed, 1);
    g_assert (global_cycles >= 1 && shared_cycles >= 1);
    f->base.ops = &fixed_ops;
    f->q = q;
    f->global_cycles = global_cycles;
    f->shared_cycles = shared_cycles;
    return &f->base;
}
