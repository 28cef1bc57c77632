"""The cases of the filters area (issue #24: --focus, --ignore, --hide in
every report and export): each is (name, directory, arguments, needs),
run as `profcat ARGS` in the directory; golden/NAME.txt holds its exact
output (gen_golden.py writes them, check_filters.py compares them).

needs: "" (ELF), "dwarf" (libdw), "disasm" (Capstone and libdw).
"""
import os
import re

ROOT = os.environ.get("PC_SOURCE_ROOT") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")
CG_DIR = os.path.join(ROOT, "tests", "unix", "fixtures", "x86_64-nopie")
SRC_DIR = os.path.join(ROOT, "tests", "source", "fixtures")
CG = ["callgraph", "gmon.out"]
SRC = ["lines-O2", "gmon.out"]

# one filter of each kind, and all three at once; on the gcc -pg fixture
# (main -> tinies -> tiny_a/b/c, main -> hot, <cycle 1> of is_odd and
# is_even, fib)
CG_FILTERS = {
    "focus": ["--focus", "tiny_[ab]|hot"],
    "ignore": ["--ignore", "^tiny_"],
    "hide": ["--hide", "tinies"],
    "all": ["--focus", "^main$", "--ignore", "tiny_c", "--hide", "tinies|is_even"],
}
# on the DWARF fixture (main, integrate, checksum, mix inlined)
SRC_FILTERS = {
    "focus": ["--focus", "checksum"],
    "ignore": ["--ignore", "^main$"],
    "hide": ["--hide", "integrate"],
}

CG_REPORTS = {
    "flat": [],
    "flat-csv": ["-F", "csv"],
    "flat-json": ["-F", "json"],
    "symbols": ["-r", "symbols"],
    "barchart": ["-r", "barchart"],
    "regions": ["-r", "regions"],
    "regions-json": ["-r", "regions", "-F", "json"],
    "intervals": ["-r", "intervals", "-O", "interval=0x401220-0x4012a0",
                  "-O", "intervals=8"],
    "callgraph": ["-r", "callgraph"],
    "callgraph-json": ["-r", "callgraph", "-F", "json"],
    "arcs": ["-r", "arcs"],
    "folded": ["-e", "folded"],
    "callgrind": ["-e", "callgrind"],
    "speedscope": ["-e", "speedscope"],
    "svg": ["-e", "svg"],
}
SRC_REPORTS = {
    "source": (["-r", "source", "--source-path", "../programs"], "dwarf"),
    "source-json": (["-r", "source", "-F", "json"], "dwarf"),
    "locations": (["-r", "locations"], "dwarf"),
    "disasm": (["-r", "disasm", "-O", "disasm-select=checksum"], "disasm"),
}


def cases():
    out = []
    for r, args in CG_REPORTS.items():
        for f, fargs in CG_FILTERS.items():
            out.append(("%s-%s" % (r, f), CG_DIR, args + fargs + CG, ""))
    for r, (args, need) in SRC_REPORTS.items():
        for f, fargs in SRC_FILTERS.items():
            out.append(("%s-%s" % (r, f), SRC_DIR, args + fargs + SRC, need))
    # a function the filters drop: its instructions with counts 0
    out.append(("disasm-dropped", SRC_DIR, ["-r", "disasm", "-O", "disasm-select=checksum",
                                           "--ignore", "checksum"] + SRC, "disasm"))
    return out


# The exports name their creator, "profcore VERSION": a golden holds
# "profcore @VERSION@" there, so that the version stays written in
# meson.build only
with open(os.path.join(ROOT, "meson.build"), encoding="utf-8") as _f:
    VERSION = re.search(r"\bproject\([^)]*?\bversion\s*:\s*'([^']+)'",
                        _f.read()).group(1)
_CREATOR = b"profcore " + VERSION.encode()
_PLACEHOLDER = b"profcore @VERSION@"


def to_golden(output):
    """profcat's output (bytes) as a golden holds it."""
    return output.replace(_CREATOR, _PLACEHOLDER)


def from_golden(golden):
    """A golden's bytes as profcat prints them."""
    return golden.replace(_PLACEHOLDER, _CREATOR)
