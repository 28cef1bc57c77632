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
#include "profcore_plugin.h"
#include "args.h"
#include "output.h"
#include "loaders.h"
#include "stats_cmd.h"
#include "common.h"
#include "keys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	int ignore_fit;
} ctx;

static void print_error(const pc_error *e)
{
	pc_cli_error("", e, e ? pc_cli_option_advice(e->message) : NULL);
}

static void usage(FILE *f, unsigned cmd, const char *name)
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
		"Options of %s:\n", name);
	pc_cli_option_help(f, cmd);
}

/* Detects each file's loader (or finds the -f one); fills shared and
 * the capture count. */
static int identify(ctx *c)
{
	for (size_t i = 0; i < c->nfiles; i++) {
		sfile *f = &c->files[i];
		int st, conf, rc = 0;
		pc_stream *s = NULL;
		if (!f->format && (st = pc_stream_open_file(&s, f->path)))
			return pc_cli_open_error(f->path, st);
		f->l = pc_cli_choose_loader(c->reg, s, f->path, f->format,
					    c->verbose, &conf, &rc);
		pc_stream_free(s);
		if (!f->l)
			return rc;
	}
	if (c->explicit_groups) {
		for (size_t g = 0; g < c->ngroups; g++) {
			size_t k = 0;
			for (size_t i = 0; i < c->nfiles; i++)
				k += c->files[i].group == g;
			if (!k) {
				fprintf(stderr, "profcat: capture %zu has no files ('+' separates captures)\n",
					g + 1);
				return PC_CLI_EXIT_USAGE;
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
			return PC_CLI_EXIT_USAGE;
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
	pc_profile *p;
	pc_profile_new(&p, c->reg);
	if (p)
		pc_cli_set_threads(p);
	if (!sel || !p) {
		free(sel);
		pc_profile_free(p);
		fprintf(stderr, "profcat: out of memory\n");
		return PC_CLI_EXIT_INTERNAL;
	}
	size_t n = 0;
	for (size_t i = 0; i < c->nfiles; i++)
		if (c->files[i].shared || c->files[i].group == g)
			sel[n++] = &c->files[i];
	qsort(sel, n, sizeof *sel, cmp_order);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		int st;
		pc_stream *s;
		st = pc_stream_open_file(&s, sel[i]->path);
		if (st) {
			rc = pc_cli_open_error(sel[i]->path, st);
			break;
		}
		pc_options *own = pc_cli_loader_options(sel[i]->l, c->lopts);
		st = own ? pc_profile_load_stream(p, s, sel[i]->l->name, own) : PC_ENOMEM;
		pc_options_free(own);
		pc_stream_free(s);
		if (st) {
			print_error(pc_profile_error(p));
			rc = pc_cli_status_exit(st);
		} else {
			pc_cli_rate_stated(p, c->lopts, sel[i]->path);
		}
	}
	free(sel);
	if (rc) {
		pc_profile_free(p);
		return rc;
	}
	for (size_t i = 0; c->verbose && i < pc_profile_warning_count(p); i++)
		pc_cli_message("warning: ", pc_profile_warning_at(p, i));
	for (size_t i = 0; c->verbose && i < pc_profile_note_count(p); i++)
		pc_cli_message("note: ", pc_profile_note_at(p, i));
	*out = p;
	return 0;
}

/* profcat's fit check (pc_cli_fit) of capture g (ALL: of the merged
 * captures), loaded as p, with every option (the attribution keys and
 * load-address), as a single load runs it: only a capture given with its
 * program (a symbol file) can fail to fit it; the message names the
 * capture's own files. */
#define ALL ((size_t)-1)
static int fit_capture(ctx *c, size_t g, pc_profile *p)
{
	int prog = 0, elf = 0;
	char names[512] = "";
	for (size_t i = 0; i < c->nfiles; i++) {
		const sfile *f = &c->files[i];
		if (g != ALL && !f->shared && f->group != g)
			continue;
		if (f->l->roles & PC_ROLE_SYMBOLS) {
			prog = 1;
			elf |= !strcmp(f->l->name, "elf");
			continue;
		}
		size_t l = strlen(names);
		snprintf(names + l, sizeof names - l, "%s%s", l ? ", " : "", f->path);
	}
	if (!prog)
		return 0;
	pc_options *o = NULL;
	int merr = pc_options_new(&o) != PC_OK;
	for (size_t i = 0; !merr && i < pc_options_count(c->ropts); i++) {
		const char *k = pc_options_key_at(c->ropts, i);
		merr = pc_options_set(o, k, pc_options_get(c->ropts, k)) != PC_OK;
	}
	for (size_t i = 0; !merr && i < pc_options_count(c->lopts); i++) {
		const char *k = pc_options_key_at(c->lopts, i);
		if (!pc_options_get(o, k))
			merr = pc_options_set(o, k, pc_options_get(c->lopts, k)) != PC_OK;
	}
	int rc;
	if (merr) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = PC_CLI_EXIT_INTERNAL;
	} else {
		rc = pc_cli_fit(p, o, names, elf, c->ignore_fit);
	}
	pc_options_free(o);
	return rc;
}

/* What the command line asks for (stats_option). */
typedef struct statsargs {
	ctx *c;
	int diff;
	unsigned cmd;
	const char *name;
	const char *out_path, *format, *report, *export_fmt;
	char *symbols;
	size_t symlen;
} statsargs;

static int add_symbol(statsargs *a, const char *val)
{
	size_t l = strlen(val);
	char *ns = realloc(a->symbols, a->symlen + l + 2);
	if (!ns) {
		fprintf(stderr, "profcat: out of memory\n");
		return PC_CLI_EXIT_INTERNAL;
	}
	a->symbols = ns;
	if (a->symlen)
		a->symbols[a->symlen++] = ',';
	memcpy(a->symbols + a->symlen, val, l + 1);
	a->symlen += l;
	return 0;
}

static int stats_option(void *vc, pc_cli_parser *ps, const pc_cli_opt *o,
			const char *val, int dashes)
{
	statsargs *a = vc;
	ctx *c = a->c;
	(void)ps;
	if (!o) {
		if (dashes && a->diff)
			return add_symbol(a, val);
		if (!dashes && !strcmp(val, "+")) {
			if (!c->explicit_groups) {
				c->explicit_groups = 1;
				c->ngroups = 2;
			} else {
				c->ngroups++;
			}
			return 0;
		}
		c->files[c->nfiles].path = val;
		c->files[c->nfiles].format = a->format;
		c->files[c->nfiles].group = c->ngroups ? c->ngroups - 1 : 0;
		c->nfiles++;
		return 0;
	}
	switch (o->id) {
	case PC_OPT_KEYED:
		return pc_options_set(c->ropts, o->key, val) ? PC_CLI_EXIT_INTERNAL : 0;
	case PC_OPT_HELP:
		usage(stdout, a->cmd, a->name);
		return -1;
	case PC_OPT_VERSION:
		printf("profcat (profcore) %s\n", pc_version());
		return -1;
	case PC_OPT_VERBOSE: c->verbose = 1; break;
	case PC_OPT_IGNORE_FIT: c->ignore_fit = 1; break;
	case PC_OPT_FORMAT: a->format = strcmp(val, "auto") ? val : NULL; break;
	case PC_OPT_OPTION:
		if (pc_options_parse(c->lopts, val)) {
			fprintf(stderr, "profcat: bad option '%s' (expected KEY=VALUE)\n", val);
			return PC_CLI_EXIT_USAGE;
		}
		break;
	case PC_OPT_LOAD_ADDRESS:
		pc_options_set(c->lopts, "load-address", val);
		break;
	case PC_OPT_RATE:
		pc_options_set(c->lopts, "rate", val);
		break;
	case PC_OPT_TRACE_DIALECT:
		pc_options_set(c->lopts, "trace-dialect", val);
		a->format = "trace";
		break;
	case PC_OPT_OUTPUT: a->out_path = val; break;
	case PC_OPT_REPORT: a->report = val; break;
	case PC_OPT_EXPORT: a->export_fmt = val; break;
	case PC_OPT_SYMBOL: return add_symbol(a, val);
	default: break;
	}
	return 0;
}

int profcat_stats_main(int argc, char **argv)
{
	ctx c = {0};
	c.cmd = argv[1];
	int diff = !strcmp(c.cmd, "diff"), merge = !strcmp(c.cmd, "merge");
	const char *out_path = NULL, *report = NULL, *export_fmt = NULL;
	char *symbols = NULL;
	size_t symlen = 0;
	int rc = 0;
	pc_profile **caps = NULL;
	char *buf = NULL;
	size_t len = 0;
	pc_options_new(&c.lopts); /* NULL on failure: checked below */
	pc_options_new(&c.ropts);
	c.files = calloc((size_t)argc + 1, sizeof *c.files);
	symbols = calloc(1, 1);
	if (!c.lopts || !c.ropts || !c.files || !symbols) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = PC_CLI_EXIT_INTERNAL;
		goto done;
	}
	char cmdname[32];
	snprintf(cmdname, sizeof cmdname, "profcat %s", c.cmd);
	unsigned cmd = diff ? PC_CMD_DIFF : merge ? PC_CMD_MERGE : PC_CMD_RATES;
	statsargs sa = {&c, diff, cmd, cmdname, NULL, NULL, NULL, NULL, symbols, 0};
	rc = pc_cli_parse(argc, argv, 2, cmd, cmdname, stats_option, &sa);
	symbols = sa.symbols;
	symlen = sa.symlen;
	out_path = sa.out_path;
	report = sa.report;
	export_fmt = sa.export_fmt;
	if (rc) {
		if (rc < 0)
			rc = 0;
		goto done;
	}
	if (symlen)
		pc_options_set(c.ropts, "symbols", symbols);
	if (c.nfiles == 0) {
		fprintf(stderr, "profcat: %s: no input files (see profcat %s --help)\n", c.cmd,
			c.cmd);
		rc = PC_CLI_EXIT_USAGE;
		goto done;
	}
	if (merge && (rc = pc_cli_refuse_binary_tty(export_fmt, out_path)))
		goto done;
	if (out_path) {
		for (size_t i = 0; i < c.nfiles; i++)
			if (pc_cli_same_file(c.files[i].path, out_path)) {
				fprintf(stderr, "profcat: %s: refusing to write the output over an input file\n",
					out_path);
				rc = PC_CLI_EXIT_USAGE;
				goto done;
			}
		if ((rc = pc_cli_check_output(out_path)) != 0)
			goto done;
	}
	if (pc_registry_new(&c.reg)) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = PC_CLI_EXIT_INTERNAL;
		goto done;
	}
	if ((rc = identify(&c)))
		goto done;
	if (diff ? c.ngroups != 2 : c.ngroups < 2) {
		fprintf(stderr, "profcat: %s needs %s captures, found %zu (files read as samples are captures; '+' separates captures)\n",
			c.cmd, diff ? "exactly two" : "at least two", c.ngroups);
		rc = PC_CLI_EXIT_USAGE;
		goto done;
	}
	caps = calloc(c.ngroups, sizeof *caps);
	if (!caps) {
		rc = PC_CLI_EXIT_INTERNAL;
		goto done;
	}
	for (size_t g = 0; g < c.ngroups; g++)
		if ((rc = load_capture(&c, g, &caps[g])))
			goto done;
	/* each capture must fit its program, as in a single load (diff and
	 * rates would otherwise compare numbers that mean nothing) */
	for (size_t g = 0; g < c.ngroups; g++)
		if ((rc = fit_capture(&c, g, caps[g])))
			goto done;
	/* diff and rates (their tables: pc_report_options) and merge's
	 * report or export get the -O keys they read and those no loader
	 * took (they refuse these, naming them) */
	const pc_option_decl *tkeys =
		diff ? pc_report_options("diff")
		: !merge ? pc_report_options("rates")
		: export_fmt ? pc_export_options(export_fmt)
			     : pc_report_options(report);
	if (tkeys || !merge) {
		const pc_loader **ls = calloc(c.nfiles ? c.nfiles : 1, sizeof *ls);
		for (size_t i = 0; ls && i < c.nfiles; i++)
			ls[i] = c.files[i].l;
		int merr = !ls || pc_cli_merge_options(c.ropts, c.lopts, tkeys, ls, c.nfiles);
		free(ls);
		if (merr) {
			fprintf(stderr, "profcat: out of memory\n");
			rc = PC_CLI_EXIT_INTERNAL;
			goto done;
		}
	} else {
		for (size_t i = 0; i < pc_options_count(c.lopts); i++) {
			const char *k = pc_options_key_at(c.lopts, i);
			if (!pc_options_get(c.ropts, k))
				pc_options_set(c.ropts, k, pc_options_get(c.lopts, k));
		}
	}
	int st;
	if (diff) {
		if ((st = pc_profile_diff(&buf, &len, caps[0], caps[1], c.ropts))) {
			print_error(pc_profile_error(caps[1]));
			rc = pc_cli_status_exit(st);
			goto done;
		}
	} else if (merge) {
		for (size_t g = 1; g < c.ngroups; g++)
			if ((st = pc_profile_merge(caps[0], caps[g]))) {
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
				rc = pc_cli_status_exit(st);
				goto done;
			}
		/* captures with programs of their own ('+'): the merged one is
		 * reported against the first's program (pc_profile_merge keeps
		 * dst's symbols), so it must fit that too */
		if (c.explicit_groups && (rc = fit_capture(&c, ALL, caps[0])))
			goto done;
		for (size_t i = 0; c.verbose && i < pc_profile_note_count(caps[0]); i++)
			fprintf(stderr, "profcat: note: %s\n", pc_profile_note_at(caps[0], i));
		/* written as it is made (a temporary file for -o) */
		pc_cli_output out;
		if ((rc = pc_cli_output_open(&out, out_path)))
			goto done;
		st = export_fmt ? pc_profile_export_to(caps[0], export_fmt, c.ropts,
						       pc_cli_output_write, &out)
				: pc_profile_render_to(caps[0], report, c.ropts,
						       pc_cli_output_write, &out);
		if (st && !out.err) { /* the report failed: no output file */
			pc_cli_output_close(&out, 0);
			print_error(pc_profile_error(caps[0]));
			rc = pc_cli_status_exit(st);
			goto done;
		}
		rc = pc_cli_output_close(&out, 1); /* (a failed write says so) */
		goto done;
	} else {
		if ((st = pc_profile_compare_rates(&buf, &len, caps, c.ngroups, c.ropts))) {
			print_error(pc_profile_error(caps[0]));
			rc = pc_cli_status_exit(st);
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
