/*
 * explain.h -- occupancy in sentences: why each binding limit allows
 * what it allows, and why the textbook's per-thread arithmetic gets a
 * different answer.  Teaching text for `smsim occupancy`.
 */
#ifndef SMSIM_CLI_EXPLAIN_H
#define SMSIM_CLI_EXPLAIN_H

#include <glib.h>

#include "models/occ.h"

void explain_limits (GString *out, const GpuSpec *spec, const OccLaunch *launch,
                     const OccResult *result);
void explain_textbook (GString *out, const GpuSpec *spec,
                       const OccLaunch *launch, const OccResult *result,
                       const OccTextbook *estimate);

#endif
