/*
 * run_counters.h -- a sampled run's counters (warp states, instructions,
 * memory traffic) extrapolated over the launch its cycles stand for
 * (run_sample.c).  Arithmetic on what the run counted: in all, and at
 * pairs of points whose difference is a rate.
 */
#ifndef SMSIM_MODELS_RUN_COUNTERS_H
#define SMSIM_MODELS_RUN_COUNTERS_H

#include "models/run_sim.h"

/* The counters at two points of a run, and the work between them:
 * block-iterations of the main loop, or waves (RunRates.bounds). */
typedef struct {
    RunSample from, to;
    double apart;
} RunSpan;

/* A sampled run against its launch. */
typedef struct {
    double blocks;        /* the launch's */
    double run;           /* the run's */
    double more;          /* iterations past the window, a block */
    /* By rows and by rate: the blocks of the waves before the later
     * wave's (the grid's first row).  By rate: the loop's iterations.
     * By rows: the full waves past the run's, and a wave's blocks. */
    double first_row, iterations, waves_past, per_wave;
} RunShape;

/* Where the rates come from.  'first': the first wave's marks;
 * 'first_mem': its memory's (run_counters_first_memory).  By rows
 * (one block per SM, full waves past the run's): 'later', the later
 * wave's marks, and what one of the run's waves past the first row
 * added, between its bounds -- the warp states' in 'bounds', the
 * memory's in 'mem_bounds' (RunWindow's), each 'apart' in waves.  By
 * rate (more blocks an SM, full waves past the run's, and a loop whose
 * data a wave finds in L2 where the one before left them): 'later',
 * the run's waves past the first, for the memory of the loop, and
 * 'first_mem' a loop's too. */
typedef struct {
    RunSpan first, first_mem;
    gboolean by_rows, by_rate;
    RunSpan later, bounds, mem_bounds;
} RunRates;

/* The first wave's memory rate: the main loop's requests by its first
 * retirement, 'loop' over the 'done' block-iterations its warps had
 * entered by then, where the streams mark them; else its marks'. */
RunSpan run_counters_first_memory (const RunSpan *marks, const MemStats *loop,
                                   double done);

/* The launch's counters from the run's ('run'), as run_sample.c's
 * run_sampled says. */
void run_counters (RunSample *all, const RunSample *run, const RunShape *s,
                   const RunRates *r);

/* What a launch's DRAM traffic cannot pass, whatever a sampled run's
 * extrapolation says (run_counters_bound_dram). */
typedef struct {
    double footprint;        /* bytes its buffers take (KernInstance
                              * .device_bytes); 0: not known */
    double l2_bytes;
    double sector_bytes;
    double dirty_at_start;   /* bytes the L2 it starts from holds dirty */
    double waves;            /* its blocks over a wave's */
} RunDramBounds;

/* Holds the extrapolated 'm' to what the L2 allows, where a run of a
 * few waves cannot see it.  Data that fit the L2 are read from DRAM at
 * most once and nothing is written back: the reads at most the
 * footprint (the sectors over it count as L2 hits instead), no writes.
 * Otherwise every sector a store dirtied (l2_dirtied_sectors), and
 * every one dirty at the start, is written back in the launch unless
 * the L2 still holds it at the end.  The L2 then holds its last
 * l2_bytes of fills (DRAM reads and dirtied sectors), a wave's at a
 * time: each wave fills the L2 with its loads first and dirties its
 * share as its blocks end, so the last wave's dirty sectors are held
 * (all of a launch of one wave: C, stored last, stays), and earlier
 * waves' as far as the later waves' fills leave room.  The writes come
 * to the rest, where the extrapolation made them fewer, and never to
 * more than were dirty. */
void run_counters_bound_dram (MemStats *m, const RunDramBounds *b);

#endif
