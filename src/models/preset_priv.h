/*
 * preset_priv.h -- what a Preset holds, for the files that make and
 * check one (preset.c, preset_rules.c); everyone else goes through
 * preset.h.
 */
#ifndef SMSIM_MODELS_PRESET_PRIV_H
#define SMSIM_MODELS_PRESET_PRIV_H

#include "models/preset.h"

typedef struct {
    gboolean set;
    char *text;      /* value as written */
    char *source;    /* the comment above it, whitespace-folded */
    char *origin;    /* file it came from, or "--set" */
    int line;
} PresetValue;

struct Preset {
    GpuSpec spec;
    PresetValue *values;   /* one per key-table row */
    guint n_values;
    char *root;            /* preset_root () */
};

/* The finished preset 'p', named 'name' in messages: every key it needs
 * is there, and the rules between keys hold (a block no larger than the
 * SM, a line a whole number of sectors ...).  An error names the key,
 * its file and line, and the other key of the rule. */
gboolean preset_rules_check (const Preset *p, const char *name, GError **error);

#endif
