/*
 * run.c -- simulate one launch on the whole GPU, exact or sampled
 * (run_sample.c), and what the counters make of it.  See run.h.
 */
#include "config.h"

#include <string.h>

#include "models/run.h"
#include "models/run_counters.h"
#include "models/run_replay.h"
#include "models/run_sample.h"
#include "models/run_sim.h"
#include "models/run_waves.h"

static void
launch_of (const KernInstance *k, const RunOptions *o, OccLaunch *l)
{
    l->threads_per_block = k->threads;
    l->regs_per_thread = o->regs >= 0 ? o->regs : k->regs;
    l->static_smem_bytes = o->smem >= 0 ? o->smem : k->static_smem;
    l->dyn_smem_bytes = k->dyn_smem;
    l->carveout_pct = -1;
}

static void
figures (const GpuSpec *spec, const KernInstance *k, RunResult *r)
{
    const MemStats *m = &r->mem;
    double hz = (double) spec->device.sm_clock_mhz * 1e6;
    double n = (double) r->launches;
    r->kernel_ms = (double) r->cycles / hz * 1e3;
    /* n launches take n kernels and n - 1 gaps. */
    r->time_ms = r->kernel_ms + spec->device.launch_gap_us * 1e-3 * (n - 1) / n;
    r->gflops = r->time_ms > 0 ? k->flops / (r->time_ms * 1e-3) / 1e9 : 0;
    /* Nsight Compute's: resident warps per active cycle of an SM, over
     * the warps it can hold.  Both counts are extrapolated alike in a
     * sampled run; over the run's cycles instead it came out above the
     * theoretical figure (sgemm-4 on the A100 at 4096: 52 % of 50). */
    r->achieved_occupancy_pct =
        r->stats.active_cycles == 0
            ? 0
            : 100.0 * (double) r->stats.resident_warp_cycles /
                  ((double) r->stats.active_cycles * r->occ.max_warps_per_sm);
    r->l1_hit_rate = m->load_sectors
                         ? (double) m->l1_hit_sectors / (double) m->load_sectors
                         : 0;
    /* Loads alone, as L1's: L2 takes every store sector without a look
     * up (write-back, sector by sector), and counted among the misses
     * they had a copy whose data all stayed in L2 read as half missing. */
    guint64 l2_loads = memhier_l2_load_sectors (m);
    r->l2_hit_rate = l2_loads
                         ? MIN (1.0, (double) m->l2_hit_sectors / (double) l2_loads)
                         : 0;
    r->dram_bytes = m->dram_read_bytes + m->dram_write_bytes;
    /* Over the kernel's time: nothing moves in the gaps. */
    double per_s = r->kernel_ms > 0 ? 1.0 / (r->kernel_ms * 1e-3) / 1e9 : 0;
    double sector = spec->mem.l1_sector_bytes;
    r->l1_gbs = (double) (m->load_sectors + m->store_sectors) * sector * per_s;
    r->l2_gbs = (double) m->l2_sectors * sector * per_s;
    r->dram_gbs = (double) r->dram_bytes * per_s;
}

/* How a launch is simulated: whole; sampled, a window of its main loop
 * (run_sample.h); or sampled by waves, where it has no loop to cut
 * (run_waves.h). */
typedef enum { RUN_HOW_EXACT, RUN_HOW_WINDOW, RUN_HOW_WAVES } RunHow;

static RunHow
run_how (const GpuSpec *spec, const KernInstance *k, const RunOptions *o,
         guint64 blocks, guint64 per_wave)
{
    if (run_should_sample (k, o, blocks))
        return RUN_HOW_WINDOW;
    if (o->detailed_sms <= 0 &&
        run_waves_wanted (spec, k, o, blocks, per_wave))
        return RUN_HOW_WAVES;
    return RUN_HOW_EXACT;
}

/* A bar made of parts: with a warm-up launch, each simulated launch is
 * half of it, and a replay (warm_launches) the first half of the timed
 * launch's half; a sampled run whose traffic may be replayed
 * (sampled_launch) is the first half of its own, the replay the
 * second.
 * Parts start 'from' quarters in and fill 'quarters', in the first
 * part's units (its 'total') of twice them. */
typedef struct {
    RunProgressFn fn;       /* NULL: no bar */
    void *ctx;
    guint64 scale;
    guint64 from, quarters;
} Bar;

static void
bar_progress (void *ctx, guint64 done, guint64 total)
{
    Bar *b = ctx;
    if (b->from == 0)
        b->scale = total;
    /* In doubles: done x scale would wrap past 2^32 blocks. */
    double s = (double) b->scale;
    double part = total > 0 ? (double) done * s / (double) total : 0;
    b->fn (b->ctx, (guint64) (((double) b->from * s +
                               (double) b->quarters * part) / 2),
           2 * b->scale);
}

static void
bar_part (Bar *b, guint64 from, guint64 quarters)
{
    b->from = from;
    b->quarters = quarters;
}

/* Nothing more to come (no timed launch, no replay after all): the bar
 * runs to its end. */
static void
bar_done (Bar *b)
{
    if (b->fn != NULL)
        b->fn (b->ctx, 2 * b->scale, 2 * b->scale);
}

/* A sampled launch's DRAM traffic, held to what its L2 allows
 * (run_counters_bound_dram).  The extrapolation knows nothing of the
 * L2's size: it had sgemm-1 at 1024 on the A100, whose 12 MB the 40 MB
 * L2 holds, read 33.7 MB (the exact run the 12.6 MB of its three
 * matrices), and sgemm-3 at 1024 on an 8-SM A6000 write back none of
 * C's 4 MB, of which the exact run pushes 3.1 MB out of the 6 MB L2 as
 * the launch goes on. */
static void
bound_dram (const GpuSpec *spec, const KernInstance *k, RunResult *out,
            const RunL2 *l2)
{
    guint64 lines = 0, dirty = 0;
    if (l2->from != NULL)
        cache_census (l2->from, &lines, &dirty);
    double sector = spec->mem.l1_sector_bytes;
    double per_wave = (double) spec->device.sm_count *
                      (double) out->occ.blocks_per_sm;
    RunDramBounds b = { k->device_bytes, (double) spec->device.l2_kib * 1024,
                        sector, (double) dirty * sector,
                        (double) out->blocks / per_wave };
    out->extrapolated = out->mem;
    run_counters_bound_dram (&out->mem, &b);
}

/* A replay's budget where it stands for a sampled run's DRAM traffic,
 * in lines touched (run_replay_cost): about 3 s on one core.  sgemm-3
 * and -4 at 2048 on the A100 touch 17 and 21 million, some 1.1 s. */
#define REPLAY_TRAFFIC_LINES 5e7

/* Where a sampled run's one cold wave stands for later ones whose data
 * the L2 partly holds -- the launch's buffers more than the L2 but at
 * most twice it -- its DRAM traffic is taken from a replay of the
 * launch's addresses through the L2 (run_replay_traffic), if one is
 * cheap enough.  The cold wave's misses, scaled, made sgemm-3 and -4 at
 * 2048 on the A100 (48 MB in 40) move 197 and 114 MB against the exact
 * runs' 55.3 and 53.7; the replay moves 55.3 and 53.9.  Past twice the
 * L2 the waves find little of each other's data there, and the replay
 * gains little (sgemm-4 at 2048 on the A6000, 48 MB in 6: 162 MB,
 * sampled 166, exact 247; the exact run's SMs drift apart and share
 * less). */
static double
replay_traffic_cost (const GpuSpec *spec, const KernInstance *k)
{
    double l2 = (double) spec->device.l2_kib * 1024;
    if (k->device_bytes <= l2 || k->device_bytes > 2 * l2)
        return 0;
    double cost = run_replay_cost (spec, k);
    return cost <= REPLAY_TRAFFIC_LINES ? cost : 0;
}

/* The replay, of 'cost' lines (replay_traffic_cost), where the counters
 * are a cold wave's; it has the bar's second half. */
static void
replay_traffic (const GpuSpec *spec, const KernInstance *k, double cost,
                RunResult *out, Bar *bar)
{
    if (!out->cold_counters) {
        bar_done (bar);
        return;
    }
    out->replay_lines += cost;
    RunReplayTraffic t;
    run_replay_traffic (spec, k, (guint64) spec->device.sm_count *
                                     (guint64) out->occ.blocks_per_sm,
                        bar->fn != NULL ? bar_progress : NULL, bar, &t);
    MemStats *m = &out->mem;
    guint64 sector = (guint64) spec->mem.l1_sector_bytes;
    guint64 loads = memhier_l2_load_sectors (m);
    m->dram_read_bytes = t.read_sectors * sector;
    m->dram_write_bytes = t.written_sectors * sector;
    m->l2_hit_sectors = loads > t.read_sectors ? loads - t.read_sectors : 0;
    out->traffic_replayed = TRUE;
}

/* A launch sampled by a window, FALSE if it was not sampled after all
 * (run_sampled).  Where its traffic may be replayed, the run has the
 * bar's first half and the replay the second: a replay takes up to
 * some 3 s. */
static gboolean
sampled_launch (const GpuSpec *spec, const KernInstance *k,
                const RunOptions *options, RunResult *out, RunL2 *l2)
{
    double replay = l2->from == NULL ? replay_traffic_cost (spec, k) : 0;
    RunOptions o = *options;
    Bar bar = { replay > 0 ? options->progress : NULL,
                options->progress_ctx, 0, 0, 2 };
    if (bar.fn != NULL) {
        o.progress = bar_progress;
        o.progress_ctx = &bar;
    }
    if (!run_sampled (spec, k, out, &o, l2))
        return FALSE;
    bound_dram (spec, k, out, l2);
    bar_part (&bar, 2, 2);
    if (replay > 0)
        replay_traffic (spec, k, replay, out, &bar);
    return TRUE;
}

/* One launch, sampled or exact, from the L2 'l2' gives; 'out' holds
 * the launch, its occupancy, blocks and waves. */
static void
one_launch (const GpuSpec *spec, const KernInstance *k,
            const RunOptions *options, RunHow how, RunResult *out,
            RunL2 *l2)
{
    int all = spec->device.sm_count;
    gboolean sampled = how == RUN_HOW_WINDOW;
    out->block_kinds = out->block_kinds_met = 1;
    if (how == RUN_HOW_WAVES) {
        run_by_waves (spec, k, out, options, l2);
        if (out->sampled)
            bound_dram (spec, k, out, l2);
        return;
    }
    out->detailed_sms =
        options->detailed_sms > 0 ? options->detailed_sms
        : sampled ? run_sampled_detailed_sms (k, &out->occ, out->blocks, all,
                                              options->window)
                  : all;
    out->detailed_sms = MIN (out->detailed_sms, all);
    if (sampled && sampled_launch (spec, k, options, out, l2))
        return;
    /* Not sampled after all: as any exact run, all in full unless told
     * otherwise. */
    if (sampled && options->detailed_sms <= 0)
        out->detailed_sms = all;
    RunSample s;
    RunCost cost = { 0, 0 };
    run_simulate (spec, k, &out->occ, out->blocks, k->iterations,
                  out->detailed_sms, options, l2, &s, &cost);
    out->stats = s.st;
    out->mem = out->extrapolated = s.mem;
    out->events = cost.events;
    out->cycles = s.st.cycles;
    out->window = k->iterations;
    out->waves_run = out->waves;
    out->simulated_instructions = cost.instructions;
}

/* A replay's budget, in lines touched (run_replay_cost): about 5 s on
 * one core; the naive kernel at 1024 on the A100 touches 1.1 billion,
 * at 1536 3.7 billion. */
#define REPLAY_BUDGET_LINES 1.2e9

/* The data fit where a replay pushes out at most one line in this many
 * of the L2's.  The hash loads the sets unevenly (Poisson, 16 lines a
 * set on average where the data would fill the L2 exactly), so even
 * then a tenth are pushed out; one in 16 is by data of about 92 % of
 * it. */
#define REPLAY_FIT_EVICTIONS 16

/* A sampled warm-up's DRAM bytes, extrapolated, overshoot the data by
 * up to 3.3 times (pmpp-tiled at 1536 on the A100: about 90 MB for 27);
 * past this many times the L2 the data cannot fit, and the replay is
 * not tried.  That spares every SGEMM at 4096 (over 11 times the A100's
 * L2) a replay that would give up: 0.03 to 0.16 s each. */
#define REPLAY_TRIED_UP_TO 8

/* The L2 a whole launch leaves, replayed into 'l2->left' where the
 * sampled warm-up's data fit (RUN_WARM_REPLAYED); else why not, and
 * 'l2->left' stays NULL.  The replay has the bar's third quarter, the
 * timed launch then the fourth. */
static RunWarm
replayed_l2 (const GpuSpec *spec, const KernInstance *k, RunResult *out,
             RunL2 *l2, Bar *bar)
{
    guint64 bytes = (guint64) spec->device.l2_kib * 1024;
    guint64 lines = bytes / (guint64) spec->mem.l1_line_bytes;
    if (out->mem.dram_read_bytes > REPLAY_TRIED_UP_TO * bytes)
        return RUN_WARM_OUTGROWN;
    double cost = run_replay_cost (spec, k);
    if (cost > REPLAY_BUDGET_LINES)
        return RUN_WARM_TOO_DEAR;
    out->replay_lines += cost;
    bar_part (bar, 2, 1);
    l2->left = run_replay_l2 (spec, k, (guint64) spec->device.sm_count *
                                           (guint64) out->occ.blocks_per_sm,
                              lines / REPLAY_FIT_EVICTIONS,
                              bar->fn != NULL ? bar_progress : NULL, bar);
    if (l2->left == NULL)
        return RUN_WARM_OUTGROWN;
    bar_part (bar, 3, 1);
    return RUN_WARM_REPLAYED;
}

/* Launches back to back, as published figures are timed: a warm-up
 * launch (the harness's verification run, ../shared/data/README.md
 * 1b), then the timed ones, each starting from the L2 the one before
 * left and with the L1s empty, as at every kernel's start.  'out' holds
 * the warm-up; the first timed launch is simulated from its L2 and
 * stands for them all (RunWarm).  A warm-up that was sampled over part
 * of the launch (some blocks, a cut loop) left no whole launch's L2 --
 * a launch from it found nearly all its data there, sgemm-7 at 2048 on
 * the A100 3.9 % faster than cold where an exact pair gave 1.0 % -- so
 * then its accesses are replayed into one (run_replay.h), where its
 * data fit.  Where they do not, each launch starts where the one
 * before started, on the data it touched longest ago, which LRU evicts
 * first, and the timed launches are taken as cold: that skips a replay
 * that costs as much as the launch's global accesses for 1 % or so --
 * exact pairs of kernels 5 and 10 at 1024 on the A6000 (12 MB in 6 MB)
 * are 0.5 and 1.2 % slower than cold, as the launch before leaves C
 * dirty, and kernel 7 at 2048 on the A100 (48 MB in 40 MB) 1.0 %
 * faster.  The replay itself tells whether they fit, by what it has to
 * evict (REPLAY_FIT_EVICTIONS): the sampled warm-up's DRAM bytes,
 * extrapolated, can be several times the data (REPLAY_TRIED_UP_TO). */
static void
warm_launches (const GpuSpec *spec, const KernInstance *k,
               const RunOptions *options, RunHow how, RunResult *out,
               RunL2 *l2, Bar *bar)
{
    RunWarm warmed = l2->left != NULL ? RUN_WARM_LEFT
                                      : replayed_l2 (spec, k, out, l2, bar);
    if (l2->left == NULL) {
        out->warm = warmed;
        bar_done (bar);
        return;
    }
    RunResult warm = *out;
    RunL2 from = { l2->left, NULL, FALSE };
    one_launch (spec, k, options, how, &warm, &from);
    warm.warm = warmed;
    warm.events += out->events;
    warm.simulated_instructions += out->simulated_instructions;
    *out = warm;
}

/* The host memory the caches' tags may take: 1 GiB, a hundred times a
 * shipped preset's (the H100's 50 MB L2 and 132 L1s: 11 MB).  Past it
 * a what-if GPU -- 4096 SMs of 64 MiB L1s, or a 16 GiB L2 of 32-byte
 * lines -- took 9 to 32 GB, and the machine's memory with it, before
 * its first cycle. */
#define RUN_MAX_CACHE_HOST_BYTES ((guint64) 1 << 30)

static gboolean
check_host_memory (const GpuSpec *spec, const OccResult *occ, int n_sm,
                   guint64 launches, GError **error)
{
    const SpecMem *m = &spec->mem;
    guint64 l1 = (guint64) MAX (occ->l1_bytes, 0);
    guint64 bytes = memhier_host_bytes (spec, n_sm, l1);
    /* Launches back to back hold a second L2 beside the GPU's, the one
     * the timed launches start from (RunL2): a 7 GiB L2 took 0.9 GB
     * alone, 1.9 GB with --launches 2. */
    if (launches > 1)
        bytes += memhier_host_bytes (spec, 0, 0);
    if (bytes <= RUN_MAX_CACHE_HOST_BYTES)
        return TRUE;
    g_autofree char *l1s = n_sm == spec->device.sm_count
        ? g_strdup_printf ("device.sm_count = %d L1s", n_sm)
        : g_strdup_printf ("%d L1%s", n_sm, n_sm == 1 ? "" : "s");
    g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                 "the caches' tags and miss slots would take %"
                 G_GUINT64_FORMAT " MiB of host memory, more than smsim "
                 "allows (%" G_GUINT64_FORMAT
                 " MiB): %s of %" G_GUINT64_FORMAT
                 " B (sm.l1_smem_kib less the launch's shared memory) with "
                 "mem.l1_miss_slots = %d each, and %s of device.l2_kib = "
                 "%d, in lines of mem.l1_line_bytes = %d; take fewer SMs, "
                 "smaller caches or longer lines",
                 bytes >> 20, RUN_MAX_CACHE_HOST_BYTES >> 20,
                 l1s, l1, m->l1_miss_slots,
                 launches > 1 ? "two L2s (launches back to back keep the "
                                "one they start from)" : "an L2",
                 spec->device.l2_kib, m->l1_line_bytes);
    return FALSE;
}

gboolean
run_check_caches (const GpuSpec *spec, const OccResult *occ, int n_sm,
                  guint64 launches, GError **error)
{
    const SpecMem *m = &spec->mem;
    gint64 l1_set = (gint64) m->l1_line_bytes * m->l1_assoc;
    gint64 l2_set = (gint64) m->l1_line_bytes * m->l2_assoc;
    if (!spec->alloc.carveout)
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "alloc.carveout = false: the timing model sizes the L1 "
                     "from the unified L1/shared array, and a separate L1 "
                     "is not modelled");
    else if (occ->l1_bytes < l1_set)
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "the launch's carveout leaves %" G_GINT64_FORMAT " B of "
                     "L1 (sm.l1_smem_kib x 1024 - %" G_GINT64_FORMAT " B of "
                     "shared memory); one set of mem.l1_assoc = %d ways needs "
                     "%" G_GINT64_FORMAT " B", MAX (occ->l1_bytes, 0),
                     occ->launch_carveout, m->l1_assoc, l1_set);
    else if ((gint64) spec->device.l2_kib * 1024 < l2_set)
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "device.l2_kib = %d: one set of mem.l2_assoc = %d ways "
                     "needs %" G_GINT64_FORMAT " B", spec->device.l2_kib,
                     m->l2_assoc, l2_set);
    else
        return check_host_memory (spec, occ, n_sm, launches, error);
    return FALSE;
}

/* What the options ask of the launch, where it cannot give it: said,
 * not quietly cut to what it can. */
static gboolean
check_options (const GpuSpec *spec, const KernInstance *k,
               const RunOptions *o, GError **error)
{
    /* A window of a launch with no loop, or a sampled exact run (a
     * sampled run of a launch with no loop: check_by_waves). */
    gboolean asked = o->window > 0 || o->mode == RUN_SAMPLED;
    if (asked && (o->mode == RUN_EXACT ||
                  (o->window > 0 && !run_can_sample (k)))) {
        g_autofree char *what =
            o->window > 0
                ? g_strdup_printf ("a window of %" G_GUINT64_FORMAT
                                   " iterations", o->window)
                : g_strdup ("a sampled run");
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "%s: %s was asked for, but %s", kern_where (k), what,
                     o->mode == RUN_EXACT
                         ? "the run is exact"
                         : "the launch has no main loop a sampled run can "
                           "cut: 4 or more iterations, not empty, and in a "
                           "trace iteration markers (traces/FORMAT.md)");
        return FALSE;
    }
    if (o->detailed_sms > spec->device.sm_count) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "%d SMs in full: %s has %d", o->detailed_sms,
                     spec->id, spec->device.sm_count);
        return FALSE;
    }
    if (o->window > k->iterations) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "%s: a window of %" G_GUINT64_FORMAT " iterations: the "
                     "main loop has %" G_GUINT64_FORMAT, kern_where (k),
                     o->window, k->iterations);
        return FALSE;
    }
    /* The kernel's shared accesses reach its whole footprint: an
     * override may add to it (fewer blocks fit), not take from it. */
    if (o->smem >= 0 && o->smem < k->static_smem) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "%s: static shared memory of %" G_GINT64_FORMAT " B a "
                     "block: its shared accesses reach %" G_GINT64_FORMAT
                     " B; an override may add to that, not take from it",
                     kern_where (k), o->smem, k->static_smem);
        return FALSE;
    }
    return TRUE;
}

/* Past this many warp instructions the counters wrap: the stalls'
 * warp-cycle sums, every warp's cycles between its issues added up,
 * pass 2^63 (a pointer chase of 10^18 loads came out at 0 cycles, exit
 * 0).  They are about the warp instructions times the cycles a warp
 * waits between two: 2^50 (1.1e15) of them leave room for some 8,000
 * cycles each, past any latency or queue of a shipped preset; an
 * SGEMM at 65536 on the H100, whose memory holds it, is 4.1e13. */
#define RUN_MAX_WARP_INSTRUCTIONS 1125899906842624.0

static gboolean
check_count (const KernInstance *k, guint64 blocks, GError **error)
{
    double n = run_estimate_instructions (k, blocks);
    if (n <= RUN_MAX_WARP_INSTRUCTIONS)
        return TRUE;
    g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                 "%s: about %.2g warp instructions, more than smsim counts "
                 "(%.2g): its stall counters would overflow; take a "
                 "smaller --size or --param", kern_where (k), n,
                 RUN_MAX_WARP_INSTRUCTIONS);
    return FALSE;
}

/* A sampled run asked of a launch with no main loop: it is sampled by
 * waves, where it has enough of them, every SM in full. */
static gboolean
check_by_waves (const GpuSpec *spec, const KernInstance *k,
                const RunOptions *o, guint64 blocks, guint64 per_wave,
                GError **error)
{
    if (o->mode != RUN_SAMPLED || run_can_sample (k) ||
        (o->detailed_sms <= 0 &&
         run_waves_to_run (spec, k, blocks, per_wave) > 0))
        return TRUE;
    g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                 "%s: a sampled run was asked for, but the launch has no "
                 "main loop a sampled run can cut (4 or more iterations, "
                 "not empty, and in a trace iteration markers: "
                 "traces/FORMAT.md), %s", kern_where (k),
                 o->detailed_sms > 0
                     ? "and a run sampled by waves takes every SM in full "
                       "(no --detailed-sms)"
                     : k->device_bytes <= 0
                     ? "and its buffers, which a run by waves needs to "
                       "know, are not known (a trace's)"
                     : "nor the waves to be sampled by them: its full "
                       "waves are fewer than twice those a run by waves "
                       "takes, enough to fill the L2 eight times "
                       "(run_waves.c)");
    return FALSE;
}

/* What run_kernel finds before it simulates: the launch, its
 * occupancy, blocks and waves in 'out', and how it is to be run in
 * '*how'; FALSE where the GPU or the options refuse it. */
static gboolean
plan_run (const GpuSpec *spec, const KernInstance *k,
          const RunOptions *options, RunResult *out, RunHow *how,
          GError **error)
{
    memset (out, 0, sizeof *out);
    if (!spec->timing) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_UNKNOWN,
                     "%s: timing = false (no sourced timing numbers: an "
                     "occupancy and query preset): use a preset with timing "
                     "= true, v100, t4, a100, a6000 or h100 as shipped",
                     spec->id);
        return FALSE;
    }
    /* A what-if SM may hold more: occupancy takes it, the SM model
     * does not (sm.h). */
    if (spec->sm.max_threads / spec->device.warp_size > SM_MAX_WARPS) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "sm.max_threads = %d: the SM model holds at most %d "
                     "warps (%d threads), so it cannot run this GPU; "
                     "`smsim occupancy` can", spec->sm.max_threads,
                     SM_MAX_WARPS, SM_MAX_WARPS * spec->device.warp_size);
        return FALSE;
    }
    if (!check_options (spec, k, options, error))
        return FALSE;
    /* A trace's launch meets the GPU here (kern_instance_new checked a
     * model's). */
    if (!kern_check_launch (k, spec, error))
        return FALSE;
    launch_of (k, options, &out->launch);
    occ_compute (spec, &out->launch, &out->occ);
    if (!occ_check (spec, &out->launch, &out->occ, error) ||
        !occ_check_fits (spec, &out->occ, error) ||
        !run_check_caches (spec, &out->occ, spec->device.sm_count,
                           MAX (options->launches, 1), error)) {
        g_prefix_error (error, "%s: ", kern_where (k));
        return FALSE;
    }
    out->blocks = kern_blocks (k);
    guint64 per_wave = (guint64) spec->device.sm_count *
                       (guint64) out->occ.blocks_per_sm;
    out->waves = (out->blocks + per_wave - 1) / per_wave;
    if (!check_count (k, out->blocks, error) ||
        !check_by_waves (spec, k, options, out->blocks, per_wave, error))
        return FALSE;
    *how = run_how (spec, k, options, out->blocks, per_wave);
    return TRUE;
}

double
run_sampled_cost (const GpuSpec *spec, const KernInstance *k,
                  const RunOptions *o, guint64 *window)
{
    g_autofree RunResult *r = g_new (RunResult, 1);
    RunHow how;
    if (!plan_run (spec, k, o, r, &how, NULL) || how != RUN_HOW_WINDOW)
        return 0;
    return run_sampled_least (k, &r->occ, r->blocks, spec->device.sm_count,
                              o->window, window);
}

gboolean
run_kernel (const GpuSpec *spec, const KernInstance *k,
            const RunOptions *options, RunResult *out, GError **error)
{
    RunHow how;
    if (!plan_run (spec, k, options, out, &how, error))
        return FALSE;
    out->launches = MAX (options->launches, 1);
    RunL2 l2 = { NULL, NULL, out->launches > 1 };
    RunOptions o = *options;
    Bar bar = { options->progress, options->progress_ctx, 0, 0, 2 };
    if (out->launches > 1 && options->progress != NULL) {
        o.progress = bar_progress;
        o.progress_ctx = &bar;
    }
    one_launch (spec, k, &o, how, out, &l2);
    bar_part (&bar, 2, 2);
    if (out->launches > 1)
        warm_launches (spec, k, &o, how, out, &l2, &bar);
    g_clear_pointer (&l2.left, cache_free);
    figures (spec, k, out);
    return TRUE;
}

/* Each unit's names, long and short, and whether it is an SM's own
 * (the last wave's idle SMs leave theirs idle) or the GPU's. */
static const struct {
    const char *name, *brief;
    gboolean per_sm;
} units[RUN_N_UNITS] = {
    [RUN_UNIT_FP32] = { "the FP32 pipe", "FP32", TRUE },
    [RUN_UNIT_ISSUE] = { "instruction issue", "issue", TRUE },
    [RUN_UNIT_L1] = { "L1/LSU throughput", "L1", TRUE },
    [RUN_UNIT_SMEM] = { "shared-memory wavefronts", "smem", TRUE },
    [RUN_UNIT_L2] = { "L2 bandwidth", "L2", FALSE },
    [RUN_UNIT_DRAM] = { "DRAM bandwidth", "DRAM", FALSE },
};

const char *
run_unit_name (RunUnit unit)
{
    g_assert (unit < RUN_N_UNITS);
    return units[unit].name;
}

const char *
run_unit_brief (RunUnit unit)
{
    g_assert (unit < RUN_N_UNITS);
    return units[unit].brief;
}

/* Each unit's use over the run, a fraction of its peak. */
static void
unit_use (const GpuSpec *spec, const RunResult *r, double use[RUN_N_UNITS])
{
    const SimStats *st = &r->stats;
    const MemStats *m = &r->mem;
    double sm_cycles = (double) r->cycles * spec->device.sm_count;
    double sp_cycles = sm_cycles * spec->sm.sub_partitions;
    double bytes_per_cycle = 1e3 / spec->device.sm_clock_mhz;  /* GB/s -> B/clk */
    memset (use, 0, sizeof (double) * RUN_N_UNITS);
    if (r->cycles == 0)
        return;
    use[RUN_UNIT_FP32] = (double) (st->op_count[INSTR_FFMA] +
                                   st->op_count[INSTR_FADD] +
                                   st->op_count[INSTR_FMUL]) * 32.0 /
                         (sp_cycles * spec->pipe.fma_lanes);
    use[RUN_UNIT_ISSUE] = (double) st->warp_instructions / sp_cycles;
    use[RUN_UNIT_L1] = (double) m->l1_busy_cycles / sm_cycles;
    use[RUN_UNIT_SMEM] = (double) m->smem_wavefronts /
                         (sm_cycles * spec->mem.smem_bytes_per_clk /
                          (spec->mem.smem_banks * 4.0));
    use[RUN_UNIT_L2] = (double) m->l2_sectors * spec->mem.l1_sector_bytes /
                       ((double) r->cycles * spec->mem.l2_bandwidth_gbs *
                        bytes_per_cycle);
    use[RUN_UNIT_DRAM] = (double) (m->dram_read_bytes + m->dram_write_bytes) /
                         ((double) r->cycles * spec->device.dram_stream_gbs *
                          bytes_per_cycle);
}

static RunUnit
busiest (const double use[RUN_N_UNITS])
{
    RunUnit best = 0;
    for (RunUnit i = 1; i < RUN_N_UNITS; i++)
        if (use[i] > use[best])
            best = i;
    return best;
}

/* The use of an SM's own unit is the whole GPU's; the SMs that run the
 * most blocks run ceil (blocks / SMs) of them, so with blocks alike the
 * launch keeps such a unit busy at most blocks / (SMs x that) of the
 * time: the last wave (or a grid smaller than one) leaves the others
 * idle.  Each such unit's use, divided by that, is its use on the SMs
 * that run the most blocks; L2 and DRAM serve whoever is left.  Where
 * the others are not idle in proportion -- a unit that one block keeps
 * as busy as two, on an SM of the last wave holding fewer -- the
 * division passes every cycle, which no unit can: it is then busy every
 * cycle on those SMs (H100 sgemm-2 at 1024, sampled: 99.8 % over the
 * whole GPU, 103 % divided).  A use past 1 before the division is left
 * as it is: the counters disagree with the cycles, and that shows. */
static void
busiest_sm_use (const GpuSpec *spec, const RunResult *r,
                double use[RUN_N_UNITS])
{
    guint64 sms = (guint64) spec->device.sm_count;
    unit_use (spec, r, use);
    if (r->blocks == 0)
        return;
    double most = (double) ((r->blocks + sms - 1) / sms);
    double tail = (double) r->blocks / ((double) sms * most);
    for (RunUnit u = 0; u < RUN_N_UNITS; u++)
        if (units[u].per_sm)
            use[u] = use[u] > 1 ? use[u] / tail : MIN (1.0, use[u] / tail);
}

/* Each unit's ceiling is the GFLOP/s at which its use (busiest_sm_use)
 * would be 1. */
double
run_ceiling (const GpuSpec *spec, const RunResult *r, RunUnit *unit)
{
    double use[RUN_N_UNITS], lowest = 0;
    busiest_sm_use (spec, r, use);
    *unit = busiest (use);
    if (r->blocks == 0)
        return 0;
    /* The kernel's time at the unit's pace, plus the launch gap. */
    double gap = r->time_ms - r->kernel_ms;
    for (RunUnit u = 0; u < RUN_N_UNITS; u++) {
        if (use[u] <= 0)
            continue;
        double busy = r->kernel_ms * use[u];
        double c = r->gflops * r->time_ms / (busy + gap);
        if (lowest == 0 || c < lowest) {
            lowest = c;
            *unit = u;
        }
    }
    return lowest;
}

/* DRAM's use is a fraction of the stream bandwidth the preset gives it
 * (device.dram_stream_gbs, a measured copy), below the datasheet's peak
 * that `smsim query` also shows. */
const char *
run_unit_peak (RunUnit unit)
{
    g_assert (unit < RUN_N_UNITS);
    return unit == RUN_UNIT_DRAM ? "its measured stream bandwidth"
                                 : "its peak";
}

void
run_limiter (const GpuSpec *spec, const RunResult *r, char *buf, gsize size)
{
    const SimStats *st = &r->stats;
    double use[RUN_N_UNITS];
    busiest_sm_use (spec, r, use);
    RunUnit best = busiest (use);
    const char *where = units[best].per_sm && r->blocks <
                                                  (guint64) spec->device.sm_count
                            ? " on the SMs that run blocks" : "";
    if (r->cycles > 0 && use[best] >= 0.6) {
        g_snprintf (buf, size, "%s (%.0f %% of %s%s)", units[best].name,
                    100 * use[best], run_unit_peak (best), where);
        return;
    }
    int stall = STALL_NOT_SELECTED;
    for (int i = STALL_NOT_SELECTED; i < STALL_N; i++)
        if (st->warp_cycles[i] > st->warp_cycles[stall])
            stall = i;
    /* Warps that wait on results are latency not hidden; warps that wait
     * on anything else (another warp's issue, a full queue, a barrier)
     * are not too few. */
    gboolean latency = stall == STALL_LONG_SCOREBOARD ||
                       stall == STALL_SHORT_SCOREBOARD || stall == STALL_WAIT;
    g_snprintf (buf, size, "%s (busiest unit, %s, at %.0f %%%s; warps wait "
                "most on %s)", latency ? "latency: too few warps to hide it"
                                       : "no unit near its peak",
                units[best].name, 100 * use[best], where,
                stats_stall_name ((StallReason) stall));
}
