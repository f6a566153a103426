/*
 * test_sim_fuse.c -- kernel fusion in a training step (sim/sim_fuse.c):
 * which edges of element-wise chains stay on chip and the bytes and
 * launches that takes off each pass, through an add and around a tensor
 * a backward pass reads, and cuDNN's convolution + BatchNorm fusion with
 * what it needs, worked out by hand on the launch-only rig of
 * sim_util.c.
 *
 * Apart from test_sim_step.c, which checks the step's schedule, memory
 * and limits as the model's graph gives them: here the options
 * fuse_elementwise and fuse_conv_bn rewrite the graph's per-layer
 * traffic, each case set against the same step unfused.
 */
#include <stdio.h>

#include "tests.h"
#include "dlsim.h"
#include "models/model.h"
#include "sim_util.h"

/* m on the launch-only rig, fp32 with per-layer results: *a eager,
 * *f with element-wise fusion. */
static void predict_fused_and_not(const struct model *m, struct sim_result *a,
				  struct sim_result *f)
{
	struct sim_options o;
	struct sim_rig r;

	sim_rig_init(&r, 1, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.want_layers = 1;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, a, NULL), DLSIM_OK);
	o.fuse_elementwise = 1;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, f, NULL), DLSIM_OK);
}

/*
 * Element-wise fusion: fc1 (8) -> bn -> relu -> fc2 (8) -> loss, batch 2,
 * fp32.  The one fusable edge is bn -> relu (bn's only consumer; the fcs
 * are not element-wise): 1 edge, E = 2 x 8 = 16 values, 64 bytes.
 *   bn fwd   4 x 3E + 4 x 16 params = 256 B; fused, no write of y: 192
 *   relu fwd 4 (E + E) = 128 B; fused, no read of x: 64
 *   bn dx    256 B; fused, no read of dy: 192
 *   relu dx  4 (E + E + E) = 192 B; fused, no write of dx: 128
 * On the rig only launches (1 ms) take time: relu's forward and dx run
 * inside bn's kernels, so forward falls from 5 to 4 ms and the step by 2.
 */
START_TEST(step_fuses_elementwise_chains)
{
	static const double unfused[4] = { 256, 128, 256, 192 };
	static const double fused[4] = { 192, 64, 192, 128 };
	struct model_builder b;
	struct model_shape in = { 4, 1, 1 };
	struct model *m = NULL;
	struct sim_result a, f;
	int x, bn, relu, pass;

	model_builder_init(&b, "chain", in, 2, "test");
	x = model_add_fc(&b, MODEL_IN, "fc1", 8, 1);
	bn = model_add_batchnorm(&b, x, "bn");
	relu = model_add_simple(&b, MODEL_RELU, bn, "relu");
	x = model_add_fc(&b, relu, "fc2", 8, 1);
	model_add_simple(&b, MODEL_SOFTMAX_XENT, x, "loss");
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	predict_fused_and_not(m, &a, &f);
	ck_assert_int_eq(a.fused_edges, 0);
	ck_assert_int_eq(f.fused_edges, 1);
	for (pass = 0; pass < 2; pass++) {
		enum model_pass p = pass ? MODEL_PASS_BWD_DATA : MODEL_PASS_FWD;

		ck_assert(a.layers[bn].bytes[p] == unfused[2 * pass]);
		ck_assert(a.layers[relu].bytes[p] == unfused[2 * pass + 1]);
		ck_assert(f.layers[bn].bytes[p] == fused[2 * pass]);
		ck_assert(f.layers[relu].bytes[p] == fused[2 * pass + 1]);
	}
	ck_assert_rel(a.breakdown.forward_s, 5e-3, 1e-9);
	ck_assert_rel(f.breakdown.forward_s, 4e-3, 1e-9);
	ck_assert_rel(a.step_time_s - f.step_time_s, 2e-3, 1e-9);
	sim_result_release(&a);
	sim_result_release(&f);
	model_free(m);
}
END_TEST

/*
 * Through an add: fc1 -> bn -> add(bn, fc1) -> relu -> fc2 -> loss, batch
 * 2, fp32, E = 16 values (64 B) on each edge.  bn -> add and add -> relu
 * stay on chip forward (2 edges): bn 256 - 64 = 192 B, add 4 (32 + 16)
 * = 192 - 64 - 64 = 64 B, relu 128 - 64 = 64 B, and add and relu pay no
 * launch (forward 6 ms -> 4 ms).  Backward nothing changes: the add runs
 * no kernel, and the gradient it passes on is read by fc1's sum too.
 */
START_TEST(step_fuses_forward_only_through_an_add)
{
	struct model_builder b;
	struct model_shape in = { 4, 1, 1 };
	struct model *m = NULL;
	struct sim_result a, f;
	int x, bn, add, relu, y[2];

	model_builder_init(&b, "res", in, 2, "test");
	x = model_add_fc(&b, MODEL_IN, "fc1", 8, 1);
	bn = model_add_batchnorm(&b, x, "bn");
	y[0] = bn;
	y[1] = x;
	add = model_add_merge(&b, MODEL_ADD, 2, y, "add");
	relu = model_add_simple(&b, MODEL_RELU, add, "relu");
	x = model_add_fc(&b, relu, "fc2", 8, 1);
	model_add_simple(&b, MODEL_SOFTMAX_XENT, x, "loss");
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	predict_fused_and_not(m, &a, &f);
	ck_assert_int_eq(f.fused_edges, 2);
	ck_assert(f.layers[bn].bytes[MODEL_PASS_FWD] == 192.0);
	ck_assert(a.layers[add].bytes[MODEL_PASS_FWD] == 192.0);
	ck_assert(f.layers[add].bytes[MODEL_PASS_FWD] == 64.0);
	ck_assert(f.layers[relu].bytes[MODEL_PASS_FWD] == 64.0);
	ck_assert(f.layers[bn].bytes[MODEL_PASS_BWD_DATA] ==
		  a.layers[bn].bytes[MODEL_PASS_BWD_DATA]);
	ck_assert(f.layers[relu].bytes[MODEL_PASS_BWD_DATA] ==
		  a.layers[relu].bytes[MODEL_PASS_BWD_DATA]);
	ck_assert_rel(a.breakdown.forward_s, 6e-3, 1e-9);
	ck_assert_rel(f.breakdown.forward_s, 4e-3, 1e-9);
	ck_assert_rel(f.breakdown.backward_s, a.breakdown.backward_s, 1e-12);
	sim_result_release(&a);
	sim_result_release(&f);
	model_free(m);
}
END_TEST

/* The launch-only rig made an NVIDIA GPU with tensor cores (fp16 matrix
 * units twice its vector ones), and options for an fp16 step with
 * element-wise fusion. */
static void tensor_core_rig(struct sim_rig *r, struct sim_options *o)
{
	sim_rig_init(r, 1, 1);
	r->dev.kind = HW_GPU;
	snprintf(r->dev.vendor, sizeof(r->dev.vendor), "NVIDIA");
	r->dev.peak[DLSIM_FP16].matrix_flops = 2e20;
	sim_options_init(o);
	o->precision_auto = 0;
	o->precision = DLSIM_FP16;
	o->fuse_elementwise = 1;
}

/*
 * Convolution + BatchNorm fusion (cuDNN's fused operations, NVIDIA's
 * NormConvolution): conv1 (2 filters 1x1) -> bn1 -> relu1 -> conv2 (2
 * filters 1x1) -> bn2 -> relu2 -> globalpool -> fc -> loss, on 1 x 4 x 4
 * inputs, batch 2, fp16 on the launch-only rig made an NVIDIA GPU with
 * tensor cores (fp16 matrix units twice its vector ones): every
 * tensor between the convolutions is E = 2 x 2 x 16 = 64 values, 128 B;
 * each BatchNorm has 4 parameters, read at 2 B, 8 B.  bn1 + relu1 sit
 * between two convolutions and run inside them; bn2 + relu2 feed a
 * pooling layer and stay element-wise fused.
 *   bn1 fwd    2 x 3E + 8 = 392 B; fused, no write of y: 264; inside,
 *              its kernel the statistics' finalize: 2 fp32 sums read
 *              and a scale and shift written a channel, 16 x 2 = 32 B
 *              (1 ms, its launch)
 *   relu1 fwd  2 (E + E) = 256 B; fused: 128; inside: 0, no launch
 *   relu1 dx   2 (E + E + E) = 384 B; fused, no write of dx: 256; inside,
 *              no read of its output either: 128
 *   bn1 dx     264 B, as fused (its reads and its write stay)
 * So the forward launches what element-wise fusion launches, and the
 * backward the same kernels with less traffic.
 */
START_TEST(step_fuses_batchnorm_into_convolutions)
{
	struct model_builder b;
	struct model_shape in = { 1, 4, 4 };
	struct model_conv_spec sp;
	struct model *m = NULL;
	struct sim_rig r;
	struct sim_options o;
	struct sim_result f, c;
	int x, bn1, relu1, bn2, relu2;

	model_builder_init(&b, "normconv", in, 2, "test");
	model_conv_spec_init(&sp, 2, 1, 1, 0);
	x = model_add_conv(&b, MODEL_IN, "conv1", &sp);
	bn1 = model_add_batchnorm(&b, x, "bn1");
	relu1 = model_add_simple(&b, MODEL_RELU, bn1, "relu1");
	x = model_add_conv(&b, relu1, "conv2", &sp);
	bn2 = model_add_batchnorm(&b, x, "bn2");
	relu2 = model_add_simple(&b, MODEL_RELU, bn2, "relu2");
	x = model_add_globalpool(&b, relu2, "pool");
	x = model_add_fc(&b, x, "fc", 3, 1);
	model_add_simple(&b, MODEL_SOFTMAX_XENT, x, "loss");
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	tensor_core_rig(&r, &o);
	o.want_layers = 1;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &f, NULL), DLSIM_OK);
	o.fuse_conv_bn = 1;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &c, NULL), DLSIM_OK);
	ck_assert_int_eq(f.conv_bn_pairs, 0);
	ck_assert_int_eq(c.conv_bn_pairs, 1);
	ck_assert_int_eq(c.fused_edges, f.fused_edges);
	ck_assert(f.layers[bn1].bytes[MODEL_PASS_FWD] == 264.0);
	ck_assert(f.layers[relu1].bytes[MODEL_PASS_FWD] == 128.0);
	ck_assert(c.layers[bn1].bytes[MODEL_PASS_FWD] == 32.0);
	ck_assert(c.layers[relu1].bytes[MODEL_PASS_FWD] == 0.0);
	ck_assert_rel(c.layers[bn1].time_s[MODEL_PASS_FWD], 1e-3, 1e-9);
	ck_assert(c.layers[relu1].time_s[MODEL_PASS_FWD] == 0.0);
	ck_assert(f.layers[relu1].bytes[MODEL_PASS_BWD_DATA] == 256.0);
	ck_assert(c.layers[relu1].bytes[MODEL_PASS_BWD_DATA] == 128.0);
	ck_assert(c.layers[bn1].bytes[MODEL_PASS_BWD_DATA] == 264.0);
	ck_assert(c.layers[bn1].bytes[MODEL_PASS_BWD_WEIGHT] ==
		  f.layers[bn1].bytes[MODEL_PASS_BWD_WEIGHT]);
	/* the pair before the pooling layer is not inside a convolution */
	ck_assert(c.layers[bn2].bytes[MODEL_PASS_FWD] == 264.0);
	ck_assert(c.layers[relu2].bytes[MODEL_PASS_FWD] == 128.0);
	ck_assert(c.layers[relu2].bytes[MODEL_PASS_BWD_DATA] == 256.0);
	ck_assert_rel(c.breakdown.forward_s, f.breakdown.forward_s, 1e-12);
	ck_assert_rel(c.breakdown.backward_s, f.breakdown.backward_s, 1e-12);
	sim_result_release(&f);
	sim_result_release(&c);
	/* it runs on element-wise fusion, at 16 bits, on NVIDIA GPUs */
	o.fuse_elementwise = 0;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &c, NULL), DLSIM_EINVAL);
	o.fuse_elementwise = 1;
	o.precision = DLSIM_FP32;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &c, NULL), DLSIM_EINVAL);
	o.precision = DLSIM_FP16;
	snprintf(r.dev.vendor, sizeof(r.dev.vendor), "AMD");
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &c, NULL), DLSIM_EINVAL);
	/* nor without tensor cores (matrix units no faster than vector) */
	snprintf(r.dev.vendor, sizeof(r.dev.vendor), "NVIDIA");
	r.dev.peak[DLSIM_FP16].matrix_flops =
		r.dev.peak[DLSIM_FP16].vector_flops;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &c, NULL), DLSIM_EINVAL);
	model_free(m);
}
END_TEST

/*
 * Where a pair is not between two convolutions alone it stays out:
 *   conv1 -> bn1 -> relu1, relu1 read by conv2 and by add2 (it feeds
 *     another layer);
 *   conv2 -> bn2 -> relu2 -> conv3, conv2 also read by add (the
 *     convolution has two consumers: its epilogue would not be its
 *     output's only use);
 *   conv4 -> bn4 -> relu4 -> conv5, conv5 grouped (cuDNN's fused
 *     operations take ungrouped ones);
 *   conv5 -> bn5 -> relu5, the model's output (no consumer).
 * With conv5 ungrouped the third pair is taken in, and only it.
 */
START_TEST(step_conv_bn_fusion_needs_convolutions_alone)
{
	int groups;

	for (groups = 2; groups >= 1; groups--) {
		struct model_builder b;
		struct model_shape in = { 2, 4, 4 };
		struct model_conv_spec sp;
		struct model *m = NULL;
		struct sim_rig r;
		struct sim_options o;
		struct sim_result c;
		int x, relu1, c2, y[2];

		model_builder_init(&b, "apart", in, 2, "test");
		model_conv_spec_init(&sp, 2, 1, 1, 0);
		x = model_add_conv(&b, MODEL_IN, "conv1", &sp);
		x = model_add_batchnorm(&b, x, "bn1");
		relu1 = model_add_simple(&b, MODEL_RELU, x, "relu1");
		c2 = model_add_conv(&b, relu1, "conv2", &sp);
		x = model_add_batchnorm(&b, c2, "bn2");
		x = model_add_simple(&b, MODEL_RELU, x, "relu2");
		y[0] = model_add_conv(&b, x, "conv3", &sp);
		y[1] = c2;
		y[0] = model_add_merge(&b, MODEL_ADD, 2, y, "add");
		y[1] = relu1;
		x = model_add_merge(&b, MODEL_ADD, 2, y, "add2");
		x = model_add_conv(&b, x, "conv4", &sp);
		x = model_add_batchnorm(&b, x, "bn4");
		x = model_add_simple(&b, MODEL_RELU, x, "relu4");
		sp.groups = groups;
		x = model_add_conv(&b, x, "conv5", &sp);
		x = model_add_batchnorm(&b, x, "bn5");
		model_add_simple(&b, MODEL_RELU, x, "relu5");
		ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
		tensor_core_rig(&r, &o);
		o.fuse_conv_bn = 1;
		ck_assert_int_eq(sim_predict(m, &r.sys, &o, &c, NULL),
				 DLSIM_OK);
		ck_assert_int_eq(c.conv_bn_pairs, groups == 1 ? 1 : 0);
		sim_result_release(&c);
		model_free(m);
	}
}
END_TEST

/* A producer whose backward reads its output (sigmoid) or a consumer
 * whose backward reads its input (BatchNorm) keeps the edge in memory. */
START_TEST(step_fusion_keeps_tensors_backward_reads)
{
	struct model_builder b;
	struct model_shape in = { 4, 1, 1 };
	struct model *m = NULL;
	struct sim_rig r;
	struct sim_options o;
	struct sim_result f;
	int x;

	model_builder_init(&b, "keep", in, 2, "test");
	x = model_add_fc(&b, MODEL_IN, "fc1", 8, 1);
	x = model_add_simple(&b, MODEL_SIGMOID, x, "sig");
	x = model_add_simple(&b, MODEL_RELU, x, "relu");
	x = model_add_batchnorm(&b, x, "bn");
	model_add_simple(&b, MODEL_SOFTMAX_XENT, x, "loss");
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	sim_rig_init(&r, 1, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.fuse_elementwise = 1;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &f, NULL), DLSIM_OK);
	ck_assert_int_eq(f.fused_edges, 0);
	sim_result_release(&f);
	model_free(m);
}
END_TEST

Suite *suite_sim_fuse(void)
{
	Suite *s = suite_create("sim_fuse");
	TCase *c;

	c = tcase_create("fuse");
	tcase_add_test(c, step_fuses_elementwise_chains);
	tcase_add_test(c, step_fuses_forward_only_through_an_add);
	tcase_add_test(c, step_fusion_keeps_tensors_backward_reads);
	tcase_add_test(c, step_fuses_batchnorm_into_convolutions);
	tcase_add_test(c, step_conv_bn_fusion_needs_convolutions_alone);
	suite_add_tcase(s, c);
	return s;
}
