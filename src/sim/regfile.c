/*
 * regfile.c -- register-file read ports and reuse cache.  See regfile.h.
 */
#include "config.h"

#include <string.h>

#include "sim/regfile.h"

static inline guint16
tag_of (int warp, guint8 reg)
{
    return (guint16) ((warp + 1) << 8 | reg);
}

void
regfile_cache_init (RegfileCache *cache)
{
    memset (cache, 0, sizeof *cache);
}

int
regfile_reads (const RegfileCache *cache, RegfileShape shape, int warp, const Instr *in,
          guint8 *reads)
{
    int most = 0;
    guint read = 0;     /* slots whose register came through a port */
    memset (reads, 0, (size_t) shape.banks);
    for (int s = 0; s < REGFILE_SLOTS; s++) {
        guint8 r = in->src[s];
        if (r == INSTR_NO_REG ||
            cache->tag[s][r % shape.entries] == tag_of (warp, r))
            continue;
        read |= 1u << s;
        if ((s >= 1 && (read & 1) && in->src[0] == r) ||
            (s == 2 && (read & 2) && in->src[1] == r))
            continue;   /* read once, for every slot that names it */
        int n = ++reads[r % shape.banks];
        most = MAX (most, n);
    }
    return most;
}

int
regfile_read_operands (RegfileCache *cache, RegfileShape shape, int warp, const Instr *in,
                  guint8 *reads)
{
    int cycles = regfile_reads (cache, shape, warp, in, reads);
    for (int s = 0; s < REGFILE_SLOTS; s++) {
        guint8 r = in->src[s];
        if (r == INSTR_NO_REG)
            continue;
        cache->tag[s][r % shape.entries] =
            in->reuse >> s & 1 ? tag_of (warp, r) : 0;
    }
    return cycles;
}
