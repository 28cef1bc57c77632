#!/usr/bin/env python3
"""Source files named by untrusted DWARF (docs/source.md, "Which source
files are read"): `-r source` reads a file only when it resolves inside a
--source-path directory or the unit's compilation directory, never under
/proc, /sys or /dev, and only a regular file opened without blocking.

A program is built here with gcc -g whose `#line` directives make its line
table name /etc/passwd, /proc/self/environ, /dev/stdin, a `../` name that
leaves the compilation directory, a FIFO and a regular file inside the
compilation directory; a raw PC dump samples each function once.  A
symbolic link in the --source-path directory points at /etc/passwd.
Exact report text; a FIFO must not hang profcat (timeout).

Exit 77 when gcc or nm is missing, and on the Windows leg.
"""
import os
import shutil
import subprocess
import sys
import tempfile

PROFCAT = os.environ["PROFCAT"]

PROG = """\
#line 1 "/etc/passwd"
int f_passwd(int x) { return x + 1; }
#line 1 "/proc/self/environ"
int f_environ(int x) { return x + 2; }
#line 1 "/dev/stdin"
int f_stdin(int x) { return x + 3; }
#line 1 "../secret.c"
int f_up(int x) { return x + 4; }
#line 1 "fifo.c"
int f_fifo(int x) { return x + 5; }
#line 1 "ok.c"
int f_ok(int x) { return x + 6; }
#line 1 "link.c"
int f_link(int x) { return x + 7; }
#line 1 "main.c"
int main(void) { return f_passwd(0) + f_environ(0) + f_stdin(0) + f_up(0) + f_fifo(0) + f_ok(0) + f_link(0); }
"""

NOT_READ = ("  source file not read: outside the program's compilation directory"
            " and the source paths (give its directory in the option"
            " source-path); counts by line:\n")
NEVER = ("  source file not read: /proc, /sys and /dev are never read as"
         " source; counts by line:\n")
NOT_REG = "  source file not read: not a regular file; counts by line:\n"
ONE = "         1   12.50 >      1\n"

HEAD = """Source profile of T/build/prog (elf), T/pcs.txt (raw)
Samples: 8 total; percents are of the total; '>' marks lines with 10% or more
"""


def expect(src_path_line_passwd, link_block):
    # a relative name is joined to the compilation directory, as
    # addr2line names it
    return (HEAD +
            "\nFile /dev/stdin: 1 samples, 12.50%\n" + NEVER + ONE +
            src_path_line_passwd +
            "\nFile /proc/self/environ: 1 samples, 12.50%\n" + NEVER + ONE +
            "\nFile T/build/../secret.c: 1 samples, 12.50%\n" + NOT_READ + ONE +
            "\nFile T/build/fifo.c: 1 samples, 12.50%\n" + NOT_REG + ONE +
            link_block +
            "\nFile T/build/main.c: 1 samples, 12.50%\n"
            "  source file not found (give its directory in the option"
            " source-path); counts by line:\n" + ONE +
            "\nFile T/build/ok.c: 1 samples, 12.50%\n"
            "     count percent    line  source\n"
            "         1   12.50 >     1  int ok_line_one;\n"
            "         .       .       2  int ok_line_two;\n")


def run(t, *args, report="source"):
    # from the compilation directory: the relative name ../secret.c is
    # T/secret.c, outside it
    r = subprocess.run([PROFCAT, "-r", report, *args, t + "/build/prog",
                        "-f", "raw", t + "/pcs.txt"], cwd=t + "/build",
                       stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=20)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode()


def main():
    if os.environ.get("PC_CROSS_LEG") == "mingw":
        print("SKIP: POSIX paths, FIFOs and symbolic links (Windows build)")
        return 77
    for tool in ("gcc", "nm"):
        if not shutil.which(tool):
            print("SKIP: %s is not installed" % tool)
            return 77
    fails = 0
    with tempfile.TemporaryDirectory() as top:
        t = os.path.join(top, "T")
        build, src = os.path.join(t, "build"), os.path.join(t, "src")
        os.makedirs(build)
        os.makedirs(src)
        with open(os.path.join(build, "prog.c"), "w") as f:
            f.write(PROG)
        with open(os.path.join(build, "ok.c"), "w") as f:
            f.write("int ok_line_one;\nint ok_line_two;\n")
        with open(os.path.join(t, "secret.c"), "w") as f:
            f.write("SECRET outside the compilation directory\n")
        os.mkfifo(os.path.join(build, "fifo.c"))
        os.symlink("/etc/passwd", os.path.join(src, "link.c"))
        # relative names: the compilation directory is T/build
        subprocess.run(["gcc", "-g", "-O0", "-o", "prog", "prog.c"], cwd=build,
                       check=True)
        syms = {}
        for line in subprocess.run(["nm", os.path.join(build, "prog")],
                                   capture_output=True, text=True,
                                   check=True).stdout.splitlines():
            p = line.split()
            if len(p) == 3 and p[2].startswith("f_") or p[-1] == "main":
                syms[p[-1]] = int(p[0], 16)
        with open(os.path.join(t, "pcs.txt"), "w") as f:
            for name in sorted(syms):
                f.write("0x%x\n" % syms[name])

        def check(what, args, want):
            nonlocal fails
            rc, out, err = run(t, *args)
            out = out.replace(t + "/", "T/")
            if rc != 0 or out != want or "SECRET" in out or "root:" in out:
                fails += 1
                print("FAIL %s: exit %d, stderr %r\n--- got\n%s--- want\n%s"
                      % (what, rc, err, out, want))
            else:
                print("ok %s" % what)

        passwd_out = ("\nFile /etc/passwd: 1 samples, 12.50%\n" + NOT_READ + ONE)
        link_out = ("\nFile T/build/link.c: 1 samples, 12.50%\n"
                    "  source file not found (give its directory in the option"
                    " source-path); counts by line:\n" + ONE)
        check("no --source-path", [], expect(passwd_out, link_out))
        # a symbolic link out of the source path, and ../ out of it
        link_out = "\nFile T/build/link.c: 1 samples, 12.50%\n" + NOT_READ + ONE
        check("--source-path T/src", ["--source-path", t + "/src"],
              expect(passwd_out, link_out))
        # the user names /proc: still never read
        check("--source-path /proc/self", ["--source-path", "/proc/self:" + t + "/src"],
              expect(passwd_out, link_out))
        # the user names /etc: /etc/passwd is read (the test only checks
        # that its text is shown, not what it holds)
        rc, out, err = run(t, "--source-path", "/etc", report="source:f_passwd")
        shown = "File /etc/passwd: 1 samples, 12.50%\n     count percent    line  source\n"
        if rc != 0 or shown not in out:
            fails += 1
            print("FAIL --source-path /etc: exit %d %r\n%s" % (rc, err, out))
        else:
            print("ok --source-path /etc reads /etc/passwd")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
