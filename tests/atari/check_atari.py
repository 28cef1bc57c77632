#!/usr/bin/env python3
"""Golden tests for the Atari loaders (gemdos, hatari) through profcat.

Usage: check_atari.py listings|gst2ascii|synth|errors|hatari|e2e|crlf|names
Environment: PROFCAT (the binary), PC_SOURCE_ROOT (the repository).
Exit status: 0 pass, 1 fail, 77 skipped (gst2ascii not installed).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.environ.get("PC_SOURCE_ROOT",
                      os.path.join(os.path.dirname(__file__), "..", ".."))
PROFCAT = os.environ.get("PROFCAT", "profcat")
HERE = os.path.join(ROOT, "tests", "atari")
FIX = os.path.join(HERE, "fixtures")
SYN = os.path.join(HERE, "synth")
REAL = ["int_test.tos", "blitemu.ttp", "cyccheck.prg", "nf_vbcc.tos"]
LETTER = {"text": "T", "data": "D", "bss": "B", "abs": "A", "other": "O"}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run(args):
    p = subprocess.run([PROFCAT] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def symbols(path, *extra):
    """profcat's symbol list as [(name, kind letter, address)] in order."""
    rc, out, err = run(["--list-symbols", "-F", "csv"] + list(extra) + [path])
    if rc != 0:
        raise SystemExit("profcat failed on %s: %s" % (path, err))
    lines = out.splitlines()
    assert lines[0] == "name,segment,address,size,kind", lines[0]
    res = []
    for l in lines[1:]:
        name, seg, addr, size, kind = l.rsplit(",", 4)
        assert seg == "" and size == "0", l
        res.append((name, LETTER[kind], int(addr, 16)))
    return res


def reference(path):
    """The reference listing NAME.symbols.txt: symbols in slot order, the
    basis line and the symbol count."""
    syms, basis, count = [], None, None
    in_table = False
    with open(path) as f:
        for line in f:
            m = re.match(r"DATA/BSS value basis: (\w+)\s+\((.*)\)$", line)
            if m:
                basis = (m.group(1), m.group(2))
            m = re.search(r"(\d+) slots, (\d+) symbols", line)
            if m:
                count = int(m.group(2))
            if line.startswith(" slot  sec"):
                in_table = True
                continue
            if in_table and line.strip():
                f_ = line.split()
                syms.append((f_[6], f_[1], int(f_[5], 16)))
    return syms, basis, count


def t_listings():
    for name in REAL:
        path = os.path.join(FIX, name)
        ref, basis, count = reference(path + ".symbols.txt")
        got = symbols(path)
        check(len(ref) == count, "%s: reference lists %d of %d symbols"
              % (name, len(ref), count))
        check(got == ref, "%s: symbol list differs from %s.symbols.txt:\n"
              "  got %r\n  ref %r" % (name, name,
                                      [g for g in got if g not in ref],
                                      [r for r in ref if r not in got]))
        rc, out, err = run(["-v", "--list-symbols", path])
        word = {"text": "TEXT start", "section": "their own segment"}[basis[0]]
        note = ("profcat: note: %s: DATA/BSS values counted from %s (%s)"
                % (path, word, basis[1]))
        check(note in err.splitlines(), "%s: basis note missing:\n  want %s\n"
              "  got %s" % (name, note, err))


def gst2ascii_list(path):
    p = subprocess.run(["gst2ascii", path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    res = []
    for l in p.stdout.decode("latin-1").splitlines():
        m = re.match(r"^0x([0-9a-f]{8}) ([TDBAW]) (.*)$", l)
        if m:
            res.append((m.group(3), m.group(2), int(m.group(1), 16)))
    return res


def t_gst2ascii():
    if not shutil.which("gst2ascii"):
        print("SKIP: gst2ascii (Debian package hatari) is not installed")
        return 77
    for name in REAL:
        path = os.path.join(FIX, name)
        ours = symbols(path)
        theirs = gst2ascii_list(path)
        # documented differences: Devpac NUL-for-dot labels are printed
        # without a name by gst2ascii; vlink's _LinkerDB (DATA + 0x8000) is
        # dropped by it as out of range
        expect = []
        for n, k, a in ours:
            if n == "_LinkerDB":
                continue
            if n.startswith(".") and name == "cyccheck.prg":
                n = ""
            expect.append((n, k, a))
        check(sorted(expect) == sorted(theirs),
              "%s: differs from gst2ascii:\n  only ours %r\n  only gst2ascii %r"
              % (name, sorted(set(expect) - set(theirs)),
                 sorted(set(theirs) - set(expect))))
        check(len(theirs) == len(expect), "%s: %d vs %d symbols"
              % (name, len(theirs), len(expect)))
    return 0


SYNTH = {
    "alcyon.prg": [
        ("crt0.o", "O", 0x0), ("_start", "T", 0x0),
        ("_main", "T", 0x20), ("~~main", "T", 0x20),
        ("_dopey", "T", 0x40), ("~~dopey", "T", 0x40),
        ("~i", "A", 0xFFFFFFFC), ("~n", "A", 0x8), ("~r", "A", 0x7),
        ("_grumpy", "T", 0x60), ("~~grumpy", "T", 0x60),
        ("_doc", "T", 0x80), ("~~doc", "T", 0x80),
        ("_sleepy", "T", 0xA0), ("~~sleepy", "T", 0xA0),
        ("_bashful", "T", 0xC0), ("~~bashfu", "T", 0xC0),
        ("_happy", "T", 0xE0), ("~~happy", "T", 0xE0),
        ("_sneezy", "T", 0x100), ("~~sneezy", "T", 0x100),
        ("_hide_mo", "T", 0x120), ("~~hide_m", "T", 0x120),
        ("libc.a", "O", 0x140), ("_exit", "T", 0x140),
        ("_errno", "D", 0x160), ("_environ", "D", 0x164),
        ("_buf", "B", 0x170), ("_end", "B", 0x270)],
    "section.prg": [
        ("start", "T", 0x0), ("main_loop", "T", 0x10), (".loop", "T", 0x18),
        ("print_string", "T", 0x40), (".wait_vbl_local", "T", 0x50),
        ("exit", "T", 0xF0), ("msg", "D", 0x100), ("msg_end", "D", 0x120),
        ("weird", "D", 0x190), ("buffer", "B", 0x120),
        ("stack_top_of_area", "B", 0x160)],
    "sozobon.prg": [
        ("_a_very_long_function_name", "T", 0x10), ("_short", "T", 0x30),
        ("_exactly_sixteen", "T", 0x50), ("_long_data_variable", "D", 0x84)],
    # the real linker's mark byte in every slot (0x4242, 0x42b0, 0xa2ce...)
    # is not type bits: no names cut at 8, no phantoms at 0x87654321, and
    # _main (mark 0xce: long-name and file bits) stays code
    "sozobon_marks.prg": [
        ("_a_very_long_function_name", "T", 0x10), ("_main", "T", 0x30),
        ("_helper_routine", "T", 0x50), ("_count", "D", 0x84),
        ("_buffer_for_input", "B", 0x90)],
    "purec.prg": [
        ("main", "T", 0x0), ("process_records", "T", 0x20),
        ("init_tables", "T", 0x60), ("exactly8", "T", 0x80),
        # the QDB1 record at 0xa0 is named "other_name": not the full form
        # of "truncate", so the DRI name stays
        ("truncate", "T", 0xA0), ("counter_value", "D", 0xC0)],
    "mint_aout.prg": [
        ("_main", "T", 0xE4), ("_helper", "T", 0x104),
        ("_data_var", "D", 0x144), ("_bss_var", "B", 0x154),
        ("abs_const", "A", 0x1234), ("_weak_fn", "T", 0x124),
        ("gcc2_compiled.", "O", 0xE4)],
    "prgelf.prg": [
        ("_start", "T", 0x0), ("main", "T", 0x40), ("local_fn", "T", 0x80),
        ("counter", "D", 0x100), ("buffer", "B", 0x120),
        ("ABSVAL", "A", 0x400)],
}


def t_synth():
    for name, want in SYNTH.items():
        got = symbols(os.path.join(SYN, name))
        check(got == want, "%s:\n  got  %r\n  want %r" % (name, got, want))
    # load-address moves TEXT/DATA/BSS and markers, never equates
    got = symbols(os.path.join(SYN, "alcyon.prg"), "-O", "load-address=0x13f00")
    want = [(n, k, a if k == "A" else a + 0x13F00)
            for n, k, a in SYNTH["alcyon.prg"]]
    check(got == want, "alcyon.prg with load-address:\n  got  %r" % got)
    # --load-address is the same as -O load-address
    got2 = symbols(os.path.join(SYN, "alcyon.prg"), "--load-address", "0x13f00")
    check(got2 == want, "--load-address: %r" % got2)
    got2 = symbols(os.path.join(SYN, "alcyon.prg"), "--load-address=0x13f00")
    check(got2 == want, "--load-address=: %r" % got2)
    # the basis can be forced
    got = symbols(os.path.join(SYN, "section.prg"), "-O", "gemdos-basis=text")
    check(("msg", "D", 0x0) in got and ("buffer", "B", 0x0) in got,
          "gemdos-basis=text: %r" % got)
    rc, out, err = run(["-v", "--list-symbols", "-O", "gemdos-basis=text",
                        os.path.join(SYN, "section.prg")])
    check("profcat: note: %s: DATA/BSS values counted from TEXT start (5 "
          "DATA/BSS symbols: 0 fit text-based, 4 fit section-relative; set "
          "by option gemdos-basis)" % os.path.join(SYN, "section.prg")
          in err.splitlines(), "forced basis note: %s" % err)
    orphan = os.path.join(SYN, "sozobon_orphan.prg")
    check(symbols(orphan) == [("_main", "T", 0x4)], "sozobon_orphan.prg")
    rc, out, err = run(["-v", "--list-symbols", orphan])
    check("profcat: warning: %s: 1 SozobonX name continuation slot(s) with "
          "no symbol before them skipped" % orphan in err.splitlines(),
          "orphan continuation warning: %s" % err)
    rc, out, err = run(["-v", "--list-symbols", os.path.join(SYN, "purec.prg")])
    check(("profcat: note: %s: GEMDOS executable, DRI symbols: TEXT 0xc0, "
           "DATA 0x10, BSS 0x20 bytes; 6 symbols, 3 relocations; full names "
           "from the Pure C QDB1 block" % os.path.join(SYN, "purec.prg"))
          in err.splitlines(), "purec note: %s" % err)


ERRORS = [
    ("nosyms.prg", [], 1, "14: GEMDOS executable has no symbol table "
     "(ph_slen is 0); relink with symbols (e.g. Devpac opt x+, vlink -g, "
     "AHCC -g)"),
    ("mint_stripped.prg", [], 1, "14: MiNT executable has no symbol table "
     "(ph_slen is 0; stripped)"),
    ("prgelf_stripped.prg", [], 1, "40: PRGELF executable has no .symtab "
     "section (stripped); no symbols to read"),
    ("bad_slen.prg", [], 1, "14: symbol table (29 bytes at 0x2c) fits neither "
     "DRI (29 is not a multiple of the 14-byte slot) nor Mark Williams C (29 "
     "is neither a multiple of the 22-byte record nor 48 bytes more than one)"),
    ("bad_longlast.prg", [], 1, "66: long-name flag (type 0xa248) on the "
     "last symbol slot 1; expected a continuation slot"),
    ("bad_tlen.prg", [], 1, "2: TEXT (65536 bytes) and DATA (0 bytes) "
     "extend beyond the end of the file (76 bytes)"),
    ("bad_slen_beyond.prg", [], 1, "14: symbol table (1400 bytes at 0x2c) "
     "extends beyond the end of the file (76 bytes)"),
    ("bad_reloc_odd.prg", [], 1, "76: relocation step 0x03 is odd; expected "
     "0, 1 or an even distance"),
    ("bad_reloc_outside.prg", [], 1, "76: relocation at text+0xe lies "
     "outside TEXT+DATA (0x10 bytes)"),
    ("bad_reloc_trunc.prg", [], 1, "78: relocation table starting at 0x48 "
     "ends before its terminating 0 byte"),
    ("bad_short.prg", ["-f", "gemdos"], 1, "20: expected a 28-byte GEMDOS "
     "header, found 20 bytes"),
    ("dwarfs.pcs", ["-f", "gemdos"], 1, "0: expected the GEMDOS magic "
     "0x601a, found 0x0001"),
    ("alcyon.prg", ["-O", "gemdos-basis=both"], 2, "bad value 'both' for "
     "option 'gemdos-basis' of loader gemdos; expected one of: auto, text, section"),
]


def t_errors():
    for name, extra, code, msg in ERRORS:
        path = os.path.join(SYN, name)
        rc, out, err = run(["--list-symbols"] + extra + [path])
        want = "profcat: %s:%s\n" % (path, msg)
        if code == 2:
            want = "profcat: %s: %s\n" % (path, msg)
        check(rc == code, "%s: exit %d, want %d" % (name, rc, code))
        check(err == want, "%s:\n  got  %r\n  want %r" % (name, err, want))
        check(out == "", "%s: output on error: %r" % (name, out))
    # the relocation check can be switched off for damaged files
    got = symbols(os.path.join(SYN, "bad_reloc_odd.prg"), "-O",
                  "gemdos-relocations=ignore")
    check(got == [("_main", "T", 0x0), ("_f", "T", 0x8)],
          "gemdos-relocations=ignore: %r" % got)


def flat(args):
    rc, out, err = run(args)
    check(rc == 0, "profcat %s: exit %d: %s" % (" ".join(args), rc, err))
    return out


def t_hatari():
    alc = os.path.join(SYN, "alcyon.prg")
    prof = os.path.join(SYN, "dwarfs.hatari")
    # the profile alone: its one label names the code from 0x13f40 on
    out = flat([prof])
    want = (
        "Flat profile of %s (hatari)\n"
        "Counts: 105 total, 95 in the program, 10 outside (system 6, "
        "unknown 4)\n"
        "Rate: none (exact counts of instructions, not samples)\n"
        "\n"
        "rank  symbol     count  percent    cum %%  bar\n"
        "   1  _dopey        90    85.71    85.71  ####################\n"
        % prof)
    check(out == want, "hatari alone:\n%s\nwant\n%s" % (out, want))
    # with the executable at its load address: the executable's names,
    # the regions of the Atari memory map, and the call arc main -> dopey
    # (the branch arc from inside _dopey is not a call)
    out = flat(["-O", "load-address=0x13f00", alc, prof])
    want = (
        "Flat profile of %s (gemdos), %s (hatari)\n"
        "Counts: 105 total, 95 in the program, 10 outside (system 10)\n"
        "Rate: none (exact counts of instructions, not samples)\n"
        "\n"
        "rank  symbol       count  percent    cum %%      calls  bar\n"
        "   1  _sleepy         28    26.67    26.67             ####################\n"
        "   2  _happy          14    13.33    40.00             ##########\n"
        "   3  _grumpy         12    11.43    51.43             ########\n"
        "   4  _sneezy          9     8.57    60.00             ######\n"
        "   5  _dopey           8     7.62    67.62          7  #####\n"
        "   6  _bashful         8     7.62    75.24             #####\n"
        "   7  _doc             6     5.71    80.95             ####\n"
        "   8  _main            5     4.76    85.71             ###\n"
        "   9  _exit            3     2.86    88.57             ##\n"
        "  10  _hide_mo         2     1.90    90.48             #\n"
        % (alc, prof))
    check(out == want, "hatari + alcyon:\n%s\nwant\n%s" % (out, want))
    # cycles as the count: the clock rate turns them into seconds
    out = flat(["-O", "hatari-field=cycles", "-O", "load-address=0x13f00",
                alc, prof])
    check("Counts: 420 total, 380 in the program, 40 outside (system 40)\n"
          in out, "cycles field:\n%s" % out)
    check("Rate: 8.02125e+06 Hz, each count is 1.24669e-07 seconds; "
          "0.00 seconds in all (exact counts, not samples)\n" in out, "cycles rate:\n%s" % out)
    # other Hatari versions' layouts of the same run give the same table:
    # WinUAE-core disassembly and typed callers (only the "s" caller is a
    # call), Hatari 1.x "$addr :" lines with three counters and untyped
    # callers, a field regexp POSIX cannot compile (built-in pattern), and
    # one the file's own lines do not match (built-in pattern for them)
    for name in ["new.hatari", "old.hatari", "pyre.hatari", "mismatch.hatari"]:
        path = os.path.join(SYN, name)
        rc, out, err = run(["--load-address", "0x13f00", alc, path])
        w = want.replace(prof, path)
        if name == "pyre.hatari":
            warn = ("%s:169: field regexp is not a POSIX extended regular "
                    "expression with two groups; using the built-in "
                    "address-line pattern" % path)
            w = w.replace("\n\nrank", "\nWarning: %s\n\nrank" % warn)
        if name == "mismatch.hatari":
            warn = ("%s: the field regexp does not match 16 address line(s), "
                    "the first on line 12; they were read with the built-in "
                    "address-line pattern" % path)
            w = w.replace("\n\nrank", "\nWarning: %s\n\nrank" % warn)
        check(rc == 0 and out == w, "%s:\n%s\nwant\n%s" % (name, out, w))
    # the 1.x layout alone: no labels (so no symbols) and only ROM areas,
    # so RAM and the TOS 2 ROM address are "unknown"
    out = flat([os.path.join(SYN, "old.hatari")])
    check(out.endswith("Counts: 105 total, 95 in the program, 10 outside "
                       "(system 5, unknown 5)\nRate: none (exact counts of "
                       "instructions, not samples)\n\nrank  symbol     count  percent    cum %  "
                       "bar\n(no symbol received samples)\n"),
          "old.hatari alone:\n%r" % out)
    out = flat(["-O", "hatari-field=cycles", "--load-address", "0x13f00", alc,
                os.path.join(SYN, "new.hatari")])
    check("Rate: 3.2085e+07 Hz, each count is 3.11672e-08 seconds; "
          "0.00 seconds in all (exact counts, not samples)\n" in out, "new.hatari cycles:\n%s" % out)
    for name, extra, msg in [
            ("dsp.hatari", [], "0: Hatari DSP (56001) profiles are not "
             "supported; expected a CPU profile"),
            ("bad_counter.hatari", [], "441: expected ',' between profile "
             "counters"),
            ("bad_line.hatari", [], "285: unrecognised line 9 in Hatari "
             "profile; expected an address line matching the field regexp, "
             "a symbol label or a caller line"),
            ("old.hatari", ["-O", "hatari-field=d-hits"], "329: line has 3 "
             "counters; option hatari-field asks for field 3")]:
        path = os.path.join(SYN, name)
        rc, out, err = run(extra + [path])
        want_err = "profcat: %s:%s\n" % (path, msg)
        check(rc == 1 and err == want_err and out == "",
              "%s: exit %d\n  got  %r\n  want %r" % (name, rc, err, want_err))
    # numbers too long for 64 bits, or beyond the 32-bit address space,
    # say so, at the offset of the number (new.hatari with one change)
    with open(os.path.join(SYN, "new.hatari"), "rb") as f:
        new = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        for old, repl, msg in [
                (b"\n00013f22 ", b"\n1ffffffff00013f22 ", "478: address "
                 "0x1ffffffff00013f22 is beyond the 32-bit Atari address space"),
                (b"\n00013f22 ", b"\n100013f22 ", "478: address 0x100013f22 is "
                 "beyond the 32-bit Atari address space"),
                (b"(5, 20, 1, 0)", b"(99999999999999999999, 20, 1, 0)",
                 "541: profile counter 99999999999999999999 does not fit in 64 "
                 "bits"),
                (b"(5, 20, 1, 0)", b"(5, 18446744073709551616, 1, 0)",
                 "544: profile counter 18446744073709551616 does not fit in 64 "
                 "bits"),
                (b"(5, 20, 1, 0)", b"(5, " + b"1" * 64 + b", 1, 0)",
                 "544: profile counter " + "1" * 40 + "... (64 digits) does not "
                 "fit in 64 bits"),
                (b"32084988", b"99999999999999999999999", "69: Cycles/second "
                 "value 99999999999999999999999 does not fit in 64 bits"),
                (b"0x013f00-0x014060", b"0x013f00-0x1ffffffffffffffff",
                 "325: memory area end 0x1ffffffffffffffff is beyond the 32-bit "
                 "Atari address space"),
                (b"0x013f00-0x014060", b"0x013f00-0x100000001",
                 "325: memory area end 0x100000001 is beyond the 32-bit Atari "
                 "address space"),
                (b"0x013f00-0x014060", b"0x100000000-0x100000000",
                 "316: memory area start 0x100000000 is beyond the 32-bit Atari "
                 "address space"),
                (b"0x13f40: 0x13f24", b"0x1ffffffffffffffff: 0x13f24",
                 "1680: callee address 0x1ffffffffffffffff is beyond the 32-bit "
                 "Atari address space"),
                (b"0x13f40: 0x13f24", b"0x13f40: 0x100000000", "1689: caller "
                 "address 0x100000000 is beyond the 32-bit Atari address space"),
                (b"0x13f24 = 7 ", b"0x13f24 = 99999999999999999999 ", "1699: "
                 "call count 99999999999999999999 does not fit in 64 bits")]:
            assert old in new, old
            path = os.path.join(tmp, "damaged.hatari")
            with open(path, "wb") as f:
                f.write(new.replace(old, repl, 1))
            rc, out, err = run([path])
            want_err = "profcat: %s:%s\n" % (path, msg)
            check(rc == 1 and err == want_err and out == "",
                  "%r -> %r: exit %d\n  got  %r\n  want %r"
                  % (old, repl, rc, err, want_err))
        # the largest values that fit load: leading zeros do not count, a
        # memory area may end at 2^32, a counter may hold 2^64 - 1
        path = os.path.join(tmp, "edges.hatari")
        with open(path, "wb") as f:
            f.write(new.replace(b"\n00013f22 ", b"\n" + b"0" * 16 + b"00013f22 ", 1)
                    .replace(b"0x01000000-0x01400000", b"0x01000000-0x100000000", 1)
                    .replace(b"(5, 20, 1, 0)", b"(5, 18446744073709551615, 1, 0)", 1))
        rc, out, err = run(["-F", "csv", path])
        check(rc == 0 and err == "" and "\n,[total],105," in out,
              "edges.hatari: exit %d, %r\n%s" % (rc, err, out))
    # no PROGRAM_TEXT line (no program started from GEMDOS): each label
    # ends at the next label or at the end of its memory area, as
    # hatari_profile charges it; the last label of RAM (vbl) no longer
    # runs on into ROM, the last one of ROM (trap) is not left empty
    noprog = os.path.join(SYN, "noprog.hatari")
    out = flat([noprog])
    want = (
        "Flat profile of %s (hatari)\n"
        "Counts: 99 total, 88 in the program, 11 outside (system 11)\n"
        "Rate: none (exact counts of instructions, not samples)\n"
        "\n"
        "rank  symbol     count  percent    cum %%  bar\n"
        "   1  vbl           32    32.32    32.32  ####################\n"
        "   2  draw          25    25.25    57.58  ###############\n"
        "   3  main          20    20.20    77.78  ############\n"
        "   4  trap          11    11.11    88.89  ######\n" % noprog)
    check(out == want, "noprog.hatari:\n%s\nwant\n%s" % (out, want))
    rc, out, err = run(["--list-symbols", "-F", "csv", noprog])
    want = ("name,segment,address,size,kind\n"
            "main,,0x1000,64,text\n"
            "draw,,0x1040,4032,text\n"
            "vbl,,0x2000,1040384,text\n"
            "trap,,0xe00200,261632,text\n")
    check(rc == 0 and out == want, "noprog.hatari symbols:\n%s" % out)
    hp = shutil.which("hatari_profile")
    if hp:
        p = subprocess.run([hp, "-t", noprog], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        text = p.stdout.decode()
        part = text[text.index("Executed instructions:\n", text.index("Visits/calls")):]
        theirs = re.findall(r"^\s+[0-9.]+%\s+(\d+)\s+(\S+)$", part, re.M)
        theirs = [(n, int(c)) for c, n in theirs][:6]
        check(theirs == [("vbl", 32), ("draw", 25), ("main", 20),
                         ("trap", 11), ("ROM_TOS", 7), ("ST_RAM", 4)],
              "hatari_profile on noprog.hatari: %r" % theirs)
    # a symbol file at the wrong place is pointed out
    rc, out, err = run(["-v", alc, prof])
    check(("profcat: warning: %s: no text symbol lies in PROGRAM_TEXT "
           "0x13f00-0x14060; load the executable with load-address=0x13f00"
           % prof) in err.splitlines(), "misplaced symbols: %s" % err)


def lf(data):
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def crlf(data):
    return lf(data).replace(b"\n", b"\r\n")


def t_crlf():
    """Every text loader but the map loader (tests/dos) reads a CRLF file
    exactly as the LF one: the same report, byte for byte.  Each pair is
    run under the same relative name from two directories."""
    alc = os.path.join(SYN, "alcyon.prg")
    cg = os.path.join(ROOT, "tests", "callgraph", "fixtures")
    raw = os.path.join(ROOT, "tests", "raw")
    cases = [
        # (input, its format's arguments, reports to compare)
        (os.path.join(SYN, "dwarfs.hatari"), [], [[], ["-r", "arcs"]]),
        (os.path.join(SYN, "dwarfs.hatari"), ["--load-address", "0x13f00", alc],
         [[], ["-r", "callgraph"], ["-F", "csv"]]),
        (os.path.join(SYN, "new.hatari"), ["--load-address", "0x13f00", alc],
         [[], ["-r", "arcs"]]),
        (os.path.join(SYN, "old.hatari"), [], [[], ["-r", "regions"]]),
        (os.path.join(SYN, "noprog.hatari"), [], [[], ["--list-symbols"]]),
        (os.path.join(raw, "hex.txt"), [], [[], ["-r", "check"]]),
        (os.path.join(raw, "dec.txt"), ["-f", "raw", "-O", "radix=10"], [[]]),
        (os.path.join(cg, "example.proff"),
         [os.path.join(cg, "example.SYM")], [["-r", "arcs"], ["-r", "callgraph"]]),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for src, pre, reports in cases:
            with open(src, "rb") as f:
                data = f.read()
            base = os.path.basename(src)
            outs = []
            for sub, content in [("lf", lf(data)), ("crlf", crlf(data))]:
                d = os.path.join(tmp, sub)
                os.makedirs(d, exist_ok=True)
                with open(os.path.join(d, base), "wb") as f:
                    f.write(content)
                res = []
                for rep in reports:
                    p = subprocess.run([PROFCAT] + rep + pre + [base], cwd=d,
                                       stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE)
                    res.append((p.returncode, p.stdout, p.stderr))
                outs.append(res)
            check(b"\r\n" in crlf(data), "%s: no CRLF made" % base)
            for rep, a, b in zip(reports, outs[0], outs[1]):
                check(a[0] == 0 and a == b, "%s %r: LF and CRLF differ:\n%r\n%r"
                      % (base, rep, a, b))
    # Hatari keeps the CR of a CRLF symbol file in the names it writes
    # into a profile ("_dopey\r:"): the label is _dopey, in every output
    with open(os.path.join(SYN, "dwarfs.hatari"), "rb") as f:
        data = f.read()
    assert b"\n_dopey:\n" in data
    with tempfile.TemporaryDirectory() as tmp:
        outs = []
        for sub, content in [("lf", data),
                             ("cr", data.replace(b"\n_dopey:\n", b"\n_dopey\r:\n")),
                             ("crlf", data.replace(b"\n", b"\r\n").replace(
                                 b"\n_dopey:\r\n", b"\n_dopey\r:\r\n"))]:
            d = os.path.join(tmp, sub)
            os.makedirs(d)
            with open(os.path.join(d, "dwarfs.hatari"), "wb") as f:
                f.write(content)
            res = []
            for rep in [[], ["-F", "csv"], ["-F", "json"], ["--list-symbols"]]:
                p = subprocess.run([PROFCAT] + rep + ["dwarfs.hatari"], cwd=d,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                res.append((p.returncode, p.stdout, p.stderr))
            outs.append(res)
        check(outs[0] == outs[1] == outs[2] and
              all(b"\r" not in o[1] + o[2] for r in outs for o in r),
              "Hatari label with a CR:\n%r" % (outs,))


def t_e2e():
    """Raw PC dump + executable + load address: the Atari profiler's
    appl/sys split and per-routine counts (the run is RUN in
    gen_fixtures.py: 95 PCs in the program's routines, 10 in ROM, the
    cartridge and the RAM below the program)."""
    alc = os.path.join(SYN, "alcyon.prg")
    pcs = os.path.join(SYN, "dwarfs.pcs")
    rc, out, err = run(["--list-formats"])
    if not re.search(r"^raw\s", out, re.M):
        print("SKIP: no raw loader in this build")
        return 77
    args = ["--load-address", "0x13f00", alc, "-f", "raw", "-O",
            "encoding=binary", "-O", "width=32", "-O", "endian=big", pcs]
    out = flat(args + ["--style", "atari"])
    want = """Profile of 'alcyon.prg'

There are 11 symbols

Samples in appl:       95  (90.48 %)
Samples in sys :       10  ( 9.52 %)

Num. of samples:      105

+-----+------------+---------+---------+-----------------------------------+
|   # |   Symbol   |  Count  | Percent |             Barchart              |
+-----+------------+---------+---------+-----------------------------------+
|   1 |    _sleepy |      28 |   29.47 |***********************************|
|   2 |     _happy |      14 |   14.74 |*****************                  |
|   3 |    _grumpy |      12 |   12.63 |***************                    |
|   4 |    _sneezy |       9 |    9.47 |***********                        |
|   5 |   _bashful |       8 |    8.42 |**********                         |
|   6 |     _dopey |       8 |    8.42 |**********                         |
|   7 |       _doc |       6 |    6.32 |*******                            |
|   8 |      _main |       5 |    5.26 |******                             |
|   9 |      _exit |       3 |    3.16 |***                                |
|  10 |   _hide_mo |       2 |    2.11 |**                                 |
+-----+------------+---------+---------+-----------------------------------+


End of profile
"""
    check(out == want, "raw e2e, atari style:\n%s\nwant\n%s" % (out, want))
    out = flat(args)
    check("Samples: 105 total, 95 in the program, 10 outside (system 10)\n"
          in out, "raw e2e header:\n%s" % out)
    rows = re.findall(r"^\s+\d+\s+(\S+)\s+(\d+)\s", out, re.M)
    want = [("_sleepy", "28"), ("_happy", "14"), ("_grumpy", "12"),
            ("_sneezy", "9"), ("_bashful", "8"), ("_dopey", "8"),
            ("_doc", "6"), ("_main", "5"), ("_exit", "3"), ("_hide_mo", "2")]
    check(rows == want, "raw e2e rows: %r" % rows)
    return 0


def t_names():
    """Names keep the file's bytes (a Pure C path d:\\mint\\, a control
    byte); every output escapes them by the one rule of the sinks."""
    sys.path.insert(0, HERE)
    import gen_fixtures as gf
    tab = (gf.slot(b"d:\\mint\\", gf.T_GLOBAL_TEXT, 0x0) +
           gf.slot(b"e\x1b[31m", gf.T_GLOBAL_TEXT, 0x10) +
           gf.slot(b"caf\xc3\xa9", gf.T_GLOBAL_TEXT, 0x18))
    with tempfile.TemporaryDirectory() as tmp:
        prg = os.path.join(tmp, "names.prg")
        with open(prg, "wb") as f:
            f.write(gf.prg(gf.code(0x20), b"", 0, tab, gf.fixups([])))
        pcs = os.path.join(tmp, "pcs.txt")
        with open(pcs, "w") as f:
            f.write("0x0\n0x2\n0x12\n0x1a\n")
        rc, out, err = run(["--list-symbols", prg])
        check(rc == 0 and out.splitlines()[1:] == [
            "-        0x0000000000000000 0          text  d:\\mint\\",
            "-        0x0000000000000010 0          text  e\\x1b[31m",
            "-        0x0000000000000018 0          text  café"],
            "names: --list-symbols %r" % out)
        rc, out, err = run(["-F", "csv", prg, pcs])
        check(out.splitlines()[1:4] == [
            "1,d:\\mint\\,2,50.0000,50.0000,,0,0,0x0",
            "2,café,1,25.0000,75.0000,,0,0,0x18",
            "3,e\\x1b[31m,1,25.0000,100.0000,,0,0,0x10"], "names: csv %r" % out)
        rc, out, err = run(["-F", "json", prg, pcs])
        import json
        rows = [r["symbol"] for r in json.loads(out)["rows"]]
        check(rows == ["d:\\mint\\", "café", "e\\x1b[31m"],
              "names: json %r" % rows)
        rc, out, err = run(["-e", "folded", prg, pcs])
        check(sorted(out.splitlines()) == ["café 1", "d:\\mint\\ 2",
                                           "e\\x1b[31m 1"],
              "names: folded %r" % out)
    return 0


def main():
    what = sys.argv[1]
    rc = {"listings": t_listings, "gst2ascii": t_gst2ascii, "synth": t_synth,
          "errors": t_errors, "hatari": t_hatari, "e2e": t_e2e,
          "crlf": t_crlf, "names": t_names}[what]()
    if rc == 77 and not failures:
        return 77
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
