#!/bin/sh
# Benchmark: back-to-back launches after a sampled warm-up (issue 6).
# Each SGEMM kernel at 1024 on the A100, whose 12 MB of matrices fit
# its 40 MB L2, timed as published figures are (--launches 50): one
# cold launch, then 50 the default way -- a sampled warm-up whose
# accesses are replayed into the L2 a whole launch leaves, where it is
# sampled (run_replay.h) -- and 50 with the warm-up and the timed launch
# exact, the reference; in GFLOP/s, the replayed run's difference from
# the exact pair, and that run's wall time (warm-up, replay and timed
# launch).  Not a test: the exact pairs take 7 to 130 s each (some ten
# minutes in all).
#   GPU=a100 SIZE=1024 KERNELS="4 7" sh bench/launches.sh
set -eu
: "${SMSIM:=./smsim}"
: "${GPU:=a100}"
: "${SIZE:=1024}"
: "${KERNELS:=1 2 3 4 5 6 7 8 9 10}"

member() {   # member NAME FILE: a JSON member's value, quotes dropped
    sed -n "s/^ *\"$1\" : \"*\([^\",]*\)\"*,*$/\1/p" "$2"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
printf '%-9s %9s %9s %-8s %9s %10s %8s\n' kernel cold "50" from "50 exact" difference time
for k in $KERNELS; do
    set -- --gpu "$GPU" --kernel "sgemm-$k" --size "$SIZE" --format json
    if "$SMSIM" run "$@" >"$tmp/c" &&
       /usr/bin/time -o "$tmp/t" -f '%e' "$SMSIM" run "$@" --launches 50 >"$tmp/w" &&
       "$SMSIM" run "$@" --launches 50 --exact >"$tmp/e"; then :; else
        echo "launches.sh: sgemm-$k on $GPU failed" >&2
        failed=1
        continue
    fi
    printf '%s %s %s %s %s %s\n' "sgemm-$k" "$(member gflops "$tmp/c")" \
        "$(member gflops "$tmp/w")" "$(member warm_l2_from "$tmp/w")" \
        "$(member gflops "$tmp/e")" "$(cat "$tmp/t")"
done | awk '{ d = 100 * ($3 - $5) / $5; a = d < 0 ? -d : d; if (a > w) w = a
              printf "%-9s %9.1f %9.1f %-8s %9.1f %+9.2f%% %7.1fs\n", $1, $2, $3, $4, $5, d, $6 }
            END { printf "largest difference from the exact pair: %.2f %%\n", w }'
exit "$failed"
