/*
 * trace_write.h -- write a kernel model's trace (traces/FORMAT.md).
 *
 * The file is written block by block, each block section by section
 * (prologue, each main-loop iteration, epilogue), each section one
 * record per warp: the writer holds one section of one block, whatever
 * the launch's size.  The sections come from the models' programs
 * (kgen.h), which say where each instruction stands in the loop.  A
 * name ending in ".gz" gives a gzip file; the file appears whole or not
 * at all.
 */
#ifndef SMSIM_MODELS_TRACE_WRITE_H
#define SMSIM_MODELS_TRACE_WRITE_H

#include "models/kern.h"

/* Write 'k''s trace to 'path'; 'gpu' names the preset its launch was
 * made for. */
gboolean trace_write (const KernInstance *k, const char *gpu, const char *path,
                      GError **error);

#endif
