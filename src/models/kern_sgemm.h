/*
 * kern_sgemm.h -- what the three files of the SGEMM models share:
 * kern_sgemm.c builds each kernel's program and launch,
 * kern_sgemm_check.c says which tilings it accepts, and
 * kern_sgemm_addr.c says which results a block and a thread compute and
 * where each of the programs' loads and stores goes.  Private to them.
 */
#ifndef SMSIM_MODELS_KERN_SGEMM_H
#define SMSIM_MODELS_KERN_SGEMM_H

#include "models/kgen.h"

/* Address selectors. */
enum {
    AD_NONE,
    AD_A_ROW,         /* kernel 1: A[x][k], x = lane's row */
    AD_B_BCAST,       /* kernel 1: B[k][y], one y per warp */
    AD_A_BCAST,       /* kernel 2: A[row][k], one row per warp */
    AD_B_ROW,         /* kernel 2: B[k][y], y = lane's column */
    AD_C,             /* the thread's C element(s) (arg: which) */
    AD_A_TILE,        /* global A tile element(s) for load 'arg' */
    AD_B_TILE,
    AD_AS_STORE,      /* As element(s) for load 'arg' */
    AD_BS_STORE,
    AD_AS_LOAD,       /* As read 'arg' of the inner product */
    AD_BS_LOAD
};

/* Kernel 11's operations carry, above bit ARG_SHIFT of their argument,
 * the shared-memory stage they touch (shared loads and stores) or the
 * slice of K they load, counted from the iteration's first (global
 * tile loads: 0 and 1 in the prologue, 2 and 3 in the loop). */
#define ARG_SHIFT 12
#define ARG_LOW(arg) ((arg) & ((1 << ARG_SHIFT) - 1))

/* Kernels 1 and 2's loads past the loop (K mod 16 steps, kern_sgemm.c
 * naive_tail) carry ARG_TAIL above their step: they read from the
 * loop's end, K / 16 x 16, whatever window the stream plays, as a
 * trace records them (its epilogue comes after the whole loop). */
#define ARG_TAIL (1 << ARG_SHIFT)

/* Kernel 11's guard selectors: GD_LOAD + s guards the loads of the
 * slice s past the iteration's first, GD_COMPUTE + s its inner
 * product. */
enum { GD_NONE, GD_LOAD = 1, GD_COMPUTE = 5 };

typedef struct {
    int kernel;
    int bm, bn, bk, tm, tn, wm, wn, wniter, threads;
    int stages;                /* shared-memory stages: 2 for kernel 11 */
    int loaders;               /* threads that load one tile: all, or a half */
    guint64 slices;            /* BK slices of K */
    guint64 m, n, k;
    guint64 a, b, c;           /* base addresses of the matrices */
    gint64 as_bytes;           /* As (all stages) then Bs in shared memory */
    int bs_pitch;              /* floats per Bs row (BN + 5 for kernel 8) */
} Sgemm;

/* The most shared loads one dot step makes (kern_sgemm_check keeps
 * every parameter set within it: 'arg' encodes the piece in 6 bits). */
#define STEP_MAX_READS 64

/* Kernels 6 and on move four floats a load (kernel 6 on stores As
 * transposed). */
static inline gboolean
vectorized (const Sgemm *g)
{
    return g->kernel >= 6;
}

/* Kernel 10's subtiles along M: the warp tile holds WMITER x WNITER
 * subtiles of TM x TN results per thread. */
static inline int
wmiter (const Sgemm *g)
{
    return MAX (1, g->wm * g->wn / (32 * g->tm * g->tn * g->wniter));
}

/* Lane 'tid''s address for 'op' of block 'block' in main-loop iteration
 * 'iter' (kgen_program_new_lanes). */
guint64 kern_sgemm_lane_addr (const KProgram *p, guint64 block, int tid,
                              guint64 iter, const KOp *op);

/* Kernels 1 and 2: the lanes of 'warp' of 'block' inside C, which
 * check their bounds; 0 for a warp whose threads all fail the check. */
guint32 kern_sgemm_naive_lanes (const KProgram *p, guint64 block, int warp);

/* Kernel 11: does 'warp' play 'op' in iteration 'iter' (KProgram's
 * guard)? */
gboolean kern_sgemm_guard (const KProgram *p, int warp, guint64 iter,
                           const KOp *op);

/* Whether the kernels' code runs 'g' (its tiling and size) and the
 * models encode it; else a KERN_ERROR_PARAM or KERN_ERROR_SIZE naming
 * the rule, with the numbers. */
gboolean kern_sgemm_check (const Sgemm *g, const KernInstance *k,
                           GError **error);

#endif
