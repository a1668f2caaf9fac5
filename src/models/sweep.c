/*
 * sweep.c -- a sweep's points, checked before any runs.  See sweep.h.
 */
#include "config.h"

#include <string.h>

#include "models/csv.h"
#include "models/kern.h"
#include "models/num.h"
#include "models/pkey.h"
#include "models/preset.h"
#include "models/sweep.h"
#include "models/sweep_grid.h"
#include "models/textfile.h"

struct Sweep {
    SweepMode mode;
    SweepGrid *grid;
    SweepCache *cache;
    guint64 n_points;
    guint shard_index;          /* 1-based */
    guint shard_count;
    gboolean sharded;           /* --shard was given (even 1/1) */
    char *header;
    char *fingerprint;          /* this shard's: journals */
    char *whole_fingerprint;    /* every shard's: shard files */
};

void
sweep_free (Sweep *s)
{
    if (s == NULL)
        return;
    sweep_grid_free (s->grid);
    sweep_cache_free (s->cache);
    g_free (s->header);
    g_free (s->fingerprint);
    g_free (s->whole_fingerprint);
    g_free (s);
}

/* ------------------------------------------------------------------ */
/* The points                                                          */

/* A preset key that a points file's column and a --set both give: the
 * file's value would win without a word (the command line's --vary is
 * checked for the same before any file is read). */
static gboolean
check_points_sets (const Sweep *s, const SweepOptions *o, GError **error)
{
    for (guint i = 0; o->sets != NULL && o->sets[i] != NULL; i++) {
        g_autofree char *name = preset_set_name (o->sets[i]);
        int column = name != NULL ? sweep_grid_find (s->grid, name) : -1;
        if (column >= 0) {
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         "%s: column %s is also given by --set %s: a key is "
                         "varied or set, not both", o->points_file,
                         sweep_grid_key (s->grid, (guint) column)->name,
                         o->sets[i]);
            return FALSE;
        }
    }
    return TRUE;
}

static gboolean
build_grid (Sweep *s, const SweepOptions *o, GError **error)
{
    s->grid = sweep_grid_new ();
    if (o->points_file != NULL) {
        g_autofree char *text = NULL;
        if (!textfile_read_text (o->points_file, "a points file", &text,
                                 NULL, error) ||
            !sweep_grid_add_points (s->grid, o->points_file, text, error) ||
            !check_points_sets (s, o, error))
            return FALSE;
    }
    for (guint i = 0; o->vary != NULL && o->vary[i] != NULL; i++)
        if (!sweep_grid_add_vary (s->grid, o->vary[i], error))
            return FALSE;
    if (!sweep_grid_count (s->grid, &s->n_points, error))
        return FALSE;
    if (s->n_points > 0)
        return TRUE;
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 o->points_file != NULL ? "%s: no points (only a header)"
                                        : "nothing to sweep: give --vary "
                                          "KEY=V1,V2,... or --points FILE%s",
                 o->points_file != NULL ? o->points_file : "");
    return FALSE;
}

/* ------------------------------------------------------------------ */
/* The keys a mode needs                                               */

static gboolean
has (const Sweep *s, const char *name)
{
    return sweep_grid_find (s->grid, name) >= 0;
}

static gboolean
has_param (const Sweep *s)
{
    for (guint i = 0; i < sweep_grid_n_keys (s->grid); i++)
        if (sweep_grid_key (s->grid, i)->kind == SWEEP_KEY_PARAM)
            return TRUE;
    return FALSE;
}

static gboolean
check_run_keys (const Sweep *s, GError **error)
{
    static const char *const occ_only[] = { "threads", "dyn_smem", "carveout" };
    for (guint i = 0; i < G_N_ELEMENTS (occ_only); i++)
        if (has (s, occ_only[i])) {
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         "key '%s' is for --mode occupancy: in run mode the "
                         "kernel model sets the launch (vary its param.* "
                         "keys, regs or smem)", occ_only[i]);
            return FALSE;
        }
    if (has (s, "kernel") && has (s, "size"))
        return TRUE;
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "run mode needs the keys kernel and size (give one value "
                 "to keep one fixed, e.g. --vary kernel=sgemm-5 --vary "
                 "size=1024)");
    return FALSE;
}

static gboolean
check_occupancy_keys (const Sweep *s, GError **error)
{
    gboolean kernel = has (s, "kernel"), size = has (s, "size");
    const char *why = NULL;
    if (kernel != size)
        why = "kernel and size go together (the kernel model's launch "
              "at that size)";
    else if (!kernel && has_param (s))
        why = "param.* keys need the key kernel";
    else if (!kernel && !(has (s, "threads") && has (s, "regs")))
        why = "occupancy mode needs the keys threads and regs, or kernel "
              "and size";
    if (why == NULL)
        return TRUE;
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s", why);
    return FALSE;
}

/* ------------------------------------------------------------------ */
/* Every value, before any point runs                                  */

static gboolean
check_value (void *ctx, const SweepKey *key, const char *value,
             const char *where, GError **error)
{
    g_autofree char *why = NULL;
    (void) ctx;
    /* A value of the wrong type or range is bad input; GPUs whose keys
     * contradict each other are left to the points (another key of the
     * point may reconcile them).  Parameters are checked against their
     * kernels after (check_params). */
    if (sweep_key_check_value (key, value, &why) &&
        key->kind == SWEEP_KEY_PRESET)
        why = preset_value_problem (key->name, value);
    if (why == NULL)
        return TRUE;
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "%s: %s = '%s': %s", where, key->name, value, why);
    return FALSE;
}

/* Why kernel 'm' refuses 'param' (an integer: check_value passed it),
 * or NULL; 'from' follows the kernel's name. */
static char *
param_problem (const KernModel *m, const SweepGridValue *param,
               const char *from)
{
    const char *name = param->key->param;
    int i_param = kern_param_index (m, name);
    gint64 v = 0;
    num_parse_int (param->value, &v);
    if (i_param < 0) {
        g_autofree char *who = kern_param_takers (name);
        return g_strdup_printf ("kernel %s%s has no parameter %s (%s)", m->id,
                                from, name, who);
    }
    const KernParam *p = &m->params[i_param];
    if (v >= p->min && v <= p->max)
        return NULL;
    return g_strdup_printf ("must be %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT
                            " for %s%s", p->min, p->max, m->id, from);
}

/* A parameter's value must exist, and be in range, in the kernel of
 * each point it is in (SweepGridPairCheck): on a points file's row the
 * row's own kernel, else each one the grid combines it with. */
static gboolean
check_param (void *ctx, const SweepGridValue *param,
             const SweepGridValue *kernel, GError **error)
{
    /* Where the kernel is given, unless on the parameter's line or
     * both on the command line. */
    g_autofree char *from = kernel->line != param->line
                                ? g_strdup_printf (" (%s)", kernel->where)
                                : g_strdup ("");
    g_autofree char *why = param_problem (kern_find (kernel->value), param,
                                          from);
    (void) ctx;
    if (why == NULL)
        return TRUE;
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "%s: %s = '%s': %s", param->where, param->key->name,
                 param->value, why);
    return FALSE;
}

/* After check_value: every kernel is a model, every parameter an
 * integer; a sweep with param.* keys has the key kernel
 * (check_*_keys). */
static gboolean
check_params (const Sweep *s, GError **error)
{
    int kernel = sweep_grid_find (s->grid, "kernel");
    for (guint i = 0; kernel >= 0 && i < sweep_grid_n_keys (s->grid); i++)
        if (sweep_grid_key (s->grid, i)->kind == SWEEP_KEY_PARAM &&
            !sweep_grid_check_pairs (s->grid, i, (guint) kernel, check_param,
                                     NULL, error))
            return FALSE;
    return TRUE;
}

static gboolean
check (Sweep *s, const SweepOptions *o, GError **error)
{
    const GpuSpec *base = sweep_cache_spec (s->cache, NULL, error);
    if (base == NULL)
        return FALSE;
    if (o->mode == SWEEP_MODE_RUN && !base->timing) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_UNKNOWN,
                     "%s: timing = false (no sourced timing numbers): run "
                     "mode needs a preset with timing = true, v100, t4, a100, "
                     "a6000 or h100 as shipped (or --mode occupancy)",
                     base->id);
        return FALSE;
    }
    if (!(o->mode == SWEEP_MODE_RUN ? check_run_keys (s, error)
                                    : check_occupancy_keys (s, error)))
        return FALSE;
    return sweep_grid_check (s->grid, check_value, NULL, error) &&
           check_params (s, error);
}

/* ------------------------------------------------------------------ */
/* Header and fingerprint                                              */

static char *
make_header (const Sweep *s)
{
    GString *h = g_string_new ("point");
    for (guint i = 0; i < sweep_grid_n_keys (s->grid); i++) {
        g_string_append_c (h, ',');
        csv_append_field (h, sweep_grid_key (s->grid, i)->name);
    }
    g_string_append_printf (h, ",%s", sweep_point_columns (s->mode));
    return g_string_free (h, FALSE);
}

static void
hash_text (GChecksum *sum, const char *text)
{
    /* A separator no value holds keeps "ab","c" apart from "a","bc". */
    g_checksum_update (sum, (const guchar *) (text ? text : "(none)"), -1);
    g_checksum_update (sum, (const guchar *) "\x1f", 1);
}

/* The GPU's values, not the path they came from: a preset file edited
 * between a kill and --resume makes another sweep, whose journal must
 * be refused rather than mixed in. */
static void
hash_gpu (GChecksum *sum, const SweepOptions *o)
{
    g_autoptr (GError) err = NULL;
    g_autoptr (Preset) p = preset_load (o->gpu, o->config, o->sets, &err);
    guint n_keys;
    const PkeyInfo *table = pkey_table (&n_keys);
    if (p == NULL) {
        hash_text (sum, err->message);
        return;
    }
    for (guint k = 0; k < n_keys; k++) {
        hash_text (sum, table[k].key);
        hash_text (sum, preset_has (p, k) ? preset_text (p, k) : NULL);
    }
}

static char *
make_fingerprint (const Sweep *s, const SweepOptions *o)
{
    g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
    guint n = sweep_grid_n_keys (s->grid);
    g_autofree const char **values = g_new0 (const char *, n + 1);
    g_autofree char *shard = g_strdup_printf ("%u/%u %" G_GUINT64_FORMAT,
                                              s->shard_index, s->shard_count,
                                              s->n_points);
    hash_gpu (sum, o);
    hash_text (sum, s->header);
    hash_text (sum, shard);
    for (guint64 k = 0; k < sweep_n_mine (s); k++) {
        sweep_grid_values (s->grid, sweep_point_at (s, k), values);
        for (guint i = 0; i < n; i++)
            hash_text (sum, values[i]);
    }
    return g_strdup (g_checksum_get_string (sum));
}

static gboolean
hash_value (void *ctx, const SweepKey *key, const char *value,
            const char *where, GError **error)
{
    (void) where;       /* a blank line more in a points file is the same */
    (void) error;
    hash_text (ctx, key->name);
    hash_text (ctx, value);
    return TRUE;
}

/* The grid's lists and rows, not its points: they decide every point,
 * at a fraction of the work.  Each value is hashed with its key, so
 * grids of different points hash apart. */
static char *
make_whole_fingerprint (const Sweep *s, const SweepOptions *o)
{
    g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
    g_autofree char *points = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                               s->n_points);
    hash_gpu (sum, o);
    hash_text (sum, s->header);
    hash_text (sum, points);
    sweep_grid_check (s->grid, hash_value, sum, NULL);
    return g_strdup (g_checksum_get_string (sum));
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

/* Points one process runs at most: each one's row waits in memory
 * until the CSV can be written in point order, some 240 bytes (a
 * million occupancy points took 245 MB); ten million are 2.4 GB.
 * --shard splits a larger sweep. */
#define SWEEP_MAX_MINE G_GUINT64_CONSTANT (10000000)

static gboolean
check_rows (const Sweep *s, GError **error)
{
    guint64 mine = sweep_n_mine (s);
    if (mine <= SWEEP_MAX_MINE)
        return TRUE;
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "%" G_GUINT64_FORMAT " points to run, more than one run "
                 "holds (%" G_GUINT64_FORMAT ": each row waits in memory to "
                 "be written in order); narrow a --vary, or split the sweep "
                 "with --shard I/%" G_GUINT64_FORMAT " or more", mine,
                 SWEEP_MAX_MINE,
                 (s->n_points + SWEEP_MAX_MINE - 1) / SWEEP_MAX_MINE);
    return FALSE;
}

Sweep *
sweep_new (const SweepOptions *o, GError **error)
{
    g_autoptr (Sweep) s = g_new0 (Sweep, 1);
    s->mode = o->mode;
    s->shard_index = o->shard_index ? o->shard_index : 1;
    s->shard_count = o->shard_count ? o->shard_count : 1;
    s->sharded = o->shard_count > 0;
    g_return_val_if_fail (s->shard_index <= s->shard_count, NULL);
    s->cache = sweep_cache_new (o->gpu, o->config, o->sets);
    if (!build_grid (s, o, error) || !check_rows (s, error) ||
        !check (s, o, error))
        return NULL;
    s->header = make_header (s);
    s->fingerprint = make_fingerprint (s, o);
    s->whole_fingerprint = make_whole_fingerprint (s, o);
    return g_steal_pointer (&s);
}

guint64
sweep_n_points (const Sweep *s)
{
    return s->n_points;
}

guint64
sweep_n_mine (const Sweep *s)
{
    guint64 first = s->shard_index - 1;
    return s->n_points > first
               ? (s->n_points - first + s->shard_count - 1) / s->shard_count
               : 0;
}

guint64
sweep_point_at (const Sweep *s, guint64 k)
{
    return k * s->shard_count + (s->shard_index - 1);
}

gboolean
sweep_is_shard (const Sweep *s)
{
    return s->sharded;
}

void
sweep_shard (const Sweep *s, guint *index, guint *count)
{
    *index = s->shard_index;
    *count = s->shard_count;
}

void
sweep_shard_grid (const Sweep *s, GString *out)
{
    sweep_grid_describe (s->grid, s->shard_index - 1, s->shard_count, out);
}

const char *
sweep_header (const Sweep *s)
{
    return s->header;
}

const char *
sweep_fingerprint (const Sweep *s)
{
    return s->fingerprint;
}

const char *
sweep_whole_fingerprint (const Sweep *s)
{
    return s->whole_fingerprint;
}

/* "point,value,..." as a row starts, each value quoted as CSV needs. */
static void
append_point (const Sweep *s, guint64 point, const char *const *values,
              GString *row)
{
    g_string_append_printf (row, "%" G_GUINT64_FORMAT, point);
    for (guint i = 0; i < sweep_grid_n_keys (s->grid); i++) {
        g_string_append_c (row, ',');
        csv_append_field (row, values[i]);
    }
}

void
sweep_row (Sweep *s, guint64 point, GString *row)
{
    guint n = sweep_grid_n_keys (s->grid);
    g_autofree const char **values = g_new0 (const char *, n + 1);
    sweep_grid_values (s->grid, point, values);
    append_point (s, point, values, row);
    /* The grid holds its keys in one array. */
    sweep_point_eval (s->cache, s->mode, sweep_grid_key (s->grid, 0), values,
                      n, row);
}

static gboolean
is_mine (const Sweep *s, guint64 point)
{
    return point < s->n_points &&
           point % s->shard_count == s->shard_index - 1;
}

static char *
not_mine (const Sweep *s, guint64 point)
{
    if (!s->sharded || point >= s->n_points)
        return g_strdup_printf ("point %" G_GUINT64_FORMAT " is not in the "
                                "sweep (its points are 0..%" G_GUINT64_FORMAT
                                ")", point, s->n_points - 1);
    return g_strdup_printf ("point %" G_GUINT64_FORMAT " is not shard %u/%u's "
                            "(it holds the points whose number mod %u is %u)",
                            point, s->shard_index, s->shard_count,
                            s->shard_count, s->shard_index - 1);
}

gboolean
sweep_check_row (const Sweep *s, guint64 point, const char *row, char **why)
{
    guint n = sweep_grid_n_keys (s->grid);
    g_autofree const char **values = g_new0 (const char *, n + 1);
    g_autoptr (GString) want = g_string_new (NULL);
    if (!is_mine (s, point)) {
        *why = not_mine (s, point);
        return FALSE;
    }
    sweep_grid_values (s->grid, point, values);
    append_point (s, point, values, want);
    g_string_append_c (want, ',');      /* the results follow */
    if (!g_str_has_prefix (row, want->str)) {
        *why = g_strdup_printf ("not the row of point %" G_GUINT64_FORMAT
                                ", which starts '%s'", point, want->str);
        return FALSE;
    }
    /* The results are copied into the CSV as they are: a value that is
     * not of its column's type, or spelt otherwise (spaces, quotes),
     * would pass for one the sweep wrote. */
    return sweep_point_check_text (s->mode, row + want->len, why);
}
