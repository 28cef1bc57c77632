"""Cross builds only (tests/meson.build puts this directory on PYTHONPATH
when meson.is_cross_build()): the Python test scripts run PROFCAT and the
other built programs with subprocess; a program built for the target (an
ELF file whose class, byte order or machine differ from this Python's) is
run through the leg's exe wrapper, PC_CROSS_EXE_WRAPPER (JSON list).

Test scripts that cannot work across hosts exit 77 (skipped) here with a
one-line reason, which scripts/cross.sh prints in its summary."""
import json
import os
import subprocess
import sys
import time

# test script -> why it cannot run when the library is built for another host
CROSS_SKIPS = {
    "install_test.py": "install tree used by build-host tools: host Python "
                       "loads the target library, examples link without "
                       "the target sysroot",
}

# the same for one leg only
LEG_SKIPS = {
    "mingw": {
        "exports_test.py": "reads ELF dynamic symbols and the SONAME with nm "
                           "and objdump; a DLL has a PE export table",
    },
}

if os.environ.get("PC_CROSS_LEG") and sys.argv and sys.argv[0]:
    _script = os.path.basename(sys.argv[0])
    _why = CROSS_SKIPS.get(_script) or \
        LEG_SKIPS.get(os.environ["PC_CROSS_LEG"], {}).get(_script)
    if _why:
        print("SKIP (cross %s): %s" % (os.environ["PC_CROSS_LEG"], _why))
        sys.stdout.flush()
        os._exit(77)

# the malformed corpus gives each profcat run 1 s (a hang check); wine
# adds its own start-up to every Windows program (scripts/cross.sh keeps one
# wine server running for the suite), so the limit there is scaled (an
# explicit PC_MALFORMED_TIME_FACTOR wins)
LEG_TIME_FACTORS = {"mingw": "4"}
if os.environ.get("PC_CROSS_LEG") in LEG_TIME_FACTORS:
    os.environ.setdefault("PC_MALFORMED_TIME_FACTOR",
                          LEG_TIME_FACTORS[os.environ["PC_CROSS_LEG"]])

# under qemu-user (the s390x leg, and the i386 leg on a kernel without
# IA-32 emulation) every instruction is emulated: the scale tests' bounds on
# CPU seconds would measure the emulator (measured: 7-13 times native for
# profcat's flame graphs and gzip input), so they allow PC_CPU_FACTOR times
# as much there (an explicit value wins)
if (os.environ.get("PC_CROSS_LEG") == "s390x"
        or os.environ.get("PC_I386_QEMU") == "1"):
    os.environ.setdefault("PC_CPU_FACTOR", "20")

_WRAP = json.loads(os.environ.get("PC_CROSS_EXE_WRAPPER", "[]"))


def _ident(path):
    try:
        with open(path, "rb") as f:
            h = f.read(20)
    except OSError:
        return None
    if h[:2] == b"MZ":
        return "pe"                  # a Windows program (mingw leg: wine)
    if len(h) < 20 or h[:4] != b"\x7fELF":
        return None
    return (h[4], h[5], h[18:20])   # class, data, e_machine (raw bytes)


_HOST = _ident(os.path.realpath(sys.executable))


def _target(args):
    """The identity (_ident) of the built program that args run, when it
    is built for another host than this Python's; else None."""
    if isinstance(args, (str, os.PathLike)):
        prog = args
    elif isinstance(args, bytes) or not args:
        return None
    else:
        prog = args[0]
    if not isinstance(prog, (str, os.PathLike)) or os.sep not in os.fspath(prog):
        return None
    ident = _ident(os.fspath(prog))
    return None if ident is None or ident == _HOST else ident


def _wrap(args):
    if not _WRAP or _target(args) is None:
        return args
    if isinstance(args, (str, os.PathLike)):
        args = [args]
    args = list(args)
    return list(_WRAP) + [os.fspath(args[0])] + args[1:]


_Popen_init = subprocess.Popen.__init__


def _init(self, args, *a, **kw):
    if not kw.get("shell"):
        args = _wrap(args)
    _Popen_init(self, args, *a, **kw)


subprocess.Popen.__init__ = _init


# mingw leg only: wine 8 now and then ends a Windows program with exit
# status 1 in a few milliseconds, before the program has run, printing
# nothing (seen about once in 4,000 to 8,000 runs when both cores are busy;
# never under strace; a normal run takes 15 ms or more). No program of this
# project exits 1 without a message: profcat and the test drivers print an
# error on every failing path. So a run of a Windows program that exits 1
# with empty standard output and error (both captured) is run once more,
# and the retry is logged in BUILD/wine-retries.log; scripts/cross.sh
# prints the count at the end of the leg.
# Also run once more: exit status 127 with nothing on standard error but
# glibc's "Inconsistency detected by ld.so: dl-fini.c: 87: _dl_fini:
# Assertion ... failed!" (seen once in a CI run, 26 Nov 2026): wine's
# own Unix process asserting in its exit handlers while another of its
# threads still loads or unloads a library. It comes from the loader, not
# from the Windows program, whose exit status it replaces.
_RETRY_LOG = os.environ.get("PC_CROSS_LEG") == "mingw" and \
    os.environ.get("PC_BUILD_ROOT") and \
    os.path.join(os.environ["PC_BUILD_ROOT"], "wine-retries.log")
_run = subprocess.run


def _ldso_assert(err):
    """err (bytes or str) is one line: glibc's loader asserting."""
    if isinstance(err, bytes):
        err = err.decode("utf-8", "replace")
    lines = err.strip().splitlines()
    return len(lines) == 1 and lines[0].startswith("Inconsistency detected by ld.so: ")


def _run_retry(*popenargs, **kw):
    check = kw.pop("check", False)
    args = popenargs[0] if popenargs else kw.get("args")
    t = time.monotonic()
    r = _run(*popenargs, **kw)
    took = time.monotonic() - t
    if (_RETRY_LOG and not kw.get("shell") and r.stdout is not None and
            r.stderr is not None and _target(args) == "pe" and
            ((r.returncode == 1 and not r.stdout and not r.stderr) or
             (r.returncode == 127 and _ldso_assert(r.stderr)))):
        with open(_RETRY_LOG, "a") as f:
            f.write("%s: exit %d after %.3f s, %s; run again: %s\n" %
                    (os.path.basename(sys.argv[0]), r.returncode, took,
                     "no output" if r.returncode == 1 else "ld.so's assertion at exit",
                     " ".join(os.fspath(a) if isinstance(a, os.PathLike) else str(a)
                              for a in args)))
        r = _run(*popenargs, **kw)
    if check:
        r.check_returncode()
    return r


if _RETRY_LOG:
    subprocess.run = _run_retry
