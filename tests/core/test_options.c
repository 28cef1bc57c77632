/* Options bag. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "profcore.h"

static void set_get_parse(void **state)
{
	(void)state;
	pc_options *o;
	assert_int_equal(pc_options_new(&o), PC_OK);
	assert_int_equal(pc_options_parse(o, "width=4"), PC_OK);
	assert_int_equal(pc_options_parse(o, "zero"), PC_OK);
	assert_int_equal(pc_options_parse(o, "=x"), PC_EUSAGE);
	assert_string_equal(pc_options_get(o, "width"), "4");
	assert_string_equal(pc_options_get(o, "zero"), "1");
	assert_int_equal(pc_options_set(o, "width", "0x10"), PC_OK);
	uint64_t v = 0;
	int found = -1;
	assert_int_equal(pc_options_get_u64(&v, &found, o, "width"), PC_OK);
	assert_int_equal(found, 1);
	assert_int_equal(v, 16);
	v = 7;
	assert_int_equal(pc_options_get_u64(&v, &found, o, "absent"), PC_OK);
	assert_int_equal(found, 0);
	assert_int_equal(v, 7); /* untouched */
	assert_int_equal(pc_options_get_u64(&v, NULL, o, "absent"), PC_OK);
	pc_options_set(o, "bad", "12x");
	assert_int_equal(pc_options_get_u64(&v, &found, o, "bad"), PC_EUSAGE);
	assert_int_equal(found, 1);
	pc_options_set(o, "neg", "-1");
	assert_int_equal(pc_options_get_u64(&v, NULL, o, "neg"), PC_EUSAGE);
	double d;
	pc_options_set(o, "rate", "99.5");
	assert_int_equal(pc_options_get_double(&d, &found, o, "rate"), PC_OK);
	assert_int_equal(found, 1);
	assert_true(d == 99.5);
	assert_int_equal(pc_options_get_double(&d, &found, o, "absent"),
			 PC_OK);
	assert_int_equal(found, 0);
	assert_int_equal(pc_options_get_double(&d, &found, NULL, "rate"),
			 PC_OK);
	assert_int_equal(found, 0);
	assert_int_equal(pc_options_count(o), 5);
	pc_options_set(o, "bad", NULL);
	assert_null(pc_options_get(o, "bad"));
	assert_int_equal(pc_options_count(o), 4);
	assert_string_equal(pc_options_key_at(o, 3), "rate");
	pc_options_free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(set_get_parse)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
