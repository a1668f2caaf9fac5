#!/bin/sh
# Every command refuses an argument it does not take (exit 1, naming
# it), before doing any work: `smsim validate extra` ran the whole
# validation, `plot --list NAME` drew NAME.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$work"
"$SMSIM" trace gen --kernel vecadd --size 1024 -o v.trace >/dev/null

# extra CMD...: CMD followed by 'extra' must exit 1, naming 'extra'.
extra() {
    expect_fail 1 "$@" extra
    contains "$work/err" "'extra'"
}

extra "$SMSIM" gpus
extra "$SMSIM" kernels
extra "$SMSIM" query --gpu a100
extra "$SMSIM" occupancy --gpu a100 --threads 256 --regs 32
extra "$SMSIM" run --gpu a100 --kernel vecadd --size 1024
extra "$SMSIM" validate
extra "$SMSIM" trace gen --kernel vecadd --size 1024 -o w.trace
extra "$SMSIM" sweep --gpu a100 --mode occupancy --vary threads=128 --vary regs=32
# `smsim help COMMAND` is COMMAND --help (it printed the list of
# commands); an unknown one is named, exit 1.
"$SMSIM" help run >"$work/help" || fail "smsim help run exited $?"
contains "$work/help" "smsim run [OPTION"
expect_fail 1 "$SMSIM" help nosuch
contains "$work/err" "unknown command 'nosuch'"
expect_fail 1 "$SMSIM" help run extra
contains "$work/err" "help takes one command, not 'extra'"
# These take one FILE or NAME: a second is the extra one.
expect_fail 1 "$SMSIM" trace info v.trace extra
expect_fail 1 "$SMSIM" trace replay v.trace extra
expect_fail 1 "$SMSIM" plot occupancy extra
expect_fail 1 "$SMSIM" plot --list occupancy
contains "$work/err" "--list lists the figures; it takes no NAME ('occupancy')"
[ ! -e occupancy.png ] || fail "plot --list drew the figure"
[ ! -e w.trace ] || fail "trace gen wrote its file all the same"

# Numbers in C's other bases, which GOption would take without a word
# (--size 010000 ran size 4096), are refused with the option.
expect_fail 1 "$SMSIM" run --gpu a100 --kernel vecadd --size 010000
contains "$work/err" "--size 010000: write numbers in decimal"
expect_fail 1 "$SMSIM" occupancy --gpu a100 --threads=0x100 --regs 32
contains "$work/err" "--threads=0x100: write numbers in decimal"
expect_fail 1 "$SMSIM" occupancy --gpu a100 --threads " 010" --regs 32
expect_fail 1 "$SMSIM" run --gpu a100 --kernel vecadd -n010000
"$SMSIM" occupancy --gpu a100 --threads 256 --regs 32 --smem 0 >/dev/null ||
    fail "a plain 0 was refused"
# The most negative 64-bit integer is no count or size: refused with
# the option, not taken for the option left out (--regs and --smem ran
# the model's own, exit 0; --size said to give --size).
m=-9223372036854775808
expect_fail 1 "$SMSIM" run --gpu a100 --kernel vecadd --size 1024 --regs $m
contains "$work/err" "--regs $m: out of range"
expect_fail 1 "$SMSIM" run --gpu a100 --kernel vecadd --size 1024 --smem=$m
contains "$work/err" "--smem=$m: out of range"
expect_fail 1 "$SMSIM" run --gpu a100 --kernel pmpp-tiled --size 256 --window $m
contains "$work/err" "--window $m: out of range"
expect_fail 1 "$SMSIM" run --gpu a100 --kernel vecadd -n$m
contains "$work/err" "-n$m: out of range"
expect_fail 1 "$SMSIM" occupancy --gpu a100 --threads $m --regs 32
contains "$work/err" "--threads $m: out of range"
expect_fail 1 "$SMSIM" plot occupancy --size $m
contains "$work/err" "--size $m: out of range"
[ ! -e occupancy.png ] || fail "plot --size $m drew the figure"
# Only the integer options: a file named 0002, after -o or after a
# flag, is a file.
"$SMSIM" trace gen --kernel vecadd --size 1024 -o 0002 >/dev/null ||
    fail "trace gen -o 0002 refused"
"$SMSIM" trace replay --exact 0002 >/dev/null || fail "replay --exact 0002 refused"
rm -f 0002
# The same --set key twice is refused (exit 1, naming the key), as a
# clash of options: the last used to win without a word.  The key is
# the key however it is spaced; every command that takes --set, before
# any work (validate ran the whole validation).
twice() {
    expect_fail 1 "$@" --set sm.registers=65536 --set "sm. registers = 131072"
    contains "$work/err" "--set sm.registers given twice (--set sm.registers=65536, then --set sm. registers = 131072)"
}
twice "$SMSIM" query --gpu a100
twice "$SMSIM" occupancy --gpu a100 --threads 256 --regs 32
twice "$SMSIM" run --gpu a100 --kernel vecadd --size 1024
twice "$SMSIM" validate
twice "$SMSIM" trace gen --kernel vecadd --size 1024 -o w.trace
twice "$SMSIM" trace replay v.trace
twice "$SMSIM" sweep --gpu a100 --mode occupancy --vary threads=128 --vary regs=32 -o s.csv
twice "$SMSIM" plot occupancy --gpu a100 -o occ.png
[ ! -e w.trace ] && [ ! -e s.csv ] && [ ! -e s.csv.journal ] && [ ! -e occ.png ] ||
    fail "a command with a --set key twice wrote its output"
# Even with one value twice; other keys may each be given once.
expect_fail 1 "$SMSIM" query --gpu a100 --set sm.registers=65536 --set sm.registers=65536
contains "$work/err" "--set sm.registers given twice"
"$SMSIM" query --gpu a100 --set sm.registers=131072 --set sm.max_regs_per_block=131072 >/dev/null ||
    fail "two keys, once each, refused"
# An option given twice is refused (exit 1, naming it), but for the
# repeatable ones: GOption kept the last, so the run below went at 512.
for cmd in "run --gpu a100 --kernel vecadd --size 1024 --size 512" \
           "run --gpu a100 --kernel vecadd --size=1024 --size=512" \
           "run -g a100 -g v100 --kernel vecadd --size 64" \
           "occupancy --gpu a100 --threads 128 --threads 256 --regs 32" \
           "query --gpu a100 --gpu v100" "validate --gpu all --gpu a100" \
           "trace replay v.trace --format json --format text"; do
    # shellcheck disable=SC2086
    expect_fail 1 "$SMSIM" $cmd
    contains "$work/err" " given twice (see \`smsim "
done
"$SMSIM" run --gpu a100 --kernel vecadd --size 1024 -p BLOCK=64 --set \
    sm.registers=65536 --set mem.l2_assoc=16 >/dev/null ||
    fail "run refused --set given twice with different keys"
# A negative count is a malformed command line (exit 1, naming the
# option) in every command that takes one: occupancy said 2 where run
# said 1.  From 0 up, the GPU or the kernel model judges (exit 2), as
# run and plot now agree for --size 0 (plot took 0 for its default).
negative() {
    expect_fail 1 "$@"
    contains "$work/err" ": must not be negative (a count)"
}
for o in --threads --regs --smem --dyn-smem; do
    set -- --threads 128 --regs 32
    [ "$o" = --threads ] && set -- --regs 32
    [ "$o" = --regs ] && set -- --threads 128
    negative "$SMSIM" occupancy --gpu a100 "$@" "$o" -5
    contains "$work/err" "$o -5:"
done
negative "$SMSIM" run --gpu a100 --kernel vecadd --size -1
for o in --regs --smem; do
    negative "$SMSIM" run --gpu a100 --kernel vecadd --size 1024 "$o" -1
    contains "$work/err" "$o -1:"
done
negative "$SMSIM" trace gen --kernel vecadd --size -5 -o w.trace
negative "$SMSIM" trace replay --regs -1 v.trace
negative "$SMSIM" trace replay --smem -1 v.trace
negative "$SMSIM" plot timeline --size -5 -o t.png
for o in --threads --regs --smem; do
    negative "$SMSIM" plot occupancy "$o" -3 -o o.png
done
[ ! -e w.trace ] && [ ! -e t.png ] && [ ! -e o.png ] ||
    fail "a negative count left an output"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --threads 0 --regs 32
contains "$work/err" "0 threads per block"
for cmd in "run --gpu a100 --kernel vecadd" "trace gen --kernel vecadd -o w.trace" \
           "plot timeline --kernel vecadd -o t.png"; do
    # shellcheck disable=SC2086
    expect_fail 2 "$SMSIM" $cmd --size 0
    contains "$work/err" "size 0: must be positive"
done
[ ! -e w.trace ] && [ ! -e t.png ] || fail "a size of 0 left an output"
echo "extra arguments, other bases, repeated options and negative counts refused ok"

