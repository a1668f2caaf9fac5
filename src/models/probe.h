/*
 * probe.h -- when the warps of each wave enter each main-loop iteration:
 * what a sampled run (run_sample.c) measures the cost of an iteration by.
 *
 * The probe wraps the streams of the warps a run simulates in full.  A
 * warp enters iteration i when it pulls that iteration's first
 * instruction, which is the cycle it issued its last one before (the
 * epilogue counts as iteration 'window').  A wave -- blocks
 * wave x per_wave up to the next wave's first, the last wave taking all
 * blocks past it -- has done i iterations when its warps have made
 * i x (its warps) entries into iterations 1 and on, whichever warps
 * made them: a measure of work done, not of its slowest warp.  Warps
 * of a block with no barrier in its loop drift far apart under a
 * greedy scheduler (kernel 2: the last of 32 warps enters iteration 1
 * when others are past iteration 8), so the slowest warp's entries say
 * more about the window's length than about the cost of an iteration.
 * It has done all 'window' iterations when its last warp entered the
 * epilogue.  Streams that cannot say where they stand
 * (kern_stream_position) are not counted.
 */
#ifndef SMSIM_MODELS_PROBE_H
#define SMSIM_MODELS_PROBE_H

#include "sim/gpu.h"

typedef struct Probe Probe;

/* Told each time wave 'wave' has done 'iteration' iterations (>= 1) by
 * the count of the warps it opened so far, at 'at'.  A later wave's
 * blocks open one by one, so until all have, its count can go back. */
typedef void (*ProbeMarkFn) (void *ctx, int wave, guint64 iteration,
                             Cycle at);

/* For a run of 'blocks' blocks (ids below it). */
Probe *probe_new (guint64 per_wave, int waves, guint64 window,
                  guint64 blocks);
void probe_free (Probe *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Probe, probe_free)

/* The clock of the run (set before it starts; borrowed). */
void probe_set_gpu (Probe *p, const Gpu *gpu);
void probe_on_marks (Probe *p, ProbeMarkFn fn, void *ctx);

/* 'inner' (owned), block 'block''s, observed. */
InstrStream *probe_wrap (Probe *p, InstrStream *inner, guint64 block);

/* The stream 's' wraps if probe_wrap made it, else 's'. */
InstrStream *probe_unwrap (InstrStream *s);
/* Watch for iterations up to 'window' from now on (the run's window
 * cut short or lengthened in flight). */
void probe_set_window (Probe *p, guint64 window);

/* When wave 'wave' had done 'iteration' iterations (1 .. window), or
 * CYCLE_NEVER if it has not. */
Cycle probe_entered (const Probe *p, int wave, guint64 iteration);

/* The warps of wave 'wave' it watched, and the blocks they are of. */
guint probe_warps (const Probe *p, int wave);
guint probe_blocks (const Probe *p, int wave);

/* Where wave 'wave''s leaders stand, whose first touches bring a
 * block's data in for the rest: the latest iteration a warp of each of
 * its watched blocks has entered, on average over them (0: none yet). */
double probe_leaders (const Probe *p, int wave);

/* Entries into iterations 1 and on, by the warps of every wave, at
 * cycles in [from, to): the work the SMs did then, whichever wave it
 * was for. */
guint64 probe_entries_between (const Probe *p, Cycle from, Cycle to);
/* The same, by the warps of the waves from 'wave' on. */
guint64 probe_later_entries_between (const Probe *p, int wave, Cycle from,
                                     Cycle to);

/* The same, block by block: a block's iterations count as a wave's
 * (done i when its warps made i x its warps entries); one it did not
 * watch has no warps and never entered. */
Cycle probe_block_entered (const Probe *p, guint64 block, guint64 iteration);
guint probe_block_warps (const Probe *p, guint64 block);
guint64 probe_block_entries_between (const Probe *p, guint64 block,
                                     Cycle from, Cycle to);

#endif
