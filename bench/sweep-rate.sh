#!/bin/sh
# Benchmark: `smsim sweep` points per second.  Run mode on small sizes
# (whole-GPU simulations of a few milliseconds each) with -j 1 and -j 2,
# and the speed-up; occupancy mode (the calculator only) on 100,000
# points.  Prints the figures; not a test (the machine may be shared).
set -eu
: "${SMSIM:=./smsim}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
rate() {   # rate LABEL POINTS START END
    awk -v l="$1" -v n="$2" -v s="$3" -v e="$4" \
        'BEGIN { t = e - s; printf "%s: %d points in %.2f s (%.1f points/s)\n", l, n, t, n / t }'
}

# 6 launches x 2 x 6 = 72 points of 20 to 200 ms each.
printf 'kernel,size\nvecadd,65536\nstream,65536\nloaduse,1024\nloaduse,4096\npmpp-tiled,64\npmpp-tiled,128\n' \
    >"$work/points.csv"
run="--gpu a100 --points $work/points.csv --vary sm.max_blocks=16,32
     --vary mem.dram_latency_cycles=300,400,500,600,700,800"
n=72
for j in 1 2; do
    start=$(now)
    # shellcheck disable=SC2086
    "$SMSIM" sweep $run -j $j -o "$work/run$j.csv"
    end=$(now)
    rate "sweep, run mode, small sizes, -j $j" $n "$start" "$end"
    echo "$start $end" >"$work/t$j"
done
cmp "$work/run1.csv" "$work/run2.csv" || echo "WARNING: -j 1 and -j 2 differ"
paste "$work/t1" "$work/t2" |
    awk '{ printf "speed-up on 2 threads: %.2fx\n", ($2 - $1) / ($4 - $3) }'

occ="--gpu a100 --mode occupancy --vary threads=32,64,96,128,192,256,384,512,768,1024
     --vary regs=16,24,32,40,48,64,96,128,168,255 --vary smem=0,2048,8192,16384,24576,32768,40960,49152,65536,98304
     --vary carveout=-1,0,25,50,75,100,10,20,30,40 --vary sm.registers=65536,131072,98304,32768,262144,49152,81920,114688,163840,196608"
for j in 1 2; do
    start=$(now)
    # shellcheck disable=SC2086
    "$SMSIM" sweep $occ -j $j -o "$work/occ$j.csv"
    end=$(now)
    rate "sweep, occupancy mode, -j $j" 100000 "$start" "$end"
done
