/*
 * sweep_run.c -- points on a thread pool, rows journaled, CSV in point
 * order.  See sweep_run.h.
 */
#include "config.h"

#include "models/sweep_journal.h"
#include "models/sweep_run.h"

typedef struct {
    Sweep *sweep;
    SweepJournal *journal;      /* or NULL */
    const SweepRunOptions *options;
    char **rows;                /* per k of this shard; NULL: to run */
    guint64 n_mine;
    GMutex lock;                /* guards all below */
    guint64 next;               /* the next k to look at */
    guint64 done;
    GError *error;              /* the first journal failure: stop */
} Job;

/* The next point to run, or FALSE when none is left. */
static gboolean
take (Job *job, guint64 *k)
{
    while (job->error == NULL && job->next < job->n_mine) {
        *k = job->next++;
        if (job->rows[*k] == NULL)
            return TRUE;
    }
    return FALSE;
}

static void
finish (Job *job, guint64 k, GString *row)
{
    GError *error = NULL;
    if (job->error != NULL)
        return;
    if (job->journal != NULL && !sweep_journal_add (job->journal, row->str,
                                                    &error)) {
        job->error = error;
        return;
    }
    job->rows[k] = g_strdup (row->str);
    job->done++;
    if (job->options->progress != NULL)
        job->options->progress (job->options->ctx, job->done, job->n_mine);
}

/* One per thread: points are taken one at a time, so threads that get
 * cheap points take more of them and all finish together. */
static void
worker (gpointer data, gpointer user)
{
    Job *job = user;
    g_autoptr (GString) row = g_string_new (NULL);
    guint64 k;
    (void) data;
    g_mutex_lock (&job->lock);
    while (take (job, &k)) {
        g_mutex_unlock (&job->lock);
        g_string_truncate (row, 0);
        sweep_row (job->sweep, sweep_point_at (job->sweep, k), row);
        g_mutex_lock (&job->lock);
        finish (job, k, row);
    }
    g_mutex_unlock (&job->lock);
}

/* The pool starts all its threads at once: never more than the points
 * left to run (-j 100000 for one point took 4 s and 350 MB of stacks),
 * nor than SWEEP_RUN_MAX_JOBS. */
static guint
threads_for (const Job *job, guint jobs)
{
    guint64 left = job->n_mine - job->done;
    return (guint) MIN (CLAMP (jobs, 1, SWEEP_RUN_MAX_JOBS), left);
}

static void
run_pool (Job *job, guint threads)
{
    if (threads == 0)
        return;         /* a resumed sweep the journal holds whole */
    GThreadPool *pool = g_thread_pool_new (worker, job, (gint) threads, TRUE,
                                           NULL);
    for (guint i = 0; i < threads; i++)
        g_thread_pool_push (pool, GUINT_TO_POINTER (i + 1), NULL);
    g_thread_pool_free (pool, FALSE, TRUE);
}

/* Rows the journal already holds. */
static void
take_journaled (Job *job, GHashTable *journaled)
{
    for (guint64 k = 0; k < job->n_mine; k++) {
        const char *row = sweep_journal_lookup (
            journaled, sweep_point_at (job->sweep, k));
        if (row != NULL) {
            job->rows[k] = g_strdup (row);
            job->done++;
        }
    }
}

char *
sweep_run_shard_line (guint index, guint count, guint64 points,
                      const char *fingerprint)
{
    return g_strdup_printf ("# smsim sweep shard %u/%u of %" G_GUINT64_FORMAT
                            " points, sweep %s", index, count, points,
                            fingerprint);
}

static void
lay_out (const Job *job, GString *out)
{
    Sweep *s = job->sweep;
    if (sweep_is_shard (s)) {
        guint index, count;
        sweep_shard (s, &index, &count);
        g_autofree char *line = sweep_run_shard_line (
            index, count, sweep_n_points (s), sweep_whole_fingerprint (s));
        g_string_append_printf (out, "%s\n", line);
        sweep_shard_grid (s, out);
    }
    g_string_append_printf (out, "%s\n", sweep_header (s));
    for (guint64 k = 0; k < job->n_mine; k++)
        g_string_append_printf (out, "%s\n", job->rows[k]);
}

/* A journaled row must be the sweep's own (SweepJournalCheck). */
static gboolean
check_row (void *ctx, guint64 point, const char *row, char **why)
{
    return sweep_check_row (ctx, point, row, why);
}

gboolean
sweep_run (Sweep *s, const SweepRunOptions *o, GString *out, GError **error)
{
    g_autoptr (GHashTable) journaled = sweep_journal_rows_new ();
    Job job = { s, NULL, o, NULL, sweep_n_mine (s), { 0 }, 0, 0, NULL };
    const SweepJournalSweep js = { sweep_fingerprint (s), sweep_header (s),
                                   check_row, s };
    if (o->journal != NULL) {
        job.journal = sweep_journal_open (o->journal, &js, o->resume,
                                          journaled, error);
        if (job.journal == NULL)
            return FALSE;
    }
    job.rows = g_new0 (char *, job.n_mine + 1);
    take_journaled (&job, journaled);
    g_clear_pointer (&journaled, g_hash_table_unref);
    g_mutex_init (&job.lock);
    if (o->progress != NULL)     /* the rows a resumed sweep starts with */
        o->progress (o->ctx, job.done, job.n_mine);
    run_pool (&job, threads_for (&job, o->jobs));
    g_mutex_clear (&job.lock);
    if (job.error != NULL)
        sweep_journal_abandon (job.journal);
    else
        sweep_journal_close (job.journal);
    if (job.error == NULL)
        lay_out (&job, out);
    for (guint64 k = 0; k < job.n_mine; k++)
        g_free (job.rows[k]);
    g_free (job.rows);
    if (job.error != NULL) {
        g_propagate_error (error, job.error);
        return FALSE;
    }
    return TRUE;
}
