/*
 * test_conv_align.c -- 16-bit convolutions off 8 input channels
 * (MODEL_KERNEL_CONV_UNALIGNED): the rule and its padded work
 * (model_conv_channel_pad), the layer it marks (an image's first one,
 * in 16 bits only), the simulator's use of the class's fit (at the
 * padded work, on a device with tensor cores, else the window's fit),
 * and the fits a prediction names.  The calibration's grouping and
 * sizing of such samples is test_calfit_conv.c's
 * cal_fit_conv_recovers_roofline_per_class.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "cli_util.h"
#include "hwcalib_util.h"
#include "model_util.h"
#include "dlsim.h"
#include "models/model.h"
#include "sim/sim.h"

/* ---------------------------------------------------------------- */
/* The rule and the layers                                           */
/* ---------------------------------------------------------------- */

/* At 2 bytes a value, C off a multiple of 8 pads up to the next one:
 * 3 -> 8 (8/3), 1 -> 8, 12 -> 16 (4/3); 8, 16 and 64 are on it; no other
 * element size, and no channels, is of the class. */
START_TEST(conv_channel_pad_rule)
{
	ck_assert_double_eq_tol(model_conv_channel_pad(3, 2), 8.0 / 3.0,
				1e-15);
	ck_assert_double_eq(model_conv_channel_pad(1, 2), 8.0);
	ck_assert_double_eq_tol(model_conv_channel_pad(12, 2), 4.0 / 3.0,
				1e-15);
	ck_assert_double_eq(model_conv_channel_pad(8, 2), 0.0);
	ck_assert_double_eq(model_conv_channel_pad(16, 2), 0.0);
	ck_assert_double_eq(model_conv_channel_pad(64, 2), 0.0);
	ck_assert_double_eq(model_conv_channel_pad(3, 4), 0.0);
	ck_assert_double_eq(model_conv_channel_pad(3, 1), 0.0);
	ck_assert_double_eq(model_conv_channel_pad(3, 8), 0.0);
	ck_assert_double_eq(model_conv_channel_pad(0, 2), 0.0);
}
END_TEST

/* ResNet-50's stem (3 channels, 7x7/2) keeps its window's class and is
 * marked 8/3 in fp16, not in fp32; its second convolution (64 channels)
 * is not marked; its classifier (a GEMM) never is. */
START_TEST(conv_channel_pad_marks_the_first_layer)
{
	struct dlsim_err err = { 0, "" };
	struct model_pass_cost c;
	struct model *m = NULL;
	int i, first = -1, second = -1, fc = -1;

	ck_assert_int_eq(model_zoo_build("resnet50", &m, &err), DLSIM_OK);
	for (i = 0; i < m->n_layers; i++) {
		if (m->layers[i].kind == MODEL_CONV2D && first < 0)
			first = i;
		else if (m->layers[i].kind == MODEL_CONV2D && second < 0)
			second = i;
		if (m->layers[i].kind == MODEL_FC)
			fc = i;
	}
	ck_assert(first >= 0 && second > first && fc > second);
	ck_assert_int_eq(m->layers[first].in.c, 3);
	model_layer_cost(&m->layers[first], MODEL_PASS_FWD, 16, 2, 2, &c);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_CONV);
	ck_assert_double_eq_tol(c.channel_pad, 8.0 / 3.0, 1e-15);
	model_layer_cost(&m->layers[first], MODEL_PASS_BWD_WEIGHT, 16, 2, 2,
			 &c);
	ck_assert_double_eq_tol(c.channel_pad, 8.0 / 3.0, 1e-15);
	model_layer_cost(&m->layers[first], MODEL_PASS_FWD, 16, 4, 4, &c);
	ck_assert_double_eq(c.channel_pad, 0.0);
	model_layer_cost(&m->layers[second], MODEL_PASS_FWD, 16, 2, 2, &c);
	ck_assert_double_eq(c.channel_pad, 0.0);
	model_layer_cost(&m->layers[fc], MODEL_PASS_FWD, 16, 2, 2, &c);
	ck_assert_double_eq(c.channel_pad, 0.0);
	model_free(m);
}
END_TEST

/*
 * Grouped convolutions (model_kernel.c): 3 groups of one channel
 * (depthwise) and 2 groups of 3 are vector work, not of the class; 2
 * groups of 10 (fewer than 8 is vector, 8 or more dense) are dense 3x3
 * convolutions, each group's 10 channels padded to 16 in fp16 (16/10)
 * and not in fp32; 2 groups of 48 (AlexNet's conv2) are dense and on 8
 * channels.  A dense conv on 3 channels is of the class, in every pass.
 */
START_TEST(conv_channel_pad_counts_a_group_s_channels)
{
	static const struct {
		int64_t c, groups;
		enum model_kernel kernel;
		double pad16;
	} g[] = {
		{ 3, 1, MODEL_KERNEL_CONV3X3, 8.0 / 3.0 },
		{ 3, 3, MODEL_KERNEL_VECTOR, 0.0 },
		{ 6, 2, MODEL_KERNEL_VECTOR, 0.0 },
		{ 20, 2, MODEL_KERNEL_CONV3X3, 1.6 },
		{ 96, 2, MODEL_KERNEL_CONV3X3, 0.0 },
	};
	struct model_builder b;
	struct model_conv_spec sp;
	struct model_pass_cost c;
	struct model *m;
	size_t i;
	int p;

	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		model_util_start(&b, g[i].c, 9, 9);
		model_conv_spec_init(&sp, 2 * g[i].groups, 3, 1, 1);
		sp.groups = g[i].groups;
		ck_assert(model_add_conv(&b, MODEL_IN, "conv", &sp) == 1);
		m = model_util_finish(&b);
		for (p = MODEL_PASS_FWD; p <= MODEL_PASS_BWD_WEIGHT; p++) {
			model_layer_cost(&m->layers[1], p, 2, 2, 2, &c);
			ck_assert_msg(c.kernel == g[i].kernel, "case %zu", i);
			ck_assert_msg(fabs(c.channel_pad - g[i].pad16) < 1e-15,
				      "case %zu: %g", i, c.channel_pad);
			model_layer_cost(&m->layers[1], p, 2, 4, 4, &c);
			ck_assert_int_eq(c.kernel, g[i].kernel);
			ck_assert_double_eq(c.channel_pad, 0.0);
		}
		model_free(m);
	}
	ck_assert_int_eq(model_conv_grouped_vector(7.0, 2), 1);
	ck_assert_int_eq(model_conv_grouped_vector(8.0, 2), 0);
	ck_assert_int_eq(model_conv_grouped_vector(1.0, 1), 0);
}
END_TEST

/* ---------------------------------------------------------------- */
/* The simulator                                                     */
/* ---------------------------------------------------------------- */

static void put_fp16_conv_fits(struct db *db, int unaligned)
{
	put_fit(db, "box", "conv:fp16", "{\"benchmark\": \"conv\", "
		"\"group\": \"dtype=fp16 class=other\", \"fixed_s\": 1e-5, "
		"\"s_per_flop\": 1e-12, \"s_per_byte\": 1e-10, "
		"\"flops_per_s\": 1e12}", "[[0, 0, 0], [0, 0, 0], [0, 0, 0]]",
		2000.0);
	if (unaligned)
		put_fit(db, "box", "conv_unaligned:fp16", "{\"benchmark\": "
			"\"conv\", \"group\": \"dtype=fp16 class=unaligned\", "
			"\"fixed_s\": 2e-5, \"s_per_flop\": 1e-11, "
			"\"s_per_byte\": 2e-10, \"flops_per_s\": 1e11}",
			"[[0, 0, 0], [0, 0, 0], [0, 0, 0]]", 2000.0);
}

/*
 * A 7x7/2 pass of 1e9 FLOPs and 1e6 bytes on 3 channels in fp16
 * (channel_pad 8/3), on the "box" fits, by hand:
 * - with conv_unaligned:fp16 (fixed 2e-5, 1e-11 s/FLOP, 2e-10 s/B), on
 *   a device with tensor cores at fp16 (matrix 8e12 > vector 2e12
 *   FLOP/s): 2e-5 + 1e9 x 8/3 x 1e-11 + 1e6 x 2e-10 = 26.88667 ms;
 * - the same fits on a device without them (matrix = vector): the
 *   window's conv:fp16 (fixed 1e-5, 1e-12 s/FLOP, 1e-10 s/B) on the work
 *   as counted: 1e-5 + 1e-3 + 1e-4 = 1.11 ms;
 * - with conv:fp16 alone, on tensor cores: 1.11 ms;
 * - a pass on 8 channels (channel_pad 0) with both fits: 1.11 ms.
 */
START_TEST(conv_unaligned_takes_its_fit_at_the_padded_work)
{
	struct model_pass_cost off = { .flops = 1e9, .bytes = 1e6,
		.kernel = MODEL_KERNEL_CONV, .channel_pad = 8.0 / 3.0 };
	struct model_pass_cost on = off;
	struct dlsim_err err = { 0, "" };
	struct calib_rig r;
	struct sim_roof roof;
	struct hw_calib c;
	struct tmpdb t;
	enum sim_bound b;
	int with;

	on.channel_pad = 0.0;
	calib_rig_init(&r);
	r.dev.peak[DLSIM_FP16] = r.dev.peak[DLSIM_FP32];
	r.dev.peak[DLSIM_FP16].matrix_flops = 8e12;
	r.dev.peak[DLSIM_FP16].vector_flops = 2e12;
	for (with = 0; with < 2; with++) {
		tmpdb_open(&t);
		put_fp16_conv_fits(t.db, with);
		ck_assert_msg(hw_calib_load(t.db, "box", &c, &err) ==
			      DLSIM_OK, "%s", err.msg);
		tmpdb_close(&t);
		/* without its own fit, none: not the conv or GEMM one */
		ck_assert(with || sim_calib_kernel(&c,
			  MODEL_KERNEL_CONV_UNALIGNED, DLSIM_FP16) == NULL);
		ck_assert(sim_calib_kernel(&c, MODEL_KERNEL_CONV, DLSIM_FP16) ==
			  &c.kernel[MODEL_KERNEL_CONV][DLSIM_FP16]);
		sim_roof_init(&roof, &r.dev, DLSIM_FP16, &c);
		ck_assert_rel(sim_pass_time(&roof, &off, &b),
			      with ? 26.886666666666667e-3 : 1.11e-3, 1e-9);
		ck_assert_rel(sim_pass_time(&roof, &on, &b), 1.11e-3, 1e-9);
	}
	ck_assert_str_eq(c.kernel[MODEL_KERNEL_CONV_UNALIGNED][DLSIM_FP16]
			 .fit.kind, "conv_unaligned:fp16");
	ck_assert(sim_device_kernel(&r.dev, &c, MODEL_KERNEL_CONV_UNALIGNED,
				    DLSIM_FP16) ==
		  &c.kernel[MODEL_KERNEL_CONV_UNALIGNED][DLSIM_FP16]);
	/* the cost is not changed by being timed */
	ck_assert_double_eq(off.flops, 1e9);
	r.dev.peak[DLSIM_FP16].matrix_flops = 2e12;
	ck_assert(sim_device_kernel(&r.dev, &c, MODEL_KERNEL_CONV_UNALIGNED,
				    DLSIM_FP16) == NULL);
	sim_roof_init(&roof, &r.dev, DLSIM_FP16, &c);
	ck_assert_rel(sim_pass_time(&roof, &off, &b), 1.11e-3, 1e-9);
}
END_TEST

/* 1 when r names a fit of kind. */
static int names_fit(const struct sim_result *r, const char *kind)
{
	int i;

	for (i = 0; i < r->n_calib_used; i++)
		if (strcmp(r->calib_used[i].kind, kind) == 0)
			return 1;
	return 0;
}

/*
 * A network of a 7x7/2 stem on 3 channels, with bias, and a 3x3/1
 * convolution, in fp16 on the rig with conv:fp16, conv3x3:fp16 and
 * conv_unaligned:fp16 fits: with tensor cores (matrix 8e12 > vector 2e12
 * FLOP/s) the stem runs the unaligned fit, and the prediction names it
 * and conv3x3, not conv (no other layer is of the stem's window class);
 * without them (matrix = vector) the stem runs its window's fit, conv,
 * which the prediction names instead.  The stem's forward at batch 4,
 * by hand: out 8 x 16 x 16, MACs 4 x 8 x 256 x 147 = 1,204,224, so F =
 * 2,408,448 and at 3 channels padded to 8 F' = 6,422,528; bytes 2 x
 * (12,288 in + 8,192 out) + 2 x 1,176 weights = 43,312: 2e-5 + F' x
 * 1e-11 + 43,312 x 2e-10 = 92.88768 us; then its bias, a kernel apart,
 * 2 x 2 x 8,192 + 2 x 8 biases = 32,784 bytes at the rig's 1e11 B/s,
 * 0.32784 us (no launch cost on the rig): 93.21552 us.
 */
START_TEST(conv_unaligned_names_the_fit_the_stem_ran)
{
	struct dlsim_err err = { 0, "" };
	struct model_builder b;
	struct model_conv_spec sp;
	struct model *m;
	struct sim_options o;
	struct sim_result res;
	struct calib_rig r;
	struct hw_calib c;
	struct tmpdb t;
	int tensor, stem;

	model_util_start(&b, 3, 32, 32);
	model_conv_spec_init(&sp, 8, 7, 2, 3);
	sp.bias = 1;
	stem = model_add_conv(&b, MODEL_IN, "stem", &sp);
	sp.bias = 0;
	model_conv_spec_init(&sp, 8, 3, 1, 1);
	model_add_conv(&b, stem, "body", &sp);
	m = model_util_finish(&b);
	calib_rig_init(&r);
	r.dev.peak[DLSIM_FP16] = r.dev.peak[DLSIM_FP32];
	tmpdb_open(&t);
	put_fp16_conv_fits(t.db, 1);
	put_fit(t.db, "box", "conv3x3:fp16", "{\"benchmark\": \"conv\", "
		"\"group\": \"dtype=fp16 class=3x3s1\", \"fixed_s\": 1e-5, "
		"\"s_per_flop\": 1e-12, \"s_per_byte\": 1e-10, "
		"\"flops_per_s\": 1e12}", "[[0, 0, 0], [0, 0, 0], [0, 0, 0]]",
		2000.0);
	ck_assert_msg(hw_calib_load(t.db, "box", &c, &err) == DLSIM_OK, "%s",
		      err.msg);
	tmpdb_close(&t);
	r.sys.calib = &c;
	r.sys.devices_per_node = 1;
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP16;
	o.batch_per_device = 4;
	for (tensor = 0; tensor < 2; tensor++) {
		r.dev.peak[DLSIM_FP16].matrix_flops = tensor ? 8e12 : 2e12;
		r.dev.peak[DLSIM_FP16].vector_flops = 2e12;
		ck_assert_msg(sim_predict(m, &r.sys, &o, &res, &err) ==
			      DLSIM_OK, "%s", err.msg);
		ck_assert(names_fit(&res, "conv3x3:fp16"));
		ck_assert_int_eq(names_fit(&res, "conv_unaligned:fp16"),
				 tensor);
		ck_assert_int_eq(names_fit(&res, "conv:fp16"), !tensor);
		sim_result_release(&res);
	}
	{
		struct model_pass_cost pc;
		struct sim_roof roof;
		enum sim_bound bd;

		model_layer_cost(&m->layers[stem], MODEL_PASS_FWD, 4, 2, 2,
				 &pc);
		sim_roof_init(&roof, &r.dev, DLSIM_FP16, &c);
		ck_assert_rel(sim_pass_time(&roof, &pc, &bd), 93.21552e-6,
			      1e-9);
	}
	model_free(m);
}
END_TEST

/* With the calibration the seed makes: ResNet-50 in fp16 on a V100
 * (tensor cores, DeepBench's 16-bit rows on 1 or 3 channels fitted)
 * names conv_unaligned:fp16 for its stem; on a P100 (no tensor cores,
 * the same fit stored) and in fp32 on the V100 it does not. */
START_TEST(conv_unaligned_prediction_names_the_fit_it_used)
{
	static const struct {
		const char *hw, *precision;
		int named;
	} c[] = { { "v100", "fp16", 1 }, { "p100", "fp16", 0 },
		  { "v100", "fp32", 0 } };
	struct tmpdb t;
	struct run r;
	char args[256];
	size_t i;

	tmpdb_seed_cli(&t, &r);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(args, sizeof(args), "predict resnet50 --hw %s "
			 "--batch 64 --precision %s --db %s", c[i].hw,
			 c[i].precision, t.path);
		run(&r, args);
		ck_assert_msg(r.status == 0, "%s", r.err);
		ck_assert_msg(!strstr(r.out, "conv_unaligned:") == !c[i].named,
			      "%s %s: %s", c[i].hw, c[i].precision, r.out);
		ck_assert_msg(strstr(r.out, "conv3x3:") != NULL, "%s", r.out);
	}
	tmpdb_close(&t);
}
END_TEST

Suite *suite_conv_align(void)
{
	Suite *s = suite_create("conv_align");
	TCase *c = tcase_create("conv_align");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, conv_channel_pad_rule);
	tcase_add_test(c, conv_channel_pad_marks_the_first_layer);
	tcase_add_test(c, conv_channel_pad_counts_a_group_s_channels);
	tcase_add_test(c, conv_unaligned_takes_its_fit_at_the_padded_work);
	tcase_add_test(c, conv_unaligned_names_the_fit_the_stem_ran);
	tcase_add_test(c, conv_unaligned_prediction_names_the_fit_it_used);
	suite_add_tcase(s, c);
	return s;
}
