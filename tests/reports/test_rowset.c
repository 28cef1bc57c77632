/* test_rowset.c - the shared report arithmetic (formats/rowset.c): bar
 * lengths, the percent axis, DDJ rounding, count text, padding, and the
 * row selection of cutoff and zero-hit on a small profile. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rowset.h"
#include "model.h" /* the display-name cache */

static void bars(void **state)
{
	(void)state;
	assert_int_equal(pc_bar_len(874, 874, 35), 35);
	assert_int_equal(pc_bar_len(436, 874, 35), 17); /* 17.46 */
	assert_int_equal(pc_bar_len(220, 874, 35), 8);  /* 8.81 */
	assert_int_equal(pc_bar_len(0, 874, 35), 0);
	assert_int_equal(pc_bar_len(5, 0, 35), 0);
	/* count == max is full even when count/max*width rounds below */
	assert_int_equal(pc_bar_len(0.1 + 0.2, 0.1 + 0.2, 35), 35);
	assert_int_equal(pc_bar_len(1, 3, 3), 1);
}

static void axis(void **state)
{
	(void)state;
	assert_int_equal(pc_axis_step(0), 1);
	assert_int_equal(pc_axis_step(6.61), 1);
	assert_int_equal(pc_axis_step(10), 1);
	assert_int_equal(pc_axis_step(10.01), 2);
	assert_int_equal(pc_axis_step(22.44), 5);
	assert_int_equal(pc_axis_step(50.5), 10);
	assert_int_equal(pc_axis_step(100), 10);
	assert_int_equal(pc_axis_stars(6.608, 1), 26);
	assert_int_equal(pc_axis_stars(6.25, 1), 25);
	assert_int_equal(pc_axis_stars(22.44, 5), 17);
	assert_int_equal(pc_axis_stars(0.49, 1), 1);
	assert_int_equal(pc_axis_stars(0, 1), 0);
	pc_sink k;
	pc_sink_init(&k);
	pc_axis_write(&k, 1);
	assert_string_equal(k.buf, "0   1   2   3   4   5   6   7   8   9   10");
	pc_sink_dispose(&k);
	pc_sink_init(&k);
	pc_axis_write(&k, 10);
	assert_string_equal(k.buf, "0   10  20  30  40  50  60  70  80  90  100");
	pc_sink_dispose(&k);
}

static void rounding_and_text(void **state)
{
	(void)state;
	assert_int_equal(pc_round_percent(22.436), 22);
	assert_int_equal(pc_round_percent(20.654), 21);
	assert_int_equal(pc_round_percent(0.5), 1);
	assert_int_equal(pc_round_percent(0.488), 0);
	char buf[48];
	assert_string_equal(pc_fmt_count(874, buf, sizeof buf), "874");
	assert_string_equal(pc_fmt_count(264.410575, buf, sizeof buf), "264.41");
	assert_string_equal(pc_fmt_count(0, buf, sizeof buf), "0");
	pc_sink k;
	pc_sink_init(&k);
	pc_sink_pad(&k, "ab", 6, -1);
	pc_sink_putc(&k, '|');
	pc_sink_pad(&k, "ab", 6, 0);
	pc_sink_putc(&k, '|');
	pc_sink_pad(&k, "ab", 6, 1);
	pc_sink_putc(&k, '|');
	pc_sink_pad(&k, "abcdefgh", 6, 1);
	assert_string_equal(k.buf, "ab    |  ab  |    ab|abcdefgh");
	pc_sink_dispose(&k);
}

/* four symbols with 6, 3, 1 and 0 samples, 2 samples outside */
static pc_profile *small(void)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	static const char *names[] = {"a", "b", "c", "d"};
	static const uint64_t counts[] = {3, 6, 1, 0};
	for (unsigned i = 0; i < 4; i++) {
		pc_symbol s = {0};
		s.name = names[i];
		s.segment = PC_NOSEG;
		s.address = 0x100 + 0x10 * i;
		s.kind = PC_SYM_TEXT;
		assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
		if (counts[i])
			assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, s.address,
							       counts[i]), PC_OK);
	}
	pc_region r = {PC_NOSEG, 0x100, 0x140, PC_REGION_APPLICATION, "program"};
	assert_int_equal(pc_profile_add_region(p, &r), PC_OK);
	assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x10, 2), PC_OK);
	return p;
}

static size_t listed(const char *const *kv, const pc_rowset_spec *spec,
		     char *names, size_t n)
{
	pc_profile *p = small();
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	for (; *kv; kv++)
		assert_int_equal(pc_options_parse(o, *kv), PC_OK);
	pc_rowset rs;
	assert_int_equal(pc_rowset_build(p, o, spec, &rs), PC_OK);
	size_t k = 0;
	for (size_t i = 0; i < rs.n && k + 1 < n; i++)
		names[k++] = rs.rows[i].label[0];
	names[k] = '\0';
	size_t got = rs.n;
	pc_rowset_dispose(&rs);
	pc_options_free(o);
	pc_profile_free(p);
	return got;
}

static void selection(void **state)
{
	(void)state;
	static const pc_rowset_spec prog = {PC_BASE_PROGRAM, PC_TIE_NAME, 0};
	static const pc_rowset_spec total = {PC_BASE_TOTAL, PC_TIE_NAME, 0};
	static const pc_rowset_spec ddj = {PC_BASE_TOTAL, PC_TIE_ADDRESS, 1};
	char s[16];
	const char *none[] = {NULL};
	listed(none, &prog, s, sizeof s);
	assert_string_equal(s, "bac");
	const char *zero[] = {"zero=1", NULL};
	listed(zero, &prog, s, sizeof s);
	assert_string_equal(s, "bacd");
	/* 6 of 10 = 60 %: the first row covers 50 */
	const char *c50[] = {"cutoff=50", NULL};
	listed(c50, &prog, s, sizeof s);
	assert_string_equal(s, "b");
	const char *c60[] = {"cutoff=60", NULL};
	listed(c60, &prog, s, sizeof s);
	assert_string_equal(s, "b");
	const char *c61[] = {"cutoff=60.1", NULL};
	listed(c61, &prog, s, sizeof s);
	assert_string_equal(s, "ba");
	const char *c0[] = {"cutoff=0", "zero=1", NULL};
	listed(c0, &prog, s, sizeof s);
	assert_string_equal(s, "");
	const char *c99z[] = {"cutoff=99", "zero=1", NULL};
	listed(c99z, &prog, s, sizeof s);
	assert_string_equal(s, "bac");
	const char *c100z[] = {"cutoff=100", "zero=1", NULL};
	listed(c100z, &prog, s, sizeof s);
	assert_string_equal(s, "bacd");
	/* of every sample (12), 90 % needs all three hit rows */
	const char *c90[] = {"cutoff=90", NULL};
	listed(c90, &total, s, sizeof s);
	assert_string_equal(s, "bac");
	/* DDJ: the 2 outside samples are a row of their own ("(unknown)") */
	listed(none, &ddj, s, sizeof s);
	assert_string_equal(s, "ba(c");
}

static void bad_options(void **state)
{
	(void)state;
	static const pc_rowset_spec spec = {PC_BASE_TOTAL, PC_TIE_NAME, 0};
	const char *bad[][2] = {{"cutoff=101", "cutoff must be a percentage from 0 to 100, not '101'"},
				{"cutoff=x", "cutoff must be a percentage from 0 to 100, not 'x'"},
				{"zero=2", "zero must be 0 or 1, not '2'"},
				{"barchart=maybe", "barchart must be 0 or 1, not 'maybe'"},
				{"output-format=xml", "output format must be text, csv or json, not 'xml'"}};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		pc_profile *p = small();
		pc_options *o;
		assert_int_equal(pc_options_new(&o), PC_OK);
		assert_int_equal(pc_options_parse(o, bad[i][0]), PC_OK);
		pc_rowset rs;
		assert_int_equal(pc_rowset_build(p, o, &spec, &rs), PC_EUSAGE);
		assert_string_equal(pc_profile_error(p)->message, bad[i][1]);
		pc_options_free(o);
		pc_profile_free(p);
	}
}

/* ---- row order of many rows: ties of count and calls by name ---------
 * 300 symbols (more than the 64 below which rowset.c uses qsort alone):
 * counts and calls of few values (long runs of ties), names alike in
 * their first 8 bytes or more, prefixes of each other, shorter than 8,
 * with bytes above 0x7f; a few samples outside every symbol (region
 * rows with a spec that lists them).  The order must be cmp_name's,
 * checked against the reference below. */

typedef struct ref_row {
	const char *name;
	int region;
	uint64_t address, count, calls;
} ref_row;

static int ref_cmp(const void *a, const void *b)
{
	const ref_row *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	if (x->region != y->region)
		return x->region ? 1 : -1;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->address < y->address ? -1 : x->address > y->address;
}

/* DDJ's order (PC_TIE_ADDRESS): count, most first, then symbols by
 * address, then region rows */
static int ref_cmp_address(const void *a, const void *b)
{
	const ref_row *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->region != y->region)
		return x->region ? 1 : -1;
	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* n symbols with counts below mod (0: none), some with calls, names alike
 * in long prefixes, and a region row: the rows in ref_cmp's order (tie
 * PC_TIE_NAME) or ref_cmp_address's (PC_TIE_ADDRESS) */
static void check_tie_order(unsigned N, unsigned mod, pc_tie tie, int extras)
{
	static const char *const stems[] = {
		"_ZN9namespace5klass6methodEv", "_ZN9namespace5klass6method", "_ZN9namesp",
		"abcdefgh", "abcdefghi", "abcdefg", "ab", "b", "\xc3\xa9t\xc3\xa9_",
		"z", "_ZN9namespace5klass7method2Ev"};
	char (*names)[64] = malloc(N * sizeof *names);
	ref_row *ref = malloc((N + 8) * sizeof *ref);
	assert_non_null(names);
	assert_non_null(ref);
	size_t nref = 0;
	pc_profile *p;
	pc_profile_new(&p, NULL);
	uint32_t seed = 12345;
	for (unsigned i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		const char *stem = stems[(seed >> 16) % (sizeof stems / sizeof stems[0])];
		/* every third a stem alone or with a short suffix: names alike */
		if (i % 3 == 0)
			snprintf(names[i], sizeof names[i], "%s%u", stem, i % 7);
		else
			snprintf(names[i], sizeof names[i], "%s%u", stem, i);
		pc_symbol s = {0};
		s.name = names[i];
		s.segment = PC_NOSEG;
		s.address = 0x1000 + 0x10 * (uint64_t)i;
		s.kind = PC_SYM_TEXT;
		assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
		uint64_t count = (seed >> 8) % mod,
			 calls = extras && (seed >> 12) % 3 == 0 ? (seed >> 4) % 2 + 1 : 0;
		if (count)
			assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, s.address, count), PC_OK);
		if (calls) {
			pc_arc a = {0};
			a.from_segment = a.to_segment = PC_NOSEG;
			a.from = 0x1000 + 0x10 * (uint64_t)((i + 1) % N);
			a.to = s.address;
			a.count = calls;
			assert_int_equal(pc_profile_add_arc(p, &a), PC_OK);
		}
		if (count || calls) /* listed: a count, or calls */
			ref[nref++] = (ref_row){names[i], 0, s.address, count, calls};
	}
	pc_region r = {PC_NOSEG, 0x1000, 0x1000 + 0x10 * N, PC_REGION_APPLICATION, "program"};
	assert_int_equal(pc_profile_add_region(p, &r), PC_OK);
	/* 2 samples below the program: a region row "(unknown)" tied with
	 * the symbols of 2 samples and no calls, after them */
	if (extras) {
		assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, 0x10, 2), PC_OK);
		ref[nref++] = (ref_row){"(unknown)", 1, 0, 2, 0};
	}
	qsort(ref, nref, sizeof *ref, tie == PC_TIE_NAME ? ref_cmp : ref_cmp_address);

	const pc_rowset_spec spec = {PC_BASE_TOTAL, tie, extras};
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	pc_rowset rs;
	assert_int_equal(pc_rowset_build(p, o, &spec, &rs), PC_OK);
	assert_int_equal(rs.n, nref);
	for (size_t i = 0; i < rs.n; i++) {
		assert_string_equal(rs.rows[i].label, ref[i].name);
		assert_int_equal(rs.rows[i].count, ref[i].count);
		assert_int_equal(rs.rows[i].calls, ref[i].calls);
		assert_int_equal(rs.rows[i].rank, i + 1);
	}
	pc_rowset_dispose(&rs);
	pc_options_free(o);
	pc_profile_free(p);
	free(names);
	free(ref);
}

static void tie_order(void **state)
{
	(void)state;
	check_tie_order(300, 4, PC_TIE_NAME, 1);
	/* many rows: the radix sorts by count rank (few distinct counts)
	 * and, beyond 2048 distinct counts, by the counts themselves; with
	 * calls and a region row, and without (then one sort by the rank
	 * over the name prefix: one count and 2 to 40 ranks too) */
	for (int t = 0; t < 4; t++) {
		pc_tie tie = t & 1 ? PC_TIE_ADDRESS : PC_TIE_NAME;
		check_tie_order(6000, 40, tie, t < 2);
		check_tie_order(6000, 4000, tie, t < 2);
	}
	check_tie_order(3000, 2, PC_TIE_NAME, 0);
	check_tie_order(3000, 3, PC_TIE_NAME, 0);
	/* 10,240 rows or more: the rank table in the sort's own room */
	check_tie_order(12000, 60, PC_TIE_NAME, 0);
	check_tie_order(12000, 60, PC_TIE_NAME, 1);
}

/* pc_sink_count's form of a count, with printf: integers as "%.0f",
 * others with 6 decimals and no trailing zeros */
static void count_text(double v, char *buf, size_t n)
{
	if (v == floor(v) && fabs(v) < 9e15) {
		snprintf(buf, n, "%.0f", v);
		return;
	}
	snprintf(buf, n, "%.6f", v);
	size_t l = strlen(buf);
	while (l > 0 && buf[l - 1] == '0')
		buf[--l] = '\0';
	if (l > 0 && buf[l - 1] == '.')
		buf[--l] = '\0';
}

static uint64_t rng_state = 0x2545f4914f6cdd1du;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* a double a row may carry: integers small and large, bucket shares,
 * ties at 4 and 6 decimals, values near 10^9, -0, any bits */
static double row_value(void)
{
	uint64_t r = rnd();
	switch (r % 8) {
	case 0: return (double)(rnd() % 100000);
	case 1: return (double)(rnd() % 4000000000000u);
	case 2: return (double)(rnd() % 20000) * 1.9574;
	case 3: return ldexp((double)(rnd() % 2000000), -(int)(1 + rnd() % 20));
	case 4: return 1e9 + ((double)(rnd() % 2001) - 1000) / 64.0;
	case 5: return (rnd() & 1) ? -0.0 : -(double)(rnd() % 1000) / 8.0;
	case 6: {
		double v;
		uint64_t b = rnd();
		memcpy(&v, &b, sizeof v);
		return v;
	}
	default: return (double)(rnd() % 3000000) * 100.0 / 2088761.0;
	}
}

/* the CSV and JSON rows (written straight into the sink's buffer) as
 * printf writes each field, for rows with every kind of number, names
 * that need quoting or escaping, names longer than the fast path's,
 * segments, and region rows */
static void machine_rows_like_printf(void **state)
{
	(void)state;
	enum { N = 3000 };
	static const char *const names[] = {"plain", "f48002", "a,b", "q\"x\"", "back\\slash",
					    "caf\xc3\xa9", "tab\there"};
	char *longname = malloc(1501);
	assert_non_null(longname);
	memset(longname, 'n', 1500);
	longname[1500] = '\0';
	pc_rs_row *rows = calloc(N, sizeof *rows);
	assert_non_null(rows);
	for (size_t i = 0; i < N; i++) {
		pc_rs_row *x = &rows[i];
		x->label = i % 97 == 5 ? longname : names[rnd() % 7];
		x->region = i % 50 == 7 ? (int)(1 + rnd() % 7) : -1;
		x->segment = rnd() % 3 ? PC_NOSEG : (uint32_t)(rnd() % 70000);
		x->address = rnd() % 2 ? 0x400000 + rnd() % 100000 : rnd();
		x->count = row_value();
		x->percent = row_value();
		x->cum_percent = row_value();
		x->calls = rnd() % 2 ? rnd() % 1000 : rnd();
		x->self_calls = rnd() % 3 ? 0 : rnd() % 100;
		x->rank = i + 1;
	}
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	for (int pass = 0; pass < 2; pass++) {
		pc_rowset rs;
		memset(&rs, 0, sizeof rs);
		rs.rows = rows;
		rs.n = rs.selected = N;
		rs.rate = pass ? 100 : 0;
		for (int json = 0; json < 2; json++) {
			pc_sink k;
			pc_sink_init(&k);
			if (json)
				assert_int_equal(pc_rowset_json(p, &rs, "flat", NULL, NULL, NULL, &k),
						 PC_OK);
			else
				assert_int_equal(pc_rowset_csv(p, &rs, &k), PC_OK);
			const char *at = k.buf;
			at = json ? strstr(at, "\"rows\": [\n") + 10 : strchr(at, '\n') + 1;
			for (size_t i = 0; i < N; i++) {
				const pc_rs_row *x = &rows[i];
				char want[4096], cnt[400], sec[400] = "", name[3200] = "";
				count_text(x->count, cnt, sizeof cnt);
				size_t m = 0;
				for (const char *c = x->label; *c; c++) { /* csv or json form */
					if (json && (*c == '"' || *c == '\\'))
						name[m++] = '\\';
					else if (!json && *c == '"')
						name[m++] = '"';
					if (*c == '\t') { /* shown as \x09; JSON escapes its backslash */
						if (json)
							name[m++] = '\\';
						memcpy(name + m, "\\x09", 4);
						m += 4;
						continue;
					}
					name[m++] = *c;
				}
				name[m] = '\0';
				int quote = !json && strpbrk(x->label, ",\"");
				if (json) {
					char where[128];
					if (x->region >= 0)
						snprintf(where, sizeof where, ", \"region\": \"%s\"",
							 pc_region_class_name((pc_region_class)x->region));
					else if (x->segment != PC_NOSEG)
						snprintf(where, sizeof where, ", \"segment\": %u, \"address\": %llu",
							 (unsigned)x->segment, (unsigned long long)x->address);
					else
						snprintf(where, sizeof where, ", \"address\": %llu",
							 (unsigned long long)x->address);
					if (rs.rate > 0)
						snprintf(sec, sizeof sec, ", \"self_seconds\": %.6f", x->count / rs.rate);
					snprintf(want, sizeof want,
						 "%s    {\"rank\": %zu, \"symbol\": \"%s\"%s, \"count\": %s, \"percent\": %.4f, \"cum_percent\": %.4f%s, \"calls\": %llu, \"self_calls\": %llu}",
						 i ? ",\n" : "", x->rank, name, where, cnt, x->percent,
						 x->cum_percent, sec, (unsigned long long)x->calls,
						 (unsigned long long)x->self_calls);
				} else {
					char where[64] = "";
					if (x->region < 0 && x->segment != PC_NOSEG)
						snprintf(where, sizeof where, "%04x:0x%llx", (unsigned)x->segment,
							 (unsigned long long)x->address);
					else if (x->region < 0)
						snprintf(where, sizeof where, "0x%llx",
							 (unsigned long long)x->address);
					if (rs.rate > 0)
						snprintf(sec, sizeof sec, "%.6f", x->count / rs.rate);
					snprintf(want, sizeof want, "%zu,%s%s%s,%s,%.4f,%.4f,%s,%llu,%llu,%s\n",
						 x->rank, quote ? "\"" : "", name, quote ? "\"" : "", cnt,
						 x->percent, x->cum_percent, sec,
						 (unsigned long long)x->calls,
						 (unsigned long long)x->self_calls, where);
				}
				size_t wl = strlen(want);
				if (strncmp(at, want, wl) != 0)
					fail_msg("%s row %zu: want '%s', got '%.*s'", json ? "json" : "csv", i,
						 want, (int)wl, at);
				at += wl;
			}
			pc_sink_dispose(&k);
		}
	}
	pc_profile_free(p);
	free(rows);
	free(longname);
}

/* the flat table's rank column ("%4llu") over 10,050 rows: every width
 * from 1 to 5 digits */
static void flat_ranks(void **state)
{
	(void)state;
	enum { N = 10050 };
	static char names[N][16];
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	for (unsigned i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "g%u", i);
		pc_symbol s = {0};
		s.name = names[i];
		s.segment = PC_NOSEG;
		s.address = 0x1000 + 0x10 * (uint64_t)i;
		s.kind = PC_SYM_TEXT;
		assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
		assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, s.address, 1 + i % 13), PC_OK);
	}
	pc_region r = {PC_NOSEG, 0x1000, 0x1000 + 0x10 * N, PC_REGION_APPLICATION, "program"};
	assert_int_equal(pc_profile_add_region(p, &r), PC_OK);
	char *buf;
	size_t len;
	assert_int_equal(pc_profile_render(&buf, &len, p, NULL, NULL), PC_OK);
	const char *at = strstr(buf, "\nrank  symbol");
	assert_non_null(at);
	at = strchr(at + 1, '\n') + 1;
	for (size_t i = 0; i < N; i++) {
		char want[32];
		int n = snprintf(want, sizeof want, "%4zu  g", i + 1);
		if (strncmp(at, want, (size_t)n) != 0)
			fail_msg("row %zu: want '%s', got '%.*s'", i, want, n, at);
		at = strchr(at, '\n');
		assert_non_null(at);
		at++;
	}
	pc_free(buf);
	pc_profile_free(p);
}

/* the flat table's rows of one count (their count, percent, self
 * seconds and bar copied from the row above: the fast path of flat.c
 * and rowset.c) against printf: 300 rows of counts 1 to 5, in runs of
 * one count, at 100 Hz; and the same rows as csv and json */
typedef struct same_row {
	unsigned name, count;
} same_row;

static int cmp_same_row(const void *a, const void *b)
{
	const same_row *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

static void flat_same_counts(void **state)
{
	(void)state;
	enum { N = 300 };
	static char names[N][8];
	same_row ref[N];
	unsigned total = 0;
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	for (unsigned i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "s%03u", i);
		pc_symbol s = {0};
		s.name = names[i];
		s.segment = PC_NOSEG;
		s.address = 0x1000 + 0x10 * (uint64_t)i;
		s.kind = PC_SYM_TEXT;
		assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
		ref[i] = (same_row){i, 1 + (i * 7) % 5};
		total += ref[i].count;
		assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, s.address, ref[i].count), PC_OK);
	}
	assert_int_equal(total, 900);
	pc_region r = {PC_NOSEG, 0x1000, 0x1000 + 0x10 * N, PC_REGION_APPLICATION, "program"};
	assert_int_equal(pc_profile_add_region(p, &r), PC_OK);
	assert_int_equal(pc_profile_set_rate(p, 100), PC_OK);
	qsort(ref, N, sizeof *ref, cmp_same_row);
	char *buf;
	size_t len;
	assert_int_equal(pc_profile_render(&buf, &len, p, NULL, NULL), PC_OK);
	const char *at = strstr(buf, "\nrank  symbol");
	assert_non_null(at);
	at = strchr(at + 1, '\n') + 1;
	unsigned cum = 0;
	for (size_t i = 0; i < N; i++) {
		char want[128], bar[24];
		cum += ref[i].count;
		size_t b = (size_t)ref[i].count * 20 / 5; /* (the largest count: 5) */
		memset(bar, '#', b);
		bar[b] = '\0';
		snprintf(want, sizeof want, "%4zu  %-6s  %8u  %7.2f  %7.2f  %9.2f  %s\n", i + 1,
			 names[ref[i].name], ref[i].count, ref[i].count * 100.0 / total,
			 cum * 100.0 / total, ref[i].count / 100.0, bar);
		size_t n = strlen(want);
		if (strncmp(at, want, n) != 0)
			fail_msg("row %zu: want '%s', got '%.*s'", i, want, (int)n, at);
		at += n;
	}
	assert_string_equal(at, "");
	pc_free(buf);
	/* csv and json: the same rows */
	for (int json = 0; json < 2; json++) {
		pc_options *o;
		assert_int_equal(pc_options_new(&o), PC_OK);
		assert_int_equal(pc_options_parse(o, json ? "output-format=json"
							  : "output-format=csv"), PC_OK);
		assert_int_equal(pc_profile_render(&buf, &len, p, NULL, o),
				 PC_OK);
		at = json ? strstr(buf, "\"rows\": [") + 9 : strchr(buf, '\n') + 1;
		cum = 0;
		for (size_t i = 0; i < N; i++) {
			char want[256];
			unsigned c = ref[i].count;
			cum += c;
			if (json)
				snprintf(want, sizeof want,
					 "%s\n    {\"rank\": %zu, \"symbol\": \"%s\", \"address\": %u, "
					 "\"count\": %u, \"percent\": %.4f, \"cum_percent\": %.4f, "
					 "\"self_seconds\": %.6f, \"calls\": 0, \"self_calls\": 0}",
					 i ? "," : "", i + 1, names[ref[i].name],
					 0x1000 + 0x10 * ref[i].name, c, c * 100.0 / total,
					 cum * 100.0 / total, c / 100.0);
			else
				snprintf(want, sizeof want, "%zu,%s,%u,%.4f,%.4f,%.6f,0,0,0x%x\n",
					 i + 1, names[ref[i].name], c, c * 100.0 / total,
					 cum * 100.0 / total, c / 100.0, 0x1000 + 0x10 * ref[i].name);
			size_t n = strlen(want);
			if (strncmp(at, want, n) != 0)
				fail_msg("%s row %zu: want '%s', got '%.*s'", json ? "json" : "csv",
					 i, want, (int)n, at);
			at += n;
		}
		assert_true(json ? !strncmp(at, "\n  ]", 4) : !strncmp(at, ",[total],900,", 13));
		pc_free(buf);
		pc_options_free(o);
	}
	pc_profile_free(p);
}

/* pc_rowset_build_compact against pc_rowset_build: every field of every
 * row alike, read in order and backwards; compact (no row array) where
 * the listing allows it */
static void compact_case(pc_profile *p, const char *const *kv, int want_compact,
			 size_t want_n)
{
	static const pc_rowset_spec spec = {PC_BASE_TOTAL, PC_TIE_NAME, 0};
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	for (; *kv; kv++)
		assert_int_equal(pc_options_parse(o, *kv), PC_OK);
	pc_rowset a, b;
	assert_int_equal(pc_rowset_build(p, o, &spec, &a), PC_OK);
	assert_int_equal(pc_rowset_build_compact(p, o, &spec, &b), PC_OK);
	assert_int_equal(b.rows == NULL, want_compact);
	assert_int_equal(a.n, want_n);
	assert_int_equal(b.n, a.n);
	assert_int_equal(b.selected, a.selected);
	assert_int_equal(b.targets, a.targets);
	assert_true(b.listed == a.listed);
	assert_true(b.max_count == a.max_count);
	assert_int_equal(b.fractional, a.fractional);
	assert_int_equal(b.has_calls, a.has_calls);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t j = 0; j < a.n; j++) {
			size_t i = pass ? a.n - 1 - j : j;
			pc_rs_row buf;
			const pc_rs_row *x = &a.rows[i], *y = pc_rowset_row(&b, i, &buf);
			assert_string_equal(pc_rowset_label(&b, i), x->label);
			assert_string_equal(y->label, x->label);
			assert_string_equal(y->key, x->key);
			assert_int_equal(y->region, x->region);
			assert_int_equal(y->segment, x->segment);
			assert_int_equal(y->row, x->row);
			assert_int_equal(y->address, x->address);
			assert_int_equal(y->end, x->end);
			assert_true(y->count == x->count);
			assert_int_equal(y->calls, x->calls);
			assert_int_equal(y->self_calls, x->self_calls);
			assert_int_equal(y->rank, i + 1);
			assert_int_equal(y->rank, x->rank);
			assert_true(y->percent == x->percent);
			if (y->cum_percent != x->cum_percent)
				fail_msg("row %zu: cum %.17g, want %.17g", i, y->cum_percent,
					 x->cum_percent);
			/* the fields csv and json read, and those of the text */
			pc_rs_row mb, tb;
			const pc_rs_row *m = pc_rowset_row_machine(&b, i, &mb);
			assert_string_equal(m->label, x->label);
			assert_int_equal(m->segment, x->segment);
			assert_int_equal(m->address, x->address);
			assert_int_equal(m->end, x->end);
			assert_int_equal(m->row, x->row);
			assert_int_equal(m->region, -1);
			assert_true(m->count == x->count && m->percent == x->percent &&
				    m->cum_percent == x->cum_percent);
			assert_int_equal(m->calls, x->calls);
			assert_int_equal(m->self_calls, x->self_calls);
			const pc_rs_row *t = pc_rowset_row_text(&b, i, &tb);
			assert_string_equal(t->label, x->label);
			assert_int_equal(t->rank, x->rank);
			assert_true(t->count == x->count && t->percent == x->percent &&
				    t->cum_percent == x->cum_percent);
			assert_int_equal(t->calls, x->calls);
			assert_int_equal(t->self_calls, x->self_calls);
		}
	}
	pc_rowset_dispose(&a);
	pc_rowset_dispose(&b);
	pc_options_free(o);
}

static void compact_rows(void **state)
{
	(void)state;
	static const char *const stems[] = {
		"_ZN9namespace5klass6methodEv", "_ZN9namesp", "abcdefgh", "abcdefghi",
		"b", "\xc3\xa9t\xc3\xa9_", ".L_x", "z"};
	enum { N = 3000 };
	static char names[N][64];
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	uint32_t seed = 777;
	size_t hit = 0, sum = 0;
	for (unsigned i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		const char *stem = stems[(seed >> 16) % (sizeof stems / sizeof stems[0])];
		snprintf(names[i], sizeof names[i], "%s%u", stem, i % 3 ? i : i % 5);
		pc_symbol s = {0};
		s.name = names[i];
		s.segment = PC_NOSEG;
		s.address = 0x1000 + 0x10 * (uint64_t)i;
		s.kind = PC_SYM_TEXT;
		assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
		/* counts 0 to 29, a third unsampled; 2 in the 4-byte split */
		uint64_t count = (seed >> 8) % 45;
		if (count < 30 && count) {
			assert_int_equal(pc_profile_add_sample(p, PC_NOSEG, s.address, count),
					 PC_OK);
			hit++, sum += count;
		}
	}
	pc_region r = {PC_NOSEG, 0x1000, 0x1000 + 0x10 * N, PC_REGION_APPLICATION, "program"};
	assert_int_equal(pc_profile_add_region(p, &r), PC_OK);
	assert_int_equal(hit, 1950);
	assert_int_equal(sum, 29579);
	const char *none[] = {NULL};
	const char *self[] = {"sort=self", NULL};
	const char *top[] = {"top=700", NULL};
	const char *cut[] = {"cutoff=50", NULL};
	const char *zero[] = {"zero=1", NULL};
	const char *zcut[] = {"zero=1", "cutoff=100", NULL};
	const char *ztop[] = {"zero=1", "top=2500", "cutoff=100", NULL};
	const char *plain[] = {"demangle=none", NULL};
	const char *name[] = {"sort=name", NULL};
	const char *line[] = {"granularity=function", NULL};
	const char *foc[] = {"focus=^_Z", NULL};
	compact_case(p, none, 1, hit);
	compact_case(p, self, 1, hit);
	compact_case(p, top, 1, 700);
	compact_case(p, cut, 1, 589);
	compact_case(p, zero, 1, N);
	compact_case(p, zcut, 1, N);
	compact_case(p, ztop, 1, 2500);
	compact_case(p, plain, 1, hit);
	/* the other listings: rows as before */
	compact_case(p, name, 0, hit);
	compact_case(p, line, 0, hit);
	compact_case(p, foc, 0, 467);
	/* a call (to a sampled symbol): rows as before */
	pc_arc a = {0};
	a.from_segment = a.to_segment = PC_NOSEG;
	a.from = 0x1000;
	a.to = 0x1010;
	a.count = 3;
	assert_int_equal(pc_profile_add_arc(p, &a), PC_OK);
	compact_case(p, none, 0, hit);
	pc_profile_free(p);
}

/* The display-name cache (demangle.c): a map while few names are asked
 * for, the array of every symbol's once the map would be as large; the
 * names the same either way. */
static void display_cache(void **state)
{
	(void)state;
	enum { N = 4000 };
	static char names[N][24], want[N][24];
	pc_profile *p;
	assert_int_equal(pc_profile_new(&p, NULL), PC_OK);
	int dm = pc_demangler_available();
	for (unsigned i = 0; i < N; i++) {
		char fn[16];
		snprintf(fn, sizeof fn, "f%u", i);
		/* every other name mangled ("_Z5f1234v" is f1234()) */
		if (i % 2)
			snprintf(names[i], sizeof names[i], "g%u", i);
		else
			snprintf(names[i], sizeof names[i], "_Z%zu%sv", strlen(fn), fn);
		if (i % 2 || !dm)
			memcpy(want[i], names[i], sizeof want[i]);
		else
			snprintf(want[i], sizeof want[i], "%s()", fn);
		pc_symbol s = {0};
		s.name = names[i];
		s.segment = PC_NOSEG;
		s.address = 0x1000 + 0x10 * (uint64_t)i;
		s.kind = PC_SYM_TEXT;
		assert_int_equal(pc_profile_add_symbol(p, &s), PC_OK);
	}
	/* 3 names asked for (one twice), and the unmangled ones: a map of 16 */
	static const unsigned few[] = {1000, 2, 3998, 1000, 7, 1};
	for (size_t k = 0; k < 6; k++)
		assert_string_equal(pc_symbol_display(p, few[k]), want[few[k]]);
	assert_null(p->display);
	assert_int_equal(p->dmapn, dm ? 3 : 0);
	assert_int_equal(p->dmapcap, dm ? 16 : 0);
	/* then all: the map doubles up to 1,024 slots (512 names: the 511
	 * below 1022 and 3998), and the next doubling, 2,048 slots of 16
	 * bytes, would take more than the array of 4,000 pointers: the
	 * array instead */
	for (unsigned i = 0; i < N; i += 2) {
		assert_string_equal(pc_symbol_display(p, i), want[i]);
		if (dm && i / 2 + 1 == 511) {
			assert_null(p->display);
			assert_int_equal(p->dmapcap, 1024);
		}
	}
	if (dm) {
		assert_non_null(p->display);
		assert_null(p->dmap);
		assert_int_equal(p->ndisplay, N);
	}
	for (unsigned i = 0; i < N; i++)
		assert_string_equal(pc_symbol_display(p, i), want[i]);
	const char *shown = NULL;
	assert_int_equal(pc_profile_symbol_display_name(&shown, p, 3998, PC_DEMANGLE_AUTO), PC_OK);
	assert_string_equal(shown, want[3998]);
	pc_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bars),
		cmocka_unit_test(axis),
		cmocka_unit_test(rounding_and_text),
		cmocka_unit_test(selection),
		cmocka_unit_test(bad_options),
		cmocka_unit_test(tie_order),
		cmocka_unit_test(machine_rows_like_printf),
		cmocka_unit_test(flat_ranks),
		cmocka_unit_test(flat_same_counts),
		cmocka_unit_test(compact_rows),
		cmocka_unit_test(display_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
