/*
 * pkey.c -- the table of preset keys.  See pkey.h.
 *
 * Ranges are what a plausible (or hypothetical) SM can have, not what
 * shipped GPUs have: a what-if study may double the register file.
 * Values that must agree with each other (threads a multiple of the
 * warp size, carveout steps ending at the shared-memory size, ...) are
 * checked after loading, in preset_rules.c.
 */
#include "config.h"

#include <string.h>

#include "models/pkey.h"
#include "sim/spec.h"

#define AT(field) offsetof (GpuSpec, field)
#define NOWHERE ((size_t) -1)

static const char *const sched_names[] = { "lrr", "gto", "cggty", NULL };
static const char *const carveout_names[] = { "fit", "max_shared", NULL };

#define I(g, k, need, lo, hi, unit, field, help) \
    { g, k, PKEY_INT, need, lo, hi, unit, AT (field), NULL, help }
#define D(g, k, need, lo, hi, unit, field, help) \
    { g, k, PKEY_DOUBLE, need, lo, hi, unit, AT (field), NULL, help }

static const PkeyInfo keys[] = {
    { "preset", "name", PKEY_STRING, PKEY_REQUIRED, 0, 0, "", AT (id), NULL,
      "preset id (the file name without .ini): letters, digits, '_', "
      "'-' and '.'" },
    { "preset", "description", PKEY_STRING, PKEY_REQUIRED, 0, 0, "",
      AT (description), NULL, "one line: part, die, compute capability" },
    { "preset", "base", PKEY_STRING, PKEY_OPTIONAL, 0, 0, "", NOWHERE, NULL,
      "preset this one starts from (a name or a path); its keys are "
      "overridden by this file's" },
    { "preset", "timing", PKEY_BOOL, PKEY_REQUIRED, 0, 1, "", AT (timing),
      NULL, "true when the timing keys ([sched] [pipe] [mem]) are sourced" },

    { "device", "name", PKEY_STRING, PKEY_REQUIRED, 0, 0, "",
      AT (device.name), NULL, "device name as cudaDeviceProp.name" },
    I ("device", "cc_major", PKEY_REQUIRED, 3, 12, "", device.cc_major,
       "compute capability, major"),
    I ("device", "cc_minor", PKEY_REQUIRED, 0, 9, "", device.cc_minor,
       "compute capability, minor"),
    I ("device", "sm_count", PKEY_REQUIRED, 1, 4096, "SMs", device.sm_count,
       "streaming multiprocessors"),
    I ("device", "sm_clock_mhz", PKEY_REQUIRED, 100, 5000, "MHz",
       device.sm_clock_mhz, "sustained SM clock under load"),
    I ("device", "global_mem_mib", PKEY_REQUIRED, 1, 16777216, "MiB",
       device.global_mem_mib, "global (device) memory"),
    I ("device", "const_mem_kib", PKEY_REQUIRED, 1, 1024, "KiB",
       device.const_mem_kib, "constant memory"),
    D ("device", "dram_bandwidth_gbs", PKEY_REQUIRED, 1, 1e6, "GB/s",
       device.dram_bandwidth_gbs, "DRAM bandwidth, theoretical peak"),
    D ("device", "dram_stream_gbs", PKEY_REQUIRED, 1, 1e6, "GB/s",
       device.dram_stream_gbs, "DRAM bandwidth a streaming kernel measures"),
    I ("device", "l2_kib", PKEY_REQUIRED, 0, 16777216, "KiB", device.l2_kib,
       "L2 cache size"),
    D ("device", "launch_gap_us", PKEY_TIMING, 0, 1e6, "us",
       device.launch_gap_us, "time between two launches of a kernel back to "
       "back in one stream, beyond the kernels' own"),
    I ("device", "warp_size", PKEY_REQUIRED, 32, 32, "threads",
       device.warp_size, "threads per warp"),
    I ("device", "max_grid_x", PKEY_REQUIRED, 1, 2147483647, "blocks",
       device.max_grid_x, "maximum grid size, x"),
    I ("device", "max_grid_y", PKEY_REQUIRED, 1, 2147483647, "blocks",
       device.max_grid_y, "maximum grid size, y"),
    I ("device", "max_grid_z", PKEY_REQUIRED, 1, 2147483647, "blocks",
       device.max_grid_z, "maximum grid size, z"),
    I ("device", "max_block_x", PKEY_REQUIRED, 1, 4096, "threads",
       device.max_block_x, "maximum block size, x"),
    I ("device", "max_block_y", PKEY_REQUIRED, 1, 4096, "threads",
       device.max_block_y, "maximum block size, y"),
    I ("device", "max_block_z", PKEY_REQUIRED, 1, 4096, "threads",
       device.max_block_z, "maximum block size, z"),

    I ("sm", "max_threads", PKEY_REQUIRED, 32, 8192, "threads",
       sm.max_threads, "resident threads per SM"),
    I ("sm", "max_blocks", PKEY_REQUIRED, 1, 256, "blocks", sm.max_blocks,
       "resident blocks per SM"),
    I ("sm", "registers", PKEY_REQUIRED, 1024, 4194304, "registers",
       sm.registers, "32-bit registers per SM"),
    I ("sm", "max_regs_per_block", PKEY_REQUIRED, 1024, 4194304, "registers",
       sm.max_regs_per_block, "registers one block may hold"),
    I ("sm", "max_threads_per_block", PKEY_REQUIRED, 32, 4096, "threads",
       sm.max_threads_per_block, "threads per block"),
    I ("sm", "smem_bytes", PKEY_REQUIRED, 0, 67108864, "B", sm.smem_bytes,
       "shared memory per SM at the largest carveout"),
    I ("sm", "smem_per_block", PKEY_REQUIRED, 0, 67108864, "B",
       sm.smem_per_block, "shared memory per block without opt-in"),
    I ("sm", "smem_per_block_optin", PKEY_REQUIRED, 0, 67108864, "B",
       sm.smem_per_block_optin,
       "shared memory per block with opt-in (reserve excluded)"),
    I ("sm", "smem_reserved_per_block", PKEY_REQUIRED, 0, 65536, "B",
       sm.smem_reserved_per_block,
       "shared memory the driver reserves per block"),
    I ("sm", "l1_smem_kib", PKEY_REQUIRED, 0, 65536, "KiB", sm.l1_smem_kib,
       "unified L1/texture/shared capacity per SM (the L1 alone where "
       "shared memory is separate and larger, as on the P100)"),
    I ("sm", "sub_partitions", PKEY_REQUIRED, 1, 16, "", sm.sub_partitions,
       "sub-partitions (warp schedulers) per SM"),
    I ("sm", "fp32_lanes", PKEY_REQUIRED, 1, 1024, "lanes", sm.fp32_lanes,
       "FP32 cores per SM"),

    I ("alloc", "reg_unit", PKEY_REQUIRED, 1, 65536, "registers",
       alloc.reg_unit, "register allocation unit, per warp"),
    I ("alloc", "max_regs_per_thread", PKEY_REQUIRED, 1, 1024, "registers",
       alloc.max_regs_per_thread, "registers per thread, allocation cap"),
    I ("alloc", "reg_check_warps", PKEY_REQUIRED, 1, 64, "warps",
       alloc.reg_check_warps,
       "the per-block register check rounds a block's warps up to this"),
    I ("alloc", "smem_unit", PKEY_REQUIRED, 1, 65536, "B", alloc.smem_unit,
       "shared-memory allocation unit"),
    { "alloc", "carveout", PKEY_BOOL, PKEY_REQUIRED, 0, 1, "",
      AT (alloc.carveout), NULL,
      "true when the L1/shared carveout preference is honoured (Volta+)" },
    { "alloc", "carveout_steps_kib", PKEY_INT_LIST, PKEY_REQUIRED, 0, 65536,
      "KiB", AT (alloc.carveout_steps_kib), NULL,
      "shared-memory sizes the carveout can take, ascending" },
    { "alloc", "launch_carveout", PKEY_ENUM, PKEY_REQUIRED, 0, 0, "",
      AT (alloc.launch_carveout), carveout_names,
      "carveout the driver picks at launch (sets the L1 size)" },

    { "sched", "policy", PKEY_ENUM, PKEY_TIMING, 0, 0, "",
      AT (sched.policy), sched_names, "warp-scheduler issue policy" },
    I ("sched", "mem_issue_burst", PKEY_TIMING, 0, 1024, "instructions",
       sched.mem_issue_burst,
       "memory instructions a sub-partition issues back to back while "
       "another issues them too (0: no limit)"),
    I ("sched", "mem_issue_interval", PKEY_TIMING, 1, 64, "cycles",
       sched.mem_issue_interval,
       "cycles between a sub-partition's memory instructions past the burst"),

    I ("pipe", "fma_lanes", PKEY_TIMING, 1, 256, "lanes", pipe.fma_lanes,
       "FP32 lanes per sub-partition"),
    I ("pipe", "fma_heavy_lanes", PKEY_TIMING, 1, 256, "lanes",
       pipe.fma_heavy_lanes, "of the FP32 lanes, those that also run IMAD"),
    I ("pipe", "fma_latency_cycles", PKEY_TIMING, 1, 1000, "cycles",
       pipe.fma_latency_cycles, "dependent FFMA latency"),
    I ("pipe", "alu_lanes", PKEY_TIMING, 1, 256, "lanes", pipe.alu_lanes,
       "INT32 lanes per sub-partition"),
    I ("pipe", "alu_latency_cycles", PKEY_TIMING, 1, 1000, "cycles",
       pipe.alu_latency_cycles, "dependent integer-ALU latency"),
    { "pipe", "alu_on_fmalite", PKEY_BOOL, PKEY_TIMING, 0, 1, "",
      AT (pipe.alu_on_fmalite), NULL,
      "integer ops issue on the FP32 pipe's lite half (GA102)" },
    I ("pipe", "sfu_lanes", PKEY_TIMING, 1, 256, "lanes", pipe.sfu_lanes,
       "special-function lanes per sub-partition"),
    I ("pipe", "sfu_latency_cycles", PKEY_TIMING, 1, 1000, "cycles",
       pipe.sfu_latency_cycles, "MUFU latency"),
    I ("pipe", "branch_cycles", PKEY_TIMING, 1, 100, "cycles",
       pipe.branch_cycles, "cycles a branch holds its warp"),

    I ("regfile", "banks", PKEY_TIMING, 0, 8, "banks", regfile.banks,
       "register banks per sub-partition, one read port each (0: no limit)"),
    I ("regfile", "reuse_entries", PKEY_TIMING, 1, 8, "entries",
       regfile.reuse_entries,
       "reuse-cache registers per operand slot (entry = register % this)"),

    /* At most bank.h's BANK_MAX_BANKS. */
    I ("mem", "smem_banks", PKEY_TIMING, 1, 64, "banks", mem.smem_banks,
       "shared-memory banks (4 B wide; fewer banks alone, at the same "
       "smem_bytes_per_clk, serve more wavefronts a cycle)"),
    I ("mem", "smem_latency_cycles", PKEY_TIMING, 1, 10000, "cycles",
       mem.smem_latency_cycles, "shared-memory load latency"),
    I ("mem", "smem_bytes_per_clk", PKEY_TIMING, 1, 4096, "B/clk",
       mem.smem_bytes_per_clk, "shared-memory bandwidth per SM: "
       "smem_banks x 4 B x the wavefronts served a cycle"),
    { "mem", "smem_merge_phases", PKEY_BOOL, PKEY_TIMING, 0, 1, "",
      AT (mem.smem_merge_phases), NULL,
      "shared accesses served as one phase of the whole warp (false: "
      "split by width, 64-bit in half-warps, 128-bit in quarter-warps)" },
    I ("mem", "l1_line_bytes", PKEY_TIMING, 32, 1024, "B", mem.l1_line_bytes,
       "L1 line size"),
    I ("mem", "l1_sector_bytes", PKEY_TIMING, 8, 1024, "B",
       mem.l1_sector_bytes, "L1 sector size"),
    I ("mem", "l1_hit_latency_cycles", PKEY_TIMING, 1, 10000, "cycles",
       mem.l1_hit_latency_cycles, "L1 hit latency (pointer chase)"),
    I ("mem", "l1_bytes_per_clk", PKEY_TIMING, 1, 4096, "B/clk",
       mem.l1_bytes_per_clk, "L1 load bandwidth per SM"),
    I ("mem", "l2_hit_latency_cycles", PKEY_TIMING, 1, 10000, "cycles",
       mem.l2_hit_latency_cycles, "L2 hit latency (pointer chase)"),
    D ("mem", "l2_bandwidth_gbs", PKEY_TIMING, 1, 1e6, "GB/s",
       mem.l2_bandwidth_gbs, "L2 bandwidth, whole GPU"),
    I ("mem", "dram_latency_cycles", PKEY_TIMING, 1, 100000, "cycles",
       mem.dram_latency_cycles, "DRAM latency (pointer chase)"),
    I ("mem", "lg_queue_depth", PKEY_TIMING, 1, 1024, "instructions",
       mem.lg_queue_depth, "local/global instruction queue per SM"),
    I ("mem", "mio_queue_depth", PKEY_TIMING, 1, 1024, "instructions",
       mem.mio_queue_depth, "shared-memory (MIO) instruction queue per SM"),
    I ("mem", "l1_assoc", PKEY_TIMING, 1, 1024, "ways", mem.l1_assoc,
       "L1 associativity"),
    { "mem", "l1_hashed_index", PKEY_BOOL, PKEY_TIMING, 0, 1, "",
      AT (mem.l1_hashed_index), NULL,
      "L1 sets picked by a hash of the line address, as the L2's "
      "(false: by its low bits)" },
    I ("mem", "l1_tags_per_clk", PKEY_TIMING, 1, 64, "lines/clk",
       mem.l1_tags_per_clk, "lines the L1 tag stage looks up per cycle"),
    I ("mem", "l1_miss_slots", PKEY_TIMING, 1, 65536, "lines",
       mem.l1_miss_slots, "L1 misses in flight per SM"),
    { "mem", "l1_store_allocate", PKEY_BOOL, PKEY_TIMING, 0, 1, "",
      AT (mem.l1_store_allocate), NULL,
      "global stores allocate lines in L1" },
    { "mem", "l1_fill_shares_data_path", PKEY_BOOL, PKEY_TIMING, 0, 1, "",
      AT (mem.l1_fill_shares_data_path), NULL,
      "sectors a miss brings in are written through the L1 data path" },
    I ("mem", "l2_assoc", PKEY_TIMING, 1, 1024, "ways", mem.l2_assoc,
       "L2 associativity"),

    /* At most 1 MiB each: every SM's caches' tags stay within some
     * 100 MB of host memory on the largest GPU (16 B a line). */
    I ("fetch", "l0_bytes", PKEY_TIMING, 0, 1048576, "B", fetch.l0_bytes,
       "L0 instruction cache per sub-partition (0: every instruction is "
       "fetched in time, the other fetch keys unused)"),
    I ("fetch", "l1_bytes", PKEY_TIMING, 0, 1048576, "B", fetch.l1_bytes,
       "L1 instruction cache per SM, behind the L0s (0: none, every L0 "
       "miss goes past it)"),
    I ("fetch", "l0_miss_cycles", PKEY_TIMING, 0, 10000, "cycles",
       fetch.l0_miss_cycles, "latency of an L0 miss the L1 holds"),
    I ("fetch", "l1_miss_cycles", PKEY_TIMING, 0, 100000, "cycles",
       fetch.l1_miss_cycles, "latency an L1 miss adds to that"),
    I ("fetch", "l1_line_cycles", PKEY_TIMING, 0, 1000, "cycles",
       fetch.l1_line_cycles,
       "cycles the L1 takes per 128-B line it holds and sends the L0s "
       "(0: no limit)"),
    I ("fetch", "prefetch_lines", PKEY_TIMING, 0, 64, "lines",
       fetch.prefetch_lines,
       "lines after the one a warp reaches that the L0 asks for too"),
};

const PkeyInfo *
pkey_table (guint *n_keys)
{
    *n_keys = G_N_ELEMENTS (keys);
    return keys;
}

gboolean
pkey_file_only (const PkeyInfo *info)
{
    return info->offset == NOWHERE || info->offset == AT (id);
}

const PkeyInfo *
pkey_find (const char *group, const char *key)
{
    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
        if (strcmp (keys[i].group, group) == 0 && strcmp (keys[i].key, key) == 0)
            return &keys[i];
    return NULL;
}

guint
pkey_index (const PkeyInfo *info)
{
    g_assert (info >= keys && info < keys + G_N_ELEMENTS (keys));
    return (guint) (info - keys);
}

char *
pkey_range_text (const PkeyInfo *info)
{
    switch (info->type) {
    case PKEY_INT:
    case PKEY_INT_LIST:
        return g_strdup_printf ("%.0f..%.0f", info->min, info->max);
    case PKEY_DOUBLE:
        return g_strdup_printf ("%g..%g", info->min, info->max);
    case PKEY_BOOL:
        return g_strdup ("true|false");
    case PKEY_ENUM:
        return g_strjoinv ("|", (char **) info->names);
    case PKEY_STRING:
        return g_strdup (pkey_is_name (info) ? "a name" : "one line");
    }
    g_assert_not_reached ();
}

gboolean
pkey_is_name (const PkeyInfo *info)
{
    return info->type == PKEY_STRING && info->offset == AT (id);
}
