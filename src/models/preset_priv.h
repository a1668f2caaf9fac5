/*
 * preset_priv.h -- what a Preset holds, for the files that make and
 * check one (preset.c, preset_scan.c, preset_find.c, preset_set.c,
 * preset_rules.c); everyone else goes through preset.h.
 */
#ifndef SMSIM_MODELS_PRESET_PRIV_H
#define SMSIM_MODELS_PRESET_PRIV_H

#include "models/pkey.h"
#include "models/preset.h"

typedef struct {
    gboolean set;
    char *text;      /* value as written */
    char *source;    /* the comment above it, whitespace-folded */
    char *origin;    /* file it came from, or "--set" */
    int line;
} PresetValue;

/* The origin of a value --set gave, which preset_what_if looks for. */
#define ORIGIN_SET "--set"

struct Preset {
    GpuSpec spec;
    PresetValue *values;   /* one per key-table row */
    guint n_values;
    char *root;            /* preset_root () */
    GPtrArray *files;      /* preset_files (): every file read */
};

/* The values (preset.c). */

/* Where in preset->spec the value of 'info' goes. */
void *preset_slot_of (Preset *preset, const PkeyInfo *info);

/* Parse 'text' into the spec field of 'info'; on failure 'why' says
 * what is wrong with it, and nothing is stored. */
gboolean preset_store_value (Preset *preset, const PkeyInfo *info,
                             const char *text, char **why);

/* Keep 'text' as the value of 'info', with its 'source' (taken) and
 * where it was set: 'origin', at 'line' (0 for none). */
void preset_record (Preset *preset, const PkeyInfo *info, const char *text,
                    char *source, const char *origin, int line);

/* 'text' for a message: a control character (a line break would
 * break the message) as \n, \t or \xNN, the rest as it is. */
char *preset_shown_text (const char *text);

/* The line scan (preset_scan.c). */

/* Where each "group\x1fkey" stands in the file being loaded. */
typedef struct {
    const char *path;
    GHashTable *lines;
} LineIndex;

void preset_line_index_clear (LineIndex *index);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (LineIndex, preset_line_index_clear)

/* Scan 'contents', the file index->path, line by line into 'index': an
 * error names the first line that is no ini syntax or sets a key a
 * second time. */
gboolean preset_scan_file (LineIndex *index, const char *contents,
                           GError **error);

/* The line of [group] key, of the [group] header itself for a NULL
 * 'key'; 0 for one not in the file. */
int preset_line_of (const LineIndex *index, const char *group,
                    const char *key);

/* Finding the files (preset_find.c). */

/* The file of the preset 'name', a name in the search path or a path
 * (a relative one from the directory of the file 'relative_to', when
 * one is given: a base= is written from its file). */
char *preset_find_preset (const char *name, const char *relative_to,
                          GError **error);

/* --config always names a file: "myconf" in the working directory is
 * that file, not an unknown GPU, whatever its name looks like. */
char *preset_find_config (const char *path, GError **error);

/* --set (preset_set.c). */

/* Apply the assignment "group.key=value" to 'preset', as set on the
 * command line: an error names the assignment. */
gboolean preset_apply_set (Preset *preset, const char *assignment,
                           GError **error);

/* The rules (preset_rules.c). */

/* The finished preset 'p', named 'name' in messages: every key it needs
 * is there, and the rules between keys hold (a block no larger than the
 * SM, a line a whole number of sectors ...).  An error names the key,
 * its file and line, and the other key of the rule. */
gboolean preset_rules_check (const Preset *p, const char *name, GError **error);

#endif
