#!/bin/sh
# Benchmark: what mirroring costs at 4096.  Every SGEMM kernel's
# sampled run with the default four SMs in full (the others mirroring
# them in lockstep, gpu.h) beside the same run with every SM in full,
# in GFLOP/s, and the difference.  Not a test: the runs with every SM
# in full take 6 to 18 s each on the A6000 (some two minutes in all).
#   GPU=a100 KERNELS="3 9" sh bench/mirroring.sh
#   DETAILED=12 sh bench/mirroring.sh   (12 SMs in full, not the default 4)
set -eu
: "${SMSIM:=./smsim}"
: "${GPU:=a6000}"
: "${SIZE:=4096}"
: "${KERNELS:=1 2 3 4 5 6 7 8 9 10 11}"
: "${DETAILED:=4}"

gflops() {   # gflops ARGS...: the run's GFLOP/s; fails with smsim
    out=$("$SMSIM" run "$@" --format json) || return 1
    v=$(printf '%s\n' "$out" | sed -n 's/^ *"gflops" : \([0-9.]*\).*/\1/p')
    [ -n "$v" ] && echo "$v"
}

sms=$("$SMSIM" query --gpu "$GPU" --format json |
      sed -n '/"device.sm_count"/,/}/s/^ *"value" : "\([0-9]*\)".*/\1/p')
[ -n "$sms" ] || { echo "mirroring.sh: no SM count for $GPU" >&2; exit 2; }
worst=0
sum=0
n=0
failed=0
printf '%-9s %12s %12s %8s\n' kernel "$DETAILED in full" "all $sms" difference
for k in $KERNELS; do
    set -- --gpu "$GPU" --kernel "sgemm-$k" --size "$SIZE"
    m=$(gflops "$@" --sampled --detailed-sms "$DETAILED") &&
        a=$(gflops "$@" --sampled --detailed-sms "$sms") || {
        echo "mirroring.sh: sgemm-$k on $GPU failed" >&2
        failed=1
        continue
    }
    d=$(awk -v m="$m" -v a="$a" 'BEGIN { printf "%.1f", 100 * (m - a) / a }')
    printf '%-9s %12.1f %12.1f %7s%%\n' "sgemm-$k" "$m" "$a" "$d"
    worst=$(awk -v w="$worst" -v x="$d" 'BEGIN { x = x < 0 ? -x : x; print (x > w) ? x : w }')
    sum=$(awk -v s="$sum" -v x="$d" 'BEGIN { print s + (x < 0 ? -x : x) }')
    n=$((n + 1))
done
[ "$n" -gt 0 ] &&
    awk -v s="$sum" -v n="$n" 'BEGIN { printf "mean |mirrored - all in full| / all in full: %.1f %%\n", s / n }'
echo "worst |mirrored - all in full| / all in full: $worst %"
exit $failed
