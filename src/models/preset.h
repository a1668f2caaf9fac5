/*
 * preset.h -- GPU presets: GKeyFile .ini files checked against the key
 * table (pkey.h) and turned into an immutable GpuSpec.
 *
 * A preset is found by name in the preset search path (SMSIM_PRESET_DIR,
 * then the source tree, then $(pkgdatadir)/presets) or given as a path.
 * It may start from another with `[preset] base = NAME`; its own keys
 * override the base's.  Then `--set group.key=value` assignments
 * override both.  Only after that is the whole checked: required keys,
 * ranges, and the values that must agree with each other.  Every error
 * names the file and line, the `[group] key`, the value and what is
 * allowed.
 *
 * Every value keeps its text, the comment above it (its source, by the
 * presets' convention; "ASSUMED:" marks an unsourced value) and where
 * it was set, for `smsim query --sources`.
 *
 * Ownership: preset_load returns an owned Preset; the GpuSpec and all
 * strings it hands out are borrowed from it.
 */
#ifndef SMSIM_MODELS_PRESET_H
#define SMSIM_MODELS_PRESET_H

#include <glib.h>

#include "sim/spec.h"

#define SMSIM_PRESET_ERROR (preset_error_quark ())
GQuark preset_error_quark (void);

typedef enum {
    PRESET_ERROR_NOT_FOUND,     /* no such preset or file */
    PRESET_ERROR_PARSE,         /* a line that is not ini syntax */
    PRESET_ERROR_UNKNOWN_KEY,   /* key or group not in the table */
    PRESET_ERROR_VALUE,         /* wrong type or out of range */
    PRESET_ERROR_MISSING,       /* a required key is absent */
    PRESET_ERROR_INCONSISTENT,  /* values that contradict each other */
    PRESET_ERROR_BASE,          /* base= chain too deep or circular */
    PRESET_ERROR_NO_GPU,        /* neither a preset nor a file named */
    PRESET_ERROR_SET_TWICE,     /* a --set list names a key twice */
    PRESET_ERROR_FORM           /* a --set not GROUP.KEY=VALUE */
} PresetError;

typedef struct Preset Preset;

/* Load 'gpu' (a name or a path) and/or 'config' (a path; when both are
 * given, the config's keys override the named preset's), then apply
 * 'sets' ("group.key=value", NULL-terminated, may be NULL). */
Preset *preset_load (const char *gpu, const char *config,
                     const char *const *sets, GError **error);
void preset_free (Preset *preset);

/* Whether 'gpu' names a preset file rather than a preset: it has a '/'
 * or ends in .ini (preset_load reads it as a path then). */
gboolean preset_is_path (const char *gpu);

/* Whether 'text' is a name as a preset's id, a kernel id or a trace
 * header's gpu is: letters, digits, '_', '-' and '.', at least one. */
gboolean preset_is_name (const char *text);

/* Whether the command line's 'sets' are each GROUP.KEY=VALUE, and
 * name each key once: a second value would quietly win.  preset_load
 * itself lets a later assignment override an earlier one, for callers
 * that layer their own on the user's (a sweep's points, a figure's
 * what-ifs). */
gboolean preset_check_sets (const char *const *sets, GError **error);

/* "group.key" of a --set assignment, stripped as preset_load reads it
 * ("sm . registers = 1" is sm.registers), or NULL for one not of the
 * form GROUP.KEY=VALUE.  Owned by the caller. */
char *preset_set_name (const char *assignment);

/* What is wrong with 'text' as the value of the key "group.key" 'name'
 * by the key table alone (its type and range: "not an integer", "must
 * be 1024..4194304 registers"; "no preset key X" for a name not in the
 * table), or NULL where the table takes it: the rules between keys are
 * preset_rules.c's.  Owned by the caller. */
char *preset_value_problem (const char *name, const char *text);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Preset, preset_free)

const GpuSpec *preset_spec (const Preset *preset);

/* The shipped preset, by name, that 'preset' starts from: itself when
 * loaded by name, the --gpu under a --config, else the deepest base=
 * named (not a path) in its chain; NULL where none is.  A what-if file
 * `base = a100` is compared with the A100's published figures. */
const char *preset_root (const Preset *preset);

/* The files 'preset' was read from, each once, as canonical paths:
 * --gpu's and --config's and every base= of theirs, in the order read.
 * An output must replace none of them. */
const char *const *preset_files (const Preset *preset, guint *n);

/* Per key, by its index in the key table. */
gboolean preset_has (const Preset *preset, guint key);
const char *preset_text (const Preset *preset, guint key);
const char *preset_source (const Preset *preset, guint key);
const char *preset_origin (const Preset *preset, guint key, int *line);
gboolean preset_assumed (const Preset *preset, guint key);
/* The values --set gave, "group.key = value" joined by ", ", for a
 * table to say it is a what-if; NULL where none was given. */
char *preset_what_if (const Preset *preset);

/* Names of the presets in the search path, sorted; NULL-terminated. */
char **preset_names (void);

#endif
