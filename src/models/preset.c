/*
 * preset.c -- load, layer and check GPU presets.  See preset.h.
 *
 * GKeyFile parses the files but reports neither file nor line, and
 * checks no ranges (STYLE.md 4.3).  So each file is first scanned line
 * by line (preset_scan.c): that catches syntax errors and duplicate
 * keys with their line, and remembers where every key stands so that
 * later errors can point at it.  Where a file is found is
 * preset_find.c's, --set preset_set.c's; the rules between keys, once
 * all are read, are preset_rules.c's.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "models/num.h"
#include "models/pkey.h"
#include "models/preset.h"
#include "models/preset_priv.h"
#include "models/textfile.h"

G_DEFINE_QUARK (smsim-preset-error-quark, preset_error)

/* A base= chain deeper than this is surely a mistake. */
#define MAX_BASE_DEPTH 8

/* ------------------------------------------------------------------ */
/* Values                                                              */

void *
preset_slot_of (Preset *preset, const PkeyInfo *info)
{
    return (char *) &preset->spec + info->offset;
}

static gboolean
parse_list (const PkeyInfo *info, const char *text, SpecIntList *list,
            char **why)
{
    g_auto (GStrv) items = g_strsplit (text, ";", -1);
    list->n = 0;
    for (int i = 0; items[i] != NULL; i++) {
        char *item = g_strstrip (items[i]);
        gint64 v;
        if (*item == '\0' && items[i + 1] == NULL && i > 0)
            break;  /* GKeyFile lists may end with ';' */
        gboolean fits = num_parse_int (item, &v);
        if (!fits && !num_is_integer (item)) {
            *why = g_strdup_printf ("'%s' is not an integer%s", item,
                                    strchr (item, ',') != NULL
                                        ? " (a list's items are separated "
                                          "by ';', e.g. 0;8;16)"
                                        : "");
            return FALSE;
        }
        if (!fits || v < info->min || v > info->max) {
            *why = g_strdup_printf ("item %s is outside %.0f..%.0f", item,
                                    info->min, info->max);
            return FALSE;
        }
        if (list->n > 0 && v <= list->v[list->n - 1]) {
            *why = g_strdup ("items must be strictly ascending");
            return FALSE;
        }
        if (list->n == SPEC_LIST_MAX) {
            *why = g_strdup_printf ("more than %d items", SPEC_LIST_MAX);
            return FALSE;
        }
        list->v[list->n++] = (int) v;
    }
    if (list->n == 0) {
        *why = g_strdup ("the list is empty");
        return FALSE;
    }
    return TRUE;
}

/* "must be 1..16", the unit after it where the key has one ("must be
 * 1024..4194304 registers"). */
static char *
must_be (const char *range, const PkeyInfo *info)
{
    return g_strdup_printf ("must be %s%s%s", range, *info->unit ? " " : "",
                            info->unit);
}

char *
preset_shown_text (const char *text)
{
    GString *out = g_string_new (NULL);
    for (const char *c = text; *c; c++)
        if (*c == '\n')
            g_string_append (out, "\\n");
        else if (*c == '\t')
            g_string_append (out, "\\t");
        else if (g_ascii_iscntrl (*c))
            g_string_append_printf (out, "\\x%02x", (guchar) *c);
        else
            g_string_append_c (out, *c);
    return g_string_free (out, FALSE);
}

gboolean
preset_is_name (const char *text)
{
    if (*text == '\0')
        return FALSE;
    for (const char *c = text; *c; c++)
        if (!g_ascii_isalnum (*c) && *c != '_' && *c != '-' && *c != '.')
            return FALSE;
    return TRUE;
}

gboolean
preset_store_value (Preset *preset, const PkeyInfo *info, const char *text,
                    char **why)
{
    gint64 i;
    double d;
    g_autofree char *range = pkey_range_text (info);

    switch (info->type) {
    case PKEY_INT:
        if (!num_parse_int (text, &i)) {
            /* Digits past gint64 are an integer all the same: too big. */
            g_autofree char *bounds = must_be (range, info);
            *why = num_is_integer (text)
                       ? g_strconcat ("out of range: ", bounds, NULL)
                       : g_strdup ("not an integer");
            return FALSE;
        }
        if (i < info->min || i > info->max) {
            *why = must_be (range, info);
            return FALSE;
        }
        if (info->offset != (size_t) -1)
            *(int *) preset_slot_of (preset, info) = (int) i;
        return TRUE;
    case PKEY_DOUBLE:
        /* As written is how query shows it: 0x1p10 and inf are no
         * datasheet's numbers. */
        if (!num_parse_double (text, &d)) {
            *why = g_strdup ("not a number in decimal (e.g. 1555 or 0.5)");
            return FALSE;
        }
        if (!(d >= info->min && d <= info->max)) {
            *why = must_be (range, info);
            return FALSE;
        }
        *(double *) preset_slot_of (preset, info) = d;
        return TRUE;
    case PKEY_BOOL:
        if (strcmp (text, "true") != 0 && strcmp (text, "false") != 0) {
            *why = g_strdup ("must be true or false");
            return FALSE;
        }
        *(gboolean *) preset_slot_of (preset, info) =
            strcmp (text, "true") == 0;
        return TRUE;
    case PKEY_STRING:
        for (const char *c = text; *c; c++)
            if (g_ascii_iscntrl (*c)) {
                *why = g_strdup ("a control character (a line break?): must "
                                 "be one line of text");
                return FALSE;
            }
        if (pkey_is_name (info) && !preset_is_name (text)) {
            *why = g_strdup ("must be a name of letters, digits, '_', '-' "
                             "and '.': it names the GPU in trace files and "
                             "tables");
            return FALSE;
        }
        if (info->offset != (size_t) -1) {
            char **s = preset_slot_of (preset, info);
            g_free (*s);
            *s = g_strdup (text);
        }
        return TRUE;
    case PKEY_ENUM:
        for (int k = 0; info->names[k] != NULL; k++)
            if (strcmp (text, info->names[k]) == 0) {
                *(int *) preset_slot_of (preset, info) = k;
                return TRUE;
            }
        *why = g_strdup_printf ("must be one of %s", range);
        return FALSE;
    case PKEY_INT_LIST: {
        SpecIntList list;
        if (!parse_list (info, text, &list, why))
            return FALSE;
        *(SpecIntList *) preset_slot_of (preset, info) = list;
        return TRUE;
    }
    }
    g_assert_not_reached ();
}

static char *
fold_comment (const char *comment)
{
    if (comment == NULL)
        return g_strdup ("");
    g_auto (GStrv) words = g_strsplit_set (comment, " \t\n", -1);
    GString *out = g_string_new (NULL);
    for (int i = 0; words[i] != NULL; i++) {
        if (*words[i] == '\0')
            continue;
        if (out->len > 0)
            g_string_append_c (out, ' ');
        g_string_append (out, words[i]);
    }
    return g_string_free (out, FALSE);
}

void
preset_record (Preset *preset, const PkeyInfo *info, const char *text,
               char *source, const char *origin, int line)
{
    PresetValue *v = &preset->values[pkey_index (info)];
    g_free (v->text);
    g_free (v->source);
    g_free (v->origin);
    v->set = TRUE;
    v->text = g_strdup (text);
    v->source = source;
    v->origin = g_strdup (origin);
    v->line = line;
}

/* ------------------------------------------------------------------ */
/* Files and the base= chain                                           */

static gboolean
load_key (Preset *preset, GKeyFile *kf, const LineIndex *index,
          const char *group, const char *key, GError **error)
{
    int line = preset_line_of (index, group, key);
    const PkeyInfo *info = pkey_find (group, key);
    if (info == NULL) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_UNKNOWN_KEY,
                     "%s:%d: unknown key [%s] %s (`smsim query --keys` "
                     "lists the keys)", index->path, line, group, key);
        return FALSE;
    }
    g_autofree char *raw = g_key_file_get_value (kf, group, key, NULL);
    g_autofree char *text = g_strstrip (g_strdup (raw ? raw : ""));
    g_autofree char *why = NULL;
    if (!preset_store_value (preset, info, text, &why)) {
        g_autofree char *shown = preset_shown_text (text);
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_VALUE,
                     "%s:%d: [%s] %s = %s: %s", index->path, line, group, key,
                     shown, why);
        return FALSE;
    }
    g_autofree char *comment = g_key_file_get_comment (kf, group, key, NULL);
    preset_record (preset, info, text, fold_comment (comment), index->path,
                   line);
    return TRUE;
}

static gboolean load_file (Preset *preset, const char *path,
                           GPtrArray *chain, GError **error);

static gboolean
load_base (Preset *preset, GKeyFile *kf, const LineIndex *index,
           GPtrArray *chain, GError **error)
{
    g_autofree char *base = g_key_file_get_string (kf, "preset", "base", NULL);
    if (base == NULL)
        return TRUE;
    g_strstrip (base);
    int line = preset_line_of (index, "preset", "base");
    g_autofree char *path = preset_find_preset (base, index->path, error);
    if (path == NULL) {
        g_prefix_error (error, "%s:%d: [preset] base = %s: ", index->path,
                        line, base);
        return FALSE;
    }
    if (chain->len >= MAX_BASE_DEPTH) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_BASE,
                     "%s:%d: [preset] base = %s: base= chain deeper than %d",
                     index->path, line, base, MAX_BASE_DEPTH);
        return FALSE;
    }
    /* Whatever is wrong in the base (or its bases) is this line's
     * error too: every preset built on a broken one names itself. */
    if (!load_file (preset, path, chain, error)) {
        g_prefix_error (error, "%s:%d: [preset] base = %s: ", index->path,
                        line, base);
        return FALSE;
    }
    /* The deepest named base returns first. */
    if (preset->root == NULL && !preset_is_path (base))
        preset->root = g_strdup (base);
    return TRUE;
}

static gboolean
known_group (const char *group)
{
    guint n;
    const PkeyInfo *keys = pkey_table (&n);
    for (guint i = 0; i < n; i++)
        if (strcmp (keys[i].group, group) == 0)
            return TRUE;
    return FALSE;
}

/* An unknown group's keys are unknown keys, named first; one with none
 * is still refused, as a typo would be. */
static gboolean
load_keys (Preset *preset, GKeyFile *kf, const LineIndex *index,
           GError **error)
{
    g_auto (GStrv) groups = g_key_file_get_groups (kf, NULL);
    for (int g = 0; groups[g] != NULL; g++) {
        g_auto (GStrv) keys = g_key_file_get_keys (kf, groups[g], NULL, NULL);
        for (int k = 0; keys[k] != NULL; k++)
            if (!load_key (preset, kf, index, groups[g], keys[k], error))
                return FALSE;
        if (!known_group (groups[g])) {
            g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_UNKNOWN_KEY,
                         "%s:%d: unknown group [%s] (`smsim query --keys` "
                         "lists the keys)", index->path,
                         preset_line_of (index, groups[g], NULL), groups[g]);
            return FALSE;
        }
    }
    return TRUE;
}

static gboolean
in_chain (GPtrArray *chain, const char *path, char **canonical)
{
    *canonical = realpath (path, NULL);
    if (*canonical == NULL)
        *canonical = g_strdup (path);
    for (guint i = 0; i < chain->len; i++)
        if (strcmp (chain->pdata[i], *canonical) == 0)
            return TRUE;
    return FALSE;
}

/* Load 'path' and its bases (load_base names the base= line in an
 * error of the base's). */
static gboolean
load_file (Preset *preset, const char *path, GPtrArray *chain,
           GError **error)
{
    g_autofree char *contents = NULL;
    g_autofree char *canonical = NULL;
    g_autoptr (GKeyFile) kf = g_key_file_new ();
    g_auto (LineIndex) index = { path, NULL };
    GError *local = NULL;

    if (in_chain (chain, path, &canonical)) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_BASE,
                     "%s: base= chain comes back to this file", path);
        return FALSE;
    }
    gsize length;
    if (!textfile_read (path, &contents, &length, &local)) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_NOT_FOUND,
                     "%s", local->message);
        g_error_free (local);
        return FALSE;
    }
    length = textfile_drop_bom (contents, length);
    /* The key file is read as a C string: past a NUL byte, keys would
     * be dropped without a word. */
    const char *bad = memchr (contents, '\0', length);
    /* Its text goes into JSON and messages, which must be UTF-8. */
    if (bad == NULL)
        g_utf8_validate (contents, (gssize) length, &bad);
    if (bad != NULL && bad < contents + length) {
        guint line = 1;
        for (const char *c = contents; c < bad; c++)
            line += *c == '\n';
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_PARSE,
                     "%s:%u: %s: a preset is UTF-8 text", path, line,
                     *bad == '\0' ? "a NUL byte" : "not UTF-8");
        return FALSE;
    }
    if (!preset_scan_file (&index, contents, error))
        return FALSE;
    /* GKeyFile takes "key[xx]" for a translation of key and, unless
     * asked to keep them, drops those not in the user's languages: a
     * locale-suffixed key would pass unseen in one locale and be
     * refused in another.  Kept, it is an unknown key, as written. */
    if (!g_key_file_load_from_data (kf, contents, (gsize) -1,
                                    G_KEY_FILE_KEEP_COMMENTS |
                                        G_KEY_FILE_KEEP_TRANSLATIONS,
                                    &local)) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_PARSE, "%s: %s",
                     path, local->message);
        g_error_free (local);
        return FALSE;
    }
    g_ptr_array_add (preset->files, g_strdup (canonical));
    g_ptr_array_add (chain, g_steal_pointer (&canonical));
    return load_base (preset, kf, &index, chain, error) &&
           load_keys (preset, kf, &index, error);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

static Preset *
preset_new (void)
{
    guint n;
    pkey_table (&n);
    Preset *preset = g_new0 (Preset, 1);
    preset->values = g_new0 (PresetValue, n);
    preset->n_values = n;
    preset->files = g_ptr_array_new_with_free_func (g_free);
    return preset;
}

void
preset_free (Preset *preset)
{
    guint n;
    const PkeyInfo *keys;
    if (preset == NULL)
        return;
    keys = pkey_table (&n);
    for (guint i = 0; i < n; i++) {
        if (keys[i].type == PKEY_STRING && keys[i].offset != (size_t) -1)
            g_free (*(char **) preset_slot_of (preset, &keys[i]));
        g_free (preset->values[i].text);
        g_free (preset->values[i].source);
        g_free (preset->values[i].origin);
    }
    g_free (preset->values);
    g_free (preset->root);
    g_ptr_array_unref (preset->files);
    g_free (preset);
}

static gboolean
set_here (const Preset *preset, const char *group, const char *key,
          const char *path)
{
    const PresetValue *v = &preset->values[pkey_index (pkey_find (group, key))];
    return v->set && strcmp (v->origin, path) == 0;
}

/* The name of a preset file that sets none itself: its file's stem when
 * given as a path or --config, the NAME it was found by as NAME.ini. */
static char *
found_name (const char *name, gboolean config)
{
    if (!config && !preset_is_path (name))
        return g_strdup (name);
    char *stem = g_path_get_basename (name);
    char *dot = strrchr (stem, '.');
    if (dot != NULL)
        *dot = '\0';
    return stem;
}

static gboolean
misnamed (const Preset *preset, const char *path, const char *stem,
          GError **error)
{
    int line = preset->values[pkey_index (pkey_find ("preset", "name"))].line;
    g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_VALUE,
                 "%s:%d: [preset] name = %s: a preset is named as its file, "
                 "%s (or leave name= out)", path, line, preset->spec.id,
                 stem);
    return FALSE;
}

/* Load 'name' (the --config file when 'config'), on top of the preset
 * 'under' when one is given. */
static gboolean
load_top (Preset *preset, const char *name, gboolean config, const char *under,
          GError **error)
{
    g_autoptr (GPtrArray) chain = g_ptr_array_new_with_free_func (free);
    g_autofree char *path = config ? preset_find_config (name, error)
                                   : preset_find_preset (name, NULL, error);
    if (path == NULL)
        return FALSE;
    if (under != NULL) {
        g_autofree char *base = preset_find_preset (under, NULL, error);
        if (base == NULL || !load_file (preset, base, chain, error))
            return FALSE;
        g_ptr_array_set_size (chain, 0);
        if (preset->root == NULL && !preset_is_path (under))
            preset->root = g_strdup (under);
    }
    if (!load_file (preset, path, chain, error))
        return FALSE;
    if (!config && !preset_is_path (name)) {
        g_free (preset->root);
        preset->root = g_strdup (name);
    }
    if (under != NULL && set_here (preset, "preset", "base", path)) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_BASE,
                     "%s has a base= and --gpu %s was given too: give one",
                     path, under);
        return FALSE;
    }
    /* A file that inherits its name would pass for its base, whether it
     * was given as a path or found as NAME.ini in the search path; one
     * that names itself otherwise would pass for another GPU (a fast.ini
     * named a100 listed as a second a100, and its traces replayed on
     * the shipped one). */
    g_autofree char *stem = found_name (name, config);
    if (!preset_is_name (stem)) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_VALUE,
                     "%s: a preset is named as its file, and '%s' is no "
                     "name (letters, digits, '_', '-' and '.'): rename the "
                     "file", path, stem);
        return FALSE;
    }
    if (!set_here (preset, "preset", "name", path)) {
        g_free (preset->spec.id);
        preset->spec.id = g_steal_pointer (&stem);
    } else if (strcmp (preset->spec.id, stem) != 0) {
        return misnamed (preset, path, stem, error);
    }
    return TRUE;
}

Preset *
preset_load (const char *gpu, const char *config, const char *const *sets,
             GError **error)
{
    g_autoptr (Preset) preset = preset_new ();
    const char *top = config ? config : gpu;
    if (top == NULL) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_NO_GPU,
                     "no GPU given: use --gpu NAME (see `smsim gpus`) or "
                     "--config FILE");
        return NULL;
    }
    if (!load_top (preset, top, config != NULL, config ? gpu : NULL, error))
        return NULL;
    for (int i = 0; sets != NULL && sets[i] != NULL; i++)
        if (!preset_apply_set (preset, sets[i], error))
            return NULL;
    if (!preset_rules_check (preset, top, error))
        return NULL;
    return g_steal_pointer (&preset);
}

const char *const *
preset_files (const Preset *preset, guint *n)
{
    *n = preset->files->len;
    return (const char *const *) preset->files->pdata;
}

const GpuSpec *
preset_spec (const Preset *preset)
{
    return &preset->spec;
}

const char *
preset_root (const Preset *preset)
{
    return preset->root;
}

gboolean
preset_has (const Preset *preset, guint key)
{
    return key < preset->n_values && preset->values[key].set;
}

const char *
preset_text (const Preset *preset, guint key)
{
    return preset_has (preset, key) ? preset->values[key].text : NULL;
}

const char *
preset_source (const Preset *preset, guint key)
{
    return preset_has (preset, key) ? preset->values[key].source : NULL;
}

const char *
preset_origin (const Preset *preset, guint key, int *line)
{
    if (!preset_has (preset, key))
        return NULL;
    if (line != NULL)
        *line = preset->values[key].line;
    return preset->values[key].origin;
}

char *
preset_what_if (const Preset *preset)
{
    guint n;
    const PkeyInfo *keys = pkey_table (&n);
    g_autoptr (GString) text = g_string_new (NULL);
    for (guint i = 0; i < n; i++) {
        const char *origin = preset_origin (preset, i, NULL);
        if (origin != NULL && strcmp (origin, ORIGIN_SET) == 0)
            g_string_append_printf (text, "%s%s.%s = %s",
                                    text->len > 0 ? ", " : "", keys[i].group,
                                    keys[i].key, preset_text (preset, i));
    }
    return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE)
                         : NULL;
}

gboolean
preset_assumed (const Preset *preset, guint key)
{
    const char *source = preset_source (preset, key);
    return source != NULL && g_str_has_prefix (source, "ASSUMED");
}
