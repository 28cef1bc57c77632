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


def _wrap(args):
    if not _WRAP or isinstance(args, (str, bytes, os.PathLike)):
        prog, rest = args, []
    else:
        args = list(args)
        if not args:
            return args
        prog, rest = args[0], args[1:]
    if not _WRAP or not isinstance(prog, (str, os.PathLike)):
        return args
    path = os.fspath(prog)
    if os.sep not in path:
        return args
    ident = _ident(path)
    if ident is None or ident == _HOST:
        return args
    return list(_WRAP) + [path] + rest


_Popen_init = subprocess.Popen.__init__


def _init(self, args, *a, **kw):
    if not kw.get("shell"):
        args = _wrap(args)
    _Popen_init(self, args, *a, **kw)


subprocess.Popen.__init__ = _init
