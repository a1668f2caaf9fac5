/*
 * gnuplot.c -- run gnuplot on a figure's script.  See gnuplot.h.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

#include <glib/gstdio.h>

#include "cli/cli.h"
#include "cli/gnuplot.h"
#include "models/fig.h"
#include "models/tempfiles.h"

G_DEFINE_QUARK (smsim-gnuplot-error-quark, gnuplot_error)

/* 'end' closes a whole file of the kind, white space after it where
 * 'text' (PNG's is the IEND chunk's type and CRC, and a CRC may end in
 * any byte): gnuplot exits 0 on a full disk, the file cut short. */
static const struct {
    const char *ext;
    const char *kind;        /* what plots/style.gp switches on */
    const char *end;
    gsize end_len;
    gboolean text;
} formats[] = {
    { ".png", "png", "IEND\xae\x42\x60\x82", 8, FALSE },
    { ".pdf", "pdf", "%%EOF", 5, TRUE },
    { ".svg", "svg", "</svg>", 6, TRUE },
};

static const char *
format_of (const char *path)
{
    g_autofree char *lower = g_ascii_strdown (path, -1);
    for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
        if (g_str_has_suffix (lower, formats[i].ext))
            return formats[i].kind;
    return NULL;
}

gboolean
gnuplot_format_ok (const char *path)
{
    return format_of (path) != NULL;
}

/* The first directory holding style.gp, or NULL. */
static char *
plots_dir (void)
{
    const char *dirs[] = { g_getenv ("SMSIM_PLOTS_DIR"), SMSIM_SRC_PLOTS_DIR,
                           SMSIM_DATA_PLOTS_DIR };
    for (guint i = 0; i < G_N_ELEMENTS (dirs); i++) {
        if (dirs[i] == NULL || *dirs[i] == '\0')
            continue;
        g_autofree char *style = g_build_filename (dirs[i], "style.gp", NULL);
        if (g_file_test (style, G_FILE_TEST_IS_REGULAR))
            return g_strdup (dirs[i]);
    }
    return NULL;
}

static char *
script_path (const char *name, char **style, GError **error)
{
    g_autofree char *dir = plots_dir ();
    if (dir == NULL) {
        g_set_error (error, SMSIM_GNUPLOT_ERROR, GNUPLOT_ERROR_SCRIPT,
                     "no plots/style.gp in SMSIM_PLOTS_DIR, %s or %s",
                     SMSIM_SRC_PLOTS_DIR, SMSIM_DATA_PLOTS_DIR);
        return NULL;
    }
    g_autofree char *file = g_strconcat (name, ".gp", NULL);
    char *script = g_build_filename (dir, file, NULL);
    if (!g_file_test (script, G_FILE_TEST_IS_REGULAR)) {
        g_set_error (error, SMSIM_GNUPLOT_ERROR, GNUPLOT_ERROR_SCRIPT,
                     "no script %s for figure %s", script, name);
        g_free (script);
        return NULL;
    }
    *style = g_build_filename (dir, "style.gp", NULL);
    return script;
}

/* An empty temporary file for 'out_path' in 'dir': beside it, so that a
 * rename replaces it, unless it is a device. */
static char *
temp_in (const char *dir, const char *out_path, GError **error)
{
    g_autofree char *base = g_path_get_basename (out_path);
    g_autofree char *tmpl = g_strdup_printf (".%s.XXXXXX", base);
    char *tmp = g_build_filename (dir, tmpl, NULL);
    int fd = g_mkstemp (tmp);
    if (fd < 0) {
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                     "cannot create a file in %s: %s", dir, g_strerror (errno));
        g_free (tmp);
        return NULL;
    }
    close (fd);
    /* g_mkstemp makes it private; a figure is an ordinary file. */
    mode_t mask = umask (0);
    umask (mask);
    g_chmod (tmp, 0666 & ~mask);
    return tmp;
}

/* The drawn figure 'tmp' into 'target': renamed over it, or for a device
 * or FIFO ('direct') copied into it. */
static gboolean
put_figure (const char *tmp, const char *target, gboolean direct,
            GError **error)
{
    if (direct) {
        g_autofree char *bytes = NULL;
        gsize len = 0;
        if (!g_file_get_contents (tmp, &bytes, &len, error))
            return FALSE;
        g_autoptr (GString) text = g_string_new_len (bytes, (gssize) len);
        return cli_write_output (target, text, error);
    }
    if (g_rename (tmp, target) != 0) {
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                     "cannot rename %s to %s: %s", tmp, target,
                     g_strerror (errno));
        return FALSE;
    }
    return TRUE;
}

/* In the child, before gnuplot starts: if smsim dies (a signal, whose
 * handler removes the figure's temporary file), gnuplot dies too, and
 * does not make the file again after it.  Linux's; elsewhere gnuplot
 * finishes on its own. */
static void
die_with_parent (gpointer data)
{
#ifdef PR_SET_PDEATHSIG
    prctl (PR_SET_PDEATHSIG, SIGKILL);
    /* Gone already, before the prctl. */
    if (getppid () != *(const pid_t *) data)
        _exit (127);
#else
    (void) data;
#endif
}

static gboolean
spawn (const char *commands, const char *script, char **err_text,
       GError **error)
{
    const char *argv[] = { "gnuplot", "-e", commands, script, NULL };
    int status = 0;
    pid_t self = getpid ();
    g_autoptr (GError) spawn_error = NULL;
    if (!g_spawn_sync (NULL, (char **) argv, NULL,
                       G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                       die_with_parent, &self, NULL, err_text, &status,
                       &spawn_error)) {
        g_set_error (error, SMSIM_GNUPLOT_ERROR, GNUPLOT_ERROR_MISSING,
                     "cannot run gnuplot (%s): install it (Debian: "
                     "apt-get install gnuplot-nox)", spawn_error->message);
        return FALSE;
    }
    if (!g_spawn_check_wait_status (status, NULL)) {
        g_set_error (error, SMSIM_GNUPLOT_ERROR, GNUPLOT_ERROR_FAILED,
                     "gnuplot failed on %s:\n%s", script, *err_text);
        return FALSE;
    }
    return TRUE;
}

/* Whether the file 'path' of format 'kind' ends as a whole one does
 * (formats[]). */
static gboolean
ends_whole (const char *path, const char *kind)
{
    guint i = 0;
    while (strcmp (formats[i].kind, kind) != 0)
        i++;
    g_autofree char *bytes = NULL;
    gsize len = 0;
    if (!g_file_get_contents (path, &bytes, &len, NULL))
        return FALSE;
    while (len > 0 && formats[i].text && g_ascii_isspace (bytes[len - 1]))
        len--;
    return len >= formats[i].end_len &&
           memcmp (bytes + len - formats[i].end_len, formats[i].end,
                   formats[i].end_len) == 0;
}

/* A script that never plots leaves the file empty, and a full disk cut
 * short: neither is a figure. */
static gboolean
whole_figure (const char *path, const char *kind, const char *script,
              GError **error)
{
    GStatBuf st;
    if (g_stat (path, &st) != 0 || st.st_size == 0)
        g_set_error (error, SMSIM_GNUPLOT_ERROR, GNUPLOT_ERROR_FAILED,
                     "gnuplot drew nothing from %s", script);
    else if (!ends_whole (path, kind))
        g_set_error (error, SMSIM_GNUPLOT_ERROR, GNUPLOT_ERROR_FAILED,
                     "gnuplot's %s from %s is cut short (%" G_GINT64_FORMAT
                     " B, without the end of a %s file): is the disk full?",
                     kind, script, (gint64) st.st_size, kind);
    else
        return TRUE;
    return FALSE;
}

gboolean
gnuplot_render (const char *name, const char *vars, const char *csv_path,
                const char *out_path, char **warnings, GError **error)
{
    const char *kind = format_of (out_path);
    g_autofree char *style = NULL;
    g_autofree char *err_text = NULL;
    if (kind == NULL) {
        g_set_error (error, SMSIM_GNUPLOT_ERROR, GNUPLOT_ERROR_FORMAT,
                     "%s: the output must end in .png, .pdf or .svg",
                     out_path);
        return FALSE;
    }
    gboolean direct = FALSE;
    g_autofree char *script = script_path (name, &style, error);
    g_autofree char *target =
        script ? cli_output_target (out_path, &direct, error) : NULL;
    g_autofree char *dir = target ? g_path_get_dirname (target) : NULL;
    g_autofree char *tmp =
        target ? temp_in (direct ? g_get_tmp_dir () : dir, target, error)
               : NULL;
    if (tmp == NULL)
        return FALSE;
    int slot = tempfiles_add (tmp);
    g_autoptr (GString) cmds = g_string_new (vars);
    /* A name that starts with '$' gnuplot reads as a datablock's. */
    g_autofree char *data = csv_path[0] == '$'
                                ? g_strconcat ("./", csv_path, NULL)
                                : g_strdup (csv_path);
    fig_append_quoted (cmds, "datafile", data);
    fig_append_quoted (cmds, "outfile", tmp);
    fig_append_quoted (cmds, "outformat", kind);
    fig_append_quoted (cmds, "stylefile", style);
    /* One command line: -e takes ';' between commands. */
    g_strdelimit (cmds->str, "\n", ';');
    gboolean ok = spawn (cmds->str, script, &err_text, error) &&
                  whole_figure (tmp, kind, script, error) &&
                  put_figure (tmp, target, direct, error);
    /* Gone already when renamed. */
    if (!ok || direct)
        g_unlink (tmp);
    tempfiles_forget (slot);
    if (warnings != NULL)
        *warnings = g_steal_pointer (&err_text);
    return ok;
}
