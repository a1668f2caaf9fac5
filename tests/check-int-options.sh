#!/bin/sh
# Every integer option of every command is in cli.c's integer_options,
# which refuses their values in C's octal or hex: one added without it
# would read --NAME 010 as 8 again.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$top_srcdir"
bad=0
names=$(sed -n 's/^ *{ "\([a-z-]*\)", .*, 0, G_OPTION_ARG_INT\(64\)\{0,1\},.*/\1/p' src/cli/*.c | sort -u)
[ -n "$names" ] || { echo "FAIL: no integer options found (pattern out of date?)"; exit 1; }
table=$(sed -n '/^} integer_options\[\] = {/,/^};/p' src/cli/cli.c)
for n in $names; do
    printf '%s\n' "$table" | grep -q "{ \"$n\"," || {
        echo "FAIL: --$n is an integer option missing from integer_options"; bad=1; }
done
[ $bad -eq 0 ] && echo "integer options listed: $(echo $names)"
exit $bad
