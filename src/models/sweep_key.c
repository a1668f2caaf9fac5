/*
 * sweep_key.c -- the keys a sweep varies and their GPU-free checks.
 * See sweep_key.h.
 */
#include "config.h"

#include <string.h>

#include "models/kern.h"
#include "models/num.h"
#include "models/preset.h"
#include "models/sweep_key.h"

/* Launch keys: name, kind, smallest value, largest (G_MAXINT64: none). */
static const struct {
    const char *name;
    SweepKeyKind kind;
    gint64 min;
    gint64 max;
} launch_keys[] = {
    { "kernel", SWEEP_KEY_KERNEL, 0, 0 },
    { "size", SWEEP_KEY_SIZE, 1, G_MAXINT64 },
    { "regs", SWEEP_KEY_REGS, 0, G_MAXINT32 },
    { "smem", SWEEP_KEY_SMEM, 0, G_MAXINT32 },
    { "threads", SWEEP_KEY_THREADS, 1, G_MAXINT32 },
    { "dyn_smem", SWEEP_KEY_DYN_SMEM, 0, G_MAXINT32 },
    /* -1: no preference, as in `smsim occupancy --carveout` */
    { "carveout", SWEEP_KEY_CARVEOUT, -1, 100 },
};

const char *
sweep_key_help (void)
{
    return "a preset key GROUP.KEY (`smsim query --keys`), param.NAME (a "
           "kernel parameter, `smsim kernels`), or one of kernel, size, "
           "regs, smem, threads, dyn_smem, carveout";
}

static gboolean
parse_preset_key (const char *name, const char *dot, SweepKey *key,
                  GError **error)
{
    g_autofree char *group = g_strndup (name, (gsize) (dot - name));
    key->pkey = pkey_find (group, dot + 1);
    if (key->pkey == NULL) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_UNKNOWN_KEY,
                     "unknown key '%s': not in the preset key table; give %s",
                     name, sweep_key_help ());
        return FALSE;
    }
    if (pkey_file_only (key->pkey)) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_UNKNOWN_KEY,
                     "key '%s' can only be set in a preset file (make one "
                     "with base= and give it with --config)", name);
        return FALSE;
    }
    key->kind = SWEEP_KEY_PRESET;
    return TRUE;
}

gboolean
sweep_key_parse (const char *name, SweepKey *key, GError **error)
{
    const char *dot = strchr (name, '.');
    memset (key, 0, sizeof *key);
    for (guint i = 0; i < G_N_ELEMENTS (launch_keys); i++)
        if (strcmp (name, launch_keys[i].name) == 0) {
            key->kind = launch_keys[i].kind;
            key->name = g_strdup (name);
            return TRUE;
        }
    if (g_str_has_prefix (name, "param.") && name[6] != '\0') {
        key->kind = SWEEP_KEY_PARAM;
        key->name = g_strdup (name);
        key->param = key->name + 6;
        return TRUE;
    }
    if (dot == NULL || dot == name || dot[1] == '\0') {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_UNKNOWN_KEY,
                     "unknown key '%s': give %s", name, sweep_key_help ());
        return FALSE;
    }
    if (!parse_preset_key (name, dot, key, error))
        return FALSE;
    key->name = g_strdup (name);
    return TRUE;
}

void
sweep_key_clear (SweepKey *key)
{
    g_clear_pointer (&key->name, g_free);
    key->param = NULL;
    key->pkey = NULL;
}

static gboolean
check_int (const char *value, gint64 min, gint64 max, char **why)
{
    gint64 v;
    if (!num_parse_int (value, &v)) {
        *why = g_strdup ("not an integer");
        return FALSE;
    }
    if (v < min || v > max) {
        *why = max == G_MAXINT64
                   ? g_strdup_printf ("must be at least %" G_GINT64_FORMAT, min)
                   : g_strdup_printf ("must be %" G_GINT64_FORMAT "..%"
                                      G_GINT64_FORMAT, min, max);
        return FALSE;
    }
    return TRUE;
}

gboolean
sweep_key_check_value (const SweepKey *key, const char *value, char **why)
{
    if (*value == '\0') {
        *why = g_strdup ("empty value");
        return FALSE;
    }
    /* The shard lines hold a key's values on one line, and the rows are
     * read back a line at a time: a line break would split them. */
    for (const char *c = value; *c != '\0'; c++)
        if ((guchar) *c < 0x20 || *c == 0x7f) {
            *why = g_strdup_printf ("a control character (byte 0x%02x at "
                                    "%d): a value must be one line of text",
                                    (guchar) *c, (int) (c - value) + 1);
            return FALSE;
        }
    switch (key->kind) {
    case SWEEP_KEY_PRESET:
        return TRUE;    /* the preset loader checks it (it knows the type) */
    case SWEEP_KEY_PARAM:
        return check_int (value, G_MININT64, G_MAXINT64, why);
    case SWEEP_KEY_KERNEL:
        if (kern_find (value) != NULL)
            return TRUE;
        *why = g_strdup ("no such kernel model (`smsim kernels` lists them)");
        return FALSE;
    default:
        break;
    }
    for (guint i = 0; i < G_N_ELEMENTS (launch_keys); i++)
        if (launch_keys[i].kind == key->kind)
            return check_int (value, launch_keys[i].min, launch_keys[i].max,
                              why);
    g_assert_not_reached ();
}
