/*
 * ytree.c - YAML documents parsed with libyaml into the tree of ytree.h,
 * with limits: size, nesting depth, node count, scalar length; aliases
 * (billion laughs) and second documents are refused.
 */
#include "ytree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

void pc_ytree_free(pc_ynode *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++)
		pc_ytree_free((pc_ynode *)n->kids[i]);
	free((void *)n->kids);
	free((char *)n->s);
	free(n);
}

typedef struct yfile {
	const char *what, *name; /* "dialect", "layout"; the file */
} yfile;

static int yerr(char *err, size_t errlen, yfile file, unsigned long line,
		unsigned long col, const char *fmt, ...) PC_PRINTF(6, 7);
static int yerr(char *err, size_t errlen, yfile file, unsigned long line,
		unsigned long col, const char *fmt, ...)
{
	int k = snprintf(err, errlen, "%s %s:%lu:%lu: ", file.what, file.name,
			 line, col);
	if (k < 0)
		k = 0;
	if ((size_t)k < errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
		va_end(ap);
	}
	return PC_EFORMAT;
}

static int parse_as(const char *text, size_t len, yfile file, pc_ynode **root,
		    char *err, size_t errlen)
{
	yaml_parser_t ps;
	yaml_event_t ev;
	pc_ynode *stack[PC_Y_MAX_DEPTH + 1];
	size_t depth = 0, nodes = 0;
	int docs = 0, rc = PC_OK, done = 0;

	*root = NULL;
	if (len > PC_Y_MAX_BYTES)
		return yerr(err, errlen, file, 1, 1, "file larger than %zu bytes (the limit of every YAML input)",
			    PC_Y_MAX_BYTES);
	if (!yaml_parser_initialize(&ps))
		return PC_ENOMEM;
	yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
	while (!done) {
		if (!yaml_parser_parse(&ps, &ev)) {
			rc = yerr(err, errlen, file, (unsigned long)ps.problem_mark.line + 1,
				  (unsigned long)ps.problem_mark.column + 1, "%s%s%s",
				  ps.problem ? ps.problem : "invalid YAML",
				  ps.context ? " " : "", ps.context ? ps.context : "");
			break;
		}
		unsigned long line = (unsigned long)ev.start_mark.line + 1;
		unsigned long col = (unsigned long)ev.start_mark.column + 1;
		pc_ynode *nn = NULL;
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				rc = yerr(err, errlen, file, line, col,
					  "only one YAML document is allowed");
			break;
		case YAML_ALIAS_EVENT:
			rc = yerr(err, errlen, file, line, col,
				  "aliases are not allowed in a %s", file.what);
			break;
		case YAML_SCALAR_EVENT:
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++nodes > PC_Y_MAX_NODES) {
				rc = yerr(err, errlen, file, line, col,
					  "more than %d nodes", PC_Y_MAX_NODES);
				break;
			}
			if (ev.type == YAML_SCALAR_EVENT &&
			    ev.data.scalar.length > PC_Y_MAX_SCALAR) {
				rc = yerr(err, errlen, file, line, col,
					  "value longer than %d bytes", PC_Y_MAX_SCALAR);
				break;
			}
			nn = calloc(1, sizeof *nn);
			if (!nn) {
				rc = PC_ENOMEM;
				break;
			}
			nn->line = line;
			nn->col = col;
			if (ev.type == YAML_SCALAR_EVENT) {
				nn->type = PC_YN_SCALAR;
				nn->slen = ev.data.scalar.length;
				char *text_copy = pc_strndup((const char *)ev.data.scalar.value,
							     nn->slen);
				nn->s = text_copy;
				if (!text_copy) {
					free(nn);
					rc = PC_ENOMEM;
					break;
				}
			} else {
				nn->type = ev.type == YAML_SEQUENCE_START_EVENT ? PC_YN_SEQ
										 : PC_YN_MAP;
			}
			if (depth == 0) {
				if (*root) {
					pc_ytree_free(nn);
					rc = yerr(err, errlen, file, line, col,
						  "only one top-level value is allowed");
					break;
				}
				*root = nn;
			} else {
				pc_ynode *par = stack[depth - 1];
				pc_ynode **kids = (pc_ynode **)par->kids;
				if (pc_grow((void **)&kids, &par->cap, par->n + 1,
					    sizeof *kids)) {
					pc_ytree_free(nn);
					rc = PC_ENOMEM;
					break;
				}
				kids[par->n++] = nn;
				par->kids = (const pc_ynode *const *)kids;
			}
			if (nn->type != PC_YN_SCALAR) {
				if (depth >= PC_Y_MAX_DEPTH) {
					rc = yerr(err, errlen, file, line, col,
						  "nested deeper than %d levels", PC_Y_MAX_DEPTH);
					break;
				}
				stack[depth++] = nn;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (depth)
				depth--;
			break;
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
		if (rc)
			break;
	}
	yaml_parser_delete(&ps);
	if (rc) {
		pc_ytree_free(*root);
		*root = NULL;
		if (rc == PC_ENOMEM)
			snprintf(err, errlen, "out of memory");
		return rc;
	}
	if (!*root)
		return yerr(err, errlen, file, 1, 1, "empty %s", file.what);
	return PC_OK;
}

int pc_ytree_parse(const char *text, size_t len, const char *file, pc_ynode **root,
		   char *err, size_t errlen)
{
	return parse_as(text, len, (yfile){"dialect", file}, root, err, errlen);
}

int pc_ytree_load(const char *path, const char *what, pc_ynode **root,
		  char *err, size_t errlen)
{
	*root = NULL;
	pc_stream *s;
	int st = pc_stream_open_file(&s, path);
	if (st) {
		const pc_error *e = pc_last_error();
		snprintf(err, errlen, "%s %s: %s", what, path,
			 e && e->message ? e->message : "cannot open");
		return st == PC_ENOTFOUND ? PC_ENOTFOUND : st == PC_ENOMEM ? PC_ENOMEM : PC_EIO;
	}
	/* read at most one byte more than the limit: never more than a
	 * valid file can hold, whatever the file claims or is */
	char *buf = malloc(PC_Y_MAX_BYTES + 1);
	size_t len = 0;
	if (!buf) {
		pc_stream_free(s);
		snprintf(err, errlen, "out of memory");
		return PC_ENOMEM;
	}
	while (len <= PC_Y_MAX_BYTES) {
		size_t k;
		if ((st = pc_stream_read_some(buf + len, PC_Y_MAX_BYTES + 1 - len, &k, s))) {
			snprintf(err, errlen, "%s %s: read error", what, path);
			break;
		}
		if (k == 0)
			break;
		len += k;
	}
	pc_stream_free(s);
	if (!st && len > PC_Y_MAX_BYTES) {
		snprintf(err, errlen, "%s %s: file larger than %zu bytes (the limit of every YAML input)",
			 what, path, PC_Y_MAX_BYTES);
		st = PC_EFORMAT;
	}
	if (!st)
		st = parse_as(buf, len, (yfile){what, path}, root, err, errlen);
	free(buf);
	return st;
}

