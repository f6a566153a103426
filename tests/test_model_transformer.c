/*
 * test_model_transformer.c -- the transformer layers (models/
 * model_build_tf.c, model_layer.c) and the families and presets
 * (model_zoo_transformer.c, model_zoo.c); the "NAME:key=value" parser
 * (model_spec.c) is test_model_spec.c.
 *
 * Parameter counts are worked out by hand from the architectures in
 * model_zoo_transformer.c and compared with the published figures cited
 * next to each; training FLOPs are compared with the Megatron-LM formula
 * (Narayanan et al., SC21, App.).  Layer costs use N = 2, 4-byte
 * activations and weights, and are worked out by hand from the counts in
 * model_layer.c's header.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "model_util.h"
#include "models/model.h"

#define N MODEL_UTIL_BATCH
#define A MODEL_UTIL_ACT
#define WB MODEL_UTIL_WEIGHT

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

static void expect_zero(const struct model_layer *l, enum model_pass p)
{
	model_util_expect(l, p, 0.0, 0.0, 0.0, 0.0);
}

static enum model_kernel kernel_of(const struct model_layer *l)
{
	struct model_pass_cost c;

	model_layer_cost(l, MODEL_PASS_FWD, N, A, WB, &c);
	return c.kernel;
}

/*
 * FLOPs of one training step without recomputation: every layer's fwd,
 * bwd_data and bwd_weight at batch b.  *matmul gets 2 x the work of the
 * GEMM passes (on 16-byte rows or not): the matmul FLOPs alone, with no
 * bias adds.
 */
static double step_flops(const struct model *m, int64_t b, double *matmul)
{
	struct model_pass_cost c;
	double total = 0.0;
	int i, p;

	*matmul = 0.0;
	for (i = 0; i < m->n_layers; i++)
		for (p = MODEL_PASS_FWD; p <= MODEL_PASS_BWD_WEIGHT; p++) {
			model_layer_cost(&m->layers[i], p, b, 2, 2, &c);
			total += c.flops;
			if (c.kernel == MODEL_KERNEL_GEMM ||
			    c.kernel == MODEL_KERNEL_GEMM_UNALIGNED)
				*matmul += 2.0 * c.work;
		}
	return total;
}

/* ---------------------------------------------------------------- */
/* The layer kinds, by hand                                          */
/* ---------------------------------------------------------------- */

/*
 * S = 4 token ids, N = 2.  embed: V = 10, H = 8, 4 position rows:
 * params (10 + 4) 8 = 112; t = 2 tables; out 2 x 4 x 8 = 64 values, 8 ids.
 *   fwd  FLOPs (t - 1) 64 = 64; bytes 8 x 8 ids + 4 x 2 x 64 rows +
 *        4 x 64 out = 832; D 1
 *   dw   FLOPs t 64 = 128; bytes 64 ids + 4 x 64 dy + 4 x 112 table =
 *        768; D ceil log2(2 x 4) = 3
 * fc: linear 8 -> 6 with bias: params 54; MACs 2 x 4 x 8 x 6 = 384; out
 * 48 values.  fwd 2 x 384 + 48 = 816 FLOPs, bytes 4 (64 + 48) + 4 x 54 =
 * 664, D ceil log2 8 = 3; dx 768, D ceil log2 6 = 3; dw 816, D
 * ceil log2(2 x 4) = 3.
 */
START_TEST(embedding_and_linear_by_hand)
{
	struct model_builder b;
	struct model_shape ids = { 1, 4, 1 };
	struct model *m;
	int e, fc;

	model_builder_init(&b, "t", ids, N, "test");
	e = model_add_embedding(&b, MODEL_IN, "embed", 10, 8, 4, 0, 0);
	fc = model_add_linear(&b, e, "fc", 6, 1, 0);
	m = NULL;
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	ck_assert_int_eq(m->layers[e].params, 112);
	ck_assert_int_eq(m->layers[e].out.c, 8);
	ck_assert_int_eq(m->layers[e].out.h, 4);
	model_util_expect(&m->layers[e], MODEL_PASS_FWD, 64, 832, 64, 1);
	expect_zero(&m->layers[e], MODEL_PASS_BWD_DATA);
	model_util_expect(&m->layers[e], MODEL_PASS_BWD_WEIGHT, 128, 768, 128, 3);
	ck_assert_int_eq(kernel_of(&m->layers[e]), MODEL_KERNEL_VECTOR);
	ck_assert_int_eq(m->layers[fc].params, 54);
	model_util_expect(&m->layers[fc], MODEL_PASS_FWD, 816, 664, 384, 3);
	model_util_expect(&m->layers[fc], MODEL_PASS_BWD_DATA, 768, 664, 384, 3);
	model_util_expect(&m->layers[fc], MODEL_PASS_BWD_WEIGHT, 816, 664, 384, 3);
	/* 8 wide into 6 at 4 bytes a value: off 16-byte rows */
	ck_assert_int_eq(kernel_of(&m->layers[fc]), MODEL_KERNEL_GEMM_UNALIGNED);
	ck_assert(model_forward_macs(m) == 192.0);   /* per sample */
	model_free(m);
}
END_TEST

/*
 * Attention on the 8-channel embedding as Q, K, V of A = 2 query heads
 * and K = 1 key/value head: d = 8 / (2 + 2) = 2, out A d = 4 channels.
 * MACs 2 A d S S = 2 x 2 x 2 x 4 x 4 = 128 per sample, 256 for N = 2.
 * That is Megatron's 4 S^2 H = 4 x 16 x 4 = 256 FLOPs per sample.
 *   fwd  FLOPs 512; bytes 4 (64 in + 32 out) = 384; D ceil log2 2 +
 *        2 ceil log2 4 = 5
 *   dx   FLOPs 1024; bytes 4 x 2 (64 + 32) = 768; D 1 + 2 + 2 = 5
 * The norms on its output (4 x 4, 32 values for N = 2; H = 4, 8 tokens):
 *   layernorm (8 params)  fwd 8 x 32 = 256, bytes 4 x 64 + 32 = 288,
 *     D 2; dx 320, bytes 4 x 96 + 32 = 416, D 2; dw 160, 288, D 3
 *   rmsnorm (4 params)    fwd 128, bytes 256 + 16 = 272, D 2; dx 224,
 *     bytes 400, D 2; dw 96, 272, D 3
 */
START_TEST(attention_and_norms_by_hand)
{
	struct model_builder b;
	struct model_shape ids = { 1, 4, 1 };
	struct model *m;
	int e, at, ln, rms, causal;

	model_builder_init(&b, "t", ids, N, "test");
	e = model_add_embedding(&b, MODEL_IN, "embed", 10, 8, 0, 0, 0);
	at = model_add_attention(&b, e, -1, "attn", 2, 1, 0, 0);
	causal = model_add_attention(&b, e, -1, "causal", 2, 1, 1, 0);
	ln = model_add_norm(&b, MODEL_LAYERNORM, at, "ln");
	rms = model_add_norm(&b, MODEL_RMSNORM, at, "rms");
	m = NULL;
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	ck_assert_int_eq(m->layers[at].head_dim, 2);
	ck_assert_int_eq(m->layers[at].out.c, 4);
	ck_assert_int_eq(m->layers[at].params, 0);
	model_util_expect(&m->layers[at], MODEL_PASS_FWD, 512, 384, 256, 5);
	model_util_expect(&m->layers[at], MODEL_PASS_BWD_DATA, 1024, 768, 512, 5);
	expect_zero(&m->layers[at], MODEL_PASS_BWD_WEIGHT);
	/* fused on 4-byte values: fp32 math at TF32 too (dlsim.h) */
	ck_assert_int_eq(kernel_of(&m->layers[at]), MODEL_KERNEL_ATTENTION_F32);
	/* a causal mask changes no count (Megatron counts the full S x S) */
	ck_assert_int_eq(m->layers[causal].causal, 1);
	model_util_expect(&m->layers[causal], MODEL_PASS_FWD, 512, 384, 256, 5);
	ck_assert_int_eq(m->layers[ln].params, 8);
	model_util_expect(&m->layers[ln], MODEL_PASS_FWD, 256, 288, 256, 2);
	model_util_expect(&m->layers[ln], MODEL_PASS_BWD_DATA, 320, 416, 320, 2);
	model_util_expect(&m->layers[ln], MODEL_PASS_BWD_WEIGHT, 160, 288, 160, 3);
	ck_assert_int_eq(m->layers[rms].params, 4);
	model_util_expect(&m->layers[rms], MODEL_PASS_FWD, 128, 272, 128, 2);
	model_util_expect(&m->layers[rms], MODEL_PASS_BWD_DATA, 224, 400, 224, 2);
	model_util_expect(&m->layers[rms], MODEL_PASS_BWD_WEIGHT, 96, 272, 96, 3);
	model_free(m);
}
END_TEST

/*
 * The same attention unfused (MODEL_LAYER_UNFUSED), its scores in
 * memory: E = N A S S = 2 x 2 x 4 x 4 = 64 scores at 4 bytes.
 *   with dropout  fwd 384 + 64 (4 x 6 + 1 mask) = 1984, 4 kernels;
 *                 dx 768 + 64 (4 x 9 + 1) = 3136, 6 kernels
 *   without       fwd 384 + 64 x 4 x 4 = 1408, 3 kernels;
 *                 dx 768 + 64 x 4 x 7 = 2560, 5 kernels
 * FLOPs, work and depth as fused.
 */
START_TEST(unfused_attention_by_hand)
{
	static const struct {
		unsigned flags;
		double fwd, dx, n_fwd, n_dx;
	} want[] = {
		{ MODEL_LAYER_UNFUSED | MODEL_LAYER_ATTN_DROPOUT, 1984, 3136,
		  4, 6 },
		{ MODEL_LAYER_UNFUSED, 1408, 2560, 3, 5 },
		{ MODEL_LAYER_ATTN_DROPOUT, 384, 768, 0, 0 },   /* fused */
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
		at = model_add_attention(&b, e, -1, "attn", 2, 1, 1,
					 want[i].flags);
		ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
		model_util_expect(&m->layers[at], MODEL_PASS_FWD, 512,
				  want[i].fwd, 256, 5);
		model_util_expect(&m->layers[at], MODEL_PASS_BWD_DATA, 1024,
				  want[i].dx, 512, 5);
		model_layer_cost(&m->layers[at], MODEL_PASS_FWD,
				 MODEL_UTIL_BATCH, MODEL_UTIL_ACT,
				 MODEL_UTIL_WEIGHT, &c);
		ck_assert(c.launches == want[i].n_fwd);
		model_layer_cost(&m->layers[at], MODEL_PASS_BWD_DATA,
				 MODEL_UTIL_BATCH, MODEL_UTIL_ACT,
				 MODEL_UTIL_WEIGHT, &c);
		ck_assert(c.launches == want[i].n_dx);
		model_free(m);
	}
}
END_TEST

/*
 * The unfused key: gpt:...,unfused=1 marks every block's attention
 * unfused with dropout (GPT trains with it) and the model's flags;
 * llama (no dropout) gets unfused without dropout; unfused=2 is refused.
 */
START_TEST(unfused_key)
{
	struct dlsim_err err = { 0, "" };
	struct model *m = NULL;
	int i, n = 0;

	ck_assert_int_eq(model_resolve("gpt:layers=2,hidden=64,heads=4,seq=32,"
				       "vocab=100,unfused=1", &m, &err),
			 DLSIM_OK);
	ck_assert(m->tf.flags & MODEL_TF_UNFUSED_ATTENTION);
	for (i = 0; i < m->n_layers; i++)
		if (m->layers[i].kind == MODEL_ATTENTION) {
			ck_assert_uint_eq(m->layers[i].flags,
					  MODEL_LAYER_UNFUSED |
					  MODEL_LAYER_ATTN_DROPOUT);
			n++;
		}
	ck_assert_int_eq(n, 2);
	model_free(m);
	ck_assert_int_eq(model_resolve("llama:layers=1,hidden=64,heads=4,"
				       "seq=32,vocab=100,unfused=1", &m, &err),
			 DLSIM_OK);
	for (i = 0; i < m->n_layers; i++)
		if (m->layers[i].kind == MODEL_ATTENTION)
			ck_assert_uint_eq(m->layers[i].flags,
					  MODEL_LAYER_UNFUSED);
	model_free(m);
	m = NULL;
	ck_assert_int_ne(model_resolve("gpt:layers=2,hidden=64,heads=4,"
				       "seq=32,vocab=100,unfused=2", &m, &err),
			 DLSIM_OK);
	ck_assert(strstr(err.msg, "unfused") != NULL);
	ck_assert(m == NULL);
}
END_TEST

/*
 * On a 6 x 4 input (48 values for N = 2):
 *   gelu    fwd 13 x 48 = 624, bytes 4 x 96 = 384; dx 22 x 48 = 1056,
 *           bytes 4 (48 dy + 48 x + 48 dx) = 576; D 1
 *   swiglu  6 -> 3 channels, 24 output values: fwd 6 x 24 = 144, bytes
 *           4 (48 + 24) = 288; dx 12 x 24 = 288, bytes 4 (24 + 96) = 480
 * Tied logits (V = 10 on the 8-wide embedding, no bias): no params, MACs
 * 2 x 4 x 8 x 10 = 640, fwd bytes 4 (64 + 80) + 4 x 80 weights = 896.
 * Loss over 10 classes for each of 8 tokens (80 values): fwd 5 x 80 + 8
 * logs = 408, bytes 640, D 2 ceil log2 10 = 8; dx 160, 640, D 1.
 */
START_TEST(activations_logits_and_loss_by_hand)
{
	struct model_builder b;
	struct model_shape in = { 6, 4, 1 }, ids = { 1, 4, 1 };
	struct model *m;
	int g, sw, e, lg, loss;

	model_builder_init(&b, "t", in, N, "test");
	g = model_add_simple(&b, MODEL_GELU, MODEL_IN, "gelu");
	sw = model_add_simple(&b, MODEL_SWIGLU, MODEL_IN, "swiglu");
	m = NULL;
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	model_util_expect(&m->layers[g], MODEL_PASS_FWD, 624, 384, 624, 1);
	model_util_expect(&m->layers[g], MODEL_PASS_BWD_DATA, 1056, 576, 1056, 1);
	ck_assert_int_eq(m->layers[sw].out.c, 3);
	model_util_expect(&m->layers[sw], MODEL_PASS_FWD, 144, 288, 144, 1);
	model_util_expect(&m->layers[sw], MODEL_PASS_BWD_DATA, 288, 480, 288, 1);
	ck_assert_int_eq(kernel_of(&m->layers[sw]), MODEL_KERNEL_VECTOR);
	model_free(m);

	model_builder_init(&b, "t", ids, N, "test");
	e = model_add_embedding(&b, MODEL_IN, "embed", 10, 8, 0, 0, 0);
	lg = model_add_linear(&b, e, "lm_head", 10, 0, e);
	loss = model_add_simple(&b, MODEL_SOFTMAX_XENT, lg, "loss");
	m = NULL;
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	ck_assert_int_eq(m->layers[lg].params, 0);
	ck_assert_int_eq(m->params, 80);
	model_util_expect(&m->layers[lg], MODEL_PASS_FWD, 1280, 896, 640, 3);
	model_util_expect(&m->layers[lg], MODEL_PASS_BWD_WEIGHT, 1280, 896, 640, 3);
	model_util_expect(&m->layers[loss], MODEL_PASS_FWD, 408, 640, 408, 8);
	model_util_expect(&m->layers[loss], MODEL_PASS_BWD_DATA, 160, 640, 160, 1);
	model_free(m);
}
END_TEST

/* Shapes that cannot be: each a one-line EINVAL naming the layer. */
START_TEST(transformer_layers_refuse_bad_shapes)
{
	struct model_shape ids = { 1, 4, 1 }, wide = { 3, 4, 1 };
	struct model_builder b;
	struct dlsim_err err = { 0 };
	struct model *m;
	int e, x;

	model_builder_init(&b, "t", wide, N, "test");
	model_add_embedding(&b, MODEL_IN, "embed", 10, 8, 0, 0, 0);
	ck_assert_int_eq(model_builder_finish(&b, &m, &err), DLSIM_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "'embed': embedding takes "
				     "token ids"));

	dlsim_err_clear(&err);
	model_builder_init(&b, "t", ids, N, "test");
	e = model_add_embedding(&b, MODEL_IN, "embed", 10, 8, 0, 0, 0);
	x = model_add_linear(&b, e, "fc", 10, 0, 0);
	model_add_linear(&b, e, "lm_head", 10, 0, x);
	ck_assert_int_eq(model_builder_finish(&b, &m, &err), DLSIM_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "'lm_head': tied to 'fc', "
				     "which is not an embedding"));

	dlsim_err_clear(&err);
	model_builder_init(&b, "t", ids, N, "test");
	e = model_add_embedding(&b, MODEL_IN, "embed", 10, 9, 0, 0, 0);
	model_add_attention(&b, e, -1, "attn", 2, 1, 0, 0);
	ck_assert_int_eq(model_builder_finish(&b, &m, &err), DLSIM_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "'attn': 9 channels do not "
				     "split into 2 query"));

	dlsim_err_clear(&err);
	model_builder_init(&b, "t", ids, N, "test");
	e = model_add_embedding(&b, MODEL_IN, "embed", 10, 9, 0, 0, 0);
	model_add_simple(&b, MODEL_SWIGLU, e, "act");
	ck_assert_int_eq(model_builder_finish(&b, &m, &err), DLSIM_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "'act': swiglu needs an even"));
}
END_TEST

/* Residual add, dropout and loss work on (c, S) tensors as on images. */
START_TEST(elementwise_kinds_work_on_sequences)
{
	struct model *m = model_util_build("gpt:layers=1,hidden=8,heads=2,seq=4,"
				"vocab=10");
	const struct model_layer *add = model_util_layer(m, "block0.attn.add");
	const struct model_layer *drop = model_util_layer(m, "block0.attn.drop");
	const struct model_layer *loss = model_util_layer(m, "loss");

	/* 8 x 4 values per sample, N = 2: the add sums 2 x 64 into 64 */
	ck_assert_int_eq(add->in_elems, 64);
	model_util_expect(add, MODEL_PASS_FWD, 64, 4 * (128 + 64), 64, 1);
	/* dropout: compare and scale, plus a 1-byte mask per value */
	model_util_expect(drop, MODEL_PASS_FWD, 128, 4 * 128 + 64, 128, 1);
	/* 10 classes per token, 4 tokens */
	ck_assert_int_eq(loss->in_elems, 40);
	model_util_expect(loss, MODEL_PASS_FWD, 5 * 80 + 8, 4 * 160, 408, 8);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Parameter counts                                                  */
/* ---------------------------------------------------------------- */

/*
 * Llama (no biases; q, k, v, o; SwiGLU w1, w2, w3; two RMSNorms per
 * block; final norm; untied embedding and output, V H each):
 *   llama2-7b   H 4096, L 32, F 11008, MHA: per block 4 H^2 =
 *     67,108,864 + 3 H F = 135,266,304 + 2H = 8,192 -> 202,383,360;
 *     x 32 = 6,476,267,520; + 2 x 32000 x 4096 = 262,144,000; + 4,096
 *     = 6,738,415,616 (HF Llama-2-7b-hf: 6,738,415,616)
 *   llama2-13b  H 5120, L 40, F 13824: 4 H^2 104,857,600 + 3HF
 *     212,336,640 + 10,240 = 317,204,480; x 40 = 12,688,179,200;
 *     + 327,680,000 + 5,120 = 13,015,864,320
 *   llama2-70b  H 8192, L 80, F 28672, 8 kv heads of 128: q, o 2 H^2 =
 *     134,217,728, k, v 2 x 8192 x 1024 = 16,777,216, 3HF =
 *     704,643,072, 16,384 -> 855,654,400; x 80 = 68,452,352,000;
 *     + 524,288,000 + 8,192 = 68,976,648,192
 *   llama3-8b   H 4096, L 32, F 14336, kv 8: 33,554,432 + 8,388,608 +
 *     176,160,768 + 8,192 = 218,112,000; x 32 = 6,979,584,000;
 *     + 2 x 128256 x 4096 = 1,050,673,152; + 4,096 = 8,030,261,248
 *   llama3-70b  as llama2-70b's blocks, 68,452,352,000; + 2 x 128256 x
 *     8192 = 2,101,346,304; + 8,192 = 70,553,706,496
 *   llama3-405b H 16384, L 126, F 53248, kv 8: 536,870,912 +
 *     33,554,432 + 2,617,245,696 + 32,768 = 3,187,703,808; x 126 =
 *     401,650,679,808; + 4,202,692,608 + 16,384 = 405,853,388,800
 * GPT (biases; LN 2H twice; tied logits; learned positions S H; ln_f):
 * per block 12 H^2 + 13 H.
 *   gpt2     H 768, L 12, S 1024: 12 x 7,087,872 = 85,054,464;
 *     50257 x 768 = 38,597,376; 1024 x 768 = 786,432; 1,536:
 *     124,439,808 (HF gpt2's 124,439,808)
 *   gpt2-xl  H 1600, L 48: 48 x 30,740,800 = 1,475,558,400; 80,411,200;
 *     1,638,400; 3,200: 1,557,611,200 (HF gpt2-xl)
 *   gpt3-175b H 12288, L 96, S 2048: 96 x 1,812,099,072 =
 *     173,961,510,912; 617,558,016; 25,165,824; 24,576:
 *     174,604,259,328, 0.23% under the "175B" of Brown et al. 2020,
 *     Table 2.1, which rounds (its 12 L H^2 alone is 173.9 B).
 * BERT (post-LN; embeddings (30522 + 512 + 2) H + LN 2H; per block
 * 12 H^2 + 13 H; MLM head: dense H^2 + H, LN 2H, decoder bias V; no
 * pooler):
 *   bert-base  23,837,184 + 85,054,464 + 622,650 = 109,514,298
 *   bert-large 31,782,912 + 302,309,376 + 1,082,170 = 335,174,458
 * HF's BertModel (with the pooler, H^2 + H, without the MLM head) counts
 * 109,482,240 and 335,141,888; Devlin et al. 2019 print 110M and 340M.
 * Ours are those + the MLM head - the pooler (+32,058 and +32,570):
 * 0.44% under 110M, 1.4% under 340M (which rounds up: HF's model card
 * says 336M for bert-large-uncased).
 */
static const struct {
	const char *name;
	int64_t params;
} counts[] = {
	{ "llama2-7b", 6738415616LL },
	{ "llama2-13b", 13015864320LL },
	{ "llama2-70b", 68976648192LL },
	{ "llama3-8b", 8030261248LL },
	{ "llama3-70b", 70553706496LL },
	{ "llama3-405b", 405853388800LL },
	{ "gpt2", 124439808LL },
	{ "gpt2-xl", 1557611200LL },
	{ "gpt3-175b", 174604259328LL },
	{ "bert-base", 109514298LL },
	{ "bert-large", 335174458LL },
};

START_TEST(preset_parameter_counts)
{
	int64_t p = model_util_params(counts[_i].name);

	ck_assert_msg(p == counts[_i].params, "%s: %lld, expected %lld",
		      counts[_i].name, (long long)p,
		      (long long)counts[_i].params);
}
END_TEST

START_TEST(published_figures)
{
	/* Brown et al. 2020, Table 2.1: 175.0 B, within 0.5% */
	ck_assert_rel((double)model_util_params("gpt3-175b"), 175e9, 0.005);
	/* Devlin et al. 2019: 110M and 340M; HF BertModel's exact counts */
	ck_assert_rel((double)model_util_params("bert-base"), 110e6, 0.005);
	ck_assert_rel((double)model_util_params("bert-large"), 340e6, 0.015);
	ck_assert_int_eq(model_util_params("bert-base") - 109482240, 622650 - 590592);
	ck_assert_int_eq(model_util_params("bert-large") - 335141888,
			 1082170 - 1049600);
	/* Vaswani et al. 2017, Table 3: 65M and 213M; with V = 37000 the
	 * shared table is 18.9M (base): 6 x 3,152,384 encoder + 6 x
	 * 4,204,032 decoder + 18,944,000 = 63,082,496, 3% under 65M */
	ck_assert_int_eq(model_util_params("transformer-base"), 63082496);
	ck_assert_rel((double)model_util_params("transformer-big"), 213e6, 0.01);
	/* HF t5-base, 222,903,552, less the relative position biases that
	 * dlsim leaves out (2 stacks x 32 buckets x 12 heads = 768) */
	ck_assert_int_eq(model_util_params("t5:layers=12,hidden=768,heads=12,"
				   "seq=512,vocab=32128"),
			 222903552 - 768);
	/* GPT-3 1.3B, 6.7B, 13B by the same per-block rule */
	ck_assert_int_eq(model_util_params("gpt3-1.3b"), 1315723264);
	ck_assert_int_eq(model_util_params("gpt3-6.7b"), 6658404352LL);
	ck_assert_int_eq(model_util_params("gpt3-13b"), 12853386240LL);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Training FLOPs against Megatron-LM                                */
/* ---------------------------------------------------------------- */

/*
 * Narayanan et al. 2021, App. (with activation recomputation):
 *   F = 96 B s l h^2 (1 + s / 6h + V / 16 l h).
 * Per block the forward matmuls are 24 B s h^2 (QKV 6, proj 2, MLP 16)
 * + 4 B s^2 h (Q K^T and P V); recomputation runs the forward twice, so
 * with the backward (twice the forward) that is 4 forwards:
 * 96 B s h^2 + 16 B s^2 h = 96 B s h^2 (1 + s / 6h).  The logits (2 B s
 * h V forward) are not recomputed: 3 x 2 B s h V = 6 B s h V =
 * 96 B s l h^2 x V / (16 l h).  Without recomputation the blocks take 3
 * forwards, 72 B s h^2 (1 + s / 6h), and the logits keep 6 B s h V =
 * 72 B s l h^2 x V / (12 l h):
 *   F = 72 B s l h^2 (1 + s / 6h + V / 12 l h).
 * dlsim's GEMM passes give exactly that.  Its total adds, per token,
 * 212 h per block (fwd: LN 8h x 2, biases 9h, GELU 13 x 4h, dropouts
 * 2h x 2, adds h x 2 = 83h; dx: LN 10h x 2, GELU 22 x 4h, dropouts h x 2
 * = 110h; dw: LN 5h x 2, biases 9h = 19h), the embedding (h forward,
 * 2h dw), its dropout (3h), ln_f (23h) and the loss (7V + 1):
 *   total / F = 1 + (212 h l + 29 h + 7V + 1)
 *                   / (72 l h^2 + 12 l s h + 6 h V)
 * gpt3-175b: 1 + 250,793,528 / 1,076,373,430,272 = 1.000233;
 * gpt:layers=4,hidden=512,heads=8,seq=256,vocab=1000:
 *   1 + 456,025 / 84,860,928 = 1.005374.
 */
static void check_megatron(const char *spec, double b)
{
	struct model *m = model_util_build(spec);
	const struct model_transformer *t = &m->tf;
	double s = (double)t->seq, l = (double)t->layers;
	double h = (double)t->hidden, v = (double)t->vocab;
	double matmul, total = step_flops(m, (int64_t)b, &matmul);
	double f = 72.0 * b * s * l * h * h *
		   (1.0 + s / (6.0 * h) + v / (12.0 * l * h));
	double ratio = 1.0 + (212.0 * h * l + 29.0 * h + 7.0 * v + 1.0) /
		       (72.0 * l * h * h + 12.0 * l * s * h + 6.0 * h * v);

	ck_assert_rel(matmul, f, 1e-12);
	ck_assert_rel(total, f, 0.01);
	ck_assert_rel(total / f, ratio, 1e-12);
	model_free(m);
}

START_TEST(gpt_flops_match_megatron)
{
	check_megatron("gpt3-175b", 1.0);
	check_megatron("gpt3-175b:seq=1024", 8.0);
	check_megatron("gpt:layers=4,hidden=512,heads=8,seq=256,vocab=1000",
		       2.0);
	/* gpt3-175b, B = 1, by hand (not from the model's own sizes): per
	 * token 72 x 96 x 12288^2 + 12 x 96 x 2048 x 12288 + 6 x 12288 x
	 * 50257 = 1,043,677,052,928 + 28,991,029,248 + 3,705,348,096 =
	 * 1,076,373,430,272 matmul FLOPs, and 212 x 12288 x 96 + 29 x 12288
	 * + 7 x 50257 + 1 = 250,793,528 more; times s = 2048 tokens */
	{
		struct model *m = model_util_build("gpt3-175b");
		double matmul, total = step_flops(m, 1, &matmul);

		ck_assert_rel(matmul, 2204412785197056.0, 1e-12);
		ck_assert_rel(total, 2204926410342400.0, 1e-12);
		model_free(m);
	}
}
END_TEST

/*
 * Llama: the matmul FLOPs are 6 x (the linear layers' weights) per token
 * (Kaplan et al. 2020, C = 6ND) plus attention's 12 l s^2 h per sample.
 * llama2-7b per token: 6 x (32 x (4 H^2 + 3 H F) + V H) = 6 x
 * (6,476,005,376 + 131,072,000) = 39,642,464,256, and 12 x 32 x 4096 x
 * 4096 = 6,442,450,944: 46,084,915,200, times s = 4096 per sample.
 */
START_TEST(llama_flops_are_six_n_d_plus_attention)
{
	struct model *m = model_util_build("llama2-7b");
	double matmul;

	step_flops(m, 1, &matmul);
	ck_assert_rel(matmul, 46084915200.0 * 4096.0, 1e-12);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Structure: tf and block                                           */
/* ---------------------------------------------------------------- */

/* Every layer "block<i>.*" has block i, every other -1; count them. */
static int check_blocks(const struct model *m, int64_t blocks)
{
	int i, inside = 0;

	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];
		int k = -1;

		if (sscanf(l->name, "block%d.", &k) != 1)
			k = -1;
		ck_assert_msg(l->block == k, "%s: block %d", l->name,
			      l->block);
		ck_assert_int_lt(l->block, blocks);
		inside += l->block >= 0;
	}
	return inside;
}

START_TEST(gpt2_structure)
{
	struct model *m = model_util_build("gpt2");
	const struct model_transformer *t = &m->tf;

	ck_assert_int_eq(t->arch, MODEL_TF_DECODER);
	ck_assert(t->layers == 12 && t->blocks == 12 && t->hidden == 768 &&
		  t->heads == 12 && t->kv_heads == 12 && t->head_dim == 64 &&
		  t->ffn == 3072 && t->seq == 1024 && t->vocab == 50257);
	ck_assert_int_eq(t->flags, MODEL_TF_TIED_EMBEDDINGS |
			 MODEL_TF_PRE_NORM | MODEL_TF_BIAS |
			 MODEL_TF_LEARNED_POSITIONS | MODEL_TF_DROPOUT);
	/* per block: 2 norms, qkv, core, proj, fc1, act, fc2, 2 drops,
	 * 2 adds = 12 layers */
	ck_assert_int_eq(check_blocks(m, 12), 12 * 12);
	ck_assert_int_eq(model_util_layer(m, "block3.attn.qkv")->out.c, 3 * 768);
	ck_assert_int_eq(model_util_layer(m, "block3.attn.core")->causal, 1);
	ck_assert_int_eq(model_util_layer(m, "lm_head")->tied_to,
			 (int)(model_util_layer(m, "embed") - m->layers));
	ck_assert_int_eq(model_util_layer(m, "embed")->pos_rows, 1024);
	ck_assert_int_eq(m->default_batch, 12);
	model_free(m);

	m = model_util_build("resnet50");
	ck_assert_int_eq(m->tf.arch, MODEL_TF_NONE);
	ck_assert_int_eq(check_blocks(m, 1), 0);
	model_free(m);
}
END_TEST

START_TEST(llama_structure)
{
	struct model *m = model_util_build("llama2-70b");
	const struct model_layer *core = model_util_layer(m, "block79.attn.core");

	ck_assert_int_eq(m->tf.flags, MODEL_TF_GATED_MLP | MODEL_TF_RMSNORM |
			 MODEL_TF_PRE_NORM);
	ck_assert_int_eq(m->tf.kv_heads, 8);
	/* q 8192 + k, v 2 x 8 x 128 */
	ck_assert_int_eq(model_util_layer(m, "block0.attn.qkv")->out.c, 10240);
	ck_assert(core->heads == 64 && core->kv_heads == 8 &&
		  core->head_dim == 128 && core->kv_len == 4096);
	ck_assert_int_eq(model_util_layer(m, "block0.mlp.fc1")->out.c, 2 * 28672);
	ck_assert_int_eq(model_util_layer(m, "block0.mlp.act")->kind, MODEL_SWIGLU);
	ck_assert_int_eq(model_util_layer(m, "lm_head")->tied_to, 0);
	ck_assert_int_eq(model_util_layer(m, "lm_head")->params, 32000LL * 8192);
	/* no dropout: 2 norms, qkv, core, proj, fc1, act, fc2, 2 adds */
	ck_assert_int_eq(check_blocks(m, 80), 80 * 10);
	model_free(m);
	/* Meta's rule, llama/model.py: 256 ceil(int(8 x 4096 / 3) / 256) */
	m = model_util_build("llama:layers=1,hidden=4096,heads=32,seq=8,vocab=8");
	ck_assert_int_eq(m->tf.ffn, 11008);
	model_free(m);
}
END_TEST

START_TEST(encoder_decoder_structure)
{
	struct model *m = model_util_build("transformer-base");
	const struct model_layer *cross = model_util_layer(m, "block6.cross.core");
	int embed = (int)(model_util_layer(m, "embed") - m->layers);
	int enc_out = (int)(model_util_layer(m, "block5.mlp.norm") - m->layers);

	ck_assert_int_eq(m->tf.arch, MODEL_TF_ENCODER_DECODER);
	ck_assert(m->tf.layers == 6 && m->tf.blocks == 12);
	ck_assert_int_eq(model_util_layer(m, "dec.embed")->tied_to, embed);
	ck_assert_int_eq(model_util_layer(m, "dec.embed")->params, 0);
	ck_assert_int_eq(model_util_layer(m, "lm_head")->tied_to, embed);
	/* the decoder's keys and values come from the encoder's output */
	ck_assert_int_eq(model_util_layer(m, "block11.cross.kv")->inputs[0], enc_out);
	ck_assert_int_eq(cross->n_inputs, 2);
	ck_assert(cross->kv_len == 256 && cross->causal == 0);
	ck_assert_int_eq(model_util_layer(m, "block6.attn.core")->causal, 1);
	ck_assert_int_eq(model_util_layer(m, "block0.attn.core")->causal, 0);
	/* read by the 6 decoder blocks' kv projections */
	ck_assert_int_eq(m->layers[enc_out].n_consumers, 6);
	ck_assert_int_gt(check_blocks(m, 12), 0);
	model_free(m);

	m = model_util_build("bert-base");
	ck_assert_int_eq(m->tf.arch, MODEL_TF_ENCODER);
	ck_assert_int_eq(model_util_layer(m, "embed")->pos_rows, 512);
	ck_assert_int_eq(model_util_layer(m, "embed")->type_rows, 2);
	ck_assert_int_eq(model_util_layer(m, "block0.attn.core")->causal, 0);
	ck_assert_int_eq(model_util_layer(m, "lm_head")->params, 30522);   /* bias */
	ck_assert_int_eq(m->default_batch, 16);
	model_free(m);
}
END_TEST

Suite *suite_model_transformer(void)
{
	Suite *s = suite_create("model_transformer");
	TCase *tc = tcase_create("layers");
	int n = (int)(sizeof(counts) / sizeof(counts[0]));

	tcase_add_test(tc, embedding_and_linear_by_hand);
	tcase_add_test(tc, attention_and_norms_by_hand);
	tcase_add_test(tc, unfused_attention_by_hand);
	tcase_add_test(tc, unfused_key);
	tcase_add_test(tc, activations_logits_and_loss_by_hand);
	tcase_add_test(tc, transformer_layers_refuse_bad_shapes);
	tcase_add_test(tc, elementwise_kinds_work_on_sequences);
	suite_add_tcase(s, tc);

	tc = tcase_create("families");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, preset_parameter_counts, 0, n);
	tcase_add_test(tc, published_figures);
	tcase_add_test(tc, gpt_flops_match_megatron);
	tcase_add_test(tc, llama_flops_are_six_n_d_plus_attention);
	tcase_add_test(tc, gpt2_structure);
	tcase_add_test(tc, llama_structure);
	tcase_add_test(tc, encoder_decoder_structure);
	suite_add_tcase(s, tc);
	return s;
}
