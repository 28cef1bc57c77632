/* lines_util.h - an inline helper in a header: its lines are in this
 * file although the code is in lines_main.c (inlined at -O2). */
#ifndef LINES_UTIL_H
#define LINES_UTIL_H

static inline unsigned mix(unsigned h, unsigned v)
{
	h ^= v;
	h *= 0x01000193u;
	return h;
}

unsigned checksum(const unsigned char *buf, unsigned n);
double integrate(unsigned steps);

#endif
