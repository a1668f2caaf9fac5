/*
 * test-evq.c -- the event queue: total, deterministic order by (cycle,
 * priority, schedule order); cancel by mark; run-until boundaries.
 */
#include "config.h"

#include <criterion/criterion.h>

#include "sim/evq.h"

typedef struct {
    EvqQueue *q;
    GString *log;
} Ctx;

static void
note (void *ctx, guint64 arg, Cycle now)
{
    Ctx *c = ctx;
    g_string_append_printf (c->log, "%" G_GUINT64_FORMAT "@%" G_GUINT64_FORMAT
                            " ", arg, now);
}

Test (evq, orders_by_cycle_then_priority_then_sequence)
{
    Ctx c = { evq_new (), g_string_new (NULL) };
    evq_schedule (c.q, 5, EVQ_PRI_ISSUE, note, &c, 1);
    evq_schedule (c.q, 3, EVQ_PRI_STATS, note, &c, 2);
    evq_schedule (c.q, 5, EVQ_PRI_MEM_RETURN, note, &c, 3);
    evq_schedule (c.q, 5, EVQ_PRI_ISSUE, note, &c, 4);
    evq_schedule (c.q, 0, EVQ_PRI_ISSUE, note, &c, 5);
    evq_run (c.q);
    /* Cycle 0, then 3, then at 5 the memory return before both issues,
     * which keep the order they were scheduled in. */
    cr_assert_str_eq (c.log->str, "5@0 2@3 3@5 1@5 4@5 ");
    cr_assert_eq (evq_processed (c.q), 5);
    cr_assert_eq (evq_now (c.q), 5);
    g_string_free (c.log, TRUE);
    evq_free (c.q);
}

static void
chain (void *ctx, guint64 arg, Cycle now)
{
    Ctx *c = ctx;
    note (ctx, arg, now);
    if (arg < 3)
        evq_schedule (c->q, now + 10, EVQ_PRI_ISSUE, chain, c, arg + 1);
    /* Same-cycle work scheduled from a handler runs after it. */
    if (arg == 0)
        evq_schedule (c->q, now, EVQ_PRI_STATS, note, c, 99);
}

Test (evq, handlers_schedule_more)
{
    Ctx c = { evq_new (), g_string_new (NULL) };
    evq_schedule (c.q, 1, EVQ_PRI_ISSUE, chain, &c, 0);
    evq_run (c.q);
    cr_assert_str_eq (c.log->str, "0@1 99@1 1@11 2@21 3@31 ");
    g_string_free (c.log, TRUE);
    evq_free (c.q);
}

Test (evq, cancel_marks)
{
    Ctx c = { evq_new (), g_string_new (NULL) };
    evq_schedule (c.q, 1, EVQ_PRI_ISSUE, note, &c, 1);
    guint64 id = evq_schedule (c.q, 2, EVQ_PRI_ISSUE, note, &c, 2);
    evq_schedule (c.q, 3, EVQ_PRI_ISSUE, note, &c, 3);
    evq_cancel (c.q, id);
    evq_run (c.q);
    cr_assert_str_eq (c.log->str, "1@1 3@3 ");
    cr_assert_eq (evq_processed (c.q), 2, "a cancelled event is not run");
    g_string_free (c.log, TRUE);
    evq_free (c.q);
}

Test (evq, run_until_is_a_clean_boundary)
{
    Ctx c = { evq_new (), g_string_new (NULL) };
    for (guint64 i = 0; i < 10; i++)
        evq_schedule (c.q, i * 100, EVQ_PRI_ISSUE, note, &c, i);
    cr_assert (evq_run_until (c.q, 450));
    cr_assert_str_eq (c.log->str, "0@0 1@100 2@200 3@300 4@400 ");
    cr_assert_eq (evq_pending (c.q), 5);
    cr_assert_not (evq_run_until (c.q, 100000));
    cr_assert_eq (evq_processed (c.q), 10);
    g_string_free (c.log, TRUE);
    evq_free (c.q);
}

/* Many events in a scrambled order come out in (cycle, priority,
 * schedule order). */
typedef struct {
    Cycle cycle;
    guint64 key;   /* priority << 32 | schedule index */
    guint64 runs;
    gboolean ok;
} Order;

static void
check_order (void *ctx, guint64 arg, Cycle now)
{
    Order *o = ctx;
    if (o->runs > 0 && (now < o->cycle || (now == o->cycle && arg < o->key)))
        o->ok = FALSE;
    o->cycle = now;
    o->key = arg;
    o->runs++;
}

Test (evq, heap_order_at_scale)
{
    g_autoptr (EvqQueue) q = evq_new ();
    Order o = { 0, 0, 0, TRUE };
    guint64 x = 12345;
    for (guint64 i = 0; i < 5000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        guint64 pri = (x >> 20) % EVQ_N_PRI;
        evq_schedule (q, (x >> 33) % 1000, (EvqPriority) pri, check_order, &o,
                      pri << 32 | i);
    }
    evq_run (q);
    cr_assert_eq (o.runs, 5000);
    cr_assert (o.ok, "events ran out of order");
}

/* The same past the wheel's window (1024 cycles from 'now'), where
 * events wait in the overflow heap: cycles 1024 .. 11023 from cycle 0,
 * many sharing a cycle and a priority, come out in (cycle, priority,
 * schedule order) too. */
Test (evq, far_heap_order_at_scale)
{
    g_autoptr (EvqQueue) q = evq_new ();
    Order o = { 0, 0, 0, TRUE };
    guint64 x = 54321;
    for (guint64 i = 0; i < 5000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        guint64 pri = (x >> 20) % EVQ_N_PRI;
        evq_schedule (q, 1024 + (x >> 33) % 10000 / 4 * 4, (EvqPriority) pri,
                      check_order, &o, pri << 32 | i);
    }
    evq_run (q);
    cr_assert_eq (o.runs, 5000);
    cr_assert (o.ok, "events ran out of order");
}

/* The window's edges, by hand (the wheel has 1024 slots, one a cycle,
 * from 'now'): from cycle 0, an event at 1024 is the first one past the
 * window (its slot is cycle 0's), and one at 2000 moves to the wheel
 * only once 'now' is past 976 (2000 - 1024: at 976 itself its slot is
 * 976's).  Each runs at its own cycle. */
Test (evq, the_windows_edges)
{
    Ctx c = { evq_new (), g_string_new (NULL) };
    const Cycle at[] = { 2000, 1024, 976, 0, 977 };
    for (guint i = 0; i < G_N_ELEMENTS (at); i++)
        evq_schedule (c.q, at[i], EVQ_PRI_ISSUE, note, &c, at[i]);
    evq_run (c.q);
    cr_assert_str_eq (c.log->str, "0@0 976@976 977@977 1024@1024 2000@2000 ");
    g_string_free (c.log, TRUE);
    evq_free (c.q);
}

static void
hop (void *ctx, guint64 arg, Cycle now)
{
    Ctx *c = ctx;
    note (ctx, arg, now);
    if (arg == 100)
        evq_schedule (c->q, 1094, EVQ_PRI_ISSUE, note, c, 1094);
}

/* The search for the next busy slot wraps round the wheel: at cycle
 * 100 (slot 100, in the 64-slot word of slots 64-127), an event at 1094
 * is in slot 1094 - 1024 = 70, the same word, below 100: found last,
 * 994 cycles on. */
Test (evq, the_search_wraps_into_its_first_word)
{
    Ctx c = { evq_new (), g_string_new (NULL) };
    evq_schedule (c.q, 100, EVQ_PRI_ISSUE, hop, &c, 100);
    evq_run (c.q);
    cr_assert_str_eq (c.log->str, "100@100 1094@1094 ");
    g_string_free (c.log, TRUE);
    evq_free (c.q);
}
