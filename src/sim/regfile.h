/*
 * regfile.h -- register-file read ports and the reuse cache of one
 * sub-partition: how many cycles an instruction's operand reads hold
 * the ports.
 *
 * The rule (Huerta et al., "Dissecting and Modeling the Architecture of
 * Modern GPU Cores", MICRO 2025, arXiv 2503.20481; ../shared/data/
 * microarch.md section 1: "no operand collector; each register bank has
 * one 1024-bit read port, and there is a register-file cache driven by
 * reuse bits"):
 *   - register r lives in bank r % banks; a bank's one port reads one
 *     warp-wide (32 x 32-bit = 1024-bit) operand per cycle, so an
 *     instruction holds the ports for the most reads any one bank must
 *     serve: max over banks of its reads there;
 *   - the reuse cache keeps, for each operand slot (A, B, C: src[0..2]),
 *     'entries' registers, entry r % entries, tagged with the warp; an
 *     operand whose slot entry holds its register (for the same warp)
 *     is served from there and reads no port;
 *   - after the reads, every register operand sets its slot entry: to
 *     its register if its reuse bit is set (the compiler asks to keep
 *     it for a later instruction), else to empty;
 *   - RZ (INSTR_NO_REG) reads nothing and leaves the cache alone;
 *   - ASSUMED: a register that two slots name (`FFMA R5, R4, R4, R5`)
 *     and neither finds in the cache is read once for both: the port
 *     delivers a whole 1024-bit register, and no source says it is
 *     read twice.
 * Which instruction may issue while the ports are busy is the SM's
 * business (sm.c: a bank's port is busy until the reads queued on it
 * are done, and an instruction that reads that bank waits).
 *
 * ASSUMED (no figure in ../shared/data): the number of banks per
 * sub-partition and the cache's entries per operand slot are preset
 * keys ([regfile] banks, reuse_entries); the presets take 2 and 2 (one
 * entry per bank and slot), what Huerta et al. report for Ampere as we
 * recall it, and what nvcc's reuse bits in the reference SASS imply: on
 * sm_86 the compiler keeps two registers of opposite parity in the same
 * slot alive at once (`FFMA R147, R70.reuse, R96.reuse, R147;
 * FFMA R160, R71.reuse, R96, R160; FFMA R183, R70.reuse, ...`), which
 * one entry per slot could not serve.  Only the first register of a
 * 64-bit operand is counted (Instr names one register per slot).
 *
 * Pure functions: no globals, no allocation; the cache is the caller's.
 */
#ifndef SMSIM_SIM_REGFILE_H
#define SMSIM_SIM_REGFILE_H

#include "sim/instr.h"

#define REGFILE_MAX_BANKS 8
#define REGFILE_MAX_ENTRIES 8
#define REGFILE_SLOTS 3

/* One sub-partition's reuse cache: per slot and entry, the warp slot
 * and register kept ((warp + 1) << 8 | reg), or 0 for empty. */
typedef struct {
    guint16 tag[REGFILE_SLOTS][REGFILE_MAX_ENTRIES];
} RegfileCache;

/* Both powers of two (the bank and the entry are the register's low
 * bits; preset_rules.c checks), so that the scheduler's check costs no
 * division. */
typedef struct {
    int banks;      /* 1..REGFILE_MAX_BANKS */
    int entries;    /* reuse-cache entries per operand slot, 1..REGFILE_MAX_ENTRIES */
} RegfileShape;

void regfile_cache_init (RegfileCache *cache);

static inline guint16
regfile_tag (int warp, guint8 reg)
{
    return (guint16) ((warp + 1) << 8 | reg);
}

/* Port reads per bank of 'in' issued by warp 'warp' with 'cache' as it
 * is, packed 4 bits a bank (bank b in bits 4b..4b+3; at most 3 reads).
 * Inline and in a register, not an array: the scheduler asks for every
 * warp it looks at while a port is busy, and byte counters in memory
 * cost a store-to-load round trip per operand (perf: 40 % of the rule's
 * time). */
static inline guint32
regfile_count (const RegfileCache *cache, RegfileShape shape, int warp,
               const Instr *in)
{
    const guint bmask = (guint) shape.banks - 1, emask = (guint) shape.entries - 1;
    guint32 counts = 0;
    guint read = 0;     /* slots whose register came through a port */
    for (int s = 0; s < REGFILE_SLOTS; s++) {
        guint8 r = in->src[s];
        if (r == INSTR_NO_REG ||
            cache->tag[s][r & emask] == regfile_tag (warp, r))
            continue;
        read |= 1u << s;
        if ((s >= 1 && (read & 1) && in->src[0] == r) ||
            (s == 2 && (read & 2) && in->src[1] == r))
            continue;   /* read once, for every slot that names it */
        counts += 1u << (4 * (r & bmask));
    }
    return counts;
}

/* The most reads of any bank in packed 'counts' (0..3). */
static inline int
regfile_most (guint32 counts)
{
    if (counts & counts >> 1 & 0x11111111u)
        return 3;
    return counts & 0x22222222u ? 2 : counts != 0;
}

/* The same into reads[0..banks); returns their maximum, the cycles the
 * reads hold the ports (0: nothing read through them). */
static inline int
regfile_reads (const RegfileCache *cache, RegfileShape shape, int warp,
               const Instr *in, guint8 *reads)
{
    guint32 counts = regfile_count (cache, shape, warp, in);
    for (int b = 0; b < shape.banks; b++)
        reads[b] = (guint8) (counts >> (4 * b) & 0xf);
    return regfile_most (counts);
}

/* The whole rule: regfile_count, then the cache update; returns the
 * packed counts. */
guint32 regfile_read_operands (RegfileCache *cache, RegfileShape shape,
                               int warp, const Instr *in);

#endif
