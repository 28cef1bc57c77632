/* gprof_cmd.h - profcat gprof (gprof_cmd.c). */
#ifndef PROFCAT_GPROF_CMD_H
#define PROFCAT_GPROF_CMD_H

/** Runs "profcat gprof [gprof options] [a.out [gmon.out...]]" (argv[1]
 *  is "gprof"); returns profcat's exit status. */
int profcat_gprof_main(int argc, char **argv);

#endif
