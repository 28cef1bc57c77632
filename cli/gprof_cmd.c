/* gprof_cmd.c - profcat gprof [gprof options] [a.out [gmon.out...]]:
 * GNU gprof 2.40's command line, read as gprof reads it (getopt_long with
 * gprof's option string and long options: combined short flags, -pSYM,
 * --flat-profile[=SYM], unique prefixes of long options), printing what
 * gprof prints for the options profcat supports, in gprof's order of
 * sections (flat profile, call graph with its index), and refusing in
 * one line the options it does not support, naming them.  What gprof
 * would not say is said too: a capture that does not fit the program is
 * refused (profcat's fit check).
 *
 * The sections are profcat's own reports: the flat report in the gprof
 * style (gprof -b -p), the call graph report in the gprof style (-b -q),
 * --granularity line (-l); -s is the gmon export.  gprof's explanations
 * of the columns (printed without -b) are not reproduced: the tables are
 * printed as with -b and a note on standard error says so.
 */
#include "profcore.h"
#include "profcore_plugin.h"
#include "gprof_cmd.h"
#include "keys.h"
#include "output.h"
#include "common.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* gprof's output styles (gprof.h), in the order gprof prints them */
enum {
	G_FLAT = 1 << 0, G_GRAPH = 1 << 1, G_SUM = 1 << 2, G_EXEC = 1 << 3,
	G_ANNO = 1 << 4, G_INFO = 1 << 5, G_FORDER = 1 << 6, G_FILEORDER = 1 << 7
};

/* the long options without a short letter */
enum { O_DEMANGLE = 150, O_NO_DEMANGLE, O_INLINE, O_IGNORE_FIT };

/* gprof 2.40's options (gprof.c), the same names and arguments */
static const struct option long_opts[] = {
	{"line", no_argument, 0, 'l'},
	{"no-static", no_argument, 0, 'a'},
	{"ignore-non-functions", no_argument, 0, 'D'},
	{"external-symbol-table", required_argument, 0, 'S'},
	{"annotated-source", optional_argument, 0, 'A'},
	{"no-annotated-source", optional_argument, 0, 'J'},
	{"flat-profile", optional_argument, 0, 'p'},
	{"no-flat-profile", optional_argument, 0, 'P'},
	{"graph", optional_argument, 0, 'q'},
	{"no-graph", optional_argument, 0, 'Q'},
	{"exec-counts", optional_argument, 0, 'C'},
	{"no-exec-counts", optional_argument, 0, 'Z'},
	{"function-ordering", no_argument, 0, 'r'},
	{"file-ordering", required_argument, 0, 'R'},
	{"file-info", no_argument, 0, 'i'},
	{"sum", no_argument, 0, 's'},
	{"all-lines", no_argument, 0, 'x'},
	{"demangle", optional_argument, 0, O_DEMANGLE},
	{"no-demangle", no_argument, 0, O_NO_DEMANGLE},
	{"directory-path", required_argument, 0, 'I'},
	{"display-unused-functions", no_argument, 0, 'z'},
	{"inline-file-names", no_argument, 0, O_INLINE},
	{"min-count", required_argument, 0, 'm'},
	{"print-path", no_argument, 0, 'L'},
	{"separate-files", no_argument, 0, 'y'},
	{"static-call-graph", no_argument, 0, 'c'},
	{"table-length", required_argument, 0, 't'},
	{"time", required_argument, 0, 'n'},
	{"no-time", required_argument, 0, 'N'},
	{"width", required_argument, 0, 'w'},
	{"brief", no_argument, 0, 'b'},
	{"debug", optional_argument, 0, 'd'},
	{"help", no_argument, 0, 'h'},
	{"file-format", required_argument, 0, 'O'},
	{"traditional", no_argument, 0, 'T'},
	{"version", no_argument, 0, 'v'},
	/* profcat's own: report although the capture does not fit */
	{"ignore-fit", no_argument, 0, O_IGNORE_FIT},
	{0, 0, 0, 0}};

static const char short_opts[] =
	"aA::bBcC::d::De:E:f:F:hiI:J::k:lLm:n:N:O:p::P::q::Q::rR:sS:t:Tvw:xyzZ::";

/* What the command line asks for. */
typedef struct gcmd {
	unsigned style, user;
	int brief, zero, line, demangle, ignore_fit;
	char unsupported[512]; /* the options named in the refusal */
	char *specs;           /* gprof-symspecs: "Xspec;..." */
	char *dirs;            /* -I: source directories, ':'-separated */
	int arcspec;           /* an arc selection: -k, -q/-Q FROM/TO */
} gcmd;

/* Adds "-X (--long)" to the options refused, once each. */
static void refuse(gcmd *g, int c)
{
	char item[64];
	const char *lname = NULL;
	for (size_t i = 0; long_opts[i].name; i++)
		if (long_opts[i].val == c) {
			lname = long_opts[i].name;
			break;
		}
	if (c < 128 && lname)
		snprintf(item, sizeof item, "-%c (--%s)", c, lname);
	else if (c < 128)
		snprintf(item, sizeof item, "-%c", c);
	else
		snprintf(item, sizeof item, "--%s", lname ? lname : "?");
	if (strstr(g->unsupported, item))
		return;
	size_t l = strlen(g->unsupported);
	snprintf(g->unsupported + l, sizeof g->unsupported - l, "%s%s", l ? ", " : "", item);
}

/* Appends "Xspec;" to the selections (the report option gprof-symspecs). */
static int addspec(gcmd *g, int c, const char *spec)
{
	if (strchr(spec, ';')) {
		fprintf(stderr, "profcat gprof: -%c '%s': a symbol with ';' is not supported\n", c,
			pc_cli_shown(spec));
		return PC_CLI_EXIT_USAGE;
	}
	if (c == 'k' || ((c == 'q' || c == 'Q') && strchr(spec, '/')))
		g->arcspec = 1;
	size_t l = strlen(g->specs), n = strlen(spec);
	char *m = realloc(g->specs, l + n + 3);
	if (!m) {
		fprintf(stderr, "profcat: out of memory\n");
		return PC_CLI_EXIT_INTERNAL;
	}
	snprintf(m + l, n + 3, "%s%c%s", l ? ";" : "", c, spec);
	g->specs = m;
	return 0;
}

/* Appends dirs (':'-separated, as gprof's search_list_append) to the
 * source search list. */
static int adddir(gcmd *g, const char *dirs)
{
	size_t l = g->dirs ? strlen(g->dirs) : 0, n = strlen(dirs);
	char *m = realloc(g->dirs, l + n + 2);
	if (!m) {
		fprintf(stderr, "profcat: out of memory\n");
		return 1;
	}
	snprintf(m + l, n + 2, "%s%s", l ? ":" : "", dirs);
	g->dirs = m;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: profcat gprof [gprof options] [a.out [gmon.out...]]\n"
		"GNU gprof 2.40's command line: prints what gprof prints, from profcat's\n"
		"reports, and refuses a capture that does not fit the program.\n\n"
		"Supported: -b --brief, -p --flat-profile[=SYM], -P --no-flat-profile[=SYM],\n"
		"-q --graph[=SYM], -Q --no-graph[=SYM], -e -E -f -F -n -N SYM, -k FROM/TO\n"
		"(SYM: gprof's FUNCTION, FILE, FILE:FUNCTION, FILE:LINE, LINE),\n"
		"-z --display-unused-functions, -l --line (flat profile),\n"
		"-A --annotated-source[=SYM], -J --no-annotated-source[=SYM],\n"
		"-I --directory-path DIRS, -s --sum (writes gmon.sum), --demangle,\n"
		"--no-demangle, -h --help, -v --version; profcat's --ignore-fit.\n"
		"Any other gprof option is refused in one line naming it (exit 2).\n"
		"Without -b the tables are printed as with -b: gprof's explanations\n"
		"of the columns are not reproduced (a note says so).\n");
}

static int parse(gcmd *g, int argc, char **argv)
{
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		switch (c) {
		case 'b': g->brief = 1; break;
		case 'z': g->zero = 1; break;
		case 'l': g->line = 1; break;
		case 'p':
		case 'q':
			if (optarg && addspec(g, c, optarg))
				return PC_CLI_EXIT_USAGE;
			g->style |= c == 'p' ? G_FLAT : G_GRAPH;
			g->user |= c == 'p' ? G_FLAT : G_GRAPH;
			break;
		case 'P':
		case 'Q':
			/* with a symbol: that symbol left out, the section on */
			if (optarg) {
				if (addspec(g, c, optarg))
					return PC_CLI_EXIT_USAGE;
				g->style |= c == 'P' ? G_FLAT : G_GRAPH;
			} else {
				g->style &= ~(unsigned)(c == 'P' ? G_FLAT : G_GRAPH);
			}
			g->user |= c == 'P' ? G_FLAT : G_GRAPH;
			break;
		case 'A':
			if (optarg && addspec(g, c, optarg))
				return PC_CLI_EXIT_USAGE;
			g->style |= G_ANNO;
			g->user |= G_ANNO;
			break;
		case 'J':
			/* with a symbol: that function left out, the section on */
			if (optarg) {
				if (addspec(g, c, optarg))
					return PC_CLI_EXIT_USAGE;
				g->style |= G_ANNO;
			} else {
				g->style &= ~(unsigned)G_ANNO;
			}
			g->user |= G_ANNO;
			break;
		case 'I':
			if (adddir(g, optarg))
				return PC_CLI_EXIT_INTERNAL;
			break;
		case 'e': case 'E': case 'f': case 'F': case 'n': case 'N': case 'k':
			if (addspec(g, c, optarg))
				return PC_CLI_EXIT_USAGE;
			break;
		case 's':
			g->style |= G_SUM;
			g->user |= G_SUM;
			break;
		case O_DEMANGLE:
			/* the styles libiberty's demangler knows as gprof's
			 * default: auto and gnu-v3 (g++'s) */
			if (optarg && strcmp(optarg, "auto") && strcmp(optarg, "gnu-v3")) {
				refuse(g, c);
				break;
			}
			g->demangle = 1;
			break;
		case O_NO_DEMANGLE: g->demangle = 0; break;
		case O_IGNORE_FIT: g->ignore_fit = 1; break;
		case 'h':
			usage(stdout);
			return -1;
		case 'v':
			printf("profcat gprof (profcore) %s: GNU gprof 2.40's command line\n",
			       pc_version());
			return -1;
		case '?':
			if (optopt)
				fprintf(stderr, "profcat gprof: %s -%c (as gprof: see profcat gprof --help)\n",
					strchr(short_opts, optopt) ? "option needs an argument:"
								   : "unknown option", optopt);
			else
				fprintf(stderr, "profcat gprof: unknown or ambiguous option '%s' (as gprof: see profcat gprof --help)\n",
					pc_cli_shown(argv[optind - 1]));
			return PC_CLI_EXIT_USAGE;
		default:
			refuse(g, c);
			break;
		}
	}
	for (int i = optind; i < argc; i++)
		if (argv[i][0] == '@') { /* gprof reads options from @FILE */
			size_t l = strlen(g->unsupported);
			snprintf(g->unsupported + l, sizeof g->unsupported - l, "%s@FILE",
				 l ? ", " : "");
			break;
		}
	if (*g->unsupported) {
		fprintf(stderr, "profcat gprof: not supported: %s (profcat gprof --help lists the supported options)\n",
			g->unsupported);
		return PC_CLI_EXIT_USAGE;
	}
	/* GPROF_PATH: searched after the -I directories */
	const char *gp = getenv("GPROF_PATH");
	if (gp && *gp && adddir(g, gp))
		return PC_CLI_EXIT_INTERNAL;
	/* --sum implies --line (gprof.c) */
	if (g->style & G_SUM)
		g->line = 1;
	return 0;
}

/* Loads path (format detected) into p. */
static int load(pc_registry *reg, pc_profile *p, const pc_options *lopts,
		const char *path, const pc_loader **lo)
{
	pc_stream *s = NULL;
	int st = pc_stream_open_file(&s, path);
	if (st)
		return pc_cli_open_error(path, st);
	int conf = 0;
	const pc_loader *l = pc_registry_detect(&conf, reg, s);
	if (!l) {
		pc_cli_file_error(path, 0, "unrecognised file format (gprof reads an executable and gmon.out files)");
		pc_stream_free(s);
		return PC_CLI_EXIT_INPUT;
	}
	pc_options *own = pc_cli_loader_options(l, lopts);
	if (!own) {
		pc_stream_free(s);
		fprintf(stderr, "profcat: out of memory\n");
		return PC_CLI_EXIT_INTERNAL;
	}
	st = pc_profile_load_stream(p, s, l->name, own);
	pc_options_free(own);
	pc_stream_free(s);
	if (st) {
		pc_cli_error("", pc_profile_error(p), NULL);
		return st == PC_ENOMEM ? PC_CLI_EXIT_INTERNAL : st == PC_EIO ? 3 : PC_CLI_EXIT_INPUT;
	}
	*lo = l;
	return 0;
}

/* One section to standard output: report with opts. */
static int section(pc_profile *p, const char *report, const pc_options *opts)
{
	pc_cli_output out;
	int rc = pc_cli_output_open(&out, NULL);
	if (rc)
		return rc;
	int st = pc_profile_render_to(p, report, opts, pc_cli_output_write, &out);
	if (st && !out.err) {
		pc_cli_output_close(&out, 0);
		pc_cli_error("", pc_profile_error(p), NULL);
		return st == PC_ENOMEM ? PC_CLI_EXIT_INTERNAL : st == PC_EUSAGE ? PC_CLI_EXIT_USAGE : PC_CLI_EXIT_INPUT;
	}
	return pc_cli_output_close(&out, 1);
}

int profcat_gprof_main(int argc, char **argv)
{
	gcmd g = {0};
	g.demangle = 1;
	g.specs = calloc(1, 1);
	if (!g.specs) {
		fprintf(stderr, "profcat: out of memory\n");
		return PC_CLI_EXIT_INTERNAL;
	}
	/* getopt_long reads argv[1..]: argv[1] ("gprof") stands for the
	 * program name */
	int rc = parse(&g, argc - 1, argv + 1);
	if (rc) {
		free(g.specs);
		free(g.dirs);
		return rc < 0 ? 0 : rc;
	}
	int first = optind + 1; /* the operands, in argv */
	const char *aout = first < argc ? argv[first++] : "a.out";
	pc_registry *reg = NULL;
	pc_profile *p = NULL;
	pc_options *lopts = NULL, *ropts = NULL;
	if (pc_registry_new(&reg) || pc_profile_new(&p, reg) || pc_options_new(&lopts) ||
	    pc_options_new(&ropts)) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = PC_CLI_EXIT_INTERNAL;
		goto done;
	}
	pc_cli_set_threads(p);
	const pc_loader *l = NULL;
	int elf = 0;
	if ((rc = load(reg, p, lopts, aout, &l)))
		goto done;
	elf = !strcmp(l->name, "elf");
	char names[1024] = "";
	for (int i = first; i < argc || i == first; i++) {
		const char *gm = i < argc ? argv[i] : "gmon.out";
		if ((rc = load(reg, p, lopts, gm, &l)))
			goto done;
		size_t n = strlen(names);
		snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", gm);
	}
	if ((rc = pc_cli_fit(p, lopts, names, elf, g.ignore_fit)))
		goto done;
	int hist = pc_profile_histogram_count(p) > 0 || pc_profile_sample_count(p) > 0;
	int arcs = pc_profile_arc_count(p) > 0;
	unsigned style = g.style;
	if (!style) { /* as gprof guesses */
		if (hist)
			style |= G_FLAT;
		if (arcs)
			style |= G_GRAPH;
		style &= ~g.user;
	}
	if ((style & G_SUM) && g.arcspec) {
		/* gprof leaves the arcs out of gmon.sum too; the gmon
		 * export writes the capture's */
		fprintf(stderr, "profcat gprof: not supported: -s with an arc selection (-k, -q/-Q FROM/TO)\n");
		rc = PC_CLI_EXIT_USAGE;
		goto done;
	}
	if (style & G_SUM) {
		/* gmon.sum in the current directory, before any output */
		pc_cli_output out;
		if ((rc = pc_cli_output_open(&out, "gmon.sum")))
			goto done;
		int st = pc_profile_export_to(p, "gmon", NULL, pc_cli_output_write, &out);
		if (st && !out.err) {
			pc_cli_output_close(&out, 0);
			pc_cli_error("", pc_profile_error(p), NULL);
			rc = PC_CLI_EXIT_INPUT;
			goto done;
		}
		if ((rc = pc_cli_output_close(&out, 1)))
			goto done;
	}
	if ((style & G_FLAT) && !hist) {
		fprintf(stderr, "profcat gprof: %s: the capture has no histogram, so no flat profile (as gprof: gmon.out file is missing histogram)\n",
			pc_cli_shown(names));
		rc = PC_CLI_EXIT_INPUT;
		goto done;
	}
	if ((style & G_GRAPH) && !arcs) {
		fprintf(stderr, "profcat gprof: %s: the capture has no call arcs, so no call graph (as gprof: gmon.out file is missing call-graph data)\n",
			pc_cli_shown(names));
		rc = PC_CLI_EXIT_INPUT;
		goto done;
	}
	if ((style & G_GRAPH) && g.line) {
		fprintf(stderr, "profcat gprof: not supported: the call graph of line symbols (-l with the call graph): give -p with -l\n");
		rc = PC_CLI_EXIT_USAGE;
		goto done;
	}
	if (g.line && *g.specs && (style & G_FLAT)) {
		/* gprof 2.40 matches them against line symbols: -l -pSYM
		 * credits no time at all */
		fprintf(stderr, "profcat gprof: not supported: symbol selections (-p/-P/-q/-Q/-e/-E/-f/-F/-n/-N/-k SYM) with -l\n");
		rc = PC_CLI_EXIT_USAGE;
		goto done;
	}
	if (pc_options_set(ropts, "style", "gprof") ||
	    (g.zero && pc_options_set(ropts, "zero", "1")) ||
	    pc_options_set(ropts, "demangle", g.demangle ? "1" : "0") ||
	    (*g.specs && pc_options_set(ropts, "gprof-symspecs", g.specs))) {
		fprintf(stderr, "profcat: out of memory\n");
		rc = PC_CLI_EXIT_INTERNAL;
		goto done;
	}
	if (!g.brief && (style & (G_FLAT | G_GRAPH)))
		fprintf(stderr, "profcat gprof: note: gprof's explanations of the columns are not printed (as with -b); the tables are gprof's\n");
	int sections = 0;
	if (style & G_FLAT) {
		if (g.line && pc_options_set(ropts, "granularity", "line")) {
			rc = PC_CLI_EXIT_INTERNAL;
			goto done;
		}
		if ((rc = section(p, "flat", ropts)))
			goto done;
		pc_options_set(ropts, "granularity", NULL);
		sections++;
	}
	if (style & G_GRAPH) {
		if (sections)
			fputs("\f\n", stdout);
		if ((rc = section(p, "callgraph", ropts)))
			goto done;
		sections++;
	}
	if (style & G_ANNO) {
		if (sections)
			fputs("\f\n", stdout);
		size_t nw = pc_profile_warning_count(p);
		if ((g.dirs && pc_options_set(ropts, "source-path", g.dirs)) ||
		    (rc = section(p, "source", ropts)))
			goto done;
		for (size_t i = nw; i < pc_profile_warning_count(p); i++)
			fprintf(stderr, "profcat gprof: warning: %s\n",
				pc_cli_shown(pc_profile_warning_at(p, i)));
	}
	if (fflush(stdout)) {
		fprintf(stderr, "profcat: cannot write to standard output\n");
		rc = 3;
	}
done:
	free(g.specs);
	free(g.dirs);
	pc_options_free(lopts);
	pc_options_free(ropts);
	pc_profile_free(p);
	pc_registry_free(reg);
	return rc;
}
