/* hints.c - what profcat says when a user types another tool's habits or
 * misspells a name (issue #34): gprof's options (profcat gprof takes
 * gprof's command line), pprof's single-dash options, and the nearest of
 * the names profcat knows (options, reports, exports, styles, formats,
 * the choices of a value). */
#include "hints.h"

#include <stdio.h>
#include <string.h>

/* Edit distance of a and b (case-sensitive; insertions, deletions,
 * substitutions and swaps of neighbours each count 1), capped: names are
 * short (a longer word is no near miss). */
static size_t distance(const char *a, const char *b)
{
	enum { MAXL = 47 };
	size_t la = strlen(a), lb = strlen(b);
	if (la > MAXL || lb > MAXL)
		return (size_t)-1;
	size_t d[MAXL + 1][MAXL + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

const char *pc_cli_nearest(const char *word, const char *const *cands, size_t n)
{
	size_t lw = strlen(word), best = (size_t)-1, nbest = 0, nprefix = 0;
	const char *hit = NULL, *prefix = NULL;
	if (!lw)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (!cands[i])
			continue;
		if (!strncmp(cands[i], word, lw) && lw >= 3) {
			prefix = cands[i];
			nprefix++;
		}
		size_t d = distance(word, cands[i]);
		if (d < best) {
			best = d;
			hit = cands[i];
			nbest = 1;
		} else if (d == best && strcmp(cands[i], hit)) {
			nbest++;
		}
	}
	/* one typing slip (a letter added, dropped, changed, or two
	 * swapped), two in a name of 8 letters or more */
	size_t allowed = lw <= 7 ? 1 : 2;
	if (hit && best > 0 && best <= allowed && nbest == 1)
		return hit;
	return nprefix == 1 ? prefix : NULL;
}

/* A list written as "a, b, c" or "a, b or c" (a message's choices), cut
 * into cands (pointers into buf); the count, 0 when some item is not a
 * plain name ("a number of rows (1 or more)" is no list). */
static size_t split_list(char *buf, const char **cands, size_t cap)
{
	size_t n = 0;
	char *p = buf;
	while (*p && n < cap) {
		char *comma = strstr(p, ", "), *or = strstr(p, " or ");
		char *e = comma && (!or || comma < or) ? comma : or;
		size_t skip = e == comma ? 2 : 4;
		if (e)
			*e = '\0';
		if (!*p || p[strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_-")])
			return 0;
		cands[n++] = p;
		if (!e)
			break;
		p = e + skip;
		if (!strncmp(p, "or ", 3)) /* "a, b, or c" */
			p += 3;
	}
	return n >= 2 ? n : 0;
}

const char *pc_cli_choice_hint(const char *message)
{
	static char out[160];
	char buf[512], bad[128];
	const char *cands[32];
	const char *q, *list = NULL, *list_end = NULL;
	if (!message)
		return "";
	/* "bad value 'X' for option 'K' of C; expected one of: a, b, c" */
	if (!strncmp(message, "bad value '", 11) &&
	    (list = strstr(message, "; expected one of: "))) {
		q = message + 11;
		list += strlen("; expected one of: ");
		list_end = list + strlen(list);
	} else if ((q = strstr(message, " must be ")) && strstr(q, ", not '")) {
		/* "K must be a, b or c, not 'X'" */
		list = q + strlen(" must be ");
		if (!strncmp(list, "one of ", 7))
			list += 7;
		list_end = strstr(list, ", not '");
		q = list_end + strlen(", not '");
	} else {
		return "";
	}
	size_t bl = strcspn(q, "'");
	if (!q[bl] || bl >= sizeof bad || (size_t)(list_end - list) >= sizeof buf)
		return "";
	memcpy(bad, q, bl);
	bad[bl] = '\0';
	memcpy(buf, list, (size_t)(list_end - list));
	buf[list_end - list] = '\0';
	size_t n = split_list(buf, cands, sizeof cands / sizeof cands[0]);
	const char *hit = pc_cli_nearest(bad, cands, n);
	if (!hit)
		return "";
	snprintf(out, sizeof out, " (did you mean '%s'?)", hit);
	return out;
}

/* ---- other tools' options ---------------------------------------------- */

/* Other tools' options that profcat does not take as its own, and what
 * does the same here: pprof's, which it spells with one dash (-top,
 * -focus=RE), and GNU gprof's (2.40: -X or --name; profcat gprof takes
 * gprof's whole command line). */
enum tool { PPROF, GPROF };
static const struct {
	enum tool tool;
	char letter;      /* gprof's -X, 0 if none */
	const char *name; /* pprof's -name, gprof's --name; NULL if none */
	const char *ours; /* NULL: no equivalent here */
	const char *note; /* said after it (pprof's), or NULL */
	int takes;        /* pprof's option takes a value */
} foreign[] = {
	{PPROF, 0, "top", "--top N", "the flat report is profcat's default; --top keeps its first N rows", 0},
	{PPROF, 0, "text", "-r flat", "the default", 0},
	{PPROF, 0, "nodecount", "--top N", NULL, 1},
	{PPROF, 0, "focus", "--focus REGEX", NULL, 1},
	{PPROF, 0, "ignore", "--ignore REGEX", NULL, 1},
	{PPROF, 0, "hide", "--hide REGEX", NULL, 1},
	{PPROF, 0, "list", "-r source REGEX", NULL, 1},
	{PPROF, 0, "disasm", "-r disasm REGEX", NULL, 1},
	{PPROF, 0, "weblist", "-r html", NULL, 1},
	{PPROF, 0, "web", "-r html", NULL, 0},
	{PPROF, 0, "flat", "--sort self", "the default order", 0},
	{PPROF, 0, "cum", "--sort cum", NULL, 0},
	{PPROF, 0, "tree", "-r callgraph", NULL, 0},
	{PPROF, 0, "peek", "-r callgraph --focus REGEX", NULL, 1},
	{PPROF, 0, "traces", "-e folded", "one line per call stack", 0},
	{PPROF, 0, "svg", "-e svg", NULL, 0},
	{PPROF, 0, "proto", "-e pprof", NULL, 0},
	{PPROF, 0, "callgrind", "-e callgrind", NULL, 0},
	{PPROF, 0, "output", "-o FILE", NULL, 1},
	{PPROF, 0, "lines", "--granularity line", NULL, 0},
	{PPROF, 0, "functions", "--granularity function", NULL, 0},
	{PPROF, 0, "addresses", "--granularity address", NULL, 0},
	{PPROF, 0, "files", "--granularity file", NULL, 0},
	{GPROF, 'p', "flat-profile", "the flat profile is profcat's default report (--style gprof: gprof's layout)", NULL, 0},
	{GPROF, 'P', "no-flat-profile", "-r callgraph prints the call graph alone", NULL, 0},
	{GPROF, 'q', "graph", "-r callgraph prints the call graph", NULL, 0},
	{GPROF, 'Q', "no-graph", "the flat profile is profcat's default report", NULL, 0},
	{GPROF, 'l', "line", "--granularity line gives a row per source line", NULL, 0},
	{GPROF, 'A', "annotated-source", "-r source annotates the source", NULL, 0},
	{GPROF, 'J', "no-annotated-source", NULL, NULL, 0},
	{GPROF, 'C', "exec-counts", NULL, NULL, 0},
	{GPROF, 'Z', "no-exec-counts", NULL, NULL, 0},
	{GPROF, 's', "sum", "profcat merge -e gmon -o gmon.sum adds captures up", NULL, 0},
	{GPROF, 'c', "static-call-graph", NULL, NULL, 0},
	{GPROF, 0, "brief", "profcat's reports print no blurbs", NULL, 0},
	{GPROF, 0, "display-unused-functions", "--zero lists them", NULL, 0},
	{GPROF, 'I', "directory-path", "--source-path DIRS names them", NULL, 0},
	{GPROF, 'y', "separate-files", NULL, NULL, 0},
	{GPROF, 'x', "all-lines", NULL, NULL, 0},
	{GPROF, 'L', "print-path", NULL, NULL, 0},
	{GPROF, 'i', "file-info", NULL, NULL, 0},
	{GPROF, 'k', NULL, NULL, NULL, 0},
	{GPROF, 'm', "min-count", NULL, NULL, 0},
	{GPROF, 'N', "no-time", NULL, NULL, 0},
	{GPROF, 0, "time", NULL, NULL, 0},
	{GPROF, 'w', "width", NULL, NULL, 0},
	{GPROF, 'T', "traditional", NULL, NULL, 0},
	{GPROF, 't', "table-length", NULL, NULL, 0},
	{GPROF, 'E', NULL, "--ignore REGEX drops a function's samples", NULL, 0},
	{GPROF, 'a', "no-static", NULL, NULL, 0},
	{GPROF, 'D', "ignore-non-functions", NULL, NULL, 0},
	{GPROF, 'r', "function-ordering", NULL, NULL, 0},
	{GPROF, 'R', "file-ordering", NULL, NULL, 0},
	{GPROF, 'O', "file-format", NULL, NULL, 0},
	{GPROF, 'S', "external-symbol-table", NULL, NULL, 0},
	{GPROF, 0, "inline-file-names", NULL, NULL, 0},
};
#define NFOREIGN (sizeof foreign / sizeof foreign[0])

/* The entry of tool whose name is the first l bytes of word (letter 0),
 * or whose letter is letter; NFOREIGN if none. */
static size_t find_foreign(enum tool tool, const char *word, size_t l, char letter)
{
	for (size_t i = 0; i < NFOREIGN; i++) {
		if (foreign[i].tool != tool)
			continue;
		if (letter ? foreign[i].letter == letter
			   : foreign[i].name && strlen(foreign[i].name) == l &&
				     !strncmp(foreign[i].name, word, l))
			return i;
	}
	return NFOREIGN;
}

static int say_gprof(size_t i, const char *shown, char *msg, size_t cap)
{
	const char *o = foreign[i].ours;
	char gp[64];
	if (foreign[i].letter)
		snprintf(gp, sizeof gp, "-%c", foreign[i].letter);
	else
		snprintf(gp, sizeof gp, "--%s", foreign[i].name);
	snprintf(msg, cap, "unknown option '%s' (gprof's): %s%s'profcat gprof %s ...' takes gprof's command line",
		 shown, o ? o : "", o ? "; " : "", gp);
	return 1;
}

static int say_pprof(size_t i, const char *shown, const char *val, char *msg, size_t cap)
{
	char ours[128];
	/* the value in place of the last word, a metavariable */
	const char *sp = strrchr(foreign[i].ours, ' ');
	if (val && *val && sp && sp[1] >= 'A' && sp[1] <= 'Z')
		snprintf(ours, sizeof ours, "%.*s %s", (int)(sp - foreign[i].ours),
			 foreign[i].ours, val);
	else
		snprintf(ours, sizeof ours, "%s", foreign[i].ours);
	snprintf(msg, cap, "unknown option '%s': did you mean '%s'? (pprof's spelling; profcat's long options take two dashes%s%s)",
		 shown, ours, foreign[i].note ? "; " : "", foreign[i].note ? foreign[i].note : "");
	return 1;
}

int pc_cli_foreign_option(const char *arg, const char *next, char *msg, size_t cap)
{
	char shown[96];
	snprintf(shown, sizeof shown, "%.*s", (int)strcspn(arg, "="), arg);
	if (arg[0] != '-' || !arg[1])
		return 0;
	size_t i;
	if (arg[1] == '-') { /* --name[=VALUE]: gprof's long options */
		const char *name = arg + 2;
		i = find_foreign(GPROF, name, strcspn(name, "="), 0);
		return i < NFOREIGN && say_gprof(i, shown, msg, cap);
	}
	const char *word = arg + 1;
	size_t l = strcspn(word, "=");
	if (l >= 2) { /* -word[=VALUE]: pprof's */
		if ((i = find_foreign(PPROF, word, l, 0)) == NFOREIGN)
			return 0;
		const char *val = word[l] == '=' ? word + l + 1
				  : foreign[i].takes && next && next[0] != '-' ? next
										: NULL;
		return say_pprof(i, shown, val, msg, cap);
	}
	i = find_foreign(GPROF, NULL, 0, word[0]);
	return i < NFOREIGN && say_gprof(i, shown, msg, cap);
}

const char *pc_cli_gprof_value_hint(char letter)
{
	if (letter == 'f')
		return "; gprof's -f SYM is -r callgraph --focus SYM here, or "
		       "'profcat gprof -f SYM ...'";
	if (letter == 'F')
		return "; gprof's -F SYM is -r callgraph --focus SYM here, or "
		       "'profcat gprof -F SYM ...'";
	return "";
}
