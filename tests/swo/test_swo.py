#!/usr/bin/env python3
"""The swo loader (loaders/swo.c):

- streams written by gen_streams.py from the manual's packet definitions,
  bare, in TPIU frames and in OFLOW frames: every event decoded equal to the
  generator's list (swo_events prints the loader's events);
- the real captures in ../shared/fixtures/swo (SOURCES.md, ORACLES.md): the
  STM32F105 capture framed and bare against the oracles' PC list and the
  per-function counts addr2line gives for it, its 14 overflows and its
  IRQ 28 handler; the RTIC Scope capture's local timestamps against
  sigrok's and its exception trace;
- profcat's reports of a capture: regions by context, the check, the JSON,
  the rate from the DWT settings and from local timestamps, errors;
- the order of the periodic samples (-r timeline): windows of a generated
  stream with sleep samples and an overflow, exact, in every framing and
  against its event list; the STM32F105 capture's window against the
  oracles' PC list, per address."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_streams  # noqa: E402

ROOT = os.environ.get("PC_SOURCE_ROOT", os.path.join(HERE, "..", ".."))
PROFCAT = os.environ.get("PROFCAT", "profcat")
EVENTS = os.environ.get("SWO_EVENTS", "swo_events")
SWO = os.path.join(ROOT, "..", "shared", "fixtures", "swo")
ELF = os.path.join(SWO, "sigrok-dumps_stm32f105_trace_example.elf")
ITM = os.path.join(SWO, "derived", "trace_example.itm.bin")
TPIU = os.path.join(SWO, "derived", "trace_example.tpiu.bin")
PCS = os.path.join(SWO, "derived", "trace_example.pcs.txt")
RTIC = os.path.join(SWO, "rtic-scope-itm_examples_itm.bin")
HAVE_ELF = os.environ.get("PC_HAVE_ELF", "1") == "1"


def run(*args, prog=None):
    p = subprocess.run([prog or PROFCAT] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def events(path, *opts):
    rc, out, err = run(path, *opts, prog=EVENTS)
    return rc, out.splitlines(), err


def real(fn):
    return unittest.skipUnless(os.path.exists(ITM), "no ../shared/fixtures/swo")(fn)


class Generated(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        gen_streams.write_all(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def f(self, name):
        return os.path.join(self.tmp.name, name)

    def want(self, name):
        with open(self.f(name + ".events")) as fh:
            return fh.read().splitlines()

    def test_every_packet_every_framing(self):
        """all.*: every packet type and size (reserved ones too), syncs
        between packets; the same events bare, from TPIU frames (packets
        split by trace ID 2's bytes, both kinds of ID change, full and
        halfword syncs) and from OFLOW frames (COBS blocks of 254 bytes,
        frames of another tag, a damaged frame)."""
        want = self.want("all")
        self.assertGreater(len(want), 3000)
        kinds = {l.split()[0] for l in want}
        self.assertEqual(kinds, {"SYNC", "OVERFLOW", "LTS", "GTS1", "GTS2", "EXT", "SW",
                                 "EVCNT", "EXC", "PC", "SLEEP", "DATA", "HWRESERVED",
                                 "RESERVED"})
        for framing in ("itm", "tpiu", "oflow"):
            rc, got, err = events(self.f("all." + framing), "framing=" + framing)
            self.assertEqual(got, want, framing)
            self.assertEqual((rc, err), (0, ""), framing)

    def test_clean_streams_detected(self):
        """clean.*: what a core writes; profcat finds the framing itself and
        counts the same samples from each."""
        want = self.want("clean")
        npc = sum(1 for l in want if l.startswith("PC "))
        nsleep = want.count("SLEEP")
        nover = want.count("OVERFLOW")
        for framing, conf in (("itm", 24), ("tpiu", 40), ("oflow", 128)):
            rc, got, err = events(self.f("clean." + framing))
            self.assertEqual((rc, err), (0, ""))
            self.assertEqual(got, want, framing)
            rc, out, err = run(self.f("clean." + framing), "-v", "-r", "regions")
            self.assertEqual(rc, 0, err)
            self.assertIn("detected as swo (confidence %d)" % conf, err)
            self.assertIn("%d PC samples, %d sleep, %d overflow" % (npc, nsleep, nover), err)
            self.assertIn("\n  sleep  ", out.replace("sleep ", "sleep  ", 1))

    def test_contexts_of_nested_handlers(self):
        """The context of each sample from the exception trace, nesting
        tracked; after an overflow the context is open until an exception
        packet tells it; computed here from the event list."""
        want = self.want("clean")
        ctx, cur, stack, pending = {}, None, [], 0
        names = {0: "thread mode", 15: "handler 15 (SysTick)",
                 44: "handler 44 (IRQ 28)", 22: "handler 22 (IRQ 6)"}

        def add(k, n):
            ctx[k] = ctx.get(k, 0) + n
        for l in want:
            w = l.split()
            if w[0] == "PC":
                if cur is None:
                    pending += 1
                else:
                    add(names[cur], 1)
            elif w[0] == "SLEEP":
                add("sleep", 1)
            elif w[0] == "OVERFLOW":
                add("unknown", pending)
                pending, cur, stack = 0, None, []
            elif w[0] == "EXC":
                n, fn = int(w[1]), w[2]
                if fn == "ENTER":
                    stack.append(cur)
                    cur = n
                elif fn == "EXIT":
                    if cur is None:
                        add(names[n], pending)
                        pending = 0
                    cur = n
                else:
                    if stack:
                        if stack.pop() is None:
                            add(names[n], pending)
                            pending = 0
                    elif cur is None:
                        add("handler (number lost in an overflow)", pending)
                        pending = 0
                    cur = n
        add("unknown", pending)
        rc, out, err = run(self.f("clean.itm"), "-r", "regions", "-F", "csv")
        self.assertEqual((rc, err), (0, ""))
        got = {}
        for l in out.splitlines():
            if l.startswith("context:"):
                k, n, _ = l[len("context:"):].rsplit(",", 2)
                got[k] = int(n)
        self.assertEqual(got, {k: v for k, v in ctx.items() if v})

    def test_fast_path_equals_general_path(self):
        """Runs of PC samples are counted by a fast path when no hook
        watches: the same samples, contexts, losses and sleep as the events
        the general path decodes, in every framing."""
        from collections import Counter
        for name in ("clean", "all"):
            ev = self.want(name)
            pcs = Counter(int(l.split()[1], 16) for l in ev if l.startswith("PC "))
            want = ["SAMPLE 0x%08x %d" % (a, pcs[a]) for a in sorted(pcs)]
            for framing in ("itm", "tpiu", "oflow"):
                rc, got, err = events("--samples", self.f(name + "." + framing),
                                      "framing=" + framing)
                self.assertEqual((rc, err), (0, ""))
                self.assertEqual([l for l in got if l.startswith("SAMPLE")], want)
                self.assertEqual(len([l for l in got if l.startswith("LOST")]),
                                 min(64, ev.count("OVERFLOW")))
                self.assertIn("SLEEP %d" % ev.count("SLEEP"), got)
                if framing == "itm":
                    ctx = [l for l in got if l.startswith("CONTEXT")]
                    self.assertTrue(ctx)
                else:
                    self.assertEqual([l for l in got if l.startswith("CONTEXT")], ctx)

    def test_split_packet(self):
        """A PC sample cut anywhere by another trace ID's frames."""
        g = gen_streams.Gen(1, False)
        for pc in range(0x08000100, 0x08000100 + 2 * 50, 2):
            g.pc(pc)
        itm, ev = bytes(g.out), g.ev
        with open(self.f("split.itm"), "wb") as fh:
            fh.write(itm)
        for seed in range(20):
            with open(self.f("split.tpiu"), "wb") as fh:
                fh.write(gen_streams.tpiu(itm, seed))
            rc, got, err = events(self.f("split.tpiu"), "framing=tpiu")
            self.assertEqual((rc, got, err), (0, ev, ""), seed)

    def test_capture_starting_inside_a_frame(self):
        """No frame syncs, the first bytes the tail of a frame (a capture
        started mid-stream): the frames are found at the offset from which
        every ID byte names a valid trace ID, the bytes before dropped."""
        itm = open(self.f("clean.itm"), "rb").read()
        fr = gen_streams.tpiu(itm, 9, fsync=False)
        self.assertNotIn(b"\xff\xff\xff\x7f", fr)
        for cut in (1, 5, 11, 15):
            path = self.f("cut%d.tpiu" % cut)
            with open(path, "wb") as fh:
                fh.write(fr[16 - cut:16] + fr)
            rc, got, err = events(path)
            self.assertEqual((rc, got, err), (0, self.want("clean"), ""), cut)
            rc, out, err = run("-v", "-f", "swo", path)
            self.assertIn("%d bytes dropped (before the first frame or trace ID, or cut by a sync)"
                          % cut, err)

    def test_other_files_not_claimed(self):
        """No other fixture of the project is taken for an SWO capture:
        headerless binary files (raw dumps, V7 mon.out, old BSD gmon.out)
        hold zeros and small numbers that read as ITM packets or TPIU
        frames of valid IDs; only PC samples, exception trace or syncs of
        five zero bytes and 0x80 claim a file."""
        files = []
        for d, _, names in os.walk(os.path.join(ROOT, "tests")):
            if os.sep + "swo" in d or "__pycache__" in d:
                continue
            files += [os.path.join(d, n) for n in names
                      if not n.endswith((".py", ".c", ".md", ".build"))]
        self.assertGreater(len(files), 300)
        # 100 files a run: all of them at once are more than a Windows
        # command line holds (32,767 characters; the mingw leg's run
        # failed to start)
        for i in range(0, len(files), 100):
            rc, out, err = events("--probe", *files[i:i + 100])
            self.assertEqual((rc, out, err), (0, [], ""), files[i])
        rc, out, err = events("--probe", self.f("clean.itm"), self.f("clean.tpiu"), ITM)
        self.assertEqual(len(out), 3 if os.path.exists(ITM) else 2)

    def test_rate_from_dwt_settings(self):
        rc, out, err = run(self.f("clean.itm"), "-O", "cpu-hz=72000000", "-O", "postpreset=15",
                           "-O", "cyctap=10")
        self.assertEqual(rc, 0, err)
        self.assertIn("Rate: 4394.53 Hz, each sample counts as 0.000227556 seconds", out)
        rc, out, err = run(self.f("clean.itm"), "-O", "cpu-hz=48e6", "-O", "postpreset=0")
        self.assertIn("Rate: 750000 Hz", out)

    def test_rate_from_local_timestamps(self):
        want = self.want("clean")
        ticks = sum(int(l.split("ts=")[1]) for l in want if l.startswith("LTS "))
        n = sum(1 for l in want if l.startswith("PC ") or l == "SLEEP")
        rc, out, err = run(self.f("clean.itm"), "-O", "cpu-hz=1000000", "-v")
        self.assertEqual(rc, 0, err)
        self.assertIn("Duration: %g seconds\n" % (ticks / 1e6), out)
        self.assertIn("swo: rate %g Hz: %d samples in %g s of local timestamps (too low: samples were lost)"
                      % (n / (ticks / 1e6), n, ticks / 1e6), err)

    def test_options_refused(self):
        rc, out, err = run(self.f("clean.itm"), "-O", "postpreset=3")
        self.assertEqual(rc, 2)
        self.assertIn("postpreset and cyctap give the sampling period in CPU cycles: give cpu-hz=N too", err)
        rc, out, err = run(self.f("clean.itm"), "-O", "cyctap=7", "-O", "cpu-hz=1e6")
        self.assertIn("cyctap must be 6 or 10", err)
        rc, out, err = run(self.f("clean.itm"), "-O", "postpreset=16", "-O", "cpu-hz=1e6")
        self.assertIn("postpreset must be DWT_CTRL.POSTPRESET, 0..15, not '16'", err)

    def test_errors(self):
        empty = self.f("empty.swo")
        open(empty, "wb").close()
        rc, out, err = run("-f", "swo", empty)
        self.assertEqual((rc, out), (1, ""))
        self.assertEqual(err, "profcat: %s:0: empty file: expected an SWO capture (ITM/DWT packets), found 0 bytes\n" % empty)
        # a TPIU capture with nothing on the ITM's trace ID
        rc, out, err = run("-f", "swo", "-O", "tpiu-id=5", self.f("clean.tpiu"))
        self.assertEqual(rc, 1)
        self.assertRegex(err, r":0: no ITM data: nothing on TPIU trace ID 5; data on 1 \(\d+ bytes\), 2 \(\d+ bytes\): give -O tpiu-id=N")
        # no PC samples: the exception trace alone
        g = gen_streams.Gen(2, False)
        g.sync()
        g.exc(44, 1)
        g.exc(0, 3)
        with open(self.f("nopc.itm"), "wb") as fh:
            fh.write(bytes(g.out))
        rc, out, err = run("-f", "swo", self.f("nopc.itm"))
        self.assertEqual(rc, 1)
        self.assertIn(":12: no PC samples in 3 ITM packets (2 exception trace, 0 instrumentation, 0 local timestamp)", err)


def nm_listing(path, symbols):
    """An nm listing of (address, name) pairs, sorted."""
    with open(path, "w") as fh:
        fh.write("".join("%08x T %s\n" % (a, n) for a, n in sorted(symbols)))


def timeline_json(out):
    """-r timeline -F json: [(first, end, {function: count})], in order,
    the sleep samples under "(sleep)", those of no symbol "(no symbol)"."""
    wins = []
    for w in json.loads(out)["windows"]:
        c = {"(sleep)": w["sleep"]} if "sleep" in w else {}
        c.update({x["function"] or "(no symbol)": x["count"] for x in w["counts"]})
        wins.append((w["first"], w["end"], c))
    return wins


def order_windows(ev, func, bounds):
    """The periodic samples of an event list (PC and SLEEP lines, in order)
    counted by func(pc) ("(sleep)" for a sleep) in the windows
    [bounds[i], bounds[i + 1])."""
    seq = [func(int(l.split()[1], 16)) if l.startswith("PC ") else "(sleep)"
           for l in ev if l.startswith("PC ") or l == "SLEEP"]
    whole = bounds[-1] == len(seq)
    out = []
    for a, b in zip(bounds, bounds[1:]):
        c = {}
        for name in seq[a:b]:
            c[name] = c.get(name, 0) + 1
        out.append((a, b, c))
    return out, whole


ORDER_TEXT = """\
Timeline: 4 windows of the samples in the input's order (counts are samples)

window       first         end       count  function
     0           0        4096        3000  boot
     0           0        4096        1063  main_loop
     0           0        4096          33  SysTick_Handler
     1        4096        8192        2105  main_loop
     1        4096        8192        1928  (sleep)
     1        4096        8192          63  SysTick_Handler
     2        8192       12288        4096  (sleep)
     3       12288       13001         635  main_loop
     3       12288       13001          76  (sleep)
     3       12288       13001           1  SysTick_Handler
     3       12288       13001           1  (no symbol)
"""

ORDER_JSON = {"report": "timeline", "event": "samples", "counts": "samples", "windows": [
    {"window": 0, "first": 0, "end": 4096,
     "counts": [{"function": "boot", "count": 3000}, {"function": "main_loop", "count": 1063},
                {"function": "SysTick_Handler", "count": 33}]},
    {"window": 1, "first": 4096, "end": 8192, "sleep": 1928,
     "counts": [{"function": "main_loop", "count": 2105},
                {"function": "SysTick_Handler", "count": 63}]},
    {"window": 2, "first": 8192, "end": 12288, "sleep": 4096, "counts": []},
    {"window": 3, "first": 12288, "end": 13001, "sleep": 76,
     "counts": [{"function": "main_loop", "count": 635},
                {"function": "SysTick_Handler", "count": 1},
                {"function": None, "count": 1}]}]}


class Order(unittest.TestCase):
    """The periodic samples in the order they were taken: sample i of the
    capture (PC or sleep) is event i of the timeline; an overflow takes no
    place (the windows index the samples that arrived)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.itm, cls.ev = gen_streams.order_stream()
        cls.nm = os.path.join(cls.tmp.name, "order.nm")
        nm_listing(cls.nm, gen_streams.ORDER_SYMBOLS)
        cls.files = {}
        for framing, data in (("itm", cls.itm), ("tpiu", gen_streams.tpiu(cls.itm, 5)),
                              ("oflow", gen_streams.oflow(cls.itm, 6))):
            cls.files[framing] = os.path.join(cls.tmp.name, "order." + framing)
            with open(cls.files[framing], "wb") as fh:
                fh.write(data)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def func(self, pc):
        name = "(no symbol)"
        for a, n in gen_streams.ORDER_SYMBOLS[:-1]:
            if pc >= a:
                name = n
        return name if pc < gen_streams.ORDER_SYMBOLS[-1][0] else "(no symbol)"

    def test_windows_exact(self):
        """Windows of 4096 samples; sleep samples hold places (the row
        "(sleep)", a window asleep throughout), the overflow after sample
        3000 none; the same in every framing (fast path and general)."""
        for framing, path in self.files.items():
            rc, out, err = run("-r", "timeline", self.nm, path)
            self.assertEqual((rc, out, err), (0, ORDER_TEXT, ""), framing)
            rc, out, err = run("-r", "timeline", "-F", "json", self.nm, path)
            self.assertEqual((rc, json.loads(out), err), (0, ORDER_JSON, ""), framing)
        rc, out, err = run("-r", "timeline", "-F", "csv", self.nm, self.files["itm"])
        self.assertEqual(out.splitlines()[:6], ["window,first,end,count,function",
                                                "0,0,4096,3000,boot", "0,0,4096,1063,main_loop",
                                                "0,0,4096,33,SysTick_Handler",
                                                "1,4096,8192,2105,main_loop",
                                                "1,4096,8192,1928,(sleep)"])
        rc, out, err = run("-r", "timeline", "-F", "json", self.nm, self.files["itm"])
        want, whole = order_windows(self.ev, self.func, [0, 4096, 8192, 12288, 13001])
        self.assertTrue(whole)
        self.assertEqual(timeline_json(out), want)

    def test_flat_unchanged(self):
        """The windows' counts are the profile's samples, counted once: the
        flat profile, the sleep class and the overflow as without order."""
        rc, out, err = run(self.nm, self.files["itm"], "-v")
        self.assertEqual(rc, 0, err)
        self.assertIn("Samples: 13001 total, 6900 in the program, 6101 outside (unknown 1, sleep 6100)\n", out)
        rows = [l.split()[1:3] for l in out.splitlines() if l[:4].strip().isdigit()]
        self.assertEqual(rows, [["main_loop", "3803"], ["boot", "3000"],
                                ["SysTick_Handler", "97"]])
        self.assertIn("first at byte 15008 after 3000 samples", out)
        self.assertIn("swo: overflow 1 at byte 15008, after 3000 samples\n", err)

    def test_merged_windows(self):
        """Past 64 windows adjacent ones merge and the span doubles: a
        stream of 300,000 samples, the address changing with the sample's
        index; every window exact against the event list."""
        g = gen_streams.Gen(3, False)
        for i in range(300000):
            if i % 7919 == 0:
                g.sleep()
            else:
                g.pc(0x08000100 + 0x100 * ((i * 13 // 4096) % 3) + 2 * (i % 4))
            if i == 100000:
                g.overflow()
        path = os.path.join(self.tmp.name, "long.itm")
        with open(path, "wb") as fh:
            fh.write(bytes(g.out))
        rc, out, err = run("-r", "timeline", "-F", "json", self.nm, path)
        self.assertEqual((rc, err), (0, ""))
        wins = timeline_json(out)
        bounds = [w[0] for w in wins] + [wins[-1][1]]
        self.assertTrue(32 <= len(wins) < 64)
        self.assertEqual(bounds[:3], [0, 8192, 16384])
        want, whole = order_windows(g.ev, self.func, bounds)
        self.assertTrue(whole)
        self.assertEqual(wins, want)


@real
class RealCaptures(unittest.TestCase):
    def test_pc_list_equals_the_oracles(self):
        """The 393 PCs both oracles read, in order, from the bare and the
        framed stream (the one split across frames 225 and 232 included:
        sigrok's arm_itm loses it on the framed stream, ORACLES.md 4.2)."""
        with open(PCS) as fh:
            want = fh.read().splitlines()
        for path in (ITM, TPIU):
            rc, got, err = events(path)
            self.assertEqual((rc, err), (0, ""))
            self.assertEqual([l for l in got if l.startswith("PC ")], want, path)
            self.assertEqual(got.count("OVERFLOW"), 14)
            self.assertEqual([l for l in got if l.startswith("EXC")],
                             ["EXC 44 ENTER", "EXC 0 RETURN"] * 8)
            self.assertIn("PC 0x080002f6", got)

    @unittest.skipUnless(HAVE_ELF, "built without the ELF loader")
    def test_flat_profile(self):
        """addr2line -f on the oracles' PC list: delay 381, bubble_sort 7,
        TIM2_IRQ 3, ITM_Print 1, ITM_SendValue 1."""
        for path, first in ((ITM, 274), (TPIU, 841)):
            rc, out, err = run(ELF, path, "--cutoff", "100")
            self.assertEqual((rc, err), (0, ""))
            head = ("Samples: 393 total, 393 in the program, 0 outside\n"
                    "Rate: unknown (counts are samples)\n"
                    "Cutoff: 100 percent of the samples, 5 of 10 symbols listed\n"
                    "Warning: 14 overflow packets: the ITM dropped packets (PC samples among them; how many is not known), first at byte %d after 42 samples\n" % first)
            self.assertIn(head, out)
            self.assertIn("Check: 1 sampling-quality warning (lost); see the check report\n", out)
            rows = [l.split()[1:3] for l in out.splitlines() if l[:4].strip().isdigit()]
            self.assertEqual(rows, [["delay", "381"], ["bubble_sort", "7"], ["TIM2_IRQ", "3"],
                                    ["ITM_Print", "1"], ["ITM_SendValue", "1"]])

    @unittest.skipUnless(HAVE_ELF, "built without the ELF loader")
    def test_regions_check_json(self):
        rc, out, err = run(ELF, TPIU, "-r", "regions")
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out, "region                 samples  percent\n"
                              "program                    393   100.00\n"
                              "  symbols                  393   100.00\n"
                              "outside                      0     0.00\n"
                              "total                      393   100.00\n"
                              "context                    393   100.00\n"
                              "  thread mode              256    65.14\n"
                              "  handler 44 (IRQ 28)        8     2.04\n"
                              "  unknown                  129    32.82\n")
        rc, out, err = run(ELF, TPIU, "-r", "check")
        self.assertIn("warning: lost: 14 losses in the capture (overflow: samples dropped, how many is not known), the first at byte 841 after 42 samples;", out)
        rc, out, err = run(ELF, ITM, "-F", "json")
        j = json.loads(out)
        self.assertEqual(j["lost"]["events"], 14)
        self.assertEqual(j["lost"]["first"][:2], [{"offset": 274, "after_samples": 42},
                                                  {"offset": 437, "after_samples": 69}])
        self.assertEqual(j["totals"]["total"], 393)

    def test_handler_samples(self):
        """The 8 samples in handler 44: TIM2_IRQ's 3 and bubble_sort's 7...
        those of them before an overflow (the others are unknown)."""
        rc, got, err = events(ITM)
        inside, on = [], False
        for l in got:
            if l == "EXC 44 ENTER":
                on = True
            elif l in ("OVERFLOW", "EXC 0 RETURN"):
                on = False
            elif on and l.startswith("PC "):
                inside.append(l)
        self.assertEqual(len(inside), 8)

    @unittest.skipUnless(HAVE_ELF, "built without the ELF loader")
    def test_timeline(self):
        """One window of the 393 samples (the 14 overflows take no place),
        by function as addr2line gives them, framed and bare."""
        want = ("Timeline: 1 window of the samples in the input's order (counts are samples)\n\n"
                "window       first         end       count  function\n"
                "     0           0         393         381  delay\n"
                "     0           0         393           7  bubble_sort\n"
                "     0           0         393           3  TIM2_IRQ\n"
                "     0           0         393           1  ITM_Print\n"
                "     0           0         393           1  ITM_SendValue\n")
        for path in (ITM, TPIU):
            rc, out, err = run("-r", "timeline", ELF, path)
            self.assertEqual((rc, out, err), (0, want, ""), path)
        rc, out, err = run("-r", "timeline", "-F", "csv", ELF, TPIU)
        self.assertEqual(out, "window,first,end,count,function\n0,0,393,381,delay\n"
                              "0,0,393,7,bubble_sort\n0,0,393,3,TIM2_IRQ\n"
                              "0,0,393,1,ITM_Print\n0,0,393,1,ITM_SendValue\n")

    def test_timeline_per_address(self):
        """Per address (a symbol for each sampled PC): the window's counts
        are those of the oracles' PC list; the capture 30 times over
        (11,790 samples, windows ending inside a copy) gives windows
        [0, 4096), [4096, 8192), [8192, 11790), each the counts of its
        slice of the list 30 times over."""
        with open(PCS) as fh:
            pcs = [int(l.split()[1], 16) for l in fh]
        with tempfile.TemporaryDirectory() as tmp:
            nm = os.path.join(tmp, "pcs.nm")
            nm_listing(nm, [(a, "pc_%08x" % a) for a in set(pcs)] +
                       [(max(pcs) + 2, "_end")])
            name = lambda a: "pc_%08x" % a  # noqa: E731
            ev = ["PC 0x%08x" % a for a in pcs]
            for path, n in ((ITM, 1), (TPIU, 1), (os.path.join(tmp, "x30.itm"), 30)):
                if n > 1:
                    with open(ITM, "rb") as fh, open(path, "wb") as out:
                        out.write(fh.read() * n)
                rc, out, err = run("-r", "timeline", "-F", "json", nm, "-f", "swo", path)
                self.assertEqual((rc, err), (0, ""))
                bounds = [0, 393] if n == 1 else [0, 4096, 8192, 11790]
                want, whole = order_windows(ev * n, name, bounds)
                self.assertTrue(whole)
                self.assertEqual(timeline_json(out), want, path)

    def test_two_captures_no_timeline(self):
        """Two captures in one profile: one flat profile of both, but their
        orders cannot be combined, which -r timeline says."""
        rc, out, err = run("-r", "timeline", ITM, TPIU)
        self.assertEqual((rc, out, err), (1, "", "profcat: no timeline: the profile holds several ordered inputs, whose orders cannot be combined; load one of them\n"))

    def test_rtic_scope_timestamps(self):
        """RTIC Scope's bare capture: sigrok's cumulative local timestamps
        (pyOCD's are wrong, ORACLES.md 5.2), the exception trace both
        oracles print, 14 syncs; no PC samples, which profcat says."""
        rc, got, err = events(RTIC)
        self.assertEqual(rc, 1)
        self.assertIn("no PC samples in 32 ITM packets (8 exception trace, 0 instrumentation, 10 local timestamp): enable the DWT's periodic PC sampling", err)
        ts, cum = [], 0
        for l in got:
            if l.startswith("LTS "):
                cum += int(l.split("ts=")[1])
                ts.append(cum)
        self.assertEqual(ts, [1627, 1810, 2888, 2891, 3456, 3463, 49625, 2049624, 4049623,
                              5533374])
        self.assertEqual([l for l in got if l.startswith("EXC")],
                         ["EXC 22 ENTER", "EXC 24 ENTER", "EXC 24 EXIT", "EXC 23 ENTER",
                          "EXC 23 EXIT", "EXC 22 RETURN", "EXC 0 ENTER", "EXC 0 ENTER"])
        self.assertEqual(got.count("SYNC"), 14)
        self.assertEqual(set(l.split()[0] for l in got), {"SYNC", "LTS", "EXC"})


if __name__ == "__main__":
    unittest.main(verbosity=2)
