#!/bin/sh
# No output may replace an input or another output: refused (exit 1)
# before any work, naming both options and the path, however the two
# paths are spelled.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$work"

cat >v.csv <<'CSV'
gpu,kernel,size,simulated_gflops,reference_gflops,error_pct,source
a6000,sgemm-1,4096,291.2,309.0,-5.76,x
CSV
cp v.csv v.orig

# The figure's CSV defaults to -o with .csv: here, the table read.
expect_fail 1 "$SMSIM" plot sgemm-validation --from v.csv -o v.png
contains "$work/err" "--from and --data (default: -o with .csv) both name v.csv"
cmp -s v.csv v.orig || fail "--from v.csv was overwritten"
[ ! -e v.png ] || fail "a figure drawn all the same"

expect_fail 1 "$SMSIM" plot occupancy --data occ.png -o occ.png
contains "$work/err" "-o and --data both name occ.png"
[ ! -e occ.png ] || fail "occ.png written all the same"

# The same file by another name.
cp v.orig s.csv
ln -s s.csv same.csv
expect_fail 1 "$SMSIM" plot 6 --from same.csv --data ./s.csv -o w.png
contains "$work/err" "--from same.csv and --data ./s.csv are the same file"
cmp -s s.csv v.orig || fail "--from same.csv was overwritten"

# With all, the directory's CSVs are outputs too.
mkdir figs
cp v.orig figs/sgemm-validation.csv
expect_fail 1 "$SMSIM" plot all -o figs --from figs/sgemm-validation.csv
contains "$work/err" "the CSV of figure sgemm-validation (in figs) both name figs/sgemm-validation.csv"
[ "$(ls figs)" = sgemm-validation.csv ] || fail "plot all wrote: $(ls figs)"

# validate: the CSV, written last, would replace the table.
expect_fail 1 "$SMSIM" validate -o x --csv-output x
contains "$work/err" "-o and --csv-output both name x"
[ ! -e x ] || fail "x written all the same"

# An input given again as -o, which each command read whole before it
# wrote: the input was replaced by the answer.
"$SMSIM" trace gen --gpu a100 --kernel vecadd --size 4096 -o t.trace >/dev/null
cp t.trace t.orig
expect_fail 1 "$SMSIM" trace replay t.trace -o t.trace
contains "$work/err" "the trace and -o both name t.trace"
cmp -s t.trace t.orig || fail "the trace replayed was overwritten"

printf 'threads,regs\n128,32\n' >pp.csv
cp pp.csv pp.orig
expect_fail 1 "$SMSIM" sweep --gpu a100 --mode occupancy --points pp.csv -o pp.csv
contains "$work/err" "--points and -o both name pp.csv"
cmp -s pp.csv pp.orig || fail "--points pp.csv was overwritten"
# The journal, appended to and then removed, is an output too.
cp pp.orig pp.csv.journal
expect_fail 1 "$SMSIM" sweep --gpu a100 --mode occupancy --points pp.csv.journal -o pp.csv
contains "$work/err" "--points and the journal (-o FILE.journal) both name pp.csv.journal"
cmp -s pp.csv.journal pp.orig || fail "--points pp.csv.journal was overwritten"

# The shards are refused before they are read: any file will do.
cp v.orig s1.csv
cp v.orig s2.csv
expect_fail 1 "$SMSIM" sweep --merge s1.csv s2.csv -o s1.csv
contains "$work/err" "--merge and -o both name s1.csv"
cmp -s s1.csv v.orig || fail "the shard s1.csv was overwritten"
expect_fail 1 "$SMSIM" sweep --merge --points pp.csv s1.csv s2.csv -o ./pp.csv
contains "$work/err" "--points pp.csv and -o ./pp.csv are the same file"

cp "$top_srcdir/examples/launches.csv" l.csv
expect_fail 1 "$SMSIM" occupancy --gpu a100 --batch l.csv -o l.csv
contains "$work/err" "--batch and -o both name l.csv"
cmp -s l.csv "$top_srcdir/examples/launches.csv" || fail "--batch l.csv was overwritten"
cp "$top_srcdir/examples/a100-2x-regs.ini" my.ini
expect_fail 1 "$SMSIM" occupancy --config my.ini --threads 128 --regs 32 -o my.ini
contains "$work/err" "--config and -o both name my.ini"
cmp -s my.ini "$top_srcdir/examples/a100-2x-regs.ini" || fail "--config my.ini was overwritten"
# The report or trace would replace the preset it was made with.
for c in "run --kernel vecadd --size 64" "trace gen --kernel vecadd --size 64" \
         validate; do
    # shellcheck disable=SC2086
    expect_fail 1 "$SMSIM" $c --config my.ini -o my.ini
    contains "$work/err" "--config and -o both name my.ini"
    cmp -s my.ini "$top_srcdir/examples/a100-2x-regs.ini" ||
        fail "$c: --config my.ini was overwritten"
done
# --gpu given a preset's file is an input too; a preset's name is not.
for c in "run --kernel vecadd --size 64" "trace gen --kernel vecadd --size 64" \
         "occupancy --threads 128 --regs 32"; do
    # shellcheck disable=SC2086
    expect_fail 1 "$SMSIM" $c --gpu ./my.ini -o my.ini
    contains "$work/err" "--gpu ./my.ini and -o my.ini are the same file"
    cmp -s my.ini "$top_srcdir/examples/a100-2x-regs.ini" ||
        fail "$c: --gpu ./my.ini was overwritten"
done
# The files of the preset's base= chain are its inputs too: a report
# written over the base= of --config replaced it, exit 0.
printf '[preset]\nbase = my.ini\n' >top.ini
for c in "run --kernel vecadd --size 64" "trace gen --kernel vecadd --size 64" \
         "trace replay t.trace" "occupancy --threads 128 --regs 32" \
         "sweep --mode occupancy --vary threads=128 --vary regs=32" validate; do
    # shellcheck disable=SC2086
    expect_fail 1 "$SMSIM" $c --config top.ini -o my.ini
    contains "$work/err" "/my.ini and -o my.ini are the same file"
    cmp -s my.ini "$top_srcdir/examples/a100-2x-regs.ini" ||
        fail "$c: my.ini, the base= of --config top.ini, was overwritten"
done
expect_fail 1 "$SMSIM" plot occupancy --config top.ini --data my.ini -o o.png
contains "$work/err" "/my.ini and --data my.ini are the same file"
cmp -s my.ini "$top_srcdir/examples/a100-2x-regs.ini" ||
    fail "plot: my.ini, the base= of --config top.ini, was overwritten"
[ ! -e o.png ] || fail "plot: o.png drawn all the same"
# ... and the journal of a sweep, as its CSV.
cp my.ini j.journal
printf '[preset]\nbase = ./j.journal\n' >topj.ini
expect_fail 1 "$SMSIM" sweep --mode occupancy --vary threads=128 --vary regs=32 \
    --config topj.ini -o j
contains "$work/err" "/j.journal and the journal (-o FILE.journal) j.journal are the same file"
[ ! -e j ] || fail "sweep -o j written all the same"
cmp -s j.journal "$top_srcdir/examples/a100-2x-regs.ini" ||
    fail "sweep: j.journal, the base= of --config topj.ini, was overwritten"
# plot: the figure's CSV, or a figure of plot all, over the preset.
expect_fail 1 "$SMSIM" plot occupancy --config my.ini --data my.ini -o o.png
contains "$work/err" "--config and --data both name my.ini"
expect_fail 1 "$SMSIM" plot occupancy --gpu ./my.ini --data my.ini -o o.png
contains "$work/err" "--gpu ./my.ini and --data my.ini are the same file"
cmp -s my.ini "$top_srcdir/examples/a100-2x-regs.ini" ||
    fail "plot: my.ini was overwritten"
[ ! -e o.png ] || fail "plot: o.png drawn all the same"
mkdir pf
cp my.ini pf/occupancy.csv
expect_fail 1 "$SMSIM" plot all -o pf --config pf/occupancy.csv
contains "$work/err" "--config and the CSV of figure occupancy (in pf) both name pf/occupancy.csv"
[ "$(ls pf)" = occupancy.csv ] || fail "plot all wrote: $(ls pf)"
"$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 -o a100 ||
    fail "-o a100 refused beside --gpu a100, a preset's name"
contains a100 "blocks"
echo "output clashes ok"
