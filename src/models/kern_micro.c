/*
 * kern_micro.c -- the microbenchmarks calibration and figures need:
 *
 *   pchase   one thread chases pointers over a working set: each load's
 *            address is the previous load's result, so the time per
 *            load is the latency of the level the set fits in;
 *   stream   a copy, one float per thread: DRAM bandwidth;
 *   loaduse  every warp loops { load; use it }: latency hiding with the
 *            number of resident warps (Little's law).
 */
#include "config.h"

#include "models/kgen.h"

#define BASE 0x100000000ull

static void
free_data (void *data)
{
    kgen_program_free (data);
}

/* ------------------------------------------------------------------ */
/* pchase                                                              */

static const KernParam pchase_params[] = {
    { "WS", 16384, 128, G_GINT64_CONSTANT (1) << 40, "working set, bytes" },
    { "STRIDE", 128, 4, 1 << 20,
      "bytes between consecutive loads (a multiple of 4, at most WS)" },
};

static void
pchase_address (const KProgram *p, guint64 block, int warp, guint64 iter,
                const KOp *op, Instr *out)
{
    guint64 ws = (guint64) p->k->param[0], stride = (guint64) p->k->param[1];
    (void) block;
    (void) warp;
    (void) op;
    out->addr_mode = INSTR_ADDR_STRIDE;
    out->addr_base = BASE + (iter * stride) % ws;
    out->addr_stride = 0;
}

static gboolean
pchase_setup (KernInstance *k, const GpuSpec *spec, GError **error)
{
    gint64 ws = kern_param (k, "WS"), stride = kern_param (k, "STRIDE");
    (void) spec;
    /* Each load fetches the next 4-byte pointer: one the stride leaves
     * misaligned would fault, and a stride past the working set only
     * wraps round it (1 MB in 128 B reads one address, as 128 does). */
    if (stride % 4 != 0 || stride > ws) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "pchase: STRIDE %" G_GINT64_FORMAT ": %s",
                     stride, stride % 4 != 0
                                 ? "a multiple of 4 (the pointers are 4 "
                                   "bytes, aligned)"
                                 : "at most WS (a longer stride wraps "
                                   "round the working set)");
        return FALSE;
    }
    k->threads = 32;
    k->grid_x = k->grid_y = 1;
    k->regs = 16;
    k->flops = 0;
    /* The working set, or what the chase reaches of it. */
    k->device_bytes = MIN ((double) ws, (double) k->size * (double) stride);
    k->iterations = (guint64) k->size;
    KProgram *p = kgen_program_new (k, pchase_address);
    /* LDG R2 <- [R2]: the address is the last load's value. */
    kgen_mem (p, KGEN_BODY, INSTR_LDG, 2, 2, 4, 1, 0);
    k->data = p;
    return TRUE;
}

static InstrStream *
pchase_open (const KernInstance *k, guint64 block, int warp,
             guint64 iterations)
{
    return kgen_stream_new (k->data, block, warp, 1u, iterations);
}

const KernModel kern_pchase_model = {
    "pchase", "pointer chase by one thread over a working set",
    pchase_params, G_N_ELEMENTS (pchase_params), "loads to chase",
    pchase_setup, pchase_open, free_data, FALSE, NULL
};

/* ------------------------------------------------------------------ */
/* stream                                                              */

static const KernParam stream_params[] = {
    { "BLOCK", 256, 32, 1024, "threads per block" },
};

static void
stream_address (const KProgram *p, guint64 block, int warp, guint64 iter,
                const KOp *op, Instr *out)
{
    guint64 n = (guint64) p->k->size;
    guint64 first = block * (guint64) p->k->threads + (guint64) warp * 32;
    (void) iter;
    out->addr_mode = INSTR_ADDR_STRIDE;
    out->addr_base = BASE + (op->addr == 2 ? n * 4 : 0) + first * 4;
    out->addr_stride = 4;
}

static gboolean
stream_setup (KernInstance *k, const GpuSpec *spec, GError **error)
{
    int block = (int) k->param[0];
    (void) spec;
    if (k->size % block != 0) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_SIZE,
                     "stream: N = %" G_GINT64_FORMAT " is not a multiple of "
                     "BLOCK = %d", k->size, block);
        return FALSE;
    }
    k->threads = block;
    k->grid_x = (guint64) (k->size / block);
    k->grid_y = 1;
    k->regs = 8;
    k->flops = 0;
    k->device_bytes = 2.0 * 4 * (double) k->size;     /* from and to */
    KProgram *p = kgen_program_new (k, stream_address);
    kgen_add (p, KGEN_PROLOGUE, INSTR_IMAD, 0, 1, 2, INSTR_NO_REG);
    kgen_add (p, KGEN_PROLOGUE, INSTR_IMAD, 2, 0, INSTR_NO_REG, INSTR_NO_REG)->n_dst = 2;
    kgen_mem (p, KGEN_PROLOGUE, INSTR_LDG, 4, 2, 4, 1, 0);
    kgen_add (p, KGEN_PROLOGUE, INSTR_IMAD, 6, 0, INSTR_NO_REG, INSTR_NO_REG)->n_dst = 2;
    kgen_mem (p, KGEN_EPILOGUE, INSTR_STG, 4, 6, 4, 2, 0);
    k->data = p;
    return TRUE;
}

static InstrStream *
stream_open (const KernInstance *k, guint64 block, int warp,
             guint64 iterations)
{
    return kgen_stream_new (k->data, block, warp, 0xffffffffu, iterations);
}

const KernModel kern_stream_model = {
    "stream", "copy N floats, one per thread (DRAM bandwidth)",
    stream_params, G_N_ELEMENTS (stream_params), "N, floats to copy",
    stream_setup, stream_open, free_data, FALSE, NULL
};

/* ------------------------------------------------------------------ */
/* loaduse                                                             */

static const KernParam loaduse_params[] = {
    { "ITERS", 100, 1, 1 << 30, "load-use iterations per warp" },
    { "FOOTPRINT", 16384, 128, G_GINT64_CONSTANT (1) << 40,
      "bytes all warps' loads cycle over (sets which level they hit)" },
};

static void
loaduse_address (const KProgram *p, guint64 block, int warp, guint64 iter,
                 const KOp *op, Instr *out)
{
    guint64 warps = (guint64) p->k->size;
    guint64 footprint = (guint64) p->k->param[1];
    (void) warp;
    (void) op;
    /* Each warp reads a full line, a new one every iteration. */
    out->addr_mode = INSTR_ADDR_STRIDE;
    out->addr_base = BASE + ((iter * warps + block) * 128) % footprint;
    out->addr_stride = 4;
}

static gboolean
loaduse_setup (KernInstance *k, const GpuSpec *spec, GError **error)
{
    (void) spec;
    (void) error;
    k->threads = 32;
    k->grid_x = (guint64) k->size;
    k->grid_y = 1;
    k->regs = 16;
    k->iterations = (guint64) k->param[0];
    k->flops = 2.0 * 32 * (double) k->size * (double) k->iterations;
    /* The footprint, or what the loads reach of it: a line a warp an
     * iteration. */
    k->device_bytes = MIN ((double) kern_param (k, "FOOTPRINT"),
                           128.0 * (double) k->size * (double) k->iterations);
    KProgram *p = kgen_program_new (k, loaduse_address);
    kgen_mem (p, KGEN_BODY, INSTR_LDG, 4, 2, 4, 1, 0);
    kgen_add (p, KGEN_BODY, INSTR_FFMA, 5, 4, 4, 5);
    k->data = p;
    return TRUE;
}

const KernModel kern_loaduse_model = {
    "loaduse", "each warp loops { load; use it }: latency hiding",
    loaduse_params, G_N_ELEMENTS (loaduse_params),
    "warps (one-warp blocks)", loaduse_setup, stream_open, free_data, FALSE,
    NULL
};
