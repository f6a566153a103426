/*
 * model_yaml.c -- a network written by a user as a YAML list of layers
 * (format: configs/models/README.md).
 *
 * HOW IT WORKS
 *
 * 1. libcyaml loads the text into raw structs and checks the schema
 *    (unknown keys, types, the layer type's spelling) with the line of
 *    the fault.  It reads the first YAML document and ignores any after
 *    it, so a file with a second one is refused before it loads.
 * 2. libcyaml 1.3 reads an integer by its leading digits ("2abc" is 2,
 *    "1e3" is 1, "4.9" is 4, "0x10" is 16), and a boolean as true unless
 *    it is one of a few false spellings ("nonsense" is true), so the text
 *    is parsed once more with libyaml (core_yaml_doc_open): every value
 *    under an integer key must be a whole decimal number
 *    (core_yaml_check_numbers), under a boolean key true or false
 *    (core_yaml_check_bools); and no value may be a YAML null, which
 *    libcyaml reads as the text "~" (core_yaml_check_nulls).
 *    That one document then gives the line of every later error.
 * 3. Each layer's keys are checked against its type: a key that does not
 *    apply is refused even when it is 0 (every optional integer is a
 *    pointer, so an absent key differs from a written 0), a required key
 *    must be there, and a written value must be in range.
 * 4. The builder (model_build.c) checks shapes and counts.  Its failures
 *    come back as "file:line: what" at the layer's line; a count too large
 *    keeps DLSIM_ERANGE, anything else is DLSIM_EPARSE.
 *
 * A layer takes its input from the layer before it unless `inputs:` names
 * earlier layers (or "input", the network input).  Pooling's stride
 * defaults to its kernel on each axis, as PyTorch's does.
 */
#include <assert.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "core/core.h"
#include "core/yaml.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Raw types and schema                                              */
/* ---------------------------------------------------------------- */

struct raw_layer {
	char *name;
	int type;
	char **inputs;
	unsigned inputs_count;
	/* pointers: absent (NULL) differs from a written 0 */
	int64_t *out_channels, *out_features, *kernel, *kernel_h, *kernel_w;
	int64_t *stride, *padding, *dilation, *groups, *size, *hidden;
	int *bias, *ceil_mode, *bidirectional, *sum_directions;
};

struct raw_shape {
	int64_t channels, height, width;
};

struct raw_model {
	char *name, *source;
	struct raw_shape input;
	int64_t batch;
	struct raw_layer *layers;
	unsigned layers_count;
};

static const cyaml_strval_t type_strings[] = {
	{ "conv2d", MODEL_CONV2D }, { "fc", MODEL_FC },
	{ "maxpool", MODEL_MAXPOOL }, { "avgpool", MODEL_AVGPOOL },
	{ "globalpool", MODEL_GLOBALPOOL }, { "batchnorm", MODEL_BATCHNORM },
	{ "lrn", MODEL_LRN }, { "relu", MODEL_RELU },
	{ "sigmoid", MODEL_SIGMOID }, { "tanh", MODEL_TANH },
	{ "add", MODEL_ADD }, { "concat", MODEL_CONCAT },
	{ "dropout", MODEL_DROPOUT }, { "flatten", MODEL_FLATTEN },
	{ "softmax_xent", MODEL_SOFTMAX_XENT }, { "lstm", MODEL_LSTM },
	{ "gru", MODEL_GRU }, { "rnn", MODEL_RNN },
};

#define OPT CYAML_FLAG_OPTIONAL
#define PINT(key, field) \
	CYAML_FIELD_INT_PTR(key, OPT | CYAML_FLAG_POINTER, struct raw_layer, \
			    field)

static const cyaml_schema_value_t input_name = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, MODEL_NAME_LEN - 1),
};

static const cyaml_schema_field_t layer_fields[] = {
	CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_POINTER | OPT,
			       struct raw_layer, name, 1, MODEL_NAME_LEN - 1),
	CYAML_FIELD_ENUM("type", CYAML_FLAG_STRICT, struct raw_layer, type,
			 type_strings, CYAML_ARRAY_LEN(type_strings)),
	CYAML_FIELD_SEQUENCE("inputs", CYAML_FLAG_POINTER | OPT,
			     struct raw_layer, inputs, &input_name, 1,
			     MODEL_MAX_MERGE_INPUTS),
	PINT("out_channels", out_channels), PINT("out_features", out_features),
	PINT("kernel", kernel), PINT("kernel_h", kernel_h),
	PINT("kernel_w", kernel_w), PINT("stride", stride),
	PINT("padding", padding), PINT("dilation", dilation),
	PINT("groups", groups), PINT("size", size), PINT("hidden", hidden),
	CYAML_FIELD_BOOL_PTR("bias", OPT, struct raw_layer, bias),
	CYAML_FIELD_BOOL_PTR("ceil_mode", OPT, struct raw_layer, ceil_mode),
	CYAML_FIELD_BOOL_PTR("bidirectional", OPT, struct raw_layer,
			     bidirectional),
	CYAML_FIELD_BOOL_PTR("sum_directions", OPT, struct raw_layer,
			     sum_directions),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t layer_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_layer,
			    layer_fields),
};

static const cyaml_schema_field_t shape_fields[] = {
	CYAML_FIELD_INT("channels", CYAML_FLAG_DEFAULT, struct raw_shape,
			channels),
	CYAML_FIELD_INT("height", CYAML_FLAG_DEFAULT, struct raw_shape,
			height),
	CYAML_FIELD_INT("width", CYAML_FLAG_DEFAULT, struct raw_shape, width),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t model_fields[] = {
	CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_POINTER, struct raw_model,
			       name, 1, MODEL_NAME_LEN - 1),
	CYAML_FIELD_STRING_PTR("source", CYAML_FLAG_POINTER | OPT,
			       struct raw_model, source, 1, 255),
	CYAML_FIELD_MAPPING("input", CYAML_FLAG_DEFAULT, struct raw_model,
			    input, shape_fields),
	CYAML_FIELD_INT("batch", CYAML_FLAG_DEFAULT, struct raw_model, batch),
	CYAML_FIELD_SEQUENCE("layers", CYAML_FLAG_POINTER, struct raw_model,
			     layers, &layer_entry, 1, MODEL_MAX_LAYERS),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t model_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct raw_model,
			    model_fields),
};

/* Every key of the schema whose value is an integer (for step 2). */
static const char *const integer_keys[] = {
	"channels", "height", "width", "batch", "out_channels",
	"out_features", "kernel", "kernel_h", "kernel_w", "stride",
	"padding", "dilation", "groups", "size", "hidden", NULL
};

/* ---------------------------------------------------------------- */
/* Which layer keys apply where                                      */
/* ---------------------------------------------------------------- */

#define KIND(k) (1u << (k))
#define CONV KIND(MODEL_CONV2D)
#define POOL (KIND(MODEL_MAXPOOL) | KIND(MODEL_AVGPOOL))
#define RECURRENT (KIND(MODEL_LSTM) | KIND(MODEL_GRU) | KIND(MODEL_RNN))

/* An optional integer key of a layer: the kinds it applies to and the
 * least value it may take. */
struct layer_key {
	const char *key;
	size_t offset;        /* of its int64_t * in struct raw_layer */
	unsigned kinds;
	int64_t min;
};

#define LKEY(field, kinds, min) \
	{ #field, offsetof(struct raw_layer, field), kinds, min }

static const struct layer_key layer_keys[] = {
	LKEY(out_channels, CONV, 1),
	LKEY(out_features, KIND(MODEL_FC), 1),
	LKEY(kernel, CONV | POOL, 1),
	LKEY(kernel_h, CONV | POOL, 1),
	LKEY(kernel_w, CONV | POOL, 1),
	LKEY(stride, CONV | POOL, 1),
	LKEY(padding, CONV | POOL, 0),
	LKEY(dilation, CONV, 1),
	LKEY(groups, CONV, 1),
	LKEY(size, KIND(MODEL_LRN), 1),
	LKEY(hidden, RECURRENT, 1),
};

#define N_LAYER_KEYS ((int)(sizeof(layer_keys) / sizeof(layer_keys[0])))

/* The value of key k in rl, or NULL if the file does not give it. */
static const int64_t *key_value(const struct raw_layer *rl,
				const struct layer_key *k)
{
	const int64_t *const *p =
		(const int64_t *const *)(const void *)((const char *)rl +
						       k->offset);

	return *p;
}

/* A pointer field: its value if written, else the default. */
static int64_t given_or(const int64_t *v, int64_t dflt)
{
	return v ? *v : dflt;
}

/* A boolean pointer field: written and true (every flag defaults to
 * false).  A pointer, like the integers, so that a flag written false
 * where it does not apply is refused as a written 0 is. */
static int model_flag(const int *v)
{
	return v && *v;
}

/* ---------------------------------------------------------------- */
/* Building                                                          */
/* ---------------------------------------------------------------- */

struct loader {
	const char *path;
	struct core_yaml_doc *doc;   /* the text, parsed once, for lines */
	struct model_builder b;
};

/* Index of the layer called name, searching layers built so far. */
static int find_layer(const struct model *m, const char *name)
{
	int i;

	for (i = m->n_layers - 1; i >= 0; i--)
		if (strcmp(m->layers[i].name, name) == 0)
			return i;
	return -1;
}

/* "path:line: message" with the line of `at` (a dotted YAML path). */
static int at_error(struct loader *ld, const char *at, int code,
		    struct dlsim_err *err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int at_error(struct loader *ld, const char *at, int code,
		    struct dlsim_err *err, const char *fmt, ...)
{
	char msg[DLSIM_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dlsim_err_set(err, code, "%s:%d: %s", ld->path,
			     core_yaml_doc_line(ld->doc, at), msg);
}

/* The YAML path of layer i, or of its key when key is not NULL. */
static const char *layer_path(char *buf, size_t n, unsigned i,
			      const char *key)
{
	snprintf(buf, n, "layers.%u%s%s", i, key ? "." : "", key ? key : "");
	return buf;
}

/* The loader's code for a builder failure: a count too large and memory
 * keep theirs; a shape that cannot exist is a fault in the file. */
static int builder_code(int code)
{
	return code == DLSIM_ERANGE || code == DLSIM_ENOMEM ? code :
	       DLSIM_EPARSE;
}

/* The kernel on each axis: kernel_h / kernel_w, else kernel; 0 if
 * neither is given (model_check_kernel refuses a layer giving both). */
static void kernel_hw(const struct raw_layer *rl, int64_t *kh, int64_t *kw)
{
	*kh = given_or(rl->kernel_h, given_or(rl->kernel, 0));
	*kw = given_or(rl->kernel_w, given_or(rl->kernel, 0));
}

static int add_conv(struct model_builder *b, int in, const char *name,
		    const struct raw_layer *rl)
{
	struct model_conv_spec s;

	model_conv_spec_init(&s, *rl->out_channels, 1, 1, 0);
	kernel_hw(rl, &s.kernel_h, &s.kernel_w);
	s.stride_h = s.stride_w = given_or(rl->stride, 1);
	s.pad_h = s.pad_w = given_or(rl->padding, 0);
	s.dilation = given_or(rl->dilation, 1);
	s.groups = given_or(rl->groups, 1);
	s.bias = model_flag(rl->bias);
	return model_add_conv(b, in, name, &s);
}

/* PyTorch's MaxPool2d/AvgPool2d: stride defaults to the kernel size,
 * axis by axis, so a 2x4 window steps 2 down and 4 across. */
static int add_pool(struct model_builder *b, int in, const char *name,
		    const struct raw_layer *rl)
{
	struct model_pool_spec s;

	model_pool_spec_init(&s, 1, 1, 0);
	kernel_hw(rl, &s.kernel_h, &s.kernel_w);
	s.stride_h = given_or(rl->stride, s.kernel_h);
	s.stride_w = given_or(rl->stride, s.kernel_w);
	s.pad_h = s.pad_w = given_or(rl->padding, 0);
	s.ceil_mode = model_flag(rl->ceil_mode);
	return model_add_pool(b, (enum model_layer_kind)rl->type, in, name,
			      &s);
}

static int add_layer(struct model_builder *b, const int *in, int n_in,
		     const char *name, const struct raw_layer *rl)
{
	enum model_layer_kind k = (enum model_layer_kind)rl->type;

	if (n_in > 1 && k != MODEL_ADD && k != MODEL_CONCAT)
		return model_builder_fail(b, DLSIM_EINVAL,
					  "only add and concat take several "
					  "inputs");
	switch (k) {
	case MODEL_CONV2D:
		return add_conv(b, in[0], name, rl);
	case MODEL_FC:
		return model_add_fc(b, in[0], name, *rl->out_features,
				    model_flag(rl->bias));
	case MODEL_MAXPOOL:
	case MODEL_AVGPOOL:
		return add_pool(b, in[0], name, rl);
	case MODEL_GLOBALPOOL:
		return model_add_globalpool(b, in[0], name);
	case MODEL_BATCHNORM:
		return model_add_batchnorm(b, in[0], name);
	case MODEL_LRN:
		return model_add_lrn(b, in[0], name, *rl->size);
	case MODEL_ADD:
	case MODEL_CONCAT:
		return model_add_merge(b, k, n_in, in, name);
	case MODEL_LSTM:
	case MODEL_GRU:
	case MODEL_RNN:
		return model_add_rnn(b, k, in[0], name, *rl->hidden,
				     (model_flag(rl->bidirectional) ?
				      MODEL_LAYER_BIDIRECTIONAL : 0u) |
				     (model_flag(rl->sum_directions) ?
				      MODEL_LAYER_SUM_DIRECTIONS : 0u),
				     model_flag(rl->bias));
	default:
		return model_add_simple(b, k, in[0], name);
	}
}

/*
 * A layer gives its kernel as 'kernel' (square) or as 'kernel_h' and
 * 'kernel_w', never both: with both, one figure would silently lose
 * ("kernel: 3, kernel_h: 5" was a 5x3 kernel), and a pair that agrees
 * says nothing the one key does not, so any mix is refused, at the
 * per-axis key.  Stride and padding have no per-axis keys.
 */
static int model_check_kernel(struct loader *ld, unsigned i,
			      const struct raw_layer *rl,
			      struct dlsim_err *err)
{
	const char *axis = rl->kernel_h ? "kernel_h" : "kernel_w";
	char at[64];

	if (!rl->kernel || (!rl->kernel_h && !rl->kernel_w))
		return DLSIM_OK;
	return at_error(ld, layer_path(at, sizeof(at), i, axis), DLSIM_EPARSE,
			err, "'kernel' and '%s' both given: write 'kernel', "
			"or 'kernel_h' and 'kernel_w'", axis);
}

/*
 * Check the keys layer i gives against its type: none that does not
 * apply (even a 0 or a false), every integer in range, the kernel in one
 * form.  Returns DLSIM_OK or the error it set.
 */
static int check_given(struct loader *ld, unsigned i,
		       const struct raw_layer *rl, struct dlsim_err *err)
{
	const char *kind = model_layer_kind_name(rl->type);
	unsigned bit = KIND(rl->type);
	char at[64];
	int j;

	for (j = 0; j < N_LAYER_KEYS; j++) {
		const struct layer_key *k = &layer_keys[j];
		const int64_t *v = key_value(rl, k);

		layer_path(at, sizeof(at), i, k->key);
		if (v && !(k->kinds & bit))
			return at_error(ld, at, DLSIM_EPARSE, err, "'%s' does "
					"not apply to a %s layer", k->key,
					kind);
		if (v && *v < k->min)
			return at_error(ld, at, DLSIM_EPARSE, err, "'%s' must "
					"be %s (got %lld)", k->key, k->min ?
					"positive" : "0 or more",
					(long long)*v);
	}
	if ((rl->bidirectional || rl->sum_directions) && !(bit & RECURRENT))
		return at_error(ld, layer_path(at, sizeof(at), i,
					       rl->bidirectional ?
					       "bidirectional" :
					       "sum_directions"), DLSIM_EPARSE,
				err, "'%s' does not apply to a %s layer",
				rl->bidirectional ? "bidirectional" :
				"sum_directions", kind);
	if (rl->bias && !(bit & (CONV | KIND(MODEL_FC) | RECURRENT)))
		return at_error(ld, layer_path(at, sizeof(at), i, "bias"),
				DLSIM_EPARSE, err, "'bias' does not apply to "
				"a %s layer", kind);
	if (rl->ceil_mode && !(bit & POOL))
		return at_error(ld, layer_path(at, sizeof(at), i,
					       "ceil_mode"), DLSIM_EPARSE,
				err, "'ceil_mode' does not apply to a %s "
				"layer", kind);
	return model_check_kernel(ld, i, rl, err);
}

/* Every key layer i's type requires, reported at the layer's line. */
static int check_required(struct loader *ld, unsigned i,
			  const struct raw_layer *rl, struct dlsim_err *err)
{
	const char *kind = model_layer_kind_name(rl->type);
	unsigned bit = KIND(rl->type);
	int64_t kh, kw;
	char at[64];

	layer_path(at, sizeof(at), i, NULL);
	kernel_hw(rl, &kh, &kw);
	if ((bit & (CONV | POOL)) && (!kh || !kw))
		return at_error(ld, at, DLSIM_EPARSE, err, "a %s layer needs "
				"'kernel' (or 'kernel_h' and 'kernel_w')",
				kind);
	if ((bit & CONV) && !rl->out_channels)
		return at_error(ld, at, DLSIM_EPARSE, err, "a conv2d layer "
				"needs 'out_channels'");
	if ((bit & KIND(MODEL_FC)) && !rl->out_features)
		return at_error(ld, at, DLSIM_EPARSE, err, "an fc layer needs "
				"'out_features'");
	if ((bit & KIND(MODEL_LRN)) && !rl->size)
		return at_error(ld, at, DLSIM_EPARSE, err, "an lrn layer "
				"needs 'size'");
	if ((bit & RECURRENT) && !rl->hidden)
		return at_error(ld, at, DLSIM_EPARSE, err, "a recurrent layer "
				"(%s) needs 'hidden'", kind);
	return DLSIM_OK;
}

/* Resolve layer i's inputs to indices into in[]; sets *n_in. */
static int find_inputs(struct loader *ld, unsigned i,
		       const struct raw_layer *rl, int *in, int *n_in,
		       struct dlsim_err *err)
{
	const struct model *m = ld->b.m;
	char at[64];
	unsigned j;

	in[0] = m->n_layers - 1;
	*n_in = 1;
	if (!rl->inputs_count)
		return DLSIM_OK;
	*n_in = (int)rl->inputs_count;
	for (j = 0; j < rl->inputs_count; j++) {
		in[j] = find_layer(m, rl->inputs[j]);
		if (in[j] < 0)
			return at_error(ld, layer_path(at, sizeof(at), i,
						       "inputs"),
					DLSIM_EPARSE, err, "input '%s' is not "
					"an earlier layer", rl->inputs[j]);
	}
	return DLSIM_OK;
}

/*
 * An unnamed layer is called "<type><index>" (relu2), which an earlier
 * layer may already have been named by hand: two layers called relu2,
 * and an `inputs:` naming it would mean whichever the lookup met first.
 * (The other way round, a later hand-written name meeting an earlier
 * default, is "used twice" in build_layer.)  Renaming the unnamed one
 * around the clash would break the documented default, so the file is
 * refused at the unnamed layer, with the line of the one named first.
 * idx is the unnamed layer's index in the model; the input is layer 0,
 * and file layer j is model layer j + 1.
 */
static int model_check_default_name(struct loader *ld, unsigned i,
				    int idx, struct dlsim_err *err)
{
	const struct model *m = ld->b.m;
	const char *name = m->layers[idx].name;
	char at[64], other[64];
	int j;

	for (j = 0; j < idx; j++)
		if (strcmp(m->layers[j].name, name) == 0)
			break;
	if (j == idx)
		return DLSIM_OK;
	if (j > 0)
		layer_path(other, sizeof(other), (unsigned)(j - 1), NULL);
	else
		snprintf(other, sizeof(other), "input");
	return at_error(ld, layer_path(at, sizeof(at), i, NULL), DLSIM_EPARSE,
			err, "this unnamed %s layer's default name '%s' is "
			"already the name of the layer at line %d; name one "
			"of them", model_layer_kind_name(m->layers[idx].kind),
			name, core_yaml_doc_line(ld->doc, other));
}

static int build_layer(struct loader *ld, unsigned i,
		       const struct raw_layer *rl, struct dlsim_err *err)
{
	int in[MODEL_MAX_MERGE_INPUTS], n_in, rc, idx;
	char at[64];

	rc = check_given(ld, i, rl, err);
	if (!rc)
		rc = check_required(ld, i, rl, err);
	if (rc)
		return rc;
	if (rl->name && find_layer(ld->b.m, rl->name) >= 0)
		return at_error(ld, layer_path(at, sizeof(at), i, "name"),
				DLSIM_EPARSE, err, "layer name '%s' is used "
				"twice", rl->name);
	rc = find_inputs(ld, i, rl, in, &n_in, err);
	if (rc)
		return rc;
	idx = add_layer(&ld->b, in, n_in, rl->name, rl);
	if (idx < 0)
		return at_error(ld, layer_path(at, sizeof(at), i, NULL),
				builder_code(ld->b.err.code), err, "%s",
				ld->b.err.msg);
	return rl->name ? DLSIM_OK : model_check_default_name(ld, i, idx,
							       err);
}

static int load_raw(struct loader *ld, const struct raw_model *rm,
		    struct model **out, struct dlsim_err *err)
{
	struct model_shape in = { rm->input.channels, rm->input.height,
				  rm->input.width };
	struct dlsim_err ferr = { 0, "" };
	unsigned i;
	int rc = DLSIM_OK;

	if (rm->batch < 1 || rm->batch > MODEL_MAX_BATCH)
		return at_error(ld, "batch", DLSIM_EPARSE, err, "'batch' must "
				"be in 1..%lld (got %lld)",
				(long long)MODEL_MAX_BATCH,
				(long long)rm->batch);
	model_builder_init(&ld->b, rm->name, in, rm->batch,
			   rm->source ? rm->source : ld->path);
	if (ld->b.err.code)
		rc = at_error(ld, "input", builder_code(ld->b.err.code), err,
			      "%s", ld->b.err.msg);
	for (i = 0; !rc && i < rm->layers_count; i++)
		rc = build_layer(ld, i, &rm->layers[i], err);
	if (rc) {
		model_free(ld->b.m);
		ld->b.m = NULL;
		return rc;
	}
	/* what finish refuses (activations too large) concerns the whole
	 * list of layers */
	rc = model_builder_finish(&ld->b, out, &ferr);
	if (rc)
		return at_error(ld, "layers", builder_code(rc), err, "%s",
				ferr.msg);
	return DLSIM_OK;
}

/* The most boolean keys the schema may hold (it holds 4). */
#define MODEL_MAX_BOOL_KEYS 8

/*
 * Every boolean key under fields, at any depth, appended to keys from n
 * on and NULL-terminated; returns the new count.  Read off the schema,
 * so that a boolean key added to it is checked strictly
 * (model_check_bools) without being listed a second time.
 */
static int model_collect_bools(const cyaml_schema_field_t *fields,
			       const char **keys, int n)
{
	for (; fields->key; fields++) {
		const cyaml_schema_value_t *v = &fields->value;

		if (v->type == CYAML_SEQUENCE ||
		    v->type == CYAML_SEQUENCE_FIXED)
			v = v->sequence.entry;
		if (v->type == CYAML_BOOL) {
			assert(n < MODEL_MAX_BOOL_KEYS);  /* ours, not input */
			keys[n++] = fields->key;
		} else if (v->type == CYAML_MAPPING) {
			n = model_collect_bools(v->mapping.fields, keys, n);
		}
	}
	keys[n] = NULL;
	return n;
}

/* libcyaml reads any boolean text but a few as true ("bias: nonsense",
 * "bias: ~"): each must be written true or false (core_yaml_check_bools
 * lists the spellings). */
static int model_check_bools(struct loader *ld, struct dlsim_err *err)
{
	const char *keys[MODEL_MAX_BOOL_KEYS + 1];
	char key[64], text[64];
	int line;

	model_collect_bools(model_fields, keys, 0);
	line = core_yaml_check_bools(ld->doc, keys, key, text, sizeof(key));
	if (!line)
		return DLSIM_OK;
	return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: '%s' must be true or "
			     "false (got '%s')", ld->path, line, key, text);
}

/* libcyaml loads a null under a string key as its text ("name: ~" named
 * the model "~"): refused like a value that is not there
 * (core_yaml_check_nulls). */
static int model_check_nulls(struct loader *ld, struct dlsim_err *err)
{
	char key[64], text[64];
	int item, line = core_yaml_check_nulls(ld->doc, key, text,
					       sizeof(key), &item);

	if (!line)
		return DLSIM_OK;
	return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: %s'%s' has no value "
			     "('%s' is YAML's null)", ld->path, line,
			     item ? "an item of " : "", key, text);
}

/* Step 2 of the file's head: integers must be written as integers. */
static int check_numbers(struct loader *ld, struct dlsim_err *err)
{
	char key[64], text[64];
	int line = core_yaml_check_numbers(ld->doc, integer_keys, NULL, key,
					   text, sizeof(key));

	if (!line)
		return DLSIM_OK;
	return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: '%s' must be a whole "
			     "number (got '%s')", ld->path, line, key, text);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int model_load_yaml(const char *path, struct model **out,
		    struct dlsim_err *err)
{
	struct loader ld;
	struct core_yaml_log log;
	struct raw_model *rm = NULL;
	cyaml_config_t cfg;
	cyaml_err_t ce;
	char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	memset(&ld, 0, sizeof(ld));
	rc = core_read_file(path, &text, &len, err);
	if (rc)
		return rc;
	if ((rc = core_yaml_too_deep(text, len))) {
		rc = dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: nested deeper "
				   "than %d levels", path, rc,
				   CORE_YAML_MAX_DEPTH);
		free(text);
		return rc;
	}
	/* libcyaml would read the first document and drop the rest */
	if ((rc = core_yaml_second_document(text, len))) {
		rc = dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: a second YAML "
				   "document starts here; the file must hold "
				   "one", path, rc);
		free(text);
		return rc;
	}
	core_yaml_config(&cfg, &log);
	ce = cyaml_load_data((const uint8_t *)text, len, &cfg, &model_schema,
			     (cyaml_data_t **)&rm, NULL);
	if (ce != CYAML_OK)
		rc = dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: %s", path,
				   core_yaml_log_line(&log, text, len),
				   log.first[0] ? log.first :
				   cyaml_strerror(ce));
	else if (!rm)
		rc = dlsim_err_set(err, DLSIM_EPARSE, "%s:1: empty file",
				   path);
	if (rc)
		goto cleanup;
	ld.path = path;
	ld.doc = core_yaml_doc_open(text, len);
	if (!ld.doc)   /* libcyaml read the same text: memory ran out */
		rc = dlsim_err_set(err, DLSIM_ENOMEM, "%s: out of memory "
				   "reading the file", path);
	if (!rc)
		rc = check_numbers(&ld, err);
	if (!rc)
		rc = model_check_bools(&ld, err);
	if (!rc)
		rc = model_check_nulls(&ld, err);
	if (!rc)
		rc = load_raw(&ld, rm, out, err);
cleanup:
	core_yaml_doc_close(ld.doc);
	if (rm)
		cyaml_free(&cfg, &model_schema, rm, 0);
	free(text);
	return rc;
}
