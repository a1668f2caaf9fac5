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
};

const char *
stats_stall_name (StallReason reason)
{
    g_assert ((unsigned) reason < STALL_N);
    return stall_names[reason];
}

void
stats_add (SimStats *a, const SimStats *b)
{
    a->cycles = MAX (a->cycles, b->cycles);
    a->warp_instructions += b->warp_instructions;
    a->thread_instructions += b->thread_instructions;
    a->flops += b->flops;
    for (int i = 0; i < INSTR_N_OPS; i++)
        a->op_count[i] += b->op_count[i];
    for (int i = 0; i < STALL_N; i++)
        a->warp_cycles[i] += b->warp_cycles[i];
    a->resident_warp_cycles += b->resident_warp_cycles;
    a->warps_done += b->warps_done;
    a->blocks_done += b->blocks_done;
}

double
stats_per_issue (const SimStats *s, StallReason reason)
{
    if (s->warp_instructions == 0)
        return 0.0;
    return (double) s->warp_cycles[reason] / (double) s->warp_instructions;
}
