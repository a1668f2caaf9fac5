#!/bin/sh
# Interrupted while it writes, `trace gen` leaves nothing behind: not
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
