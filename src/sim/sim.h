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

#endif
