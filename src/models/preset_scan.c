/*
 * preset_scan.c -- the line scan of a preset file, which remembers the
 * line of each key.  See preset_priv.h.
 *
 * GKeyFile reports neither file nor line: the scan, before it, catches
 * syntax errors and duplicate keys with their line, and its index lets
 * the errors found later point at the key.
 */
#include "config.h"

#include <string.h>

#include "models/preset.h"
#include "models/preset_priv.h"

void
preset_line_index_clear (LineIndex *index)
{
    g_clear_pointer (&index->lines, g_hash_table_unref);
}

int
preset_line_of (const LineIndex *index, const char *group, const char *key)
{
    g_autofree char *k = g_strconcat (group, "\x1f", key ? key : "", NULL);
    return GPOINTER_TO_INT (g_hash_table_lookup (index->lines, k));
}

static gboolean
scan_line (LineIndex *index, char **group, const char *raw, int line,
           GError **error)
{
    g_autofree char *text = g_strstrip (g_strdup (raw));
    if (*text == '\0' || *text == '#')
        return TRUE;
    if (*text == '[') {
        char *end = strchr (text, ']');
        if (end == NULL || end[1] != '\0' || end == text + 1) {
            g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_PARSE,
                         "%s:%d: '%s' is not a [group] header",
                         index->path, line, text);
            return FALSE;
        }
        g_free (*group);
        *group = g_strndup (text + 1, (gsize) (end - text - 1));
        g_hash_table_insert (index->lines, g_strconcat (*group, "\x1f", NULL),
                             GINT_TO_POINTER (line));
        return TRUE;
    }
    char *eq = strchr (text, '=');
    if (eq == NULL || eq == text) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_PARSE,
                     "%s:%d: '%s' is not a [group], a key = value or a "
                     "# comment (comments take a whole line)",
                     index->path, line, text);
        return FALSE;
    }
    if (*group == NULL) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_PARSE,
                     "%s:%d: key '%s' comes before any [group]",
                     index->path, line, text);
        return FALSE;
    }
    *eq = '\0';
    g_autofree char *k = g_strconcat (*group, "\x1f", g_strstrip (text), NULL);
    int first = GPOINTER_TO_INT (g_hash_table_lookup (index->lines, k));
    if (first != 0) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_PARSE,
                     "%s:%d: [%s] %s is set twice (first at line %d)",
                     index->path, line, *group, g_strstrip (text), first);
        return FALSE;
    }
    g_hash_table_insert (index->lines, g_steal_pointer (&k),
                         GINT_TO_POINTER (line));
    return TRUE;
}

gboolean
preset_scan_file (LineIndex *index, const char *contents, GError **error)
{
    g_auto (GStrv) lines = g_strsplit (contents, "\n", -1);
    g_autofree char *group = NULL;
    index->lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    for (int i = 0; lines[i] != NULL; i++)
        if (!scan_line (index, &group, lines[i], i + 1, error))
            return FALSE;
    return TRUE;
}
