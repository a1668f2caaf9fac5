/*
 * textfile.c -- reading a whole input file, safely.  See textfile.h.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "models/csv.h"
#include "models/textfile.h"

const char *
textfile_kind (unsigned mode)
{
    return S_ISDIR (mode) ? "a directory"
           : S_ISCHR (mode) ? "a character device"
           : S_ISBLK (mode) ? "a block device"
           : S_ISFIFO (mode) ? "a pipe"
           : S_ISSOCK (mode) ? "a socket"
                             : "not a regular file";
}

/* stat 'path' (through links) into 'st'; FALSE, saying why, unless it
 * is a regular file. */
static gboolean
regular (const char *path, GStatBuf *st, GError **error)
{
    if (g_stat (path, st) != 0) {
        int err = errno;
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err),
                     "%s: %s", path, g_strerror (err));
        return FALSE;
    }
    if (!S_ISREG (st->st_mode)) {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                     "%s: %s; give a regular file", path,
                     textfile_kind (st->st_mode));
        return FALSE;
    }
    return TRUE;
}

gboolean
textfile_check_regular (const char *path, GError **error)
{
    GStatBuf st;
    return regular (path, &st, error);
}

gboolean
textfile_read (const char *path, char **contents, gsize *length,
               GError **error)
{
    GStatBuf st;
    if (!regular (path, &st, error))
        return FALSE;
    if ((guint64) st.st_size > TEXTFILE_MAX_BYTES) {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOMEM,
                     "%s: %" G_GUINT64_FORMAT " bytes, more than smsim "
                     "reads (%" G_GUINT64_FORMAT ")", path,
                     (guint64) st.st_size, TEXTFILE_MAX_BYTES);
        return FALSE;
    }
    return g_file_get_contents (path, contents, length, error);
}

gsize
textfile_drop_bom (char *text, gsize length)
{
    static const char bom[] = "\xef\xbb\xbf";
    if (length < 3 || memcmp (text, bom, 3) != 0)
        return length;
    memmove (text, text + 3, length - 2);     /* the NUL after it too */
    return length - 3;
}

gboolean
textfile_read_text (const char *path, const char *what, char **contents,
                    gsize *length, GError **error)
{
    gsize n = 0;
    if (!textfile_read (path, contents, &n, error))
        return FALSE;
    n = textfile_drop_bom (*contents, n);
    guint line = csv_nul_line (*contents, n);
    if (line > 0) {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                     "%s:%u: a NUL byte: %s is text", path, line, what);
        g_clear_pointer (contents, g_free);
        return FALSE;
    }
    if (length != NULL)
        *length = n;
    return TRUE;
}
