/*
 * trace_read.c -- read a trace: header, full check, lazy warp streams.
 * See trace_read.h and traces/FORMAT.md.
 *
 * Sections are numbered within a block: 0 is the prologue ('B' line),
 * 1..n the main-loop iterations ('I' lines), n + 1 the epilogue ('E').
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "models/trace_line.h"
#include "models/trace_read.h"
#include "models/trace_store.h"

/* A record is one warp's part of one section: far below this. */
#define MAX_RECORD (G_GUINT64_CONSTANT (1) << 30)

typedef struct {
    guint64 id;
    guint64 start;         /* offset of its 'B' section */
    guint64 epilogue;      /* offset of its 'E' section; 0 until found */
    int refs;              /* open streams of the block */
    gboolean loop_known;   /* loop_warps is read */
    guint32 loop_warps;    /* the warps with instructions in iteration 0 */
} TraceBlock;

struct TraceReader {
    TraceFile *file;
    TraceHead head;
    int warps;
    guint64 first;         /* offset of block 0 */
    int head_lines;
    /* Under the file's lock. */
    GString *line;
    guint64 front_block;   /* the shared cursor: block 'front_block' */
    guint64 front_off;     /* starts at this offset */
    GHashTable *blocks;    /* id -> TraceBlock, the blocks with open streams */
    GError *error;         /* the first error a stream met */
};

typedef struct {
    char kind;             /* 'B', 'I' or 'E' */
    guint64 number;        /* the block ('B') or the iteration ('I') */
    guint64 len[32];       /* bytes of each warp's record */
    guint64 total;
} Section;

/* Move 'e' to 'error' with the file and line in front. */
static gboolean
at_line (const TraceReader *r, guint64 line, GError *e, GError **error)
{
    g_propagate_prefixed_error (error, e, "%s: line %" G_GUINT64_FORMAT ": ",
                                trace_file_path (r->file), line);
    return FALSE;
}

static gboolean
read_header (TraceReader *r, GError **error)
{
    GError *e = NULL;
    gboolean done = FALSE;
    if (!trace_file_begin (r->file, 0, &e))
        return at_line (r, 1, e, error);
    while (!done) {
        r->head_lines++;
        if (!trace_file_line (r->file, r->line, &e) ||
            !trace_head_parse_line (&r->head, r->head_lines, r->line->str,
                                    &done, &e))
            return at_line (r, r->head_lines, e, error);
    }
    if (!trace_file_end (r->file, &r->first, &e)) {
        if (g_error_matches (e, SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT)) {
            g_clear_error (&e);
            e = g_error_new (SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT,
                             "the gzip file is not one member per section "
                             "(was it compressed whole, with gzip?): gunzip "
                             "it, or write it with `smsim trace gen -o "
                             "FILE.gz`");
        }
        return at_line (r, r->head_lines, e, error);
    }
    r->warps = trace_head_warps (&r->head);
    return TRUE;
}

TraceReader *
trace_reader_open (const char *path, GError **error)
{
    g_autoptr (TraceFile) f = trace_file_open (path, error);
    if (f == NULL)
        return NULL;
    g_autoptr (TraceReader) r = g_new0 (TraceReader, 1);
    r->file = g_steal_pointer (&f);
    r->line = g_string_new (NULL);
    r->blocks = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
                                       g_free);
    if (!read_header (r, error))
        return NULL;
    r->front_off = r->first;
    return g_steal_pointer (&r);
}

void
trace_reader_free (TraceReader *r)
{
    if (r == NULL)
        return;
    trace_file_free (r->file);
    trace_head_clear (&r->head);
    g_string_free (r->line, TRUE);
    g_hash_table_destroy (r->blocks);
    g_clear_error (&r->error);
    g_free (r);
}

const TraceHead *
trace_reader_head (const TraceReader *r)
{
    return &r->head;
}

const char *
trace_reader_path (const TraceReader *r)
{
    return trace_file_path (r->file);
}

gboolean
trace_reader_is_gzip (const TraceReader *r)
{
    return trace_file_is_gzip (r->file);
}

/* ------------------------------------------------------------------ */
/* Sections                                                            */

static gboolean
parse_section (const TraceReader *r, const char *line, Section *s,
               GError **error)
{
    if (line[0] == '\0')
        return trace_format_error (error, "an empty line where a section "
                                          "line was expected");
    const char *p = line + 1;
    int numbered = line[0] == 'B' || line[0] == 'I';
    s->kind = line[0];
    s->total = 0;
    for (int i = -numbered; i < r->warps; i++) {
        char *end = NULL;
        guint64 v = 0;
        gboolean ok = *p == ' ' && g_ascii_isdigit (p[1]);
        if (ok) {
            errno = 0;
            v = g_ascii_strtoull (p + 1, &end, 10);
            ok = errno == 0 && (*end == ' ' || *end == '\0') &&
                 (i < 0 || v <= MAX_RECORD);
        }
        if (!ok || (i == r->warps - 1 && *end != '\0') ||
            (s->kind != 'B' && s->kind != 'I' && s->kind != 'E'))
            return trace_format_error (
                error,
                "'%.40s': a section line must be 'B BLOCK', "
                "'I ITERATION' or 'E', then %d record lengths (one "
                "per warp, in bytes)",
                line, r->warps);
        if (i < 0)
            s->number = v;
        else {
            s->len[i] = v;
            s->total += v;
        }
        p = end;
    }
    return TRUE;
}

/* Section 'index' of 'block' must be 's'. */
static gboolean
expect_section (const TraceReader *r, guint64 block, guint64 index,
                const Section *s, GError **error)
{
    guint64 n = r->head.iterations;
    if (index == 0 && (s->kind != 'B' || s->number != block))
        return trace_format_error (error,
                                   "expected 'B %" G_GUINT64_FORMAT
                                   " ...' (the start "
                                   "of block %" G_GUINT64_FORMAT ")",
                                   block, block);
    if (index > 0 && index <= n && (s->kind != 'I' || s->number != index - 1))
        return trace_format_error (
            error,
            "expected 'I %" G_GUINT64_FORMAT " ...' (main-loop "
            "iteration %" G_GUINT64_FORMAT " of block %" G_GUINT64_FORMAT
            "; the header says %" G_GUINT64_FORMAT " iterations)",
            index - 1, index - 1, block, n);
    if (index == n + 1 && s->kind != 'E')
        return trace_format_error (
            error,
            "expected 'E ...' (the epilogue of block %" G_GUINT64_FORMAT
            ", after %" G_GUINT64_FORMAT " iterations)",
            block, n);
    return TRUE;
}

/* Read the section line at 'off' (the file is begun there). */
static gboolean
begin_section (TraceReader *r, guint64 off, guint64 block, guint64 index,
               Section *s, GError **error)
{
    if (!trace_file_begin (r->file, off, error) ||
        !trace_file_line (r->file, r->line, error))
        return FALSE;
    /* The records stop short of the grid: say so, rather than that
     * 'end' is no section line. */
    if (strcmp (r->line->str, "end") == 0 && index == 0)
        return trace_format_error (
            error, "'end' where block %" G_GUINT64_FORMAT " should start: "
            "the header's grid is %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT
            " blocks, the file has %" G_GUINT64_FORMAT, block,
            r->head.grid_x, r->head.grid_y, block);
    return parse_section (r, r->line->str, s, error) &&
           expect_section (r, block, index, s, error);
}

/* Skip sections 'from' .. 'to' - 1 of 'block', starting at '*off'. */
static gboolean
skip_sections (TraceReader *r, guint64 block, guint64 from, guint64 to,
               guint64 *off, GError **error)
{
    for (guint64 i = from; i < to; i++) {
        Section s;
        if (!begin_section (r, *off, block, i, &s, error) ||
            !trace_file_bytes (r->file, s.total, NULL, error) ||
            !trace_file_end (r->file, off, error))
            return FALSE;
    }
    return TRUE;
}

/* ------------------------------------------------------------------ */
/* The full check                                                      */

typedef struct {
    TraceReader *r;
    TraceVisitFn visit;
    void *ctx;
    guint64 block;         /* the block being read */
    guint64 section;       /* and its section */
    guint64 line;          /* the line being read */
    guint64 section_line;
    GString *text;
} Scan;

/* The marker that opens warp 'warp''s record. */
static gboolean
is_warp_line (const char *line, int warp)
{
    char want[16];
    g_snprintf (want, sizeof want, "W %d", warp);
    return strcmp (line, want) == 0;
}

/* A shared-memory access stays in the block's shared memory, as the
 * header declares it: past it the GPU faults, and the model would map
 * the address onto banks as if it were there. */
static gboolean
in_shared_memory (const TraceHead *h, const Instr *in, GError **error)
{
    if (in->op != INSTR_LDS && in->op != INSTR_STS)
        return TRUE;
    guint64 size = (guint64) h->static_smem + (guint64) h->dyn_smem;
    for (int lane = 0; lane < 32; lane++) {
        guint64 a = instr_lane_addr (in, lane);
        if ((in->active >> lane & 1) && (a >= size || size - a < in->width))
            return trace_format_error (
                error, "lane %d's shared address %" G_GUINT64_FORMAT
                " (+%u B) is past the block's %" G_GUINT64_FORMAT
                " B of shared memory (header 'smem')", lane, a, in->width,
                size);
    }
    return TRUE;
}

/* The lanes of warp 'warp' hold threads of the block: past its last
 * thread (a block of 40 has 8 in its second warp) there is none to
 * run. */
static gboolean
in_block (const TraceHead *h, int warp, const Instr *in, GError **error)
{
    gint64 threads = (gint64) h->threads - 32 * (gint64) warp;
    guint32 lanes = instr_first_lanes (threads);
    if ((in->active & ~lanes) == 0)
        return TRUE;
    return trace_format_error (
        error, "active mask %x: warp %d of a block of %d thread%s has "
        "%d lane%s (mask %x)", in->active, warp, h->threads,
        h->threads == 1 ? "" : "s", (int) CLAMP (threads, 0, 32),
        threads == 1 ? "" : "s", lanes);
}

static gboolean
scan_instruction (Scan *sc, const char *line, int warp, gboolean last,
                  gboolean epilogue, GError **error)
{
    Instr in;
    if (line[0] != '\0' && strchr ("WBIE", line[0]) != NULL && line[1] == ' ')
        return trace_format_error (
            error,
            "'%.20s' where an instruction was expected: the "
            "lengths on line %" G_GUINT64_FORMAT " do not match the "
            "records (they count "
            "bytes; was the file edited?)",
            line, sc->section_line);
    if (!trace_line_parse (line, &in, error))
        return FALSE;
    if (!in_block (&sc->r->head, warp, &in, error) ||
        !in_shared_memory (&sc->r->head, &in, error))
        return FALSE;
    if (in.op == INSTR_EXIT && !(last && epilogue))
        return trace_format_error (
            error, "EXIT before the end of the warp's epilogue");
    if (last && epilogue && in.op != INSTR_EXIT)
        return trace_format_error (error,
                                   "the warp's epilogue must end with EXIT");
    if (sc->visit != NULL)
        sc->visit (sc->ctx, sc->block, warp, sc->section, &in);
    return TRUE;
}

static gboolean
length_mismatch (Scan *sc, int warp, GError **error)
{
    return trace_format_error (
        error,
        "%s: line %" G_GUINT64_FORMAT ": warp %d's record does not "
        "end with a line end: its length on line %" G_GUINT64_FORMAT
        " does not match (lengths "
        "count bytes; was the file edited?)",
        trace_file_path (sc->r->file), sc->line, warp, sc->section_line);
}

/* Check warp 'warp''s record, in sc->text, line by line: a bad line is
 * reported before a length that does not match. */
static gboolean
scan_record (Scan *sc, int warp, gboolean epilogue, GError **error)
{
    char *p = sc->text->str, *end = p + sc->text->len;
    GError *e = NULL;
    for (gboolean first = TRUE; p < end || first; first = FALSE) {
        char *nl = memchr (p, '\n', (gsize) (end - p));
        if (nl == NULL)
            return length_mismatch (sc, warp, error);
        *nl = '\0';
        gboolean ok = first ? is_warp_line (p, warp)
                            : scan_instruction (sc, p, warp, nl + 1 == end,
                                                epilogue,
                                                &e);
        if (first && !ok)
            trace_format_error (&e,
                                "'%.20s': expected 'W %d' (warp %d's record)",
                                p, warp, warp);
        if (!ok)
            return at_line (sc->r, sc->line, e, error);
        if (first && nl + 1 == end && epilogue)
            return at_line (sc->r, sc->line, g_error_new (SMSIM_TRACE_ERROR,
                            TRACE_ERROR_FORMAT, "warp %d's epilogue is empty "
                            "(it must end with EXIT)", warp), error);
        sc->line++;
        p = nl + 1;
    }
    return TRUE;
}

/* Where a record's read failed on a NUL byte, the lines of the record
 * before the NUL's (the bytes before it, in 'text'); 0 for another
 * error, said of the record's first line. */
static guint64
nul_line (const GString *text, const GError *e)
{
    guint64 lines = 0;
    if (!g_error_matches (e, SMSIM_TRACE_ERROR, TRACE_ERROR_NUL))
        return 0;
    for (const char *c = text->str; (c = strchr (c, '\n')) != NULL; c++)
        lines++;
    return lines;
}

static gboolean
scan_section (Scan *sc, guint64 block, guint64 index, guint64 *off,
              GError **error)
{
    TraceReader *r = sc->r;
    Section s;
    GError *e = NULL;
    sc->section_line = sc->line;
    sc->section = index;
    if (!begin_section (r, *off, block, index, &s, &e))
        return at_line (r, sc->line, e, error);
    sc->line++;
    for (int w = 0; w < r->warps; w++) {
        g_string_truncate (sc->text, 0);
        if (!trace_file_bytes (r->file, s.len[w], sc->text, &e))
            return at_line (r, sc->line + nul_line (sc->text, e), e, error);
        if (!scan_record (sc, w, index == r->head.iterations + 1, error))
            return FALSE;
    }
    if (!trace_file_end (r->file, off, &e))
        return at_line (r, sc->section_line, e, error);
    return TRUE;
}

static gboolean
scan_end (Scan *sc, guint64 off, GError **error)
{
    GError *e = NULL;
    TraceFile *f = sc->r->file;
    if (!trace_file_begin (f, off, &e) || !trace_file_line (f, sc->r->line, &e))
        return at_line (sc->r, sc->line, e, error);
    if (strcmp (sc->r->line->str, "end") != 0)
        return at_line (sc->r, sc->line, g_error_new (SMSIM_TRACE_ERROR,
                        TRACE_ERROR_FORMAT, "'%.20s': expected 'end' after the "
                        "last block (%" G_GUINT64_FORMAT " blocks)",
                        sc->r->line->str, trace_head_blocks (&sc->r->head)),
                        error);
    if (!trace_file_end (f, &off, &e))
        return at_line (sc->r, sc->line, e, error);
    if (!trace_file_at_eof (f, off))
        return trace_format_error (error,
                                   "%s: bytes after the 'end' line (line %"
                                   G_GUINT64_FORMAT ")",
                                   trace_file_path (f), sc->line);
    return TRUE;
}

gboolean
trace_reader_scan (TraceReader *r, TraceVisitFn visit, void *ctx,
                   GError **error)
{
    g_autoptr (GString) text = g_string_new (NULL);
    Scan sc = { r, visit, ctx, 0, 0, r->head_lines + 1, 0, text };
    guint64 off = r->first, blocks = trace_head_blocks (&r->head);
    gboolean ok = TRUE;
    trace_file_lock (r->file);
    for (guint64 b = 0; b < blocks && ok; b++) {
        sc.block = b;
        for (guint64 i = 0; i < r->head.iterations + 2 && ok; i++)
            ok = scan_section (&sc, b, i, &off, error);
    }
    ok = ok && scan_end (&sc, off, error);
    trace_file_unlock (r->file);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Blocks with open streams (under the file's lock)                    */

/* Walk the shared cursor to block 'id' (from the start if it is
 * behind). */
static gboolean
locate_block (TraceReader *r, guint64 id, guint64 *off, GError **error)
{
    if (id < r->front_block) {
        r->front_block = 0;
        r->front_off = r->first;
    }
    while (r->front_block < id) {
        if (!skip_sections (r, r->front_block, 0, r->head.iterations + 2,
                            &r->front_off, error))
            return FALSE;
        r->front_block++;
    }
    *off = r->front_off;
    return TRUE;
}

static TraceBlock *
block_ref (TraceReader *r, guint64 id, GError **error)
{
    TraceBlock *b = g_hash_table_lookup (r->blocks, &id);
    guint64 off;
    if (b != NULL) {
        b->refs++;
        return b;
    }
    if (!locate_block (r, id, &off, error))
        return NULL;
    b = g_new0 (TraceBlock, 1);
    b->id = id;
    b->start = off;
    b->refs = 1;
    g_hash_table_insert (r->blocks, &b->id, b);
    return b;
}

static void
block_unref (TraceReader *r, TraceBlock *b)
{
    if (--b->refs == 0)
        g_hash_table_remove (r->blocks, &b->id);
}

/* ------------------------------------------------------------------ */
/* Warp streams                                                        */

typedef struct {
    InstrStream base;
    TraceReader *r;
    TraceBlock *blk;       /* NULL if it could not be found */
    guint64 block;
    int warp;
    guint64 window;        /* main-loop iterations to play */
    gint64 section;        /* the section whose record is loaded; -1: none */
    guint64 next_off;      /* offset of section 'section' + 1 */
    GString *text;         /* this warp's record of it */
    gsize pos;
    gboolean done;
    gboolean exit_next;    /* failed at opening: play just an EXIT */
    Instr instr;
} TraceWarp;

/* Record the first error; the stream ends with an EXIT. */
static const Instr *
warp_fail (TraceWarp *w, GError *e)
{
    TraceReader *r = w->r;
    trace_file_lock (r->file);
    if (r->error == NULL)
        g_propagate_prefixed_error (&r->error, e, "%s: block %" G_GUINT64_FORMAT
                                    ", warp %d: ", trace_file_path (r->file),
                                    w->block, w->warp);
    else
        g_error_free (e);
    trace_file_unlock (r->file);
    w->done = TRUE;
    instr_init (&w->instr, INSTR_EXIT);
    return &w->instr;
}

/* Offset of section 'index' (under the lock). */
static gboolean
section_offset (TraceWarp *w, guint64 index, guint64 *off, GError **error)
{
    TraceReader *r = w->r;
    guint64 last = r->head.iterations + 1;
    if (w->section < 0) {
        *off = w->blk->start;
        return TRUE;
    }
    *off = w->next_off;
    if (index != last || (guint64) w->section + 1 == last)
        return TRUE;
    /* A window: skip the iterations it leaves out, once per block. */
    if (w->blk->epilogue == 0 &&
        !skip_sections (r, w->block, (guint64) w->section + 1, last, off,
                        error))
        return FALSE;
    if (w->blk->epilogue == 0)
        w->blk->epilogue = *off;
    *off = w->blk->epilogue;
    return TRUE;
}

/* Load this warp's record of section 'index'. */
static gboolean
load_section (TraceWarp *w, guint64 index, GError **error)
{
    TraceReader *r = w->r;
    Section s;
    guint64 off, before = 0;
    trace_file_lock (r->file);
    gboolean ok = section_offset (w, index, &off, error) &&
                  begin_section (r, off, w->block, index, &s, error);
    for (int k = 0; ok && k < w->warp; k++)
        before += s.len[k];
    g_string_truncate (w->text, 0);
    ok = ok && trace_file_bytes (r->file, before, NULL, error) &&
         trace_file_bytes (r->file, s.len[w->warp], w->text, error) &&
         trace_file_bytes (r->file, s.total - before - s.len[w->warp], NULL,
                           error) &&
         trace_file_end (r->file, &w->next_off, error);
    trace_file_unlock (r->file);
    if (!ok)
        return FALSE;
    char *nl = memchr (w->text->str, '\n', w->text->len);
    if (nl != NULL)
        *nl = '\0';
    if (nl == NULL || !is_warp_line (w->text->str, w->warp))
        return trace_format_error (error,
                                   "section at byte %" G_GUINT64_FORMAT
                                   ": no 'W %d' "
                                   "record",
                                   off, w->warp);
    w->pos = (gsize) (nl - w->text->str) + 1;
    w->section = (gint64) index;
    return TRUE;
}

static const Instr *
warp_next (InstrStream *base)
{
    TraceWarp *w = (TraceWarp *) base;
    guint64 last = w->r->head.iterations + 1;
    GError *e = NULL;
    if (w->exit_next) {
        w->exit_next = FALSE;
        return &w->instr;
    }
    if (w->done)
        return NULL;
    while (w->pos >= w->text->len) {
        if (w->section == (gint64) last) {
            w->done = TRUE;
            return NULL;
        }
        guint64 next = w->section < (gint64) w->window ? (guint64) (w->section + 1)
                                                       : last;
        if (!load_section (w, next, &e))
            return warp_fail (w, e);
    }
    char *line = w->text->str + w->pos;
    char *nl = memchr (line, '\n', w->text->len - w->pos);
    if (nl == NULL)
        return warp_fail (w, g_error_new (SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT,
                                          "a record ends inside a line"));
    *nl = '\0';
    w->pos = (gsize) (nl - w->text->str) + 1;
    if (!trace_line_parse (line, &w->instr, &e))
        return warp_fail (w, e);
    w->instr.loop = w->section > 0 && w->section < (gint64) last;
    return &w->instr;
}

static void
warp_free (InstrStream *base)
{
    TraceWarp *w = (TraceWarp *) base;
    if (w->blk != NULL) {
        trace_file_lock (w->r->file);
        block_unref (w->r, w->blk);
        trace_file_unlock (w->r->file);
    }
    g_string_free (w->text, TRUE);
    g_free (w);
}

static const InstrStreamOps warp_ops = { warp_next, warp_free };

InstrStream *
trace_reader_open_warp (TraceReader *r, guint64 block, int warp,
                        guint64 iterations)
{
    TraceWarp *w = g_new0 (TraceWarp, 1);
    GError *e = NULL;
    w->base.ops = &warp_ops;
    w->r = r;
    w->block = block;
    w->warp = warp;
    w->window = MIN (iterations, r->head.iterations);
    w->section = -1;
    w->text = g_string_new (NULL);
    if (block >= trace_head_blocks (&r->head) || warp < 0 || warp >= r->warps)
        e = g_error_new (SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT,
                         "not in the trace's launch");
    if (e == NULL) {
        trace_file_lock (r->file);
        w->blk = block_ref (r, block, &e);
        trace_file_unlock (r->file);
    }
    if (e != NULL) {
        warp_fail (w, e);
        w->exit_next = TRUE;
    }
    return &w->base;
}

gboolean
trace_reader_warp_position (const InstrStream *s, gint64 *iteration)
{
    const TraceWarp *w = (const TraceWarp *) s;
    if (s->ops != &warp_ops)
        return FALSE;
    gint64 last = (gint64) w->r->head.iterations + 1;
    /* Sections: 0 the prologue, 1 .. n the iterations, n + 1 the
     * epilogue (which a window reaches straight after its last). */
    *iteration = w->section == last      ? (gint64) w->window
                 : w->section <= 0       ? -1
                                         : w->section - 1;
    return TRUE;
}

/* Read which warps of 'b' play instructions in its iteration 0 (under
 * the lock): a record of just its 'W' line is a warp that exits before
 * the loop.  The section is read once a block, and only for this. */
static gboolean
read_loop_warps (TraceReader *r, TraceBlock *b, GError **error)
{
    guint64 off = b->start;
    Section s;
    if (!skip_sections (r, b->id, 0, 1, &off, error) ||
        !begin_section (r, off, b->id, 1, &s, error))
        return FALSE;
    for (int k = 0; k < r->warps; k++) {
        char line[16];
        int n = g_snprintf (line, sizeof line, "W %d\n", k);
        if (s.len[k] > (guint64) n)
            b->loop_warps |= 1u << k;
    }
    return TRUE;
}

gboolean
trace_reader_warp_plays_loop (const InstrStream *s)
{
    const TraceWarp *w = (const TraceWarp *) s;
    if (s->ops != &warp_ops || w->blk == NULL ||
        w->r->head.iterations == 0)
        return TRUE;
    TraceReader *r = w->r;
    TraceBlock *b = w->blk;
    trace_file_lock (r->file);
    if (!b->loop_known) {
        /* A section that cannot be read is the stream's to report. */
        g_autoptr (GError) e = NULL;
        if (!read_loop_warps (r, b, &e))
            b->loop_warps = G_MAXUINT32;
        b->loop_known = TRUE;
    }
    gboolean plays = (b->loop_warps >> w->warp & 1) != 0;
    trace_file_unlock (r->file);
    return plays;
}

gboolean
trace_reader_error (TraceReader *r, GError **error)
{
    trace_file_lock (r->file);
    if (r->error != NULL)
        g_propagate_error (error, g_error_copy (r->error));
    gboolean ok = r->error == NULL;
    trace_file_unlock (r->file);
    return ok;
}
