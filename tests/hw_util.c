/*
 * hw_util.c -- helpers of the catalog test suites (test_hw.c,
 * test_hw_fields.c, test_hw_resolve.c, test_catalog.c,
 * test_collective_catalog.c): the small made-up catalog of
 * tests/data/hw/good/catalog.yaml and its devices by name, and the
 * shipped catalog.
 */
#include "tests.h"
#include "dlsim.h"
#include "hw/hw.h"
#include "hw_util.h"

struct hw_catalog *hw_test_catalog(void)
{
	struct dlsim_err err = { 0 };
	struct hw_catalog *cat = NULL;

	ck_assert_int_eq(hw_catalog_new(&cat, &err), DLSIM_OK);
	ck_assert_ptr_nonnull(cat);
	ck_assert_msg(hw_catalog_add_file(cat, HW_TEST_DIR "good/catalog.yaml",
					  &err) == DLSIM_OK, "%s", err.msg);
	return cat;
}

const struct hw_device *hw_test_device(const struct hw_catalog *cat,
				       const char *name)
{
	const struct hw_device *d = hw_device_find(cat, name);

	ck_assert_msg(d != NULL, "no device '%s'", name);
	return d;
}

struct hw_catalog *hw_test_shipped(void)
{
	struct hw_catalog *cat = NULL;
	struct dlsim_err err = { 0, "" };

	ck_assert_msg(hw_catalog_load(NULL, &cat, &err) == DLSIM_OK, "%s",
		      err.msg);
	return cat;
}
