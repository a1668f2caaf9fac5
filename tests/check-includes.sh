#!/bin/sh
# The include rules of STYLE.md section 8: src/sim knows nothing of the
# models or the CLI; the models know nothing of the CLI; the pure rule
# modules include no engine or stats headers.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$top_srcdir"
bad=0
for f in src/sim/*.[ch]; do
    [ -e "$f" ] || continue
    if grep -nE '#include "(models|cli)/' "$f"; then
        echo "FAIL: $f includes a models/ or cli/ header"; bad=1
    fi
done
for f in src/models/*.[ch]; do
    if grep -nE '#include "cli/' "$f"; then
        echo "FAIL: $f includes a cli/ header"; bad=1
    fi
done
for f in src/models/occ.c src/models/occ.h; do
    if grep -nE '#include "sim/(evq|stats)\.h"|<stdio\.h>' "$f"; then
        echo "FAIL: $f is a pure rule module: no engine, stats or I/O"; bad=1
    fi
done
# Only src/cli prints.
if grep -nE '\b(printf|fprintf|puts|g_print|g_printerr)\b *\(' src/sim/*.c src/models/*.c 2>/dev/null; then
    echo "FAIL: only src/cli writes to stdout or stderr"; bad=1
fi
[ $bad -eq 0 ] && echo "include rules hold"
exit $bad
