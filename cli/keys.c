/* keys.c - which of profcat's -O options go to which consumer.
 *
 * -O KEY=VALUE is one list for every input and the report: each loader
 * gets the keys it declares (pc_loader.options), the report or export
 * the keys it reads (pc_report_options, pc_export_options).  A key that
 * no consumer declares goes to the report or export, which refuses it
 * with a message naming the key and the keys it knows. */
#include "keys.h"
#include "hints.h"
#include "output.h"

#include <string.h>

static int declares(const pc_option_decl *keys, const char *key)
{
	for (size_t i = 0; keys && keys[i].name; i++)
		if (!strcmp(keys[i].name, key))
			return 1;
	return 0;
}

pc_options *pc_cli_loader_options(const pc_loader *l, const pc_options *all)
{
	pc_options *o;
	if (pc_options_new(&o))
		return NULL;
	for (size_t i = 0; o && i < pc_options_count(all); i++) {
		const char *k = pc_options_key_at(all, i);
		/* rate: every capture loader's (pc_profile_load_stream) */
		if (l->abi_version >= 2 && !declares(l->options, k) &&
		    !(!strcmp(k, "rate") && (l->roles & PC_ROLE_SAMPLES)))
			continue;
		if (pc_options_set(o, k, pc_options_get(all, k))) {
			pc_options_free(o);
			return NULL;
		}
	}
	return o;
}

int pc_cli_fit_options(const pc_options *all, pc_fit_options *fit,
		       pc_attrib_options *attrib, char *msg, size_t cap)
{
	pc_attrib_options_init(attrib, PC_ATTRIB_OPTIONS_VERSION);
	pc_fit_options_init(fit, PC_FIT_OPTIONS_VERSION);
	fit->attrib = attrib;
	/* checked as the attribution's keys, named as the fit's */
	pc_options *o;
	if (pc_options_new(&o))
		return PC_ENOMEM;
	int st = pc_options_bind(o, pc_attrib_options_keys(), "pc_profile_fit");
	static const char *const keys[] = {"attribution", "use-sizes", "demangle"};
	for (size_t i = 0; !st && i < sizeof keys / sizeof keys[0]; i++) {
		const char *v = pc_options_get(all, keys[i]);
		if (v && (st = pc_options_set(o, keys[i], v)) == PC_OK)
			st = pc_attrib_options_set(attrib, keys[i], v);
	}
	if (st == PC_EUSAGE && pc_options_error(o))
		snprintf(msg, cap, "%s", pc_options_error(o)->message);
	pc_options_free(o);
	if (st)
		return st;
	int found = 0;
	if (pc_options_get_u64(&fit->load_address, &found, all, "load-address")) {
		char shown[160];
		pc_name_escape(shown, sizeof shown, pc_options_get(all, "load-address"));
		snprintf(msg, cap,
			 "bad value '%s' for option 'load-address' of pc_profile_fit; expected an "
			 "unsigned integer",
			 shown);
		return PC_EUSAGE;
	}
	fit->has_load_address = found;
	return PC_OK;
}

int pc_cli_merge_options(pc_options *ropts, const pc_options *lopts,
			 const pc_option_decl *keys, const pc_loader *const *ls,
			 size_t n)
{
	for (size_t i = 0; i < pc_options_count(lopts); i++) {
		const char *k = pc_options_key_at(lopts, i);
		if (pc_options_get(ropts, k) || !strcmp(k, "rate"))
			continue;
		/* load-address is also read by profcat's fit check
		 * (pc_profile_fit), whatever the inputs and the output */
		int loader_key = !strcmp(k, "load-address");
		for (size_t j = 0; j < n && !loader_key; j++)
			loader_key = ls[j]->abi_version < 2 || declares(ls[j]->options, k);
		if (loader_key && !declares(keys, k))
			continue;
		if (pc_options_set(ropts, k, pc_options_get(lopts, k)))
			return PC_ENOMEM;
	}
	return 0;
}

void pc_cli_rate_stated(const pc_profile *p, const pc_options *lopts,
			const char *name)
{
	static int said; /* once: the key stays in the profile */
	const char *hz = pc_options_get(lopts, "rate");
	const char *own = pc_profile_meta(p, "rate.stated");
	if (hz && own && !said++)
		fprintf(stderr, "profcat: warning: %s: the capture says %s Hz; reporting at %.15g Hz as --rate says\n",
			pc_cli_shown(name), own, pc_profile_rate(p));
}

void pc_cli_list_loader_keys(FILE *f, const pc_loader *l)
{
	if (l->abi_version < 2) {
		fprintf(f, "    (built for loader ABI %u: keys not declared)\n", l->abi_version);
		return;
	}
	if (!l->options || !l->options[0].name)
		fprintf(f, "    (no -O keys)\n");
	for (size_t i = 0; l->options && l->options[i].name; i++) {
		const pc_option_decl *d = &l->options[i];
		char type[128];
		if (d->type == PC_OPTION_ENUM && d->choices) {
			snprintf(type, sizeof type, "%s", d->choices);
			for (char *c = type; *c; c++)
				if (*c == ',')
					*c = '|';
		} else {
			snprintf(type, sizeof type, "<%s>", pc_option_type_name(d->type));
		}
		fprintf(f, "    -O %s=%s%s%s%s\n        %s\n", d->name, type,
			d->default_value ? " (default " : "",
			d->default_value ? d->default_value : "",
			d->default_value ? ")" : "", d->help ? d->help : "");
	}
}

/* The name quoted after start in message ("no report named 'X'"), into
 * buf; NULL when message does not start so. */
static const char *quoted_after(const char *message, const char *start, char *buf,
				size_t cap)
{
	size_t l = strlen(start);
	if (!message || strncmp(message, start, l))
		return NULL;
	size_t n = strcspn(message + l, "'");
	if (n >= cap)
		return NULL;
	memcpy(buf, message + l, n);
	buf[n] = '\0';
	return buf;
}

/* The nearest of the names a listing function gives (pc_report_name_at,
 * pc_export_name_at) to word, NULL when none is near. */
static const char *nearest_listed(const char *word, const char *(*at)(size_t))
{
	const char *names[64];
	size_t n = 0;
	while (n < sizeof names / sizeof names[0] && at(n)) {
		names[n] = at(n);
		n++;
	}
	return pc_cli_nearest(word, names, n);
}

/* "unknown option 'K' for C; known: a, b, c": the nearest known key */
static const char *nearest_key(const char *message, char *bad, size_t cap)
{
	const char *k = quoted_after(message, "unknown option '", bad, cap);
	const char *list = message ? strstr(message, "; known: ") : NULL;
	if (!k || !list)
		return NULL;
	static char buf[1024];
	const char *names[128];
	size_t n = 0;
	snprintf(buf, sizeof buf, "%s", list + strlen("; known: "));
	for (char *t = strtok(buf, ", "); t && n < 128; t = strtok(NULL, ", "))
		names[n++] = t;
	return pc_cli_nearest(k, names, n);
}

const char *pc_cli_option_advice(const char *message)
{
	static const struct {
		const char *start, *advice;
		const char *(*names)(size_t); /* a near name is suggested */
	} advice[] = {
		{"unknown option '",
		 "-O KEY=VALUE: the loaders' keys are listed by profcat --list-formats -v", NULL},
		{"no export named '", "profcat --list-exports lists them", pc_export_name_at},
		{"no report named '", "profcat --list-reports lists them", pc_report_name_at},
		{"no loader named '", "see profcat --list-formats", NULL},
		{"disasm: no function has samples", "profcat -r disasm FUNCTION", NULL},
	};
	static char out[512];
	char bad[128];
	if (!message)
		return "";
	for (size_t i = 0; i < sizeof advice / sizeof advice[0]; i++) {
		if (strncmp(message, advice[i].start, strlen(advice[i].start)))
			continue;
		const char *hit = NULL;
		if (advice[i].names &&
		    quoted_after(message, advice[i].start, bad, sizeof bad))
			hit = nearest_listed(bad, advice[i].names);
		else if (i == 0)
			hit = nearest_key(message, bad, sizeof bad);
		if (hit)
			snprintf(out, sizeof out, " (did you mean '%s'? %s)", hit, advice[i].advice);
		else
			snprintf(out, sizeof out, " (%s)", advice[i].advice);
		return out;
	}
	/* a value among choices: the nearest one; an output format that is
	 * a symbol: gprof's -F SYM */
	const char *near = pc_cli_choice_hint(message);
	if (*near)
		return near;
	if (strstr(message, "for option 'output-format'") ||
	    !strncmp(message, "output format must be ", 22)) {
		snprintf(out, sizeof out, " (-F is --output-format here%s)",
			 pc_cli_gprof_value_hint('F'));
		return out;
	}
	/* the library names its options by key */
	if (strstr(message, "the option ") || strstr(message, "the options "))
		return " (-O KEY=VALUE)";
	return "";
}
