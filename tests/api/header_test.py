#!/usr/bin/env python3
"""Compiles the public headers alone, as C and as C++, with strict flags.

Every public header must be self-contained and warning-free in C99, C11
and C++11/17 (libgit2's headertest idea).  An application that includes
only profcore.h (load, attribute, report, export, the typed options)
builds, and the loader author's API (pc_profile_add_*, pc_stream_read*,
pc_loader's fields) is not in it: it is profcore_plugin.h's.
Usage: header_test.py INCLUDEDIR... (the sources' and the build's, where
the generated profcore_version.h is) with $CC (and $CXX, optional: the C++ half is skipped without it).
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


def incs(dirs):
    return [a for d in dirs for a in ("-I", d)]


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
    cmd = compiler + ["-std=" + std] + flags + incs(inc) + ["-fsyntax-only",
                                                          src]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode != 0 or r.stdout.strip():
        print("FAIL: %s\n%s" % (" ".join(cmd), r.stdout))
        return False
    print("ok: %s -std=%s %s" % (compiler[0], std, header))
    return True


APP = r"""#include <profcore.h>
#include <stdio.h>
int main(void);
int main(void)
{
	pc_registry *r;
	pc_profile *p;
	if (pc_registry_new(&r) != PC_OK || pc_profile_new(&p, r) != PC_OK)
		return 1;
	pc_attrib_options a = PC_ATTRIB_OPTIONS_INIT;
	a.rule = PC_ATTRIBUTION_BUCKET_START;
	pc_callgraph_options c = PC_CALLGRAPH_OPTIONS_INIT;
	c.attrib = &a;
	pc_callgraph *g = NULL;
	pc_fit f;
	char *out = NULL;
	size_t len = 0;
	int st = pc_profile_load_file(p, "gmon.out", NULL, NULL);
	if (!st)
		st = pc_profile_attribute(p, &a);
	if (!st)
		st = pc_profile_callgraph(&g, p, &c);
	if (!st)
		st = pc_profile_fit(&f, p, NULL);
	if (!st)
		st = pc_profile_render(&out, &len, p, "flat", NULL);
	if (!st)
		st = pc_profile_render_file(p, "flat", NULL, stdout);
	printf("%s %zu\n", pc_registry_at(r, 0) ? "loaders" : "none", pc_registry_count(r));
	pc_free(out);
	pc_callgraph_free(g);
	pc_profile_free(p);
	pc_registry_free(r);
	return st ? 1 : 0;
}
"""

# each is the loader author's: refused with profcore.h alone
PLUGIN_ONLY = ["pc_profile_add_sample(p, PC_NOSEG, 0, 1);",
               "pc_stream_read_some(buf, 4, &got, s);",
               "(void)pc_registry_at(r, 0)->name;",
               "(void)PC_LOADER_ABI_VERSION;"]


def application(cc, inc, tmp):
    """profcore.h alone builds an application, and declares no loader API."""
    ok = True
    src = os.path.join(tmp, "app.c")
    with open(src, "w") as f:
        f.write(APP)
    cmd = cc + ["-std=c11"] + C_FLAGS + incs(inc) + ["-fsyntax-only", src]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode != 0 or r.stdout.strip():
        print("FAIL: an application with profcore.h alone:\n%s" % r.stdout)
        ok = False
    else:
        print("ok: an application with profcore.h alone")
    for i, use in enumerate(PLUGIN_ONLY):
        src = os.path.join(tmp, "noplugin%d.c" % i)
        with open(src, "w") as f:
            f.write("#include <profcore.h>\nvoid use(pc_profile *p, pc_stream *s, "
                    "pc_registry *r);\nvoid use(pc_profile *p, pc_stream *s, "
                    "pc_registry *r)\n{\n\tunsigned char buf[4];\n\tsize_t got;\n"
                    "\t(void)p, (void)s, (void)r, (void)buf, (void)got;\n\t%s\n}\n"
                    % use)
        r = subprocess.run(cc + ["-std=c11", "-Werror"] + incs(inc) + ["-fsyntax-only", src],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        if r.returncode == 0:
            print("FAIL: profcore.h alone declares the loader API: %s" % use)
            ok = False
        else:
            print("ok: not in profcore.h: %s" % use)
    return ok


def main():
    inc = sys.argv[1:]
    cc = shlex.split(os.environ.get("CC", "cc"))
    cxx = shlex.split(os.environ.get("CXX", "")) or None
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        ok &= application(cc, inc, tmp)
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
