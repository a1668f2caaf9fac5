/*
 * trace_read.h -- reading a trace file (traces/FORMAT.md): the header,
 * a full check of every record, and the lazy stream of any warp.
 *
 * A file is blocks, each block its prologue, its main-loop iterations
 * and its epilogue ("sections"), each section one record per warp.
 * trace_reader_scan reads it all once, front to back, checking every
 * line (errors name the file, the line and the field) and showing each
 * instruction to a visitor: `trace info` counts with it, and a replay
 * runs it first so that a bad file is refused before it is simulated.
 *
 * Warp streams read lazily: a stream holds its warp's record of the
 * current section and nothing else, and finds the sections of its block
 * through one shared cursor that walks the file forward (the simulator
 * starts blocks in order; a new pass starts over).  Memory is bounded by
 * the resident warps, not by the file.  A stream may play fewer
 * main-loop iterations than the file holds (a sampling window): it skips
 * to the epilogue.  Streams cannot report errors (instr.h): a stream
 * that meets one (the file changed under it) ends with an EXIT, and
 * trace_reader_error says what happened.
 */
#ifndef SMSIM_MODELS_TRACE_READ_H
#define SMSIM_MODELS_TRACE_READ_H

#include "models/trace_head.h"
#include "sim/instr.h"

typedef struct TraceReader TraceReader;

/* Open 'path' and parse its header. */
TraceReader *trace_reader_open (const char *path, GError **error);
void trace_reader_free (TraceReader *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TraceReader, trace_reader_free)

const TraceHead *trace_reader_head (const TraceReader *r);
const char *trace_reader_path (const TraceReader *r);
gboolean trace_reader_is_gzip (const TraceReader *r);

/* Called with each instruction of the file, in file order, and the
 * block, warp and section it is of (0 the prologue, 1 .. iterations
 * the main loop's, iterations + 1 the epilogue). */
typedef void (*TraceVisitFn) (void *ctx, guint64 block, int warp,
                              guint64 section, const Instr *in);

/* Check the whole file; 'visit' may be NULL. */
gboolean trace_reader_scan (TraceReader *r, TraceVisitFn visit, void *ctx,
                            GError **error);

/* FALSE for a stream of the reader whose warp plays no instruction in
 * the main loop's first iteration (its threads exit at a bounds check
 * before it, kgen_stream_new_exiting's); TRUE for any other stream. */
gboolean trace_reader_warp_plays_loop (const InstrStream *s);

/* Where a stream of trace_reader_open_warp stands (kern.h's
 * kern_stream_position); FALSE for any other stream. */
gboolean trace_reader_warp_position (const InstrStream *s, gint64 *iteration);

/* The stream of warp 'warp' of 'block', its main loop cut to
 * 'iterations' (at most the header's). */
InstrStream *trace_reader_open_warp (TraceReader *r, guint64 block, int warp,
                                     guint64 iterations);

/* The first error a stream met, if any: FALSE and '*error' set. */
gboolean trace_reader_error (TraceReader *r, GError **error);

#endif
