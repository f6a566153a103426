/*
 * test_model_layer.c -- the per-layer counts of models/model_layer.c and
 * the shapes and checks of the builder (models/model_build.c).
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

#define N 2     /* batch */
#define A 4     /* bytes per activation value */
#define WB 4    /* bytes per weight */

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

/* Finish a build that must succeed. */
static struct model *finish(struct model_builder *b)
{
	struct dlsim_err err = { 0 };
	struct model *m = NULL;

	ck_assert_msg(model_builder_finish(b, &m, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_ptr_nonnull(m);
	return m;
}

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

static double fwd_work(const struct model_layer *l, int64_t batch)
{
	struct model_pass_cost c;

	model_layer_cost(l, MODEL_PASS_FWD, batch, A, WB, &c);
	return c.work;
}

static double fwd_depth(const struct model_layer *l)
{
	struct model_pass_cost c;

	model_layer_cost(l, MODEL_PASS_FWD, 1, A, WB, &c);
	return c.depth;
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
 *       bytes 4 * (150 + 400) + 4 * 224 = 2,200 + 896 = 3,096
 *       D = ceil log2 3 + ceil log2 3 + ceil log2 3 = 6     (Table 6)
 *   dx: FLOPs 21,600; same bytes; D = ceil log2 8 + 2 + 2 = 7
 *   dw: FLOPs 21,600 + 400 (bias gradient) = 22,000;
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
	expect(l, MODEL_PASS_FWD, 22000, 3096, 10800, 6);
	expect(l, MODEL_PASS_BWD_DATA, 21600, 3096, 10800, 7);
	expect(l, MODEL_PASS_BWD_WEIGHT, 22000, 3096, 10800, 6);
	expect_zero(l, MODEL_PASS_UPDATE);
	/* a dense 3x3 stride-1 conv is the Winograd class, every pass */
	model_layer_cost(l, MODEL_PASS_FWD, N, A, WB, &c);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_CONV3X3);
	model_layer_cost(l, MODEL_PASS_BWD_WEIGHT, N, A, WB, &c);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_CONV3X3);
	/* per-sample MACs: 200 * 27 */
	ck_assert(model_forward_macs(m) == 5400.0);
	model_free(m);
}
END_TEST

/* Activation and weight sizes enter separately: fp16 activations with
 * fp32 master weights give 2 * (150 + 400) + 4 * 224 = 1,996 bytes. */
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
	ck_assert(c.bytes == 1996.0);
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

/*
 * Output sizes on an 11x11 input by PyTorch's torch.nn.Conv2d formula
 * out = floor((in + 2p - d(k - 1) - 1) / s) + 1.
 */
START_TEST(conv_output_size_follows_stride_padding_dilation)
{
	static const struct {
		int64_t k, s, p, d, out;
	} cases[] = {
		{ 3, 1, 0, 1, 9 },    /* (11 - 2 - 1) / 1 + 1 */
		{ 3, 2, 0, 1, 5 },    /* 8 / 2 + 1 */
		{ 3, 2, 1, 1, 6 },    /* 10 / 2 + 1 */
		{ 3, 3, 0, 2, 3 },    /* (11 - 4 - 1) / 3 + 1 = 6 / 3 + 1 */
		{ 3, 1, 2, 2, 11 },   /* (11 + 4 - 4 - 1) + 1: "same" */
		{ 11, 1, 0, 1, 1 },   /* the kernel just fits */
		{ 5, 1, 1, 3, 1 },    /* (11 + 2 - 12 - 1) / 1 + 1 */
		{ 1, 4, 0, 1, 3 },    /* 10 / 4 + 1 */
	};
	struct model_builder b;
	struct model *m;
	size_t i;

	start(&b, 1, 11, 11);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct model_conv_spec s;

		model_conv_spec_init(&s, 2, cases[i].k, cases[i].s, cases[i].p);
		s.dilation = cases[i].d;
		model_add_conv(&b, MODEL_IN, NULL, &s);
	}
	m = finish(&b);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct model_layer *l = &m->layers[i + 1];

		ck_assert_msg(l->out.h == cases[i].out &&
			      l->out.w == cases[i].out,
			      "case %zu: %lldx%lld, expected %lld", i,
			      (long long)l->out.h, (long long)l->out.w,
			      (long long)cases[i].out);
		ck_assert_int_eq(l->dilation, cases[i].d);
	}
	/* dilation spreads the taps but does not add any: the d = 2
	 * "same" conv does 11 * 11 * 2 * 1 * 9 = 2,178 MACs per sample */
	ck_assert(fwd_work(&m->layers[5], 1) == 2178.0);
	model_free(m);
}
END_TEST

/*
 * The kernel class picks the efficiency a pass gets (model_layer.c):
 * only a dense 3x3 stride-1 conv (no groups, no dilation) is the
 * Winograd class; other convs are plain convolutions, fc a GEMM, and
 * everything else vector work.
 */
START_TEST(kernel_class_sets_winograd_convs_apart)
{
	static const struct {
		int64_t k, s, d, g;
		enum model_kernel want;
	} convs[] = {
		{ 3, 1, 1, 1, MODEL_KERNEL_CONV3X3 },
		{ 3, 2, 1, 1, MODEL_KERNEL_CONV },     /* stride 2 */
		{ 3, 1, 2, 1, MODEL_KERNEL_CONV },     /* dilated */
		{ 3, 1, 1, 2, MODEL_KERNEL_CONV },     /* grouped */
		{ 3, 1, 1, 8, MODEL_KERNEL_CONV },     /* depthwise */
		{ 1, 1, 1, 1, MODEL_KERNEL_CONV },
		{ 5, 1, 1, 1, MODEL_KERNEL_CONV },
	};
	struct model_builder b;
	struct model_pool_spec ps;
	struct model *m;
	struct model_pass_cost c;
	size_t i;
	int fc, pool, bn;

	start(&b, 8, 9, 9);
	for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
		struct model_conv_spec s;

		model_conv_spec_init(&s, 8, convs[i].k, convs[i].s,
				     convs[i].d);
		s.dilation = convs[i].d;
		s.groups = convs[i].g;
		model_add_conv(&b, MODEL_IN, NULL, &s);
	}
	fc = model_add_fc(&b, MODEL_IN, "fc", 10, 1);
	model_pool_spec_init(&ps, 3, 1, 1);
	pool = model_add_pool(&b, MODEL_MAXPOOL, MODEL_IN, "pool", &ps);
	bn = model_add_batchnorm(&b, MODEL_IN, "bn");
	m = finish(&b);
	for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
		model_layer_cost(&m->layers[i + 1], MODEL_PASS_FWD, N, A, WB,
				 &c);
		ck_assert_msg(c.kernel == convs[i].want, "conv case %zu: "
			      "kernel class %d, expected %d", i, c.kernel,
			      convs[i].want);
	}
	model_layer_cost(&m->layers[fc], MODEL_PASS_BWD_DATA, N, A, WB, &c);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_GEMM);
	model_layer_cost(&m->layers[pool], MODEL_PASS_FWD, N, A, WB, &c);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_VECTOR);
	model_layer_cost(&m->layers[bn], MODEL_PASS_FWD, N, A, WB, &c);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_VECTOR);
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

/*
 * PyTorch ceil_mode (torch.nn.MaxPool2d: "sliding windows ... that would
 * start in the right padded region are ignored").
 */
START_TEST(pool_ceil_mode_rounds_up_but_not_into_right_padding)
{
	static const struct {
		int64_t in, k, s, p;
		int ceil;
		int64_t out;
	} cases[] = {
		/* GoogLeNet's pools: floor(109 / 2) + 1 = 55, ceil 56 */
		{ 112, 3, 2, 0, 0, 55 },
		{ 112, 3, 2, 0, 1, 56 },
		/* squeezenet 109 -> 54 either way: 106 / 2 is exact */
		{ 109, 3, 2, 0, 1, 54 },
		/* 6, k3 s2 p1: windows start at i * 2 - 1 = -1, 1, 3, 5;
		 * floor keeps 3, ceil adds the one at 5, which starts on
		 * the last input value: kept */
		{ 6, 3, 2, 1, 0, 3 },
		{ 6, 3, 2, 1, 1, 4 },
		/* 5, k2 s2 p1: ceil(5 / 2) + 1 = 4 windows at -1, 1, 3, 5,
		 * but 5 is past the last input index 4, wholly in the
		 * right padding: dropped, 3 */
		{ 5, 2, 2, 1, 1, 3 },
		/* 5, k1 s3: ceil(4 / 3) + 1 = 3 windows at 0, 3, 6; 6 > 4 */
		{ 5, 1, 3, 0, 1, 2 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct model_builder b;
		struct model_pool_spec s;
		struct model *m;

		start(&b, 1, cases[i].in, cases[i].in);
		model_pool_spec_init(&s, cases[i].k, cases[i].s, cases[i].p);
		s.ceil_mode = cases[i].ceil;
		model_add_pool(&b, MODEL_MAXPOOL, MODEL_IN, "pool", &s);
		m = finish(&b);
		ck_assert_msg(m->layers[1].out.h == cases[i].out &&
			      m->layers[1].out.w == cases[i].out,
			      "case %zu: in %lld -> %lld, expected %lld", i,
			      (long long)cases[i].in,
			      (long long)m->layers[1].out.h,
			      (long long)cases[i].out);
		model_free(m);
	}
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
 *   dx: bytes 4 * (72 + 72 + 72) = 864 (dropout: 936)
 * FLOPs per value, forward / backward, as model_layer.c counts them:
 *   relu 1 / 1; sigmoid 4 / 3; tanh 5 / 3; dropout 2 / 1;
 *   lrn size 5: 2 * 5 + 3 = 13 / 26.
 */
START_TEST(elementwise_counts_per_value)
{
	static const struct {
		enum model_layer_kind kind;
		double fwd, bwd, mask;
	} cases[] = {
		{ MODEL_RELU, 1, 1, 0 },
		{ MODEL_SIGMOID, 4, 3, 0 },
		{ MODEL_TANH, 5, 3, 0 },
		{ MODEL_DROPOUT, 2, 1, 72 },
		{ MODEL_LRN, 13, 26, 0 },
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
		       864 + cases[i].mask, 72 * cases[i].bwd, 1);
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
 */
START_TEST(softmax_xent_counts)
{
	struct model_builder b;
	struct model *m;
	int l;

	start(&b, 10, 1, 1);
	l = model_add_simple(&b, MODEL_SOFTMAX_XENT, MODEL_IN, "loss");
	m = finish(&b);
	assert_shape(m->layers[l].out, 10, 1, 1);
	expect(&m->layers[l], MODEL_PASS_FWD, 102, 160, 102, 8);
	expect(&m->layers[l], MODEL_PASS_BWD_DATA, 40, 160, 40, 1);
	expect_zero(&m->layers[l], MODEL_PASS_BWD_WEIGHT);
	expect_zero(&m->layers[l], MODEL_PASS_UPDATE);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* LeNet-5, Ben-Nun & Hoefler Sec. 3.3.1                             */
/* ---------------------------------------------------------------- */

/*
 * The paper's LeNet-5 chain at N = 1 (seed-002 extract, sections 3.2
 * and 9), with conv2 a valid convolution as in models/model_zoo_cnn.c:
 *
 *   layer           W (dlsim)                         D (Table 4/6)
 *   conv(32,5,1,6)  28*28*6*1*25 = 117,600            0 + 3 + 3 = 6
 *   pool(28,2,6)    14*14*6*3    =   3,528            1 + 1     = 2
 *   conv(14,5,6,16) 10*10*16*6*25 = 240,000           3 + 3 + 3 = 9
 *   pool(10,2,16)   5*5*16*3     =   1,200            2
 *   fc(400,120)     48,000                            ceil log2 400 = 9
 *   fc(120,84)      10,080                            ceil log2 120 = 7
 *   fc(84,10)       840                               ceil log2 84  = 7
 *   total           421,248                           42
 *
 * The paper prints W = 665,832 and D = 41.  Its conv2 W, 470,400 =
 * 14*14*16*6*25, is a padded conv2 (14x14 output) although the next
 * layer is pool(10,...); its pooling W counts the *input* times
 * (K^2 - 1): 28*28*6*3 = 14,112 and 10*10*16*3 = 4,800.  dlsim counts
 * the *output* times (K^2 - 1) (one max or sum of K^2 values takes
 * K^2 - 1 operations), giving 3,528 and 1,200, so its total is
 * 117,600 + 3,528 + 240,000 + 1,200 + 58,920 = 421,248 rather than the
 * extract's 435,432 (which keeps the paper's pooling counts).  D = 42
 * rather than 41 because strict Table 6 gives conv1 0 + 3 + 3 = 6
 * where the paper prints 5.
 */
START_TEST(lenet5_work_and_depth_match_benNun_hoefler)
{
	static const double work[] = {
		117600, 3528, 240000, 1200, 48000, 10080, 840
	};
	static const double depth[] = { 6, 2, 9, 2, 9, 7, 7 };
	struct model_builder b;
	struct model_pool_spec pool;
	struct model *m;
	double wsum = 0.0, dsum = 0.0;
	int x, i, k = 0;

	start(&b, 1, 32, 32);
	model_pool_spec_init(&pool, 2, 2, 0);
	x = model_conv(&b, MODEL_IN, 6, 5, 1, 0, 1);
	x = model_add_pool(&b, MODEL_MAXPOOL, x, NULL, &pool);
	x = model_conv(&b, x, 16, 5, 1, 0, 1);
	x = model_add_pool(&b, MODEL_MAXPOOL, x, NULL, &pool);
	x = model_add_simple(&b, MODEL_FLATTEN, x, NULL);
	x = model_add_fc(&b, x, NULL, 120, 1);
	x = model_add_fc(&b, x, NULL, 84, 1);
	model_add_fc(&b, x, NULL, 10, 1);
	m = finish(&b);
	assert_shape(m->layers[3].out, 16, 10, 10);
	ck_assert_int_eq(m->layers[6].in_elems, 400);
	for (i = 1; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];

		wsum += fwd_work(l, 1);
		dsum += fwd_depth(l);
		if (l->kind == MODEL_FLATTEN)
			continue;
		ck_assert_msg(fwd_work(l, 1) == work[k], "%s: W %g, expected "
			      "%g", l->name, fwd_work(l, 1), work[k]);
		ck_assert_msg(fwd_depth(l) == depth[k], "%s: D %g, expected "
			      "%g", l->name, fwd_depth(l), depth[k]);
		k++;
	}
	ck_assert_int_eq(k, 7);
	ck_assert(wsum == 421248.0);
	ck_assert(dsum == 42.0);
	/* W scales linearly with the batch; D does not (Sec. 3.3.1) */
	ck_assert(fwd_work(&m->layers[1], 64) == 64 * 117600.0);
	model_free(m);
}
END_TEST

/* The paper's 470,400 for conv2 is what a 2-pixel padded conv2 gives:
 * 14 * 14 * 16 * 6 * 25. */
START_TEST(lenet5_padded_conv2_reproduces_paper_470400)
{
	struct model_builder b;
	struct model *m;
	int x;

	start(&b, 6, 14, 14);
	x = model_conv(&b, MODEL_IN, 16, 5, 1, 2, 1);
	m = finish(&b);
	assert_shape(m->layers[x].out, 16, 14, 14);
	ck_assert(fwd_work(&m->layers[x], 1) == 470400.0);
	ck_assert(fwd_depth(&m->layers[x]) == 9.0);
	model_free(m);
}
END_TEST

/* The zoo's lenet5 (with ReLUs and a loss) has the same conv, pool and
 * fc layers as the chain above. */
START_TEST(zoo_lenet5_has_the_same_chain)
{
	static const double work[] = {
		117600, 3528, 240000, 1200, 48000, 10080, 840
	};
	struct dlsim_err err = { 0 };
	struct model *m = NULL;
	int i, k = 0;

	ck_assert_int_eq(model_zoo_build("lenet5", &m, &err), DLSIM_OK);
	for (i = 0; i < m->n_layers; i++) {
		enum model_layer_kind kind = m->layers[i].kind;

		if (kind != MODEL_CONV2D && kind != MODEL_FC &&
		    kind != MODEL_MAXPOOL)
			continue;
		ck_assert_int_lt(k, 7);
		ck_assert(fwd_work(&m->layers[i], 1) == work[k]);
		k++;
	}
	ck_assert_int_eq(k, 7);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Builder                                                           */
/* ---------------------------------------------------------------- */

/*
 * Activations kept for backward, per sample: every output except
 * in-place ReLU and the flatten view.  3x5x5 input (75) + conv 8x5x5
 * (200) + relu (0) + flatten (0) + fc 10 (10) = 285.
 */
START_TEST(builder_counts_kept_activations)
{
	struct model_builder b;
	struct model_conv_spec s;
	struct model *m;
	int x;

	start(&b, 3, 5, 5);
	model_conv_spec_init(&s, 8, 3, 1, 1);
	x = model_add_conv(&b, MODEL_IN, NULL, &s);
	x = model_relu(&b, x);
	x = model_add_simple(&b, MODEL_FLATTEN, x, NULL);
	model_add_fc(&b, x, NULL, 10, 0);
	m = finish(&b);
	ck_assert_int_eq(m->activation_elems, 285);
	/* unnamed layers get "<kind><index>" */
	ck_assert_str_eq(m->layers[1].name, "conv2d1");
	ck_assert_str_eq(m->layers[3].name, "flatten3");
	ck_assert_str_eq(m->layers[0].name, "input");
	ck_assert_int_eq(m->default_batch, N);
	model_free(m);
}
END_TEST

/*
 * After a failure: the call returns -1, the error sticks (later valid
 * calls return -1 and add nothing, and a second failure does not replace
 * the first message), and model_builder_finish() hands back the first
 * error with a message naming the layer, frees the model and sets *out
 * to NULL.
 */
static void assert_build_failed(struct model_builder *b, int rc,
				const char *layer)
{
	struct dlsim_err err = { 0 };
	struct model *m = (struct model *)b;  /* must be reset to NULL */
	struct model_conv_spec s;
	char first[DLSIM_ERR_LEN];
	int n;

	ck_assert_int_eq(rc, -1);
	ck_assert_int_ne(b->err.code, DLSIM_OK);
	n = b->m->n_layers;
	strcpy(first, b->err.msg);
	ck_assert_int_eq(model_relu(b, MODEL_IN), -1);
	model_conv_spec_init(&s, 1, 1, 1, 0);
	s.groups = 0;                      /* would fail on its own */
	ck_assert_int_eq(model_add_conv(b, MODEL_IN, "later", &s), -1);
	ck_assert_int_eq(b->m->n_layers, n);
	ck_assert_str_eq(b->err.msg, first);
	ck_assert_int_eq(model_builder_finish(b, &m, &err), DLSIM_EINVAL);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(err.code, DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, layer) != NULL,
		      "message '%s' does not name layer '%s'", err.msg,
		      layer);
}

START_TEST(builder_rejects_kernel_bigger_than_input)
{
	struct model_builder b;
	struct model_conv_spec s;
	struct model *m;

	/* 4x4, k5, no padding: floor((4 - 5) / 1) + 1 = 0 */
	start(&b, 1, 4, 4);
	model_conv_spec_init(&s, 2, 5, 1, 0);
	assert_build_failed(&b, model_add_conv(&b, MODEL_IN, "big", &s),
			    "big");
	/* with padding 1 the same kernel fits: (4 + 2 - 5) + 1 = 2 */
	start(&b, 1, 4, 4);
	model_conv_spec_init(&s, 2, 5, 1, 1);
	model_add_conv(&b, MODEL_IN, "fits", &s);
	m = finish(&b);
	assert_shape(m->layers[1].out, 2, 2, 2);
	model_free(m);
}
END_TEST

START_TEST(builder_rejects_channels_not_divisible_by_groups)
{
	struct model_builder b;
	struct model_conv_spec s;

	/* 6 input channels into 4 groups */
	start(&b, 6, 4, 4);
	model_conv_spec_init(&s, 4, 3, 1, 1);
	s.groups = 4;
	assert_build_failed(&b, model_add_conv(&b, MODEL_IN, "grp", &s),
			    "grp");
}
END_TEST

/* 8 input channels divide into 4 groups; 6 output channels do not, and
 * the message must say so rather than blame the 8 input channels. */
START_TEST(builder_rejects_out_channels_not_in_groups)
{
	struct model_builder b;
	struct model_conv_spec s;

	start(&b, 8, 4, 4);
	model_conv_spec_init(&s, 6, 3, 1, 1);
	s.groups = 4;
	ck_assert_int_eq(model_add_conv(&b, MODEL_IN, "grp", &s), -1);
	ck_assert_msg(strstr(b.err.msg, "6") != NULL,
		      "message '%s' does not mention the 6 output channels",
		      b.err.msg);
	assert_build_failed(&b, -1, "grp");
}
END_TEST

START_TEST(builder_rejects_add_of_unequal_shapes)
{
	struct model_builder b;
	struct model_conv_spec s;
	struct model_pool_spec p;
	int in[2];

	/* 4 channels + 8 channels */
	start(&b, 4, 3, 3);
	model_conv_spec_init(&s, 8, 1, 1, 0);
	in[0] = MODEL_IN;
	in[1] = model_add_conv(&b, MODEL_IN, NULL, &s);
	assert_build_failed(&b, model_add_merge(&b, MODEL_ADD, 2, in, "sum"),
			    "sum");
	/* same channels, 4x4 + 2x2 */
	start(&b, 4, 4, 4);
	model_pool_spec_init(&p, 2, 2, 0);
	in[1] = model_add_pool(&b, MODEL_MAXPOOL, MODEL_IN, NULL, &p);
	assert_build_failed(&b, model_add_merge(&b, MODEL_ADD, 2, in, "sum2"),
			    "sum2");
}
END_TEST

START_TEST(builder_rejects_concat_of_unequal_spatial_sizes)
{
	struct model_builder b;
	struct model_pool_spec p;
	int in[2];

	/* 4x8x8 next to 4x4x4 */
	start(&b, 4, 8, 8);
	model_pool_spec_init(&p, 2, 2, 0);
	in[0] = MODEL_IN;
	in[1] = model_add_pool(&b, MODEL_MAXPOOL, MODEL_IN, NULL, &p);
	assert_build_failed(&b, model_add_merge(&b, MODEL_CONCAT, 2, in,
						"cat"), "cat");
}
END_TEST

START_TEST(builder_rejects_bad_input_index)
{
	struct model_builder b;
	int in[2];

	/* layers 0 and 1 exist; 7 does not */
	start(&b, 4, 3, 3);
	model_relu(&b, MODEL_IN);
	assert_build_failed(&b, model_add_fc(&b, 7, "fc_bad", 10, 1),
			    "fc_bad");
	start(&b, 4, 3, 3);
	assert_build_failed(&b, model_add_simple(&b, MODEL_RELU, -1,
						 "neg_in"), "neg_in");
	/* a layer cannot take its own index (2 would be the new one) */
	start(&b, 4, 3, 3);
	model_relu(&b, MODEL_IN);
	in[0] = MODEL_IN;
	in[1] = 2;
	assert_build_failed(&b, model_add_merge(&b, MODEL_ADD, 2, in,
						"self_add"), "self_add");
}
END_TEST

START_TEST(builder_rejects_too_many_inputs)
{
	struct model_builder b;
	int in[MODEL_MAX_INPUTS + 1], i;

	start(&b, 4, 3, 3);
	for (i = 0; i <= MODEL_MAX_INPUTS; i++)
		in[i] = MODEL_IN;
	assert_build_failed(&b, model_add_merge(&b, MODEL_ADD,
						MODEL_MAX_INPUTS + 1, in,
						"sum9"), "sum9");
	/* MODEL_MAX_INPUTS itself is fine: 8 copies of 36 values */
	{
		struct model *m;
		int x;

		start(&b, 4, 3, 3);
		x = model_add_merge(&b, MODEL_ADD, MODEL_MAX_INPUTS, in,
				    "sum8");
		m = finish(&b);
		ck_assert_int_eq(m->layers[x].in_elems, 36 * MODEL_MAX_INPUTS);
		/* D = ceil log2 8 = 3 */
		ck_assert(fwd_depth(&m->layers[x]) == 3.0);
		model_free(m);
	}
}
END_TEST

START_TEST(builder_rejects_pool_padding_over_half_kernel)
{
	struct model_builder b;
	struct model_pool_spec p;

	/* PyTorch: "pad should be at most half of effective kernel
	 * size"; 2 * 2 > 3 */
	start(&b, 1, 8, 8);
	model_pool_spec_init(&p, 3, 1, 2);
	assert_build_failed(&b, model_add_pool(&b, MODEL_MAXPOOL, MODEL_IN,
					       "padpool", &p), "padpool");
}
END_TEST

START_TEST(builder_finish_rejects_empty_model_and_bad_shape)
{
	struct model_builder b;
	struct model_shape zero = { 0, 4, 4 };
	struct dlsim_err err = { 0 };
	struct model *m = NULL;

	start(&b, 3, 4, 4);
	ck_assert_int_eq(model_builder_finish(&b, &m, &err), DLSIM_EINVAL);
	ck_assert_ptr_null(m);
	ck_assert_ptr_nonnull(strstr(err.msg, "no layers"));

	dlsim_err_clear(&err);
	model_builder_init(&b, "zero", zero, 1, "x");
	ck_assert_int_eq(model_relu(&b, MODEL_IN), -1);
	ck_assert_int_eq(model_builder_finish(&b, &m, &err), DLSIM_EINVAL);
	ck_assert_ptr_null(m);
	ck_assert_ptr_nonnull(strstr(err.msg, "zero"));
}
END_TEST

START_TEST(kind_and_pass_names)
{
	static const char *const kinds[MODEL_LAYER_KIND_COUNT] = {
		"input", "conv2d", "fc", "maxpool", "avgpool", "globalpool",
		"batchnorm", "lrn", "relu", "sigmoid", "tanh", "add",
		"concat", "dropout", "flatten", "softmax_xent"
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
	tcase_add_test(tc, conv_output_size_follows_stride_padding_dilation);
	tcase_add_test(tc, kernel_class_sets_winograd_convs_apart);
	tcase_add_test(tc, fc_counts_match_table4);
	tcase_add_test(tc, flatten_and_input_cost_nothing);
	tcase_add_test(tc, max_and_avg_pool_counts);
	tcase_add_test(tc, globalpool_is_one_window_per_channel);
	tcase_add_test(tc, pool_ceil_mode_rounds_up_but_not_into_right_padding);
	tcase_add_test(tc, batchnorm_params_and_counts);
	tcase_add_test(tc, elementwise_counts_per_value);
	tcase_add_test(tc, dropout_mask_is_one_byte_per_value);
	tcase_add_test(tc, add_of_three_inputs);
	tcase_add_test(tc, concat_channels_add_up_and_backward_is_free);
	tcase_add_test(tc, softmax_xent_counts);
	tcase_add_test(tc, kind_and_pass_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("lenet5");
	tcase_add_test(tc, lenet5_work_and_depth_match_benNun_hoefler);
	tcase_add_test(tc, lenet5_padded_conv2_reproduces_paper_470400);
	tcase_add_test(tc, zoo_lenet5_has_the_same_chain);
	suite_add_tcase(s, tc);

	tc = tcase_create("builder");
	tcase_add_test(tc, builder_counts_kept_activations);
	tcase_add_test(tc, builder_rejects_kernel_bigger_than_input);
	tcase_add_test(tc, builder_rejects_channels_not_divisible_by_groups);
	tcase_add_test(tc, builder_rejects_out_channels_not_in_groups);
	tcase_add_test(tc, builder_rejects_add_of_unequal_shapes);
	tcase_add_test(tc, builder_rejects_concat_of_unequal_spatial_sizes);
	tcase_add_test(tc, builder_rejects_bad_input_index);
	tcase_add_test(tc, builder_rejects_too_many_inputs);
	tcase_add_test(tc, builder_rejects_pool_padding_over_half_kernel);
	tcase_add_test(tc, builder_finish_rejects_empty_model_and_bad_shape);
	suite_add_tcase(s, tc);
	return s;
}
