/*
 * trace_line.h -- one warp instruction as one line of a trace
 * (traces/FORMAT.md, "Instructions"): the opcode, the destination and
 * source registers, then optional fields for the active mask, the width,
 * the compiler control fields and the lane addresses, in the compact
 * stride form or explicitly, one per lane.  A line says exactly what an
 * Instr holds, so formatting then parsing gives back the same Instr.
 *
 * Pure: no I/O.  Errors name the field; the caller adds file and line.
 */
#ifndef SMSIM_MODELS_TRACE_LINE_H
#define SMSIM_MODELS_TRACE_LINE_H

#include <glib.h>

#include "sim/instr.h"

/* Append 'in' as a line, newline included. */
void trace_line_format (GString *out, const Instr *in);

/* Parse 'line' (no newline) into 'out'. */
gboolean trace_line_parse (const char *line, Instr *out, GError **error);

#endif
