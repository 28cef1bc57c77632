/* platform.c - POSIX and Windows versions of the services in platform.h. */
#include "platform.h"
#include "pc_config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)

#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#include <windows.h>

unsigned pc_plat_cpu_count(void)
{
	SYSTEM_INFO si;
	GetSystemInfo(&si);
	return si.dwNumberOfProcessors ? (unsigned)si.dwNumberOfProcessors : 1u;
}

int pc_plat_open_read(const char *path)
{
	return _open(path, _O_RDONLY | _O_BINARY);
}

void pc_plat_binary_fd(int fd)
{
	_setmode(fd, _O_BINARY);
}

int pc_plat_open_regular(const char *path)
{
	int fd = _open(path, _O_RDONLY | _O_BINARY);
	if (fd < 0)
		return -1;
	struct _stat64 sb;
	if (_fstat64(fd, &sb) != 0 || !(sb.st_mode & _S_IFREG)) {
		_close(fd);
		return -2;
	}
	return fd;
}

char *pc_plat_realpath(const char *path)
{
	char *r = _fullpath(NULL, path, 0);
	if (r && _access(r, 0) != 0) {
		free(r);
		errno = ENOENT;
		return NULL;
	}
	return r;
}

int pc_plat_is_terminal(int fd)
{
	return _isatty(fd) != 0;
}

/* A path in the process's ANSI code page (as argv and fopen take it) as a
 * wide string for the ...W functions; NULL if out of memory. */
static wchar_t *widen(const char *s)
{
	int n = MultiByteToWideChar(CP_ACP, 0, s, -1, NULL, 0);
	wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;
	if (w && MultiByteToWideChar(CP_ACP, 0, s, -1, w, n) <= 0) {
		free(w);
		w = NULL;
	}
	return w;
}

/* errno for the calling thread's last Windows error. */
static void set_errno_from_win(void)
{
	switch (GetLastError()) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND: errno = ENOENT; break;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION: errno = EACCES; break;
	case ERROR_NOT_ENOUGH_MEMORY: errno = ENOMEM; break;
	case ERROR_DISK_FULL: errno = ENOSPC; break;
	default: errno = EIO; break;
	}
}

#if PC_HAVE_PLUGINS
void *pc_plat_dl_open(const char *path, char *why, size_t whylen)
{
	wchar_t *w = widen(path);
	HMODULE h = w ? LoadLibraryW(w) : NULL;
	DWORD e = w ? GetLastError() : ERROR_NOT_ENOUGH_MEMORY;
	free(w);
	if (!h) {
		char msg[256];
		DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
					 NULL, e, 0, msg, sizeof msg, NULL);
		while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r' || msg[n - 1] == '.'))
			msg[--n] = '\0';
		if (n)
			snprintf(why, whylen, "%s (error %lu)", msg, (unsigned long)e);
		else
			snprintf(why, whylen, "LoadLibrary error %lu", (unsigned long)e);
	}
	return (void *)h;
}

void *pc_plat_dl_sym(void *handle, const char *name)
{
	FARPROC f = GetProcAddress((HMODULE)handle, name);
	void *p;
	memcpy(&p, &f, sizeof p);
	return p;
}

void pc_plat_dl_close(void *handle)
{
	FreeLibrary((HMODULE)handle);
}
#endif /* PC_HAVE_PLUGINS */

int pc_plat_same_file(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return 1;
	int same = 0;
	HANDLE h[2];
	const char *p[2] = {a, b};
	BY_HANDLE_FILE_INFORMATION fi[2];
	for (int i = 0; i < 2; i++) {
		wchar_t *w = widen(p[i]);
		h[i] = w ? CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
				       NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL)
			 : INVALID_HANDLE_VALUE;
		free(w);
	}
	if (h[0] != INVALID_HANDLE_VALUE && h[1] != INVALID_HANDLE_VALUE &&
	    GetFileInformationByHandle(h[0], &fi[0]) && GetFileInformationByHandle(h[1], &fi[1]))
		same = fi[0].dwVolumeSerialNumber == fi[1].dwVolumeSerialNumber &&
		       fi[0].nFileIndexHigh == fi[1].nFileIndexHigh &&
		       fi[0].nFileIndexLow == fi[1].nFileIndexLow;
	for (int i = 0; i < 2; i++)
		if (h[i] != INVALID_HANDLE_VALUE)
			CloseHandle(h[i]);
	return same;
}

/* Creates the file "PATH.XXXXXX" names, with a unique suffix, for writing
 * (binary mode); the descriptor, or -1 with errno set. */
static int create_temp(char *name, size_t n)
{
	for (unsigned tries = 0; tries < 100; tries++) {
		memcpy(name + n - 7, "XXXXXX", 7);
		if (_mktemp_s(name, n) != 0)
			break;
		int fd = _open(name, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY,
			       _S_IREAD | _S_IWRITE);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

int pc_plat_sync(FILE *f)
{
	return fflush(f) == 0 && _commit(_fileno(f)) == 0 ? 0 : -1;
}

const char *pc_plat_not_regular(const char *path)
{
	wchar_t *w = widen(path);
	DWORD a = w ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
	free(w);
	if (a == INVALID_FILE_ATTRIBUTES)
		return NULL;
	if (a & FILE_ATTRIBUTE_REPARSE_POINT)
		return "a symbolic link or junction";
	if (a & FILE_ATTRIBUTE_DIRECTORY)
		return "a directory";
	if (a & FILE_ATTRIBUTE_DEVICE)
		return "a device";
	return NULL;
}

void pc_plat_temp_release(void)
{
}

void pc_plat_no_sigpipe(void)
{
}

long long pc_plat_pread(int fd, void *buf, size_t n, long long off)
{
	__int64 was = _lseeki64(fd, 0, SEEK_CUR);
	if (was < 0 || _lseeki64(fd, off, SEEK_SET) < 0)
		return -1;
	int got = _read(fd, buf, n > 1u << 30 ? 1u << 30 : (unsigned)n);
	int e = errno;
	if (_lseeki64(fd, was, SEEK_SET) < 0)
		return -1;
	errno = e;
	return got;
}

void pc_plat_sleep_ms(unsigned ms)
{
	Sleep(ms);
}

int pc_plat_replace(const char *tmp, const char *path)
{
	wchar_t *wt = widen(tmp), *wp = widen(path);
	BOOL ok = wt && wp &&
		  MoveFileExW(wt, wp, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);
	if (!ok) {
		if (wt && wp)
			set_errno_from_win();
		else
			errno = ENOMEM;
	}
	free(wt);
	free(wp);
	return ok ? 0 : -1;
}

#else /* POSIX */

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if PC_HAVE_PLUGINS || PC_HAVE_DLOPEN
#include <dlfcn.h>
#endif

unsigned pc_plat_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)(n > 0xffff ? 0xffff : n) : 1u;
}

int pc_plat_open_read(const char *path)
{
	return open(path, O_RDONLY);
}

void pc_plat_binary_fd(int fd)
{
	(void)fd;
}

int pc_plat_open_regular(const char *path)
{
	/* O_NONBLOCK: opening a FIFO (or a terminal) does not wait for a
	 * writer; anything but a regular file is closed again unread */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	struct stat sb;
	int fl;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		close(fd);
		return -2;
	}
	return fd;
}

char *pc_plat_realpath(const char *path)
{
	return realpath(path, NULL);
}

int pc_plat_is_terminal(int fd)
{
	return isatty(fd) != 0;
}

#if PC_HAVE_PLUGINS
void *pc_plat_dl_open(const char *path, char *why, size_t whylen)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(why, whylen, "%s", e ? e : "dlopen failed");
	}
	return h;
}

void *pc_plat_dl_sym(void *handle, const char *name)
{
	return dlsym(handle, name);
}

void pc_plat_dl_close(void *handle)
{
	dlclose(handle);
}
#endif /* PC_HAVE_PLUGINS */

#if PC_HAVE_DLOPEN
void *pc_plat_lib_open(const char *soname, const pc_plat_sym *syms, size_t n, void *table,
		       char *why, size_t whylen)
{
	int flags = RTLD_NOW | RTLD_LOCAL;
#ifdef RTLD_NODELETE
	/* mapped to the end once opened: the next open costs no relocation */
	flags |= RTLD_NODELETE;
#endif
	void *h = dlopen(soname, flags);
	if (!h) {
		const char *e = dlerror();
		snprintf(why, whylen, "%s", e ? e : "dlopen failed");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		/* POSIX: a function's address fits a void * and back */
		void *f = dlsym(h, syms[i].name);
		if (!f) {
			snprintf(why, whylen, "%s: no function %s", soname, syms[i].name);
			dlclose(h);
			return NULL;
		}
		memcpy((char *)table + syms[i].offset, &f, sizeof f);
	}
	return h;
}

void pc_plat_lib_close(void *handle)
{
	dlclose(handle);
}
#endif /* PC_HAVE_DLOPEN */

int pc_plat_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!strcmp(a, b))
		return 1;
	if (stat(a, &sa) || stat(b, &sb))
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

const char *pc_plat_not_regular(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
		return NULL;
	if (S_ISLNK(st.st_mode))
		return "a symbolic link";
	if (S_ISFIFO(st.st_mode))
		return "a FIFO";
	if (S_ISCHR(st.st_mode))
		return "a character device";
	if (S_ISBLK(st.st_mode))
		return "a block device";
	if (S_ISDIR(st.st_mode))
		return "a directory";
	if (S_ISSOCK(st.st_mode))
		return "a socket";
	return "not a regular file";
}

long long pc_plat_pread(int fd, void *buf, size_t n, long long off)
{
	return pread(fd, buf, n, (off_t)off);
}

#if PC_PLAT_CLI
/* The temporary file a signal removes: set while signals are blocked.
 * profcat's state only: the library has no mutable globals (the file
 * helpers are compiled into profcat with PC_PLAT_CLI=1). */
static char *volatile guarded_name;
static const int guarded_sig[3] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction guarded_old[3];

static void on_signal(int sig)
{
	char *name = guarded_name;
	if (name)
		unlink(name);
	/* end as the signal would have: default action, raised again */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void temp_guard(char *name)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaddset(&sa.sa_mask, guarded_sig[i]);
	guarded_name = name;
	for (int i = 0; i < 3; i++) {
		sigaction(guarded_sig[i], NULL, &guarded_old[i]);
		/* a signal the caller ignores (nohup) stays ignored */
		if (guarded_old[i].sa_handler != SIG_IGN)
			sigaction(guarded_sig[i], &sa, NULL);
	}
}

void pc_plat_temp_release(void)
{
	sigset_t all, old;
	sigemptyset(&all);
	for (int i = 0; i < 3; i++)
		sigaddset(&all, guarded_sig[i]);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (guarded_name) {
		guarded_name = NULL;
		for (int i = 0; i < 3; i++)
			sigaction(guarded_sig[i], &guarded_old[i], NULL);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void pc_plat_no_sigpipe(void)
{
	signal(SIGPIPE, SIG_IGN);
}

void pc_plat_sleep_ms(unsigned ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* Creates the temporary file and arms the signal guard with signals
 * blocked in between, so that no signal can leave the file behind. */
static int create_temp(char *name, size_t n)
{
	(void)n;
	sigset_t all, old;
	sigemptyset(&all);
	for (int i = 0; i < 3; i++)
		sigaddset(&all, guarded_sig[i]);
	sigprocmask(SIG_BLOCK, &all, &old);
	int fd = mkstemp(name);
	if (fd >= 0)
		temp_guard(name);
	int e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}
#else
void pc_plat_temp_release(void)
{
}

void pc_plat_no_sigpipe(void)
{
}

void pc_plat_sleep_ms(unsigned ms)
{
	(void)ms;
}

static int create_temp(char *name, size_t n)
{
	(void)n;
	return mkstemp(name);
}
#endif

int pc_plat_sync(FILE *f)
{
	return fflush(f) == 0 && fsync(fileno(f)) == 0 ? 0 : -1;
}

int pc_plat_replace(const char *tmp, const char *path)
{
	/* mkstemp made the file 0600: a report replacing a regular file gets
	 * its permissions (and owner and group where allowed: root, or a group
	 * the user is in); a new one the usual 0666 & ~umask */
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		if (chown(tmp, st.st_uid, st.st_gid) != 0)
			(void)!chown(tmp, (uid_t)-1, st.st_gid);
		(void)chmod(tmp, st.st_mode & 0777);
	} else {
		mode_t um = umask(0);
		umask(um);
		(void)chmod(tmp, 0666 & ~um);
	}
	return rename(tmp, path);
}

#endif

#if !PC_HAVE_PLUGINS
void *pc_plat_dl_open(const char *path, char *why, size_t whylen)
{
	(void)path;
	snprintf(why, whylen, "this libprofcore was built without plugin support");
	return NULL;
}

void *pc_plat_dl_sym(void *handle, const char *name)
{
	(void)handle;
	(void)name;
	return NULL;
}

void pc_plat_dl_close(void *handle)
{
	(void)handle;
}
#endif

FILE *pc_plat_temp_beside(const char *path, char **tmp)
{
	size_t n = strlen(path) + 8;
	char *name = malloc(n);
	if (!name) {
		errno = ENOMEM;
		return NULL;
	}
	snprintf(name, n, "%s.XXXXXX", path);
	int fd = create_temp(name, n);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
	if (!f) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(name);
			pc_plat_temp_release();
		}
		free(name);
		errno = e;
		return NULL;
	}
	*tmp = name;
	return f;
}

/* ---- big arrays written at once --------------------------------------- */
#include <stdint.h>
#if !defined(_WIN32)
#include <sys/mman.h>
#endif

void pc_plat_advise_bulk(void *p, size_t n)
{
#if !defined(_WIN32) && defined(MADV_HUGEPAGE)
	const uintptr_t huge = (uintptr_t)2 << 20;
	/* the whole 2 MiB pages inside [p, p + n) (transparent huge pages
	 * where the system offers them on request: one fault a huge page,
	 * not 512); advice only, so a refusal changes nothing */
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(huge - 1);
	if (p && n >= 2 * huge && e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#endif
#if !defined(_WIN32) && defined(MADV_POPULATE_WRITE)
	/* and every page of it mapped now, in one call (Linux 5.14): no page
	 * fault per page while it is written */
	long pg = sysconf(_SC_PAGESIZE);
	if (p && pg > 0 && n >= ((size_t)1 << 20)) {
		uintptr_t ps = (uintptr_t)pg;
		uintptr_t b = ((uintptr_t)p + ps - 1) & ~(ps - 1);
		uintptr_t f = ((uintptr_t)p + n) & ~(ps - 1);
		if (f > b)
			(void)madvise((void *)b, f - b, MADV_POPULATE_WRITE);
	}
#endif
#if defined(_WIN32) || !(defined(MADV_HUGEPAGE) || defined(MADV_POPULATE_WRITE))
	(void)p;
	(void)n;
#endif
}

char *pc_plat_last_sep(char *path)
{
	char *slash = strrchr(path, '/');
#if defined(_WIN32)
	char *back = strrchr(path, '\\');
	if (back && (!slash || back > slash))
		slash = back;
#endif
	return slash;
}
