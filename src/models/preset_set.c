/*
 * preset_set.c -- `--set GROUP.KEY=VALUE`: the assignments read, checked
 * and applied over the files' values.  See preset.h.
 */
#include "config.h"

#include <string.h>

#include "models/pkey.h"
#include "models/preset.h"
#include "models/preset_priv.h"

/* "group.key=value" into its parts, each stripped; FALSE if it is not
 * of that form, or a part is empty. */
static gboolean
split_set (const char *assignment, char **group, char **key, char **text)
{
    const char *eq = strchr (assignment, '=');
    const char *dot = strchr (assignment, '.');
    if (eq == NULL || dot == NULL || dot > eq)
        return FALSE;
    g_autofree char *g = g_strstrip (g_strndup (assignment,
                                                (gsize) (dot - assignment)));
    g_autofree char *k = g_strstrip (g_strndup (dot + 1,
                                                (gsize) (eq - dot - 1)));
    g_autofree char *t = g_strstrip (g_strdup (eq + 1));
    if (*g == '\0' || *k == '\0' || *t == '\0')
        return FALSE;
    *group = g_steal_pointer (&g);
    *key = g_steal_pointer (&k);
    *text = g_steal_pointer (&t);
    return TRUE;
}

static gboolean
not_an_assignment (const char *assignment, GError **error)
{
    g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_FORM,
                 "--set %s: expected GROUP.KEY=VALUE, e.g. "
                 "sm.registers=131072", assignment);
    return FALSE;
}

gboolean
preset_apply_set (Preset *preset, const char *assignment, GError **error)
{
    g_autofree char *group = NULL;
    g_autofree char *key = NULL;
    g_autofree char *text = NULL;
    if (!split_set (assignment, &group, &key, &text))
        return not_an_assignment (assignment, error);
    const PkeyInfo *info = pkey_find (group, key);
    g_autofree char *why = NULL;
    if (info == NULL) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_UNKNOWN_KEY,
                     "--set %s: unknown key [%s] %s (`smsim query --keys` "
                     "lists the keys)", assignment, group, key);
        return FALSE;
    }
    if (pkey_file_only (info)) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_UNKNOWN_KEY,
                     "--set %s: [%s] %s can only be set in a preset file",
                     assignment, group, key);
        return FALSE;
    }
    if (!preset_store_value (preset, info, text, &why)) {
        g_autofree char *shown = preset_shown_text (text);
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_VALUE,
                     "--set [%s] %s = %s: %s", group, key, shown, why);
        return FALSE;
    }
    preset_record (preset, info, text, g_strdup ("set on the command line"),
                   ORIGIN_SET, 0);
    return TRUE;
}

char *
preset_set_name (const char *assignment)
{
    g_autofree char *group = NULL;
    g_autofree char *key = NULL;
    g_autofree char *text = NULL;
    if (!split_set (assignment, &group, &key, &text))
        return NULL;
    return g_strconcat (group, ".", key, NULL);
}

char *
preset_value_problem (const char *name, const char *text)
{
    const char *dot = strchr (name, '.');
    g_autofree char *group = dot ? g_strndup (name, (gsize) (dot - name)) : NULL;
    const PkeyInfo *info = dot ? pkey_find (group, dot + 1) : NULL;
    if (info == NULL)
        return g_strdup_printf ("no preset key %s", name);
    /* The table's type and range alone: no preset's values involved. */
    Preset scratch;
    memset (&scratch, 0, sizeof scratch);
    char *why = NULL;
    if (preset_store_value (&scratch, info, text, &why) &&
        info->type == PKEY_STRING && info->offset != (size_t) -1)
        g_free (*(char **) preset_slot_of (&scratch, info));
    return why;
}

gboolean
preset_check_sets (const char *const *sets, GError **error)
{
    g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash,
                                                         g_str_equal, g_free,
                                                         NULL);
    for (int i = 0; sets != NULL && sets[i] != NULL; i++) {
        g_autofree char *name = preset_set_name (sets[i]);
        if (name == NULL)
            return not_an_assignment (sets[i], error);
        const char *first = g_hash_table_lookup (seen, name);
        if (first != NULL) {
            g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_SET_TWICE,
                         "--set %s given twice (--set %s, then --set %s): "
                         "give each key once", name, first, sets[i]);
            return FALSE;
        }
        g_hash_table_insert (seen, g_steal_pointer (&name), (gpointer) sets[i]);
    }
    return TRUE;
}
