/*
 * regfile.c -- register-file read ports and reuse cache.  See regfile.h.
 */
#include "config.h"

#include <string.h>

#include "sim/regfile.h"

void
regfile_cache_init (RegfileCache *cache)
{
    memset (cache, 0, sizeof *cache);
}

guint32
regfile_read_operands (RegfileCache *cache, RegfileShape shape, int warp,
                       const Instr *in)
{
    guint32 counts = regfile_count (cache, shape, warp, in);
    const guint emask = (guint) shape.entries - 1;
    for (int s = 0; s < REGFILE_SLOTS; s++) {
        guint8 r = in->src[s];
        if (r == INSTR_NO_REG)
            continue;
        cache->tag[s][r & emask] =
            in->reuse >> s & 1 ? regfile_tag (warp, r) : 0;
    }
    return counts;
}
