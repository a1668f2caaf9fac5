#!/bin/sh
# `smsim kernels` and `smsim run`: the listing, the JSON keys DESIGN.md
# promises, and the errors.
. "${top_srcdir:-.}/tests/cli/setup"

"$SMSIM" kernels >"$work/k"
for id in vecadd pchase stream loaduse smemld pmpp-tiled sgemm-1 sgemm-10; do
    grep -q "^$id " "$work/k" || fail "kernels lacks $id"
done
# Each kernel lists the parameters it takes, and those alone
# (kernels/cuda/sgemm.cuh): kernels 1-3 are written for one tiling;
# kernel 4 computes a column of TM results a thread (no TN); the warp
# tile (WM, WN, WNITER) is kernels 10 and 11's.
params_of() {   # params_of ID: the names of its parameter lines
    awk -v id="$1" '/^[^ ]/ { on = $1 == id; next } on && $2 == "default" { printf "%s ", $1 }' "$work/k"
}
for want in "sgemm-1:" "sgemm-3:" "sgemm-4:BM BN BK TM THREADS " \
            "sgemm-5:BM BN BK TM TN THREADS " "sgemm-9:BM BN BK TM TN THREADS " \
            "sgemm-10:BM BN BK TM TN WM WN WNITER THREADS " \
            "sgemm-11:BM BN BK TM TN WM WN WNITER THREADS " \
            "pmpp-tiled:TILE_WIDTH DYNAMIC " "smemld:WIDTH PATTERN ITERS "; do
    got=$(params_of "${want%%:*}")
    [ "$got" = "${want#*:}" ] || fail "kernels lists '$got' for ${want%%:*}, expected '${want#*:}'"
done
# ... and says so where there are none, rather than leaving a gap.
for id in sgemm-1 sgemm-2 sgemm-3; do
    awk -v id="$id" '/^[^ ]/ { on = $1 == id; next } on && /^ +parameters +none$/ { found = 1 } END { exit !found }' "$work/k" ||
        fail "kernels: $id has no 'parameters none' line"
done

# The occupancy line in words: sgemm-2's 1024 threads and 40 registers
# fit one block on an A6000 SM (48 warps; 40 x 1024 of 65536
# registers), sgemm-5's 256 threads at 128 registers two.
"$SMSIM" run --gpu a6000 --kernel sgemm-2 --size 256 >"$work/t"
contains "$work/t" "(1 block/SM, "
"$SMSIM" run --gpu a6000 --kernel sgemm-5 --size 256 >"$work/t"
contains "$work/t" "(2 blocks/SM, "

"$SMSIM" run --gpu a100 --kernel vecadd --size 65536 --format json >"$work/j"
for key in cycles time_ms gflops theoretical_occupancy achieved_occupancy \
           warp_instructions stalls selected long_scoreboard l1_hit_rate \
           l2_hit_rate dram_bytes dram_read_bytes dram_write_bytes \
           smem_bank_conflicts fetch_l0_misses fetch_l1_misses sampled \
           limiter ceiling_gflops ceiling_unit; do
    contains "$work/j" "\"$key\""
done
# 65536 elements / 32 = 2048 warps, each (kernels/cuda/vecadd.cuh as
# compiled: 2 MOV, 4 IMAD, ISETP, 2 LDG, FADD, STG) 11 instructions
# plus EXIT: 2048 x 12 = 24576.
contains "$work/j" '"warp_instructions" : 24576'
# Achieved bandwidth per level, times the run's time, gives back the
# bytes vecadd moves: 2 x 65536 floats loaded and 65536 stored through
# L1 and L2 (each element is touched once: no hits), 786432 B; DRAM
# reads the 524288 B of inputs once, the 262144 B of output stay dirty
# in the 40 MB L2.
field() { sed -n "s/^ *\"$1\" : \([0-9.e+-]*\).*/\1/p" "$work/j"; }
t=$(field time_ms)
for pair in l1_gbs:786432 l2_gbs:786432 dram_gbs:524288; do
    key=${pair%%:*} bytes=${pair#*:}
    v=$(field "$key")
    [ -n "$v" ] || fail "run --format json lacks $key"
    awk -v g="$v" -v t="$t" -v b="$bytes" 'BEGIN { x = g * t * 1e6; exit !(x > b - 1 && x < b + 1) }' ||
        fail "$key = $v GB/s over $t ms is not $bytes B"
done
contains "$work/j" '"dram_read_bytes" : 524288'
contains "$work/j" '"dram_write_bytes" : 0'

# A sampled run's DRAM traffic held to what the L2 allows, and the
# extrapolation's beside it: sgemm-1 at 1024 on the A100 reads A, B and
# C, 3 x 1024^2 x 4 B, which fit its 40 MB L2, once.
"$SMSIM" run --gpu a100 --kernel sgemm-1 --size 1024 --sampled >"$work/t"
contains "$work/t" "DRAM traffic         12582912 B (12582912 read, 0 written back)"
contains "$work/t" "held to what the L2 allows; extrapolated, "

# A partial last wave dealt out to SMs whole, said (run_tail.h):
# sgemm-10 at 768 on 12 SMs is 6 x 6 = 36 blocks, 2 an SM, so a wave
# of 24 and 12 more; its SMs' two blocks retire together.  vecadd's is
# not sampled.
"$SMSIM" run --gpu a100 --set device.sm_count=12 --kernel sgemm-10 \
    --size 768 --sampled --detailed-sms 4 >"$work/t"
contains "$work/t" "last wave            its 12 blocks dealt 2 to an SM, not one"
"$SMSIM" run --gpu a100 --set device.sm_count=12 --kernel sgemm-10 \
    --size 768 --sampled --detailed-sms 4 --format json >"$work/t"
contains "$work/t" '"last_wave_whole" : true'
contains "$work/j" '"last_wave_whole" : false'

"$SMSIM" run --gpu a6000 --kernel pchase --size 500 --param WS=4096 >"$work/t"
contains "$work/t" "warp cycles per issued instruction"
# A what-if's report says which values --set gave, in the key table's
# order; the preset's own says nothing of the kind.
! grep -q "what-if" "$work/t" || fail "a run of the preset calls itself a what-if"
"$SMSIM" run --gpu a6000 --kernel pchase --size 500 --param WS=4096 \
    --set fetch.l0_bytes=16384 --set mem.l1_assoc=8 >"$work/t"
contains "$work/t" "what-if: mem.l1_assoc = 8, fetch.l0_bytes = 16384"
contains "$work/t" "instruction fetch    "

# The limiter comes from the counters: a big copy is DRAM bound, one
# thread's pointer chase is latency bound.
"$SMSIM" run --gpu a100 --kernel stream --size 8388608 >"$work/s"
contains "$work/s" "limited by           DRAM bandwidth"
"$SMSIM" run --gpu a100 --kernel pchase --size 1000 >"$work/p"
contains "$work/p" "limited by           latency"

# A grid smaller than one wave (4 blocks on 108 SMs) with an L1 made
# slow: the limiter counts the SMs that run blocks, as the ceiling
# does, so a run at over 60 % of its L1 ceiling is L1-bound, not
# "latency" at a few per cent averaged over 108 SMs.
"$SMSIM" run --gpu a100 --kernel sgemm-5 --size 256 \
    --set mem.l1_bytes_per_clk=1 --format json >"$work/slow-l1"
awk -F'"' '/"limiter"/ { l = $4 } /"ceiling_unit"/ { u = $4 }
    /"gflops"/ { split ($3, a, /[:,]/); g = a[2] }
    /"ceiling_gflops"/ { split ($3, a, /[:,]/); c = a[2] }
    END { if (u != "L1/LSU throughput" || g < 0.6 * c ||
              index (l, u " (") != 1) {
              print "limiter " l ", ceiling " c " (" u "), gflops " g; exit 1 } }' \
    "$work/slow-l1" || fail "the limiter disagrees with the ceiling: $(grep -E 'limiter|ceiling|gflops' "$work/slow-l1")"

# The L2 hit rate is of loads, as L1's: a copy of 2 x 256 KB, timed
# after a warm-up launch, finds all it reads in the A6000's 6 MB L2
# (and writes without a look-up).  Stores counted as misses made it
# 50 %.
"$SMSIM" run --gpu a6000 --kernel stream --size 65536 --launches 2 >"$work/warm"
contains "$work/warm" "L2 hit rate          100.0 %"
contains "$work/warm" "DRAM traffic         0 B"

expect_fail 2 "$SMSIM" run --gpu a100 --kernel nosuch --size 10
contains "$work/err" "unknown kernel 'nosuch'"
expect_fail 2 "$SMSIM" run --gpu k40 --kernel vecadd --size 1024
contains "$work/err" "no sourced timing"
expect_fail 2 "$SMSIM" run --gpu a100 --kernel vecadd --size 1024 --param BLOCK=2000
contains "$work/err" "BLOCK = 2000"
expect_fail 2 "$SMSIM" run --gpu a100 --kernel vecadd --size 1024 --regs 300
# A block that passes the per-block limits but finds no room on an SM
# (16 sub-partitions of 4096 registers; a warp of sgemm-10 takes 5888):
# occupancy answers 0 blocks, a run is refused (it divided by zero).
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel sgemm-10 --size 256 --set sm.sub_partitions=16 --set sm.fp32_lanes=512
contains "$work/err" "not one block fits an SM of a6000"
contains "$work/err" "a warp takes 5888, a sub-partition holds 4096"
# A block's dimensions within the preset's (a what-if's) limits:
# vecadd's blocks are BLOCK x 1 (128 by default), sgemm-1's 32 x 32.
expect_fail 2 "$SMSIM" run --gpu a100 --kernel vecadd --size 4096 --set device.max_block_x=64
contains "$work/err" "a block of 128 x 1 threads exceeds a100's largest dimensions, 64 x 1024"
expect_fail 2 "$SMSIM" run --gpu a100 --kernel sgemm-1 --size 128 --set device.max_block_y=16
contains "$work/err" "a block of 32 x 32 threads exceeds a100's largest dimensions, 1024 x 16"
"$SMSIM" run --gpu a100 --kernel sgemm-1 --size 128 --set device.max_block_y=32 >/dev/null ||
    fail "sgemm-1's 32 x 32 blocks refused where 32 rows are allowed"
# A parameter given twice is refused, not the last one taken: options
# that clash (exit 1), as --set twice is.
expect_fail 1 "$SMSIM" run --gpu a100 --kernel vecadd --size 1024 --param BLOCK=64 --param BLOCK=256
contains "$work/err" "--param BLOCK given twice (--param BLOCK=64, then --param BLOCK=256)"
expect_fail 1 "$SMSIM" trace gen --kernel vecadd --size 1024 -p BLOCK=64 -p ' BLOCK = 32' -o "$work/twice.trace"
contains "$work/err" "--param BLOCK given twice"
# No GPU is a missing option, as a missing --size is: exit 1.
expect_fail 1 "$SMSIM" run --kernel vecadd --size 1024
contains "$work/err" "no GPU given"
expect_fail 1 "$SMSIM" run --gpu a100 --kernel vecadd
expect_fail 1 "$SMSIM" run --gpu a100 --kernel vecadd --size 10 --format xml
# A launch past what the counters hold was answered with wrapped ones
# (a chase of 10^18 loads: 0 cycles; 2^63 - 2: a negative instruction
# count) and exit 0.  A chase is one warp instruction a load and a few
# more: 10^18 is far past the 2^50 (1.1e15) smsim counts, 10^11 not.
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel pchase --size 1000000000000000000
contains "$work/err" "pchase: about 1e+18 warp instructions, more than smsim counts"
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel pchase --size 9223372036854775806
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel loaduse --size 1000000000 --param ITERS=1073741824
contains "$work/err" "take a smaller --size or --param"
# smemld is one block of 1-32 warps loading 4, 8 or 16 bytes a lane.
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel smemld --size 32 --param WIDTH=12
contains "$work/err" "WIDTH = 12: a shared load is 4, 8 or 16 bytes"
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel smemld --size 33
contains "$work/err" "33 warps: one block of 1 to 32"
"$SMSIM" run --gpu a6000 --kernel pchase --size 100000000000 >"$work/chase" ||
    fail "a chase of 10^11 loads was refused"
# What the SM model cannot hold is refused before it runs, not
# asserted on: more than 254 warps (8192 threads; `occupancy` takes
# them), more shared-memory banks than bank.h counts (64), lines of
# more than 32 sectors.  And a grid past the preset's limits: sgemm-1
# at 2^40 would be 2^35 x 2^35 blocks (its product wraps to 0), and
# sgemm-4 at 256 is 4 x 4 blocks, past a max_grid_x of 1.
run_fail() { expect_fail 2 "$SMSIM" run --gpu a6000 --kernel sgemm-4 --size 256 "$@"; }
run_fail --set sm.max_threads=8192
contains "$work/err" "at most 254 warps"
# 254 warps are held: 254 x 32 = 8128 threads run.
"$SMSIM" run --gpu a6000 --kernel sgemm-4 --size 256 --set sm.max_threads=8128 >/dev/null ||
    fail "254 warps (8128 threads per SM) were refused"
"$SMSIM" occupancy --gpu a6000 --threads 256 --regs 32 --set sm.max_threads=8192 >/dev/null ||
    fail "occupancy refused 8192 threads per SM"
run_fail --set mem.smem_banks=128
contains "$work/err" "smem_banks = 128: must be 1..64"
run_fail --set mem.l1_line_bytes=1024 --set mem.l1_sector_bytes=8
contains "$work/err" "at most 32 sectors"
run_fail --set device.max_grid_x=1
contains "$work/err" "grid 4 x 4 exceeds"
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel sgemm-1 --size 1099511627776
contains "$work/err" "grid 34359738368 x 34359738368 exceeds"
# Buffers past the device memory: sgemm-5 at 65536 is 48 GiB of
# matrices, the A100 has 40 GiB.
expect_fail 2 "$SMSIM" run --gpu a100 --kernel sgemm-5 --size 65536
contains "$work/err" "its buffers take 48.0 GiB; a100 has 40.0 GiB of device memory"
# A small memory is shown in MiB, not as 0.0 GiB: vecadd's three
# buffers of 2^20 floats are 12 MiB, against 1 MiB.
expect_fail 2 "$SMSIM" run --gpu a6000 --set device.global_mem_mib=1 --kernel vecadd --size 1048576
contains "$work/err" "its buffers take 12.0 MiB; a6000 has 1.0 MiB of device memory"
# loaduse's loads reach 128 B x 100 warps x 2^20 iterations, 12.5 GiB,
# of a 1 GiB FOOTPRINT: all of it, past 512 MiB.  FOOTPRINT is what
# to make smaller (fewer warps would still reach all of it), not size.
expect_fail 2 "$SMSIM" run --gpu a6000 --set device.global_mem_mib=512 --kernel loaduse \
    --size 100 --param FOOTPRINT=1073741824 --param ITERS=1048576
contains "$work/err" "loaduse: FOOTPRINT = 1073741824: at size 100 its loads reach 1.0 GiB of it; a6000 has 512.0 MiB"
# --smem below what the kernel's shared accesses reach is refused:
# pmpp-tiled's two 16 x 16 float tiles are 2 x 16 x 16 x 4 = 2048 B;
# above it, it stands (fewer blocks fit).
expect_fail 2 "$SMSIM" run --gpu a100 --kernel pmpp-tiled --size 64 --smem 2047
contains "$work/err" "static shared memory of 2047 B a block: its shared accesses reach 2048 B"
"$SMSIM" run --gpu a100 --kernel pmpp-tiled --size 64 --smem 2048 >/dev/null ||
    fail "--smem of the kernel's own 2048 B refused"
# pchase loads 4-byte pointers: a stride of 5 leaves them misaligned,
# and one past WS wraps round the working set.
expect_fail 2 "$SMSIM" run --gpu a100 --kernel pchase --size 100 --param STRIDE=5
contains "$work/err" "pchase: STRIDE 5: a multiple of 4"
expect_fail 2 "$SMSIM" run --gpu a100 --kernel pchase --size 100 --param STRIDE=1048576 --param WS=128
contains "$work/err" "pchase: STRIDE 1048576: at most WS"
# A window past the main loop is refused, not cut to it: sgemm-5 at
# 1024 has 1024 / BK = 128 iterations.
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel sgemm-5 --size 1024 --window 129
contains "$work/err" "sgemm-5: a window of 129 iterations: the main loop has 128"
# ... and so are more SMs in full than the GPU has (it was cut to them).
expect_fail 2 "$SMSIM" run --gpu a100 --kernel vecadd --size 4096 --detailed-sms 109
contains "$work/err" "109 SMs in full: a100 has 108"
# A whole launch with mirrors says what its counters are: the SMs in
# full's issue standing for their mirrors' blocks.
"$SMSIM" run --gpu a6000 --kernel sgemm-2 --size 100 --detailed-sms 4 >"$work/mirrored"
contains "$work/mirrored" "simulation           whole launch, 4 of 84 SMs in full (the others mirror them)"
contains "$work/mirrored" "counters             issue, stalls and shared memory the SMs in full's"
# Negative --regs or --smem are refused, not taken for "the model's".
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-4 --size 256 --regs -5
contains "$work/err" "--regs -5: must not be negative"
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-4 --size 256 --smem -1
contains "$work/err" "--smem -1: must not be negative"
# Tilings the model cannot lay out are refused with the rule they
# break: kernel 6 with BK = 4 has 2 floats of A per thread, not a
# float4 (it divided by zero), and kernel 4's 32 threads cannot cover
# a 64 x 64 tile at 8 results each (it ran, wrongly).
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel sgemm-6 --size 128 --param BK=4
contains "$work/err" "whole passes of float4s"
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel sgemm-4 --size 256 --param THREADS=32
contains "$work/err" "(BM/TM) x BN must equal THREADS: (64/8) x 64 = 512, THREADS = 32"
# The numbers of the rule broken: sgemm-5's 128 x 128 tile in 8 x 4
# results is 16 x 32 = 512 threads, and the block has 256; sgemm-10's
# 128 x 128 tile in 64 x 64 warp tiles is 4 warps, and 256 threads 8.
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel sgemm-5 --size 256 --param TN=4
contains "$work/err" "(BM/TM) x (BN/TN) must equal THREADS: (128/8) x (128/4) = 512, THREADS = 256"
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel sgemm-10 --size 256 --param THREADS=256
contains "$work/err" "(BM/WM) x (BN/WN) warps must equal THREADS / 32: (128/64) x (128/64) = 4, THREADS / 32 = 8"
# A parameter a kernel does not take is refused, naming the kernels
# that take it (they were accepted and changed nothing).
expect_fail 2 "$SMSIM" run --gpu a100 --kernel sgemm-5 --size 256 --param WM=32
contains "$work/err" "sgemm-5: no parameter WM (kernels that take it: sgemm-10, sgemm-11;"
expect_fail 2 "$SMSIM" run --gpu a100 --kernel sgemm-4 --size 256 --param TN=4
contains "$work/err" "sgemm-4: no parameter TN (kernels that take it: sgemm-5, sgemm-6, sgemm-7, sgemm-8, sgemm-9, sgemm-10, sgemm-11;"
expect_fail 2 "$SMSIM" run --gpu a100 --kernel sgemm-1 --size 256 --param BM=32
contains "$work/err" "sgemm-1: no parameter BM (kernels that take it: sgemm-4, sgemm-5, sgemm-6, sgemm-7, sgemm-8, sgemm-9, sgemm-10, sgemm-11;"
expect_fail 2 "$SMSIM" run --gpu a100 --kernel vecadd --size 256 --param NOSUCH=1
contains "$work/err" "vecadd: no parameter NOSUCH (no kernel takes it;"
# A parameter with no value says so, not that the kernel lacks it; as
# in every command that takes --param.  A malformed command line: exit
# 1 (a value the kernel refuses is bad input, 2).
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-5 --size 256 --param BM
contains "$work/err" "sgemm-5: --param BM: give NAME=VALUE, e.g. BM=128 (8..256)"
expect_fail 1 "$SMSIM" trace gen --kernel sgemm-5 --size 256 -p BM -o "$work/bm.trace"
contains "$work/err" "sgemm-5: --param BM: give NAME=VALUE, e.g. BM=128 (8..256)"
expect_fail 1 "$SMSIM" plot timeline --kernel sgemm-5 --size 256 -p BM -o "$work/bm.png"
contains "$work/err" "sgemm-5: --param BM: give NAME=VALUE, e.g. BM=128 (8..256)"
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-5 --size 256 --param =128
contains "$work/err" "sgemm-5: --param =128: give NAME=VALUE"
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel sgemm-5 --size 256 --param BM=abc
contains "$work/err" "sgemm-5: BM = abc: must be an integer in 8..256"
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-5 --size 256 --param BM=
contains "$work/err" "sgemm-5: --param BM=: give NAME=VALUE, e.g. BM=128 (8..256)"
# The form is the command line's, checked before any value is: the
# status does not hang on the order of the options, or on a preset or
# value refused first.
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-5 --size 256 --param BM=abc --param TM
contains "$work/err" "sgemm-5: --param TM: give NAME=VALUE, e.g. TM=8 (1..16)"
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-5 --size 256 --set sm.registers=abc --param BM
expect_fail 1 "$SMSIM" trace gen --gpu nosuch --kernel sgemm-5 --size 256 -p BM -o "$work/bm.trace"
# So is a --set that is not GROUP.KEY=VALUE, no part empty, in every
# command that takes --set.
printf 'threads,regs\n256,32\n' >"$work/launches.csv"
for c in "run --kernel vecadd --size 256" "occupancy --threads 256 --regs 32" \
         "occupancy --batch $work/launches.csv" "query" "validate" \
         "plot coalescing" "sweep --vary kernel=vecadd --vary size=64" \
         "trace gen --kernel vecadd --size 64 -o $work/s.trace" \
         "trace replay $top_srcdir/traces/vecadd-4096.trace.gz"; do
    # shellcheck disable=SC2086
    expect_fail 1 "$SMSIM" $c --gpu a6000 --set sm.registers
    contains "$work/err" "--set sm.registers: expected GROUP.KEY=VALUE"
done
for s in =5 sm.=5 .registers=5 sm.registers=; do
    expect_fail 1 "$SMSIM" run --gpu a6000 --kernel vecadd --size 256 --set "$s"
    contains "$work/err" "--set $s: expected GROUP.KEY=VALUE"
done
# One the kernel does not take is refused as such, value or not: BM=32
# would be refused on sgemm-1 too.  Without a value it is malformed as
# well (exit 1), and the message says both.
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel sgemm-1 --size 256 --param BM=32
contains "$work/err" "sgemm-1: no parameter BM (kernels that take it: sgemm-4,"
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-5 --size 256 --param WM
contains "$work/err" "sgemm-5: --param WM: give NAME=VALUE; sgemm-5 has no parameter WM (kernels that take it: sgemm-10, sgemm-11;"
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-1 --size 256 --param BM
contains "$work/err" "sgemm-1 has no parameter BM (kernels that take it: sgemm-4,"
# Caches the launch leaves no set in ran as no cache at all: the A100's
# L1 beside its largest carveout is 192 KiB - 164 KiB = 28672 B, 224
# ways of 128 B; its L2 set 16 x 128 B = 2048 B.  An occupancy what-if
# with the same SM is still answered.
expect_fail 2 "$SMSIM" run --gpu a100 --kernel sgemm-5 --size 256 --set mem.l1_assoc=225 --set alloc.launch_carveout=max_shared
contains "$work/err" "leaves 28672 B of L1"
"$SMSIM" run --gpu a100 --kernel sgemm-5 --size 256 --set mem.l1_assoc=224 --set alloc.launch_carveout=max_shared >/dev/null ||
    fail "224 ways refused"
expect_fail 2 "$SMSIM" run --gpu a100 --kernel sgemm-5 --size 256 --set device.l2_kib=1
contains "$work/err" "one set of mem.l2_assoc = 16 ways needs 2048 B"
"$SMSIM" occupancy --gpu a100 --set device.l2_kib=1 --set alloc.carveout=false --threads 256 --regs 32 >/dev/null ||
    fail "occupancy refused a what-if SM without caches"
# Caches whose tags would fill the machine are refused before the first
# cycle: a 16 GiB L2 of 128-byte lines is 2^27 ways of 16 B, 2048 MiB
# (4096 SMs of 64 MiB L1s were 32 GB, killed by the OOM killer).  An
# L2 of 1 GiB (128 MiB of tags) still runs.
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel vecadd --size 65536 --set device.l2_kib=16777216
contains "$work/err" "more than smsim allows (1024 MiB)"
contains "$work/err" "device.l2_kib = 16777216, in lines of mem.l1_line_bytes = 128"
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel vecadd --size 65536 --set device.sm_count=4096 --set sm.l1_smem_kib=65536
contains "$work/err" "device.sm_count = 4096 L1s of"
"$SMSIM" run --gpu a6000 --kernel vecadd --size 65536 --set device.l2_kib=1048576 >/dev/null ||
    fail "an L2 of 1 GiB refused"
# Launches back to back keep a second L2, the one they start from: a
# 7 GiB L2 is 7 x 2^23 lines of 16 B, 896 MiB, under the budget alone
# and 1792 MiB, over it, twice.
"$SMSIM" run --gpu a6000 --kernel vecadd --size 65536 --set device.l2_kib=7340032 >/dev/null ||
    fail "an L2 of 7 GiB refused for one launch"
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel vecadd --size 65536 --set device.l2_kib=7340032 --launches 2
contains "$work/err" "two L2s (launches back to back keep the one they start from) of device.l2_kib = 7340032"
# So is a negative --size, with its value, not taken for "none given"
# (a malformed count, exit 1, as in every command); 0 is the model's to
# refuse.
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-4 --size -5
contains "$work/err" "--size -5: must not be negative"
expect_fail 2 "$SMSIM" run --gpu a6000 --kernel sgemm-4 --size 0
contains "$work/err" "size 0: must be positive"

# --window: at least 4 iterations, not with --exact, and only where
# the launch has a main loop to cut (vecadd has none).
for w in 2 0 -8; do
    expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-4 --size 256 --window "$w"
    contains "$work/err" "--window $w: give 4 or more"
done
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-4 --size 256 --window 8 --exact
contains "$work/err" "--window samples the main loop; --exact forbids it"
expect_fail 1 "$SMSIM" run --gpu a6000 --kernel sgemm-4 --size 256 --sampled --exact
contains "$work/err" "--sampled samples the main loop; --exact forbids it"
expect_fail 2 "$SMSIM" run --gpu a100 --kernel vecadd --size 65536 --window 8
contains "$work/err" "no main loop a sampled run can cut"
# --sampled too: not a report of an exact run instead.
expect_fail 2 "$SMSIM" run --gpu a100 --kernel vecadd --size 65536 --sampled
contains "$work/err" "vecadd: a sampled run was asked for, but the launch has no main loop"
contains "$work/err" "nor the waves to be sampled by them"
# With waves enough it is sampled by them: 2^22 floats on 8 SMs with a
# 1 MB L2 are 342 waves of 8 x 12 blocks of 128 threads, 12 B an
# element; the run takes the 57 full waves that touch 8 MB and the
# partial last one (run_waves.c).
"$SMSIM" run --gpu a6000 --set device.sm_count=8 --set device.l2_kib=1024 \
    --kernel vecadd --size 4194304 --sampled >"$work/w"
grep -qx "waves                58 of 342 simulated, the rest at the rate of the run's later half (no main loop to cut)" "$work/w" ||
    fail "run --sampled of vecadd printed: $(cat "$work/w")"
# It samples, and says so, with the window asked for: sgemm-4 at 256
# has K / BK = 256 / 8 = 32 iterations.  Cut to 8 the run is not the
# whole launch, so 4 SMs run in full, not all 84 (run_sample.c).
"$SMSIM" run --gpu a6000 --kernel sgemm-4 --size 256 --window 8 >"$work/w"
contains "$work/w" "simulation           sampled, 4 of 84 SMs in full"
grep -qx "window               8 of 32 main-loop iterations, 1 wave" "$work/w" ||
    fail "run --window 8 printed: $(cat "$work/w")"
# A sampled run warns that its counters are rougher; an exact one does
# not.
contains "$work/w" "counters             extrapolated too"
"$SMSIM" run --gpu a6000 --kernel sgemm-4 --size 256 --exact >"$work/w"
grep -q "^counters" "$work/w" && fail "run --exact printed: $(cat "$work/w")"

# --launches: 1 or more; the report says how many and whether they ran
# from the L2 the warm-up left (vecadd of 2^20 floats fits the A100's;
# sgemm-4 at 1024 is sampled over part of the launch, so its accesses
# are replayed into one, unless its 12 MB outgrow the L2),
# and JSON carries the count.
for n in 0 -3; do
    expect_fail 1 "$SMSIM" run --gpu a100 --kernel vecadd --size 1048576 --launches "$n"
    contains "$work/err" "--launches $n: give 1 or more"
done
"$SMSIM" run --gpu a100 --kernel vecadd --size 1048576 --launches 50 >"$work/l"
contains "$work/l" "launches             50 back to back after a warm-up"
contains "$work/l" "from the L2 the warm-up left"
"$SMSIM" run --gpu a100 --kernel sgemm-4 --size 1024 --launches 50 --verbose \
    >"$work/ls" 2>"$work/lv"
contains "$work/ls" "from the L2 a whole launch leaves (the warm-up was sampled: its global accesses replayed, untimed)"
contains "$work/lv" "the seconds include replaying the launch's accesses into the L2"
"$SMSIM" run --gpu a100 --kernel sgemm-4 --size 1024 --launches 50 \
    --set device.l2_kib=4096 >"$work/ls"
contains "$work/ls" "cold (the warm-up was sampled, and its data outgrow the L2"
"$SMSIM" run --gpu a100 --kernel sgemm-4 --size 1024 --launches 50 \
    --set device.l2_kib=4096 --format json >"$work/ls"
contains "$work/ls" '"warm_l2" : "cold-outgrown"'
contains "$work/ls" '"warm_l2_simulated" : false'
"$SMSIM" run --gpu a100 --kernel vecadd --size 1048576 --launches 50 \
    --format json >"$work/lj"
contains "$work/lj" '"launches" : 50'
contains "$work/lj" '"warm_l2_simulated" : true'
contains "$work/lj" '"warm_l2" : "warm-up"'
# An --exact run of many minutes says so first, on a terminal (script
# gives it one; timeout ends the run): its warp instructions, which the
# sampled run counts on its own, to a tenth of a billion.
if command -v script >/dev/null 2>&1; then
    # on_tty ARGS: the first 3 s of `smsim run ARGS` on a terminal.
    on_tty() {
        timeout 3 script -qec "$SMSIM run --gpu a6000 --kernel sgemm-1 $*" \
            /dev/null >"$work/tty" 2>&1 || :
    }
    n=$("$SMSIM" run --gpu a6000 --kernel sgemm-1 --size 4096 --format json |
        sed -n 's/^ *"warp_instructions" : \([0-9]*\).*/\1/p')
    want=$(awk -v n="$n" 'BEGIN { printf "about %.1f billion warp instructions", n / 1e9 }')
    on_tty --size 4096 --exact
    contains "$work/tty" "smsim run: an exact run of $want"
    on_tty --size 256 --exact
    grep -q "an exact run of" "$work/tty" && fail "a short exact run was warned of"
    # sgemm-1 at 4095, its edge blocks partly idle: its count by hand.
    # K = 4095 is 255 iterations of 74 and a tail of 15 steps (43 + 26 +
    # 7 + 3 x 10 instructions), with the prologue's 13 and the
    # epilogue's 7, 18996 a warp; from block 0's warp 0 for all 128 x
    # 128 blocks of 32 warps, 9.96e9.  Unasked it is sampled, unwarned.
    on_tty --size 4095 --exact
    contains "$work/tty" "smsim run: an exact run of about 10.0 billion warp instructions"
    on_tty --size 4095
    grep -q "an exact run of" "$work/tty" && fail "a sampled run was warned of"
    grep -q "a sampled run of" "$work/tty" && fail "a short sampled run was warned of"
    # So does a sampled run whose shortest window is that long.  An
    # iloop warp does N + 3 instructions an iteration (N FFMAs, the
    # counter, compare and branch) and 3 besides (a barrier either side
    # of the loop, the exit).  N = 2^20 and 2^20 iterations, one block of
    # 32 warps: the window starts at 64 and is cut no shorter than 32
    # (twice the 16th iteration, where the first wave's cost may settle),
    # (3 + 32 x 1048579) x 32 = 1,073,744,992, 8.9 minutes at 2 million
    # a second; --window 64 about twice that, 17.9 minutes; --window 4,
    # the least, (3 + 4 x 1048579) x 32 = 134,218,208, under a billion.
    iloop_on_tty() {
        timeout 3 script -qec "$SMSIM run --gpu a6000 --kernel iloop --size 32 --param N=1048576 --param ITERS=1048576 $*" \
            /dev/null >"$work/tty" 2>&1 || :
    }
    iloop_on_tty
    contains "$work/tty" "smsim run: a sampled run of about 1.1 billion warp instructions, at a window of 32 of 1048576 iterations, the shortest it cuts one to: some 9 minutes"
    contains "$work/tty" "--window 4, the least (and the least accurate), would take about 0.1 billion"
    iloop_on_tty --window 64
    contains "$work/tty" "smsim run: a sampled run of about 2.1 billion warp instructions, at a window of 64 of 1048576 iterations: some 18 minutes"
    iloop_on_tty --window 4
    grep -q "a sampled run of" "$work/tty" && fail "a sampled run under a billion was warned of"
fi
# Not in a log: standard error is a file.
timeout 3 "$SMSIM" run --gpu a6000 --kernel sgemm-1 --size 4096 --exact \
    >/dev/null 2>"$work/err" || :
grep -q "an exact run of" "$work/err" && fail "the warning went into a log"
echo "run ok"
