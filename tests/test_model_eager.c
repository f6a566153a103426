/*
 * test_model_eager.c -- what a transformer's layers cost as a framework
 * runs them, where that differs from one kernel a layer: the class of
 * an attention pass by its values' width and fusion (fp32 math for a
 * fused one on 4-byte values, MODEL_KERNEL_ATTENTION_F32) and the GELU
 * written out as eager operations (eager_gelu=1,
 * MODEL_LAYER_EAGER_GELU), each worked out by hand from model_layer.c's
 * counts at N = 2.
 */
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "model_util.h"
#include "models/model.h"
#include "sim_util.h"

#define N MODEL_UTIL_BATCH
#define WB MODEL_UTIL_WEIGHT

static void expect_zero(const struct model_layer *l, enum model_pass p)
{
	model_util_expect(l, p, 0.0, 0.0, 0.0, 0.0);
}

/*
 * The class of an attention pass: fused on 4-byte values, the fp32
 * attention class (its fp32 math at TF32 too); on 2- or 8-byte values,
 * unfused (the scores' GEMMs are cuBLAS's, which take TF32) or additive,
 * a GEMM.
 */
START_TEST(attention_class_by_width_and_fusion)
{
	static const struct {
		unsigned flags;
		int act;
		enum model_kernel k;
	} want[] = {
		{ 0, 4, MODEL_KERNEL_ATTENTION_F32 },
		{ MODEL_LAYER_ATTN_DROPOUT, 4, MODEL_KERNEL_ATTENTION_F32 },
		{ 0, 2, MODEL_KERNEL_GEMM },
		{ 0, 8, MODEL_KERNEL_GEMM },
		{ MODEL_LAYER_UNFUSED, 4, MODEL_KERNEL_GEMM },
		{ MODEL_LAYER_ADDITIVE, 4, MODEL_KERNEL_GEMM },
	};
	struct model_shape ids = { 1, 4, 1 };
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct model_builder b;
		struct model_pass_cost c;
		struct model *m = NULL;
		int e, at;

		model_builder_init(&b, "t", ids, N, "test");
		e = model_add_embedding(&b, MODEL_IN, "embed", 10, 8, 0, 0, 0);
		/* additive: queries of 4 channels, keys and values of 8 */
		at = want[i].flags & MODEL_LAYER_ADDITIVE ?
		     model_add_additive_attention(&b,
			     model_add_embedding(&b, MODEL_IN, "q", 10, 4,
						 0, 0, 0), e, "attn") :
		     model_add_attention(&b, e, -1, "attn", 2, 1, 0,
					 want[i].flags);
		ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
		ck_assert_uint_eq(m->layers[at].flags, want[i].flags);
		model_layer_cost(&m->layers[at], MODEL_PASS_FWD, N,
				 want[i].act, WB, &c);
		ck_assert_int_eq(c.kernel, want[i].k);
		model_layer_cost(&m->layers[at], MODEL_PASS_BWD_DATA, N,
				 want[i].act, WB, &c);
		ck_assert_int_eq(c.kernel, want[i].k);
		model_free(m);
	}
}
END_TEST

/*
 * A GELU written out as eager operations (MODEL_LAYER_EAGER_GELU) on the
 * 8-wide embedding of S = 4 tokens, N = 2: e = 64 values.  Per value
 * (model_layer.c, cost_gelu_eager): at 4 bytes, forward 4 x 4 + 56 = 72
 * and backward 9 x 4 + 76 = 112 bytes; at 2 bytes, with autocast's casts,
 * 4 x 2 + 56 + 2 x 2 + 8 = 76 and 9 x 2 + 76 + 4 x 2 + 16 = 118.  So
 * 4608 and 7168 bytes at 4, 4864 and 7552 at 2; at 8, fp64 all the way
 * and no casts, 4 x 8 + 14 x 8 = 144 and 9 x 8 + 19 x 8 = 224, 9216 and
 * 14336.  The one-kernel GELU moves 4 (64 + 64) = 512 and 4 x 3 x 64 = 768 at 4.  FLOPs 13 and
 * 22 a value either way (832, 1408); one launch a pass.
 */
START_TEST(eager_gelu_by_hand)
{
	struct model_shape ids = { 1, 4, 1 };
	struct model_builder b;
	struct model_pass_cost c;
	struct model *m = NULL;
	int e, g, plain;

	model_builder_init(&b, "t", ids, N, "test");
	e = model_add_embedding(&b, MODEL_IN, "embed", 10, 8, 0, 0, 0);
	g = model_add_gelu(&b, e, "eager", MODEL_LAYER_EAGER_GELU);
	plain = model_add_gelu(&b, e, "plain", 0);
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	ck_assert_uint_eq(m->layers[g].flags, MODEL_LAYER_EAGER_GELU);
	ck_assert_uint_eq(m->layers[plain].flags, 0);
	model_util_expect(&m->layers[g], MODEL_PASS_FWD, 832, 4608, 832, 1);
	model_util_expect(&m->layers[g], MODEL_PASS_BWD_DATA, 1408, 7168,
			  1408, 1);
	expect_zero(&m->layers[g], MODEL_PASS_BWD_WEIGHT);
	model_util_expect(&m->layers[plain], MODEL_PASS_FWD, 832, 512, 832, 1);
	model_util_expect(&m->layers[plain], MODEL_PASS_BWD_DATA, 1408, 768,
			  1408, 1);
	model_layer_cost(&m->layers[g], MODEL_PASS_FWD, N, 2, WB, &c);
	ck_assert(c.bytes == 4864 && c.launches == 0.0);
	model_layer_cost(&m->layers[g], MODEL_PASS_BWD_DATA, N, 2, WB, &c);
	ck_assert(c.bytes == 7552 && c.launches == 0.0);
	model_layer_cost(&m->layers[g], MODEL_PASS_FWD, N, 8, WB, &c);
	ck_assert(c.bytes == 9216);
	model_layer_cost(&m->layers[g], MODEL_PASS_BWD_DATA, N, 8, WB, &c);
	ck_assert(c.bytes == 14336);
	ck_assert_int_eq(c.kernel, MODEL_KERNEL_VECTOR);
	model_free(m);
}
END_TEST

/*
 * The eager_gelu key marks every GELU of gpt and bert (BERT's masked-LM
 * head's too) and the model's flags; a family without GELU refuses it,
 * and so does any value but 1.
 */
START_TEST(eager_gelu_key)
{
	static const char *const ok[] = {
		"gpt:layers=2,hidden=64,heads=4,seq=32,vocab=100,eager_gelu=1",
		"bert:layers=2,hidden=64,heads=4,seq=32,vocab=100,eager_gelu=1",
	};
	struct dlsim_err err = { 0, "" };
	struct model *m = NULL;
	size_t k;
	int i, n;

	for (k = 0; k < 2; k++) {
		ck_assert_int_eq(model_resolve(ok[k], &m, &err), DLSIM_OK);
		ck_assert(m->tf.flags & MODEL_TF_EAGER_GELU);
		for (i = n = 0; i < m->n_layers; i++)
			if (m->layers[i].kind == MODEL_GELU) {
				ck_assert_uint_eq(m->layers[i].flags,
						  MODEL_LAYER_EAGER_GELU);
				n++;
			}
		ck_assert_int_eq(n, k == 0 ? 2 : 3);
		model_free(m);
		m = NULL;
	}
	ck_assert_int_eq(model_resolve("gpt2", &m, &err), DLSIM_OK);
	ck_assert(!(m->tf.flags & MODEL_TF_EAGER_GELU));
	for (i = 0; i < m->n_layers; i++)
		ck_assert_uint_eq(m->layers[i].flags & MODEL_LAYER_EAGER_GELU,
				  0);
	model_free(m);
	m = NULL;
	ck_assert_int_ne(model_resolve("llama:layers=1,hidden=64,heads=4,"
				       "seq=32,vocab=100,eager_gelu=1", &m,
				       &err), DLSIM_OK);
	ck_assert(strstr(err.msg, "eager_gelu") != NULL);
	ck_assert(m == NULL);
	ck_assert_int_ne(model_resolve("gpt2:eager_gelu=2", &m, &err),
			 DLSIM_OK);
	ck_assert(strstr(err.msg, "eager_gelu") != NULL);
	ck_assert(m == NULL);
}
END_TEST

/* An eager GELU and a compiler's fusion contradict each other: the step
 * refuses the pair, naming the key, and takes either alone. */
START_TEST(eager_gelu_refuses_fusion)
{
	struct dlsim_err err = { 0, "" };
	struct sim_options o;
	struct sim_result res;
	struct sim_rig r;
	struct model *m = NULL;

	sim_rig_init(&r, 1, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	o.fuse_elementwise = 1;
	ck_assert_int_eq(model_resolve("gpt:layers=1,hidden=64,heads=4,"
				       "seq=32,vocab=128,eager_gelu=1", &m,
				       &err), DLSIM_OK);
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "eager_gelu") != NULL);
	ck_assert(res.step_time_s == 0.0);
	o.fuse_elementwise = 0;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, &err), DLSIM_OK);
	sim_result_release(&res);
	model_free(m);
	m = NULL;
	ck_assert_int_eq(model_resolve("gpt:layers=1,hidden=64,heads=4,"
				       "seq=32,vocab=128", &m, &err), DLSIM_OK);
	o.fuse_elementwise = 1;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, &err), DLSIM_OK);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

Suite *suite_model_eager(void)
{
	Suite *s = suite_create("model_eager");
	TCase *tc = tcase_create("eager");

	tcase_add_test(tc, attention_class_by_width_and_fusion);
	tcase_add_test(tc, eager_gelu_by_hand);
	tcase_add_test(tc, eager_gelu_key);
	tcase_add_test(tc, eager_gelu_refuses_fusion);
	suite_add_tcase(s, tc);
	return s;
}
