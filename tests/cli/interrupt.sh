#!/bin/sh
# Interrupted while it writes, smsim leaves nothing behind.  `trace gen`:
# not
# the trace (written whole or not at all) and not its temporary file
# either, and it dies of the signal (status 128 + 15).  SIGTERM, not
# SIGINT: a non-interactive shell starts a background job with SIGINT
# ignored, and smsim leaves an ignored signal ignored.
. "${top_srcdir:-.}/tests/cli/setup"
cd "$work"
mkdir out

# sgemm-1 at 1024 is gigabytes of trace: it is still writing when killed.
"$SMSIM" trace gen --kernel sgemm-1 --size 1024 -o out/big.trace.gz \
    >/dev/null 2>"$work/err" &
pid=$!
i=0
while [ -z "$(ls out)" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
seen=$(ls out)
kill -TERM $pid
set +e
wait $pid
status=$?
set -e
case $seen in
big.trace.gz.??????) ;;
*) fail "no temporary file beside the trace while it was written: '$seen'" ;;
esac
[ $status -eq 143 ] || fail "trace gen killed with SIGTERM exited $status, not 143"
[ -z "$(ls -A out)" ] || fail "left behind: $(ls -A out)"

# `plot`: gnuplot draws into a temporary file beside the figure, and
# must not make it again once smsim, killed, has removed it: it dies
# with smsim.  A gnuplot that waits a second before it starts shows it.
command -v gnuplot >/dev/null 2>&1 || exit 0
mkdir bin fig
printf '#!/bin/sh\nsleep 1\nexec %s "$@"\n' "$(command -v gnuplot)" >bin/gnuplot
chmod +x bin/gnuplot
PATH="$work/bin:$PATH" "$SMSIM" plot bank-conflicts -o fig/b.png >/dev/null 2>&1 &
pid=$!
i=0
while ! ls -A fig | grep -q '^\.b\.png\.' && [ $i -lt 200 ]; do
    sleep 0.05
    i=$((i + 1))
done
seen=$(ls -A fig | grep '^\.b\.png\.' || true)
kill -TERM $pid
set +e
wait $pid
status=$?
set -e
[ -n "$seen" ] || fail "no temporary figure seen while gnuplot ran"
[ $status -eq 143 ] || fail "plot killed with SIGTERM exited $status, not 143"
sleep 1.5
[ -z "$(ls -A fig | grep -v '^b\.csv$')" ] || fail "left behind: $(ls -A fig)"
