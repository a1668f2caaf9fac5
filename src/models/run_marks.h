/*
 * run_marks.h -- a sampled run's marks (run_sample.c): the probe's
 * calls as the watched warps enter iterations, where the first wave's
 * cost per iteration settles and the window is cut short, the later
 * waves' samples, and the spans of work between marks that the
 * counters' rates go by (run_counters.h).
 */
#ifndef SMSIM_MODELS_RUN_MARKS_H
#define SMSIM_MODELS_RUN_MARKS_H

#include "models/run_counters.h"
#include "models/run_sim.h"

/* The first wave, watched at iterations 1, 2, 4 ...: where its cost
 * per iteration settles, and how much its loop reads from DRAM. */
typedef struct {
    Gpu *gpu;
    const Probe *probe;
    guint64 window;
    int n;                 /* marks taken */
    guint64 iteration[2];  /* the last two marks: [1] the later */
    Cycle at[2];
    RunSample sample[2];
    double slope_before;
    int agreed;
    gboolean settled;
    gboolean keep;         /* the window stays, settled or not */
    /* The L2's bytes, the loop's iterations, the longest window the
     * run affords (0: none, as where the launch is one wave), and the
     * waves from a block to the one a grid row on (at least 1): where
     * the loop outgrows the L2 between them, the window is to read at
     * least what it holds: 'floor', the window it is never cut below
     * and is lengthened to where shorter, once known (run_marks.c). */
    guint64 l2_bytes, iterations, longest, floor;
    double reuse;
    guint64 next;          /* the window the run is to have, or 0 */
    gboolean moved;        /* the run went on with it */
} RunFirstWave;

/* The waves whose rate the iterations past the window go by where the
 * cycles do (2. at run_sampled, run_sample.c), sampled at wave
 * 'wave''s first mark at or past 'lo' iterations and wave 'wave_hi''s
 * at or past 'hi', each with all its warps open (a wave's count can
 * pass 'lo' while its blocks still open, two an SM as the last wave's
 * retire one by one): with one block per SM, one wave past the grid's
 * first row (the two the same); with more, for the memory, the first
 * wave past the grid's first row to the run's last.  Not from the
 * second wave: where a row is two waves, its second reads the other
 * half of B from DRAM (sgemm-4 at 2048 on an 8-SM A100: 182 MB read at
 * the rate from the second wave on, against the exact run's 50.3, three
 * matrices once). */
typedef struct {
    const Gpu *gpu;
    const Probe *probe;
    int wave, wave_hi;     /* -1: none */
    guint64 lo, hi;
    int taken;             /* samples: 0, 1 (at lo) or 2 */
    Cycle at[2];
    RunSample sample[2];
} RunLaterWave;

/* What the probe's marks (probe_on_marks) go to. */
typedef struct {
    RunFirstWave *first;   /* NULL: not watched (a run started again) */
    RunLaterWave *later;
    RunWindow *win;
} RunMarks;

/* The shortest window a run started with 'window' iterations (and not
 * keeping it) may be cut to: twice the first mark it may settle at. */
guint64 run_marks_shortest (guint64 window);

/* The window a run whose first wave 'f' read 'read' bytes from DRAM by
 * the time its blocks' leaders were 'leaders' iterations in is to have
 * at least, so that its waves read what the L2 holds before a grid row
 * on reads their data again; 0 for no such floor.  Pure: run_marks.c
 * says how. */
guint64 run_marks_l2_window (const RunFirstWave *f, double read,
                             double leaders);

/* probe_on_marks's call, 'ctx' a RunMarks: wave 'wave''s watched warps
 * have entered iteration 'i' by 'at'.  Settled early, or reading less
 * than the L2 holds where the loop reads more, the run goes on with a
 * shorter or longer window or, where it cannot, stops with the window
 * it is to have in RunFirstWave.next (run_sample.c, 1.). */
void run_marks_on (void *ctx, int wave, guint64 i, Cycle at);

/* The block-iterations the GPU did between the first wave's last two
 * marks ('first': the wave's blocks; 'scale': the GPU's
 * block-iterations a watched warp's entry stands for). */
double run_marks_first_apart (const RunFirstWave *f, const Probe *probe,
                              guint64 first, double scale);

/* The later waves' two samples as a span ('scale' as above). */
RunSpan run_marks_later_span (const RunLaterWave *l, double scale);

/* The rates by rows: the later wave's, and what one of the run's
 * 'waves' waves between the bounds added ('scale' as above). */
void run_marks_later_rates (RunRates *r, const RunLaterWave *l,
                            const RunWindow *win, double scale,
                            double waves);

#endif
