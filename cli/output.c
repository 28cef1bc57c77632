/* output.c - how profcat writes a report: standard output, or a file
 * replaced atomically (temporary file in the same directory, fsync,
 * rename), so that a failure never leaves a half-written report.
 *
 * -o only ever replaces a regular file: a destination that exists and is
 * anything else (symbolic link, FIFO, device, directory, socket) is
 * refused with exit 2, before the inputs are read and again just before
 * the write.  A replaced file keeps its permissions (and owner and group
 * where allowed).  SIGINT, SIGTERM and SIGHUP during the write remove the
 * temporary file.  A closed standard output (profcat ... | head -1) ends
 * profcat quietly with exit 3, no SIGPIPE. */
#include "output.h"
#include "platform.h"
#include "profcore.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pc_cli_same_file(const char *a, const char *b)
{
	return pc_plat_same_file(a, b);
}

/* Writes buf to path through a temporary file in the same directory. */
int pc_cli_check_output(const char *path)
{
	const char *what = path ? pc_plat_not_regular(path) : NULL;
	if (!what)
		return 0;
	char f[1024];
	pc_name_escape(f, sizeof f, path);
	fprintf(stderr,
		"profcat: %s: is %s, not a regular file; -o only replaces regular files (write to standard output and redirect instead)\n",
		f, what);
	return PC_CLI_EXIT_USAGE;
}

/* Test hook: PC_TEST_OUTPUT_STALL=MS makes profcat name its temporary
 * file on standard error and wait MS milliseconds before the rename, so
 * that tests can signal it mid-write (tests/hostile/test_output.py). */
static void test_stall(const char *tmp)
{
	const char *v = getenv("PC_TEST_OUTPUT_STALL");
	if (!v || !*v)
		return;
	fprintf(stderr, "profcat: test: writing %s\n", tmp);
	fflush(stderr);
	pc_plat_sleep_ms((unsigned)strtoul(v, NULL, 10));
}

int pc_cli_output_open(pc_cli_output *o, const char *path)
{
	memset(o, 0, sizeof *o);
	o->path = path;
	if (!path) {
		o->f = stdout;
		return 0;
	}
	int rc = pc_cli_check_output(path);
	if (rc)
		return rc;
	o->f = pc_plat_temp_beside(path, &o->tmp);
	if (!o->f) {
		if (errno == ENOMEM)
			return PC_CLI_EXIT_INTERNAL;
		fprintf(stderr, "profcat: %s: cannot create temporary file: %s\n", path,
			strerror(errno));
		return PC_CLI_EXIT_IO;
	}
	return 0;
}

int pc_cli_output_write(void *ctx, const void *buf, size_t len)
{
	pc_cli_output *o = ctx;
	if (o->err)
		return PC_EIO;
	if (fwrite(buf, 1, len, o->f) != len) {
		o->err = errno ? errno : EIO;
		return PC_EIO;
	}
	return PC_OK;
}

int pc_cli_output_close(pc_cli_output *o, int keep)
{
	if (!o->f)
		return 0;
	if (!o->path) { /* standard output: what was written stays */
		int bad = o->err || fflush(stdout) != 0;
		int e = o->err ? o->err : errno;
		o->f = NULL;
		if (!bad || !keep)
			return 0;
		if (e == EPIPE) /* the reader is gone: nothing to say */
			return PC_CLI_EXIT_IO;
		fprintf(stderr, "profcat: cannot write to standard output: %s\n", strerror(e));
		return PC_CLI_EXIT_IO;
	}
	int ok = keep && !o->err && pc_plat_sync(o->f) == 0;
	int e = o->err ? o->err : errno;
	if (fclose(o->f) != 0 && ok) {
		ok = 0;
		e = errno;
	}
	o->f = NULL;
	if (ok)
		test_stall(o->tmp);
	if (ok && pc_plat_replace(o->tmp, o->path) != 0) {
		ok = 0;
		e = errno;
	}
	if (!ok)
		remove(o->tmp);
	pc_plat_temp_release();
	free(o->tmp);
	o->tmp = NULL;
	if (!ok && keep) {
		fprintf(stderr, "profcat: %s: cannot write: %s\n", o->path, strerror(e));
		return PC_CLI_EXIT_IO;
	}
	return 0;
}

/* s in its shown form in buf (cut at a whole escape when longer). */
static const char *shown(const char *s, char *buf, size_t n)
{
	pc_name_escape(buf, n, s ? s : "");
	return buf;
}

void pc_cli_message(const char *prefix, const char *text)
{
	char m[4096];
	fprintf(stderr, "profcat: %s%s\n", prefix, shown(text, m, sizeof m));
}

void pc_cli_error(const char *kind, const pc_error *e, const char *advice)
{
	char f[1024], m[4096];
	if (!advice)
		advice = "";
	if (!e)
		fprintf(stderr, "profcat: %sunknown error\n", kind);
	else if (e->file && e->offset >= 0)
		fprintf(stderr, "profcat: %s%s:%lld: %s%s\n", kind, shown(e->file, f, sizeof f),
			(long long)e->offset, shown(e->message, m, sizeof m), advice);
	else if (e->file)
		fprintf(stderr, "profcat: %s%s: %s%s\n", kind, shown(e->file, f, sizeof f),
			shown(e->message, m, sizeof m), advice);
	else
		fprintf(stderr, "profcat: %s%s%s\n", kind, shown(e->message, m, sizeof m), advice);
}

const char *pc_cli_shown(const char *s)
{
	static char buf[4096];
	return shown(s, buf, sizeof buf);
}

void pc_cli_file_error(const char *file, long long offset, const char *message)
{
	pc_error e = {1, file, offset, message};
	pc_cli_error("", &e, NULL);
}

void pc_cli_binary_stdio(void)
{
	pc_plat_no_sigpipe();
	pc_plat_binary_fd(1);
	pc_plat_binary_fd(2);
}

int pc_cli_write_output(const char *path, const char *buf, size_t len)
{
	pc_cli_output o;
	int rc = pc_cli_output_open(&o, path);
	if (rc)
		return rc;
	if (len)
		pc_cli_output_write(&o, buf, len);
	return pc_cli_output_close(&o, 1);
}

int pc_cli_open_error(const char *path, int st)
{
	const char *what = st == PC_ENOTFOUND ? NULL : pc_plat_not_regular(path);
	if (what && !strcmp(what, "a directory"))
		pc_cli_file_error(path, -1, "is a directory, not a capture or symbol file");
	else
		pc_cli_file_error(path, -1,
				  st == PC_ENOTFOUND ? "no such file"
				  : st == PC_ENOMEM  ? "out of memory"
						     : "cannot read file");
	return st == PC_ENOMEM ? PC_CLI_EXIT_INTERNAL : PC_CLI_EXIT_IO;
}

int pc_cli_refuse_binary_tty(const char *format, const char *path)
{
	if (path || !format || (strcmp(format, "pprof") && strcmp(format, "gmon")) ||
	    !pc_plat_is_terminal(1))
		return 0;
	fprintf(stderr,
		"profcat: the %s export is binary: not written to a terminal (give -o FILE or pipe it)\n",
		format);
	return PC_CLI_EXIT_USAGE;
}

void pc_cli_set_threads(pc_profile *p)
{
	const char *e = getenv("PROFCORE_THREADS");
	long n = e && *e ? strtol(e, NULL, 10) : 0;
	if (n < 0)
		n = 0;
	if (n > PC_MAX_THREADS)
		n = PC_MAX_THREADS;
	pc_profile_set_threads(p, (unsigned)n);
}
