/* common.h - what profcat's commands (profcat.c, stats_cmd.c,
 * gprof_cmd.c) share (common.c); the exit codes are output.h's
 * PC_CLI_EXIT_*. */
#ifndef PROFCAT_COMMON_H
#define PROFCAT_COMMON_H

#include "profcore.h"

/** profcat's exit status for a library status: 0 for PC_OK, 3 (I/O),
 *  2 (usage, not found), 4 (out of memory), 1 (the input) otherwise. */
int pc_cli_status_exit(int st);

/** "profcat: [kind: ]FILE:OFFSET: message[advice]" (kind is "warning: "
 *  or ""); the advice names the options that fix a problem the library
 *  describes. */
void pc_cli_report_error(const char *kind, const pc_error *e);

/** The options that fix a capture-rate conflict the library reports
 *  (pc_rates_check: "... Hz cannot be added up ..."), to append to its
 *  message; "" for any other message. */
const char *pc_cli_rate_advice(const char *message);

/** profcat's fit check of p (pc_profile_fit): a misfit is
 *  an error message and exit status 1 unless ignore (--ignore-fit), then
 *  a warning, as a doubt is; names: the capture's files; elf: the
 *  program is an ELF file.  Returns the exit status (0: go on). */
int pc_cli_fit(pc_profile *p, const pc_options *opts, const char *names, int elf,
	       int ignore);

#endif
