/*
 * run_waves.h -- sampled runs of launches without a main loop to cut
 * (vecadd, stream, a trace without iteration markers): the first waves
 * of blocks run whole, and the waves past them go at the rate blocks
 * retired there.  run.c chooses them; run_sample.h has the runs that
 * cut a main loop.
 */
#ifndef SMSIM_MODELS_RUN_WAVES_H
#define SMSIM_MODELS_RUN_WAVES_H

#include "models/run.h"
#include "models/run_sim.h"

/* Full waves of 'per_wave' blocks a run by waves of 'k' takes on
 * 'spec' (enough to fill the L2 several times over, run_waves.c), or 0
 * where 'blocks' are too few for one -- it extrapolates at least as
 * many as it runs -- or its buffers are not known (a trace's). */
guint64 run_waves_to_run (const GpuSpec *spec, const KernInstance *k,
                          guint64 blocks, guint64 per_wave);

/* Sampled by waves: 'k' has no main loop a sampled run can cut, 'o'
 * does not forbid sampling nor ask for a window, the launch has waves enough
 * (run_waves_to_run) and is large (run_is_large) or 'o' asks for a
 * sampled run. */
gboolean run_waves_wanted (const GpuSpec *spec, const KernInstance *k,
                           const RunOptions *o, guint64 blocks,
                           guint64 per_wave);

/* 'r' holds the launch, its occupancy, blocks and waves; this fills in
 * the rest but the figures (run.c), every SM in full.  'l2': the L2 the
 * run starts from ('l2->left' stays NULL: the run is not the whole
 * launch). */
void run_by_waves (const GpuSpec *spec, const KernInstance *k, RunResult *r,
                   const RunOptions *o, RunL2 *l2);

#endif
