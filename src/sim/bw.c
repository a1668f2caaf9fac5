/*
 * bw.c -- the bandwidth server's capacity calendar.  See bw.h.
 */
#include "config.h"

#include <math.h>

#include "sim/bw.h"

void
bw_init (BwServer *s, double bytes_per_cycle, Cycle latency)
{
    g_assert (bytes_per_cycle > 0);
    s->buckets = g_new0 (BwBucket, BW_BUCKETS);
    for (guint i = 0; i < BW_BUCKETS; i++)
        s->buckets[i].epoch = G_MAXUINT64;
    s->cap_q16 = (guint64) llround (bytes_per_cycle * BW_BUCKET_CYCLES * 65536.0);
    if (s->cap_q16 == 0)
        s->cap_q16 = 1;
    s->latency = latency;
}

void
bw_clear (BwServer *s)
{
    g_clear_pointer (&s->buckets, g_free);
}

static BwBucket *
bucket (BwServer *s, guint64 n)
{
    BwBucket *b = &s->buckets[n % BW_BUCKETS];
    if (b->epoch != n) {
        /* A bucket of the past, long drained: reuse it. */
        b->epoch = n;
        b->used_q16 = 0;
        b->skip = 0;
    }
    return b;
}

static gboolean
full (const BwServer *s, const BwBucket *b)
{
    return b->used_q16 >= s->cap_q16;
}

/* The first bucket from 'n' on with room.  A saturated server has a
 * long run of full buckets ahead of the late arrivals: each full bucket
 * remembers how far the run went, and a walk leaves every bucket it
 * crossed pointing at its end (path compression), so crossing a run
 * costs little however long it is.  Buckets only fill, so a run stays
 * full. */
static guint64
first_with_room (BwServer *s, guint64 n)
{
    guint64 end = n;
    BwBucket *b;
    while (full (s, b = bucket (s, end)))
        end = b->skip > end ? b->skip : end + 1;
    while (n < end) {
        b = bucket (s, n);
        guint64 next = b->skip > n ? b->skip : n + 1;
        b->skip = end;
        n = next;
    }
    return end;
}

Cycle
bw_serve (BwServer *s, Cycle at, guint64 bytes)
{
    guint64 need = bytes << 16;
    guint64 n = at / BW_BUCKET_CYCLES;
    if (bytes > 0)
        n = first_with_room (s, n);
    BwBucket *b = bucket (s, n);
    for (;;) {
        guint64 room = s->cap_q16 - MIN (b->used_q16, s->cap_q16);
        guint64 take = MIN (room, need);
        b->used_q16 += take;
        need -= take;
        if (need == 0)
            break;
        b = bucket (s, ++n);
    }
    /* The last byte fits where the bucket's fill reaches. */
    Cycle fits = n * BW_BUCKET_CYCLES +
                 (Cycle) (b->used_q16 * BW_BUCKET_CYCLES / s->cap_q16);
    return MAX (fits, at) + s->latency;
}
