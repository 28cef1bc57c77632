/* args.c - profcat's options: one table for profcat and its subcommands
 * (diff, merge, rates), parsed by getopt_long in command-line order
 * (optstring "-": operands are returned in place, so that -f applies to
 * the FILEs after it), and printed by --help in one two-column layout.
 *
 * Every spelling profcat has accepted still works: --opt VALUE,
 * --opt=VALUE, unique abbreviations of long options (getopt_long), and
 * the Atari ST Profiler's p=N +z -z +b -b x=SYM i=N o=FILE (operands
 * and the short options -z -b, handled by the commands). */
#include "args.h"
#include "hints.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define MAIN PC_CMD_MAIN
#define MERGE PC_CMD_MERGE
#define ALL PC_CMD_ALL
#define ONE (PC_CMD_MAIN | PC_CMD_MERGE) /* one profile: reports, exports */

static const pc_cli_opt opts[] = {
	{"format", 'f', PC_OPT_FORMAT, NULL, NULL, "NAME", ALL,
	 "read the FILEs that follow as NAME ('auto'\nresets)"},
	{"option", 'O', PC_OPT_OPTION, NULL, NULL, "KEY=VALUE", ALL,
	 "loader option (e.g. width=4, endian=big;\n--list-formats -v lists the keys of every\nloader, report and export)"},
	{"load-address", 0, PC_OPT_LOAD_ADDRESS, NULL, NULL, "ADDR", ALL,
	 "where the program's code was loaded (same as\n-O load-address=ADDR; Atari: basepage+0x100)"},
	{"trace-dialect", 0, PC_OPT_TRACE_DIALECT, NULL, NULL, "FILE", ALL,
	 "read the FILEs that follow as instruction\ntraces in dialect FILE.yaml or NAME (same as\n-f trace -O trace-dialect=FILE)"},
	{"rate", 0, PC_OPT_RATE, NULL, NULL, "HZ", ALL,
	 "samples per second of the captures (raw\ndumps and others without one: seconds in\nevery report); same as -O rate=HZ"},
	{"report", 'r', PC_OPT_REPORT, NULL, NULL, "NAME", ONE,
	 "report to print (default: flat); -r source\n[FUNC|FILE]: annotated source of a function\nor a file"},
	{"export", 'e', PC_OPT_EXPORT, NULL, NULL, "FORMAT", ONE,
	 "write FORMAT (pprof, speedscope, folded,\ncallgrind, gmon, svg) instead of a report"},
	{"output", 'o', PC_OPT_OUTPUT, NULL, NULL, "FILE", ALL,
	 "write to FILE (atomically)"},
	{"output-format", 'F', PC_OPT_KEYED, "output-format", NULL, "FMT", ALL,
	 "text (default), csv, json or html"},
	{"top", 'n', PC_OPT_KEYED, "top", NULL, "N", ONE,
	 "list the first N rows only"},
	{"sort", 0, PC_OPT_KEYED, "sort", NULL, "KEY", ONE,
	 "row order: self (default), cum, calls, name\nor address"},
	{"focus", 0, PC_OPT_KEYED, "focus", NULL, "REGEX", ONE | PC_CMD_DIFF,
	 "keep only the samples whose stack has a\nfunction matching REGEX"},
	{"ignore", 0, PC_OPT_KEYED, "ignore", NULL, "REGEX", ONE | PC_CMD_DIFF,
	 "drop the samples whose stack has a function\nmatching REGEX"},
	{"hide", 0, PC_OPT_KEYED, "hide", NULL, "REGEX", ONE | PC_CMD_DIFF,
	 "remove the functions matching REGEX from\nthe stacks"},
	{"style", 0, PC_OPT_KEYED, "style", NULL, "NAME", ALL,
	 "flat: default, gprof, atari, ddj or prohst;\ncallgraph: gprof or proff (docs/reports.md)"},
	{"callgraph-time", 0, PC_OPT_KEYED, "callgraph-time", NULL, "WHAT", ALL,
	 "call graph own times: samples or flat\n(Proff arcs' flat times)"},
	{"zero", 0, PC_OPT_KEYED, "zero", "1", NULL, ALL,
	 "also list symbols without samples (gprof -z,\nAtari +z)"},
	{"no-zero", 0, PC_OPT_KEYED, "zero", "0", NULL, ALL,
	 "list only symbols with samples or calls\n(default; Atari -z)"},
	{"cutoff", 0, PC_OPT_KEYED, "cutoff", NULL, "N", ALL,
	 "list symbols until N percent is covered\n(Atari p=N)"},
	{"barchart", 0, PC_OPT_KEYED, "barchart", "1", NULL, ALL,
	 "bar column in the table (default; Atari +b)"},
	{"no-barchart", 0, PC_OPT_KEYED, "barchart", "0", NULL, ALL,
	 "no bar column (Atari -b)"},
	{"interval", 0, PC_OPT_KEYED, "interval", NULL, "SYM", ALL,
	 "split SYM (or LOW-HIGH, LOW+SIZE) into\nsub-ranges (Atari x=SYM)"},
	{"intervals", 0, PC_OPT_KEYED, "intervals", NULL, "N", ALL,
	 "number of sub-ranges, default 25 (Atari\ni=N)"},
	{"percent-of", 0, PC_OPT_KEYED, "percent-of", NULL, "BASE", ALL,
	 "program or total: what percents are of"},
	{"attribution", 0, PC_OPT_KEYED, "attribution", NULL, "RULE", ALL,
	 "proportional (default, gprof) or bucket-start\n(PROFIL/PROHST)"},
	{"use-sizes", 0, PC_OPT_KEYED, "use-sizes", "1", NULL, ALL,
	 "end symbols at address+size when the size\nis known"},
	{"granularity", 0, PC_OPT_KEYED, "granularity", NULL, "UNIT", ALL,
	 "flat: function (default), line (gprof -l),\nfile or address; exports: function (pprof\ndefault), address (the others' default) or line"},
	{"stacks", 0, PC_OPT_KEYED, "stacks", NULL, "MODE", ONE,
	 "exports: estimate (default; callers from call\ncounts, as gprof), marked (folded/svg: under\nan [estimated] root) or none (one frame)"},
	{"source-path", 0, PC_OPT_KEYED, "source-path", NULL, "DIRS", MAIN,
	 "':'-separated directories searched for\nsource files (-r source)"},
	{"debuginfod", 0, PC_OPT_KEYED, "debuginfod", "1", NULL, MAIN,
	 "ask the servers of DEBUGINFOD_URLS for a\nseparate debug file not found here (network;\nnever without this option)"},
	{"ci", 0, PC_OPT_KEYED, "ci", NULL, "N", ALL,
	 "N percent confidence intervals (e.g. 95); diff and\nrates: the level of their tests (default 95)"},
	{"correction", 0, PC_OPT_KEYED, "correction", NULL, "M", PC_CMD_DIFF,
	 "holm (default) or bh (Benjamini-Hochberg)"},
	{"threshold", 0, PC_OPT_KEYED, "threshold", NULL, "PP", PC_CMD_DIFF,
	 "unchanged: the interval is within +-PP\npercentage points (default 1)"},
	{"power", 0, PC_OPT_KEYED, "power", NULL, "N", PC_CMD_DIFF,
	 "power of the minimum detectable effect, in\npercent (default 80)"},
	{"symbol", 's', PC_OPT_SYMBOL, NULL, NULL, "SYM", PC_CMD_DIFF,
	 "test only SYM (repeatable; same as -- SYM)"},
	{"demangle", 0, PC_OPT_KEYED, "demangle", "1", NULL, ALL,
	 "demangle C++ and Rust names as gprof does\n(default)"},
	{"no-demangle", 0, PC_OPT_KEYED, "demangle", "0", NULL, ALL,
	 "show names as the symbol table spells them"},
	{"list-formats", 0, PC_OPT_LIST_FORMATS, NULL, "1", NULL, MAIN,
	 "list the loaders and exit"},
	{"list-reports", 0, PC_OPT_LIST_REPORTS, NULL, "1", NULL, MAIN,
	 "list the reports and exit"},
	{"list-exports", 0, PC_OPT_LIST_EXPORTS, NULL, "1", NULL, MAIN,
	 "list the export formats and exit"},
	{"list-symbols", 0, PC_OPT_LIST_SYMBOLS, NULL, "1", NULL, MAIN,
	 "print the loaded symbol table"},
	{"ignore-fit", 0, PC_OPT_IGNORE_FIT, NULL, "1", NULL, ALL,
	 "report a capture that does not fit the\nprogram"},
	{"check", 0, PC_OPT_CHECK, NULL, "1", NULL, MAIN,
	 "sampling-quality diagnostics (same as\n-r check)"},
	{"verbose", 'v', PC_OPT_VERBOSE, NULL, "1", NULL, ALL,
	 "print warnings and what was read and\ndetected"},
	{"help", 'h', PC_OPT_HELP, NULL, "1", NULL, ALL, "print this help and exit"},
	{"version", 'V', PC_OPT_VERSION, NULL, "1", NULL, ALL,
	 "print the version and exit"},
	/* the Atari ST Profiler's -z and -b (its +z +b p=N ... are operands) */
	{NULL, 'z', PC_OPT_KEYED, "zero", "0", NULL, ALL, NULL},
	{NULL, 'b', PC_OPT_KEYED, "barchart", "0", NULL, ALL, NULL},
};
#define NOPTS (sizeof opts / sizeof opts[0])
#define LONG_BASE 256

struct pc_cli_parser {
	int argc;
	char **argv;
};

const char *pc_cli_peek(pc_cli_parser *ps)
{
	return optind < ps->argc ? ps->argv[optind] : NULL;
}

void pc_cli_take(pc_cli_parser *ps)
{
	if (optind < ps->argc)
		optind++;
}

/* "--name" or "-c" as the user would type it */
static const char *shown_name(const pc_cli_opt *o, char *buf, size_t n)
{
	if (o->name)
		snprintf(buf, n, "--%s", o->name);
	else
		snprintf(buf, n, "-%c", o->shortc);
	return buf;
}

/* The table entry a long argument "--abc[=...]" names (exact, or a
 * unique abbreviation), or NULL; *ambiguous set when several match. */
static const pc_cli_opt *long_named(const char *arg, int *ambiguous)
{
	const char *eq = strchr(arg, '=');
	size_t l = eq ? (size_t)(eq - arg) : strlen(arg);
	const pc_cli_opt *hit = NULL;
	int n = 0;
	*ambiguous = 0;
	for (size_t i = 0; i < NOPTS; i++) {
		if (!opts[i].name || strncmp(opts[i].name, arg, l))
			continue;
		if (strlen(opts[i].name) == l)
			return &opts[i];
		hit = &opts[i];
		n++;
	}
	*ambiguous = n > 1;
	return n == 1 ? hit : NULL;
}

/* The table entry of short option c, or NULL. */
static const pc_cli_opt *short_named(int c)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (opts[i].shortc && opts[i].shortc == c)
			return &opts[i];
	return NULL;
}

/* pprof's single-dash words (-top, -focus=RE) before getopt_long reads
 * them as clusters of profcat's letters (-f ocus=RE): the arguments in
 * getopt's order, option values skipped; 2 after the message, else 0. */
static int foreign_words(int argc, char **argv, int first)
{
	char msg[512];
	for (int i = first; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--"))
			break;
		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] == '-') {
			int amb;
			const pc_cli_opt *o = long_named(a + 2, &amb);
			if (o && !o->value && !strchr(a, '='))
				i++;
			continue;
		}
		if (strcspn(a + 1, "=") >= 2 && pc_cli_foreign_option(a, i + 1 < argc ? argv[i + 1] : NULL, msg, sizeof msg) &&
		    strncmp(msg, "unknown option '-", 17) == 0 && a[2] != '=' &&
		    strstr(msg, "pprof's spelling")) {
			fprintf(stderr, "profcat: %s\n", msg);
			return 2;
		}
		for (const char *c = a + 1; *c; c++) {
			const pc_cli_opt *o = short_named((unsigned char)*c);
			if (!o)
				break;
			if (!o->value) {
				if (!c[1])
					i++;
				break;
			}
		}
	}
	return 0;
}

/* "unknown option" with what profcat knows about it: another tool's
 * option, or the nearest of profcat's long names */
static void say_unknown(const char *shown, const char *name)
{
	char msg[512];
	if (pc_cli_foreign_option(shown, NULL, msg, sizeof msg)) {
		fprintf(stderr, "profcat: %s\n", msg);
		return;
	}
	const char *names[NOPTS];
	for (size_t i = 0; i < NOPTS; i++)
		names[i] = opts[i].name;
	const char *hit = !strncmp(shown, "--", 2) ? pc_cli_nearest(shown + 2, names, NOPTS)
						   : NULL;
	if (hit)
		fprintf(stderr, "profcat: unknown option '%s': did you mean '--%s'? (see %s --help)\n",
			shown, hit, name);
	else
		fprintf(stderr, "profcat: unknown option '%s' (see %s --help)\n", shown, name);
}

int pc_cli_parse(int argc, char **argv, int first, unsigned cmd,
		 const char *name, pc_cli_cb cb, void *ctx)
{
	if (foreign_words(argc, argv, first))
		return 2;
	struct option lo[NOPTS + 1];
	char so[3 * NOPTS + 4];
	size_t nl = 0, ns = 0;
	so[ns++] = '-'; /* operands in order */
	so[ns++] = ':'; /* ':' for a missing value */
	for (size_t i = 0; i < NOPTS; i++) {
		const pc_cli_opt *o = &opts[i];
		if (o->name)
			lo[nl++] = (struct option){o->name, o->value ? no_argument : required_argument,
						   NULL, (int)(LONG_BASE + i)};
		if (o->shortc) {
			so[ns++] = o->shortc;
			if (!o->value)
				so[ns++] = ':';
		}
	}
	lo[nl] = (struct option){NULL, 0, NULL, 0};
	so[ns] = '\0';
	pc_cli_parser ps = {argc, argv};
	/* getopt_long reads argv[optind..]: argv[first - 1] stands for the
	 * program name */
	optind = first;
	opterr = 0;
	int c, rc = 0;
	char nb[64];
	while (!rc && (c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		const char *arg = argv[optind - 1];
		const pc_cli_opt *o = NULL;
		if (c == 1) { /* an operand */
			rc = cb(ctx, &ps, NULL, optarg, 0);
			continue;
		}
		if (c == '?' || c == ':') {
			int amb = 0;
			if (optopt >= LONG_BASE)
				o = &opts[optopt - LONG_BASE];
			else if (optopt)
				for (size_t i = 0; i < NOPTS && !o; i++)
					if (opts[i].shortc == optopt)
						o = &opts[i];
			if (!o && !strncmp(arg, "--", 2))
				o = long_named(arg + 2, &amb);
			/* first: mingw-w64's getopt_long reports --flag=VALUE
			 * with ':' where glibc's reports it with '?' */
			if (o && o->value && strchr(arg, '='))
				fprintf(stderr, "profcat: option %s takes no value\n",
					shown_name(o, nb, sizeof nb));
			else if (c == ':' && o && optopt < LONG_BASE)
				fprintf(stderr, "profcat: option -%c needs a value\n", optopt);
			else if (c == ':' && o)
				fprintf(stderr, "profcat: option %s needs a value\n",
					shown_name(o, nb, sizeof nb));
			else if (amb)
				fprintf(stderr, "profcat: ambiguous option '%.*s' (see %s --help)\n",
					(int)strcspn(arg, "="), arg, name);
			else if (optopt && optopt < LONG_BASE && strncmp(arg, "--", 2)) {
				char sh[3] = {'-', (char)optopt, '\0'};
				say_unknown(sh, name);
			} else {
				char sh[128];
				snprintf(sh, sizeof sh, "%.*s", (int)strcspn(arg, "="), arg);
				say_unknown(sh, name);
			}
			return 2;
		}
		if (c >= LONG_BASE)
			o = &opts[c - LONG_BASE];
		else
			for (size_t i = 0; i < NOPTS && !o; i++)
				if (opts[i].shortc == c)
					o = &opts[i];
		if (!o)
			return 2;
		char fm[512];
		if (!(o->cmds & cmd) && cmd == PC_CMD_MAIN && c < LONG_BASE) {
			/* a letter of another command here (-s): gprof's? */
			char sh[3] = {'-', (char)c, '\0'};
			if (pc_cli_foreign_option(sh, NULL, fm, sizeof fm)) {
				fprintf(stderr, "profcat: %s\n", fm);
				return 2;
			}
		}
		if (!(o->cmds & cmd)) {
			fprintf(stderr, "profcat: option %s does not apply to %s (see %s --help)\n",
				shown_name(o, nb, sizeof nb), name, name);
			return 2;
		}
		rc = cb(ctx, &ps, o, o->value ? o->value : optarg, 0);
	}
	for (; !rc && optind < argc; optind++) /* after "--" */
		rc = cb(ctx, &ps, NULL, argv[optind], 1);
	return rc;
}

void pc_cli_option_help(FILE *f, unsigned cmd)
{
	enum { COL = 28 }; /* 28 + 51 = 79 columns */
	for (size_t i = 0; i < NOPTS; i++) {
		const pc_cli_opt *o = &opts[i];
		if (!o->help || !(o->cmds & cmd))
			continue;
		char left[64];
		if (o->shortc)
			snprintf(left, sizeof left, "  -%c, --%s%s%s", o->shortc, o->name,
				 o->metavar ? " " : "", o->metavar ? o->metavar : "");
		else
			snprintf(left, sizeof left, "      --%s%s%s", o->name,
				 o->metavar ? " " : "", o->metavar ? o->metavar : "");
		size_t l = strlen(left);
		if (l + 2 > COL)
			fprintf(f, "%s\n%*s", left, COL, "");
		else
			fprintf(f, "%-*s", COL, left);
		for (const char *h = o->help; *h;) {
			size_t n = strcspn(h, "\n");
			fprintf(f, "%.*s\n", (int)n, h);
			h += n;
			if (*h == '\n') {
				h++;
				fprintf(f, "%*s", COL, "");
			}
		}
	}
}
