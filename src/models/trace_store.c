/*
 * trace_store.c -- plain and gzip trace bytes on disk.  See
 * trace_store.h.
 *
 * Reads go through one input buffer (file bytes, refilled with pread so
 * that repositioning costs nothing) and, for gzip, one output window of
 * inflated text: memory is these two buffers, whatever the file's size.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "models/tempfiles.h"
#include "models/textfile.h"
#include "models/trace_store.h"

G_DEFINE_QUARK (smsim-trace-error-quark, trace_error)

gboolean
trace_format_error (GError **error, const char *format, ...)
{
    va_list ap;
    va_start (ap, format);
    g_autofree char *message = g_strdup_vprintf (format, ap);
    va_end (ap);
    g_set_error_literal (error, SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT, message);
    return FALSE;
}

enum {
    IN_SIZE = 16384,
    OUT_SIZE = 65536,
    /* No line of FORMAT.md comes near this: a longer one is not a trace. */
    MAX_LINE = 65536
};

struct TraceFile {
    char *path;
    int fd;
    guint64 size;
    gboolean gzip;
    GMutex lock;
    GConverter *inflater;
    /* The unit being read. */
    guint64 start;
    guint64 in_pos;        /* the file offset of in[in_len] */
    gsize in_off, in_len;
    guint8 in[IN_SIZE];
    gsize out_off, out_len;
    gboolean finished;     /* gzip: the member's end was inflated */
    guint64 consumed;      /* gzip: compressed bytes of the member used */
    char out[OUT_SIZE];
};

static gboolean
io_error (GError **error, const char *what, int err)
{
    g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_IO, "%s: %s", what,
                 g_strerror (err));
    return FALSE;
}

TraceFile *
trace_file_open (const char *path, GError **error)
{
    struct stat st;
    guint8 magic[2] = { 0, 0 };
    /* Not blocking: a pipe would wait for a writer before fstat could
     * refuse it (reads of a regular file never block). */
    int fd = g_open (path, O_RDONLY | O_NONBLOCK, 0);
    if (fd < 0) {
        int err = errno;
        g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_IO,
                     "%s: cannot open: %s", path, g_strerror (err));
        return NULL;
    }
    if (fstat (fd, &st) != 0) {
        io_error (error, path, errno);
        close (fd);
        return NULL;
    }
    if (!S_ISREG (st.st_mode)) {
        g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_IO,
                     "%s: %s; give a regular file", path,
                     textfile_kind (st.st_mode));
        close (fd);
        return NULL;
    }
    TraceFile *f = g_new0 (TraceFile, 1);
    f->path = g_strdup (path);
    f->fd = fd;
    f->size = (guint64) st.st_size;
    f->gzip = pread (fd, magic, 2, 0) == 2 && magic[0] == 0x1f &&
              magic[1] == 0x8b;
    if (f->gzip)
        f->inflater = G_CONVERTER (
            g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
    g_mutex_init (&f->lock);
    return f;
}

void
trace_file_free (TraceFile *f)
{
    if (f == NULL)
        return;
    close (f->fd);
    g_clear_object (&f->inflater);
    g_mutex_clear (&f->lock);
    g_free (f->path);
    g_free (f);
}

const char *
trace_file_path (const TraceFile *f)
{
    return f->path;
}

gboolean
trace_file_is_gzip (const TraceFile *f)
{
    return f->gzip;
}

void
trace_file_lock (TraceFile *f)
{
    g_mutex_lock (&f->lock);
}

void
trace_file_unlock (TraceFile *f)
{
    g_mutex_unlock (&f->lock);
}

gboolean
trace_file_begin (TraceFile *f, guint64 offset, GError **error)
{
    f->start = f->in_pos = offset;
    f->in_off = f->in_len = f->out_off = f->out_len = 0;
    f->finished = FALSE;
    f->consumed = 0;
    if (offset > f->size) {
        g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_TRUNCATED,
                     "the file ends at byte %" G_GUINT64_FORMAT ", before "
                     "byte %" G_GUINT64_FORMAT, f->size, offset);
        return FALSE;
    }
    if (f->gzip)
        g_converter_reset (f->inflater);
    return TRUE;
}

/* Read more file bytes behind the unconsumed ones; the count read. */
static gboolean
refill_in (TraceFile *f, gsize *got, GError **error)
{
    memmove (f->in, f->in + f->in_off, f->in_len - f->in_off);
    f->in_len -= f->in_off;
    f->in_off = 0;
    ssize_t n = pread (f->fd, f->in + f->in_len, IN_SIZE - f->in_len,
                       (off_t) f->in_pos);
    if (n < 0)
        return io_error (error, "read", errno);
    f->in_len += (gsize) n;
    f->in_pos += (guint64) n;
    *got = (gsize) n;
    return TRUE;
}

static gboolean
truncated_gzip (const TraceFile *f, GError **error)
{
    g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_TRUNCATED,
                 "truncated gzip: the file ends at byte %" G_GUINT64_FORMAT
                 " inside the member that begins at byte %" G_GUINT64_FORMAT,
                 f->size, f->start);
    return FALSE;
}

static gboolean
truncated_text (const TraceFile *f, guint64 missing, GError **error)
{
    g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_TRUNCATED,
                 "truncated: the %s ends %" G_GUINT64_FORMAT " bytes short "
                 "of the lengths its section line gives",
                 f->gzip ? "gzip member" : "file", missing);
    return FALSE;
}

/* Inflate into the empty output window until it holds text or the
 * member ends. */
static gboolean
inflate_more (TraceFile *f, GError **error)
{
    while (!f->finished && f->out_len == 0) {
        gsize got, used = 0, made = 0;
        if (f->in_off == f->in_len) {
            if (!refill_in (f, &got, error))
                return FALSE;
            if (got == 0)
                return truncated_gzip (f, error);
        }
        g_autoptr (GError) e = NULL;
        GConverterResult r = g_converter_convert (
            f->inflater, f->in + f->in_off, f->in_len - f->in_off, f->out,
            OUT_SIZE, G_CONVERTER_NO_FLAGS, &used, &made, &e);
        f->in_off += used;
        f->consumed += used;
        f->out_len = made;
        if (r == G_CONVERTER_FINISHED)
            f->finished = TRUE;
        else if (r == G_CONVERTER_ERROR &&
                 g_error_matches (e, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT)) {
            if (!refill_in (f, &got, error))
                return FALSE;
            if (got == 0)
                return truncated_gzip (f, error);
        } else if (r == G_CONVERTER_ERROR) {
            g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT,
                         "gzip member at byte %" G_GUINT64_FORMAT
                         " is corrupt: %s", f->start, e->message);
            return FALSE;
        }
    }
    return TRUE;
}

/* Make text available: '*avail' bytes at '*text', 0 at the unit's end. */
static gboolean
fill (TraceFile *f, const char **text, gsize *avail, GError **error)
{
    if (f->gzip) {
        if (f->out_off == f->out_len) {
            f->out_off = f->out_len = 0;
            if (!inflate_more (f, error))
                return FALSE;
        }
        *text = f->out + f->out_off;
        *avail = f->out_len - f->out_off;
        return TRUE;
    }
    if (f->in_off == f->in_len) {
        gsize got;
        f->in_off = f->in_len = 0;
        if (!refill_in (f, &got, error))
            return FALSE;
    }
    *text = (const char *) f->in + f->in_off;
    *avail = f->in_len - f->in_off;
    return TRUE;
}

static void
take (TraceFile *f, gsize n)
{
    if (f->gzip)
        f->out_off += n;
    else
        f->in_off += n;
}

/* A trace is text: a NUL byte would end a line early where the parsers
 * read it as a C string, and drop the rest of it without a word.  The
 * NUL's offset in 'text' into '*at'. */
static gboolean
no_nul (const char *text, gsize n, gsize *at, GError **error)
{
    const char *nul = memchr (text, '\0', n);
    if (nul == NULL)
        return TRUE;
    *at = (gsize) (nul - text);
    g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_NUL,
                 "a NUL byte: a trace is text");
    return FALSE;
}

gboolean
trace_file_line (TraceFile *f, GString *out, GError **error)
{
    g_string_truncate (out, 0);
    for (;;) {
        const char *text;
        gsize avail;
        if (!fill (f, &text, &avail, error))
            return FALSE;
        if (avail == 0) {
            g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_TRUNCATED,
                         "truncated: the %s ends %s",
                         f->gzip ? "gzip member" : "file",
                         out->len > 0 ? "inside a line"
                                      : "where this line should be");
            return FALSE;
        }
        const char *nl = memchr (text, '\n', avail);
        gsize n = nl ? (gsize) (nl - text) : avail;
        if (out->len + n > MAX_LINE) {
            g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT,
                         "a line longer than %d bytes: not a trace",
                         MAX_LINE);
            return FALSE;
        }
        gsize at;
        if (!no_nul (text, n, &at, error))
            return FALSE;
        g_string_append_len (out, text, (gssize) n);
        take (f, nl ? n + 1 : n);
        /* A CR before the LF would be read into the line's last field. */
        if (nl && out->len > 0 && out->str[out->len - 1] == '\r') {
            g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT,
                         "a CR LF line end: a trace's lines end in LF alone");
            return FALSE;
        }
        if (nl)
            return TRUE;
    }
}

gboolean
trace_file_bytes (TraceFile *f, guint64 n, GString *out, GError **error)
{
    if (out == NULL && !f->gzip) {
        /* Skipping plain text is a seek. */
        guint64 here = f->in_pos - (f->in_len - f->in_off);
        if (n > f->size - MIN (here, f->size))
            return truncated_text (f, n - (f->size - MIN (here, f->size)),
                                   error);
        f->in_pos = here + n;
        f->in_off = f->in_len = 0;
        return TRUE;
    }
    while (n > 0) {
        const char *text;
        gsize avail;
        if (!fill (f, &text, &avail, error))
            return FALSE;
        if (avail == 0)
            return truncated_text (f, n, error);
        gsize k = (gsize) MIN ((guint64) avail, n);
        gsize at;
        if (out != NULL && !no_nul (text, k, &at, error)) {
            g_string_append_len (out, text, (gssize) at);
            return FALSE;
        }
        if (out != NULL)
            g_string_append_len (out, text, (gssize) k);
        take (f, k);
        n -= k;
    }
    return TRUE;
}

gboolean
trace_file_end (TraceFile *f, guint64 *next, GError **error)
{
    if (!f->gzip) {
        *next = f->in_pos - (f->in_len - f->in_off);
        return TRUE;
    }
    const char *text;
    gsize avail;
    if (!fill (f, &text, &avail, error))
        return FALSE;
    if (avail > 0) {
        g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT,
                     "the gzip member at byte %" G_GUINT64_FORMAT " holds "
                     "more text than its section line's lengths", f->start);
        return FALSE;
    }
    *next = f->start + f->consumed;
    return TRUE;
}

gboolean
trace_file_at_eof (TraceFile *f, guint64 offset)
{
    return offset >= f->size;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */

struct TraceSink {
    char *path;
    char *tmp;
    int tmp_slot;          /* tempfiles.h */
    FILE *fp;
    GConverter *deflater;
    guint64 written;
    gboolean committed;
};

TraceSink *
trace_sink_new (const char *path, gboolean gzip, GError **error)
{
    g_autofree char *tmp = g_strdup_printf ("%s.XXXXXX", path);
    int fd = g_mkstemp_full (tmp, O_WRONLY, 0666);
    if (fd < 0) {
        int err = errno;
        g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_IO,
                     "%s: cannot create: %s", path, g_strerror (err));
        return NULL;
    }
    TraceSink *s = g_new0 (TraceSink, 1);
    s->path = g_strdup (path);
    s->tmp = g_steal_pointer (&tmp);
    s->tmp_slot = tempfiles_add (s->tmp);
    s->fp = fdopen (fd, "wb");
    if (gzip)
        s->deflater = G_CONVERTER (
            g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6));
    return s;
}

static gboolean
sink_put (TraceSink *s, const void *data, gsize n, GError **error)
{
    if (n > 0 && fwrite (data, 1, n, s->fp) != n) {
        int err = errno;
        g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_IO,
                     "%s: cannot write: %s", s->path, g_strerror (err));
        return FALSE;
    }
    s->written += n;
    return TRUE;
}

gboolean
trace_sink_write (TraceSink *s, const GString *text, GError **error)
{
    if (s->deflater == NULL)
        return sink_put (s, text->str, text->len, error);
    g_converter_reset (s->deflater);
    const char *in = text->str;
    gsize left = text->len;
    for (;;) {
        char out[OUT_SIZE];
        gsize used = 0, made = 0;
        GConverterResult r = g_converter_convert (
            s->deflater, in, left, out, sizeof out, G_CONVERTER_INPUT_AT_END,
            &used, &made, error);
        if (r == G_CONVERTER_ERROR)
            return FALSE;
        in += used;
        left -= used;
        if (!sink_put (s, out, made, error))
            return FALSE;
        if (r == G_CONVERTER_FINISHED)
            return TRUE;
    }
}

guint64
trace_sink_written (const TraceSink *s)
{
    return s->written;
}

gboolean
trace_sink_room (const TraceSink *s, guint64 *free)
{
    struct statvfs v;
    if (fstatvfs (fileno (s->fp), &v) != 0)
        return FALSE;
    *free = (guint64) v.f_bavail * (guint64) v.f_frsize;
    return TRUE;
}

gboolean
trace_sink_commit (TraceSink *s, GError **error)
{
    FILE *fp = g_steal_pointer (&s->fp);
    gboolean ok = fflush (fp) == 0 && fsync (fileno (fp)) == 0;
    int err = errno;
    ok = fclose (fp) == 0 && ok;
    if (ok && g_rename (s->tmp, s->path) == 0) {
        s->committed = TRUE;
        return TRUE;
    }
    err = ok ? errno : err;
    g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_IO, "%s: cannot write: %s",
                 s->path, g_strerror (err));
    return FALSE;
}

void
trace_sink_free (TraceSink *s)
{
    if (s == NULL)
        return;
    if (s->fp != NULL)
        fclose (s->fp);
    if (!s->committed)
        g_unlink (s->tmp);
    tempfiles_forget (s->tmp_slot);
    g_clear_object (&s->deflater);
    g_free (s->path);
    g_free (s->tmp);
    g_free (s);
}
