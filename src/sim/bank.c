/*
 * bank.c -- shared-memory bank conflicts.  See bank.h.
 *
 * Per phase: if the lowest and highest word touched are less than
 * n_banks apart, the phase is one wavefront (found in O(1) for the
 * stride form).  Otherwise gather the distinct words its active lanes
 * touch (chained per bank: a word is looked for only among its bank's)
 * and count them per bank; the busiest bank sets the phase's
 * wavefronts.  Counting distinct words, not lanes, is what makes
 * a broadcast free.
 */
#include "config.h"

#include <string.h>

#include "sim/bank.h"

/* Most words one phase can touch: 32 lanes, each at most 16 bytes,
 * which with 1-byte banks and a misaligned start is 17 words. */
#define MAX_PHASE_WORDS (32 * 17)

typedef struct {
    int n_banks;
    int bank_bytes;
    int bank_shift;       /* log2 (bank_bytes) */
    int width;            /* bytes per lane */
    gboolean pow2;        /* n_banks is a power of two: mask, not divide */
} Banks;

/* The distinct words of one phase, chained per bank. */
typedef struct {
    guint64 word[MAX_PHASE_WORDS];
    int next[MAX_PHASE_WORDS];      /* next word of the same bank, or -1 */
    int n;
    int head[BANK_MAX_BANKS];       /* first word of each bank, or -1 */
    int count[BANK_MAX_BANKS];      /* distinct words per bank */
    int worst;                      /* the largest count */
} WordSet;

/* instr_lane_addr, inlined: it runs for every lane of every shared
 * access.  test-bank's reference, which calls instr_lane_addr, checks
 * the two agree on random stride-form accesses. */
static inline guint64
lane_addr (const Instr *instr, int lane)
{
    if (instr->addr_mode == INSTR_ADDR_EXPLICIT)
        return instr->addr[lane];
    return instr->addr_base + (guint64) lane * (guint64) instr->addr_stride;
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

/* Count 'w' in its bank unless the phase has it already.  A bank
 * rarely holds more than a few words, so the chain is short. */
static inline void
add_word (WordSet *s, guint64 w, const Banks *b)
{
    int bank = b->pow2 ? (int) (w & (guint64) (b->n_banks - 1))
                       : (int) (w % (guint64) b->n_banks);
    for (int i = s->head[bank]; i >= 0; i = s->next[i])
        if (s->word[i] == w)
            return;
    g_assert (s->n < MAX_PHASE_WORDS);
    s->word[s->n] = w;
    s->next[s->n] = s->head[bank];
    s->head[bank] = s->n++;
    s->count[bank]++;
    s->worst = MAX (s->worst, s->count[bank]);
}

/* Add the words one lane's access overlaps. */
static inline void
add_lane (WordSet *s, const Instr *instr, int lane, const Banks *b)
{
    guint64 addr = lane_addr (instr, lane);
    guint64 end = lane_end_word (addr, b);
    for (guint64 w = addr >> b->bank_shift; w != end; w++)
        add_word (s, w, b);
}

/* Wavefronts of one phase: the active lanes in 'lanes'; its ideal, the
 * distinct words over n_banks rounded up, in '*ideal'.  First only the
 * lowest and highest word: when they are less than n_banks apart (a row,
 * a broadcast, consecutive vectors) no bank can hold two distinct words,
 * and the phase is one wavefront without counting anything. */
static int
phase_wavefronts (const Instr *instr, guint32 lanes, const Banks *b,
                  int *ideal)
{
    guint64 lo, hi;
    if (!stride_range (instr, lanes, b, &lo, &hi))
        scan_range (instr, lanes, b, &lo, &hi);
    *ideal = 1;
    if (hi - lo < (guint64) b->n_banks)
        return 1;

    WordSet s;
    s.n = s.worst = 0;
    for (int i = 0; i < b->n_banks; i++) {
        s.head[i] = -1;
        s.count[i] = 0;
    }
    for (guint32 m = lanes; m != 0; m &= m - 1)
        add_lane (&s, instr, __builtin_ctz (m), b);
    *ideal = (s.n + b->n_banks - 1) / b->n_banks;
    return s.worst;
}

void
bank_access (const Instr *instr, int n_banks, int bank_bytes,
             gboolean merge_phases, BankResult *out)
{
    g_assert (n_banks >= 1 && n_banks <= BANK_MAX_BANKS);
    g_assert (bank_bytes > 0 && (bank_bytes & (bank_bytes - 1)) == 0);
    g_assert (instr->width >= 1 && instr->width <= 16);

    const Banks b = { n_banks, bank_bytes,
                      sim_log2 ((guint64) bank_bytes), instr->width,
                      (n_banks & (n_banks - 1)) == 0 };
    /* A lane access of k words; a phase serves n_banks / k lanes, so a
     * conflict-free phase delivers at most one word per bank. */
    const int k = MAX (1, instr->width / bank_bytes);
    const int lanes_per_phase = merge_phases ? 32
                                             : CLAMP (n_banks / k, 1, 32);

    out->wavefronts = 0;
    out->ideal = 0;
    for (int first = 0; first < 32; first += lanes_per_phase) {
        guint32 span = (guint32) (((G_GUINT64_CONSTANT (1) << lanes_per_phase)
                                   - 1) << first);
        guint32 lanes = instr->active & span;
        if (lanes == 0)
            continue;
        int ideal;
        out->wavefronts += phase_wavefronts (instr, lanes, &b, &ideal);
        out->ideal += merge_phases ? ideal : 1;
    }
    out->conflicts = out->wavefronts - out->ideal;
}

/* ------------------------------------------------------------------ */
/* The memo                                                            */

void
bank_memo_init (BankMemo *m, int n_banks, int bank_bytes,
                gboolean merge_phases)
{
    memset (m, 0, sizeof *m);
    m->n_banks = n_banks;
    m->bank_bytes = bank_bytes;
    m->merge_phases = merge_phases;
}

/* The key of 'instr' in 'e' (all but the result); returns its hash,
 * never 0. */
static guint64
memo_key (const BankMemo *m, const Instr *instr, BankMemoEntry *e)
{
    int first = __builtin_ctz (instr->active);
    guint64 ref = lane_addr (instr, first);
    guint64 h = (guint64) instr->active * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^
                (guint64) instr->width << 40;
    e->active = instr->active;
    e->width = instr->width;
    e->low = (guint8) (ref & (guint64) (m->bank_bytes - 1));
    h ^= e->low;
    for (int lane = 0; lane < 32; lane++) {
        gint64 r = instr->active >> lane & 1
                       ? (gint64) (lane_addr (instr, lane) - ref) : 0;
        e->rel[lane] = r;
        h = (h ^ (guint64) r) * G_GUINT64_CONSTANT (0x100000001b3);
    }
    return h | 1;
}

void
bank_memo_access (BankMemo *m, const Instr *instr, BankResult *out)
{
    if (instr->active == 0) {
        bank_access (instr, m->n_banks, m->bank_bytes, m->merge_phases,
                     out);
        return;
    }
    BankMemoEntry key;
    guint64 h = memo_key (m, instr, &key);
    BankMemoEntry *e = &m->entry[(h >> 32) % BANK_MEMO_ENTRIES];
    if (e->hash == h && e->active == key.active && e->width == key.width &&
        e->low == key.low && memcmp (e->rel, key.rel, sizeof key.rel) == 0) {
        *out = e->result;
        return;
    }
    bank_access (instr, m->n_banks, m->bank_bytes, m->merge_phases, out);
    key.hash = h;
    key.result = *out;
    *e = key;
}
