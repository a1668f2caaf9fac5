/*
 * kern.c -- the registry of kernel models and their instances.
 * See kern.h.
 */
#include "config.h"

#include <string.h>

#include "models/kern.h"
#include "models/kgen.h"
#include "models/trace_read.h"
#include "models/num.h"

G_DEFINE_QUARK (smsim-kern-error-quark, kern_error)

extern const KernModel kern_vecadd_model;
extern const KernModel kern_pchase_model;
extern const KernModel kern_stream_model;
extern const KernModel kern_loaduse_model;
extern const KernModel kern_smemld_model;
extern const KernModel kern_iloop_model;
extern const KernModel kern_pmpp_model;
extern const KernModel kern_sgemm1_model, kern_sgemm2_model, kern_sgemm3_model,
    kern_sgemm4_model, kern_sgemm5_model, kern_sgemm6_model, kern_sgemm7_model,
    kern_sgemm8_model, kern_sgemm9_model, kern_sgemm10_model, kern_sgemm11_model;

static const KernModel *const models[] = {
    &kern_vecadd_model,
    &kern_pchase_model,
    &kern_stream_model,
    &kern_loaduse_model,
    &kern_smemld_model,
    &kern_iloop_model,
    &kern_pmpp_model,
    &kern_sgemm1_model,
    &kern_sgemm2_model,
    &kern_sgemm3_model,
    &kern_sgemm4_model,
    &kern_sgemm5_model,
    &kern_sgemm6_model,
    &kern_sgemm7_model,
    &kern_sgemm8_model,
    &kern_sgemm9_model,
    &kern_sgemm10_model,
    &kern_sgemm11_model,
};

const KernModel *const *
kern_models (guint *n)
{
    *n = G_N_ELEMENTS (models);
    return models;
}

const KernModel *
kern_find (const char *id)
{
    for (guint i = 0; i < G_N_ELEMENTS (models); i++)
        if (strcmp (models[i]->id, id) == 0)
            return models[i];
    return NULL;
}

int
kern_param_index (const KernModel *m, const char *name)
{
    for (int i = 0; i < m->n_params; i++)
        if (strcmp (m->params[i].name, name) == 0)
            return i;
    return -1;
}

gint64
kern_param (const KernInstance *k, const char *name)
{
    int i = kern_param_index (k->model, name);
    g_assert (i >= 0);
    return k->param[i];
}

/* Where a message about a parameter sends the reader. */
static const char params_hint[] =
    "`smsim kernels` lists the parameters of each kernel";

char *
kern_param_takers (const char *name)
{
    g_autoptr (GString) ids = g_string_new (NULL);
    for (guint i = 0; i < G_N_ELEMENTS (models); i++)
        if (kern_param_index (models[i], name) >= 0)
            g_string_append_printf (ids, "%s%s", ids->len ? ", " : "",
                                    models[i]->id);
    return ids->len ? g_strconcat ("kernels that take it: ", ids->str, "; ",
                                   params_hint, NULL)
                    : g_strconcat ("no kernel takes it; ", params_hint, NULL);
}

/* A parameter the model does not take would change nothing: refused,
 * naming the models that do take it. */
static gboolean
not_taken (const KernModel *m, const char *name, GError **error)
{
    g_autofree char *who = kern_param_takers (name);
    g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_UNKNOWN,
                 "%s: no parameter %s (%s)", m->id, name, who);
    return FALSE;
}

char *
kern_param_name (const char *assignment)
{
    const char *eq = strchr (assignment, '=');
    char *name = eq ? g_strndup (assignment, (gsize) (eq - assignment))
                    : g_strdup (assignment);
    return g_strstrip (name);
}

gboolean
kern_check_param_form (const KernModel *m, const char *assignment,
                       GError **error)
{
    const char *eq = strchr (assignment, '=');
    g_autofree char *name = kern_param_name (assignment);
    g_autofree char *value = eq ? g_strstrip (g_strdup (eq + 1)) : NULL;
    if (*name != '\0' && value != NULL && *value != '\0')
        return TRUE;
    int i = m != NULL && *name != '\0' ? kern_param_index (m, name) : -1;
    if (i >= 0) {    /* a value forgotten: say what one looks like */
        const KernParam *p = &m->params[i];
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_FORM,
                     "%s: --param %s: give NAME=VALUE, e.g. %s=%"
                     G_GINT64_FORMAT " (%" G_GINT64_FORMAT "..%"
                     G_GINT64_FORMAT ")", m->id, assignment, p->name, p->def,
                     p->min, p->max);
        return FALSE;
    }
    /* Not one of the kernel's either: say so too, or the fix of the
     * form would only meet the next refusal. */
    g_autofree char *who = m != NULL && *name != '\0'
                               ? kern_param_takers (name) : NULL;
    g_autofree char *also = who != NULL
        ? g_strdup_printf ("; %s has no parameter %s (%s)", m->id, name, who)
        : g_strdup_printf (" (%s)", params_hint);
    g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_FORM,
                 "%s%s--param %s: give NAME=VALUE%s", m ? m->id : "",
                 m ? ": " : "", assignment, also);
    return FALSE;
}

/* 'given' has bit i set once parameter i is: a second value would
 * otherwise quietly win. */
static gboolean
apply_param (KernInstance *k, const char *assignment, guint32 *given,
             GError **error)
{
    const KernModel *m = k->model;
    if (!kern_check_param_form (m, assignment, error))
        return FALSE;
    const char *eq = strchr (assignment, '=');
    g_autofree char *name = kern_param_name (assignment);
    int i = kern_param_index (m, name);
    if (i < 0)
        return not_taken (m, name, error);
    if (*given & 1u << i) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "%s: %s given twice (the second: %s); give each "
                     "parameter once", m->id, name, assignment);
        return FALSE;
    }
    *given |= 1u << i;
    gint64 v;
    if (!num_parse_int (eq + 1, &v) || v < m->params[i].min ||
        v > m->params[i].max) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "%s: %s = %s: must be an integer in %" G_GINT64_FORMAT
                     "..%" G_GINT64_FORMAT, m->id, name, eq + 1,
                     m->params[i].min, m->params[i].max);
        return FALSE;
    }
    k->param[i] = v;
    return TRUE;
}

KernInstance *
kern_instance_new (const KernModel *model, const GpuSpec *spec, gint64 size,
                   const char *const *params, GError **error)
{
    g_autoptr (KernInstance) k = g_new0 (KernInstance, 1);
    k->model = model;
    k->size = size;
    for (int i = 0; i < model->n_params; i++)
        k->param[i] = model->params[i].def;
    guint32 given = 0;
    G_STATIC_ASSERT (KERN_MAX_PARAMS <= 32);
    for (int i = 0; params != NULL && params[i] != NULL; i++)
        if (!apply_param (k, params[i], &given, error))
            return NULL;
    if (size < 1) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_SIZE,
                     "%s: size %" G_GINT64_FORMAT ": must be positive (%s)",
                     model->id, size, model->size_help);
        return NULL;
    }
    if (!model->setup (k, spec, error) || !kern_check_launch (k, spec, error))
        return NULL;
    return g_steal_pointer (&k);
}

const char *
kern_where (const KernInstance *k)
{
    return k->where != NULL ? k->where : k->model->id;
}

/* 'a' and 'b' bytes as num_bytes_text puts them; both in bytes where that
 * would round them to one text, as 1.02 GiB and 1 GiB would be. */
static void
bytes_pair (double a, double b, char **a_text, char **b_text)
{
    *a_text = num_bytes_text (a);
    *b_text = num_bytes_text (b);
    if (strcmp (*a_text, *b_text) != 0)
        return;
    g_free (*a_text);
    g_free (*b_text);
    *a_text = g_strdup_printf ("%.0f B", a);
    *b_text = g_strdup_printf ("%.0f B", b);
}

/* What made the buffers take 'bytes': the parameter whose bytes they are
 * (k->bytes_param: what to make smaller), or the size. */
static char *
memory_culprit (const KernInstance *k, const char *bytes)
{
    if (k->bytes_param == NULL)
        return g_strdup_printf ("size %" G_GINT64_FORMAT ": its buffers take "
                                "%s", k->size, bytes);
    return g_strdup_printf ("%s = %" G_GINT64_FORMAT ": at size %"
                            G_GINT64_FORMAT " its loads reach %s of it",
                            k->bytes_param, kern_param (k, k->bytes_param),
                            k->size, bytes);
}

gboolean
kern_check_launch (const KernInstance *k, const GpuSpec *spec, GError **error)
{
    int by = k->block_y > 0 ? k->block_y : 1, bx = k->threads / by;
    if (bx > spec->device.max_block_x || by > spec->device.max_block_y) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_PARAM,
                     "%s: a block of %d x %d threads exceeds %s's largest "
                     "dimensions, %d x %d (device.max_block_x, "
                     "device.max_block_y)", kern_where (k), bx, by, spec->id,
                     spec->device.max_block_x, spec->device.max_block_y);
        return FALSE;
    }
    if (k->grid_x > (guint64) spec->device.max_grid_x ||
        k->grid_y > (guint64) spec->device.max_grid_y) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_SIZE,
                     "%s: size %" G_GINT64_FORMAT ": grid %" G_GUINT64_FORMAT
                     " x %" G_GUINT64_FORMAT " exceeds %s's largest, %d x %d "
                     "(device.max_grid_x, device.max_grid_y)", kern_where (k),
                     k->size, k->grid_x, k->grid_y, spec->id,
                     spec->device.max_grid_x, spec->device.max_grid_y);
        return FALSE;
    }
    /* cudaMalloc would fail: the launch never happens. */
    double memory = (double) spec->device.global_mem_mib * 1048576.0;
    if (k->device_bytes > memory) {
        g_autofree char *need = NULL, *have = NULL;
        bytes_pair (k->device_bytes, memory, &need, &have);
        g_autofree char *what = memory_culprit (k, need);
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_SIZE,
                     "%s: %s; %s has %s of device memory "
                     "(device.global_mem_mib)", kern_where (k), what,
                     spec->id, have);
        return FALSE;
    }
    return TRUE;
}

void
kern_instance_free (KernInstance *k)
{
    if (k == NULL)
        return;
    if (k->data != NULL && k->model->free_data != NULL)
        k->model->free_data (k->data);
    g_free (k);
}

guint64
kern_blocks (const KernInstance *k)
{
    return k->grid_x * k->grid_y;
}

int
kern_warps (const KernInstance *k)
{
    return (k->threads + 31) / 32;
}

KernBlockWork
kern_block_work (const KernInstance *k, guint64 block)
{
    if (k->model->block_work != NULL)
        return k->model->block_work (k, block);
    return (KernBlockWork) { (guint64) k->threads, kern_warps (k) };
}

/* Warps in the low 8 bits: at most 128, a block of 4096 threads (the
 * most a preset allows: pkey.c).  Lanes are instructions of those
 * threads, far short of 2^56. */
guint64
kern_block_work_key (KernBlockWork w)
{
    g_assert (w.warps >= 0 && w.warps < 256);
    return w.lanes << 8 | (guint64) w.warps;
}

KernBlockWork
kern_block_work_of_key (guint64 key)
{
    return (KernBlockWork) { key >> 8, (int) (key & 255) };
}

InstrStream *
kern_open_warp (const KernInstance *k, guint64 block, int warp)
{
    return k->model->open_warp (k, block, warp, k->iterations);
}

InstrStream *
kern_open_warp_window (const KernInstance *k, guint64 block, int warp,
                       guint64 iterations)
{
    return k->model->open_warp (k, block, warp, MIN (iterations, k->iterations));
}

InstrStream *
kern_open_mirror_window (const KernInstance *k, guint64 block, int warp,
                         guint64 iterations)
{
    InstrStream *s = kern_open_warp_window (k, block, warp, iterations);
    if (kgen_stream_lg_only (s))
        return s;
    return instr_lg_stream_new (s);
}

gboolean
kern_stream_window (InstrStream *s, guint64 iterations, gboolean apply)
{
    return kgen_stream_window (s, iterations, apply);
}

gboolean
kern_stream_plays_loop (const InstrStream *s)
{
    return kgen_stream_plays_loop (s) && trace_reader_warp_plays_loop (s);
}

gboolean
kern_stream_position (const InstrStream *s, gint64 *iteration)
{
    int seg;
    guint64 iter;
    if (trace_reader_warp_position (s, iteration))
        return TRUE;
    if (!kgen_stream_position (s, &seg, &iter))
        return FALSE;
    *iteration = seg == KGEN_PROLOGUE ? -1 : (gint64) iter;
    return TRUE;
}
