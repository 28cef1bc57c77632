/* libFuzzer harness: which source files -r source reads
 * (pc_dwarf_open_source, docs/source.md "Which source files are read")
 * and the separate debug file search (find_debug_local in
 * libprofcore/dwarf.c).
 *
 * A sandbox directory is made once: src/ (the source path) holding a.c,
 * sub/b.c, a symbolic link out to /etc/passwd, a link to a.c and a FIFO;
 * out.c beside src/ (outside it).  The
 * first input byte chooses the source path (none, "src", "src:.."
 * resolved, or src given twice); the rest, up to a NUL, is the file name
 * as DWARF would name it (../, //, /proc/self/..., links, long names).
 * Any file opened must be a regular file inside src/ (or the sandbox when
 * ".." is a source path), or, for a relative name, inside the current
 * directory; never under /proc, /sys or /dev: else abort.
 *
 * What follows the NUL, when it is an ELF file, is written to the
 * sandbox as prog and loaded: its .gnu_debuglink (and build-id) search
 * meets a FIFO (f.debug), a regular file of garbage (g.debug), .debug/
 * and links; a FIFO must not hang the search (libFuzzer's -timeout).
 * The sandbox is removed when the fuzzer exits (atexit: a normal end,
 * -runs or -max_total_time; not after a crash, whose input libFuzzer
 * keeps anyway). */
/* nftw */
#define _XOPEN_SOURCE 700
#include "dwarf_internal.h"
#include "platform.h"

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char sandbox[64], srcdir[96];
static char *cwdreal;

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path); /* a file, a link, a FIFO or an emptied directory */
	return 0;
}

/* the sandbox and everything in it, links not followed */
static void cleanup(void)
{
	if (sandbox[0])
		nftw(sandbox, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(cwdreal);
}

static int setup(void)
{
	strcpy(sandbox, "/tmp/pc-fuzz-srcpath-XXXXXX");
	if (!mkdtemp(sandbox))
		return -1;
	atexit(cleanup);
	char p[160];
	snprintf(srcdir, sizeof srcdir, "%s/src", sandbox);
	mkdir(srcdir, 0700);
	snprintf(p, sizeof p, "%s/sub", srcdir);
	mkdir(p, 0700);
	snprintf(p, sizeof p, "%s/a.c", srcdir);
	put(p, "int a;\n");
	snprintf(p, sizeof p, "%s/sub/b.c", srcdir);
	put(p, "int b;\n");
	snprintf(p, sizeof p, "%s/out.c", sandbox);
	put(p, "outside\n");
	snprintf(p, sizeof p, "%s/passwd.c", srcdir);
	if (symlink("/etc/passwd", p)) { /* ignored: the sandbox is enough */
	}
	snprintf(p, sizeof p, "%s/same.c", srcdir);
	if (symlink("a.c", p)) {
	}
	snprintf(p, sizeof p, "%s/fifo.c", srcdir);
	mkfifo(p, 0600);
	snprintf(p, sizeof p, "%s/f.debug", sandbox);
	mkfifo(p, 0600);
	snprintf(p, sizeof p, "%s/.debug", sandbox);
	mkdir(p, 0700);
	snprintf(p, sizeof p, "%s/.debug/f.debug", sandbox);
	mkfifo(p, 0600);
	snprintf(p, sizeof p, "%s/g.debug", sandbox);
	put(p, "\177ELF garbage, not a debug file\n");
	cwdreal = pc_plat_realpath(".");
	return cwdreal ? 0 : -1;
}

static int inside(const char *real, const char *dir)
{
	size_t n = strlen(dir);
	return !strncmp(real, dir, n) && (!real[n] || real[n] == '/');
}

static void check_source(uint8_t how, const char *name)
{
	char sp[256];
	const char *allowed = srcdir; /* what an opened file must lie in */
	switch (how % 4) {
	case 0:
		sp[0] = 0;
		break;
	case 1:
		snprintf(sp, sizeof sp, "%s", srcdir);
		break;
	case 2:
		snprintf(sp, sizeof sp, "%s:%s/..", srcdir, srcdir);
		allowed = sandbox;
		break;
	default:
		snprintf(sp, sizeof sp, "%s:%s/", srcdir, srcdir);
		break;
	}
	pc_dwarf_options o = PC_DWARF_OPTIONS_INIT;
	o.source_path = sp[0] ? sp : NULL;
	pc_dwarf *d = NULL;
	if (pc_dwarf_new(&d, &o))
		return;
	char *path = NULL;
	pc_stream *s = NULL;
	const char *why = NULL;
	if (pc_dwarf_open_source(d, name, &path, &s, &why) == PC_OK) {
		char *real = pc_plat_realpath(path);
		struct stat st;
		/* inside the allowed directory, a regular file */
		if (!real || !(inside(real, allowed) || (name[0] != '/' && inside(real, cwdreal))) ||
		    inside(real, "/proc") || inside(real, "/sys") || inside(real, "/dev") ||
		    stat(real, &st) || !S_ISREG(st.st_mode))
			abort();
		free(real);
	} else if (path || s) {
		abort();
	}
	pc_stream_free(s);
	free(path);
	pc_dwarf_free(d);
}

static void check_debuglink(const uint8_t *data, size_t size)
{
	if (size < 4 || memcmp(data, "\177ELF", 4))
		return;
	char p[160];
	snprintf(p, sizeof p, "%s/prog", sandbox);
	FILE *f = fopen(p, "wb");
	if (!f)
		return;
	size_t w = fwrite(data, 1, size, f);
	if (fclose(f) || w != size)
		return;
	pc_dwarf *d = NULL;
	if (pc_dwarf_new(&d, NULL) == PC_OK) {
		size_t nf;
		if (pc_dwarf_load(d, p) == PC_OK)
			pc_dwarf_lookup(&nf, d, 0);
		pc_dwarf_free(d);
	}
	unlink(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	if (!ready)
		ready = setup() == 0 ? 1 : -1;
	if (ready < 0 || !size)
		return 0;
	const uint8_t *z = memchr(data + 1, 0, size - 1);
	size_t nl = z ? (size_t)(z - (data + 1)) : size - 1;
	if (nl > 4096)
		nl = 4096;
	char *name = malloc(nl + 1);
	if (!name)
		return 0;
	memcpy(name, data + 1, nl);
	name[nl] = 0;
	check_source(data[0], name);
	free(name);
	if (z)
		check_debuglink(z + 1, size - (size_t)(z + 1 - data));
	return 0;
}
