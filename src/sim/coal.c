/*
 * coal.c -- the coalescer.  See coal.h.
 *
 * Each active lane adds one or two (line, sector mask) pieces to a list
 * kept sorted by line address; a piece for a line already in the list
 * ORs its sectors in.  Lanes usually walk addresses in order, so a new
 * piece almost always lands at (or merges with) the list's end and the
 * insertion sort does no moving: no hash table, no allocation.
 */
#include "config.h"

#include "sim/coal.h"

/* log2 of a power of two. */
static int
log2_of (int pow2)
{
    return g_bit_nth_lsf ((gulong) pow2, -1);
}

/* Sectors first..last (0..31, first <= last) as a mask.  2u << 31 is 0
 * in unsigned arithmetic, so last = 31 needs no special case. */
static inline guint32
sector_span (int first, int last)
{
    return (guint32) (2u << last) - (guint32) (1u << first);
}

/* instr_lane_addr, inlined: it runs for every lane of every memory
 * instruction, and the call alone was a third of coal_access's time.
 * test-coal checks the two agree (stride_and_explicit_forms_agree). */
static inline guint64
lane_addr (const Instr *instr, int lane)
{
    if (instr->addr_mode == INSTR_ADDR_EXPLICIT)
        return instr->addr[lane];
    return instr->addr_base + (guint64) ((gint64) lane * instr->addr_stride);
}

/* Merge 'sectors' of 'line' into the sorted list of 'out'. */
static inline void
add_piece (CoalResult *out, guint64 line, guint32 sectors)
{
    int i = out->lines;
    while (i > 0 && out->line_addr[i - 1] > line)
        i--;
    if (i > 0 && out->line_addr[i - 1] == line) {
        out->line_sectors[i - 1] |= sectors;
        return;
    }
    g_assert (out->lines < COAL_MAX_LINES);
    for (int j = out->lines; j > i; j--) {
        out->line_addr[j] = out->line_addr[j - 1];
        out->line_sectors[j] = out->line_sectors[j - 1];
    }
    out->line_addr[i] = line;
    out->line_sectors[i] = sectors;
    out->lines++;
}

/* Add one lane's bytes first..last (inclusive; at most two lines apart,
 * since width <= line_bytes).  'last' may wrap past 2^64 - 1 to a low
 * address: then it is simply in another line, which is handled below. */
static inline void
add_lane (CoalResult *out, guint64 first, guint64 last, int line_shift,
          int sector_shift)
{
    const guint64 line_mask = ~(guint64) 0 << line_shift;
    const guint64 offset_mask = ~line_mask;
    guint64 line_a = first & line_mask, line_b = last & line_mask;
    int sec_a = (int) ((first & offset_mask) >> sector_shift);
    int sec_b = (int) ((last & offset_mask) >> sector_shift);

    if (line_a == line_b) {
        add_piece (out, line_a, sector_span (sec_a, sec_b));
        return;
    }
    /* Straddles a line boundary: the tail of one line, the head of the
     * next. */
    int last_sector = (1 << (line_shift - sector_shift)) - 1;
    add_piece (out, line_a, sector_span (sec_a, last_sector));
    add_piece (out, line_b, sector_span (0, sec_b));
}

void
coal_access (const Instr *instr, int line_bytes, int sector_bytes,
             CoalResult *out)
{
    g_assert (line_bytes > 0 && (line_bytes & (line_bytes - 1)) == 0);
    g_assert (sector_bytes > 0 && (sector_bytes & (sector_bytes - 1)) == 0);
    g_assert (sector_bytes <= line_bytes && line_bytes / sector_bytes <= 32);
    g_assert (instr->width >= 1 && instr->width <= line_bytes);

    const int line_shift = log2_of (line_bytes);
    const int sector_shift = log2_of (sector_bytes);
    const guint64 width = instr->width;
    guint32 active = instr->active;

    out->sectors = 0;
    out->lines = 0;
    out->bytes = (guint64) __builtin_popcount (active) * width;
    while (active != 0) {
        int lane = __builtin_ctz (active);
        active &= active - 1;
        guint64 addr = lane_addr (instr, lane);
        add_lane (out, addr, addr + width - 1, line_shift, sector_shift);
    }
    for (int i = 0; i < out->lines; i++)
        out->sectors += __builtin_popcount (out->line_sectors[i]);
}
