/*
 * bank.c -- shared-memory bank conflicts.  See bank.h.
 *
 * Per phase: if the lowest and highest word touched are less than
 * n_banks apart, the phase is one wavefront (found in O(1) for the
 * stride form).  Otherwise gather the distinct words its active lanes
 * touch (a list kept sorted by insertion, which moves nothing for
 * addresses in order) and count them per bank; the busiest bank sets the
 * phase's wavefronts.  Counting distinct words, not lanes, is what makes
 * a broadcast free.
 */
#include "config.h"

#include "sim/bank.h"

/* Most words one phase can touch: 32 lanes, each at most 16 bytes,
 * which with 1-byte banks and a misaligned start is 17 words. */
#define MAX_PHASE_WORDS (32 * 17)

typedef struct {
    int n_banks;
    int bank_bytes;
    int bank_shift;       /* log2 (bank_bytes) */
    int width;            /* bytes per lane */
} Banks;

typedef struct {
    guint64 word[MAX_PHASE_WORDS];
    int n;
} WordSet;

/* instr_lane_addr, inlined: it runs for every lane of every shared
 * access.  test-bank's reference, which calls instr_lane_addr, checks
 * the two agree on random stride-form accesses. */
static inline guint64
lane_addr (const Instr *instr, int lane)
{
    if (instr->addr_mode == INSTR_ADDR_EXPLICIT)
        return instr->addr[lane];
    return instr->addr_base + (guint64) ((gint64) lane * instr->addr_stride);
}

/* The word after the last one lane access [addr, addr + width) overlaps:
 * it covers 1 word for an 8/16/32-bit access, 2 or 4 consecutive ones
 * for 64/128-bit. */
static inline guint64
lane_end_word (guint64 addr, const Banks *b)
{
    int offset = (int) (addr & (guint64) (b->bank_bytes - 1));
    return (addr >> b->bank_shift) +
           (guint64) (((offset + b->width - 1) >> b->bank_shift) + 1);
}

/* The lowest and highest word of 'lanes' in O(1): in the stride form the
 * address moves monotonically with the lane, so the extremes are at the
 * extreme lanes -- unless the address space wraps on the way, which a
 * stride of at most 2^20 can only do if the end lands below the start. */
static gboolean
stride_range (const Instr *instr, guint32 lanes, const Banks *b,
              guint64 *lo, guint64 *hi)
{
    gint64 stride = instr->addr_stride;
    if (instr->addr_mode == INSTR_ADDR_EXPLICIT || stride > (1 << 20) ||
        stride < -(1 << 20))
        return FALSE;
    guint64 a = lane_addr (instr, __builtin_ctz (lanes));
    guint64 z = lane_addr (instr, 31 - __builtin_clz (lanes));
    guint64 low = stride >= 0 ? a : z, high = stride >= 0 ? z : a;
    if (high < low)
        return FALSE;
    *lo = low >> b->bank_shift;
    *hi = lane_end_word (high, b) - 1;
    return TRUE;
}

/* The same by looking at every lane. */
static void
scan_range (const Instr *instr, guint32 lanes, const Banks *b, guint64 *lo,
            guint64 *hi)
{
    *lo = G_MAXUINT64;
    *hi = 0;
    for (guint32 m = lanes; m != 0; m &= m - 1) {
        guint64 addr = lane_addr (instr, __builtin_ctz (m));
        *lo = MIN (*lo, addr >> b->bank_shift);
        *hi = MAX (*hi, lane_end_word (addr, b) - 1);
    }
}

/* Add 'w' to the sorted set unless it is there already. */
static inline void
add_word (WordSet *s, guint64 w)
{
    int i = s->n;
    while (i > 0 && s->word[i - 1] > w)
        i--;
    if (i > 0 && s->word[i - 1] == w)
        return;
    g_assert (s->n < MAX_PHASE_WORDS);
    for (int j = s->n; j > i; j--)
        s->word[j] = s->word[j - 1];
    s->word[i] = w;
    s->n++;
}

/* Add the words one lane's access overlaps. */
static inline void
add_lane (WordSet *s, const Instr *instr, int lane, const Banks *b)
{
    guint64 addr = lane_addr (instr, lane);
    guint64 end = lane_end_word (addr, b);
    for (guint64 w = addr >> b->bank_shift; w != end; w++)
        add_word (s, w);
}

/* The largest number of distinct words any one bank holds in 's'. */
static int
worst_bank (const WordSet *s, int n_banks)
{
    int count[BANK_MAX_BANKS] = { 0 };
    int worst = 0;
    /* A mask for the usual power-of-two bank count: a 64-bit division
     * per word was visible in the profile. */
    gboolean pow2 = (n_banks & (n_banks - 1)) == 0;
    for (int i = 0; i < s->n; i++) {
        int b = pow2 ? (int) (s->word[i] & (guint64) (n_banks - 1))
                     : (int) (s->word[i] % (guint64) n_banks);
        count[b]++;
        worst = MAX (worst, count[b]);
    }
    return worst;
}

/* Wavefronts of one phase: the active lanes in 'lanes'.  First only the
 * lowest and highest word: when they are less than n_banks apart (a row,
 * a broadcast, consecutive vectors) no bank can hold two distinct words,
 * and the phase is one wavefront without sorting anything. */
static int
phase_wavefronts (const Instr *instr, guint32 lanes, const Banks *b)
{
    guint64 lo, hi;
    if (!stride_range (instr, lanes, b, &lo, &hi))
        scan_range (instr, lanes, b, &lo, &hi);
    if (hi - lo < (guint64) b->n_banks)
        return 1;

    /* Collect the words in ascending order when a negative stride makes
     * that the last lane first: the insertion then moves nothing. */
    WordSet s;
    s.n = 0;
    guint32 m = lanes;
    if (instr->addr_mode != INSTR_ADDR_EXPLICIT && instr->addr_stride < 0) {
        for (; m != 0; m &= ~(0x80000000u >> __builtin_clz (m)))
            add_lane (&s, instr, 31 - __builtin_clz (m), b);
    } else {
        for (; m != 0; m &= m - 1)
            add_lane (&s, instr, __builtin_ctz (m), b);
    }
    return worst_bank (&s, b->n_banks);
}

void
bank_access (const Instr *instr, int n_banks, int bank_bytes, BankResult *out)
{
    g_assert (n_banks >= 1 && n_banks <= BANK_MAX_BANKS);
    g_assert (bank_bytes > 0 && (bank_bytes & (bank_bytes - 1)) == 0);
    g_assert (instr->width >= 1 && instr->width <= 16);

    const Banks b = { n_banks, bank_bytes,
                      g_bit_nth_lsf ((gulong) bank_bytes, -1), instr->width };
    /* A lane access of k words; a phase serves n_banks / k lanes, so a
     * conflict-free phase delivers at most one word per bank. */
    const int k = MAX (1, instr->width / bank_bytes);
    const int lanes_per_phase = CLAMP (n_banks / k, 1, 32);

    out->wavefronts = 0;
    out->ideal = 0;
    for (int first = 0; first < 32; first += lanes_per_phase) {
        guint32 span = (guint32) (((G_GUINT64_CONSTANT (1) << lanes_per_phase)
                                   - 1) << first);
        guint32 lanes = instr->active & span;
        if (lanes == 0)
            continue;
        out->ideal++;
        out->wavefronts += phase_wavefronts (instr, lanes, &b);
    }
    out->conflicts = out->wavefronts - out->ideal;
}
