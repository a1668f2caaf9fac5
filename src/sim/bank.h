/*
 * bank.h -- shared-memory bank conflicts: how many wavefronts one warp
 * shared-memory instruction takes.
 *
 * Shared memory is n_banks banks of bank_bytes-wide words (32 x 4 B on
 * every GPU since Maxwell); successive words sit in successive banks, so
 * word w is in bank w mod n_banks, and a bank delivers one word per
 * wavefront (CUDA C++ Programming Guide, "Shared Memory" under compute
 * capability 5.x and later; Nsight Compute counts the wavefronts,
 * l1tex__data_pipe_lsu_wavefronts_mem_shared).
 *
 * Rules:
 *   - lanes that read the same word are served by one delivery of it
 *     (broadcast, multicast): only DISTINCT words in a bank conflict;
 *   - 8- and 16-bit accesses are served as the word that holds them;
 *     a lane access of k = width / bank_bytes words covers k consecutive
 *     words, i.e. consecutive banks;
 *   - wide accesses are split into phases of n_banks / k lanes: 64-bit
 *     in two half-warps (lanes 0-15, 16-31), 128-bit in four quarter-
 *     warps (0-7, 8-15, ...) with 32 banks of 4 B (ASSUMED: the guide
 *     does not describe wide accesses for cc 5.x and later; this is the
 *     split microbenchmarks and Nsight Compute's wavefront counts show);
 *     a phase takes as many wavefronts as the most distinct words any
 *     one bank must deliver in it, and the access costs the sum over
 *     its phases;
 *   - with 'merge_phases' (mem.smem_merge_phases, a what-if) the whole
 *     warp is one phase at every width: the fewest wavefronts any
 *     hardware could take (a warp-uniform 128-bit load 1, not 4), never
 *     more than the split's, since a bank's distinct words over the warp
 *     are at most the sum of its phases';
 *   - 'ideal' is the cost with no conflict: the phases with an active
 *     lane, or merged, the warp's distinct words over n_banks, rounded
 *     up (a consecutive 128-bit load 4).  No active lane costs nothing.
 * CUDA requires natural alignment for shared accesses; a misaligned lane
 * access is counted by the words it overlaps, and never crashes.
 * n_banks is 1..BANK_MAX_BANKS, bank_bytes a power of two, width
 * 1..16 (asserted: the preset loader and the streams check them).
 *
 * Pure: const input, a filled result, no allocation, no I/O, no globals.
 * Cost per phase: O(1) for a stride-form phase whose words span fewer
 * than n_banks (a row, a broadcast, consecutive vectors: one wavefront);
 * O(lanes) for one whose words span fewer than n_banks in explicit form,
 * or for any stride (columns, padded or not); O(words^2) at worst (a
 * random gather whose words all chain in one bank).  bank_memo_access
 * answers a repeated pattern in O(lanes).
 */
#ifndef SMSIM_SIM_BANK_H
#define SMSIM_SIM_BANK_H

#include <glib.h>

#include "sim/instr.h"

#define BANK_MAX_BANKS 64

typedef struct {
    int wavefronts;     /* sum over phases of the worst bank's words */
    int ideal;          /* phases with an active lane */
    int conflicts;      /* wavefronts - ideal: the cost of conflicts */
} BankResult;

void bank_access (const Instr *instr, int n_banks, int bank_bytes,
                  gboolean merge_phases, BankResult *out);

/* bank_access with a memory of recent answers, for the simulator's hot
 * path: a tiled kernel plays the same few access patterns again and
 * again, shifted by a tile or an iteration.  Shifting every lane by
 * the same multiple of bank_bytes renames the words and rotates the
 * banks, so the worst bank's count is unchanged: an access is known by
 * its lanes' offsets from its first active lane, that lane's offset
 * within a word, its width and mask.  Same answers as bank_access. */
#define BANK_MEMO_ENTRIES 64

typedef struct {
    guint64 hash;               /* 0: empty */
    guint32 active;
    guint8 width;
    guint8 low;                 /* first active lane's offset in its word */
    gint64 rel[32];             /* active lanes' offsets (others 0) */
    BankResult result;
} BankMemoEntry;

typedef struct {
    int n_banks;
    int bank_bytes;
    gboolean merge_phases;
    BankMemoEntry entry[BANK_MEMO_ENTRIES];
} BankMemo;

void bank_memo_init (BankMemo *m, int n_banks, int bank_bytes,
                     gboolean merge_phases);
void bank_memo_access (BankMemo *m, const Instr *instr, BankResult *out);

#endif
