/*
 * stats.c -- counters and the stall-reason names.  See stats.h.
 */
#include "config.h"

#include "sim/stats.h"

/* Nsight Compute's names (smsp__average_warps_issue_stalled_<name>_...). */
static const char *const stall_names[STALL_N] = {
    [STALL_SELECTED] = "selected",
    [STALL_NOT_SELECTED] = "not_selected",
    [STALL_WAIT] = "wait",
    [STALL_LONG_SCOREBOARD] = "long_scoreboard",
    [STALL_SHORT_SCOREBOARD] = "short_scoreboard",
    [STALL_BARRIER] = "barrier",
    [STALL_MATH_PIPE] = "math_pipe_throttle",
    [STALL_MIO_THROTTLE] = "mio_throttle",
    [STALL_LG_THROTTLE] = "lg_throttle",
    [STALL_BRANCH] = "branch_resolving",
    [STALL_DRAIN] = "drain",
    [STALL_DISPATCH] = "dispatch_stall",
    [STALL_NO_INSTRUCTION] = "no_instruction",
};

const char *
stats_stall_name (StallReason reason)
{
    g_assert ((unsigned) reason < STALL_N);
    return stall_names[reason];
}

guint64
stats_scale (guint64 v, double times)
{
    return (guint64) ((double) v * times + 0.5);
}

void
stats_add_scaled (SimStats *a, const SimStats *b, double times)
{
    a->cycles = MAX (a->cycles, b->cycles);
    a->warp_instructions += stats_scale (b->warp_instructions, times);
    a->thread_instructions += stats_scale (b->thread_instructions, times);
    a->flops += stats_scale (b->flops, times);
    for (int i = 0; i < INSTR_N_OPS; i++)
        a->op_count[i] += stats_scale (b->op_count[i], times);
    for (int i = 0; i < STALL_N; i++)
        a->warp_cycles[i] += stats_scale (b->warp_cycles[i], times);
    a->resident_warp_cycles += stats_scale (b->resident_warp_cycles, times);
    a->active_cycles += stats_scale (b->active_cycles, times);
    a->warps_done += stats_scale (b->warps_done, times);
    a->blocks_done += stats_scale (b->blocks_done, times);
    a->fetch_l0_misses += stats_scale (b->fetch_l0_misses, times);
    a->fetch_l1_misses += stats_scale (b->fetch_l1_misses, times);
}

void
stats_add (SimStats *a, const SimStats *b)
{
    stats_add_scaled (a, b, 1.0);
}

double
stats_per_issue (const SimStats *s, StallReason reason)
{
    if (s->warp_instructions == 0)
        return 0.0;
    return (double) s->warp_cycles[reason] / (double) s->warp_instructions;
}
