/*
 * kern.h -- kernel models: what a student runs instead of a GPU.
 *
 * A model turns a problem size and its parameters into a launch (grid,
 * block, registers, shared memory), a FLOP count, and the instruction
 * stream of every warp, with the exact per-lane address of every global
 * and shared access.  Streams are lazy (instr.h): a warp's instructions
 * are made as the SM asks for them.  The loop structure (prologue, N
 * main-loop iterations, epilogue) is part of the instance so a sampled
 * run can simulate a window of iterations.
 *
 * Registry: kern.c holds the table of models (tmux's cmd_table model);
 * one file per family holds the models (kern_vecadd.c, kern_micro.c,
 * kern_pmpp.c, kern_sgemm.c).
 */
#ifndef SMSIM_MODELS_KERN_H
#define SMSIM_MODELS_KERN_H

#include <glib.h>

#include "sim/instr.h"
#include "sim/spec.h"

#define SMSIM_KERN_ERROR (kern_error_quark ())
GQuark kern_error_quark (void);

typedef enum {
    KERN_ERROR_UNKNOWN,     /* no such kernel or parameter */
    KERN_ERROR_PARAM,       /* a parameter out of range or inconsistent */
    KERN_ERROR_SIZE,        /* a size the real kernel cannot run */
    KERN_ERROR_FORM         /* a --param not NAME=VALUE */
} KernError;

#define KERN_MAX_PARAMS 12

typedef struct {
    const char *name;       /* e.g. "BM" */
    gint64 def;             /* default (the A6000 configuration) */
    gint64 min;
    gint64 max;
    const char *help;
} KernParam;

typedef struct KernModel KernModel;

/* What a block does, for a sampled run of an uneven launch: the lanes
 * that pass its bounds check, summed over its warps (a trace's: its
 * lane-instructions), and its warps with any.  Blocks whose work is
 * alike take alike time. */
typedef struct {
    guint64 lanes;
    int warps;
} KernBlockWork;

typedef struct {
    const KernModel *model;
    gint64 size;                    /* N: elements, or M = N = K */
    gint64 param[KERN_MAX_PARAMS];  /* in the model's parameter order */

    /* The launch. */
    guint64 grid_x;
    guint64 grid_y;
    int threads;                    /* per block */
    int block_y;                    /* its rows (blockDim.y); 0: one */
    int regs;                       /* per thread */
    gint64 static_smem;             /* bytes per block */
    gint64 dyn_smem;
    double flops;                   /* useful FLOPs of the whole launch */
    double device_bytes;            /* its buffers in device memory; 0:
                                     * not known (a trace's) */
    const char *bytes_param;        /* the parameter whose bytes those
                                     * are, as far as the loads reach
                                     * (loaduse's FOOTPRINT); NULL: the
                                     * size's buffers */
    guint64 iterations;             /* main-loop iterations per block */
    gboolean uneven;                /* blocks at C's edge do less work (a
                                     * bounds check): a sampled run times
                                     * each kind of block apart
                                     * (KernModel.block_work) */

    void *data;                     /* the model's own, owned */
    const char *where;              /* what errors about the launch name:
                                     * a trace's file and kernel (in
                                     * data); NULL: the model's id */
} KernInstance;

struct KernModel {
    const char *id;                 /* "sgemm-5" */
    const char *summary;
    const KernParam *params;
    int n_params;
    const char *size_help;          /* what --size means */
    /* Derive the launch from size and parameters; reject what the real
     * kernel could not run, saying why. */
    gboolean (*setup) (KernInstance *k, const GpuSpec *spec, GError **error);
    /* Warp 'warp' of 'block', its main loop run 'iterations' times (the
     * instance's count, or fewer for a sampled window). */
    InstrStream *(*open_warp) (const KernInstance *k, guint64 block, int warp,
                               guint64 iterations);
    void (*free_data) (void *data);
    gboolean size_is_side;          /* --size is the side of square
                                     * matrices: titles say "256 x 256" */
    /* What 'block' does (KernBlockWork); NULL: every block all of its
     * threads' work. */
    KernBlockWork (*block_work) (const KernInstance *k, guint64 block);
};

/* Every model, in the order `smsim kernels` lists them. */
const KernModel *const *kern_models (guint *n);
const KernModel *kern_find (const char *id);

/* An instance of 'model' for 'spec' at 'size', with "NAME=VALUE"
 * overrides (NULL-terminated, may be NULL). */
KernInstance *kern_instance_new (const KernModel *model, const GpuSpec *spec,
                                 gint64 size, const char *const *params,
                                 GError **error);
void kern_instance_free (KernInstance *k);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KernInstance, kern_instance_free)

guint64 kern_blocks (const KernInstance *k);

/* What an error about 'k''s launch names: the model's id, or for a
 * replayed trace the file its header came from ("x.trace (sgemm-3)"). */
const char *kern_where (const KernInstance *k);
/* Warps per block (a partial last warp counts). */
int kern_warps (const KernInstance *k);
/* What 'block' does: the model's block_work, or all its threads. */
KernBlockWork kern_block_work (const KernInstance *k, guint64 block);
/* A block's work as one number and back: equal where the work is. */
guint64 kern_block_work_key (KernBlockWork w);
KernBlockWork kern_block_work_of_key (guint64 key);
InstrStream *kern_open_warp (const KernInstance *k, guint64 block, int warp);
/* The same with the main loop cut to 'iterations' (a sampling window). */
InstrStream *kern_open_warp_window (const KernInstance *k, guint64 block,
                                    int warp, guint64 iterations);

/* Whether 's' plays the main loop: FALSE for a warp whose threads all
 * exit at the kernel's bounds check, which a probe does not watch. */
gboolean kern_stream_plays_loop (const InstrStream *s);

/* Where the instruction stream 's' (a model's or a trace's) last
 * returned stands: -1 in the prologue, i in main-loop iteration i (from
 * 0), the stream's window in the epilogue.  FALSE if it cannot tell. */
gboolean kern_stream_position (const InstrStream *s, gint64 *iteration);
/* Its local/global-queue instructions alone, the loop cut the same way:
 * what a mirror SM plays (gpu.h). */
InstrStream *kern_open_mirror_window (const KernInstance *k, guint64 block,
                                      int warp, guint64 iterations);
/* Whether the launch is one 'spec' takes: past its block or grid limits
 * the runtime refuses it (and the block count of a huge size would
 * wrap), and buffers past its device memory cudaMalloc refuses.  A
 * block's thread count is occupancy's to check (occ_check).
 * kern_instance_new checks it; a trace's is checked when it is run. */
gboolean kern_check_launch (const KernInstance *k, const GpuSpec *spec,
                            GError **error);

/* kgen_stream_window for any warp's or mirror's stream: FALSE for one
 * whose window cannot be changed (a trace's). */
gboolean kern_stream_window (InstrStream *s, guint64 iterations,
                             gboolean apply);

/* The index of 'm''s parameter 'name' in m->params, or -1. */
int kern_param_index (const KernModel *m, const char *name);

/* The value of parameter 'name' (which must exist). */
gint64 kern_param (const KernInstance *k, const char *name);

/* NAME of "NAME=VALUE" (a --param, or a sweep's --vary), spaces
 * trimmed; the whole of it where there is no '='.  Owned by the
 * caller. */
char *kern_param_name (const char *assignment);

/* Whether 'assignment' (a --param) is NAME=VALUE, neither part empty:
 * else a KERN_ERROR_FORM error, saying what one looks like for 'm' (NULL:
 * the kernel is not known yet) and, where 'm' does not take NAME, who
 * does.  kern_instance_new checks it too; a command checks it first. */
gboolean kern_check_param_form (const KernModel *m, const char *assignment,
                                GError **error);

/* Who takes parameter 'name', for a message: "kernels that take it:
 * sgemm-10, sgemm-11" (in `smsim kernels` order), or "no kernel takes
 * it", then where to look ("; `smsim kernels` lists ...").  Owned by
 * the caller. */
char *kern_param_takers (const char *name);

#endif
