/*
 * num.c -- numbers from user text.  See num.h.
 */
#include "config.h"

#include <errno.h>
#include <math.h>

#include "models/num.h"

gboolean
num_parse_int (const char *text, gint64 *out)
{
    /* strtoll would take spaces before the number too: "BM= 64" went
     * where "BM=64 " was refused. */
    if (!num_is_integer (text))
        return FALSE;
    char *end = NULL;
    errno = 0;
    gint64 v = g_ascii_strtoll (text, &end, 10);
    if (errno != 0)
        return FALSE;
    *out = v;
    return TRUE;
}

gboolean
num_parse_uint (const char *text, guint64 *out)
{
    char *end = NULL;
    errno = 0;
    guint64 v = g_ascii_strtoull (text, &end, 10);
    /* strtoull would take a sign, and spaces before it. */
    if (!g_ascii_isdigit (*text) || errno != 0 || *end != '\0')
        return FALSE;
    *out = v;
    return TRUE;
}

/* The digits at 'c' skipped; how many in '*n'. */
static const char *
skip_digits (const char *c, guint *n)
{
    *n = 0;
    for (; g_ascii_isdigit (*c); c++)
        (*n)++;
    return c;
}

/* Whether 'text' is written as num_parse_double takes it. */
static gboolean
is_decimal (const char *text)
{
    guint whole, fraction = 0, exponent = 1;
    const char *c = skip_digits (text + (*text == '-' || *text == '+'), &whole);
    if (*c == '.')
        c = skip_digits (c + 1, &fraction);
    if (whole + fraction > 0 && (*c == 'e' || *c == 'E'))
        c = skip_digits (c + 1 + (c[1] == '-' || c[1] == '+'), &exponent);
    return whole + fraction > 0 && exponent > 0 && *c == '\0';
}

gboolean
num_parse_double (const char *text, double *out)
{
    if (!is_decimal (text))
        return FALSE;
    errno = 0;
    double v = g_ascii_strtod (text, NULL);
    if (errno != 0 || !isfinite (v))
        return FALSE;
    *out = v;
    return TRUE;
}

gboolean
num_is_integer (const char *text)
{
    const char *c = text + (*text == '-' || *text == '+');
    if (!g_ascii_isdigit (*c))
        return FALSE;
    while (g_ascii_isdigit (*c))
        c++;
    return *c == '\0';
}

char *
num_bytes_text (double bytes)
{
    static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
    /* A unit is taken where the figure would print as 1024 of the one
     * below: 1048575 B is "1.0 MiB", not "1024.0 KiB". */
    if (bytes < 1023.5)
        return g_strdup_printf ("%.0f B", bytes);
    guint u = 0;
    for (bytes /= 1024; bytes >= 1023.95 && u + 1 < G_N_ELEMENTS (units); u++)
        bytes /= 1024;
    return g_strdup_printf ("%.1f %s", bytes, units[u]);
}
