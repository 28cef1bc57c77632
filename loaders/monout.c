/*
 * monout.c - V6/V7-era mon.out, written by monitor(3) and read by prof(1).
 *
 * Layout (research/unix-formats.md section 3); no magic, no version:
 *
 *   P bytes   lowpc            P = 2 (PDP-11) or 4 (VAX, i386, 68k ports)
 *   P bytes   highpc
 *   P bytes   ncnt             number of call-count slots
 *   ncnt x    { pc (P bytes); long ncall (4 bytes) }   slot = P + 4 bytes
 *                              (SVR3-derived monitor(): 12-byte slots)
 *   rest      16-bit histogram counters until the end of the file
 *
 * PDP-11 words are little-endian and a PDP-11 long is two words, high word
 * first ("pdp" order).  A file moved to a big-endian machine byte-swapped
 * (endian=big) has plain big-endian words and longs.
 *
 * Width, byte order and slot size are not in the file.  They come from
 * options (width=2|4, endian=little|big, slot=6|8|12), else from the paired
 * executable (pc_profile_target_width/endian), else every reading that is
 * consistent with the file is tried; one reading is used with a warning,
 * several give PC_EAMBIGUOUS naming them.
 *
 * Counters to addresses: a 16-bit (PDP-11) mon.out by default with the
 * V6/V7 kernel's exact arithmetic (profil=pdp11): its equal-bucket reading
 * credits whole 2-byte units under buckets of fractional width and so
 * overshoots (a bucket spanning three units credits 9/8 of its count).
 * Other layouts by default as prof(1) (and gprof) did it, the range
 * [lowpc, highpc) split into nbins equal buckets.  profil=prof|pdp11|vax|
 * ultrix|bsd|glibc chooses: that kernel's exact pc -> counter arithmetic
 * with the scale monitor() chose (or scale=N), see profil_map.h.
 *
 * Call counts: each used slot counts calls of the function holding its pc
 * (callers unknown: pc_profile_add_calls).
 */
#include "binhead.h"
#include "internal.h"
#include "profil_map.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest mon.out read: 32-bit monitor() buffers were sized in ints. */
#define MONOUT_MAX_BYTES ((uint64_t)1 << 31)

typedef struct layout {
	unsigned width;  /* 2 or 4 */
	pc_endian endian;
	unsigned slot;   /* 6, 8 or 12 */
} layout;

typedef struct reading {
	layout l;
	uint64_t lowpc, highpc, ncnt, nbins;
	size_t hdr, used; /* header bytes; used call slots */
} reading;

static uint64_t get_word(const unsigned char *b, unsigned width, pc_endian e)
{
	return pc_get_uint(b, width, e);
}

/* A PDP-11 long: high word first, each word in the file's word order. */
static uint64_t get_long(const unsigned char *b, unsigned width, pc_endian e)
{
	if (width == 2 && e == PC_ENDIAN_LITTLE)
		return ((uint64_t)pc_get_u16(b, e) << 16) | pc_get_u16(b + 2, e);
	return pc_get_u32(b, e);
}

static const char *layout_name(const layout *l, char *buf, size_t n)
{
	snprintf(buf, n, "%u-bit %s%s, %u-byte slots", l->width * 8,
		 l->width == 2 && l->endian == PC_ENDIAN_LITTLE ? "pdp-endian"
		 : l->endian == PC_ENDIAN_LITTLE		? "little-endian"
								: "big-endian",
		 l->width == 2 ? " (PDP-11)" : "", l->slot);
	return buf;
}

/* Why a layout does not fit: the byte offset and what was expected. */
typedef struct misfit {
	int64_t off;
	char msg[200];
} misfit;

static int no_fit(misfit *why, uint64_t off, const char *fmt, ...) PC_PRINTF(3, 4);
static int no_fit(misfit *why, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	why->off = (int64_t)off;
	va_start(ap, fmt);
	vsnprintf(why->msg, sizeof why->msg, fmt, ap);
	va_end(ap);
	return 0;
}

/* Does the file read consistently with layout l?  Checks: lowpc < highpc,
 * the slots fit and leave an even number of counter bytes, used slots come
 * first (monitor fills them in order) and hold pcs in [lowpc, highpc].
 * If not, *why says where and what was expected. */
static int try_layout_at(const unsigned char *b, uint64_t size, const layout *l,
			 reading *out, misfit *why, int prefix)
{
	unsigned w = l->width;
	uint64_t hdr = 3 * (uint64_t)w;
	if (size < hdr)
		return no_fit(why, size, "header (lowpc, highpc, ncnt) needs %llu bytes, the file has %llu",
			      (unsigned long long)hdr, (unsigned long long)size);
	reading r = {.l = *l, .hdr = (size_t)hdr};
	r.lowpc = get_word(b, w, l->endian);
	r.highpc = get_word(b + w, w, l->endian);
	r.ncnt = get_word(b + 2 * w, w, l->endian);
	if (r.lowpc >= r.highpc)
		return no_fit(why, 0, "lowpc 0x%llx is not below highpc 0x%llx",
			      (unsigned long long)r.lowpc, (unsigned long long)r.highpc);
	/* monitor()'s buffer (header, slots, counters) lived in the PDP-11's
	 * 64 KiB address space: read so far of an input of unknown size,
	 * more than that is no 16-bit mon.out */
	if (prefix && w == 2 && size > 65536)
		return no_fit(why, 65536, "a 16-bit mon.out is at most 64 KiB (the PDP-11's address space), more follows");
	if (prefix) { /* only the call slots already read */
		uint64_t have = (size - hdr) / l->slot;
		if (r.ncnt > have)
			r.ncnt = have;
	} else if (r.ncnt > (size - hdr) / l->slot)
		return no_fit(why, 2 * w, "%llu call slots of %u bytes need %llu bytes after the header, only %llu follow",
			      (unsigned long long)r.ncnt, l->slot,
			      (unsigned long long)(r.ncnt * l->slot),
			      (unsigned long long)(size - hdr));
	uint64_t rest = size - hdr - r.ncnt * l->slot;
	if (!prefix && rest % 2)
		return no_fit(why, size - 1, "an odd number (%llu) of histogram bytes follows the call slots, expected 16-bit counters",
			      (unsigned long long)rest);
	r.nbins = rest / 2;
	int seen_free = 0;
	for (uint64_t i = 0; i < r.ncnt; i++) {
		uint64_t at = hdr + i * l->slot;
		uint64_t pc = get_word(b + at, w, l->endian);
		uint64_t n = get_long(b + at + w, w, l->endian);
		if (pc == 0) {
			if (n != 0)
				return no_fit(why, at + w, "free call slot %llu has a count of %llu, expected 0",
					      (unsigned long long)i, (unsigned long long)n);
			seen_free = 1;
			continue;
		}
		if (seen_free)
			return no_fit(why, at, "call slot %llu is used after a free one (monitor fills them in order)",
				      (unsigned long long)i);
		if (pc < r.lowpc || pc > r.highpc)
			return no_fit(why, at, "call slot %llu: pc 0x%llx is outside lowpc..highpc (0x%llx..0x%llx)",
				      (unsigned long long)i, (unsigned long long)pc,
				      (unsigned long long)r.lowpc, (unsigned long long)r.highpc);
		r.used++;
	}
	*out = r;
	return 1;
}

static int try_layout(const unsigned char *b, uint64_t size, const layout *l,
		      reading *out, misfit *why)
{
	return try_layout_at(b, size, l, out, why, 0);
}

/* The rest of s when its size is unknown (gzip, pipe, device), read in
 * growing chunks; stops early, with PC_EFORMAT naming the first layout's
 * misfit, once the bytes read so far fit no allowed layout (lowpc <
 * highpc, the call slots read so far as monitor() writes them), so that
 * an endless input that is no mon.out (-f monout /dev/urandom) ends
 * within a few call slots.  allowed[i] says which of the n layouts the
 * options leave. */
static int read_checked(pc_stream *s, const layout *all, const int *allowed,
			size_t n, int restricted, void **out, size_t *outlen)
{
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, chunk = 4096;
	for (;;) {
		if (pc_grow((void **)&buf, &cap, len + chunk + 1, 1)) {
			free(buf);
			return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
		}
		size_t r;
		int st = pc_stream_read_some(buf + len, chunk, &r, s);
		if (st) {
			free(buf);
			return st;
		}
		if (r == 0)
			break;
		len += r;
		if (len > MONOUT_MAX_BYTES) {
			free(buf);
			return pc_stream_fail(s, PC_ELIMIT, 0,
					      "file is larger than the limit of %llu bytes",
					      (unsigned long long)MONOUT_MAX_BYTES);
		}
		if (chunk < ((size_t)1 << 20))
			chunk *= 2;
		size_t fit = 0, tried = 0;
		misfit why = {0, ""}, m;
		const layout *why_l = NULL;
		for (size_t i = 0; i < n; i++) {
			reading rd;
			if (!allowed[i] || len < 3 * (size_t)all[i].width)
				continue;
			tried++;
			if (try_layout_at(buf, len, &all[i], &rd, &m, 1))
				fit++;
			else if (!why_l) {
				why = m;
				why_l = &all[i];
			}
		}
		if (tried && !fit) {
			char one[96];
			free(buf);
			if (tried == 1)
				return pc_stream_fail(s, PC_EFORMAT, why.off,
						      "not a %s mon.out: %s",
						      layout_name(why_l, one, sizeof one), why.msg);
			return pc_stream_fail(s, PC_EFORMAT, 0,
					      "not a mon.out: in no %slayout do lowpc < highpc and the call slots read as monitor() writes them (used slots first, their pcs within lowpc..highpc, free slots zero)",
					      restricted ? "allowed " : "");
		}
	}
	if (pc_grow((void **)&buf, &cap, len + 1, 1)) {
		free(buf);
		return pc_stream_fail(s, PC_ENOMEM, -1, "out of memory");
	}
	buf[len] = '\0';
	*out = buf;
	*outlen = len;
	return PC_OK;
}

static int parse_endian(const char *v, pc_endian *e)
{
	if (strcmp(v, "little") == 0 || strcmp(v, "le") == 0 ||
	    strcmp(v, "pdp") == 0)
		*e = PC_ENDIAN_LITTLE;
	else if (strcmp(v, "big") == 0 || strcmp(v, "be") == 0)
		*e = PC_ENDIAN_BIG;
	else
		return -1;
	return 0;
}

static int monout_probe(const unsigned char *head, size_t len,
			const char *filename)
{
	/* No magic: claim only files named like mon.out (not gmon.out) whose
	 * header reads consistently in some layout. */
	if (!filename)
		return 0;
	const char *base = pc_basename(filename);
	size_t bl = strlen(base);
	int named = strcmp(base, "mon.out") == 0 ||
		    (bl > 4 && strcmp(base + bl - 4, ".mon") == 0) ||
		    strncmp(base, "mon.out.", 8) == 0;
	if (!named || len < 6 || !pc_binary_evidence(head, len))
		return 0;
	static const layout cands[] = {
		{2, PC_ENDIAN_LITTLE, 6}, {2, PC_ENDIAN_BIG, 6},
		{4, PC_ENDIAN_LITTLE, 8}, {4, PC_ENDIAN_BIG, 8},
	};
	for (size_t i = 0; i < sizeof cands / sizeof *cands; i++) {
		unsigned w = cands[i].width;
		if (len < 3 * w)
			continue;
		uint64_t lo = get_word(head, w, cands[i].endian);
		uint64_t hi = get_word(head + w, w, cands[i].endian);
		if (lo < hi)
			return 12;
	}
	return 0;
}

static int monout_load(pc_profile *p, pc_stream *s, const pc_options *opts)
{
	/* ---- what the options and the executable fix ---- */
	uint64_t ow = 0, oslot = 0, scale_opt = 0;
	int have_w = 0, have_slot = 0, have_scale = 0;
	if (pc_options_get_u64(&ow, &have_w, opts, "width") < 0)
		have_w = -1;
	if (pc_options_get_u64(&oslot, &have_slot, opts, "slot") < 0)
		have_slot = -1;
	if (pc_options_get_u64(&scale_opt, &have_scale, opts, "scale") < 0)
		have_scale = -1;
	if (have_w < 0 || (have_w && ow != 2 && ow != 4))
		return pc_profile_fail(p, PC_EUSAGE,
				       "option width must be 2 or 4 for a mon.out");
	if (have_slot < 0 || (have_slot && oslot != 6 && oslot != 8 && oslot != 12))
		return pc_profile_fail(p, PC_EUSAGE,
				       "option slot must be 6, 8 or 12");
	if (have_scale < 0 || (have_scale && (scale_opt == 0 || scale_opt > 0x10000)))
		return pc_profile_fail(p, PC_EUSAGE,
				       "option scale must be 1..0x10000");
	pc_endian oe = PC_ENDIAN_UNKNOWN;
	const char *ev = pc_options_get(opts, "endian");
	if (ev && parse_endian(ev, &oe))
		return pc_profile_fail(p, PC_EUSAGE,
				       "option endian must be little, big or pdp, not '%s'", ev);
	pc_profil_rule rule = PC_PROFIL_UNIFORM;
	const char *rv = pc_options_get(opts, "profil");
	if (rv && pc_profil_rule_parse(rv, &rule))
		return pc_profile_fail(p, PC_EUSAGE,
				       "option profil must be one of " PC_PROFIL_RULE_NAMES ", not '%s'",
				       rv);
	double rate = 0;
	if (pc_options_get_double(&rate, NULL, opts, "rate") < 0 || rate < 0)
		return pc_profile_fail(p, PC_EUSAGE,
				       "option rate must be a number of ticks per second");
	unsigned tw = pc_profile_target_width(p);
	pc_endian te = pc_profile_target_endian(p);
	unsigned want_w = have_w ? (unsigned)ow : (tw == 2 || tw == 4) ? tw : 0;
	pc_endian want_e = oe != PC_ENDIAN_UNKNOWN ? oe : te;

	/* an input of unknown size (gzip, pipe, /dev/zero) is read whole only
	 * when some allowed layout has lowpc < highpc in its first words */
	const unsigned char *head;
	size_t hl = 0;
	uint64_t known_size;
	int size_known;
	pc_stream_size(&known_size, &size_known, s);
	if (!size_known && pc_stream_peek(&head, &hl, s) == PC_OK && hl >= 8) {
		int any = 0;
		for (unsigned w = 2; w <= 4; w += 2)
			for (int e = 0; e < 2; e++) {
				pc_endian en = e ? PC_ENDIAN_BIG : PC_ENDIAN_LITTLE;
				if ((!want_w || want_w == w) &&
				    (want_e == PC_ENDIAN_UNKNOWN || want_e == en) &&
				    get_word(head, w, en) < get_word(head + w, w, en))
					any = 1;
			}
		if (!any)
			return pc_stream_fail(s, PC_EFORMAT, 0,
					      "not a mon.out: in no %slayout is lowpc below highpc",
					      want_w || want_e ? "allowed " : "");
	}
	/* ---- candidate readings ---- */
	static const layout all[] = {
		{2, PC_ENDIAN_LITTLE, 6}, {2, PC_ENDIAN_BIG, 6},
		{4, PC_ENDIAN_LITTLE, 8}, {4, PC_ENDIAN_BIG, 8},
		{4, PC_ENDIAN_LITTLE, 12}, {4, PC_ENDIAN_BIG, 12},
	};
	void *data = NULL;
	size_t size = 0;
	int st;
	if (!size_known) {
		int allowed[sizeof all / sizeof *all];
		for (size_t i = 0; i < sizeof all / sizeof *all; i++)
			allowed[i] = (!want_w || all[i].width == want_w) &&
				     (want_e == PC_ENDIAN_UNKNOWN || all[i].endian == want_e) &&
				     (!have_slot || all[i].slot == oslot);
		st = read_checked(s, all, allowed, sizeof all / sizeof *all,
				  want_w || want_e || have_slot, &data, &size);
	} else {
		st = pc_stream_read_all(&data, &size, s, MONOUT_MAX_BYTES);
	}
	if (st)
		return st;
	unsigned char *b = data;

	reading ok[sizeof all / sizeof *all];
	size_t nok = 0, nconsidered = 0;
	misfit why = {0, ""};
	layout why_l = all[0];
	for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
		const layout *l = &all[i];
		if (want_w && l->width != want_w)
			continue;
		if (want_e != PC_ENDIAN_UNKNOWN && l->endian != want_e)
			continue;
		if (have_slot && l->slot != oslot)
			continue;
		nconsidered++;
		reading r;
		misfit m;
		if (!try_layout(b, size, l, &r, &m)) {
			if (nconsidered == 1) {
				why = m;
				why_l = *l;
			}
			continue;
		}
		/* with no used slot, slot sizes read the same: keep one */
		int dup = 0;
		for (size_t k = 0; k < nok; k++)
			if (ok[k].l.width == l->width && ok[k].l.endian == l->endian &&
			    ok[k].ncnt == 0 && r.ncnt == 0)
				dup = 1;
		if (!dup)
			ok[nok++] = r;
	}
	if (nconsidered == 0) {
		pc_free(b);
		return pc_stream_fail(s, PC_EUSAGE, -1,
				      "no mon.out layout has %u-byte words and %llu-byte slots (2-byte words go with 6-byte slots, 4-byte words with 8 or 12)",
				      want_w, (unsigned long long)oslot);
	}
	if (nok == 0 && nconsidered == 1) {
		char one[96];
		pc_free(b);
		return pc_stream_fail(s, size < 3 * (uint64_t)why_l.width ? PC_ETRUNC : PC_EFORMAT,
				      why.off, "not a %s mon.out: %s",
				      layout_name(&why_l, one, sizeof one), why.msg);
	}
	if (nok == 0) {
		pc_free(b);
		return pc_stream_fail(s, PC_EFORMAT, 0,
				      "not a mon.out: in no %slayout do lowpc < highpc, the call slots and an even number of counter bytes fit the %llu-byte file",
				      want_w || want_e || have_slot ? "allowed " : "",
				      (unsigned long long)size);
	}
	if (nok > 1) {
		char list[512] = "", one[96];
		for (size_t k = 0; k < nok; k++) {
			size_t n = strlen(list);
			snprintf(list + n, sizeof list - n, "%s%s", k ? "; " : "",
				 layout_name(&ok[k].l, one, sizeof one));
		}
		pc_free(b);
		return pc_stream_fail(s, PC_EAMBIGUOUS, 0,
				      "mon.out layout is ambiguous: it reads as %s; choose with the options width=2|4, endian=little|big%s",
				      list, have_slot ? "" : " or slot=6|8|12");
	}
	reading r = ok[0];
	if (!rv && r.l.width == 2)
		rule = PC_PROFIL_PDP11; /* the only 16-bit monitor(): exact, no overshoot */
	if (nconsidered > 1) {
		char one[96];
		pc_profile_warn(p, "%s: read as %s mon.out, the only layout that fits (the options width, endian and slot force one)",
				pc_stream_name(s), layout_name(&r.l, one, sizeof one));
	}

	/* ---- call counts ---- */
	for (uint64_t i = 0; i < r.ncnt && st == PC_OK; i++) {
		const unsigned char *sl = b + r.hdr + i * r.l.slot;
		uint64_t pc = get_word(sl, r.l.width, r.l.endian);
		uint64_t n = get_long(sl + r.l.width, r.l.width, r.l.endian);
		if (pc == 0)
			break;
		st = pc_profile_add_calls(p, PC_NOSEG, pc, n);
	}

	/* ---- histogram ---- */
	uint64_t cstart = r.hdr + r.ncnt * r.l.slot;
	uint64_t *counts = NULL;
	if (st == PC_OK && r.nbins) {
		counts = malloc((size_t)r.nbins * sizeof *counts);
		if (!counts)
			st = PC_ENOMEM;
	}
	if (st == PC_OK && r.nbins) {
		for (uint64_t i = 0; i < r.nbins; i++)
			counts[i] = pc_get_u16(b + cstart + 2 * i, r.l.endian);
		if (rule == PC_PROFIL_UNIFORM) {
			pc_histogram h = {
				.segment = PC_NOSEG,
				.low = r.lowpc,
				.high = r.highpc,
				.nbins = (size_t)r.nbins,
				.counts = counts,
				.unit = 2,
			};
			st = pc_profile_add_histogram(p, &h);
		} else {
			uint32_t scale = have_scale ? (uint32_t)scale_opt
					 : pc_profil_monitor_scale(rule, r.lowpc, r.highpc, r.nbins);
			size_t bad = 0;
			st = pc_profil_add_exact(p, PC_NOSEG, rule, r.lowpc, scale,
						 r.l.width, counts, (size_t)r.nbins, &bad);
			if (st == PC_EFORMAT)
				st = pc_stream_fail(s, PC_EFORMAT, (int64_t)(cstart + 2 * bad),
						    "counter %zu holds %llu ticks but no pc maps to it with profil=%s scale=0x%x (wrong profil or scale option?)",
						    bad, (unsigned long long)counts[bad],
						    pc_profil_rule_name(rule), (unsigned)scale);
		}
	}
	free(counts);
	pc_free(b);
	if (st)
		return st;

	if (rate > 0)
		pc_profile_set_rate(p, rate);
	else if (pc_profile_rate(p) == 0 && r.l.width == 2)
		pc_profile_set_rate(p, 60); /* PDP-11 line clock, as V7 prof */
	if (pc_profile_target_width(p) == 0)
		pc_profile_set_target(p, r.l.width, r.l.endian);
	return PC_OK;
}

static const char *const monout_ext[] = {"mon.out", ".mon", NULL};

static const pc_option_decl monout_options[] = {
	{"width", PC_OPTION_ENUM, "2,4", NULL,
	 "address width in bytes; default: detected"},
	{"slot", PC_OPTION_ENUM, "6,8,12", NULL,
	 "bytes per call-count slot; default: detected"},
	{"scale", PC_OPTION_U64, NULL, NULL,
	 "profil scale, 1..0x10000; default: from the file"},
	{"endian", PC_OPTION_ENUM, "little,le,pdp,big,be", NULL,
	 "byte order; default: detected"},
	{"profil", PC_OPTION_ENUM, "prof,pdp11,vax,ultrix,bsd,glibc", "prof",
	 "the kernel's profil bucket rule"},
	{"rate", PC_OPTION_DOUBLE, NULL, NULL,
	 "clock ticks per second"},
	{NULL, PC_OPTION_STRING, NULL, NULL, NULL},
};

const pc_loader pc_loader_monout = {
	.abi_version = PC_LOADER_ABI_VERSION,
	.name = "monout",
	.description = "V6/V7-era mon.out (monitor(3), prof(1)): PDP-11 and 32-bit, either byte order",
	.roles = PC_ROLE_SAMPLES | PC_ROLE_ARCS,
	.extensions = monout_ext,
	.probe = monout_probe,
	.load = monout_load,
	.order = 50,
	.options = monout_options,
};
