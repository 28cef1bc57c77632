/* options.c - the key/value bag given to loaders, reports and exports,
 * checked against the keys its consumer declares (pc_option_decl); the
 * typed options of the library's own functions (pc_attrib_options, ...)
 * and the string keys parsed into them. */
#include "pc_base.h"
#include "optview.h"
#include "sink.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pc_options {
	char **keys;
	char **values;
	size_t n, cap, vcap;
	const pc_option_decl *bound; /* the consumer's keys, or NULL */
	char *consumer;
	pc_errslot err;
	/* the typed keys the library itself reads, parsed when set (a bad
	 * value leaves the default: the consumer's key check refuses it) */
	pc_attrib_options attrib;
	pc_callgraph_options cg; /* cg.attrib: &attrib */
	pc_dwarf_options dwarf;
	pc_outfmt outfmt;
	pc_gran gran;
};

static void refresh_typed(pc_options *o);

const char *pc_option_type_name(pc_option_type t)
{
	switch (t) {
	case PC_OPTION_STRING: return "string";
	case PC_OPTION_U64: return "u64";
	case PC_OPTION_DOUBLE: return "number";
	case PC_OPTION_BOOL: return "bool";
	case PC_OPTION_ENUM: return "enum";
	}
	return "?";
}

int pc_options_new(pc_options **out)
{
	if (!out)
		return pc_last_error_set(PC_EUSAGE, NULL,
					 "pc_options_new: no place for the options");
	*out = calloc(1, sizeof(pc_options));
	if (!*out)
		return pc_last_error_set(PC_ENOMEM, NULL,
					 "out of memory for new options");
	(*out)->err.pub.offset = -1;
	refresh_typed(*out);
	return PC_OK;
}

void pc_options_free(pc_options *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->n; i++) {
		free(o->keys[i]);
		free(o->values[i]);
	}
	free(o->keys);
	free(o->values);
	free(o->consumer);
	pc_errslot_clear(&o->err);
	free(o);
}

/* ---- checking against a key table ------------------------------------- */

static int same_word(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = (char)(*a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a);
		if (x != *b)
			return 0;
	}
	return *a == *b;
}

/* 1 if v is one of the comma-separated choices */
static int in_choices(const char *choices, const char *v)
{
	size_t vl = strlen(v);
	for (const char *c = choices; c && *c;) {
		const char *e = strchr(c, ',');
		size_t l = e ? (size_t)(e - c) : strlen(c);
		if (l == vl && !strncmp(c, v, l))
			return 1;
		c = e ? e + 1 : c + l;
	}
	return 0;
}

static int parse_u64(const char *v, uint64_t *out)
{
	char *end;
	if (*v == '-' || *v == '+' || *v == '\0' || *v == ' ' || *v == '\t')
		return PC_EUSAGE;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 0);
	if (errno || *end)
		return PC_EUSAGE;
	*out = (uint64_t)x;
	return PC_OK;
}

static int parse_double(const char *v, double *out)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (errno || *end || end == v || !isfinite(x))
		return PC_EUSAGE;
	*out = x;
	return PC_OK;
}

const pc_option_decl *pc_option_find(const pc_option_decl *keys, const char *key)
{
	for (size_t i = 0; keys && keys[i].name; i++)
		if (!strcmp(keys[i].name, key))
			return &keys[i];
	return NULL;
}

/* "a, b, c" into msg after its current text */
static void append_known(char *msg, size_t cap, const pc_option_decl *keys)
{
	size_t l = strlen(msg);
	if (!keys || !keys[0].name) {
		snprintf(msg + l, cap - l, "none");
		return;
	}
	for (size_t i = 0; keys[i].name && l < cap; i++) {
		snprintf(msg + l, cap - l, "%s%s", i ? ", " : "", keys[i].name);
		l += strlen(msg + l);
	}
}

int pc_option_check(const pc_option_decl *keys, const char *consumer,
		    const char *key, const char *value, char *msg, size_t cap)
{
	const pc_option_decl *d = pc_option_find(keys, key);
	char shown[160], vshown[160];
	pc_name_escape(shown, sizeof shown, key);
	if (!d) {
		snprintf(msg, cap, "unknown option '%s' for %s; known: ", shown,
			 consumer ? consumer : "this consumer");
		append_known(msg, cap, keys);
		return PC_EUSAGE;
	}
	if (!value)
		return PC_OK;
	pc_name_escape(vshown, sizeof vshown, value);
	uint64_t u;
	double x;
	const char *expected = NULL;
	switch (d->type) {
	case PC_OPTION_STRING:
		return PC_OK;
	case PC_OPTION_U64:
		if (parse_u64(value, &u))
			expected = "an unsigned integer";
		break;
	case PC_OPTION_DOUBLE:
		if (parse_double(value, &x))
			expected = "a number";
		break;
	case PC_OPTION_BOOL: {
		static const char *const words[] = {"0", "1", "no", "yes", "off", "on",
						    "false", "true"};
		int ok = 0;
		for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
			ok |= same_word(value, words[i]);
		if (!ok)
			expected = "0 or 1 (no/yes, off/on, false/true)";
		break;
	}
	case PC_OPTION_ENUM:
		if (!in_choices(d->choices, value)) {
			snprintf(msg, cap, "bad value '%s' for option '%s' of %s; expected one of: ",
				 vshown, shown, consumer ? consumer : "this consumer");
			size_t l = strlen(msg);
			for (const char *c = d->choices; c && *c && l + 3 < cap; c++) {
				if (*c == ',') {
					msg[l++] = ',';
					msg[l++] = ' ';
				} else {
					msg[l++] = *c;
				}
			}
			msg[l < cap ? l : cap - 1] = '\0';
			return PC_EUSAGE;
		}
		break;
	}
	if (!expected)
		return PC_OK;
	snprintf(msg, cap, "bad value '%s' for option '%s' of %s; expected %s", vshown,
		 shown, consumer ? consumer : "this consumer", expected);
	return PC_EUSAGE;
}

int pc_options_check(const pc_options *o, const pc_option_decl *keys,
		     const char *consumer, char *msg, size_t cap)
{
	for (size_t i = 0; o && i < o->n; i++) {
		int st = pc_option_check(keys, consumer, o->keys[i], o->values[i], msg, cap);
		if (st)
			return st;
	}
	return PC_OK;
}

static int opt_fail(pc_options *o, int code, const char *fmt, ...) PC_PRINTF(3, 4);
static int opt_fail(pc_options *o, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pc_errslot_set(&o->err, code, NULL, -1, fmt, ap);
	va_end(ap);
	return code;
}

int pc_options_bind(pc_options *o, const pc_option_decl *keys, const char *consumer)
{
	if (!o)
		return PC_EUSAGE;
	char msg[1024];
	int st = keys ? pc_options_check(o, keys, consumer, msg, sizeof msg) : PC_OK;
	if (st)
		return opt_fail(o, st, "%s", msg);
	char *c = consumer ? pc_strdup(consumer) : NULL;
	if (consumer && !c)
		return opt_fail(o, PC_ENOMEM, "out of memory");
	free(o->consumer);
	o->consumer = c;
	o->bound = keys;
	pc_errslot_clear(&o->err);
	return PC_OK;
}

const pc_error *pc_options_error(const pc_options *o)
{
	return o && o->err.pub.code ? &o->err.pub : NULL;
}

/* ---- the bag ------------------------------------------------------------ */

static int find(const pc_options *o, const char *key, size_t *at)
{
	for (size_t i = 0; o && key && i < o->n; i++)
		if (strcmp(o->keys[i], key) == 0) {
			*at = i;
			return 1;
		}
	return 0;
}

int pc_options_set(pc_options *o, const char *key, const char *value)
{
	if (!o)
		return PC_EUSAGE;
	if (!key || !*key)
		return opt_fail(o, PC_EUSAGE, "empty option name");
	if (o->bound) {
		char msg[1024];
		int st = pc_option_check(o->bound, o->consumer, key, value, msg, sizeof msg);
		if (st)
			return opt_fail(o, st, "%s", msg);
	}
	size_t i;
	int have = find(o, key, &i);
	if (!value) {
		if (have) {
			free(o->keys[i]);
			free(o->values[i]);
			memmove(o->keys + i, o->keys + i + 1, (o->n - i - 1) * sizeof *o->keys);
			memmove(o->values + i, o->values + i + 1,
				(o->n - i - 1) * sizeof *o->values);
			o->n--;
		}
		refresh_typed(o);
		pc_errslot_clear(&o->err);
		return PC_OK;
	}
	char *v = pc_strdup(value);
	if (!v)
		return opt_fail(o, PC_ENOMEM, "out of memory");
	if (have) {
		free(o->values[i]);
		o->values[i] = v;
		refresh_typed(o);
		pc_errslot_clear(&o->err);
		return PC_OK;
	}
	char *k = pc_strdup(key);
	if (!k || pc_grow((void **)&o->keys, &o->cap, o->n + 1, sizeof(char *)) ||
	    pc_grow((void **)&o->values, &o->vcap, o->n + 1, sizeof(char *))) {
		free(k);
		free(v);
		return opt_fail(o, PC_ENOMEM, "out of memory");
	}
	o->keys[o->n] = k;
	o->values[o->n] = v;
	o->n++;
	refresh_typed(o);
	pc_errslot_clear(&o->err);
	return PC_OK;
}

int pc_options_parse(pc_options *o, const char *assignment)
{
	if (!o || !assignment)
		return PC_EUSAGE;
	const char *eq = strchr(assignment, '=');
	if (!eq)
		return pc_options_set(o, assignment, "1");
	if (eq == assignment)
		return opt_fail(o, PC_EUSAGE, "option '%s' has no name before '='", assignment);
	char *k = pc_strndup(assignment, (size_t)(eq - assignment));
	if (!k)
		return opt_fail(o, PC_ENOMEM, "out of memory");
	int r = pc_options_set(o, k, eq + 1);
	free(k);
	return r;
}

const char *pc_options_get(const pc_options *o, const char *key)
{
	size_t i;
	return find(o, key, &i) ? o->values[i] : NULL;
}

int pc_options_get_u64(uint64_t *out, int *found, const pc_options *o,
		       const char *key)
{
	const char *v = pc_options_get(o, key);
	if (found)
		*found = v != NULL;
	if (!v)
		return PC_OK;
	uint64_t x;
	if (parse_u64(v, &x))
		return PC_EUSAGE;
	*out = x;
	return PC_OK;
}

int pc_options_get_double(double *out, int *found, const pc_options *o,
			  const char *key)
{
	const char *v = pc_options_get(o, key);
	if (found)
		*found = v != NULL;
	if (!v)
		return PC_OK;
	double x;
	char *end;
	errno = 0;
	x = strtod(v, &end);
	if (errno || *end || end == v)
		return PC_EUSAGE;
	*out = x;
	return PC_OK;
}

size_t pc_options_count(const pc_options *o)
{
	return o ? o->n : 0;
}

const char *pc_options_key_at(const pc_options *o, size_t i)
{
	return o && i < o->n ? o->keys[i] : NULL;
}

/* ---- typed options ------------------------------------------------------ */

int pc_attrib_options_init(pc_attrib_options *opts, unsigned version)
{
	if (!opts || version != PC_ATTRIB_OPTIONS_VERSION)
		return PC_EUSAGE;
	pc_attrib_options d = PC_ATTRIB_OPTIONS_INIT;
	*opts = d;
	return PC_OK;
}

int pc_callgraph_options_init(pc_callgraph_options *opts, unsigned version)
{
	if (!opts || version != PC_CALLGRAPH_OPTIONS_VERSION)
		return PC_EUSAGE;
	pc_callgraph_options d = PC_CALLGRAPH_OPTIONS_INIT;
	*opts = d;
	return PC_OK;
}

int pc_fit_options_init(pc_fit_options *opts, unsigned version)
{
	if (!opts || version != PC_FIT_OPTIONS_VERSION)
		return PC_EUSAGE;
	pc_fit_options d = PC_FIT_OPTIONS_INIT;
	*opts = d;
	return PC_OK;
}

int pc_dwarf_options_init(pc_dwarf_options *opts, unsigned version)
{
	if (!opts || version != PC_DWARF_OPTIONS_VERSION)
		return PC_EUSAGE;
	pc_dwarf_options d = PC_DWARF_OPTIONS_INIT;
	*opts = d;
	return PC_OK;
}

int pc_attrib_options_set(pc_attrib_options *opts, const char *key, const char *value)
{
	if (!opts || !key || !value)
		return PC_EUSAGE;
	if (!strcmp(key, "attribution")) {
		if (!strcmp(value, "proportional"))
			opts->rule = PC_ATTRIBUTION_PROPORTIONAL;
		else if (!strcmp(value, "bucket-start"))
			opts->rule = PC_ATTRIBUTION_BUCKET_START;
		else
			return PC_EUSAGE;
	} else if (!strcmp(key, "use-sizes")) {
		if (strcmp(value, "0") && strcmp(value, "1"))
			return PC_EUSAGE;
		opts->use_sizes = value[0] == '1';
	} else if (!strcmp(key, "demangle")) {
		if (!strcmp(value, "auto") || !strcmp(value, "1") || !strcmp(value, "gnu"))
			opts->demangle = PC_DEMANGLE_AUTO;
		else if (!strcmp(value, "none") || !strcmp(value, "0"))
			opts->demangle = PC_DEMANGLE_NONE;
		else
			return PC_EUSAGE;
	} else if (!strcmp(key, "gprof-symspecs")) {
		opts->gprof_symspecs = *value ? value : NULL;
	} else {
		return PC_ENOTFOUND;
	}
	return PC_OK;
}

const pc_option_decl *pc_attrib_options_keys(void)
{
	static const pc_option_decl keys[] = {
		PC_ATTRIBUTION_OPTION_DECLS,
		{"gprof-symspecs", PC_OPTION_STRING, NULL, NULL,
		 "gprof's symbol selections: option letters pPqQfeFEnNkAJ with a symspec, "
		 "';'-separated"},
		{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
	};
	return keys;
}

/* the typed view of o's keys, parsed again after each change */
static void refresh_typed(pc_options *o)
{
	pc_attrib_options_init(&o->attrib, PC_ATTRIB_OPTIONS_VERSION);
	pc_callgraph_options_init(&o->cg, PC_CALLGRAPH_OPTIONS_VERSION);
	o->cg.attrib = &o->attrib;
	pc_dwarf_options_init(&o->dwarf, PC_DWARF_OPTIONS_VERSION);
	o->outfmt = PC_OUT_TEXT;
	o->gran = PC_GRAN_NONE;
	static const char *const outfmts[] = {"text", "csv", "json", "html"};
	static const char *const grans[] = {NULL, "function", "line", "file", "address"};
	for (size_t i = 0; i < o->n; i++) {
		if (pc_attrib_options_set(&o->attrib, o->keys[i], o->values[i]) != PC_ENOTFOUND)
			continue;
		if (!strcmp(o->keys[i], "output-format")) {
			o->outfmt = PC_OUT_BAD;
			for (int f = PC_OUT_TEXT; f < PC_OUT_BAD; f++)
				if (!strcmp(o->values[i], outfmts[f]))
					o->outfmt = (pc_outfmt)f;
		} else if (!strcmp(o->keys[i], "granularity")) {
			o->gran = !strcmp(o->values[i], "symbol") ? PC_GRAN_FUNCTION : PC_GRAN_BAD;
			for (int g = PC_GRAN_FUNCTION; g < PC_GRAN_BAD; g++)
				if (!strcmp(o->values[i], grans[g]))
					o->gran = (pc_gran)g;
		} else if (!strcmp(o->keys[i], "source-path"))
			o->dwarf.source_path = o->values[i];
		else if (!strcmp(o->keys[i], "debuginfod"))
			o->dwarf.debuginfod = strcmp(o->values[i], "0") != 0;
		else if (!strcmp(o->keys[i], "callgraph-time"))
			o->cg.time = !strcmp(o->values[i], "samples") ? PC_CALLGRAPH_TIME_SAMPLES
				    : !strcmp(o->values[i], "flat")  ? PC_CALLGRAPH_TIME_FLAT
								      : PC_CALLGRAPH_TIME_AUTO;
	}
}

const pc_attrib_options *pc_options_attrib(const pc_options *o)
{
	return o ? &o->attrib : NULL;
}

pc_outfmt pc_options_outfmt(const pc_options *o)
{
	return o ? o->outfmt : PC_OUT_TEXT;
}

pc_gran pc_options_gran(const pc_options *o)
{
	return o ? o->gran : PC_GRAN_NONE;
}

const pc_dwarf_options *pc_options_dwarf(const pc_options *o)
{
	return o ? &o->dwarf : NULL;
}

const pc_callgraph_options *pc_options_callgraph(const pc_options *o)
{
	return o ? &o->cg : NULL;
}
