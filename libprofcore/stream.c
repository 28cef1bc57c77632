/* stream.c - bounded input streams: plain files, memory, and their gzip,
 * xz or zstd compressed forms.
 *
 * Content is read through one buffer; compressed content is recognised by
 * its magic bytes, never by the file name, and decoded on the fly
 * (decomp.c) with a limit on the decompressed size.  Offsets are content
 * offsets.
 */
#include "decomp.h"
#include "pc_base.h"
#include "stream.h"
#include "pc_config.h"
#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if PC_HAVE_MMAP
#include <sys/mman.h>
/* Fault the window in at once (one call, not one fault per page taken by
 * the counting threads, which would contend for the address space). */
#ifdef MAP_POPULATE
#define PC_MAP_FLAGS MAP_POPULATE
#else
#define PC_MAP_FLAGS 0
#endif
#endif

#define PC_STREAM_BUF (64 * 1024)
#define PC_MAX_LINE (1024 * 1024)
#define PC_HEAD 4096
/* pc_stream_borrow maps regular files of at least this size (smaller
 * ones are read: a mapping costs more than it saves there). */
#define PC_MAP_MIN ((int64_t)1 << 20)

struct pc_stream {
	char *name;
	/* raw source */
	int fd; /* -1 for memory */
	int own_fd;
	const unsigned char *mem;
	size_t memlen, mempos;
	int raw_eof;
	/* compressed content (NULL: plain), and the most it may inflate to */
	pc_zdec *z;
	uint64_t gz_limit;
	/* content buffer: bytes [bpos, blen) are unread */
	unsigned char *buf;
	size_t bpos, blen, bcap;
	uint64_t offset; /* content offset of buf[bpos] */
	int64_t size;
	int eof; /* content exhausted */
	/* head (peek) */
	unsigned char head[PC_HEAD];
	size_t headlen;
	uint64_t lineno;
	pc_errslot err;
	/* pc_stream_borrow: the current mapped window, or the copy buffer */
	void *map;
	size_t maplen;
	unsigned char *win;
	size_t wincap;
	/* pc_stream_set_progress */
	pc_progress_fn pfn;
	void *puser;
	uint64_t pevery, pnext;
	int pdone;
};

/* Reports the multiples of pevery read so far, and the end once. */
static void progress(pc_stream *s)
{
	if (!s->pfn || s->pdone)
		return;
	uint64_t at = s->offset + (s->blen - s->bpos);
	int64_t total = s->z ? -1 : s->size;
	while (at >= s->pnext) {
		s->pfn(s->puser, s->pnext, total, 0);
		if (s->pnext > UINT64_MAX - s->pevery) {
			s->pdone = 1;
			return;
		}
		s->pnext += s->pevery;
	}
	if (s->eof) {
		s->pdone = 1;
		s->pfn(s->puser, at, total, 1);
	}
}

static int64_t raw_read(pc_stream *s, unsigned char *dst, size_t n)
{
	if (s->raw_eof)
		return 0;
	if (s->fd < 0) {
		size_t k = s->memlen - s->mempos;
		if (k > n)
			k = n;
		memcpy(dst, s->mem + s->mempos, k);
		s->mempos += k;
		if (k == 0)
			s->raw_eof = 1;
		return (int64_t)k;
	}
	for (;;) {
		ssize_t r = read(s->fd, dst, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return pc_stream_fail(s, PC_EIO, (int64_t)s->offset,
					      "read failed: %s", strerror(errno));
		if (r == 0)
			s->raw_eof = 1;
		return r;
	}
}

/* Produces up to n content bytes into dst. Returns count, 0 at end. */
static int64_t content_read(pc_stream *s, unsigned char *dst, size_t n)
{
	if (!s->z)
		return raw_read(s, dst, n);
	uint64_t at = s->offset + (s->blen - s->bpos);
	int64_t got = pc_zdec_read(s->z, at, dst, n);
	int64_t eat;
	const char *why = got < 0 ? pc_zdec_error(s->z, &eat) : NULL;
	if (why)
		return pc_stream_fail(s, (int)got, eat, "%s", why);
	if (got > 0 && at + (uint64_t)got > s->gz_limit)
		return pc_stream_fail(s, PC_ELIMIT, (int64_t)s->gz_limit,
				      "decompressed data exceeds the limit of %llu bytes",
				      (unsigned long long)s->gz_limit);
	return got;
}

/* The compressed bytes of s, for its decoder. */
static int64_t zsrc(void *arg, unsigned char *dst, size_t n)
{
	return raw_read(arg, dst, n);
}

/* Makes at least want unread bytes available if possible.
 * Returns the number available (may be fewer at end), or negative. */
static int64_t fill(pc_stream *s, size_t want)
{
	while (s->blen - s->bpos < want && !s->eof) {
		if (s->bpos > 0) {
			memmove(s->buf, s->buf + s->bpos, s->blen - s->bpos);
			s->blen -= s->bpos;
			s->bpos = 0;
		}
		size_t need = want > PC_STREAM_BUF ? want : PC_STREAM_BUF;
		if (pc_grow((void **)&s->buf, &s->bcap, need, 1))
			return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
		int64_t r = content_read(s, s->buf + s->blen, s->bcap - s->blen);
		if (r < 0)
			return r;
		if (r == 0)
			s->eof = 1;
		s->blen += (size_t)r;
		progress(s);
	}
	return (int64_t)(s->blen - s->bpos);
}

int pc_stream_lookahead(pc_stream *s, size_t n, const unsigned char **at, size_t *len)
{
	int64_t r = fill(s, n);
	if (r < 0)
		return (int)r;
	*at = s->buf + s->bpos;
	*len = (size_t)r < n ? (size_t)r : n;
	return PC_OK;
}

static pc_stream *stream_new(const char *name)
{
	pc_stream *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->fd = -1;
	s->size = -1;
	s->gz_limit = PC_GZIP_DEFAULT_LIMIT;
	s->err.pub.offset = -1;
	s->name = pc_strdup(name ? name : "<memory>");
	if (!s->name) {
		free(s);
		return NULL;
	}
	return s;
}

/* Detects compressed content, sets up its decoder and the head buffer. */
static int stream_start(pc_stream *s)
{
	size_t got = 0;
	/* Peek the raw magic without losing bytes: read into buf. */
	if (pc_grow((void **)&s->buf, &s->bcap, PC_STREAM_BUF, 1))
		return PC_ENOMEM;
	while (got < PC_Z_MAGIC) {
		int64_t r = raw_read(s, s->buf + got, PC_STREAM_BUF - got);
		if (r < 0)
			return (int)r;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	int kind = pc_zdec_sniff(s->buf, got);
	if (kind != PC_Z_NONE) {
		int st = pc_zdec_new(&s->z, kind, zsrc, s, s->buf, got);
		if (st != PC_OK)
			return st;
		s->blen = 0;
		s->size = -1;
	} else {
		s->blen = got;
		if (got == 0)
			s->eof = s->raw_eof;
	}
	/* A content error (corrupt data) is kept on the stream and reported
	 * again by the first read that reaches it; the head holds what came
	 * before it. */
	int64_t r = fill(s, PC_HEAD);
	if (r == PC_ENOMEM || r == PC_EIO)
		return (int)r;
	if (r < 0)
		r = (int64_t)(s->blen - s->bpos);
	s->headlen = (size_t)r < PC_HEAD ? (size_t)r : PC_HEAD;
	memcpy(s->head, s->buf + s->bpos, s->headlen);
	return PC_OK;
}

static int open_failed(int st, const char *name, const pc_stream *s)
{
	const pc_error *e = s ? pc_stream_error(s) : NULL;
	if (e && e->code == st)
		return pc_last_error_set(st, name, "%s", e->message);
	switch (st) {
	case PC_ENOTFOUND:
		return pc_last_error_set(st, name, "no such file");
	case PC_EIO:
		return pc_last_error_set(st, name, "cannot read file");
	case PC_ENOMEM:
		return pc_last_error_set(st, name, "out of memory");
	default:
		return pc_last_error_set(st, name, "cannot open: %s",
					 pc_status_name(st));
	}
}

int pc_stream_open_regular(pc_stream **out, const char *path)
{
	*out = NULL;
	int fd = pc_plat_open_regular(path);
	if (fd == -2)
		return pc_last_error_set(PC_EIO, path, "not a regular file");
	if (fd < 0)
		return open_failed(errno == ENOENT ? PC_ENOTFOUND : PC_EIO, path, NULL);
	struct stat sb;
	pc_stream *s = stream_new(path);
	if (!s || fstat(fd, &sb) != 0) {
		int st = s ? PC_EIO : PC_ENOMEM;
		close(fd);
		pc_stream_free(s);
		return open_failed(st, path, NULL);
	}
	s->fd = fd;
	s->own_fd = 1;
	s->size = (int64_t)sb.st_size;
	int st = stream_start(s);
	if (st != PC_OK) {
		open_failed(st, path, s);
		pc_stream_free(s);
		return st;
	}
	*out = s;
	return PC_OK;
}

int pc_stream_open_file(pc_stream **out, const char *path)
{
	if (!out || !path) {
		if (out)
			*out = NULL;
		return pc_last_error_set(PC_EUSAGE, path,
					 "pc_stream_open_file: no %s given",
					 out ? "path" : "place for the stream");
	}
	*out = NULL;
	int st = PC_OK;
	pc_stream *s = NULL;
	int fd;
	if (strcmp(path, "-") == 0) {
		fd = 0;
		pc_plat_binary_fd(fd);
	} else {
		fd = pc_plat_open_read(path);
		if (fd < 0) {
			st = errno == ENOENT ? PC_ENOTFOUND : PC_EIO;
			goto out;
		}
	}
	struct stat sb;
	if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		if (fd != 0)
			close(fd);
		st = PC_EIO;
		goto out;
	}
	s = stream_new(strcmp(path, "-") == 0 ? "<stdin>" : path);
	if (!s) {
		if (fd != 0)
			close(fd);
		st = PC_ENOMEM;
		goto out;
	}
	s->fd = fd;
	s->own_fd = fd != 0;
	if (S_ISREG(sb.st_mode))
		s->size = (int64_t)sb.st_size;
	st = stream_start(s);
	if (st != PC_OK) {
		open_failed(st, path, s);
		pc_stream_free(s);
		return st;
	}
out:
	if (st != PC_OK)
		return open_failed(st, path, NULL);
	*out = s;
	return PC_OK;
}

int pc_stream_open_memory(pc_stream **out, const void *buf, size_t len,
			  const char *name)
{
	if (out)
		*out = NULL;
	if (!out || (!buf && len))
		return pc_last_error_set(PC_EUSAGE, name,
					 "pc_stream_open_memory: no %s given",
					 out ? "buffer" : "place for the stream");
	*out = NULL;
	int st = PC_OK;
	pc_stream *s = stream_new(name);
	if (!s)
		return open_failed(PC_ENOMEM, name, NULL);
	s->mem = buf;
	s->memlen = len;
	s->size = (int64_t)len;
	st = stream_start(s);
	if (st != PC_OK) {
		open_failed(st, name, s);
		pc_stream_free(s);
		return st;
	}
	*out = s;
	return PC_OK;
}

static void unmap_window(pc_stream *s)
{
#if PC_HAVE_MMAP
	if (s->map)
		munmap(s->map, s->maplen);
#endif
	s->map = NULL;
	s->maplen = 0;
}

void pc_stream_free(pc_stream *s)
{
	if (!s)
		return;
	unmap_window(s);
	free(s->win);
	if (s->own_fd && s->fd >= 0)
		close(s->fd);
	pc_zdec_free(s->z);
	free(s->buf);
	free(s->name);
	pc_errslot_clear(&s->err);
	free(s);
}

const char *pc_stream_name(const pc_stream *s)
{
	return s->name;
}

uint64_t pc_stream_offset(const pc_stream *s)
{
	return s->offset;
}

int64_t pc_stream_known_size(const pc_stream *s)
{
	return s->z ? -1 : s->size;
}

int pc_stream_size(uint64_t *size, int *known, const pc_stream *s)
{
	if (size)
		*size = 0;
	if (known)
		*known = 0;
	if (!s || !size || !known)
		return PC_EUSAGE;
	int64_t n = pc_stream_known_size(s);
	if (n >= 0) {
		*size = (uint64_t)n;
		*known = 1;
	}
	return PC_OK;
}

int pc_stream_read_some(void *buf, size_t n, size_t *got, pc_stream *s)
{
	if (got)
		*got = 0;
	if (!s || !got || (!buf && n))
		return PC_EUSAGE;
	int64_t r = pc_stream_read_part(s, buf, n);
	if (r < 0)
		return (int)r;
	*got = (size_t)r;
	return PC_OK;
}

int pc_stream_borrow(const unsigned char **data, size_t *got, pc_stream *s,
		     size_t n)
{
	if (got)
		*got = 0;
	if (!s || !got || !data)
		return PC_EUSAGE;
	int64_t r = pc_stream_borrow_part(s, n, data);
	if (r < 0)
		return (int)r;
	*got = (size_t)r;
	return PC_OK;
}

int pc_stream_is_compressed(const pc_stream *s)
{
	return s->z != NULL;
}

int pc_stream_peek(const unsigned char **head, size_t *len, pc_stream *s)
{
	*head = s->head;
	*len = s->headlen;
	return PC_OK;
}

int64_t pc_stream_read_part(pc_stream *s, void *dst, size_t n)
{
	unsigned char *d = dst;
	size_t done = 0;
	while (done < n) {
		size_t avail = s->blen - s->bpos;
		if (avail == 0) {
			if (s->eof)
				break;
			/* large reads bypass the buffer */
			if (n - done >= PC_STREAM_BUF) {
				int64_t r = content_read(s, d + done, n - done);
				if (r < 0)
					return r;
				if (r == 0) {
					s->eof = 1;
					progress(s);
					break;
				}
				done += (size_t)r;
				s->offset += (uint64_t)r;
				progress(s);
				continue;
			}
			int64_t r = fill(s, 1);
			if (r < 0)
				return r;
			continue;
		}
		size_t k = avail < n - done ? avail : n - done;
		memcpy(d + done, s->buf + s->bpos, k);
		s->bpos += k;
		s->offset += k;
		done += k;
	}
	return (int64_t)done;
}

#if PC_HAVE_MMAP
/* Maps up to n bytes of a plain regular file at the current offset (the
 * buffer being empty, the descriptor's position) and moves
 * past them.  Returns the count, 0 when mapping is not possible here (the
 * caller then reads), or a negative status.  The size is taken afresh so
 * that a file which shrank since it was opened is not mapped past its end. */
static int64_t map_window(pc_stream *s, size_t n, const unsigned char **data)
{
	struct stat sb;
	if (s->z || s->fd < 0 || s->size < PC_MAP_MIN ||
	    fstat(s->fd, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;
	off_t pos = lseek(s->fd, 0, SEEK_CUR); /* stdin may not start at 0 */
	if (pos < 0)
		return 0;
	uint64_t size = (uint64_t)sb.st_size, off = (uint64_t)pos;
	if (off >= size)
		return 0;
	size_t k = size - off < n ? (size_t)(size - off) : n;
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return 0;
	uint64_t lead = off % (uint64_t)page;
	if (lead > SIZE_MAX - k || off - lead > (uint64_t)INT64_MAX)
		return 0;
	void *m = mmap(NULL, (size_t)lead + k, PROT_READ, MAP_PRIVATE | PC_MAP_FLAGS, s->fd,
		       (off_t)(off - lead));
	if (m == MAP_FAILED)
		return 0;
#ifdef MADV_SEQUENTIAL
	(void)madvise(m, (size_t)lead + k, MADV_SEQUENTIAL);
#endif
	if (lseek(s->fd, (off_t)(off + k), SEEK_SET) < 0) {
		munmap(m, (size_t)lead + k);
		return 0;
	}
	s->map = m;
	s->maplen = (size_t)lead + k;
	s->offset += k;
	progress(s);
	*data = (const unsigned char *)m + lead;
	return (int64_t)k;
}
#endif

int64_t pc_stream_borrow_part(pc_stream *s, size_t n,
			      const unsigned char **data)
{
	unmap_window(s);
	if (n == 0)
		return 0;
	size_t avail = s->blen - s->bpos;
	if (avail) { /* what is buffered already comes first */
		size_t k = avail < n ? avail : n;
		*data = s->buf + s->bpos;
		s->bpos += k;
		s->offset += k;
		return (int64_t)k;
	}
	if (s->eof)
		return 0;
	if (!s->z && s->fd < 0) { /* memory: the caller's own bytes */
		size_t k = s->memlen - s->mempos < n ? s->memlen - s->mempos : n;
		*data = s->mem + s->mempos;
		s->mempos += k;
		s->offset += k;
		if (k == 0)
			s->raw_eof = s->eof = 1;
		progress(s);
		return (int64_t)k;
	}
#if PC_HAVE_MMAP
	int64_t m = map_window(s, n, data);
	if (m)
		return m;
#endif
	if (pc_grow((void **)&s->win, &s->wincap, n, 1))
		return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
	*data = s->win;
	return pc_stream_read_part(s, s->win, n);
}

/* ---- mapping at an offset, for counting threads (internal.h) ------------ */

int pc_stream_mappable(pc_stream *s, uint64_t *at, uint64_t *bytes)
{
#if PC_HAVE_MMAP
	unmap_window(s);
	struct stat sb;
	if (s->z || s->fd < 0 || s->eof || s->blen != s->bpos ||
	    s->size < PC_MAP_MIN || fstat(s->fd, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;
	off_t pos = lseek(s->fd, 0, SEEK_CUR); /* stdin may not start at 0 */
	if (pos < 0 || (uint64_t)pos >= (uint64_t)sb.st_size)
		return 0;
	*at = (uint64_t)pos;
	*bytes = (uint64_t)sb.st_size - (uint64_t)pos;
	return 1;
#else
	(void)s;
	(void)at;
	(void)bytes;
	return 0;
#endif
}

const unsigned char *pc_stream_map_at(const pc_stream *s, uint64_t off,
				      size_t len, int populate, void **base, size_t *maplen)
{
#if PC_HAVE_MMAP
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0 || len == 0)
		return NULL;
	uint64_t lead = off % (uint64_t)page;
	if (lead > SIZE_MAX - len || off - lead > (uint64_t)INT64_MAX)
		return NULL;
	void *m = mmap(NULL, (size_t)lead + len, PROT_READ,
		       MAP_PRIVATE | (populate ? PC_MAP_FLAGS : 0), s->fd,
		       (off_t)(off - lead));
	if (m == MAP_FAILED)
		return NULL;
	*base = m;
	*maplen = (size_t)lead + len;
	return (const unsigned char *)m + lead;
#else
	(void)s;
	(void)off;
	(void)len;
	(void)populate;
	(void)base;
	(void)maplen;
	return NULL;
#endif
}

void pc_stream_unmap(void *base, size_t maplen)
{
#if PC_HAVE_MMAP
	if (base)
		munmap(base, maplen);
#else
	(void)base;
	(void)maplen;
#endif
}

int pc_stream_seek_past(pc_stream *s, uint64_t n)
{
	if (n > (uint64_t)INT64_MAX)
		return pc_stream_fail(s, PC_EIO, -1, "cannot seek");
	off_t pos = lseek(s->fd, 0, SEEK_CUR);
	if (pos < 0 || (uint64_t)pos > (uint64_t)INT64_MAX - n ||
	    lseek(s->fd, (off_t)((uint64_t)pos + n), SEEK_SET) < 0)
		return pc_stream_fail(s, PC_EIO, (int64_t)s->offset, "cannot seek");
	s->offset += n;
	progress(s);
	return PC_OK;
}

int pc_stream_set_progress(pc_stream *s, uint64_t every, pc_progress_fn fn,
			   void *user)
{
	if (!s || (fn && every == 0))
		return PC_EUSAGE;
	s->pfn = fn;
	s->puser = user;
	s->pevery = every;
	s->pnext = every;
	s->pdone = 0;
	progress(s); /* what was read at open (the head) */
	return PC_OK;
}

int pc_stream_read(void *buf, size_t n, pc_stream *s, const char *what)
{
	uint64_t start = s->offset;
	int64_t r = pc_stream_read_part(s, buf, n);
	if (r < 0)
		return (int)r;
	if ((size_t)r < n) {
		if (what)
			return pc_stream_fail(s, PC_ETRUNC, (int64_t)start,
					      "file ends after %lld of %zu bytes of %s",
					      (long long)r, n, what);
		return pc_stream_fail(s, PC_ETRUNC, (int64_t)start,
				      "file ends after %lld of %zu expected bytes",
				      (long long)r, n);
	}
	return PC_OK;
}

int pc_stream_skip(pc_stream *s, uint64_t n, const char *what)
{
	unsigned char tmp[4096];
	uint64_t start = s->offset;
	while (n > 0) {
		size_t k = n < sizeof tmp ? (size_t)n : sizeof tmp;
		int64_t r = pc_stream_read_part(s, tmp, k);
		if (r < 0)
			return (int)r;
		if (r == 0)
			return pc_stream_fail(s, PC_ETRUNC, (int64_t)start,
					      "file ends inside %s",
					      what ? what : "skipped data");
		n -= (uint64_t)r;
	}
	return PC_OK;
}

int pc_stream_eof(int *at_end, pc_stream *s)
{
	if (at_end)
		*at_end = 0;
	if (!s || !at_end)
		return PC_EUSAGE;
	int64_t r = fill(s, 1);
	if (r < 0)
		return (int)r;
	*at_end = r == 0;
	return PC_OK;
}

int pc_stream_getline(const char **line, size_t *len, uint64_t *line_start,
		      pc_stream *s)
{
	size_t scanned = 0;
	for (;;) {
		size_t avail = s->blen - s->bpos;
		unsigned char *p = s->buf ? s->buf + s->bpos : NULL;
		unsigned char *nl =
			avail > scanned ? memchr(p + scanned, '\n', avail - scanned) : NULL;
		if (nl || (s->eof && avail > 0)) {
			size_t n = nl ? (size_t)(nl - p) : avail;
			if (memchr(p, '\0', n))
				return pc_stream_fail(s, PC_EFORMAT,
						      (int64_t)(s->offset + (uint64_t)((unsigned char *)memchr(p, '\0', n) - p)),
						      "NUL byte in a text line (binary file?)");
			if (line_start)
				*line_start = s->offset;
			size_t consumed = nl ? n + 1 : n;
			if (n > 0 && p[n - 1] == '\r')
				n--;
			*line = (const char *)p;
			*len = n;
			s->bpos += consumed;
			s->offset += consumed;
			s->lineno++;
			return PC_OK;
		}
		if (s->eof) {
			*line = NULL;
			*len = 0;
			return PC_OK;
		}
		scanned = avail;
		if (avail >= PC_MAX_LINE)
			return pc_stream_fail(s, PC_ELIMIT, (int64_t)s->offset,
					      "line %llu is longer than %d bytes",
					      (unsigned long long)s->lineno + 1, PC_MAX_LINE);
		int64_t r = fill(s, avail + 1);
		if (r < 0)
			return (int)r;
	}
}

uint64_t pc_stream_lineno(const pc_stream *s)
{
	return s->lineno;
}

int pc_stream_fail(pc_stream *s, int code, int64_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pc_errslot_set(&s->err, code, s->name, offset, fmt, ap);
	va_end(ap);
	return code;
}

const pc_error *pc_stream_error(const pc_stream *s)
{
	return s->err.pub.code ? &s->err.pub : NULL;
}

int pc_stream_read_all(void **out, size_t *outlen, pc_stream *s, uint64_t max)
{
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	uint64_t start = s->offset;
	int64_t known = pc_stream_known_size(s);
	if (known >= 0 && (uint64_t)known - s->offset > max)
		return pc_stream_fail(s, PC_ELIMIT, (int64_t)start,
				      "file is larger than the limit of %llu bytes",
				      (unsigned long long)max);
	for (;;) {
		if (pc_grow((void **)&buf, &cap, len + PC_STREAM_BUF + 1, 1)) {
			free(buf);
			return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
		}
		/* never more than one byte past max: the buffer grows with
		 * what was read, and an endless input stops at max + 1 */
		size_t room = cap - len - 1;
		if ((uint64_t)room > max + 1 - len)
			room = (size_t)(max + 1 - len);
		int64_t r = pc_stream_read_part(s, buf + len, room);
		if (r < 0) {
			free(buf);
			return (int)r;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (len > max) {
			free(buf);
			return pc_stream_fail(s, PC_ELIMIT, (int64_t)start,
					      "file is larger than the limit of %llu bytes",
					      (unsigned long long)max);
		}
	}
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	return PC_OK;
}
