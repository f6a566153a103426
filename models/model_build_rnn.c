/*
 * model_build_rnn.c -- the shapes and parameter counts of recurrent
 * layers (LSTM, GRU), embedding bags and DLRM's feature interaction, and
 * the values each layer keeps for backward besides its output.
 * model_build.c holds the builder; model_layer_rnn.c the costs.
 *
 * Counts, checked against MODEL_MAX_COUNT:
 *   lstm, gru   per direction G H (I + H) + 2 G H with biases, G = 4
 *               (LSTM) or 3 (GRU): torch.nn.LSTM's and torch.nn.GRU's
 *               weight_ih (G H x I), weight_hh (G H x H), bias_ih and
 *               bias_hh (G H each), which is also cuDNN's layout (two
 *               bias vectors; Keras' LSTM has one).  A bidirectional
 *               layer has two such sets.  So LSTM(I = 2, H = 3) has
 *               4 x 3 x 5 + 24 = 84 parameters, GRU(2, 3) 3 x 3 x 5 +
 *               18 = 63.
 *   embedding_bag  rows x dim.
 *   interaction    none.
 *
 * Shapes: a recurrent layer reads its input's h as T steps of in.c x
 * in.w features, so a convolution whose h is time feeds it with no
 * reshape (DeepSpeech2's spectrogram, model_zoo_rnn.c); it writes (H, T,
 * 1), (2H, T, 1) for a bidirectional pair that concatenates.
 *
 * Kept for backward (model_layer_saved_elems): a recurrent layer keeps,
 * per unit, step and direction, its G gates and one more value (LSTM:
 * the cell c_t; GRU: W_hn h + b_hn, which r multiplies), as PyTorch's
 * fused cells save them (aten _thnn_fused_lstm_cell's 4H workspace and
 * cy; _thnn_fused_gru_cell's workspace) and cuDNN's reserve space holds
 * them; summed directions also keep each direction's h.  An additive
 * attention keeps its tanh, A d S S_kv values.
 */
#include "model.h"

#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static int too_large(struct model_builder *b, const struct model_layer *l,
		     const char *what)
{
	return model_builder_failf(b, DLSIM_ERANGE, "layer '%s': %s too "
				   "large (more than 2^53)", l->name, what);
}

/* Parameters of one direction: G H (I + H) (+ 2 G H); 0 on overflow. */
static int rnn_params(int64_t gates, int64_t hidden, int64_t features,
		      int bias, int64_t *out)
{
	int64_t gh, width, p;

	return model_count_mul(gates, hidden, &gh) &&
	       model_count_add(features, hidden, &width) &&
	       model_count_mul(gh, width, &p) &&
	       model_count_add(p, bias ? 2 * gh : 0, out);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int model_add_rnn(struct model_builder *b, enum model_layer_kind kind,
		  int in, const char *name, int64_t hidden, unsigned flags,
		  int bias)
{
	const unsigned bi = MODEL_LAYER_BIDIRECTIONAL;
	struct model_layer *l;
	int64_t dirs = flags & bi ? 2 : 1, per, params, width;

	if (!model_rnn_gates(kind))
		return model_builder_fail(b, DLSIM_EINVAL, "a recurrent "
					  "layer must be lstm, gru or rnn");
	if (!(l = model_layer_reserve(b, kind, name, in)))
		return -1;
	if (hidden <= 0 || (flags & ~(bi | MODEL_LAYER_SUM_DIRECTIONS)) ||
	    ((flags & MODEL_LAYER_SUM_DIRECTIONS) && !(flags & bi)))
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': %s "
					   "needs a positive hidden size (got "
					   "%lld), and summed directions a "
					   "bidirectional layer", l->name,
					   model_layer_kind_name(kind),
					   (long long)hidden);
	l->hidden = hidden;
	l->steps = l->in.h;
	l->flags = flags;
	l->has_bias = bias;
	width = flags & MODEL_LAYER_SUM_DIRECTIONS ? 1 : dirs;
	/* in.c x in.w <= in_elems: a committed count, no overflow */
	if (!rnn_params(model_rnn_gates(kind), hidden,
			l->in.c * l->in.w, bias, &per) ||
	    !model_count_mul(per, dirs, &params) ||
	    !model_count_mul(hidden, width, &l->out.c))
		return too_large(b, l, "parameters or output");
	l->out.h = l->in.h;
	l->out.w = 1;
	l->params = params;
	return model_layer_commit(b, l);
}

int model_add_embedding_bag(struct model_builder *b, int in,
			    const char *name, int64_t rows, int64_t dim,
			    int64_t lookups, unsigned flags)
{
	struct model_layer *l = model_layer_reserve(b, MODEL_EMBEDDING_BAG,
						    name, in);

	if (!l)
		return -1;
	if (rows <= 0 || dim <= 0 || lookups <= 0 ||
	    (flags & ~(unsigned)MODEL_LAYER_HOST_CANDIDATE))
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': "
					   "embedding_bag needs positive rows, "
					   "width and lookups (got %lld, %lld, "
					   "%lld)", l->name, (long long)rows,
					   (long long)dim, (long long)lookups);
	l->vocab = rows;
	l->lookups = lookups;
	l->flags = flags;
	l->out.c = dim;
	l->out.h = l->out.w = 1;
	if (!model_count_mul(rows, dim, &l->params))
		return too_large(b, l, "parameters");
	return model_layer_commit(b, l);
}

int model_add_interaction(struct model_builder *b, int n_in, const int *in,
			  const char *name)
{
	struct model_layer *l;
	int64_t pairs;
	int i;

	if (n_in < 2 || n_in > MODEL_MAX_INPUTS)
		return model_builder_failf(b, DLSIM_EINVAL, "interaction takes "
					   "2 to %d inputs (got %d)",
					   MODEL_MAX_INPUTS, n_in);
	if (!(l = model_layer_reserve(b, MODEL_INTERACTION, name, in[0])))
		return -1;
	for (i = 0; i < n_in; i++) {
		struct model_shape s;

		if (in[i] < 0 || in[i] >= b->m->n_layers)
			return model_builder_failf(b, DLSIM_EINVAL, "layer "
						   "'%s': input %d is not an "
						   "earlier layer", l->name,
						   in[i]);
		s = b->m->layers[in[i]].out;
		if (s.c != l->in.c || s.h != 1 || s.w != 1)
			return model_builder_failf(b, DLSIM_EINVAL, "layer "
						   "'%s': input %d is not a "
						   "vector of %lld like input "
						   "0", l->name, i,
						   (long long)l->in.c);
		l->inputs[i] = in[i];
	}
	l->n_inputs = n_in;
	pairs = (int64_t)n_in * (n_in - 1) / 2;
	if (!model_count_mul(l->in.c, n_in, &l->in_elems) ||
	    !model_count_add(l->in.c, pairs, &l->out.c))
		return too_large(b, l, "inputs");
	l->out.h = l->out.w = 1;
	return model_layer_commit(b, l);
}

int64_t model_layer_saved_elems(const struct model_layer *l)
{
	int64_t dirs = l->flags & MODEL_LAYER_BIDIRECTIONAL ? 2 : 1;
	int64_t per = model_rnn_gates(l->kind) + 1 +
		      (l->flags & MODEL_LAYER_SUM_DIRECTIONS ? 1 : 0);
	int64_t n;

	if (model_rnn_gates(l->kind))
		return model_count_mul(dirs * l->hidden, l->steps, &n) &&
		       model_count_mul(n, per, &n) ? n : -1;
	if (l->kind == MODEL_ATTENTION && (l->flags & MODEL_LAYER_ADDITIVE))
		return model_count_mul(l->out.c, l->out.h, &n) &&
		       model_count_mul(n, l->kv_len, &n) ? n : -1;
	return 0;
}
