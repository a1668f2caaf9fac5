/*
 * progress.c -- a progress bar on a terminal.  See progress.h.
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "cli/progress.h"

#define BAR_WIDTH 24
#define REDRAW_US (G_USEC_PER_SEC / 10)

struct Progress {
    char *label;
    char *unit;
    gint64 start_us;
    gint64 drawn_us;
    guint64 first;          /* done at the first update */
    gboolean started;
};

Progress *
progress_new (const char *label, const char *unit)
{
    if (!isatty (STDERR_FILENO))
        return NULL;
    Progress *bar = g_new0 (Progress, 1);
    bar->label = g_strdup (label);
    bar->unit = g_strdup (unit);
    return bar;
}

/* "1:02:03" or "2:03" */
static void
format_time (char *buf, gsize size, double seconds)
{
    guint64 s = (guint64) (seconds + 0.5);
    if (s >= 3600)
        g_snprintf (buf, size, "%" G_GUINT64_FORMAT ":%02u:%02u", s / 3600,
                    (guint) (s / 60 % 60), (guint) (s % 60));
    else
        g_snprintf (buf, size, "%u:%02u", (guint) (s / 60), (guint) (s % 60));
}

static void
draw (const Progress *bar, guint64 done, guint64 total, gint64 now)
{
    char fill[BAR_WIDTH + 1], left[32] = "-";
    double elapsed = (double) (now - bar->start_us) / G_USEC_PER_SEC;
    double rate = elapsed > 0 ? (double) (done - bar->first) / elapsed : 0;
    int filled = total ? (int) (BAR_WIDTH * done / total) : BAR_WIDTH;
    for (int i = 0; i < BAR_WIDTH; i++)
        fill[i] = i < filled ? '#' : '.';
    fill[BAR_WIDTH] = '\0';
    if (rate > 0)
        format_time (left, sizeof left, (double) (total - done) / rate);
    fprintf (stderr, "\r\033[K%s [%s] %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
             " %s, %.1f/s, %s left", bar->label, fill, done, total, bar->unit,
             rate, left);
    fflush (stderr);
}

void
progress_update (Progress *bar, guint64 done, guint64 total)
{
    if (bar == NULL)
        return;
    gint64 now = g_get_monotonic_time ();
    if (!bar->started) {
        bar->started = TRUE;
        bar->start_us = now;
        bar->first = done;
    } else if (now - bar->drawn_us < REDRAW_US && done < total) {
        return;
    }
    bar->drawn_us = now;
    draw (bar, done, total, now);
}

void
progress_free (Progress *bar)
{
    if (bar == NULL)
        return;
    if (bar->started)
        fputs ("\r\033[K", stderr);
    g_free (bar->label);
    g_free (bar->unit);
    g_free (bar);
}
