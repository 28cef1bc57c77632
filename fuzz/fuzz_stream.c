/* libFuzzer harness for the input streams (stream.c, decomp.c): the input
 * is a capture as a loader would see it, plain or gzip, xz or zstd
 * compressed (detected by magic, so the decoders, concatenated members,
 * streams and frames and corrupt-data errors are reached; seeds:
 * fuzz/gen_seeds.py's z-*, dictionary fuzz/dict/stream.dict), read
 * through one of the access patterns loaders use, chosen by the input's
 * last byte: lines, borrowed windows, small reads and
 * skips, or everything at once. */
#include "profcore.h"
#include "profcore_plugin.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pc_stream *s;
	if (pc_stream_open_memory(&s, data, size, "fuzz"))
		return 0;
	unsigned mode = size ? data[size - 1] : 0;
	const unsigned char *head;
	size_t hl;
	pc_stream_peek(&head, &hl, s);
	uint64_t sum = 0;
	switch (mode & 3) {
	case 0: {
		const char *line;
		size_t len;
		while (pc_stream_getline(&line, &len, NULL, s) == PC_OK && line)
			sum += len ? (unsigned char)line[len - 1] : 0;
		break;
	}
	case 1: {
		const unsigned char *d;
		size_t r;
		size_t want = 1 + (mode >> 2);
		while (pc_stream_borrow(&d, &r, s, want) == PC_OK && r > 0) {
			sum += d[r - 1];
			want = want * 3 + 1;
		}
		break;
	}
	case 2: {
		unsigned char buf[97];
		size_t r;
		for (unsigned i = 0;; i++) {
			if (i & 1) {
				if (pc_stream_skip(s, 1 + i % 13, "fuzz") < 0)
					break;
			} else if (pc_stream_read_some(buf, 1 + i % 97, &r, s) == PC_OK && r > 0) {
				sum += buf[r - 1];
			} else {
				break;
			}
		}
		break;
	}
	default: {
		void *all = NULL;
		size_t len = 0;
		if (pc_stream_read_all(&all, &len, s, (uint64_t)1 << 24) == PC_OK)
			sum += len;
		pc_free(all);
		break;
	}
	}
	(void)sum;
	int at_end;
	(void)pc_stream_eof(&at_end, s);
	pc_stream_free(s);
	return 0;
}
