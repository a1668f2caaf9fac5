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
