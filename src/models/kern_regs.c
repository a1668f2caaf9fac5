/*
 * kern_regs.c -- registers per thread from registers.csv (kern_regs.h).
 */
#include "config.h"

#include <string.h>

#include "models/kern_regs.h"

/* Nearest compiled architecture: the same major version where one was
 * compiled, the same 8.6 GA10x column for 8.7 and 8.9 (register file
 * and per-thread limit as 8.6), and sm_75 below 7.5 (CUDA 13 has no
 * sm_70 or older; Volta's register file and 255-register limit are
 * Turing's). */
int
kern_regs_arch (const GpuSpec *spec)
{
    int cc = spec->device.cc_major * 10 + spec->device.cc_minor;
    if (cc >= 90)
        return 90;
    if (cc >= 86)
        return 86;
    if (cc >= 80)
        return 80;
    return 75;
}

const char *
kern_regs_arch_rule (void)
{
    return "cc 9.x: sm_90; 8.6-8.9: sm_86; 8.0-8.5: sm_80; 7.5 and older "
           "(V100, P100, K40): sm_75, the oldest CUDA 13 compiles";
}

int
kern_regs_lookup (const char *kernel, const char *params,
                  const GpuSpec *spec)
{
    int arch = kern_regs_arch (spec);
    for (guint i = 0; i < kern_regs_n_rows; i++) {
        const KernRegsRow *r = &kern_regs_rows[i];
        if (r->arch == arch && strcmp (r->kernel, kernel) == 0 &&
            strcmp (r->params, params) == 0)
            return r->registers;
    }
    return -1;
}

/* Row 'r' belongs to model 'id': the same name, or the name and a
 * variant suffix ("pmpp-tiled-dyn"), but not "sgemm-10" for "sgemm-1". */
static gboolean
belongs (const KernRegsRow *r, const char *id)
{
    size_t n = strlen (id);
    return strncmp (r->kernel, id, n) == 0 &&
           (r->kernel[n] == '\0' ||
            (r->kernel[n] == '-' && !g_ascii_isdigit (r->kernel[n + 1])));
}

char *
kern_regs_summary (const char *model_id)
{
    g_autoptr (GString) out = g_string_new (NULL);
    const char *kernel = NULL, *params = NULL;
    for (guint i = 0; i < kern_regs_n_rows; i++) {
        const KernRegsRow *r = &kern_regs_rows[i];
        if (!belongs (r, model_id))
            continue;
        if (kernel == NULL || strcmp (kernel, r->kernel) != 0 ||
            strcmp (params, r->params) != 0) {
            kernel = r->kernel;
            params = r->params;
            if (out->len > 0)
                g_string_append_c (out, '\n');
            /* a variant is named by its kernel, its one set needs no name */
            g_string_append_printf (out, "%s: sm_%d %d",
                                    strcmp (kernel, model_id) != 0 ? kernel
                                                                   : params,
                                    r->arch, r->registers);
        } else {
            g_string_append_printf (out, ", sm_%d %d", r->arch, r->registers);
        }
    }
    if (out->len == 0)
        return NULL;
    return g_string_free (g_steal_pointer (&out), FALSE);
}
