#!/usr/bin/env python3
"""profcat -o and standard output (cli/output.c, docs/development.md ("Hostile input")):

  - a destination that exists and is not a regular file (FIFO, character
    device, symbolic link, directory) is refused with exit 2 and one line,
    before any input is read; it is left as it was (the link's target too)
  - a replaced regular file keeps its permissions (0600, 0640)
  - SIGTERM, SIGINT or SIGHUP during the write remove the temporary file
    (PC_TEST_OUTPUT_STALL holds profcat between write and rename); the
    old destination is untouched; profcat ends by that signal
  - a closed standard output (reader gone: profcat ... | head -1) gives
    exit 3 quietly, never death by SIGPIPE
"""
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile

if os.environ.get("PC_CROSS_LEG") == "mingw":
    print("SKIP: -o over FIFOs, devices and symlinks, file modes and signal cleanup are POSIX behaviour that Windows does not have")
    sys.exit(77)

PROFCAT = os.environ["PROFCAT"]
ROOT = os.environ["PC_SOURCE_ROOT"]
HEX = os.path.join(ROOT, "tests", "raw", "hex.txt")

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def default_signals():
    for sig in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)


def ignore_hup():
    default_signals()
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def run(*args, **kw):
    r = subprocess.run([PROFCAT] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60, **kw)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace")


def leftovers(d, base):
    return sorted(n for n in os.listdir(d) if n.startswith(base + "."))


def main():
    if os.name != "posix":
        print("skip: POSIX special files and signals")
        return
    tmp = tempfile.mkdtemp(prefix="pc-output-")
    try:
        # refused destinations
        fifo = os.path.join(tmp, "fifo")
        os.mkfifo(fifo)
        target = os.path.join(tmp, "target.txt")
        with open(target, "w") as f:
            f.write("keep\n")
        link = os.path.join(tmp, "link")
        os.symlink(target, link)
        sub = os.path.join(tmp, "dir")
        os.mkdir(sub)
        for path, what in [(fifo, "a FIFO"), ("/dev/null", "a character device"),
                           (link, "a symbolic link"), (sub, "a directory")]:
            rc, out, err = run("-o", path, HEX)
            check(rc == 2 and out == b"" and err ==
                  "profcat: %s: is %s, not a regular file; -o only replaces "
                  "regular files (write to standard output and redirect "
                  "instead)\n" % (path, what), "-o %s refused: %d %r" %
                  (what, rc, err))
        check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "FIFO still a FIFO")
        check(stat.S_ISCHR(os.stat("/dev/null").st_mode),
              "/dev/null still a character device")
        check(os.path.islink(link) and open(target).read() == "keep\n",
              "symbolic link and its target unchanged")
        check(os.listdir(sub) == [], "directory untouched")
        check(leftovers(tmp, "fifo") + leftovers(tmp, "link") == [],
              "no temporary files")

        # permissions kept
        rc, want, err = run(HEX)
        for mode in (0o600, 0o640, 0o755):
            dest = os.path.join(tmp, "report-%o.txt" % mode)
            with open(dest, "w") as f:
                f.write("old\n")
            os.chmod(dest, mode)
            rc, out, err = run("-o", dest, HEX)
            got = stat.S_IMODE(os.stat(dest).st_mode)
            check(rc == 0 and open(dest, "rb").read() == want and
                  got == mode, "-o over a %o file: replaced, mode %o" %
                  (mode, got))
        # a new file: 0666 & ~umask
        um = os.umask(0o022)
        os.umask(um)
        dest = os.path.join(tmp, "new.txt")
        rc, out, err = run("-o", dest, HEX)
        check(rc == 0 and stat.S_IMODE(os.stat(dest).st_mode) == 0o666 & ~um,
              "-o new file: mode 0666 & ~umask")

        # the report is written as it is made, into the temporary file:
        # a report that fails leaves the destination as it was and no
        # temporary file
        dest = os.path.join(tmp, "failed.txt")
        with open(dest, "w") as f:
            f.write("old\n")
        rc, out, err = run("-r", "source", "-o", dest, HEX)
        check(rc == 2 and out == b"" and err.startswith("profcat: source lines need") and
              open(dest).read() == "old\n" and leftovers(tmp, "failed.txt") == [],
              "failed report: destination untouched, no temporary file (%d %r %s)" %
              (rc, err, leftovers(tmp, "failed.txt")))

        # a signal during the write removes the temporary file
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            dest = os.path.join(tmp, "sig.txt")
            with open(dest, "w") as f:
                f.write("old\n")
            env = dict(os.environ, PC_TEST_OUTPUT_STALL="20000")
            # the test's own parent may ignore SIGHUP (nohup, a detached
            # CI job) and an ignored signal stays ignored across exec:
            # profcat gets the default dispositions, as from a terminal
            p = subprocess.Popen([PROFCAT, "-o", dest, HEX], env=env,
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE,
                                 preexec_fn=default_signals)
            line = p.stderr.readline().decode()
            pre = "profcat: test: writing "
            name = line[len(pre):].rstrip("\n") if line.startswith(pre) else ""
            check(name.startswith(dest + ".") and os.path.exists(name),
                  "%s: temporary file exists mid-write (%r)" % (sig.name, line))
            p.send_signal(sig)
            rc = p.wait(timeout=30)
            p.stdout.close()
            p.stderr.close()
            check(rc == -sig, "%s: profcat ends by the signal (%d)" %
                  (sig.name, rc))
            check(leftovers(tmp, "sig.txt") == [],
                  "%s: temporary file removed (%s)" %
                  (sig.name, leftovers(tmp, "sig.txt")))
            check(open(dest).read() == "old\n",
                  "%s: destination untouched" % sig.name)

        # under nohup (SIGHUP ignored) a hangup does not stop the write
        dest = os.path.join(tmp, "nohup.txt")
        with open(dest, "w") as f:
            f.write("old\n")
        env = dict(os.environ, PC_TEST_OUTPUT_STALL="300")
        p = subprocess.Popen([PROFCAT, "-o", dest, HEX], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=ignore_hup)
        p.stderr.readline()
        p.send_signal(signal.SIGHUP)
        rc = p.wait(timeout=60)
        p.stdout.close()
        p.stderr.close()
        check(rc == 0 and open(dest).read().startswith("Flat profile") and
              leftovers(tmp, "nohup.txt") == [],
              "SIGHUP ignored (nohup): the report is written (%d)" % rc)

        # closed standard output: exit 3, quiet
        r, w = os.pipe()
        os.close(r)
        p = subprocess.Popen([PROFCAT, HEX], stdout=w, stderr=subprocess.PIPE)
        os.close(w)
        err = p.stderr.read()
        rc = p.wait(timeout=60)
        p.stderr.close()
        check(rc == 3 and err == b"",
              "closed standard output: exit 3, nothing printed (%d %r)" %
              (rc, err))
        # the same through a shell pipe with a large report
        r = subprocess.run(["sh", "-c", '"$0" -F csv "$1" "$1" "$1" | head -c 1 '
                            '>/dev/null; exit 0', PROFCAT, HEX], timeout=60,
                           stderr=subprocess.PIPE)
        check(b"SIGPIPE" not in r.stderr and b"Broken pipe" not in r.stderr,
              "| head: no complaint")
    finally:
        shutil.rmtree(tmp)
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)


main()
