#!/usr/bin/env python3
"""Generates the synthetic MS-DOS PROFIL fixtures of tests/dos.

No genuine .PRF file is known to survive, so these are written from the
documented layout (MS-DOS 2.0 PROFIL.ASM / PROFILE.DOC): nine little-endian
16-bit words (clock_grain, bucket_num, bucket_siz, prog_low_pa,
prog_high_pa, dos_pa, hit_io, hit_dos, hit_high) and bucket_num 16-bit
bucket counts, with bucket_num = (prog_high_pa - prog_low_pa) / bucket_siz
+ 1.  Counters are 16-bit and wrap at 65536, as PROFIL's INC does.

usage: gen_fixtures.py [OUTDIR]   (default: fixtures/prf beside this script)
The outputs are committed; rerunning must reproduce them byte for byte.
"""
import gzip
import io
import os
import struct
import sys


def prf(grain, siz, low, high, dos, io_hits, dos_hits, high_hits, buckets,
        num=None):
    """A .PRF image; buckets is {index: count}; counts wrap at 65536."""
    n = (high - low) // siz + 1 if num is None else num
    words = [grain, n, siz, low, high, dos, io_hits, dos_hits, high_hits]
    counts = [buckets.get(i, 0) for i in range(n)]
    return struct.pack('<9H', *[w % 65536 for w in words]) + \
        struct.pack('<%dH' % n, *[c % 65536 for c in counts])


# PRIMES.COM (tests/dos/fixtures/dosmap/mslink_basicdos_PRIMES.MAP): the
# .COM file is 0x1A1 - 0x100 = 0xA1 bytes, so PROFIL samples
# ceil(0xA1 / 16) = 11 paragraphs from CS:0100 (= PSP + 10h); 1-paragraph
# buckets give 11 / 1 + 1 = 12 buckets.  Bucket k covers map addresses
# [0x100 + 16k, 0x110 + 16k).  MAIN is at 0x100, CTRLC at 0x177: bucket 7
# [0x170, 0x180) straddles them (7 bytes MAIN, 9 bytes CTRLC).
PRIMES = prf(grain=500, siz=1, low=0x1234, high=0x123F, dos=0x0180,
             io_hits=4, dos_hits=12, high_hits=2,
             buckets={0: 10, 2: 25, 4: 40, 6: 5, 7: 16, 8: 3})

# DEMO.EXE with the synthetic MS LINK map DEMO.MAP below: a 0x200-byte EXE
# header plus a 0x380-byte image is 3 pages, i.e. 3 * 32 = 0x60 paragraphs
# sampled; 4-paragraph (64-byte) buckets give 0x60 / 4 + 1 = 25 buckets.
# Bucket k covers image addresses [64k, 64k + 64).  _idle starts at 0x1D0, so
# bucket 7 [0x1C0, 0x200) is 16 bytes _work and 48 bytes _idle; bucket 10
# [0x280, 0x2C0) lies in _DATA, which holds only the data symbol _table.
DEMO_BUCKETS = {0: 20, 3: 6, 4: 50, 6: 30, 7: 8, 9: 2, 10: 1}
DEMO = prf(grain=1000, siz=4, low=0x0A50, high=0x0AB0, dos=0x0100,
           io_hits=7, dos_hits=3, high_hits=1, buckets=DEMO_BUCKETS)

# The same run where bucket 4 really received 70000 samples and DOS 65539:
# PROFIL's 16-bit counters kept 70000 - 65536 = 4464 and 3.
WRAP = prf(grain=1000, siz=4, low=0x0A50, high=0x0AB0, dos=0x0100,
           io_hits=7, dos_hits=65539, high_hits=1,
           buckets={**DEMO_BUCKETS, 4: 70000})

DEMO_MAP = b"""\r
 Start  Stop   Length Name                   Class\r
 00000H 0027FH 00280H _TEXT                  CODE\r
 00280H 0037FH 00100H _DATA                  DATA\r
\r
 Origin   Group\r
 0028:0   DGROUP\r
\r
  Address         Publics by Name\r
\r
 0000:01D0       _idle\r
 0000:0000       _main\r
 0028:0010       _table\r
 0000:0100       _work\r
 0000:0037  Abs  LIMIT\r
\r
  Address         Publics by Value\r
\r
 0000:0000       _main\r
 0000:0037  Abs  LIMIT\r
 0000:0100       _work\r
 0000:01D0       _idle\r
 0028:0010       _table\r
\r
Program entry point at 0000:0000\r
"""


# A raw CS:IP dump of DEMO.EXE loaded at paragraph 0x0A50 (text, one
# SSSS:OOOO sample per line, as the raw loader reads them): linear
# 0xA500 = _main, 0xA620 and 0xA6CF = _work, 0xA6D0 = _idle, and one sample
# in DOS (0x1000).  With DEMO.MAP and --load-address 0x0a50: _main 3,
# _work 3, _idle 1, and 1 below the program.
DEMO_CSIP = (b"; CS:IP samples of DEMO.EXE, load segment 0A50\n"
             b"0A50:0000\n0A50:0000\n0A50:0000\n"
             b"0A50:0120\n0A62:0000\n"
             b"0A6D:0000\n0A50:01CF\n0100:0000\n")


def gz(data):
    buf = io.BytesIO()
    with gzip.GzipFile(filename='', mode='wb', fileobj=buf, mtime=0) as f:
        f.write(data)
    return buf.getvalue()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'fixtures', 'prf')
    os.makedirs(out, exist_ok=True)
    files = {
        'PRIMES.PRF': PRIMES,
        'DEMO.PRF': DEMO,
        'DEMO.MAP': DEMO_MAP,
        'DEMO-CSIP.TXT': DEMO_CSIP,
        'DEMO.PRF.gz': gz(DEMO),
        'WRAP.PRF': WRAP,
        # header + 6 of the 25 buckets
        'TRUNC.PRF': DEMO[:30],
        # header claims 24 buckets (and the file holds 24): PROFIL writes 25
        'BADCOUNT.PRF': prf(grain=1000, siz=4, low=0x0A50, high=0x0AB0,
                            dos=0x0100, io_hits=7, dos_hits=3, high_hits=1,
                            buckets=DEMO_BUCKETS, num=24),
        # DOS boundary above the program
        'BADORDER.PRF': prf(grain=1000, siz=4, low=0x0A50, high=0x0AB0,
                            dos=0x0B00, io_hits=7, dos_hits=3, high_hits=1,
                            buckets=DEMO_BUCKETS),
        'TRAILING.PRF': DEMO + b'\0\0',
        'TRAILING.PRF.gz': gz(DEMO + b'\0\0'),
    }
    for name, data in files.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
    return 0


if __name__ == '__main__':
    sys.exit(main())
