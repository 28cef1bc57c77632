/* mingw-compat.h: forced into every elfutils source file (-include) when
 * scripts/cross.sh mingw builds libelf and libdw for Windows.  The POSIX
 * calls that the libraries' read-only paths use, on top of the Windows C
 * runtime; the write paths (elf_update) get working stand-ins too. */
#ifndef PC_SHIM_MINGW_COMPAT_H
#define PC_SHIM_MINGW_COMPAT_H
#ifdef _WIN32
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
/* no GDI: wingdi.h defines RELATIVE, a name in backends/i386_reloc.def */
#define WIN32_LEAN_AND_MEAN
#define NOGDI
#include <windows.h>

/* pread/pwrite: ReadFile/WriteFile at an offset (OVERLAPPED) */
static inline ssize_t pc_shim_prw(int fd, void *buf, size_t n, off_t off, int wr)
{
	HANDLE h = (HANDLE)_get_osfhandle(fd);
	OVERLAPPED ov;
	DWORD done = 0;
	if (h == INVALID_HANDLE_VALUE) {
		errno = EBADF;
		return -1;
	}
	if (n > 0x40000000u)
		n = 0x40000000u;
	memset(&ov, 0, sizeof ov);
	ov.Offset = (DWORD)((unsigned long long)off & 0xffffffffu);
	ov.OffsetHigh = (DWORD)((unsigned long long)off >> 32);
	if (!(wr ? WriteFile(h, buf, (DWORD)n, &done, &ov) : ReadFile(h, buf, (DWORD)n, &done, &ov))) {
		if (!wr && GetLastError() == ERROR_HANDLE_EOF)
			return 0;
		errno = EIO;
		return -1;
	}
	return (ssize_t)done;
}
#define pread(fd, buf, n, off) pc_shim_prw((fd), (buf), (n), (off), 0)
#define pwrite(fd, buf, n, off) pc_shim_prw((fd), (void *)(buf), (n), (off), 1)

#ifndef _SC_PAGESIZE
#define _SC_PAGESIZE 30
#endif
static inline long pc_shim_sysconf(int name) { return name == _SC_PAGESIZE ? 4096 : -1; }
#define sysconf(name) pc_shim_sysconf(name)

/* memory from posix_memalign is released with free() by libelf */
static inline int pc_shim_posix_memalign(void **p, size_t align, size_t n)
{
	(void)align;   /* malloc's 16-byte alignment suffices for ELF data */
	*p = malloc(n ? n : 1);
	return *p ? 0 : ENOMEM;
}
#define posix_memalign(p, a, n) pc_shim_posix_memalign((p), (a), (n))
static inline int pc_shim_posix_fallocate(int fd, off_t off, off_t len)
{
	(void)fd; (void)off; (void)len;
	return 0;
}
#define posix_fallocate(fd, off, len) pc_shim_posix_fallocate((fd), (off), (len))
#define fchmod(fd, mode) ((void)(fd), (void)(mode), 0)
#ifndef S_ISUID
#define S_ISUID 04000
#define S_ISGID 02000
#endif
#ifndef F_GETFD
#define F_GETFD 1
#endif
/* elf_begin checks that a descriptor is open */
#define fcntl(fd, cmd) (_get_osfhandle(fd) == -1 ? (errno = EBADF, -1) : 0)
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef MAP_FIXED
#define MAP_FIXED 0x10
#endif
/* GNU string functions */
static inline char *pc_shim_stpcpy(char *d, const char *s)
{
	size_t n = strlen(s);
	memcpy(d, s, n + 1);
	return d + n;
}
#define stpcpy(d, s) pc_shim_stpcpy((d), (s))
static inline char *pc_shim_stpncpy(char *d, const char *s, size_t n)
{
	size_t l = strnlen(s, n);
	memcpy(d, s, l);
	memset(d + l, 0, n - l);
	return d + l;
}
#define stpncpy(d, s, n) pc_shim_stpncpy((d), (s), (n))
static inline char *pc_shim_strndup(const char *s, size_t n)
{
	size_t l = strnlen(s, n);
	char *r = malloc(l + 1);
	if (r) {
		memcpy(r, s, l);
		r[l] = '\0';
	}
	return r;
}
#define strndup(s, n) pc_shim_strndup((s), (n))
static inline char *pc_shim_strsep(char **sp, const char *delim)
{
	char *s = *sp, *e;
	if (!s)
		return NULL;
	e = s + strcspn(s, delim);
	if (*e) {
		*e = '\0';
		*sp = e + 1;
	} else {
		*sp = NULL;
	}
	return s;
}
#define strsep(sp, d) pc_shim_strsep((sp), (d))
/* GNU basename (string.h): the part after the last separator, never
 * modifying its argument */
static inline char *pc_shim_basename(const char *p)
{
	const char *b = p;
	for (; *p; p++)
		if (*p == '/' || *p == '\\')
			b = p + 1;
	return (char *)b;
}
#define basename(p) pc_shim_basename(p)
/* realpath(path, NULL): the absolute name of an existing file */
static inline char *pc_shim_realpath(const char *p, char *r)
{
	if (r || _access(p, 0) != 0) {
		errno = r ? EINVAL : ENOENT;
		return NULL;
	}
	return _fullpath(NULL, p, 0);
}
#define realpath(p, r) pc_shim_realpath((p), (r))
/* XSI strerror_r */
static inline int pc_shim_strerror_r(int e, char *buf, size_t n)
{
	return strerror_s(buf, n, e) ? EINVAL : 0;
}
#define strerror_r(e, b, n) pc_shim_strerror_r((e), (b), (n))
/* tdestroy for mingw-w64's tsearch (nodes are malloc'd node_t, search.h) */
#define _SEARCH_PRIVATE
#include <search.h>
static inline void pc_shim_tdestroy(void *root, void (*freefn)(void *))
{
	node_t *n = root;
	if (!n)
		return;
	pc_shim_tdestroy(n->llink, freefn);
	pc_shim_tdestroy(n->rlink, freefn);
	freefn(n->key);
	free(n);
}
#define tdestroy(r, f) pc_shim_tdestroy((r), (f))
/* error(3): only libdw's out-of-memory path calls it (and exits) */
static inline void pc_shim_error(int status, int errnum, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	if (status)
		exit(status);
}
#define error pc_shim_error
#define putchar_unlocked(c) putchar(c)
#define fputc_unlocked(c, f) fputc((c), (f))
#define fwrite_unlocked(p, s, n, f) fwrite((p), (s), (n), (f))
#endif
#endif
