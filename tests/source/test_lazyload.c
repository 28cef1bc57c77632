/* The loaders of Capstone's and libdw's shared libraries in a build that
 * opens them at their first use instead of linking them (meson.build
 * lazy_libs): formats/disasm.c's pc_disasm_load_capstone
 * (PC_CAPSTONE_DLOPEN) and libprofcore/dwarf.c's pc_dwarf_load_libdw
 * (PC_DWARF_DLOPEN).  The configured SONAME loads; a name that does not
 * exist, and a library without the functions, give the exact one-line
 * message.  A library not opened in this build: its tests skip. */
#include "../common/pc_test.h"
#include "disasm.h"
#include "dwarf_internal.h"
#include "pc_config.h"

#include <string.h>

#define ADVICE "; install " PC_CAPSTONE_SONAME " (Debian: " PC_CAPSTONE_PACKAGE ")"

static void loads_configured_soname(void **state)
{
	(void)state;
	if (!PC_CAPSTONE_DLOPEN)
		skip();
	char msg[600] = "unchanged";
	assert_int_equal(pc_disasm_load_capstone(PC_CAPSTONE_SONAME, msg, sizeof msg), PC_OK);
	assert_string_equal(msg, "unchanged");
}

static void missing_library(void **state)
{
	(void)state;
	if (!PC_CAPSTONE_DLOPEN)
		skip();
	char msg[600];
	assert_int_equal(pc_disasm_load_capstone("libcapstone.so.99", msg, sizeof msg),
			 PC_EUNSUPPORTED);
	assert_string_equal(msg, "disasm: cannot load Capstone (libcapstone.so.99: cannot open "
				 "shared object file: No such file or directory)" ADVICE);
}

static void library_without_capstone(void **state)
{
	(void)state;
	if (!PC_CAPSTONE_DLOPEN)
		skip();
	char msg[600];
	/* zlib: loaded by libprofcore anyway, and has no cs_open */
	assert_int_equal(pc_disasm_load_capstone("libz.so.1", msg, sizeof msg), PC_EUNSUPPORTED);
	assert_string_equal(msg, "disasm: cannot load Capstone (libz.so.1: no function cs_open)" ADVICE);
}

static void short_buffer(void **state)
{
	(void)state;
	if (!PC_CAPSTONE_DLOPEN)
		skip();
	char msg[16];
	assert_int_equal(pc_disasm_load_capstone("libcapstone.so.99", msg, sizeof msg),
			 PC_EUNSUPPORTED);
	assert_string_equal(msg, "disasm: cannot ");
}

#define DW_ADVICE "; install " PC_DWARF_SONAME " (Debian: " PC_DWARF_PACKAGE ")"

static void libdw_loads_configured_soname(void **state)
{
	(void)state;
	if (!PC_DWARF_DLOPEN)
		skip();
	char msg[600] = "unchanged";
	assert_int_equal(pc_dwarf_load_libdw(PC_DWARF_SONAME, msg, sizeof msg), PC_OK);
	assert_string_equal(msg, "unchanged");
}

static void libdw_missing_library(void **state)
{
	(void)state;
	if (!PC_DWARF_DLOPEN)
		skip();
	char msg[600];
	assert_int_equal(pc_dwarf_load_libdw("libdw.so.99", msg, sizeof msg), PC_EUNSUPPORTED);
	assert_string_equal(msg, "cannot load libdw (libdw.so.99: cannot open shared object file: "
				 "No such file or directory): no DWARF" DW_ADVICE);
}

static void libdw_library_without_libdw(void **state)
{
	(void)state;
	if (!PC_DWARF_DLOPEN)
		skip();
	char msg[600];
	assert_int_equal(pc_dwarf_load_libdw("libz.so.1", msg, sizeof msg), PC_EUNSUPPORTED);
	assert_string_equal(msg, "cannot load libdw (libz.so.1: no function dwarf_attr): no DWARF" DW_ADVICE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads_configured_soname),
		cmocka_unit_test(missing_library),
		cmocka_unit_test(library_without_capstone),
		cmocka_unit_test(short_buffer),
		cmocka_unit_test(libdw_loads_configured_soname),
		cmocka_unit_test(libdw_missing_library),
		cmocka_unit_test(libdw_library_without_libdw),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
