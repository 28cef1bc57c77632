#ifndef WORK_H
#define WORK_H
struct grid {
	double cell[64][64];
	int generation;
};
unsigned long checksum_a(long seed, unsigned n);
unsigned long checksum_b(long seed, unsigned n);
unsigned long relax(struct grid *g, int r);
unsigned long sort_words(unsigned n);
void fail(const char *what) __attribute__((noreturn, cold));
#endif
