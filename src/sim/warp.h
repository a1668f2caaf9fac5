/*
 * warp.h -- one resident warp: its instruction stream, what its next
 * instruction waits for, and where its cycles went.
 *
 * The next instruction is pulled from the stream as soon as the current
 * one issues, so "what is it waiting for" is always known:
 *   - 'blocked': a condition only an event ends (a memory or MUFU result,
 *     the block's barrier, outstanding stores after EXIT), or STALL_N;
 *   - 'ready_at': the cycle the fixed-time conditions end (compiler stall
 *     count or fixed-latency registers: wait; a branch: branch_resolving).
 * The scheduler adds the pipe and queue conditions at issue time.
 *
 * Accounting charges intervals: warp_charge (w, reason, at) closes the
 * current state at 'at' and opens 'reason'.  Charges to one warp come in
 * non-decreasing cycle order, so per warp the states sum exactly to its
 * resident cycles.
 *
 * An observer (warp->observer, NULL by default) hears of each interval
 * as it closes: [from, to) in 'reason', in cycle order, empty ones left
 * out, so a warp's reported intervals tile its residency exactly.  The
 * unobserved path pays one predictable branch per state change.
 */
#ifndef SMSIM_SIM_WARP_H
#define SMSIM_SIM_WARP_H

#include "sim/instr.h"
#include "sim/stats.h"

#define WARP_N_REGS 256

/* One register's scoreboard entry: its three fields together, so an
 * operand costs one host cache line, not three. */
typedef struct {
    Cycle ready;                /* fixed-latency result */
    guint8 pending;             /* variable-latency writes in flight */
    guint8 pending_long;        /* ... of which long scoreboard */
} WarpReg;

/* The register scoreboard, read only for the warp that issues and by
 * memory returns: kept apart so the scan over a sub-partition's warps touches
 * a few small structs, not kilobytes each.  'n_used' bounds the registers
 * written since launch, so a launch clears only those. */
typedef struct {
    WarpReg reg[WARP_N_REGS];
    int n_used;
} WarpCold;

typedef struct Warp Warp;

/* Told of each closed state interval [from, to) of warp 'w'. */
typedef void (*WarpStateFn) (void *ctx, const Warp *w, StallReason reason,
                             Cycle from, Cycle to);

typedef struct {
    WarpStateFn closed;
    void *ctx;
} WarpObserver;

struct Warp {
    /* What the scheduler's scan reads. */
    StallReason blocked;        /* event-ended condition, or STALL_N */
    StallReason reason;         /* the state being charged */
    Cycle ready_at;             /* fixed-time conditions end */
    Cycle since;
    const WarpObserver *observer;   /* borrowed; NULL: nobody listens
                                     * (beside 'since': one cache line) */
    guint8 pipe;                /* InstrPipe of the next instruction */
    gboolean exited;
    int slot;                   /* warp slot in the SM */
    guint64 age;                /* launch order, for GTO and CGGTY */

    const Instr *next;          /* to issue next (borrowed from the stream) */
    WarpCold *cold;             /* borrowed from the SM */
    InstrStream *stream;        /* owned */
    int sp;                     /* sub-partition */
    int block;                  /* resident-block slot in the SM */
    gboolean yielded;           /* its last issue carried the yield bit */
    Cycle floor;                /* earliest next issue: stall count,
                                 * branch, instruction fetch */
    StallReason floor_reason;   /* STALL_WAIT, STALL_BRANCH (a branch
                                 * holds the warp its whole wait) or
                                 * STALL_NO_INSTRUCTION */
    guint32 fetch_line;         /* instruction line last asked for, + 1 */
    int mem_pending;            /* loads, stores and MUFU in flight */
    guint8 sb[INSTR_N_SB];      /* dependence counters (control fields) */
    guint8 sb_long;             /* counters raised by a long-scoreboard op */
    Cycle launched;
    guint64 cycles[STALL_N];
};

/* A warp launched at 'now' with 'stream' (taken) and the scratch 'cold'
 * (borrowed); its first instruction is pulled. */
void warp_init (Warp *w, WarpCold *cold, InstrStream *stream, Cycle now);
void warp_clear (Warp *w);

/* Pull the next instruction (after an issue). */
void warp_fetch (Warp *w);

/* Re-derive 'blocked' and 'ready_at' for the next instruction from the
 * scoreboard and the dependence counters. */
void warp_evaluate (Warp *w);

/* Tell the observer that the current state closes at 'at'.  Out of line
 * and cold: without it GCC keeps the scan loop's values out of the
 * registers a call would clobber, and the unobserved path ran 2 % more
 * instructions (callgrind, bench/sim-rate); with it, 0.7 %. */
#if defined(__GNUC__)
__attribute__ ((cold))
#endif
void warp_report (const Warp *w, Cycle at);

/* Close the current state at 'at' and open 'reason'. */
static inline void
warp_charge (Warp *w, StallReason reason, Cycle at)
{
    if (reason == w->reason)
        return;
    g_assert (at >= w->since);
    if (G_UNLIKELY (w->observer != NULL))
        warp_report (w, at);
    w->cycles[w->reason] += at - w->since;
    w->reason = reason;
    w->since = at;
}

/* The state a warp that is not blocked is in until 'ready_at'. */
static inline StallReason
warp_waiting_reason (const Warp *w)
{
    return w->blocked != STALL_N ? w->blocked : w->floor_reason;
}

/* Close the books at 'at' (retire): add the warp's cycles to 'stats'. */
void warp_finish (Warp *w, Cycle at, SimStats *stats);

/* Add the cycles the warp has spent up to 'at' to 'stats', the books
 * left open (a count taken while it runs). */
void warp_count_cycles (const Warp *w, Cycle at, SimStats *stats);

#endif
