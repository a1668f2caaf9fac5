#!/bin/sh
# Impossible launches and bad input: a one-line error and a non-zero
# exit, never a crash, and no partial output file.
. "${top_srcdir:-.}/tests/cli/setup"

expect_fail 2 "$SMSIM" occupancy --gpu a100 --threads 2000 --regs 32
contains "$work/err" "2000 threads"
contains "$work/err" "1024"
[ "$(wc -l <"$work/err")" -eq 1 ] || fail "more than one line: $(cat "$work/err")"
[ ! -s "$work/out" ] || fail "output on an error"

expect_fail 2 "$SMSIM" occupancy --gpu a100 --threads 1025 --regs 32
expect_fail 2 "$SMSIM" occupancy --gpu a100 --threads 0 --regs 32
expect_fail 2 "$SMSIM" occupancy --gpu a100 --threads 512 --regs 255
contains "$work/err" "131072"
expect_fail 1 "$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 --smem -1
contains "$work/err" "--smem -1: must not be negative"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 --dyn-smem 200000
contains "$work/err" "166912"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 --smem 50000
contains "$work/err" "statically"
# A request too large to add to the static amount is refused, not
# wrapped into a negative size that fits (it showed 100 %).
expect_fail 2 "$SMSIM" occupancy --gpu a100 --threads 256 --regs 32 --smem 49152 --dyn-smem 9223372036854775807
contains "$work/err" "9223372036854775807 B dynamic of shared memory per block cannot launch"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 --carveout 150
contains "$work/err" "--carveout 150: must be 0..100"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 --carveout -7
contains "$work/err" "--carveout -7: must be 0..100"
expect_fail 2 "$SMSIM" occupancy --gpu k40 --threads 128 --regs 32 --dyn-smem 49153
# A carveout preference on a GPU without one is shown as ignored, and
# not explained as raised by the driver.
"$SMSIM" occupancy --gpu k40 --threads 128 --regs 32 --smem 40000 --carveout 10 >"$work/k40" ||
    fail "k40 with --carveout"
contains "$work/k40" "carveout 10 % (ignored: the k40 preset has no carveout)"
grep -q "driver raises" "$work/k40" && fail "k40: carveout explained as raised"
# A limit a --set may have moved is named by its key, as the preset
# rules name theirs.
expect_fail 2 "$SMSIM" occupancy --gpu a100 --set sm.max_threads_per_block=512 --threads 1024 --regs 32
contains "$work/err" "at most 512 threads per block (sm.max_threads_per_block)"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --set alloc.max_regs_per_thread=64 --threads 128 --regs 65
contains "$work/err" "at most 64 per thread (alloc.max_regs_per_thread)"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --set sm.max_regs_per_block=32768 --threads 1024 --regs 64
contains "$work/err" "a100 allows 32768 per block (sm.max_regs_per_block)"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --set sm.smem_per_block=1024 --threads 128 --regs 32 --smem 1025
contains "$work/err" "at most 1024 B statically on a100 (sm.smem_per_block)"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --set sm.smem_per_block_optin=65536 --threads 128 --regs 32 --dyn-smem 65537
contains "$work/err" "at most 65536 B per block (with opt-in: sm.smem_per_block_optin)"
expect_fail 2 "$SMSIM" occupancy --gpu nosuch --threads 128 --regs 32
contains "$work/err" "unknown GPU 'nosuch'"

# Usage errors exit 1.
expect_fail 1 "$SMSIM" occupancy --gpu a100 --threads 128
contains "$work/err" "--regs"
expect_fail 1 "$SMSIM" occupancy --gpu a100 --threads abc --regs 32
expect_fail 1 "$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 --format xml
expect_fail 1 "$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 extra

# A malformed user preset: file, line, key, value, range.
printf '[preset]\nbase = a100\n[sm]\nmax_threads = 2000000\n' >"$work/bad.ini"
expect_fail 2 "$SMSIM" occupancy --config "$work/bad.ini" --threads 128 --regs 32
contains "$work/err" "bad.ini:4: [sm] max_threads = 2000000: must be 32..8192"
printf '[preset]\nbase = a100\n[sm\n' >"$work/trunc.ini"
expect_fail 2 "$SMSIM" occupancy --config "$work/trunc.ini" --threads 128 --regs 32
contains "$work/err" "trunc.ini:3:"
# A key with a locale suffix (GKeyFile's translations, which it dropped
# unless they were of the user's language) is an unknown key, named as
# written with its line.
printf '[preset]\nbase = a100\n[sm]\nregisters[de] = abc\nfoo[x] = 1\n[bogus]\nx[y]=1\n' >"$work/locale.ini"
expect_fail 2 "$SMSIM" occupancy --config "$work/locale.ini" --threads 256 --regs 32
contains "$work/err" "locale.ini:4: unknown key [sm] registers[de]"
# The same in German, where GKeyFile did keep them.
(LANGUAGE=de && export LANGUAGE &&
 expect_fail 2 "$SMSIM" occupancy --config "$work/locale.ini" --threads 256 --regs 32)
contains "$work/err" "locale.ini:4: unknown key [sm] registers[de]"
printf '[preset]\nbase = a100\n[bogus]\n' >"$work/group.ini"
expect_fail 2 "$SMSIM" occupancy --config "$work/group.ini" --threads 256 --regs 32
contains "$work/err" "group.ini:3: unknown group [bogus]"

# --config always names a file, whatever it is called (it was looked up
# as a GPU when it had no .ini and no '/'), and says why it cannot be
# read.
cp "$top_srcdir/examples/a100-2x-regs.ini" "$work/myconf"
mkdir "$work/adir"
(cd "$work" && "$SMSIM" occupancy --config myconf --threads 1024 --regs 64) >"$work/myconf.out"
contains "$work/myconf.out" "Occupancy on myconf"
contains "$work/myconf.out" "Active blocks per SM:   2"    # its 128 K registers
(cd "$work" && expect_fail 2 "$SMSIM" occupancy --config adir --threads 128 --regs 32)
contains "$work/err" "--config adir: a directory, not a preset file"
(cd "$work" && expect_fail 2 "$SMSIM" occupancy --config a100 --threads 128 --regs 32)
contains "$work/err" "--config a100: No such file or directory"
# Input read whole must be a regular file: a device such as /dev/zero
# never ends and was read until memory ran out (here /dev/null, a
# device too, that ends at once).  Each reader of a whole file: a
# preset (--config, --gpu, base =), --batch, --points, --merge,
# plot --from, and a sweep's journal.
printf '[preset]\nbase = /dev/null\n' >"$work/based.ini"
for cmd in "query --config /dev/null" "query --gpu /dev/null" \
           "query --config $work/based.ini" \
           "occupancy --gpu a100 --batch /dev/null" \
           "sweep --gpu a100 --mode occupancy --points /dev/null" \
           "sweep --merge /dev/null /dev/null" \
           "plot sgemm-validation --from /dev/null -o $work/v.png"; do
    # shellcheck disable=SC2086
    expect_fail 2 "$SMSIM" $cmd
    contains "$work/err" "/dev/null: a character device; give a regular file"
done
ln -s /dev/null "$work/r.csv.journal"
expect_fail 2 "$SMSIM" sweep --gpu a100 --mode occupancy --vary threads=64 \
    --vary regs=32 -o "$work/r.csv" --resume
contains "$work/err" "r.csv.journal: a character device; give a regular file"

# An output file that cannot be written leaves nothing behind.
expect_fail 2 "$SMSIM" occupancy --gpu a100 --threads 128 --regs 32 -o "$work/no/such/dir/x.csv"
[ ! -e "$work/no" ] || fail "partial output"
# ... said of -o, as the other commands say it, not of the temporary
# file the write would have made.
contains "$work/err" "-o $work/no/such/dir/x.csv: no directory $work/no/such/dir to write it in"
expect_fail 2 "$SMSIM" occupancy --gpu a100 --batch /dev/null -o "$work"
contains "$work/err" "-o $work: a directory, not a file"
echo "occupancy errors ok"
