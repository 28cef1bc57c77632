/* A RISC-V (rv64gc: 2- and 4-byte instructions) Linux program for
 * tests/qemu/check_qemu.py, run by qemu-riscv64 (user mode) with
 * -d in_asm,exec,nochain: no C library, exits through the exit system
 * call.  Built with riscv64-unknown-elf-gcc -march=rv64gc -mabi=lp64d -g
 * -O2 -nostdlib -static. */
volatile unsigned long sink;

static inline unsigned long scale(unsigned long x)
{
	return x * 0x9e3779b97f4a7c15ul;
}

__attribute__((noinline)) unsigned long mix(unsigned n)
{
	unsigned long acc = 0x12345678;
	for (unsigned i = 0; i < n; i++)
		acc ^= scale(acc + i) >> (i & 7);
	return acc;
}

__attribute__((noinline)) unsigned long pick(unsigned long k)
{
	switch (k & 3) {
	case 0: return mix(k & 15);
	case 1: return k << 3;
	case 2: return ~k;
	default: return k ^ 0x5555;
	}
}

void _start(void)
{
	for (unsigned k = 0; k < 300; k++)
		sink += pick(sink + k);
	register long a0 __asm__("a0") = 0;
	register long a7 __asm__("a7") = 93; /* exit */
	__asm__ volatile("ecall" : : "r"(a0), "r"(a7));
	for (;;)
		;
}
