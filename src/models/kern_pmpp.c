/*
 * kern_pmpp.c -- the tiled matrix multiplication of PMPP chapter 5
 * (seed 000: Fig. 5.9 with static Mds/Nds tiles, Fig. 5.14 with one
 * dynamic array split in two): P = M x N, square Width x Width,
 * TILE_WIDTH x TILE_WIDTH blocks, one P element per thread.
 *
 *   Row = by * TW + ty;  Col = bx * TW + tx;
 *   for ph in 0 .. Width / TW:
 *       Mds[ty][tx] = M[Row * Width + ph * TW + tx];
 *       Nds[ty][tx] = N[(ph * TW + ty) * Width + Col];
 *       __syncthreads ();
 *       for k in 0 .. TW: Pvalue += Mds[ty][k] * Nds[k][tx];
 *       __syncthreads ();
 *   P[Row * Width + Col] = Pvalue;
 *
 * Per phase nvcc emits (kernels/cuda/pmpp.cuh, sm_86): the two loads and
 * stores, two barriers, TW FFMAs, TW scalar reads of Nds and TW / 4
 * 128-bit reads of the Mds row (the same row for a whole half-warp), and
 * a handful of integer instructions: the shape of SGEMM kernel 3, whose
 * reference SASS it follows.
 */
#include "config.h"

#include "models/kern_regs.h"
#include "models/kgen.h"

enum { AD_M = 1, AD_N, AD_MDS_ST, AD_NDS_ST, AD_MDS_LD, AD_NDS_LD, AD_P };

static const KernParam params[] = {
    { "TILE_WIDTH", 16, 4, 32, "tile side; blocks are TILE_WIDTH^2 threads" },
    { "DYNAMIC", 0, 0, 1, "1: the tiles in dynamic shared memory (Fig. 5.14)" },
};

#define BASE 0x100000000ull

/* A part that depends on the block and phase alone plus one that
 * depends on the thread alone (kgen_program_new_lanes tables it). */
static guint64
lane_addr (const KProgram *p, guint64 block, int tid, guint64 ph,
           const KOp *op)
{
    const KernInstance *k = p->k;
    guint64 w = (guint64) k->size, tw = (guint64) k->param[0];
    guint64 tiles = w / tw;
    guint64 bx = block % tiles, by = block / tiles;
    guint64 tx = (guint64) tid % tw, ty = (guint64) tid / tw;
    guint64 row = by * tw + ty, col = bx * tw + tx;
    guint64 bytes = (w * w * 4 + 4095) / 4096 * 4096;
    switch (op->addr) {
    case AD_M:
        return BASE + (row * w + ph * tw + tx) * 4;
    case AD_N:
        return BASE + bytes + ((ph * tw + ty) * w + col) * 4;
    case AD_P:
        return BASE + 2 * bytes + (row * w + col) * 4;
    case AD_MDS_ST:
        return (ty * tw + tx) * 4;
    case AD_NDS_ST:
        return tw * tw * 4 + (ty * tw + tx) * 4;
    case AD_MDS_LD:  /* Mds[ty][4 * arg .. 4 * arg + 3] */
        return (ty * tw + 4 * (guint64) op->arg) * 4;
    case AD_NDS_LD:  /* Nds[arg][tx] */
        return tw * tw * 4 + ((guint64) op->arg * tw + tx) * 4;
    }
    g_assert_not_reached ();
}

static void
alu (KProgram *p, int seg, InstrOp op, int n)
{
    for (int i = 0; i < n; i++)
        kgen_add (p, seg, op, 240 + i % 8, 240 + (i + 1) % 8, INSTR_NO_REG,
                  INSTR_NO_REG);
}

static void
build (KProgram *p, int tw)
{
    alu (p, KGEN_PROLOGUE, INSTR_MOV, 4);
    alu (p, KGEN_PROLOGUE, INSTR_IMAD, 6);
    alu (p, KGEN_BODY, INSTR_IMAD, 1);
    kgen_mem (p, KGEN_BODY, INSTR_LDG, 192, 224, 4, AD_M, 0);
    kgen_mem (p, KGEN_BODY, INSTR_LDG, 193, 224, 4, AD_N, 0);
    kgen_mem (p, KGEN_BODY, INSTR_STS, 192, 224, 4, AD_MDS_ST, 0);
    kgen_mem (p, KGEN_BODY, INSTR_STS, 193, 224, 4, AD_NDS_ST, 0);
    kgen_add (p, KGEN_BODY, INSTR_BAR, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG, INSTR_NO_REG);
    for (int kk = 0; kk < tw; kk++) {
        int bank = 128 + (kk / 4 % 2) * 8;
        if (kk % 4 == 0)
            kgen_mem (p, KGEN_BODY, INSTR_LDS, bank, 224, 16, AD_MDS_LD, kk / 4);
        kgen_mem (p, KGEN_BODY, INSTR_LDS, 160 + kk % 16, 224, 4, AD_NDS_LD, kk);
        kgen_add (p, KGEN_BODY, INSTR_FFMA, 0, bank + kk % 4, 160 + kk % 16, 0);
    }
    alu (p, KGEN_BODY, INSTR_IADD3, 4);
    alu (p, KGEN_BODY, INSTR_MOV, 2);
    kgen_add (p, KGEN_BODY, INSTR_BAR, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG, INSTR_NO_REG);
    kgen_add (p, KGEN_BODY, INSTR_BRA, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG, INSTR_NO_REG);
    alu (p, KGEN_EPILOGUE, INSTR_IMAD, 2);
    kgen_mem (p, KGEN_EPILOGUE, INSTR_STG, 0, 224, 4, AD_P, 0);
}

/* Registers per thread: ptxas -v of kernels/cuda/pmpp.cuh
 * (kernels/cuda/registers.csv, nvcc 13.0.88; kern_regs.h says which
 * column a GPU uses).  TILE_WIDTH 8, 16 and 32 are compiled; another
 * width takes the row of the smallest compiled one at least as wide
 * (4 -> 8, 12 -> 16, 20..28 -> 32).  The dynamic version is one kernel
 * for every width. */
static int
registers (const GpuSpec *spec, int tw, gboolean dynamic)
{
    g_autofree char *set = g_strdup_printf ("TILE_WIDTH=%d",
                                            tw <= 8 ? 8 : tw <= 16 ? 16 : 32);
    int regs = dynamic ? kern_regs_lookup ("pmpp-tiled-dyn", "dynamic", spec)
                       : kern_regs_lookup ("pmpp-tiled", set, spec);
    g_assert (regs > 0);    /* registers.csv has every compiled width */
    return regs;
}

static gboolean
setup (KernInstance *k, const GpuSpec *spec, GError **error)
{
    int tw = (int) k->param[0];
    gboolean dynamic = k->param[1] != 0;
    if (tw * tw > 1024) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "pmpp-tiled: TILE_WIDTH = %d makes blocks of %d threads "
                     "(at most 1024)", tw, tw * tw);
        return FALSE;
    }
    if (tw % 4 != 0) {
        /* The compiled inner loop reads Mds rows as float4 (LDS.128). */
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "pmpp-tiled: TILE_WIDTH = %d: the model follows the "
                     "compiled loop, which reads Mds rows 4 floats at a "
                     "time; give a multiple of 4", tw);
        return FALSE;
    }
    if (k->size % tw != 0) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_SIZE,
                     "pmpp-tiled: Width %" G_GINT64_FORMAT " is not a multiple "
                     "of TILE_WIDTH %d: the kernel has no bounds checks",
                     k->size, tw);
        return FALSE;
    }
    k->threads = tw * tw;
    k->block_y = tw;
    k->grid_x = k->grid_y = (guint64) (k->size / tw);
    k->static_smem = dynamic ? 0 : 2 * tw * tw * 4;
    k->dyn_smem = dynamic ? 2 * tw * tw * 4 : 0;
    k->regs = registers (spec, tw, dynamic);
    k->flops = 2.0 * (double) k->size * (double) k->size * (double) k->size;
    k->device_bytes = 3.0 * 4 * (double) k->size * (double) k->size;
    k->iterations = (guint64) (k->size / tw);
    KProgram *p = kgen_program_new_lanes (k, lane_addr);
    build (p, tw);
    kgen_table_lanes (p);
    k->data = p;
    return TRUE;
}

static InstrStream *
open_warp (const KernInstance *k, guint64 block, int warp,
           guint64 iterations)
{
    guint32 mask = instr_first_lanes (k->threads - warp * 32);
    return kgen_stream_new (k->data, block, warp, mask, iterations);
}

static void
free_data (void *data)
{
    kgen_program_free (data);
}

const KernModel kern_pmpp_model = {
    "pmpp-tiled", "PMPP's tiled matrix multiplication (chapter 5)", params,
    G_N_ELEMENTS (params), "Width (square matrices)", setup, open_warp,
    free_data, TRUE, NULL
};
