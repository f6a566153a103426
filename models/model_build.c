/*
 * model_build.c -- the layer builder: appends layers to a model, derives
 * each output shape and parameter count, and rejects shapes that cannot
 * exist (a kernel larger than its padded input, an add of unequal
 * tensors, channels that do not divide into groups).
 *
 * Output sizes follow PyTorch's documented formulas (torch.nn.Conv2d,
 * torch.nn.MaxPool2d), which reduce to Ben-Nun & Hoefler's App. A.4
 * W' = floor((W - K + 2 Pad) / Stride) + 1 when dilation is 1:
 *   conv: out = floor((in + 2p - d(k - 1) - 1) / s) + 1
 *   pool: the same with d = 1, and with ceil_mode the division rounds up
 *         unless the last window would start inside the right padding.
 *
 * Parameter counts: conv C_out * (C_in / groups) * K_h * K_w (+ C_out
 * bias); fc C_in * C_out (+ C_out); batch norm 2 C (gamma, beta; the
 * running statistics are buffers, not parameters, as in torchvision).
 * The transformer layers' shapes and counts are in model_build_tf.c.
 *
 * LIMITS.  Shapes come from user YAML and may be absurd (out_channels:
 * 9223372036854775807), so every product and running sum of counts goes
 * through __builtin_*_overflow and is capped at MODEL_MAX_COUNT (2^53,
 * exact in a double): per-sample tensor sizes, a layer's and the model's
 * parameters, merged inputs, kept activations.  Passing it is
 * DLSIM_ERANGE, "layer 'NAME': ... too large".  Invariant: every committed
 * layer's output has at most MODEL_MAX_COUNT values, so each of its three
 * dimensions does too, and products of a committed shape need no check.
 *
 * Fan-out: model_builder_finish() counts each layer's consumers, which
 * model_grad_accum_cost() (model_layer.c) turns into the gradient sums of
 * the backward pass.  It also fixes each layer's shape-only cost facts
 * (model_layer_derive), which every pass of every prediction reads.
 */
#include "model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/* *out = a * b; 0 if that overflows or passes MODEL_MAX_COUNT. */
static int count_mul(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_mul_overflow(a, b, out) && *out <= MODEL_MAX_COUNT;
}

/* *out = a + b; 0 if that overflows or passes MODEL_MAX_COUNT. */
static int count_add(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_add_overflow(a, b, out) && *out <= MODEL_MAX_COUNT;
}

/* Values in a shape; 0 if more than MODEL_MAX_COUNT (or not positive). */
static int shape_elems_checked(struct model_shape s, int64_t *out)
{
	int64_t hw;

	return s.c > 0 && s.h > 0 && s.w > 0 && count_mul(s.h, s.w, &hw) &&
	       count_mul(s.c, hw, out);
}

/* Values in a committed layer's shape, which the invariant bounds. */
static int64_t shape_elems(struct model_shape s)
{
	return s.c * s.h * s.w;
}

/* The name a layer will get: its own, or "<kind><index>". */
static void layer_label(const struct model_builder *b,
			enum model_layer_kind kind, const char *name,
			char *buf, size_t n)
{
	if (name && *name)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "%s%d", model_layer_kind_name(kind),
			 b->m->n_layers);
}

static int check_input(struct model_builder *b, int in,
		       enum model_layer_kind kind, const char *name)
{
	char label[MODEL_NAME_LEN];

	if (!b->m || b->err.code != DLSIM_OK)
		return -1;
	if (in < 0 || in >= b->m->n_layers) {
		layer_label(b, kind, name, label, sizeof(label));
		dlsim_err_set(&b->err, DLSIM_EINVAL,
			      "layer '%s': input %d is not an earlier layer",
			      label, in);
		return -1;
	}
	return 0;
}

/*
 * Reserve the next layer slot, zeroed, with its name, kind and single
 * input filled in.  Returns NULL after a failure.
 */
static struct model_layer *layer_new(struct model_builder *b,
				     enum model_layer_kind kind,
				     const char *name, int in)
{
	struct model *m = b->m;
	struct model_layer *l;

	if (m->n_layers >= MODEL_MAX_LAYERS) {
		dlsim_err_set(&b->err, DLSIM_ENOMEM,
			      "model '%s' has more than %d layers",
			      m->name, MODEL_MAX_LAYERS);
		return NULL;
	}
	if (m->n_layers == m->cap_layers) {
		int cap = m->cap_layers ? m->cap_layers * 2 : 64;
		struct model_layer *p = realloc(m->layers,
						(size_t)cap * sizeof(*p));
		if (!p) {
			dlsim_err_set(&b->err, DLSIM_ENOMEM,
				      "out of memory building model '%s'",
				      m->name);
			return NULL;
		}
		m->layers = p;
		m->cap_layers = cap;
	}
	l = &m->layers[m->n_layers];
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	if (name && *name)
		core_strlcpy(l->name, name, sizeof(l->name));
	else
		snprintf(l->name, sizeof(l->name), "%s%d",
			 model_layer_kind_name(kind), m->n_layers);
	if (in >= 0) {
		l->n_inputs = 1;
		l->inputs[0] = in;
		l->in = m->layers[in].out;
		l->in_elems = shape_elems(l->in);
	}
	l->dilation = 1;
	l->groups = 1;
	l->block = b->block;
	return l;
}

/*
 * Commit the layer reserved by layer_new(); returns its index, or -1 if
 * its output or the model's parameters would pass MODEL_MAX_COUNT (the
 * layer's own params must already be a checked count).
 */
static int layer_commit(struct model_builder *b, struct model_layer *l)
{
	struct model *m = b->m;
	int64_t elems, total;

	if (!shape_elems_checked(l->out, &elems))
		return model_builder_failf(b, DLSIM_ERANGE, "layer '%s': output "
			    "%lldx%lldx%lld is too large (more than 2^53 "
			    "values per sample)",
			    l->name, (long long)l->out.c, (long long)l->out.h,
			    (long long)l->out.w);
	if (!count_add(m->params, l->params, &total))
		return model_builder_failf(b, DLSIM_ERANGE, "layer '%s': the model's "
			    "parameters are too large (more than 2^53)",
			    l->name);
	m->params = total;
	return m->n_layers++;
}

/*
 * Output size along one axis, floor or ceil division; 0 if the window
 * does not fit, -1 if in + 2p or d(k - 1) overflows.  All of in, k, s, d
 * are positive and p is not negative.
 */
static int64_t out_size(int64_t in, int64_t k, int64_t s, int64_t p,
			int64_t d, int ceil_mode)
{
	int64_t padded, reach, span, out;

	if (__builtin_mul_overflow(p, 2, &padded) ||
	    __builtin_add_overflow(in, padded, &padded) ||
	    __builtin_mul_overflow(d, k - 1, &reach))
		return -1;
	span = padded - reach - 1;     /* both terms >= 0: no overflow */
	if (span < 0)
		return 0;
	out = span / s + 1;
	if (ceil_mode && span % s) {
		/* PyTorch: the last window must start inside the input or
		 * the left padding, never wholly in the right padding:
		 * drop it if (out - 1) s >= in + p, i.e. out - 1 >=
		 * ceil((in + p) / s), written so that nothing overflows. */
		int64_t edge = in + p;      /* <= padded */

		if (out < edge / s + (edge % s != 0))
			out++;
	}
	return out;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

void model_conv_spec_init(struct model_conv_spec *s, int64_t out_channels,
			  int64_t kernel, int64_t stride, int64_t pad)
{
	memset(s, 0, sizeof(*s));
	s->out_channels = out_channels;
	s->kernel_h = s->kernel_w = kernel;
	s->stride_h = s->stride_w = stride;
	s->pad_h = s->pad_w = pad;
	s->dilation = 1;
	s->groups = 1;
}

void model_pool_spec_init(struct model_pool_spec *s, int64_t kernel,
			  int64_t stride, int64_t pad)
{
	memset(s, 0, sizeof(*s));
	s->kernel_h = s->kernel_w = kernel;
	s->stride_h = s->stride_w = stride;
	s->pad_h = s->pad_w = pad;
}

/* A model's batch and input shape: -1 (and the error) if out of range. */
static int model_check(struct model_builder *b, struct model_shape input,
		       int64_t batch)
{
	const char *name = b->m->name;
	int64_t elems;

	if (batch < 1 || batch > MODEL_MAX_BATCH)
		return model_builder_failf(b, DLSIM_ERANGE, "model '%s': batch must be in "
			    "1..%lld (got %lld)", name,
			    (long long)MODEL_MAX_BATCH, (long long)batch);
	if (input.c <= 0 || input.h <= 0 || input.w <= 0)
		return model_builder_failf(b, DLSIM_EINVAL, "model '%s': input shape must "
			    "be positive (got %lldx%lldx%lld)", name,
			    (long long)input.c, (long long)input.h,
			    (long long)input.w);
	if (!shape_elems_checked(input, &elems))
		return model_builder_failf(b, DLSIM_ERANGE, "model '%s': input "
			    "%lldx%lldx%lld is too large (more than 2^53 "
			    "values per sample)", name, (long long)input.c,
			    (long long)input.h, (long long)input.w);
	return 0;
}

void model_builder_init(struct model_builder *b, const char *name,
			struct model_shape input, int64_t default_batch,
			const char *source)
{
	struct model_layer *l;

	memset(b, 0, sizeof(*b));
	b->block = -1;
	b->m = calloc(1, sizeof(*b->m));
	if (!b->m) {
		dlsim_err_set(&b->err, DLSIM_ENOMEM,
			      "out of memory building model");
		return;
	}
	/* a family's keys can make a name longer than the field: a cut
	 * one ends in "..." rather than in a number it misstates
	 * ("vocab=1677" for vocab=16777216) */
	if (core_strlcpy(b->m->name, name, sizeof(b->m->name)))
		memcpy(b->m->name + sizeof(b->m->name) - 4, "...", 4);
	core_strlcpy(b->m->source, source, sizeof(b->m->source));
	b->m->default_batch = default_batch;
	if (model_check(b, input, default_batch) < 0)
		return;
	l = layer_new(b, MODEL_INPUT, "input", -1);
	if (!l)
		return;
	l->out = input;
	layer_commit(b, l);
}

int model_builder_fail(struct model_builder *b, int code, const char *msg)
{
	dlsim_err_set(&b->err, code, "%s", msg);
	return -1;
}

int model_builder_failf(struct model_builder *b, int code, const char *fmt,
			...)
{
	char msg[DLSIM_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return model_builder_fail(b, code, msg);
}

struct model_layer *model_layer_reserve(struct model_builder *b,
					enum model_layer_kind kind,
					const char *name, int in)
{
	if (check_input(b, in, kind, name) < 0)
		return NULL;
	return layer_new(b, kind, name, in);
}

int model_layer_commit(struct model_builder *b, struct model_layer *l)
{
	return layer_commit(b, l);
}

int model_count_mul(int64_t a, int64_t b, int64_t *out)
{
	return count_mul(a, b, out);
}

int model_count_add(int64_t a, int64_t b, int64_t *out)
{
	return count_add(a, b, out);
}

/* The spec's values, before any shape: -1 (and the error) if wrong. */
static int conv_check(struct model_builder *b, const struct model_layer *l,
		      const struct model_conv_spec *s)
{
	if (s->out_channels <= 0 || s->kernel_h <= 0 || s->kernel_w <= 0 ||
	    s->stride_h <= 0 || s->stride_w <= 0 || s->pad_h < 0 ||
	    s->pad_w < 0 || s->dilation <= 0 || s->groups <= 0)
		return model_builder_failf(b, DLSIM_EINVAL,
			    "layer '%s': conv2d needs positive channels, "
			    "kernel, stride, dilation and groups", l->name);
	if (l->in.c % s->groups)
		return model_builder_failf(b, DLSIM_EINVAL,
			    "layer '%s': %lld input channels do not divide "
			    "into %lld groups", l->name, (long long)l->in.c,
			    (long long)s->groups);
	if (s->out_channels % s->groups)
		return model_builder_failf(b, DLSIM_EINVAL,
			    "layer '%s': %lld output channels do not divide "
			    "into %lld groups", l->name,
			    (long long)s->out_channels, (long long)s->groups);
	return 0;
}

/* Output shape and parameters of a checked conv; -1 if they fail. */
static int conv_counts(struct model_builder *b, struct model_layer *l,
		       const struct model_conv_spec *s)
{
	int64_t params;

	l->out.c = s->out_channels;
	l->out.h = out_size(l->in.h, s->kernel_h, s->stride_h, s->pad_h,
			    s->dilation, 0);
	l->out.w = out_size(l->in.w, s->kernel_w, s->stride_w, s->pad_w,
			    s->dilation, 0);
	if (l->out.h < 0 || l->out.w < 0)
		return model_builder_failf(b, DLSIM_ERANGE, "layer '%s': kernel, padding or "
			    "dilation too large", l->name);
	if (l->out.h == 0 || l->out.w == 0)
		return model_builder_failf(b, DLSIM_EINVAL,
			    "layer '%s': kernel larger than its padded input "
			    "(%lldx%lld)", l->name, (long long)l->in.h,
			    (long long)l->in.w);
	/* each filter's weights, then all filters, then the bias */
	if (!count_mul(l->in.c / s->groups, s->kernel_h, &params) ||
	    !count_mul(params, s->kernel_w, &params) ||
	    !count_mul(params, s->out_channels, &params) ||
	    !count_add(params, s->bias ? s->out_channels : 0, &params))
		return model_builder_failf(b, DLSIM_ERANGE, "layer '%s': parameters too "
			    "large (more than 2^53)", l->name);
	l->params = params;
	return 0;
}

int model_add_conv(struct model_builder *b, int in, const char *name,
		   const struct model_conv_spec *s)
{
	struct model_layer *l;

	if (check_input(b, in, MODEL_CONV2D, name) < 0 ||
	    !(l = layer_new(b, MODEL_CONV2D, name, in)) ||
	    conv_check(b, l, s) < 0)
		return -1;
	l->kernel_h = s->kernel_h;
	l->kernel_w = s->kernel_w;
	l->stride_h = s->stride_h;
	l->stride_w = s->stride_w;
	l->pad_h = s->pad_h;
	l->pad_w = s->pad_w;
	l->dilation = s->dilation;
	l->groups = s->groups;
	l->has_bias = s->bias;
	if (conv_counts(b, l, s) < 0)
		return -1;
	return layer_commit(b, l);
}

int model_add_fc(struct model_builder *b, int in, const char *name,
		 int64_t out_features, int bias)
{
	struct model_layer *l;
	int64_t params;

	if (check_input(b, in, MODEL_FC, name) < 0 ||
	    !(l = layer_new(b, MODEL_FC, name, in)))
		return -1;
	if (out_features <= 0)
		return model_builder_failf(b, DLSIM_EINVAL,
			    "layer '%s': fc needs a positive number of "
			    "outputs (got %lld)", l->name,
			    (long long)out_features);
	l->has_bias = bias;
	l->out.c = out_features;
	l->out.h = l->out.w = 1;
	if (!count_mul(l->in_elems, out_features, &params) ||
	    !count_add(params, bias ? out_features : 0, &params))
		return model_builder_failf(b, DLSIM_ERANGE, "layer '%s': parameters too "
			    "large (%lld inputs x %lld outputs is more than "
			    "2^53)", l->name, (long long)l->in_elems,
			    (long long)out_features);
	l->params = params;
	return layer_commit(b, l);
}

int model_add_pool(struct model_builder *b, enum model_layer_kind kind,
		   int in, const char *name, const struct model_pool_spec *s)
{
	struct model_layer *l;

	if (kind != MODEL_MAXPOOL && kind != MODEL_AVGPOOL)
		return model_builder_fail(b, DLSIM_EINVAL,
					  "pooling must be max or avg");
	if (check_input(b, in, kind, name) < 0 ||
	    !(l = layer_new(b, kind, name, in)))
		return -1;
	/* p > k / 2 is 2p > k for whole numbers, without the overflow */
	if (s->kernel_h <= 0 || s->kernel_w <= 0 || s->stride_h <= 0 ||
	    s->stride_w <= 0 || s->pad_h < 0 || s->pad_w < 0 ||
	    s->pad_h > s->kernel_h / 2 || s->pad_w > s->kernel_w / 2)
		return model_builder_failf(b, DLSIM_EINVAL,
			    "layer '%s': pooling needs a positive kernel and "
			    "stride and padding at most half the kernel",
			    l->name);
	l->kernel_h = s->kernel_h;
	l->kernel_w = s->kernel_w;
	l->stride_h = s->stride_h;
	l->stride_w = s->stride_w;
	l->pad_h = s->pad_h;
	l->pad_w = s->pad_w;
	l->out.c = l->in.c;
	l->out.h = out_size(l->in.h, s->kernel_h, s->stride_h, s->pad_h, 1,
			    s->ceil_mode);
	l->out.w = out_size(l->in.w, s->kernel_w, s->stride_w, s->pad_w, 1,
			    s->ceil_mode);
	if (l->out.h < 0 || l->out.w < 0)
		return model_builder_failf(b, DLSIM_ERANGE, "layer '%s': kernel or padding "
			    "too large", l->name);
	if (l->out.h == 0 || l->out.w == 0)
		return model_builder_failf(b, DLSIM_EINVAL,
			    "layer '%s': pooling window larger than its "
			    "input (%lldx%lld)", l->name, (long long)l->in.h,
			    (long long)l->in.w);
	return layer_commit(b, l);
}

int model_add_globalpool(struct model_builder *b, int in, const char *name)
{
	struct model_layer *l;

	if (check_input(b, in, MODEL_GLOBALPOOL, name) < 0 ||
	    !(l = layer_new(b, MODEL_GLOBALPOOL, name, in)))
		return -1;
	l->kernel_h = l->in.h;
	l->kernel_w = l->in.w;
	l->stride_h = l->in.h;
	l->stride_w = l->in.w;
	l->out.c = l->in.c;
	l->out.h = l->out.w = 1;
	return layer_commit(b, l);
}

int model_add_batchnorm(struct model_builder *b, int in, const char *name)
{
	struct model_layer *l;

	if (check_input(b, in, MODEL_BATCHNORM, name) < 0 ||
	    !(l = layer_new(b, MODEL_BATCHNORM, name, in)))
		return -1;
	l->out = l->in;
	l->params = 2 * l->in.c;
	return layer_commit(b, l);
}

int model_add_lrn(struct model_builder *b, int in, const char *name,
		  int64_t size)
{
	struct model_layer *l;

	if (check_input(b, in, MODEL_LRN, name) < 0 ||
	    !(l = layer_new(b, MODEL_LRN, name, in)))
		return -1;
	if (size <= 0)
		return model_builder_failf(b, DLSIM_EINVAL,
			    "layer '%s': lrn size must be positive (got %lld)",
			    l->name, (long long)size);
	l->lrn_size = size;
	l->out = l->in;
	return layer_commit(b, l);
}

int model_add_act(struct model_builder *b, enum model_layer_kind kind,
		  int in, const char *name)
{
	if (kind != MODEL_RELU && kind != MODEL_SIGMOID && kind != MODEL_TANH)
		return model_builder_fail(b, DLSIM_EINVAL,
					  "activation must be relu, sigmoid "
					  "or tanh");
	return model_add_simple(b, kind, in, name);
}

int model_add_merge(struct model_builder *b, enum model_layer_kind kind,
		    int n_in, const int *in, const char *name)
{
	struct model_layer *l;
	int i;

	if (kind != MODEL_ADD && kind != MODEL_CONCAT)
		return model_builder_fail(b, DLSIM_EINVAL,
					  "a merge must be add or concat");
	if (b->m && (n_in < 2 || n_in > MODEL_MAX_MERGE_INPUTS)) {
		char label[MODEL_NAME_LEN];

		layer_label(b, kind, name, label, sizeof(label));
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': add and concat "
			    "take 2 to %d inputs (got %d)", label,
			    MODEL_MAX_MERGE_INPUTS, n_in);
	}
	for (i = 0; i < n_in; i++)
		if (check_input(b, in[i], kind, name) < 0)
			return -1;
	if (!(l = layer_new(b, kind, name, in[0])))
		return -1;
	l->n_inputs = n_in;
	l->out = l->in;
	l->in_elems = 0;
	for (i = 0; i < n_in; i++) {
		struct model_shape s = b->m->layers[in[i]].out;

		l->inputs[i] = in[i];
		if (s.h != l->in.h || s.w != l->in.w ||
		    (kind == MODEL_ADD && s.c != l->in.c))
			return model_builder_failf(b, DLSIM_EINVAL,
				    "layer '%s': input %d has a shape that "
				    "does not match input 0", l->name, i);
		if (!count_add(l->in_elems, shape_elems(s), &l->in_elems) ||
		    (kind == MODEL_CONCAT && i > 0 &&
		     !count_add(l->out.c, s.c, &l->out.c)))
			return model_builder_failf(b, DLSIM_ERANGE, "layer '%s': inputs too "
				    "large (more than 2^53 values per sample)",
				    l->name);
	}
	return layer_commit(b, l);
}

int model_add_simple(struct model_builder *b, enum model_layer_kind kind,
		     int in, const char *name)
{
	struct model_layer *l;

	switch (kind) {
	case MODEL_RELU: case MODEL_SIGMOID: case MODEL_TANH:
	case MODEL_DROPOUT: case MODEL_FLATTEN: case MODEL_SOFTMAX_XENT:
	case MODEL_GELU: case MODEL_SWIGLU:
		break;
	default:
		return model_builder_fail(b, DLSIM_EINVAL,
					  "not a single-input layer kind");
	}
	if (check_input(b, in, kind, name) < 0 ||
	    !(l = layer_new(b, kind, name, in)))
		return -1;
	l->out = l->in;
	if (kind == MODEL_FLATTEN) {
		l->out.c = l->in_elems;
		l->out.h = l->out.w = 1;
	}
	if (kind == MODEL_SWIGLU && l->in.c % 2)
		return model_builder_failf(b, DLSIM_EINVAL, "layer '%s': swiglu needs an "
			    "even number of channels, gate then up (got "
			    "%lld)", l->name, (long long)l->in.c);
	if (kind == MODEL_SWIGLU)
		l->out.c = l->in.c / 2;
	return layer_commit(b, l);
}

int model_conv(struct model_builder *b, int in, int64_t out_channels,
	       int64_t kernel, int64_t stride, int64_t pad, int bias)
{
	struct model_conv_spec s;

	model_conv_spec_init(&s, out_channels, kernel, stride, pad);
	s.bias = bias;
	return model_add_conv(b, in, NULL, &s);
}

int model_relu(struct model_builder *b, int in)
{
	return model_add_simple(b, MODEL_RELU, in, NULL);
}

int model_conv_bn_relu(struct model_builder *b, int in, int64_t out_channels,
		       int64_t kernel, int64_t stride, int64_t pad)
{
	int x = model_conv(b, in, out_channels, kernel, stride, pad, 0);

	x = model_add_batchnorm(b, x, NULL);
	return model_relu(b, x);
}

int model_conv_relu(struct model_builder *b, int in, int64_t out_channels,
		    int64_t kernel, int64_t stride, int64_t pad)
{
	return model_relu(b, model_conv(b, in, out_channels, kernel, stride,
					pad, 1));
}

int model_pool(struct model_builder *b, enum model_layer_kind kind, int in,
	       const char *name, int64_t kernel, int64_t stride, int64_t pad,
	       int ceil_mode)
{
	struct model_pool_spec s;

	model_pool_spec_init(&s, kernel, stride, pad);
	s.ceil_mode = ceil_mode;
	return model_add_pool(b, kind, in, name, &s);
}

/*
 * Activations kept for backward, per sample.  In-place ReLU (as in
 * torchvision) overwrites its input and keeps no tensor of its own; a
 * flatten is a view; every other layer's output is kept, and what some
 * layers keep besides (model_layer_saved_elems: a recurrent layer's
 * gates).
 */
static void count_activations(struct model_builder *b)
{
	struct model *m = b->m;
	int i;

	m->activation_elems = 0;
	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];
		int64_t extra = model_layer_saved_elems(l);

		if (l->kind == MODEL_RELU || l->kind == MODEL_FLATTEN)
			continue;
		if (extra < 0 ||
		    !count_add(m->activation_elems, extra,
			       &m->activation_elems) ||
		    !count_add(m->activation_elems, shape_elems(l->out),
			       &m->activation_elems)) {
			dlsim_err_set(&b->err, DLSIM_ERANGE, "model '%s': "
				      "activations kept for backward too "
				      "large (more than 2^53 values per "
				      "sample)", m->name);
			return;
		}
	}
}

/*
 * How many layers read each output.  A layer that lists one input twice
 * (an add of x and x) reads it twice, and autograd sums both gradients,
 * so it counts twice.
 */
static void count_consumers(struct model *m)
{
	int i, j;

	for (i = 0; i < m->n_layers; i++)
		m->layers[i].n_consumers = 0;
	for (i = 0; i < m->n_layers; i++)
		for (j = 0; j < m->layers[i].n_inputs; j++)
			m->layers[m->layers[i].inputs[j]].n_consumers++;
}

int model_builder_finish(struct model_builder *b, struct model **out,
			 struct dlsim_err *err)
{
	struct model *m = b->m;
	int i;

	*out = NULL;
	if (m && b->err.code == DLSIM_OK && m->n_layers < 2)
		dlsim_err_set(&b->err, DLSIM_EINVAL,
			      "model '%s' has no layers", m->name);
	if (m && b->err.code == DLSIM_OK)
		count_activations(b);
	if (b->err.code != DLSIM_OK) {
		model_free(m);
		b->m = NULL;
		return dlsim_err_set(err, b->err.code, "%s", b->err.msg);
	}
	count_consumers(m);
	for (i = 0; i < m->n_layers; i++)
		model_layer_derive(&m->layers[i]);
	*out = m;
	b->m = NULL;
	return DLSIM_OK;
}

void model_free(struct model *m)
{
	if (!m)
		return;
	free(m->layers);
	free(m);
}
