#!/bin/sh
# The training run of `make pgo`: launches that take smsim through the
# paths `validate` and `run` spend their time in -- the issue loop, the
# coalescer, L1 and L2 lookups, mirrored SMs, back-to-back launches,
# sampled and exact runs, shared-memory banks -- on other GPUs and
# sizes than validate's (A6000 and A100 at 4096), so the profile is not
# the benchmark's.  About 13 s with the instrumented build on a 2.3 GHz
# Xeon.  Usage: pgo-train.sh SMSIM
set -eu
S=$1

run() {
    "$S" run "$@" >/dev/null
}

# The naive kernels: uncoalesced and broadcast loads, mostly the L1.
run --gpu v100 --kernel sgemm-1 --size 1024 --sampled
run --gpu t4 --kernel sgemm-2 --size 1024 --sampled
# The tiled ones: shared memory, the FP32 pipes, the register ports.
for k in 3 4 5 6 7 8 9 10 11; do
    run --gpu h100 --kernel "sgemm-$k" --size 1024 --sampled
done
run --gpu h100 --kernel sgemm-6 --size 1024 --launches 3
run --gpu v100 --kernel pmpp-tiled --size 1024
# Sampled by waves, DRAM-bound.
run --gpu t4 --kernel vecadd --size 1048576
