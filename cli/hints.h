/* hints.h - another tool's options and misspelled names: what profcat
 * says instead of a bare "unknown" (cli/hints.c). */
#ifndef PC_CLI_HINTS_H
#define PC_CLI_HINTS_H

#include <stddef.h>

/** The one of cands[0..n) that word most likely meant (one slip in a
 *  name of up to 7 letters, two beyond: a letter added, dropped, changed
 *  or two swapped; or the only name word begins, from 3 letters), NULL
 *  when none or several. */
const char *pc_cli_nearest(const char *word, const char *const *cands, size_t n);
/** " (did you mean 'X'?)" after a library message that refuses a value
 *  and lists the choices ("bad value 'V' for option ...; expected one
 *  of: a, b", "K must be a, b or c, not 'V'"), when one is near V; ""
 *  otherwise (a static buffer). */
const char *pc_cli_choice_hint(const char *message);
/** 1 and msg = "unknown option 'ARG': ..." when arg is one of gprof's
 *  options that profcat does not take (-p, -q, -l, -A, --graph,
 *  --flat-profile, --brief, ...: profcat's equivalent and 'profcat
 *  gprof') or one of pprof's spelled with one dash (-top, -focus=RE,
 *  -nodecount=N, -list: "did you mean '--top N'?", with the value
 *  given as -word=VALUE or as next, the argument after it, or NULL);
 *  0 otherwise. */
int pc_cli_foreign_option(const char *arg, const char *next, char *msg, size_t cap);
/** After a value of -f or -F that is no format: what gprof's -f SYM or
 *  -F SYM is here ("" for other letters). */
const char *pc_cli_gprof_value_hint(char letter);

#endif
