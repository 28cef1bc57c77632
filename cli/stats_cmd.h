/* stats_cmd.h - profcat diff / merge / rates (stats_cmd.c). */
#ifndef PROFCAT_STATS_CMD_H
#define PROFCAT_STATS_CMD_H

#include "profcore.h"

/** Runs "profcat diff|merge|rates ..." (argv[1] is the subcommand);
 *  returns profcat's exit status. */
int profcat_stats_main(int argc, char **argv);

/** The options that fix a capture-rate conflict the library reports
 *  (pc_rates_check: "... Hz cannot be added up ..."), to append to its
 *  message; "" for any other message. */
const char *pc_cli_rate_advice(const char *message);

/** profcat's fit check of p (profcat.c; pc_profile_fit): a misfit is
 *  an error message and exit status 1 unless ignore (--ignore-fit), then
 *  a warning, as a doubt is; names: the capture's files; elf: the
 *  program is an ELF file.  Returns the exit status (0: go on). */
int pc_cli_fit(pc_profile *p, const pc_options *opts, const char *names, int elf,
	       int ignore);

#endif
