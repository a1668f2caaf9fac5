/*
 * test-regfile.c -- the register-file read-port rule (regfile.h), on
 * hand-made operand lists.  Every expected value is worked out beside
 * it: bank = register % banks; cycles = the most port reads of any one
 * bank; a reuse-cache hit (same warp, same slot, entry register %
 * entries holds it) reads nothing.
 */
#include "config.h"

#include <criterion/criterion.h>

#include "sim/regfile.h"

#define NR INSTR_NO_REG

static const RegfileShape two = { 2, 2 };   /* the presets' shape */

/* The whole rule, its packed counts unpacked into reads[]. */
static int
read_ops (RegfileCache *cache, RegfileShape shape, int warp, const Instr *in,
          guint8 *reads)
{
    guint32 counts = regfile_read_operands (cache, shape, warp, in);
    for (int b = 0; b < shape.banks; b++)
        reads[b] = (guint8) (counts >> (4 * b) & 0xf);
    return regfile_most (counts);
}

static Instr
ffma (int a, int b, int c, guint8 reuse)
{
    Instr in;
    instr_init (&in, INSTR_FFMA);
    in.dst = 100;
    in.src[0] = (guint8) a;
    in.src[1] = (guint8) b;
    in.src[2] = (guint8) c;
    in.reuse = reuse;
    return in;
}

/* A fresh cache, one instruction. */
static int
cold (RegfileShape shape, int a, int b, int c, guint8 *reads)
{
    RegfileCache cache;
    regfile_cache_init (&cache);
    Instr in = ffma (a, b, c, 0);
    return read_ops (&cache, shape, 0, &in, reads);
}

Test (regfile, three_operands_in_distinct_banks_take_one_cycle)
{
    guint8 reads[REGFILE_MAX_BANKS];
    /* 4 banks: R0, R1, R2 in banks 0, 1, 2, one read each. */
    cr_assert_eq (cold ((RegfileShape) { 4, 4 }, 0, 1, 2, reads), 1);
    cr_assert (reads[0] == 1 && reads[1] == 1 && reads[2] == 1 &&
               reads[3] == 0);
}

Test (regfile, two_operands_in_one_bank_take_two_cycles)
{
    guint8 reads[REGFILE_MAX_BANKS];
    /* 2 banks: R0, R2 in bank 0, R1 in bank 1: bank 0 reads twice. */
    cr_assert_eq (cold (two, 0, 2, 1, reads), 2);
    cr_assert (reads[0] == 2 && reads[1] == 1);
    /* With 2 banks any three distinct registers put two in one bank. */
    cr_assert_eq (cold (two, 191, 62, 104, reads), 2);  /* 1, 0, 0 */
}

Test (regfile, three_operands_in_one_bank_take_three_cycles)
{
    guint8 reads[REGFILE_MAX_BANKS];
    cr_assert_eq (cold (two, 1, 3, 5, reads), 3);
    cr_assert_eq (cold ((RegfileShape) { 4, 4 }, 0, 4, 8, reads), 3);
}

Test (regfile, rz_reads_nothing)
{
    guint8 reads[REGFILE_MAX_BANKS];
    cr_assert_eq (cold (two, NR, NR, NR, reads), 0);
    cr_assert_eq (cold (two, 0, NR, NR, reads), 1);
    /* R0 * R2 + RZ: two reads of bank 0. */
    cr_assert_eq (cold (two, 0, 2, NR, reads), 2);
    /* R0 * R1 + RZ: one read in each bank. */
    cr_assert_eq (cold (two, 0, 1, NR, reads), 1);
}

/* nvcc's pattern: FFMA R43, R68, R73.reuse, R43 then FFMA R46, R69,
 * R73.reuse, R46.  First: R68 (bank 0), R73 (1), R43 (1): 2 cycles.
 * Second: R73 from the cache; R69 (1), R46 (0): 1 cycle. */
Test (regfile, reuse_hit_reads_nothing)
{
    RegfileCache cache;
    guint8 reads[REGFILE_MAX_BANKS];
    regfile_cache_init (&cache);
    Instr a = ffma (68, 73, 43, 1u << 1);
    Instr b = ffma (69, 73, 46, 1u << 1);
    cr_assert_eq (read_ops (&cache, two, 5, &a, reads), 2);
    cr_assert_eq (read_ops (&cache, two, 5, &b, reads), 1);
    cr_assert (reads[0] == 1 && reads[1] == 1);
}

Test (regfile, reads_leave_the_cache_alone)
{
    RegfileCache cache;
    guint8 reads[REGFILE_MAX_BANKS];
    regfile_cache_init (&cache);
    Instr a = ffma (0, 2, 1, 1u << 0);
    /* Asked twice without the update: a cold cache both times. */
    cr_assert_eq (regfile_reads (&cache, two, 0, &a, reads), 2);
    cr_assert_eq (regfile_reads (&cache, two, 0, &a, reads), 2);
    cr_assert_eq (read_ops (&cache, two, 0, &a, reads), 2);
    /* Now R0 is kept: R2, R1 read, one per bank. */
    cr_assert_eq (regfile_reads (&cache, two, 0, &a, reads), 1);
}

Test (regfile, no_hit_for_another_warp_slot_or_without_the_bit)
{
    RegfileCache cache;
    guint8 reads[REGFILE_MAX_BANKS];
    Instr keep = ffma (0, 2, 1, 1u << 0);   /* R0.reuse in slot A */
    Instr next = ffma (0, 2, 1, 0);
    Instr moved = ffma (4, 0, 1, 0);        /* R0 in slot B */

    /* Another warp: R0, R2 in bank 0 read again: 2. */
    regfile_cache_init (&cache);
    read_ops (&cache, two, 0, &keep, reads);
    cr_assert_eq (read_ops (&cache, two, 1, &next, reads), 2);

    /* Same warp, R0 in another slot: R4, R0 in bank 0: 2. */
    regfile_cache_init (&cache);
    read_ops (&cache, two, 0, &keep, reads);
    cr_assert_eq (read_ops (&cache, two, 0, &moved, reads), 2);

    /* Without the reuse bit nothing is kept: the hit of 'next' (1)
     * happens once; its own read empties the entry, so a second 'next'
     * reads R0 again: 2. */
    regfile_cache_init (&cache);
    read_ops (&cache, two, 0, &keep, reads);
    cr_assert_eq (read_ops (&cache, two, 0, &next, reads), 1);
    cr_assert_eq (read_ops (&cache, two, 0, &next, reads), 2);
}

/* nvcc keeps R70 and R71 in slot A at once (FFMA R147, R70.reuse, ...;
 * FFMA R160, R71.reuse, ...; FFMA R183, R70.reuse, ...): two entries
 * per slot (register % 2) hold both, one entry cannot. */
Test (regfile, entries_per_slot)
{
    RegfileCache cache;
    guint8 reads[REGFILE_MAX_BANKS];
    Instr a = ffma (70, 96, 147, 1u << 0);
    Instr b = ffma (71, 96, 160, 1u << 0);
    Instr c = ffma (70, 97, 183, 0);
    /* Two entries: c finds R70; R97 (1), R183 (1): 2 cycles. */
    regfile_cache_init (&cache);
    read_ops (&cache, two, 0, &a, reads);
    read_ops (&cache, two, 0, &b, reads);
    cr_assert_eq (read_ops (&cache, two, 0, &c, reads), 2);
    cr_assert_eq (reads[0], 0);
    /* One entry: R71 replaced R70; R70 (0) read too: 2 cycles, bank 0
     * read once. */
    regfile_cache_init (&cache);
    RegfileShape one = { 2, 1 };
    read_ops (&cache, one, 0, &a, reads);
    read_ops (&cache, one, 0, &b, reads);
    cr_assert_eq (read_ops (&cache, one, 0, &c, reads), 2);
    cr_assert_eq (reads[0], 1);
}

/* A non-reuse read in the same slot and entry empties it: R0.reuse,
 * then R2 in slot A (entry 0), then R0 misses. */
Test (regfile, a_read_without_the_bit_evicts)
{
    RegfileCache cache;
    guint8 reads[REGFILE_MAX_BANKS];
    Instr keep = ffma (0, 1, NR, 1u << 0);
    Instr other = ffma (2, 1, NR, 0);
    Instr again = ffma (0, 3, NR, 0);
    regfile_cache_init (&cache);
    read_ops (&cache, two, 0, &keep, reads);
    read_ops (&cache, two, 0, &other, reads);
    cr_assert_eq (read_ops (&cache, two, 0, &again, reads), 1);
    cr_assert_eq (reads[0], 1);     /* R0 read from its bank */
}

/* A register named by two slots is read once (regfile.h, ASSUMED):
 * FFMA R5, R4, R4, R5 reads R4 (bank 0) and R5 (bank 1): 1 cycle, not
 * the 2 that two reads of bank 0 would take. */
Test (regfile, a_register_in_two_slots_is_read_once)
{
    guint8 reads[REGFILE_MAX_BANKS];
    cr_assert_eq (cold (two, 4, 4, 5, reads), 1);
    cr_assert_eq (reads[0], 1);
    cr_assert_eq (cold (two, 4, 6, 4, reads), 2);   /* R4 and R6: bank 0 */
    cr_assert_eq (cold (two, 4, 4, 4, reads), 1);
    /* B and C alike, A another: FFMA R9, R4, R5, R5 reads R4 (bank 0)
     * and R5 (bank 1) once each: 1 cycle, bank 1 read once. */
    cr_assert_eq (cold (two, 4, 5, 5, reads), 1);
    cr_assert (reads[0] == 1 && reads[1] == 1);
}

/* The reuse cache serves the slot that kept a register, not another
 * slot naming it (regfile.h: a slot's own entry): R0.reuse in slot A,
 * then FFMA R9, R0, R0, R3.  Slot A finds R0 in its entry; slot B's
 * entry 0 is empty, so B reads R0 through bank 0's port; R3 is bank 1:
 * one read in each bank, 1 cycle. */
Test (regfile, a_kept_register_serves_only_its_own_slot)
{
    RegfileCache cache;
    guint8 reads[REGFILE_MAX_BANKS];
    Instr keep = ffma (0, 1, NR, 1u << 0);
    Instr both = ffma (0, 0, 3, 0);
    regfile_cache_init (&cache);
    read_ops (&cache, two, 0, &keep, reads);
    cr_assert_eq (read_ops (&cache, two, 0, &both, reads), 1);
    cr_assert_eq (reads[0], 1, "slot B's R0 read from bank 0");
    cr_assert_eq (reads[1], 1);
}

/* The packed counts' maximum: 4 bits a bank. */
Test (regfile, most_of_packed_counts)
{
    cr_assert_eq (regfile_most (0), 0);
    cr_assert_eq (regfile_most (0x00000011u), 1);
    cr_assert_eq (regfile_most (0x00000012u), 2);
    cr_assert_eq (regfile_most (0x20000001u), 2);
    cr_assert_eq (regfile_most (0x00000003u), 3);
    cr_assert_eq (regfile_most (0x03000000u), 3);
    cr_assert_eq (regfile_most (0x01111111u), 1);
}
