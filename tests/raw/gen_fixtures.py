#!/usr/bin/env python3
"""Writes the raw-dump test fixtures (run from anywhere; writes beside itself).

The program is patest.c of Dr. Dobb's Journal, December 1991 (Figure 2):
main() and fifteen delay functions whose delay is 1..15 units, run on an
ES 1800 68020 emulator.  ddj68k.elf is a minimal 32-bit big-endian 68000
ELF holding only its symbol table (main at 0x1000, delay_one..delay_fifteen
0x40 bytes each after it, text ends at 0x1400, one data symbol).  The dump
holds SAMPLES: 8*k PCs spread over delay_k, 16 in main, 24 below the program
(DDJ PA_BOT_MEM) and 4 above it; every layout below encodes the same PCs in
the same order, so every loader option must give the same counts.

ddj_fig2.flat.txt and ddj_fig2.ddj.txt are profcat's reports of w32be.pcs
(commands in test_raw.py), checked by hand against the counts above.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ["one", "two", "three", "four", "five", "six", "seven", "eight",
         "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen"]
TEXT = 0x1000
FUNC = 0x40
END = TEXT + FUNC * 16  # 0x1400


def symbols():
    syms = [("main", TEXT)]
    for i, n in enumerate(NAMES):
        syms.append(("delay_" + n, TEXT + FUNC * (i + 1)))
    return syms


def samples():
    """The PCs, interleaved as a periodic sampler would see them."""
    per = [("main", TEXT, 16)]
    for i, n in enumerate(NAMES):
        per.append(("delay_" + n, TEXT + FUNC * (i + 1), 8 * (i + 1)))
    runs = []
    for name, base, count in per:
        runs.append([base + (j * 6) % FUNC for j in range(count)])
    runs.append([0x0200 + 0x70 * j for j in range(24)])   # below: PA_BOT_MEM
    runs.append([END + 0x100 * j for j in range(4)])        # above the program
    out = []
    while any(runs):
        for r in runs:
            if r:
                out.append(r.pop(0))
    return out


def expected():
    e = {"main": 16}
    for i, n in enumerate(NAMES):
        e["delay_" + n] = 8 * (i + 1)
    return e


def elf32_be():
    """ELF32 MSB, EM_68K: .text (AX), .data, .symtab, .strtab, .shstrtab."""
    be = ">"
    shstr = b"\0.text\0.data\0.symtab\0.strtab\0.shstrtab\0"

    def shname(n):
        return shstr.index(n.encode() + b"\0")
    strtab = b"\0"
    symtab = struct.pack(be + "IIIBBH", 0, 0, 0, 0, 0, 0)
    for name, addr in symbols():
        off = len(strtab)
        strtab += name.encode() + b"\0"
        symtab += struct.pack(be + "IIIBBH", off, addr, FUNC, 0x12, 0, 1)
    off = len(strtab)
    strtab += b"final_sumL\0"
    symtab += struct.pack(be + "IIIBBH", off, 0x2000, 4, 0x11, 0, 2)
    text = bytes(END - TEXT)
    data = bytes(4)
    body = b""
    offs = {}
    pos = 52
    for name, blob in ((".text", text), (".data", data), (".symtab", symtab),
                       (".strtab", strtab), (".shstrtab", shstr)):
        while (pos + len(body)) % 4:
            body += b"\0"
        offs[name] = pos + len(body)
        body += blob
    while (pos + len(body)) % 4:
        body += b"\0"
    shoff = pos + len(body)
    sh = struct.pack(be + "10I", *([0] * 10))
    sh += struct.pack(be + "10I", shname(".text"), 1, 6, TEXT, offs[".text"], len(text), 0, 0, 4, 0)
    sh += struct.pack(be + "10I", shname(".data"), 1, 3, 0x2000, offs[".data"], len(data), 0, 0, 4, 0)
    sh += struct.pack(be + "10I", shname(".symtab"), 2, 0, 0, offs[".symtab"], len(symtab), 4, 1, 4, 16)
    sh += struct.pack(be + "10I", shname(".strtab"), 3, 0, 0, offs[".strtab"], len(strtab), 0, 0, 1, 0)
    sh += struct.pack(be + "10I", shname(".shstrtab"), 3, 0, 0, offs[".shstrtab"], len(shstr), 0, 0, 1, 0)
    ident = b"\x7fELF" + bytes([1, 2, 1, 0]) + bytes(8)
    hdr = ident + struct.pack(be + "HHIIIIIHHHHHH", 2, 4, 1, TEXT, 0, shoff, 0,
                              52, 0, 0, 40, 6, 5)
    return hdr + body + sh


def pack(fmt_char, endian, pcs):
    return b"".join(struct.pack(endian + fmt_char, pc) for pc in pcs)


def u24(endian, pcs):
    out = b""
    for pc in pcs:
        b = pc.to_bytes(3, "little" if endian == "<" else "big")
        out += b
    return out


def segoff(pc, k):
    """A real-mode seg:off for linear pc; k varies the normalisation."""
    seg = (pc >> 4) - (k % 3) * 0x10
    if seg < 0:
        seg = 0
    return seg, pc - seg * 16


def main():
    pcs = samples()
    files = {
        "w16le.pcs": pack("H", "<", pcs),
        "w16be.pcs": pack("H", ">", pcs),
        "w24le.pcs": u24("<", pcs),
        "w24be.pcs": u24(">", pcs),
        "w32le.pcs": pack("I", "<", pcs),
        "w32be.pcs": pack("I", ">", pcs),
        "w64le.pcs": pack("Q", "<", pcs),
        "w64be.pcs": pack("Q", ">", pcs),
        # 68000: the top byte of a 32-bit PC is not on the bus
        "mask24.pcs": pack("I", ">", [pc | (0xA5 << 24) for pc in pcs]),
        # 16-byte header, then records {u32 time; u32 pc; u16 flags; u16 pad}
        "stride.pcs": b"ES1800-UPLOAD\0\0\0" + b"".join(
            struct.pack(">IIHH", 1000 * i, pc, 0x8000, 0) for i, pc in enumerate(pcs)),
        # 32-bit partial record at the end
        "partial.pcs": pack("I", "<", pcs[:100]) + b"\x01\x02\x03",
    }
    ipcs, csip = b"", b""
    for k, pc in enumerate(pcs):
        seg, off = segoff(pc, k)
        ipcs += struct.pack("<HH", off, seg)
        csip += struct.pack("<HH", seg, off)
    files["ipcs.pcs"] = ipcs
    files["csip.pcs"] = csip
    lines = ["# PC samples, ES 1800 text upload; hex", "; semicolon comments too", ""]
    for k, pc in enumerate(pcs):
        if k % 5 == 0:
            seg, off = segoff(pc, k)
            lines.append("%04X:%04X" % (seg, off))
        elif k % 5 == 1:
            lines.append("0x%x   # trailing comment" % pc)
        elif k % 5 == 2:
            lines.append("  %X" % pc)
        elif k % 5 == 3:
            lines.append("$%04x\t; 68k style" % pc)
        else:
            lines.append("%08x" % pc)
    files["hex.txt"] = ("\r\n".join(lines) + "\r\n").encode()
    files["dec.txt"] = ("# decimal PCs\n" + "".join("%d\n" % pc for pc in pcs)).encode()
    bad = lines[:8] + ["0x1040 0x1044"] + lines[8:12]
    files["badline.txt"] = ("\n".join(bad) + "\n").encode()
    bad2 = lines[:5] + ["0x10zz"] + lines[5:8]
    files["badhex.txt"] = ("\n".join(bad2) + "\n").encode()
    files["ddj68k.elf"] = elf32_be()
    files["stride.yaml"] = (
        "# ES 1800 upload: 16-byte header, 12-byte records, PC at offset 4\n"
        "encoding: binary\nwidth: 32\nendian: big\nskip: 16\nstride: 12\n"
        "offset: 4\nmask: 0xffffff\norigin: 0x1000\nprogram-end: 0x1400\n").encode()
    files["badkey.yaml"] = b"width: 32\nsegment: 5\n"
    for name, data in files.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
