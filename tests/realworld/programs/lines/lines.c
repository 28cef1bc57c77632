/* The addr2line corpus (check_addr2line.py): one freestanding program,
 * built for each toolchain and ISA, whose every code address profcat's
 * -r locations must place where addr2line -f -i does.  Inlined helpers,
 * a loop, a switch, a function split over two lines, and functions that
 * --gc-sections discards (their line sequences and .debug_aranges
 * entries stay behind, at address 0). */
#include "lines.h"

volatile unsigned sink;

static inline unsigned mix(unsigned x)
{
	x ^= x >> 7;
	x *= 2654435761u;
	return x ^ (x >> 13);
}

static inline unsigned twice(unsigned x)
{
	return mix(x) + mix(x + 1);
}

unsigned never_called(unsigned x)
{
	return x * 17 + 3;
}

unsigned also_unused(unsigned x)
{
	unsigned s = 0;
	while (x--)
		s += x;
	return s;
}

NOINLINE unsigned step(unsigned x, unsigned k)
{
	switch (k & 3) {
	case 0:
		return x + 1;
	case 1:
		return x * 3;
	case 2:
		return twice(x);
	default:
		return x ^ k;
	}
}

NOINLINE unsigned run(unsigned n)
{
	unsigned acc = 0;
	for (unsigned i = 0; i < n; i++)
		acc = step(acc, i) +
		      mix(i);
	return acc + other(acc);
}

void ENTRY(void)
{
	sink = run(100);
	for (;;)
		sink++;
}
