/* The loader of Capstone's shared library (formats/disasm.c,
 * pc_disasm_load_capstone) in a build that opens it at the first -r disasm
 * instead of linking it (PC_CAPSTONE_DLOPEN): the configured SONAME loads;
 * a name that does not exist, and a library without Capstone's functions,
 * give -r disasm's exact one-line message. */
#include "../common/pc_test.h"
#include "disasm.h"
#include "pc_config.h"

#include <string.h>

#define ADVICE "; install " PC_CAPSTONE_SONAME " (Debian: " PC_CAPSTONE_PACKAGE ")"

static void loads_configured_soname(void **state)
{
	(void)state;
	char msg[600] = "unchanged";
	assert_int_equal(pc_disasm_load_capstone(PC_CAPSTONE_SONAME, msg, sizeof msg), PC_OK);
	assert_string_equal(msg, "unchanged");
}

static void missing_library(void **state)
{
	(void)state;
	char msg[600];
	assert_int_equal(pc_disasm_load_capstone("libcapstone.so.99", msg, sizeof msg),
			 PC_EUNSUPPORTED);
	assert_string_equal(msg, "disasm: cannot load Capstone (libcapstone.so.99: cannot open "
				 "shared object file: No such file or directory)" ADVICE);
}

static void library_without_capstone(void **state)
{
	(void)state;
	char msg[600];
	/* zlib: loaded by libprofcore anyway, and has no cs_open */
	assert_int_equal(pc_disasm_load_capstone("libz.so.1", msg, sizeof msg), PC_EUNSUPPORTED);
	assert_string_equal(msg, "disasm: cannot load Capstone (libz.so.1: no function cs_open)" ADVICE);
}

static void short_buffer(void **state)
{
	(void)state;
	char msg[16];
	assert_int_equal(pc_disasm_load_capstone("libcapstone.so.99", msg, sizeof msg),
			 PC_EUNSUPPORTED);
	assert_string_equal(msg, "disasm: cannot ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads_configured_soname),
		cmocka_unit_test(missing_library),
		cmocka_unit_test(library_without_capstone),
		cmocka_unit_test(short_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
