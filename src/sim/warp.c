/*
 * warp.c -- a resident warp's dependences and accounting.  See warp.h.
 */
#include "config.h"

#include <string.h>

#include "sim/warp.h"

void
warp_init (Warp *w, WarpCold *cold, InstrStream *stream, Cycle now)
{
    memset (w, 0, sizeof *w);
    memset (cold->reg, 0, (size_t) cold->n_used * sizeof cold->reg[0]);
    cold->n_used = 0;
    w->cold = cold;
    w->stream = stream;
    w->launched = now;
    w->since = now;
    w->reason = STALL_WAIT;
    w->blocked = STALL_N;
    w->floor = now;
    w->floor_reason = STALL_WAIT;
    warp_fetch (w);
    warp_evaluate (w);
}

void
warp_clear (Warp *w)
{
    g_clear_pointer (&w->stream, instr_stream_free);
}

void
warp_fetch (Warp *w)
{
    /* A stream that ends without EXIT ends the warp all the same. */
    static const Instr exit_instr = {
        .op = INSTR_EXIT, .dst = INSTR_NO_REG, .n_dst = 1,
        .src = { INSTR_NO_REG, INSTR_NO_REG, INSTR_NO_REG },
        .active = 0xffffffffu, .wr_sb = INSTR_NO_SB
    };
    w->next = instr_stream_next (w->stream);
    if (w->next == NULL)
        w->next = &exit_instr;
    w->pipe = (guint8) instr_info ((InstrOp) w->next->op)->pipe;
}

static void
reg_deps (const Warp *w, guint8 r, Cycle *ready, int *pending, int *pending_long)
{
    if (r == INSTR_NO_REG)
        return;
    const WarpReg *reg = &w->cold->reg[r];
    if (reg->ready > *ready)
        *ready = reg->ready;
    *pending += reg->pending;
    *pending_long += reg->pending_long;
}

/* Registers: sources, and destinations (no write may overtake a
 * pending one). */
static void
scoreboard_deps (const Warp *w, Cycle *ready, int *pending, int *pending_long)
{
    const Instr *i = w->next;
    for (int k = 0; k < 3; k++)
        reg_deps (w, i->src[k], ready, pending, pending_long);
    if (i->dst != INSTR_NO_REG)
        for (int k = 0; k < i->n_dst && i->dst + k < INSTR_NO_REG; k++)
            reg_deps (w, (guint8) (i->dst + k), ready, pending, pending_long);
}

/* The compiler's dependence counters: the wait mask names them. */
static void
counter_deps (const Warp *w, int *pending, int *pending_long)
{
    for (int k = 0; k < INSTR_N_SB; k++)
        if ((w->next->wait_mask >> k & 1) && w->sb[k] > 0) {
            *pending += w->sb[k];
            *pending_long += (w->sb_long >> k & 1) * w->sb[k];
        }
}

void
warp_evaluate (Warp *w)
{
    Cycle ready = w->floor;
    int pending = 0, pending_long = 0;
    if (w->next->ctrl)
        counter_deps (w, &pending, &pending_long);
    else
        scoreboard_deps (w, &ready, &pending, &pending_long);
    w->ready_at = ready;
    if (pending_long > 0)
        w->blocked = STALL_LONG_SCOREBOARD;
    else if (pending > 0)
        w->blocked = STALL_SHORT_SCOREBOARD;
    else
        w->blocked = STALL_N;
}

void
warp_report (const Warp *w, Cycle at)
{
    if (at > w->since)
        w->observer->closed (w->observer->ctx, w, w->reason, w->since, at);
}

void
warp_count_cycles (const Warp *w, Cycle at, SimStats *stats)
{
    for (int r = 0; r < STALL_N; r++) {
        /* 'since' may be a cycle ahead: a state charged from the next. */
        guint64 open = r == (int) w->reason && at > w->since ? at - w->since : 0;
        stats->warp_cycles[r] += w->cycles[r] + open;
        stats->resident_warp_cycles += w->cycles[r] + open;
    }
}

void
warp_finish (Warp *w, Cycle at, SimStats *stats)
{
    g_assert (at >= w->since);
    if (G_UNLIKELY (w->observer != NULL))
        warp_report (w, at);
    w->cycles[w->reason] += at - w->since;
    w->since = at;
    warp_count_cycles (w, at, stats);
    stats->warps_done++;
}
