/* keys.c - which of profcat's -O options go to which consumer.
 *
 * -O KEY=VALUE is one list for every input and the report: each loader
 * gets the keys it declares (pc_loader.options), the report or export
 * the keys it reads (pc_report_options, pc_export_options).  A key that
 * no consumer declares goes to the report or export, which refuses it
 * with a message naming the key and the keys it knows. */
#include "keys.h"
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

pc_options *pc_cli_options_for(const pc_option_decl *keys, const pc_options *all)
{
	pc_options *o;
	if (pc_options_new(&o))
		return NULL;
	for (size_t i = 0; keys && keys[i].name; i++) {
		const char *v = pc_options_get(all, keys[i].name);
		if (v && pc_options_set(o, keys[i].name, v)) {
			pc_options_free(o);
			return NULL;
		}
	}
	return o;
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

const char *pc_cli_option_advice(const char *message)
{
	static const struct {
		const char *start, *advice;
	} advice[] = {
		{"unknown option '",
		 " (-O KEY=VALUE: the loaders' keys are listed by profcat --list-formats -v)"},
		{"no export named '", " (profcat --list-exports lists them)"},
		{"no report named '", " (profcat --list-reports lists them)"},
		{"no loader named '", " (see profcat --list-formats)"},
		{"disasm: no function has samples", " (profcat -r disasm FUNCTION)"},
	};
	for (size_t i = 0; message && i < sizeof advice / sizeof advice[0]; i++)
		if (!strncmp(message, advice[i].start, strlen(advice[i].start)))
			return advice[i].advice;
	/* the library names its options by key */
	if (message && (strstr(message, "the option ") || strstr(message, "the options ")))
		return " (-O KEY=VALUE)";
	return "";
}
