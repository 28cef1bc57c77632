/* Truncated and corrupted Unix histogram files: every fixture layout
 * (gmon.out in all layouts, mon.out, multi-range profil) cut at many
 * lengths and with bytes overwritten must load or fail cleanly: a status,
 * a message without a trailing period and an offset inside the file; a
 * loaded profile must attribute and render.  Run under ASan/UBSan in CI. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <dirent.h>

#include "profcore.h"
#include "profcore_plugin.h"

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	unsigned char *b = malloc(1 << 20);
	*len = b ? fread(b, 1, 1 << 20, f) : 0;
	fclose(f);
	return b;
}

static const char *format_of(const char *name)
{
	size_t n = strlen(name);
	if (n > 4 && strcmp(name + n - 4, ".mon") == 0)
		return "monout";
	if (n > 6 && strcmp(name + n - 6, ".mprof") == 0)
		return "osf";
	return "gmon";
}

static unsigned long loads, failures;

static void try_load(const unsigned char *b, size_t len, const char *format,
		     unsigned width, pc_endian e, const pc_options *o)
{
	pc_profile *p;
	pc_profile_new(&p, NULL);
	pc_symbol s = {.name = "x", .segment = PC_NOSEG, .address = 0x1000, .kind = PC_SYM_TEXT};
	pc_profile_add_symbol(p, &s);
	if (width)
		pc_profile_set_target(p, width, e);
	int st = pc_profile_load_memory(p, b, len, "h.bin", format, o);
	loads++;
	if (st == PC_OK) {
		char *out = NULL;
		size_t n = 0;
		assert_int_equal(pc_profile_attribute(p, NULL), PC_OK);
		assert_int_equal(pc_profile_render(&out, &n, p, NULL, NULL),
				 PC_OK);
		pc_free(out);
	} else {
		failures++;
		assert_true(st < 0 && st >= PC_ENOTFOUND);
		const pc_error *err = pc_profile_error(p);
		assert_non_null(err);
		assert_non_null(err->message);
		size_t m = strlen(err->message);
		assert_true(m > 0);
		assert_true(err->message[m - 1] != '.');
		assert_true(err->offset >= -1 && err->offset <= (int64_t)len);
	}
	pc_profile_free(p);
}

static void mutate_file(const char *path, const char *name, unsigned width)
{
	size_t len = 0;
	unsigned char *orig = slurp(path, &len);
	assert_non_null(orig);
	const char *format = format_of(name);
	pc_options *pdp;
	assert_int_equal(pc_options_new(&pdp), PC_OK);
	pc_options_set(pdp, "profil", "glibc");
	const pc_options *o = strcmp(format, "monout") == 0 ? pdp : NULL;
	unsigned char *b = malloc(len + 1);
	/* every cut in the first 96 bytes, then every 29th */
	for (size_t cut = 0; cut < len; cut += cut < 96 ? 1 : 29) {
		memcpy(b, orig, cut);
		try_load(b, cut, format, width, PC_ENDIAN_LITTLE, o);
		try_load(b, cut, NULL, 0, PC_ENDIAN_UNKNOWN, NULL);
	}
	/* overwrite one byte: each of the first 96, then every 13th */
	static const unsigned char vals[] = {0x00, 0xff, 0x80, 0x7f};
	for (size_t at = 0; at < len; at += at < 96 ? 1 : 13) {
		for (size_t v = 0; v < sizeof vals; v++) {
			memcpy(b, orig, len);
			b[at] = vals[v];
			try_load(b, len, format, width, PC_ENDIAN_LITTLE, o);
		}
	}
	free(b);
	free(orig);
	pc_options_free(pdp);
}

static void all_fixtures(void **state)
{
	(void)state;
	const char *root = getenv("PC_SOURCE_ROOT");
	assert_non_null(root);
	const char *variants[] = {"x86_64-nopie", "i386-nopie"};
	for (size_t v = 0; v < 2; v++) {
		unsigned width = v == 0 ? 8 : 4;
		char dir[2048], path[2048 + 512];
		snprintf(path, sizeof path, "%s/tests/unix/fixtures/%s/gmon.out", root, variants[v]);
		mutate_file(path, "gmon.out", width);
		snprintf(dir, sizeof dir, "%s/tests/unix/fixtures/%s/layouts", root, variants[v]);
		DIR *d = opendir(dir);
		assert_non_null(d);
		struct dirent *de;
		while ((de = readdir(d))) {
			const char *n = de->d_name;
			size_t l = strlen(n);
			if (n[0] == '.' || (l > 4 && strcmp(n + l - 4, ".txt") == 0))
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, n);
			mutate_file(path, n, width);
		}
		closedir(d);
	}
	print_message("%lu loads, %lu failed cleanly\n", loads, failures);
	assert_true(loads > 10000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(all_fixtures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
