/*
 * sm.h -- one streaming multiprocessor: resident blocks, warps spread
 * over the sub-partitions, a warp scheduler and pipes per sub-partition,
 * the memory instruction queues, barriers.
 *
 * Blocks become resident while a block slot is free (the caller passes
 * the occupancy calculator's answer: registers, shared memory, warp and
 * block slots are what it counts) and retire when all their warps have
 * exited and drained.  Each sub-partition issues at most one warp
 * instruction per cycle.  Nothing ticks when nothing can issue: a
 * sub-partition with no eligible warp sleeps until the first cycle one
 * can be (a known time) or an event wakes it (a memory return, a barrier
 * release, a freed queue slot).
 *
 * The SM knows nothing about what it runs: warps come as instruction
 * streams from the workload.
 */
#ifndef SMSIM_SIM_SM_H
#define SMSIM_SIM_SM_H

#include "sim/evq.h"
#include "sim/mem.h"
#include "sim/spec.h"
#include "sim/stats.h"

/* Resident warps an SM can hold: the register-file cache tags its
 * entries with the warp's slot plus one in 8 bits (regfile.h), with a
 * slot to spare. */
#define SM_MAX_WARPS 254

typedef struct {
    int threads_per_block;
    int max_blocks;   /* resident at once (theoretical occupancy) */
    /* The next block SM 'sm' (this one, or one of its mirrors) should
     * run; FALSE when there is none. */
    gboolean (*next_block) (void *ctx, int sm, guint64 *block);
    /* The instruction stream of warp 'warp' of block 'block' (owned by
     * the SM from then on). */
    InstrStream *(*open_warp) (void *ctx, guint64 block, int warp);
    void *ctx;
    /* Mirror SMs (gpu.h): 'n_mirrors' SM ids in 'mirrors' (borrowed)
     * that run blocks of their own in step with this SM.  Each block
     * this SM launches, each mirror takes the next block too (none once
     * they run out); whenever a warp's local/global request reaches the
     * memory system, the mirrors' warps of the same index send their
     * next one, the same cycle, and nobody waits for them.  Their
     * streams come from 'open_mirror' and yield only instructions of
     * the local/global queue (PIPE_LG). */
    int n_mirrors;
    const int *mirrors;
    InstrStream *(*open_mirror) (void *ctx, guint64 block, int warp);
    /* Told when one of this SM's own blocks retires (may be NULL). */
    void (*block_retired) (void *ctx, int sm, guint64 block, Cycle at);
    /* A block's share of the work, by which this SM's counters stand
     * for its mirrors' blocks (gpu.c); NULL: every block alike. */
    double (*block_weight) (void *ctx, guint64 block);
} SmWorkload;

/* Observer of every issue (timelines, tests); it must not change the
 * SM. */
typedef void (*SmIssueHook) (void *ctx, int sm, int sp, int warp_slot,
                             guint64 block, const Instr *instr, Cycle now);

/* Observer of warp launches (retired FALSE) and retirements. */
typedef void (*SmWarpHook) (void *ctx, int sm, int warp_slot, guint64 block,
                            gboolean retired, Cycle now);

/* Observer of warp states: each closed state interval [from, to) of
 * the warp in slot 'warp_slot' (of block 'block'), in Nsight Compute's
 * terms (stats.h).  Per warp the intervals come in cycle order, each
 * starting where the last ended, none empty, from its launch to its
 * retirement: they sum to its resident cycles, and over all warps to
 * sm_stats()'s warp_cycles by reason.  Consecutive intervals may carry
 * the same reason (a zero-length state between them is left out).  It
 * must not change the SM.  Without one, the SM pays one well-predicted
 * branch per state change. */
typedef void (*SmStateHook) (void *ctx, int sm, int warp_slot, guint64 block,
                             StallReason reason, Cycle from, Cycle to);

typedef struct Sm Sm;

/* 'spec' must be a timing preset; 'q', 'mem' and 'work' are borrowed
 * and outlive the SM. */
Sm *sm_new (const GpuSpec *spec, int id, EvqQueue *q, MemSys *mem,
            const SmWorkload *work);
void sm_free (Sm *sm);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Sm, sm_free)

void sm_set_issue_hook (Sm *sm, SmIssueHook hook, void *ctx);
void sm_set_warp_hook (Sm *sm, SmWarpHook hook, void *ctx);
/* Set before sm_start() to hear of every interval; set later, resident
 * warps report from their current state on.  NULL stops the reports. */
void sm_set_state_hook (Sm *sm, SmStateHook hook, void *ctx);

/* Make blocks resident at 'now' until the slots or the blocks run out. */
void sm_start (Sm *sm, Cycle now);

/* Make one block resident at 'now' if a slot and a block are free. */
gboolean sm_launch_block (Sm *sm, Cycle now);

/* TRUE once every block it took has retired. */
gboolean sm_done (const Sm *sm);

/* The counters at 'now': those of the warps that retired, and the
 * cycles the resident ones have spent so far (a run may be read while
 * it goes on). */
void sm_stats (const Sm *sm, Cycle now, SimStats *out);

/* Warp instructions it issued so far. */
guint64 sm_warp_instructions (const Sm *sm);

/* 'fn' on the stream of each warp it holds and of each of their
 * mirrors' warps: a run may change what they are to play (a sampling
 * window cut short). */
void sm_each_stream (Sm *sm, void (*fn) (InstrStream *s, void *ctx),
                     void *ctx);

/* The blocks this SM launched, and those its mirrors took, each counted
 * by its weight (SmWorkload.block_weight; 1 without one). */
double sm_blocks_weight (const Sm *sm);
double sm_mirror_weight (const Sm *sm);

#endif
