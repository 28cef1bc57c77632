#!/usr/bin/env python3
"""The malformed-input corpus: every case of cases.tsv run as
`profcat -o OUT ARGS...` in files/, each in an empty temporary directory.

Per case: the exact exit status (never a signal), the exact one-line
error (FILE:OFFSET: what was expected), within the time limit; on failure
OUT does not exist and no temporary file is left beside it, on success OUT
exists and nothing is printed.  Also: -o naming an input is refused and
the input is unchanged; an existing OUT is untouched when a load fails;
gen.py reproduces files/ byte for byte; peak RSS of the children stays
small.

cases.tsv: FILE <tab> ARGS (space-separated, file names relative to
files/) <tab> EXIT <tab> STDERR LINE (empty for exit 0).

  test_malformed.py            run (PROFCAT and PC_SOURCE_ROOT from env;
                               PC_MALFORMED_WRAPPER runs profcat under a
                               wrapper, PC_MALFORMED_TIME_FACTOR scales the
                               1 s limit per case)
  test_malformed.py --record   rewrite the EXIT and STDERR columns from
                               the current profcat (review the diff!)
"""
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]
HERE = os.path.join(os.environ["PC_SOURCE_ROOT"], "tests", "hostile", "malformed")
FILES = os.path.join(HERE, "files")
CASES = os.path.join(HERE, "cases.tsv")
# seconds per case; a slower wrapper (valgrind) raises it
LIMIT = 1.0 * float(os.environ.get("PC_MALFORMED_TIME_FACTOR", "1"))
MAX_RSS_KIB = 256 * 1024
# e.g. "valgrind --error-exitcode=99 --leak-check=full --quiet": profcat runs
# under it (its messages on stderr then fail the case)
WRAPPER = shlex.split(os.environ.get("PC_MALFORMED_WRAPPER", ""))
PC = WRAPPER + [PROFCAT]

failures = []


def fail(label, why):
    failures.append("%s: %s" % (label, why))
    print("FAIL %s: %s" % (label, why))


def cpu_children():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run(args, tmp):
    """The run, and the CPU seconds it took (not the wall clock: on a
    loaded machine that measures the other processes too)."""
    out = os.path.join(tmp, "OUT")
    t0 = cpu_children()
    r = subprocess.run(PC + ["-o", out] + args, cwd=FILES, capture_output=True,
                       text=True, errors="replace", timeout=600 * LIMIT)
    return r, cpu_children() - t0, out


def load_cases():
    cases = []
    with open(CASES, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 4:
                sys.exit("cases.tsv:%d: expected 4 tab-separated columns" % n)
            cases.append((cols[0], cols[1].split(), int(cols[2]), cols[3]))
    return cases


def check_case(name, args, want_rc, want_err):
    label = "%s [%s]" % (name, " ".join(args))
    with tempfile.TemporaryDirectory() as tmp:
        r, dt, out = run(args, tmp)
        left = sorted(os.listdir(tmp))
    if r.returncode < 0:
        fail(label, "killed by signal %d" % -r.returncode)
        return
    want_stderr = want_err + "\n" if want_err else ""
    if r.returncode != want_rc or r.stderr != want_stderr:
        fail(label, "exit %d, stderr %r; expected exit %d, stderr %r"
             % (r.returncode, r.stderr, want_rc, want_stderr))
    if dt > LIMIT:
        fail(label, "took %.2f s CPU (limit %.2f s)" % (dt, LIMIT))
    want_left = ["OUT"] if want_rc == 0 else []
    if left != want_left:
        fail(label, "left %s in the output directory, expected %s" % (left, want_left))
    if not failures or not failures[-1].startswith(label):
        print("ok   %s: exit %d" % (label, r.returncode))


def check_output_over_input():
    """-o naming an input file: refused (exit 2), input unchanged."""
    with tempfile.TemporaryDirectory() as tmp:
        inp = os.path.join(tmp, "in.prf")
        shutil.copy(os.path.join(FILES, "prf-valid.prf"), inp)
        with open(inp, "rb") as f:
            before = f.read()
        for out in (inp, os.path.join(tmp, ".", "in.prf")):
            r = subprocess.run(PC + ["-o", out, inp], capture_output=True, text=True)
            with open(inp, "rb") as f:
                after = f.read()
            want = "profcat: %s: refusing to write the output over an input file\n" % out
            if r.returncode != 2 or r.stderr != want or after != before \
                    or sorted(os.listdir(tmp)) != ["in.prf"]:
                fail("-o over input " + out, "exit %d, stderr %r, input %s, dir %s"
                     % (r.returncode, r.stderr, "unchanged" if after == before else "CHANGED",
                        sorted(os.listdir(tmp))))
            else:
                print("ok   -o over input %s: refused" % out)


def check_existing_output_kept():
    """A failed load leaves an existing OUT exactly as it was."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "OUT")
        with open(out, "wb") as f:
            f.write(b"previous report\n")
        r = subprocess.run(PC + ["-o", out, "-f", "prf", "prf-trunc-0020"],
                           cwd=FILES, capture_output=True, text=True)
        with open(out, "rb") as f:
            kept = f.read()
        if r.returncode != 1 or kept != b"previous report\n" or os.listdir(tmp) != ["OUT"]:
            fail("existing OUT kept", "exit %d, OUT %r, dir %s"
                 % (r.returncode, kept, sorted(os.listdir(tmp))))
        else:
            print("ok   existing OUT kept on a failed load")


def check_generator():
    r = subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), "--check"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("gen.py --check", r.stdout + r.stderr)
    else:
        print("ok   gen.py reproduces files/: %s" % r.stdout.strip())


def record(cases):
    lines = []
    with open(CASES, encoding="utf-8") as f:
        lines = [l for l in f if l.startswith("#")]
    for name, args, _, _ in cases:
        with tempfile.TemporaryDirectory() as tmp:
            r, _, _ = run(args, tmp)
        err = r.stderr.rstrip("\n")
        assert "\n" not in err and "\t" not in err, (name, err)
        lines.append("%s\t%s\t%d\t%s\n" % (name, " ".join(args), r.returncode, err))
    with open(CASES, "w", encoding="utf-8") as f:
        f.writelines(lines)


def main():
    cases = load_cases()
    if sys.argv[1:] == ["--record"]:
        record(cases)
        return 0
    named = {c[0] for c in cases}
    for f in sorted(set(os.listdir(FILES)) - named):
        fail(f, "file in files/ without a case in cases.tsv")
    # a build without libelf (meson -Delf=disabled, the mingw leg) has no
    # elf loader: its cases are skipped, and counted
    no_elf = os.environ.get("PC_HAVE_ELF") == "0"
    skipped = 0
    for c in cases:
        if not os.path.exists(os.path.join(FILES, c[0])):
            fail(c[0], "case names a file not in files/")
            continue
        a = c[1]
        if no_elf and any(x == "-f" and y == "elf" for x, y in zip(a, a[1:])):
            skipped += 1
            continue
        check_case(*c)
    if skipped:
        print("SKIP %d cases of the elf loader (built without libelf)" % skipped)
    check_output_over_input()
    check_existing_output_kept()
    check_generator()
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if rss > MAX_RSS_KIB and not WRAPPER:
        fail("memory", "a profcat run peaked at %d KiB (limit %d KiB)" % (rss, MAX_RSS_KIB))
    print("%d cases, %d failures" % (len(cases), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
