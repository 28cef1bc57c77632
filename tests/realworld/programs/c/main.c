/* A small C program for the live corpus (tests/realworld/check_programs.py):
 * built with gcc -O2 -g -pg, run, and its gmon.out read by profcat and by
 * gprof.  -O2 gives clones (foo.constprop.0, foo.isra.0), cold splits
 * (foo.cold), and static functions of the same name in two files. */
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 160;
	struct grid g = {0};
	unsigned long acc = 0;
	for (long r = 0; r < rounds; r++) {
		acc += checksum_a(r, 60000);
		acc += checksum_b(r, 60000);
		acc += relax(&g, (int)r);
		acc += sort_words(3000 + (unsigned)r);
	}
	printf("%lu\n", acc & 0xffff);
	return 0;
}
