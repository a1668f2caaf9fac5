/*
 * trace_head.c -- a trace's header lines.  See trace_head.h.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "models/num.h"
#include "models/preset.h"
#include "models/trace_head.h"
#include "models/trace_store.h"

enum { K_GPU, K_KERNEL, K_SIZE, K_PARAM, K_GRID, K_BLOCK, K_REGS, K_SMEM,
       K_FLOPS, K_ITERATIONS, K_N };

/* Each key with its count of values; param may repeat. */
static const struct {
    const char *name;
    int values;
    const char *meaning;
} keys[K_N] = {
    [K_GPU] = { "gpu", 1, "NAME" },
    [K_KERNEL] = { "kernel", 1, "ID" },
    [K_SIZE] = { "size", 1, "N" },
    [K_PARAM] = { "param", 2, "NAME VALUE" },
    [K_GRID] = { "grid", 2, "X Y" },
    [K_BLOCK] = { "block", 1, "THREADS" },
    [K_REGS] = { "regs", 1, "PER_THREAD" },
    [K_SMEM] = { "smem", 2, "STATIC DYNAMIC (bytes per block)" },
    [K_FLOPS] = { "flops", 1, "F" },
    [K_ITERATIONS] = { "iterations", 1, "N (main-loop iterations per block)" },
};

void
trace_head_from_kernel (TraceHead *h, const KernInstance *k, const char *gpu)
{
    memset (h, 0, sizeof *h);
    h->gpu = g_strdup (gpu);
    h->kernel = g_strdup (k->model->id);
    h->size = k->size;
    h->n_params = k->model->n_params;
    for (int i = 0; i < h->n_params; i++) {
        h->param_name[i] = g_strdup (k->model->params[i].name);
        h->param_value[i] = k->param[i];
    }
    h->grid_x = k->grid_x;
    h->grid_y = k->grid_y;
    h->threads = k->threads;
    h->regs = k->regs;
    h->static_smem = k->static_smem;
    h->dyn_smem = k->dyn_smem;
    h->flops = k->flops;
    h->iterations = k->iterations;
    h->seen = (1u << K_N) - 1;
}

void
trace_head_clear (TraceHead *h)
{
    g_free (h->gpu);
    g_free (h->kernel);
    for (int i = 0; i < h->n_params; i++)
        g_free (h->param_name[i]);
    memset (h, 0, sizeof *h);
}

gboolean
trace_head_flops_ok (double flops)
{
    return flops >= 0 && flops <= (double) TRACE_FLOPS_MAX &&
           flops == floor (flops);
}

void
trace_head_format (const TraceHead *h, GString *out)
{
    g_assert (trace_head_flops_ok (h->flops));
    g_string_append_printf (out, "smsim-trace %d\ngpu %s\nkernel %s\n"
                            "size %" G_GINT64_FORMAT "\n", TRACE_VERSION,
                            h->gpu, h->kernel, h->size);
    for (int i = 0; i < h->n_params; i++)
        g_string_append_printf (out, "param %s %" G_GINT64_FORMAT "\n",
                                h->param_name[i], h->param_value[i]);
    g_string_append_printf (out, "grid %" G_GUINT64_FORMAT " %"
                            G_GUINT64_FORMAT "\nblock %d\nregs %d\n"
                            "smem %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n"
                            "flops %" G_GUINT64_FORMAT "\niterations %"
                            G_GUINT64_FORMAT "\nrecords\n", h->grid_x,
                            h->grid_y, h->threads, h->regs, h->static_smem,
                            h->dyn_smem, (guint64) h->flops, h->iterations);
}

int
trace_head_warps (const TraceHead *h)
{
    return (h->threads + 31) / 32;
}

guint64
trace_head_blocks (const TraceHead *h)
{
    return h->grid_x * h->grid_y;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                             */

static gboolean
int_value (const char *key, const char *text, gint64 min, gint64 max,
           gint64 *out, GError **error)
{
    char *end = NULL;
    errno = 0;
    *out = g_ascii_strtoll (text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' ||
        !(g_ascii_isdigit (*text) || (*text == '-' && min < 0)) ||
        *out < min || *out > max) {
        return trace_format_error (
            error,
            "%s %s: must be an integer in %" G_GINT64_FORMAT
            "..%" G_GINT64_FORMAT,
            key, text, min, max);
    }
    return TRUE;
}

/* A name, as kernel ids and preset names are (preset_is_name). */
static gboolean
name_value (const char *key, const char *text, GError **error)
{
    if (preset_is_name (text))
        return TRUE;
    return trace_format_error (
        error, "%s '%s': a name of letters, digits, '_', '-', '.'", key, text);
}

static gboolean
parse_param (TraceHead *h, char **v, GError **error)
{
    gint64 value;
    if (h->n_params == KERN_MAX_PARAMS) {
        return trace_format_error (error, "param %s: more than %d parameters",
                                   v[0], KERN_MAX_PARAMS);
    }
    if (!name_value ("param", v[0], error) ||
        !int_value (v[0], v[1], G_MININT64 + 1, G_MAXINT64, &value, error))
        return FALSE;
    for (int i = 0; i < h->n_params; i++)
        if (strcmp (h->param_name[i], v[0]) == 0)
            return trace_format_error (error, "param %s: given twice", v[0]);
    h->param_name[h->n_params] = g_strdup (v[0]);
    h->param_value[h->n_params++] = value;
    return TRUE;
}

/* Decimal digits alone, as FORMAT.md says (strtod would take a sign,
 * a point, an exponent, hex, inf), and no more than a double holds
 * exactly, so that the count is the one written. */
static gboolean
parse_flops (TraceHead *h, const char *text, GError **error)
{
    guint64 v;
    if (!num_parse_uint (text, &v) || v > TRACE_FLOPS_MAX) {
        return trace_format_error (error, "flops %s: must be a whole number "
                                   "in decimal digits, 0..%" G_GUINT64_FORMAT
                                   " (2^53: a double holds every whole number "
                                   "up to it exactly)", text, TRACE_FLOPS_MAX);
    }
    h->flops = (double) v;
    return TRUE;
}

/* The values 'v' of key 'k'. */
static gboolean
parse_key (TraceHead *h, int k, char **v, GError **error)
{
    gint64 a = 0, b = 0;
    const gint64 big = G_GINT64_CONSTANT (1) << 40;
    switch (k) {
    case K_GPU:
        h->gpu = g_strdup (v[0]);
        return name_value ("gpu", v[0], error);
    case K_KERNEL:
        h->kernel = g_strdup (v[0]);
        return name_value ("kernel", v[0], error);
    case K_SIZE:
        return int_value ("size", v[0], 1, G_MAXINT64, &h->size, error);
    case K_PARAM:
        return parse_param (h, v, error);
    case K_GRID:
        if (!int_value ("grid x", v[0], 1, big, &a, error) ||
            !int_value ("grid y", v[1], 1, big / a, &b, error))
            return FALSE;
        h->grid_x = (guint64) a;
        h->grid_y = (guint64) b;
        return TRUE;
    case K_BLOCK:
        if (!int_value ("block", v[0], 1, 1024, &a, error))
            return FALSE;
        h->threads = (int) a;
        return TRUE;
    case K_REGS:
        if (!int_value ("regs", v[0], 1, 255, &a, error))
            return FALSE;
        h->regs = (int) a;
        return TRUE;
    case K_SMEM:
        return int_value ("smem static", v[0], 0, G_MAXINT32, &h->static_smem,
                          error) &&
               int_value ("smem dynamic", v[1], 0, G_MAXINT32, &h->dyn_smem,
                          error);
    case K_FLOPS:
        return parse_flops (h, v[0], error);
    default:
        if (!int_value ("iterations", v[0], 0, big, &a, error))
            return FALSE;
        h->iterations = (guint64) a;
        return TRUE;
    }
}

static gboolean
check_complete (const TraceHead *h, GError **error)
{
    for (int k = 0; k < K_N; k++)
        if (k != K_PARAM && !(h->seen & (1u << k))) {
            return trace_format_error (error,
                                       "records: the header lacks '%s %s'",
                                       keys[k].name, keys[k].meaning);
        }
    return TRUE;
}

static gboolean
parse_version (const char *line, GError **error)
{
    gint64 v;
    if (g_str_has_prefix (line, "\xef\xbb\xbf"))
        return trace_format_error (error, "a UTF-8 byte-order mark before "
                                   "'smsim-trace %d': a trace starts with "
                                   "that line (an editor added the mark?)",
                                   TRACE_VERSION);
    if (!g_str_has_prefix (line, "smsim-trace ")) {
        return trace_format_error (error,
                                   "not an smsim trace: the first line must be "
                                   "'smsim-trace %d'",
                                   TRACE_VERSION);
    }
    if (!int_value ("smsim-trace", line + 12, 1, G_MAXINT32, &v, error))
        return FALSE;
    if (v != TRACE_VERSION) {
        return trace_format_error (error,
                                   "smsim-trace %" G_GINT64_FORMAT
                                   ": this smsim reads "
                                   "version %d",
                                   v, TRACE_VERSION);
    }
    return TRUE;
}

gboolean
trace_head_parse_line (TraceHead *h, int line_no, const char *line,
                       gboolean *done, GError **error)
{
    *done = FALSE;
    if (line_no == 1)
        return parse_version (line, error);
    if (strcmp (line, "records") == 0) {
        *done = TRUE;
        return check_complete (h, error);
    }
    if (*line == '\0')
        return trace_format_error (error, "an empty line in the header");
    g_auto (GStrv) tok = g_strsplit (line, " ", -1);
    int k = 0, n = (int) g_strv_length (tok);
    while (k < K_N && strcmp (keys[k].name, tok[0]) != 0)
        k++;
    if (k == K_N) {
        return trace_format_error (
            error,
            "'%s': not a header key (gpu, kernel, size, param, grid, "
            "block, regs, smem, flops, iterations, records)",
            tok[0]);
    }
    for (int i = 1; i < n; i++)
        if (tok[i][0] == '\0')
            n = 0;
    if (n != keys[k].values + 1) {
        return trace_format_error (error,
                                   "'%s': must be '%s %s' (one space between)",
                                   line, keys[k].name, keys[k].meaning);
    }
    if (k != K_PARAM && (h->seen & (1u << k))) {
        return trace_format_error (error, "'%s' given twice", keys[k].name);
    }
    h->seen |= 1u << k;
    return parse_key (h, k, tok + 1, error);
}
