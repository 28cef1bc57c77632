#!/usr/bin/env python3
"""Separate debug files (docs/source.md, "Separate debug files"): a
.gnu_debuglink is followed only to a regular file whose CRC-32 is the
link's (a CRC of 0 too) and whose build-id, when both have one, is the
program's; no network unless --debuginfod.

Programs are built here with gcc -g (no build-id, so that only the CRC
tells the debug files apart), their debug info moved out with
objcopy --only-keep-debug / --strip-debug / --add-gnu-debuglink:
- a link to another program's debug file with its CRC patched to 0;
- a link to a FIFO;
- the right link (the local search still finds it);
- a program with a build-id and no debug file, DEBUGINFOD_URLS naming a
  listening socket of this test: no connection without --debuginfod, one
  with it.

Exit 77 when gcc or objcopy is missing, and on the Windows leg.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import zlib

PROFCAT = os.environ["PROFCAT"]

A_C = "int alpha(int x) { return x * 2; }\nint main(void) { return alpha(1); }\n"
B_C = "int beta(int x) { return x + 3; }\nint main(void) { return beta(2); }\n"


def sh(*cmd, cwd):
    subprocess.run(cmd, cwd=cwd, check=True)


def addr_of(prog, name):
    for line in subprocess.run(["nm", prog], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        p = line.split()
        if p[-1] == name:
            return int(p[0], 16)
    raise SystemExit("no symbol %s in %s" % (name, prog))


def run(d, prog, *opts, env=None):
    r = subprocess.run([PROFCAT, "-r", "locations", *opts, prog, "-f", "raw",
                        "pcs.txt"], cwd=d, capture_output=True, timeout=20,
                       stdin=subprocess.DEVNULL,
                       env=dict(os.environ, **(env or {})))
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def main():
    if os.environ.get("PC_CROSS_LEG") == "mingw":
        print("SKIP: POSIX paths, FIFOs and symbolic links (Windows build)")
        return 77
    for tool in ("gcc", "objcopy", "nm"):
        if not shutil.which(tool):
            print("SKIP: %s is not installed" % tool)
            return 77
    fails = 0

    def check(what, got, want):
        nonlocal fails
        if got != want:
            fails += 1
            print("FAIL %s\n--- got\n%r\n--- want\n%r" % (what, got, want))
        else:
            print("ok %s" % what)

    with tempfile.TemporaryDirectory() as d:
        for name, src in (("a", A_C), ("b", B_C)):
            with open(os.path.join(d, name + ".c"), "w") as f:
                f.write(src)
            sh("gcc", "-g", "-O0", "-Wl,--build-id=none", "-o", name, name + ".c", cwd=d)
            sh("objcopy", "--only-keep-debug", name, name + ".debug", cwd=d)
        beta = addr_of(os.path.join(d, "b"), "beta")
        with open(os.path.join(d, "pcs.txt"), "w") as f:
            f.write("0x%x\n" % beta)
        # b with the right link: found beside it
        sh("objcopy", "--strip-debug", "--add-gnu-debuglink=b.debug", "b", "b-good", cwd=d)
        rc, out, err = run(d, "b-good")
        check("right debuglink", (rc, out, err),
              (0, "address           count  function at file:line:column (inline chain, innermost first)\n"
                  "0x%x                1  beta at %s/b.c:1:17\n" % (beta, d), ""))
        # b linked to a's debug file, the CRC patched to 0
        sh("objcopy", "--strip-debug", "--add-gnu-debuglink=a.debug", "b", "b-zero", cwd=d)
        with open(os.path.join(d, "b-zero"), "rb") as f:
            img = bytearray(f.read())
        at = img.find(b"a.debug\0")
        assert at > 0 and img.find(b"a.debug\0", at + 1) < 0
        img[at + 8:at + 12] = b"\0\0\0\0"
        with open(os.path.join(d, "b-zero"), "wb") as f:
            f.write(img)
        with open(os.path.join(d, "a.debug"), "rb") as f:
            crc = zlib.crc32(f.read())
        rc, out, err = run(d, "b-zero")
        check("zero-CRC debuglink to another program", (rc, out, err),
              (1, "", "profcat: b-zero: no DWARF debugging information: the separate "
                      "debug file %s/a.debug does not match the program: its CRC-32 "
                      "is 0x%08x, .gnu_debuglink says 0x00000000, not used (install "
                      "the program's own debug file)\n" % (d, crc)))
        # a FIFO as the debug file
        shutil.copy(os.path.join(d, "b.debug"), os.path.join(d, "f.debug"))
        sh("objcopy", "--strip-debug", "--add-gnu-debuglink=f.debug", "b", "b-fifo", cwd=d)
        os.unlink(os.path.join(d, "f.debug"))
        os.mkfifo(os.path.join(d, "f.debug"))
        try:
            rc, out, err = run(d, "b-fifo")
        except subprocess.TimeoutExpired:
            rc, out, err = -1, "", "timeout: profcat waited on the FIFO"
        check("FIFO as the debug file", (rc, out, err),
              (1, "", "profcat: b-fifo: no DWARF debugging information: the separate "
                      "debug file %s/f.debug is not a regular file, not used (install "
                      "the program's own debug file)\n" % d))
        # a build-id, no debug file, DEBUGINFOD_URLS at a local listener
        sh("gcc", "-g", "-O0", "-Wl,--build-id", "-o", "c", "b.c", cwd=d)
        sh("objcopy", "--strip-debug", "c", "c-bare", cwd=d)
        lst = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        lst.bind(("127.0.0.1", 0))
        lst.listen(8)
        lst.settimeout(0.2)
        seen = []
        stop = threading.Event()

        def serve():
            while not stop.is_set():
                try:
                    c, _ = lst.accept()
                except OSError:
                    continue
                seen.append(1)
                c.close()
        th = threading.Thread(target=serve)
        th.start()
        env = {"DEBUGINFOD_URLS": "http://127.0.0.1:%d" % lst.getsockname()[1],
               "DEBUGINFOD_TIMEOUT": "5",
               "DEBUGINFOD_CACHE_PATH": os.path.join(d, "cache")}
        try:
            rc, out, err = run(d, "c-bare", env=env)
            check("DEBUGINFOD_URLS without --debuginfod", (rc, out, err, len(seen)),
                  (1, "", "profcat: c-bare: no DWARF debugging information (build with "
                          "-g, or install its separate debug file)\n", 0))
            have_client = any(os.path.exists(os.path.join(p, "libdebuginfod.so.1"))
                              for p in ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                                        "/usr/lib64", "/usr/lib"))
            # (a cross leg's libdw may have no client library)
            if have_client and not os.environ.get("PC_CROSS_LEG"):
                rc, out, err = run(d, "c-bare", "--debuginfod", env=env)
                check("--debuginfod asks the server", (rc, len(seen) > 0), (1, True))
        finally:
            stop.set()
            th.join()
            lst.close()
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
