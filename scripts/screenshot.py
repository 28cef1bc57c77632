#!/usr/bin/env python3
"""Regenerates docs/html-report.png, the picture of the HTML report in the
docs: profcat -F html on the gcc -pg fixture, opened in headless Chromium
(tests/html/cdp.py), call graph tab with `tinies` selected.

    scripts/screenshot.py [BUILD_DIR]        (default: build)

Needs chromium (scripts/deps.sh).  The PNG is committed; keep it under
150 KB (the script says so if it is not).
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "html"))
import cdp  # noqa: E402


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    profcat = os.path.join(build, "cli", "profcat")
    fx = os.path.join("tests", "unix", "fixtures", "x86_64-nopie")
    out = os.path.join(ROOT, "docs", "html-report.png")
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "report.html")
        subprocess.run([profcat, "-F", "html", "-o", page, os.path.join(fx, "callgraph"),
                        os.path.join(fx, "gmon.out")], cwd=ROOT, check=True)
        with cdp.Browser() as b:
            p = b.open("file://" + page + "#flame", width=1000, height=560)
            p.eval("[...document.querySelectorAll('#flat-table tbody tr')]"
                   ".find(r => r.cells[1] && r.cells[1].textContent === 'tinies').click()")
            p.settle()
            p.screenshot(out, full=False)
    size = os.path.getsize(out)
    print("%s: %d bytes" % (out, size))
    if size > 150 * 1024:
        print("too large for the docs (> 150 KB)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
