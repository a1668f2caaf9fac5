/*
 * sim.h -- what every part of the engine shares: the clock's type.
 *
 * One clock for the whole program: the event queue's (evq.h).  A cycle
 * is an SM clock cycle; no code reads wall-clock time.
 */
#ifndef SMSIM_SIM_SIM_H
#define SMSIM_SIM_SIM_H

#include <glib.h>

typedef guint64 Cycle;

/* "Not before an event says so": a time no fixed schedule reaches. */
#define CYCLE_NEVER G_MAXUINT64

/* Bits set in a mask (active lanes, sectors).  By hand: __builtin_popcount
 * is a libgcc call without -mpopcnt, and it showed up in profiles.  A
 * line of four sectors (every preset) has a mask below 16: a table of 16
 * nibbles in one constant answers that. */
static inline int
sim_popcount32 (guint32 x)
{
    if (x < 16)
        return (int) ((G_GUINT64_CONSTANT (0x4332322132212110) >> (4 * x)) &
                      0xf);
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (int) ((x * 0x01010101u) >> 24);
}

/* log2 of a power of two x > 0.  Not g_bit_nth_lsf: GLib's is a loop a
 * bit at a time, and the coalescer asked it twice per request. */
static inline int
sim_log2 (guint64 x)
{
    return __builtin_ctzll (x);
}

#endif
