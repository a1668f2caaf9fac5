#!/bin/sh
# `smsim occupancy` in its three formats, on the seeds' worked examples
# (expected values derived in tests/test-occ.c's comments).
. "${top_srcdir:-.}/tests/cli/setup"

# Seed 003: cc 7.0, 37 registers, 128 threads -> 75 %, registers.
"$SMSIM" occupancy --gpu v100 --threads 128 --regs 37 >"$work/t"
contains "$work/t" "Active blocks per SM:   12"
contains "$work/t" "Occupancy:              75.0 %"
contains "$work/t" "Limited by:             registers"
contains "$work/t" "1184 per warp, rounded up to the 256-register allocation unit: 1280"
contains "$work/t" "16384 / 1280 = 12 warps (12.80, rounded down)"

# Seed 000: 32 KB x 256 threads on A100: 50 % exact, 64.1 % textbook.
"$SMSIM" occupancy --gpu a100 --threads 256 --regs 32 --smem 32768 >"$work/p"
contains "$work/p" "Occupancy:              50.0 %"
contains "$work/p" "32768 B static + 0 B dynamic + 1024 B the driver reserves = 33792 B"
contains "$work/p" "167936 / 33792 = 4 blocks (4.97, rounded down)"
contains "$work/p" "Textbook estimate (per-thread arithmetic, as in PMPP 4.7/5.6): 64.1 %"
contains "$work/p" "= 128 B per thread"
contains "$work/p" "1024 B of shared memory per block for the driver"

# A block of 33 threads is 2 warps: 32 blocks (the block slots) fill all
# 64 warp slots, 100 %; the estimate counts 32 x 33 = 1056 of 2048
# threads, 51.6 %.  Equal thread counts, unequal occupancies: the text
# must not say the rules agree.
"$SMSIM" occupancy --gpu a100 --threads 33 --regs 32 >"$work/w"
contains "$work/w" "Occupancy:              100.0 %"
contains "$work/w" "Textbook estimate (per-thread arithmetic, as in PMPP 4.7/5.6): 51.6 %"
contains "$work/w" "whole warps: a block of 33 threads takes 2 warp slots (64 threads), and occupancy counts warps: 64 of 64"
if grep -qF "agree here" "$work/w"; then fail "33 threads: 100 % and 51.6 % said to agree"; fi

# No block fits (16 sub-partitions of 4096 registers; 168 x 32 = 5376
# a warp): 0 blocks is the calculator's answer, and it says a launch
# cannot run; a launch that fits does not say so.
"$SMSIM" occupancy --gpu a6000 --threads 128 --regs 168 --set sm.sub_partitions=16 --set sm.fp32_lanes=512 >"$work/z"
contains "$work/z" "Active blocks per SM:   0"
contains "$work/z" "4096 / 5376 = 0 warps (0.76, rounded down)"
contains "$work/z" "Not one block fits an SM: the launch cannot run"
if grep -qF "Not one block fits" "$work/t"; then fail "a launch that fits said not to"; fi

# CSV: one header, one row, the columns DESIGN.md names.
"$SMSIM" occupancy --gpu a100 --threads 512 --regs 33 --format csv >"$work/c"
[ "$(wc -l <"$work/c")" -eq 2 ] || fail "csv has $(wc -l <"$work/c") lines"
head -1 "$work/c" | grep -q "^gpu,threads,regs,static_smem,dyn_smem,carveout,blocks_per_sm,warps_per_sm,threads_per_sm,occupancy,limiter" || fail "csv header"
contains "$work/c" "a100,512,33,0,0,-1,3,48,1536,75.00,registers"

# JSON.
"$SMSIM" occupancy --gpu a6000 --threads 1024 --regs 37 --smem 8192 --format json >"$work/j"
contains "$work/j" '"blocks_per_sm" : 1'
contains "$work/j" '"limiter" : "registers+warps"'

# Carveout preference: 50 % of 100 KB rounds up to the 64 KB step.
"$SMSIM" occupancy --gpu a6000 --threads 128 --regs 32 --smem 49152 --carveout 50 --format csv >"$work/cv"
contains "$work/cv" "a6000,128,32,49152,0,50,1,4,128,8.33,shared_mem"

# -o writes the file whole.
"$SMSIM" occupancy --gpu t4 --threads 256 --regs 64 --format csv -o "$work/out.csv"
contains "$work/out.csv" "t4,256,64,"
# Halves round up, as a reader rounds: 8192 B + the driver's 1024 in the
# A100's smallest carveout that holds them (16 KiB) is 1 block of 4
# warps, 4 of 64 = 6.25 %, shown as 6.3 (printf's binary rounding gave
# 6.2).
"$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 --smem 8192 \
    --carveout 0 >"$work/half"
contains "$work/half" "Occupancy:              6.3 %"
# One block slot is one block, not "1 blocks": 128 threads are 4 warps
# of the A100's 64 slots, and the textbook's thread slots min(2048, 1 x
# 128) = 128.
"$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 --set sm.max_blocks=1 >"$work/one"
contains "$work/one" "an SM holds at most 1 block; 1 block x 4 warps = 4 of 64 warp slots."
contains "$work/one" "thread slots:  128 threads (2048 per SM, 1 block of 128)"
grep -q "1 blocks" "$work/one" && fail "1 blocks: $(grep '1 blocks' "$work/one")"
echo "occupancy ok"
