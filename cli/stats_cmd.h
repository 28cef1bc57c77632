/* stats_cmd.h - profcat diff / merge / rates (stats_cmd.c). */
#ifndef PROFCAT_STATS_CMD_H
#define PROFCAT_STATS_CMD_H

#include "profcore.h"

/** Runs "profcat diff|merge|rates ..." (argv[1] is the subcommand);
 *  returns profcat's exit status. */
int profcat_stats_main(int argc, char **argv);

#endif
