/*
 * preset_find.c -- where a preset's file is: a path, or NAME.ini in the
 * preset search path.  See preset.h.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "models/preset.h"
#include "models/preset_priv.h"

static char *
search_dir (guint i)
{
    const char *env = g_getenv ("SMSIM_PRESET_DIR");
    const char *dirs[] = { env, SMSIM_SRC_PRESET_DIR, SMSIM_DATA_PRESET_DIR };
    if (i >= G_N_ELEMENTS (dirs))
        return NULL;
    return g_strdup (dirs[i] && *dirs[i] ? dirs[i] : "");
}

/* A preset in the search path is a regular file (through links), the
 * only kind textfile_read reads: anything else named NAME.ini (a link
 * to /dev/zero, a directory, a dangling link) is neither found nor
 * listed, and hides no preset further down the search path. */
static gboolean
is_preset_file (const char *path)
{
    return g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

gboolean
preset_is_path (const char *name)
{
    return strchr (name, '/') != NULL || g_str_has_suffix (name, ".ini");
}

char *
preset_find_preset (const char *name, const char *relative_to, GError **error)
{
    if (preset_is_path (name)) {
        if (relative_to != NULL && !g_path_is_absolute (name)) {
            g_autofree char *dir = g_path_get_dirname (relative_to);
            return g_build_filename (dir, name, NULL);
        }
        return g_strdup (name);
    }
    g_autofree char *file = g_strconcat (name, ".ini", NULL);
    for (guint i = 0;; i++) {
        g_autofree char *dir = search_dir (i);
        if (dir == NULL)
            break;
        if (*dir == '\0')
            continue;
        g_autofree char *path = g_build_filename (dir, file, NULL);
        if (is_preset_file (path))
            return g_steal_pointer (&path);
    }
    g_auto (GStrv) names = preset_names ();
    g_autofree char *known = g_strjoinv (", ", names);
    g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_NOT_FOUND,
                 "unknown GPU '%s' (presets: %s; or give a path to a .ini)",
                 name, *known ? known : "none found");
    return NULL;
}

char *
preset_find_config (const char *path, GError **error)
{
    GStatBuf st;
    const char *why = NULL;
    if (g_stat (path, &st) != 0 || g_access (path, R_OK) != 0)
        why = g_strerror (errno);
    else if (S_ISDIR (st.st_mode))
        why = "a directory, not a preset file";
    if (why == NULL)
        return g_strdup (path);
    g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_NOT_FOUND,
                 "--config %s: %s", path, why);
    return NULL;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
    return strcmp (*(char *const *) a, *(char *const *) b);
}

char **
preset_names (void)
{
    g_autoptr (GPtrArray) names = g_ptr_array_new ();
    g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash,
                                                         g_str_equal, g_free,
                                                         NULL);
    for (guint i = 0;; i++) {
        g_autofree char *dir = search_dir (i);
        if (dir == NULL)
            break;
        g_autoptr (GDir) d = *dir ? g_dir_open (dir, 0, NULL) : NULL;
        const char *file;
        while (d != NULL && (file = g_dir_read_name (d)) != NULL) {
            if (!g_str_has_suffix (file, ".ini"))
                continue;
            g_autofree char *path = g_build_filename (dir, file, NULL);
            if (!is_preset_file (path))
                continue;
            char *name = g_strndup (file, strlen (file) - 4);
            if (g_hash_table_contains (seen, name)) {
                g_free (name);
                continue;
            }
            g_hash_table_add (seen, name);
            g_ptr_array_add (names, name);
        }
    }
    g_ptr_array_sort (names, compare_names);
    char **out = g_new0 (char *, names->len + 1);
    for (guint i = 0; i < names->len; i++)
        out[i] = g_strdup (names->pdata[i]);
    return out;
}
