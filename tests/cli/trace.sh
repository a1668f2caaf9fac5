#!/bin/sh
# `smsim trace gen|info|replay`: a replay reports exactly what `smsim
# run` of the model reports (same cycles, instructions, counters), plain
# or gzip, exact or sampled; info's counts follow the kernel's source;
# gen writes whole or not at all.
. "${top_srcdir:-.}/tests/cli/setup"

# same KERNEL SIZE [RUN OPTIONS...]: the model's run and its trace's
# replay print the same JSON, byte for byte ($P: kernel parameters).
same() {
    kernel=$1 size=$2
    shift 2
    # shellcheck disable=SC2086
    "$SMSIM" trace gen --gpu a100 --kernel "$kernel" --size "$size" ${P:-} \
        -o "$work/$kernel.trace.gz" >/dev/null
    # shellcheck disable=SC2086
    "$SMSIM" trace gen --gpu a100 --kernel "$kernel" --size "$size" ${P:-} \
        -o "$work/$kernel.trace" >/dev/null
    # shellcheck disable=SC2086
    "$SMSIM" run --gpu a100 --kernel "$kernel" --size "$size" ${P:-} \
        --format json "$@" >"$work/run.json"
    for f in "$work/$kernel.trace.gz" "$work/$kernel.trace"; do
        "$SMSIM" trace replay "$f" --gpu a100 --format json "$@" >"$work/replay.json"
        cmp -s "$work/run.json" "$work/replay.json" ||
            fail "$kernel $size $*: replay of $f differs: $(diff "$work/run.json" "$work/replay.json")"
    done
}
same vecadd 5000
same pmpp-tiled 64
same sgemm-5 128
same sgemm-10 128 --exact
# Sampled, the replay takes the same windows as the run (test-trace.c
# checks windows shorter than the loop stream by stream).
P="--param TILE_WIDTH=8" same pmpp-tiled 128 --sampled
contains "$work/replay.json" '"sampled" : true'

# The text report too, and without --gpu the trace's own GPU.
"$SMSIM" run --gpu a100 --kernel pmpp-tiled --size 128 --param TILE_WIDTH=8 \
    >"$work/run.txt"
"$SMSIM" trace replay "$work/pmpp-tiled.trace.gz" >"$work/replay.txt"
cmp -s "$work/run.txt" "$work/replay.txt" || fail "text reports differ"

# A gzip trace decompressed is the plain trace.
zcat "$work/pmpp-tiled.trace.gz" | cmp -s - "$work/pmpp-tiled.trace" ||
    fail "zcat of the gzip trace is not the plain trace"

# info: vecadd at n = 4096 (kern_vecadd.c): n / 32 = 128 warps, each two
# 32-bit loads (x[i], y[i]), one FADD, one 32-bit store, one EXIT;
# 2 x 4 n = 32768 bytes loaded, 4 n = 16384 stored, n FLOPs.
"$SMSIM" trace gen --kernel vecadd --size 4096 -o "$work/v.trace" >/dev/null
"$SMSIM" trace info "$work/v.trace" >"$work/info"
contains "$work/info" "launch               grid 32 x 1, 128 threads (4 warps)"
grep -q '^  LDG.32 *256$' "$work/info" || fail "LDG.32 is not 256: $(cat "$work/info")"
grep -q '^  STG.32 *128$' "$work/info" || fail "STG.32 is not 128"
grep -q '^  FADD *128$' "$work/info" || fail "FADD is not 128"
grep -q '^  global loads *32768$' "$work/info" || fail "global loads"
grep -q '^  global stores *16384$' "$work/info" || fail "global stores"
contains "$work/info" "FLOPs                4096 (header), 4096 (FP32"
contains "$work/info" "barriers             0 warp BAR"
# Replayed on a GPU whose limits its launch (grid 32 x 1 of 128 x 1)
# passes, as `run` of the model is: refused, naming the limit.
expect_fail 2 "$SMSIM" trace replay "$work/v.trace" --gpu a100 --set device.max_block_x=64
contains "$work/err" "a block of 128 x 1 threads exceeds a100's largest dimensions, 64 x 1024"
expect_fail 2 "$SMSIM" trace replay "$work/v.trace" --gpu a100 --set device.max_grid_x=8
contains "$work/err" "grid 32 x 1 exceeds a100's largest, 8 x 65535"
# pmpp-tiled, n = 64, TILE_WIDTH 16: two barriers per phase, 4 phases,
# 16 blocks of 8 warps: 2 x 4 x 16 x 8 = 1024.
"$SMSIM" trace gen --kernel pmpp-tiled --size 64 -o "$work/p.trace.gz" >/dev/null
"$SMSIM" trace info "$work/p.trace.gz" >"$work/info"
contains "$work/info" "barriers             1024 warp BAR instructions, 8.00 per warp per block"

# Whole or not at all: a failed gen leaves nothing behind.
expect_fail 2 "$SMSIM" trace gen --kernel nosuch --size 10 -o "$work/x.trace"
contains "$work/err" "unknown kernel 'nosuch'"
expect_fail 2 "$SMSIM" trace gen --kernel vecadd --size 10 -o "$work/no/dir/x.trace"
contains "$work/err" "no directory $work/no/dir to write it in"
[ "$(ls "$work" | grep -c 'x\.trace')" -eq 0 ] || fail "a failed gen left a file"
expect_fail 1 "$SMSIM" trace gen --kernel vecadd --size 10
expect_fail 1 "$SMSIM" trace gen --kernel vecadd --size -5 -o "$work/neg.trace"
contains "$work/err" "--size -5: must not be negative"
[ -e "$work/neg.trace" ] && fail "trace gen --size -5 left a file"
expect_fail 1 "$SMSIM" trace gen --kernel vecadd --size 10 -o -
contains "$work/err" "not to standard output"
[ ! -e - ] || fail "a file named - was written"
expect_fail 1 "$SMSIM" trace
expect_fail 1 "$SMSIM" trace frobnicate
contains "$work/err" "unknown action 'frobnicate'"
expect_fail 2 "$SMSIM" trace replay "$work/missing.trace"
contains "$work/err" "missing.trace: cannot open"
"$SMSIM" trace --help | grep -q replay || fail "trace --help lacks replay"
# The sample traces in traces/ are valid, replay, and are the models'
# as they stand (`make traces` after a model changes): a replay reports
# the cycles `smsim run` gives the model it was made from (KERNEL-SIZE,
# default parameters, made for the a6000).
for f in "$top_srcdir"/traces/*.trace.gz; do
    "$SMSIM" trace info "$f" >"$work/out" || fail "trace info $f"
    "$SMSIM" trace replay "$f" --gpu a6000 --format json >"$work/replay" ||
        fail "trace replay $f"
    name=$(basename "$f" .trace.gz)
    "$SMSIM" run --gpu a6000 --kernel "${name%-*}" --size "${name##*-}" \
        --format json >"$work/model"
    r=$(grep '"cycles"' "$work/replay") m=$(grep '"cycles"' "$work/model")
    [ "$r" = "$m" ] || fail "$f is stale (make traces): replay $r, model $m"
done
echo "trace ok"
