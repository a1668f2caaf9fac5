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

void
pipe_reserve (PipeSet *p, InstrPipe pipe, Cycle now)
{
    PipeUnit *u = pipe_unit (p, pipe);
    if (u == NULL)
        return;
    g_assert (u->free_at <= now);
    u->free_at = now + u->interval;
    /* Each pipe's unit as pipe_unit picks it: FFMA the half free first. */
    p->free_at[PIPE_FMA] = p->lite.interval > 0
                               ? MIN (p->lite.free_at, p->heavy.free_at)
                               : p->heavy.free_at;
    p->free_at[PIPE_FMAHEAVY] = p->heavy.free_at;
    p->free_at[PIPE_ALU] = p->alu_on_lite ? p->lite.free_at : p->alu.free_at;
    p->free_at[PIPE_XU] = p->xu.free_at;
    p->free_at[PIPE_CBU] = p->cbu.free_at;
}
