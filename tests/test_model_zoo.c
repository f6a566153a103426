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
 *
 * Also here: LeNet-5's per-layer work and depth against Ben-Nun &
 * Hoefler's worked example, the fan-outs of the zoo's graphs, and the
 * GoogLeNet aux heads that the zoo leaves out.
 */
#include <math.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "model_util.h"
#include "models/model.h"

struct zoo_expect {
	const char *name;
	int64_t params;
	double gmacs;    /* forward multiply-adds per sample, in G */
};

static const struct zoo_expect expect[] = {
	/* hand count in models/model_zoo_cnn.c */
	{ "lenet5", 61706, 0.00041652 },
	{ "alexnet", 61100840, 0.71 },
	{ "alexnet_bvlc", 60965224, 0.7206 },
	{ "alexnet_tf", 61842345, 0.8388 },
	{ "vgg11", 132863336, 7.61 },
	{ "vgg16", 138357544, 15.47 },
	{ "vgg19", 143667240, 19.63 },
	{ "googlenet", 6624904, 1.5 },
	/* counted by hand in models/model_zoo_inception.c */
	{ "googlenet_torch", 7066380, 1.5093 },
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
	/* SSD300 v1.1 (models/model_zoo_ssd.c), counted by hand, no
	 * published figure: backbone 8,543,296 params (ResNet-50's
	 * 25,557,032 less layer4's 14,964,736 and fc's 2,049,000); extras
	 * 1,443,328 + 1,312,256 + 361,216 + 328,448 + 328,448 = 3,773,696;
	 * loc heads (C x 9 x 4 nd + 4 nd) 147,472 + 110,616 + 110,616 +
	 * 55,320 + 36,880 + 36,880 = 497,784; conf heads (81 nd a
	 * position) 2,986,308 + 2,239,974 + 2,239,974 + 1,120,230 +
	 * 746,820 + 746,820 = 10,080,126.  MACs: test_zoo_macs_by_hand. */
	{ "ssd300", 22894902, 20.150906112 },
};

#define N_EXPECT ((int)(sizeof(expect) / sizeof(expect[0])))

/* The presets that follow the CNNs in the zoo's list; their counts are
 * test_model_transformer.c's and test_model_rnn.c's. */
static const char *const presets[] = {
	"transformer-base", "transformer-big", "bert-base", "bert-large",
	"gpt2", "gpt2-xl", "gpt3-125m", "gpt3-1.3b", "gpt3-6.7b", "gpt3-13b",
	"gpt3-175b", "llama2-7b", "llama2-13b", "llama2-70b", "llama3-8b",
	"llama3-70b", "llama3-405b", "gnmt", "deepspeech2", "dlrm"
};

#define N_PRESETS ((int)(sizeof(presets) / sizeof(presets[0])))
#define N_NAMES (N_EXPECT + N_PRESETS)

static struct model *build(const char *name)
{
	struct dlsim_err err = { 0 };
	struct model *m = NULL;
	int rc = model_zoo_build(name, &m, &err);

	ck_assert_msg(rc == DLSIM_OK, "%s: %s", name, err.msg);
	ck_assert_ptr_nonnull(m);
	return m;
}

static void assert_shape(struct model_shape s, int64_t c, int64_t h,
			 int64_t w)
{
	ck_assert_int_eq(s.c, c);
	ck_assert_int_eq(s.h, h);
	ck_assert_int_eq(s.w, w);
}

/* a build that must succeed */
#define finish model_util_finish

static void start(struct model_builder *b, int64_t c, int64_t h, int64_t w)
{
	struct model_shape in = { c, h, w };

	model_builder_init(b, "t", in, 1, "test_model_zoo.c");
	ck_assert_int_eq(b->err.code, DLSIM_OK);
}

/* Forward work W and depth D of one layer (fp32). */
static double fwd_work(const struct model_layer *l, int64_t batch)
{
	struct model_pass_cost c;

	model_layer_cost(l, MODEL_PASS_FWD, batch, 4, 4, &c);
	return c.work;
}

static double fwd_depth(const struct model_layer *l)
{
	struct model_pass_cost c;

	model_layer_cost(l, MODEL_PASS_FWD, 1, 4, 4, &c);
	return c.depth;
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
	/* Caffe's AlexNet at 224: conv1 96 x 54^2 x 363 = 101,616,768;
	 * grouped (two groups, C_in / 2 a group) conv2 256 x 27^2 x 48 x 25 =
	 * 223,948,800, conv4 384 x 13^2 x 192 x 9 = 112,140,288, conv5 256 x
	 * 13^2 x 192 x 9 = 74,760,192; conv3 384 x 13^2 x 256 x 9 =
	 * 149,520,384; fc 37,748,736 + 16,777,216 + 4,096,000 */
	m = build("alexnet_bvlc");
	ck_assert_rel(model_forward_macs(m), 720608384.0, 1e-12);
	model_util_assert_shape(m->layers[1].out, 96, 54, 54);
	model_util_assert_shape(m->layers[4].out, 96, 27, 27);
	model_util_assert_shape(m->layers[15].out, 256, 6, 6);
	model_free(m);
	/* tf_cnn_benchmarks' AlexNet at 227: 70,276,800 + 223,948,800 +
	 * 112,140,288 + 224,280,576 (384 x 13^2 x 384 x 9) + 149,520,384
	 * (256 x 13^2 x 384 x 9); fc 37,748,736 + 16,777,216 + 4,100,096
	 * (1,001 labels) */
	m = build("alexnet_tf");
	ck_assert_rel(model_forward_macs(m), 838792896.0, 1e-12);
	model_util_assert_shape(m->layers[1].out, 64, 55, 55);
	model_free(m);
	/* GoogLeNet in Torch7: stem 112^2 x 64 x 147 + 56^2 x 64 x 64 +
	 * 56^2 x 192 x 576 = 477,675,520; a module H^2 (C c1 + C r3 + r3 c3 9
	 * + C r5 + r5 c5 25 + C pp): 3a 128,049,152, 3b 304,267,264 (28^2),
	 * 4a 62,884,224, 4b 75,555,168, 4c 86,095,360, 4d 102,189,568, 4e
	 * 146,578,432 (13^2), 5a 54,240,256, 5b 70,697,984 (7^2); fc 1024 x
	 * 1008 = 1,032,192 */
	m = build("googlenet_torch");
	ck_assert_rel(model_forward_macs(m), 1509265120.0, 1e-12);
	model_util_assert_shape(model_util_layer(m, "mixed4e")->out, 832, 13,
				13);
	model_util_assert_shape(model_util_layer(m, "mixed5b")->out, 1024, 7,
				7);
	model_free(m);
	/* SSD300, conv by conv, (H_out W_out) C_in C_out k^2: stem
	 * 150^2 x 3 x 64 x 49 = 211,680,000; layer1 at 75x75 1,198,080,000;
	 * layer2 to 38x38 1,887,731,712; layer3 at 38x38 (unstrided)
	 * 10,220,470,272; extras (1x1 then 3x3) 804,388,864 + 165,281,792 +
	 * 13,926,400 + 3,473,408 + 589,824 = 987,660,288; loc heads
	 * 265,660,416; conf heads 4,311,760,896 (38^2 x 1,024 x 324 x 9) +
	 * 808,455,168 + 223,948,800 + 27,993,600 + 6,718,464 + 746,496 =
	 * 5,379,623,424; in all 20,150,906,112 */
	m = build("ssd300");
	ck_assert_rel(model_forward_macs(m), 20150906112.0, 1e-12);
	ck_assert_rel(fwd_work(model_util_layer(m, "conf0"), 1), 4311760896.0,
		      1e-12);
	model_free(m);
}
END_TEST

START_TEST(test_zoo_names)
{
	const char *const *names = model_zoo_names();
	int i;

	for (i = 0; i < N_NAMES; i++) {
		ck_assert_ptr_nonnull(names[i]);
		ck_assert_str_eq(names[i], i < N_EXPECT ? expect[i].name :
				 presets[i - N_EXPECT]);
		ck_assert_ptr_nonnull(model_zoo_summary(names[i]));
	}
	ck_assert_ptr_null(names[N_NAMES]);
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
	assert_shape(model_util_layer(m, "avgpool")->in, 2048, 7, 7);
	assert_shape(model_util_layer(m, "maxpool")->out, 64, 56, 56);
	model_free(m);

	/* torchvision inception.py's shape comments */
	m = build("inception_v3");
	assert_shape(m->layers[0].out, 3, 299, 299);
	assert_shape(model_util_layer(m, "Mixed_5b")->out, 256, 35, 35);
	assert_shape(model_util_layer(m, "Mixed_6e")->out, 768, 17, 17);
	assert_shape(model_util_layer(m, "Mixed_7c")->out, 2048, 8, 8);
	/* the aux head has its own loss, before the main one */
	l = model_util_layer(m, "aux_loss");
	ck_assert_int_eq(l->kind, MODEL_SOFTMAX_XENT);
	assert_shape(l->out, 1000, 1, 1);
	ck_assert_int_ne(l - m->layers, m->n_layers - 1);
	model_free(m);

	/* Szegedy et al., CVPR 2015, Table 1 */
	m = build("googlenet");
	assert_shape(model_util_layer(m, "inception3a")->out, 256, 28, 28);
	assert_shape(model_util_layer(m, "inception5b")->out, 1024, 7, 7);
	model_free(m);

	/* Huang et al., CVPR 2017, Table 1: 1024 channels at 7x7 */
	m = build("densenet121");
	assert_shape(model_util_layer(m, "norm5")->out, 1024, 7, 7);
	model_free(m);

	/* DeepLearningExamples' SSD300 (model.py's "Feature Map 38x38x4,
	 * 19x19x6, 10x10x6, 5x5x6, 3x3x4, 1x1x4"): 8,732 boxes, each with 4
	 * offsets and 81 class scores */
	m = build("ssd300");
	assert_shape(model_util_layer(m, "layer3.5")->out, 1024, 38, 38);
	assert_shape(model_util_layer(m, "conf0")->in, 1024, 38, 38);
	assert_shape(model_util_layer(m, "conf1")->in, 512, 19, 19);
	assert_shape(model_util_layer(m, "conf2")->in, 512, 10, 10);
	assert_shape(model_util_layer(m, "conf3")->in, 256, 5, 5);
	assert_shape(model_util_layer(m, "conf4")->in, 256, 3, 3);
	assert_shape(model_util_layer(m, "loc5")->in, 256, 1, 1);
	assert_shape(model_util_layer(m, "locs")->out, 8732 * 4, 1, 1);
	assert_shape(model_util_layer(m, "confs")->out, 8732 * 81, 1, 1);
	l = model_util_layer(m, "loss");
	ck_assert_int_eq(l->kind, MODEL_SOFTMAX_XENT);
	assert_shape(l->in, 8732 * 81, 1, 1);
	ck_assert_ptr_eq(&m->layers[l->inputs[0]], model_util_layer(m, "confs"));
	model_free(m);

	/* torchvision squeezenet.py: ceil_mode pools 109 -> 54 -> 27 -> 13 */
	m = build("squeezenet1_0");
	assert_shape(model_util_layer(m, "features.12")->out, 512, 13, 13);
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

/* ---------------------------------------------------------------- */
/* LeNet-5, Ben-Nun & Hoefler Sec. 3.3.1                             */
/* ---------------------------------------------------------------- */

/*
 * The paper's LeNet-5 chain at N = 1 (seed-002 extract, sections 3.2
 * and 9), with conv2 a valid convolution as in models/model_zoo_cnn.c:
 *
 *   layer           W (dlsim)                         D (Table 4/6)
 *   conv(32,5,1,6)  28*28*6*1*25 = 117,600            0 + 3 + 3 = 6
 *   pool(28,2,6)    14*14*6*3    =   3,528            1 + 1     = 2
 *   conv(14,5,6,16) 10*10*16*6*25 = 240,000           3 + 3 + 3 = 9
 *   pool(10,2,16)   5*5*16*3     =   1,200            2
 *   fc(400,120)     48,000                            ceil log2 400 = 9
 *   fc(120,84)      10,080                            ceil log2 120 = 7
 *   fc(84,10)       840                               ceil log2 84  = 7
 *   total           421,248                           42
 *
 * The paper prints W = 665,832 and D = 41.  Its conv2 W, 470,400 =
 * 14*14*16*6*25, is a padded conv2 (14x14 output) although the next
 * layer is pool(10,...); its pooling W counts the *input* times
 * (K^2 - 1): 28*28*6*3 = 14,112 and 10*10*16*3 = 4,800.  dlsim counts
 * the *output* times (K^2 - 1) (one max or sum of K^2 values takes
 * K^2 - 1 operations), giving 3,528 and 1,200, so its total is
 * 117,600 + 3,528 + 240,000 + 1,200 + 58,920 = 421,248 rather than the
 * extract's 435,432 (which keeps the paper's pooling counts).  D = 42
 * rather than 41 because strict Table 6 gives conv1 0 + 3 + 3 = 6
 * where the paper prints 5.
 */
START_TEST(lenet5_work_and_depth_match_benNun_hoefler)
{
	static const double work[] = {
		117600, 3528, 240000, 1200, 48000, 10080, 840
	};
	static const double depth[] = { 6, 2, 9, 2, 9, 7, 7 };
	struct model_builder b;
	struct model_pool_spec pool;
	struct model *m;
	double wsum = 0.0, dsum = 0.0;
	int x, i, k = 0;

	start(&b, 1, 32, 32);
	model_pool_spec_init(&pool, 2, 2, 0);
	x = model_conv(&b, MODEL_IN, 6, 5, 1, 0, 1);
	x = model_add_pool(&b, MODEL_MAXPOOL, x, NULL, &pool);
	x = model_conv(&b, x, 16, 5, 1, 0, 1);
	x = model_add_pool(&b, MODEL_MAXPOOL, x, NULL, &pool);
	x = model_add_simple(&b, MODEL_FLATTEN, x, NULL);
	x = model_add_fc(&b, x, NULL, 120, 1);
	x = model_add_fc(&b, x, NULL, 84, 1);
	model_add_fc(&b, x, NULL, 10, 1);
	m = finish(&b);
	assert_shape(m->layers[3].out, 16, 10, 10);
	ck_assert_int_eq(m->layers[6].in_elems, 400);
	for (i = 1; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];

		wsum += fwd_work(l, 1);
		dsum += fwd_depth(l);
		if (l->kind == MODEL_FLATTEN)
			continue;
		ck_assert_msg(fwd_work(l, 1) == work[k], "%s: W %g, expected "
			      "%g", l->name, fwd_work(l, 1), work[k]);
		ck_assert_msg(fwd_depth(l) == depth[k], "%s: D %g, expected "
			      "%g", l->name, fwd_depth(l), depth[k]);
		k++;
	}
	ck_assert_int_eq(k, 7);
	ck_assert(wsum == 421248.0);
	ck_assert(dsum == 42.0);
	/* W scales linearly with the batch; D does not (Sec. 3.3.1) */
	ck_assert(fwd_work(&m->layers[1], 64) == 64 * 117600.0);
	model_free(m);
}
END_TEST

/* The paper's 470,400 for conv2 is what a 2-pixel padded conv2 gives:
 * 14 * 14 * 16 * 6 * 25. */
START_TEST(lenet5_padded_conv2_reproduces_paper_470400)
{
	struct model_builder b;
	struct model *m;
	int x;

	start(&b, 6, 14, 14);
	x = model_conv(&b, MODEL_IN, 16, 5, 1, 2, 1);
	m = finish(&b);
	assert_shape(m->layers[x].out, 16, 14, 14);
	ck_assert(fwd_work(&m->layers[x], 1) == 470400.0);
	ck_assert(fwd_depth(&m->layers[x]) == 9.0);
	model_free(m);
}
END_TEST

/* The zoo's lenet5 (with ReLUs and a loss) has the same conv, pool and
 * fc layers as the chain above. */
START_TEST(zoo_lenet5_has_the_same_chain)
{
	static const double work[] = {
		117600, 3528, 240000, 1200, 48000, 10080, 840
	};
	struct dlsim_err err = { 0 };
	struct model *m = NULL;
	int i, k = 0;

	ck_assert_int_eq(model_zoo_build("lenet5", &m, &err), DLSIM_OK);
	for (i = 0; i < m->n_layers; i++) {
		enum model_layer_kind kind = m->layers[i].kind;

		if (kind != MODEL_CONV2D && kind != MODEL_FC &&
		    kind != MODEL_MAXPOOL)
			continue;
		ck_assert_int_lt(k, 7);
		ck_assert(fwd_work(&m->layers[i], 1) == work[k]);
		k++;
	}
	ck_assert_int_eq(k, 7);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Fan-out                                                           */
/* ---------------------------------------------------------------- */

/*
 * ResNet-50 (He et al., CVPR 2016, Table 1): 3 + 4 + 6 + 3 = 16
 * bottleneck blocks.  Each block's input feeds the block's first 1x1 conv
 * and its shortcut (the add itself, or the downsample conv in the first
 * block of each stage), so it has exactly 2 consumers; inside a block and
 * after the last one everything is a chain.  The 16 block inputs are the
 * stem's max pool and the outputs of every block but the last
 * (layer4.2, which feeds only the average pool).
 */
START_TEST(zoo_resnet50_block_inputs_have_two_consumers)
{
	struct model *m = build("resnet50");
	struct model_pass_cost c;
	int i, two = 0;

	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];

		ck_assert_int_le(l->n_consumers, 2);
		if (l->n_consumers != 2)
			continue;
		two++;
		ck_assert_msg(strcmp(l->name, "maxpool") == 0 ||
			      (strncmp(l->name, "layer", 5) == 0 &&
			       strcmp(l->name, "layer4.2") != 0),
			      "%s has 2 consumers", l->name);
	}
	ck_assert_int_eq(two, 16);
	ck_assert_int_eq(model_util_layer(m, "layer4.2")->n_consumers, 1);
	ck_assert_int_eq(m->layers[m->n_layers - 1].n_consumers, 0);
	/* the first block's input: 64x56x56 = 200,704 values, one add per
	 * value per sample, three tensors moved */
	model_grad_accum_cost(model_util_layer(m, "maxpool"), 1, 4, &c);
	ck_assert(c.flops == 200704.0 && c.bytes == 3.0 * 4.0 * 200704.0);
	ck_assert(c.depth == 1.0);
	model_free(m);

	/* LeNet-5 is a chain: no output has two readers */
	m = build("lenet5");
	for (i = 0; i < m->n_layers - 1; i++)
		ck_assert_int_eq(m->layers[i].n_consumers, 1);
	model_grad_accum_cost(&m->layers[0], 64, 4, &c);
	ck_assert(c.flops == 0.0 && c.bytes == 0.0);
	model_free(m);

	/* an Inception module's input feeds its four branches (Szegedy et
	 * al., CVPR 2015, Fig. 2b): D = ceil log2 4 = 2 */
	m = build("googlenet");
	ck_assert_int_eq(model_util_layer(m, "inception3a")->n_consumers, 4);
	model_grad_accum_cost(model_util_layer(m, "inception3a"), 1, 4, &c);
	ck_assert(c.flops == 3.0 * 256 * 28 * 28 && c.depth == 2.0);
	model_free(m);
}
END_TEST

/* ---------------------------------------------------------------- */
/* GoogLeNet's aux heads, which the zoo leaves out                   */
/* ---------------------------------------------------------------- */

/*
 * torchvision's InceptionAux on a CxHxW input: adaptive average pool to
 * 4x4 (here a 5/3 pool, which takes 14 to 4 and has no parameters),
 * BasicConv2d 1x1 to 128, flatten, fc 2048 -> 1024, ReLU, dropout, fc
 * 1024 -> 1000.
 */
static struct model *aux_head(int64_t channels)
{
	struct model_builder b;
	struct model_pool_spec p;
	int x;

	start(&b, channels, 14, 14);
	model_pool_spec_init(&p, 5, 3, 0);
	x = model_add_pool(&b, MODEL_AVGPOOL, MODEL_IN, NULL, &p);
	x = model_conv_bn_relu(&b, x, 128, 1, 1, 0);
	x = model_add_simple(&b, MODEL_FLATTEN, x, NULL);
	x = model_relu(&b, model_add_fc(&b, x, NULL, 1024, 1));
	x = model_add_simple(&b, MODEL_DROPOUT, x, NULL);
	model_add_fc(&b, x, NULL, 1000, 1);
	return finish(&b);
}

/* The figures models/model_zoo_inception.c quotes for the aux heads, and
 * the summary that tells users they are left out. */
START_TEST(zoo_googlenet_aux_heads_are_omitted_and_counted)
{
	struct model *m = aux_head(512);      /* aux1, on inception4a */
	struct model *g;

	ck_assert_int_eq(m->params, 3188968);
	ck_assert(model_forward_macs(m) == 4169728.0);
	model_free(m);
	m = aux_head(528);                    /* aux2, on inception4d */
	ck_assert_int_eq(m->params, 3191016);
	ck_assert(model_forward_macs(m) == 4202496.0);
	model_free(m);
	g = build("googlenet");
	ck_assert_int_eq(g->params + 3188968 + 3191016, 13004888);
	ck_assert_int_eq(model_util_layer(g, "inception4a")->out.c, 512);
	ck_assert_int_eq(model_util_layer(g, "inception4d")->out.c, 528);
	model_free(g);
	ck_assert_ptr_nonnull(strstr(model_zoo_summary("googlenet"),
				     "without aux heads"));
}
END_TEST

/* A family spec longer than a name holds is cut to end in "...", not in
 * a number it misstates; one that fits is the name whole. */
START_TEST(zoo_long_spec_name_is_marked_as_cut)
{
	static const char spec[] = "gpt:layers=2,hidden=64,heads=4,"
				   "seq=16777216,vocab=16777216,ffn=256";
	struct model *m = NULL;

	ck_assert_int_eq(model_zoo_build(spec, &m, NULL), DLSIM_OK);
	ck_assert_uint_eq(strlen(m->name), MODEL_NAME_LEN - 1);
	ck_assert_int_eq(strncmp(m->name, spec, MODEL_NAME_LEN - 4), 0);
	ck_assert_str_eq(m->name + MODEL_NAME_LEN - 4, "...");
	model_free(m);
	ck_assert_int_eq(model_zoo_build("gpt2:seq=512", &m, NULL), DLSIM_OK);
	ck_assert_str_eq(m->name, "gpt2:seq=512");
	model_free(m);
}
END_TEST

/* model_zoo_names() and the table of builders are one list: every name
 * has a summary and builds a model of that name, once. */
START_TEST(zoo_names_and_builders_agree)
{
	const char *const *names = model_zoo_names();
	int i, j, n = 0;

	for (i = 0; names[i]; i++) {
		struct model *m = build(names[i]);

		ck_assert_str_eq(m->name, names[i]);
		ck_assert_ptr_nonnull(model_zoo_summary(names[i]));
		model_free(m);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(names[j], names[i]);
		n++;
	}
	ck_assert_int_eq(n, N_NAMES);
}
END_TEST

Suite *suite_model_zoo(void)
{
	Suite *s = suite_create("model_zoo");
	TCase *tc = tcase_create("zoo");

	tcase_add_loop_test(tc, test_zoo_params_and_macs, 0, N_EXPECT);
	tcase_add_test(tc, test_zoo_macs_by_hand);
	tcase_add_test(tc, test_zoo_names);
	tcase_add_loop_test(tc, test_zoo_every_name_builds, 0, N_NAMES);
	tcase_add_test(tc, test_zoo_shapes);
	tcase_add_test(tc, test_zoo_default_batch);
	tcase_add_test(tc, test_zoo_unknown_name);
	tcase_add_test(tc, zoo_names_and_builders_agree);
	tcase_add_test(tc, zoo_long_spec_name_is_marked_as_cut);
	tcase_add_test(tc, zoo_resnet50_block_inputs_have_two_consumers);
	tcase_add_test(tc, zoo_googlenet_aux_heads_are_omitted_and_counted);
	suite_add_tcase(s, tc);

	tc = tcase_create("lenet5");
	tcase_add_test(tc, lenet5_work_and_depth_match_benNun_hoefler);
	tcase_add_test(tc, lenet5_padded_conv2_reproduces_paper_470400);
	tcase_add_test(tc, zoo_lenet5_has_the_same_chain);
	suite_add_tcase(s, tc);
	return s;
}
