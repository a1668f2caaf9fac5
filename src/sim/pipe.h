/*
 * pipe.h -- a sub-partition's execution pipes: when each can take the
 * next warp instruction.
 *
 * A pipe of L lanes takes a 32-thread warp instruction every 32 / L
 * cycles (its initiation interval); while it is busy, a warp whose next
 * instruction needs it is held (math_pipe_throttle).  The FP32 pipe may
 * be two halves (GA102: "fmaheavy", which also runs IMAD, and "fmalite");
 * FFMA takes whichever is free first.  On GA102 the integer ALU shares
 * the lite half's datapath (the second datapath is "FP32 or INT32").
 * Widths come from the preset.  Latency is not the pipe's business: the
 * scoreboard applies it.
 */
#ifndef SMSIM_SIM_PIPE_H
#define SMSIM_SIM_PIPE_H

#include "sim/instr.h"
#include "sim/spec.h"

typedef struct {
    Cycle free_at;
    guint8 interval;
} PipeUnit;

typedef struct {
    PipeUnit heavy;        /* FP32 + IMAD */
    PipeUnit lite;         /* FP32 only; interval 0 when absent */
    PipeUnit alu;          /* unused when the ALU shares 'lite' */
    PipeUnit xu;
    PipeUnit cbu;
    gboolean alu_on_lite;
    /* By InstrPipe: the first cycle its unit is free (0 for those not
     * this module's), kept by pipe_reserve.  The scheduler asks for
     * every warp it looks at: one load, not pipe_unit's switch. */
    Cycle free_at[PIPE_N];
} PipeSet;

void pipe_init (PipeSet *p, const GpuSpec *spec);

/* The unit an instruction for 'pipe' would take at the earliest; NULL
 * for PIPE_LG, PIPE_MIO and PIPE_NONE, which are not this module's. */
static inline PipeUnit *
pipe_unit (PipeSet *p, InstrPipe pipe)
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

/* First cycle >= 'now' at which an instruction for 'pipe' can start
 * ('now' for the pipes that are not this module's).  Inline: the
 * scheduler asks for every warp it looks at. */
static inline Cycle
pipe_ready_at (const PipeSet *p, InstrPipe pipe, Cycle now)
{
    return MAX (p->free_at[pipe], now);
}

/* Occupy the pipe from 'now' for one instruction (it must be ready). */
void pipe_reserve (PipeSet *p, InstrPipe pipe, Cycle now);

#endif
