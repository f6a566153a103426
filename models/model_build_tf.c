/*
 * model_build_tf.c -- the transformer layers' shapes and parameter
 * counts: token embeddings, token-wise linear layers, attention and the
 * per-token norms.  model_build.c holds the builder itself and the CNN
 * layers; GELU and SwiGLU go through its model_add_simple().
 *
 * A sequence of S tokens of width H is the per-sample shape (H, S, 1), so
 * every element-wise kind (add, dropout, activations, softmax with loss)
 * works on it unchanged.  Counts, checked against MODEL_MAX_COUNT:
 *   embedding   (V + P + T) H: token, learned position and token-type
 *               tables (Devlin et al. 2019, Fig. 2; Radford et al. 2019,
 *               GPT-2's wpe); a tied embedding (a decoder's input, which
 *               Vaswani et al. 2017, Sec. 3.4 share with the encoder's)
 *               has only its P and T rows.
 *   linear      Hin Hout (+ Hout bias), as torch.nn.Linear; tied (logits
 *               that reuse the token table, Press & Wolf 2017, used by
 *               GPT-2 and Megatron-LM): the bias only.
 *   attention   none: the projections are linear layers of their own;
 *               an additive one (Bahdanau et al. 2015, App. A.1.2, with
 *               the weight-normalised score of the MLPerf GNMT reference,
 *               seq2seq/models/attention.py: normalize=True) has v (d)
 *               and its scale g (1) per head, the bias of q + k being
 *               the query projection's.
 *   layer norm  2H (gamma, beta; Ba et al. 2016); RMSNorm H (gamma;
 *               Zhang & Sennrich 2019).
 *
 * A tied layer must name an earlier embedding of the same vocab and
 * width, so that the simulator can hand its weight gradient to it.
 */
#include "model.h"

#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/*
 * Check that tied_to (> 0) is an earlier embedding with `vocab` rows of
 * width `width`; -1 and the error otherwise.
 */
static int check_tied(struct model_builder *b, const struct model_layer *l,
		      int tied_to, int64_t vocab, int64_t width)
{
	const struct model_layer *t;

	if (tied_to >= b->m->n_layers)
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': "
					   "tied to %d, not an earlier layer",
					   l->name, tied_to);
	t = &b->m->layers[tied_to];
	if (t->kind != MODEL_EMBEDDING || t->vocab != vocab ||
	    t->out.c != width)
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': "
					   "tied to '%s', which is not an "
					   "embedding of %lld x %lld",
					   l->name, t->name, (long long)vocab,
					   (long long)width);
	return 0;
}

static int too_large(struct model_builder *b, const struct model_layer *l)
{
	return model_builder_failf(b, DLSIM_ERANGE, "layer '%s': parameters "
				   "too large (more than 2^53)", l->name);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int model_add_embedding(struct model_builder *b, int in, const char *name,
			int64_t vocab, int64_t hidden, int64_t pos_rows,
			int64_t type_rows, int tied_to)
{
	struct model_layer *l = model_layer_reserve(b, MODEL_EMBEDDING, name,
						    in);
	int64_t rows, params;

	if (!l)
		return -1;
	if (l->in.c != 1 || l->in.w != 1)
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': "
					   "embedding takes token ids, 1 x S "
					   "x 1 (got %lldx%lldx%lld)", l->name,
					   (long long)l->in.c,
					   (long long)l->in.h,
					   (long long)l->in.w);
	if (vocab <= 0 || hidden <= 0 || pos_rows < 0 || type_rows < 0 ||
	    (pos_rows > 0 && pos_rows < l->in.h))
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': "
					   "embedding needs positive vocab and "
					   "width and a position row per "
					   "token", l->name);
	if (tied_to > 0 && check_tied(b, l, tied_to, vocab, hidden) < 0)
		return -1;
	l->vocab = vocab;
	l->pos_rows = pos_rows;
	l->type_rows = type_rows;
	l->tied_to = tied_to;
	l->out.c = hidden;
	l->out.h = l->in.h;
	l->out.w = 1;
	if (!model_count_add(tied_to > 0 ? 0 : vocab, pos_rows, &rows) ||
	    !model_count_add(rows, type_rows, &rows) ||
	    !model_count_mul(rows, hidden, &params))
		return too_large(b, l);
	l->params = params;
	return model_layer_commit(b, l);
}

int model_add_gelu(struct model_builder *b, int in, const char *name,
		   unsigned flags)
{
	int i = model_add_simple(b, MODEL_GELU, in, name);

	if (i >= 0)
		b->m->layers[i].flags = flags & MODEL_LAYER_EAGER_GELU;
	return i;
}

int model_add_linear(struct model_builder *b, int in, const char *name,
		     int64_t out_features, int bias, int tied_to)
{
	struct model_layer *l = model_layer_reserve(b, MODEL_LINEAR, name,
						    in);
	int64_t params = 0;

	if (!l)
		return -1;
	if (out_features <= 0)
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': "
					   "linear needs a positive number of "
					   "outputs (got %lld)", l->name,
					   (long long)out_features);
	if (tied_to > 0 &&
	    check_tied(b, l, tied_to, out_features, l->in.c) < 0)
		return -1;
	l->has_bias = bias;
	l->tied_to = tied_to;
	l->out.c = out_features;
	l->out.h = l->in.h;
	l->out.w = l->in.w;
	if ((tied_to <= 0 &&
	     !model_count_mul(l->in.c, out_features, &params)) ||
	    !model_count_add(params, bias ? out_features : 0, &params))
		return too_large(b, l);
	l->params = params;
	return model_layer_commit(b, l);
}

/* Head width and key length of a cross-attention from kv's output; -1
 * and the error if its channels are not the 2 x kv_heads x d expected. */
static int cross_shape(struct model_builder *b, struct model_layer *l,
		       int kv)
{
	struct model_shape k;

	if (kv >= b->m->n_layers)
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': "
					   "input %d is not an earlier layer",
					   l->name, kv);
	k = b->m->layers[kv].out;
	if (l->in.c % l->heads || k.w != 1 ||
	    k.c != 2 * l->kv_heads * (l->in.c / l->heads))
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': "
					   "queries of %lld channels and keys "
					   "and values of %lld do not make "
					   "%lld and 2 x %lld heads", l->name,
					   (long long)l->in.c,
					   (long long)k.c, (long long)l->heads,
					   (long long)l->kv_heads);
	l->head_dim = l->in.c / l->heads;
	l->kv_len = k.h;
	l->n_inputs = 2;
	l->inputs[1] = kv;
	l->in_elems += k.c * k.h;    /* both committed: no overflow */
	return 0;
}

/* An attention layer; flags MODEL_LAYER_ADDITIVE gives each head a
 * score vector v and its scale g (d + 1 parameters). */
static int attention_add(struct model_builder *b, int qkv, int kv,
			 const char *name, int64_t heads, int64_t kv_heads,
			 int causal, unsigned flags)
{
	struct model_layer *l = model_layer_reserve(b, MODEL_ATTENTION, name,
						    qkv);

	if (!l)
		return -1;
	if (heads <= 0 || kv_heads <= 0 || heads % kv_heads ||
	    l->in.w != 1)
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': "
					   "attention needs query heads that "
					   "are a multiple of its key/value "
					   "heads, over 1-wide tokens",
					   l->name);
	l->heads = heads;
	l->kv_heads = kv_heads;
	l->causal = causal;
	if (kv >= 0) {
		if (cross_shape(b, l, kv) < 0)
			return -1;
	} else if (l->in.c % (heads + 2 * kv_heads)) {
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': %lld "
					   "channels do not split into %lld "
					   "query and 2 x %lld key/value "
					   "heads", l->name,
					   (long long)l->in.c,
					   (long long)heads,
					   (long long)kv_heads);
	} else {
		l->head_dim = l->in.c / (heads + 2 * kv_heads);
		l->kv_len = l->in.h;
	}
	l->out.c = heads * l->head_dim;   /* at most in.c */
	l->out.h = l->in.h;
	l->out.w = 1;
	l->flags = flags;
	if (flags & MODEL_LAYER_ADDITIVE)
		l->params = heads * (l->head_dim + 1);   /* <= 2 in.c */
	return model_layer_commit(b, l);
}

int model_add_attention(struct model_builder *b, int qkv, int kv,
			const char *name, int64_t heads, int64_t kv_heads,
			int causal, unsigned flags)
{
	return attention_add(b, qkv, kv, name, heads, kv_heads, causal,
			     flags & (MODEL_LAYER_UNFUSED |
				      MODEL_LAYER_ATTN_DROPOUT));
}

int model_add_additive_attention(struct model_builder *b, int q, int kv,
				 const char *name)
{
	return attention_add(b, q, kv, name, 1, 1, 0, MODEL_LAYER_ADDITIVE);
}

int model_add_norm(struct model_builder *b, enum model_layer_kind kind,
		   int in, const char *name)
{
	struct model_layer *l;

	if (kind != MODEL_LAYERNORM && kind != MODEL_RMSNORM)
		return model_builder_fail(b, DLSIM_EINVAL,
					  "a norm must be layernorm or "
					  "rmsnorm");
	l = model_layer_reserve(b, kind, name, in);
	if (!l)
		return -1;
	l->out = l->in;
	l->params = (kind == MODEL_LAYERNORM ? 2 : 1) * l->in.c;
	return model_layer_commit(b, l);
}
