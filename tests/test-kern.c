/*
 * test-kern.c -- kernel models: instruction counts from hand formulas,
 * addresses, launches, and rejected parameters; and `run_kernel` on the
 * microbenchmarks against the presets' sourced latencies.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <math.h>

#include "models/kern.h"
#include "models/run.h"
#include "sim/coal.h"
#include "testutil.h"

static KernInstance *
make (const GpuSpec *spec, const char *id, gint64 size, const char *p0)
{
    g_autoptr (GError) error = NULL;
    const char *params[] = { p0, NULL };
    const KernModel *m = kern_find (id);
    cr_assert_not_null (m, "%s", id);
    KernInstance *k = kern_instance_new (m, spec, size, params, &error);
    cr_assert_not_null (k, "%s: %s", id, error ? error->message : "");
    return k;
}

/* Count every warp's instructions by kind, and the sectors of its
 * global loads. */
static void
count (const KernInstance *k, guint64 *ops, guint64 *load_sectors)
{
    memset (ops, 0, INSTR_N_OPS * sizeof *ops);
    *load_sectors = 0;
    int warps = (k->threads + 31) / 32;
    for (guint64 b = 0; b < kern_blocks (k); b++)
        for (int w = 0; w < warps; w++) {
            g_autoptr (InstrStream) s = kern_open_warp (k, b, w);
            const Instr *in;
            while ((in = instr_stream_next (s)) != NULL) {
                ops[in->op]++;
                if (in->op == INSTR_LDG) {
                    CoalResult c;
                    coal_access (in, 128, 32, &c);
                    *load_sectors += (guint64) c.sectors;
                }
            }
        }
}

Test (kern, vecadd_counts)
{
    g_autoptr (Preset) p = tu_preset ("a100");
    /* N = 1000 with 128-thread blocks: 8 blocks of 4 warps; per warp 2
     * loads, 1 FADD, 1 store, 1 EXIT.  Loads of 1000 floats: x and y
     * each 4000 B = 125 sectors, 256-byte aligned. */
    g_autoptr (KernInstance) k = make (preset_spec (p), "vecadd", 1000, NULL);
    guint64 ops[INSTR_N_OPS], sectors;
    cr_assert_eq (kern_blocks (k), 8);
    count (k, ops, &sectors);
    cr_assert_eq (ops[INSTR_LDG], 2 * 32);
    cr_assert_eq (ops[INSTR_FADD], 32);
    cr_assert_eq (ops[INSTR_STG], 32);
    cr_assert_eq (ops[INSTR_EXIT], 32);
    cr_assert_eq (sectors, 2 * 125, "%" G_GUINT64_FORMAT " sectors", sectors);
    cr_assert_float_eq (k->flops, 1000.0, 1e-9);
}

Test (kern, rejects_bad_parameters)
{
    g_autoptr (Preset) p = tu_preset ("a100");
    const GpuSpec *s = preset_spec (p);
    struct { const char *id; gint64 size; const char *param; KernError code; } bad[] = {
        { "vecadd", 100, "BLOCK=2000", KERN_ERROR_PARAM },
        { "vecadd", 100, "BLOCK=abc", KERN_ERROR_PARAM },
        { "vecadd", 100, "NOPE=1", KERN_ERROR_UNKNOWN },
        { "vecadd", -5, NULL, KERN_ERROR_SIZE },
        { "stream", 1000, NULL, KERN_ERROR_SIZE },   /* not a multiple of 256 */
    };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
        g_autoptr (GError) error = NULL;
        const char *params[] = { bad[i].param, NULL };
        KernInstance *k = kern_instance_new (kern_find (bad[i].id), s,
                                             bad[i].size, params, &error);
        cr_assert_null (k, "row %u accepted", i);
        cr_assert (g_error_matches (error, SMSIM_KERN_ERROR, (gint) bad[i].code),
                   "row %u: %s", i, error->message);
    }
}

/* pchase through run_kernel: 2000 loads over 16 KB (fits L1): the first
 * 128 miss to DRAM, the rest hit L1. */
Test (kern, pchase_through_run)
{
    g_autoptr (Preset) p = tu_preset ("a6000");
    const GpuSpec *s = preset_spec (p);
    g_autoptr (KernInstance) k = make (s, "pchase", 2000, "WS=16384");
    RunOptions o = RUN_OPTIONS_INIT;
    RunResult r;
    g_autoptr (GError) error = NULL;
    cr_assert (run_kernel (s, k, &o, &r, &error), "%s",
               error ? error->message : "");
    /* 128 cold loads at DRAM latency, 1872 at L1 latency, then EXIT and
     * retire (2 cycles).  Hand formula with the preset's figures. */
    guint64 want = 128 * (guint64) s->mem.dram_latency_cycles +
                   1872 * (guint64) s->mem.l1_hit_latency_cycles + 2;
    cr_assert (llabs ((gint64) r.cycles - (gint64) want) <= 4,
               "%" G_GUINT64_FORMAT " cycles, expected %" G_GUINT64_FORMAT,
               r.cycles, want);
}

Test (kern, timing_needs_a_timing_preset)
{
    g_autoptr (Preset) p = tu_preset ("k40");
    g_autoptr (KernInstance) k = make (preset_spec (p), "vecadd", 1024, NULL);
    RunOptions o = RUN_OPTIONS_INIT;
    RunResult r;
    g_autoptr (GError) error = NULL;
    cr_assert_not (run_kernel (preset_spec (p), k, &o, &r, &error));
    cr_assert (strstr (error->message, "no sourced timing") != NULL);
}
