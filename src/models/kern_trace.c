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
    GArray *block_lanes;   /* guint64: each block's lane-instructions */
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

/* A block's lane-instructions, as the file check counted them (its
 * warps, all of them: a trace does not say which take part). */
static KernBlockWork
trace_block_work (const KernInstance *k, guint64 block)
{
    const TraceKern *t = k->data;
    guint64 lanes = block < t->block_lanes->len
                        ? g_array_index (t->block_lanes, guint64, block) : 0;
    return (KernBlockWork) { lanes, kern_warps (k) };
}

static void
trace_free (void *data)
{
    TraceKern *t = data;
    g_array_unref (t->block_lanes);
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

/* Each block's lane-instructions, and whether the blocks are alike by
 * them: a sampled run times blocks unlike apart (KernInstance.uneven).
 * Eight bytes a block, held while the trace is open. */
typedef struct {
    guint64 block;
    guint64 lanes;         /* of the block being read */
    GArray *blocks;        /* guint64: the lanes of those read */
    gboolean uneven;
} Weigh;

static void
weigh_done (Weigh *w)
{
    if (w->block > 0 &&
        w->lanes != g_array_index (w->blocks, guint64, 0))
        w->uneven = TRUE;
    g_array_append_val (w->blocks, w->lanes);
}

static void
weigh (void *ctx, guint64 block, const Instr *in)
{
    Weigh *w = ctx;
    while (block > w->block) {      /* blocks with no records weigh 0 */
        weigh_done (w);
        w->block++;
        w->lanes = 0;
    }
    w->lanes += (guint64) sim_popcount32 (in->active);
}

KernInstance *
kern_trace_open (const char *path, GError **error)
{
    g_autoptr (TraceReader) r = trace_reader_open (path, error);
    g_autoptr (GArray) blocks = g_array_new (FALSE, FALSE, sizeof (guint64));
    Weigh w = { 0, 0, blocks, FALSE };
    if (r == NULL || !trace_reader_scan (r, weigh, &w, error))
        return NULL;
    weigh_done (&w);
    TraceKern *t = g_new0 (TraceKern, 1);
    KernInstance *k = g_new0 (KernInstance, 1);
    t->reader = g_steal_pointer (&r);
    t->block_lanes = g_steal_pointer (&blocks);
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
