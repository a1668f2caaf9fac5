/*
 * kern_vecadd.c -- the seeds' array addition (the CUDA book's add
 * kernel, seed 002): z[n] = x[n] + y[n], one element per thread, with the
 * bounds check n < N.
 *
 * Instruction mix as nvcc emits it for that kernel (S2R for the thread
 * and block index, shown here as MOV; IMAD for the index; ISETP and a
 * predicated EXIT for the bounds check; IMAD.WIDE per address; two
 * loads, FADD, a store).
 */
#include "config.h"

#include "models/kern_regs.h"
#include "models/kgen.h"

enum { ADDR_X = 1, ADDR_Y, ADDR_Z };

static const KernParam params[] = {
    { "BLOCK", 128, 1, 1024, "threads per block (the book uses 128)" },
};

static void
address (const KProgram *p, guint64 block, int warp, guint64 iter,
         const KOp *op, Instr *out)
{
    guint64 n = p->k->size;
    guint64 first = block * (guint64) p->k->threads + (guint64) warp * 32;
    /* x, y and z lie one after the other, each 256-byte aligned. */
    guint64 array = (n * 4 + 255) / 256 * 256;
    (void) iter;
    out->addr_mode = INSTR_ADDR_STRIDE;
    out->addr_base = 0x10000000ull + (guint64) (op->addr - ADDR_X) * array +
                     first * 4;
    out->addr_stride = 4;
}

static gboolean
setup (KernInstance *k, const GpuSpec *spec, GError **error)
{
    int block = (int) kern_param (k, "BLOCK");
    (void) error;
    k->threads = block;
    k->grid_x = ((guint64) k->size + (guint64) block - 1) / (guint64) block;
    k->grid_y = 1;
    /* ptxas -v of kernels/cuda/vecadd.cuh (kernels/cuda/registers.csv,
     * nvcc 13.0.88; the block size does not change it). */
    k->regs = kern_regs_lookup ("vecadd", "default", spec);
    g_assert (k->regs > 0);
    k->flops = (double) k->size;
    /* The last block's threads past N fail the bounds check. */
    k->uneven = k->size % block != 0;
    k->device_bytes = 3.0 * 4 * (double) k->size;     /* x, y and z */
    k->iterations = 0;
    KProgram *p = kgen_program_new (k, address);
    kgen_add (p, KGEN_PROLOGUE, INSTR_MOV, 0, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG);
    kgen_add (p, KGEN_PROLOGUE, INSTR_MOV, 3, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG);
    kgen_add (p, KGEN_PROLOGUE, INSTR_IMAD, 0, 3, 0, INSTR_NO_REG);
    kgen_add (p, KGEN_PROLOGUE, INSTR_ISETP, 1, 0, INSTR_NO_REG, INSTR_NO_REG);
    kgen_add (p, KGEN_PROLOGUE, INSTR_IMAD, 2, 0, INSTR_NO_REG, INSTR_NO_REG)->n_dst = 2;
    kgen_add (p, KGEN_PROLOGUE, INSTR_IMAD, 4, 0, INSTR_NO_REG, INSTR_NO_REG)->n_dst = 2;
    kgen_mem (p, KGEN_PROLOGUE, INSTR_LDG, 6, 2, 4, ADDR_X, 0);
    kgen_mem (p, KGEN_PROLOGUE, INSTR_LDG, 7, 4, 4, ADDR_Y, 0);
    kgen_add (p, KGEN_PROLOGUE, INSTR_IMAD, 8, 0, INSTR_NO_REG, INSTR_NO_REG)->n_dst = 2;
    kgen_add (p, KGEN_PROLOGUE, INSTR_FADD, 9, 6, 7, INSTR_NO_REG);
    kgen_mem (p, KGEN_EPILOGUE, INSTR_STG, 9, 8, 4, ADDR_Z, 0);
    k->data = p;
    return TRUE;
}

/* Lanes past N fail the bounds check: they take no part. */
static InstrStream *
open_warp (const KernInstance *k, guint64 block, int warp,
           guint64 iterations)
{
    guint64 first = block * (guint64) k->threads + (guint64) warp * 32;
    guint64 in_block = MIN (32, (guint64) k->threads - (guint64) warp * 32);
    guint64 live = first >= (guint64) k->size ? 0
                   : MIN (in_block, (guint64) k->size - first);
    guint32 mask = instr_first_lanes ((gint64) live);
    return kgen_stream_new (k->data, block, warp, mask, iterations);
}

/* The last block's threads past N take no part. */
static KernBlockWork
block_work (const KernInstance *k, guint64 block)
{
    guint64 first = block * (guint64) k->threads;
    guint64 left = first >= (guint64) k->size ? 0 : (guint64) k->size - first;
    guint64 live = MIN ((guint64) k->threads, left);
    return (KernBlockWork) { live, (int) ((live + 31) / 32) };
}

static void
free_data (void *data)
{
    kgen_program_free (data);
}

const KernModel kern_vecadd_model = {
    "vecadd", "z = x + y, one element per thread (the CUDA book's add)",
    params, G_N_ELEMENTS (params), "N, the number of elements",
    setup, open_warp, free_data, FALSE, block_work
};
