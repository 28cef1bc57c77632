#!/usr/bin/env python3
"""Third-party gcc -pg pairs (tests/unix/fixtures/realworld, SOURCES.md):
profcat's gprof styles against GNU gprof's text for the same files, byte
for byte, and the pair's fit both ways.

  check_realworld.py               demangled and --no-demangle outputs
  check_realworld.py --no-demangle only the --no-demangle outputs (builds
                                   without libiberty)
"""
import os
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
RW = os.path.join(ROOT, "tests", "unix", "fixtures", "realworld")
failures = 0


def run(args):
    r = subprocess.run([PROFCAT] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return (r.returncode, r.stdout.decode("utf-8").replace("\r\n", "\n"),
            r.stderr.decode("utf-8").replace("\r\n", "\n"))


def check(label, args, want_rc, want_out=None, want_err=""):
    global failures
    rc, out, err = run(args)
    ok = rc == want_rc and err == want_err and (want_out is None or out == want_out)
    print("%s %s" % ("ok  " if ok else "FAIL", label))
    if not ok:
        failures += 1
        print("  rc %d (want %d)\n  stderr %r (want %r)" % (rc, want_rc, err, want_err))
        if want_out is not None and out != want_out:
            print("  stdout differs:\n%s" % out[:2000])


def text(*p):
    with open(os.path.join(RW, *p), encoding="utf-8") as f:
        return f.read()


def main():
    demangled = "--no-demangle" not in sys.argv[1:]
    d = os.path.join(RW, "bittactoe")
    app, gm = os.path.join(d, "app"), os.path.join(d, "gmon.out")
    # the pair fits: a plain report, nothing on stderr
    check("bittactoe: its own gmon.out fits", [app, gm], 0)
    styles = [("flat", ["--style", "gprof"], "p"),
              ("call graph", ["-r", "callgraph", "--style", "gprof"], "q")]
    for name, args, letter in styles:
        check("bittactoe: %s as gprof -b -%s --no-demangle" % (name, letter),
              ["--no-demangle"] + args + [app, gm], 0,
              text("bittactoe", "gprof-%s-nodemangle.txt" % letter))
        if demangled:
            check("bittactoe: %s as gprof -b -%s" % (name, letter),
                  args + [app, gm], 0, text("bittactoe", "gprof-%s.txt" % letter))
    # another program's capture (the bundled PIE test program's) does not fit
    other = os.path.join(ROOT, "tests", "unix", "fixtures", "x86_64-pie", "gmon.out")
    check("bittactoe: another program's gmon.out is refused", [app, other], 1,
          want_err="profcat: %s: the histogram covers 0x0-0x1438 but the code of "
          "app ends at 0x2381: the capture is from another program or build: "
          "give the executable that wrote the capture, or --ignore-fit to "
          "report anyway\n" % other)
    # nm of a MinGW i386 program lists its sections as local text symbols
    # (.text, .text.startup) among the functions; gprof, reading the .exe,
    # never takes them, and neither does the nm dialect (a listing written
    # here in GNU nm 2.40's layout)
    with tempfile.TemporaryDirectory() as tmp:
        nm = os.path.join(tmp, "pe.nm")
        with open(nm, "w", encoding="ascii", newline="\n") as f:
            f.write("00401000 t .text\n00401000 T _main\n00401020 t _helper\n"
                    "00401060 t .text.startup\n00401080 t _init.0\n"
                    "00403000 r .rdata\n")
        check("MinGW nm listing: section symbols are no functions",
              ["--list-symbols", "-F", "csv", nm], 0,
              "name,segment,address,size,kind\n_main,,0x401000,0,text\n"
              "_helper,,0x401020,0,text\n_init.0,,0x401080,0,text\n"
              ".rdata,,0x403000,0,data\n")
    return 1 if failures else 0


sys.exit(main())
