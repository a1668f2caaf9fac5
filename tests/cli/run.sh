#!/bin/sh
# `smsim kernels` and `smsim run`: the listing, the JSON keys DESIGN.md
# promises, and the errors.
. "${top_srcdir:-.}/tests/cli/setup"

"$SMSIM" kernels >"$work/k"
for id in vecadd pchase stream loaduse pmpp-tiled sgemm-1 sgemm-10; do
    grep -q "^$id " "$work/k" || fail "kernels lacks $id"
done

"$SMSIM" run --gpu a100 --kernel vecadd --size 65536 --format json >"$work/j"
for key in cycles time_ms gflops theoretical_occupancy achieved_occupancy \
           warp_instructions stalls selected long_scoreboard l1_hit_rate \
           l2_hit_rate dram_bytes smem_bank_conflicts sampled limiter; do
    contains "$work/j" "\"$key\""
done
# 65536 elements / 32 = 2048 warps, each (kernels/cuda/vecadd.cuh as
# compiled: 2 MOV, 4 IMAD, ISETP, 2 LDG, FADD, STG) 11 instructions
# plus EXIT: 2048 x 12 = 24576.
contains "$work/j" '"warp_instructions" : 24576'

"$SMSIM" run --gpu a6000 --kernel pchase --size 500 --param WS=4096 >"$work/t"
contains "$work/t" "warp cycles per issued instruction"

# The limiter comes from the counters: a big copy is DRAM bound, one
# thread's pointer chase is latency bound.
"$SMSIM" run --gpu a100 --kernel stream --size 8388608 >"$work/s"
contains "$work/s" "limited by           DRAM bandwidth"
"$SMSIM" run --gpu a100 --kernel pchase --size 1000 >"$work/p"
contains "$work/p" "limited by           latency"

expect_fail 2 "$SMSIM" run --gpu a100 --kernel nosuch --size 10
contains "$work/err" "unknown kernel 'nosuch'"
expect_fail 2 "$SMSIM" run --gpu k40 --kernel vecadd --size 1024
contains "$work/err" "no sourced timing"
expect_fail 2 "$SMSIM" run --gpu a100 --kernel vecadd --size 1024 --param BLOCK=2000
contains "$work/err" "BLOCK = 2000"
expect_fail 2 "$SMSIM" run --gpu a100 --kernel vecadd --size 1024 --regs 300
expect_fail 1 "$SMSIM" run --gpu a100 --kernel vecadd
expect_fail 1 "$SMSIM" run --gpu a100 --kernel vecadd --size 10 --format xml
echo "run ok"
