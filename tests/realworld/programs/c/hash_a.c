#include <stdio.h>
#include <stdlib.h>

#include "work.h"

/* the same static name as in hash_b.c: gprof lists both */
static __attribute__((noinline)) unsigned mix(unsigned x, unsigned k)
{
	for (unsigned i = 0; i < 4; i++) {
		x ^= x >> 13;
		x *= 0x5bd1e995u + k;
		x ^= x >> 15;
	}
	return x;
}

unsigned long checksum_a(long seed, unsigned n)
{
	unsigned long s = 0;
	if (__builtin_expect(n == 0, 0)) {
		fprintf(stderr, "checksum_a: empty input %ld\n", seed);
		fail("checksum_a");
	}
	for (unsigned i = 0; i < n; i++)
		s += mix((unsigned)seed + i, 7);
	return s;
}

void fail(const char *what)
{
	fprintf(stderr, "%s failed\n", what);
	exit(2);
}
