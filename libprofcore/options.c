/* options.c - the key/value bag given to loaders, reports and exports,
 * checked against the keys its consumer declares (pc_option_decl), and
 * the typed common settings (pc_settings) written into it. */
#include "internal.h"

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
};

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

int pc_profile_check_options(pc_profile *p, const pc_options *o,
			     const pc_option_decl *keys, const char *consumer)
{
	char msg[1024];
	int st = pc_options_check(o, keys, consumer, msg, sizeof msg);
	return st ? pc_profile_fail(p, st, "%s", msg) : PC_OK;
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
		pc_errslot_clear(&o->err);
		return PC_OK;
	}
	char *v = pc_strdup(value);
	if (!v)
		return opt_fail(o, PC_ENOMEM, "out of memory");
	if (have) {
		free(o->values[i]);
		o->values[i] = v;
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

int pc_options_get_u64(const pc_options *o, const char *key, uint64_t *out,
		       int *found)
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

int pc_options_get_double(const pc_options *o, const char *key, double *out,
			  int *found)
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

/* ---- typed settings ----------------------------------------------------- */

/* the size of the first pc_settings (struct_size .. output_format) */
#define SETTINGS_V1_SIZE (offsetof(pc_settings, output_format) + sizeof(pc_output_format))

int pc_options_set_settings(pc_options *o, const pc_settings *s)
{
	if (!o)
		return PC_EUSAGE;
	if (!s || s->struct_size < SETTINGS_V1_SIZE || s->struct_size > sizeof(pc_settings))
		return opt_fail(o, PC_EUSAGE,
				"pc_settings.struct_size %zu: expected %zu (PC_SETTINGS_INIT)",
				s ? s->struct_size : (size_t)0, sizeof(pc_settings));
	static const char *const attr[] = {NULL, "proportional", "bucket-start"};
	static const char *const gran[] = {NULL, "function", "line", "file", "address"};
	static const char *const outf[] = {NULL, "text", "csv", "json", "html"};
	struct {
		const char *key, *field;
		int v, max;
		const char *const *names;
	} f[] = {
		{"attribution", "attribution", (int)s->attribution, 2, attr},
		{"use-sizes", "use_sizes", s->use_sizes, 1, NULL},
		{"demangle", "demangle", s->demangle, 1, NULL},
		{"granularity", "granularity", (int)s->granularity, 4, gran},
		{"output-format", "output_format", (int)s->output_format, 4, outf},
	};
	size_t nf = sizeof f / sizeof f[0];
	for (size_t i = 0; i < nf; i++) {
		int leave = f[i].names ? f[i].v == 0 : f[i].v == -1;
		if (!leave && (f[i].v < (f[i].names ? 0 : -1) || f[i].v > f[i].max))
			return opt_fail(o, PC_EUSAGE, "pc_settings.%s %d: expected %s", f[i].field,
					f[i].v,
					f[i].names ? "one of the pc_* enum values" : "-1, 0 or 1");
	}
	/* check every key and value before changing anything */
	for (size_t i = 0; o->bound && i < nf; i++) {
		int leave = f[i].names ? f[i].v == 0 : f[i].v == -1;
		const char *v = f[i].names ? f[i].names[f[i].v] : f[i].v ? "1" : "0";
		char msg[1024];
		if (!leave && pc_option_check(o->bound, o->consumer, f[i].key, v, msg, sizeof msg))
			return opt_fail(o, PC_EUSAGE, "%s", msg);
	}
	for (size_t i = 0; i < nf; i++) {
		int leave = f[i].names ? f[i].v == 0 : f[i].v == -1;
		if (leave)
			continue;
		int st = pc_options_set(o, f[i].key, f[i].names ? f[i].names[f[i].v]
								: f[i].v ? "1" : "0");
		if (st)
			return st; /* PC_ENOMEM: the keys before it are set */
	}
	return PC_OK;
}

/* ---- the keys of the library's own option consumers -------------------- */

#define END_DECLS {NULL, PC_OPTION_STRING, NULL, NULL, NULL}
#define OUTPUT_FORMAT_DECL(choices)                                           \
	{"output-format", PC_OPTION_ENUM, choices, "text", "the output's format"}
#define CI_DECL(def)                                                          \
	{"ci", PC_OPTION_STRING, NULL, def,                                   \
	 "confidence level of intervals, in percent, above 0 and below 100"}

const pc_option_decl pc_keys_attribute[] = {
	PC_ATTRIBUTION_OPTION_DECLS,
	END_DECLS,
};
const pc_option_decl pc_keys_callgraph[] = {
	PC_ATTRIBUTION_OPTION_DECLS,
	{"callgraph-time", PC_OPTION_ENUM, "samples,flat", NULL,
	 "own times from the samples or from the arcs' flat times"},
	END_DECLS,
};
const pc_option_decl pc_keys_fit[] = {
	PC_ATTRIBUTION_OPTION_DECLS,
	{"load-address", PC_OPTION_U64, NULL, NULL, "where the program was loaded"},
	END_DECLS,
};
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
	{"focus", PC_OPTION_STRING, NULL, NULL, "keep the samples whose stack matches"},
	{"ignore", PC_OPTION_STRING, NULL, NULL, "drop the samples whose stack matches"},
	{"hide", PC_OPTION_STRING, NULL, NULL, "remove matching functions from the stacks"},
	END_DECLS,
};
const pc_option_decl pc_keys_rates[] = {
	PC_ATTRIBUTION_OPTION_DECLS,
	OUTPUT_FORMAT_DECL("text,csv,json"),
	CI_DECL("95"),
	END_DECLS,
};
const pc_option_decl pc_keys_merge[] = {
	END_DECLS,
};

const pc_option_decl *pc_function_options(const char *function)
{
	static const struct {
		const char *name;
		const pc_option_decl *keys;
	} t[] = {
		{"pc_profile_attribute", pc_keys_attribute},
		{"pc_profile_symbol_display_name", pc_keys_attribute},
		{"pc_profile_callgraph", pc_keys_callgraph},
		{"pc_profile_fit", pc_keys_fit},
		{"pc_profile_fit_sized", pc_keys_fit},
		{"pc_profile_diff", pc_keys_diff},
		{"pc_profile_compare_rates", pc_keys_rates},
		{"pc_profile_merge", pc_keys_merge},
	};
	for (size_t i = 0; function && i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(t[i].name, function))
			return t[i].keys;
	return NULL;
}
