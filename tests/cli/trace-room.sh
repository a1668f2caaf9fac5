#!/bin/sh
# A trace its file system cannot hold is refused once its first block
# shows it, not when the disk is full, and leaves no file behind.  The
# small file system is a tmpfs in a mount namespace of the test's own,
# which takes root (CI runs as root); elsewhere the test is skipped.
. "${top_srcdir:-.}/tests/cli/setup"

if [ "$(id -u)" -ne 0 ] || ! unshare --mount true 2>/dev/null; then
    echo "skipped: a tmpfs of 4 MiB takes root and unshare --mount"
    exit 77
fi

# sgemm-5 at 512 is (512 / 128)^2 = 16 blocks of 64 iterations; at 256,
# 4 blocks of 32.  Compressed, a block of 64 iterations is some 370 kB
# (it was 368,741 B when this was written), so 16 of them need about
# 5.9 MB, more than 4 MiB holds, where the first block alone fits; the
# 4 blocks at 256, each half that, come to under 1 MB and fit.
fs="$work/fs"
mkdir "$fs"
unshare --mount sh -c '
    mount -t tmpfs -o size=4m tmpfs "$1" || exit 3
    "$2" trace gen --kernel sgemm-5 --size 512 -o "$1/big.trace.gz" \
        >"$3/big.out" 2>"$3/big.err"
    echo $? >"$3/big.status"
    ls -A "$1" >"$3/big.left"
    "$2" trace gen --kernel sgemm-5 --size 256 -o "$1/small.trace.gz" \
        >"$3/small.out" 2>"$3/small.err"
    echo $? >"$3/small.status"
    ls -A "$1" >"$3/small.left"
' sh "$fs" "$SMSIM" "$work" || fail "could not mount a tmpfs"

[ "$(cat "$work/big.status")" = 2 ] ||
    fail "a trace of ~5.9 MB on 4 MiB: exit $(cat "$work/big.status"): $(cat "$work/big.err")"
contains "$work/big.err" "$fs/big.trace.gz: the trace would take about"
contains "$work/big.err" "its first 1 of 16 blocks took"
contains "$work/big.err" "free on its file system"
[ ! -s "$work/big.left" ] || fail "a refused trace left $(cat "$work/big.left")"

[ "$(cat "$work/small.status")" = 0 ] ||
    fail "a trace of under 1 MB on 4 MiB: exit $(cat "$work/small.status"): $(cat "$work/small.err")"
[ "$(cat "$work/small.left")" = small.trace.gz ] ||
    fail "after the trace that fits: $(cat "$work/small.left")"

# A trace that fits is written, however small its blocks: the header is
# written once, not once a block (vecadd's 8192 blocks, some 260 bytes
# each gzipped beside a header of some 130, were projected at 1.5 times
# the file's size and refused with room to spare).  The file system
# here holds the trace, written elsewhere first, and 15 % more.
"$SMSIM" trace gen --kernel vecadd --size 1048576 -o "$work/v.trace.gz" \
    >/dev/null || fail "trace gen vecadd"
kib=$(( $(wc -c <"$work/v.trace.gz") * 115 / 100 / 1024 + 1 ))
mkdir "$work/fs2"
unshare --mount sh -c '
    mount -t tmpfs -o size="$4"k tmpfs "$1" || exit 3
    "$2" trace gen --kernel vecadd --size 1048576 -o "$1/v.trace.gz" \
        >/dev/null 2>"$3/v.err"
    echo $? >"$3/v.status"
    if cmp -s "$1/v.trace.gz" "$3/v.trace.gz"; then echo same >"$3/v.same"; fi
' sh "$work/fs2" "$SMSIM" "$work" "$kib" || fail "could not mount a tmpfs"
[ "$(cat "$work/v.status")" = 0 ] ||
    fail "a trace on a file system with 15 % to spare: exit $(cat "$work/v.status"): $(cat "$work/v.err")"
[ -e "$work/v.same" ] || fail "the trace written there differs"
