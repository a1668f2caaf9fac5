/*
 * bw.h -- a bandwidth server: latency plus a first-come, first-served
 * pipe of fixed bytes per cycle, for L2 and DRAM.
 *
 * A transfer arriving at 't' starts when the server has finished the
 * ones before it (never before 't'), occupies it for bytes / rate, and
 * its data is back 'latency' after it started.  Idle, that is t +
 * latency; saturated, the wait before the start grows: the queueing
 * delay a bandwidth-bound kernel sees.  Time is kept in 1/65536ths of a
 * cycle, in integers, so results are the same on every machine.
 */
#ifndef SMSIM_SIM_BW_H
#define SMSIM_SIM_BW_H

#include "sim/sim.h"

typedef struct {
    guint64 free_q16;       /* busy until, in cycles << 16 */
    guint64 q16_per_byte;   /* service time of one byte, cycles << 16 */
    Cycle latency;
    guint64 bytes;          /* served so far */
} BwServer;

void bw_init (BwServer *s, double bytes_per_cycle, Cycle latency);

/* Serve 'bytes' arriving at 'at'; returns the cycle its data is back. */
Cycle bw_serve (BwServer *s, Cycle at, guint64 bytes);

#endif
