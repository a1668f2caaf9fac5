/*
 * sim-rate.c -- benchmark: simulated warp instructions per second on one
 * core, for a compute-bound and a memory-bound stream (issue 3 asks for
 * at least 20 million).  Prints figures; not a test.
 *
 *   compute: every warp issues independent FFMAs (FP32 pipe bound);
 *   memory:  every warp loops { LDG; FFMA using it } against a
 *            500-cycle memory (latency bound, many warps waiting).
 * Both run full blocks of the a6000 preset on 8 SMs sharing one event
 * queue, so the queue holds what a GPU's would.
 *   stream:  a copy through the whole memory hierarchy (coalescer, L1,
 *            L2, DRAM) on all 108 SMs of the a100 preset: DRAM bound.
 */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "models/occ.h"
#include "models/preset.h"
#include "sim/evq.h"
#include "sim/gpu.h"
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
next_block (void *ctx, guint64 *block)
{
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

static void
measure (const char *name, const GpuSpec *spec, Bench *b, int threads,
         Cycle latency)
{
    g_autoptr (EvqQueue) q = evq_new ();
    g_autoptr (MemSys) mem = memfixed_new (q, latency, 23);
    OccLaunch l = { threads, 32, 0, 0, -1 };
    OccResult occ;
    Sm *sms[N_SM];
    SimStats total = { 0 };

    occ_compute (spec, &l, &occ);
    SmWorkload wl = { threads, occ.blocks_per_sm, next_block, open_warp, b };
    for (int i = 0; i < N_SM; i++) {
        sms[i] = sm_new (spec, i, q, mem, &wl);
        sm_start (sms[i], 0);
    }
    double t0 = now_seconds ();
    evq_run (q);
    double dt = now_seconds () - t0;
    for (int i = 0; i < N_SM; i++) {
        stats_add (&total, sm_stats (sms[i]));
        sm_free (sms[i]);
    }
    printf ("%-8s %10" G_GUINT64_FORMAT " warp instructions in %.3f s: "
            "%.1f million/s (%" G_GUINT64_FORMAT " events, %.2f per "
            "instruction; %.2f IPC per SM)\n",
            name, total.warp_instructions, dt,
            total.warp_instructions / dt / 1e6, evq_processed (q),
            (double) evq_processed (q) / (double) total.warp_instructions,
            (double) total.warp_instructions / (double) total.cycles / N_SM);
}

/* Thread t copies floats t, t + T, ... of A to B (T threads in all). */
typedef struct {
    InstrStream base;
    Instr instr;
    guint64 step;
    guint64 iters;
    guint64 base_a;
    guint64 base_b;
    guint64 advance;
} Copy;

static const Instr *
copy_next (InstrStream *s)
{
    Copy *c = (Copy *) s;
    if (c->step > 2 * c->iters)
        return NULL;
    instr_init (&c->instr, c->step == 2 * c->iters ? INSTR_EXIT
                           : c->step % 2 ? INSTR_STG : INSTR_LDG);
    if (c->step < 2 * c->iters) {
        gboolean load = c->step % 2 == 0;
        c->instr.width = 4;
        c->instr.addr_mode = INSTR_ADDR_STRIDE;
        c->instr.addr_stride = 4;
        c->instr.addr_base = (load ? c->base_a : c->base_b) +
                             (c->step / 2) * c->advance;
        c->instr.dst = load ? 4 : INSTR_NO_REG;
        c->instr.src[0] = load ? 2 : 4;
    }
    c->step++;
    return &c->instr;
}

static void
copy_free (InstrStream *s)
{
    g_free (s);
}

static const InstrStreamOps copy_ops = { copy_next, copy_free };

static guint64 copy_blocks;

static InstrStream *
open_copy (void *ctx, guint64 block, int warp)
{
    Copy *c = g_new0 (Copy, 1);
    (void) ctx;
    c->base.ops = &copy_ops;
    c->iters = 16;
    c->advance = copy_blocks * 256 * 4;
    c->base_a = 0x100000000ull + (block * 256 + (guint64) warp * 32) * 4;
    c->base_b = c->base_a + c->advance * c->iters;
    return &c->base;
}

static void
measure_stream (void)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = preset_load ("a100", NULL, NULL, &error);
    const GpuSpec *spec = preset_spec (preset);
    SimStats st;
    copy_blocks = 4 * (guint64) spec->device.sm_count * 4;
    GpuWorkload w = { copy_blocks, 256, 8, 64 * 1024, open_copy, NULL };
    g_autoptr (Gpu) gpu = gpu_new (spec, &w);
    double t0 = now_seconds ();
    gpu_run (gpu);
    double dt = now_seconds () - t0;
    gpu_stats (gpu, &st);
    const MemStats *m = gpu_mem_stats (gpu);
    printf ("%-8s %10" G_GUINT64_FORMAT " warp instructions in %.3f s: "
            "%.1f million/s (%" G_GUINT64_FORMAT " events; %.0f GB/s of "
            "DRAM traffic simulated)\n", "stream", st.warp_instructions, dt,
            st.warp_instructions / dt / 1e6, gpu_events (gpu),
            (double) (m->dram_read_bytes + m->dram_write_bytes) /
                ((double) gpu_cycles (gpu) / (spec->device.sm_clock_mhz * 1e6)) /
                1e9);
}

int
main (int argc, char **argv)
{
    /* An argument names the one case to run (for profiling). */
    const char *only = argc > 1 ? argv[1] : NULL;
    if (g_strcmp0 (only, "stream") == 0) {
        measure_stream ();
        return 0;
    }
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) preset = preset_load ("a6000", NULL, NULL, &error);
    if (preset == NULL) {
        fprintf (stderr, "sim-rate: %s\n", error->message);
        return 2;
    }
    const GpuSpec *spec = preset_spec (preset);
    Bench compute = { .n = 8, .repeat = 2000, .blocks_left = N_SM * 6 };
    for (int k = 0; k < 8; k++) {
        instr_init (&compute.prog[k], INSTR_FFMA);
        compute.prog[k].dst = (guint8) (10 + k);
        compute.prog[k].src[0] = 1;
        compute.prog[k].src[1] = 2;
        compute.prog[k].src[2] = (guint8) (10 + k);
    }
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
    if (only == NULL)
        measure_stream ();
    return 0;
}
