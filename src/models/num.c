/*
 * num.c -- numbers from user text.  See num.h.
 */
#include "config.h"

#include <errno.h>

#include "models/num.h"

gboolean
num_parse_int (const char *text, gint64 *out)
{
    char *end = NULL;
    errno = 0;
    gint64 v = g_ascii_strtoll (text, &end, 10);
    if (errno != 0 || end == text || *end != '\0')
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
