/*
 * instr.h -- one warp instruction, and the lazy stream that yields them.
 *
 * A warp instruction is what one warp issues in one slot: an operation
 * (which names its pipe and its latency class, instr.c's table), its
 * registers, its active mask, optional compiler control fields, and for
 * memory operations the per-lane addresses.  Addresses come in a compact
 * form (lane i reads base + i * stride, 'width' bytes) or explicitly, 32
 * of them.
 *
 * Control fields (Volta and later; the SASS in ../shared/data/sass
 * carries them in each instruction's encoding): on these GPUs the
 * compiler, not a hardware scoreboard, spaces fixed-latency dependences
 * (the stall count) and names a dependence counter (SB0..SB5) that a
 * variable-latency instruction raises and its completion lowers; a later
 * instruction waits for the counters in its wait mask.  A stream that
 * sets 'ctrl' is timed that way; one that does not is timed by a
 * register scoreboard (fixed latencies from the preset).
 *
 * Streams are pulled one instruction at a time (DESIGN.md principle 6):
 * memory stays bounded by the resident warps, never by the trace length.
 * instr_stream_next returns the next instruction, borrowed from the
 * stream and valid until the following call or the stream's end, or
 * NULL after the last one (which is an EXIT).  No copy: the SM copies
 * only what must outlive that (a memory instruction waiting in a queue).
 */
#ifndef SMSIM_SIM_INSTR_H
#define SMSIM_SIM_INSTR_H

#include "sim/sim.h"

typedef enum {
    INSTR_FFMA,     /* FP32 pipe: fused multiply-add */
    INSTR_FADD,
    INSTR_FMUL,
    INSTR_IMAD,     /* integer multiply-add: the FMA pipe's heavy half */
    INSTR_IADD3,    /* integer ALU */
    INSTR_LOP3,
    INSTR_ISETP,
    INSTR_SHF,
    INSTR_LEA,
    INSTR_MOV,
    INSTR_MUFU,     /* special function unit (XU) */
    INSTR_BRA,      /* branch */
    INSTR_LDG,      /* global load (L1TEX: long scoreboard) */
    INSTR_STG,      /* global store */
    INSTR_LDS,      /* shared load (MIO: short scoreboard) */
    INSTR_STS,      /* shared store */
    INSTR_LDGSTS,   /* global to shared async copy (Ampere+) */
    INSTR_BAR,      /* __syncthreads (BAR.SYNC) */
    INSTR_EXIT,
    INSTR_N_OPS
} InstrOp;

/* Where an operation issues (Nsight Compute's pipe names in instr.c). */
typedef enum {
    PIPE_FMA,       /* FP32: either half of the FMA pipe */
    PIPE_FMAHEAVY,  /* IMAD: the heavy half only */
    PIPE_ALU,       /* integer and logic */
    PIPE_XU,        /* transcendental (MUFU) */
    PIPE_CBU,       /* branches */
    PIPE_LG,        /* local/global queue into L1TEX */
    PIPE_MIO,       /* shared-memory queue */
    PIPE_NONE,      /* BAR, EXIT: no pipe */
    PIPE_N
} InstrPipe;

/* How its result's latency is known. */
typedef enum {
    LAT_NONE,       /* writes no register */
    LAT_FMA,        /* fixed: the preset's FMA latency */
    LAT_ALU,        /* fixed: the preset's ALU latency */
    LAT_XU,         /* variable, short scoreboard: MUFU */
    LAT_GLOBAL,     /* variable, long scoreboard: memory system */
    LAT_SHARED      /* variable, short scoreboard: shared memory */
} InstrLatency;

typedef struct {
    const char *name;     /* SASS mnemonic */
    InstrPipe pipe;
    InstrLatency latency;
    guint8 flops;         /* FP32 operations per active lane */
} InstrInfo;

const InstrInfo *instr_info (InstrOp op);
/* Op named 'name' (case-sensitive SASS mnemonic), or -1. */
int instr_op_from_name (const char *name);

#define INSTR_NO_REG 255     /* RZ: no register */
#define INSTR_NO_SB 7        /* no dependence counter */
#define INSTR_N_SB 6

enum { INSTR_ADDR_NONE, INSTR_ADDR_STRIDE, INSTR_ADDR_EXPLICIT };

typedef struct {
    guint8 op;            /* InstrOp */
    guint8 dst;           /* first destination register, or INSTR_NO_REG */
    guint8 n_dst;         /* consecutive destination registers (1..4) */
    guint8 src[3];        /* source registers (address included) */
    guint8 width;         /* bytes per lane for memory operations */
    guint8 addr_mode;     /* INSTR_ADDR_* */
    guint32 active;       /* active-lane mask */

    /* Compiler control fields, used when 'ctrl' is set. */
    guint8 ctrl;
    guint8 stall;         /* cycles before this warp's next issue, 0..15 */
    guint8 yield;         /* let another warp issue next */
    guint8 wr_sb;         /* counter raised until the result is back */
    guint8 wait_mask;     /* counters that must be zero to issue */
    /* Reuse bits (encoded with or without 'ctrl'): bit k keeps src[k]
     * in the register-file cache for a later instruction (regfile.h). */
    guint8 reuse;
    /* Of the main loop's body: the memory counts the loop's requests
     * apart (memhier.h), so that a sampled run rates its iterations
     * without the prologue's and epilogue's. */
    guint8 loop;
    /* Where the instruction sits in its program, in bytes (16 a SASS
     * instruction), for the instruction caches (icache.h); a stream that
     * knows no addresses (a trace's) leaves 'has_pc' 0 and is fetched in
     * time. */
    guint8 has_pc;
    guint32 pc;

    guint64 addr_base;    /* INSTR_ADDR_STRIDE: lane i at base + i*stride */
    gint64 addr_stride;
    guint64 addr[32];     /* INSTR_ADDR_EXPLICIT: one per lane */
} Instr;

/* An instruction with no registers and every lane active. */
void instr_init (Instr *instr, InstrOp op);

/* Address of lane 'lane' (meaningful for active lanes only). */
guint64 instr_lane_addr (const Instr *instr, int lane);

/* The active mask of a warp whose first 'n' lanes hold threads (a
 * block's partial last warp): all 32 from 32 on, none at 0 or below. */
static inline guint32
instr_first_lanes (gint64 n)
{
    return n >= 32 ? 0xffffffffu : n <= 0 ? 0 : (1u << n) - 1;
}

/* The lazy stream of one warp's instructions. */
typedef struct InstrStream InstrStream;
typedef struct {
    const Instr *(*next) (InstrStream *s);
    void (*free) (InstrStream *s);
} InstrStreamOps;

struct InstrStream {
    const InstrStreamOps *ops;
};

static inline const Instr *
instr_stream_next (InstrStream *s)
{
    return s->ops->next (s);
}

void instr_stream_free (InstrStream *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (InstrStream, instr_stream_free)

/* The local/global-queue (PIPE_LG) instructions of 'inner' (owned),
 * without its EXIT: what a mirror SM plays (gpu.h). */
InstrStream *instr_lg_stream_new (InstrStream *inner);

/* A stream that plays 'prog' (n instructions, copied) 'repeat' times,
 * then an EXIT: for tests, benchmarks and microbenchmarks. */
InstrStream *instr_array_stream_new (const Instr *prog, gsize n,
                                     guint64 repeat);

#endif
