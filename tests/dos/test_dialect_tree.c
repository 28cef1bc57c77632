/* The compiled-in built-in dialects (dialects/embed.py) are the trees that
 * libyaml reads from dialects/NAME.yaml: same node types, texts, lines and
 * columns, node for node.  Needs libyaml (exit 77, skipped, without). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ytree.h"

#if PC_HAVE_YAML
static int failures;

static void diff(const char *name, const pc_ynode *a, const pc_ynode *b, const char *what)
{
	fprintf(stderr, "%s: node at %lu:%lu (libyaml) / %lu:%lu (built in): %s differs\n",
		name, a->line, a->col, b->line, b->col, what);
	failures++;
}

static size_t compare(const char *name, const pc_ynode *a, const pc_ynode *b)
{
	size_t nodes = 1;
	if (a->type != b->type)
		diff(name, a, b, "type");
	else if (a->line != b->line || a->col != b->col)
		diff(name, a, b, "position");
	else if (a->type == PC_YN_SCALAR &&
		 (a->slen != b->slen || memcmp(a->s, b->s, a->slen) != 0 || b->s[b->slen]))
		diff(name, a, b, "text");
	else if (a->n != b->n)
		diff(name, a, b, "number of children");
	else
		for (size_t i = 0; i < a->n; i++)
			nodes += compare(name, a->kids[i], b->kids[i]);
	return nodes;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(PC_Y_MAX_BYTES);
	*len = buf ? fread(buf, 1, PC_Y_MAX_BYTES, f) : 0;
	fclose(f);
	return buf;
}
#endif

int main(void)
{
#if !PC_HAVE_YAML
	printf("SKIP: comparing with libyaml needs libyaml (built with -Dyaml=disabled)\n");
	return 77;
#else
	const char *root = getenv("PC_SOURCE_ROOT");
	if (!root)
		return 1;
	size_t docs = 0;
	static const struct {
		const pc_ydoc *list;
		const char *dir;
	} sets[] = {{pc_map_builtins, "dialects"}, {pc_trace_builtins, "dialects/traces"}};
	for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++)
		for (const pc_ydoc *d = sets[k].list; d->name; d++) {
			char path[4096], err[512];
			size_t len;
			snprintf(path, sizeof path, "%s/%s/%s.yaml", root, sets[k].dir, d->name);
			char *text = slurp(path, &len);
			pc_ynode *tree;
			if (!text || pc_ytree_parse(text, len, path, &tree, err, sizeof err)) {
				fprintf(stderr, "%s: %s\n", path, text ? err : "cannot read");
				return 1;
			}
			size_t nodes = compare(d->name, tree, d->root);
			printf("%s: %zu nodes equal\n", d->name, nodes);
			pc_ytree_free(tree);
			free(text);
			docs++;
		}
	/* 8 map dialects, 2 trace dialects */
	if (docs != 10) {
		fprintf(stderr, "expected the 10 built-in dialects, found %zu\n", docs);
		return 1;
	}
	return failures ? 1 : 0;
#endif
}
