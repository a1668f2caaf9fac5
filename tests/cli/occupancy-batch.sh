#!/bin/sh
# `smsim occupancy --batch`: rows answered by hand-derived values (see
# tests/test-occ.c), bad rows get an error column, the rest go on.
. "${top_srcdir:-.}/tests/cli/setup"

cat >"$work/in.csv" <<'CSV'
regs,static_smem,block_size,dyn_smem,carveout
33,0,512,0,
31,0,512,0,-1
32,32768,256,0,
16,0,32,0,
32,0,128,0,25
255,0,512,0,
abc,0,128,0,
32,0,128

32,0,128,0,150
32,0,2000,0,
CSV
# Rows that cannot be read (8-10) are bad input: exit 2, though every
# row is answered and the output written whole.
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch "$work/in.csv" -o "$work/out.csv"
contains "$work/err" "3 of 10 rows could not be read"
cat >"$work/want" <<'CSV'
regs,static_smem,block_size,dyn_smem,carveout,blocks_per_sm,warps_per_sm,occupancy,limiter,error
33,0,512,0,,3,48,75.00,registers,
31,0,512,0,-1,4,64,100.00,registers+warps,
32,32768,256,0,,4,32,50.00,shared_mem,
16,0,32,0,,32,32,50.00,blocks,
32,0,128,0,25,16,64,100.00,registers+warps,
CSV
head -6 "$work/out.csv" >"$work/got"
diff -u "$work/want" "$work/got" || fail "batch answers differ"
sed -n 7p "$work/out.csv" | grep -q '^255,0,512,0,,0,0,0.00,none,".*131072' || fail "row 7"
sed -n 8p "$work/out.csv" | grep -qF "abc,0,128,0,,,,,,line 8: regs = 'abc': not an integer" || fail "row 8: $(sed -n 8p "$work/out.csv")"
# A short row is padded to the header's 5 fields, so that its answer's
# columns stay under their names: 3 fields, 2 empty, then the answer's 5.
sed -n 9p "$work/out.csv" | grep -qxF "32,0,128,,,,,,,line 9: 3 fields where the header has 5" || fail "row 9: $(sed -n 9p "$work/out.csv")"
sed -n 10p "$work/out.csv" | grep -qF "carveout = 150" || fail "row 10"
sed -n 11p "$work/out.csv" | grep -qF "2000 threads" || fail "row 11"
[ "$(wc -l <"$work/out.csv")" -eq 11 ] || fail "line count"

# Rows that cannot launch are answers: exit 0, and a note of them.
grep -v -e '^abc' -e '^32,0,128$' -e ',150$' -e '^$' "$work/in.csv" >"$work/launch.csv"
"$SMSIM" occupancy --gpu a100 --batch "$work/launch.csv" -o "$work/launch.out" 2>"$work/err" ||
    fail "a batch whose rows all read exited $?"
contains "$work/err" "2 of 7 rows cannot launch"

# A NUL byte ended its row early, a field dropped: refused.
printf 'regs,static_smem,block_size,dyn_smem,carveout\n32,0,256,0\000,7\n' >"$work/nul.csv"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch "$work/nul.csv"
contains "$work/err" "nul.csv:2: a NUL byte"

# A quote left open took the rest of its line, and written out as read
# it took every later row into its field: the row is now refused and
# written field by field, quoted afresh, padded to the header's width;
# the rows after it are answered as usual.
printf 'regs,static_smem,block_size,dyn_smem,carveout\n32,0,"128\n64,0,256,0,\n' >"$work/quote.csv"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch "$work/quote.csv" -o "$work/quote.out"
sed -n 2p "$work/quote.out" | grep -qxF '32,0,128,,,,,,,line 2: a quote left open: the line ends inside a quoted field' ||
    fail "open quote row: $(sed -n 2p "$work/quote.out")"
sed -n 3p "$work/quote.out" | grep -qxF '64,0,256,0,,4,32,50.00,registers,' ||
    fail "the row after an open quote: $(sed -n 3p "$work/quote.out")"
# A negative count was answered as a launch that cannot run (exit 0);
# on the command line it is malformed: here it is unreadable (exit 2).
printf 'regs,static_smem,block_size,dyn_smem,carveout\n-1,0,128,0,\n' >"$work/neg.csv"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch "$work/neg.csv" -o "$work/neg.out"
sed -n 2p "$work/neg.out" | grep -qxF -- '-1,0,128,0,,,,,,line 2: regs = -1: must be 0 or more' ||
    fail "negative regs: $(sed -n 2p "$work/neg.out")"
# A long row is cut to the header's width, as a short one is padded to
# it: 5 fields and the answer's 5 (4 empty, the error), not 6 and 5
# under a header of 10.  The row after it is answered as usual.
printf 'regs,static_smem,block_size,dyn_smem,carveout\n32,0,128,0,,extra\n64,0,256,0,\n' >"$work/long-row.csv"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch "$work/long-row.csv" -o "$work/long-row.out"
sed -n 2p "$work/long-row.out" | grep -qxF '32,0,128,0,,,,,,line 2: 6 fields where the header has 5 (written back cut to 5)' ||
    fail "long row: $(sed -n 2p "$work/long-row.out")"
sed -n 3p "$work/long-row.out" | grep -qxF '64,0,256,0,,4,32,50.00,registers,' ||
    fail "the row after a long one: $(sed -n 3p "$work/long-row.out")"
# Standard input without line breaks or an end is refused at its first
# chunk, not read until memory runs out.
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch - </dev/zero
contains "$work/err" "-:1: a NUL byte"
head -c 1100000 /dev/zero | tr '\0' 'x' >"$work/long.csv"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch "$work/long.csv"
contains "$work/err" "long.csv:1: a line of more than 1048576 bytes"
# A spreadsheet's UTF-8 byte-order mark before the header is dropped.
printf '\357\273\277regs,static_smem,block_size,dyn_smem,carveout\n33,0,512,0,\n' |
    "$SMSIM" occupancy --gpu a100 --batch - >"$work/bom.out" || fail "a header after a BOM"
contains "$work/bom.out" "33,0,512,0,,3,48,75.00,registers,"
# A column of the answer's name would make two of one name.
printf 'regs,static_smem,block_size,dyn_smem,carveout,limiter\n33,0,512,0,,x\n' >"$work/clash.csv"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch "$work/clash.csv"
contains "$work/err" "clash.csv:1: the header has a column 'limiter' (field 6), a name the answer's columns take"

# One launch's options would be ignored with --batch: refused.
expect_fail 1 "$SMSIM" occupancy --gpu a100 --batch "$work/launch.csv" --format json
contains "$work/err" "does not take"
expect_fail 1 "$SMSIM" occupancy --gpu a100 --batch "$work/launch.csv" --threads 64

# Columns are found by name; extra columns pass through; stdin works.
printf 'note,block_size,carveout,regs,dyn_smem,static_smem\n"k3, A6000",1024,,37,0,8192\n' |
    "$SMSIM" occupancy --gpu a6000 --batch - >"$work/o2"
contains "$work/o2" '"k3, A6000",1024,,37,0,8192,1,32,66.67,registers+warps,'

# A header without the needed columns is an error for the whole file.
printf 'regs,threads\n32,128\n' >"$work/bad.csv"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch "$work/bad.csv"
contains "$work/err" "bad.csv:1: the header has no 'static_smem' column"
# So is one that names a column twice: which value counts would be
# chance.
printf 'regs,regs,static_smem,block_size,dyn_smem,carveout\n32,64,0,256,0,\n' >"$work/dup.csv"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch "$work/dup.csv"
contains "$work/err" "dup.csv:1: the header names 'regs' twice (fields 1 and 2)"
: >"$work/empty.csv"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch "$work/empty.csv"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch "$work/missing.csv"

# 100,000 rows: all answered (bench/occ-batch.sh times it).
awk 'BEGIN { print "regs,static_smem,block_size,dyn_smem,carveout";
             for (i = 0; i < 100000; i++)
                 printf "%d,%d,%d,%d,\n", i % 200, (i * 97) % 40000, 32 * (1 + i % 32), 0 }' \
    >"$work/big.csv"
"$SMSIM" occupancy --gpu h100 --batch "$work/big.csv" -o "$work/big.out"
[ "$(wc -l <"$work/big.out")" -eq 100001 ] || fail "big batch lost rows"
if awk -F, 'NR > 1 && $NF != "" { exit 0 } END { exit 1 }' "$work/big.out"; then
    fail "valid rows got errors"
fi
echo "occupancy batch ok"
