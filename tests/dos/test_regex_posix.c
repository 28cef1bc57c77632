/* profcore's regex engine against the C library's POSIX regexec: every
 * expression of every built-in dialect (and of the test dialects, with
 * libyaml), Hatari's built-in field pattern and the "Field regexp:" lines
 * of the Hatari fixtures, on every line of every map, nm and Hatari
 * fixture and on every word of those lines (what symbol rules test): the
 * same match and the same span for every group.  Built where <regex.h>
 * exists; the dialect syntax is translated to POSIX ERE as map.c did
 * before it had its own engine. */
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_regex.h"
#include "ytree.h"

typedef struct expr {
	pc_re *ours;
	regex_t posix;
	int map[PC_RE_MAX_GROUPS + 1]; /* our group -> POSIX group */
	size_t nposix;
	char *text;
} expr;

static expr exprs[2000];
static size_t nexprs;

/* (?P<n>...) (?<n>...) (?:...) to numbered groups, \d \s \w to brackets:
 * the translation map.c used with regcomp. */
static char *translate(const char *in, int *map, size_t *nposix)
{
	size_t len = strlen(in), o = 0, g = 0, ours = 0;
	char *out = malloc(len * 16 + 1);
	for (size_t i = 0; i < len;) {
		char c = in[i];
		if (c == '\\' && i + 1 < len) {
			const char *rep = NULL;
			switch (in[i + 1]) {
			case 'd': rep = "[0-9]"; break;
			case 'D': rep = "[^0-9]"; break;
			case 's': rep = "[[:space:]]"; break;
			case 'S': rep = "[^[:space:]]"; break;
			case 'w': rep = "[[:alnum:]_]"; break;
			case 'W': rep = "[^[:alnum:]_]"; break;
			}
			if (rep) {
				memcpy(out + o, rep, strlen(rep));
				o += strlen(rep);
			} else {
				out[o++] = c;
				out[o++] = in[i + 1];
			}
			i += 2;
		} else if (c == '[') {
			out[o++] = in[i++];
			if (i < len && in[i] == '^')
				out[o++] = in[i++];
			if (i < len && in[i] == ']')
				out[o++] = in[i++];
			while (i < len && in[i] != ']') {
				if (in[i] == '[' && i + 1 < len && in[i + 1] == ':') {
					while (i + 1 < len && !(in[i] == ':' && in[i + 1] == ']'))
						out[o++] = in[i++];
					out[o++] = in[i++];
				}
				out[o++] = in[i++];
			}
			if (i < len)
				out[o++] = in[i++];
		} else if (c == '(') {
			g++;
			out[o++] = in[i++];
			if (i < len && in[i] == '?') {
				if (in[i + 1] == ':') {
					i += 2;
					continue;
				}
				while (i < len && in[i] != '>')
					i++;
				i++;
			}
			map[++ours] = (int)g;
		} else {
			out[o++] = in[i++];
		}
	}
	out[o] = 0;
	*nposix = g;
	return out;
}

static void add(const char *pat, unsigned flags)
{
	for (size_t i = 0; i < nexprs; i++)
		if (strcmp(exprs[i].text, pat) == 0)
			return;
	expr *e = &exprs[nexprs];
	char err[256];
	if (pc_re_compile(pat, strlen(pat), flags, &e->ours, err, sizeof err)) {
		if (flags) { /* dialects compile; Hatari's may not (then both refuse) */
			fprintf(stderr, "%s: %s\n", pat, err);
			exit(1);
		}
		return;
	}
	memset(e->map, 0, sizeof e->map);
	char *t = flags ? translate(pat, e->map, &e->nposix) : NULL;
	if (!flags) {
		for (size_t g = 0; g <= pc_re_groups(e->ours); g++)
			e->map[g] = (int)g;
		e->nposix = pc_re_groups(e->ours);
	}
	if (regcomp(&e->posix, t ? t : pat, REG_EXTENDED)) {
		fprintf(stderr, "regcomp refuses %s (%s)\n", pat, t ? t : pat);
		exit(1);
	}
	free(t);
	e->text = strdup(pat);
	nexprs++;
}

/* Every expression of a dialect tree (keys whose values are expressions). */
static void collect(const pc_ynode *n, const char *key, int in_rules)
{
	static const char *const rx_keys[] = {"any", "all", "none", "every-line", "line",
					      "next", "begin", "end", "skip", "match", NULL};
	static const char *const rule_keys[] = {"name", "marker", "type", "class",
						"section", "file", NULL};
	if (n->type == PC_YN_SCALAR) {
		int is_rx = 0;
		for (size_t i = 0; key && rx_keys[i]; i++)
			is_rx |= strcmp(key, rx_keys[i]) == 0;
		for (size_t i = 0; key && in_rules && rule_keys[i]; i++)
			is_rx |= strcmp(key, rule_keys[i]) == 0;
		if (is_rx)
			add(n->s, PC_RE_NAMED);
	} else if (n->type == PC_YN_SEQ) {
		for (size_t i = 0; i < n->n; i++)
			collect(n->kids[i], key, in_rules);
	} else {
		for (size_t i = 0; i + 1 < n->n; i += 2)
			collect(n->kids[i + 1], n->kids[i]->s,
				in_rules || strcmp(n->kids[i]->s, "symbols") == 0);
	}
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	for (size_t k; (k = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += k;
		if (n == cap)
			buf = realloc(buf, (cap *= 2) + 1);
	}
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

#if PC_HAVE_YAML
static void user_dialect(const char *path)
{
	size_t len;
	char *text = slurp(path, &len), err[512];
	pc_ynode *tree;
	if (!text || pc_ytree_parse(text, len, path, &tree, err, sizeof err)) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(1);
	}
	collect(tree, NULL, 0);
	pc_ytree_free(tree);
	free(text);
}
#endif

static size_t checks, matches, failures;

static void check_text(const char *s, const char *where)
{
	pc_re_scratch sc = {NULL, 0, NULL};
	for (size_t i = 0; i < nexprs; i++) {
		expr *e = &exprs[i];
		regmatch_t pm[PC_RE_MAX_GROUPS * 2 + 1];
		pc_re_span sp[PC_RE_MAX_GROUPS + 1];
		size_t ng = pc_re_groups(e->ours);
		int a = regexec(&e->posix, s, e->nposix + 1, pm, 0) == 0;
		int b = pc_re_exec(e->ours, &sc, s, strlen(s), sp, ng + 1);
		checks++;
		int bad = a != b;
		for (size_t g = 0; a && b && !bad && g <= ng; g++) {
			regmatch_t *m = &pm[e->map[g]];
			long so = sp[g].so == PC_RE_UNSET ? -1 : (long)sp[g].so;
			long eo = sp[g].eo == PC_RE_UNSET ? -1 : (long)sp[g].eo;
			bad = m->rm_so != so || m->rm_eo != eo;
		}
		matches += a && b;
		if (bad && failures++ < 20)
			fprintf(stderr, "%s: /%s/ on \"%s\": POSIX and profcore differ\n", where,
				e->text, s);
	}
	pc_re_scratch_free(&sc);
}

static void check_file(const char *path)
{
	size_t len;
	char *text = slurp(path, &len);
	if (!text) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(1);
	}
	for (char *line = text, *next; line < text + len; line = next) {
		char *nl = memchr(line, '\n', (size_t)(text + len - line));
		next = nl ? nl + 1 : text + len;
		if (nl)
			*nl = 0;
		if (strlen(line) != (size_t)((nl ? nl : text + len) - line))
			continue; /* a NUL byte: binary */
		check_text(line, path);
		size_t n = strlen(line);
		if (n && line[n - 1] == '\r') {
			line[n - 1] = 0;
			check_text(line, path);
		}
		/* the words of the line, as symbol rules see fields */
		char *copy = strdup(line), *save = NULL;
		for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
			check_text(w, path);
		free(copy);
		if (strncmp(line, "Field regexp:", 13) == 0) {
			const char *q = line + 13;
			while (*q == ' ' || *q == '\t')
				q++;
			add(q, 0);
		}
	}
	free(text);
}

static void check_dir(const char *root, const char *dir, const char *suffix)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", root, dir);
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "%s: cannot open\n", path);
		exit(1);
	}
	char *names[256];
	size_t n = 0;
	for (struct dirent *de; (de = readdir(d)) && n < 256;) {
		size_t l = strlen(de->d_name), k = strlen(suffix);
		if (de->d_name[0] != '.' && l >= k && strcmp(de->d_name + l - k, suffix) == 0)
			names[n++] = strdup(de->d_name);
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s/%s", root, dir, names[i]);
		check_file(path);
		free(names[i]);
	}
}

int main(void)
{
	const char *root = getenv("PC_SOURCE_ROOT");
	if (!root)
		return 1;
	for (const pc_ydoc *d = pc_map_builtins; d->name; d++)
		collect(d->root, NULL, 0);
#if PC_HAVE_YAML
	char path[4096];
	snprintf(path, sizeof path, "%s/tests/dos/fixtures/dialects/acme.yaml", root);
	user_dialect(path);
	snprintf(path, sizeof path, "%s/tests/callgraph/fixtures/mpwlist.yaml", root);
	user_dialect(path);
#endif
	add("^\\$?([0-9A-Fa-f]+) .*% \\(([^)]*)\\)$", 0); /* hatari.c's built-in form */
	/* Hatari files first: their "Field regexp:" lines join the set */
	check_dir(root, "tests/atari/synth", ".hatari");
	check_dir(root, "tests/dos/fixtures/dosmap", "");
	check_dir(root, "tests/dos/fixtures/gnumap", ".txt");
	check_dir(root, "tests/dos/fixtures/gnumap", ".map");
	check_dir(root, "tests/dos/fixtures/dialects", ".map");
	check_dir(root, "tests/dos/fixtures/prf", ".MAP");
	check_dir(root, "tests/callgraph/fixtures", ".map");
	check_dir(root, "tests/atari/synth", ".hatari");
	printf("%zu expressions, %zu comparisons, %zu matches, %zu differences\n", nexprs,
	       checks, matches, failures);
	for (size_t i = 0; i < nexprs; i++) {
		pc_re_free(exprs[i].ours);
		regfree(&exprs[i].posix);
		free(exprs[i].text);
	}
	/* not vacuous: the expressions were many (68 without the test
	 * dialects, 83 with) and matched often */
	if (nexprs < 60 || checks < 1000000 || matches < 40000)
		return 1;
	return failures ? 1 : 0;
}
