/* diag.c - errors, warnings and notes (diag.h). */
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pc_diag_init(pc_diag *d)
{
	memset(d, 0, sizeof *d);
	d->err.pub.offset = -1;
}

void pc_diag_dispose(pc_diag *d)
{
	free(d->warnings);
	free(d->notes);
	pc_errslot_clear(&d->err);
	pc_strpool_free(&d->pool);
	pc_diag_init(d);
}

int pc_diag_vfail_at(pc_diag *d, int code, const char *file, int64_t off,
		     const char *fmt, va_list ap)
{
	pc_errslot_set(&d->err, code, file, off, fmt, ap);
	return code;
}

int pc_diag_fail(pc_diag *d, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pc_diag_vfail_at(d, code, NULL, -1, fmt, ap);
	va_end(ap);
	return code;
}

int pc_diag_fail_at(pc_diag *d, int code, const char *file, int64_t off,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pc_diag_vfail_at(d, code, file, off, fmt, ap);
	va_end(ap);
	return code;
}

const pc_error *pc_diag_error(const pc_diag *d)
{
	return d->err.pub.code ? &d->err.pub : NULL;
}

/* Appends a formatted line (kept in d's pool) to a list. */
static int add_line(pc_diag *d, const char ***v, size_t *n, size_t *cap,
		    const char *fmt, va_list ap)
{
	char buf[1024];
	vsnprintf(buf, sizeof buf, fmt, ap);
	const char *w = pc_strpool_add(&d->pool, buf);
	if (!w || pc_grow((void **)v, cap, *n + 1, sizeof **v))
		return PC_ENOMEM;
	(*v)[(*n)++] = w;
	return PC_OK;
}

int pc_diag_vwarn(pc_diag *d, const char *fmt, va_list ap)
{
	return add_line(d, &d->warnings, &d->nwarn, &d->capwarn, fmt, ap);
}

int pc_diag_warn(pc_diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int st = pc_diag_vwarn(d, fmt, ap);
	va_end(ap);
	return st;
}

int pc_diag_vnote(pc_diag *d, const char *fmt, va_list ap)
{
	return add_line(d, &d->notes, &d->nnote, &d->capnote, fmt, ap);
}

int pc_diag_note(pc_diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int st = pc_diag_vnote(d, fmt, ap);
	va_end(ap);
	return st;
}

size_t pc_diag_warning_count(const pc_diag *d)
{
	return d->nwarn;
}

const char *pc_diag_warning_at(const pc_diag *d, size_t i)
{
	return i < d->nwarn ? d->warnings[i] : NULL;
}

size_t pc_diag_note_count(const pc_diag *d)
{
	return d->nnote;
}

const char *pc_diag_note_at(const pc_diag *d, size_t i)
{
	return i < d->nnote ? d->notes[i] : NULL;
}
