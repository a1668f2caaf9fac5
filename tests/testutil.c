/*
 * testutil.c -- see testutil.h.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <stdlib.h>

#include "testutil.h"

Preset *
tu_preset (const char *name)
{
    g_autoptr (GError) error = NULL;
    Preset *preset = preset_load (name, NULL, NULL, &error);
    cr_assert_not_null (preset, "preset %s: %s", name,
                        error ? error->message : "?");
    return preset;
}

static char *scratch_dir = NULL;
static GPtrArray *scratch_files = NULL;

static void
remove_scratch (void)
{
    for (guint i = 0; i < scratch_files->len; i++)
        g_unlink (scratch_files->pdata[i]);
    g_rmdir (scratch_dir);
}

char *
tu_write_file (const char *name, const char *text)
{
    if (scratch_dir == NULL) {
        scratch_dir = g_dir_make_tmp ("smsim-test-XXXXXX", NULL);
        cr_assert_not_null (scratch_dir);
        scratch_files = g_ptr_array_new_with_free_func (g_free);
        atexit (remove_scratch);
    }
    char *path = g_build_filename (scratch_dir, name, NULL);
    cr_assert (g_file_set_contents (path, text, -1, NULL));
    g_ptr_array_add (scratch_files, g_strdup (path));
    return path;
}
