#!/usr/bin/env python3
"""Generates the synthetic Atari fixtures in tests/atari/synth/.

Each file exercises one feature the real fixtures lack (see
shared/research/atari-formats.md for the byte layouts):

  alcyon.prg      DRI/Alcyon: 8-char names, _func + ~~func twins, ~x frame
                  equates, a register equate, object/archive name markers,
                  text-based DATA/BSS, a fixup stream with a 254-byte skip
  section.prg     Devpac-style section-relative DATA/BSS values, GST long
                  names, NUL-for-dot local labels (short and long)
  sozobon.prg     SozobonX long names (marker slot + 0x4200 chunk slots)
  sozobon_marks.prg  SozobonX as the real linker writes it: a non-zero
                  "mark" byte after the flags byte in every slot
  sozobon_orphan.prg a SozobonX continuation slot with no symbol before it
  purec.prg       Pure C: truncated DRI names + QDB1 block with the full
                  names, fixups ending at an odd offset (pad byte)
  mint_aout.prg   GCC/MiNT a.out executable ("MiNT" header, nlist symbols)
  prgelf.prg      MiNT PRGELF executable (ELF32 .symtab)
  nosyms.prg      no symbol table
  bad_*.prg       malformed tables (exact errors asserted by the tests)
  dwarfs.hatari   Hatari CPU profile of alcyon.prg loaded at 0x13f00
  dwarfs.pcs      raw big-endian 32-bit PC dump of the same run
  noprog.hatari   Hatari profile with no PROGRAM_TEXT line (no program
                  started from GEMDOS): labels in RAM and ROM, the last one
                  of each area followed by code of other areas

Run: python3 tests/atari/gen_fixtures.py  (rewrites the files; output is
deterministic, so a diff shows any change).
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "synth")

T_GLOBAL_TEXT = 0xA200
T_LOCAL_TEXT = 0x8200
T_GLOBAL_DATA = 0xA400
T_LOCAL_DATA = 0x8400
T_GLOBAL_BSS = 0xA100
T_LOCAL_BSS = 0x8100
T_EQU = 0xC000
T_REGEQU = 0xD000
T_FILE = 0x0280
T_ARCHIVE = 0x02C0
LONG = 0x0048


def slot(name8, typ, value):
    assert len(name8) <= 8
    return name8.ljust(8, b"\0") + struct.pack(">HI", typ, value & 0xFFFFFFFF)


def gst(name, typ, value):
    """One GST symbol: one slot for <= 8 chars, else two (long-name bit)."""
    if isinstance(name, str):
        name = name.encode()
    if len(name) <= 8:
        return slot(name, typ, value)
    assert len(name) <= 22
    return slot(name[:8], typ | LONG, value) + name[8:].ljust(14, b"\0")


def header(tlen, dlen, blen, slen, res1=0, prgflags=0, absflag=0):
    return struct.pack(">HIIIIIIH", 0x601A, tlen, dlen, blen, slen, res1,
                       prgflags, absflag)


def fixups(offsets):
    """GEMDOS fixup stream for sorted text-relative offsets."""
    if not offsets:
        return b"\0\0\0\0"
    out = struct.pack(">I", offsets[0])
    pos = offsets[0]
    for off in offsets[1:]:
        d = off - pos
        while d > 254:
            out += b"\x01"
            d -= 254
        out += bytes([d])
        pos = off
    return out + b"\0"


def prg(text, data, blen, symtab, relocs, trailer=b"", **kw):
    return (header(len(text), len(data), blen, len(symtab), **kw) + text +
            data + symtab + relocs + trailer)


def code(n):
    # NOPs (0x4e71) so the text looks like 68000 code.
    assert n % 2 == 0
    return b"\x4e\x71" * (n // 2)


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


# ---------------------------------------------------------------------------
# alcyon.prg: the DWARFS program of the Atari ST Profiler seed, as the
# Alcyon C compiler would have linked it.
ALCYON_TLEN = 0x160
ALCYON_DLEN = 0x10
ALCYON_BLEN = 0x100


def alcyon():
    syms = b""
    syms += slot(b"crt0.o", T_FILE, 0x0)
    syms += slot(b"_start", T_GLOBAL_TEXT, 0x0)
    for name, addr in [("main", 0x20), ("dopey", 0x40), ("grumpy", 0x60),
                       ("doc", 0x80), ("sleepy", 0xA0), ("bashful", 0xC0),
                       ("happy", 0xE0), ("sneezy", 0x100),
                       ("hide_mouse", 0x120)]:
        syms += slot(("_" + name)[:8].encode(), T_GLOBAL_TEXT, addr)
        syms += slot(("~~" + name)[:8].encode(), T_LOCAL_TEXT, addr)
        if name == "dopey":
            # the ~x equates Alcyon emits for a function's locals
            syms += slot(b"~i", T_EQU, 0xFFFFFFFC)
            syms += slot(b"~n", T_EQU, 8)
            syms += slot(b"~r", T_REGEQU, 7)
    syms += slot(b"libc.a", T_ARCHIVE, 0x140)
    syms += slot(b"_exit", T_GLOBAL_TEXT, 0x140)
    syms += slot(b"_errno", T_GLOBAL_DATA, ALCYON_TLEN + 0x0)
    syms += slot(b"_environ", T_GLOBAL_DATA, ALCYON_TLEN + 0x4)
    syms += slot(b"_buf", T_GLOBAL_BSS, ALCYON_TLEN + ALCYON_DLEN)
    syms += slot(b"_end", T_GLOBAL_BSS,
                 ALCYON_TLEN + ALCYON_DLEN + ALCYON_BLEN)
    text = code(ALCYON_TLEN)
    data = bytes(range(ALCYON_DLEN))
    # fixups at text+0x2, +0x20, +0x11e (254-byte skip), +0x12c, and the
    # last possible longword of DATA (0x16c + 4 == tlen + dlen)
    relocs = fixups([0x2, 0x20, 0x11E, 0x12C, 0x16C])
    return prg(text, data, ALCYON_BLEN, syms, relocs)


# ---------------------------------------------------------------------------
def section_relative():
    tlen, dlen, blen = 0x100, 0x20, 0x40
    syms = b""
    syms += gst("start", T_LOCAL_TEXT, 0x0)
    syms += gst("main_loop", T_LOCAL_TEXT, 0x10)
    syms += gst(b"\0loop", T_LOCAL_TEXT, 0x18)  # Devpac .loop
    syms += gst("print_string", T_LOCAL_TEXT, 0x40)
    syms += gst(b"\0wait_vbl_local", T_LOCAL_TEXT, 0x50)  # .wait_vbl_local
    syms += gst("exit", T_LOCAL_TEXT, 0xF0)
    syms += gst("msg", T_LOCAL_DATA, 0x0)
    syms += gst("msg_end", T_LOCAL_DATA, 0x20)
    syms += gst("weird", T_LOCAL_DATA, 0x90)  # fits neither basis
    syms += gst("buffer", T_LOCAL_BSS, 0x0)
    syms += gst("stack_top_of_area", T_LOCAL_BSS, 0x40)
    return prg(code(tlen), b"hello, world\r\n\0\0" + bytes(16), blen, syms,
               fixups([]))


# ---------------------------------------------------------------------------
SOZ_T, SOZ_V = 0x4200, 0x87654321


def sozobon_sym(name, typ, value):
    name = name.encode()
    chunks = [name[i:i + 8] for i in range(0, len(name), 8)] or [b""]
    out = slot(chunks[0], typ, value)
    for ch in chunks[1:]:
        out += slot(ch, SOZ_T, SOZ_V)
    return out


def sozobon():
    tlen, dlen, blen = 0x80, 0x10, 0
    syms = slot(b"SozobonX", SOZ_T, SOZ_V)
    syms += sozobon_sym("_a_very_long_function_name", T_GLOBAL_TEXT, 0x10)
    syms += sozobon_sym("_short", T_GLOBAL_TEXT, 0x30)
    syms += sozobon_sym("_exactly_sixteen", T_GLOBAL_TEXT, 0x50)
    syms += sozobon_sym("_long_data_variable", T_GLOBAL_DATA, tlen + 4)
    return prg(code(tlen), bytes(dlen), blen, syms, fixups([0x10]))


def sozobon_marks():
    """SozobonX table with the linker's "mark" byte left in every slot.

    Reproduces the structure quoted in issue #19 item 4 from real SozobonX
    programs: marker and continuation slots typed 0x4242, 0x42b0, 0x4224,
    0x42ce, 0x4206, 0x4207 instead of 0x4200.  The SozobonX linker source
    (ld.h: struct sym {char name[8]; unsigned char flags, mark; long
    value;}, syms.c wrsyms/findx, Sozobon Ltd, freely redistributable)
    shows the low byte is the linker's scratch byte, not type bits.  The
    mark bytes of _main (0xce: the GST long-name bits 0x48 and the file
    bit 0x80) and of the function (0xb0: file bit) are the worst cases
    for a reader that takes them as DRI type bits."""
    tlen, dlen, blen = 0x80, 0x10, 0x40

    def sym(name, typ, value, marks):
        name = name.encode()
        chunks = [name[i:i + 8] for i in range(0, len(name), 8)]
        assert len(marks) == len(chunks) - 1
        out = slot(chunks[0], typ, value)
        for ch, m in zip(chunks[1:], marks):
            out += slot(ch, 0x4200 | m, SOZ_V)
        return out
    syms = slot(b"SozobonX", 0x4242, SOZ_V)
    syms += sym("_a_very_long_function_name", T_GLOBAL_TEXT | 0xB0, 0x10,
                [0x06, 0x07, 0xCE])
    syms += sym("_main", T_GLOBAL_TEXT | 0xCE, 0x30, [])
    syms += sym("_helper_routine", T_GLOBAL_TEXT | 0x24, 0x50, [0xB0])
    syms += sym("_count", T_GLOBAL_DATA | 0x06, tlen + 4, [])
    syms += sym("_buffer_for_input", T_GLOBAL_BSS | 0x07, tlen + dlen,
                [0x24, 0x07])
    return prg(code(tlen), bytes(dlen), blen, syms, fixups([0x10]))


# ---------------------------------------------------------------------------
def purec():
    tlen, dlen, blen = 0xC0, 0x10, 0x20
    syms = b""
    syms += slot(b"main", T_GLOBAL_TEXT, 0x0)
    syms += slot(b"process_", T_GLOBAL_TEXT, 0x20)
    syms += slot(b"init_tab", T_GLOBAL_TEXT, 0x60)
    syms += slot(b"exactly8", T_GLOBAL_TEXT, 0x80)
    syms += slot(b"truncate", T_GLOBAL_TEXT, 0xA0)
    syms += slot(b"counter_", T_GLOBAL_DATA, tlen + 0x0)
    relocs = fixups([0x4, 0x8, 0xC])  # 4 + 3 bytes: ends at an odd offset
    strings = b""
    offs = {}
    for s in ["process_records", "init_tables", "exactly8", "other_name",
              "counter_value", "main"]:
        offs[s] = len(strings)
        strings += s.encode() + b"\0"
    # variable records: kind, storage, name offset, type offset, value
    var = b""
    for kind, storage, name, value in [(7, 4, "main", 0x0),
                                       (7, 4, "process_records", 0x20),
                                       (8, 4, "init_tables", 0x60),
                                       (7, 4, "exactly8", 0x80),
                                       (7, 4, "other_name", 0xA0),
                                       (4, 5, "counter_value", tlen + 0x0)]:
        var += struct.pack(">bBIII", kind, storage, offs[name], 0, value)
    fileinfo = b"PROC.C\0\0"
    typeinfo = b"\0\0\0\0"
    qdb = struct.pack(">4sIIIIIII", b"QDB1", len(fileinfo), 0, len(var), 0,
                      len(typeinfo), 0, len(strings))
    qdb += fileinfo + var + typeinfo + strings
    body = prg(code(tlen), bytes(dlen), blen, syms, relocs)
    assert len(body) % 2 == 1, "fixups must end at an odd offset"
    return body + b"\0" + qdb


# ---------------------------------------------------------------------------
def mint_aout(stripped=False):
    a_text, a_data, a_bss = 0x60, 0x10, 0x20
    tlen = a_text + 0xE4
    strtab = b""
    noff = {}
    names = ["_main", "_helper", "_data_var", "_bss_var", "abs_const",
             "stabby", "foo.o", "_weak_fn", "gcc2_compiled.", "_undef"]
    strtab = b""
    for n in names:
        noff[n] = 4 + len(strtab)
        strtab += n.encode() + b"\0"
    strtab = struct.pack(">I", 4 + len(strtab)) + strtab
    nl = b""
    for n, typ, val in [("_main", 0x05, 0xE4 + 0x0),
                        ("_helper", 0x04, 0xE4 + 0x20),
                        ("_data_var", 0x07, tlen + 0x0),
                        ("_bss_var", 0x09, tlen + a_data + 0x0),
                        ("abs_const", 0x03, 0x1234),
                        ("stabby", 0x64, 0x0),
                        ("foo.o", 0x1F, 0xE4),
                        ("_weak_fn", 0x0F, 0xE4 + 0x40),
                        ("gcc2_compiled.", 0x04, 0xE4),
                        ("_undef", 0x01, 0x0)]:
        nl += struct.pack(">IBBHI", noff[n], typ, 0, 0, val)
    if stripped:
        nl = strtab = b""
    a_syms = len(nl)
    slen = a_syms + len(strtab)
    sym_pos = 0x100 + a_text + a_data
    tparel = sym_pos + slen
    ext = struct.pack(">II", 0x203A001A, 0x4EFB08FA)
    ext += struct.pack(">IIIIIIIIIIII", 0x0108, a_text, a_data, a_bss,
                       a_syms, 0xE4, 0, 0, tparel, 5, 0, 0)
    ext = ext.ljust(0x100 - 0x1C, b"\0")
    hdr = header(tlen, a_data, a_bss, slen, res1=0x4D694E54)
    out = hdr + ext + code(a_text) + bytes(a_data) + nl + strtab
    assert len(out) == tparel
    return out + fixups([0xE4 + 0x2])


# ---------------------------------------------------------------------------
def prgelf(stripped=False):
    tlen, dlen, blen = 0x100, 0x20, 0x40
    n = 0x28  # ELF header file offset, in ph_res1's low byte
    # layout: header 0x1c | text (holds the ELF header at 0x28) | data |
    # symbol area: symtab, strtab, section headers | fixups
    sym_area_off = 0x1C + tlen + dlen
    strtab = b"\0"
    noff = {}
    for s in ["_start", "main", "local_fn", "counter", "buffer", "ABSVAL",
              "main.c"]:
        noff[s] = len(strtab)
        strtab += s.encode() + b"\0"

    def sym(name, value, size, bind, typ, shndx):
        return struct.pack(">IIIBBH", noff[name] if name else 0, value, size,
                           (bind << 4) | typ, 0, shndx)
    symtab = sym(None, 0, 0, 0, 0, 0)
    symtab += sym(None, 0, 0, 0, 3, 1)          # section symbol
    symtab += sym("main.c", 0, 0, 0, 4, 0xFFF1)  # file symbol
    symtab += sym("_start", 0x0, 0x40, 1, 2, 1)
    symtab += sym("main", 0x40, 0x40, 1, 2, 1)
    symtab += sym("local_fn", 0x80, 0x20, 0, 2, 1)
    symtab += sym("counter", tlen + 0x0, 4, 1, 1, 2)
    symtab += sym("buffer", tlen + dlen + 0x0, 0x40, 1, 1, 3)
    symtab += sym("ABSVAL", 0x400, 0, 1, 0, 0xFFF1)
    symtab_off = sym_area_off
    strtab_off = symtab_off + len(symtab)
    shoff = strtab_off + len(strtab)
    while shoff % 4:
        shoff += 1

    def sh(typ, flags, off, size, link=0, entsize=0):
        return struct.pack(">IIIIIIIIII", 0, typ, flags, 0, off, size, link,
                           0, 4, entsize)
    shdrs = sh(0, 0, 0, 0)
    shdrs += sh(1, 6, 0x1C, tlen)                # .text  ALLOC|EXECINSTR
    shdrs += sh(1, 3, 0x1C + tlen, dlen)         # .data  WRITE|ALLOC
    shdrs += sh(8, 3, 0, blen)                   # .bss   NOBITS
    # stripped: the symbol table's section is no SYMTAB any more
    shdrs += sh(1 if stripped else 2, 0, symtab_off, len(symtab), link=5,
                entsize=16)
    shdrs += sh(3, 0, strtab_off, len(strtab))
    area = symtab + strtab
    area = area.ljust(shoff - sym_area_off, b"\0") + shdrs
    ehdr = b"\x7fELF" + bytes([1, 2, 1]) + bytes(9)
    ehdr += struct.pack(">HHIIIIIHHHHHH", 2, 4, 1, 0x1C, 0, shoff, 0, 52, 32,
                        0, 40, 6, 0)
    text = bytearray(code(tlen))
    text[n - 0x1C:n - 0x1C + len(ehdr)] = ehdr
    return prg(bytes(text), bytes(dlen), blen, area, fixups([0x100 - 4]),
               res1=0x454C4600 | n)


# ---------------------------------------------------------------------------
DUPS = [  # (name, type, value): several names per text address
    (b"zeta", T_GLOBAL_TEXT, 0x00), (b"alpha", T_GLOBAL_TEXT, 0x00),
    (b"_al", T_GLOBAL_TEXT, 0x00),
    (b"~~foo", T_LOCAL_TEXT, 0x10), (b"foo", T_LOCAL_TEXT, 0x10),
    (b"bar.o", T_LOCAL_TEXT, 0x20), (b".Lx", T_LOCAL_TEXT, 0x20),
    (b"L1", T_LOCAL_TEXT, 0x20),
    (b"short", T_LOCAL_TEXT, 0x30), (b"longer_nm", T_GLOBAL_TEXT, 0x30),
    (b"\0loop", T_LOCAL_TEXT, 0x38),
]


def dups(reverse):
    """Name preference must not depend on the slot order."""
    order = list(reversed(DUPS)) if reverse else DUPS
    syms = b"".join(gst(n, t, v) for n, t, v in order)
    return prg(code(0x40), b"", 0, syms, fixups([]))


# ---------------------------------------------------------------------------
def malformed():
    good = [slot(b"_main", T_GLOBAL_TEXT, 0), slot(b"_f", T_GLOBAL_TEXT, 8)]
    t = code(0x10)
    out = {}
    out["nosyms.prg"] = prg(t, b"", 0, b"", fixups([]))
    # ph_slen = 29: two slots and a stray byte
    out["bad_slen.prg"] = prg(t, b"", 0, b"".join(good) + b"\0", fixups([]))
    # long-name flag on the last slot: nothing left to continue the name
    out["bad_longlast.prg"] = prg(
        t, b"", 0, good[0] + slot(b"_longnam", T_GLOBAL_TEXT | LONG, 8),
        fixups([]))
    # TEXT size far beyond the file
    hdr = header(0x10000, 0, 0, 28)
    out["bad_tlen.prg"] = hdr + t + b"".join(good) + fixups([])
    # symbol table size beyond the file
    hdr = header(0x10, 0, 0, 14 * 100)
    out["bad_slen_beyond.prg"] = hdr + t + b"".join(good) + fixups([])
    # fixup step 3 (odd)
    out["bad_reloc_odd.prg"] = prg(t, b"", 0, b"".join(good),
                                   struct.pack(">I", 2) + b"\x03\0")
    # fixup at text+0xe: 0xe + 4 > TEXT+DATA (0x10)
    out["bad_reloc_outside.prg"] = prg(t, b"", 0, b"".join(good),
                                       struct.pack(">I", 2) + b"\x0c\0")
    # fixup stream without its terminating 0
    out["bad_reloc_trunc.prg"] = prg(t, b"", 0, b"".join(good),
                                     struct.pack(">I", 2) + b"\x02\x02")
    # GEMDOS header cut short
    out["bad_short.prg"] = header(0x10, 0, 0, 0)[:20]
    return out


# ---------------------------------------------------------------------------
# The profiling run behind the end-to-end tests: alcyon.prg loaded with its
# TEXT at 0x13f00 (basepage 0x13e00).  PCs and how often each was seen:
LOAD = 0x13F00
RUN = [
    (LOAD + 0x22, 5),    # _main
    (LOAD + 0x40, 7),    # _dopey (exactly at the symbol)
    (LOAD + 0x5E, 1),    # _dopey (last word)
    (LOAD + 0x60, 12),   # _grumpy
    (LOAD + 0x84, 6),    # _doc
    (LOAD + 0xA0, 20),   # _sleepy
    (LOAD + 0xBE, 8),    # _sleepy
    (LOAD + 0xC2, 8),    # _bashful
    (LOAD + 0xE6, 14),   # _happy
    (LOAD + 0x104, 9),   # _sneezy
    (LOAD + 0x124, 2),   # _hide_mo
    (LOAD + 0x144, 3),   # _exit
    (0xFC1234, 4),       # TOS 1.x ROM
    (0xE01000, 2),       # TOS 2+/EmuTOS ROM
    (0xFA0010, 1),       # cartridge
    (0x001000, 3),       # RAM below the program (the OS)
]


def hatari_profile():
    lines = [
        "Hatari CPU profile (Hatari v2.4.1)",
        "Cycles/second:\t8021247",
        "Field names:\tExecuted instructions, Used cycles, Instruction cache misses, Data cache hits",
        "Field regexp:\t^\\$?([0-9A-Fa-f]+) .*% \\(([^)]*)\\)$",
        "ST_RAM:\t\t0x000000-0x400000",
        "ROM_TOS:\t0xe00000-0xe40000",
        "CARTRIDGE:\t0xfa0000-0xfc0000",
        "PROGRAM_TEXT:\t0x%06x-0x%06x" % (LOAD, LOAD + ALCYON_TLEN),
        "# disassembly with profile data: <instructions percentage>% "
        "(<sum of instructions>, <sum of cycles>, <sum of i-cache misses>, "
        "<sum of d-cache hits>)",
    ]
    total = sum(c for _, c in RUN)
    prev = None
    for addr, cnt in sorted(RUN):
        if prev is not None and addr != prev + 2:
            lines.append("[...]")
        if addr == LOAD + 0x40:
            lines.append("_dopey:")
        lines.append("$%06x :  nop                      %5.2f%% (%d, %d, 0, 0)"
                     % (addr, 100.0 * cnt / total, cnt, 4 * cnt))
        prev = addr
    lines.append("# u = unknown PC change, n = PC moved to next instruction, "
                 "b = branch/jump, s = subroutine call, r = return from "
                 "subroutine, e = exception, x = return from exception, ")
    lines.append("0x%x: 0x%x = 7 s, 0x%x = 1 b, _dopey"
                 % (LOAD + 0x40, LOAD + 0x24, LOAD + 0x5E))
    return ("\n".join(lines) + "\n").encode()


def hatari_noprog():
    """A profile as Hatari's Profile_CpuSave writes it when no program was
    started from its GEMDOS drive (no PROGRAM_TEXT line: a boot-sector
    program or TOS itself, symbols loaded by hand).  hatari_profile charges
    each count to the last label before it until the next memory area:
    vbl 32, draw 25, main 20, trap 11, and 7 to ROM_TOS and 4 to ST_RAM
    outside any label."""
    run = [(None, 0xF00, 4), ("main", 0x1000, 10), (None, 0x1002, 10),
           ("draw", 0x1040, 5), (None, 0x1100, 20), ("vbl", 0x2000, 16),
           (None, 0x2002, 16), (None, 0xE00100, 7), ("trap", 0xE00200, 9),
           (None, 0xE00204, 2)]
    lines = [
        "Hatari CPU profile (Hatari v2.4.1)",
        "Cycles/second:\t8021247",
        "Field names:\tExecuted instructions, Used cycles, Instruction cache misses, Data cache hits",
        "Field regexp:\t^\\$?([0-9A-Fa-f]+) .*% \\(([^)]*)\\)$",
        "ST_RAM:\t\t0x000000-0x100000",
        "ROM_TOS:\t0xe00000-0xe40000",
        "CARTRIDGE:\t0xfa0000-0xfc0000",
        "# disassembly with profile data: <instructions percentage>% "
        "(<sum of instructions>, <sum of cycles>, <sum of i-cache misses>, "
        "<sum of d-cache hits>)",
    ]
    total = sum(c for _, _, c in run)
    prev = None
    for label, addr, cnt in run:
        if prev is not None and addr != prev + 2:
            lines.append("[...]")
        if label:
            lines.append(label + ":")
        lines.append("$%06x :  nop                      %5.2f%% (%d, %d, 0, 0)"
                     % (addr, 100.0 * cnt / total, cnt, 4 * cnt))
        prev = addr
    return ("\n".join(lines) + "\n").encode()


def hatari_variants():
    """Other Hatari versions' layouts of the same run (RUN)."""
    total = sum(c for _, c in RUN)
    out = {}
    # newer Hatari: Machine line, WinUAE core disassembly ("addr opcode"),
    # TT-RAM area, caller lines with call types and cost totals
    lines = [
        "Hatari CPU profile (Hatari v2.5.0)",
        "Machine:\tTT, 32MHz",
        "Cycles/second:\t32084988",
        "Field names:\tExecuted instructions, Used cycles, Instruction cache misses, Data cache hits",
        "Field regexp:\t^\\$?([0-9A-Fa-f]+) .*% \\(([^)]*)\\)$",
        "ST_RAM:\t\t0x000000-0x400000",
        "ROM_TOS:\t0xe00000-0xe80000",
        "CARTRIDGE:\t0xfa0000-0xfc0000",
        "PROGRAM_TEXT:\t0x%06x-0x%06x" % (LOAD, LOAD + ALCYON_TLEN),
        "TT_RAM:\t\t0x01000000-0x01400000",
        "# disassembly with profile data: ...",
    ]
    for addr, cnt in sorted(RUN):
        lines.append("%08x 4e71                     nop                  %5.2f%% (%d, %d, %d, 0)"
                     % (addr, 100.0 * cnt / total, cnt, 4 * cnt, cnt // 4))
    lines.append("# u = unknown PC change, n = PC moved to next instruction, ...")
    lines.append("0x%x: 0x%x = 7 s 7/56/56 8/64/64, _dopey" % (LOAD + 0x40, LOAD + 0x24))
    lines.append("0x%x: 0x%x = 3 e, 0x%x = 2 u, _sleepy" % (LOAD + 0xA0, 0xFC1234, LOAD + 0x22))
    out["new.hatari"] = "\n".join(lines) + "\n"
    # old Hatari (1.x): three counters, "$addr :" lines, untyped callers
    lines = [
        "Hatari CPU profile",
        "Cycles/second:\t8012800",
        "Field names:\tExecuted instructions, Used cycles, Instruction cache misses",
        "Field regexp:\t^\\$([0-9a-f]+) :.*% \\((.*)\\)$",
        "ROM_TOS:\t0xfc0000-0xff0000",
        "PROGRAM_TEXT:\t0x%06x-0x%06x" % (LOAD, LOAD + ALCYON_TLEN),
        "CARTRIDGE:\t0xfa0000-0xfc0000",
        "# disassembly with profile data: ...",
    ]
    for addr, cnt in sorted(RUN):
        lines.append("$%06x :  nop                      %5.2f%% (%d, %d, 0)"
                     % (addr, 100.0 * cnt / total, cnt, 4 * cnt))
    lines.append("# u = unknown PC change, n = PC moved to next instruction, ")
    lines.append("0x%x: 0x%x = 7, (_dopey)" % (LOAD + 0x40, LOAD + 0x24))
    out["old.hatari"] = "\n".join(lines) + "\n"
    # a field regexp POSIX cannot compile: the built-in pattern is used
    out["pyre.hatari"] = out["new.hatari"].replace(
        "^\\$?([0-9A-Fa-f]+) .*% \\(([^)]*)\\)$",
        "^\\$?(?P<addr>[0-9A-Fa-f]+) .*% \\((?P<fields>[^)]*)\\)$")
    # a field regexp its own disassembly does not match: an old Hatari's
    # "$addr :" pattern over WinUAE-core "addr opcode" lines (the layout a
    # user reported for a real profile, opendune_profile.txt: hatari_profile
    # needed the regexp edited by hand)
    out["mismatch.hatari"] = out["new.hatari"].replace(
        "^\\$?([0-9A-Fa-f]+) .*% \\(([^)]*)\\)$",
        "^\\$([0-9a-f]+) :.*% \\((.*)\\)$")
    out["dsp.hatari"] = ("Hatari DSP profile\n"
                         "Field names:\tExecuted instructions, Used cycles, Largest cycle differences\n")
    out["bad_counter.hatari"] = out["old.hatari"].replace("(7, 28, 0)", "(7, 2x8, 0)")
    out["bad_line.hatari"] = out["old.hatari"].replace(
        "# disassembly with profile data: ...\n",
        "# disassembly with profile data: ...\nthis is not a profile line\n")
    return out


def raw_dump():
    out = b""
    for addr, cnt in RUN:
        out += struct.pack(">I", addr) * cnt
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    write("alcyon.prg", alcyon())
    write("section.prg", section_relative())
    write("sozobon.prg", sozobon())
    write("sozobon_marks.prg", sozobon_marks())
    # a continuation slot right after the marker continues no name
    write("sozobon_orphan.prg", prg(code(0x20), b"", 0,
                                    slot(b"SozobonX", 0x4242, SOZ_V) +
                                    slot(b"stray", 0x42B0, SOZ_V) +
                                    slot(b"_main", T_GLOBAL_TEXT, 0x4),
                                    fixups([])))
    write("purec.prg", purec())
    write("mint_aout.prg", mint_aout())
    write("prgelf.prg", prgelf())
    write("mint_stripped.prg", mint_aout(stripped=True))
    write("prgelf_stripped.prg", prgelf(stripped=True))
    write("dups.prg", dups(False))
    write("dups_rev.prg", dups(True))
    for name, data in malformed().items():
        write(name, data)
    write("dwarfs.hatari", hatari_profile())
    write("noprog.hatari", hatari_noprog())
    write("dwarfs.pcs", raw_dump())
    for name, text in hatari_variants().items():
        write(name, text.encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
