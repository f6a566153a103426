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

/* A user's measurement file "t.csv" (set "mine"), as validate --file
 * reads one. */
extern const struct cal_val_set_def val_user_def;

/* Run text as val_user_def on the shipped catalog, no fits; the return
 * code, err holding the message. */
int val_run_user(const char *text, struct cal_val_set *out,
		 struct dlsim_err *err);

#endif /* DLSIM_TESTS_VALIDATE_UTIL_H */
