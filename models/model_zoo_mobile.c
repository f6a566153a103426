/*
 * model_zoo_mobile.c -- the small networks of the zoo: MobileNet v1 and
 * v2, built from depthwise-separable convolutions, and SqueezeNet 1.0,
 * built from fire modules.
 *
 * A depthwise conv is a conv with one group per channel, so the builder
 * counts its parameters (C x 3 x 3) and MACs (C H' W' x 3 x 3) as such.
 */
#include <stdio.h>

#include "model.h"
#include "core/banned.h"

/* 3x3 depthwise conv (no bias) -> BN -> ReLU on `channels` channels */
static int depthwise_bn_relu(struct model_builder *b, int in,
			     int64_t channels, int64_t stride)
{
	struct model_conv_spec s;
	int x;

	model_conv_spec_init(&s, channels, 3, stride, 1);
	s.groups = channels;
	x = model_add_conv(b, in, NULL, &s);
	return model_relu(b, model_add_batchnorm(b, x, NULL));
}

/* ---------------------------------------------------------------- */
/* MobileNet v1                                                      */
/* ---------------------------------------------------------------- */

/* The 13 depthwise-separable rows of Howard et al. Table 1: pointwise
 * width and the depthwise conv's stride. */
struct mnv1_block {
	int64_t out_channels, stride;
};

/*
 * Table 1 prints stride 2 for the last depthwise conv, on a 7x7 input,
 * yet gives 7x7 as the input of the layer after it; stride 2 would make
 * that 4x4.  Reference implementations (TF-slim mobilenet_v1.py,
 * _CONV_DEFS) use stride 1, as here.
 */
static const struct mnv1_block mnv1_blocks[] = {
	{ 64, 1 }, { 128, 2 }, { 128, 1 }, { 256, 2 }, { 256, 1 },
	{ 512, 2 }, { 512, 1 }, { 512, 1 }, { 512, 1 }, { 512, 1 },
	{ 512, 1 }, { 1024, 2 }, { 1024, 1 },
};

#define MNV1_N ((int)(sizeof(mnv1_blocks) / sizeof(mnv1_blocks[0])))

/*
 * MobileNet v1, width multiplier 1.0, 224x224 (Howard et al., "MobileNets:
 * Efficient Convolutional Neural Networks for Mobile Vision
 * Applications", arXiv:1704.04861, Table 1): a 3x3/2 conv to 32
 * channels, then 13 blocks of 3x3 depthwise and 1x1 pointwise convs, each
 * conv followed by batch norm and ReLU (Fig. 3), global average pool, fc
 * 1000 with bias.  Convs have no bias, as batch norm follows them.
 *
 * Parameters, worked out by hand (published: 4.2 M, Table 8):
 *   first conv       3 x 3 x 3 x 32                          =       864
 *   depthwise        9 x (32 + 64 + 128 + 128 + 256 + 256
 *                         + 5 x 512 + 512 + 1024) = 9 x 4,960 =    44,640
 *   pointwise        32x64 + 64x128 + 128x128 + 128x256
 *                    + 256x256 + 256x512 + 5 x 512x512
 *                    + 512x1024 + 1024x1024                  = 3,139,584
 *   batch norm       2 x (32 + 4,960 + 5,952) = 2 x 10,944   =    21,888
 *                    (one after the first conv, one after each
 *                     depthwise conv on its input width, one after
 *                     each pointwise conv on its output width 5,952)
 *   fc               1024 x 1000 + 1000                      = 1,025,000
 *   total                                                     = 4,231,976
 * (Keras' MobileNet(alpha=1.0) reports the same 4,231,976 trainable.)
 *
 * MACs: first conv 112 x 112 x 32 x 27 = 10,838,016; depthwise
 * 17,385,984; pointwise 539,492,352; fc 1,024,000; total 568,740,352, the
 * paper's "569 million mult-adds" (Table 8).  Table 2's shares agree:
 * 1x1 convs 94.86 %, depthwise 3.06 %, fc 0.18 % of the mult-adds (its
 * 1.19 % for the first conv, 1.91 % here, has the digits swapped: the
 * four shares then sum to 100 %).  Its parameter shares (1x1 74.59 %,
 * fc 24.33 %) count neither batch norm nor the fc bias: 3,139,584 and
 * 1,024,000 of 4,209,088.
 *
 * Default batch 32 per GPU: the paper gives none; this is the per-GPU
 * batch of the torchvision reference recipe the rest of the zoo uses.
 */
int model_zoo_mobilenet_v1(struct model_builder *b)
{
	struct model_shape in = { 3, 224, 224 };
	int64_t channels = 32;
	int i, x;

	model_builder_init(b, "mobilenet_v1", in, 32,
			   "Howard et al., arXiv:1704.04861, Table 1, width "
			   "1.0; batch: torchvision references/"
			   "classification README");
	x = model_conv_bn_relu(b, MODEL_IN, channels, 3, 2, 1);
	for (i = 0; i < MNV1_N; i++) {
		x = depthwise_bn_relu(b, x, channels, mnv1_blocks[i].stride);
		channels = mnv1_blocks[i].out_channels;
		x = model_conv_bn_relu(b, x, channels, 1, 1, 0);
	}
	x = model_add_globalpool(b, x, "avgpool");
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	x = model_add_fc(b, x, "fc", 1000, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}

/* ---------------------------------------------------------------- */
/* MobileNet v2                                                      */
/* ---------------------------------------------------------------- */

/* One row of Sandler et al. Table 2: expansion t, width c, repeats n,
 * stride s of the first repeat. */
struct mnv2_stage {
	int64_t t, c, n, s;
};

static const struct mnv2_stage mnv2_stages[] = {
	{ 1, 16, 1, 1 }, { 6, 24, 2, 2 }, { 6, 32, 3, 2 }, { 6, 64, 4, 2 },
	{ 6, 96, 3, 1 }, { 6, 160, 3, 2 }, { 6, 320, 1, 1 },
};

#define MNV2_N ((int)(sizeof(mnv2_stages) / sizeof(mnv2_stages[0])))

/*
 * torchvision's InvertedResidual: 1x1 expansion to t x in channels (left
 * out when t is 1), 3x3 depthwise with the stride, linear 1x1 projection
 * (conv and BN, no activation); the input is added back when the block
 * keeps both stride and width.
 */
static int inverted_residual(struct model_builder *b, int in,
			     int64_t in_channels, const struct mnv2_stage *st,
			     int64_t stride, const char *name)
{
	int64_t hidden = in_channels * st->t;
	int merge[2], x = in;

	if (st->t != 1)
		x = model_conv_bn_relu(b, x, hidden, 1, 1, 0);
	x = depthwise_bn_relu(b, x, hidden, stride);
	x = model_conv(b, x, st->c, 1, 1, 0, 0);
	if (stride != 1 || in_channels != st->c)
		return model_add_batchnorm(b, x, name);
	merge[0] = model_add_batchnorm(b, x, NULL);
	merge[1] = in;
	return model_add_merge(b, MODEL_ADD, 2, merge, name);
}

/*
 * MobileNet v2, width 1.0, as torchvision builds it (torchvision/models/
 * mobilenetv2.py, after Sandler et al., "MobileNetV2: Inverted Residuals
 * and Linear Bottlenecks", CVPR 2018, Table 2): a 3x3/2 conv to 32, the
 * inverted residual stages, a 1x1 conv to 1280, global average pool,
 * dropout 0.2, fc 1000.  ReLU6 is modelled as ReLU (the same work: a
 * clamp instead of a max).  Blocks are named by their torchvision index,
 * "features.<i>".  Default batch 32 per GPU (x 8): the torchvision
 * reference recipe (references/classification/README.md, "MobileNetV2").
 */
int model_zoo_mobilenet_v2(struct model_builder *b)
{
	struct model_shape in = { 3, 224, 224 };
	int64_t channels = 32, j;
	char name[MODEL_NAME_LEN];
	int i, x, feature = 1;

	model_builder_init(b, "mobilenet_v2", in, 32,
			   "torchvision mobilenetv2.py (Sandler et al., CVPR "
			   "2018, Table 2); batch: torchvision references/"
			   "classification README");
	x = model_conv_bn_relu(b, MODEL_IN, channels, 3, 2, 1);
	for (i = 0; i < MNV2_N; i++) {
		for (j = 0; j < mnv2_stages[i].n; j++) {
			snprintf(name, sizeof(name), "features.%d",
				 feature++);
			x = inverted_residual(b, x, channels, &mnv2_stages[i],
					      j ? 1 : mnv2_stages[i].s, name);
			channels = mnv2_stages[i].c;
		}
	}
	x = model_conv_bn_relu(b, x, 1280, 1, 1, 0);
	x = model_add_globalpool(b, x, "avgpool");
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	x = model_add_simple(b, MODEL_DROPOUT, x, NULL);
	x = model_add_fc(b, x, "fc", 1000, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}

/* ---------------------------------------------------------------- */
/* SqueezeNet 1.0                                                    */
/* ---------------------------------------------------------------- */

/* conv with bias, then ReLU, as every conv of SqueezeNet */
static int conv_relu(struct model_builder *b, int in, int64_t out_channels,
		     int64_t kernel, int64_t stride, int64_t pad)
{
	return model_relu(b, model_conv(b, in, out_channels, kernel, stride,
					pad, 1));
}

/* Max pool 3/2 with ceil_mode, as torchvision's SqueezeNet */
static int maxpool_ceil(struct model_builder *b, int in)
{
	return model_pool(b, MODEL_MAXPOOL, in, NULL, 3, 2, 0, 1);
}

/* A fire module (Iandola et al. Sec. 3.2): 1x1 squeeze, then 1x1 and
 * 3x3 expands side by side, concatenated. */
static int fire(struct model_builder *b, int in, int64_t squeeze,
		int64_t expand, const char *name)
{
	int br[2], s = conv_relu(b, in, squeeze, 1, 1, 0);

	br[0] = conv_relu(b, s, expand, 1, 1, 0);
	br[1] = conv_relu(b, s, expand, 3, 1, 1);
	return model_add_merge(b, MODEL_CONCAT, 2, br, name);
}

/* The fires of SqueezeNet 1.0: squeeze and (each) expand width, and
 * whether a max pool comes first.  Both expands have the same width. */
struct fire_spec {
	int64_t squeeze, expand;
	int pool_before;
};

static const struct fire_spec sq10_fires[] = {
	{ 16, 64, 0 }, { 16, 64, 0 }, { 32, 128, 0 },
	{ 32, 128, 1 }, { 48, 192, 0 }, { 48, 192, 0 }, { 64, 256, 0 },
	{ 64, 256, 1 },
};

#define SQ10_N ((int)(sizeof(sq10_fires) / sizeof(sq10_fires[0])))

/*
 * SqueezeNet 1.0 as torchvision builds it (torchvision/models/
 * squeezenet.py, after Iandola et al., "SqueezeNet: AlexNet-level
 * accuracy with 50x fewer parameters and <0.5MB model size",
 * arXiv:1602.07360, Table 1): conv 96@7x7/2, max pools 3/2 with
 * ceil_mode, eight fire modules, dropout 0.5, a final 1x1 conv to 1000
 * classes with ReLU, global average pool.  Every conv has a bias.  Fires
 * are named by their torchvision index, "features.<i>" (a max pool takes
 * an index too).  Default batch 32 per GPU: torchvision's reference
 * recipe default (references/classification/README.md).
 */
int model_zoo_squeezenet1_0(struct model_builder *b)
{
	struct model_shape in = { 3, 224, 224 };
	char name[MODEL_NAME_LEN];
	int i, x, feature = 3;

	model_builder_init(b, "squeezenet1_0", in, 32,
			   "torchvision squeezenet.py (Iandola et al., "
			   "arXiv:1602.07360, Table 1); batch: torchvision "
			   "references/classification README");
	x = maxpool_ceil(b, conv_relu(b, MODEL_IN, 96, 7, 2, 0));
	for (i = 0; i < SQ10_N; i++) {
		if (sq10_fires[i].pool_before) {
			x = maxpool_ceil(b, x);
			feature++;
		}
		snprintf(name, sizeof(name), "features.%d", feature++);
		x = fire(b, x, sq10_fires[i].squeeze, sq10_fires[i].expand,
			 name);
	}
	x = model_add_simple(b, MODEL_DROPOUT, x, NULL);
	x = conv_relu(b, x, 1000, 1, 1, 0);
	x = model_add_globalpool(b, x, "avgpool");
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}
