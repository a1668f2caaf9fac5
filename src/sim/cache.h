/*
 * cache.h -- the tags of a sectored, set-associative cache with LRU
 * replacement: which sectors of a line are present.
 *
 * Lines of 'line_bytes' hold 'line_bytes / sector_bytes' sectors, each
 * valid or not (Nsight Compute's L1TEX and L2 are sectored: a miss fills
 * only the sectors asked for).  This module keeps tags only; timing is
 * the caller's.  Sets are chosen by the line address modulo the number of
 * sets, or by a hash of it (cache.c says when and why).  Sector masks
 * hold bits below line_bytes / sector_bytes only.
 */
#ifndef SMSIM_SIM_CACHE_H
#define SMSIM_SIM_CACHE_H

#include <glib.h>

typedef struct Cache Cache;

/* 'bytes' of capacity (0: a cache that always misses); 'hashed' picks
 * sets by a hash of the line address instead of its low bits. */
Cache *cache_new (guint64 bytes, int line_bytes, int sector_bytes, int assoc,
                  gboolean hashed);
void cache_free (Cache *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Cache, cache_free)

/* The host memory cache_new takes for such a cache, its tags: what a
 * caller checks before a what-if cache of gigabytes is made.  Not the
 * 4 bytes a way that line addresses past 2^32 add later: no model's
 * memory reaches them, only a hand-made trace's addresses can. */
guint64 cache_host_bytes (guint64 bytes, int line_bytes, int sector_bytes,
                          int assoc);

/* Look 'line' (a line address) up for the sectors in 'want' (a bit mask);
 * returns the sectors present and, in '*ready', the cycle their data is
 * (or was) there: a fill still on its way makes a later hit wait for it.
 * Touches the line for LRU if present. */
guint32 cache_lookup (Cache *c, guint64 line, guint32 want, guint64 *ready);

/* Mark the sectors 'fill' of 'line' present from cycle 'ready' on
 * (allocating the line, evicting the least recently used of its set).
 * If the evicted line was dirty, '*evicted_dirty' gets its dirty sectors
 * and '*evicted_line' its address; else '*evicted_dirty' is 0.  With
 * 'dirty', returns the sectors of 'fill' it made dirty that were not
 * (every one a write-back to come, now or at a later eviction); else 0. */
guint32 cache_fill (Cache *c, guint64 line, guint32 fill, guint64 ready,
                    gboolean dirty, guint64 *evicted_line,
                    guint32 *evicted_dirty);

/* Drop 'line' if present (a write that does not allocate). */
void cache_invalidate (Cache *c, guint64 line);

/* A copy of 'c' as it stands -- lines, sectors, dirty bits, LRU order --
 * with every fill arrived (ready at cycle 0): the cache a later run
 * starts from, on a clock of its own. */
Cache *cache_copy (const Cache *c);

/* The lines 'c' holds and their dirty sectors, counted; and the lines
 * fills have pushed out so far (a copy starts from the original's). */
void cache_census (const Cache *c, guint64 *lines, guint64 *dirty_sectors);
guint64 cache_evictions (const Cache *c);

/* Count 'n' touches as though they had gone to lines of other sets:
 * for tests, to reach the renumbering of the 32-bit LRU stamps. */
void cache_skip_touches (Cache *c, guint64 n);


#endif
