/*
 * test-sm.c -- the SM core: warps, schedulers, scoreboard, pipes,
 * barriers, stall accounting, on scripted instruction streams with the
 * fixed-latency memory stand-in.
 *
 * Every expectation is a hand calculation written beside it.  The GPU is
 * the a100 preset (FMA latency 4, 16 FP32 lanes per sub-partition: one
 * warp FFMA every 2 cycles) unless a row says otherwise.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "models/preset.h"
#include "sim/evq.h"
#include "sim/icache.h"
#include "sim/memfixed.h"
#include "sim/sm.h"

#define MAX_PROGS 8
#define MAX_LEN 128

typedef struct {
    Instr prog[MAX_PROGS][MAX_LEN];
    gsize len[MAX_PROGS];
    int n_progs;          /* warp k of a block runs program k % n_progs */
    int per_block;        /* if not 0: warp k of block b runs program
                           * b x per_block + k */
    guint64 repeat;
    guint64 blocks;
    guint64 next;
    gboolean unobserved;  /* run without the state hook */
} Work;

typedef struct {
    int slot;
    int sp;
    InstrOp op;
    Cycle at;
} Issue;

/* A closed state interval, as sm_set_state_hook reports it. */
typedef struct {
    int slot;
    StallReason reason;
    Cycle from, to;
} State;

#define MAX_SLOTS 64
#define KEPT_STATES 64

typedef struct {
    SimStats stats;
    guint64 events;
    Cycle end;
    GArray *issues;
    guint64 lifetimes;   /* sum over warps of retire - launch */
    Cycle launched[MAX_SLOTS];
    /* The state hook, checked against the warp hook as they come. */
    gboolean watching;              /* the state hook is set */
    gboolean live[MAX_SLOTS];
    guint64 block_of[MAX_SLOTS];
    Cycle reported_to[MAX_SLOTS];   /* where the slot's last interval ended */
    guint64 state_cycles[STALL_N];  /* the intervals summed by reason */
    guint64 n_states;
    State kept[KEPT_STATES];        /* the first ones, in report order */
} Run;

static Work *
work_new (int n_progs, guint64 repeat, guint64 blocks)
{
    Work *w = g_new0 (Work, 1);
    w->n_progs = n_progs;
    w->repeat = repeat;
    w->blocks = blocks;
    return w;
}

static gboolean
next_block (void *ctx, int sm, guint64 *block)
{
    (void) sm;
    Work *w = ctx;
    if (w->next == w->blocks)
        return FALSE;
    *block = w->next++;
    return TRUE;
}

static InstrStream *
open_warp (void *ctx, guint64 block, int warp)
{
    Work *w = ctx;
    int p = w->per_block ? (int) block * w->per_block + warp
                         : warp % w->n_progs;
    return instr_array_stream_new (w->prog[p], w->len[p], w->repeat);
}

static void
record (void *ctx, int sm, int sp, int slot, guint64 block, const Instr *in,
        Cycle now)
{
    Issue i;
    memset (&i, 0, sizeof i);  /* padding too: runs are compared bytewise */
    i.slot = slot;
    i.sp = sp;
    i.op = (InstrOp) in->op;
    i.at = now;
    (void) sm;
    (void) block;
    g_array_append_val ((GArray *) ctx, i);
}

static void
lifetime (void *ctx, int sm, int slot, guint64 block, gboolean retired,
          Cycle now)
{
    Run *r = ctx;
    (void) sm;
    cr_assert_lt (slot, MAX_SLOTS);
    if (retired) {
        r->lifetimes += now - r->launched[slot];
        /* The warp's last interval closed at its retirement, not before. */
        cr_assert (r->live[slot]);
        cr_assert (!r->watching || r->reported_to[slot] == now, "slot %d retires at %"
                      G_GUINT64_FORMAT ", its intervals end at %"
                      G_GUINT64_FORMAT, slot, now, r->reported_to[slot]);
        r->live[slot] = FALSE;
    } else {
        cr_assert (!r->live[slot]);
        r->launched[slot] = now;
        r->live[slot] = TRUE;
        r->block_of[slot] = block;
        r->reported_to[slot] = now;
    }
}

/* Each interval of a warp starts where its last one (or its launch)
 * ended, is not empty, and names the warp's block. */
static void
state (void *ctx, int sm, int slot, guint64 block, StallReason reason,
       Cycle from, Cycle to)
{
    Run *r = ctx;
    (void) sm;
    cr_assert_lt (slot, MAX_SLOTS);
    cr_assert (r->live[slot], "slot %d reports a state while not resident",
               slot);
    cr_assert_eq (block, r->block_of[slot]);
    cr_assert_eq (from, r->reported_to[slot], "slot %d: an interval from %"
                  G_GUINT64_FORMAT " after one ending at %" G_GUINT64_FORMAT,
                  slot, from, r->reported_to[slot]);
    cr_assert_gt (to, from, "slot %d: an empty interval at %" G_GUINT64_FORMAT,
                  slot, from);
    cr_assert_lt ((unsigned) reason, STALL_N);
    r->reported_to[slot] = to;
    r->state_cycles[reason] += to - from;
    if (r->n_states < KEPT_STATES)
        r->kept[r->n_states] = (State) { slot, reason, from, to };
    r->n_states++;
}

/* Run 'work' on one SM of 'gpu' (with 'sets'), 'threads' per block,
 * 'max_blocks' resident, global/shared memory latencies 'glat'/'slat'. */
static void
run (const char *gpu, const char *const *sets, Work *work, int threads,
     int max_blocks, Cycle glat, Cycle slat, Run *out)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = preset_load (gpu, NULL, sets, &error);
    cr_assert_not_null (preset, "%s", error ? error->message : "");
    g_autoptr (EvqQueue) q = evq_new ();
    g_autoptr (MemSys) mem = memfixed_new (q, glat, slat);
    SmWorkload wl = { .threads_per_block = threads, .max_blocks = max_blocks,
                      .next_block = next_block, .open_warp = open_warp,
                      .ctx = work };
    g_autoptr (Sm) sm = sm_new (preset_spec (preset), 0, q, mem, &wl);
    memset (out, 0, sizeof *out);
    out->issues = g_array_new (FALSE, FALSE, sizeof (Issue));
    sm_set_issue_hook (sm, record, out->issues);
    sm_set_warp_hook (sm, lifetime, out);
    out->watching = !work->unobserved;
    if (out->watching)
        sm_set_state_hook (sm, state, out);
    work->next = 0;
    sm_start (sm, 0);
    evq_run (q);
    cr_assert (sm_done (sm));
    sm_stats (sm, evq_now (q), &out->stats);
    /* Every run: the reported intervals add up, reason by reason, to
     * what the warps charged (warp.c, an independent sum). */
    for (int k = 0; k < STALL_N && !work->unobserved; k++)
        cr_assert_eq (out->state_cycles[k], out->stats.warp_cycles[k],
                      "%s: intervals sum to %" G_GUINT64_FORMAT ", the "
                      "stats say %" G_GUINT64_FORMAT, stats_stall_name (k),
                      out->state_cycles[k], out->stats.warp_cycles[k]);
    out->events = evq_processed (q);
    out->end = evq_now (q);
}

static Instr *
add (Work *w, int prog, InstrOp op, int dst, int s0, int s1, int s2)
{
    cr_assert_lt (w->len[prog], MAX_LEN);
    Instr *in = &w->prog[prog][w->len[prog]++];
    instr_init (in, op);
    in->dst = (guint8) dst;
    in->src[0] = (guint8) s0;
    in->src[1] = (guint8) s1;
    in->src[2] = (guint8) s2;
    if (op == INSTR_LDG || op == INSTR_STG || op == INSTR_LDS ||
        op == INSTR_STS) {
        in->width = 4;
        in->addr_mode = INSTR_ADDR_STRIDE;
        in->addr_base = 0x10000;
        in->addr_stride = 4;
    }
    return in;
}

#define NR INSTR_NO_REG

static guint64
total_cycles (const SimStats *s)
{
    guint64 t = 0;
    for (int r = 0; r < STALL_N; r++)
        t += s->warp_cycles[r];
    return t;
}

/* ------------------------------------------------------------------ */
/* Dependent and independent arithmetic                                */

/* One warp, N dependent FFMAs (R0 = R0 * R1 + R2), then EXIT.  FFMA k
 * issues at 4k; EXIT, which depends on nothing, one cycle after the
 * last; the warp retires a cycle after that: N x 4 - 4 + 2 cycles. */
Test (sm, dependent_ffma_chain)
{
    const int n = 100;
    const int lat[] = { 4, 6 };
    for (int i = 0; i < 2; i++) {
        g_autofree char *set = g_strdup_printf ("pipe.fma_latency_cycles=%d",
                                                lat[i]);
        const char *sets[] = { set, NULL };
        Work *w = work_new (1, 1, 1);
        Run r;
        for (int k = 0; k < n; k++)
            add (w, 0, INSTR_FFMA, 0, 0, 1, 2);
        run ("a100", sets, w, 32, 1, 10, 10, &r);
        cr_assert_eq (r.stats.cycles, (Cycle) (n * lat[i] - lat[i] + 2),
                      "latency %d: %" G_GUINT64_FORMAT " cycles", lat[i],
                      r.stats.cycles);
        cr_assert_eq (r.stats.warp_cycles[STALL_SELECTED], (guint64) n + 1);
        cr_assert_eq (r.stats.warp_cycles[STALL_WAIT],
                      (guint64) (n - 1) * (lat[i] - 1));
        g_array_free (r.issues, TRUE);
        g_free (w);
    }
}

/* The same chain timed by compiler control fields instead: stall count
 * = the latency, no scoreboard.  The last FFMA's stall count holds the
 * EXIT too: N x 4 + 1. */
Test (sm, dependent_chain_by_stall_counts)
{
    const int n = 50;
    Work *w = work_new (1, 1, 1);
    Run r;
    for (int k = 0; k < n; k++) {
        Instr *in = add (w, 0, INSTR_FFMA, 0, 0, 1, 2);
        in->ctrl = 1;
        in->stall = 4;
    }
    run ("a100", NULL, w, 32, 1, 10, 10, &r);
    cr_assert_eq (r.stats.cycles, (Cycle) (n * 4 + 1));
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* Issue rate per sub-partition for a stream of independent instructions
 * from 8 warps per sub-partition (32 warps: one block of 1024).  Their
 * sources, R1 and R2 (one per register bank, the presets have 2) and
 * RZ, never hold the read ports for more than a cycle: the pipes set
 * the rate. */
/* Run 'w' as 1024-thread blocks on 'gpu': warp instructions per cycle
 * per sub-partition, and (if 'dispatch' is set) the dispatch_stall
 * cycles per issue.  Frees 'w'. */
static double
sp_rate (const char *gpu, Work *w, double *dispatch)
{
    Run r;
    run (gpu, NULL, w, 1024, 1, 10, 10, &r);
    double per_sp = (double) r.stats.warp_instructions / 4.0 /
                    (double) r.stats.cycles;
    if (dispatch != NULL)
        *dispatch = stats_per_issue (&r.stats, STALL_DISPATCH);
    g_array_free (r.issues, TRUE);
    g_free (w);
    return per_sp;
}

static double
rate (const char *gpu, InstrOp a, InstrOp b, guint64 repeat)
{
    Work *w = work_new (1, repeat, 1);
    for (int k = 0; k < 8; k++)
        add (w, 0, k % 2 ? b : a, 10 + k, 1, 2, NR);
    return sp_rate (gpu, w, NULL);
}

Test (sm, independent_ffma_rate)
{
    /* A100: 16 FP32 lanes per sub-partition: 32 / 16 = one warp FFMA
     * every 2 cycles. */
    cr_assert_float_eq (rate ("a100", INSTR_FFMA, INSTR_FFMA, 200), 0.5, 0.01);
    /* A6000: 32 FP32 lanes (fmaheavy + fmalite): one per cycle, the
     * issue limit. */
    cr_assert_float_eq (rate ("a6000", INSTR_FFMA, INSTR_FFMA, 200), 1.0, 0.01);
    /* A100, FFMA and IADD3 alternating: FMA and ALU pipes each take one
     * every 2 cycles; together one per cycle, the issue limit. */
    cr_assert_float_eq (rate ("a100", INSTR_FFMA, INSTR_IADD3, 200), 1.0, 0.01);
    /* A6000, the same mix: integer ops share the lite half, so FFMA and
     * IADD3 split 2 units of 16 lanes: one per cycle again. */
    cr_assert_float_eq (rate ("a6000", INSTR_FFMA, INSTR_IADD3, 200), 1.0,
                        0.01);
    /* IMAD only on fmaheavy: one every 2 cycles even on the A6000. */
    cr_assert_float_eq (rate ("a6000", INSTR_IMAD, INSTR_IMAD, 200), 0.5, 0.01);
}

/* Independent FFMAs whose operands collide in a register bank (the
 * presets: 2 banks, one read port each; regfile.h), 8 warps per
 * sub-partition as in rate().  Returns FFMAs per cycle per
 * sub-partition and the dispatch_stall cycles per issue. */
static double
conflict_rate (const char *gpu, int a, int b, int c, guint8 reuse,
               double *dispatch)
{
    Work *w = work_new (1, 200, 1);
    for (int k = 0; k < 8; k++)
        add (w, 0, INSTR_FFMA, 10 + k, a, b, c)->reuse = reuse;
    return sp_rate (gpu, w, dispatch);
}

Test (sm, register_bank_conflicts)
{
    double dispatch;
    /* R2, R4 in bank 0, R1 in bank 1: bank 0's port reads twice, so a
     * sub-partition starts an FFMA every 2 cycles.  A6000: 0.5, down
     * from the pipes' 1.0 (independent_ffma_rate), the lost cycles
     * charged as dispatch_stall. */
    cr_assert_float_eq (conflict_rate ("a6000", 2, 4, 1, 0, &dispatch), 0.5,
                        0.01);
    cr_assert_gt (dispatch, 0.0);
    /* A100: the FMA pipe takes one every 2 cycles anyway: 0.5, and the
     * ports never hold an FFMA the pipe would have taken. */
    cr_assert_float_eq (conflict_rate ("a100", 2, 4, 1, 0, &dispatch), 0.5,
                        0.01);
    cr_assert_eq (dispatch, 0.0);
    /* R1, R3, R5, all in bank 1: 3 reads, one FFMA every 3 cycles on
     * both: 1/3. */
    cr_assert_float_eq (conflict_rate ("a6000", 1, 3, 5, 0, &dispatch),
                        1.0 / 3.0, 0.01);
    cr_assert_float_eq (conflict_rate ("a100", 1, 3, 5, 0, &dispatch),
                        1.0 / 3.0, 0.01);
    /* R2.reuse, R4, R1: the scheduler (CGGTY) keeps issuing one warp, so
     * after each warp's first FFMA (2 cycles) R2 comes from the reuse
     * cache and R4, R1 take one port each: per sub-partition 8 warps x
     * 1600 FFMAs in 8 x 1601 cycles (plus the last warp's tail), 1.0
     * to within 0.01. */
    cr_assert_float_eq (conflict_rate ("a6000", 2, 4, 1, 1u << 0, &dispatch),
                        1.0, 0.01);
}

Test (sm, sfu_interval)
{
    /* 4 MUFU lanes per sub-partition: 32 / 4 = one warp MUFU every 8
     * cycles. */
    cr_assert_float_eq (rate ("a100", INSTR_MUFU, INSTR_MUFU, 40), 1.0 / 8,
                        0.005);
}

/* A pipe whose lanes do not divide the warp takes whole passes: 12 ALU
 * lanes serve 12 + 12 + 8 threads, ceil (32 / 12) = 3 cycles a warp
 * instruction.  Independent IADD3s (the A100's ALU pipe, its own: not
 * the FMA's), 8 warps per sub-partition as in rate(): one every 3
 * cycles, 1/3. */
Test (sm, a_pipe_takes_whole_passes_of_its_lanes)
{
    const char *sets[] = { "pipe.alu_lanes=12", NULL };
    Work *w = work_new (1, 100, 1);
    Run r;
    for (int k = 0; k < 8; k++)
        add (w, 0, INSTR_IADD3, 10 + k, 1, 2, NR);
    run ("a100", sets, w, 1024, 1, 10, 10, &r);
    double per_sp = (double) r.stats.warp_instructions / 4.0 /
                    (double) r.stats.cycles;
    cr_assert_float_eq (per_sp, 1.0 / 3.0, 0.01, "%.4f a cycle", per_sp);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* ------------------------------------------------------------------ */
/* Latency hiding: Little's law                                        */

/* Each warp loops { LDG R4 <- [R2]; FFMA R5 = R4 * R4 + R5 } with a
 * memory latency of L = 40.  One warp issues LDG at t, FFMA at t + L and
 * the next LDG at t + L + 1: 2 instructions per L + 1 cycles.  W warps
 * per sub-partition overlap: 2W / 41 per cycle, until the LG queue's one
 * request per cycle per SM caps the SM at 1 LDG + 1 FFMA per cycle, that
 * is 0.5 per sub-partition. */
static double
loaduse_rate (int warps_per_sp)
{
    Work *w = work_new (1, 300, 1);
    Run r;
    add (w, 0, INSTR_LDG, 4, 2, NR, NR);
    add (w, 0, INSTR_FFMA, 5, 4, 4, 5);
    run ("a100", NULL, w, 128 * warps_per_sp, 1, 40, 10, &r);
    double per_sp = (double) r.stats.warp_instructions / 4.0 /
                    (double) r.stats.cycles;
    g_array_free (r.issues, TRUE);
    g_free (w);
    return per_sp;
}

Test (sm, latency_hiding_follows_littles_law)
{
    const int warps[] = { 1, 2, 4, 8, 16 };
    for (guint i = 0; i < G_N_ELEMENTS (warps); i++) {
        double want = MIN (2.0 * warps[i] / 41.0, 0.5);
        double got = loaduse_rate (warps[i]);
        cr_expect (fabs (got - want) <= 0.05 * want, "%d warps per "
                   "sub-partition: %.4f instructions per cycle, Little's law "
                   "says %.4f", warps[i], got, want);
    }
}

/* A single warp waiting 1000 cycles on a load costs a handful of events,
 * not 1000 (DESIGN.md principle 3). */
Test (sm, idle_time_costs_no_events)
{
    Work *w = work_new (1, 1, 1);
    Run r;
    add (w, 0, INSTR_LDG, 4, 2, NR, NR);
    add (w, 0, INSTR_FFMA, 5, 4, 4, 5);
    run ("a100", NULL, w, 32, 1, 1000, 10, &r);
    /* LDG at 0, FFMA at 1000, EXIT at 1001, retire at 1002. */
    cr_assert_eq (r.stats.cycles, 1002);
    cr_assert_eq (r.stats.warp_cycles[STALL_LONG_SCOREBOARD], 999);
    cr_assert_leq (r.events, 10, "%" G_GUINT64_FORMAT " events", r.events);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* ------------------------------------------------------------------ */
/* Barriers                                                            */

/* Four warps, one per sub-partition; warp k first runs 10k dependent
 * FFMAs, then BAR, then one FFMA.  Warp k reaches BAR at 4(10k - 1) + 1
 * (warp 0 at 0): 0, 37, 77, 117.  All leave at 118. */
Test (sm, barrier_releases_at_the_last_arrival)
{
    Work *w = work_new (4, 1, 1);
    Run r;
    for (int p = 0; p < 4; p++) {
        for (int k = 0; k < 10 * p; k++)
            add (w, p, INSTR_FFMA, 0, 0, 1, 2);
        add (w, p, INSTR_BAR, NR, NR, NR, NR);
        add (w, p, INSTR_FFMA, 7, 1, 2, 3);
    }
    run ("a100", NULL, w, 128, 1, 10, 10, &r);
    int after_bar = 0;
    for (guint i = 0; i < r.issues->len; i++) {
        const Issue *is = &g_array_index (r.issues, Issue, i);
        if (is->op == INSTR_FFMA && is->at >= 118) {
            cr_expect_eq (is->at, 118, "slot %d issued its post-barrier FFMA "
                          "at %" G_GUINT64_FORMAT, is->slot, is->at);
            after_bar++;
        }
    }
    cr_assert_eq (after_bar, 4);
    /* Barrier cycles: 117 + 80 + 40 + 0. */
    cr_assert_eq (r.stats.warp_cycles[STALL_BARRIER], 237);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* ------------------------------------------------------------------ */
/* Scheduler policies                                                  */

/* The slots of the run's issues, in issue order, as digits. */
static GString *
issue_slots (const Run *r)
{
    GString *s = g_string_new (NULL);
    for (guint i = 0; i < r->issues->len; i++)
        g_string_append_printf (s, "%d", g_array_index (r->issues, Issue, i).slot);
    return s;
}

/* Three warps on one sub-partition, each 3 independent MOVs and EXIT,
 * with a 32-lane ALU so the pipe never holds anyone back. */
static GString *
order (const char *policy)
{
    g_autofree char *set = g_strdup_printf ("sched.policy=%s", policy);
    /* One scheduler: its 16 FP32 lanes are the SM's. */
    const char *sets[] = { "sm.sub_partitions=1", "sm.fp32_lanes=16",
                           "pipe.alu_lanes=32", set, NULL };
    Work *w = work_new (1, 1, 1);
    Run r;
    for (int k = 0; k < 3; k++)
        add (w, 0, INSTR_MOV, 10 + k, NR, NR, NR);
    run ("a100", sets, w, 96, 1, 10, 10, &r);
    GString *s = issue_slots (&r);
    g_array_free (r.issues, TRUE);
    g_free (w);
    return s;
}

Test (sm, scheduler_policies)
{
    g_autoptr (GString) lrr = order ("lrr");
    g_autoptr (GString) gto = order ("gto");
    g_autoptr (GString) cggty = order ("cggty");
    /* Round robin: 0 1 2 0 1 2 ... */
    cr_assert_str_eq (lrr->str, "012012012012");
    /* Greedy, then the oldest: each warp to its EXIT in age order. */
    cr_assert_str_eq (gto->str, "000011112222");
    /* Greedy, then the youngest. */
    cr_assert_str_eq (cggty->str, "222211110000");
}

Test (sm, yield_bit_hands_over)
{
    const char *sets[] = { "sm.sub_partitions=1", "sm.fp32_lanes=16",
                           "pipe.alu_lanes=32", "sched.policy=cggty", NULL };
    Work *w = work_new (1, 1, 1);
    Run r;
    for (int k = 0; k < 3; k++) {
        Instr *in = add (w, 0, INSTR_MOV, 10 + k, NR, NR, NR);
        in->ctrl = 1;
        in->stall = 1;
        in->yield = k == 0;
    }
    run ("a100", sets, w, 64, 1, 10, 10, &r);
    GString *s = issue_slots (&r);
    /* Youngest (1) issues its yielding MOV, hands over to 0, which
     * yields too and hands back; then greedy. */
    cr_assert_str_eq (s->str, "10111000");
    g_string_free (s, TRUE);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* ------------------------------------------------------------------ */
/* Accounting                                                          */

/* A mixed kernel of several blocks: the states the accounting charged
 * sum, over all warps, to their lifetimes as the SM's launch and retire
 * events report them; 'selected' counts the issues. */
Test (sm, stall_totals_balance)
{
    Work *w = work_new (2, 20, 6);
    Run r;
    add (w, 0, INSTR_LDG, 4, 2, NR, NR);
    add (w, 0, INSTR_FFMA, 5, 4, 4, 5);
    add (w, 0, INSTR_STS, NR, 5, 6, NR);
    add (w, 0, INSTR_BAR, NR, NR, NR, NR);
    add (w, 0, INSTR_LDS, 8, 6, NR, NR);
    add (w, 0, INSTR_FFMA, 9, 8, 8, 9);
    add (w, 1, INSTR_IMAD, 3, 3, 1, 3);
    add (w, 1, INSTR_STS, NR, 3, 6, NR);
    add (w, 1, INSTR_BAR, NR, NR, NR, NR);
    add (w, 1, INSTR_MUFU, 7, 3, NR, NR);
    add (w, 1, INSTR_STG, NR, 7, 2, NR);
    run ("a100", NULL, w, 256, 2, 300, 23, &r);
    cr_assert_eq (r.stats.warp_cycles[STALL_SELECTED],
                  r.stats.warp_instructions);
    cr_assert_eq (r.stats.warps_done, 6 * 8);
    cr_assert_eq (r.stats.blocks_done, 6);
    cr_assert_eq (total_cycles (&r.stats), r.lifetimes,
                  "states sum to %" G_GUINT64_FORMAT ", lifetimes to %"
                  G_GUINT64_FORMAT, total_cycles (&r.stats), r.lifetimes);
    /* Every kind of wait in this kernel shows up. */
    cr_assert_gt (r.stats.warp_cycles[STALL_LONG_SCOREBOARD], 0);
    cr_assert_gt (r.stats.warp_cycles[STALL_SHORT_SCOREBOARD], 0);
    cr_assert_gt (r.stats.warp_cycles[STALL_BARRIER], 0);
    cr_assert_gt (r.stats.warp_cycles[STALL_DRAIN], 0);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* Two programs of 6 blocks that between them wait in every way, throttles
 * included. */
static Work *
every_wait (void)
{
    Work *w = work_new (2, 20, 6);
    add (w, 0, INSTR_LDG, 4, 2, NR, NR);
    add (w, 0, INSTR_LDG, 10, 2, NR, NR);
    add (w, 0, INSTR_FFMA, 5, 4, 4, 5);
    add (w, 0, INSTR_STS, NR, 5, 6, NR);
    add (w, 0, INSTR_BAR, NR, NR, NR, NR);
    add (w, 0, INSTR_LDS, 8, 6, NR, NR);
    add (w, 0, INSTR_FFMA, 9, 8, 8, 9);
    add (w, 0, INSTR_BRA, NR, NR, NR, NR);
    add (w, 1, INSTR_IMAD, 3, 3, 1, 3);
    add (w, 1, INSTR_STS, NR, 3, 6, NR);
    add (w, 1, INSTR_BAR, NR, NR, NR, NR);
    add (w, 1, INSTR_MUFU, 7, 3, NR, NR);
    add (w, 1, INSTR_FFMA, 11, 7, 7, 11);
    add (w, 1, INSTR_STG, NR, 7, 2, NR);
    return w;
}

/* every_wait's 6 blocks all ran, and the intervals reported sum to the
 * warps' lifetimes and to their resident cycles. */
static void
assert_tiled (const Run *r)
{
    cr_assert_eq (r->stats.blocks_done, 6);
    guint64 sum = 0;
    for (int k = 0; k < STALL_N; k++)
        sum += r->state_cycles[k];
    cr_assert_eq (sum, r->lifetimes, "intervals sum to %" G_GUINT64_FORMAT
                  ", lifetimes to %" G_GUINT64_FORMAT, sum, r->lifetimes);
    cr_assert_eq (sum, r->stats.resident_warp_cycles);
}

/* The state hook's intervals (checked as they come by state() and
 * lifetime(): contiguous per warp from launch to retirement, none empty)
 * sum to the warps' lifetimes, and by reason to the stats (run()); here
 * on a kernel with every kind of wait, throttles included, and warp
 * slots reused by later blocks. */
Test (sm, state_intervals_tile_residency)
{
    Work *w = every_wait ();
    Run r;
    /* 3 blocks of 512 threads resident out of 6: slots are reused. */
    run ("a6000", NULL, w, 512, 3, 300, 23, &r);
    assert_tiled (&r);
    /* Not vacuous: the waits of this kernel are all there. */
    const StallReason seen[] = {
        STALL_SELECTED, STALL_NOT_SELECTED, STALL_WAIT,
        STALL_LONG_SCOREBOARD, STALL_SHORT_SCOREBOARD, STALL_BARRIER,
        STALL_BRANCH, STALL_DRAIN
    };
    for (guint k = 0; k < G_N_ELEMENTS (seen); k++)
        cr_assert_gt (r.state_cycles[seen[k]], 0, "no %s",
                      stats_stall_name (seen[k]));
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* The same with instruction fetch modelled (icache.h): each instruction
 * a line of its own in an L0 of 4 lines (the two programs 8 and 6 lines
 * long, 4 more asked for ahead), so warps wait for lines at launch, at
 * the barrier and between any two instructions; the intervals still
 * tile each warp's residency, and the waits for lines are there. */
Test (sm, state_intervals_tile_residency_with_fetch)
{
    const char *sets[] = { "fetch.l0_bytes=512", "fetch.l1_bytes=0", NULL };
    Work *w = every_wait ();
    Run r;
    for (int p = 0; p < 2; p++)
        for (gsize k = 0; k < w->len[p]; k++) {
            w->prog[p][k].has_pc = 1;
            w->prog[p][k].pc = (guint32) (p * 64 + k) * ICACHE_LINE_BYTES;
        }
    run ("a6000", sets, w, 512, 3, 300, 23, &r);
    assert_tiled (&r);
    cr_assert_gt (r.state_cycles[STALL_NO_INSTRUCTION], 0);
    cr_assert_gt (r.state_cycles[STALL_BARRIER], 0);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* One warp, a chain through each kind of wait, every interval derived
 * by hand.  a100 preset: FFMA latency 4, MUFU 20 (sfu_latency_cycles),
 * branch_cycles 5; global memory 100 cycles (the stand-in).
 *   i0 LDG  R4 <- [R2]         issues at 0
 *   i1 FFMA R5 = R4 R4 R5      R4 returns at 100: long_scoreboard 1..100
 *   i2 MUFU R7 = f(R5)         R5 ready at 104: wait 101..104
 *   i3 FFMA R8 = R7 R7 R8      R7 returns at 124: short_scoreboard 105..124
 *   i4 BRA                     ready at once: issues at 125
 *   i5 EXIT                    branch resolves at 130: branch 126..130
 * and the warp retires at 131 (no load in flight).  i3's and i4's
 * 'selected' cycles are two intervals: the zero-length 'wait' at 125
 * between them is not reported. */
Test (sm, state_intervals_by_hand)
{
    Work *w = work_new (1, 1, 1);
    Run r;
    add (w, 0, INSTR_LDG, 4, 2, NR, NR);
    add (w, 0, INSTR_FFMA, 5, 4, 4, 5);
    add (w, 0, INSTR_MUFU, 7, 5, NR, NR);
    add (w, 0, INSTR_FFMA, 8, 7, 7, 8);
    add (w, 0, INSTR_BRA, NR, NR, NR, NR);
    run ("a100", NULL, w, 32, 1, 100, 23, &r);
    const State want[] = {
        { 0, STALL_SELECTED, 0, 1 },
        { 0, STALL_LONG_SCOREBOARD, 1, 100 },
        { 0, STALL_SELECTED, 100, 101 },
        { 0, STALL_WAIT, 101, 104 },
        { 0, STALL_SELECTED, 104, 105 },
        { 0, STALL_SHORT_SCOREBOARD, 105, 124 },
        { 0, STALL_SELECTED, 124, 125 },
        { 0, STALL_SELECTED, 125, 126 },
        { 0, STALL_BRANCH, 126, 130 },
        { 0, STALL_SELECTED, 130, 131 },
    };
    for (guint k = 0; k < MIN (r.n_states, G_N_ELEMENTS (want)); k++) {
        const State *g = &r.kept[k];
        cr_expect (g->slot == want[k].slot && g->reason == want[k].reason &&
                   g->from == want[k].from && g->to == want[k].to,
                   "interval %u: slot %d %s [%" G_GUINT64_FORMAT ", %"
                   G_GUINT64_FORMAT "), expected %s [%" G_GUINT64_FORMAT ", %"
                   G_GUINT64_FORMAT ")", k, g->slot,
                   stats_stall_name (g->reason), g->from, g->to,
                   stats_stall_name (want[k].reason), want[k].from,
                   want[k].to);
    }
    cr_assert_eq (r.n_states, G_N_ELEMENTS (want));
    cr_assert_eq (r.stats.cycles, 131);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* Watching changes nothing: the same run with and without the state
 * hook issues the same instructions at the same cycles and counts the
 * same. */
Test (sm, state_hook_changes_nothing)
{
    Run a, b;
    for (int i = 0; i < 2; i++) {
        Work *w = work_new (2, 30, 5);
        w->unobserved = i == 1;
        add (w, 0, INSTR_LDG, 4, 2, NR, NR);
        add (w, 0, INSTR_FFMA, 5, 4, 4, 5);
        add (w, 0, INSTR_BAR, NR, NR, NR, NR);
        add (w, 1, INSTR_LDS, 4, 2, NR, NR);
        add (w, 1, INSTR_MUFU, 5, 4, NR, NR);
        add (w, 1, INSTR_BAR, NR, NR, NR, NR);
        run ("a6000", NULL, w, 512, 3, 200, 23, i == 0 ? &a : &b);
        g_free (w);
    }
    cr_assert_gt (a.n_states, 0);
    cr_assert_eq (b.n_states, 0);
    cr_assert_eq (memcmp (&a.stats, &b.stats, sizeof a.stats), 0);
    cr_assert_eq (a.issues->len, b.issues->len);
    cr_assert_eq (memcmp (a.issues->data, b.issues->data,
                          a.issues->len * sizeof (Issue)), 0);
    cr_assert_eq (a.events, b.events);
    g_array_free (a.issues, TRUE);
    g_array_free (b.issues, TRUE);
}

/* Same inputs, same bytes out. */
Test (sm, deterministic)
{
    Run a, b;
    for (int i = 0; i < 2; i++) {
        Work *w = work_new (2, 30, 5);
        add (w, 0, INSTR_LDG, 4, 2, NR, NR);
        add (w, 0, INSTR_FFMA, 5, 4, 4, 5);
        add (w, 0, INSTR_BAR, NR, NR, NR, NR);
        add (w, 1, INSTR_LDS, 4, 2, NR, NR);
        add (w, 1, INSTR_FFMA, 5, 4, 4, 5);
        add (w, 1, INSTR_BAR, NR, NR, NR, NR);
        run ("a6000", NULL, w, 512, 3, 200, 23, i == 0 ? &a : &b);
        g_free (w);
    }
    cr_assert_eq (memcmp (&a.stats, &b.stats, sizeof a.stats), 0);
    cr_assert_eq (a.issues->len, b.issues->len);
    cr_assert_eq (memcmp (a.issues->data, b.issues->data,
                          a.issues->len * sizeof (Issue)), 0);
    cr_assert_eq (a.events, b.events);
    g_array_free (a.issues, TRUE);
    g_array_free (b.issues, TRUE);
}

/* The memory-issue rate (a6000 preset: Huerta et al. on the RTX A6000,
 * 5 memory instructions back to back, then one every 2 cycles while
 * another sub-partition issues them too).  Warps of 20 independent
 * shared loads, a queue deep enough never to fill.  One warp alone
 * issues them a cycle apart: 0, 1, ... 19.  Four, one a sub-partition,
 * each issue 5 a cycle apart, then one every 2 cycles: load n (from 0)
 * at n for n < 5 and at 4 + 2 (n - 4) after, the last at 34. */
static void
memory_issues (int warps, Cycle *at)
{
    const char *sets[] = { "mem.mio_queue_depth=1024", NULL };
    Work *w = work_new (1, 1, 1);
    Run r;
    for (int k = 0; k < 20; k++)
        add (w, 0, INSTR_LDS, 10 + k, 2, NR, NR);
    run ("a6000", sets, w, 32 * warps, 1, 200, 23, &r);
    int seen[4] = { 0 };
    for (guint i = 0; i < r.issues->len; i++) {
        const Issue *is = &g_array_index (r.issues, Issue, i);
        if (is->op == INSTR_LDS && seen[is->sp] < 20)
            at[is->sp * 20 + seen[is->sp]++] = is->at;
    }
    for (int sp = 0; sp < warps; sp++)
        cr_assert_eq (seen[sp], 20, "sub-partition %d issued %d loads", sp,
                      seen[sp]);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

Test (sm, memory_issue_rate)
{
    Cycle at[4 * 20];
    memory_issues (1, at);
    for (int n = 0; n < 20; n++)
        cr_expect_eq (at[n], (Cycle) n, "alone, load %d at %" G_GUINT64_FORMAT,
                      n, at[n]);
    memory_issues (4, at);
    for (int sp = 0; sp < 4; sp++)
        for (int n = 0; n < 20; n++) {
            Cycle want = n < 5 ? (Cycle) n : (Cycle) (4 + 2 * (n - 4));
            cr_expect_eq (at[sp * 20 + n], want, "sub-partition %d, load %d at %"
                          G_GUINT64_FORMAT ", not %" G_GUINT64_FORMAT, sp, n,
                          at[sp * 20 + n], want);
        }
}

/* The issue cycles of each sub-partition's memory instructions, up to
 * 20 each, in a run of 'w' (one warp a program, on the a6000, whose
 * queues are made deep enough never to fill); 'n' gets how many. */
static void
memory_issue_times (Work *w, int warps, Cycle at[4][20], int n[4])
{
    const char *sets[] = { "mem.mio_queue_depth=1024",
                           "mem.lg_queue_depth=1024", NULL };
    Run r;
    run ("a6000", sets, w, 32 * warps, 1, 200, 23, &r);
    memset (n, 0, 4 * sizeof *n);
    for (guint i = 0; i < r.issues->len; i++) {
        const Issue *is = &g_array_index (r.issues, Issue, i);
        if ((is->op == INSTR_LDS || is->op == INSTR_LDG) && n[is->sp] < 20)
            at[is->sp][n[is->sp]++] = is->at;
    }
    g_array_free (r.issues, TRUE);
}

/* Sub-partition 0: 20 independent loads of 'op'.  Sub-partition 1: 10
 * FFMAs of no register (one a cycle: the a6000's 32 lanes), then
 * 'loads' loads, then 10 FFMAs more: it joins at cycle 10. */
static Work *
joining_work (InstrOp op, int loads)
{
    Work *w = work_new (2, 1, 1);
    for (int k = 0; k < 20; k++)
        add (w, 0, op, 10 + k, 2, NR, NR);
    for (int k = 0; k < 10; k++)
        add (w, 1, INSTR_FFMA, 40 + k, NR, NR, NR);
    for (int k = 0; k < loads; k++)
        add (w, 1, op, 60 + k, 2, NR, NR);
    for (int k = 0; k < 10; k++)
        add (w, 1, INSTR_FFMA, 80 + k, NR, NR, NR);
    return w;
}

/* The rate where one sub-partition joins another that issued alone.
 * Sub-partition 0 issues loads 0-9 at cycles 0-9, alone (no limit).
 * Sub-partition 1 joins at 10 with 20 loads of its own: it has issued
 * no memory instruction, so it issues 5 back to back (10-14), then one
 * every 2 cycles, its load m at 14 + 2 (m - 4), up to load 12 at 30.
 * Sub-partition 0 spent its burst alone and owes at most an interval:
 * its load 10 goes at 10 or 11 (which of the two looks first in cycle
 * 10), then one every 2 cycles, the last (19) at 28 or 29.  That one
 * counts for 2 cycles more; then sub-partition 1 is alone again, and
 * its loads 13-19 go one a cycle, from 31 or 32.  Carrying over all it
 * issued alone (20 cycles' worth), sub-partition 0 would wait until 16
 * for its load 10. */
Test (sm, memory_issue_rate_when_another_joins)
{
    const InstrOp ops[] = { INSTR_LDS, INSTR_LDG };
    for (guint o = 0; o < G_N_ELEMENTS (ops); o++) {
        Work *w = joining_work (ops[o], 20);
        Cycle at[4][20];
        int n[4];
        memory_issue_times (w, 2, at, n);
        g_free (w);
        cr_assert (n[0] == 20 && n[1] == 20, "%s: %d and %d loads",
                   instr_info (ops[o])->name, n[0], n[1]);
        for (int k = 0; k < 10; k++)
            cr_expect_eq (at[0][k], (Cycle) k, "%s: alone, load %d at %"
                          G_GUINT64_FORMAT, instr_info (ops[o])->name, k,
                          at[0][k]);
        cr_expect (at[0][10] == 10 || at[0][10] == 11, "%s: load 10 at %"
                   G_GUINT64_FORMAT, instr_info (ops[o])->name, at[0][10]);
        for (int k = 11; k < 20; k++)
            cr_expect_eq (at[0][k], at[0][10] + 2 * (Cycle) (k - 10),
                          "%s: load %d at %" G_GUINT64_FORMAT,
                          instr_info (ops[o])->name, k, at[0][k]);
        for (int m = 0; m <= 12; m++) {
            Cycle want = m < 5 ? (Cycle) (10 + m) : (Cycle) (14 + 2 * (m - 4));
            cr_expect_eq (at[1][m], want, "%s: joining, load %d at %"
                          G_GUINT64_FORMAT ", not %" G_GUINT64_FORMAT,
                          instr_info (ops[o])->name, m, at[1][m], want);
        }
        cr_expect_eq (at[1][13], at[0][19] + 3, "%s: alone again, load 13 at %"
                      G_GUINT64_FORMAT, instr_info (ops[o])->name, at[1][13]);
        for (int m = 14; m < 20; m++)
            cr_expect_eq (at[1][m], at[1][13] + (Cycle) (m - 13),
                          "%s: alone again, load %d at %" G_GUINT64_FORMAT,
                          instr_info (ops[o])->name, m, at[1][m]);
    }
}

/* One load from another sub-partition holds the rate only while it is
 * recent.  Sub-partition 1 issues a single load at 10.  Sub-partition
 * 0, alone until then (loads 0-9 at 0-9), is held to the rate while
 * that load counts (its cycle and the 2 after it, to 12): its load 10
 * at 10 or 11, load 11 two cycles after; from 13 on it is alone again
 * and issues one a cycle, so its last load (19) goes at 20 or 21.
 * Waiting out its whole debt instead, it would resume only at 16. */
Test (sm, memory_issue_rate_after_a_single_load)
{
    Work *w = joining_work (INSTR_LDS, 1);
    Cycle at[4][20];
    int n[4];
    memory_issue_times (w, 2, at, n);
    g_free (w);
    cr_assert (n[0] == 20 && n[1] == 1, "%d and %d loads", n[0], n[1]);
    cr_expect_eq (at[1][0], 10);
    cr_expect (at[0][10] == 10 || at[0][10] == 11, "load 10 at %"
               G_GUINT64_FORMAT, at[0][10]);
    cr_expect_eq (at[0][11], at[0][10] + 2, "load 11 at %" G_GUINT64_FORMAT,
                  at[0][11]);
    for (int k = 12; k < 20; k++)
        cr_expect_eq (at[0][k], at[0][11] + (Cycle) (k - 11),
                      "load %d at %" G_GUINT64_FORMAT, k, at[0][k]);
    cr_expect_leq (at[0][19], 21);
}

/* A full LG queue holds warps back (lg_throttle): 32 warps issuing only
 * loads, 4 independent ones per iteration (enough in flight that the
 * queue never runs dry), into a 20-deep queue drained one per cycle.
 * 32 warps x 25 iterations x 4 loads = 3200 hand-overs, one per cycle
 * (cycles 0..3199); the last returns at 3219, when its warp, already
 * past EXIT and draining, retires. */
Test (sm, full_queue_throttles)
{
    Work *w = work_new (1, 25, 1);
    Run r;
    for (int k = 0; k < 4; k++)
        add (w, 0, INSTR_LDG, 4 + k, 2, NR, NR);
    run ("a100", NULL, w, 1024, 1, 20, 10, &r);
    cr_assert_gt (r.stats.warp_cycles[STALL_LG_THROTTLE], 0);
    cr_assert_eq (r.stats.cycles, 3219, "%" G_GUINT64_FORMAT " cycles",
                  r.stats.cycles);
    cr_assert_gt (r.stats.warp_cycles[STALL_DRAIN], 0);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* ------------------------------------------------------------------ */
/* Dependences, counters and barriers by hand                          */

/* The issue cycle of the first instruction 'op' of warp slot 'slot'
 * (CYCLE_NEVER: none). */
static Cycle
issued_at (const Run *r, int slot, InstrOp op)
{
    for (guint i = 0; i < r->issues->len; i++) {
        const Issue *is = &g_array_index (r->issues, Issue, i);
        if (is->slot == slot && is->op == op)
            return is->at;
    }
    return CYCLE_NEVER;
}

/* Each of the run's issues at its cycle in 'at', in issue order. */
static void
expect_issue_times (const Run *r, const Cycle *at, guint n)
{
    cr_assert_eq (r->issues->len, n, "%u issues, not %u", r->issues->len, n);
    for (guint k = 0; k < n; k++)
        cr_expect_eq (g_array_index (r->issues, Issue, k).at, at[k],
                      "instruction %u at %" G_GUINT64_FORMAT ", not %"
                      G_GUINT64_FORMAT, k,
                      g_array_index (r->issues, Issue, k).at, at[k]);
}

/* A barrier releases its own block's warps only.  A warp that exits
 * gives up its slot at once, while its block runs on, and a block
 * launched later may take that slot.  a100, 64-thread blocks, 2
 * resident, 3 blocks:
 *   block 0: warp 0 exits at once; warp 1 runs 20 dependent FFMAs
 *            (4 cycles each: some 80), then BAR;
 *   block 1: 5 FFMAs a warp, and retires; block 2 takes its place and
 *            the slot block 0's warp 0 left;
 *   block 2: warp 0 arrives at BAR at once, then an IADD3; warp 1 runs
 *            50 dependent FFMAs (some 200 cycles), then BAR.
 * Block 0's barrier completes when its warp 1 arrives (its warp 0 has
 * exited), near cycle 80; block 2's only when its own warp 1 arrives,
 * past cycle 200.  The IADD3 issues after that BAR, not at block 0's. */
Test (sm, a_barrier_releases_its_own_block_only)
{
    g_autofree Work *w = work_new (6, 1, 3);
    w->per_block = 2;
    add (w, 0, INSTR_EXIT, NR, NR, NR, NR);
    for (int k = 0; k < 20; k++)
        add (w, 1, INSTR_FFMA, 0, 0, 1, 2);
    add (w, 1, INSTR_BAR, NR, NR, NR, NR);
    for (int p = 2; p < 4; p++)
        for (int k = 0; k < 5; k++)
            add (w, p, INSTR_FFMA, 0, 0, 1, 2);
    add (w, 4, INSTR_BAR, NR, NR, NR, NR);
    add (w, 4, INSTR_IADD3, 9, 1, 2, 3);
    for (int k = 0; k < 50; k++)
        add (w, 5, INSTR_FFMA, 0, 0, 1, 2);
    add (w, 5, INSTR_BAR, NR, NR, NR, NR);
    Run r;
    run ("a100", NULL, w, 64, 2, 10, 10, &r);
    Cycle iadd = CYCLE_NEVER, last_bar = 0;
    for (guint i = 0; i < r.issues->len; i++) {
        const Issue *is = &g_array_index (r.issues, Issue, i);
        if (is->op == INSTR_IADD3)
            iadd = is->at;
        if (is->op == INSTR_BAR)
            last_bar = MAX (last_bar, is->at);
    }
    cr_assert_geq (last_bar, 200, "block 2's warp 1 at BAR at %" G_GUINT64_FORMAT,
                   last_bar);
    cr_expect_gt (iadd, last_bar, "IADD3 at %" G_GUINT64_FORMAT ", the last BAR at %"
                  G_GUINT64_FORMAT, iadd, last_bar);
    g_array_free (r.issues, TRUE);
}

/* The scoreboard reads every source, the third too, and every
 * register a wide destination writes (no write may overtake a pending
 * one).  One warp, a100, global memory 100 cycles:
 *   i0 LDG  R5 <- [R2]          issues at 0, R5 back at 100
 *   i1 FFMA R7 = R1 R2 R5       R5 is its third source: at 100
 *   i2 LDG  R9 <- [R2]          at 101, R9 back at 201
 *   i3 MOV  R8x2                writes R8 and R9: waits for R9, at 201
 *   i4 LDG  R253x2 <- [R2]      at 202: R253 and R254 back at 302
 *   i5 FFMA R6 = R1 R2 R254     the run's last register: at 302
 *   EXIT                        at 303; the warp retires at 304.
 * Reading two sources only, i1 would go at 1; checking only a wide
 * destination's first register, i3 at 102. */
Test (sm, scoreboard_reads_every_source_and_destination)
{
    Work *w = work_new (1, 1, 1);
    Run r;
    add (w, 0, INSTR_LDG, 5, 2, NR, NR);
    add (w, 0, INSTR_FFMA, 7, 1, 2, 5);
    add (w, 0, INSTR_LDG, 9, 2, NR, NR);
    add (w, 0, INSTR_MOV, 8, NR, NR, NR)->n_dst = 2;
    Instr *wide = add (w, 0, INSTR_LDG, 253, 2, NR, NR);
    wide->n_dst = 2;
    wide->width = 8;
    add (w, 0, INSTR_FFMA, 6, 1, 2, 254);
    run ("a100", NULL, w, 32, 1, 100, 10, &r);
    const Cycle at[] = { 0, 100, 101, 201, 202, 302, 303 };
    expect_issue_times (&r, at, G_N_ELEMENTS (at));
    cr_expect_eq (r.stats.cycles, 304);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* Compiler dependence counters (Instr.ctrl): a result on its way holds
 * its counter; an instruction whose wait mask names it waits, as for a
 * global result (long_scoreboard) or a shared one (short), by the kind
 * of the instruction that raised it.  One warp, a100, every stall
 * count 1, global memory 100 cycles, shared 20:
 *   i0 LDG  R4, raises counter 0        issues at 0, back at 100
 *   i1 FFMA, waits on counter 0         at 100: long_scoreboard 1..100
 *   i2 LDS  R6, raises counter 5        at 101, back at 121
 *   i3 FFMA, waits on counter 5         at 121: short_scoreboard 102..121
 *   EXIT                                at 122, retires at 123.
 * Selected 5 cycles, long 99, short 19: 123 in all. */
Test (sm, dependence_counters_by_hand)
{
    Work *w = work_new (1, 1, 1);
    Run r;
    const struct { InstrOp op; int dst, sb, wait; } prog[] = {
        { INSTR_LDG, 4, 0, 0 }, { INSTR_FFMA, 7, INSTR_NO_SB, 1u << 0 },
        { INSTR_LDS, 6, 5, 0 }, { INSTR_FFMA, 8, INSTR_NO_SB, 1u << 5 },
    };
    for (guint k = 0; k < G_N_ELEMENTS (prog); k++) {
        Instr *in = add (w, 0, prog[k].op, prog[k].dst, 2, NR, NR);
        in->ctrl = 1;
        in->stall = 1;
        in->wr_sb = (guint8) prog[k].sb;
        in->wait_mask = (guint8) prog[k].wait;
    }
    run ("a100", NULL, w, 32, 1, 100, 20, &r);
    const Cycle at[] = { 0, 100, 101, 121, 122 };
    expect_issue_times (&r, at, G_N_ELEMENTS (at));
    cr_expect_eq (r.stats.warp_cycles[STALL_LONG_SCOREBOARD], 99);
    cr_expect_eq (r.stats.warp_cycles[STALL_SHORT_SCOREBOARD], 19);
    cr_expect_eq (r.stats.warp_cycles[STALL_SELECTED], 5);
    cr_expect_eq (r.stats.cycles, 123);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* A stall count of 2 holds the next instruction 2 cycles.  Ten
 * independent MOVs, each with stall count 2, on one sub-partition with
 * a 32-lane ALU (which takes a MOV every cycle): MOV k at 2k, EXIT at
 * 20, retired at 21. */
Test (sm, a_stall_count_of_two_holds_two_cycles)
{
    const char *sets[] = { "sm.sub_partitions=1", "sm.fp32_lanes=16",
                           "pipe.alu_lanes=32", NULL };
    Work *w = work_new (1, 1, 1);
    Run r;
    for (int k = 0; k < 10; k++) {
        Instr *in = add (w, 0, INSTR_MOV, 10 + k, NR, NR, NR);
        in->ctrl = 1;
        in->stall = 2;
    }
    run ("a100", sets, w, 32, 1, 10, 10, &r);
    Cycle at[11];
    for (guint k = 0; k < G_N_ELEMENTS (at); k++)
        at[k] = 2 * k;
    expect_issue_times (&r, at, G_N_ELEMENTS (at));
    cr_expect_eq (r.stats.cycles, 21);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* A warp that exits no longer holds the others at a barrier.  Two warps
 * of one block, a100: warp 0 arrives at BAR at 0; warp 1 runs 10
 * dependent FFMAs (0, 4, ... 36) and exits at 37 without reaching it.
 * The barrier then holds no one: warp 0's FFMA goes at 38 (barrier
 * 1..38, 37 cycles), its EXIT at 39, and it retires at 40.  The block
 * is resident 0..40: 40 active cycles. */
Test (sm, an_exit_releases_the_barrier)
{
    Work *w = work_new (2, 1, 1);
    Run r;
    add (w, 0, INSTR_BAR, NR, NR, NR, NR);
    add (w, 0, INSTR_FFMA, 7, 1, 2, 3);
    for (int k = 0; k < 10; k++)
        add (w, 1, INSTR_FFMA, 0, 0, 1, 2);
    run ("a100", NULL, w, 64, 1, 10, 10, &r);
    cr_expect_eq (issued_at (&r, 1, INSTR_EXIT), 37);
    cr_expect_eq (issued_at (&r, 0, INSTR_FFMA), 38);
    cr_expect_eq (r.stats.warp_cycles[STALL_BARRIER], 37);
    cr_expect_eq (r.stats.cycles, 40);
    cr_expect_eq (r.stats.active_cycles, 40);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* A full MIO queue holds warps back as mio_throttle, not as a math
 * pipe: 32 warps of nothing but independent shared loads (4 an
 * iteration, 25 iterations) into the a100's 20-deep queue, which takes
 * one a cycle: 3,200 loads want more than the 20 places and the 4
 * sub-partitions' rate allows, so warps wait for the queue; with no
 * arithmetic at all, none waits for a math pipe, nor for the LG
 * queue. */
Test (sm, a_full_mio_queue_throttles)
{
    Work *w = work_new (1, 25, 1);
    Run r;
    for (int k = 0; k < 4; k++)
        add (w, 0, INSTR_LDS, 4 + k, 2, NR, NR);
    run ("a100", NULL, w, 1024, 1, 20, 10, &r);
    cr_expect_gt (r.stats.warp_cycles[STALL_MIO_THROTTLE], 0);
    cr_expect_eq (r.stats.warp_cycles[STALL_MATH_PIPE], 0);
    cr_expect_eq (r.stats.warp_cycles[STALL_LG_THROTTLE], 0);
    g_array_free (r.issues, TRUE);
    g_free (w);
}

/* Another sub-partition's load holds the rate through its own cycle and
 * the interval after it, and no longer.  As memory_issue_rate_after_a_
 * single_load, but sub-partition 1 runs 9 FFMAs, so its load goes at 9,
 * and in cycle 9 it looks before sub-partition 0 (9 mod 4 = 1; the
 * a6000 has 4).  Sub-partition 0, alone for its loads 0-8 (at 0-8),
 * owes: its 'mem_due' after load 8 is 14 (each alone moves it 2 on, at
 * most 6 past the load), so with slack (5 - 1)(2 - 1) = 4 it may go at
 * 10 on its own account; sub-partition 1's load counts through 9 + 2 =
 * 11, so load 9 goes at MIN (10, 12) = 10.  'mem_due' is then
 * MIN (14 + 2, 10 + 6) = 16: load 10 at MIN (16 - 4, 12) = 12.  From
 * then on it is alone: load 11 at 13. */
Test (sm, memory_issue_rate_holds_while_another_load_counts)
{
    Work *w = work_new (2, 1, 1);
    for (int k = 0; k < 20; k++)
        add (w, 0, INSTR_LDS, 10 + k, 2, NR, NR);
    for (int k = 0; k < 9; k++)
        add (w, 1, INSTR_FFMA, 40 + k, NR, NR, NR);
    add (w, 1, INSTR_LDS, 60, 2, NR, NR);
    Cycle at[4][20];
    int n[4];
    memory_issue_times (w, 2, at, n);
    g_free (w);
    cr_assert (n[0] == 20 && n[1] == 1, "%d and %d loads", n[0], n[1]);
    cr_expect_eq (at[1][0], 9);
    for (int k = 0; k < 9; k++)
        cr_expect_eq (at[0][k], (Cycle) k, "load %d at %" G_GUINT64_FORMAT, k,
                      at[0][k]);
    cr_expect_eq (at[0][9], 10, "load 9 at %" G_GUINT64_FORMAT, at[0][9]);
    cr_expect_eq (at[0][10], 12, "load 10 at %" G_GUINT64_FORMAT, at[0][10]);
    cr_expect_eq (at[0][11], 13, "load 11 at %" G_GUINT64_FORMAT, at[0][11]);
}

/* A warp not selected, then held by a busy pipe, is charged each for
 * its own cycles.  Two warps on one sub-partition of 16 FP32 lanes (a
 * warp's FFMA holds the pipe 2 cycles), each one FFMA and EXIT: at 0
 * both are eligible and one issues; the other is not selected at 0,
 * held by the pipe at 1 (math_pipe_throttle), issues its FFMA at 2 and
 * EXIT at 3, retiring at 4.  The first: FFMA 0, EXIT 1, retired at 2.
 * Selected 4 cycles, not selected 1, math pipe 1: 6 in all. */
Test (sm, not_selected_then_held_by_the_pipe)
{
    const char *sets[] = { "sm.sub_partitions=1", "sm.fp32_lanes=16", NULL };
    Work *w = work_new (1, 1, 1);
    Run r;
    add (w, 0, INSTR_FFMA, 7, 1, 2, 3);
    run ("a100", sets, w, 64, 1, 10, 10, &r);
    cr_expect_eq (r.stats.warp_cycles[STALL_SELECTED], 4);
    cr_expect_eq (r.stats.warp_cycles[STALL_NOT_SELECTED], 1);
    cr_expect_eq (r.stats.warp_cycles[STALL_MATH_PIPE], 1);
    cr_expect_eq (r.stats.cycles, 4);
    cr_expect_eq (r.lifetimes, 6);
    g_array_free (r.issues, TRUE);
    g_free (w);
}
