/* The second file of check_cgindex.py: its own static leaf. */
static __attribute__((noinline)) double leaf(int n)
{
	double s = 1;
	for (int i = 0; i < n; i++)
		s *= 1.0000001;
	return s;
}

static __attribute__((noinline)) double twice(int n)
{
	return leaf(n) + leaf(n + 1);
}

double shared_entry(int n)
{
	return twice(n);
}
