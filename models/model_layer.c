/*
 * model_layer.c -- what one pass of one layer costs: FLOPs, bytes moved to
 * and from device memory, and work and depth.
 *
 * HOW IT COUNTS
 *
 * Work W and depth D follow Ben-Nun & Hoefler, "Demystifying Parallel and
 * Distributed Deep Learning" (shared/seeds/002, Sec. 3.2, Tables 4 and 6;
 * extract: shared/reference/seed-002-benNun-hoefler.md sections 2.3, 2.5):
 * W counts one multiply-accumulate as one operation, D is the longest
 * chain, and a reduction over n values has depth ceil(log2 n).
 *   conv2d y, dw, dx  W = N C_out H' W' (C_in/g) K_y K_x
 *                     D(y) = ceil log2(C_in/g) + ceil log2 K_y
 *                            + ceil log2 K_x               (Table 6)
 *                     D(dx) sums over C_out/g instead of C_in/g (the
 *                     reduction dx really performs; Table 4 prints C_in);
 *                     D(dw) = ceil log2(N H' W'), the batch and spatial
 *                     reduction of the weight gradient.
 *   fc y, dw, dx      W = N C_in C_out; D = ceil log2 C_in, ceil log2 N,
 *                     ceil log2 C_out                      (Table 4)
 *   pooling y         W = N C H' W' (K_y K_x - 1) comparisons or adds;
 *                     D = ceil log2 K_y + ceil log2 K_x     (Table 4)
 *   element-wise      W = elements x the operations per value listed
 *                     below (Table 4 gives O(NCHW)), D = 1
 *   batch norm        reductions over N H W: D = ceil log2(N H W)
 *
 * Kernel class: which of the classes the simulator times apart a conv2d,
 * fc or linear pass runs (its window, its alignment) is model_kernel.c's
 * rule, shared with the calibration and the kernel validation.
 *
 * TRANSFORMER LAYERS
 *
 * Per sample a sequence is (c, S, 1); n is the batch, e the values of a
 * pass's tensor for the whole batch, H a token's width.
 *   linear      fc's counts with S tokens: MACs S Hin Hout; dx and dw as
 *               fc's (GEMMs), D(dw) = ceil log2(n S).
 *   attention   A heads of width d, S queries, S_kv keys: MACs
 *               2 A d S S_kv (Q K^T, then P V), so forward FLOPs are
 *               4 S^2 H per sample, the attention term of Narayanan et
 *               al. 2021 ("Efficient Large-Scale Language Model Training
 *               on GPU Clusters Using Megatron-LM", SC21, Sec. 5.1 and
 *               App.), which counts the full S x S also for causal masks,
 *               as dlsim does.  dx is twice the forward (dP = dO V^T,
 *               dV = P^T dO, dS K, dS^T Q), no dw.  Kernel GEMM.  The
 *               softmax's element-wise work (scale, max, exp, sum,
 *               divide: about 5 A S S_kv) is NOT counted: a fused
 *               attention kernel does it on the tiles the matmuls leave
 *               on chip, and Megatron's formula leaves it out; it is
 *               5 / (4 d) of the matmul FLOPs (1% at d = 128).  Bytes are
 *               those of one fused kernel, as FlashAttention (Dao et al.,
 *               NeurIPS 2022) runs it: forward reads Q, K, V and writes O;
 *               backward reads Q, K, V, O and dO and writes dQ, dK, dV.
 *               No S x S matrix reaches memory or is kept.  D(y) =
 *               ceil log2 d + 2 ceil log2 S_kv (dot product, softmax sum,
 *               P V sum); D(dx) adds the longer of the S and S_kv sums to
 *               ceil log2 d + ceil log2 S_kv.  On 4-byte values a
 *               fused one is MODEL_KERNEL_ATTENTION_F32 (dlsim.h): no
 *               fused kernel takes TF32's shortcut.
 *               Additive (Bahdanau et al. 2015, "Neural Machine
 *               Translation by Jointly Learning to Align and
 *               Translate", App. A.1.2; GNMT): score = v . tanh(q + k),
 *               with the same 2 A d S S_kv MACs (v's dot product, then
 *               P V) and, per score value (A d S S_kv of them), forward
 *               6 FLOPs (q + k, tanh) and 4 values moved (the sum and the
 *               tanh written and read, as the MLPerf reference's
 *               PyTorch code materialises them), dx 8 (v times ds, 1 -
 *               t^2 (2), their product, into dq and dk, v's and g's
 *               gradient (2)) and 3 values (the kept tanh, d(q + k)
 *               written and read); D + 2 in each.  v and g's gradient is
 *               counted with dx: the layer has no dw pass of its own.
 *   embedding   a gather: forward reads n S token ids (8 bytes, int64 as
 *               torch.nn.Embedding takes them) and t rows per token (t =
 *               the tables summed: tokens, + positions, + token types),
 *               adds them (t - 1 FLOPs per value; D = 1, 2 for three
 *               tables) and writes the output.
 *               No dx (ids have no gradient).  dw is a scatter-add: t
 *               adds per output value; it reads dy and the ids and
 *               writes the dense gradient of the whole table once
 *               (PyTorch's embedding_dense_backward); D = ceil log2(n S),
 *               a row that every token hits.  Vector kernel.
 *   layer norm  per value: forward 8 (as batch norm's), dx 10 (gamma dy,
 *               xhat again (2), the two means (1 + 2), then
 *               rstd (g - m1 - xhat m2) (4)), dw 5 (as batch norm's).
 *               Each token's statistics fit on chip, so x is read once.
 *   RMSNorm     forward 4 (square, sum, scale, gamma), dx 7 (xhat, gamma
 *               dy, mean of their product (2), rrms (g - xhat m) (3)),
 *               dw 3 (xhat, multiply, sum).  Norms: D(y), D(dx) =
 *               ceil log2 H; D(dw) = ceil log2(n S).  The per-token
 *               rsqrt and the saved statistics (1/H of the values) are
 *               not counted.
 *   GELU        tanh form (Hendrycks & Gimpel 2016), per value: forward
 *               13 (x^3 (2), times c, plus x, times k, tanh (5, as
 *               tanh's), plus 1, times x, times 0.5), backward 22 (the
 *               inner polynomial again (5), tanh (5), 0.5(1 + t) (2),
 *               k(1 + 3c x^2) (3), 0.5 x (1 - t^2) (4), combine (2), times
 *               dy (1)); backward reads dy and x and writes dx.
 *   SwiGLU      y = silu(g) u (Shazeer 2020), per output value: forward
 *               6 (sigmoid (4, as sigmoid's), times g, times u); backward
 *               12 (sigmoid (4), silu (1), dy u (1), silu' = s(1 +
 *               g(1 - s)) (4), dg (1), du (1)), reading dy, g and u,
 *               writing dg and du.
 *   softmax with cross-entropy: each of the h x w positions (tokens) is
 *               one softmax over c classes, so the log is per token and
 *               D = 2 ceil log2 c; for a CNN (1 x 1) it is per sample.
 *               It reads its logits and writes its probabilities (2 a
 *               bytes a value each way) at fp32 and wider; with 16- or
 *               8-bit activations the softmax still runs in fp32, the
 *               logits cast up and the gradient cast back (12 + a bytes
 *               a value each way): PyTorch's autocast runs cross_entropy,
 *               log_softmax and nll_loss in float32 (docs, Automatic
 *               Mixed Precision, autocast op reference), Megatron-LM's
 *               GPT casts its logits with output.float() before its
 *               cross-entropy, and Hugging Face's models do the same
 *               (data/measurements/h100/profile.txt: GPT-2's softmax
 *               kernels are float ones, 8.6 ms of its 131 at batch 16).
 *               It took vtrain's median from 7.9% to 7.6% and dle_bert's
 *               P90 from 55.5% to 52.1%; korthikanti's rose from 9.06% to
 *               9.18%.
 *
 * Recurrent layers (lstm, gru), embedding bags and DLRM's interaction are
 * costed in model_layer_rnn.c.
 *
 * Gradient accumulation (model_grad_accum_cost): when k > 1 layers read
 * one output, its gradient is the sum of the k gradients they send back;
 * autograd adds them as they arrive, k - 1 element-wise adds over the
 * output, each reading two tensors and writing one (D = ceil log2 k if
 * done as a tree).  The add layer's own backward is free (below), so this
 * is where a residual connection's backward cost lives.
 *
 * FLOPs count a multiply-add as 2 (the convention of vendor peaks and of
 * torchvision's "GFLOPS" column, which in fact lists multiply-adds: so
 * dlsim's forward FLOPs of resnet50 are 2 x 4.09 G).  Element-wise FLOPs
 * per value are dlsim's own operation counts, written next to each case.
 *
 * Bytes assume every layer reads its inputs and weights from device memory
 * and writes its outputs once (no fusion, no cache reuse between layers):
 * the unfused framework execution the seeds describe (shared/reference/
 * seed-000-004-lim-banerjee.md, "a fusion flag ... removes intermediate
 * tensor round-trips", listed as a refinement).
 *
 * LIMITATIONS
 * - The update pass is costed by the simulator, which knows the optimizer.
 * - A grouped convolution is vector work below 8 input channels a group
 *   and dense above (model_kernel.c); ResNeXt's 4 to 32 a group straddle
 *   that line and no shipped measurement times such a layer.
 * - Concatenation's backward and the add's backward are views in
 *   PyTorch (torch.cat backward narrows, add passes the gradient on), so
 *   they cost nothing here.
 * - Max pooling's backward reads the saved input to find the maxima
 *   rather than an index tensor; the byte count is the same order.
 * - Attention is costed as FlashAttention runs it, except that its
 *   backward's recomputation of Q K^T (0.5x the forward more) and its
 *   saving of about half the work under a causal mask are not counted:
 *   the FLOPs are Megatron's.  An unfused attention that writes the
 *   A S S_kv scores (several reads and writes of them, and keeps them)
 *   moves far more bytes than this count.
 */
#include <math.h>
#include <string.h>

#include "model.h"
#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Names                                                             */
/* ---------------------------------------------------------------- */

static const char *const kind_names[] = {
	"input", "conv2d", "fc", "maxpool", "avgpool", "globalpool",
	"batchnorm", "lrn", "relu", "sigmoid", "tanh", "add", "concat",
	"dropout", "flatten", "softmax_xent", "embedding", "linear",
	"attention", "layernorm", "rmsnorm", "gelu", "swiglu", "lstm", "gru",
	"rnn", "embedding_bag", "interaction", NULL
};

static const char *const pass_names[] = {
	"fwd", "bwd_data", "bwd_weight", "update", NULL
};

const char *model_layer_kind_name(enum model_layer_kind k)
{
	if ((int)k < 0 || k >= MODEL_LAYER_KIND_COUNT)
		return NULL;
	return kind_names[k];
}

const char *model_pass_name(enum model_pass p)
{
	if ((int)p < 0 || p >= MODEL_PASS_COUNT)
		return NULL;
	return pass_names[p];
}

/* Index of a kind by name; -1 if unknown (used by the YAML loader). */
int model_layer_kind_parse(const char *name)
{
	return core_name_index(kind_names, name);
}

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static double elems(struct model_shape s)
{
	return (double)s.c * (double)s.h * (double)s.w;
}

/* Multiply-accumulates of a conv2d, fc, linear, attention, recurrent
 * layer or interaction for one sample (linear: in_elems = S Hin). */
static double macs_per_sample(const struct model_layer *l)
{
	if (model_rnn_gates(l->kind) || l->kind == MODEL_INTERACTION)
		return model_rnn_macs(l);
	if (l->kind == MODEL_CONV2D)
		return elems(l->out) * (double)(l->in.c / l->groups) *
		       (double)l->kernel_h * (double)l->kernel_w;
	if (l->kind == MODEL_FC || l->kind == MODEL_LINEAR)
		return (double)l->in_elems * (double)l->out.c;
	if (l->kind == MODEL_ATTENTION)
		return 2.0 * (double)l->heads * (double)l->head_dim *
		       (double)l->out.h * (double)l->kv_len;
	return 0.0;
}

/* ---------------------------------------------------------------- */
/* Derived facts (model_builder_finish)                              */
/* ---------------------------------------------------------------- */

/*
 * A matrix layer's kernel class, the channel padding of its 16-bit
 * passes and its window's depth follow from its shape alone, and the
 * rules that give them (model_kernel.c) cost a few hundred instructions
 * a layer: fixed here once, not on each of a prediction's passes
 * (resnet50 on v100x64, bench_predict under callgrind: 210.5k
 * instructions a prediction to 184.8k).  The rule that depends on the
 * batch, a GEMM's alignment over its rows, stays in cost_matrix.
 */
void model_layer_derive(struct model_layer *l)
{
	double cin = l->groups > 0 ? (double)(l->in.c / l->groups) : 0.0;

	l->macs = macs_per_sample(l);
	l->window_depth = core_ceil_log2((double)l->kernel_h) +
			  core_ceil_log2((double)l->kernel_w);
	l->matrix_kernel = MODEL_KERNEL_VECTOR;
	l->channel_pad16 = 0.0;
	if (l->kind == MODEL_FC || l->kind == MODEL_LINEAR)
		l->matrix_kernel = MODEL_KERNEL_GEMM;
	if (l->kind != MODEL_CONV2D)
		return;
	if (l->groups > 1 && model_conv_grouped_vector(cin, l->groups))
		return;                            /* model_kernel.c */
	l->matrix_kernel = model_conv_class((double)l->kernel_h,
					    (double)l->kernel_w,
					    (double)l->stride_h,
					    (double)l->stride_w,
					    (double)l->dilation);
	/* a group's channels, as its kernels load them (16 bits only) */
	l->channel_pad16 = model_conv_channel_pad(cin, 2);
}

/* Weight values a pass reads: a tied linear reads the table it borrows
 * (and its own bias). */
static double weight_elems(const struct model_layer *l)
{
	if (l->kind == MODEL_LINEAR && l->tied_to > 0)
		return (double)l->in.c * (double)l->out.c +
		       (l->has_bias ? (double)l->out.c : 0.0);
	return (double)l->params;
}

/*
 * A dense convolution's bias is a kernel of its own: cuDNN's convolution
 * takes none (cudnnConvolutionForward computes y = w * x), so the stacks
 * dlsim models add it after (cudnnAddTensor in Caffe's and Torch7's
 * cuDNN layers and PyTorch's, TensorFlow's BiasAdd op) and take its
 * gradient apart (cudnnConvolutionBackwardBias, TensorFlow's
 * BiasAddGrad).  Forward reads and writes the output once more, the
 * weight pass reads dy once more; each reads or writes the K values (in
 * the bias kernel's bytes, not the convolution's).  The
 * pass splits (model_pass_cost.gemm_flops): the convolution its matrix
 * part in its class, the bias the rest, element-wise, a launch of its
 * own.  DeepBench's convolutions, which the fits are of, have no bias.
 * Element-wise fusion (--fuse-elementwise) still charges it: XLA can fold
 * a BiasAdd into the activation after it, and no fused stack dlsim
 * validates has a biased convolution.
 */
static void conv_bias_apart(const struct model_layer *l, enum model_pass p,
			    double out, double a, double wb,
			    struct model_pass_cost *c)
{
	if (l->kind != MODEL_CONV2D || !l->has_bias ||
	    c->kernel == MODEL_KERNEL_VECTOR ||
	    (p != MODEL_PASS_FWD && p != MODEL_PASS_BWD_WEIGHT))
		return;
	c->gemm_flops = c->flops - out;
	c->gemm_bytes = c->bytes - wb * (double)l->out.c;
	c->gemm_kernel = c->kernel;
	c->kernel = MODEL_KERNEL_VECTOR;
	c->bytes += (p == MODEL_PASS_FWD ? 2.0 : 1.0) * a * out;
	c->launches = 2.0;
}

static void cost_matrix(const struct model_layer *l, enum model_pass p,
			double n, double a, double wb,
			struct model_pass_cost *c)
{
	double macs = n * l->macs;
	double in = n * (double)l->in_elems, out = n * elems(l->out);
	double w = wb * weight_elems(l);
	double bias = l->has_bias ? out : 0.0;
	double cin = (double)(l->in.c / l->groups);
	double cout = (double)(l->out.c / l->groups);
	double kd = l->window_depth;

	c->kernel = l->matrix_kernel;   /* model_layer_derive */
	if (a == 2.0)
		c->channel_pad = l->channel_pad16;
	if (l->kind == MODEL_FC) {
		cin = (double)l->in_elems;
		cout = (double)l->out.c;
		kd = 0.0;
	} else if (l->kind == MODEL_LINEAR) {
		kd = 0.0;     /* reductions over one token's c, as fc */
	}
	/* rows of n samples' tokens (fc: one a sample), cin and cout wide */
	if ((l->kind == MODEL_FC || l->kind == MODEL_LINEAR) &&
	    model_gemm_unaligned(l->kind == MODEL_FC ? n :
				 n * (double)l->out.h * (double)l->out.w,
				 cin, cout, (int)a))
		c->kernel = MODEL_KERNEL_GEMM_UNALIGNED;
	switch (p) {
	case MODEL_PASS_FWD:
		model_cost_set(c, 2.0 * macs + bias, a * (in + out) + w, macs,
		    core_ceil_log2(cin) + kd);
		break;
	case MODEL_PASS_BWD_DATA:
		model_cost_set(c, 2.0 * macs, a * (in + out) + w, macs,
		    core_ceil_log2(cout) + kd);
		break;
	case MODEL_PASS_BWD_WEIGHT:
		/* dw reduces over the batch (and positions for conv);
		 * the bias gradient is one more pass over dy. */
		model_cost_set(c, 2.0 * macs + bias, a * (in + out) + w, macs,
		    core_ceil_log2(out / (double)l->out.c));
		break;
	default:
		break;
	}
	conv_bias_apart(l, p, out, a, wb, c);
}

static void cost_pool(const struct model_layer *l, enum model_pass p,
		      double n, double a, struct model_pass_cost *c)
{
	double in = n * (double)l->in_elems, out = n * elems(l->out);
	double k = (double)l->kernel_h * (double)l->kernel_w;

	if (p == MODEL_PASS_FWD)
		model_cost_set(c, out * k, a * (in + out), out * (k - 1.0),
		    l->window_depth);
	else if (p == MODEL_PASS_BWD_DATA)
		/* read dy and the saved input, write dx */
		model_cost_set(c, in, a * (in + out + in), in, 1.0);
}

static void cost_batchnorm(const struct model_layer *l, enum model_pass p,
			   double n, double a, double wb,
			   struct model_pass_cost *c)
{
	double e = n * (double)l->in_elems;
	double w = wb * (double)l->params;
	double depth = core_ceil_log2(e / (double)l->in.c);

	switch (p) {
	case MODEL_PASS_FWD:
		/* mean (1 add), variance (sub, mul, add), normalize (sub,
		 * mul), scale and shift (mul, add): 8 per value; training
		 * mode reads x twice (statistics, then normalize). */
		model_cost_set(c, 8.0 * e, a * 3.0 * e + w, 8.0 * e, depth);
		break;
	case MODEL_PASS_BWD_WEIGHT:
		/* dbeta = sum dy (1); dgamma = sum dy * xhat, with xhat
		 * recomputed (sub, mul, mul, add): 5 per value. */
		model_cost_set(c, 5.0 * e, a * 2.0 * e + w, 5.0 * e, depth);
		break;
	case MODEL_PASS_BWD_DATA:
		/* dx = gamma/sigma (dy - dbeta/N - xhat dgamma/N):
		 * xhat (2), two scaled subtractions (4), scale (1). */
		model_cost_set(c, 7.0 * e, a * 3.0 * e + w, 7.0 * e, 1.0);
		break;
	default:
		break;
	}
}

/*
 * LRN across channels (Krizhevsky et al., NIPS 2012, Sec. 3.3), with n =
 * size and W(i) the n channels centred on i:
 *   s_i = k + a sum_{j in W(i)} x_j^2,   y_i = x_i / s_i^b
 * (Caffe's lrn_layer divides a by n, which changes no count).  Forward,
 * per value: n squares, n - 1 adds, a multiply and an add for k + a s,
 * the power and the divide: 2n + 3.
 * Backward, differentiating y_i (the same formula Caffe's
 * CrossChannelBackward evaluates):
 *   dx_i = dy_i s_i^-b - 2ab x_i sum_{j in W(i)} dy_j y_j / s_j
 * cuDNN's cudnnLRNCrossChannelBackward takes only x, y and dy, so s is
 * recomputed (2n + 1), then per value: the power (1), dy s^-b (1),
 * dy y / s (2), the window sum (n - 1), times x and times 2ab (2), the
 * subtraction (1): 3n + 7 in all.  These are dlsim's operation counts of
 * these formulas (a rolling window sum, as Caffe's, would make both
 * independent of n); the backward reads x, y and dy and writes dx.
 */

/* Per-value FLOPs of an element-wise layer, forward and backward. */
static void elementwise_flops(enum model_layer_kind k, int64_t lrn_size,
			      double *fwd, double *bwd)
{
	switch (k) {
	case MODEL_RELU:    *fwd = 1.0; *bwd = 1.0; break; /* max; select */
	case MODEL_SIGMOID: *fwd = 4.0; *bwd = 3.0; break; /* neg exp add div;
							     y(1-y)dy */
	case MODEL_TANH:    *fwd = 5.0; *bwd = 3.0; break; /* via two exps;
							     (1-y^2)dy */
	case MODEL_GELU:    *fwd = 13.0; *bwd = 22.0; break; /* file head */
	case MODEL_DROPOUT: *fwd = 2.0; *bwd = 1.0; break; /* compare,
							     scale; scale */
	case MODEL_LRN:
		/* dlsim's count of the formulas in lrn_flops() */
		*fwd = 2.0 * (double)lrn_size + 3.0;
		*bwd = 3.0 * (double)lrn_size + 7.0;
		break;
	default:            *fwd = 0.0; *bwd = 0.0; break;
	}
}

/*
 * A GELU written out as eager operations (MODEL_LAYER_EAGER_GELU):
 * Hugging Face's NewGELUActivation,
 *   y = 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 pow(x, 3))))
 * (transformers, activations.py), one kernel an operation, and autograd
 * one or more per operation back.  Autocast runs pow in fp32 (PyTorch,
 * "Automatic Mixed Precision": CUDA ops that autocast to float32), so
 * with a-byte values (a < 4) x is cast up for it and type promotion
 * keeps the rest of the chain in fp32; the next linear layer casts y
 * down, and autograd casts each gradient to its input's dtype.  The
 * chain's values are w = max(a, 4) bytes wide.  Bytes per value, cast
 * terms only when a < 4 (c = 1):
 *   forward   0.5 x (2a); cast x (c: a + 4); pow (2w); times 0.044715
 *             (2w); x + q (a + 2w); times sqrt(2 / pi) (2w); tanh (2w);
 *             1 + t (2w); h u (a + 2w); cast y (c: 4 + a):
 *             4a + 14w + c (2a + 8), 8 + 2c kernels
 *   backward  cast dy up (c: a + 4); g u (3w); g h (a + 2w); cast g u
 *             down (c: 4 + a); times 0.5 (2a); tanh's backward (3w);
 *             times sqrt(2 / pi) (2w); cast down (c: 4 + a); times
 *             0.044715 (2w); pow's backward, pow(x, 2), times 3, times
 *             g (2w + 2w + 3w); cast down (c: 4 + a); the three parts
 *             of dx added (2 x 3a): 9a + 19w + c (4a + 16), 11 + 4c
 *             kernels
 * (76 and 118 bytes at 16 bits, 72 and 112 at 32, 144 and 224 at 64).
 * dlsim's H100 profile of GPT-2 (data/measurements/h100/profile.txt) shows these
 * kernels, 12 of each a step for its 12 blocks: pow 24, tanh 12 and
 * tanh's backward 12, fp32 scalar products 60 (5 a block) and fp32
 * products 48 (4), each at about 3 TB/s over 8 or 12 bytes a value.
 * FLOPs stay the one-kernel count, and so does the pass's one launch:
 * an eager stack's host time is given per pass as dlsim counts passes
 * (sim_strategy.dispatch_s; tools/h100_validation.py measures it so),
 * which leaves out the small kernels of every other layer, so the
 * chain's kernels are not counted apart either.  (With --autocast each
 * cast between layers is a pass of its own, sim_autocast.c; the casts
 * inside this chain stay in its one launch.)
 */
static void cost_gelu_eager(const struct model_layer *l, enum model_pass p,
			    double n, double a, struct model_pass_cost *c)
{
	double e = n * (double)l->in_elems;
	double cast = a < 4.0 ? 1.0 : 0.0;
	double w = a > 4.0 ? a : 4.0;
	double ff, fb;

	elementwise_flops(MODEL_GELU, 0, &ff, &fb);
	if (p == MODEL_PASS_FWD)
		model_cost_set(c, ff * e, e * (4.0 * a + 14.0 * w +
		    cast * (2.0 * a + 8.0)), ff * e, 1.0);
	else if (p == MODEL_PASS_BWD_DATA)
		model_cost_set(c, fb * e, e * (9.0 * a + 19.0 * w +
		    cast * (4.0 * a + 16.0)), fb * e, 1.0);
}

static void cost_elementwise(const struct model_layer *l, enum model_pass p,
			     double n, double a, struct model_pass_cost *c)
{
	double in = n * (double)l->in_elems, out = n * elems(l->out);
	double ff, fb;
	double mask = l->kind == MODEL_DROPOUT ? out : 0.0; /* 1-byte mask */

	/* LRN's backward also reads its input x (see above); GELU's reads
	 * x instead of y, the same count as in == out */
	double x = l->kind == MODEL_LRN ? in : 0.0;

	elementwise_flops(l->kind, l->lrn_size, &ff, &fb);
	if (p == MODEL_PASS_FWD)
		model_cost_set(c, ff * out, a * (in + out) + mask, ff * out, 1.0);
	else if (p == MODEL_PASS_BWD_DATA)
		/* read dy and the saved tensor, write dx */
		model_cost_set(c, fb * in, a * (out + out + in + x) + mask, fb * in, 1.0);
}

static void cost_merge(const struct model_layer *l, enum model_pass p,
		       double n, double a, struct model_pass_cost *c)
{
	double in = n * (double)l->in_elems, out = n * elems(l->out);

	if (p != MODEL_PASS_FWD)
		return;
	if (l->kind == MODEL_ADD)
		model_cost_set(c, in - out, a * (in + out), in - out,
		    core_ceil_log2((double)l->n_inputs));
	else
		model_cost_set(c, 0.0, a * (in + out), 0.0, 0.0);
}

static void cost_loss(const struct model_layer *l, enum model_pass p,
		      double n, double a, struct model_pass_cost *c)
{
	double e = n * (double)l->in_elems;
	double rows = n * (double)l->in.h * (double)l->in.w;
	double d = 2.0 * core_ceil_log2((double)l->in.c); /* max, sum */
	/* 16- or 8-bit logits: cast to fp32 and back (a + 4 bytes a value
	 * each way), the softmax itself in fp32 (the file's head) */
	double b = a < 4.0 ? 8.0 + a + 4.0 : a * 2.0;

	if (p == MODEL_PASS_FWD)
		/* max, subtract, exp, sum, divide; then a log per row */
		model_cost_set(c, 5.0 * e + rows, b * e, 5.0 * e + rows, d);
	else if (p == MODEL_PASS_BWD_DATA)
		/* softmax minus one-hot, scaled by 1/N */
		model_cost_set(c, 2.0 * e, b * e, 2.0 * e, 1.0);
}

/* ---------------------------------------------------------------- */
/* Transformer layers (the file's head gives the counts)             */
/* ---------------------------------------------------------------- */

/* Bahdanau's additive score (MODEL_LAYER_ADDITIVE; the file's head):
 * the element-wise FLOPs and bytes it adds per score value, and the two
 * levels (add, tanh) it adds to D. */
static void additive_extra(const struct model_layer *l, enum model_pass p,
			   double n, double a, struct model_pass_cost *c)
{
	double e = n * (double)l->heads * (double)l->head_dim *
		   (double)l->out.h * (double)l->kv_len;
	double f = p == MODEL_PASS_FWD ? 6.0 : 8.0;

	if (!(l->flags & MODEL_LAYER_ADDITIVE) || p > MODEL_PASS_BWD_DATA)
		return;
	c->flops += f * e;
	c->work += f * e;
	c->bytes += a * (p == MODEL_PASS_FWD ? 4.0 : 3.0) * e;
	c->depth += 2.0;
}

/*
 * An unfused attention's traffic over its E = n A Sq Skv scores
 * (MODEL_LAYER_UNFUSED; Megatron-LM's CoreAttention: baddbmm,
 * FusedScaleMaskSoftmax, attention dropout, bmm), each term one pass
 * over E at the activation width a, the dropout mask at 1 byte:
 *   forward   the first GEMM writes E; softmax reads and writes it;
 *             dropout reads it, writes it and its mask; the second GEMM
 *             reads it: 6 (4 without dropout) + mask, in 4 kernels (3).
 *   backward  dP = dO V^T writes E and dV = P^T dO reads P; dropout's
 *             backward reads dP and the mask and writes E; softmax's reads
 *             it and its output and writes E; dQ and dK read dS: 9 (7
 *             without dropout's two) + mask, in 6 kernels (5).
 * The causal mask is applied to the full Sq x Skv block, as the fused
 * softmax does.
 */
static void unfused_extra(const struct model_layer *l, enum model_pass p,
			  double n, double a, struct model_pass_cost *c)
{
	int drop = (l->flags & MODEL_LAYER_ATTN_DROPOUT) != 0;
	double e = n * (double)l->heads * (double)l->out.h *
		   (double)l->kv_len;

	if (!(l->flags & MODEL_LAYER_UNFUSED) || l->kind != MODEL_ATTENTION)
		return;
	if (p == MODEL_PASS_FWD) {
		c->bytes += e * (a * (drop ? 6.0 : 4.0) + (drop ? 1.0 : 0.0));
		c->launches = drop ? 4.0 : 3.0;
	} else if (p == MODEL_PASS_BWD_DATA) {
		c->bytes += e * (a * (drop ? 9.0 : 7.0) + (drop ? 1.0 : 0.0));
		c->launches = drop ? 6.0 : 5.0;
	}
}

static void cost_attention(const struct model_layer *l, enum model_pass p,
			   double n, double a, struct model_pass_cost *c)
{
	double macs = n * l->macs;
	double in = n * (double)l->in_elems, out = n * elems(l->out);
	double dd = core_ceil_log2((double)l->head_dim);
	double dk = core_ceil_log2((double)l->kv_len);
	double dq = core_ceil_log2((double)l->out.h);

	/* a fused kernel on 4-byte values keeps fp32 math (dlsim.h) */
	c->kernel = a == 4.0 && !(l->flags & (MODEL_LAYER_UNFUSED |
					      MODEL_LAYER_ADDITIVE)) ?
		    MODEL_KERNEL_ATTENTION_F32 : MODEL_KERNEL_GEMM;
	if (p == MODEL_PASS_FWD)
		model_cost_set(c, 2.0 * macs, a * (in + out), macs, dd + 2.0 * dk);
	else if (p == MODEL_PASS_BWD_DATA)
		model_cost_set(c, 4.0 * macs, a * 2.0 * (in + out), 2.0 * macs,
		    dd + dk + (dk > dq ? dk : dq));
	additive_extra(l, p, n, a, c);
	unfused_extra(l, p, n, a, c);
}

/* Bytes of one token id: torch.nn.Embedding takes int64 (LongTensor)
 * ids, as GPT-2, BERT and Megatron-LM feed them. */
#define TOKEN_ID_BYTES 8.0

static void cost_embedding(const struct model_layer *l, enum model_pass p,
			   double n, double a, double wb,
			   struct model_pass_cost *c)
{
	double ids = n * (double)l->in_elems, out = n * elems(l->out);
	double t = 1.0 + (l->pos_rows > 0) + (l->type_rows > 0);
	double table = (double)(l->vocab + l->pos_rows + l->type_rows) *
		       (double)l->out.c;

	if (p == MODEL_PASS_FWD)
		model_cost_set(c, (t - 1.0) * out,
		    TOKEN_ID_BYTES * ids + wb * t * out + a * out,
		    (t - 1.0) * out, t > 2.0 ? 2.0 : 1.0);
	else if (p == MODEL_PASS_BWD_WEIGHT)
		model_cost_set(c, t * out, TOKEN_ID_BYTES * ids + a * out + wb * table,
		    t * out, core_ceil_log2(ids));
}

static void cost_norm(const struct model_layer *l, enum model_pass p,
		      double n, double a, double wb,
		      struct model_pass_cost *c)
{
	static const double ln[] = { 8.0, 10.0, 5.0 };   /* per pass */
	static const double rms[] = { 4.0, 7.0, 3.0 };
	double e = n * (double)l->in_elems;
	double w = wb * (double)l->params;
	double dh = core_ceil_log2((double)l->in.c);
	double f;

	if (p > MODEL_PASS_BWD_WEIGHT)
		return;
	f = (l->kind == MODEL_RMSNORM ? rms : ln)[p] * e;
	if (p == MODEL_PASS_FWD)
		model_cost_set(c, f, a * 2.0 * e + w, f, dh);
	else if (p == MODEL_PASS_BWD_DATA)
		model_cost_set(c, f, a * 3.0 * e + w, f, dh);     /* dy, x; dx */
	else
		model_cost_set(c, f, a * 2.0 * e + w, f,
		    core_ceil_log2(e / (double)l->in.c));
}

static void cost_swiglu(const struct model_layer *l, enum model_pass p,
			double n, double a, struct model_pass_cost *c)
{
	double in = n * (double)l->in_elems, out = n * elems(l->out);

	if (p == MODEL_PASS_FWD)
		model_cost_set(c, 6.0 * out, a * (in + out), 6.0 * out, 1.0);
	else if (p == MODEL_PASS_BWD_DATA)
		model_cost_set(c, 12.0 * out, a * (out + 2.0 * in), 12.0 * out, 1.0);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

void model_layer_cost(const struct model_layer *l, enum model_pass p,
		      int64_t batch, int act_bytes, int weight_bytes,
		      struct model_pass_cost *out)
{
	double n = (double)batch, a = (double)act_bytes;

	memset(out, 0, sizeof(*out));
	switch (l->kind) {
	case MODEL_CONV2D:
	case MODEL_FC:
	case MODEL_LINEAR:
		cost_matrix(l, p, n, a, (double)weight_bytes, out);
		break;
	case MODEL_ATTENTION:
		cost_attention(l, p, n, a, out);
		break;
	case MODEL_EMBEDDING:
		cost_embedding(l, p, n, a, (double)weight_bytes, out);
		break;
	case MODEL_LAYERNORM:
	case MODEL_RMSNORM:
		cost_norm(l, p, n, a, (double)weight_bytes, out);
		break;
	case MODEL_SWIGLU:
		cost_swiglu(l, p, n, a, out);
		break;
	case MODEL_MAXPOOL:
	case MODEL_AVGPOOL:
	case MODEL_GLOBALPOOL:
		cost_pool(l, p, n, a, out);
		break;
	case MODEL_BATCHNORM:
		cost_batchnorm(l, p, n, a, (double)weight_bytes, out);
		break;
	case MODEL_RELU:
	case MODEL_SIGMOID:
	case MODEL_TANH:
	case MODEL_DROPOUT:
	case MODEL_LRN:
		cost_elementwise(l, p, n, a, out);
		break;
	case MODEL_GELU:
		if (l->flags & MODEL_LAYER_EAGER_GELU)
			cost_gelu_eager(l, p, n, a, out);
		else
			cost_elementwise(l, p, n, a, out);
		break;
	case MODEL_ADD:
	case MODEL_CONCAT:
		cost_merge(l, p, n, a, out);
		break;
	case MODEL_SOFTMAX_XENT:
		cost_loss(l, p, n, a, out);
		break;
	case MODEL_LSTM:
	case MODEL_GRU:
	case MODEL_RNN:
		model_rnn_cost(l, p, n, a, (double)weight_bytes, out);
		/* each step waits for the one before (Appleyard et al. 2016,
		 * Sec. 2) and is two kernels, its GEMM and its fused
		 * element-wise one (model_layer_rnn.c): a recurrent pass,
		 * and one kernel more, the input GEMM of all the steps
		 * (gemm_flops); dw is one GEMM over all of them */
		if (p == MODEL_PASS_FWD || p == MODEL_PASS_BWD_DATA) {
			out->launches = 2.0 * (double)l->steps + 1.0;
			out->kernel =
				l->kind == MODEL_LSTM ? MODEL_KERNEL_LSTM :
				l->kind == MODEL_GRU ? MODEL_KERNEL_GRU :
				MODEL_KERNEL_RNN_TANH;
		}
		break;
	case MODEL_EMBEDDING_BAG:
		model_bag_cost(l, p, n, a, (double)weight_bytes, out);
		break;
	case MODEL_INTERACTION:
		model_interaction_cost(l, p, n, a, out);
		break;
	default: /* input, flatten: no work */
		break;
	}
}

void model_grad_accum_cost(const struct model_layer *l, int64_t batch,
			   int act_bytes, struct model_pass_cost *out)
{
	double adds;

	memset(out, 0, sizeof(*out));
	out->kernel = MODEL_KERNEL_VECTOR;
	if (l->n_consumers <= 1)
		return;
	adds = (double)(l->n_consumers - 1) * elems(l->out) * (double)batch;
	model_cost_set(out, adds, 3.0 * adds * (double)act_bytes, adds,
	    core_ceil_log2((double)l->n_consumers));
}

double model_forward_macs(const struct model *m)
{
	double s = 0.0;
	int i;

	for (i = 0; i < m->n_layers; i++)
		s += m->layers[i].macs;   /* model_layer_derive */
	return s;
}
