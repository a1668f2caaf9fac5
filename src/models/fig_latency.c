/*
 * fig_latency.c -- figure 3, latency hiding: the instruction throughput
 * of one SM against its resident warps for the load-use loop (kernel
 * model 'loaduse': each warp loops { LDG; FFMA on the loaded value }),
 * with the loads hitting L1, L2 or DRAM, beside Little's law: W warps,
 * each with one load in flight, issue 2 W instructions per latency.
 *
 * Which level the loads hit is set by the footprint they cycle over.
 * The launch asks for the largest shared-memory carveout (as a kernel
 * does with cudaFuncAttributePreferredSharedMemoryCarveout = 100), which
 * leaves the smallest L1, so that an L2-sized footprint is possible on
 * GPUs whose L1s add up to more than their L2 (the A6000: 84 x 128 KB
 * against 6 MB).  Blocks go to the SMs round robin and the footprint is
 * a whole number of lines per SM, so each SM cycles over its own share:
 *   L1    16 KB in all, every SM soon holds it;
 *   L2    each SM's share is 1.5 x its L1 (a cyclic sweep through a
 *         least-recently-used cache bigger than it always misses), the
 *         whole well inside the L2;
 *   DRAM  the largest footprint the model takes: no line comes back.
 * The throughput is measured between two runs of different lengths
 * (the difference of their instructions over the difference of their
 * cycles), which removes the cold start and the drain: for L2, the
 * shorter run already sweeps the footprint once.
 */
#include "config.h"

#include "models/fig.h"

extern const FigDef fig_latency_def;

enum { LEVEL_L1, LEVEL_L2, LEVEL_DRAM, N_LEVELS };

static const char *const level_names[N_LEVELS] = { "L1", "L2", "DRAM" };

static const int warp_points[] = { 1, 2, 4, 8, 12, 16, 24, 32, 48, 64 };

/* The loaduse model's largest footprint (kern_micro.c). */
#define DRAM_FOOTPRINT (G_GINT64_CONSTANT (1) << 40)

static const char *const carveout_sets[] = {
    "alloc.launch_carveout=max_shared", NULL
};

typedef struct {
    int level;
    int warps;
    gint64 footprint;
    guint64 short_iters;
    guint64 long_iters;
} Point;

static gint64
footprint_of (const GpuSpec *s, gint64 l1_bytes, int level)
{
    gint64 line = s->mem.l1_line_bytes;
    if (level == LEVEL_L1)
        return 16384;
    if (level == LEVEL_DRAM)
        return DRAM_FOOTPRINT;
    gint64 per_sm = (3 * l1_bytes / 2 + line - 1) / line;
    return per_sm * s->device.sm_count * line;
}

/* Iterations of the two runs: for L2, the first sweep of the footprint
 * (cold) ends within the short run. */
static void
iterations_of (const GpuSpec *s, Point *p)
{
    guint64 warps = (guint64) p->warps * (guint64) s->device.sm_count;
    if (p->level == LEVEL_L2) {
        guint64 lines = (guint64) (p->footprint / s->mem.l1_line_bytes);
        guint64 sweep = (lines + warps - 1) / warps;
        p->short_iters = sweep + 2;
        p->long_iters = p->short_iters + MAX (sweep, 16);
        return;
    }
    p->short_iters = p->level == LEVEL_L1 ? 64 : 16;
    p->long_iters = 2 * p->short_iters;
}

static int
latency_of (const GpuSpec *s, int level)
{
    return level == LEVEL_L1   ? s->mem.l1_hit_latency_cycles
           : level == LEVEL_L2 ? s->mem.l2_hit_latency_cycles
                               : s->mem.dram_latency_cycles;
}

static void
add_run (FigRun *r, const GpuSpec *s, const char *key, const Point *p,
         guint64 iters)
{
    g_autofree char *it = g_strdup_printf ("ITERS=%" G_GUINT64_FORMAT, iters);
    g_autofree char *fp = g_strdup_printf ("FOOTPRINT=%" G_GINT64_FORMAT,
                                           p->footprint);
    const char *params[] = { it, fp, NULL };
    fig_run_init (r, s, key, "loaduse",
                  (gint64) p->warps * s->device.sm_count, params, RUN_EXACT);
}

/* Warp instructions per cycle per SM between the two runs. */
static double
ipc_between (const GpuSpec *s, const FigRun *a, const FigRun *b)
{
    double di = (double) b->result.stats.warp_instructions -
                (double) a->result.stats.warp_instructions;
    double dc = (double) b->result.cycles - (double) a->result.cycles;
    return dc > 0 ? di / (dc * s->device.sm_count) : 0;
}

static void
write_rows (FigData *d, const GpuSpec *s, const Point *pts, guint n,
            const FigRun *runs)
{
    g_string_append (d->csv, "level,warps_per_sm,ipc,littles_law_ipc,"
                             "latency_cycles,footprint_bytes\n");
    for (guint i = 0; i < n; i++) {
        int lat = latency_of (s, pts[i].level);
        g_string_append_printf (d->csv, "%s,%d,%.4f,%.4f,%d,%" G_GINT64_FORMAT
                                "\n", level_names[pts[i].level],
                                pts[i].warps,
                                ipc_between (s, &runs[2 * i], &runs[2 * i + 1]),
                                2.0 * pts[i].warps / lat, lat,
                                pts[i].footprint);
    }
}

static void
latency_vars (FigData *d, const GpuSpec *s, const OccResult *occ)
{
    fig_var_str (d, "gpu", "%s", s->device.name);
    fig_var_num (d, "issue_peak", s->sm.sub_partitions);
    fig_var_num (d, "max_warps", occ->blocks_per_sm);
    fig_var_num (d, "lat_l1", s->mem.l1_hit_latency_cycles);
    fig_var_num (d, "lat_l2", s->mem.l2_hit_latency_cycles);
    fig_var_num (d, "lat_dram", s->mem.dram_latency_cycles);
    fig_var_num (d, "l1_kib", (double) occ->l1_bytes / 1024);
}

static gboolean
latency_build (const FigOptions *o, FigData *d, GError **error)
{
    g_autofree char *key = NULL;
    g_autoptr (Preset) p = fig_preset (o, &fig_latency_def, carveout_sets,
                                       &key, error);
    if (p == NULL)
        return FALSE;
    const GpuSpec *s = preset_spec (p);
    /* One-warp blocks: the block slots cap the warps per SM. */
    OccLaunch l = { 32, 16, 0, 0, -1 };
    OccResult occ;
    occ_compute (s, &l, &occ);
    /* A GPU (through --set) that cannot hold the launch has no point to
     * draw. */
    if (!occ_check (s, &l, &occ, error) || !occ_check_fits (s, &occ, error))
        return FALSE;
    Point pts[N_LEVELS * G_N_ELEMENTS (warp_points)];
    guint n = 0;
    for (int level = 0; level < N_LEVELS; level++)
        for (guint i = 0; i < G_N_ELEMENTS (warp_points); i++) {
            if (warp_points[i] > occ.blocks_per_sm)
                continue;
            Point *pt = &pts[n++];
            pt->level = level;
            pt->warps = warp_points[i];
            pt->footprint = footprint_of (s, occ.l1_bytes, level);
            iterations_of (s, pt);
        }
    FigRun runs[2 * G_N_ELEMENTS (pts)];
    for (guint i = 0; i < n; i++) {
        add_run (&runs[2 * i], s, key, &pts[i], pts[i].short_iters);
        add_run (&runs[2 * i + 1], s, key, &pts[i], pts[i].long_iters);
    }
    gboolean ok = fig_run_all (o, runs, 2 * n, error);
    if (ok) {
        write_rows (d, s, pts, n, runs);
        latency_vars (d, s, &occ);
        fig_var_str (d, "sampling", "%s", fig_run_sampling (runs, 2 * n));
    }
    for (guint i = 0; i < 2 * n; i++)
        fig_run_clear (&runs[i]);
    return ok;
}

const FigDef fig_latency_def = {
    "latency-hiding", 3,
    "load-use loop: instructions per cycle per SM vs resident warps, loads "
    "hitting L1, L2 or DRAM, with Little's law",
    "a100", "--gpu", latency_build, TRUE, NULL
};
