#!/usr/bin/env python3
"""Scale and endless inputs (docs/development.md ("Hostile input")): profcat stays fast
and small.  Inputs come from gen_scale.py at test time.

  - 100,000 histogram records load in under 0.5 s (limit here 5 s: 10x,
    the machine may be busy) with the exact totals
  - gzip bombs (1 GiB / 2 GiB of zeros) behind an invalid header, and
    forced formats on /dev/zero and /dev/urandom, stop with their exact
    error in under 1 s (limit 10 s) and under 64 MiB peak RSS (limit
    640 MiB: fails only at 10x)
"""
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

PROFCAT = os.environ["PROFCAT"]
HERE = os.path.dirname(os.path.abspath(__file__))

FACTOR = float(os.environ.get("PC_SCALE_FACTOR", "10"))
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def case(tmp, args, rc_want, err_want, secs=1.0, mib=64, out_has=None,
         err_re=None):
    t = time.monotonic()
    rc, out, err, ru = run_alone(tmp, args)
    dt = time.monotonic() - t
    label = " ".join(args)
    same = (re.fullmatch(err_re, err) is not None if err_re is not None
            else err == err_want)
    check(rc == rc_want and same, "%s: exit %d, %r" % (label, rc, err[:200]))
    if out_has is not None:
        check(out_has in out, "%s: output has %r" % (label, out_has))
    check(dt < secs * FACTOR, "%s: %.2f s (limit %.1f s)" %
          (label, dt, secs * FACTOR))
    rss = ru.ru_maxrss
    check(rss < mib * 1024 * FACTOR, "%s: peak RSS %d KiB (limit %d)"
          % (label, rss, mib * 1024 * FACTOR))


# Messages of every loader but raw forced on /dev/zero and /dev/urandom;
# random bytes appear in some (the regular expressions then stand for them).
# (one line; which depends on the bytes: the bound on time and memory is
# what is checked there)
ANY_URANDOM = "profcat: /dev/urandom:[0-9]+: [^\n]+\n"
ENDLESS = {
    ("gmon", "/dev/zero"): re.escape(
        "profcat: /dev/zero:16: header and histogram size 0 is smaller than "
        "the 20-byte header\n"),
    # (1 time in 16 the first words already fail in every layout)
    ("monout", "/dev/urandom"): "(%s|%s)" % (re.escape(
        "profcat: /dev/urandom:0: not a mon.out: in no layout do lowpc < "
        "highpc and the call slots read as monitor() writes them (used slots "
        "first, their pcs within lowpc..highpc, free slots zero)\n"),
        re.escape("profcat: /dev/urandom:0: not a mon.out: in no layout is "
                  "lowpc below highpc\n")),
    ("proff", "/dev/zero"): re.escape(
        "profcat: /dev/zero:0: expected a hex digit, found byte 0x00\n"),
    ("proff", "/dev/urandom"): ANY_URANDOM,
    ("mpwsym", "/dev/urandom"): re.escape(
        'profcat: /dev/urandom:0: expected a .SYM version string '
        '"Version 3.x"\n'),
    ("gemdos", "/dev/zero"): re.escape(
        "profcat: /dev/zero:0: expected the GEMDOS magic 0x601a, found "
        "0x0000\n"),
    ("gemdos", "/dev/urandom"): ANY_URANDOM,
    ("hatari", "/dev/zero"): re.escape(
        "profcat: /dev/zero:0: NUL byte in a text line (binary file?)\n"),
    ("hatari", "/dev/urandom"): ANY_URANDOM,
    ("map", "/dev/zero"): re.escape(
        "profcat: /dev/zero:0: no built-in map dialect recognises this file; "
        "name one with the option dialect=NAME or dialect=FILE.yaml (-O KEY=VALUE)\n"),
    ("map", "/dev/urandom"): re.escape(
        "profcat: /dev/urandom:0: no built-in map dialect recognises this "
        "file; name one with the option dialect=NAME or dialect=FILE.yaml (-O KEY=VALUE)\n"),
    ("prf", "/dev/zero"): re.escape(
        "profcat: /dev/zero:0: clock grain of 0 microseconds is below "
        "PROFIL's minimum of 60\n"),
    ("prf", "/dev/urandom"): ANY_URANDOM,
}


def endless(tmp):
    for (fmt, dev), want in sorted(ENDLESS.items()):
        case(tmp, ["-f", fmt, dev], 1, None, err_re=want)


def run_alone(tmp, args):
    """profcat ARGS: exit status, stdout, stderr and the resource usage of
    that one process (os.wait4: its CPU time and peak RSS alone)."""
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        p = subprocess.Popen([PROFCAT] + args, cwd=tmp, stdout=fo, stderr=fe)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        return p.returncode, fo.read().decode(errors="replace"), \
            fe.read().decode(errors="replace"), ru


def raw3m(tmp):
    """3,000,000 distinct raw PCs without symbols: under 200 MiB (memory
    does not depend on the machine's load: the limit is the target), all
    counted exactly."""
    rc, out, err, ru = run_alone(tmp, ["-f", "raw", "-O", "width=4",
                                       "-O", "endian=little", "-F", "csv",
                                       "raw3m.bin"])
    cpu = ru.ru_utime + ru.ru_stime
    check(rc == 0 and err == "", "raw3m.bin: exit %d %r" % (rc, err[:200]))
    check("3000000" in out, "raw3m.bin: 3000000 samples in the output")
    # the target is 200 MiB; an ASan build (shadow memory, redzones)
    # needs about 1.8x what the plain build does (measured: 342 MiB)
    limit = 200 if os.environ.get("PC_SANITIZE", "none") in ("", "none") else 400
    check(ru.ru_maxrss < limit * 1024,
          "raw3m.bin: peak RSS %d KiB (limit %d MiB)" % (ru.ru_maxrss, limit))
    check(cpu < 3 * FACTOR, "raw3m.bin: %.2f s CPU (limit %.0f s)"
          % (cpu, 3 * FACTOR))


def main():
    tmp = tempfile.mkdtemp(prefix="pc-scale-")
    try:
        # (in a child: this process stays small, its children's peak RSS
        # is theirs)
        subprocess.run([sys.executable, os.path.join(HERE, "gen_scale.py"),
                        tmp], check=True)
        raw3m(tmp)
        case(tmp, ["hist100k.gmon.gz"], 0, "", secs=0.5,
             out_has="Samples: 400000 total, 0 in the program, 400000 "
                     "outside (unknown 400000)\n")
        case(tmp, ["bomb-gmon.gz"], 1,
             "profcat: bomb-gmon.gz:37: histogram record has 0 bins\n")
        case(tmp, ["-f", "osf", "bomb-zeros.gz"], 1,
             'profcat: bomb-zeros.gz:0: expected magic "PCMRPROF"\n')
        case(tmp, ["-f", "gmon", "bomb-zeros.gz"], 1,
             "profcat: bomb-zeros.gz:16: header and histogram size 0 is "
             "smaller than the 20-byte header\n")
        if os.path.exists("/dev/zero") and os.path.exists("/dev/urandom"):
            case(tmp, ["-f", "monout", "/dev/zero"], 1,
                 "profcat: /dev/zero:0: not a mon.out: in no layout is lowpc "
                 "below highpc\n")
            if os.environ.get("PC_HAVE_ELF") != "0":   # no libelf, no elf loader
                case(tmp, ["-f", "elf", "/dev/zero"], 1,
                     'profcat: /dev/zero:0: expected the ELF magic 7f 45 4c 46 '
                     '("\\177ELF")\n')
            case(tmp, ["-f", "osf", "/dev/zero"], 1,
                 'profcat: /dev/zero:0: expected magic "PCMRPROF"\n')
            case(tmp, ["-f", "osf", "/dev/urandom"], 1,
                 'profcat: /dev/urandom:0: expected magic "PCMRPROF"\n')
            case(tmp, ["-f", "mpwsym", "/dev/zero"], 1,
                 'profcat: /dev/zero:0: expected a .SYM version string '
                 '"Version 3.x"\n')
            # every loader forced on endless input stops at the first
            # structure that cannot be valid (raw dumps excepted: every
            # record is valid, they run as long as the input flows; gmon
            # on /dev/urandom too: an old BSD header can claim up to the
            # 1 GiB limit of histogram, read before the first arc)
            endless(tmp)
        else:
            print("skip /dev/zero and /dev/urandom (not on this system)")
    finally:
        shutil.rmtree(tmp)
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)


main()
