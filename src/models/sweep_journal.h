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
 * header) is refused, never mixed in; so is one with a complete line
 * that is not a row of the sweep (no point number first, not the
 * header's number of fields, a point already read, or what the sweep's
 * check refuses: a point not its own, values not the point's, results
 * not of their columns' types), since only an edit or a corruption,
 * not a kill, leaves one.  Errors name the file and line.
 * Rows hold no line breaks.
 *
 * Ownership: the SweepJournal owns its open file; rows read back are
 * owned by the table they are put in.
 */
#ifndef SMSIM_MODELS_SWEEP_JOURNAL_H
#define SMSIM_MODELS_SWEEP_JOURNAL_H

#include <glib.h>

typedef struct SweepJournal SweepJournal;

/* Whether 'row', which has the header's number of fields and starts
 * with 'point', is the sweep's row of that point; if not, '*why' says
 * what is wrong (owned by the caller). */
typedef gboolean (*SweepJournalCheck) (void *ctx, guint64 point,
                                       const char *row, char **why);

/* The sweep a journal belongs to: its first line's fingerprint, its
 * header, and the check of each row ('check' may be NULL: any row of
 * the right shape). */
typedef struct {
    const char *fingerprint;
    const char *header;
    SweepJournalCheck check;
    void *ctx;
} SweepJournalSweep;

/* Parse a journal's 'text' ('name' in messages): every complete row
 * goes into 'rows' (sweep_journal_rows_new); '*valid' is the length of the
 * complete lines.  A text with no complete first line is an empty
 * journal. */
gboolean sweep_journal_parse (const char *name, const char *text, gsize len,
                              const SweepJournalSweep *sweep, GHashTable *rows,
                              gsize *valid, GError **error);

/* Create the journal at 'path' (it must not exist unless 'resume': the
 * error then says whether it holds a finished point); with 'resume',
 * read the rows of an existing one into 'rows' first.  If its header
 * cannot be written, a journal this call created is removed. */
SweepJournal *sweep_journal_open (const char *path,
                                  const SweepJournalSweep *sweep,
                                  gboolean resume, GHashTable *rows,
                                  GError **error);

/* Append one row and flush it to the operating system. */
gboolean sweep_journal_add (SweepJournal *journal, const char *row,
                            GError **error);
void sweep_journal_close (SweepJournal *journal);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SweepJournal, sweep_journal_close)

/* Close the journal of a sweep that failed.  One this open created
 * that holds no whole row is removed: it has nothing to resume, and
 * left behind it would refuse the next run.  One with rows is kept, for
 * --resume. */
void sweep_journal_abandon (SweepJournal *journal);

/* A table for 'rows' above: point number -> row text. */
GHashTable *sweep_journal_rows_new (void);
const char *sweep_journal_lookup (GHashTable *rows, guint64 point);

#endif
