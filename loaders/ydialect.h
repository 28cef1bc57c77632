/*
 * ydialect.h - reading a dialect's YAML tree: key checks, typed values
 * and messages "dialect FILE:LINE:COL: key 'K': what" (internal; shared by
 * the map and trace dialect engines).
 */
#ifndef PC_YDIALECT_H
#define PC_YDIALECT_H

#include "internal.h"
#include "ytree.h"

#include <stddef.h>

/* Where a dialect is being compiled, and its error buffer. */
typedef struct pc_ydctx {
	const char *file;
	char *err;
	size_t errlen;
	int detect_only; /* compile only what detection needs */
	size_t insts;    /* compiled size of the expressions so far */
} pc_ydctx;

/** Fills c->err with "dialect FILE:LINE:COL: key 'KEY': " and the message;
 *  returns PC_EFORMAT. */
PC_INTERNAL int pc_yd_err(pc_ydctx *c, const pc_ynode *n, const char *key,
			  const char *fmt, ...) PC_PRINTF(4, 5);
/** Builds a key path for messages (truncation is harmless). */
PC_INTERNAL void pc_yd_path(char *buf, size_t n, const char *fmt, ...) PC_PRINTF(3, 4);
/** The value of key in mapping m, or NULL. */
PC_INTERNAL const pc_ynode *pc_yd_get(const pc_ynode *m, const char *key);
/** m must be a mapping whose keys are all in allowed[] (NULL-terminated),
 *  each once. */
PC_INTERNAL int pc_yd_check_map(pc_ydctx *c, const pc_ynode *m, const char *path,
				const char *const *allowed);
PC_INTERNAL int pc_yd_scalar(pc_ydctx *c, const pc_ynode *n, const char *path,
			     const char **out);
/** One of names[] (NULL-terminated): its index. */
PC_INTERNAL int pc_yd_enum(pc_ydctx *c, const pc_ynode *n, const char *path,
			   const char *const *names, int *out);
PC_INTERNAL int pc_yd_uint(pc_ydctx *c, const pc_ynode *n, const char *path,
			   unsigned long min, unsigned long max, unsigned long *out);
PC_INTERNAL int pc_yd_bool(pc_ydctx *c, const pc_ynode *n, const char *path, int *out);
/** The names of the built-in dialects, ", "-separated, into buf (cut to n). */
PC_INTERNAL const char *pc_yd_builtin_names(const pc_ydoc *builtins, char *buf, size_t n);

#endif
