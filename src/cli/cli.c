/*
 * cli.c -- helpers the subcommands share.  See cli.h.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

void
cli_gpu_options_init (CliGpuOptions *o)
{
    const GOptionEntry entries[] = {
        { "gpu", 'g', 0, G_OPTION_ARG_STRING, &o->gpu,
          "GPU preset (see `smsim gpus`), or a path to a preset .ini",
          "NAME" },
        { "config", 0, 0, G_OPTION_ARG_FILENAME, &o->config,
          "a user preset file (a hypothetical SM); with --gpu, it overrides "
          "that preset",
          "FILE" },
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->sets,
          "override one preset key, e.g. sm.registers=131072 (repeatable; "
          "`smsim query --keys` lists them)",
          "KEY=VALUE" },
        G_OPTION_ENTRY_NULL
    };
    o->gpu = NULL;
    o->config = NULL;
    o->sets = NULL;
    memcpy (o->entries, entries, sizeof entries);
}

void
cli_gpu_options_clear (CliGpuOptions *o)
{
    g_clear_pointer (&o->gpu, g_free);
    g_clear_pointer (&o->config, g_free);
    g_clear_pointer (&o->sets, g_strfreev);
}

Preset *
cli_gpu_options_load (const CliGpuOptions *o, GError **error)
{
    return preset_load (o->gpu, o->config, (const char *const *) o->sets,
                        error);
}

gboolean
cli_format_parse (const char *text, unsigned allowed, CliFormat *out,
                  GError **error)
{
    static const char *const names[] = { "text", "csv", "json" };
    g_autoptr (GString) valid = g_string_new (NULL);
    for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
        if (!(allowed & (1u << i)))
            continue;
        if (text == NULL || strcmp (text, names[i]) == 0) {
            *out = (CliFormat) i;
            return TRUE;
        }
        g_string_append_printf (valid, "%s%s", valid->len ? ", " : "",
                                names[i]);
    }
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "--format %s: must be one of %s", text, valid->str);
    return FALSE;
}

GOptionContext *
cli_context_new (const CmdEntry *cmd, const char *args,
                 const char *description)
{
    g_autofree char *prgname = g_strdup_printf ("smsim %s", cmd->name);
    g_set_prgname (prgname);
    GOptionContext *ctx = g_option_context_new (args);
    g_option_context_set_summary (ctx, cmd->summary);
    if (description != NULL)
        g_option_context_set_description (ctx, description);
    return ctx;
}

gboolean
cli_parse (GOptionContext *ctx, const CmdEntry *cmd, int *argc, char ***argv)
{
    g_autoptr (GError) error = NULL;
    if (g_option_context_parse (ctx, argc, argv, &error))
        return TRUE;
    cli_error (cmd, "%s (see `smsim %s --help`)", error->message, cmd->name);
    return FALSE;
}

void
cli_error (const CmdEntry *cmd, const char *format, ...)
{
    va_list ap;
    va_start (ap, format);
    g_autofree char *message = g_strdup_vprintf (format, ap);
    va_end (ap);
    fflush (stdout);
    fprintf (stderr, "smsim %s: %s\n", cmd->name, message);
}

static gboolean
write_stdout (const GString *text, GError **error)
{
    if (fwrite (text->str, 1, text->len, stdout) == text->len &&
        fflush (stdout) == 0)
        return TRUE;
    int err = errno;
    /* Reported here: main's check of standard output at exit must not
     * say it a second time (the failed bytes are already dropped). */
    clearerr (stdout);
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err),
                 "writing standard output: %s", g_strerror (err));
    return FALSE;
}

gboolean
cli_write_output (const char *path, const GString *text, GError **error)
{
    if (path == NULL || strcmp (path, "-") == 0)
        return write_stdout (text, error);
    return g_file_set_contents_full (path, text->str, (gssize) text->len,
                                     G_FILE_SET_CONTENTS_CONSISTENT, 0666,
                                     error);
}
