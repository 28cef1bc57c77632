/* output.c - how profcat writes a report: standard output, or a file
 * replaced atomically (temporary file in the same directory, fsync,
 * rename), so that a failure never leaves a half-written report. */
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pc_cli_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!strcmp(a, b))
		return 1;
	if (stat(a, &sa) || stat(b, &sb))
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Writes buf to path through a temporary file in the same directory. */
static int write_atomic(const char *path, const char *buf, size_t len)
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	if (!tmp)
		return PC_CLI_EXIT_INTERNAL;
	snprintf(tmp, n, "%s.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "profcat: %s: cannot create temporary file: %s\n", path,
			strerror(errno));
		free(tmp);
		return PC_CLI_EXIT_IO;
	}
	FILE *f = fdopen(fd, "wb");
	int ok = f && fwrite(buf, 1, len, f) == len && fflush(f) == 0 &&
		 fsync(fd) == 0;
	if (f)
		ok = (fclose(f) == 0) && ok;
	else
		close(fd);
	if (ok) {
		mode_t um = umask(0);
		umask(um);
		chmod(tmp, 0666 & ~um);
		ok = rename(tmp, path) == 0;
	}
	if (!ok) {
		fprintf(stderr, "profcat: %s: cannot write: %s\n", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return PC_CLI_EXIT_IO;
	}
	free(tmp);
	return 0;
}

int pc_cli_write_output(const char *path, const char *buf, size_t len)
{
	if (!path) {
		if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
			fprintf(stderr, "profcat: cannot write to standard output: %s\n",
				strerror(errno));
			return PC_CLI_EXIT_IO;
		}
		return 0;
	}
	return write_atomic(path, buf, len);
}
