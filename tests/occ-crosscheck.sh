#!/bin/sh
# Cross-check smsim's occupancy against NVIDIA's cuda_occupancy.h, where
# a CUDA toolkit is installed (never required: skipped otherwise).
. "${top_srcdir:-.}/tests/cli/setup"

header=
for dir in "${CUDA_HOME:-}" /usr/local/cuda /usr/cuda /opt/cuda; do
    if [ -n "$dir" ] && [ -f "$dir/include/cuda_occupancy.h" ]; then
        header=$dir/include
        break
    fi
done
if [ -z "$header" ]; then
    echo "SKIP: no cuda_occupancy.h (no CUDA toolkit); nothing to compare with"
    exit 77
fi

# shellcheck disable=SC2046
$CC -std=gnu11 -O1 -I"$header" -I"$top_srcdir/src" -I"$top_srcdir" -I. \
    $(pkg-config --cflags glib-2.0) -o "$work/crosscheck" \
    "$top_srcdir/tests/occ-crosscheck.c" "$LIBSMSIM" \
    $(pkg-config --libs json-glib-1.0 gio-unix-2.0 glib-2.0) ${LINK_FLAGS:-} -lm
"$work/crosscheck"
