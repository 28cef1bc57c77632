#!/usr/bin/env python3
"""QEMU logs (loaders/qemu.c) from a Cortex-M firmware run now in QEMU.

programs/qemu_fw.c is built with arm-none-eabi-gcc -g -O2 and run in
Debian's qemu-system-arm (-M mps2-an385, exit through semihosting) with
-d in_asm,exec,nochain, twice: as fast as it goes (SysTick interrupts end
TB chains: "Stopped execution" lines) and with -icount shift=0 (the
instruction budget runs out: "Stopped" lines; UART writes in the middle
of TBs: "cpu_io_recompile: rewound" lines).  The firmware rewrites code
in RAM at one address, so QEMU translates a TB there again.  For each run:

1. profcat's per-line counts (-r source -F csv fw.elf LOG) equal those
   computed here from the log (each exec line counts the instructions of
   the in_asm block its host pointer was first run with, less the TBs
   QEMU says it stopped before and the instructions after a rewind) and
   arm-none-eabi-addr2line (for .text: addr2line gives the code run from
   the RAM array its declaration line, profcat no line);
2. when QEMU's plugins can be built (contrib/plugins/execlog.c and
   tests/plugin/insn.c from Debian's qemu source package, which
   qemu-system-arm does not ship; through a private apt state with the
   system's Debian entries as deb-src, kept in PC_QEMU_CACHE, and
   libglib2.0-dev), the same run writes the execlog plugin's lines (one
   per instruction) and the insn plugin's total (QEMU's own count):
   profcat's per-address counts (-r locations) from the exec lines equal
   those from the execlog lines and the count of execlog lines per
   address, and its total the insn plugin's;
3. the logs hold what makes the case: a TB translated twice at one
   address with other instructions, "Stopped" and "rewound" lines (the
   -icount run);
4. a log written without nochain ("Linking TBs") and the exec lines
   without their in_asm blocks are refused with their messages;
5. programs/rv_user.c built with riscv64-unknown-elf-gcc (rv64gc: 2- and
   4-byte instructions) and run in qemu-riscv64 (user mode): 1 and 2
   (skipped without qemu-user or the RISC-V toolchain).

Exit 77 without qemu-system-arm or the arm-none-eabi toolchain.
"""
import collections
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "source"))
import sourcelib as L  # noqa: E402

FW = os.path.join(HERE, "programs", "qemu_fw.c")
LD = os.path.join(HERE, "programs", "qemu_fw.ld")
QEMU = ["qemu-system-arm", "-M", "mps2-an385", "-display", "none", "-monitor", "none",
        "-serial", "null", "-semihosting"]
PLUGIN_LINE = re.compile(r"^\d+, 0x")
TRACE = re.compile(r"^Trace (\d+): (0x[0-9a-f]+) \[[0-9a-f]+/([0-9a-f]+)/")
STOPPED = re.compile(r"^Stopped execution of TB chain before (0x[0-9a-f]+) \[([0-9a-f]+)\]")
REWOUND = re.compile(r"^cpu_io_recompile: rewound execution of TB to ([0-9a-f]+)")


def qemu_plugins(cache, tmp):
    """[libexeclog.so, libinsn.so] built from Debian's qemu source
    package, or None and the reason."""
    sos = [os.path.join(cache, "libexeclog.so"), os.path.join(cache, "libinsn.so")]
    if all(os.path.exists(so) for so in sos):
        return sos, None
    for tool in ("apt-get", "pkg-config", "gcc", "tar"):
        if not shutil.which(tool):
            return None, "%s is not installed" % tool
    r = subprocess.run(["pkg-config", "--cflags", "--libs", "glib-2.0"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        return None, "glib-2.0 headers are not installed (libglib2.0-dev)"
    glib = r.stdout.split()
    orig, why = L.source_package(cache, "qemu", "qemu_*.orig.tar.*")
    if not orig:
        return None, why
    src = os.path.join(tmp, "qemu-src")
    os.makedirs(src)
    subprocess.run(["tar", "xf", sorted(orig)[-1], "-C", src, "--strip-components=1",
                    "--wildcards", "*/contrib/plugins/execlog.c", "*/tests/plugin/insn.c",
                    "*/include/qemu/qemu-plugin.h"],
                   check=True)
    for so, c in zip(sos, ("contrib/plugins/execlog.c", "tests/plugin/insn.c")):
        L.run(["gcc", "-shared", "-fPIC", "-O2", "-I" + os.path.join(src, "include", "qemu"),
               "-o", so, os.path.join(src, *c.split("/"))] + glib)
    print("execlog and insn plugins built from %s" % os.path.basename(sorted(orig)[-1]))
    return sos, None


def run_qemu(fw, log, extra, plugin):
    d = "in_asm,exec,nochain" + (",plugin" if plugin else "")
    cmd = QEMU + extra + ["-kernel", fw, "-d", d, "-D", log]
    for p in plugin or []:
        cmd += ["-plugin", p]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=120)
    if r.returncode != 0:
        raise SystemExit("%s: exit %d: %s" % (" ".join(cmd), r.returncode, r.stderr))


def split(log, exec_log, plugin_log):
    """Writes the exec part (all but the execlog lines) and the execlog
    lines of log to two files."""
    with open(log) as f, open(exec_log, "w") as e, open(plugin_log, "w") as p:
        for line in f:
            (p if PLUGIN_LINE.match(line) else e).write(line)


def count_exec(path):
    """{address: executions}, facts about the log and the instructions in
    the order they ran (a list of [addrs, k]: the first k of addrs of a
    TB run), computed here."""
    counts = collections.Counter()
    by_ptr, pending = {}, {}
    runs = []
    last = None  # (ptr, pc, addrs, run) of the last TB run
    rewind = None
    block = None
    facts = collections.Counter()
    sizes = collections.defaultdict(set)
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if block is not None:
                if line.startswith("0x"):
                    block.append(int(line.split(":")[0], 16))
                    continue
                if block:
                    pending[block[0]] = block
                    sizes[block[0]].add(len(block))
                block = None
            if line.startswith("IN:"):
                block = []
                continue
            m = TRACE.match(line)
            if m:
                ptr, pc = m.group(2), int(m.group(3), 16)
                if rewind is not None:
                    addrs = rewind[2]
                    for a in addrs[addrs.index(pc):]:
                        counts[a] -= 1
                    rewind[3][1] = addrs.index(pc)
                    rewind = None
                if pc in pending:
                    by_ptr[ptr] = pending.pop(pc)
                addrs = by_ptr[ptr]
                assert addrs[0] == pc, line
                for a in addrs:
                    counts[a] += 1
                runs.append([addrs, len(addrs)])
                last = (ptr, pc, addrs, runs[-1])
                facts["exec"] += 1
                continue
            m = STOPPED.match(line)
            if m:
                assert last and last[0] == m.group(1) and last[1] == int(m.group(2), 16), line
                for a in last[2]:
                    counts[a] -= 1
                last[3][1] = 0
                last = None
                facts["stopped"] += 1
                continue
            m = REWOUND.match(line)
            if m:
                rewind = last
                facts["rewound"] += 1
                continue
            if line.startswith("Linking TBs"):
                facts["linking"] += 1
    facts["retranslated"] = sum(1 for s in sizes.values() if len(s) > 1)
    return {a: n for a, n in counts.items() if n}, facts, runs


def plugin_sequence(path):
    with open(path) as f:
        return [int(line.split(",")[1], 16) for line in f]


def check_order(name, log, seq, starts, tmp):
    """profcat -r timeline on log (the symbols: one for each address run,
    so that its rows are addresses) against seq, the instructions in the
    order they ran: each window [first, end) of profcat's holds seq's
    instructions first .. end - 1 exactly, the windows follow each other
    from 0 to the end, and each ends where a TB run starts (starts: the
    places where one does)."""
    syms = os.path.join(tmp, name + ".nm")
    with open(syms, "w") as f:
        # and one past the last, where it ends
        for a in sorted(set(seq) | {max(seq) + 16}):
            f.write("%08x T a%x\n" % (a, a))
    out = profcat(["-r", "timeline", "-F", "csv", syms, log]).stdout
    got, spans = {}, []
    for r in csv.DictReader(io.StringIO(out)):
        w = (int(r["window"]), int(r["first"]), int(r["end"]))
        if not spans or spans[-1] != w:
            spans.append(w)
        got[w + (int(r["function"][1:], 16),)] = int(r["count"])
    want = {}
    for w in spans:
        for a in seq[w[1]:w[2]]:
            want[w + (a,)] = want.get(w + (a,), 0) + 1
    where = []
    if [w[0] for w in spans] != list(range(len(spans))) or not spans or spans[0][1] != 0 \
            or spans[-1][2] != len(seq) or any(x[2] != y[1] for x, y in zip(spans, spans[1:])):
        where.append("windows %s do not cover [0, %d)" % ([w[1:] for w in spans], len(seq)))
    if starts is not None and any(w[2] not in starts for w in spans[:-1]):
        where.append("a window ends inside a TB run: %s" % [w[2] for w in spans[:-1] if w[2] not in starts])
    if got != want:
        diff = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
        where.append("(window, first, end, address): profcat / order %s" %
                     [(k, got.get(k), want.get(k)) for k in diff[:10]])
    if where:
        L.fail(name + " order", "; ".join(where))
    return len(spans)


def count_plugin(path):
    counts = collections.Counter()
    with open(path) as f:
        for line in f:
            counts[int(line.split(",")[1], 16)] += 1
    return dict(counts)


def text_range(fw, cross):
    """[low, high) of the program's .text."""
    for line in L.run([cross + "objdump", "-h", fw]).splitlines():
        f = line.split()
        if len(f) > 3 and f[1] == ".text":
            return int(f[3], 16), int(f[3], 16) + int(f[2], 16)
    raise SystemExit("%s has no .text" % fw)


def addr2line(fw, addrs, cross):
    """{address: (file, line)} for the addresses of .text the line table
    covers.  Not the code run from the RAM array: addr2line names the
    array's declaration line for its addresses (a data object), where
    no line table row covers them."""
    lo, hi = text_range(fw, cross)
    addrs = [a for a in addrs if lo <= a < hi]
    out = L.run([cross + "addr2line", "-a", "-e", fw] + ["0x%x" % a for a in addrs])
    res, cur = {}, None
    for line in out.splitlines():
        if re.match(r"^0x[0-9a-f]+$", line):
            cur = int(line, 16)
            continue
        loc = re.sub(r" \(discriminator \d+\)$", "", line)
        f, _, ln = loc.rpartition(":")
        if f != "??" and ln not in ("0", "?"):
            res[cur] = (f, int(ln))
    return res


def profcat(args, ok=(0,)):
    r = subprocess.run([L.PROFCAT] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode not in ok:
        raise SystemExit("profcat %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr))
    return r


def check_run(name, fw, log, plugin, tmp, cross="arm-none-eabi-"):
    before = L.failures
    exec_log = os.path.join(tmp, name + ".exec.log")
    plugin_log = os.path.join(tmp, name + ".execlog.log")
    split(log, exec_log, plugin_log)
    want_addr, facts, runs = count_exec(exec_log)
    lines = addr2line(fw, sorted(want_addr), cross)
    want = collections.Counter()
    for a, n in want_addr.items():
        if a in lines:
            want[lines[a]] += n
    out = profcat(["-r", "source", "-F", "csv", fw, exec_log]).stdout
    got = {(r["file"], int(r["line"])): int(r["count"])
           for r in csv.DictReader(io.StringIO(out)) if r["line"]}
    if got != dict(want):
        L.fail(name + " lines", "per-line counts differ from the log and addr2line's:\n  profcat %s\n  here %s"
               % (sorted(got.items()), sorted(want.items())))
    total = sum(want_addr.values())
    flat = profcat([fw, exec_log]).stdout.splitlines()
    if not flat[1].startswith("Counts: %d total, " % total):
        L.fail(name + " total", "%r; expected %d instructions" % (flat[1], total))
    if flat[2] != "Rate: none (exact counts of instructions, not samples)":
        L.fail(name + " exact", "the report does not call the counts exact: %r" % flat[2])
    msg = "%d TB runs, %d stopped, %d rewound, %d retranslated addresses, %d instructions, %d lines" % (
        facts["exec"], facts["stopped"], facts["rewound"], facts["retranslated"], total, len(want))
    if plugin:
        locs = lambda p: {int(r["address"], 16): int(r["count"]) for r in csv.DictReader(
            io.StringIO(profcat(["-r", "locations", "-F", "csv", fw, p]).stdout))}
        from_exec, from_plugin = locs(exec_log), locs(plugin_log)
        lines_plugin = count_plugin(plugin_log)
        if from_exec != from_plugin:
            diff = sorted((a, from_exec.get(a), from_plugin.get(a))
                          for a in set(from_exec) | set(from_plugin)
                          if from_exec.get(a) != from_plugin.get(a))
            L.fail(name + " execlog", "per-address counts from exec and execlog lines differ (address, exec, execlog): %s" % diff[:20])
        if from_plugin != lines_plugin or from_exec != want_addr:
            L.fail(name + " execlog", "profcat's per-address counts differ from the lines counted here")
        msg += ", = execlog plugin's %d lines" % sum(lines_plugin.values())
        insns = [int(l.split(":")[1]) for l in open(log) if l.startswith("total insns:")]
        if insns != [total]:
            L.fail(name + " insn", "QEMU's insn plugin counted %s instructions; expected %d" % (insns, total))
        msg += " = insn plugin's total"
        # the order: the TB runs' instructions (from the exec lines) are
        # the execlog plugin's sequence, and profcat's windows of either
        # log cut it exactly
        seq = plugin_sequence(plugin_log)
        ordered = [a for addrs, k in runs for a in addrs[:k]]
        if ordered != seq:
            at = next((i for i, (x, y) in enumerate(zip(ordered, seq)) if x != y), min(len(seq), len(ordered)))
            L.fail(name + " order", "the TB runs' instructions differ from the execlog sequence at %d" % at)
        starts, pos = set(), 0
        for addrs, k in runs:
            starts.add(pos)
            pos += k
        nw = check_order(name + "-exec", exec_log, seq, starts, tmp)
        nwp = check_order(name + "-execlog", plugin_log, seq, None, tmp)
        msg += ", timeline of %d/%d windows = execlog sequence" % (nw, nwp)
    print("%s %s: %s" % ("ok" if L.failures == before else "FAIL", name, msg))
    return facts


def check_refusals(fw, plain_log, tmp):
    # without nochain QEMU chains TBs, whose runs are not logged
    log = os.path.join(tmp, "chained.log")
    subprocess.run(QEMU + ["-kernel", fw, "-d", "in_asm,exec", "-D", log],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120, check=True)
    data = open(log, "rb").read()
    off = data.find(b"\nLinking TBs") + 1
    r = profcat([fw, log], ok=(1,))
    want = ("profcat: %s:%d: QEMU chained TBs (\"Linking TBs\"), and chained executions are not logged; "
            "expected a log written with -d in_asm,exec,nochain\n" % (log, off))
    if off == 0 or r.stderr != want:
        L.fail("chained", "%r; expected %r" % (r.stderr, want))
    # exec lines without their in_asm blocks
    nob = os.path.join(tmp, "noblocks.log")
    with open(plain_log) as f, open(nob, "w") as o:
        for line in f:
            if line.startswith("Trace ") or line.startswith("Stopped"):
                o.write(line)
    first = open(nob).readline()
    m = TRACE.match(first)
    r = profcat([fw, nob], ok=(1,))
    want = ("profcat: %s:0: exec line for the TB at 0x%x (host %s), which in_asm never showed; "
            "expected a log of -d in_asm,exec,nochain from the start of the run\n"
            % (nob, int(m.group(3), 16), m.group(2)))
    if r.stderr != want:
        L.fail("no in_asm", "%r; expected %r" % (r.stderr, want))
    print("ok refusals: a chained log, exec lines without in_asm")


def check_riscv(plugin, tmp):
    """programs/rv_user.c (rv64gc: 2- and 4-byte instructions) in
    qemu-riscv64, user mode: checks 1 and 2."""
    for tool in ("qemu-riscv64", "riscv64-unknown-elf-gcc", "riscv64-unknown-elf-addr2line"):
        if not shutil.which(tool):
            print("skip RISC-V: %s is not installed" % tool)
            return
    exe = os.path.join(tmp, "rv.elf")
    L.run(["riscv64-unknown-elf-gcc", "-march=rv64gc", "-mabi=lp64d", "-g", "-O2", "-nostdlib",
           "-static", "-o", exe, os.path.join(HERE, "programs", "rv_user.c")])
    log = os.path.join(tmp, "riscv.log")
    cmd = ["qemu-riscv64", "-d", "in_asm,exec,nochain" + (",plugin" if plugin else ""), "-D", log]
    for p in plugin or []:
        cmd += ["-plugin", p]
    r = subprocess.run(cmd + [exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=120)
    if r.returncode != 0:
        raise SystemExit("%s: exit %d: %s" % (" ".join(cmd), r.returncode, r.stderr))
    check_run("riscv-user", exe, log, plugin, tmp, cross="riscv64-unknown-elf-")


def main():
    for tool in ("qemu-system-arm", "arm-none-eabi-gcc", "arm-none-eabi-addr2line"):
        if not shutil.which(tool):
            print("SKIP: %s is not installed" % tool)
            sys.exit(77)
    cache = os.environ.get("PC_QEMU_CACHE") or os.path.join(tempfile.gettempdir(), "pc-qemu-cache")
    with tempfile.TemporaryDirectory() as tmp:
        fw = os.path.join(tmp, "fw.elf")
        L.run(["arm-none-eabi-gcc", "-mthumb", "-mcpu=cortex-m3", "-g", "-O2", "-nostdlib",
               "-T", LD, "-Wl,-e,Reset_Handler", "-o", fw, FW])
        plugin, why = qemu_plugins(cache, tmp)
        if not plugin:
            print("note: no QEMU plugins (%s): exec lines checked against the log and addr2line only" % why)
        seen = collections.Counter()
        for name, extra in (("plain", []), ("icount", ["-icount", "shift=0"])):
            log = os.path.join(tmp, name + ".log")
            run_qemu(fw, log, extra, plugin)
            seen.update(check_run(name, fw, log, plugin, tmp))
        for what in ("stopped", "rewound", "retranslated"):
            if not seen[what]:
                L.fail("coverage", "no %s TB in the logs: the firmware does not test it" % what)
        check_refusals(fw, os.path.join(tmp, "plain.exec.log"), tmp)
        check_riscv(plugin, tmp)
    sys.exit(1 if L.failures else 0)


if __name__ == "__main__":
    main()
