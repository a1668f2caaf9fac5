/*
 * test-trace.c -- trace files: an instruction line says exactly what an
 * Instr holds; a written trace replays every warp's stream as the model
 * makes it (whole, and cut to a sampling window); a replayed run counts
 * what the model's run counts; `trace info`'s counts follow hand
 * formulas from the kernels' sources; bad lines are refused naming the
 * field.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <string.h>

#include "models/kern.h"
#include "models/kern_trace.h"
#include "models/run.h"
#include "models/trace_info.h"
#include "models/trace_line.h"
#include "models/trace_read.h"
#include "models/trace_write.h"
#include "testutil.h"

static KernInstance *
make (const GpuSpec *spec, const char *id, gint64 size, const char *p0)
{
    g_autoptr (GError) error = NULL;
    const char *params[] = { p0, NULL };
    KernInstance *k = kern_instance_new (kern_find (id), spec, size, params,
                                         &error);
    cr_assert_not_null (k, "%s: %s", id, error ? error->message : "");
    return k;
}

/* Write 'k''s trace to a scratch file named 'name'. */
static char *
write_trace (const KernInstance *k, const GpuSpec *spec, const char *name)
{
    g_autoptr (GError) error = NULL;
    char *path = tu_write_file (name, "");
    cr_assert (trace_write (k, spec->id, path, NULL, NULL, &error), "%s",
               error ? error->message : "");
    return path;
}

/* Same instruction: every field the simulator reads. */
static void
assert_same (const Instr *a, const Instr *b, const char *where)
{
    cr_assert_eq (a->op, b->op, "%s: op", where);
    cr_assert_eq (a->dst, b->dst, "%s: dst", where);
    cr_assert_eq (a->n_dst, b->n_dst, "%s: n_dst", where);
    cr_assert_arr_eq (a->src, b->src, 3, "%s: src", where);
    cr_assert_eq (a->width, b->width, "%s: width", where);
    cr_assert_eq (a->addr_mode, b->addr_mode, "%s: addr_mode", where);
    cr_assert_eq (a->active, b->active, "%s: active", where);
    cr_assert_eq (a->ctrl, b->ctrl, "%s: ctrl", where);
    cr_assert_eq (a->stall, b->stall, "%s: stall", where);
    cr_assert_eq (a->yield, b->yield, "%s: yield", where);
    cr_assert_eq (a->wr_sb, b->wr_sb, "%s: wr_sb", where);
    cr_assert_eq (a->wait_mask, b->wait_mask, "%s: wait_mask", where);
    if (a->addr_mode != INSTR_ADDR_NONE)
        for (int lane = 0; lane < 32; lane++)
            cr_assert_eq (instr_lane_addr (a, lane), instr_lane_addr (b, lane),
                          "%s: lane %d", where, lane);
    if (a->addr_mode == INSTR_ADDR_STRIDE) {
        cr_assert_eq (a->addr_base, b->addr_base, "%s: base", where);
        cr_assert_eq (a->addr_stride, b->addr_stride, "%s: stride", where);
    }
}

static void
round_trip (const Instr *in)
{
    g_autoptr (GString) line = g_string_new (NULL);
    g_autoptr (GError) error = NULL;
    Instr back;
    trace_line_format (line, in);
    cr_assert_eq (line->str[line->len - 1], '\n');
    g_string_truncate (line, line->len - 1);
    cr_assert (trace_line_parse (line->str, &back, &error), "'%s': %s",
               line->str, error ? error->message : "");
    assert_same (in, &back, line->str);
}

Test (trace, line_round_trip_of_every_form)
{
    Instr in;
    instr_init (&in, INSTR_FFMA);
    in.dst = 0;
    in.src[0] = 254;
    in.src[1] = 1;
    round_trip (&in);
    /* Control fields, a partial mask, no counter. */
    in.ctrl = 1;
    in.stall = 15;
    in.yield = 1;
    in.wait_mask = 0x3f;
    in.active = 0x0000ffffu;
    round_trip (&in);
    in.wr_sb = 5;
    in.active = 0;
    round_trip (&in);
    /* A negative stride, a 64-bit base; a vector load's 4 registers. */
    instr_init (&in, INSTR_LDG);
    in.dst = 8;
    in.n_dst = 4;
    in.width = 16;
    in.addr_mode = INSTR_ADDR_STRIDE;
    in.addr_base = G_GUINT64_CONSTANT (0xfffffffffffffff0);
    in.addr_stride = -16;
    round_trip (&in);
    /* Explicit addresses that wrap around and jump. */
    instr_init (&in, INSTR_STS);
    in.width = 4;
    in.n_dst = 1;
    in.addr_mode = INSTR_ADDR_EXPLICIT;
    for (int lane = 0; lane < 32; lane++)
        in.addr[lane] = lane % 2 ? G_MAXUINT64 - (guint64) lane
                                 : (guint64) lane * 4096;
    round_trip (&in);
}

static void
parse_fails (const char *line, const char *needle)
{
    g_autoptr (GError) error = NULL;
    Instr in;
    cr_assert_not (trace_line_parse (line, &in, &error), "'%s' parsed", line);
    cr_assert_not_null (strstr (error->message, needle), "'%s': %s", line,
                        error->message);
}

/* Every instruction of block 0's first and last warp, one iteration:
 * it reads back as written, and a shared access stays in the block's
 * shared memory (what the trace reader checks). */
static void
lines_read_back (const KernInstance *k)
{
    guint64 smem = (guint64) (k->static_smem + k->dyn_smem);
    int warps = kern_warps (k);
    for (int w = 0; w < warps; w += MAX (warps - 1, 1)) {
        g_autoptr (InstrStream) s = kern_open_warp_window (k, 0, w, 1);
        for (const Instr *in; (in = instr_stream_next (s)) != NULL;) {
            round_trip (in);
            if (in->op != INSTR_LDS && in->op != INSTR_STS)
                continue;
            for (int lane = 0; lane < 32; lane++)
                cr_assert (!(in->active >> lane & 1) ||
                               instr_lane_addr (in, lane) + in->width <= smem,
                           "%s: lane %d past %" G_GUINT64_FORMAT " B",
                           k->model->id, lane, smem);
        }
    }
}

/* Any tiling the SGEMM models accept writes a trace the reader takes:
 * tilings of more loads than the staging registers once ran into RZ
 * and wrapped to R0 (sgemm-6 with BM=16, BN=256, BK=16, 64 threads). */
Test (trace, every_accepted_sgemm_tiling_writes_lines_that_read_back)
{
    g_autoptr (Preset) p = tu_preset ("a100");
    static const int tiles[] = { 16, 64, 128, 256 }, depths[] = { 4, 8, 16, 32 };
    static const int per[] = { 1, 4, 8 }, threads[] = { 32, 64, 128, 256, 512 };
    int accepted = 0;
    for (int kernel = 3; kernel <= 11; kernel++)
        for (guint a = 0; a < G_N_ELEMENTS (tiles) * G_N_ELEMENTS (tiles) *
                                  G_N_ELEMENTS (depths) * G_N_ELEMENTS (per) *
                                  G_N_ELEMENTS (threads); a++) {
            guint i = a;
            int bm = tiles[i % 4], bn = tiles[i / 4 % 4];
            i /= 16;
            int bk = depths[i % 4], tm = per[i / 4 % 3];
            int nt = threads[i / 12 % 5];
            g_autofree char *id = g_strdup_printf ("sgemm-%d", kernel);
            g_autofree char *pm = g_strdup_printf ("BM=%d", bm);
            g_autofree char *pn = g_strdup_printf ("BN=%d", bn);
            g_autofree char *pk = g_strdup_printf ("BK=%d", bk);
            g_autofree char *pt = g_strdup_printf ("TM=%d", tm);
            g_autofree char *pu = g_strdup_printf ("TN=%d", tm);
            g_autofree char *pw = g_strdup_printf ("WM=%d", bm / 2);
            g_autofree char *px = g_strdup_printf ("THREADS=%d", nt);
            /* What each kernel takes (kern_sgemm.c): kernel 4 no TN,
             * kernels 10 and 11 a warp tile too. */
            const char *params[] = { pm, pn, pk, pt, px,
                                     kernel >= 5 ? pu : NULL, pw, NULL };
            if (kernel < 10)
                params[6] = NULL;
            g_autoptr (GError) error = NULL;
            g_autoptr (KernInstance) k = kern_instance_new (
                kern_find (id), preset_spec (p), 512,
                kernel <= 3 ? NULL : params, &error);
            if (k == NULL)
                continue;
            accepted++;
            lines_read_back (k);
        }
    /* Not vacuous: the defaults of 3 and the published tilings of 5,
     * 6 and 9 are on the grid, and others with them. */
    cr_assert_geq (accepted, 20, "only %d tilings accepted", accepted);
}

Test (trace, bad_lines_name_the_field)
{
    parse_fails ("FOO R0 RZ RZ RZ", "opcode 'FOO': unknown");
    parse_fails ("FFMA R255 RZ RZ RZ", "destination register 'R255'");
    parse_fails ("FFMA R0 R1 RZ", "source register missing");
    parse_fails ("LDG R0 R1 RZ RZ w=4 A=100,+4,+4", "field 'A': 3 addresses, "
                 "expected 32");
    parse_fails ("LDG R0 R1 RZ RZ w=3 a=100+4", "field 'w=3'");
    parse_fails ("LDG R0 R1 RZ RZ w=4", "addresses missing");
    parse_fails ("LDG R0 R1 RZ RZ a=100+4", "field 'w=' missing");
    parse_fails ("FADD R0 R1 RZ RZ a=100+4", "only memory operations");
    parse_fails ("FADD R0 R1 RZ RZ m=1ffffffff", "field 'm=1ffffffff'");
    parse_fails ("FADD R0 R1 RZ RZ c=16/0/-/0", "field 'c=16/0/-/0'");
    parse_fails ("FADD R0 R1 RZ RZ q=1", "field 'q=1': unknown");
    parse_fails ("LDG R0 R1 RZ RZ w=4 a=100+4 A=1", "given twice");
}

/* Each field's range is refused one past its edge and taken at it
 * (traces/FORMAT.md): stall 0..15, yield 0 or 1, wait mask 0..3f (6
 * counters), a destination run R0..R254 (R255 is RZ), exactly 32 lane
 * addresses, a signed difference with digits, 'w=' on memory
 * operations only, and 1, 2, 4, 8 or 16 bytes a lane. */
Test (trace, each_fields_range_ends_where_the_format_says)
{
    Instr in;
    parse_fails ("FADD R0 R1 RZ RZ c=0/2/-/0", "field 'c=0/2/-/0'");
    cr_assert (trace_line_parse ("FADD R0 R1 RZ RZ c=15/1/5/3f", &in, NULL));
    cr_assert_eq (in.yield, 1);
    cr_assert_eq (in.wait_mask, 0x3f);
    parse_fails ("FADD R0 R1 RZ RZ c=0/0/-/40", "field 'c=0/0/-/40'");
    parse_fails ("LDG R254x2 R1 RZ RZ w=8 a=100+8", "runs past R254");
    cr_assert (trace_line_parse ("LDG R253x2 R1 RZ RZ w=8 a=100+8", &in, NULL));
    cr_assert_eq (in.dst, 253);
    cr_assert_eq (in.n_dst, 2);
    g_autoptr (GString) a = g_string_new ("LDG R0 R1 RZ RZ w=4 A=100");
    for (int lane = 1; lane < 31; lane++)
        g_string_append (a, ",+4");
    parse_fails (a->str, "field 'A': 31 addresses, expected 32");
    g_string_append (a, ",+4");
    cr_assert (trace_line_parse (a->str, &in, NULL));
    cr_assert_eq (in.addr[31], 0x100 + 31 * 4);
    parse_fails ("LDG R0 R1 RZ RZ w=4 a=100+", "field 'a=100+'");
    parse_fails ("LDG R0 R1 RZ RZ w=4 A=100,+,+4", "field 'A': lane 1");
    parse_fails ("FADD R0 R1 RZ RZ w=4", "only memory operations");
    /* Bytes per lane: a power of two up to 16 (LDG.128). */
    cr_assert (trace_line_parse ("LDG R0x4 R1 RZ RZ w=16 a=100+16", &in, NULL));
    cr_assert_eq (in.width, 16);
    parse_fails ("LDG R0x4 R1 RZ RZ w=32 a=100+32", "field 'w=32'");
}

/* Every warp of 'k' and of its trace 't', the main loop cut to
 * 'iterations', gives the same instructions. */
static void
assert_streams_equal (const KernInstance *k, const KernInstance *t,
                      guint64 iterations)
{
    int warps = (k->threads + 31) / 32;
    for (guint64 b = 0; b < kern_blocks (k); b++)
        for (int w = 0; w < warps; w++) {
            g_autoptr (InstrStream) a = kern_open_warp_window (k, b, w, iterations);
            g_autoptr (InstrStream) c = kern_open_warp_window (t, b, w, iterations);
            const Instr *x, *y;
            for (int i = 0;; i++) {
                char where[64];
                x = instr_stream_next (a);
                y = instr_stream_next (c);
                g_snprintf (where, sizeof where, "block %" G_GUINT64_FORMAT
                            " warp %d instruction %d", b, w, i);
                cr_assert_eq (x == NULL, y == NULL, "%s: length", where);
                if (x == NULL)
                    break;
                assert_same (x, y, where);
            }
        }
    g_autoptr (GError) error = NULL;
    cr_assert (kern_trace_check (t, &error));
}

static void
check_replay_streams (const char *id, gint64 size, const char *p0,
                      const char *name, guint64 window)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    g_autoptr (GError) error = NULL;
    g_autoptr (KernInstance) k = make (preset_spec (p), id, size, p0);
    g_autofree char *path = write_trace (k, preset_spec (p), name);
    g_autoptr (KernInstance) t = kern_trace_open (path, &error);
    cr_assert_not_null (t, "%s", error ? error->message : "");
    cr_assert_str_eq (t->model->id, id);
    cr_assert_eq (t->grid_x, k->grid_x);
    cr_assert_eq (t->iterations, k->iterations);
    cr_assert_eq (t->regs, k->regs);
    cr_assert_eq (t->flops, k->flops);
    /* Blocks unlike (threads idle past a bounds check) are told from
     * the trace's lanes as the model knows them. */
    cr_assert_eq (t->uneven, k->uneven, "%s at %" G_GINT64_FORMAT, id, size);
    /* And so are its kinds of block, which a sampled run times apart:
     * two blocks are alike in the trace where they are in the model.
     * A trace's lanes count its idle warps' instructions before they
     * exit, which the model's do not, but its busy warps are the
     * model's: those that play the loop (all, where it has none). */
    for (guint64 b = 0; b < kern_blocks (k); b++) {
        KernBlockWork mb = kern_block_work (k, b), tb = kern_block_work (t, b);
        cr_assert_eq (tb.warps, k->iterations > 0 ? mb.warps : kern_warps (k),
                      "%s at %" G_GINT64_FORMAT ": block %" G_GUINT64_FORMAT,
                      id, size, b);
        for (guint64 c = 0; c < b; c++) {
            KernBlockWork mc = kern_block_work (k, c), tc = kern_block_work (t, c);
            cr_assert_eq (mb.lanes == mc.lanes && mb.warps == mc.warps,
                          tb.lanes == tc.lanes && tb.warps == tc.warps,
                          "%s at %" G_GINT64_FORMAT ": blocks %" G_GUINT64_FORMAT
                          " and %" G_GUINT64_FORMAT, id, size, b, c);
        }
    }
    assert_streams_equal (k, t, k->iterations);
    assert_streams_equal (k, t, window);
}

/* vecadd at 1000: the last block's warps have partial and empty masks. */
Test (trace, vecadd_streams_replay_exactly)
{
    check_replay_streams ("vecadd", 1000, NULL, "vecadd.trace", 0);
}

Test (trace, pmpp_streams_replay_exactly_whole_and_windowed_gzip)
{
    check_replay_streams ("pmpp-tiled", 32, "TILE_WIDTH=8", "pmpp.trace.gz", 1);
}

Test (trace, sgemm_streams_replay_exactly_whole_and_windowed)
{
    check_replay_streams ("sgemm-5", 128, NULL, "sgemm5.trace", 3);
}

/* Kernels 1 and 2 at 100: the last row and column of their 4 x 4
 * blocks have idle lanes and warps that exit before the loop, and
 * K's last 100 mod 16 = 4 steps come after it (6 iterations). */
Test (trace, naive_sgemm_streams_replay_exactly_at_any_size)
{
    check_replay_streams ("sgemm-1", 100, NULL, "sgemm1-100.trace", 3);
    check_replay_streams ("sgemm-2", 100, NULL, "sgemm2-100.trace", 3);
    check_replay_streams ("sgemm-2", 128, NULL, "sgemm2-128.trace", 3);
}

/* The warps a sampled run's probe leaves unwatched, those that exit
 * before the loop: as many of the trace's as of the model's, the same
 * ones.  Kernel 1 at 33 (2 x 2 blocks, a warp a column of C): blocks 2
 * and 3 hold columns 32-63, of which only 32 is in C, 31 warps each
 * exiting.  Kernel 2 at 100 (4 x 4 blocks, a warp a row): blocks
 * 3, 7, 11 and 15 hold rows 96-127, 28 warps each past row 99. */
static void
check_plays_loop (const char *id, gint64 size, const char *name,
                  guint64 exiting)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *spec = preset_spec (p);
    g_autoptr (GError) error = NULL;
    g_autoptr (KernInstance) k = make (spec, id, size, NULL);
    g_autofree char *path = write_trace (k, spec, name);
    g_autoptr (KernInstance) t = kern_trace_open (path, &error);
    cr_assert_not_null (t, "%s", error ? error->message : "");
    guint64 model = 0, trace = 0;
    for (guint64 b = 0; b < kern_blocks (k); b++)
        for (int w = 0; w < kern_warps (k); w++) {
            g_autoptr (InstrStream) a = kern_open_warp_window (k, b, w, 4);
            g_autoptr (InstrStream) c = kern_open_warp_window (t, b, w, 4);
            gboolean plays = kern_stream_plays_loop (a);
            cr_assert_eq (kern_stream_plays_loop (c), plays,
                          "%s: block %" G_GUINT64_FORMAT ", warp %d", id, b,
                          w);
            model += !plays;
            trace += !kern_stream_plays_loop (c);
        }
    cr_assert_eq (model, exiting, "%s: the model's", id);
    cr_assert_eq (trace, exiting, "%s: the trace's", id);
    cr_assert (kern_trace_check (t, &error), "%s", error ? error->message : "");
}

Test (trace, warps_exiting_before_the_loop_are_the_models)
{
    check_plays_loop ("sgemm-1", 33, "sgemm1-33.trace", 2 * 31);
    check_plays_loop ("sgemm-2", 100, "sgemm2-100x.trace.gz", 4 * 28);
}

/* run_kernel on the model and on its trace: the same counters, bit for
 * bit. */
static void
check_same_run (const char *id, gint64 size, const char *p0, RunMode mode)
{
    g_autoptr (Preset) p = tu_preset ("a100");
    const GpuSpec *spec = preset_spec (p);
    g_autoptr (GError) error = NULL;
    g_autoptr (KernInstance) k = make (spec, id, size, p0);
    g_autofree char *name = g_strdup_printf ("%s-run.trace.gz", id);
    g_autofree char *path = write_trace (k, spec, name);
    g_autoptr (KernInstance) t = kern_trace_open (path, &error);
    cr_assert_not_null (t, "%s", error ? error->message : "");
    RunOptions o = RUN_OPTIONS_INIT;
    RunResult a, b;
    o.mode = mode;
    cr_assert (run_kernel (spec, k, &o, &a, &error));
    cr_assert (run_kernel (spec, t, &o, &b, &error));
    cr_assert (kern_trace_check (t, &error));
    cr_assert_gt (a.cycles, 0);
    cr_assert_eq (a.cycles, b.cycles, "%s: cycles", id);
    cr_assert_eq (a.window, b.window, "%s: window", id);
    cr_assert_eq (memcmp (&a.stats, &b.stats, sizeof a.stats), 0, "%s: stats", id);
    cr_assert_eq (memcmp (&a.mem, &b.mem, sizeof a.mem), 0, "%s: memory", id);
    cr_assert_eq (a.gflops, b.gflops, "%s: GFLOP/s", id);
}

Test (trace, replayed_runs_count_what_the_models_count)
{
    check_same_run ("vecadd", 5000, NULL, RUN_EXACT);
    check_same_run ("pmpp-tiled", 64, NULL, RUN_EXACT);
    check_same_run ("sgemm-10", 128, NULL, RUN_EXACT);
    /* Kernel 11's warps play different paths (their half's loads), and
     * a sampling window ends with neither half loading. */
    check_same_run ("sgemm-11", 256, NULL, RUN_EXACT);
    check_same_run ("sgemm-11", 512, NULL, RUN_SAMPLED);
    /* pmpp at 128 with 8-wide tiles: 16 iterations, windows of fewer. */
    check_same_run ("pmpp-tiled", 128, "TILE_WIDTH=8", RUN_SAMPLED);
}

static void
info_of (const KernInstance *k, const GpuSpec *spec, const char *name,
         TraceInfo *t)
{
    g_autoptr (GError) error = NULL;
    g_autofree char *path = write_trace (k, spec, name);
    g_autoptr (TraceReader) r = trace_reader_open (path, &error);
    cr_assert_not_null (r, "%s", error ? error->message : "");
    memset (t, 0, sizeof *t);
    cr_assert (trace_reader_scan (r, trace_info_add, t, &error), "%s",
               error ? error->message : "");
}

/* kern_vecadd.c: each thread loads x[i] and y[i] (LDG, 4 bytes), adds
 * them (one FADD) and stores z[i] (STG, 4 bytes); 128-thread blocks.
 * n = 4096: 4096 / 32 = 128 warps, each one LDG of x, one of y, one
 * FADD, one STG, one EXIT. */
Test (trace, info_of_vecadd_follows_the_source)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const guint64 n = 4096, warps = n / 32;
    g_autoptr (KernInstance) k = make (preset_spec (p), "vecadd", (gint64) n,
                                       NULL);
    TraceInfo t;
    info_of (k, preset_spec (p), "vecadd-info.trace", &t);
    cr_assert_eq (t.by_op[INSTR_LDG][3], 2 * warps);   /* 32-bit loads */
    cr_assert_eq (t.by_op[INSTR_STG][3], warps);
    cr_assert_eq (t.by_op[INSTR_FADD][0], warps);
    cr_assert_eq (t.by_op[INSTR_EXIT][0], warps);
    cr_assert_eq (t.bytes[TRACE_GLOBAL_LOAD], 2 * 4 * n);
    cr_assert_eq (t.bytes[TRACE_GLOBAL_STORE], 4 * n);
    cr_assert_eq (t.bytes[TRACE_SHARED_LOAD], 0);
    cr_assert_eq (t.barriers, 0);
    cr_assert_eq (t.flops, (double) n);   /* one add per element */
}

/* kern_pmpp.c (PMPP Fig. 5.9), Width n, tiles TW: (n/TW)^2 blocks of
 * TW^2 threads, n/TW phases.  Per thread and phase: two 4-byte global
 * loads and two 4-byte shared stores, two barriers, TW FFMAs, TW
 * 4-byte reads of Nds and TW/4 16-byte reads of Mds.  So over the
 * launch (n^2 threads): global loads 8 n^3/TW bytes, shared stores the
 * same, shared loads n^2 (n/TW) (4 TW + 16 TW/4) = 8 n^3 bytes, FFMA
 * n^3/32 warp instructions (2 n^3 FLOPs), stores of P 4 n^2 bytes,
 * barriers 2 (n/TW) per warp: 2 n^3 / (32 TW) warp BARs. */
Test (trace, info_of_pmpp_follows_the_source)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const guint64 n = 64, tw = 16;
    g_autoptr (KernInstance) k = make (preset_spec (p), "pmpp-tiled",
                                       (gint64) n, "TILE_WIDTH=16");
    TraceInfo t;
    info_of (k, preset_spec (p), "pmpp-info.trace.gz", &t);
    cr_assert_eq (t.bytes[TRACE_GLOBAL_LOAD], 8 * n * n * n / tw);
    cr_assert_eq (t.bytes[TRACE_SHARED_STORE], 8 * n * n * n / tw);
    cr_assert_eq (t.bytes[TRACE_SHARED_LOAD], 8 * n * n * n);
    cr_assert_eq (t.bytes[TRACE_GLOBAL_STORE], 4 * n * n);
    cr_assert_eq (t.by_op[INSTR_FFMA][0], n * n * n / 32);
    cr_assert_eq (t.by_op[INSTR_LDS][5], n * n * n / 32 / 4);  /* 128-bit */
    cr_assert_eq (t.barriers, 2 * n * n * n / (32 * tw));
    cr_assert_eq (t.flops, 2.0 * (double) (n * n * n));
}

/* The room a trace needs, projected from its first blocks: the
 * header's bytes once, then the blocks' so far per block times the
 * blocks.  By hand: 20 MB for 1 block of 64 is 1.28 GB; a header of
 * 100 and a block of 300 is 100 + 300 x 8192 = 2,457,700 (not 400 x
 * 8192 = 3,276,800: the header is written once); 3 bytes for 2 of 3
 * blocks is 4.5, so 4; a trace written whole needs what it took; and
 * 2^40 bytes a block over 2^32 blocks, 2^72, is past any count and
 * reads as the most there is. */
Test (trace, room_is_projected_from_the_blocks_written)
{
    cr_assert_eq (trace_write_projected (0, 20000000, 1, 64), 1280000000u);
    cr_assert_eq (trace_write_projected (100, 400, 1, 8192), 2457700u);
    cr_assert_eq (trace_write_projected (0, 3, 2, 3), 4u);
    cr_assert_eq (trace_write_projected (7, 777, 9, 9), 777u);
    cr_assert_eq (trace_write_projected (0, G_GUINT64_CONSTANT (1) << 40, 1,
                                         G_GUINT64_CONSTANT (1) << 32),
                  G_MAXUINT64);
}
