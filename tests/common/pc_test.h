/* Helpers shared by the cmocka tests (header only: include it after
 * cmocka.h's prerequisites, as "../common/pc_test.h"). */
#ifndef PC_TEST_H
#define PC_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "profcore.h"

/* the row count (pc_profile_row_count returns a status) */
static inline size_t test_rows(pc_profile *p)
{
	size_t n = 0;
	assert_int_equal(pc_profile_row_count(&n, p), PC_OK);
	return n;
}

/* samples of one region class (pc_profile_class_total) */
static inline double test_class(pc_profile *p, pc_region_class c)
{
	double v = -1;
	assert_int_equal(pc_profile_class_total(&v, p, c), PC_OK);
	return v;
}

#endif
