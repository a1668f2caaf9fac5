/*
 * sweep_grid.h -- the points of a sweep and their order.
 *
 * A sweep's points are the rows of a points file (optional) times the
 * cartesian product of the --vary lists.  Point i is numbered 0.. in a
 * fixed order: the file's rows outermost, then the --vary keys in the
 * order given, the last one changing fastest (like nested loops).  The
 * columns are the file's keys (its header order) then the --vary keys.
 * Nothing is expanded: a point's values are computed from its number.
 *
 * Shards: shard I of N (1-based) holds the points with i mod N = I - 1,
 * so cheap and dear points (which the grid groups) spread evenly.
 *
 * Ownership: the grid owns its keys and values; sweep_grid_values
 * lends pointers into it.
 */
#ifndef SMSIM_MODELS_SWEEP_GRID_H
#define SMSIM_MODELS_SWEEP_GRID_H

#include <glib.h>

#include "models/sweep_key.h"

/* More points than this is surely a typo (and would not fit in memory). */
#define SWEEP_MAX_POINTS G_GUINT64_CONSTANT (4294967295)

typedef struct SweepGrid SweepGrid;

SweepGrid *sweep_grid_new (void);
void sweep_grid_free (SweepGrid *grid);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SweepGrid, sweep_grid_free)

/* "KEY=V1,V2,..." (values trimmed, none empty); a key given twice, an
 * unknown key or an empty list is an error naming it. */
gboolean sweep_grid_add_vary (SweepGrid *grid, const char *spec,
                              GError **error);
/* Its form alone: FALSE with an error, or TRUE and the key and the
 * values of 'spec' in '*name' and '*values' (the caller's to free),
 * where they are not NULL. */
gboolean sweep_grid_parse_vary (const char *spec, char **name,
                                char ***values, GError **error);

/* A points file's text, named 'name' in messages: a header of keys,
 * then one point per line (blank lines skipped).  At most one file. */
gboolean sweep_grid_add_points (SweepGrid *grid, const char *name,
                                const char *text, GError **error);

guint sweep_grid_n_keys (const SweepGrid *grid);
/* The key of 'column'; the keys lie in one array, in column order. */
const SweepKey *sweep_grid_key (const SweepGrid *grid, guint column);
/* Column of the key called 'name', or -1. */
int sweep_grid_find (const SweepGrid *grid, const char *name);

/* Points in all (0 for an empty points file); FALSE with an error when
 * there are more than SWEEP_MAX_POINTS. */
gboolean sweep_grid_count (const SweepGrid *grid, guint64 *n, GError **error);

/* Point 'index' (< the count): one value per column into 'values'. */
void sweep_grid_values (const SweepGrid *grid, guint64 index,
                        const char **values);

/* The points file's line that point 'index' (< the count) takes its
 * values of the file's columns from; 0 without a points file. */
int sweep_grid_point_line (const SweepGrid *grid, guint64 index);

/* Every value of every column, with where it was given ("--vary KEY" or
 * "FILE:LINE"), for the checks done before any point runs.  Stops at
 * the first FALSE 'check' returns. */
typedef gboolean (*SweepGridCheck) (void *ctx, const SweepKey *key,
                                    const char *value, const char *where,
                                    GError **error);
gboolean sweep_grid_check (const SweepGrid *grid, SweepGridCheck check,
                           void *ctx, GError **error);

/* A value of a column, and where it was given. */
typedef struct {
    const SweepKey *key;
    const char *value;
    const char *where;          /* "--vary KEY" or "FILE:LINE" */
    int line;                   /* FILE's line; 0 for --vary */
} SweepGridValue;

/* Each value of column 'a' with each value of column 'b' that some
 * point holds with it, for a check of one key against another (a
 * kernel parameter against the kernel): in a row of the points file
 * that holds both, the row's 'b' alone; else every value 'b' takes
 * (each once, where it is first given), as the grid combines them
 * all.  Stops at the first FALSE 'check' returns. */
typedef gboolean (*SweepGridPairCheck) (void *ctx, const SweepGridValue *a,
                                        const SweepGridValue *b,
                                        GError **error);
gboolean sweep_grid_check_pairs (const SweepGrid *grid, guint a, guint b,
                                 SweepGridPairCheck check, void *ctx,
                                 GError **error);

/* A shard file carries its sweep's grid after its first line, so that
 * sweep_merge can check each row's values against the point its number
 * names (sweep_merge.h has the file's layout).  One line per part, in
 * column order, without its line break:
 *
 *   # points file: R rows of KEY1,KEY2,...; values DIGEST
 *   # vary KEY=V1,V2,...
 *
 * the first for a points file (R rows, its keys; DIGEST below), then
 * one per --vary key, its values as the grid took them.  The file's
 * rows are not carried (there may be millions): DIGEST stands for the
 * values of its columns in the rows of this shard, a SHA-256 in hex of
 * one line per row, "V1,V2,...\n", each value as a row writes it
 * (sweep_grid_digest_row). */
char *sweep_grid_points_line (guint64 rows, const char *const *keys,
                              guint n_keys, const char *digest);
char *sweep_grid_vary_line (const char *key, const char *const *values);
void sweep_grid_digest_row (GChecksum *sum, const char *const *values,
                            guint n);

/* This grid's lines, each with its line break, the digest over its
 * points first, first + step, ... (a shard's). */
void sweep_grid_describe (const SweepGrid *grid, guint64 first, guint64 step,
                          GString *out);

/* "I/N", 1 <= I <= N. */
gboolean sweep_grid_parse_shard (const char *text, guint *index, guint *count,
                                 GError **error);

#endif
