#!/usr/bin/env python3
"""The trace loader on synthesized traces (loaders/trace.c).

- MAME folding: a program's PC sequence is folded here by MAME's rule
  (check_mame.fold) and profcat's per-address counts from the folded log
  (an nm listing with a symbol at every address) equal the unfolded
  counts; a fold of 4e9 instructions is counted a period at a time; a
  loop whose logged lines went two ways is refused in one line;
- the hand-split built-in line expressions give what the general path
  gives (the same dialects with an equivalent expression) on every
  fixture, hostile lines included;
- banks (BANK:ADDR) keep two routines at one address apart;
- gzip from a pipe; errors: counts, cycles, dialect mistakes.
"""
import gzip
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_mame import fold  # noqa: E402

PROFCAT = os.environ["PROFCAT"]
SOURCE = os.environ["PC_SOURCE_ROOT"]
HAVE_YAML = os.environ.get("PC_HAVE_YAML", "1") == "1"
needs_yaml = unittest.skipUnless(HAVE_YAML, "user dialects need libyaml")


def profcat(*args, stdin=None):
    p = subprocess.run([PROFCAT, *args], capture_output=True, input=stdin)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def csv_counts(out):
    rows = {}
    for line in out.splitlines()[1:]:
        f = line.split(",")
        if f[0] or f[1] in ("[total]", "[outside]"):
            rows[f[1]] = int(f[2])
    return rows


def program():
    """A PC sequence: a 3-instruction loop run 200 times, code, a
    2-instruction loop run 1000 times, code, the first loop again."""
    pcs = [0x8000, 0x8002, 0x8004]
    pcs += [0x8010, 0x8012, 0x8014] * 200
    pcs += [0x8030 + i for i in range(70)]
    pcs += [0x8020, 0x8021] * 1000
    pcs += [0x8100 + i for i in range(70)]
    pcs += [0x8010, 0x8012, 0x8014] * 50
    pcs += [0x8040, 0x8041, 0x8042]
    return pcs


def nested():
    """Two loops inside an outer one: once the outer loop has run twice
    in MAME's window, a fold spans both inner loops."""
    pcs = [0x8000, 0x8002]
    for _ in range(5):
        pcs += [0x8004]
        pcs += [0x8010, 0x8012, 0x8014] * 200
        pcs += [0x8020, 0x8021] * 1000
        pcs += [0x8030, 0x8033]
    pcs += [0x8040, 0x8041, 0x8042]
    return pcs


def mame_text(lines):
    out = []
    for x in lines:
        if isinstance(x, tuple):
            out += ["", "   (loops for %d instructions)" % x[1], ""]
        else:
            out.append("%04X: nop" % x)
    return "\n".join(out) + "\n"


class Traces(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="pc-traces-")
        cls.pcs = program()
        with open(cls.path("every.nm"), "w") as f:
            for a in sorted(set(cls.pcs)) + [0x9000]:
                f.write("%08x T a_%04x\n" % (a, a))

    @classmethod
    def path(cls, name):
        return os.path.join(cls.tmp.name, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def want(self, pcs):
        w = {}
        for a in pcs:
            w["a_%04x" % a] = w.get("a_%04x" % a, 0) + 1
        w["[total]"] = len(pcs)
        w["[outside]"] = 0
        return w

    def test_noloop(self):
        t = self.write("noloop.log", mame_text(self.pcs))
        rc, out, err = profcat("-F", "csv", self.path("every.nm"), t)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(csv_counts(out), self.want(self.pcs))

    def test_folded(self):
        lines, pending = fold(self.pcs)
        self.assertTrue(any(isinstance(x, tuple) for x in lines))
        # the last line is logged: no instruction is pending at the end
        self.assertEqual(pending, 0)
        t = self.write("folded.log", mame_text(lines))
        rc, out, err = profcat("-F", "csv", self.path("every.nm"), t)
        self.assertEqual(rc, 0, err)
        self.assertEqual(csv_counts(out), self.want(self.pcs))

    def test_long_fold(self):
        # 4e9 instructions of a 2-instruction loop: counted a period at a time
        pcs = [0x8000, 0x8020, 0x8021, 0x8020, 0x8021]
        lines, _ = fold(pcs)
        text = mame_text(lines) + "\n   (loops for 4000000000 instructions)\n\n8040: rts\n"
        t = self.write("long.log", text)
        rc, out, err = profcat("-F", "csv", self.path("every.nm"), t)
        self.assertEqual(rc, 0, err)
        got = csv_counts(out)
        self.assertEqual(got["a_8020"], 2 + 2000000000)
        self.assertEqual(got["a_8021"], 2 + 2000000000)
        self.assertEqual(got["[total]"], 4000000006)

    def test_fold_refused(self):
        # nested loops: the fold of the outer loop's later turns spans both
        # inner loops, whose split it does not record
        lines, _ = fold(nested())
        t = self.write("nested.log", mame_text(lines))
        rc, out, err = profcat(self.path("every.nm"), t)
        self.assertEqual(rc, 1)
        self.assertRegex(err, r"^profcat: %s:\d+: cannot expand the folded loop of \d+ instructions: "
                         r"the logged lines show the instruction at 0x8014 going both to 0x8010 "
                         r"and to 0x8020 inside the loop; trace with noloop\n$" % t)
        # a loop whose branch at 8012 went both ways while it was logged
        pcs = [0x8000] + [0x8010, 0x8012, 0x8014, 0x8010, 0x8012] * 30 + [0x8040]
        lines, _ = fold(pcs)
        t = self.write("refused.log", mame_text(lines))
        rc, out, err = profcat(self.path("every.nm"), t)
        self.assertEqual(rc, 1)
        self.assertEqual(err, "profcat: %s:61: cannot expand the folded loop of 2 instructions: "
                         "no logged line shows where the instruction at 0x8012 went inside the "
                         "loop; trace with noloop\n" % t)

    def test_fold_errors(self):
        for text, off, msg in (
                ("\n   (loops for 3 instructions)\n\n8000: nop\n", 1,
                 "a folded loop before any instruction line: cannot tell what it ran"),
                ("8000: nop\n8000: nop\n\n   (loops for 0 instructions)\n", 21,
                 "expected a loop count of 1 or more (dialect mame), found \"   (loops for 0 instructions)\""),
                ("8000: nop\n8000: nop\n\n   (loops for 99999999999999999999999 instructions)\n", 21,
                 "expected a loop count of 1 or more (dialect mame), found \"   (loops for 99999999999999999999999 instructions)\""),
                ("8000: nop\n8001: nop\n8002: nop\nzz\n", 30,
                 "expected an instruction line (dialect mame), found \"zz\"")):
            t = self.write("bad.log", text)
            rc, out, err = profcat("-f", "trace", "-O", "trace-dialect=mame", t)
            self.assertEqual((rc, err), (1, "profcat: %s:%d: %s\n" % (t, off, msg)))

    def test_pc_dialect_gdb(self):
        text = ("(gdb) display/i $pc\n1: x/i $pc\n=> 0x8000 <main>:\tpush {r7, lr}\n"
                "(gdb) si\n0x00008002\t5\t  x++;\n1: x/i $pc\n=> 0x8002 <main+2>:\tadds r0, #1\n"
                "(gdb) si\n1: x/i $pc\n=> 0x8002 <main+2>:\tadds r0, #1\n"
                "pc (/32): 0x00008004\n0x8010\n")
        t = self.write("gdb.log", text)
        rc, out, err = profcat("-F", "csv", self.path("every.nm"), t)
        self.assertEqual(rc, 0, err)
        self.assertEqual(csv_counts(out), {"a_8000": 1, "a_8002": 2, "a_8004": 1,
                                           "a_8010": 1, "[total]": 5, "[outside]": 0})

    def test_gzip_pipe(self):
        data = gzip.compress(mame_text(self.pcs).encode())
        rc, out, err = profcat("-F", "csv", self.path("every.nm"), "-", stdin=data)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(csv_counts(out), self.want(self.pcs))

    @needs_yaml
    def test_fast_path_equals_general_path(self):
        # the built-in dialects with an equivalent line expression (not
        # the one split by hand) read every fixture the same
        lines, _ = fold(self.pcs)
        hostile = ("8000: a\n8000:x\n8000 : b\n80G0: c\n: d\nFFFFFFFFFFFFFFFFF: e\n"
                   "8000:  \n0x: \n=> 0x8000\n=> 0x8000 <x>\n=> 0x8000<x>\n0x12:\n"
                   "pc (/32): 0x8000\npc (/): 0x8000\npc (/32):0x8000\n0x8000 \n")
        cases = [("mame", mame_text(lines)), ("mame", mame_text(self.pcs)),
                 ("pc", "=> 0x8000 <main>:\tnop\n0x8002\npc (/32): 0x8004\nxyz\n"),
                 ("mame", hostile), ("pc", hostile)]
        for name, text in cases:
            with open(os.path.join(SOURCE, "dialects", "traces", name + ".yaml")) as f:
                src = f.read()
            if name == "mame":
                slow = src.replace("line: '^(?P<pc>[0-9A-F]+): '", "line: '^(?P<pc>[0-9A-F]+):[ ]'")
            else:
                slow = src.replace("(:.*| <.*)?$'", "(:.*|[ ]<.*)?$'")
            self.assertNotEqual(slow, src)
            d = self.write("slow.yaml", slow)
            t = self.write("case.log", text)
            a = profcat("-F", "csv", self.path("every.nm"), "--trace-dialect", name, t)
            b = profcat("-F", "csv", self.path("every.nm"), "--trace-dialect", d, t)
            self.assertEqual(a[0], b[0], text)
            self.assertEqual(a[1], b[1], text)
            self.assertEqual(a[2].replace("dialect " + name, "dialect X"),
                             b[2].replace("dialect " + name, "dialect X"), text)

    def test_ld65_layouts(self):
        # cc65 2.19's map and the older layout (Offs = ..., "Exports list:")
        old = ("Modules list:\n-------------\nmain.o:\n"
               "    CODE              Offs = 000000   Size = 000020\n\n\n"
               "Segment list:\n-------------\nName                  Start   End     Size\n"
               "--------------------------------------------\n"
               "CODE                  008000  00801F  000020\n\n\n"
               "Exports list:\n-------------\n"
               "__CODE_LOAD__             008000 RLA    main                      008000 RLA    \n"
               "ptr1                      000008 RLZ    answer                    00002A  EA    \n"
               "helper                    008010  LA    \n\n\n"
               "Imports list:\n-------------\nmain (main.o):\n")
        new = old.replace("Offs = 000000   Size = 000020",
                          "Offs=000000  Size=000020  Align=00001  Fill=0000").replace(
                          "Exports list:\n-------------", "Exports list by name:\n---------------------")
        for text in (old, new):
            m = self.write("ld65.map", text)
            rc, out, err = profcat("--list-symbols", "-F", "csv", m)
            self.assertEqual((rc, err), (0, ""))
            self.assertEqual(out, "name,segment,address,size,kind\nmain,,0x8000,0,text\n"
                             "ptr1,,0x8,0,data\nanswer,,0x2a,0,abs\nhelper,,0x8010,0,text\n")

    def test_cc65_dbgfile(self):
        dbg = os.path.join(SOURCE, "tests", "traces", "fixtures", "small.dbg")
        rc, out, err = profcat("--list-symbols", "-F", "csv", dbg)
        self.assertEqual((rc, err), (0, ""))
        # L0002 lies inside _f's scope: not a symbol of its own
        self.assertEqual(out, "name,segment,address,size,kind\n_f,,0x8000,16,text\n"
                         "_x,,0x6000,2,data\nN,,0x5,0,abs\n_g,,0x8010,16,text\n")
        t = self.write("dbg.log", "=> 0x8000\n=> 0x8004\n=> 0x8010\n=> 0x8011\n=> 0x8004\n")
        rc, out, err = profcat("-r", "source", "-F", "csv", dbg, t)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out, "file,line,count,percent,inlined\np.c,3,3,60.0000,\n"
                         "p.c,7,2,40.0000,\n")
        for text, off, msg in (
                ("version\tmajor=2,minor=0\nfile\tid=99999,name=\"x\"\n", 29,
                 "expected an id (a number no larger than the records before it)"),
                ("version\tmajor=2,minor=0\nsym\tid=0,name=\"x,val=1\n", 28,
                 "expected key=value fields separated by commas"),
                ("version\tmajor=2,minor=0\nspan\tid=0,seg=0\n", 24,
                 "expected a span's seg and start")):
            d = self.write("bad.dbg", text)
            rc, out, err = profcat("--list-symbols", d)
            self.assertEqual((rc, err), (1, "profcat: %s:%d: %s\n" % (d, off, msg)))

    @needs_yaml
    def test_banks(self):
        mapd = self.write("banks.yaml", "profcore-dialect: 1\nname: banks\naddress: hex\n"
                          "rows:\n  - match: '^(?P<address>[0-9A-F]+:[0-9A-F]+) (?P<name>[a-z0-9_]+)$'\n")
        syms = self.write("banks.map", "1:8000 bank1_main\n1:9000 bank1_end\n"
                          "2:8000 bank2_main\n2:9000 bank2_end\n")
        trd = self.write("banked.yaml", "profcore-trace-dialect: 1\nname: banked\n"
                         "line: '^(?P<pc>[0-9A-F]+:[0-9A-F]+)$'\n")
        t = self.write("banked.log", "1:8000\n1:8001\n2:8000\n1:8002\n2:8001\n2:8001\n")
        rc, out, err = profcat("-F", "csv", "-f", "map", "-O", "dialect=" + mapd, syms,
                               "--trace-dialect", trd, t)
        self.assertEqual(rc, 0, err)
        self.assertEqual(csv_counts(out), {"bank1_main": 3, "bank2_main": 3, "[total]": 6,
                                           "[outside]": 0})
        # a bank group does the same
        trd2 = self.write("banked2.yaml", "profcore-trace-dialect: 1\nname: banked2\n"
                          "line: '^bank (?P<bank>[0-9]+) pc (?P<pc>[0-9A-F]+)$'\n")
        t2 = self.write("banked2.log", "bank 1 pc 8000\nbank 2 pc 8000\nbank 2 pc 8001\n")
        rc, out, err = profcat("-F", "csv", "-f", "map", "-O", "dialect=" + mapd, syms,
                               "--trace-dialect", trd2, t2)
        self.assertEqual(rc, 0, err)
        self.assertEqual(csv_counts(out), {"bank1_main": 1, "bank2_main": 2, "[total]": 3,
                                           "[outside]": 0})

    @needs_yaml
    def test_cycles_errors(self):
        d = os.path.join(SOURCE, "tests", "traces", "fixtures", "toyemu.yaml")
        t = self.write("cyc.log", "[cpu0] cyc=10 pc=0100 nop\n[cpu0] cyc=4 pc=0101 nop\n")
        rc, out, err = profcat("--trace-dialect", d, "-O", "trace-event=cycles", t)
        self.assertEqual((rc, err), (1, "profcat: %s:37: the cycle counter goes back from 10 to 4\n" % t))
        rc, out, err = profcat("--trace-dialect", "mame", "-O", "trace-event=cycles", t)
        self.assertEqual((rc, err), (2, "profcat: %s: trace-event=cycles: dialect mame gives no cycle counts\n" % t))

    @needs_yaml
    def test_dialect_errors(self):
        t = self.write("x.log", "8000: nop\n")
        for text, msg in (
                ("name: x\nline: '^(?P<pc>[0-9]+)'\n",
                 "1:1: key 'profcore-trace-dialect': missing (the schema version, 1, must be given)"),
                ("profcore-trace-dialect: 1\nname: x\nline: '^([0-9]+)'\n",
                 "3:7: key 'line': the expression needs a group named 'pc'"),
                ("profcore-trace-dialect: 1\nname: x\nline: '^(?P<pc>[0-9]+)'\nloop:\n  match: 'x'\n",
                 "5:10: key 'loop.match': the expression needs a group named 'count'"),
                ("profcore-trace-dialect: 1\nname: x\nline: '^(?P<pc>[0-9]+)'\nloop:\n  match: '(?P<count>x)'\n  window: 5000\n",
                 "6:11: key 'loop.window': expected a number from 2 to 4096, found '5000'"),
                ("profcore-trace-dialect: 1\nname: x\nline: '^(?P<pc>[0-9]+)'\nother: maybe\n",
                 "4:8: key 'other': 'maybe' is not one of: error, skip"),
                ("profcore-trace-dialect: 1\nname: x\nline: '^(?P<pc>[0-9]+)((a*)*)*(b{1000}){1000}'\n",
                 "3:7: key 'line': invalid regular expression: expression too large (more than 5000 instructions once repetitions are expanded)")):
            d = self.write("d.yaml", text)
            rc, out, err = profcat("--trace-dialect", d, t)
            self.assertEqual((rc, err), (2, "profcat: %s: dialect %s:%s\n" % (t, d, msg)))


if __name__ == "__main__":
    unittest.main(verbosity=2)
