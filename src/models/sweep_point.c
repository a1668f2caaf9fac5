/*
 * sweep_point.c -- run one point of a sweep.  See sweep_point.h.
 */
#include "config.h"

#include <string.h>

#include "models/csv.h"
#include "models/kern.h"
#include "models/num.h"
#include "models/occ.h"
#include "models/run.h"
#include "models/sweep_point.h"

/* What the point's values say, in the types the models take. */
typedef struct {
    GPtrArray *overrides;       /* "group.key=value", NULL-terminated */
    GPtrArray *params;          /* "NAME=value", NULL-terminated */
    const KernModel *model;     /* or NULL */
    gint64 size;
    OccLaunch launch;           /* -1 in a field: not given */
} Point;

static void
point_clear (Point *p)
{
    g_clear_pointer (&p->overrides, g_ptr_array_unref);
    g_clear_pointer (&p->params, g_ptr_array_unref);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Point, point_clear)

/* The values were checked before any point ran (sweep.c): parsing them
 * again cannot fail. */
static gint64
int_of (const char *text)
{
    gint64 v = 0;
    gboolean ok = num_parse_int (text, &v);
    g_assert (ok);
    return v;
}

static void
resolve (const SweepKey *keys, const char *const *values, guint n, Point *p)
{
    OccLaunch none = { -1, -1, -1, -1, -1 };
    p->overrides = g_ptr_array_new_with_free_func (g_free);
    p->params = g_ptr_array_new_with_free_func (g_free);
    p->launch = none;
    p->size = -1;
    for (guint i = 0; i < n; i++) {
        const char *v = values[i];
        switch (keys[i].kind) {
        case SWEEP_KEY_PRESET:
            g_ptr_array_add (p->overrides,
                             g_strdup_printf ("%s=%s", keys[i].name, v));
            break;
        case SWEEP_KEY_PARAM:
            g_ptr_array_add (p->params,
                             g_strdup_printf ("%s=%s", keys[i].param, v));
            break;
        case SWEEP_KEY_KERNEL: p->model = kern_find (v); break;
        case SWEEP_KEY_SIZE: p->size = int_of (v); break;
        case SWEEP_KEY_REGS: p->launch.regs_per_thread = int_of (v); break;
        case SWEEP_KEY_SMEM: p->launch.static_smem_bytes = int_of (v); break;
        case SWEEP_KEY_THREADS: p->launch.threads_per_block = int_of (v); break;
        case SWEEP_KEY_DYN_SMEM: p->launch.dyn_smem_bytes = int_of (v); break;
        case SWEEP_KEY_CARVEOUT: p->launch.carveout_pct = (int) int_of (v); break;
        }
    }
    g_ptr_array_add (p->overrides, NULL);
    g_ptr_array_add (p->params, NULL);
}

/* ------------------------------------------------------------------ */
/* Fields                                                              */

static void
add_double (GString *row, double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append_c (row, ',');
    g_string_append (row, g_ascii_formatd (buf, sizeof buf, "%.6g", v));
}

static void
add_fixed2 (GString *row, double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append_c (row, ',');
    g_string_append (row, g_ascii_formatd (buf, sizeof buf, "%.2f", v));
}

static void
add_uint (GString *row, guint64 v)
{
    g_string_append_printf (row, ",%" G_GUINT64_FORMAT, v);
}

static void
add_text (GString *row, const char *text)
{
    g_string_append_c (row, ',');
    csv_append_field (row, text);
}

static guint
count_columns (const char *columns)
{
    guint n = 1;
    for (const char *c = columns; *c; c++)
        n += *c == ',';
    return n;
}

/* Empty results, then the message: on one line (rows are lines), and
 * with a preset file named without its directory ("/usr/share/smsim/
 * presets/a100.ini:65: ..." -> "a100.ini:65: ", SMSIM_PRESET_DIR's
 * relative "presets/a100.ini" too), wherever the
 * message names a file of it (a rule of two keys names a second line),
 * so the same sweep writes the same bytes on every machine. */
static void
add_error (GString *row, SweepMode mode, const char *message)
{
    const char *colon = strchr (message, ':');
    g_autofree char *path = colon && memchr (message, G_DIR_SEPARATOR,
                                             (gsize) (colon - message))
                                ? g_strndup (message, (gsize) (colon - message))
                                : NULL;
    g_autofree char *dir = path ? g_path_get_dirname (path) : NULL;
    g_autoptr (GString) line = g_string_new (message);
    if (dir != NULL) {
        g_autofree char *prefix = g_strconcat (dir, G_DIR_SEPARATOR_S, NULL);
        g_string_replace (line, prefix, "", 0);
    }
    g_strdelimit (line->str, "\r\n", ' ');
    for (guint i = 1; i < count_columns (sweep_point_columns (mode)); i++)
        g_string_append_c (row, ',');
    add_text (row, line->str);
}

/* ------------------------------------------------------------------ */
/* Occupancy mode                                                      */

static const char occupancy_columns[] =
    "blocks_per_sm,warps_per_sm,occupancy,limiter,textbook_occupancy,error";

static void
occ_fields (const GpuSpec *spec, const OccLaunch *l, GString *row)
{
    OccResult r;
    OccTextbook t;
    g_autoptr (GError) error = NULL;
    char limiter[64];
    occ_compute (spec, l, &r);
    if (!occ_check (spec, l, &r, &error)) {
        add_error (row, SWEEP_MODE_OCCUPANCY, error->message);
        return;
    }
    occ_textbook (spec, l, &t);
    /* As `smsim occupancy --batch` prints them. */
    g_string_append_printf (row, ",%d,%d", r.blocks_per_sm, r.warps_per_sm);
    add_fixed2 (row, r.occupancy_pct);
    add_text (row, occ_limiter_name (r.limiter, limiter, sizeof limiter));
    add_fixed2 (row, t.occupancy_pct);
    g_string_append_c (row, ',');
}

/* A kernel model's launch, or the launch keys alone, then the keys
 * given override the model's. */
static gboolean
occ_launch (const GpuSpec *spec, const Point *p, OccLaunch *l, GError **error)
{
    OccLaunch base = { 0, 0, 0, 0, -1 };
    if (p->model != NULL) {
        g_autoptr (KernInstance) k = kern_instance_new (
            p->model, spec, p->size, (const char *const *) p->params->pdata,
            error);
        if (k == NULL)
            return FALSE;
        base.threads_per_block = k->threads;
        base.regs_per_thread = k->regs;
        base.static_smem_bytes = k->static_smem;
        base.dyn_smem_bytes = k->dyn_smem;
    }
#define PICK(f) l->f = p->launch.f >= 0 ? p->launch.f : base.f
    PICK (threads_per_block);
    PICK (regs_per_thread);
    PICK (static_smem_bytes);
    PICK (dyn_smem_bytes);
    PICK (carveout_pct);
#undef PICK
    return TRUE;
}

static void
eval_occupancy (const GpuSpec *spec, const Point *p, GString *row)
{
    OccLaunch l;
    g_autoptr (GError) error = NULL;
    if (!occ_launch (spec, p, &l, &error))
        add_error (row, SWEEP_MODE_OCCUPANCY, error->message);
    else
        occ_fields (spec, &l, row);
}

/* ------------------------------------------------------------------ */
/* Run mode: the keys of `smsim run --format json` (cmd-run.c), less     */
/* gpu, kernel and size (the point's own columns), stalls flattened.    */

static const char *
run_columns (void)
{
    static gsize once = 0;
    static char *columns;
    if (g_once_init_enter (&once)) {
        GString *s = g_string_new ("cycles,time_ms,gflops,"
                                   "theoretical_occupancy,achieved_occupancy,"
                                   "warp_instructions");
        for (int i = 0; i < STALL_N; i++)
            g_string_append_printf (s, ",stalls.%s",
                                    stats_stall_name ((StallReason) i));
        g_string_append (s, ",l1_hit_rate,l2_hit_rate,dram_bytes,"
                            "l1_gbs,l2_gbs,dram_gbs,smem_bank_conflicts,limiter,sampled,"
                            "window_iterations,waves,error");
        columns = g_string_free (s, FALSE);
        g_once_init_leave (&once, 1);
    }
    return columns;
}

static void
run_fields (const GpuSpec *spec, const RunResult *r, GString *row)
{
    char limit[256];
    add_uint (row, r->cycles);
    add_double (row, r->time_ms);
    add_double (row, r->gflops);
    add_double (row, r->occ.occupancy_pct);
    add_double (row, r->achieved_occupancy_pct);
    add_uint (row, r->stats.warp_instructions);
    for (int i = 0; i < STALL_N; i++)
        add_double (row, stats_per_issue (&r->stats, (StallReason) i));
    add_double (row, r->l1_hit_rate);
    add_double (row, r->l2_hit_rate);
    add_uint (row, r->dram_bytes);
    add_double (row, r->l1_gbs);
    add_double (row, r->l2_gbs);
    add_double (row, r->dram_gbs);
    add_uint (row, r->mem.smem_conflicts);
    run_limiter (spec, r, limit, sizeof limit);
    add_text (row, limit);
    add_text (row, r->sampled ? "true" : "false");
    add_uint (row, r->window);
    add_uint (row, r->waves);
    g_string_append_c (row, ',');
}

static void
eval_run (const GpuSpec *spec, const Point *p, GString *row)
{
    RunOptions o = { p->launch.regs_per_thread, p->launch.static_smem_bytes,
                     RUN_AUTO, 0, 0, NULL, NULL, 1 };
    RunResult r;
    g_autoptr (GError) error = NULL;
    g_autoptr (KernInstance) k = kern_instance_new (
        p->model, spec, p->size, (const char *const *) p->params->pdata,
        &error);
    if (k == NULL || !run_kernel (spec, k, &o, &r, &error))
        add_error (row, SWEEP_MODE_RUN, error->message);
    else
        run_fields (spec, &r, row);
}

/* ------------------------------------------------------------------ */
/* Checking a row read back (a journal's)                              */

typedef enum {
    FIELD_DECIMAL, FIELD_WHOLE, FIELD_BOOL, FIELD_TEXT,
    FIELD_PERCENT,          /* a share of the SM's warp slots, 0 to 100 */
    FIELD_OCC_LIMITER       /* occ_limiter_name's: occupancy mode's limiter */
} FieldKind;

/* The columns that are not any decimal (add_double, add_fixed2): the
 * counts add_uint and occ_fields write, sampled, the text ones and the
 * percentages. */
static const struct {
    const char *column;
    FieldKind kind;
} not_decimal[] = {
    { "cycles", FIELD_WHOLE }, { "warp_instructions", FIELD_WHOLE },
    { "dram_bytes", FIELD_WHOLE }, { "smem_bank_conflicts", FIELD_WHOLE },
    { "window_iterations", FIELD_WHOLE }, { "waves", FIELD_WHOLE },
    { "blocks_per_sm", FIELD_WHOLE }, { "warps_per_sm", FIELD_WHOLE },
    { "sampled", FIELD_BOOL }, { "limiter", FIELD_TEXT },
    { "error", FIELD_TEXT },
    /* The occupancy calculator's, which no launch takes past 100 (the
     * achieved one is a measure of the run's, left a plain decimal). */
    { "occupancy", FIELD_PERCENT }, { "textbook_occupancy", FIELD_PERCENT },
    { "theoretical_occupancy", FIELD_PERCENT },
};

static FieldKind
kind_of (SweepMode mode, const char *column)
{
    /* Run mode's limiter is a sentence (run_limiter); occupancy mode's
     * names the resources that bind, from a fixed set. */
    if (mode == SWEEP_MODE_OCCUPANCY && strcmp (column, "limiter") == 0)
        return FIELD_OCC_LIMITER;
    for (guint i = 0; i < G_N_ELEMENTS (not_decimal); i++)
        if (strcmp (not_decimal[i].column, column) == 0)
            return not_decimal[i].kind;
    return FIELD_DECIMAL;
}

static const char *
skip_digits (const char *c)
{
    while (g_ascii_isdigit (*c))
        c++;
    return c;
}

/* [-]D[.D][e[+-]D]: what g_ascii_formatd writes of a finite double;
 * and of the others, which no result should be but which a row written
 * with one must still read back as written. */
static gboolean
is_decimal (const char *text)
{
    const char *c = text + (*text == '-');
    if (strcmp (c, "inf") == 0 || strcmp (c, "nan") == 0)
        return TRUE;
    const char *end = skip_digits (c);
    if (end == c)
        return FALSE;
    if (*end == '.') {
        c = end + 1;
        end = skip_digits (c);
        if (end == c)
            return FALSE;
    }
    if (*end == 'e') {
        c = end + 1 + (end[1] == '+' || end[1] == '-');
        end = skip_digits (c);
        if (end == c)
            return FALSE;
    }
    return *end == '\0';
}

static gboolean
is_whole (const char *text)
{
    guint64 v;
    return num_parse_uint (text, &v);
}

/* One of the names occ_limiter_name gives, for some set of the four
 * OccLimit bits. */
static gboolean
is_occ_limiter (const char *text)
{
    char name[64];
    for (unsigned bits = 0; bits < OCC_LIMITER_SMEM << 1; bits++)
        if (strcmp (occ_limiter_name (bits, name, sizeof name), text) == 0)
            return TRUE;
    return FALSE;
}

/* What is wrong with 'value' as a field of 'kind', or NULL. */
static const char *
field_fault (FieldKind kind, const char *value)
{
    switch (kind) {
    case FIELD_WHOLE:
        return is_whole (value) ? NULL : "not a whole number";
    case FIELD_DECIMAL:
        return is_decimal (value) ? NULL : "not a decimal number";
    case FIELD_BOOL:
        return strcmp (value, "true") == 0 || strcmp (value, "false") == 0
                   ? NULL : "not true or false";
    case FIELD_PERCENT:
        if (!is_decimal (value))
            return "not a decimal number";
        double pct = g_ascii_strtod (value, NULL);
        return pct >= 0 && pct <= 100 ? NULL : "not a percentage (0 to 100)";
    case FIELD_TEXT:
        /* smsim's messages and limiter sentences are UTF-8; a byte
         * that is not came from an edit or a corruption. */
        return g_utf8_validate (value, -1, NULL) ? NULL : "not UTF-8 text";
    case FIELD_OCC_LIMITER:
        return is_occ_limiter (value) ? NULL : "not a limiter (registers, "
               "shared_mem, warps, blocks, joined by '+' in that order, or "
               "none)";
    }
    g_assert_not_reached ();
}

gboolean
sweep_point_check (SweepMode mode, const char *const *results, guint n,
                   char **why)
{
    g_auto (GStrv) columns = g_strsplit (sweep_point_columns (mode), ",", -1);
    guint n_columns = g_strv_length (columns);
    if (n != n_columns) {
        *why = g_strdup_printf ("%u results where the sweep has %u", n,
                                n_columns);
        return FALSE;
    }
    gboolean failed = *results[n - 1] != '\0';     /* error is last */
    for (guint i = 0; i < n; i++) {
        const char *fault = failed && i + 1 < n
                                ? (*results[i] ? "a row with an error has "
                                                 "no results" : NULL)
                                : field_fault (kind_of (mode, columns[i]),
                                               results[i]);
        if (fault != NULL) {
            *why = g_strdup_printf ("column %s = '%s': %s", columns[i],
                                    results[i], fault);
            return FALSE;
        }
    }
    return TRUE;
}

gboolean
sweep_point_check_text (SweepMode mode, const char *text, char **why)
{
    g_autoptr (GPtrArray) fields = csv_split (text);
    if (!sweep_point_check (mode, (const char *const *) fields->pdata,
                            fields->len, why))
        return FALSE;
    /* The split reads past spaces and quotes, which a copy keeps. */
    g_autoptr (GString) again = g_string_new (NULL);
    for (guint i = 0; i < fields->len; i++) {
        if (i > 0)
            g_string_append_c (again, ',');
        csv_append_field (again, fields->pdata[i]);
    }
    if (strcmp (text, again->str) == 0)
        return TRUE;
    *why = g_strdup_printf ("results '%s' not as the sweep writes them "
                            "('%s')", text, again->str);
    return FALSE;
}

gboolean
sweep_point_mode_of (const char *columns, SweepMode *mode)
{
    static const SweepMode modes[] = { SWEEP_MODE_RUN, SWEEP_MODE_OCCUPANCY };
    for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
        if (strcmp (columns, sweep_point_columns (modes[i])) == 0) {
            *mode = modes[i];
            return TRUE;
        }
    return FALSE;
}

/* ------------------------------------------------------------------ */

const char *
sweep_point_columns (SweepMode mode)
{
    return mode == SWEEP_MODE_RUN ? run_columns () : occupancy_columns;
}

void
sweep_point_eval (SweepCache *cache, SweepMode mode, const SweepKey *keys,
                  const char *const *values, guint n_keys, GString *row)
{
    g_auto (Point) p = { 0 };
    g_autoptr (GError) error = NULL;
    resolve (keys, values, n_keys, &p);
    const GpuSpec *spec = sweep_cache_spec (
        cache, (const char *const *) p.overrides->pdata, &error);
    if (spec == NULL)
        add_error (row, mode, error->message);
    else if (mode == SWEEP_MODE_RUN)
        eval_run (spec, &p, row);
    else
        eval_occupancy (spec, &p, row);
}
