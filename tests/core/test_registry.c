/* Registry: built-ins, detection, plugins (dlopen), ABI refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profcore.h"
#include "profcore_plugin.h"
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
	const pc_loader *l = pc_registry_detect(&conf, NULL, s);
	assert_non_null(l);
	assert_string_equal(l->name, "gmon");
	assert_int_equal(conf, 64);
	pc_stream_free(s);
	static const char text[] = "hello world\n";
	assert_int_equal(pc_stream_open_memory(&s, text, sizeof text - 1, "x.txt"), PC_OK);
	assert_null(pc_registry_detect(&conf, NULL, s));
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
	assert_int_equal(pc_profile_sample_at(NULL, &a, &c, p, 0), PC_OK);
	assert_int_equal(a, 0x100);
	assert_int_equal(c, 6);
	assert_int_equal(pc_profile_sample_at(NULL, &a, &c, p, 1), PC_OK);
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
			    "plugin built for loader ABI 100, this libprofcore supports 1 to 2");
	/* below PC_LOADER_ABI_MIN */
	const char *low = getenv("BAD_PLUGIN_LOW");
	assert_int_equal(pc_registry_load_plugin(r, low), PC_EUNSUPPORTED);
	e = pc_registry_error(r);
	assert_string_equal(e->file, low);
	assert_string_equal(e->message,
			    "plugin built for loader ABI 0, this libprofcore supports 1 to 2");
	/* not a shared object at all */
	assert_int_equal(pc_registry_load_plugin(r, "/nonexistent/x.so"), PC_EIO);
	pc_registry_free(r);
}

static int never_load(pc_profile *p, pc_stream *s, const pc_options *o)
{
	(void)p;
	(void)o;
	return pc_stream_fail(s, PC_EUNSUPPORTED, -1, "never used");
}

/* A loader's own abi_version outside [min, current] is refused; nothing
 * is registered. */
static void loader_abi_range(void **state)
{
	(void)state;
	pc_registry *r;
	pc_registry_new(&r);
	size_t n = pc_registry_count(r);
	pc_loader l = {.abi_version = PC_LOADER_ABI_VERSION + 1, .name = "future",
		       .load = never_load};
	assert_int_equal(pc_registry_add(r, &l), PC_EUNSUPPORTED);
	assert_string_equal(pc_registry_error(r)->message,
			    "loader 'future' was built for loader ABI 3, this libprofcore supports 1 to 2");
	l.abi_version = PC_LOADER_ABI_MIN - 1;
	l.name = "ancient";
	assert_int_equal(pc_registry_add(r, &l), PC_EUNSUPPORTED);
	assert_string_equal(pc_registry_error(r)->message,
			    "loader 'ancient' was built for loader ABI 0, this libprofcore supports 1 to 2");
	assert_int_equal(pc_registry_count(r), n);
	pc_registry_free(r);
}

static const char toy_text[] = "TOY1\n100 5\n1f0 7\n100 1\n";

static void expect_toy(pc_profile *p, uint64_t mul)
{
	uint64_t a, c;
	assert_int_equal(pc_profile_sample_count(p), 2);
	assert_int_equal(pc_profile_sample_at(NULL, &a, &c, p, 0), PC_OK);
	assert_int_equal(a, 0x100);
	assert_int_equal(c, 6 * mul);
	assert_int_equal(pc_profile_sample_at(NULL, &a, &c, p, 1), PC_OK);
	assert_int_equal(a, 0x1f0);
	assert_int_equal(c, 7 * mul);
}

/* The toy plugin built against loader ABI 1 (its struct frozen in
 * plugin_toy.c) loads next to the current one; only the fields of its
 * version are read: no options table, so its options are not checked,
 * while the current toy's are. */
static void old_abi_plugin_loads(void **state)
{
	(void)state;
	pc_registry *r;
	pc_registry_new(&r);
	assert_int_equal(pc_registry_load_plugin(r, getenv("TOY_PLUGIN_V1")), PC_OK);
	assert_int_equal(pc_registry_load_plugin(r, getenv("TOY_PLUGIN")), PC_OK);
	const pc_loader *v1 = pc_registry_find(r, "toy1");
	const pc_loader *v2 = pc_registry_find(r, "toy");
	assert_non_null(v1);
	assert_non_null(v2);
	assert_int_equal(v1->abi_version, 1);
	assert_string_equal(v1->description, "toy samples (test plugin)");
	assert_int_equal(v1->roles, PC_ROLE_SAMPLES);
	assert_int_equal(v1->order, 10);
	assert_null(v1->options);
	assert_int_equal(v2->abi_version, PC_LOADER_ABI_VERSION);
	assert_string_equal(v2->options[0].name, "multiplier");
	assert_null(v2->options[1].name);

	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	assert_int_equal(pc_options_set(o, "multiplier", "3"), PC_OK);
	assert_int_equal(pc_options_set(o, "anything", "x"), PC_OK);
	pc_profile *p;
	pc_profile_new(&p, r);
	/* ABI 1: nothing declared, nothing checked */
	assert_int_equal(pc_profile_load_memory(p, toy_text, sizeof toy_text - 1, "t.toy",
						"toy1", o), PC_OK);
	expect_toy(p, 3);
	assert_string_equal(pc_profile_source_format(p, 0), "toy1");
	pc_profile_free(p);
	/* current ABI: "anything" is refused before load() runs */
	pc_profile_new(&p, r);
	assert_int_equal(pc_profile_load_memory(p, toy_text, sizeof toy_text - 1, "t.toy",
						"toy", o), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->file, "t.toy");
	assert_string_equal(pc_profile_error(p)->message,
			    "unknown option 'anything' for loader toy; known: multiplier");
	assert_int_equal(pc_profile_sample_count(p), 0);
	assert_int_equal(pc_options_set(o, "anything", NULL), PC_OK);
	assert_int_equal(pc_profile_load_memory(p, toy_text, sizeof toy_text - 1, "t.toy",
						"toy", o), PC_OK);
	expect_toy(p, 3);
	pc_profile_free(p);
	/* a bad value of a declared key */
	pc_profile_new(&p, r);
	assert_int_equal(pc_options_set(o, "multiplier", "lots"), PC_OK);
	assert_int_equal(pc_profile_load_memory(p, toy_text, sizeof toy_text - 1, "t.toy",
						"toy", o), PC_EUSAGE);
	assert_string_equal(pc_profile_error(p)->message,
			    "bad value 'lots' for option 'multiplier' of loader toy; expected an unsigned integer");
	pc_profile_free(p);
	pc_options_free(o);
	pc_registry_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(builtins_present),
		cmocka_unit_test(detect_by_content),
		cmocka_unit_test(plugin_loads_and_reads),
		cmocka_unit_test(plugin_wrong_abi_refused),
		cmocka_unit_test(loader_abi_range),
		cmocka_unit_test(old_abi_plugin_loads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
