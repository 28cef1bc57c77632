/*
 * numfmt.h - the fast cases of the numbers without printf (sink.c), as
 * inline functions for the report loops that print tens of thousands of
 * rows (formats/flat.c): the same bytes as printf.  Private.
 */
#ifndef PC_NUMFMT_H
#define PC_NUMFMT_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define PC_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define PC_ALWAYS_INLINE inline
#endif

static const char pc_d2[] = "00010203040506070809101112131415161718192021222324"
			 "25262728293031323334353637383940414243444546474849"
			 "50515253545556575859606162636465666768697071727374"
			 "75767778798081828384858687888990919293949596979899";

/* number of decimal digits of v (1 for 0) */
static PC_ALWAYS_INLINE size_t pc_ndigits(uint64_t v)
{
	size_t n = 1;
	for (; v >= 10000; v /= 10000)
		n += 4;
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* x in decimal, written backwards ending at end (two digits a step);
 * returns where it starts */
static PC_ALWAYS_INLINE char *pc_put_u32(char *end, uint32_t x)
{
	char *q = end;
	for (; x >= 100; x /= 100) {
		q -= 2;
		memcpy(q, pc_d2 + 2 * (x % 100), 2);
	}
	if (x >= 10) {
		q -= 2;
		memcpy(q, pc_d2 + 2 * x, 2);
	} else {
		*--q = (char)('0' + x);
	}
	return q;
}

/* The usual number of a report (0 <= v < 10^9, 0 <= dec <= 6, exact
 * double arithmetic, not at a tie): round(v * 10^dec) in *u, as printf
 * rounds the exact binary value, and 1; 0 for every other case (the
 * general path of pc_fmt_fixed then).  v * 10^dec is below 10^15 < 2^50,
 * so hi - t is exact, and rounding the product to a double is monotone:
 * the exact product is above (below) t + 1/2 when hi is; only hi == t +
 * 1/2 needs the exact product. */
static PC_ALWAYS_INLINE int pc_fixed_scaled(double v, int dec, uint64_t *u)
{
#if FLT_EVAL_METHOD == 0
	static const double p10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
	if (!(v >= 0 && v < 1e9) || signbit(v) || (unsigned)dec > 6)
		return 0;
	double hi = v * p10[dec];
	int64_t t = (int64_t)hi;
	double f = hi - (double)t;
	if (f == 0.5)
		return 0; /* a tie: the exact product decides (pc_fmt_fixed) */
	*u = (uint64_t)t + (f > 0.5);
	return 1;
#else
	(void)v, (void)dec, (void)u;
	return 0;
#endif
}

/* 10^i, i = 0..19 */
static const uint64_t pc_p10u[20] = {
	1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
	100000000u, 1000000000u, 10000000000u, 100000000000u,
	1000000000000u, 10000000000000u, 100000000000000u,
	1000000000000000u, 10000000000000000u, 100000000000000000u,
	1000000000000000000u, 10000000000000000000u};

/* bytes of the scaled integer u (pc_fixed_scaled) as "ip.fp" with dec
 * decimals: at least one integer digit */
static PC_ALWAYS_INLINE size_t pc_scaled_len(uint64_t u, int dec)
{
	size_t n = pc_ndigits(u);
	if (!dec)
		return n;
	return (n > (size_t)dec ? n : (size_t)dec + 1) + 1;
}

/* u as "ip.fp" with dec decimals, written backwards ending at end (two
 * digits a step, 32-bit arithmetic when u fits) */
static PC_ALWAYS_INLINE void pc_put_scaled(char *end, uint64_t u, int dec)
{
	char *q = end;
	if (u <= UINT32_MAX) {
		uint32_t w = (uint32_t)u;
		int i = dec;
		for (; i >= 2; i -= 2, w /= 100) {
			q -= 2;
			memcpy(q, pc_d2 + 2 * (w % 100), 2);
		}
		if (i) {
			*--q = (char)('0' + w % 10);
			w /= 10;
		}
		if (dec)
			*--q = '.';
		pc_put_u32(q, w);
		return;
	}
	for (int i = 0; i < dec; i++, u /= 10)
		*--q = (char)('0' + u % 10);
	if (dec)
		*--q = '.';
	do
		*--q = (char)('0' + u % 10);
	while (u /= 10);
}

/* pc_fmt_fixed_right's usual case: v with dec decimals in w <= 16
 * columns at d (room for 16 bytes), as "%*.*f"; returns w, or 0 when it
 * is not the usual case (pc_fmt_fixed_right then).  With w and dec
 * constants the tests fold away. */
static PC_ALWAYS_INLINE size_t pc_fixed_right_fast(char *d, double v, size_t w, int dec)
{
	uint64_t u;
	if (pc_fixed_scaled(v, dec, &u) && w <= 16 &&
	    (dec ? w >= (size_t)dec + 2 && u < pc_p10u[w - 1] : w >= 1 && u < pc_p10u[w])) {
		memcpy(d, "                ", 16);
		pc_put_scaled(d + w, u, dec);
		return w;
	}
	return 0;
}

#endif
