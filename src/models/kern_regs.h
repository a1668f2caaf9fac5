/*
 * kern_regs.h -- registers per thread of the modelled kernels, as nvcc
 * compiles the project's own CUDA sources.
 *
 * The rows are kernels/cuda/registers.csv: `ptxas -v` on kernels/cuda
 * (instances.cu) for sm_75, sm_80, sm_86 and sm_90, written by
 * kernels/cuda/regs.sh where nvcc exists; where it does not, the recorded
 * numbers stand.  The build turns the CSV into a C table
 * (tools/regs-table.awk -> kern_regs_data.c), so an installed smsim needs
 * no file at run time.
 *
 * A GPU uses the column of its compute capability; one with no column of
 * its own uses the nearest compiled one (kern_regs_arch):
 *   9.x -> sm_90, 8.6 to 8.9 -> sm_86, 8.0 to 8.5 -> sm_80, 7.5 -> sm_75,
 *   below 7.5 (V100, P100, K40) -> sm_75: CUDA 13 cannot compile for
 *   sm_70 or older, and sm_75 is the oldest it can.
 * Pure data and lookups; nothing here allocates.
 */
#ifndef SMSIM_MODELS_KERN_REGS_H
#define SMSIM_MODELS_KERN_REGS_H

#include <glib.h>

#include "sim/spec.h"

typedef struct {
    const char *kernel;         /* "sgemm-5", "pmpp-tiled", "vecadd" */
    const char *params;         /* "default", "a6000", "a100", "TILE_WIDTH=16" */
    int arch;                   /* sm_XX as XX: 75, 80, 86, 90 */
    int registers;              /* per thread */
    int static_smem_bytes;      /* per block */
} KernRegsRow;

/* The table generated from registers.csv, and the nvcc that made it. */
extern const KernRegsRow kern_regs_rows[];
extern const guint kern_regs_n_rows;
extern const char kern_regs_nvcc_version[];

/* The architecture whose column a GPU of 'spec' uses (see above). */
int kern_regs_arch (const GpuSpec *spec);

/* Registers per thread of 'kernel' with parameter set 'params' compiled
 * for the column of 'spec', or -1 if registers.csv has no such row. */
int kern_regs_lookup (const char *kernel, const char *params,
                      const GpuSpec *spec);

/* The rule of kern_regs_arch in one line, for `smsim kernels`. */
const char *kern_regs_arch_rule (void);

/* The rows of model 'model_id' (and of its variants, "pmpp-tiled-dyn"
 * for "pmpp-tiled") as text, one parameter set a line:
 * "default: sm_75 128, sm_80 128, sm_86 128, sm_90 129"; NULL if the
 * model has none.  Owned by the caller. */
char *kern_regs_summary (const char *model_id);

#endif
