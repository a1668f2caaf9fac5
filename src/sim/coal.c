/*
 * coal.c -- the coalescer.  See coal.h.
 *
 * The general path: each active lane adds one or two (line, sector mask)
 * pieces to a list kept sorted by line address; a piece for a line
 * already in the list ORs its sectors in.  Lanes usually walk addresses
 * in order, so a piece almost always merges with or goes above the
 * highest line so far, which is kept out of the array (in registers);
 * only a lower line pays for the insertion sort.  No hash table, no
 * allocation.
 *
 * The fast path: a stride-form access whose active lanes are one run and
 * whose stride is at most the width (consecutive or repeated elements,
 * the common coalesced case) touches one contiguous byte range, so its
 * lines come out of the range's two ends in O(lines), not O(lanes).
 */
#include "config.h"

#include "sim/coal.h"

/* instr_lane_addr, inlined: it runs for every lane of every memory
 * instruction, and the call alone was a third of coal_access's time.
 * test-coal checks the two agree (stride_and_explicit_forms_agree). */
static inline guint64
lane_addr (const Instr *instr, int lane)
{
    if (instr->addr_mode == INSTR_ADDR_EXPLICIT)
        return instr->addr[lane];
    return instr->addr_base + (guint64) lane * (guint64) instr->addr_stride;
}

/* Sectors first..last (0..31, first <= last) as a mask.  2u << 31 is 0
 * in unsigned arithmetic, so last = 31 needs no special case. */
static inline guint32
sector_span (int first, int last)
{
    return (guint32) (2u << last) - (guint32) (1u << first);
}

/* The list being built: out->line_addr/line_sectors[0..n) in ascending
 * order, all below 'top', the highest line so far, which is kept in
 * registers until a higher one comes (the common case only ever
 * compares with it: no store-to-load chain through 'out'). */
typedef struct {
    CoalResult *out;
    int n;
    gboolean have_top;
    guint64 top;
    guint32 top_sectors;
} LineList;

/* Insert a line below 'top' into the stored part, merging if present. */
static void
insert_below (LineList *l, guint64 line, guint32 sectors)
{
    CoalResult *out = l->out;
    int i = l->n;
    while (i > 0 && out->line_addr[i - 1] > line)
        i--;
    if (i > 0 && out->line_addr[i - 1] == line) {
        out->line_sectors[i - 1] |= sectors;
        return;
    }
    g_assert (l->n + 1 < COAL_MAX_LINES);   /* room for 'top' too */
    for (int j = l->n; j > i; j--) {
        out->line_addr[j] = out->line_addr[j - 1];
        out->line_sectors[j] = out->line_sectors[j - 1];
    }
    out->line_addr[i] = line;
    out->line_sectors[i] = sectors;
    l->n++;
}

static inline void
add_piece (LineList *l, guint64 line, guint32 sectors)
{
    if (l->have_top && line == l->top) {
        l->top_sectors |= sectors;
    } else if (l->have_top && line < l->top) {
        insert_below (l, line, sectors);
    } else {
        if (l->have_top) {
            g_assert (l->n < COAL_MAX_LINES);
            l->out->line_addr[l->n] = l->top;
            l->out->line_sectors[l->n++] = l->top_sectors;
        }
        l->have_top = TRUE;
        l->top = line;
        l->top_sectors = sectors;
    }
}

/* Add bytes first..last (inclusive), at most two lines apart.  'last'
 * may have wrapped past 2^64 - 1 to a low address: it is then simply in
 * another line, which add_piece sorts like any other. */
static inline void
add_bytes (LineList *l, guint64 first, guint64 last, const CoalGeometry *g)
{
    const guint64 line_mask = ~(guint64) 0 << g->line_shift;
    guint64 line_a = first & line_mask, line_b = last & line_mask;
    int sec_a = (int) ((first & ~line_mask) >> g->sector_shift);
    int sec_b = (int) ((last & ~line_mask) >> g->sector_shift);

    if (line_a == line_b) {
        add_piece (l, line_a, sector_span (sec_a, sec_b));
        return;
    }
    /* Straddles a line boundary: the tail of one, the head of the next. */
    add_piece (l, line_a, sector_span (sec_a, g->last_sector));
    add_piece (l, line_b, sector_span (0, sec_b));
}

static inline void
add_lane (LineList *l, const Instr *instr, int lane, const CoalGeometry *g)
{
    guint64 addr = lane_addr (instr, lane);
    add_bytes (l, addr, addr + (guint64) instr->width - 1, g);
}

/* out->sectors, line by line (add_line_per_lane needs no loop). */
static void
count_sectors (CoalResult *out)
{
    for (int i = 0; i < out->lines; i++)
        out->sectors += sim_popcount32 (out->line_sectors[i]);
}

/* The general path: every active lane in turn, from the last lane down
 * when a negative stride makes that the ascending order (two loops: a
 * direction test inside one doubled its time). */
static void
add_lanes (CoalResult *out, const Instr *instr, const CoalGeometry *g)
{
    LineList l = { out, 0, FALSE, 0, 0 };
    guint32 m = instr->active;
    if (instr->addr_mode != INSTR_ADDR_EXPLICIT && instr->addr_stride < 0) {
        for (; m != 0; m &= ~(0x80000000u >> __builtin_clz (m)))
            add_lane (&l, instr, 31 - __builtin_clz (m), g);
    } else {
        for (; m != 0; m &= m - 1)
            add_lane (&l, instr, __builtin_ctz (m), g);
    }
    if (l.have_top) {
        out->line_addr[l.n] = l.top;
        out->line_sectors[l.n++] = l.top_sectors;
    }
    out->lines = l.n;
    count_sectors (out);
}

/* The fast path, if it applies: the active lanes are one run lo..hi, the
 * stride form's |stride| <= width leaves no gap between neighbours, and
 * the range does not wrap.  Returns whether it did the work. */
static gboolean
add_contiguous (CoalResult *out, const Instr *instr, const CoalGeometry *g)
{
    guint32 active = instr->active;
    gint64 stride = instr->addr_stride;
    if (instr->addr_mode == INSTR_ADDR_EXPLICIT ||
        stride > instr->width || stride < -(gint64) instr->width)
        return FALSE;
    int lo = __builtin_ctz (active), hi = 31 - __builtin_clz (active);
    if ((active >> lo) != (2u << (hi - lo)) - 1u)
        return FALSE;                       /* not one run of lanes */
    guint64 first = lane_addr (instr, stride >= 0 ? lo : hi);
    guint64 last = lane_addr (instr, stride >= 0 ? hi : lo) +
                   (guint64) instr->width - 1;
    if (last < first)
        return FALSE;                       /* wraps past 2^64 - 1 */

    const guint64 line_mask = ~(guint64) 0 << g->line_shift;
    guint64 line = first & line_mask, end = last & line_mask;
    int sec = (int) ((first & ~line_mask) >> g->sector_shift);
    for (; line != end; line += (guint64) 1 << g->line_shift, sec = 0) {
        out->line_addr[out->lines] = line;
        out->line_sectors[out->lines++] = sector_span (sec, g->last_sector);
    }
    out->line_addr[out->lines] = end;
    out->line_sectors[out->lines++] = sector_span (
        sec, (int) ((last & ~line_mask) >> g->sector_shift));
    count_sectors (out);
    return TRUE;
}

/* The fast path for a stride of whole lines (each lane its own row of
 * a row-major matrix: a naive kernel's uncoalesced loads, which made
 * the general path a fifth of a whole-GPU run): every active lane in a
 * line of its own, all at one offset in it, ascending.  Returns whether
 * it did the work. */
static gboolean
add_line_per_lane (CoalResult *out, const Instr *instr, const CoalGeometry *g)
{
    gint64 stride = instr->addr_stride;
    guint64 line_bytes = (guint64) 1 << g->line_shift;
    guint64 offset = instr->addr_base & (line_bytes - 1);
    if (instr->addr_mode == INSTR_ADDR_EXPLICIT || stride <= 0 ||
        stride > G_MAXINT64 / 32 || ((guint64) stride & (line_bytes - 1)) ||
        offset + (guint64) instr->width > line_bytes)
        return FALSE;
    int lo = __builtin_ctz (instr->active), hi = 31 - __builtin_clz (instr->active);
    if (lane_addr (instr, hi) < lane_addr (instr, lo))
        return FALSE;                       /* wraps past 2^64 - 1 */
    guint32 sectors = sector_span ((int) (offset >> g->sector_shift),
                                   (int) ((offset + (guint64) instr->width - 1) >>
                                          g->sector_shift));
    guint64 first = instr->addr_base - offset;
    if (instr->active == 0xffffffffu) {
        /* Every lane, as in most requests: a plain count, not a scan of
         * the mask's bits (a third of this loop's instructions). */
        for (int lane = 0; lane < 32; lane++) {
            out->line_addr[lane] = first + (guint64) lane * (guint64) stride;
            out->line_sectors[lane] = sectors;
        }
        out->lines = 32;
    } else {
        for (guint32 m = instr->active; m != 0; m &= m - 1) {
            int lane = __builtin_ctz (m);
            out->line_addr[out->lines] = first + (guint64) lane * (guint64) stride;
            out->line_sectors[out->lines++] = sectors;
        }
    }
    /* Every line the same sectors: counted at once, not line by line. */
    out->sectors = out->lines * sim_popcount32 (sectors);
    return TRUE;
}

void
coal_geometry_init (CoalGeometry *g, int line_bytes, int sector_bytes)
{
    g_assert (line_bytes > 0 && (line_bytes & (line_bytes - 1)) == 0);
    g_assert (sector_bytes > 0 && (sector_bytes & (sector_bytes - 1)) == 0);
    g_assert (sector_bytes <= line_bytes && line_bytes / sector_bytes <= 32);
    g->line_shift = sim_log2 ((guint64) line_bytes);
    g->sector_shift = sim_log2 ((guint64) sector_bytes);
    g->last_sector = (line_bytes >> g->sector_shift) - 1;
}

void
coal_access_in (const Instr *instr, const CoalGeometry *g, CoalResult *out)
{
    g_assert (instr->width >= 1 && instr->width <= 1 << g->line_shift);
    out->sectors = 0;
    out->lines = 0;
    out->bytes = (guint64) sim_popcount32 (instr->active) * instr->width;
    if (instr->active == 0)
        return;
    if (!add_contiguous (out, instr, g) && !add_line_per_lane (out, instr, g))
        add_lanes (out, instr, g);
}

void
coal_access (const Instr *instr, int line_bytes, int sector_bytes,
             CoalResult *out)
{
    CoalGeometry g;
    coal_geometry_init (&g, line_bytes, sector_bytes);
    coal_access_in (instr, &g, out);
}
