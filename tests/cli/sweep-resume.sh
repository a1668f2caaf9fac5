#!/bin/sh
# A sweep killed midway (SIGKILL, as a crash or a batch system's time
# limit would) and resumed gives the CSV an uninterrupted run gives.
# SMSIM_SWEEP_TEST_KILL_AFTER=N makes smsim kill itself after journaling
# N rows, so the test does not race the sweep.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$work"

killed() {   # killed CMD...: CMD must die of SIGKILL
    set +e
    "$@" 2>/dev/null
    got=$?
    set -e
    [ "$got" -eq 137 ] || fail "'$*' exited $got, expected to be killed (137)"
}

grid="--gpu a100 --mode occupancy --vary threads=64,128,192,256,384,512,768,1024
      --vary regs=16,32,40,64,128 --vary smem=0,4096,16384,40000,48000 --vary carveout=-1,25,100"
# shellcheck disable=SC2086
"$SMSIM" sweep $grid -o whole.csv
# shellcheck disable=SC2086
SMSIM_SWEEP_TEST_KILL_AFTER=250 killed "$SMSIM" sweep $grid -j 2 -o out.csv
[ ! -e out.csv ] || fail "a killed sweep left its output"
rows=$(($(wc -l <out.csv.journal) - 2))
[ "$rows" -ge 250 ] && [ "$rows" -lt 600 ] || fail "$rows rows journaled, expected 250.."
# A row cut short by the kill is dropped and run again.
printf '7,cut sh' >>out.csv.journal
# Without --resume the journal is never overwritten.
# shellcheck disable=SC2086
expect_fail 2 "$SMSIM" sweep $grid -o out.csv
contains "$work/err" "out.csv.journal exists"
# A journal is read as its bytes: a byte-order mark in front of it
# makes it no journal of this sweep (a reader that dropped the mark cut
# the file 3 bytes short of its last whole row, gluing two rows).
{ printf '\357\273\277'; cat out.csv.journal; } >bom.csv.journal
# shellcheck disable=SC2086
expect_fail 2 "$SMSIM" sweep $grid -o bom.csv --resume
contains "$work/err" "bom.csv.journal:1: not a sweep journal"
# Killed again while resuming, then finished.
# shellcheck disable=SC2086
SMSIM_SWEEP_TEST_KILL_AFTER=100 killed "$SMSIM" sweep $grid -j 2 -o out.csv --resume
# shellcheck disable=SC2086
"$SMSIM" sweep $grid -j 2 -o out.csv --resume
cmp whole.csv out.csv || fail "resumed CSV differs from an uninterrupted run"
[ ! -e out.csv.journal ] || fail "journal left behind"

# Run mode, a shard of it.
run="--gpu a100 --vary kernel=vecadd,loaduse --vary size=256,512,1024,2048 --vary sm.max_blocks=8,32 --shard 2/3"
# shellcheck disable=SC2086
"$SMSIM" sweep $run -j 1 -o rwhole.csv
# shellcheck disable=SC2086
SMSIM_SWEEP_TEST_KILL_AFTER=2 killed "$SMSIM" sweep $run -j 2 -o rout.csv
# shellcheck disable=SC2086
"$SMSIM" sweep $run -j 2 -o rout.csv --resume
cmp rwhole.csv rout.csv || fail "resumed run-mode shard differs"

# A journal of another sweep is refused, not mixed in.
# shellcheck disable=SC2086
SMSIM_SWEEP_TEST_KILL_AFTER=1 killed "$SMSIM" sweep $run -j 1 -o other.csv
expect_fail 2 "$SMSIM" sweep --gpu a100 --vary kernel=vecadd --vary size=256 -o other.csv --resume
contains "$work/err" "other.csv.journal:1: the journal of another sweep"
# So is the journal of a sweep whose preset file changed in between:
# the same path and flags, another GPU.
cp "$top_srcdir/examples/a100-2x-regs.ini" mine.ini
cfg="--config mine.ini --mode occupancy --vary threads=64,128,256 --vary regs=32,64"
# shellcheck disable=SC2086
SMSIM_SWEEP_TEST_KILL_AFTER=1 killed "$SMSIM" sweep $cfg -j 1 -o edited.csv
sed 's/^registers = .*/registers = 196608/' mine.ini >mine.new && mv mine.new mine.ini
grep -q '^registers = 196608' mine.ini || fail "test setup: mine.ini has no registers key"
# shellcheck disable=SC2086
expect_fail 2 "$SMSIM" sweep $cfg -o edited.csv --resume
contains "$work/err" "edited.csv.journal:1: the journal of another sweep"

# A complete line that is not this sweep's row of its point (an edited
# or corrupted journal: a kill leaves at most a partial last line) is
# refused, naming the line, and never copied into the CSV.
small="--gpu a100 --mode occupancy --vary threads=64,128,256 --vary regs=32,64"
# shellcheck disable=SC2086
SMSIM_SWEEP_TEST_KILL_AFTER=1 killed "$SMSIM" sweep $small -j 1 -o bad.csv
cp bad.csv.journal bad.orig
for row in '0,garbage' '0,999,999,1,1,1.00,none,1.00,'; do
    cp bad.orig bad.csv.journal
    echo "$row" >>bad.csv.journal
    line=$(($(wc -l <bad.csv.journal)))
    # shellcheck disable=SC2086
    expect_fail 2 "$SMSIM" sweep $small -o bad.csv --resume
    contains "$work/err" "bad.csv.journal:$line: '$row'"
    [ ! -e bad.csv ] || fail "a journal holding '$row' made bad.csv"
done
# Results of the wrong type: a whole number, a decimal, true or false
# where the column holds one (sweep_point.h), each named with its column
# and value.  A run-mode row: cycles is field 5, after point, kernel,
# size and sm.max_blocks; l1_hit_rate is found by name (both come before
# the limiter, whose text may hold a quoted comma); sampled is the
# fourth field from the end, before window_iterations, waves and an
# empty error.
col() {   # col NAME: the field number of column NAME in rout.csv's header
    sed -n 2p rout.csv.journal | tr ',' '\n' | grep -nx "$1" | cut -d: -f1
}
rm -f rout.csv
# shellcheck disable=SC2086
SMSIM_SWEEP_TEST_KILL_AFTER=1 killed "$SMSIM" sweep $run -j 1 -o rout.csv
[ "$(col cycles)" -eq 5 ] || fail "test setup: cycles is not field 5"
cp rout.csv.journal rout.orig
set_field() {   # set_field N VALUE: field N of the row on line 3
    awk -F, -v OFS=, -v f="$1" -v v="$2" 'NR == 3 { $f = v } { print }' \
        rout.orig >rout.csv.journal
}
resume_refuses() {   # resume_refuses COLUMN VALUE KIND
    # shellcheck disable=SC2086
    expect_fail 2 "$SMSIM" sweep $run -o rout.csv --resume
    contains "$work/err" "rout.csv.journal:3: "
    contains "$work/err" "column $1 = '$2': not $3"
    [ ! -e rout.csv ] || fail "a journal holding $1 = $2 made rout.csv"
}
set_field 5 abc
resume_refuses cycles abc "a whole number"
set_field "$(col l1_hit_rate)" 1e99x
resume_refuses l1_hit_rate 1e99x "a decimal number"
sed -E '3s/,(true|false),([0-9]+),([0-9]+),$/,yes,\2,\3,/' rout.orig >rout.csv.journal
grep -q ',yes,[0-9]*,[0-9]*,$' rout.csv.journal || fail "test setup: no sampled field"
resume_refuses sampled yes "true or false"
# A number spelt as the sweep never writes it (quoted, spaced) reads as
# the number once split, but would be copied as it stands.
set_field 5 '" 1234 "'
# shellcheck disable=SC2086
expect_fail 2 "$SMSIM" sweep $run -o rout.csv --resume
contains "$work/err" "rout.csv.journal:3: "
contains "$work/err" "not as the sweep writes them"
# A point journaled twice (a sweep runs each once) is refused, even
# when both rows agree.
cp bad.orig bad.csv.journal
sed -n 3p bad.orig >>bad.csv.journal
# shellcheck disable=SC2086
expect_fail 2 "$SMSIM" sweep $small -o bad.csv --resume
contains "$work/err" "bad.csv.journal:4: "
contains "$work/err" "again (first at line 3)"
echo "sweep: killed and resumed sweeps give the uninterrupted CSV"
