/*
 * calibrate_util.h -- helpers of the importer test suites
 * (test_calibrate.c, test_calibrate_refusals.c; calibrate_util.c).
 */
#ifndef DLSIM_TESTS_CALIBRATE_UTIL_H
#define DLSIM_TESTS_CALIBRATE_UTIL_H

#include <stdint.h>

#include "dlsim.h"
#include "calibrate/cal.h"

/* Parse text held in memory (a copy), with the sample cap max. */
int parse_text(enum cal_format f, const char *text, int64_t max,
	       struct db_sample **s, int64_t *n, struct dlsim_err *err);

#endif /* DLSIM_TESTS_CALIBRATE_UTIL_H */
