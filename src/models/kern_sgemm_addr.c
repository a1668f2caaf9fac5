/*
 * kern_sgemm_addr.c -- the SGEMM models' lane addresses: the tile of C
 * a block computes and a thread's results in it, and where each global
 * and shared load and store of the programs (kern_sgemm.c) goes, lane by
 * lane, as the article's kernels compute it.  See kern_sgemm.h.
 */
#include "config.h"

#include "models/kern_sgemm.h"

/* ------------------------------------------------------------------ */
/* Who computes what                                                   */

static void
block_xy (guint64 grid_x, guint64 block, guint64 *bx, guint64 *by)
{
    *bx = block % grid_x;
    *by = block / grid_x;
}

/* The row and column of the tile a block computes (the article's cRow,
 * cCol; kernel 3 takes cRow from blockIdx.x, the later ones from y). */
static void
block_tile (const Sgemm *g, guint64 bx, guint64 by, guint64 *row0,
            guint64 *col0)
{
    if (g->kernel == 3) {
        *row0 = bx * (guint64) g->bm;
        *col0 = by * (guint64) g->bn;
    } else {
        *row0 = by * (guint64) g->bm;
        *col0 = bx * (guint64) g->bn;
    }
}

/* Thread 'tid''s first result row and column inside the block tile. */
static void
thread_tile (const Sgemm *g, int tid, int *r, int *c)
{
    switch (g->kernel) {
    case 3:
        *r = tid / 32;
        *c = tid % 32;
        return;
    case 4:
        *r = (tid / g->bn) * g->tm;
        *c = tid % g->bn;
        return;
    case 10:
    case 11: {
        /* Warp tile WM x WN in WMITER x WNITER subtiles; a thread's
         * first result in the first subtile. */
        int warp = tid / 32, lane = tid % 32;
        int wsubn = g->wn / g->wniter;
        *r = (warp / (g->bn / g->wn)) * g->wm + (lane / (wsubn / g->tn)) * g->tm;
        *c = (warp % (g->bn / g->wn)) * g->wn + (lane % (wsubn / g->tn)) * g->tn;
        return;
    }
    default:
        *r = (tid / (g->bn / g->tn)) * g->tm;
        *c = (tid % (g->bn / g->tn)) * g->tn;
        return;
    }
}

/* Kernels 1 and 2: a warp's lanes take 32 consecutive rows (kernel 1)
 * or columns (kernel 2) of one column or row of C; past its edge they
 * fail the bounds check. */
guint32
kern_sgemm_naive_lanes (const KProgram *p, guint64 block, int warp)
{
    const Sgemm *g = p->user;
    guint64 bx, by;
    block_xy (p->k->grid_x, block, &bx, &by);
    guint64 lanes_from = g->kernel == 1 ? bx * 32 : by * 32;
    guint64 warp_at = g->kernel == 1 ? by * 32 + (guint64) warp
                                     : bx * 32 + (guint64) warp;
    guint64 lanes_end = g->kernel == 1 ? g->m : g->n;
    guint64 warps_end = g->kernel == 1 ? g->n : g->m;
    if (warp_at >= warps_end)
        return 0;
    guint64 in = MIN (lanes_end - lanes_from, 32);
    return in >= 32 ? 0xffffffffu : (1u << in) - 1;
}

/* ------------------------------------------------------------------ */
/* Addresses                                                           */

/* Tile element that global load 'arg' of thread 'tid' reads (in
 * kernel 11 each half of the block loads whole tiles). */
static void
tile_elem (const Sgemm *g, gboolean is_a, int tid, int arg, int *r, int *c)
{
    int cols = is_a ? g->bk : g->bn;
    int per = vectorized (g) ? 4 : 1;
    int per_row = cols / per;
    int rows_per_pass = g->loaders / per_row;
    tid %= g->loaders;
    *r = tid / per_row + arg * rows_per_pass;
    *c = (tid % per_row) * per;
}

/* Where shared-memory stage 'stage' of As or Bs starts, from the
 * tile's own start. */
static guint64
stage_offset (const Sgemm *g, gboolean is_a, int stage)
{
    return (guint64) stage * (guint64) (is_a ? g->bm * g->bk
                                             : g->bk * g->bs_pitch) * 4;
}

static guint64
as_addr (const Sgemm *g, int r, int c)
{
    /* Kernel 6 on stores As transposed: As[c][r]. */
    return vectorized (g) ? (guint64) (c * g->bm + r) * 4
                          : (guint64) (r * g->bk + c) * 4;
}

static guint64
bs_addr (const Sgemm *g, int r, int c)
{
    guint64 base = (guint64) g->as_bytes;
    if (g->kernel == 7) {
        /* Linearized: element (k, tc * 8 + i) at (k * 8 + i) * 16 + tc. */
        int tc = c / g->tn, i = c % g->tn;
        return base + (guint64) ((r * g->tn + i) * (g->bn / g->tn) + tc) * 4;
    }
    return base + (guint64) (r * g->bs_pitch + c) * 4;
}

/* Lane address of inner-product read 'arg' for thread 'tid': 'arg'
 * encodes the dot step and the piece (see the body builders). */
static guint64
inner_read (const Sgemm *g, gboolean is_a, int tid, int arg)
{
    int r0, c0, d = arg / 64, piece = arg % 64;
    thread_tile (g, tid, &r0, &c0);
    if (is_a) {
        switch (g->kernel) {
        case 3:  /* As[threadRow][d..d+3]: 4 dot steps per LDS.128 */
            return as_addr (g, r0, d);
        case 4:
        case 5:  /* As[row r0 + i][4h]: i = piece / 2, h = piece % 2 */
            return as_addr (g, r0 + piece / 2, (piece % 2) * 4);
        case 10:
        case 11: /* As[d][r0 + wSubRow * WSUBM + 4h], piece = wSubRow * 4 + h */
            return (guint64) (d * g->bm + r0 + (piece / 4) * (g->wm / wmiter (g)) +
                              (piece % 4) * 4) * 4;
        default: /* transposed: As[d][r0 + 4 * piece] */
            return (guint64) (d * g->bm + r0 + piece * 4) * 4;
        }
    }
    switch (g->kernel) {
    case 3:
    case 4:  /* Bs[d][c0] */
        return bs_addr (g, d, c0);
    case 7:  /* scalar reads of the linearized layout */
        return bs_addr (g, d, c0 + piece);
    case 10:
    case 11: /* Bs[d][c0 + wSubCol * WSUBN + 4h], piece = wSubCol * 4 + h */
        return bs_addr (g, d, c0 + (piece / 4) * (g->wn / g->wniter) +
                                  (piece % 4) * 4);
    default: /* Bs[d][c0 + 4 * piece] */
        return bs_addr (g, d, c0 + piece * 4);
    }
}

/* The C element(s) result 'arg' of thread 'tid' covers. */
static guint64
c_addr (const Sgemm *g, guint64 row0, guint64 col0, int tid, int arg)
{
    int r0, c0;
    thread_tile (g, tid, &r0, &c0);
    int per = vectorized (g) ? 4 : 1;
    int cols = g->kernel == 3 ? 1 : g->kernel == 4 ? 1 : g->tn / per;
    int i = arg / cols, j = (arg % cols) * per;
    if (g->kernel >= 10) {
        int wsubm = g->wm / wmiter (g), wsubn = g->wn / g->wniter;
        int per_sub = g->tm * (g->tn / 4);
        int sub = arg / per_sub, rest = arg % per_sub;
        r0 += (sub / g->wniter) * wsubm + rest / (g->tn / 4);
        c0 += (sub % g->wniter) * wsubn + (rest % (g->tn / 4)) * 4;
        return g->c + ((row0 + (guint64) r0) * g->n + col0 + (guint64) c0) * 4;
    }
    return g->c + ((row0 + (guint64) (r0 + i)) * g->n + col0 + (guint64) (c0 + j)) * 4;
}

/* Each is a part that depends on the block and iteration alone plus
 * one that depends on the thread alone (kgen_program_new_lanes): kgen
 * tables the latter once (the divisions in thread_tile dominated
 * simulation before). */
guint64
kern_sgemm_lane_addr (const KProgram *p, guint64 block, int tid,
                      guint64 iter, const KOp *op)
{
    const Sgemm *g = p->user;
    guint64 bx, by, row0, col0;
    int r, c;
    block_xy (p->k->grid_x, block, &bx, &by);
    block_tile (g, bx, by, &row0, &col0);
    int warp = tid / 32, lane = tid % 32;
    int arg = ARG_LOW (op->arg), above = op->arg >> ARG_SHIFT;
    guint64 k0 = (iter * (guint64) g->stages + (guint64) above) *
                 (guint64) (g->kernel <= 2 ? 16 : g->bk);
    /* Kernels 1 and 2: step k of the loop, or of the tail after it. */
    guint64 kk = (g->kernel <= 2 && above ? g->slices * 16 : iter * 16) +
                 (guint64) arg;
    switch (op->addr) {
    case AD_A_ROW:
        return g->a + ((bx * 32 + (guint64) lane) * g->k + kk) * 4;
    case AD_B_BCAST:
        return g->b + (kk * g->n + by * 32 + (guint64) warp) * 4;
    case AD_A_BCAST:
        return g->a + ((bx * 32 + (guint64) warp) * g->k + kk) * 4;
    case AD_B_ROW:
        return g->b + (kk * g->n + by * 32 + (guint64) lane) * 4;
    case AD_C:
        if (g->kernel == 1)
            return g->c + ((bx * 32 + (guint64) lane) * g->n + by * 32 + (guint64) warp) * 4;
        if (g->kernel == 2)
            return g->c + ((bx * 32 + (guint64) warp) * g->n + by * 32 + (guint64) lane) * 4;
        return c_addr (g, row0, col0, tid, op->arg);
    case AD_A_TILE:
        tile_elem (g, TRUE, tid, arg, &r, &c);
        return g->a + ((row0 + (guint64) r) * g->k + k0 + (guint64) c) * 4;
    case AD_B_TILE:
        tile_elem (g, FALSE, tid, arg, &r, &c);
        return g->b + ((k0 + (guint64) r) * g->n + col0 + (guint64) c) * 4;
    case AD_AS_STORE:
        /* arg: load * 4 + component (transposed stores are scalar). */
        tile_elem (g, TRUE, tid, arg / 4, &r, &c);
        return stage_offset (g, TRUE, above) + as_addr (g, r, c + arg % 4);
    case AD_BS_STORE:
        tile_elem (g, FALSE, tid, arg / 4, &r, &c);
        return stage_offset (g, FALSE, above) + bs_addr (g, r, c + arg % 4);
    case AD_AS_LOAD:
        return stage_offset (g, TRUE, above) + inner_read (g, TRUE, tid, arg);
    case AD_BS_LOAD:
        return stage_offset (g, FALSE, above) + inner_read (g, FALSE, tid, arg);
    }
    g_assert_not_reached ();
}

/* Kernel 11: does 'warp' play 'op' in iteration 'iter'?  Iteration i
 * holds slices 2i (stage 0) and 2i + 1 (stage 1, missing in the last
 * iteration when K / BK is odd); a slice's loads are played by the half
 * of the block that owns its stage, if the slice is inside K. */
gboolean
kern_sgemm_guard (const KProgram *p, int warp, guint64 iter, const KOp *op)
{
    const Sgemm *g = p->user;
    gboolean load = op->guard < GD_COMPUTE;
    guint64 slice = 2 * iter + (guint64) (op->guard - (load ? GD_LOAD
                                                            : GD_COMPUTE));
    if (slice >= g->slices)
        return FALSE;
    return !load || (warp * 32 >= g->loaders) == (slice % 2 == 1);
}
