#!/usr/bin/env python3
"""Maps of today's embedded linkers and the detection around maps.

Usage: check_maps.py embedded|elf|text|nm|class
  embedded  gen_embedded.py's ESP-IDF, SDK and Zephyr maps: functions are code in
            every section family, checked against the ELF each map
            describes (profcat's ELF reading, and nm where installed);
            a raw PC dump gives the ESP functions their samples
  elf       the ELF given beside the map decides code by its sections
  text      a text file that is no map nor capture (a PSY-Q linker map)
            is "unrecognised file format", also named gmon.out / mon.out
  nm        an nm listing whose first 4 KiB read both as nm and nm -P is
            decided by all its lines
  class     DOS map classes and segment names in any case
Environment: PROFCAT, PC_SOURCE_ROOT.  Exit 0 pass, 1 fail.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.environ.get("PC_SOURCE_ROOT",
                      os.path.join(os.path.dirname(__file__), "..", ".."))
PROFCAT = os.environ.get("PROFCAT", "profcat")
HERE = os.path.join(ROOT, "tests", "maps")
EMB = os.path.join(HERE, "embedded")
sys.path.insert(0, HERE)
import gen_embedded as g  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run(args, cwd=None):
    p = subprocess.run([PROFCAT] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, cwd=cwd)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def kinds(*files):
    rc, out, err = run(["--list-symbols", "-F", "csv"] + list(files))
    check(rc == 0, "%s: exit %d %s" % (files, rc, err))
    res = {}
    for line in out.splitlines()[1:]:
        name, seg, addr, size, kind = line.rsplit(",", 4)
        res.setdefault((name, int(addr, 16)), set()).add(kind)
    return res


def nm_kinds(elf):
    if not shutil.which("nm"):
        return None
    p = subprocess.run(["nm", elf], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode:
        return None
    letter = {"T": "text", "t": "text", "D": "data", "d": "data",
              "R": "data", "r": "data", "B": "bss", "b": "bss"}
    res = {}
    for line in p.stdout.decode().splitlines():
        a, t, n = line.split()
        res[(n, int(a, 16))] = letter[t]
    return res


ESP_TEXT = ["vPortYield", "esp_crosscore_isr", "spi_flash_op_block_func",
            "bootloader_flash_unlock", "bootloader_read_flash_id",
            "bootloader_random_enable", "app_main", "esp_restart", "memcpy",
            "esp_wake_stub_entry"]
SDK_TEXT = ["_init", "main", "HAL_Delay", "Reset_Handler", "AHBPrescTable",
            "_fini", "efc_perform_command", "fir_filter", "SysTick_Handler",
            "flash_write_word"]


def t_embedded():
    check(g.files() == {n: open(os.path.join(EMB, n), "rb").read()
                        for n in g.files()},
          "tests/maps/embedded differs from what gen_embedded.py makes")
    for base, text in [("esp32c3", ESP_TEXT), ("sdk", SDK_TEXT),
                       ("zephyr", ["main", "z_arm_reset"])]:
        mp = os.path.join(EMB, base + ".map")
        elf = os.path.join(EMB, base + ".elf")
        got = kinds(mp)
        check(sorted(n for (n, a), k in got.items() if k == {"text"}) ==
              sorted(text), "%s: code symbols %r" % (base, sorted(
                  n for (n, a), k in got.items() if k == {"text"})))
        # against the ELF: profcat's reading of it, and nm's
        ref = kinds(elf)
        refs = [("profcat's elf loader", {k: min(v) for k, v in ref.items()})]
        nm = nm_kinds(elf)
        if nm is not None:
            refs.append(("nm", nm))
        else:
            print("SKIP: nm is not installed: checked against profcat's "
                  "ELF reading only")
        for label, r in refs:
            diff = {k: (min(v), r.get(k)) for k, v in got.items()
                    if r.get(k) != min(v)}
            # documented: .mycode is code only by the ELF's flags; the
            # STM32 .RamFunc input in .data is no symbol of this ELF
            # Zephyr's vector table is in rom_start, which the ELF marks
            # executable: data by the map alone
            want = {"esp32c3": {}, "zephyr": {
                ("_vector_table", 0x0): ("data", "text")}}.get(base, {
                    ("special_entry", 0x08004000): ("data", "text"),
                    ("flash_write_word", 0x20001010): ("text", None)})
            check(diff == want, "%s against %s: %r" % (base, label, diff))
    with tempfile.TemporaryDirectory() as tmp:
        pcs = os.path.join(tmp, "pcs.txt")
        with open(pcs, "w") as f:
            f.write("0x40380004\n0x40380044\n0x42000030\n0x42000030\n"
                    "0x403ce010\n0x50000004\n0x3fc8ba00\n")
        rc, out, err = run(["-F", "csv", os.path.join(EMB, "esp32c3.map"),
                            pcs])
        rows = [",".join(l.split(",")[1:3]) for l in out.splitlines()[1:]]
        check(rows == ["app_main,2", "bootloader_flash_unlock,1",
                       "esp_crosscore_isr,1", "esp_wake_stub_entry,1",
                       "vPortYield,1", "[total],7", "[in program],6",
                       "[unattributed],0", "[outside],1",
                       "[outside:unknown],1"], "esp32c3 samples: %r" % rows)
    return 0


def t_elf():
    for base, n, changed in [("esp32c3", 15, 0), ("sdk", 13, 2),
                             ("zephyr", 6, 1)]:
        mp = os.path.join(EMB, base + ".map")
        elf = os.path.join(EMB, base + ".elf")
        for order in ([elf, mp], [mp, elf]):
            rc, out, err = run(["-v", "--list-symbols", "-F", "csv"] + order)
            note = ("profcat: note: %s: code or data of %d symbols from the "
                    "sections of the executable loaded before the map (%d "
                    "differ from the map's own reading)" % (mp, n, changed))
            check(note in err.splitlines(), "%s %s: note missing:\n%s"
                  % (base, order, err))
        both = kinds(elf, mp)
        check(all(len(v) == 1 for v in both.values()),
              "%s: ELF and map disagree: %r" % (
                  base, {k: v for k, v in both.items() if len(v) > 1}))
    return 0


PSYQ = ["    Start     Stop   Length      Obj Group            Section name",
        " 80010000 80012D5B 00002D5C 80010000 text             .rdata",
        " 80012D5C 800C8417 000B56BC 80012D5C text             .text",
        " 800C8418 800CDAB7 000056A0 800C8418 text             .data",
        " 800CFB64 800D5C07 000060A4 800CFB64 bss              .sbss", "",
        "  Address  Names alphabetically"]


def psyq_map():
    names = [" %08X  Func%04d" % (0x80012D5C + i * 0x40, i)
             for i in range(200)]
    lines = (PSYQ + sorted(names, key=lambda l: l.split()[1]) +
             ["", "  Address  Names in address order"] + names +
             ["", "Program entry point : 80012D5C", ""])
    return "\n".join(lines).encode()


def t_text():
    data = psyq_map()
    check(len(data) > 4096, "the PSY-Q map is longer than the 4 KiB head")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ["MAIN.MAP", "gmon.out", "mon.out", "prog.mon"]:
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(data)
            rc, out, err = run([name], cwd=tmp)
            check(rc == 1 and err == "profcat: %s:0: unrecognised file format "
                  "(use --format NAME; --list-formats lists them)\n" % name,
                  "%s: exit %d %r" % (name, rc, err))
    return 0


def t_nm():
    # 4 KiB of lines that read both ways (8-wide hex-looking first
    # fields that start with a letter), then one that only nm's BSD
    # layout explains (a first field starting with a digit)
    lines = ["cafe%04x T beef%d" % (i * 16, i) for i in range(300)]
    lines.append("10000000 T tail")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "syms.nm")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        got = kinds(path)
        check(got.get(("tail", 0x10000000)) == {"text"} and
              got.get(("beef0", 0xcafe0000)) == {"text"} and len(got) == 301,
              "nm tie beyond 4 KiB: %d symbols" % len(got))
        # the same listing that nothing settles stays refused
        with open(path, "w") as f:
            f.write("\n".join(lines[:-1]) + "\n")
        rc, out, err = run(["--list-symbols", path])
        check(rc == 1 and err == "profcat: %s:0: nm listing reads both as "
              "ADDRESS TYPE NAME (nm) and as NAME TYPE VALUE (nm -P), e.g. "
              "\"cafe0000 T beef0\"; choose with the option dialect=nm or "
              "dialect=nm-posix (-O KEY=VALUE)\n" % path, "nm ambiguous: %r" % err)
    return 0


DOSMAP = """
 Start  Stop   Length Name                   Class
 00000H 0001FH 00020H _text                  code
 00020H 0003FH 00020H Code2                  Code
 00040H 0004FH 00010H _data                  data
 00050H 0005FH 00010H _bss                   bss

 Origin   Group

  Address         Publics by Name

 0000:0000       _main
 0002:0000       _helper
 0004:0000       _table
 0005:0000       _buffer

  Address         Publics by Value

 0000:0000       _main
 0002:0000       _helper
 0004:0000       _table
 0005:0000       _buffer

Program entry point at 0000:0000
"""


def t_class():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "LOWER.MAP")
        with open(path, "w") as f:
            f.write(DOSMAP)
        got = kinds(path)
        check(got == {("_main", 0x0): {"text"}, ("_helper", 0x20): {"text"},
                      ("_table", 0x40): {"data"}, ("_buffer", 0x50): {"bss"}},
              "lower-case classes: %r" % got)
    return 0


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    fn = {"embedded": t_embedded, "elf": t_elf, "text": t_text, "nm": t_nm,
          "class": t_class}.get(what)
    if not fn:
        print(__doc__)
        return 2
    rc = fn()
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
