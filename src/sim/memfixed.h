/*
 * memfixed.h -- a memory system with fixed latencies and one request per
 * cycle per queue: the stand-in until the hierarchy (coalescer, L1, L2,
 * DRAM) lands, and a clean instrument for latency-hiding tests.
 */
#ifndef SMSIM_SIM_MEMFIXED_H
#define SMSIM_SIM_MEMFIXED_H

#include "sim/evq.h"
#include "sim/mem.h"

/* Loads and stores of global memory complete 'global_cycles' after they
 * leave the SM's queue, shared ones 'shared_cycles' after (both >= 1). */
MemSys *memfixed_new (EvqQueue *q, Cycle global_cycles, Cycle shared_cycles);

#endif
