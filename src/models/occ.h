/*
 * occ.h -- exact theoretical occupancy, and the textbook estimate.
 *
 * occ_compute follows the hardware's allocation rules as the CUDA
 * runtime's occupancy API applies them (CUDA 13.0 cuda_occupancy.h,
 * read for its rules; ../shared/data/microarch.md section 2):
 *   - warps:     floor(max warps per SM / ceil(threads / warp size));
 *   - registers: each warp gets regs x 32 rounded up to the allocation
 *                unit; each sub-partition's quarter of the register
 *                file holds a whole number of warps; warps per block
 *                are not rounded (the spreadsheet's "warp allocation
 *                granularity" shortcut is wrong on cc 8.0, 33 regs,
 *                96 threads: 12 blocks where the runtime gives 16);
 *   - shared memory: static + dynamic + the driver's per-block reserve
 *                (cc 8+), rounded up to the allocation unit, out of the
 *                carveout pool (a preference rounds up to a supported
 *                step; one block always fits);
 *   - block slots.
 * The result is the minimum; every binding limit is named.
 *
 * Pure functions: const inputs, a filled result, no allocation, no I/O.
 * An impossible launch is not a crash: 'status' says which rule it
 * breaks, and occ_check turns that into a GError for the caller.
 */
#ifndef SMSIM_MODELS_OCC_H
#define SMSIM_MODELS_OCC_H

#include <glib.h>

#include "sim/spec.h"

#define SMSIM_LAUNCH_ERROR (occ_error_quark ())
GQuark occ_error_quark (void);

/* Kernel-independent description of one launch's resource use. */
typedef struct {
    gint64 threads_per_block;
    gint64 regs_per_thread;
    gint64 static_smem_bytes;
    gint64 dyn_smem_bytes;
    int carveout_pct;            /* -1: no preference, else 0..100 */
} OccLaunch;

#define OCC_LAUNCH_INIT { 0, 0, 0, 0, -1 }

/* Limits, as bits: several can bind at once. */
typedef enum {
    OCC_LIMITER_BLOCKS = 1 << 0,   /* block slots */
    OCC_LIMITER_WARPS = 1 << 1,    /* warp (thread) slots */
    OCC_LIMITER_REGS = 1 << 2,     /* register file */
    OCC_LIMITER_SMEM = 1 << 3      /* shared memory */
} OccLimit;

typedef enum {
    OCC_OK,
    OCC_BAD_INPUT,               /* threads < 1, negative sizes, bad pct */
    OCC_TOO_MANY_THREADS,        /* > threads per block */
    OCC_TOO_MANY_REGS,           /* regs per thread > allocation cap */
    OCC_REGS_PER_BLOCK,          /* block's registers > per-block limit */
    OCC_STATIC_SMEM,             /* static > per-block default limit */
    OCC_SMEM_PER_BLOCK,          /* total > opt-in limit */
    OCC_NO_BLOCK_FITS            /* occ_check_fits only: occ_compute
                                    answers 0 blocks an SM as it is */
} OccStatus;

/* "No limit from this resource" (0 registers, 0 bytes of shared memory). */
#define OCC_UNLIMITED G_MAXINT

typedef struct {
    OccStatus status;
    int blocks_per_sm;
    int warps_per_sm;
    int threads_per_sm;
    int max_warps_per_sm;
    double occupancy_pct;
    unsigned limiter;            /* OccLimit bits that bind */

    /* Blocks per SM each resource allows (OCC_UNLIMITED for none). */
    int limit_blocks;
    int limit_warps;
    int limit_regs;
    int limit_smem;

    /* The arithmetic behind them, for explanations. */
    int warps_per_block;
    gint64 regs_per_warp_raw;     /* regs x warp size */
    gint64 regs_per_warp;         /* rounded up to the allocation unit */
    gint64 regs_per_block;        /* allocated: per warp x warps */
    gint64 regs_block_check;      /* per warp x warps rounded to sub-partitions */
    int regs_per_sub_partition;
    int warps_per_sub_partition;
    gint64 smem_per_block_raw;    /* static + dynamic + reserve */
    gint64 smem_per_block;        /* rounded up to the allocation unit */
    gint64 smem_block_max;        /* largest allocation one block may have */
    gint64 smem_preference;       /* carveout preference, rounded to a step */
    gint64 smem_pool;             /* shared memory the blocks divide */
    gint64 launch_carveout;       /* carveout configured at launch */
    gint64 l1_bytes;              /* unified array minus that carveout */
} OccResult;

void occ_compute (const GpuSpec *spec, const OccLaunch *launch,
                  OccResult *result);

/* TRUE when result->status is OCC_OK; else a SMSIM_LAUNCH_ERROR saying
 * which limit the launch breaks, with the value and the limit. */
gboolean occ_check (const GpuSpec *spec, const OccLaunch *launch,
                    const OccResult *result, GError **error);

/* TRUE when at least one block fits an SM; else a SMSIM_LAUNCH_ERROR
 * (OCC_NO_BLOCK_FITS) naming each resource that allows none.  The
 * calculator's answer of 0 blocks stands (the CUDA runtime's does);
 * a launch of them fails. */
gboolean occ_check_fits (const GpuSpec *spec, const OccResult *result,
                         GError **error);

/* Names of the binding limits, '+'-joined in a fixed order
 * ("registers+warps"), into 'buf'; "none" for an impossible launch. */
const char *occ_limiter_name (unsigned limiter, char *buf, gsize size);

/* Smallest carveout step of at least 'bytes', or -1 if none is. */
gint64 occ_carveout_step (const GpuSpec *spec, gint64 bytes);

/*
 * The textbook estimate the seeds use (PMPP 4.7 and 5.6, the CUDA book's
 * occupancy section): threads per SM = the least of the thread slots,
 * block slots x block size, registers per SM / registers per thread,
 * and shared memory per SM / shared bytes per thread.  No allocation
 * units, no reserve, no whole blocks, no sub-partitions.
 */
typedef struct {
    double smem_bytes_per_thread;
    double threads_by_regs;       /* G_MAXDOUBLE when unlimited */
    double threads_by_smem;
    double threads_by_slots;
    double threads;
    double occupancy_pct;
} OccTextbook;

void occ_textbook (const GpuSpec *spec, const OccLaunch *launch,
                   OccTextbook *estimate);

#endif
