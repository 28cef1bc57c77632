/* stats_cmd.c - profcat's subcommands over several captures (README
 * "Statistics"):
 *
 *   profcat diff  [OPTION]... FILE... [-- SYMBOL...]   two captures
 *   profcat merge [OPTION]... FILE... -o OUT           two or more
 *   profcat rates [OPTION]... FILE...                  two or more
 *
 * Captures: without '+', every file read by a loader with the samples
 * role (gmon.out, .PRF, raw dumps, ...) is one capture and every other
 * file (ELF, maps, PRG symbols) is a symbol source shared by all of them:
 * `profcat diff prog base.out new.out`.  With '+', the files between
 * separators form one capture each, symbols included:
 * `profcat diff old/prog old/gmon.out + new/prog new/gmon.out`.
 * -f and -O apply to the files that follow, as in plain profcat.
 */
#include "profcore.h"
#include "output.h"
#include "stats_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_IO = 3, EXIT_INTERNAL = 4 };

typedef struct sfile {
	const char *path;
	const char *format; /* NULL = detect */
	size_t group;       /* '+'-separated group */
	const pc_loader *l;
	int shared;
} sfile;

typedef struct ctx {
	const char *cmd;
	pc_registry *reg;
	pc_options *lopts, *ropts;
	sfile *files;
	size_t nfiles, ngroups;
	int explicit_groups;
	int verbose;
} ctx;

static int status_exit(int st)
{
	switch (st) {
	case PC_OK: return 0;
	case PC_EIO: return EXIT_IO;
	case PC_EUSAGE: case PC_ENOTFOUND: return EXIT_USAGE;
	case PC_ENOMEM: return EXIT_INTERNAL;
	default: return EXIT_INPUT;
	}
}

const char *pc_cli_rate_advice(const char *message)
{
	if (message && strstr(message, " Hz cannot be added up"))
		return "; compare them with 'profcat rates', or give the right rate with -O rate=HZ";
	return "";
}

static void print_error(const pc_error *e)
{
	pc_cli_error("", e, NULL);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: profcat diff  [OPTION]... FILE... [-- SYMBOL...]\n"
		"       profcat merge [OPTION]... FILE... [-o OUT] [-e FORMAT]\n"
		"       profcat rates [OPTION]... FILE...\n"
		"diff compares two captures symbol by symbol with a two-proportion test;\n"
		"merge adds captures of one program into one profile (report or export);\n"
		"rates compares captures taken at different sampling periods (aliasing).\n\n"
		"Each file read as samples (gmon.out, .PRF, raw dump, ...) is one capture;\n"
		"symbol files (ELF, maps, PRG) are shared by all.  '+' separates captures\n"
		"that have files of their own: profcat diff old/prog old.out + new/prog new.out\n\n"
		"  -f, --format NAME       read the FILEs that follow as NAME ('auto' resets)\n"
		"  -O, --option KEY=VALUE  loader option\n"
		"      --load-address ADDR where the program's code was loaded\n"
		"  -F, --output-format FMT text (default), csv, json or html\n"
		"  -o, --output FILE       write to FILE (atomically)\n"
		"      --ci N              confidence level in percent (default 95)\n"
		"      --correction M      diff: holm (default) or bh (Benjamini-Hochberg)\n"
		"  -s, --symbol SYM        diff: test only SYM (repeatable; same as -- SYM)\n"
		"  -r, --report NAME       merge: the report to print (default flat)\n"
		"  -e, --export FORMAT     merge: write FORMAT (e.g. gmon) instead\n"
		"  -v, --verbose           print warnings and what was detected\n"
		"Report options --attribution, --style, --cutoff, --percent-of, --interval,\n"
		"--intervals, --granularity, --callgraph-time, --zero, --barchart, --use-sizes\n"
		"and their --no- forms apply to every capture as in plain profcat.\n");
}

/* Detects each file's loader (or finds the -f one); fills shared and
 * the capture count. */
static int identify(ctx *c)
{
	for (size_t i = 0; i < c->nfiles; i++) {
		sfile *f = &c->files[i];
		if (f->format) {
			f->l = pc_registry_find(c->reg, f->format);
			if (!f->l) {
				fprintf(stderr, "profcat: no format named '%s' (see profcat --list-formats)\n",
					f->format);
				return EXIT_USAGE;
			}
		} else {
			int st, conf = 0;
			pc_stream *s = pc_stream_open_file(f->path, &st);
			if (!s) {
				pc_cli_file_error(f->path, -1,
					st == PC_ENOTFOUND ? "no such file"
					: st == PC_ENOMEM  ? "out of memory"
							   : "cannot read file");
				return st == PC_ENOMEM ? EXIT_INTERNAL : EXIT_IO;
			}
			f->l = pc_registry_detect(c->reg, s, &conf);
			if (!f->l) {
				const unsigned char *h;
				size_t hl = 0;
				pc_stream_peek(s, &h, &hl);
				if (pc_stream_error(s)) /* corrupt gzip: say so */
					pc_cli_error("", pc_stream_error(s), NULL);
				else
					pc_cli_file_error(f->path, 0,
						hl ? "unrecognised file format (use --format NAME; --list-formats lists them)"
						   : "empty file");
				pc_stream_free(s);
				return EXIT_INPUT;
			}
			pc_stream_free(s);
			if (c->verbose)
				fprintf(stderr, "profcat: %s: detected as %s (confidence %d)\n",
					pc_cli_shown(f->path), f->l->name, conf);
		}
	}
	if (c->explicit_groups) {
		for (size_t g = 0; g < c->ngroups; g++) {
			size_t k = 0;
			for (size_t i = 0; i < c->nfiles; i++)
				k += c->files[i].group == g;
			if (!k) {
				fprintf(stderr, "profcat: capture %zu has no files ('+' separates captures)\n",
					g + 1);
				return EXIT_USAGE;
			}
		}
		return 0;
	}
	/* implicit: one capture per sample file, the rest shared */
	c->ngroups = 0;
	for (size_t i = 0; i < c->nfiles; i++) {
		sfile *f = &c->files[i];
		f->shared = !(f->l->roles & PC_ROLE_SAMPLES);
		if (!f->shared)
			f->group = c->ngroups++;
		else if (!strcmp(f->path, "-")) {
			fprintf(stderr, "profcat: standard input cannot be a symbol source shared by several captures\n");
			return EXIT_USAGE;
		}
	}
	return 0;
}

static int cmp_order(const void *a, const void *b)
{
	const sfile *const *x = a, *const *y = b;
	if ((*x)->l->order != (*y)->l->order)
		return (*x)->l->order < (*y)->l->order ? -1 : 1;
	return *x < *y ? -1 : (*x > *y);
}

/* Loads capture g into a new profile *out. */
static int load_capture(ctx *c, size_t g, pc_profile **out)
{
	*out = NULL;
	sfile **sel = calloc(c->nfiles + 1, sizeof *sel);
	pc_profile *p = pc_profile_new(c->reg);
	if (!sel || !p) {
		free(sel);
		pc_profile_free(p);
		fprintf(stderr, "profcat: out of memory\n");
		return EXIT_INTERNAL;
	}
	size_t n = 0;
	for (size_t i = 0; i < c->nfiles; i++)
		if (c->files[i].shared || c->files[i].group == g)
			sel[n++] = &c->files[i];
	qsort(sel, n, sizeof *sel, cmp_order);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		int st;
		pc_stream *s = pc_stream_open_file(sel[i]->path, &st);
		if (!s) {
			pc_cli_file_error(sel[i]->path, -1,
				st == PC_ENOTFOUND ? "no such file" : "cannot read file");
			rc = st == PC_ENOMEM ? EXIT_INTERNAL : EXIT_IO;
			break;
		}
		st = pc_profile_load_stream(p, s, sel[i]->l->name, c->lopts);
		pc_stream_free(s);
		if (st) {
			print_error(pc_profile_error(p));
			rc = status_exit(st);
		}
	}
	free(sel);
	if (rc) {
		pc_profile_free(p);
		return rc;
	}
	for (size_t i = 0; c->verbose && i < pc_profile_warning_count(p); i++)
		pc_cli_message("warning: ", pc_profile_warning(p, i));
	for (size_t i = 0; c->verbose && i < pc_profile_note_count(p); i++)
		pc_cli_message("note: ", pc_profile_note_at(p, i));
	*out = p;
	return 0;
}

/* Report options passed through (profcat's own, README "Reports"). */
static int is_value_option(const char *name)
{
	static const char *const keys[] = {"attribution", "style", "cutoff", "percent-of",
					   "interval", "intervals", "granularity",
					   "callgraph-time", "ci", "correction",
					   "output-format", NULL};
	for (size_t i = 0; keys[i]; i++)
		if (!strcmp(keys[i], name))
			return 1;
	return 0;
}

static int is_flag(const char *name)
{
	static const char *const flags[] = {"zero", "no-zero", "barchart", "no-barchart",
					    "use-sizes", NULL};
	for (size_t i = 0; flags[i]; i++)
		if (!strcmp(flags[i], name))
			return 1;
	return 0;
}

int profcat_stats_main(int argc, char **argv)
{
	ctx c = {0};
	c.cmd = argv[1];
	int diff = !strcmp(c.cmd, "diff"), merge = !strcmp(c.cmd, "merge");
	const char *out_path = NULL, *format = NULL, *report = NULL, *export_fmt = NULL;
	char *symbols = NULL;
	size_t symlen = 0;
	int rc = 0, after_dashes = 0;
	pc_profile **caps = NULL;
	char *buf = NULL;
	size_t len = 0;
	c.lopts = pc_options_new();
	c.ropts = pc_options_new();
	c.files = calloc((size_t)argc + 1, sizeof *c.files);
	symbols = calloc(1, 1);
	if (!c.lopts || !c.ropts || !c.files || !symbols) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = EXIT_INTERNAL;
		goto done;
	}
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
#define NEED()                                                                      \
	do {                                                                        \
		if (i + 1 >= argc) {                                                \
			fprintf(stderr, "profcat: option %s needs a value\n", a);   \
			rc = EXIT_USAGE;                                            \
			goto done;                                                  \
		}                                                                   \
		val = argv[++i];                                                    \
	} while (0)
		if (after_dashes && diff) {
			val = a;
			goto add_symbol;
		}
		if (after_dashes || a[0] != '-' || !strcmp(a, "-")) {
			if (!after_dashes && !strcmp(a, "+")) {
				if (!c.explicit_groups) {
					c.explicit_groups = 1;
					c.ngroups = 2;
				} else {
					c.ngroups++;
				}
				continue;
			}
			c.files[c.nfiles].path = a;
			c.files[c.nfiles].format = format;
			c.files[c.nfiles].group = c.ngroups ? c.ngroups - 1 : 0;
			c.nfiles++;
			continue;
		}
		if (!strcmp(a, "--")) {
			after_dashes = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			goto done;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			c.verbose = 1;
		} else if (!strcmp(a, "-f") || !strcmp(a, "--format")) {
			NEED();
			format = strcmp(val, "auto") ? val : NULL;
		} else if (!strcmp(a, "-O") || !strcmp(a, "--option")) {
			NEED();
			if (pc_options_parse(c.lopts, val)) {
				fprintf(stderr, "profcat: bad option '%s' (expected KEY=VALUE)\n", val);
				rc = EXIT_USAGE;
				goto done;
			}
		} else if (!strcmp(a, "--ci") || !strcmp(a, "--correction")) {
			NEED();
			pc_options_set(c.ropts, a + 2, val);
		} else if (!strcmp(a, "--load-address")) {
			NEED();
			pc_options_set(c.lopts, "load-address", val);
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			NEED();
			out_path = val;
		} else if (!strcmp(a, "-F") || !strcmp(a, "--output-format")) {
			NEED();
			pc_options_set(c.ropts, "output-format", val);
		} else if (merge && (!strcmp(a, "-r") || !strcmp(a, "--report"))) {
			NEED();
			report = val;
		} else if (merge && (!strcmp(a, "-e") || !strcmp(a, "--export"))) {
			NEED();
			export_fmt = val;
		} else if (diff && (!strcmp(a, "-s") || !strcmp(a, "--symbol"))) {
			NEED();
		add_symbol:;
			size_t l = strlen(val);
			char *ns = realloc(symbols, symlen + l + 2);
			if (!ns) {
				fprintf(stderr, "profcat: out of memory\n");
				rc = EXIT_INTERNAL;
				goto done;
			}
			symbols = ns;
			if (symlen)
				symbols[symlen++] = ',';
			memcpy(symbols + symlen, val, l + 1);
			symlen += l;
		} else if (a[1] == '-' && a[2]) {
			/* --KEY=VALUE, --KEY VALUE, --FLAG: report options */
			char key[64];
			const char *eq = strchr(a, '=');
			size_t kl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			if (kl >= sizeof key) {
				fprintf(stderr, "profcat: unknown option '%s'\n", a);
				rc = EXIT_USAGE;
				goto done;
			}
			memcpy(key, a + 2, kl);
			key[kl] = '\0';
			if (is_flag(key) && !eq) {
				int neg = !strncmp(key, "no-", 3);
				pc_options_set(c.ropts, neg ? key + 3 : key, neg ? "0" : "1");
			} else if (!is_value_option(key)) {
				fprintf(stderr, "profcat: unknown option '%s' (see profcat %s --help)\n",
					a, c.cmd);
				rc = EXIT_USAGE;
				goto done;
			} else {
				if (eq)
					val = eq + 1;
				else
					NEED();
				pc_options_set(c.ropts, key, val);
			}
		} else {
			fprintf(stderr, "profcat: unknown option '%s' (see profcat %s --help)\n", a,
				c.cmd);
			rc = EXIT_USAGE;
			goto done;
		}
	}
	if (symlen)
		pc_options_set(c.ropts, "symbols", symbols);
	if (c.nfiles == 0) {
		fprintf(stderr, "profcat: %s: no input files (see profcat %s --help)\n", c.cmd,
			c.cmd);
		rc = EXIT_USAGE;
		goto done;
	}
	if (out_path) {
		for (size_t i = 0; i < c.nfiles; i++)
			if (pc_cli_same_file(c.files[i].path, out_path)) {
				fprintf(stderr, "profcat: %s: refusing to write the output over an input file\n",
					out_path);
				rc = EXIT_USAGE;
				goto done;
			}
		if ((rc = pc_cli_check_output(out_path)) != 0)
			goto done;
	}
	c.reg = pc_registry_new();
	if (!c.reg) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = EXIT_INTERNAL;
		goto done;
	}
	const char *pp = getenv("PROFCORE_PLUGIN_PATH");
	if (pp && *pp)
		pc_registry_load_plugins(c.reg, pp);
	if ((rc = identify(&c)))
		goto done;
	if (diff ? c.ngroups != 2 : c.ngroups < 2) {
		fprintf(stderr, "profcat: %s needs %s captures, found %zu (files read as samples are captures; '+' separates captures)\n",
			c.cmd, diff ? "exactly two" : "at least two", c.ngroups);
		rc = EXIT_USAGE;
		goto done;
	}
	caps = calloc(c.ngroups, sizeof *caps);
	if (!caps) {
		rc = EXIT_INTERNAL;
		goto done;
	}
	for (size_t g = 0; g < c.ngroups; g++)
		if ((rc = load_capture(&c, g, &caps[g])))
			goto done;
	for (size_t i = 0; i < pc_options_count(c.lopts); i++) {
		const char *k = pc_options_key_at(c.lopts, i);
		if (!pc_options_get(c.ropts, k))
			pc_options_set(c.ropts, k, pc_options_get(c.lopts, k));
	}
	int st;
	if (diff) {
		if ((st = pc_profile_diff(caps[0], caps[1], c.ropts, &buf, &len))) {
			print_error(pc_profile_error(caps[1]));
			rc = status_exit(st);
			goto done;
		}
	} else if (merge) {
		for (size_t g = 1; g < c.ngroups; g++)
			if ((st = pc_profile_merge(caps[0], caps[g], NULL))) {
				const pc_error *e = pc_profile_error(caps[0]);
				char file[1024];
				snprintf(file, sizeof file, "%s",
					 pc_cli_shown(pc_profile_source_count(caps[g])
							      ? pc_profile_source_file(
									caps[g],
									pc_profile_source_count(caps[g]) - 1)
							      : "?"));
				fprintf(stderr, "profcat: merge of capture %zu (%s): %s%s\n", g + 1,
					file, pc_cli_shown(e ? e->message : pc_status_name(st)),
					pc_cli_rate_advice(e ? e->message : NULL));
				rc = status_exit(st);
				goto done;
			}
		for (size_t i = 0; c.verbose && i < pc_profile_note_count(caps[0]); i++)
			fprintf(stderr, "profcat: note: %s\n", pc_profile_note_at(caps[0], i));
		st = export_fmt ? pc_profile_export(caps[0], export_fmt, c.ropts, &buf, &len)
				: pc_profile_render(caps[0], report, c.ropts, &buf, &len);
		if (st) {
			print_error(pc_profile_error(caps[0]));
			rc = status_exit(st);
			goto done;
		}
	} else {
		if ((st = pc_profile_compare_rates(caps, c.ngroups, c.ropts, &buf, &len))) {
			print_error(pc_profile_error(caps[0]));
			rc = status_exit(st);
			goto done;
		}
	}
	rc = pc_cli_write_output(out_path, buf, len);
done:
	pc_free(buf);
	if (caps)
		for (size_t g = 0; g < c.ngroups; g++)
			pc_profile_free(caps[g]);
	free(caps);
	free(symbols);
	free(c.files);
	pc_registry_free(c.reg);
	pc_options_free(c.lopts);
	pc_options_free(c.ropts);
	return rc;
}
