#!/usr/bin/env python3
"""rfports.py -- register-file read-port cycles per FFMA in the main loop
of the reference SGEMM SASS, under the rule of src/sim/regfile.h.

Run at development time; its output is committed as
kernels/cuda/rf_ports.csv (like registers.csv and sass_mix.csv) and is the
expected value of the models' test (tests/test-kern.c).

    tools/rfports.py [--banks N] [--sass-dir DIR] > kernels/cuda/rf_ports.csv

The rule (regfile.h says why; Huerta et al., MICRO 2025):
  - register r is in bank r % N; each bank has one read port, one
    operand per cycle;
  - a register-file cache holds, per operand slot (A, B, C) and per bank,
    one register, tagged with the warp; an operand whose slot and bank
    hold its register is served from there (no port read);
  - after the reads, each register operand updates its (slot, bank)
    entry: kept if its reuse bit is set, emptied otherwise;
  - an instruction occupies the ports for max over banks of its port
    reads (0 when it reads nothing through them); a register two slots
    name, found in neither's cache entry, is read once.
A warp's instructions are played alone (no other warp touches the cache),
in the order of the listing, twice; the second pass is measured, so the
cache is warm at the loop top as in steady state.  Kernel 11's loop body
has forward branches (each half of the block skips the other's loads):
the straight listing is played, which only adds the skipped blocks'
non-FFMA reads; they sit between the two stages' FFMAs.

Operand slots are positions after the destination (stores, which have
none, start at the first operand): `IMAD R1, R2, c[..], R3` reads R2 in
slot A and R3 in slot C.  Only the first register of a 64-bit pair is
counted (the simulator's Instr names one register per slot).  RZ reads
nothing.  Main loop: sassmix.py's (the innermost loop with the most FFMA).
"""
import argparse
import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'kernels', 'cuda'))
import sassmix  # noqa: E402

DEFAULT_SASS = os.path.join(HERE, '..', '..', 'shared', 'data', 'sass')

# kernel -> (file stem, function substring): sass_mix_spec.csv's reference rows
KERNELS = [
    ('sgemm-3', 'sgemm', 'k03_smem'),
    ('sgemm-4', 'sgemm', 'k04_blocktile1d'),
    ('sgemm-5', 'sgemm', 'k05_blocktile2d'),
    ('sgemm-6', 'sgemm', 'k06_vectorize'),
    ('sgemm-7', 'sgemm_more', 'k07_bank_linearize'),
    ('sgemm-8', 'sgemm_more', 'k08_bank_offset'),
    ('sgemm-9', 'sgemm_more', 'k09_autotuned'),
    ('sgemm-10', 'sgemm', 'k10_warptile'),
    ('sgemm-11', 'sgemm_more', 'k11_double_buffering'),
]
ARCHS = ['sm_80', 'sm_86', 'sm_90']

NO_DST = ('ST', 'STS', 'STG', 'STL', 'BAR', 'BRA', 'EXIT', 'RED', 'ATOM')
LINE = re.compile(r'^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;')
REG = re.compile(r'^-?\|?(R\d+|RZ)')


def parse(path, func):
    """-> [(op, [(slot, reg, reuse)])] of 'func''s instructions, in order"""
    out, cur = [], None
    with sassmix.open_text(path) as fh:
        for line in fh:
            m = re.search(r'Function : (\S+)', line)
            if m:
                cur = m.group(1)
                continue
            if cur is None or func not in cur:
                continue
            m = LINE.match(line)
            if not m:
                continue
            body = m.group(2)
            if body.startswith('@'):
                body = body.split(None, 1)[1]
            parts = body.split(None, 1)
            op = parts[0]
            ops = [o.strip() for o in parts[1].split(',')] if len(parts) > 1 else []
            first = 0 if op.split('.')[0] in NO_DST else 1
            srcs = []
            for slot, o in enumerate(ops[first:first + 3]):
                o = o.lstrip('[').strip()
                rm = REG.match(o)
                if rm and rm.group(1) != 'RZ':
                    srcs.append((slot, int(rm.group(1)[1:]), '.reuse' in o))
            out.append((op, srcs))
    return out


def port_cycles(srcs, cache, banks):
    """The rule: port cycles of one instruction; updates 'cache'."""
    reads = collections.Counter()
    done = set()
    for slot, r, _ in srcs:
        if cache.get((slot, r % banks)) != r and r not in done:
            done.add(r)
            reads[r % banks] += 1
    for slot, r, reuse in srcs:
        if reuse:
            cache[(slot, r % banks)] = r
        else:
            cache.pop((slot, r % banks), None)
    return max(reads.values()) if reads else 0


def main_loop_range(path, func):
    arch, funcs = sassmix.load_funcs(args_sass=path)
    name = [k for k in funcs if func in k]
    if len(name) != 1:
        raise SystemExit('%s: %d functions match %s' % (path, len(name), func))
    return sassmix.main_loop(funcs[name[0]])


def run(sass_dir, banks):
    print('# tools/rfports.py --banks %d: read-port cycles per FFMA of the main loop '
          'of the reference SASS (../shared/data/sass, CUDA 13.0), rule of src/sim/regfile.h' % banks)
    print('kernel,arch,ffma,port_cycles_per_ffma,ffma_over_1_cycle,source')
    for kernel, stem, func in KERNELS:
        for arch in ARCHS:
            fname = '%s_%s.sass.gz' % (stem, arch.replace('_', ''))
            path = os.path.join(sass_dir, fname)
            ins = parse(path, func)
            lo, hi = main_loop_range(path, func)
            body = ins[lo:hi + 1]
            cache = {}
            total = n = slow = 0
            for p in range(2):
                for op, srcs in body:
                    c = port_cycles(srcs, cache, banks)
                    if p == 1 and op.split('.')[0] == 'FFMA':
                        n += 1
                        total += c
                        slow += c > 1
            print('%s,%s,%d,%.4f,%d,%s %s' % (kernel, arch, n, total / n, slow, fname, func))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--banks', type=int, default=2)
    ap.add_argument('--sass-dir', default=DEFAULT_SASS)
    a = ap.parse_args()
    run(a.sass_dir, a.banks)


if __name__ == '__main__':
    main()
