#!/usr/bin/env python3
"""Names from input data in every text sink (docs/development.md, "Hostile input"): one
rule, exact output.  Control bytes, C1 controls and invalid UTF-8 are shown
as \\xNN in text, CSV, JSON, speedscope, folded and in error messages;
valid UTF-8 (café) and a backslash are kept; CSV quotes and JSON escapes
apply to that shown form.  Every JSON document parses as UTF-8 (Python's
json), the speedscope export passes the schema checker when it is set up
(tests/exports/setup-checkers.sh), and no output byte is ESC, BEL or
invalid UTF-8.

The input is an `nm` listing (map loader, nm dialect) written here with
the names an ELF .strtab or a Hatari label can hold, and a raw text dump.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

WINDOWS = os.environ.get("PC_CROSS_LEG") == "mingw"

PROFCAT = os.environ["PROFCAT"]
CHECKERS = os.environ.get("PC_FORMAT_CHECKERS") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache"), "profcore", "format-checkers")

NM = (b"0000000000001000 T plain\n"
      b"0000000000001010 T esc\x1b[31mred\x07\n"
      b"0000000000001020 T bad\xfe\xffx\n"
      b"0000000000001030 T caf\xc3\xa9\n"
      b"0000000000001040 T q,\"x\"\\y\n"
      b"0000000000001050 T c1\xc2\x9bz\n"
      b"0000000000001060 T zend\n")
PCS = b"0x1004\n0x1004\n0x1012\n0x1024\n0x1034\n0x1044\n0x1044\n0x1054\n"

TEXT = """Flat profile of names.nm (map), pcs.txt (raw)
Samples: 8 total, 8 in the program, 0 outside
Rate: unknown (counts are samples)

rank  symbol                 count  percent    cum %  bar
   1  plain                      2    25.00    25.00  ####################
   2  q,"x"\\y                    2    25.00    50.00  ####################
   3  bad\\xfe\\xffx               1    12.50    62.50  ##########
   4  c1\\xc2\\x9bz                1    12.50    75.00  ##########
   5  café                       1    12.50    87.50  ##########
   6  esc\\x1b[31mred\\x07         1    12.50   100.00  ##########
"""

CSV = """rank,symbol,count,percent,cum_percent,self_seconds,calls,self_calls,address
1,plain,2,25.0000,25.0000,,0,0,0x1000
2,"q,""x""\\y",2,25.0000,50.0000,,0,0,0x1040
3,bad\\xfe\\xffx,1,12.5000,62.5000,,0,0,0x1020
4,c1\\xc2\\x9bz,1,12.5000,75.0000,,0,0,0x1050
5,café,1,12.5000,87.5000,,0,0,0x1030
6,esc\\x1b[31mred\\x07,1,12.5000,100.0000,,0,0,0x1010
,[total],8,100.0000,,,,,
,[in program],8,100.0000,,,,,
,[unattributed],0,0.0000,,,,,
,[outside],0,0.0000,,,,,
"""

SHOWN = ["plain", 'q,"x"\\y', "bad\\xfe\\xffx", "c1\\xc2\\x9bz", "café",
         "esc\\x1b[31mred\\x07"]

JSON_ROWS = [
    '    {"rank": 2, "symbol": "q,\\"x\\"\\\\y", "address": 4160',
    '    {"rank": 3, "symbol": "bad\\\\xfe\\\\xffx", "address": 4128',
    '    {"rank": 5, "symbol": "café", "address": 4144',
    '    {"rank": 6, "symbol": "esc\\\\x1b[31mred\\\\x07", "address": 4112',
]

SPEEDSCOPE_FRAMES = """"shared":{"frames":[
{"name":"plain"},
{"name":"esc\\\\x1b[31mred\\\\x07"},
{"name":"bad\\\\xfe\\\\xffx"},
{"name":"café"},
{"name":"q,\\"x\\"\\\\y"},
{"name":"c1\\\\xc2\\\\x9bz"}]},
"""

FOLDED = """plain 2
esc\\x1b[31mred\\x07 1
bad\\xfe\\xffx 1
café 1
q,"x"\\y 2
c1\\xc2\\x9bz 1
"""

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def clean(label, data):
    """No ESC/BEL/C1, valid UTF-8."""
    try:
        s = data.decode("utf-8")
    except UnicodeDecodeError as e:
        check(False, label + ": not UTF-8: %s" % e)
        return
    bad = [c for c in s if (ord(c) < 0x20 and c not in "\n\f\t") or
           0x7f <= ord(c) < 0xa0]
    check(not bad, label + ": no control characters (found %r)" % bad[:3])


def run(tmp, *args):
    r = subprocess.run([PROFCAT] + list(args), cwd=tmp,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout, r.stderr


def main():
    tmp = tempfile.mkdtemp(prefix="pc-escape-")
    try:
        with open(os.path.join(tmp, "names.nm"), "wb") as f:
            f.write(NM)
        with open(os.path.join(tmp, "pcs.txt"), "wb") as f:
            f.write(PCS)
        ins = ["pcs.txt", "names.nm"]

        rc, out, err = run(tmp, *ins)
        check(rc == 0 and err == b"", "text: exit 0, quiet")
        check(out.decode("utf-8") == TEXT, "text: exact report")
        clean("text", out)

        rc, out, err = run(tmp, "-F", "csv", *ins)
        check(rc == 0 and out.decode("utf-8") == CSV, "csv: exact report")
        clean("csv", out)

        rc, out, err = run(tmp, "-F", "json", *ins)
        clean("json", out)
        doc = json.loads(out.decode("utf-8"))
        check([r["symbol"] for r in doc["rows"]] == SHOWN,
              "json: rows parse to the shown names")
        text = out.decode("utf-8")
        for row in JSON_ROWS:
            check(row in text, "json: exact row " + row.strip()[:40])

        rc, out, err = run(tmp, "-e", "speedscope", *ins)
        clean("speedscope", out)
        text = out.decode("utf-8")
        check(SPEEDSCOPE_FRAMES in text, "speedscope: exact frames")
        doc = json.loads(text)
        check(sorted(f["name"] for f in doc["shared"]["frames"]) ==
              sorted(SHOWN), "speedscope: frames parse to the shown names")
        node = shutil.which("node")
        if node and os.path.isdir(os.path.join(CHECKERS, "node_modules",
                                               "ajv")):
            path = os.path.join(tmp, "x.speedscope.json")
            with open(path, "wb") as f:
                f.write(out)
            r = subprocess.run([node, os.path.join(
                CHECKERS, "check_speedscope.mjs"), path],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            msg = r.stdout.decode(errors="replace").strip()
            check(msg.startswith("OK"), "speedscope: schema checker: " + msg)
        else:
            print("skip speedscope schema checker (not set up: "
                  "tests/exports/setup-checkers.sh)")

        rc, out, err = run(tmp, "-e", "folded", *ins)
        check(out.decode("utf-8") == FOLDED, "folded: exact export")

        # the call graph needs arcs: one GNU gmon.out arc record (64-bit
        # pcs, the only width that fits) from plain into esc...
        with open(os.path.join(tmp, "arcs.gmon"), "wb") as f:
            f.write(b"gmon" + struct.pack("<I", 1) + bytes(12) + b"\x01" +
                    struct.pack("<QQI", 0x1004, 0x1010, 3))
        rc, out, err = run(tmp, "-r", "callgraph", *ins, "arcs.gmon")
        clean("callgraph report", out)
        check(rc == 0 and "esc\\x1b[31mred\\x07 [3]" in out.decode("utf-8"),
              "callgraph report: shown name")

        rc, out, err = run(tmp, "-r", "arcs", *ins, "arcs.gmon")
        clean("arcs report", out)
        check(rc == 0 and out.decode("utf-8").splitlines()[1] ==
              "0x1004         plain                  0x1010         "
              "esc\\x1b[31mred\\x07              3            0            0",
              "arcs report: shown name, padded as shown (%r)" % out[:200])

        # --list-symbols: the text table's name column (was raw: ESC, BEL
        # and C1 reached the terminal)
        rc, out, err = run(tmp, "--list-symbols", "names.nm")
        clean("--list-symbols", out)
        check(rc == 0 and out.decode("utf-8").splitlines()[2] ==
              "-        0x0000000000001010 0          text  esc\\x1b[31mred\\x07",
              "--list-symbols: shown name (%r)" % out[:300])

        # every report, export and style, in every output format, with the
        # hostile names: no byte of any output is a control or invalid
        # UTF-8 (binary exports: the shown names inside are checked by
        # their own tests)
        reports = [l.split()[0] for l in run(tmp, "--list-reports")[1]
                   .decode().splitlines() if l.strip()]
        exports = [l.split()[0] for l in run(tmp, "--list-exports")[1]
                   .decode().splitlines() if l.strip()]
        sel = {"intervals": ["-O", "interval=plain", "-O", "intervals=2"],
               "source": ["-O", "source-select=plain"],
               "disasm": ["-O", "disasm-select=plain"]}
        for r in reports:
            for fmt in ("text", "csv", "json"):
                rc, out, err = run(tmp, "-r", r, "-F", fmt, *sel.get(r, []),
                                   *ins, "arcs.gmon")
                if rc == 2 and b"output format" in err:
                    continue  # a report without that format
                clean("-r %s -F %s" % (r, fmt), out)
                clean("-r %s -F %s (stderr)" % (r, fmt), err)
        for style in ("gprof", "atari", "ddj", "prohst"):
            rc, out, err = run(tmp, "--style", style, *ins, "arcs.gmon")
            clean("--style " + style, out)
            clean("--style %s (stderr)" % style, err)
        for e in exports:
            if e in ("pprof", "gmon"):
                continue
            rc, out, err = run(tmp, "-e", e, *ins, "arcs.gmon")
            clean("-e " + e, out)
            clean("-e %s (stderr)" % e, err)

        # DWARF names: a source file named with ESC and C1 bytes (gcc's
        # #line writes any name into the line table) in the headers and
        # rows of -r source and -r locations
        if shutil.which("gcc") and shutil.which("nm") and not WINDOWS and \
                os.environ.get("PC_HAVE_DWARF", "1") == "1":
            with open(os.path.join(tmp, "evil.c"), "wb") as f:
                f.write(b'#line 1 "ev\\033]0;t\\007il\\302\\233.c"\n'
                        b"int work(int n) { int s = 0; for (int i = 0; i < n; i++)"
                        b" s += i; return s; }\nint main(void) { return work(3); }\n")
            r = subprocess.run(["gcc", "-g", "-O0", "-o", "evil", "evil.c"],
                               cwd=tmp, capture_output=True)
            nm = subprocess.run(["nm", "evil"], cwd=tmp, capture_output=True,
                                text=True).stdout
            addr = [l.split()[0] for l in nm.splitlines() if l.endswith(" T work")]
            if r.returncode == 0 and addr:
                with open(os.path.join(tmp, "evil.pcs"), "w") as f:
                    f.write("0x%x\n" % int(addr[0], 16))
                shown = "ev\\x1b]0;t\\x07il\\xc2\\x9b.c"
                for args in (["-r", "locations"], ["-r", "source"],
                             ["-r", "source", "-O", "source-select=work"]):
                    rc, out, err = run(tmp, *args, "evil", "-f", "raw",
                                       "-O", "radix=16", "evil.pcs")
                    clean(" ".join(args), out)
                    clean(" ".join(args) + " (stderr)", err)
                    check(rc == 0 and shown in out.decode("utf-8"),
                          "%s: the DWARF file name shown escaped (%r)"
                          % (" ".join(args), out[:400]))
            else:
                print("skip DWARF names (gcc could not build the program)")
        else:
            print("skip DWARF names (no gcc, nm or DWARF support)")

        # error messages: a file name with an escape sequence
        # (Windows refuses control characters in file names: the open
        # fails as invalid, not as missing)
        rc, out, err = run(tmp, "no\x1b]0;title\x07such.txt")
        check(rc == 3 and err ==
              b"profcat: no\\x1b]0;title\\x07such.txt: " +
              (b"cannot read file" if WINDOWS else b"no such file") + b"\n",
              "error line: file name shown escaped (%r)" % err)
    finally:
        shutil.rmtree(tmp)
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)


main()
