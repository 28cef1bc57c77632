#!/usr/bin/env python3
"""profcat --ci, --check, diff, merge and rates on the captures of
gen_captures.py (fixtures/), compared with golden/ byte for byte, plus the
facts each golden is there for, asserted directly.

PC_REGEN=1 rewrites golden/ from the current output (review the diff)."""
import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

ROOT = os.environ.get("PC_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(ROOT, "tests", "stats")
FIX = os.path.join(HERE, "fixtures")
GOLD = os.path.join(HERE, "golden")
PROFCAT = os.environ.get("PROFCAT", "profcat")
GMON = ["-O", "width=4", "-O", "endian=little"]


def run(*args, rc=0):
    r = subprocess.run([PROFCAT] + list(args), cwd=FIX, capture_output=True, text=True)
    if r.returncode != rc:
        raise AssertionError("profcat %s: exit %d, want %d\n%s" %
                             (" ".join(args), r.returncode, rc, r.stderr))
    return r


class Golden(unittest.TestCase):
    def golden(self, name, out):
        path = os.path.join(GOLD, name)
        if os.environ.get("PC_REGEN"):
            os.makedirs(GOLD, exist_ok=True)
            with open(path, "w") as f:
                f.write(out)
        with open(path) as f:
            self.assertEqual(out, f.read(), name)


class CI(Golden):
    def test_text_csv_json(self):
        for fmt, ext in (("text", "txt"), ("csv", "csv"), ("json", "json")):
            out = run("--ci", "95", "-F", fmt, *GMON, "ten.nm", "ci.gmon").stdout
            self.golden("ci." + ext, out)
        rows = json.loads(out)["rows"]
        # f00: 600 of 1000 samples; Wilson 95% (computed here in Python too)
        self.assertEqual(rows[0]["symbol"], "f00")
        self.assertEqual((rows[0]["ci_low"], rows[0]["ci_high"]), (56.9309, 62.9925))

    def test_other_styles_machine_output(self):
        # the historical text layouts are kept as they were; their csv and
        # json carry the intervals, of the percent each style shows
        csv = run("--style", "ddj", "--ci", "95", "-F", "csv", *GMON, "ten.nm", "ci.gmon").stdout
        self.assertEqual(csv.splitlines()[1], "1,f00,600,60.0000,60.0000,6.000000,0,0,0x1000,56.9309,62.9925")
        d = json.loads(run("--style", "atari", "--ci", "95", "-F", "json", *GMON, "ten.nm", "ci.gmon").stdout)
        self.assertEqual(d["ci"], {"level": 95, "method": "wilson"})
        self.assertEqual((d["rows"][3]["ci_low"], d["rows"][3]["ci_high"]), (3.813, 6.5314))  # 50 of 1000, as computed in Python

    def test_regions(self):
        out = run("-r", "regions", "--ci", "95", "-F", "csv", *GMON, "ten.nm", "ci.gmon").stdout
        self.assertEqual(out, "region,samples,percent,ci_low,ci_high\n"
                              "program,1000,100.000000,99.6173,100.0000\n"
                              "symbols,1000,100.000000,99.6173,100.0000\n"
                              "outside,0,0.000000,0.0000,0.3827\n"
                              "total,1000,100.000000,,\n")
        # no ci: unchanged
        out = run("-r", "regions", "-F", "csv", *GMON, "ten.nm", "ci.gmon").stdout
        self.assertTrue(out.startswith("region,samples,percent\nprogram,1000,100.000000\n"))

    def test_bad_level(self):
        r = run("--ci", "100", "ten.nm", "spread.raw.gz", rc=2)
        self.assertEqual(r.stderr, "profcat: option ci=100; expected a confidence level in percent, above 0 and below 100 (e.g. 95)\n")


class Check(Golden):
    CASES = {
        "healthy.gmon": [],
        "few.gmon": ["few-samples"],
        "imprecise.gmon": ["imprecise"],
        "nearzero.gmon": ["near-zero"],
        "wrap.gmon": ["wrap"],
        "spread.raw.gz": ["rate-unknown"],
        "clustered.raw.gz": ["rate-unknown", "clustered"],
    }

    def test_each_warning_alone(self):
        for cap, want in self.CASES.items():
            extra = GMON if cap.endswith(".gmon") else []
            out = run("--check", *extra, "ten.nm", cap).stdout
            self.golden("check_" + cap.replace(".gz", "").replace(".", "_") + ".txt", out)
            got = json.loads(run("--check", "-F", "json", *extra, "ten.nm", cap).stdout)
            self.assertEqual([w["check"] for w in got["warnings"]], want, cap)
            csv = run("--check", "-F", "csv", *extra, "ten.nm", cap).stdout.splitlines()
            self.assertEqual(csv[0], "check,message")
            self.assertEqual([l.split(",")[0] for l in csv[1:]], want, cap)

    def test_header_line(self):
        # the flat report names the warnings meaning the counts may be
        # wrong (wrap, clustered); precision warnings stay in --check
        out = run(*GMON, "ten.nm", "wrap.gmon").stdout
        self.assertIn("\nCheck: 1 sampling-quality warning (wrap); see the check report\n", out)
        out = run("ten.nm", "clustered.raw.gz").stdout
        self.assertIn("\nCheck: 1 sampling-quality warning (clustered); see the check report\n", out)
        for cap in ("healthy.gmon", "few.gmon", "nearzero.gmon"):
            self.assertNotIn("Check:", run(*GMON, "ten.nm", cap).stdout)


class Diff(Golden):
    def test_one_real_change(self):
        for fmt, ext in (("text", "txt"), ("csv", "csv"), ("json", "json")):
            out = run("diff", "-F", fmt, "twenty.nm", "diff_base.raw.gz", "diff_new.raw.gz").stdout
            self.golden("diff." + ext, out)
        d = json.loads(out)
        self.assertEqual(d["tested"], 20)
        self.assertEqual([r["symbol"] for r in d["rows"] if r["significant"]], ["f03"])
        self.assertEqual(d["correction"], "holm")
        # Benjamini-Hochberg bounds the false discovery rate, not the
        # family-wise error: less strict, it also takes f12 (Holm: 0.0541)
        d = json.loads(run("diff", "-F", "json", "--correction", "bh", "twenty.nm",
                           "diff_base.raw.gz", "diff_new.raw.gz").stdout)
        self.assertEqual([r["symbol"] for r in d["rows"] if r["significant"]], ["f03", "f12"])

    def test_symbols_and_groups(self):
        # "-- SYM..." restricts the family; '+' gives each capture its files
        a = run("diff", "twenty.nm", "diff_base.raw.gz", "diff_new.raw.gz", "--", "f03", "f12").stdout
        b = run("diff", "twenty.nm", "diff_base.raw.gz", "+", "twenty.nm", "diff_new.raw.gz",
                "-s", "f03", "-s", "f12").stdout
        self.assertEqual(a, b)
        self.golden("diff_two_symbols.txt", a)
        self.assertIn("Holm correction over 2 symbols", a)

    def test_usage(self):
        r = run("diff", "twenty.nm", "diff_base.raw.gz", rc=2)
        self.assertEqual(r.stderr, "profcat: diff needs exactly two captures, found 1 (files read as samples are captures; '+' separates captures)\n")
        r = run("diff", "twenty.nm", "diff_base.raw.gz", "+", "+", "diff_new.raw.gz", rc=2)
        self.assertEqual(r.stderr, "profcat: capture 2 has no files ('+' separates captures)\n")
        r = run("diff", "twenty.nm", "diff_base.raw.gz", "missing.raw", rc=3)
        self.assertEqual(r.stderr, "profcat: missing.raw: no such file\n")
        r = run("diff", "--bogus", "x", "twenty.nm", "diff_base.raw.gz", "diff_new.raw.gz", rc=2)
        self.assertEqual(r.stderr, "profcat: unknown option '--bogus' (see profcat diff --help)\n")
        r = run("diff", "--correction", "sidak", "twenty.nm", "diff_base.raw.gz", "diff_new.raw.gz", rc=2)
        self.assertEqual(r.stderr, "profcat: bad value 'sidak' for option 'correction' of "
                         "pc_profile_diff; expected one of: holm, bh\n")
        # a key diff does not read is refused, not ignored (a loader's
        # key stays with the loaders)
        r = run("diff", "-O", "granularty=symbol", "--load-address", "0", "twenty.nm",
                "diff_base.raw.gz", "diff_new.raw.gz", rc=2)
        self.assertEqual(r.stderr, "profcat: unknown option 'granularty' for pc_profile_diff; "
                         "known: attribution, use-sizes, demangle, output-format, ci, "
                         "correction, threshold, power, symbols, focus, ignore, hide (-O KEY=VALUE: "
                         "profcat --list-formats -v lists the keys of every loader, report "
                         "and export)\n")
        # a damaged capture: FILE:OFFSET from its loader
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "trunc.gmon")
            with open(os.path.join(FIX, "healthy.gmon"), "rb") as f:
                data = f.read()[:50]
            with open(bad, "wb") as f:
                f.write(data)
            r = run("diff", *GMON, "ten.nm", bad, "healthy.gmon", rc=1)
            self.assertEqual(r.stderr, "profcat: %s:21: histogram record header needs 32 bytes, only 29 left\n" % bad)

    def test_option_forms(self):
        a = run("diff", "--ci=99", "--output-format=csv", "twenty.nm", "diff_base.raw.gz", "diff_new.raw.gz").stdout
        b = run("diff", "--ci", "99", "-F", "csv", "twenty.nm", "diff_base.raw.gz", "diff_new.raw.gz").stdout
        self.assertEqual(a, b)
        self.assertTrue(a.startswith("symbol,before_count,"))


def read_gmon_hists(data):
    """TIME_HIST records of a 32-bit little-endian GNU gmon.out."""
    assert data[:4] == b"gmon"
    pos, out = 20, []
    while pos < len(data):
        tag = data[pos]
        pos += 1
        if tag == 0:
            low, high, n, rate = struct.unpack_from("<IIII", data, pos)
            pos += 32
            counts = list(struct.unpack_from("<%dH" % n, data, pos))
            pos += 2 * n
            out.append((low, high, rate, counts))
        elif tag == 1:
            pos += 12
        else:
            raise AssertionError("tag %d" % tag)
    return out


class Merge(Golden):
    def test_rebinned_counts(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "merged.gmon")
            run("merge", *GMON, "ten.nm", "merge4.gmon", "merge8.gmon", "-e", "gmon", "-o", out)
            with open(out, "rb") as f:
                hists = read_gmon_hists(f.read())
            # 8-byte buckets over [0x1000, 0x1180): the 4-byte buckets
            # pairwise, plus the 8-byte ones from 0x1080
            want = [(4 * i + 3 if i < 32 else 0) + (100 + i - 16 if i >= 16 else 0)
                    for i in range(48)]
            self.assertEqual(hists, [(0x1000, 0x1180, 100, want)])
            # and it reads back: the merged capture is a capture
            back = run("-F", "csv", *GMON, "ten.nm", out).stdout
            self.assertIn(",[total],%d," % sum(want), back)
        self.golden("merge.txt", run("merge", *GMON, "ten.nm", "merge4.gmon", "merge8.gmon").stdout)

    def test_rates_refused(self):
        r = run("merge", *GMON, "ten.nm", "merge4.gmon", "merge60.gmon", rc=1)
        self.assertEqual(r.stderr, "profcat: merge of capture 2 (merge60.gmon): captures sampled at 100 Hz and 60 Hz cannot be added up: a sample would stand for different times; compare them with 'profcat rates', or give the right rate with -O rate=HZ\n")


class Exact(unittest.TestCase):
    """Hatari counts every instruction: no interval, no test."""
    HATARI = os.path.join(ROOT, "tests", "atari", "synth", "dwarfs.hatari")

    def test_exact_counts(self):
        out = run("--ci", "95", self.HATARI).stdout
        self.assertIn("\nCounts are exact (not samples): no confidence interval\n", out)
        self.assertNotIn("+-", out)
        self.assertEqual(run("--check", self.HATARI).stdout,
                         "Sampling check of %s (hatari)\n"
                         "Samples: 105, 1 symbol with samples; counts are exact (not samples)\n"
                         "\nno warnings\n" % self.HATARI)
        d = json.loads(run("diff", "-F", "json", self.HATARI, self.HATARI).stdout)
        self.assertTrue(d["exact"])
        self.assertEqual(d["intervals"], "none")
        self.assertEqual({k: d["rows"][0][k] for k in ("ci_low_pp", "ci_high_pp", "p_value", "p_adjusted",
                                                        "ci_level", "mde_pp", "verdict", "more_samples")},
                         {"ci_low_pp": None, "ci_high_pp": None, "p_value": None, "p_adjusted": None,
                          "ci_level": None, "mde_pp": None, "verdict": "unchanged", "more_samples": None})
        text = run("diff", self.HATARI, self.HATARI).stdout.splitlines()
        self.assertEqual(text[3], "Counts are exact (not samples): the changes are exact; no intervals, no p-values")
        self.assertEqual(text[5].split(), ["symbol", "before", "%", "after", "%", "change", "95%", "interval",
                                           "p", "adj", "MDE", "verdict"])
        self.assertEqual(text[6].split()[-2:], ["+0.00", "unchanged"])
        csvrow = run("diff", "-F", "csv", self.HATARI, self.HATARI).stdout.splitlines()[1]
        self.assertTrue(csvrow.endswith(",0.0000,,,,,0,,,unchanged,"), csvrow)
        # exact counts against samples: no test means anything
        r = run("diff", self.HATARI, "+", "ten.nm", *GMON, "healthy.gmon", rc=1)
        self.assertEqual(r.stderr, "profcat: cannot compare exact counts with samples: capture 1 holds exact counts, capture 2 samples\n")
        r = run("rates", self.HATARI, self.HATARI, rc=1)
        self.assertEqual(r.stderr, "profcat: capture 1 holds exact counts, not samples: there is no sampling period to alias\n")


class Rates(Golden):
    def flagged(self, *caps):
        d = json.loads(run("rates", "-F", "json", "ddj.nm", *caps).stdout)
        return [r["symbol"] for r in d["rows"] if r["disagree"]]

    def test_figure4(self):
        self.golden("rates_fig4.txt", run("rates", "ddj.nm", "fig4a.raw", "fig4b.raw").stdout)
        self.golden("rates_fig4.csv", run("rates", "-F", "csv", "ddj.nm", "fig4a.raw", "fig4b.raw").stdout)
        # as printed, 4(b) lists no main: it disagrees too
        self.assertEqual(self.flagged("fig4a.raw", "fig4b.raw"),
                         ["delay_eight", "delay_fifteen", "main"])
        # 4(b)-shaped: two of fifteen equal functions doubled
        self.assertEqual(self.flagged("fig4a.raw", "fig4b_main.raw"),
                         ["delay_eight", "delay_fifteen"])
        # 4(a)-shaped pair: equal shares at both periods
        self.assertEqual(self.flagged("fig4a.raw", "fig4a_e.raw"), [])
        self.golden("rates_fig4a.txt", run("rates", "ddj.nm", "fig4a.raw", "fig4a_e.raw").stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
