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
