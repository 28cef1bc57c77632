/* Several hot lines in one function, an inlined helper (-O2) and a
 * static function: the per-line counts of every export (issue #22 item 4). */
#include <stdio.h>
volatile unsigned long sink;
static inline unsigned long mix(unsigned long x)
{
	x ^= x >> 7;
	x *= 0x9E3779B97F4A7C15ul;
	return x ^ (x >> 11);
}
__attribute__((noinline)) void work(unsigned long n)
{
	unsigned long a = 0, b = 1;
	for (unsigned long i = 0; i < n; i++)
		a += mix(i);
	for (unsigned long i = 0; i < n / 2; i++)
		b = b * 31 + (i ^ a);
	for (unsigned long i = 0; i < n / 4; i++)
		sink += mix(a + i);
	sink += b;
}
static __attribute__((noinline)) void other(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}
int main(void)
{
	for (int r = 0; r < 400; r++) {
		work(1000000);
		other(500000);
	}
	printf("%lu\n", (unsigned long)sink);
	return 0;
}
