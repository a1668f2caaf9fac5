#!/bin/sh
# A replay's peak memory is bounded by the resident warps, not by the
# file: it stays flat from a trace to one 16 times longer.  Peak memory
# is getrusage's ru_maxrss, which `--verbose` prints.  Skipped under the
# sanitizers, whose allocators keep freed memory in quarantine.
. "${top_srcdir:-.}/tests/cli/setup"
case "${LINK_FLAGS:-}" in
*sanitize*)
    echo "skipped: peak memory is not the program's under sanitizers"
    exit 77 ;;
esac

# peak CMD...: the peak memory (KiB) `CMD --verbose` reports.
peak() {
    "$@" --verbose 2>&1 >/dev/null | sed -n 's/.*peak memory \([0-9]*\) KiB.*/\1/p'
}

# Longer: one warp's pointer chase, 20000 and 320000 iterations.  A
# reader that held the file would hold 16 x 20000 lines (several MB).
for ext in trace trace.gz; do
    for n in 20000 320000; do
        "$SMSIM" trace gen --kernel pchase --size $n -o "$work/pc$n.$ext" >/dev/null
    done
    small=$(peak "$SMSIM" trace replay "$work/pc20000.$ext" --gpu a100 --exact)
    large=$(peak "$SMSIM" trace replay "$work/pc320000.$ext" --gpu a100 --exact)
    echo "pchase .$ext: $(wc -c <"$work/pc20000.$ext") B -> $small KiB," \
         "$(wc -c <"$work/pc320000.$ext") B -> $large KiB"
    [ "$large" -le $((small + small / 10)) ] ||
        fail "pchase .$ext: peak memory grew from $small to $large KiB"
done

# Wider: vecadd with 16 times the blocks.  The simulator's own memory
# grows with the blocks too, so the replay is measured against the
# model's run: the trace may add little more at 16x than at 1x (the
# large trace is 9 MB of text).
over() {
    n=$1
    "$SMSIM" trace gen --gpu a100 --kernel vecadd --size "$n" -o "$work/v$n.trace" >/dev/null
    r=$(peak "$SMSIM" trace replay "$work/v$n.trace")
    m=$(peak "$SMSIM" run --gpu a100 --kernel vecadd --size "$n")
    echo $((r - m))
}
small=$(over 65536)
large=$(over 1048576)
echo "vecadd: the replay's peak over the model's: $small KiB at 1x, $large KiB at 16x"
[ "$large" -le $((small + 4096)) ] ||
    fail "vecadd: the trace's memory grew from $small to $large KiB"
echo "trace memory ok"
