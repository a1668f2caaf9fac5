/*
 * explain.c -- occupancy in sentences.  See explain.h.
 *
 * Each sentence is built from the numbers occ_compute returned, never
 * recomputed here, so the text cannot disagree with the table above it.
 */
#include "config.h"

#include <math.h>

#include "cli/explain.h"

/* "(12.8, rounded down)" when a division left a remainder. */
static void
rounded (GString *out, double exact)
{
    if (exact != (double) (gint64) exact)
        g_string_append_printf (out, " (%.2f, rounded down)", exact);
}

static const char *
plural (gint64 n)
{
    return n == 1 ? "" : "s";
}

static void
why_regs (GString *out, const GpuSpec *s, const OccLaunch *l,
          const OccResult *r)
{
    int subs = s->sm.sub_partitions;
    g_string_append_printf (out, "  registers: %" G_GINT64_FORMAT " x %d "
                            "threads = %" G_GINT64_FORMAT " per warp",
                            l->regs_per_thread, s->device.warp_size,
                            r->regs_per_warp_raw);
    if (r->regs_per_warp != r->regs_per_warp_raw)
        g_string_append_printf (out, ", rounded up to the %d-register "
                                "allocation unit: %" G_GINT64_FORMAT,
                                s->alloc.reg_unit, r->regs_per_warp);
    g_string_append_printf (out, ".\n    Each of the %d sub-partitions holds "
                            "%d registers: %d / %" G_GINT64_FORMAT " = %d warps",
                            subs, r->regs_per_sub_partition,
                            r->regs_per_sub_partition, r->regs_per_warp,
                            r->warps_per_sub_partition);
    rounded (out, (double) r->regs_per_sub_partition / (double) r->regs_per_warp);
    g_string_append_printf (out, ", %d warps per SM;\n    a block has %d "
                            "warp%s: %d / %d = %d block%s",
                            r->warps_per_sub_partition * subs,
                            r->warps_per_block, plural (r->warps_per_block),
                            r->warps_per_sub_partition * subs,
                            r->warps_per_block, r->limit_regs,
                            plural (r->limit_regs));
    rounded (out, (double) (r->warps_per_sub_partition * subs) / r->warps_per_block);
    g_string_append (out, ".\n");
}

static void
why_smem (GString *out, const GpuSpec *s, const OccLaunch *l,
          const OccResult *r)
{
    g_string_append_printf (out, "  shared memory: each block allocates %"
                            G_GINT64_FORMAT " B static + %" G_GINT64_FORMAT
                            " B dynamic", l->static_smem_bytes,
                            l->dyn_smem_bytes);
    if (s->sm.smem_reserved_per_block > 0)
        g_string_append_printf (out, " + %d B the driver reserves",
                                s->sm.smem_reserved_per_block);
    g_string_append_printf (out, " = %" G_GINT64_FORMAT " B", r->smem_per_block_raw);
    if (r->smem_per_block != r->smem_per_block_raw)
        g_string_append_printf (out, ", rounded up to the %d B unit: %"
                                G_GINT64_FORMAT " B", s->alloc.smem_unit,
                                r->smem_per_block);
    g_string_append_printf (out, ".\n    The SM's shared memory (%"
                            G_GINT64_FORMAT " B", r->smem_pool);
    if (s->alloc.carveout)
        g_string_append_printf (out, ", the %" G_GINT64_FORMAT " KB carveout",
                                r->smem_pool / 1024);
    g_string_append_printf (out, ") holds %" G_GINT64_FORMAT " / %"
                            G_GINT64_FORMAT " = %d block%s", r->smem_pool,
                            r->smem_per_block, r->limit_smem,
                            plural (r->limit_smem));
    rounded (out, (double) r->smem_pool / (double) r->smem_per_block);
    g_string_append (out, ": only whole blocks are resident.\n");
    if (s->alloc.carveout && l->carveout_pct >= 0 &&
        r->smem_preference < r->smem_per_block)
        g_string_append_printf (out, "    The %d %% carveout preference (%"
                                G_GINT64_FORMAT " B) is smaller than one "
                                "block, so the driver raises it to the next "
                                "step that fits one.\n",
                                l->carveout_pct, r->smem_preference);
}

static void
why_warps (GString *out, const OccLaunch *l, const OccResult *r)
{
    g_string_append_printf (out, "  warp slots: a block of %" G_GINT64_FORMAT
                            " threads is %d warp%s; %d warp slots / %d = %d "
                            "block%s", l->threads_per_block, r->warps_per_block,
                            plural (r->warps_per_block), r->max_warps_per_sm,
                            r->warps_per_block, r->limit_warps,
                            plural (r->limit_warps));
    rounded (out, (double) r->max_warps_per_sm / r->warps_per_block);
    g_string_append (out, ".\n");
}

static void
why_blocks (GString *out, const GpuSpec *s, const OccResult *r)
{
    g_string_append_printf (out, "  block slots: an SM holds at most %d "
                            "block%s; %d block%s x %d warp%s = %d of %d warp "
                            "slots.\n", s->sm.max_blocks,
                            plural (s->sm.max_blocks), r->limit_blocks,
                            plural (r->limit_blocks), r->warps_per_block,
                            plural (r->warps_per_block),
                            r->limit_blocks * r->warps_per_block,
                            r->max_warps_per_sm);
}

void
explain_limits (GString *out, const GpuSpec *s, const OccLaunch *l,
                const OccResult *r)
{
    g_string_append (out, "Why:\n");
    if (r->limiter & OCC_LIMITER_REGS)
        why_regs (out, s, l, r);
    if (r->limiter & OCC_LIMITER_SMEM)
        why_smem (out, s, l, r);
    if (r->limiter & OCC_LIMITER_WARPS)
        why_warps (out, l, r);
    if (r->limiter & OCC_LIMITER_BLOCKS)
        why_blocks (out, s, r);
    if (r->blocks_per_sm == 0)
        g_string_append (out, "  Not one block fits an SM: the launch "
                              "cannot run (`smsim run` refuses it).\n");
}

static void
estimate_terms (GString *out, const GpuSpec *s, const OccLaunch *l,
                const OccTextbook *e)
{
    if (l->regs_per_thread > 0)
        g_string_append_printf (out, "  registers:     %d / %" G_GINT64_FORMAT
                                " per thread = %.0f threads\n", s->sm.registers,
                                l->regs_per_thread, e->threads_by_regs);
    if (e->smem_bytes_per_thread > 0)
        g_string_append_printf (out, "  shared memory: %" G_GINT64_FORMAT
                                " B / %" G_GINT64_FORMAT " threads = %.4g B "
                                "per thread; %d B / %.4g B = %.0f threads\n",
                                l->static_smem_bytes + l->dyn_smem_bytes,
                                l->threads_per_block, e->smem_bytes_per_thread,
                                s->sm.smem_bytes, e->smem_bytes_per_thread,
                                e->threads_by_smem);
    g_string_append_printf (out, "  thread slots:  %.0f threads (%d per SM, "
                            "%d block%s of %" G_GINT64_FORMAT ")\n",
                            e->threads_by_slots, s->sm.max_threads,
                            s->sm.max_blocks, plural (s->sm.max_blocks),
                            l->threads_per_block);
}

/* The effects the per-thread arithmetic leaves out, where they matter. */
static void
differences (GString *out, const GpuSpec *s, const OccLaunch *l,
             const OccResult *r, const OccTextbook *e)
{
    g_string_append (out, "  The exact answer differs because the hardware "
                          "allocates:\n");
    if (e->threads != (double) r->threads_per_sm)
        g_string_append_printf (out, "    - whole blocks: %.0f threads is "
                                "%.2f blocks of %" G_GINT64_FORMAT "; %d "
                                "block%s fit%s\n", e->threads,
                                e->threads / (double) l->threads_per_block,
                                l->threads_per_block, r->blocks_per_sm,
                                plural (r->blocks_per_sm),
                                r->blocks_per_sm == 1 ? "s" : "");
    if (l->threads_per_block % s->device.warp_size != 0)
        g_string_append_printf (out, "    - whole warps: a block of %"
                                G_GINT64_FORMAT " threads takes %d warp "
                                "slots (%d threads), and occupancy counts "
                                "warps: %d of %d\n", l->threads_per_block,
                                r->warps_per_block,
                                r->warps_per_block * s->device.warp_size,
                                r->warps_per_sm, r->max_warps_per_sm);
    if (r->regs_per_warp != r->regs_per_warp_raw)
        g_string_append_printf (out, "    - registers per warp in units of "
                                "%d (%" G_GINT64_FORMAT ", not %"
                                G_GINT64_FORMAT ")\n", s->alloc.reg_unit,
                                r->regs_per_warp, r->regs_per_warp_raw);
    if (r->regs_per_warp > 0 &&
        r->regs_per_sub_partition % r->regs_per_warp != 0)
        g_string_append_printf (out, "    - registers per sub-partition: "
                                "each of the %d holds whole warps\n",
                                s->sm.sub_partitions);
    if (s->sm.smem_reserved_per_block > 0)
        g_string_append_printf (out, "    - %d B of shared memory per block "
                                "for the driver\n",
                                s->sm.smem_reserved_per_block);
    if (r->smem_pool != s->sm.smem_bytes)
        g_string_append_printf (out, "    - a carveout of %" G_GINT64_FORMAT
                                " B, not the full %d B\n", r->smem_pool,
                                s->sm.smem_bytes);
}

double
explain_tenth (double pct)
{
    return floor (pct * 10 + 0.5) / 10;
}

void
explain_textbook (GString *out, const GpuSpec *s, const OccLaunch *l,
                  const OccResult *r, const OccTextbook *e)
{
    g_string_append_printf (out, "\nTextbook estimate (per-thread arithmetic, "
                            "as in PMPP 4.7/5.6): %.1f %%\n",
                            explain_tenth (e->occupancy_pct));
    estimate_terms (out, s, l, e);
    g_string_append_printf (out, "  -> %.0f of %d threads\n", e->threads,
                            s->sm.max_threads);
    /* Equal thread counts are equal occupancies only when blocks are
     * whole warps: occupancy counts warps, the estimate threads. */
    if (e->threads == (double) r->threads_per_sm &&
        l->threads_per_block % s->device.warp_size == 0) {
        g_string_append (out, "  The exact rules agree here.\n");
        return;
    }
    differences (out, s, l, r, e);
}
