/* text.c - what every report layout shares below the rows: the output
 * format, boolean options, region labels and the text helpers (counts,
 * padding, bars, the percent axis).  See text.h. */
#include "text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int pc_rs_outfmt(pc_profile *p, const pc_options *o, pc_outfmt *fmt)
{
	*fmt = pc_options_outfmt(o);
	if (*fmt == PC_OUT_HTML || *fmt == PC_OUT_BAD)
		return pc_profile_fail(p, PC_EUSAGE,
				       "output format must be text, csv or json, not '%s'",
				       pc_options_get(o, "output-format"));
	return PC_OK;
}

/* ASCII case-insensitive equality (no strcasecmp: not in C11/MSVC). */
static int same_word(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = (char)(*a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a);
		char y = (char)(*b >= 'A' && *b <= 'Z' ? *b - 'A' + 'a' : *b);
		if (x != y)
			return 0;
	}
	return *a == *b;
}

int pc_rs_bool(pc_profile *p, const pc_options *o, const char *key, int def,
	       int *out)
{
	const char *v = pc_options_get(o, key);
	*out = def;
	if (!v)
		return PC_OK;
	static const char *const yes[] = {"1", "yes", "on", "true"};
	static const char *const no[] = {"0", "no", "off", "false"};
	for (size_t i = 0; i < 4; i++) {
		if (same_word(v, yes[i])) {
			*out = 1;
			return PC_OK;
		}
		if (same_word(v, no[i])) {
			*out = 0;
			return PC_OK;
		}
	}
	return pc_profile_fail(p, PC_EUSAGE, "%s must be 0 or 1, not '%s'", key,
			       v);
}

const char *pc_rs_region_label(int cls)
{
	switch (cls) {
	case PC_REGION_APPLICATION: return "(no symbol)";
	case PC_REGION_SYSTEM: return "(system)";
	case PC_REGION_DOS: return "(dos)";
	case PC_REGION_IO: return "(i/o)";
	case PC_REGION_HIGH: return "(high)";
	case PC_REGION_LOW: return "PA_BOT_MEM";
	case PC_REGION_LIBRARY: return "(library)";
	case PC_REGION_KERNEL: return "(kernel)";
	default: return "(unknown)";
	}
}

/* ---- text helpers ---------------------------------------------------- */

const char *pc_fmt_count(double v, char *buf, size_t n)
{
	if (v == floor(v) && fabs(v) < 9e15)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.2f", v);
	return buf;
}

int pc_sink_pad(pc_sink *k, const char *s, size_t w, int align)
{
	size_t len = pc_name_width(s);
	size_t pad = len < w ? w - len : 0;
	size_t left = align > 0 ? pad : align == 0 ? pad / 2 : 0;
	pc_sink_repeat(k, ' ', left);
	pc_sink_name(k, s);
	return pc_sink_repeat(k, ' ', pad - left);
}

long pc_round_percent(double pct)
{
	return (long)floor(pct + 0.5);
}

unsigned pc_axis_step(double max_percent)
{
	static const unsigned steps[] = {1, 2, 5, 10};
	for (size_t i = 0; i < 4; i++)
		if (max_percent <= (double)(steps[i] * PC_AXIS_TICKS))
			return steps[i];
	return 10;
}

int pc_axis_write(pc_sink *k, unsigned step)
{
	char lab[16];
	for (unsigned i = 0; i <= PC_AXIS_TICKS; i++) {
		snprintf(lab, sizeof lab, "%u", i * step);
		if (i == PC_AXIS_TICKS)
			pc_sink_puts(k, lab);
		else
			pc_sink_pad(k, lab, PC_AXIS_TICK_COLS, -1);
	}
	return k->failed;
}

size_t pc_axis_stars(double percent, unsigned step)
{
	if (!(percent > 0))
		return 0;
	double v = floor(percent * PC_AXIS_TICK_COLS / step + 1e-9);
	return (size_t)v;
}

/* ---- the line writer ------------------------------------------------- */

int pc_lw_reopen(pc_lw *b)
{
	if (b->out)
		pc_sink_commit(b->k, b->L);
	b->out = pc_sink_room(b->k, PC_LW_CHUNK);
	b->L = 0;
	b->room = b->out ? PC_LW_CHUNK : 0;
	return b->out ? 0 : -1;
}

/* (v == floor(v) tested without a call: below 9e15 the conversion
 * truncates exactly) */
void pc_lw_count(pc_lw *b, double v)
{
	if (fabs(v) < 9e15 && (double)(int64_t)v == v) {
		pc_lw_fixed(b, v, 0);
		return;
	}
	size_t at = b->L;
	pc_lw_fixed(b, v, 6);
	while (b->L > at && b->out[b->L - 1] == '0')
		b->L--;
	if (b->L > at && b->out[b->L - 1] == '.')
		b->L--;
}

void pc_lw_hex(pc_lw *b, uint64_t v, int minw)
{
	int n = 1;
	for (uint64_t x = v >> 4; x; x >>= 4)
		n++;
	if (n < minw)
		n = minw;
	char *q = b->out + b->L + n;
	b->L += (size_t)n;
	for (int i = 0; i < n; i++, v >>= 4)
		*--q = "0123456789abcdef"[v & 15];
}

int pc_lw_name(pc_lw *b, const char *s, const char *special,
	       int (*field)(pc_sink *, const char *), char quote)
{
	char *d = b->out + b->L;
	size_t n = 0;
	if (quote)
		*d++ = quote;
	for (;; n++) {
		unsigned char c = (unsigned char)s[n];
		if (c < 0x20 || c >= 0x7f || n == PC_LW_NAME)
			break;
		d[n] = (char)c;
		if (c == (unsigned char)special[0] || c == (unsigned char)special[1])
			break;
	}
	if (!s[n]) {
		if (quote)
			d[n++] = quote;
		b->L += n + (quote != 0);
		return 0;
	}
	if (pc_lw_reopen(b)) /* (commits the row so far, without the name) */
		return -1;
	field(b->k, s);
	return pc_lw_reopen(b);
}

int pc_lw_name_left(pc_lw *b, const char *s, size_t width)
{
	if (width <= PC_LW_NAME) {
		/* the first bytes one by one (a short name costs no call),
		 * the rest of a long one checked 8 bytes at a time and
		 * copied whole */
		enum { HEAD = 8 };
		char *d = b->out + b->L;
		size_t n = 0;
		unsigned char c;
		while (n < HEAD && (c = (unsigned char)s[n]) >= 0x20 && c < 0x7f)
			d[n++] = (char)c;
		if (n == HEAD && s[n]) {
			const size_t m = strlen(s + n);
			if (m <= PC_LW_NAME - HEAD && pc_name_plain(s + n, m)) {
				memcpy(d + n, s + n, m);
				n += m;
			}
		}
		if (!s[n]) {
			b->L += n;
			pc_lw_blanks(b, n < width ? width - n : 0);
			return 0;
		}
	}
	if (pc_lw_reopen(b))
		return -1;
	pc_sink_pad(b->k, s, width, -1);
	return pc_lw_reopen(b);
}

void pc_rs_sources_json(pc_sink *k, pc_profile *p)
{
	pc_sink_puts(k, "[");
	for (size_t i = 0; i < pc_profile_source_count(p); i++) {
		pc_sink_puts(k, i ? ", {\"format\": " : "{\"format\": ");
		pc_sink_json_string(k, pc_profile_source_format(p, i));
		pc_sink_puts(k, ", \"file\": ");
		pc_sink_json_string(k, pc_profile_source_file(p, i));
		pc_sink_puts(k, "}");
	}
	pc_sink_puts(k, "]");
}
