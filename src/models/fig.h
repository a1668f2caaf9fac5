/*
 * fig.h -- the data behind the figures of a memory-architecture chapter
 * (`smsim plot`, `make figures`).
 *
 * A figure is a name, a default GPU and a build function.  The build
 * function computes one CSV table (the first line names the columns)
 * and a few gnuplot variables (title, axis limits, marked points) that
 * its script plots/NAME.gp reads; it never draws.  Figures 1, 2, 4 and
 * 5 are pure arithmetic on the occupancy rules, the coalescer and the
 * banks; the others run kernel models (run.h), through a cache so that
 * figures sharing a launch (the roofline and the stall breakdown) run it
 * once, with the launches of one figure spread over all cores.
 *
 * Deterministic: the same options give the same CSV, to the byte.
 */
#ifndef SMSIM_MODELS_FIG_H
#define SMSIM_MODELS_FIG_H

#include <glib.h>

#include "models/preset.h"
#include "models/run.h"

#define SMSIM_FIG_ERROR (fig_error_quark ())
GQuark fig_error_quark (void);

typedef enum {
    FIG_ERROR_OPTION,       /* an option the figure cannot use */
    FIG_ERROR_INPUT         /* a --from file that is not what it must be */
} FigError;

/* Launches already simulated, by what defines them. */
typedef struct FigCache FigCache;

FigCache *fig_cache_new (void);
void fig_cache_free (FigCache *cache);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FigCache, fig_cache_free)

/* Called as launches start (for a progress line); serialized. */
typedef void (*FigProgress) (void *ctx, const char *what, int done,
                             int total);

/* One row of a `smsim validate --format csv` table (read by the CLI). */
typedef struct {
    char gpu[16];                /* preset id */
    int kernel;                  /* SGEMM kernel number */
    gboolean modeled;            /* FALSE: no simulated figure */
    double simulated_gflops;
    double reference_gflops;
    double error_pct;
} FigValidRow;

/* What the user asked for; every field may be left unset (NULL or -1)
 * for the figure's default. */
typedef struct {
    const char *gpu;
    const char *config;
    const char *const *sets;
    gint64 size;                 /* -1 (as the counts below): the
                                    figure's own */
    const char *kernel;
    const char *const *params;
    const GArray *validation;    /* sgemm-validation: FigValidRow rows
                                    instead of simulating them */
    gint64 threads;              /* occupancy: the marked launch */
    gint64 regs;
    gint64 smem;
    FigCache *cache;             /* NULL: nothing shared between figures */
    FigProgress progress;
    void *progress_ctx;
} FigOptions;

#define FIG_OPTIONS_INIT \
    { .size = -1, .threads = -1, .regs = -1, .smem = -1 }

typedef struct {
    GString *csv;
    GString *vars;               /* gnuplot assignments, one a line */
    GString *notes;              /* for the user, not the figure: what it
                                    left out and why (lines; may stay
                                    empty) */
} FigData;

void fig_data_init (FigData *d);
void fig_data_clear (FigData *d);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FigData, fig_data_clear)

typedef struct {
    const char *name;            /* "occupancy": also plots/NAME.gp */
    int number;                  /* in the chapter, 1..11 */
    const char *summary;
    const char *default_gpu;     /* NULL where 'own_gpus' is set */
    const char *options;         /* the options it reads, for --list */
    /* FALSE always sets 'error': the CLI reports it. */
    gboolean (*build) (const FigOptions *o, FigData *out, GError **error);
    gboolean timing;             /* runs the timing model on --gpu */
    /* NULL-terminated: the presets it always runs (with o->sets), taking
     * no --gpu; NULL for a figure of --gpu or its default. */
    const char *const *own_gpus;
} FigDef;

/* Every figure, in chapter order. */
const FigDef *const *fig_all (guint *n);
/* By name, or by number ("7"); NULL if none. */
const FigDef *fig_find (const char *name);

/* gnuplot variables: a string (quoted for gnuplot) or a number. */
void fig_var_str (FigData *d, const char *name, const char *format, ...)
    G_GNUC_PRINTF (3, 4);
void fig_var_num (FigData *d, const char *name, double value);
/* Append "name = 'value'" as a gnuplot command to 'out'. */
void fig_append_quoted (GString *out, const char *name, const char *value);

/* The figure's preset: o->gpu (or the figure's default), o->config,
 * o->sets, then 'extra' sets (NULL-terminated, may be NULL).  For a
 * figure that runs the timing model (fig->timing), a preset without
 * timing numbers is an error naming the figure.  'key' (may be NULL)
 * receives what made the preset, for the cache. */
Preset *fig_preset (const FigOptions *o, const FigDef *fig,
                    const char *const *extra, char **key, GError **error);

/* Whether the figure will have its presets: fig_preset's, or each of
 * its own GPUs with o->sets.  For a check before anything is drawn. */
gboolean fig_check_presets (const FigOptions *o, const FigDef *fig,
                            GError **error);

/* One launch to simulate.  The figure fills the inputs; fig_run_all
 * fills 'result' (from the cache when the same launch ran before). */
typedef struct {
    const GpuSpec *spec;         /* borrowed */
    char *spec_key;              /* what made the spec: gpu, config, sets */
    char *kernel;
    gint64 size;
    GStrv params;                /* NAME=VALUE, may be NULL */
    RunMode mode;
    /* A launch the GPU cannot make (SMSIM_LAUNCH_ERROR: a block too big
     * for its resources) is this run's answer, in 'cannot_launch', not
     * the figure's failure (a what-if design). */
    gboolean may_not_launch;
    RunResult result;
    double flops;                /* of the launch (the instance's) */
    GError *cannot_launch;       /* NULL where it ran */
} FigRun;

/* A launch of 'kernel' on 'spec' (made as 'spec_key' says); 'params'
 * is copied.  Free with fig_run_clear. */
void fig_run_init (FigRun *r, const GpuSpec *spec, const char *spec_key,
                   const char *kernel, gint64 size, const char *const *params,
                   RunMode mode);
void fig_run_clear (FigRun *r);

/* Simulate 'runs' (what the cache lacks) on all cores.  The first
 * failure is returned, naming the launch (FigRun.may_not_launch says
 * which are not failures). */
gboolean fig_run_all (const FigOptions *o, FigRun *runs, guint n,
                      GError **error);
/* How 'runs' (simulated, or that cannot launch) were run, for a title:
 * "sampled", "exact" or "partly sampled". */
const char *fig_run_sampling (const FigRun *runs, guint n);
/* How a title names the size of a launch of 'kernel': "256 x 256" where
 * --size is the side of square matrices (PMPP's, the SGEMMs), else
 * "--size 4096" (vecadd's elements, loaduse's warps ...). */
char *fig_size_label (const char *kernel, gint64 size);

#endif
