#!/usr/bin/env python3
"""Writes GNU ld maps of today's embedded linkers, and the ELF each
describes, into tests/maps/embedded/ (deterministic; run to rewrite).

  esp32c3.map / .elf  ESP-IDF's layout (ESP32-C3, as idf.py writes it):
                      functions in .iram0.text (.iram1.N and .text.NAME
                      input sections), .iram_loader.text (its name alone
                      on its line, as ld wraps it), .iram.text,
                      .flash.text (.text.NAME and Xtensa-style .literal),
                      .rtc.text; data in .dram0.data, .dram0.bss (with
                      COMMON), .flash.rodata
  sdk.map / .elf      other SDKs: .text with .text.NAME and .rodata input
                      (data in a code output section, as many STM32/nRF
                      scripts put it), .init / .fini, .ramfunc (Atmel,
                      NXP), .fastcode, .itcm, a .data holding an STM32
                      .RamFunc input section (code by its input name;
                      not in the ELF: there the ELF's .data is not
                      executable), and .mycode, code only by the ELF's
                      flags
  zephyr.map / .elf   Zephyr: output sections without a dot (rom_start,
                      text, datas, bss, noinit); the vector table in
                      rom_start, which the ELF marks executable and the
                      map alone reads as data
Each ELF has the output sections of its map with the flags the real
linkers give them (SHF_EXECINSTR on code), and one symbol per map symbol
(STT_FUNC in code sections, STT_OBJECT elsewhere).
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "embedded")

AX, WA, A = 0x6, 0x3, 0x2  # SHF_ALLOC|SHF_EXECINSTR, SHF_WRITE|SHF_ALLOC, SHF_ALLOC

# (output section, address, flags, nobits, wrapped name,
#  [(input section, file, [(symbol, offset, size)])])
ESP = [
    (".iram0.text", 0x40380000, AX, False, False, [
        (".iram1.0", "esp-idf/freertos/libfreertos.a(port.c.obj)",
         [("vPortYield", 0x0, 0x40)]),
        (".iram1.3", "esp-idf/esp_system/libesp_system.a(crosscore_int.c.obj)",
         [("esp_crosscore_isr", 0x40, 0x60)]),
        (".text.spi_flash_op_block_func",
         "esp-idf/spi_flash/libspi_flash.a(cache_utils.c.obj)",
         [("spi_flash_op_block_func", 0xa0, 0x80)]),
    ]),
    (".iram_loader.text", 0x403ce000, AX, False, True, [
        (".iram1.6", "esp-idf/bootloader_support/libbootloader_support.a(bootloader_flash.c.obj)",
         [("bootloader_flash_unlock", 0x0, 0x172),
          ("bootloader_read_flash_id", 0x172, 0x34)]),
    ]),
    (".iram.text", 0x403d0000, AX, False, False, [
        (".text.bootloader_random_enable",
         "esp-idf/bootloader_support/libbootloader_support.a(bootloader_random_esp32c3.c.obj)",
         [("bootloader_random_enable", 0x0, 0x90)]),
    ]),
    (".dram0.data", 0x3fc8ba00, WA, False, False, [
        (".data.s_log_level", "esp-idf/log/liblog.a(log.c.obj)",
         [("esp_log_default_level", 0x0, 0x4)]),
        (".sdata.uxTopUsedPriority", "esp-idf/freertos/libfreertos.a(tasks.c.obj)",
         [("uxTopUsedPriority", 0x4, 0x4)]),
    ]),
    (".dram0.bss", 0x3fc8ce50, WA, True, False, [
        (".bss.s_cpu_up", "esp-idf/esp_system/libesp_system.a(cpu_start.c.obj)",
         [("s_cpu_up", 0x0, 0x2)]),
        ("COMMON", "esp-idf/main/libmain.a(hello_world_main.c.obj)",
         [("g_counter", 0x4, 0x4)]),
    ]),
    (".flash.text", 0x42000020, AX, False, False, [
        (".literal.app_main", "esp-idf/main/libmain.a(hello_world_main.c.obj)", []),
        (".text.app_main", "esp-idf/main/libmain.a(hello_world_main.c.obj)",
         [("app_main", 0x0, 0xd6)]),
        (".text.esp_restart", "esp-idf/esp_system/libesp_system.a(esp_system.c.obj)",
         [("esp_restart", 0xd6, 0x2a)]),
        (".text", "/opt/riscv32-esp-elf/lib/libc.a(lib_a-memcpy.o)",
         [("memcpy", 0x100, 0xa6)]),
    ]),
    (".flash.rodata", 0x3c020120, A, False, False, [
        (".rodata.esp_app_desc", "esp-idf/esp_app_format/libesp_app_format.a(esp_app_desc.c.obj)",
         [("esp_app_desc", 0x0, 0x100)]),
    ]),
    (".rtc.text", 0x50000000, AX, False, False, [
        (".rtc.text.0", "esp-idf/esp_hw_support/libesp_hw_support.a(sleep_modes.c.obj)",
         [("esp_wake_stub_entry", 0x0, 0x14)]),
    ]),
]

SDK = [
    (".init", 0x08000000, AX, False, False, [
        (".init", "crti.o", [("_init", 0x0, 0x4)])]),
    (".text", 0x08000100, AX, False, False, [
        (".text.main", "build/main.o", [("main", 0x0, 0x40)]),
        (".text.HAL_Delay", "build/stm32f4xx_hal.o", [("HAL_Delay", 0x40, 0x28)]),
        (".text", "build/startup_stm32f407xx.o", [("Reset_Handler", 0x68, 0x50)]),
        (".rodata.AHBPrescTable", "build/system_stm32f4xx.o",
         [("AHBPrescTable", 0xb8, 0x10)]),
    ]),
    (".fini", 0x08000200, AX, False, False, [
        (".fini", "crti.o", [("_fini", 0x0, 0x4)])]),
    (".ramfunc", 0x20000000, AX, False, False, [
        (".ramfunc", "build/flash_efc.o", [("efc_perform_command", 0x0, 0x30)])]),
    (".fastcode", 0x20000100, AX, False, False, [
        (".fastcode", "build/dsp.o", [("fir_filter", 0x0, 0x80)])]),
    (".itcm", 0x00000000, AX, False, False, [
        (".itcm.text", "build/isr.o", [("SysTick_Handler", 0x0, 0x20)])]),
    (".mycode", 0x08004000, AX, False, False, [
        (".mycode", "build/special.o", [("special_entry", 0x0, 0x10)])]),
    (".data", 0x20001000, WA, False, False, [
        (".data.SystemCoreClock", "build/system_stm32f4xx.o",
         [("SystemCoreClock", 0x0, 0x4)])]),
    (".bss", 0x20001100, WA, True, False, [
        (".bss.uwTick", "build/stm32f4xx_hal.o", [("uwTick", 0x0, 0x4)])]),
]
# Zephyr: output sections without a dot; the vector table in rom_start,
# which the ELF marks executable
WAX = 0x7
ZEPHYR = [
    ("rom_start", 0x00000000, WAX, False, False, [
        (".exc_vector_table._vector_table_section",
         "zephyr/arch/arch/arm/core/aarch32/libarch__arm__core__aarch32.a(vector_table.S.obj)",
         [("_vector_table", 0x0, 0x40)])]),
    ("text", 0x000000b8, AX, False, False, [
        (".text.main", "app/libapp.a(main.c.obj)", [("main", 0x0, 0x6c)]),
        (".text.z_arm_reset", "zephyr/arch/arch/arm/core/aarch32/libarch__arm__core__aarch32.a(reset.S.obj)",
         [("z_arm_reset", 0x6c, 0x5c)])]),
    ("datas", 0x20000000, WA, False, False, [
        (".data._char_out", "zephyr/libzephyr.a(printk.c.obj)",
         [("_char_out", 0x0, 0x4)])]),
    ("bss", 0x20000098, WA, True, False, [
        (".bss.z_idle_threads", "zephyr/kernel/libkernel.a(init.c.obj)",
         [("z_idle_threads", 0x0, 0x80)])]),
    ("noinit", 0x20000320, WA, True, False, [
        (".noinit.z_main_stack", "zephyr/kernel/libkernel.a(init.c.obj)",
         [("z_main_stack", 0x0, 0x400)])]),
]
# STM32CubeIDE scripts put *(.RamFunc) in .data: in the map only
RAMFUNC_DATA = (".RamFunc", "build/flash_ops.o", [("flash_write_word", 0x10, 0x40)])


def size_of(inputs):
    end = 0
    for _, _, syms in inputs:
        for _, off, sz in syms:
            end = max(end, off + sz)
    return (end + 15) & ~15 or 16


def write_map(sections, extra_data=None):
    out = ["Archive member included to satisfy reference by file (symbol)",
           "", "Memory Configuration", "",
           "Name             Origin             Length             Attributes",
           "*default*        0x00000000         0xffffffff", "",
           "Linker script and memory map", ""]
    for sec, addr, flags, nobits, wrapped, inputs in sections:
        size = size_of(inputs)
        if sec == ".data" and extra_data:
            size = 0x60
        head = "0x%08x %#10x" % (addr, size)
        if wrapped:
            out.append(sec)
            out.append("                " + head)
        else:
            out.append("%-15s %s" % (sec, head))
        out.append("                0x%08x                _%s_start = ABSOLUTE (.)"
                   % (addr, sec.strip(".").replace(".", "_")))
        out.append(" *(SORT_BY_ALIGNMENT(%s.*))" % (".data" if flags == WA else ".text"))
        ins = list(inputs)
        if sec == ".data" and extra_data:
            ins.append(extra_data)
        for name, f, syms in ins:
            first = syms[0][1] if syms else 0
            isz = sum(s[2] for s in syms) or 4
            line = " %-14s 0x%08x %#10x %s" % (name, addr + first, isz, f)
            if len(name) > 14:
                out.append(" " + name)
                line = "                0x%08x %#10x %s" % (addr + first, isz, f)
            out.append(line)
            for sym, off, _ in syms:
                out.append("                0x%08x                %s" % (addr + off, sym))
        out.append("")
    out += ["OUTPUT(app.elf elf32-littleriscv)", ""]
    return "\n".join(out).encode()


def write_elf(sections):
    shstr = b"\0"
    strtab = b"\0"
    shdrs = [bytes(40)]
    body = b""
    base = 52
    syms = [bytes(16)]
    names = {}

    def add_str(tab, s):
        return len(tab), tab + s.encode() + b"\0"

    for idx, (sec, addr, flags, nobits, _, inputs) in enumerate(sections, 1):
        size = size_of(inputs)
        n, shstr = add_str(shstr, sec)
        off = base + len(body)
        if not nobits:
            body += bytes(size)
        shdrs.append(struct.pack("<IIIIIIIIII", n, 8 if nobits else 1, flags,
                                 addr, off, size, 0, 0, 4, 0))
        for iname, _, ss in inputs:
            for sym, o, sz in ss:
                k, strtab = add_str(strtab, sym)
                # STT_FUNC / STT_OBJECT
                typ = 2 if flags & 4 and "rodata" not in iname else 1
                syms.append(struct.pack("<IIIBBH", k, addr + o, sz,
                                        (1 << 4) | typ, 0, idx))
    symoff = base + len(body)
    body += b"".join(syms)
    stroff = base + len(body)
    body += strtab
    n1, shstr = add_str(shstr, ".symtab")
    n2, shstr = add_str(shstr, ".strtab")
    n3, shstr = add_str(shstr, ".shstrtab")
    nsec = len(shdrs)
    shdrs.append(struct.pack("<IIIIIIIIII", n1, 2, 0, 0, symoff,
                             16 * len(syms), nsec + 1, 1, 4, 16))
    shdrs.append(struct.pack("<IIIIIIIIII", n2, 3, 0, 0, stroff, len(strtab),
                             0, 0, 1, 0))
    shoff_str = base + len(body)
    body += shstr
    shdrs.append(struct.pack("<IIIIIIIIII", n3, 3, 0, 0, shoff_str,
                             len(shstr), 0, 0, 1, 0))
    while (base + len(body)) % 4:
        body += b"\0"
    shoff = base + len(body)
    ident = b"\x7fELF\x01\x01\x01" + bytes(9)
    eh = ident + struct.pack("<HHIIIIIHHHHHH", 2, 243, 1, sections[0][1], 0,
                             shoff, 0, 52, 0, 0, 40, len(shdrs), len(shdrs) - 1)
    return eh + body + b"".join(shdrs)


def files():
    return {
        "esp32c3.map": write_map(ESP),
        "esp32c3.elf": write_elf(ESP),
        "sdk.map": write_map(SDK, RAMFUNC_DATA),
        "sdk.elf": write_elf(SDK),
        "zephyr.map": write_map(ZEPHYR),
        "zephyr.elf": write_elf(ZEPHYR),
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in files().items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
