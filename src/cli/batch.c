/*
 * batch.c -- occupancy for a CSV of launches.  See batch.h.
 *
 * Columns are found by name in the header, so their order is free and
 * extra columns pass through.  Rows are echoed as read (but for a
 * short or long one, or one with a quote left open: echo_row).
 */
#include "config.h"

#include <string.h>

#include "cli/batch.h"
#include "cli/cli.h"
#include "models/csv.h"
#include "models/num.h"
#include "models/occ.h"

enum { COL_REGS, COL_STATIC, COL_BLOCK, COL_DYN, COL_CARVEOUT, N_COLS };
static const char *const col_names[N_COLS] = {
    "regs", "static_smem", "block_size", "dyn_smem", "carveout"
};

typedef struct {
    int col[N_COLS];   /* field index of each column */
    int n_fields;
} Header;

/* The columns the answer adds after the row's. */
static const char *const answer_names[] = {
    "blocks_per_sm", "warps_per_sm", "occupancy", "limiter", "error"
};

static gboolean
parse_header (const char *line, const char *name, Header *h, GError **error)
{
    g_autoptr (GPtrArray) fields = csv_split (line);
    h->n_fields = (int) fields->len;
    if (csv_unclosed_quote (line)) {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     "%s:1: a quote left open: the header ends inside "
                     "a quoted field", name);
        return FALSE;
    }
    for (guint f = 0; f < fields->len; f++)
        for (guint a = 0; a < G_N_ELEMENTS (answer_names); a++)
            if (strcmp (fields->pdata[f], answer_names[a]) == 0) {
                g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                             "%s:1: the header has a column '%s' (field %u), "
                             "a name the answer's columns take", name,
                             answer_names[a], f + 1);
                return FALSE;
            }
    for (int c = 0; c < N_COLS; c++) {
        h->col[c] = -1;
        for (guint f = 0; f < fields->len; f++) {
            if (strcmp (fields->pdata[f], col_names[c]) != 0)
                continue;
            /* Two would leave which one counts to chance. */
            if (h->col[c] >= 0) {
                g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                             "%s:1: the header names '%s' twice (fields %d "
                             "and %u)", name, col_names[c], h->col[c] + 1,
                             f + 1);
                return FALSE;
            }
            h->col[c] = (int) f;
        }
        if (h->col[c] < 0) {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         "%s:1: the header has no '%s' column (it needs "
                         "regs,static_smem,block_size,dyn_smem,carveout)",
                         name, col_names[c]);
            return FALSE;
        }
    }
    return TRUE;
}

static gboolean
field_int (const GPtrArray *fields, int index, const char *column,
           gboolean empty_ok, gint64 *out, char **why)
{
    const char *text = fields->pdata[index];
    if (*text == '\0' && empty_ok) {
        *out = -1;
        return TRUE;
    }
    if (!num_parse_int (text, out)) {
        *why = g_strdup_printf ("%s = '%s': not an integer", column, text);
        return FALSE;
    }
    /* A count or size below 0 is no launch's, as on the command line
     * (exit 1 there): unreadable, not a launch that cannot run.  The
     * carveout's -1 is its default, checked with its range. */
    if (*out < 0 && !empty_ok) {
        *why = g_strdup_printf ("%s = %s: must be 0 or more", column, text);
        return FALSE;
    }
    return TRUE;
}

static gboolean
parse_row (const Header *h, const GPtrArray *f, OccLaunch *l, char **why)
{
    gint64 v[N_COLS];
    if ((int) f->len < h->n_fields) {
        *why = g_strdup_printf ("%u fields where the header has %d", f->len,
                                h->n_fields);
        return FALSE;
    }
    if ((int) f->len > h->n_fields) {
        *why = g_strdup_printf ("%u fields where the header has %d (written "
                                "back cut to %d)", f->len, h->n_fields,
                                h->n_fields);
        return FALSE;
    }
    for (int c = 0; c < N_COLS; c++)
        if (!field_int (f, h->col[c], col_names[c], c == COL_CARVEOUT, &v[c],
                        why))
            return FALSE;
    if (v[COL_CARVEOUT] < -1 || v[COL_CARVEOUT] > 100) {
        *why = g_strdup_printf ("carveout = %" G_GINT64_FORMAT ": must be "
                                "0..100, or empty or -1 for the default",
                                v[COL_CARVEOUT]);
        return FALSE;
    }
    l->regs_per_thread = v[COL_REGS];
    l->static_smem_bytes = v[COL_STATIC];
    l->threads_per_block = v[COL_BLOCK];
    l->dyn_smem_bytes = v[COL_DYN];
    l->carveout_pct = (int) v[COL_CARVEOUT];
    return TRUE;
}

/* The row as read; one that ends inside a quote field by field, quoted
 * afresh (so that its last field cannot take the output's next lines);
 * a long one cut and a short one padded to the header's width (so that
 * the answer's columns stay under their names and every row has as
 * many fields as the header). */
static void
echo_row (const char *line, int n_fields, GString *out)
{
    g_autoptr (GPtrArray) fields = csv_split (line);
    int kept = MIN ((int) fields->len, n_fields);
    if (!csv_unclosed_quote (line) && (int) fields->len <= n_fields) {
        g_string_append (out, line);
    } else {
        for (int i = 0; i < kept; i++) {
            if (i > 0)
                g_string_append_c (out, ',');
            csv_append_field (out, fields->pdata[i]);
        }
    }
    for (int i = kept; i < n_fields; i++)
        g_string_append_c (out, ',');
}

/* Append ",blocks,warps,occupancy,limiter,error" for one row, and
 * count it. */
static void
answer_row (const GpuSpec *spec, const Header *h, const char *line,
            guint lineno, GString *out, BatchCount *count)
{
    g_autoptr (GPtrArray) fields = csv_split (line);
    g_autofree char *why = NULL;
    OccLaunch launch = OCC_LAUNCH_INIT;
    OccResult r;
    g_autoptr (GError) error = NULL;
    char limiter[64];

    if (csv_unclosed_quote (line))
        why = g_strdup ("a quote left open: the line ends inside a "
                        "quoted field");
    if (why != NULL || !parse_row (h, fields, &launch, &why)) {
        g_autofree char *message = g_strdup_printf ("line %u: %s", lineno, why);
        g_string_append (out, ",,,,,");
        csv_append_field (out, message);
        count->errors++;
        count->unreadable++;
        return;
    }
    occ_compute (spec, &launch, &r);
    if (!occ_check (spec, &launch, &r, &error)) {
        g_string_append (out, ",0,0,0.00,none,");
        csv_append_field (out, error->message);
        count->errors++;
        return;
    }
    g_string_append_printf (out, ",%d,%d,%.2f,%s,", r.blocks_per_sm,
                            r.warps_per_sm, r.occupancy_pct,
                            occ_limiter_name (r.limiter, limiter, sizeof limiter));
}

/* The input's lines, read in chunks.  A line is refused at a NUL byte
 * (a C string would end the row there, dropping fields) or past
 * BATCH_MAX_LINE bytes, so that a stream with neither line breaks nor
 * an end (standard input from /dev/zero) is refused after one chunk,
 * not read until memory runs out. */
#define BATCH_MAX_LINE (1 << 20)

typedef struct {
    GInputStream *in;
    const char *name;
    GString *buf;       /* read, from 'pos' not yet returned */
    gsize pos;
    gboolean eof;
} Lines;

/* The next line without its line break (and a CR before it), NULL at
 * the end or on an error. */
static char *
read_line (Lines *l, guint lineno, GError **error)
{
    for (;;) {
        const char *start = l->buf->str + l->pos;
        gsize have = l->buf->len - l->pos;
        const char *nl = memchr (start, '\n', have);
        gsize len = nl != NULL ? (gsize) (nl - start) : have;
        if (memchr (start, '\0', len) != NULL) {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         "%s:%u: a NUL byte: a CSV is text", l->name, lineno);
            return NULL;
        }
        if (len > BATCH_MAX_LINE) {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         "%s:%u: a line of more than %d bytes: not a CSV of "
                         "launches", l->name, lineno, BATCH_MAX_LINE);
            return NULL;
        }
        if (nl != NULL || (l->eof && have > 0)) {
            char *line = g_strndup (start, len);
            l->pos += len + (nl != NULL);
            if (len > 0 && line[len - 1] == '\r')
                line[len - 1] = '\0';
            return line;
        }
        if (l->eof)
            return NULL;
        g_string_erase (l->buf, 0, (gssize) l->pos);
        l->pos = 0;
        char chunk[65536];
        GError *local = NULL;
        gssize n = g_input_stream_read (l->in, chunk, sizeof chunk, NULL,
                                        &local);
        if (n < 0) {
            g_set_error (error, local->domain, local->code, "%s: %s", l->name,
                         local->message);
            g_error_free (local);
            return NULL;
        }
        l->eof = n == 0;
        g_string_append_len (l->buf, chunk, n);
    }
}

gboolean
batch_run (const GpuSpec *spec, GInputStream *in, const char *name,
           GString *out, BatchCount *count, GError **error)
{
    g_autoptr (GString) buf = g_string_new (NULL);
    Lines lines = { in, name, buf, 0, FALSE };
    GError *local = NULL;
    Header h;
    g_autofree char *header = read_line (&lines, 1, error);
    memset (count, 0, sizeof *count);
    if (header == NULL) {
        if (error == NULL || *error == NULL)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         "%s: empty file (expected a header line)", name);
        return FALSE;
    }
    /* A spreadsheet's UTF-8 byte-order mark, which would stick to the
     * first column's name. */
    if (g_str_has_prefix (header, "\xef\xbb\xbf"))
        memmove (header, header + 3, strlen (header + 3) + 1);
    if (!parse_header (header, name, &h, error))
        return FALSE;
    g_string_append_printf (out, "%s,blocks_per_sm,warps_per_sm,occupancy,"
                                 "limiter,error\n", header);
    for (guint lineno = 2;; lineno++) {
        g_autofree char *line = read_line (&lines, lineno, &local);
        if (line == NULL)
            break;
        if (*line == '\0')
            continue;
        echo_row (line, h.n_fields, out);
        answer_row (spec, &h, line, lineno, out, count);
        count->rows++;
        g_string_append_c (out, '\n');
    }
    if (local != NULL) {
        g_propagate_error (error, local);
        return FALSE;
    }
    return TRUE;
}
