/*
 * platform.h - the few operating-system services profcore needs that
 * differ between POSIX and Windows (libprofcore/platform.c).  Everything
 * else is ISO C.  Compiled into libprofcore (hidden) and, for the file
 * helpers, into profcat too.  Paths are passed through as given, so error
 * messages name a file exactly as the user spelled it.
 */
#ifndef PC_PLATFORM_H
#define PC_PLATFORM_H

#include <stddef.h>
#include <stdio.h>

#if defined(_WIN32)
#define PC_PLAT_INTERNAL
#define PC_PLAT_PATH_LIST_SEP ';' /* ':' is part of a drive letter */
#define PC_PLAT_PLUGIN_SUFFIX ".dll"
#else
#define PC_PLAT_INTERNAL __attribute__((visibility("hidden")))
#define PC_PLAT_PATH_LIST_SEP ':'
#define PC_PLAT_PLUGIN_SUFFIX ".so"
#endif

/** Processors online (at least 1). */
PC_PLAT_INTERNAL unsigned pc_plat_cpu_count(void);

/** open(path) for reading, in binary mode; -1 with errno set on failure. */
PC_PLAT_INTERNAL int pc_plat_open_read(const char *path);
/** Puts an open descriptor (0 for stdin) into binary mode: no CRLF or ^Z
 *  translation on Windows; nothing to do elsewhere. */
PC_PLAT_INTERNAL void pc_plat_binary_fd(int fd);
/** Opens path for reading without waiting on a FIFO or a device: the
 *  descriptor of a regular file (in blocking mode), -1 (errno set) when
 *  it cannot be opened, -2 when it is no regular file (closed unread). */
PC_PLAT_INTERNAL int pc_plat_open_regular(const char *path);
/** path made absolute, with ".", ".." and symbolic links resolved
 *  (Windows: _fullpath); malloc'd; NULL (errno set) when it does not
 *  exist. */
PC_PLAT_INTERNAL char *pc_plat_realpath(const char *path);
/** The last directory separator in path ('/', and on Windows '\\' too,
 *  which _fullpath writes), or NULL. */
PC_PLAT_INTERNAL char *pc_plat_last_sep(char *path);

/* ---- run-time plugins -------------------------------------------------- */
/** Loads a shared library; NULL on failure with a reason written to why. */
PC_PLAT_INTERNAL void *pc_plat_dl_open(const char *path, char *why, size_t whylen);
PC_PLAT_INTERNAL void *pc_plat_dl_sym(void *handle, const char *name);
PC_PLAT_INTERNAL void pc_plat_dl_close(void *handle);

/* ---- libraries opened at their first use (PC_HAVE_DLOPEN: POSIX) ------- */
/** One function taken from such a library: its name, and where its address
 *  goes: the offset of a function pointer member in the caller's table. */
typedef struct pc_plat_sym {
	const char *name;
	size_t offset;
} pc_plat_sym;
/** Opens the shared library soname (dlopen: searched for as a NEEDED
 *  entry is) and stores the address of each of the n functions syms[] in
 *  table: its handle, or NULL with the reason in why (dlerror's text, or
 *  "SONAME: no function NAME") and nothing left open.  Each open is
 *  closed with pc_plat_lib_close; the library stays mapped after the last
 *  close where the system can (RTLD_NODELETE), so that opening it again
 *  is cheap. */
PC_PLAT_INTERNAL void *pc_plat_lib_open(const char *soname, const pc_plat_sym *syms, size_t n,
					void *table, char *why, size_t whylen);
PC_PLAT_INTERNAL void pc_plat_lib_close(void *handle);

/* ---- atomic file replacement (profcat -o) ------------------------------ */
/** 1 if a and b name the same existing file (same path, or same device
 *  and file index / inode). */
PC_PLAT_INTERNAL int pc_plat_same_file(const char *a, const char *b);
/** NULL when path does not exist or is a regular file (profcat -o may
 *  replace it), else what it is ("a symbolic link", "a FIFO", "a character
 *  device", "a directory", ...): profcat refuses to replace those.  A
 *  symbolic link is refused, not followed (lstat). */
PC_PLAT_INTERNAL const char *pc_plat_not_regular(const char *path);
/** 1 if file descriptor fd is a terminal (isatty, _isatty). */
PC_PLAT_INTERNAL int pc_plat_is_terminal(int fd);
/** Creates a new, empty temporary file beside path ("PATH.XXXXXX") for
 *  writing in binary mode; returns the open stream and the temporary name
 *  (malloc'd, in *tmp), or NULL with errno set.  Until
 *  pc_plat_temp_release(), SIGINT, SIGTERM and SIGHUP remove the temporary
 *  file before ending the process (POSIX; SIGKILL cannot be caught). */
PC_PLAT_INTERNAL FILE *pc_plat_temp_beside(const char *path, char **tmp);
/** The temporary file is renamed or removed: signals no longer touch it
 *  and their previous handling is back. */
PC_PLAT_INTERNAL void pc_plat_temp_release(void);
/** A write to a closed pipe fails with EPIPE instead of killing the
 *  process with SIGPIPE (POSIX; nothing to do on Windows). */
PC_PLAT_INTERNAL void pc_plat_no_sigpipe(void);
/** Reads up to n bytes at byte offset off of fd without moving its file
 *  position (pread; on Windows a seek there and back): the count read,
 *  or -1 with errno set. */
PC_PLAT_INTERNAL long long pc_plat_pread(int fd, void *buf, size_t n, long long off);
/** Sleeps about ms milliseconds (test hooks only). */
PC_PLAT_INTERNAL void pc_plat_sleep_ms(unsigned ms);
/** Flushes f and its data to the disk (fsync / _commit); 0 or -1. */
PC_PLAT_INTERNAL int pc_plat_sync(FILE *f);
/** Gives tmp the permissions (and, where allowed, the owner and group) of
 *  the regular file path it replaces, or those of a newly created file,
 *  and renames it over path (MoveFileEx REPLACE_EXISTING | WRITE_THROUGH
 *  on Windows); 0, or -1 with errno set. */
PC_PLAT_INTERNAL int pc_plat_replace(const char *tmp, const char *path);

/* ---- big arrays -------------------------------------------------------- */
/** Advice that the n bytes at p (from malloc, not yet written) are about
 *  to be written at once: the whole 2 MiB pages inside them become
 *  transparent huge pages where the system offers them on request
 *  (madvise MADV_HUGEPAGE: one page fault per 2 MiB, not 512); nothing
 *  elsewhere, and nothing for arrays below 4 MiB. */
PC_PLAT_INTERNAL void pc_plat_advise_bulk(void *p, size_t n);

#endif
