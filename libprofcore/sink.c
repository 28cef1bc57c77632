/* sink.c - the growable output buffer every report writes into. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pc_sink_init(pc_sink *k)
{
	memset(k, 0, sizeof *k);
}

void pc_sink_dispose(pc_sink *k)
{
	free(k->buf);
	memset(k, 0, sizeof *k);
}

static int reserve(pc_sink *k, size_t n)
{
	if (k->failed)
		return k->failed;
	if (n > SIZE_MAX - k->len - 1 ||
	    pc_grow((void **)&k->buf, &k->cap, k->len + n + 1, 1) != PC_OK) {
		k->failed = PC_ENOMEM;
		return PC_ENOMEM;
	}
	return PC_OK;
}

int pc_sink_write(pc_sink *k, const void *data, size_t n)
{
	if (reserve(k, n))
		return k->failed;
	memcpy(k->buf + k->len, data, n);
	k->len += n;
	k->buf[k->len] = '\0';
	return PC_OK;
}

int pc_sink_puts(pc_sink *k, const char *s)
{
	return pc_sink_write(k, s, strlen(s));
}

int pc_sink_putc(pc_sink *k, char c)
{
	return pc_sink_write(k, &c, 1);
}

int pc_sink_repeat(pc_sink *k, char c, size_t n)
{
	if (reserve(k, n))
		return k->failed;
	memset(k->buf + k->len, c, n);
	k->len += n;
	k->buf[k->len] = '\0';
	return PC_OK;
}

int pc_sink_vprintf(pc_sink *k, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return PC_EUSAGE;
	if (reserve(k, (size_t)n))
		return k->failed;
	vsnprintf(k->buf + k->len, (size_t)n + 1, fmt, ap);
	k->len += (size_t)n;
	return PC_OK;
}

int pc_sink_printf(pc_sink *k, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = pc_sink_vprintf(k, fmt, ap);
	va_end(ap);
	return r;
}

int pc_sink_json_string(pc_sink *k, const char *s)
{
	pc_sink_putc(k, '"');
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;
	     p++) {
		switch (*p) {
		case '"': pc_sink_puts(k, "\\\""); break;
		case '\\': pc_sink_puts(k, "\\\\"); break;
		case '\n': pc_sink_puts(k, "\\n"); break;
		case '\r': pc_sink_puts(k, "\\r"); break;
		case '\t': pc_sink_puts(k, "\\t"); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				pc_sink_printf(k, "\\u%04x", *p);
			else
				pc_sink_putc(k, (char)*p);
		}
	}
	return pc_sink_putc(k, '"');
}

int pc_sink_csv_field(pc_sink *k, const char *s)
{
	s = s ? s : "";
	if (!strpbrk(s, ",\"\r\n"))
		return pc_sink_puts(k, s);
	pc_sink_putc(k, '"');
	for (; *s; s++) {
		if (*s == '"')
			pc_sink_putc(k, '"');
		pc_sink_putc(k, *s);
	}
	return pc_sink_putc(k, '"');
}

int pc_sink_count(pc_sink *k, double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		return pc_sink_printf(k, "%.0f", v);
	char buf[64];
	snprintf(buf, sizeof buf, "%.6f", v);
	size_t n = strlen(buf);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return pc_sink_puts(k, buf);
}
