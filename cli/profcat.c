/* profcat - print a report from any capture format.
 *
 * Exit codes: 0 success; 1 bad input (malformed, truncated, unrecognised,
 * ambiguous, over a limit); 2 usage error; 3 I/O error (cannot open, read
 * or write a file); 4 out of memory or internal error.
 */
#include "profcore.h"
#include "pc_config.h"
#include "output.h"
#include "platform.h"
#include "stats_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_IO = 3, EXIT_INTERNAL = 4 };

/* Long options that set a report/attribution option key.  has_arg: 1 =
 * takes a value, 0 = flag (sets "1"), 2 = negative flag (sets "0"). */
typedef struct optmap {
	const char *name; /* without the leading "--" */
	const char *key;
	int has_arg;
	const char *help;
} optmap;

static const optmap report_opts[] = {
	{"output-format", "output-format", 1, "text (default), csv or json"},
	{"style", "style", 1, "default, atari, ddj or prohst (README \"Reports\"); "
	 "callgraph: gprof or proff"},
	{"callgraph-time", "callgraph-time", 1,
	 "call graph own times: samples or flat (Proff arcs' flat times)"},
	{"zero", "zero", 0, "also list symbols that received no samples (Atari +z)"},
	{"no-zero", "zero", 2, "list only symbols with samples (default; Atari -z)"},
	{"cutoff", "cutoff", 1, "list symbols until N percent is covered (Atari p=N)"},
	{"barchart", "barchart", 0, "bar column in the table (default; Atari +b)"},
	{"no-barchart", "barchart", 2, "no bar column (Atari -b)"},
	{"interval", "interval", 1,
	 "split SYM (or LOW-HIGH, LOW+SIZE) into sub-ranges (Atari x=SYM)"},
	{"intervals", "intervals", 1, "number of sub-ranges, default 25 (Atari i=N)"},
	{"percent-of", "percent-of", 1, "program or total: what percents are of"},
	{"attribution", "attribution", 1,
	 "proportional (default, gprof) or bucket-start (PROFIL/PROHST)"},
	{"use-sizes", "use-sizes", 0, "end symbols at address+size when the size is known"},
	{"granularity", "granularity", 1,
	 "flat: function (default), line (gprof -l), file or address; "
	 "exports: address (default), symbol/function, line or file"},
	{"source-path", "source-path", 1,
	 "':'-separated directories searched for source files (-r source)"},
	{"ci", "ci", 1, "N percent confidence intervals (e.g. 95) beside the percents"},
	{"demangle", "demangle", 0, "demangle C++ and Rust names as gprof does (default)"},
	{"no-demangle", "demangle", 2, "show names as the symbol table spells them"},
	{NULL, NULL, 0, NULL},
};

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

/* "profcat: [kind: ]FILE:OFFSET: message[advice]" (kind is "warning: "
 * or ""); the advice names the options that fix a problem the library
 * describes. */
static void report_error(const char *kind, const pc_error *e)
{
	pc_cli_error(kind, e, e ? pc_cli_rate_advice(e->message) : "");
}

static void print_error(const pc_error *e)
{
	report_error("", e);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: profcat [OPTION]... FILE...\n"
		"       profcat diff|merge|rates [OPTION]... FILE...  (see profcat diff --help)\n"
		"Print a report from program-counter sample captures and symbol files.\n"
		"FILEs may be any mix of captures (gmon.out, ...) and symbol sources\n"
		"(ELF, maps, ...); formats are detected from content, gzip is read\n"
		"transparently, '-' is standard input.\n\n"
		"  -f, --format NAME       read the FILEs that follow as NAME ('auto' resets)\n"
		"  -O, --option KEY=VALUE  loader option (e.g. width=4, endian=big)\n"
		"      --load-address ADDR where the program's code was loaded (same as\n"
		"                          -O load-address=ADDR; Atari: basepage + 0x100)\n"
		"  -r, --report NAME       report to print (default: flat)\n"
		"  -r source [FUNC|FILE]   annotated source (DWARF), of one function or file\n"
		"  -F FMT                  same as --output-format FMT\n"
		"  -o, --output FILE       write the report to FILE (atomically)\n"
		"      --list-formats      list the loaders and exit\n"
		"      --list-reports      list the reports and exit\n"
		"  -e, --export FORMAT     write FORMAT (pprof, speedscope, folded, callgrind,\n"
		"                          gmon) instead of a report\n"
		"      --list-exports      list the export formats and exit\n"
		"      --list-symbols      print the loaded symbol table\n"
		"      --ignore-fit        report a capture that does not fit the program\n"
		"      --check             sampling-quality diagnostics (same as -r check)\n"
		"  -v, --verbose           print warnings and what was detected\n"
		"  -h, --help              print this help and exit\n"
		"  -V, --version           print the version and exit\n");
	for (const optmap *m = report_opts; m->name; m++)
		fprintf(f, "      --%s%s%*s%s\n", m->name, m->has_arg == 1 ? " X" : "",
			(int)(22 - strlen(m->name) - (m->has_arg == 1 ? 2 : 0)), "", m->help);
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

static int list_formats(const pc_registry *reg)
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
	}
	return 0;
}

static int list_reports(void)
{
	for (size_t i = 0; pc_report_name_at(i); i++)
		printf("%-12s %s\n", pc_report_name_at(i), pc_report_description_at(i));
	return 0;
}

static int list_exports(void)
{
	for (size_t i = 0; pc_export_name_at(i); i++)
		printf("%-12s %-17s %s\n", pc_export_name_at(i),
		       pc_export_extension_at(i), pc_export_description_at(i));
	return 0;
}

/* Does the capture fit the program (pc_profile_fit)?  A misfit is an
 * error (exit 1) unless --ignore-fit, a doubt a warning; the library
 * names the problem, this adds the option that fixes it. */
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
	pc_fit f;
	int st = pc_profile_fit(p, opts, &f);
	if (st) {
		print_error(pc_profile_error(p));
		return status_exit(st);
	}
	if (!f.problem)
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
	char advice[256];
	if (f.has_shift && !elf && f.shift_default && f.load_given)
		snprintf(advice, sizeof advice,
			 "give --load-address 0x%llx (code starts 0x100 bytes after the basepage or PSP)",
			 (unsigned long long)f.load_address);
	else if (f.has_shift && !elf && f.shift_min == f.shift_max)
		snprintf(advice, sizeof advice, "give --load-address 0x%llx",
			 (unsigned long long)f.load_address);
	else if (f.has_shift && !elf)
		snprintf(advice, sizeof advice,
			 "give --load-address with the address it was loaded at (0x%llx to 0x%llx fit)",
			 (unsigned long long)(f.load_address + (uint64_t)(f.shift_min - f.shift)),
			 (unsigned long long)(f.load_address + (uint64_t)(f.shift_max - f.shift)));
	else if (f.verdict == PC_FIT_DOUBT)
		snprintf(advice, sizeof advice,
			 "name the other code with -O regions=LOW-HIGH:CLASS if it is not the program's");
	else
		snprintf(advice, sizeof advice, "give the executable that wrote the capture");
	int refuse = f.verdict == PC_FIT_MISFIT && !ignore;
	fprintf(stderr, "profcat: %s%s%s%s: %s%s\n", refuse ? "" : "warning: ", names,
		*names ? ": " : "", f.problem, advice,
		f.verdict == PC_FIT_MISFIT && !ignore ? ", or --ignore-fit to report anyway" : "");
	return refuse ? EXIT_INPUT : 0;
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

int main(int argc, char **argv)
{
	const char *out_path = NULL, *report = NULL, *format = NULL;
	const char *export_fmt = NULL;
	int list_e = 0;
	int list_f = 0, list_r = 0, list_syms = 0, verbose = 0, ignore_fit = 0;
	pc_options *lopts = pc_options_new(), *ropts = pc_options_new();
	input *in = calloc((size_t)argc + 1, sizeof *in);
	size_t nin = 0;
	int rc = 0, st;
	pc_registry *reg = NULL;
	pc_profile *p = NULL;
	char *buf = NULL;
	size_t len = 0;
	pc_cli_binary_stdio();
	if (!lopts || !ropts || !in) {
		fprintf(stderr, "profcat: out of memory\n");
		return EXIT_INTERNAL;
	}
	if (argc > 1 && (!strcmp(argv[1], "diff") || !strcmp(argv[1], "merge") ||
			 !strcmp(argv[1], "rates"))) {
		pc_options_free(lopts);
		pc_options_free(ropts);
		free(in);
		return profcat_stats_main(argc, argv);
	}
	int only_files = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
#define NEEDARG(optname)                                                           \
	do {                                                                       \
		if (i + 1 >= argc) {                                               \
			fprintf(stderr, "profcat: option %s needs a value\n", optname); \
			rc = EXIT_USAGE;                                           \
			goto done;                                                 \
		}                                                                  \
		val = argv[++i];                                                   \
	} while (0)
		if (!only_files && atari_alias(a, ropts, &out_path))
			continue;
		if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
			in[nin].path = a;
			in[nin].format = format;
			in[nin].pos = nin;
			nin++;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_files = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			goto done;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("profcat (profcore) %s\n", pc_version());
			goto done;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = 1;
		} else if (!strcmp(a, "--list-formats")) {
			list_f = 1;
		} else if (!strcmp(a, "--list-reports")) {
			list_r = 1;
		} else if (!strcmp(a, "--list-exports")) {
			list_e = 1;
		} else if (!strcmp(a, "-e") || !strcmp(a, "--export")) {
			NEEDARG(a);
			export_fmt = val;
		} else if (!strncmp(a, "--export=", 9)) {
			export_fmt = a + 9;
		} else if (!strcmp(a, "--check")) {
			report = "check";
		} else if (!strcmp(a, "--ignore-fit")) {
			ignore_fit = 1;
		} else if (!strcmp(a, "--list-symbols")) {
			list_syms = 1;
		} else if (!strcmp(a, "-f") || !strcmp(a, "--format")) {
			NEEDARG(a);
			format = strcmp(val, "auto") ? val : NULL;
		} else if (!strncmp(a, "--format=", 9)) {
			format = strcmp(a + 9, "auto") ? a + 9 : NULL;
		} else if (!strcmp(a, "-O") || !strcmp(a, "--option")) {
			NEEDARG(a);
			if (pc_options_parse(lopts, val)) {
				fprintf(stderr, "profcat: bad option '%s' (expected KEY=VALUE)\n", val);
				rc = EXIT_USAGE;
				goto done;
			}
		} else if (!strcmp(a, "--load-address") || !strncmp(a, "--load-address=", 15)) {
			if (a[14] == '=')
				val = a + 15;
			else
				NEEDARG(a);
			pc_options_set(lopts, "load-address", val);
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			NEEDARG(a);
			out_path = val;
		} else if (!strncmp(a, "--output=", 9)) {
			out_path = a + 9;
		} else if (!strcmp(a, "-r") || !strcmp(a, "--report") ||
			   !strncmp(a, "--report=", 9)) {
			if (a[1] == '-' && a[8] == '=')
				val = a + 9;
			else
				NEEDARG(a);
			report = val;
			/* -r source[:NAME] or -r source NAME: NAME selects a
			 * function or source file (taken when it is no option and
			 * no existing file, or names a source file) */
			if (!strncmp(val, "source:", 7)) {
				report = "source";
				pc_options_set(ropts, "source-select", val + 7);
			} else if (!strcmp(val, "source") && i + 1 < argc &&
				   argv[i + 1][0] != '-' &&
				   (!pc_cli_is_file(argv[i + 1]) ||
				    pc_cli_is_source_name(argv[i + 1]))) {
				pc_options_set(ropts, "source-select", argv[++i]);
			} else if (!strncmp(val, "disasm:", 7)) {
				/* -r disasm[:]FUNCTION: the function to disassemble */
				report = "disasm";
				pc_options_set(ropts, "disasm-select", val + 7);
			} else if (!strcmp(val, "disasm") && i + 1 < argc &&
				   argv[i + 1][0] != '-' && !pc_cli_is_file(argv[i + 1])) {
				pc_options_set(ropts, "disasm-select", argv[++i]);
			}
		} else if (!strcmp(a, "-F")) {
			NEEDARG(a);
			pc_options_set(ropts, "output-format", val);
		} else {
			const optmap *m = NULL;
			const char *eq = NULL;
			if (a[1] == '-') {
				eq = strchr(a, '=');
				size_t nl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
				for (const optmap *k = report_opts; k->name; k++)
					if (strlen(k->name) == nl && !strncmp(k->name, a + 2, nl))
						m = k;
			}
			if (!m) {
				fprintf(stderr, "profcat: unknown option '%s' (see profcat --help)\n", a);
				rc = EXIT_USAGE;
				goto done;
			}
			if (m->has_arg == 1) {
				if (eq)
					val = eq + 1;
				else
					NEEDARG(a);
			} else {
				if (eq) {
					fprintf(stderr, "profcat: option --%s takes no value\n", m->name);
					rc = EXIT_USAGE;
					goto done;
				}
				val = m->has_arg == 2 ? "0" : "1";
			}
			pc_options_set(ropts, m->key, val);
		}
	}

	reg = pc_registry_new();
	if (!reg) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = EXIT_INTERNAL;
		goto done;
	}
	const char *pp = getenv("PROFCORE_PLUGIN_PATH");
	if (pp && *pp && pc_registry_load_plugins(reg, pp) && pc_registry_error(reg)) {
		report_error("warning: ", pc_registry_error(reg));
	}
	if (pc_registry_load_plugins(reg, PC_PLUGINDIR) && verbose &&
	    pc_registry_error(reg)) {
		report_error("warning: ", pc_registry_error(reg));
	}
	if (list_f) {
		rc = list_formats(reg);
		goto done;
	}
	if (list_r) {
		rc = list_reports();
		goto done;
	}
	if (list_e) {
		rc = list_exports();
		goto done;
	}
	if (nin == 0) {
		fprintf(stderr, "profcat: no input files (see profcat --help)\n");
		rc = EXIT_USAGE;
		goto done;
	}
	if (out_path) {
		for (size_t i = 0; i < nin; i++)
			if (pc_cli_same_file(in[i].path, out_path)) {
				fprintf(stderr, "profcat: %s: refusing to write the output over an input file\n",
					out_path);
				rc = EXIT_USAGE;
				goto done;
			}
		if ((rc = pc_cli_check_output(out_path)) != 0)
			goto done;
	}
	p = pc_profile_new(reg);
	if (!p) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = EXIT_INTERNAL;
		goto done;
	}
	/* open and identify every input, then load symbol sources first */
	for (size_t i = 0; i < nin; i++) {
		in[i].s = pc_stream_open_file(in[i].path, &st);
		if (!in[i].s) {
			pc_cli_file_error(in[i].path, -1,
				st == PC_ENOTFOUND ? "no such file"
				: st == PC_ENOMEM  ? "out of memory"
						   : "cannot read file");
			rc = st == PC_ENOMEM ? EXIT_INTERNAL : EXIT_IO;
			goto done;
		}
		if (in[i].format) {
			in[i].l = pc_registry_find(reg, in[i].format);
			if (!in[i].l) {
				fprintf(stderr, "profcat: no format named '%s' (see profcat --list-formats)\n",
					in[i].format);
				rc = EXIT_USAGE;
				goto done;
			}
		} else {
			int conf = 0;
			in[i].l = pc_registry_detect(reg, in[i].s, &conf);
			if (!in[i].l) {
				const unsigned char *h;
				size_t hl;
				pc_stream_peek(in[i].s, &h, &hl);
				if (pc_stream_error(in[i].s)) /* corrupt gzip: say so */
					pc_cli_error("", pc_stream_error(in[i].s), NULL);
				else
					pc_cli_file_error(in[i].path, 0,
						hl ? "unrecognised file format (use --format NAME; --list-formats lists them)"
						   : "empty file");
				rc = EXIT_INPUT;
				goto done;
			}
			if (verbose)
				fprintf(stderr, "profcat: %s: detected as %s (confidence %d)\n",
					pc_cli_shown(in[i].path), in[i].l->name, conf);
		}
	}
	qsort(in, nin, sizeof *in, cmp_input);
	for (size_t i = 0; i < nin; i++) {
		st = pc_profile_load_stream(p, in[i].s, in[i].l->name, lopts);
		if (st) {
			print_error(pc_profile_error(p));
			rc = status_exit(st);
			goto done;
		}
	}
	size_t nw = pc_profile_warning_count(p);
	for (size_t i = 0; i < nw && verbose; i++)
		pc_cli_message("warning: ", pc_profile_warning(p, i));
	for (size_t i = 0; verbose && i < pc_profile_note_count(p); i++)
		pc_cli_message("note: ", pc_profile_note_at(p, i));

	for (size_t i = 0; i < pc_options_count(lopts); i++) {
		const char *k = pc_options_key_at(lopts, i);
		if (!pc_options_get(ropts, k))
			pc_options_set(ropts, k, pc_options_get(lopts, k));
	}
	if ((rc = check_fit(p, ropts, in, nin, ignore_fit)))
		goto done;
	const char *dm = pc_options_get(ropts, "demangle");
	if (dm && strcmp(dm, "0") && strcmp(dm, "none") && !pc_demangler_available())
		fprintf(stderr, "profcat: warning: this profcat was built without a demangler "
			"(libiberty-dev, meson -Ddemangle): names are shown mangled\n");
	if (export_fmt && !list_syms)
		st = pc_profile_export(p, export_fmt, ropts, &buf, &len);
	else
		st = pc_profile_render(p, list_syms ? "symbols" : report, ropts, &buf, &len);
	if (st) {
		print_error(pc_profile_error(p));
		rc = status_exit(st);
		goto done;
	}
	rc = pc_cli_write_output(out_path, buf, len);
done:
	pc_free(buf);
	for (size_t i = 0; i < nin; i++)
		pc_stream_free(in[i].s);
	free(in);
	pc_profile_free(p);
	pc_registry_free(reg);
	pc_options_free(lopts);
	pc_options_free(ropts);
	return rc;
}
