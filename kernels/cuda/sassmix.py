#!/usr/bin/env python3
"""sassmix.py -- main-loop instruction mix of SGEMM kernels from SASS.

Reads SASS either as `cuobjdump -sass` text (files may be .gz) or straight
from a cubin.  cuobjdump/nvdisasm are not part of the pip CUDA toolkit that
the smsim machines have, so for cubins this script decodes the 128-bit
instruction words itself with a small opcode table (sass_opcodes.json)
learned from cuobjdump text of the same compiler (CUDA 13.0) and the same
architectures: opcode = bits 0-11 of the first 64-bit word (bits 0-8 name
the instruction, 9-11 the operand form), predicate = bits 12-15, memory
access width = bits 9-11 of the second word, BRA offset = bits 32-63 of the
first word (sm_90: offset = sext(bits 32-63)*256 + bits 18-23 * 16).  Only
what the mix needs is decoded: mnemonic (with access width for memory
instructions), guard predicate and branch target.  `selftest` checks the
decoder against the mnemonics cuobjdump printed in the learning files.

Commands
  learn  SASS... -o sass_opcodes.json      build the opcode table
  selftest SASS... [--table T]             decode the hex of cuobjdump text and
                                           compare with its mnemonics
  dump   (--cubin F --arch sm_XX | --sass F) [--func SUBSTR]
                                           opcode listing with loops marked
  loops  (--cubin F --arch sm_XX | --sass F) [--func SUBSTR]
                                           every loop (backward branch) with its mix
  mix    --spec SPEC.csv -o sass_mix.csv   the table for smsim (see README.md)

Main loop = the innermost loop (a backward BRA whose body contains no other
backward BRA) that holds the most FFMA; ties go to the longer body.  One
iteration = the instructions from the branch target up to and including
the backward BRA.  If the body contains forward branches (kernel 11: the
per-half conditional loads), the path a warp takes in steady state is
counted: see path_counts().
"""
import argparse
import collections
import csv
import gzip
import json
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TABLE = os.path.join(HERE, 'sass_opcodes.json')

MEM_BASES = ('LDS', 'LDG', 'STS', 'STG', 'LDL', 'STL', 'LD', 'ST')

# ---------------------------------------------------------------------------
# Instruction record
# ---------------------------------------------------------------------------
Instr = collections.namedtuple('Instr', 'addr pred op target w0 w1')
# op: mnemonic as used for classification, e.g. 'FFMA', 'LDS.128', 'IMAD.WIDE'
# target: branch target address for BRA, else None


def open_text(path):
    if path.endswith('.gz'):
        return gzip.open(path, 'rt')
    return open(path)


LINE = re.compile(r'^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\* (0x[0-9a-f]{16}) \*/\s*$')
CONT = re.compile(r'^\s*/\* (0x[0-9a-f]{16}) \*/\s*$')


def norm_op(op):
    """Collapse cuobjdump's full mnemonic to what the mix distinguishes."""
    parts = op.split('.')
    base = parts[0]
    if base in MEM_BASES:
        width = ''
        for p in parts[1:]:
            if p in ('64', '128', 'U8', 'S8', 'U16', 'S16'):
                width = '.' + p
        return base + width
    if base == 'IMAD' and 'WIDE' in parts:
        return 'IMAD.WIDE'
    return base


def parse_cuobjdump(path):
    """-> (arch, OrderedDict func -> [Instr]); raw mnemonic kept in .op"""
    funcs = collections.OrderedDict()
    arch = None
    cur = None
    pend = None
    with open_text(path) as fh:
        for line in fh:
            m = re.search(r'code for (sm_\d+)', line) or re.search(r'\.target\s+(sm_\d+)', line)
            if m and arch is None:
                arch = m.group(1)
            m = re.search(r'Function : (\S+)', line)
            if m:
                cur = m.group(1)
                funcs[cur] = []
                continue
            m = LINE.match(line)
            if m:
                pend = (int(m.group(1), 16), m.group(2).strip(), int(m.group(3), 16))
                continue
            m = CONT.match(line)
            if m and pend is not None and cur is not None:
                addr, body, w0 = pend
                w1 = int(m.group(1), 16)
                pend = None
                pred = ''
                if body.startswith('@'):
                    pred, body = body.split(None, 1)
                parts = body.split(None, 1)
                op = parts[0]
                target = None
                if op == 'BRA' and len(parts) > 1:
                    t = parts[1].split()[0].rstrip(';')
                    if t.startswith('0x'):
                        target = int(t, 16)
                funcs[cur].append(Instr(addr, pred, op, target, w0, w1))
    return arch, funcs


# ---------------------------------------------------------------------------
# Opcode table and cubin decoding
# ---------------------------------------------------------------------------
def learn(paths):
    table = {}
    for p in paths:
        arch, funcs = parse_cuobjdump(p)
        t = table.setdefault(arch, {'op12': {}, 'width': {}})
        for ins in (i for f in funcs.values() for i in f):
            base = ins.op.split('.')[0]
            if base == 'IMAD' and '.WIDE' in ins.op:
                base = 'IMAD.WIDE'
            key = '0x%03x' % (ins.w0 & 0xfff)
            old = t['op12'].setdefault(key, base)
            if old != base:
                raise SystemExit('ambiguous opcode %s: %s / %s' % (key, old, base))
            if base in MEM_BASES:
                wk = '%d' % ((ins.w1 >> 9) & 7)     # same size field for all of them
                w = norm_op(ins.op)[len(base):]
                old = t['width'].setdefault(wk, w)
                if old != w:
                    raise SystemExit('ambiguous width %s: %s / %s' % (wk, old, w))
    for t in table.values():
        t['op12'] = dict(sorted(t['op12'].items()))
        t['width'] = dict(sorted(t['width'].items()))
    return table


def load_table(path):
    with open(path) as fh:
        return json.load(fh)


# sm_80, sm_86 and sm_90 number their opcodes alike (the learned tables
# agree on every key they share), so an opcode not seen for one of them is
# looked up in the others.
SAME_NUMBERING = ('sm_80', 'sm_86', 'sm_90')


def lookup_op(table, arch, key):
    archs = [arch] + [a for a in SAME_NUMBERING if a != arch and arch in SAME_NUMBERING]
    for a in archs:
        t = table.get(a)
        if t is None:
            continue
        base = t['op12'].get('0x%03x' % key)
        if base is not None:
            return base
    for a in archs:
        t = table.get(a)
        if t is None:
            continue
        # unseen operand form: bits 0-8 name the instruction
        cands = {v for k, v in t['op12'].items() if int(k, 16) & 0x1ff == key & 0x1ff}
        if len(cands) == 1:
            return cands.pop()
    return 'UNKNOWN_0x%03x' % key


def decode_word(table, arch, addr, w0, w1):
    arch_t = table[arch]
    key = w0 & 0xfff
    base = lookup_op(table, arch, key)
    p = (w0 >> 12) & 0xf
    pred = '' if p == 7 else ('@!P%d' % (p & 7) if p & 8 else '@P%d' % p)
    if p == 15:
        pred = '@!PT'
    op = base
    if base in MEM_BASES:
        wk = '%d' % ((w1 >> 9) & 7)
        w = arch_t['width'].get(wk)
        op = base + (w if w is not None else '.W%d' % ((w1 >> 9) & 7))
    target = None
    if base == 'BRA':
        off = (w0 >> 32) & 0xffffffff
        if off & 0x80000000:
            off -= 1 << 32
        if arch == 'sm_90':
            off = off * 256 + ((w0 >> 18) & 0x3f) * 16
        target = addr + 16 + off
    return Instr(addr, pred, op, target, w0, w1)


def elf_text_sections(path):
    """-> OrderedDict name -> bytes for every .text.<func> section of an ELF64 cubin"""
    data = open(path, 'rb').read()
    if data[:4] != b'\x7fELF' or data[4] != 2:
        raise SystemExit('%s: not an ELF64 cubin' % path)
    e_shoff, = struct.unpack_from('<Q', data, 0x28)
    e_shentsize, e_shnum, e_shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    shdrs = []
    for i in range(e_shnum):
        off = e_shoff + i * e_shentsize
        name, typ, flags, addr, offset, size = struct.unpack_from('<IIQQQQ', data, off)
        shdrs.append((name, typ, offset, size))
    stro = shdrs[e_shstrndx][2]

    def sname(n):
        end = data.index(b'\0', stro + n)
        return data[stro + n:end].decode()
    out = collections.OrderedDict()
    for name, typ, offset, size in shdrs:
        nm = sname(name)
        if nm.startswith('.text.'):
            out[nm[len('.text.'):]] = data[offset:offset + size]
    return out


def decode_cubin(path, arch, table):
    if arch not in table:
        raise SystemExit('no opcode table for %s' % arch)
    funcs = collections.OrderedDict()
    for name, code in elf_text_sections(path).items():
        ins = []
        for a in range(0, len(code) - 15, 16):
            w0, w1 = struct.unpack_from('<QQ', code, a)
            ins.append(decode_word(table, arch, a, w0, w1))
        funcs[name] = ins
    return funcs


def load_funcs(args_sass=None, cubin=None, arch=None, table=None):
    if cubin:
        return arch, decode_cubin(cubin, arch, load_table(table or DEFAULT_TABLE))
    arch, funcs = parse_cuobjdump(args_sass)
    return arch, collections.OrderedDict(
        (k, [i._replace(op=norm_op(i.op)) for i in v]) for k, v in funcs.items())


# ---------------------------------------------------------------------------
# Classification and loops
# ---------------------------------------------------------------------------
CLASSES = ['FFMA', 'FP_OTHER', 'IMAD', 'INT_ALU', 'MOV', 'UNIFORM',
           'LDG', 'LDG.64', 'LDG.128', 'LDS', 'LDS.64', 'LDS.128',
           'STS', 'STS.64', 'STS.128', 'STG', 'BAR', 'BRA', 'OTHER', 'TOTAL']

INT_ALU = {'IADD3', 'LOP3', 'SHF', 'LEA', 'ISETP', 'SEL', 'PLOP3', 'IMNMX', 'IABS',
           'PRMT', 'P2R', 'R2P', 'POPC', 'FLO', 'BREV', 'SGXT', 'BMSK', 'LOP', 'IADD', 'ISCADD',
           'SHL', 'SHR', 'XMAD'}
FP_OTHER = {'FADD', 'FMUL', 'FMNMX', 'FSETP', 'FSEL', 'FCHK', 'FSET', 'MUFU', 'HFMA2', 'HADD2'}


def classify(op):
    base = op.split('.')[0]
    if base == 'FFMA':
        return 'FFMA'
    if base in FP_OTHER:
        return 'FP_OTHER'
    if base == 'IMAD':
        return 'IMAD'
    if base in INT_ALU:
        return 'INT_ALU'
    if base == 'MOV' or base == 'CS2R':
        return 'MOV'
    if base.startswith('U') or base in ('S2UR', 'R2UR'):
        return 'UNIFORM'
    if base in ('LDG', 'LDS', 'STS'):
        w = op[len(base):]
        if w in ('', '.64', '.128'):
            return base + w
        return 'OTHER'
    if base == 'STG':
        return 'STG'
    if base == 'BAR':
        return 'BAR'
    if base == 'BRA':
        return 'BRA'
    return 'OTHER'


def loops(ins):
    """backward branches -> list of (start_idx, end_idx) inclusive"""
    idx = {i.addr: n for n, i in enumerate(ins)}
    out = []
    for n, i in enumerate(ins):
        if i.op == 'BRA' and i.target is not None and i.target <= i.addr and i.target in idx:
            out.append((idx[i.target], n))
    return out


def innermost(lps):
    res = []
    for a in lps:
        if not any(b != a and a[0] <= b[0] and b[1] <= a[1] for b in lps):
            res.append(a)
    return res


def count(seq):
    c = collections.Counter(classify(i.op) for i in seq)
    c['TOTAL'] = len(seq)
    return c


def main_loop(ins):
    lps = innermost(loops(ins))
    if not lps:
        return None
    return max(lps, key=lambda l: (sum(1 for i in ins[l[0]:l[1] + 1] if i.op == 'FFMA'),
                                   l[1] - l[0]))


def forward_skips(ins, lo, hi):
    """conditional forward branches inside [lo, hi] -> list of (bra_idx, target_idx)"""
    idx = {i.addr: n for n, i in enumerate(ins)}
    out = []
    for n in range(lo, hi):
        i = ins[n]
        if i.op == 'BRA' and i.target is not None and i.target > i.addr:
            t = idx.get(i.target)
            if t is not None and t <= hi + 1:
                out.append((n, t))
    return out


def path_counts(ins, lo, hi, taken):
    """Count the instructions of one pass lo..hi where the forward branches
    at the indices in `taken` jump and all others fall through."""
    idx = {i.addr: n for n, i in enumerate(ins)}
    seq = []
    n = lo
    guard = 0
    while n <= hi:
        guard += 1
        if guard > 100000:
            raise SystemExit('path walk does not terminate')
        i = ins[n]
        seq.append(i)
        if n == hi:
            break
        if i.op == 'BRA' and i.target is not None and i.target > i.addr:
            uncond = i.pred == ''
            if uncond or n in taken:
                n = idx[i.target]
                continue
        n += 1
    return count(seq)


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------
def select(funcs, sub):
    hits = [k for k in funcs if sub is None or sub in k]
    if not hits:
        raise SystemExit('no function matches %r (have: %s)' % (sub, ', '.join(funcs)))
    return hits


def cmd_learn(a):
    table = learn(a.sass)
    with open(a.output, 'w') as fh:
        json.dump({'_source': 'learned by sassmix.py learn from cuobjdump -sass text of CUDA 13.0 '
                   'cubins (shared/data/sass/*.sass.gz)', **table}, fh, indent=1, sort_keys=True)
        fh.write('\n')


def cmd_selftest(a):
    table = load_table(a.table)
    bad = total = 0
    for p in a.sass:
        arch, funcs = parse_cuobjdump(p)
        for f, ins in funcs.items():
            for i in ins:
                d = decode_word(table, arch, i.addr, i.w0, i.w1)
                total += 1
                exp = norm_op(i.op)
                if i.op.startswith('IMAD') and '.WIDE' not in i.op:
                    exp = 'IMAD'
                if d.op != exp or d.pred != i.pred or (i.op == 'BRA' and d.target != i.target):
                    bad += 1
                    if bad < 20:
                        print('%s %s %04x: %s %s %s != %s %s %s' % (p, f[:30], i.addr, i.pred, i.op,
                              i.target, d.pred, d.op, d.target))
    print('%d instructions, %d mismatches' % (total, bad))
    return 1 if bad else 0


def cmd_dump(a):
    arch, funcs = load_funcs(a.sass, a.cubin, a.arch, a.table)
    for f in select(funcs, a.func):
        ins = funcs[f]
        ml = main_loop(ins)
        print('Function %s (%s)' % (f, arch))
        for n, i in enumerate(ins):
            mark = '  '
            if ml and ml[0] <= n <= ml[1]:
                mark = 'L '
            tgt = ' 0x%x' % i.target if i.target is not None else ''
            print('%s%05x %-6s %s%s' % (mark, i.addr, i.pred, i.op, tgt))


def cmd_loops(a):
    arch, funcs = load_funcs(a.sass, a.cubin, a.arch, a.table)
    for f in select(funcs, a.func):
        ins = funcs[f]
        ml = main_loop(ins)
        print('Function %s (%s): %d instructions' % (f, arch, len(ins)))
        inner = innermost(loops(ins))
        for lo, hi in loops(ins):
            c = count(ins[lo:hi + 1])
            tag = ('MAIN ' if (lo, hi) == ml else '') + ('inner' if (lo, hi) in inner else 'outer')
            print('  loop 0x%x..0x%x %s: %s' % (ins[lo].addr, ins[hi].addr, tag,
                  ' '.join('%s=%d' % (k, c[k]) for k in CLASSES if c[k])))
            for b, t in forward_skips(ins, lo, hi):
                print('    forward branch at 0x%x %s -> 0x%x (skips %d)' % (
                    ins[b].addr, ins[b].pred or 'always', ins[t].addr, t - b - 1))


def cmd_mix(a):
    """spec rows: kernel,arch,source,file,func_substring,results_per_thread,paths
    paths: empty = straight-line body; otherwise ';'-separated list of
    'weight:idx,idx' entries naming which forward branches (by their order
    in the body, 0-based) are taken on each steady-state warp path; the
    reported count is the weighted mean over paths."""
    table_path = a.table
    rows = []
    kept = collections.defaultdict(list)
    if a.keep and os.path.exists(a.keep):
        with open(a.keep) as fh:
            for r in csv.DictReader(fh):
                kept[(r['kernel'], r['arch'], r['source'])].append(
                    (r['kernel'], r['arch'], r['source'], r['class'], r['count_per_iteration']))
    with open(a.spec) as fh:
        for r in csv.DictReader(fh):
            if r['kernel'].startswith('#'):
                continue
            path = r['file'].replace('@REF', a.ref_dir)
            if not os.path.isabs(path):
                path = os.path.join(a.base, path)
            if not os.path.exists(path):
                key = (r['kernel'], r['arch'], r['source'])
                if not kept.get(key):
                    raise SystemExit('%s: missing, and no rows for %s to keep' % (path, key))
                print('%-14s %-6s %-9s %s missing: rows kept from %s' % (key + (path, a.keep)),
                      file=sys.stderr)
                rows.extend(kept[key])
                continue
            if path.endswith('.cubin'):
                arch, funcs = load_funcs(cubin=path, arch=r['arch'], table=table_path)
            else:
                arch, funcs = load_funcs(path)
                if arch != r['arch']:
                    raise SystemExit('%s is %s, spec says %s' % (path, arch, r['arch']))
            hits = select(funcs, r['func'])
            if len(hits) != 1:
                raise SystemExit('%s: %r matches %s' % (r['file'], r['func'], hits))
            ins = funcs[hits[0]]
            lo, hi = main_loop(ins)
            fw = forward_skips(ins, lo, hi)
            paths = r.get('paths', '').strip()
            if paths:
                agg = collections.Counter()
                wsum = 0.0
                for p in paths.split(';'):
                    w, _, taken = p.partition(':')
                    w = float(w)
                    tk = {fw[int(x)][0] for x in taken.split(',') if x != ''}
                    c = path_counts(ins, lo, hi, tk)
                    for k in c:
                        agg[k] += w * c[k]
                    wsum += w
                c = {k: agg[k] / wsum for k in agg}
            else:
                if any(ins[b].pred for b, t in fw):
                    raise SystemExit('%s %s: loop body has conditional forward branches; give paths'
                                     % (r['kernel'], r['arch']))
                c = path_counts(ins, lo, hi, set())
            rpt = int(r['results_per_thread'])
            kper = c.get('FFMA', 0) / rpt
            for k in CLASSES:
                v = c.get(k, 0)
                rows.append((r['kernel'], r['arch'], r['source'], k, fmt(v)))
            rows.append((r['kernel'], r['arch'], r['source'], 'K_PER_ITER', fmt(kper)))
            print('%-14s %-6s %-9s loop 0x%x..0x%x  %s' % (r['kernel'], r['arch'], r['source'],
                  ins[lo].addr, ins[hi].addr,
                  ' '.join('%s=%s' % (k, fmt(c.get(k, 0))) for k in CLASSES if c.get(k, 0))),
                  file=sys.stderr)
            for n, (b, t) in enumerate(fw):
                sk = count(ins[b + 1:t])
                print('    forward branch %d at 0x%x %s skips %d: %s' % (
                    n, ins[b].addr, ins[b].pred or 'always', t - b - 1,
                    ' '.join('%s=%d' % (k, sk[k]) for k in CLASSES if sk[k] and k != 'TOTAL')),
                    file=sys.stderr)
    with open(a.output, 'w', newline='') as fh:
        w = csv.writer(fh, lineterminator='\n')
        w.writerow(['kernel', 'arch', 'source', 'class', 'count_per_iteration'])
        w.writerows(rows)


def fmt(v):
    return ('%d' % v) if float(v).is_integer() else ('%.2f' % v)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('learn')
    p.add_argument('sass', nargs='+')
    p.add_argument('-o', '--output', default=DEFAULT_TABLE)
    p.set_defaults(fn=cmd_learn)
    p = sub.add_parser('selftest')
    p.add_argument('sass', nargs='+')
    p.add_argument('--table', default=DEFAULT_TABLE)
    p.set_defaults(fn=cmd_selftest)
    for name, fn in (('dump', cmd_dump), ('loops', cmd_loops)):
        p = sub.add_parser(name)
        p.add_argument('--sass')
        p.add_argument('--cubin')
        p.add_argument('--arch')
        p.add_argument('--func')
        p.add_argument('--table', default=DEFAULT_TABLE)
        p.set_defaults(fn=fn)
    p = sub.add_parser('mix')
    p.add_argument('--spec', required=True)
    p.add_argument('--base', default='.')
    p.add_argument('--table', default=DEFAULT_TABLE)
    p.add_argument('--ref-dir', default=os.path.join(HERE, '..', '..', '..', 'shared', 'data', 'sass'),
                   help='replaces @REF in the spec (default: shared/data/sass beside the repo)')
    p.add_argument('--keep', help='CSV whose rows are kept for spec entries whose file is missing')
    p.add_argument('-o', '--output', required=True)
    p.set_defaults(fn=cmd_mix)
    a = ap.parse_args()
    return a.fn(a) or 0


if __name__ == '__main__':
    sys.exit(main())
