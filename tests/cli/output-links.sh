#!/bin/sh
# -o writes the file a symlink points to and leaves the link a link; a
# FIFO (standing for a device) is written into, not replaced by a file.
# Only files made here: never a real device (the old rename, run as
# root, replaced /dev/stdout itself).
. "${top_srcdir:-.}/tests/cli/setup"
cd "$work"
occ="occupancy --gpu a100 --threads 256 --regs 32"

still_link() {
    [ -L "$1" ] || fail "$1 is no longer a symlink"
}

echo old >real.txt
ln -s real.txt link.txt
# shellcheck disable=SC2086
"$SMSIM" $occ -o link.txt
still_link link.txt
contains real.txt "Occupancy on a100"

# A chain of two links, one relative to its own directory; a link to a
# file not there yet.
mkdir sub
ln -s ../real.txt sub/up.txt
ln -s sub/up.txt chain.txt
"$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 -o chain.txt
still_link chain.txt
still_link sub/up.txt
contains real.txt "Launch: 128 threads/block"
ln -s new.csv dangling.csv
# shellcheck disable=SC2086
"$SMSIM" $occ --format csv -o dangling.csv
still_link dangling.csv
contains new.csv "a100,256,32,"

# A FIFO behind a link.  The shell holds it open for reading and
# writing, so that opening it does not block; the CSV fits in the pipe,
# and the line written after it keeps the read from waiting for ever.
mkfifo fifo
ln -s fifo fifo.csv
exec 4<>fifo
# shellcheck disable=SC2086
"$SMSIM" $occ --format csv -o fifo.csv
echo "(nothing before this)" >&4
IFS= read -r line <&4
exec 4<&-
still_link fifo.csv
[ -p fifo ] || fail "the FIFO was replaced"
case $line in
gpu,threads,regs,*) ;;
*) fail "the FIFO got '$line', not the CSV's header" ;;
esac

# A sweep into a FIFO keeps no journal beside it (fifo.csv.journal
# would be a stray file), and so cannot --resume.
exec 4<>fifo
"$SMSIM" sweep --gpu a100 --mode occupancy --vary threads=128 --vary regs=32 -o fifo.csv
echo "(end)" >&4
IFS= read -r line <&4
exec 4<&-
[ ! -e fifo.csv.journal ] || fail "a sweep into a FIFO left a journal"
case $line in
point,*) ;;
*) fail "the FIFO got '$line', not the sweep's header" ;;
esac
expect_fail 1 "$SMSIM" sweep --gpu a100 --mode occupancy --vary threads=128 --vary regs=32 -o fifo.csv --resume
contains "$work/err" "--resume needs -o FILE, a file"

# A trace is renamed into place too: through a link, and never onto a
# FIFO, which has no "whole or not at all".
ln -s real.trace trace-link
"$SMSIM" trace gen --kernel vecadd --size 1024 -o trace-link >"$work/out"
still_link trace-link
contains real.trace "smsim-trace"
# Its summary names the file as given, and a failure the link too.
contains "$work/out" "trace-link: vecadd, size 1024"
ln -s nodir/x.trace dangling-link
expect_fail 2 "$SMSIM" trace gen --kernel vecadd --size 1024 -o dangling-link
contains "$work/err" "-o dangling-link: no directory nodir to write it in"
expect_fail 2 "$SMSIM" trace gen --kernel vecadd --size 1024 -o fifo.csv
contains "$work/err" "-o fifo.csv: not a regular file"
still_link fifo.csv

# A figure and its CSV, each through a link.
if command -v gnuplot >/dev/null 2>&1; then
    ln -s real.png fig.png
    ln -s real-data.csv fig-data.csv
    "$SMSIM" plot bank-conflicts -o fig.png --data fig-data.csv >/dev/null
    still_link fig.png
    still_link fig-data.csv
    head -c 4 real.png | grep -q PNG || fail "real.png is not the figure"
    [ -s real-data.csv ] || fail "real-data.csv is not the figure's CSV"
fi
echo "output through links ok"
