#!/usr/bin/env python3
"""Every fuzzer reproducer under tests/hostile/regress/ is read by its
loader in bounded time and ends in success or one clean error line.
A "dialect-" reproducer is a map dialect file (fuzz_dialect): a real map
is read through it, and a usage error (exit 2) is a clean end too."""
import os
import resource
import subprocess
import sys

PROFCAT = os.environ["PROFCAT"]
DIR = os.path.join(os.environ["PC_SOURCE_ROOT"], "tests", "hostile", "regress")
MAP = os.path.join(os.environ["PC_SOURCE_ROOT"], "tests", "dos", "fixtures", "dosmap",
                   "mslink_basicdos_CLKDEV.MAP")
failed = 0
for name in sorted(os.listdir(DIR)):
    if name == "SOURCES.md":
        continue
    loader = name.split("-", 1)[0]
    args, codes = ["-f", loader, os.path.join(DIR, name)], (0, 1)
    if loader == "dialect":
        args = ["-f", "map", "-O", "dialect=" + os.path.join(DIR, name), MAP]
        codes = (0, 1, 2)
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([PROFCAT] + args,
                       capture_output=True, text=True, errors="replace", timeout=600)
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU seconds: the wall clock counts the machine's other processes too
    dt = ru1.ru_utime + ru1.ru_stime - ru0.ru_utime - ru0.ru_stime
    lines = p.stderr.splitlines()
    ok = p.returncode in codes and all(l.startswith("profcat: ") for l in lines) \
        and (p.returncode == 0 or len(lines) == 1) and dt < 10
    print("%s: exit %d, %.2f s %s" % (name, p.returncode, dt, "ok" if ok else "FAILED"))
    if not ok:
        print(p.stderr)
        failed += 1
print("%d passed, %d failed" % (len(os.listdir(DIR)) - 1 - failed, failed))
sys.exit(1 if failed else 0)
