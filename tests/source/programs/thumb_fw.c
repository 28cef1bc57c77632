/* A Cortex-M firmware for tests/source/check_disasm.py: inlined helpers
 * (inline chains for the per-line check against addr2line -i), a
 * literal pool ($d mapping symbols inside Thumb code) and a switch
 * table.  Built with arm-none-eabi-gcc -mthumb -mcpu=cortex-m3 -g -O2
 * -nostdlib; for the ARM/Thumb interworking case with -mcpu=arm7tdmi
 * -marm, where TOGGLE_THUMB makes mix() Thumb code among ARM code. */
volatile unsigned sink;
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

#ifdef TOGGLE_THUMB
__attribute__((target("thumb")))
#endif
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
	case 1: return mix(k) + 0xcafef00du;
	case 2: return 0x8badf00du ^ k;
	case 3: return table[k & 3] * 0x01000193u;
	case 4: return k << 3;
	default: return 0x0badc0deu;
	}
}

void SysTick_Handler(void)
{
	sink += 0x87654321u;
}

void Reset_Handler(void)
{
	for (;;)
		sink = pick(sink) + mix(sink & 63);
}

__attribute__((section(".isr_vector"), used)) void (*const vectors[])(void) = {
	(void (*)(void))0x20001000, Reset_Handler, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, SysTick_Handler};
