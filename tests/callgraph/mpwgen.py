#!/usr/bin/env python3
"""Writers for MPW .SYM (version 3.3) and Proff arc files, and the fixture
sets of tests/callgraph built with them.

    mpwgen.py OUTDIR      writes every fixture into OUTDIR

.SYM layout: research/dos-mpw-formats.md §4.3 (Apple "SYM File Format
3.4", GNU BFD xsym.[ch]); only the tables a profiler reads are filled
(RTE, MTE, CSNTE, NTE), the others are empty.  Proff layout: seed
mpw-proff-release-notes.txt (seven hex numbers per arc, the arc count
last).
"""
import os
import struct
import sys

PAGE = 256


class Module:
    def __init__(self, name, seg, offset, size, stmts, kind=3):
        self.name, self.seg, self.offset, self.size = name, seg, offset, size
        self.stmts = stmts      # statement offsets inside the module
        self.kind = kind        # 1 program, 3 procedure, 4 function, 2 unit

    def site(self, n, extra=2):
        """Address of statement n (1-based) plus extra bytes; n = 0: a
        module without statements, extra bytes past its entry."""
        if n == 0:
            return self.offset + extra
        return self.offset + self.stmts[n - 1] + extra


def build_sym(segments, modules, page=PAGE, version=b"3", file_change=True):
    """segments: [(number, name, size)], modules: [Module] (grouped by
    segment in the order given).  Returns the .SYM bytes."""
    # name table: index n is byte 2n; index 0 unused
    nte = bytearray(b"\0\0")
    name_ix = {}

    def name(s):
        if s not in name_ix:
            name_ix[s] = len(nte) // 2
            b = s.encode("mac_roman")
            nte.extend(bytes([len(b)]) + b)
            if len(nte) % 2:
                nte.append(0)
        return name_ix[s]

    seg_ix = {num: i + 1 for i, (num, _, _) in enumerate(segments)}
    rte = [bytes(18)]
    for num, nm, size in segments:
        mods = [i + 1 for i, m in enumerate(modules) if m.seg == num]
        first, last = (mods[0], mods[-1]) if mods else (0, 0)
        rte.append(b"CODE" + struct.pack(">HIHHI", num, name(nm), first,
                                          last, size))
    csnte = [bytes(8)]
    mte = [bytes(46)]
    for k, m in enumerate(modules, start=1):
        first = last = 0
        if m.stmts:
            if file_change:
                # a source-file change record before each module's run
                csnte.append(struct.pack(">HHI", 0xFFFE, 1, 0))
            first = len(csnte)
            for off in m.stmts:
                csnte.append(struct.pack(">HHI", k, off, 1))
            last = len(csnte) - 1
        ent = struct.pack(">HIIBBH", seg_ix[m.seg], m.offset, m.size, m.kind,
                          1, 0)
        ent += struct.pack(">HI", 0, 0) + struct.pack(">I", 0)   # fref, end
        ent += struct.pack(">IHIHH", name(m.name), 0, 0, 0, 0)
        ent += struct.pack(">II", first, last)
        assert len(ent) == 46
        mte.append(ent)
    csnte.append(struct.pack(">HHI", 0xFFFF, 0, 0))

    def paged(entries, size):
        per = page // size
        out = bytearray()
        for i in range(0, len(entries), per):
            chunk = b"".join(entries[i:i + per])
            out += chunk + bytes(page - len(chunk))
        return out

    tables = {}
    body = bytearray()
    next_page = 1
    for key, data in (("RTE", paged(rte, 18)), ("MTE", paged(mte, 46)),
                      ("CSNTE", paged(csnte, 8)),
                      ("NTE", bytes(nte) + bytes(-len(nte) % page))):
        pages = len(data) // page
        count = {"RTE": len(rte) - 1, "MTE": len(mte) - 1,
                 "CSNTE": len(csnte) - 1, "NTE": len(name_ix)}[key]
        tables[key] = (next_page, pages, count)
        body += data
        next_page += pages
    order = ["FRTE", "RTE", "MTE", "CMTE", "CVTE", "CSNTE", "CLTE", "CTTE",
             "TTE", "NTE", "TINFO", "FITE", "CONST"]
    hdr = bytearray(b"\x0bVersion 3." + version)
    hdr += bytes(32 - len(hdr))
    hdr += struct.pack(">HHHI", page, 0, 0, 0xA5A5A5A5)
    for t in order:
        hdr += struct.pack(">HHI", *tables.get(t, (0, 0, 0)))
    hdr += b"MPS APPL"
    assert len(hdr) == 154
    return bytes(hdr) + bytes(page - len(hdr)) + bytes(body)


def proff_text(arcs, eol="\n", sep="\t"):
    """arcs: [(cseg, coff, eseg, eoff, count, htime, ftime)]"""
    lines = [sep.join("%x" % v for v in a) for a in arcs]
    lines.append("%x" % len(arcs))
    return (eol.join(lines) + eol).encode("ascii")


# ---- fixture 1: the seed's PrintProff example ------------------------------
#
# The seed's report shows six procedures and, for each, its callers by call
# site with hierarchical (H) and flat (F) microseconds and call counts.  The
# arcs below are exactly those caller lines.  Segment numbers and names come
# from the seed's transition lines ("1/Main -> 3/TransSkel"): main,
# LogEvent and Background are in segment 1 (Main), SkelMain, DoEvent and
# DisplayText in 3 (TransSkel); DisplayString and DisplayChar call
# DisplayText without a transition, so they are in 3 as well.
#
# Invented (the seed does not show them): the callers of DisplayString and
# DisplayChar.  Without callers they would be roots of the run and their H
# would count twice in the run's total; they are given LogEvent as caller,
# with flat times of 200,000 and 150,000 µs, which fits inside LogEvent's
# H - F = 5,388,830 µs.

def seed_modules():
    def stmts(n):
        return [4 * i for i in range(n)]
    return [
        Module("%_MAIN", 1, 0x0000, 0x40, [], kind=1),
        Module("main", 1, 0x0040, 0x120, stmts(60)),
        Module("LogEvent", 1, 0x0160, 0x60, stmts(20)),
        Module("Background", 1, 0x01C0, 0x40, stmts(10)),
        Module("SkelMain", 3, 0x0000, 0x80, stmts(20)),
        Module("DoEvent", 3, 0x0080, 0x40, stmts(10)),
        Module("DisplayText", 3, 0x00C0, 0x40, stmts(10)),
        Module("DisplayString", 3, 0x0100, 0x20, stmts(4)),
        Module("DisplayChar", 3, 0x0120, 0x20, stmts(4)),
    ]


SEED_SEGMENTS = [(1, "Main", 0x200), (2, "Init", 0x100),
                 (3, "TransSkel", 0x140)]


def seed_arcs():
    m = {x.name: x for x in seed_modules()}

    def arc(caller, stmt, callee, count, h, f):
        c, e = m[caller], m[callee]
        return (c.seg, c.site(stmt), e.seg, e.offset, count, h, f)
    return [
        arc("%_MAIN", 0, "main", 1, 22103748, 185050),
        arc("main", 51, "SkelMain", 1, 21071898, 5754715),
        arc("SkelMain", 15, "DoEvent", 63, 5574969, 3168383),
        arc("SkelMain", 14, "LogEvent", 63, 5489880, 101050),
        arc("DisplayString", 1, "DisplayText", 120, 2601034, 2371566),
        arc("DisplayChar", 1, "DisplayText", 104, 1837651, 1651699),
        arc("main", 15, "DisplayText", 1, 107451, 104846),
        arc("SkelMain", 7, "Background", 226, 3823245, 785805),
        # invented callers (see above)
        arc("LogEvent", 9, "DisplayString", 40, 2601034 + 200000, 200000),
        arc("LogEvent", 12, "DisplayChar", 104, 1837651 + 150000, 150000),
    ]


# ---- fixture 2: the seed's example arc file, verbatim ----------------------
#
# The 14 lines of the release notes' example file (OCR fixed: Cyrillic
# "С"/"е" are c/e, "1 2 fdbc0 24ef0)" is 12fdbc0 24ef0), tab separated, CR
# line ends as MPW wrote them.  Its numbers do not belong to the PrintProff
# example.  The .SYM below places procedures so that every arc end falls in
# one: segment 4 has Recur at 0x10 (called from 4:a2 inside itself: self
# recursion) and Walker at 0x140.

SEED_FILE_LINES = """1\t64\t1\tc\t1\t12fdbc0\t24ef0
1\t134\t1\ta6\t1\t31db97\t9076a
1\t1de\t2\te\t1\t1bca7\te75
1\t270\t3\tc\td\t59076a4\t8ecad
1\t29c\t7\tc\t3\t2abe7\t464c
3\t50\t5\t10\t4\tb5a754\t8eca
3\t56\t5\t25a\t3\t37fa85c\t076a4
3\t5c\t1\t298\t3\td2568\t65b1
3\t4a\t4\t14a\t3\t1404055\t5b1b6
4\ta2\t4\t10\t40\t18ecad9\t9076
4\t15a\t7\tc\t3\t226bb\t1404
4\t182\t8\t50\t7\t464ca\t5a75
4\t1ec\t4\t10\t7\t65b1b6\t85c
4\t206\t7\t4c\t2\t90f9\t5a7
e
"""


def example_modules():
    s = [0, 8, 16, 24]
    return [
        Module("Main1", 1, 0x00C, 0x34, s),
        Module("Start", 1, 0x040, 0x66, s, kind=1),
        Module("Shell", 1, 0x0A6, 0x5A, s),
        Module("Loop", 1, 0x100, 0x198, s),
        Module("Tail", 1, 0x298, 0x68, s),
        Module("Init2", 2, 0x00E, 0x40, s),
        Module("Seg3A", 3, 0x00C, 0x74, s),
        Module("Recur", 4, 0x010, 0x130, s),
        Module("Walker", 4, 0x14A, 0xF6, s),
        Module("Seg5A", 5, 0x010, 0x24A, s),
        Module("Seg5B", 5, 0x25A, 0xA6, s),
        Module("Seg7A", 7, 0x00C, 0x40, s),
        Module("Seg7B", 7, 0x04C, 0x34, s),
        Module("Seg8A", 8, 0x050, 0x40, s),
    ]


EXAMPLE_SEGMENTS = [(1, "Main", 0x300), (2, "Init", 0x100),
                    (3, "Three", 0x100), (4, "Four", 0x300),
                    (5, "Five", 0x300), (7, "Seven", 0x100),
                    (8, "Eight", 0x100)]


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main(out):
    os.makedirs(out, exist_ok=True)
    write(os.path.join(out, "seed.SYM"),
          build_sym(SEED_SEGMENTS, seed_modules()))
    write(os.path.join(out, "seed.proff"), proff_text(seed_arcs()))
    write(os.path.join(out, "example.SYM"),
          build_sym(EXAMPLE_SEGMENTS, example_modules()))
    write(os.path.join(out, "example.proff"),
          SEED_FILE_LINES.replace("\n", "\r").encode("ascii"))


if __name__ == "__main__":
    main(sys.argv[1])
