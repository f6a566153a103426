/*
 * sim_autocast.c -- PyTorch's autocast (torch.autocast, the AMP most
 * PyTorch training runs under): which tensors of a step it leaves in
 * fp32, and the casts it issues (sim_options.autocast).
 *
 * WHY
 * dlsim's fp16 and bf16 are otherwise mixed precision as Megatron-LM and
 * apex's O2 run it: every activation at 16 bits, and a 16-bit copy of
 * the weights the optimizer writes.  Under autocast the parameters stay
 * fp32 and each operation picks its own type (PyTorch documentation,
 * "Automatic Mixed Precision package - torch.amp", CUDA op lists;
 * aten/src/ATen/autocast_mode.cpp):
 * - matrix operations (linear, convolution, matmul and bmm,
 *   scaled_dot_product_attention, the recurrent cells) cast fp32 inputs
 *   and weights to 16 bits and return 16 bits;
 * - the fp32 list (layer_norm, softmax, log_softmax, cross_entropy,
 *   nll_loss, pow, exp, ...) casts 16-bit inputs to fp32 and returns
 *   fp32;
 * - every other operation (add, cat, ReLU, dropout, batch_norm, pooling)
 *   runs at its inputs' type, the widest of them (type promotion).
 * An embedding returns its table's type, fp32.  So a transformer's
 * residual stream, rooted in its embedding, stays fp32 through every add
 * and every LayerNorm; a matrix operation's 16-bit output stays 16-bit
 * only until the next add.  dlsim's H100 profile of Hugging Face GPT-2
 * under bf16 autocast shows it (data/measurements/h100/profile.txt): its
 * LayerNorm kernels and residual adds run on float, 196 bf16 copy
 * kernels take 8.1 ms of the 131.5 ms step, the loss's softmax runs in
 * fp32 over upcast logits.
 *
 * THE MODEL
 * sim_autocast_mark propagates the types through the layer graph by the
 * rules above (the model's input, images or dense features, is fp32).
 * A layer whose output is fp32 is costed with 4-byte activations
 * (sim_autocast_act); an add of an fp32 and a 16-bit input is charged 4
 * bytes for both, 2 too many for one.  Every layer but a matrix one
 * reads its parameters (and writes their gradients) at their fp32 width,
 * the embedding's table and the norms' scales among them
 * (sim_autocast_weight); a matrix layer reads the 16-bit cast.  A
 * pipeline stage sends the fp32 residual stream to the next
 * (sim_parallel.c).  Each cast is a copy kernel of its
 * own (aten::_to_copy), 6 bytes a value (read 4 and write 2, or read 2
 * and write 4), one launch (sim_autocast_casts):
 *   forward          a matrix operation's fp32 inputs and its weights
 *                    (bias included; a tied table too: the embedding that
 *                    owns it casts nothing), an fp32-list operation's
 *                    16-bit inputs;
 *   backward-data    each of those inputs' gradients back to the input's
 *                    type (autograd casts a gradient to its input's
 *                    type, engine.cpp validate_outputs), and the
 *                    gradient a promoting add or concat sends back to a
 *                    16-bit input;
 *   backward-weight  the weight gradient from 16 bits to the fp32
 *                    parameter.
 * The optimizer writes no 16-bit copy of the weights (sim_step.c).
 *
 * LIMITATIONS
 * - Autocast caches a weight's cast for the rest of the forward; dlsim
 *   casts a weight once for each layer that uses it, which is the same
 *   for every zoo model (a tied table is cast by the logits alone).
 * - Memory keeps the 16-bit widths: the fp32 tensors the residual
 *   stream saves for backward are not counted.
 * - A cast's backward is skipped only where its input is the network's
 *   input; a layer whose input needs no gradient for another reason
 *   (a frozen part) would still be charged one.  No zoo model has one.
 * - Compiled steps (torch.compile) fuse the casts into their neighbours:
 *   autocast with element-wise fusion is refused, not costed.
 */
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

/* Autocast's lower-precision list, as dlsim's layer kinds. */
static int matrix_op(enum model_layer_kind k)
{
	switch (k) {
	case MODEL_CONV2D:
	case MODEL_FC:
	case MODEL_LINEAR:
	case MODEL_ATTENTION:
	case MODEL_LSTM:
	case MODEL_GRU:
	case MODEL_RNN:
	case MODEL_INTERACTION:     /* DLRM's dot products: a bmm */
		return 1;
	default:
		return 0;
	}
}

/* Autocast's fp32 list, as dlsim's layer kinds. */
static int fp32_op(enum model_layer_kind k)
{
	return k == MODEL_LAYERNORM || k == MODEL_SOFTMAX_XENT;
}

void sim_autocast_mark(const struct model *m, unsigned char *wide)
{
	int i, k;

	if (m->n_layers <= 0)
		return;
	memset(wide, 0, (size_t)m->n_layers);
	wide[0] = 1;            /* images, dense features: fp32 */
	for (i = 1; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];

		if (matrix_op(l->kind)) {
			wide[i] = 0;
		} else if (fp32_op(l->kind) || l->kind == MODEL_EMBEDDING ||
			   l->kind == MODEL_EMBEDDING_BAG) {
			wide[i] = 1;
		} else {
			for (k = 0; k < l->n_inputs; k++)
				wide[i] |= wide[l->inputs[k]];
		}
	}
}

int sim_autocast_act(const unsigned char *wide, int i, int act)
{
	return wide && wide[i] && act < 4 ? 4 : act;
}

int sim_autocast_weight(const unsigned char *wide,
			const struct model_layer *l, int weight, int master)
{
	return wide && !matrix_op(l->kind) ? master : weight;
}

static double out_elems(const struct model_layer *l)
{
	return (double)l->out.c * (double)l->out.h * (double)l->out.w;
}

/* The values of the weights a matrix layer casts: its own parameters, or
 * with a tied table the table's in x out (and its own bias). */
static double weight_values(const struct model_layer *l)
{
	if (l->tied_to > 0)
		return (double)l->in.c * (double)l->out.c +
		       (l->has_bias ? (double)l->out.c : 0.0);
	return (double)l->params;
}

/* One activation cast of n values. */
static void cast_act(struct sim_casts *k, double n)
{
	if (n <= 0.0)
		return;
	k->act_bytes += 6.0 * n;
	k->launches += 1.0;
}

void sim_autocast_casts(const struct model *m, const unsigned char *wide,
			int i, enum model_pass p, int64_t batch,
			struct sim_casts *k)
{
	const struct model_layer *l = &m->layers[i];
	double b = (double)batch;
	int j;

	memset(k, 0, sizeof(*k));
	if (!wide || i <= 0 || i >= m->n_layers)
		return;
	if (p == MODEL_PASS_BWD_WEIGHT || (p == MODEL_PASS_FWD &&
					   matrix_op(l->kind))) {
		double w = matrix_op(l->kind) ? weight_values(l) : 0.0;

		if (w > 0.0) {
			k->weight_bytes = 6.0 * w;
			k->launches = 1.0;
		}
	}
	if (p != MODEL_PASS_FWD && p != MODEL_PASS_BWD_DATA)
		return;
	for (j = 0; j < l->n_inputs; j++) {
		int in = l->inputs[j];
		double n = b * out_elems(&m->layers[in]);

		/* the network's input needs no gradient */
		if (p == MODEL_PASS_BWD_DATA && in == 0)
			continue;
		if (matrix_op(l->kind) && wide[in])
			cast_act(k, n);
		else if (fp32_op(l->kind) && !wide[in])
			cast_act(k, n);
		else if (p == MODEL_PASS_BWD_DATA && wide[i] && !wide[in] &&
			 (l->kind == MODEL_ADD || l->kind == MODEL_CONCAT))
			cast_act(k, n);
	}
}

void sim_autocast_cost(const struct sim_casts *k, double act_share,
		       double weight_share, struct model_pass_cost *c)
{
	memset(c, 0, sizeof(*c));
	c->kernel = MODEL_KERNEL_VECTOR;
	c->bytes = k->act_bytes * act_share + k->weight_bytes * weight_share;
	c->launches = k->launches;
}

double sim_autocast_time(const struct sim_roof *roof, const struct model *m,
			 const unsigned char *wide, int i, enum model_pass p,
			 int64_t batch, double act_share, double weight_share,
			 double *launches)
{
	struct model_pass_cost c;
	struct sim_casts k;
	enum sim_bound bound;

	sim_autocast_casts(m, wide, i, p, batch, &k);
	if (k.launches <= 0.0)
		return 0.0;
	sim_autocast_cost(&k, act_share, weight_share, &c);
	*launches += k.launches;
	return sim_pass_time(roof, &c, &bound);
}

int sim_autocast_check(enum dlsim_precision p, int autocast, int fuse,
		       struct dlsim_err *err)
{
	if (!autocast)
		return DLSIM_OK;
	if (p != DLSIM_FP16 && p != DLSIM_BF16)
		return dlsim_err_set(err, DLSIM_EINVAL, "autocast runs fp16 "
				     "or bf16, not %s (the precision asked "
				     "for, or auto's pick for the device): "
				     "ask for fp16 or bf16",
				     dlsim_precision_name(p));
	if (fuse)
		return dlsim_err_set(err, DLSIM_EINVAL, "autocast is eager "
				     "execution's casts, element-wise fusion "
				     "a compiler's, which fuses them: drop "
				     "one of them");
	return DLSIM_OK;
}
