/* sys/mman.h for elfutils with mingw-w64 (scripts/cross.sh mingw): no
 * mappings; mmap always fails, and libelf then reads the file (elf_begin
 * falls back to reading when mmap fails) */
#ifndef PC_SHIM_SYS_MMAN_H
#define PC_SHIM_SYS_MMAN_H
#include <errno.h>
#include <stddef.h>
#include <sys/types.h>
#define PROT_NONE 0
#define PROT_READ 1
#define PROT_WRITE 2
#define PROT_EXEC 4
#define MAP_SHARED 1
#define MAP_PRIVATE 2
#define MAP_POPULATE 0
#define MAP_FAILED ((void *)-1)
#define MS_SYNC 4
#define MS_ASYNC 1
#define POSIX_MADV_WILLNEED 3
#define MADV_WILLNEED 3
static inline void *mmap(void *a, size_t l, int p, int f, int fd, off_t o)
{ (void)a; (void)l; (void)p; (void)f; (void)fd; (void)o; errno = ENOSYS; return MAP_FAILED; }
static inline int munmap(void *a, size_t l) { (void)a; (void)l; errno = EINVAL; return -1; }
static inline int msync(void *a, size_t l, int f) { (void)a; (void)l; (void)f; return 0; }
static inline int madvise(void *a, size_t l, int f) { (void)a; (void)l; (void)f; return 0; }
static inline int posix_madvise(void *a, size_t l, int f) { (void)a; (void)l; (void)f; return 0; }
static inline void *mremap(void *a, size_t o, size_t n, int f, ...) { (void)a; (void)o; (void)n; (void)f; errno = ENOSYS; return MAP_FAILED; }
#define MREMAP_MAYMOVE 1
#endif
