/*
 * stats_reports.c - honest statistics in reports (docs/statistics.md ("Statistics")):
 *
 *   check  sampling-quality diagnostics of one capture (profcat --check)
 *   diff   two captures compared symbol by symbol (pc_profile_diff)
 *   rates  captures taken at different sampling periods compared: the
 *          DDJ aliasing remedy (pc_profile_compare_rates)
 *
 * plus the "ci" option shared with the table reports (rowset.c, flat.c).
 * Every share is a count over all the samples of its capture (the flat
 * report's percent); intervals are Wilson score intervals (libprofcore
 * statistics.c).  Exact-count captures (pc_profile_exact) get no interval and
 * no test.
 */
#include "stats_reports.h"
#include "model.h"
#include "filter.h"
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the level for the check/diff/rates reports: "ci" or 95 */
static int level_of(pc_profile *p, const pc_options *o, double *z, double *level)
{
	int st = pc_ci_option(p, o, z, level);
	if (!st && *z == 0) {
		*level = 95;
		*z = pc_stats_z(95);
	}
	return st;
}

/* "95", "99.9" */
static const char *level_text(double level, char *buf, size_t n)
{
	snprintf(buf, n, "%g", level);
	return buf;
}

/* ---- per-symbol counts of a capture ------------------------------------ */

typedef struct symcount {
	const char *name;
	double count;
	size_t row;
	uint64_t address, end;
	uint32_t segment;
} symcount;

static int cmp_sc_name(const void *a, const void *b)
{
	const symcount *x = a, *y = b;
	return strcmp(x->name, y->name);
}

static int cmp_sc_count(const void *a, const void *b)
{
	const symcount *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The attributed rows of p (less excluded symbols) with their counts
 * (hits_only: only those with a count above 0); *total = every sample of
 * the capture (the percents' denominator). */
static int collect_rows(pc_profile *p, const pc_options *o, symcount **out,
			size_t *n, double *total, int hits_only)
{
	int st;
	pc_itotals t;
	*out = NULL;
	*n = 0;
	if ((st = pc_profile_attribute(p, pc_options_attrib(o))) || (st = pc_profile_itotals(p, &t)))
		return st;
	*total = t.total;
	size_t nr = pc_profile_rows(p), nv = nr;
	if (hits_only) { /* (10^6 symbols, a few sampled: no 48 MB here) */
		nv = 0; /* (the rows are the attribution targets) */
		for (size_t i = 0; i < nr; i++)
			nv += p->targets[i].count > 0;
	}
	symcount *v = calloc(nv ? nv : 1, sizeof *v);
	if (!v)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	size_t k = 0;
	for (size_t i = 0; i < nr && k < nv; i++) {
		pc_row r;
		pc_symbol s;
		if ((st = pc_profile_row_at(&r, p, i)) ||
		    (st = pc_profile_symbol_at(&s, p, r.symbol))) {
			free(v);
			return st;
		}
		if ((s.flags & PC_SYMF_EXCLUDED) || (hits_only && !(r.count > 0)))
			continue;
		v[k++] = (symcount){r.name, r.count, i, r.address, r.end, r.segment};
	}
	*out = v;
	*n = k;
	return PC_OK;
}

static int collect(pc_profile *p, const pc_options *o, symcount **out, size_t *n,
		   double *total)
{
	return collect_rows(p, o, out, n, total, 0);
}

/* ---- check -------------------------------------------------------------- */

#define MAXCHK 8
#define FEW_PER_SYMBOL 20     /* DDJ N << n: at least this many per symbol */
#define WRAP_NEAR 65000       /* a 16-bit bucket this full may have wrapped */
#define CLUSTER_MIN 20        /* samples before a symbol can look clustered */
#define CLUSTER_MIN_EXTENT 8  /* bytes: shorter symbols are one instruction */
#define CLUSTER_SYMBOLS 3     /* symbols that must all be clustered */

typedef struct chk {
	const char *id;
	char msg[640];
} chk;

typedef struct chkset {
	chk c[MAXCHK];
	size_t n;
	double level;
	double total;
	size_t hit;
	int exact;
} chkset;

static void add_chk(chkset *cs, const char *id, const char *fmt, ...) PC_PRINTF(3, 4);
static void add_chk(chkset *cs, const char *id, const char *fmt, ...)
{
	if (cs->n >= MAXCHK)
		return;
	va_list ap;
	va_start(ap, fmt);
	cs->c[cs->n].id = id;
	vsnprintf(cs->c[cs->n].msg, sizeof cs->c[cs->n].msg, fmt, ap);
	va_end(ap);
	cs->n++;
}

/* "a, b, c and 4 more" of the flagged rows */
static void name_list(char *buf, size_t bn, const symcount *v, const unsigned char *flag,
		      size_t n, size_t nflag)
{
	size_t used = 0, shown = 0, top[3], ntop = 0;
	buf[0] = '\0';
	/* the first three flagged rows in cmp_sc_count order (v is not
	 * sorted: one pass, not a sort of every row) */
	for (size_t i = 0; i < n; i++) {
		if (!flag[i])
			continue;
		size_t at = ntop;
		while (at > 0 && cmp_sc_count(&v[i], &v[top[at - 1]]) < 0)
			at--;
		if (at >= 3)
			continue;
		for (size_t m = ntop < 3 ? ntop : 2; m > at; m--)
			top[m] = top[m - 1];
		top[at] = i;
		if (ntop < 3)
			ntop++;
	}
	for (size_t t = 0; t < ntop; t++) {
		size_t i = top[t];
		int w = snprintf(buf + used, bn - used, "%s%s", shown ? ", " : "", v[i].name);
		if (w < 0 || (size_t)w >= bn - used)
			return;
		used += (size_t)w;
		shown++;
	}
	if (nflag > shown)
		snprintf(buf + used, bn - used, " and %zu more", nflag - shown);
}

/* severe_only: only the checks severe() names are made (the others
 * are left out, at most MAXCHK in all: the severe ones come out the
 * same), and the rows collected only when the aliasing check needs them
 * (the flat report's header, on every run). */
static int check_run(pc_profile *p, const pc_options *o, chkset *cs,
		     int severe_only)
{
	double z;
	memset(cs, 0, sizeof *cs);
	int st = level_of(p, o, &z, &cs->level);
	if (st)
		return st;
	cs->exact = pc_profile_event_counts(p);
	size_t ns = pc_profile_sample_count(p);
	int aliasing = !cs->exact && ns && !pc_samples_binned(p->samples);
	symcount *v = NULL;
	size_t n = 0;
	if (severe_only && !aliasing) {
		pc_itotals t;
		if ((st = pc_profile_attribute(p, pc_options_attrib(o))) || (st = pc_profile_itotals(p, &t)))
			return st;
		cs->total = t.total;
	} else if ((st = collect_rows(p, o, &v, &n, &cs->total, 1))) {
		return st; /* only the hits, in row order (name_list picks
			      the first names in count order) */
	}
	size_t hit = n;
	cs->hit = hit;
	double N = cs->total;
	unsigned char *flag = calloc(hit ? hit : 1, 2);
	if (!flag) {
		free(v);
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	}
	char names[400], lv[32];
	level_text(cs->level, lv, sizeof lv);

	if (!severe_only && !cs->exact && hit > 0 && N < (double)FEW_PER_SYMBOL * (double)hit) {
		char tot[48];
		pc_fmt_count(N, tot, sizeof tot);
		add_chk(cs, "few-samples",
			"few samples: %s samples for %zu symbols with samples, fewer than %d per symbol (DDJ Table 1: N << n); take more samples",
			tot, hit, FEW_PER_SYMBOL);
	}
	if (!severe_only && !cs->exact && hit > 0) {
		size_t nz = 0, ni = 0;
		unsigned char *fz = flag, *fi = flag + hit;
		for (size_t i = 0; i < hit; i++) {
			double lo, hi, s = v[i].count / N;
			pc_stats_wilson(&lo, &hi, v[i].count, N, z);
			if (lo * N < 1) {
				fz[i] = 1;
				nz++;
			} else if ((hi - lo) / 2 > s / 2) {
				fi[i] = 1;
				ni++;
			}
		}
		if (ni) {
			name_list(names, sizeof names, v, fi, hit, ni);
			add_chk(cs, "imprecise",
				"%zu symbol%s known to worse than +-50%% of %s share at %s%% confidence: %s",
				ni, ni == 1 ? "" : "s", ni == 1 ? "its" : "their", lv, names);
		}
		if (nz) {
			name_list(names, sizeof names, v, fz, hit, nz);
			add_chk(cs, "near-zero",
				"%zu symbol%s indistinguishable from zero (the %s%% interval allows less than one expected sample): %s",
				nz, nz == 1 ? "" : "s", lv, names);
		}
	}
	/* 16-bit counters: every bucket fits in 16 bits and some is near
	 * the top */
	{
		size_t near = 0;
		uint64_t max = 0;
		for (size_t h = 0; h < pc_profile_histogram_count(p); h++) {
			pc_histogram hg;
			pc_profile_histogram_at(&hg, p, h);
			/* every count below WRAP_NEAR (their OR is, the usual
			 * case): none near, none the largest that matters */
			uint64_t any = pc_profile_hist_or(p, h);
			for (size_t b = 0; b < hg.nbins && any >= WRAP_NEAR; b++) {
				uint64_t c = hg.counts[b];
				max = c > max ? c : max;
				near += c - WRAP_NEAR <= 65535 - WRAP_NEAR; /* (wraps below) */
			}
		}
		if (near && max <= 65535)
			add_chk(cs, "wrap",
				"counter wrap-around suspected: %zu histogram bucket%s at or near 65535 (largest %llu); 16-bit counters wrap silently at 65536",
				near, near == 1 ? "" : "s", (unsigned long long)max);
	}
	if (pc_profile_lost_count(p)) {
		int64_t off;
		uint64_t after, nl = pc_profile_lost_count(p);
		pc_profile_lost_at(&off, &after, p, 0);
		add_chk(cs, "lost",
			"%llu loss%s in the capture (overflow: samples dropped, how many is not known), the first at byte %lld after %llu samples; shares are biased if losses follow what the program does (lower the sampling rate or the trace output)",
			(unsigned long long)nl, nl == 1 ? "" : "es", (long long)off,
			(unsigned long long)after);
	}
	if (!severe_only && !cs->exact && pc_profile_rate(p) <= 0)
		add_chk(cs, "rate-unknown",
			"sampling rate unknown: shares hold, but no times, and periods cannot be compared for aliasing");
	/* aliasing: the samples of every well-sampled symbol on one address
	 * (a real loop spreads its samples over its instructions; a period
	 * locked to the program's hits the same instruction each time) */
	if (aliasing) {
		size_t nr = pc_profile_rows(p);
		uint64_t *cnt = calloc(nr ? nr : 1, sizeof *cnt);
		size_t *addrs = calloc(nr ? nr : 1, sizeof *addrs);
		uint64_t *where = calloc(nr ? nr : 1, sizeof *where);
		if (!cnt || !addrs || !where) {
			free(cnt), free(addrs), free(where), free(flag), free(v);
			return pc_profile_fail(p, PC_ENOMEM, "out of memory");
		}
		/* the samples (sorted by segment and address) against the rows
		 * (the attribution's targets, sorted the same way and not
		 * overlapping) in one merge pass: linear, where a lookup per
		 * sample cost a search each (seconds for a 1 MB dump of
		 * random PCs under ASan) */
		const pc_sample *sm = pc_samples_sorted(p->samples);
		if (!sm) {
			free(cnt), free(addrs), free(where), free(flag), free(v);
			return pc_profile_fail(p, PC_ENOMEM, "out of memory");
		}
		const pc_target *tg = p->targets;
		size_t tr = 0; /* the first row not before the sample */
		for (size_t i = 0; i < ns; i++) {
			uint32_t seg = sm[i].segment;
			uint64_t a = sm[i].address;
			/* past the rows that end at or before it */
			while (tr < nr && (tg[tr].segment < seg ||
					  (tg[tr].segment == seg && tg[tr].end <= a &&
					   tg[tr].address <= a)))
				tr++;
			if (tr >= nr || tg[tr].segment != seg || a < tg[tr].address ||
			    a >= tg[tr].end)
				continue;
			cnt[tr] += sm[i].count;
			addrs[tr]++;
			where[tr] = a;
		}
		size_t big = 0, one = 0;
		memset(flag, 0, hit);
		for (size_t i = 0; i < hit; i++) {
			size_t r = v[i].row;
			if (cnt[r] < CLUSTER_MIN || v[i].end - v[i].address < CLUSTER_MIN_EXTENT)
				continue;
			big++;
			if (addrs[r] == 1) {
				flag[i] = 1;
				one++;
			}
		}
		if (one >= CLUSTER_SYMBOLS && one == big) {
			name_list(names, sizeof names, v, flag, hit, one);
			add_chk(cs, "clustered",
				"the samples of every symbol with %d or more samples sit on a single address (%zu symbols: %s): the sampling period may beat with a program period; repeat at another period and compare them (the rates report)",
				CLUSTER_MIN, one, names);
		}
		free(cnt), free(addrs), free(where);
	}
	free(flag);
	free(v);
	return PC_OK;
}

/* Warnings that mean the counts themselves may be wrong, not merely
 * imprecise: the default report header names these. */
static int severe(const char *id)
{
	return !strcmp(id, "wrap") || !strcmp(id, "clustered") || !strcmp(id, "lost");
}

size_t pc_check_count(pc_profile *p, const pc_options *o, int severe_only,
		      const char **first)
{
	chkset cs;
	size_t n = 0;
	if (first)
		*first = NULL;
	if (check_run(p, o, &cs, severe_only))
		return 0;
	for (size_t i = 0; i < cs.n; i++) {
		if (severe_only && !severe(cs.c[i].id))
			continue;
		if (first && !n)
			*first = cs.c[i].id;
		n++;
	}
	return n;
}

static int check_render(pc_profile *p, const pc_options *o, pc_sink *k)
{
	pc_outfmt fmt;
	chkset cs;
	int st;
	if ((st = pc_rs_outfmt(p, o, &fmt)) || (st = check_run(p, o, &cs, 0)))
		return st;
	char lv[32], tot[48];
	level_text(cs.level, lv, sizeof lv);
	pc_fmt_count(cs.total, tot, sizeof tot);
	if (fmt == PC_OUT_CSV) {
		pc_sink_puts(k, "check,message\n");
		for (size_t i = 0; i < cs.n; i++) {
			pc_sink_printf(k, "%s,", cs.c[i].id);
			pc_sink_csv_field(k, cs.c[i].msg);
			pc_sink_putc(k, '\n');
		}
	} else if (fmt == PC_OUT_JSON) {
		pc_sink_puts(k, "{\n  \"report\": \"check\",\n  \"samples\": ");
		pc_sink_count(k, cs.total);
		pc_sink_printf(k, ",\n  \"symbols_with_samples\": %zu,\n  \"exact\": %s,\n  \"confidence\": %s,\n  \"warnings\": [",
			       cs.hit, cs.exact ? "true" : "false", lv);
		for (size_t i = 0; i < cs.n; i++) {
			pc_sink_printf(k, "%s\n    {\"check\": \"%s\", \"message\": ", i ? "," : "",
				       cs.c[i].id);
			pc_sink_json_string(k, cs.c[i].msg);
			pc_sink_puts(k, "}");
		}
		pc_sink_puts(k, cs.n ? "\n  ]\n}\n" : "]\n}\n");
	} else {
		pc_sink_puts(k, "Sampling check");
		size_t nsrc = pc_profile_source_count(p);
		for (size_t i = 0; i < nsrc; i++)
			pc_sink_puts(k, i ? ", " : " of "), pc_sink_name(k, pc_profile_source_file(p, i)),
				pc_sink_printf(k, " (%s)", pc_profile_source_format(p, i));
		pc_sink_printf(k, "\nSamples: %s, %zu symbol%s with samples", tot, cs.hit,
			       cs.hit == 1 ? "" : "s");
		if (cs.exact)
			pc_sink_puts(k, "; counts are exact (not samples)");
		pc_sink_printf(k, "\n\n");
		for (size_t i = 0; i < cs.n; i++)
			pc_sink_printf(k, "warning: %s: ", cs.c[i].id), pc_sink_name(k, cs.c[i].msg),
				pc_sink_putc(k, '\n');
		if (!cs.n)
			pc_sink_puts(k, "no warnings\n");
	}
	return k->failed;
}

static const pc_option_decl check_keys[] = {
	PC_REPORT_OPTION_DECLS,
	PC_CI_OPTION_DECL,
	PC_OPTION_DECLS_END,
};

const pc_report pc_report_check = {
	.name = "check",
	.description = "sampling-quality diagnostics: too few samples, near-zero shares, "
		       "wrapped counters, lost samples, unknown rate, aliasing",
	.options = check_keys,
	.render = check_render,
};

/* ---- diff --------------------------------------------------------------- */

enum { V_SLOWER, V_FASTER, V_UNCHANGED, V_UNRESOLVED };
static const char *const verdict_name[] = {"slower", "faster", "unchanged", "unresolved"};

typedef struct drow {
	const char *name;
	double k1, k2;
	double s1, s2;      /* shares, 0..1 */
	double lo, hi;      /* adjusted interval of s2 - s1 */
	double ga;          /* its two-sided error level (1 - its confidence) */
	double p, padj;
	double mde;         /* minimum detectable effect, share units */
	double more;        /* unresolved: samples more (both captures) */
	int sig, verdict;
} drow;

static int cmp_drow(const void *a, const void *b)
{
	const drow *x = a, *y = b;
	if (x->sig != y->sig)
		return x->sig ? -1 : 1;
	double dx = fabs(x->s2 - x->s1), dy = fabs(y->s2 - y->s1);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int in_list(const char *list, const char *name)
{
	size_t nl = strlen(name);
	for (const char *s = list; *s;) {
		const char *e = strchr(s, ',');
		size_t l = e ? (size_t)(e - s) : strlen(s);
		if (l == nl && !strncmp(s, name, l))
			return 1;
		if (!e)
			break;
		s = e + 1;
	}
	return 0;
}

static void json_num(pc_sink *k, double v)
{
	if (isfinite(v))
		pc_sink_printf(k, "%.6g", v);
	else
		pc_sink_puts(k, "null");
}

static void sources_text(pc_sink *k, pc_profile *p)
{
	size_t n = pc_profile_source_count(p);
	for (size_t i = 0; i < n; i++)
		pc_sink_puts(k, i ? ", " : ""), pc_sink_name(k, pc_profile_source_file(p, i)),
			pc_sink_printf(k, " (%s)", pc_profile_source_format(p, i));
	if (!n)
		pc_sink_puts(k, "(no source)");
}

/* The two-sided error level of a row's adjusted interval, for m rows
 * tested of which r are significant at alpha (docs/statistics.md
 * ("Adjusted intervals")):
 *   Holm: alpha / m, Bonferroni's simultaneous intervals (diff_row_stats
 *         cuts a significant row's at 0);
 *   BH:   r alpha / m for the r significant rows, (r + 1) alpha / m for
 *         the others (Benjamini and Yekutieli's false-coverage-rate
 *         intervals, JASA 100, 2005, for the selected rows). */
static double row_level(pc_correction corr, int sig, double alpha, size_t m, size_t r)
{
	if (corr == PC_CORRECT_HOLM)
		return alpha / (double)m;
	return (double)(sig ? r : r + 1) * alpha / (double)m;
}

/* A sampled row's adjusted interval, MDE and verdict (thr and power in
 * share units and as a probability). */
static void diff_row_stats(drow *r, double n1, double n2, pc_correction corr,
			   double alpha, size_t m, size_t nsig, double thr, double power)
{
	double ga = row_level(corr, r->sig, alpha, m, nsig);
	double zc = -pc_stats_quantile(ga / 2);
	double dd = r->s2 - r->s1;
	r->ga = ga;
	pc_stats_score_interval(r->k1, n1, r->k2, n2, zc, &r->lo, &r->hi);
	if (corr == PC_CORRECT_HOLM && r->sig) {
		/* Holm's later steps reject rows whose Bonferroni interval
		 * holds 0: their direction is known, so the interval is cut at
		 * 0 (it can then miss only when that direction is wrong) */
		if (dd < 0 && r->hi > 0)
			r->hi = 0;
		else if (dd > 0 && r->lo < 0)
			r->lo = 0;
	}
	if (!(n1 > 0) || !(n2 > 0)) { /* a capture without samples */
		r->mde = NAN;
		r->verdict = V_UNRESOLVED;
		return;
	}
	double pbar = (r->k1 + r->k2) / (n1 + n2);
	double se = sqrt(pbar * (1 - pbar) * (1 / n1 + 1 / n2));
	r->mde = (zc + pc_stats_quantile(power)) * se;
	if (r->sig) {
		r->verdict = dd > 0 ? V_SLOWER : V_FASTER;
		return;
	}
	if (r->lo >= -thr && r->hi <= thr) {
		r->verdict = V_UNCHANGED;
		return;
	}
	/* how many times the samples (both captures, shares as now) until
	 * the change is significant (its z grows as the root) or the
	 * interval fits within the threshold (its ends shrink as the root) */
	r->verdict = V_UNRESOLVED;
	double ad = fabs(dd), f = HUGE_VAL;
	if (ad > 0 && se > 0) {
		double zo = ad / se;
		f = (zc / zo) * (zc / zo);
	}
	if (ad < thr) {
		double fu = (r->hi - dd) / (thr - dd), fl = (dd - r->lo) / (thr + dd);
		fu *= fu;
		fl *= fl;
		double fb = fu > fl ? fu : fl;
		if (fb < f)
			f = fb;
	}
	double more = ceil((f - 1) * (n1 + n2));
	r->more = more < 1 ? 1 : more;
}

/* An interval's end: "0" when it is 0 exactly (a Holm-compatible end),
 * else signed with two decimals. */
static const char *end_text(double v, char *buf, size_t n)
{
	if (v == 0)
		snprintf(buf, n, "0");
	else
		snprintf(buf, n, "%+.2f", v);
	return buf;
}

/* The "Intervals:" line of the text diff: which intervals, at what level. */
static void intervals_text(pc_sink *k, pc_correction corr, double alpha, const char *lv,
			   size_t m, size_t r)
{
	if (!m)
		return;
	if (corr == PC_CORRECT_HOLM) {
		double ga = row_level(corr, 0, alpha, m, r);
		pc_sink_printf(k, "Intervals: %s%% simultaneous: score intervals at %.6g%% (Bonferroni, %g%%/%zu), a significant row's cut at 0\n",
			       lv, 100 * (1 - ga), 100 * alpha, m);
		return;
	}
	pc_sink_printf(k, "Intervals: %s%% false-coverage-rate (Benjamini-Yekutieli): score intervals at ", lv);
	if (r)
		pc_sink_printf(k, "%.6g%% for the significant, ", 100 * (1 - row_level(corr, 1, alpha, m, r)));
	if (r < m)
		pc_sink_printf(k, "%.6g%% for the others", 100 * (1 - row_level(corr, 0, alpha, m, r)));
	while (k->len && (k->buf[k->len - 1] == ' ' || k->buf[k->len - 1] == ','))
		k->len--;
	pc_sink_putc(k, '\n');
}

int pc_diff_write(pc_profile *base, pc_profile *next, const pc_options *o, pc_sink *k)
{
	pc_outfmt fmt;
	double z, level;
	int st;
	if ((st = pc_rs_outfmt(next, o, &fmt)) || (st = level_of(next, o, &z, &level)))
		return st;
	pc_correction corr = PC_CORRECT_HOLM;
	const char *cv = pc_options_get(o, "correction");
	if (cv && !strcmp(cv, "bh"))
		corr = PC_CORRECT_BH;
	else if (cv && strcmp(cv, "holm"))
		return pc_profile_fail(next, PC_EUSAGE,
				       "option correction=%s; expected holm or bh", cv);
	double thr = 1, power = 80;
	const char *tv = pc_options_get(o, "threshold"), *pw = pc_options_get(o, "power");
	if (tv && (pc_options_get_double(&thr, NULL, o, "threshold") != PC_OK ||
		   !(thr > 0 && thr < 100)))
		return pc_profile_fail(next, PC_EUSAGE,
				       "option threshold=%s; expected percentage points above 0 and below 100 (e.g. 1)",
				       tv);
	if (pw && (pc_options_get_double(&power, NULL, o, "power") != PC_OK ||
		   !(power > 0 && power < 100)))
		return pc_profile_fail(next, PC_EUSAGE,
				       "option power=%s; expected a percent above 0 and below 100 (e.g. 80)",
				       pw);
	if (pc_profile_event_counts(base) != pc_profile_event_counts(next))
		return pc_profile_fail(next, PC_EUNSUPPORTED,
				       "cannot compare exact counts with samples: capture %d holds exact counts, capture %d samples",
				       pc_profile_event_counts(base) ? 1 : 2,
				       pc_profile_event_counts(base) ? 2 : 1);
	const char *only = pc_options_get(o, "symbols");
	/* --focus/--ignore/--hide: the symbols they keep (a sample is a
	 * one-frame stack, as in the flat report), shares of all samples */
	pc_filter flt;
	if ((st = pc_filter_init(next, o, &flt))) {
		pc_filter_dispose(&flt);
		return st;
	}
	symcount *a = NULL, *b = NULL;
	size_t na, nb;
	double n1, n2;
	if ((st = collect(base, o, &a, &na, &n1))) {
		const pc_error *e = pc_profile_error(base);
		pc_filter_dispose(&flt);
		return pc_profile_fail(next, st, "%s", e ? e->message : "base capture failed");
	}
	if ((st = collect(next, o, &b, &nb, &n2))) {
		pc_filter_dispose(&flt);
		free(a);
		return st;
	}
	int exact = pc_profile_event_counts(base) || pc_profile_event_counts(next);
	qsort(a, na, sizeof *a, cmp_sc_name);
	qsort(b, nb, sizeof *b, cmp_sc_name);
	drow *d = calloc(na + nb + 1, sizeof *d);
	double *pv = calloc(na + nb + 1, sizeof *pv);
	if (!d || !pv) {
		free(a), free(b), free(d), free(pv);
		pc_filter_dispose(&flt);
		return pc_profile_fail(next, PC_ENOMEM, "out of memory");
	}
	size_t n = 0, i = 0, j = 0;
	while (i < na || j < nb) {
		int c = i >= na ? 1 : j >= nb ? -1 : strcmp(a[i].name, b[j].name);
		const char *name = c <= 0 ? a[i].name : b[j].name;
		double k1 = 0, k2 = 0;
		/* names repeated within one capture are summed */
		while (i < na && !strcmp(a[i].name, name))
			k1 += a[i++].count;
		while (j < nb && !strcmp(b[j].name, name))
			k2 += b[j++].count;
		if (k1 <= 0 && k2 <= 0)
			continue;
		if (only && !in_list(only, name))
			continue;
		int keep = flt.any ? pc_filter_keep_frame(next, &flt, name, NULL) : 1;
		if (keep < 0) {
			free(a), free(b), free(d), free(pv);
			pc_filter_dispose(&flt);
			return keep;
		}
		if (!keep)
			continue;
		drow *r = &d[n++];
		r->name = name;
		r->k1 = k1;
		r->k2 = k2;
		r->s1 = n1 > 0 ? k1 / n1 : 0;
		r->s2 = n2 > 0 ? k2 / n2 : 0;
		r->more = NAN;
		if (exact) {
			r->lo = r->hi = r->ga = r->p = r->padj = r->mde = NAN;
			r->sig = r->s1 != r->s2;
			r->verdict = r->s2 > r->s1 ? V_SLOWER : r->s2 < r->s1 ? V_FASTER : V_UNCHANGED;
		} else {
			r->p = pc_stats_two_proportion(NULL, k1, n1, k2, n2);
		}
	}
	size_t nsig = 0;
	if (!exact) {
		for (size_t x = 0; x < n; x++)
			pv[x] = d[x].p;
		if ((st = pc_stats_adjust(pv, pv, n, corr))) {
			free(a), free(b), free(d), free(pv);
			pc_filter_dispose(&flt);
			return pc_profile_fail(next, st, "out of memory");
		}
		for (size_t x = 0; x < n; x++) {
			d[x].padj = pv[x];
			d[x].sig = pv[x] < 1 - level / 100;
			nsig += d[x].sig != 0;
		}
		for (size_t x = 0; x < n; x++)
			diff_row_stats(&d[x], n1, n2, corr, 1 - level / 100, n, nsig,
				       thr / 100, power / 100);
	} else {
		for (size_t x = 0; x < n; x++)
			nsig += d[x].sig != 0;
	}
	qsort(d, n, sizeof *d, cmp_drow);
	const char *cname = corr == PC_CORRECT_HOLM ? "holm" : "bh";
	char lv[32], t1[48], t2[48];
	level_text(level, lv, sizeof lv);
	pc_fmt_count(n1, t1, sizeof t1);
	pc_fmt_count(n2, t2, sizeof t2);
	if (fmt == PC_OUT_CSV) {
		pc_sink_puts(k, "symbol,before_count,after_count,before_percent,after_percent,change_pp,ci_low_pp,ci_high_pp,p_value,p_adjusted,significant,ci_level,mde_pp,verdict,more_samples\n");
		for (size_t x = 0; x < n; x++) {
			drow *r = &d[x];
			pc_sink_csv_field(k, r->name);
			pc_sink_putc(k, ',');
			pc_sink_count(k, r->k1);
			pc_sink_putc(k, ',');
			pc_sink_count(k, r->k2);
			pc_sink_printf(k, ",%.4f,%.4f,%.4f,", 100 * r->s1, 100 * r->s2,
				       100 * (r->s2 - r->s1));
			if (exact)
				pc_sink_puts(k, ",,,");
			else
				pc_sink_printf(k, "%.4f,%.4f,%.6g,%.6g", 100 * r->lo, 100 * r->hi,
					       r->p, r->padj);
			pc_sink_printf(k, ",%d,", r->sig);
			if (!exact)
				pc_sink_printf(k, "%.6g,", 100 * (1 - r->ga));
			else
				pc_sink_puts(k, ",");
			if (isfinite(r->mde))
				pc_sink_printf(k, "%.4f", 100 * r->mde);
			pc_sink_printf(k, ",%s,", verdict_name[r->verdict]);
			if (isfinite(r->more))
				pc_sink_printf(k, "%.0f", r->more);
			pc_sink_putc(k, '\n');
		}
	} else if (fmt == PC_OUT_JSON) {
		pc_sink_puts(k, "{\n  \"report\": \"diff\",\n  \"base\": {\"sources\": ");
		pc_rs_sources_json(k, base);
		pc_sink_puts(k, ", \"samples\": ");
		pc_sink_count(k, n1);
		pc_sink_puts(k, "},\n  \"new\": {\"sources\": ");
		pc_rs_sources_json(k, next);
		pc_sink_puts(k, ", \"samples\": ");
		pc_sink_count(k, n2);
		pc_sink_printf(k, "},\n  \"exact\": %s,\n  \"confidence\": %s,\n  \"correction\": \"%s\",\n  \"tested\": %zu,\n  \"significant\": %zu,",
			       exact ? "true" : "false", lv, cname, n, nsig);
		pc_sink_printf(k, "\n  \"intervals\": \"%s\",\n  \"threshold_pp\": %g,\n  \"power\": %g,",
			       exact ? "none" : corr == PC_CORRECT_HOLM ? "simultaneous" : "fcr",
			       thr, power);
		if (flt.any) {
			pc_sink_puts(k, "\n  \"filters\": ");
			pc_filter_json(o, k);
			pc_sink_putc(k, ',');
		}
		pc_sink_puts(k, "\n  \"rows\": [");
		for (size_t x = 0; x < n; x++) {
			drow *r = &d[x];
			pc_sink_printf(k, "%s\n    {\"symbol\": ", x ? "," : "");
			pc_sink_json_string(k, r->name);
			pc_sink_puts(k, ", \"before_count\": ");
			pc_sink_count(k, r->k1);
			pc_sink_puts(k, ", \"after_count\": ");
			pc_sink_count(k, r->k2);
			pc_sink_printf(k, ", \"before_percent\": %.4f, \"after_percent\": %.4f, \"change_pp\": %.4f",
				       100 * r->s1, 100 * r->s2, 100 * (r->s2 - r->s1));
			pc_sink_puts(k, ", \"ci_low_pp\": ");
			json_num(k, 100 * r->lo);
			pc_sink_puts(k, ", \"ci_high_pp\": ");
			json_num(k, 100 * r->hi);
			pc_sink_puts(k, ", \"p_value\": ");
			json_num(k, r->p);
			pc_sink_puts(k, ", \"p_adjusted\": ");
			json_num(k, r->padj);
			pc_sink_printf(k, ", \"significant\": %s", r->sig ? "true" : "false");
			pc_sink_puts(k, ", \"ci_level\": ");
			json_num(k, 100 * (1 - r->ga));
			pc_sink_puts(k, ", \"mde_pp\": ");
			json_num(k, 100 * r->mde);
			pc_sink_printf(k, ", \"verdict\": \"%s\", \"more_samples\": ", verdict_name[r->verdict]);
			if (isfinite(r->more))
				pc_sink_printf(k, "%.0f}", r->more);
			else
				pc_sink_puts(k, "null}");
		}
		pc_sink_puts(k, n ? "\n  ]\n}\n" : "]\n}\n");
	} else {
		pc_sink_puts(k, "Diff of ");
		sources_text(k, base);
		pc_sink_puts(k, "\n     to ");
		sources_text(k, next);
		pc_sink_printf(k, "\nSamples: %s before, %s after\n", t1, t2);
		if (flt.any) {
			pc_sink_puts(k, "Filters: ");
			pc_filter_describe(o, k);
			pc_sink_puts(k, " (the symbols they keep are tested; shares of all samples)\n");
		}
		if (exact) {
			pc_sink_puts(k, "Counts are exact (not samples): the changes are exact; no intervals, no p-values\n");
		} else {
			pc_sink_printf(k, "Test: two-proportion z-test, %s correction over %zu symbols, %s%% level; %zu significant\n",
				       corr == PC_CORRECT_HOLM ? "Holm" : "Benjamini-Hochberg",
				       n, lv, nsig);
			intervals_text(k, corr, 1 - level / 100, lv, n, nsig);
			pc_sink_printf(k, "Verdicts: unchanged if the interval is within +-%g pp; MDE: the change found with %g%% power; unresolved (+N): about N more samples resolve it\n",
				       thr, power);
		}
		pc_sink_puts(k, "\n");
		size_t w = 6;
		for (size_t x = 0; x < n; x++)
			if (pc_name_width(d[x].name) > w)
				w = pc_name_width(d[x].name);
		char ivh[48];
		snprintf(ivh, sizeof ivh, "%s%% interval", lv);
		pc_sink_printf(k, "%-*s  %8s  %8s  %8s  %-19s  %9s  %6s  %s\n", (int)w, "symbol",
			       "before %", "after %", "change", ivh, "p adj", "MDE", "verdict");
		for (size_t x = 0; x < n; x++) {
			drow *r = &d[x];
			char iv[64] = "", pa[32] = "", md[32] = "", vd[64];
			if (!exact) {
				char l[24], h[24];
				snprintf(iv, sizeof iv, "[%s, %s]", end_text(100 * r->lo, l, sizeof l),
					 end_text(100 * r->hi, h, sizeof h));
				if (r->padj < 0.0001)
					snprintf(pa, sizeof pa, "<0.0001");
				else
					snprintf(pa, sizeof pa, "%.4f", r->padj);
				if (isfinite(r->mde))
					snprintf(md, sizeof md, "%.2f", 100 * r->mde);
			}
			if (isfinite(r->more))
				snprintf(vd, sizeof vd, "%s (+%.0f)", verdict_name[r->verdict], r->more);
			else
				snprintf(vd, sizeof vd, "%s", verdict_name[r->verdict]);
			pc_sink_pad(k, r->name, w, -1);
			pc_sink_printf(k, "  %8.2f  %8.2f  %+8.2f  %-19s  %9s  %6s  %s", 100 * r->s1, 100 * r->s2, 100 * (r->s2 - r->s1), iv,
				       pa, md, vd);
			while (k->len && k->buf[k->len - 1] == ' ')
				k->len--;
			pc_sink_putc(k, '\n');
		}
		if (!n)
			pc_sink_puts(k, "(no symbol received samples)\n");
	}
	free(a), free(b), free(d), free(pv);
	pc_filter_dispose(&flt);
	return k->failed;
}

/* ---- the keys of pc_profile_diff and pc_profile_compare_rates ------------ */

#define OUTPUT_FORMAT_DECL(choices)                                           \
	{"output-format", PC_OPTION_ENUM, choices, "text", "the output's format"}
#define CI_DECL(def)                                                          \
	{"ci", PC_OPTION_STRING, NULL, def,                                   \
	 "confidence level of intervals, in percent, above 0 and below 100"}

const pc_option_decl pc_keys_diff[] = {
	PC_ATTRIBUTION_OPTION_DECLS,
	OUTPUT_FORMAT_DECL("text,csv,json,html"),
	CI_DECL("95"),
	{"correction", PC_OPTION_ENUM, "holm,bh", "holm",
	 "p-value adjustment: Holm (family-wise) or Benjamini-Hochberg (FDR)"},
	{"threshold", PC_OPTION_DOUBLE, NULL, "1",
	 "percentage points: a change known to be smaller is no change"},
	{"power", PC_OPTION_DOUBLE, NULL, "80",
	 "power in percent of the minimum detectable effect"},
	{"symbols", PC_OPTION_STRING, NULL, NULL,
	 "comma-separated names: only these are tested"},
	PC_FILTER_OPTION_DECLS,
	PC_OPTION_DECLS_END,
};
const pc_option_decl pc_keys_rates[] = {
	PC_ATTRIBUTION_OPTION_DECLS,
	OUTPUT_FORMAT_DECL("text,csv,json"),
	CI_DECL("95"),
	PC_OPTION_DECLS_END,
};

/* ---- rates: the aliasing check across sampling periods --------------------- */

static int rates_body(pc_profile *const *caps, size_t m, const pc_options *o, pc_sink *k)
{
	pc_profile *p0 = caps[0];
	pc_outfmt fmt;
	double z, level;
	int st;
	if ((st = pc_rs_outfmt(p0, o, &fmt)) || (st = level_of(p0, o, &z, &level)))
		return st;
	for (size_t c = 0; c < m; c++)
		if (pc_profile_event_counts(caps[c]))
			return pc_profile_fail(p0, PC_EUNSUPPORTED,
					       "capture %zu holds exact counts, not samples: there is no sampling period to alias",
					       c + 1);
	symcount **v = calloc(m, sizeof *v);
	size_t *nv = calloc(m, sizeof *nv), *pos = calloc(m, sizeof *pos);
	double *tot = calloc(m, sizeof *tot), *kk = calloc(m, sizeof *kk);
	double *lo = calloc(m, sizeof *lo), *hi = calloc(m, sizeof *hi);
	pc_sink rows;
	pc_sink_init(&rows);
	if (!v || !nv || !pos || !tot || !kk || !lo || !hi) {
		st = pc_profile_fail(p0, PC_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t c = 0; c < m; c++) {
		if ((st = collect(caps[c], o, &v[c], &nv[c], &tot[c]))) {
			if (c) {
				const pc_error *e = pc_profile_error(caps[c]);
				st = pc_profile_fail(p0, st, "%s", e ? e->message : "capture failed");
			}
			goto out;
		}
		qsort(v[c], nv[c], sizeof *v[c], cmp_sc_name);
	}
	char lv[32];
	level_text(level, lv, sizeof lv);
	size_t w = 6;
	for (size_t c = 0; c < m; c++)
		for (size_t i = 0; i < nv[c]; i++)
			if (pc_name_width(v[c][i].name) > w)
				w = pc_name_width(v[c][i].name);
	size_t nrows = 0, nflag = 0;
	for (;;) {
		const char *name = NULL;
		for (size_t c = 0; c < m; c++)
			if (pos[c] < nv[c] && (!name || strcmp(v[c][pos[c]].name, name) < 0))
				name = v[c][pos[c]].name;
		if (!name)
			break;
		double any = 0;
		for (size_t c = 0; c < m; c++) {
			kk[c] = 0;
			while (pos[c] < nv[c] && !strcmp(v[c][pos[c]].name, name))
				kk[c] += v[c][pos[c]++].count;
			any += kk[c];
			pc_stats_wilson(&lo[c], &hi[c], kk[c], tot[c], z);
		}
		if (any <= 0)
			continue;
		double maxlo = 0, minhi = 1;
		for (size_t c = 0; c < m; c++) {
			if (lo[c] > maxlo)
				maxlo = lo[c];
			if (hi[c] < minhi)
				minhi = hi[c];
		}
		int dis = maxlo > minhi;
		nrows++;
		nflag += dis;
		if (fmt == PC_OUT_CSV) {
			for (size_t c = 0; c < m; c++) {
				pc_sink_csv_field(&rows, name);
				pc_sink_printf(&rows, ",%zu,", c + 1);
				pc_sink_count(&rows, kk[c]);
				pc_sink_printf(&rows, ",%.4f,%.4f,%.4f,%d\n",
					       tot[c] > 0 ? 100 * kk[c] / tot[c] : 0, 100 * lo[c],
					       100 * hi[c], dis);
			}
		} else if (fmt == PC_OUT_JSON) {
			pc_sink_printf(&rows, "%s\n    {\"symbol\": ", nrows > 1 ? "," : "");
			pc_sink_json_string(&rows, name);
			pc_sink_puts(&rows, ", \"captures\": [");
			for (size_t c = 0; c < m; c++) {
				pc_sink_puts(&rows, c ? ", {\"count\": " : "{\"count\": ");
				pc_sink_count(&rows, kk[c]);
				pc_sink_printf(&rows, ", \"percent\": %.4f, \"ci_low\": %.4f, \"ci_high\": %.4f}",
					       tot[c] > 0 ? 100 * kk[c] / tot[c] : 0,
					       100 * lo[c], 100 * hi[c]);
			}
			pc_sink_printf(&rows, "], \"disagree\": %s}", dis ? "true" : "false");
		} else {
			pc_sink_pad(&rows, name, w, -1);
			for (size_t c = 0; c < m; c++)
				pc_sink_printf(&rows, "  %6.2f [%5.2f, %5.2f]",
					       tot[c] > 0 ? 100 * kk[c] / tot[c] : 0, 100 * lo[c],
					       100 * hi[c]);
			pc_sink_puts(&rows, dis ? "  DISAGREE\n" : "\n");
		}
	}
	if (rows.failed) {
		st = pc_profile_fail(p0, PC_ENOMEM, "out of memory");
		goto out;
	}
	if (fmt == PC_OUT_CSV) {
		pc_sink_puts(k, "symbol,capture,count,percent,ci_low,ci_high,disagree\n");
	} else if (fmt == PC_OUT_JSON) {
		pc_sink_printf(k, "{\n  \"report\": \"rates\",\n  \"confidence\": %s,\n  \"captures\": [", lv);
		for (size_t c = 0; c < m; c++) {
			pc_sink_puts(k, c ? ",\n    {\"sources\": " : "\n    {\"sources\": ");
			pc_rs_sources_json(k, caps[c]);
			pc_sink_puts(k, ", \"samples\": ");
			pc_sink_count(k, tot[c]);
			pc_sink_puts(k, ", \"rate_hz\": ");
			if (pc_profile_rate(caps[c]) > 0)
				pc_sink_printf(k, "%.17g", pc_profile_rate(caps[c]));
			else
				pc_sink_puts(k, "null");
			pc_sink_puts(k, "}");
		}
		pc_sink_printf(k, "\n  ],\n  \"disagreeing\": %zu,\n  \"rows\": [", nflag);
	} else {
		pc_sink_printf(k, "Aliasing check across sampling periods (%s%% Wilson intervals)\n", lv);
		for (size_t c = 0; c < m; c++) {
			char t[48];
			pc_sink_printf(k, "Capture %zu: ", c + 1);
			sources_text(k, caps[c]);
			pc_sink_printf(k, "; %s samples", pc_fmt_count(tot[c], t, sizeof t));
			if (pc_profile_rate(caps[c]) > 0)
				pc_sink_printf(k, " at %g Hz", pc_profile_rate(caps[c]));
			pc_sink_puts(k, "\n");
		}
		for (size_t c = 0; c < m; c++)
			for (size_t d = c + 1; d < m; d++)
				if (pc_profile_rate(caps[c]) > 0 &&
				    pc_profile_rate(caps[c]) == pc_profile_rate(caps[d]))
					pc_sink_printf(k, "Note: captures %zu and %zu have the same rate; compare different periods (DDJ: in an irrational ratio)\n",
						       c + 1, d + 1);
		if (nflag)
			pc_sink_printf(k, "%zu symbol%s disagree%s beyond %s intervals: the sampling period likely beats with a program period in at least one capture\n\n",
				       nflag, nflag == 1 ? "" : "s", nflag == 1 ? "s" : "",
				       nflag == 1 ? "its" : "their");
		else
			pc_sink_puts(k, "No symbol's share disagrees beyond its intervals: no sign of aliasing\n\n");
		pc_sink_printf(k, "%-*s", (int)w, "symbol");
		for (size_t c = 0; c < m; c++) {
			char h[32];
			snprintf(h, sizeof h, "capture %zu %%", c + 1);
			pc_sink_printf(k, "  %-22s", h);
		}
		while (k->len && k->buf[k->len - 1] == ' ')
			k->len--;
		pc_sink_putc(k, '\n');
	}
	if (rows.len)
		pc_sink_write(k, rows.buf, rows.len);
	if (fmt == PC_OUT_JSON)
		pc_sink_puts(k, nrows ? "\n  ]\n}\n" : "]\n}\n");
	st = k->failed;
out:
	if (v)
		for (size_t c = 0; c < m; c++)
			free(v[c]);
	free(v), free(nv), free(pos), free(tot), free(kk), free(lo), free(hi);
	pc_sink_dispose(&rows);
	return st;
}

int pc_profile_compare_rates(char **out, size_t *len, pc_profile *const *caps,
			     size_t n, const pc_options *opts)
{
	if (!caps || !caps[0] || !out)
		return PC_EUSAGE;
	if (n < 2)
		return pc_profile_fail(caps[0], PC_EUSAGE,
				       "the aliasing check needs at least two captures");
	for (size_t i = 0; i < n; i++)
		if (!caps[i])
			return pc_profile_fail(caps[0], PC_EUSAGE, "capture %zu is missing", i + 1);
	if (pc_profile_check_options(caps[0], opts, pc_keys_rates, "pc_profile_compare_rates"))
		return PC_EUSAGE;
	pc_sink k;
	pc_sink_init(&k);
	int st = rates_body(caps, n, opts, &k);
	return pc_sink_take(caps[0], &k, st, out, len);
}
