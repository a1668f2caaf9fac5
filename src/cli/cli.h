/*
 * cli.h -- what the subcommands share: the command table entry, exit
 * codes, the --gpu/--config/--set options, output formats and the
 * atomic output file.
 *
 * Only src/cli writes to stdout or stderr or decides exit codes.
 */
#ifndef SMSIM_CLI_CLI_H
#define SMSIM_CLI_CLI_H

#include <glib.h>

#include "models/preset.h"

/* Exit status (gio-tool's convention). */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_USAGE = 1,   /* bad command line */
    CLI_EXIT_FAIL = 2     /* bad input or a failed run */
};

typedef struct {
    const char *name;
    const char *summary;
    int (*exec) (int argc, char **argv);
} CmdEntry;

extern const CmdEntry cmd_gpus_entry;
extern const CmdEntry cmd_query_entry;
extern const CmdEntry cmd_occupancy_entry;
extern const CmdEntry cmd_kernels_entry;
extern const CmdEntry cmd_run_entry;
extern const CmdEntry cmd_validate_entry;
extern const CmdEntry cmd_trace_entry;
extern const CmdEntry cmd_sweep_entry;
extern const CmdEntry cmd_plot_entry;

/* --gpu NAME, --config FILE, --set KEY=VALUE (repeatable). */
typedef struct {
    char *gpu;
    char *config;
    char **sets;
    GOptionEntry entries[4];
} CliGpuOptions;

void cli_gpu_options_init (CliGpuOptions *opts);
/* The file --gpu names (preset_is_path), or NULL: a preset's name. */
const char *cli_gpu_file (const CliGpuOptions *opts);
void cli_gpu_options_clear (CliGpuOptions *opts);
Preset *cli_gpu_options_load (const CliGpuOptions *opts, GError **error);

/* Right after parsing: FALSE, the error printed, when the --set list
 * 'sets' has one not GROUP.KEY=VALUE or names a key twice (a usage
 * error: the caller exits CLI_EXIT_USAGE before any work). */
gboolean cli_check_sets (const CmdEntry *cmd, char **sets);

/* The same for a list of NAME=VALUE given with 'option': a name given
 * twice is refused, with 'advice' ("give each parameter once"). */
gboolean cli_check_once (const CmdEntry *cmd, const char *option,
                         char **list, const char *advice);
/* ... for --param, each NAME=VALUE first (kern_check_param_form, with
 * the model of 'kernel' where it is one). */
gboolean cli_check_params (const CmdEntry *cmd, char **params,
                           const char *kernel);

/* FALSE, the error printed, where the count 'value' given to 'option'
 * (--size, --threads, --regs, --smem, --dyn-smem; G_MININT64: not
 * given) is negative.  No count is, on any GPU: the command line is
 * malformed (the caller exits CLI_EXIT_USAGE) before any preset or
 * model is asked.  From 0 up, what they refuse is theirs to say (bad
 * input, CLI_EXIT_FAIL). */
gboolean cli_check_count (const CmdEntry *cmd, const char *option,
                          gint64 value);

/* The exit status for 'error' from loading the preset or making the
 * kernel's launch: a command line that names no GPU is missing an
 * option, and a --set or --param not NAME=VALUE is malformed
 * (CLI_EXIT_USAGE, as any command's are); a preset or kernel that
 * cannot be had or refuses a value is bad input (CLI_EXIT_FAIL). */
int cli_error_status (const GError *error);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliGpuOptions, cli_gpu_options_clear)

typedef enum { CLI_FORMAT_TEXT, CLI_FORMAT_CSV, CLI_FORMAT_JSON } CliFormat;

/* Parse --format; 'allowed' is a mask of 1 << CliFormat. */
gboolean cli_format_parse (const char *text, unsigned allowed, CliFormat *out,
                           GError **error);

/* Build a subcommand's option context: "smsim NAME" in the usage line,
 * its summary, and a description holding examples. */
GOptionContext *cli_context_new (const CmdEntry *cmd, const char *args,
                                 const char *description);

/* Parse argv with 'ctx'; on failure print the error and a hint. */
gboolean cli_parse (GOptionContext *ctx, const CmdEntry *cmd, int *argc,
                    char ***argv);

/* Whether argv (before cli_parse takes its options out) gives the
 * option 'name' ("--jobs") or 'letter' ('j'), before any "--": for an
 * option whose default no value can stand for. */
gboolean cli_given (int argc, char **argv, const char *name, char letter);

/* Standard output, a piece at a time: the commands print with g_print,
 * and main makes this GLib's print handler (GOption's --help comes here
 * too).  glibc drops a buffer it could not write, so by exit, when main
 * checks the stream, the errno of the write that failed is gone: the
 * first failure's is kept here. */
void cli_print (const char *text);

/* The reason the first failed write to standard output gave (through
 * cli_print or cli_error's flush), or 0. */
int cli_stdout_errno (void);

/* "smsim NAME: message" on stderr. */
void cli_error (const CmdEntry *cmd, const char *format, ...)
    G_GNUC_PRINTF (2, 3);

/* Where output to 'path' goes: its symlinks followed to the file at the
 * end.  '*direct' is set when that file exists and is not a regular one
 * (a device, a FIFO, an open file behind /dev/stdout): written straight
 * to, never replaced.  Otherwise a new file made beside the returned path
 * and renamed over it replaces it whole. */
char *cli_output_target (const char *path, gboolean *direct, GError **error);

/* FALSE, with an error naming 'option' and 'path', where 'path' (NULL
 * or "-": standard output) could not be written at the end: it is a
 * directory, or it is not there and neither is the directory it would
 * be made in.  Checked before any work, so that a long run is not lost
 * to a mistyped -o. */
gboolean cli_check_output (const char *option, const char *path,
                           GError **error);

/* Write 'text' to 'path' (through cli_output_target: whole or not at all
 * unless it is a device or FIFO), or to stdout when 'path' is NULL or
 * "-". */
gboolean cli_write_output (const char *path, const GString *text,
                           GError **error);

/* One of the outputs of a command: 'text' to go to 'path' as
 * cli_write_output takes it. */
typedef struct {
    const char *path;
    const GString *text;
} CliOutput;

/* Write each of 'outs' (n of them) as cli_write_output would, all or
 * none: the files are written beside their targets first, then what
 * cannot be (standard output, a device, a FIFO), and the files are
 * renamed into place only once all of that succeeded.  A second such
 * output failing cannot take back the first. */
gboolean cli_write_outputs (const CliOutput *outs, guint n, GError **error);

/* A file option as given: 'option' as an error names it ("--from"),
 * 'path' NULL or "-" when it names no file. */
typedef struct {
    const char *option;
    const char *path;
} CliFileArg;

/* FALSE, with an error naming both options and the path, when two of
 * 'args' name the same file (after symlinks, or by another path): an
 * output would overwrite an input, or another output.  Checked before
 * any work, so that nothing is lost. */
gboolean cli_check_distinct (const CliFileArg *args, guint n,
                             GError **error);

/* cli_check_distinct of the output 'out' with each of 'inputs' in turn:
 * no output may replace an input, though inputs may name one file twice
 * (reading it twice loses nothing; where that is wrong, it is the
 * command's own error). */
gboolean cli_check_not_input (const CliFileArg *out,
                              const CliFileArg *inputs, guint n,
                              GError **error);

/* The same for each of the 'n_outs' outputs 'outs' (a NULL path: none)
 * and the files the preset of 'gpu' and 'config' is read from, its
 * base= chain included: a report written over the base= of its --config
 * replaced it.  Call it after the check against --gpu and --config
 * themselves, whose message names the options.  A preset that does not
 * load passes: the command reports that when it loads it. */
gboolean cli_check_not_preset (const CliFileArg *outs, guint n_outs,
                               const char *gpu, const char *config,
                               GError **error);

#endif
