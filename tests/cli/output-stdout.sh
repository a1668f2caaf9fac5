#!/bin/sh
# A failed write to standard output is a failure (exit 2, saying so) in
# every command, not a success with nothing in it.  A pipe whose reader
# is gone stands for a full disk (never /dev/full here: a test must not
# write to a real device): with SIGPIPE ignored, the write fails with
# EPIPE instead of killing smsim.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$work"
mkfifo pipe

# broken (setup) checks the reason too: a write that failed early (a
# text longer than stdio's buffer, as kernels and every --help are)
# left no errno by the time main checked the stream.

"$SMSIM" trace gen --kernel vecadd --size 1024 -o v.trace >/dev/null
broken "$SMSIM" gpus
contains "$work/err" "smsim gpus: writing standard output: Broken pipe"
broken "$SMSIM" kernels
broken "$SMSIM" query --gpu a100
broken "$SMSIM" query --gpu a100 --sources
broken "$SMSIM" query --keys
broken "$SMSIM" trace info v.trace
broken "$SMSIM" plot --list
broken "$SMSIM" occupancy --gpu a100 --threads 256 --regs 32
broken "$SMSIM" occupancy --gpu a100 --threads 256 --regs 32 -o -
# Reported once, by the command that saw it.
[ "$(grep -c 'writing standard output' "$work/err")" -eq 1 ] || fail "said twice: $(cat "$work/err")"
broken "$SMSIM" run --gpu a100 --kernel vecadd --size 4096
broken "$SMSIM" --help
broken "$SMSIM" --version
broken "$SMSIM" trace --help
for cmd in gpus query occupancy kernels run validate "trace gen" "trace info" \
    "trace replay" sweep plot; do
    broken "$SMSIM" $cmd --help
done
echo "standard output checked ok"
