/*
 * sweep_key.h -- what a sweep may vary: the names `--vary KEY=...` and
 * a points file's header take, and the checks a value passes before
 * any point runs.
 *
 *   GROUP.KEY    a preset key (pkey.h; `smsim query --keys`), applied
 *                like --set to a freshly loaded preset
 *   param.NAME   a kernel-model parameter (kern.h, NAME=VALUE)
 *   kernel, size the kernel model and its problem size
 *   regs, smem   the launch's registers per thread and static shared
 *                memory per block, instead of the kernel model's
 *   threads, dyn_smem, carveout
 *                the rest of an occupancy launch (occupancy mode only:
 *                in run mode a kernel model sets them)
 *
 * The checks here need no GPU: syntax and the ranges no GPU can
 * change (a size must be positive).  What depends on the GPU (more
 * registers than it allows) is found when the point runs, and makes
 * that point's row an error.
 */
#ifndef SMSIM_MODELS_SWEEP_KEY_H
#define SMSIM_MODELS_SWEEP_KEY_H

#include <glib.h>

#include "models/pkey.h"

typedef enum {
    SWEEP_KEY_PRESET,
    SWEEP_KEY_PARAM,
    SWEEP_KEY_KERNEL,
    SWEEP_KEY_SIZE,
    SWEEP_KEY_REGS,
    SWEEP_KEY_SMEM,
    SWEEP_KEY_THREADS,
    SWEEP_KEY_DYN_SMEM,
    SWEEP_KEY_CARVEOUT
} SweepKeyKind;

typedef struct {
    char *name;                 /* as given: "sm.registers", "param.BM" */
    SweepKeyKind kind;
    const PkeyInfo *pkey;       /* SWEEP_KEY_PRESET only */
    const char *param;          /* SWEEP_KEY_PARAM: NAME, inside 'name' */
} SweepKey;

/* Parse 'name' into 'key' (owned by the caller: sweep_key_clear). */
gboolean sweep_key_parse (const char *name, SweepKey *key, GError **error);
void sweep_key_clear (SweepKey *key);

/* Check 'value' for 'key' as far as no GPU or kernel is needed; on
 * failure '*why' says what is wrong (owned by the caller). */
gboolean sweep_key_check_value (const SweepKey *key, const char *value,
                                char **why);

/* The help line listing the keys, for messages and --help. */
const char *sweep_key_help (void);

#endif
