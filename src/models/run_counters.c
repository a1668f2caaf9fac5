/*
 * run_counters.c -- a sampled run's counters, extrapolated.  See
 * run_counters.h.
 *
 * The run's counters, times all blocks over its blocks, plus each
 * block's iterations past the window at the first wave's rate per block
 * and iteration; the memory's over the wave's whole window and its
 * loop's requests alone (run_counters_first_memory).  Not at the later
 * waves' rate where the cycles go by it (run_sample.c): that span's
 * fixed costs, C's stores above all, would count once per cut iteration
 * (kernel 7 at 1024 on 4 SMs moved 18 % more through L1).  Or, with one
 * block per SM and full waves past the run's, as the cycles do: the
 * run's once, and each wave past it what the run's waves past the first
 * row added, at their rate (by_rows).
 *
 * Where drift within a block or between blocks grows with the loop,
 * counters that follow it fall short with any window: kernel 1 at 1024
 * on the A6000 moves 1.7 million L2 sectors a wave in 32 iterations and
 * 5.0 million in 64, as its warps, which meet at no barrier, drift apart
 * and stop sharing B's lines in L1 (its cycles, bound by the L1's
 * throughput, stay within 0.1 %).
 */
#include "config.h"

#include <math.h>

#include "models/run_counters.h"

/* Counters are all 64-bit (run_sim.c): by_rows and by_rate take them as
 * arrays. */
#define N_COUNTERS(x) (sizeof (x) / sizeof (guint64))

/* Between marks, the memory counts what warps ahead of the mark did:
 * where a block's warps drift apart and the leaders' first touches
 * bring the lines the rest then find (kernel 1, whose 32 warps meet at
 * no barrier and share A's lines), most of the window's DRAM traffic
 * falls in its first quarter, and the marks' rate made kernel 1's DRAM
 * bytes at 1024 on the A6000 1.45 times the exact run's (now 1.06).  By
 * the first retirement every warp is done or near it, and the loop's
 * counts leave out the epilogue's (C's loads and stores, which at the
 * first retirement every block has made: with them, kernel 5's L2
 * traffic at 2048 on 8 SMs came out 1.9 times exact). */
RunSpan
run_counters_first_memory (const RunSpan *marks, const MemStats *loop,
                           double done)
{
    RunSpan m = *marks;
    if (done > 0 && loop->load_requests + loop->store_requests +
                        loop->smem_requests > 0) {
        m.from.mem = (MemStats) { 0 };
        m.to.mem = *loop;
        m.apart = done;
    }
    return m;
}

/* The counters, one array of 'n', where the waves past the run's go as
 * its later waves did: the run's, as they are (the launch has one first
 * row too); the iterations its blocks did not do, the first row's at
 * the first wave's rate and the others' at the later wave's; and each
 * full wave past the run, what one of the run's waves past the first
 * row added (between the bounds) and its iterations past the window at
 * the later wave's rate.  Scaling the whole run instead, first row and
 * all, and taking the first wave's rate made kernel 3's DRAM bytes at
 * 512 on 8 SMs 3.3 times the exact run's, and kernel 2's L2 traffic at
 * 4096 on the A6000 105 % of the L2's bandwidth over its cycles. */
static void
by_rows (guint64 *total, const guint64 *run, const void *first0,
         const void *first1, double first_apart, const void *later0,
         const void *later1, double later_apart, const void *bound0,
         const void *bound1, double bounds_apart, const RunShape *s, gsize n)
{
    const guint64 *f0 = first0, *f1 = first1, *l0 = later0, *l1 = later1;
    const guint64 *b0 = bound0, *b1 = bound1;
    for (gsize i = 0; i < n; i++) {
        double rf = ((double) f1[i] - (double) f0[i]) / first_apart;
        double rl = ((double) l1[i] - (double) l0[i]) / later_apart;
        double wave = ((double) b1[i] - (double) b0[i]) / bounds_apart;
        double v = (double) run[i] +
                   s->more * (rf * s->first_row + rl * (s->run - s->first_row)) +
                   s->waves_past * (wave + s->per_wave * s->more * rl);
        total[i] = v > 0 ? (guint64) (v + 0.5) : 0;
    }
}

/* The memory's counters, one array of 'n', where the waves past the
 * first find in L2 what the waves before them brought, as over the
 * window so over the whole loop: the run's once (the launch has one
 * first wave too); each block past the run, the run's requests outside
 * the loop ('run' less 'run_loop'), a block's worth; the first row's
 * iterations past the window at the first wave's rate (each of its
 * waves reads its part of B from DRAM), and every other block's, the
 * run's past the window and the launch's past the run whole, at the
 * later waves' loop's.  Scaling the run by the blocks, cold first
 * wave and all, at the first wave's rate made kernel 4's DRAM bytes at
 * 1024 on 8 SMs 3.25 times the exact run's: every block paid for B,
 * which only the first wave reads from DRAM.  The later waves' loop
 * alone, as the first wave's: their span holds blocks' ends and starts,
 * and C's loads and stores counted per iteration would count once per
 * iteration cut. */
static void
by_rate (guint64 *total, const guint64 *run, const void *run_loop,
         const void *first0, const void *first1, double first_apart,
         const void *later0, const void *later1, double later_apart,
         const RunShape *s, gsize n)
{
    const guint64 *r1 = run_loop, *f0 = first0, *f1 = first1;
    const guint64 *l0 = later0, *l1 = later1;
    double later_work = (s->blocks - s->run) * s->iterations +
                        (s->run - s->first_row) * s->more;
    for (gsize i = 0; i < n; i++) {
        double fixed = ((double) run[i] - (double) r1[i]) / s->run;
        double rf = ((double) f1[i] - (double) f0[i]) / first_apart;
        double rl = ((double) l1[i] - (double) l0[i]) / later_apart;
        double v = (double) run[i] + (s->blocks - s->run) * fixed +
                   s->more * s->first_row * rf + later_work * rl;
        total[i] = v > 0 ? (guint64) (v + 0.5) : 0;
    }
}

static void
by_blocks (RunSample *all, const RunSample *run, const RunShape *s,
           const RunRates *r)
{
    double times = s->blocks / s->run;
    RunSample mem;
    run_sample_combine (all, run, times, &r->first.to, &r->first.from,
                        s->blocks * s->more / r->first.apart);
    run_sample_combine (&mem, run, times, &r->first_mem.to,
                        &r->first_mem.from,
                        s->blocks * s->more / r->first_mem.apart);
    all->mem = mem.mem;
}

/* Shared memory keeps the first wave's: its counts, which mirrors do not
 * play, are scaled by the blocks launched (gpu.h), and the partial last
 * wave's, launched as the run's last full wave retires, have no
 * mirrors. */
static void
keep_smem (MemStats *mem, const MemStats *first_wave)
{
    mem->smem_requests = first_wave->smem_requests;
    mem->smem_wavefronts = first_wave->smem_wavefronts;
    mem->smem_conflicts = first_wave->smem_conflicts;
}

void
run_counters (RunSample *all, const RunSample *run, const RunShape *s,
              const RunRates *r)
{
    by_blocks (all, run, s, r);
    MemStats first_wave = all->mem;
    if (r->by_rate && r->later.apart > 0) {
        by_rate ((guint64 *) &all->mem, (const guint64 *) &run->mem,
                 &run->loop, &r->first_mem.from.mem, &r->first_mem.to.mem,
                 r->first_mem.apart, &r->later.from.loop, &r->later.to.loop,
                 r->later.apart, s, N_COUNTERS (all->mem));
        keep_smem (&all->mem, &first_wave);
        return;
    }
    if (!r->by_rows || r->later.apart <= 0 || r->mem_bounds.apart <= 0)
        return;
    by_rows ((guint64 *) &all->st, (const guint64 *) &run->st,
             &r->first.from.st, &r->first.to.st, r->first.apart,
             &r->later.from.st, &r->later.to.st, r->later.apart,
             &r->bounds.from.st, &r->bounds.to.st, r->bounds.apart, s,
             N_COUNTERS (all->st));
    /* The memory's later rate by the loop's requests alone, as the
     * first's: the span holds blocks' epilogues, whose C stores counted
     * once per cut iteration (sgemm-1 at 1024 on 8 SMs stored 69 MB,
     * twice the 33.6 MB of its 1024^2 threads' one sector each). */
    by_rows ((guint64 *) &all->mem, (const guint64 *) &run->mem,
             &r->first_mem.from.mem, &r->first_mem.to.mem,
             r->first_mem.apart, &r->later.from.loop, &r->later.to.loop,
             r->later.apart, &r->mem_bounds.from.mem,
             &r->mem_bounds.to.mem, r->mem_bounds.apart, s,
             N_COUNTERS (all->mem));
    keep_smem (&all->mem, &first_wave);
}

/* The dirty bytes the L2 still holds at the launch's end (see
 * run_counters_bound_dram): walking back from the end, each wave's
 * dirtied bytes, stored as its blocks end, are held as far as the
 * fills after them leave room; the partial wave is the last. */
static double
held_at_end (const RunDramBounds *b, double fills, double dirtied)
{
    if (fills <= b->l2_bytes)       /* nothing pushed out, old or new */
        return dirtied + b->dirty_at_start;
    double waves = MAX (b->waves, 1.0);
    double f = fills / waves, d = dirtied / waves;
    double held = 0, later = 0;
    double left = waves, part = waves - floor (waves);
    if (part == 0)
        part = 1;
    while (left > 0 && later < b->l2_bytes) {
        held += CLAMP (b->l2_bytes - later, 0, d * part);
        later += f * part;
        left -= part;
        part = MIN (1.0, left);
    }
    return held;    /* what was dirty at the start, all pushed out */
}

void
run_counters_bound_dram (MemStats *m, const RunDramBounds *b)
{
    gboolean fits = b->footprint > 0 && b->footprint <= b->l2_bytes;
    if (fits && (double) m->dram_read_bytes > b->footprint) {
        guint64 most = (guint64) b->footprint;
        guint64 hits = (guint64) ((double) (m->dram_read_bytes - most) /
                                  b->sector_bytes + 0.5);
        m->dram_read_bytes = most;
        m->l2_hit_sectors = MIN (m->l2_hit_sectors + hits,
                                 memhier_l2_load_sectors (m));
    }
    double dirtied = (double) m->l2_dirtied_sectors * b->sector_bytes;
    double dirty = dirtied + b->dirty_at_start;
    double held = held_at_end (b, (double) m->dram_read_bytes + dirtied,
                               dirtied);
    double w = fits ? 0
                    : CLAMP (MAX ((double) m->dram_write_bytes, dirty - held),
                             0, dirty);
    m->dram_write_bytes = (guint64) (w + 0.5);
}
