/*
 * filter.c - --focus, --ignore and --hide for the reports that see
 * samples one address at a time (regions, intervals, source, locations,
 * disasm, symbols; the call graph, arcs and the HTML call tables through
 * pc_filter_profile): the one-frame rule of the flat report
 * (docs/usage.md ("Rows")), per attribution row.
 *
 * A sample is kept when the row (symbol) holding it passes: its name
 * matches focus (when given) and neither ignore nor hide (a one-frame
 * stack: hiding its only frame drops the sample, as pprof drops a sample
 * left without locations).  A sample in no symbol (another region, or
 * program code no symbol covers) has no name: it is dropped by a focus
 * and kept otherwise.  The stack exports apply the stack rule instead
 * (exports.c filter_chains).
 */
#include "filter.h"
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pc_rowfilter_init(pc_profile *p, const pc_options *o, pc_rowfilter *rf)
{
	memset(rf, 0, sizeof *rf);
	int r = pc_filter_init(p, o, &rf->f);
	if (r)
		return r;
	rf->any = rf->f.any;
	rf->opts = o;
	if (!rf->any)
		return PC_OK;
	if ((r = pc_profile_attribute(p, pc_options_attrib(o))))
		return r;
	rf->p = p;
	rf->nrows = pc_profile_rows(p);
	rf->keep = malloc(rf->nrows ? rf->nrows : 1);
	if (!rf->keep)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	memset(rf->keep, 0xff, rf->nrows ? rf->nrows : 1); /* unknown */
	return PC_OK;
}

void pc_rowfilter_dispose(pc_rowfilter *rf)
{
	pc_filter_dispose(&rf->f);
	free(rf->keep);
	memset(rf, 0, sizeof *rf);
}

int pc_rowfilter_keep_row(pc_rowfilter *rf, int64_t row)
{
	if (!rf->any)
		return 1;
	if (row < 0 || (uint64_t)row >= rf->nrows)
		return rf->f.focus ? 0 : 1;
	signed char *k = &rf->keep[row];
	if (*k >= 0)
		return *k;
	pc_row r;
	pc_symbol sym;
	int st;
	if ((st = pc_profile_row_at(&r, rf->p, (size_t)row)) ||
	    (st = pc_profile_symbol_at(&sym, rf->p, r.symbol)))
		return st;
	int m = pc_filter_keep_frame(rf->p, &rf->f, r.name ? r.name : "",
				     sym.name);
	if (m < 0)
		return m;
	*k = (signed char)m;
	return m;
}

int pc_rowfilter_keep_at(pc_rowfilter *rf, uint32_t segment, uint64_t address)
{
	if (!rf->any)
		return 1;
	return pc_rowfilter_keep_row(rf, pc_profile_row_find(rf->p, segment, address));
}

int pc_rowfilter_keep_name(pc_rowfilter *rf, const char *name, const char *key)
{
	if (!rf->any)
		return 1;
	return pc_filter_keep_frame(rf->p, &rf->f, name ? name : "", key);
}

int pc_rowfilter_ranges(pc_rowfilter *rf, uint32_t segment, uint64_t low,
			uint64_t high, pc_addr_range **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	pc_addr_range *v = NULL;
	size_t cap = 0, nv = 0;
	uint64_t at = low; /* [at, ...) not yet covered */
	pc_profile *p = rf->p;
	for (size_t i = 0; i <= p->ntargets && at < high; i++) {
		const pc_target *t = i < p->ntargets ? &p->targets[i] : NULL;
		if (t && (t->segment != segment || t->end <= at))
			continue;
		uint64_t gap_end = t && t->address < high ? t->address : high;
		uint64_t s[2][2];
		int keep[2];
		size_t np = 0;
		if (gap_end > at) { /* no symbol there */
			s[np][0] = at;
			s[np][1] = gap_end;
			keep[np++] = rf->f.focus ? 0 : 1;
		}
		if (t && t->address < high) {
			int k = pc_rowfilter_keep_row(rf, (int64_t)i);
			if (k < 0) {
				free(v);
				return k;
			}
			s[np][0] = t->address > at ? t->address : at;
			s[np][1] = t->end < high ? t->end : high;
			keep[np++] = k;
		}
		for (size_t j = 0; j < np; j++) {
			if (s[j][1] <= s[j][0])
				continue;
			if (keep[j] && nv && v[nv - 1].high == s[j][0]) {
				v[nv - 1].high = s[j][1];
			} else if (keep[j]) {
				if (pc_grow((void **)&v, &cap, nv + 1, sizeof *v)) {
					free(v);
					return pc_profile_fail(p, PC_ENOMEM, "out of memory");
				}
				v[nv++] = (pc_addr_range){s[j][0], s[j][1]};
			}
			at = s[j][1];
		}
		if (!t)
			break;
	}
	*out = v;
	*n = nv;
	return PC_OK;
}

int pc_filter_totals_line(const pc_rowfilter *rf, double kept, double all,
			  pc_sink *k)
{
	if (!rf->any)
		return PC_OK;
	char buf[48];
	pc_sink_puts(k, "Filters: ");
	pc_filter_describe(rf->opts, k);
	pc_sink_printf(k, "; kept %s", pc_fmt_count(kept, buf, sizeof buf));
	pc_sink_printf(k, " of %s samples\n", pc_fmt_count(all, buf, sizeof buf));
	return k->failed;
}

int pc_filter_json(const pc_options *o, pc_sink *k)
{
	static const char *const keys[] = {"focus", "ignore", "hide"};
	pc_sink_puts(k, "{");
	for (size_t i = 0; i < 3; i++) {
		const char *v = pc_options_get(o, keys[i]);
		pc_sink_printf(k, "%s\"%s\": ", i ? ", " : "", keys[i]);
		if (v)
			pc_sink_json_string(k, v);
		else
			pc_sink_puts(k, "null");
	}
	pc_sink_puts(k, "}");
	return k->failed;
}

/* ---- the compiled filters ------------------------------------------ */

static int compile_one(pc_profile *p, const pc_options *o, const char *key,
		       pc_re **out)
{
	const char *v = pc_options_get(o, key);
	*out = NULL;
	if (!v)
		return PC_OK;
	char err[256];
	int r = pc_re_compile(v, strlen(v), PC_RE_NAMED, out, err, sizeof err);
	if (r == PC_ENOMEM)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	if (r)
		return pc_profile_fail(p, PC_EUSAGE, "%s: bad regular expression '%s': %s",
				       key, v, err);
	return PC_OK;
}

int pc_filter_init(pc_profile *p, const pc_options *o, pc_filter *f)
{
	memset(f, 0, sizeof *f);
	int r;
	if ((r = compile_one(p, o, "focus", &f->focus)) ||
	    (r = compile_one(p, o, "ignore", &f->ignore)) ||
	    (r = compile_one(p, o, "hide", &f->hide)))
		return r;
	f->any = f->focus || f->ignore || f->hide;
	return PC_OK;
}

void pc_filter_dispose(pc_filter *f)
{
	pc_re_free(f->focus);
	pc_re_free(f->ignore);
	pc_re_free(f->hide);
	pc_re_scratch_free(&f->sc);
	memset(f, 0, sizeof *f);
}

static int match1(pc_profile *p, pc_filter *f, const pc_re *re, const char *s)
{
	int m = pc_re_exec(re, &f->sc, s, strlen(s), NULL, 0);
	if (m == PC_ENOMEM)
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	if (m < 0)
		return pc_profile_fail(p, PC_ELIMIT,
				       "a focus, ignore or hide expression takes too long on '%s'",
				       s);
	return m;
}

int pc_filter_match(pc_profile *p, pc_filter *f, const pc_re *re,
		    const char *name, const char *key)
{
	if (!re)
		return 0;
	int m = match1(p, f, re, name);
	if (m == 0 && key && strcmp(key, name))
		m = match1(p, f, re, key);
	return m;
}

int pc_filter_keep_frame(pc_profile *p, pc_filter *f, const char *name,
			 const char *key)
{
	int m;
	if (f->focus && (m = pc_filter_match(p, f, f->focus, name, key)) <= 0)
		return m;
	if ((m = pc_filter_match(p, f, f->ignore, name, key)) != 0)
		return m < 0 ? m : 0;
	if ((m = pc_filter_match(p, f, f->hide, name, key)) != 0)
		return m < 0 ? m : 0;
	return 1;
}

int pc_filter_describe(const pc_options *o, pc_sink *k)
{
	static const char *const keys[] = {"focus", "ignore", "hide"};
	int n = 0;
	for (size_t i = 0; i < 3; i++) {
		const char *v = pc_options_get(o, keys[i]);
		if (!v)
			continue;
		pc_sink_printf(k, "%s%s ", n++ ? ", " : "", keys[i]);
		pc_sink_name(k, v);
	}
	return n;
}

int pc_rowset_refuse_selection(pc_profile *p, const pc_options *o,
			       const char *what, int stacks)
{
	static const char *const keys[] = {"focus", "ignore", "hide", "top", "sort"};
	for (size_t i = stacks ? 3 : 0; i < sizeof keys / sizeof keys[0]; i++)
		if (pc_options_get(o, keys[i]))
			return pc_profile_fail(p, PC_EUSAGE,
					       "%s does not take the %s option yet (it applies to the flat "
					       "report, every style, and the bar chart%s)",
					       what, keys[i],
					       i < 3 ? "; focus, ignore and hide also to the other reports and "
						       "the stack exports" : "");
	return PC_OK;
}
