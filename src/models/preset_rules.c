/*
 * preset_rules.c -- the rules between a preset's keys, checked once the
 * files and --set are all read.  See preset_priv.h.
 *
 * The key table (pkey.c) checks each value alone, its type and range;
 * what one key means for another (a block no larger than the SM, a
 * line a whole number of sectors) is here, each rule naming every key
 * it reads and where it was set.
 */
#include "config.h"

#include <string.h>

#include "models/pkey.h"
#include "models/preset_priv.h"
#include "sim/icache.h"

/* "a100.ini:12: [sm] max_threads = 2000" for messages about a key. */
static char *
where (const Preset *preset, const char *group, const char *key)
{
    const PresetValue *v = &preset->values[pkey_index (pkey_find (group, key))];
    if (v->line > 0)
        return g_strdup_printf ("%s:%d: [%s] %s = %s", v->origin, v->line,
                                group, key, v->text);
    return g_strdup_printf ("%s [%s] %s = %s", v->origin, group, key, v->text);
}

static gboolean
check_missing (const Preset *preset, const char *name, GError **error)
{
    guint n;
    const PkeyInfo *keys = pkey_table (&n);
    g_autoptr (GString) missing = g_string_new (NULL);
    for (guint i = 0; i < n; i++) {
        gboolean needed = keys[i].need == PKEY_REQUIRED ||
                          (keys[i].need == PKEY_TIMING && preset->spec.timing);
        if (needed && !preset->values[i].set)
            g_string_append_printf (missing, "%s[%s] %s",
                                    missing->len ? ", " : "", keys[i].group,
                                    keys[i].key);
    }
    if (missing->len == 0)
        return TRUE;
    g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_MISSING,
                 "%s: missing %s", name, missing->str);
    return FALSE;
}

/* One rule two or three keys must obey; 'ok' is the rule's verdict.
 * Every key the rule reads is named with its value and where it was
 * set, the third too ('g3' NULL: none): a --set of it alone broke the
 * rule while the message showed the other two, untouched. */
static gboolean
require3 (const Preset *preset, gboolean ok, const char *g1, const char *k1,
          const char *rule, const char *g2, const char *k2, const char *g3,
          const char *k3, GError **error)
{
    if (ok)
        return TRUE;
    g_autofree char *a = where (preset, g1, k1);
    /* A rule of one key (a power of two) names it once. */
    if (strcmp (g1, g2) == 0 && strcmp (k1, k2) == 0) {
        g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_INCONSISTENT,
                     "%s: %s", a, rule);
        return FALSE;
    }
    g_autofree char *b = where (preset, g2, k2);
    g_autofree char *c = g3 != NULL ? where (preset, g3, k3) : NULL;
    g_set_error (error, SMSIM_PRESET_ERROR, PRESET_ERROR_INCONSISTENT,
                 "%s: %s (%s%s%s)", a, rule, b, c != NULL ? "; " : "",
                 c != NULL ? c : "");
    return FALSE;
}

static gboolean
require (const Preset *preset, gboolean ok, const char *g1, const char *k1,
         const char *rule, const char *g2, const char *k2, GError **error)
{
    return require3 (preset, ok, g1, k1, rule, g2, k2, NULL, NULL, error);
}

static gboolean
check_sm (const Preset *p, GError **error)
{
    const GpuSpec *s = &p->spec;
    return require (p, s->sm.max_threads % s->device.warp_size == 0, "sm",
                    "max_threads", "must be a multiple of the warp size",
                    "device", "warp_size", error) &&
           require (p, s->sm.max_threads_per_block <= s->sm.max_threads, "sm",
                    "max_threads_per_block",
                    "a block cannot hold more threads than the SM", "sm",
                    "max_threads", error) &&
           require (p, s->sm.registers % s->sm.sub_partitions == 0, "sm",
                    "registers",
                    "must divide evenly among the sub-partitions", "sm",
                    "sub_partitions", error) &&
           require (p, s->sm.max_regs_per_block <= s->sm.registers, "sm",
                    "max_regs_per_block",
                    "a block cannot hold more registers than the SM", "sm",
                    "registers", error);
}

static gboolean
check_smem (const Preset *p, GError **error)
{
    const SpecSm *sm = &p->spec.sm;
    const SpecIntList *steps = &p->spec.alloc.carveout_steps_kib;
    gint64 top = (gint64) steps->v[steps->n - 1] * 1024;
    return require (p, sm->smem_per_block <= sm->smem_per_block_optin, "sm",
                    "smem_per_block", "must not exceed the opt-in limit",
                    "sm", "smem_per_block_optin", error) &&
           require3 (p, (gint64) sm->smem_per_block_optin +
                         sm->smem_reserved_per_block <= sm->smem_bytes,
                     "sm", "smem_per_block_optin",
                     "plus the per-block reserve must fit in the SM's shared "
                     "memory", "sm", "smem_bytes", "sm",
                     "smem_reserved_per_block", error) &&
           require (p, top == sm->smem_bytes, "alloc", "carveout_steps_kib",
                    "the last step (KiB) must equal the SM's shared memory",
                    "sm", "smem_bytes", error) &&
           require (p, !p->spec.alloc.carveout ||
                        (gint64) sm->l1_smem_kib * 1024 >= sm->smem_bytes,
                    "sm", "l1_smem_kib",
                    "the unified L1/shared array must hold the largest "
                    "carveout", "sm", "smem_bytes", error);
}

/* Shared memory delivers whole wavefronts a cycle (memhier.c).  What the
 * caches need is checked per launch (run_check_caches): a what-if SM for
 * occupancy alone may leave them no room. */
static gboolean
check_smem_rate (const Preset *p, GError **error)
{
    const SpecMem *m = &p->spec.mem;
    return require (p, m->smem_bytes_per_clk % (m->smem_banks * 4) == 0,
                    "mem", "smem_bytes_per_clk",
                    "must be whole wavefronts a cycle, a multiple of 4 B "
                    "per bank", "mem", "smem_banks", error);
}

/* The instruction caches are sets of 4 ways of 128-B lines (icache.h). */
static gboolean
check_fetch (const Preset *p, GError **error)
{
    const SpecFetch *f = &p->spec.fetch;
    return require (p, f->l0_bytes % ICACHE_SET_BYTES == 0, "fetch",
                    "l0_bytes", "must be whole sets: a multiple of 512 B "
                    "(4 ways of 128-B lines)", "fetch", "l0_bytes", error) &&
           require (p, f->l1_bytes % ICACHE_SET_BYTES == 0, "fetch",
                    "l1_bytes", "must be whole sets: a multiple of 512 B "
                    "(4 ways of 128-B lines)", "fetch", "l1_bytes", error);
}

static gboolean
check_timing (const Preset *p, GError **error)
{
    const SpecMem *m = &p->spec.mem;
    const SpecPipe *pp = &p->spec.pipe;
    if (!p->spec.timing)
        return TRUE;
    return require (p, (m->l1_sector_bytes & (m->l1_sector_bytes - 1)) == 0,
                    "mem", "l1_sector_bytes",
                    "must be a power of two (a sector is an address's low "
                    "bits)", "mem", "l1_sector_bytes", error) &&
           require (p, (m->l1_line_bytes & (m->l1_line_bytes - 1)) == 0,
                    "mem", "l1_line_bytes",
                    "must be a power of two (a line is an address's low "
                    "bits)", "mem", "l1_line_bytes", error) &&
           require (p, m->l1_line_bytes % m->l1_sector_bytes == 0, "mem",
                    "l1_line_bytes", "must be a whole number of sectors",
                    "mem", "l1_sector_bytes", error) &&
           require (p, m->l1_line_bytes / m->l1_sector_bytes <= 32, "mem",
                    "l1_line_bytes", "can hold at most 32 sectors (the "
                    "caches keep a line's sectors in a 32-bit mask)", "mem",
                    "l1_sector_bytes", error) &&
           require3 (p, pp->fma_lanes * p->spec.sm.sub_partitions ==
                            p->spec.sm.fp32_lanes,
                     "pipe", "fma_lanes",
                     "times the sub-partitions must be the SM's FP32 lanes",
                     "sm", "fp32_lanes", "sm", "sub_partitions", error) &&
           require (p, pp->fma_heavy_lanes <= pp->fma_lanes, "pipe",
                    "fma_heavy_lanes", "cannot exceed the FP32 lanes", "pipe",
                    "fma_lanes", error) &&
           require (p, (p->spec.regfile.banks & (p->spec.regfile.banks - 1)) == 0,
                    "regfile", "banks",
                    "must be 0 or a power of two (the bank is the register's "
                    "low bits)", "regfile", "banks", error) &&
           require (p, (p->spec.regfile.reuse_entries &
                        (p->spec.regfile.reuse_entries - 1)) == 0,
                    "regfile", "reuse_entries",
                    "must be a power of two (the entry is the register's low "
                    "bits)", "regfile", "reuse_entries", error) &&
           require3 (p, !pp->alu_on_fmalite ||
                         pp->fma_heavy_lanes < pp->fma_lanes,
                     "pipe", "alu_on_fmalite",
                     "needs a lite half (fma_lanes > fma_heavy_lanes)", "pipe",
                     "fma_heavy_lanes", "pipe", "fma_lanes", error) &&
           check_smem_rate (p, error) && check_fetch (p, error);
}

/* The timing model's DRAM runs at the measured rate (memhier.c); a
 * what-if that lowers the peak alone would not slow it, and reported
 * traffic past the peak. */
static gboolean
check_device (const Preset *p, GError **error)
{
    const SpecDevice *d = &p->spec.device;
    return require (p, d->dram_stream_gbs <= d->dram_bandwidth_gbs, "device",
                    "dram_stream_gbs",
                    "a kernel cannot measure more than the peak (the "
                    "timing model runs at the measured rate: set both)",
                    "device", "dram_bandwidth_gbs", error);
}

gboolean
preset_rules_check (const Preset *p, const char *name, GError **error)
{
    return check_missing (p, name, error) && check_sm (p, error) &&
           check_smem (p, error) && check_device (p, error) &&
           check_timing (p, error);
}
