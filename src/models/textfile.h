/*
 * textfile.h -- reading a whole input file (a preset, a points list, a
 * shard, a journal, a validation CSV) into memory, safely.
 *
 * g_file_get_contents reads until end of file: given /dev/zero, a FIFO
 * nobody closes or a terminal it reads forever, growing the buffer until
 * the machine runs out of memory.  Only a regular file has an end known
 * in advance, so only a regular file is read, and only up to
 * TEXTFILE_MAX_BYTES (far past any input smsim writes).  Errors are in
 * G_FILE_ERROR, like g_file_get_contents's, and name the path.
 */
#ifndef SMSIM_MODELS_TEXTFILE_H
#define SMSIM_MODELS_TEXTFILE_H

#include <glib.h>

#define TEXTFILE_MAX_BYTES (G_GUINT64_CONSTANT (1) << 30)

/* g_file_get_contents for a regular file of at most TEXTFILE_MAX_BYTES;
 * 'length' may be NULL.  The bytes as they are: a reader that keeps
 * offsets into the file (a journal, cut back to its last whole line)
 * needs them so. */
gboolean textfile_read (const char *path, char **contents, gsize *length,
                        GError **error);

/* Drop a UTF-8 byte-order mark at the start of 'text' ('length' bytes
 * and a NUL), which spreadsheets write before a CSV: it would stick to
 * the first key, unseen in a message.  Returns the new length. */
gsize textfile_drop_bom (char *text, gsize length);

/* textfile_read, its byte-order mark dropped, refusing a NUL byte,
 * which would end a line early as a C string and drop what follows:
 * "PATH:LINE: a NUL byte: WHAT is text". */
gboolean textfile_read_text (const char *path, const char *what,
                             char **contents, gsize *length, GError **error);

/* Whether 'path' is a regular file: else a G_FILE_ERROR saying what it
 * is instead.  For readers that stream a file rather than load it. */
gboolean textfile_check_regular (const char *path, GError **error);

/* What a file of mode 'mode' is, for a message: "a pipe", "a
 * directory" ... ("not a regular file" for the rest). */
const char *textfile_kind (unsigned mode);

#endif
