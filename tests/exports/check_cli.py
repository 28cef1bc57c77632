#!/usr/bin/env python3
"""profcat's export options: --list-exports, --export errors, -o.

Exact output and exit codes; the exported bytes equal the library's
(make_api_profiles writes them through pc_profile_export_file)."""
import os
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
D = os.path.join(ROOT, "tests", "unix", "fixtures", "x86_64-nopie")
ELF, GMON = os.path.join(D, "callgraph"), os.path.join(D, "gmon.out")
failures = []


def run(*args):
    r = subprocess.run([PROFCAT] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def check(got, want, what):
    if got == want:
        print("ok   " + what)
    else:
        failures.append(what)
        print("FAIL %s:\n got  %r\n want %r" % (what, got, want))


check(run("--list-exports"), (0,
      "pprof        .pb.gz            pprof profile.proto, gzip-compressed "
      "(go tool pprof, speedscope)\n"
      "speedscope   .speedscope.json  speedscope JSON (sampled profile with "
      "shared frames)\n"
      "folded       .folded           folded stacks (FlameGraph, inferno, "
      "speedscope)\n"
      "callgrind    .callgrind        callgrind format (KCachegrind, "
      "callgrind_annotate)\n"
      "gmon         .gmon.out         GNU tagged gmon.out (gprof)\n"
      "svg          .svg              flame graph SVG (static, tooltips; like "
      "flamegraph.pl)\n", ""),
      "--list-exports")
check(run("--export", "nope", ELF, GMON), (2, "", "profcat: no export named "
      "'nope' (profcat --list-exports lists them)\n"), "unknown export")
check(run("--export=folded", "--granularity", "file", ELF, GMON),
      (2, "", "profcat: bad value 'file' for option 'granularity' of export "
       "folded; expected one of: function, symbol, line, address\n"),
      "bad granularity")
check(run("--export"), (2, "", "profcat: option --export needs a value\n"),
      "--export without a value")
check(run("-e", "pprof", "-O", "compress=maybe", ELF, GMON),
      (2, "", "profcat: bad value 'maybe' for option 'compress' of export "
       "pprof; expected one of: 0, 1, no, yes\n"),
      "bad compress value")
# the folded stacks of the gcc -pg fixture: main calls hot and tinies
# (which calls tiny_a/b/c) and is_even, in a cycle with is_odd: gprof's
# <cycle 1>, entered from main, holds is_odd's samples (gprof -q: the
# cycle's children time is all is_odd's)
want = ("main;<cycle 1>;is_odd 2\nmain;hot 264\nmain;tinies;tiny_a 33\n"
        "main;tinies;tiny_b 36\nmain;tinies;tiny_c 29\nmain;tinies 2\n")
check(run("--export", "folded", ELF, GMON), (0, want, ""), "folded to stdout")
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "x.folded")
    check(run("--export", "folded", "-o", out, GMON, ELF), (0, "", ""),
          "folded to -o FILE")
    with open(out) as f:
        check(f.read(), want, "-o FILE content")
    check(sorted(os.listdir(tmp)), ["x.folded"], "no temporary file left")
    # a failed export leaves nothing behind
    bad = os.path.join(tmp, "seg.gmon")
    mpw = os.path.join(ROOT, "tests", "callgraph", "fixtures")
    rc, o, e = run("--export", "gmon", "-o", bad,
                   os.path.join(mpw, "example.SYM"),
                   os.path.join(mpw, "example.proff"))
    check((rc, o, os.path.exists(bad)), (1, "", False),
          "refused gmon export writes no file")
print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
