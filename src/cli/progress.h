/*
 * progress.h -- a progress bar on standard error: items done of the
 * total, the rate, and the time left.  Only on a terminal: when
 * standard error is a file or a pipe nothing is drawn, so no log or
 * output file ever holds it.  Redrawn at most ten times a second.
 */
#ifndef SMSIM_CLI_PROGRESS_H
#define SMSIM_CLI_PROGRESS_H

#include <glib.h>

typedef struct Progress Progress;

/* A bar labelled 'label' counting 'unit' ("points"), or NULL when
 * standard error is not a terminal (every call accepts NULL). */
Progress *progress_new (const char *label, const char *unit);

/* 'done' of 'total'; the first call sets where the rate counts from
 * (a resumed job starts with some done). */
void progress_update (Progress *bar, guint64 done, guint64 total);

/* Erase the bar. */
void progress_free (Progress *bar);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Progress, progress_free)

#endif
