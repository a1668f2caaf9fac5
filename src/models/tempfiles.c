/*
 * tempfiles.c -- the table of temporary files.  See tempfiles.h.
 *
 * A slot's path is written while the slot is free and published by
 * setting 'used' after it, with release order (a plain store may be
 * moved before the copy): a handler that runs in between does not see
 * the file (it is left behind, as it was before this table), and never
 * sees half a path.
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "models/tempfiles.h"

/* Outputs a run writes at once: a trace, a figure. */
#define TEMPFILES_MAX 8
#define TEMPFILES_PATH 4096

static char paths[TEMPFILES_MAX][TEMPFILES_PATH];
static volatile sig_atomic_t used[TEMPFILES_MAX];
static GMutex lock;

int
tempfiles_add (const char *path)
{
    gsize n = strlen (path);
    if (n >= TEMPFILES_PATH)
        return -1;
    g_mutex_lock (&lock);
    int slot = -1;
    for (int i = 0; i < TEMPFILES_MAX && slot < 0; i++)
        if (!used[i])
            slot = i;
    if (slot >= 0) {
        memcpy (paths[slot], path, n + 1);
        __atomic_store_n (&used[slot], 1, __ATOMIC_RELEASE);
    }
    g_mutex_unlock (&lock);
    return slot;
}

void
tempfiles_forget (int slot)
{
    if (slot < 0)
        return;
    g_mutex_lock (&lock);
    __atomic_store_n (&used[slot], 0, __ATOMIC_RELEASE);
    g_mutex_unlock (&lock);
}

void
tempfiles_unlink_all (void)
{
    for (int i = 0; i < TEMPFILES_MAX; i++)
        if (__atomic_load_n (&used[i], __ATOMIC_ACQUIRE))
            unlink (paths[i]);
}
