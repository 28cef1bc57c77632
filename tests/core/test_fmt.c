/* test_fmt.c - pc_fmt_fixed(_right) and pc_fmt_u64 print what printf prints,
 * byte for byte (the reports use them instead of printf for speed). */
#include "internal.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* printf's "%.*f" (g 0: pc_fmt_fixed) or "%.*g" (g 1: pc_fmt_g) of v
 * with precision dec, byte for byte */
static void same_as(double v, int dec, int g)
{
	char want[400], got[400];
	snprintf(want, sizeof want, g ? "%.*g" : "%.*f", dec, v);
	size_t n = g ? pc_fmt_g(got, sizeof got, v, dec) : pc_fmt_fixed(got, sizeof got, v, dec);
	if (strcmp(want, got) != 0 || n != strlen(want))
		fail_msg("%.17g with %%.%d%c: printf %s, %s %s", v, dec, g ? 'g' : 'f', want,
			 g ? "pc_fmt_g" : "pc_fmt_fixed", got);
}

static void same(double v, int dec)
{
	same_as(v, dec, 0);
}

/* pc_fmt_fixed_right as "%*.*f" (the fast path and the general one:
 * negative, -0, large, ties, widths below and above the length) */
static void right(double v, int width, int dec)
{
	char want[400], got[400];
	snprintf(want, sizeof want, "%*.*f", width, dec, v);
	size_t n = pc_fmt_fixed_right(got, v, width, dec);
	got[n] = '\0';
	if (strcmp(want, got) != 0)
		fail_msg("%.17g in %d with %d decimals: printf '%s', pc_fmt_fixed_right '%s'", v,
			 width, dec, want, got);
}

static void right_like_printf(void **state)
{
	(void)state;
	static const double v[] = {0, -0.0, 1.955, 2.675, 0.125, 0.375, 99.995, 100.09,
				   -3.5, 999999999.995, 1e9, 1e15, 123456.789, 0.5, 1.5, 2.5};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		for (int w = 0; w <= 12; w += 3)
			for (int d = 0; d <= 6; d++)
				right(v[i], w, d);
	for (int i = 0; i < 20000; i++) {
		double x = (double)(next() % 100000000) / 4096.0;
		right(x, 7 + i % 4, i % 7);
	}
}

/* a double the tables may print: ties and near ties at every precision,
 * 0 and -0, values near 10^9 (where the fast path ends), integers,
 * random magnitudes, and any bit pattern */
static double table_value(int i, int dec)
{
	uint64_t r = next();
	switch (i % 8) {
	case 0: /* an exact tie at dec decimals or near it: k / 2^j */
		return ldexp((double)(r % 2000000), -(int)(1 + next() % 12));
	case 1: { /* n + 1/2 at dec decimals, and its neighbours */
		double v = ((double)(r % 100000000) * 10 + 5) / pow(10, dec + 1);
		int s = (int)(next() % 3);
		return s == 0 ? v : s == 1 ? nextafter(v, 0) : nextafter(v, 1e300);
	}
	case 2: { /* around 10^9 */
		double v = 1e9 + ((double)(r % 2000001) - 1000000) / 1024.0;
		return next() & 1 ? v : nextafter(1e9, (double)(next() & 1) * 2e9);
	}
	case 3:
		return (r & 3) == 0 ? 0.0 : (r & 3) == 1 ? -0.0 : (double)(r % 100000);
	case 4: /* random magnitudes, either sign */
		return ldexp((double)(r >> 11) / 9007199254740992.0, (int)(next() % 60) - 20) *
		       (next() & 1 ? 1 : -1);
	case 5: { /* any double at all */
		double v;
		memcpy(&v, &r, sizeof v);
		return v;
	}
	case 6: /* percents of a sample total */
		return (double)(r % 3000000) * 100.0 / 2088761.0;
	default: /* counts split over buckets, and their seconds */
		return (double)(r % 20000) * 1.9574 / (next() & 1 ? 1 : 100);
	}
}

/* pc_fmt_fixed_right and pc_sink_fixed as "%*.*f" over many doubles, at
 * every precision the reports use (0 to 6) and widths 0 to 20 */
static void random_like_printf(void **state)
{
	(void)state;
	pc_sink k;
	pc_sink_init(&k);
	for (int i = 0; i < 400000; i++) {
		int dec = (int)(next() % 7), width = (int)(next() % 21);
		double v = table_value(i, dec);
		right(v, width, dec);
		same(v, dec);
		char want[400];
		snprintf(want, sizeof want, "%*.*f", width, dec, v);
		k.len = 0;
		assert_int_equal(pc_sink_fixed(&k, v, width, dec), PC_OK);
		if (k.len != strlen(want) || memcmp(k.buf, want, k.len) != 0 || k.buf[k.len])
			fail_msg("%.17g in %d with %d decimals: printf '%s', pc_sink_fixed '%.*s'", v,
				 width, dec, want, (int)k.len, k.buf);
	}
	pc_sink_dispose(&k);
}

static void fixed_like_printf(void **state)
{
	(void)state;
	static const double special[] = {
		0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 0.625, 0.875,
		1.005, 2.675, 0.045, 1.0000005, 264.410575, 72.44127, 100.16,
		0.001, -0.001, -0.004999, 4503599627.370496, 9.99999949999,
		1e15, 4.5e13, 4.503599627370495e13, 4.503599627370497e13, 1e300,
		-1e300, 1e-300, INFINITY, -INFINITY, NAN,
	};
	for (size_t i = 0; i < sizeof special / sizeof *special; i++)
		for (int d = 0; d <= 7; d++)
			same(special[i], d);
	/* exact ties: k / 2^j, whose decimal expansions end in 5 */
	for (int j = 1; j <= 12; j++)
		for (int k = -3000; k <= 3000; k += 7)
			for (int d = 0; d <= 6; d++)
				same(ldexp(k, -j), d);
	/* near ties: n / 10^(d+1) + 5 / 10^(d+1), a hair off either way */
	for (int d = 0; d <= 6; d++)
		for (int n = 0; n < 5000; n++) {
			double v = (n * 10.0 + 5) / pow(10, d + 1);
			same(v, d);
			same(nextafter(v, 0), d);
			same(nextafter(v, 1e300), d);
		}
	/* random values of every magnitude the reports print */
	for (int i = 0; i < 100000; i++) {
		uint64_t r = next();
		double mant = (double)(r >> 11) / 9007199254740992.0;
		int e = (int)(next() % 60) - 20;
		double v = ldexp(mant, e);
		if (r & 1)
			v = -v;
		same(v, (int)(next() % 7));
	}
	/* random bit patterns: any double at all */
	for (int i = 0; i < 50000; i++) {
		uint64_t r = next();
		double v;
		memcpy(&v, &r, sizeof v);
		same(v, (int)(next() % 7));
	}
}

static void u64_like_printf(void **state)
{
	(void)state;
	static const uint64_t v[] = {0, 1, 9, 10, 99, 100, 24000000, 4294967295u,
				     4294967296u, 18446744073709551615u};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
		char want[32], got[32];
		snprintf(want, sizeof want, "%llu", (unsigned long long)v[i]);
		assert_int_equal(pc_fmt_u64(got, v[i]), strlen(want));
		assert_string_equal(got, want);
	}
	/* every length, and both sides of each power of ten (the formatter
	 * writes two digits a step) */
	for (uint64_t p = 1, i = 0; i < 20; i++, p *= 10) {
		for (uint64_t d = 0; d < 3; d++) {
			uint64_t x = p - 1 + d;
			char want[32], got[32];
			snprintf(want, sizeof want, "%llu", (unsigned long long)x);
			assert_int_equal(pc_fmt_u64(got, x), strlen(want));
			assert_string_equal(got, want);
		}
	}
}

static void same_g(double v, int prec)
{
	same_as(v, prec, 1);
}

/* pc_fmt_g as "%.*g" (the flame and call data of the HTML page, %.9g):
 * both sides of every power of ten and of its rounding to prec digits,
 * ties, the ends of the fast path (1e-4, 10^prec), signs, any double */
static void g_like_printf(void **state)
{
	(void)state;
	static const double special[] = {
		0.0, -0.0, 0.5, 1.5, 2.5, 0.125, 1.005, 2.675, 1e-4, 9.99999e-5, 1e-5,
		0.1, 0.3, 2.0 / 3, 123456789.5, 999999999.5, 999999999.4, 9999999995.0,
		1e9, 1e15, 1e16, 1e300, 1e-300, INFINITY, -INFINITY, NAN,
	};
	for (size_t i = 0; i < sizeof special / sizeof *special; i++)
		for (int p = 1; p <= 17; p++) {
			same_g(special[i], p);
			same_g(-special[i], p);
		}
	for (int e = -6; e <= 16; e++)
		for (int p = 1; p <= 15; p++) {
			double t = pow(10, e);
			double r = t * (1 - 0.5 * pow(10, -p)); /* rounds up to t at p digits */
			const double v[] = {t, nextafter(t, 0), nextafter(t, 1e300), r,
					    nextafter(r, 0), nextafter(r, 1e300)};
			for (size_t i = 0; i < sizeof v / sizeof *v; i++)
				same_g(v[i], p);
		}
	/* exact ties k / 2^j at every precision */
	for (int j = 1; j <= 16; j++)
		for (int k = -3000; k <= 3000; k += 7)
			for (int p = 1; p <= 12; p++)
				same_g(ldexp(k, -j), p);
	for (int i = 0; i < 100000; i++) {
		int p = i % 3 ? 9 : 1 + (int)(next() % 15);
		same_g(table_value(i, (int)(next() % 7)), p);
		uint64_t r = next(); /* fractions of sample counts */
		same_g((double)(r % 100000000) / (double)(1 + next() % 100000), p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixed_like_printf),
		cmocka_unit_test(u64_like_printf),
		cmocka_unit_test(right_like_printf),
		cmocka_unit_test(random_like_printf),
		cmocka_unit_test(g_like_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
