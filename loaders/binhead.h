/*
 * binhead.h - the evidence a magic-less binary format demands before it
 * bids for a file (old-BSD gmon.out, mon.out): a byte that no text file
 * holds.  Text - a linker map, a listing, a log - has printable bytes,
 * tab, line ends, form feed, DOS's Ctrl-Z and ANSI's ESC, and any byte
 * from 0x80 (UTF-8, Latin-1); a header of binary addresses and counters
 * has NUL bytes (the high bytes of addresses, empty counters) or other
 * control bytes.  Private to loaders/.
 */
#ifndef PC_LOADERS_BINHEAD_H
#define PC_LOADERS_BINHEAD_H

#include <stddef.h>

static inline int pc_binary_evidence(const unsigned char *h, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = h[i];
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' &&
		    c != '\r' && c != 0x1A && c != 0x1B)
			return 1;
		if (c == 0x7F)
			return 1;
	}
	return 0;
}

#endif
