/* intervals.c - one symbol's (or one address range's) samples, split into
 * N equal sub-ranges: the Atari ST Profiler's "x=sym i=N" detail.
 *
 * Interval i of [low, high) with n intervals is
 * [low + floor(i*len/n), low + floor((i+1)*len/n)), len = high - low, so
 * the sizes differ by at most one address; a range shorter than n
 * addresses gets one interval per address.  Raw samples count where they
 * fell; a histogram bucket is split over the intervals it overlaps in
 * proportion to the overlap, counted in the histogram's address units as
 * attribution does for symbols (bucket-start attribution: wholly to the
 * interval holding its first address), so a symbol's intervals add up to
 * its count.  Percents are of the samples in the whole range.
 */
#include "styles.h"
#include "filter.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_INTERVALS 25
#define MAX_INTERVALS 1000000u
#define BAR_WIDTH 35

void pc_intervals_dispose(pc_intervals *iv)
{
	free(iv->iv);
	memset(iv, 0, sizeof *iv);
}

/* low + floor(i * len / n) without overflow (n <= MAX_INTERVALS). */
static uint64_t bound(const pc_intervals *iv, size_t i)
{
	uint64_t len = iv->high - iv->low, n = iv->n;
	return iv->low + (len / n) * i + ((len % n) * i) / n;
}

/* Index of the interval holding a (low <= a < high). */
static size_t find(const pc_intervals *iv, uint64_t a)
{
	size_t lo = 0, hi = iv->n; /* bound(lo) <= a < bound(hi) */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (bound(iv, mid) <= a)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static int parse_u64(const char *s, const char **end, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return -1;
	char *e;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 0);
	if (errno || e == s)
		return -1;
	*out = v;
	*end = e;
	return 0;
}

/* [SEG:]LOW-HIGH or [SEG:]LOW+SIZE */
static int parse_range(const char *s, uint32_t *seg, uint64_t *lo,
		       uint64_t *hi)
{
	const char *e;
	uint64_t a, b;
	*seg = PC_NOSEG;
	if (parse_u64(s, &e, &a))
		return -1;
	if (*e == ':') {
		if (a >= PC_NOSEG)
			return -1;
		*seg = (uint32_t)a;
		if (parse_u64(e + 1, &e, &a))
			return -1;
	}
	char op = *e;
	if ((op != '-' && op != '+') || parse_u64(e + 1, &e, &b) || *e)
		return -1;
	if (op == '+' && pc_add_overflow(a, b, &b))
		return -1;
	if (b <= a)
		return -1;
	*lo = a;
	*hi = b;
	return 0;
}

/* Highest address holding data in seg, plus one (0 when none). */
static uint64_t data_end(pc_profile *p, uint32_t seg)
{
	uint64_t end = 0;
	for (size_t i = 0; i < pc_profile_sample_count(p); i++) {
		uint32_t s;
		uint64_t a, c;
		if (pc_profile_sample_at(&s, &a, &c, p, i) == PC_OK && s == seg &&
		    a + 1 > end && a != UINT64_MAX)
			end = a + 1;
	}
	for (size_t i = 0; i < pc_profile_histogram_count(p); i++) {
		pc_histogram h;
		if (pc_profile_histogram_at(&h, p, i) == PC_OK && h.segment == seg &&
		    h.high > end)
			end = h.high;
	}
	return end;
}

static int locate(pc_profile *p, const char *what, pc_intervals *iv)
{
	size_t n = pc_profile_rows(p), found = 0;
	for (size_t i = 0; i < n; i++) {
		pc_row row;
		int r = pc_profile_row_at(&row, p, i);
		if (r)
			return r;
		if (strcmp(row.name, what) != 0)
			continue;
		if (found++)
			return pc_profile_fail(p, PC_EAMBIGUOUS,
					       "interval: several symbols are named '%s'; give an address range",
					       what);
		iv->segment = row.segment;
		iv->low = row.address;
		iv->high = row.end;
	}
	if (found) {
		if (iv->high == UINT64_MAX) { /* unbounded: up to the last data */
			uint64_t e = data_end(p, iv->segment);
			iv->high = e > iv->low ? e : iv->low + 1;
		}
		if (iv->high <= iv->low)
			return pc_profile_fail(p, PC_EUSAGE,
					       "interval: symbol '%s' has no extent (no size, and no symbol or program region after it); give an address range",
					       what);
		return PC_OK;
	}
	if (parse_range(what, &iv->segment, &iv->low, &iv->high) == 0)
		return PC_OK;
	return pc_profile_fail(p, PC_ENOTFOUND,
			       "interval: no code symbol named '%s' (nor an address range LOW-HIGH or LOW+SIZE)",
			       what);
}

/* Splits each bucket as attribution does (libprofcore/attrib.c, after
 * gprof): in address units of h->unit, interval bounds rounded down to a
 * unit, a bucket's count shared in proportion to the units it overlaps;
 * so the intervals of a symbol add up to its count. */
static void add_hist(pc_intervals *iv, const pc_histogram *h, int bucket_start,
		     uint64_t clo, uint64_t chi)
{
	uint64_t u = h->unit ? h->unit : 1;
	double scale = (double)((h->high - h->low) / u) / (double)h->nbins;
	uint64_t lo_u = h->low / u;
	uint64_t r_lo = clo / u, r_hi = chi / u;
	for (size_t i = 0; i < h->nbins; i++) {
		uint64_t c = h->counts[i];
		if (!c)
			continue;
		uint64_t b_lo = lo_u + (uint64_t)(scale * (double)i);
		uint64_t b_hi = lo_u + (uint64_t)(scale * (double)(i + 1));
		if (bucket_start) {
			uint64_t a = h->low + (uint64_t)((long double)(h->high - h->low) /
							 (long double)h->nbins *
							 (long double)i);
			if (a >= clo && a < chi) {
				iv->iv[find(iv, a)].count += (double)c;
				iv->total += (double)c;
			}
			continue;
		}
		uint64_t from = b_lo > r_lo ? b_lo : r_lo;
		uint64_t to = b_hi < r_hi ? b_hi : r_hi;
		if (to <= from)
			continue;
		for (size_t j = find(iv, from * u < clo ? clo : from * u);
		     j < iv->n; j++) {
			uint64_t a = bound(iv, j) / u, b = bound(iv, j + 1) / u;
			if (a >= to)
				break;
			a = a > from ? a : from;
			b = b < to ? b : to;
			if (b <= a)
				continue;
			double share = (double)(b - a) * (double)c / scale;
			iv->iv[j].count += share;
			iv->total += share;
		}
	}
}

/* The samples in [clo, chi) (inside the range) onto the intervals. */
static int accumulate(pc_profile *p, pc_intervals *iv, uint64_t clo,
		      uint64_t chi, int bucket_start)
{
	int r;
	for (size_t i = 0; i < pc_profile_sample_count(p); i++) {
		uint32_t s;
		uint64_t a, c;
		if ((r = pc_profile_sample_at(&s, &a, &c, p, i)))
			return r;
		if (s != iv->segment || a < clo || a >= chi)
			continue;
		iv->iv[find(iv, a)].count += (double)c;
		iv->total += (double)c;
	}
	for (size_t i = 0; i < pc_profile_histogram_count(p); i++) {
		pc_histogram h;
		if ((r = pc_profile_histogram_at(&h, p, i)))
			return r;
		if (h.segment == iv->segment && h.nbins)
			add_hist(iv, &h, bucket_start, clo, chi);
	}
	return PC_OK;
}

int pc_intervals_build(pc_profile *p, const pc_options *o, pc_intervals *iv)
{
	memset(iv, 0, sizeof *iv);
	const char *what = pc_options_get(o, "interval");
	if (!what || !*what)
		return pc_profile_fail(p, PC_EUSAGE,
				       "the intervals report needs a symbol or an address range (interval=SYM)");
	uint64_t asked = DEFAULT_INTERVALS;
	int given = 0;
	int r = pc_options_get_u64(&asked, &given, o, "intervals");
	if (r < 0 || (given && (asked == 0 || asked > MAX_INTERVALS)))
		return pc_profile_fail(p, PC_EUSAGE,
				       "intervals must be a number from 1 to %u, not '%s'",
				       MAX_INTERVALS, pc_options_get(o, "intervals"));
	const pc_attrib_options *ao = pc_options_attrib(o);
	int bucket_start = ao && ao->rule == PC_ATTRIBUTION_BUCKET_START;
	if ((r = pc_profile_attribute(p, pc_options_attrib(o))))
		return r;
	iv->what = what;
	if ((r = locate(p, what, iv)))
		return r;
	if (!pc_profile_samples_per_address(p))
		return pc_profile_fail(p, PC_EUNSUPPORTED,
				       "the intervals report needs samples per address, but this capture has more than 131072 distinct addresses and was counted per interval between symbols");
	iv->asked = (size_t)asked;
	uint64_t len = iv->high - iv->low;
	iv->n = len < asked ? (size_t)len : (size_t)asked;
	iv->iv = calloc(iv->n, sizeof *iv->iv);
	if (!iv->iv)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	for (size_t i = 0; i < iv->n; i++) {
		iv->iv[i].low = bound(iv, i);
		iv->iv[i].high = bound(iv, i + 1);
	}
	if ((r = accumulate(p, iv, iv->low, iv->high, bucket_start)))
		goto fail;
	/* --focus/--ignore/--hide: the samples of the symbols that pass
	 * (filter.c), counted again part by part */
	pc_rowfilter rf;
	if ((r = pc_rowfilter_init(p, o, &rf))) {
		pc_rowfilter_dispose(&rf);
		goto fail;
	}
	iv->opts = o;
	iv->all = iv->total;
	if (rf.any) {
		pc_addr_range *kr = NULL;
		size_t nk = 0;
		iv->filtered = 1;
		iv->total = 0;
		for (size_t i = 0; i < iv->n; i++)
			iv->iv[i].count = 0;
		r = pc_rowfilter_ranges(&rf, iv->segment, iv->low, iv->high, &kr, &nk);
		for (size_t i = 0; !r && i < nk; i++)
			r = accumulate(p, iv, kr[i].low, kr[i].high, bucket_start);
		free(kr);
	}
	pc_rowfilter_dispose(&rf);
	if (r)
		goto fail;
	for (size_t i = 0; i < iv->n; i++) {
		pc_interval *x = &iv->iv[i];
		x->percent = iv->total > 0 ? x->count * 100.0 / iv->total : 0;
		if (x->count > iv->max_count)
			iv->max_count = x->count;
	}
	return PC_OK;
fail:
	pc_intervals_dispose(iv);
	return r;
}

const char *pc_interval_range(const pc_intervals *iv, size_t i, char *buf,
			      size_t n)
{
	const pc_interval *x = &iv->iv[i];
	if (iv->segment != PC_NOSEG)
		snprintf(buf, n, "%04" PRIx32 ":0x%" PRIx64 "-0x%" PRIx64, iv->segment,
			 x->low, x->high);
	else
		snprintf(buf, n, "0x%" PRIx64 "-0x%" PRIx64, x->low, x->high);
	return buf;
}

int pc_intervals_csv(const pc_intervals *iv, pc_sink *k)
{
	pc_sink_puts(k, "interval,low,high,count,percent\n");
	for (size_t i = 0; i < iv->n; i++) {
		const pc_interval *x = &iv->iv[i];
		pc_sink_printf(k, "%zu,0x%" PRIx64 ",0x%" PRIx64 ",", i + 1, x->low,
			       x->high);
		pc_sink_count(k, x->count);
		pc_sink_printf(k, ",%.4f\n", x->percent);
	}
	return k->failed;
}

int pc_intervals_json_members(const pc_intervals *iv, pc_sink *k)
{
	pc_sink_puts(k, "\"what\": ");
	pc_sink_json_string(k, iv->what);
	if (iv->segment != PC_NOSEG)
		pc_sink_printf(k, ", \"segment\": %" PRIu32, iv->segment);
	pc_sink_printf(k, ", \"low\": %" PRIu64 ", \"high\": %" PRIu64
		       ", \"intervals_asked\": %zu, \"total\": ",
		       iv->low, iv->high, iv->asked);
	pc_sink_count(k, iv->total);
	if (iv->filtered) {
		pc_sink_puts(k, ", \"filters\": ");
		pc_filter_json(iv->opts, k);
		pc_sink_puts(k, ", \"total_unfiltered\": ");
		pc_sink_count(k, iv->all);
	}
	pc_sink_puts(k, ", \"intervals\": [");
	for (size_t i = 0; i < iv->n; i++) {
		const pc_interval *x = &iv->iv[i];
		pc_sink_printf(k, "%s\n    {\"interval\": %zu, \"low\": %" PRIu64
			       ", \"high\": %" PRIu64 ", \"count\": ",
			       i ? "," : "", i + 1, x->low, x->high);
		pc_sink_count(k, x->count);
		pc_sink_printf(k, ", \"percent\": %.4f}", x->percent);
	}
	pc_sink_puts(k, iv->n ? "\n  ]" : "]");
	return k->failed;
}

/* The "intervals" report, default layout:
 *
 *   _sleepy: 0x1400-0x1800 in 25 intervals, 874 samples
 *
 *      #  address range      count  percent  bar
 *      1  0x1400-0x1428         35     4.00  ****...
 */
void pc_intervals_text(const pc_intervals *iv, int barchart, pc_sink *k)
{
	char buf[96], cnt[48];
	size_t wr = strlen("address range"), wc = strlen("count"), wn = 1;
	for (size_t i = 0; i < iv->n; i++) {
		size_t l = strlen(pc_interval_range(iv, i, buf, sizeof buf));
		wr = l > wr ? l : wr;
		l = strlen(pc_fmt_count(iv->iv[i].count, cnt, sizeof cnt));
		wc = l > wc ? l : wc;
	}
	snprintf(buf, sizeof buf, "%zu", iv->n);
	wn = strlen(buf) > wn ? strlen(buf) : wn;
	char lo[64], hi[64];
	if (iv->segment != PC_NOSEG)
		snprintf(lo, sizeof lo, "%04" PRIx32 ":0x%" PRIx64, iv->segment, iv->low);
	else
		snprintf(lo, sizeof lo, "0x%" PRIx64, iv->low);
	snprintf(hi, sizeof hi, "0x%" PRIx64, iv->high);
	pc_sink_name(k, iv->what);
	pc_sink_printf(k, ": %s-%s in %zu interval%s, %s sample%s", lo, hi, iv->n, iv->n == 1 ? "" : "s",
		       pc_fmt_count(iv->total, cnt, sizeof cnt),
		       iv->total == 1 ? "" : "s");
	if (iv->n < iv->asked)
		pc_sink_printf(k, " (%zu asked; the range has %zu addresses)",
			       iv->asked, iv->n);
	if (iv->filtered) {
		pc_sink_puts(k, "\nFilters: ");
		pc_filter_describe(iv->opts, k);
		pc_sink_printf(k, "; kept %s of ", pc_fmt_count(iv->total, cnt, sizeof cnt));
		pc_sink_printf(k, "%s samples in the range (percents: of the kept)",
			       pc_fmt_count(iv->all, cnt, sizeof cnt));
	}
	pc_sink_puts(k, "\n\n");
	pc_sink_pad(k, "#", wn, 1);
	pc_sink_puts(k, "  ");
	pc_sink_pad(k, "address range", wr, -1);
	pc_sink_puts(k, "  ");
	pc_sink_pad(k, "count", wc, 1);
	pc_sink_puts(k, "  percent");
	pc_sink_puts(k, barchart ? "  bar\n" : "\n");
	for (size_t i = 0; i < iv->n; i++) {
		snprintf(buf, sizeof buf, "%zu", i + 1);
		pc_sink_pad(k, buf, wn, 1);
		pc_sink_puts(k, "  ");
		pc_sink_pad(k, pc_interval_range(iv, i, buf, sizeof buf), wr, -1);
		pc_sink_puts(k, "  ");
		pc_sink_pad(k, pc_fmt_count(iv->iv[i].count, cnt, sizeof cnt), wc, 1);
		pc_sink_printf(k, "  %7.2f", iv->iv[i].percent);
		size_t bar = barchart ? pc_bar_len(iv->iv[i].count, iv->max_count,
						   BAR_WIDTH) : 0;
		if (bar) {
			pc_sink_puts(k, "  ");
			pc_sink_repeat(k, '*', bar);
		}
		pc_sink_putc(k, '\n');
	}
}

static int render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_outfmt fmt;
	int barchart;
	pc_intervals iv;
	int r;
	if ((r = pc_rs_outfmt(p, o, &fmt)) ||
	    (r = pc_rs_bool(p, o, "barchart", 1, &barchart)) ||
	    (r = pc_intervals_build(p, o, &iv)))
		return r;
	switch (fmt) {
	default: /* text, csv, json only: pc_rs_outfmt */
	case PC_OUT_TEXT:
		pc_intervals_text(&iv, barchart, k);
		break;
	case PC_OUT_CSV:
		pc_intervals_csv(&iv, k);
		break;
	case PC_OUT_JSON:
		pc_sink_puts(k, "{\n  \"report\": \"intervals\", ");
		pc_intervals_json_members(&iv, k);
		pc_sink_puts(k, "\n}\n");
		break;
	}
	pc_intervals_dispose(&iv);
	return k->failed;
}

const pc_report pc_report_intervals = {
	"intervals",
	"one symbol's or address range's samples in N equal sub-ranges (interval=SYM intervals=N)",
	render,
};

void pc_intervals_json_extra(pc_sink *k, const void *arg)
{
	pc_sink_puts(k, ",\n  \"interval\": {");
	pc_intervals_json_members(arg, k);
	pc_sink_putc(k, '}');
}
