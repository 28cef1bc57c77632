/* recurse.c - recursion at -O2 for the line-granularity comparison with
 * gprof -b -p -l (check_recursive.py).  quicksort calls itself from one
 * line; count_nodes from two; even/odd call each other.  Each recursive
 * function is called thousands of times but runs for far less than a
 * sampling tick, so it has (almost surely) no histogram sample: its
 * line symbols must still hold its recursive call sites.  churn takes
 * the time, calling next (not inlined) 40 million times.  Argument:
 * work scale (default 1: about 0.2 s). */
#include <stdio.h>
#include <stdlib.h>

static unsigned seed = 12345;

/* on one line: its samples fall in its first line symbol, the one its
 * calls go to (gprof's per-call unit then comes from it) */
__attribute__((noinline)) static unsigned next(void) { seed = seed * 1103515245u + 12345u; return seed >> 8; }

static void quicksort(int *a, int lo, int hi)
{
	while (lo < hi) {
		int p = a[(lo + hi) / 2], i = lo, j = hi;
		while (i <= j) {
			while (a[i] < p)
				i++;
			while (a[j] > p)
				j--;
			if (i <= j) {
				int t = a[i];
				a[i] = a[j];
				a[j] = t;
				i++;
				j--;
			}
		}
		if (j - lo < hi - i) {
			quicksort(a, lo, j);
			lo = i;
		} else {
			quicksort(a, i, hi);
			hi = j;
		}
	}
}

struct node {
	struct node *left, *right;
};

static struct node pool[4096];

static struct node *build(unsigned depth, unsigned *used)
{
	if (!depth || *used >= sizeof pool / sizeof pool[0])
		return NULL;
	struct node *n = &pool[(*used)++];
	n->left = build(depth - 1, used);
	n->right = next() % 4 ? build(depth - 1, used) : NULL;
	return n;
}

static unsigned count_nodes(const struct node *n)
{
	if (!n)
		return 0;
	unsigned l = count_nodes(n->left);
	unsigned r = count_nodes(n->right);
	return 1 + l + r;
}

static int is_odd(unsigned n);

static int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

__attribute__((noinline)) static unsigned churn(unsigned rounds)
{
	unsigned h = 0;
	for (unsigned r = 0; r < rounds; r++) {
		h ^= next();
		h = h * 31u + (h >> 7);
	}
	return h;
}

int main(int argc, char **argv)
{
	unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
	static int a[6000];
	unsigned used = 0, total = 0;
	for (unsigned i = 0; i < sizeof a / sizeof a[0]; i++)
		a[i] = (int)(next() % 100000);
	quicksort(a, 0, (int)(sizeof a / sizeof a[0]) - 1);
	struct node *root = build(14, &used);
	for (unsigned k = 0; k < 3; k++)
		total += count_nodes(root);
	total += (unsigned)is_even(3001) + (unsigned)is_odd(2000);
	for (unsigned k = 0; k < 20 * scale; k++)
		total += churn(2000000);
	printf("%d %d %u\n", a[0], a[5999], total);
	return 0;
}
