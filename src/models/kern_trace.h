/*
 * kern_trace.h -- a trace file as a kernel instance: the launch, FLOPs
 * and loop structure come from its header, each warp's stream from its
 * records, so a replay goes through run_kernel like any model.
 *
 * The file is checked whole when it is opened (errors name file, line
 * and field); the streams then read it lazily (trace_read.h).  The
 * instance owns the open file; kern_instance_free closes it.
 */
#ifndef SMSIM_MODELS_KERN_TRACE_H
#define SMSIM_MODELS_KERN_TRACE_H

#include "models/kern.h"

KernInstance *kern_trace_open (const char *path, GError **error);

/* The preset the trace was made for. */
const char *kern_trace_gpu (const KernInstance *k);

/* After a run: FALSE, with the reason, if a stream met an error (the
 * file changed after it was checked). */
gboolean kern_trace_check (const KernInstance *k, GError **error);

#endif
