/*
 * cli.c -- helpers the subcommands share.  See cli.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cli/cli.h"
#include "models/kern.h"
#include "models/num.h"
#include "models/tempfiles.h"

/* Linux's own limit on the symlinks one lookup follows (ELOOP past it). */
#define CLI_MAX_LINKS 40

void
cli_gpu_options_init (CliGpuOptions *o)
{
    const GOptionEntry entries[] = {
        { "gpu", 'g', 0, G_OPTION_ARG_STRING, &o->gpu,
          "GPU preset (see `smsim gpus`), or a path to a preset .ini",
          "NAME" },
        { "config", 0, 0, G_OPTION_ARG_FILENAME, &o->config,
          "a user preset file (a hypothetical SM), overriding the preset "
          "its base= names or, if it has none, --gpu's",
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

const char *
cli_gpu_file (const CliGpuOptions *o)
{
    return o->gpu != NULL && preset_is_path (o->gpu) ? o->gpu : NULL;
}

Preset *
cli_gpu_options_load (const CliGpuOptions *o, GError **error)
{
    return preset_load (o->gpu, o->config, (const char *const *) o->sets,
                        error);
}

gboolean
cli_check_sets (const CmdEntry *cmd, char **sets)
{
    g_autoptr (GError) error = NULL;
    if (preset_check_sets ((const char *const *) sets, &error))
        return TRUE;
    cli_error (cmd, "%s", error->message);
    return FALSE;
}

gboolean
cli_check_once (const CmdEntry *cmd, const char *option, char **list,
                const char *advice)
{
    for (int i = 0; list != NULL && list[i] != NULL; i++)
        for (int j = 0; j < i; j++) {
            g_autofree char *a = kern_param_name (list[j]);
            g_autofree char *b = kern_param_name (list[i]);
            if (strcmp (a, b) == 0) {
                cli_error (cmd, "%s %s given twice (%s %s, then %s %s); %s",
                           option, a, option, list[j], option, list[i],
                           advice);
                return FALSE;
            }
        }
    return TRUE;
}

gboolean
cli_check_params (const CmdEntry *cmd, char **params, const char *kernel)
{
    const KernModel *m = kernel != NULL ? kern_find (kernel) : NULL;
    for (int i = 0; params != NULL && params[i] != NULL; i++) {
        g_autoptr (GError) error = NULL;
        if (!kern_check_param_form (m, params[i], &error)) {
            cli_error (cmd, "%s", error->message);
            return FALSE;
        }
    }
    return cli_check_once (cmd, "--param", params,
                           "give each parameter once");
}

gboolean
cli_check_count (const CmdEntry *cmd, const char *option, gint64 value)
{
    if (value == G_MININT64 || value >= 0)
        return TRUE;
    cli_error (cmd, "%s %" G_GINT64_FORMAT ": must not be negative (a count)",
               option, value);
    return FALSE;
}

int
cli_error_status (const GError *error)
{
    return g_error_matches (error, SMSIM_PRESET_ERROR, PRESET_ERROR_NO_GPU) ||
                   g_error_matches (error, SMSIM_PRESET_ERROR,
                                    PRESET_ERROR_FORM) ||
                   g_error_matches (error, SMSIM_KERN_ERROR, KERN_ERROR_FORM)
               ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
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

/* GOption reads integers in C's bases: --size 010000 would be 4096
 * and --threads 0x100 256, without a word.  The integer options, by
 * name and letter (tests/check-int-options.sh keeps the list whole).
 * The letters are integer options' wherever they are used, but for
 * query's -s (--sources, a flag: a number after it is refused as an
 * extra argument all the same). */
static const struct {
    const char *name;
    char letter;
} integer_options[] = {
    { "size", 'n' }, { "threads", 't' }, { "regs", 'r' }, { "smem", 's' },
    { "dyn-smem", 'd' }, { "carveout", 'c' }, { "jobs", 'j' },
    { "window", 0 }, { "detailed-sms", 0 }, { "launches", 0 },
};

static gboolean
is_integer_option (const char *arg, gsize name_len)
{
    for (guint i = 0; i < G_N_ELEMENTS (integer_options); i++) {
        const char *name = integer_options[i].name;
        if (arg[1] == '-' ? strlen (name) == name_len &&
                                strncmp (arg + 2, name, name_len) == 0
                          : arg[1] == integer_options[i].letter)
            return TRUE;
    }
    return FALSE;
}

/* A value in C's octal or hex, which decimal would read otherwise. */
static gboolean
not_decimal (const char *v)
{
    while (g_ascii_isspace (*v))    /* strtoll skips them */
        v++;
    if (*v == '+' || *v == '-')
        v++;
    if (v[0] != '0' || v[1] == '\0')
        return FALSE;
    gboolean hex = v[1] == 'x' || v[1] == 'X';
    const char *d = v + (hex ? 2 : 1);
    if (*d == '\0')
        return FALSE;
    for (; *d != '\0'; d++)
        if (!(hex ? g_ascii_isxdigit (*d) : g_ascii_isdigit (*d)))
            return FALSE;
    return TRUE;
}

/* G_MININT64 itself, which the commands keep in an integer option to
 * mean "not given" (cmd-run.c, cmd-occupancy.c, cmd-plot.c,
 * cmd-trace.c): given, it would be taken as absent, and `--regs
 * -9223372036854775808` ran the model's registers without a word. */
static gboolean
is_not_given (const char *v)
{
    gint64 n;
    return num_parse_int (v, &n) && n == G_MININT64;
}

/* The integer options' values as given ("--size=V", "--size V",
 * "-n V", "-nV"; up to "--"), checked by not_decimal and
 * is_not_given. */
static gboolean
check_numbers (const CmdEntry *cmd, int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++) {
        const char *arg = argv[i], *v = NULL;
        if (arg[0] != '-' || arg[1] == '\0')
            continue;
        const char *eq = arg[1] == '-' ? strchr (arg, '=') : NULL;
        gsize name_len = eq != NULL ? (gsize) (eq - arg - 2) : strlen (arg + 2);
        if (!is_integer_option (arg, name_len))
            continue;
        gboolean apart = eq == NULL && (arg[1] == '-' || arg[2] == '\0');
        v = eq != NULL ? eq + 1 : !apart ? arg + 2 : i + 1 < argc ? argv[i + 1]
                                                                   : NULL;
        if (v != NULL && not_decimal (v)) {
            cli_error (cmd, "%s%s%s: write numbers in decimal (a leading 0 "
                            "reads as octal, 0x as hex)",
                       arg, apart ? " " : "", apart ? v : "");
            return FALSE;
        }
        if (v != NULL && is_not_given (v)) {
            cli_error (cmd, "%s%s%s: out of range (no count or size is "
                            "that negative)",
                       arg, apart ? " " : "", apart ? v : "");
            return FALSE;
        }
    }
    return TRUE;
}

/* The option 'arg' is, to tell repeats apart: "--size" of "--size" or
 * "--size=V", "-n" of "-n", "-nV" or a cluster; NULL for a repeatable
 * one (the list options: --set, --param, --vary, -p, -V) or none (a
 * value such as "-5").
 * A short and a long spelling of one option are not matched. */
static char *
option_key (const char *arg)
{
    static const char *const repeatable[] = {
        "--set", "--param", "--vary", "-p", "-V"
    };
    if (arg[0] != '-' ||
        !(arg[1] == '-' ? arg[2] != '\0' : g_ascii_isalpha (arg[1])))
        return NULL;
    gsize len = arg[1] == '-' ? strcspn (arg, "=") : 2;
    for (guint r = 0; r < G_N_ELEMENTS (repeatable); r++)
        if (strlen (repeatable[r]) == len &&
            strncmp (arg, repeatable[r], len) == 0)
            return NULL;
    return g_strndup (arg, len);
}

/* No option but the repeatable ones given twice (up to "--"): GOption
 * keeps the last, so `--size 1024 --size 512` ran at 512 without a
 * word. */
static gboolean
check_repeats (const CmdEntry *cmd, int argc, char **argv)
{
    g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash,
                                                          g_str_equal,
                                                          g_free, NULL);
    for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++) {
        char *key = option_key (argv[i]);
        if (key != NULL && !g_hash_table_add (seen, key)) {
            cli_error (cmd, "%s given twice (see `smsim %s --help`)", key,
                       cmd->name);
            return FALSE;
        }
    }
    return TRUE;
}

gboolean
cli_given (int argc, char **argv, const char *name, char letter)
{
    char short_name[3] = { '-', letter, '\0' };
    for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++) {
        g_autofree char *key = option_key (argv[i]);
        if (key != NULL &&
            (strcmp (key, name) == 0 || strcmp (key, short_name) == 0))
            return TRUE;
    }
    return FALSE;
}

gboolean
cli_parse (GOptionContext *ctx, const CmdEntry *cmd, int *argc, char ***argv)
{
    g_autoptr (GError) error = NULL;
    if (!check_numbers (cmd, *argc, *argv) || !check_repeats (cmd, *argc, *argv))
        return FALSE;
    if (g_option_context_parse (ctx, argc, argv, &error))
        return TRUE;
    cli_error (cmd, "%s (see `smsim %s --help`)", error->message, cmd->name);
    return FALSE;
}

/* Process-wide, as standard output itself is. */
static int stdout_errno;

static void
note_stdout_error (void)
{
    if (stdout_errno == 0 && ferror (stdout))
        stdout_errno = errno;
}

void
cli_print (const char *text)
{
    errno = 0;
    fputs (text, stdout);
    note_stdout_error ();
}

int
cli_stdout_errno (void)
{
    return stdout_errno;
}

/* The most of a message shown: one quoting an input whole (a preset
 * line of 100 MB) would bury what it says. */
#define CLI_ERROR_MAX 2000

void
cli_error (const CmdEntry *cmd, const char *format, ...)
{
    va_list ap;
    va_start (ap, format);
    g_autofree char *message = g_strdup_vprintf (format, ap);
    va_end (ap);
    /* A quoted input may hold bytes that are not UTF-8: they go to the
     * terminal as U+FFFD, not raw. */
    g_autofree char *text = g_utf8_make_valid (message, -1);
    gsize len = strlen (text), shown = MIN (len, CLI_ERROR_MAX);
    while (shown < len && (text[shown] & 0xc0) == 0x80)
        shown--;    /* not inside a character */
    errno = 0;
    fflush (stdout);    /* what it printed before comes first */
    note_stdout_error ();
    if (shown < len)
        fprintf (stderr, "smsim %s: %.*s... (%" G_GSIZE_FORMAT " bytes more)\n",
                 cmd->name, (int) shown, text, len - shown);
    else
        fprintf (stderr, "smsim %s: %s\n", cmd->name, text);
}

/* A link on /proc (behind /dev/stdout and /dev/fd/N) stands for a file
 * already open, not for a path: there is no directory to rename in, and
 * what it reads as may be "pipe:[1234]". */
static gboolean
on_proc (const GStatBuf *st)
{
    GStatBuf proc;
    return g_lstat ("/proc/self", &proc) == 0 && proc.st_dev == st->st_dev;
}

/* The path 'link' points to, relative to the directory 'link' is in. */
static char *
link_target (const char *link, GError **error)
{
    g_autoptr (GError) local = NULL;
    g_autofree char *text = g_file_read_link (link, &local);
    if (text == NULL) {
        g_set_error (error, G_FILE_ERROR, local->code, "%s", local->message);
        return NULL;
    }
    if (g_path_is_absolute (text))
        return g_steal_pointer (&text);
    g_autofree char *dir = g_path_get_dirname (link);
    if (strcmp (dir, ".") == 0)
        return g_steal_pointer (&text);
    return g_build_filename (dir, text, NULL);
}

char *
cli_output_target (const char *path, gboolean *direct, GError **error)
{
    g_autofree char *target = g_strdup (path);
    for (int hops = 0;; hops++) {
        GStatBuf st;
        /* Missing (a new file, or a link to one): the rename creates it,
         * or fails naming the directory that is not there. */
        if (g_lstat (target, &st) != 0) {
            *direct = FALSE;
            return g_steal_pointer (&target);
        }
        if (!S_ISLNK (st.st_mode) || on_proc (&st)) {
            *direct = S_ISLNK (st.st_mode) || !S_ISREG (st.st_mode);
            return g_steal_pointer (&target);
        }
        if (hops == CLI_MAX_LINKS) {
            g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_LOOP,
                         "%s: too many levels of symbolic links", path);
            return NULL;
        }
        char *next = link_target (target, error);
        if (next == NULL)
            return NULL;
        g_free (target);
        target = next;
    }
}

static gboolean
write_error (const char *path, GError **error)
{
    int err = errno;
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err),
                 "cannot write %s: %s", path, g_strerror (err));
    return FALSE;
}

/* All of 'text' into 'fd', flushed to the disk too where 'sync', and
 * 'fd' closed; errno says why where it fails. */
static gboolean
write_fd (int fd, const GString *text, gboolean sync)
{
    gsize done = 0;
    while (done < text->len) {
        ssize_t n = write (fd, text->str + done, text->len - done);
        if (n >= 0)
            done += (gsize) n;
        else if (errno != EINTR)
            break;
    }
    gboolean ok = done == text->len && (!sync || fsync (fd) == 0);
    int err = errno;
    if (!ok) {
        close (fd);
        errno = err;
        return FALSE;
    }
    return close (fd) == 0;
}

/* Straight into 'path', for a device or FIFO: there is no temporary file
 * to rename over one, so no "whole or not at all" either.  O_APPEND: a
 * regular file behind /dev/fd/N is one a shell opened, and what was
 * written to it before stays; on a device or FIFO it changes nothing. */
static gboolean
write_through (const char *path, const GString *text, GError **error)
{
    int fd = g_open (path, O_WRONLY | O_APPEND | O_NOCTTY, 0);
    return (fd >= 0 && write_fd (fd, text, FALSE)) ||
           write_error (path, error);
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

/* /dev/stdout, /dev/fd/1 and the like: opened anew, a file a shell
 * redirected into would be written at its own offset, not after what
 * came before; through stdout, the output also keeps its order. */
static gboolean
is_stdout (const char *path)
{
    GStatBuf st, out;
    return g_stat (path, &st) == 0 && fstat (STDOUT_FILENO, &out) == 0 &&
           st.st_dev == out.st_dev && st.st_ino == out.st_ino;
}

gboolean
cli_check_output (const char *option, const char *path, GError **error)
{
    gboolean direct;
    GStatBuf st;
    if (path == NULL || strcmp (path, "-") == 0)
        return TRUE;
    if (*path == '\0') {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                     "%s '': an empty file name", option);
        return FALSE;
    }
    g_autofree char *target = cli_output_target (path, &direct, error);
    if (target == NULL) {
        g_prefix_error (error, "%s ", option);
        return FALSE;
    }
    if (g_stat (target, &st) == 0 && S_ISDIR (st.st_mode)) {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR,
                     "%s %s: a directory, not a file", option, path);
        return FALSE;
    }
    /* Standard output is written through, already open.  A device or
     * FIFO is written as is; a file is made beside its target and renamed
     * over it, so its directory must take a new one.  (access, not a
     * trial file: as root it still tells a read-only file system.) */
    if (direct && is_stdout (target))
        return TRUE;
    g_autofree char *dir = g_path_get_dirname (target);
    const char *need = direct ? target : dir;
    if (!direct && g_stat (dir, &st) != 0) {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                     "%s %s: no directory %s to write it in", option, path,
                     dir);
        return FALSE;
    }
    if (!direct && !S_ISDIR (st.st_mode)) {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR,
                     "%s %s: %s is not a directory", option, path, dir);
        return FALSE;
    }
    if (access (need, direct ? W_OK : W_OK | X_OK) != 0) {
        int err = errno;
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err),
                     "%s %s: cannot write %s: %s", option, path,
                     direct ? "it" : dir, g_strerror (err));
        return FALSE;
    }
    return TRUE;
}

/* One output of cli_write_outputs on its way: 'target' is where its
 * path leads (NULL: standard output), 'tmp' the file staged beside it
 * (NULL: written straight, once every file is staged). */
typedef struct {
    char *target;
    char *tmp;
    int slot;           /* tempfiles.h */
} Staged;

/* 'text' whole in a new file beside 's->target'.  fsync: renamed over
 * the old file, the new one must not turn up empty after a crash. */
static gboolean
stage (Staged *s, const GString *text, GError **error)
{
    s->tmp = g_strdup_printf ("%s.XXXXXX", s->target);
    int fd = g_mkstemp_full (s->tmp, O_WRONLY, 0666);
    if (fd < 0) {
        write_error (s->target, error);
        g_clear_pointer (&s->tmp, g_free);
        return FALSE;
    }
    s->slot = tempfiles_add (s->tmp);
    return write_fd (fd, text, TRUE) || write_error (s->target, error);
}

/* Where 'out' goes, and for a file, its text staged beside it. */
static gboolean
prepare (Staged *s, const CliOutput *out, GError **error)
{
    gboolean direct;
    if (out->path == NULL || strcmp (out->path, "-") == 0)
        return TRUE;
    /* g_file_set_contents would rename over a symlink itself (and over
     * /dev/stdout as root), leaving the file it points to as it was. */
    s->target = cli_output_target (out->path, &direct, error);
    if (s->target == NULL)
        return FALSE;
    if (direct && is_stdout (s->target))
        g_clear_pointer (&s->target, g_free);
    return direct || stage (s, out->text, error);
}

/* 's', staged, renamed over its target. */
static gboolean
commit (Staged *s, GError **error)
{
    if (g_rename (s->tmp, s->target) != 0) {
        int err = errno;
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err),
                     "cannot write %s: renaming %s over it: %s", s->target,
                     s->tmp, g_strerror (err));
        return FALSE;
    }
    g_clear_pointer (&s->tmp, g_free);
    return TRUE;
}

static void
unstage (Staged *s)
{
    if (s->tmp != NULL)
        g_unlink (s->tmp);
    tempfiles_forget (s->slot);
    g_free (s->tmp);
    g_free (s->target);
}

gboolean
cli_write_outputs (const CliOutput *outs, guint n, GError **error)
{
    g_autofree Staged *st = g_new0 (Staged, n);
    gboolean ok = TRUE;
    for (guint i = 0; i < n; i++)
        st[i].slot = -1;
    for (guint i = 0; i < n && ok; i++)
        ok = prepare (&st[i], &outs[i], error);
    /* What cannot be staged (standard output, a device, a FIFO) cannot be
     * taken back either: written only once every file is whole, and
     * before any is renamed into place, so that its failure leaves no
     * file.  Past that, only a rename can fail (the disk is not asked
     * for room again), leaving the outputs before it. */
    for (guint i = 0; i < n && ok; i++)
        if (st[i].tmp == NULL)
            ok = st[i].target == NULL
                     ? write_stdout (outs[i].text, error)
                     : write_through (st[i].target, outs[i].text, error);
    for (guint i = 0; i < n && ok; i++)
        if (st[i].tmp != NULL)
            ok = commit (&st[i], error);
    for (guint i = 0; i < n; i++)
        unstage (&st[i]);
    return ok;
}

gboolean
cli_write_output (const char *path, const GString *text, GError **error)
{
    const CliOutput one = { path, text };
    return cli_write_outputs (&one, 1, error);
}

/* What tells two paths apart: the device and inode of an existing
 * regular file; for a file not there yet, the canonical path of where it
 * would be made.  NULL for what is never replaced (a device, a FIFO),
 * where two writes lose nothing. */
static char *
file_key (const char *path)
{
    GStatBuf st;
    gboolean direct;
    if (g_stat (path, &st) == 0)
        return S_ISREG (st.st_mode)
                   ? g_strdup_printf ("%" G_GUINT64_FORMAT ":%"
                                      G_GUINT64_FORMAT, (guint64) st.st_dev,
                                      (guint64) st.st_ino)
                   : NULL;
    g_autofree char *target = cli_output_target (path, &direct, NULL);
    if (target == NULL)
        return NULL;
    g_autofree char *dir = g_path_get_dirname (target);
    g_autofree char *base = g_path_get_basename (target);
    g_autofree char *real = realpath (dir, NULL);
    g_autofree char *where = g_build_filename (real ? real : dir, base, NULL);
    return g_canonicalize_filename (where, NULL);
}

gboolean
cli_check_distinct (const CliFileArg *args, guint n, GError **error)
{
    g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
    for (guint i = 0; i < n; i++) {
        const char *p = args[i].path;
        gboolean file = p != NULL && strcmp (p, "-") != 0;
        g_ptr_array_add (keys, file ? file_key (p) : NULL);
        for (guint j = 0; j < i && keys->pdata[i] != NULL; j++) {
            if (g_strcmp0 (keys->pdata[i], keys->pdata[j]) != 0)
                continue;
            if (strcmp (args[j].path, p) == 0)
                g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                             "%s and %s both name %s: give them different "
                             "files", args[j].option, args[i].option, p);
            else
                g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                             "%s %s and %s %s are the same file: give them "
                             "different files", args[j].option, args[j].path,
                             args[i].option, p);
            return FALSE;
        }
    }
    return TRUE;
}

gboolean
cli_check_not_input (const CliFileArg *out, const CliFileArg *inputs,
                     guint n, GError **error)
{
    for (guint i = 0; i < n; i++) {
        const CliFileArg pair[] = { inputs[i], *out };
        if (!cli_check_distinct (pair, G_N_ELEMENTS (pair), error))
            return FALSE;
    }
    return TRUE;
}

gboolean
cli_check_not_preset (const CliFileArg *outs, guint n_outs, const char *gpu,
                      const char *config, GError **error)
{
    gboolean writes = FALSE;
    for (guint k = 0; k < n_outs; k++)
        writes |= outs[k].path != NULL;
    if (!writes)
        return TRUE;    /* nothing to replace: no need to read the preset */
    g_autoptr (GError) unread = NULL;
    g_autoptr (Preset) preset = preset_load (gpu, config, NULL, &unread);
    if (preset == NULL)
        return TRUE;
    guint n;
    const char *const *paths = preset_files (preset, &n);
    g_autofree CliFileArg *files = g_new (CliFileArg, n);
    for (guint i = 0; i < n; i++)
        files[i] = (CliFileArg) { "the preset file", paths[i] };
    for (guint k = 0; k < n_outs; k++)
        if (!cli_check_not_input (&outs[k], files, n, error))
            return FALSE;
    return TRUE;
}
