/*
 * hw_util.h -- helpers of the catalog test suites (hw_util.c).
 */
#ifndef DLSIM_TESTS_HW_UTIL_H
#define DLSIM_TESTS_HW_UTIL_H

#include "dlsim.h"

#define HW_TEST_DIR "tests/data/hw/"

/* A new catalog of tests/data/hw/good/catalog.yaml alone (one GPU
 * "tgpu" four to a node "dgxa", one CPU "xeon-x8" alone in "ws1"),
 * asserted to load; the caller frees it. */
struct hw_catalog *hw_test_catalog(void);

/* Device name of cat, asserted to exist. */
const struct hw_device *hw_test_device(const struct hw_catalog *cat,
				       const char *name);

/* The shipped catalog (hw_catalog_load, no $DLSIM_PATH), asserted to
 * load; the caller frees it. */
struct hw_catalog *hw_test_shipped(void);

#endif /* DLSIM_TESTS_HW_UTIL_H */
