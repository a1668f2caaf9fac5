/*
 * kern_trace.c -- a kernel instance replayed from a trace file.  See
 * kern_trace.h.
 *
 * The instance's model is made for the file (its id is the traced
 * kernel's, so a replay reports like a run of the model) and lives in
 * the instance's data, with the reader.
 */
#include "config.h"

#include "models/kern_trace.h"
#include "models/trace_read.h"

typedef struct {
    KernModel model;
    KernParam params[KERN_MAX_PARAMS];
    char *where;
    TraceReader *reader;
    GArray *block_work;    /* guint64: each block's (kern_block_work_key) */
} TraceKern;

static gboolean
trace_setup (KernInstance *k, const GpuSpec *spec, GError **error)
{
    (void) k;
    (void) spec;
    g_set_error (error, SMSIM_KERN_ERROR, KERN_ERROR_UNKNOWN,
                 "a trace's launch comes from its file: open it with "
                 "`smsim trace replay`");
    return FALSE;
}

static InstrStream *
trace_open_warp (const KernInstance *k, guint64 block, int warp,
                 guint64 iterations)
{
    const TraceKern *t = k->data;
    return trace_reader_open_warp (t->reader, block, warp, iterations);
}

/* A block's work, as the file check counted it (weigh). */
static KernBlockWork
trace_block_work (const KernInstance *k, guint64 block)
{
    const TraceKern *t = k->data;
    guint64 key = block < t->block_work->len
                      ? g_array_index (t->block_work, guint64, block) : 0;
    return kern_block_work_of_key (key);
}

static void
trace_free (void *data)
{
    TraceKern *t = data;
    g_array_unref (t->block_work);
    trace_reader_free (t->reader);
    g_free (t->where);
    g_free (t);
}

static void
fill_instance (KernInstance *k, TraceKern *t, const char *path)
{
    const TraceHead *h = trace_reader_head (t->reader);
    t->model.id = h->kernel;
    t->where = g_strdup_printf ("%s (%s)", path, h->kernel);
    t->model.summary = "replayed from a trace file";
    t->model.params = t->params;
    t->model.n_params = h->n_params;
    t->model.size_help = "the traced kernel's size";
    t->model.setup = trace_setup;
    t->model.open_warp = trace_open_warp;
    t->model.free_data = trace_free;
    t->model.block_work = trace_block_work;
    for (int i = 0; i < h->n_params; i++) {
        KernParam p = { h->param_name[i], h->param_value[i], h->param_value[i],
                        h->param_value[i], "as traced" };
        t->params[i] = p;
        k->param[i] = h->param_value[i];
    }
    k->model = &t->model;
    k->size = h->size;
    k->grid_x = h->grid_x;
    k->grid_y = h->grid_y;
    k->threads = h->threads;
    k->regs = h->regs;
    k->static_smem = h->static_smem;
    k->dyn_smem = h->dyn_smem;
    k->flops = h->flops;
    k->iterations = h->iterations;
    k->data = t;
    k->where = t->where;
}

/* Each block's work (KernBlockWork): its lane-instructions, and its
 * warps that play the main loop's first iteration, as the probe of a
 * sampled run counts them (trace_reader_warp_plays_loop; all, where
 * the loop is empty), and whether the blocks are alike by them: a
 * sampled run times blocks unlike apart (KernInstance.uneven).  Eight
 * bytes a block (kern_block_work_key), held while the trace is open. */
typedef struct {
    guint64 block;
    guint64 lanes;         /* of the block being read */
    guint32 loop_warps;    /* and its warps in iteration 1 */
    guint64 iterations;
    int warps;             /* a block's */
    GArray *blocks;        /* guint64: the work of those read */
    gboolean uneven;
} Weigh;

static void
weigh_done (Weigh *w)
{
    int warps = w->iterations > 0 ? sim_popcount32 (w->loop_warps) : w->warps;
    guint64 key = kern_block_work_key ((KernBlockWork) { w->lanes, warps });
    if (w->block > 0 && key != g_array_index (w->blocks, guint64, 0))
        w->uneven = TRUE;
    g_array_append_val (w->blocks, key);
}

static void
weigh (void *ctx, guint64 block, int warp, guint64 section, const Instr *in)
{
    Weigh *w = ctx;
    while (block > w->block) {      /* blocks with no records weigh 0 */
        weigh_done (w);
        w->block++;
        w->lanes = 0;
        w->loop_warps = 0;
    }
    w->lanes += (guint64) sim_popcount32 (in->active);
    if (section == 1)
        w->loop_warps |= 1u << warp;
}

KernInstance *
kern_trace_open (const char *path, GError **error)
{
    g_autoptr (TraceReader) r = trace_reader_open (path, error);
    g_autoptr (GArray) blocks = g_array_new (FALSE, FALSE, sizeof (guint64));
    if (r == NULL)
        return NULL;
    const TraceHead *h = trace_reader_head (r);
    Weigh w = { .iterations = h->iterations,
                .warps = (int) ((h->threads + 31) / 32), .blocks = blocks };
    if (!trace_reader_scan (r, weigh, &w, error))
        return NULL;
    weigh_done (&w);
    TraceKern *t = g_new0 (TraceKern, 1);
    KernInstance *k = g_new0 (KernInstance, 1);
    t->reader = g_steal_pointer (&r);
    t->block_work = g_steal_pointer (&blocks);
    fill_instance (k, t, path);
    k->uneven = w.uneven;
    return k;
}

gboolean
kern_trace_check (const KernInstance *k, GError **error)
{
    if (k->model->open_warp != trace_open_warp)
        return TRUE;
    return trace_reader_error (((const TraceKern *) k->data)->reader, error);
}

const char *
kern_trace_gpu (const KernInstance *k)
{
    g_assert (k->model->open_warp == trace_open_warp);
    return trace_reader_head (((const TraceKern *) k->data)->reader)->gpu;
}
