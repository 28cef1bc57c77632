/* A second unit (check_addr2line.py): a second line table and unit. */
#include "lines.h"

static unsigned table[8] = {3, 1, 4, 1, 5, 9, 2, 6};

unsigned unused_here(unsigned x)
{
	return table[x & 7] + x;
}

NOINLINE unsigned other(unsigned x)
{
	unsigned s = 0;
	for (unsigned i = 0; i < 8; i++)
		s += table[(x + i) & 7] * i;
	return s;
}
