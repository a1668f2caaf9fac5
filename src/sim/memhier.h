/*
 * memhier.h -- the memory hierarchy behind the SMs' queues: per SM the
 * shared-memory banks and a sectored L1, then an L2 and DRAM shared by
 * all SMs.  It implements mem.h.
 *
 *   shared memory  bank conflicts (bank.h) set the wavefronts an access
 *                  takes: one per cycle through the banks; data back
 *                  after the preset's latency plus the extra wavefronts.
 *   global loads   the coalescer (coal.h) gives the lines and sectors;
 *                  the L1 picks a line's set by its low bits (a plain
 *                  modulo), or with 'l1_hashed_index' by the L2's hash
 *                  (cache.c), which a what-if can ask for: no source
 *                  says which GPUs hash theirs, and a plain index puts
 *                  a column's lines, a power-of-two row apart, in one
 *                  set (README, the validation); the L1 tag stage looks up 'l1_tags_per_clk' lines a
 *                  cycle and its data path moves 'l1_bytes_per_clk', so
 *                  a request touching 32 lines holds it 32 cycles and the
 *                  local/global queue backs up behind it (lg_throttle);
 *                  missing sectors go to L2 through a bounded number of
 *                  miss slots, and with 'l1_fill_shares_data_path' their
 *                  fill takes the data path's bytes too; L2 misses to
 *                  DRAM.  L2 and DRAM are bandwidth servers (bw.h).
 *                  Latencies are the presets' pointer-chase figures:
 *                  what a dependent load sees.
 *   global stores  write through to L2 (allocating there, dirty); L1
 *                  keeps lines it holds, allocates none unless the preset
 *                  says so; dirty L2 evictions cost DRAM bandwidth.
 *   mirrors        a mirror's request (MEM_FOLLOWS, mem.h; gpu.h)
 *                  misses where the request taken just before it, its
 *                  SM's, missed, leaving for L2 when that one's did; its
 *                  own L1 is used only where the two touch lines
 *                  differently (a trace's data-dependent addresses).
 *
 * Ownership: the SM count and L1 size are fixed at creation (the L1 size
 * follows the shared-memory carveout of the launch: occ.h).
 */
#ifndef SMSIM_SIM_MEMHIER_H
#define SMSIM_SIM_MEMHIER_H

#include "sim/cache.h"
#include "sim/evq.h"
#include "sim/mem.h"
#include "sim/spec.h"

typedef struct {
    guint64 load_requests;       /* global load warp instructions */
    guint64 l1_busy_cycles;      /* tag stage and data path, all SMs */
    guint64 load_sectors;
    guint64 store_requests;
    guint64 store_sectors;
    guint64 l1_hit_sectors;      /* of load_sectors */
    guint64 l2_sectors;          /* sectors L2 served (loads and stores) */
    guint64 l2_hit_sectors;
    guint64 dram_read_bytes;
    guint64 dram_write_bytes;
    guint64 l2_dirtied_sectors;  /* made dirty by a store: each is written
                                  * back, in the launch or after it */
    guint64 smem_requests;
    guint64 smem_wavefronts;
    guint64 smem_conflicts;      /* wavefronts beyond the ideal */
} MemStats;

/* The sectors L2 served to loads: all it served but the stores'. */
guint64 memhier_l2_load_sectors (const MemStats *m);

/* 'n_sm' SMs, each with 'l1_bytes' of L1 (timing presets only). */
MemSys *memhier_new (const GpuSpec *spec, EvqQueue *q, int n_sm,
                     guint64 l1_bytes);

/* The host memory memhier_new takes for its L1s, their miss slots and
 * the L2, with those arguments: most of a run's, and past any budget
 * on a what-if GPU of thousands of SMs or gigabytes of cache.  With
 * 'n_sm' 0, the L2's alone (a copy of it, memhier_l2_copy). */
guint64 memhier_host_bytes (const GpuSpec *spec, int n_sm, guint64 l1_bytes);

/* The counters of a MemSys made by memhier_new: of every request, and
 * of the main loop's alone (Instr.loop). */
void memhier_stats (const MemSys *m, MemStats *out);
void memhier_loop_stats (const MemSys *m, MemStats *out);

/* Back-to-back launches: the L2 as one launch left it (a copy), and a
 * new MemSys starting from it.  The L1s start empty, as at every
 * kernel's start. */
Cache *memhier_l2_copy (const MemSys *m);
void memhier_warm_l2 (MemSys *m, const Cache *l2);

/* An empty L2 of 'spec', and what a global access leaves in such an
 * L2 of one of its lines (a line number: its address over the preset's
 * line size) and sectors, timing aside: to rebuild the L2 a launch
 * leaves from its address streams (run_replay.h).  Returns the sectors
 * a load missed (read from DRAM); '*written_back' gets the dirty
 * sectors its fill pushed out. */
Cache *memhier_l2_new (const GpuSpec *spec);
guint32 memhier_l2_touch (Cache *l2, guint64 line, guint32 sectors,
                          gboolean store, guint32 *written_back);

#endif
