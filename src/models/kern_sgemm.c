/*
 * kern_sgemm.c -- the SGEMM progression of Simon Boehm's "How to Optimize
 * a CUDA Matmul Kernel for cuBLAS-like Performance" (2022; seed 004 is a
 * write-up of it): C = alpha * A * B + beta * C, row-major, M = N = K =
 * size, kernels 1..11 with the parameters of ../shared/data/README.md
 * section 1 (the A6000 configuration by default; the A100 one of kernels
 * 9, 10 and 11 through --param).
 *
 * Each warp's stream follows the compiled code: the main loop's body
 * holds, per iteration, the instruction mix of the reference SASS
 * (../shared/data/sass, CUDA 13.0, sm_86; sm_80 differs by at most one
 * instruction per class), counted by kernels/cuda/sassmix.py:
 *
 *   k  unroll  FFMA  LDG(.128)  STS(.128)  LDS  LDS.64  LDS.128  BAR  int  BRA
 *   1  16 k    16    32         -          -    -       -        -    25   1
 *   2  16 k    16    32         -          -    -       -        -    25   1
 *   3  1 tile  32    2          2          32   -       8        2    7    1
 *   4  1 tile  64    2          2          8    -       16       2    7    1
 *   5  1 tile  512   8          8          -    -       32       2    16   1
 *   6  1 tile  512   2 (.128)   4 + 1      -    -       32       2    8    1
 *   7  1 tile  512   2 (.128)   8          64   -       16       2    15   1
 *   8  1 tile  512   2 (.128)   8          4    4       30       2    16   1
 *   9  1 tile  1024  4 (.128)   8 + 2      -    -       64       2    23   3
 *   10 1 tile  2048  8 (.128)   16 + 4     -    -       96       2    28   1
 *   11 2 tiles 4096  12 (.128)  16 + 8     -    -       192      2    69.5 3
 *
 * ("int": IMAD, IADD3/LOP3/ISETP/SHF, MOV and uniform-datapath
 * instructions together.)  The order is the compiled one: the tile's
 * global loads, the shared stores that wait for them, a barrier, the
 * shared loads and FFMAs of the inner product (each dot step's loads
 * issued while the previous step's FFMAs run), a barrier, the branch.
 * Lane addresses are the algorithm's, exactly (kern_sgemm_addr.c).
 *
 * Kernel 11 (double buffering, kernels/cuda/sgemm.cuh `sgemm11`) is
 * kernel 10's warptiling over two shared-memory stages, and an
 * iteration is two BK slices of K: compute stage 0, barrier, half 0 of
 * the block loads the slice after next into stage 0, compute stage 1,
 * barrier, half 1 loads the next odd slice into stage 1.  Each warp
 * plays one of the two load blocks (kgen's guards), so its row above
 * is a warp's path averaged over the two halves, as sassmix.py counts
 * it; neither half loads past K, and stage 1 is skipped when K / BK is
 * odd and the slice does not exist (see kern_sgemm_guard ()).
 */
#include "config.h"

#include <string.h>

#include "models/kern_regs.h"
#include "models/kern_sgemm.h"

enum {
    P_BM, P_BN, P_BK, P_TM, P_TN, P_WM, P_WN, P_WNITER, P_THREADS, N_P
};

/* Register numbering of the models: what matters is which instruction
 * waits for which, and for the FFMAs the register banks their operands
 * fall in (register % 2 on the presets; outer_product()). */
enum {
    R_ACC = 0,        /* accumulators: up to 128 */
    R_LDS = 128,      /* shared-load results: two banks of 32 */
    R_LDG = 192,      /* global-load results: up to 32 */
    R_ADDR = 224,     /* address registers */
    R_TMP = 240
};

/* ------------------------------------------------------------------ */
/* Programs                                                            */

static void
alu (KProgram *p, int seg, InstrOp op, int n)
{
    for (int i = 0; i < n; i++)
        kgen_add (p, seg, op, R_TMP + i % 8, R_TMP + (i + 1) % 8, INSTR_NO_REG,
                  INSTR_NO_REG);
}

/* A barrier or branch: no registers. */
static void
control (KProgram *p, int seg, InstrOp op)
{
    kgen_add (p, seg, op, INSTR_NO_REG, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG);
}

/* Index arithmetic before the loop (S2R, IMAD, shifts: about a dozen in
 * every reference kernel). */
static void
prologue (KProgram *p)
{
    alu (p, KGEN_PROLOGUE, INSTR_MOV, 3);
    alu (p, KGEN_PROLOGUE, INSTR_IMAD, 5);
    alu (p, KGEN_PROLOGUE, INSTR_SHF, 4);
    kgen_add (p, KGEN_PROLOGUE, INSTR_MOV, R_ADDR, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG);
}

/* beta * C + alpha * acc for 'n' results of 'width' bytes each. */
static void
epilogue (KProgram *p, int n, int width)
{
    int floats = width / 4;
    alu (p, KGEN_EPILOGUE, INSTR_IMAD, 2);
    for (int i = 0; i < n; i++) {
        int reg = R_LDG + (i * floats) % 32;
        kgen_mem (p, KGEN_EPILOGUE, INSTR_LDG, reg, R_ADDR, width, AD_C, i);
        for (int f = 0; f < floats; f++) {
            kgen_add (p, KGEN_EPILOGUE, INSTR_FMUL, R_ACC + (i * floats + f) % 128,
                      R_ACC + (i * floats + f) % 128, INSTR_NO_REG, INSTR_NO_REG);
            kgen_add (p, KGEN_EPILOGUE, INSTR_FFMA, reg + f, reg + f,
                      R_TMP, R_ACC + (i * floats + f) % 128);
        }
        kgen_mem (p, KGEN_EPILOGUE, INSTR_STG, reg, R_ADDR, width, AD_C, i);
    }
}

/* Kernels 1 and 2: 16 k steps per iteration, 32 loads then a chain of
 * 16 FFMAs into one accumulator. */
static void
naive_body (KProgram *p, int kernel)
{
    guint8 ad_a = kernel == 1 ? AD_A_ROW : AD_A_BCAST;
    guint8 ad_b = kernel == 1 ? AD_B_BCAST : AD_B_ROW;
    alu (p, KGEN_BODY, INSTR_IMAD, 9);
    for (int j = 0; j < 16; j++) {
        kgen_mem (p, KGEN_BODY, INSTR_LDG, R_LDG + 2 * j, R_ADDR, 4, ad_b, j);
        kgen_mem (p, KGEN_BODY, INSTR_LDG, R_LDG + 2 * j + 1, R_ADDR, 4, ad_a, j);
        if (j % 2 == 0)
            alu (p, KGEN_BODY, INSTR_IMAD, 1);
    }
    alu (p, KGEN_BODY, INSTR_IADD3, 3);
    alu (p, KGEN_BODY, INSTR_MOV, 5);
    for (int j = 0; j < 16; j++)
        kgen_add (p, KGEN_BODY, INSTR_FFMA, R_ACC, R_LDG + 2 * j,
                  R_LDG + 2 * j + 1, R_ACC);
    kgen_add (p, KGEN_BODY, INSTR_BRA, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG, INSTR_NO_REG);
}

/* Kernels 1 and 2's 'n' k steps of one unrolled piece of the tail,
 * from step 'from' on: each step's two loads, then the FFMA chain. */
static void
naive_steps (KProgram *p, int kernel, int from, int n)
{
    guint8 ad_a = kernel == 1 ? AD_A_ROW : AD_A_BCAST;
    guint8 ad_b = kernel == 1 ? AD_B_BCAST : AD_B_ROW;
    for (int j = 0; j < n; j++) {
        kgen_mem (p, KGEN_EPILOGUE, INSTR_LDG, R_LDG + 2 * j, R_ADDR, 4, ad_b,
                  ARG_TAIL | (from + j));
        kgen_mem (p, KGEN_EPILOGUE, INSTR_LDG, R_LDG + 2 * j + 1, R_ADDR, 4,
                  ad_a, ARG_TAIL | (from + j));
    }
    for (int j = 0; j < n; j++)
        kgen_add (p, KGEN_EPILOGUE, INSTR_FFMA, R_ACC, R_LDG + 2 * j,
                  R_LDG + 2 * j + 1, R_ACC);
}

/* Kernels 1 and 2 past the loop's K / 16 steps of 16: the compiled
 * code (../shared/data/sass, k01_naive on sm_86) takes the K mod 16
 * left in a piece of 8 (3 MOV, 9 IMAD.WIDE, 5 integer, a check and
 * its branch), then one of 4 (3 MOV, 5 IMAD.WIDE, 5 integer, a
 * branch), then single steps (7 instructions to set up, 7 a step
 * besides its loads and FFMA).  Nothing when 16 divides K: the checks
 * that pass over these pieces then are left out, as the loop's exit
 * branch is. */
static void
naive_tail (KProgram *p, const Sgemm *g)
{
    int left = (int) (g->k % 16), from = 0;
    if (left >= 8) {
        alu (p, KGEN_EPILOGUE, INSTR_ISETP, 1);
        control (p, KGEN_EPILOGUE, INSTR_BRA);
        alu (p, KGEN_EPILOGUE, INSTR_MOV, 3);
        alu (p, KGEN_EPILOGUE, INSTR_IMAD, 9);
        alu (p, KGEN_EPILOGUE, INSTR_IADD3, 5);
        naive_steps (p, g->kernel, from, 8);
        from += 8;
    }
    if (left % 8 >= 4) {
        alu (p, KGEN_EPILOGUE, INSTR_MOV, 3);
        alu (p, KGEN_EPILOGUE, INSTR_IMAD, 5);
        alu (p, KGEN_EPILOGUE, INSTR_IADD3, 5);
        naive_steps (p, g->kernel, from, 4);
        control (p, KGEN_EPILOGUE, INSTR_BRA);
        from += 4;
    }
    if (left % 4 > 0) {
        alu (p, KGEN_EPILOGUE, INSTR_ISETP, 1);
        control (p, KGEN_EPILOGUE, INSTR_BRA);
        alu (p, KGEN_EPILOGUE, INSTR_MOV, 1);
        alu (p, KGEN_EPILOGUE, INSTR_IMAD, 4);
    }
    for (; from < left; from++) {
        alu (p, KGEN_EPILOGUE, INSTR_IADD3, 6);
        naive_steps (p, g->kernel, from, 1);
        control (p, KGEN_EPILOGUE, INSTR_BRA);
    }
}

typedef struct {
    int n_ldg_a, n_ldg_b;      /* global loads per tile */
    int ldg_width;
    int sts_a, sts_b;          /* shared stores per tile */
    int sts_a_width, sts_b_width;
    int imad, int_alu;         /* loop overhead */
    int bra;
    int reg_b, reg_step;       /* where the loads land: load_registers */
} TileShape;

/* Shared loads of dot step 'd' (As reads, then Bs reads): how many and
 * how wide. */
static int
step_reads (const Sgemm *g, int d, InstrOp *ops, guint8 *ads, int *args,
            int *widths)
{
    int n = 0;
#define READ(ad, arg, w) (ads[n] = (ad), args[n] = (arg), widths[n] = (w), \
                          ops[n] = INSTR_LDS, n++)
    switch (g->kernel) {
    case 3:
        if (d % 4 == 0)
            READ (AD_AS_LOAD, d * 64, 16);
        READ (AD_BS_LOAD, d * 64, 4);
        break;
    case 4:
    case 5:
        if (d == 0)  /* the rows of As this thread needs, up front */
            for (int i = 0; i < 2 * g->tm; i++)
                READ (AD_AS_LOAD, i, 16);
        if (g->kernel == 4)
            READ (AD_BS_LOAD, d * 64, 4);
        else
            for (int h = 0; h < g->tn / 4; h++)
                READ (AD_BS_LOAD, d * 64 + h, 16);
        break;
    case 7:
        for (int h = 0; h < g->tm / 4; h++)
            READ (AD_AS_LOAD, d * 64 + h, 16);
        for (int i = 0; i < g->tn; i++)
            READ (AD_BS_LOAD, d * 64 + i, 4);
        break;
    case 8:
        for (int h = 0; h < g->tm / 4; h++)
            READ (AD_AS_LOAD, d * 64 + h, 16);
        /* A padded row starts d mod 4 words off alignment: the compiler
         * reads it with a mix of widths (kernels/cuda/sass_mix.csv). */
        if (d % 2 == 0) {
            READ (AD_BS_LOAD, d * 64, 16);
            READ (AD_BS_LOAD, d * 64 + 1, 16);
        } else {
            READ (AD_BS_LOAD, d * 64, 4);
            READ (AD_BS_LOAD, d * 64, 8);
            READ (AD_BS_LOAD, d * 64 + 1, 16);
        }
        break;
    case 10:
    case 11:
        for (int m = 0; m < wmiter (g); m++)
            for (int h = 0; h < g->tm / 4; h++)
                READ (AD_AS_LOAD, d * 64 + m * 4 + h, 16);
        for (int s = 0; s < g->wniter; s++)
            for (int h = 0; h < g->tn / 4; h++)
                READ (AD_BS_LOAD, d * 64 + s * 4 + h, 16);
        break;
    default:   /* 6, 9 */
        for (int h = 0; h < g->tm / 4; h++)
            READ (AD_AS_LOAD, d * 64 + h, 16);
        for (int h = 0; h < g->tn / 4; h++)
            READ (AD_BS_LOAD, d * 64 + h, 16);
        break;
    }
#undef READ
    g_assert (n <= STEP_MAX_READS);
    return n;
}

static int
results_per_thread (const Sgemm *g)
{
    if (g->kernel == 3)
        return 1;
    if (g->kernel == 4)
        return g->tm;
    if (g->kernel >= 10)
        return g->tm * g->tn * wmiter (g) * g->wniter;
    return g->tm * g->tn;
}

/* Where shared-load read 'i' of step 'd' lands: a step's reads take
 * consecutive registers of its bank, as many as they carry, so none
 * waits for another's register (the compiled code gives each its own).
 * Kernels 4 and 5 read their As rows up front at step 0, up to 64
 * floats: those go above the accumulators the kernels use (at most 64
 * results per thread with the article's TM and TN). */
static int
read_register (const Sgemm *g, int d, const guint8 *ads, const int *widths,
               int i)
{
    int at = 0;
    if ((g->kernel == 4 || g->kernel == 5) && d == 0 && ads[i] == AD_AS_LOAD)
        return R_ACC + 64 + 4 * i;
    for (int j = 0; j < i; j++)
        if (!((g->kernel == 4 || g->kernel == 5) && d == 0 &&
              ads[j] == AD_AS_LOAD))
            at += MAX (widths[j] / 4, 1);
    return R_LDS + (d % 2) * 32 + at % 32;
}

/* The registers dot step 'd''s FFMAs take their A and B values from:
 * a_i = a0 + i * a_stride (i < m), b_j = b0 + j, where the step's
 * shared loads put them (read_register).  Kernel 3 uses component d % 4
 * of the As float4 read every fourth step; kernels 4 and 5 column d of
 * the As rows read up front (register 4 * read + component: a stride of
 * 8, two float4 reads per row). */
typedef struct {
    int a0, a_stride, m;
    int b0;
} Fragments;

static Fragments
step_fragments (const Sgemm *g, int d, int results)
{
    InstrOp ops[STEP_MAX_READS];
    guint8 ads[STEP_MAX_READS];
    int args[STEP_MAX_READS], widths[STEP_MAX_READS];
    Fragments f = { -1, 1, 0, -1 };
    int n = step_reads (g, d, ops, ads, args, widths);
    for (int i = 0; i < n; i++) {
        int reg = read_register (g, d, ads, widths, i);
        if (ads[i] == AD_AS_LOAD && f.a0 < 0)
            f.a0 = reg;
        else if (ads[i] == AD_BS_LOAD && f.b0 < 0)
            f.b0 = reg;
    }
    if (g->kernel == 3) {
        f.a0 = R_LDS + ((d - d % 4) % 2) * 32 + d % 4;
    } else if (g->kernel == 4 || g->kernel == 5) {
        f.a0 = R_ACC + 64 + 4 * (d / 4) + d % 4;
        f.a_stride = 8;
    }
    f.m = g->kernel == 3 ? 1 : g->kernel == 4 || g->kernel == 5
                              ? g->tm : results / (g->tn * (g->kernel >= 10 ? g->wniter : 1));
    return f;
}

/* Result (i, j) of a step's outer product, i along A: the accumulator
 * holding it.  Column-major with the two of each pair swapped, so that
 * accumulator and A value sit in opposite banks when A values alternate
 * banks (two banks; regfile.h): the FFMAs that reuse a B value (below)
 * then read their two other operands from different banks, as nvcc
 * allocates them (ptxas keeps `FFMA R46, R69, R73.reuse, R46` and
 * `FFMA R35, R70, R73.reuse, R35` in opposite banks). */
static int
accumulator (int m, int i, int j)
{
    return R_ACC + (((j * m + i) ^ 1) % 128);
}

/* A step's FFMAs as nvcc orders them in the reference SASS (sm_86
 * k10_warptile: `FFMA R43, R68, R73.reuse, R43` ... eight A registers
 * with R73.reuse): for each B value b_j, a chain over the A fragment
 * that keeps b_j in the register-file cache (reuse bit on slot B, all
 * but the chain's last).  The chain's first FFMA reads all three
 * operands from the register file, the others two. */
static void
outer_product (KProgram *p, const Fragments *f, int results)
{
    int n = results / f->m;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < f->m; i++) {
            int acc = accumulator (f->m, i, j);
            KOp *o = kgen_add (p, KGEN_BODY, INSTR_FFMA, acc,
                               f->a0 + i * f->a_stride, f->b0 + j, acc);
            o->reuse = i + 1 < f->m ? 1u << 1 : 0;
        }
}

/* One dot step: the next step's reads are issued first, then this
 * step's FFMAs, which use the reads of the bank 'd % 2'.  The reads
 * are of shared-memory stage 'stage'. */
static void
tile_steps (KProgram *p, const Sgemm *g, int results, int stage)
{
    InstrOp ops[STEP_MAX_READS];
    guint8 ads[STEP_MAX_READS];
    int args[STEP_MAX_READS], widths[STEP_MAX_READS];
    for (int d = 0; d <= g->bk; d++) {
        if (d < g->bk) {
            int n = step_reads (g, d, ops, ads, args, widths);
            for (int i = 0; i < n; i++)
                kgen_mem (p, KGEN_BODY, ops[i],
                          read_register (g, d, ads, widths, i), R_ADDR,
                          widths[i], ads[i], args[i] | stage << ARG_SHIFT);
        }
        if (d == 0)
            continue;
        Fragments f = step_fragments (g, d - 1, results);
        outer_product (p, &f, results);
    }
}

static void
tiled_body (KProgram *p, const Sgemm *g, const TileShape *t)
{
    alu (p, KGEN_BODY, INSTR_IMAD, t->imad);
    for (int i = 0; i < t->n_ldg_a; i++)
        kgen_mem (p, KGEN_BODY, INSTR_LDG, R_LDG + t->reg_step * i, R_ADDR,
                  t->ldg_width, AD_A_TILE, i);
    for (int i = 0; i < t->n_ldg_b; i++)
        kgen_mem (p, KGEN_BODY, INSTR_LDG, t->reg_b + t->reg_step * i, R_ADDR,
                  t->ldg_width, AD_B_TILE, i);
    /* Each store waits for its load's data. */
    for (int i = 0; i < t->sts_a; i++) {
        int per = t->sts_a / t->n_ldg_a, load = i / per;
        int comp = t->sts_a_width == 4 && t->ldg_width == 16 ? i % per : 0;
        kgen_mem (p, KGEN_BODY, INSTR_STS, R_LDG + t->reg_step * load + comp,
                  R_ADDR,
                  t->sts_a_width, AD_AS_STORE, load * 4 + comp);
    }
    for (int i = 0; i < t->sts_b; i++) {
        int per = t->sts_b / t->n_ldg_b, load = i / per;
        int comp = t->sts_b_width == 4 && t->ldg_width == 16 ? i % per : 0;
        kgen_mem (p, KGEN_BODY, INSTR_STS, t->reg_b + t->reg_step * load + comp,
                  R_ADDR,
                  t->sts_b_width, AD_BS_STORE, load * 4 + comp);
    }
    kgen_add (p, KGEN_BODY, INSTR_BAR, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG, INSTR_NO_REG);
    tile_steps (p, g, results_per_thread (g), 0);
    alu (p, KGEN_BODY, INSTR_IADD3, t->int_alu);
    kgen_add (p, KGEN_BODY, INSTR_BAR, INSTR_NO_REG, INSTR_NO_REG,
              INSTR_NO_REG, INSTR_NO_REG);
    for (int i = 0; i < t->bra; i++)
        kgen_add (p, KGEN_BODY, INSTR_BRA, INSTR_NO_REG, INSTR_NO_REG,
                  INSTR_NO_REG, INSTR_NO_REG);
}

/* Loop overhead per main-loop iteration: the integer instructions
 * (IMAD, and integer ALU + MOV + uniform + other) and branches of the
 * reference SASS, the table at the top of this file (kernel 11's:
 * overhead11 below). */
static const struct {
    int imad, int_alu, bra;
} overhead[12] = {
    [3] = { 1, 6, 1 }, [4] = { 1, 6, 1 }, [5] = { 7, 9, 1 },
    [6] = { 1, 7, 1 }, [7] = { 2, 13, 1 }, [8] = { 2, 14, 1 },
    [9] = { 2, 21, 3 }, [10] = { 2, 26, 1 },
};

/* Where a tile's global loads land, in the 32 registers from R_LDG, A's
 * first: four apart, B's from R_LDG + 16, for up to four loads of each
 * (every published tiling); more, one load's width apart, B's after
 * A's (check_passes keeps them within the 32). */
static void
load_registers (TileShape *t)
{
    int width = t->ldg_width / 4;
    gboolean apart = t->n_ldg_a <= 4 && t->n_ldg_b <= 4;
    t->reg_step = apart ? 4 : width;
    t->reg_b = R_LDG + (apart ? 16 : t->n_ldg_a * width);
}

/* The tile's global loads and shared stores follow from the tile sizes;
 * from kernel 6 on, loads are float4 and As is stored transposed (four
 * scalar stores per load), Bs with one STS.128 per load except where
 * kernels 7 and 8 change its layout (scalar stores). */
static TileShape
shape_of (const Sgemm *g)
{
    int a_loads = g->bm * g->bk / g->loaders, b_loads = g->bk * g->bn / g->loaders;
    gboolean scalar_bs = g->kernel == 7 || g->kernel == 8;
    TileShape t = {
        .n_ldg_a = a_loads, .n_ldg_b = b_loads, .ldg_width = 4,
        .sts_a = a_loads, .sts_b = b_loads, .sts_a_width = 4, .sts_b_width = 4,
        .imad = overhead[g->kernel].imad, .int_alu = overhead[g->kernel].int_alu,
        .bra = overhead[g->kernel].bra,
    };
    if (vectorized (g)) {
        t.n_ldg_a = a_loads / 4;
        t.n_ldg_b = b_loads / 4;
        t.ldg_width = 16;
        t.sts_b = scalar_bs ? b_loads : b_loads / 4;
        t.sts_b_width = scalar_bs ? 4 : 16;
    }
    load_registers (&t);
    return t;
}

/* Kernel 11's integer overhead per iteration, from the compiled loops
 * (kernels/cuda/sass_mix.csv, split by sassmix.py's forward branches):
 * what every warp runs, at the loop top, after stage 0, after half 0's
 * load, after stage 1 and at the loop end (where among some 2000 FFMAs
 * matters little), and what each half's load block adds, its address
 * arithmetic.  "ints" are integer ALU, uniform and other (BSSY, BSYNC,
 * CALL) instructions; "mov" includes HFMA2.MMA, nvcc's move idiom. */
typedef struct {
    int ints[5];
    int imad, mov, bra;
    int load_imad[2], load_ints[2], load_mov[2];    /* half 0's, half 1's */
} Overhead11;

/* The A6000 setting follows the reference SASS (sm_86: 3 branches, its
 * stage 1 unguarded); the A100 setting (BM = 64) our sgemm11 (sm_80; the
 * reference has no A100 build), whose fourth branch skips stage 1 when
 * its slice is past K.  Both guard stage 1 here (kern_sgemm_guard ()).
 * The A100 load blocks are those of the unsigned-index source: 3 and 4
 * IMAD, 19 and 20 integer ALU (+1 uniform in half 0's), 2 MOV + 1
 * HFMA2.MMA each; with int indices they were 6 and 7 IMAD and 6 integer
 * ALU. */
static const Overhead11 overhead11_a6000 = {
    { 8, 4, 4, 0, 4 }, 1, 1, 3, { 4, 5 }, { 43, 43 }, { 0, 0 }
};
static const Overhead11 overhead11_a100 = {
    { 3, 1, 8, 6, 9 }, 0, 1, 4, { 3, 4 }, { 20, 20 }, { 3, 3 }
};

/* Kernel 11: a half's copy of the slice 'ahead' slices past the
 * iteration's first into stage ahead % 2, guarded so that only that
 * half plays it, and only while the slice is inside K.  Loads go out
 * in groups of eight float4, the 32 registers the models give global
 * loads (the compiled code likewise interleaves loads with the stores
 * that free their registers: two round trips for the A6000 tile, one
 * for the A100 one); each group's address arithmetic runs while it is
 * in flight, then its shared stores wait for its data. */
static void
stage_load (KProgram *p, const Sgemm *g, int seg, int ahead, int imad,
            int ints, int mov)
{
    TileShape t = shape_of (g);
    int n = t.n_ldg_a + t.n_ldg_b, groups = (n + 7) / 8;
    int stage = (ahead % 2) << ARG_SHIFT;
    guint from = p->seg[seg]->len;
    alu (p, seg, INSTR_IMAD, imad);
    alu (p, seg, INSTR_MOV, mov);
    for (int first = 0; first < n; first += 8) {
        int last = MIN (n, first + 8);
        for (int i = first; i < last; i++) {
            gboolean is_a = i < t.n_ldg_a;
            kgen_mem (p, seg, INSTR_LDG, R_LDG + 4 * (i % 8), R_ADDR, 16,
                      is_a ? AD_A_TILE : AD_B_TILE,
                      (is_a ? i : i - t.n_ldg_a) | ahead << ARG_SHIFT);
        }
        alu (p, seg, INSTR_IADD3, ints / groups + (first == 0 ? ints % groups : 0));
        for (int i = first; i < last; i++) {
            int reg = R_LDG + 4 * (i % 8);
            if (i >= t.n_ldg_a)
                kgen_mem (p, seg, INSTR_STS, reg, R_ADDR, 16, AD_BS_STORE,
                          (i - t.n_ldg_a) * 4 | stage);
            else    /* As transposed: a scalar store per component */
                for (int c = 0; c < 4; c++)
                    kgen_mem (p, seg, INSTR_STS, reg + c, R_ADDR, 4,
                              AD_AS_STORE, (i * 4 + c) | stage);
        }
    }
    kgen_guard_from (p, seg, from, (guint8) (GD_LOAD + ahead));
}

/* Kernel 11: the prologue's two loads (half 0 slice 0, half 1 slice 1)
 * and barrier, then the loop: stage 0, barrier, half 0 refills it,
 * stage 1, barrier, half 1 refills it. */
static void
double_buffered (KProgram *p, const Sgemm *g)
{
    const Overhead11 *o = g->bm == 64 ? &overhead11_a100 : &overhead11_a6000;
    int results = results_per_thread (g);
    p->guard = kern_sgemm_guard;
    stage_load (p, g, KGEN_PROLOGUE, 0, 0, 0, 0);
    stage_load (p, g, KGEN_PROLOGUE, 1, 0, 0, 0);
    control (p, KGEN_PROLOGUE, INSTR_BAR);

    alu (p, KGEN_BODY, INSTR_IADD3, o->ints[0]);
    tile_steps (p, g, results, 0);
    alu (p, KGEN_BODY, INSTR_IADD3, o->ints[1]);
    control (p, KGEN_BODY, INSTR_BAR);
    control (p, KGEN_BODY, INSTR_BRA);
    stage_load (p, g, KGEN_BODY, 2, o->load_imad[0], o->load_ints[0],
                o->load_mov[0]);
    alu (p, KGEN_BODY, INSTR_IADD3, o->ints[2]);
    if (o->bra > 3)
        control (p, KGEN_BODY, INSTR_BRA);
    guint from = p->seg[KGEN_BODY]->len;
    tile_steps (p, g, results, 1);
    kgen_guard_from (p, KGEN_BODY, from, GD_COMPUTE + 1);
    alu (p, KGEN_BODY, INSTR_IADD3, o->ints[3]);
    alu (p, KGEN_BODY, INSTR_MOV, o->mov);
    control (p, KGEN_BODY, INSTR_BAR);
    control (p, KGEN_BODY, INSTR_BRA);
    stage_load (p, g, KGEN_BODY, 3, o->load_imad[1], o->load_ints[1],
                o->load_mov[1]);
    alu (p, KGEN_BODY, INSTR_IMAD, o->imad);
    alu (p, KGEN_BODY, INSTR_IADD3, o->ints[4]);
    control (p, KGEN_BODY, INSTR_BRA);
}

/* ------------------------------------------------------------------ */
/* Launch (the tilings accepted: kern_sgemm_check.c)                  */

/* Registers per thread: ptxas -v of kernels/cuda/sgemm.cuh, the
 * project's CUDA source of these kernels (kernels/cuda/registers.csv,
 * nvcc 13.0.88; kern_regs.h says which column a GPU uses).  Kernels 1-8
 * have one parameter set ("default"); kernels 9-11 two, the tiles the
 * article launches on the A6000 ("a6000") and its A100 setting
 * ("a100").  Any other tiling takes the row of the nearer set: BM = 64,
 * the A100 setting's, else the A6000 one (--regs overrides). */
static int
registers (const Sgemm *g, const GpuSpec *spec)
{
    g_autofree char *id = g_strdup_printf ("sgemm-%d", g->kernel);
    const char *set = g->kernel < 9 ? "default"
                      : g->bm == 64 ? "a100" : "a6000";
    int regs = kern_regs_lookup (id, set, spec);
    g_assert (regs > 0);    /* registers.csv has every kernel and set */
    return regs;
}

static void
launch (Sgemm *g, KernInstance *k)
{
    k->threads = g->threads;
    /* Kernel 1 is launched with blockDim (32, 32), 2 and 3 with 1024 x 1
     * (../shared/data/README.md). */
    k->block_y = g->kernel == 1 ? 32 : 1;
    if (g->kernel <= 3) {
        /* Kernels 1 and 2 round up; kernel 3's size is a multiple. */
        k->grid_x = (g->m + 31) / 32;
        k->grid_y = (g->n + 31) / 32;
    } else {
        k->grid_x = g->n / (guint64) g->bn;
        k->grid_y = g->m / (guint64) g->bm;
    }
    g->bs_pitch = g->bn + (g->kernel == 8 ? 5 : 0);
    g->as_bytes = (gint64) g->stages * g->bm * g->bk * 4;
    k->static_smem = g->kernel <= 2 ? 0 : g->as_bytes + (gint64) g->stages *
                                              g->bk * g->bs_pitch * 4;
    k->dyn_smem = 0;
    k->flops = 2.0 * (double) g->m * (double) g->n * (double) g->k;
    /* Kernels 1 and 2 past a multiple of 32: the last row and column
     * of blocks have idle threads (block_work), and a sampled run times
     * them apart (run_kinds.c). */
    k->uneven = g->m % 32 != 0 || g->n % 32 != 0;
    k->device_bytes = 4.0 * ((double) g->m * (double) g->k +
                             (double) g->k * (double) g->n +
                             (double) g->m * (double) g->n);
    /* Kernel 11 takes two slices per iteration, the last maybe alone. */
    g->slices = g->k / (guint64) (g->kernel <= 2 ? 16 : g->bk);
    k->iterations = (g->slices + (guint64) g->stages - 1) / (guint64) g->stages;
    guint64 bytes = g->m * g->k * 4;
    g->a = 0x100000000ull;
    g->b = g->a + (bytes + 4095) / 4096 * 4096;
    g->c = g->b + (bytes + 4095) / 4096 * 4096;
}

static void
build (KProgram *p, const Sgemm *g)
{
    int per = vectorized (g) ? 4 : 1;
    prologue (p);
    if (g->kernel <= 2) {
        naive_body (p, g->kernel);
        naive_tail (p, g);
        epilogue (p, 1, 4);
        return;
    }
    if (g->kernel == 11) {
        double_buffered (p, g);
    } else {
        TileShape t = shape_of (g);
        tiled_body (p, g, &t);
    }
    epilogue (p, results_per_thread (g) / per, 4 * per);
}

static void
free_data (void *data)
{
    KProgram *p = data;
    g_free (p->user);
    kgen_program_free (p);
}

static const char *const param_names[N_P] = {
    [P_BM] = "BM", [P_BN] = "BN", [P_BK] = "BK", [P_TM] = "TM", [P_TN] = "TN",
    [P_WM] = "WM", [P_WN] = "WN", [P_WNITER] = "WNITER",
    [P_THREADS] = "THREADS",
};

/* What a kernel's code fixes where it takes no parameter (so none is
 * listed, and one given is refused): kernels 1-3 are written for the
 * article's one tiling, 32 x 32 threads and 32 x 32 tiles (1 and 2 step
 * K 16 at a time); kernel 4 computes a column of TM results a thread,
 * TN = 1; before kernel 10 there is no warp tile, and WM, WN and WNITER
 * are never read. */
static int
fixed_value (int kernel, int p)
{
    static const int fixed[N_P] = {
        [P_BM] = 32, [P_BN] = 32, [P_BK] = 32, [P_TM] = 1, [P_TN] = 1,
        [P_WM] = 64, [P_WN] = 64, [P_WNITER] = 4, [P_THREADS] = 1024,
    };
    return p == P_BK && kernel <= 2 ? 16 : fixed[p];
}

/* Tiling parameter 'p' of 'k': given or defaulted where the kernel
 * takes it, else fixed. */
static int
tiling (const KernInstance *k, int kernel, int p)
{
    int i = kern_param_index (k->model, param_names[p]);
    return i >= 0 ? (int) k->param[i] : fixed_value (kernel, p);
}

static gboolean
setup_kernel (KernInstance *k, const GpuSpec *spec, int kernel,
              GError **error)
{
    Sgemm *g = g_new0 (Sgemm, 1);
    g->kernel = kernel;
    g->bm = tiling (k, kernel, P_BM);
    g->bn = tiling (k, kernel, P_BN);
    g->bk = tiling (k, kernel, P_BK);
    g->tm = tiling (k, kernel, P_TM);
    g->tn = tiling (k, kernel, P_TN);
    g->wm = tiling (k, kernel, P_WM);
    g->wn = tiling (k, kernel, P_WN);
    g->wniter = tiling (k, kernel, P_WNITER);
    g->threads = tiling (k, kernel, P_THREADS);
    g->stages = kernel == 11 ? 2 : 1;
    g->loaders = g->threads / g->stages;
    g->m = g->n = g->k = (guint64) k->size;
    if (!kern_sgemm_check (g, k, error)) {
        g_free (g);
        return FALSE;
    }
    launch (g, k);
    k->regs = registers (g, spec);
    KProgram *p = kgen_program_new_lanes (k, kern_sgemm_lane_addr);
    p->user = g;
    build (p, g);
    kgen_table_lanes (p);
    k->data = p;
    return TRUE;
}

static InstrStream *
open_warp (const KernInstance *k, guint64 block, int warp,
           guint64 iterations)
{
    const KProgram *p = k->data;
    const Sgemm *g = p->user;
    guint32 active = g->kernel <= 2 ? kern_sgemm_naive_lanes (p, block, warp)
                                    : 0xffffffffu;
    if (active == 0)
        return kgen_stream_new_exiting (p, block, warp);
    return kgen_stream_new (p, block, warp, active, iterations);
}

/* Kernels 1 and 2's lanes inside C (kern_sgemm_naive_lanes); the
 * tiled kernels take only sizes their tiles divide. */
static KernBlockWork
block_work (const KernInstance *k, guint64 block)
{
    const KProgram *p = k->data;
    const Sgemm *g = p->user;
    KernBlockWork w = { 0, 0 };
    for (int i = 0; i < kern_warps (k); i++) {
        guint32 active = g->kernel <= 2 ? kern_sgemm_naive_lanes (p, block, i)
                                        : 0xffffffffu;
        w.lanes += (guint64) sim_popcount32 (active);
        w.warps += active != 0;
    }
    return w;
}

/* Each kernel fixes what the article fixes (fixed_value), the rest are
 * its parameters, listed with its defaults. */
#define ROW_BM(v) { "BM", v, 8, 256, "block tile rows" }
#define ROW_BN(v) { "BN", v, 8, 256, "block tile columns" }
#define ROW_BK(v) { "BK", v, 4, 64, "tile depth" }
#define ROW_TM(v) { "TM", v, 1, 16, "results per thread, rows" }
#define ROW_TN(v) { "TN", v, 1, 16, "results per thread, columns" }
#define ROW_WM(v) { "WM", v, 8, 256, "warp tile rows" }
#define ROW_WN(v) { "WN", v, 8, 256, "warp tile columns" }
#define ROW_WNITER(v) { "WNITER", v, 1, 16, "warp subtiles along N" }
#define ROW_THREADS(v) { "THREADS", v, 32, 1024, "threads per block" }

/* Kernels 5-9: a TM x TN block of results a thread. */
#define BLOCKTILE_2D(BM, BN, BK, TM, TN, THR)                                \
    ROW_BM (BM), ROW_BN (BN), ROW_BK (BK), ROW_TM (TM), ROW_TN (TN),        \
    ROW_THREADS (THR)
/* Kernels 10 and 11: and warp tiles of WMITER x WNITER of those. */
#define WARPTILE(BM, BN, BK, TM, TN, WM, WN, WNITER, THR)                    \
    ROW_BM (BM), ROW_BN (BN), ROW_BK (BK), ROW_TM (TM), ROW_TN (TN),        \
    ROW_WM (WM), ROW_WN (WN), ROW_WNITER (WNITER), ROW_THREADS (THR)

static const KernParam params_4[] = {
    ROW_BM (64), ROW_BN (64), ROW_BK (8), ROW_TM (8), ROW_THREADS (512),
};
static const KernParam params_5[] = { BLOCKTILE_2D (128, 128, 8, 8, 8, 256) };
static const KernParam params_6[] = { BLOCKTILE_2D (128, 128, 8, 8, 8, 256) };
static const KernParam params_7[] = { BLOCKTILE_2D (128, 128, 8, 8, 8, 256) };
static const KernParam params_8[] = { BLOCKTILE_2D (128, 128, 8, 8, 8, 256) };
static const KernParam params_9[] = { BLOCKTILE_2D (128, 128, 16, 8, 8, 256) };
static const KernParam params_10[] = {
    WARPTILE (128, 128, 16, 8, 4, 64, 64, 4, 128)
};
static const KernParam params_11[] = {
    WARPTILE (128, 256, 16, 8, 8, 128, 32, 1, 256)
};

#define SGEMM_MODEL(n, summary, params, n_params, size_help)                 \
    static gboolean setup_##n (KernInstance *k, const GpuSpec *s, GError **e) \
    {                                                                        \
        return setup_kernel (k, s, n, e);                                    \
    }                                                                        \
    const KernModel kern_sgemm##n##_model = {                                \
        "sgemm-" #n, summary, params, n_params, size_help,                   \
        setup_##n, open_warp, free_data, TRUE, block_work                    \
    };
#define SGEMM_TILED(n, summary)                                              \
    SGEMM_MODEL (n, summary, params_##n, G_N_ELEMENTS (params_##n),          \
                 "M = N = K, a multiple of BM, BN and BK")

SGEMM_MODEL (1, "naive: a warp's lanes walk rows of A (uncoalesced)", NULL, 0,
             "M = N = K, any (bounds-checked)")
SGEMM_MODEL (2, "global-memory coalescing: a warp's lanes walk columns", NULL, 0,
             "M = N = K, any (bounds-checked)")
SGEMM_MODEL (3, "shared-memory tiles of 32x32", NULL, 0,
             "M = N = K, a multiple of 32")
SGEMM_TILED (4, "1D blocktiling: 8 results per thread")
SGEMM_TILED (5, "2D blocktiling: 8x8 results per thread")
SGEMM_TILED (6, "vectorized (float4) loads, As transposed")
SGEMM_TILED (7, "bank conflicts avoided by linearizing Bs")
SGEMM_TILED (8, "bank conflicts avoided by padding Bs")
SGEMM_TILED (9, "autotuned tiles (BK = 16)")
SGEMM_TILED (10, "warptiling")
SGEMM_TILED (11, "double buffering: 2 smem stages, each refilled by half the block")
