/*
 * fig_run.c -- the figures' kernel launches: a cache keyed by what
 * defines a launch, and the launches a figure needs run side by side on
 * every core (the simulator has no global state; validate.c does the
 * same).  See fig.h.
 */
#include "config.h"

#include <string.h>

#include "models/cores.h"
#include "models/fig.h"
#include "models/occ.h"

struct FigCache {
    GHashTable *runs;     /* key -> RunResult */
};

FigCache *
fig_cache_new (void)
{
    FigCache *c = g_new0 (FigCache, 1);
    c->runs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    return c;
}

void
fig_cache_free (FigCache *c)
{
    if (c == NULL)
        return;
    g_hash_table_unref (c->runs);
    g_free (c);
}

void
fig_run_init (FigRun *r, const GpuSpec *spec, const char *spec_key,
              const char *kernel, gint64 size, const char *const *params,
              RunMode mode)
{
    memset (r, 0, sizeof *r);
    r->spec = spec;
    r->spec_key = g_strdup (spec_key);
    r->kernel = g_strdup (kernel);
    r->size = size;
    r->params = g_strdupv ((char **) params);
    r->mode = mode;
}

void
fig_run_clear (FigRun *r)
{
    g_clear_pointer (&r->spec_key, g_free);
    g_clear_pointer (&r->kernel, g_free);
    g_clear_pointer (&r->params, g_strfreev);
    g_clear_error (&r->cannot_launch);
}

static char *
run_key (const FigRun *r)
{
    GString *k = g_string_new (NULL);
    g_string_printf (k, "%s#%s#%" G_GINT64_FORMAT "#%d", r->spec_key,
                     r->kernel, r->size, (int) r->mode);
    for (int i = 0; r->params != NULL && r->params[i] != NULL; i++)
        g_string_append_printf (k, "#%s", r->params[i]);
    return g_string_free (k, FALSE);
}

/* What the figures' simulations share while they run. */
typedef struct {
    const FigOptions *o;
    GMutex lock;
    int started;
    int total;
    GError *error;        /* the first failure */
} Pool;

static gboolean
simulate (FigRun *r, GError **error)
{
    const KernModel *m = kern_find (r->kernel);
    RunOptions opt = RUN_OPTIONS_INIT;
    if (m == NULL) {
        g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_UNKNOWN,
                     "unknown kernel '%s' (`smsim kernels` lists them)",
                     r->kernel);
        return FALSE;
    }
    g_autoptr (KernInstance) k = kern_instance_new (
        m, r->spec, r->size, (const char *const *) r->params, error);
    opt.mode = r->mode;
    if (k == NULL || !run_kernel (r->spec, k, &opt, &r->result, error))
        return FALSE;
    r->flops = k->flops;
    return TRUE;
}

static void
run_task (gpointer data, gpointer user)
{
    FigRun *r = data;
    Pool *pool = user;
    GError *error = NULL;
    g_mutex_lock (&pool->lock);
    if (pool->o->progress != NULL)
        pool->o->progress (pool->o->progress_ctx, r->kernel, pool->started,
                           pool->total);
    pool->started++;
    g_mutex_unlock (&pool->lock);
    if (simulate (r, &error))
        return;
    if (r->may_not_launch && error->domain == SMSIM_LAUNCH_ERROR) {
        r->cannot_launch = error;
        return;
    }
    g_prefix_error (&error, "%s at %" G_GINT64_FORMAT " on %s: ", r->kernel,
                    r->size, r->spec->id);
    g_mutex_lock (&pool->lock);
    if (pool->error == NULL)
        pool->error = error;
    else
        g_error_free (error);
    g_mutex_unlock (&pool->lock);
}

/* The FLOP count travels with the result: it belongs to the launch. */
typedef struct {
    RunResult result;
    double flops;
} Cached;

static gboolean
from_cache (const FigOptions *o, FigRun *r)
{
    g_autofree char *key = run_key (r);
    const Cached *c = o->cache ? g_hash_table_lookup (o->cache->runs, key)
                               : NULL;
    if (c == NULL)
        return FALSE;
    r->result = c->result;
    r->flops = c->flops;
    return TRUE;
}

static void
to_cache (const FigOptions *o, const FigRun *r)
{
    if (o->cache == NULL || r->cannot_launch != NULL)
        return;
    Cached *c = g_new (Cached, 1);
    c->result = r->result;
    c->flops = r->flops;
    g_hash_table_replace (o->cache->runs, run_key (r), c);
}

gboolean
fig_run_all (const FigOptions *o, FigRun *runs, guint n, GError **error)
{
    g_autoptr (GPtrArray) todo = g_ptr_array_new ();
    Pool pool = { o, { 0 }, 0, 0, NULL };
    for (guint i = 0; i < n; i++)
        if (!from_cache (o, &runs[i]))
            g_ptr_array_add (todo, &runs[i]);
    if (todo->len == 0)
        return TRUE;
    pool.total = (int) todo->len;
    g_mutex_init (&pool.lock);
    GThreadPool *threads = g_thread_pool_new (
        run_task, &pool, (gint) MIN (cores_usable (), todo->len),
        TRUE, NULL);
    for (guint i = 0; i < todo->len; i++)
        g_thread_pool_push (threads, todo->pdata[i], NULL);
    g_thread_pool_free (threads, FALSE, TRUE);
    g_mutex_clear (&pool.lock);
    if (pool.error != NULL) {
        g_propagate_error (error, pool.error);
        return FALSE;
    }
    for (guint i = 0; i < todo->len; i++)
        to_cache (o, todo->pdata[i]);
    return TRUE;
}

const char *
fig_run_sampling (const FigRun *runs, guint n)
{
    guint sampled = 0, ran = 0;
    for (guint i = 0; i < n; i++) {
        ran += runs[i].cannot_launch == NULL;
        sampled += runs[i].result.sampled ? 1 : 0;
    }
    return sampled == 0 ? "exact" : sampled == ran ? "sampled"
                                                   : "partly sampled";
}

char *
fig_size_label (const char *kernel, gint64 size)
{
    const KernModel *m = kern_find (kernel);
    if (m != NULL && m->size_is_side)
        return g_strdup_printf ("%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT,
                                size, size);
    return g_strdup_printf ("--size %" G_GINT64_FORMAT, size);
}
