/*
 * tests.h -- the suites of the Check test runner, one per module.
 *
 * Each tests/test_<module>.c defines one suite_<module>() and test_main.c
 * lists them in a table, so `build/test_dlsim NAME` runs one suite alone
 * (Redis's redisTests[] table).  Expected values are worked out by hand
 * or come from a publication, cited next to each assertion.
 */
#ifndef DLSIM_TESTS_TESTS_H
#define DLSIM_TESTS_TESTS_H

#include <check.h>

Suite *suite_core(void);
Suite *suite_model_layer(void);
Suite *suite_model_kernel(void);
Suite *suite_model_build(void);
Suite *suite_model_zoo(void);
Suite *suite_model_yaml(void);
Suite *suite_model_transformer(void);
Suite *suite_model_eager(void);
Suite *suite_model_spec(void);
Suite *suite_model_rnn(void);
Suite *suite_model_seqhist(void);
Suite *suite_hw(void);
Suite *suite_hw_fields(void);
Suite *suite_hw_resolve(void);
Suite *suite_catalog(void);
Suite *suite_catalog_files(void);
Suite *suite_calibrate(void);
Suite *suite_calibrate_import(void);
Suite *suite_calibrate_refusals(void);
Suite *suite_fit(void);
Suite *suite_calfit(void);
Suite *suite_calfit_conv(void);
Suite *suite_gemm_align(void);
Suite *suite_conv_align(void);
Suite *suite_calrnn(void);
Suite *suite_calrun(void);
Suite *suite_sim(void);
Suite *suite_sim_step(void);
Suite *suite_sim_fuse(void);
Suite *suite_sim_optimizer(void);
Suite *suite_sim_host(void);
Suite *suite_sim_zero_offload(void);
Suite *suite_sim_autocast(void);
Suite *suite_collective(void);
Suite *suite_topology(void);
Suite *suite_collective_catalog(void);
Suite *suite_report(void);
Suite *suite_cli(void);
Suite *suite_cli_strategy(void);
Suite *suite_cli_sweep(void);
Suite *suite_cli_seqlen(void);
Suite *suite_cli_clobber(void);
Suite *suite_db(void);
Suite *suite_db_schema(void);
Suite *suite_db_cli(void);
Suite *suite_hwcalib(void);
Suite *suite_hwcalib_sim(void);
Suite *suite_hwcalib_cli(void);
Suite *suite_seed(void);
Suite *suite_parallel(void);
Suite *suite_validate(void);
Suite *suite_validate_cli(void);
Suite *suite_validate_user(void);
Suite *suite_validate_user_file(void);
Suite *suite_validate_text(void);

/* Relative closeness: |a - b| <= tol * |b|. */
#define ck_assert_rel(a, b, tol) do { \
	double a_ = (a), b_ = (b); \
	ck_assert_msg(fabs(a_ - b_) <= (tol) * fabs(b_), \
		      "%s = %.9g, expected %.9g (rel tol %g)", #a, a_, b_, \
		      (double)(tol)); \
} while (0)

#endif /* DLSIM_TESTS_TESTS_H */
