/*
 * icache.c -- one SM's instruction caches.  See icache.h.
 */
#include "config.h"

#include "sim/cache.h"
#include "sim/icache.h"

struct Icache {
    SpecFetch f;
    int n_sp;
    Cache **l0;            /* by sub-partition */
    Cache *l1;             /* NULL: none */
    Cycle port_free;       /* the L1 sends its next line from then */
    guint64 l0_misses;
    guint64 l1_misses;
};

static Cache *
icache_level (int bytes)
{
    return cache_new ((guint64) bytes, ICACHE_LINE_BYTES, ICACHE_LINE_BYTES,
                      ICACHE_WAYS, FALSE);
}

Icache *
icache_new (const SpecFetch *f, int n_sp)
{
    if (f->l0_bytes == 0)
        return NULL;
    Icache *ic = g_new0 (Icache, 1);
    ic->f = *f;
    ic->n_sp = n_sp;
    ic->l0 = g_new0 (Cache *, n_sp);
    for (int i = 0; i < n_sp; i++)
        ic->l0[i] = icache_level (f->l0_bytes);
    if (f->l1_bytes > 0)
        ic->l1 = icache_level (f->l1_bytes);
    return ic;
}

void
icache_free (Icache *ic)
{
    if (ic == NULL)
        return;
    for (int i = 0; i < ic->n_sp; i++)
        cache_free (ic->l0[i]);
    g_free (ic->l0);
    cache_free (ic->l1);
    g_free (ic);
}

/* The cycle the L1 sends 'line' on to an L0.  A line it holds waits
 * for its port, which takes a line every l1_line_cycles, in the order
 * asked; one it misses, or has still on its way, goes on as it comes
 * in, past the port (the fill is forwarded), so that a miss holds up no
 * hit behind it. */
static Cycle
l1_send (Icache *ic, guint64 line, Cycle now)
{
    guint64 ready, evicted;
    guint32 dirty;
    if (ic->l1 != NULL && cache_lookup (ic->l1, line, 1, &ready) != 0) {
        if (ready > now)
            return ready;
        Cycle send = MAX (now, ic->port_free);
        ic->port_free = send + (Cycle) ic->f.l1_line_cycles;
        return send;
    }
    ic->l1_misses++;
    Cycle at = now + (Cycle) ic->f.l1_miss_cycles;
    if (ic->l1 != NULL)
        cache_fill (ic->l1, line, 1, at, FALSE, &evicted, &dirty);
    return at;
}

/* Bring 'line' into 'sp''s L0: the cycle it arrives. */
static Cycle
l0_fill (Icache *ic, int sp, guint64 line, Cycle now)
{
    guint64 evicted;
    guint32 dirty;
    ic->l0_misses++;
    Cycle at = l1_send (ic, line, now) + (Cycle) ic->f.l0_miss_cycles;
    cache_fill (ic->l0[sp], line, 1, at, FALSE, &evicted, &dirty);
    return at;
}

Cycle
icache_fetch (Icache *ic, int sp, guint32 pc, Cycle now)
{
    guint64 line = pc / ICACHE_LINE_BYTES, ready;
    Cycle at = cache_lookup (ic->l0[sp], line, 1, &ready) != 0
                   ? MAX (now, ready)
                   : l0_fill (ic, sp, line, now);
    for (int k = 1; k <= ic->f.prefetch_lines; k++)
        if (cache_lookup (ic->l0[sp], line + (guint64) k, 1, &ready) == 0)
            l0_fill (ic, sp, line + (guint64) k, now);
    return at;
}

void
icache_misses (const Icache *ic, guint64 *l0, guint64 *l1)
{
    *l0 = ic->l0_misses;
    *l1 = ic->l1_misses;
}
