/*
 * ydialect.h - reading a dialect's YAML tree: key checks, typed values
 * and messages "dialect FILE:LINE:COL: key 'K': what" (internal; shared by
 * the map and trace dialect engines).
 */
#ifndef PC_YDIALECT_H
#define PC_YDIALECT_H

#include "internal.h"
#include "ytree.h"
#include "pc_regex.h"

#include <stddef.h>

/* compiled size of all of a dialect's expressions together */
#define PC_YD_MAX_INSTS 20000

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
/** A named group's field for a dialect engine: 0 and *field set, or a
 *  message saying why the name is refused where it stands (groups says
 *  which kind of expression it is, as the engine numbers them). */
typedef const char *(*pc_yd_group_fn)(const char *name, int groups, int *field);
/** Compiles the scalar n as a regular expression with named groups
 *  (PC_RE_NAMED): each group's name goes through field(); group[field]
 *  (zeroed by the caller) gets its capture index, a name used twice is
 *  refused; *nsub = groups + 1; the compiled size counts against the
 *  dialect's budget, PC_YD_MAX_INSTS.  On an error nothing is kept. */
PC_INTERNAL int pc_yd_regex(pc_ydctx *c, const pc_ynode *n, const char *path, int groups,
			    pc_yd_group_fn field, int *group, pc_re **re, size_t *nsub);
/** A scalar or a sequence of them as an array of size-byte elements:
 *  *out (calloc'd, owned by the caller, freed on an error too) gets one
 *  element per item, each filled by each(c, item, its path, element);
 *  *count counts those filled, so a caller's cleanup frees only them. */
typedef int (*pc_yd_item_fn)(pc_ydctx *c, const pc_ynode *n, const char *path, void *elem);
PC_INTERNAL int pc_yd_list(pc_ydctx *c, const pc_ynode *n, const char *path, size_t size,
			   pc_yd_item_fn each, void **out, size_t *count);
/** One of names[] (NULL-terminated): its index. */
PC_INTERNAL int pc_yd_enum(pc_ydctx *c, const pc_ynode *n, const char *path,
			   const char *const *names, int *out);
PC_INTERNAL int pc_yd_uint(pc_ydctx *c, const pc_ynode *n, const char *path,
			   unsigned long min, unsigned long max, unsigned long *out);
PC_INTERNAL int pc_yd_bool(pc_ydctx *c, const pc_ynode *n, const char *path, int *out);
/** The names of the built-in dialects, ", "-separated, into buf (cut to n). */
PC_INTERNAL const char *pc_yd_builtin_names(const pc_ydoc *builtins, char *buf, size_t n);

/* A dialect engine (map.c, trace.c), as pc_yd_choose() sees it. */
typedef struct pc_ydkind {
	const char *what;    /* "map": "no map dialect 'X'" */
	const char *noun;    /* "dialects": "only the built-in dialects can be used" */
	const char *option;  /* the loader's option naming a dialect */
	const char *subdir;  /* where PC_DATADIR keeps more of them */
	const pc_ydoc *builtins;
	/* The engine's compile step: root, read from file, into *out (the
	 * engine's dialect); on failure a message in err. */
	int (*compile)(const pc_ynode *root, const char *file, void **out, char *err,
		       size_t errlen);
	/* Detection: the built-in dialect that reads the stream whose first
	 * len bytes are head (whole: all of it) in *name; 1 found, 0 none,
	 * or a negative status the function has set on s or p. */
	int (*detect)(pc_profile *p, pc_stream *s, const unsigned char *head, size_t len,
		      int whole, const char **name, void *arg);
} pc_ydkind;

/** The dialect a loader reads s with, compiled into *out: the one named
 *  by want (a built-in name, a FILE.yaml, or NAME.yaml in the data
 *  directory's k->subdir), or, want NULL or empty, the built-in one that
 *  k->detect finds from the stream's first bytes (arg is its).  Failures
 *  are set on p or s, with the messages every dialect engine gives. */
PC_INTERNAL int pc_yd_choose(pc_profile *p, pc_stream *s, const pc_ydkind *k,
			     const char *want, void *arg, void **out);

#endif
