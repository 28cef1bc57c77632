/* stats_cmd.h - profcat diff / merge / rates (stats_cmd.c). */
#ifndef PROFCAT_STATS_CMD_H
#define PROFCAT_STATS_CMD_H

/** Runs "profcat diff|merge|rates ..." (argv[1] is the subcommand);
 *  returns profcat's exit status. */
int profcat_stats_main(int argc, char **argv);

/** The options that fix a capture-rate conflict the library reports
 *  (pc_rates_check: "... Hz cannot be added up ..."), to append to its
 *  message; "" for any other message. */
const char *pc_cli_rate_advice(const char *message);

#endif
