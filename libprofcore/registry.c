/* registry.c - built-in loaders, run-time plugins, detection, loading. */
#include "model.h"
#include "internal.h"
#include "platform.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pc_registry {
	const pc_loader **loaders;
	pc_loader **copies; /* [i]: the registry's copy of an older loader, or NULL */
	size_t n, cap, ccap;
	void **handles;
	size_t nh, caph;
	pc_errslot err;
};

static size_t builtin_count(void)
{
	size_t n = 0;
	while (pc_builtin_loaders[n])
		n++;
	return n;
}

int pc_registry_new(pc_registry **out)
{
	if (!out)
		return pc_last_error_set(PC_EUSAGE, NULL,
					 "pc_registry_new: no place for the registry");
	*out = NULL;
	pc_registry *r = calloc(1, sizeof *r);
	if (!r)
		return pc_last_error_set(PC_ENOMEM, NULL,
					 "out of memory for a registry");
	r->err.pub.offset = -1;
	for (size_t i = 0; pc_builtin_loaders[i]; i++)
		if (pc_registry_add(r, pc_builtin_loaders[i])) {
			pc_registry_free(r);
			return pc_last_error_set(PC_ENOMEM, NULL,
						 "out of memory for a registry");
		}
	*out = r;
	return PC_OK;
}

void pc_registry_free(pc_registry *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nh; i++)
		pc_plat_dl_close(r->handles[i]);
	free(r->handles);
	for (size_t i = 0; i < r->n; i++)
		free(r->copies[i]);
	free(r->copies);
	free(r->loaders);
	pc_errslot_clear(&r->err);
	free(r);
}

static int reg_fail(pc_registry *r, int code, const char *file, const char *fmt, ...)
	PC_PRINTF(4, 5);
static int reg_fail(pc_registry *r, int code, const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pc_errslot_set(&r->err, code, file, -1, fmt, ap);
	va_end(ap);
	return code;
}

/* The bytes of a pc_loader of ABI version v: the fields it has. */
static size_t loader_size(unsigned v)
{
	if (v < 2)
		return offsetof(pc_loader, options);
	return sizeof(pc_loader);
}

/* Drops the loaders registered from index n on (a refused plugin). */
static void truncate_to(pc_registry *r, size_t n)
{
	while (r->n > n) {
		r->n--;
		free(r->copies[r->n]);
		r->copies[r->n] = NULL;
	}
}

int pc_registry_add(pc_registry *r, const pc_loader *l)
{
	if (!r)
		return PC_EUSAGE;
	/* abi_version is the first field of every version: read it alone */
	if (l && (l->abi_version < PC_LOADER_ABI_MIN || l->abi_version > PC_LOADER_ABI_VERSION))
		return reg_fail(r, PC_EUNSUPPORTED, NULL,
				"loader '%s' was built for loader ABI %u, this libprofcore supports %u to %u",
				l->name ? l->name : "", l->abi_version, PC_LOADER_ABI_MIN,
				PC_LOADER_ABI_VERSION);
	if (!l || !l->name || !l->load)
		return reg_fail(r, PC_EUSAGE, NULL, "loader without a name or load function");
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->loaders[i]->name, l->name) == 0)
			return reg_fail(r, PC_EUSAGE, NULL,
					"a loader named '%s' is already registered", l->name);
	if (pc_grow((void **)&r->loaders, &r->cap, r->n + 1, sizeof *r->loaders) ||
	    pc_grow((void **)&r->copies, &r->ccap, r->n + 1, sizeof *r->copies))
		return reg_fail(r, PC_ENOMEM, NULL, "out of memory");
	pc_loader *copy = NULL;
	if (l->abi_version < PC_LOADER_ABI_VERSION) {
		/* an older, shorter struct: copy the fields it has, the later
		 * ones stay zero (NULL options: nothing declared) */
		copy = calloc(1, sizeof *copy);
		if (!copy)
			return reg_fail(r, PC_ENOMEM, NULL, "out of memory");
		memcpy(copy, l, loader_size(l->abi_version));
		l = copy;
	}
	r->copies[r->n] = copy;
	r->loaders[r->n++] = l;
	return PC_OK;
}

int pc_registry_load_plugin(pc_registry *r, const char *path)
{
	char why[512];
	void *h = pc_plat_dl_open(path, why, sizeof why);
	if (!h)
		return reg_fail(r, PC_EIO, path, "cannot load plugin: %s", why);
	pc_plugin_entry_fn entry;
	void *sym = pc_plat_dl_sym(h, PC_PLUGIN_ENTRY);
	memcpy(&entry, &sym, sizeof entry);
	if (!sym) {
		pc_plat_dl_close(h);
		return reg_fail(r, PC_EUNSUPPORTED, path,
				"not a profcore plugin: no '%s' entry point", PC_PLUGIN_ENTRY);
	}
	unsigned abi = 0;
	const pc_loader *const *ls = entry(&abi);
	if (abi < PC_LOADER_ABI_MIN || abi > PC_LOADER_ABI_VERSION) {
		pc_plat_dl_close(h);
		return reg_fail(r, PC_EUNSUPPORTED, path,
				"plugin built for loader ABI %u, this libprofcore supports %u to %u",
				abi, PC_LOADER_ABI_MIN, PC_LOADER_ABI_VERSION);
	}
	if (!ls || !ls[0]) {
		pc_plat_dl_close(h);
		return reg_fail(r, PC_EUNSUPPORTED, path, "plugin provides no loaders");
	}
	size_t before = r->n;
	for (size_t i = 0; ls[i]; i++) {
		int st = pc_registry_add(r, ls[i]);
		if (st) {
			truncate_to(r, before);
			pc_errslot_fill_file(&r->err, path);
			pc_plat_dl_close(h);
			return st;
		}
	}
	if (pc_grow((void **)&r->handles, &r->caph, r->nh + 1, sizeof *r->handles)) {
		truncate_to(r, before);
		pc_plat_dl_close(h);
		return reg_fail(r, PC_ENOMEM, path, "out of memory");
	}
	r->handles[r->nh++] = h;
	return PC_OK;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pc_registry_load_plugins(pc_registry *r, const char *dirs)
{
	int first_err = PC_OK;
	if (!dirs)
		return PC_OK;
	char *copy = pc_strdup(dirs);
	if (!copy)
		return reg_fail(r, PC_ENOMEM, NULL, "out of memory");
	const char sep[2] = {PC_PLAT_PATH_LIST_SEP, '\0'};
	for (char *save = NULL, *d = strtok_r(copy, sep, &save); d;
	     d = strtok_r(NULL, sep, &save)) {
		DIR *dir = opendir(d);
		if (!dir)
			continue; /* a missing directory is not an error */
		char **names = NULL;
		size_t n = 0, cap = 0;
		struct dirent *e;
		while ((e = readdir(dir))) {
			size_t l = strlen(e->d_name);
			size_t sl = strlen(PC_PLAT_PLUGIN_SUFFIX);
			if (l <= sl || strcmp(e->d_name + l - sl, PC_PLAT_PLUGIN_SUFFIX) != 0)
				continue;
			size_t pl = strlen(d) + l + 2;
			char *full = malloc(pl);
			if (!full || pc_grow((void **)&names, &cap, n + 1, sizeof *names)) {
				free(full);
				break;
			}
			snprintf(full, pl, "%s/%s", d, e->d_name);
			names[n++] = full;
		}
		closedir(dir);
		if (n)
			qsort(names, n, sizeof *names, cmp_str);
		for (size_t i = 0; i < n; i++) {
			int st = pc_registry_load_plugin(r, names[i]);
			if (st && first_err == PC_OK)
				first_err = st;
			free(names[i]);
		}
		free(names);
	}
	free(copy);
	return first_err;
}

const pc_error *pc_registry_error(const pc_registry *r)
{
	return r->err.pub.code ? &r->err.pub : NULL;
}

size_t pc_registry_count(const pc_registry *r)
{
	return r ? r->n : builtin_count();
}

const pc_loader *pc_registry_at(const pc_registry *r, size_t i)
{
	if (!r)
		return i < builtin_count() ? pc_builtin_loaders[i] : NULL;
	return i < r->n ? r->loaders[i] : NULL;
}

const pc_loader *pc_registry_find(const pc_registry *r, const char *name)
{
	for (size_t i = 0, n = pc_registry_count(r); i < n; i++) {
		const pc_loader *l = pc_registry_at(r, i);
		if (strcmp(l->name, name) == 0)
			return l;
	}
	return NULL;
}

const pc_loader *pc_registry_detect(int *confidence, const pc_registry *r,
				    pc_stream *s)
{
	const unsigned char *head;
	size_t len;
	pc_stream_peek(&head, &len, s);
	const char *name = pc_stream_name(s);
	const pc_loader *best = NULL;
	int bestc = 0;
	for (size_t i = 0, n = pc_registry_count(r); i < n; i++) {
		const pc_loader *l = pc_registry_at(r, i);
		if (!l->probe)
			continue;
		int c = l->probe(head, len, name);
		if (c > bestc) {
			bestc = c;
			best = l;
		}
	}
	if (confidence)
		*confidence = bestc;
	return best;
}

static void set_error_v(pc_errslot *e, int code, const char *file,
			int64_t off, const char *fmt, ...) PC_PRINTF(5, 6);
static void set_error_v(pc_errslot *e, int code, const char *file,
			int64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pc_errslot_set(e, code, file, off, fmt, ap);
	va_end(ap);
}

static void set_error(pc_errslot *e, const pc_error *src)
{
	set_error_v(e, src->code, src->file, src->offset, "%s", src->message);
}

/* ---- loading ------------------------------------------------------------- */

/* ---- bounded reads -------------------------------------------------------
 * Most loaders read their whole input before parsing it.  For an input of
 * unknown size (gzip, a pipe, a device such as /dev/zero) that is a risk:
 * a gzip bomb or an endless device would be read up to the loader's limit
 * (1 GiB and more) before a header error at byte 37 is seen.  So such an
 * input is first parsed from its first TRIAL bytes and from its first
 * 2 * TRIAL bytes (scratch profiles, same loader and options).  When both
 * fail with the same error (status, offset and message), the error does
 * not depend on where the input was cut, and it is the input's error: it
 * is reported at once.  Any other outcome (success, truncation, errors
 * that name the size) leads to the normal load. */
#define TRIAL ((size_t)64 * 1024)

static int trial_one(const pc_profile *p, const pc_loader *l, pc_stream *s,
		     const unsigned char *b, size_t n, const pc_options *opts,
		     pc_errslot *out)
{
	pc_profile *t;
	pc_stream *m = NULL;
	if (pc_profile_new(&t, p->reg) == PC_OK) {
		pc_samples_set_threads(t->samples, pc_samples_threads(p->samples));
		pc_stream_open_memory(&m, b, n, pc_stream_name(s));
	}
	int st = PC_ENOMEM;
	if (m) {
		st = l->load(t, m, opts);
		const pc_error *se = pc_stream_error(m);
		if (st < 0 && se && se->code == st)
			set_error(out, se);
		else
			st = PC_OK; /* a failure without a stream error: not used */
	}
	pc_stream_free(m);
	pc_profile_free(t);
	return st;
}

/* 1 with the error in s when the trial parses find one (see above). */
static int trial_fails(const pc_profile *p, const pc_loader *l, pc_stream *s,
		       const pc_options *opts)
{
	const unsigned char *b;
	size_t n;
	if (pc_stream_known_size(s) >= 0 || pc_stream_offset(s) != 0 ||
	    pc_stream_lookahead(s, 2 * TRIAL + 1, &b, &n) || n <= 2 * TRIAL)
		return 0; /* size known, or the whole input is small */
	pc_errslot e1, e2;
	memset(&e1, 0, sizeof e1);
	memset(&e2, 0, sizeof e2);
	int s1 = trial_one(p, l, s, b, TRIAL, opts, &e1);
	int s2 = s1 < 0 && s1 != PC_ENOMEM && s1 != PC_ETRUNC && s1 != PC_EIO
			 ? trial_one(p, l, s, b, 2 * TRIAL, opts, &e2)
			 : PC_OK;
	int same = s2 < 0 && s1 == s2 && e1.pub.offset == e2.pub.offset &&
		   e1.pub.offset >= 0 && (uint64_t)e1.pub.offset < TRIAL && e1.message &&
		   e2.message && !strcmp(e1.message, e2.message);
	if (same)
		pc_stream_fail(s, s1, e1.pub.offset, "%s", e1.message);
	pc_errslot_clear(&e1);
	pc_errslot_clear(&e2);
	return same;
}

static int load_with(pc_profile *p, const pc_loader *l, pc_stream *s,
		     const pc_options *opts, double forced);

int pc_profile_load_stream(pc_profile *p, pc_stream *s, const char *format,
			   const pc_options *opts)
{
	const pc_loader *l;
	pc_errslot_clear(&p->diag.err);
	if (format && *format && strcmp(format, "auto") != 0) {
		l = pc_registry_find(p->reg, format);
		if (!l) {
			pc_profile_fail(p, PC_ENOTFOUND, "no loader named '%s'", format);
			pc_errslot_fill_file(&p->diag.err, pc_stream_name(s));
			return PC_ENOTFOUND;
		}
	} else {
		l = pc_registry_detect(NULL, p->reg, s);
		if (!l) {
			const unsigned char *h;
			size_t n;
			pc_stream_peek(&h, &n, s);
			if (pc_stream_error(s)) { /* corrupt gzip: that is the error */
				set_error(&p->diag.err, pc_stream_error(s));
				return p->diag.err.pub.code;
			}
			pc_profile_fail(p, PC_EUNKNOWN,
					n ? "unrecognised file format: no loader recognises its content"
					  : "empty file");
			p->diag.err.pub.offset = 0;
			pc_errslot_fill_file(&p->diag.err, pc_stream_name(s));
			return PC_EUNKNOWN;
		}
	}
	/* "rate" is every capture loader's: one that does not declare it
	 * (raw dumps, Hatari, PRF...) loads without it, and the rate is
	 * set after (a capture that states another: its rate is kept in the
	 * meta key rate.stated); gmon and mon.out read it themselves */
	double forced = 0;
	pc_options *own = NULL;
	const char *rv = pc_options_get(opts, "rate");
	int declared = !rv || l->abi_version < 2;
	for (size_t i = 0; !declared && l->options && l->options[i].name; i++)
		declared = !strcmp(l->options[i].name, "rate");
	if (!declared) {
		char *end;
		forced = strtod(rv, &end);
		if (end == rv || *end || !isfinite(forced) || forced <= 0) {
			pc_profile_fail(p, PC_EUSAGE,
					"bad value '%s' for option 'rate'; expected a number of samples per second above 0",
					rv);
			pc_errslot_fill_file(&p->diag.err, pc_stream_name(s));
			return PC_EUSAGE;
		}
		int st = pc_options_new(&own);
		for (size_t i = 0; !st && i < pc_options_count(opts); i++) {
			const char *k = pc_options_key_at(opts, i);
			if (strcmp(k, "rate"))
				st = pc_options_set(own, k, pc_options_get(opts, k));
		}
		if (st) {
			pc_options_free(own);
			return pc_profile_fail(p, PC_ENOMEM, "out of memory");
		}
		opts = own;
	}
	int st = load_with(p, l, s, opts, forced);
	pc_options_free(own);
	return st;
}

/* pc_profile_load_stream with the loader l chosen and forced the rate
 * the option gives a loader that does not declare it (0: none) */
static int load_with(pc_profile *p, const pc_loader *l, pc_stream *s,
		     const pc_options *opts, double forced)
{
	/* the options: only keys the loader declares, with fitting values
	 * (a loader built for ABI 1 declares none: not checked) */
	if (l->abi_version >= 2) {
		char consumer[128];
		snprintf(consumer, sizeof consumer, "loader %s", l->name);
		if (pc_profile_check_options(p, opts, l->options, consumer)) {
			pc_errslot_fill_file(&p->diag.err, pc_stream_name(s));
			return PC_EUSAGE;
		}
	}
	/* one rate rule for every way of adding captures up (fit.c): the
	 * loader sees no rate, and what it sets is checked against the
	 * rate of what was loaded before */
	double had = pc_profile_rate(p);
	pc_profile_set_rate(p, 0);
	int st = trial_fails(p, l, s, opts) ? pc_stream_error(s)->code
						 : l->load(p, s, opts);
	double got = pc_profile_rate(p);
	if (st >= 0 && forced > 0) {
		const char *dim = pc_profile_dimension(p);
		if (dim && strcmp(dim, "seconds")) {
			pc_profile_set_rate(p, had);
			pc_profile_fail(p, PC_EUSAGE,
					"the counts are %s, not time samples: a sampling rate does not apply to them",
					dim);
			pc_errslot_fill_file(&p->diag.err, pc_stream_name(s));
			return PC_EUSAGE;
		}
		if (got > 0 && got != forced) {
			char v[64];
			snprintf(v, sizeof v, "%.15g", got);
			if (pc_profile_set_meta(p, "rate.stated", v))
				return PC_ENOMEM;
		}
		got = forced;
	}
	pc_profile_set_rate(p, got > 0 ? got : had);
	if (st >= 0 && pc_rates_check(p, had, got)) {
		pc_profile_set_rate(p, had);
		pc_errslot_fill_file(&p->diag.err, pc_stream_name(s));
		return PC_EUNSUPPORTED;
	}
	if (st < 0) {
		const pc_error *se = pc_stream_error(s);
		if (se && se->code) {
			set_error(&p->diag.err, se);
		} else if (!p->diag.err.pub.code) {
			pc_profile_fail(p, st, "%s loader failed: %s", l->name,
					pc_status_name(st));
		}
		if (!p->diag.err.pub.code)
			p->diag.err.pub.code = st;
		pc_errslot_fill_file(&p->diag.err, pc_stream_name(s));
		return st;
	}
	if (pc_profile_add_source(p, l->name, pc_stream_name(s)))
		return pc_profile_fail(p, PC_ENOMEM, "out of memory");
	return PC_OK;
}

int pc_profile_load_file(pc_profile *p, const char *path, const char *format,
			 const pc_options *opts)
{
	pc_stream *s;
	int st = pc_stream_open_file(&s, path);
	if (st) {
		if (st == PC_ENOTFOUND)
			pc_profile_fail(p, PC_EIO, "no such file");
		else if (st == PC_EIO)
			pc_profile_fail(p, PC_EIO, "cannot read file");
		else
			pc_profile_fail(p, st, "cannot open: %s", pc_status_name(st));
		pc_errslot_fill_file(&p->diag.err, path);
		return p->diag.err.pub.code;
	}
	st = pc_profile_load_stream(p, s, format, opts);
	pc_stream_free(s);
	return st;
}

int pc_profile_load_memory(pc_profile *p, const void *buf, size_t len,
			   const char *name, const char *format,
			   const pc_options *opts)
{
	pc_stream *s;
	int st = pc_stream_open_memory(&s, buf, len, name);
	if (st)
		return pc_profile_fail(p, st, "cannot open memory stream: %s",
				       pc_status_name(st));
	st = pc_profile_load_stream(p, s, format, opts);
	pc_stream_free(s);
	return st;
}
