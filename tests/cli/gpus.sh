#!/bin/sh
# `smsim gpus` lists every preset DESIGN.md requires, with its compute
# capability and SM count; `smsim` itself explains its commands.
. "${top_srcdir:-.}/tests/cli/setup"

"$SMSIM" gpus >"$work/g"
for row in "k40 3.5 15" "p100 6.0 56" "v100 7.0 80" "t4 7.5 40" \
           "rtx2070 7.5 36" "a100 8.0 108" "a6000 8.6 84" "h100 9.0 132"; do
    set -- $row
    awk -v n="$1" -v cc="$2" -v sms="$3" \
        '$1 == n && $2 == cc && $3 == sms { found = 1 } END { exit !found }' \
        "$work/g" || fail "gpus lacks $row"
done

# Only a regular file NAME.ini is a preset, as --gpu NAME reads only
# those (textfile_read's rule): a link to a device, a directory or a
# dangling link in the preset directory is not listed (gpus listed
# "zero", then failed to load it), nor named among the presets, and
# does not hide a preset of that name further down the search path.
mkdir "$work/p"
ln -s /dev/zero "$work/p/zero.ini"
mkdir "$work/p/dir.ini"
ln -s "$work/p/none" "$work/p/dangling.ini"
ln -s /dev/null "$work/p/a100.ini"
printf '[preset]\nbase = t4\nname = mine\n' >"$work/p/mine.ini"
# A file that sets no name= is named as it was found (NAME.ini, as a
# path or --config is named by its stem), never by its base: it listed
# and ran as a second "a100".
cp "$top_srcdir/examples/a100-2x-regs.ini" "$work/p/"
SMSIM_PRESET_DIR="$work/p" "$SMSIM" gpus >"$work/g" 2>"$work/err" ||
    fail "gpus with non-presets in SMSIM_PRESET_DIR: $(cat "$work/err")"
[ ! -s "$work/err" ] || fail "gpus said: $(cat "$work/err")"
for n in zero dir dangling; do
    ! grep -q "^$n " "$work/g" || fail "gpus lists $n, which is no preset file"
done
grep -q '^mine ' "$work/g" || fail "gpus lacks the preset mine: $(cat "$work/g")"
grep -q '^a100 .* 108 ' "$work/g" || fail "a link to /dev/null hid the a100"
[ "$(grep -c '^a100 ' "$work/g")" -eq 1 ] || fail "two a100 rows: $(cat "$work/g")"
grep -q '^a100-2x-regs ' "$work/g" ||
    fail "gpus lacks the preset a100-2x-regs: $(cat "$work/g")"
# Its 12-character name widens the name column for every row, so each
# row's cc stands under the header's (a 10-wide column shifted its row).
awk 'NR == 1 { at = index($0, " cc ") + 1; next }
     substr($0, at - 1, 4) !~ /^ [0-9]\.[0-9]$/ { bad = 1 }
     END { exit bad }' "$work/g" || fail "gpus columns shifted: $(cat "$work/g")"
SMSIM_PRESET_DIR="$work/p" "$SMSIM" run --gpu a100-2x-regs --kernel vecadd \
    --size 4096 >"$work/run"
contains "$work/run" "vecadd on a100-2x-regs, size 4096"
SMSIM_PRESET_DIR="$work/p" expect_fail 2 "$SMSIM" query --gpu zero
contains "$work/err" "unknown GPU 'zero'"
presets=$(sed -n 's/.*(presets: \([^;]*\);.*/\1/p' "$work/err")
[ "$presets" = "a100, a100-2x-regs, a6000, h100, k40, mine, p100, rtx2070, t4, v100" ] ||
    fail "presets named: '$presets'"
# A file named otherwise than its name= is refused, not listed as the
# GPU it names (fast.ini listed as a second a100, run on the shipped one
# when its trace was replayed); the other presets are still listed.
mkdir "$work/q"
printf '[preset]\nbase = a100\nname = a100\n[device]\nsm_count = 8\n' \
    >"$work/q/fast.ini"
SMSIM_PRESET_DIR="$work/q" expect_fail 2 "$SMSIM" gpus
contains "$work/err" "fast.ini:3: [preset] name = a100: a preset is named as its file, fast"
[ "$(grep -c '^a100 ' "$work/out")" -eq 1 ] || fail "a100 listed $(grep -c '^a100 ' "$work/out") times"

"$SMSIM" --help >"$work/h"
for cmd in gpus query occupancy; do contains "$work/h" "  $cmd"; done
# The README's exit-status rule, as the help states it.
contains "$work/h" "Exit status: 0 success; 1 a bad command line"
"$SMSIM" occupancy --help >"$work/oh"
contains "$work/oh" "--threads"
contains "$work/oh" "Examples:"
"$SMSIM" occ --gpu a100 --threads 128 --regs 32 >/dev/null   # unique prefix
expect_fail 1 "$SMSIM" frobnicate
contains "$work/err" "unknown command 'frobnicate'"
expect_fail 1 "$SMSIM"
echo "gpus ok"
