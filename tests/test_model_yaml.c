/*
 * test_model_yaml.c -- networks written as YAML (models/model_yaml.c):
 * shapes and parameters of valid files, and for each kind of mistake the
 * status code and a message that starts "FILE:LINE:" with the line a
 * user must look at.  Fixtures live in tests/data/models/; every error
 * fixture holds exactly one mistake, described in its first line.
 */
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"

#define DIR "tests/data/models/"

static struct model *load(const char *path)
{
	struct dlsim_err err = { 0 };
	struct model *m = NULL;

	ck_assert_msg(model_load_yaml(path, &m, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_ptr_nonnull(m);
	return m;
}

/* The layer named `name`; fails the test if there is none. */
static const struct model_layer *layer(const struct model *m,
				       const char *name, int *index)
{
	int i;

	for (i = 0; i < m->n_layers; i++)
		if (strcmp(m->layers[i].name, name) == 0) {
			if (index)
				*index = i;
			return &m->layers[i];
		}
	ck_abort_msg("%s has no layer '%s'", m->name, name);
	return NULL;
}

static void assert_shape(struct model_shape s, int64_t c, int64_t h,
			 int64_t w)
{
	ck_assert_int_eq(s.c, c);
	ck_assert_int_eq(s.h, h);
	ck_assert_int_eq(s.w, w);
}

/* ---------------------------------------------------------------- */
/* Valid files                                                       */
/* ---------------------------------------------------------------- */

/*
 * resblock.yaml, a 3x8x8 input:
 *   stem       conv 4@3x3 pad 1      4x8x8   params 4 * 3 * 9   = 108
 *   stem_bn    batchnorm             4x8x8   params 2 * 4       =   8
 *   stem_relu                        4x8x8
 *   b1_conv1   conv 4@3x3 pad 1      4x8x8   params 4 * 4 * 9   = 144
 *   b1_bn1                                                         8
 *   b1_relu
 *   b1_conv2   conv 4@3x3 pad 1      4x8x8                       144
 *   b1_bn2                                                         8
 *   b1_add     [b1_bn2, stem_relu]   4x8x8   in_elems 2 * 256 = 512
 *   relu10     (unnamed: kind + index)
 *   pool       max 2, stride = kernel 4x4x4
 *   side       conv 2@2x2/2 on input 2x4x4   params 2 * 3 * 4   =  24
 *   cat        [pool, side]          6x4x4
 *   globalpool14                     6x1x1
 *   flatten15                        6x1x1
 *   fc         10, bias              10x1x1  params 6 * 10 + 10 =  70
 *   loss
 * 18 layers with the input; parameters 108 + 8 + 144 + 8 + 144 + 8 +
 * 24 + 70 = 514.
 */
START_TEST(yaml_residual_network_shapes_and_params)
{
	struct model *m = load(DIR "resblock.yaml");
	const struct model_layer *l;
	int stem_relu, bn2, pool, side, relu10;

	ck_assert_str_eq(m->name, "tiny-res");
	ck_assert_str_eq(m->source, "dlsim test fixture");
	ck_assert_int_eq(m->default_batch, 4);
	ck_assert_int_eq(m->n_layers, 18);
	ck_assert_int_eq(m->params, 514);
	assert_shape(m->layers[0].out, 3, 8, 8);

	l = layer(m, "stem", NULL);
	ck_assert_int_eq(l->kind, MODEL_CONV2D);
	ck_assert_int_eq(l->params, 108);
	ck_assert_int_eq(l->has_bias, 0);
	assert_shape(l->out, 4, 8, 8);
	ck_assert_int_eq(layer(m, "stem_bn", NULL)->params, 8);
	layer(m, "stem_relu", &stem_relu);
	layer(m, "b1_bn2", &bn2);
	ck_assert_int_eq(layer(m, "b1_conv2", NULL)->params, 144);

	/* the add takes the names it lists, in order */
	l = layer(m, "b1_add", NULL);
	ck_assert_int_eq(l->kind, MODEL_ADD);
	ck_assert_int_eq(l->n_inputs, 2);
	ck_assert_int_eq(l->inputs[0], bn2);
	ck_assert_int_eq(l->inputs[1], stem_relu);
	ck_assert_int_eq(l->in_elems, 512);
	assert_shape(l->out, 4, 8, 8);

	/* an unnamed layer takes the one before it */
	l = layer(m, "relu10", &relu10);
	ck_assert_int_eq(l->kind, MODEL_RELU);
	ck_assert_int_eq(l->inputs[0], relu10 - 1);

	l = layer(m, "pool", &pool);
	ck_assert_int_eq(l->stride_h, 2);
	assert_shape(l->out, 4, 4, 4);

	/* "input" is the network input */
	l = layer(m, "side", &side);
	ck_assert_int_eq(l->n_inputs, 1);
	ck_assert_int_eq(l->inputs[0], 0);
	ck_assert_int_eq(l->params, 24);
	assert_shape(l->out, 2, 4, 4);

	l = layer(m, "cat", NULL);
	ck_assert_int_eq(l->kind, MODEL_CONCAT);
	ck_assert_int_eq(l->inputs[0], pool);
	ck_assert_int_eq(l->inputs[1], side);
	assert_shape(l->out, 6, 4, 4);

	assert_shape(layer(m, "globalpool14", NULL)->out, 6, 1, 1);
	l = layer(m, "fc", NULL);
	ck_assert_int_eq(l->has_bias, 1);
	ck_assert_int_eq(l->params, 70);

	/* fan-outs: the input feeds stem and side; stem_relu feeds
	 * b1_conv1 and the add */
	ck_assert_int_eq(m->layers[0].n_consumers, 2);
	ck_assert_int_eq(m->layers[stem_relu].n_consumers, 2);
	ck_assert_int_eq(layer(m, "b1_conv1", NULL)->n_consumers, 1);
	ck_assert_int_eq(m->layers[m->n_layers - 1].kind, MODEL_SOFTMAX_XENT);
	model_free(m);
}
END_TEST

/*
 * options.yaml, a 4x12x12 input:
 *   c   conv 8, 3x5, stride 2, pad 1, 2 groups, bias:
 *       H' = floor((12 + 2 - 3) / 2) + 1 = 6, W' = floor((12 + 2 - 5) / 2)
 *       + 1 = 5; params 8 * (4 / 2) * 15 + 8 = 248
 *   d   conv 8@3x3, pad 2, dilation 2: (6 + 4 - 4 - 1) + 1 = 6, and 5;
 *       params 8 * 8 * 9 = 576
 *   mp  max 3, stride 2, ceil_mode: H ceil(3 / 2) + 1 = 3 (floor would
 *       give 2), W ceil(2 / 2) + 1 = 2
 *   ap  avg 2, stride defaults to the kernel: 8x1x1
 *   fc  3, no bias: params 24.  Total 248 + 576 + 24 = 848.
 */
START_TEST(yaml_every_layer_option_is_read)
{
	struct model *m = load(DIR "options.yaml");
	const struct model_layer *l;

	ck_assert_int_eq(m->default_batch, 3);
	/* no source: key, so the path stands in */
	ck_assert_str_eq(m->source, DIR "options.yaml");
	assert_shape(m->layers[0].out, 4, 12, 12);
	l = layer(m, "c", NULL);
	ck_assert_int_eq(l->kernel_h, 3);
	ck_assert_int_eq(l->kernel_w, 5);
	ck_assert_int_eq(l->stride_w, 2);
	ck_assert_int_eq(l->pad_w, 1);
	ck_assert_int_eq(l->groups, 2);
	ck_assert_int_eq(l->has_bias, 1);
	ck_assert_int_eq(l->params, 248);
	assert_shape(l->out, 8, 6, 5);
	l = layer(m, "d", NULL);
	ck_assert_int_eq(l->dilation, 2);
	ck_assert_int_eq(l->groups, 1);
	ck_assert_int_eq(l->params, 576);
	assert_shape(l->out, 8, 6, 5);
	ck_assert_int_eq(layer(m, "norm", NULL)->lrn_size, 5);
	assert_shape(layer(m, "mp", NULL)->out, 8, 3, 2);
	l = layer(m, "ap", NULL);
	ck_assert_int_eq(l->kind, MODEL_AVGPOOL);
	ck_assert_int_eq(l->stride_h, 2);
	assert_shape(l->out, 8, 1, 1);
	ck_assert_int_eq(layer(m, "fc", NULL)->params, 24);
	ck_assert_int_eq(m->params, 848);
	model_free(m);
}
END_TEST

/*
 * recurrent.yaml, 2 features over 3 steps, batch 2:
 *   lstm  hidden 3, bias: 4 x 3 x (2 + 3) + 2 x 12 = 84     out 3x3x1
 *   gru   hidden 3, bias, bidirectional, on the lstm's 3:
 *         2 x (3 x 3 x (3 + 3) + 2 x 9) = 144                 out 6x3x1
 *   rnn   hidden 4, no bias, bidirectional, directions summed, on 6:
 *         2 x 1 x 4 x (6 + 4) = 80                            out 4x3x1
 * parameters 308; the same layers from the builder's API.
 */
START_TEST(yaml_recurrent_layers)
{
	struct model *m = load(DIR "recurrent.yaml");
	const struct model_layer *l;

	l = layer(m, "lstm", NULL);
	ck_assert_int_eq(l->kind, MODEL_LSTM);
	ck_assert_int_eq(l->params, 84);
	ck_assert_int_eq(l->steps, 3);
	assert_shape(l->out, 3, 3, 1);
	l = layer(m, "gru", NULL);
	ck_assert_int_eq(l->kind, MODEL_GRU);
	ck_assert_int_eq(l->params, 144);
	ck_assert(l->flags & MODEL_LAYER_BIDIRECTIONAL);
	assert_shape(l->out, 6, 3, 1);
	l = layer(m, "rnn", NULL);
	ck_assert_int_eq(l->kind, MODEL_RNN);
	ck_assert_int_eq(l->params, 80);
	ck_assert_int_eq(l->has_bias, 0);
	ck_assert(l->flags & MODEL_LAYER_SUM_DIRECTIONS);
	assert_shape(l->out, 4, 3, 1);
	ck_assert_int_eq(m->params, 308);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Errors                                                            */
/* ---------------------------------------------------------------- */

/*
 * Each fixture, the code and line its error must carry (lines count the
 * fixture's first-line comment), and a word the message must hold.
 */
static const struct {
	const char *file;
	int code;
	int line;
	const char *needle;
} bad[] = {
	/* "type: conv3d" */
	{ "bad_type", DLSIM_EPARSE, 14, "conv3d" },
	/* "kernal: 3" is line 12; the line before it is fine */
	{ "unknown_key", DLSIM_EPARSE, 12, "kernal" },
	/* "out_channels: abc" */
	{ "wrong_type", DLSIM_EPARSE, 12, "abc" },
	/* the top-level mapping that lacks input: starts at line 2, after
	 * the comment; line 5, say, would be inside the first layer */
	{ "missing_input", DLSIM_EPARSE, 2, "input" },
	{ "batch_zero", DLSIM_EPARSE, 3, "batch" },
	{ "batch_negative", DLSIM_EPARSE, 3, "batch" },
	/* "out_features: 10" on a conv2d */
	{ "stray_key", DLSIM_EPARSE, 13, "out_features" },
	/* the second "- name: a" */
	{ "dup_name", DLSIM_EPARSE, 13, "'a'" },
	/* "inputs: [a, later]" */
	{ "later_input", DLSIM_EPARSE, 13, "later" },
	/* "- nowhere" under inputs: */
	{ "unknown_input", DLSIM_EPARSE, 14, "nowhere" },
	/* the layer "- name: big": 9x9 on conv c1's 6x6 output */
	{ "kernel_too_big", DLSIM_EPARSE, 13, "big" },
	/* a relu with two inputs, reported at the layer */
	{ "two_inputs", DLSIM_EPARSE, 11, "add and concat" },
	/* inputs: with 9 entries */
	{ "nine_inputs", DLSIM_EPARSE, 13, "8" },
	/* configs/models/README.md: add and concat take "2 to 8" inputs;
	 * "inputs: [a]" is one, reported at the layer "- name: sum" */
	{ "add_one_input", DLSIM_EPARSE, 11, "input" },
	/* "stride: 0" must not pass for the default stride of 1 */
	{ "stride_zero", DLSIM_EPARSE, 13, "stride" },
	/* nothing at all */
	{ "empty", DLSIM_EPARSE, 1, "empty" },
	/* numbers libcyaml 1.3 would read by their leading digits */
	{ "int_suffix", DLSIM_EPARSE, 11,
	  "'out_channels' must be a whole number (got '2abc')" },
	{ "int_exponent", DLSIM_EPARSE, 12, "'kernel' must be a whole "
	  "number (got '1e3')" },
	{ "int_fraction", DLSIM_EPARSE, 6, "'height' must be a whole "
	  "number (got '4.9')" },
	{ "int_hex", DLSIM_EPARSE, 5, "'channels' must be a whole number "
	  "(got '0x10')" },
	/* MODEL_MAX_BATCH is 1,000,000 */
	{ "batch_too_big", DLSIM_EPARSE, 3, "'batch' must be in 1..1000000 "
	  "(got 1000001)" },
	/* a written 0 is a written key: refused where it does not apply,
	 * named at its own line where it must be positive */
	{ "relu_padding_zero", DLSIM_EPARSE, 11, "'padding' does not apply "
	  "to a relu layer" },
	{ "out_channels_zero", DLSIM_EPARSE, 11, "'out_channels' must be "
	  "positive (got 0)" },
	{ "kernel_w_zero", DLSIM_EPARSE, 12, "'kernel_w' must be positive "
	  "(got 0)" },
	{ "padding_negative", DLSIM_EPARSE, 13, "'padding' must be 0 or "
	  "more (got -1)" },
	{ "lrn_size_zero", DLSIM_EPARSE, 11, "'size' must be positive "
	  "(got 0)" },
	/* a required key that is absent, at the layer's line */
	{ "missing_out_channels", DLSIM_EPARSE, 9, "a conv2d layer needs "
	  "'out_channels'" },
	{ "missing_kernel", DLSIM_EPARSE, 9, "a maxpool layer needs "
	  "'kernel'" },
	{ "missing_out_features", DLSIM_EPARSE, 9, "an fc layer needs "
	  "'out_features'" },
	{ "missing_hidden", DLSIM_EPARSE, 9, "a recurrent layer (lstm) "
	  "needs 'hidden'" },
	/* a recurrent layer's flag on another kind, at its own line */
	{ "stray_bidirectional", DLSIM_EPARSE, 12, "'bidirectional' does "
	  "not apply to a fc layer" },
	/* counts past 2^53 keep DLSIM_ERANGE: at the layer, or at the
	 * input's mapping (its first line) */
	{ "huge_channels", DLSIM_ERANGE, 9, "layer 'wide': parameters too "
	  "large" },
	{ "huge_fc", DLSIM_ERANGE, 9, "layer 'fc': parameters too large" },
	{ "huge_input", DLSIM_ERANGE, 5, "input 3000000000x3000000000x"
	  "3000000000 is too large" },
	/* booleans libcyaml 1.3 read as true: anything but a few false
	 * spellings; YAML 1.1's yes/no are not the format's either */
	{ "bool_word", DLSIM_EPARSE, 12, "'bias' must be true or false "
	  "(got 'nonsense')" },
	{ "bool_empty", DLSIM_EPARSE, 12, "'bias' must be true or false "
	  "(got '')" },
	{ "bool_null", DLSIM_EPARSE, 12, "'bias' must be true or false "
	  "(got '~')" },
	{ "bool_number", DLSIM_EPARSE, 12, "'bias' must be true or false "
	  "(got '2')" },
	{ "bool_maybe", DLSIM_EPARSE, 12, "'bidirectional' must be true or "
	  "false (got 'maybe')" },
	{ "bool_yes", DLSIM_EPARSE, 12, "'ceil_mode' must be true or false "
	  "(got 'yes')" },
	/* libcyaml read the first document and dropped the rest: a second
	 * one is refused at its "---", text after "..." where it starts */
	{ "second_doc_garbage", DLSIM_EPARSE, 12, "a second YAML document "
	  "starts here; the file must hold one" },
	{ "second_doc_model", DLSIM_EPARSE, 12, "a second YAML document" },
	{ "after_doc_end", DLSIM_EPARSE, 13, "a second YAML document" },
	/* the kernel in one form: 'kernel', or 'kernel_h' and 'kernel_w';
	 * a mix is refused at the per-axis key, even when it agrees */
	{ "kernel_and_h", DLSIM_EPARSE, 13, "'kernel' and 'kernel_h' both "
	  "given: write 'kernel', or 'kernel_h' and 'kernel_w'" },
	{ "kernel_and_w_agree", DLSIM_EPARSE, 12, "'kernel' and 'kernel_w' "
	  "both given" },
	{ "kernel_all_three", DLSIM_EPARSE, 12, "'kernel' and 'kernel_h' "
	  "both given" },
	/* a hand-written name that an unnamed later layer's default
	 * (<type><index>) repeats, at the unnamed layer's line */
	{ "default_name_taken", DLSIM_EPARSE, 11, "this unnamed relu layer's "
	  "default name 'relu2' is already the name of the layer at line 9; "
	  "name one of them" },
	{ "default_name_taken_far", DLSIM_EPARSE, 13, "default name 'fc4' is "
	  "already the name of the layer at line 9" },
	/* a YAML null, which libcyaml loaded as the text "~" or "null",
	 * and an empty value, which it called "STRING length < 1" */
	{ "name_null", DLSIM_EPARSE, 2, "'name' has no value ('~' is YAML's "
	  "null)" },
	{ "name_null_word", DLSIM_EPARSE, 2, "'name' has no value ('null' is "
	  "YAML's null)" },
	{ "name_empty", DLSIM_EPARSE, 2, "'name' has no value" },
	{ "layer_name_null", DLSIM_EPARSE, 11, "'name' has no value ('~' is "
	  "YAML's null)" },
	{ "input_null", DLSIM_EPARSE, 15, "an item of 'inputs' has no value "
	  "('~' is YAML's null)" },
	/* a flag written false where it does not apply, like a written 0 */
	{ "relu_bias_false", DLSIM_EPARSE, 11, "'bias' does not apply to a "
	  "relu layer" },
	{ "fc_ceil_mode_false", DLSIM_EPARSE, 12, "'ceil_mode' does not "
	  "apply to a fc layer" },
	{ "conv_sum_directions_false", DLSIM_EPARSE, 13, "'sum_directions' "
	  "does not apply to a conv2d layer" },
	/* libyaml's own errors, where libyaml stops: the tab's line (the
	 * backtrace gave the line before it), and the line of a control
	 * character, which libyaml places by byte offset alone (the
	 * backtrace gave line 1) */
	{ "tab_indent", DLSIM_EPARSE, 12, "libyaml: found a tab character "
	  "that violates indentation" },
	{ "control_char", DLSIM_EPARSE, 9, "libyaml: control characters are "
	  "not allowed" },
};

#define N_BAD ((int)(sizeof(bad) / sizeof(bad[0])))

START_TEST(yaml_error_names_file_and_line)
{
	struct dlsim_err err = { 0 };
	struct model *m = (struct model *)&err;  /* must be reset to NULL */
	char path[128], prefix[160];
	int rc;

	snprintf(path, sizeof(path), DIR "%s.yaml", bad[_i].file);
	snprintf(prefix, sizeof(prefix), "%s:%d: ", path, bad[_i].line);
	rc = model_load_yaml(path, &m, &err);
	if (rc == DLSIM_OK)
		model_free(m);      /* a file that should not have loaded */
	ck_assert_msg(rc == bad[_i].code, "%s: code %d (%s), expected %d",
		      path, rc, rc ? err.msg : "loaded", bad[_i].code);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(err.code, bad[_i].code);
	ck_assert_msg(strncmp(err.msg, prefix, strlen(prefix)) == 0,
		      "message '%s' does not start with '%s'", err.msg,
		      prefix);
	ck_assert_msg(strstr(err.msg + strlen(prefix), bad[_i].needle) !=
		      NULL, "message '%s' does not mention '%s'", err.msg,
		      bad[_i].needle);
}
END_TEST

/*
 * pool_rect.yaml, a 3x32x32 input:
 *   rect      max 2x4, no stride: PyTorch's stride is the kernel on each
 *             axis, (2, 4), so 32 / 2 = 16 down and 32 / 4 = 8 across
 *   given     avg 2x4, stride 2: (32 - 2) / 2 + 1 = 16 and (32 - 4) / 2
 *             + 1 = 15
 *   zero_pad  padding: 0 written on a conv, where it applies
 * and batch 1,000,000, MODEL_MAX_BATCH itself.
 */
START_TEST(yaml_pool_stride_defaults_to_kernel_per_axis)
{
	struct model *m = load(DIR "pool_rect.yaml");
	const struct model_layer *l;

	ck_assert_int_eq(m->default_batch, MODEL_MAX_BATCH);
	l = layer(m, "rect", NULL);
	ck_assert_int_eq(l->stride_h, 2);
	ck_assert_int_eq(l->stride_w, 4);
	assert_shape(l->out, 3, 16, 8);
	l = layer(m, "given", NULL);
	ck_assert_int_eq(l->stride_w, 2);
	assert_shape(l->out, 3, 16, 15);
	l = layer(m, "zero_pad", NULL);
	ck_assert_int_eq(l->pad_h, 0);
	assert_shape(l->out, 2, 32, 32);
	model_free(m);
}
END_TEST

/*
 * bool_spellings.yaml: each of YAML 1.2's spellings reads as what it
 * says.  p1 and p2 are 3x3 windows at stride 2 on 4x4: ceil_mode gives
 * ceil(1 / 2) + 1 = 2, floor 1; f1 (2 -> 2) has 4 + 2 parameters with
 * its bias, f2 4.
 */
START_TEST(yaml_bool_spellings_are_read)
{
	struct model *m = load(DIR "bool_spellings.yaml");
	const struct model_layer *l;

	l = layer(m, "r1", NULL);
	ck_assert_int_eq(l->has_bias, 1);
	ck_assert(l->flags & MODEL_LAYER_BIDIRECTIONAL);
	ck_assert(!(l->flags & MODEL_LAYER_SUM_DIRECTIONS));
	l = layer(m, "r2", NULL);
	ck_assert_int_eq(l->has_bias, 0);
	ck_assert(!(l->flags & MODEL_LAYER_BIDIRECTIONAL));
	l = layer(m, "r3", NULL);
	ck_assert_int_eq(l->has_bias, 1);
	ck_assert(l->flags & MODEL_LAYER_SUM_DIRECTIONS);
	assert_shape(layer(m, "p1", NULL)->out, 2, 2, 2);
	assert_shape(layer(m, "p2", NULL)->out, 2, 1, 1);
	ck_assert_int_eq(layer(m, "f1", NULL)->params, 6);
	ck_assert_int_eq(layer(m, "f2", NULL)->params, 4);
	model_free(m);
}
END_TEST

/* one_document.yaml: a document whose start (---) and end (...) are
 * marked is still one document, and loads. */
START_TEST(yaml_marked_single_document_loads)
{
	struct model *m = load(DIR "one_document.yaml");

	ck_assert_str_eq(m->name, "marked");
	ck_assert_int_eq(layer(m, "f", NULL)->params, 3 * 8 * 8 * 4);
	model_free(m);
}
END_TEST

START_TEST(yaml_missing_file_is_eio)
{
	struct dlsim_err err = { 0 };
	struct model *m = (struct model *)&err;

	ck_assert_int_eq(model_load_yaml(DIR "no-such-model.yaml", &m, &err),
			 DLSIM_EIO);
	ck_assert_ptr_null(m);
	ck_assert_ptr_nonnull(strstr(err.msg, DIR "no-such-model.yaml"));
}
END_TEST

/* ---------------------------------------------------------------- */
/* model_resolve                                                     */
/* ---------------------------------------------------------------- */

START_TEST(resolve_takes_zoo_names_and_yaml_paths)
{
	struct dlsim_err err = { 0 };
	struct model *m = NULL;

	ck_assert_int_eq(model_resolve("lenet5", &m, &err), DLSIM_OK);
	ck_assert_str_eq(m->name, "lenet5");
	model_free(m);
	ck_assert_int_eq(model_resolve(DIR "resblock.yaml", &m, &err),
			 DLSIM_OK);
	ck_assert_str_eq(m->name, "tiny-res");
	model_free(m);
	ck_assert_int_eq(err.code, DLSIM_OK);

	/* not a zoo name and not a path: the zoo's error */
	ck_assert_int_eq(model_resolve("resnet9000", &m, &err),
			 DLSIM_ENOTFOUND);
	ck_assert_ptr_null(m);
	/* a path (by its suffix or a slash) goes to the file, even when
	 * the file is not there */
	dlsim_err_clear(&err);
	ck_assert_int_eq(model_resolve("lenet5.yaml", &m, &err), DLSIM_EIO);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(model_resolve("nowhere/lenet5", &m, NULL),
			 DLSIM_EIO);
	ck_assert_int_eq(model_resolve("lenet5.yml", &m, NULL), DLSIM_EIO);
	ck_assert_int_eq(model_resolve(DIR "bad_type.yaml", &m, NULL),
			 DLSIM_EPARSE);
	ck_assert_ptr_null(m);
}
END_TEST

Suite *suite_model_yaml(void)
{
	Suite *s = suite_create("model_yaml");
	TCase *tc = tcase_create("yaml");

	tcase_add_test(tc, yaml_residual_network_shapes_and_params);
	tcase_add_test(tc, yaml_every_layer_option_is_read);
	tcase_add_test(tc, yaml_pool_stride_defaults_to_kernel_per_axis);
	tcase_add_test(tc, yaml_recurrent_layers);
	tcase_add_test(tc, yaml_bool_spellings_are_read);
	tcase_add_test(tc, yaml_marked_single_document_loads);
	tcase_add_loop_test(tc, yaml_error_names_file_and_line, 0, N_BAD);
	tcase_add_test(tc, yaml_missing_file_is_eio);
	tcase_add_test(tc, resolve_takes_zoo_names_and_yaml_paths);
	suite_add_tcase(s, tc);
	return s;
}
