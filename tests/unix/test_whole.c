/* test_whole.c - a gmon.out of 1 MiB or more is mapped, not read
 * (loaders/whole.h): the head the stream buffered for format detection
 * first, the rest of the file after it.  The same counts must come out
 * of a big file with the format detected and given, of the same bytes in
 * memory, and of a small file (read); a truncated big file fails at the
 * same offset as one read.  (Without mmap, on Windows, the big file is
 * read after its buffered head: the same results.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profcore.h"
#include "profcore_plugin.h"

#define BIG_BINS 600000u  /* 1.2 MB of bins: mapped */
#define SMALL_BINS 1000u  /* 2 KB: read */
#define LOW 0x1000u

static void le(unsigned char *d, uint64_t v, unsigned w)
{
	for (unsigned k = 0; k < w; k++)
		d[k] = (unsigned char)(v >> (8 * k));
}

static unsigned count_of(size_t i)
{
	return (unsigned)((i * 7 + i / 1000) % 5);
}

/* a GNU tagged gmon.out, 64-bit little-endian: one histogram of nbins
 * 16-bit counters over [LOW, LOW + 2 nbins), 2 bytes a bin */
static unsigned char *gmon(size_t nbins, size_t *len)
{
	size_t n = 20 + 1 + 40 + 2 * nbins;
	unsigned char *b = calloc(1, n);
	assert_non_null(b);
	memcpy(b, "gmon", 4);
	le(b + 4, 1, 4);
	unsigned char *h = b + 20;
	h[0] = 0; /* histogram */
	le(h + 1, LOW, 8);
	le(h + 9, LOW + 2 * (uint64_t)nbins, 8);
	le(h + 17, nbins, 4);
	le(h + 21, 100, 4);
	memcpy(h + 25, "seconds", 7);
	h[40] = 's';
	for (size_t i = 0; i < nbins; i++)
		le(h + 41 + 2 * i, count_of(i), 2);
	*len = n;
	return b;
}

static void write_file(const char *path, const unsigned char *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* two functions: the first half of the bins, the second half */
static pc_profile *profile(size_t nbins)
{
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	assert_int_equal(pc_profile_set_target(p, 8, PC_ENDIAN_LITTLE), PC_OK);
	static const char *const names[] = {"first", "second"};
	for (unsigned i = 0; i < 2; i++) {
		pc_symbol s = {0};
		s.name = names[i];
		s.segment = PC_NOSEG;
		s.address = LOW + (uint64_t)i * nbins;
		s.size = nbins;
		s.kind = PC_SYM_TEXT;
		s.flags = PC_SYMF_FUNC;
		s.binding = PC_BIND_GLOBAL;
		assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	}
	return p;
}

/* the counts of p: every sample, and each function's */
static void check_counts(pc_profile *p, size_t nbins)
{
	uint64_t first = 0, second = 0;
	for (size_t i = 0; i < nbins; i++)
		*(i < nbins / 2 ? &first : &second) += count_of(i);
	pc_totals t;
	assert_int_equal(pc_profile_totals(&t, p), PC_OK);
	assert_true(t.total == (double)(first + second));
	assert_true(t.attributed == (double)(first + second));
	size_t n = 0;
	assert_int_equal(pc_profile_row_count(&n, p), PC_OK);
	assert_int_equal(n, 2);
	pc_row r;
	assert_int_equal(pc_profile_row_at(&r, p, 0), PC_OK);
	assert_string_equal(r.name, "first");
	assert_true(r.count == (double)first);
	assert_int_equal(pc_profile_row_at(&r, p, 1), PC_OK);
	assert_string_equal(r.name, "second");
	assert_true(r.count == (double)second);
	pc_histogram h;
	assert_int_equal(pc_profile_histogram_count(p), 1);
	assert_int_equal(pc_profile_histogram_at(&h, p, 0), PC_OK);
	assert_int_equal(h.nbins, nbins);
	assert_int_equal(h.counts[nbins - 1], count_of(nbins - 1));
}

static void same_counts_every_way(void **state)
{
	(void)state;
	static const size_t bins[] = {BIG_BINS, SMALL_BINS};
	for (size_t k = 0; k < 2; k++) {
		size_t len;
		unsigned char *b = gmon(bins[k], &len);
		assert_true(bins[k] == SMALL_BINS || len >= ((size_t)1 << 20));
		const char *path = "test_whole.gmon.out";
		write_file(path, b, len);
		/* detected (the head buffered) and given */
		static const char *const formats[] = {NULL, "gmon"};
		for (size_t f = 0; f < 2; f++) {
			pc_profile *p = profile(bins[k]);
			assert_int_equal(pc_profile_load_file(p, path, formats[f], NULL), PC_OK);
			check_counts(p, bins[k]);
			pc_profile_free(p);
		}
		/* the same bytes in memory */
		pc_profile *p = profile(bins[k]);
		assert_int_equal(pc_profile_load_memory(p, b, len, "mem", "gmon", NULL), PC_OK);
		check_counts(p, bins[k]);
		pc_profile_free(p);
		remove(path);
		free(b);
	}
}

static void truncated_big_file(void **state)
{
	(void)state;
	size_t len;
	unsigned char *b = gmon(BIG_BINS, &len);
	const char *path = "test_whole_cut.gmon.out";
	write_file(path, b, len - 1); /* one byte short */
	pc_profile *p = profile(BIG_BINS);
	assert_int_equal(pc_profile_load_file(p, path, "gmon", NULL), PC_ETRUNC);
	const pc_error *e = pc_profile_error(p);
	assert_int_equal(e->offset, 37); /* the bin count: tag at 20, low, high */
	assert_string_equal(e->message,
			    "histogram claims 600000 bins (1200000 bytes) but only 1199999 bytes follow");
	pc_profile_free(p);
	remove(path);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_counts_every_way),
		cmocka_unit_test(truncated_big_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
