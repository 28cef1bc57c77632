/* output.h - writing profcat's output (cli/output.c). */
#ifndef PC_CLI_OUTPUT_H
#define PC_CLI_OUTPUT_H

#include <stddef.h>

#define PC_CLI_EXIT_IO 3
#define PC_CLI_EXIT_INTERNAL 4

/** 1 if a and b name the same file (same path, or same device and inode). */
int pc_cli_same_file(const char *a, const char *b);
/** Standard output and error in binary mode: reports and exports (pprof,
 *  gmon) are written byte for byte, with LF line ends, on every host. */
void pc_cli_binary_stdio(void);
/** Writes buf to standard output (path NULL) or atomically to path.
 *  Returns 0, or the exit code after printing one error line. */
int pc_cli_write_output(const char *path, const char *buf, size_t len);

#endif
