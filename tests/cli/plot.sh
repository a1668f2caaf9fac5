#!/bin/sh
# `smsim plot`: the list, a figure drawn in each format with nothing on
# gnuplot's standard error, the CSV written even without gnuplot, the
# validation figure from a validate table, and the errors.
. "${top_srcdir:-.}/tests/cli/setup"

"$SMSIM" plot --list >"$work/list"
for name in occupancy occupancy-cliff latency-hiding coalescing \
            bank-conflicts sgemm-validation roofline stall-breakdown \
            timeline tiling what-if; do
    grep -q " $name " "$work/list" || fail "--list lacks $name"
done

# Without gnuplot: a clear message, exit 2, and the CSV all the same.
expect_fail 2 env PATH=/nonexistent "$SMSIM" plot coalescing -o "$work/c.png"
contains "$work/err" "gnuplot"
contains "$work/err" "$work/c.csv"
[ -f "$work/c.png" ] && fail "a figure without gnuplot"
# stride 2: 8 sectors, 50 % (test-fig.c derives them).
contains "$work/c.csv" "stride 2,8,2,128,256,50.00"

# A validate table (hand-made, the columns `smsim validate --format csv`
# writes) instead of running the validation.
cat >"$work/v.csv" <<'CSV'
gpu,kernel,size,simulated_gflops,reference_gflops,error_pct,source
a6000,sgemm-1,4096,291.2,309.0,-5.76,"a source, quoted"
a6000,sgemm-11,4096,,17278.3,,"not modelled"
a100,sgemm-2,4096,4933.3,3119.0,58.17,x
CSV
if command -v gnuplot >/dev/null 2>&1; then
    for ext in png pdf svg; do
        "$SMSIM" plot bank-conflicts -o "$work/b.$ext" 2>"$work/gp-err"
        [ -s "$work/b.$ext" ] || fail "no b.$ext"
        [ -s "$work/gp-err" ] && fail "gnuplot said: $(cat "$work/gp-err")"
        [ -f "$work/b.csv" ] || fail "no CSV beside b.$ext"
    done
    head -c 4 "$work/b.png" | grep -q PNG || fail "b.png is not a PNG"
    head -c 4 "$work/b.pdf" | grep -q PDF || fail "b.pdf is not a PDF"
    grep -q "<svg" "$work/b.svg" || fail "b.svg is not SVG"
    "$SMSIM" plot 6 --from "$work/v.csv" -o "$work/val.png" --data "$work/val.csv" 2>"$work/gp-err"
    [ -s "$work/gp-err" ] && fail "gnuplot said: $(cat "$work/gp-err")"
    [ -s "$work/val.png" ] || fail "no val.png"
    # cuBLAS is the published 23249.6 on the A6000.
    contains "$work/val.csv" "a6000,1,291.2,309.0,-5.76,23249.6,-6%"
    contains "$work/val.csv" "a6000,11,,17278.3,,23249.6,no model"

    # The README's figure commands (the quick ones), drawn here again.
    grep -E '^smsim plot (occupancy|occupancy-cliff|latency-hiding|coalescing|timeline) ' \
        "$top_srcdir/README.md" | sed "s|^smsim ||; s|docs/figures/|$work/|" \
        >"$work/readme-figs"
    [ "$(wc -l <"$work/readme-figs")" -eq 5 ] || fail "README figure commands: $(cat "$work/readme-figs")"
    while IFS= read -r args; do
        # shellcheck disable=SC2086
        eval "\"\$SMSIM\" $args" >/dev/null 2>"$work/gp-err" ||
            fail "README: smsim $args: $(cat "$work/gp-err")"
        [ -s "$work/gp-err" ] && fail "README: smsim $args said: $(cat "$work/gp-err")"
    done <"$work/readme-figs"
fi

expect_fail 1 "$SMSIM" plot
expect_fail 1 "$SMSIM" plot nosuch
contains "$work/err" "no figure 'nosuch'"
expect_fail 1 "$SMSIM" plot coalescing -o "$work/c.jpg"
contains "$work/err" "png, pdf or svg"
expect_fail 1 "$SMSIM" plot all --format gif
expect_fail 1 "$SMSIM" plot all --size 1024
expect_fail 1 "$SMSIM" plot occupancy --size 100
contains "$work/err" "figure occupancy does not take --size"
# Out of range is an error, not the figure's default.
expect_fail 1 "$SMSIM" plot timeline --size -5
contains "$work/err" "--size -5: give 1 or more"
expect_fail 1 "$SMSIM" plot occupancy --threads -3
contains "$work/err" "--threads -3: give 0 or more"
# At a size where some kernels' loops are too short to sample (sgemm-3
# at 64: 2 iterations), those run whole and the figure is drawn.
"$SMSIM" plot roofline --size 64 -o "$work/r64.png" >/dev/null ||
    fail "plot roofline --size 64 failed"
[ -s "$work/r64.csv" ] && grep -q "sgemm-3" "$work/r64.csv" ||
    fail "plot roofline --size 64 has no sgemm-3: $(cat "$work/r64.csv")"
# A kernel that cannot run at the figure's default size says so.
expect_fail 2 "$SMSIM" plot timeline --kernel sgemm-5 -o "$work/t.png"
contains "$work/err" "default size (give --size)"
expect_fail 1 "$SMSIM" plot coalescing --from "$work/v.csv"
expect_fail 1 "$SMSIM" plot 1 2
expect_fail 2 "$SMSIM" plot 6 --from "$work/none.csv"
contains "$work/err" "none.csv"
printf 'gpu,kernel,size,simulated_gflops,reference_gflops,error_pct,source\na6000,sgemm-1,4096,1,2,3,x\na6000,gemm-2,4096,1,2,3,x\n' >"$work/bad.csv"
expect_fail 2 "$SMSIM" plot 6 --from "$work/bad.csv"
contains "$work/err" "bad.csv:3: kernel = 'gemm-2'"
printf 'gpu,kernel,size\n' >"$work/short.csv"
expect_fail 2 "$SMSIM" plot 6 --from "$work/short.csv"
contains "$work/err" "no 'simulated_gflops' column"
expect_fail 2 "$SMSIM" plot coalescing --gpu k40 -o "$work/k.png"
contains "$work/err" "no sourced timing"
# all on such a GPU stops before the first figure, not after the two
# occupancy figures (which take any GPU) are drawn.
expect_fail 2 "$SMSIM" plot all --gpu k40 -o "$work/k40"
contains "$work/err" "figure latency-hiding simulates kernels"
[ -e "$work/k40" ] && fail "plot all --gpu k40 wrote $(ls "$work/k40")"
echo "plot ok"
