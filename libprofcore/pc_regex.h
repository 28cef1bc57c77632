/*
 * pc_regex.h - profcore's own regular expressions (internal API pc_re_*).
 *
 * Used on every platform instead of POSIX <regex.h> (which Windows lacks),
 * by the map dialects and the Hatari loader: one code path, exercised by
 * the whole test suite and the fuzzers.  The header is not called regex.h
 * so that it never shadows the system's.
 *
 * Syntax: the part of POSIX extended regular expressions that maps need.
 *   literals; . (any byte); [...] and [^...] with ranges, a leading ] or a
 *   leading/trailing - taken literally, and [:alnum:] [:alpha:] [:blank:]
 *   [:cntrl:] [:digit:] [:graph:] [:lower:] [:print:] [:punct:] [:space:]
 *   [:upper:] [:xdigit:] (C locale; a backslash inside [] is literal, as
 *   in POSIX); anchors ^ $; groups ( ) with capture; alternation |;
 *   * + ? {m} {m,} {m,n} (counts up to 1000); \ before punctuation for the
 *   literal character; \d \D \s \S \w \W outside brackets.
 *   With PC_RE_NAMED also (?:...) (no capture) and (?P<name>...) or
 *   (?<name>...) (a named capture).
 * Refused with a message at compile time: back-references and other
 * letter escapes (\1 \b \< \n ...), stacked quantifiers (a** a+? a{2}*),
 * a quantifier with nothing to repeat, an unmatched parenthesis, a '{'
 * that does not start a count, collating elements [. .] and equivalence
 * classes [= =], more than PC_RE_MAX_GROUPS captures, nesting deeper than
 * 100 levels, and expressions that need more than PC_RE_MAX_INSTS
 * instructions once counted repetitions are expanded.
 *
 * Matching is byte-wise (the C locale) and runs a Pike VM: time O(length
 * of the text x size of the expression) and memory O(size of the
 * expression x captures), whatever the pattern; no backtracking.
 * The match is POSIX's leftmost-longest.  Among the ways to split that
 * match into groups, quantifiers take as much as they can from left to
 * right, alternatives are tried in order, and a repeated group that can
 * match empty takes one empty turn.  This gives the captures of glibc's
 * regexec on every expression of the built-in dialects and Hatari, line
 * by line on every map, nm and Hatari fixture (tests/dos/test_regex_posix.c,
 * built wherever <regex.h> exists), and on all but a few of 200,000
 * random nested expressions tried during development; such contrived
 * expressions may split a match differently, the match itself does not.
 */
#ifndef PC_REGEX_H
#define PC_REGEX_H

#include "internal.h"

#include <stddef.h>

#define PC_RE_MAX_GROUPS 40   /* capturing groups per expression  */
#define PC_RE_MAX_INSTS 5000  /* compiled size per expression     */
/* Work budget of pc_re_exec: after reading pos bytes of the text, at most
 * PC_RE_STEPS_BASE + PC_RE_STEPS_PER_BYTE * pos steps (a step: one thread
 * of the VM on one byte, or one instruction entered); beyond, the result
 * is PC_ELIMIT, early on a long line.  Ordinary
 * expressions (every built-in dialect, Hatari's) keep a few threads alive
 * per byte; one with overlapping counted repeats (.{0,1000}.{0,1000})
 * keeps thousands, and would take minutes on long lines. */
#define PC_RE_STEPS_PER_BYTE 256
#define PC_RE_STEPS_BASE 100000

/* Compile flags. */
#define PC_RE_NAMED 1u /* (?:...), (?P<name>...), (?<name>...) */

typedef struct pc_re pc_re;

/** A matched span: text[so, eo); both PC_RE_UNSET when the group did not
 *  take part in the match. */
typedef struct pc_re_span {
	size_t so, eo;
} pc_re_span;
#define PC_RE_UNSET ((size_t)-1)

/** Working memory of pc_re_exec, reusable across expressions and calls;
 *  start it zeroed and release it with pc_re_scratch_free. */
typedef struct pc_re_scratch {
	void *mem;
	size_t cap;
	const pc_re *over; /* the expression of the last PC_ELIMIT */
} pc_re_scratch;

/** Compiles pat (len bytes; no NUL needed).  On error *out is NULL, err
 *  holds what is wrong (without a prefix) and the result is PC_EFORMAT,
 *  or PC_ENOMEM. */
PC_INTERNAL int pc_re_compile(const char *pat, size_t len, unsigned flags,
			      pc_re **out, char *err, size_t errlen);
PC_INTERNAL void pc_re_free(pc_re *re);

/** Capturing groups (group 0, the whole match, not counted). */
PC_INTERNAL size_t pc_re_groups(const pc_re *re);
/** Name of group i (1-based), or NULL if it has none. */
PC_INTERNAL const char *pc_re_group_name(const pc_re *re, size_t i);
/** Compiled size in instructions (to budget many expressions). */
PC_INTERNAL size_t pc_re_size(const pc_re *re);

/** Searches text[0, len) for the leftmost-longest match.  Fills sub[0]
 *  (the match) to sub[nsub - 1] (nsub may be 0: a yes/no test, fastest).
 *  sc may be NULL (memory is then allocated for this call).  Returns 1 on
 *  a match, 0 if none, PC_ENOMEM, or PC_ELIMIT when the work budget
 *  (PC_RE_STEPS_*) is spent (sc->over is then re). */
PC_INTERNAL int pc_re_exec(const pc_re *re, pc_re_scratch *sc, const char *text,
			   size_t len, pc_re_span *sub, size_t nsub);
PC_INTERNAL void pc_re_scratch_free(pc_re_scratch *sc);
/** The error for a PC_ELIMIT of pc_re_exec: names the expression
 *  (sc->over) and the limit; offset is the line's.  Returns PC_ELIMIT. */
PC_INTERNAL int pc_re_budget_fail(pc_stream *s, int64_t offset,
				  const pc_re_scratch *sc);

#endif
