/*
 * model_zoo_inception.c -- the Inception family as torchvision builds it:
 * GoogLeNet (Inception v1) and Inception v3; and GoogLeNet as Torch7 ran
 * it (soumith/inception.torch), which cnn-benchmarks timed.
 *
 * torchvision's two use its BasicConv2d everywhere: a conv without bias,
 * batch norm (eps 0.001, which changes no count) and ReLU, i.e.
 * model_conv_bn_relu().  A module's branches meet in one channel concat
 * named as torchvision names the module ("inception4a", "Mixed_6e").
 *
 * torchvision ported both networks' weights from their authors rather
 * than training them (references/classification/README.md), so the
 * default batches come from elsewhere; each builder says where.
 */
#include "model.h"
#include "core/banned.h"

/* 1x1 BasicConv2d, the reduction that opens most branches */
static int conv1x1(struct model_builder *b, int in, int64_t out_channels)
{
	return model_conv_bn_relu(b, in, out_channels, 1, 1, 0);
}

/* ---------------------------------------------------------------- */
/* GoogLeNet                                                         */
/* ---------------------------------------------------------------- */

/* One inception module's widths (torchvision's table: Szegedy et al.,
 * CVPR 2015, Table 1; Torch7's: googlenet.lua's), the kernel of the
 * stride-2 max pool that follows it (0: none) and that pool's padding. */
struct gnet_module {
	const char *name;
	int64_t c1, c3_reduce, c3, c5_reduce, c5, pool_proj;
	int64_t pool_after, pool_pad;
};

static const struct gnet_module gnet_modules[] = {
	{ "inception3a", 64, 96, 128, 16, 32, 32, 0, 0 },
	{ "inception3b", 128, 128, 192, 32, 96, 64, 3, 0 },
	{ "inception4a", 192, 96, 208, 16, 48, 64, 0, 0 },
	{ "inception4b", 160, 112, 224, 24, 64, 64, 0, 0 },
	{ "inception4c", 128, 128, 256, 24, 64, 64, 0, 0 },
	{ "inception4d", 112, 144, 288, 32, 64, 64, 0, 0 },
	{ "inception4e", 256, 160, 320, 32, 128, 128, 2, 0 },
	{ "inception5a", 256, 160, 320, 32, 128, 128, 0, 0 },
	{ "inception5b", 384, 192, 384, 48, 128, 128, 0, 0 },
};

#define GNET_N ((int)(sizeof(gnet_modules) / sizeof(gnet_modules[0])))

/* How a family builds its inception modules: its conv unit (torchvision's
 * BasicConv2d or Torch7's conv and ReLU), the window of its "5x5" branch
 * and the pool branch's rounding. */
struct gnet_style {
	int (*unit)(struct model_builder *b, int in, int64_t out_channels,
		    int64_t kernel, int64_t stride, int64_t pad);
	int64_t k5;
	int pool_ceil;
};

/*
 * An inception module: 1x1; 1x1 then 3x3; 1x1 then the "5x5" branch's
 * window; max pool 3/1 pad 1 then 1x1; concatenated.  torchvision's
 * third branch uses a 3x3 conv where the paper has 5x5 ("a known bug",
 * googlenet.py says, citing pytorch/vision issue #906, kept so that the
 * ported weights load), and its pools use ceil_mode; googlenet.lua keeps
 * the 5x5 and Torch's floor mode.
 */
static int gnet_inception(struct model_builder *b, int in,
			  const struct gnet_module *m,
			  const struct gnet_style *st)
{
	int br[4];

	br[0] = st->unit(b, in, m->c1, 1, 1, 0);
	br[1] = st->unit(b, st->unit(b, in, m->c3_reduce, 1, 1, 0), m->c3,
			 3, 1, 1);
	br[2] = st->unit(b, st->unit(b, in, m->c5_reduce, 1, 1, 0), m->c5,
			 st->k5, 1, st->k5 / 2);
	br[3] = st->unit(b, model_pool(b, MODEL_MAXPOOL, in, NULL, 3, 1, 1,
					st->pool_ceil), m->pool_proj, 1, 1, 0);
	return model_add_merge(b, MODEL_CONCAT, 4, br, m->name);
}

/*
 * GoogLeNet as torchvision builds it (torchvision/models/googlenet.py,
 * after Szegedy et al., "Going deeper with convolutions", CVPR 2015) with
 * aux_logits=False, which is what its published 6,624,904 parameters
 * count; every max pool uses ceil_mode.  transform_input only rescales
 * the input and costs nothing here.  Default batch 32 per GPU, the
 * default of torchvision's reference train.py (the paper gives none).
 *
 * NOT MODELLED: THE AUX HEADS.  torchvision trains GoogLeNet with
 * aux_logits=True (and the paper with two auxiliary classifiers, Sec. 5),
 * but dlsim's googlenet omits them so that its count matches the
 * published one.  Each InceptionAux is an adaptive average pool to 4x4,
 * a BasicConv2d 1x1 to 128 channels, fc 2048 -> 1024 (ReLU, dropout 0.7)
 * and fc 1024 -> 1000.  aux1 on inception4a's 512x14x14:
 *   params 512 * 128 + 2 * 128 (bn) + 2048 * 1024 + 1024
 *          + 1024 * 1000 + 1000 = 3,188,968
 *   MACs   16 * 128 * 512 + 2048 * 1024 + 1024 * 1000 = 4,169,728
 * aux2 on inception4d's 528x14x14: 3,191,016 params, 4,202,496 MACs.
 * Together they would add 6,379,984 parameters (13,004,888 in all, +96 %)
 * and 8,372,224 forward MACs per sample (+0.6 % of 1.5 G), plus their
 * backward and the optimizer's update of those weights.
 */
int model_zoo_googlenet(struct model_builder *b)
{
	static const struct gnet_style style = { model_conv_bn_relu, 3, 1 };
	struct model_shape in = { 3, 224, 224 };
	int i, x;

	model_builder_init(b, "googlenet", in, 32,
			   "torchvision googlenet.py, aux_logits=False "
			   "(Szegedy et al., CVPR 2015); batch: torchvision "
			   "references/classification README");
	x = model_conv_bn_relu(b, MODEL_IN, 64, 7, 2, 3);
	x = model_pool(b, MODEL_MAXPOOL, x, NULL, 3, 2, 0, 1);
	x = conv1x1(b, x, 64);
	x = model_conv_bn_relu(b, x, 192, 3, 1, 1);
	x = model_pool(b, MODEL_MAXPOOL, x, NULL, 3, 2, 0, 1);
	for (i = 0; i < GNET_N; i++) {
		x = gnet_inception(b, x, &gnet_modules[i], &style);
		if (gnet_modules[i].pool_after)
			x = model_pool(b, MODEL_MAXPOOL, x, NULL,
				       gnet_modules[i].pool_after, 2,
				       gnet_modules[i].pool_pad, 1);
	}
	x = model_add_globalpool(b, x, "avgpool");
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	x = model_add_simple(b, MODEL_DROPOUT, x, NULL);
	x = model_add_fc(b, x, "fc", 1000, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}

/* ---------------------------------------------------------------- */
/* GoogLeNet in Torch7                                               */
/* ---------------------------------------------------------------- */

/* Its widths, as googlenet.lua gives them: Google's released weights
 * (inception5h), which differ from the paper's Table 1 in 4a's 3x3 (204,
 * so 4b takes 508 channels) and 5a's 5x5 reduction (48). */
static const struct gnet_module torch_modules[] = {
	{ "mixed3a", 64, 96, 128, 16, 32, 32, 0, 0 },
	{ "mixed3b", 128, 128, 192, 32, 96, 64, 3, 0 },
	{ "mixed4a", 192, 96, 204, 16, 48, 64, 0, 0 },
	{ "mixed4b", 160, 112, 224, 24, 64, 64, 0, 0 },
	{ "mixed4c", 128, 128, 256, 24, 64, 64, 0, 0 },
	{ "mixed4d", 112, 144, 288, 32, 64, 64, 0, 0 },
	{ "mixed4e", 256, 160, 320, 32, 128, 128, 3, 1 },
	{ "mixed5a", 256, 160, 320, 48, 128, 128, 0, 0 },
	{ "mixed5b", 384, 192, 384, 48, 128, 128, 0, 0 },
};

#define TORCH_N ((int)(sizeof(torch_modules) / sizeof(torch_modules[0])))

/*
 * GoogLeNet as soumith/inception.torch builds it (googlenet.lua), the
 * Inception-V1 of jcjohnson/cnn-benchmarks: Google's inception5h graph
 * in Torch7, every conv with bias and ReLU and no batch norm; its two
 * local response normalisations are constructed but never added to the
 * model, so there are none; no auxiliary heads, no dropout; max pools
 * 3/2 in Torch's floor mode, padded by 1 but after 3b (224 -> 112, 56,
 * 28, 13, 7); a 7x7 average pool, then fc 1024 -> 1008 (Google's
 * labels; the model narrows to 1,000 afterwards, a view, and ends in
 * LogSoftMax, costed here as the zoo's softmax cross-entropy: a few
 * microseconds either way).  Parameters
 * 9,472 + 4,160 + 110,784 (stem) + 163,696 + 388,736 (3a, 3b) + 372,716
 * + 447,720 + 510,104 + 605,376 + 868,352 (4a-e) + 1,107,984 +
 * 1,444,080 (5a, 5b) + 1,033,200 (fc) = 7,066,380.  Default batch 32 as
 * googlenet (cnn-benchmarks timed batch 16; googlenet.lua names none).
 */
int model_zoo_googlenet_torch(struct model_builder *b)
{
	static const struct gnet_style style = { model_conv_relu, 5, 0 };
	struct model_shape in = { 3, 224, 224 };
	int i, x;

	model_builder_init(b, "googlenet_torch", in, 32,
			   "soumith/inception.torch googlenet.lua (Google's "
			   "inception5h; Szegedy et al., CVPR 2015)");
	x = model_conv_relu(b, MODEL_IN, 64, 7, 2, 3);
	x = model_pool(b, MODEL_MAXPOOL, x, NULL, 3, 2, 1, 0);
	x = model_conv_relu(b, model_conv_relu(b, x, 64, 1, 1, 0), 192, 3, 1,
			    1);
	x = model_pool(b, MODEL_MAXPOOL, x, NULL, 3, 2, 1, 0);
	for (i = 0; i < TORCH_N; i++) {
		x = gnet_inception(b, x, &torch_modules[i], &style);
		if (torch_modules[i].pool_after)
			x = model_pool(b, MODEL_MAXPOOL, x, NULL,
				       torch_modules[i].pool_after, 2,
				       torch_modules[i].pool_pad, 0);
	}
	x = model_add_globalpool(b, x, "avgpool");
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	x = model_add_fc(b, x, "fc", 1008, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}

/* ---------------------------------------------------------------- */
/* Inception v3                                                      */
/* ---------------------------------------------------------------- */

/* BasicConv2d with a kh x kw kernel at stride 1 and "same" padding: the
 * factorised 1x7, 7x1, 1x3 and 3x1 convs (Szegedy et al., CVPR 2016,
 * Sec. 3.2) */
static int conv_hw(struct model_builder *b, int in, int64_t out_channels,
		   int64_t kh, int64_t kw)
{
	struct model_conv_spec s;
	int x;

	model_conv_spec_init(&s, out_channels, 1, 1, 0);
	s.kernel_h = kh;
	s.kernel_w = kw;
	s.pad_h = kh / 2;
	s.pad_w = kw / 2;
	x = model_add_conv(b, in, NULL, &s);
	return model_relu(b, model_add_batchnorm(b, x, NULL));
}

/* The pool branch of modules A, C and E: avg pool 3/1 pad 1, then 1x1 */
static int avg_branch(struct model_builder *b, int in, int64_t out_channels)
{
	return conv1x1(b, model_pool(b, MODEL_AVGPOOL, in, NULL, 3, 1, 1, 0),
		       out_channels);
}

/* 1x1 -> 3x3 -> 3x3: the "double 3x3" branch of modules A and B; the
 * last conv has the given stride (and no padding when it is 2) */
static int dbl3x3(struct model_builder *b, int in, int64_t stride)
{
	int x = model_conv_bn_relu(b, conv1x1(b, in, 64), 96, 3, 1, 1);

	return model_conv_bn_relu(b, x, 96, 3, stride, stride == 1);
}

/* InceptionA: 35x35, 64 + 64 + 96 + pool_features channels out */
static int inc_a(struct model_builder *b, int in, int64_t pool_features,
		 const char *name)
{
	int br[4];

	br[0] = conv1x1(b, in, 64);
	br[1] = model_conv_bn_relu(b, conv1x1(b, in, 48), 64, 5, 1, 2);
	br[2] = dbl3x3(b, in, 1);
	br[3] = avg_branch(b, in, pool_features);
	return model_add_merge(b, MODEL_CONCAT, 4, br, name);
}

/* InceptionB: 35x35 -> 17x17, 384 + 96 + in channels out */
static int inc_b(struct model_builder *b, int in, const char *name)
{
	int br[3];

	br[0] = model_conv_bn_relu(b, in, 384, 3, 2, 0);
	br[1] = dbl3x3(b, in, 2);
	br[2] = model_pool(b, MODEL_MAXPOOL, in, NULL, 3, 2, 0, 0);
	return model_add_merge(b, MODEL_CONCAT, 3, br, name);
}

/* InceptionC: 17x17 with factorised 7x7 convs of width c7, 768 out */
static int inc_c(struct model_builder *b, int in, int64_t c7,
		 const char *name)
{
	int br[4], x;

	br[0] = conv1x1(b, in, 192);
	x = conv_hw(b, conv1x1(b, in, c7), c7, 1, 7);
	br[1] = conv_hw(b, x, 192, 7, 1);
	x = conv_hw(b, conv1x1(b, in, c7), c7, 7, 1);
	x = conv_hw(b, conv_hw(b, x, c7, 1, 7), c7, 7, 1);
	br[2] = conv_hw(b, x, 192, 1, 7);
	br[3] = avg_branch(b, in, 192);
	return model_add_merge(b, MODEL_CONCAT, 4, br, name);
}

/* InceptionD: 17x17 -> 8x8, 320 + 192 + in channels out */
static int inc_d(struct model_builder *b, int in, const char *name)
{
	int br[3], x;

	br[0] = model_conv_bn_relu(b, conv1x1(b, in, 192), 320, 3, 2, 0);
	x = conv_hw(b, conv1x1(b, in, 192), 192, 1, 7);
	br[1] = model_conv_bn_relu(b, conv_hw(b, x, 192, 7, 1), 192, 3, 2,
				   0);
	br[2] = model_pool(b, MODEL_MAXPOOL, in, NULL, 3, 2, 0, 0);
	return model_add_merge(b, MODEL_CONCAT, 3, br, name);
}

/* The 1x3 and 3x1 convs that InceptionE runs side by side on x, each 384
 * wide, and their concat (torchvision concatenates them first, then
 * concatenates the module's branches) */
static int split_1x3_3x1(struct model_builder *b, int x)
{
	int pair[2];

	pair[0] = conv_hw(b, x, 384, 1, 3);
	pair[1] = conv_hw(b, x, 384, 3, 1);
	return model_add_merge(b, MODEL_CONCAT, 2, pair, NULL);
}

/* InceptionE: 8x8, 320 + 768 + 768 + 192 = 2048 channels out */
static int inc_e(struct model_builder *b, int in, const char *name)
{
	int br[4];

	br[0] = conv1x1(b, in, 320);
	br[1] = split_1x3_3x1(b, conv1x1(b, in, 384));
	br[2] = split_1x3_3x1(b, model_conv_bn_relu(b, conv1x1(b, in, 448),
						   384, 3, 1, 1));
	br[3] = avg_branch(b, in, 192);
	return model_add_merge(b, MODEL_CONCAT, 4, br, name);
}

/*
 * InceptionAux on Mixed_6e's 768x17x17: avg pool 5/3 (to 5x5), 1x1 conv
 * 128, 5x5 conv 768 (to 1x1), adaptive avg pool, fc 1000.  It runs only
 * in training (torchvision's forward skips it in eval mode), which is
 * what dlsim models, and ends in its own softmax cross-entropy, which
 * training adds, weighted, to the main loss (Szegedy et al., CVPR 2016,
 * Sec. 4).
 */
static int inc_aux(struct model_builder *b, int in)
{
	int x = model_pool(b, MODEL_AVGPOOL, in, NULL, 5, 3, 0, 0);

	x = model_conv_bn_relu(b, conv1x1(b, x, 128), 768, 5, 1, 0);
	x = model_add_globalpool(b, x, NULL);
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	x = model_add_fc(b, x, "AuxLogits.fc", 1000, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "aux_loss");
}

/* The stem, 3x299x299 -> 192x35x35 (torchvision Conv2d_1a .. maxpool2) */
static int v3_stem(struct model_builder *b)
{
	int x = model_conv_bn_relu(b, MODEL_IN, 32, 3, 2, 0);

	x = model_conv_bn_relu(b, x, 32, 3, 1, 0);
	x = model_conv_bn_relu(b, x, 64, 3, 1, 1);
	x = model_pool(b, MODEL_MAXPOOL, x, NULL, 3, 2, 0, 0);
	x = conv1x1(b, x, 80);
	x = model_conv_bn_relu(b, x, 192, 3, 1, 0);
	return model_pool(b, MODEL_MAXPOOL, x, NULL, 3, 2, 0, 0);
}

/*
 * Inception v3 as torchvision builds it (torchvision/models/
 * inception.py, Inception3, after Szegedy et al., "Rethinking the
 * Inception Architecture for Computer Vision", CVPR 2016) with
 * aux_logits=True, which is what its published 27,161,264 parameters
 * count (the aux head holds 3,326,696 of them).  The aux head comes
 * before Mixed_7a in the layer list so that the main loss stays last.
 * Default batch 32 per GPU: the paper's Sec. 8 (50 replicas, batch 32).
 */
int model_zoo_inception_v3(struct model_builder *b)
{
	struct model_shape in = { 3, 299, 299 };
	int x;

	model_builder_init(b, "inception_v3", in, 32,
			   "torchvision inception.py, aux_logits=True "
			   "(Szegedy et al., CVPR 2016); batch: ibid., "
			   "Sec. 8");
	x = v3_stem(b);
	x = inc_a(b, x, 32, "Mixed_5b");
	x = inc_a(b, x, 64, "Mixed_5c");
	x = inc_a(b, x, 64, "Mixed_5d");
	x = inc_b(b, x, "Mixed_6a");
	x = inc_c(b, x, 128, "Mixed_6b");
	x = inc_c(b, x, 160, "Mixed_6c");
	x = inc_c(b, x, 160, "Mixed_6d");
	x = inc_c(b, x, 192, "Mixed_6e");
	inc_aux(b, x);
	x = inc_d(b, x, "Mixed_7a");
	x = inc_e(b, x, "Mixed_7b");
	x = inc_e(b, x, "Mixed_7c");
	x = model_add_globalpool(b, x, "avgpool");
	x = model_add_simple(b, MODEL_DROPOUT, x, NULL);
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	x = model_add_fc(b, x, "fc", 1000, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}
