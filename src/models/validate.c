/*
 * validate.c -- simulated vs published SGEMM throughput.  See validate.h.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "models/cores.h"
#include "models/kern.h"
#include "models/run.h"
#include "models/validate.h"

/* The published A100 run used the A100 settings of kernels 9 and 10
 * (../shared/data/README.md section 1a).  It has no kernel 11 figure;
 * were one added to ref.c, it would be of the runner's A100 setting of
 * kernel 11, here too. */
static const char *const a100_k9[] = { "BM=64", "BN=64", "BK=16", "TM=4",
                                       "TN=4", NULL };
static const char *const a100_k10[] = { "BM=64", "BN=128", "BK=16", "WM=32",
                                        "WN=64", "WNITER=1", "TM=4", "TN=4",
                                        NULL };
static const char *const a100_k11[] = { "BM=64", "BN=128", "BK=16", "WM=32",
                                        "WN=32", "WNITER=2", "TM=4", "TN=4",
                                        NULL };

static const char *const *
params_for (const char *gpu, int kernel)
{
    if (strcmp (gpu, "a100") != 0)
        return NULL;
    return kernel == 9 ? a100_k9 : kernel == 10 ? a100_k10
                       : kernel == 11 ? a100_k11 : NULL;
}

/* 'published': the GPU of the published run, whose launch settings
 * the kernels take. */
static gboolean
simulate_row (const GpuSpec *spec, const char *published, ValidateRow *row,
              GError **error)
{
    g_autofree char *id = g_strdup_printf ("sgemm-%d", row->ref->kernel);
    const KernModel *m = kern_find (id);
    RunOptions o = RUN_OPTIONS_INIT;
    RunResult r;
    /* As the published figures were timed: 50 launches back to back
     * (../shared/data/README.md section 1b). */
    o.launches = 50;
    if (m == NULL)
        return TRUE;   /* not modelled: shown as such */
    g_autoptr (KernInstance) k = kern_instance_new (
        m, spec, row->ref->size, params_for (published, row->ref->kernel),
        error);
    if (k == NULL || !run_kernel (spec, k, &o, &r, error))
        return FALSE;
    row->modeled = TRUE;
    row->simulated_gflops = r.gflops;
    row->sampled = r.sampled;
    row->error_pct = 100.0 * (r.gflops - row->ref->gflops) / row->ref->gflops;
    row->ceiling_gflops = run_ceiling (spec, &r, &row->ceiling_unit);
    return TRUE;
}

static int
by_kernel (gconstpointer a, gconstpointer b)
{
    const RefRow *x = *(const RefRow *const *) a, *y = *(const RefRow *const *) b;
    return x->kernel - y->kernel;
}

void
validate_summarize (ValidateResult *r)
{
    double sum = 0;
    int n = 0;
    for (guint i = 0; i < r->rows->len; i++) {
        const ValidateRow *a = &g_array_index (r->rows, ValidateRow, i);
        if (!a->modeled)
            continue;
        sum += fabs (a->error_pct);
        n++;
        if (fabs (a->error_pct) > fabs (r->max_error_pct))
            r->max_error_pct = a->error_pct;
        for (guint j = i + 1; j < r->rows->len; j++) {
            const ValidateRow *b = &g_array_index (r->rows, ValidateRow, j);
            double pa = a->ref->gflops, pb = b->ref->gflops;
            if (!b->modeled || fabs (pa - pb) <= 0.1 * MIN (pa, pb))
                continue;
            r->pairs++;
            if ((pa < pb) == (a->simulated_gflops < b->simulated_gflops))
                r->pairs_agree++;
            else
                g_string_append_printf (r->disagreements, "%s%d %s %d",
                                        r->disagreements->len ? ", " : "",
                                        a->ref->kernel, pa < pb ? "<" : ">",
                                        b->ref->kernel);
        }
    }
    r->mape_pct = n ? sum / n : 0;
}

typedef struct {
    const GpuSpec *spec;
    const char *published;
    ValidateProgress progress;
    void *ctx;
    GMutex lock;
    int started;
    int total;
    GError *error;      /* the first failure */
} Pool;

/* One kernel per task: the simulator has no global state, so kernels
 * run side by side on as many cores as there are. */
static void
run_task (gpointer data, gpointer user)
{
    ValidateRow *row = data;
    Pool *pool = user;
    GError *error = NULL;
    g_mutex_lock (&pool->lock);
    if (pool->progress != NULL)
        pool->progress (pool->ctx, pool->spec->id, row->ref->kernel,
                        pool->started, pool->total);
    pool->started++;
    g_mutex_unlock (&pool->lock);
    if (!simulate_row (pool->spec, pool->published, row, &error)) {
        g_mutex_lock (&pool->lock);
        if (pool->error == NULL)
            pool->error = error;
        else
            g_error_free (error);
        g_mutex_unlock (&pool->lock);
    }
}

gboolean
validate_gpu (const GpuSpec *spec, const char *published,
              ValidateProgress progress, void *ctx, ValidateResult *out,
              GError **error)
{
    guint n;
    const RefRow *rows = ref_rows (&n);
    g_autoptr (GPtrArray) mine = g_ptr_array_new ();
    Pool pool = { spec, published, progress, ctx, { 0 }, 0, 0, NULL };
    memset (out, 0, sizeof *out);
    out->rows = g_array_new (FALSE, TRUE, sizeof (ValidateRow));
    out->disagreements = g_string_new (NULL);
    for (guint i = 0; i < n; i++) {
        if (strcmp (rows[i].gpu, published) != 0)
            continue;
        if (rows[i].kernel == 0)
            out->cublas_gflops = rows[i].gflops;
        else
            g_ptr_array_add (mine, (gpointer) &rows[i]);
    }
    g_ptr_array_sort (mine, by_kernel);
    g_array_set_size (out->rows, mine->len);
    for (guint i = 0; i < mine->len; i++)
        g_array_index (out->rows, ValidateRow, i).ref = mine->pdata[i];
    pool.total = (int) mine->len;
    g_mutex_init (&pool.lock);
    GThreadPool *threads = g_thread_pool_new (run_task, &pool,
                                              (gint) cores_usable (),
                                              TRUE, NULL);
    /* The longest first (the later kernels), so the cores finish together. */
    for (guint i = mine->len; i-- > 0;)
        g_thread_pool_push (threads, &g_array_index (out->rows, ValidateRow, i),
                            NULL);
    g_thread_pool_free (threads, FALSE, TRUE);
    g_mutex_clear (&pool.lock);
    if (pool.error != NULL) {
        g_propagate_error (error, pool.error);
        validate_result_clear (out);
        return FALSE;
    }
    validate_summarize (out);
    return TRUE;
}

void
validate_result_clear (ValidateResult *r)
{
    if (r->rows != NULL)
        g_array_free (r->rows, TRUE);
    if (r->disagreements != NULL)
        g_string_free (r->disagreements, TRUE);
    memset (r, 0, sizeof *r);
}
