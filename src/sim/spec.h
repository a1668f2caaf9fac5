/*
 * spec.h -- the immutable description of one GPU (Akita's "Spec").
 *
 * A GpuSpec is plain data filled once by the preset loader
 * (src/models/preset.c) from a .ini file, its base= chain and --set
 * overrides, then validated and never written again: a what-if study
 * builds a new spec, it never patches a live one.  Field names carry
 * their unit.  Which preset key fills which field is the key table in
 * src/models/pkey.c; every value's source lives in the preset file.
 *
 * Ownership: the strings belong to the Preset that built the spec.
 */
#ifndef SMSIM_SIM_SPEC_H
#define SMSIM_SIM_SPEC_H

#include <glib.h>

/* Longest list a preset key may hold (carveout steps have at most 10). */
#define SPEC_LIST_MAX 16

typedef struct {
    int n;
    int v[SPEC_LIST_MAX];
} SpecIntList;

/* Warp-scheduler issue policies (the sched module implements them). */
typedef enum {
    SPEC_SCHED_LRR,   /* loose round robin */
    SPEC_SCHED_GTO,   /* greedy then oldest */
    SPEC_SCHED_CGGTY  /* compiler-guided greedy then youngest (Ampere) */
} SpecSchedPolicy;

/* How the driver picks the shared-memory carveout at launch when the
 * kernel states no preference.  Undocumented by NVIDIA: an assumption
 * each preset names. */
typedef enum {
    SPEC_CARVEOUT_FIT,        /* smallest step keeping the occupancy */
    SPEC_CARVEOUT_MAX_SHARED  /* always the largest shared-memory step */
} SpecCarveoutRule;

typedef struct {
    char *name;
    int cc_major;
    int cc_minor;
    int sm_count;
    int sm_clock_mhz;           /* sustained SM clock under load */
    int global_mem_mib;
    int const_mem_kib;
    double dram_bandwidth_gbs;  /* theoretical peak */
    double dram_stream_gbs;     /* measured STREAM-type read bandwidth */
    double launch_gap_us;       /* between back-to-back launches in a
                                 * stream, beyond the kernels' own time */
    int l2_kib;
    int warp_size;
    int max_grid_x, max_grid_y, max_grid_z;
    int max_block_x, max_block_y, max_block_z;
} SpecDevice;

typedef struct {
    int max_threads;
    int max_blocks;
    int registers;
    int max_regs_per_block;
    int max_threads_per_block;
    int smem_bytes;               /* shared memory per SM at max carveout */
    int smem_per_block;           /* per-block limit without opt-in */
    int smem_per_block_optin;     /* opt-in limit, reserve excluded */
    int smem_reserved_per_block;  /* driver's per-block reserve (cc 8+) */
    int l1_smem_kib;              /* unified L1/texture/shared capacity */
    int sub_partitions;
    int fp32_lanes;
} SpecSm;

typedef struct {
    int reg_unit;                 /* registers per warp allocation unit */
    int max_regs_per_thread;
    int reg_check_warps;          /* block's warps rounded up to this for
                                     the per-block register check */
    int smem_unit;                /* shared-memory allocation unit, bytes */
    gboolean carveout;            /* Volta+ carveout preference honoured */
    SpecIntList carveout_steps_kib;
    SpecCarveoutRule launch_carveout;
} SpecAlloc;

typedef struct {
    SpecSchedPolicy policy;
    /* A sub-partition issues this many memory instructions back to
     * back, then one every mem_issue_interval cycles, while another
     * sub-partition issues them too (0: no limit). */
    int mem_issue_burst;
    int mem_issue_interval;
} SpecSched;

typedef struct {
    int fma_lanes;                /* FP32 lanes per sub-partition */
    int fma_heavy_lanes;          /* of those, the ones that run IMAD */
    int fma_latency_cycles;
    int alu_lanes;
    gboolean alu_on_fmalite;      /* integer ops share the lite FP32 half */
    int alu_latency_cycles;
    int sfu_lanes;
    int sfu_latency_cycles;
    int branch_cycles;            /* a taken branch holds the warp */
} SpecPipe;

/* Register-file read ports (regfile.h). */
typedef struct {
    int banks;                    /* 0: ports never conflict (not modelled) */
    int reuse_entries;            /* reuse-cache entries per operand slot */
} SpecRegfile;

typedef struct {
    int smem_banks;
    int smem_latency_cycles;
    int smem_bytes_per_clk;
    gboolean smem_merge_phases;   /* wide accesses as one warp phase (bank.h) */
    int l1_line_bytes;
    int l1_sector_bytes;
    int l1_hit_latency_cycles;
    int l1_bytes_per_clk;
    int l2_hit_latency_cycles;
    double l2_bandwidth_gbs;
    int dram_latency_cycles;
    int lg_queue_depth;           /* local/global instruction queue, per SM */
    int mio_queue_depth;          /* shared-memory (MIO) queue, per SM */
    int l1_assoc;
    gboolean l1_hashed_index;     /* sets by a hash of the line, as L2's */
    int l1_tags_per_clk;          /* lines the L1 tag stage looks up a cycle */
    int l1_miss_slots;            /* lines in flight from L2, per SM */
    gboolean l1_store_allocate;   /* global stores allocate in L1 */
    gboolean l1_fill_shares_data_path;  /* fills take the data path's bytes */
    int l2_assoc;
} SpecMem;

/* Instruction fetch (icache.h): an L0 instruction cache per
 * sub-partition, an L1 instruction cache per SM behind them. */
typedef struct {
    int l0_bytes;                 /* per sub-partition; 0: fetch is perfect */
    int l1_bytes;                 /* per SM; 0: every L0 miss goes past it */
    int l0_miss_cycles;           /* a line from the L1 instruction cache */
    int l1_miss_cycles;           /* more, for a line from beyond it */
    int l1_line_cycles;           /* cycles the L1 takes per line it sends */
    int prefetch_lines;           /* lines fetched ahead of the one asked */
} SpecFetch;

typedef struct {
    char *id;             /* preset name, e.g. "a100" */
    char *description;
    gboolean timing;      /* sourced timing numbers present */
    SpecDevice device;
    SpecSm sm;
    SpecAlloc alloc;
    SpecSched sched;      /* timing keys: valid only when timing */
    SpecPipe pipe;
    SpecRegfile regfile;
    SpecMem mem;
    SpecFetch fetch;
} GpuSpec;

#endif
