#!/usr/bin/env python3
"""bash completion (cli/profcat.bash): bash sources the script, `complete -p`
shows it registered, and _profcat completes options, subcommands and the
names of formats, reports and exports from the profcat under test.

Arguments: the completion script and the profcat binary.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SCRIPT, PROFCAT = sys.argv[1], sys.argv[2]
EMPTY = tempfile.mkdtemp(prefix="pc-compl-")   # no file names to offer


def complete(*words):
    """COMPREPLY for a command line whose last word is being completed."""
    argv = [PROFCAT] + list(words)
    prog = ("source %s\nCOMP_WORDS=(%s)\nCOMP_CWORD=%d\n_profcat\n"
            "printf '%%s\\n' \"${COMPREPLY[@]}\"\n"
            % (SCRIPT, " ".join("'%s'" % w for w in argv), len(argv) - 1))
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", prog],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, cwd=EMPTY)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return sorted(r.stdout.split())


class Completion(unittest.TestCase):
    def test_registered(self):
        r = subprocess.run(["bash", "--norc", "--noprofile", "-c",
                            "source %s; complete -p profcat" % SCRIPT],
                           stdout=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(r.stdout,
                         "complete -o filenames -F _profcat profcat\n")

    def test_long_options(self):
        self.assertEqual(complete("--for"), ["--format"])
        self.assertEqual(complete("--fo"), ["--focus", "--format"])
        self.assertEqual(complete("--list-"),
                         ["--list-exports", "--list-formats",
                          "--list-reports", "--list-symbols"])
        self.assertEqual(complete("--outp"),
                         ["--output", "--output-format"])

    def test_subcommand_options(self):
        self.assertEqual(complete("diff", "--corr"), ["--correction"])
        self.assertEqual(complete("me"), ["merge"])

    def test_names(self):
        self.assertEqual(complete("-f", "g"), ["gemdos", "gmon"])
        self.assertEqual(complete("--format", "au"), ["auto"])
        self.assertEqual(complete("-r", "fl"), ["flat"])
        self.assertEqual(complete("-e", "s"), ["speedscope", "svg"])
        self.assertEqual(complete("-F", ""), ["csv", "html", "json", "text"])
        self.assertEqual(complete("--attribution", "b"), ["bucket-start"])

    def test_values_of_the_user(self):
        self.assertEqual(complete("--load-address", ""), [])
        for opt in ("-n", "--top", "--focus", "--ignore", "--hide"):
            self.assertEqual(complete(opt, ""), [], opt)

    def test_issue24_options(self):
        """The CLI-habit options (issue #24) and their values."""
        self.assertEqual(complete("--so"), ["--sort", "--source-path"])
        self.assertEqual(complete("--sort", ""),
                         ["address", "calls", "cum", "name", "self"])
        self.assertEqual(complete("--style", "g"), ["gprof"])
        self.assertEqual(complete("--fo"), ["--focus", "--format"])
        self.assertEqual(complete("--hi"), ["--hide"])
        self.assertEqual(complete("--to"), ["--top"])
        self.assertEqual(complete("--granularity", "f"), ["file", "function"])
        self.assertEqual(complete("--callgraph-time", ""), ["flat", "samples"])
        # the subcommands' own help lists theirs
        self.assertEqual(complete("merge", "--to"), ["--top"])
        self.assertEqual(complete("diff", "--to"), [])

    def test_option_keys(self):
        """-O offers the loaders' keys (from --list-formats -v), then the
        values a key lists; as one word, or split at '=' as bash splits
        it (COMP_WORDBREAKS)."""
        self.assertEqual(complete("-O", "en"), ["encoding=", "endian="])
        self.assertEqual(complete("--option", "gmon-"), ["gmon-layout="])
        self.assertEqual(complete("-O", "endian=b"), ["endian=be",
                                                      "endian=big"])
        self.assertEqual(complete("-O", "endian", "=", "p"), ["pdp"])
        self.assertEqual(complete("-O", "width", "="),
                         ["16", "2", "32", "4", "64", "8"])
        self.assertEqual(complete("-O", "rate=1"), [])   # a number of yours
        self.assertEqual(complete("-O", "nosuch="), [])

    def test_report_export_keys(self):
        """-O offers the reports' and the exports' keys too (their own
        tables, listed by --list-formats -v) and the values they list."""
        self.assertEqual(complete("-O", "disasm"), ["disasm-select="])
        self.assertEqual(complete("-O", "html-"), ["html-disasm="])
        self.assertEqual(complete("-O", "stacks="), ["stacks=estimate",
                                                     "stacks=marked",
                                                     "stacks=none"])
        self.assertEqual(complete("-O", "output-format", "="),
                         ["csv", "html", "json", "text"])
        self.assertEqual(complete("-O", "comp"), ["compress="])

    def test_files(self):
        with open(EMPTY + "/gmon.out", "w"):
            pass
        try:
            self.assertEqual(complete("gm"), ["gmon.out"])
            self.assertEqual(complete("-o", "g"), ["gmon.out"])
        finally:
            os.unlink(EMPTY + "/gmon.out")


if __name__ == "__main__":
    if not shutil.which("bash"):
        print("SKIP: bash not installed")
        sys.exit(77)
    try:
        unittest.main(argv=sys.argv[:1], verbosity=2)
    finally:
        shutil.rmtree(EMPTY, ignore_errors=True)
