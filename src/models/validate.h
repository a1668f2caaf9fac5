/*
 * validate.h -- simulated SGEMM throughput beside the published numbers
 * (ref.h), with the error of each, the mean absolute percentage error,
 * the largest miss, and whether the kernels come out in the published
 * order wherever two published figures differ by more than 10 %.
 * Misses are reported as they are: nothing is clipped or hidden.
 */
#ifndef SMSIM_MODELS_VALIDATE_H
#define SMSIM_MODELS_VALIDATE_H

#include "models/ref.h"
#include "models/run.h"
#include "sim/spec.h"

typedef struct {
    const RefRow *ref;
    gboolean modeled;           /* FALSE: no model for this kernel (yet) */
    double simulated_gflops;
    double error_pct;           /* (simulated - published) / published */
    gboolean sampled;
    double ceiling_gflops;      /* run_ceiling () of the run */
    RunUnit ceiling_unit;       /* the unit that sets it */
} ValidateRow;

typedef struct {
    GArray *rows;               /* ValidateRow, kernels in order */
    double cublas_gflops;       /* the published reference line, or 0 */
    double mape_pct;
    double max_error_pct;       /* signed, the largest in magnitude */
    int pairs;                  /* kernel pairs > 10 % apart when published */
    int pairs_agree;            /* ... in the same order when simulated */
    GString *disagreements;     /* "7 < 8" ... */
} ValidateResult;

/* Called before each kernel runs (for progress); kernels run on
 * several threads, the calls are serialized. */
typedef void (*ValidateProgress) (void *ctx, const char *gpu, int kernel,
                                  int done, int total);

/* 'spec' beside the figures published for the GPU 'published' (a6000
 * or a100: ref.h), its kernels launched as that run launched them:
 * 'spec' is that GPU's preset, or a what-if made from it (preset_root).
 * Fills 'out' (clear it with validate_result_clear), or on failure
 * leaves it empty. */
gboolean validate_gpu (const GpuSpec *spec, const char *published,
                       ValidateProgress progress, void *ctx,
                       ValidateResult *out, GError **error);
void validate_result_clear (ValidateResult *r);

/* The rest of 'r' from its rows, as validate_gpu ends: the MAPE and the
 * largest miss over the modelled rows, and the pairs (ValidateResult).
 * 'r' holds the rows and an empty 'disagreements', the rest zero.
 * Exposed for the tests. */
void validate_summarize (ValidateResult *r);

#endif
