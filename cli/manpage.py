#!/usr/bin/env python3
"""Writes the installed profcat(1): cli/profcat.1 with the project version
in its .TH footer ("profcore" becomes "profcore VERSION"), so that the
version is written in meson.build only.

Usage: manpage.py SOURCE OUTPUT VERSION
"""
import sys

FOOTER = '"profcore" "User Commands"'


def main():
    src, dst, version = sys.argv[1:]
    with open(src, encoding="utf-8") as f:
        lines = f.read().split("\n")
    th = [i for i, l in enumerate(lines) if l.startswith(".TH ")]
    if len(th) != 1 or not lines[th[0]].endswith(" " + FOOTER):
        sys.exit("%s: expected one .TH line ending in %s" % (src, FOOTER))
    lines[th[0]] = lines[th[0]][:-len(FOOTER)] + \
        '"profcore %s" "User Commands"' % version
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
