/*
 * diag.h - errors, warnings and notes (diag.c): the sink every part of
 * the library reports to.  A profile owns one (pc_profile_fail, _warn,
 * _note and pc_profile_error read and write it); the modules below the
 * profile (attribution, demangling, options, the sample store...) are
 * given it and depend on nothing above it.
 * Private to libprofcore, the built-in loaders and the report engines.
 */
#ifndef PC_DIAG_H
#define PC_DIAG_H

#include "pc_base.h"

typedef struct pc_diag {
	pc_errslot err;    /* the last error (pc_profile_error) */
	pc_strpool pool;   /* the warnings' and notes' text */
	const char **warnings;
	size_t nwarn, capwarn;
	const char **notes;
	size_t nnote, capnote;
} pc_diag;

/** An empty sink (no error, no warning, no note). */
PC_INTERNAL void pc_diag_init(pc_diag *d);
/** Frees what d holds; d is then empty. */
PC_INTERNAL void pc_diag_dispose(pc_diag *d);

/** Records an error (file NULL and off -1: none) and returns code. */
PC_INTERNAL int pc_diag_vfail_at(pc_diag *d, int code, const char *file,
				 int64_t off, const char *fmt, va_list ap);
PC_INTERNAL int pc_diag_fail(pc_diag *d, int code, const char *fmt, ...)
	PC_PRINTF(3, 4);
PC_INTERNAL int pc_diag_fail_at(pc_diag *d, int code, const char *file,
				int64_t off, const char *fmt, ...) PC_PRINTF(5, 6);
/** The error recorded last, NULL for none. */
PC_INTERNAL const pc_error *pc_diag_error(const pc_diag *d);

/** Appends a warning or a note (at most 1023 bytes of text): PC_OK, or
 *  PC_ENOMEM (it is then lost). */
PC_INTERNAL int pc_diag_vwarn(pc_diag *d, const char *fmt, va_list ap);
PC_INTERNAL int pc_diag_warn(pc_diag *d, const char *fmt, ...) PC_PRINTF(2, 3);
PC_INTERNAL int pc_diag_vnote(pc_diag *d, const char *fmt, va_list ap);
PC_INTERNAL int pc_diag_note(pc_diag *d, const char *fmt, ...) PC_PRINTF(2, 3);
/** The warnings and notes in the order added; _at: NULL past the end. */
PC_INTERNAL size_t pc_diag_warning_count(const pc_diag *d);
PC_INTERNAL const char *pc_diag_warning_at(const pc_diag *d, size_t i);
PC_INTERNAL size_t pc_diag_note_count(const pc_diag *d);
PC_INTERNAL const char *pc_diag_note_at(const pc_diag *d, size_t i);

#endif
