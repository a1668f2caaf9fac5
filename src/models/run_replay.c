/*
 * run_replay.c -- the L2 a whole launch leaves, from its address
 * streams.  See run_replay.h.
 *
 * The replay orders a wave's accesses as if its warps ran in lockstep,
 * and stands a small filter per block for the L1 that keeps the timed
 * run's hits from L2 (Seen).  Both matter only to which lines an
 * overfull set keeps, so where the launch's data fit in the L2 the
 * result is the timed launch's L2.  Where they do not it held up too:
 * kernels 5 and 10 at 1024 on the A6000 (12 MB in 6 MB), run exact from
 * a replayed L2, took the cycles of an exact pair to the cycle.  It
 * costs a pass over the global accesses alone (mirror streams), on one
 * core at 1024 on the A100: 0.04 s for sgemm-7, 1.6 s for sgemm-2, and
 * 5.3 s for the naive kernel with its 32 lines a load, on top of its
 * two sampled runs' 8.7 s; 64 times that at 4096.  So run.c replays
 * only where the data fit.
 */
#include "config.h"

#include <string.h>

#include "models/run_replay.h"
#include "sim/coal.h"
#include "sim/memhier.h"

/* Lines each block of a wave touched last, direct-mapped, 64 a warp
 * (a warp instruction's most: COAL_MAX_LINES): a touch that would add
 * no sector and no dirt is left out.  Without it the naive kernel at
 * 1024 took 8.8 s, each warp's 32 rows of A touched 32 times over, line
 * by line, where an L1 would have served all but the first (with it,
 * 5.3 s: probing the filters is most of that).  Left out, a touch no
 * longer renews a line's place in the LRU order, nor brings back a line
 * its set evicted: in an L2 the data fit in, nothing. */
typedef struct {
    guint64 *line;      /* per block 'per_block' entries: line + 1, 0 empty */
    guint32 *sectors;   /* present | dirty << 16 */
    guint64 per_block;  /* a power of two */
} Seen;

static void
touch (Cache *l2, const Seen *seen, guint64 block, guint64 line,
       guint32 sectors, gboolean store)
{
    guint64 i = block * seen->per_block + (line & (seen->per_block - 1));
    guint32 want = sectors | (store ? sectors << 16 : 0);
    if (seen->line[i] == line + 1 && (seen->sectors[i] & want) == want)
        return;
    if (seen->line[i] != line + 1)
        seen->sectors[i] = 0;
    seen->line[i] = line + 1;
    seen->sectors[i] |= want;
    memhier_l2_touch (l2, line, sectors, store);
}

static void
replay (Cache *l2, const GpuSpec *spec, const Seen *seen, guint64 block,
        const Instr *in)
{
    const SpecMem *m = &spec->mem;
    /* A power of two (coal.h): a shift, not a division a line. */
    int shift = sim_log2 ((guint64) m->l1_line_bytes);
    CoalResult c;
    coal_access (in, m->l1_line_bytes, m->l1_sector_bytes, &c);
    for (int i = 0; i < c.lines; i++)
        touch (l2, seen, block, c.line_addr[i] >> shift, c.line_sectors[i],
               in->op == INSTR_STG);
}

Cache *
run_replay_l2 (const GpuSpec *spec, const KernInstance *k, guint64 per_wave)
{
    Cache *l2 = memhier_l2_new (spec);
    guint64 blocks = kern_blocks (k);
    int warps = kern_warps (k);
    g_autoptr (GPtrArray) open =
        g_ptr_array_new_with_free_func ((GDestroyNotify) instr_stream_free);
    g_autoptr (GArray) of = g_array_new (FALSE, FALSE, sizeof (guint));
    guint64 wave = MIN (per_wave, blocks);
    guint64 per_block = (guint64) 1 << g_bit_storage ((gulong) warps * COAL_MAX_LINES - 1);
    g_autofree guint64 *seen_line = g_new (guint64, wave * per_block);
    g_autofree guint32 *seen_sectors = g_new (guint32, wave * per_block);
    Seen seen = { seen_line, seen_sectors, per_block };
    /* Sectors fit a Seen entry's half (every preset has four). */
    g_assert (spec->mem.l1_line_bytes / spec->mem.l1_sector_bytes <= 16);
    g_assert (per_wave > 0);
    for (guint64 first = 0; first < blocks; first += per_wave) {
        memset (seen_line, 0, sizeof *seen_line * wave * per_block);
        for (guint64 b = first; b < MIN (blocks, first + per_wave); b++)
            for (int w = 0; w < warps; w++) {
                guint at = (guint) (b - first);
                g_ptr_array_add (open, kern_open_mirror_window (k, b, w,
                                                                k->iterations));
                g_array_append_val (of, at);
            }
        while (open->len > 0)
            for (guint i = 0; i < open->len;) {
                const Instr *in = instr_stream_next (open->pdata[i]);
                if (in == NULL) {
                    g_ptr_array_remove_index (open, i);
                    g_array_remove_index (of, i);
                    continue;
                }
                if (instr_info (in->op)->pipe == PIPE_LG)
                    replay (l2, spec, &seen, g_array_index (of, guint, i), in);
                i++;
            }
    }
    return l2;
}
