/* A C program for gcc -pg with several call cycles: is_even/is_odd
 * (with time), three zero-time cycles (za/zb, zc/zd, ze/zf/zg), self
 * recursion (fib, helper), a cycle (q1/q2) calling two other cycles, and
 * static functions.  Built and run by check_real_programs.py. */
#include <stdio.h>
#include <stdlib.h>

volatile unsigned long sink;

static void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }

/* cycle with time: is_even/is_odd */
int is_odd(unsigned n);
int is_even(unsigned n) { spin(2000); return n == 0 ? 1 : is_odd(n - 1); }
int is_odd(unsigned n) { spin(1000); return n == 0 ? 0 : is_even(n - 1); }

/* zero-time cycles */
int zb(int n);
int za(int n) { return n <= 0 ? 0 : zb(n - 1) + 1; }
int zb(int n) { return n <= 0 ? 0 : za(n - 1) + 1; }
int zd(int n);
int zc(int n) { return n <= 0 ? 0 : zd(n - 1) + 1; }
int zd(int n) { return n <= 0 ? 0 : zc(n - 1) + 1; }
int zg(int n);
int zf(int n);
int ze(int n) { return n <= 0 ? 0 : zf(n - 1) + 1; }
int zf(int n) { return n <= 0 ? 0 : zg(n - 1) + 1; }
int zg(int n) { return n <= 0 ? 0 : ze(n - 2) + zf(n - 3) + 1; }

/* self recursion */
unsigned long fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

/* a cycle calling a cycle */
int q2(int n);
int q1(int n) { if (n % 7 == 0) za(3); return n <= 0 ? 0 : q2(n - 1); }
int q2(int n) { spin(500); return n <= 0 ? 0 : q1(n - 1) + zc(2); }

static int helper(int n) { return n <= 0 ? 0 : helper(n - 1) + zc(1); }

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 40;
	unsigned long t = 0;
	for (unsigned r = 0; r < n; r++) {
		t += is_even(r * 37 % 101);
		t += za(r % 9) + zc(r % 5) + ze(r % 11);
		t += fib(18);
		t += q1(r % 13);
		t += helper(3);
	}
	printf("%lu\n", t);
	return 0;
}
