#!/bin/sh
# Malformed traces are refused with the file, the line and the field,
# and exit status 2; never a crash or a hang.  Each bad file is made
# from a good one; the expected line numbers come from grep -n on the
# good file.
. "${top_srcdir:-.}/tests/cli/setup"

good="$work/good.trace"
"$SMSIM" trace gen --kernel pmpp-tiled --size 32 --param TILE_WIDTH=8 \
    -o "$good" >/dev/null
"$SMSIM" trace gen --kernel pmpp-tiled --size 32 --param TILE_WIDTH=8 \
    -o "$good.gz" >/dev/null

# bad FILE NEEDLE...: both info and replay refuse FILE, naming it and
# saying each NEEDLE.
bad() {
    f=$1
    shift
    for action in info replay; do
        expect_fail 2 "$SMSIM" trace $action "$f"
        contains "$work/err" "$f: "
        for needle in "$@"; do
            contains "$work/err" "$needle"
        done
    done
}

# A pipe is refused at once, not waited on for a writer that never
# comes (timeout turns a hang into a failure: exit 124, not 2); so is a
# directory.
if mkfifo "$work/fifo.trace" 2>/dev/null; then
    for action in info replay; do
        expect_fail 2 timeout 20 "$SMSIM" trace $action "$work/fifo.trace"
        contains "$work/err" "$work/fifo.trace: a pipe; give a regular file"
    done
fi
bad "$work" "a directory; give a regular file"

# Header: a value out of range, an unknown key, a missing key, another
# version, not a trace at all.
n=$(grep -n '^block ' "$good" | cut -d: -f1)
sed 's/^block 64$/block 2000/' "$good" >"$work/h1.trace"
bad "$work/h1.trace" "line $n: block 2000: must be an integer in 1..1024"
n=$(grep -n '^regs ' "$good" | cut -d: -f1)
sed 's/^regs /registers /' "$good" >"$work/h2.trace"
bad "$work/h2.trace" "line $n: 'registers': not a header key"
sed '/^flops /d' "$good" >"$work/h3.trace"
bad "$work/h3.trace" "records: the header lacks 'flops F'"
sed '1s/.*/smsim-trace 2/' "$good" >"$work/h4.trace"
bad "$work/h4.trace" "line 1: smsim-trace 2: this smsim reads version 1"
sed '2i\\' "$good" >"$work/h6.trace"
bad "$work/h6.trace" "line 2: an empty line in the header"
n=$(grep -n '^param ' "$good" | head -1 | cut -d: -f1)
sed "${n}p" "$good" >"$work/h7.trace"
bad "$work/h7.trace" "line $((n + 1)): param" "given twice"
printf 'hello\n' >"$work/h5.trace"
bad "$work/h5.trace" "line 1: not an smsim trace"
: >"$work/empty.trace"
bad "$work/empty.trace" "line 1: truncated: the file ends where this line should be"
head -3 "$good" >"$work/cut3.trace"
bad "$work/cut3.trace" "line 4: truncated: the file ends where this line should be"
# CR LF line ends (a file saved on Windows) are named as such, not as
# the first field they spoil.
sed 's/$/\r/' "$good" >"$work/crlf.trace"
bad "$work/crlf.trace" "line 1: a CR LF line end"

# A NUL byte, in the header and in a record (it ended the line there,
# the rest dropped), named by its own line, not its record's 'W' line.
n=$(grep -n '^kernel ' "$good" | cut -d: -f1)
sed "${n}s/-/@/" "$good" | tr '@' '\000' >"$work/nul1.trace"
bad "$work/nul1.trace" "line $n: a NUL byte"
n=$(grep -n '^FFMA ' "$good" | head -1 | cut -d: -f1)
sed "${n}s/^FFMA /FFMA@/" "$good" | tr '@' '\000' >"$work/nul2.trace"
bad "$work/nul2.trace" "line $n: a NUL byte"

# Hex where FORMAT.md says decimal; a register run into RZ (same
# length as the line it replaces).
n=$(grep -n '^flops ' "$good" | cut -d: -f1)
sed 's/^flops .*/flops 0x10/' "$good" >"$work/hex.trace"
bad "$work/hex.trace" "line $n: flops 0x10: must be a whole number"
# FLOPs are a count in decimal digits, exact in the double that holds
# them: up to 2^53 = 9007199254740992 (FORMAT.md).  An exponent, a
# point, a sign, or more are refused; 2^53 itself is taken as written.
for v in 1e99 1E3 65536.0 .5 -0 +65536 9007199254740993 \
         100000000000000000000000000000; do
    sed "s/^flops .*/flops $v/" "$good" >"$work/flops.trace"
    bad "$work/flops.trace" "line $n: flops $v: must be a whole number" "0..9007199254740992"
done
sed 's/^flops .*/flops 9007199254740992/' "$good" >"$work/flops.trace"
"$SMSIM" trace info "$work/flops.trace" >"$work/flops.out" ||
    fail "flops 2^53 refused: $(cat "$work/err" 2>/dev/null)"
contains "$work/flops.out" "FLOPs                9007199254740992 (header)"
# And gen writes no header a reader would refuse: loaduse with 2^20
# warps of 2^27 + 1 iterations does 2 x 32 x 2^20 x (2^27 + 1) =
# 2^53 + 2^26 = 9007199321849856 FLOPs, past 2^53.
expect_fail 2 "$SMSIM" trace gen --kernel loaduse --size 1048576 \
    --param ITERS=134217729 -o "$work/big.trace"
contains "$work/err" "9007199321849856 FLOPs; a trace holds a whole number up to 2^53"
[ ! -e "$work/big.trace" ] || fail "trace gen began a trace it cannot finish"
n=$(grep -n '^MOV R[0-9][0-9][0-9] R[0-9][0-9][0-9] RZ RZ$' "$good" | head -1 | cut -d: -f1)
sed "${n}s/^MOV R[0-9]* R[0-9]* /MOV R252x4 R1 /" "$good" >"$work/rz.trace"
bad "$work/rz.trace" "line $n: destination register 'R252x4': runs past R254"

# Shared memory the header does not declare: the first LDS or STS is
# past 0 bytes.
sed 's/^smem .*/smem 0 0/' "$good" >"$work/smem.trace"
n=$(grep -n '^LDS \|^STS ' "$good" | head -1 | cut -d: -f1)
bad "$work/smem.trace" "line $n: lane 0's shared address" "past the block's 0 B"

# An unknown opcode (same length, so the section's lengths still hold).
n=$(grep -n '^FFMA ' "$good" | head -1 | cut -d: -f1)
sed "${n}s/^FFMA /FFMX /" "$good" >"$work/op.trace"
bad "$work/op.trace" "line $n: opcode 'FFMX': unknown"

# Too few addresses: lane 31's difference removed.
n=$(grep -n ' A=' "$good" | head -1 | cut -d: -f1)
sed "${n}s/,[-+][0-9]*\$//" "$good" >"$work/addr.trace"
bad "$work/addr.trace" "line $n: field 'A': 31 addresses, expected 32"

# A bad field value.
n=$(grep -n ' w=4 ' "$good" | head -1 | cut -d: -f1)
sed "${n}s/ w=4 / w=3 /" "$good" >"$work/w.trace"
bad "$work/w.trace" "line $n: field 'w=3': bytes per lane must be 1, 2, 4, 8 or 16"

# An edited record (a line added): the lengths no longer match.
n=$(grep -n '^W 0$' "$good" | head -1 | cut -d: -f1)
sed "${n}a\\
MOV R1 RZ RZ RZ" "$good" >"$work/len.trace"
bad "$work/len.trace" "its length on line $((n - 1)) does not match"

# A section out of order: block 1 marked as block 5.
sed 's/^B 1 /B 5 /' "$good" >"$work/sec.trace"
n=$(grep -n '^B 5 ' "$work/sec.trace" | cut -d: -f1)
bad "$work/sec.trace" "line $n: expected 'B 1 ...'"

# Truncated plain file: inside a record, and just before the last line.
size=$(wc -c <"$good")
head -c $((size / 2)) "$good" >"$work/cut.trace"
bad "$work/cut.trace" "truncated"
head -n -1 "$good" >"$work/cut2.trace"
bad "$work/cut2.trace" "line $(wc -l <"$good"): truncated"

# Truncated gzip, a corrupt gzip member, a gzip compressed whole.
size=$(wc -c <"$good.gz")
head -c $((size / 2)) "$good.gz" >"$work/cut.trace.gz"
bad "$work/cut.trace.gz" "truncated gzip"
{ head -c $((size / 2)) "$good.gz"; printf 'XXXXXXXXXXXXXXXX'; \
  tail -c +$((size / 2 + 17)) "$good.gz"; } >"$work/corrupt.trace.gz"
bad "$work/corrupt.trace.gz" "line "
gzip -c "$good" >"$work/whole.trace.gz"
bad "$work/whole.trace.gz" "not one member per section"

# Main-loop iterations that are all empty (FORMAT.md allows a record
# with no instructions): nothing to sample, so --sampled and --window
# are refused, not quietly replayed exact; neither aborts.
# (One warp; each empty record is its 'W 0' line, 4 bytes; the
# epilogue's adds 'EXIT RZ RZ RZ RZ', 21 in all.)
{
    printf 'smsim-trace 1\ngpu a6000\nkernel pchase\nsize 16\n'
    printf 'param WS 16384\nparam STRIDE 128\ngrid 1 1\nblock 32\nregs 16\n'
    printf 'smem 0 0\nflops 0\niterations 16\nrecords\nB 0 4\nW 0\n'
    i=0
    while [ $i -lt 16 ]; do
        printf 'I %d 4\nW 0\n' $i
        i=$((i + 1))
    done
    printf 'E 21\nW 0\nEXIT RZ RZ RZ RZ\nend\n'
} >"$work/empty.trace"
"$SMSIM" trace replay "$work/empty.trace" >"$work/empty.out" ||
    fail "replay of empty iterations: $(cat "$work/err" 2>/dev/null)"
contains "$work/empty.out" "simulation           exact"
expect_fail 2 "$SMSIM" trace replay "$work/empty.trace" --sampled
contains "$work/err" "a sampled run was asked for, but the launch has no main loop"
expect_fail 2 "$SMSIM" trace replay "$work/empty.trace" --window 4
contains "$work/err" "no main loop a sampled run can cut"

# Sections by hand: one warp, 2 iterations, records of its 'W 0' line
# alone (4 bytes) but the epilogue's (21, with EXIT).  hand FIRST SECOND
# LOOP: the iterations' section lines say FIRST and SECOND, and the
# first iteration's record is LOOP.
hand() {
    printf 'smsim-trace 1\ngpu a6000\nkernel pchase\nsize 16\n'
    printf 'param WS 16384\nparam STRIDE 128\ngrid 1 1\nblock 32\nregs 16\n'
    printf 'smem 0 0\nflops 0\niterations 2\nrecords\nB 0 4\nW 0\n'
    printf '%s\n%s\n%s\nW 0\n' "$1" "$3" "$2"
    printf 'E 21\nW 0\nEXIT RZ RZ RZ RZ\nend\n'
}
hand 'I 0 4' 'I 1 4' 'W 0' >"$work/hand.trace"
"$SMSIM" trace info "$work/hand.trace" >/dev/null 2>"$work/err" ||
    fail "the hand-made trace is refused: $(cat "$work/err")"
# The second iteration numbered as the first.
hand 'I 0 4' 'I 0 4' 'W 0' >"$work/iter.trace"
bad "$work/iter.trace" "line 18: expected 'I 1 ...' (main-loop iteration 1 of block 0"
# EXIT ending a loop record (21 bytes, as the epilogue's).
hand 'I 0 21' 'I 1 4' 'W 0
EXIT RZ RZ RZ RZ' >"$work/exit.trace"
bad "$work/exit.trace" "EXIT before the end of the warp's epilogue"
# A record length past 2^30 (FORMAT.md's bound), 2^30 + 1.
hand 'I 0 1073741825' 'I 1 4' 'W 0' >"$work/huge.trace"
bad "$work/huge.trace" "line 16: 'I 0 1073741825': a section line must be"

# A header grid larger than the file's blocks: pmpp-tiled at 32 with
# tiles of 8 is 4 x 4 blocks; a header of 4 x 5 runs out at block 16.
sed 's/^grid 4 4$/grid 4 5/' "$good" >"$work/grid.trace"
bad "$work/grid.trace" "'end' where block 16 should start" "the file has 16"

# Bytes after the end.
{ cat "$good"; echo "MOV R0 RZ RZ RZ"; } >"$work/tail.trace"
bad "$work/tail.trace" "bytes after the 'end' line"
# Lanes the block does not have: vecadd's blocks of 32 made blocks of
# 1 thread, whose warp has lane 0 alone; all 32 lanes ran before.
"$SMSIM" trace gen --kernel vecadd --size 64 --param BLOCK=32 -o "$work/b32.trace" >/dev/null
sed 's/^block 32$/block 1/' "$work/b32.trace" >"$work/b1.trace"
bad "$work/b1.trace" "active mask ffffffff: warp 0 of a block of 1 thread has 1 lane (mask 1)"
# Bytes that are not UTF-8, quoted in a message, reach the terminal as
# U+FFFD (EF BF BD), not raw.
sed '0,/^MOV /s/^MOV /MO\xff\xfe /' "$good" >"$work/bytes.trace"
bad "$work/bytes.trace" "opcode 'MO$(printf '\357\277\275\357\277\275')'"
if LC_ALL=C grep -q "$(printf '\377')" "$work/err"; then fail "a raw 0xff byte reached the terminal"; fi
# A device as -o is the file system's to judge, as a directory is
# (exit 2, as every command says it; it was 1).
expect_fail 2 "$SMSIM" trace gen --kernel vecadd --size 64 -o /dev/null
contains "$work/err" "-o /dev/null: not a regular file"
# A byte-order mark before the first line is named, not "not a trace".
{ printf '\357\273\277'; cat "$good"; } >"$work/bom.trace"
bad "$work/bom.trace" "a UTF-8 byte-order mark before 'smsim-trace 1'"
# The GPU a replay takes by default is the header's: one smsim does not
# know is refused naming the file (the message named 'zz' alone).
sed 's/^gpu a6000$/gpu zz/' "$good" >"$work/gpu.trace"
expect_fail 2 "$SMSIM" trace replay "$work/gpu.trace"
contains "$work/err" "$work/gpu.trace: its header's 'gpu zz' (--gpu picks another): unknown GPU 'zz'"
"$SMSIM" trace replay "$work/gpu.trace" --gpu a6000 >/dev/null ||
    fail "--gpu did not take the place of the header's GPU"
# A --set's fault on the header's GPU is the --set's, not the header's.
expect_fail 2 "$SMSIM" trace replay "$good" --set device.sm_count=0
contains "$work/err" "smsim trace replay: --set [device] sm_count = 0: must be 1..4096"
grep -q "its header's" "$work/err" && fail "a --set's fault blamed on the header"
# The header names a preset, never a file: 'gpu evil.ini' was loaded
# from the directory smsim ran in, whatever the trace's own directory.
sed 's/^gpu a6000$/gpu evil.ini/' "$good" >"$work/ini.trace"
cp "$top_srcdir/src/models/presets/a6000.ini" "$work/evil.ini"
(cd "$work" && "$SMSIM" trace replay ini.trace >/dev/null 2>"$work/err") &&
    fail "a header's 'gpu evil.ini' loaded the file beside smsim"
contains "$work/err" "ini.trace: its header's 'gpu evil.ini' names a file, not a preset"
# A launch the GPU cannot hold names the trace, not the kernel alone:
# 48 KiB is the most a kernel declares statically (CUDA C++ Programming
# Guide, shared memory), so one byte more is refused.
sed 's/^smem .*/smem 49153 0/' "$good" >"$work/smem.trace"
expect_fail 2 "$SMSIM" trace replay "$work/smem.trace" --gpu a6000
contains "$work/err" "$work/smem.trace (pmpp-tiled): 49153 B of static shared memory cannot launch"
# A trace has no instruction addresses, so a replay cannot model fetch:
# it printed the what-if as in effect and 0 lines missed.  Refused,
# from --set or a preset file alike; fetch's other keys do nothing
# while l0_bytes is 0, and are let be.
expect_fail 2 "$SMSIM" trace replay "$good" --set fetch.l0_bytes=512
contains "$work/err" "$good: a trace carries no instruction addresses"
contains "$work/err" "fetch.l0_bytes = 512"
printf '[preset]\nbase = a6000\n[fetch]\nl0_bytes = 16384\n' >"$work/fetch.ini"
expect_fail 2 "$SMSIM" trace replay "$good" --config "$work/fetch.ini"
contains "$work/err" "fetch.l0_bytes = 16384"
"$SMSIM" trace replay "$good" --set fetch.l1_bytes=65536 >/dev/null ||
    fail "fetch.l1_bytes with l0_bytes 0 was refused on a replay"
echo "trace errors ok"
