/*
 * ref.h -- published reference numbers for validation (ref.c).
 */
#ifndef SMSIM_MODELS_REF_H
#define SMSIM_MODELS_REF_H

#include <glib.h>

typedef struct {
    const char *gpu;        /* preset id */
    int kernel;             /* SGEMM kernel; 0 = cuBLAS */
    int size;               /* M = N = K */
    double gflops;
    const char *source;
} RefRow;

const RefRow *ref_rows (guint *n);

#endif
