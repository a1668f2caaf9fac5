/*
 * occ.c -- exact theoretical occupancy and the textbook estimate.
 * See occ.h for the rules and their source.
 */
#include "config.h"

#include <string.h>

#include "models/occ.h"

G_DEFINE_QUARK (smsim-launch-error-quark, occ_error)

static gint64
div_up (gint64 x, gint64 unit)
{
    return (x + unit - 1) / unit;
}

static gint64
round_up (gint64 x, gint64 unit)
{
    return div_up (x, unit) * unit;
}

static int
min_int (int a, int b)
{
    return a < b ? a : b;
}

gint64
occ_carveout_step (const GpuSpec *spec, gint64 bytes)
{
    const SpecIntList *steps = &spec->alloc.carveout_steps_kib;
    for (int i = 0; i < steps->n; i++)
        if ((gint64) steps->v[i] * 1024 >= bytes)
            return (gint64) steps->v[i] * 1024;
    return -1;
}

static gboolean
input_ok (const OccLaunch *l)
{
    return l->threads_per_block >= 1 && l->regs_per_thread >= 0 &&
           l->static_smem_bytes >= 0 && l->dyn_smem_bytes >= 0 &&
           l->carveout_pct >= -1 && l->carveout_pct <= 100;
}

/* cudaOccMaxBlocksPerSMRegsLimit's rule. */
static OccStatus
regs_limit (const GpuSpec *spec, const OccLaunch *l, OccResult *r)
{
    const int subs = spec->sm.sub_partitions;
    if (l->regs_per_thread > spec->alloc.max_regs_per_thread)
        return OCC_TOO_MANY_REGS;
    r->regs_per_warp_raw = l->regs_per_thread * spec->device.warp_size;
    r->regs_per_warp = round_up (r->regs_per_warp_raw, spec->alloc.reg_unit);
    r->regs_per_block = r->regs_per_warp * r->warps_per_block;
    /* The hardware checks a block's registers as if every sub-partition
     * got the same number of its warps. */
    r->regs_block_check = r->regs_per_warp *
                          round_up (r->warps_per_block, spec->alloc.reg_check_warps);
    r->regs_per_sub_partition = spec->sm.registers / subs;
    if (r->regs_block_check > spec->sm.max_regs_per_block ||
        r->regs_per_block > spec->sm.max_regs_per_block)
        return OCC_REGS_PER_BLOCK;
    if (r->regs_per_warp == 0) {
        r->limit_regs = OCC_UNLIMITED;
        return OCC_OK;
    }
    r->warps_per_sub_partition =
        (int) (r->regs_per_sub_partition / r->regs_per_warp);
    r->limit_regs = r->warps_per_sub_partition * subs / r->warps_per_block;
    return OCC_OK;
}

/* The pool of shared memory the resident blocks divide. */
static gint64
smem_pool (const GpuSpec *spec, const OccLaunch *l, OccResult *r)
{
    if (!spec->alloc.carveout)
        return spec->sm.smem_bytes;  /* cc < 7: preference not a carveout */
    gint64 want = l->carveout_pct < 0
                      ? spec->sm.smem_bytes
                      : (gint64) l->carveout_pct * spec->sm.smem_bytes / 100;
    r->smem_preference = occ_carveout_step (spec, want);
    if (r->smem_preference >= r->smem_per_block)
        return r->smem_preference;
    /* A preference too small for one block yields to the block. */
    return occ_carveout_step (spec, r->smem_per_block);
}

/* cudaOccMaxBlocksPerSMSmemLimit's rule.  smsim assumes the kernel
 * opted in (cudaFuncAttributeMaxDynamicSharedMemorySize) whenever it
 * asks for more than the default per-block amount. */
static OccStatus
smem_limit (const GpuSpec *spec, const OccLaunch *l, OccResult *r)
{
    const SpecSm *sm = &spec->sm;
    if (l->static_smem_bytes > sm->smem_per_block)
        return OCC_STATIC_SMEM;
    /* Before the sum, which a huge request would overflow. */
    if (l->dyn_smem_bytes > sm->smem_per_block_optin)
        return OCC_SMEM_PER_BLOCK;
    r->smem_per_block_raw = l->static_smem_bytes + l->dyn_smem_bytes +
                            sm->smem_reserved_per_block;
    r->smem_per_block = round_up (r->smem_per_block_raw, spec->alloc.smem_unit);
    r->smem_block_max = (gint64) sm->smem_per_block_optin +
                        sm->smem_reserved_per_block;
    if (l->static_smem_bytes + l->dyn_smem_bytes > sm->smem_per_block_optin ||
        r->smem_per_block > r->smem_block_max)
        return OCC_SMEM_PER_BLOCK;
    r->smem_pool = smem_pool (spec, l, r);
    r->limit_smem = r->smem_per_block > 0
                        ? (int) (r->smem_pool / r->smem_per_block)
                        : OCC_UNLIMITED;
    return OCC_OK;
}

/* The carveout the driver sets up at launch decides the L1 size; with
 * no preference it is the preset's (assumed) rule. */
static void
launch_carveout (const GpuSpec *spec, const OccLaunch *l, OccResult *r)
{
    if (!spec->alloc.carveout) {
        r->launch_carveout = spec->sm.smem_bytes;
        r->l1_bytes = -1;  /* a separate L1: not modelled here */
        return;
    }
    if (l->carveout_pct >= 0)
        r->launch_carveout = r->smem_pool;
    else if (spec->alloc.launch_carveout == SPEC_CARVEOUT_MAX_SHARED)
        r->launch_carveout = spec->sm.smem_bytes;
    else
        r->launch_carveout = occ_carveout_step (
            spec, (gint64) r->blocks_per_sm * r->smem_per_block);
    r->l1_bytes = (gint64) spec->sm.l1_smem_kib * 1024 - r->launch_carveout;
}

static void
combine (const GpuSpec *spec, const OccLaunch *l, OccResult *r)
{
    int blocks = min_int (min_int (r->limit_blocks, r->limit_warps),
                          min_int (r->limit_regs, r->limit_smem));
    r->blocks_per_sm = blocks;
    r->limiter = (r->limit_blocks == blocks ? OCC_LIMITER_BLOCKS : 0) |
                 (r->limit_warps == blocks ? OCC_LIMITER_WARPS : 0) |
                 (r->limit_regs == blocks ? OCC_LIMITER_REGS : 0) |
                 (r->limit_smem == blocks ? OCC_LIMITER_SMEM : 0);
    r->warps_per_sm = blocks * r->warps_per_block;
    r->threads_per_sm = blocks * (int) l->threads_per_block;
    r->occupancy_pct = 100.0 * r->warps_per_sm / r->max_warps_per_sm;
    launch_carveout (spec, l, r);
}

void
occ_compute (const GpuSpec *spec, const OccLaunch *l, OccResult *r)
{
    memset (r, 0, sizeof *r);
    r->max_warps_per_sm = spec->sm.max_threads / spec->device.warp_size;
    if (!input_ok (l)) {
        r->status = OCC_BAD_INPUT;
        return;
    }
    if (l->threads_per_block > spec->sm.max_threads_per_block) {
        r->status = OCC_TOO_MANY_THREADS;
        return;
    }
    r->warps_per_block = (int) div_up (l->threads_per_block,
                                       spec->device.warp_size);
    r->limit_blocks = spec->sm.max_blocks;
    r->limit_warps = r->max_warps_per_sm / r->warps_per_block;
    r->status = regs_limit (spec, l, r);
    if (r->status == OCC_OK)
        r->status = smem_limit (spec, l, r);
    if (r->status == OCC_OK)
        combine (spec, l, r);
}

const char *
occ_limiter_name (unsigned limiter, char *buf, gsize size)
{
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {
        { OCC_LIMITER_REGS, "registers" },
        { OCC_LIMITER_SMEM, "shared_mem" },
        { OCC_LIMITER_WARPS, "warps" },
        { OCC_LIMITER_BLOCKS, "blocks" },
    };
    buf[0] = '\0';
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        if (limiter & names[i].bit) {
            if (buf[0] != '\0')
                g_strlcat (buf, "+", size);
            g_strlcat (buf, names[i].name, size);
        }
    if (buf[0] == '\0')
        g_strlcpy (buf, "none", size);
    return buf;
}

static void
bad_input (const OccLaunch *l, GError **error)
{
    if (l->threads_per_block < 1)
        g_set_error (error, SMSIM_LAUNCH_ERROR, OCC_BAD_INPUT,
                     "%" G_GINT64_FORMAT " threads per block: a block needs "
                     "at least 1 thread", l->threads_per_block);
    else if (l->regs_per_thread < 0)
        g_set_error (error, SMSIM_LAUNCH_ERROR, OCC_BAD_INPUT,
                     "%" G_GINT64_FORMAT " registers per thread: must not be "
                     "negative", l->regs_per_thread);
    else if (l->static_smem_bytes < 0 || l->dyn_smem_bytes < 0)
        g_set_error (error, SMSIM_LAUNCH_ERROR, OCC_BAD_INPUT,
                     "shared memory of %" G_GINT64_FORMAT " B: must not be "
                     "negative", MIN (l->static_smem_bytes, l->dyn_smem_bytes));
    else
        g_set_error (error, SMSIM_LAUNCH_ERROR, OCC_BAD_INPUT,
                     "carveout %d %%: must be 0..100 (or -1, the default)",
                     l->carveout_pct);
}

gboolean
occ_check (const GpuSpec *spec, const OccLaunch *l, const OccResult *r,
           GError **error)
{
    const char *gpu = spec->id;
    switch (r->status) {
    case OCC_OK:
        return TRUE;
    case OCC_BAD_INPUT:
        bad_input (l, error);
        break;
    case OCC_TOO_MANY_THREADS:
        g_set_error (error, SMSIM_LAUNCH_ERROR, r->status,
                     "a block of %" G_GINT64_FORMAT " threads cannot launch: "
                     "%s allows at most %d threads per block "
                     "(sm.max_threads_per_block)", l->threads_per_block,
                     gpu, spec->sm.max_threads_per_block);
        break;
    case OCC_TOO_MANY_REGS:
        g_set_error (error, SMSIM_LAUNCH_ERROR, r->status,
                     "%" G_GINT64_FORMAT " registers per thread cannot launch: "
                     "%s allocates at most %d per thread "
                     "(alloc.max_regs_per_thread)", l->regs_per_thread,
                     gpu, spec->alloc.max_regs_per_thread);
        break;
    case OCC_REGS_PER_BLOCK:
        g_set_error (error, SMSIM_LAUNCH_ERROR, r->status,
                     "%" G_GINT64_FORMAT " registers x %" G_GINT64_FORMAT
                     " threads cannot launch: the block needs %" G_GINT64_FORMAT
                     " registers (%" G_GINT64_FORMAT " per warp x %d warps, "
                     "checked as %" G_GINT64_FORMAT "), %s allows %d per block "
                     "(sm.max_regs_per_block)",
                     l->regs_per_thread, l->threads_per_block, r->regs_per_block,
                     r->regs_per_warp, r->warps_per_block, r->regs_block_check,
                     gpu, spec->sm.max_regs_per_block);
        break;
    case OCC_STATIC_SMEM:
        g_set_error (error, SMSIM_LAUNCH_ERROR, r->status,
                     "%" G_GINT64_FORMAT " B of static shared memory cannot "
                     "launch: a kernel may declare at most %d B statically on "
                     "%s (sm.smem_per_block); more needs dynamic shared "
                     "memory",
                     l->static_smem_bytes, spec->sm.smem_per_block, gpu);
        break;
    case OCC_SMEM_PER_BLOCK: {
        /* Both are >= 0 here; their sum is shown where it fits. */
        gboolean sums = l->dyn_smem_bytes <= G_MAXINT64 - l->static_smem_bytes;
        g_autofree char *total = sums ? g_strdup_printf (
            " = %" G_GINT64_FORMAT " B", l->static_smem_bytes +
                                          l->dyn_smem_bytes) : g_strdup ("");
        g_set_error (error, SMSIM_LAUNCH_ERROR, r->status,
                     "%" G_GINT64_FORMAT " B static + %" G_GINT64_FORMAT
                     " B dynamic%s of shared memory per block cannot launch: "
                     "%s allows at most %d B per block (with opt-in: "
                     "sm.smem_per_block_optin)",
                     l->static_smem_bytes, l->dyn_smem_bytes, total, gpu,
                     spec->sm.smem_per_block_optin);
        break;
    }
    case OCC_NO_BLOCK_FITS:    /* occ_check_fits's; occ_compute's never */
        g_assert_not_reached ();
    }
    return FALSE;
}

gboolean
occ_check_fits (const GpuSpec *spec, const OccResult *r, GError **error)
{
    if (r->status != OCC_OK || r->blocks_per_sm > 0)
        return TRUE;
    g_autoptr (GString) why = g_string_new (NULL);
    if (r->limit_regs == 0)
        g_string_append_printf (
            why, "; registers: a warp takes %" G_GINT64_FORMAT ", a "
            "sub-partition holds %d (sm.registers / sm.sub_partitions), so "
            "the SM's %d hold %d warps, and a block has %d",
            r->regs_per_warp, r->regs_per_sub_partition,
            spec->sm.sub_partitions,
            r->warps_per_sub_partition * spec->sm.sub_partitions,
            r->warps_per_block);
    if (r->limit_warps == 0)
        g_string_append_printf (
            why, "; warps: the SM holds %d (sm.max_threads), a block has %d",
            r->max_warps_per_sm, r->warps_per_block);
    if (r->limit_smem == 0)
        g_string_append_printf (
            why, "; shared memory: a block takes %" G_GINT64_FORMAT " B, the "
            "carveout gives %" G_GINT64_FORMAT " B", r->smem_per_block,
            r->smem_pool);
    if (r->limit_blocks == 0)
        g_string_append (why, "; block slots: sm.max_blocks = 0");
    g_set_error (error, SMSIM_LAUNCH_ERROR, OCC_NO_BLOCK_FITS,
                 "not one block fits an SM of %s, so the launch cannot "
                 "run%s (`smsim occupancy` shows the arithmetic)", spec->id,
                 why->str);
    return FALSE;
}

void
occ_textbook (const GpuSpec *spec, const OccLaunch *l, OccTextbook *e)
{
    const double threads = (double) l->threads_per_block;
    const double smem = (double) l->static_smem_bytes +
                        (double) l->dyn_smem_bytes;
    memset (e, 0, sizeof *e);
    if (l->threads_per_block < 1)
        return;
    e->smem_bytes_per_thread = smem / threads;
    e->threads_by_slots = MIN ((double) spec->sm.max_threads,
                               (double) spec->sm.max_blocks * threads);
    e->threads_by_regs = l->regs_per_thread > 0
                             ? (double) (spec->sm.registers / l->regs_per_thread)
                             : G_MAXDOUBLE;
    e->threads_by_smem = smem > 0 ? (double) (gint64) (spec->sm.smem_bytes /
                                                       e->smem_bytes_per_thread)
                                  : G_MAXDOUBLE;
    e->threads = MIN (e->threads_by_slots,
                      MIN (e->threads_by_regs, e->threads_by_smem));
    e->occupancy_pct = 100.0 * e->threads / spec->sm.max_threads;
}
