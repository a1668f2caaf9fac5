/*
 * memhier.c -- L1, L2, DRAM and shared memory.  See memhier.h.
 */
#include "config.h"

#include "sim/bank.h"
#include "sim/bw.h"
#include "sim/cache.h"
#include "sim/coal.h"
#include "sim/memhier.h"

typedef struct {
    Cache *l1;
    Cycle *slot_free;        /* miss slots: when each is free again,
                              * in ascending order round a ring from
                              * 'first' (the first to free) */
    int first;
    guint64 fill_bytes;      /* fill bytes short of a whole cycle of the
                              * data path, carried to the next request */
} SmMem;

/* What the L1 did with the last global request, which its mirrors'
 * requests replay (gpu.h): per line, the sectors asked, those that
 * missed, and the cycle they left for L2 (a store's, the cycle it
 * went). */
typedef struct {
    int lines;
    gboolean store;
    guint32 want[COAL_MAX_LINES];
    guint32 miss[COAL_MAX_LINES];
    Cycle go[COAL_MAX_LINES];
} L1Outcome;

typedef struct {
    MemSys base;
    const GpuSpec *spec;
    EvqQueue *q;
    int n_sm;
    SmMem *sm;
    int n_slots;
    int line_shift;          /* log2 (l1_line_bytes): a power of two (coal.h) */
    CoalGeometry geometry;   /* the L1's line and sector sizes, for coal.h */
    int tags_shift;          /* log2 (l1_tags_per_clk), or -1 */
    int bytes_shift;         /* log2 (l1_bytes_per_clk), or -1 */
    Cache *l2;
    BwServer l2_bw;
    BwServer dram;
    MemStats stats[2];       /* by the requests' Instr.loop */
    MemStats *count;         /* the request's, while it is served */
    BankMemo banks;
    L1Outcome led;           /* the last request that leads (mem.h) */
} MemHier;

/* ------------------------------------------------------------------ */
/* Shared memory                                                       */

static Cycle
shared_access (MemHier *h, const MemRequest *req, Cycle now)
{
    const SpecMem *m = &h->spec->mem;
    BankResult b;
    bank_memo_access (&h->banks, req->instr, &b);
    /* The banks deliver smem_bytes_per_clk: one wavefront of 32 x 4 B. */
    int per_cycle = MAX (1, m->smem_bytes_per_clk / (m->smem_banks * 4));
    Cycle busy = (Cycle) MAX (1, (b.wavefronts + per_cycle - 1) / per_cycle);
    h->count->smem_requests++;
    h->count->smem_wavefronts += (guint64) b.wavefronts;
    h->count->smem_conflicts += (guint64) b.conflicts;
    if (req->done != NULL)
        evq_schedule (h->q, now + (Cycle) m->smem_latency_cycles + busy - 1,
                      EVQ_PRI_MEM_RETURN, req->done, req->ctx, req->cookie);
    return now + busy;
}

/* ------------------------------------------------------------------ */
/* L2 and DRAM                                                         */

/* Write back what an eviction pushed out of L2. */
static void
write_back (MemHier *h, Cycle at, guint32 dirty)
{
    guint64 bytes = (guint) sim_popcount32 (dirty) * (guint64) h->spec->mem.l1_sector_bytes;
    if (dirty == 0)
        return;
    bw_serve (&h->dram, at, bytes);
    h->count->dram_write_bytes += bytes;
}

/* Read 'want' sectors of 'line' through L2 at 'at'; returns when the
 * data is back at the SM. */
static Cycle
l2_read (MemHier *h, guint64 line, guint32 want, Cycle at)
{
    const int sector = h->spec->mem.l1_sector_bytes;
    guint64 ready, evicted = 0;
    guint32 dirty = 0;
    guint32 hit = cache_lookup (h->l2, line, want, &ready);
    guint32 miss = want & ~hit;
    Cycle done = bw_serve (&h->l2_bw, at, (guint) sim_popcount32 (want) * (guint64) sector);
    h->count->l2_sectors += (guint) sim_popcount32 (want);
    h->count->l2_hit_sectors += (guint) sim_popcount32 (hit);
    if (hit != 0)
        done = MAX (done, ready);
    if (miss != 0) {
        guint64 bytes = (guint) sim_popcount32 (miss) * (guint64) sector;
        Cycle from_dram = bw_serve (&h->dram, at, bytes);
        h->count->dram_read_bytes += bytes;
        cache_fill (h->l2, line, miss, from_dram, FALSE, &evicted, &dirty);
        write_back (h, at, dirty);
        done = MAX (done, from_dram);
    }
    return done;
}

static Cycle
l2_write (MemHier *h, guint64 line, guint32 sectors, Cycle at)
{
    guint64 bytes = (guint) sim_popcount32 (sectors) * (guint64) h->spec->mem.l1_sector_bytes;
    guint64 evicted = 0;
    guint32 dirty = 0;
    Cycle done = bw_serve (&h->l2_bw, at, bytes);
    h->count->l2_sectors += (guint) sim_popcount32 (sectors);
    guint32 dirtied = cache_fill (h->l2, line, sectors, done, TRUE, &evicted,
                                  &dirty);
    h->count->l2_dirtied_sectors += (guint) sim_popcount32 (dirtied);
    write_back (h, at, dirty);
    return done;
}

/* ------------------------------------------------------------------ */
/* L1                                                                  */

/* The miss slot that frees first is taken until 'until': it goes back
 * in order.  A sorted ring, not a heap: a miss taken later mostly
 * returns later, so 'until' mostly goes last and the insertion stops at
 * once, where a heap sifted it down every level (its sift was a third
 * of the L1's time in a DRAM-bound stream). */
static void
retake_first_slot (const MemHier *h, SmMem *s, Cycle until)
{
    int n = h->n_slots;
    int at = s->first;       /* the freed place: the ring's end now */
    s->first = s->first + 1 < n ? s->first + 1 : 0;
    for (int k = 1; k < n; k++) {
        int before = at > 0 ? at - 1 : n - 1;
        if (s->slot_free[before] <= until)
            break;
        s->slot_free[at] = s->slot_free[before];
        at = before;
    }
    s->slot_free[at] = until;
}

/* Send the sectors 'miss' of 'line' that L1 lacks on to L2, through
 * the SM's first free miss slot, and fill them; returns when the data
 * is back.  Off the hit path: a line that hits does none of this, and
 * inlined its registers crowded the line loop's, which spilled. */
static G_GNUC_NO_INLINE Cycle
miss_line (MemHier *h, SmMem *s, guint64 line, guint32 miss, Cycle at,
           Cycle *go_out)
{
    guint64 evicted = 0;
    guint32 dirty = 0;
    Cycle go = MAX (at, s->slot_free[s->first]);
    *go_out = go;
    /* The L2 and DRAM latencies are load-to-use figures like L1's. */
    Cycle back = l2_read (h, line, miss, go);
    retake_first_slot (h, s, back);
    cache_fill (s->l1, line, miss, back, FALSE, &evicted, &dirty);
    return back;
}

/* Look 'line' up for 'want'; what misses goes to L2 (the request
 * counts the hits from '*miss': the line loop is most of a run whose
 * loads hit, sgemm-1's), at '*go'.  Returns the cycle the data is
 * back. */
static Cycle
load_line (MemHier *h, SmMem *s, guint64 line, guint32 want, Cycle at,
           guint32 *miss, Cycle *go)
{
    guint64 ready;
    guint32 hit = cache_lookup (s->l1, line, want, &ready);
    Cycle done = at + (Cycle) h->spec->mem.l1_hit_latency_cycles;
    *miss = want & ~hit;
    if (hit != 0)
        done = MAX (done, ready);
    if (*miss == 0)
        return done;
    Cycle back = miss_line (h, s, line, *miss, at, go);
    return MAX (done, back);
}

static Cycle
store_line (MemHier *h, SmMem *s, guint64 line, guint32 sectors, Cycle at)
{
    guint64 ready, evicted = 0;
    guint32 dirty = 0;
    if (h->spec->mem.l1_store_allocate)
        cache_fill (s->l1, line, sectors, at, FALSE, &evicted, &dirty);
    else if (cache_lookup (s->l1, line, sectors, &ready) != sectors)
        cache_invalidate (s->l1, line);  /* partly present: drop it */
    return l2_write (h, line, sectors, at);
}

/* ceil (x / d), by a shift where d = 2^shift (shift >= 0): the L1
 * rates are powers of two in every preset, and two 64-bit divisions per
 * request were 3 % of a DRAM-bound stream. */
static guint64
ceil_div (guint64 x, int d, int shift)
{
    return shift >= 0 ? (x + (guint64) d - 1) >> shift
                      : (x + (guint64) d - 1) / (guint64) d;
}

/* Cycles the L1 tag stage and data path are busy with one request. */
static Cycle
l1_busy (const MemHier *h, const CoalResult *c)
{
    const SpecMem *m = &h->spec->mem;
    guint64 data = c->sectors * (guint64) m->l1_sector_bytes;
    Cycle tags = ceil_div ((guint64) c->lines, m->l1_tags_per_clk, h->tags_shift);
    Cycle bytes = ceil_div (data, m->l1_bytes_per_clk, h->bytes_shift);
    return MAX (1, MAX (tags, bytes));
}

/* Cycles the data path spends writing 'sectors' that missed into the
 * array, when fills share it with the loads (the preset says so): byte
 * for byte, what falls short of a cycle carried to the SM's next
 * request, so a one-sector fill on a 128 B/clk path costs a quarter of
 * a cycle, not a whole one.  Charged with the request that missed, not
 * when L2 answers: what the path loses is bandwidth, and the request's
 * busy time is how the model spends bandwidth. */
static Cycle
fill_cycles (const MemHier *h, SmMem *s, int sectors)
{
    const SpecMem *m = &h->spec->mem;
    if (!m->l1_fill_shares_data_path || sectors == 0)
        return 0;
    guint64 bytes_per_clk = (guint64) m->l1_bytes_per_clk;
    s->fill_bytes += (guint64) sectors * (guint64) m->l1_sector_bytes;
    Cycle whole = s->fill_bytes / bytes_per_clk;
    s->fill_bytes %= bytes_per_clk;
    return whole;
}

/* Whether a mirror's request touches its lines as the request it
 * replays did, sector for sector: then it can miss where that one did. */
static gboolean
replays (const L1Outcome *led, gboolean store, const CoalResult *c)
{
    if (c->lines != led->lines || store != led->store)
        return FALSE;
    for (int i = 0; i < c->lines; i++)
        if (c->line_sectors[i] != led->want[i])
            return FALSE;
    return TRUE;
}

/* A mirror's line, where its SM's request missed or stored: to L2 at
 * the cycle that one went. */
static Cycle
replay_line (MemHier *h, guint64 line, guint32 sectors, gboolean store,
             guint32 miss, Cycle go)
{
    if (store)
        return l2_write (h, line, sectors, go);
    return miss != 0 ? l2_read (h, line, miss, go) : go;
}

/* A mirror's request replays what its SM's L1 did with the request
 * just taken (gpu.h), where the two touch lines alike: its timing is
 * that SM's, and an L1 of its own, missing where the SM's hit, would
 * send L2 traffic at a pace its own misses would have slowed. */
static Cycle
global_access (MemHier *h, const MemRequest *req, Cycle now)
{
    SmMem *s = &h->sm[req->sm];
    L1Outcome *led = &h->led;
    gboolean store = req->instr->op == INSTR_STG;
    CoalResult c;
    coal_access_in (req->instr, &h->geometry, &c);
    gboolean replay = req->role == MEM_FOLLOWS && replays (led, store, &c);
    gboolean leads = req->role == MEM_LEADS;
    Cycle busy = l1_busy (h, &c);
    Cycle done = now + 1;
    /* Lines go through the stage in turn, spread over its busy time:
     * line i at now + floor (i busy / lines), stepped without a 64-bit
     * division per line (4 % of the naive kernel's run) and none at all
     * for the common one-line request. */
    Cycle n = (Cycle) MAX (c.lines, 1);
    Cycle per_line = n > 1 ? busy / n : 0, part = n > 1 ? busy % n : 0;
    Cycle at = now, acc = 0;
    int filled = 0;
    for (int i = 0; i < c.lines; i++) {
        guint64 line = c.line_addr[i] >> h->line_shift;
        guint32 want = c.line_sectors[i], miss = 0;
        Cycle go = at, t;
        if (replay) {
            miss = led->miss[i];
            t = replay_line (h, line, want, store, miss, led->go[i]);
        } else {
            t = store ? store_line (h, s, line, want, at)
                      : load_line (h, s, line, want, at, &miss, &go);
            if (leads) {
                led->want[i] = want;
                led->miss[i] = miss;
                led->go[i] = go;
            }
        }
        filled += sim_popcount32 (miss);
        done = MAX (done, t);
        at += per_line;
        acc += part;
        if (acc >= n) {
            acc -= n;
            at++;
        }
    }
    if (leads) {
        led->lines = c.lines;
        led->store = store;
    }
    busy += fill_cycles (h, s, filled);
    h->count->l1_busy_cycles += busy;
    if (store) {
        h->count->store_requests++;
        h->count->store_sectors += (guint64) c.sectors;
    } else {
        h->count->load_requests++;
        h->count->load_sectors += (guint64) c.sectors;
        h->count->l1_hit_sectors += (guint64) (c.sectors - filled);
    }
    if (req->done != NULL)
        evq_schedule (h->q, done, EVQ_PRI_MEM_RETURN, req->done, req->ctx,
                      req->cookie);
    return now + busy;
}

/* ------------------------------------------------------------------ */
/* MemSys                                                              */

static Cycle
hier_access (MemSys *m, const MemRequest *req, Cycle now)
{
    MemHier *h = (MemHier *) m;
    g_assert (req->sm >= 0 && req->sm < h->n_sm);
    h->count = &h->stats[req->instr->loop != 0];
    if (instr_info (req->instr->op)->pipe == PIPE_MIO)
        return shared_access (h, req, now);
    return global_access (h, req, now);
}

static void
hier_free (MemSys *m)
{
    MemHier *h = (MemHier *) m;
    for (int i = 0; i < h->n_sm; i++) {
        cache_free (h->sm[i].l1);
        g_free (h->sm[i].slot_free);
    }
    g_free (h->sm);
    cache_free (h->l2);
    bw_clear (&h->l2_bw);
    bw_clear (&h->dram);
    g_free (h);
}

static const MemSysOps hier_ops = { hier_access, hier_free };

static double
per_cycle (const GpuSpec *spec, double gbytes_per_s)
{
    return gbytes_per_s * 1e9 / ((double) spec->device.sm_clock_mhz * 1e6);
}

/* log2 (n) for a power of two n > 0, else -1. */
static int
log2_or_none (int n)
{
    return n > 0 && (n & (n - 1)) == 0 ? sim_log2 ((guint64) n) : -1;
}

Cache *
memhier_l2_new (const GpuSpec *spec)
{
    const SpecMem *m = &spec->mem;
    return cache_new ((guint64) spec->device.l2_kib * 1024, m->l1_line_bytes,
                      m->l1_sector_bytes, m->l2_assoc, TRUE);
}

guint64
memhier_host_bytes (const GpuSpec *spec, int n_sm, guint64 l1_bytes)
{
    const SpecMem *m = &spec->mem;
    guint64 l1 = cache_host_bytes (l1_bytes, m->l1_line_bytes,
                                   m->l1_sector_bytes, m->l1_assoc);
    guint64 l2 = cache_host_bytes ((guint64) spec->device.l2_kib * 1024,
                                   m->l1_line_bytes, m->l1_sector_bytes,
                                   m->l2_assoc);
    guint64 slots = (guint64) m->l1_miss_slots * sizeof (Cycle);
    return (guint64) n_sm * (sizeof (SmMem) + l1 + slots) + l2;
}

MemSys *
memhier_new (const GpuSpec *spec, EvqQueue *q, int n_sm, guint64 l1_bytes)
{
    const SpecMem *m = &spec->mem;
    MemHier *h = g_new0 (MemHier, 1);
    g_assert (spec->timing && n_sm >= 1);
    h->base.ops = &hier_ops;
    h->spec = spec;
    h->q = q;
    h->count = &h->stats[0];
    h->n_sm = n_sm;
    h->n_slots = m->l1_miss_slots;
    h->line_shift = sim_log2 ((guint64) m->l1_line_bytes);
    coal_geometry_init (&h->geometry, m->l1_line_bytes, m->l1_sector_bytes);
    h->tags_shift = log2_or_none (m->l1_tags_per_clk);
    h->bytes_shift = log2_or_none (m->l1_bytes_per_clk);
    bank_memo_init (&h->banks, m->smem_banks, 4, m->smem_merge_phases);
    h->sm = g_new0 (SmMem, n_sm);
    for (int i = 0; i < n_sm; i++) {
        h->sm[i].l1 = cache_new (l1_bytes, m->l1_line_bytes,
                                 m->l1_sector_bytes, m->l1_assoc,
                                 m->l1_hashed_index);
        h->sm[i].slot_free = g_new0 (Cycle, h->n_slots);
    }
    h->l2 = memhier_l2_new (spec);
    bw_init (&h->l2_bw, per_cycle (spec, m->l2_bandwidth_gbs),
             (Cycle) m->l2_hit_latency_cycles);
    bw_init (&h->dram, per_cycle (spec, spec->device.dram_stream_gbs),
             (Cycle) m->dram_latency_cycles);
    return &h->base;
}

guint64
memhier_l2_load_sectors (const MemStats *m)
{
    return m->l2_sectors > m->store_sectors ? m->l2_sectors - m->store_sectors
                                            : 0;
}

void
memhier_stats (const MemSys *m, MemStats *out)
{
    g_assert (m->ops == &hier_ops);
    const MemHier *h = (const MemHier *) m;
    const guint64 *a = (const guint64 *) &h->stats[0];
    const guint64 *b = (const guint64 *) &h->stats[1];
    guint64 *sum = (guint64 *) out;
    for (gsize i = 0; i < sizeof *out / sizeof (guint64); i++)
        sum[i] = a[i] + b[i];
}

void
memhier_loop_stats (const MemSys *m, MemStats *out)
{
    g_assert (m->ops == &hier_ops);
    *out = ((const MemHier *) m)->stats[1];
}

Cache *
memhier_l2_copy (const MemSys *m)
{
    g_assert (m->ops == &hier_ops);
    return cache_copy (((const MemHier *) m)->l2);
}

void
memhier_warm_l2 (MemSys *m, const Cache *l2)
{
    MemHier *h = (MemHier *) m;
    g_assert (m->ops == &hier_ops);
    cache_free (h->l2);
    h->l2 = cache_copy (l2);
}

/* As l2_read and l2_write leave the tags: a load's sectors present, a
 * store's present and dirty.  What goes to and from DRAM is only
 * handed back: no time passes here, so no bandwidth is spent. */
guint32
memhier_l2_touch (Cache *l2, guint64 line, guint32 sectors, gboolean store,
                  guint32 *written_back)
{
    guint64 ready, evicted;
    guint32 fill = store ? sectors
                         : sectors & ~cache_lookup (l2, line, sectors, &ready);
    cache_fill (l2, line, fill, 0, store, &evicted, written_back);
    return store ? 0 : fill;
}
