#!/bin/sh
# A sweep that fails with no point finished leaves no journal: it would
# hold nothing to resume, and only refuse the next run as "an
# interrupted sweep".  A journal with no point in it that a run finds
# (a sweep killed before its first point finished, or one still
# running) is not taken over, and the refusal says what it holds.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$work"

# no_room BLOCKS CMD...: run CMD with files limited to BLOCKS (0: not a
# byte can be written), SIGXFSZ ignored so that the write fails with
# EFBIG instead.  Its output and status go through a pipe, which the
# limit does not cover, into $work/err.
no_room() {
    blocks=$1
    shift
    (
        trap '' XFSZ
        ulimit -f "$blocks"
        set +e
        "$@" 2>&1
        echo "exit $?"
    ) | cat >"$work/err"
}

occ="--gpu a6000 --mode occupancy --vary threads=32,64 --vary regs=32"
# The journal's header cannot be written: the empty journal goes.
# shellcheck disable=SC2086
no_room 0 "$SMSIM" sweep $occ -o s.csv
contains "$work/err" "s.csv.journal: File too large"
contains "$work/err" "exit 2"
[ ! -e s.csv.journal ] || fail "a sweep that failed on its journal's header left it"
[ ! -e s.csv ] || fail "a failed sweep wrote its output"
# shellcheck disable=SC2086
"$SMSIM" sweep $occ -o s.csv
[ "$(wc -l <s.csv)" -eq 3 ] || fail "the rerun wrote $(wc -l <s.csv) lines, expected 3"
[ ! -e s.csv.journal ] || fail "journal left behind"

# A shard with no points (one point, shard 5000 of 5000) journals no
# row; when its output cannot be written, the journal goes too.  The
# header and the 3,200 values padded to ten digits make an output of
# some 1,700 bytes, past one block of either 512 or 1024 bytes (the
# unit of ulimit -f varies with the shell), and a journal of some 180
# within it.
t=$(seq -f '%010g' 32 32 1024 | paste -sd, -)
r=$(seq -f '%010g' 1 100 | paste -sd, -)
empty="--gpu a6000 --mode occupancy --vary threads=$t --vary regs=$r --shard 5000/5000"
# shellcheck disable=SC2086
"$SMSIM" sweep $empty -o whole.csv
[ "$(wc -c <whole.csv)" -gt 1024 ] || fail "test setup: the shard's output fits a block"
# shellcheck disable=SC2086
no_room 1 "$SMSIM" sweep $empty -o e.csv
contains "$work/err" "File too large"
contains "$work/err" "exit 2"
[ ! -e e.csv.journal ] || fail "a shard with no points left its journal"

# A journal holding its header alone, as a kill -9 before the first
# point finished leaves it: refused (a sweep still running looks the
# same), saying it holds no finished point; --resume runs the sweep.
# shellcheck disable=SC2086
SMSIM_SWEEP_TEST_KILL_AFTER=1 "$SMSIM" sweep $occ -j 1 -o k.csv 2>/dev/null && fail "not killed"
head -n 2 k.csv.journal >k.head && mv k.head k.csv.journal
# shellcheck disable=SC2086
expect_fail 2 "$SMSIM" sweep $occ -o k.csv
contains "$work/err" "k.csv.journal exists but holds no finished point"
[ -e k.csv.journal ] || fail "a refused run removed a journal it did not make"
# An empty file is no journal either.
: >k.csv.journal
# shellcheck disable=SC2086
expect_fail 2 "$SMSIM" sweep $occ -o k.csv
contains "$work/err" "k.csv.journal exists but holds no finished point"
# shellcheck disable=SC2086
"$SMSIM" sweep $occ -o k.csv --resume
cmp s.csv k.csv || fail "the resumed sweep differs from a whole run"

# A journal with a finished point is an interrupted sweep, as before,
# and a failed resume keeps it.
# shellcheck disable=SC2086
SMSIM_SWEEP_TEST_KILL_AFTER=1 "$SMSIM" sweep $occ -j 1 -o i.csv 2>/dev/null && fail "not killed"
# shellcheck disable=SC2086
expect_fail 2 "$SMSIM" sweep $occ -o i.csv
contains "$work/err" "i.csv.journal exists: an interrupted sweep; add --resume"
cp i.csv.journal i.orig
# shellcheck disable=SC2086
no_room 0 "$SMSIM" sweep $occ -o i.csv --resume
contains "$work/err" "exit 2"
cmp i.orig i.csv.journal || fail "a failed resume changed the journal"
echo "sweep: a failed sweep leaves no empty journal"
