/*
 * test-counters.c -- a sampled run's counters extrapolated over the
 * launch (run_counters.h), on hand-made samples.
 *
 * Each expected value is worked out in the test from the rule the
 * header states: the run's counters times the launch's blocks over the
 * run's, plus the cut iterations at a rate; or, by rows, the run's
 * once, the first row's cut iterations at the first wave's rate, the
 * others' at the later wave's, and each wave past the run what one of
 * the run's later waves added.
 */
#include "config.h"

#include <criterion/criterion.h>

#include "models/run_counters.h"

/* A span whose warp instructions and DRAM read bytes go from 'from' to
 * 'to' over 'apart'. */
static RunSpan
span (guint64 from, guint64 to, double apart)
{
    RunSpan s = { .apart = apart };
    s.from.st.warp_instructions = from;
    s.to.st.warp_instructions = to;
    s.from.mem.dram_read_bytes = from;
    s.to.mem.dram_read_bytes = to;
    return s;
}

Test (counters, by_blocks_scales_the_run_and_rates_the_cut_iterations)
{
    RunSample run = { 0 }, all;
    run.st.warp_instructions = 1000;
    run.mem.dram_read_bytes = 6400;
    /* 10 blocks launched, 5 run, each with 4 iterations cut. */
    RunShape s = { .blocks = 10, .run = 5, .more = 4 };
    RunRates r = {
        .first = span (100, 300, 100),      /* 2 a block-iteration */
        .first_mem = span (0, 3200, 50),    /* 64 a block-iteration */
    };
    run_counters (&all, &run, &s, &r);
    /* 1000 x 10/5 + 10 x 4 x 2 */
    cr_expect_eq (all.st.warp_instructions, 2080);
    /* The memory at its own rate: 6400 x 10/5 + 10 x 4 x 64 */
    cr_expect_eq (all.mem.dram_read_bytes, 12800 + 2560);
}

Test (counters, never_below_zero)
{
    RunSample run = { 0 }, all;
    run.st.warp_instructions = 10;
    RunShape s = { .blocks = 2, .run = 1, .more = 100 };
    RunRates r = { .first = span (50, 40, 1), .first_mem = span (0, 0, 1) };
    run_counters (&all, &run, &s, &r);
    /* 10 x 2 + 2 x 100 x (-10) < 0 */
    cr_expect_eq (all.st.warp_instructions, 0);
}

Test (counters, first_memory_goes_by_the_loop_where_streams_mark_it)
{
    RunSpan marks = span (100, 300, 10);
    MemStats loop = { .load_requests = 7, .dram_read_bytes = 5000 };
    RunSpan m = run_counters_first_memory (&marks, &loop, 40);
    cr_expect_eq (m.from.mem.dram_read_bytes, 0);
    cr_expect_eq (m.to.mem.dram_read_bytes, 5000);
    cr_expect_float_eq (m.apart, 40, 1e-12);
    /* The warp states still go by the marks. */
    cr_expect_eq (m.to.st.warp_instructions, 300);

    /* No loop requests marked, or no iterations done: the marks. */
    MemStats none = { .dram_read_bytes = 5000 };
    m = run_counters_first_memory (&marks, &none, 40);
    cr_expect_eq (m.to.mem.dram_read_bytes, 300);
    cr_expect_float_eq (m.apart, 10, 1e-12);
    m = run_counters_first_memory (&marks, &loop, 0);
    cr_expect_eq (m.to.mem.dram_read_bytes, 300);
}

Test (counters, by_rows_adds_the_later_waves)
{
    RunSample run = { 0 }, all;
    run.st.warp_instructions = 1000;
    run.mem.dram_read_bytes = 1000;
    run.mem.smem_requests = 100;
    /* A run of 12 blocks, 4 a wave, the first row one wave; 3 full
     * waves past it: 24 blocks launched, each with 10 iterations cut. */
    RunShape s = { .blocks = 24, .run = 12, .more = 10, .first_row = 4,
                   .waves_past = 3, .per_wave = 4 };
    RunRates r = {
        .first = span (0, 200, 100),        /* 2 a block-iteration */
        .first_mem = span (0, 200, 100),
        .by_rows = TRUE,
        .later = span (0, 120, 40),         /* 3 */
        .bounds = span (500, 1100, 2),      /* a wave adds 300 */
        .mem_bounds = span (500, 1100, 2),
    };
    /* The later wave's memory by its loop's requests alone: the span's
     * own count holds blocks' epilogues, whose stores would count once
     * per cut iteration. */
    r.later.to.mem.dram_read_bytes = 400;
    r.later.to.loop.dram_read_bytes = 120;
    r.first_mem.to.mem.smem_requests = 40;
    r.first_mem.apart = 100;
    run_counters (&all, &run, &s, &r);
    /* 1000 + 10 x (2 x 4 + 3 x (12 - 4)) + 3 x (300 + 4 x 10 x 3) */
    cr_expect_eq (all.st.warp_instructions, 1000 + 320 + 1260);
    cr_expect_eq (all.mem.dram_read_bytes, 1000 + 320 + 1260);
    /* Shared memory by the blocks: 100 x 24/12 + 24 x 10 x 40/100 */
    cr_expect_eq (all.mem.smem_requests, 200 + 96);

    /* Without a later wave's span the blocks' rule stands:
     * 1000 x 2 + 24 x 10 x 2. */
    r.later.apart = 0;
    run_counters (&all, &run, &s, &r);
    cr_expect_eq (all.st.warp_instructions, 2000 + 480);
}

Test (counters, by_rate_counts_the_run_once_and_the_rest_at_the_later_rate)
{
    RunSample run = { 0 }, all;
    run.st.warp_instructions = 1000;
    run.mem.dram_read_bytes = 1000;
    run.loop.dram_read_bytes = 600;     /* 400 outside the loop */
    run.mem.smem_requests = 100;
    /* 8 blocks launched, 4 run, 2 in the grid's first row; loops of 20
     * iterations cut to 10. */
    RunShape s = { .blocks = 8, .run = 4, .more = 10, .first_row = 2,
                   .iterations = 20 };
    RunRates r = {
        .first = span (0, 200, 100),
        .first_mem = span (0, 200, 100),    /* 2 a block-iteration */
        .by_rate = TRUE,
        .later = span (0, 0, 30),
    };
    r.later.to.loop.dram_read_bytes = 90;   /* 3 a block-iteration */
    r.first_mem.to.mem.smem_requests = 40;
    run_counters (&all, &run, &s, &r);
    /* 1000 + (8 - 4) x 400/4 + 10 x 2 x 2 + ((8 - 4) x 20 + (4 - 2) x 10) x 3 */
    cr_expect_eq (all.mem.dram_read_bytes, 1000 + 400 + 40 + 300);
    /* Warp states and shared memory by the blocks: 1000 x 8/4 + 8 x 10
     * x 2, and 100 x 8/4 + 8 x 10 x 40/100. */
    cr_expect_eq (all.st.warp_instructions, 2000 + 160);
    cr_expect_eq (all.mem.smem_requests, 200 + 32);
}

/* ------------------------------------------------------------------ */
/* What the L2's size allows (run_counters_bound_dram)                 */

#define MIB (1024.0 * 1024.0)

/* sgemm-1 at 1024 on the A100: A, B and C, 4 MiB each, in a 40 MiB
 * L2.  Each is read from DRAM once and nothing is pushed out, whatever
 * the extrapolation said (33.7 MB, the sampled run before this bound). */
Test (counters, data_that_fit_the_l2_are_read_once)
{
    MemStats m = { .dram_read_bytes = 33700000, .dram_write_bytes = 5000,
                   .l2_sectors = 2000000, .store_sectors = 100000,
                   .l2_hit_sectors = 1000000, .l2_dirtied_sectors = 131072 };
    RunDramBounds b = { 12 * MIB, 40 * MIB, 32, 0, 1 };
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.dram_read_bytes, 12582912);
    cr_expect_eq (m.dram_write_bytes, 0);
    /* The sectors read past the data hit in L2 instead:
     * (33,700,000 - 12,582,912) / 32 = 659,909.  */
    cr_expect_eq (m.l2_hit_sectors, 1000000 + 659909);
    /* No more hits than the loads L2 served: 2,000,000 - 100,000. */
    m.dram_read_bytes = 133700000;
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.l2_hit_sectors, 1900000);
    /* The footprint not known (a trace's): as extrapolated, the writes
     * no more than the dirtied sectors' 32,000 bytes. */
    m = (MemStats) { .dram_read_bytes = 33700000, .dram_write_bytes = 5000,
                     .l2_dirtied_sectors = 1000 };
    b.footprint = 0;
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.dram_read_bytes, 33700000);
    cr_expect_eq (m.dram_write_bytes, 5000);
    m.dram_write_bytes = 50000;
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.dram_write_bytes, 32000);
}

/* Data past the L2, 2.25 waves: a wave fills 4 MiB of a 4 MiB L2 (3
 * MiB read, 1 MiB dirtied as its blocks end), 6.75 MiB read and 2.25
 * dirtied in all.  Back from the end: the last, quarter wave's 0.25 MiB
 * is held, then 1 MiB of the wave before, with 1 MiB of fills after it;
 * the first wave's, 5 MiB of fills back, is pushed out.  1.25 MiB held,
 * so 1 MiB written back. */
Test (counters, dirty_sectors_are_written_back_but_what_the_l2_holds)
{
    MemStats m = { .dram_read_bytes = (guint64) (6.75 * MIB),
                   .l2_dirtied_sectors = (guint64) (2.25 * MIB / 32) };
    RunDramBounds b = { 48 * MIB, 4 * MIB, 32, 0, 2.25 };
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.dram_read_bytes, (guint64) (6.75 * MIB));
    cr_expect_eq (m.dram_write_bytes, (guint64) (1 * MIB));
    /* An extrapolation of more stands, up to all that was dirty. */
    m.dram_write_bytes = (guint64) (2 * MIB);
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.dram_write_bytes, (guint64) (2 * MIB));
    m.dram_write_bytes = (guint64) (3 * MIB);
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.dram_write_bytes, (guint64) (2.25 * MIB));
    /* From an L2 with 2 MiB dirty, which 9 MiB of fills push out:
     * 4.25 MiB dirty in all, 1.25 held, 3 written. */
    m.dram_write_bytes = 0;
    b.dirty_at_start = 2 * MIB;
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.dram_write_bytes, (guint64) (3 * MIB));
    /* Ten waves of 6 MiB of fills in a 6 MiB L2, 42 MiB read and 18
     * dirtied: only the last wave's 1.8 MiB is held, 16.2 written. */
    m = (MemStats) { .dram_read_bytes = (guint64) (42 * MIB),
                     .l2_dirtied_sectors = (guint64) (18 * MIB / 32) };
    b = (RunDramBounds) { 0, 6 * MIB, 32, 0, 10 };
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.dram_write_bytes, (guint64) (16.2 * MIB + 0.5));
}

/* One wave (sgemm-5 at 1024 on the A6000: 64 blocks): A and B, 8 MiB,
 * read through a 6 MiB L2, and C's 4 MiB stored as the blocks end, last
 * of all: the L2 holds it, and nothing is written back. */
Test (counters, a_single_waves_stores_stay_in_l2)
{
    MemStats m = { .dram_read_bytes = (guint64) (8 * MIB),
                   .l2_dirtied_sectors = (guint64) (4 * MIB / 32) };
    RunDramBounds b = { 12 * MIB, 6 * MIB, 32, 0, 64.0 / 168 };
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.dram_write_bytes, 0);
    /* C of 8 MiB: 2 MiB of it pushed out. */
    m.l2_dirtied_sectors = (guint64) (8 * MIB / 32);
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.dram_write_bytes, (guint64) (2 * MIB));
}

/* Data exactly the L2's size fit it: read from DRAM once, nothing
 * written back.  A 4 MiB footprint in a 4 MiB L2, extrapolated to 10
 * MiB read and 1 MiB written: 4 MiB read, 0 written. */
Test (counters, data_the_size_of_the_l2_fit_it)
{
    MemStats m = { .dram_read_bytes = (guint64) (10 * MIB),
                   .dram_write_bytes = (guint64) (1 * MIB),
                   .l2_sectors = (guint64) (20 * MIB / 32),
                   .l2_dirtied_sectors = (guint64) (1 * MIB / 32) };
    RunDramBounds b = { 4 * MIB, 4 * MIB, 32, 0, 3 };
    run_counters_bound_dram (&m, &b);
    cr_expect_eq (m.dram_read_bytes, (guint64) (4 * MIB));
    cr_expect_eq (m.dram_write_bytes, 0);
}

/* By rows and by rate alike, all three shared-memory counts go by the
 * blocks' rule, as the requests do (by_rows_adds_the_later_waves):
 * requests, wavefronts and conflicts of 100, 300 and 50 in a run of 12
 * blocks of 24, no shared memory in the first wave's loop: 200, 600
 * and 100. */
Test (counters, every_shared_memory_count_goes_by_the_blocks)
{
    RunSample run = { 0 }, all;
    run.mem.smem_requests = 100;
    run.mem.smem_wavefronts = 300;
    run.mem.smem_conflicts = 50;
    RunShape s = { .blocks = 24, .run = 12, .more = 10, .first_row = 4,
                   .iterations = 20, .waves_past = 3, .per_wave = 4 };
    for (int by_rate = 0; by_rate < 2; by_rate++) {
        RunRates r = {
            .first = span (0, 200, 100),
            .first_mem = span (0, 200, 100),
            .by_rows = !by_rate,
            .by_rate = by_rate,
            .later = span (0, 120, 40),
            .bounds = span (500, 1100, 2),
            .mem_bounds = span (500, 1100, 2),
        };
        run_counters (&all, &run, &s, &r);
        cr_expect_eq (all.mem.smem_requests, 200, "by rate: %d", by_rate);
        cr_expect_eq (all.mem.smem_wavefronts, 600, "by rate: %d", by_rate);
        cr_expect_eq (all.mem.smem_conflicts, 100, "by rate: %d", by_rate);
    }
}
