/*
 * trace_info.c -- count a trace's instructions.  See trace_info.h.
 */
#include "config.h"

#include "models/trace_info.h"

static int
width_class (int bytes)
{
    int c = 0;
    while (bytes > 0) {
        c++;
        bytes >>= 1;
    }
    return MIN (c, TRACE_N_WIDTHS - 1);
}

int
trace_info_width (int w)
{
    return w == 0 ? 0 : 1 << (w - 1);
}

const char *
trace_info_space_name (TraceSpace s)
{
    static const char *const names[TRACE_N_SPACES] = {
        "global loads", "global stores", "shared loads", "shared stores"
    };
    return names[s];
}

void
trace_info_add (void *ctx, guint64 block, int warp, guint64 section,
                const Instr *in)
{
    TraceInfo *t = ctx;
    (void) block;
    (void) warp;
    (void) section;
    guint64 lanes = (guint64) sim_popcount32 (in->active);
    guint64 bytes = lanes * in->width;
    t->warp_instructions++;
    t->by_op[in->op][width_class (in->width)]++;
    t->flops += (double) (lanes * instr_info ((InstrOp) in->op)->flops);
    switch ((InstrOp) in->op) {
    case INSTR_LDG:
        t->bytes[TRACE_GLOBAL_LOAD] += bytes;
        break;
    case INSTR_STG:
        t->bytes[TRACE_GLOBAL_STORE] += bytes;
        break;
    case INSTR_LDS:
        t->bytes[TRACE_SHARED_LOAD] += bytes;
        break;
    case INSTR_STS:
        t->bytes[TRACE_SHARED_STORE] += bytes;
        break;
    case INSTR_LDGSTS:
        /* An async copy reads global memory and writes shared memory. */
        t->bytes[TRACE_GLOBAL_LOAD] += bytes;
        t->bytes[TRACE_SHARED_STORE] += bytes;
        break;
    case INSTR_BAR:
        t->barriers++;
        break;
    default:
        break;
    }
}
