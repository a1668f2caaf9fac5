/*
 * pipe.c -- execution pipes of one sub-partition.  See pipe.h.
 */
#include "config.h"

#include "sim/pipe.h"

static guint8
interval_of (int warp_size, int lanes)
{
    if (lanes <= 0)
        return 0;
    return (guint8) MAX (1, (warp_size + lanes - 1) / lanes);
}

void
pipe_init (PipeSet *p, const GpuSpec *spec)
{
    const int w = spec->device.warp_size;
    const SpecPipe *sp = &spec->pipe;
    *p = (PipeSet) { 0 };
    p->heavy.interval = interval_of (w, sp->fma_heavy_lanes);
    p->lite.interval = interval_of (w, sp->fma_lanes - sp->fma_heavy_lanes);
    p->alu.interval = interval_of (w, sp->alu_lanes);
    p->xu.interval = interval_of (w, sp->sfu_lanes);
    p->cbu.interval = 1;
    p->alu_on_lite = sp->alu_on_fmalite && p->lite.interval > 0;
}

static Cycle
at_least (Cycle a, Cycle now)
{
    return a > now ? a : now;
}

/* The unit an instruction for 'pipe' would take at the earliest. */
static PipeUnit *
unit_for (PipeSet *p, InstrPipe pipe)
{
    switch (pipe) {
    case PIPE_FMA:
        if (p->lite.interval > 0 && p->lite.free_at < p->heavy.free_at)
            return &p->lite;
        return &p->heavy;
    case PIPE_FMAHEAVY:
        return &p->heavy;
    case PIPE_ALU:
        return p->alu_on_lite ? &p->lite : &p->alu;
    case PIPE_XU:
        return &p->xu;
    case PIPE_CBU:
        return &p->cbu;
    default:
        return NULL;
    }
}

Cycle
pipe_ready_at (const PipeSet *p, InstrPipe pipe, Cycle now)
{
    PipeUnit *u = unit_for ((PipeSet *) p, pipe);
    return u ? at_least (u->free_at, now) : now;
}

void
pipe_reserve (PipeSet *p, InstrPipe pipe, Cycle now)
{
    PipeUnit *u = unit_for (p, pipe);
    if (u == NULL)
        return;
    g_assert (u->free_at <= now);
    u->free_at = now + u->interval;
}
