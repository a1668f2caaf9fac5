/*
 * num.h -- numbers read from user text (preset values, sweep values):
 * the whole text must be the number, in any locale.
 */
#ifndef SMSIM_MODELS_NUM_H
#define SMSIM_MODELS_NUM_H

#include <glib.h>

/* A base-10 integer filling all of 'text'; FALSE (and '*out' untouched)
 * for anything else, or one out of gint64's range. */
gboolean num_parse_int (const char *text, gint64 *out);

#endif
