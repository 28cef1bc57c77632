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


# A program whose map lists segments only (TLINK without /m, as the Small
# C programs of ../shared/fixtures/dos-programs): its segments stand for
# the functions.  The code holds what the 8086 reads but Capstone alone
# did not: prefixes before an instruction Capstone refuses with them, a
# segment prefix that no operand shows, an 8087 escape and a MOV of
# segment register 6 that name nothing (of their ModR/M length, as
# objdump -m i8086 reads them); WAIT stays an instruction of its own.
SEG_CODE = bytes.fromhex('90f05e2ed73e55d90d9026c6908cb250e89bdce898992626c690')
SEG_MAP = ('\r\n Start  Stop   Length Name               Class\r\n\r\n'
           ' 00000H 0003FH 00040H _TEXT              CODE\r\n'
           ' 00040H 0004FH 00010H _DATA              DATA\r\n'
           ' 00050H 000CFH 00080H _STACK             STACK\r\n'
           '\r\nProgram entry point at 0000:0000\r\n')


def mz_image(img):
    size = 32 + len(img)
    h = b'MZ' + struct.pack('<13H', size % 512, (size + 511) // 512, 0, 2, 0, 0xffff, 5, 0x80,
                            0, 0, 0, 0x1c, 0)
    return h.ljust(32, b'\0') + img


SEG_CASES = [
    (['--list-symbols', 'SEG.EXE', 'SEG.MAP'], 0,
     'segment  address            size       kind  name\n'
     '-        0x0000000000000000 64         text  _TEXT\n'
     '-        0x0000000000000040 16         data  _DATA\n'
     '-        0x0000000000000050 128        bss   _STACK\n', ''),
    # CS:IP samples at load segment 1000: three in _TEXT, one in _DATA
    # (no code: in the program, credited to no function)
    (['--load-address', '0x1000', 'SEG.EXE', 'SEG.MAP', 'SEG.TXT'], 0,
     'Flat profile of SEG.EXE (mz), SEG.MAP (map), SEG.TXT (raw)\n'
     'Samples: 4 total, 4 in the program, 0 outside\n'
     'Rate: unknown (counts are samples)\n\n'
     'rank  symbol     count  percent    cum %  bar\n'
     '   1  _TEXT          3    75.00    75.00  ####################\n', ''),
    (['-r', 'disasm', '_TEXT', '--load-address', '0x1000', 'SEG.EXE', 'SEG.MAP',
     'SEG.TXT'], 0,
     'Disassembly of _TEXT (0x10000-0x10040, 64 bytes, x86 16-bit real mode) from SEG.EXE\n'
     'Samples: 3 in the function, 75.00% of 4 total\n'
     '     count percent  address     bytes        instruction\n'
     '         .       .  1000:0000   90           nop\n'
     '         2   50.00  1000:0001   f0 5e        lock pop si\n'
     '         .       .  1000:0003   2e d7        cs xlatb\n'
     '         .       .  1000:0005   3e 55        ds push bp\n'
     '         .       .  1000:0007   d9 0d        (bad) .byte 0xd9, 0x0d\n'
     '         .       .  1000:0009   90           nop\n'
     '         .       .  1000:000A   26 c6        (bad) .byte 0x26, 0xc6\n'
     '         .       .  1000:000C   90           nop\n'
     '         .       .  1000:000D   8c b2 50 e8  (bad) .byte 0x8c, 0xb2, 0x50, 0xe8\n'
     '         .       .  1000:0011   9b           wait\n'
     '         1   25.00  1000:0012   dc e8        fsub st(0), st(0)\n'
     '         .       .  1000:0014   98           cbw\n'
     '         .       .  1000:0015   99           cwd\n'
     '         .       .  1000:0016   26 26 c6     (bad) .byte 0x26, 0x26, 0xc6\n', None),
    (['-v', '--list-symbols', 'SEG.EXE', 'SEG.MAP'], 0, None,
     'profcat: note: SEG.MAP: the map lists segments and no symbol: its 3 segments stand '
     'for the functions (a map with the publics names them)\n'),
    # its code segment is checked against the program's load image
    (['--list-symbols', 'SHORT.EXE', 'SEG.MAP'], 1, '',
     "profcat: the map's code segment _TEXT (0x0-0x40) is not inside the program's load image "
     "(0x0-0x20): the map is of another program or build: give the executable that wrote the "
     "capture, or --ignore-fit to report anyway\n"),
]


def segment_only(tmp):
    with open(os.path.join(tmp, 'SEG.EXE'), 'wb') as f:
        f.write(mz_image(SEG_CODE.ljust(0x40, b'\x90') + b'\0' * 0x10))
    with open(os.path.join(tmp, 'SHORT.EXE'), 'wb') as f:
        f.write(mz_image(b'\x90' * 0x20))
    with open(os.path.join(tmp, 'SEG.MAP'), 'w', newline='') as f:
        f.write(SEG_MAP)
    with open(os.path.join(tmp, 'SEG.TXT'), 'w') as f:
        f.write('1000:0001\n1000:0001\n1000:0012\n1004:0002\n')
    failed = 0
    for args, rc, out, err in SEG_CASES:
        if args[0] == '-r' and '--no-capstone' in sys.argv:
            print('skip (no Capstone)', ' '.join(args))
            continue
        p = subprocess.run([PROFCAT] + args, cwd=tmp, capture_output=True, text=True)
        got = p.stdout
        if args[0] == '-r' and out is not None:
            # the first instructions (the rest are the padding's nops)
            got = ''.join(got.splitlines(True)[:out.count('\n')])
        ok = p.returncode == rc and (out is None or got == out)
        if err is not None:
            ok = ok and (err in p.stderr if args[0] == '-v' else p.stderr == err)
        if not ok:
            failed += 1
            print('FAIL', args, p.returncode, repr(p.stdout), repr(p.stderr))
        else:
            print('ok', ' '.join(args))
    return failed


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
        failed += segment_only(tmp)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
