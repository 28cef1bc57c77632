/* Registry: built-ins, detection, plugins (dlopen), ABI refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profcore.h"
#include "pc_config.h"

static void builtins_present(void **state)
{
	(void)state;
	pc_registry *r;
	pc_registry_new(&r);
	assert_non_null(r);
#if PC_HAVE_ELF
	assert_non_null(pc_registry_find(r, "elf"));
#else
	assert_null(pc_registry_find(r, "elf")); /* -Delf=disabled */
#endif
	assert_non_null(pc_registry_find(r, "gmon"));
	assert_null(pc_registry_find(r, "nonesuch"));
	/* a second registration of a name is refused */
	assert_int_equal(pc_registry_add(r, pc_registry_find(r, "gmon")), PC_EUSAGE);
	assert_string_equal(pc_registry_error(r)->message,
			    "a loader named 'gmon' is already registered");
	pc_registry_free(r);
}

static void detect_by_content(void **state)
{
	(void)state;
	static const unsigned char gmon[20] = "gmon\1\0\0\0";
	pc_stream *s;
	assert_int_equal(pc_stream_open_memory(&s, gmon, sizeof gmon, "x.bin"), PC_OK);
	int conf = 0;
	const pc_loader *l = pc_registry_detect(NULL, s, &conf);
	assert_non_null(l);
	assert_string_equal(l->name, "gmon");
	assert_int_equal(conf, 64);
	pc_stream_free(s);
	static const char text[] = "hello world\n";
	assert_int_equal(pc_stream_open_memory(&s, text, sizeof text - 1, "x.txt"), PC_OK);
	assert_null(pc_registry_detect(NULL, s, &conf));
	assert_int_equal(conf, 0);
	pc_stream_free(s);
}

static void plugin_loads_and_reads(void **state)
{
	(void)state;
	pc_registry *r;
	pc_registry_new(&r);
	assert_int_equal(pc_registry_load_plugin(r, getenv("TOY_PLUGIN")), PC_OK);
	assert_non_null(pc_registry_find(r, "toy"));
	pc_profile *p;
	pc_profile_new(&p, r);
	static const char toy[] = "TOY1\n100 5\n1f0 7\n100 1\n";
	assert_int_equal(pc_profile_load_memory(p, toy, sizeof toy - 1, "t.toy", NULL, NULL),
			 PC_OK);
	assert_int_equal(pc_profile_sample_count(p), 2);
	uint64_t a, c;
	assert_int_equal(pc_profile_sample_at(p, 0, NULL, &a, &c), PC_OK);
	assert_int_equal(a, 0x100);
	assert_int_equal(c, 6);
	assert_int_equal(pc_profile_sample_at(p, 1, NULL, &a, &c), PC_OK);
	assert_int_equal(a, 0x1f0);
	assert_int_equal(c, 7);
	assert_string_equal(pc_profile_source_format(p, 0), "toy");
	pc_profile_free(p);
	pc_registry_free(r);
}

static void plugin_wrong_abi_refused(void **state)
{
	(void)state;
	pc_registry *r;
	pc_registry_new(&r);
	const char *bad = getenv("BAD_PLUGIN");
	assert_int_equal(pc_registry_load_plugin(r, bad), PC_EUNSUPPORTED);
	const pc_error *e = pc_registry_error(r);
	assert_string_equal(e->file, bad);
	assert_string_equal(e->message,
			    "plugin built for loader ABI 99, this libprofcore speaks 1");
	/* not a shared object at all */
	assert_int_equal(pc_registry_load_plugin(r, "/nonexistent/x.so"), PC_EIO);
	pc_registry_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(builtins_present),
		cmocka_unit_test(detect_by_content),
		cmocka_unit_test(plugin_loads_and_reads),
		cmocka_unit_test(plugin_wrong_abi_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
