/*
 * test-memhier.c -- the memory hierarchy on microbenchmarks: pointer
 * chases reproduce each level's latency, L1 capacity follows the
 * carveout, a streaming copy over every SM sustains the preset's
 * measured DRAM bandwidth and one warp does not.
 *
 * Expected values are the presets' own sourced figures (the pointer-chase
 * latencies and STREAM bandwidth from ../shared/data/microbench.csv) and
 * the cache geometry; the tests check that the model turns them into the
 * behaviour a microbenchmark would see.  At the end, the bandwidth
 * server (bw.h) that L2 and DRAM are, by hand: bytes over bytes a
 * cycle, plus the latency.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>

#include "models/occ.h"
#include "models/preset.h"
#include "sim/bw.h"
#include "sim/gpu.h"

/* A stream of 'n' loads by lane 0 only, each using the last one's result
 * as its address (LDG R2 <- [R2]), walking 'working_set' bytes with
 * 'stride': the classic pointer chase. */
typedef struct {
    InstrStream base;
    Instr instr;
    guint64 i;
    guint64 n;
    guint64 working_set;
    guint64 stride;
    InstrOp op;           /* INSTR_LDG, or INSTR_LDS */
    int lanes;            /* lanes 0 .. lanes-1 load, 'width' bytes each, */
    int width;            /* side by side */
    gboolean exit_done;
} Chase;

static const Instr *
chase_next (InstrStream *s)
{
    Chase *c = (Chase *) s;
    if (c->i == c->n) {
        if (c->exit_done)
            return NULL;
        c->exit_done = TRUE;
        instr_init (&c->instr, INSTR_EXIT);
        return &c->instr;
    }
    instr_init (&c->instr, c->op);
    c->instr.dst = 2;
    c->instr.n_dst = (guint8) (c->width / 4);
    c->instr.src[0] = 2;
    c->instr.width = (guint8) c->width;
    c->instr.active = c->lanes == 32 ? 0xffffffffu : (1u << c->lanes) - 1;
    c->instr.addr_mode = INSTR_ADDR_STRIDE;
    c->instr.addr_base = (c->op == INSTR_LDG ? 0x100000000ull : 0) +
                         (c->i * c->stride) % c->working_set;
    c->instr.addr_stride = c->width;
    c->i++;
    return &c->instr;
}

static void
chase_free (InstrStream *s)
{
    g_free (s);
}

static const InstrStreamOps chase_ops = { chase_next, chase_free };

typedef struct {
    guint64 loads;
    guint64 working_set;
    guint64 stride;
    InstrOp op;
    int lanes;
    int width;
} ChaseWork;

static InstrStream *
open_chase (void *ctx, guint64 block, int warp)
{
    ChaseWork *w = ctx;
    Chase *c = g_new0 (Chase, 1);
    (void) block;
    (void) warp;
    c->base.ops = &chase_ops;
    c->n = w->loads;
    c->working_set = w->working_set;
    c->stride = w->stride;
    c->op = w->op;
    c->lanes = w->lanes;
    c->width = w->width;
    return &c->base;
}

static Preset *
load (const char *gpu, const char *const *sets)
{
    g_autoptr (GError) error = NULL;
    Preset *p = preset_load (gpu, NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    return p;
}

/* Cycles for one warp on one SM to chase cw->loads loads. */
static Cycle
chase (const GpuSpec *spec, ChaseWork *cw, guint64 l1_bytes)
{
    GpuWorkload w = { .n_blocks = 1, .threads_per_block = 32, .max_blocks = 1,
                      .l1_bytes = l1_bytes, .open_warp = open_chase,
                      .ctx = cw };
    g_autoptr (Gpu) gpu = gpu_new (spec, &w);
    gpu_run (gpu);
    return gpu_cycles (gpu);
}

/* Latency per load once the working set is warm: the difference of two
 * runs that differ by whole passes over it. */
static double
chase_latency (const GpuSpec *spec, ChaseWork cw, guint64 l1_bytes)
{
    guint64 pass = cw.working_set / cw.stride;
    cw.loads = 2 * pass;
    Cycle a = chase (spec, &cw, l1_bytes);
    cw.loads = 3 * pass;
    Cycle b = chase (spec, &cw, l1_bytes);
    return (double) (b - a) / (double) pass;
}

/* The classic pointer chase: lane 0 alone, 4 bytes, a new line every
 * load. */
static double
latency (const GpuSpec *spec, guint64 working_set, guint64 l1_bytes)
{
    ChaseWork cw = { .working_set = working_set, .stride = 128,
                     .op = INSTR_LDG, .lanes = 1, .width = 4 };
    return chase_latency (spec, cw, l1_bytes);
}

Test (memhier, pointer_chase_latencies)
{
    const char *gpus[] = { "v100", "t4", "a100", "a6000", "h100" };
    const char *const one_sm[] = { "device.sm_count=1", NULL };
    for (guint g = 0; g < G_N_ELEMENTS (gpus); g++) {
        g_autoptr (Preset) p = load (gpus[g], one_sm);
        const GpuSpec *s = preset_spec (p);
        guint64 l1 = (guint64) s->sm.l1_smem_kib * 1024 / 2;
        guint64 l2 = (guint64) s->device.l2_kib * 1024;
        /* Fits L1 (a quarter of it), fits L2 only (twice L1, a fraction
         * of L2), fits neither (twice L2). */
        double in_l1 = latency (s, l1 / 4, l1);
        double in_l2 = latency (s, MIN (2 * l1, l2 / 4), l1);
        double in_dram = latency (s, 2 * l2, l1);
        cr_expect (fabs (in_l1 - s->mem.l1_hit_latency_cycles) <= 2,
                   "%s: L1 %.1f cycles, preset %d", gpus[g], in_l1,
                   s->mem.l1_hit_latency_cycles);
        cr_expect (fabs (in_l2 - s->mem.l2_hit_latency_cycles) <= 2,
                   "%s: L2 %.1f cycles, preset %d", gpus[g], in_l2,
                   s->mem.l2_hit_latency_cycles);
        cr_expect (fabs (in_dram - s->mem.dram_latency_cycles) <= 2,
                   "%s: DRAM %.1f cycles, preset %d", gpus[g], in_dram,
                   s->mem.dram_latency_cycles);
    }
}

/* A whole warp's load, lanes side by side, to its first use, once the
 * data is in L1 (16 KB) or shared memory. */
static double
warp_load_latency (const GpuSpec *spec, InstrOp op, int width)
{
    ChaseWork cw = { .working_set = 16 * 1024, .stride = 32 * (guint64) width,
                     .op = op, .lanes = 32, .width = width };
    return chase_latency (spec, cw, 64 * 1024);
}

/* Huerta et al. (MICRO 2025, Table 2; ../shared/data/microarch.md
 * section 1) timed a warp's load to its first use on the RTX A6000:
 * LDG hitting L1, 32 cycles at 32 bits and 38 at 128 (addresses in
 * regular registers); LDS 23-24 and 25-26.  The preset takes the 32-bit
 * LDS figure, and L1's from pointer chases; the wider loads' extra
 * cycles are left to mechanisms set from other measurements:
 * - LDG: the L1 data path, 64 B/clk (RRZE's A40 bandwidth).  A warp's
 *   128 B pass it in 2 cycles, its 512 B in 8: 6 more, as measured.
 * - LDS: the banks, one 128 B wavefront a cycle.  512 B are 4
 *   wavefronts: 3 cycles more than one, against 1 to 3 measured.
 * The table does not give the lanes' addresses; side by side is the
 * pattern without conflicts.  Its other LDG column, the address in a
 * uniform register (one address for all lanes), has the same 6 (29 and
 * 35), which the L1's bytes cannot explain: there smsim moves one
 * sector for either width and gives 33 for both, where a write of the
 * warp's 4,096 bits into the register file at 512 a cycle (microarch.md)
 * would give the 6.  So the 512-bit port is the global loads' to the
 * register file; shared loads' +2 says theirs is wider (kernels/cuda/
 * README.md, "Probes"). */
Test (memhier, wide_loads_take_the_measured_extra_cycles)
{
    const char *const one_sm[] = { "device.sm_count=1", NULL };
    g_autoptr (Preset) p = load ("a6000", one_sm);
    const GpuSpec *s = preset_spec (p);
    double ldg32 = warp_load_latency (s, INSTR_LDG, 4);
    double ldg128 = warp_load_latency (s, INSTR_LDG, 16);
    double lds32 = warp_load_latency (s, INSTR_LDS, 4);
    double lds128 = warp_load_latency (s, INSTR_LDS, 16);
    cr_expect (fabs (ldg32 - 32) <= 1, "LDG.32 %.1f cycles, measured 32", ldg32);
    cr_expect (fabs (ldg128 - 38) <= 1, "LDG.128 %.1f cycles, measured 38",
               ldg128);
    cr_expect (fabs (ldg128 - ldg32 - 6) <= 0.5,
               "LDG.128 - LDG.32: %.1f cycles, measured 6", ldg128 - ldg32);
    cr_expect (lds32 >= 23 && lds32 <= 24, "LDS.32 %.1f cycles, measured 23-24",
               lds32);
    cr_expect (lds128 >= 25 && lds128 <= 26,
               "LDS.128 %.1f cycles, measured 25-26", lds128);
}

/* A100: 192 KB of L1 and shared memory.  A launch of 32-thread blocks
 * with no shared memory of their own holds 32 blocks x 1 KB of driver
 * reserve: the 32 KB step, 160 KB of L1.  One block with 100 KB of
 * dynamic shared memory takes the 132 KB step: 60 KB of L1.  A 128 KB
 * working set fits the first and misses in the second (1024 lines over
 * 120 sets of 4 ways: every set sees more lines than it holds). */
Test (memhier, l1_capacity_follows_the_carveout)
{
    const char *const one_sm[] = { "device.sm_count=1", NULL };
    g_autoptr (Preset) p = load ("a100", one_sm);
    const GpuSpec *s = preset_spec (p);
    OccLaunch none = { 32, 32, 0, 0, -1 }, big = { 32, 32, 0, 100 * 1024, -1 };
    OccResult r_none, r_big;
    occ_compute (s, &none, &r_none);
    occ_compute (s, &big, &r_big);
    cr_assert_eq (r_big.launch_carveout, 132 * 1024);
    cr_assert_eq (r_big.l1_bytes, 60 * 1024);
    cr_assert_eq (r_none.launch_carveout, 32 * 1024);
    cr_assert_eq (r_none.l1_bytes, 160 * 1024);
    double fits = latency (s, 128 * 1024, (guint64) r_none.l1_bytes);
    double evicted = latency (s, 128 * 1024, (guint64) r_big.l1_bytes);
    cr_expect (fabs (fits - s->mem.l1_hit_latency_cycles) <= 2, "%.1f", fits);
    cr_expect (fabs (evicted - s->mem.l2_hit_latency_cycles) <= 2, "%.1f",
               evicted);
}

/* ------------------------------------------------------------------ */
/* Streaming copy: thread i copies float i of A to float i of B        */

typedef struct {
    InstrStream base;
    Instr instr;
    guint64 step;         /* 2 per iteration: LDG, STG */
    guint64 iters;
    guint64 base_a;
    guint64 base_b;
    guint64 advance;      /* bytes between a thread's iterations */
} Copy;

static const Instr *
copy_next (InstrStream *s)
{
    Copy *c = (Copy *) s;
    if (c->step > 2 * c->iters)
        return NULL;
    if (c->step == 2 * c->iters) {
        c->step++;
        instr_init (&c->instr, INSTR_EXIT);
        return &c->instr;
    }
    gboolean load = c->step % 2 == 0;
    guint64 offset = (c->step / 2) * c->advance;
    c->step++;
    instr_init (&c->instr, load ? INSTR_LDG : INSTR_STG);
    c->instr.width = 4;
    c->instr.addr_mode = INSTR_ADDR_STRIDE;
    c->instr.addr_stride = 4;
    c->instr.addr_base = (load ? c->base_a : c->base_b) + offset;
    c->instr.dst = load ? 4 : INSTR_NO_REG;
    c->instr.src[0] = load ? 2 : 4;
    return &c->instr;
}

static const InstrStreamOps copy_ops = { copy_next, chase_free };

typedef struct {
    int threads;
    guint64 blocks;
    guint64 iters;
    guint64 bytes;   /* of A (and of B) */
} CopyWork;

/* Thread t of the grid copies floats t, t + T, t + 2T ... (T threads in
 * the grid): every warp instruction is one fully coalesced line. */
static InstrStream *
open_copy (void *ctx, guint64 block, int warp)
{
    CopyWork *w = ctx;
    Copy *c = g_new0 (Copy, 1);
    guint64 offset = (block * (guint64) w->threads + (guint64) warp * 32) * 4;
    c->base.ops = &copy_ops;
    c->iters = w->iters;
    c->advance = w->blocks * (guint64) w->threads * 4;
    c->base_a = 0x100000000ull + offset;
    c->base_b = 0x100000000ull + 2 * w->bytes + offset;
    return &c->base;
}

/* DRAM bytes moved per second, in GB/s. */
static double
copy_bandwidth (const GpuSpec *s, const CopyWork *cw, double *dram_fraction)
{
    GpuWorkload w = { .n_blocks = cw->blocks, .threads_per_block = cw->threads,
                      .max_blocks = 4, .l1_bytes = 64 * 1024,
                      .open_warp = open_copy, .ctx = (void *) cw };
    g_autoptr (Gpu) gpu = gpu_new (s, &w);
    gpu_run (gpu);
    MemStats counted;
    gpu_mem_stats (gpu, &counted);
    const MemStats *m = &counted;
    guint64 moved = m->dram_read_bytes + m->dram_write_bytes;
    double seconds = (double) gpu_cycles (gpu) /
                     ((double) s->device.sm_clock_mhz * 1e6);
    *dram_fraction = (double) moved / (double) (2 * cw->bytes);
    return (double) moved / seconds / 1e9;
}

Test (memhier, stream_copy_sustains_measured_bandwidth)
{
    g_autoptr (Preset) p = load ("a100", NULL);
    const GpuSpec *s = preset_spec (p);
    /* 96 MB read and 96 MB written: well past the 40 MB L2, so reads come
     * from DRAM and dirty lines go back to it.  4 blocks of 256 threads
     * per SM, each thread 8 iterations. */
    CopyWork cw = { 256, 4 * (guint64) s->device.sm_count, 0, 96ull << 20 };
    cw.iters = cw.bytes / 4 / (cw.blocks * 256);
    double fraction;
    double bw = copy_bandwidth (s, &cw, &fraction);
    cr_expect (fabs (bw - s->device.dram_stream_gbs) <=
                   0.05 * s->device.dram_stream_gbs,
               "copy over %d SMs moved %.0f GB/s; the preset's measured "
               "STREAM figure is %.0f GB/s", s->device.sm_count, bw,
               s->device.dram_stream_gbs);
    /* Most traffic reached DRAM (the last writes stay dirty in L2). */
    cr_expect_gt (fraction, 0.7, "%.2f of the bytes reached DRAM", fraction);
}

static InstrStream *
open_copy_mirror (void *ctx, guint64 block, int warp)
{
    return instr_lg_stream_new (open_copy (ctx, block, warp));
}

/* Mirrors (gpu.h): with 4 of the A100's 108 SMs simulated in full, the
 * other 104 send their own blocks' requests in step, so L2 and DRAM
 * carry the whole GPU's copy, byte for byte; what only the 4 count is
 * scaled to all blocks.  Hand counts: 432 blocks of 8 warps, each warp
 * 227 loads, 227 stores and an EXIT (227 x 432 x 256 floats: the 96 MB
 * rounded down to whole iterations), every byte read once from DRAM
 * (each line once, nothing re-read: 96 MB is past the 40 MB L2) and
 * written once, in 32-byte sectors. */
Test (memhier, mirrors_carry_the_whole_gpus_traffic)
{
    g_autoptr (Preset) p = load ("a100", NULL);
    const GpuSpec *s = preset_spec (p);
    CopyWork cw = { 256, 4 * (guint64) s->device.sm_count, 0, 96ull << 20 };
    cw.iters = cw.bytes / 4 / (cw.blocks * 256);
    cr_assert_eq (cw.iters, 227);
    guint64 copied = 227 * 432 * 256 * 4;
    GpuWorkload w = { .n_blocks = cw.blocks, .threads_per_block = cw.threads,
                      .max_blocks = 4, .l1_bytes = 64 * 1024,
                      .open_warp = open_copy, .ctx = &cw, .detailed_sms = 4,
                      .open_mirror = open_copy_mirror };
    g_autoptr (Gpu) gpu = gpu_new (s, &w);
    gpu_run (gpu);
    MemStats m;
    SimStats st;
    gpu_mem_stats (gpu, &m);
    gpu_stats (gpu, &st);
    guint64 warps = cw.blocks * 8;
    cr_expect_eq (m.load_requests, warps * 227);
    cr_expect_eq (m.load_sectors, copied / 32);
    cr_expect_eq (m.store_sectors, copied / 32);
    cr_expect_eq (m.dram_read_bytes, copied);
    cr_expect_eq (st.warp_instructions, warps * (2 * 227 + 1));
    cr_expect_eq (st.blocks_done, cw.blocks);
    cr_expect_eq (gpu_simulated_instructions (gpu), 4 * 4 * 8 * (2 * 227 + 1),
                  "4 SMs in full, 4 blocks each");
    double seconds = (double) gpu_cycles (gpu) /
                     ((double) s->device.sm_clock_mhz * 1e6);
    double bw = (double) (m.dram_read_bytes + m.dram_write_bytes) / seconds / 1e9;
    cr_expect (fabs (bw - s->device.dram_stream_gbs) <=
                   0.05 * s->device.dram_stream_gbs,
               "mirrored copy moved %.0f GB/s; the measured STREAM figure "
               "is %.0f GB/s", bw, s->device.dram_stream_gbs);
}

/* The blocks a run handed out: to the SM in full, and to its mirror. */
typedef struct {
    Instr prog[1];               /* one shared load; EXIT at the end */
    GString *own;
    GString *mirrored;
} Dealt;

static InstrStream *
open_dealt (void *ctx, guint64 block, int warp)
{
    Dealt *d = ctx;
    (void) warp;
    g_string_append_printf (d->own, "%" G_GUINT64_FORMAT " ", block);
    return instr_array_stream_new (d->prog, 1, 1);
}

static InstrStream *
open_dealt_mirror (void *ctx, guint64 block, int warp)
{
    Dealt *d = ctx;
    (void) warp;
    g_string_append_printf (d->mirrored, "%" G_GUINT64_FORMAT " ", block);
    return instr_lg_stream_new (instr_array_stream_new (d->prog, 1, 1));
}

/* Deal 6 one-warp blocks, 2 resident an SM, to a 2-SM A100 whose SM 1
 * mirrors SM 0; the blocks each took, in order, and the shared-memory
 * requests counted. */
static guint64
deal (gboolean pack, Dealt *d)
{
    const char *const two_sms[] = { "device.sm_count=2", NULL };
    g_autoptr (Preset) p = load ("a100", two_sms);
    instr_init (&d->prog[0], INSTR_LDS);
    d->prog[0].dst = 4;
    d->prog[0].src[0] = 2;
    d->prog[0].width = 4;
    d->prog[0].addr_mode = INSTR_ADDR_STRIDE;
    d->prog[0].addr_stride = 4;
    d->own = g_string_new (NULL);
    d->mirrored = g_string_new (NULL);
    GpuWorkload w = { .n_blocks = 6, .threads_per_block = 32, .max_blocks = 2,
                      .l1_bytes = 64 * 1024, .open_warp = open_dealt, .ctx = d,
                      .detailed_sms = 1, .open_mirror = open_dealt_mirror,
                      .pack_last_wave = pack };
    g_autoptr (Gpu) gpu = gpu_new (preset_spec (p), &w);
    gpu_run (gpu);
    MemStats m;
    gpu_mem_stats (gpu, &m);
    return m.smem_requests;
}

/* The dispatcher with a mirror (gpu.c), by hand: 6 blocks, 2 SMs of 2
 * blocks each.  The first wave goes round robin, block round x 2 + SM:
 * SM 0 takes 0 and 2, its mirror 1 and 3.  Round robin on, SM 0 takes
 * 4 and the mirror 5.  Packing the partial last wave (6 / (2 x 2) = 1
 * full wave), the SMs take its blocks 2 at a time from 4 + 2 x SM: SM 0
 * blocks 4 and 5, the mirror none (6 and 7 are past the grid).  Either
 * way the shared-memory requests, which only SM 0 plays, are scaled by
 * all blocks over SM 0's (3 of 3 mirrored, or 2 of 4): one per block,
 * 6. */
Test (memhier, the_dispatcher_deals_blocks_round_robin_or_packed)
{
    Dealt d;
    cr_expect_eq (deal (FALSE, &d), 6);
    cr_expect_str_eq (d.own->str, "0 2 4 ");
    cr_expect_str_eq (d.mirrored->str, "1 3 5 ");
    g_string_free (d.own, TRUE);
    g_string_free (d.mirrored, TRUE);
    cr_expect_eq (deal (TRUE, &d), 6);
    cr_expect_str_eq (d.own->str, "0 2 4 5 ");
    cr_expect_str_eq (d.mirrored->str, "1 3 ");
    g_string_free (d.own, TRUE);
    g_string_free (d.mirrored, TRUE);
}

/* One warp copying 1 MB: each iteration waits a DRAM round trip for its
 * load (about 550 cycles for 128 bytes): far below the bandwidth. */
Test (memhier, one_warp_does_not_saturate)
{
    g_autoptr (Preset) p = load ("a100", NULL);
    const GpuSpec *s = preset_spec (p);
    CopyWork cw = { 32, 1, (1u << 20) / 128, 1u << 20 };
    double fraction;
    double bw = copy_bandwidth (s, &cw, &fraction);
    /* Its writes stay in the 40 MB L2, so DRAM sees the 1 MB of reads:
     * 128 B per round trip of dram_latency_cycles (the pointer-chase
     * latency, whole path), plus a few cycles of loop and store issue:
     * 128 x 1410e6 / 552 = 0.327 GB/s at most, and not 15 % less. */
    double round_trip = 128.0 * s->device.sm_clock_mhz * 1e6 /
                        s->mem.dram_latency_cycles / 1e9;
    cr_expect_leq (bw, round_trip, "one warp: %.3f GB/s", bw);
    cr_expect_geq (bw, 0.85 * round_trip, "one warp: %.3f GB/s", bw);
    cr_expect_lt (bw, 0.01 * s->device.dram_stream_gbs);
}

/* Miss slots.  A request's data is back at '*ctx'. */
static void
record_back (void *ctx, guint64 cookie, Cycle at)
{
    (void) cookie;
    *(Cycle *) ctx = at;
}

/* One lane's 4-byte load of the line at 'addr'. */
static void
one_lane_load (Instr *in, guint64 addr)
{
    instr_init (in, INSTR_LDG);
    in->dst = 2;
    in->width = 4;
    in->active = 1;
    in->addr_mode = INSTR_ADDR_STRIDE;
    in->addr_base = addr;
}

/* ... from SM 'sm' at 'now', straight into the hierarchy, run until its
 * data is back at '*back'. */
static void
load_line_at (MemSys *mem, EvqQueue *q, int sm, guint64 addr, Cycle now,
              Cycle *back)
{
    Instr in;
    one_lane_load (&in, addr);
    MemRequest req = { .instr = &in, .sm = sm, .done = record_back,
                       .ctx = back };
    mem_access (mem, &req, now);
    evq_run (q);
}

/* With 2 miss slots, an SM's third miss waits for a slot, and takes the
 * one that frees first: A misses to DRAM, B hits in L2 (SM 1 brought its
 * line there), C misses to DRAM.  C goes when B is back, so it is back a
 * DRAM latency after B at the earliest, and sooner than a DRAM latency
 * after A (the slot A holds).  With 3 slots C goes at once, with A.
 * Latencies from the a6000 preset (L2 250, DRAM 556 cycles there). */
static void
three_misses (int slots, Cycle *a, Cycle *b, Cycle *c)
{
    g_autofree char *set = g_strdup_printf ("mem.l1_miss_slots=%d", slots);
    const char *sets[] = { set, NULL };
    g_autoptr (Preset) p = load ("a6000", sets);
    const GpuSpec *spec = preset_spec (p);
    g_autoptr (EvqQueue) q = evq_new ();
    g_autoptr (MemSys) mem = memhier_new (spec, q, 2, 64 * 1024);
    const guint64 A = 0x10000000, B = 0x20000000, C = 0x30000000;
    Cycle warm;
    load_line_at (mem, q, 1, B, 0, &warm);     /* B's line into L2 */
    cr_assert_gt (warm, 0);
    /* Queued in one go at cycle 10000 (the tag stage spreads them). */
    Instr in[3];
    MemRequest req[3];
    const guint64 addr[3] = { A, B, C };
    Cycle *back[3] = { a, b, c };
    for (int k = 0; k < 3; k++) {
        one_lane_load (&in[k], addr[k]);
        req[k] = (MemRequest) { .instr = &in[k], .sm = 0,
                                .done = record_back, .ctx = back[k] };
        mem_access (mem, &req[k], 10000 + (Cycle) k);
    }
    evq_run (q);
}

Test (memhier, a_miss_waits_for_the_first_slot_to_free)
{
    g_autoptr (Preset) p = load ("a6000", NULL);
    const Cycle l2 = (Cycle) preset_spec (p)->mem.l2_hit_latency_cycles;
    const Cycle dram = (Cycle) preset_spec (p)->mem.dram_latency_cycles;
    Cycle a, b, c;
    three_misses (2, &a, &b, &c);
    cr_expect_geq (a - 10000, dram, "A from DRAM: %" G_GUINT64_FORMAT, a);
    cr_expect_lt (b - 10000, dram, "B hits in L2: %" G_GUINT64_FORMAT, b);
    cr_expect_geq (b - 10000, l2);
    cr_expect_geq (c, b + dram, "C waits for B's slot: B %" G_GUINT64_FORMAT
                   ", C %" G_GUINT64_FORMAT, b, c);
    cr_expect_lt (c, a + dram, "not for A's: A %" G_GUINT64_FORMAT
                  ", C %" G_GUINT64_FORMAT, a, c);
    three_misses (3, &a, &b, &c);
    cr_expect_lt (c, 10000 + 2 + dram + dram / 2,
                  "a free slot: C at once, back %" G_GUINT64_FORMAT, c);
}

/* A sector on its way makes the loads that find it wait for it, in L1
 * and in L2 alike.  On the a6000, one lane's load of a cold line A from
 * SM 0 at 100 misses L1 and L2: its sector comes from DRAM, back at
 * some 'a' >= 100 + 556 (the DRAM latency), and is filled into both
 * with that cycle.  At 101:
 * - SM 0 loads A again: an L1 hit, but on a sector not there before
 *   'a' -- back at 'a', not at 101 + 33 (the L1 hit latency);
 * - SM 1 loads A: an L1 miss and an L2 hit on the same sector, back at
 *   'a' too, not at 101 + 250 (the L2 hit latency). */
Test (memhier, a_hit_on_a_sector_on_its_way_waits_for_it)
{
    g_autoptr (Preset) p = load ("a6000", NULL);
    const GpuSpec *spec = preset_spec (p);
    for (int sm = 0; sm < 2; sm++) {
        g_autoptr (EvqQueue) q = evq_new ();
        g_autoptr (MemSys) mem = memhier_new (spec, q, 2, 64 * 1024);
        Instr in[2];
        MemRequest req[2];
        Cycle back[2] = { 0, 0 };
        for (int k = 0; k < 2; k++) {
            one_lane_load (&in[k], 0x10000000);
            req[k] = (MemRequest) { .instr = &in[k], .sm = k == 0 ? 0 : sm,
                                    .done = record_back, .ctx = &back[k] };
            mem_access (mem, &req[k], 100 + (Cycle) k);
        }
        evq_run (q);
        cr_expect_geq (back[0], 100 + (Cycle) spec->mem.dram_latency_cycles,
                       "the first from DRAM: %" G_GUINT64_FORMAT, back[0]);
        cr_expect_eq (back[1], back[0], "SM %d's second load back at %"
                      G_GUINT64_FORMAT ", the sector at %" G_GUINT64_FORMAT,
                      sm, back[1], back[0]);
    }
}

/* A store dirties in L2 only the sectors that were clean: each dirtied
 * sector is one write-back to come (memhier.h), however often it is
 * written.  On the a6000, one lane's 4-byte store to a line, twice,
 * then one to the next sector of the line: 3 store sectors, 3 to L2,
 * 2 sectors dirtied. */
Test (memhier, a_sector_stored_twice_is_dirtied_once)
{
    g_autoptr (Preset) p = load ("a6000", NULL);
    g_autoptr (EvqQueue) q = evq_new ();
    g_autoptr (MemSys) mem = memhier_new (preset_spec (p), q, 1, 64 * 1024);
    const guint64 addr[] = { 0x10000, 0x10000, 0x10020 };
    for (int k = 0; k < 3; k++) {
        Instr in;
        one_lane_load (&in, addr[k]);
        in.op = INSTR_STG;
        in.dst = INSTR_NO_REG;
        in.src[0] = 2;
        MemRequest req = { .instr = &in, .sm = 0 };
        mem_access (mem, &req, 100 + 1000 * (Cycle) k);
        evq_run (q);
    }
    MemStats m;
    memhier_stats (mem, &m);
    cr_expect_eq (m.store_requests, 3);
    cr_expect_eq (m.store_sectors, 3);
    cr_expect_eq (m.l2_sectors, 3);
    cr_expect_eq (m.l2_dirtied_sectors, 2);
    cr_expect_eq (m.dram_read_bytes, 0);
}

/* Where stores do not allocate in L1 (the a6000's l1_store_allocate =
 * false), a store whose sectors L1 holds all leaves the line there; one
 * that finds only some of them drops the line, the others too.  By
 * hand, one-lane loads of sector 0 of a line, each after a store:
 *   load sector 0          cold: to L2 and DRAM (32 B)
 *   store sector 0         all there: the line stays
 *   load sector 0          an L1 hit
 *   store sectors 0 and 1  sector 1 missing: the line is dropped
 *   load sector 0          an L1 miss; L2 has it (no DRAM)
 * In all 3 load sectors, 1 hit, 2 + 3 stored = 5 sectors to L2, 32 B
 * from DRAM. */
Test (memhier, a_store_that_finds_part_of_its_sectors_drops_the_line)
{
    g_autoptr (Preset) p = load ("a6000", NULL);
    cr_assert_not (preset_spec (p)->mem.l1_store_allocate);
    g_autoptr (EvqQueue) q = evq_new ();
    g_autoptr (MemSys) mem = memhier_new (preset_spec (p), q, 1, 64 * 1024);
    const guint32 stored[] = { 0, 0x1, 0, 0x3, 0 };   /* lanes; 0: a load */
    for (int k = 0; k < 5; k++) {
        Instr in;
        one_lane_load (&in, 0x10000);
        if (stored[k] != 0) {
            in.op = INSTR_STG;
            in.dst = INSTR_NO_REG;
            in.active = stored[k];
            in.addr_stride = 32;      /* lane 1 in sector 1 */
        }
        MemRequest req = { .instr = &in, .sm = 0 };
        mem_access (mem, &req, 100 + 1000 * (Cycle) k);
        evq_run (q);
    }
    MemStats m;
    memhier_stats (mem, &m);
    cr_expect_eq (m.load_sectors, 3);
    cr_expect_eq (m.l1_hit_sectors, 1);
    cr_expect_eq (m.store_sectors, 3);
    cr_expect_eq (m.l2_sectors, 5);
    cr_expect_eq (m.dram_read_bytes, 32);
}

/* A warp's load of 'lanes' consecutive floats from 'addr'. */
static void
row_load (Instr *in, guint64 addr, int lanes)
{
    one_lane_load (in, addr);
    in->active = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    in->addr_stride = 4;
}

/* When the next request may go, for a load taken at 'now'. */
static Cycle
next_after (MemSys *mem, EvqQueue *q, guint64 addr, int lanes, Cycle now)
{
    Instr in;
    row_load (&in, addr, lanes);
    MemRequest req = { .instr = &in, .sm = 0 };
    Cycle next = mem_access (mem, &req, now);
    evq_run (q);
    return next - now;
}

/* On the A6000 (64 B/clk data path, one tag a cycle, 32 B sectors), by
 * hand: a warp reading one whole 128 B line holds the path 128 / 64 = 2
 * cycles; when it misses, the 4 sectors coming back are written through
 * the same path, 2 cycles more; read again it hits, 2.  One sector (8
 * lanes) reads in 1 cycle; its fill is half a cycle, carried: the first
 * such miss costs 1, the second 1 + 1.  Without the sharing, misses cost
 * what hits do. */
static void
fill_costs (gboolean shared, Cycle expect_miss, Cycle expect_small)
{
    const char *sets[] = { shared ? "mem.l1_fill_shares_data_path=true"
                                  : "mem.l1_fill_shares_data_path=false",
                           NULL };
    g_autoptr (Preset) p = load ("a6000", sets);
    const GpuSpec *spec = preset_spec (p);
    cr_assert_eq (spec->mem.l1_bytes_per_clk, 64);
    cr_assert_eq (spec->mem.l1_sector_bytes, 32);
    cr_assert_eq (spec->mem.l1_tags_per_clk, 1);
    g_autoptr (EvqQueue) q = evq_new ();
    g_autoptr (MemSys) mem = memhier_new (spec, q, 1, 64 * 1024);
    cr_expect_eq (next_after (mem, q, 0x10000, 32, 100), expect_miss,
                  "whole line, miss");
    cr_expect_eq (next_after (mem, q, 0x10000, 32, 10000), 2,
                  "whole line, hit");
    cr_expect_eq (next_after (mem, q, 0x20000, 8, 20000), 1,
                  "one sector, miss");
    cr_expect_eq (next_after (mem, q, 0x30000, 8, 30000), expect_small,
                  "another sector, miss: the carried half cycle");
}

Test (memhier, fills_take_the_data_paths_bytes)
{
    fill_costs (TRUE, 4, 2);
    fill_costs (FALSE, 2, 1);
}

/* The loop's requests (Instr.loop) are counted apart as well as in the
 * whole.  On the A6000: a warp's whole 128 B line (4 sectors) outside
 * the loop, cold, is 4 sectors from L2 and DRAM (128 B); the same line
 * again in the loop hits L1 (4 sectors, no L2); a new line in the loop
 * misses (4 more to L2, 128 B more from DRAM).  The whole: 3 loads, 12
 * sectors, 4 hit, 8 to L2, 256 B from DRAM; the loop's: 2, 8, 4, 4,
 * 128 B. */
Test (memhier, loop_requests_are_counted_apart)
{
    g_autoptr (Preset) p = load ("a6000", NULL);
    g_autoptr (EvqQueue) q = evq_new ();
    g_autoptr (MemSys) mem = memhier_new (preset_spec (p), q, 1, 64 * 1024);
    const guint64 addr[] = { 0x10000, 0x10000, 0x20000 };
    for (int i = 0; i < 3; i++) {
        Instr in;
        row_load (&in, addr[i], 32);
        in.loop = i > 0;
        MemRequest req = { .instr = &in, .sm = 0 };
        mem_access (mem, &req, 100 + 10000 * (Cycle) i);
        evq_run (q);
    }
    MemStats all, loop;
    memhier_stats (mem, &all);
    memhier_loop_stats (mem, &loop);
    cr_expect_eq (all.load_requests, 3);
    cr_expect_eq (all.load_sectors, 12);
    cr_expect_eq (all.l1_hit_sectors, 4);
    cr_expect_eq (all.l2_sectors, 8);
    cr_expect_eq (all.dram_read_bytes, 256);
    cr_expect_eq (loop.load_requests, 2);
    cr_expect_eq (loop.load_sectors, 8);
    cr_expect_eq (loop.l1_hit_sectors, 4);
    cr_expect_eq (loop.l2_sectors, 4);
    cr_expect_eq (loop.dram_read_bytes, 128);
}

/* A warp's whole-line load of 'addr' from SM 'sm' at 'now', in 'role'
 * (mem.h). */
static void
take_row (MemSys *mem, EvqQueue *q, int sm, guint64 addr, int lanes,
          MemRole role, Cycle now)
{
    Instr in;
    row_load (&in, addr, lanes);
    MemRequest req = { .instr = &in, .sm = sm, .role = role };
    mem_access (mem, &req, now);
    evq_run (q);
}

/* A mirror's request (SM 1) misses where its SM's (SM 0) just missed
 * and hits where it hit, whatever its own L1 holds; shaped otherwise it
 * goes by its own L1.  On the A6000, by hand, every load a whole 128 B
 * line of 4 sectors but the last:
 *   SM 1 loads X1 on its own       cold: 4 sectors to L2, 128 B DRAM
 *   SM 0 loads X0                  cold: 4 to L2, 128 B DRAM
 *   SM 1 follows with X1           SM 0 missed: 4 to L2 though X1 is
 *                                  in its L1; L2 has X1, so no DRAM
 *   SM 0 loads X0 again            hits: 4 hit sectors
 *   SM 1 follows with Y1 (cold)    SM 0 hit: 4 hit sectors, nothing more
 *   SM 0 loads X0, 32 lanes; SM 1  one sector (8 lanes) of cold Z1: not
 *   follows with 8 lanes           alike, so its own L1 misses: 1 sector
 *                                  to L2, 32 B DRAM (SM 0's: 4 hit)
 * In all: 7 loads, 25 sectors, 12 hit, 13 to L2, 288 B from DRAM. */
Test (memhier, mirrors_miss_where_their_sm_did)
{
    g_autoptr (Preset) p = load ("a6000", NULL);
    g_autoptr (EvqQueue) q = evq_new ();
    g_autoptr (MemSys) mem = memhier_new (preset_spec (p), q, 2, 64 * 1024);
    const guint64 X0 = 0x100000, X1 = 0x200000, Y1 = 0x300000, Z1 = 0x400000;
    take_row (mem, q, 1, X1, 32, MEM_ALONE, 100);
    take_row (mem, q, 0, X0, 32, MEM_LEADS, 10000);
    take_row (mem, q, 1, X1, 32, MEM_FOLLOWS, 10000);
    MemStats m;
    memhier_stats (mem, &m);
    cr_expect_eq (m.l2_sectors, 12, "the mirror missed with its SM");
    cr_expect_eq (m.l1_hit_sectors, 0);
    cr_expect_eq (m.dram_read_bytes, 256);
    take_row (mem, q, 0, X0, 32, MEM_LEADS, 20000);
    take_row (mem, q, 1, Y1, 32, MEM_FOLLOWS, 20000);
    memhier_stats (mem, &m);
    cr_expect_eq (m.l2_sectors, 12, "the mirror hit with its SM");
    cr_expect_eq (m.l1_hit_sectors, 8);
    take_row (mem, q, 0, X0, 32, MEM_LEADS, 30000);
    take_row (mem, q, 1, Z1, 8, MEM_FOLLOWS, 30000);
    memhier_stats (mem, &m);
    cr_expect_eq (m.load_requests, 7);
    cr_expect_eq (m.load_sectors, 25);
    cr_expect_eq (m.l1_hit_sectors, 12);
    cr_expect_eq (m.l2_sectors, 13, "shaped otherwise: its own L1");
    cr_expect_eq (m.dram_read_bytes, 288);
}

/* The L1 sectors that hit when one lane reads 'lines' lines 'stride'
 * bytes apart, in order, twice: a T4 L1 of 64 KiB (512 lines of 128 B,
 * 4 ways: 128 sets), the loads far enough apart that each fill is in. */
static guint64
second_pass_hits (gboolean hashed, int lines, guint64 stride)
{
    const char *sets[] = { hashed ? "mem.l1_hashed_index=true"
                                  : "mem.l1_hashed_index=false", NULL };
    g_autoptr (Preset) p = load ("t4", sets);
    g_autoptr (EvqQueue) q = evq_new ();
    g_autoptr (MemSys) mem = memhier_new (preset_spec (p), q, 1, 64 * 1024);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < lines; i++) {
            Instr in;
            row_load (&in, 0x10000000 + (guint64) i * stride, 1);
            MemRequest req = { .instr = &in, .sm = 0 };
            mem_access (mem, &req, (Cycle) (pass * lines + i + 1) * 10000);
            evq_run (q);
        }
    MemStats m;
    memhier_stats (mem, &m);
    return m.l1_hit_sectors;
}

/* What the second pass should hit, worked out apart from the model: a
 * set given 4 lines or fewer keeps them all, one given more keeps none
 * of them (read again in the same order, each finds itself pushed out:
 * LRU).  Line n goes to set n mod 128 by the plain index, and hashed to
 * set ((n x 0x9E3779B97F4A7C15 mod 2^64) >> 24) mod 128, the L2's
 * documented hash (cache.c). */
static guint64
expect_hits (gboolean hashed, int lines, guint64 stride)
{
    int in_set[128] = { 0 };
    for (int i = 0; i < lines; i++) {
        guint64 n = (0x10000000 + (guint64) i * stride) / 128;
        guint64 h = hashed ? (n * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 24
                           : n;
        in_set[h % 128]++;
    }
    guint64 hits = 0;
    for (int s = 0; s < 128; s++)
        hits += in_set[s] <= 4 ? (guint64) in_set[s] : 0;
    return hits;
}

/* The set index (mem.l1_hashed_index).  By hand, on the T4's 128 sets:
 * 32 lines 16 KiB (128 lines) apart share their low 7 bits, so the
 * plain index puts them all in one set of 4 ways: no hit on the second
 * pass.  The hash spreads them.  Lines 128 bytes apart take 32
 * consecutive sets by the plain index: all hit. */
Test (memhier, the_l1_set_index_is_plain_or_hashed)
{
    const guint64 column = 128 * 128, row = 128;
    cr_expect_eq (expect_hits (FALSE, 32, column), 0);
    cr_expect_eq (expect_hits (FALSE, 32, row), 32);
    guint64 spread = expect_hits (TRUE, 32, column);
    cr_expect_gt (spread, 4, "the hash spreads them: %" G_GUINT64_FORMAT,
                  spread);
    cr_expect_eq (second_pass_hits (FALSE, 32, column), 0);
    cr_expect_eq (second_pass_hits (TRUE, 32, column), spread);
    cr_expect_eq (second_pass_hits (FALSE, 32, row), 32);
    cr_expect_eq (second_pass_hits (TRUE, 32, row),
                  expect_hits (TRUE, 32, row));
}

/* What an access does to an L2 without timing (memhier_l2_touch), in an
 * A100 L2 of 2 KiB: one set of its 16 ways of 128 B lines.  A load of
 * sectors 0-1 of a cold line reads both from DRAM, the same again
 * none, and of sectors 1-2 sector 2 alone; a store reads nothing and
 * dirties what it writes.  Sixteen loads of other lines then push the
 * stored line out, the least recently used, and its dirty sector with
 * it: one written back. */
Test (memhier, an_untimed_touch_says_what_went_to_and_from_dram)
{
    const char *sets[] = { "device.l2_kib=2", NULL };
    g_autoptr (Preset) p = load ("a100", sets);
    g_autoptr (Cache) l2 = memhier_l2_new (preset_spec (p));
    guint32 out = 0;
    cr_expect_eq (memhier_l2_touch (l2, 7, 0x3, FALSE, &out), 0x3);
    cr_expect_eq (memhier_l2_touch (l2, 7, 0x3, FALSE, &out), 0);
    cr_expect_eq (memhier_l2_touch (l2, 7, 0x6, FALSE, &out), 0x4);
    cr_expect_eq (memhier_l2_touch (l2, 9, 0x8, TRUE, &out), 0);
    cr_expect_eq (out, 0);
    guint32 written = 0;
    for (guint64 line = 100; line < 116; line++) {
        cr_expect_eq (memhier_l2_touch (l2, line, 0x1, FALSE, &out), 0x1);
        written |= out;
    }
    cr_expect_eq (written, 0x8, "line 9's dirty sector, pushed out");
}

/* ------------------------------------------------------------------ */
/* The bandwidth server (bw.h)                                         */

/* 32 bytes a cycle, 100 cycles of latency: a bucket of 16 cycles moves
 * 16 x 32 = 512 bytes.  Idle, 2048 bytes at cycle 0 take 2048 / 32 = 64
 * cycles: back at 64 + 100 = 164.  512 more arriving at 0 too queue
 * behind them: 2560 / 32 = 80 cycles, back at 180 -- the queueing a
 * saturated server adds, however the 2048 were spread over buckets. */
Test (bw, a_transfer_waits_for_the_bytes_ahead_of_it)
{
    BwServer s;
    bw_init (&s, 32.0, 100);
    cr_expect_eq (bw_serve (&s, 0, 2048), 164);
    cr_expect_eq (bw_serve (&s, 0, 512), 180);
    /* Arriving once those are through (cycle 80), it waits for none. */
    cr_expect_eq (bw_serve (&s, 80, 512), 80 + 16 + 100);
    bw_clear (&s);
}

/* The calendar is a ring of BW_BUCKETS buckets; a bucket met again a
 * ring later is a new stretch of time, empty whatever it held.  Bucket
 * 0 filled (512 bytes at cycle 0: back at 16 + 100); at cycle
 * BW_BUCKETS x 16, the same slot, an idle server again: 512 bytes take
 * their 16 cycles and no more. */
Test (bw, a_bucket_a_ring_later_starts_empty)
{
    BwServer s;
    const Cycle later = (Cycle) BW_BUCKETS * BW_BUCKET_CYCLES;
    bw_init (&s, 32.0, 100);
    cr_expect_eq (bw_serve (&s, 0, 512), 116);
    cr_expect_eq (bw_serve (&s, later, 512), later + 16 + 100);
    bw_clear (&s);
}
