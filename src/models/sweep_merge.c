/*
 * sweep_merge.c -- shard files joined and checked.  See sweep_merge.h.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "models/csv.h"
#include "models/sweep_grid.h"
#include "models/sweep_merge.h"
#include "models/sweep_point.h"
#include "models/sweep_run.h"
#include "models/textfile.h"

/* A --vary key of the grid, as its line gives it. */
typedef struct {
    char *key;
    GStrv values;
    guint line;             /* from 1 */
} Dim;

static void
dim_free (gpointer data)
{
    Dim *d = data;
    g_free (d->key);
    g_strfreev (d->values);
    g_free (d);
}

typedef struct {
    const char *name;
    guint index;            /* I of I/N */
    guint count;            /* N */
    guint64 points;         /* P */
    const char *fingerprint;    /* in lines[0] */
    GStrv lines;            /* [0] the shard line, [1..head-1] the grid,
                               [head] the header, then the rows */
    guint head;
    guint n_rows;
    guint n_columns;        /* the header's */
    SweepMode mode;         /* whose results the header names */
    GStrv file_keys;        /* a points file's columns (NULL: none) */
    guint64 file_rows;
    const char *digest;     /* of this shard's values of them */
    GPtrArray *dims;        /* Dim per --vary key */
    char *grid;             /* the grid lines, the digest left out */
    const char *file_name;  /* the points file given to check against */
    const SweepGrid *file;  /* (its points alone), or NULL */
} Shard;

static void
shard_clear (gpointer data)
{
    Shard *s = data;
    g_strfreev (s->lines);
    g_strfreev (s->file_keys);
    if (s->dims != NULL)
        g_ptr_array_unref (s->dims);
    g_free (s->grid);
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

/* A SHA-256 in hex, as sweep_whole_fingerprint and a points line's
 * digest are. */
static gboolean
is_sha256 (const char *text)
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
    if (is_sha256 (s->fingerprint) && strcmp (again, line) == 0)
        return TRUE;
    return fail (error, s->name, 1, "%s: not a shard line of `smsim sweep "
                 "--shard` ('# smsim sweep shard I/N of P points, sweep "
                 "FINGERPRINT')", quoted);
}

/* ------------------------------------------------------------------ */
/* The grid lines (sweep_grid.h)                                       */

#define POINTS_TAG "# points file: "
#define VARY_TAG "# vary "
#define VALUES_TAG "; values "

/* "# points file: R rows of KEYS; values DIGEST", as written by
 * sweep_grid_points_line; lines[i]. */
static gboolean
parse_points_line (Shard *s, guint i, GError **error)
{
    const char *line = s->lines[i];
    const char *values = g_strrstr (line, VALUES_TAG);
    int end = 0;
    if (i == 1 && values != NULL &&
        sscanf (line, POINTS_TAG "%" G_GUINT64_FORMAT " rows of %n",
                &s->file_rows, &end) == 1 && end > 0 && line + end < values) {
        g_autofree char *keys = g_strndup (line + end,
                                           (gsize) (values - line - end));
        s->file_keys = g_strsplit (keys, ",", -1);
        s->digest = values + strlen (VALUES_TAG);
        g_autofree char *again = sweep_grid_points_line (
            s->file_rows, (const char *const *) s->file_keys,
            g_strv_length (s->file_keys), s->digest);
        if (is_sha256 (s->digest) && strcmp (again, line) == 0)
            return TRUE;
    }
    g_autofree char *quoted = quote_start (line, 160);
    return fail (error, s->name, (int) i + 1, "%s: not a shard's points "
                 "line ('" POINTS_TAG "R rows of KEY,...; values DIGEST', "
                 "right after the shard line)", quoted);
}

/* "# vary KEY=V1,V2,...", as written by sweep_grid_vary_line. */
static gboolean
parse_vary_line (Shard *s, guint i, GError **error)
{
    const char *line = s->lines[i];
    Dim *d = g_new0 (Dim, 1);
    d->line = i + 1;
    g_ptr_array_add (s->dims, d);
    if (sweep_grid_parse_vary (line + strlen (VARY_TAG), &d->key, &d->values,
                               NULL)) {
        g_autofree char *again = sweep_grid_vary_line (
            d->key, (const char *const *) d->values);
        if (strcmp (again, line) == 0)
            return TRUE;
    }
    g_autofree char *quoted = quote_start (line, 160);
    return fail (error, s->name, (int) i + 1, "%s: not a shard's vary line "
                 "('" VARY_TAG "KEY=V1,V2,...')", quoted);
}

/* The grid lines between the shard line and the header; 's->head'
 * set to the header's. */
static gboolean
parse_grid (Shard *s, guint n, GError **error)
{
    g_autoptr (GString) grid = g_string_new (NULL);
    guint i = 1;
    s->dims = g_ptr_array_new_with_free_func (dim_free);
    for (; i < n && s->lines[i][0] == '#'; i++) {
        gboolean points = g_str_has_prefix (s->lines[i], POINTS_TAG);
        if (!(points ? parse_points_line (s, i, error)
              : g_str_has_prefix (s->lines[i], VARY_TAG)
                  ? parse_vary_line (s, i, error)
                  : fail (error, s->name, (int) i + 1, "not a line of a "
                          "shard's grid ('" POINTS_TAG "...' or '" VARY_TAG
                          "KEY=V1,V2,...')")))
            return FALSE;
        /* Shards of one sweep differ in their digests alone. */
        const char *digest = points ? g_strrstr (s->lines[i], VALUES_TAG)
                                    : NULL;
        g_string_append_len (grid, s->lines[i],
                             digest ? digest - s->lines[i] : -1);
        g_string_append_c (grid, '\n');
    }
    s->head = i;
    s->grid = g_string_free (g_steal_pointer (&grid), FALSE);
    if (s->head == 1)
        return fail (error, s->name, 2, "a shard without its grid lines "
                     "(written by an older smsim?): nothing tells what "
                     "values its rows should hold; run the shard again");
    if (s->head == n)
        return fail (error, s->name, (int) n, "no header after the grid "
                     "lines");
    return TRUE;
}

static guint
n_file_keys (const Shard *s)
{
    return s->file_keys != NULL ? g_strv_length (s->file_keys) : 0;
}

/* The header names the grid's keys, the file's then the varied ones,
 * before the results of a mode, as the sweep writes them; 's->mode'
 * set to that mode. */
static gboolean
check_columns (Shard *s, GError **error)
{
    g_autoptr (GPtrArray) header = csv_split (s->lines[s->head]);
    g_autoptr (GString) keys = g_string_new ("point,");
    guint f = n_file_keys (s);
    for (guint c = 0; c < f + s->dims->len; c++) {
        const char *want = c < f ? s->file_keys[c]
                                 : ((Dim *) s->dims->pdata[c - f])->key;
        const char *got = c + 1 < header->len ? header->pdata[c + 1] : "";
        if (strcmp (want, got) != 0)
            return fail (error, s->name, (int) s->head + 1, "column %u is "
                         "'%s' where its grid lines name '%s'", c + 2, got,
                         want);
        csv_append_field (keys, want);
        g_string_append_c (keys, ',');
    }
    /* Its rows' results are checked by their columns' kinds. */
    const char *line = s->lines[s->head];
    if (g_str_has_prefix (line, keys->str) &&
        sweep_point_mode_of (line + keys->len, &s->mode))
        return TRUE;
    g_autofree char *quoted = quote_start (line, 80);
    return fail (error, s->name, (int) s->head + 1, "%s: not a sweep's "
                 "header ('%s' then the results of run or occupancy mode, "
                 "as `smsim sweep` writes them)", quoted, keys->str);
}

/* The points file given is the one the sweep ran: its keys, as many
 * rows. */
static gboolean
check_points_file (const Shard *s, GError **error)
{
    if (s->file == NULL)
        return TRUE;
    if (s->file_keys == NULL)
        return fail (error, s->name, 2, "its sweep had no points file, but "
                     "--points %s is given", s->file_name);
    guint64 rows = 0;
    guint n = sweep_grid_n_keys (s->file);
    gboolean same = sweep_grid_count (s->file, &rows, NULL) &&
                    rows == s->file_rows && n == n_file_keys (s);
    g_autoptr (GString) keys = g_string_new (NULL);
    for (guint k = 0; k < n; k++) {
        const char *key = sweep_grid_key (s->file, k)->name;
        same = same && strcmp (key, s->file_keys[k]) == 0;
        g_string_append_printf (keys, "%s%s", k > 0 ? "," : "", key);
    }
    if (same)
        return TRUE;
    g_autofree char *want = g_strjoinv (",", s->file_keys);
    return fail (error, s->name, 2, "its sweep's points file had %"
                 G_GUINT64_FORMAT " rows of %s; %s has %" G_GUINT64_FORMAT
                 " rows of %s: not that file", s->file_rows, want,
                 s->file_name, rows, keys->str);
}

/* The grid holds as many points as the shard line says. */
static gboolean
check_count (const Shard *s, GError **error)
{
    guint64 total = s->file_keys != NULL ? s->file_rows : 1;
    gboolean over = FALSE;
    for (guint d = 0; d < s->dims->len; d++) {
        guint64 len = g_strv_length (((Dim *) s->dims->pdata[d])->values);
        over = over || total > G_MAXUINT64 / len;
        total = over ? total : total * len;
    }
    if (!over && total == s->points)
        return TRUE;
    g_autofree char *made = over ? g_strdup ("more than 2^64")
                                 : g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                    total);
    return fail (error, s->name, 1, "a shard of %" G_GUINT64_FORMAT " points, "
                 "but its grid lines make %s", s->points, made);
}

/* ------------------------------------------------------------------ */
/* The rows                                                            */

static guint64
expected_rows (const Shard *s)
{
    guint64 first = s->index - 1;
    return s->points > first ? (s->points - first + s->count - 1) / s->count
                             : 0;
}

/* Each --vary key's value in 'fields', the row on 'line' of point
 * 'point', is the grid's at that point. */
static gboolean
check_varied (const Shard *s, int line, guint64 point, GPtrArray *fields,
              GError **error)
{
    guint first = 1 + n_file_keys (s);
    guint64 rest = point;
    /* The last --vary key changes fastest (sweep_grid.h). */
    for (guint d = s->dims->len; d-- > 0;) {
        const Dim *dim = s->dims->pdata[d];
        guint64 len = g_strv_length (dim->values);
        const char *want = dim->values[rest % len];
        const char *got = fields->pdata[first + d];
        rest /= len;
        if (strcmp (want, got) != 0) {
            g_autofree char *quoted = quote_start (got, 40);
            return fail (error, s->name, line, "%s = %s, but point %"
                         G_GUINT64_FORMAT " of the sweep has %s = '%s' (its "
                         "grid, line %u)", dim->key, quoted, point, dim->key,
                         want, dim->line);
        }
    }
    return TRUE;
}

/* The point's number and values as the sweep writes them: the merged
 * CSV must be the whole sweep's byte for byte.  '*results': where the
 * results start in 'row'. */
static gboolean
check_spelling (const Shard *s, int line, const char *row, GPtrArray *fields,
                const char **results, GError **error)
{
    g_autoptr (GString) want = g_string_new (fields->pdata[0]);
    for (guint c = 1; c <= n_file_keys (s) + s->dims->len; c++) {
        g_string_append_c (want, ',');
        csv_append_field (want, fields->pdata[c]);
    }
    g_string_append_c (want, ',');
    *results = row + want->len;
    if (g_str_has_prefix (row, want->str))
        return TRUE;
    g_autofree char *quoted = quote_start (row, 40);
    return fail (error, s->name, line, "%s: its point's "
                 "values are not written as the sweep writes them ('%s')",
                 quoted, want->str);
}

/* The results (from 'results' in 'row') are of their columns' kinds,
 * as a resumed journal's must be: they are copied into the merged CSV
 * as they are. */
static gboolean
check_results (const Shard *s, int line, const char *row,
               const char *results, GError **error)
{
    g_autofree char *why = NULL;
    if (sweep_point_check_text (s->mode, results, &why))
        return TRUE;
    g_autofree char *quoted = quote_start (row, 40);
    return fail (error, s->name, line, "%s: %s", quoted, why);
}

static gboolean
check_row (const Shard *s, guint r, GChecksum *sum, GError **error)
{
    const char *row = s->lines[s->head + 1 + r];
    guint64 want = (guint64) r * s->count + s->index - 1;
    g_autofree char *prefix = g_strdup_printf ("%" G_GUINT64_FORMAT ",", want);
    g_autoptr (GPtrArray) fields = csv_split (row);
    int line = (int) (s->head + 2 + r);
    if (!g_str_has_prefix (row, prefix))
        return fail (error, s->name, line,
                     "expected point %" G_GUINT64_FORMAT " (shard %u/%u "
                     "holds points %u, %u, ...)", want, s->index, s->count,
                     s->index - 1, s->index - 1 + s->count);
    if (csv_unclosed_quote (row)) {
        g_autofree char *quoted = quote_start (row, 40);
        return fail (error, s->name, line, "%s: a quote left open (the line "
                     "ends inside a quoted field)", quoted);
    }
    if (fields->len != s->n_columns) {
        g_autofree char *quoted = quote_start (row, 40);
        return fail (error, s->name, line, "%s: %u fields where the "
                     "header has %u", quoted, fields->len, s->n_columns);
    }
    const char *results = NULL;
    if (!check_varied (s, line, want, fields, error) ||
        !check_spelling (s, line, row, fields, &results, error) ||
        !check_results (s, line, row, results, error))
        return FALSE;
    sweep_grid_digest_row (sum, (const char *const *) fields->pdata + 1,
                           n_file_keys (s));
    return TRUE;
}

/* With the points file given: row 'r' of the shard holds the file's
 * values for its point.  'digest_ok': the shard's values agree with
 * its own digest, so a difference is the file's, named first. */
static gboolean
check_file_row (const Shard *s, guint r, gboolean digest_ok, GError **error)
{
    guint64 point = (guint64) r * s->count + s->index - 1, row = point;
    for (guint d = 0; d < s->dims->len; d++)
        row /= g_strv_length (((Dim *) s->dims->pdata[d])->values);
    int line = (int) (s->head + 2 + r);
    int file_line = sweep_grid_point_line (s->file, row);
    guint n = n_file_keys (s);
    g_autofree const char **want = g_new0 (const char *, n + 1);
    g_autoptr (GPtrArray) fields = csv_split (s->lines[s->head + 1 + r]);
    sweep_grid_values (s->file, row, want);
    for (guint k = 0; k < n; k++) {
        const char *got = fields->pdata[1 + k], *key = s->file_keys[k];
        if (strcmp (want[k], got) == 0)
            continue;
        g_autofree char *quoted = quote_start (digest_ok ? want[k] : got, 40);
        return digest_ok
                   ? fail (error, s->file_name, file_line, "%s = %s, but "
                           "point %" G_GUINT64_FORMAT " of the sweep had %s = "
                           "'%s' (%s:%d, which its digest vouches for): not "
                           "the sweep's points file, or edited since", key,
                           quoted, point, key, got, s->name, line)
                   : fail (error, s->name, line, "%s = %s, but point %"
                           G_GUINT64_FORMAT " of the sweep has %s = '%s' "
                           "(%s:%d)", key, quoted, point, key, want[k],
                           s->file_name, file_line);
    }
    return TRUE;
}

/* The points file's values: the shard cannot carry the file, only the
 * digest of its values in these rows; so an edited one is told, but not
 * where, unless the file is given too (check_file_row). */
static gboolean
check_digest (const Shard *s, GChecksum *sum, GError **error)
{
    if (s->file_keys == NULL)
        return TRUE;
    gboolean ok = strcmp (g_checksum_get_string (sum), s->digest) == 0;
    for (guint r = 0; s->file != NULL && r < s->n_rows; r++)
        if (!check_file_row (s, r, ok, error))
            return FALSE;
    if (ok)
        return TRUE;
    g_autofree char *keys = g_strjoinv (",", s->file_keys);
    if (s->file != NULL)
        return fail (error, s->name, 0, "its values of the points file's "
                     "columns (%s) are those of %s, but not of its sweep's "
                     "points (their digest is not its points line's): were "
                     "both edited?", keys, s->file_name);
    return fail (error, s->name, 0, "its values of the points file's columns "
                 "(%s) are not those of its sweep's points (their digest is "
                 "not its points line's): a row edited? (--points FILE names "
                 "it)", keys);
}

static gboolean
check_rows (const Shard *s, GError **error)
{
    g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
    for (guint r = 0; r < s->n_rows; r++)
        if (!check_row (s, r, sum, error))
            return FALSE;
    if (s->n_rows != expected_rows (s))
        return fail (error, s->name, 0, "%u rows where shard %u/%u of %"
                     G_GUINT64_FORMAT " points has %" G_GUINT64_FORMAT
                     " (an unfinished shard?)", s->n_rows, s->index, s->count,
                     s->points, expected_rows (s));
    return check_digest (s, sum, error);
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
    if (!parse_shard_line (s, error) || !parse_grid (s, n, error))
        return FALSE;
    g_autoptr (GPtrArray) header = csv_split (s->lines[s->head]);
    s->n_rows = n - s->head - 1;
    s->n_columns = header->len;
    return check_columns (s, error) && check_count (s, error) &&
           check_points_file (s, error) && check_rows (s, error);
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
        if (strcmp (s->lines[s->head], a->lines[a->head]) != 0)
            return fail (error, s->name, (int) s->head + 1, "its header "
                         "differs from %s's (another sweep)", a->name);
        if (strcmp (s->fingerprint, a->fingerprint) != 0)
            return fail (error, s->name, 1, "a shard of another sweep than "
                         "%s (their fingerprints differ: another GPU, or "
                         "other values of the keys)", a->name);
        if (strcmp (s->grid, a->grid) != 0)
            return fail (error, s->name, 2, "its grid lines differ from %s's, "
                         "though their fingerprints agree (an edited shard?)",
                         a->name);
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
                   const char *points_name, const char *points_text,
                   GString *out, GError **error)
{
    g_autoptr (GArray) shards = g_array_new (FALSE, TRUE, sizeof (Shard));
    g_autoptr (SweepGrid) file = NULL;
    g_array_set_clear_func (shards, shard_clear);
    g_array_set_size (shards, n);
    Shard *s = (Shard *) (void *) shards->data;
    if (n == 0)
        return fail (error, "merge", 0, "no shard files given");
    if (points_name != NULL) {
        file = sweep_grid_new ();
        if (!sweep_grid_add_points (file, points_name, points_text, error))
            return FALSE;
    }
    for (guint i = 0; i < n; i++) {
        s[i].file = file;
        s[i].file_name = points_name;
        if (!read_shard (&s[i], names[i], texts[i], error))
            return FALSE;
    }
    if (!check_set (s, n, error))
        return FALSE;
    g_autofree const Shard **order = g_new0 (const Shard *, s[0].count);
    for (guint i = 0; i < s[0].count; i++)
        order[i] = shard_of (s, n, i + 1);
    g_string_append_printf (out, "%s\n", s[0].lines[s[0].head]);
    for (guint64 p = 0; p < s[0].points; p++) {
        const Shard *from = order[p % s[0].count];
        g_string_append_printf (out, "%s\n",
                                from->lines[from->head + 1 + p / s[0].count]);
    }
    return TRUE;
}

gboolean
sweep_merge_files (const char *const *paths, const char *points_path,
                   GString *out, GError **error)
{
    guint n = g_strv_length ((GStrv) paths);
    g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
    g_autofree char *points = NULL;
    for (guint i = 0; i < n; i++) {
        char *text = NULL;
        gboolean ok = textfile_read_text (paths[i], "a shard", &text, NULL,
                                          error);
        g_ptr_array_add (texts, text);
        if (!ok)
            return FALSE;
    }
    if (points_path != NULL &&
        !textfile_read_text (points_path, "a points file", &points, NULL,
                             error))
        return FALSE;
    return sweep_merge_texts (n, paths, (const char *const *) texts->pdata,
                              points_path, points, out, error);
}
