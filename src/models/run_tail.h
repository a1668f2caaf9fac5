/*
 * run_tail.h -- how a sampled run deals out a partial last wave where
 * mirrors stand for most SMs (gpu.h): one block to each SM in turn, or
 * each SM's share all at once, as an exact run gives them where an
 * SM's blocks, started together, retire together.
 */
#ifndef SMSIM_MODELS_RUN_TAIL_H
#define SMSIM_MODELS_RUN_TAIL_H

#include "models/probe.h"
#include "sim/sim.h"

/* Whether the way the last wave is dealt out can matter: mirrors
 * ('detailed' of 'sm_count' SMs in full), 'per_sm' blocks an SM, 'full'
 * whole waves and a last one of 'tail' blocks that round robin would
 * give fewer than 'per_sm' of to every SM. */
gboolean run_tail_may_pack (int detailed, int sm_count, int per_sm,
                            guint64 full, guint64 tail);

/* Whether an exact run would give the last wave's first SMs all their
 * slots' blocks at once: 'ends[s x per_sm + i]' is when detailed SM
 * s's i-th block of the first wave retired (0 <= s < 'detailed').  Pure:
 * run_tail.c says how. */
gboolean run_tail_packs (const Cycle *ends, int detailed, int per_sm,
                         guint64 tail, int sm_count);

/* A guess of what run_tail_packs will say, for a run to deal its last
 * wave by before it knows: at the first retirement of a block of the
 * first wave, on SM 'sm' ('per_sm' blocks on each of 'sm_count' SMs,
 * SM s's being s, s + sm_count, ...), whether all of that SM's have
 * entered their loop's last iteration, 'last' ('probe' watched them).
 * A wrong guess costs the run again, not accuracy (run_sample.c). */
gboolean run_tail_guess (const Probe *probe, int sm, int sm_count,
                         int per_sm, guint64 last);

#endif
