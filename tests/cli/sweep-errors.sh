#!/bin/sh
# Bad input to `smsim sweep` is refused before any point runs (no
# output, no journal), naming the key, value, file and line.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$work"

refused() {   # refused MESSAGE ARGS...: exit 2 naming MESSAGE, nothing written
    message=$1
    shift
    expect_fail 2 "$SMSIM" sweep "$@" -o out.csv
    contains "$work/err" "$message"
    [ ! -e out.csv ] && [ ! -e out.csv.journal ] || fail "'$*' wrote before refusing"
}

occ="--gpu a100 --mode occupancy"
# shellcheck disable=SC2086
refused "unknown key 'sm.registerz'" $occ --vary threads=64 --vary regs=32 --vary sm.registerz=1
# shellcheck disable=SC2086
refused "unknown key 'warps'" $occ --vary warps=2
# shellcheck disable=SC2086
refused "--vary sm.registers: sm.registers = '512': must be 1024..4194304 registers" \
    $occ --vary threads=64 --vary regs=32 --vary sm.registers=65536,512
# shellcheck disable=SC2086
refused "--vary carveout: carveout = '150': must be -1..100" \
    $occ --vary threads=64 --vary regs=32 --vary carveout=0,150
# shellcheck disable=SC2086
refused "--vary size: size = '0': must be at least 1" --gpu a100 --vary kernel=vecadd --vary size=1024,0
refused "param.TILE_WIDTH = '64': must be 4..32 for pmpp-tiled" \
    --gpu a100 --vary kernel=pmpp-tiled --vary size=64 --vary param.TILE_WIDTH=16,64
refused "kernel = 'sgemm-99': no such kernel" --gpu a100 --vary kernel=sgemm-99 --vary size=64
# A line break would split the shard's '# vary' line and the row.
# shellcheck disable=SC2086
refused "a control character (byte 0x0a at 2)" \
    $occ --vary kernel=sgemm-1 --vary size=256 --vary "device.name=a,b
c"
refused "run mode needs the keys kernel and size" --gpu a100 --vary sm.registers=65536
refused "'threads' is for --mode occupancy" --gpu a100 --vary kernel=vecadd --vary size=64 --vary threads=64
refused "k40: timing = false (no sourced timing numbers)" --gpu k40 --vary kernel=vecadd --vary size=64
refused "unknown GPU 'a1000'" --gpu a1000 --vary kernel=vecadd --vary size=64

printf 'threads,regs\n64,32\n128\n' >short.csv
# shellcheck disable=SC2086
refused "short.csv:3: 1 fields where the header has 2" $occ --points short.csv
printf 'threads,regs\n64,32\n\n128,abc\n' >bad.csv
# shellcheck disable=SC2086
refused "bad.csv:4: regs = 'abc': not an integer" $occ --points bad.csv
# A kernel parameter is checked against its own row's kernel: the iloop
# rows (lines 2-4) take N, the vecadd row (line 5) does not.
printf 'kernel,size,param.N\niloop,4,16\niloop,4,24\niloop,4,32\nvecadd,128,8\n' >mixed.csv
refused "mixed.csv:5: param.N = '8': kernel vecadd has no parameter N (kernels that take it: iloop;" \
    --gpu a6000 --set device.sm_count=4 --points mixed.csv
# ... and a --vary value against every row's, naming the one that refuses it.
printf 'kernel,size\niloop,4\nvecadd,128\n' >kernels.csv
refused "--vary param.N: param.N = '16': kernel vecadd (kernels.csv:3) has no parameter N" \
    --gpu a6000 --points kernels.csv --vary param.N=16
# No cell may be empty, a parameter's no more than another key's.
printf 'kernel,size,param.N\niloop,4,16\nvecadd,128,\n' >hole.csv
refused "hole.csv:3: param.N = '': empty value" --gpu a6000 --points hole.csv
printf 'threads,regs,threads\n' >dup.csv
# shellcheck disable=SC2086
refused "dup.csv:1: key 'threads' is given twice" $occ --points dup.csv
# A --vary not KEY=V1,V2,... is a malformed command line (exit 1).
expect_fail 1 "$SMSIM" sweep --gpu a100 --vary kernel --vary size=64
contains "$work/err" "--vary kernel: expected KEY=V1,V2,..."
expect_fail 1 "$SMSIM" sweep --gpu a100 --vary =vecadd --vary size=64
contains "$work/err" "--vary =vecadd: expected KEY=V1,V2,..."
expect_fail 1 "$SMSIM" sweep --gpu a100 --vary kernel=vecadd --vary size=64,,128
contains "$work/err" "--vary size=64,,128: value 2 is empty"
# On the command line a key varied twice, or varied and set, is a clash
# of options (exit 1): which value a point takes is not left to their
# order.
expect_fail 1 "$SMSIM" sweep --gpu a100 --mode occupancy -V threads=128 -V threads=256 -V regs=32
contains "$work/err" "--vary threads given twice"
expect_fail 1 "$SMSIM" sweep --gpu a100 --mode occupancy --set sm.registers=131072 -V sm.registers=65536 -V threads=128 -V regs=32
contains "$work/err" "a key is varied or set, not both"
# ... and so is a points file's column that a --set gives too (a file's
# fault: exit 2).
printf 'sm.registers,threads\n65536,128\n' >setpts.csv
# shellcheck disable=SC2086
refused "setpts.csv: column sm.registers is also given by --set sm.registers=131072" \
    $occ --set sm.registers=131072 --points setpts.csv -V regs=32
printf '\n\nthreads,nosuch\n' >late.csv    # the header on line 3
# shellcheck disable=SC2086
refused "late.csv:3: unknown key 'nosuch'" $occ --points late.csv
printf 'threads,regs\n' >empty.csv
# shellcheck disable=SC2086
refused "empty.csv: no points" $occ --points empty.csv
# shellcheck disable=SC2086
refused "missing.csv" $occ --points missing.csv

# Command-line errors: exit 1.
expect_fail 1 "$SMSIM" sweep --gpu a100 --mode occupancy --vary threads=64 --vary regs=32 --shard 5/4
contains "$work/err" "--shard 5/4"
expect_fail 1 "$SMSIM" sweep --gpu a100 --mode fast --vary threads=64
contains "$work/err" "--mode fast"
expect_fail 1 "$SMSIM" sweep --gpu a100 --mode occupancy --vary threads=64 --vary regs=32 --resume
contains "$work/err" "--resume needs -o FILE"
expect_fail 1 "$SMSIM" sweep --gpu a100 --mode occupancy --vary threads=64 --vary regs=32 -j 0
contains "$work/err" "-j 0: must be 1..1024"
# Each thread is started up front: -j 2147483647 hung, allocating stacks.
expect_fail 1 "$SMSIM" sweep --gpu a100 --mode occupancy --vary threads=64 --vary regs=32 -j 1025
contains "$work/err" "-j 1025: must be 1..1024"
# An empty -o is refused before any point runs: it made ./.journal and
# failed only when the finished CSV had no name to go to.  (Exit 2, as
# every command says it: tests/cli/output-early.sh.)
expect_fail 2 "$SMSIM" sweep --gpu a100 --mode occupancy --vary threads=64 --vary regs=32 -o ''
contains "$work/err" "-o '': an empty file name"
[ ! -e .journal ] || fail "-o '' left ./.journal"
expect_fail 2 "$SMSIM" sweep --merge a.csv b.csv -o ''
contains "$work/err" "-o '': an empty file name"
expect_fail 1 "$SMSIM" sweep --merge
# It joins shards as they are: options that make points are refused,
# not ignored.
expect_fail 1 "$SMSIM" sweep --merge a.csv b.csv --gpu a100 -V size=128
expect_fail 1 "$SMSIM" sweep --merge a.csv b.csv -j 2
contains "$work/err" "--merge joins shards as they are"

# Merging: a shard missing, or a file that is no shard.
"$SMSIM" sweep $occ --vary threads=64,128,256 --vary regs=32 --shard 1/2 -o s1.csv
"$SMSIM" sweep $occ --vary threads=64,128,256 --vary regs=32 --shard 2/2 -o s2.csv
expect_fail 2 "$SMSIM" sweep --merge s1.csv
contains "$work/err" "s1.csv:1: a shard of a sweep in 2 shards, but 1 files are given"
expect_fail 2 "$SMSIM" sweep --merge s1.csv short.csv
contains "$work/err" "short.csv:1: 'threads,regs': not a shard"
# Shards 1 and 3 of one sweep with shard 2 of another of as many points
# and the same columns: the fingerprint tells them apart (they merged).
for i in 1 3; do
    # shellcheck disable=SC2086
    "$SMSIM" sweep $occ --vary threads=64,128,256 --vary regs=32,64 --shard $i/3 -o m$i.csv
done
# shellcheck disable=SC2086
"$SMSIM" sweep $occ --vary threads=32,96,512 --vary regs=200,255 --shard 2/3 -o m2.csv
expect_fail 2 "$SMSIM" sweep --merge m1.csv m2.csv m3.csv -o merged.csv
contains "$work/err" "m2.csv:1: a shard of another sweep than m1.csv"
[ ! -e merged.csv ] || fail "a refused merge wrote merged.csv"
# A shard line without a fingerprint (hand-written, or an older smsim's).
printf '# smsim sweep shard 1/1 of 1 points\npoint,x\n0,garbage\n' >hand.csv
expect_fail 2 "$SMSIM" sweep --merge hand.csv
contains "$work/err" "hand.csv:1: '# smsim sweep shard 1/1 of 1 points': a shard line without its sweep's fingerprint"
# A row without the header's columns names its file and line (after
# the shard line, the grid's two lines and the header).
sed '/^0,/s/,[^,]*,$/,/' s1.csv >cut.csv
expect_fail 2 "$SMSIM" sweep --merge cut.csv s2.csv
contains "$work/err" "cut.csv:5: '0,64,32,32,64,100.00,"
contains "$work/err" "...': 8 fields where the header has 9"
# A NUL byte is named, with its line, not taken for missing fields.
sed '/^0,/s/,/\x00/' s1.csv >nul.csv
expect_fail 2 "$SMSIM" sweep --merge nul.csv s2.csv
contains "$work/err" "nul.csv:5: a NUL byte: a shard is text"
# A quote left open in a row's error field passed the field count (it
# took the rest of the line) and merged into a CSV whose later rows a
# reader took into that field.
sed '/^0,/s/,$/,"x/' s1.csv >openq.csv
expect_fail 2 "$SMSIM" sweep --merge openq.csv s2.csv
contains "$work/err" "openq.csv:5: '0,64,32,"
contains "$work/err" "': a quote left open (the line ends inside a quoted field)"
# A shard carries its grid after the shard line, and each row's values
# must be those of the point its number names: a key edited to a value
# of no point (256 -> 999), or of another point, merged without a word.
[ "$(sed -n 2,3p s2.csv)" = "# vary threads=64,128,256
# vary regs=32" ] || fail "s2.csv's grid lines: $(sed -n 2,3p s2.csv)"
sed 's/^2,256,32,/2,999,32,/' s1.csv >edit.csv
expect_fail 2 "$SMSIM" sweep --merge edit.csv s2.csv -o merged.csv
contains "$work/err" "edit.csv:6: threads = '999', but point 2 of the sweep has threads = '256' (its grid, line 2)"
sed 's/^2,256,32,/2,64,32,/' s1.csv >edit.csv
expect_fail 2 "$SMSIM" sweep --merge edit.csv s2.csv -o merged.csv
contains "$work/err" "edit.csv:6: threads = '64', but point 2"
[ ! -e merged.csv ] || fail "a refused merge wrote merged.csv"
# The results are copied as they are: one not of its column's kind (a
# corrupted byte), or a header whose result columns are no mode's,
# merged without a word, as a resumed journal's would not.
sed 's/^2,256,32,8,/2,256,32,8x,/' s1.csv >edit.csv
expect_fail 2 "$SMSIM" sweep --merge edit.csv s2.csv -o merged.csv
contains "$work/err" "edit.csv:6: '2,256,32,8x,"
contains "$work/err" "': column blocks_per_sm = '8x': not a whole number"
sed 's/,warps_per_sm,/,warps,/' s1.csv >edit.csv
sed 's/,warps_per_sm,/,warps,/' s2.csv >edit2.csv
expect_fail 2 "$SMSIM" sweep --merge edit.csv edit2.csv -o merged.csv
contains "$work/err" "edit.csv:4: 'point,threads,regs,blocks_per_sm,warps,"
contains "$work/err" "not a sweep's header ('point,threads,regs,' then the results"
[ ! -e merged.csv ] || fail "a refused merge wrote merged.csv"
# ... and a shard without them (an older smsim's) is refused as one
# without its fingerprint is.
sed '2,3d' s1.csv >old.csv
expect_fail 2 "$SMSIM" sweep --merge old.csv s2.csv
contains "$work/err" "old.csv:2: a shard without its grid lines"
# A points file's rows are not carried, only the digest of the shard's
# values of its columns: an edit is told, naming the shard.
printf 'threads,regs\n128,32\n256,64\n512,32\n' >pts.csv
for i in 1 2; do
    # shellcheck disable=SC2086
    "$SMSIM" sweep $occ --points pts.csv --shard $i/2 -o p$i.csv
done
"$SMSIM" sweep --merge p1.csv p2.csv -o p.csv
# shellcheck disable=SC2086
"$SMSIM" sweep $occ --points pts.csv -o whole.csv
cmp p.csv whole.csv || fail "points-file shards merged differ from the whole sweep"
sed 's/^1,256,64,/1,256,63,/' p2.csv >pe.csv
expect_fail 2 "$SMSIM" sweep --merge p1.csv pe.csv
contains "$work/err" "pe.csv: its values of the points file's columns (threads,regs) are not those of its sweep's points"
# Given the points file too, the edited row is named in both files:
# pe.csv's line 4 is point 1 (after the shard, points and header lines),
# pts.csv's line 3 its row.  A file not the sweep's is refused.
"$SMSIM" sweep --merge --points pts.csv p1.csv p2.csv -o pp.csv
cmp pp.csv whole.csv || fail "merged with --points differs from the whole sweep"
expect_fail 2 "$SMSIM" sweep --merge --points pts.csv p1.csv pe.csv
contains "$work/err" "pe.csv:4: regs = '63', but point 1 of the sweep has regs = '64' (pts.csv:3)"
printf 'threads,regs\n128,32\n' >one.csv
expect_fail 2 "$SMSIM" sweep --merge --points one.csv p1.csv p2.csv
contains "$work/err" "p1.csv:2: its sweep's points file had 3 rows of threads,regs; one.csv has 1 rows of threads,regs: not that file"
# A NUL byte in a points file ended its line there as a C string: the
# rows after it were silently dropped (exit 0).  A quote left open is
# refused too, and a spreadsheet's byte-order mark dropped.
printf 'threads,regs\n128,32\n\000256,64\n512,64\n' >pnul.csv
# shellcheck disable=SC2086
expect_fail 2 "$SMSIM" sweep $occ --points pnul.csv
contains "$work/err" "pnul.csv:3: a NUL byte: a points file is text"
printf 'threads,regs\n128,"32\n' >pq.csv
# shellcheck disable=SC2086
expect_fail 2 "$SMSIM" sweep $occ --points pq.csv
contains "$work/err" "pq.csv:2: a quote left open"
printf 'threads,"regs\n128,32\n' >pqh.csv
# shellcheck disable=SC2086
expect_fail 2 "$SMSIM" sweep $occ --points pqh.csv
contains "$work/err" "pqh.csv:1: a quote left open"
printf '\357\273\277threads,regs\n128,32\n256,64\n512,32\n' >pbom.csv
# shellcheck disable=SC2086
"$SMSIM" sweep $occ --points pbom.csv -o pbom.out || fail "a points file after a BOM"
# shellcheck disable=SC2086
"$SMSIM" sweep $occ --points pts.csv -o pts.out
cmp pbom.out pts.out || fail "a BOM changed the sweep"
# No GPU is a missing option: exit 1, as in run, query and occupancy.
expect_fail 1 "$SMSIM" sweep -V kernel=vecadd -V size=128
contains "$work/err" "no GPU given"
# Usage mistakes come before the output's check.
mkdir -p adir
expect_fail 1 "$SMSIM" sweep --gpu a100 -V kernel=vecadd -V size=128 -o adir extra
contains "$work/err" "unexpected argument 'extra'"
expect_fail 1 "$SMSIM" sweep --merge -o adir
contains "$work/err" "--merge needs the shard files"
expect_fail 2 "$SMSIM" sweep --merge s1.csv s2.csv -o adir
contains "$work/err" "-o adir: a directory, not a file"
# Past ten million points a run is refused before any work (each row
# waits in memory: a million took 245 MB): 10001 x 1000 = 10,001,000.
L=$(seq -s, 1 10001)
M=$(seq -s, 1 1000)
expect_fail 2 "$SMSIM" sweep --gpu a100 --mode occupancy --vary "threads=$L" --vary "regs=$M"
contains "$work/err" "10001000 points to run, more than one run holds (10000000"
contains "$work/err" "--shard I/2 or more"
echo "sweep: bad input refused before any point ran"
