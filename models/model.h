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

/* Shorthands the zoo uses everywhere. */
int model_conv(struct model_builder *b, int in, int64_t out_channels,
	       int64_t kernel, int64_t stride, int64_t pad, int bias);
int model_relu(struct model_builder *b, int in);
/* conv (no bias) -> batch norm -> relu, the unit of most modern CNNs */
int model_conv_bn_relu(struct model_builder *b, int in, int64_t out_channels,
		       int64_t kernel, int64_t stride, int64_t pad);

/* Index of a layer kind by its name ("conv2d", ...); -1 if unknown. */
int model_layer_kind_parse(const char *name);

/* Set a failure by hand (for callers that check their own inputs). */
int model_builder_fail(struct model_builder *b, int code, const char *msg);

/*
 * End the build: count the activations kept for backward and each
 * layer's n_consumers.  On success *out receives the model (the builder
 * no longer owns it); on failure (the builder's first error, no layers,
 * or kept activations past MODEL_MAX_COUNT: DLSIM_ERANGE) the partial
 * model is freed, *out is NULL and the error is copied to err.
 */
int model_builder_finish(struct model_builder *b, struct model **out,
			 struct dlsim_err *err);

/* The zoo's table of builders (model_zoo.c). */
struct model_zoo_entry {
	const char *name;
	const char *summary;
	int (*build)(struct model_builder *b);
};

/* Builders, one per family file. */
int model_zoo_lenet5(struct model_builder *b);
int model_zoo_alexnet(struct model_builder *b);
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

#endif /* DLSIM_MODELS_MODEL_H */
