/*
 * kgen.h -- a warp's instruction stream played from its kernel's
 * program.
 *
 * A program is three segments of operations: the prologue, the body of
 * the main loop (played as many times as the stream is told) and the
 * epilogue, which ends in EXIT.  Registers and widths are fixed in each operation; lane
 * addresses of memory operations come from the kernel's address
 * function, given the block, the warp, the iteration and the operation's
 * own argument.  The stream holds one instruction at a time.
 *
 * An operation may be guarded: a warp plays it only where the kernel's
 * guard function says so, given the warp and the iteration.  That is
 * code a warp branches around (kernel 11's two halves of the block load
 * in turn, and neither loads in the last iteration); the branch itself
 * is an operation of its own.  A stream cut to fewer iterations (a
 * sampling window) plays the loop's first iterations as the whole loop
 * would, as a trace of the whole launch replays them.
 */
#ifndef SMSIM_MODELS_KGEN_H
#define SMSIM_MODELS_KGEN_H

#include "models/kern.h"

enum { KGEN_PROLOGUE, KGEN_BODY, KGEN_EPILOGUE, KGEN_N_SEGMENTS };

typedef struct {
    guint8 op;          /* InstrOp */
    guint8 dst;         /* INSTR_NO_REG for none */
    guint8 n_dst;
    guint8 src[3];
    guint8 width;       /* bytes per lane, memory operations */
    guint8 addr;        /* the kernel's address function selector; 0: none */
    guint8 guard;       /* the kernel's guard function selector; 0: always */
    guint8 reuse;       /* Instr.reuse: bit k keeps src[k] (regfile.h) */
    gint32 arg;         /* its argument */
} KOp;

typedef struct KProgram KProgram;
typedef void (*KAddrFn) (const KProgram *p, guint64 block, int warp,
                         guint64 iter, const KOp *op, Instr *out);
/* The address thread 'tid' of 'block' gives 'op' in iteration 'iter',
 * for a program of kgen_program_new_lanes. */
typedef guint64 (*KLaneAddrFn) (const KProgram *p, guint64 block, int tid,
                                guint64 iter, const KOp *op);
/* Does 'warp' play the guarded 'op' in main-loop iteration 'iter'? */
typedef gboolean (*KGuardFn) (const KProgram *p, int warp, guint64 iter,
                              const KOp *op);

struct KProgram {
    GArray *seg[KGEN_N_SEGMENTS];   /* of KOp */
    /* Of guint: where in seg[] the local/global-queue operations are,
     * all a mirror's stream plays (kgen_stream_lg_only). */
    GArray *lg[KGEN_N_SEGMENTS];
    KAddrFn address;
    KGuardFn guard;                 /* NULL when nothing is guarded */
    /* A program of kgen_program_new_lanes: its lane addresses, and per
     * segment, operation and thread the part that depends on the
     * thread alone, per operation and warp the step between its lanes'
     * parts when they step evenly (see kgen_table_lanes). */
    KLaneAddrFn lane_addr;
    guint64 *lane_part[KGEN_N_SEGMENTS];
    gint64 *lane_stride[KGEN_N_SEGMENTS];
    int lanes;                      /* the tables' threads per operation */
    const KernInstance *k;          /* borrowed: the owner */
    void *user;                     /* the kernel's own data, borrowed */
};

KProgram *kgen_program_new (const KernInstance *k, KAddrFn address);

/* A program whose every address is a part that depends on the block and
 * iteration alone plus one that depends on the thread alone,
 *   addr (block, tid, iter) = addr (block, 0, iter) + addr (0, tid, 0)
 *                             - addr (0, 0, 0),
 * as 'lane_addr' gives them: once the program is built,
 * kgen_table_lanes tables the thread's parts, and a warp instruction
 * then costs one full address instead of 32.  An access whose lanes
 * step evenly goes out in the stride form, which the coalescer takes
 * by its fast paths. */
KProgram *kgen_program_new_lanes (const KernInstance *k, KLaneAddrFn lane_addr);
void kgen_table_lanes (KProgram *p);
void kgen_program_free (KProgram *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KProgram, kgen_program_free)

/* Append an operation to 'segment'; returns it for further fields. */
KOp *kgen_add (KProgram *p, int segment, InstrOp op, int dst, int s0, int s1,
               int s2);
/* A memory operation: 'width' bytes per lane, addresses by selector
 * 'addr' with argument 'arg'. */
KOp *kgen_mem (KProgram *p, int segment, InstrOp op, int reg, int src,
               int width, guint8 addr, gint32 arg);

/* Guard the operations of 'segment' from index 'from' to its end with
 * selector 'guard' (the program's guard function must be set). */
void kgen_guard_from (KProgram *p, int segment, guint from, guint8 guard);

/* Count the operations of 'op' in 'segment', guarded or not. */
guint kgen_count (const KProgram *p, int segment, InstrOp op);

/* The stream of warp 'warp' of 'block'; 'active' is its lane mask; the
 * body is played 'iterations' times. */
InstrStream *kgen_stream_new (const KProgram *p, guint64 block, int warp,
                              guint32 active, guint64 iterations);

/* The stream of a warp whose every thread fails the kernel's bounds
 * check: the prologue, where the check is, with all lanes, then EXIT
 * (as the epilogue's, so a trace records it there); it plays no loop
 * (kgen_stream_plays_loop). */
InstrStream *kgen_stream_new_exiting (const KProgram *p, guint64 block,
                                      int warp);

/* FALSE for a stream of kgen_stream_new_exiting; TRUE for any other. */
gboolean kgen_stream_plays_loop (const InstrStream *stream);

/* Make 'stream', not yet read, yield only its local/global-queue
 * (PIPE_LG) instructions and no EXIT: a mirror SM's (gpu.h).  FALSE
 * if 'stream' is not played from a program. */
gboolean kgen_stream_lg_only (InstrStream *stream);

/* Whether 'stream', played from a program, has yet to start main-loop
 * iteration 'iterations' (counting from 0) and to leave its loop, so
 * that with its loop cut, or lengthened, to that many it plays on as a
 * stream opened with them would; if so and 'apply', set it so. */
gboolean kgen_stream_window (InstrStream *stream, guint64 iterations,
                            gboolean apply);

/* Where the instruction 'stream' last returned stands: its segment and,
 * in the body, its iteration (what a trace file marks).  FALSE if
 * 'stream' is not played from a program. */
gboolean kgen_stream_position (const InstrStream *stream, int *segment,
                               guint64 *iteration);

#endif
