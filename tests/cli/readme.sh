#!/bin/sh
# Run every `$ smsim ...` example of README.md (jq runs its manual's
# examples): each must succeed, so the README stays true.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$top_srcdir"
n=0
grep -E '^    \$ smsim ' README.md | sed 's/^    \$ smsim //' >"$work/cmds"
while IFS= read -r args; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    if ! eval "\"\$SMSIM\" $args" >"$work/out" 2>"$work/err"; then
        fail "README example 'smsim $args' failed: $(cat "$work/err")"
    fi
done <"$work/cmds"
[ "$n" -ge 5 ] || fail "only $n README examples found"
echo "$n README examples ran"
