/*
 * gnuplot.h -- draw a figure: run gnuplot on plots/NAME.gp with the
 * figure's variables, its CSV and the output file.
 *
 * The scripts live in the first directory of SMSIM_PLOTS_DIR, the source
 * tree's plots/ and $(pkgdatadir)/plots that holds plots/style.gp.  The
 * output's extension picks the terminal (.png: pngcairo, .pdf: pdfcairo,
 * .svg: svg).  gnuplot draws into a temporary file beside the output
 * (the file its symlinks lead to), renamed over it on success: the
 * figure is written whole or not at all.  A device or FIFO is written
 * into instead.
 * Whatever gnuplot prints on its standard error is handed back, so that
 * a warning is never lost.
 */
#ifndef SMSIM_CLI_GNUPLOT_H
#define SMSIM_CLI_GNUPLOT_H

#include <glib.h>

#define SMSIM_GNUPLOT_ERROR (gnuplot_error_quark ())
GQuark gnuplot_error_quark (void);

typedef enum {
    GNUPLOT_ERROR_MISSING,      /* no gnuplot on PATH */
    GNUPLOT_ERROR_FORMAT,       /* an output extension it cannot draw */
    GNUPLOT_ERROR_SCRIPT,       /* no script for the figure */
    GNUPLOT_ERROR_FAILED        /* gnuplot exited with an error */
} GnuplotError;

/* TRUE when 'path' ends in an extension gnuplot_render can draw. */
gboolean gnuplot_format_ok (const char *path);

/* Draw figure 'name' from 'csv_path' and 'vars' (gnuplot assignments)
 * into 'out_path'.  'warnings' (may be NULL) receives gnuplot's standard
 * error, empty when it printed nothing. */
gboolean gnuplot_render (const char *name, const char *vars,
                         const char *csv_path, const char *out_path,
                         char **warnings, GError **error);

#endif
