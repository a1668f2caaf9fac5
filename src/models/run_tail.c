/*
 * run_tail.c -- whether a partial last wave goes to SMs whole.  See
 * run_tail.h.
 *
 * An exact run hands each block of the last wave to the SM that frees
 * a slot first (gpu.c).  Say the SMs' first retirements of the wave
 * before spread evenly over D cycles, and an SM frees its last slot g
 * cycles after its first.  By the time the first SM has freed all its
 * slots, some sm_count x g / D SMs have freed one; if those are fewer
 * than the last wave's blocks, that SM takes a block into each slot,
 * and the launch ends when its blocks, sharing the SM as in every
 * wave before, do.  Otherwise the first blocks go one to an SM, each
 * running alone, faster.  The SMs in full tell g (their median) and D
 * (their first retirements' range: d evenly spread draws span (d - 1)
 * / (d + 1) of the whole, on average).  The exact runs of the two
 * launches it was made for (A100, 216 blocks a wave and 40 more):
 * sgemm-10 at 2048, g of 176 cycles, D of 11,600, so 40 x 11,600 / 108
 * = 4,300 > g: 18 SMs took two of the 40 and 4 one; sgemm-4 at 1024,
 * whose blocks of 16 warps share an SM unevenly, g of 112,000, D of
 * 25,000, 9,300 < g: 40 SMs took one each.
 */
#include "config.h"

#include <stdlib.h>

#include "models/run_tail.h"

gboolean
run_tail_may_pack (int detailed, int sm_count, int per_sm, guint64 full,
                   guint64 tail)
{
    guint64 most = (tail + (guint64) sm_count - 1) / (guint64) sm_count;
    return detailed < sm_count && per_sm > 1 && full > 0 && tail > 0 &&
           most < MIN ((guint64) per_sm, tail);
}

static int
by_cycle (const void *a, const void *b)
{
    Cycle x = *(const Cycle *) a, y = *(const Cycle *) b;
    return (x > y) - (x < y);
}

gboolean
run_tail_packs (const Cycle *ends, int detailed, int per_sm, guint64 tail,
                int sm_count)
{
    if (detailed < 2 || per_sm < 2)
        return FALSE;
    g_autofree Cycle *gap = g_new (Cycle, detailed);
    Cycle first_lo = CYCLE_NEVER, first_hi = 0;
    for (int s = 0; s < detailed; s++) {
        const Cycle *e = &ends[s * per_sm];
        Cycle lo = e[0], hi = e[0];
        for (int i = 1; i < per_sm; i++) {
            lo = MIN (lo, e[i]);
            hi = MAX (hi, e[i]);
        }
        gap[s] = hi - lo;
        first_lo = MIN (first_lo, lo);
        first_hi = MAX (first_hi, lo);
    }
    qsort (gap, (gsize) detailed, sizeof *gap, by_cycle);
    double g = detailed % 2 ? (double) gap[detailed / 2]
                            : ((double) gap[detailed / 2 - 1] +
                               (double) gap[detailed / 2]) / 2;
    double spread = (double) (first_hi - first_lo) * (detailed + 1) /
                    (detailed - 1);
    return g < (double) tail * spread / sm_count;
}

gboolean
run_tail_guess (const Probe *probe, int sm, int sm_count, int per_sm,
                guint64 last)
{
    if (probe == NULL)
        return FALSE;
    for (int i = 0; i < per_sm; i++)
        if (probe_block_entered (probe, (guint64) i * (guint64) sm_count +
                                            (guint64) sm,
                                 last) == CYCLE_NEVER)
            return FALSE;
    return TRUE;
}
