/*
 * kern_sgemm_check.c -- the tilings the SGEMM models accept: those the
 * kernels' code can run (tiles covered by whole warps and whole load
 * passes, float4 alignment, sizes the kernels without bounds checks
 * divide), within what the models encode.  See kern_sgemm.h.
 */
#include "config.h"

#include "models/kern_sgemm.h"

/* Kernel 10's warp tile: WMITER x WNITER subtiles of (WSUBM/TM) x
 * (WSUBN/TN) threads, which must be the warp's 32 lanes. */
static const char *
check_warptile (const Sgemm *g)
{
    if (g->wn % g->wniter || (g->wn / g->wniter) % g->tn)
        return "WN / WNITER must be a multiple of TN";
    int wsubn_threads = g->wn / g->wniter / g->tn;
    if (32 % wsubn_threads || g->wm * g->wn % (32 * g->tm * g->tn * g->wniter))
        return "a warp's 32 lanes must tile its WM x WN tile in TM x TN "
               "results: (WM*WN) / (32*TM*TN*WNITER) subtiles along M, "
               "(WN/WNITER)/TN lanes along N dividing 32";
    int wmi = g->wm * g->wn / (32 * g->tm * g->tn * g->wniter);
    if (wmi < 1 || (g->wm / wmi) != (32 / wsubn_threads) * g->tm)
        return "WM / WMITER must be (32 / lanes along N) x TM";
    if (wmi * (g->tm / 4) + g->wniter * (g->tn / 4) > STEP_MAX_READS ||
        wmi > 16 || g->wniter > 16)
        return "a dot step would read more than 64 float4s (or 16 subtiles)";
    return NULL;
}

/* Kernel 11: each half of the block, in whole warps, copies a whole
 * BM x BK and BK x BN tile pair with float4 loads in whole passes. */
static const char *
check_halves (const Sgemm *g)
{
    int half = g->threads / 2;
    if (g->threads % 64)
        return "THREADS must be a multiple of 64: each half of the block, "
               "in whole warps, loads one stage";
    if (half % (g->bk / 4) || half % (g->bn / 4) ||
        g->bm % (half * 4 / g->bk) || g->bk % (half / (g->bn / 4)))
        return "each half of the block must load its tiles in whole passes: "
               "BK/4 and BN/4 must divide THREADS/2, and the rows a pass "
               "covers must divide BM and BK";
    return NULL;
}

/* The block's threads cover its tile: each computes TM (x TN) results,
 * kernel 4 a column of TM, the others TM x TN (kernels 10 and 11:
 * check_warptile).  What is wrong, with the numbers, or NULL. */
static char *
check_cover (const Sgemm *g)
{
    if (g->bm % g->tm || (g->kernel >= 5 && g->bn % g->tn))
        return g_strdup ("TM must divide BM (and TN divide BN)");
    if (g->kernel == 4 && (g->bm / g->tm) * g->bn != g->threads)
        return g_strdup_printf ("(BM/TM) x BN must equal THREADS: (%d/%d) x "
                                "%d = %d, THREADS = %d", g->bm, g->tm, g->bn,
                                (g->bm / g->tm) * g->bn, g->threads);
    if (g->kernel >= 5 && g->kernel < 10 &&
        (g->bm / g->tm) * (g->bn / g->tn) != g->threads)
        return g_strdup_printf ("(BM/TM) x (BN/TN) must equal THREADS: "
                                "(%d/%d) x (%d/%d) = %d, THREADS = %d", g->bm,
                                g->tm, g->bn, g->tn,
                                (g->bm / g->tm) * (g->bn / g->tn), g->threads);
    if (g->kernel >= 10 &&
        (g->bm / g->wm) * (g->bn / g->wn) * 32 != g->threads)
        return g_strdup_printf ("(BM/WM) x (BN/WN) warps must equal THREADS "
                                "/ 32: (%d/%d) x (%d/%d) = %d, THREADS / 32 "
                                "= %d", g->bm, g->wm, g->bn, g->wn,
                                (g->bm / g->wm) * (g->bn / g->wn),
                                g->threads / 32);
    return NULL;
}

/* The loaders copy each tile, rows x cols, in whole passes of one load
 * each (float4 from kernel 6 on): a row's loads must divide the
 * loaders, and the tile's loads be a multiple of them.  Else the
 * model's per-thread load count (shape_of) is a fraction, or zero. */
static const char *
check_passes (const Sgemm *g)
{
    int per = vectorized (g) ? 4 : 1;
    const int tiles[2][2] = { { g->bm, g->bk }, { g->bk, g->bn } };
    for (int i = 0; i < 2; i++) {
        int rows = tiles[i][0], cols = tiles[i][1];
        if (cols % per || g->loaders % (cols / per) ||
            rows * (cols / per) % g->loaders)
            return per == 4
                ? "the block cannot load its tiles in whole passes of "
                  "float4s: BK/4 and BN/4 must divide the loading threads, "
                  "and BM*BK/4 and BK*BN/4 be multiples of them"
                : "the block cannot load its tiles in whole passes: BK and "
                  "BN must divide THREADS, and BM*BK and BK*BN be "
                  "multiples of it";
    }
    /* Kernel 11 loads in groups of eight float4s (stage_load). */
    if (g->kernel < 11 && (g->bm + g->bn) * g->bk / g->loaders > 32)
        return "a thread would load more than 32 floats of a tile pair, the "
               "registers the model stages them in: (BM+BN) x BK / THREADS "
               "must be at most 32";
    return NULL;
}

gboolean
kern_sgemm_check (const Sgemm *g, const KernInstance *k, GError **error)
{
    const char *why = NULL;
    g_autofree char *cover = NULL;
    if (g->kernel >= 10)
        why = check_warptile (g);
    if (why == NULL && g->kernel >= 4)
        why = cover = check_cover (g);
    if (why == NULL && g->kernel >= 6 &&
        (g->tm % 4 || g->tn % 4 || g->bk % 4))
        why = "TM, TN and BK must be multiples of 4 (float4 accesses)";
    if (why == NULL && g->kernel == 11)
        why = check_halves (g);
    if (why == NULL && g->kernel >= 3)
        why = check_passes (g);
    /* Kernels 1 and 2 check their bounds (kernels/cuda/sgemm.cuh): any
     * size runs. */
    if (why == NULL && g->kernel >= 3 &&
        (g->m % (guint64) g->bm || g->n % (guint64) g->bn ||
         g->k % (guint64) g->bk)) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_SIZE,
                     "%s: size %" G_GINT64_FORMAT " is not a multiple of the "
                     "%dx%d tile (and of %d along K): the kernel has no bounds "
                     "checks and would read out of bounds", k->model->id,
                     k->size, g->bm, g->bn, g->bk);
        return FALSE;
    }
    if (why != NULL) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM, "%s: %s",
                     k->model->id, why);
        return FALSE;
    }
    return TRUE;
}
