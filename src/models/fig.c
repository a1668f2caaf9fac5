/*
 * fig.c -- the figure registry, gnuplot variables and the figures'
 * presets.  See fig.h; each figure lives in a fig_*.c family file.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "models/fig.h"

G_DEFINE_QUARK (smsim-fig-error-quark, fig_error)

extern const FigDef fig_occupancy_def, fig_cliff_def, fig_latency_def,
    fig_coalescing_def, fig_banks_def, fig_validation_def, fig_roofline_def,
    fig_stalls_def, fig_timeline_def, fig_tiling_def, fig_whatif_def;

static const FigDef *const figures[] = {
    &fig_occupancy_def,
    &fig_cliff_def,
    &fig_latency_def,
    &fig_coalescing_def,
    &fig_banks_def,
    &fig_validation_def,
    &fig_roofline_def,
    &fig_stalls_def,
    &fig_timeline_def,
    &fig_tiling_def,
    &fig_whatif_def,
};

const FigDef *const *
fig_all (guint *n)
{
    *n = G_N_ELEMENTS (figures);
    return figures;
}

const FigDef *
fig_find (const char *name)
{
    char *end = NULL;
    long number = strtol (name, &end, 10);
    for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
        if (strcmp (figures[i]->name, name) == 0 ||
            (end != name && *end == '\0' && figures[i]->number == number))
            return figures[i];
    return NULL;
}

void
fig_data_init (FigData *d)
{
    d->csv = g_string_new (NULL);
    d->vars = g_string_new (NULL);
    d->notes = g_string_new (NULL);
}

void
fig_data_clear (FigData *d)
{
    if (d->csv != NULL)
        g_string_free (d->csv, TRUE);
    if (d->vars != NULL)
        g_string_free (d->vars, TRUE);
    if (d->notes != NULL)
        g_string_free (d->notes, TRUE);
    d->csv = d->vars = d->notes = NULL;
}

/* gnuplot single-quoted strings double a quote to escape it; a newline
 * would end the command, so it becomes a space. */
void
fig_append_quoted (GString *out, const char *name, const char *value)
{
    /* A gnuplot single-quoted string: a quote is doubled; a line break
     * would end the command, so it becomes a space. */
    g_string_append_printf (out, "%s = '", name);
    for (const char *c = value; *c; c++) {
        if (*c == '\'')
            g_string_append_c (out, '\'');
        g_string_append_c (out, *c == '\n' ? ' ' : *c);
    }
    g_string_append (out, "'\n");
}

void
fig_var_str (FigData *d, const char *name, const char *format, ...)
{
    va_list ap;
    va_start (ap, format);
    g_autofree char *value = g_strdup_vprintf (format, ap);
    va_end (ap);
    fig_append_quoted (d->vars, name, value);
}

void
fig_var_num (FigData *d, const char *name, double value)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    /* %.10g, never locale-dependent: gnuplot reads a C number. */
    g_ascii_formatd (buf, sizeof buf, "%.10g", isfinite (value) ? value : 0);
    g_string_append_printf (d->vars, "%s = %s\n", name, buf);
}

static void
key_append (GString *key, const char *const *sets)
{
    for (int i = 0; sets != NULL && sets[i] != NULL; i++)
        g_string_append_printf (key, "|%s", sets[i]);
}

Preset *
fig_preset (const FigOptions *o, const FigDef *fig, const char *const *extra,
            char **key, GError **error)
{
    const char *gpu = o->gpu != NULL || o->config != NULL ? o->gpu
                                                          : fig->default_gpu;
    g_autoptr (GPtrArray) sets = g_ptr_array_new ();
    for (int i = 0; o->sets != NULL && o->sets[i] != NULL; i++)
        g_ptr_array_add (sets, (gpointer) o->sets[i]);
    for (int i = 0; extra != NULL && extra[i] != NULL; i++)
        g_ptr_array_add (sets, (gpointer) extra[i]);
    g_ptr_array_add (sets, NULL);
    Preset *p = preset_load (gpu, o->config, (const char *const *) sets->pdata,
                             error);
    if (p == NULL)
        return NULL;
    if (fig->timing && !preset_spec (p)->timing) {
        g_set_error (error, SMSIM_FIG_ERROR, FIG_ERROR_OPTION,
                     "figure %s simulates kernels, and %s has no sourced "
                     "timing numbers: use v100, t4, a100, a6000 or h100",
                     fig->name, preset_spec (p)->id);
        preset_free (p);
        return NULL;
    }
    if (key != NULL) {
        GString *k = g_string_new (gpu ? gpu : "");
        g_string_append_printf (k, "|%s", o->config ? o->config : "");
        key_append (k, (const char *const *) sets->pdata);
        *key = g_string_free (k, FALSE);
    }
    return p;
}

gboolean
fig_check_presets (const FigOptions *o, const FigDef *fig, GError **error)
{
    if (fig->own_gpus == NULL) {
        g_autoptr (Preset) p = fig_preset (o, fig, NULL, NULL, error);
        return p != NULL;
    }
    for (int i = 0; fig->own_gpus[i] != NULL; i++) {
        g_autoptr (Preset) p = preset_load (fig->own_gpus[i], NULL, o->sets,
                                            error);
        if (p == NULL)
            return FALSE;
    }
    return TRUE;
}
