#!/bin/sh
# One prefix per module (STYLE.md convention 1): every symbol an object
# file of libsmsim.a exports starts with its file's prefix (occ.c ->
# occ_, cmd-query.c -> cmd_query_ ...).  The files of a family (kern_*,
# trace_*, fig_*, sweep_*, run_*, preset_*: one module split by concern)
# share the family's prefix: kern_micro.c exports kern_*.
. "${top_srcdir:-.}/tests/cli/setup"
[ -f "$LIBSMSIM" ] || fail "no $LIBSMSIM"
nm -g --defined-only "$LIBSMSIM" | awk '
    /:$/ { obj = $0; sub(/:$/, "", obj);
           name = obj; sub(/\.o$/, "", name); gsub(/-/, "_", name);
           prefix = name "_"; family = prefix; first = name;
           sub(/_.*/, "", first);
           if (name ~ /_/ && first ~ /^(kern|trace|fig|sweep|run|preset)$/)
               family = first "_";
           full = obj; next }
    NF == 3 && $3 !~ /^_/ {
        sym = $3
        if (index(sym, prefix) != 1 && index(sym, family) != 1) {
            print "FAIL: " full " exports " sym " (expected prefix " prefix ")"
            bad = 1
        }
    }
    END { exit bad }' || exit 1
echo "every exported symbol carries its module prefix"
