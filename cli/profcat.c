/* profcat - print a report from any capture format.
 *
 * Exit codes: 0 success; 1 bad input (malformed, truncated, unrecognised,
 * ambiguous, over a limit); 2 usage error; 3 I/O error (cannot open, read
 * or write a file); 4 out of memory or internal error.
 */
#include "profcore.h"
#include "profcore_plugin.h"
#include "pc_config.h"
#include "args.h"
#include "output.h"
#include "loaders.h"
#include "platform.h"
#include "stats_cmd.h"
#include "common.h"
#include "gprof_cmd.h"
#include "keys.h"
#include "hints.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Atari ST Profiler's spellings p=N +z -z +b -b x=SYM i=N o=FILE,
 * aliases of the long options; 1 if a was one (name a file that looks
 * like one as ./p=1 or after "--"). */
static int atari_alias(const char *a, pc_options *ropts, const char **out_path)
{
	static const struct {
		const char *word, *key, *value;
	} flags[] = {{"+z", "zero", "1"}, {"-z", "zero", "0"},
		     {"+b", "barchart", "1"}, {"-b", "barchart", "0"}};
	static const struct {
		char letter;
		const char *key;
	} kv[] = {{'p', "cutoff"}, {'x', "interval"}, {'i', "intervals"}};
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		if (!strcmp(a, flags[i].word))
			return pc_options_set(ropts, flags[i].key, flags[i].value) == PC_OK;
	if (a[0] && a[1] == '=' && a[2]) {
		if (a[0] == 'o') {
			*out_path = a + 2;
			return 1;
		}
		for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
			if (a[0] == kv[i].letter)
				return pc_options_set(ropts, kv[i].key, a + 2) == PC_OK;
	}
	return 0;
}

/* -v: progress of each input on stderr (pc_stream_set_progress).  On a
 * terminal one line rewritten with \r every 16 MiB; otherwise a line
 * every 256 MiB.  The end of the input is said only after a progress line
 * (a small input prints nothing). */
#define PROGRESS_TTY ((uint64_t)16 << 20)
#define PROGRESS_LOG ((uint64_t)256 << 20)
typedef struct progress_state {
	char name[4096]; /* escaped as in messages */
	int tty, shown;
} progress_state;

static void show_progress(void *user, uint64_t bytes, int64_t total, int done)
{
	progress_state *ps = user;
	(void)total;
	if (done) {
		if (ps->shown)
			fprintf(stderr, "%sprofcat: %s: %llu bytes read (end of input)\n",
				ps->tty ? "\r" : "", ps->name, (unsigned long long)bytes);
		return;
	}
	ps->shown = 1;
	fprintf(stderr, ps->tty ? "\rprofcat: %s: %llu MiB read" : "profcat: %s: %llu MiB read\n",
		ps->name, (unsigned long long)(bytes >> 20));
	fflush(stderr);
}

static void print_error(const pc_error *e)
{
	pc_cli_report_error("", e);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: profcat [OPTION]... [FILE]...\n"
		"       profcat diff|merge|rates [OPTION]... FILE...  (see profcat diff --help)\n"
		"Print a report from program-counter sample captures and symbol files.\n"
		"FILEs may be any mix of captures (gmon.out, ...) and symbol sources\n"
		"(ELF, maps, ...); formats are detected from content, gzip, xz and zstd\n"
		"are read transparently, '-' is standard input.  Without FILEs, as gprof:\n"
		"a.out and gmon.out of the current directory when both exist.\n\n"
		"Options:\n");
	pc_cli_option_help(f, PC_CMD_MAIN);
	fprintf(f, "The Atari ST Profiler's p=N +z -z +b -b x=SYM i=N o=FILE are accepted too.\n");
	fprintf(f,
		"\nExit status: 0 success, 1 bad input, 2 usage error, 3 I/O error,\n"
		"4 out of memory or internal error.\n"
		"Plugins: shared objects (*%s) in $PROFCORE_PLUGIN_PATH ('%c'-separated)\n"
		"and %s.\n",
		PC_PLAT_PLUGIN_SUFFIX, PC_PLAT_PATH_LIST_SEP, PC_PLUGINDIR);
}

typedef struct input {
	const char *path;
	const char *format; /* NULL = detect */
	pc_stream *s;
	const pc_loader *l;
	size_t pos;
} input;

static int cmp_input(const void *a, const void *b)
{
	const input *x = a, *y = b;
	if (x->l->order != y->l->order)
		return x->l->order < y->l->order ? -1 : 1;
	return x->pos < y->pos ? -1 : (x->pos > y->pos);
}

static int list_formats(const pc_registry *reg, int verbose)
{
	printf("%-12s %-22s %s\n", "name", "role", "description");
	for (size_t i = 0; i < pc_registry_count(reg); i++) {
		const pc_loader *l = pc_registry_at(reg, i);
		char roles[64] = "";
		if (l->roles & PC_ROLE_SYMBOLS)
			strcat(roles, "symbols,");
		if (l->roles & PC_ROLE_SAMPLES)
			strcat(roles, "samples,");
		if (l->roles & PC_ROLE_ARCS)
			strcat(roles, "arcs,");
		if (*roles)
			roles[strlen(roles) - 1] = '\0';
		printf("%-12s %-22s %s\n", l->name, roles, l->description);
		if (verbose && l->abi_version < 2)
			printf("    (built for loader ABI %u: keys not declared)\n", l->abi_version);
		else if (verbose)
			pc_cli_list_keys(stdout, l->options);
	}
	return 0;
}

/* --list-reports; with -v, the keys each reads under it */
static int list_reports(int verbose)
{
	for (size_t i = 0; pc_report_name_at(i); i++) {
		printf("%-12s %s\n", pc_report_name_at(i), pc_report_description_at(i));
		if (verbose)
			pc_cli_list_keys(stdout, pc_report_options(pc_report_name_at(i)));
	}
	return 0;
}

/* --list-exports; with -v, the keys each reads under it */
static int list_exports(int verbose)
{
	for (size_t i = 0; pc_export_name_at(i); i++) {
		printf("%-12s %-17s %s\n", pc_export_name_at(i),
		       pc_export_extension_at(i), pc_export_description_at(i));
		if (verbose)
			pc_cli_list_keys(stdout, pc_export_options(pc_export_name_at(i)));
	}
	return 0;
}

/* --list-formats -v: every consumer of -O keys, each with its own: the
 * loaders, then the reports and the exports under their headings */
static int list_all_keys(const pc_registry *reg)
{
	list_formats(reg, 1);
	printf("\n%-12s %s\n", "report", "description");
	list_reports(1);
	printf("\n%-12s %-17s %s\n", "export", "extension", "description");
	return list_exports(1);
}

static int check_fit(pc_profile *p, const pc_options *opts, const input *in,
		     size_t nin, int ignore)
{
	/* only a capture given with its program (a symbol file) can fail
	 * to fit it: a capture alone (Hatari, .mprof) describes itself */
	int prog = 0;
	for (size_t i = 0; i < nin; i++)
		if (in[i].l->roles & PC_ROLE_SYMBOLS)
			prog = 1;
	if (!prog)
		return 0;
	char names[512] = "";
	int elf = 0;
	for (size_t i = 0; i < nin; i++) {
		if (!strcmp(in[i].l->name, "elf"))
			elf = 1;
		if (in[i].l->roles & PC_ROLE_SYMBOLS)
			continue;
		size_t l = strlen(names);
		snprintf(names + l, sizeof names - l, "%s%s", l ? ", " : "", in[i].path);
	}
	return pc_cli_fit(p, opts, names, elf, ignore);
}

/* A Hatari profile states where the program's TEXT was (PROGRAM_TEXT):
 * the load address of a program given without one (a GEMDOS program's
 * symbols are relative to its TEXT).  The profile is read once more on
 * its own for it (not from standard input).  0, or an exit status. */
static int hatari_load_address(pc_registry *reg, const input *in, size_t nin,
			       pc_options *lopts, int verbose)
{
	int relative = 0;
	if (pc_options_get(lopts, "load-address"))
		return 0;
	for (size_t i = 0; i < nin; i++) {
		const pc_option_decl *d = in[i].l->options;
		for (size_t k = 0; (in[i].l->roles & PC_ROLE_SYMBOLS) && d && d[k].name; k++)
			relative |= !strcmp(d[k].name, "load-address");
	}
	for (size_t i = 0; relative && i < nin; i++) {
		if (strcmp(in[i].l->name, "hatari") || !strcmp(in[i].path, "-"))
			continue;
		pc_profile *h = NULL;
		pc_options *own = pc_cli_loader_options(in[i].l, lopts);
		int st = own && !pc_profile_new(&h, reg)
				 ? pc_profile_load_file(h, in[i].path, "hatari", own)
				 : PC_ENOMEM;
		pc_options_free(own);
		const char *text = st ? NULL : pc_profile_meta(h, "hatari.program_text");
		char low[32] = "";
		if (text)
			snprintf(low, sizeof low, "%.*s", (int)strcspn(text, "-"), text);
		pc_profile_free(h);
		if (st == PC_ENOMEM) {
			fprintf(stderr, "profcat: out of memory\n");
			return PC_CLI_EXIT_INTERNAL;
		}
		if (!*low) /* (an error is said when the profile is loaded) */
			continue;
		if (pc_options_set(lopts, "load-address", low)) {
			fprintf(stderr, "profcat: out of memory\n");
			return PC_CLI_EXIT_INTERNAL;
		}
		if (verbose)
			fprintf(stderr, "profcat: %s: the program was loaded at %s (its PROGRAM_TEXT line; --load-address gives another)\n",
				pc_cli_shown(in[i].path), low);
		break;
	}
	return 0;
}

/* The inputs' names as messages show them, ", "-separated, into buf. */
static void shown_names(const input *in, size_t nin, char *buf, size_t cap)
{
	buf[0] = '\0';
	for (size_t i = 0; i < nin; i++) {
		size_t l = strlen(buf);
		snprintf(buf + l, cap - l, "%s%s", l ? ", " : "", pc_cli_shown(in[i].path));
	}
}

/* 1 if path names an existing file. */
static int pc_cli_is_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	fclose(f);
	return 1;
}

/* 1 if name ends like a source file (.c .h .cc .cpp .cxx .hpp .s .S). */
static int pc_cli_is_source_name(const char *name)
{
	static const char *const ext[] = {".c", ".h", ".cc", ".cpp", ".cxx",
					  ".hpp", ".hh", ".s", ".S", ".asm", NULL};
	size_t l = strlen(name);
	for (size_t i = 0; ext[i]; i++) {
		size_t e = strlen(ext[i]);
		if (l > e && !strcmp(name + l - e, ext[i]))
			return 1;
	}
	return 0;
}

/* What the command line asks for (main_option). */
typedef struct mainctx {
	const char *out_path, *report, *format, *export_fmt;
	int list_e, list_f, list_r, list_syms, verbose, ignore_fit;
	pc_options *lopts, *ropts;
	input *in;
	size_t nin;
} mainctx;

static int main_option(void *vc, pc_cli_parser *ps, const pc_cli_opt *o,
		       const char *val, int dashes)
{
	mainctx *c = vc;
	if (!o) {
		if (!dashes && atari_alias(val, c->ropts, &c->out_path))
			return 0;
		c->in[c->nin].path = val;
		c->in[c->nin].format = c->format;
		c->in[c->nin].pos = c->nin;
		c->nin++;
		return 0;
	}
	switch (o->id) {
	case PC_OPT_KEYED:
		return pc_options_set(c->ropts, o->key, val) ? PC_CLI_EXIT_INTERNAL : 0;
	case PC_OPT_HELP:
		usage(stdout);
		return -1;
	case PC_OPT_VERSION:
		printf("profcat (profcore) %s\n", pc_version());
		return -1;
	case PC_OPT_VERBOSE: c->verbose = 1; break;
	case PC_OPT_LIST_FORMATS: c->list_f = 1; break;
	case PC_OPT_LIST_REPORTS: c->list_r = 1; break;
	case PC_OPT_LIST_EXPORTS: c->list_e = 1; break;
	case PC_OPT_LIST_SYMBOLS: c->list_syms = 1; break;
	case PC_OPT_EXPORT: c->export_fmt = val; break;
	case PC_OPT_CHECK: c->report = "check"; break;
	case PC_OPT_IGNORE_FIT: c->ignore_fit = 1; break;
	case PC_OPT_FORMAT: c->format = strcmp(val, "auto") ? val : NULL; break;
	case PC_OPT_OUTPUT: c->out_path = val; break;
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
		c->format = "trace";
		break;
	case PC_OPT_REPORT: {
		c->report = val;
		/* -r source[:NAME] or -r source NAME: NAME selects a function
		 * or source file (taken when it is no option and no existing
		 * file, or names a source file) */
		const char *next = pc_cli_peek(ps);
		if (!strncmp(val, "source:", 7)) {
			c->report = "source";
			pc_options_set(c->ropts, "source-select", val + 7);
		} else if (!strcmp(val, "source") && next && next[0] != '-' &&
			   (!pc_cli_is_file(next) || pc_cli_is_source_name(next))) {
			pc_options_set(c->ropts, "source-select", next);
			pc_cli_take(ps);
		} else if (!strncmp(val, "disasm:", 7)) {
			/* -r disasm[:]FUNCTION: the function to disassemble */
			c->report = "disasm";
			pc_options_set(c->ropts, "disasm-select", val + 7);
		} else if (!strcmp(val, "disasm") && next && next[0] != '-' &&
			   !pc_cli_is_file(next)) {
			pc_options_set(c->ropts, "disasm-select", next);
			pc_cli_take(ps);
		}
		break;
	}
	default:
		break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	mainctx c = {0};
	pc_options_new(&c.lopts); /* NULL on failure: checked below */
	pc_options_new(&c.ropts);
	c.in = calloc((size_t)argc + 3, sizeof *c.in);
	pc_options *lopts = c.lopts, *ropts = c.ropts;
	input *in = c.in;
	int rc = 0, st;
	pc_registry *reg = NULL;
	pc_profile *p = NULL;
	pc_options *fopts = NULL;
	pc_cli_binary_stdio();
	if (!lopts || !ropts || !in) {
		fprintf(stderr, "profcat: out of memory\n");
		return PC_CLI_EXIT_INTERNAL;
	}
	if (argc > 1 && !strcmp(argv[1], "gprof")) {
		pc_options_free(lopts);
		pc_options_free(ropts);
		free(in);
		return profcat_gprof_main(argc, argv);
	}
	if (argc > 1 && (!strcmp(argv[1], "diff") || !strcmp(argv[1], "merge") ||
			 !strcmp(argv[1], "rates"))) {
		pc_options_free(lopts);
		pc_options_free(ropts);
		free(in);
		return profcat_stats_main(argc, argv);
	}
	rc = pc_cli_parse(argc, argv, 1, PC_CMD_MAIN, "profcat", main_option, &c);
	if (rc) {
		if (rc < 0)
			rc = 0;
		goto done;
	}
	const char *out_path = c.out_path, *report = c.report;
	const char *export_fmt = c.export_fmt;
	int verbose = c.verbose, list_syms = c.list_syms;
	size_t nin = c.nin;

	if (pc_registry_new(&reg)) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = PC_CLI_EXIT_INTERNAL;
		goto done;
	}
	if (c.list_f) {
		pc_cli_load_plugins(reg, verbose);
		rc = verbose ? list_all_keys(reg) : list_formats(reg, 0);
		goto done;
	}
	if (c.list_r) {
		rc = list_reports(verbose);
		goto done;
	}
	if (c.list_e) {
		rc = list_exports(verbose);
		goto done;
	}
	if (nin == 0) {
		/* as gprof: a.out and gmon.out of the current directory */
		if (!pc_cli_is_file("a.out") || !pc_cli_is_file("gmon.out")) {
			fprintf(stderr, "Usage: profcat [OPTION]... [FILE]...\n"
					"profcat: no FILE given, and no a.out and gmon.out here (see profcat --help)\n");
			rc = PC_CLI_EXIT_USAGE;
			goto done;
		}
		in[0] = (input){.path = "a.out", .format = c.format, .pos = 0};
		in[1] = (input){.path = "gmon.out", .format = c.format, .pos = 1};
		nin = c.nin = 2;
		if (verbose)
			fprintf(stderr, "profcat: no FILE given: reading a.out and gmon.out (as gprof)\n");
	}
	if (export_fmt && !list_syms && (rc = pc_cli_refuse_binary_tty(export_fmt, out_path)))
		goto done;
	if (out_path) {
		for (size_t i = 0; i < nin; i++)
			if (pc_cli_same_file(in[i].path, out_path)) {
				fprintf(stderr, "profcat: %s: refusing to write the output over an input file\n",
					out_path);
				rc = PC_CLI_EXIT_USAGE;
				goto done;
			}
		if ((rc = pc_cli_check_output(out_path)) != 0)
			goto done;
	}
	if (pc_profile_new(&p, reg)) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = PC_CLI_EXIT_INTERNAL;
		goto done;
	}
	pc_cli_set_threads(p);
	/* open and identify every input, then load symbol sources first */
	for (size_t i = 0; i < nin; i++) {
		st = pc_stream_open_file(&in[i].s, in[i].path);
		if (st) {
			rc = pc_cli_open_error(in[i].path, st);
			goto done;
		}
		int conf;
		in[i].l = pc_cli_choose_loader(reg, in[i].s, in[i].path, in[i].format,
					       verbose, &conf, &rc);
		if (!in[i].l)
			goto done;
	}
	qsort(in, nin, sizeof *in, cmp_input);
	if ((rc = hatari_load_address(reg, in, nin, lopts, verbose)))
		goto done;
	static progress_state progress;
	for (size_t i = 0; i < nin; i++) {
		/* each loader gets the -O keys it declares */
		pc_options *own = pc_cli_loader_options(in[i].l, lopts);
		if (!own) {
			fprintf(stderr, "profcat: out of memory\n");
			rc = PC_CLI_EXIT_INTERNAL;
			goto done;
		}
		if (verbose) {
			snprintf(progress.name, sizeof progress.name, "%s",
				 pc_cli_shown(pc_stream_name(in[i].s)));
			progress.tty = pc_plat_is_terminal(2);
			progress.shown = 0;
			pc_stream_set_progress(in[i].s, progress.tty ? PROGRESS_TTY : PROGRESS_LOG,
					       show_progress, &progress);
		}
		st = pc_profile_load_stream(p, in[i].s, in[i].l->name, own);
		pc_options_free(own);
		if (st) {
			print_error(pc_profile_error(p));
			rc = pc_cli_status_exit(st);
			goto done;
		}
		pc_cli_rate_stated(p, lopts, in[i].path);
	}
	size_t nw = pc_profile_warning_count(p);
	for (size_t i = 0; i < nw && verbose; i++)
		pc_cli_message("warning: ", pc_profile_warning_at(p, i));
	for (size_t i = 0; verbose && i < pc_profile_note_count(p); i++)
		pc_cli_message("note: ", pc_profile_note_at(p, i));

	/* the fit check reads the attribution keys and load-address: every
	 * option; the report or export gets the -O keys it reads and those
	 * no loader took (it refuses these, naming them) */
	pc_options_new(&fopts); /* NULL on failure: merr */
	const pc_loader **ls = calloc(nin ? nin : 1, sizeof *ls);
	for (size_t i = 0; ls && i < nin; i++)
		ls[i] = in[i].l;
	const char *target = export_fmt && !list_syms ? export_fmt : NULL;
	const pc_option_decl *tkeys = target ? pc_export_options(target)
					     : pc_report_options(list_syms ? "symbols" : report);
	int merr = !fopts || !ls;
	for (size_t i = 0; !merr && i < pc_options_count(ropts); i++) {
		const char *k = pc_options_key_at(ropts, i);
		merr = pc_options_set(fopts, k, pc_options_get(ropts, k)) != PC_OK;
	}
	for (size_t i = 0; !merr && i < pc_options_count(lopts); i++) {
		const char *k = pc_options_key_at(lopts, i);
		if (!pc_options_get(fopts, k))
			merr = pc_options_set(fopts, k, pc_options_get(lopts, k)) != PC_OK;
	}
	/* an unknown report or export: the library names it */
	if (!merr && tkeys)
		merr = pc_cli_merge_options(ropts, lopts, tkeys, ls, nin) != 0;
	free(ls);
	if (merr) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = PC_CLI_EXIT_INTERNAL;
		goto done;
	}
	if ((rc = check_fit(p, fopts, in, nin, c.ignore_fit)))
		goto done;
	const char *dm = pc_options_get(ropts, "demangle");
	if (dm && strcmp(dm, "0") && strcmp(dm, "none") && !pc_demangler_available())
		fprintf(stderr, "profcat: warning: this profcat was built without a demangler "
			"(libiberty-dev, meson -Ddemangle): names are shown mangled\n");
	/* written as it is made: to standard output, or to a temporary file
	 * that replaces out_path once the report is complete */
	pc_cli_output out;
	if ((rc = pc_cli_output_open(&out, out_path)))
		goto done;
	if (export_fmt && !list_syms)
		st = pc_profile_export_to(p, export_fmt, ropts, pc_cli_output_write, &out);
	else
		st = pc_profile_render_to(p, list_syms ? "symbols" : report, ropts,
					  pc_cli_output_write, &out);
	if (st && !out.err) { /* the report failed: no output file */
		pc_cli_output_close(&out, 0);
		print_error(pc_profile_error(p));
		rc = pc_cli_status_exit(st);
		goto done;
	}
	if ((rc = pc_cli_output_close(&out, 1))) /* (a failed write says so) */
		goto done;
	/* symbol files alone: an empty report, said on standard error once
	 * it is written (exit 0: the symbols themselves were read) */
	int capture = 0;
	for (size_t i = 0; i < nin; i++)
		if (in[i].l->roles & (PC_ROLE_SAMPLES | PC_ROLE_ARCS))
			capture = 1;
	/* a gmon.out or mon.out alone (addresses only, read with a guessed
	 * width unless -O width says): the same, the other way round */
	int prog = 0, unix_capture = 0;
	for (size_t i = 0; i < nin; i++) {
		prog |= (in[i].l->roles & PC_ROLE_SYMBOLS) != 0;
		unix_capture |= !strcmp(in[i].l->name, "gmon") || !strcmp(in[i].l->name, "monout");
	}
	if (unix_capture && !prog && !export_fmt && !list_syms &&
	    !pc_options_get(lopts, "width") && pc_profile_symbol_count(p) == 0) {
		char names[512];
		shown_names(in, nin, names, sizeof names);
		fprintf(stderr, "profcat: warning: no program given (%s: addresses only), so no sample has a function name: "
				"give the program that wrote the capture too (e.g. profcat prog %s)\n",
			names, pc_cli_shown(in[0].path));
	}
	if (!capture && !list_syms && !(report && !strcmp(report, "symbols"))) {
		char names[512];
		shown_names(in, nin, names, sizeof names);
		fprintf(stderr, "profcat: warning: no capture given (%s: symbols only), so the %s is empty: "
				"give the capture too (e.g. profcat prog gmon.out)\n",
			names, export_fmt ? "export" : "report");
	}
done:
	for (size_t i = 0; i < c.nin; i++)
		pc_stream_free(in[i].s);
	free(in);
	pc_profile_free(p);
	pc_registry_free(reg);
	pc_options_free(lopts);
	pc_options_free(ropts);
	pc_options_free(fopts);
	return rc;
}
