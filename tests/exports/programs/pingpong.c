/* ping <-> pong call cycle, a self-recursive fact and a plain beta, all
 * ending in leaf (issue #23's program). */
#include <stdio.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
void pong(int n);
__attribute__((noinline)) void ping(int n) { leaf(20000); if (n > 0) pong(n - 1); }
__attribute__((noinline)) void pong(int n) { leaf(10000); if (n > 0) ping(n - 1); }
__attribute__((noinline)) unsigned long fact(int n) { leaf(3000); return n <= 1 ? 1 : n * fact(n - 1); }
__attribute__((noinline)) void beta(void) { leaf(400000); }
int main(void)
{
	for (int r = 0; r < 9000; r++) {
		ping(6);
		sink += fact(8);
		if (r % 3 == 0)
			beta();
	}
	printf("%lu\n", (unsigned long)sink);
	return 0;
}
