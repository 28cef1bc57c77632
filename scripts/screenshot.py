#!/usr/bin/env python3
"""Regenerates the pictures of the HTML report in docs/html.md: profcat
-F html opened in headless Chromium (tests/html/cdp.py), one picture a
view, each set up through the page's URL fragment (the state a link
keeps):

    docs/html-report.png   call graph tab, `tinies` selected (gcc -pg fixture)
    docs/html-flat.png     flat profile
    docs/html-tree.png     call tree, sandwich of `tinies`
    docs/html-source.png   source and disassembly of `integrate`
                           (tests/source lines-O2, its sources)

    scripts/screenshot.py [BUILD_DIR]        (default: build)

Needs chromium (scripts/deps.sh).  The PNGs are committed; keep each
under 150 KB (the script says so if one is not).
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "html"))
import cdp  # noqa: E402

GMON = os.path.join("tests", "unix", "fixtures", "x86_64-nopie")
SRC = os.path.join("tests", "source", "fixtures")
# (picture, profcat arguments, working directory, fragment, height)
SHOTS = [
    ("html-report.png", ["callgraph", "gmon.out"], GMON, "#view=flame&fn=tinies", 560),
    ("html-flat.png", ["callgraph", "gmon.out"], GMON, "#view=flat", 420),
    ("html-tree.png", ["callgraph", "gmon.out"], GMON, "#view=tree&mode=sandwich&fn=tinies", 560),
    ("html-source.png", ["--source-path", "../programs", "lines-O2", "gmon.out"], SRC, "#view=source&fn=integrate", 760),
]


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
    profcat = os.path.join(build, "cli", "profcat")
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, args, cwd, frag, height in SHOTS:
            shot(profcat, tmp, name, args, cwd, frag, height)
            out = os.path.join(ROOT, "docs", name)
            size = os.path.getsize(out)
            print("%s: %d bytes" % (out, size))
            if size > 150 * 1024:
                print("too large for the docs (> 150 KB)")
                bad = 1
    return bad


def shot(profcat, tmp, name, args, cwd, frag, height):
    """one picture, in a browser of its own (a page opened after others
    may be a background tab, which draws no frames)"""
    page = os.path.join(tmp, name + ".html")
    subprocess.run([profcat, "-F", "html", "-o", page] + args, cwd=os.path.join(ROOT, cwd), check=True)
    with cdp.Browser() as b:
        p = b.open("file://" + page + frag, width=1000, height=height)
        p.wait("!!document.querySelector('.view:not([hidden])') && (location.hash.indexOf('source') < 0 || "
               "!!document.querySelector('#source-table tr.sel'))")
        p.settle()
        p.screenshot(os.path.join(ROOT, "docs", name), full=False)

if __name__ == "__main__":
    sys.exit(main())
