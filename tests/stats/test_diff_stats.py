#!/usr/bin/env python3
"""profcat diff's adjusted intervals, p-values, MDE, verdicts and sample
estimates equal an independent computation from their definitions
(diff_reference.py: no closed form or code shared with libprofcore), to
the digits the CSV prints, on:

 - the twenty-function captures of gen_captures.py, Holm and BH, and at
   other threshold, power and level;
 - three functions where Holm's second step rejects a change whose
   Bonferroni interval holds 0 (its interval is cut at 0);
 - a function with no sample before (the interval's end at a boundary).
"""
import csv
import io
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diff_reference as R  # noqa: E402

ROOT = os.environ.get("PC_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
FIX = os.path.join(ROOT, "tests", "stats", "fixtures")
PROFCAT = os.environ.get("PROFCAT", "profcat")


def diff_csv(args, cwd=FIX):
    r = subprocess.run([PROFCAT, "diff", "-F", "csv"] + args, cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr
    return list(csv.DictReader(io.StringIO(r.stdout)))


def captures(d, counts_before, counts_after):
    """A symbol map and two raw PC dumps: symbol i at 0x1000 + 16 i."""
    with open(os.path.join(d, "s.nm"), "w") as f:
        f.write("".join("%016x T s%d\n" % (0x1000 + 16 * i, i) for i in range(len(counts_before))))
        f.write("%016x T zend\n" % (0x1000 + 16 * len(counts_before)))
    for name, counts in (("before.pcs", counts_before), ("after.pcs", counts_after)):
        with open(os.path.join(d, name), "w") as f:
            f.write("".join("0x%x\n" % (0x1004 + 16 * i) * c for i, c in enumerate(counts)))
    return ["s.nm", "-f", "raw", "before.pcs", "-f", "raw", "after.pcs"]


class Reference(unittest.TestCase):
    def compare(self, rows, n1, n2, **kw):
        ref = R.diff([(r["symbol"], float(r["before_count"]), float(r["after_count"])) for r in rows],
                     n1, n2, **kw)
        self.assertEqual(len(rows), len(ref))
        for r in rows:
            f = ref[r["symbol"]]
            # each number to the digits printed: within half a unit of
            # the last (%.4f) or 6 significant digits (%.6g)
            for k in ("ci_low_pp", "ci_high_pp", "mde_pp"):
                self.assertLessEqual(abs(float(r[k]) - f[k]), 0.5e-4 + 1e-9, (r["symbol"], k, r[k], f[k]))
            for k in ("p_value", "p_adjusted", "ci_level"):
                self.assertLessEqual(abs(float(r[k]) - f[k]), 5e-6 * abs(f[k]) + 1e-300,
                                     (r["symbol"], k, r[k], f[k]))
            self.assertEqual((r["significant"], r["verdict"], r["more_samples"]),
                             (str(f["significant"]), f["verdict"],
                              "" if f["more_samples"] is None else str(f["more_samples"])), r["symbol"])
        return ref

    def test_twenty(self):
        args = ["twenty.nm", "diff_base.raw.gz", "diff_new.raw.gz"]
        ref = self.compare(diff_csv(args), 20000, 19500)
        self.assertEqual(sorted((r["verdict"], n) for n, r in ref.items() if r["verdict"] != "unchanged"),
                         [("faster", "f03"), ("unresolved", "f05"), ("unresolved", "f12"), ("unresolved", "f17")])
        self.assertEqual(ref["f12"]["more_samples"], 1052)
        ref = self.compare(diff_csv(["--correction", "bh"] + args), 20000, 19500, correction="bh")
        self.assertEqual(ref["f12"]["verdict"], "slower")
        self.compare(diff_csv(["--ci", "90", "--threshold", "0.5", "--power", "90"] + args), 20000, 19500,
                     level=90, threshold=0.5, power=90)

    def test_holm_cut_at_zero(self):
        with tempfile.TemporaryDirectory() as d:
            rows = diff_csv(captures(d, [100, 100, 100], [50, 127, 123]), cwd=d)
        ref = self.compare(rows, 300, 300)
        # p 0.023 > 5%/3: Bonferroni's interval holds 0; Holm's second
        # step (5%/2) rejects it: cut at 0
        self.assertEqual((ref["s1"]["significant"], ref["s1"]["ci_low_pp"]), (1, 0.0))
        self.assertEqual([(r["symbol"], r["ci_low_pp"], r["verdict"]) for r in rows][:2],
                         [("s0", "-24.9272", "faster"), ("s1", "0.0000", "slower")])

    def test_no_sample_before(self):
        with tempfile.TemporaryDirectory() as d:
            rows = diff_csv(captures(d, [0, 400, 600], [12, 380, 608]), cwd=d)
        self.compare(rows, 1000, 1000)


if __name__ == "__main__":
    unittest.main()
