/*
 * model.h -- how the library builds models: a builder that appends layers,
 * propagates shapes and checks them, used by the zoo (model_zoo_*.c) and
 * the YAML loader (model_yaml.c).
 *
 * A builder carries a sticky error: after the first failure every call
 * returns -1 and does nothing, so a zoo function can add a hundred layers
 * and check once at the end (model_builder_finish), as SQLite's
 * sqlite3_str and git's strbuf do with allocation failures.
 *
 * Layer indices: the input is layer 0 (MODEL_IN); every add returns the
 * new layer's index, or -1 after a failure.
 */
#ifndef DLSIM_MODELS_MODEL_H
#define DLSIM_MODELS_MODEL_H

#include "dlsim.h"

#define MODEL_IN 0

/* The most layers one model may have (a bound on user YAML input). */
#define MODEL_MAX_LAYERS 100000

struct model_builder {
	struct model *m;
	struct dlsim_err err;
	int block;           /* the block new layers belong to (layer.block);
				-1, as model_builder_init() sets it, outside
				transformer blocks */
};

/* Everything a convolution needs; model_conv_spec_init() fills defaults
 * (stride 1, no padding, dilation 1, one group, no bias). */
struct model_conv_spec {
	int64_t out_channels;
	int64_t kernel_h, kernel_w;
	int64_t stride_h, stride_w;
	int64_t pad_h, pad_w;
	int64_t dilation;
	int64_t groups;
	int bias;
};

/* Pooling: kernel, stride, padding, and PyTorch's ceil_mode. */
struct model_pool_spec {
	int64_t kernel_h, kernel_w;
	int64_t stride_h, stride_w;
	int64_t pad_h, pad_w;
	int ceil_mode;
};

void model_conv_spec_init(struct model_conv_spec *s, int64_t out_channels,
			  int64_t kernel, int64_t stride, int64_t pad);
void model_pool_spec_init(struct model_pool_spec *s, int64_t kernel,
			  int64_t stride, int64_t pad);

/*
 * Start a model with a per-sample input shape; sets up layer 0.  A batch
 * outside 1..MODEL_MAX_BATCH or an input of more than MODEL_MAX_COUNT
 * values is DLSIM_ERANGE, a shape that is not positive DLSIM_EINVAL; the
 * error sticks and model_builder_finish() reports it.  name and source
 * are copied.
 */
void model_builder_init(struct model_builder *b, const char *name,
			struct model_shape input, int64_t default_batch,
			const char *source);

/*
 * Layer constructors.  `name` may be NULL: "<kind><index>" is used.  A
 * shape that cannot exist is DLSIM_EINVAL; an output, a layer's or the
 * model's parameters or merged inputs past MODEL_MAX_COUNT are
 * DLSIM_ERANGE ("layer 'NAME': ... too large").
 */
int model_add_conv(struct model_builder *b, int in, const char *name,
		   const struct model_conv_spec *s);
int model_add_fc(struct model_builder *b, int in, const char *name,
		 int64_t out_features, int bias);
int model_add_pool(struct model_builder *b, enum model_layer_kind kind,
		   int in, const char *name, const struct model_pool_spec *s);
int model_add_globalpool(struct model_builder *b, int in, const char *name);
int model_add_batchnorm(struct model_builder *b, int in, const char *name);
int model_add_lrn(struct model_builder *b, int in, const char *name,
		  int64_t size);
int model_add_act(struct model_builder *b, enum model_layer_kind kind,
		  int in, const char *name);
int model_add_merge(struct model_builder *b, enum model_layer_kind kind,
		    int n_in, const int *in, const char *name);
int model_add_simple(struct model_builder *b, enum model_layer_kind kind,
		     int in, const char *name);

/*
 * Transformer layers (model_build_tf.c); shapes are (c, h = S tokens,
 * w = 1) per sample.  tied_to: an earlier embedding layer whose table is
 * the weight (0: a weight of its own; see struct model_layer).
 *
 * model_add_embedding: token ids (1 x S x 1) to (hidden x S x 1), from a
 * vocab x hidden table plus pos_rows and type_rows rows added to it.
 * model_add_linear: (Hin x S) to (out_features x S).
 * model_add_attention: self-attention when kv < 0, qkv holding
 * (heads + 2 kv_heads) x d channels; cross-attention otherwise, qkv
 * holding heads x d (queries) and kv 2 kv_heads x d (keys, values).
 * flags: MODEL_LAYER_UNFUSED and MODEL_LAYER_ATTN_DROPOUT (dlsim.h).
 * model_add_norm: MODEL_LAYERNORM or MODEL_RMSNORM over each token.
 * GELU and SWIGLU go through model_add_simple (SwiGLU halves c);
 * model_add_gelu is a GELU with flags MODEL_LAYER_EAGER_GELU or 0.
 */
int model_add_embedding(struct model_builder *b, int in, const char *name,
			int64_t vocab, int64_t hidden, int64_t pos_rows,
			int64_t type_rows, int tied_to);
int model_add_linear(struct model_builder *b, int in, const char *name,
		     int64_t out_features, int bias, int tied_to);
int model_add_gelu(struct model_builder *b, int in, const char *name,
		   unsigned flags);
int model_add_attention(struct model_builder *b, int qkv, int kv,
			const char *name, int64_t heads, int64_t kv_heads,
			int causal, unsigned flags);
int model_add_norm(struct model_builder *b, enum model_layer_kind kind,
		   int in, const char *name);
/* Bahdanau's additive attention of one head (GNMT): q holds the
 * projected queries (d), kv the projected keys then the values (2d);
 * params d + 1 (v and its normalised scale g). */
int model_add_additive_attention(struct model_builder *b, int q, int kv,
				 const char *name);

/*
 * Recurrent and recommender layers (model_build_rnn.c).
 *
 * model_add_rnn: MODEL_LSTM, MODEL_GRU or MODEL_RNN of `hidden` units
 * over the input's h (T steps of in.c x in.w features); flags: 0,
 * MODEL_LAYER_BIDIRECTIONAL, or that | MODEL_LAYER_SUM_DIRECTIONS; bias:
 * PyTorch's two bias vectors.
 * model_add_embedding_bag: a rows x dim table, `lookups` rows summed per
 * sample, out (dim, 1, 1); `in` is only where the batch starts (the ids
 * are the layer's own); flags: 0 or MODEL_LAYER_HOST_CANDIDATE.
 * model_add_interaction: n_in (2 .. MODEL_MAX_INPUTS) inputs of the same
 * (D, 1, 1) to (D + n_in (n_in - 1) / 2, 1, 1).
 */
int model_add_rnn(struct model_builder *b, enum model_layer_kind kind,
		  int in, const char *name, int64_t hidden, unsigned flags,
		  int bias);
int model_add_embedding_bag(struct model_builder *b, int in,
			    const char *name, int64_t rows, int64_t dim,
			    int64_t lookups, unsigned flags);
int model_add_interaction(struct model_builder *b, int n_in, const int *in,
			  const char *name);

/*
 * Values per sample a layer keeps for backward besides its output (a
 * recurrent layer's gates and cell, an additive attention's tanh); 0 for
 * most kinds, -1 past MODEL_MAX_COUNT.  model_builder_finish() adds them
 * to the model's activation_elems.
 */
int64_t model_layer_saved_elems(const struct model_layer *l);

/* Fix l's derived cost facts (macs, window_depth, matrix_kernel,
 * channel_pad16: dlsim.h) from its shape; model_builder_finish() calls
 * it on every layer. */
void model_layer_derive(struct model_layer *l);

/* Costs of the kinds in model_layer_rnn.c, for model_layer_cost() (n
 * samples, a and wb bytes per activation and weight value; *c zeroed). */
int model_rnn_gates(enum model_layer_kind k);   /* 4, 3, 1; 0: no RNN */
double model_rnn_macs(const struct model_layer *l);
void model_rnn_cost(const struct model_layer *l, enum model_pass p,
		    double n, double a, double wb, struct model_pass_cost *c);
void model_bag_cost(const struct model_layer *l, enum model_pass p,
		    double n, double a, double wb, struct model_pass_cost *c);
void model_interaction_cost(const struct model_layer *l, enum model_pass p,
			    double n, double a, struct model_pass_cost *c);

/* Shorthands the zoo uses everywhere. */
int model_conv(struct model_builder *b, int in, int64_t out_channels,
	       int64_t kernel, int64_t stride, int64_t pad, int bias);
int model_relu(struct model_builder *b, int in);
/* conv (no bias) -> batch norm -> relu, the unit of most modern CNNs */
int model_conv_bn_relu(struct model_builder *b, int in, int64_t out_channels,
		       int64_t kernel, int64_t stride, int64_t pad);
/* conv with bias -> relu, the unit of the pre-batch-norm CNNs (AlexNet,
 * VGG, Torch7's GoogLeNet) */
int model_conv_relu(struct model_builder *b, int in, int64_t out_channels,
		    int64_t kernel, int64_t stride, int64_t pad);
/* a max or average pool of kernel/stride with pad, rounding its output
 * size up with ceil_mode (PyTorch's, Caffe's pools): the zoo's one pool
 * unit */
int model_pool(struct model_builder *b, enum model_layer_kind kind, int in,
	       const char *name, int64_t kernel, int64_t stride, int64_t pad,
	       int ceil_mode);

/* Index of a layer kind by its name ("conv2d", ...); -1 if unknown. */
int model_layer_kind_parse(const char *name);

/* Set a failure by hand (for callers that check their own inputs). */
int model_builder_fail(struct model_builder *b, int code, const char *msg);
int model_builder_failf(struct model_builder *b, int code, const char *fmt,
			...) __attribute__((format(printf, 3, 4)));

/*
 * For layer constructors outside model_build.c.  model_layer_reserve()
 * checks that `in` is an earlier layer and reserves the next slot, zeroed
 * but for kind, name, block, the single input, its shape and in_elems;
 * NULL after any failure.  The caller fills out and params (checked
 * counts) and calls model_layer_commit(), which returns the index or -1.
 * model_count_mul/add: 0 when the result passes MODEL_MAX_COUNT.
 */
struct model_layer *model_layer_reserve(struct model_builder *b,
					enum model_layer_kind kind,
					const char *name, int in);
int model_layer_commit(struct model_builder *b, struct model_layer *l);
int model_count_mul(int64_t a, int64_t b, int64_t *out);
int model_count_add(int64_t a, int64_t b, int64_t *out);

/*
 * End the build: count the activations kept for backward and each
 * layer's n_consumers.  On success *out receives the model (the builder
 * no longer owns it); on failure (the builder's first error, no layers,
 * or kept activations past MODEL_MAX_COUNT: DLSIM_ERANGE) the partial
 * model is freed, *out is NULL and the error is copied to err.
 */
int model_builder_finish(struct model_builder *b, struct model **out,
			 struct dlsim_err *err);

/*
 * Keys of a parameterised family ("gpt:layers=2,hidden=64,..."), parsed
 * by model_args_parse() (model_spec.c).  Every key is a whole number in
 * min..max (min >= 1, so 0 in model_args means "not given").
 */
#define MODEL_MAX_KEYS 12

struct model_key {
	const char *name;
	int64_t min, max;
	int required;
};

struct model_args {
	int64_t v[MODEL_MAX_KEYS];   /* by key index; 0: not given */
};

/*
 * Parse text, "key=value,key=value", against the NULL-name-terminated
 * keys into *a, which keeps what it held for keys text does not give
 * (a preset's values, overridden).  spec is the whole model string, for
 * messages.  A key given twice in text, an unknown key, a value that is
 * not a whole number (DLSIM_EINVAL) or out of its range (DLSIM_ERANGE)
 * fails with one line naming the key and spec; *a may then be partly
 * written.  Empty or NULL text gives nothing.
 */
int model_args_parse(const char *spec, const char *text,
		     const struct model_key *keys, struct model_args *a,
		     struct dlsim_err *err);

/* DLSIM_EINVAL naming the first required key a lacks, else DLSIM_OK. */
int model_args_check_required(const char *spec,
			      const struct model_key *keys,
			      const struct model_args *a,
			      struct dlsim_err *err);

/* What a family builder gets: the model's name, its keys' values, the
 * batch and source to record. */
struct model_spec {
	const char *name;
	const struct model_args *args;
	int64_t batch;
	const char *source;
};

/* Indices of the keys in model_args, in the order of the families' key
 * tables (model_zoo.c). */
enum model_tf_key {
	MODEL_KEY_LAYERS = 0, MODEL_KEY_HIDDEN, MODEL_KEY_HEADS,
	MODEL_KEY_SEQ, MODEL_KEY_VOCAB, MODEL_KEY_FFN, MODEL_KEY_KV_HEADS,
	MODEL_KEY_UNFUSED, MODEL_KEY_EAGER_GELU
};

enum model_resnet_key { MODEL_KEY_DEPTH = 0, MODEL_KEY_WIDTH, MODEL_KEY_V1 };

/* gnmt takes all four, deepspeech2 the first three (seq: spectrogram
 * frames), dlrm only dim. */
enum model_rnn_key {
	MODEL_KEY_RNN_LAYERS = 0, MODEL_KEY_RNN_HIDDEN, MODEL_KEY_RNN_SEQ,
	MODEL_KEY_RNN_VOCAB
};

enum model_dlrm_key { MODEL_KEY_DLRM_DIM = 0 };

/* Family builders (model_zoo_transformer.c, model_zoo_resnet.c). */
int model_zoo_gpt(struct model_builder *b, const struct model_spec *s);
int model_zoo_bert(struct model_builder *b, const struct model_spec *s);
int model_zoo_t5(struct model_builder *b, const struct model_spec *s);
int model_zoo_vaswani(struct model_builder *b, const struct model_spec *s);
int model_zoo_llama(struct model_builder *b, const struct model_spec *s);
int model_zoo_resnet(struct model_builder *b, const struct model_spec *s);
/* model_zoo_rnn.c, model_zoo_dlrm.c */
int model_zoo_gnmt(struct model_builder *b, const struct model_spec *s);
int model_zoo_deepspeech2(struct model_builder *b,
			  const struct model_spec *s);
int model_zoo_dlrm(struct model_builder *b, const struct model_spec *s);

/*
 * ResNet's pieces (model_zoo_resnet.c), for networks built on its
 * backbone (SSD300, model_zoo_ssd.c).  model_resnet_stem: the 7x7/2 conv,
 * batch norm, ReLU and 3/2 max pool on the input.  model_resnet_stage:
 * stage `stage` (1-4, planes 64 << (stage - 1), blocks named
 * "layer<stage>.<i>") of `blocks` blocks of kind `block` after x, the
 * first with `stride`; *channels is x's width on entry and the stage's
 * on return.
 */
enum model_resnet_block {
	MODEL_RESNET_BASIC = 0,      /* two 3x3 convs (ResNet-18, -34) */
	MODEL_RESNET_BOTTLENECK,     /* 1x1, 3x3 strided, 1x1: v1.5 */
	MODEL_RESNET_BOTTLENECK_V1   /* 1x1 strided, 3x3, 1x1: He et al.'s */
};
int model_resnet_stem(struct model_builder *b);
int model_resnet_stage(struct model_builder *b, int x, int64_t *channels,
		       int stage, int blocks, int64_t stride,
		       enum model_resnet_block block, int64_t width);

/* The zoo's table of builders (model_zoo.c). */
struct model_zoo_entry {
	const char *name;
	const char *summary;
	int (*build)(struct model_builder *b);
};

/* Builders, one per family file. */
int model_zoo_lenet5(struct model_builder *b);
int model_zoo_alexnet(struct model_builder *b);
int model_zoo_alexnet_bvlc(struct model_builder *b);
int model_zoo_alexnet_tf(struct model_builder *b);
int model_zoo_googlenet_torch(struct model_builder *b);
int model_zoo_vgg11(struct model_builder *b);
int model_zoo_vgg16(struct model_builder *b);
int model_zoo_vgg19(struct model_builder *b);
int model_zoo_googlenet(struct model_builder *b);
int model_zoo_inception_v3(struct model_builder *b);
int model_zoo_resnet18(struct model_builder *b);
int model_zoo_resnet34(struct model_builder *b);
int model_zoo_resnet50(struct model_builder *b);
int model_zoo_resnet101(struct model_builder *b);
int model_zoo_resnet152(struct model_builder *b);
int model_zoo_densenet121(struct model_builder *b);
int model_zoo_mobilenet_v1(struct model_builder *b);
int model_zoo_mobilenet_v2(struct model_builder *b);
int model_zoo_squeezenet1_0(struct model_builder *b);
int model_zoo_ssd300(struct model_builder *b);

/* Fill the four figures of a pass cost (its kernel class is left as
 * it is). */
static inline void model_cost_set(struct model_pass_cost *c, double flops,
				  double bytes, double work, double depth)
{
	c->flops = flops;
	c->bytes = bytes;
	c->work = work;
	c->depth = depth;
}

#endif /* DLSIM_MODELS_MODEL_H */
