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
echo "output clashes ok"
