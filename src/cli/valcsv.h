/*
 * valcsv.h -- read the table `smsim validate --format csv` writes, for
 * `smsim plot sgemm-validation --from FILE` (so `make results` draws the
 * figure from the validation it already ran).
 *
 * Columns are found by name: gpu, kernel ("sgemm-N"), simulated_gflops
 * (empty for a kernel not modelled), reference_gflops, error_pct; others
 * (size, source) are ignored.  A bad row is an error naming the file,
 * the line, the column and the value; so are a column named twice, a
 * GPU's kernel given twice, a reference_gflops that is not smsim's
 * published figure (ref.h) and an error_pct that is not 100 x
 * (simulated - reference) / reference, each to the rounding of the
 * columns as written.
 */
#ifndef SMSIM_CLI_VALCSV_H
#define SMSIM_CLI_VALCSV_H

#include <glib.h>

/* An array of FigValidRow (models/fig.h). */
GArray *valcsv_read (const char *path, GError **error);

#endif
