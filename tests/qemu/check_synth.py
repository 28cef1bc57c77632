#!/usr/bin/env python3
"""QEMU logs (loaders/qemu.c) written here in every format QEMU has used,
with the counts or the refusal each must give.

Formats (from QEMU's sources: accel/tcg/cpu-exec.c, translator.c,
disas/capstone.c, contrib/plugins/execlog.c): exec lines of QEMU 1.x
("Trace %p [pc]"), 2.7-2.12 ("Trace %p [cpu: pc]"), 3-5 ("Trace N: %p
[cs_base/pc/flags]" and "Chain" lines), 6-9 ("[cs_base/pc/flags/cflags]");
in_asm blocks with RISC-V's "Priv:" line and Capstone's continuation
lines of long (x86) instructions; a TB translated again at one address
(new host pointer, and the same pointer reused); a PCREL TB run at two
addresses; "Stopped execution" and "cpu_io_recompile: rewound" (naming
the I/O instruction, or the TB's start as non-PCREL targets do); execlog
plugin lines; qemu-cpu=N; gzip.  Each log's per-address counts
(-r intervals, 1-byte intervals) or its one-line refusal (file, byte
offset, message) are asserted exactly.

`check_synth.py --write DIR` writes the logs (tests/qemu/fixtures: the
fuzzer's seeds) and nothing else.
"""
import csv
import gzip
import io
import os
import subprocess
import sys
import tempfile

PROFCAT = os.environ.get("PROFCAT")


def block(addrs, sym="f", extra=()):
    return ("----------------\nIN: %s\n" % sym + "".join(l + "\n" for l in extra)
            + "".join("0x%08x:  %s\n" % (a, "4770       bx       lr") for a in addrs) + "\n")


def t72(ptr, pc, cpu=0, cflags="ff000200"):
    return "Trace %d: 0x%x [00800400/%08x/00000110/%s] f\n" % (cpu, ptr, pc, cflags)


# name -> (log text, {address: count} or the error message (without the
# "profcat: FILE:" prefix), extra profcat arguments)
CASES = {
    "v72": (block([0x1000, 0x1002, 0x1004]) + t72(0x7f00100, 0x1000) + t72(0x7f00100, 0x1000)
            + block([0x1010, 0x1014]) + t72(0x7f00200, 0x1010) + t72(0x7f00100, 0x1000),
            {0x1000: 3, 0x1002: 3, 0x1004: 3, 0x1010: 1, 0x1014: 1}, []),
    # QEMU 3-5: three fields, goto_ptr lookups as "Chain" lines
    "v5chain": (block([0x1000, 0x1004]) + "Trace 0: 0x7f00100 [00000000/00001000/0xa2] f\n"
                + block([0x1008]) + "Trace 0: 0x7f00200 [00000000/00001008/0xa2] \n"
                + "Chain 0: 0x7f00100 [00000000/00001000/0xa2] f\n",
                {0x1000: 2, 0x1004: 2, 0x1008: 1}, []),
    # QEMU 2.7-2.12 and older
    "v2": (block([0x1000, 0x1001]) + "Trace 0x7f00100 [0: 00001000] f\n"
           + "Trace 0x7f00100 [00001000] f\n", {0x1000: 2, 0x1001: 2}, []),
    # RISC-V's privilege line before the instructions
    "riscv": (block([0x1000, 0x1004], extra=["Priv: 3; Virt: 0"]) + t72(0x7f00100, 0x1000),
              {0x1000: 1, 0x1004: 1}, []),
    # Capstone writes bytes past the 8th of an instruction on a line of
    # their own (x86: a 10-byte movabs at 0x1000)
    "capstone": ("----------------\nIN: f\n"
                 "0x00001000:  48 b8 88 77 66 55 44 33  movabsq  $0x1122334455667788, %rax\n"
                 "0x00001008:  22 11\n"
                 "0x0000100a:  c3                       retq     \n\n" + t72(0x7f00100, 0x1000),
                 {0x1000: 1, 0x100a: 1}, []),
    # code rewritten at 0x1000: a new translation, bound to the next
    # run's pointer (a new one, then the first one reused)
    "retranslate": (block([0x1000, 0x1002]) + t72(0x7f00100, 0x1000)
                    + block([0x1000, 0x1002, 0x1004, 0x1006]) + t72(0x7f00300, 0x1000)
                    + t72(0x7f00300, 0x1000)
                    + block([0x1000]) + t72(0x7f00100, 0x1000) + t72(0x7f00100, 0x1000),
                    {0x1000: 5, 0x1002: 3, 0x1004: 2, 0x1006: 2}, []),
    # one PCREL TB run at its own address and at an alias 0x800 higher
    "pcrel": (block([0x1000, 0x1002]) + t72(0x7f00100, 0x1000) + t72(0x7f00100, 0x1800)
              + t72(0x7f00100, 0x1800),
              {0x1000: 1, 0x1002: 1, 0x1800: 2, 0x1802: 2}, []),
    # the TB QEMU stopped before did not run; the rewound TB ran up to the
    # I/O instruction (named by QEMU 7.2 on ARM; the TB's start on
    # non-PCREL targets, and then the next TB says where)
    "stopped": (block([0x1000, 0x1002]) + t72(0x7f00100, 0x1000) + t72(0x7f00100, 0x1000)
                + "Stopped execution of TB chain before 0x7f00100 [00001000] f\n",
                {0x1000: 1, 0x1002: 1}, []),
    "rewound": (block([0x1000, 0x1002, 0x1004, 0x1006]) + t72(0x7f00100, 0x1000, cflags="ff020200")
                + "cpu_io_recompile: rewound execution of TB to 00001004\n"
                + block([0x1004]) + t72(0x7f00200, 0x1004, cflags="ff038201")
                + block([0x1006]) + t72(0x7f00300, 0x1006, cflags="ff020200")
                + t72(0x7f00100, 0x1000, cflags="ff020200")
                + "cpu_io_recompile: rewound execution of TB to 00001000\n"
                + block([0x1002], "g") + t72(0x7f00400, 0x1002, cflags="ff038201"),
                {0x1000: 2, 0x1002: 2, 0x1004: 1, 0x1006: 1}, []),
    # two vCPUs; qemu-cpu=1 counts the second one's
    "cpu1": (block([0x1000]) + t72(0x7f00100, 0x1000, cpu=0) + t72(0x7f00100, 0x1000, cpu=1)
             + t72(0x7f00100, 0x1000, cpu=1), {0x1000: 2}, ["-O", "qemu-cpu=1"]),
    # execlog plugin lines (with memory accesses), other plugin output
    "execlog": ('0, 0x1000, 0x2501, "movs r5, #1"\n'
                '0, 0x1002, 0x60a5, "str r5, [r4, #8]", store, 0x40004008, uart\n'
                'cpu 0 insns: 3\n'
                '0, 0x1000, 0x2501, "movs r5, #1"\n', {0x1000: 2, 0x1002: 1}, []),
    # refusals
    "chained": (block([0x1000]) + t72(0x7f00100, 0x1000)
                + "Linking TBs 0x7f00100 index 0 -> 0x7f00200\n",
                '@@: QEMU chained TBs ("Linking TBs"), and chained executions are not logged; '
                'expected a log written with -d in_asm,exec,nochain', []),
    "noinasm": (t72(0x7f00100, 0x1000),
                "0: exec line for the TB at 0x1000 (host 0x7f00100), which in_asm never showed; "
                "expected a log of -d in_asm,exec,nochain from the start of the run", []),
    "mixed": (block([0x1000]) + t72(0x7f00100, 0x1000) + '0, 0x1000, 0x4770, "bx lr"\n',
              "@@: execlog plugin line, but the log has exec lines (from byte @T@): both count the "
              "same instructions; expected one of them (write the log with -d in_asm,exec,nochain "
              "or with -d plugin and the execlog plugin, not both)", []),
    "inasmonly": (block([0x1000]),
                  "@E@: in_asm blocks but no exec lines; expected a log written with -d in_asm,exec,nochain", []),
    "empty": ("QEMU 7.2 monitor - type 'help' for more information\n",
              "@E@: no exec or execlog lines; expected a QEMU log written with -d in_asm,exec,nochain "
              "or with the execlog plugin (-d plugin)", ["-f", "qemu"]),
    "stopwho": (block([0x1000]) + t72(0x7f00100, 0x1000)
                + "Stopped execution of TB chain before 0x7f00200 [00001000] f\n",
                "@@: QEMU stopped before the TB at 0x1000 (host 0x7f00200), which is not the last TB "
                "logged for any vCPU; expected its exec line before", []),
    "rewindout": (block([0x1000, 0x1002]) + t72(0x7f00100, 0x1000)
                  + "cpu_io_recompile: rewound execution of TB to 00001000\n"
                  + block([0x2000]) + t72(0x7f00200, 0x2000),
                  "@T2@: TB at 0x1000 continues at 0x2000 after the I/O rewind at byte @@; expected "
                  "one of the rewound TB's instructions", []),
    # a rewound run is accounted for: QEMU cannot also stop before it
    "rewindstop": (block([0x1000, 0x1002]) + t72(0x7f00100, 0x1000)
                   + "cpu_io_recompile: rewound execution of TB to 00001002\n"
                   + "Stopped execution of TB chain before 0x7f00100 [00001000] f\n",
                   "@@: QEMU stopped before the TB at 0x1000 (host 0x7f00100), which is not the last TB "
                   "logged for any vCPU; expected its exec line before", []),
    "rewindend": (block([0x1000, 0x1002]) + t72(0x7f00100, 0x1000)
                  + "cpu_io_recompile: rewound execution of TB to 00001000\n",
                  "@E@: the log ends after the TB rewind at byte @@; expected the exec line of the TB "
                  "that runs the I/O instruction", []),
    "order": ("----------------\nIN: f\n0x00001002:  4770 bx lr\n0x00001000:  4770 bx lr\n\n"
              + t72(0x7f00100, 0x1000),
              "@@: instruction at 0x1000 after 0x1002 in one translation block; expected increasing "
              "addresses", []),
    "hugeaddr": (block([0x1000]) + "Trace 0: 0x7f00100 [00800400/100000000000000000/0/0] f\n",
                 "@+29@: TB address does not fit in 64 bits", []),
    "disagree": ("----------------\nIN: f\n0x00001000:  4770 bx lr\n"
                 "Disassembler disagrees with translator over instruction decoding\n"
                 "Please report this to qemu-devel@nongnu.org\n\n" + t72(0x7f00100, 0x1000),
                 "@@: QEMU's disassembler disagrees with its translator over the instructions of the "
                 "TB at byte 17; expected in_asm blocks that list a TB's instructions", []),
    # a QEMU without a disassembler for the target: the TB's bytes
    # (a real aarch64 log has this form: tests/realworld/SOURCES.md)
    "objdump": ("----------------\nIN: \n0x40080004:  \nOBJD-T: 1f2003d5c0ff0a101f00009130000094\n\n"
                + t72(0x7f00100, 0x40080004),
                "@@: the in_asm block at byte 17 holds the TB's bytes (\"OBJD-\" lines), not its "
                "instructions: this QEMU has no disassembler for the target; expected one "
                "\"0xADDRESS:  instruction\" line per instruction (a QEMU built with Capstone)", []),
    "badcpu": (block([0x1000]) + t72(0x7f00100, 0x1000),
               " option qemu-cpu=x; expected all or a vCPU index 0..65535", ["-O", "qemu-cpu=x"]),
}


# The order (-r timeline): logs of more than a window (4096
# instructions) with the symbols f (0x1000), g (0x1010), h (0x1020).  TB
# A: f's 4 instructions, B: g's 3, C: h's 2; a window ends at the first
# TB run that starts 4096 instructions or more after the window's first.
SYMS = "00001000 T f\n00001010 T g\n00001020 T h\n00001100 T end\n"
A, B, C = [0x1000, 0x1002, 0x1004, 0x1006], [0x1010, 0x1012, 0x1014], [0x1020, 0x1022]


def ta(cpu=0):
    return t72(0x7f00100, 0x1000, cpu=cpu)


def tb(cpu=0):
    return t72(0x7f00200, 0x1010, cpu=cpu)


def stop(ptr, pc):
    return "Stopped execution of TB chain before 0x%x [%08x] f\n" % (ptr, pc)


def rewound(pc):
    return "cpu_io_recompile: rewound execution of TB to %08x\n" % pc


def two_cpus():
    """1400 pairs (vCPU 0 runs A, vCPU 1 runs B); QEMU stops before vCPU
    0's A of pair 585 after vCPU 1's B (at instruction 4095 of the log),
    and before vCPU 1's B of pair 1365 (its instruction 4095)."""
    t = block(A) + block(B, "g")
    for i in range(1400):
        t += ta(0) + tb(1)
        if i == 585:
            t += stop(0x7f00100, 0x1000)
        if i == 1365:
            t += stop(0x7f00200, 0x1010)
    return t


# name -> (log, extra arguments, -r timeline -F csv rows (window, first,
# end, count, function) or the error message as in CASES)
ORDER = {
    # QEMU stops before B run at instruction 4096: the next window starts
    # at the A after it
    "ostop": (block(A) + ta() * 1024 + block(B, "g") + tb() + stop(0x7f00200, 0x1010) + ta() + tb(),
              [], [(0, 0, 4096, 4096, "f"), (1, 4096, 4103, 4, "f"), (1, 4096, 4103, 3, "g")]),
    # ... before an A at 4095: the window ends after the B that follows
    "ostopnear": (block(A) + ta() * 1023 + block(B, "g") + tb() + ta() + stop(0x7f00100, 0x1000)
                  + tb() + ta(),
                  [], [(0, 0, 4098, 4092, "f"), (0, 0, 4098, 6, "g"), (1, 4098, 4102, 4, "f")]),
    # A rewound at its third instruction (QEMU names it) at 4094: its two
    # first end the window at 4096, the TB QEMU runs the I/O instruction
    # in starts the next
    "orewind": (block(A) + ta() * 1023 + block(C, "h") + t72(0x7f00300, 0x1020) + ta()
                + rewound(0x1004) + block([0x1004]) + t72(0x7f00400, 0x1004)
                + block(B, "g") + tb(),
                [], [(0, 0, 4096, 4094, "f"), (0, 0, 4096, 2, "h"), (1, 4096, 4100, 3, "g"),
                     (1, 4096, 4100, 1, "f")]),
    # A rewound to its start (non-PCREL targets) at 4091: the next TB, at
    # A's fourth instruction, says three ran; the window ends at 4099,
    # not at 4096
    "orewindnear": (block(A) + ta() * 1022 + block(B, "g") + tb() + ta() + rewound(0x1000)
                    + block([0x1006]) + t72(0x7f00500, 0x1006) + ta() + tb(),
                    [], [(0, 0, 4099, 4096, "f"), (0, 0, 4099, 3, "g"), (1, 4099, 4102, 3, "g")]),
    # two vCPUs: the log's order; QEMU stops before vCPU 0's A after vCPU
    # 1 ran a B
    "ocpus": (two_cpus(), [],
              [(0, 0, 4098, 2340, "f"), (0, 0, 4098, 1758, "g"), (1, 4098, 8197, 2344, "f"),
               (1, 4098, 8197, 1755, "g"), (2, 8197, 9793, 912, "f"), (2, 8197, 9793, 684, "g")]),
    "ocpus1": (two_cpus(), ["-O", "qemu-cpu=1"],
               [(0, 0, 4098, 4098, "g"), (1, 4098, 4197, 99, "g")]),
    "ocpus0": (two_cpus(), ["-O", "qemu-cpu=0"],
               [(0, 0, 4096, 4096, "f"), (1, 4096, 5596, 1500, "f")]),
    # execlog lines of two vCPUs: a window may end between any two
    "oexeclog": ('0, 0x1000, 0x2501, "movs r5, #1"\n1, 0x1010, 0x2501, "movs r5, #1"\n' * 2500, [],
                 [(0, 0, 4096, 2048, "f"), (0, 0, 4096, 2048, "g"), (1, 4096, 5000, 452, "f"),
                  (1, 4096, 5000, 452, "g")]),
    "oexeclog1": ('0, 0x1000, 0x2501, "movs r5, #1"\n1, 0x1010, 0x2501, "movs r5, #1"\n' * 2500,
                  ["-O", "qemu-cpu=1"], [(0, 0, 2500, 2500, "g")]),
    # vCPU 0's A held open (an idle vCPU) past 65536 TB runs of vCPU 1:
    # it goes to the order as run in full, in its place
    "ofarok": (block(A) + block(B, "g") + ta(0) + tb(1) * 65536 + ta(0), [],
               lambda: windows([("f", 4)] + [("g", 3)] * 65536 + [("f", 4)])),
    # ... and a take-back of it after that is refused
    "ofar": (block(A) + block(B, "g") + ta(0) + tb(1) * 65536 + stop(0x7f00100, 0x1000), [],
             "@@: QEMU takes back a TB run logged more than 65536 TB runs before, farther back than "
             "the order of the instructions holds runs open; expected the take-back sooner, or count "
             "one vCPU (-O qemu-cpu=N)"),
}

def windows(runs):
    """The -r timeline rows of TB runs [(function, instructions)] in this
    order, before windows merge (fewer than 64): a window ends at the
    first run that starts 4096 or more after its first."""
    rows, first, pos, cur = [], 0, 0, {}

    def cut():
        w = len(rows) and rows[-1][0] + 1
        for f, n in sorted(cur.items(), key=lambda x: (-x[1], x[0])):
            rows.append((w, first, pos, n, f))
    for f, k in runs:
        if pos - first >= 4096:
            cut()
            first, cur = pos, {}
        cur[f] = cur.get(f, 0) + k
        pos += k
    cut()
    assert rows[-1][0] < 63
    return rows


DEMO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "demo")
# profcat -r timeline on the demo (docs/qemu.md shows the text)
DEMO_TEXT = """\
Timeline: 2 windows of the instructions in the input's order (exact counts)

window       first         end       count  function
     0           0        4099        3575  mix
     0           0        4099         307  Reset_Handler
     0           0        4099         204  pick
     0           0        4099          13  put
     1        4099        4332         102  run_ram
     1        4099        4332          49  mix
     1        4099        4332          37  Reset_Handler
     1        4099        4332          36  (no symbol)
     1        4099        4332           9  pick
"""
DEMO_JSON = ('{"report":"timeline","event":"instructions","counts":"instructions","windows":['
             '{"window":0,"first":0,"end":4099,"counts":[{"function":"mix","count":3575},'
             '{"function":"Reset_Handler","count":307},{"function":"pick","count":204},'
             '{"function":"put","count":13}]},'
             '{"window":1,"first":4099,"end":4332,"counts":[{"function":"run_ram","count":102},'
             '{"function":"mix","count":49},{"function":"Reset_Handler","count":37},'
             '{"function":null,"count":36},{"function":"pick","count":9}]}]}\n')


def check_order(tmp):
    failures = 0
    syms = os.path.join(tmp, "order.nm")
    with open(syms, "w") as f:
        f.write(SYMS)
    for name, (text, args, want) in ORDER.items():
        want = want() if callable(want) else want
        path = os.path.join(tmp, name + ".log")
        with open(path, "w", newline="\n") as f:
            f.write(text)
        r = subprocess.run([PROFCAT] + args + ["-r", "timeline", "-F", "csv", syms, path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if isinstance(want, list):
            got = ([(int(x["window"]), int(x["first"]), int(x["end"]), int(x["count"]), x["function"])
                    for x in csv.DictReader(io.StringIO(r.stdout))] if r.returncode == 0
                   else r.stderr.strip())
        else:
            key = [i for i, l in enumerate(text.splitlines(keepends=True)) if l.startswith("Stopped")][-1]
            want = "profcat: %s:%s" % (path, want.replace("@@", str(len("".join(
                text.splitlines(keepends=True)[:key]).encode()))))
            got = r.stderr.strip() if r.returncode else r.stdout
        if got != want:
            failures += 1
            print("FAIL %s: got %r\n  expected %r" % (name, got, want))
        else:
            print("ok   order %s" % name)
    fw, log = os.path.join(DEMO, "fw.elf"), os.path.join(DEMO, "qemu.log.gz")
    for fmt, want in (("text", DEMO_TEXT), ("json", DEMO_JSON)):
        r = subprocess.run([PROFCAT, "-r", "timeline", "-F", fmt, fw, log],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        got = r.stdout if r.returncode == 0 else r.stderr
        if got != want:
            failures += 1
            print("FAIL demo timeline %s: got %r\n  expected %r" % (fmt, got, want))
        else:
            print("ok   demo timeline %s" % fmt)
    return failures


def marker_offsets(text, msg, name):
    """Fills the markers of an expected message: @@ = the offset of the
    line that fails (the last line holding the case's keyword), @T@ the
    first exec line, @T2@ the second, @E@ the end, @+N@ the failing line
    plus N."""
    lines = text.splitlines(keepends=True)
    starts, o = [], 0
    for l in lines:
        starts.append(o)
        o += len(l)
    key = {"chained": "Linking", "mixed": '0, 0x', "stopwho": "Stopped", "rewindstop": "Stopped", "order": "0x00001000:",
           "hugeaddr": "Trace", "disagree": "Disassembler", "objdump": "OBJD", "rewindout": "cpu_io_recompile",
           "rewindend": "cpu_io_recompile"}.get(name)
    traces = [starts[i] for i, l in enumerate(lines) if l.startswith("Trace ")]
    if key:
        at = [starts[i] for i, l in enumerate(lines) if l.startswith(key)][-1]
        msg = msg.replace("@@", str(at))
        if "@+" in msg:
            k = msg.index("@+")
            e = msg.index("@", k + 2)
            msg = msg[:k] + str(at + int(msg[k + 2:e])) + msg[e + 1:]
    if traces:
        msg = msg.replace("@T@", str(traces[0]))
    if len(traces) > 1:
        msg = msg.replace("@T2@", str(traces[1]))
    return msg.replace("@E@", str(len(text.encode())))


def write(d):
    os.makedirs(d, exist_ok=True)
    for name, (text, _, _) in CASES.items():
        with open(os.path.join(d, name + ".log"), "w") as f:
            f.write(text)


def per_address(out):
    return {int(r["low"], 16): int(r["count"]) for r in csv.DictReader(io.StringIO(out))
            if int(r["count"])}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--write":
        write(sys.argv[2])
        return
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (text, want, args) in CASES.items():
            path = os.path.join(tmp, name + ".log")
            with open(path, "w", newline="\n") as f:
                f.write(text)
            for p in ([path, path + ".gz"] if name == "v72" else [path]):
                if p.endswith(".gz"):
                    with open(p, "wb") as f:
                        f.write(gzip.compress(text.encode()))
                r = subprocess.run([PROFCAT] + args + ["-r", "intervals", "-O", "interval=0x1000-0x2000",
                                                       "-O", "intervals=4096", "-F", "csv", p],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                if isinstance(want, dict):
                    got = per_address(r.stdout) if r.returncode == 0 else r.stderr.strip()
                    ok = got == want
                else:
                    msg = marker_offsets(text, want, name)
                    exp = "profcat: %s:%s" % (p, msg)
                    got = r.stderr.strip()
                    ok = r.returncode != 0 and got == exp
                    want_s = exp
                if not ok:
                    failures += 1
                    print("FAIL %s: got %r\n  expected %r" % (os.path.basename(p), got,
                                                              want if isinstance(want, dict) else want_s))
                else:
                    print("ok   %s" % os.path.basename(p))
        failures += check_order(tmp)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
