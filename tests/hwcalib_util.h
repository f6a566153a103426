/*
 * hwcalib_util.h -- fixtures the calibration tests share
 * (test_hwcalib.c, test_hwcalib_sim.c, test_hwcalib_cli.c, test_seed.c,
 * test_gemm_align.c, test_conv_align.c,
 * test_calibrate_import.c, test_calfit.c, test_calfit_conv.c,
 * test_calrnn.c): a temporary database, samples made and stored as a
 * run with reproducible noise, a fit found by kind, the hand-worked
 * fits test_hwcalib.c's head comment describes, and a made-up system to
 * run them on.
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

/* tmpdb_open, then `dlsim calibrate seed --db` on it (the library's
 * handle closed, t->db NULL, so that the command opens the file); what
 * the command printed into r, which must have exited 0. */
struct run;
void tmpdb_seed_cli(struct tmpdb *t, struct run *r);
void tmpdb_close(struct tmpdb *t);

/* Store one fit of hw (kind, params and covariance as JSON text, made at
 * created_s); its id. */
int64_t put_fit(struct db *db, const char *hw, const char *kind,
		const char *params, const char *cov, double created_s);

/* The fits of test_hwcalib.c's head comment, for hw. */
void put_fits(struct db *db, const char *hw);

/* Store samples s[0, n) as one run of tool "test" on hw. */
void put_samples(struct db *db, const char *hw, struct db_sample *s, int n);

/* Park & Miller's minimal standard, as test_fit.c: the same noise, in
 * [-0.5, 0.5), on every run. */
double calib_noise(unsigned long *state);

/* *s as one summary sample (rep -1) of bench with params, value, unit. */
void calib_sample(struct db_sample *s, const char *bench,
		  const char *params, double value, const char *unit);

/* A fitted value v is within three standard deviations (variance var)
 * of the value the synthetic data was made with. */
#define WITHIN_3_SIGMA(v, want, var) \
	ck_assert_msg(fabs((v) - (want)) <= 3.0 * sqrt(var), \
		      "%s = %g +- %g, expected %g", #v, (v), sqrt(var), \
		      (double)(want))

/* The fit of kind in r; NULL if there is none. */
const struct cal_fitted *fit_find(const struct cal_fit_report *r,
				  const char *kind);

/* A made-up system the simulator tests run with fits (test_hwcalib.c,
 * test_hwcalib_sim.c): one device of 1e12 FLOP/s and 1e11 B/s, four to a
 * node "box" on 1 GB/s links of 1 us. */
struct calib_rig {
	struct hw_device dev;
	struct hw_link intra;
	struct hw_node node;
	struct hw_system sys;
};

void calib_rig_init(struct calib_rig *r);

/* The rig as two nodes of four joined by nic (10 GB/s, 2 us). */
void calib_rig_two_nodes(struct calib_rig *r, struct hw_link *nic);

/* An allreduce fit at 8 ranks for "box": across its two nodes, largest
 * segment t = 1.4e-4 s + 7e-10 s/B n. */
void put_inter_fit(struct db *db);

/* The fits of test_hwcalib.c's head comment, stored for "box" in a
 * temporary database and loaded into *c. */
void calib_load(struct hw_calib *c);

#endif /* DLSIM_TESTS_HWCALIB_UTIL_H */
