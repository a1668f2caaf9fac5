/*
 * instr.c -- the operation table and the array stream.  See instr.h.
 *
 * Pipes follow Nsight Compute's taxonomy (Kernel Profiling Guide,
 * "Pipelines"): FP32 arithmetic on fma (fmaheavy + fmalite on GA10x),
 * IMAD on fmaheavy, integer and logic on alu, MUFU on xu, branches on
 * cbu, global memory through the LSU's local/global queue, shared memory
 * through MIO.  Latency classes follow microarch.md section 1: fixed
 * latencies are spaced by the compiler, memory and MUFU results come back
 * through dependence counters (long scoreboard for L1TEX, short for MIO).
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "sim/instr.h"

static const InstrInfo table[INSTR_N_OPS] = {
    [INSTR_FFMA] = { "FFMA", PIPE_FMA, LAT_FMA, 2 },
    [INSTR_FADD] = { "FADD", PIPE_FMA, LAT_FMA, 1 },
    [INSTR_FMUL] = { "FMUL", PIPE_FMA, LAT_FMA, 1 },
    [INSTR_IMAD] = { "IMAD", PIPE_FMAHEAVY, LAT_FMA, 0 },
    [INSTR_IADD3] = { "IADD3", PIPE_ALU, LAT_ALU, 0 },
    [INSTR_LOP3] = { "LOP3", PIPE_ALU, LAT_ALU, 0 },
    [INSTR_ISETP] = { "ISETP", PIPE_ALU, LAT_ALU, 0 },
    [INSTR_SHF] = { "SHF", PIPE_ALU, LAT_ALU, 0 },
    [INSTR_LEA] = { "LEA", PIPE_ALU, LAT_ALU, 0 },
    [INSTR_MOV] = { "MOV", PIPE_ALU, LAT_ALU, 0 },
    [INSTR_MUFU] = { "MUFU", PIPE_XU, LAT_XU, 0 },
    [INSTR_BRA] = { "BRA", PIPE_CBU, LAT_NONE, 0 },
    [INSTR_LDG] = { "LDG", PIPE_LG, LAT_GLOBAL, 0 },
    [INSTR_STG] = { "STG", PIPE_LG, LAT_NONE, 0 },
    [INSTR_LDS] = { "LDS", PIPE_MIO, LAT_SHARED, 0 },
    [INSTR_STS] = { "STS", PIPE_MIO, LAT_NONE, 0 },
    [INSTR_LDGSTS] = { "LDGSTS", PIPE_LG, LAT_NONE, 0 },
    [INSTR_BAR] = { "BAR", PIPE_NONE, LAT_NONE, 0 },
    [INSTR_EXIT] = { "EXIT", PIPE_NONE, LAT_NONE, 0 },
};

const InstrInfo *
instr_info (InstrOp op)
{
    g_assert ((unsigned) op < INSTR_N_OPS);
    return &table[op];
}

int
instr_op_from_name (const char *name)
{
    for (int op = 0; op < INSTR_N_OPS; op++)
        if (strcmp (table[op].name, name) == 0)
            return op;
    return -1;
}

void
instr_init (Instr *instr, InstrOp op)
{
    memset (instr, 0, offsetof (Instr, addr));
    instr->op = (guint8) op;
    instr->dst = INSTR_NO_REG;
    instr->n_dst = 1;
    instr->src[0] = instr->src[1] = instr->src[2] = INSTR_NO_REG;
    instr->active = 0xffffffffu;
    instr->wr_sb = INSTR_NO_SB;
    instr->addr_mode = INSTR_ADDR_NONE;
}

guint64
instr_lane_addr (const Instr *instr, int lane)
{
    if (instr->addr_mode == INSTR_ADDR_EXPLICIT)
        return instr->addr[lane];
    return instr->addr_base + (guint64) lane * (guint64) instr->addr_stride;
}

void
instr_stream_free (InstrStream *s)
{
    if (s != NULL)
        s->ops->free (s);
}

/* ------------------------------------------------------------------ */
/* The array stream                                                    */

typedef struct {
    InstrStream base;
    Instr *prog;
    gsize n;
    gsize pc;
    guint64 repeat;
    guint64 round;
    gboolean done;
    Instr exit;
} ArrayStream;

static const Instr *
array_next (InstrStream *s)
{
    ArrayStream *a = (ArrayStream *) s;
    if (a->pc == a->n) {
        a->pc = 0;
        a->round++;
    }
    if (a->round < a->repeat && a->n > 0)
        return &a->prog[a->pc++];
    if (a->done)
        return NULL;
    a->done = TRUE;
    return &a->exit;
}

static void
array_free (InstrStream *s)
{
    ArrayStream *a = (ArrayStream *) s;
    g_free (a->prog);
    g_free (a);
}

static const InstrStreamOps array_ops = { array_next, array_free };

InstrStream *
instr_array_stream_new (const Instr *prog, gsize n, guint64 repeat)
{
    ArrayStream *a = g_new0 (ArrayStream, 1);
    a->base.ops = &array_ops;
    a->prog = g_memdup2 (prog, n * sizeof *prog);
    a->n = n;
    a->repeat = repeat;
    instr_init (&a->exit, INSTR_EXIT);
    return &a->base;
}

/* ------------------------------------------------------------------ */
/* The local/global filter                                             */

typedef struct {
    InstrStream base;
    InstrStream *inner;
} LgStream;

static const Instr *
lg_next (InstrStream *s)
{
    LgStream *f = (LgStream *) s;
    const Instr *in;
    while ((in = instr_stream_next (f->inner)) != NULL)
        if (instr_info (in->op)->pipe == PIPE_LG)
            return in;
    return NULL;
}

static void
lg_free (InstrStream *s)
{
    LgStream *f = (LgStream *) s;
    instr_stream_free (f->inner);
    g_free (f);
}

static const InstrStreamOps lg_ops = { lg_next, lg_free };

InstrStream *
instr_lg_stream_new (InstrStream *inner)
{
    LgStream *f = g_new0 (LgStream, 1);
    f->base.ops = &lg_ops;
    f->inner = inner;
    return &f->base;
}
