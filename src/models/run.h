/*
 * run.h -- one kernel launch simulated on a whole GPU: occupancy from
 * the launch (with --regs/--smem overrides), every SM on shared L2 and
 * DRAM, and the figures `smsim run` reports.
 *
 * Sampling (DESIGN.md principle 5): every block of a matmul does the same
 * work, so a big launch is simulated on the whole GPU (four SMs in full,
 * the others mirroring them: gpu.h) for its first waves and its partial
 * last wave, each block's main loop cut to a window of at most 64
 * iterations (more, up to the whole loop, where the run takes every
 * wave and can afford them).  The window is cut shorter where the
 * first wave's cost of one more iteration settles early (within 2 %
 * twice running, from 16 iterations on).  Each block's remaining
 * iterations are extrapolated at the rate its SM did iterations in the
 * window, the run ending with its last SM; the full waves past the
 * run's, from what the run's later waves added (one block per SM) or
 * at the rate of its waves past the first (more).  run_sample.c says
 * why and when it does less.
 */
#ifndef SMSIM_MODELS_RUN_H
#define SMSIM_MODELS_RUN_H

#include "models/kern.h"
#include "models/occ.h"
#include "sim/memhier.h"
#include "sim/stats.h"

typedef enum {
    RUN_AUTO,           /* sample launches of over 2x10^7 warp instructions */
    RUN_EXACT,          /* every instruction of every warp */
    RUN_SAMPLED         /* a window of the main loop, extrapolated */
} RunMode;

/* The L2 the timed launches start from, with launches > 1 (NONE: one
 * launch): the one the warm-up left, a whole launch (exact, or sampled
 * down to nothing); or, where a sampled warm-up covered part of it, the
 * one a whole launch leaves, its accesses replayed without timing
 * (run_replay.h); or none, a cold start, where the launch's data
 * outgrow the L2 or a replay would cost too much (run.c). */
typedef enum {
    RUN_WARM_NONE,
    RUN_WARM_LEFT,
    RUN_WARM_REPLAYED,
    RUN_WARM_OUTGROWN,
    RUN_WARM_TOO_DEAR
} RunWarm;

/* Told with none done as the run starts, then as blocks retire: 'done'
 * of the run's 'total' (a sampled run counts the blocks of its own,
 * shortened run, and starts again if it restarts with a shorter
 * window). */
typedef void (*RunProgressFn) (void *ctx, guint64 done, guint64 total);

typedef struct {
    gint64 regs;        /* per thread; -1: the model's */
    gint64 smem;        /* static bytes per block; -1: the model's */
    RunMode mode;
    int detailed_sms;   /* SMs simulated in full, the rest mirrors (gpu.h);
                         * 0: all when exact, when sampled 4, or all on
                         * a GPU of fewer than 12 SMs (run_sample.c) */
    guint64 window;     /* a sampled run's window, in main-loop iterations
                         * (at least 4, at most the loop; sampling
                         * implied, and refused where the launch cannot
                         * be sampled); 0: chosen as run_sample.c says */
    RunProgressFn progress;     /* may be NULL */
    void *progress_ctx;
    /* Launches of the kernel back to back in one stream, after a
     * warm-up launch, as published figures are timed
     * (../shared/data/README.md 1b: 50); 0 or 1: one, cold.  Each starts
     * from the L2 the one before left (run.c says what is simulated). */
    guint64 launches;
} RunOptions;

#define RUN_OPTIONS_INIT { -1, -1, RUN_AUTO, 0, 0, NULL, NULL, 1 }

typedef struct {
    OccLaunch launch;
    OccResult occ;
    guint64 blocks;
    Cycle cycles;               /* one launch's */
    double kernel_ms;           /* its cycles at the SM clock */
    double time_ms;             /* a launch's share of the time
                                 * back-to-back launches take: the
                                 * kernel's and the gaps between them
                                 * (device.launch_gap_us) */
    double gflops;              /* the flops over time_ms */
    double achieved_occupancy_pct;
    double l1_hit_rate;          /* of global load sectors */
    double l2_hit_rate;          /* of the load sectors L1 missed */
    guint64 dram_bytes;
    /* Achieved bandwidth per level, GB/s over the whole run: global
     * sectors through L1 (loads and stores), sectors L2 served, DRAM
     * reads and write-backs. */
    double l1_gbs;
    double l2_gbs;
    double dram_gbs;
    SimStats stats;
    MemStats mem;
    /* A sampled run's memory counters as extrapolated, before the L2's
     * size bounds its DRAM traffic (run_counters_bound_dram) to give
     * 'mem'; an exact run's are 'mem'. */
    MemStats extrapolated;
    /* A sampled run's memory counters scaled from its first wave's,
     * cold, over waves it did not run (run_sample.c: neither by rows nor
     * by rate). */
    gboolean cold_counters;
    /* Its DRAM traffic taken from a replay of the launch's addresses
     * through the L2 instead (run_replay_traffic; run.c says where). */
    gboolean traffic_replayed;
    guint64 events;
    gboolean sampled;
    gboolean by_waves;          /* sampled by waves (run_waves.h), not
                                 * by a window of the main loop */
    guint64 window;             /* main-loop iterations simulated per block */
    guint64 waves;              /* full and partial waves of blocks */
    guint64 waves_run;          /* of them, simulated (sampled runs take
                                 * some, the rest extrapolated) */
    int detailed_sms;           /* simulated in full; the rest mirrored */
    gboolean last_wave_whole;   /* a sampled run's partial last wave
                                 * dealt out to SMs whole, not round
                                 * robin (run_tail.h) */
    int block_kinds;            /* kinds of block a sampled run timed
                                 * apart (kern_block_work): 1 where the
                                 * launch's blocks are alike or the run
                                 * is not sampled by a window */
    int block_kinds_met;        /* of them, those the SMs in full ran a
                                 * block of; the others are scaled from
                                 * them by their busy threads
                                 * (run_kinds.c) */
    guint64 simulated_instructions;   /* what the run actually simulated */
    guint64 launches;           /* back to back (RunOptions), at least 1 */
    RunWarm warm;               /* the L2 they were simulated from */
    double replay_lines;        /* replays' work (run_replay_cost): the
                                 * warm-up's L2, a cold wave's traffic
                                 * (run.c); or 0 */
} RunResult;

/* Whether the caches the launch leaves can each hold a set: a cache of
 * none would miss on everything without a word; and whether the tags
 * of 'n_sm' L1s (a run makes every SM's) and the L2 fit in the host
 * memory smsim allows itself, with a second L2 where 'launches'
 * (RunOptions) run back to back.  The L1 is what the unified array
 * leaves beside the launch's shared memory (occ.h). */
gboolean run_check_caches (const GpuSpec *spec, const OccResult *occ,
                           int n_sm, guint64 launches, GError **error);
gboolean run_kernel (const GpuSpec *spec, const KernInstance *k,
                     const RunOptions *options, RunResult *out,
                     GError **error);

/* Before run_kernel: the warp instructions one launch of 'k' as 'o'
 * asks takes at the least where it is sampled by a window of its main
 * loop, at the window in '*window' (run_sampled_least); 0 where it is
 * not, or where run_kernel will refuse it. */
double run_sampled_cost (const GpuSpec *spec, const KernInstance *k,
                         const RunOptions *o, guint64 *window);

/* The units whose counters bound a kernel's speed, each used a fraction
 * of its peak over the run: FP32 lanes, one warp instruction per
 * sub-partition and cycle, the L1 (tag stage and data path), shared
 * memory's wavefronts, L2 and DRAM bandwidth. */
typedef enum {
    RUN_UNIT_FP32,
    RUN_UNIT_ISSUE,
    RUN_UNIT_L1,
    RUN_UNIT_SMEM,
    RUN_UNIT_L2,
    RUN_UNIT_DRAM,
    RUN_N_UNITS
} RunUnit;

/* "shared-memory wavefronts", and for tables "smem". */
const char *run_unit_name (RunUnit unit);
const char *run_unit_brief (RunUnit unit);
/* What its use is a fraction of: "its peak", or for DRAM its measured
 * stream bandwidth. */
const char *run_unit_peak (RunUnit unit);

/* The ceiling: the most GFLOP/s smsim's costs and capacities allow the
 * launch at the work per flop the run counted -- the lowest, over the
 * units, of the rate at which that unit would be busy every cycle (an
 * SM's own units on the SMs that run the most blocks, the blocks
 * alike).  For the FP32 pipe, issue and shared memory that work is the
 * kernel's, whatever the timing; for L1, L2 and DRAM it is the traffic
 * the run's hit rates let through, which the timing moves.  A measured
 * figure above it means the GPU does that unit's work in fewer cycles
 * (or at a higher clock) than the preset and the model charge.  Sets
 * '*unit'; 0 if the run counted nothing. */
double run_ceiling (const GpuSpec *spec, const RunResult *r, RunUnit *unit);

/* What limits the kernel, from the counters alone (never per kernel):
 * the busiest of the FP32 pipe, instruction issue, the L1 (tag stage and
 * data path), shared-memory wavefronts, L2 and DRAM bandwidth, as a
 * fraction of its peak; below 60 % for all of them, latency with too few
 * warps, named by the largest stall.  Writes a sentence to 'buf'. */
void run_limiter (const GpuSpec *spec, const RunResult *r, char *buf,
                  gsize size);

#endif
