/* sink.c - the growable output buffer every report writes into; with a
 * writer (pc_sink_init_writer) it streams: at a line's end once it holds
 * its limit (see internal.h). */
#include "pc_base.h"
#include "sink.h"
#include "numfmt.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pc_sink_init(pc_sink *k)
{
	memset(k, 0, sizeof *k);
}

void pc_sink_init_writer(pc_sink *k, pc_write_fn write, void *ctx, size_t limit)
{
	memset(k, 0, sizeof *k);
	k->write = write;
	k->ctx = ctx;
	k->limit = limit ? limit : 1;
}

void pc_sink_dispose(pc_sink *k)
{
	free(k->buf);
	memset(k, 0, sizeof *k);
}

int pc_sink_flush(pc_sink *k)
{
	if (k->failed || !k->write || !k->len)
		return k->failed;
	int st = k->write(k->ctx, k->buf, k->len);
	if (st) {
		k->failed = st < 0 ? st : PC_EIO;
		k->write_failed = 1;
		return k->failed;
	}
	k->flushed += k->len;
	k->len = 0;
	k->buf[0] = '\0';
	return PC_OK;
}

int pc_sink_boundary(pc_sink *k)
{
	if (k->limit && k->len >= k->limit)
		return pc_sink_flush(k);
	return k->failed;
}

uint64_t pc_sink_offset(const pc_sink *k)
{
	return k->flushed + k->len;
}

/* A write that put bytes [at, len) holding a '\n' into a sink over its
 * limit: everything up to the last '\n' goes to the writer, the line
 * after it stays. */
static void flush_lines(pc_sink *k, size_t at)
{
	size_t end = k->len;
	while (end > at && k->buf[end - 1] != '\n')
		end--;
	if (end == at || k->failed)
		return;
	size_t rest = k->len - end;
	k->len = end;
	if (pc_sink_flush(k) == PC_OK && rest) {
		memmove(k->buf, k->buf + end, rest);
		k->len = rest;
		k->buf[rest] = '\0';
	}
}

/* After a write of the bytes [at, len): the end of a line is a boundary
 * (one predictable branch for a sink without a writer: limit 0). */
static inline void after_write(pc_sink *k, size_t at)
{
	if (k->limit && k->len >= k->limit)
		flush_lines(k, at);
}

static int reserve_slow(pc_sink *k, size_t n)
{
	if (k->failed)
		return k->failed;
	if (n < k->cap - k->len) /* room for n bytes and the NUL */
		return PC_OK;
	if (n > SIZE_MAX - k->len - 1 ||
	    pc_grow((void **)&k->buf, &k->cap, k->len + n + 1, 1) != PC_OK) {
		k->failed = PC_ENOMEM;
		return PC_ENOMEM;
	}
	return PC_OK;
}

/* Room for n more bytes and the terminating NUL (the usual case: no
 * call). */
static inline int reserve(pc_sink *k, size_t n)
{
	if (!k->failed && k->cap - k->len > n)
		return PC_OK;
	return reserve_slow(k, n);
}

int pc_sink_write(pc_sink *k, const void *data, size_t n)
{
	if (reserve(k, n))
		return k->failed;
	memcpy(k->buf + k->len, data, n);
	k->len += n;
	k->buf[k->len] = '\0';
	after_write(k, k->len - n);
	return k->failed;
}

int pc_sink_puts(pc_sink *k, const char *s)
{
	/* short strings (the layouts' separators) in one pass, no calls */
	if (reserve(k, 32))
		return k->failed;
	char *d = k->buf + k->len;
	size_t i = 0;
	for (; i < 32 && s[i]; i++)
		d[i] = s[i];
	if (i == 32) { /* longer */
		*d = '\0';
		return pc_sink_write(k, s, strlen(s));
	}
	k->len += i;
	d[i] = '\0';
	after_write(k, k->len - i);
	return k->failed;
}

char *pc_sink_room(pc_sink *k, size_t n)
{
	if (reserve(k, n))
		return NULL;
	return k->buf + k->len;
}

int pc_sink_commit(pc_sink *k, size_t n)
{
	if (k->failed)
		return k->failed;
	k->len += n;
	k->buf[k->len] = '\0';
	after_write(k, k->len - n);
	return k->failed;
}

int pc_sink_putc(pc_sink *k, char c)
{
	return pc_sink_write(k, &c, 1);
}

int pc_sink_repeat(pc_sink *k, char c, size_t n)
{
	if (reserve(k, n))
		return k->failed;
	memset(k->buf + k->len, c, n);
	k->len += n;
	k->buf[k->len] = '\0';
	after_write(k, k->len - n);
	return k->failed;
}

int pc_sink_vprintf(pc_sink *k, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return PC_EUSAGE;
	if (reserve(k, (size_t)n))
		return k->failed;
	vsnprintf(k->buf + k->len, (size_t)n + 1, fmt, ap);
	k->len += (size_t)n;
	after_write(k, k->len - (size_t)n);
	return k->failed;
}

int pc_sink_printf(pc_sink *k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = pc_sink_vprintf(k, fmt, ap);
	va_end(ap);
	return r;
}

/* ---- the one rule for showing names ------------------------------------
 * Every text sink (text reports, CSV, JSON, HTML/SVG) shows a name in the
 * same form: valid UTF-8 is kept, except control characters; every byte
 * that is a C0 control (0x00-0x1f), DEL (0x7f), part of a C1 control
 * (U+0080-U+009F, bytes c2 80..c2 9f) or not part of a valid UTF-8
 * sequence (stray continuation bytes, overlong forms, surrogates, beyond
 * U+10FFFF, 0xc0 0xc1 0xf5-0xff) is written as the four characters \xNN
 * (lower-case hex).  A backslash is kept as it is.  The sink syntax (CSV
 * quoting, JSON string escapes, HTML entities) is then applied to that
 * shown form, so a name reads the same in every output, every JSON
 * document is valid UTF-8, and no output carries terminal escapes.  The
 * model keeps the original bytes (pc_profile_symbol etc.). */

/* Length of the valid, non-control UTF-8 sequence at p, or 0. */
static size_t utf8_ok(const unsigned char *p)
{
	unsigned char c = p[0];
	if (c >= 0x20 && c < 0x7f)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	size_t n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	unsigned char lo = 0x80, hi = 0xbf;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	if (c == 0xc2 && p[1] < 0xa0) /* C1 control */
		return 0;
	return n;
}

/* One step of the shown form of the name at p (*p != 0): writes up to 4
 * bytes to out and returns how many input bytes it consumed; *outn is the
 * number of bytes written. */
static size_t show_step(const unsigned char *p, char out[4], size_t *outn)
{
	size_t n = utf8_ok(p);
	if (n) {
		memcpy(out, p, n);
		*outn = n;
		return n;
	}
	static const char hex[] = "0123456789abcdef";
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[*p >> 4];
	out[3] = hex[*p & 15];
	*outn = 4;
	return 1;
}

size_t pc_name_escape(char *dst, size_t cap, const char *name)
{
	size_t need = 0, used = 0, bn;
	int full = 0;
	char b[4];
	for (const unsigned char *p = (const unsigned char *)(name ? name : ""); *p;) {
		p += show_step(p, b, &bn);
		if (dst && !full && used + bn < cap) {
			memcpy(dst + used, b, bn);
			used += bn;
		} else {
			full = 1; /* only whole steps are written */
		}
		need += bn;
	}
	if (dst && cap)
		dst[used] = '\0';
	return need;
}

/* Length of the run of printable ASCII at p: shown as it is. */
static size_t plain_run(const unsigned char *p)
{
	size_t n = 0;
	while (p[n] >= 0x20 && p[n] < 0x7f)
		n++;
	return n;
}

/* Does the 8-byte word w (any byte order) hold a byte below 0x20 or
 * above 0x7e?  (x - 0x20 borrows into the top bit of a byte below 0x20
 * and x + 1 carries into it from 0x7f; a byte from 0x80 has it already;
 * a borrow or carry reaching the next byte starts at a byte that has
 * one of its own.) */
static int word_unplain(uint64_t w)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), tops = UINT64_C(0x8080808080808080);
	return (((w - 0x20 * ones) & ~w) | ((w + ones) | w)) & tops ? 1 : 0;
}

int pc_name_plain(const char *s, size_t n)
{
	size_t i = 0;
	uint64_t w;
	for (; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		if (word_unplain(w))
			return 0;
	}
	if (i == n)
		return 1;
	if (n >= 8) { /* the last 8 bytes (some seen already) */
		memcpy(&w, s + n - 8, 8);
		return !word_unplain(w);
	}
	for (; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return 0;
	return 1;
}

size_t pc_name_width(const char *name)
{
	size_t w = 0, bn;
	char b[4];
	for (const unsigned char *p = (const unsigned char *)(name ? name : ""); *p;) {
		size_t n = plain_run(p);
		w += n;
		p += n;
		if (!*p)
			break;
		p += show_step(p, b, &bn);
		w += bn == 4 && b[0] == '\\' ? 4 : 1;
	}
	return w;
}

int pc_sink_name(pc_sink *k, const char *s)
{
	char b[4];
	size_t bn;
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		size_t n = plain_run(p);
		pc_sink_write(k, p, n);
		p += n;
		if (!*p)
			break;
		p += show_step(p, b, &bn);
		pc_sink_write(k, b, bn);
	}
	return k->failed;
}

/* Length of the run of printable ASCII at p without any byte of special
 * (a sink's syntax characters): written as it is, in one piece. */
static size_t plain_run_but(const unsigned char *p, const char *special)
{
	size_t n = 0;
	for (;; n++) {
		unsigned char c = p[n];
		if (c < 0x20 || c >= 0x7f)
			return n;
		/* (no strchr: a sanitizer checks every call) */
		for (const char *q = special; *q; q++)
			if ((unsigned char)*q == c)
				return n;
	}
}

int pc_sink_json_string(pc_sink *k, const char *s)
{
	char b[4];
	size_t bn;
	pc_sink_putc(k, '"');
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		size_t n = plain_run_but(p, "\"\\");
		if (n) {
			pc_sink_write(k, p, n);
			p += n;
			continue;
		}
		p += show_step(p, b, &bn);
		for (size_t i = 0; i < bn; i++) {
			if (b[i] == '"' || b[i] == '\\')
				pc_sink_putc(k, '\\');
			pc_sink_putc(k, b[i]);
		}
	}
	return pc_sink_putc(k, '"');
}

int pc_sink_csv_field(pc_sink *k, const char *s)
{
	s = s ? s : "";
	/* the shown form has no CR or LF: only ',' and '"' need quotes */
	if (!strpbrk(s, ",\""))
		return pc_sink_name(k, s);
	char b[4];
	size_t bn;
	pc_sink_putc(k, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = plain_run_but(p, "\"");
		if (n) {
			pc_sink_write(k, p, n);
			p += n;
			continue;
		}
		p += show_step(p, b, &bn);
		for (size_t i = 0; i < bn; i++) {
			if (b[i] == '"')
				pc_sink_putc(k, '"');
			pc_sink_putc(k, b[i]);
		}
	}
	return pc_sink_putc(k, '"');
}

int pc_sink_html(pc_sink *k, const char *s)
{
	char b[4];
	size_t bn;
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;) {
		size_t n = plain_run_but(p, "&<>\"'");
		if (n) {
			pc_sink_write(k, p, n);
			p += n;
			continue;
		}
		p += show_step(p, b, &bn);
		for (size_t i = 0; i < bn; i++) {
			switch (b[i]) {
			case '&': pc_sink_puts(k, "&amp;"); break;
			case '<': pc_sink_puts(k, "&lt;"); break;
			case '>': pc_sink_puts(k, "&gt;"); break;
			case '"': pc_sink_puts(k, "&quot;"); break;
			case '\'': pc_sink_puts(k, "&#39;"); break;
			default: pc_sink_putc(k, b[i]);
			}
		}
	}
	return k->failed;
}

size_t pc_fmt_sink_count(char *buf, size_t size, double v)
{
	/* (pc_fmt_fixed: the bytes of "%.0f" and "%.6f", without printf) */
	if (v == floor(v) && fabs(v) < 9e15)
		return pc_fmt_fixed(buf, size, v, 0);
	size_t n = pc_fmt_fixed(buf, size, v, 6);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return n;
}

int pc_sink_count(pc_sink *k, double v)
{
	char buf[352];
	return pc_sink_write(k, buf, pc_fmt_sink_count(buf, sizeof buf, v));
}

/* ---- numbers without printf ---------------------------------------------
 * The reports print tens of thousands of rows; glibc's %f costs about
 * 2,000 instructions a number (multi-precision), these about 60.  They
 * print the same bytes as printf. */

/* v's digits, n of them, ending at end (written backwards, two a step) */
static void put_digits(char *end, uint64_t v, size_t n)
{
	while (n >= 2) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		end -= 2;
		end[0] = pc_d2[2 * r];
		end[1] = pc_d2[2 * r + 1];
		n -= 2;
	}
	if (n)
		end[-1] = (char)('0' + v % 10);
}

size_t pc_fmt_u64(char *buf, uint64_t v)
{
	/* straight into buf, from the right, two digits a step */
	size_t n = pc_ndigits(v);
	put_digits(buf + n, v, n);
	buf[n] = '\0';
	return n;
}

/* u (below 2^53) as "ip.fp" with dec decimals, where m = 10^dec */
static size_t fixed_digits(char *buf, uint64_t u, int dec)
{
	uint64_t ip, fp;
	/* constant divisors: a multiply, not a division */
	switch (dec) {
	case 0: ip = u, fp = 0; break;
	case 2: ip = u / 100, fp = u % 100; break;
	case 4: ip = u / 10000, fp = u % 10000; break;
	case 6: ip = u / 1000000, fp = u % 1000000; break;
	default: {
		uint64_t pm = 1;
		for (int i = 0; i < dec; i++)
			pm *= 10;
		ip = u / pm, fp = u % pm;
	}
	}
	size_t n = pc_ndigits(ip);
	put_digits(buf + n, ip, n);
	if (dec) {
		buf[n++] = '.';
		put_digits(buf + n + (size_t)dec, fp, (size_t)dec);
		n += (size_t)dec;
	}
	buf[n] = '\0';
	return n;
}

#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* pc_fmt_fixed_right's every other case (a call of its own, so that the
 * usual one saves no registers) */
static NOINLINE size_t fixed_right_rest(char *d, double v, size_t w, int dec)
{
	uint64_t u;
	if (pc_fixed_scaled(v, dec, &u)) {
		size_t n = pc_scaled_len(u, dec);
		size_t pad = n < w ? w - n : 0;
		memset(d, ' ', pad);
		pc_put_scaled(d + pad + n, u, dec);
		return pad + n;
	}
	size_t n = pc_fmt_fixed(d, 352, v, dec);
	if (n >= w)
		return n;
	size_t pad = w - n;
	for (size_t i = n; i-- > 0;)
		d[pad + i] = d[i];
	memset(d, ' ', pad);
	return w;
}

size_t pc_fmt_fixed_right(char *d, double v, int width, int dec)
{
	size_t w = width > 0 ? (size_t)width : 0;
	size_t n;
	/* the tables' numbers: fit in w <= 16 columns (2 and 0 decimals
	 * with the steps unrolled) */
	if (dec == 2)
		n = pc_fixed_right_fast(d, v, w, 2);
	else if (dec == 0)
		n = pc_fixed_right_fast(d, v, w, 0);
	else
		n = pc_fixed_right_fast(d, v, w, dec);
	return n ? n : fixed_right_rest(d, v, w, dec);
}

static NOINLINE size_t fixed_rest(char *buf, size_t size, double v, int dec);

size_t pc_fmt_fixed(char *buf, size_t size, double v, int dec)
{
	uint64_t u;
	/* the usual number (a leaf: the rest is a call of its own), the
	 * steps unrolled for the decimals the reports print */
	if (size >= 32 && pc_fixed_scaled(v, dec, &u)) {
		size_t n = pc_scaled_len(u, dec);
		switch (dec) {
		case 0: pc_put_scaled(buf + n, u, 0); break;
		case 2: pc_put_scaled(buf + n, u, 2); break;
		case 4: pc_put_scaled(buf + n, u, 4); break;
		case 6: pc_put_scaled(buf + n, u, 6); break;
		default: pc_put_scaled(buf + n, u, dec);
		}
		buf[n] = '\0';
		return n;
	}
	return fixed_rest(buf, size, v, dec);
}

/* pc_fmt_fixed's every other case */
static size_t fixed_rest(char *buf, size_t size, double v, int dec)
{
	/* The exact path needs every double operation rounded to double
	 * (FLT_EVAL_METHOD 0: not x87) and 100v below 2^52, where the
	 * spacing of doubles is at most 1/2. */
#if FLT_EVAL_METHOD == 0
	static const double p10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
	if (size >= 32 && dec >= 0 && dec <= 6 && isfinite(v) &&
	    fabs(v) * p10[dec] < 4503599627370496.0) {
		int neg = signbit(v) != 0;
		double a = fabs(v), m = p10[dec];
		/* a * m = hi + lo exactly (Dekker's product below, needed
		 * only at a tie; m < 2^27 splits into itself) */
		double hi = a * m;
		/* round the exact a * m to an integer, ties to even, as
		 * printf rounds the exact binary value (0 <= hi < 2^52: the
		 * conversion is floor, hi - floor exact; no libm call; a
		 * signed conversion, the same value, without the unsigned
		 * one's branches) */
		uint64_t t = (uint64_t)(int64_t)hi;
		double d = hi - (double)(int64_t)t;
		int up = d > 0.5;
		if (d == 0.5) { /* the rest of the exact product decides */
			double c = 134217729.0 * a; /* 2^27 + 1 */
			double ah = c - (c - a), al = a - ah;
			double lo = (ah * m - hi) + al * m;
			up = lo > 0 || (lo == 0 && (t & 1));
		}
		uint64_t u = t + (uint64_t)up;
		size_t n = 0;
		if (neg)
			buf[n++] = '-';
		return n + fixed_digits(buf + n, u, dec);
	}
#endif
	int n = snprintf(buf, size, "%.*f", dec, v);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t pc_fmt_g(char *buf, size_t size, double v, int prec)
{
	/* The usual number: 1e-4 <= |v| < 10^prec, where %g is %f with
	 * prec - 1 - X decimals, X the exponent of v rounded to prec
	 * digits: u = round(|v| * 10^dec) has prec digits exactly when dec
	 * is that count (10^dec exact, dec <= 18; the product below 10^15
	 * < 2^50, so as in pc_fixed_scaled only a tie needs the exact
	 * product: printf then).  Trailing zeros of the fraction and a
	 * bare '.' are dropped, as %g drops them. */
#if FLT_EVAL_METHOD == 0
	static const double p10[] = {1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1e3, 1e4, 1e5,
				     1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				     1e16, 1e17, 1e18};
	double a = fabs(v);
	if (size >= 32 && prec >= 1 && prec <= 15 && a >= 1e-4 && a < p10[prec + 4]) {
		int x = -4;
		while (x + 1 < prec && a >= p10[x + 5])
			x++;
		for (int tries = 0; tries < 3; tries++) {
			int dec = prec - 1 - x;
			double hi = a * p10[dec + 4];
			uint64_t t = (uint64_t)(int64_t)hi;
			double f = hi - (double)(int64_t)t;
			if (f == 0.5)
				break;
			uint64_t u = t + (f > 0.5);
			if (u >= pc_p10u[prec]) {
				if (x + 1 >= prec)
					break;
				x++;
				continue;
			}
			if (u < pc_p10u[prec - 1]) {
				if (x - 1 < -4)
					break;
				x--;
				continue;
			}
			size_t n = 0;
			if (signbit(v))
				buf[n++] = '-';
			n += fixed_digits(buf + n, u, dec);
			if (dec) {
				while (buf[n - 1] == '0')
					n--;
				if (buf[n - 1] == '.')
					n--;
				buf[n] = '\0';
			}
			return n;
		}
	}
#endif
	int n = snprintf(buf, size, "%.*g", prec, v);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* buf[0, n) right-aligned in width columns, in one append (buf holds
 * at least 16 bytes: the short case copies 16 of spaces and of buf,
 * fixed sizes the compiler writes inline, and keeps pad + n of them). */
static int put_right(pc_sink *k, const char *buf, size_t n, int width)
{
	size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
	if (pad <= 16 && n <= 16) {
		if (reserve(k, 32))
			return k->failed;
		char *d = k->buf + k->len;
		memcpy(d, "                ", 16);
		memcpy(d + pad, buf, 16);
		k->len += pad + n;
		k->buf[k->len] = '\0';
		return PC_OK;
	}
	if (reserve(k, pad + n))
		return k->failed;
	char *d = k->buf + k->len;
	for (size_t i = 0; i < pad; i++)
		d[i] = ' ';
	for (size_t i = 0; i < n; i++)
		d[pad + i] = buf[i];
	k->len += pad + n;
	k->buf[k->len] = '\0';
	return PC_OK;
}

int pc_sink_fixed(pc_sink *k, double v, int width, int dec)
{
	uint64_t u;
	if (pc_fixed_scaled(v, dec, &u)) { /* straight into the buffer */
		size_t n = pc_scaled_len(u, dec), w = width > 0 ? (size_t)width : 0;
		size_t pad = n < w ? w - n : 0;
		if (reserve(k, pad + n))
			return k->failed;
		char *d = k->buf + k->len;
		for (size_t i = 0; i < pad; i++)
			d[i] = ' ';
		pc_put_scaled(d + pad + n, u, dec);
		k->len += pad + n;
		k->buf[k->len] = '\0';
		return PC_OK;
	}
	char buf[352]; /* DBL_MAX with 6 decimals fits */
	size_t n = pc_fmt_fixed(buf, sizeof buf, v, dec);
	return put_right(k, buf, n, width);
}

int pc_sink_u64(pc_sink *k, uint64_t v, int width)
{
	char buf[24];
	size_t n = pc_fmt_u64(buf, v);
	return put_right(k, buf, n, width);
}
