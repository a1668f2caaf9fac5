/*
 * trace_write.c -- write a trace.  See trace_write.h.
 */
#include "config.h"

#include "models/kgen.h"
#include "models/num.h"
#include "models/trace_head.h"
#include "models/trace_line.h"
#include "models/trace_store.h"
#include "models/trace_write.h"

/* One warp of the block being written: its stream and the instruction
 * it has given but that belongs to a later section. */
typedef struct {
    InstrStream *stream;
    Instr held;
    guint64 held_section;
    gboolean has_held;
    gboolean ended;
} WarpSource;

/* Section index of where 'stream' stands: 0 the prologue, 1 + i
 * iteration i, n + 1 the epilogue. */
static gboolean
section_of (const KernInstance *k, InstrStream *stream, guint64 *section,
            GError **error)
{
    int seg;
    guint64 iter;
    if (!kgen_stream_position (stream, &seg, &iter)) {
        g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT,
                     "%s: its streams do not show their loop structure, "
                     "which a trace marks", k->model->id);
        return FALSE;
    }
    *section = seg == KGEN_PROLOGUE ? 0 : seg == KGEN_BODY ? 1 + iter
                                                         : k->iterations + 1;
    return TRUE;
}

/* Pull 'w''s instructions of section 'section' into 'record'. */
static gboolean
fill_record (const KernInstance *k, WarpSource *w, guint64 section,
             GString *record, GError **error)
{
    for (;;) {
        if (!w->has_held && !w->ended) {
            const Instr *in = instr_stream_next (w->stream);
            if (in == NULL) {
                w->ended = TRUE;
                break;
            }
            w->held = *in;
            w->has_held = TRUE;
            if (!section_of (k, w->stream, &w->held_section, error))
                return FALSE;
        }
        if (!w->has_held || w->held_section != section)
            break;
        trace_line_format (record, &w->held);
        w->has_held = FALSE;
    }
    return TRUE;
}

static gboolean
write_section (const KernInstance *k, TraceSink *sink, WarpSource *src,
               int warps, guint64 block, guint64 section, GString *unit,
               GError **error)
{
    g_autoptr (GString) records = g_string_new (NULL);
    g_string_truncate (unit, 0);
    if (section == 0)
        g_string_append_printf (unit, "B %" G_GUINT64_FORMAT, block);
    else if (section <= k->iterations)
        g_string_append_printf (unit, "I %" G_GUINT64_FORMAT, section - 1);
    else
        g_string_append (unit, "E");
    for (int w = 0; w < warps; w++) {
        gsize before = records->len;
        g_string_append_printf (records, "W %d\n", w);
        if (!fill_record (k, &src[w], section, records, error))
            return FALSE;
        g_string_append_printf (unit, " %" G_GSIZE_FORMAT, records->len - before);
    }
    g_string_append_c (unit, '\n');
    g_string_append_len (unit, records->str, (gssize) records->len);
    return trace_sink_write (sink, unit, error);
}

static gboolean
write_block (const KernInstance *k, TraceSink *sink, guint64 block,
             GString *unit, GError **error)
{
    int warps = kern_warps (k);
    WarpSource *src = g_new0 (WarpSource, warps);
    gboolean ok = TRUE;
    for (int w = 0; w < warps; w++)
        src[w].stream = kern_open_warp (k, block, w);
    for (guint64 s = 0; s < k->iterations + 2 && ok; s++)
        ok = write_section (k, sink, src, warps, block, s, unit, error);
    for (int w = 0; w < warps; w++) {
        if (ok && (src[w].has_held || !src[w].ended)) {
            g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT,
                         "%s: block %" G_GUINT64_FORMAT ", warp %d: an "
                         "instruction out of the loop's order", k->model->id,
                         block, w);
            ok = FALSE;
        }
        instr_stream_free (src[w].stream);
    }
    g_free (src);
    return ok;
}

guint64
trace_write_projected (guint64 head, guint64 written, guint64 done,
                       guint64 blocks)
{
    g_assert (done > 0 && done <= blocks && head <= written);
    double bytes = (double) head + (double) (written - head) /
                                       (double) done * (double) blocks;
    return bytes >= 0x1p64 ? G_MAXUINT64 : MAX ((guint64) bytes, written);
}

/* Checked after the first block, then at each MiB written: a trace of
 * a big launch (sgemm-5 at 65536 is some 300 TB) is refused while the
 * disk still has room for the rest of the user's work. */
#define ROOM_CHECK_BYTES (G_GUINT64_CONSTANT (1) << 20)

static gboolean
check_room (TraceSink *sink, const char *path, guint64 head, guint64 done,
            guint64 blocks, GError **error)
{
    guint64 written = trace_sink_written (sink), free;
    guint64 need = trace_write_projected (head, written, done, blocks);
    if (!trace_sink_room (sink, &free) || need - written <= free)
        return TRUE;
    g_autofree char *need_s = num_bytes_text ((double) need);
    g_autofree char *written_s = num_bytes_text ((double) (written - head));
    g_autofree char *free_s = num_bytes_text ((double) free);
    g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_IO,
                 "%s: the trace would take about %s (its first %"
                 G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " blocks took %s), "
                 "more than the %s free on its file system", path, need_s,
                 done, blocks, written_s, free_s);
    return FALSE;
}

gboolean
trace_write (const KernInstance *k, const char *gpu, const char *path,
             TraceWriteProgress progress, void *ctx, GError **error)
{
    /* Past 2^53 a header's count would no longer be exact, and no
     * reader takes it: refused before a file is made. */
    if (!trace_head_flops_ok (k->flops)) {
        g_set_error (error, SMSIM_TRACE_ERROR, TRACE_ERROR_FORMAT,
                     "%s: size %" G_GINT64_FORMAT ": %.0f FLOPs; a trace "
                     "holds a whole number up to 2^53 = %" G_GUINT64_FORMAT,
                     k->model->id, k->size, k->flops, TRACE_FLOPS_MAX);
        return FALSE;
    }
    g_autoptr (TraceSink) sink =
        trace_sink_new (path, g_str_has_suffix (path, ".gz"), error);
    g_autoptr (GString) unit = g_string_new (NULL);
    TraceHead head;
    if (sink == NULL)
        return FALSE;
    trace_head_from_kernel (&head, k, gpu);
    trace_head_format (&head, unit);
    trace_head_clear (&head);
    if (!trace_sink_write (sink, unit, error))
        return FALSE;
    guint64 head_bytes = trace_sink_written (sink), checked = 0;
    guint64 blocks = kern_blocks (k);
    for (guint64 b = 0; b < blocks; b++) {
        if (!write_block (k, sink, b, unit, error))
            return FALSE;
        if (b == 0 || trace_sink_written (sink) - checked >= ROOM_CHECK_BYTES) {
            checked = trace_sink_written (sink);
            if (!check_room (sink, path, head_bytes, b + 1, blocks, error))
                return FALSE;
        }
        if (progress != NULL)
            progress (ctx, b + 1, blocks);
    }
    g_string_assign (unit, "end\n");
    return trace_sink_write (sink, unit, error) &&
           trace_sink_commit (sink, error);
}
