#!/usr/bin/env python3
"""The documentation names files that exist.

In README.md, HACKING.md, docs/*.md, bench/README.md, bench/HISTORY.md and
cli/profcat.1:
- every relative link [text](path#anchor) leads to a file of the tree,
  and its #anchor to a heading of that page;
- every path of the tree a page names (a word that starts with one of the
  tree's top directories, e.g. `tests/unix/fixtures/x86_64-nopie/gmon.out`
  or examples/linking/, cross/elfutils-*) exists, or is a program built
  from PATH.c (bench/pcbench).
"""
import glob
import os
import re
import sys

SOURCE = os.environ["PC_SOURCE_ROOT"]
TOP = sorted(d for d in os.listdir(SOURCE)
             if os.path.isdir(os.path.join(SOURCE, d))
             and not d.startswith((".", "build", "obj-")))
PATH = re.compile(r"(?<![\w./$-])((?:%s)/[\w.+/*-]*)" % "|".join(map(re.escape, TOP)))
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(page):
    """GitHub's anchors of a page's headings."""
    out = set()
    with open(page, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#+\s+(.*)", line)
            if m:
                a = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower())
                out.add(a.replace(" ", "-"))
    return out


def main():
    pages = [os.path.join(SOURCE, p) for p in
             ["README.md", "HACKING.md", "bench/README.md", "bench/HISTORY.md",
              "cli/profcat.1"]]
    pages += sorted(glob.glob(os.path.join(SOURCE, "docs", "*.md")))
    failures = []
    count = 0
    for page in pages:
        rel = os.path.relpath(page, SOURCE)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        if page.endswith(".1"):
            text = text.replace("\\-", "-").replace("\\&", "")
        for lineno, line in enumerate(text.split("\n"), 1):
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue   # https:, mailto:
                path, _, anchor = target.partition("#")
                dest = (os.path.normpath(os.path.join(os.path.dirname(page),
                                                      path)) if path else page)
                count += 1
                if not os.path.exists(dest):
                    failures.append("%s:%d: link to %s: no such file"
                                    % (rel, lineno, path))
                elif anchor and dest.endswith(".md") and \
                        anchor not in anchors(dest):
                    failures.append("%s:%d: link to %s: no heading #%s"
                                    % (rel, lineno, path or rel, anchor))
            for path in PATH.findall(line):
                path = path.rstrip(".,:;")
                count += 1
                full = os.path.join(SOURCE, path)
                # a glob names files that match it; a program, its source
                if not (glob.glob(full) or os.path.exists(full + ".c")):
                    failures.append("%s:%d: %s: no such file in the tree"
                                    % (rel, lineno, path))
    for f in failures:
        print(f)
    if failures:
        return 1
    print("%d links and paths in %d pages: all there" % (count, len(pages)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
