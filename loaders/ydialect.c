/*
 * ydialect.c - reading a dialect's YAML tree (ytree.h): the checks and
 * messages every dialect engine shares (map.c's linker maps, trace.c's
 * instruction traces).
 */
#include "ydialect.h"
#include "pc_config.h"

#include <stdlib.h>
#include <string.h>

int pc_yd_err(pc_ydctx *c, const pc_ynode *n, const char *key, const char *fmt, ...)
{
	int k = snprintf(c->err, c->errlen, "dialect %s:%lu:%lu: key '%s': ",
			 c->file, n ? n->line : 1ul, n ? n->col : 1ul, key);
	if (k < 0)
		k = 0;
	if ((size_t)k < c->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return PC_EFORMAT;
}

/* Builds a key path for messages (truncation is harmless). */
void pc_yd_path(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
}

const pc_ynode *pc_yd_get(const pc_ynode *m, const char *key)
{
	for (size_t i = 0; i + 1 < m->n; i += 2)
		if (m->kids[i]->type == PC_YN_SCALAR && strcmp(m->kids[i]->s, key) == 0)
			return m->kids[i + 1];
	return NULL;
}

/* m must be a mapping whose keys are all in allowed[] (NULL-terminated). */
int pc_yd_check_map(pc_ydctx *c, const pc_ynode *m, const char *path,
		      const char *const *allowed)
{
	if (m->type != PC_YN_MAP)
		return pc_yd_err(c, m, path, "expected a mapping");
	for (size_t i = 0; i + 1 < m->n; i += 2) {
		const pc_ynode *k = m->kids[i];
		if (k->type != PC_YN_SCALAR)
			return pc_yd_err(c, k, path, "keys must be plain strings");
		int ok = 0;
		for (size_t a = 0; allowed[a]; a++)
			if (strcmp(k->s, allowed[a]) == 0)
				ok = 1;
		char kp[600];
		pc_yd_path(kp, sizeof kp, "%s%s%s", path, *path ? "." : "", k->s);
		if (!ok)
			return pc_yd_err(c, k, kp, "unknown key");
		for (size_t j = 0; j < i; j += 2)
			if (strcmp(m->kids[j]->s, k->s) == 0)
				return pc_yd_err(c, k, kp, "key given twice");
	}
	return PC_OK;
}

int pc_yd_scalar(pc_ydctx *c, const pc_ynode *n, const char *path, const char **out)
{
	if (n->type != PC_YN_SCALAR)
		return pc_yd_err(c, n, path, "expected a single value");
	*out = n->s;
	return PC_OK;
}

int pc_yd_list(pc_ydctx *c, const pc_ynode *n, const char *path, size_t size,
	       pc_yd_item_fn each, void **out, size_t *count)
{
	size_t k = n->type == PC_YN_SEQ ? n->n : 1;
	unsigned char *v = calloc(k ? k : 1, size);
	*out = v;
	*count = 0;
	if (!v)
		return PC_ENOMEM;
	for (size_t i = 0; i < k; i++) {
		char kp[256];
		pc_yd_path(kp, sizeof kp, "%s[%zu]", path, i);
		int r = n->type == PC_YN_SEQ ? each(c, n->kids[i], kp, v + i * size)
					     : each(c, n, path, v);
		if (r)
			return r;
		(*count)++;
	}
	return PC_OK;
}

int pc_yd_regex(pc_ydctx *c, const pc_ynode *n, const char *path, int groups,
		pc_yd_group_fn field, int *group, pc_re **re, size_t *nsub)
{
	const char *s = "";
	int r = pc_yd_scalar(c, n, path, &s);
	if (r)
		return r;
	char why[200];
	r = pc_re_compile(s, strlen(s), PC_RE_NAMED, re, why, sizeof why);
	if (r)
		return r == PC_ENOMEM ? r
				      : pc_yd_err(c, n, path, "invalid regular expression: %s", why);
	*nsub = pc_re_groups(*re) + 1;
	const char *bad = NULL;
	for (size_t g = 1; g < *nsub && !bad; g++) {
		const char *name = pc_re_group_name(*re, g);
		int f = -1;
		if (!name || (bad = field(name, groups, &f)))
			continue;
		if (group[f])
			bad = "invalid regular expression: group name used twice";
		else
			group[f] = (int)g;
	}
	c->insts += pc_re_size(*re);
	if (!bad && c->insts > PC_YD_MAX_INSTS)
		bad = "the dialect's expressions are too large together (more than 20000 instructions)";
	if (bad) {
		pc_re_free(*re);
		*re = NULL;
		return pc_yd_err(c, n, path, "%s", bad);
	}
	return PC_OK;
}

int pc_yd_enum(pc_ydctx *c, const pc_ynode *n, const char *path,
		 const char *const *names, int *out)
{
	const char *s = "";
	int r = pc_yd_scalar(c, n, path, &s);
	if (r)
		return r;
	for (int i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return PC_OK;
		}
	char list[256] = "";
	for (int i = 0; names[i]; i++) {
		strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
		strncat(list, names[i], sizeof list - strlen(list) - 1);
	}
	return pc_yd_err(c, n, path, "'%s' is not one of: %s", s, list);
}

int pc_yd_uint(pc_ydctx *c, const pc_ynode *n, const char *path, unsigned long min,
		 unsigned long max, unsigned long *out)
{
	const char *s = "";
	int r = pc_yd_scalar(c, n, path, &s);
	if (r)
		return r;
	char *end;
	unsigned long v = strtoul(s, &end, 0);
	if (!*s || *end || s[0] == '-' || v < min || v > max)
		return pc_yd_err(c, n, path, "expected a number from %lu to %lu, found '%s'",
			    min, max, s);
	*out = v;
	return PC_OK;
}

int pc_yd_bool(pc_ydctx *c, const pc_ynode *n, const char *path, int *out)
{
	static const char *const names[] = {"false", "true", "no", "yes", NULL};
	int v;
	int r = pc_yd_enum(c, n, path, names, &v);
	if (!r)
		*out = v & 1;
	return r;
}

const char *pc_yd_builtin_names(const pc_ydoc *builtins, char *buf, size_t n)
{
	buf[0] = '\0';
	for (const pc_ydoc *b = builtins; b->name; b++) {
		strncat(buf, b == builtins ? "" : ", ", n - strlen(buf) - 1);
		strncat(buf, b->name, n - strlen(buf) - 1);
	}
	return buf;
}

static int yd_builtin(const pc_ydkind *k, const char *name, void **out, char *err,
		      size_t errlen)
{
	for (const pc_ydoc *b = k->builtins; b->name; b++)
		if (strcmp(b->name, name) == 0) {
			char file[128];
			snprintf(file, sizeof file, "%s.yaml", b->name);
			return k->compile(b->root, file, out, err, errlen);
		}
	return PC_ENOTFOUND;
}

static int yd_file(const pc_ydkind *k, const char *path, void **out, char *err,
		   size_t errlen)
{
	*out = NULL;
#if !PC_HAVE_YAML
	pc_stream *s;
	int st = pc_stream_open_file(&s, path);
	if (st) {
		snprintf(err, errlen, "dialect %s: cannot open", path);
		return st == PC_ENOTFOUND ? PC_ENOTFOUND : PC_EIO;
	}
	pc_stream_free(s);
	snprintf(err, errlen,
		 "dialect %s: this profcore was built without YAML support; only the built-in %s can be used",
		 path, k->noun);
	return PC_EUNSUPPORTED;
#else
	pc_ynode *root = NULL;
	int st = pc_ytree_load(path, "dialect", &root, err, errlen);
	if (!st)
		st = k->compile(root, path, out, err, errlen);
	pc_ytree_free(root);
	return st;
#endif
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

int pc_yd_choose(pc_profile *p, pc_stream *s, const pc_ydkind *k, const char *want,
		 void *arg, void **out)
{
	char err[512];
	int r;
	*out = NULL;
	if (want && *want) {
		if (strchr(want, '/') || ends_with(want, ".yaml") || ends_with(want, ".yml")) {
			r = yd_file(k, want, out, err, sizeof err);
		} else {
			r = yd_builtin(k, want, out, err, sizeof err);
			if (r == PC_ENOTFOUND) {
				char path[1024];
				snprintf(path, sizeof path, "%s/%s/%s.yaml", PC_DATADIR, k->subdir, want);
				r = yd_file(k, path, out, err, sizeof err);
				if (r == PC_ENOTFOUND || (r == PC_EIO && !*out)) {
					char list[512];
					return pc_profile_fail(p, PC_ENOTFOUND,
							       "no %s dialect '%s' (built-in: %s%s)", k->what,
							       want, pc_yd_builtin_names(k->builtins, list, sizeof list),
							       PC_HAVE_YAML ? "; or give FILE.yaml" : "");
				}
			}
		}
		if (r)
			return pc_profile_fail(p, r == PC_ENOMEM || r == PC_EUNSUPPORTED ? r : PC_EUSAGE,
					       "%s", err[0] ? err : "cannot read dialect");
		return PC_OK;
	}
	const unsigned char *head;
	size_t len;
	if ((r = pc_stream_peek(&head, &len, s)) < 0)
		return r;
	uint64_t size;
	int known;
	pc_stream_size(&size, &known, s);
	const char *name = NULL;
	r = k->detect(p, s, head, len, known && size == len, &name, arg);
	if (r < 0)
		return r;
	if (!r)
		return pc_stream_fail(s, PC_EUNKNOWN, 0,
				      "no built-in %s dialect recognises this file; name one with the option %s=NAME or %s=FILE.yaml",
				      k->what, k->option, k->option);
	if ((r = yd_builtin(k, name, out, err, sizeof err)))
		return pc_profile_fail(p, r, "%s", err);
	return PC_OK;
}
