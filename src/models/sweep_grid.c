/*
 * sweep_grid.c -- points of a sweep: a points file times a grid.
 * See sweep_grid.h.
 */
#include "config.h"

#include <string.h>

#include "models/csv.h"
#include "models/num.h"
#include "models/sweep_grid.h"

typedef struct {
    GStrv values;
    int line;
} FileRow;

struct SweepGrid {
    GArray *keys;       /* SweepKey: the file's, then the --vary ones */
    guint n_file_keys;  /* 0 without a points file */
    char *file_name;
    GArray *rows;       /* FileRow */
    GPtrArray *dims;    /* GStrv per --vary key */
};

static void
file_row_clear (gpointer data)
{
    g_strfreev (((FileRow *) data)->values);
}

static void
key_clear (gpointer data)
{
    sweep_key_clear (data);
}

SweepGrid *
sweep_grid_new (void)
{
    SweepGrid *g = g_new0 (SweepGrid, 1);
    g->keys = g_array_new (FALSE, TRUE, sizeof (SweepKey));
    g_array_set_clear_func (g->keys, key_clear);
    g->rows = g_array_new (FALSE, TRUE, sizeof (FileRow));
    g_array_set_clear_func (g->rows, file_row_clear);
    g->dims = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
    return g;
}

void
sweep_grid_free (SweepGrid *g)
{
    if (g == NULL)
        return;
    g_array_unref (g->keys);
    g_array_unref (g->rows);
    g_ptr_array_unref (g->dims);
    g_free (g->file_name);
    g_free (g);
}

guint
sweep_grid_n_keys (const SweepGrid *g)
{
    return g->keys->len;
}

const SweepKey *
sweep_grid_key (const SweepGrid *g, guint column)
{
    return &g_array_index (g->keys, SweepKey, column);
}

int
sweep_grid_find (const SweepGrid *g, const char *name)
{
    for (guint i = 0; i < g->keys->len; i++)
        if (strcmp (sweep_grid_key (g, i)->name, name) == 0)
            return (int) i;
    return -1;
}

/* Parse 'name' and append it as a column at 'at', unless it is taken. */
static gboolean
add_key (SweepGrid *g, const char *name, guint at, GError **error)
{
    SweepKey key;
    if (sweep_grid_find (g, name) >= 0) {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     "key '%s' is given twice", name);
        return FALSE;
    }
    if (!sweep_key_parse (name, &key, error))
        return FALSE;
    g_array_insert_val (g->keys, at, key);
    return TRUE;
}

gboolean
sweep_grid_parse_vary (const char *spec, char **name, char ***values,
                       GError **error)
{
    const char *eq = strchr (spec, '=');
    g_autofree char *key = eq ? g_strstrip (g_strndup (spec, (gsize) (eq - spec)))
                              : NULL;
    if (eq == NULL || *key == '\0') {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     "--vary %s: expected KEY=V1,V2,... (KEY is %s)", spec,
                     sweep_key_help ());
        return FALSE;
    }
    g_auto (GStrv) list = g_strsplit (eq + 1, ",", -1);
    for (int i = 0; list[i] != NULL; i++)
        if (*g_strstrip (list[i]) == '\0') {
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         "--vary %s: value %d is empty", spec, i + 1);
            return FALSE;
        }
    if (list[0] == NULL) {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     "--vary %s: no values", spec);
        return FALSE;
    }
    if (name != NULL)
        *name = g_steal_pointer (&key);
    if (values != NULL)
        *values = g_steal_pointer (&list);
    return TRUE;
}

gboolean
sweep_grid_add_vary (SweepGrid *g, const char *spec, GError **error)
{
    g_autofree char *name = NULL;
    g_auto (GStrv) values = NULL;
    if (!sweep_grid_parse_vary (spec, &name, &values, error))
        return FALSE;
    if (!add_key (g, name, g->keys->len, error)) {
        g_prefix_error (error, "--vary %s: ", spec);
        return FALSE;
    }
    g_ptr_array_add (g->dims, g_steal_pointer (&values));
    return TRUE;
}

static gboolean
add_file_keys (SweepGrid *g, const char *name, const GPtrArray *header,
               int lineno, GError **error)
{
    for (guint i = 0; i < header->len; i++) {
        if (!add_key (g, header->pdata[i], g->n_file_keys, error)) {
            g_prefix_error (error, "%s:%d: ", name, lineno);
            return FALSE;
        }
        g->n_file_keys++;
    }
    return TRUE;
}

/* FALSE, naming it, for a line that ends inside a quoted field. */
static gboolean
quotes_closed (const char *name, const char *line, int lineno, GError **error)
{
    if (!csv_unclosed_quote (line))
        return TRUE;
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%d: a quote "
                 "left open (the line ends inside a quoted field)", name,
                 lineno);
    return FALSE;
}

static gboolean
add_file_row (SweepGrid *g, const char *name, const char *line, int lineno,
              GError **error)
{
    g_autoptr (GPtrArray) fields = csv_split (line);
    if (!quotes_closed (name, line, lineno, error))
        return FALSE;
    if (fields->len != g->n_file_keys) {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                     "%s:%d: %u fields where the header has %u", name, lineno,
                     fields->len, g->n_file_keys);
        return FALSE;
    }
    g_ptr_array_add (fields, NULL);
    FileRow row = { (GStrv) g_ptr_array_steal (fields, NULL), lineno };
    g_array_append_val (g->rows, row);
    return TRUE;
}

gboolean
sweep_grid_add_points (SweepGrid *g, const char *name, const char *text,
                       GError **error)
{
    g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
    int first = 0;
    g_assert (g->file_name == NULL);
    g->file_name = g_strdup (name);
    for (int i = 0; lines[i] != NULL; i++)
        g_strchomp (lines[i]);    /* also a CR of CRLF files */
    while (lines[first] != NULL && *lines[first] == '\0')
        first++;
    if (lines[first] == NULL) {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                     "%s: empty (expected a header line of keys)", name);
        return FALSE;
    }
    g_autoptr (GPtrArray) header = csv_split (lines[first]);
    if (!quotes_closed (name, lines[first], first + 1, error) ||
        !add_file_keys (g, name, header, first + 1, error))
        return FALSE;
    for (int i = first + 1; lines[i] != NULL; i++)
        if (*lines[i] != '\0' && !add_file_row (g, name, lines[i], i + 1, error))
            return FALSE;
    return TRUE;
}

gboolean
sweep_grid_count (const SweepGrid *g, guint64 *n, GError **error)
{
    guint64 total = g->file_name != NULL ? g->rows->len : 1;
    for (guint d = 0; d < g->dims->len; d++) {
        guint64 len = g_strv_length (g->dims->pdata[d]);
        if (total > SWEEP_MAX_POINTS / len) {
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         "more than %" G_GUINT64_FORMAT " points",
                         SWEEP_MAX_POINTS);
            return FALSE;
        }
        total *= len;
    }
    *n = total;
    return TRUE;
}

void
sweep_grid_values (const SweepGrid *g, guint64 index, const char **values)
{
    guint n_dims = g->dims->len;
    /* The last --vary key changes fastest: peel digits from the right. */
    for (guint d = n_dims; d-- > 0;) {
        const char *const *dim = g->dims->pdata[d];
        guint64 len = g_strv_length ((GStrv) dim);
        values[g->n_file_keys + d] = dim[index % len];
        index /= len;
    }
    if (g->file_name == NULL)
        return;
    const FileRow *row = &g_array_index (g->rows, FileRow, index);
    for (guint k = 0; k < g->n_file_keys; k++)
        values[k] = row->values[k];
}

int
sweep_grid_point_line (const SweepGrid *g, guint64 index)
{
    if (g->file_name == NULL)
        return 0;
    for (guint d = 0; d < g->dims->len; d++)
        index /= g_strv_length (g->dims->pdata[d]);
    return g_array_index (g->rows, FileRow, index).line;
}

/* Where a value of 'column' was given: "FILE:LINE" ('line' of the
 * points file) or "--vary KEY". */
static char *
where_given (const SweepGrid *g, guint column, int line)
{
    if (column < g->n_file_keys)
        return g_strdup_printf ("%s:%d", g->file_name, line);
    return g_strdup_printf ("--vary %s", sweep_grid_key (g, column)->name);
}

gboolean
sweep_grid_check (const SweepGrid *g, SweepGridCheck check, void *ctx,
                  GError **error)
{
    for (guint r = 0; r < g->rows->len; r++) {
        const FileRow *row = &g_array_index (g->rows, FileRow, r);
        g_autofree char *where = where_given (g, 0, row->line);
        for (guint k = 0; k < g->n_file_keys; k++)
            if (!check (ctx, sweep_grid_key (g, k), row->values[k], where,
                        error))
                return FALSE;
    }
    for (guint d = 0; d < g->dims->len; d++) {
        const SweepKey *key = sweep_grid_key (g, g->n_file_keys + d);
        g_autofree char *where = where_given (g, g->n_file_keys + d, 0);
        for (char **v = g->dims->pdata[d]; *v != NULL; v++)
            if (!check (ctx, key, *v, where, error))
                return FALSE;
    }
    return TRUE;
}

/* How many values 'column' has: one per points file row, or its
 * --vary list's. */
static guint
n_values (const SweepGrid *g, guint column)
{
    return column < g->n_file_keys
               ? g->rows->len
               : g_strv_length (g->dims->pdata[column - g->n_file_keys]);
}

/* Value 'i' of 'column'; '*where', which it points to, is the caller's
 * to free. */
static SweepGridValue
value_at (const SweepGrid *g, guint column, guint i, char **where)
{
    SweepGridValue v = { sweep_grid_key (g, column), NULL, NULL, 0 };
    if (column < g->n_file_keys) {
        const FileRow *row = &g_array_index (g->rows, FileRow, i);
        v.value = row->values[column];
        v.line = row->line;
    } else {
        v.value = ((char **) g->dims->pdata[column - g->n_file_keys])[i];
    }
    *where = where_given (g, column, v.line);
    v.where = *where;
    return v;
}

/* Each value of 'column' once (SweepGridValue), where it is first
 * given; 'wheres' keeps the places. */
static GArray *
distinct_values (const SweepGrid *g, guint column, GPtrArray *wheres)
{
    GArray *out = g_array_new (FALSE, FALSE, sizeof (SweepGridValue));
    g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
    for (guint i = 0; i < n_values (g, column); i++) {
        char *where = NULL;
        SweepGridValue v = value_at (g, column, i, &where);
        if (!g_hash_table_add (seen, (gpointer) v.value)) {
            g_free (where);
            continue;
        }
        g_ptr_array_add (wheres, where);
        g_array_append_val (out, v);
    }
    return out;
}

gboolean
sweep_grid_check_pairs (const SweepGrid *g, guint a, guint b,
                        SweepGridPairCheck check, void *ctx, GError **error)
{
    gboolean one_row = a < g->n_file_keys && b < g->n_file_keys;
    g_autoptr (GPtrArray) wheres = g_ptr_array_new_with_free_func (g_free);
    g_autoptr (GArray) bs = one_row ? NULL : distinct_values (g, b, wheres);
    for (guint i = 0; i < n_values (g, a); i++) {
        g_autofree char *where = NULL, *where_b = NULL;
        SweepGridValue va = value_at (g, a, i, &where);
        if (one_row) {
            SweepGridValue vb = value_at (g, b, i, &where_b);
            if (!check (ctx, &va, &vb, error))
                return FALSE;
            continue;
        }
        for (guint j = 0; j < bs->len; j++)
            if (!check (ctx, &va, &g_array_index (bs, SweepGridValue, j),
                        error))
                return FALSE;
    }
    return TRUE;
}

char *
sweep_grid_points_line (guint64 rows, const char *const *keys, guint n_keys,
                        const char *digest)
{
    GString *line = g_string_new (NULL);
    g_string_append_printf (line, "# points file: %" G_GUINT64_FORMAT
                            " rows of ", rows);
    for (guint k = 0; k < n_keys; k++)
        g_string_append_printf (line, "%s%s", k > 0 ? "," : "", keys[k]);
    g_string_append_printf (line, "; values %s", digest);
    return g_string_free (line, FALSE);
}

char *
sweep_grid_vary_line (const char *key, const char *const *values)
{
    g_autofree char *list = g_strjoinv (",", (char **) values);
    return g_strdup_printf ("# vary %s=%s", key, list);
}

void
sweep_grid_digest_row (GChecksum *sum, const char *const *values, guint n)
{
    g_autoptr (GString) line = g_string_new (NULL);
    for (guint k = 0; k < n; k++) {
        if (k > 0)
            g_string_append_c (line, ',');
        csv_append_field (line, values[k]);
    }
    g_string_append_c (line, '\n');
    g_checksum_update (sum, (const guchar *) line->str, (gssize) line->len);
}

static char *
describe_points (const SweepGrid *g, guint64 first, guint64 step)
{
    g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
    g_autofree const char **values = g_new0 (const char *, g->keys->len + 1);
    g_autofree const char **keys = g_new0 (const char *, g->n_file_keys + 1);
    guint64 n = 0;
    if (!sweep_grid_count (g, &n, NULL))
        g_assert_not_reached ();    /* a sweep's grid was counted */
    for (guint64 p = first; p < n; p += step) {
        sweep_grid_values (g, p, values);
        sweep_grid_digest_row (sum, values, g->n_file_keys);
    }
    for (guint k = 0; k < g->n_file_keys; k++)
        keys[k] = sweep_grid_key (g, k)->name;
    return sweep_grid_points_line (g->rows->len, keys, g->n_file_keys,
                                   g_checksum_get_string (sum));
}

void
sweep_grid_describe (const SweepGrid *g, guint64 first, guint64 step,
                     GString *out)
{
    if (g->file_name != NULL) {
        g_autofree char *line = describe_points (g, first, step);
        g_string_append_printf (out, "%s\n", line);
    }
    for (guint d = 0; d < g->dims->len; d++) {
        g_autofree char *line = sweep_grid_vary_line (
            sweep_grid_key (g, g->n_file_keys + d)->name,
            g->dims->pdata[d]);
        g_string_append_printf (out, "%s\n", line);
    }
}

gboolean
sweep_grid_parse_shard (const char *text, guint *index, guint *count,
                        GError **error)
{
    const char *slash = strchr (text, '/');
    g_autofree char *left = slash ? g_strndup (text, (gsize) (slash - text))
                                  : NULL;
    gint64 i, n;
    if (slash == NULL || !num_parse_int (left, &i) ||
        !num_parse_int (slash + 1, &n) || n < 1 || n > G_MAXINT32 || i < 1 ||
        i > n) {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     "--shard %s: expected I/N with 1 <= I <= N, e.g. 2/4",
                     text);
        return FALSE;
    }
    *index = (guint) i;
    *count = (guint) n;
    return TRUE;
}
