/*
 * sim-rate.c -- benchmark: simulated warp instructions per second on one
 * core, for a compute-bound and a memory-bound stream (issue 3 asks for
 * at least 20 million).  Prints figures; not a test.
 *
 *   compute: every warp issues independent FFMAs (FP32 pipe bound),
 *            R1 and R2 kept in the reuse cache as nvcc's outer-product
 *            loops keep theirs, so one register-file read each;
 *   memory:  every warp loops { LDG; FFMA using it } against a
 *            500-cycle memory (latency bound, many warps waiting).
 * Both run full blocks of the a6000 preset on 8 SMs sharing one event
 * queue, so the queue holds what a GPU's would.
 *   L1, L2, DRAM: the `loaduse` kernel model (each warp loops { LDG;
 *            FFMA using it }) through the whole memory hierarchy
 *            (coalescer, L1, L2, DRAM) on the a6000 preset cut to the
 *            same 8 SMs and 48 warps each, its loads over a footprint
 *            that lives in L1, in L2, or in neither: the memory-bound
 *            streams issue 4 compares with `compute` (within a factor
 *            of two);
 *   copy:    the `stream` kernel model (a copy) through the whole memory
 *            hierarchy on the same 8 SMs: DRAM bound, and a block launch
 *            for every 48 instructions;
 *   stream:  the same copy on all 108 SMs of the a100 preset, beside
 *            compute-a100 (the `compute` program on those 108 SMs: the
 *            rate falls with the SM count for compute too), compute-108
 *            (the same on the a6000 made 108 SMs, whose pipe issues
 *            twice as many FFMAs a cycle) and
 *            stream-core (the copy's SMs and launches against a fixed
 *            latency instead of the hierarchy).
 */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "models/kern.h"
#include "models/occ.h"
#include "models/run.h"
#include "models/preset.h"
#include "sim/evq.h"
#include "sim/memfixed.h"
#include "sim/sm.h"

#define N_SM 8

typedef struct {
    Instr prog[8];
    gsize n;
    guint64 repeat;
    guint64 blocks_left;
} Bench;

static gboolean
next_block (void *ctx, int sm, guint64 *block)
{
    (void) sm;
    Bench *b = ctx;
    if (b->blocks_left == 0)
        return FALSE;
    *block = --b->blocks_left;
    return TRUE;
}

static InstrStream *
open_warp (void *ctx, guint64 block, int warp)
{
    Bench *b = ctx;
    (void) block;
    (void) warp;
    return instr_array_stream_new (b->prog, b->n, b->repeat);
}

static double
now_seconds (void)
{
    struct timespec ts;
    clock_gettime (CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* 'n_sm' SMs of 'spec' running 'wl' ('threads' a block) on one event
 * queue and a memory of fixed latency. */
static void
measure_on (const char *name, const GpuSpec *spec, int n_sm, SmWorkload *wl,
            int threads, Cycle latency)
{
    g_autoptr (EvqQueue) q = evq_new ();
    g_autoptr (MemSys) mem = memfixed_new (q, latency, 23);
    OccLaunch l = { threads, 32, 0, 0, -1 };
    OccResult occ;
    g_autofree Sm **sms = g_new0 (Sm *, n_sm);
    SimStats total = { 0 };

    occ_compute (spec, &l, &occ);
    wl->threads_per_block = threads;
    wl->max_blocks = occ.blocks_per_sm;
    for (int i = 0; i < n_sm; i++) {
        sms[i] = sm_new (spec, i, q, mem, wl);
        sm_start (sms[i], 0);
    }
    double t0 = now_seconds ();
    evq_run (q);
    double dt = now_seconds () - t0;
    for (int i = 0; i < n_sm; i++) {
        SimStats s;
        sm_stats (sms[i], evq_now (q), &s);
        stats_add (&total, &s);
        sm_free (sms[i]);
    }
    printf ("%-8s %10" G_GUINT64_FORMAT " warp instructions in %.3f s: "
            "%.1f million/s (%" G_GUINT64_FORMAT " events, %.2f per "
            "instruction; %.2f IPC per SM)\n",
            name, total.warp_instructions, dt,
            total.warp_instructions / dt / 1e6, evq_processed (q),
            (double) evq_processed (q) / (double) total.warp_instructions,
            (double) total.warp_instructions / (double) total.cycles / n_sm);
}

static void
measure (const char *name, const GpuSpec *spec, Bench *b, int threads,
         Cycle latency)
{
    SmWorkload wl = { .next_block = next_block, .open_warp = open_warp,
                      .ctx = b };
    measure_on (name, spec, N_SM, &wl, threads, latency);
}

/* Kernel model 'kernel' at 'size' ('params', NULL-ended, or NULL) on
 * preset 'gpu' ('sets' applied), simulated exactly; '*seconds' gets its
 * wall time.  FALSE, said on standard error, if it did not run. */
static gboolean
run_exactly (const char *gpu, const char *const *sets, const char *kernel,
             gint64 size, const char *const *params, RunResult *r,
             double *seconds)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = preset_load (gpu, NULL, sets, &error);
    g_autoptr (KernInstance) k = NULL;
    RunOptions o = { .regs = -1, .smem = -1, .mode = RUN_EXACT };
    if (preset != NULL)
        k = kern_instance_new (kern_find (kernel), preset_spec (preset), size,
                               params, &error);
    double t0 = now_seconds ();
    if (k == NULL || !run_kernel (preset_spec (preset), k, &o, r, &error)) {
        fprintf (stderr, "sim-rate: %s\n", error->message);
        return FALSE;
    }
    *seconds = now_seconds () - t0;
    return TRUE;
}

/* The `loaduse` kernel model over 'footprint' bytes on the a6000 cut to
 * N_SM SMs: 48 one-warp blocks each (all it holds). */
static void
measure_hier (const char *name, gint64 footprint)
{
    g_autofree char *sms = g_strdup_printf ("device.sm_count=%d", N_SM);
    const char *sets[] = { sms, NULL };
    g_autofree char *fp = g_strdup_printf ("FOOTPRINT=%" G_GINT64_FORMAT,
                                           footprint);
    const char *params[] = { "ITERS=4000", fp, NULL };
    RunResult r;
    double dt;
    if (!run_exactly ("a6000", sets, "loaduse", 48 * N_SM, params, &r, &dt))
        return;
    printf ("%-8s %10" G_GUINT64_FORMAT " warp instructions in %.3f s: "
            "%.1f million/s (%" G_GUINT64_FORMAT " events; L1 hits %.0f %%, "
            "L2 hits %.0f %%)\n", name, r.stats.warp_instructions, dt,
            r.stats.warp_instructions / dt / 1e6, r.events,
            100 * r.l1_hit_rate, 100 * r.l2_hit_rate);
}

/* The `stream` kernel model (a copy, one float per thread) of 'floats'
 * on preset 'gpu' ('sets' applied). */
static void
measure_stream (const char *name, const char *gpu, const char *const *sets,
                gint64 floats)
{
    RunResult r;
    double dt;
    if (!run_exactly (gpu, sets, "stream", floats, NULL, &r, &dt))
        return;
    printf ("%-8s %10" G_GUINT64_FORMAT " warp instructions in %.3f s: "
            "%.1f million/s (%" G_GUINT64_FORMAT " events; %.0f GB/s of "
            "DRAM traffic simulated)\n", name, r.stats.warp_instructions,
            dt, r.stats.warp_instructions / dt / 1e6, r.events,
            (double) r.dram_bytes / (r.time_ms * 1e-3) / 1e9);
}

/* A kernel model's blocks, in order, to whichever SM asks. */
typedef struct {
    const KernInstance *k;
    guint64 next;
} KernBlocks;

static gboolean
next_kern_block (void *ctx, int sm, guint64 *block)
{
    KernBlocks *b = ctx;
    (void) sm;
    if (b->next == kern_blocks (b->k))
        return FALSE;
    *block = b->next++;
    return TRUE;
}

static InstrStream *
open_kern_warp (void *ctx, guint64 block, int warp)
{
    KernBlocks *b = ctx;
    return kern_open_warp (b->k, block, warp);
}

/* The `compute` case's program: 8 independent FFMAs, R1 and R2 kept
 * in the reuse cache. */
static void
compute_program (Bench *b)
{
    b->n = 8;
    for (int k = 0; k < 8; k++) {
        instr_init (&b->prog[k], INSTR_FFMA);
        b->prog[k].dst = (guint8) (10 + k);
        b->prog[k].src[0] = 1;
        b->prog[k].src[1] = 2;
        b->prog[k].src[2] = (guint8) (10 + k);
        b->prog[k].reuse = 0x3;
    }
}

/* Independent FFMAs (the `compute` case's program) on every SM of
 * 'gpu' ('sets' applied), each full of blocks of 256 threads: the
 * compute-bound rate on as many SMs as the copy below runs on. */
static void
measure_compute_on (const char *name, const char *gpu,
                    const char *const *sets)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = preset_load (gpu, NULL, sets, &error);
    if (preset == NULL) {
        fprintf (stderr, "sim-rate: %s\n", error->message);
        return;
    }
    const GpuSpec *spec = preset_spec (preset);
    int n_sm = spec->device.sm_count;
    Bench b = { .repeat = 200,
                .blocks_left = (guint64) n_sm *
                               (guint64) (spec->sm.max_threads / 256) };
    compute_program (&b);
    SmWorkload wl = { .next_block = next_block, .open_warp = open_warp,
                      .ctx = &b };
    measure_on (name, spec, n_sm, &wl, 256, 500);
}

/* The `stream` copy of 'floats' on every SM of 'gpu' as `stream` runs
 * it, but against a memory of fixed latency (the preset's DRAM
 * latency) instead of the hierarchy: the same SMs, warps and launches,
 * so that the two differ by what the memory hierarchy costs alone. */
static void
measure_stream_core (const char *name, const char *gpu, gint64 floats)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = preset_load (gpu, NULL, NULL, &error);
    g_autoptr (KernInstance) k = NULL;
    if (preset != NULL)
        k = kern_instance_new (kern_find ("stream"), preset_spec (preset),
                               floats, NULL, &error);
    if (k == NULL) {
        fprintf (stderr, "sim-rate: %s\n", error->message);
        return;
    }
    const GpuSpec *spec = preset_spec (preset);
    KernBlocks b = { k, 0 };
    SmWorkload wl = { .next_block = next_kern_block,
                      .open_warp = open_kern_warp, .ctx = &b };
    measure_on (name, spec, spec->device.sm_count, &wl, k->threads,
                (Cycle) spec->mem.dram_latency_cycles);
}

/* The copy on the a6000 cut to the other cases' N_SM SMs, and on every
 * SM of the a100, beside the compute-bound rate on as many SMs and the
 * same copy against a fixed-latency memory: the rate falls with the SM
 * count for compute too (each SM's warps and tags crowding the host's
 * caches), so the whole-GPU copy compares with the whole-GPU compute
 * case, and with its own core without the hierarchy. */
static void
measure_streams (void)
{
    g_autofree char *sms = g_strdup_printf ("device.sm_count=%d", N_SM);
    const char *sets[] = { sms, NULL };
    measure_stream ("copy", "a6000", sets, 4 << 20);
    measure_compute_on ("compute-a100", "a100", NULL);
    /* The same on the a6000's pipes (an FFMA a cycle, where the a100
     * issues one every other) made 108 SMs. */
    const char *sets108[] = { "device.sm_count=108", NULL };
    measure_compute_on ("compute-108", "a6000", sets108);
    measure_stream ("stream", "a100", NULL, 16 << 20);
    measure_stream_core ("stream-core", "a100", 16 << 20);
}

int
main (int argc, char **argv)
{
    /* An argument names the one case to run (for profiling): stream,
     * L1, L2, DRAM, or anything else for compute and memory. */
    const char *only = argc > 1 ? argv[1] : NULL;
    if (g_strcmp0 (only, "stream") == 0) {
        measure_streams ();
        return 0;
    }
    static const struct { const char *name; gint64 footprint; } level[] = {
        /* 16 KB: every warp's line stays in L1; 1 MB: past L1 (the
         * a6000's is at most 128 KB), within its 6 MB L2; 256 MB:
         * neither. */
        { "L1", 16 << 10 }, { "L2", 1 << 20 }, { "DRAM", 256 << 20 },
    };
    for (gsize i = 0; i < G_N_ELEMENTS (level); i++)
        if (g_strcmp0 (only, level[i].name) == 0) {
            measure_hier (level[i].name, level[i].footprint);
            return 0;
        }
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = preset_load ("a6000", NULL, NULL, &error);
    if (preset == NULL) {
        fprintf (stderr, "sim-rate: %s\n", error->message);
        return 2;
    }
    const GpuSpec *spec = preset_spec (preset);
    Bench compute = { .repeat = 2000, .blocks_left = N_SM * 6 };
    compute_program (&compute);
    measure ("compute", spec, &compute, 256, 500);

    Bench memory = { .n = 2, .repeat = 4000, .blocks_left = N_SM * 6 };
    instr_init (&memory.prog[0], INSTR_LDG);
    memory.prog[0].dst = 4;
    memory.prog[0].src[0] = 2;
    memory.prog[0].width = 4;
    memory.prog[0].addr_mode = INSTR_ADDR_STRIDE;
    memory.prog[0].addr_stride = 4;
    instr_init (&memory.prog[1], INSTR_FFMA);
    memory.prog[1].dst = 5;
    memory.prog[1].src[0] = 4;
    memory.prog[1].src[1] = 4;
    memory.prog[1].src[2] = 5;
    measure ("memory", spec, &memory, 256, 500);
    if (only != NULL)
        return 0;
    for (gsize i = 0; i < G_N_ELEMENTS (level); i++)
        measure_hier (level[i].name, level[i].footprint);
    measure_streams ();
    return 0;
}
