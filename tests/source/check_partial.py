"""The HTML page's source text of a file larger than the page's budget
(formats/html_source.c: 512 KiB of source text a page): the file is
embedded in part, the lines around its sampled lines (4 each side), the
others null, and marked "partial" so that the page says the rest is left
out.  A program of three one-line functions far apart in a 576 KB source
file is built now with gcc -g; a raw dump samples each function's entry;
the page's #pc-data-src (gzip, base64) is read back.

Exit 77 when gcc or nm is missing, and on the mingw leg (the program is
built with the host's gcc for Linux)."""
import base64
import gzip
import json
import os
import re
import shutil
import sys
import tempfile

import sourcelib as L

NOTE = "the lines around the hottest lines only (the page holds at most 512 KiB of source text)"
# (function, its line, samples at its entry)
FUNCS = (("near_start", 3, 5), ("middle", 5000, 3), ("near_end", 8990, 1))
NLINES = 9003


def write_source(path):
    """NLINES lines of 64 bytes: a comment line each, the functions on
    their lines, main on the last."""
    at = {line: name for name, line, _ in FUNCS}
    lines = []
    for n in range(1, NLINES + 1):
        if n in at:
            text = "__attribute__((noinline)) int %s(int x) { return x * %d + 1; }" % (at[n], n)
        elif n == NLINES:
            text = "int main(int c, char **v) { (void)v; return near_start(c) + middle(c) + near_end(c); }"
        else:
            text = "/* line %05d of a source file larger than the page's budget */" % n
        lines.append(text)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return lines


def main():
    if os.environ.get("PC_CROSS_LEG") == "mingw":
        print("SKIP: the program is built with the host's gcc for Linux")
        return 77
    for tool in ("gcc", "nm"):
        if not shutil.which(tool):
            print("SKIP: %s is not installed" % tool)
            return 77
    with tempfile.TemporaryDirectory() as t:
        text = write_source(os.path.join(t, "big.c"))
        size = os.path.getsize(os.path.join(t, "big.c"))
        if size <= 512 << 10:
            L.fail("partial", "the source file is %d bytes, not more than the budget" % size)
        L.run(["gcc", "-O1", "-g", "-o", "big", "big.c"], cwd=t)
        addr = {}
        for line in L.run(["nm", "big"], cwd=t).splitlines():
            p = line.split()
            if len(p) == 3:
                addr[p[2]] = int(p[0], 16)
        with open(os.path.join(t, "big.pcs"), "w") as f:
            for name, _, n in FUNCS:
                f.write(("0x%x\n" % addr[name]) * n)
        L.run([L.PROFCAT, "-F", "html", "-o", "big.html", "big", "-f", "raw", "big.pcs"], cwd=t)
        page = open(os.path.join(t, "big.html"), encoding="utf-8").read()
    src = json.loads(gzip.decompress(base64.b64decode(re.search(
        r'<script type="application/gzip" data-encoding="base64" id="pc-data-src">(.*?)</script>',
        page, re.S).group(1))))
    files = [f for f in src["files"] if f["file"].endswith("big.c")]
    if len(files) != 1:
        L.fail("partial", "expected big.c among the page's files, got %r" % [f["file"] for f in src["files"]])
        return 1
    f = files[0]
    # what the page shows: the lines with text, and the note
    want = sorted({n for _, line, _ in FUNCS for n in range(max(1, line - 4), line + 5)})
    got = [i + 1 for i, x in enumerate(f["lines"]) if x is not None]
    if f["partial"] is not True or f["missing"] is not None:
        L.fail("partial", "big.c: partial %r, missing %r; expected partial true, missing null"
               % (f["partial"], f["missing"]))
    if len(f["lines"]) != NLINES:
        L.fail("partial", "big.c: %d lines in the page, the file has %d" % (len(f["lines"]), NLINES))
    if got != want:
        L.fail("partial", "big.c: lines embedded %s, expected %s" % (got, want))
    for n in got:
        if f["lines"][n - 1] != text[n - 1].rstrip():
            L.fail("partial", "big.c:%d: %r, the file has %r" % (n, f["lines"][n - 1], text[n - 1]))
            break
    # the page's script says the rest is left out for a partial file
    if page.count(NOTE) != 1 or "f.partial ?" not in page:
        L.fail("partial", "the page does not carry the note for a partial file: %r" % NOTE)
    if L.failures:
        return 1
    print("ok partial source: big.c (%d bytes, %d lines): lines %d-%d, %d-%d, %d-%d embedded, the rest null"
          % (size, NLINES, want[0], FUNCS[0][1] + 4, FUNCS[1][1] - 4, FUNCS[1][1] + 4,
             FUNCS[2][1] - 4, FUNCS[2][1] + 4))
    return 0


if __name__ == "__main__":
    sys.exit(main())
