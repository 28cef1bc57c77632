/* output.h - writing profcat's output (cli/output.c). */
#ifndef PC_CLI_OUTPUT_H
#define PC_CLI_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

struct pc_error;
struct pc_profile;

/** Gives p the thread count from the environment variable
 *  PROFCORE_THREADS (a number; 0, empty or unset: one per core; more
 *  than the library's maximum: the maximum).  The library itself reads
 *  no environment. */
void pc_cli_set_threads(struct pc_profile *p);

#define PC_CLI_EXIT_INPUT 1
#define PC_CLI_EXIT_USAGE 2
#define PC_CLI_EXIT_IO 3
#define PC_CLI_EXIT_INTERNAL 4

/** 1 if a and b name the same file (same path, or same device and inode). */
int pc_cli_same_file(const char *a, const char *b);
/** Writes "profcat: PREFIXTEXT\n" to standard error, TEXT (data from a
 *  file: a name, a message quoting one) in its shown form
 *  (pc_name_escape: no terminal escapes, valid UTF-8). */
void pc_cli_message(const char *prefix, const char *text);
/** "profcat: [kind]FILE:OFFSET: message" for an error (kind is
 *  "warning: " or ""), file and message in their shown form. */
void pc_cli_error(const char *kind, const struct pc_error *e,
		  const char *advice);
/** 0 when -o path may be written (absent, or a regular file), else exit 2
 *  after one error line (a symbolic link, FIFO, device...: refused). */
int pc_cli_check_output(const char *path);
/** s in its shown form, in a static buffer (one use per statement). */
const char *pc_cli_shown(const char *s);
/** The same for a message about a file (offset -1: none). */
void pc_cli_file_error(const char *file, long long offset, const char *message);
/** Standard output and error in binary mode: reports and exports (pprof,
 *  gmon) are written byte for byte, with LF line ends, on every host.
 *  Also: a closed pipe gives EPIPE (exit 3, quietly), not SIGPIPE. */
void pc_cli_binary_stdio(void);
/** Writes buf to standard output (path NULL) or atomically to path.
 *  Returns 0, or the exit code after printing one error line. */
int pc_cli_write_output(const char *path, const char *buf, size_t len);

/** An output being written as a report is made (pc_profile_render_to):
 *  standard output, or a temporary file beside path that replaces path
 *  when it is closed complete. */
typedef struct pc_cli_output {
	const char *path; /* NULL: standard output */
	FILE *f;
	char *tmp;        /* the temporary file */
	int err;          /* errno of the first failed write, 0 */
} pc_cli_output;
/** Opens o for path (NULL: standard output): 0, or the exit code after
 *  one error line (path refused, no temporary file). */
int pc_cli_output_open(pc_cli_output *o, const char *path);
/** pc_write_fn for an open pc_cli_output (ctx): PC_EIO once a write
 *  failed (errno kept in o->err). */
int pc_cli_output_write(void *ctx, const void *buf, size_t len);
/** Closes o.  keep: the output is complete: the temporary file replaces
 *  path (fsync, rename); returns 0, or exit 3 after one error line (none
 *  for a closed standard output).  keep 0: the report failed: the
 *  temporary file is removed (standard output keeps what it got);
 *  returns 0. */
int pc_cli_output_close(pc_cli_output *o, int keep);

/** After pc_stream_open_file failed with status st on path: one error
 *  line ("no such file", "is a directory, not a capture or symbol
 *  file", "cannot read file"); returns the exit status (3, or 4 when out
 *  of memory). */
int pc_cli_open_error(const char *path, int st);
/** 0, or exit status 2 after one error line when export format (a binary
 *  one: pprof, gmon) would be written to a terminal (path NULL and
 *  standard output a terminal), as gzip refuses. */
int pc_cli_refuse_binary_tty(const char *format, const char *path);

#endif
