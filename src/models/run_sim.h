/*
 * run_sim.h -- one simulation of a launch on the whole GPU, for run.c
 * (exact runs) and run_sample.c (sampled ones): its blocks with the
 * main loop cut to a window, some SMs in full and the others mirroring
 * them (gpu.h), watched by a probe if asked; what it counted and what
 * it cost.
 */
#ifndef SMSIM_MODELS_RUN_SIM_H
#define SMSIM_MODELS_RUN_SIM_H

#include "models/kern.h"
#include "models/occ.h"
#include "models/probe.h"
#include "models/run.h"
#include "sim/gpu.h"

/* What one simulation counted. */
typedef struct {
    SimStats st;
    MemStats mem;
    MemStats loop;      /* of 'mem', the main loop's requests' */
} RunSample;

/* The work the simulations of a run actually did (for --verbose). */
typedef struct {
    guint64 instructions;
    guint64 events;
} RunCost;

/* One simulation: 'blocks' blocks, the main loop cut to 'iterations',
 * 'detailed' SMs in full; with a probe, the warps simulated in full are
 * watched and the run may stop early (gpu_stop). */
typedef struct {
    const KernInstance *k;
    guint64 iterations;
    Probe *probe;
    /* If set: each detailed SM's first 'keep' block retirements, in
     * order ('retired[sm * keep + i]'), and how many it has. */
    Cycle *retired;
    int *n_retired;
    int keep;
    /* If set: each block's SM (-1 until it retires), and each detailed
     * SM's last retirement. */
    int *block_sm;
    Cycle *last_retired;
    /* If set: each block's retirement. */
    Cycle *block_end;
    /* Blocks from 'tail_from' on play the launch's block 'tail_shift'
     * further on: a sampled run's last waves, the launch's own where
     * blocks differ (KernInstance.uneven, run_sample.c). */
    guint64 tail_from, tail_shift;
    /* If 'gpu' is set and 'retired': the counters at bound[i] blocks
     * retired -- each detailed SM's (and its mirrors') when it has, the
     * memory's when all have ('reached' of them so far). */
    Gpu *gpu;
    int detailed;
    int bound[2];
    SimStats st_bound[2];
    MemStats mem_bound[2];
    Cycle mem_at[2];
    int reached[2];
    /* If set: told of the run's 'total' blocks as they retire, in the
     * proportion the SMs in full have retired of the 'full' blocks
     * they take ('done' so far; with mirrors, gpu.h, their share). */
    RunProgressFn progress;
    void *progress_ctx;
    guint64 total, full, done;
    /* The L2 the launch before left, or NULL: a cold start (gpu.h). */
    const Cache *warm_l2;
    /* The partial last wave's blocks dealt out to SMs whole (gpu.h);
     * or, if 'guess_pack' and 'gpu' is set, as run_tail_guess says at
     * the first retirement of a block of the first wave ('per_sm'
     * blocks on each of 'sm_count' SMs). */
    gboolean pack_last_wave;
    gboolean guess_pack;
    int per_sm, sm_count;
    /* For each nth[i] > 0: the cycle the run's nth[i]-th block retired,
     * counting the detailed SMs' ('n_all' so far), and, if 'gpu' is
     * set, the counters then. */
    guint64 nth[2];
    Cycle nth_at[2];
    RunSample nth_sample[2];
    guint64 n_all;
    /* With mirrors where blocks differ: each kind's warp instructions
     * with the window, the weight its blocks' counters go by (gpu.h);
     * kept by run_gpu_for, freed by run_window_clear. */
    GHashTable *weights;
} RunWindow;

void run_window_clear (RunWindow *win);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RunWindow, run_window_clear)

/* The launch's block that run block 'block' plays (tail_from). */
guint64 run_launch_block (const RunWindow *w, guint64 block);

/* Back-to-back launches: the L2 a launch starts from ('from', NULL for
 * a cold start), and, if 'keep' asks for it, a copy of the one it
 * leaves in 'left' -- only where it simulated the whole launch, every
 * block and iteration (exact, or sampled down to nothing). */
typedef struct {
    const Cache *from;
    Cache *left;
    gboolean keep;
} RunL2;

Gpu *run_gpu_for (const GpuSpec *spec, const OccResult *occ, guint64 blocks,
                  int detailed, RunWindow *win);
void run_take_sample (const Gpu *gpu, RunSample *out);

/* total = a x times_a + (b - c) x times_bc, counter by counter,
 * rounded to the nearest count and never below zero ('total' may be
 * any of them): a run's counters and what the launch past it adds at a
 * rate read between two samples. */
void run_sample_combine (RunSample *total, const RunSample *a, double times_a,
                         const RunSample *b, const RunSample *c,
                         double times_bc);
void run_count_cost (const Gpu *gpu, RunCost *cost);

/* 'blocks' blocks whose loop is cut to 'iterations', 'detailed' SMs in
 * full, simulated to the end; progress as 'o' asks. */
void run_simulate (const GpuSpec *spec, const KernInstance *k,
                   const OccResult *occ, guint64 blocks, guint64 iterations,
                   int detailed, const RunOptions *o, RunL2 *l2,
                   RunSample *out, RunCost *cost);

/* 'win' to tell 'o''s progress of a run of 'blocks' on 'detailed' of
 * 'sm_count' SMs, from none done. */
void run_window_progress (RunWindow *win, const RunOptions *o, guint64 blocks,
                          int detailed, int sm_count);

#endif
