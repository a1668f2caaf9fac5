#!/bin/sh
# regs.sh -- register and static shared memory use of every kernel smsim
# models, from ptxas -v, written to registers.csv.
#
# Compile only (no GPU needed):
#   nvcc -O3 -std=c++17 -Xptxas -v -arch=sm_XX -cubin instances.cu
# for sm_75 (T4, RTX 2070), sm_80 (A100), sm_86 (A6000) and sm_90 (H100)
# (CUDA 13 cannot compile for sm_70 or older).  instances.cu holds one
# instantiation per kernel and parameter set; both parameter sets of
# kernels 9-11 are compiled for every architecture (the article ran the
# "a6000" set on the A6000 and the "a100" set on the A100).
#
# Output columns: kernel,params,arch,registers,static_smem_bytes,spill_bytes,nvcc_version
#   spill_bytes = spill stores + spill loads reported by ptxas; the script
#   fails if any kernel spills or uses a stack frame.
# The cubins and ptxas logs are kept in build/ (sassmix.py reads the cubins).
#
# Environment: NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc),
#              ARCHS (default "sm_75 sm_80 sm_86 sm_90"), OUT (default registers.csv).
# Where nvcc is absent the script changes nothing: the recorded numbers stand.
set -eu
cd "$(dirname "$0")"

if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
    if command -v nvcc >/dev/null 2>&1; then
        NVCC=nvcc
    elif [ -x /usr/local/cuda/bin/nvcc ]; then
        NVCC=/usr/local/cuda/bin/nvcc
    else
        echo "regs.sh: nvcc not found; registers.csv left as it is" >&2
        exit 0
    fi
fi
ARCHS=${ARCHS:-"sm_75 sm_80 sm_86 sm_90"}
OUT=${OUT:-registers.csv}

version=$("$NVCC" --version | sed -n 's/.*release [0-9.]*, V\([0-9.]*\).*/\1/p')
[ -n "$version" ] || { echo "regs.sh: cannot read the nvcc version" >&2; exit 1; }

# mangled entry name -> kernel id, params (the order of registers.csv)
cat > build.map.tmp <<'EOF'
_Z6vecaddPKfS0_Pfi vecadd default
_Z10pmpp_tiledILi8EEvPKfS1_Pfi pmpp-tiled TILE_WIDTH=8
_Z10pmpp_tiledILi16EEvPKfS1_Pfi pmpp-tiled TILE_WIDTH=16
_Z10pmpp_tiledILi32EEvPKfS1_Pfi pmpp-tiled TILE_WIDTH=32
_Z14pmpp_tiled_dynPKfS0_Pfijj pmpp-tiled-dyn dynamic
_Z6sgemm1iiifPKfS0_fPf sgemm-1 default
_Z6sgemm2ILi32EEviiifPKfS1_fPf sgemm-2 default
_Z6sgemm3ILi32EEviiifPKfS1_fPf sgemm-3 default
_Z6sgemm4ILi64ELi64ELi8ELi8EEviiifPKfS1_fPf sgemm-4 default
_Z6sgemm5ILi128ELi128ELi8ELi8ELi8EEviiifPKfS1_fPf sgemm-5 default
_Z6sgemm6ILi128ELi128ELi8ELi8ELi8EEviiifPKfS1_fPf sgemm-6 default
_Z6sgemm7ILi128ELi128ELi8ELi8ELi8EEviiifPKfS1_fPf sgemm-7 default
_Z6sgemm8ILi128ELi128ELi8ELi8ELi8ELi5EEviiifPKfS1_fPf sgemm-8 default
_Z6sgemm9ILi128ELi128ELi16ELi8ELi8EEviiifPKfS1_fPf sgemm-9 a6000
_Z6sgemm9ILi64ELi64ELi16ELi4ELi4EEviiifPKfS1_fPf sgemm-9 a100
_Z7sgemm10ILi128ELi128ELi16ELi64ELi64ELi4ELi8ELi4ELi128EEviiifPKfS1_fPf sgemm-10 a6000
_Z7sgemm10ILi64ELi128ELi16ELi32ELi64ELi1ELi4ELi4ELi128EEviiifPKfS1_fPf sgemm-10 a100
_Z7sgemm11ILi128ELi256ELi16ELi128ELi32ELi1ELi8ELi8ELi256EEviiifPKfS1_fPf sgemm-11 a6000
_Z7sgemm11ILi64ELi128ELi16ELi32ELi32ELi2ELi4ELi4ELi256EEviiifPKfS1_fPf sgemm-11 a100
EOF
mkdir -p build
mv build.map.tmp build/kernels.map

for arch in $ARCHS; do
    echo "regs.sh: $NVCC -O3 -std=c++17 -Xptxas -v -arch=$arch -cubin instances.cu" >&2
    if ! "$NVCC" -O3 -std=c++17 -Xptxas -v -arch="$arch" -cubin \
            -o "build/instances_$arch.cubin" instances.cu 2> "build/ptxas_$arch.log"; then
        cat "build/ptxas_$arch.log" >&2
        exit 1
    fi
done

# ptxas -v prints per entry:
#   ptxas info    : Compiling entry function 'NAME' for 'sm_86'
#       S bytes stack frame, X bytes spill stores, Y bytes spill loads
#   ptxas info    : Used R registers, used 1 barriers, B bytes smem, ...
# ("B bytes smem" is absent when the kernel has no static shared memory)
tmp=$OUT.tmp
echo "kernel,params,arch,registers,static_smem_bytes,spill_bytes,nvcc_version" > "$tmp"
status=0
awk -v archs="$ARCHS" -v version="$version" '
    FNR == 1 { file++ }
    file == 1 { order[++n] = $1; id[$1] = $2 "," $3; next }
    /Compiling entry function/ {
        match($0, /function '\''[^'\'']*'\''/); fn = substr($0, RSTART + 10, RLENGTH - 11)
        match($0, /for '\''sm_[0-9a-z]*'\''/); ar = substr($0, RSTART + 5, RLENGTH - 6)
        if (!(fn in id)) { printf "regs.sh: %s (%s) is not in the kernel map\n", fn, ar > "/dev/stderr"; bad = 1 }
        next
    }
    /bytes stack frame/ {
        stack[fn, ar] = $1; spill[fn, ar] = $5 + $9; next
    }
    /Used [0-9]+ registers/ {
        match($0, /Used [0-9]+ registers/); regs[fn, ar] = substr($0, RSTART + 5, RLENGTH - 15) + 0
        smem[fn, ar] = 0
        if (match($0, /[0-9]+ bytes smem/)) smem[fn, ar] = substr($0, RSTART, RLENGTH - 11) + 0
        next
    }
    END {
        na = split(archs, A, " ")
        for (i = 1; i <= n; i++) for (j = 1; j <= na; j++) {
            f = order[i]; a = A[j]
            if (!((f, a) in regs)) { printf "regs.sh: no ptxas report for %s on %s\n", f, a > "/dev/stderr"; bad = 1; continue }
            if (spill[f, a] > 0 || stack[f, a] > 0) {
                printf "regs.sh: %s on %s spills (%d bytes spilled, %d bytes stack)\n", id[f], a, spill[f, a], stack[f, a] > "/dev/stderr"; bad = 1
            }
            printf "%s,%s,%d,%d,%d,%s\n", id[f], a, regs[f, a], smem[f, a], spill[f, a], version
        }
        exit bad
    }' build/kernels.map $(for a in $ARCHS; do echo "build/ptxas_$a.log"; done) >> "$tmp" || status=$?

if [ "$status" -ne 0 ]; then
    echo "regs.sh: failed; $OUT not updated (see $tmp)" >&2
    exit 1
fi
mv "$tmp" "$OUT"
echo "regs.sh: wrote $OUT ($(($(wc -l < "$OUT") - 1)) rows, nvcc $version)" >&2
