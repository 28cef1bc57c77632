/*
 * statistics.c - the statistics behind error bars, diffs and merges (README
 * "Statistics").
 *
 *  - pc_stats_z: two-sided standard normal quantile for a confidence level
 *    (Acklam's rational approximation refined by one Halley step on erfc).
 *  - pc_stats_wilson: Wilson score interval for a binomial proportion.
 *  - pc_stats_diff_interval: Newcombe's hybrid score interval (method 10,
 *    Statistics in Medicine 17, 1998) for the difference of two
 *    independent proportions, built from the two Wilson intervals.
 *  - pc_stats_two_proportion: pooled two-proportion z-test, two-sided.
 *  - pc_stats_score_interval (internal): Mee's score interval for the
 *    difference, the inversion of that test (the diff's adjusted
 *    intervals).
 *  - pc_stats_adjust: Holm (family-wise error) or Benjamini-Hochberg
 *    (false discovery rate) adjusted p-values.
 *  - exact-count profiles (pc_profile_set_event_counts) and pc_profile_merge.
 */
#include "model.h"
#include "internal.h"
#include "timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- distributions --------------------------------------------------- */

static double norm_cdf(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

/* Lower-tail standard normal quantile, 0 < p < 1. */
static double norm_quantile(double p)
{
	static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
				   -2.759285104469687e+02, 1.383577518672690e+02,
				   -3.066479806614716e+01, 2.506628277459239e+00};
	static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
				   -1.556989798598866e+02, 6.680131188771972e+01,
				   -1.328068155288572e+01};
	static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
				   -2.400758277161838e+00, -2.549732539343734e+00,
				   4.374664141464968e+00, 2.938163982698783e+00};
	static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
				   2.445134137142996e+00, 3.754408661907416e+00};
	double q, r, x;
	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else if (p > 1 - 0.02425) {
		q = sqrt(-2 * log(1 - p));
		x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	}
	/* one Halley step: full double precision */
	double e = norm_cdf(x) - p;
	double u = e * 2.5066282746310002 /* sqrt(2 pi) */ * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

double pc_stats_z(double confidence)
{
	if (!(confidence > 0 && confidence < 100))
		return 0;
	return norm_quantile(1 - (1 - confidence / 100) / 2);
}

void pc_stats_wilson(double *lo, double *hi, double k, double n, double z)
{
	if (!(n > 0)) { /* no samples: nothing is known */
		*lo = 0;
		*hi = 1;
		return;
	}
	if (k < 0)
		k = 0;
	if (k > n)
		k = n;
	double p = k / n, z2 = z * z;
	double den = 1 + z2 / n;
	double mid = (p + z2 / (2 * n)) / den;
	double half = z / den * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
	double l = mid - half, h = mid + half;
	/* exact ends at 0 and n (rounding would leave 1e-17 crumbs) */
	*lo = k <= 0 ? 0 : l < 0 ? 0 : l;
	*hi = k >= n ? 1 : h > 1 ? 1 : h;
}

void pc_stats_diff_interval(double *lo, double *hi, double k1, double n1,
			    double k2, double n2, double z)
{
	double l1, u1, l2, u2;
	pc_stats_wilson(&l1, &u1, k1, n1, z);
	pc_stats_wilson(&l2, &u2, k2, n2, z);
	double p1 = n1 > 0 ? k1 / n1 : 0, p2 = n2 > 0 ? k2 / n2 : 0;
	double d = p2 - p1;
	*lo = d - sqrt((p2 - l2) * (p2 - l2) + (u1 - p1) * (u1 - p1));
	*hi = d + sqrt((u2 - p2) * (u2 - p2) + (p1 - l1) * (p1 - l1));
}

double pc_stats_two_proportion(double *zstat, double k1, double n1, double k2,
			       double n2)
{
	double z = 0;
	if (n1 > 0 && n2 > 0) {
		double p = (k1 + k2) / (n1 + n2);
		double se = sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
		if (se > 0)
			z = (k2 / n2 - k1 / n1) / se;
	}
	if (zstat)
		*zstat = z;
	double pv = 2 * norm_cdf(-fabs(z));
	return pv > 1 ? 1 : pv;
}

double pc_stats_quantile(double p)
{
	return p > 0 && p < 1 ? norm_quantile(p) : p <= 0 ? -HUGE_VAL : HUGE_VAL;
}

/* The maximum-likelihood proportions (before, after) of k1/n1 and k2/n2
 * under after - before = d (Farrington and Manning, Statistics in
 * Medicine 9, 1990, eq. (8)-(9): the root of a cubic in trigonometric
 * form; their group 1 is "after", theta = n1 / n2). */
static void restricted_mle(double k1, double n1, double k2, double n2, double d,
			   double *pb, double *pa)
{
	double p1 = k2 / n2, p2 = k1 / n1, th = n1 / n2;
	double a = 1 + th;
	double b = -(1 + th + p1 + th * p2 + d * (th + 2));
	double c = d * d + d * (2 * p1 + th + 1) + p1 + th * p2;
	double e = -p1 * d * (1 + d);
	double v = b * b * b / (27 * a * a * a) - b * c / (6 * a * a) + e / (2 * a);
	double uu = b * b / (9 * a * a) - c / (3 * a);
	double u = uu > 0 ? sqrt(uu) : 0;
	if (v < 0)
		u = -u;
	double x;
	if (u == 0) {
		x = -b / (3 * a);
	} else {
		double cw = v / (u * u * u);
		cw = cw > 1 ? 1 : cw < -1 ? -1 : cw;
		x = 2 * u * cos((acos(-1.0) + acos(cw)) / 3) - b / (3 * a);
	}
	/* within the parameter space: after in [max(0, d), min(1, 1 + d)] */
	double lo = d > 0 ? d : 0, hi = d < 0 ? 1 + d : 1;
	x = x < lo ? lo : x > hi ? hi : x;
	*pa = x;
	*pb = x - d < 0 ? 0 : x - d > 1 ? 1 : x - d;
}

/* The score statistic of "p2 - p1 = d": decreasing in d. */
static double score_stat(double k1, double n1, double k2, double n2, double d)
{
	double pb, pa;
	restricted_mle(k1, n1, k2, n2, d, &pb, &pa);
	double num = k2 / n2 - k1 / n1 - d;
	double var = pa * (1 - pa) / n2 + pb * (1 - pb) / n1;
	if (!(var > 0))
		return num > 0 ? HUGE_VAL : num < 0 ? -HUGE_VAL : 0;
	return num / sqrt(var);
}

/* The d in [a, b] where the statistic crosses t (it is above t at a and
 * below at b): bisection to the last bit. */
static double score_root(double k1, double n1, double k2, double n2, double t,
			 double a, double b)
{
	for (int i = 0; i < 200; i++) {
		double m = a + (b - a) / 2;
		if (m <= a || m >= b)
			break;
		if (score_stat(k1, n1, k2, n2, m) > t)
			a = m;
		else
			b = m;
	}
	return a + (b - a) / 2;
}

void pc_stats_score_interval(double k1, double n1, double k2, double n2, double z,
			     double *lo, double *hi)
{
	if (!(n1 > 0) || !(n2 > 0)) {
		*lo = -1;
		*hi = 1;
		return;
	}
	k1 = k1 < 0 ? 0 : k1 > n1 ? n1 : k1;
	k2 = k2 < 0 ? 0 : k2 > n2 ? n2 : k2;
	double d = k2 / n2 - k1 / n1;
	*lo = d <= -1 || !(z > 0) ? d : score_root(k1, n1, k2, n2, z, -1, d);
	*hi = d >= 1 || !(z > 0) ? d : score_root(k1, n1, k2, n2, -z, d, 1);
}

typedef struct pidx {
	double p;
	size_t i;
} pidx;

static int cmp_pidx(const void *a, const void *b)
{
	const pidx *x = a, *y = b;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->i < y->i ? -1 : (x->i > y->i);
}

int pc_stats_adjust(double *adj, const double *p, size_t n,
		    pc_correction method)
{
	if (n == 0)
		return PC_OK;
	if (!p || !adj || (method != PC_CORRECT_HOLM && method != PC_CORRECT_BH))
		return PC_EUSAGE;
	pidx *v = malloc(n * sizeof *v);
	if (!v)
		return PC_ENOMEM;
	for (size_t i = 0; i < n; i++)
		v[i] = (pidx){p[i], i};
	qsort(v, n, sizeof *v, cmp_pidx);
	if (method == PC_CORRECT_HOLM) {
		double run = 0;
		for (size_t j = 0; j < n; j++) {
			double a = (double)(n - j) * v[j].p;
			if (a > 1)
				a = 1;
			if (a > run)
				run = a;
			adj[v[j].i] = run;
		}
	} else {
		double run = 1;
		for (size_t j = n; j-- > 0;) {
			double a = (double)n / (double)(j + 1) * v[j].p;
			if (a < run)
				run = a;
			adj[v[j].i] = run;
		}
	}
	free(v);
	return PC_OK;
}

/* ---- exact counts -------------------------------------------------------- */

int pc_profile_set_event_counts(pc_profile *p, int event_counts)
{
	if (!p)
		return PC_EUSAGE;
	if (event_counts != 0 && event_counts != 1)
		return pc_profile_fail(p, PC_EUSAGE,
				       "event counts flag %d: expected 0 or 1",
				       event_counts);
	p->exact = event_counts;
	return PC_OK;
}

int pc_profile_event_counts(const pc_profile *p)
{
	return p->exact;
}

/* ---- merge -------------------------------------------------------------- */

/* floor(a * b / d) and its remainder, for b <= d (so that the quotient
 * fits), without a 128-bit type: the product in two halves, then binary
 * long division. */
static uint64_t muldiv(uint64_t a, uint64_t b, uint64_t d, uint64_t *rem)
{
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
	uint64_t lo = (p00 & 0xffffffffu) | (mid << 32);
	uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	uint64_t q = 0, r = 0;
	for (int i = 127; i >= 0; i--) {
		uint64_t bit = i >= 64 ? (hi >> (i - 64)) & 1 : (lo >> i) & 1;
		int carry = (int)(r >> 63);
		r = (r << 1) | bit;
		if (carry || r >= d) {
			r -= d;
			if (i < 64)
				q |= (uint64_t)1 << i;
		}
	}
	if (rem)
		*rem = r;
	return q;
}

/* Edge b (0..nbins) of a histogram, in address units, truncated:
 * low + floor(span * b / nbins). */
static uint64_t hist_edge(const pc_histogram *h, size_t b)
{
	uint64_t span = h->high - h->low;
	uint64_t q = span / h->nbins, r = span % h->nbins;
	return h->low + q * b + (r ? muldiv(r, b, h->nbins, NULL) : 0);
}

/* Adds h's counts into grid g (low, width, nbins) by overlap: a bucket
 * inside one cell goes there whole; a bucket straddling cells is split in
 * proportion to the overlap, whole samples by largest remainder (the
 * earlier cell wins ties), so that no sample is lost or invented. */
static int rebin_into(const pc_histogram *h, uint64_t glow, uint64_t gw,
		      uint64_t *gcounts, size_t gn)
{
	for (size_t b = 0; b < h->nbins; b++) {
		uint64_t c = h->counts[b];
		if (!c)
			continue;
		uint64_t lo = hist_edge(h, b), hi = hist_edge(h, b + 1);
		if (hi <= lo) { /* a bucket narrower than one address */
			size_t cell = (size_t)((lo - glow) / gw);
			if (cell >= gn)
				cell = gn - 1;
			gcounts[cell] += c;
			continue;
		}
		size_t first = (size_t)((lo - glow) / gw);
		size_t last = (size_t)((hi - 1 - glow) / gw);
		if (last >= gn)
			return PC_ELIMIT;
		if (first == last) {
			gcounts[first] += c;
			continue;
		}
		uint64_t width = hi - lo, given = 0;
		size_t ncell = last - first + 1;
		uint64_t *rem = malloc(ncell * sizeof *rem);
		if (!rem)
			return PC_ENOMEM;
		for (size_t k = 0; k < ncell; k++) {
			uint64_t cl = glow + (uint64_t)(first + k) * gw, ch = cl + gw;
			uint64_t ol = cl > lo ? cl : lo, oh = ch < hi ? ch : hi;
			uint64_t whole = muldiv(c, oh - ol, width, &rem[k]);
			gcounts[first + k] += whole;
			given += whole;
		}
		for (uint64_t left = c - given; left > 0; left--) {
			size_t best = 0;
			for (size_t k = 1; k < ncell; k++)
				if (rem[k] > rem[best])
					best = k;
			gcounts[first + best]++;
			rem[best] = 0;
		}
		free(rem);
	}
	return PC_OK;
}

/* The width of a histogram's buckets in address units, when whole. */
static int whole_width(const pc_histogram *h, uint64_t *w)
{
	uint64_t span = h->high - h->low;
	if (span % h->nbins)
		return 0;
	*w = span / h->nbins;
	return *w > 0;
}

/* Merges src histogram s into dst, re-binning where grids differ. */
static int merge_histogram(pc_profile *dst, const pc_histogram *s)
{
	size_t ov = SIZE_MAX, nov = 0;
	for (size_t i = 0; i < dst->nhists; i++) {
		const pc_histogram *o = &dst->hists[i].h;
		if (o->segment == s->segment && s->low < o->high && o->low < s->high) {
			ov = i;
			nov++;
		}
	}
	if (nov == 0)
		return pc_profile_add_histogram(dst, s);
	pc_hist *o = &dst->hists[ov];
	unsigned su = s->unit ? s->unit : 1;
	if (o->h.low == s->low && o->h.high == s->high && o->h.nbins == s->nbins &&
	    o->h.unit == su)
		return pc_profile_add_histogram(dst, s);
	if (nov > 1)
		return pc_profile_fail(dst, PC_EUNSUPPORTED,
				       "cannot merge histogram [0x%llx, 0x%llx): it overlaps %zu histograms of the other capture",
				       (unsigned long long)s->low, (unsigned long long)s->high, nov);
	if (o->h.unit != su)
		return pc_profile_fail(dst, PC_EUNSUPPORTED,
				       "cannot merge histograms with address units %u and %u",
				       o->h.unit, su);
	uint64_t w1, w2;
	if (!whole_width(&o->h, &w1) || !whole_width(s, &w2))
		return pc_profile_fail(dst, PC_EUNSUPPORTED,
				       "cannot re-bin histogram [0x%llx, 0x%llx): bucket width is not a whole number of bytes",
				       (unsigned long long)s->low, (unsigned long long)s->high);
	/* the coarser grid, from the lower start, over the union */
	uint64_t gw = w1 > w2 ? w1 : w2;
	uint64_t glow = o->h.low < s->low ? o->h.low : s->low;
	uint64_t ghigh = o->h.high > s->high ? o->h.high : s->high;
	uint64_t cells = (ghigh - glow + gw - 1) / gw;
	if (cells > ((uint64_t)1 << 28) || glow + cells * gw < glow)
		return pc_profile_fail(dst, PC_ELIMIT, "merged histogram would be too large");
	size_t gn = (size_t)cells;
	uint64_t *g = calloc(gn, sizeof *g);
	if (!g)
		return pc_profile_fail(dst, PC_ENOMEM, "out of memory");
	int st = rebin_into(&o->h, glow, gw, g, gn);
	if (!st)
		st = rebin_into(s, glow, gw, g, gn);
	if (st) {
		free(g);
		return pc_profile_fail(dst, st, "cannot re-bin histogram");
	}
	if (!o->borrowed)
		free(o->counts);
	o->borrowed = 0;
	o->counts = g;
	o->h.counts = g;
	o->any = pc_counts_or(g, gn);
	o->h.low = glow;
	o->h.high = glow + cells * gw;
	o->h.nbins = gn;
	if (pc_profile_hist_reindex(dst))
		return pc_profile_fail(dst, PC_ENOMEM, "out of memory");
	pc_profile_invalidate(dst);
	if (w1 != w2 || o->h.low != s->low)
		pc_profile_note(dst, "merge: histograms re-binned to %llu-byte buckets over [0x%llx, 0x%llx)",
				(unsigned long long)gw, (unsigned long long)o->h.low,
				(unsigned long long)o->h.high);
	return PC_OK;
}

static int merge(pc_profile *dst, const pc_profile *src, int borrow);

int pc_profile_merge(pc_profile *dst, const pc_profile *src)
{
	return merge(dst, src, 0);
}

int pc_profile_merge_borrowing(pc_profile *dst, const pc_profile *src)
{
	return merge(dst, src, 1);
}

static int merge(pc_profile *dst, const pc_profile *src, int borrow)
{
	if (!dst || !src || dst == src)
		return dst ? pc_profile_fail(dst, PC_EUSAGE, "merge needs two distinct profiles")
			   : PC_EUSAGE;
	if (dst->exact != src->exact)
		return pc_profile_fail(dst, PC_EUNSUPPORTED,
				       "cannot merge exact counts with sampled counts");
	if (strcmp(dst->dimension, src->dimension))
		return pc_profile_fail(dst, PC_EUNSUPPORTED,
				       "cannot merge captures counting %s with captures counting %s",
				       dst->dimension, src->dimension);
	if (pc_rates_check(dst, dst->rate, src->rate))
		return PC_EUNSUPPORTED;
	if (dst->rate <= 0 && src->rate > 0)
		dst->rate = src->rate;
	int st;
	/* the input's order: src's, when dst has none of its own */
	if (src->timeline) {
		if (!dst->timeline && !(dst->timeline = pc_timeline_new()))
			return pc_profile_fail(dst, PC_ENOMEM, "out of memory");
		if (pc_timeline_copy(dst->timeline, src->timeline))
			return pc_profile_fail(dst, PC_ENOMEM, "out of memory");
	}
	/* symbols and regions: the program's, kept once */
	if (dst->nsyms == 0)
		for (size_t i = 0; i < src->nsyms; i++)
			if ((st = pc_profile_add_symbol(dst, &src->syms[i])))
				return st;
	if (dst->nregions == 0)
		for (size_t i = 0; i < src->nregions; i++)
			if ((st = pc_profile_add_region(dst, &src->regions[i])))
				return st;
	for (size_t i = 0; i < src->nhists; i++)
		if ((st = borrow ? pc_profile_borrow_histogram(dst, &src->hists[i])
				 : merge_histogram(dst, &src->hists[i].h)))
			return st;
	size_t ns = pc_samples_distinct(src->samples);
	if (ns) {
		const pc_sample *s = pc_samples_sorted(src->samples);
		if (!s)
			return pc_profile_fail(dst, PC_ENOMEM, "out of memory");
		for (size_t i = 0; i < ns; i++)
			if ((st = pc_profile_add_sample(dst, s[i].segment, s[i].address,
							s[i].count)))
				return st;
	}
	for (int c = 0; c < PC_REGION_COUNT; c++)
		if (src->class_samples[c] &&
		    (st = pc_profile_add_class_samples(dst, (pc_region_class)c,
						       src->class_samples[c])))
			return st;
	for (size_t i = 0; i < src->nctx; i++)
		if ((st = pc_profile_add_context_samples(dst, src->ctx_name[i],
							 src->ctx_count[i])))
			return st;
	for (uint64_t i = 0; i < src->nlost; i++)
		if (i < PC_LOST_KEEP)
			pc_profile_add_lost(dst, src->lost_off[i], src->lost_after[i]);
		else
			dst->nlost++;
	for (size_t i = 0; i < src->narcs; i++)
		if ((st = pc_profile_add_arc(dst, &src->arcs[i])))
			return st;
	for (size_t i = 0; i < src->ncalls; i++)
		if ((st = pc_profile_add_calls(dst, src->calls[i].segment,
					       src->calls[i].address, src->calls[i].count)))
			return st;
	for (size_t i = 0; i < src->nlines; i++)
		if ((st = pc_profile_add_line(dst, src->lines[i].segment, src->lines[i].address,
					      src->lines[i].file, src->lines[i].line)))
			return st;
	if (dst->duration >= 0 && src->duration >= 0)
		dst->duration += src->duration;
	else
		dst->duration = -1;
	if (!dst->program && src->program)
		dst->program = pc_strpool_add(&dst->pool, src->program);
	if (!dst->width && src->width)
		pc_profile_set_target(dst, src->width, src->endian);
	for (size_t i = 0; i < src->nsrc; i++) {
		int dup = 0;
		for (size_t j = 0; j < dst->nsrc && !dup; j++)
			dup = !strcmp(dst->src_file[j], src->src_file[i]) &&
			      !strcmp(dst->src_format[j], src->src_format[i]);
		if (!dup && pc_profile_add_source(dst, src->src_format[i], src->src_file[i]))
			return pc_profile_fail(dst, PC_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < pc_diag_warning_count(&src->diag); i++)
		pc_profile_warn(dst, "%s", pc_diag_warning_at(&src->diag, i));
	pc_profile_invalidate(dst);
	return PC_OK;
}
