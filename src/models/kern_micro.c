/*
 * kern_micro.c -- the microbenchmarks calibration and figures need:
 *
 *   pchase   one thread chases pointers over a working set: each load's
 *            address is the previous load's result, so the time per
 *            load is the latency of the level the set fits in;
 *   stream   a copy, one float per thread: DRAM bandwidth;
 *   loaduse  every warp loops { load; use it }: latency hiding with the
 *            number of resident warps (Little's law);
 *   smemld   the warps of one block load shared memory back to back in a
 *            lane pattern: the SM cycles a load takes are its wavefronts
 *            (kernels/cuda/probes.cu times the same loop on a GPU);
 *   iloop    the warps of one block loop over N independent FFMAs: the
 *            instructions a cycle as the loop outgrows the instruction
 *            caches (probes.cu's icache probe).
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
    k->bytes_param = "WS";
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
    k->bytes_param = "FOOTPRINT";
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

/* A probe's launch: one block of 'size' warps, 1 to 32. */
static gboolean
one_block (KernInstance *k, const char *name, GError **error)
{
    if (k->size < 1 || k->size > 32) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_SIZE,
                     "%s: %" G_GINT64_FORMAT " warps: one block of 1 to 32",
                     name, k->size);
        return FALSE;
    }
    k->threads = 32 * (int) k->size;
    k->grid_x = k->grid_y = 1;
    return TRUE;
}

/* ------------------------------------------------------------------ */
/* smemld                                                              */

/* The loop of kernels/cuda/probes.cu's smem_probe as nvcc 13.0 compiles
 * it for sm_86 (`make probes-sass`): volatile loads 512 B apart, 4 KB
 * further every other source iteration (which moves no word to another
 * bank), their words XORed into one register by LOP3s (2 a 128-bit
 * load, 1 a 64-bit one, 1 per two 32-bit ones), and the loop's counter,
 * compare and branch.  nvcc unrolls 8 source iterations of 8 loads at
 * 16 B (4 at 8 B, 16 at 4 B); the model plays 8 at every width, the
 * same mix per load. */
enum { SMEMLD_SOURCE_ITERS = 8, SMEMLD_LOADS = 8, SMEMLD_WINDOW = 512 };
enum { SMEMLD_UNIFORM, SMEMLD_HALVES, SMEMLD_K6_BS, SMEMLD_ROWS,
       SMEMLD_STRIDE2 };
enum { R_LD = 100, R_TMP = 140, R_ACC, R_CTR };

static const KernParam smemld_params[] = {
    { "WIDTH", 16, 4, 16, "bytes a lane loads: 4, 8 or 16" },
    { "PATTERN", 0, 0, 4,
      "lanes' addresses: 0 one for all, 1 one per half-warp 32 B apart, "
      "2 lane l at (l % 16) x 32 B, 3 consecutive, 4 every other (probes.cu)" },
    { "ITERS", 32, 1, 1 << 20,
      "iterations of the compiled loop (64 loads each) per warp" },
};

static guint64
smemld_lane_addr (const KProgram *p, guint64 block, int tid, guint64 iter,
                  const KOp *op)
{
    guint64 lane = (guint64) tid % 32, width = (guint64) p->k->param[0];
    guint64 at = (guint64) (op->arg / SMEMLD_LOADS % 2) *
                 SMEMLD_LOADS * SMEMLD_WINDOW +
                 (guint64) (op->arg % SMEMLD_LOADS) * SMEMLD_WINDOW;
    (void) block;
    (void) iter;
    switch (p->k->param[1]) {
    case SMEMLD_UNIFORM: return at;
    case SMEMLD_HALVES: return at + lane / 16 * 32;
    case SMEMLD_K6_BS: return at + lane % 16 * 32;
    case SMEMLD_ROWS: return at + lane * width;
    default: return at + lane * 2 * width;
    }
}

static void
smemld_build (KProgram *p, int width)
{
    int words = width / 4;
    kgen_add (p, KGEN_PROLOGUE, INSTR_MOV, R_ACC, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG);
    kgen_add (p, KGEN_PROLOGUE, INSTR_BAR, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG, INSTR_NO_REG);
    for (int i = 0; i < SMEMLD_SOURCE_ITERS; i++) {
        for (int k = 0; k < SMEMLD_LOADS; k++) {
            int reg = R_LD + 4 * k;
            kgen_mem (p, KGEN_BODY, INSTR_LDS, reg, R_CTR, width, 1,
                      i * SMEMLD_LOADS + k);
        }
        for (int k = 0; k < SMEMLD_LOADS; k++) {
            int reg = R_LD + 4 * k;
            if (words == 4)
                kgen_add (p, KGEN_BODY, INSTR_LOP3, R_TMP, reg, reg + 1,
                          reg + 2);
            if (words == 4 || words == 2)
                kgen_add (p, KGEN_BODY, INSTR_LOP3, R_ACC,
                          words == 4 ? R_TMP : reg, reg + words - 1, R_ACC);
            else if (k % 2 == 1)
                kgen_add (p, KGEN_BODY, INSTR_LOP3, R_ACC, reg - 4, reg,
                          R_ACC);
        }
    }
    kgen_add (p, KGEN_BODY, INSTR_IADD3, R_CTR, R_CTR, INSTR_NO_REG,
              INSTR_NO_REG);
    kgen_add (p, KGEN_BODY, INSTR_ISETP, R_TMP + 1, R_CTR, INSTR_NO_REG,
              INSTR_NO_REG);
    kgen_add (p, KGEN_BODY, INSTR_BRA, INSTR_NO_REG, R_TMP + 1, INSTR_NO_REG,
              INSTR_NO_REG);
    kgen_add (p, KGEN_EPILOGUE, INSTR_BAR, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG, INSTR_NO_REG);
}

static gboolean
smemld_setup (KernInstance *k, const GpuSpec *spec, GError **error)
{
    int width = (int) k->param[0];
    (void) spec;
    if (width != 4 && width != 8 && width != 16) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "smemld: WIDTH = %d: a shared load is 4, 8 or 16 bytes "
                     "a lane", width);
        return FALSE;
    }
    if (!one_block (k, "smemld", error))
        return FALSE;
    /* ptxas -v, nvcc 13.0, sm_86: 34 registers at 4 and 16 bytes, 32 at
     * 8; the 16 KB buffer the loads read. */
    k->regs = width == 8 ? 32 : 34;
    k->static_smem = 16384;
    k->flops = 0;
    k->device_bytes = 12;       /* the probe's result and sink words */
    k->iterations = (guint64) k->param[2];
    KProgram *p = kgen_program_new_lanes (k, smemld_lane_addr);
    smemld_build (p, width);
    kgen_table_lanes (p);
    k->data = p;
    return TRUE;
}

const KernModel kern_smemld_model = {
    "smemld", "one block's warps load shared memory back to back "
    "(wavefronts; kernels/cuda/probes.cu)",
    smemld_params, G_N_ELEMENTS (smemld_params), "warps in the block (1-32)",
    smemld_setup, stream_open, free_data, FALSE, NULL
};

/* ------------------------------------------------------------------ */
/* iloop                                                               */

/* The loop of kernels/cuda/probes.cu's icache_probe as nvcc 13.0
 * compiles it for sm_86 (decoded from its cubin): N FFMAs on 8
 * accumulators, R5 and R7 to R19 odd (each its own chain, so a warp
 * never waits on one with 8 at least the FFMA latency), each
 * 'FFMA Rk, Rk, R0.reuse, 0.5': one constant in a register its reuse
 * bit keeps, the other an immediate, so no two reads meet in a bank;
 * then the loop's counter, compare and branch.  Its code is 16 bytes an
 * instruction: what it measures is how fast the instructions come
 * (fetch.* keys, icache.h). */
enum { ILOOP_CHAINS = 8, R_IACC = 5, R_IB = 0, R_ICTR = 4, R_IP = 2 };

static const KernParam iloop_params[] = {
    { "N", 1024, ILOOP_CHAINS, 1 << 20,
      "FFMAs in the loop's body, a multiple of 8 (16 B of code each)" },
    { "ITERS", 16, 1, 1 << 20, "iterations of the loop per warp" },
};

static gboolean
iloop_setup (KernInstance *k, const GpuSpec *spec, GError **error)
{
    gint64 n = k->param[0];
    (void) spec;
    if (n % ILOOP_CHAINS != 0) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "iloop: N = %" G_GINT64_FORMAT ": a multiple of %d (one "
                     "FFMA a chain, round the chains)", n, ILOOP_CHAINS);
        return FALSE;
    }
    if (!one_block (k, "iloop", error))
        return FALSE;
    k->regs = 22;               /* ptxas -v, nvcc 13.0, sm_86 */
    k->flops = 2.0 * (double) n * (double) k->param[1] * (double) k->threads;
    k->device_bytes = 12;       /* the probe's result and sink words */
    k->iterations = (guint64) k->param[1];
    KProgram *p = kgen_program_new (k, NULL);
    kgen_add (p, KGEN_PROLOGUE, INSTR_BAR, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG, INSTR_NO_REG);
    for (gint64 i = 0; i < n; i++) {
        int acc = R_IACC + 2 * (int) (i % ILOOP_CHAINS);
        kgen_add (p, KGEN_BODY, INSTR_FFMA, acc, acc, R_IB,
                  INSTR_NO_REG)->reuse = 1u << 1;
    }
    kgen_add (p, KGEN_BODY, INSTR_IADD3, R_ICTR, R_ICTR, INSTR_NO_REG,
              INSTR_NO_REG);
    kgen_add (p, KGEN_BODY, INSTR_ISETP, R_IP, R_ICTR, INSTR_NO_REG,
              INSTR_NO_REG);
    kgen_add (p, KGEN_BODY, INSTR_BRA, INSTR_NO_REG, R_IP, INSTR_NO_REG,
              INSTR_NO_REG);
    kgen_add (p, KGEN_EPILOGUE, INSTR_BAR, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG, INSTR_NO_REG);
    k->data = p;
    return TRUE;
}

const KernModel kern_iloop_model = {
    "iloop", "one block's warps loop over N independent FFMAs (instruction "
    "fetch; kernels/cuda/probes.cu)",
    iloop_params, G_N_ELEMENTS (iloop_params), "warps in the block (1-32)",
    iloop_setup, stream_open, free_data, FALSE, NULL
};
