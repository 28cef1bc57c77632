#!/usr/bin/env python3
"""Checks what libprofcore exports against what the public headers declare.

Usage: exports_test.py LIBRARY HEADER...

- every defined dynamic symbol (nm -D --defined-only) starts with pc_;
- every exported symbol is declared PC_API in a public header, and every
  PC_API function of the headers is exported (no leaks, no stubs missing);
- the SONAME is libprofcore.so.<MAJOR>.<MINOR> while PC_VERSION_MAJOR is
  0, libprofcore.so.<MAJOR> from 1.0 on (the ABI version, from the
  generated profcore_version.h: docs/development.md ("ABI"));
- the library has no writable static data of its own (no global mutable
  state that two profiles could share): every object in .data, .bss and
  their thread-local and relocated forms belongs to the C runtime or to a
  sanitizer.
"""
import re
import shutil
import subprocess
import sys

PREFIX = "pc_"


def run(cmd):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                          universal_newlines=True).stdout


def declared(headers):
    names, version = set(), {}
    for h in headers:
        text = open(h).read()
        for m in re.finditer(r"#define\s+PC_VERSION_(MAJOR|MINOR)\s+(\d+)",
                             text):
            version[m.group(1)] = int(m.group(2))
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        # Drop preprocessor lines (with continuations): #define PC_API ...
        text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)
        for m in re.finditer(r"\bPC_API\b[^;{]*?\b(\w+)\s*\(", text):
            names.add(m.group(1))
    return names, version


WRITABLE = {".data", ".bss", ".tdata", ".tbss", ".data.rel",
            ".data.rel.local"}
# crtstuff's bookkeeping, and what ASan/UBSan/coverage add to every object
RUNTIME = {"completed.0", "__dso_handle", "__TMC_END__"}
RUNTIME_PREFIXES = ("__odr_asan", "__asan", "__ubsan", "__sancov", "__gcov")


def writable_objects(lib):
    bad = []
    for line in run(["objdump", "-t", lib]).splitlines():
        f = line.split()
        # ADDRESS FLAGS... SECTION SIZE NAME; object symbols have an "O"
        if len(f) < 5 or "O" not in f[1:-3]:
            continue
        section, name = f[-3], f[-1]
        if section in WRITABLE and name not in RUNTIME \
                and not name.startswith(RUNTIME_PREFIXES):
            bad.append("%s %s" % (section, name))
    return bad


def main():
    lib, headers = sys.argv[1], sys.argv[2:]
    for tool in ("nm", "readelf", "objdump"):
        if not shutil.which(tool):
            print("%s not found (binutils)" % tool)
            return 77
    exported = set()
    bad = []
    for line in run(["nm", "-D", "--defined-only", lib]).splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name = parts[-1].split("@")[0]
        exported.add(name)
        if not name.startswith(PREFIX):
            bad.append(line)
    api, version = declared(headers)
    ok = True
    if bad:
        ok = False
        print("exported without the %s prefix:" % PREFIX)
        print("\n".join("  " + b for b in bad))
    leaked = sorted(exported - api - set(b.split()[-1] for b in bad))
    if leaked:
        ok = False
        print("exported but not declared PC_API in a public header:")
        print("\n".join("  " + n for n in leaked))
    missing = sorted(api - exported)
    if missing:
        ok = False
        print("declared PC_API but not exported:")
        print("\n".join("  " + n for n in missing))
    soname = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]",
                       run(["readelf", "-d", lib]))
    want = "libprofcore.so.%d" % version["MAJOR"]
    if version["MAJOR"] == 0:
        want += ".%d" % version["MINOR"]
    if not soname or soname.group(1) != want:
        ok = False
        print("SONAME is %s, expected %s"
              % (soname.group(1) if soname else "missing", want))
    state = writable_objects(lib)
    if state:
        ok = False
        print("writable static data (global mutable state):")
        print("\n".join("  " + b for b in state))
    print("%d symbols exported, %d declared, SONAME %s"
          % (len(exported), len(api), soname.group(1) if soname else "-"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
