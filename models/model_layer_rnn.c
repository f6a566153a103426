/*
 * model_layer_rnn.c -- what one pass of a recurrent layer (LSTM, GRU), an
 * embedding bag or DLRM's feature interaction costs: FLOPs, bytes, and
 * Ben-Nun & Hoefler's work W and depth D (model_layer.c gives the
 * conventions: a MAC is 2 FLOPs and 1 unit of W; D is the longest
 * dependency chain, a sum of n values ceil(log2 n) deep).
 *
 * RECURRENT LAYERS
 *
 * Notation: n samples, d directions (2 if bidirectional), T steps, I
 * input features per step, H hidden units per direction, G gates (LSTM 4:
 * i, f, g, o; GRU 3: r, z, n; a vanilla RNN 1, its tanh: Elman 1990, as
 * torch.nn.RNN and cuDNN's CUDNN_RNN_TANH run it), s = n d T cell
 * evaluations.  The weights
 * are PyTorch's torch.nn.LSTM / torch.nn.GRU (weight_ih G H x I,
 * weight_hh G H x H, bias_ih and bias_hh G H each; cuDNN's layout too).
 * The standard count of a step is G H (I + H) MACs (the LSTM equations
 * of shared/reference/seed-000-004-lim-banerjee.md lines 172-180: 2 N 4H
 * (I + H) FLOPs per step, depth proportional to T).
 *
 * The execution is cuDNN's (v5 on), as Appleyard, Kocisky & Blunsom
 * describe it ("Optimizing Performance of Recurrent Neural Networks on
 * GPUs", arXiv:1604.01946; the same extract, line 171: "Combining input
 * GEMMs"): the input GEMM of all T steps runs once, before the
 * recurrence (it depends on no h); then each step is one GEMM of the
 * previous h with weight_hh and one fused element-wise kernel.
 * So the recurrence is T dependent steps, and D grows linearly with T:
 * a recurrent layer is never costed as one large GEMM.  The input GEMM
 * of the fwd pass (and its twin in dx, W_ih^T times the gate gradients
 * of all steps) is one: its FLOPs and bytes are marked in the pass
 * (model_pass_cost.gemm_flops, gemm_bytes; class GEMM, or GEMM_UNALIGNED
 * off 16-byte rows) and timed by the GEMM roofline, the recurrence by
 * its cell's (sim_pass_time), and the pass has 2T + 1 launches.  A
 * cell's fit comes from DeepBench, which times the recurrence alone
 * (CUDNN_SKIP_INPUT): its rates describe chains of small steps, not a
 * large GEMM, and are not even below the peak (the V100's LSTM fits:
 * 20 TFLOP/s in fp32, 611 in fp16, a per-call term carrying the time;
 * 1,080 in fp16 before their points, too, left the input GEMM out).
 * Costed with them, as before 27 November 2026, GNMT's input GEMMs were
 * nearly free in fp16: dle_gnmt went from 90.5% to 73.0% when
 * the GEMM fit took them, and deepbench_rnn_heldout from 12.41, 11.98,
 * 11.63 and 13.70% to 12.24, 11.88, 11.54 and 13.15% over the four fold
 * splits (its fits now leave out the input GEMM's bytes too).
 *
 *   fwd   MACs s G H (I + H); element-wise per unit and step: LSTM 38
 *         (4 gates x the input part + the recurrent part + 2 biases: 12;
 *         3 sigmoids (4 each, as model_layer.c's) and a tanh (5): 17;
 *         c = f c + i g: 3; tanh c: 5; h = o tanh c: 1), GRU 27 (r and
 *         z pre-activations: 6; W_in x + b_in + r (W_hn h + b_hn): 4;
 *         2 sigmoids: 8; tanh: 5; h = (1 - z) n + z h: 4), vanilla 8
 *         (the input part + the recurrent part + 2 biases: 3; tanh: 5).
 *         D = ceil log2 I (the input GEMM) + T (ceil log2 H + e), the
 *         step's element-wise chain e: LSTM 7 (the four-term sum: 2,
 *         activations, f c and i g, their sum, tanh, times o), GRU 8
 *         (the four-term sum of r: 2, sigmoid, r times, plus the input
 *         part, tanh, (1 - z) n, plus z h), vanilla 3 (the sum: 2, tanh).
 *   dx    back through time: dh_{t-1} = W_hh^T dgates_t, T dependent
 *         steps in reverse, then dx = W_ih^T dgates for all steps at
 *         once: MACs s G H (H + I), as the forward; element-wise per
 *         unit and step LSTM 23, GRU 18, vanilla 3 (dh plus the step's
 *         own gradient, times 1 - h^2: dlsim's counts of the gate
 *         derivatives).  D = T (ceil log2 (G H) + e') + ceil log2 (G H),
 *         e' LSTM 6, GRU 5, vanilla 2.
 *   dw    one GEMM over all steps, dW = sum_t dgates_t [x_t, h_{t-1}]:
 *         MACs s G H (I + H), the bias gradient s G H adds (once for
 *         both bias vectors); D = ceil log2 (n T).
 * In all, training costs three times the forward's MACs, as for a
 * linear layer.  Every pass is a GEMM-class kernel (the GEMMs carry
 * almost all the FLOPs).
 *
 * Bytes: activations stream once per pass, plus what the steps keep
 * apart.  Forward: x, y, the input GEMM's pre-activations written and
 * read back by the steps (2 G per unit and step), the gates and the cell
 * (LSTM c; GRU W_hn h + b_hn) kept for backward (G + 1), h_{t-1} read
 * (1): 3G + 2 per unit and step.  dx: dy, dx, the kept G + 1, the gate
 * gradients written and read by the dx GEMM (2G): 3G + 1.  dw: x, h and
 * the gate gradients, G + 1.  Weights: weight_ih once, weight_hh once per
 * step (a persistent kernel, which keeps it in registers, reads it once:
 * Diamos et al. 2016, the same extract, line 181).
 * Summed directions (DeepSpeech2): each direction writes its H, the sum
 * reads both and writes H (n T H adds, D + 1); its backward copies.
 *
 * EMBEDDING BAG
 *
 * torch.nn.EmbeddingBag(mode="sum", sparse=True), as DLRM's reference
 * builds its tables (facebookresearch/dlrm, dlrm_s_pytorch.py
 * create_emb).  Per sample L ids (lookups) gather L rows of width D and
 * sum them: forward reads the ids (int64) and L D weight values, writes
 * D; (L - 1) D adds, D = max(1, ceil log2 L) (a gather, then the sum).
 * No dx (ids).  dw is sparse: each looked-up row gets dy, scatter-added
 * where rows repeat (L D adds), reading dy and the ids and writing L D
 * gradient values, never the dense table; D = ceil log2 (n L), a row
 * that every lookup of the batch hits.  Vector kernel: bandwidth-bound.
 *
 * INTERACTION
 *
 * DLRM's "dot" interaction (Naumov et al. 2019, "Deep Learning
 * Recommendation Model for Personalization and Recommendation Systems",
 * arXiv:1906.00091, Sec. 2; dlrm_s_pytorch.py interact_features): k
 * vectors of width D (the bottom MLP's and one per table), the dot
 * product of every pair, P = k (k - 1) / 2, after a copy of the first
 * vector: output D + P.  MACs n P D, D = ceil log2 D.  dx: each pair
 * sends dZ_ij x_j to i and dZ_ij x_i to j (2 n P D MACs) and the copy
 * adds its gradient (n D); D = ceil log2 k.  GEMM kernel (a batched
 * matrix product).
 *
 * LIMITATIONS
 * - The element-wise work of a step runs in a fused kernel on vector
 *   units but is costed with its pass at the GEMM rate; it is 38 / (8
 *   (I + H)) of an LSTM's FLOPs (under 1% at H = 1024).
 * - The per-step GEMMs are small (n x G H x H); the forward and
 *   backward-data passes (less their input GEMM) are a kernel class of
 *   their cell's
 *   (MODEL_KERNEL_LSTM, _GRU, _RNN_TANH) with each step's two launches,
 *   GEMM and element-wise (model_pass_cost.launches = 2T + 1 with the
 *   input GEMM's), so that a
 *   calibration measured on that cell's layers (kind "rnn_lstm:<dtype>"
 *   and so on: a cost per call, and rates of the chain's own) costs
 *   them; without one they take every cell's ("rnn:<dtype>", what
 *   earlier versions fitted), else the GEMM's, whose rates are of single
 *   large calls.  One set of rates a cell serves every hidden size and
 *   batch: cuDNN's algorithm choices
 *   (DeepBench's Pascal rows at batch 32 run 2-3 times slower than at 16
 *   or 64) are residuals (dlsim validate --set deepbench_rnn_heldout).
 * - The interaction's MACs are the P distinct pairs; PyTorch's bmm
 *   computes all k^2 (2.08 x for k = 27) and keeps the lower triangle.
 * - An embedding bag's sparse gradient is not reduced across devices
 *   the way data-parallel trainers do it (DLRM shards tables instead).
 */
#include "model.h"
#include "core/core.h"
#include "core/banned.h"

/* Bytes of one id: torch.nn.EmbeddingBag takes int64 (LongTensor). */
#define ID_BYTES 8.0

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/* The shape of a recurrent layer, as doubles. */
struct rnn {
	double d, T, I, H, G;
	int sum;                 /* directions summed, not concatenated */
	double e_fwd, e_bwd;     /* element-wise FLOPs per unit and step */
	double chain_fwd, chain_bwd;   /* element-wise depth per step */
};

static void rnn_shape(const struct model_layer *l, struct rnn *r)
{
	/* element-wise FLOPs and depth per unit and step: LSTM, GRU,
	 * vanilla (the head comment counts them) */
	static const double e_fwd[] = { 38.0, 27.0, 8.0 };
	static const double e_bwd[] = { 23.0, 18.0, 3.0 };
	static const double chain_fwd[] = { 7.0, 8.0, 3.0 };
	static const double chain_bwd[] = { 6.0, 5.0, 2.0 };
	int k = l->kind == MODEL_LSTM ? 0 : l->kind == MODEL_GRU ? 1 : 2;

	r->d = l->flags & MODEL_LAYER_BIDIRECTIONAL ? 2.0 : 1.0;
	r->T = (double)l->steps;
	r->I = (double)l->in.c * (double)l->in.w;
	r->H = (double)l->hidden;
	r->G = (double)model_rnn_gates(l->kind);
	r->sum = (l->flags & MODEL_LAYER_SUM_DIRECTIONS) != 0;
	r->e_fwd = e_fwd[k];
	r->e_bwd = e_bwd[k];
	r->chain_fwd = chain_fwd[k];
	r->chain_bwd = chain_bwd[k];
}


/* Weight values one fwd or dx pass reads: weight_ih once, weight_hh
 * once per step, the biases once. */
static double rnn_weight_reads(const struct model_layer *l,
			       const struct rnn *r)
{
	double gh = r->G * r->H;

	return r->d * (gh * r->I + r->T * gh * r->H +
		       (l->has_bias ? 2.0 * gh : 0.0));
}

/* ---------------------------------------------------------------- */
/* Public API (model.h)                                              */
/* ---------------------------------------------------------------- */

int model_rnn_gates(enum model_layer_kind k)
{
	return k == MODEL_LSTM ? 4 : k == MODEL_GRU ? 3 : k == MODEL_RNN ? 1 :
	       0;
}

double model_rnn_macs(const struct model_layer *l)
{
	double k;

	if (l->kind == MODEL_INTERACTION) {
		k = (double)l->n_inputs;
		return k * (k - 1.0) / 2.0 * (double)l->in.c;
	}
	if (model_rnn_gates(l->kind)) {
		struct rnn r;

		rnn_shape(l, &r);
		return r.d * r.T * r.G * r.H * (r.I + r.H);
	}
	return 0.0;
}

/* The input projection of a fwd or dx pass (the head's "input GEMM"):
 * n T rows of G H by I a direction, one GEMM over every step; its FLOPs,
 * the bytes of its operands and result (x or dx, read or written once;
 * the gate pre-activations or their gradients; weight_ih) and its class,
 * by the n T x G H x I GEMM a direction runs. */
static void rnn_input_gemm(const struct rnn *r, double n, double in,
			   double a, double wb, struct model_pass_cost *c)
{
	double rows = n * r->T, gh = r->G * r->H;

	c->gemm_flops = 2.0 * r->d * rows * gh * r->I;
	c->gemm_bytes = a * (in + r->d * rows * gh) + wb * r->d * gh * r->I;
	c->gemm_kernel = model_gemm_unaligned(rows, gh, r->I, (int)a) ?
			 MODEL_KERNEL_GEMM_UNALIGNED : MODEL_KERNEL_GEMM;
}

void model_rnn_cost(const struct model_layer *l, enum model_pass p,
		    double n, double a, double wb, struct model_pass_cost *c)
{
	struct rnn r;
	double s, macs, in, out, ew, gh;

	rnn_shape(l, &r);
	s = n * r.d * r.T;
	macs = n * model_rnn_macs(l);
	in = n * (double)l->in_elems;
	out = n * (double)l->out.c * (double)l->out.h;
	gh = r.G * r.H;
	c->kernel = MODEL_KERNEL_GEMM;
	switch (p) {
	case MODEL_PASS_FWD:
		ew = s * r.H * r.e_fwd + (r.sum ? n * r.T * r.H : 0.0);
		model_cost_set(c, 2.0 * macs + ew,
		    a * (in + out + s * r.H * (3.0 * r.G + 2.0 +
					       (r.sum ? 2.0 : 0.0))) +
		    wb * rnn_weight_reads(l, &r), macs + ew,
		    core_ceil_log2(r.I) +
		    r.T * (core_ceil_log2(r.H) + r.chain_fwd) + r.sum);
		rnn_input_gemm(&r, n, in, a, wb, c);
		break;
	case MODEL_PASS_BWD_DATA:
		ew = s * r.H * r.e_bwd;
		model_cost_set(c, 2.0 * macs + ew,
		    a * (in + out + s * r.H * (3.0 * r.G + 1.0)) +
		    wb * rnn_weight_reads(l, &r), macs + ew,
		    r.T * (core_ceil_log2(gh) + r.chain_bwd) +
		    core_ceil_log2(gh));
		rnn_input_gemm(&r, n, in, a, wb, c);
		break;
	case MODEL_PASS_BWD_WEIGHT:
		ew = l->has_bias ? s * gh : 0.0;
		model_cost_set(c, 2.0 * macs + ew,
		    a * (in + s * r.H * (r.G + 1.0)) + wb * (double)l->params,
		    macs + ew, core_ceil_log2(n * r.T));
		break;
	default:
		break;
	}
}

void model_bag_cost(const struct model_layer *l, enum model_pass p,
		    double n, double a, double wb, struct model_pass_cost *c)
{
	double L = (double)l->lookups, D = (double)l->out.c;
	double ids = n * L, rows = n * L * D, out = n * D;
	double dl = core_ceil_log2(L);

	c->kernel = MODEL_KERNEL_VECTOR;
	if (p == MODEL_PASS_FWD)
		model_cost_set(c, out * (L - 1.0), ID_BYTES * ids + wb * rows + a * out,
		    out * (L - 1.0), dl > 1.0 ? dl : 1.0);
	else if (p == MODEL_PASS_BWD_WEIGHT)
		model_cost_set(c, rows, a * out + ID_BYTES * ids + wb * rows, rows,
		    core_ceil_log2(ids));
}

void model_interaction_cost(const struct model_layer *l, enum model_pass p,
			    double n, double a, struct model_pass_cost *c)
{
	double macs = n * model_rnn_macs(l);
	double in = n * (double)l->in_elems, out = n * (double)l->out.c;
	double copy = n * (double)l->in.c;

	c->kernel = MODEL_KERNEL_GEMM;
	if (p == MODEL_PASS_FWD)
		model_cost_set(c, 2.0 * macs, a * (in + out), macs,
		    core_ceil_log2((double)l->in.c));
	else if (p == MODEL_PASS_BWD_DATA)
		model_cost_set(c, 4.0 * macs + copy, a * (out + 2.0 * in),
		    2.0 * macs + copy,
		    core_ceil_log2((double)l->n_inputs));
}
