/*
 * test_model_build.c -- the builder (models/model_build.c): output shapes,
 * parameter and activation counts, the consumers of each output, and the
 * checks that refuse shapes that cannot exist or counts past
 * MODEL_MAX_COUNT.  The costs of each layer are test_model_layer.c's.
 *
 * Unless a test says otherwise the batch is N = 2, and every expected
 * number is worked out by hand next to it.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "models/model.h"
#include "model_util.h"

#define N 2     /* batch */

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

/* a build that must succeed */
#define finish model_util_finish

static void start(struct model_builder *b, int64_t c, int64_t h, int64_t w)
{
	struct model_shape in = { c, h, w };

	model_builder_init(b, "t", in, N, "test_model_build.c");
	ck_assert_int_eq(b->err.code, DLSIM_OK);
}

static void assert_shape(struct model_shape s, int64_t c, int64_t h,
			 int64_t w)
{
	ck_assert_int_eq(s.c, c);
	ck_assert_int_eq(s.h, h);
	ck_assert_int_eq(s.w, w);
}

/* Forward work W of one layer (multiply-adds for conv and fc). */
static double fwd_work(const struct model_layer *l, int64_t batch)
{
	struct model_pass_cost c;

	model_layer_cost(l, MODEL_PASS_FWD, batch, 4, 4, &c);
	return c.work;
}

static double fwd_depth(const struct model_layer *l)
{
	struct model_pass_cost c;

	model_layer_cost(l, MODEL_PASS_FWD, 1, 4, 4, &c);
	return c.depth;
}

/* ---------------------------------------------------------------- */
/* Output sizes                                                      */
/* ---------------------------------------------------------------- */

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
static void assert_build_failed_with(struct model_builder *b, int rc,
				     const char *layer, int code)
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
	ck_assert_int_eq(model_builder_finish(b, &m, &err), code);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(err.code, code);
	ck_assert_msg(strstr(err.msg, layer) != NULL,
		      "message '%s' does not name layer '%s'", err.msg,
		      layer);
}

/* The usual case: a shape that cannot exist is DLSIM_EINVAL. */
static void assert_build_failed(struct model_builder *b, int rc,
				const char *layer)
{
	assert_build_failed_with(b, rc, layer, DLSIM_EINVAL);
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
	int in[MODEL_MAX_MERGE_INPUTS + 1], i;

	start(&b, 4, 3, 3);
	for (i = 0; i <= MODEL_MAX_MERGE_INPUTS; i++)
		in[i] = MODEL_IN;
	assert_build_failed(&b, model_add_merge(&b, MODEL_ADD,
						MODEL_MAX_MERGE_INPUTS + 1,
						in, "sum9"), "sum9");
	/* MODEL_MAX_MERGE_INPUTS itself is fine: 8 copies of 36 values */
	{
		struct model *m;
		int x;

		start(&b, 4, 3, 3);
		x = model_add_merge(&b, MODEL_ADD, MODEL_MAX_MERGE_INPUTS,
				    in, "sum8");
		m = finish(&b);
		ck_assert_int_eq(m->layers[x].in_elems,
				 36 * MODEL_MAX_MERGE_INPUTS);
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

/* ---------------------------------------------------------------- */
/* Limits: counts past MODEL_MAX_COUNT (2^53)                        */
/* ---------------------------------------------------------------- */

/* The builder's sticky error is DLSIM_ERANGE and says "too large". */
static void assert_too_large(const struct model_builder *b)
{
	ck_assert_int_eq(b->err.code, DLSIM_ERANGE);
	ck_assert_msg(strstr(b->err.msg, "too large") != NULL,
		      "message '%s' does not say 'too large'", b->err.msg);
}

/*
 * Shapes from user YAML that overflow int64_t (undefined behaviour,
 * which UBSan reported) are refused with DLSIM_ERANGE naming the layer.
 */
START_TEST(builder_refuses_shapes_that_overflow)
{
	struct model_shape cube = { 3000000000LL, 3000000000LL,
				    3000000000LL };
	struct dlsim_err err = { 0 };
	struct model_builder b;
	struct model_conv_spec s;
	struct model_pool_spec p;
	struct model *m = NULL;
	int in[2] = { MODEL_IN, MODEL_IN };

	/* an input of 3e9 x 3e9 x 3e9 = 2.7e28 values per sample */
	model_builder_init(&b, "cube", cube, 1, "t");
	assert_too_large(&b);
	ck_assert_int_eq(model_builder_finish(&b, &m, &err), DLSIM_ERANGE);
	ck_assert_ptr_null(m);
	ck_assert_ptr_nonnull(strstr(err.msg, "model 'cube': input"));

	/* out_channels 2^63 - 1 on an 8x8 output */
	start(&b, 3, 8, 8);
	model_conv_spec_init(&s, INT64_MAX, 3, 1, 1);
	ck_assert_int_eq(model_add_conv(&b, MODEL_IN, "wide", &s), -1);
	assert_too_large(&b);
	assert_build_failed_with(&b, -1, "layer 'wide'", DLSIM_ERANGE);

	/* dilation 2^62 with a 3x3 kernel: d (k - 1) = 2^63 */
	start(&b, 3, 8, 8);
	model_conv_spec_init(&s, 4, 3, 1, 1);
	s.dilation = (int64_t)1 << 62;
	ck_assert_int_eq(model_add_conv(&b, MODEL_IN, "dilated", &s), -1);
	assert_too_large(&b);
	assert_build_failed_with(&b, -1, "dilated", DLSIM_ERANGE);

	/* a pool window of 2^63 - 1 padded by half of it: in + 2p */
	start(&b, 3, 8, 8);
	model_pool_spec_init(&p, INT64_MAX, 1, INT64_MAX / 2);
	ck_assert_int_eq(model_add_pool(&b, MODEL_MAXPOOL, MODEL_IN, "pool",
					&p), -1);
	assert_too_large(&b);
	assert_build_failed_with(&b, -1, "pool", DLSIM_ERANGE);

	/* fc to 2^62 outputs: 192 x 2^62 parameters */
	start(&b, 3, 8, 8);
	ck_assert_int_eq(model_add_fc(&b, MODEL_IN, "fc", (int64_t)1 << 62,
				      1), -1);
	assert_too_large(&b);
	assert_build_failed_with(&b, -1, "fc", DLSIM_ERANGE);

	/* a concat of two 2^53-channel tensors has 2^54 channels */
	start(&b, (int64_t)1 << 53, 1, 1);
	ck_assert_int_eq(model_add_merge(&b, MODEL_CONCAT, 2, in, "cat"), -1);
	assert_too_large(&b);
	assert_build_failed_with(&b, -1, "cat", DLSIM_ERANGE);
}
END_TEST

/*
 * Parameters may reach 2^53 but not pass it, in a layer or summed over
 * the model; 10^13 (test_sim.c's largest model) is far inside.
 */
START_TEST(builder_caps_parameters_at_2_53)
{
	const int64_t k26 = (int64_t)1 << 26, k27 = (int64_t)1 << 27;
	struct model_builder b;
	struct model *m;

	/* fc 2^26 -> 2^27 without bias: exactly 2^53 */
	start(&b, k26, 1, 1);
	model_add_fc(&b, MODEL_IN, "edge", k27, 0);
	m = finish(&b);
	ck_assert_int_eq(m->params, MODEL_MAX_COUNT);
	model_free(m);
	/* with its bias, 2^27 more */
	start(&b, k26, 1, 1);
	assert_build_failed_with(&b, model_add_fc(&b, MODEL_IN, "edge_bias",
						  k27, 1), "edge_bias",
				 DLSIM_ERANGE);
	/* two layers of 2^52 fill the model; a third passes 2^53 */
	start(&b, k26, 1, 1);
	model_add_fc(&b, MODEL_IN, "a", k26, 0);
	model_add_fc(&b, MODEL_IN, "b", k26, 0);
	ck_assert_int_eq(b.m->params, MODEL_MAX_COUNT);
	ck_assert_int_eq(model_add_fc(&b, MODEL_IN, "c", k26, 0), -1);
	ck_assert_ptr_nonnull(strstr(b.err.msg, "model's parameters"));
	assert_build_failed_with(&b, -1, "'c'", DLSIM_ERANGE);
	/* 10^6 inputs x 10^7 outputs */
	start(&b, 1, 1000, 1000);
	model_add_fc(&b, MODEL_IN, "fc", 10000000, 0);
	m = finish(&b);
	ck_assert_int_eq(m->params, 10000000000000LL);
	model_free(m);
}
END_TEST

/* Kept activations are a running sum too: a 2^53-value input and a
 * dropout that keeps as much make 2^54.  In-place ReLU keeps nothing. */
START_TEST(builder_caps_kept_activations_at_2_53)
{
	struct dlsim_err err = { 0 };
	struct model_builder b;
	struct model *m = NULL;

	start(&b, (int64_t)1 << 53, 1, 1);
	model_add_simple(&b, MODEL_DROPOUT, MODEL_IN, NULL);
	ck_assert_int_eq(model_builder_finish(&b, &m, &err), DLSIM_ERANGE);
	ck_assert_ptr_null(m);
	ck_assert_ptr_nonnull(strstr(err.msg, "activations"));
	ck_assert_ptr_nonnull(strstr(err.msg, "too large"));

	start(&b, (int64_t)1 << 53, 1, 1);
	model_relu(&b, MODEL_IN);
	m = finish(&b);
	ck_assert_int_eq(m->activation_elems, MODEL_MAX_COUNT);
	model_free(m);
}
END_TEST

/* The default batch is 1..MODEL_MAX_BATCH, as the YAML loader's. */
START_TEST(builder_batch_is_1_to_max)
{
	struct model_shape in = { 1, 2, 2 };
	struct dlsim_err err = { 0 };
	struct model_builder b;
	struct model *m = NULL;

	model_builder_init(&b, "b0", in, 0, "t");
	ck_assert_int_eq(model_relu(&b, MODEL_IN), -1);
	ck_assert_int_eq(model_builder_finish(&b, &m, &err), DLSIM_ERANGE);
	ck_assert_ptr_nonnull(strstr(err.msg, "batch"));
	model_builder_init(&b, "big", in, MODEL_MAX_BATCH + 1, "t");
	ck_assert_int_eq(b.err.code, DLSIM_ERANGE);
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_ERANGE);
	model_builder_init(&b, "max", in, MODEL_MAX_BATCH, "t");
	model_relu(&b, MODEL_IN);
	m = finish(&b);
	ck_assert_int_eq(m->default_batch, 1000000);
	model_free(m);
}
END_TEST

/* The messages carry their numbers (fail() is printf-checked now). */
START_TEST(builder_messages_carry_their_numbers)
{
	struct model_builder b;
	struct model_conv_spec s;
	int in[MODEL_MAX_MERGE_INPUTS + 1], i;

	for (i = 0; i <= MODEL_MAX_MERGE_INPUTS; i++)
		in[i] = MODEL_IN;
	start(&b, 4, 3, 3);
	model_add_merge(&b, MODEL_ADD, MODEL_MAX_MERGE_INPUTS + 1, in, "sum9");
	ck_assert_str_eq(b.err.msg, "layer 'sum9': add and concat take 2 to "
			 "8 inputs (got 9)");
	model_free(b.m);
	start(&b, 4, 3, 3);
	model_add_lrn(&b, MODEL_IN, "lrn", 0);
	ck_assert_str_eq(b.err.msg, "layer 'lrn': lrn size must be positive "
			 "(got 0)");
	model_free(b.m);
	start(&b, 4, 3, 3);
	model_add_fc(&b, MODEL_IN, "fc", -3, 0);
	ck_assert_str_eq(b.err.msg, "layer 'fc': fc needs a positive number "
			 "of outputs (got -3)");
	model_free(b.m);
	start(&b, 8, 4, 4);
	model_conv_spec_init(&s, 6, 3, 1, 1);
	s.groups = 4;
	model_add_conv(&b, MODEL_IN, "grp", &s);
	ck_assert_str_eq(b.err.msg, "layer 'grp': 6 output channels do not "
			 "divide into 4 groups");
	model_free(b.m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Consumers                                                         */
/* ---------------------------------------------------------------- */

/*
 * input -> a (relu), input -> b (sigmoid), s = add(a, b), d = add(s, s):
 * the input feeds a and b (2), s feeds d twice (2: autograd sums both
 * gradients), a and b one each, d none.
 */
START_TEST(builder_counts_consumers_of_each_output)
{
	struct model_builder b;
	struct model *m;
	int in[2], a, sg, s, d;

	start(&b, 4, 3, 3);
	a = model_add_simple(&b, MODEL_RELU, MODEL_IN, "a");
	sg = model_add_simple(&b, MODEL_SIGMOID, MODEL_IN, "b");
	in[0] = a;
	in[1] = sg;
	s = model_add_merge(&b, MODEL_ADD, 2, in, "s");
	in[0] = in[1] = s;
	d = model_add_merge(&b, MODEL_ADD, 2, in, "d");
	m = finish(&b);
	ck_assert_int_eq(m->layers[MODEL_IN].n_consumers, 2);
	ck_assert_int_eq(m->layers[a].n_consumers, 1);
	ck_assert_int_eq(m->layers[sg].n_consumers, 1);
	ck_assert_int_eq(m->layers[s].n_consumers, 2);
	ck_assert_int_eq(m->layers[d].n_consumers, 0);
	model_free(m);
}
END_TEST

Suite *suite_model_build(void)
{
	Suite *s = suite_create("model_build");
	TCase *tc = tcase_create("shapes");

	tcase_add_test(tc, conv_output_size_follows_stride_padding_dilation);
	tcase_add_test(tc, pool_ceil_mode_rounds_up_but_not_into_right_padding);
	tcase_add_test(tc, builder_counts_kept_activations);
	tcase_add_test(tc, builder_counts_consumers_of_each_output);
	suite_add_tcase(s, tc);

	tc = tcase_create("checks");
	tcase_add_test(tc, builder_rejects_kernel_bigger_than_input);
	tcase_add_test(tc, builder_rejects_channels_not_divisible_by_groups);
	tcase_add_test(tc, builder_rejects_out_channels_not_in_groups);
	tcase_add_test(tc, builder_rejects_add_of_unequal_shapes);
	tcase_add_test(tc, builder_rejects_concat_of_unequal_spatial_sizes);
	tcase_add_test(tc, builder_rejects_bad_input_index);
	tcase_add_test(tc, builder_rejects_too_many_inputs);
	tcase_add_test(tc, builder_rejects_pool_padding_over_half_kernel);
	tcase_add_test(tc, builder_finish_rejects_empty_model_and_bad_shape);
	tcase_add_test(tc, builder_messages_carry_their_numbers);
	suite_add_tcase(s, tc);

	tc = tcase_create("limits");
	tcase_add_test(tc, builder_refuses_shapes_that_overflow);
	tcase_add_test(tc, builder_caps_parameters_at_2_53);
	tcase_add_test(tc, builder_caps_kept_activations_at_2_53);
	tcase_add_test(tc, builder_batch_is_1_to_max);
	suite_add_tcase(s, tc);
	return s;
}
