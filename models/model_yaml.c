/*
 * model_yaml.c -- a network written by a user as a YAML list of layers
 * (format: configs/models/README.md).
 *
 * libcyaml checks the schema (unknown keys, types, the layer type's
 * spelling) with the line of the fault; this file then feeds each layer to
 * the builder, which checks shapes, and turns any failure into
 * "file:line: what" using core_yaml_line() on "layers.N.key".
 * A layer takes its input from the layer before it unless `inputs:` names
 * earlier layers (or "input", the network input).
 */
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
	int64_t out_channels, out_features, kernel, kernel_h, kernel_w;
	int64_t padding, size;
	/* pointers: absent (NULL) differs from a written 0, which is bad */
	int64_t *stride, *dilation, *groups;
	int bias, ceil_mode;
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
	{ "softmax_xent", MODEL_SOFTMAX_XENT },
};

#define OPT CYAML_FLAG_OPTIONAL
#define INT(key, field) \
	CYAML_FIELD_INT(key, OPT, struct raw_layer, field)
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
			     MODEL_MAX_INPUTS),
	INT("out_channels", out_channels), INT("out_features", out_features),
	INT("kernel", kernel), INT("kernel_h", kernel_h),
	INT("kernel_w", kernel_w), PINT("stride", stride),
	INT("padding", padding), PINT("dilation", dilation),
	PINT("groups", groups), INT("size", size),
	CYAML_FIELD_BOOL("bias", OPT, struct raw_layer, bias),
	CYAML_FIELD_BOOL("ceil_mode", OPT, struct raw_layer, ceil_mode),
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

/* ---------------------------------------------------------------- */
/* Building                                                          */
/* ---------------------------------------------------------------- */

struct loader {
	const char *path, *text;
	size_t len;
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

static int layer_error(struct loader *ld, unsigned i, const char *key,
		       const char *msg, struct dlsim_err *err)
{
	char path[64];

	snprintf(path, sizeof(path), "layers.%u%s%s", i, key ? "." : "",
		 key ? key : "");
	return dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: %s", ld->path,
			     core_yaml_line(ld->text, ld->len, path), msg);
}

static int64_t or_default(int64_t v, int64_t dflt)
{
	return v ? v : dflt;
}

/* A pointer field: its value if written, else the default. */
static int64_t given_or(const int64_t *v, int64_t dflt)
{
	return v ? *v : dflt;
}

static int add_conv(struct model_builder *b, int in, const char *name,
		    const struct raw_layer *rl)
{
	struct model_conv_spec s;

	model_conv_spec_init(&s, rl->out_channels, 1, 1, 0);
	s.kernel_h = or_default(rl->kernel_h, rl->kernel);
	s.kernel_w = or_default(rl->kernel_w, rl->kernel);
	s.stride_h = s.stride_w = given_or(rl->stride, 1);
	s.pad_h = s.pad_w = rl->padding;
	s.dilation = given_or(rl->dilation, 1);
	s.groups = given_or(rl->groups, 1);
	s.bias = rl->bias;
	return model_add_conv(b, in, name, &s);
}

static int add_pool(struct model_builder *b, int in, const char *name,
		    const struct raw_layer *rl)
{
	struct model_pool_spec s;

	model_pool_spec_init(&s, 1, 1, 0);
	s.kernel_h = or_default(rl->kernel_h, rl->kernel);
	s.kernel_w = or_default(rl->kernel_w, rl->kernel);
	s.stride_h = s.stride_w = given_or(rl->stride, s.kernel_h);
	s.pad_h = s.pad_w = rl->padding;
	s.ceil_mode = rl->ceil_mode;
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
		return model_add_fc(b, in[0], name, rl->out_features,
				    rl->bias);
	case MODEL_MAXPOOL:
	case MODEL_AVGPOOL:
		return add_pool(b, in[0], name, rl);
	case MODEL_GLOBALPOOL:
		return model_add_globalpool(b, in[0], name);
	case MODEL_BATCHNORM:
		return model_add_batchnorm(b, in[0], name);
	case MODEL_LRN:
		return model_add_lrn(b, in[0], name, rl->size);
	case MODEL_ADD:
	case MODEL_CONCAT:
		return model_add_merge(b, k, n_in, in, name);
	default:
		return model_add_simple(b, k, in[0], name);
	}
}

/* Which keys each layer type takes, to reject the ones it ignores. */
static const char *stray_key(const struct raw_layer *rl)
{
	enum model_layer_kind k = (enum model_layer_kind)rl->type;
	int conv = k == MODEL_CONV2D, fc = k == MODEL_FC;
	int pool = k == MODEL_MAXPOOL || k == MODEL_AVGPOOL;

	if (rl->out_channels && !conv)
		return "out_channels";
	if (rl->out_features && !fc)
		return "out_features";
	if ((rl->kernel || rl->kernel_h || rl->kernel_w) && !conv && !pool)
		return "kernel";
	if ((rl->stride || rl->padding) && !conv && !pool)
		return rl->stride ? "stride" : "padding";
	if ((rl->dilation || rl->groups) && !conv)
		return rl->dilation ? "dilation" : "groups";
	if (rl->bias && !conv && !fc)
		return "bias";
	if (rl->ceil_mode && !pool)
		return "ceil_mode";
	if (rl->size && k != MODEL_LRN)
		return "size";
	return NULL;
}

/* The first written stride, dilation or groups that is not positive. */
static const char *nonpositive_key(const struct raw_layer *rl)
{
	if (rl->stride && *rl->stride <= 0)
		return "stride";
	if (rl->dilation && *rl->dilation <= 0)
		return "dilation";
	if (rl->groups && *rl->groups <= 0)
		return "groups";
	return NULL;
}

static int build_layer(struct loader *ld, unsigned i,
		       const struct raw_layer *rl, struct dlsim_err *err)
{
	struct model *m = ld->b.m;
	int in[MODEL_MAX_INPUTS], n_in = 1, idx;
	const char *stray = stray_key(rl);
	char msg[DLSIM_ERR_LEN];
	unsigned j;

	if (stray) {
		snprintf(msg, sizeof(msg), "'%s' does not apply to a %s layer",
			 stray, model_layer_kind_name(rl->type));
		return layer_error(ld, i, stray, msg, err);
	}
	if ((stray = nonpositive_key(rl))) {
		snprintf(msg, sizeof(msg), "'%s' must be positive", stray);
		return layer_error(ld, i, stray, msg, err);
	}
	if (rl->name && find_layer(m, rl->name) >= 0) {
		snprintf(msg, sizeof(msg), "layer name '%s' is used twice",
			 rl->name);
		return layer_error(ld, i, "name", msg, err);
	}
	in[0] = m->n_layers - 1;
	if (rl->inputs_count) {
		n_in = (int)rl->inputs_count;
		for (j = 0; j < rl->inputs_count; j++) {
			in[j] = find_layer(m, rl->inputs[j]);
			if (in[j] >= 0)
				continue;
			snprintf(msg, sizeof(msg), "input '%s' is not an "
				 "earlier layer", rl->inputs[j]);
			return layer_error(ld, i, "inputs", msg, err);
		}
	}
	idx = add_layer(&ld->b, in, n_in, rl->name, rl);
	if (idx < 0) {
		core_strlcpy(msg, ld->b.err.msg, sizeof(msg));
		return layer_error(ld, i, NULL, msg, err);
	}
	return DLSIM_OK;
}

static int load_raw(struct loader *ld, const struct raw_model *rm,
		    struct model **out, struct dlsim_err *err)
{
	struct model_shape in = { rm->input.channels, rm->input.height,
				  rm->input.width };
	unsigned i;
	int rc = DLSIM_OK;

	if (rm->batch <= 0)
		return dlsim_err_set(err, DLSIM_EPARSE,
				     "%s:%d: 'batch' must be positive (got "
				     "%lld)", ld->path,
				     core_yaml_line(ld->text, ld->len,
						    "batch"),
				     (long long)rm->batch);
	model_builder_init(&ld->b, rm->name, in, rm->batch,
			   rm->source ? rm->source : ld->path);
	if (ld->b.err.code)
		rc = dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: %s", ld->path,
				   core_yaml_line(ld->text, ld->len, "input"),
				   ld->b.err.msg);
	for (i = 0; !rc && i < rm->layers_count; i++)
		rc = build_layer(ld, i, &rm->layers[i], err);
	if (rc) {
		model_free(ld->b.m);
		ld->b.m = NULL;
		return rc;
	}
	return model_builder_finish(&ld->b, out, err);
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
	core_yaml_config(&cfg, &log);
	ce = cyaml_load_data((const uint8_t *)text, len, &cfg, &model_schema,
			     (cyaml_data_t **)&rm, NULL);
	if (ce == CYAML_OK && !rm) {
		free(text);
		return dlsim_err_set(err, DLSIM_EPARSE, "%s:1: empty file",
				     path);
	}
	if (ce != CYAML_OK) {
		rc = dlsim_err_set(err, DLSIM_EPARSE, "%s:%d: %s", path,
				   core_yaml_log_line(&log, text, len),
				   log.first[0] ? log.first :
				   cyaml_strerror(ce));
		free(text);
		return rc;
	}
	ld.path = path;
	ld.text = text;
	ld.len = len;
	rc = load_raw(&ld, rm, out, err);
	cyaml_free(&cfg, &model_schema, rm, 0);
	free(text);
	return rc;
}
