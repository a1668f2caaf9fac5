/*
 * valcsv.h -- read the table `smsim validate --format csv` writes, for
 * `smsim plot sgemm-validation --from FILE` (so `make results` draws the
 * figure from the validation it already ran).
 *
 * Columns are found by name: gpu, kernel ("sgemm-N"), simulated_gflops
 * (empty for a kernel not modelled), reference_gflops, error_pct; others
 * (size, source) are ignored.  A bad row is an error naming the file,
 * the line, the column and the value; so are a GPU's kernel given
 * twice and an error_pct that is not 100 x (simulated - reference) /
 * reference to the rounding of the three columns as written.
 */
#ifndef SMSIM_CLI_VALCSV_H
#define SMSIM_CLI_VALCSV_H

#include <glib.h>

/* An array of FigValidRow (models/fig.h). */
GArray *valcsv_read (const char *path, GError **error);

#endif
