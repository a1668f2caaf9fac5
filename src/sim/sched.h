/*
 * sched.h -- warp-scheduler issue policies: which eligible warp a
 * sub-partition issues from this cycle.
 *
 *   lrr    loose round robin: the next eligible warp after the last one
 *          issued, in warp-slot order;
 *   gto    greedy then oldest: the last one issued while it stays
 *          eligible, else the oldest eligible (GPGPU-Sim's default);
 *   cggty  compiler-guided greedy then youngest: the last one issued
 *          while it stays eligible and its instruction did not set the
 *          yield bit, else the youngest eligible (Huerta et al., MICRO
 *          2025, reverse-engineering an RTX A6000; microarch.md 1).
 *
 * Pure choice: the caller passes the eligible warps in age order.
 */
#ifndef SMSIM_SIM_SCHED_H
#define SMSIM_SIM_SCHED_H

#include "sim/spec.h"
#include "sim/warp.h"

typedef struct {
    int last_slot;        /* warp slot issued last, -1 at first */
    gboolean last_yield;  /* ... and whether it asked to yield */
} SchedState;

void sched_init (SchedState *s);

Warp *sched_pick (SpecSchedPolicy policy, const SchedState *s,
                  Warp *const *eligible, int n, int n_slots);

void sched_issued (SchedState *s, const Warp *w);

#endif
