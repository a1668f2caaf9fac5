/*
 * csv.h -- the CSV dialect smsim reads and writes (RFC 4180, one record
 * per line): fields separated by commas, a field holding a comma, quote
 * or line break is quoted with "" for a quote.  Readers strip the
 * whitespace at both ends of every field, quoted or not, so hand-written
 * files may align.
 *
 * Ownership: csv_split returns an owned array of owned strings.
 */
#ifndef SMSIM_MODELS_CSV_H
#define SMSIM_MODELS_CSV_H

#include <glib.h>

/* The fields of one line (no line break in it). */
GPtrArray *csv_split (const char *line);

/* Whether 'line' ends inside a quoted field (an odd number of quotes:
 * "" counts twice, in or out of one).  csv_split takes the rest of the
 * line into that field; written out as read, the line would swallow the
 * lines after it, so readers refuse it. */
gboolean csv_unclosed_quote (const char *line);

/* Append 'field' to 'out', quoted when it must be. */
void csv_append_field (GString *out, const char *field);

/* The line (from 1) of the first NUL byte in the 'len' bytes of 'text',
 * 0 if there is none: read as C strings, its line would end there and
 * the rest be taken for missing fields. */
guint csv_nul_line (const char *text, gsize len);

#endif
