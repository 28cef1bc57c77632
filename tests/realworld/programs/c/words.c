#include <stdlib.h>
#include <string.h>

#include "work.h"

static int cmp_word(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static __attribute__((noinline)) void make_word(char *w, unsigned i)
{
	for (int k = 0; k < 7; k++) {
		i = i * 1103515245u + 12345u;
		w[k] = (char)('a' + (i >> 16) % 26);
	}
	w[7] = 0;
}

unsigned long sort_words(unsigned n)
{
	char *buf = malloc((size_t)n * 8);
	char **v = malloc((size_t)n * sizeof *v);
	if (!buf || !v)
		fail("sort_words");
	for (unsigned i = 0; i < n; i++) {
		v[i] = buf + (size_t)i * 8;
		make_word(v[i], i);
	}
	qsort(v, n, sizeof *v, cmp_word);
	unsigned long s = (unsigned long)(unsigned char)v[n / 2][0];
	free(v);
	free(buf);
	return s;
}
