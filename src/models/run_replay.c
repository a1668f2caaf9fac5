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
 * 5.0 s for the naive kernel with its 32 lines a load, on top of its
 * two sampled runs' 8.7 s; 64 times that at 4096.  So run.c replays
 * only where the data fit, and 'max_evicted' stops a replay early
 * where they do not; and for a sampled run's DRAM traffic only where
 * the data are at most twice the L2 and the replay is cheap
 * (run_replay_traffic).
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
 * by line, where an L1 would have served all but the first.  Left out,
 * a touch no longer renews a line's place in the LRU order, nor brings
 * back a line its set evicted: in an L2 the data fit in, nothing. */
typedef struct {
    guint64 *line;      /* per block 'per_block' entries: line + 1, 0 empty */
    guint64 *sectors;   /* present | dirty << 32, as cache.c keeps them */
    guint64 per_block;  /* a power of two */
    RunReplayTraffic *traffic;  /* counted here, if not NULL */
} Seen;

/* The filters' entries in all, at most: 16 MB.  A wave of a what-if
 * GPU of thousands of SMs gets smaller filters, not hundreds of MB. */
#define SEEN_ENTRIES (1u << 20)

static void
seen_init (Seen *seen, guint64 blocks, int warps)
{
    guint64 most = MAX (SEEN_ENTRIES / blocks, COAL_MAX_LINES);
    guint64 want = MIN ((guint64) warps * COAL_MAX_LINES, most);
    seen->per_block = (guint64) 1 << (g_bit_storage ((gulong) want) - 1);
    seen->line = g_new (guint64, blocks * seen->per_block);
    seen->sectors = g_new (guint64, blocks * seen->per_block);
}

static void
touch (Cache *l2, const Seen *seen, guint64 block, guint64 line,
       guint32 sectors, gboolean store)
{
    guint64 i = block * seen->per_block + (line & (seen->per_block - 1));
    guint64 want = sectors | (store ? (guint64) sectors << 32 : 0);
    if (seen->line[i] == line + 1 && (seen->sectors[i] & want) == want)
        return;
    if (seen->line[i] != line + 1)
        seen->sectors[i] = 0;
    seen->line[i] = line + 1;
    seen->sectors[i] |= want;
    guint32 out = 0, in = memhier_l2_touch (l2, line, sectors, store, &out);
    if (seen->traffic != NULL) {
        seen->traffic->read_sectors += (guint) sim_popcount32 (in);
        seen->traffic->written_sectors += (guint) sim_popcount32 (out);
    }
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

/* A wave's warps, an instruction each in turn until all have ended;
 * FALSE once the L2 has evicted more than 'max_evicted' lines. */
static gboolean
replay_wave (Cache *l2, const GpuSpec *spec, const Seen *seen,
             InstrStream **open, guint64 *of, guint n,
             guint64 max_evicted)
{
    while (n > 0) {
        guint kept = 0;
        for (guint i = 0; i < n; i++) {
            const Instr *in = instr_stream_next (open[i]);
            if (in == NULL) {
                instr_stream_free (open[i]);
                continue;
            }
            if (instr_info (in->op)->pipe == PIPE_LG)
                replay (l2, spec, seen, of[i], in);
            open[kept] = open[i];
            of[kept++] = of[i];
        }
        n = kept;
        if (cache_evictions (l2) > max_evicted) {
            for (guint i = 0; i < n; i++)
                instr_stream_free (open[i]);
            return FALSE;
        }
    }
    return TRUE;
}

static Cache *
replay_launch (const GpuSpec *spec, const KernInstance *k, guint64 per_wave,
               guint64 max_evicted, RunProgressFn progress,
               void *progress_ctx, RunReplayTraffic *traffic)
{
    g_autoptr (Cache) l2 = memhier_l2_new (spec);
    guint64 blocks = kern_blocks (k);
    int warps = kern_warps (k);
    guint64 wave = MIN (per_wave, blocks);
    g_autofree InstrStream **open = g_new (InstrStream *, wave * (guint64) warps);
    g_autofree guint64 *of = g_new (guint64, wave * (guint64) warps);
    Seen seen;
    g_assert (per_wave > 0);
    seen_init (&seen, wave, warps);
    seen.traffic = traffic;
    gboolean fit = TRUE;
    guint64 waves = (blocks + per_wave - 1) / per_wave;
    for (guint64 first = 0; first < blocks && fit; first += per_wave) {
        if (progress != NULL)
            progress (progress_ctx, first / per_wave, waves);
        guint n = 0;
        memset (seen.line, 0, sizeof *seen.line * wave * seen.per_block);
        for (guint64 b = first; b < MIN (blocks, first + per_wave); b++)
            for (int w = 0; w < warps; w++) {
                open[n] = kern_open_mirror_window (k, b, w, k->iterations);
                of[n++] = b - first;
            }
        fit = replay_wave (l2, spec, &seen, open, of, n, max_evicted);
    }
    if (fit && progress != NULL)
        progress (progress_ctx, waves, waves);
    g_free (seen.line);
    g_free (seen.sectors);
    return fit ? g_steal_pointer (&l2) : NULL;
}

Cache *
run_replay_l2 (const GpuSpec *spec, const KernInstance *k, guint64 per_wave,
               guint64 max_evicted, RunProgressFn progress,
               void *progress_ctx)
{
    return replay_launch (spec, k, per_wave, max_evicted, progress,
                          progress_ctx, NULL);
}

void
run_replay_traffic (const GpuSpec *spec, const KernInstance *k,
                    guint64 per_wave, RunProgressFn progress,
                    void *progress_ctx, RunReplayTraffic *out)
{
    *out = (RunReplayTraffic) { 0, 0 };
    cache_free (replay_launch (spec, k, per_wave, G_MAXUINT64, progress,
                               progress_ctx, out));
}

double
run_replay_cost (const GpuSpec *spec, const KernInstance *k)
{
    g_autoptr (InstrStream) s = kern_open_mirror_window (k, 0, 0,
                                                         k->iterations);
    const Instr *in;
    double lines = 0;
    while ((in = instr_stream_next (s)) != NULL)
        if (instr_info (in->op)->pipe == PIPE_LG) {
            CoalResult c;
            coal_access (in, spec->mem.l1_line_bytes,
                         spec->mem.l1_sector_bytes, &c);
            lines += MAX (c.lines, 1);
        }
    return lines * (double) kern_warps (k) * (double) kern_blocks (k);
}
