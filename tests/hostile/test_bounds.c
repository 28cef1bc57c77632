/* Resource bounds: 100-byte files that claim 2^32 buckets, symbols or
 * samples are rejected without allocating what they claim.  Peak RSS of
 * this process (getrusage) must stay under 50 MiB over every case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "profcore.h"

static void put32(unsigned char *b, uint32_t v, int big)
{
	for (int i = 0; i < 4; i++)
		b[big ? i : 3 - i] = (unsigned char)(v >> (8 * (3 - i)));
}

static void reject(const char *format, const unsigned char *b, size_t n,
		   const char *opts)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	if (opts)
		pc_options_parse(o, opts);
	int st = pc_profile_load_memory(p, b, n, "claim", format, o);
	if (st == PC_OK) {
		fprintf(stderr, "%s accepted a 100-byte file claiming 2^32 entries\n", format);
		fail();
	}
	/* refused for what the file is, not because memory ran out */
	assert_int_not_equal(st, PC_ENOMEM);
	const pc_error *e = pc_profile_error(p);
	assert_non_null(e);
	assert_string_equal(e->file, "claim");
	pc_options_free(o);
	pc_profile_free(p);
}

static void huge_claims(void **state)
{
	(void)state;
	unsigned char b[100];
	/* GNU gmon.out: a histogram of 0xffffffff bins */
	memset(b, 0, sizeof b);
	memcpy(b, "gmon\1\0\0\0", 8);
	b[20] = 0;
	put32(b + 21 + 4, 0x10000, 0);            /* high (W=4) */
	put32(b + 21 + 8, 0xffffffffu, 0);        /* nbins */
	reject("gmon", b, sizeof b, "width=4");
	/* GNU gmon.out: a basic-block record of 0xffffffff entries */
	memset(b + 20, 0, 80);
	b[20] = 2;
	put32(b + 21, 0xffffffffu, 0);
	reject("gmon", b, sizeof b, "width=4");
	/* 4.4BSD gmon.out: ncnt claims 4 GiB of histogram */
	memset(b, 0, sizeof b);
	put32(b + 4, 0x10000, 0);
	put32(b + 8, 0xffffffffu, 0);
	put32(b + 12, 0x00051879, 0);
	reject("gmon", b, sizeof b, "width=4");
	/* GEMDOS executable: a symbol table of 4 GiB */
	memset(b, 0, sizeof b);
	b[0] = 0x60;
	b[1] = 0x1a;
	put32(b + 2, 16, 1);              /* text */
	put32(b + 14, 0xfffffff0u, 1);    /* symbol table bytes */
	reject("gemdos", b, sizeof b, NULL);
	/* MS-DOS PROFIL .PRF: 0xffff buckets in a 100-byte file */
	memset(b, 0, sizeof b);
	for (int i = 0; i < 9; i++) {
		b[2 * i] = 0xff;
		b[2 * i + 1] = 0xff;
	}
	reject("prf", b, sizeof b, NULL);

	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS %ld KiB\n", ru.ru_maxrss);
	/* under valgrind the RSS is valgrind's own: only memcheck judges */
	const char *pre = getenv("LD_PRELOAD");
	if (!pre || !strstr(pre, "vgpreload"))
		assert_true(ru.ru_maxrss < 50 * 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(huge_claims)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
