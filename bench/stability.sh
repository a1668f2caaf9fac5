#!/bin/sh
# Benchmark: how much the validation's sampled figures move when a
# memory latency moves by one cycle (L2 hit and DRAM, each up and
# down): not a what-if (the exact run of sgemm-10 on the A6000 moves by
# 0.14 % with DRAM a cycle slower) but a measure of how much of a
# figure is the sampled run's chaos -- four SMs in full and their
# mirrors standing for the whole GPU over a window of the loop, where a
# cycle can change which warp goes first and with it the window's rate
# or how the last wave is dealt out (docs/sampling.md).  Prints each kernel's
# GFLOP/s with the presets and its largest move, and the mean of those.
# Nothing here chooses a value.
# Five validations per GPU: about a minute for both on two cores.
#   GPUS=a6000 sh bench/stability.sh
set -eu
: "${SMSIM:=./smsim}"
: "${GPUS:=a6000 a100}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for gpu in $GPUS; do
    "$SMSIM" validate --gpu "$gpu" --format csv > "$tmp/base.csv"
    n=0
    for kv in mem.l2_hit_latency_cycles mem.dram_latency_cycles; do
        v=$("$SMSIM" query --gpu "$gpu" --sources |
            awk -v k="${kv#mem.}" '$1 == "[mem]" && $2 == k { print $4 }')
        [ -n "$v" ] || { echo "no $kv in $gpu's preset" >&2; exit 1; }
        for d in -1 1; do
            n=$((n + 1))
            "$SMSIM" validate --gpu "$gpu" --format csv \
                --set "$kv=$((v + d))" > "$tmp/run$n.csv"
        done
    done
    echo "$gpu: GFLOP/s with the preset, and the largest move with a latency a cycle off"
    awk -F, -v n="$n" '
        FNR == 1 { f++; next }
        $4 == "" { next }    # cuBLAS: a reference line only
        f == 1 { k[FNR] = $2; base[FNR] = $4; rows = FNR; next }
        { d = 100 * ($4 - base[FNR]) / base[FNR]; if (d < 0) d = -d
          if (d > worst[FNR]) worst[FNR] = d }
        END { for (i = 2; i <= rows; i++) {
                  if (!(i in k)) continue
                  printf "  %-9s %9.1f  %5.1f %%\n", k[i], base[i], worst[i]
                  s += worst[i]; m++ }
              printf "  mean largest move %.1f %% over %d kernels (%d runs)\n",
                     s / m, m, n }' \
        "$tmp/base.csv" "$tmp"/run*.csv
done
