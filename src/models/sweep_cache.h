/*
 * sweep_cache.h -- the GPU of each point: the base preset loaded afresh
 * with the point's preset keys applied as --set overrides (preset.h), so
 * every limit and every derived value (occupancy, carveout, L1 size) is
 * recomputed from the modified preset; nothing is patched.
 *
 * Loading a preset costs about 0.2 ms, far more than an occupancy
 * calculation, so each distinct set of overrides is loaded once and its
 * immutable GpuSpec shared by the points that use it.  A set of
 * overrides that makes an inconsistent GPU gives that error to every
 * point that uses it.  Safe to use from several threads.
 *
 * Ownership: specs are borrowed from the cache and live as long as it.
 */
#ifndef SMSIM_MODELS_SWEEP_CACHE_H
#define SMSIM_MODELS_SWEEP_CACHE_H

#include <glib.h>

#include "sim/spec.h"

typedef struct SweepCache SweepCache;

/* The base: --gpu and --config (either may be NULL) and --set list. */
SweepCache *sweep_cache_new (const char *gpu, const char *config,
                             const char *const *sets);
void sweep_cache_free (SweepCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SweepCache, sweep_cache_free)

/* The base with 'overrides' ("group.key=value", NULL-terminated, may
 * be NULL or empty) applied after the base's own --set list. */
const GpuSpec *sweep_cache_spec (SweepCache *cache,
                                 const char *const *overrides,
                                 GError **error);

#endif
