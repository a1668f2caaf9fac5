/*
 * sweep_journal.h -- the rows of a sweep as they finish, so that an
 * interrupted sweep loses none of them.
 *
 * The journal is a text file beside the output (FILE.journal):
 *
 *   # smsim sweep journal <fingerprint>      which sweep it belongs to
 *   point,<keys>,<results>                  the sweep's CSV header
 *   17,<values>,<results>                   one row per finished point,
 *   3,<values>,<results>                    in the order they finished
 *
 * Each row is written whole and flushed as soon as its point finishes.
 * A process killed while writing leaves at most one partial last line:
 * resuming drops it (and cuts it from the file) and keeps every
 * complete row.  A journal of another sweep (another fingerprint or
 * header) is refused, never mixed in.  Rows hold no line breaks.
 *
 * Ownership: the SweepJournal owns its open file; rows read back are
 * owned by the table they are put in.
 */
#ifndef SMSIM_MODELS_SWEEP_JOURNAL_H
#define SMSIM_MODELS_SWEEP_JOURNAL_H

#include <glib.h>

typedef struct SweepJournal SweepJournal;

/* Parse a journal's 'text' ('name' in messages): every complete row
 * goes into 'rows' (sweep_journal_rows_new); '*valid' is the length of the
 * complete lines.  A text with no complete first line is an empty
 * journal. */
gboolean sweep_journal_parse (const char *name, const char *text, gsize len,
                              const char *fingerprint, const char *header,
                              GHashTable *rows, gsize *valid, GError **error);

/* Create the journal at 'path' (it must not exist unless 'resume'); with
 * 'resume', read the rows of an existing one into 'rows' first. */
SweepJournal *sweep_journal_open (const char *path, const char *fingerprint,
                                  const char *header, gboolean resume,
                                  GHashTable *rows, GError **error);

/* Append one row and flush it to the operating system. */
gboolean sweep_journal_add (SweepJournal *journal, const char *row,
                            GError **error);
void sweep_journal_close (SweepJournal *journal);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SweepJournal, sweep_journal_close)

/* A table for 'rows' above: point number -> row text. */
GHashTable *sweep_journal_rows_new (void);
const char *sweep_journal_lookup (GHashTable *rows, guint64 point);

#endif
