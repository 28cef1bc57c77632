/* output.c - how profcat writes a report: standard output, or a file
 * replaced atomically (temporary file in the same directory, fsync,
 * rename), so that a failure never leaves a half-written report. */
#include "output.h"
#include "platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pc_cli_same_file(const char *a, const char *b)
{
	return pc_plat_same_file(a, b);
}

/* Writes buf to path through a temporary file in the same directory. */
static int write_atomic(const char *path, const char *buf, size_t len)
{
	char *tmp = NULL;
	FILE *f = pc_plat_temp_beside(path, &tmp);
	if (!f) {
		if (errno == ENOMEM)
			return PC_CLI_EXIT_INTERNAL;
		fprintf(stderr, "profcat: %s: cannot create temporary file: %s\n", path,
			strerror(errno));
		return PC_CLI_EXIT_IO;
	}
	int ok = fwrite(buf, 1, len, f) == len && pc_plat_sync(f) == 0;
	ok = (fclose(f) == 0) && ok;
	if (ok)
		ok = pc_plat_replace(tmp, path) == 0;
	if (!ok) {
		fprintf(stderr, "profcat: %s: cannot write: %s\n", path, strerror(errno));
		remove(tmp);
		free(tmp);
		return PC_CLI_EXIT_IO;
	}
	free(tmp);
	return 0;
}

void pc_cli_binary_stdio(void)
{
	pc_plat_binary_fd(1);
	pc_plat_binary_fd(2);
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
