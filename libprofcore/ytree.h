/*
 * ytree.h - a YAML document as a small tree of scalars, sequences and
 * mappings, with the line and column of every node for messages.
 *
 * Trees come from two places: pc_ytree_parse (libyaml, with limits
 * against hostile files; only when profcore is built with YAML support,
 * PC_HAVE_YAML) and C data generated at build time from YAML files by
 * dialects/embed.py (the built-in map dialects, so that they work without
 * libyaml).  Both give equal trees (tests/dos/test_dialect_tree.c).
 */
#ifndef PC_YTREE_H
#define PC_YTREE_H

#include "internal.h"
#include "pc_config.h"

#include <stddef.h>

enum { PC_YN_SCALAR, PC_YN_SEQ, PC_YN_MAP };

typedef struct pc_ynode {
	int type;
	const char *s; /* scalar text (NUL-terminated) */
	size_t slen;
	const struct pc_ynode *const *kids; /* seq: items; map: key, value, ... */
	size_t n, cap;
	unsigned long line, col; /* 1-based */
} pc_ynode;

/* Limits of pc_ytree_parse. */
#define PC_Y_MAX_BYTES ((size_t)1 << 20) /* document size    */
#define PC_Y_MAX_DEPTH 16                /* nesting          */
#define PC_Y_MAX_NODES 20000             /* nodes            */
#define PC_Y_MAX_SCALAR 4096             /* one scalar       */

/* A named compiled-in document. */
typedef struct pc_ydoc {
	const char *name;
	const pc_ynode *root;
} pc_ydoc;

/* The built-in map dialects (generated), ending with {NULL, NULL}. */
PC_INTERNAL extern const pc_ydoc pc_map_builtins[];
/* The built-in trace dialects (generated from dialects/traces/). */
PC_INTERNAL extern const pc_ydoc pc_trace_builtins[];

#if PC_HAVE_YAML
/** Parses one YAML document (aliases refused).  On error *root is NULL,
 *  err holds "dialect FILE:LINE:COL: what" and the result is PC_EFORMAT
 *  or PC_ENOMEM. */
PC_INTERNAL int pc_ytree_parse(const char *text, size_t len, const char *file,
			       pc_ynode **root, char *err, size_t errlen);
/** Reads and parses the YAML file path (at most PC_Y_MAX_BYTES: the one
 *  rule for every YAML input: dialects, raw layouts), messages starting
 *  "WHAT FILE".  Errors as pc_ytree_parse, PC_ENOTFOUND or PC_EIO. */
PC_INTERNAL int pc_ytree_load(const char *path, const char *what,
			      pc_ynode **root, char *err, size_t errlen);
PC_INTERNAL void pc_ytree_free(pc_ynode *root);
#endif

#endif
