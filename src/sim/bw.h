/*
 * bw.h -- a bandwidth server: latency plus a fixed number of bytes per
 * cycle, for L2 and DRAM.
 *
 * Requests do not arrive in time order: an SM hands over a request at
 * the cycle its event runs, but a request's lines may reach L2 later
 * (its miss slot frees later, its tag lookups are spread out).  So the
 * server keeps a calendar of capacity, not a single queue: time is cut
 * into buckets of BW_BUCKET_CYCLES, each able to move that many cycles'
 * worth of bytes; a transfer takes capacity from its arrival bucket on,
 * spilling into later ones when those are full, and its data is back
 * 'latency' after the point where its last byte fits.  Idle, that is
 * arrival + latency; saturated, the wait grows: the queueing delay a
 * bandwidth-bound kernel sees.  Integer arithmetic (bytes << 16), so the
 * same on every machine.
 */
#ifndef SMSIM_SIM_BW_H
#define SMSIM_SIM_BW_H

#include "sim/sim.h"

#define BW_BUCKET_CYCLES 16
#define BW_BUCKETS 65536      /* horizon: about a million cycles */

typedef struct {
    guint64 epoch;            /* absolute bucket number it holds */
    guint64 used_q16;         /* bytes << 16 taken in it */
    guint64 skip;             /* full: every bucket before this one is
                               * full too (0: not known) */
} BwBucket;

typedef struct {
    BwBucket *buckets;        /* ring of BW_BUCKETS */
    guint64 cap_q16;          /* bytes << 16 one bucket moves */
    Cycle latency;
} BwServer;

void bw_init (BwServer *s, double bytes_per_cycle, Cycle latency);
void bw_clear (BwServer *s);

/* Serve 'bytes' arriving at 'at'; returns the cycle its data is back. */
Cycle bw_serve (BwServer *s, Cycle at, guint64 bytes);

#endif
