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
#include <sys/stat.h>
#include <unistd.h>
#if PC_HAVE_PLUGINS
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

int pc_plat_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!strcmp(a, b))
		return 1;
	if (stat(a, &sa) || stat(b, &sb))
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int create_temp(char *name, size_t n)
{
	(void)n;
	return mkstemp(name);
}

int pc_plat_sync(FILE *f)
{
	return fflush(f) == 0 && fsync(fileno(f)) == 0 ? 0 : -1;
}

int pc_plat_replace(const char *tmp, const char *path)
{
	/* mkstemp made the file 0600: a report gets the usual 0666 & ~umask */
	mode_t um = umask(0);
	umask(um);
	(void)chmod(tmp, 0666 & ~um);
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
		}
		free(name);
		errno = e;
		return NULL;
	}
	*tmp = name;
	return f;
}
