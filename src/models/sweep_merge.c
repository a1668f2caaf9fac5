/*
 * sweep_merge.c -- shard files joined and checked.  See sweep_merge.h.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "models/csv.h"
#include "models/sweep_merge.h"
#include "models/sweep_run.h"
#include "models/textfile.h"

typedef struct {
    const char *name;
    guint index;            /* I of I/N */
    guint count;            /* N */
    guint64 points;         /* P */
    const char *fingerprint;    /* in lines[0] */
    GStrv lines;            /* [0] the shard line, [1] the header, rows */
    guint n_rows;
    guint n_columns;        /* the header's */
} Shard;

static void
shard_clear (gpointer data)
{
    g_strfreev (((Shard *) data)->lines);
}

static gboolean
fail (GError **error, const char *name, int line, const char *format, ...)
    G_GNUC_PRINTF (4, 5);

static gboolean
fail (GError **error, const char *name, int line, const char *format, ...)
{
    va_list ap;
    va_start (ap, format);
    g_autofree char *why = g_strdup_vprintf (format, ap);
    va_end (ap);
    if (line > 0)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%d: %s",
                     name, line, why);
    else
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s", name,
                     why);
    return FALSE;
}

#define SWEEP_TAG ", sweep "

/* 'text' quoted for a message: its first 'max' bytes only, as a row
 * (or the header of a CSV given by mistake) can be long. */
static char *
quote_start (const char *text, int max)
{
    return g_strdup_printf ("'%.*s%s'", max, text,
                            strlen (text) > (gsize) max ? "..." : "");
}

/* A SHA-256 in hex, as sweep_whole_fingerprint gives. */
static gboolean
is_fingerprint (const char *text)
{
    gsize n = strspn (text, "0123456789abcdef");
    return n == 64 && text[n] == '\0';
}

/* The first line, written by sweep_run_shard_line. */
static gboolean
parse_shard_line (Shard *s, GError **error)
{
    const char *line = s->lines[0];
    /* Long enough for a whole shard line with its fingerprint. */
    g_autofree char *quoted = quote_start (line, 160);
    guint64 points = 0;
    guint index = 0, count = 0;
    int end = 0;
    if (sscanf (line, "# smsim sweep shard %u/%u of %" G_GUINT64_FORMAT
                " points%n", &index, &count, &points, &end) != 3 ||
        index < 1 || index > count)
        return fail (error, s->name, 1, "%s: not a shard of `smsim sweep "
                     "--shard` (its first line says '# smsim sweep shard I/N "
                     "of P points, sweep FINGERPRINT', then the header)",
                     quoted);
    if (line[end] == '\0')
        return fail (error, s->name, 1, "%s: a shard line without its "
                     "sweep's fingerprint (written by an older smsim?): "
                     "nothing tells which sweep it is of; run the shard again",
                     quoted);
    s->fingerprint = g_str_has_prefix (line + end, SWEEP_TAG)
                         ? line + end + strlen (SWEEP_TAG)
                         : "";
    /* Written by us, so it reads back as written. */
    g_autofree char *again = sweep_run_shard_line (index, count, points,
                                                   s->fingerprint);
    s->index = index;
    s->count = count;
    s->points = points;
    if (is_fingerprint (s->fingerprint) && strcmp (again, line) == 0)
        return TRUE;
    return fail (error, s->name, 1, "%s: not a shard line of `smsim sweep "
                 "--shard` ('# smsim sweep shard I/N of P points, sweep "
                 "FINGERPRINT')", quoted);
}

static guint64
expected_rows (const Shard *s)
{
    guint64 first = s->index - 1;
    return s->points > first ? (s->points - first + s->count - 1) / s->count
                             : 0;
}

static guint
n_fields (const char *line)
{
    g_autoptr (GPtrArray) fields = csv_split (line);
    return fields->len;
}

static gboolean
check_row (const Shard *s, guint r, GError **error)
{
    const char *row = s->lines[r + 2];
    guint64 want = (guint64) r * s->count + s->index - 1;
    g_autofree char *prefix = g_strdup_printf ("%" G_GUINT64_FORMAT ",", want);
    guint n;
    if (!g_str_has_prefix (row, prefix))
        return fail (error, s->name, (int) r + 3,
                     "expected point %" G_GUINT64_FORMAT " (shard %u/%u "
                     "holds points %u, %u, ...)", want, s->index, s->count,
                     s->index - 1, s->index - 1 + s->count);
    n = n_fields (row);
    if (n != s->n_columns) {
        g_autofree char *quoted = quote_start (row, 40);
        return fail (error, s->name, (int) r + 3, "%s: %u fields where the "
                     "header has %u", quoted, n, s->n_columns);
    }
    return TRUE;
}

static gboolean
check_rows (const Shard *s, GError **error)
{
    for (guint r = 0; r < s->n_rows; r++)
        if (!check_row (s, r, error))
            return FALSE;
    if (s->n_rows != expected_rows (s))
        return fail (error, s->name, 0, "%u rows where shard %u/%u of %"
                     G_GUINT64_FORMAT " points has %" G_GUINT64_FORMAT
                     " (an unfinished shard?)", s->n_rows, s->index, s->count,
                     s->points, expected_rows (s));
    return TRUE;
}

static gboolean
read_shard (Shard *s, const char *name, const char *text, GError **error)
{
    s->name = name;
    s->lines = g_strsplit (text, "\n", -1);
    guint n = g_strv_length (s->lines);
    if (n > 0 && *s->lines[n - 1] == '\0') {     /* the final line break */
        n--;
        g_clear_pointer (&s->lines[n], g_free);
    }
    if (n < 2)
        return fail (error, name, 1, "not a shard of `smsim sweep --shard` "
                     "(its first line says '# smsim sweep shard I/N of P "
                     "points, sweep FINGERPRINT', then the header)");
    if (!parse_shard_line (s, error))
        return FALSE;
    s->n_rows = n - 2;
    s->n_columns = n_fields (s->lines[1]);
    return check_rows (s, error);
}

/* Same sweep, each shard once, none missing. */
static gboolean
check_set (const Shard *shards, guint n, GError **error)
{
    const Shard *a = &shards[0];
    if (a->count > n)
        return fail (error, a->name, 1, "a shard of a sweep in %u shards, but "
                     "%u files are given: all are needed", a->count, n);
    g_autofree const Shard **by_index = g_new0 (const Shard *, a->count + 1);
    for (guint i = 0; i < n; i++) {
        const Shard *s = &shards[i];
        if (s->count != a->count || s->points != a->points)
            return fail (error, s->name, 1, "shard %u/%u of %" G_GUINT64_FORMAT
                         " points, but %s is a shard of %u of %"
                         G_GUINT64_FORMAT " points", s->index, s->count,
                         s->points, a->name, a->count, a->points);
        if (strcmp (s->lines[1], a->lines[1]) != 0)
            return fail (error, s->name, 2, "its header differs from %s's "
                         "(another sweep)", a->name);
        if (strcmp (s->fingerprint, a->fingerprint) != 0)
            return fail (error, s->name, 1, "a shard of another sweep than "
                         "%s (their fingerprints differ: another GPU, or "
                         "other values of the keys)", a->name);
        if (by_index[s->index] != NULL)
            return fail (error, s->name, 1, "shard %u/%u is given twice (also "
                         "%s)", s->index, s->count, by_index[s->index]->name);
        by_index[s->index] = s;
    }
    for (guint i = 1; i <= a->count; i++)
        if (by_index[i] == NULL)
            return fail (error, "merge", 0, "shard %u/%u is missing (%u files "
                         "given, the sweep has %u shards)", i, a->count, n,
                         a->count);
    return TRUE;
}

static const Shard *
shard_of (const Shard *shards, guint n, guint index)
{
    for (guint i = 0; i < n; i++)
        if (shards[i].index == index)
            return &shards[i];
    g_assert_not_reached ();
}

gboolean
sweep_merge_texts (guint n, const char *const *names, const char *const *texts,
                   GString *out, GError **error)
{
    g_autoptr (GArray) shards = g_array_new (FALSE, TRUE, sizeof (Shard));
    g_array_set_clear_func (shards, shard_clear);
    g_array_set_size (shards, n);
    Shard *s = (Shard *) (void *) shards->data;
    if (n == 0)
        return fail (error, "merge", 0, "no shard files given");
    for (guint i = 0; i < n; i++)
        if (!read_shard (&s[i], names[i], texts[i], error))
            return FALSE;
    if (!check_set (s, n, error))
        return FALSE;
    g_autofree const Shard **order = g_new0 (const Shard *, s[0].count);
    for (guint i = 0; i < s[0].count; i++)
        order[i] = shard_of (s, n, i + 1);
    g_string_append_printf (out, "%s\n", s[0].lines[1]);
    for (guint64 p = 0; p < s[0].points; p++)
        g_string_append_printf (out, "%s\n",
                                order[p % s[0].count]->lines[2 + p / s[0].count]);
    return TRUE;
}

gboolean
sweep_merge_files (const char *const *paths, GString *out, GError **error)
{
    guint n = g_strv_length ((GStrv) paths);
    g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
    for (guint i = 0; i < n; i++) {
        char *text = NULL;
        gsize len = 0;
        if (!textfile_read (paths[i], &text, &len, error))
            return FALSE;
        g_ptr_array_add (texts, text);
        guint nul = csv_nul_line (text, len);
        if (nul > 0)
            return fail (error, paths[i], (int) nul, "a NUL byte: a shard "
                                                     "is text");
    }
    return sweep_merge_texts (n, paths, (const char *const *) texts->pdata,
                              out, error);
}
