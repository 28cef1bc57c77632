/* text.c - what every report layout shares below the rows: the output
 * format, boolean options, region labels and the text helpers (counts,
 * padding, bars, the percent axis).  See text.h. */
#include "text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int pc_rs_outfmt(pc_profile *p, const pc_options *o, pc_outfmt *fmt)
{
	const char *v = pc_options_get(o, "output-format");
	if (!v || strcmp(v, "text") == 0)
		*fmt = PC_OUT_TEXT;
	else if (strcmp(v, "csv") == 0)
		*fmt = PC_OUT_CSV;
	else if (strcmp(v, "json") == 0)
		*fmt = PC_OUT_JSON;
	else
		return pc_profile_fail(p, PC_EUSAGE,
				       "output format must be text, csv or json, not '%s'",
				       v);
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
