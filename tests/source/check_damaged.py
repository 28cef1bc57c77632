#!/usr/bin/env python3
"""DWARF that libdw cannot read, or that is missing, or that sits in a
separate debug file, for the golden program fixtures/lines-O2:

  * exact one-line errors (exit 1, FILE:OFFSET of the damaged unit or
    line table) for a .debug_info unit length past the section's end,
    for a .debug_line version libdw does not know and for the second
    unit's DW_AT_stmt_list in a form that is no offset (after the first
    unit's line table was read: what it read is freed, which the
    sanitizer build checks) and in DW_FORM_data4, a constant since
    DWARF 4, which libdw's dwarf_getsrclines refuses in this DWARF 5
    unit (so does the faster reader of .debug_line: the same error);
  * 3 bytes overwritten at 12 places (at least 5 bytes apart) in every
    .debug_* section, each
    copy read with --granularity line and -r locations: exit 0 or exit 1
    with exactly one "profcat: FILE..." line; never a crash or a hang;
  * no DWARF (strip --strip-debug): exit 1 and one line saying so;
  * a separate debug file (objcopy --only-keep-debug, strip --strip-debug,
    --add-gnu-debuglink): the same rows as the program with its DWARF.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import sourcelib as L

FIX = os.path.join(L.HERE, "fixtures")
EXE = os.path.join(FIX, "lines-O2")
GMON = os.path.join(FIX, "gmon.out")


def sections(data):
    """{name: (file offset, size)} of a little-endian ELF64 file."""
    assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
            for i in range(shnum)]
    stroff = hdrs[shstrndx][4]
    out = {}
    for h in hdrs:
        end = data.index(b"\0", stroff + h[0])
        out[data[stroff + h[0]:end].decode()] = (h[4], h[5])
    return out


def uleb(data, i):
    """(value, next offset) of the unsigned LEB128 at data[i]"""
    v = shift = 0
    while True:
        c = data[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if c < 0x80:
            return v, i


def second_unit_stmt_list(data, secs):
    """(.debug_info offset of the second unit's DIE, file offset of the
    form of DW_AT_stmt_list in its DW_TAG_compile_unit abbreviation, the
    attribute's value), for 32-bit DWARF 5 units whose compile_unit DIE
    holds attributes of fixed-size forms"""
    info_off, _ = secs[".debug_info"]
    abbrev_off, _ = secs[".debug_abbrev"]
    length, version = struct.unpack_from("<IH", data, info_off)
    unit = 4 + length
    _, version, _, asize, abbrevs = struct.unpack_from("<IHBBI", data, info_off + unit)
    assert version == 5
    die = unit + 12
    _, at = uleb(data, info_off + die)  # the DIE's abbreviation code
    # the sizes of the forms a compile_unit DIE has (32-bit DWARF)
    size = {0x01: asize, 0x05: 2, 0x06: 4, 0x07: 8, 0x0b: 1, 0x0e: 4, 0x17: 4, 0x1f: 4}
    i = abbrev_off + abbrevs
    while True:
        code, i = uleb(data, i)
        assert code, "no DW_TAG_compile_unit abbreviation"
        tag, i = uleb(data, i)
        i += 1  # children
        while True:
            name, i = uleb(data, i)
            form, i = uleb(data, i)
            if form == 0x21:  # DW_FORM_implicit_const
                _, i = uleb(data, i)
            if tag == 0x11 and name == 0x10:  # DW_AT_stmt_list
                assert data[i - 1] == form == 0x17  # DW_FORM_sec_offset
                value, = struct.unpack_from("<I", data, at)
                return die, i - 1, value
            if tag == 0x11 and name:
                at += size[form]
            if not name and not form:
                break


def run(args, timeout=20):
    try:
        r = subprocess.run([L.PROFCAT] + args, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, ""
    return r.returncode, r.stderr.decode("utf-8", "replace")


def expect(label, args, rc, err):
    got_rc, got_err = run(args)
    if got_rc != rc or got_err != err:
        L.fail(label, "rc %r stderr %r, want rc %d stderr %r"
               % (got_rc, got_err, rc, err))
    else:
        print("ok   %s" % label)


def main():
    with open(EXE, "rb") as f:
        data = f.read()
    secs = sections(data)
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "bad")

        def write(patches):
            b = bytearray(data)
            for off, val in patches:
                b[off:off + len(val)] = val
            with open(bad, "wb") as f:
                f.write(b)

        info_off, info_size = secs[".debug_info"]
        write([(info_off, b"\xff\xff\xff\x7f")])
        expect("unit length past .debug_info", ["--granularity", "line", bad, GMON], 1,
               "profcat: %s:%d: damaged DWARF: the unit header at .debug_info+0x0 "
               "gives a length past the end of the section (0x%x bytes)\n"
               % (bad, info_off, info_size))
        line_off, _ = secs[".debug_line"]
        write([(line_off + 4, b"\x09\x00")])
        expect("unknown .debug_line version", ["-r", "source", bad, GMON], 1,
               "profcat: %s:%d: damaged DWARF: line table at .debug_line+0x0: "
               "invalid DWARF version\n" % (bad, line_off))

        die, form, line2 = second_unit_stmt_list(data, secs)
        write([(form, b"\x0e")])  # DW_FORM_strp: 4 bytes as before
        expect("DW_AT_stmt_list not an offset", ["--granularity", "line", bad, GMON], 1,
               "profcat: %s:%d: damaged DWARF: DW_AT_stmt_list of the compilation "
               "unit at .debug_info+0x%x: no constant value\n"
               % (bad, info_off + die, die))

        write([(form, b"\x06")])  # DW_FORM_data4
        expect("DW_AT_stmt_list in DW_FORM_data4", ["--granularity", "line", bad, GMON], 1,
               "profcat: %s:%d: damaged DWARF: line table at .debug_line+0x%x: "
               "invalid DWARF\n" % (bad, line_off + line2, line2))

        tried = errors = 0
        for name, (off, size) in sorted(secs.items()):
            if not name.startswith(".debug_"):
                continue
            for at in range(off, off + size, max(5, size // 12)):
                write([(at, b"\xfe\xfe\xfe")])
                for args in (["--granularity", "line"], ["-r", "locations"]):
                    rc, err = run(args + [bad, GMON])
                    tried += 1
                    lines = err.splitlines()
                    if rc == 1 and len(lines) == 1 and lines[0].startswith(
                            "profcat: %s" % bad):
                        errors += 1
                    elif rc != 0 or err:
                        L.fail("damaged %s+0x%x %s" % (name, at - off, args[-1]),
                               "rc %r stderr %r" % (rc, err))
        print("ok   %d damaged copies read: %d one-line errors, no crash"
              % (tried, errors) if not L.failures else
              "damaged copies: failures above")

        if shutil.which("strip") and shutil.which("objcopy"):
            nodbg = os.path.join(tmp, "nodbg")
            subprocess.run(["strip", "--strip-debug", "-o", nodbg, EXE], check=True)
            expect("no DWARF", ["--granularity", "line", nodbg, GMON], 1,
                   "profcat: %s: no DWARF debugging information (build with -g, "
                   "or install its separate debug file)\n" % nodbg)
            sep = os.path.join(tmp, "sep")
            os.mkdir(sep)
            prog = os.path.join(sep, "lines-O2")
            dbg = os.path.join(sep, "lines-O2.debug")
            subprocess.run(["objcopy", "--only-keep-debug", EXE, dbg], check=True)
            subprocess.run(["strip", "--strip-debug", "-o", prog, EXE], check=True)
            subprocess.run(["objcopy", "--add-gnu-debuglink=" + dbg, prog],
                           check=True, cwd=sep)
            want = L.profcat_csv(["--granularity", "line", EXE, GMON])
            got = L.profcat_csv(["--granularity", "line", prog, GMON])
            if got != want:
                L.fail("separate debug file", "rows %r, want %r" % (got, want))
            else:
                print("ok   separate debug file (.gnu_debuglink): %d rows as with -g"
                      % len(got))
        else:
            print("skip no-DWARF and separate debug file: no strip/objcopy")
    print("%d failures" % L.failures if L.failures else "damaged: all passed")
    sys.exit(1 if L.failures else 0)


main()
