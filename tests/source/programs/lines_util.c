/* lines_util.c - second translation unit of the line-granularity test
 * program (tests/source/check_lines.py). */
#include "lines_util.h"

static unsigned rotate(unsigned x, unsigned r)
{
	return (x << r) | (x >> (32 - r));
}

unsigned checksum(const unsigned char *buf, unsigned n)
{
	unsigned h = 2166136261u;
	for (unsigned i = 0; i < n; i++) {
		h = mix(h, buf[i]);
		h = rotate(h, 5);
	}
	return h;
}

double integrate(unsigned steps)
{
	double sum = 0, dx = 1.0 / steps;
	for (unsigned i = 0; i < steps; i++) {
		double x = i * dx;
		sum += x * x * dx;
	}
	return sum;
}
