/*
 * validate_util.h -- fixtures the validate suites share
 * (validate_util.c).
 */
#ifndef DLSIM_TESTS_VALIDATE_UTIL_H
#define DLSIM_TESTS_VALIDATE_UTIL_H

#include "calibrate/cal.h"

/* 1 when set s skipped exactly n rows for a reason containing needle. */
int val_has_reason(const struct cal_val_set *s, const char *needle,
		   int64_t n);

#endif /* DLSIM_TESTS_VALIDATE_UTIL_H */
