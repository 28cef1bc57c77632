/*
 * ticks.c - an out-of-tree libprofcore loader plugin for "ticks", a small
 * text format invented for this example:
 *
 *     TICKS 1                  magic and version: the first line
 *     # comment                ignored, as are blank lines
 *     rate 100                 sampling rate in Hz
 *     sym 0x1000 0x40 main     a code symbol: address, size, name
 *     pc 0x1004 7              7 samples at 0x1004 (count defaults to 1)
 *
 * Numbers are decimal, 0x hex or 0 octal.  Build it against an installed
 * libprofcore and let profcat find it:
 *
 *     cc -shared -fPIC -o ticks.so ticks.c $(pkg-config --cflags --libs profcore)
 *     PROFCORE_PLUGIN_PATH=$PWD profcat sample.ticks
 *
 * The plugin contract (profcore.h, "Loaders and the registry"): export
 * pc_plugin_loaders(), return a NULL-terminated array of pc_loader with
 * abi_version = PC_LOADER_ABI_VERSION, and report errors through
 * pc_stream_fail() with the byte offset of the offending field.
 */
#include <profcore_plugin.h>

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "TICKS 1"
#define MAX_NAME 255

/* A cursor over one line, tracking the byte offset in the file. */
struct cursor {
	const char *p, *end;
	uint64_t base; /* offset of the line's first byte */
	const char *line;
};

static uint64_t at(const struct cursor *c) { return c->base + (uint64_t)(c->p - c->line); }

static void skip_blanks(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

/* Next blank-separated word; returns its length (0 at end of line). */
static size_t word(struct cursor *c, const char **w)
{
	skip_blanks(c);
	*w = c->p;
	while (c->p < c->end && *c->p != ' ' && *c->p != '\t')
		c->p++;
	return (size_t)(c->p - *w);
}

static int number(pc_stream *s, struct cursor *c, const char *what,
		  uint64_t *out)
{
	const char *w;
	size_t n = word(c, &w);
	char buf[32], *end;
	uint64_t off = c->base + (uint64_t)(w - c->line);

	if (n == 0)
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
				      "expected %s, found end of line", what);
	if (n >= sizeof buf || !isdigit((unsigned char)w[0]))
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
				      "expected %s, found '%.*s'", what,
				      (int)(n > 20 ? 20 : n), w);
	memcpy(buf, w, n);
	buf[n] = '\0';
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 0);
	if (*end != '\0' || errno == ERANGE)
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)off,
				      "expected %s, found '%s'", what, buf);
	*out = v;
	return PC_OK;
}

static int end_of_line(pc_stream *s, struct cursor *c)
{
	skip_blanks(c);
	if (c->p != c->end)
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)at(c),
				      "expected end of line, found '%.*s'",
				      (int)(c->end - c->p > 20 ? 20 : c->end - c->p),
				      c->p);
	return PC_OK;
}

static int ticks_probe(const unsigned char *head, size_t len,
		       const char *filename)
{
	size_t m = strlen(MAGIC);
	(void)filename;
	if (len < m + 1 || memcmp(head, MAGIC, m) != 0)
		return 0;
	if (head[m] != '\n' && head[m] != '\r')
		return 0;
	return (int)(8 * (m + 1)); /* bits verified */
}

static int ticks_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	const char *line;
	size_t len;
	uint64_t start;
	int rc;
	(void)opts;

	rc = pc_stream_getline(&line, &len, &start, s);
	if (rc < 0)
		return rc;
	if (!line || len != strlen(MAGIC) || memcmp(line, MAGIC, len) != 0)
		return pc_stream_fail(s, PC_EFORMAT, 0,
				      "expected '" MAGIC "' on the first line");

	while ((rc = pc_stream_getline(&line, &len, &start, s)) == PC_OK && line) {
		struct cursor c = { line, line + len, start, line };
		const char *kw;
		size_t n = word(&c, &kw);
		uint64_t a, b;

		if (n == 0 || kw[0] == '#')
			continue;
		if (n == 4 && memcmp(kw, "rate", 4) == 0) {
			if ((rc = number(s, &c, "a rate in Hz", &a)) < 0 ||
			    (rc = end_of_line(s, &c)) < 0)
				return rc;
			pc_profile_set_rate(p, (double)a);
		} else if (n == 3 && memcmp(kw, "sym", 3) == 0) {
			const char *name;
			char buf[MAX_NAME + 1];
			if ((rc = number(s, &c, "a symbol address", &a)) < 0 ||
			    (rc = number(s, &c, "a symbol size", &b)) < 0)
				return rc;
			size_t nl = word(&c, &name);
			if (nl == 0 || nl > MAX_NAME)
				return pc_stream_fail(s, PC_EFORMAT, (int64_t)at(&c),
						      "expected a symbol name of 1 to %d bytes",
						      MAX_NAME);
			if ((rc = end_of_line(s, &c)) < 0)
				return rc;
			memcpy(buf, name, nl);
			buf[nl] = '\0';
			pc_symbol sym = { 0 };
			sym.name = buf; /* copied by the profile */
			sym.segment = PC_NOSEG;
			sym.address = a;
			sym.size = b;
			sym.kind = PC_SYM_TEXT;
			sym.binding = PC_BIND_GLOBAL;
			sym.flags = PC_SYMF_FUNC;
			if ((rc = pc_profile_add_symbol(p, &sym)) < 0)
				return rc;
		} else if (n == 2 && memcmp(kw, "pc", 2) == 0) {
			if ((rc = number(s, &c, "a sample address", &a)) < 0)
				return rc;
			skip_blanks(&c);
			b = 1;
			if (c.p < c.end &&
			    (rc = number(s, &c, "a sample count", &b)) < 0)
				return rc;
			if ((rc = end_of_line(s, &c)) < 0)
				return rc;
			if ((rc = pc_profile_add_sample(p, PC_NOSEG, a, b)) < 0)
				return rc;
		} else {
			return pc_stream_fail(s, PC_EFORMAT, (int64_t)start,
					      "expected 'rate', 'sym' or 'pc', found '%.*s'",
					      (int)(n > 20 ? 20 : n), kw);
		}
	}
	return rc < 0 ? rc : PC_OK;
}

static const char *const ticks_extensions[] = { ".ticks", NULL };

static const pc_loader ticks_loader = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "ticks",
	.description = "ticks text samples (example plugin)",
	.roles = PC_ROLE_SYMBOLS | PC_ROLE_SAMPLES,
	.extensions = ticks_extensions,
	.probe = ticks_probe,
	.load = ticks_load,
	.order = 0,
};

static const pc_loader *const ticks_loaders[] = { &ticks_loader, NULL };

/* The entry point the registry looks up with dlsym(). */
PC_PLUGIN_EXPORT const pc_loader *const *pc_plugin_loaders(unsigned *abi_version)
{
	*abi_version = PC_LOADER_ABI_VERSION;
	return ticks_loaders;
}
