/*
 * pcbench - profcore's raw-dump benchmark driver (see bench/README.md).
 *
 *   pcbench gen-dump OUT N [SEED]      N random 32-bit LE PCs over the code
 *                                      span (OUT "-" = standard output)
 *   pcbench gen-swo OUT N [SEED]       an SWO capture (bare ITM) of N PC
 *                                      samples over the span, with local
 *                                      timestamps and exception trace
 *   pcbench gen-loops OUT N [SEED]     N 32-bit LE PCs of a loop-heavy run:
 *                                      loops of 8-64 instructions iterated
 *                                      10-1000 times, drawn from a hot set
 *                                      of 64 places that drifts (one place
 *                                      replaced every 16 loops), skewed to
 *                                      a few hot loops (realistic locality)
 *   pcbench gen-elf OUT M [SEED]       an ELF64 with M functions over the span
 *   pcbench read FILE                  plain sequential read + sum: the floor
 *   pcbench map FILE                   the same through 4 MiB mmap windows
 *                                      (how profcat reads large dumps)
 *   pcbench attrib ELF DUMP            load ELF, then DUMP (format raw) and
 *                                      attribute, in this process; prints
 *                                      ns/sample, a checksum of the
 *                                      per-symbol counts and peak RSS
 *   pcbench load FORMAT FILE           load FILE alone (format FORMAT,
 *                                      "-" = detect) into a profile: CPU
 *                                      seconds, peak RSS, symbols, distinct
 *                                      sample addresses and the memory per
 *                                      symbol / per distinct address
 *   pcbench spawn FD CMD [ARG...]      fork, exec CMD, wait; write
 *                                      "peak_rss_kib N", "cpu_s S"
 *                                      (user + system, with the children
 *                                      CMD waited for) and "wall_s W"
 *                                      (fork to the end of the wait) for
 *                                      CMD alone to descriptor FD; exit
 *                                      as CMD did
 *
 * Every line of output is "key value" so bench/run.py can parse it.  The
 * code span is 16 MiB at 0x400000; PROFCORE_THREADS picks the threads.
 */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "profcore.h"

#define BASE 0x400000u
#define SPAN (16u << 20)

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static long peak_rss_kib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static uint64_t xs(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* OUT for writing ("-": standard output, a pipe made 1 MiB wide where the
 * system allows: fewer wake-ups); -1 after saying why. */
static int open_out(const char *out)
{
	int fd = strcmp(out, "-") == 0 ? 1 : open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(out);
		return -1;
	}
#ifdef F_SETPIPE_SZ
	(void)fcntl(fd, F_SETPIPE_SZ, 1 << 20); /* may fail */
#endif
	return fd;
}

/* An SWO capture as the DWT writes it (bare ITM, docs/swo.md): N periodic
 * PC samples (5-byte packets, random PCs over the code as gen-dump),
 * every 64th sample followed by a local timestamp (3 bytes), every 512th
 * sample inside an exception (entry and return, 3 bytes each), a sync
 * every 4096 samples; no overflow. */
static int gen_swo(const char *out, uint64_t n, uint64_t seed)
{
	int fd = open_out(out);
	if (fd < 0)
		return 1;
	enum { CH = 1 << 18 };
	unsigned char *buf = malloc(CH * 24); /* at most 20 bytes a sample */
	uint64_t s = seed ? seed : 88172645463325252ull, done = 0;
	while (done < n) {
		size_t k = n - done < CH ? (size_t)(n - done) : CH, m = 0;
		for (size_t i = 0; i < k; i++, done++) {
			uint32_t pc = (BASE + (uint32_t)(((xs(&s) >> 32) * SPAN) >> 32)) & ~1u;
			if (done % 4096 == 0) {
				memset(buf + m, 0, 5);
				buf[m + 5] = 0x80;
				m += 6;
			}
			if (done % 512 == 0) { /* enter exception 44 */
				buf[m++] = 0x0e, buf[m++] = 44, buf[m++] = 0x10;
			}
			buf[m++] = 0x17;
			buf[m++] = (unsigned char)pc;
			buf[m++] = (unsigned char)(pc >> 8);
			buf[m++] = (unsigned char)(pc >> 16);
			buf[m++] = (unsigned char)(pc >> 24);
			if (done % 512 == 0) { /* return to thread mode */
				buf[m++] = 0x0e, buf[m++] = 0, buf[m++] = 0x30;
			}
			if (done % 64 == 63) { /* local timestamp: 1000 ticks */
				buf[m++] = 0xc0, buf[m++] = 0x80 | (1000 & 0x7f), buf[m++] = 1000 >> 7;
			}
		}
		if (write_all(fd, buf, m)) {
			perror("write");
			return 1;
		}
	}
	free(buf);
	if (fd != 1)
		close(fd);
	return 0;
}

static int gen_dump(const char *out, uint64_t n, uint64_t seed)
{
	int fd = open_out(out);
	if (fd < 0)
		return 1;
	enum { CH = 1 << 20 };
	unsigned char *buf = malloc(CH * 4);
	uint64_t s = seed ? seed : 88172645463325252ull;
	while (n) {
		size_t k = n < CH ? (size_t)n : CH;
		for (size_t i = 0; i < k; i++) {
			uint32_t pc = BASE + (uint32_t)(((xs(&s) >> 32) * SPAN) >> 32);
			buf[4 * i] = (unsigned char)pc;
			buf[4 * i + 1] = (unsigned char)(pc >> 8);
			buf[4 * i + 2] = (unsigned char)(pc >> 16);
			buf[4 * i + 3] = (unsigned char)(pc >> 24);
		}
		if (write_all(fd, buf, k * 4)) {
			perror("write");
			return 1;
		}
		n -= k;
	}
	free(buf);
	if (fd != 1)
		close(fd);
	return 0;
}

static int gen_loops(const char *out, uint64_t n, uint64_t seed)
{
	int fd = strcmp(out, "-") == 0 ? 1 : open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(out);
		return 1;
	}
	enum { CH = 1 << 20, HOT = 64 };
	unsigned char *buf = malloc(CH * 4);
	uint64_t s = seed ? seed : 0x9E3779B97F4A7C15ull;
	uint32_t hot[HOT];
	for (int i = 0; i < HOT; i++)
		hot[i] = (uint32_t)(((xs(&s) >> 32) * (SPAN - 256)) >> 32) & ~3u;
	size_t k = 0;
	uint64_t loops = 0;
	while (n) {
		/* skewed choice: u^3 favours the first places */
		double u = (double)(xs(&s) >> 11) / 9007199254740992.0;
		int h = (int)(u * u * u * HOT);
		uint32_t start = BASE + hot[h];
		unsigned body = 8 + (unsigned)(xs(&s) % 57);
		unsigned iters = 10 + (unsigned)(xs(&s) % 991);
		for (unsigned it = 0; it < iters && n; it++)
			for (unsigned b = 0; b < body && n; b++, n--) {
				uint32_t pc = start + 4 * b;
				buf[4 * k] = (unsigned char)pc;
				buf[4 * k + 1] = (unsigned char)(pc >> 8);
				buf[4 * k + 2] = (unsigned char)(pc >> 16);
				buf[4 * k + 3] = (unsigned char)(pc >> 24);
				if (++k == CH) {
					if (write_all(fd, buf, k * 4)) {
						perror("write");
						return 1;
					}
					k = 0;
				}
			}
		if (++loops % 16 == 0) /* drift: one place moves */
			hot[xs(&s) % HOT] = (uint32_t)(((xs(&s) >> 32) * (SPAN - 256)) >> 32) & ~3u;
	}
	if (k && write_all(fd, buf, k * 4)) {
		perror("write");
		return 1;
	}
	free(buf);
	if (fd != 1)
		close(fd);
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : (x > y);
}

static void put(unsigned char **p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		*(*p)++ = (unsigned char)(v >> (8 * i));
}

/* ELF64 LE x86-64: .text (NOBITS, AX, the span), .symtab, .strtab, .shstrtab. */
static int gen_elf(const char *out, size_t m, uint64_t seed)
{
	uint64_t s = seed ? seed : 0x2545F4914F6CDD1Dull;
	uint32_t *a = malloc(m * sizeof *a);
	size_t k = 0;
	a[k++] = 0;
	while (k < m) {
		for (size_t i = k; i < m; i++)
			a[i] = (uint32_t)(xs(&s) % SPAN);
		qsort(a, m, sizeof *a, cmp_u32);
		size_t j = 1;
		for (size_t i = 1; i < m; i++)
			if (a[i] != a[j - 1])
				a[j++] = a[i];
		k = j;
	}
	static const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
	size_t strsz = 1 + m * 12, symsz = (m + 1) * 24;
	size_t off_sym = 64, off_str = off_sym + symsz, off_shs = off_str + strsz;
	size_t off_sh = (off_shs + sizeof shstr + 7) & ~(size_t)7;
	size_t total = off_sh + 5 * 64;
	unsigned char *img = calloc(1, total), *p;
	memcpy(img, "\177ELF\2\1\1", 7);
	p = img + 16;
	put(&p, 2, 2);       /* ET_EXEC */
	put(&p, 62, 2);      /* EM_X86_64 */
	put(&p, 1, 4);
	put(&p, BASE, 8);    /* entry */
	put(&p, 0, 8);       /* phoff */
	put(&p, off_sh, 8);
	put(&p, 0, 4);
	put(&p, 64, 2);
	put(&p, 0, 2);
	put(&p, 0, 2);
	put(&p, 64, 2);
	put(&p, 5, 2);
	put(&p, 4, 2);
	char *str = (char *)img + off_str;
	size_t so = 1;
	p = img + off_sym + 24;
	for (size_t i = 0; i < m; i++) {
		int l = snprintf(str + so, 12, "f%zu", i);
		put(&p, so, 4);
		*p++ = 0x12; /* GLOBAL FUNC */
		*p++ = 0;
		put(&p, 1, 2);
		put(&p, BASE + a[i], 8);
		put(&p, 0, 8);
		so += (size_t)l + 1;
	}
	memcpy(img + off_shs, shstr, sizeof shstr);
	p = img + off_sh + 64;
	/* name type flags addr off size link info align entsize */
	uint64_t sh[4][10] = {
		{1, 8, 6, BASE, 0, SPAN, 0, 0, 16, 0},
		{7, 2, 0, 0, off_sym, symsz, 3, 1, 8, 24},
		{15, 3, 0, 0, off_str, so, 0, 0, 1, 0},
		{23, 3, 0, 0, off_shs, sizeof shstr, 0, 0, 1, 0}};
	for (int i = 0; i < 4; i++) {
		put(&p, sh[i][0], 4);
		put(&p, sh[i][1], 4);
		put(&p, sh[i][2], 8);
		put(&p, sh[i][3], 8);
		put(&p, sh[i][4], 8);
		put(&p, sh[i][5], 8);
		put(&p, sh[i][6], 4);
		put(&p, sh[i][7], 4);
		put(&p, sh[i][8], 8);
		put(&p, sh[i][9], 8);
	}
	FILE *f = fopen(out, "wb");
	if (!f || fwrite(img, 1, total, f) != total || fclose(f)) {
		perror(out);
		return 1;
	}
	free(img);
	free(a);
	return 0;
}

static int read_floor(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	enum { CH = 4 << 20 };
	unsigned char *buf = malloc(CH);
	uint64_t sum = 0, n = 0;
	double t = now();
	for (;;) {
		ssize_t r = read(fd, buf, CH);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (ssize_t i = 0; i + 4 <= r; i += 4)
			sum += (uint32_t)buf[i] | (uint32_t)buf[i + 1] << 8 |
			       (uint32_t)buf[i + 2] << 16 | (uint32_t)buf[i + 3] << 24;
		n += (uint64_t)r / 4;
	}
	t = now() - t;
	close(fd);
	free(buf);
	printf("samples %" PRIu64 "\nchecksum %" PRIu64 "\nseconds %.4f\nns_per_sample %.3f\npeak_rss_kib %ld\n",
	       n, sum, t, t * 1e9 / (double)n, peak_rss_kib());
	return 0;
}

/* The same sum over 4 MiB windows mapped with mmap, one after the other:
 * how profcat reads a large dump (no copy into a buffer). */
static int map_floor(const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) != 0) {
		perror(path);
		return 1;
	}
	const size_t W = (size_t)4 << 20;
	uint64_t sum = 0, n = 0, size = (uint64_t)sb.st_size;
	double t = now();
	for (uint64_t off = 0; off + 4 <= size; off += W) {
		size_t len = size - off < W ? (size_t)(size - off) : W;
		const unsigned char *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, (off_t)off);
		if (m == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		madvise((void *)m, len, MADV_SEQUENTIAL);
		for (size_t i = 0; i + 4 <= len; i += 4)
			sum += (uint32_t)m[i] | (uint32_t)m[i + 1] << 8 |
			       (uint32_t)m[i + 2] << 16 | (uint32_t)m[i + 3] << 24;
		n += len / 4;
		munmap((void *)m, len);
	}
	t = now() - t;
	close(fd);
	printf("samples %" PRIu64 "\nchecksum %" PRIu64 "\nseconds %.4f\nns_per_sample %.3f\npeak_rss_kib %ld\n",
	       n, sum, t, t * 1e9 / (double)n, peak_rss_kib());
	return 0;
}

/* A profile with the thread count of PROFCORE_THREADS (as profcat's). */
static int new_profile(pc_profile **p)
{
	if (pc_profile_new(p, NULL)) {
		fprintf(stderr, "pcbench: %s\n", pc_last_error()->message);
		return 1;
	}
	const char *e = getenv("PROFCORE_THREADS");
	long n = e && *e ? strtol(e, NULL, 10) : 0;
	if (n < 0)
		n = 0;
	pc_profile_set_threads(*p, n > PC_MAX_THREADS ? PC_MAX_THREADS
						     : (unsigned)n);
	return 0;
}

static int attrib(const char *elf, const char *dump)
{
	pc_profile *p;
	if (new_profile(&p))
		return 1;
	pc_options *o;
	if (pc_options_new(&o)) {
		fprintf(stderr, "pcbench: %s\n", pc_last_error()->message);
		return 1;
	}
	if (pc_profile_load_file(p, elf, "elf", NULL)) {
		fprintf(stderr, "pcbench: %s\n", pc_profile_error(p)->message);
		return 1;
	}
	double c = cpu_seconds();
	double t = now();
	if (pc_profile_load_file(p, dump, "raw", o)) {
		fprintf(stderr, "pcbench: %s\n", pc_profile_error(p)->message);
		return 1;
	}
	double tl = now() - t;
	if (pc_profile_attribute(p, NULL))
		return 1;
	t = now() - t;
	c = cpu_seconds() - c;
	pc_totals tot;
	pc_profile_totals(&tot, p);
	uint64_t sum = 0;
	size_t nrows;
	if (pc_profile_row_count(&nrows, p))
		return 1;
	for (size_t i = 0; i < nrows; i++) {
		pc_row r;
		pc_profile_row_at(&r, p, i);
		sum = sum * 1000003u + (uint64_t)r.count;
	}
	printf("samples %.0f\nrows %zu\nchecksum %" PRIu64 "\nload_seconds %.4f\nseconds %.4f\nns_per_sample %.3f\ncpu_seconds %.4f\ncpu_ns_per_sample %.3f\npeak_rss_kib %ld\n",
	       tot.total, nrows, sum, tl, t, t * 1e9 / tot.total,
	       c, c * 1e9 / tot.total, peak_rss_kib());
	pc_options_free(o);
	pc_profile_free(p);
	return 0;
}

/*
 * Why spawn: a child's ru_maxrss includes whatever its address space held
 * before exec.  Python starts children with vfork, so every figure it reads
 * from wait4 is at least Python's own RSS (13 MiB at start, far more after
 * it has buffered output).  Forked from this small process instead, the
 * pre-exec part is pcbench's own few MiB, below anything measured here.
 */
static int load_only(const char *fmt, const char *path)
{
	long rss0 = peak_rss_kib();
	double c0 = cpu_seconds();
	pc_profile *p;
	if (new_profile(&p))
		return 1;
	if (pc_profile_load_file(p, path, strcmp(fmt, "-") ? fmt : NULL, NULL)) {
		fprintf(stderr, "pcbench: %s\n", pc_profile_error(p)->message);
		return 1;
	}
	size_t nsym = pc_profile_symbol_count(p);
	size_t ndist = pc_profile_sample_count(p); /* sorts the samples */
	double c = cpu_seconds() - c0;
	long rss = peak_rss_kib();
	double grown = (double)(rss - rss0) * 1024.0;
	printf("cpu_s %.3f\npeak_rss_kib %ld\nsymbols %zu\ndistinct %zu\n", c, rss,
	       nsym, ndist);
	if (nsym)
		printf("bytes_per_symbol %.1f\n", grown / (double)nsym);
	if (ndist)
		printf("bytes_per_distinct %.1f\n", grown / (double)ndist);
	pc_profile_free(p);
	return 0;
}

static int spawn(int fd, char **cmd)
{
	/* wall time from the fork to the end of the wait: the command's
	 * own, without the starting of this process by the caller (Python's
	 * Popen costs a few milliseconds, a tenth of a 30 ms run) */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0) {
		perror("pcbench: fork");
		return 125;
	}
	if (pid == 0) {
		close(fd);
		execvp(cmd[0], cmd);
		fprintf(stderr, "pcbench: %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	int status;
	struct rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("pcbench: wait4");
			return 125;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	char line[128];
	int n = snprintf(line, sizeof line, "peak_rss_kib %ld\ncpu_s %.4f\nwall_s %.6f\n",
			 ru.ru_maxrss,
			 (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
				 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6,
			 (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
	if (write_all(fd, line, (size_t)n) < 0) {
		perror("pcbench: spawn result");
		return 125;
	}
	close(fd);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "spawn") == 0)
		return spawn(atoi(argv[2]), argv + 3);
	if (argc >= 4 && strcmp(argv[1], "gen-dump") == 0)
		return gen_dump(argv[2], strtoull(argv[3], NULL, 0),
				argc > 4 ? strtoull(argv[4], NULL, 0) : 0);
	if (argc >= 4 && strcmp(argv[1], "gen-swo") == 0)
		return gen_swo(argv[2], strtoull(argv[3], NULL, 0),
			       argc > 4 ? strtoull(argv[4], NULL, 0) : 0);
	if (argc >= 4 && strcmp(argv[1], "gen-loops") == 0)
		return gen_loops(argv[2], strtoull(argv[3], NULL, 0),
				 argc > 4 ? strtoull(argv[4], NULL, 0) : 0);
	if (argc >= 4 && strcmp(argv[1], "gen-elf") == 0)
		return gen_elf(argv[2], strtoull(argv[3], NULL, 0),
			       argc > 4 ? strtoull(argv[4], NULL, 0) : 0);
	if (argc == 3 && strcmp(argv[1], "read") == 0)
		return read_floor(argv[2]);
	if (argc == 3 && strcmp(argv[1], "map") == 0)
		return map_floor(argv[2]);
	if (argc == 4 && strcmp(argv[1], "load") == 0)
		return load_only(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "attrib") == 0)
		return attrib(argv[2], argv[3]);
	fprintf(stderr, "usage: pcbench gen-dump OUT N [SEED] | gen-swo OUT N [SEED] | gen-elf OUT M [SEED] | read FILE | map FILE | attrib ELF DUMP | spawn FD CMD...\n");
	return 2;
}
