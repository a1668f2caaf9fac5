#!/bin/sh
# Benchmark: sampled vs exact cycles for every SGEMM kernel at 256, 512
# and 1024, on the a6000 preset and on the a6000 made small
# (device.sm_count=8) so that these sizes run several waves and the
# wave and tail extrapolation is exercised (issue 6 asks for 2 %).
# Prints one line per run and the worst error in cycles, with the DRAM
# bytes' error beside it (the counters are extrapolated too, more
# roughly: docs/sampling.md); not a test (the exact runs at 1024 take
# minutes).
# SIZES, SMS and KERNELS narrow it down, GPUS widens it to other
# presets (SMS=full keeps a preset's own SMs):
#   SIZES=512 SMS=8 sh bench/sampling.sh
#   GPUS="a100 h100" SIZES=2048 SMS=full sh bench/sampling.sh
#   SIZES="500 700 1000" KERNELS="1 2" sh bench/sampling.sh  (edge blocks)
set -eu
: "${SMSIM:=./smsim}"
: "${SIZES:=256 512 1024}"
: "${SMS:=full 8}"
: "${KERNELS:=1 2 3 4 5 6 7 8 9 10 11}"
: "${GPUS:=a6000}"

measure() {   # measure MODE ARGS...: the run's cycles and DRAM bytes
    mode=$1
    shift
    out=$("$SMSIM" run "$@" "--$mode" --format json) || return 1
    c=$(printf '%s\n' "$out" | sed -n 's/^ *"cycles" : \([0-9]*\).*/\1/p')
    d=$(printf '%s\n' "$out" | sed -n 's/^ *"dram_bytes" : \([0-9]*\).*/\1/p')
    [ -n "$c" ] && [ -n "$d" ] && echo "$c $d"
}

percent() {   # percent SAMPLED EXACT: the error, or - where exact is 0
    awk -v e="$2" -v s="$1" 'BEGIN { if (e == 0) print "-"; else printf "%.2f%%", 100 * (s - e) / e }'
}

worst=0
failed=0
runs=0
within=0
printf '%-6s %-5s %-9s %5s %12s %12s %8s %9s\n' GPU SMs kernel size exact sampled error DRAM
for gpu in $GPUS; do
for sms in $SMS; do
    for size in $SIZES; do
        for k in $KERNELS; do
            set -- --gpu "$gpu" --kernel "sgemm-$k" --size "$size"
            [ "$sms" = full ] || set -- "$@" --set "device.sm_count=$sms"
            e=$(measure exact "$@") && s=$(measure sampled "$@") || {
                echo "sampling.sh: sgemm-$k at $size on $gpu ($sms SMs) failed" >&2
                failed=1
                continue
            }
            # e and s are "CYCLES DRAM_BYTES"
            err=$(percent "${s% *}" "${e% *}")
            dram=$(percent "${s#* }" "${e#* }")
            printf '%-6s %-5s %-9s %5s %12s %12s %8s %9s\n' "$gpu" "$sms" "sgemm-$k" "$size" "${e% *}" "${s% *}" "$err" "$dram"
            worst=$(awk -v w="$worst" -v x="${err%\%}" 'BEGIN { x = x < 0 ? -x : x; print (x > w) ? x : w }')
            runs=$((runs + 1))
            # issue 6's bound: within 2 % of exact in cycles
            awk -v x="${err%\%}" 'BEGIN { exit !(x >= -2 && x <= 2) }' &&
                within=$((within + 1))
        done
    done
done
done
echo "worst |sampled - exact| / exact: $worst %; within 2 %: $within of $runs runs"
exit $failed
