/*
 * valcsv.c -- read a validate CSV.  See valcsv.h.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/valcsv.h"
#include "models/csv.h"
#include "models/fig.h"
#include "models/num.h"
#include "models/ref.h"
#include "models/textfile.h"

enum { COL_GPU, COL_KERNEL, COL_SIM, COL_REF, COL_ERR, N_COLS };
static const char *const col_names[N_COLS] = {
    "gpu", "kernel", "simulated_gflops", "reference_gflops", "error_pct"
};

typedef struct {
    int col[N_COLS];
    int col_size;       /* or -1: not needed, but checked where given */
    guint n_fields;
} Header;

/* The field of 'f' named 'name', or -1; FALSE, saying so, if two are:
 * which one counts would be left to chance. */
static gboolean
find_column (const GPtrArray *f, const char *name, int *col, char **why)
{
    *col = -1;
    for (guint i = 0; i < f->len; i++) {
        if (strcmp (f->pdata[i], name) != 0)
            continue;
        if (*col >= 0) {
            *why = g_strdup_printf ("the header names '%s' twice (fields %d "
                                    "and %u)", name, *col + 1, i + 1);
            return FALSE;
        }
        *col = (int) i;
    }
    return TRUE;
}

static gboolean
read_header (const char *line, Header *h, char **why)
{
    g_autoptr (GPtrArray) f = csv_split (line);
    h->n_fields = f->len;
    if (!find_column (f, "size", &h->col_size, why))
        return FALSE;
    for (int c = 0; c < N_COLS; c++) {
        if (!find_column (f, col_names[c], &h->col[c], why))
            return FALSE;
        if (h->col[c] < 0) {
            *why = g_strdup_printf ("the header has no '%s' column (`smsim "
                                    "validate --format csv` writes gpu,kernel,"
                                    "size,simulated_gflops,reference_gflops,"
                                    "error_pct,source)", col_names[c]);
            return FALSE;
        }
    }
    return TRUE;
}

/* A finite number; an empty field is NAN when 'empty_ok'. */
static gboolean
number (const char *text, const char *column, gboolean empty_ok, double *out,
        char **why)
{
    if (*text == '\0' && empty_ok) {
        *out = NAN;
        return TRUE;
    }
    /* Decimal, as validate writes it: strtod would take 0x1p10 too. */
    if (num_parse_double (text, out))
        return TRUE;
    *why = g_strdup_printf ("%s = '%s': not a number in decimal", column, text);
    return FALSE;
}

static gboolean
kernel_number (const char *text, int *out, char **why)
{
    char *end = NULL;
    gint64 n = g_str_has_prefix (text, "sgemm-")
                   ? g_ascii_strtoll (text + 6, &end, 10) : 0;
    if (end != NULL && end != text + 6 && *end == '\0' && n >= 1 && n <= 99) {
        *out = (int) n;
        return TRUE;
    }
    *why = g_strdup_printf ("kernel = '%s': expected sgemm-N", text);
    return FALSE;
}

/* The published figure the row stands beside: validate writes a row
 * for each (gpu, kernel) that has one, at its size, and the figure
 * draws those; a row of another GPU, kernel or size would vanish from
 * it or be drawn under the wrong title. */
static gboolean
check_published (const FigValidRow *row, const char *size,
                 const RefRow **published, char **why)
{
    guint n;
    const RefRow *ref = ref_rows (&n);
    for (guint i = 0; i < n; i++) {
        if (ref[i].kernel != row->kernel || strcmp (ref[i].gpu, row->gpu) != 0)
            continue;
        g_autofree char *want = g_strdup_printf ("%d", ref[i].size);
        *published = &ref[i];
        if (size == NULL || strcmp (size, want) == 0)
            return TRUE;
        *why = g_strdup_printf ("size = '%s', but the published %s sgemm-%d "
                                "figure the table is checked against is at "
                                "%s", size, row->gpu, row->kernel, want);
        return FALSE;
    }
    *why = g_strdup_printf ("%s sgemm-%d: no published figure in smsim's "
                            "reference table to stand beside (the figure "
                            "draws the a6000 and a100 tables; a what-if's, "
                            "from validate --config, carries its own name)",
                            row->gpu, row->kernel);
    return FALSE;
}

/* Half a unit in the last place 'text' (a number) was written to:
 * 0.05 for "291.2", 0.005 for "-5.76", 0.0005 for "1e-3". */
static double
half_ulp (const char *text)
{
    const char *e = strpbrk (text, "eE");
    const char *dot = strchr (text, '.');
    gint64 exp = e != NULL ? g_ascii_strtoll (e + 1, NULL, 10) : 0;
    gint64 decimals = dot != NULL && (e == NULL || dot < e)
                          ? (e != NULL ? e : text + strlen (text)) - dot - 1
                          : 0;
    return 0.5 * pow (10, (double) (exp - decimals));
}

/* error_pct must be what the two GFLOP/s columns give, to the
 * rounding of the three as written (validate writes 0.1 GFLOP/s and
 * 0.01 %): a table edited by hand can contradict itself, and the bar
 * would then show a number its two bars do not. */
static gboolean
check_error (const FigValidRow *row, char *const *v, const Header *h,
             char **why)
{
    double sim = row->simulated_gflops, ref = row->reference_gflops;
    double want = 100.0 * (sim - ref) / ref;
    double slack = 100.0 * (half_ulp (v[h->col[COL_SIM]]) / ref +
                            sim * half_ulp (v[h->col[COL_REF]]) / (ref * ref)) +
                   half_ulp (v[h->col[COL_ERR]]);
    if (fabs (row->error_pct - want) <= slack * (1 + 1e-6) + 1e-9)
        return TRUE;
    *why = g_strdup_printf ("error_pct = %s, but simulated_gflops = %s and "
                            "reference_gflops = %s give %.2f (100 x "
                            "(simulated - reference) / reference)",
                            v[h->col[COL_ERR]], v[h->col[COL_SIM]],
                            v[h->col[COL_REF]], want);
    return FALSE;
}

/* reference_gflops is the published figure, to the rounding it is
 * written to: the figure draws it as that figure, beside the GPU's
 * cuBLAS (a table of one GPU's rows relabelled as the other's drew
 * the first's figures under the second's name). */
static gboolean
check_reference (const FigValidRow *row, const RefRow *published,
                 const char *text, char **why)
{
    if (fabs (row->reference_gflops - published->gflops) <=
        half_ulp (text) * (1 + 1e-6) + 1e-9)
        return TRUE;
    *why = g_strdup_printf ("reference_gflops = %s, but the published %s "
                            "sgemm-%d figure is %.1f (smsim's reference "
                            "table)", text, row->gpu, row->kernel,
                            published->gflops);
    return FALSE;
}

static gboolean
read_row (const Header *h, const char *line, FigValidRow *row, char **why)
{
    g_autoptr (GPtrArray) f = csv_split (line);
    char **v = (char **) f->pdata;
    double err;
    if (f->len != h->n_fields) {
        *why = g_strdup_printf ("%u fields where the header has %u", f->len,
                                h->n_fields);
        return FALSE;
    }
    const char *gpu = v[h->col[COL_GPU]];
    if (*gpu == '\0' || strlen (gpu) >= sizeof row->gpu) {
        *why = g_strdup_printf ("gpu = '%s': expected a preset name", gpu);
        return FALSE;
    }
    g_strlcpy (row->gpu, gpu, sizeof row->gpu);
    if (!kernel_number (v[h->col[COL_KERNEL]], &row->kernel, why) ||
        !number (v[h->col[COL_SIM]], "simulated_gflops", TRUE,
                 &row->simulated_gflops, why) ||
        !number (v[h->col[COL_REF]], "reference_gflops", FALSE,
                 &row->reference_gflops, why) ||
        !number (v[h->col[COL_ERR]], "error_pct", TRUE, &err, why))
        return FALSE;
    row->modeled = !isnan (row->simulated_gflops);
    row->error_pct = row->modeled ? err : 0;
    /* Both or neither: an error without a figure is drawn as neither. */
    if (row->modeled != !isnan (err)) {
        *why = g_strdup (row->modeled
                             ? "error_pct is empty but simulated_gflops is not"
                             : "simulated_gflops is empty but error_pct is "
                               "not");
        return FALSE;
    }
    if (row->reference_gflops <= 0) {
        *why = g_strdup_printf ("reference_gflops = %s: must be positive",
                                v[h->col[COL_REF]]);
        return FALSE;
    }
    const RefRow *published = NULL;
    return check_published (row, h->col_size >= 0 ? v[h->col_size] : NULL,
                            &published, why) &&
           check_reference (row, published, v[h->col[COL_REF]], why) &&
           (!row->modeled || check_error (row, v, h, why));
}

/* A GPU's kernel once: two rows for it would draw two bars in one
 * place.  'seen' maps "gpu sgemm-N" to the line it was first on. */
static gboolean
check_unique (GHashTable *seen, const FigValidRow *row, guint line,
              char **why)
{
    g_autofree char *key = g_strdup_printf ("%s sgemm-%d", row->gpu,
                                            row->kernel);
    guint first = GPOINTER_TO_UINT (g_hash_table_lookup (seen, key));
    if (first != 0) {
        *why = g_strdup_printf ("%s again (first on line %u)", key, first);
        return FALSE;
    }
    g_hash_table_insert (seen, g_steal_pointer (&key), GUINT_TO_POINTER (line));
    return TRUE;
}

static guint
count_lines (const char *text)
{
    guint n = 1;
    for (const char *p = text; *p != '\0'; p++)
        n += *p == '\n';
    return n;
}

GArray *
valcsv_read (const char *path, GError **error)
{
    g_autofree char *text = NULL;
    g_autofree char *why = NULL;
    Header h = { { 0 }, -1, 0 };
    gsize length;
    if (!textfile_read_text (path, "a validation CSV", &text, &length, error))
        return NULL;
    /* validate ends every row with a line break: a last row without one
     * is a file cut short, the kernels after it missing, the row itself
     * perhaps cut inside its source, which nothing else would tell. */
    if (length > 0 && text[length - 1] != '\n') {
        g_set_error (error, SMSIM_FIG_ERROR, FIG_ERROR_INPUT,
                     "%s:%u: the last line has no line break: a file cut "
                     "short? (`smsim validate --format csv` ends every "
                     "row with one)", path, count_lines (text));
        return NULL;
    }
    g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
    g_autoptr (GArray) rows = g_array_new (FALSE, TRUE, sizeof (FigValidRow));
    g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash,
                                                         g_str_equal, g_free,
                                                         NULL);
    gboolean header = FALSE;
    for (guint i = 0; lines[i] != NULL; i++) {
        g_strchomp (lines[i]);
        if (*lines[i] == '\0')
            continue;
        FigValidRow row = { { 0 }, 0, FALSE, 0, 0, 0 };
        if (csv_unclosed_quote (lines[i]))
            why = g_strdup ("a quote left open (the line ends inside a "
                            "quoted field)");
        else if (!header ? read_header (lines[i], &h, &why)
                    : read_row (&h, lines[i], &row, &why) &&
                          check_unique (seen, &row, i + 1, &why)) {
            if (header)
                g_array_append_val (rows, row);
            header = TRUE;
            continue;
        }
        g_set_error (error, SMSIM_FIG_ERROR, FIG_ERROR_INPUT, "%s:%u: %s",
                     path, i + 1, why);
        return NULL;
    }
    if (rows->len == 0) {
        g_set_error (error, SMSIM_FIG_ERROR, FIG_ERROR_INPUT,
                     "%s: no rows (expected `smsim validate --format csv` "
                     "output)", path);
        return NULL;
    }
    return g_steal_pointer (&rows);
}
