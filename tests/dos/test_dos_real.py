#!/usr/bin/env python3
"""profcat on real DOS files from ../shared/fixtures (beside the clone):
the genuine PROFIL capture of SPIN.EXE against Microsoft's own PROHST
listing of it, and real MZ/.COM programs with their linker maps.

Run from meson (PROFCAT, PC_SOURCE_ROOT).  Skipped (exit 77) when the
shared fixtures are not beside the clone.
"""
import csv
import io
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.environ.get('PC_SOURCE_ROOT', os.path.join(os.path.dirname(__file__), '..', '..'))
PROFCAT = os.environ.get('PROFCAT', 'profcat')
SHARED = os.path.normpath(os.path.join(ROOT, '..', 'shared', 'fixtures'))
PROFIL = os.path.join(SHARED, 'profil')
PROGS = os.path.join(SHARED, 'dos-programs')
SPIN_MAP = os.path.join(PROFIL, 'SPIN.MAP')
SPIN_PRF = os.path.join(PROFIL, 'SPIN.PRF')


def profcat(*args):
    p = subprocess.run([PROFCAT] + list(args), capture_output=True)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


HEAD = ('Flat profile of %s (map), %s (prf)\n'
        'Samples: 1561 total, 1560 in the program, 1 outside (dos 1)\n'
        'Rate: 1000 Hz, each sample counts as 0.001 seconds; 1.56 seconds sampled\n\n')


class GenuineProfil(unittest.TestCase):
    def test_reads_without_ignore_fit(self):
        # the fit is by the code segments: _TEXT ends at 0x1931, inside
        # PROFIL's range (0-0x2010); STACK (to 0x2ad0) is no code
        rc, out, err = profcat(SPIN_MAP, SPIN_PRF)
        self.assertEqual((rc, err), (0, ''))
        self.assertEqual(out, HEAD % (SPIN_MAP, SPIN_PRF) +
                         'rank  symbol         count  percent    cum %     self s  bar\n'
                         '   1  _delta        539.75    34.58    34.58       0.54  ####################\n'
                         '   2  _bravo        265.25    16.99    51.57       0.27  #########\n'
                         '   3  _foxtrot      213.00    13.65    65.21       0.21  #######\n'
                         '   4  _alpha        154.75     9.91    75.13       0.15  #####\n'
                         '   5  _echo         146.00     9.35    84.48       0.15  #####\n'
                         '   6  _golf         128.00     8.20    92.68       0.13  ####\n'
                         '   7  _charlie      113.25     7.25    99.94       0.11  ####\n')

    def test_bucket_start(self):
        # the per-function hits counted by hand in ../shared/fixtures/profil/README.md
        rc, out, err = profcat('--attribution', 'bucket-start', '-F', 'csv', SPIN_MAP, SPIN_PRF)
        self.assertEqual((rc, err), (0, ''))
        got = {}
        for line in out.splitlines()[1:]:
            f = line.split(',')
            if f[0]:
                got[f[1]] = f[2]
        self.assertEqual(got, {'_alpha': '158', '_bravo': '266', '_charlie': '113',
                               '_delta': '536', '_echo': '146', '_foxtrot': '213',
                               '_golf': '128'})

    def test_granularity_line(self):
        # LINK /LINENUMBERS records of SPIN.MAP: each line runs to the next
        # record or the end of its function
        rc, out, err = profcat('--granularity', 'line', SPIN_MAP, SPIN_PRF)
        self.assertEqual((rc, err), (0, ''))
        self.assertEqual(out, HEAD % (SPIN_MAP, SPIN_PRF) +
                         'rank  symbol                           count  percent    cum %     self s  bar\n'
                         '   1  _delta                          539.75    34.58    34.58       0.54  ####################\n'
                         '   2  _bravo                          259.25    16.61    51.19       0.26  #########\n'
                         '   3  _foxtrot                        202.50    12.97    64.16       0.20  #######\n'
                         '   4  _echo                           146.00     9.35    73.51       0.15  #####\n'
                         '   5  _alpha                          145.00     9.29    82.80       0.14  #####\n'
                         '   6  _golf                           122.25     7.83    90.63       0.12  ####\n'
                         '   7  _charlie                        109.50     7.01    97.65       0.11  ####\n'
                         '   8  _foxtrot (SPIN.C:14 @ 1de)       10.50     0.67    98.32       0.01\n'
                         '   9  _alpha (SPIN.C:9 @ 58)            9.75     0.62    98.94       0.01\n'
                         '  10  _bravo (SPIN.C:10 @ a6)           6.00     0.38    99.33       0.01\n'
                         '  11  _golf (SPIN.C:15 @ 22c)           5.75     0.37    99.70       0.01\n'
                         '  12  _charlie (SPIN.C:11 @ f4)         3.75     0.24    99.94       0.00\n')

    def test_prohst_equals_spin_hst(self):
        """--style prohst is PROHST's listing (SPIN.HST, written by
        Microsoft's PROHST.EXE) but for the differences docs/dos.md gives
        the reasons of: LF line ends and no Ctrl-Z; the bucket size in
        bytes; the axis at the fullest bucket's percent; offsets from the
        start of the bucket's own segment; no line number from another
        segment at the last bucket."""
        with open(os.path.join(PROFIL, 'SPIN.HST'), 'rb') as f:
            hst = f.read()
        self.assertTrue(hst.endswith(b'\r\n\x1a'))
        want = hst[:-1].replace(b'\r\n', b'\n').decode('ascii')
        # PROHST printed the bucket size in paragraphs before "-byte"
        want = want.replace('\n   513   1-byte buckets.\n', '\n   513  16-byte buckets.\n', 1)
        # and the bucket sum / 100 (1560 hits) at column 45, where the
        # fullest bucket's dot is (232 hits, 14.9%)
        want = want.replace('                                        15.6\n',
                            '                                        14.9\n', 1)
        rows = 0

        def offset(m):
            # PROHST: the bucket's paragraph minus the *next* segment's
            # (C_ETEXT, paragraph 0x193), mod 65536; profcat: the bucket's
            # offset in _TEXT (which starts at 0)
            nonlocal rows
            addr = int(m.group(2), 16)
            self.assertEqual(int(m.group(3), 16), ((addr >> 4) - 0x193) & 0xffff)
            rows += 1
            return '%s #%04X' % (m.group(1), addr)
        want = re.sub(r'^( +\d+\. ([0-9A-F]{6})) #([0-9A-F]{4})', offset, want, flags=re.M)
        self.assertEqual(rows, 20)
        # the last bucket (0x2000, in c_common from 0x1CC0): PROHST printed
        # line 21 of _TEXT (the record before the last one when its map
        # reading hit the end of the file)
        last = '    0. 002000    21 100.0  0.0 |\n'
        self.assertIn(last, want)
        want = want.replace(last, '    0. 002000 #0340 100.0  0.0 |\n')
        rc, out, err = profcat('--style', 'prohst', SPIN_MAP, SPIN_PRF)
        self.assertEqual((rc, err), (0, ''))
        self.assertEqual(out, want)


def has_objdump_i8086():
    try:
        p = subprocess.run(['objdump', '--help'], capture_output=True, text=True)
    except OSError:
        return False
    return p.returncode == 0 and 'i8086' in p.stdout


# Capstone's and objdump's names for the same instruction: the string
# instructions with or without their operand size (objdump puts it in the
# operands), popa/pusha, xlat, and the two spellings of the repeat prefixes
ALIAS = {'stosb': 'stos', 'stosw': 'stos', 'lodsb': 'lods', 'lodsw': 'lods',
         'movsb': 'movs', 'movsw': 'movs', 'scasb': 'scas', 'scasw': 'scas',
         'cmpsb': 'cmps', 'cmpsw': 'cmps', 'insb': 'ins', 'insw': 'ins',
         'outsb': 'outs', 'outsw': 'outs', 'popaw': 'popa', 'pushaw': 'pusha',
         'xlatb': 'xlat', 'repe': 'repz', 'repne': 'repnz', 'lcall': 'call', 'ljmp': 'jmp',
         'sal': 'shl', 'wait': 'fwait', 'outsd': 'outs', 'insd': 'ins', 'lodsd': 'lods',
         'stosd': 'stos', 'movsd': 'movs', 'scasd': 'scas', 'cmpsd': 'cmps'}
# prefixes that objdump names and Capstone shows in an operand (or, for
# data32 and addr32, nowhere: they change nothing on an 8086)
PREFIXES = {'es', 'cs', 'ss', 'ds', 'fs', 'gs', 'data32', 'addr32', 'lock', 'rep', 'repz',
            'repnz', 'repe', 'repne', 'bnd'}


def mnemonic(text):
    """The instruction's name, its prefixes and spelling aside; a lone
    prefix or .byte (objdump) and (bad) (both) are all '(bad)'."""
    w = text.replace(',', ' ').split()
    if not w or w[0] == '.byte' or (len(w) == 1 and w[0] in PREFIXES):
        return '(bad)'
    while len(w) > 1 and w[0] in PREFIXES:
        w = w[1:]
    return ALIAS.get(w[0], w[0])


def load_image(path, origin):
    """The load image of an MZ .EXE or a .COM, read here from the header
    (the oracle's own reading, not profcat's)."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] == b'MZ':
        last = int.from_bytes(data[2:4], 'little')
        pages = int.from_bytes(data[4:6], 'little')
        hdr = int.from_bytes(data[8:10], 'little') * 16
        return data[hdr:pages * 512 - (512 - last if last else 0)], 0
    return data, origin


@unittest.skipUnless(os.environ.get('PC_HAVE_CAPSTONE') == '1', 'built without Capstone: no -r disasm')
@unittest.skipUnless(has_objdump_i8086(), 'objdump -m i8086 (binutils) is needed')
class Disasm(unittest.TestCase):
    """-r disasm of one function of each real program equals objdump -D -b
    binary -m i8086 on its load image: the same instruction addresses and
    mnemonics.  The functions are code only: where a program keeps data
    (strings) between its instructions the two decoders part (Capstone
    folds a lone segment prefix into the next instruction or calls it
    (bad), objdump prints it alone; docs/dos.md)."""
    CASES = [
        (PROFIL, 'SPIN.EXE', 'SPIN.MAP', '_main', [], 0, 26),
        (PROFIL, 'SPIN.EXE', 'SPIN.MAP', '_alpha', [], 0, 30),
        (PROGS, 'basicdos_COMMAND.COM', 'basicdos_COMMAND.MAP', 'CMDFILE', [], 0x100, 179),
        (PROGS, 'basicdos_IBMDOS.EXE', 'basicdos_IBMDOS.MAP', 'SPRINTF', [], 0, 351),
        (PROGS, 'basicdos_IBMDOS.COM', 'basicdos_IBMDOS.MAP', 'SPRINTF', ['-O', 'origin=0'], 0, 351),
        (PROGS, 'basicdos_MSBASIC.EXE', 'basicdos_MSBASIC.MAP', 'SCNOUT', [], 0, 387),
        (PROGS, 'basicdos_GWBASIC.EXE', 'basicdos_GWBASIC.MAP', 'SCNOUT', [], 0, 387),
    ]

    def ours(self, d, exe, mp, fn, opts):
        rc, out, err = profcat('-r', 'disasm', fn, '-F', 'csv', *(opts + [os.path.join(d, exe),
                                                                  os.path.join(d, mp)]))
        self.assertEqual(rc, 0, err)
        rows = list(csv.DictReader(io.StringIO(out)))
        return [(int(r['address'], 16), int(r['size']), r['instruction']) for r in rows]

    def objdump(self, path, origin, lo, hi, text=False):
        img, org = load_image(path, origin)
        with tempfile.NamedTemporaryFile(suffix='.bin') as t:
            t.write(img)
            t.flush()
            out = subprocess.run(['objdump', '-D', '-z', '-b', 'binary', '-m', 'i8086', '-M',
                                  'intel', '--adjust-vma=%d' % org, '--start-address=%d' % lo,
                                  '--stop-address=%d' % hi, t.name],
                                 capture_output=True, text=True, check=True).stdout
        got = []
        for line in out.splitlines():
            m = re.match(r'^ +([0-9a-f]+):\t[0-9a-f ]+\t((\S+).*)$', line)
            if m:
                got.append((int(m.group(1), 16), m.group(2) if text else m.group(3)))
        return got

    # Whole code segments: each program's map with its segment table only
    # (its publics cut off, as TLINK without /m writes it), so that each
    # segment is a function.  (program, map, segment, origin options,
    # instructions, then the instructions at addresses only profcat
    # starts, only objdump starts, and mnemonics that differ at shared
    # addresses: docs/dos.md says why, all in data between the code)
    SEGMENTS = [
        (PROFIL, 'SPIN.EXE', 'SPIN.MAP', '_TEXT', [], 0, 2732, 0, 0, 0),
        (PROGS, 'basicdos_COMMAND.COM', 'basicdos_COMMAND.MAP', 'CODE', [], 0x100, 5202, 0, 0, 0),
        (PROGS, 'basicdos_IBMDOS.EXE', 'basicdos_IBMDOS.MAP', 'DOS', [], 0, 6278, 0, 0, 0),
        (PROGS, 'smallc_MTEST.EXE', 'smallc_MTEST.MAP', '_TEXT', [], 0, 6841, 0, 0, 0),
        (PROGS, 'smallc_WTEST.EXE', 'smallc_WTEST.MAP', '_TEXT', [], 0, 6084, 0, 0, 0),
        # (wait + fsub, VEX/XOP readings, salc, runs of 26h, 8Ch/8Eh)
        (PROGS, 'basicdos_MSBASIC.EXE', 'basicdos_MSBASIC.MAP', 'CSEG', [], 0, 23970, 23, 5, 7),
        (PROGS, 'basicdos_GWBASIC.EXE', 'basicdos_GWBASIC.MAP', 'CSEG', [], 0, 23989, 20, 3, 8),
    ]

    def test_whole_segments_equal_objdump(self):
        with tempfile.TemporaryDirectory() as tmp:
            for d, exe, mp, seg, opts, origin, count, mine_only, od_only, names in self.SEGMENTS:
                with self.subTest(exe=exe, segment=seg):
                    with open(os.path.join(d, mp), 'rb') as f:
                        text = f.read()
                    cut = text.find(b'Publics by')
                    if cut >= 0:
                        text = text[:text.rfind(b'\n', 0, cut) + 1]
                    segmap = os.path.join(tmp, mp)
                    with open(segmap, 'wb') as f:
                        f.write(text)
                    v = self.ours('', os.path.join(d, exe), segmap, seg, opts)
                    self.assertEqual(len(v), count)
                    mine = {a: mnemonic(t) for a, _, t in v}
                    want = dict((a, mnemonic(t)) for a, t in
                                self.objdump(os.path.join(d, exe), origin, v[0][0],
                                             v[-1][0] + v[-1][1], text=True))
                    self.assertEqual(len(set(mine) - set(want)), mine_only)
                    self.assertEqual(len(set(want) - set(mine)), od_only)
                    self.assertEqual(len([a for a in mine if a in want and mine[a] != want[a]]),
                                     names)

    def test_functions_equal_objdump(self):
        for d, exe, mp, fn, opts, origin, count in self.CASES:
            with self.subTest(exe=exe, function=fn):
                v = self.ours(d, exe, mp, fn, opts)
                self.assertEqual(len(v), count)
                mine = [(a, ALIAS.get(t.split()[0], t.split()[0])) for a, _, t in v]
                want = [(a, ALIAS.get(m, m)) for a, m in
                        self.objdump(os.path.join(d, exe), origin, v[0][0], v[-1][0] + v[-1][1])]
                self.assertEqual(mine, want)

    def test_cbw_cwd(self):
        # Capstone 4 names 98h and 99h cwde and cdq in 16-bit mode; they
        # are cbw and cwd there (objdump, Intel): $FOUTH has both
        v = self.ours(PROGS, 'basicdos_MSBASIC.EXE', 'basicdos_MSBASIC.MAP', '$FOUTH', [])
        got = [(a, t) for a, _, t in v if a in (0xa2fd, 0xa310, 0xa5d5)]
        self.assertEqual(got, [(0xa2fd, 'cbw'), (0xa310, 'cbw'), (0xa5d5, 'cwd')])
        want = dict(self.objdump(os.path.join(PROGS, 'basicdos_MSBASIC.EXE'), 0, 0xa2fd, 0xa5d6))
        self.assertEqual([want[a] for a, _ in got], ['cbw', 'cbw', 'cwd'])


class DosPrograms(unittest.TestCase):
    @unittest.skipUnless(os.environ.get('PC_HAVE_CAPSTONE') == '1', 'built without Capstone: no -r disasm')
    def test_text_segoff_and_lines(self):
        """Real-mode SSSS:OOOO addresses and the map's line numbers above
        the instructions; the genuine capture's buckets as groups."""
        exe = os.path.join(PROFIL, 'SPIN.EXE')
        rc, out, err = profcat('-r', 'disasm', '_golf', exe, SPIN_MAP, SPIN_PRF)
        self.assertEqual((rc, err), (0, ''))
        lines = out.splitlines()
        self.assertEqual(lines[0], 'Disassembly of _golf (0x1e4-0x232, 78 bytes, x86 16-bit real mode) from ' + exe)
        self.assertEqual(lines[1], 'Samples: 128 in the function, 8.20% of 1561 total; '
                         'instructions sharing a histogram bucket are one range with one count')
        self.assertIn('         .       .  0000:01E4   55              push bp', lines)
        i = lines.index('                    SPIN.C:15')
        self.assertEqual(lines[i + 1], '         |          0000:022C   5e              pop si')

    def test_loader_notes(self):
        # the load image and relocations the shared SOURCES.md lists
        want = {
            'smallc_MTEST.EXE': 'load image of 17160 bytes at file offset 512, at image address 0x0; entry CS:IP 0000:0000; 8 relocations',
            'smallc_WTEST.EXE': 'load image of 15334 bytes at file offset 512, at image address 0x0; entry CS:IP 0000:0000; 5 relocations',
            'basicdos_MSBASIC.EXE': 'load image of 52880 bytes at file offset 512, at image address 0x0; entry CS:IP 0000:C5B0; 0 relocations',
            'basicdos_GWBASIC.EXE': 'load image of 52896 bytes at file offset 512, at image address 0x0; entry CS:IP 0000:C5C0; 0 relocations',
        }
        for exe, note in sorted(want.items()):
            with self.subTest(exe=exe):
                mp = os.path.join(PROGS, exe[:-4] + '.MAP')
                rc, out, err = profcat('-v', '--list-symbols', os.path.join(PROGS, exe), mp)
                self.assertEqual(rc, 0)
                self.assertIn('profcat: note: DOS program: MZ .EXE, ' + note + '\n', err)
        rc, out, err = profcat('-v', '--list-symbols', os.path.join(PROGS, 'basicdos_COMMAND.COM'),
                               os.path.join(PROGS, 'basicdos_COMMAND.MAP'))
        self.assertIn('profcat: note: DOS program: .COM, 11110 bytes at image address 0x100 (its entry)\n', err)

    def test_map_of_another_program(self):
        ibm = os.path.join(PROGS, 'basicdos_IBMDOS.EXE')
        rc, out, err = profcat('-r', 'disasm', 'SCNOUT', ibm,
                               os.path.join(PROGS, 'basicdos_MSBASIC.MAP'))
        self.assertEqual((rc, out), (1, ''))
        self.assertEqual(err, "profcat: the program's entry point (image address 0x0) is not "
                         "the map's (0xc5b0): the map is of another program or build: give the "
                         "executable that wrote the capture, or --ignore-fit to report anyway\n")
        # IBMDOS.COM is EXE2BIN's copy of a program linked at 0, not ORG 100h
        com = os.path.join(PROGS, 'basicdos_IBMDOS.COM')
        rc, out, err = profcat(com, os.path.join(PROGS, 'basicdos_IBMDOS.MAP'))
        self.assertEqual((rc, out), (1, ''))
        self.assertIn("(0x0-0x33dd) is not inside the program's load image (0x100-0x34dd): "
                      "the map is of another program or build (or of a .COM linked at 0, not "
                      "ORG 100h: give the program -O origin=0)", err)
        # GW-BASIC's map (entry 0000:C5C0) with the BASIC-DOS build (C5B0)
        rc, out, err = profcat('--list-symbols', os.path.join(PROGS, 'basicdos_MSBASIC.EXE'),
                               os.path.join(PROGS, 'basicdos_GWBASIC.MAP'), SPIN_PRF)
        self.assertEqual(rc, 1)
        self.assertIn("the program's entry point (image address 0xc5b0) is not the map's "
                      "(0xc5c0): the map is of another program or build", err)
        # the same map, the entry point of SPIN.EXE (0x270) in DOS (0-0x33dd)
        # but its image (0x1c8d bytes) too short for it
        rc, out, err = profcat(os.path.join(PROFIL, 'SPIN.EXE'),
                               os.path.join(PROGS, 'basicdos_IBMDOS.MAP'), SPIN_PRF)
        self.assertEqual(rc, 1)
        self.assertIn("the map's code segment DOS (0x0-0x33dd) is not inside the program's "
                      "load image (0x0-0x1c8d)", err)

    def test_prf_and_csip_with_the_exe(self):
        exe = os.path.join(PROFIL, 'SPIN.EXE')
        rc, out, err = profcat('--attribution', 'bucket-start', '-F', 'csv', exe, SPIN_MAP, SPIN_PRF)
        self.assertEqual((rc, err), (0, ''))
        self.assertIn('\n1,_delta,536,', out)
        # CS:IP samples of SPIN at its load segment 023F, one per hit of
        # each bucket, spread over the bucket's 16 bytes; every one is
        # counted for the public that holds it (from SPIN.MAP, here)
        with open(SPIN_PRF, 'rb') as f:
            prf = f.read()
        n = int.from_bytes(prf[2:4], 'little')
        pubs = []
        with open(SPIN_MAP, 'rb') as f:
            for line in f.read().decode('ascii').splitlines():
                m = re.match(r'^ 0000:([0-9A-F]{4})       (_\w+)$', line)
                if m:
                    pubs.append((int(m.group(1), 16), m.group(2)))
        pubs = sorted(set(pubs))
        want = {}
        with tempfile.TemporaryDirectory() as tmp:
            dump = os.path.join(tmp, 'SPIN-CSIP.TXT')
            with open(dump, 'w') as f:
                f.write('; CS:IP samples of SPIN.EXE, load segment 023F\n')
                for i in range(n):
                    for k in range(int.from_bytes(prf[18 + 2 * i:20 + 2 * i], 'little')):
                        ip = i * 16 + k % 16
                        f.write('023F:%04X\n' % ip)
                        name = [s for a, s in pubs if a <= ip][-1]
                        want[name] = want.get(name, 0) + 1
            rc, out, err = profcat('-F', 'csv', '--load-address', '0x23f', exe, SPIN_MAP, dump)
        self.assertEqual((rc, err), (0, ''))
        got = {}
        for line in out.splitlines()[1:]:
            f = line.split(',')
            if f[0]:
                got[f[1]] = int(f[2])
        self.assertEqual(got, want)
        self.assertEqual(sum(want.values()), 1560)


if __name__ == '__main__':
    if not os.path.isdir(PROFIL) or not os.path.isdir(PROGS):
        print('SKIP: the shared fixtures are not beside the clone (%s)' % SHARED)
        sys.exit(77)
    unittest.main()
