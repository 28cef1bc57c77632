#!/usr/bin/env python3
"""Rewrite the gcc -pg gmon.out fixtures into the other histogram layouts.

For every fixtures/<variant>/ made by gen_fixtures.sh this reads the GNU
tagged gmon.out (address width W and byte order from the paired ELF
executable, as gprof does) and writes into fixtures/<variant>/layouts/:

  bsd44.gmon        4.4BSD gmonhdr (version 0x00051879, profrate), raw arcs
                    (uW from, uW self, sW count)
  oldbsd.gmon       4.2BSD header (lowpc, highpc, ncnt), histogram, raw arcs
  histonly.gmon     GNU tagged, histogram record only (no arcs)
  tagged-be.gmon    GNU tagged, every field big-endian (as written for a
                    big-endian target); read with -O endian=big
  bsd44-be.gmon     4.4BSD, big-endian
  openocd.gmon      OpenOCD (Feb 2025 on) shape: histogram records only,
                    one per cluster of samples (split at gaps >= 32 bytes),
                    2-byte bins, low/high/size/rate as 4-byte words even
                    when W = 8, counters little-endian
  openocd-be.gmon   the same with big-endian header words (a big-endian
                    target); counters stay little-endian
  openocd-w8.gmon   (W = 8 only) openocd.gmon with 8-byte addresses, which
                    gprof can read: the reference for openocd*.gmon
  v7-le.mon, v7-be.mon   (W = 4 only) V7-style 32-bit mon.out: lowpc,
                    highpc, ncnt, ncnt x (pc, long count), 16-bit counters;
                    one slot per called function (pc = the arcs' self_pc,
                    count = every call to it, recursive ones included)
  osf.mprof         (i386-nopie only) profcore's multi-range profil form
                    (loaders/osf.c): the histogram split into two ranges at
                    the start of tiny_a plus a 64-counter "libc.so.6"
                    range of class "library" holding 5 + 7 ticks

fixtures/pdp11/ gets a synthetic PDP-11 mon.out, its byte-swapped twin and
the symbols as an nm listing (see pdp11()).

The OpenOCD files are made from the fixture's histogram: each bin's count
is placed at the bin's first (even) address, then re-binned as OpenOCD
does.  prof_rate is kept at the fixture's 100.

When gprof is installed it is run on each file it can read and its brief
flat profile saved as <file>.gprof-p.txt (openocd.gprof-p.txt comes from
openocd-w8.gmon when W = 8).  Files gprof cannot read (big-endian data with
a little-endian executable, mon.out, osf) are compared against the
original gprof output of the same data by the tests.

Usage: rewrite_layouts.py [fixtures-dir]   (default: beside this script)
"""
import os
import shutil
import struct
import subprocess
import sys

GMONVERSION = 0x00051879


def elf_target(path):
    with open(path, 'rb') as f:
        ident = f.read(16)
    if ident[:4] != b'\x7fELF':
        raise SystemExit('%s: not an ELF file' % path)
    width = {1: 4, 2: 8}[ident[4]]
    order = {1: '<', 2: '>'}[ident[5]]
    return width, order


def read_tagged(path, width, order):
    data = open(path, 'rb').read()
    if data[:4] != b'gmon':
        raise SystemExit('%s: not a GNU tagged gmon.out' % path)
    a = 'Q' if width == 8 else 'I'
    off = 20
    hists, arcs = [], []
    while off < len(data):
        tag = data[off]
        off += 1
        if tag == 0:
            low, high = struct.unpack_from(order + a + a, data, off)
            off += 2 * width
            n, rate = struct.unpack_from(order + 'II', data, off)
            off += 8
            dimen = data[off:off + 16]
            off += 16
            counts = list(struct.unpack_from(order + '%dH' % n, data, off))
            off += 2 * n
            hists.append((low, high, rate, dimen, counts))
        elif tag == 1:
            frm, slf, cnt = struct.unpack_from(order + a + a + 'I', data, off)
            off += 2 * width + 4
            arcs.append((frm, slf, cnt))
        else:
            raise SystemExit('%s: unexpected tag %d' % (path, tag))
    if len(hists) != 1:
        raise SystemExit('%s: expected one histogram record' % path)
    return hists[0], arcs


def tagged(hist, arcs, width, order, hist_words=None):
    """GNU tagged file; hist_words overrides the width of the histogram
    header's address fields (OpenOCD writes 4 on 64-bit targets)."""
    a = 'Q' if width == 8 else 'I'
    out = bytearray(b'gmon' + struct.pack(order + 'I', 1) + bytes(12))
    hists = hist if isinstance(hist, list) else [hist]
    for low, high, rate, dimen, counts, corder in hists:
        ha = a if hist_words is None else {4: 'I', 8: 'Q'}[hist_words]
        out += b'\x00' + struct.pack(order + ha + ha + 'II', low, high,
                                     len(counts), rate)
        out += dimen
        out += struct.pack(corder + '%dH' % len(counts), *counts)
    for frm, slf, cnt in arcs:
        out += b'\x01' + struct.pack(order + a + a + 'I', frm, slf, cnt)
    return bytes(out)


def bsd(hist, arcs, width, order, new):
    low, high, rate, _dimen, counts = hist
    a = 'Q' if width == 8 else 'I'
    s = 'q' if width == 8 else 'i'
    hdr_size = 2 * width + (24 if new else 4)
    ncnt = hdr_size + 2 * len(counts)
    out = bytearray(struct.pack(order + a + a + 'I', low, high, ncnt))
    if new:
        out += struct.pack(order + 'IIIII', GMONVERSION, rate, 0, 0, 0)
    assert len(out) == hdr_size
    out += struct.pack(order + '%dH' % len(counts), *counts)
    for frm, slf, cnt in arcs:
        out += struct.pack(order + a + a + s, frm, slf, cnt)
    return bytes(out)


def openocd_records(hist):
    """Samples at each bin's first even address, clustered and re-binned
    with 2-byte bins as OpenOCD master does; counters saturate at 65535."""
    low, high, rate, dimen, counts = hist
    scale = ((high - low) // 2) / len(counts)
    samples = {}
    for i, c in enumerate(counts):
        if c:
            pc = low + 2 * int(scale * i)
            samples[pc] = samples.get(pc, 0) + c
    pcs = sorted(samples)
    clusters, cur = [], [pcs[0]]
    for pc in pcs[1:]:
        if pc - cur[-1] >= 32:
            clusters.append(cur)
            cur = []
        cur.append(pc)
    clusters.append(cur)
    recs = []
    for cl in clusters:
        lo, hi = cl[0], cl[-1] + 1
        if (hi - lo) % 2:
            hi += 1
        bins = [0] * ((hi - lo) // 2)
        for pc in cl:
            k = (pc - lo) // 2
            bins[k] = min(65535, bins[k] + samples[pc])
        recs.append((lo, hi, rate, dimen, bins))
    return recs


def v7(hist, arcs, order):
    low, high, _rate, _dimen, counts = hist
    calls = {}
    for _frm, slf, cnt in arcs:
        calls[slf] = calls.get(slf, 0) + cnt
    out = bytearray(struct.pack(order + 'III', low, high, len(calls)))
    for pc in sorted(calls):
        out += struct.pack(order + 'II', pc, calls[pc])
    out += struct.pack(order + '%dH' % len(counts), *counts)
    return bytes(out)


def osf(hist, split_at):
    """Multi-range profil file (loaders/osf.c), rule glibc (code 5): with
    scale 0x8000 a counter covers exactly 4 bytes, as the i386 fixture's
    bins do."""
    low, high, rate, _dimen, counts = hist
    assert (high - low) == 4 * len(counts), 'needs exact 4-byte bins'
    k = (split_at - low) // 4
    lib = [0] * 64
    lib[3], lib[10] = 5, 7
    ranges = [
        (low, 0x8000, 0, b'', counts[:k]),
        (low + 4 * k, 0x8000, 0, b'callgraph', counts[k:]),
        (0xf7d00000, 0x4000, 6, b'libc.so.6', lib),
    ]
    out = bytearray(b'PCMRPROF' + struct.pack('<HHIBBHI', 1, len(ranges),
                                              rate, 5, 0, 0, 0))
    for off, scale, cls, name, c in ranges:
        out += struct.pack('<QIIBBHI', off, scale, len(c), cls, 0,
                           len(name), 0)
    for _off, _scale, _cls, name, c in ranges:
        out += name + struct.pack('<%dH' % len(c), *c)
    return bytes(out)


def symbol_address(exe, name):
    out = subprocess.run(['nm', exe], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == name:
            return int(f[0], 16)
    raise SystemExit('%s: no symbol %s' % (exe, name))


def gprof_flat(exe, gmon, out):
    r = subprocess.run(['gprof', '-b', '-p', exe, gmon], capture_output=True,
                       text=True)
    if r.returncode != 0:
        raise SystemExit('gprof failed on %s: %s' % (gmon, r.stderr))
    with open(out, 'w') as f:
        f.write(r.stdout)


def rewrite(vdir):
    exe = os.path.join(vdir, 'callgraph')
    width, order = elf_target(exe)
    hist, arcs = read_tagged(os.path.join(vdir, 'gmon.out'), width, order)
    low, high, rate, dimen, counts = hist
    out = os.path.join(vdir, 'layouts')
    os.makedirs(out, exist_ok=True)
    files = {
        'bsd44.gmon': bsd(hist, arcs, width, order, True),
        'oldbsd.gmon': bsd(hist, arcs, width, order, False),
        'histonly.gmon': tagged([hist + (order,)], [], width, order),
        'tagged-be.gmon': tagged([hist + ('>',)], arcs, width, '>'),
        'bsd44-be.gmon': bsd(hist, arcs, width, '>', True),
    }
    recs = openocd_records(hist)
    files['openocd.gmon'] = tagged([r + ('<',) for r in recs], [], width,
                                   order, hist_words=4)
    files['openocd-be.gmon'] = tagged([r + ('<',) for r in recs], [], width,
                                      '>', hist_words=4)
    if width == 8:
        files['openocd-w8.gmon'] = tagged([r + ('<',) for r in recs], [],
                                          width, order)
    if width == 4:
        files['v7-le.mon'] = v7(hist, arcs, '<')
        files['v7-be.mon'] = v7(hist, arcs, '>')
    if os.path.basename(vdir.rstrip('/')) == 'i386-nopie':
        files['osf.mprof'] = osf(hist, symbol_address(exe, 'tiny_a'))
    for name, data in files.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
    if shutil.which('gprof'):
        for name in ('bsd44.gmon', 'oldbsd.gmon', 'histonly.gmon'):
            gprof_flat(exe, os.path.join(out, name),
                       os.path.join(out, name[:-5] + '.gprof-p.txt'))
        ref = 'openocd-w8.gmon' if width == 8 else 'openocd.gmon'
        gprof_flat(exe, os.path.join(out, ref),
                   os.path.join(out, 'openocd.gprof-p.txt'))
    print('%s: %d files (%d OpenOCD records)' % (out, len(files), len(recs)))


def pdp11(root):
    """fixtures/pdp11/: a synthetic PDP-11 mon.out (V7 monitor(): lowpc
    0x100, highpc 0x180, one call slot, 24 counters) in PDP-11 order and
    byte-swapped, with the program's symbols as an nm listing.  The call
    slot's pc 0x10a (in B) counted 70000 calls (a long: high word first);
    counters 0..4 hold 1, 10, 100, 1000, 10000."""
    out = os.path.join(root, 'pdp11')
    os.makedirs(out, exist_ok=True)
    words = [0x100, 0x180, 1, 0x10a, 0x0001, 0x1170,
             1, 10, 100, 1000, 10000] + [0] * 19
    with open(os.path.join(out, 'mon.out'), 'wb') as f:
        f.write(struct.pack('<%dH' % len(words), *words))
    with open(os.path.join(out, 'swapped.mon'), 'wb') as f:
        f.write(struct.pack('>%dH' % len(words), *words))
    with open(os.path.join(out, 'syms.nm'), 'w') as f:
        f.write('00000100 T A\n00000108 T B\n0000010e T C\n'
                '00000114 T D\n00000180 T _etext\n')
    print('%s: 3 files' % out)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'fixtures')
    pdp11(root)
    for v in sorted(os.listdir(root)):
        vdir = os.path.join(root, v)
        if os.path.isfile(os.path.join(vdir, 'gmon.out')):
            rewrite(vdir)


if __name__ == '__main__':
    main()
