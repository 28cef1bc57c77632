/* A Cortex-M3 firmware for tests/qemu/check_qemu.py, run by
 * qemu-system-arm -M mps2-an385 with -d in_asm,exec,nochain: inlined
 * helpers and a switch table (per-line counts against addr2line), code
 * written to RAM and rewritten at the same address (QEMU translates that
 * TB again, with other instructions), SysTick interrupts (exits of TB
 * chains), UART writes (I/O in the middle of a TB: rewound under
 * -icount), and an exit through semihosting.  Built with
 * arm-none-eabi-gcc -mthumb -mcpu=cortex-m3 -g -O2 -nostdlib
 * -T qemu_fw.ld (-DLOOPS=N for a shorter run: tests/qemu/gen_demo.sh). */
#ifndef LOOPS
#define LOOPS 600
#endif
#define UART0_DATA (*(volatile unsigned *)0x40004000u)
#define UART0_CTRL (*(volatile unsigned *)0x40004008u)
#define SYST_CSR (*(volatile unsigned *)0xe000e010u)
#define SYST_RVR (*(volatile unsigned *)0xe000e014u)
#define SYST_CVR (*(volatile unsigned *)0xe000e018u)

volatile unsigned sink, ticks;
static const unsigned table[8] = {3, 1, 4, 1, 5, 9, 2, 6};

static inline unsigned scale(unsigned x)
{
	return x * 2654435761u;
}

static inline unsigned step(unsigned acc, unsigned i)
{
	acc ^= scale(i + acc);
	return acc + table[i & 7];
}

__attribute__((noinline)) unsigned mix(unsigned n)
{
	unsigned acc = 0x12345678u;
	for (unsigned i = 0; i < n; i++)
		acc = step(acc, i);
	return acc;
}

__attribute__((noinline)) unsigned pick(unsigned k)
{
	switch (k & 7) {
	case 0: return 0xdeadbeefu;
	case 1: return mix(k & 63) + 0xcafef00du;
	case 2: return 0x8badf00du ^ k;
	case 3: return table[k & 3] * 0x01000193u;
	case 4: return k << 3;
	default: return 0x0badc0deu;
	}
}

/* n times "adds r0, #1", then "bx lr", written at one address */
static unsigned short ramcode[16] __attribute__((aligned(4)));

__attribute__((noinline)) unsigned run_ram(unsigned n)
{
	unsigned (*f)(unsigned) = (unsigned (*)(unsigned))((unsigned)ramcode | 1);
	unsigned r = 0;
	for (unsigned i = 0; i < n; i++)
		ramcode[i] = 0x3001;
	ramcode[n] = 0x4770;
	__asm__ volatile("dsb\n\tisb" ::: "memory");
	for (unsigned k = 0; k < 3; k++)
		r += f(k);
	return r;
}

__attribute__((noinline)) void put(unsigned v)
{
	UART0_DATA = '0' + (v & 7);
	sink ^= v;
	UART0_DATA = '\n';
}

static int semihost(int op, void *arg)
{
	register int r0 __asm__("r0") = op;
	register void *r1 __asm__("r1") = arg;
	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

void SysTick_Handler(void)
{
	ticks++;
}

void HardFault_Handler(void)
{
	semihost(0x18, (void *)0x20024); /* ADP_Stopped_InternalError */
}

void Reset_Handler(void)
{
	UART0_CTRL = 1;
	SYST_RVR = 99;
	SYST_CVR = 0;
	SYST_CSR = 3; /* reference clock (1 MHz), interrupt, enable */
	for (unsigned k = 0; k < LOOPS; k++) {
		sink = pick(sink + k) + mix(sink & 31);
		if ((k & 63) == 0)
			put(sink);
	}
	sink += run_ram(3);
	sink += run_ram(7);
	SYST_CSR = 0;
	semihost(0x18, (void *)0x20026); /* ADP_Stopped_ApplicationExit */
	for (;;)
		;
}

__attribute__((section(".isr_vector"), used)) void (*const vectors[])(void) = {
	(void (*)(void))0x20008000, Reset_Handler, 0, HardFault_Handler, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, SysTick_Handler};
