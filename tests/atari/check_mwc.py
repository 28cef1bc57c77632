#!/usr/bin/env python3
"""Mark Williams C symbol tables in GEMDOS programs (gemdos loader).

Usage: check_mwc.py synth|errors|real
  synth   the programs of gen_mwc.py (tests/atari/mwc/): every placement,
          exact symbol lists and notes; the 7-record table that is also
          11 DRI slots
  errors  tables that fit neither DRI nor MWC, damaged MWC tables
  real    the real MWC n.out files of shared/fixtures/mwc (Z8001
          Coherent: slibc.a 243 records, scrts0.o 8, the kernel 497): their
          records put into programs in both placements at test time, and
          profcat's listing compared with a port of MWC's own nm (nm.c
          r1.3: readsym, csymbol, writesym)
Environment: PROFCAT, PC_SOURCE_ROOT.  Exit 0 pass, 1 fail, 77 skip.
"""
import os
import struct
import sys
import tempfile

ROOT = os.environ.get("PC_SOURCE_ROOT",
                      os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(ROOT, "tests", "atari")
MWC = os.path.join(HERE, "mwc")
SHARED = os.path.join(ROOT, "..", "shared", "fixtures", "mwc")
sys.path.insert(0, HERE)
import gen_mwc as g  # noqa: E402

# the helpers (and failure list) of the other Atari checks
from check_atari import LETTER, check, failures, run  # noqa: E402


def symbols(path):
    rc, out, err = run(["--list-symbols", "-F", "csv", path])
    if rc != 0:
        raise SystemExit("profcat failed on %s: %s" % (path, err))
    res = []
    for line in out.splitlines()[1:]:
        name, seg, addr, size, kind = line.rsplit(",", 4)
        res.append((name, LETTER[kind], int(addr, 16)))
    return res


SYNTH = {
    "mwc3.prg": [
        ("start", "T", 0x0), ("main", "T", 0x10), ("retz", "T", 0x2E),
        ("_exit", "T", 0x30), ("exit", "T", 0x40), ("retz", "T", 0x4E),
        ("averylongname_xy", "T", 0x50), ("dlcmp", "T", 0x60),
        ("environ", "D", 0x80), ("errno", "D", 0x88), ("buf", "B", 0x90),
        ("count", "B", 0xA0), ("NSIG", "A", 32), ("dbg", "O", 4)],
}
SEVEN = [("start", "T", 0x0), ("main", "T", 0x10), ("sleepy", "T", 0x20),
         ("dopey", "T", 0x40), ("exit", "T", 0x60), ("environ", "D", 0x84),
         ("buf", "B", 0x98)]
SYNTH["mwc3_slen.prg"] = SEVEN
SYNTH["mwc2.prg"] = SEVEN
SYNTH["mwc2_hdr.prg"] = SEVEN + [("grumpy", "T", 0x70)]

NOTES = {
    "mwc3.prg": [
        "warning: {p}: 2 Mark Williams C undefined-reference or common "
        "(L_REF) record(s) skipped: they have no address",
        "note: {p}: Mark Williams C n.out header at 0xb3 after the "
        "relocation table (l_flag 0420 LF_FAKE, l_machine 10 M_68000): 16 "
        "symbol records at 0xe9; n.out sizes TEXT 0x80, DATA 0x10, BSS 0x20 "
        "(as in the GEMDOS header)",
        "note: {p}: GEMDOS executable, Mark Williams C symbols: TEXT 0x80, "
        "DATA 0x10, BSS 0x20 bytes; 14 symbols, 3 relocations"],
    "mwc3_slen.prg": [
        "note: {p}: Mark Williams C n.out header at 0xbd after the "
        "relocation table (l_flag 0420 LF_FAKE, l_machine 10 M_68000): 7 "
        "symbol records at 0xed; n.out sizes TEXT 0x80, DATA 0x10, BSS 0x20 "
        "(as in the GEMDOS header); ph_slen's bytes are not read (MWC's "
        "tools skip them)"],
    "mwc2.prg": [
        "note: {p}: Mark Williams C symbol records in the DRI symbol area "
        "(MWC 2.x layout): 7 records at 0xac"],
    "mwc2_hdr.prg": [
        "note: {p}: Mark Williams C symbol records in the DRI symbol area "
        "(MWC 2.x layout) after a 48-byte n.out header: 8 records at 0xdc"],
}


def t_synth():
    check(g.synth() == {n: open(os.path.join(MWC, n), "rb").read()
                        for n in g.synth()},
          "tests/atari/mwc differs from what gen_mwc.py makes")
    for name, want in SYNTH.items():
        path = os.path.join(MWC, name)
        got = symbols(path)
        check(got == want, "%s:\n  got  %r\n  want %r" % (name, got, want))
        rc, out, err = run(["-v", "--list-symbols", path])
        lines = err.splitlines()
        for n in NOTES.get(name, []):
            n = "profcat: " + n.format(p=path)
            check(n in lines, "%s: missing %r in\n%s" % (name, n, err))
    # the sizes that fool a 14-byte-slot reader
    check(os.path.getsize(os.path.join(MWC, "mwc2.prg")) > 0 and
          (7 * 22) % 14 == 0 and (48 + 8 * 22) % 14 == 0, "trap sizes")
    # one name per address and attribution: a PC in retz's second copy
    # goes to the local retz at 0x4e, main's range ends at retz 0x2e
    with tempfile.TemporaryDirectory() as tmp:
        pcs = os.path.join(tmp, "pcs.txt")
        with open(pcs, "w") as f:
            f.write("0x10\n0x12\n0x2e\n0x4e\n0x50\n0x50\n0x84\n")
        rc, out, err = run(["-F", "csv", os.path.join(MWC, "mwc3.prg"), pcs])
        rows = [",".join(l.split(",")[1:3] + l.split(",")[-1:])
                for l in out.splitlines()[1:]]
        check(rc == 0 and rows == [
            "averylongname_xy,2,0x50", "main,2,0x10", "retz,1,0x2e",
            "retz,1,0x4e", "[total],7,", "[in program],7,",
            "[unattributed],1,", "[outside],0,"], "mwc3 flat: %r %s" % (rows, err))
    return 0


ERRORS = [
    ("mwc_bad_hdr.prg", "179: a Mark Williams C n.out header (07 01) follows "
     "the relocation table but is inconsistent: l_flag 00 lacks LF_32 (020); "
     "l_ssize[L_SYM] 23 is not a multiple of the 22-byte record"),
    ("mwc_bad_name.prg", "172: symbol table (154 bytes at 0xac) is a damaged "
     "Mark Williams C table (6 of 7 records consistent; record 3 at 0xee "
     "(type 020): name has bytes after its NUL padding); not read as DRI"),
    ("mwc_bad_rec.prg", "172: symbol table (66 bytes at 0xac) is a damaged "
     "Mark Williams C table (2 of 3 records consistent; record 2 at 0xd8 "
     "(type 011064): type is not a segment code 0-10 with or without the "
     "global bit 020); not read as DRI"),
    ("mwc3_stripped.prg", "215: Mark Williams C program has no symbol table "
     "(l_ssize[L_SYM] of the n.out header at 0xb3 is 0; stripped); relink "
     "without -s"),
]


def t_errors():
    for name, msg in ERRORS:
        path = os.path.join(MWC, name)
        rc, out, err = run(["--list-symbols", path])
        want = "profcat: %s:%s\n" % (path, msg)
        check(rc == 1 and out == "" and err == want,
              "%s: exit %d\n  got  %r\n  want %r" % (name, rc, err, want))
    with tempfile.TemporaryDirectory() as tmp:
        # fits neither: 30 bytes (not 14 n, 22 n, 48 + 22 n)
        path = os.path.join(tmp, "odd.prg")
        with open(path, "wb") as f:
            f.write(g.program_inside(g.text(0x10), b"", 0, b"\x41" * 30, []))
        rc, out, err = run(["--list-symbols", path])
        check(err == "profcat: %s:14: symbol table (30 bytes at 0x2c) fits "
              "neither DRI (30 is not a multiple of the 14-byte slot) nor "
              "Mark Williams C (30 is neither a multiple of the 22-byte record "
              "nor 48 bytes more than one)\n" % path and rc == 1,
              "odd.prg: %r" % err)
        # a 22-byte multiple of garbage that is no 14-byte multiple
        path = os.path.join(tmp, "garbage.prg")
        with open(path, "wb") as f:
            f.write(g.program_inside(g.text(0x10), b"", 0,
                                     bytes(range(200, 244)), []))
        rc, out, err = run(["--list-symbols", path])
        check(err == "profcat: %s:14: symbol table (44 bytes at 0x2c) fits "
              "neither DRI (44 is not a multiple of the 14-byte slot) nor "
              "Mark Williams C (record 0 at 0x2c (type 0154730): empty or "
              "unprintable name)\n" % path and rc == 1, "garbage.prg: %r" % err)
        # only the 48-byte header
        path = os.path.join(tmp, "empty.prg")
        with open(path, "wb") as f:
            f.write(g.program_inside(g.text(0x10), b"", 0, g.nout_header(
                [0x10, 0, 0, 0, 0, 0, 0, 0, 0]), []))
        rc, out, err = run(["--list-symbols", path])
        check(err == "profcat: %s:14: the symbol area holds only a 48-byte "
              "Mark Williams C n.out header (07 01) and no symbol records\n"
              % path and rc == 1, "empty.prg: %r" % err)
    return 0


# ---- MWC's nm (nm.c revision 1.3), ported for the reference listing ----
NM_GN = ["SI", "PI", "BI", "SD", "PD", "BD", " D", "??", "??", " A", " C",
         "??"]


def nm_records(table):
    """readsym(): (16-byte id, type, value) in file order."""
    out = []
    for i in range(0, len(table), 22):
        r = table[i:i + 22]
        t = struct.unpack_from("<H", r, 16)[0]
        hi, lo = struct.unpack_from("<HH", r, 18)
        out.append((r[:16], t, (hi << 16) | lo))
    return out


def csymbol(ident):
    """nm's C-name test: (is C-style, shown name)."""
    s = ident.rstrip(b"\0")
    if s and s[-1:] == b"_":
        return True, s[:-1]
    return len(s) >= 16, s


def reference(table):
    """What profcat must list: every record nm -a prints, except L_REF
    (undefined: nm's U; common: its value is a size), with the name as nm
    (without -a) shows a C name; kinds by nm's type letters."""
    kinds = {0: "T", 1: "T", 2: "B", 3: "D", 4: "D", 5: "B", 6: "O", 9: "A"}
    out, nm_default = [], set()
    for ident, t, v in nm_records(table):
        seg = t & ~0o20
        c, shown = csymbol(ident)
        if seg == 10:
            continue
        name = (shown if c else ident.rstrip(b"\0")).decode("ascii")
        out.append((name, kinds.get(seg, "O"), v))
        if c:
            nm_default.add((shown.decode(), v))
    return out, nm_default


def real_file(name):
    b = open(os.path.join(SHARED, name), "rb").read()
    sizes = [(struct.unpack_from("<H", b, 8 + 4 * i)[0] << 16) |
             struct.unpack_from("<H", b, 10 + 4 * i)[0] for i in range(9)]
    tbase = struct.unpack_from("<H", b, 6)[0]
    symoff = tbase + sizes[0] + sizes[1] + sizes[3] + sizes[4] + sizes[6]
    table = b[symoff:symoff + sizes[7]]
    rel = b[symoff + sizes[7]:symoff + sizes[7] + sizes[8]]
    check(symoff + sizes[7] + sizes[8] == len(b), "%s: layout" % name)
    text = b[tbase:tbase + sizes[0]]
    if len(text) % 2:
        text += b"\0"
    return b[:48], table, rel, text


def t_real():
    if not os.path.isdir(SHARED):
        print("SKIP: %s (the shared fixtures) is not beside the clone" % SHARED)
        return 77
    counts = {"c900_slibc.a": 243, "c900_scrts0.o": 8,
              "c900_coherent.nout": 497}
    with tempfile.TemporaryDirectory() as tmp:
        for name, n in counts.items():
            hdr, table, rel, text = real_file(name)
            check(len(table) == 22 * n, "%s: %d records" % (name, n))
            want, nm_default = reference(table)
            progs = {
                # MWC 3.x: the real header, SYM and REL after the fixups
                "appended": g.program_appended(text, b"", 0, table, [],
                                               rel=rel, header=hdr),
                # earlier MWC: the records in ph_slen, bare and after the
                # real 48-byte header
                "inside": g.program_inside(text, b"", 0, table, []),
                "inside+header": g.program_inside(text, b"", 0, table, [],
                                                  prefix=hdr),
            }
            for how, data in progs.items():
                path = os.path.join(tmp, "%s.%s.prg" % (name, how))
                with open(path, "wb") as f:
                    f.write(data)
                got = symbols(path)
                check(got == want, "%s %s: %d symbols, want %d; first "
                      "differences %r" % (name, how, len(got), len(want),
                                          [x for x in zip(got, want)
                                           if x[0] != x[1]][:3]))
                shown = {(n_, a) for n_, k, a in got}
                check(nm_default <= shown, "%s %s: nm's C names missing: %r"
                      % (name, how, sorted(nm_default - shown)[:5]))
        # facts of shared/fixtures/mwc/SOURCES.md, on the listing
        hdr, table, rel, text = real_file("c900_slibc.a")
        path = os.path.join(tmp, "slibc.prg")
        with open(path, "wb") as f:
            f.write(g.program_inside(text, b"", 0, table, []))
        got = symbols(path)
        check(got[:4] == [("umask", "T", 0x01000002), ("times", "T", 0x01000008),
                          ("stime", "T", 0x0100000E),
                          ("realloc", "T", 0x01000014)], "slibc: %r" % got[:4])
        check(len(got) == 243, "slibc: %d symbols" % len(got))
        rc, out, err = run(["-v", "--list-symbols", path])
        check(("profcat: warning: %s: 240 Mark Williams C symbol value(s) lie "
               "beyond their segment (TEXT 0x7574, DATA 0x0, BSS 0x0 bytes); "
               "was the program linked with ld -R?" % path) in err.splitlines(),
              "slibc: Z8001 segmented values warning: %s" % err)
        hdr, table, rel, text = real_file("c900_coherent.nout")
        check(len(table) % 14 == 0, "the kernel's 497 records are 781 DRI slots")
    return 0


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    fn = {"synth": t_synth, "errors": t_errors, "real": t_real}.get(what)
    if not fn:
        print(__doc__)
        return 2
    rc = fn()
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
