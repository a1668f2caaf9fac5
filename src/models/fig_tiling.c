/*
 * fig_tiling.c -- figure 10, tiling: what the tile size buys and costs.
 * PMPP's tiled matmul over TILE_WIDTH 8, 16 and 32 (320 x 320: even the
 * 32 x 32 tiles give 100 blocks, more than an A6000 has SMs), and SGEMM
 * kernel 5 (2D blocktiling, 8 x 8 results per thread) over its block
 * tile BM x BN x BK at 1024 (sampled): occupancy, shared memory per
 * block and time of each.  The register count is the model's for the
 * kernel (ptxas of kernels/cuda on the article's tile sizes,
 * registers.csv) whatever the tile.
 */
#include "config.h"

#include <string.h>

#include "models/fig.h"

extern const FigDef fig_tiling_def;

#define PMPP_SIZE 320
#define SGEMM_SIZE 1024

typedef struct {
    const char *group;
    const char *label;
    const char *kernel;
    gint64 size;
    const char *params[5];       /* NULL-terminated; none: the default */
} TileConfig;

/* The SGEMM runs are sampled as in figures 7 and 8 (and shared with
 * them); PMPP's at this size are small enough to run whole. */
static RunMode
mode_of (const TileConfig *c)
{
    return strcmp (c->group, "sgemm") == 0 ? RUN_SAMPLED : RUN_AUTO;
}

static const TileConfig configs[] = {
    { "pmpp", "8x8", "pmpp-tiled", PMPP_SIZE, { "TILE_WIDTH=8", NULL } },
    { "pmpp", "16x16", "pmpp-tiled", PMPP_SIZE, { NULL } },
    { "pmpp", "32x32", "pmpp-tiled", PMPP_SIZE, { "TILE_WIDTH=32", NULL } },
    { "sgemm", "64x64x8", "sgemm-5", SGEMM_SIZE,
      { "BM=64", "BN=64", "THREADS=64", NULL } },
    { "sgemm", "128x64x8", "sgemm-5", SGEMM_SIZE,
      { "BM=128", "BN=64", "THREADS=128", NULL } },
    { "sgemm", "128x128x8", "sgemm-5", SGEMM_SIZE, { NULL } },
    { "sgemm", "128x128x16", "sgemm-5", SGEMM_SIZE, { "BK=16", NULL } },
};

static void
tiling_rows (FigData *d, const FigRun *runs)
{
    g_string_append (d->csv, "group,config,kernel,size,threads,regs,"
                             "smem_bytes,blocks_per_sm,occupancy_pct,time_ms,"
                             "gflops\n");
    for (guint i = 0; i < G_N_ELEMENTS (configs); i++) {
        const RunResult *r = &runs[i].result;
        g_string_append_printf (
            d->csv, "%s,%s,%s,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%"
            G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%d,%.2f,%.5f,%.1f\n",
            configs[i].group, configs[i].label, configs[i].kernel,
            configs[i].size, r->launch.threads_per_block,
            r->launch.regs_per_thread,
            r->launch.static_smem_bytes + r->launch.dyn_smem_bytes,
            r->occ.blocks_per_sm, r->occ.occupancy_pct, r->time_ms, r->gflops);
    }
}

static gboolean
tiling_build (const FigOptions *o, FigData *d, GError **error)
{
    g_autofree char *key = NULL;
    g_autoptr (Preset) p = fig_preset (o, &fig_tiling_def, NULL, &key,
                                       error);
    if (p == NULL)
        return FALSE;
    FigRun runs[G_N_ELEMENTS (configs)];
    for (guint i = 0; i < G_N_ELEMENTS (configs); i++)
        fig_run_init (&runs[i], preset_spec (p), key, configs[i].kernel,
                      configs[i].size,
                      configs[i].params[0] ? configs[i].params : NULL,
                      mode_of (&configs[i]));
    gboolean ok = fig_run_all (o, runs, G_N_ELEMENTS (configs), error);
    if (ok) {
        tiling_rows (d, runs);
        fig_var_str (d, "gpu", "%s", preset_spec (p)->device.name);
        fig_var_str (d, "sampling", "%s",
                     fig_run_sampling (runs, G_N_ELEMENTS (configs)));
        fig_var_num (d, "pmpp_size", PMPP_SIZE);
        fig_var_num (d, "sgemm_size", SGEMM_SIZE);
    }
    for (guint i = 0; i < G_N_ELEMENTS (configs); i++)
        fig_run_clear (&runs[i]);
    return ok;
}

const FigDef fig_tiling_def = {
    "tiling", 10,
    "tiling: PMPP's kernel over TILE_WIDTH 8/16/32 and SGEMM kernel 5 over "
    "its block tile: occupancy, shared memory per block, time",
    "a6000", "--gpu", tiling_build, TRUE, NULL
};
