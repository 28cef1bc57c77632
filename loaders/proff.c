/* proff.c - Apple MPW Proff arc files (<program>.Proff).
 *
 * Format (seed: MPW PQR4 Proff release notes; research/dos-mpw-formats.md
 * §4.1, no genuine file is known): one line per arc with seven hex
 * numbers -- caller segment, caller byte offset, callee segment, callee
 * byte offset, times executed, cumulative hierarchical time, cumulative
 * flat time -- and a last line holding the number of arcs, in hex.
 *
 * Tolerant of what real files may have: spaces or tabs between fields,
 * CR (classic Mac OS), LF or CRLF line ends, blank lines, leading
 * whitespace.  Strict about everything else: only hex digits, exactly
 * seven fields per arc line, one count line that is the last non-blank
 * line and equals the number of arcs.  The times are taken as
 * microseconds (PrintProff prints µsecs; the unit in the file is not
 * documented).  Segments are CODE resource numbers; symbols for them come
 * from the program's .SYM file (loaders/mpwsym.c) or a map with segments.
 * When those were loaded first, every arc end must lie in a known
 * segment.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define PROFF_MAX_SIZE ((uint64_t)1 << 30)
#define PROFF_FIELDS 7

static const char *const proff_names[PROFF_FIELDS] = {
	"caller segment", "caller offset", "callee segment", "callee offset",
	"count", "hierarchical time", "flat time",
};

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One line [b, e) split into hex fields.  Returns the field count, or -1
 * with *bad at the first offending byte (relative to b) when a field
 * holds a non-hex byte or more than 16 digits (*why says which). */
static int split_line(const unsigned char *b, size_t n, uint64_t *v,
		      size_t *pos, int max, size_t *bad, int *why)
{
	int nf = 0;
	size_t i = 0;
	while (i < n) {
		while (i < n && is_blank(b[i]))
			i++;
		if (i == n)
			break;
		size_t start = i;
		uint64_t x = 0;
		while (i < n && !is_blank(b[i])) {
			int h = hexval(b[i]);
			if (h < 0) {
				*bad = i;
				*why = 0;
				return -1;
			}
			if (x >> 60) {
				*bad = start;
				*why = 1;
				return -1;
			}
			x = (x << 4) | (uint64_t)h;
			i++;
		}
		if (nf < max) {
			v[nf] = x;
			pos[nf] = start;
		}
		nf++;
	}
	return nf;
}

static int proff_probe(const unsigned char *h, size_t n, const char *name)
{
	/* every complete line in the head must be a 7-field arc line, except
	 * that the last complete one may be the count; at least one arc */
	size_t i = 0, arcs = 0, count_lines = 0;
	while (i < n) {
		size_t s = i;
		while (i < n && h[i] != '\n' && h[i] != '\r')
			i++;
		if (i == n && n == 4096)
			break; /* incomplete last line of a long file */
		uint64_t v[PROFF_FIELDS];
		size_t pos[PROFF_FIELDS], bad;
		int why;
		int nf = split_line(h + s, i - s, v, pos, PROFF_FIELDS, &bad, &why);
		if (nf < 0)
			return 0;
		if (nf == PROFF_FIELDS) {
			if (count_lines)
				return 0;
			arcs++;
		} else if (nf == 1) {
			count_lines++;
		} else if (nf != 0) {
			return 0;
		}
		while (i < n && (h[i] == '\n' || h[i] == '\r'))
			i++;
	}
	if (arcs == 0 || count_lines > 1)
		return 0;
	int conf = 8 + (int)(arcs > 4 ? 4 : arcs) * 2;
	if (name) {
		const char *dot = strrchr(name, '.');
		static const char ext[] = ".proff";
		size_t k = 0;
		while (dot && k < sizeof ext - 1 && dot[k] &&
		       (dot[k] | 0x20) == ext[k])
			k++;
		if (dot && k == sizeof ext - 1 && dot[k] == '\0')
			conf += 16;
	}
	return conf;
}

/* When the program's segments are known (regions from a .SYM or a map
 * loaded before), an arc end must lie inside one of them. */
static int check_end(pc_profile *p, pc_stream *s, uint32_t seg, uint64_t off,
		     size_t seg_at, size_t at, const char *what)
{
	size_t n = pc_profile_region_count(p), segmented = 0;
	uint64_t size = 0;
	const char *label = NULL;
	int found = 0;
	for (size_t i = 0; i < n; i++) {
		pc_region r;
		if (pc_profile_region_at(&r, p, i) || r.segment == PC_NOSEG)
			continue;
		segmented++;
		if (r.segment != seg)
			continue;
		if (off >= r.low && off < r.high)
			return PC_OK;
		found = 1;
		if (r.high > size) {
			size = r.high;
			label = r.label;
		}
	}
	if (!segmented)
		return PC_OK;
	if (!found)
		return pc_stream_fail(s, PC_EFORMAT, (int64_t)seg_at,
				      "%s segment %u is not a segment of the program",
				      what, seg);
	return pc_stream_fail(s, PC_EFORMAT, (int64_t)at,
			      "%s offset 0x%llx is outside segment %u (%s%s0x%llx bytes)",
			      what, (unsigned long long)off, seg,
			      label ? label : "", label ? ", " : "",
			      (unsigned long long)size);
}

static int proff_load(pc_profile *p, pc_stream *s, const pc_options *o)
{
	(void)o;
	void *vbuf;
	size_t len;
	int rc = pc_stream_read_all(&vbuf, &len, s, PROFF_MAX_SIZE);
	if (rc)
		return rc;
	const unsigned char *b = vbuf;
	uint64_t narcs = 0, claimed = 0;
	int have_count = 0;
	size_t count_at = 0, i = 0;
	while (i < len) {
		size_t ls = i;
		while (i < len && b[i] != '\n' && b[i] != '\r')
			i++;
		size_t le = i;
		if (i < len && b[i] == '\r')
			i++;
		if (i < len && b[i] == '\n')
			i++;
		uint64_t v[PROFF_FIELDS];
		size_t pos[PROFF_FIELDS], bad;
		int why;
		int nf = split_line(b + ls, le - ls, v, pos, PROFF_FIELDS, &bad,
				    &why);
		if (nf < 0) {
			if (why)
				rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)(ls + bad),
						    "hex number longer than 64 bits");
			else if (b[ls + bad] >= 0x20 && b[ls + bad] < 0x7f)
				rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)(ls + bad),
						    "expected a hex digit, found '%c'",
						    b[ls + bad]);
			else
				rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)(ls + bad),
						    "expected a hex digit, found byte 0x%02x",
						    b[ls + bad]);
			goto out;
		}
		if (nf == 0)
			continue;
		if (have_count) {
			rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)(ls + pos[0]),
					    "the arc count line must be the last line, "
					    "found more after it");
			goto out;
		}
		if (nf == 1) {
			have_count = 1;
			claimed = v[0];
			count_at = ls + pos[0];
			continue;
		}
		if (nf != PROFF_FIELDS) {
			rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)(ls + pos[0]),
					    "expected 7 hex fields (caller segment, caller "
					    "offset, callee segment, callee offset, count, "
					    "hierarchical time, flat time) or the arc count, "
					    "found %d fields", nf);
			goto out;
		}
		for (int f = 0; f < 4; f += 2)
			if (v[f] > 0xffff) {
				rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)(ls + pos[f]),
						    "%s 0x%llx is not a 16-bit CODE resource number",
						    proff_names[f], (unsigned long long)v[f]);
				goto out;
			}
		for (int f = 1; f < 4; f += 2)
			if (v[f] > 0xffffffffu) {
				rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)(ls + pos[f]),
						    "%s 0x%llx does not fit in 32 bits",
						    proff_names[f], (unsigned long long)v[f]);
				goto out;
			}
		if ((rc = check_end(p, s, (uint32_t)v[0], v[1], ls + pos[0],
				    ls + pos[1], "caller")) ||
		    (rc = check_end(p, s, (uint32_t)v[2], v[3], ls + pos[2],
				    ls + pos[3], "callee")))
			goto out;
		pc_arc a;
		memset(&a, 0, sizeof a);
		a.from_segment = (uint32_t)v[0];
		a.from = v[1];
		a.to_segment = (uint32_t)v[2];
		a.to = v[3];
		a.count = v[4];
		a.htime = (double)v[5];
		a.ftime = (double)v[6];
		if ((rc = pc_profile_add_arc(p, &a)))
			goto out;
		narcs++;
	}
	if (!have_count) {
		if (narcs == 0)
			rc = pc_stream_fail(s, PC_EFORMAT, 0,
					    "expected Proff arc lines, found no data");
		else
			rc = pc_stream_fail(s, PC_ETRUNC, (int64_t)len,
					    "expected the arc count line after %llu arcs, "
					    "found the end of the file",
					    (unsigned long long)narcs);
		goto out;
	}
	if (claimed != narcs) {
		rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)count_at,
				    "arc count line says %llu (0x%llx) but the file "
				    "has %llu arcs",
				    (unsigned long long)claimed,
				    (unsigned long long)claimed,
				    (unsigned long long)narcs);
		goto out;
	}
out:
	pc_free(vbuf);
	return rc;
}

static const char *const proff_ext[] = {".proff", ".Proff", NULL};

const pc_loader pc_loader_proff = {
	PC_LOADER_ABI_VERSION,
	"proff",
	"Apple MPW Proff call arcs with hierarchical and flat times",
	PC_ROLE_ARCS,
	proff_ext,
	proff_probe,
	proff_load,
	50,
	NULL, /* options: none */
};
