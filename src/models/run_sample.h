/*
 * run_sample.h -- sampled runs (run.c chooses them): whether a launch
 * is sampled, how many SMs a sampled run simulates in full, and the
 * run itself, which fills a RunResult as an exact run would.
 */
#ifndef SMSIM_MODELS_RUN_SAMPLE_H
#define SMSIM_MODELS_RUN_SAMPLE_H

#include "models/run.h"
#include "models/run_sim.h"

/* Whether 'k' has a main loop a sampled run can cut: 4 iterations or
 * more, not empty, in a stream that says where it stands
 * (kern_stream_position; a trace without iteration markers does not),
 * as block 0's first warp shows. */
gboolean run_can_sample (const KernInstance *k);

/* The warp instructions of 'blocks' blocks of 'k', whole, estimated
 * from block 0's first warp; and whether they are more than
 * SAMPLE_ABOVE_WARP_INSTRUCTIONS (20 million), a launch too large to
 * run whole unless asked to. */
double run_estimate_instructions (const KernInstance *k, guint64 blocks);
gboolean run_is_large (const KernInstance *k, guint64 blocks);

/* Sampled: forced (a window given forces it too), or more than
 * SAMPLE_ABOVE_WARP_INSTRUCTIONS (20 million) warp instructions,
 * estimated from block 0's first warp; never where the kernel has no
 * main loop to cut or under --exact. */
gboolean run_should_sample (const KernInstance *k, const RunOptions *o,
                            guint64 blocks);

/* The warp instructions a sampled run of 'blocks' blocks of 'k' takes
 * at the least, mirrors' too: its waves with each block's loop cut to
 * the shortest window it may end with, in '*least' -- 'window' where
 * one is asked for (0: none), one it keeps, or the shortest the marks
 * cut one to (run_marks_shortest).  Before the run: a run that settles
 * late, or lengthens its window (1. at run_sampled), takes more. */
double run_sampled_least (const KernInstance *k, const OccResult *occ,
                          guint64 blocks, int sm_count, guint64 window,
                          guint64 *least);

/* SMs a sampled run simulates in full by default: 4, or all of them on
 * a GPU of fewer than 12 SMs and where the run would be the whole
 * launch.  'window': the one asked for, or 0 (RunOptions). */
int run_sampled_detailed_sms (const KernInstance *k, const OccResult *occ,
                              guint64 blocks, int sm_count, guint64 window);

/* 'r' holds the launch, its occupancy, blocks, waves and detailed SMs;
 * this fills in the rest but the figures (run.c).  From 'o': the
 * window asked for, kept whatever the first wave does (0: chosen
 * here), and the progress.  'l2': the L2 it starts from and, if asked,
 * the one its last simulation left (run_sim.h).  FALSE, 'r' untouched,
 * where no warp it watched entered an iteration: then it cannot be
 * sampled. */
gboolean run_sampled (const GpuSpec *spec, const KernInstance *k,
                      RunResult *r, const RunOptions *o, RunL2 *l2);

#endif
