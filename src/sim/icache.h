/*
 * icache.h -- one SM's instruction caches: when a warp's next
 * instruction is there to issue.
 *
 * Huerta et al. (MICRO 2025, ../shared/data/microarch.md sec. 1) found
 * on Ampere that each sub-partition fetches one instruction a cycle
 * into a buffer of 3 per warp, behind a stream-buffer prefetcher.  Here
 * a sub-partition's L0 instruction cache holds 128-B lines (8
 * instructions); a line it misses comes from the SM's L1 instruction
 * cache l0_miss_cycles after the L1 sends it, which it does one line
 * every l1_line_cycles for the whole SM, and from beyond the L1
 * l1_miss_cycles later still (forwarded as it comes in, past the L1's
 * port); a warp that reaches a line also asks for the prefetch_lines
 * after it.  Both caches are sets of 4 ways, LRU, indexed by the line's
 * low bits (cache.h).  A loop of straight-line code fits a cache where
 * it and the prefetch_lines past its end, which the prefetcher brings in
 * too, do; a loop a quarter larger than the cache misses every line, as
 * a fully associative LRU cache would past its size; in between, the
 * sets given more than 4 lines miss and the others hit.
 *
 * The buffer ahead of the warp is not modelled: a warp asks for a line
 * when it issues the instruction before the line's first, so fetch
 * that hides behind the prefetcher costs nothing and a miss costs its
 * latency.  Fetching one instruction a cycle never binds here, for no
 * sub-partition issues more.
 *
 * No source gives an NVIDIA GPU's instruction-cache sizes, latencies or
 * rate (the presets say so beside each key, and fetch.l0_bytes = 0 turns
 * the model off: every instruction in time).  It is here as a what-if,
 * and for the icache probe (kernels/cuda/probes.cu) to be run against.
 */
#ifndef SMSIM_SIM_ICACHE_H
#define SMSIM_SIM_ICACHE_H

#include "sim/sim.h"
#include "sim/spec.h"

#define ICACHE_LINE_BYTES 128
#define ICACHE_WAYS 4
#define ICACHE_SET_BYTES (ICACHE_LINE_BYTES * ICACHE_WAYS)

typedef struct Icache Icache;

/* The caches of an SM of 'n_sp' sub-partitions; NULL where
 * f->l0_bytes is 0 (fetch not modelled). */
Icache *icache_new (const SpecFetch *f, int n_sp);
void icache_free (Icache *ic);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Icache, icache_free)

/* The cycle the line holding 'pc' is in sub-partition 'sp''s L0 for a
 * warp that reaches it at 'now' (at least 'now'); asks for the lines
 * after it too. */
Cycle icache_fetch (Icache *ic, int sp, guint32 pc, Cycle now);

/* Lines the L0s and the L1 have missed, prefetches included. */
void icache_misses (const Icache *ic, guint64 *l0, guint64 *l1);

#endif
