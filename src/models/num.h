/*
 * num.h -- numbers read from user text (preset values, sweep values):
 * the whole text must be the number, in any locale; and sizes written
 * for users.
 */
#ifndef SMSIM_MODELS_NUM_H
#define SMSIM_MODELS_NUM_H

#include <glib.h>

/* A base-10 integer filling all of 'text'; FALSE (and '*out' untouched)
 * for anything else, or one out of gint64's range. */
gboolean num_parse_int (const char *text, gint64 *out);

/* Decimal digits alone (no sign, space, point or exponent) filling all
 * of 'text', within guint64; FALSE (and '*out' untouched) otherwise. */
gboolean num_parse_uint (const char *text, guint64 *out);

/* A finite number in decimal filling all of 'text': an optional sign,
 * digits with at most one point among them, then an optional exponent
 * (e or E, an optional sign, digits): "1555", "0.5", "1.5e3".  FALSE
 * (and '*out' untouched) for anything else g_ascii_strtod would also
 * take, hex ("0x1p10"), "inf" and "nan" among them, and for a value
 * past a double's range. */
gboolean num_parse_double (const char *text, double *out);

/* Whether 'text' is an optionally signed run of decimal digits, of any
 * length: what tells a value too big for num_parse_int from one that
 * is no integer at all. */
gboolean num_is_integer (const char *text);

/* 'bytes' in the largest binary unit it makes at least one of: "640 B",
 * "12.0 MiB", "1.0 GiB".  Not g_format_size: it puts a no-break space
 * (U+00A0) before the unit, and translates the unit's name, in a
 * message that is plain ASCII otherwise. */
char *num_bytes_text (double bytes);

#endif
