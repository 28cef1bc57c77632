/*
 * export_pb.c - the protobuf wire encoding pprof needs (varints,
 * length-delimited fields, packed repeated integers) and a gzip writer.
 *
 * Wire format: a field is a key varint (field_number << 3 | wire_type)
 * followed by its value: wire type 0 = varint, 2 = length-delimited
 * (a varint byte count, then the bytes).  Varints are little-endian base
 * 128, high bit set on every byte but the last.  Negative int64 values
 * are encoded as their 64-bit two's complement (10 bytes).
 */
#include "export.h"

#include <string.h>
#include <zlib.h>

enum { WT_VARINT = 0, WT_LEN = 2 };

int pc_pb_varint(pc_sink *k, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;
	do {
		unsigned char c = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			c |= 0x80;
		b[n++] = c;
	} while (v);
	return pc_sink_write(k, b, n);
}

static int key(pc_sink *k, unsigned field, unsigned wt)
{
	return pc_pb_varint(k, ((uint64_t)field << 3) | wt);
}

int pc_pb_uint(pc_sink *k, unsigned field, uint64_t v)
{
	if (v == 0)
		return k->failed;
	key(k, field, WT_VARINT);
	return pc_pb_varint(k, v);
}

int pc_pb_int(pc_sink *k, unsigned field, int64_t v)
{
	return pc_pb_uint(k, field, (uint64_t)v);
}

int pc_pb_bytes(pc_sink *k, unsigned field, const void *data, size_t n)
{
	key(k, field, WT_LEN);
	pc_pb_varint(k, n);
	return pc_sink_write(k, data, n);
}

int pc_pb_packed(pc_sink *k, unsigned field, const uint64_t *v, size_t n)
{
	if (n == 0)
		return k->failed;
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = v[i];
		do {
			len++;
			x >>= 7;
		} while (x);
	}
	key(k, field, WT_LEN);
	pc_pb_varint(k, len);
	for (size_t i = 0; i < n; i++)
		pc_pb_varint(k, v[i]);
	return k->failed;
}

int pc_gzip_append(pc_sink *out, const void *in, size_t n)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	/* windowBits 15 + 16: a gzip wrapper with mtime 0 and no name, and
	 * the OS byte fixed (zlib writes its host's: 3 on Unix, 10 on
	 * Windows), so the output depends only on the input on every host.
	 * Level 1: about 3 times faster than the default 6 on profiles,
	 * some 8 % larger. */
	gz_header gz;
	memset(&gz, 0, sizeof gz);
	gz.os = 3;
	if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return PC_ENOMEM;
	if (deflateSetHeader(&z, &gz) != Z_OK) {
		deflateEnd(&z);
		return PC_ENOMEM;
	}
	const unsigned char *src = in;
	size_t left = n;
	unsigned char buf[16384];
	int rc = PC_OK, zr;
	do {
		uInt chunk = left > (1u << 30) ? (1u << 30) : (uInt)left;
		z.next_in = (unsigned char *)(uintptr_t)src;
		z.avail_in = chunk;
		src += chunk;
		left -= chunk;
		int flush = left ? Z_NO_FLUSH : Z_FINISH;
		do {
			z.next_out = buf;
			z.avail_out = sizeof buf;
			zr = deflate(&z, flush);
			if (zr == Z_STREAM_ERROR) {
				rc = PC_ENOMEM;
				break;
			}
			rc = pc_sink_write(out, buf, sizeof buf - z.avail_out);
			if (rc == PC_OK)
				rc = pc_sink_boundary(out); /* binary: no lines */
		} while (rc == PC_OK && z.avail_out == 0);
	} while (rc == PC_OK && left);
	deflateEnd(&z);
	return rc;
}
