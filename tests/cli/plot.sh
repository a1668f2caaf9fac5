#!/bin/sh
# `smsim plot`: the list, a figure drawn in each format with nothing on
# gnuplot's standard error, the CSV written even without gnuplot, the
# validation figure from a validate table, and the errors.
. "${top_srcdir:-.}/tests/cli/setup"

"$SMSIM" plot --list >"$work/list"
"$SMSIM" plot --help >"$work/help"
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

# A gnuplot that exits 0 with the figure cut short, as the real one does
# on a full disk: refused, exit 2, the old figure left as it was.  The
# fake writes the first bytes of a PNG (no IEND chunk) to the outfile
# that smsim passes it in -e.
mkdir -p "$work/fakebin"
cat >"$work/fakebin/gnuplot" <<'SH'
#!/bin/sh
out=$(printf '%s\n' "$2" | tr ';' '\n' | sed -n "s/^outfile = '\(.*\)'\$/\1/p")
printf '\211PNG\r\n\032\n\0\0\0\rIHDR' >"$out"
SH
chmod +x "$work/fakebin/gnuplot"
echo OLD >"$work/cut.png"
expect_fail 2 env PATH="$work/fakebin:$PATH" "$SMSIM" plot coalescing -o "$work/cut.png"
contains "$work/err" "cut short"
[ "$(cat "$work/cut.png")" = OLD ] || fail "a cut figure replaced the old one"

# A validate table (hand-made, the columns `smsim validate --format csv`
# writes) instead of running the validation.
cat >"$work/v.csv" <<'CSV'
gpu,kernel,size,simulated_gflops,reference_gflops,error_pct,source
a6000,sgemm-1,4096,291.2,309.0,-5.76,"a source, quoted"
a6000,sgemm-11,4096,,17278.3,,"not modelled"
a100,sgemm-2,4096,4933.3,3119.0,58.17,x
a100,sgemm-1,4096,290.9,292.1,-0.41,x
a100,sgemm-3,4096,5043.0,5451.9,-7.50,x
CSV
# Each error_pct is 100 x (simulated - reference) / reference, by hand:
# -17.8 / 309 = -5.76 %; 1814.3 / 3119 = 58.17 %; -1.2 / 292.1 = -0.41 %;
# -408.9 / 5451.9 = -7.50 %.  Each reference_gflops is the published
# figure (src/models/ref.c).
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
    # cuBLAS is the published 23249.6 on the A6000, 19029.5 on the A100.
    # Each bar's label is its error to a tenth of a percent, with the
    # sign: -0.41 is not "+0%", -7.50 not "-8%".
    contains "$work/val.csv" "a6000,1,291.2,309.0,-5.76,23249.6,-5.8%"
    contains "$work/val.csv" "a6000,11,,17278.3,,23249.6,no model"
    contains "$work/val.csv" "a100,1,290.9,292.1,-0.41,19029.5,-0.4%"
    contains "$work/val.csv" "a100,3,5043.0,5451.9,-7.50,19029.5,-7.5%"
    contains "$work/val.csv" "a100,2,4933.3,3119.0,58.17,19029.5,+58.2%"

    # At 96 only sgemm-1..3 fit their tiles (32 x 32; sgemm-4's is 64 x
    # 64, sgemm-5..10's 128 x 128, sgemm-11's 128 x 256): the figure is
    # drawn with those three, and the eight left out are named on
    # standard error with why.
    "$SMSIM" plot roofline --size 96 -o "$work/r96.svg" >/dev/null \
        2>"$work/r96-err" || fail "plot roofline --size 96: $(cat "$work/r96-err")"
    [ "$(grep -c '^sgemm-' "$work/r96.csv")" -eq 3 ] ||
        fail "roofline at 96: $(cat "$work/r96.csv")"
    contains "$work/r96-err" "8 of the 11 SGEMM kernels cannot run at 96"
    for k in 4 5 6 7 8 9 10 11; do
        contains "$work/r96-err" "sgemm-$k: size 96 is not a multiple of the"
    done
    grep -q gnuplot "$work/r96-err" && fail "gnuplot said: $(cat "$work/r96-err")"
    # sgemm-3 at 96 has 3 iterations of its 32-wide K loop, too few to
    # sample (at least 4): it runs whole, so the title cannot say
    # "sampled" of them all.
    grep -q "simulated, sampled)" "$work/r96.svg" &&
        fail "roofline at 96 says all its runs were sampled"
    grep -q "simulated, partly sampled)\|simulated, exact)" "$work/r96.svg" ||
        fail "roofline at 96 does not say how it was simulated"
    # At 64 only sgemm-1..4 run: one panel holds them, drawn without a
    # word from gnuplot.
    "$SMSIM" plot stall-breakdown --size 64 -o "$work/s64.png" >/dev/null \
        2>"$work/s64-err" || fail "plot stall-breakdown --size 64: $(cat "$work/s64-err")"
    grep -q gnuplot "$work/s64-err" && fail "gnuplot said: $(cat "$work/s64-err")"
    [ -s "$work/s64.png" ] || fail "no s64.png"
    # The timeline puts the whole launch on one SM: PMPP's 32 x 32 in 16
    # x 16 tiles is 4 blocks of 256 threads.
    "$SMSIM" plot timeline -o "$work/t.svg" >/dev/null
    contains "$work/t.svg" "the launch's 4 blocks of 256 threads, all on one SM"
    contains "$work/t.svg" "pmpp-tiled, 32 x 32, the launch's"
    # 'other' is the six of stats.h's thirteen states not drawn apart
    # (dispatch_stall was grouped there but left out of the title).
    contains "$work/t.svg" "other = wait, math_pipe_throttle, lg_throttle, branch_resolving, dispatch_stall, no_instruction"
    # vecadd's --size is elements, not a matrix's side; 4096 of them
    # take well under a microsecond on the A6000, which '%.3f ms' wrote
    # as the what-if's '1 = 0.000 ms'.
    "$SMSIM" plot what-if --kernel vecadd --size 4096 -o "$work/wv.svg" >/dev/null
    contains "$work/wv.svg" "vecadd, --size 4096 on the"
    grep -q "4096 x 4096\|1 = 0.000 ms" "$work/wv.svg" &&
        fail "what-if of vecadd: $(grep -o 'vecadd, [^<]*' "$work/wv.svg")"
    # A design the kernel cannot launch on is a gap, named in the figure
    # and on standard error, not the end of the figure: sgemm-10 (180
    # registers, 4 warps a block) on a quarter of the A6000's registers
    # (16384 < 4 x 5888 a block) and on four times its schedulers (16 of
    # 4096 registers each < 5888 a warp).
    "$SMSIM" plot what-if --kernel sgemm-10 --size 128 -o "$work/w10.svg" \
        >/dev/null 2>"$work/w10.err" || fail "what-if of sgemm-10: $(cat "$work/w10.err")"
    contains "$work/w10.svg" "cannot launch: registers x1/4, schedulers x4"
    contains "$work/w10.csv" "registers,0.25,16384,,,"
    contains "$work/w10.csv" "schedulers,4,16,,,"
    contains "$work/w10.err" "schedulers x4: sgemm-10: not one block fits an SM"
    # The roofline example of --help runs, and at no more than the
    # figure's default size (1024), which draws in seconds (at 2048 on
    # the A100 it took half a minute).  Sizes, not seconds: a timed test
    # would fail on a slow or busy machine.
    grep -o 'smsim plot roofline [^&]*' "$work/help" | sed 's/^smsim //' \
        >"$work/help-roof"
    [ -s "$work/help-roof" ] || fail "no roofline example in plot --help"
    size=$(sed -n 's/.*--size \([0-9]*\).*/\1/p' "$work/help-roof")
    [ -n "$size" ] && [ "$size" -le 1024 ] ||
        fail "the help's example ($(cat "$work/help-roof")) is not at 1024 or less"
    (cd "$work" && eval "\"\$SMSIM\" $(cat help-roof)" >/dev/null \
        2>"$work/example-err") || fail "the help's example: $(cat "$work/example-err")"

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
# Out of range is an error, not the figure's default: a negative count
# malformed, 0 the model's to refuse.
expect_fail 1 "$SMSIM" plot timeline --size -5
contains "$work/err" "--size -5: must not be negative"
expect_fail 2 "$SMSIM" plot timeline --size 0
contains "$work/err" "size 0: must be positive"
expect_fail 1 "$SMSIM" plot occupancy --threads -3
contains "$work/err" "--threads -3: must not be negative"
# At a size where some kernels' loops are too short to sample (sgemm-3
# at 64: 2 iterations), those run whole and the figure is drawn.
"$SMSIM" plot roofline --size 64 -o "$work/r64.png" >/dev/null 2>"$work/r64-err" ||
    fail "plot roofline --size 64 failed: $(cat "$work/r64-err")"
[ -s "$work/r64.csv" ] && grep -q "sgemm-3" "$work/r64.csv" ||
    fail "plot roofline --size 64 has no sgemm-3: $(cat "$work/r64.csv")"
# sgemm-5..11's tiles are 128 or 256 wide: left out, and said so.
contains "$work/r64-err" "7 of the 11 SGEMM kernels cannot run at 64"
# The timeline makes one SM's caches, whatever device.sm_count says:
# 4096 SMs of 64 MiB L1s would be 32 GiB of tags, one of them 8 MiB.
"$SMSIM" plot timeline --set device.sm_count=4096 --set sm.l1_smem_kib=65536 \
    -o "$work/t4096.png" >/dev/null 2>"$work/t4096-err" ||
    fail "plot timeline on 4096 SMs refused: $(cat "$work/t4096-err")"
# A kernel that cannot run at the figure's default size says so.
expect_fail 2 "$SMSIM" plot timeline --kernel sgemm-5 -o "$work/t.png"
contains "$work/err" "default size (give --size)"
expect_fail 1 "$SMSIM" plot coalescing --from "$work/v.csv"
# Figure 6 is both GPUs' validation, on their own presets: --gpu and
# --config would be ignored, and --set too beside --from's table.
expect_fail 1 "$SMSIM" plot 6 --gpu a100 --from "$work/v.csv"
contains "$work/err" "figure sgemm-validation does not take --gpu"
expect_fail 1 "$SMSIM" plot 6 --config "$work/none.ini" --from "$work/v.csv"
contains "$work/err" "does not take --config"
expect_fail 1 "$SMSIM" plot 6 --set sm.registers=65536 --from "$work/v.csv"
contains "$work/err" "--set would change nothing"
# plot all checks every preset before it draws: figure 6's A100 too.
# 128 KiB of unified L1/shared memory suits the A6000 (its own) but
# cannot hold the A100's 164 KiB of shared memory.
expect_fail 2 "$SMSIM" plot all --set sm.l1_smem_kib=128 -o "$work/all-l1"
contains "$work/err" "a100.ini"
[ ! -e "$work/all-l1" ] || fail "plot all drew before refusing: $(ls "$work/all-l1")"
"$SMSIM" plot --list >"$work/list"
contains "$work/list" "runs a6000 and a100; takes --from"
expect_fail 1 "$SMSIM" plot 1 2
expect_fail 2 "$SMSIM" plot 6 --from "$work/none.csv"
contains "$work/err" "none.csv"
# (154.5 - 309) / 309 = -50 %.
printf 'gpu,kernel,size,simulated_gflops,reference_gflops,error_pct,source\na6000,sgemm-1,4096,154.5,309.0,-50,x\na6000,gemm-2,4096,154.5,309.0,-50,x\n' >"$work/bad.csv"
expect_fail 2 "$SMSIM" plot 6 --from "$work/bad.csv"
contains "$work/err" "bad.csv:3: kernel = 'gemm-2'"
printf 'gpu,kernel,size\n' >"$work/short.csv"
expect_fail 2 "$SMSIM" plot 6 --from "$work/short.csv"
contains "$work/err" "no 'simulated_gflops' column"
# A repeated kernel, or an error_pct its GFLOP/s columns do not give
# (-408.9 / 5451.9 is -7.50 %, not +90), is refused naming the line.
{ cat "$work/v.csv"; echo 'a100,sgemm-2,4096,4933.3,3119.0,58.17,again'; } >"$work/dup.csv"
expect_fail 2 "$SMSIM" plot 6 --from "$work/dup.csv"
contains "$work/err" "dup.csv:7: a100 sgemm-2 again (first on line 4)"
sed 's/5043.0,5451.9,-7.50/5043.0,5451.9,+90/' "$work/v.csv" >"$work/contra.csv"
expect_fail 2 "$SMSIM" plot 6 --from "$work/contra.csv"
contains "$work/err" "contra.csv:6: error_pct = +90, but simulated_gflops = 5043.0 and reference_gflops = 5451.9 give -7.50"
# A table cut inside a row (here before the line break of line 4,
# whose source may have run on) lost the rows after it and shows no
# other sign: its last line lacks the line break validate always writes.
head -n 4 "$work/v.csv" | head -c -1 >"$work/cut.csv"
expect_fail 2 "$SMSIM" plot 6 --from "$work/cut.csv" -o "$work/cut-fig.png"
contains "$work/err" "cut.csv:4: the last line has no line break"
[ ! -e "$work/cut-fig.png" ] || fail "cut.csv: a figure drawn from a cut table"
# A row the figure would not draw as it stands: another GPU or a kernel
# with no published figure vanished from it, another size was drawn
# under "at 4096".  Refused, naming the line.
# refused_table NAME SED MESSAGE: v.csv edited by SED, as NAME.csv, is
# refused with MESSAGE, and no figure drawn.
refused_table() {
    sed "$2" "$work/v.csv" >"$work/$1.csv"
    expect_fail 2 "$SMSIM" plot 6 --from "$work/$1.csv" -o "$work/$1-fig.png"
    contains "$work/err" "$3"
    [ ! -e "$work/$1-fig.png" ] || fail "$1.csv: a figure drawn from a refused table"
}
refused_table gpu 's/^a100,sgemm-3,4096/h100,sgemm-3,4096/' \
    "gpu.csv:6: h100 sgemm-3: no published figure"
refused_table k12 's/^a100,sgemm-3,4096/a100,sgemm-12,4096/' \
    "k12.csv:6: a100 sgemm-12: no published figure"
refused_table s256 's/^a100,sgemm-3,4096/a100,sgemm-3,256/' \
    "s256.csv:6: size = '256', but the published a100 sgemm-3 figure"
# An error without its figure: the row was drawn as unmodelled, its
# error_pct dropped without a word (the other way round was refused).
refused_table noerrfig 's/^a100,sgemm-3,4096,5043.0,5451.9,-7.50/a100,sgemm-3,4096,,5451.9,-7.50/' \
    "noerrfig.csv:6: simulated_gflops is empty but error_pct is not"
refused_table nofigerr 's/^a100,sgemm-3,4096,5043.0,5451.9,-7.50/a100,sgemm-3,4096,5043.0,5451.9,/' \
    "nofigerr.csv:6: error_pct is empty but simulated_gflops is not"
# A NUL byte ended its line as a C string, and the rows after it were
# dropped from the figure without a word.
refused_table nul '5s/^/\x00/' "nul.csv:5: a NUL byte: a validation CSV is text"
# Its numbers are decimal, as validate writes them (and as the rounding
# check reads them): C's hex float is refused, not read as 5043.
refused_table hex 's/5043.0,5451.9,-7.50/0x1.3b3p12,5451.9,-7.50/' \
    "hex.csv:6: simulated_gflops = '0x1.3b3p12': not a number in decimal"
# The reference is the published figure: a row of the A6000's
# relabelled as the A100's (its own error_pct, so consistent) was drawn
# as the A100's published figure.
refused_table relabel '/^a100,sgemm-1,/d; s/^a6000,sgemm-1,4096,/a100,sgemm-1,4096,/' \
    "relabel.csv:2: reference_gflops = 309.0, but the published a100 sgemm-1 figure is 292.1"
# ... or a reference edited with its error (1933.3 / 3000 = 64.44 %).
refused_table ref 's/,4933.3,3119.0,58.17,/,4933.3,3000.0,64.44,/' \
    "ref.csv:4: reference_gflops = 3000.0, but the published a100 sgemm-2 figure is 3119.0"
# A column named twice: which one the figure drew was left to chance.
refused_table twice '1s/$/,gpu/; 2,$s/$/,a100/' \
    "twice.csv:1: the header names 'gpu' twice (fields 1 and 8)"
# No SGEMM kernel runs at a size past every grid: an error saying why
# (sgemm-1's reason) and which sizes run them all, the multiples of
# every tile and BK: lcm(32, 64, 128, 256, 16) = 256.
expect_fail 2 "$SMSIM" plot roofline --size 100000000000 -o "$work/none.png"
contains "$work/err" "no SGEMM kernel runs at size"
contains "$work/err" "all run at multiples of 256"
contains "$work/err" "sgemm-1: size 100000000000: grid"
contains "$work/err" "smsim plot: roofline: no SGEMM"
grep -q "figure roofline" "$work/err" && fail "the figure named twice"
# At 128 only sgemm-11's 128 x 256 tile does not fit: one kernel "is".
"$SMSIM" plot stall-breakdown --size 128 -o "$work/sb128.png" 2>"$work/err" ||
    fail "plot stall-breakdown --size 128: $(cat "$work/err")"
contains "$work/err" "1 of the 11 SGEMM kernels cannot run at 128 and is left out"
# At 100 only kernels 1 and 2, which check their bounds, run: the
# other 9 are named, with their reason.
for fig in roofline stall-breakdown; do
    "$SMSIM" plot $fig --size 100 -o "$work/some-$fig.png" 2>"$work/err" ||
        fail "plot $fig --size 100 drew nothing: $(cat "$work/err")"
    contains "$work/err" "9 of the 11 SGEMM kernels cannot run at 100"
    contains "$work/err" "sgemm-3: size 100 is not a multiple of the 32x32 tile"
done
expect_fail 2 "$SMSIM" plot coalescing --gpu k40 -o "$work/k.png"
contains "$work/err" "no sourced timing"
# all on such a GPU stops before the first figure, not after the two
# occupancy figures (which take any GPU) are drawn.
expect_fail 2 "$SMSIM" plot all --gpu k40 -o "$work/k40"
contains "$work/err" "figure latency-hiding simulates kernels"
[ -e "$work/k40" ] && fail "plot all --gpu k40 wrote $(ls "$work/k40")"
# gnuplot takes file names on one line: a line break in -o is refused
# before any work (the figure went to a name with a space instead, and
# stayed behind as a hidden file); and a name starting with '$', which
# gnuplot reads as a datablock's, is drawn all the same.
mkdir "$work/names"
expect_fail 1 "$SMSIM" plot occupancy -o "$work/names/new
line.png"
contains "$work/err" "-o: a file name with a line break"
[ -z "$(ls -A "$work/names")" ] || fail "plot left $(ls -A "$work/names")"
(cd "$work/names" && "$SMSIM" plot occupancy -o '$fig.png' >/dev/null) ||
    fail "plot -o '\$fig.png' failed"
[ -s "$work/names/\$fig.png" ] || fail "no \$fig.png drawn"
echo "plot ok"
