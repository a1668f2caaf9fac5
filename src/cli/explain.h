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
/* 'pct' to the tenth a reader rounds it to, halves up: printf's %.1f
 * of 6.25 (4 warps of 64) is 6.2, the binary value's half-even. */
double explain_tenth (double pct);

void explain_textbook (GString *out, const GpuSpec *spec,
                       const OccLaunch *launch, const OccResult *result,
                       const OccTextbook *estimate);

#endif
