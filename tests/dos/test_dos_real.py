#!/usr/bin/env python3
"""profcat on real DOS files from ../shared/fixtures (beside the clone):
the genuine PROFIL capture of SPIN.EXE against Microsoft's own PROHST
listing of it, and real MZ/.COM programs with their linker maps.

Run from meson (PROFCAT, PC_SOURCE_ROOT).  Skipped (exit 77) when the
shared fixtures are not beside the clone.
"""
import os
import re
import subprocess
import sys
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


if __name__ == '__main__':
    if not os.path.isdir(PROFIL) or not os.path.isdir(PROGS):
        print('SKIP: the shared fixtures are not beside the clone (%s)' % SHARED)
        sys.exit(77)
    unittest.main()
