#!/bin/sh
# Writes tests/qemu/fixtures/demo/: programs/qemu_fw.c built with 24 loops
# (fw.elf, source paths relative to the repository root) and the log of
# its run in qemu-system-arm 7.2 (Debian) with -d in_asm,exec,nochain
# (qemu.log.gz).  docs/qemu.md shows profcat's reports of the two.
set -e
cd "$(dirname "$0")/../.."
d=tests/qemu/fixtures/demo
mkdir -p "$d"
arm-none-eabi-gcc -mthumb -mcpu=cortex-m3 -g -O2 -nostdlib -DLOOPS=24 \
	-fdebug-prefix-map="$(pwd)"=. -T tests/qemu/programs/qemu_fw.ld \
	-Wl,-e,Reset_Handler -o "$d/fw.elf" tests/qemu/programs/qemu_fw.c
rm -f "$d/qemu.log" "$d/qemu.log.gz"
qemu-system-arm -M mps2-an385 -display none -monitor none -serial null \
	-semihosting -kernel "$d/fw.elf" -d in_asm,exec,nochain -D "$d/qemu.log"
gzip -n -9 "$d/qemu.log"
