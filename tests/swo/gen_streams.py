#!/usr/bin/env python3
"""SWO test streams written from the packet definitions of the ARMv7-M
Architecture Reference Manual, Appendix D4 ("Debug ITM and DWT Packet
Protocol"), each with the list of events a decoder must read from it, one
canonical line each (the lines tests/swo/swo_events.c prints):

    gen_streams.py OUTDIR [SEED]
    gen_streams.py --seeds OUTDIR      (the fuzzer's seeds, tests/swo/fixtures)

writes OUTDIR/all.itm (every packet type and size, syncs between any two
packets, reserved headers), all.tpiu (the same bytes on trace ID 1 of TPIU
formatter frames, interleaved with trace ID 2 so that packets are split
across frames, immediate and delayed ID changes, full and halfword syncs),
all.oflow (the same bytes in Orbuculum OFLOW frames of tag 1 between frames
of tag 2), all.events; and clean.* the same for a stream without reserved
packets (what a real capture holds), which profcat detects.

Deterministic: the same SEED gives the same bytes.
"""
import os
import random
import sys

FN = {1: "ENTER", 2: "EXIT", 3: "RETURN"}


class Gen:
    def __init__(self, seed, reserved):
        self.r = random.Random(seed)
        self.page = 0
        self.reserved = reserved
        self.out = bytearray()
        self.ev = []

    def put(self, b, line):
        self.out += bytes(b)
        if line is not None:
            self.ev.append(line)

    # ---- the packets ------------------------------------------------------
    def sync(self):
        self.put([0] * self.r.choice([5, 6, 7, 11]) + [0x80], "SYNC")

    def overflow(self):
        self.put([0x70], "OVERFLOW")

    def lts2(self):
        v = self.r.randint(1, 6)
        self.put([v << 4], "LTS tc=0 ts=%d" % v)

    def lts1(self):
        tc = self.r.randint(0, 3)
        n = self.r.randint(1, 4)
        v = self.r.getrandbits(7 * n)
        b = [0xC0 | tc << 4]
        for i in range(n):
            b.append((v >> 7 * i) & 0x7F | (0x80 if i < n - 1 else 0))
        self.put(b, "LTS tc=%d ts=%d" % (tc, v))

    def gts1(self):
        n = self.r.randint(1, 4)
        b = [0x94]
        wrap = clk = 0
        if n < 4:
            v = self.r.getrandbits(7 * n)
            for i in range(n):
                b.append((v >> 7 * i) & 0x7F | (0x80 if i < n - 1 else 0))
        else:
            v = self.r.getrandbits(26)
            wrap, clk = self.r.randint(0, 1), self.r.randint(0, 1)
            for i in range(3):
                b.append((v >> 7 * i) & 0x7F | 0x80)
            b.append(wrap << 6 | clk << 5 | (v >> 21) & 0x1F)
        self.put(b, "GTS1 bytes=%d ts=0x%x wrap=%d clkch=%d" % (n, v, wrap, clk))

    def gts2(self):
        n = self.r.choice([4, 6, 1, 2, 3, 5])
        v = self.r.getrandbits(7 * n)
        b = [0xB4]
        for i in range(n):
            b.append((v >> 7 * i) & 0x7F | (0x80 if i < n - 1 else 0))
        self.put(b, "GTS2 bytes=%d ts=0x%x" % (n, v))

    def ext(self):
        if self.r.random() < 0.5:  # a stimulus port page: SH=0, one byte
            page = self.r.randint(0, 7)
            self.page = page
            self.put([page << 4 | 0x08], "EXT sh=0 ex=0x%x" % page)
            return
        n = self.r.randint(0, 4)
        bits = 3 + 7 * min(n, 3) + (8 if n == 4 else 0)
        ex = self.r.getrandbits(bits)
        b = [(0x80 if n else 0) | (ex & 7) << 4 | 0x08 | 0x04]
        for i in range(n):
            if i == 3:
                b.append((ex >> 24) & 0xFF)
            else:
                b.append((ex >> (3 + 7 * i)) & 0x7F | (0x80 if i < n - 1 else 0))
        self.put(b, "EXT sh=1 ex=0x%x" % ex)

    def payload(self, size):
        v = self.r.getrandbits(8 * size)
        if self.r.random() < 0.2:
            v &= 0xFF00FF00 >> (32 - 8 * size) if size > 1 else 0  # zeros inside
        return v, [(v >> 8 * i) & 0xFF for i in range(size)]

    def swit(self):
        a = self.r.randint(0, 31)
        size = self.r.choice([1, 2, 4])
        v, b = self.payload(size)
        ss = {1: 1, 2: 2, 4: 3}[size]
        self.put([a << 3 | ss] + b, "SW port=%d size=%d data=0x%x" % (self.page * 32 + a, size, v))

    def evcnt(self):
        v = self.r.randint(1, 0x3F)
        self.put([0x05, v], "EVCNT 0x%02x" % v)

    def exc(self, num=None, fn=None):
        num = self.r.choice([0, 2, 3, 11, 15, 16, 44, 255, 256, 300, 511]) if num is None else num
        fn = self.r.randint(1, 3) if fn is None else fn
        self.put([0x0E, num & 0xFF, fn << 4 | num >> 8], "EXC %d %s" % (num, FN[fn]))

    def pc(self, pc=None):
        pc = self.r.randrange(0x08000000, 0x08010000, 2) if pc is None else pc
        self.put([0x17] + [(pc >> 8 * i) & 0xFF for i in range(4)], "PC 0x%08x" % pc)

    def sleep(self):
        self.put([0x15, 0x00], "SLEEP")

    def dt(self):
        cmp = self.r.randint(0, 3)
        k = self.r.randint(0, 2)
        if k == 0:
            v, b = self.payload(4)
            self.put([(8 + 2 * cmp) << 3 | 7] + b, "DATA cmp=%d pc=0x%08x" % (cmp, v))
        elif k == 1:
            v, b = self.payload(2)
            self.put([(9 + 2 * cmp) << 3 | 6] + b, "DATA cmp=%d addr=0x%04x" % (cmp, v))
        else:
            w = self.r.randint(0, 1)
            size = self.r.choice([1, 2, 4])
            v, b = self.payload(size)
            ss = {1: 1, 2: 2, 4: 3}[size]
            self.put([(16 + 2 * cmp + w) << 3 | 4 | ss] + b,
                     "DATA cmp=%d %s size=%d value=0x%x" % (cmp, "write" if w else "read", size, v))

    def hw_reserved(self):
        choice = self.r.randint(0, 3)
        if choice == 0:  # discriminators 3..7 and 24..31
            d = self.r.choice([3, 4, 5, 6, 7, 24, 25, 31])
            size = self.r.choice([1, 2, 4])
        elif choice == 1:  # a PC sample of 2 bytes
            d, size = 2, 2
        elif choice == 2:  # a data trace PC value of 1 byte, or a sleep
            d, size = self.r.choice([(8, 1), (2, 1)])  # packet of payload 0x55
        else:  # an exception packet with FN 0
            self.put([0x0E, 0x2C, 0x00], "HWRESERVED id=1 size=2")
            return
        ss = {1: 1, 2: 2, 4: 3}[size]
        self.put([d << 3 | 4 | ss] + [0x55] * size, "HWRESERVED id=%d size=%d" % (d, size))

    def bad(self):
        h = self.r.choice([0x04, 0x14, 0x24, 0x44, 0x84, 0xF4, 0x80, 0x90, 0xA0, 0xB0])
        self.put([h], "RESERVED 0x%02x" % h)

    # ---- a stream ----------------------------------------------------------
    def stream(self, n):
        kinds = [self.lts2, self.lts1, self.gts1, self.gts2, self.ext, self.swit,
                 self.evcnt, self.exc, self.pc, self.pc, self.pc, self.pc, self.sleep,
                 self.dt, self.overflow]
        if self.reserved:
            kinds += [self.hw_reserved, self.bad]
        self.sync()
        # one of each first: every type and size for sure
        for f in kinds:
            f()
        for size in (1, 2, 4):
            self.put([0x01 if size == 1 else 0x02 if size == 2 else 0x03] + [0x41] * size,
                     "SW port=%d size=%d data=0x%x" % (self.page * 32, size,
                                                        int.from_bytes(bytes([0x41] * size), "little")))
        for i in range(n):
            if self.r.random() < 0.05:
                self.sync()
            self.r.choice(kinds)()
        return bytes(self.out), self.ev


def clean_stream(seed, n):
    """A capture as a real core writes it: PC samples, sleep, the exception
    trace of nested handlers, overflows, local timestamps, stimulus text."""
    g = Gen(seed, False)
    g.sync()
    r = g.r
    stack = []
    for i in range(n):
        x = r.random()
        if x < 0.70:
            g.pc()
        elif x < 0.75:
            g.sleep()
        elif x < 0.80 and len(stack) < 3:
            num = r.choice([15, 16 + 28, 16 + 6])
            g.exc(num, 1)
            stack.append(num)
        elif x < 0.85 and stack:
            num = stack.pop()
            g.exc(num, 2)
            g.exc(stack[-1] if stack else 0, 3)
        elif x < 0.90:
            g.lts1()
        elif x < 0.92:
            g.overflow()
        else:
            g.swit()
    return bytes(g.out), g.ev


ORDER_SYMBOLS = ((0x08000100, "boot"), (0x08000200, "main_loop"),
                 (0x08000300, "SysTick_Handler"), (0x08000400, "_etext"))


def order_stream():
    """The order of the periodic samples (-r timeline), deterministic: a
    boot phase, an overflow (which takes no place in the order), the main
    loop interrupted by SysTick, sleep samples (places of the order at no
    address) over the whole window [8192, 12288), the main loop again, a
    sample no symbol holds; exception trace, local timestamps and stimulus
    writes between samples take no place.  ORDER_SYMBOLS name the code
    (an nm listing; _etext ends it)."""
    g = Gen(7, False)
    g.sync()
    boot, main, tick = 0x08000100, 0x08000200, 0x08000300
    for i in range(3000):  # [0, 3000)
        g.pc(boot + 2 * (i % 8))
    g.overflow()
    for i in range(3200):  # [3000, 6264): 32 ticks of 3 samples
        if i % 100 == 50:
            g.exc(15, 1)
            for j in range(3):
                g.pc(tick + 2 * j)
            g.exc(15, 2)
            g.exc(0, 3)
            g.lts2()
        else:
            g.pc(main + 4 * (i % 5))
    for i in range(6100):  # [6264, 12364)
        g.sleep()
        if i % 1000 == 999:
            g.swit()
    g.exc(15, 1)
    g.pc(tick)  # 12364
    g.exc(15, 2)
    g.exc(0, 3)
    for i in range(635):  # [12365, 13000)
        g.pc(main + 4 * (i % 5))
    g.pc(0x08000400)  # 13000: no symbol
    return bytes(g.out), g.ev


# ---- framings --------------------------------------------------------------

def tpiu(itm, seed, itm_id=1, other=2, fsync=True):
    """TPIU formatter frames carrying itm on itm_id, runs of another ID's
    bytes in between (packets split across frames), immediate and delayed
    ID changes, full syncs between frames, halfword syncs inside them."""
    r = random.Random(seed)
    runs = []
    i = 0
    while i < len(itm):
        k = r.randint(1, 40)
        runs.append((itm_id, itm[i:i + k]))
        i += k
        if r.random() < 0.5:
            runs.append((other, bytes(r.getrandbits(8) for _ in range(r.randint(1, 30)))))
    runs.append((0, bytes(32)))  # padding at the end
    out = bytearray()
    cur = None
    ri, bi = 0, 0  # run, byte in run

    def left():
        return len(runs[ri][1]) - bi if ri < len(runs) else 0

    while ri < len(runs):
        if out and r.random() < 0.1 and fsync:
            out += b"\xff\xff\xff\x7f"
        f = bytearray(16)
        aux = 0
        for k in range(8):
            pos = 2 * k
            if ri >= len(runs):  # nothing left: null ID, zeros
                f[pos] = 0x01
                if k < 7:
                    f[pos + 1] = 0
                cur = 0
                continue
            rid = runs[ri][0]
            if k < 7 and r.random() < 0.03:
                f[pos], f[pos + 1] = 0xFF, 0x7F  # halfword sync
                continue
            if rid != cur:  # immediate change: the odd byte is the new ID's
                f[pos] = rid << 1 | 1
                cur = rid
                if k < 7:
                    f[pos + 1] = runs[ri][1][bi]
                    bi += 1
                    if left() == 0:
                        ri, bi = ri + 1, 0
                continue
            if left() == 1 and k < 7 and ri + 1 < len(runs):
                # the run's last byte after a delayed change to the next ID
                nid = runs[ri + 1][0]
                f[pos] = nid << 1 | 1
                aux |= 1 << k
                f[pos + 1] = runs[ri][1][bi]
                ri, bi = ri + 1, 0
                cur = nid
                continue
            b = runs[ri][1][bi]
            f[pos] = b & 0xFE
            aux |= (b & 1) << k
            bi += 1
            if left() == 0:
                ri, bi = ri + 1, 0
            if k < 7:
                if ri < len(runs) and runs[ri][0] == cur:
                    f[pos + 1] = runs[ri][1][bi]
                    bi += 1
                    if left() == 0:
                        ri, bi = ri + 1, 0
                elif ri < len(runs):
                    # the next run is another ID: a byte of the other
                    # source would be wrong here, so pad with ID 0
                    # (delayed change: this byte stays the current ID's)
                    raise AssertionError("unreachable: handled by the delayed change")
                else:
                    f[pos + 1] = 0
        f[15] = aux
        out += f
    return bytes(out)


def cobs(data):
    out = bytearray()
    block = bytearray()
    for b in data:
        if b == 0:
            out.append(len(block) + 1)
            out += block
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out.append(255)
                out += block
                block = bytearray()
    out.append(len(block) + 1)
    out += block
    return bytes(out) + b"\x00"


def oflow_frame(tag, data):
    s = (tag + sum(data)) & 0xFF
    return cobs(bytes([tag]) + data + bytes([(256 - s) & 0xFF]))


def oflow(itm, seed, tag=1, other=2, signature=True):
    r = random.Random(seed)
    out = bytearray(b"%%ORBFLOW1.0.0%%" if signature else b"")
    i = 0
    while i < len(itm):
        k = r.choice([1, 7, 64, 253, 254, 255, 600])
        out += oflow_frame(tag, itm[i:i + k])
        i += k
        if r.random() < 0.3:
            out += oflow_frame(other, bytes(r.getrandbits(8) for _ in range(r.randint(0, 40))))
        if r.random() < 0.05:  # a damaged frame of the other tag: dropped
            fr = bytearray(oflow_frame(other, b"\x01\x02\x03"))
            fr[-2] ^= 0x40
            out += fr
    return bytes(out)


def write_all(outdir, seed=37, n=3000, events=True):
    os.makedirs(outdir, exist_ok=True)
    for name, (itm, ev) in (("all", Gen(seed, True).stream(n)),
                            ("clean", clean_stream(seed + 1, n))):
        with open(os.path.join(outdir, name + ".itm"), "wb") as f:
            f.write(itm)
        with open(os.path.join(outdir, name + ".tpiu"), "wb") as f:
            f.write(tpiu(itm, seed + 2))
        with open(os.path.join(outdir, name + ".oflow"), "wb") as f:
            f.write(oflow(itm, seed + 3))
        if events:
            with open(os.path.join(outdir, name + ".events"), "w") as f:
                f.write("".join(l + "\n" for l in ev))


if __name__ == "__main__":
    if sys.argv[1] == "--seeds":  # small streams: fuzz seeds
        write_all(sys.argv[2], 37, 60, False)
    else:
        write_all(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 37)
