#!/bin/sh
# Set up a fresh Debian 12 machine and build smsim: install the Debian
# packages it needs (as root, or through sudo), then configure and make.
# Extra arguments go to ./configure (e.g. --enable-asan --enable-ubsan).
set -eu
cd "$(dirname "$0")/.."

packages="build-essential autoconf automake pkg-config libglib2.0-dev
libjson-glib-dev libcriterion-dev gnuplot-nox"

missing=
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    as_root=
    [ "$(id -u)" -eq 0 ] || as_root=sudo
    echo "Installing:$missing"
    $as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq $missing
fi

[ -x configure ] || autoreconf -fi
if [ ! -f Makefile ] || [ "$#" -gt 0 ]; then
    ./configure "$@"
fi
make -j"$(nproc)"
