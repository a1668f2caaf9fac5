/*
 * csv.c -- split and quote CSV fields.  See csv.h.
 */
#include "config.h"

#include <string.h>

#include "models/csv.h"

GPtrArray *
csv_split (const char *line)
{
    GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
    g_autoptr (GString) field = g_string_new (NULL);
    gboolean quoted = FALSE;
    for (const char *c = line;; c++) {
        if (*c == '\0' || (*c == ',' && !quoted)) {
            g_ptr_array_add (fields, g_strdup (g_strstrip (field->str)));
            g_string_truncate (field, 0);
            if (*c == '\0')
                break;
        } else if (*c == '"' && quoted && c[1] == '"') {
            g_string_append_c (field, '"');
            c++;
        } else if (*c == '"') {
            quoted = !quoted;
        } else {
            g_string_append_c (field, *c);
        }
    }
    return fields;
}

gboolean
csv_unclosed_quote (const char *line)
{
    guint quotes = 0;
    for (const char *c = strchr (line, '"'); c != NULL; c = strchr (c + 1, '"'))
        quotes++;
    return quotes % 2 != 0;
}

void
csv_append_field (GString *out, const char *field)
{
    if (strpbrk (field, ",\"\n\r") == NULL) {
        g_string_append (out, field);
        return;
    }
    g_string_append_c (out, '"');
    for (const char *c = field; *c; c++) {
        if (*c == '"')
            g_string_append_c (out, '"');
        g_string_append_c (out, *c);
    }
    g_string_append_c (out, '"');
}

guint
csv_nul_line (const char *text, gsize len)
{
    const char *nul = memchr (text, '\0', len);
    guint line = 1;
    if (nul == NULL)
        return 0;
    for (const char *c = text; c < nul; c++)
        line += *c == '\n';
    return line;
}
