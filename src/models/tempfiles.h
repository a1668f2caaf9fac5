/*
 * tempfiles.h -- the temporary files a run has made and not yet renamed
 * into place or removed, so that an interrupted run can remove them.
 *
 * Outputs are written whole or not at all: to a temporary file beside
 * the output, renamed over it once whole.  Killed by a signal before
 * then, a run would leave that file behind ('x.trace.AB12CD', a trace
 * of gigabytes half written).  The files are kept in a fixed table
 * that tempfiles_unlink_all reads without locking or allocating, so a
 * signal handler may call it (src/cli/smsim.c does).
 */
#ifndef SMSIM_MODELS_TEMPFILES_H
#define SMSIM_MODELS_TEMPFILES_H

#include <glib.h>

/* Remember 'path'; returns its slot for tempfiles_forget, or -1 where it
 * cannot be kept (the table full, the path too long): then it is left
 * behind as before. */
int tempfiles_add (const char *path);

/* Forget slot 'slot' (-1: nothing), once its file is renamed or gone. */
void tempfiles_forget (int slot);

/* Remove every file remembered.  Async-signal-safe. */
void tempfiles_unlink_all (void);

#endif
