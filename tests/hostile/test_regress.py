#!/usr/bin/env python3
"""Every fuzzer reproducer under tests/hostile/regress/ is read by its
loader in bounded time and ends in success or one clean error line."""
import os
import subprocess
import sys
import time

PROFCAT = os.environ["PROFCAT"]
DIR = os.path.join(os.environ["PC_SOURCE_ROOT"], "tests", "hostile", "regress")
failed = 0
for name in sorted(os.listdir(DIR)):
    if name == "SOURCES.md":
        continue
    loader = name.split("-", 1)[0]
    t0 = time.monotonic()
    p = subprocess.run([PROFCAT, "-f", loader, os.path.join(DIR, name)],
                       capture_output=True, text=True, errors="replace", timeout=60)
    dt = time.monotonic() - t0
    lines = p.stderr.splitlines()
    ok = p.returncode in (0, 1) and all(l.startswith("profcat: ") for l in lines) \
        and (p.returncode == 0 or len(lines) == 1) and dt < 10
    print("%s: exit %d, %.2f s %s" % (name, p.returncode, dt, "ok" if ok else "FAILED"))
    if not ok:
        print(p.stderr)
        failed += 1
print("%d passed, %d failed" % (len(os.listdir(DIR)) - 1 - failed, failed))
sys.exit(1 if failed else 0)
