/*
 * hwcalib_util.h -- fixtures the calibration tests share
 * (test_hwcalib.c, test_hwcalib_cli.c, test_calibrate_import.c,
 * test_calfit.c, test_calrnn.c): a temporary database, samples stored as
 * a run, a fit found by kind, and the hand-worked fits test_hwcalib.c's
 * head comment describes.
 */
#ifndef DLSIM_TESTS_HWCALIB_UTIL_H
#define DLSIM_TESTS_HWCALIB_UTIL_H

#include <stdint.h>

#include "dlsim.h"

struct tmpdb {
	char dir[64], path[96];
	struct db *db;
};

/* A new database in a new temporary directory; tmpdb_close removes both. */
void tmpdb_open(struct tmpdb *t);
void tmpdb_close(struct tmpdb *t);

/* Store one fit of hw (kind, params and covariance as JSON text, made at
 * created_s); its id. */
int64_t put_fit(struct db *db, const char *hw, const char *kind,
		const char *params, const char *cov, double created_s);

/* The fits of test_hwcalib.c's head comment, for hw. */
void put_fits(struct db *db, const char *hw);

/* Store samples s[0, n) as one run of tool "test" on hw. */
void put_samples(struct db *db, const char *hw, struct db_sample *s, int n);

/* The fit of kind in r; NULL if there is none. */
const struct cal_fitted *fit_find(const struct cal_fit_report *r,
				  const char *kind);

#endif /* DLSIM_TESTS_HWCALIB_UTIL_H */
