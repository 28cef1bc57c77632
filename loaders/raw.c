/*
 * raw.c - raw program-counter dumps: a plain list of PC values, as written
 * by in-circuit emulators (Applied Microsystems ES 1800), the Dr. Dobb's
 * pamsdos CS:IP grabber, debug probes and emulators.
 *
 * No such file carries a header, so the layout is described by options
 * (-O key=value) and/or a YAML layout file (-O layout=FILE.yaml) holding
 * the same keys; options given on the command line win over the file.
 *
 *   encoding  binary | text            (default: text if the first 4 KiB
 *                                       are lines of numbers, else binary)
 *   width     16 | 24 | 32 | 64        bits of the PC field (binary; 32);
 *                                      2, 3, 4, 8 are taken as bytes, as
 *                                      the gmon loader's width=4|8
 *   endian    little | big             byte order (binary; little)
 *   pair      ip:cs | cs:ip            x86 real-mode pairs of 16-bit words,
 *                                      converted to seg * 16 + off
 *   mask      N                        AND-ed to every PC (0xffffff: 68000)
 *   stride    N                        bytes per record (default: field size)
 *   offset    N                        byte offset of the PC in a record
 *   skip      N                        header bytes before the first record
 *   radix     16 | 10                  text: plain numbers; 0x / $ are
 *                                      always hex, seg:off is always hex;
 *                                      without it the first 4 KiB must show
 *                                      hex (0x, $, seg:off, a digit a-f),
 *                                      else the load fails as ambiguous
 *   origin    ADDR                     start of the program: samples below
 *                                      it are class "low" (DDJ PA_BOT_MEM)
 *   program-end ADDR                   end of the program: samples at or
 *                                      above it are class "high"
 *   regions   LOW-HIGH:CLASS[:LABEL],...  further address ranges by class
 *
 * The file is streamed in large sequential reads and handed to the core in
 * batches (pc_profile_add_samples), so memory does not grow with its size.
 * Auto-detection only claims text whose every line in the first 4 KiB is a
 * comment or a hex address, at least two of them unmistakably hex (0x..,
 * $.., seg:off, or holding a digit a-f); binary dumps are never guessed.
 * A dump without samples is an error, not an empty report: the empty file
 * (also through a pipe or gzip), a header (skip) with no record after it,
 * a text dump of nothing but comments and blank lines.
 */
#include "internal.h"
#include "pc_config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if PC_HAVE_YAML
#include "ytree.h"
#endif

enum { ENC_AUTO = 0, ENC_BINARY, ENC_TEXT };
enum { PAIR_NONE = 0, PAIR_IPCS, PAIR_CSIP };

/* A stride or header larger than this is surely a mistake. */
#define RAW_MAX_STRIDE 65536u

typedef struct raw_layout {
	int encoding;
	unsigned width; /* bytes of the PC field */
	pc_endian endian;
	int pair;
	uint64_t mask;
	uint64_t stride, offset, skip;
	unsigned radix;
	int have_origin, have_end;
	uint64_t origin, program_end;
	const char *regions; /* owned by the options bag it came from */
} raw_layout;

/* The keys this loader understands (all optional). */
static const char *const raw_keys[] = {
	"encoding", "width", "endian", "pair", "mask", "stride", "offset",
	"skip", "radix", "origin", "program-end", "regions", NULL};

static int is_raw_key(const char *k)
{
	for (size_t i = 0; raw_keys[i]; i++)
		if (strcmp(raw_keys[i], k) == 0)
			return 1;
	return 0;
}

/* ---- numbers ------------------------------------------------------------ */

static int digit_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* Parses s[0..n) as an unsigned number in radix; 0 on success, -1 if a
 * character is not a digit (or n == 0), -2 on overflow. */
static int parse_num(const char *s, size_t n, unsigned radix, uint64_t *out)
{
	uint64_t v = 0;
	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int d = digit_value((unsigned char)s[i]);
		if (d >= (int)radix)
			return -1;
		if (v > (UINT64_MAX - (uint64_t)d) / radix)
			return -2;
		v = v * radix + (uint64_t)d;
	}
	*out = v;
	return 0;
}

/* ---- the layout: defaults, YAML file, options --------------------------- */

static int layout_fail(pc_stream *s, const char *where, const char *fmt, ...)
	PC_PRINTF(3, 4);

static int layout_fail(pc_stream *s, const char *where, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (where)
		return pc_stream_fail(s, PC_EUSAGE, -1, "%s: %s", where, msg);
	return pc_stream_fail(s, PC_EUSAGE, -1, "%s", msg);
}

/* A number as options take them: decimal, 0x hex or 0 octal, nothing
 * else on the line.  0 on success. */
static int option_number(const char *val, uint64_t *out)
{
	if (!val || !isdigit((unsigned char)val[0]))
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(val, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* Applies one key=value to L.  where names the layout file position for
 * messages (NULL for command-line options). */
static int layout_set(raw_layout *L, pc_stream *s, const char *where,
		      const char *key, const char *val)
{
	uint64_t v = 0;
	int numeric = strcmp(key, "encoding") && strcmp(key, "endian") &&
		      strcmp(key, "pair") && strcmp(key, "regions");
	if (numeric && option_number(val, &v))
		return layout_fail(s, where, "%s must be a number, not '%s'", key, val);
	if (strcmp(key, "encoding") == 0) {
		if (strcmp(val, "binary") == 0)
			L->encoding = ENC_BINARY;
		else if (strcmp(val, "text") == 0)
			L->encoding = ENC_TEXT;
		else
			return layout_fail(s, where,
					   "%s must be binary or text, not '%s'", key, val);
	} else if (strcmp(key, "width") == 0) {
		if (v == 2 || v == 3 || v == 4 || v == 8)
			v *= 8; /* bytes, as gmon's width=4|8 */
		if (v != 16 && v != 24 && v != 32 && v != 64)
			return layout_fail(s, where,
					   "%s must be 16, 24, 32 or 64 (bits), not '%s'",
					   key, val);
		L->width = (unsigned)(v / 8);
	} else if (strcmp(key, "endian") == 0) {
		if (strcmp(val, "little") == 0 || strcmp(val, "le") == 0)
			L->endian = PC_ENDIAN_LITTLE;
		else if (strcmp(val, "big") == 0 || strcmp(val, "be") == 0)
			L->endian = PC_ENDIAN_BIG;
		else
			return layout_fail(s, where,
					   "%s must be little or big, not '%s'", key, val);
	} else if (strcmp(key, "pair") == 0) {
		if (strcmp(val, "ip:cs") == 0)
			L->pair = PAIR_IPCS;
		else if (strcmp(val, "cs:ip") == 0)
			L->pair = PAIR_CSIP;
		else if (strcmp(val, "none") == 0)
			L->pair = PAIR_NONE;
		else
			return layout_fail(s, where,
					   "%s must be ip:cs, cs:ip or none, not '%s'",
					   key, val);
	} else if (strcmp(key, "mask") == 0) {
		if (v == 0)
			return layout_fail(s, where, "%s must not be zero", key);
		L->mask = v;
	} else if (strcmp(key, "stride") == 0) {
		if (v == 0 || v > RAW_MAX_STRIDE)
			return layout_fail(s, where,
					   "%s must be 1..65536 bytes, not '%s'", key, val);
		L->stride = v;
	} else if (strcmp(key, "offset") == 0) {
		if (v >= RAW_MAX_STRIDE)
			return layout_fail(s, where,
					   "%s must be below 65536 bytes, not '%s'", key, val);
		L->offset = v;
	} else if (strcmp(key, "skip") == 0) {
		L->skip = v;
	} else if (strcmp(key, "radix") == 0) {
		if (v != 10 && v != 16)
			return layout_fail(s, where,
					   "%s must be 16 or 10, not '%s'", key, val);
		L->radix = (unsigned)v;
	} else if (strcmp(key, "origin") == 0) {
		L->have_origin = 1;
		L->origin = v;
	} else if (strcmp(key, "program-end") == 0) {
		L->have_end = 1;
		L->program_end = v;
	} else if (strcmp(key, "regions") == 0) {
		L->regions = val;
	}
	return PC_OK;
}

/* Reads a layout file: one YAML mapping of the keys above to scalars.
 * The values are copied into *bag (which must outlive L). */
static int layout_read_yaml(raw_layout *L, pc_stream *s, const char *path,
			    pc_options *bag)
{
#if !PC_HAVE_YAML
	(void)L;
	(void)bag;
	(void)is_raw_key; /* only the YAML reader uses it */
	return pc_stream_fail(s, PC_EUNSUPPORTED, -1,
			      "layout %s: this libprofcore was built without YAML support; give the layout's keys as options",
			      path);
#else
	char err[600], where[600];
	pc_ynode *root = NULL;
	int rc = pc_ytree_load(path, "layout", &root, err, sizeof err);
	if (rc)
		return pc_stream_fail(s, rc == PC_ENOMEM ? rc : rc == PC_EFORMAT ? rc : PC_EIO,
				      -1, "%s", err);
	if (root->type != PC_YN_MAP) {
		snprintf(where, sizeof where, "layout %s:%lu", path, root->line);
		rc = pc_stream_fail(s, PC_EFORMAT, -1,
				    "%s: expected a mapping of key: value", where);
	}
	for (size_t i = 0; !rc && i + 1 < root->n; i += 2) {
		const pc_ynode *k = root->kids[i], *v = root->kids[i + 1];
		snprintf(where, sizeof where, "layout %s:%lu", path, k->line);
		if (k->type != PC_YN_SCALAR)
			rc = pc_stream_fail(s, PC_EFORMAT, -1,
					    "%s: expected a mapping of key: value", where);
		else if (!is_raw_key(k->s))
			rc = pc_stream_fail(s, PC_EFORMAT, -1,
					    "%s: unknown layout key '%s'", where, k->s);
		else if (v->type != PC_YN_SCALAR)
			rc = pc_stream_fail(s, PC_EFORMAT, -1,
					    "layout %s:%lu: values must be plain scalars",
					    path, v->line);
		else if (pc_options_set(bag, k->s, v->s))
			rc = pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
		else
			rc = layout_set(L, s, where, k->s, pc_options_get(bag, k->s));
	}
	pc_ytree_free(root);
	return rc;
#endif
}

static int layout_build(raw_layout *L, pc_stream *s, const pc_options *opts,
			pc_options *bag)
{
	memset(L, 0, sizeof *L);
	L->endian = PC_ENDIAN_LITTLE;
	L->mask = UINT64_MAX;
	const char *path = pc_options_get(opts, "layout");
	if (path) {
		int r = layout_read_yaml(L, s, path, bag);
		if (r)
			return r;
	}
	for (size_t i = 0; raw_keys[i]; i++) {
		const char *v = pc_options_get(opts, raw_keys[i]);
		if (v) {
			int r = layout_set(L, s, NULL, raw_keys[i], v);
			if (r)
				return r;
		}
	}
	if (L->radix)
		L->encoding = L->encoding ? L->encoding : ENC_TEXT;
	unsigned field = L->pair ? 4 : (L->width ? L->width : 4);
	if (L->pair && L->width && L->width != 2)
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "pair takes two 16-bit words; width %u does not fit",
				      L->width * 8);
	if (!L->width)
		L->width = L->pair ? 2 : 4;
	if (!L->stride)
		L->stride = L->offset + field;
	if (L->offset + field > L->stride)
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "a %u-byte PC at offset %llu does not fit a %llu-byte record",
				      field, (unsigned long long)L->offset,
				      (unsigned long long)L->stride);
	if (L->have_origin && L->have_end && L->program_end <= L->origin)
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "program-end 0x%llx is not above origin 0x%llx",
				      (unsigned long long)L->program_end,
				      (unsigned long long)L->origin);
	return PC_OK;
}

/* ---- regions ------------------------------------------------------------- */

static int class_by_name(const char *s, size_t n, pc_region_class *out)
{
	for (int c = 0; c < PC_REGION_COUNT; c++) {
		const char *name = pc_region_class_name((pc_region_class)c);
		if (strlen(name) == n && strncmp(name, s, n) == 0) {
			*out = (pc_region_class)c;
			return 1;
		}
	}
	return 0;
}

/* "LOW-HIGH:CLASS[:LABEL]" items separated by commas; numbers are hex with
 * or without 0x, HIGH is exclusive. */
static int add_regions(pc_profile *p, pc_stream *s, const char *spec)
{
	const char *q = spec;
	while (*q) {
		const char *end = strchr(q, ',');
		size_t n = end ? (size_t)(end - q) : strlen(q);
		const char *dash = memchr(q, '-', n);
		const char *c1 = memchr(q, ':', n);
		if (!dash || !c1 || c1 < dash)
			return pc_stream_fail(s, PC_EUSAGE, -1,
					      "regions: expected LOW-HIGH:CLASS[:LABEL], found '%.*s'",
					      (int)n, q);
		const char *c2 = memchr(c1 + 1, ':', (size_t)(q + n - c1 - 1));
		const char *lo_s = q, *hi_s = dash + 1;
		size_t lo_n = (size_t)(dash - q), hi_n = (size_t)(c1 - dash - 1);
		if (lo_n > 2 && lo_s[0] == '0' && (lo_s[1] | 0x20) == 'x')
			lo_s += 2, lo_n -= 2;
		if (hi_n > 2 && hi_s[0] == '0' && (hi_s[1] | 0x20) == 'x')
			hi_s += 2, hi_n -= 2;
		uint64_t lo, hi;
		pc_region_class cls;
		size_t cn = (size_t)((c2 ? c2 : q + n) - c1 - 1);
		if (parse_num(lo_s, lo_n, 16, &lo) || parse_num(hi_s, hi_n, 16, &hi) ||
		    hi <= lo)
			return pc_stream_fail(s, PC_EUSAGE, -1,
					      "regions: bad address range in '%.*s'", (int)n, q);
		if (!class_by_name(c1 + 1, cn, &cls)) {
			char known[160];
			size_t k = 0;
			for (int c = 0; c < PC_REGION_COUNT && k < sizeof known; c++)
				k += (size_t)snprintf(known + k, sizeof known - k, "%s%s",
						      c ? ", " : "",
						      pc_region_class_name((pc_region_class)c));
			return pc_stream_fail(s, PC_EUSAGE, -1,
					      "regions: unknown class '%.*s' (%s)",
					      (int)cn, c1 + 1, known);
		}
		char label[128];
		if (c2)
			snprintf(label, sizeof label, "%.*s", (int)(q + n - c2 - 1), c2 + 1);
		else
			snprintf(label, sizeof label, "%s", pc_region_class_name(cls));
		pc_region r = {PC_NOSEG, lo, hi, cls, label};
		int rc = pc_profile_add_region(p, &r);
		if (rc)
			return rc;
		q += n;
		if (*q == ',')
			q++;
	}
	return PC_OK;
}

static int add_layout_regions(pc_profile *p, pc_stream *s, const raw_layout *L)
{
	if (L->have_origin && L->origin > 0) {
		pc_region r = {PC_NOSEG, 0, L->origin, PC_REGION_LOW, "PA_BOT_MEM"};
		int rc = pc_profile_add_region(p, &r);
		if (rc)
			return rc;
	}
	if (L->have_end && L->program_end < UINT64_MAX) {
		pc_region r = {PC_NOSEG, L->program_end, UINT64_MAX, PC_REGION_HIGH,
			       "PA_TOP_MEM"};
		int rc = pc_profile_add_region(p, &r);
		if (rc)
			return rc;
	}
	if (L->have_origin && L->have_end) {
		pc_region r = {PC_NOSEG, L->origin, L->program_end,
			       PC_REGION_APPLICATION, "program"};
		int rc = pc_profile_add_region(p, &r);
		if (rc)
			return rc;
	}
	if (L->regions)
		return add_regions(p, s, L->regions);
	return PC_OK;
}

/* ---- binary records ------------------------------------------------------ */

static int load_binary(pc_profile *p, pc_stream *s, const raw_layout *L)
{
	const size_t stride = (size_t)L->stride;
	uint64_t size;
	int known;
	pc_stream_size(&size, &known, s);
	if (known) {
		if (size < L->skip)
			return pc_stream_fail(s, PC_ETRUNC, (int64_t)size,
					      "file ends inside the %llu-byte header (skip)",
					      (unsigned long long)L->skip);
		uint64_t body = size - L->skip;
		if (body % stride)
			return pc_stream_fail(s, PC_ETRUNC,
					      (int64_t)(L->skip + body - body % stride),
					      "trailing partial record: %llu bytes left after %llu records of %zu bytes",
					      (unsigned long long)(body % stride),
					      (unsigned long long)(body / stride), stride);
	}
	if (L->skip) {
		int r = pc_stream_skip(s, L->skip, "the header (skip)");
		if (r)
			return r;
		/* a header and nothing after it: no samples, as for a text dump
		 * of comments only (a known size says so without reading on) */
		int at_end = known && size == L->skip;
		if (!known && (r = pc_stream_eof(&at_end, s)) != PC_OK)
			return r;
		if (at_end)
			return pc_stream_fail(s, PC_EFORMAT, (int64_t)L->skip,
					      "no samples: expected raw PC records after the %llu-byte header (skip), found none",
					      (unsigned long long)L->skip);
	}
	const pc_record_layout rl = {
		.width = L->pair ? 4 : L->width,
		.endian = L->endian,
		.real = L->pair == PAIR_IPCS ? PC_REAL_IPCS
			: L->pair == PAIR_CSIP ? PC_REAL_CSIP : PC_REAL_NONE,
		.stride = stride,
		.offset = (size_t)L->offset,
		.mask = L->mask,
	};
	/* the library reads the records to the end: windows mapped or
	 * borrowed, decoded and counted in one pass, across threads */
	uint64_t records;
	size_t have;
	int rc = pc_profile_add_records_stream(&records, &have, p, PC_NOSEG,
					       s, &rl);
	if (rc == PC_OK && have)
		rc = pc_stream_fail(s, PC_ETRUNC,
				    (int64_t)(L->skip + records * stride),
				    "trailing partial record: %zu bytes left after %llu records of %zu bytes",
				    have, (unsigned long long)records, stride);
	return rc;
}

/* ---- text ---------------------------------------------------------------- */

/* One address token: 0xHEX, $HEX, SEG:OFF (hex), or a plain number in
 * radix.  Returns 0, or -1 with *why set. */
static int parse_token(const char *t, size_t n, unsigned radix, uint64_t *out,
		       const char **why)
{
	const char *colon = memchr(t, ':', n);
	if (colon) {
		uint64_t seg, off;
		size_t sn = (size_t)(colon - t), on = n - sn - 1;
		if (parse_num(t, sn, 16, &seg) || parse_num(colon + 1, on, 16, &off)) {
			*why = "expected seg:off in hex";
			return -1;
		}
		if (seg > 0xffff || off > 0xffff) {
			*why = "seg:off parts must fit 16 bits";
			return -1;
		}
		*out = (seg << 4) + off;
		return 0;
	}
	if (n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
		t += 2, n -= 2, radix = 16;
	else if (n > 1 && t[0] == '$')
		t += 1, n -= 1, radix = 16;
	int r = parse_num(t, n, radix, out);
	if (r == -2) {
		*why = "address does not fit 64 bits";
		return -1;
	}
	if (r) {
		*why = radix == 16 ? "expected a hex address or seg:off"
				   : "expected a decimal address or seg:off";
		return -1;
	}
	return 0;
}

/* Splits a line into its one token: returns 1 with [*t, *t + *n), 0 for a
 * blank or comment line, -1 when there is more than one token. */
static int line_token(const char *line, size_t len, const char **t, size_t *n)
{
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	size_t b = i;
	while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '#' &&
	       line[i] != ';')
		i++;
	size_t e = i;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i < len && line[i] != '#' && line[i] != ';') {
		*t = line + b;
		*n = len - b;
		return -1;
	}
	*t = line + b;
	*n = e - b;
	return e > b;
}

static int load_text(pc_profile *p, pc_stream *s, const raw_layout *L)
{
	uint64_t *pcs = malloc(65536 * sizeof *pcs);
	if (!pcs)
		return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
	size_t n = 0;
	int rc = PC_OK, any = 0;
	for (;;) {
		const char *line, *t, *why = NULL;
		size_t len, tn;
		uint64_t start, a;
		int r = pc_stream_getline(&line, &len, &start, s);
		if (r < 0) {
			rc = r;
			break;
		}
		if (!line) /* the end */
			break;
		int k = line_token(line, len, &t, &tn);
		if (k == 0)
			continue;
		if (k < 0)
			why = "expected one address per line";
		else if (parse_token(t, tn, L->radix, &a, &why) == 0)
			why = NULL;
		if (why) {
			size_t show = tn > 40 ? 40 : tn;
			rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)(start + (uint64_t)(t - line)),
					    "line %llu: %s, found '%.*s'",
					    (unsigned long long)pc_stream_lineno(s), why,
					    (int)show, t);
			break;
		}
		pcs[n++] = a & L->mask;
		any = 1;
		if (n == 65536) {
			rc = pc_profile_add_samples(p, PC_NOSEG, pcs, n);
			n = 0;
			if (rc)
				break;
		}
	}
	if (rc == PC_OK && n)
		rc = pc_profile_add_samples(p, PC_NOSEG, pcs, n);
	if (rc == PC_OK && !any)
		rc = pc_stream_fail(s, PC_EFORMAT, (int64_t)pc_stream_offset(s),
				    "no samples: expected raw PC values, one a line, found only comments and blank lines");
	free(pcs);
	return rc;
}

/* ---- detection ----------------------------------------------------------- */

/* Looks at the complete lines of head: comments and hex numbers only.
 * Returns the number of sample lines, or -1 if a line is not a sample or
 * a comment; *unmistakable: how many of them are unmistakably hex (0x..,
 * $.., seg:off or with a digit a-f). */
static int scan_text(const unsigned char *head, size_t len, int *unmistakable)
{
	size_t i = 0;
	int samples = 0;
	*unmistakable = 0;
	/* drop the last, possibly cut, line unless the head is the whole file */
	size_t lim = len;
	if (len == 4096) {
		while (lim > 0 && head[lim - 1] != '\n')
			lim--;
	}
	while (i < lim) {
		size_t e = i;
		while (e < lim && head[e] != '\n')
			e++;
		size_t le = e;
		if (le > i && head[le - 1] == '\r')
			le--;
		for (size_t j = i; j < le; j++)
			if (head[j] < 0x20 && head[j] != '\t')
				return -1;
			else if (head[j] >= 0x7f)
				return -1;
		const char *t;
		size_t tn;
		int k = line_token((const char *)head + i, le - i, &t, &tn);
		if (k < 0)
			return -1;
		if (k > 0) {
			uint64_t a;
			const char *why;
			if (parse_token(t, tn, 16, &a, &why))
				return -1;
			int hexish = memchr(t, ':', tn) || t[0] == '$' ||
				     (tn > 2 && t[0] == '0' && (t[1] | 0x20) == 'x');
			for (size_t j = 0; j < tn && !hexish; j++)
				hexish = isxdigit((unsigned char)t[j]) &&
					 !isdigit((unsigned char)t[j]);
			samples++;
			*unmistakable += hexish;
		}
		i = e + 1;
	}
	return samples;
}

/* Text rather than a binary dump: printable ASCII lines only. */
static int looks_textual(const unsigned char *head, size_t len)
{
	int nl = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = head[i];
		if (c == '\n')
			nl = 1;
		else if ((c < 0x20 && c != '\t' && c != '\r') || c >= 0x7f)
			return 0;
	}
	return len > 0 && (nl || len < 4096);
}

static int raw_probe(const unsigned char *head, size_t len, const char *name)
{
	(void)name;
	int hex;
	int n = scan_text(head, len, &hex);
	/* hex lines and comments only, at least two unmistakably hex: plain
	 * digit strings alone could be decimal */
	if (n >= 2 && hex >= 2)
		return 8 + (n > 8 ? 8 : n);
	return 0;
}

static int raw_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	raw_layout L;
	pc_options *bag;
	if (pc_options_new(&bag))
		return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
	int rc = layout_build(&L, s, opts, bag);
	if (rc)
		goto out;
	const unsigned char *head;
	size_t hl;
	pc_stream_peek(&head, &hl, s);
	if (L.encoding == ENC_AUTO)
		L.encoding = looks_textual(head, hl) ? ENC_TEXT : ENC_BINARY;
	if (L.encoding == ENC_TEXT && !L.radix) {
		/* plain digit strings are hex or decimal: the head must say
		 * (one unmistakably hex line is enough when the format is
		 * named; a bad line is reported with its number when read) */
		int hex;
		if (scan_text(head, hl, &hex) > 0 && hex == 0) {
			rc = pc_stream_fail(s, PC_EAMBIGUOUS, 0,
					    "the addresses could be decimal or hex (none has 0x, $, seg:off or a digit a-f in the first 4 KiB): give the option radix=10 or radix=16");
			goto out;
		}
		L.radix = 16;
	}
	rc = add_layout_regions(p, s, &L);
	if (rc)
		goto out;
	/* an empty file (or pipe, or gzip of nothing) is not an empty
	 * report: whatever recorded it gave nothing to read (checked after
	 * the layout, whose mistakes are usage errors) */
	int at_end;
	rc = pc_stream_eof(&at_end, s);
	if (!rc && at_end)
		rc = pc_stream_fail(s, PC_EFORMAT, 0,
				    "empty file: expected raw PC records, found 0 bytes");
	if (rc)
		goto out;
	if (L.encoding == ENC_TEXT)
		rc = load_text(p, s, &L);
	else
		rc = load_binary(p, s, &L);
out:
	pc_options_free(bag);
	return rc;
}

static const char *const raw_ext[] = {NULL};

static const pc_option_decl raw_options[] = {
	{"layout", PC_OPTION_STRING, NULL, NULL,
	 "a YAML file holding the keys below"},
	{"encoding", PC_OPTION_ENUM, "binary,text", NULL,
	 "binary records or text addresses"},
	{"width", PC_OPTION_STRING, NULL, NULL,
	 "bits of a PC: 16, 24, 32 or 64 (or bytes 2, 3, 4, 8)"},
	{"endian", PC_OPTION_ENUM, "little,le,big,be", "little",
	 "byte order of a binary PC"},
	{"pair", PC_OPTION_ENUM, "ip:cs,cs:ip,none", "none",
	 "real-mode segment:offset pairs"},
	{"mask", PC_OPTION_STRING, NULL, NULL,
	 "ANDed with every address (not 0)"},
	{"stride", PC_OPTION_STRING, NULL, NULL,
	 "bytes per record, 1..65536"},
	{"offset", PC_OPTION_STRING, NULL, "0",
	 "offset of the PC in a record"},
	{"skip", PC_OPTION_STRING, NULL, "0",
	 "bytes skipped at the start"},
	{"radix", PC_OPTION_STRING, NULL, "16",
	 "text addresses: 16 or 10"},
	{"origin", PC_OPTION_STRING, NULL, NULL,
	 "address of the program's start"},
	{"program-end", PC_OPTION_STRING, NULL, NULL,
	 "address of the program's end"},
	{"regions", PC_OPTION_STRING, NULL, NULL,
	 "LOW-HIGH:CLASS,... named address ranges"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_raw = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "raw",
	.description = "raw PC dump: fixed-width binary records or text, one PC each (ES 1800, pamsdos, probes)",
	.roles = PC_ROLE_SAMPLES,
	.extensions = raw_ext,
	.probe = raw_probe,
	.load = raw_load,
	.order = 50,
	.options = raw_options,
};
