/*
 * run_kinds.h -- the kinds of block in a sampled run where a launch's
 * blocks differ (KernInstance.uneven: sgemm-1 and -2 at sizes C's tiles
 * do not divide, a trace's blocks): which blocks are alike, and how
 * the launch's blocks past the run go, dealt out to the SMs by their
 * kind's time or by their busy warps.  run_sample.c uses them.
 */
#ifndef SMSIM_MODELS_RUN_KINDS_H
#define SMSIM_MODELS_RUN_KINDS_H

#include "models/kern.h"
#include "models/probe.h"
#include "models/run_sim.h"

/* The run's blocks by what they do (kern_block_work): blocks with equal
 * work are one kind, and where the launch's blocks are alike there is
 * one.  Looked up by their work: a trace's blocks may all differ, and
 * run_kinds_dealt asks for every block of the launch. */
typedef struct {
    int n;
    int *of;                /* each run block's kind */
    KernBlockWork *work;    /* each kind's */
    GHashTable *index;      /* work (kern_block_work_key) -> kind + 1 */
} RunKinds;

/* The kinds of the run's 'blocks' blocks, each the launch's block
 * run_launch_block () says; one kind unless 'k' is uneven. */
void run_kinds_init (RunKinds *c, const KernInstance *k, const RunWindow *win,
                     guint64 blocks);
void run_kinds_clear (RunKinds *c);

/* How many of the kinds the SMs in full ran a block of (the run's
 * 'blocks' blocks, RunWindow.block_sm). */
int run_kinds_met (const RunKinds *c, const RunWindow *win, guint64 blocks);

/* One block per SM: when the launch ends, its blocks dealt out in
 * order, each to the first of 'sms' SMs to free, each taking its
 * kind's time in the run ('ext': each run block's iterations past the
 * window; 'later_from' to 'later_to': the run's blocks past the first
 * row, whose times are preferred). */
double run_kinds_dealt (const KernInstance *k, const RunWindow *win,
                        const RunKinds *c, const double *ext, guint64 blocks,
                        guint64 later_from, guint64 later_to, int sms);

/* More blocks per SM: the warps on the SMs in full that one of the
 * launch's full waves made of blocks 'from' to 'to' stands for, by
 * their busy warps. */
double run_kinds_wave_warps (const KernInstance *k, const Probe *probe,
                             guint64 from, guint64 to, guint64 per_wave);

#endif
