/*
 * pkey.h -- the table of preset keys (tmux's options-table, Redis's
 * static_configs[]).
 *
 * One row per key: group, name, type, range, unit, where it lands in
 * the GpuSpec, and a line of help.  Loading, validation, --set
 * overrides, base= inheritance and `smsim query` all go through this
 * table; a key that is not in it is an error (that catches typos).
 * The table is read-only data.
 */
#ifndef SMSIM_MODELS_PKEY_H
#define SMSIM_MODELS_PKEY_H

#include <glib.h>
#include <stddef.h>

typedef enum {
    PKEY_INT,
    PKEY_DOUBLE,
    PKEY_BOOL,
    PKEY_STRING,
    PKEY_ENUM,      /* a name from 'names', stored as its index */
    PKEY_INT_LIST   /* ';'-separated ints, ascending, in a SpecIntList */
} PkeyType;

/* When a key must be present in a finished preset. */
typedef enum {
    PKEY_REQUIRED,  /* always */
    PKEY_OPTIONAL,  /* never (e.g. base) */
    PKEY_TIMING     /* when [preset] timing = true */
} PkeyNeed;

typedef struct {
    const char *group;
    const char *key;
    PkeyType type;
    PkeyNeed need;
    double min;                 /* range for numbers and list items */
    double max;
    const char *unit;
    size_t offset;              /* into GpuSpec; (size_t)-1: not stored */
    const char *const *names;   /* PKEY_ENUM only, NULL-terminated */
    const char *help;
} PkeyInfo;

/* The whole table, in the order `smsim query` shows it. */
const PkeyInfo *pkey_table (guint *n_keys);

/* Row of "group"/"key", or NULL; pkey_index gives its position. */
const PkeyInfo *pkey_find (const char *group, const char *key);
guint pkey_index (const PkeyInfo *info);

/* "1..1024", "0.5..100", "lrr|gto|cggty", "true|false": for messages. */
char *pkey_range_text (const PkeyInfo *info);

/* Whether the key can be set only in a preset file, not by --set or a
 * sweep: base= (the file's own), and name (a preset is named as its
 * file, preset.c; renamed, a what-if would pass for another GPU in its
 * tables and its traces' headers). */
gboolean pkey_file_only (const PkeyInfo *info);

/* Whether the key's value must be a name (preset_is_name): the preset's
 * id, which trace headers and tables carry. */
gboolean pkey_is_name (const PkeyInfo *info);

#endif
