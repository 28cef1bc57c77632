#!/usr/bin/env python3
"""The MZ/.COM loader on damaged programs built here: each is refused
with the offset of the field and what was expected (exact messages)."""
import os
import struct
import subprocess
import sys
import tempfile

PROFCAT = os.environ.get('PROFCAT', 'profcat')


def mz(last=0x10, pages=2, nrel=0, hdr=2, relo=0x1c, rel=b''):
    h = b'MZ' + struct.pack('<13H', last, pages, nrel, hdr, 0, 0xffff, 0, 0x80, 0, 0, 0, relo, 0)
    return (h + rel).ljust(hdr * 16, b'\0') + b'\x90' * (1024 - 32)


CASES = [
    ('TRUNC.EXE', mz(pages=5),
     'TRUNC.EXE:1024: file ends after 1024 bytes; its MZ header says 2064 (5 pages, 16 in the last)'),
    ('LAST.EXE', mz(last=600), 'LAST.EXE:2: 600 bytes in the last page; expected 0-511'),
    ('HDR.EXE', mz(hdr=1),
     "HDR.EXE:8: header of 1 paragraphs; expected 2 to 33 (the program's 528 bytes)"),
    ('REL.EXE', mz(nrel=1, rel=struct.pack('<HH', 0xfff0, 0x100)),
     'REL.EXE:28: relocation 0 at image offset 0x10ff0 is outside the 496-byte load image'),
    ('RELTAB.EXE', mz(nrel=100),
     'RELTAB.EXE:24: relocation table of 100 entries at offset 28 lies outside the 32-byte header'),
    ('NOTMZ.EXE', b'\x90' * 100,
     'NOTMZ.EXE:0: expected an MZ header ("MZ"), or a .COM program: name it .COM or give -O com=1'),
    ('BIG.COM', b'\x90' * 70000,
     'BIG.COM:0: a .COM program of 70000 bytes; at most 65280 fit its segment after the PSP'),
]


def main():
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, data, want in CASES:
            with open(os.path.join(tmp, name), 'wb') as f:
                f.write(data)
            p = subprocess.run([PROFCAT, '--list-symbols', '-f', 'mz', name], cwd=tmp,
                               capture_output=True, text=True)
            got = (p.returncode, p.stdout, p.stderr)
            exp = (1, '', 'profcat: %s\n' % want)
            if got != exp:
                failed += 1
                print('FAIL', name, got, 'expected', exp)
            else:
                print('ok', name)
        # a good one reads: its note
        with open(os.path.join(tmp, 'GOOD.EXE'), 'wb') as f:
            f.write(mz(nrel=1, rel=struct.pack('<HH', 0x10, 0)))
        p = subprocess.run([PROFCAT, '-v', '--list-symbols', 'GOOD.EXE'], cwd=tmp,
                           capture_output=True, text=True)
        note = ('profcat: note: DOS program: MZ .EXE, load image of 496 bytes at file offset 32, '
                'at image address 0x0; entry CS:IP 0000:0000; 1 relocations\n')
        if p.returncode != 0 or note not in p.stderr:
            failed += 1
            print('FAIL GOOD.EXE', p.returncode, p.stderr)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
