/*
 * sched.c -- warp-scheduler policies.  See sched.h.
 */
#include "config.h"

#include "sim/sched.h"

void
sched_init (SchedState *s)
{
    s->last_slot = -1;
    s->last_yield = FALSE;
}

static Warp *
find_last (const SchedState *s, Warp *const *eligible, int n)
{
    for (int i = 0; i < n; i++)
        if (eligible[i]->slot == s->last_slot)
            return eligible[i];
    return NULL;
}

static Warp *
pick_lrr (const SchedState *s, Warp *const *eligible, int n, int n_slots)
{
    Warp *best = eligible[0];
    int best_d = n_slots + 1;
    for (int i = 0; i < n; i++) {
        /* Distance after the last issued slot, wrapping around. */
        int d = (eligible[i]->slot - s->last_slot - 1 + n_slots) % n_slots;
        if (d < best_d) {
            best = eligible[i];
            best_d = d;
        }
    }
    return best;
}

Warp *
sched_pick (SpecSchedPolicy policy, const SchedState *s,
            Warp *const *eligible, int n, int n_slots)
{
    Warp *last;
    g_assert (n > 0);
    switch (policy) {
    case SPEC_SCHED_LRR:
        return pick_lrr (s, eligible, n, n_slots);
    case SPEC_SCHED_GTO:
        last = find_last (s, eligible, n);
        return last ? last : eligible[0];
    case SPEC_SCHED_CGGTY:
        last = find_last (s, eligible, n);
        if (last != NULL && (!s->last_yield || n == 1))
            return last;
        /* The youngest; a yielding warp gives way if it can. */
        for (int i = n - 1; i >= 0; i--)
            if (eligible[i] != last)
                return eligible[i];
        return eligible[n - 1];
    }
    g_assert_not_reached ();
}

void
sched_issued (SchedState *s, const Warp *w)
{
    s->last_slot = w->slot;
    s->last_yield = w->yielded;
}
