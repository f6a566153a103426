/*
 * model_zoo_transformer.c -- the transformer families: gpt, bert,
 * transformer (Vaswani et al.), t5 and llama, built from their keys
 * (layers L, hidden H, heads A, seq S, vocab V, ffn F, kv_heads K; see
 * model_zoo.c for the keys and the presets).
 *
 * HOW A BLOCK IS BUILT
 *
 * A sample is S token ids (the input, 1 x S x 1); every tensor after the
 * embedding is (width, S, 1).  One block is two (three, in a decoder of
 * an encoder-decoder) sublayers, each
 *   pre-norm:  x + drop(f(norm(x)))          (GPT-2 Sec. 2.3, T5, Llama)
 *   post-norm: norm(x + drop(f(x)))          (Vaswani Sec. 3.1, BERT)
 * with f one of
 *   attention  qkv = linear(H -> (A + 2K) d), attention, proj (A d -> H)
 *   cross      q = linear(H -> A d) of the decoder, kv = linear(H -> 2K d)
 *              of the encoder's output, attention, proj
 *   mlp        fc1 (H -> F, or H -> 2F gate and up for SwiGLU: Llama's
 *              w1 and w3 as one GEMM, as Megatron-LM fuses them), the
 *              activation, fc2 (F -> H)
 * Layers are named "block<i>.<sublayer>.<part>" and carry block = i (the
 * simulator splits blocks into pipeline stages and the linear layers
 * by column and row, dlsim.h struct model_transformer).  Dropout layers
 * are there when the family's paper trains with dropout.
 *
 * THE FAMILIES
 *
 *   gpt    pre-LN, GELU, biases, learned positions (S x H), logits tied
 *          to the token table, no bias (Radford et al. 2019, GPT-2
 *          Sec. 2.3, and its released model: wpe, ln_f, tied lm_head;
 *          GPT-3 "the same model and architecture as GPT-2", Brown et
 *          al. 2020, Sec. 2.1; Megatron-LM ties them too); dropout
 *          (GPT-1 Sec. 4.1, kept by GPT-2).  F = 4H unless given.
 *   bert   post-LN, GELU, biases, token + position + token-type (2)
 *          embeddings then LN (Devlin et al. 2019, Sec. 3 and Fig. 2);
 *          the position table has max(512, S) rows (max_position_
 *          embeddings 512, HF bert-base-uncased config.json); the
 *          pre-training head is the masked-LM head (dense H -> H, GELU,
 *          LN, then logits tied to the token table with a bias of V:
 *          HF BertLMPredictionHead), over every token.  No pooler and no
 *          next-sentence head (they see one token per sample).
 *   transformer  Vaswani et al. 2017: post-LN, ReLU, biases, sinusoidal
 *          positions (no parameters), one table shared by the encoder's
 *          and decoder's embeddings and the logits (Sec. 3.4), dropout
 *          (Sec. 5.4).  layers = L gives L encoder and L decoder blocks.
 *   t5     Raffel et al. 2020, Sec. 2.1: pre-norm with T5's scale-only
 *          norm (RMSNorm), no biases, ReLU, shared tied embeddings, a
 *          final norm after each stack, dropout.  Its relative position
 *          bias (32 buckets x A per stack, 0.0003% of t5-base) is left
 *          out.
 *   llama  Touvron et al. 2023 (Llama 2, Sec. 2.2; Llama 1 Sec. 2.2):
 *          pre-RMSNorm, SwiGLU, no biases, rotary positions (no
 *          parameters), grouped-query attention with K key/value heads,
 *          untied output (V x H), no dropout.  F unless given is Meta's
 *          rule (llama/model.py FeedForward): 256 ceil((8H/3) / 256),
 *          11008 for H = 4096.
 *
 * A decoder's self-attention is causal; every encoder-decoder uses one S
 * for both stacks.
 *
 * THE ATTENTION
 * By default one fused kernel (Dao et al. 2022), its scores and their
 * dropout kept on chip.  unfused=1 writes the scores to memory as
 * Megatron-LM's CoreAttention did before it, softmax and dropout as
 * kernels of their own (MODEL_LAYER_UNFUSED, model_layer.c): the stack
 * of the vTrain and Megatron-LM 2021 measurements.
 *
 * THE GELU
 * One kernel each way (F.gelu; Megatron-LM's fused bias-GELU) by
 * default.  eager_gelu=1 (gpt and bert) writes its tanh form out as
 * separate element-wise kernels, as Hugging Face's NewGELUActivation
 * does (GPT-2's activation_function "gelu_new", transformers
 * activations.py), which eager PyTorch runs one operation at a time
 * (MODEL_LAYER_EAGER_GELU, model_layer.c): the stack of dlsim's own
 * GPT-2 runs (data/measurements/h100).
 *
 * LIMITATIONS
 * - Embedding scale factors (sqrt(H) in Vaswani, 1/sqrt(H) in T5's
 *   logits) cost nothing here.
 * - An encoder-decoder's stacks share one S, though T5's span-corruption
 *   targets are much shorter than its 512-token inputs (Raffel et al.
 *   2020, Sec. 3.1.2 and 3.1.4).
 * - BERT's logits are taken over all S tokens (as HF and Megatron-LM
 *   compute them), not just the 15% masked ones.
 */
#include <stdio.h>

#include "model.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Types                                                             */
/* ---------------------------------------------------------------- */

/* A family's choices, then its keys' values (in t). */
struct tf {
	struct model_transformer t;
	enum model_layer_kind norm;   /* MODEL_LAYERNORM or MODEL_RMSNORM */
	enum model_layer_kind act;    /* MODEL_GELU, _RELU or _SWIGLU */
	int bias, pre, drop, embed_norm;
	int unfused;                  /* key unfused=1: scores in memory */
	unsigned gelu;                /* key eager_gelu=1:
					 MODEL_LAYER_EAGER_GELU, else 0 */
	int64_t pos_rows, type_rows;
};

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static const char *nm(char *buf, size_t n, int block, const char *part)
{
	if (block < 0)
		snprintf(buf, n, "%s", part);
	else
		snprintf(buf, n, "block%d.%s", block, part);
	return buf;
}

/* The keys' values into t, F and K defaulted; -1 and the error if they
 * do not fit together. */
static int read_keys(struct model_builder *b, const struct model_spec *s,
		     struct tf *tf, int64_t default_ffn)
{
	const int64_t *v = s->args->v;
	struct model_transformer *t = &tf->t;

	t->layers = v[MODEL_KEY_LAYERS];
	t->blocks = t->layers;
	t->hidden = v[MODEL_KEY_HIDDEN];
	t->heads = v[MODEL_KEY_HEADS];
	t->seq = v[MODEL_KEY_SEQ];
	t->vocab = v[MODEL_KEY_VOCAB];
	t->ffn = v[MODEL_KEY_FFN] ? v[MODEL_KEY_FFN] : default_ffn;
	t->kv_heads = v[MODEL_KEY_KV_HEADS] ? v[MODEL_KEY_KV_HEADS] :
		      t->heads;
	if (t->hidden % t->heads)
		return model_builder_failf(b, DLSIM_EINVAL, "model '%s': "
					   "hidden %lld is not a multiple of "
					   "heads %lld", s->name,
					   (long long)t->hidden,
					   (long long)t->heads);
	if (t->heads % t->kv_heads)
		return model_builder_failf(b, DLSIM_EINVAL, "model '%s': "
					   "heads %lld is not a multiple of "
					   "kv_heads %lld", s->name,
					   (long long)t->heads,
					   (long long)t->kv_heads);
	t->head_dim = t->hidden / t->heads;
	tf->unfused = v[MODEL_KEY_UNFUSED] == 1;
	tf->gelu = v[MODEL_KEY_EAGER_GELU] == 1 ? MODEL_LAYER_EAGER_GELU : 0;
	if (tf->gelu && tf->act != MODEL_GELU)
		return model_builder_failf(b, DLSIM_EINVAL, "model '%s': "
					   "eager_gelu is for the families "
					   "with GELU (gpt, bert)", s->name);
	return 0;
}

/* Start the model: keys, then the input of S token ids. */
static int start(struct model_builder *b, const struct model_spec *s,
		 struct tf *tf, int64_t default_ffn)
{
	struct model_shape ids = { 1, 1, 1 };

	ids.h = s->args->v[MODEL_KEY_SEQ];
	model_builder_init(b, s->name, ids, s->batch, s->source);
	if (b->err.code != DLSIM_OK)
		return -1;
	return read_keys(b, s, tf, default_ffn);
}

/* A sublayer's input: norm(x) before it (pre-norm), x itself after. */
static int sub_in(struct model_builder *b, const struct tf *tf, int x,
		  int block, const char *sub)
{
	char name[MODEL_NAME_LEN], part[24];

	if (!tf->pre)
		return x;
	snprintf(part, sizeof(part), "%s.norm", sub);
	return model_add_norm(b, tf->norm, x, nm(name, sizeof(name), block,
						 part));
}

/* x + drop(y), then norm after it (post-norm). */
static int residual(struct model_builder *b, const struct tf *tf, int x,
		    int y, int block, const char *sub)
{
	char name[MODEL_NAME_LEN], part[24];
	int in[2];

	if (tf->drop) {
		snprintf(part, sizeof(part), "%s.drop", sub);
		y = model_add_simple(b, MODEL_DROPOUT, y,
				     nm(name, sizeof(name), block, part));
	}
	in[0] = x;
	in[1] = y;
	snprintf(part, sizeof(part), "%s.add", sub);
	x = model_add_merge(b, MODEL_ADD, 2, in,
			    nm(name, sizeof(name), block, part));
	if (tf->pre)
		return x;
	snprintf(part, sizeof(part), "%s.norm", sub);
	return model_add_norm(b, tf->norm, x,
			      nm(name, sizeof(name), block, part));
}

/* Attention sublayer: self (enc < 0; causal or not) or cross (keys and
 * values from the encoder's output enc). */
static int attention(struct model_builder *b, const struct tf *tf, int x,
		     int block, int causal, int enc)
{
	const struct model_transformer *t = &tf->t;
	const char *sub = enc < 0 ? "attn" : "cross";
	char name[MODEL_NAME_LEN], part[24];
	int64_t d = t->head_dim;
	int h = sub_in(b, tf, x, block, sub), q, kv = -1, y;

	snprintf(part, sizeof(part), "%s.%s", sub, enc < 0 ? "qkv" : "q");
	q = model_add_linear(b, h, nm(name, sizeof(name), block, part),
			     (t->heads + (enc < 0 ? 2 * t->kv_heads : 0)) * d,
			     tf->bias, 0);
	if (enc >= 0) {
		snprintf(part, sizeof(part), "%s.kv", sub);
		kv = model_add_linear(b, enc, nm(name, sizeof(name), block,
						 part),
				      2 * t->kv_heads * d, tf->bias, 0);
	}
	snprintf(part, sizeof(part), "%s.core", sub);
	y = model_add_attention(b, q, kv, nm(name, sizeof(name), block, part),
				t->heads, t->kv_heads, causal,
				tf->unfused ? MODEL_LAYER_UNFUSED |
				(tf->drop ? MODEL_LAYER_ATTN_DROPOUT : 0) : 0);
	snprintf(part, sizeof(part), "%s.proj", sub);
	y = model_add_linear(b, y, nm(name, sizeof(name), block, part),
			     t->hidden, tf->bias, 0);
	return residual(b, tf, x, y, block, sub);
}

static int mlp(struct model_builder *b, const struct tf *tf, int x,
	       int block)
{
	const struct model_transformer *t = &tf->t;
	char name[MODEL_NAME_LEN];
	int64_t width = tf->act == MODEL_SWIGLU ? 2 * t->ffn : t->ffn;
	int y = sub_in(b, tf, x, block, "mlp");

	y = model_add_linear(b, y, nm(name, sizeof(name), block, "mlp.fc1"),
			     width, tf->bias, 0);
	y = tf->act == MODEL_GELU ?
	    model_add_gelu(b, y, nm(name, sizeof(name), block, "mlp.act"),
			   tf->gelu) :
	    model_add_simple(b, tf->act, y,
			     nm(name, sizeof(name), block, "mlp.act"));
	y = model_add_linear(b, y, nm(name, sizeof(name), block, "mlp.fc2"),
			     t->hidden, tf->bias, 0);
	return residual(b, tf, x, y, block, "mlp");
}

/* One block; enc >= 0 adds cross-attention on the encoder's output. */
static int block(struct model_builder *b, const struct tf *tf, int x,
		 int i, int causal, int enc)
{
	b->block = i;
	x = attention(b, tf, x, i, causal, -1);
	if (enc >= 0)
		x = attention(b, tf, x, i, 0, enc);
	x = mlp(b, tf, x, i);
	b->block = -1;
	return x;
}

/*
 * The token embedding (tied_to: the encoder's, for a decoder's input),
 * then LN and dropout where the family has them.  *table gets the
 * embedding layer's index.
 */
static int embed(struct model_builder *b, const struct tf *tf,
		 const char *name, int tied_to, int *table)
{
	const struct model_transformer *t = &tf->t;
	char lname[MODEL_NAME_LEN];
	int x;

	x = model_add_embedding(b, MODEL_IN, name, t->vocab, t->hidden,
				tied_to ? 0 : tf->pos_rows,
				tied_to ? 0 : tf->type_rows, tied_to);
	*table = x;
	if (tf->embed_norm) {
		snprintf(lname, sizeof(lname), "%s.norm", name);
		x = model_add_norm(b, tf->norm, x, lname);
	}
	if (tf->drop) {
		snprintf(lname, sizeof(lname), "%s.drop", name);
		x = model_add_simple(b, MODEL_DROPOUT, x, lname);
	}
	return x;
}

/* The final norm (pre-norm families), logits and loss. */
static int head(struct model_builder *b, const struct tf *tf, int x,
		int tied_to, int bias)
{
	if (tf->pre)
		x = model_add_norm(b, tf->norm, x, "norm");
	x = model_add_linear(b, x, "lm_head", tf->t.vocab, bias, tied_to);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}

/* Record the family in the model; returns the last layer's index. */
static int finish(struct model_builder *b, const struct tf *tf, int last)
{
	unsigned f = 0;

	if (!b->m || b->err.code != DLSIM_OK)
		return -1;
	f |= tf->act == MODEL_SWIGLU ? MODEL_TF_GATED_MLP : 0;
	f |= tf->norm == MODEL_RMSNORM ? MODEL_TF_RMSNORM : 0;
	f |= tf->pre ? MODEL_TF_PRE_NORM : 0;
	f |= tf->bias ? MODEL_TF_BIAS : 0;
	f |= tf->pos_rows ? MODEL_TF_LEARNED_POSITIONS : 0;
	f |= tf->drop ? MODEL_TF_DROPOUT : 0;
	f |= tf->unfused ? MODEL_TF_UNFUSED_ATTENTION : 0;
	f |= tf->gelu ? MODEL_TF_EAGER_GELU : 0;
	b->m->tf = tf->t;
	b->m->tf.flags |= f;
	return last;
}

/* Embedding, L blocks, head: GPT and Llama. */
static int decoder_only(struct model_builder *b, struct tf *tf, int tied)
{
	int x, table, i;

	tf->t.arch = MODEL_TF_DECODER;
	if (tied)
		tf->t.flags |= MODEL_TF_TIED_EMBEDDINGS;
	x = embed(b, tf, "embed", 0, &table);
	for (i = 0; i < tf->t.layers; i++)
		x = block(b, tf, x, i, 1, -1);
	return finish(b, tf, head(b, tf, x, tied ? table : 0, 0));
}

/* L encoder blocks, then L decoder blocks (numbered L..2L-1) reading
 * the encoder's output; one table for both embeddings and the logits. */
static int encoder_decoder(struct model_builder *b, struct tf *tf)
{
	int64_t L = tf->t.layers;
	int x, y, table, dec_table, i;

	tf->t.arch = MODEL_TF_ENCODER_DECODER;
	tf->t.blocks = 2 * L;
	tf->t.flags |= MODEL_TF_TIED_EMBEDDINGS;
	x = embed(b, tf, "embed", 0, &table);
	for (i = 0; i < L; i++)
		x = block(b, tf, x, i, 0, -1);
	if (tf->pre)
		x = model_add_norm(b, tf->norm, x, "enc.norm");
	y = embed(b, tf, "dec.embed", table, &dec_table);
	for (i = 0; i < L; i++)
		y = block(b, tf, y, (int)L + i, 1, x);
	return finish(b, tf, head(b, tf, y, table, 0));
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int model_zoo_gpt(struct model_builder *b, const struct model_spec *s)
{
	struct tf tf = { .norm = MODEL_LAYERNORM, .act = MODEL_GELU,
			 .bias = 1, .pre = 1, .drop = 1 };
	int64_t h = s->args->v[MODEL_KEY_HIDDEN];

	if (start(b, s, &tf, 4 * h) < 0)
		return -1;
	tf.pos_rows = tf.t.seq;
	return decoder_only(b, &tf, 1);
}

int model_zoo_llama(struct model_builder *b, const struct model_spec *s)
{
	struct tf tf = { .norm = MODEL_RMSNORM, .act = MODEL_SWIGLU,
			 .pre = 1 };
	int64_t h = s->args->v[MODEL_KEY_HIDDEN];

	/* llama/model.py: int(2 * 4h / 3), rounded up to multiple_of 256 */
	if (start(b, s, &tf, (2 * 4 * h / 3 + 255) / 256 * 256) < 0)
		return -1;
	return decoder_only(b, &tf, 0);
}

int model_zoo_bert(struct model_builder *b, const struct model_spec *s)
{
	struct tf tf = { .norm = MODEL_LAYERNORM, .act = MODEL_GELU,
			 .bias = 1, .drop = 1, .embed_norm = 1,
			 .type_rows = 2 };
	int64_t h = s->args->v[MODEL_KEY_HIDDEN];
	int x, table, i;

	if (start(b, s, &tf, 4 * h) < 0)
		return -1;
	tf.pos_rows = tf.t.seq > 512 ? tf.t.seq : 512;
	tf.t.arch = MODEL_TF_ENCODER;
	tf.t.flags |= MODEL_TF_TIED_EMBEDDINGS;
	x = embed(b, &tf, "embed", 0, &table);
	for (i = 0; i < tf.t.layers; i++)
		x = block(b, &tf, x, i, 0, -1);
	x = model_add_linear(b, x, "mlm.dense", tf.t.hidden, 1, 0);
	x = model_add_gelu(b, x, "mlm.act", tf.gelu);
	x = model_add_norm(b, MODEL_LAYERNORM, x, "mlm.norm");
	return finish(b, &tf, head(b, &tf, x, table, 1));
}

int model_zoo_vaswani(struct model_builder *b, const struct model_spec *s)
{
	struct tf tf = { .norm = MODEL_LAYERNORM, .act = MODEL_RELU,
			 .bias = 1, .drop = 1 };
	int64_t h = s->args->v[MODEL_KEY_HIDDEN];

	if (start(b, s, &tf, 4 * h) < 0)
		return -1;
	return encoder_decoder(b, &tf);
}

int model_zoo_t5(struct model_builder *b, const struct model_spec *s)
{
	struct tf tf = { .norm = MODEL_RMSNORM, .act = MODEL_RELU,
			 .pre = 1, .drop = 1 };
	int64_t h = s->args->v[MODEL_KEY_HIDDEN];

	if (start(b, s, &tf, 4 * h) < 0)
		return -1;
	return encoder_decoder(b, &tf);
}
