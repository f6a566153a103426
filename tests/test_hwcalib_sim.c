/*
 * test_hwcalib_sim.c -- what the simulator makes of a system's
 * calibration: the fits of test_hwcalib.c's head comment, on the made-up
 * rig of hwcalib_util.h, change the roofline's rates and the intra-node
 * collective's alpha and beta exactly as worked out by hand, a
 * prediction lists every fit it used, and its interval brackets it;
 * test_hwcalib.c reads the same fits back, and test_hwcalib_cli.c takes
 * them through the command line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "hwcalib_util.h"
#include "dlsim.h"
#include "sim/sim.h"

/* ---------------------------------------------------------------- */
/* The simulator                                                     */
/* ---------------------------------------------------------------- */

/*
 * A conv pass of 1e9 FLOPs and 1e3 bytes has no conv fit of its own, so
 * the GEMM roofline: 2.5e-3 + 1e9 x 5e-12 = 7.5 ms calibrated, 1e9 /
 * 1e12 = 1 ms from the datasheet.  A 3x3 conv pass of 1e9 FLOPs and 1e6
 * bytes: 1e-5 + 1e-2 + 1e-4 = 10.11 ms.  A memory-bound vector pass of
 * 1e9 bytes: 1e9 / 2e10 = 50 ms against 10 ms; one of 2e4 bytes fits the
 * first cache level: 2e4 / 4e11 = 50 ns against 2e4 / 1e11 = 200 ns.
 * A recurrent GEMM pass of 10 dependent steps (1e9 FLOPs, 1e3 bytes)
 * pays 10 launches of 5 us: 1 ms + 50 us; calibrated, 10 fixed costs:
 * 10 x 2.5e-3 + 1e9 x 5e-12 = 30 ms.
 */
START_TEST(hwcalib_roofline_uses_curve_and_plateau)
{
	struct model_pass_cost conv = { .flops = 1e9, .bytes = 1e3,
		.kernel = MODEL_KERNEL_CONV };
	struct model_pass_cost c3 = { .flops = 1e9, .bytes = 1e6,
		.kernel = MODEL_KERNEL_CONV3X3 };
	struct model_pass_cost vec = { .flops = 1e3, .bytes = 1e9,
		.kernel = MODEL_KERNEL_VECTOR };
	struct model_pass_cost small = { .flops = 1.0, .bytes = 2e4,
		.kernel = MODEL_KERNEL_VECTOR };
	struct model_pass_cost rnn = { .flops = 1e9, .bytes = 1e3,
		.kernel = MODEL_KERNEL_GEMM, .launches = 10.0 };
	struct hw_calib c;
	struct sim_roof roof;
	struct calib_rig r;
	enum sim_bound b;

	calib_rig_init(&r);
	calib_load(&c);
	sim_roof_init(&roof, &r.dev, DLSIM_FP32, NULL);
	ck_assert_rel(sim_pass_time(&roof, &conv, &b), 1e-3, 1e-9);
	ck_assert_rel(sim_pass_time(&roof, &vec, &b), 1e-2, 1e-9);
	ck_assert_rel(sim_pass_time(&roof, &small, &b), 2e-7, 1e-9);
	r.dev.launch_overhead_s = 5e-6;
	sim_roof_init(&roof, &r.dev, DLSIM_FP32, NULL);
	ck_assert_rel(sim_pass_time(&roof, &rnn, &b), 1.05e-3, 1e-9);
	r.dev.launch_overhead_s = 0.0;
	sim_roof_init(&roof, &r.dev, DLSIM_FP32, &c);
	ck_assert_rel(sim_pass_time(&roof, &rnn, &b), 3e-2, 1e-9);
	ck_assert_rel(sim_pass_time(&roof, &conv, &b), 7.5e-3, 1e-9);
	ck_assert_int_eq(b, SIM_BOUND_COMPUTE);
	ck_assert_rel(sim_pass_time(&roof, &c3, &b), 1.011e-2, 1e-9);
	ck_assert_int_eq(b, SIM_BOUND_COMPUTE);
	ck_assert_rel(sim_pass_time(&roof, &vec, &b), 5e-2, 1e-9);
	ck_assert_int_eq(b, SIM_BOUND_MEMORY);
	ck_assert_rel(sim_pass_time(&roof, &small, &b), 5e-8, 1e-9);
}
END_TEST

/*
 * A fused attention on 4-byte values keeps fp32 math (dlsim.h,
 * MODEL_KERNEL_ATTENTION_F32).  On the rig with a TF32 peak of 8e12 at
 * GEMM efficiency 0.5 (4e12 FLOP/s) beside the fp32 peak of 1e12, a pass
 * of 1e9 FLOPs and 1e3 bytes takes, from the datasheet, 1e9 / 1e12 = 1 ms
 * as such an attention and 1e9 / 4e12 = 0.25 ms as a TF32 GEMM; with the
 * "box" fits (gemm:fp32 only), the attention the fp32 GEMM's 2.5e-3 +
 * 1e9 x 5e-12 = 7.5 ms at TF32 and at fp32, the TF32 GEMM still 0.25 ms.
 * A device with no fp32 figure keeps the TF32 GEMM's rate for it: 0.25 ms.
 */
START_TEST(hwcalib_fp32_attention_takes_the_fp32_gemm_rate)
{
	struct model_pass_cost at = { .flops = 1e9, .bytes = 1e3,
		.kernel = MODEL_KERNEL_ATTENTION_F32 };
	struct model_pass_cost gemm = { .flops = 1e9, .bytes = 1e3,
		.kernel = MODEL_KERNEL_GEMM };
	struct hw_calib c;
	struct sim_roof roof;
	struct calib_rig r;
	enum sim_bound b;

	calib_rig_init(&r);
	r.dev.peak[DLSIM_TF32].matrix_flops = 8e12;
	r.dev.peak[DLSIM_TF32].vector_flops = 1e12;
	r.dev.peak[DLSIM_TF32].eff_gemm = 0.5;
	calib_load(&c);
	sim_roof_init(&roof, &r.dev, DLSIM_TF32, NULL);
	ck_assert_rel(sim_pass_time(&roof, &at, &b), 1e-3, 1e-6);
	ck_assert_rel(sim_pass_time(&roof, &gemm, &b), 2.5e-4, 1e-6);
	sim_roof_init(&roof, &r.dev, DLSIM_TF32, &c);
	ck_assert_rel(sim_pass_time(&roof, &at, &b), 7.5e-3, 1e-9);
	ck_assert_rel(sim_pass_time(&roof, &gemm, &b), 2.5e-4, 1e-6);
	ck_assert(sim_calib_kernel(&c, MODEL_KERNEL_ATTENTION_F32,
				   DLSIM_TF32) ==
		  &c.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32]);
	ck_assert(sim_calib_kernel(&c, MODEL_KERNEL_GEMM, DLSIM_TF32) == NULL);
	sim_roof_init(&roof, &r.dev, DLSIM_FP32, &c);
	ck_assert_rel(sim_pass_time(&roof, &at, &b), 7.5e-3, 1e-9);
	r.dev.peak[DLSIM_FP32].matrix_flops = 0.0;
	sim_roof_init(&roof, &r.dev, DLSIM_TF32, NULL);
	ck_assert_rel(sim_pass_time(&roof, &at, &b), 2.5e-4, 1e-6);
}
END_TEST

/* The "box" node's conv:fp32 fit: fixed 2e-5 s, 2e-11 s/FLOP, 1e-10
 * s/B. */
static void put_conv_fit(struct db *db)
{
	put_fit(db, "box", "conv:fp32", "{\"benchmark\": \"conv\", "
		"\"group\": \"dtype=fp32 class=other\", \"fixed_s\": 2e-5, "
		"\"s_per_flop\": 2e-11, \"s_per_byte\": 1e-10, "
		"\"flops_per_s\": 5e10}", "[[0, 0, 0], [0, 0, 0], [0, 0, 0]]",
		2000.0);
}

/*
 * A 1x1 stride-1 convolution pass (1e9 FLOPs, 1e6 bytes) on the "box"
 * fits takes, by hand:
 * - with no conv fit of either kind, the GEMM roofline: 2.5e-3 + 1e9 x
 *   5e-12 = 7.5 ms (no byte term);
 * - with a conv:fp32 fit (fixed 2e-5, 2e-11 s/FLOP, 1e-10 s/B), that
 *   one, which a calibration made before the 1x1 class fitted them in:
 *   2e-5 + 2e-2 + 1e-4 = 20.12 ms;
 * - with a conv1x1:fp32 fit (3e-5, 3e-11, 3e-10) as well, its own:
 *   3e-5 + 3e-2 + 3e-4 = 30.33 ms, while a conv of another class keeps
 *   20.12 ms, and so does a strided 1x1 one, whose class (conv1x1s) has
 *   no fit here: it takes the convolution fit, not the 1x1 one.
 * Element-wise work and a precision with no fit at all have none.
 */
START_TEST(hwcalib_conv1x1_falls_back_to_conv_then_gemm)
{
	static const double want[3] = { 7.5e-3, 20.12e-3, 30.33e-3 };
	struct model_pass_cost one = { .flops = 1e9, .bytes = 1e6,
		.kernel = MODEL_KERNEL_CONV1X1 };
	struct model_pass_cost other = one, strided = one;
	struct dlsim_err err = { 0, "" };
	struct hw_calib c;
	struct sim_roof roof;
	struct tmpdb t;
	struct calib_rig r;
	enum sim_bound b;
	int i;

	calib_rig_init(&r);
	other.kernel = MODEL_KERNEL_CONV;
	strided.kernel = MODEL_KERNEL_CONV1X1_STRIDED;
	tmpdb_open(&t);
	put_fits(t.db, "box");
	for (i = 0; i < 3; i++) {
		if (i == 1)
			put_conv_fit(t.db);
		if (i == 2)
			put_fit(t.db, "box", "conv1x1:fp32", "{\"benchmark\": "
				"\"conv\", \"group\": \"dtype=fp32 "
				"class=1x1s1\", \"fixed_s\": 3e-5, "
				"\"s_per_flop\": 3e-11, \"s_per_byte\": "
				"3e-10, \"flops_per_s\": 3.3e10}",
				"[[0, 0, 0], [0, 0, 0], [0, 0, 0]]", 2000.0);
		ck_assert_msg(hw_calib_load(t.db, "box", &c, &err) ==
			      DLSIM_OK, "%s", err.msg);
		ck_assert(sim_calib_kernel(&c, MODEL_KERNEL_CONV1X1,
					   DLSIM_FP32) ==
			  &c.kernel[i == 0 ? MODEL_KERNEL_GEMM : i == 1 ?
				    MODEL_KERNEL_CONV :
				    MODEL_KERNEL_CONV1X1][DLSIM_FP32]);
		sim_roof_init(&roof, &r.dev, DLSIM_FP32, &c);
		ck_assert_rel(sim_pass_time(&roof, &one, &b), want[i], 1e-9);
		ck_assert_rel(sim_pass_time(&roof, &other, &b),
			      want[i == 0 ? 0 : 1], 1e-9);
		ck_assert_rel(sim_pass_time(&roof, &strided, &b),
			      want[i == 0 ? 0 : 1], 1e-9);
	}
	ck_assert_str_eq(c.kernel[MODEL_KERNEL_CONV1X1][DLSIM_FP32].fit.kind,
			 "conv1x1:fp32");
	ck_assert(sim_calib_kernel(&c, MODEL_KERNEL_VECTOR, DLSIM_FP32) ==
		  NULL);
	ck_assert(sim_calib_kernel(&c, MODEL_KERNEL_CONV1X1, DLSIM_FP16) ==
		  NULL);
	/* only the 1x1 classes take the convolution fit: a 3x3 stride-1
	 * pass without its own takes the GEMM's */
	memset(&c.kernel[MODEL_KERNEL_CONV3X3][DLSIM_FP32], 0,
	       sizeof(c.kernel[0][0]));
	ck_assert(sim_calib_kernel(&c, MODEL_KERNEL_CONV3X3, DLSIM_FP32) ==
		  &c.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32]);
	tmpdb_close(&t);
}
END_TEST

/*
 * A non-square convolution pass (1e9 FLOPs, 1e6 bytes) on the "box" fits
 * takes, by hand: the GEMM roofline without a conv fit (7.5 ms, as
 * above); the conv:fp32 fit (20.12 ms) without one of its own; its own
 * conv_nonsquare:fp32 fit (fixed 4e-5, 4e-11 s/FLOP, 4e-10 s/B) when
 * there is one: 4e-5 + 4e-2 + 4e-4 = 40.44 ms, while a square
 * convolution keeps 20.12 ms.  Uncalibrated, the catalog has no figure
 * of its own for it: the convolution's rate.
 */
START_TEST(hwcalib_nonsquare_conv_falls_back_to_conv_then_gemm)
{
	static const double want[3] = { 7.5e-3, 20.12e-3, 40.44e-3 };
	struct model_pass_cost ns = { .flops = 1e9, .bytes = 1e6,
		.kernel = MODEL_KERNEL_CONV_NONSQUARE };
	struct model_pass_cost sq = ns;
	struct dlsim_err err = { 0, "" };
	struct hw_calib c;
	struct sim_roof roof;
	struct tmpdb t;
	struct calib_rig r;
	enum sim_bound b;
	int i;

	calib_rig_init(&r);
	sq.kernel = MODEL_KERNEL_CONV;
	r.dev.peak[DLSIM_FP32].eff_conv = 0.25;   /* not the GEMM's */
	sim_roof_init(&roof, &r.dev, DLSIM_FP32, NULL);
	ck_assert(roof.rate[MODEL_KERNEL_CONV_NONSQUARE] ==
		  roof.rate[MODEL_KERNEL_CONV]);
	ck_assert(roof.rate[MODEL_KERNEL_CONV_NONSQUARE] !=
		  roof.rate[MODEL_KERNEL_GEMM]);
	tmpdb_open(&t);
	put_fits(t.db, "box");
	for (i = 0; i < 3; i++) {
		if (i == 1)
			put_conv_fit(t.db);
		if (i == 2)
			put_fit(t.db, "box", "conv_nonsquare:fp32",
				"{\"benchmark\": \"conv\", \"group\": "
				"\"dtype=fp32 class=nonsquare\", \"fixed_s\": "
				"4e-5, \"s_per_flop\": 4e-11, \"s_per_byte\": "
				"4e-10, \"flops_per_s\": 2.5e10}",
				"[[0, 0, 0], [0, 0, 0], [0, 0, 0]]", 2000.0);
		ck_assert_msg(hw_calib_load(t.db, "box", &c, &err) ==
			      DLSIM_OK, "%s", err.msg);
		sim_roof_init(&roof, &r.dev, DLSIM_FP32, &c);
		ck_assert_rel(sim_pass_time(&roof, &ns, &b), want[i], 1e-9);
		ck_assert_rel(sim_pass_time(&roof, &sq, &b),
			      want[i == 0 ? 0 : 1], 1e-9);
	}
	ck_assert_str_eq(c.kernel[MODEL_KERNEL_CONV_NONSQUARE][DLSIM_FP32]
			 .fit.kind, "conv_nonsquare:fp32");
	tmpdb_close(&t);
}
END_TEST

/* Ring allreduce over the 4 ranks the fit measured gives the fit back:
 * 2 x 3 x (1e-5 + n / 4 x 2e-10) = 6e-5 + 3e-10 n; n = 1e6 B: 360 us.
 * Uncalibrated: 6 x (1e-6 + 2.5e5 / 1e9) = 1.506 ms. */
START_TEST(hwcalib_collective_uses_fitted_alpha_beta)
{
	struct hw_calib c;
	struct calib_rig r;

	calib_rig_init(&r);
	calib_load(&c);
	ck_assert_rel(sim_allreduce_time(&r.sys, 1e6, SIM_ALGO_RING, NULL,
					 NULL), 1.506e-3, 1e-9);
	r.sys.calib = &c;
	ck_assert_rel(sim_allreduce_time(&r.sys, 1e6, SIM_ALGO_RING, NULL,
					 NULL), 3.6e-4, 1e-9);
}
END_TEST

/*
 * A prediction that uses every kind of fit lists each once: ResNet-50
 * runs all five matrix classes (fc a GEMM, the 7x7/2 stem a plain
 * convolution, 3x3/1, 1x1/1 and the 1x1/2 shortcuts), each with a fit of
 * its own here, and on two nodes of four its gradients cross the
 * intra-node ring (allreduce:4) and the inter-node one (allreduce:8),
 * besides the triad plateau and curve: nine fits, SIM_CALIB_USED.
 */
START_TEST(hwcalib_prediction_lists_every_fit_it_used)
{
	static const char *const kinds[] = { "conv:fp32", "conv1x1:fp32",
					     "conv1x1s:fp32" };
	struct dlsim_err err = { 0, "" };
	struct model *m = NULL;
	struct sim_options o;
	struct sim_result res;
	struct hw_link nic;
	struct hw_calib c;
	struct tmpdb t;
	struct calib_rig r;
	char params[256];
	int i, j;

	calib_rig_init(&r);
	calib_rig_two_nodes(&r, &nic);
	tmpdb_open(&t);
	put_fits(t.db, "box");
	for (i = 0; i < 3; i++) {
		snprintf(params, sizeof(params), "{\"benchmark\": \"conv\", "
			 "\"group\": \"dtype=fp32 class=%s\", \"fixed_s\": "
			 "1e-5, \"s_per_flop\": 1e-11, \"s_per_byte\": "
			 "1e-10, \"flops_per_s\": 1e11}",
			 i == 0 ? "other" : i == 1 ? "1x1s1" : "1x1strided");
		put_fit(t.db, "box", kinds[i], params,
			"[[0, 0, 0], [0, 0, 0], [0, 0, 0]]", 2000.0);
	}
	put_inter_fit(t.db);
	ck_assert_msg(hw_calib_load_system(t.db, &r.sys, &c, &err) ==
		      DLSIM_OK, "%s", err.msg);
	tmpdb_close(&t);
	r.sys.calib = &c;
	ck_assert_int_eq(model_zoo_build("resnet50", &m, &err), DLSIM_OK);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	ck_assert_msg(sim_predict(m, &r.sys, &o, &res, &err) == DLSIM_OK,
		      "%s", err.msg);
	ck_assert_str_eq(c.kernel[MODEL_KERNEL_CONV1X1_STRIDED][DLSIM_FP32]
			 .fit.kind, "conv1x1s:fp32");
	ck_assert_int_eq(res.n_calib_used, 9);
	/* a kernel class each but the vector one (13, the pooled recurrent
	 * one, the three cells', the unaligned GEMM's, the fp32
	 * attention's, the non-square and the unaligned convolution's
	 * included, which ResNet-50 in fp32 does not use) and four more */
	ck_assert_int_eq(SIM_CALIB_USED, 17);
	for (i = 0; i < res.n_calib_used; i++)
		for (j = 0; j < i; j++)
			ck_assert(res.calib_used[i].id !=
				  res.calib_used[j].id);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

START_TEST(hwcalib_interval_brackets_the_prediction)
{
	struct dlsim_err err = { 0, "" };
	struct model *m = NULL;
	struct sim_options o;
	struct sim_result plain, cal;
	struct hw_calib c;
	struct calib_rig r;

	calib_rig_init(&r);
	calib_load(&c);
	ck_assert_int_eq(model_zoo_build("resnet18", &m, &err), DLSIM_OK);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	ck_assert_msg(sim_predict(m, &r.sys, &o, &plain, &err) == DLSIM_OK,
		      "%s", err.msg);
	ck_assert_int_eq(plain.calibrated, 0);
	ck_assert(plain.step_time_s_low == plain.step_time_s);
	ck_assert(plain.step_time_s_high == plain.step_time_s);
	r.sys.calib = &c;
	ck_assert_msg(sim_predict(m, &r.sys, &o, &cal, &err) == DLSIM_OK,
		      "%s", err.msg);
	ck_assert_int_eq(cal.calibrated, 1);
	/* all five used, once each: fp32 GEMM (also for the convolutions
	 * that are not 3x3 stride 1), conv3x3, triad plateau and curve, and
	 * four devices in a node */
	ck_assert_int_eq(cal.n_calib_used, 5);
	ck_assert_str_eq(cal.calib_used[0].kind, "gemm:fp32");
	ck_assert_int_eq(cal.calib_used[0].id,
			 c.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32].fit.id);
	ck_assert_str_eq(cal.calib_used[1].kind, "conv3x3:fp32");
	ck_assert_str_eq(cal.calib_used[2].kind, "stream:triad");
	ck_assert_str_eq(cal.calib_used[3].kind, "bwcurve:triad");
	ck_assert_str_eq(cal.calib_used[4].kind, "alphabeta:allreduce:4");
	ck_assert_int_eq(cal.calib_used[4].n_samples, 20);
	ck_assert(cal.step_time_s != plain.step_time_s);
	ck_assert(cal.step_time_s_low < cal.step_time_s);
	ck_assert(cal.step_time_s < cal.step_time_s_high);
	sim_result_release(&plain);
	sim_result_release(&cal);
	model_free(m);
}
END_TEST

Suite *suite_hwcalib_sim(void)
{
	Suite *s = suite_create("hwcalib_sim");
	TCase *tc = tcase_create("hwcalib_sim");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, hwcalib_roofline_uses_curve_and_plateau);
	tcase_add_test(tc, hwcalib_conv1x1_falls_back_to_conv_then_gemm);
	tcase_add_test(tc, hwcalib_nonsquare_conv_falls_back_to_conv_then_gemm);
	tcase_add_test(tc, hwcalib_fp32_attention_takes_the_fp32_gemm_rate);
	tcase_add_test(tc, hwcalib_collective_uses_fitted_alpha_beta);
	tcase_add_test(tc, hwcalib_prediction_lists_every_fit_it_used);
	tcase_add_test(tc, hwcalib_interval_brackets_the_prediction);
	suite_add_tcase(s, tc);
	return s;
}
