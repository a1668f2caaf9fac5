/*
 * trace_store.h -- a trace file's bytes on disk: plain text, or gzip
 * members (traces/FORMAT.md, "Storage").
 *
 * Reading: a TraceFile reads text sequentially from any "unit start"
 * (the header, a section, the end line): in a plain file that is any
 * byte offset and the text runs on to the end of the file; in a gzip
 * file each unit is one gzip member, and the text ends where the member
 * does.  One TraceFile serves every cursor of a replay: a reader takes
 * it with trace_file_lock, positions it with trace_file_begin, reads,
 * and releases it; memory is its buffers alone, whatever the file's
 * length.  Gzip is detected by its magic bytes, never by the name.
 *
 * Writing: a TraceSink writes units to a temporary file beside the
 * target and renames it into place on commit, so the trace appears
 * whole or not at all; freeing an uncommitted sink removes the
 * temporary file.
 */
#ifndef SMSIM_MODELS_TRACE_STORE_H
#define SMSIM_MODELS_TRACE_STORE_H

#include <glib.h>

#define SMSIM_TRACE_ERROR (trace_error_quark ())
GQuark trace_error_quark (void);

typedef enum {
    TRACE_ERROR_IO,          /* the file cannot be opened, read or written */
    TRACE_ERROR_FORMAT,      /* a line or field is not what FORMAT.md says */
    TRACE_ERROR_TRUNCATED,   /* the file (or a gzip member) ends early */
    TRACE_ERROR_NUL          /* a NUL byte: a trace is text */
} TraceError;

/* Set a TRACE_ERROR_FORMAT error from 'format' and return FALSE (the
 * parsers' one-line failure). */
gboolean trace_format_error (GError **error, const char *format, ...)
    G_GNUC_PRINTF (2, 3);

typedef struct TraceFile TraceFile;

TraceFile *trace_file_open (const char *path, GError **error);
void trace_file_free (TraceFile *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TraceFile, trace_file_free)

const char *trace_file_path (const TraceFile *f);
gboolean trace_file_is_gzip (const TraceFile *f);

/* Exclusive use of the file's read position (cursors share one file). */
void trace_file_lock (TraceFile *f);
void trace_file_unlock (TraceFile *f);

/* Start reading the unit at byte 'offset'. */
gboolean trace_file_begin (TraceFile *f, guint64 offset, GError **error);
/* The next line, without its newline, into 'out'; an error if the unit
 * ends before a newline. */
gboolean trace_file_line (TraceFile *f, GString *out, GError **error);
/* The next 'n' bytes, appended to 'out', or skipped when 'out' is NULL;
 * an error if the unit has fewer.  At a NUL byte, a TRACE_ERROR_NUL
 * with the bytes before it appended, so that the caller can tell its
 * line. */
gboolean trace_file_bytes (TraceFile *f, guint64 n, GString *out,
                           GError **error);
/* Close the unit: a gzip member must hold no more text than was read.
 * '*next' is the offset of the next unit (in a plain file, the byte
 * after the last one read). */
gboolean trace_file_end (TraceFile *f, guint64 *next, GError **error);
/* TRUE if 'offset' is the end of the file. */
gboolean trace_file_at_eof (TraceFile *f, guint64 offset);

typedef struct TraceSink TraceSink;

/* A sink writing to a temporary file beside 'path'; gzip members when
 * 'gzip' is set. */
TraceSink *trace_sink_new (const char *path, gboolean gzip, GError **error);
/* Write one unit's text (one gzip member in a gzip sink). */
gboolean trace_sink_write (TraceSink *s, const GString *text, GError **error);
/* Bytes written so far (compressed, in a gzip sink). */
guint64 trace_sink_written (const TraceSink *s);
/* The bytes free to an unprivileged writer on the file system being
 * written, in '*free'; FALSE if the system does not say. */
gboolean trace_sink_room (const TraceSink *s, guint64 *free);
/* Flush, sync and rename the temporary file to the target. */
gboolean trace_sink_commit (TraceSink *s, GError **error);
void trace_sink_free (TraceSink *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TraceSink, trace_sink_free)

#endif
