/*
 * test_model_layer.c -- the per-layer counts of models/model_layer.c:
 * FLOPs, bytes, work and depth of every pass (the kernel class is
 * test_model_kernel.c's), and the cost
 * of summing gradients at a fan-out.  Shapes and the builder's checks are
 * test_model_build.c's.
 *
 * Unless a test says otherwise the batch is N = 2 with 4-byte activations
 * and 4-byte weights (fp32), and every expected number is worked out by
 * hand next to it from the conventions in model_layer.c's header comment:
 * FLOPs count a multiply-add as 2, work W counts it once, depth D follows
 * Ben-Nun & Hoefler (shared/reference/seed-002-benNun-hoefler.md, Tables 4
 * and 6), and bytes are inputs + outputs (+ weights) read or written once.
 */
#include <math.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "models/model.h"
#include "model_util.h"

#define N 2     /* batch */
#define A 4     /* bytes per activation value */
#define WB 4    /* bytes per weight */

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

/* a build that must succeed */
#define finish model_util_finish

static void start(struct model_builder *b, int64_t c, int64_t h, int64_t w)
{
	struct model_shape in = { c, h, w };

	model_builder_init(b, "t", in, N, "test_model_layer.c");
	ck_assert_int_eq(b->err.code, DLSIM_OK);
}

/* Assert one pass of layer l at N, A, WB. */
static void expect(const struct model_layer *l, enum model_pass p,
		   double flops, double bytes, double work, double depth)
{
	struct model_pass_cost c;

	model_layer_cost(l, p, N, A, WB, &c);
	ck_assert_msg(c.flops == flops, "%s %s: flops %.17g, expected %.17g",
		      l->name, model_pass_name(p), c.flops, flops);
	ck_assert_msg(c.bytes == bytes, "%s %s: bytes %.17g, expected %.17g",
		      l->name, model_pass_name(p), c.bytes, bytes);
	ck_assert_msg(c.work == work, "%s %s: work %.17g, expected %.17g",
		      l->name, model_pass_name(p), c.work, work);
	ck_assert_msg(c.depth == depth, "%s %s: depth %.17g, expected %.17g",
		      l->name, model_pass_name(p), c.depth, depth);
}

/* A pass with no cost at all. */
static void expect_zero(const struct model_layer *l, enum model_pass p)
{
	expect(l, p, 0.0, 0.0, 0.0, 0.0);
}

static void assert_shape(struct model_shape s, int64_t c, int64_t h,
			 int64_t w)
{
	ck_assert_int_eq(s.c, c);
	ck_assert_int_eq(s.h, h);
	ck_assert_int_eq(s.w, w);
}

/* ---------------------------------------------------------------- */
/* conv2d                                                            */
/* ---------------------------------------------------------------- */

/*
 * 3x5x5 input, 8 filters 3x3, stride 1, padding 1, with bias.
 *   out 8x5x5 = 200 values per sample; in 75.  N = 2: in 150, out 400.
 *   params = 8 * 3 * 3 * 3 + 8 = 224
 *   MACs = N * 200 * 3 * 9 = 10,800
 *   y:  FLOPs 2 * 10,800 + 400 (bias) = 22,000
 *       bytes 4 * (150 + 400) + 4 * 216 = 2,200 + 864 = 3,064 for the
 *       convolution, its matrix part (gemm_flops 21,600, gemm_bytes
 *       3,064, class 3x3), and the bias added by a kernel of its own
 *       after it (model_layer.c), reading and writing the output again
 *       and reading the 8 biases: 4 * 800 + 4 * 8 = 3,232; 6,296 in all,
 *       two launches
 *       D = ceil log2 3 + ceil log2 3 + ceil log2 3 = 6     (Table 6)
 *   dx: FLOPs 21,600; 3,096 bytes (no bias); D = ceil log2 8 + 2 + 2 = 7
 *   dw: FLOPs 21,600 + 400 (bias gradient) = 22,000; bytes 3,064 and
 *       the bias gradient's pass over dy, 4 * 400 + 4 * 8 = 1,632: 4,696;
 *       D = ceil log2(N H' W') = ceil log2 50 = 6
 */
START_TEST(conv_fwd_bwd_counts_match_hand_count)
{
	struct model_builder b;
	struct model_conv_spec s;
	struct model *m;
	const struct model_layer *l;
	struct model_pass_cost c;
	int x;

	start(&b, 3, 5, 5);
	model_conv_spec_init(&s, 8, 3, 1, 1);
	s.bias = 1;
	x = model_add_conv(&b, MODEL_IN, "conv", &s);
	ck_assert_int_eq(x, 1);
	m = finish(&b);
	l = &m->layers[x];
	assert_shape(l->out, 8, 5, 5);
	ck_assert_int_eq(l->params, 224);
	ck_assert_int_eq(m->params, 224);
	ck_assert_int_eq(l->in_elems, 75);
	expect(l, MODEL_PASS_FWD, 22000, 6296, 10800, 6);
	expect(l, MODEL_PASS_BWD_DATA, 21600, 3096, 10800, 7);
	expect(l, MODEL_PASS_BWD_WEIGHT, 22000, 4696, 10800, 6);
	expect_zero(l, MODEL_PASS_UPDATE);
	/* a dense 3x3 stride-1 conv is the Winograd class, every pass: its
	 * matrix part where the bias is a kernel apart */
	model_layer_cost(l, MODEL_PASS_FWD, N, A, WB, &c);
	ck_assert_int_eq(c.gemm_kernel, MODEL_KERNEL_CONV3X3);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_VECTOR);
	ck_assert(c.gemm_flops == 21600.0 && c.gemm_bytes == 3064.0);
	ck_assert(c.launches == 2.0);
	model_layer_cost(l, MODEL_PASS_BWD_WEIGHT, N, A, WB, &c);
	ck_assert_int_eq(c.gemm_kernel, MODEL_KERNEL_CONV3X3);
	ck_assert(c.gemm_flops == 21600.0 && c.gemm_bytes == 3064.0);
	model_layer_cost(l, MODEL_PASS_BWD_DATA, N, A, WB, &c);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_CONV3X3);
	ck_assert(c.gemm_flops == 0.0);
	/* per-sample MACs: 200 * 27 */
	ck_assert(model_forward_macs(m) == 5400.0);
	model_free(m);
}
END_TEST

/* Activation and weight sizes enter separately: fp16 activations with
 * fp32 master weights give 2 * (150 + 400) + 4 * 216 = 1,964 bytes for
 * the convolution and 2 * 800 + 4 * 8 = 1,632 for its bias: 3,596. */
START_TEST(conv_bytes_weigh_activations_and_weights_separately)
{
	struct model_builder b;
	struct model_conv_spec s;
	struct model_pass_cost c;
	struct model *m;

	start(&b, 3, 5, 5);
	model_conv_spec_init(&s, 8, 3, 1, 1);
	s.bias = 1;
	model_add_conv(&b, MODEL_IN, "conv", &s);
	m = finish(&b);
	model_layer_cost(&m->layers[1], MODEL_PASS_FWD, N, 2, 4, &c);
	ck_assert(c.bytes == 3596.0 && c.gemm_bytes == 1964.0);
	/* and FLOPs, work and depth do not depend on either */
	ck_assert(c.flops == 22000.0);
	ck_assert(c.work == 10800.0);
	model_free(m);
}
END_TEST

/*
 * 16x10x12 input, 4 filters 3x5 (K_y = 3, K_x = 5), stride 2, padding
 * 1 x 2, no bias.  H' = floor((10 + 2 - 3) / 2) + 1 = 5,
 * W' = floor((12 + 4 - 5) / 2) + 1 = 6.
 *   W = N * 4 * 5 * 6 * 16 * 15 = 57,600; params 4 * 16 * 15 = 960
 *   D(y)  = ceil log2 16 + ceil log2 3 + ceil log2 5 = 4 + 2 + 3 = 9
 *   D(dx) = ceil log2 4 + 2 + 3 = 7
 *   D(dw) = ceil log2(2 * 30) = 6
 *   bytes = 4 * (2 * 1920 + 2 * 120) + 4 * 960 = 16,320 + 3,840 = 20,160
 */
START_TEST(conv_rectangular_kernel_depth_sums_each_axis)
{
	struct model_builder b;
	struct model_conv_spec s;
	struct model *m;
	const struct model_layer *l;

	start(&b, 16, 10, 12);
	model_conv_spec_init(&s, 4, 3, 2, 1);
	s.kernel_w = 5;
	s.pad_w = 2;
	model_add_conv(&b, MODEL_IN, "rect", &s);
	m = finish(&b);
	l = &m->layers[1];
	assert_shape(l->out, 4, 5, 6);
	ck_assert_int_eq(l->params, 960);
	expect(l, MODEL_PASS_FWD, 115200, 20160, 57600, 9);
	expect(l, MODEL_PASS_BWD_DATA, 115200, 20160, 57600, 7);
	expect(l, MODEL_PASS_BWD_WEIGHT, 115200, 20160, 57600, 6);
	model_free(m);
}
END_TEST

/*
 * Grouped: 8x4x4 input, 16 filters 3x3 pad 1 in 4 groups, so each filter
 * sees 8/4 = 2 channels.  params 16 * 2 * 9 = 288; out 16x4x4 = 256.
 *   W = N * 256 * 2 * 9 = 9,216
 *   D(y) = ceil log2 2 + 2 + 2 = 5; D(dx) = ceil log2(16/4) + 4 = 6
 *   bytes 4 * (2 * 128 + 2 * 256) + 4 * 288 = 3,072 + 1,152 = 4,224
 * Depthwise: 8 filters in 8 groups, one channel each.  params 72;
 *   W = N * 128 * 9 = 2,304; D(y) = D(dx) = 0 + 2 + 2 = 4
 *   bytes 4 * (256 + 256) + 4 * 72 = 2,336
 */
START_TEST(conv_grouped_and_depthwise_divide_channels)
{
	struct model_builder b;
	struct model_conv_spec s;
	struct model *m;
	int g, dw;

	start(&b, 8, 4, 4);
	model_conv_spec_init(&s, 16, 3, 1, 1);
	s.groups = 4;
	g = model_add_conv(&b, MODEL_IN, "grouped", &s);
	model_conv_spec_init(&s, 8, 3, 1, 1);
	s.groups = 8;
	dw = model_add_conv(&b, MODEL_IN, "depthwise", &s);
	m = finish(&b);
	ck_assert_int_eq(m->layers[g].params, 288);
	assert_shape(m->layers[g].out, 16, 4, 4);
	expect(&m->layers[g], MODEL_PASS_FWD, 18432, 4224, 9216, 5);
	expect(&m->layers[g], MODEL_PASS_BWD_DATA, 18432, 4224, 9216, 6);
	ck_assert_int_eq(m->layers[dw].params, 72);
	expect(&m->layers[dw], MODEL_PASS_FWD, 4608, 2336, 2304, 4);
	expect(&m->layers[dw], MODEL_PASS_BWD_DATA, 4608, 2336, 2304, 4);
	ck_assert_int_eq(m->params, 288 + 72);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* fc and flatten                                                    */
/* ---------------------------------------------------------------- */

/*
 * 3x2x2 input flattened to 12, fc to 5 with bias.
 *   params 12 * 5 + 5 = 65; MACs N * 60 = 120
 *   y:  FLOPs 240 + 10 (bias) = 250; bytes 4 * (24 + 10) + 4 * 65 = 396;
 *       D = ceil log2 C_in = ceil log2 12 = 4           (Table 4)
 *   dx: FLOPs 240; D = ceil log2 C_out = ceil log2 5 = 3
 *   dw: FLOPs 250; D = ceil log2 N = 1
 */
START_TEST(fc_counts_match_table4)
{
	struct model_builder b;
	struct model *m;
	struct model_pass_cost c;
	int f, fc, direct;

	start(&b, 3, 2, 2);
	f = model_add_simple(&b, MODEL_FLATTEN, MODEL_IN, "flat");
	fc = model_add_fc(&b, f, "fc", 5, 1);
	/* an fc straight on the 3x2x2 tensor sees the same 12 inputs */
	direct = model_add_fc(&b, MODEL_IN, "fc_direct", 5, 1);
	m = finish(&b);
	assert_shape(m->layers[f].out, 12, 1, 1);
	assert_shape(m->layers[fc].out, 5, 1, 1);
	ck_assert_int_eq(m->layers[fc].params, 65);
	expect(&m->layers[fc], MODEL_PASS_FWD, 250, 396, 120, 4);
	expect(&m->layers[fc], MODEL_PASS_BWD_DATA, 240, 396, 120, 3);
	expect(&m->layers[fc], MODEL_PASS_BWD_WEIGHT, 250, 396, 120, 1);
	expect_zero(&m->layers[fc], MODEL_PASS_UPDATE);
	expect(&m->layers[direct], MODEL_PASS_FWD, 250, 396, 120, 4);
	/* D(dw) = ceil log2 N: 6 at N = 64, 3 at N = 5 */
	model_layer_cost(&m->layers[fc], MODEL_PASS_BWD_WEIGHT, 64, A, WB, &c);
	ck_assert(c.depth == 6.0);
	model_layer_cost(&m->layers[fc], MODEL_PASS_BWD_WEIGHT, 5, A, WB, &c);
	ck_assert(c.depth == 3.0);
	model_free(m);

	/* no bias: 2 * 120 FLOPs; 60 params; 4 * (24 + 10) + 4 * 60 = 376
	 * bytes */
	start(&b, 12, 1, 1);
	fc = model_add_fc(&b, MODEL_IN, "nobias", 5, 0);
	m = finish(&b);
	ck_assert_int_eq(m->layers[fc].params, 60);
	expect(&m->layers[fc], MODEL_PASS_FWD, 240, 376, 120, 4);
	model_free(m);
}
END_TEST

/* A flatten is a view and the input layer does nothing: all zero. */
START_TEST(flatten_and_input_cost_nothing)
{
	struct model_builder b;
	struct model *m;
	int f, p;

	start(&b, 3, 2, 2);
	f = model_add_simple(&b, MODEL_FLATTEN, MODEL_IN, "flat");
	m = finish(&b);
	for (p = 0; p < MODEL_PASS_COUNT; p++) {
		expect_zero(&m->layers[f], p);
		expect_zero(&m->layers[MODEL_IN], p);
	}
	ck_assert_int_eq(m->layers[f].params, 0);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* pooling                                                           */
/* ---------------------------------------------------------------- */

/*
 * max 2x2/2 on 2x6x6: out 2x3x3 = 18 per sample; N = 2: in 144, out 36.
 *   y:  FLOPs out * K^2 = 144; W = out * (K^2 - 1) = 108;
 *       bytes 4 * (144 + 36) = 720; D = 1 + 1 = 2     (Table 4)
 *   dx: FLOPs = W = in = 144; bytes 4 * (144 + 36 + 144) = 1,296; D = 1
 * avg 3x3/1 pad 1: out 2x6x6, in = out = 144.
 *   y:  FLOPs 144 * 9 = 1,296; W = 144 * 8 = 1,152;
 *       bytes 4 * 288 = 1,152; D = 2 + 2 = 4
 *   dx: FLOPs 144; bytes 4 * (144 * 3) = 1,728
 */
START_TEST(max_and_avg_pool_counts)
{
	struct model_builder b;
	struct model_pool_spec s;
	struct model *m;
	int mx, av;

	start(&b, 2, 6, 6);
	model_pool_spec_init(&s, 2, 2, 0);
	mx = model_add_pool(&b, MODEL_MAXPOOL, MODEL_IN, "max", &s);
	model_pool_spec_init(&s, 3, 1, 1);
	av = model_add_pool(&b, MODEL_AVGPOOL, MODEL_IN, "avg", &s);
	m = finish(&b);
	assert_shape(m->layers[mx].out, 2, 3, 3);
	assert_shape(m->layers[av].out, 2, 6, 6);
	ck_assert_int_eq(m->layers[mx].params, 0);
	expect(&m->layers[mx], MODEL_PASS_FWD, 144, 720, 108, 2);
	expect(&m->layers[mx], MODEL_PASS_BWD_DATA, 144, 1296, 144, 1);
	expect_zero(&m->layers[mx], MODEL_PASS_BWD_WEIGHT);
	expect_zero(&m->layers[mx], MODEL_PASS_UPDATE);
	expect(&m->layers[av], MODEL_PASS_FWD, 1296, 1152, 1152, 4);
	expect(&m->layers[av], MODEL_PASS_BWD_DATA, 144, 1728, 144, 1);
	expect_zero(&m->layers[av], MODEL_PASS_BWD_WEIGHT);
	model_free(m);
}
END_TEST

/*
 * Global average pool of 4x3x5: one 3x5 window per channel, out 4x1x1.
 * N = 2: in 120, out 8.
 *   y: FLOPs 8 * 15 = 120; W = 8 * 14 = 112; bytes 4 * 128 = 512;
 *      D = ceil log2 3 + ceil log2 5 = 5 (Table 4's K_y, K_x terms)
 */
START_TEST(globalpool_is_one_window_per_channel)
{
	struct model_builder b;
	struct model *m;
	int g;

	start(&b, 4, 3, 5);
	g = model_add_globalpool(&b, MODEL_IN, "gap");
	m = finish(&b);
	assert_shape(m->layers[g].out, 4, 1, 1);
	ck_assert_int_eq(m->layers[g].kernel_h, 3);
	ck_assert_int_eq(m->layers[g].kernel_w, 5);
	expect(&m->layers[g], MODEL_PASS_FWD, 120, 512, 112, 5);
	/* dx: in 120; bytes 4 * (120 + 8 + 120) = 992 */
	expect(&m->layers[g], MODEL_PASS_BWD_DATA, 120, 992, 120, 1);
	expect_zero(&m->layers[g], MODEL_PASS_BWD_WEIGHT);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* batch norm, lrn and element-wise layers                           */
/* ---------------------------------------------------------------- */

/*
 * Batch norm on 4x3x3: params 2C = 8 (gamma, beta; Ben-Nun & Hoefler
 * App. A.6).  N = 2: e = 72 values; weights 4 * 8 = 32 bytes.
 *   y:  8 ops per value = 576; bytes 4 * 3 * 72 + 32 = 896;
 *       D = ceil log2(N H W) = ceil log2 18 = 5
 *   dw: 5 per value = 360; bytes 4 * 2 * 72 + 32 = 608; D = 5
 *   dx: 7 per value = 504; bytes 896; D = 1 (given dbeta and dgamma)
 */
START_TEST(batchnorm_params_and_counts)
{
	struct model_builder b;
	struct model *m;
	int bn;

	start(&b, 4, 3, 3);
	bn = model_add_batchnorm(&b, MODEL_IN, "bn");
	m = finish(&b);
	assert_shape(m->layers[bn].out, 4, 3, 3);
	ck_assert_int_eq(m->layers[bn].params, 8);
	expect(&m->layers[bn], MODEL_PASS_FWD, 576, 896, 576, 5);
	expect(&m->layers[bn], MODEL_PASS_BWD_WEIGHT, 360, 608, 360, 5);
	expect(&m->layers[bn], MODEL_PASS_BWD_DATA, 504, 896, 504, 1);
	expect_zero(&m->layers[bn], MODEL_PASS_UPDATE);
	model_free(m);
}
END_TEST

/*
 * Every element-wise layer on 4x3x3, N = 2: 72 values in and out.
 *   y:  bytes 4 * (72 + 72) = 576 (+ a 1-byte mask per value for
 *       dropout: 648)
 *   dx: bytes 4 * (72 + 72 + 72) = 864 (dropout: 936; lrn also reads
 *       x: 864 + 288 = 1,152)
 * FLOPs per value, forward / backward, as model_layer.c counts them:
 *   relu 1 / 1; sigmoid 4 / 3; tanh 5 / 3; dropout 2 / 1;
 *   lrn size 5 (the formulas over lrn_flops() in model_layer.c):
 *   forward 5 squares + 4 adds + 2 (k + a s) + pow + divide = 13;
 *   backward s again (2 * 5 + 1 = 11) + pow + dy s^-b + dy y / s (2)
 *   + window sum (4) + times x and 2ab (2) + subtract = 22.
 */
START_TEST(elementwise_counts_per_value)
{
	static const struct {
		enum model_layer_kind kind;
		double fwd, bwd, mask, x;
	} cases[] = {
		{ MODEL_RELU, 1, 1, 0, 0 },
		{ MODEL_SIGMOID, 4, 3, 0, 0 },
		{ MODEL_TANH, 5, 3, 0, 0 },
		{ MODEL_DROPOUT, 2, 1, 72, 0 },
		{ MODEL_LRN, 13, 22, 0, 288 },
	};
	struct model_builder b;
	struct model *m;
	size_t i;

	start(&b, 4, 3, 3);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].kind == MODEL_LRN)
			model_add_lrn(&b, MODEL_IN, "lrn", 5);
		else
			model_add_simple(&b, cases[i].kind, MODEL_IN, NULL);
	}
	m = finish(&b);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct model_layer *l = &m->layers[i + 1];
		struct model_pass_cost c;

		ck_assert_int_eq(l->kind, cases[i].kind);
		assert_shape(l->out, 4, 3, 3);
		ck_assert_int_eq(l->params, 0);
		expect(l, MODEL_PASS_FWD, 72 * cases[i].fwd,
		       576 + cases[i].mask, 72 * cases[i].fwd, 1);
		expect(l, MODEL_PASS_BWD_DATA, 72 * cases[i].bwd,
		       864 + cases[i].mask + cases[i].x, 72 * cases[i].bwd,
		       1);
		expect_zero(l, MODEL_PASS_BWD_WEIGHT);
		expect_zero(l, MODEL_PASS_UPDATE);
		model_layer_cost(l, MODEL_PASS_FWD, N, A, WB, &c);
		ck_assert_int_eq(c.kernel, MODEL_KERNEL_VECTOR);
	}
	model_free(m);
}
END_TEST

/* The dropout mask is one byte per value whatever the activation
 * precision: at fp16, y moves 2 * 144 + 72 = 360 bytes. */
START_TEST(dropout_mask_is_one_byte_per_value)
{
	struct model_builder b;
	struct model_pass_cost c;
	struct model *m;

	start(&b, 4, 3, 3);
	model_add_simple(&b, MODEL_DROPOUT, MODEL_IN, "drop");
	m = finish(&b);
	model_layer_cost(&m->layers[1], MODEL_PASS_FWD, N, 2, 4, &c);
	ck_assert(c.bytes == 360.0);
	model_free(m);
}
END_TEST

/*
 * LRN's counts grow with the window n: forward 2n + 3, backward 3n + 7
 * (model_layer.c).  n = 3 on 2x2x2, N = 2, 16 values: forward 9 * 16 =
 * 144, backward 16 * 16 = 256; n = 1: 5 * 16 = 80 and 10 * 16 = 160.
 */
START_TEST(lrn_counts_follow_window_size)
{
	struct model_builder b;
	struct model_pass_cost c;
	struct model *m;
	int l3, l1;

	start(&b, 2, 2, 2);
	l3 = model_add_lrn(&b, MODEL_IN, "lrn3", 3);
	l1 = model_add_lrn(&b, MODEL_IN, "lrn1", 1);
	m = finish(&b);
	model_layer_cost(&m->layers[l3], MODEL_PASS_FWD, N, A, WB, &c);
	ck_assert(c.flops == 144.0);
	model_layer_cost(&m->layers[l3], MODEL_PASS_BWD_DATA, N, A, WB, &c);
	ck_assert(c.flops == 256.0);
	/* reads x, y and dy, writes dx: 4 * 4 * 16 */
	ck_assert(c.bytes == 256.0);
	model_layer_cost(&m->layers[l1], MODEL_PASS_FWD, N, A, WB, &c);
	ck_assert(c.flops == 80.0);
	model_layer_cost(&m->layers[l1], MODEL_PASS_BWD_DATA, N, A, WB, &c);
	ck_assert(c.flops == 160.0);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* add, concat, loss                                                 */
/* ---------------------------------------------------------------- */

/*
 * add of three 4x3x3 tensors: in_elems 108 per sample, out 36.
 * N = 2: in 216, out 72.
 *   y: 2 adds per output value = 144 = in - out; bytes 4 * (216 + 72)
 *      = 1,152; D = ceil log2 3 = 2 (a reduction over 3 inputs)
 *   backward: passes the gradient on, free
 */
START_TEST(add_of_three_inputs)
{
	struct model_builder b;
	struct model *m;
	int in[3], add, p;

	start(&b, 4, 3, 3);
	in[0] = MODEL_IN;
	in[1] = model_add_simple(&b, MODEL_RELU, MODEL_IN, NULL);
	in[2] = model_add_simple(&b, MODEL_SIGMOID, MODEL_IN, NULL);
	add = model_add_merge(&b, MODEL_ADD, 3, in, "sum");
	m = finish(&b);
	ck_assert_int_eq(m->layers[add].n_inputs, 3);
	for (p = 0; p < 3; p++)
		ck_assert_int_eq(m->layers[add].inputs[p], in[p]);
	ck_assert_int_eq(m->layers[add].in_elems, 108);
	assert_shape(m->layers[add].out, 4, 3, 3);
	expect(&m->layers[add], MODEL_PASS_FWD, 144, 1152, 144, 2);
	for (p = MODEL_PASS_BWD_DATA; p < MODEL_PASS_COUNT; p++)
		expect_zero(&m->layers[add], p);
	model_free(m);
}
END_TEST

/*
 * concat of 4, 2 and 6 channels at 3x3: 12x3x3 out, 108 in and out per
 * sample.  N = 2: y copies, bytes 4 * (216 + 216) = 1,728, no FLOPs, no
 * depth; backward is a view (narrow), free.
 */
START_TEST(concat_channels_add_up_and_backward_is_free)
{
	struct model_builder b;
	struct model_conv_spec s;
	struct model *m;
	int in[3], cat, p;

	start(&b, 4, 3, 3);
	in[0] = MODEL_IN;
	model_conv_spec_init(&s, 2, 1, 1, 0);
	in[1] = model_add_conv(&b, MODEL_IN, "c2", &s);
	model_conv_spec_init(&s, 6, 1, 1, 0);
	in[2] = model_add_conv(&b, MODEL_IN, "c6", &s);
	cat = model_add_merge(&b, MODEL_CONCAT, 3, in, "cat");
	m = finish(&b);
	assert_shape(m->layers[cat].out, 12, 3, 3);
	ck_assert_int_eq(m->layers[cat].in_elems, 108);
	ck_assert_int_eq(m->layers[cat].params, 0);
	expect(&m->layers[cat], MODEL_PASS_FWD, 0, 1728, 0, 0);
	for (p = MODEL_PASS_BWD_DATA; p < MODEL_PASS_COUNT; p++)
		expect_zero(&m->layers[cat], p);
	model_free(m);
}
END_TEST

/*
 * softmax + cross-entropy over 10 classes, N = 2: e = 20.
 *   y:  5 per value + a log per sample = 100 + 2 = 102;
 *       bytes 4 * 2 * 20 = 160; D = 2 * ceil log2 10 = 8 (max, then sum)
 *   dx: 2 per value = 40; bytes 160; D = 1
 * At 2 bytes a value (mixed precision) the softmax runs in fp32: each
 * way the cast (2 + 4) and the fp32 read and write (8), 14 * 20 = 280
 * bytes; the FLOPs do not change.
 */
START_TEST(softmax_xent_counts)
{
	struct model_builder b;
	struct model_pass_cost c;
	struct model *m;
	int l;

	start(&b, 10, 1, 1);
	l = model_add_simple(&b, MODEL_SOFTMAX_XENT, MODEL_IN, "loss");
	m = finish(&b);
	assert_shape(m->layers[l].out, 10, 1, 1);
	expect(&m->layers[l], MODEL_PASS_FWD, 102, 160, 102, 8);
	expect(&m->layers[l], MODEL_PASS_BWD_DATA, 40, 160, 40, 1);
	model_layer_cost(&m->layers[l], MODEL_PASS_FWD, N, 2, 2, &c);
	ck_assert(c.bytes == 280.0 && c.flops == 102.0);
	model_layer_cost(&m->layers[l], MODEL_PASS_BWD_DATA, N, 2, 2, &c);
	ck_assert(c.bytes == 280.0 && c.flops == 40.0);
	expect_zero(&m->layers[l], MODEL_PASS_BWD_WEIGHT);
	expect_zero(&m->layers[l], MODEL_PASS_UPDATE);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Gradient accumulation at a fan-out                                */
/* ---------------------------------------------------------------- */

/*
 * A 4x3x3 input (36 values) read by three layers, N = 2, 4-byte values:
 * (3 - 1) adds over 72 values = 144 FLOPs and work; each add reads two
 * tensors and writes one: 3 * 144 * 4 = 1,728 bytes; D = ceil log2 3 = 2.
 * The relu, read by the add alone, and the add, read by nobody, cost
 * nothing; with two readers it is 72 FLOPs, 864 bytes, D = 1.
 */
START_TEST(grad_accum_sums_the_gradients_of_every_consumer)
{
	struct model_builder b;
	struct model_pass_cost c;
	struct model *m;
	int in[2], r, add;

	start(&b, 4, 3, 3);
	r = model_add_simple(&b, MODEL_RELU, MODEL_IN, NULL);
	model_add_simple(&b, MODEL_SIGMOID, MODEL_IN, NULL);
	in[0] = MODEL_IN;
	in[1] = r;
	add = model_add_merge(&b, MODEL_ADD, 2, in, "sum");
	m = finish(&b);
	ck_assert_int_eq(m->layers[MODEL_IN].n_consumers, 3);
	model_grad_accum_cost(&m->layers[MODEL_IN], N, A, &c);
	ck_assert(c.flops == 144.0 && c.work == 144.0);
	ck_assert(c.bytes == 1728.0);
	ck_assert(c.depth == 2.0);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_VECTOR);
	/* fp16: half the bytes, the same FLOPs */
	model_grad_accum_cost(&m->layers[MODEL_IN], N, 2, &c);
	ck_assert(c.bytes == 864.0 && c.flops == 144.0);
	model_grad_accum_cost(&m->layers[r], N, A, &c);
	ck_assert(c.flops == 0.0 && c.bytes == 0.0 && c.work == 0.0 &&
		  c.depth == 0.0);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_VECTOR);
	model_grad_accum_cost(&m->layers[add], N, A, &c);
	ck_assert(c.flops == 0.0 && c.depth == 0.0);
	model_free(m);

	start(&b, 4, 3, 3);
	r = model_add_simple(&b, MODEL_RELU, MODEL_IN, NULL);
	in[0] = MODEL_IN;
	in[1] = r;
	model_add_merge(&b, MODEL_ADD, 2, in, "sum");
	m = finish(&b);
	model_grad_accum_cost(&m->layers[MODEL_IN], N, A, &c);
	ck_assert(c.flops == 72.0 && c.bytes == 864.0 && c.depth == 1.0);
	model_free(m);
}
END_TEST

START_TEST(kind_and_pass_names)
{
	static const char *const kinds[MODEL_LAYER_KIND_COUNT] = {
		"input", "conv2d", "fc", "maxpool", "avgpool", "globalpool",
		"batchnorm", "lrn", "relu", "sigmoid", "tanh", "add",
		"concat", "dropout", "flatten", "softmax_xent", "embedding",
		"linear", "attention", "layernorm", "rmsnorm", "gelu",
		"swiglu", "lstm", "gru", "rnn", "embedding_bag", "interaction"
	};
	int k;

	for (k = 0; k < MODEL_LAYER_KIND_COUNT; k++) {
		ck_assert_str_eq(model_layer_kind_name(k), kinds[k]);
		ck_assert_int_eq(model_layer_kind_parse(kinds[k]), k);
	}
	ck_assert_ptr_null(model_layer_kind_name(MODEL_LAYER_KIND_COUNT));
	ck_assert_int_eq(model_layer_kind_parse("conv3d"), -1);
	ck_assert_str_eq(model_pass_name(MODEL_PASS_FWD), "fwd");
	ck_assert_str_eq(model_pass_name(MODEL_PASS_BWD_DATA), "bwd_data");
	ck_assert_str_eq(model_pass_name(MODEL_PASS_BWD_WEIGHT),
			 "bwd_weight");
	ck_assert_str_eq(model_pass_name(MODEL_PASS_UPDATE), "update");
	ck_assert_ptr_null(model_pass_name(MODEL_PASS_COUNT));
}
END_TEST

Suite *suite_model_layer(void)
{
	Suite *s = suite_create("model_layer");
	TCase *tc = tcase_create("counts");

	tcase_add_test(tc, conv_fwd_bwd_counts_match_hand_count);
	tcase_add_test(tc, conv_bytes_weigh_activations_and_weights_separately);
	tcase_add_test(tc, conv_rectangular_kernel_depth_sums_each_axis);
	tcase_add_test(tc, conv_grouped_and_depthwise_divide_channels);
	tcase_add_test(tc, fc_counts_match_table4);
	tcase_add_test(tc, flatten_and_input_cost_nothing);
	tcase_add_test(tc, max_and_avg_pool_counts);
	tcase_add_test(tc, globalpool_is_one_window_per_channel);
	tcase_add_test(tc, batchnorm_params_and_counts);
	tcase_add_test(tc, elementwise_counts_per_value);
	tcase_add_test(tc, lrn_counts_follow_window_size);
	tcase_add_test(tc, dropout_mask_is_one_byte_per_value);
	tcase_add_test(tc, add_of_three_inputs);
	tcase_add_test(tc, concat_channels_add_up_and_backward_is_free);
	tcase_add_test(tc, softmax_xent_counts);
	tcase_add_test(tc, grad_accum_sums_the_gradients_of_every_consumer);
	tcase_add_test(tc, kind_and_pass_names);
	suite_add_tcase(s, tc);
	return s;
}
