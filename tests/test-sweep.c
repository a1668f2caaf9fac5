/*
 * test-sweep.c -- what-if sweeps: keys, point order, shards, the
 * journal, merging, and rows whose expected values are worked out by
 * hand from the allocation rules (occ.h) in the comments beside them.
 */
#include "config.h"

#include <criterion/criterion.h>
#ifdef __linux__
#include <sched.h>
#endif
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "models/cores.h"
#include "models/csv.h"
#include "models/preset.h"
#include "models/sweep.h"
#include "models/sweep_grid.h"
#include "models/sweep_journal.h"
#include "models/sweep_merge.h"
#include "models/sweep_run.h"
#include "testutil.h"

/* ------------------------------------------------------------------ */
/* Keys                                                                */

Test (sweep_key, kinds)
{
    static const struct {
        const char *name;
        SweepKeyKind kind;
    } rows[] = {
        { "sm.registers", SWEEP_KEY_PRESET }, { "param.BM", SWEEP_KEY_PARAM },
        { "kernel", SWEEP_KEY_KERNEL },       { "size", SWEEP_KEY_SIZE },
        { "regs", SWEEP_KEY_REGS },           { "smem", SWEEP_KEY_SMEM },
        { "threads", SWEEP_KEY_THREADS },     { "dyn_smem", SWEEP_KEY_DYN_SMEM },
        { "carveout", SWEEP_KEY_CARVEOUT },
    };
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        SweepKey key;
        cr_assert (sweep_key_parse (rows[i].name, &key, NULL), "%s",
                   rows[i].name);
        cr_expect_eq (key.kind, rows[i].kind, "%s", rows[i].name);
        cr_expect_str_eq (key.name, rows[i].name);
        sweep_key_clear (&key);
    }
    SweepKey key;
    cr_assert (sweep_key_parse ("param.TILE_WIDTH", &key, NULL));
    cr_expect_str_eq (key.param, "TILE_WIDTH");
    sweep_key_clear (&key);
}

/* preset.base and preset.name are a file's own (pkey_file_only): a
 * sweep of preset.name ran every point into --set's refusal, exit 0. */
Test (sweep_key, unknown_keys_are_named)
{
    static const char *const bad[] = { "sm.registerz", "foo", "sm.", ".x",
                                       "param.", "preset.base",
                                       "preset.name" };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++) {
        g_autoptr (GError) error = NULL;
        SweepKey key;
        cr_expect_not (sweep_key_parse (bad[i], &key, &error), "%s", bad[i]);
        cr_assert_not_null (error);
        cr_expect (strstr (error->message, bad[i]) != NULL, "%s",
                   error->message);
    }
}

Test (sweep_key, values_no_gpu_can_take)
{
    static const struct {
        const char *key, *value;
        gboolean ok;
    } rows[] = {
        { "size", "1", TRUE },       { "size", "0", FALSE },
        { "size", "-4", FALSE },     { "size", "1e3", FALSE },
        { "threads", "0", FALSE },   { "regs", "0", TRUE },
        { "regs", "-1", FALSE },     { "smem", "x", FALSE },
        { "carveout", "-1", TRUE },  { "carveout", "100", TRUE },
        { "carveout", "101", FALSE }, { "kernel", "sgemm-5", TRUE },
        { "kernel", "sgemm-99", FALSE }, { "param.BM", "64", TRUE },
        { "param.BM", "6 4", FALSE }, { "size", "", FALSE },
        /* One line of text: no byte below a space, nor DEL (0x7f); a
         * space and '~' (0x7e) are text. */
        { "sm.registers", "1\x1f", FALSE },
        { "sm.registers", "1\x7f", FALSE },
        { "sm.registers", "1 ~", TRUE },
    };
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        SweepKey key;
        g_autofree char *why = NULL;
        cr_assert (sweep_key_parse (rows[i].key, &key, NULL));
        cr_expect_eq (sweep_key_check_value (&key, rows[i].value, &why),
                      rows[i].ok, "%s = '%s'", rows[i].key, rows[i].value);
        cr_expect ((why != NULL) == !rows[i].ok);
        sweep_key_clear (&key);
    }
}

/* ------------------------------------------------------------------ */
/* Points and their order                                              */

static char *
point_text (const SweepGrid *g, guint64 i)
{
    guint n = sweep_grid_n_keys (g);
    g_autofree const char **v = g_new0 (const char *, n + 1);
    sweep_grid_values (g, i, v);
    return g_strjoinv (" ", (char **) v);
}

/* Nested loops, the last --vary innermost. */
Test (sweep_grid, cartesian_order)
{
    g_autoptr (SweepGrid) g = sweep_grid_new ();
    static const char *const want[] = { "32 a", "32 b", "32 c",
                                        "64 a", "64 b", "64 c" };
    guint64 n;
    cr_assert (sweep_grid_add_vary (g, "regs=32,64", NULL));
    cr_assert (sweep_grid_add_vary (g, "kernel = a, b ,c", NULL));
    cr_assert (sweep_grid_count (g, &n, NULL));
    cr_assert_eq (n, 6);
    for (guint64 i = 0; i < n; i++) {
        g_autofree char *t = point_text (g, i);
        cr_expect_str_eq (t, want[i]);
    }
}

/* File rows outermost, file columns first, then the grid. */
Test (sweep_grid, file_times_grid)
{
    g_autoptr (SweepGrid) g = sweep_grid_new ();
    guint64 n;
    cr_assert (sweep_grid_add_vary (g, "size=1,2", NULL));
    cr_assert (sweep_grid_add_points (g, "p.csv",
                                      "threads,regs\r\n128,37\r\n\r\n"
                                      "\"320\",37\r\n", NULL));
    cr_assert (sweep_grid_count (g, &n, NULL));
    cr_assert_eq (n, 4);
    cr_expect_str_eq (sweep_grid_key (g, 0)->name, "threads");
    cr_expect_str_eq (sweep_grid_key (g, 2)->name, "size");
    g_autofree char *p1 = point_text (g, 1);
    g_autofree char *p2 = point_text (g, 2);
    cr_expect_str_eq (p1, "128 37 2");
    cr_expect_str_eq (p2, "320 37 1");
    /* A point's line is its file row's: points 0 and 1 the first row,
     * line 2; 2 and 3 the second, line 4 (after the blank line 3). */
    static const int line[] = { 2, 2, 4, 4 };
    for (guint64 i = 0; i < n; i++)
        cr_expect_eq (sweep_grid_point_line (g, i), line[i], "point %"
                      G_GUINT64_FORMAT, i);
}

Test (sweep_grid, bad_points_files_name_the_line)
{
    static const struct {
        const char *text, *message;
    } rows[] = {
        { "threads,regs\n128,37\n64\n", "p.csv:3: 1 fields where the header has 2" },
        { "threads,regs\n128,37,5\n", "p.csv:2: 3 fields where the header has 2" },
        { "threads,bogus\n1,2\n", "p.csv:1: unknown key 'bogus'" },
        { "threads,threads\n1,2\n", "p.csv:1: key 'threads' is given twice" },
        { "\n\n", "p.csv: empty" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        g_autoptr (SweepGrid) g = sweep_grid_new ();
        g_autoptr (GError) error = NULL;
        cr_expect_not (sweep_grid_add_points (g, "p.csv", rows[i].text, &error));
        cr_assert_not_null (error);
        cr_expect (g_str_has_prefix (error->message, rows[i].message), "%s",
                   error->message);
    }
}

Test (sweep_grid, shard_syntax)
{
    guint i, n;
    cr_expect (sweep_grid_parse_shard ("2/4", &i, &n, NULL));
    cr_expect (i == 2 && n == 4);
    static const char *const bad[] = { "0/4", "5/4", "2", "a/b", "1/0", "/3",
                                       "1/-2" };
    for (guint k = 0; k < G_N_ELEMENTS (bad); k++)
        cr_expect_not (sweep_grid_parse_shard (bad[k], &i, &n, NULL), "%s",
                       bad[k]);
}

/* "KEY=1,2,...,N": a --vary list of 'n' values. */
static char *
vary_of (const char *key, guint n)
{
    GString *s = g_string_new (key);
    g_string_append (s, "=1");
    for (guint i = 2; i <= n; i++)
        g_string_append_printf (s, ",%u", i);
    return g_string_free (s, FALSE);
}

/* A grid may have SWEEP_MAX_POINTS points, 2^32 - 1 = 65,537 x 65,535,
 * and no more: 65,537 x 65,536 = 2^32 + 65,536 is refused. */
Test (sweep_grid, counts_up_to_the_most_points)
{
    static const struct {
        guint regs;
        gboolean ok;
    } cases[] = { { 65535, TRUE }, { 65536, FALSE } };
    g_autofree char *sizes = vary_of ("size", 65537);
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        g_autoptr (SweepGrid) g = sweep_grid_new ();
        g_autoptr (GError) error = NULL;
        g_autofree char *regs = vary_of ("regs", cases[i].regs);
        guint64 n = 0;
        cr_assert (sweep_grid_add_vary (g, sizes, NULL));
        cr_assert (sweep_grid_add_vary (g, regs, NULL));
        cr_expect_eq (sweep_grid_count (g, &n, &error), cases[i].ok,
                      "65537 x %u", cases[i].regs);
        if (cases[i].ok)
            cr_expect_eq (n, G_GUINT64_CONSTANT (4294967295));
        else
            cr_expect_str_eq (error ? error->message : "",
                              "more than 4294967295 points");
    }
}

/* Records each pair as "A@WHERE/B@WHERE;", stopping at value 'stop'. */
static gboolean
note_pair (void *ctx, const SweepGridValue *a, const SweepGridValue *b,
           GError **error)
{
    GString *seen = ctx;
    (void) error;
    g_string_append_printf (seen, "%s@%s/%s@%s;", a->value, a->where, b->value,
                            b->where);
    return strcmp (a->value, "stop") != 0;
}

static char *
pairs_of (const char *points, const char *const *vary, const char *a,
          const char *b)
{
    g_autoptr (SweepGrid) g = sweep_grid_new ();
    g_autoptr (GString) seen = g_string_new (NULL);
    if (points != NULL)
        cr_assert (sweep_grid_add_points (g, "p.csv", points, NULL));
    for (guint i = 0; vary[i] != NULL; i++)
        cr_assert (sweep_grid_add_vary (g, vary[i], NULL));
    int ia = sweep_grid_find (g, a), ib = sweep_grid_find (g, b);
    cr_assert (ia >= 0 && ib >= 0);
    sweep_grid_check_pairs (g, (guint) ia, (guint) ib, note_pair, seen, NULL);
    return g_strdup (seen->str);
}

/* A value meets the values of another column that some point holds
 * with it: on a file row, that row's alone; else all of them, each
 * once, named where first given (the grid takes every combination). */
Test (sweep_grid, pairs_are_those_points_hold)
{
    static const char *const none[] = { NULL };
    static const char *const block[] = { "param.BLOCK=1,2", NULL };
    static const char *const kernels[] = { "kernel=k1,k2,k1", NULL };
    static const char *const both[] = { "kernel=k1,k2", "param.N=5", NULL };
    const char *file = "kernel,param.N\nk1,16\n\nk2,8\nk1,24\n";
    const struct {
        const char *points;
        const char *const *vary;
        const char *a, *b, *want;
    } rows[] = {
        /* Both in the file: row by row (line 3 is blank). */
        { file, none, "param.N", "kernel",
          "16@p.csv:2/k1@p.csv:2;8@p.csv:4/k2@p.csv:4;24@p.csv:5/k1@p.csv:5;" },
        /* A --vary value meets each kernel of the file once. */
        { file, block, "param.BLOCK", "kernel",
          "1@--vary param.BLOCK/k1@p.csv:2;1@--vary param.BLOCK/k2@p.csv:4;"
          "2@--vary param.BLOCK/k1@p.csv:2;2@--vary param.BLOCK/k2@p.csv:4;" },
        /* A file value meets each --vary kernel once. */
        { "size,param.N\n4,16\n4,8\n", kernels, "param.N", "kernel",
          "16@p.csv:2/k1@--vary kernel;16@p.csv:2/k2@--vary kernel;"
          "8@p.csv:3/k1@--vary kernel;8@p.csv:3/k2@--vary kernel;" },
        { NULL, both, "param.N", "kernel",
          "5@--vary param.N/k1@--vary kernel;5@--vary param.N/k2@--vary kernel;" },
        /* The first FALSE stops the walk. */
        { "kernel,param.N\nk1,stop\nk2,8\n", none, "param.N", "kernel",
          "stop@p.csv:2/k1@p.csv:2;" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        g_autofree char *got = pairs_of (rows[i].points, rows[i].vary,
                                         rows[i].a, rows[i].b);
        cr_expect_str_eq (got, rows[i].want, "row %u", i);
    }
}

/* ------------------------------------------------------------------ */
/* Sweeps                                                              */

static Sweep *
occupancy_sweep (const char *gpu, const char *const *vary, guint shard,
                 guint shards, GError **error)
{
    SweepOptions o = { gpu, NULL, NULL, SWEEP_MODE_OCCUPANCY, vary, NULL,
                       shard, shards };
    return sweep_new (&o, error);
}

/* The field of 'row' under 'column' of the sweep's header. */
static char *
field (const Sweep *s, const char *row, const char *column)
{
    g_autoptr (GPtrArray) names = csv_split (sweep_header (s));
    g_autoptr (GPtrArray) values = csv_split (row);
    for (guint i = 0; i < names->len; i++)
        if (strcmp (names->pdata[i], column) == 0)
            return g_strdup (values->pdata[i]);
    cr_assert_fail ("no column %s", column);
    return NULL;
}

/* The seeds' blog example (cc 7.0, 37 registers): 37 x 32 = 1184 per
 * warp, rounded to 1280; each of the 4 sub-partitions' 16384 registers
 * holds 12 warps, 48 per SM.  128 threads = 4 warps: 12 blocks, 48 of
 * 64 warps = 75 %.  320 threads = 10 warps: 4 blocks, 40 warps =
 * 62.5 % (the blog's 63 %). */
Test (sweep, occupancy_rows_match_the_seed_example)
{
    static const char *const vary[] = { "threads=128,320", "regs=37", NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Sweep) s = occupancy_sweep ("v100", vary, 0, 0, &error);
    cr_assert_not_null (s, "%s", error ? error->message : "");
    cr_assert_eq (sweep_n_points (s), 2);
    cr_expect_str_eq (sweep_header (s),
                      "point,threads,regs,blocks_per_sm,warps_per_sm,"
                      "occupancy,limiter,textbook_occupancy,error");
    g_autoptr (GString) r0 = g_string_new (NULL);
    g_autoptr (GString) r1 = g_string_new (NULL);
    sweep_row (s, 0, r0);
    sweep_row (s, 1, r1);
    g_autofree char *o0 = field (s, r0->str, "occupancy");
    g_autofree char *o1 = field (s, r1->str, "occupancy");
    g_autofree char *b1 = field (s, r1->str, "blocks_per_sm");
    cr_expect_str_eq (o0, "75.00");
    cr_expect_str_eq (o1, "62.50");
    cr_expect_str_eq (b1, "4");
    cr_expect (g_str_has_prefix (r0->str, "0,128,37,12,48,75.00,registers,"));
    cr_expect (g_str_has_suffix (r0->str, ","), "no error: %s", r0->str);
}

/* Each point derives its GPU from the preset with its keys applied:
 * A100, 256 threads (8 warps), 64 registers: 2048 per warp.  65536
 * registers: 16384 per sub-partition hold 8 warps, 32 per SM, 4
 * blocks, 50 %.  131072: 16 warps per sub-partition, 64 per SM, 8
 * blocks, 100 % (a block's 16384 registers are within either per-block
 * limit).  A GPU whose limits contradict each other (max_regs_per_block
 * above registers) is an error in its row only. */
Test (sweep, preset_keys_make_a_fresh_gpu_per_point)
{
    static const char *const vary[] = {
        "sm.registers=65536,131072", "sm.max_regs_per_block=65536,131072",
        "threads=256", "regs=64", NULL
    };
    g_autoptr (GError) error = NULL;
    g_autoptr (Sweep) s = occupancy_sweep ("a100", vary, 0, 0, &error);
    cr_assert_not_null (s, "%s", error ? error->message : "");
    static const char *const occupancy[] = { "50.00", "", "100.00", "100.00" };
    for (guint64 i = 0; i < 4; i++) {
        g_autoptr (GString) row = g_string_new (NULL);
        sweep_row (s, i, row);
        g_autofree char *occ = field (s, row->str, "occupancy");
        g_autofree char *err = field (s, row->str, "error");
        cr_expect_str_eq (occ, occupancy[i], "point %d: %s", (int) i, row->str);
        cr_expect_eq (*err != '\0', i == 1, "point %d: %s", (int) i, row->str);
    }
}

/* 65536 registers do not split among 3 sub-partitions: the error names
 * the preset file without its directory, so rows are the same bytes on
 * every machine.  With 1, the A100's 32 FP32 lanes of a sub-partition
 * are not its 64 an SM: a rule of two keys, whose message names the
 * file twice, and twice without its directory (the second kept it). */
Test (sweep, errors_name_presets_without_their_directory)
{
    static const char *const vary[] = { "sm.sub_partitions=3,1",
                                        "threads=32", "regs=32", NULL };
    g_autoptr (Sweep) s = occupancy_sweep ("a100", vary, 0, 0, NULL);
    cr_assert_not_null (s);
    for (guint64 i = 0; i < 2; i++) {
        g_autoptr (GString) bad = g_string_new (NULL);
        sweep_row (s, i, bad);
        g_autofree char *err = field (s, bad->str, "error");
        cr_expect (g_str_has_prefix (err, "a100.ini:") &&
                       strchr (err, '/') == NULL,
                   "preset named without its directory: %s", err);
    }
}

Test (sweep, bad_input_is_refused_before_any_point_runs)
{
    static const struct {
        const char *vary[4];
        const char *message;
    } rows[] = {
        { { "threads=64", "regs=32", "sm.registers=abc" },
          "--vary sm.registers: sm.registers = 'abc'" },
        { { "threads=64", "regs=32", "sm.registers=512" },
          "--vary sm.registers: sm.registers = '512'" },
        { { "threads=64,0", "regs=32" }, "--vary threads: threads = '0'" },
        { { "threads=64" }, "needs the keys threads and regs" },
        { { "kernel=vecadd", "size=64", "param.BM=64" },
          "kernel vecadd has no parameter BM (kernels that take it: "
          "sgemm-4, " },
        /* Only the warptiling kernels have a warp tile (kern_sgemm.c). */
        { { "kernel=sgemm-5", "size=64", "param.WM=32" },
          "kernel sgemm-5 has no parameter WM (kernels that take it: "
          "sgemm-10, sgemm-11;" },
        { { "kernel=sgemm-5", "size=64", "param.BM=1024" },
          "param.BM = '1024': must be 8..256 for sgemm-5" },
        { { "kernel=sgemm-5" }, "kernel and size go together" },
        { { "threads=64", "regs=32", "regs=16" }, "'regs' is given twice" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        g_autoptr (GError) error = NULL;
        g_autoptr (Sweep) s = occupancy_sweep ("a100", rows[i].vary, 0, 0,
                                               &error);
        cr_expect_null (s, "row %u", i);
        cr_assert_not_null (error, "row %u", i);
        cr_expect (strstr (error->message, rows[i].message) != NULL,
                   "row %u: %s", i, error->message);
    }
}

/* An occupancy sweep of the points file 'text' (written as p.csv) on
 * the A6000; its errors name the file without its directory. */
static Sweep *
points_sweep (const char *text, const char *const *vary, GError **error)
{
    g_autofree char *path = tu_write_file ("p.csv", text);
    g_autofree char *dir = g_path_get_dirname (path);
    g_autofree char *prefix = g_strconcat (dir, G_DIR_SEPARATOR_S, NULL);
    SweepOptions o = { "a6000", NULL, NULL, SWEEP_MODE_OCCUPANCY, vary, path,
                       0, 0 };
    Sweep *s = sweep_new (&o, error);
    if (s == NULL && error != NULL && *error != NULL) {
        g_auto (GStrv) parts = g_strsplit ((*error)->message, prefix, -1);
        g_free ((*error)->message);
        (*error)->message = g_strjoinv ("", parts);
    }
    return s;
}

/* A kernel parameter is checked against the kernel of each point it is
 * in: a file row's against that row's kernel alone.  vecadd takes
 * BLOCK 1..1024, stream 32..1024, and only iloop takes N (`smsim
 * kernels`). */
Test (sweep, params_are_checked_against_their_points_kernels)
{
    static const char *const none[] = { NULL };
    static const char *const block16[] = { "param.BLOCK=16", NULL };
    static const char *const both[] = { "kernel=iloop,vecadd", NULL };
    const struct {
        const char *points;
        const char *const *vary;
        const char *message;    /* NULL: accepted */
    } rows[] = {
        /* Each row's BLOCK within its own kernel's range (16 is below
         * stream's, and was refused for the vecadd row). */
        { "kernel,size,param.BLOCK\nvecadd,1024,16\nstream,1024,256\n", none,
          NULL },
        /* iloop rows are fine; the vecadd row, line 5, is named. */
        { "kernel,size,param.N\niloop,4,16\niloop,4,24\niloop,4,32\n"
          "vecadd,128,8\n", none,
          "p.csv:5: param.N = '8': kernel vecadd has no parameter N "
          "(kernels that take it: iloop;" },
        { "kernel,size,param.BLOCK\nvecadd,1024,16\nstream,1024,16\n", none,
          "p.csv:3: param.BLOCK = '16': must be 32..1024 for stream" },
        /* A --vary value meets every row's kernel: the one that refuses
         * it is named with its line. */
        { "kernel,size\nvecadd,1024\nstream,1024\n", block16,
          "--vary param.BLOCK: param.BLOCK = '16': must be 32..1024 for "
          "stream (p.csv:3)" },
        /* A row's value meets every --vary kernel. */
        { "size,param.N\n4,16\n", both,
          "p.csv:2: param.N = '16': kernel vecadd (--vary kernel) has no "
          "parameter N" },
        /* No value may be empty, a parameter's no more than another's. */
        { "kernel,size,param.N\niloop,4,16\nvecadd,128,\n", none,
          "p.csv:3: param.N = '': empty value" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        g_autoptr (GError) error = NULL;
        g_autoptr (Sweep) s = points_sweep (rows[i].points, rows[i].vary,
                                            &error);
        if (rows[i].message == NULL) {
            cr_expect_not_null (s, "row %u: %s", i,
                                error ? error->message : "");
            continue;
        }
        cr_expect_null (s, "row %u", i);
        cr_assert_not_null (error, "row %u", i);
        cr_expect (g_str_has_prefix (error->message, rows[i].message),
                   "row %u: %s", i, error->message);
    }
}

/* Each row runs with its own parameter.  vecadd's 16-thread blocks
 * are one warp each (12 registers): the A6000's 16 blocks per SM hold
 * 16 of its 48 warps, 33.33 %.  stream's 256 threads are 8 warps (8
 * registers): 6 blocks fill the 48 warps, 100 %. */
Test (sweep, a_points_file_mixes_kernels_with_their_own_params)
{
    static const char *const none[] = { NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Sweep) s = points_sweep ("kernel,size,param.BLOCK\n"
                                        "vecadd,1024,16\nstream,1024,256\n",
                                        none, &error);
    cr_assert_not_null (s, "%s", error ? error->message : "");
    static const char *const occupancy[] = { "33.33", "100.00" };
    for (guint64 i = 0; i < 2; i++) {
        g_autoptr (GString) row = g_string_new (NULL);
        sweep_row (s, i, row);
        g_autofree char *occ = field (s, row->str, "occupancy");
        cr_expect_str_eq (occ, occupancy[i], "point %d: %s", (int) i,
                          row->str);
    }
}

/* Shard I of N holds the points i with i mod N = I - 1. */
Test (sweep, shards_are_disjoint_and_cover_the_sweep)
{
    static const char *const vary[] = { "threads=32,64,96,128,160,192,224",
                                        "regs=32", NULL };
    g_autofree int *seen = g_new0 (int, 7);
    for (guint i = 1; i <= 3; i++) {
        g_autoptr (Sweep) s = occupancy_sweep ("a100", vary, i, 3, NULL);
        cr_assert_not_null (s);
        cr_expect_eq (sweep_n_mine (s), i == 1 ? 3 : 2);
        for (guint64 k = 0; k < sweep_n_mine (s); k++) {
            guint64 p = sweep_point_at (s, k);
            cr_expect_eq (p % 3, i - 1);
            seen[p]++;
        }
    }
    for (int p = 0; p < 7; p++)
        cr_expect_eq (seen[p], 1, "point %d", p);
}

static char *
run_text (Sweep *s, guint jobs)
{
    SweepRunOptions o = { NULL, FALSE, jobs, NULL, NULL };
    g_autoptr (GString) out = g_string_new (NULL);
    cr_assert (sweep_run (s, &o, out, NULL));
    return g_string_free (g_steal_pointer (&out), FALSE);
}

Test (sweep, same_csv_whatever_the_threads_and_merged_shards)
{
    static const char *const vary[] = { "threads=32,96,256,1024",
                                        "regs=16,33,64,255", "smem=0,40000",
                                        NULL };
    g_autoptr (Sweep) whole = occupancy_sweep ("a6000", vary, 0, 0, NULL);
    cr_assert_not_null (whole);
    g_autofree char *one = run_text (whole, 1);
    g_autofree char *three = run_text (whole, 3);
    cr_expect_str_eq (one, three);
    char *texts[2];
    const char *names[] = { "b.csv", "a.csv" };
    for (guint i = 0; i < 2; i++) {
        g_autoptr (Sweep) s = occupancy_sweep ("a6000", vary, 2 - i, 2, NULL);
        texts[i] = run_text (s, 2);
    }
    g_autoptr (GString) merged = g_string_new (NULL);
    cr_assert (sweep_merge_texts (2, names, (const char *const *) texts,
                                  NULL, NULL, merged, NULL));
    cr_expect_str_eq (merged->str, one);
    g_free (texts[0]);
    g_free (texts[1]);
}

/* Threads of this process now, from Linux's /proc; -1 elsewhere. */
static int
threads_now (void)
{
    g_autofree char *status = NULL;
    if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
        return -1;
    const char *t = strstr (status, "\nThreads:");
    return t != NULL ? atoi (t + strlen ("\nThreads:")) : -1;
}

static void
count_threads (void *ctx, guint64 done, guint64 total)
{
    int *most = ctx;
    (void) done;
    (void) total;
    *most = MAX (*most, threads_now ());
}

/* The pool starts its threads up front: -j 64 for 2 points must start
 * 2, not 64 (-j 100000 for one point took 4 s and 350 MB). */
Test (sweep, no_more_threads_than_points)
{
    static const char *const vary[] = { "threads=32,64", "regs=32", NULL };
    g_autoptr (Sweep) s = occupancy_sweep ("a100", vary, 0, 0, NULL);
    int before = threads_now (), most = 0;
    if (before < 0)
        cr_skip_test ("no /proc/self/status to count threads in");
    SweepRunOptions o = { NULL, FALSE, 64, count_threads, &most };
    g_autoptr (GString) out = g_string_new (NULL);
    cr_assert (sweep_run (s, &o, out, NULL));
    cr_expect_leq (most, before + 2, "%d threads during a 2-point sweep, %d "
                   "before", most, before);
}

/* A decimal result is what g_ascii_formatd writes: [-]D[.D][e[+-]D],
 * digits on both sides of a point and after an 'e', or inf or nan; as
 * a run row's time_ms (its second result; the others 0, false or
 * empty, each of its column's kind). */
Test (sweep_point, decimals_are_as_formatd_writes_them)
{
    static const struct {
        const char *value;
        gboolean ok;
    } cases[] = {
        { "7", TRUE },       { "100.00", TRUE }, { "-1.5", TRUE },
        { "1e+05", TRUE },   { "2.5e-07", TRUE }, { "3e10", TRUE },
        { "-inf", TRUE },    { "nan", TRUE },    { "1.", FALSE },
        { ".5", FALSE },     { "1e", FALSE },    { "1e+", FALSE },
        { "1.5.2", FALSE },  { "--1", FALSE },   { "+1", FALSE },
        { "inf5", FALSE },
    };
    g_auto (GStrv) columns = g_strsplit (sweep_point_columns (SWEEP_MODE_RUN),
                                         ",", -1);
    guint n = g_strv_length (columns);
    cr_assert_str_eq (columns[1], "time_ms");
    g_autofree const char **results = g_new0 (const char *, n);
    for (guint c = 0; c < n; c++)
        results[c] = strcmp (columns[c], "sampled") == 0 ? "false"
                     : strcmp (columns[c], "limiter") == 0 ||
                               strcmp (columns[c], "error") == 0 ? ""
                     : "0";
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        results[1] = cases[i].value;
        g_autofree char *why = NULL;
        cr_expect_eq (sweep_point_check (SWEEP_MODE_RUN, results, n, &why),
                      cases[i].ok, "'%s': %s", cases[i].value,
                      why ? why : "taken");
    }
}

/* ------------------------------------------------------------------ */
/* The CSV dialect (csv.h: RFC 4180, one record a line)                */

static void
expect_fields (const char *line, const char *const *want, guint n)
{
    g_autoptr (GPtrArray) f = csv_split (line);
    cr_assert_eq (f->len, n, "%s: %u fields, expected %u", line, f->len, n);
    for (guint i = 0; i < n; i++)
        cr_expect_str_eq (f->pdata[i], want[i], "%s: field %u", line, i);
}

/* RFC 4180 2.5-2.7: a field may be quoted; in a quoted field a comma
 * is data and "" is one quote.  A quoted empty field ("") is empty: its
 * two quotes open and close it, they are not an escaped quote, which
 * only exists inside quotes. */
Test (csv, quotes_and_empty_quoted_fields)
{
    const char *const plain[] = { "a", "", "b" };
    const char *const comma[] = { "x,y", "z" };
    const char *const quote[] = { "say \"hi\"", "" };
    expect_fields ("a,\"\",b", plain, 3);
    expect_fields ("\"x,y\",z", comma, 2);
    expect_fields ("\"say \"\"hi\"\"\",", quote, 2);
}

/* RFC 4180 2.6: a field holding a comma, a quote or a line break (CR
 * or LF) is quoted, a quote in it doubled; any other is written as it
 * is. */
Test (csv, fields_that_need_quotes_get_them)
{
    static const struct {
        const char *field, *want;
    } cases[] = {
        { "a100", "a100" },
        { "", "" },
        { "1,2", "\"1,2\"" },
        { "say \"hi\"", "\"say \"\"hi\"\"\"" },
        { "two\nlines", "\"two\nlines\"" },
        { "cr\rhere", "\"cr\rhere\"" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        g_autoptr (GString) out = g_string_new (NULL);
        csv_append_field (out, cases[i].field);
        cr_expect_str_eq (out->str, cases[i].want, "field %u", i);
    }
}

/* ------------------------------------------------------------------ */
/* Journal                                                             */

#define J_HEAD "# smsim sweep journal abc\npoint,x,error\n"

/* A sweep of fingerprint abc whose rows are checked for shape only. */
static const SweepJournalSweep j_abc = { "abc", "point,x,error", NULL, NULL };

Test (sweep_journal, a_partial_last_line_is_dropped)
{
    const char text[] = J_HEAD "3,a,\n0,b,\n7,c";
    g_autoptr (GHashTable) rows = sweep_journal_rows_new ();
    gsize valid;
    cr_assert (sweep_journal_parse ("j", text, strlen (text), &j_abc, rows,
                                    &valid, NULL));
    cr_expect_eq (g_hash_table_size (rows), 2);
    cr_expect_str_eq (sweep_journal_lookup (rows, 3), "3,a,");
    cr_expect_str_eq (sweep_journal_lookup (rows, 0), "0,b,");
    cr_expect_null (sweep_journal_lookup (rows, 7));
    cr_expect_eq (valid, strlen (text) - strlen ("7,c"));
}

Test (sweep_journal, another_sweeps_journal_is_refused)
{
    static const struct {
        const char *text, *message;
    } rows[] = {
        { "# smsim sweep journal abd\npoint,x,error\n", "j:1: the journal of another sweep" },
        { "# smsim sweep journal abc\npoint,y,error\n", "j:2: the journal of another sweep" },
        { "hello\n", "j:1: not a sweep journal" },
        { J_HEAD "x,1,\n", "j:3: 'x,1,': not a row" },
        /* The point number is the whole first field: "1x" is none. */
        { J_HEAD "1x,a,\n", "j:3: '1x,a,': not a row" },
        /* Quoted whole up to 40 bytes, then cut with "...": "x," and
         * 38 a's are 40 bytes, shown whole; one more is cut to 40. */
        { J_HEAD "x,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
          "j:3: 'x,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa': not a row" },
        { J_HEAD "x,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n",
          "j:3: 'x,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...': not a row" },
        { J_HEAD "0,a,\n0,garbage\n", "j:4: '0,garbage': 2 fields where the "
                                      "header has 3" },
        /* Too many fields are as wrong as too few. */
        { J_HEAD "0,a,,x\n", "j:3: '0,a,,x': 4 fields where the header "
                              "has 3" },
        /* A point is run once, and journaled once: a second row of it
         * is an edit, even one that agrees with the first. */
        { J_HEAD "0,a,\n1,b,\n0,a,\n", "j:5: '0,a,': point 0 again (first at "
                                       "line 3)" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        g_autoptr (GHashTable) t = sweep_journal_rows_new ();
        g_autoptr (GError) error = NULL;
        gsize valid;
        cr_expect_not (sweep_journal_parse ("j", rows[i].text,
                                            strlen (rows[i].text), &j_abc, t,
                                            &valid, &error));
        cr_assert_not_null (error);
        cr_expect (g_str_has_prefix (error->message, rows[i].message), "%s",
                   error->message);
    }
}

/* A NUL byte in a whole line is named as such (read as a C string it
 * was "2 fields where the header has 3"); in a tail a crash left with
 * no line break, as a zero-filled block would be, it is dropped with
 * that tail. */
Test (sweep_journal, a_nul_byte_is_named_unless_in_the_cut_tail)
{
    const char bad[] = J_HEAD "0,a,\n1,b\0x,\n";
    const char tail[] = J_HEAD "0,a,\n\0\0\0\0";
    g_autoptr (GHashTable) rows = sweep_journal_rows_new ();
    g_autoptr (GError) error = NULL;
    gsize valid;
    cr_expect_not (sweep_journal_parse ("j", bad, sizeof bad - 1, &j_abc, rows,
                                        &valid, &error));
    cr_assert_not_null (error);
    cr_expect (g_str_has_prefix (error->message, "j:4: a NUL byte"), "%s",
               error->message);
    g_autoptr (GHashTable) kept = sweep_journal_rows_new ();
    cr_assert (sweep_journal_parse ("j", tail, sizeof tail - 1, &j_abc, kept,
                                    &valid, NULL));
    cr_expect_eq (g_hash_table_size (kept), 1);
    cr_expect_eq (valid, sizeof tail - 1 - 4);
}

/* A journal cut before its header is whole is no journal yet. */
Test (sweep_journal, a_cut_header_is_an_empty_journal)
{
    const char text[] = "# smsim sweep journal abc\npoint,x,er";
    g_autoptr (GHashTable) rows = sweep_journal_rows_new ();
    gsize valid = 99;
    cr_assert (sweep_journal_parse ("j", text, strlen (text), &j_abc, rows,
                                    &valid, NULL));
    cr_expect_eq (valid, 0);
    cr_expect_eq (g_hash_table_size (rows), 0);
}

/* Rows run before an interruption are not run again: the journal's
 * row (the point's values, deliberately other results) comes back
 * unchanged. */
Test (sweep_journal, resume_keeps_journaled_rows)
{
    static const char *const vary[] = { "threads=32,64,96", "regs=32", NULL };
    g_autoptr (Sweep) s = occupancy_sweep ("a100", vary, 0, 0, NULL);
    g_autofree char *head = g_strdup_printf ("# smsim sweep journal %s\n%s\n"
                                             "1,64,32,0,0,0.00,none,0.00,\n"
                                             "2,par",
                                             sweep_fingerprint (s),
                                             sweep_header (s));
    g_autofree char *path = tu_write_file ("out.csv.journal", head);
    SweepRunOptions o = { path, TRUE, 2, NULL, NULL };
    g_autoptr (GString) out = g_string_new (NULL);
    g_autoptr (GError) error = NULL;
    cr_assert (sweep_run (s, &o, out, &error), "%s",
               error ? error->message : "");
    cr_expect (strstr (out->str, "\n1,64,32,0,0,0.00,none,0.00,\n") != NULL,
               "%s", out->str);
    cr_expect (strstr (out->str, "\n2,96,32,") != NULL, "%s", out->str);
    g_autofree char *journal = NULL;
    cr_assert (g_file_get_contents (path, &journal, NULL, NULL));
    cr_expect (strstr (journal, "2,par") == NULL, "partial line kept");
    /* Not resuming: an existing journal is never overwritten. */
    SweepRunOptions fresh = { path, FALSE, 1, NULL, NULL };
    g_autoptr (GError) exists = NULL;
    cr_expect_not (sweep_run (s, &fresh, out, &exists));
    cr_expect (exists && strstr (exists->message, "--resume") != NULL);
}

/* A complete journal line that is not this sweep's row of its point
 * is an error naming the journal's line, never copied into the CSV:
 * only an edit or a corruption leaves one (a kill leaves at most a
 * partial last line).  Shard 2/2 of threads=32,64,96 x regs=32 holds
 * point 1 alone: threads 64. */
Test (sweep_journal, rows_not_the_sweeps_are_refused)
{
    static const char *const vary[] = { "threads=32,64,96", "regs=32", NULL };
    static const struct {
        const char *row, *message;
    } rows[] = {
        { "1,garbage", "'1,garbage': 2 fields where the header has 9" },
        { "1,999,999,1,1,1.00,none,1.00,",
          "not the row of point 1, which starts '1,64,32,'" },
        { "01,64,32,16,64,100.00,registers+warps,100.00,",
          "not the row of point 1, which starts '1,64,32,'" },
        { "0,32,32,32,64,100.00,registers+warps,100.00,",
          "point 0 is not shard 2/2's" },
        { "3,64,32,16,64,100.00,registers+warps,100.00,",
          "point 3 is not in the sweep (its points are 0..2)" },
        /* Results not of their column's type (sweep_point.h). */
        { "1,64,32,abc,64,100.00,registers+warps,100.00,",
          "column blocks_per_sm = 'abc': not a whole number" },
        { "1,64,32,16,-64,100.00,registers+warps,100.00,",
          "column warps_per_sm = '-64': not a whole number" },
        { "1,64,32,16,64,100.00,registers+warps,1e99x,",
          "column textbook_occupancy = '1e99x': not a decimal number" },
        { "1,64,32,16,64,0x64,registers+warps,100.00,",
          "column occupancy = '0x64': not a decimal number" },
        { "1,64,32,16,64,,registers+warps,100.00,",
          "column occupancy = '': not a decimal number" },
        /* Occupancy is a share of the warp slots: 0 to 100 (NaN is
         * neither). */
        { "1,64,32,16,64,180.00,registers+warps,100.00,",
          "column occupancy = '180.00': not a percentage (0 to 100)" },
        { "1,64,32,16,64,100.00,registers+warps,-1.00,",
          "column textbook_occupancy = '-1.00': not a percentage" },
        { "1,64,32,16,64,nan,registers+warps,100.00,",
          "column occupancy = 'nan': not a percentage" },
        /* Occupancy mode's limiter names resources, as occ_limiter_name
         * writes them (a corrupted one was copied into the CSV). */
        { "1,64,32,16,64,100.00,registers+wraps,100.00,",
          "column limiter = 'registers+wraps': not a limiter" },
        { "1,64,32,16,64,100.00,warps+registers,100.00,",
          "column limiter = 'warps+registers': not a limiter" },
        /* A point that could not run has an error and no results. */
        { "1,64,32,16,64,100.00,registers+warps,100.00,boom",
          "column blocks_per_sm = '16': a row with an error has no results" },
        /* smsim's messages are UTF-8 ("\xff" never is). */
        { "1,64,32,,,,,,boom \xff",
          "column error = 'boom \xff': not UTF-8 text" },
    };
    g_autoptr (Sweep) s = occupancy_sweep ("a100", vary, 2, 2, NULL);
    cr_assert_not_null (s);
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        g_autofree char *text = g_strdup_printf (
            "# smsim sweep journal %s\n%s\n%s\n", sweep_fingerprint (s),
            sweep_header (s), rows[i].row);
        g_autofree char *path = tu_write_file ("bad.csv.journal", text);
        SweepRunOptions o = { path, TRUE, 1, NULL, NULL };
        g_autoptr (GString) out = g_string_new (NULL);
        g_autoptr (GError) error = NULL;
        g_autofree char *where = g_strdup_printf ("%s:3: ", path);
        cr_expect_not (sweep_run (s, &o, out, &error), "row %u: %s", i,
                       out->str);
        cr_assert_not_null (error, "row %u", i);
        cr_expect (g_str_has_prefix (error->message, where) &&
                       strstr (error->message, rows[i].message) != NULL,
                   "row %u: %s", i, error->message);
    }
}

/* sweep_run of 's' on one thread with a journal at 'path' that can
 * grow to 'room' bytes (RLIMIT_FSIZE, with SIGXFSZ ignored so that the
 * write past it fails with EFBIG rather than killing the test). */
static gboolean
run_with_room (Sweep *s, const char *path, gboolean resume, rlim_t room,
               GError **error)
{
    SweepRunOptions o = { path, resume, 1, NULL, NULL };
    g_autoptr (GString) out = g_string_new (NULL);
    struct rlimit was, limit;
    cr_assert (getrlimit (RLIMIT_FSIZE, &was) == 0);
    limit = was;
    limit.rlim_cur = room;
    signal (SIGXFSZ, SIG_IGN);
    cr_assert (setrlimit (RLIMIT_FSIZE, &limit) == 0);
    gboolean ok = sweep_run (s, &o, out, error);
    cr_assert (setrlimit (RLIMIT_FSIZE, &was) == 0);
    return ok;
}

/* A journal's first two lines for 's' (its format: sweep_journal.c),
 * and its point 0's row in 'row0'. */
static char *
journal_head (Sweep *s, GString *row0)
{
    sweep_row (s, 0, row0);
    return g_strdup_printf ("# smsim sweep journal %s\n%s\n",
                            sweep_fingerprint (s), sweep_header (s));
}

/* A sweep that fails on its journal keeps it only if it holds a whole
 * row, to resume from; an empty one would just refuse the next run.
 * On one thread point 0 finishes first.  Room for nothing: no header,
 * no journal.  For the header and 5 bytes: row 0 is cut short, which
 * is no finished point, so no journal either.  For the header and row
 * 0: the journal holds both.  A journal with no row the run did not
 * make (--resume of a header alone, no room to add to it) is another
 * run's, left as it was. */
Test (sweep_journal, a_failed_sweep_keeps_the_journal_only_with_a_row)
{
    static const char *const vary[] = { "threads=32,64,96", "regs=32", NULL };
    g_autoptr (Sweep) s = occupancy_sweep ("a100", vary, 0, 0, NULL);
    cr_assert_not_null (s);
    g_autoptr (GString) row0 = g_string_new (NULL);
    g_autofree char *head = journal_head (s, row0);
    g_autofree char *with_row = g_strdup_printf ("%s%s\n", head, row0->str);
    const struct {
        const char *before;     /* the journal before the run, or NULL */
        rlim_t room;
        const char *after;      /* the journal after it, or NULL: none */
    } rows[] = {
        { NULL, 0, NULL },
        { NULL, strlen (head) + 5, NULL },
        { NULL, strlen (with_row), with_row },
        { head, strlen (head), head },
    };
    /* Made here so that the scratch directory's clean-up removes it. */
    g_autofree char *path = tu_write_file ("full.csv.journal", "");
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        g_autoptr (GError) error = NULL;
        g_autofree char *after = NULL;
        g_unlink (path);
        if (rows[i].before != NULL)
            cr_assert (g_file_set_contents (path, rows[i].before, -1, NULL));
        cr_expect_not (run_with_room (s, path, rows[i].before != NULL,
                                      rows[i].room, &error), "row %u", i);
        cr_assert_not_null (error, "row %u", i);
        cr_expect (strstr (error->message, g_strerror (EFBIG)) != NULL,
                   "row %u: %s", i, error->message);
        if (rows[i].after == NULL)
            cr_expect_not (g_file_test (path, G_FILE_TEST_EXISTS),
                           "row %u: journal left", i);
        else if (!g_file_get_contents (path, &after, NULL, NULL))
            cr_expect_fail ("row %u: journal removed", i);
        else
            cr_expect_str_eq (after, rows[i].after, "row %u", i);
    }
}

/* Not resuming, a journal is never overwritten, and the refusal says
 * whether it holds a finished point: a header alone is a sweep stopped
 * before its first (or one still running), not one to resume. */
Test (sweep_journal, the_refusal_says_whether_a_point_finished)
{
    static const char *const vary[] = { "threads=32,64", "regs=32", NULL };
    g_autoptr (Sweep) s = occupancy_sweep ("a100", vary, 0, 0, NULL);
    cr_assert_not_null (s);
    g_autoptr (GString) row0 = g_string_new (NULL);
    g_autofree char *head = journal_head (s, row0);
    g_autofree char *cut = g_strdup_printf ("%s%.5s", head, row0->str);
    g_autofree char *whole = g_strdup_printf ("%s%s\n", head, row0->str);
    const struct {
        const char *text, *message;
    } rows[] = {
        { "", "exists but holds no finished point" },
        { head, "exists but holds no finished point" },
        /* A row cut short is no finished point either. */
        { cut, "exists but holds no finished point" },
        { whole, "exists: an interrupted sweep; add --resume" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        g_autofree char *path = tu_write_file ("old.csv.journal", rows[i].text);
        SweepRunOptions o = { path, FALSE, 1, NULL, NULL };
        g_autoptr (GString) out = g_string_new (NULL);
        g_autoptr (GError) error = NULL;
        g_autofree char *text = NULL;
        cr_expect_not (sweep_run (s, &o, out, &error), "row %u", i);
        cr_assert_not_null (error, "row %u", i);
        cr_expect (strstr (error->message, rows[i].message) != NULL,
                   "row %u: %s", i, error->message);
        cr_assert (g_file_get_contents (path, &text, NULL, NULL));
        cr_expect_str_eq (text, rows[i].text, "row %u: journal changed", i);
    }
    /* What cannot be read (a directory) is taken to hold a point, so
     * that --resume, not a second try from scratch, names the error. */
    g_autofree char *dir = tu_write_file ("dir.csv.journal", "");
    SweepRunOptions o = { dir, FALSE, 1, NULL, NULL };
    g_autoptr (GString) out = g_string_new (NULL);
    g_autoptr (GError) error = NULL;
    cr_assert (g_unlink (dir) == 0 && g_mkdir (dir, 0700) == 0);
    cr_expect_not (sweep_run (s, &o, out, &error));
    cr_expect (error != NULL && strstr (error->message, "exists: an "
                                        "interrupted sweep; add --resume"),
               "%s", error ? error->message : "no error");
    g_rmdir (dir);
}

/* ------------------------------------------------------------------ */
/* Merge                                                               */

/* An occupancy sweep's header, and the row of point P, with k = K,
 * whose point could not run: an error and no results. */
#define HEAD "point,k,blocks_per_sm,warps_per_sm,occupancy,limiter," \
             "textbook_occupancy,error\n"
#define R(P, K) #P "," #K ",,,,,,x\n"
/* The rest of a shard line: a fingerprint as sweep_whole_fingerprint
 * gives (64 hex digits), and the line break. */
#define FP "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define SW ", sweep " FP "\n"
/* The grid the rows below hold: point i has k = the i-th letter. */
#define GRID "# vary k=a,b,c,d,e\n"

Test (sweep_merge, interleaves_shards_in_point_order)
{
    const char *names[] = { "2.csv", "1.csv" };
    const char *texts[] = {
        "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (3, d),
        "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
        R (0, a) R (2, c) R (4, e),
    };
    g_autoptr (GString) out = g_string_new (NULL);
    cr_assert (sweep_merge_texts (2, names, texts, NULL, NULL, out, NULL));
    cr_expect_str_eq (out->str,
                      HEAD R (0, a) R (1, b) R (2, c) R (3, d) R (4, e));
}

Test (sweep_merge, missing_repeated_or_foreign_shards_are_errors)
{
    static const struct {
        const char *a, *b, *message;
    } rows[] = {
        { "# smsim sweep shard 1/3 of 5 points" SW GRID HEAD R (0, a) R (3, d),
          "# smsim sweep shard 2/3 of 5 points" SW GRID HEAD R (1, b) R (4, e),
          "a.csv:1: a shard of a sweep in 3 shards, but 2 files" },
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "b.csv:1: shard 1/2 is given twice" },
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD R (0, a) R (2, c),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (3, d),
          "a.csv: 2 rows where shard 1/2 of 5 points has 3" },
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (1, b),
          "b.csv:5: expected point 3" },
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 6 points" SW "# vary k=a,b,c,d,e,f\n"
          HEAD R (1, b) R (3, d) R (5, f),
          "b.csv:1: shard 2/2 of 6 points, but a.csv" },
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID "point,k,fault\n"
          "1,b,\n3,d,\n",
          "b.csv:3: 'point,k,fault': not a sweep's header ('point,k,' then "
          "the results of run or occupancy mode" },
        { HEAD R (0, a), "# smsim sweep shard 2/2 of 1 points" SW GRID HEAD,
          "a.csv:1: 'point,k,blocks_per_sm,warps_per_sm,occupancy,limiter,"
          "textbook_occupancy,error': not a shard" },
        /* Another sweep's shard: only the fingerprint tells. */
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points, sweep " FP "0\n" GRID HEAD
          R (1, b) R (3, d),
          "b.csv:1: '# smsim sweep shard 2/2 of 5 points, sweep 0123" },
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points, sweep "
          "f123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"
          GRID HEAD R (1, b) R (3, d),
          "b.csv:1: a shard of another sweep than a.csv" },
        { "# smsim sweep shard 1/2 of 5 points\n" GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points\n" GRID HEAD R (1, b) R (3, d),
          "a.csv:1: '# smsim sweep shard 1/2 of 5 points': a shard line "
          "without its sweep's fingerprint" },
        /* Rows must have the header's columns. */
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) "3,d\n",
          "b.csv:5: '3,d': 2 fields where the header has 8" },
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b)
          "3,d,,,,,,x,y\n",
          "b.csv:5: '3,d,,,,,,x,y': 9 fields where the header has 8" },
        /* The results are copied as they are: each must be of its
         * column's kind and spelt as the sweep writes it, as in a
         * resumed journal (they merged, 'abc' and all). */
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD R (0, a) R (2, c)
          "4,e,abc,64,100.00,warps,100.00,\n",
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (3, d),
          "a.csv:6: '4,e,abc,64,100.00,warps,100.00,': column blocks_per_sm "
          "= 'abc': not a whole number" },
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD R (0, a) R (2, c)
          R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b)
          "3,d,16, 64,100.00,warps,100.00,\n",
          "b.csv:5: '3,d,16, 64,100.00,warps,100.00,': results '16, 64," },
        /* ... and the values of the point their number names: an edited
         * key (a value of no point, or another point's) is refused with
         * its line, as is one spelt otherwise than the sweep writes it
         * (the merged CSV would differ from the whole sweep's). */
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (3, x),
          "b.csv:5: k = 'x', but point 3 of the sweep has k = 'd' (its grid, "
          "line 2)" },
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, e) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (3, d),
          "a.csv:5: k = 'e', but point 2 of the sweep has k = 'c'" },
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b)
          "3, \"d\",,,,,,x\n",
          "b.csv:5: '3, \"d\",,,,,,x': its point's values are not written as "
          "the sweep writes them ('3,d,')" },
        /* The grid: there, well formed, of the shard line's points, of
         * the header's keys, the same in every shard. */
        { "# smsim sweep shard 1/2 of 5 points" SW HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (3, d),
          "a.csv:2: a shard without its grid lines" },
        { "# smsim sweep shard 1/2 of 5 points" SW "# vary k=\n" HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (3, d),
          "a.csv:2: '# vary k=': not a shard's vary line" },
        { "# smsim sweep shard 1/2 of 5 points" SW "# vary k=a, b,c,d,e\n"
          HEAD R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (3, d),
          "a.csv:2: '# vary k=a, b,c,d,e': not a shard's vary line" },
        { "# smsim sweep shard 1/2 of 5 points" SW "# comment\n" GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (3, d),
          "a.csv:2: not a line of a shard's grid" },
        { "# smsim sweep shard 1/2 of 5 points" SW "# vary k=a,b,c,d\n" HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (3, d),
          "a.csv:1: a shard of 5 points, but its grid lines make 4" },
        { "# smsim sweep shard 1/2 of 5 points" SW "# vary j=a,b,c,d,e\n" HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW GRID HEAD R (1, b) R (3, d),
          "a.csv:3: column 2 is 'k' where its grid lines name 'j'" },
        { "# smsim sweep shard 1/2 of 5 points" SW GRID HEAD
          R (0, a) R (2, c) R (4, e),
          "# smsim sweep shard 2/2 of 5 points" SW "# vary k=z,b,y,d,x\n" HEAD
          R (1, b) R (3, d),
          "b.csv:2: its grid lines differ from a.csv's, though their "
          "fingerprints agree" },
    };
    const char *names[] = { "a.csv", "b.csv" };
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        const char *texts[] = { rows[i].a, rows[i].b };
        g_autoptr (GString) out = g_string_new (NULL);
        g_autoptr (GError) error = NULL;
        cr_expect_not (sweep_merge_texts (2, names, texts, NULL, NULL, out,
                                          &error), "row %u", i);
        cr_assert_not_null (error, "row %u", i);
        cr_expect (g_str_has_prefix (error->message, rows[i].message),
                   "row %u: %s", i, error->message);
    }
}

/* Shards 1 and 3 of one sweep and shard 2 of another with as many
 * points, shards and the same columns: only their fingerprints tell
 * them apart (they merged, mixing the rows). */
Test (sweep_merge, shards_of_different_sweeps_are_refused)
{
    static const char *const mine[] = { "threads=64,128,256", "regs=32,64",
                                        NULL };
    static const char *const other[] = { "threads=32,96,512", "regs=200,255",
                                         NULL };
    const char *names[] = { "s1.csv", "s2.csv", "s3.csv" };
    char *texts[3];
    for (guint i = 0; i < 3; i++) {
        g_autoptr (Sweep) s = occupancy_sweep ("a100", i == 1 ? other : mine,
                                               i + 1, 3, NULL);
        cr_assert_not_null (s);
        texts[i] = run_text (s, 1);
    }
    g_autoptr (GString) out = g_string_new (NULL);
    g_autoptr (GError) error = NULL;
    cr_expect_not (sweep_merge_texts (3, names, (const char *const *) texts,
                                      NULL, NULL, out, &error),
                   "%s", out->str);
    cr_expect (error != NULL &&
                   g_str_has_prefix (error->message, "s2.csv:1: a shard of "
                                                     "another sweep than "
                                                     "s1.csv"),
               "%s", error ? error->message : "merged");
    for (guint i = 0; i < 3; i++)
        g_free (texts[i]);
}

/* The points file of the merge tests: lines 2, 3 and 4 are rows 0, 1
 * and 2. */
#define POINTS_CSV "threads,regs\n128,32\n256,\"64\"\n96,33\n"

/* POINTS_CSV times smem=0,1024 (6 points), run whole into '*whole' and
 * in 3 shards into texts[0..2] (the caller's to free). */
static void
points_shards (char **texts, char **whole)
{
    g_autofree char *points = tu_write_file ("points.csv", POINTS_CSV);
    static const char *const vary[] = { "smem=0,1024", NULL };
    for (guint i = 0; i <= 3; i++) {
        SweepOptions o = { "a100", NULL, NULL, SWEEP_MODE_OCCUPANCY, vary,
                           points, i, i > 0 ? 3 : 0 };
        g_autoptr (Sweep) s = sweep_new (&o, NULL);
        cr_assert_not_null (s);
        if (i == 0)
            *whole = run_text (s, 1);
        else
            texts[i - 1] = run_text (s, 1);
    }
}

/* The 3 shards 'texts' (s1.csv, s2.csv, s3.csv), merged with the points
 * file 'points' (named points.csv; NULL: none), are refused with an
 * error that starts with 'prefix'. */
static void
expect_merge_refused (char *const *texts, const char *points,
                      const char *prefix)
{
    const char *names[] = { "s1.csv", "s2.csv", "s3.csv" };
    g_autoptr (GString) out = g_string_new (NULL);
    g_autoptr (GError) error = NULL;
    cr_expect_not (sweep_merge_texts (3, names, (const char *const *) texts,
                                      points ? "points.csv" : NULL, points,
                                      out, &error), "%s", prefix);
    cr_expect (error != NULL && g_str_has_prefix (error->message, prefix),
               "%s: %s", prefix, error ? error->message : "merged");
}

/* A points file times a grid, in 3 shards: merged, the whole sweep's
 * CSV.  A shard carries the grid's --vary lists but not the file (it
 * may hold millions of rows), only the digest of its rows' values of
 * the file's columns: a value edited there is refused, naming the shard
 * and the columns (not the line, which nothing tells). */
Test (sweep_merge, points_files_by_their_digest)
{
    char *texts[3];
    const char *names[] = { "s1.csv", "s2.csv", "s3.csv" };
    g_autofree char *whole = NULL;
    points_shards (texts, &whole);
    /* Shard 2 holds points 1 (128, 32, smem 1024) and 4 (96, 33, 0). */
    cr_assert (g_str_has_prefix (texts[1], "# smsim sweep shard 2/3 of 6 "
                                           "points, sweep "), "%s", texts[1]);
    g_autofree char *digest = g_compute_checksum_for_string (
        G_CHECKSUM_SHA256, "128,32\n96,33\n", -1);
    g_autofree char *lines = g_strdup_printf (
        "\n# points file: 3 rows of threads,regs; values %s\n"
        "# vary smem=0,1024\npoint,threads,regs,smem,", digest);
    cr_expect (strstr (texts[1], lines) != NULL, "%s", texts[1]);
    g_autoptr (GString) out = g_string_new (NULL);
    cr_assert (sweep_merge_texts (3, names, (const char *const *) texts, NULL,
                                  NULL, out, NULL));
    cr_expect_str_eq (out->str, whole);
    /* With the file given, the same. */
    g_string_truncate (out, 0);
    cr_assert (sweep_merge_texts (3, names, (const char *const *) texts,
                                  "points.csv", POINTS_CSV, out, NULL));
    cr_expect_str_eq (out->str, whole);

    char *at = strstr (texts[1], "\n4,96,33,0,");
    cr_assert_not_null (at);
    at[7] = '4';        /* regs 33 -> 34 */
    expect_merge_refused (texts, NULL, "s2.csv: its values of the points "
                                       "file's columns (threads,regs) are "
                                       "not those of its sweep's points");
    for (guint i = 0; i < 3; i++)
        g_free (texts[i]);
}

/* Given the points file (--merge --points), the edited value is named
 * with its line in the shard and the file's line of its point: s2.csv
 * is its shard line, points line, vary line, header, then points 1 and
 * 4; point 4 is row 4 / 2 (smem's 2 values) = 2 of the file, its line
 * 4.  A file that is not the sweep's (other rows), a sweep without one,
 * and a file edited as the shard was are refused too. */
Test (sweep_merge, a_points_file_given_names_the_edited_row)
{
    char *texts[3];
    g_autofree char *whole = NULL;
    points_shards (texts, &whole);
    char *at = strstr (texts[1], "\n4,96,33,0,");
    cr_assert_not_null (at);
    at[7] = '4';        /* regs 33 -> 34 */
    static const struct {
        const char *file, *message;
    } rows[] = {
        { POINTS_CSV, "s2.csv:6: regs = '34', but point 4 of the sweep has "
                      "regs = '33' (points.csv:4)" },
        { "threads,regs\n128,32\n96,34\n",
          "s1.csv:2: its sweep's points file had 3 rows of threads,regs; "
          "points.csv has 2 rows of threads,regs: not that file" },
        { "threads,smem\n128,32\n256,64\n96,34\n",
          "s1.csv:2: its sweep's points file had 3 rows of threads,regs; "
          "points.csv has 3 rows of threads,smem: not that file" },
        { "threads,regs\n128,32\n256,\"64\"\n96,34\n",
          "s2.csv: its values of the points file's columns (threads,regs) "
          "are those of points.csv, but not of its sweep's points" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
        expect_merge_refused (texts, rows[i].file, rows[i].message);
    /* The shard as the sweep wrote it, the file edited instead: the
     * shard's digest vouches for its 33, so the file's 34 is named. */
    at[7] = '3';
    expect_merge_refused (texts, "threads,regs\n128,32\n256,\"64\"\n96,34\n",
                          "points.csv:4: regs = '34', but point 4 of the "
                          "sweep had regs = '33' (s2.csv:6, which its digest "
                          "vouches for)");
    for (guint i = 0; i < 3; i++)
        g_free (texts[i]);

    const char *grid_names[] = { "g.csv" };
    const char *grid[] = { "# smsim sweep shard 1/1 of 5 points" SW GRID HEAD
                           R (0, a) R (1, b) R (2, c) R (3, d) R (4, e) };
    g_autoptr (GString) out = g_string_new (NULL);
    g_autoptr (GError) error = NULL;
    cr_expect_not (sweep_merge_texts (1, grid_names, grid, "points.csv",
                                      POINTS_CSV, out, &error));
    cr_expect (error != NULL &&
                   g_str_has_prefix (error->message, "g.csv:2: its sweep had "
                                     "no points file, but --points "
                                     "points.csv is given"),
               "%s", error ? error->message : "merged");
}

/* The grid's point count is the points file's rows times each --vary
 * list's length, refused past 2^64 - 1 = 18446744073709551615 =
 * 3 x 6148914691236517205.  So 6148914691236517205 rows times k=a,b,c
 * make exactly 2^64 - 1 points, the shard line's count: the grid
 * agrees, and it is the missing rows that are refused.  One row more
 * makes 2^64 + 2: more than 2^64. */
Test (sweep_merge, a_grid_of_2_64_minus_1_points_is_counted)
{
    static const struct {
        const char *rows, *message;
    } rows[] = {
        { "6148914691236517205",
          "g.csv: 0 rows where shard 1/1 of 18446744073709551615 points has "
          "18446744073709551615" },
        { "6148914691236517206",
          "g.csv:1: a shard of 18446744073709551615 points, but its grid "
          "lines make more than 2^64" },
    };
    const char *names[] = { "g.csv" };
    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
        g_autofree char *text = g_strdup_printf (
            "# smsim sweep shard 1/1 of 18446744073709551615 points" SW
            "# points file: %s rows of j; values " FP "\n"
            "# vary k=a,b,c\n"
            "point,j,k,blocks_per_sm,warps_per_sm,occupancy,limiter,"
            "textbook_occupancy,error\n", rows[i].rows);
        const char *texts[] = { text };
        g_autoptr (GString) out = g_string_new (NULL);
        g_autoptr (GError) error = NULL;
        cr_expect_not (sweep_merge_texts (1, names, texts, NULL, NULL, out,
                                          &error), "row %u", i);
        cr_expect (error != NULL &&
                       g_str_has_prefix (error->message, rows[i].message),
                   "row %u: %s", i, error ? error->message : "merged");
    }
}

/* A hand-written file with a shard's first line and rows of the
 * header's width, but no fingerprint, is no shard of any sweep. */
Test (sweep_merge, a_shard_without_a_fingerprint_is_refused)
{
    const char *names[] = { "g.csv" };
    const char *texts[] = { "# smsim sweep shard 1/1 of 1 points\n"
                            "# vary x=garbage\npoint,x\n0,garbage\n" };
    g_autoptr (GString) out = g_string_new (NULL);
    g_autoptr (GError) error = NULL;
    cr_expect_not (sweep_merge_texts (1, names, texts, NULL, NULL, out,
                                      &error), "%s", out->str);
    cr_expect (error != NULL && strstr (error->message, "g.csv:1: ") != NULL,
               "%s", error ? error->message : "merged");
}

/* Threads for runs (validate, plot, sweep's default -j) are as many as
 * the cores the process may run on, not the machine's: pinned to one
 * core, as `taskset -c 0` does, it counts one; given every core of its
 * mask back, as many as the mask holds. */
Test (cores, usable_follows_the_affinity_mask)
{
#if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t all, one;
    cr_assert_eq (sched_getaffinity (0, sizeof all, &all), 0);
    int first = 0;
    while (!CPU_ISSET (first, &all))
        first++;
    CPU_ZERO (&one);
    CPU_SET (first, &one);
    cr_assert_eq (sched_setaffinity (0, sizeof one, &one), 0);
    cr_expect_eq (cores_usable (), 1);
    cr_assert_eq (sched_setaffinity (0, sizeof all, &all), 0);
    cr_expect_eq (cores_usable (), (guint) CPU_COUNT (&all));
#else
    cr_skip_test ("no affinity masks here");
#endif
}
