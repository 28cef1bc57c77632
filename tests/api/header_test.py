#!/usr/bin/env python3
"""Compiles the public headers alone, as C and as C++, with strict flags.

Every public header must be self-contained and warning-free in C99, C11
and C++11/17 (libgit2's headertest idea).  Usage: header_test.py INCLUDEDIR
with $CC (and $CXX, optional: the C++ half is skipped without it).
"""
import os
import shlex
import subprocess
import sys
import tempfile

HEADERS = ["profcore.h", "profcore_plugin.h"]
C_FLAGS = ["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-Wshadow",
           "-Wstrict-prototypes", "-Wmissing-prototypes", "-Wundef",
           "-Wcast-qual", "-Wconversion"]
CXX_FLAGS = ["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-Wshadow",
             "-Wundef", "-Wcast-qual", "-Wconversion", "-Wold-style-cast"]


def compile_one(compiler, std, flags, inc, header, suffix, tmp):
    src = os.path.join(tmp, "h_%s_%s%s" % (header.replace(".", "_"),
                                          std.replace("+", "x"), suffix))
    with open(src, "w") as f:
        # The header twice: include guards must work; then a use of a few
        # declarations so that they are really parsed.
        f.write('#include <%s>\n#include <%s>\n' % (header, header))
        f.write("int main(void);\nint main(void)\n{\n"
                "\tpc_totals t;\n\tt.total = 0;\n"
                "\tpc_attrib_options s = PC_ATTRIB_OPTIONS_INIT;\n"
                "\tstatic const pc_option_decl keys[] = {\n"
                "\t\t{\"k\", PC_OPTION_ENUM, \"a,b\", \"a\", \"help\"},\n"
                "\t\t{NULL, PC_OPTION_STRING, NULL, NULL, NULL}};\n"
                "\treturn pc_version() != 0 && t.total == 0 &&\n"
                "\t       s.version == PC_ATTRIB_OPTIONS_VERSION && keys[1].name == NULL\n"
                "\t       ? 0 : 1;\n}\n")
    cmd = compiler + ["-std=" + std] + flags + ["-I", inc, "-fsyntax-only",
                                                src]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode != 0 or r.stdout.strip():
        print("FAIL: %s\n%s" % (" ".join(cmd), r.stdout))
        return False
    print("ok: %s -std=%s %s" % (compiler[0], std, header))
    return True


def main():
    inc = sys.argv[1]
    cc = shlex.split(os.environ.get("CC", "cc"))
    cxx = shlex.split(os.environ.get("CXX", "")) or None
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for h in HEADERS:
            for std in ("c99", "c11"):
                ok &= compile_one(cc, std, C_FLAGS, inc, h, ".c", tmp)
            if cxx:
                for std in ("c++11", "c++17"):
                    ok &= compile_one(cxx, std, CXX_FLAGS, inc, h, ".cpp",
                                      tmp)
    if not ok:
        return 1
    if not cxx:
        print("C++ compiler not found: C++ half skipped")
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
