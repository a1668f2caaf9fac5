/*
 * kgen.c -- streams played from a kernel program.  See kgen.h.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "models/kgen.h"

KProgram *
kgen_program_new (const KernInstance *k, KAddrFn address)
{
    KProgram *p = g_new0 (KProgram, 1);
    for (int s = 0; s < KGEN_N_SEGMENTS; s++) {
        p->seg[s] = g_array_new (FALSE, TRUE, sizeof (KOp));
        p->lg[s] = g_array_new (FALSE, TRUE, sizeof (guint));
    }
    p->address = address;
    p->k = k;
    return p;
}

void
kgen_program_free (KProgram *p)
{
    if (p == NULL)
        return;
    for (int s = 0; s < KGEN_N_SEGMENTS; s++) {
        g_array_free (p->seg[s], TRUE);
        g_array_free (p->lg[s], TRUE);
        g_free (p->lane_part[s]);
        g_free (p->lane_stride[s]);
    }
    g_free (p);
}

/* ------------------------------------------------------------------ */
/* Tabled lane addresses                                               */

#define NO_STRIDE G_MININT64

/* Threads rounded up to whole warps: a partial last warp still has 32
 * lanes (the inactive ones get addresses too). */
static int
lanes (const KProgram *p)
{
    return (p->k->threads + 31) / 32 * 32;
}

/* Where operation 'op' (one of p's) stands: its segment, and its
 * index there in '*index'. */
static int
locate (const KProgram *p, const KOp *op, guint *index)
{
    for (int s = 0; s < KGEN_N_SEGMENTS; s++) {
        const KOp *first = (const KOp *) (void *) p->seg[s]->data;
        if (op >= first && op < first + p->seg[s]->len) {
            *index = (guint) (op - first);
            return s;
        }
    }
    g_assert_not_reached ();
}

static void
lane_address (const KProgram *p, guint64 block, int warp, guint64 iter,
              const KOp *op, Instr *out)
{
    guint index;
    int seg = locate (p, op, &index);
    g_assert (p->lane_part[seg] != NULL);    /* kgen_table_lanes ran */
    /* p->lanes, not lanes (p): its division, twice for every address,
     * was a sixth of this function's instructions. */
    const guint64 *part = p->lane_part[seg] + (gsize) index * (gsize) p->lanes +
                          warp * 32;
    guint64 base = p->lane_addr (p, block, 0, iter, op);
    gint64 stride = p->lane_stride[seg][(gsize) index * ((gsize) p->lanes / 32) +
                                        (gsize) warp];
    if (stride != NO_STRIDE) {
        out->addr_mode = INSTR_ADDR_STRIDE;
        out->addr_base = base + part[0];
        out->addr_stride = stride;
        return;
    }
    out->addr_mode = INSTR_ADDR_EXPLICIT;
    for (int lane = 0; lane < 32; lane++)
        out->addr[lane] = base + part[lane];
}

KProgram *
kgen_program_new_lanes (const KernInstance *k, KLaneAddrFn lane_addr)
{
    KProgram *p = kgen_program_new (k, lane_address);
    p->lane_addr = lane_addr;
    return p;
}

/* The step between the 32 lane parts at 'part', or NO_STRIDE. */
static gint64
even_step (const guint64 *part)
{
    gint64 d = (gint64) (part[1] - part[0]);
    for (int lane = 2; lane < 32; lane++)
        if ((gint64) (part[lane] - part[lane - 1]) != d)
            return NO_STRIDE;
    return d;
}

/* Unsigned arithmetic wraps, so a negative part is fine. */
void
kgen_table_lanes (KProgram *p)
{
    int n = lanes (p), warps = n / 32;
    p->lanes = n;
    for (int s = 0; s < KGEN_N_SEGMENTS; s++) {
        GArray *ops = p->seg[s];
        gsize n_strides = MAX ((gsize) ops->len * (gsize) warps, 1);
        g_free (p->lane_part[s]);
        g_free (p->lane_stride[s]);
        p->lane_part[s] = g_new0 (guint64, MAX ((gsize) ops->len * (gsize) n, 1));
        p->lane_stride[s] = g_new (gint64, n_strides);
        for (gsize j = 0; j < n_strides; j++)
            p->lane_stride[s][j] = NO_STRIDE;
        for (guint i = 0; i < ops->len; i++) {
            const KOp *op = &g_array_index (ops, KOp, i);
            if (op->addr == 0)
                continue;
            guint64 zero = p->lane_addr (p, 0, 0, 0, op);
            guint64 *part = &p->lane_part[s][(gsize) i * (gsize) n];
            for (int t = 0; t < n; t++)
                part[t] = p->lane_addr (p, 0, t, 0, op) - zero;
            for (int w = 0; w < warps; w++)
                p->lane_stride[s][(gsize) i * (gsize) warps + (gsize) w] =
                    even_step (part + 32 * w);
        }
    }
}

KOp *
kgen_add (KProgram *p, int segment, InstrOp op, int dst, int s0, int s1, int s2)
{
    KOp o = { .op = (guint8) op, .dst = (guint8) dst, .n_dst = 1,
              .src = { (guint8) s0, (guint8) s1, (guint8) s2 } };
    if (instr_info (op)->pipe == PIPE_LG) {
        guint at = p->seg[segment]->len;
        g_array_append_val (p->lg[segment], at);
    }
    g_array_append_val (p->seg[segment], o);
    return &g_array_index (p->seg[segment], KOp, p->seg[segment]->len - 1);
}

KOp *
kgen_mem (KProgram *p, int segment, InstrOp op, int reg, int src, int width,
          guint8 addr, gint32 arg)
{
    gboolean load = op == INSTR_LDG || op == INSTR_LDS;
    KOp *o = kgen_add (p, segment, op, load ? reg : INSTR_NO_REG, src,
                       load ? INSTR_NO_REG : reg, INSTR_NO_REG);
    o->n_dst = (guint8) MAX (1, width / 4);
    o->width = (guint8) width;
    o->addr = addr;
    o->arg = arg;
    return o;
}

void
kgen_guard_from (KProgram *p, int segment, guint from, guint8 guard)
{
    g_assert (p->guard != NULL);
    for (guint i = from; i < p->seg[segment]->len; i++)
        g_array_index (p->seg[segment], KOp, i).guard = guard;
}

guint
kgen_count (const KProgram *p, int segment, InstrOp op)
{
    guint n = 0;
    for (guint i = 0; i < p->seg[segment]->len; i++)
        n += g_array_index (p->seg[segment], KOp, i).op == op;
    return n;
}

typedef struct {
    InstrStream base;
    const KProgram *p;
    guint64 block;
    int warp;
    guint32 active;
    int seg;
    guint pc;
    guint64 iter;
    guint64 iterations;
    gboolean done;
    gboolean lg_only;      /* a mirror's: local/global-queue ops alone */
    gboolean exits;        /* after the prologue (kgen_stream_new_exiting) */
    guint32 seg_pc[KGEN_N_SEGMENTS];   /* where each segment starts (pc) */
    Instr instr;
} KStream;

/* Operations of the current segment the stream plays. */
static guint
segment_length (const KStream *s)
{
    return (s->lg_only ? s->p->lg[s->seg] : s->p->seg[s->seg])->len;
}

/* Move to the next operation, across segments and iterations; FALSE at
 * the end. */
static gboolean
advance (KStream *s)
{
    for (;;) {
        if (s->exits && s->seg == KGEN_BODY) {
            s->seg = KGEN_EPILOGUE;
            return FALSE;
        }
        if (s->seg == KGEN_BODY && s->iter >= s->iterations) {
            s->seg++;
            s->pc = 0;
            continue;
        }
        if (s->pc < segment_length (s))
            return TRUE;
        if (s->seg == KGEN_BODY && ++s->iter < s->iterations) {
            s->pc = 0;
            continue;
        }
        if (s->seg == KGEN_EPILOGUE)
            return FALSE;
        s->seg++;
        s->pc = 0;
    }
}

/* The next operation this warp plays, past those its guards skip;
 * NULL at the end. */
static const KOp *
next_op (KStream *s)
{
    for (;;) {
        if (!advance (s))
            return NULL;
        guint at = s->lg_only ? g_array_index (s->p->lg[s->seg], guint, s->pc)
                              : s->pc;
        const KOp *o = &g_array_index (s->p->seg[s->seg], KOp, at);
        s->pc++;
        if (o->guard == 0 ||
            s->p->guard (s->p, s->warp, s->iter, o))
            return o;
    }
}

static const Instr *
kstream_next (InstrStream *base)
{
    KStream *s = (KStream *) base;
    if (s->done)
        return NULL;
    const KOp *o = next_op (s);
    if (o == NULL) {
        /* Done for good: a warp that exits before the loop is left at
         * the epilogue, which a mirror's stream, asked again, would
         * otherwise play (its loads and C's stores, for a warp with no
         * row of C). */
        s->done = TRUE;
        if (s->lg_only)
            return NULL;
        instr_init (&s->instr, INSTR_EXIT);
        s->instr.active = s->active;
        return &s->instr;
    }
    /* The fields instr_init set when the stream opened and no operation
     * changes (the control fields) are kept; the others all rewritten,
     * the address ones too, which the last operation may have set:
     * clearing the whole instruction each time, then writing most of it
     * again, was a fifth of this function's instructions. */
    Instr *in = &s->instr;
    in->op = o->op;
    in->addr_mode = INSTR_ADDR_NONE;
    in->addr_base = 0;
    in->addr_stride = 0;
    in->dst = o->dst;
    in->n_dst = o->n_dst;
    in->src[0] = o->src[0];
    in->src[1] = o->src[1];
    in->src[2] = o->src[2];
    in->reuse = o->reuse;
    in->width = o->width;
    in->active = s->active;
    in->loop = s->seg == KGEN_BODY;
    in->has_pc = 1;
    in->pc = s->seg_pc[s->seg] +
             (guint32) (o - (const KOp *) s->p->seg[s->seg]->data) * 16;
    if (o->addr != 0)
        s->p->address (s->p, s->block, s->warp, s->iter, o, in);
    return in;
}

static void
kstream_free (InstrStream *s)
{
    g_free (s);
}

static const InstrStreamOps kstream_ops = { kstream_next, kstream_free };

InstrStream *
kgen_stream_new (const KProgram *p, guint64 block, int warp, guint32 active,
                 guint64 iterations)
{
    /* Zeroed up to its instruction's lane addresses, which an explicit
     * address writes, all 32, before anything reads them: a stream
     * opens for every warp launched, and clearing them too cost the
     * copy benchmark (a launch every 48 instructions) about 5 %. */
    KStream *s = g_malloc (sizeof *s);
    memset (s, 0, offsetof (KStream, instr) + offsetof (Instr, addr));
    s->base.ops = &kstream_ops;
    s->p = p;
    s->block = block;
    s->warp = warp;
    s->active = active;
    s->iterations = iterations;
    /* The program laid out as nvcc lays out a kernel: the segments one
     * after the other, 16 bytes an operation. */
    for (int k = 1; k < KGEN_N_SEGMENTS; k++)
        s->seg_pc[k] = s->seg_pc[k - 1] + p->seg[k - 1]->len * 16;
    instr_init (&s->instr, INSTR_EXIT);
    return &s->base;
}

InstrStream *
kgen_stream_new_exiting (const KProgram *p, guint64 block, int warp)
{
    InstrStream *stream = kgen_stream_new (p, block, warp, 0xffffffffu, 0);
    ((KStream *) stream)->exits = TRUE;
    return stream;
}

gboolean
kgen_stream_plays_loop (const InstrStream *stream)
{
    return stream->ops != &kstream_ops || !((const KStream *) stream)->exits;
}

gboolean
kgen_stream_lg_only (InstrStream *stream)
{
    if (stream->ops != &kstream_ops)
        return FALSE;
    ((KStream *) stream)->lg_only = TRUE;
    return TRUE;
}

gboolean
kgen_stream_window (InstrStream *stream, guint64 iterations,
                    gboolean apply)
{
    KStream *s = (KStream *) stream;
    if (stream->ops != &kstream_ops || s->done || s->seg == KGEN_EPILOGUE ||
        s->iter >= iterations)
        return FALSE;
    if (apply)
        s->iterations = iterations;
    return TRUE;
}

gboolean
kgen_stream_position (const InstrStream *stream, int *segment,
                      guint64 *iteration)
{
    const KStream *s = (const KStream *) stream;
    if (stream->ops != &kstream_ops)
        return FALSE;
    *segment = s->seg;
    *iteration = s->iter;
    return TRUE;
}
