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
# These take one FILE or NAME: a second is the extra one.
expect_fail 1 "$SMSIM" trace info v.trace extra
expect_fail 1 "$SMSIM" trace replay v.trace extra
expect_fail 1 "$SMSIM" plot occupancy extra
expect_fail 1 "$SMSIM" plot --list occupancy
contains "$work/err" "--list lists the figures; it takes no NAME ('occupancy')"
[ ! -e occupancy.png ] || fail "plot --list drew the figure"
[ ! -e w.trace ] || fail "trace gen wrote its file all the same"
echo "extra arguments refused ok"
