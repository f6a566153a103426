/*
 * test_model_kernel.c -- the kernel class a layer's pass gets
 * (models/model_layer.c, model_conv_class): the class picks the
 * efficiency or calibrated roofline the simulator costs it with.  Split
 * from test_model_layer.c, whose counts these tests share the
 * conventions of: batch N = 2, 4-byte activations and weights.
 */
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "models/model.h"
#include "model_util.h"

#define N MODEL_UTIL_BATCH
#define A MODEL_UTIL_ACT
#define WB MODEL_UTIL_WEIGHT
#define start model_util_start
#define finish model_util_finish
#define assert_shape model_util_assert_shape

/*
 * The kernel class picks the efficiency a pass gets (model_kernel.c):
 * only a dense 3x3 stride-1 conv (no groups, no dilation) is the
 * Winograd class; a dense 1x1 conv is a 1x1 class (a GEMM over the
 * channels), one at stride 1 and one strided (reading every s-th pixel);
 * grouped convs of under 8 channels a group (these have 4 and 1) and
 * depthwise ones are vector work (cuDNN's usual kernels for
 * them do not use tensor units); other convs are plain convolutions, fc
 * a GEMM, and everything else vector work.
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
		{ 3, 1, 1, 2, MODEL_KERNEL_VECTOR },   /* grouped */
		{ 3, 1, 1, 8, MODEL_KERNEL_VECTOR },   /* depthwise */
		{ 1, 1, 1, 2, MODEL_KERNEL_VECTOR },   /* grouped 1x1 */
		{ 1, 1, 1, 1, MODEL_KERNEL_CONV1X1 },
		{ 1, 2, 1, 1, MODEL_KERNEL_CONV1X1_STRIDED },
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
		int p;

		for (p = MODEL_PASS_FWD; p <= MODEL_PASS_BWD_WEIGHT; p++) {
			model_layer_cost(&m->layers[i + 1], p, N, A, WB, &c);
			ck_assert_msg(c.kernel == convs[i].want, "conv case "
				      "%zu, pass %d: kernel class %d, "
				      "expected %d", i, p, c.kernel,
				      convs[i].want);
		}
	}
	/* 2 rows of 648 into 10 at 4 bytes a value: off 16-byte rows
	 * (test_gemm_align.c); 8 rows of 648 into 12 are on them */
	model_layer_cost(&m->layers[fc], MODEL_PASS_BWD_DATA, N, A, WB, &c);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_GEMM_UNALIGNED);
	model_layer_cost(&m->layers[pool], MODEL_PASS_FWD, N, A, WB, &c);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_VECTOR);
	model_layer_cost(&m->layers[bn], MODEL_PASS_FWD, N, A, WB, &c);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_VECTOR);
	model_free(m);
}
END_TEST

/*
 * A window that is not square is a class of its own (dlsim.h,
 * MODEL_KERNEL_CONV_NONSQUARE), whatever its stride; a square one keeps
 * its class; the rule is the one the calibration groups its samples by
 * (model_conv_class).  Inception v3 has 34 such convolutions, counted by
 * hand from torchvision's inception.py: each of the four InceptionC
 * blocks (Mixed_6b-e) a 1x7 and a 7x1 in branch7x7 and four alternating
 * in branch7x7dbl (24), InceptionD (Mixed_7a) a 1x7 and a 7x1 (2), each
 * InceptionE (Mixed_7b, 7c) a 1x3 and a 3x1 in branch3x3 and in
 * branch3x3dbl (8).
 */
START_TEST(kernel_class_sets_nonsquare_windows_apart)
{
	static const struct {
		double kh, kw, sh, sw, d;
		enum model_kernel want;
	} cls[] = {
		{ 1, 7, 1, 1, 1, MODEL_KERNEL_CONV_NONSQUARE },
		{ 7, 1, 1, 1, 1, MODEL_KERNEL_CONV_NONSQUARE },
		{ 5, 20, 2, 2, 1, MODEL_KERNEL_CONV_NONSQUARE },
		{ 41, 11, 2, 2, 1, MODEL_KERNEL_CONV_NONSQUARE },
		{ 5, 5, 1, 1, 1, MODEL_KERNEL_CONV },
		{ 7, 7, 2, 2, 1, MODEL_KERNEL_CONV },
		{ 3, 3, 2, 1, 1, MODEL_KERNEL_CONV },
		{ 3, 3, 1, 1, 2, MODEL_KERNEL_CONV },
		{ 3, 3, 1, 1, 1, MODEL_KERNEL_CONV3X3 },
		{ 1, 1, 1, 1, 1, MODEL_KERNEL_CONV1X1 },
		{ 1, 1, 1, 2, 1, MODEL_KERNEL_CONV1X1_STRIDED },
	};
	struct model_builder b;
	struct model_conv_spec s;
	struct model_pass_cost c;
	struct model *m;
	int i, p, conv, grouped, n = 0;

	for (i = 0; i < (int)(sizeof(cls) / sizeof(cls[0])); i++)
		ck_assert_msg(model_conv_class(cls[i].kh, cls[i].kw, cls[i].sh,
					       cls[i].sw, cls[i].d) ==
			      cls[i].want, "case %d", i);
	start(&b, 8, 9, 9);
	model_conv_spec_init(&s, 8, 1, 1, 0);
	s.kernel_w = 7;
	s.pad_w = 3;
	conv = model_add_conv(&b, MODEL_IN, "c1x7", &s);
	s.groups = 8;
	grouped = model_add_conv(&b, MODEL_IN, "g1x7", &s);
	m = finish(&b);
	assert_shape(m->layers[conv].out, 8, 9, 9);
	for (p = MODEL_PASS_FWD; p <= MODEL_PASS_BWD_WEIGHT; p++) {
		model_layer_cost(&m->layers[conv], p, N, A, WB, &c);
		ck_assert_int_eq(c.kernel, MODEL_KERNEL_CONV_NONSQUARE);
		model_layer_cost(&m->layers[grouped], p, N, A, WB, &c);
		ck_assert_int_eq(c.kernel, MODEL_KERNEL_VECTOR);
	}
	model_free(m);
	ck_assert_int_eq(model_zoo_build("inception_v3", &m, NULL), DLSIM_OK);
	for (i = 0; i < m->n_layers; i++) {
		model_layer_cost(&m->layers[i], MODEL_PASS_FWD, N, A, WB, &c);
		n += c.kernel == MODEL_KERNEL_CONV_NONSQUARE;
	}
	ck_assert_int_eq(n, 34);
	model_free(m);
}
END_TEST

/*
 * model_builder_finish fixes each layer's shape-only cost facts once
 * (model_layer_derive), and the passes read them.  By hand, on a 3 x 9 x
 * 9 input:
 * - stem: 7x7/2, pad 3, 3 -> 8 channels: out 8 x 5 x 5 = 200 values, 3 x
 *   49 = 147 multiply-adds each: 29,400; depth ceil log2 7 twice = 6;
 *   class conv (strided, square); 16-bit channel padding 8/3;
 * - a 3x3/1 on its 8 channels: 200 x 72 = 14,400, depth 4, the Winograd
 *   class, no padding (8 is whole);
 * - the same grouped by 4 (2 channels a group, below 8): vector work, no
 *   padding, 200 x 18 = 3,600;
 * - fc of the 200 values into 10: 2,000, a GEMM, depth 0;
 * - BatchNorm: none of these (vector, 0 multiply-adds).
 * A 16-bit pass takes the padding, a 4-byte one none; the stem's forward
 * work is its multiply-adds and its depth the reduction over 3 channels
 * (ceil log2 3 = 2) and the window's 6.
 */
START_TEST(kernel_facts_fixed_when_the_model_is_finished)
{
	struct model_builder b;
	struct model_conv_spec s;
	struct model_pass_cost c;
	struct model *m;
	int stem, c3, g3, fc, bn;

	start(&b, 3, 9, 9);
	model_conv_spec_init(&s, 8, 7, 2, 3);
	stem = model_add_conv(&b, MODEL_IN, "stem", &s);
	model_conv_spec_init(&s, 8, 3, 1, 1);
	c3 = model_add_conv(&b, stem, "c3", &s);
	s.groups = 4;
	g3 = model_add_conv(&b, stem, "g3", &s);
	fc = model_add_fc(&b, g3, "fc", 10, 1);
	bn = model_add_batchnorm(&b, c3, "bn");
	m = finish(&b);
	assert_shape(m->layers[stem].out, 8, 5, 5);
	ck_assert_double_eq(m->layers[stem].macs, 29400.0);
	ck_assert_double_eq(m->layers[stem].window_depth, 6.0);
	ck_assert_int_eq(m->layers[stem].matrix_kernel, MODEL_KERNEL_CONV);
	ck_assert_double_eq_tol(m->layers[stem].channel_pad16, 8.0 / 3.0,
				1e-15);
	ck_assert_double_eq(m->layers[c3].macs, 14400.0);
	ck_assert_double_eq(m->layers[c3].window_depth, 4.0);
	ck_assert_int_eq(m->layers[c3].matrix_kernel, MODEL_KERNEL_CONV3X3);
	ck_assert_double_eq(m->layers[c3].channel_pad16, 0.0);
	ck_assert_double_eq(m->layers[g3].macs, 3600.0);
	ck_assert_int_eq(m->layers[g3].matrix_kernel, MODEL_KERNEL_VECTOR);
	ck_assert_double_eq(m->layers[g3].channel_pad16, 0.0);
	ck_assert_double_eq(m->layers[fc].macs, 2000.0);
	ck_assert_double_eq(m->layers[fc].window_depth, 0.0);
	ck_assert_int_eq(m->layers[fc].matrix_kernel, MODEL_KERNEL_GEMM);
	ck_assert_double_eq(m->layers[bn].macs, 0.0);
	ck_assert_int_eq(m->layers[bn].matrix_kernel, MODEL_KERNEL_VECTOR);
	model_layer_cost(&m->layers[stem], MODEL_PASS_FWD, N, 2, 2, &c);
	ck_assert_double_eq_tol(c.channel_pad, 8.0 / 3.0, 1e-15);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_CONV);
	/* work is the multiply-adds; depth ceil log2 3 + the window's 6 */
	ck_assert_double_eq(c.work, N * 29400.0);
	ck_assert_double_eq(c.depth, 8.0);
	model_layer_cost(&m->layers[stem], MODEL_PASS_FWD, N, A, WB, &c);
	ck_assert_double_eq(c.channel_pad, 0.0);
	model_free(m);
}
END_TEST

/*
 * A class's fit name and its parse (model_kernel.c's one table): the names
 * dlsim has stored since the classes came in (calibrate/cal_fitdb.c's
 * kinds, the seeded database's), each read back to its class with the
 * length of the name before the ':'; a class without a fit of its own
 * has none; a kind without ':' or with a name no class has is none.
 */
START_TEST(kernel_fit_kinds_round_trip)
{
	static const struct {
		enum model_kernel k;
		const char *name;
	} want[] = {
		{ MODEL_KERNEL_GEMM, "gemm" },
		{ MODEL_KERNEL_CONV, "conv" },
		{ MODEL_KERNEL_CONV3X3, "conv3x3" },
		{ MODEL_KERNEL_CONV1X1, "conv1x1" },
		{ MODEL_KERNEL_CONV1X1_STRIDED, "conv1x1s" },
		{ MODEL_KERNEL_RECURRENT, "rnn" },
		{ MODEL_KERNEL_LSTM, "rnn_lstm" },
		{ MODEL_KERNEL_GRU, "rnn_gru" },
		{ MODEL_KERNEL_RNN_TANH, "rnn_tanh" },
		{ MODEL_KERNEL_GEMM_UNALIGNED, "gemm_unaligned" },
		{ MODEL_KERNEL_CONV_NONSQUARE, "conv_nonsquare" },
		{ MODEL_KERNEL_CONV_UNALIGNED, "conv_unaligned" },
	};
	enum model_kernel k = MODEL_KERNEL_COUNT;
	char kind[64];
	size_t i;

	/* every class but vector work and the fp32 attention */
	ck_assert_int_eq(sizeof(want) / sizeof(want[0]),
			 MODEL_KERNEL_COUNT - 2);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ck_assert_str_eq(model_kernel_fit_kind(want[i].k),
				 want[i].name);
		snprintf(kind, sizeof(kind), "%s:fp16", want[i].name);
		ck_assert_uint_eq(model_kernel_of_fit_kind(kind, &k),
				  strlen(want[i].name));
		ck_assert_int_eq(k, want[i].k);
	}
	ck_assert_ptr_null(model_kernel_fit_kind(MODEL_KERNEL_VECTOR));
	ck_assert_ptr_null(model_kernel_fit_kind(MODEL_KERNEL_ATTENTION_F32));
	k = MODEL_KERNEL_COUNT;
	ck_assert_uint_eq(model_kernel_of_fit_kind("conv3x3", &k), 0);
	ck_assert_uint_eq(model_kernel_of_fit_kind("conv3:fp16", &k), 0);
	ck_assert_uint_eq(model_kernel_of_fit_kind("conv3x3s:fp16", &k), 0);
	ck_assert_uint_eq(model_kernel_of_fit_kind("stream:triad", &k), 0);
	ck_assert_uint_eq(model_kernel_of_fit_kind(":fp16", &k), 0);
	ck_assert_int_eq(k, MODEL_KERNEL_COUNT);
}
END_TEST

/*
 * Every class through the one table of names (model_kernel_name): its
 * fit's kind parses back to it, its benchmark and class name it, and no
 * two classes share a fit or a group; each benchmark has one plain
 * class, which a class the table does not list falls to.  The group
 * names are those dlsim has stored in params_json since the classes came
 * in (calibrate/cal_points.c's groups), spelled here once more so that a
 * renamed one fails.
 */
START_TEST(kernel_names_round_trip)
{
	static const char *const groups[MODEL_KERNEL_COUNT][2] = {
		[MODEL_KERNEL_GEMM] = { "gemm", "" },
		[MODEL_KERNEL_CONV] = { "conv", "other" },
		[MODEL_KERNEL_CONV3X3] = { "conv", "3x3s1" },
		[MODEL_KERNEL_CONV1X1] = { "conv", "1x1s1" },
		[MODEL_KERNEL_CONV1X1_STRIDED] = { "conv", "1x1strided" },
		[MODEL_KERNEL_RECURRENT] = { "rnn", "" },
		[MODEL_KERNEL_LSTM] = { "rnn", "lstm" },
		[MODEL_KERNEL_GRU] = { "rnn", "gru" },
		[MODEL_KERNEL_RNN_TANH] = { "rnn", "vanilla" },
		[MODEL_KERNEL_GEMM_UNALIGNED] = { "gemm", "unaligned" },
		[MODEL_KERNEL_CONV_NONSQUARE] = { "conv", "nonsquare" },
		[MODEL_KERNEL_CONV_UNALIGNED] = { "conv", "unaligned" },
	};
	int k, j, plain[MODEL_KERNEL_COUNT] = { 0 };
	char kind[64];

	for (k = 0; k < MODEL_KERNEL_COUNT; k++) {
		const struct model_kernel_name *n = model_kernel_name(k);
		enum model_kernel back = MODEL_KERNEL_COUNT;

		ck_assert_ptr_nonnull(n);
		if (!groups[k][0]) {    /* vector work, fp32 attention */
			ck_assert(!n->fit && !n->benchmark && !n->cls &&
				  !n->plain);
			continue;
		}
		ck_assert_msg(n->fit && n->benchmark && n->cls, "class %d", k);
		ck_assert_str_eq(n->benchmark, groups[k][0]);
		ck_assert_str_eq(n->cls, groups[k][1]);
		ck_assert_str_eq(model_kernel_fit_kind(k), n->fit);
		snprintf(kind, sizeof(kind), "%s:fp32", n->fit);
		ck_assert_uint_eq(model_kernel_of_fit_kind(kind, &back),
				  strlen(n->fit));
		ck_assert_int_eq(back, k);
		ck_assert_int_eq(model_kernel_of_class(n->benchmark, n->cls),
				 k);
		for (j = 0; j < k; j++) {
			const struct model_kernel_name *o =
				model_kernel_name(j);

			if (!o->fit)
				continue;
			ck_assert_str_ne(o->fit, n->fit);
			ck_assert(strcmp(o->benchmark, n->benchmark) ||
				  strcmp(o->cls, n->cls));
			if (o->plain && n->plain)
				ck_assert_str_ne(o->benchmark, n->benchmark);
		}
		if (n->plain) {
			plain[k] = 1;
			ck_assert_int_eq(model_kernel_of_class(n->benchmark,
							       "no such"), k);
		}
	}
	ck_assert(plain[MODEL_KERNEL_GEMM] && plain[MODEL_KERNEL_CONV] &&
		  plain[MODEL_KERNEL_RECURRENT]);
	/* no class: the empty names, never NULL */
	ck_assert_ptr_null(model_kernel_name(MODEL_KERNEL_COUNT)->fit);
	ck_assert_ptr_null(model_kernel_name((enum model_kernel)-1)->cls);
}
END_TEST

Suite *suite_model_kernel(void)
{
	Suite *s = suite_create("model_kernel");
	TCase *tc = tcase_create("kernel");

	tcase_add_test(tc, kernel_class_sets_winograd_convs_apart);
	tcase_add_test(tc, kernel_class_sets_nonsquare_windows_apart);
	tcase_add_test(tc, kernel_facts_fixed_when_the_model_is_finished);
	tcase_add_test(tc, kernel_fit_kinds_round_trip);
	tcase_add_test(tc, kernel_names_round_trip);
	suite_add_tcase(s, tc);
	return s;
}
