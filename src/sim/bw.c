/*
 * bw.c -- the bandwidth server.  See bw.h.
 */
#include "config.h"

#include <math.h>

#include "sim/bw.h"

void
bw_init (BwServer *s, double bytes_per_cycle, Cycle latency)
{
    g_assert (bytes_per_cycle > 0);
    s->free_q16 = 0;
    s->q16_per_byte = (guint64) llround (65536.0 / bytes_per_cycle);
    if (s->q16_per_byte == 0)
        s->q16_per_byte = 1;
    s->latency = latency;
    s->bytes = 0;
}

Cycle
bw_serve (BwServer *s, Cycle at, guint64 bytes)
{
    guint64 start = MAX (at << 16, s->free_q16);
    s->free_q16 = start + bytes * s->q16_per_byte;
    s->bytes += bytes;
    /* Round the start up to a whole cycle. */
    return ((start + 0xffff) >> 16) + s->latency;
}
