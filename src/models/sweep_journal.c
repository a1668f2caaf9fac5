/*
 * sweep_journal.c -- finished rows, flushed one by one.  See
 * sweep_journal.h.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "models/csv.h"
#include "models/sweep_journal.h"
#include "models/textfile.h"

#define MAGIC "# smsim sweep journal "

struct SweepJournal {
    char *path;
    FILE *file;
    gboolean made;              /* this open created the file */
    guint64 n_rows;             /* whole rows in it, read back or added */
};

GHashTable *
sweep_journal_rows_new (void)
{
    return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}

const char *
sweep_journal_lookup (GHashTable *rows, guint64 point)
{
    gint64 key = (gint64) point;
    return g_hash_table_lookup (rows, &key);
}

static gboolean
bad (GError **error, const char *name, int line, const char *why)
{
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                 "%s:%d: %s (remove the journal to start the sweep over)",
                 name, line, why);
    return FALSE;
}

/* "17,..." -> 17 */
static gboolean
row_point (const char *row, guint64 *point)
{
    char *end = NULL;
    if (!g_ascii_isdigit (*row))
        return FALSE;
    errno = 0;
    *point = g_ascii_strtoull (row, &end, 10);
    return errno == 0 && *end == ',';
}

static guint
n_fields (const char *line)
{
    g_autoptr (GPtrArray) fields = csv_split (line);
    return fields->len;
}

/* What is wrong with 'row', or NULL; a run-mode row is long, so
 * messages quote its start. */
static char *
row_fault (const SweepJournalSweep *js, guint n_columns, const char *row,
           guint64 *point)
{
    g_autofree char *start = g_strdup_printf ("'%.40s%s'", row,
                                              strlen (row) > 40 ? "..." : "");
    g_autofree char *why = NULL;
    guint n;
    if (!row_point (row, point))
        return g_strdup_printf ("%s: not a row of this sweep (no point "
                                "number first)", start);
    if (csv_unclosed_quote (row))
        return g_strdup_printf ("%s: a quote left open (the line ends inside "
                                "a quoted field)", start);
    n = n_fields (row);
    if (n != n_columns)
        return g_strdup_printf ("%s: %u fields where the header has %u",
                                start, n, n_columns);
    if (js->check == NULL || js->check (js->ctx, *point, row, &why))
        return NULL;
    return g_strdup_printf ("%s: %s", start, why);
}

/* 'seen' maps each point read to its line.  A sweep runs a point once
 * and a resumed one only those the journal lacks (a cut last line is
 * cut from the file too): a second row of a point is an edit, which
 * of the two to believe not known. */
static gboolean
parse_row (const char *name, int line, const SweepJournalSweep *js,
           guint n_columns, const char *row, GHashTable *seen,
           GHashTable *rows, GError **error)
{
    guint64 point = 0;
    g_autofree char *why = row_fault (js, n_columns, row, &point);
    if (why != NULL)
        return bad (error, name, line, why);
    gint64 key = (gint64) point;
    int first = GPOINTER_TO_INT (g_hash_table_lookup (seen, &key));
    if (first != 0) {
        g_autofree char *again = g_strdup_printf (
            "'%.40s%s': point %" G_GUINT64_FORMAT " again (first at line %d)",
            row, strlen (row) > 40 ? "..." : "", point, first);
        return bad (error, name, line, again);
    }
    g_hash_table_insert (seen, g_memdup2 (&key, sizeof key),
                         GINT_TO_POINTER (line));
    g_hash_table_insert (rows, g_memdup2 (&key, sizeof key), g_strdup (row));
    return TRUE;
}

gboolean
sweep_journal_parse (const char *name, const char *text, gsize len,
                     const SweepJournalSweep *js, GHashTable *rows,
                     gsize *valid, GError **error)
{
    g_autofree char *magic = g_strconcat (MAGIC, js->fingerprint, NULL);
    g_autoptr (GHashTable) seen = g_hash_table_new_full (
        g_int64_hash, g_int64_equal, g_free, NULL);
    guint n_columns = n_fields (js->header);
    gsize at = 0;
    *valid = 0;
    for (int line = 1;; line++) {
        const char *nl = memchr (text + at, '\n', len - at);
        if (nl == NULL)
            return TRUE;    /* nothing, or a line cut short: dropped */
        /* A whole line with a NUL in it is not one smsim wrote (a tail
         * a crash zero-filled has no line break: dropped above). */
        if (memchr (text + at, '\0', (gsize) (nl - text - at)) != NULL)
            return bad (error, name, line, "a NUL byte: a journal is text");
        g_autofree char *l = g_strndup (text + at, (gsize) (nl - text - at));
        if (line == 1 && strcmp (l, magic) != 0)
            return bad (error, name, line,
                        g_str_has_prefix (l, MAGIC)
                            ? "the journal of another sweep (other points, "
                              "GPU or options)"
                            : "not a sweep journal");
        if (line == 2 && strcmp (l, js->header) != 0)
            return bad (error, name, line, "the journal of another sweep "
                                           "(other columns)");
        if (line > 2 &&
            !parse_row (name, line, js, n_columns, l, seen, rows, error))
            return FALSE;
        at = (gsize) (nl - text) + 1;
        if (line >= 2)
            *valid = at;    /* a journal is whole once it has its header */
    }
}

/* 'path' and what the failed call left in errno. */
static void
set_errno_error (GError **error, const char *path)
{
    int e = errno;
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e), "%s: %s",
                 path, g_strerror (e));
}

static SweepJournal *
journal_new (const char *path, const char *mode, GError **error)
{
    FILE *f = g_fopen (path, mode);
    if (f == NULL) {
        set_errno_error (error, path);
        return NULL;
    }
    SweepJournal *j = g_new0 (SweepJournal, 1);
    j->path = g_strdup (path);
    j->file = f;
    return j;
}

static gboolean
write_text (SweepJournal *j, const char *text, GError **error)
{
    if (fputs (text, j->file) >= 0 && fflush (j->file) == 0)
        return TRUE;
    set_errno_error (error, j->path);
    return FALSE;
}

/* Read an existing journal and cut off what is not whole; FALSE with
 * *exists FALSE (and no error) when there is none. */
static gboolean
read_back (const char *path, const SweepJournalSweep *js, GHashTable *rows,
           gsize *valid, gboolean *exists, GError **error)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    *exists = g_file_test (path, G_FILE_TEST_EXISTS);
    if (!*exists)
        return FALSE;
    if (!textfile_read (path, &text, &len, error) ||
        !sweep_journal_parse (path, text, len, js, rows, valid, error))
        return FALSE;
    if (*valid < len && truncate (path, (off_t) *valid) != 0) {
        set_errno_error (error, path);
        return FALSE;
    }
    return TRUE;
}

/* Whether the journal at 'path' has a whole line past its header: a
 * point finished, as far as can be told without the sweep's checks
 * (--resume makes them).  What cannot be read is taken to have one, so
 * that --resume names the error. */
static gboolean
has_a_row (const char *path)
{
    FILE *f = textfile_check_regular (path, NULL) ? g_fopen (path, "r") : NULL;
    int c, lines = 0;
    if (f == NULL)
        return TRUE;
    while (lines < 3 && (c = getc (f)) != EOF)
        lines += c == '\n';
    fclose (f);
    return lines >= 3;
}

/* Never overwritten without --resume.  One with no point in it may be
 * a sweep killed before its first point finished, but as well one
 * still running a long first point: it is not taken over either. */
static SweepJournal *
refuse_existing (const char *path, GError **error)
{
    if (has_a_row (path))
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                     "%s exists: an interrupted sweep; add --resume to "
                     "finish it, or remove it to start over", path);
    else
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                     "%s exists but holds no finished point: a sweep "
                     "stopped before its first point finished, or one still "
                     "running; if none is running, remove it to start over",
                     path);
    return NULL;
}

SweepJournal *
sweep_journal_open (const char *path, const SweepJournalSweep *js,
                    gboolean resume, GHashTable *rows, GError **error)
{
    gsize valid = 0;
    gboolean exists = FALSE;
    if (resume && !read_back (path, js, rows, &valid, &exists, error) &&
        exists)
        return NULL;
    if (!resume && g_file_test (path, G_FILE_TEST_EXISTS))
        return refuse_existing (path, error);
    g_autoptr (SweepJournal) j = journal_new (path, valid > 0 ? "a" : "w",
                                              error);
    if (j == NULL)
        return NULL;
    j->made = !exists;
    j->n_rows = g_hash_table_size (rows);
    if (valid == 0) {
        g_autofree char *top = g_strdup_printf (MAGIC "%s\n%s\n",
                                                js->fingerprint, js->header);
        if (!write_text (j, top, error)) {
            sweep_journal_abandon (g_steal_pointer (&j));
            return NULL;
        }
    }
    return g_steal_pointer (&j);
}

gboolean
sweep_journal_add (SweepJournal *j, const char *row, GError **error)
{
    g_autofree char *line = g_strconcat (row, "\n", NULL);
    if (!write_text (j, line, error))
        return FALSE;
    j->n_rows++;
    return TRUE;
}

void
sweep_journal_close (SweepJournal *j)
{
    if (j == NULL)
        return;
    fclose (j->file);
    g_free (j->path);
    g_free (j);
}

void
sweep_journal_abandon (SweepJournal *j)
{
    g_autofree char *path = NULL;
    if (j == NULL)
        return;
    if (j->made && j->n_rows == 0)
        path = g_strdup (j->path);
    sweep_journal_close (j);
    if (path != NULL)
        g_remove (path);
}
