/*
 * fig_mem.c -- figures 4 and 5: what one warp memory instruction costs,
 * by access pattern, from the coalescer (coal.h) and the shared-memory
 * banks (bank.h) with the GPU's line, sector and bank sizes.
 *
 *   coalescing       sectors per request for 4-byte loads at strides 1,
 *                    2, 4, 8 and 32 elements, misaligned by one element,
 *                    a broadcast and float4; the bandwidth efficiency is
 *                    the distinct bytes the warp asks for over the bytes
 *                    the sectors move.
 *   bank-conflicts   wavefronts per shared-memory access for a row, a
 *                    column of a 32 x 32 float tile, the same column
 *                    padded to 33, a float4 row, a broadcast and a
 *                    two-way conflict (stride 2).
 */
#include "config.h"

#include <stdlib.h>

#include "models/fig.h"
#include "sim/bank.h"
#include "sim/coal.h"

extern const FigDef fig_coalescing_def, fig_banks_def;

typedef struct {
    const char *name;
    int width;              /* bytes per lane */
    guint64 base;           /* lane i at base + i * stride */
    gint64 stride;
} Pattern;

/* Global addresses start on a line (cudaMalloc aligns to 256 B). */
#define LINE0 0x10000

static const Pattern global_patterns[] = {
    { "stride 1", 4, LINE0, 4 },
    { "stride 2", 4, LINE0, 8 },
    { "stride 4", 4, LINE0, 16 },
    { "stride 8", 4, LINE0, 32 },
    { "stride 32", 4, LINE0, 128 },
    { "misaligned", 4, LINE0 + 4, 4 },
    { "broadcast", 4, LINE0, 0 },
    { "float4", 16, LINE0, 16 },
};

/* Shared-memory word offsets: a 32 x 32 float tile, row-major. */
static const Pattern shared_patterns[] = {
    { "row", 4, 0, 4 },
    { "column", 4, 0, 32 * 4 },
    { "padded column", 4, 0, 33 * 4 },
    { "float4 row", 16, 0, 16 },
    { "broadcast", 4, 0, 0 },
    { "stride 2", 4, 0, 8 },
};

static void
pattern_instr (const Pattern *p, InstrOp op, Instr *in)
{
    instr_init (in, op);
    in->width = (guint8) p->width;
    in->addr_mode = INSTR_ADDR_STRIDE;
    in->addr_base = p->base;
    in->addr_stride = p->stride;
}

static int
by_start (const void *a, const void *b)
{
    guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
    return x < y ? -1 : x > y;
}

/* Bytes the active lanes ask for, each byte counted once (a broadcast
 * asks for 4). */
static guint64
distinct_bytes (const Instr *in)
{
    guint64 start[32];
    int n = 0;
    guint64 total = 0, end = 0;
    for (int lane = 0; lane < 32; lane++)
        if (in->active & (1u << lane))
            start[n++] = instr_lane_addr (in, lane);
    qsort (start, (gsize) n, sizeof *start, by_start);
    for (int i = 0; i < n; i++) {
        guint64 from = MAX (start[i], end);
        end = MAX (end, start[i] + in->width);
        total += end > from ? end - from : 0;
    }
    return total;
}

static gboolean
coalescing_build (const FigOptions *o, FigData *d, GError **error)
{
    g_autoptr (Preset) p = fig_preset (o, &fig_coalescing_def, NULL,
                                       NULL, error);
    if (p == NULL)
        return FALSE;
    const GpuSpec *s = preset_spec (p);
    g_string_append (d->csv, "pattern,sectors,lines,requested_bytes,"
                             "moved_bytes,efficiency_pct\n");
    for (guint i = 0; i < G_N_ELEMENTS (global_patterns); i++) {
        Instr in;
        CoalResult r;
        pattern_instr (&global_patterns[i], INSTR_LDG, &in);
        coal_access (&in, s->mem.l1_line_bytes, s->mem.l1_sector_bytes, &r);
        guint64 moved = (guint64) r.sectors * (guint64) s->mem.l1_sector_bytes;
        guint64 asked = distinct_bytes (&in);
        g_string_append_printf (d->csv, "%s,%d,%d,%" G_GUINT64_FORMAT ",%"
                                G_GUINT64_FORMAT ",%.2f\n",
                                global_patterns[i].name, r.sectors, r.lines,
                                asked, moved, 100.0 * (double) asked /
                                                  (double) moved);
    }
    fig_var_str (d, "gpu", "%s", s->device.name);
    fig_var_num (d, "sector_bytes", s->mem.l1_sector_bytes);
    fig_var_num (d, "line_bytes", s->mem.l1_line_bytes);
    return TRUE;
}

const FigDef fig_coalescing_def = {
    "coalescing", 4,
    "sectors per request and bandwidth efficiency by global access pattern",
    "a100", "--gpu", coalescing_build, TRUE, NULL
};

static gboolean
banks_build (const FigOptions *o, FigData *d, GError **error)
{
    g_autoptr (Preset) p = fig_preset (o, &fig_banks_def, NULL, NULL,
                                       error);
    if (p == NULL)
        return FALSE;
    const GpuSpec *s = preset_spec (p);
    g_string_append (d->csv, "pattern,wavefronts,ideal,conflicts\n");
    for (guint i = 0; i < G_N_ELEMENTS (shared_patterns); i++) {
        Instr in;
        BankResult r;
        pattern_instr (&shared_patterns[i], INSTR_LDS, &in);
        bank_access (&in, s->mem.smem_banks, 4, s->mem.smem_merge_phases,
                     &r);
        g_string_append_printf (d->csv, "%s,%d,%d,%d\n",
                                shared_patterns[i].name, r.wavefronts,
                                r.ideal, r.conflicts);
    }
    fig_var_str (d, "gpu", "%s", s->device.name);
    fig_var_num (d, "banks", s->mem.smem_banks);
    return TRUE;
}

const FigDef fig_banks_def = {
    "bank-conflicts", 5,
    "shared-memory wavefronts per access by pattern (row, column, padded "
    "column, float4, broadcast)",
    "a100", "--gpu", banks_build, TRUE, NULL
};
