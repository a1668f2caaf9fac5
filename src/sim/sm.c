/*
 * sm.c -- one streaming multiprocessor.  See sm.h.
 *
 * Sections: sub-partition wake-up and tick (the issue loop), issue by
 * pipe, memory returns, barriers, warp exit and retire, block residency.
 */
#include "config.h"

#include <string.h>

#include "sim/icache.h"
#include "sim/lsu.h"
#include "sim/pipe.h"
#include "sim/regfile.h"
#include "sim/sched.h"
#include "sim/sm.h"
#include "sim/warp.h"

#define MAX_SP 16

typedef struct {
    Warp **warps;          /* resident, oldest first */
    /* Beside each: whether it is not blocked (blocked == STALL_N), so
     * the scan skips the blocked ones without reading their Warp --
     * most of a memory-bound sub-partition's.  sp_open keeps it. */
    guint8 *open;
    int n;
    PipeSet pipes;
    SchedState sched;
    RegfileCache rf;            /* the register-file reuse cache */
    Cycle port_free[REGFILE_MAX_BANKS];  /* each bank's read port free from */
    Cycle ports_busy;      /* the latest of them: nothing to check below */
    Cycle mem_due;         /* memory-issue rate (mem_ready) */
    Cycle mem_quiet;       /* issuing memory instructions until then */
} Sp;

typedef struct {
    gboolean used;
    guint64 id;
    int live;              /* warps not exited */
    int retired;
    int arrived;           /* warps waiting at the barrier */
    int *slots;            /* warp slot of each of its warps */
    guint64 *mirror_id;    /* each mirror's block, or NO_BLOCK */
} Block;

#define NO_BLOCK G_MAXUINT64

struct Sm {
    const GpuSpec *spec;
    int id;
    EvqQueue *q;
    SmWorkload work;
    int warps_per_block;
    int n_slots;
    Warp *warps;           /* by warp slot */
    WarpCold *cold;        /* by warp slot */
    gboolean *slot_used;
    int first_free;        /* every slot below it is used */
    Block *blocks;         /* work.max_blocks of them */
    int n_sp;
    RegfileShape rf;            /* banks 0: read ports not modelled */
    Icache *icache;             /* NULL: every instruction fetched in time */
    Sp sp[MAX_SP];
    /* Each sub-partition's pending tick (CYCLE_NEVER: asleep), side by
     * side: sm_tick reads them all every tick. */
    Cycle sp_tick_at[MAX_SP];
    LsuQueue *lg;
    LsuQueue *mio;
    MemSys *mem;
    InstrStream **mirror;  /* by warp slot x mirror; NULL: none */
    int *pos;              /* by warp slot: its index in its Sp's warps */
    double blocks_weight;  /* sm_blocks_weight */
    double mirror_weight;
    Cycle tick_at;         /* the SM's pending tick event */
    guint64 next_age;
    gboolean no_more_blocks;
    int resident;
    Cycle active_from;     /* when 'resident' last rose from 0 */
    gboolean started;
    Cycle first_launch;
    SimStats stats;
    SmIssueHook hook;
    void *hook_ctx;
    SmWarpHook warp_hook;
    void *warp_hook_ctx;
    SmStateHook state_hook;
    void *state_hook_ctx;
    WarpObserver observer; /* what its warps point to while state_hook is set */
};

/* A memory request's cookie: which warp, which registers, which counter. */
#define CK_SLOT(c) ((int) ((c) & 0xffff))
#define CK_DST(c) ((guint8) ((c) >> 16 & 0xff))
#define CK_NDST(c) ((int) ((c) >> 24 & 0xf))
#define CK_LONG(c) ((int) ((c) >> 28 & 1))
#define CK_SB(c) ((guint8) ((c) >> 29 & 0x7))

static guint64
cookie_of (const Warp *w, const Instr *in, gboolean is_long)
{
    guint64 n_dst = in->dst == INSTR_NO_REG ? 0 : in->n_dst;
    guint64 sb = in->ctrl ? in->wr_sb : INSTR_NO_SB;
    return (guint64) w->slot | (guint64) in->dst << 16 | n_dst << 24 |
           (guint64) (is_long != 0) << 28 | sb << 29;
}

/* ------------------------------------------------------------------ */
/* Waking and ticking a sub-partition                                  */

static void sm_tick (void *ctx, guint64 arg, Cycle now);

/* Sub-partitions that want a tick at the same cycle share one event:
 * the SM's, which ticks them in order. */
static void
sm_wake (Sm *sm, Cycle at)
{
    if (at >= sm->tick_at)
        return;
    sm->tick_at = at;
    evq_schedule (sm->q, at, EVQ_PRI_ISSUE, sm_tick, sm, 0);
}

static void
sp_wake (Sm *sm, int i, Cycle at)
{
    if (at >= sm->sp_tick_at[i])
        return;
    sm->sp_tick_at[i] = at;
    sm_wake (sm, at);
}

/* 'w's blocked may have changed: its sub-partition's scan learns it. */
static inline void
sp_open (Sm *sm, const Warp *w)
{
    sm->sp[w->sp].open[sm->pos[w->slot]] = w->blocked == STALL_N;
}

static void
wake_all (void *ctx, Cycle now)
{
    Sm *sm = ctx;
    for (int i = 0; i < sm->n_sp; i++)
        sp_wake (sm, i, now);
}

static LsuQueue *
queue_of (Sm *sm, InstrPipe pipe)
{
    return pipe == PIPE_LG ? sm->lg : pipe == PIPE_MIO ? sm->mio : NULL;
}

/* The memory-issue rate Huerta et al. measured on Ampere: a
 * sub-partition issues mem_issue_burst memory instructions back to
 * back, then one every mem_issue_interval cycles, while another issues
 * them too.  A virtual-scheduling rate: each memory instruction moves
 * the sub-partition's 'mem_due' an interval on (mem_issued), and the
 * next may go once 'mem_due' is at most 'slack' ahead, where slack =
 * (burst - 1) x (interval - 1) lets just 'burst' of them go a cycle
 * apart.  Alone, a sub-partition issues them as its queue allows, and
 * 'mem_due' stops an interval past that limit: one that has issued
 * many alone has spent its burst when another joins, but owes no more
 * than an interval.  Another "issues them too" if it issued one within
 * the last interval cycles, the current one included (so two held to
 * the rate see each other every cycle).  Held back, a warp waits as
 * for a full queue (lg_throttle, mio_throttle: Nsight Compute has no
 * name of its own for it), until its own turn or until the others are
 * quiet, whichever is first. */
static Cycle
mem_slack (const SpecSched *s)
{
    return (Cycle) (s->mem_issue_burst - 1) * (Cycle) (s->mem_issue_interval - 1);
}

static Cycle
mem_ready (const Sm *sm, const Sp *sp, Cycle now)
{
    const SpecSched *s = &sm->spec->sched;
    if (s->mem_issue_burst == 0)
        return now;
    Cycle slack = mem_slack (s), others_quiet = now;
    if (sp->mem_due <= now + slack)
        return now;
    for (int i = 0; i < sm->n_sp; i++)
        if (&sm->sp[i] != sp)
            others_quiet = MAX (others_quiet, sm->sp[i].mem_quiet);
    return MIN (sp->mem_due - slack, others_quiet);
}

static void
mem_issued (const Sm *sm, Sp *sp, Cycle now)
{
    const SpecSched *s = &sm->spec->sched;
    if (s->mem_issue_burst == 0)
        return;
    Cycle interval = (Cycle) s->mem_issue_interval;
    sp->mem_due = MIN (MAX (sp->mem_due, now) + interval,
                       now + mem_slack (s) + interval);
    sp->mem_quiet = now + interval + 1;
}

/* First cycle >= 'now' the unit for 'in' takes it; CYCLE_NEVER for a
 * full queue (its room callback wakes us). */
static Cycle
unit_ready (Sm *sm, const Sp *sp, InstrPipe pipe, Cycle now)
{
    if (pipe != PIPE_LG && pipe != PIPE_MIO)
        return pipe_ready_at (&sp->pipes, pipe, now);
    return lsu_has_room (queue_of (sm, pipe)) ? mem_ready (sm, sp, now)
                                              : CYCLE_NEVER;
}

/* First cycle >= 'now' the read ports of every bank the next
 * instruction of 'w' reads from are free (regfile.h).  Only asked while
 * some port is busy. */
static Cycle
ports_ready (const Sm *sm, const Sp *sp, const Warp *w, Cycle now)
{
    guint32 counts = regfile_count (&sp->rf, sm->rf, w->slot, w->next);
    Cycle t = now;
    for (int b = 0; counts != 0; b++, counts >>= 4)
        if (counts & 0xf)
            t = MAX (t, sp->port_free[b]);
    return t;
}

/* Hold the read ports of the banks 'in' reads from, for as many cycles
 * as it reads each, and let the reuse cache see its operands. */
static void
ports_reserve (Sm *sm, Sp *sp, const Warp *w, Cycle now)
{
    guint32 counts = regfile_read_operands (&sp->rf, sm->rf, w->slot, w->next);
    for (int b = 0; counts != 0; b++, counts >>= 4)
        if (counts & 0xf) {
            sp->port_free[b] = now + (counts & 0xf);
            sp->ports_busy = MAX (sp->ports_busy, sp->port_free[b]);
        }
}

static StallReason
throttle_reason (InstrPipe pipe)
{
    return pipe == PIPE_LG ? STALL_LG_THROTTLE
           : pipe == PIPE_MIO ? STALL_MIO_THROTTLE
                              : STALL_MATH_PIPE;
}

/* When a warp that is not blocked could next issue, as far as the
 * pipes can tell now. */
static Cycle
earliest (const Sp *sp, const Warp *w, Cycle now)
{
    /* The queues' pipes read as always free there. */
    return pipe_ready_at (&sp->pipes, w->pipe, MAX (w->ready_at, now));
}

static void issue (Sm *sm, Sp *sp, Warp *w, Cycle now);

/* The next instruction of 'w', reached at 'now', may wait for its line
 * (icache.h): its fetch joins the fixed-time conditions.  A warp asks
 * once a line; TRUE if it waits. */
static gboolean
fetch_next (Sm *sm, Warp *w, Cycle now)
{
    if (sm->icache == NULL || !w->next->has_pc)
        return FALSE;
    guint32 line = w->next->pc / ICACHE_LINE_BYTES + 1;
    if (line == w->fetch_line)
        return FALSE;
    w->fetch_line = line;
    Cycle at = icache_fetch (sm->icache, w->sp, w->next->pc, now);
    if (at <= w->floor)
        return FALSE;
    w->floor = at;
    w->floor_reason = STALL_NO_INSTRUCTION;
    return TRUE;
}

/* Sort the resident warps of 'sp' at 'now' into eligible ones and the
 * rest; returns how many are eligible and the next cycle any of the
 * rest could be. */
static int
scan (Sm *sm, Sp *sp, Cycle now, Warp **eligible, Cycle *wake)
{
    int n = 0;
    for (int i = 0; i < sp->n; i++) {
        if (!sp->open[i])
            continue;
        Warp *w = sp->warps[i];
        if (w->ready_at > now) {
            *wake = MIN (*wake, earliest (sp, w, now));
            continue;
        }
        Cycle unit = unit_ready (sm, sp, w->pipe, now);
        gboolean ports = FALSE;
        if (unit == now && sp->ports_busy > now) {
            unit = ports_ready (sm, sp, w, now);
            ports = TRUE;
        }
        if (unit > now) {
            Cycle from = w->reason == STALL_NOT_SELECTED
                             ? now : MAX (w->ready_at, w->since);
            warp_charge (w, ports ? STALL_DISPATCH : throttle_reason (w->pipe),
                         from);
            *wake = MIN (*wake, unit);
            continue;
        }
        eligible[n++] = w;
    }
    return n;
}

static void
sp_tick (Sm *sm, int i, Cycle now)
{
    Sp *sp = &sm->sp[i];
    /* Fixed, not sized by n_slots: a variable-length array cost a
     * dozen instructions a tick to lay out. */
    Warp *eligible[SM_MAX_WARPS];
    Cycle wake = CYCLE_NEVER;

    sm->sp_tick_at[i] = CYCLE_NEVER;
    int n = scan (sm, sp, now, eligible, &wake);
    if (n == 0) {
        sp_wake (sm, i, wake);
        return;
    }
    Warp *pick = sched_pick (sm->spec->sched.policy, &sp->sched, eligible, n,
                             sm->n_slots);
    for (int k = 0; k < n; k++)
        if (eligible[k] != pick)
            warp_charge (eligible[k], STALL_NOT_SELECTED, now);
    issue (sm, sp, pick, now);
    if (n > 1)
        wake = now + 1;
    if (!pick->exited && pick->blocked == STALL_N)
        wake = MIN (wake, earliest (sp, pick, now + 1));
    sp_wake (sm, i, wake);
}

static void
sm_tick (void *ctx, guint64 unused, Cycle now)
{
    Sm *sm = ctx;
    (void) unused;
    if (sm->tick_at != now)
        return;  /* superseded by an earlier wake-up */
    sm->tick_at = CYCLE_NEVER;
    /* The sub-partitions share the memory queues: who goes first turns
     * round each cycle, so none is always served last (without a
     * division per sub-partition: they were 10 % of this function). */
    int n = sm->n_sp;
    int i = (n & (n - 1)) == 0 ? (int) (now & (Cycle) (n - 1))
                               : (int) (now % (Cycle) n);
    for (int k = 0; k < n; k++, i = i + 1 < n ? i + 1 : 0)
        if (sm->sp_tick_at[i] == now)
            sp_tick (sm, i, now);
    Cycle next = CYCLE_NEVER;
    for (int k = 0; k < n; k++)
        next = MIN (next, sm->sp_tick_at[k]);
    sm_wake (sm, next);
}

/* ------------------------------------------------------------------ */
/* Issue                                                               */

static void mem_done (void *ctx, guint64 cookie, Cycle now);
static void warp_exit (Sm *sm, Warp *w, Cycle now);
static void barrier_arrive (Sm *sm, Warp *w, Cycle now);

/* The destination registers of 'in' (none past the last), marked as
 * used so the next launch in the slot clears them. */
static WarpReg *
dst_regs (Warp *w, const Instr *in, int *n)
{
    *n = in->dst == INSTR_NO_REG ? 0 : MIN (in->n_dst, INSTR_NO_REG - in->dst);
    /* Not for RZ (no destination): 255 there had every launch clear the
     * whole scoreboard, 4 KB: a third of the copy benchmark's time. */
    if (*n > 0)
        w->cold->n_used = MAX (w->cold->n_used, in->dst + *n);
    return &w->cold->reg[in->dst];
}

static void
write_fixed (Warp *w, const Instr *in, Cycle ready)
{
    int n;
    WarpReg *reg = dst_regs (w, in, &n);
    for (int k = 0; k < n; k++)
        reg[k].ready = ready;
}

/* A variable-latency result is on its way: registers and counter wait. */
static guint64
start_variable (Warp *w, const Instr *in, gboolean is_long)
{
    int n;
    WarpReg *reg = dst_regs (w, in, &n);
    for (int k = 0; k < n; k++) {
        reg[k].pending++;
        reg[k].pending_long += (guint8) is_long;
    }
    if (in->ctrl && in->wr_sb < INSTR_N_SB) {
        w->sb[in->wr_sb]++;
        w->sb_long = (guint8) ((w->sb_long & ~(1u << in->wr_sb)) |
                               (guint) is_long << in->wr_sb);
    }
    w->mem_pending++;
    return cookie_of (w, in, is_long);
}

static void
count_issue (Sm *sm, const Warp *w, int sp, Cycle now)
{
    const Instr *in = w->next;
    /* Most instructions run every lane: no count for those. */
    guint lanes = in->active == 0xffffffffu ? 32
                                            : (guint) sim_popcount32 (in->active);
    sm->stats.warp_instructions++;
    sm->stats.thread_instructions += lanes;
    sm->stats.flops += (guint64) lanes * instr_info (in->op)->flops;
    sm->stats.op_count[in->op]++;
    if (sm->hook != NULL)
        sm->hook (sm->hook_ctx, sm->id, sp, w->slot, sm->blocks[w->block].id,
                  in, now);
}

/* Start the instruction on its pipe, queue or unit. */
static void
execute (Sm *sm, Sp *sp, Warp *w, Cycle now)
{
    const Instr *in = w->next;
    const InstrInfo *info = instr_info (in->op);
    const SpecPipe *p = &sm->spec->pipe;
    guint64 cookie;

    switch (info->pipe) {
    case PIPE_FMA:
    case PIPE_FMAHEAVY:
    case PIPE_ALU:
        pipe_reserve (&sp->pipes, info->pipe, now);
        write_fixed (w, in, now + (Cycle) (info->latency == LAT_FMA
                                               ? p->fma_latency_cycles
                                               : p->alu_latency_cycles));
        break;
    case PIPE_XU:
        pipe_reserve (&sp->pipes, info->pipe, now);
        cookie = start_variable (w, in, FALSE);
        evq_schedule (sm->q, now + (Cycle) p->sfu_latency_cycles,
                      EVQ_PRI_MEM_RETURN, mem_done, sm, cookie);
        break;
    case PIPE_CBU:
        pipe_reserve (&sp->pipes, info->pipe, now);
        w->floor = MAX (w->floor, now + (Cycle) p->branch_cycles);
        w->floor_reason = STALL_BRANCH;
        break;
    case PIPE_LG:
    case PIPE_MIO:
        cookie = start_variable (w, in, info->latency == LAT_GLOBAL);
        lsu_push (queue_of (sm, info->pipe), in, cookie, mem_done, sm, now);
        mem_issued (sm, sp, now);
        break;
    default:
        break;
    }
}

/* Out of line: inlined into the scan's function, its values crowded
 * the scan loop's out of registers (cachegrind, sgemm-11: 1 % more
 * instructions in all, for one call per issue). */
static G_GNUC_NO_INLINE void
issue (Sm *sm, Sp *sp, Warp *w, Cycle now)
{
    const Instr *in = w->next;
    InstrOp op = in->op;

    warp_charge (w, STALL_SELECTED, now);
    count_issue (sm, w, (int) (sp - sm->sp), now);
    w->yielded = in->ctrl && in->yield;
    sched_issued (&sp->sched, w);
    w->floor = now + (in->ctrl && in->stall > 1 ? in->stall : 1);
    w->floor_reason = STALL_WAIT;
    if (sm->rf.banks > 0)
        ports_reserve (sm, sp, w, now);
    execute (sm, sp, w, now);
    if (op == INSTR_EXIT) {
        warp_exit (sm, w, now);
        return;
    }
    warp_fetch (w);
    fetch_next (sm, w, now);
    warp_evaluate (w);
    sp_open (sm, w);
    if (op == INSTR_BAR)
        barrier_arrive (sm, w, now);
    warp_charge (w, warp_waiting_reason (w), now + 1);
}

/* ------------------------------------------------------------------ */
/* Memory and MUFU returns                                             */

static void retire (Sm *sm, Warp *w, Cycle at);

static void
release (Warp *w, guint64 cookie)
{
    guint8 dst = CK_DST (cookie);
    for (int k = 0; k < CK_NDST (cookie) && dst + k < INSTR_NO_REG; k++) {
        w->cold->reg[dst + k].pending--;
        w->cold->reg[dst + k].pending_long -= (guint8) CK_LONG (cookie);
    }
    if (CK_SB (cookie) < INSTR_N_SB)
        w->sb[CK_SB (cookie)]--;
    w->mem_pending--;
}

static void
mem_done (void *ctx, guint64 cookie, Cycle now)
{
    Sm *sm = ctx;
    Warp *w = &sm->warps[CK_SLOT (cookie)];
    release (w, cookie);
    if (w->exited) {
        if (w->mem_pending == 0)
            retire (sm, w, now);
        return;
    }
    if (w->blocked != STALL_LONG_SCOREBOARD &&
        w->blocked != STALL_SHORT_SCOREBOARD)
        return;
    warp_evaluate (w);
    sp_open (sm, w);
    warp_charge (w, warp_waiting_reason (w), now);
    if (w->blocked == STALL_N)
        sp_wake (sm, w->sp, MAX (now, w->ready_at));
}

/* ------------------------------------------------------------------ */
/* Barriers                                                            */

/* Every live warp of the block has arrived: all go on at 'at'. */
static void
barrier_release (Sm *sm, Block *b, Cycle at)
{
    b->arrived = 0;
    for (int k = 0; k < sm->warps_per_block; k++) {
        Warp *w = &sm->warps[b->slots[k]];
        /* A warp of the block that exited and retired left its slot to
         * whichever block launched next, maybe one at its own barrier. */
        if (&sm->blocks[w->block] != b || w->exited ||
            w->blocked != STALL_BARRIER)
            continue;
        warp_evaluate (w);
        sp_open (sm, w);
        w->ready_at = MAX (w->ready_at, at);
        warp_charge (w, warp_waiting_reason (w), at);
        if (w->blocked == STALL_N)
            sp_wake (sm, w->sp, w->ready_at);
    }
}

static void
barrier_arrive (Sm *sm, Warp *w, Cycle now)
{
    Block *b = &sm->blocks[w->block];
    w->blocked = STALL_BARRIER;
    sp_open (sm, w);
    if (++b->arrived == b->live)
        barrier_release (sm, b, now + 1);
}

/* ------------------------------------------------------------------ */
/* Exit, retire, block residency                                       */

static void dispatch (void *ctx, guint64 arg, Cycle now);

static void
sp_remove (Sm *sm, Warp *w)
{
    Sp *sp = &sm->sp[w->sp];
    int i = sm->pos[w->slot];
    g_assert (i < sp->n && sp->warps[i] == w);
    /* A warp's slot is its place in sm->warps: the shift reads no Warp
     * (reading each one's 'slot' was half of retiring, in host cache
     * misses, on the 108-SM copy). */
    for (int k = i + 1; k < sp->n; k++) {
        sp->warps[k - 1] = sp->warps[k];
        sp->open[k - 1] = sp->open[k];
        sm->pos[sp->warps[k - 1] - sm->warps] = k - 1;
    }
    sp->n--;
}

static void
close_mirrors (Sm *sm, int slot)
{
    for (int m = 0; m < sm->work.n_mirrors; m++)
        g_clear_pointer (&sm->mirror[slot * sm->work.n_mirrors + m],
                         instr_stream_free);
}

static void
retire (Sm *sm, Warp *w, Cycle at)
{
    Block *b = &sm->blocks[w->block];
    warp_finish (w, at, &sm->stats);
    if (sm->warp_hook != NULL)
        sm->warp_hook (sm->warp_hook_ctx, sm->id, w->slot, b->id, TRUE, at);
    sp_remove (sm, w);
    warp_clear (w);
    close_mirrors (sm, w->slot);
    sm->slot_used[w->slot] = FALSE;
    sm->first_free = MIN (sm->first_free, w->slot);
    if (++b->retired < sm->warps_per_block)
        return;
    b->used = FALSE;
    if (--sm->resident == 0)
        sm->stats.active_cycles += at - sm->active_from;
    sm->stats.blocks_done++;
    sm->stats.cycles = at - sm->first_launch;
    if (sm->work.block_retired != NULL)
        sm->work.block_retired (sm->work.ctx, sm->id, b->id, at);
    evq_schedule (sm->q, at, EVQ_PRI_DISPATCH, dispatch, sm, 0);
}

static void
warp_exit (Sm *sm, Warp *w, Cycle now)
{
    Block *b = &sm->blocks[w->block];
    w->exited = TRUE;
    b->live--;
    /* Warps that exit no longer hold the others at a barrier. */
    if (b->arrived > 0 && b->arrived == b->live)
        barrier_release (sm, b, now + 1);
    if (w->mem_pending > 0) {
        w->blocked = STALL_DRAIN;
        sp_open (sm, w);
        warp_charge (w, STALL_DRAIN, now + 1);
        return;
    }
    retire (sm, w, now + 1);
}

static int
free_slot (Sm *sm)
{
    for (int s = sm->first_free; s < sm->n_slots; s++)
        if (!sm->slot_used[s]) {
            sm->first_free = s + 1;
            return s;
        }
    g_assert_not_reached ();
}

static void
launch_warp (Sm *sm, int block, int k, Cycle now)
{
    Block *b = &sm->blocks[block];
    int slot = free_slot (sm);
    Warp *w = &sm->warps[slot];
    warp_init (w, &sm->cold[slot], sm->work.open_warp (sm->work.ctx, b->id, k),
               now);
    w->slot = slot;
    w->sp = slot % sm->n_sp;
    w->block = block;
    w->age = sm->next_age++;
    w->observer = sm->state_hook != NULL ? &sm->observer : NULL;
    if (fetch_next (sm, w, now)) {
        warp_evaluate (w);
        warp_charge (w, STALL_NO_INSTRUCTION, now);
    }
    sm->slot_used[slot] = TRUE;
    b->slots[k] = slot;
    for (int m = 0; m < sm->work.n_mirrors; m++)
        if (b->mirror_id[m] != NO_BLOCK)
            sm->mirror[slot * sm->work.n_mirrors + m] =
                sm->work.open_mirror (sm->work.ctx, b->mirror_id[m], k);
    Sp *sp = &sm->sp[w->sp];
    sm->pos[slot] = sp->n;
    sp->warps[sp->n++] = w;
    sp_open (sm, w);
    if (sm->warp_hook != NULL)
        sm->warp_hook (sm->warp_hook_ctx, sm->id, slot, b->id, FALSE, now);
    sp_wake (sm, w->sp, now);
}

static double
block_weight (const Sm *sm, guint64 block)
{
    return sm->work.block_weight != NULL
               ? sm->work.block_weight (sm->work.ctx, block) : 1.0;
}

gboolean
sm_launch_block (Sm *sm, Cycle now)
{
    int slot = -1;
    for (int i = 0; i < sm->work.max_blocks && slot < 0; i++)
        if (!sm->blocks[i].used)
            slot = i;
    if (slot < 0 || sm->no_more_blocks)
        return FALSE;
    Block *b = &sm->blocks[slot];
    if (!sm->work.next_block (sm->work.ctx, sm->id, &b->id)) {
        sm->no_more_blocks = TRUE;
        return FALSE;
    }
    sm->blocks_weight += block_weight (sm, b->id);
    for (int m = 0; m < sm->work.n_mirrors; m++) {
        if (!sm->work.next_block (sm->work.ctx, sm->work.mirrors[m],
                                   &b->mirror_id[m]))
            b->mirror_id[m] = NO_BLOCK;
        else
            sm->mirror_weight += block_weight (sm, b->mirror_id[m]);
    }
    if (!sm->started) {
        sm->started = TRUE;
        sm->first_launch = now;
    }
    b->used = TRUE;
    b->live = sm->warps_per_block;
    b->retired = 0;
    b->arrived = 0;
    if (sm->resident++ == 0)
        sm->active_from = now;
    for (int k = 0; k < sm->warps_per_block; k++)
        launch_warp (sm, slot, k, now);
    return TRUE;
}

static void
dispatch (void *ctx, guint64 arg, Cycle now)
{
    Sm *sm = ctx;
    (void) arg;
    while (sm_launch_block (sm, now))
        ;
}

void
sm_start (Sm *sm, Cycle now)
{
    evq_schedule (sm->q, now, EVQ_PRI_DISPATCH, dispatch, sm, 0);
}

/* ------------------------------------------------------------------ */
/* Mirrors                                                             */

/* The warp in 'cookie's slot had a local/global request taken: its
 * mirrors send theirs. */
static void
mirror_hand_over (void *ctx, guint64 cookie, Cycle now)
{
    Sm *sm = ctx;
    InstrStream **s = &sm->mirror[CK_SLOT (cookie) * sm->work.n_mirrors];
    for (int m = 0; m < sm->work.n_mirrors; m++) {
        const Instr *in = s[m] != NULL ? instr_stream_next (s[m]) : NULL;
        if (in == NULL || instr_info (in->op)->pipe != PIPE_LG)
            continue;
        MemRequest req = { in, sm->work.mirrors[m], 0, NULL, NULL,
                           MEM_FOLLOWS };
        mem_access (sm->mem, &req, now);
    }
}

/* ------------------------------------------------------------------ */
/* Life cycle                                                          */

Sm *
sm_new (const GpuSpec *spec, int id, EvqQueue *q, MemSys *mem,
        const SmWorkload *work)
{
    Sm *sm = g_new0 (Sm, 1);
    g_assert (spec->timing);
    g_assert (work->max_blocks >= 1 && work->threads_per_block >= 1);
    sm->spec = spec;
    sm->id = id;
    sm->q = q;
    sm->work = *work;
    sm->warps_per_block = (work->threads_per_block + spec->device.warp_size - 1) /
                          spec->device.warp_size;
    sm->n_slots = spec->sm.max_threads / spec->device.warp_size;
    g_assert (sm->n_slots <= SM_MAX_WARPS);
    g_assert (work->max_blocks * sm->warps_per_block <= sm->n_slots);
    sm->warps = g_new0 (Warp, sm->n_slots);
    sm->cold = g_new0 (WarpCold, sm->n_slots);
    sm->slot_used = g_new0 (gboolean, sm->n_slots);
    sm->pos = g_new0 (int, sm->n_slots);
    sm->blocks = g_new0 (Block, work->max_blocks);
    for (int i = 0; i < work->max_blocks; i++) {
        sm->blocks[i].slots = g_new0 (int, sm->warps_per_block);
        sm->blocks[i].mirror_id = g_new0 (guint64, MAX (work->n_mirrors, 1));
    }
    g_assert (work->n_mirrors == 0 || work->open_mirror != NULL);
    sm->mirror = g_new0 (InstrStream *,
                         (gsize) sm->n_slots * (gsize) MAX (work->n_mirrors, 1));
    sm->n_sp = MIN (spec->sm.sub_partitions, MAX_SP);
    sm->rf = (RegfileShape) { MIN (spec->regfile.banks, REGFILE_MAX_BANKS),
                         CLAMP (spec->regfile.reuse_entries, 1, REGFILE_MAX_ENTRIES) };
    sm->tick_at = CYCLE_NEVER;
    for (int i = 0; i < sm->n_sp; i++) {
        sm->sp[i].warps = g_new0 (Warp *, sm->n_slots);
        sm->sp[i].open = g_new0 (guint8, sm->n_slots);
        sm->sp_tick_at[i] = CYCLE_NEVER;
        pipe_init (&sm->sp[i].pipes, spec);
        regfile_cache_init (&sm->sp[i].rf);
        sched_init (&sm->sp[i].sched);
    }
    sm->lg = lsu_new (spec->mem.lg_queue_depth, q, mem, id, wake_all, sm);
    sm->mio = lsu_new (spec->mem.mio_queue_depth, q, mem, id, wake_all, sm);
    sm->mem = mem;
    sm->icache = icache_new (&spec->fetch, sm->n_sp);
    if (work->n_mirrors > 0)
        lsu_set_hand_over_hook (sm->lg, mirror_hand_over, sm);
    return sm;
}

void
sm_free (Sm *sm)
{
    if (sm == NULL)
        return;
    for (int s = 0; s < sm->n_slots; s++)
        if (sm->slot_used[s]) {
            warp_clear (&sm->warps[s]);
            close_mirrors (sm, s);
        }
    for (int i = 0; i < sm->work.max_blocks; i++) {
        g_free (sm->blocks[i].slots);
        g_free (sm->blocks[i].mirror_id);
    }
    g_free (sm->mirror);
    for (int i = 0; i < sm->n_sp; i++) {
        g_free (sm->sp[i].warps);
        g_free (sm->sp[i].open);
    }
    lsu_free (sm->lg);
    lsu_free (sm->mio);
    g_free (sm->blocks);
    g_free (sm->slot_used);
    g_free (sm->pos);
    g_free (sm->warps);
    g_free (sm->cold);
    icache_free (sm->icache);
    g_free (sm);
}

void
sm_set_issue_hook (Sm *sm, SmIssueHook hook, void *ctx)
{
    sm->hook = hook;
    sm->hook_ctx = ctx;
}

void
sm_set_warp_hook (Sm *sm, SmWarpHook hook, void *ctx)
{
    sm->warp_hook = hook;
    sm->warp_hook_ctx = ctx;
}

/* A warp's closed state, passed on with the SM's names for it. */
static void
state_closed (void *ctx, const Warp *w, StallReason reason, Cycle from,
              Cycle to)
{
    Sm *sm = ctx;
    sm->state_hook (sm->state_hook_ctx, sm->id, w->slot,
                    sm->blocks[w->block].id, reason, from, to);
}

void
sm_set_state_hook (Sm *sm, SmStateHook hook, void *ctx)
{
    sm->state_hook = hook;
    sm->state_hook_ctx = ctx;
    sm->observer = (WarpObserver) { state_closed, sm };
    for (int s = 0; s < sm->n_slots; s++)
        if (sm->slot_used[s])
            sm->warps[s].observer = hook != NULL ? &sm->observer : NULL;
}

gboolean
sm_done (const Sm *sm)
{
    return sm->no_more_blocks && sm->resident == 0;
}

void
sm_stats (const Sm *sm, Cycle now, SimStats *out)
{
    *out = sm->stats;
    if (sm->icache != NULL)
        icache_misses (sm->icache, &out->fetch_l0_misses,
                       &out->fetch_l1_misses);
    if (sm->resident > 0 && now > sm->active_from)
        out->active_cycles += now - sm->active_from;
    for (int s = 0; s < sm->n_slots; s++)
        if (sm->slot_used[s])
            warp_count_cycles (&sm->warps[s], now, out);
}

guint64
sm_warp_instructions (const Sm *sm)
{
    return sm->stats.warp_instructions;
}

double
sm_blocks_weight (const Sm *sm)
{
    return sm->blocks_weight;
}

void
sm_each_stream (Sm *sm, void (*fn) (InstrStream *s, void *ctx), void *ctx)
{
    for (int slot = 0; slot < sm->n_slots; slot++) {
        if (!sm->slot_used[slot])
            continue;
        if (sm->warps[slot].stream != NULL)
            fn (sm->warps[slot].stream, ctx);
        for (int m = 0; m < sm->work.n_mirrors; m++)
            if (sm->mirror[slot * sm->work.n_mirrors + m] != NULL)
                fn (sm->mirror[slot * sm->work.n_mirrors + m], ctx);
    }
}

double
sm_mirror_weight (const Sm *sm)
{
    return sm->mirror_weight;
}
