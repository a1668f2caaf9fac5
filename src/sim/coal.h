/*
 * coal.h -- the coalescer: which sectors and lines one warp memory
 * instruction touches.
 *
 * A global or local memory instruction is one request to L1TEX, however
 * many lanes it has; the request then costs one access per distinct
 * sector (Nsight Compute's "sectors per request", Kernel Profiling Guide,
 * "Memory Tables": l1tex__t_sectors / l1tex__t_requests) and one tag
 * look-up per distinct line.  Sectors are the 32 B units a sectored cache
 * moves, lines the 128 B units it tags (CUDA C++ Best Practices Guide,
 * "Coalesced Access to Global Memory"); both sizes are parameters.
 *
 * Rules:
 *   - an active lane asks for [addr, addr + width): every sector and line
 *     that range overlaps counts, so a misaligned access that straddles
 *     a boundary touches two of them (a warp touches at most 64 lines);
 *   - lanes touching the same sector share it (no matter how many, or in
 *     what order);
 *   - inactive lanes are ignored; no active lane touches nothing;
 *   - line_bytes and sector_bytes are powers of two, sector_bytes divides
 *     line_bytes and a line has at most 32 sectors (one guint32 mask);
 *     width is 1..line_bytes.  Breaking these is a bug in the caller
 *     (asserted), not user input: the preset loader checks the sizes.
 *
 * Pure: const input, a filled result, no allocation, no I/O, no globals.
 * Cost: O(lines) for a coalesced stride-form access (consecutive or
 * repeated elements), O(active lanes) for any other stride or for
 * explicit addresses in ascending order, O(lanes x lines) at worst (a
 * small insertion sort: a random gather).
 */
#ifndef SMSIM_SIM_COAL_H
#define SMSIM_SIM_COAL_H

#include <glib.h>

#include "sim/instr.h"

/* Most lines one warp instruction can touch: 32 lanes, two lines each. */
#define COAL_MAX_LINES 64

typedef struct {
    int sectors;                          /* distinct sectors */
    int lines;                            /* distinct lines */
    guint64 bytes;                        /* bytes the active lanes ask for */
    /* The distinct lines, ascending: the byte address of each line's
     * first byte (a multiple of line_bytes; divide by line_bytes for a
     * line number). */
    guint64 line_addr[COAL_MAX_LINES];
    /* Per line, the sectors touched: bit i is the line's i-th sector. */
    guint32 line_sectors[COAL_MAX_LINES];
} CoalResult;

/* Coalesce 'instr' (its active mask, width and lane addresses) into
 * lines of 'line_bytes' and sectors of 'sector_bytes'.  Only the first
 * 'out->lines' entries of the arrays are written. */
void coal_access (const Instr *instr, int line_bytes, int sector_bytes,
                  CoalResult *out);

/* The sizes coal_access takes, worked out once: a caller that
 * coalesces every request with the same ones (the memory model) keeps
 * them, and coal_access_in skips checking the sizes and taking their
 * logarithms on every request (a tenth of the coalescer's instructions
 * in validate). */
typedef struct {
    int line_shift;       /* log2 (line_bytes) */
    int sector_shift;     /* log2 (sector_bytes) */
    int last_sector;      /* sectors per line - 1 */
} CoalGeometry;

/* The sizes must be as the rules above say (asserted here). */
void coal_geometry_init (CoalGeometry *g, int line_bytes, int sector_bytes);

/* coal_access with sizes from coal_geometry_init. */
void coal_access_in (const Instr *instr, const CoalGeometry *g,
                     CoalResult *out);

#endif
