/* tests/source/check_cgindex.py: static functions in two files (one name
 * in both) for gprof's call graph index " (file.c)". */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;
double shared_entry(int n);

static __attribute__((noinline)) double leaf(int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += i * 0.5;
	return s;
}

static __attribute__((noinline)) double a_rather_long_static_function_name(int n)
{
	return leaf(n) + leaf(n / 2);
}

__attribute__((noinline)) double global_middle(int n)
{
	return a_rather_long_static_function_name(n) + shared_entry(n / 2);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 400;
	for (int i = 0; i < rounds; i++)
		sink += global_middle(20000 + i);
	printf("%f\n", sink);
	return 0;
}
