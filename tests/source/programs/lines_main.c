/* lines_main.c - the line-granularity test program: a few hot loops over
 * several lines, a header inline (mix), a static function, calls across
 * files.  Argument: work scale (default 1: about 0.15 s at -O2, 0.5 s at -O0). */
#include <stdio.h>
#include <stdlib.h>

#include "lines_util.h"

static unsigned char buf[4096];

static void fill(unsigned seed)
{
	for (unsigned i = 0; i < sizeof buf; i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (unsigned char)(seed >> 16);
	}
}

static unsigned scan(unsigned rounds)
{
	unsigned h = 0;
	for (unsigned r = 0; r < rounds; r++) {
		h = mix(h, r);
		if (h & 1)
			h += r * 3;
		else
			h ^= r << 2;
	}
	return h;
}

int main(int argc, char **argv)
{
	unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
	unsigned total = 0;
	double area = 0;
	for (unsigned k = 0; k < 1000 * scale; k++) {
		fill(k);
		total += checksum(buf, sizeof buf);
		total += scan(20000);
		area += integrate(30000);
	}
	printf("%u %.6f\n", total, area);
	return 0;
}
