#!/bin/sh
# Benchmark: what kernels/cuda/probes.cu would print on a GPU that were
# the preset.  The smem probe's loop is the smemld model, the l1 probe's
# rings are pchase launches; the same inference, the same PROBE lines,
# to set beside the probe's on the real GPU (kernels/cuda/README.md,
# "Probes").  Not a test: the l1 part runs some 1,200 launches, the
# icache part 54 (some twenty seconds in all).  GPU and SET change it, e.g.
#   GPU=a100 SET="mem.l1_assoc=8" sh bench/probes.sh
# The icache probe's loop is the iloop model: flat on the presets, which
# fetch every instruction in time; SET="fetch.l0_bytes=..." models fetch
# (src/sim/icache.h).
set -eu
: "${SMSIM:=./smsim}"
: "${GPU:=a6000}"
: "${SET:=}"

opts=
for s in $SET; do opts="$opts --set $s"; done

# A failed run ends the script, even from a command substitution or an
# `if` (where set -e does not reach): no verdict from missing figures.
die() {
    echo "probes.sh: $*" >&2
    kill -TERM $$
    exit 1
}

cycles() {   # cycles ARGS...: a run's cycles
    # shellcheck disable=SC2086 # $opts is a list of options
    out=$("$SMSIM" run --gpu "$GPU" $opts --format json "$@") ||
        die "smsim run --gpu $GPU$opts $* failed"
    c=$(printf '%s\n' "$out" | sed -n 's/^ *"cycles" : \([0-9]*\).*/\1/p')
    case $c in
    '' | *[!0-9]*) die "smsim run --gpu $GPU$opts $*: no cycles in its output" ;;
    esac
    echo "$c"
}

echo "smem: SM cycles per warp shared load, 32 warps on one SM ($GPU${SET:+, $SET})"
printf '  %-8s %5s %9s\n' pattern width cycles
iters=32
for width in 4 8 16; do
    p=0
    for name in uniform halves k6-bs rows stride2; do
        c=$(cycles --kernel smemld --size 32 --param "WIDTH=$width" \
            --param "PATTERN=$p" --param "ITERS=$iters")
        per=$(awk -v c="$c" -v n=$((32 * iters * 64)) 'BEGIN { printf "%.3f", c / n }')
        printf '  %-8s %5d %9s\n' "$name" "$width" "$per"
        echo "PROBE smem pattern=$name width=$width cycles=$per"
        p=$((p + 1))
    done
done

# The probe runs each loop twice and times the second, its code warm;
# smsim's runs start cold, so each size runs with a iterations and with
# 2a (some 32 K instructions a warp, at least 4), and the a iterations
# between them, the first pass's misses left out, are the figure.
echo
echo "icache: warp instructions per cycle on one SM, a loop of N independent FFMAs ($GPU${SET:+, $SET})"
printf '  %6s %8s %8s %8s %8s\n' N "code KB" "4 w" "8 w" "16 w"
for n in 256 512 1024 2048 3072 4096 6144 8192 12288; do
    a=$((32768 / n))
    [ "$a" -ge 4 ] || a=4
    row= ipcs=
    for w in 4 8 16; do
        c1=$(cycles --kernel iloop --size "$w" --param "N=$n" --param "ITERS=$a")
        c2=$(cycles --kernel iloop --size "$w" --param "N=$n" --param "ITERS=$((2 * a))")
        ipc=$(awk -v c="$((c2 - c1))" -v n=$((w * a * n)) 'BEGIN { printf "%.3f", n / c }')
        row="$row $(printf '%8s' "$ipc")"
        ipcs="$ipcs $w=$ipc"
    done
    printf '  %6d %8d%s\n' "$n" $((n * 16 / 1024)) "$row"
    for wi in $ipcs; do
        echo "PROBE icache n=$n kb=$((n * 16 / 1024)) warps=${wi%%=*} ipc=${wi#*=}"
    done
done

# The chase as the probe runs it: a ring of k lines m lines apart, 4096
# steps (smsim's include the k cold loads: a few cycles a step at most).
step() {   # step K M: cycles a step
    c=$(cycles --kernel pchase --size 4096 --param "WS=$(($1 * $2 * 128))" \
        --param "STRIDE=$(($2 * 128))")
    awk -v c="$c" 'BEGIN { printf "%.1f", c / 4096 }'
}
misses() {   # misses K M: whether the ring misses
    awk -v t="$(step "$1" "$2")" -v mid="$mid" 'BEGIN { exit !(t > mid) }'
}
hit=$(step 1 1)
# The probe's 512 KB ring, warmed first, hits L2; smsim's run of it is
# every line cold, so the L2 latency is read off the preset instead.
# shellcheck disable=SC2086 # $opts is a list of options
l2=$("$SMSIM" query --gpu "$GPU" $opts --format json |
    sed -n '/"mem.l2_hit_latency_cycles"/,/"value"/s/^ *"value" : "\([0-9]*\)".*/\1/p')
case $l2 in
'' | *[!0-9]*) die "smsim query --gpu $GPU$opts: no mem.l2_hit_latency_cycles" ;;
esac
mid=$(awk -v a="$hit" -v b="$l2" 'BEGIN { print (a + b) / 2 }')
echo
echo "l1: a ring of 32 lines m lines apart (an L1 hit $hit cycles a step, L2 $l2: a ring misses past $mid)"
missing=
n=0
m=1
while [ "$m" -le 1024 ]; do
    if misses 32 "$m"; then missing="$missing $m"; n=$((n + 1)); fi
    m=$((m + 1))
done
echo "strides at which a ring of 32 lines misses: $n of 1024"
if [ "$n" -eq 0 ]; then
    echo "PROBE l1 index=hashed-or-wide"
    exit 0
fi
least=33
sets=0
for m in $missing; do
    lo=1 hi=32
    while [ $((hi - lo)) -gt 1 ]; do
        k=$(((lo + hi) / 2))
        if misses "$k" "$m"; then hi=$k; else lo=$k; fi
    done
    echo "PROBE l1 stride_lines=$m knee=$hi"
    if [ "$hi" -lt "$least" ]; then least=$hi; sets=$m; fi
done
# probes.cu's verdict (plain_ring_misses and after): a plain index of
# 'sets' sets and 'ways' ways makes a ring of 32 lines m lines apart
# visit d = sets / gcd(sets, m) sets; under LRU the lines of sets holding
# more than 'ways' miss, and the ring misses where they are over half.
echo "$missing" | awk -v sets="$sets" -v ways=$((least - 1)) -v n="$n" '
    function gcd(a, b) { while (b) { t = a % b; a = b; b = t } return a }
    function predicted(m,    d, q, extra, crowded) {
        d = sets / gcd(sets, m); q = int(32 / d); extra = 32 % d
        crowded = (q + 1 > ways ? extra * (q + 1) : 0) + (q > ways ? (d - extra) * q : 0)
        return 2 * crowded > 32
    }
    { for (i = 1; i <= NF; i++) seen[$i] = 1 }
    END {
        multiples = 1
        for (m = 1; m <= 1024; m++) {
            wrong += predicted(m) != (m in seen)
            if (m % sets == 0 && !(m in seen)) multiples = 0
        }
        tolerance = n / 20 > 1 ? int(n / 20) : 1
        plain = multiples && sets * ways * 128 <= 256 * 1024 && wrong <= tolerance
        printf "PROBE l1 sets=%d ways=%d wrong=%d index=%s\n", sets, ways, wrong,
               plain ? "plain" : "hashed"
    }'
