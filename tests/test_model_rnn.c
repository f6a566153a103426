/*
 * test_model_rnn.c -- recurrent layers, embedding bags and DLRM's
 * interaction (models/model_build_rnn.c, model_layer_rnn.c), Bahdanau's
 * additive attention, and the gnmt, deepspeech2 and dlrm presets
 * (model_zoo_rnn.c, model_zoo_dlrm.c).
 *
 * Layer costs use N = 2 samples and 4-byte activations and weights and
 * are worked out by hand from the counts in model_layer_rnn.c's header;
 * preset parameter counts by hand from the MLPerf reference code cited
 * in the builders, and against the published figure where there is one.
 */
#include <math.h>
#include <string.h>

#include "tests.h"
#include "cli_util.h"
#include "dlsim.h"
#include "model_util.h"
#include "models/model.h"

#define N MODEL_UTIL_BATCH
#define A MODEL_UTIL_ACT
#define WB MODEL_UTIL_WEIGHT

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */





static double depth_of(const struct model_layer *l, enum model_pass p)
{
	struct model_pass_cost c;

	model_layer_cost(l, p, N, A, WB, &c);
	return c.depth;
}

static enum model_kernel kernel_of(const struct model_layer *l,
				   enum model_pass p)
{
	struct model_pass_cost c;

	model_layer_cost(l, p, N, A, WB, &c);
	return c.kernel;
}

static void start(struct model_builder *b, int64_t c, int64_t h, int64_t w)
{
	struct model_shape in = { c, h, w };

	model_builder_init(b, "t", in, N, "test_model_rnn.c");
	ck_assert_int_eq(b->err.code, DLSIM_OK);
}

static struct model *finish(struct model_builder *b)
{
	struct dlsim_err err = { 0 };
	struct model *m = NULL;

	ck_assert_msg(model_builder_finish(b, &m, &err) == DLSIM_OK, "%s",
		      err.msg);
	return m;
}

/* One recurrent layer over an input of (c, T, w). */
static struct model *one_rnn(enum model_layer_kind k, int64_t c, int64_t T,
			     int64_t w, int64_t H, unsigned flags)
{
	struct model_builder b;

	start(&b, c, T, w);
	model_add_rnn(&b, k, MODEL_IN, "rnn", H, flags, 1);
	return finish(&b);
}

/* ---------------------------------------------------------------- */
/* Recurrent layers                                                  */
/* ---------------------------------------------------------------- */

/*
 * LSTM, I = 2, T = 3, H = 3, one direction, biases:
 *   params 4 x 3 x (2 + 3) + 2 x 4 x 3 = 60 + 24 = 84 (torch.nn.LSTM:
 *   weight_ih 12 x 2, weight_hh 12 x 3, two biases of 12)
 *   MACs per sample T G H (I + H) = 3 x 12 x 5 = 180; N = 2: 360
 *   s = N d T = 6 cell evaluations of H = 3 units
 * fwd: element-wise 6 x 3 x 38 = 684; FLOPs 720 + 684 = 1404, W 1044;
 *   bytes 4 x (x 12 + y 18 + 6 x 3 x (3 x 4 + 2) = 252) = 1128, weights
 *   4 x (12 x 2 + 3 x 12 x 3 + 24) = 624: 1752;
 *   D = ceil log2 2 + 3 x (ceil log2 3 + 7) = 1 + 27 = 28
 * dx: element-wise 6 x 3 x 23 = 414; FLOPs 1134, W 774; bytes 4 x (12 +
 *   18 + 6 x 3 x 13) + 624 = 1680; D = 3 x (ceil log2 12 + 6) + 4 = 34
 * dw: bias 6 x 12 = 72; FLOPs 792, W 432; bytes 4 x (12 + 6 x 3 x 5) +
 *   4 x 84 = 744; D = ceil log2 (2 x 3) = 3
 * Of fwd and of dx, the input GEMM of all steps (6 rows of G H = 12 by I
 *   = 2): 2 x 6 x 12 x 2 = 288 FLOPs; bytes 4 x (x or dx 12 + the gate
 *   pre-activations or their gradients 6 x 12 = 72) + 4 x weight_ih 24 =
 *   432; 4-byte rows of 2 and 12 values are off 16 bytes: class
 *   GEMM_UNALIGNED.  The recurrence is the rest.
 */
START_TEST(lstm_counts_by_hand)
{
	struct model *m = one_rnn(MODEL_LSTM, 2, 3, 1, 3, 0);
	const struct model_layer *l = model_util_layer(m, "rnn");

	ck_assert_int_eq(l->params, 84);
	ck_assert_int_eq(l->out.c, 3);
	ck_assert_int_eq(l->out.h, 3);
	ck_assert_int_eq(l->steps, 3);
	ck_assert(model_forward_macs(m) == 180.0);
	model_util_expect(l, MODEL_PASS_FWD, 1404.0, 1752.0, 1044.0, 28.0);
	model_util_expect(l, MODEL_PASS_BWD_DATA, 1134.0, 1680.0, 774.0, 34.0);
	model_util_expect(l, MODEL_PASS_BWD_WEIGHT, 792.0, 744.0, 432.0, 3.0);
	model_util_expect(l, MODEL_PASS_UPDATE, 0.0, 0.0, 0.0, 0.0);
	/* the steps are a recurrent pass each way, of the LSTM cell's class;
	 * dw one GEMM over them */
	ck_assert_int_eq(kernel_of(l, MODEL_PASS_FWD), MODEL_KERNEL_LSTM);
	ck_assert_int_eq(kernel_of(l, MODEL_PASS_BWD_DATA), MODEL_KERNEL_LSTM);
	ck_assert_int_eq(kernel_of(l, MODEL_PASS_BWD_WEIGHT),
			 MODEL_KERNEL_GEMM);
	{
		struct model_pass_cost c;
		int p;

		for (p = MODEL_PASS_FWD; p <= MODEL_PASS_BWD_DATA; p++) {
			model_layer_cost(l, p, N, A, WB, &c);
			ck_assert(c.gemm_flops == 288.0 &&
				  c.gemm_bytes == 432.0);
			ck_assert_int_eq(c.gemm_kernel,
					 MODEL_KERNEL_GEMM_UNALIGNED);
		}
		model_layer_cost(l, MODEL_PASS_BWD_WEIGHT, N, A, WB, &c);
		ck_assert(c.gemm_flops == 0.0);
	}
	/* kept: input 6 + output 9 + gates and cell 3 x 3 x (4 + 1) = 45 */
	ck_assert_int_eq(m->activation_elems, 6 + 9 + 45);
	model_free(m);
}
END_TEST

/*
 * A vanilla RNN (torch.nn.RNN, tanh), I = 2, T = 3, H = 3, one direction,
 * biases:
 *   params 1 x 3 x (2 + 3) + 2 x 3 = 21; MACs per sample T H (I + H) =
 *   3 x 3 x 5 = 45; N = 2: 90; s = 6
 * fwd: element-wise 6 x 3 x 8 = 144; FLOPs 180 + 144 = 324, W 234; bytes
 *   4 x (12 + 18 + 6 x 3 x (3 + 2)) = 480, weights 4 x (3 x 2 + 3 x 3 x
 *   3 + 6) = 156: 636; D = 1 + 3 x (ceil log2 3 + 3) = 16
 * dx: element-wise 6 x 3 x 3 = 54; FLOPs 234, W 144; bytes 4 x (12 + 18
 *   + 6 x 3 x 4) + 156 = 564; D = 3 x (ceil log2 3 + 2) + 2 = 14
 * dw: bias 6 x 3 = 18; FLOPs 198, W 108; bytes 4 x (12 + 6 x 3 x 2) +
 *   4 x 21 = 276; D = ceil log2 6 = 3
 * kept: input 6 + output 9 + gate and state 3 x 3 x (1 + 1) = 33.
 */
START_TEST(vanilla_rnn_counts_by_hand)
{
	struct model *m = one_rnn(MODEL_RNN, 2, 3, 1, 3, 0);
	const struct model_layer *l = model_util_layer(m, "rnn");

	ck_assert_int_eq(l->params, 21);
	ck_assert(model_forward_macs(m) == 45.0);
	model_util_expect(l, MODEL_PASS_FWD, 324.0, 636.0, 234.0, 16.0);
	model_util_expect(l, MODEL_PASS_BWD_DATA, 234.0, 564.0, 144.0, 14.0);
	model_util_expect(l, MODEL_PASS_BWD_WEIGHT, 198.0, 276.0, 108.0, 3.0);
	ck_assert_int_eq(m->activation_elems, 6 + 9 + 18);
	ck_assert_str_eq(model_layer_kind_name(l->kind), "rnn");
	model_free(m);
}
END_TEST

/*
 * GRU, I = 2, T = 3, H = 3, bidirectional, biases:
 *   params 2 x (3 x 3 x 5 + 2 x 9) = 2 x 63 = 126; out (6, 3, 1)
 *   MACs per sample d T G H (I + H) = 2 x 3 x 9 x 5 = 270; N = 2: 540
 *   s = 2 x 2 x 3 = 12
 * fwd: element-wise 12 x 3 x 27 = 972; FLOPs 1080 + 972 = 2052, W 1512;
 *   bytes 4 x (12 + 36 + 12 x 3 x (3 x 3 + 2)) = 1776, weights 4 x 2 x
 *   (9 x 2 + 3 x 9 x 3 + 18) = 936: 2712; D = 1 + 3 x (2 + 8) = 31
 * Summed directions (H = 3 out): + N T H = 18 adds (2070, W 1530), bytes
 *   4 x (12 + 18 + 12 x 3 x 13) + 936 = 2928, D 32; 126 params still.
 * Input GEMM, both ways alike: a direction's N T = 6 rows of G H = 9 by
 *   I = 2, twice: 2 x 2 x 6 x 9 x 2 = 432 FLOPs; bytes 4 x (x 12, read
 *   once + the pre-activations 2 x 6 x 9 = 108) + 4 x weight_ih 2 x 9 x
 *   2 = 36: 624.
 * A bidirectional LSTM of I = H = 4 over T = 1 step: a direction's GEMM
 *   is N T = 2 rows (not a whole 16 bytes of fp32: class GEMM_UNALIGNED)
 *   of G H = 16 by 4, though both directions' rows together would be 4.
 */
START_TEST(gru_bidirectional_counts_by_hand)
{
	const unsigned bi = MODEL_LAYER_BIDIRECTIONAL;
	struct model *m = one_rnn(MODEL_GRU, 2, 3, 1, 3, bi);
	const struct model_layer *l = model_util_layer(m, "rnn");

	ck_assert_int_eq(l->params, 126);
	ck_assert_int_eq(l->out.c, 6);
	ck_assert(model_forward_macs(m) == 270.0);
	model_util_expect(l, MODEL_PASS_FWD, 2052.0, 2712.0, 1512.0, 31.0);
	/* kept: 2 x 3 x 3 x (3 + 1) = 72 besides the 18 of the output */
	ck_assert_int_eq(m->activation_elems, 6 + 18 + 72);
	model_free(m);

	m = one_rnn(MODEL_GRU, 2, 3, 1, 3,
		    bi | MODEL_LAYER_SUM_DIRECTIONS);
	l = model_util_layer(m, "rnn");
	ck_assert_int_eq(l->params, 126);
	ck_assert_int_eq(l->out.c, 3);
	model_util_expect(l, MODEL_PASS_FWD, 2070.0, 2928.0, 1530.0, 32.0);
	/* each direction's h is kept too: 2 x 3 x 3 x 5 = 90 */
	ck_assert_int_eq(m->activation_elems, 6 + 9 + 90);
	{
		struct model_pass_cost c;

		model_layer_cost(l, MODEL_PASS_FWD, N, A, WB, &c);
		ck_assert(c.gemm_flops == 432.0 && c.gemm_bytes == 624.0);
		model_free(m);
		m = one_rnn(MODEL_GRU, 2, 3, 1, 3, bi);
		model_layer_cost(model_util_layer(m, "rnn"),
				 MODEL_PASS_BWD_DATA, N, A, WB, &c);
		ck_assert(c.gemm_flops == 432.0 && c.gemm_bytes == 624.0);
		model_free(m);
		m = one_rnn(MODEL_LSTM, 4, 1, 1, 4, bi);
		model_layer_cost(model_util_layer(m, "rnn"), MODEL_PASS_FWD,
				 N, A, WB, &c);
		ck_assert_int_eq(c.gemm_kernel, MODEL_KERNEL_GEMM_UNALIGNED);
	}
	model_free(m);
}
END_TEST

/* The input's h is time; c x w are the features of a step (a conv's
 * output feeds a recurrent layer directly). */
START_TEST(rnn_reads_c_times_w_features_per_step)
{
	/* LSTM(I = 2 x 2, H = 1): 4 x 1 x 5 + 8 = 28 */
	struct model *m = one_rnn(MODEL_LSTM, 2, 5, 2, 1, 0);
	const struct model_layer *l = model_util_layer(m, "rnn");

	ck_assert_int_eq(l->params, 28);
	ck_assert_int_eq(l->steps, 5);
	ck_assert(model_forward_macs(m) == 5.0 * 4.0 * 5.0);
	model_free(m);
}
END_TEST

/*
 * Depth grows linearly with T: each step waits for the one before.
 * LSTM(I = 2, H = 3): fwd D(T) = 1 + 9 T, dx D(T) = 10 T + 4; so D(10) -
 * D(1) = 9 steps' worth, and D(10) is 10 D(1) less 9 times the constant.
 * Work grows linearly too, while a GEMM of the same work would be
 * ceil log2 I deep.
 */
START_TEST(rnn_depth_grows_linearly_with_steps)
{
	struct model *m1 = one_rnn(MODEL_LSTM, 2, 1, 1, 3, 0);
	struct model *m10 = one_rnn(MODEL_LSTM, 2, 10, 1, 3, 0);
	const struct model_layer *a = model_util_layer(m1, "rnn");
	const struct model_layer *b = model_util_layer(m10, "rnn");
	double f1 = depth_of(a, MODEL_PASS_FWD);
	double f10 = depth_of(b, MODEL_PASS_FWD);
	double d1 = depth_of(a, MODEL_PASS_BWD_DATA);
	double d10 = depth_of(b, MODEL_PASS_BWD_DATA);

	ck_assert(f1 == 10.0 && f10 == 91.0);
	ck_assert(f10 - f1 == 9.0 * 9.0);
	ck_assert(fabs(f10 - 10.0 * f1) <= 9.0 * 1.0);
	ck_assert(d1 == 14.0 && d10 == 104.0);
	ck_assert(d10 - d1 == 9.0 * 10.0);
	ck_assert(fabs(d10 - 10.0 * d1) <= 9.0 * 4.0);
	/* dw is one GEMM over all steps: ceil log2 (N T) */
	ck_assert(depth_of(b, MODEL_PASS_BWD_WEIGHT) == 5.0);
	ck_assert_int_eq(a->steps, 1);
	ck_assert_int_eq(b->steps, 10);
	/* the simulator charges the T dependent steps of fwd and dx, two
	 * kernels each (GEMM, element-wise), and the input GEMM of all the
	 * steps, one kernel more; one for dw (model_pass_cost.launches) */
	{
		struct model_pass_cost c;

		model_layer_cost(b, MODEL_PASS_FWD, N, A, WB, &c);
		ck_assert(c.launches == 21.0);
		model_layer_cost(b, MODEL_PASS_BWD_DATA, N, A, WB, &c);
		ck_assert(c.launches == 21.0);
		model_layer_cost(b, MODEL_PASS_BWD_WEIGHT, N, A, WB, &c);
		ck_assert(c.launches == 0.0);
	}
	model_free(m1);
	model_free(m10);
}
END_TEST

START_TEST(rnn_refuses_bad_arguments)
{
	struct model_builder b;

	start(&b, 2, 3, 1);
	ck_assert_int_eq(model_add_rnn(&b, MODEL_LSTM, MODEL_IN, "r", 0, 0,
				       1), -1);
	ck_assert_ptr_nonnull(strstr(b.err.msg, "'r': lstm needs a positive "
				     "hidden size (got 0)"));
	model_free(b.m);
	start(&b, 2, 3, 1);
	model_add_rnn(&b, MODEL_GRU, MODEL_IN, "r", 3,
		      MODEL_LAYER_SUM_DIRECTIONS, 1);
	ck_assert_int_eq(b.err.code, DLSIM_EINVAL);
	model_free(b.m);
	start(&b, 2, 3, 1);
	model_add_rnn(&b, MODEL_RELU, MODEL_IN, "r", 3, 0, 1);
	ck_assert_int_eq(b.err.code, DLSIM_EINVAL);
	model_free(b.m);
	/* 2^27 x (2^27 + 2^27) x 4 gates passes 2^53 */
	start(&b, (int64_t)1 << 27, 1, 1);
	model_add_rnn(&b, MODEL_LSTM, MODEL_IN, "r", (int64_t)1 << 27, 0, 1);
	ck_assert_int_eq(b.err.code, DLSIM_ERANGE);
	model_free(b.m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Embedding bags and the interaction                                */
/* ---------------------------------------------------------------- */

/*
 * A 10 x 4 table, 3 lookups per sample, N = 2:
 * fwd: 2 x 4 outputs, each the sum of 3 rows: 8 x 2 = 16 adds; bytes:
 *   6 ids x 8 = 48, 6 rows x 4 x 4 = 96, 8 outputs x 4 = 32: 176;
 *   D = ceil log2 3 = 2
 * dw: 6 x 4 = 24 scatter-adds; dy 32 + ids 48 + 24 gradient values x 4 =
 *   96: 176; D = ceil log2 6 = 3.  No dx.  Vector kernel.
 */
START_TEST(embedding_bag_counts_by_hand)
{
	struct model_builder b;
	struct model *m;
	const struct model_layer *l;

	start(&b, 13, 1, 1);
	model_add_embedding_bag(&b, MODEL_IN, "bag", 10, 4, 3,
				MODEL_LAYER_HOST_CANDIDATE);
	model_add_embedding_bag(&b, MODEL_IN, "one", 10, 4, 1, 0);
	m = finish(&b);
	l = model_util_layer(m, "bag");
	ck_assert_int_eq(l->params, 40);
	ck_assert(l->flags & MODEL_LAYER_HOST_CANDIDATE);
	ck_assert(!(model_util_layer(m, "one")->flags & MODEL_LAYER_HOST_CANDIDATE));
	model_util_expect(l, MODEL_PASS_FWD, 16.0, 176.0, 16.0, 2.0);
	model_util_expect(l, MODEL_PASS_BWD_DATA, 0.0, 0.0, 0.0, 0.0);
	model_util_expect(l, MODEL_PASS_BWD_WEIGHT, 24.0, 176.0, 24.0, 3.0);
	ck_assert_int_eq(kernel_of(l, MODEL_PASS_FWD), MODEL_KERNEL_VECTOR);
	/* one row per sample: a gather, no adds, D = 1 */
	model_util_expect(model_util_layer(m, "one"), MODEL_PASS_FWD, 0.0, 16.0 + 32.0 + 32.0,
	       0.0, 1.0);
	model_free(m);

	start(&b, 13, 1, 1);
	model_add_embedding_bag(&b, MODEL_IN, "bag", 10, 4, 0, 0);
	ck_assert_int_eq(b.err.code, DLSIM_EINVAL);
	model_free(b.m);
}
END_TEST

/*
 * k = 3 vectors of D = 4: P = 3 pairs, output 4 + 3 = 7.
 * fwd: 3 x 4 = 12 MACs per sample, 24 for N = 2: 48 FLOPs; bytes 4 x
 *   (24 in + 14 out) = 152; D = ceil log2 4 = 2
 * dx: 48 MACs and the copy's 8 adds: 104 FLOPs, W 56; bytes 4 x (14 dy +
 *   24 kept + 24 dx) = 248; D = ceil log2 3 = 2
 */
START_TEST(interaction_counts_by_hand)
{
	struct model_builder b;
	struct model *m;
	const struct model_layer *l;
	int in[3];

	start(&b, 4, 1, 1);
	in[0] = MODEL_IN;
	in[1] = model_add_fc(&b, MODEL_IN, "a", 4, 0);
	in[2] = model_add_fc(&b, MODEL_IN, "b", 4, 0);
	model_add_interaction(&b, 3, in, "dot");
	m = finish(&b);
	l = model_util_layer(m, "dot");
	ck_assert_int_eq(l->out.c, 7);
	ck_assert_int_eq(l->params, 0);
	ck_assert_int_eq(l->n_inputs, 3);
	model_util_expect(l, MODEL_PASS_FWD, 48.0, 152.0, 24.0, 2.0);
	model_util_expect(l, MODEL_PASS_BWD_DATA, 104.0, 248.0, 56.0, 2.0);
	model_util_expect(l, MODEL_PASS_BWD_WEIGHT, 0.0, 0.0, 0.0, 0.0);
	/* fc a, fc b: 16 MACs each */
	ck_assert(model_forward_macs(m) == 12.0 + 32.0);
	model_free(m);

	/* vectors of unequal width */
	start(&b, 4, 1, 1);
	in[1] = model_add_fc(&b, MODEL_IN, "a", 5, 0);
	model_add_interaction(&b, 2, in, "dot");
	ck_assert_ptr_nonnull(strstr(b.err.msg, "input 1 is not a vector "
				     "of 4"));
	model_free(b.m);
}
END_TEST

/*
 * Bahdanau attention, S = 3 tokens of H = 2 (one head, d = 2):
 *   params d + 1 = 3; MACs 2 x 2 x 3 x 3 = 36 per sample, 72 for N = 2
 *   score values e = 2 x 2 x 3 x 3 = 36
 * fwd: 144 + 6 e = 360 FLOPs, W 72 + 216 = 288; bytes 4 x (2 x 18 in + 12
 *   out) + 4 x 4 e = 192 + 576 = 768; D = 1 + 2 x 2 + 2 = 7
 * dx: 288 + 8 e = 576, W 144 + 288 = 432; bytes 384 + 4 x 3 e = 816; D 7
 * kept: the tanh, 2 x 3 x 3 = 18 values per sample
 */
START_TEST(additive_attention_counts_by_hand)
{
	struct model_builder b;
	struct model *m;
	const struct model_layer *l;
	struct model_shape ids = { 1, 3, 1 };
	int x, q, kv[2];

	model_builder_init(&b, "t", ids, N, "test_model_rnn.c");
	x = model_add_embedding(&b, MODEL_IN, "embed", 5, 2, 0, 0, 0);
	q = model_add_linear(&b, x, "q", 2, 1, 0);
	kv[0] = model_add_linear(&b, x, "k", 2, 0, 0);
	kv[1] = x;
	model_add_additive_attention(&b, q, model_add_merge(&b, MODEL_CONCAT,
							   2, kv, "kv"),
				     "core");
	m = finish(&b);
	l = model_util_layer(m, "core");
	ck_assert_int_eq(l->params, 3);
	ck_assert_int_eq(l->kv_len, 3);
	model_util_expect(l, MODEL_PASS_FWD, 360.0, 768.0, 288.0, 7.0);
	model_util_expect(l, MODEL_PASS_BWD_DATA, 576.0, 816.0, 432.0, 7.0);
	ck_assert_int_eq(model_layer_saved_elems(l), 18);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Presets                                                           */
/* ---------------------------------------------------------------- */

/*
 * gnmt, H = 1024, V = 32,320, L = 4 (model_zoo_rnn.c):
 *   embedding V H                                  33,095,680
 *   encoder  bidirectional LSTM(H, H): 2 x (4H x 2H + 8H) = 16,793,600;
 *            LSTM(2H, H): 4H x 3H + 8H = 12,591,104;
 *            2 x LSTM(H, H) = 2 x 8,396,800         46,178,304
 *   decoder  LSTM(H, H) 8,396,800; attention: q H^2 + H = 1,049,600,
 *            k H^2 = 1,048,576, v and g H + 1 = 1,025;
 *            3 x LSTM(2H, H) = 37,773,312           48,269,313
 *   classifier H V + V                             33,128,000
 *   total                                         160,671,297
 * the figure NVIDIA's MLPerf GNMT code and MLBench quote for the
 * reference.  Forward MACs per sample: 50 tokens x (2 x 46,137,344 LSTM
 * + 2 H^2 + H V) + the attention's 2 H S^2 = 6,373,376,000 + 5,120,000.
 *
 * deepspeech2, H = 800, 5 layers (speech_recognition/pytorch/model.py):
 *   conv1 32 x 41 x 11 + 32 = 14,464; conv2 32 x 32 x 21 x 11 + 32 =
 *   236,576; their batch norms 2 x 64; GRU 0 (I = 672) 2 x (2400 x 1472 +
 *   4800) = 7,075,200; GRUs 1-4 (I = 800) 4 x 2 x (2400 x 1600 + 4800) =
 *   30,758,400 and their batch norms 4 x 1600; the head's batch norm 1600
 *   and linear 800 x 29 = 23,200: 38,115,968.
 *
 * dlrm (model_zoo_dlrm.c): 26 tables of 187,767,399 rows in all x 128 =
 *   24,034,227,072 (the research notes' "about 24.03e9"); bottom MLP
 *   13 x 512 + 512 + 512 x 256 + 256 + 256 x 128 + 128 = 171,392; top
 *   MLP 479 x 1024 + 1024 + 1024 x 1024 + 1024 + 1024 x 512 + 512 +
 *   512 x 256 + 256 + 256 + 1 = 2,197,505: 24,036,595,969.
 */
START_TEST(preset_parameter_counts_by_hand)
{
	struct model *m = model_util_build("gnmt");
	int64_t rows = 0;
	int i, bags = 0;

	ck_assert_int_eq(m->params, 160671297);
	ck_assert(model_forward_macs(m) == 6373376000.0 + 5120000.0);
	model_free(m);

	m = model_util_build("deepspeech2");
	ck_assert_int_eq(m->params, 38115968);
	model_free(m);

	m = model_util_build("dlrm");
	ck_assert_int_eq(m->params, 24036595969LL);
	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];

		if (l->kind != MODEL_EMBEDDING_BAG)
			continue;
		bags++;
		rows += l->vocab;
		ck_assert(l->flags & MODEL_LAYER_HOST_CANDIDATE);
		ck_assert_int_eq(l->lookups, 1);
	}
	ck_assert_int_eq(bags, 26);
	ck_assert_int_eq(rows, 187767399);
	ck_assert_int_eq(rows * 128, 24034227072LL);
	ck_assert_rel((double)(rows * 128), 24.03e9, 0.001);
	/* bottom 170,496 + interaction 351 x 128 + top 2,194,688 */
	ck_assert(model_forward_macs(m) == 170496.0 + 44928.0 + 2194688.0);
	ck_assert_int_eq(model_util_layer(m, "interaction")->out.c, 479);
	ck_assert_int_eq(m->default_batch, 2048);
	model_free(m);
}
END_TEST

/* The reference architectures' shapes and batches. */
START_TEST(preset_structure)
{
	struct model *m = model_util_build("gnmt");
	const struct model_layer *l = model_util_layer(m, "enc.lstm0");

	ck_assert(l->flags & MODEL_LAYER_BIDIRECTIONAL);
	ck_assert_int_eq(l->out.c, 2048);
	ck_assert_int_eq(l->steps, 50);
	ck_assert_int_eq(model_util_layer(m, "enc.lstm1")->in.c, 2048);
	ck_assert_int_eq(model_util_layer(m, "dec.lstm1")->in.c, 2048);
	ck_assert_int_eq(model_util_layer(m, "dec.embed")->tied_to, 1);
	ck_assert(model_util_layer(m, "dec.attn.core")->flags & MODEL_LAYER_ADDITIVE);
	ck_assert_int_eq(m->default_batch, 128);
	ck_assert_int_eq(m->layers[m->n_layers - 1].kind, MODEL_SOFTMAX_XENT);
	model_free(m);

	/* 1500 frames: (1500 - 11) / 2 + 1 = 745, then 745 - 10 = 735 GRU
	 * steps of 32 x 21 = 672 features; 161 bins -> 61 -> 21 */
	m = model_util_build("deepspeech2");
	ck_assert_int_eq(model_util_layer(m, "conv2")->out.h, 735);
	ck_assert_int_eq(model_util_layer(m, "conv2")->out.w, 21);
	l = model_util_layer(m, "gru0");
	ck_assert_int_eq(l->steps, 735);
	ck_assert_int_eq(l->out.c, 800);
	ck_assert(l->flags & MODEL_LAYER_SUM_DIRECTIONS);
	ck_assert_int_eq(model_util_layer(m, "fc")->out.c, 29);
	ck_assert_int_eq(m->default_batch, 5);
	model_free(m);
}
END_TEST

/* NAME:key=value works on the new families like on the transformers. */
START_TEST(preset_keys_override)
{
	struct model *m = model_util_build("gnmt:seq=30,layers=2,hidden=64,vocab=100");
	const struct model_layer *l = model_util_layer(m, "enc.lstm1");

	/* 64: embed 6,400; enc 2 x (4 x 64 x 128 + 512) + 4 x 64 x 192 +
	 * 512 = 66,560 + 49,664; dec LSTM 33,280, q 4,160, k 4,096, v g 65,
	 * LSTM(128, 64) 49,664; classifier 6,500: 220,389 */
	ck_assert_int_eq(m->params, 220389);
	ck_assert_int_eq(l->steps, 30);
	model_free(m);
	m = model_util_build("deepspeech2:layers=1,hidden=8,seq=31");
	/* 31 frames: 11, then 1 step */
	ck_assert_int_eq(model_util_layer(m, "gru0")->steps, 1);
	model_free(m);
	m = model_util_build("dlrm:dim=16");
	ck_assert_int_eq(model_util_layer(m, "interaction")->out.c, 16 + 351);
	ck_assert_int_eq(model_util_layer(m, "emb0")->params, 39884406LL * 16);
	model_free(m);

	model_util_build_fails("gnmt:layers=1", DLSIM_ERANGE, "'layers' must be at "
		    "least 2");
	model_util_build_fails("gnmt:heads=4", DLSIM_EINVAL, "unknown key 'heads'");
	model_util_build_fails("deepspeech2:seq=30", DLSIM_ERANGE, "'seq' must be at "
		    "least 31");
	model_util_build_fails("dlrm:vocab=3", DLSIM_EINVAL, "unknown key 'vocab'");
}
END_TEST

/* The CLI builds and predicts the presets. */
START_TEST(presets_predict_from_the_cli)
{
	struct run r;

	run(&r, "predict gnmt:layers=2,hidden=64,seq=8,vocab=100 --hw v100");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "step time"));
	run(&r, "models show dlrm --format json");
	ck_assert_int_eq(r.status, 0);
	ck_assert(json_valid(r.out));
	ck_assert_ptr_nonnull(strstr(r.out, "\"embedding_bag\""));
	ck_assert_ptr_nonnull(strstr(r.out, "\"interaction\""));
}
END_TEST

Suite *suite_model_rnn(void)
{
	Suite *s = suite_create("model_rnn");
	TCase *tc = tcase_create("layers");

	tcase_add_test(tc, lstm_counts_by_hand);
	tcase_add_test(tc, vanilla_rnn_counts_by_hand);
	tcase_add_test(tc, gru_bidirectional_counts_by_hand);
	tcase_add_test(tc, rnn_reads_c_times_w_features_per_step);
	tcase_add_test(tc, rnn_depth_grows_linearly_with_steps);
	tcase_add_test(tc, rnn_refuses_bad_arguments);
	tcase_add_test(tc, embedding_bag_counts_by_hand);
	tcase_add_test(tc, interaction_counts_by_hand);
	tcase_add_test(tc, additive_attention_counts_by_hand);
	suite_add_tcase(s, tc);

	tc = tcase_create("presets");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, preset_parameter_counts_by_hand);
	tcase_add_test(tc, preset_structure);
	tcase_add_test(tc, preset_keys_override);
	tcase_add_test(tc, presets_predict_from_the_cli);
	suite_add_tcase(s, tc);
	return s;
}
