#!/bin/sh
# An output that could not be written -- a directory, or a file in a
# directory that is not there -- is refused before any work, with the
# status the write at the end would have failed with (2), naming the
# option and the path: a sweep or a validation is not lost to a
# mistyped -o.  Nothing is left behind, not even a sweep's journal.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$work"
mkdir dir

check() {
    expect_fail 2 "$@"
    [ ! -s "$work/out" ] || fail "'$*' wrote to standard output: $(cat "$work/out")"
}

check "$SMSIM" sweep --gpu a100 -V kernel=vecadd -V size=128,256 -o dir
contains "$work/err" "-o dir: a directory, not a file"
[ ! -e dir.journal ] || fail "sweep -o dir left a journal"
check "$SMSIM" sweep --gpu a100 -V kernel=vecadd -V size=128 -o none/x.csv
contains "$work/err" "-o none/x.csv: no directory none to write it in"
check "$SMSIM" run --gpu a100 --kernel vecadd --size 128 -o dir
contains "$work/err" "-o dir: a directory, not a file"
check "$SMSIM" validate -o none/v.txt
contains "$work/err" "-o none/v.txt: no directory none to write it in"
check "$SMSIM" validate --csv-output dir
contains "$work/err" "--csv-output dir: a directory, not a file"
check "$SMSIM" trace gen --kernel vecadd --size 1024 -o dir
contains "$work/err" "-o dir: a directory, not a file"
check "$SMSIM" plot timeline --data none/t.csv -o t.png
contains "$work/err" "--data none/t.csv: no directory none to write it in"
[ ! -e t.png ] || fail "plot drew a figure all the same"

# An empty name names no file: the same status (2) and message in every
# command that writes one, before any work (sweep said 1, plot 1 for a
# figure, and plot all "cannot create : Invalid argument").
"$SMSIM" trace gen --kernel vecadd --size 1024 -o v.trace >/dev/null
printf 'regs,static_smem,block_size,dyn_smem,carveout\n32,0,128,0,\n' >l.csv
for cmd in "run --gpu a100 --kernel vecadd --size 128 -o" \
           "occupancy --gpu a100 --threads 128 --regs 32 -o" \
           "occupancy --gpu a100 --batch l.csv -o" "validate -o" \
           "validate --csv-output" "trace gen --kernel vecadd --size 1024 -o" \
           "trace replay v.trace -o" \
           "sweep --gpu a100 -V kernel=vecadd -V size=128 -o" \
           "sweep --merge s1.csv s2.csv -o" "plot occupancy -o" \
           "plot occupancy --data" "plot all -o"; do
    # shellcheck disable=SC2086
    check "$SMSIM" $cmd ''
    contains "$work/err" "'': an empty"
done
[ -z "$(ls -A | grep -v '^\(dir\|v.trace\|l.csv\|err\|out\)$')" ] ||
    fail "an empty -o left $(ls -A)"

# Through a link, the file it names is what must be writable: a link
# to a file not made yet, in a directory that is there, is fine.
ln -s made.csv link.csv
"$SMSIM" sweep --gpu a100 -V kernel=vecadd -V size=128 -o link.csv ||
    fail "sweep -o a link to a new file refused"
[ -L link.csv ] && [ -s made.csv ] || fail "sweep -o link.csv did not write made.csv"
ln -s none/x.csv dangling.csv
check "$SMSIM" run --gpu a100 --kernel vecadd --size 128 -o dangling.csv
contains "$work/err" "-o dangling.csv: no directory none to write it in"
# A file taken for a directory; links in a loop, named with the option.
touch f.csv
check "$SMSIM" run --gpu a100 --kernel vecadd --size 128 -o f.csv/x.csv
contains "$work/err" "-o f.csv/x.csv: f.csv is not a directory"
ln -s loop1 loop2
ln -s loop2 loop1
check "$SMSIM" run --gpu a100 --kernel vecadd --size 128 -o loop1
contains "$work/err" "-o loop1: too many levels of symbolic links"
# A directory it may not write in, as another user than root (root
# may): run as nobody, where setpriv can and nobody can reach smsim and
# its presets (not in a build directory only root may enter).
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
chmod 755 "$work"
# shellcheck disable=SC2086
if [ "$(id -u)" -eq 0 ] &&
    $nobody "$SMSIM" run --gpu a100 --kernel vecadd --size 128 >/dev/null 2>&1; then
    mkdir ro
    chmod 555 ro
    # shellcheck disable=SC2086
    expect_fail 2 $nobody "$SMSIM" run --gpu a100 --kernel vecadd --size 128 -o ro/x.csv
    contains "$work/err" "-o ro/x.csv: cannot write ro: Permission denied"
fi
