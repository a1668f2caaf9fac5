#!/bin/sh
# `smsim query`: the layout of the CUDA book's query.cu, checked against
# the output the book prints for a GeForce RTX 2070 (seed 002), and the
# --sources / --keys / json listings.
. "${top_srcdir:-.}/tests/cli/setup"

"$SMSIM" query --gpu rtx2070 >"$work/q"
# Seed 002, the book's output on an RTX 2070 (all but the device name,
# which names the laptop Max-Q part).
cat >"$work/book" <<'BOOK'
Device id:                                 0
Compute capability:                        7.5
Amount of global memory:                   8 GB
Amount of constant memory:                 64 KB
Maximum grid size:                         2147483647 65535 65535
Maximum block size:                        1024 1024 64
Number of SMs:                             36
Maximum amount of shared memory per block: 48 KB
Maximum amount of shared memory per SM:    64 KB
Maximum number of registers per block:     64 K
Maximum number of registers per SM:        64 K
Maximum number of threads per block:       1024
Maximum number of threads per SM:          1024
BOOK
while IFS= read -r line; do
    grep -qxF -- "$line" "$work/q" || fail "query lacks the book's line '$line'"
done <"$work/book"
contains "$work/q" "Device name:"

# The P100's 24 KB L1 is its own, beside 64 KB of shared memory (its
# preset: l1_smem_kib = 24, no carveout); the K40's 64 KB is shared by
# L1 and shared memory, as Kepler's is.
"$SMSIM" query --gpu p100 >"$work/p100"
contains "$work/p100" "  L1 cache per SM (shared separate):       24 KB"
grep -q "Unified L1/shared" "$work/p100" && fail "the P100's L1 called unified"
"$SMSIM" query --gpu k40 >"$work/k40"
contains "$work/k40" "  Unified L1/shared per SM:                64 KB"

# Every value has a source; assumed ones say so.
"$SMSIM" query --gpu a6000 --sources >"$work/s"
contains "$work/s" "[sm] max_threads = 1536 threads"
contains "$work/s" "ASSUMED"
if grep -q "no source given" "$work/s"; then fail "a value without a source"; fi
grep -q "^[0-9]* values, [0-9]* of them ASSUMED" "$work/s" || fail "no summary"

"$SMSIM" query --keys >"$work/k"
contains "$work/k" "sm.registers"
contains "$work/k" "alloc.carveout_steps_kib"
# As JSON too (it printed the text table), and with a preset it would
# ignore refused.
"$SMSIM" query --keys --format json >"$work/kj"
contains "$work/kj" '"sm.registers" : {'
contains "$work/kj" '"timing_only" : true'
expect_fail 1 "$SMSIM" query --keys --gpu a100
contains "$work/err" "--keys lists every preset's keys"

"$SMSIM" query --gpu h100 --format json >"$work/j"
contains "$work/j" '"sm.max_threads"'
contains "$work/j" '"assumed"'

# --set changes what query shows; a what-if SM.
"$SMSIM" query --gpu a100 --set sm.registers=131072 --set sm.max_regs_per_block=131072 >"$work/w"
contains "$work/w" "Maximum number of registers per SM:        128 K"

expect_fail 2 "$SMSIM" query --gpu nosuchgpu
contains "$work/err" "unknown GPU 'nosuchgpu'"
# No GPU at all is a missing option, as elsewhere: exit 1.
expect_fail 1 "$SMSIM" query
contains "$work/err" "no GPU given"
expect_fail 2 "$SMSIM" query --gpu a100 --set sm.max_threads=99999
contains "$work/err" "[sm] max_threads = 99999"
expect_fail 1 "$SMSIM" query --gpu a100 --format xml
# A NUL byte in a preset: refused with its line, not the rest dropped.
printf '[preset]\nbase = a100\n\000[sm]\nregisters = 131072\n' >"$work/nul.ini"
expect_fail 2 "$SMSIM" query --config "$work/nul.ini"
contains "$work/err" "nul.ini:3: a NUL byte"
# Nor a preset that is not UTF-8 (its text would go into JSON as is).
printf '[preset]\nbase = a100\n[device]\nname = caf\351\n' >"$work/latin1.ini"
expect_fail 2 "$SMSIM" query --config "$work/latin1.ini" --format json
contains "$work/err" "latin1.ini:4: not UTF-8"
expect_fail 1 "$SMSIM" query --bogus
# A preset's numbers are decimal: C's hex float (which query --format
# json showed as written, 0x1p10) and inf or nan are refused where they
# stand.
printf '[preset]\nbase = a100\n[device]\ndram_bandwidth_gbs = 0x1p10\n' >"$work/hex.ini"
expect_fail 2 "$SMSIM" query --config "$work/hex.ini" --format json
contains "$work/err" "hex.ini:4: [device] dram_bandwidth_gbs = 0x1p10: not a number in decimal"
for v in inf nan; do
    expect_fail 2 "$SMSIM" query --gpu a100 --set "mem.l2_bandwidth_gbs=$v"
    contains "$work/err" "[mem] l2_bandwidth_gbs = $v: not a number in decimal"
done
# A message quoting an input cuts it short: 2000 bytes of it and how
# much more, not the 100,000 x's of this value.
{ printf '[preset]\nbase = a100\n[device]\nsm_count = '; head -c 100000 /dev/zero | tr '\0' x; echo; } >"$work/long.ini"
expect_fail 2 "$SMSIM" query --config "$work/long.ini"
[ "$(wc -c <"$work/err")" -lt 2100 ] || fail "a message of $(wc -c <"$work/err") bytes"
contains "$work/err" "bytes more)"
echo "query ok"
