#!/bin/sh
# `smsim validate --config`: a what-if is set beside the published
# figures of the GPU it starts from, under its own name.  The GPU is
# made 2 SMs so that the whole table takes a few seconds.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$work"

# base = a6000: the A6000's eleven published kernels, its figures
# (../shared/data/sgemm_published.csv: sgemm-1 309.0, sgemm-11
# 17278.3), under the file's name.
printf '[preset]\nbase = a6000\n[device]\nsm_count = 2\n' >tiny6.ini
"$SMSIM" validate --config tiny6.ini --csv-output t6.csv >t6.txt ||
    fail "validate --config tiny6.ini exited $?"
[ "$(grep -c '^tiny6,sgemm-' t6.csv)" -eq 11 ] || fail "A6000 rows: $(cat t6.csv)"
grep -q '^tiny6,sgemm-1,4096,[0-9.]*,309.0,' t6.csv || fail "sgemm-1 row: $(grep sgemm-1, t6.csv)"
grep -q '^tiny6,sgemm-11,4096,[0-9.]*,17278.3,' t6.csv || fail "sgemm-11 row"
# Two SMs of 84 do at most 2/84 of the work a cycle: sgemm-1, 285.8
# GFLOP/s on the whole A6000, comes to at most 285.8 x 2 / 84 = 6.8
# (the bound allows for sampling: 10).
awk -F, '$2 == "sgemm-1" && ($4 <= 0 || $4 > 10) { exit 1 }' t6.csv ||
    fail "2 SMs ran sgemm-1 at $(awk -F, '$2 == "sgemm-1" { print $4 }' t6.csv) GFLOP/s"
contains t6.txt "tiny6 (NVIDIA RTX A6000), SGEMM at 4096, GFLOP/s, beside a6000's published figures"
# With --gpu, a file without base= goes over that GPU: the A100's ten
# kernels and figures (sgemm-1 292.1, sgemm-10 17806.7).
printf '[device]\nsm_count = 2\n' >two.ini
"$SMSIM" validate --gpu a100 --config two.ini --format csv >t1.csv ||
    fail "validate --gpu a100 --config two.ini exited $?"
[ "$(grep -c '^two,sgemm-' t1.csv)" -eq 10 ] || fail "A100 rows: $(cat t1.csv)"
grep -q '^two,sgemm-1,4096,[0-9.]*,292.1,' t1.csv || fail "A100 sgemm-1 row"
grep -q '^two,sgemm-10,4096,[0-9.]*,17806.7,' t1.csv || fail "A100 sgemm-10 row"
# A what-if's table is no GPU's: plot --from refuses it, saying why.
expect_fail 2 "$SMSIM" plot sgemm-validation --from t6.csv -o fig.png
contains "$work/err" "t6.csv:2: tiny6 sgemm-1: no published figure"
contains "$work/err" "a what-if's, from validate --config, carries its own name"

# Refused: a file that starts from a GPU without published figures, or
# from none by name; one named as a published GPU it is not; one with
# base= beside --gpu; --gpu all, whose two tables would carry one name.
printf '[preset]\nbase = h100\n' >h.ini
expect_fail 2 "$SMSIM" validate --config h.ini
contains "$work/err" "h.ini starts from h100: published numbers exist for a6000 and a100"
printf '[preset]\nbase = %s/src/models/presets/a100.ini\n' "$top_srcdir" >bypath.ini
expect_fail 2 "$SMSIM" validate --config bypath.ini
contains "$work/err" "bypath.ini starts from no shipped preset named as such"
printf '[preset]\nbase = a100\nname = a6000\n' >fake.ini
expect_fail 2 "$SMSIM" validate --config fake.ini
contains "$work/err" "fake.ini:3: [preset] name = a6000: a preset is named as its file, fake"
mkdir named && printf '[preset]\nbase = a100\n' >named/a6000.ini
expect_fail 2 "$SMSIM" validate --config named/a6000.ini
contains "$work/err" "named/a6000.ini is named a6000 but starts from a100: give the what-if a file name of its own"
expect_fail 2 "$SMSIM" validate --gpu a6000 --set preset.name=a100
contains "$work/err" "--set preset.name=a100: [preset] name can only be set in a preset file"
expect_fail 2 "$SMSIM" validate --gpu a100 --config "$top_srcdir/examples/a100-2x-regs.ini"
contains "$work/err" "has a base= and --gpu a100 was given too: give one"
expect_fail 1 "$SMSIM" validate --gpu all --config two.ini
contains "$work/err" "--config with --gpu all"
# An unknown GPU is bad input (exit 2), as in every command (README's
# exit status), and so is a known one without published figures, as a
# --config starting from one is; both before any kernel runs.
expect_fail 2 "$SMSIM" validate --gpu nosuch
contains "$work/err" "unknown GPU 'nosuch'"
expect_fail 2 "$SMSIM" validate --gpu h100
contains "$work/err" "--gpu h100: published numbers exist for a6000 and a100"

# -o and --csv-output are written both or neither.  A pipe nobody reads
# stands for a full disk (broken, in setup); one
# SM keeps the run to a second.  The table's file is whole before the
# CSV goes to the pipe, which fails: the file must not be left behind,
# nor anything staged beside it.
mkfifo pipe
mkdir both
broken "$SMSIM" validate --gpu a6000 --set device.sm_count=1 \
    -o both/v.txt --csv-output /dev/stdout
[ -z "$(ls both)" ] || fail "the CSV failed, yet both/ holds: $(ls both)"
# The other way round: the table to the pipe, the CSV to a file.
broken "$SMSIM" validate --gpu a6000 --set device.sm_count=1 \
    --csv-output both/v.csv
[ -z "$(ls both)" ] || fail "the table failed, yet both/ holds: $(ls both)"
# Killed by SIGPIPE (its default: validate --csv-output v.csv | head)
# while the CSV is staged beside its target: the staged file is removed
# as on Ctrl-C (smsim.c, on_signal); it was left behind.
set +e
(
    exec 4<>pipe 5>pipe 4<&-
    exec env --default-signal=PIPE "$SMSIM" validate --gpu a6000 \
        --set device.sm_count=1 --csv-output both/v.csv >&5
) 2>"$work/err"
got=$?
set -e
[ "$got" -eq 141 ] || fail "validate into a closed pipe exited $got, expected 141 (SIGPIPE): $(cat "$work/err")"
[ -z "$(ls both)" ] || fail "killed by SIGPIPE, validate left in both/: $(ls both)"
# Both writable: both written, the CSV's header and one row per A6000
# kernel (eleven, as above), the table under its title.
"$SMSIM" validate --gpu a6000 --set device.sm_count=1 -o both/v.txt \
    --csv-output both/v.csv || fail "validate into both/ exited $?"
[ "$(ls both | tr '\n' ' ')" = "v.csv v.txt " ] || fail "both/ holds: $(ls both)"
[ "$(wc -l <both/v.csv)" -eq 12 ] || fail "v.csv: $(cat both/v.csv)"
contains both/v.txt "a6000 (NVIDIA RTX A6000), SGEMM at 4096, GFLOP/s"
echo "validate --config ok"
