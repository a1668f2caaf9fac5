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

/* Told after each block written: 'done' of 'blocks'. */
typedef void (*TraceWriteProgress) (void *ctx, guint64 done, guint64 blocks);

/* Write 'k''s trace to 'path'; 'gpu' names the preset its launch was
 * made for; 'progress' may be NULL.  A trace its file system has no
 * room for is refused as soon as its first blocks show it (see
 * trace_write_projected), not when the disk is full. */
gboolean trace_write (const KernInstance *k, const char *gpu, const char *path,
                      TraceWriteProgress progress, void *ctx, GError **error);

/* The bytes a trace of 'blocks' blocks comes to, projected from its
 * header and first 'done' blocks having taken 'written', 'head' of
 * them the header's: the blocks of a launch are alike, and so are
 * their sizes, compressed or not; the header is written once (a
 * vecadd block, gzipped, is some 260 bytes, its header 130). */
guint64 trace_write_projected (guint64 head, guint64 written, guint64 done,
                               guint64 blocks);

#endif
