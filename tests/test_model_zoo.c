/*
 * test_model_zoo.c -- the built-in networks against their published
 * parameter and multiply-add counts, and the zoo's lookup by name.
 *
 * Unless noted, expected values come from torchvision's "Table of all
 * available classification weights" (https://pytorch.org/vision/stable/
 * models.html), columns "Params" (each weight's num_params) and "GFLOPS",
 * which despite its name lists forward multiply-adds per sample at the
 * model's input size (224x224; 299x299 for inception_v3).  Parameters
 * must match exactly; multiply-adds (model_forward_macs(): conv and fc
 * only) within 2 %, as the table rounds them and its counter also counts
 * a few other operations.
 */
#include <math.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"

struct zoo_expect {
	const char *name;
	int64_t params;
	double gmacs;    /* forward multiply-adds per sample, in G */
};

static const struct zoo_expect expect[] = {
	/* hand count in models/model_zoo_cnn.c */
	{ "lenet5", 61706, 0.00041652 },
	{ "alexnet", 61100840, 0.71 },
	{ "vgg11", 132863336, 7.61 },
	{ "vgg16", 138357544, 15.47 },
	{ "vgg19", 143667240, 19.63 },
	{ "googlenet", 6624904, 1.5 },
	/* We count 5.7189 G: the aux head's 5.68 M MACs (conv 128 1x1,
	 * conv 768 5x5, fc 1000) run in training; torchvision counted in
	 * eval mode, where Inception3.forward skips the aux head, giving
	 * 5.7132 G.  Both round to the published 5.71 within 0.2 %.  The
	 * params do include the aux head (aux_logits=True). */
	{ "inception_v3", 27161264, 5.71 },
	{ "resnet18", 11689512, 1.81 },
	{ "resnet34", 21797672, 3.66 },
	{ "resnet50", 25557032, 4.09 },
	{ "resnet101", 44549160, 7.8 },
	{ "resnet152", 60192808, 11.51 },
	{ "densenet121", 7978856, 2.83 },
	/* Howard et al., arXiv:1704.04861, Table 8: "4.2 million
	 * parameters", "569 million mult-adds"; the exact parameter count
	 * is derived by hand in models/model_zoo_mobile.c (and is the
	 * trainable count Keras' MobileNet reports) */
	{ "mobilenet_v1", 4231976, 0.569 },
	{ "mobilenet_v2", 3504872, 0.3 },
	{ "squeezenet1_0", 1248424, 0.82 },
};

#define N_EXPECT ((int)(sizeof(expect) / sizeof(expect[0])))

static struct model *build(const char *name)
{
	struct dlsim_err err = { 0 };
	struct model *m = NULL;
	int rc = model_zoo_build(name, &m, &err);

	ck_assert_msg(rc == DLSIM_OK, "%s: %s", name, err.msg);
	ck_assert_ptr_nonnull(m);
	return m;
}

/* The layer named `name`; fails the test if there is none. */
static const struct model_layer *layer(const struct model *m,
				       const char *name)
{
	int i;

	for (i = 0; i < m->n_layers; i++)
		if (strcmp(m->layers[i].name, name) == 0)
			return &m->layers[i];
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

START_TEST(test_zoo_params_and_macs)
{
	const struct zoo_expect *e = &expect[_i];
	struct model *m = build(e->name);

	ck_assert_msg(m->params == e->params, "%s: %lld params, expected %lld",
		      e->name, (long long)m->params, (long long)e->params);
	ck_assert_rel(model_forward_macs(m) / 1e9, e->gmacs, 0.02);
	model_free(m);
}
END_TEST

/* Exact multiply-adds worked out by hand, where we have them. */
START_TEST(test_zoo_macs_by_hand)
{
	struct model *m = build("lenet5");

	/* conv1 28x28x6x25 = 117,600; conv2 10x10x16x150 = 240,000;
	 * fc 400x120 + 120x84 + 84x10 = 58,920 */
	ck_assert_rel(model_forward_macs(m), 416520.0, 1e-12);
	model_free(m);
	/* models/model_zoo_mobile.c: 10,838,016 + 17,385,984 +
	 * 539,492,352 + 1,024,000 */
	m = build("mobilenet_v1");
	ck_assert_rel(model_forward_macs(m), 568740352.0, 1e-12);
	model_free(m);
	/* AlexNet: convs 70,276,800 + 223,948,800 + 112,140,288 +
	 * 149,520,384 + 99,680,256; fc 9216x4096 + 4096x4096 + 4096x1000 */
	m = build("alexnet");
	ck_assert_rel(model_forward_macs(m), 714188480.0, 1e-12);
	model_free(m);
}
END_TEST

START_TEST(test_zoo_names)
{
	const char *const *names = model_zoo_names();
	int i;

	for (i = 0; i < N_EXPECT; i++) {
		ck_assert_ptr_nonnull(names[i]);
		ck_assert_str_eq(names[i], expect[i].name);
		ck_assert_ptr_nonnull(model_zoo_summary(names[i]));
	}
	ck_assert_ptr_null(names[N_EXPECT]);
}
END_TEST

/* Every zoo model builds into a well-formed network ending in its loss. */
START_TEST(test_zoo_every_name_builds)
{
	const char *const *names = model_zoo_names();
	struct model *m;
	int i, j;

	for (i = 0; i < _i; i++)    /* never read past the terminator */
		ck_assert_ptr_nonnull(names[i]);
	ck_assert_ptr_nonnull(names[_i]);
	m = build(names[_i]);
	ck_assert_str_eq(m->name, names[_i]);
	ck_assert_int_gt(m->default_batch, 0);
	ck_assert_int_gt((int64_t)strlen(m->source), 0);
	ck_assert_int_eq(m->layers[0].kind, MODEL_INPUT);
	ck_assert_int_eq(m->layers[m->n_layers - 1].kind, MODEL_SOFTMAX_XENT);
	for (i = 1; i < m->n_layers; i++) {
		ck_assert_int_ge(m->layers[i].n_inputs, 1);
		for (j = 0; j < m->layers[i].n_inputs; j++)
			ck_assert_int_lt(m->layers[i].inputs[j], i);
	}
	model_free(m);
}
END_TEST

START_TEST(test_zoo_shapes)
{
	struct model *m = build("resnet50");
	const struct model_layer *l;

	/* He et al., CVPR 2016, Table 1: conv5_x ends at 7x7 */
	assert_shape(layer(m, "avgpool")->in, 2048, 7, 7);
	assert_shape(layer(m, "maxpool")->out, 64, 56, 56);
	model_free(m);

	/* torchvision inception.py's shape comments */
	m = build("inception_v3");
	assert_shape(m->layers[0].out, 3, 299, 299);
	assert_shape(layer(m, "Mixed_5b")->out, 256, 35, 35);
	assert_shape(layer(m, "Mixed_6e")->out, 768, 17, 17);
	assert_shape(layer(m, "Mixed_7c")->out, 2048, 8, 8);
	/* the aux head has its own loss, before the main one */
	l = layer(m, "aux_loss");
	ck_assert_int_eq(l->kind, MODEL_SOFTMAX_XENT);
	assert_shape(l->out, 1000, 1, 1);
	ck_assert_int_ne(l - m->layers, m->n_layers - 1);
	model_free(m);

	/* Szegedy et al., CVPR 2015, Table 1 */
	m = build("googlenet");
	assert_shape(layer(m, "inception3a")->out, 256, 28, 28);
	assert_shape(layer(m, "inception5b")->out, 1024, 7, 7);
	model_free(m);

	/* Huang et al., CVPR 2017, Table 1: 1024 channels at 7x7 */
	m = build("densenet121");
	assert_shape(layer(m, "norm5")->out, 1024, 7, 7);
	model_free(m);

	/* torchvision squeezenet.py: ceil_mode pools 109 -> 54 -> 27 -> 13 */
	m = build("squeezenet1_0");
	assert_shape(layer(m, "features.12")->out, 512, 13, 13);
	model_free(m);
}
END_TEST

/* The batch each builder cites as its reference recipe's per-GPU batch */
START_TEST(test_zoo_default_batch)
{
	struct model *m = build("alexnet");

	ck_assert_int_eq(m->default_batch, 128);  /* Krizhevsky 2012 */
	model_free(m);
	m = build("resnet50");
	ck_assert_int_eq(m->default_batch, 32);   /* torchvision recipe */
	model_free(m);
	m = build("lenet5");
	ck_assert_int_eq(m->default_batch, 64);
	model_free(m);
}
END_TEST

START_TEST(test_zoo_unknown_name)
{
	struct dlsim_err err = { 0 };
	struct model *m = (struct model *)&err;  /* must be reset to NULL */

	ck_assert_int_eq(model_zoo_build("resnet9000", &m, &err),
			 DLSIM_ENOTFOUND);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(err.code, DLSIM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(err.msg, "resnet9000"));
	ck_assert_ptr_null(model_zoo_summary("resnet9000"));

	dlsim_err_clear(&err);
	ck_assert_int_eq(model_zoo_build(NULL, &m, &err), DLSIM_ENOTFOUND);
	ck_assert_ptr_null(m);
	ck_assert_ptr_null(model_zoo_summary(NULL));
	/* names are case-sensitive, as the table lists them */
	ck_assert_int_eq(model_zoo_build("ResNet50", &m, NULL),
			 DLSIM_ENOTFOUND);
}
END_TEST

Suite *suite_model_zoo(void)
{
	Suite *s = suite_create("model_zoo");
	TCase *tc = tcase_create("zoo");

	tcase_add_loop_test(tc, test_zoo_params_and_macs, 0, N_EXPECT);
	tcase_add_test(tc, test_zoo_macs_by_hand);
	tcase_add_test(tc, test_zoo_names);
	tcase_add_loop_test(tc, test_zoo_every_name_builds, 0, N_EXPECT);
	tcase_add_test(tc, test_zoo_shapes);
	tcase_add_test(tc, test_zoo_default_batch);
	tcase_add_test(tc, test_zoo_unknown_name);
	suite_add_tcase(s, tc);
	return s;
}
