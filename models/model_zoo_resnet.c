/*
 * model_zoo_resnet.c -- the ResNet family as torchvision builds it
 * (torchvision/models/resnet.py, after He et al., "Deep Residual Learning
 * for Image Recognition", CVPR 2016, Table 1).
 *
 * ResNet-18 and -34 stack BasicBlocks (two 3x3 convs); ResNet-50, -101 and
 * -152 stack Bottlenecks (1x1, 3x3, 1x1 with four-fold expansion) in the
 * "v1.5" form torchvision uses, which strides the 3x3 conv rather than
 * the first 1x1 (this changes the MACs, not the parameters); the family's
 * key v1=1 strides the first 1x1 as He et al. did and as
 * tf_cnn_benchmarks' resnet_model.py builds "resnet50" (its
 * bottleneck_block_v1: "Stride used in the first layer of the
 * bottleneck block"), 231,211,008 fewer MACs per sample at every depth
 * at width 1 (the three strided blocks' first 1x1 at a quarter of the
 * positions: 3 x (56^2 - 28^2) x 256 x 128; a wider v1 saves more, and
 * no source builds one).  Every conv
 * has no bias and is followed by batch norm; a block whose stride or width
 * changes projects its shortcut with a strided 1x1 conv and batch norm.
 *
 * Default batch 32 per GPU (x 8 GPUs): the torchvision reference recipe
 * for these models (references/classification/README.md, "ResNet").
 *
 * The family "resnet:depth=D,width=W" (model_zoo.c) builds any of the five
 * depths; width W multiplies the bottleneck's inner width, torchvision's
 * width_per_group = 64 W (wide_resnet50_2 is depth=50,width=2; Zagoruyko
 * & Komodakis 2016).  torchvision's BasicBlock takes no width, so depths
 * 18 and 34 take only W = 1.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "core/banned.h"

#define RESNET_SOURCE "torchvision resnet.py (He et al., CVPR 2016, " \
	"Table 1; v1.5 bottleneck); batch: torchvision references/" \
	"classification README"
#define RESNET_V1_SOURCE "He et al., CVPR 2016, Table 1, the stride on " \
	"the first 1x1 (tf_cnn_benchmarks resnet_model.py, " \
	"bottleneck_block_v1); batch: torchvision references/" \
	"classification README"

/* conv (no bias) then batch norm, with no activation: a block's last
 * conv and the projection shortcut, which feed the residual add */
static int conv_bn(struct model_builder *b, int in, int64_t out_channels,
		   int64_t kernel, int64_t stride, int64_t pad)
{
	return model_add_batchnorm(b, model_conv(b, in, out_channels, kernel,
						 stride, pad, 0), NULL);
}

/*
 * The residual add and the ReLU after it.  The shortcut is the block's
 * input unless the block changes stride or width, when torchvision's
 * `downsample` (conv1x1 with the block's stride, then batch norm) is used.
 */
static int residual(struct model_builder *b, int in, int64_t in_channels,
		    int body, int64_t out_channels, int64_t stride,
		    const char *name)
{
	int merge[2];

	merge[0] = body;
	merge[1] = in;
	if (stride != 1 || in_channels != out_channels)
		merge[1] = conv_bn(b, in, out_channels, 1, stride, 0);
	return model_add_simple(b, MODEL_RELU,
				model_add_merge(b, MODEL_ADD, 2, merge, NULL),
				name);
}

/* BasicBlock: 3x3 (strided) -> BN -> ReLU -> 3x3 -> BN, expansion 1 */
static int basic_block(struct model_builder *b, int in, int64_t in_channels,
		       int64_t planes, int64_t stride, const char *name)
{
	int x = model_conv_bn_relu(b, in, planes, 3, stride, 1);

	x = conv_bn(b, x, planes, 3, 1, 1);
	return residual(b, in, in_channels, x, planes, stride, name);
}

/* Bottleneck v1.5: 1x1 -> 3x3 (strided) -> 1x1 to 4 x planes; the inner
 * two are planes x width wide; v1 strides the first 1x1 instead */
static int bottleneck(struct model_builder *b, int in, int64_t in_channels,
		      int64_t planes, int64_t width, int64_t stride, int v1,
		      const char *name)
{
	int x = model_conv_bn_relu(b, in, planes * width, 1, v1 ? stride : 1,
				   0);

	x = model_conv_bn_relu(b, x, planes * width, 3, v1 ? 1 : stride, 1);
	x = conv_bn(b, x, 4 * planes, 1, 1, 0);
	return residual(b, in, in_channels, x, 4 * planes, stride, name);
}

int model_resnet_stem(struct model_builder *b)
{
	int x = model_conv_bn_relu(b, MODEL_IN, 64, 7, 2, 3);

	return model_pool(b, MODEL_MAXPOOL, x, "maxpool", 3, 2, 1, 0);
}

int model_resnet_stage(struct model_builder *b, int x, int64_t *channels,
		       int stage, int blocks, int64_t stride,
		       enum model_resnet_block block, int64_t width)
{
	int64_t planes = (int64_t)64 << (stage - 1);
	char lname[MODEL_NAME_LEN];
	int i;

	if (stage < 1 || stage > 4)
		return model_builder_fail(b, DLSIM_EINVAL, "a ResNet stage is "
					  "1 to 4");
	for (i = 0; i < blocks; i++) {
		int64_t s = i == 0 ? stride : 1;

		snprintf(lname, sizeof(lname), "layer%d.%d", stage, i);
		x = block == MODEL_RESNET_BASIC ?
			basic_block(b, x, *channels, planes, s, lname) :
			bottleneck(b, x, *channels, planes, width, s,
				   block == MODEL_RESNET_BOTTLENECK_V1, lname);
		*channels = planes * (block == MODEL_RESNET_BASIC ? 1 : 4);
	}
	return x;
}

/*
 * The whole network: stem, four stages of widths 64..512 (the first
 * keeps the resolution, the others halve it in their first block),
 * global average pool, fc 1000 with bias.
 */
static int resnet(struct model_builder *b, const char *name,
		  const int blocks[4], enum model_resnet_block block,
		  int64_t width, int64_t batch)
{
	struct model_shape in = { 3, 224, 224 };
	int64_t channels = 64;
	int stage, x;

	model_builder_init(b, name, in, batch,
			   block == MODEL_RESNET_BOTTLENECK_V1 ?
			   RESNET_V1_SOURCE : RESNET_SOURCE);
	x = model_resnet_stem(b);
	for (stage = 1; stage <= 4; stage++)
		x = model_resnet_stage(b, x, &channels, stage,
				       blocks[stage - 1], stage > 1 ? 2 : 1,
				       block, width);
	x = model_add_globalpool(b, x, "avgpool");
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	x = model_add_fc(b, x, "fc", 1000, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}

int model_zoo_resnet18(struct model_builder *b)
{
	static const int blocks[4] = { 2, 2, 2, 2 };

	return resnet(b, "resnet18", blocks, MODEL_RESNET_BASIC, 1,
		      32);
}

int model_zoo_resnet34(struct model_builder *b)
{
	static const int blocks[4] = { 3, 4, 6, 3 };

	return resnet(b, "resnet34", blocks, MODEL_RESNET_BASIC, 1,
		      32);
}

int model_zoo_resnet50(struct model_builder *b)
{
	static const int blocks[4] = { 3, 4, 6, 3 };

	return resnet(b, "resnet50", blocks, MODEL_RESNET_BOTTLENECK, 1,
		      32);
}

int model_zoo_resnet101(struct model_builder *b)
{
	static const int blocks[4] = { 3, 4, 23, 3 };

	return resnet(b, "resnet101", blocks, MODEL_RESNET_BOTTLENECK, 1,
		      32);
}

int model_zoo_resnet152(struct model_builder *b)
{
	static const int blocks[4] = { 3, 8, 36, 3 };

	return resnet(b, "resnet152", blocks, MODEL_RESNET_BOTTLENECK, 1,
		      32);
}

/* Blocks per stage of each depth: He et al., CVPR 2016, Table 1. */
static const struct {
	int64_t depth;
	int blocks[4];
} depths[] = {
	{ 18, { 2, 2, 2, 2 } }, { 34, { 3, 4, 6, 3 } },
	{ 50, { 3, 4, 6, 3 } }, { 101, { 3, 4, 23, 3 } },
	{ 152, { 3, 8, 36, 3 } },
};

int model_zoo_resnet(struct model_builder *b, const struct model_spec *s)
{
	int64_t depth = s->args->v[MODEL_KEY_DEPTH];
	int64_t width = s->args->v[MODEL_KEY_WIDTH];
	int v1 = s->args->v[MODEL_KEY_V1] != 0;
	size_t i;

	if (!width)
		width = 1;
	for (i = 0; i < sizeof(depths) / sizeof(depths[0]); i++)
		if (depths[i].depth == depth)
			break;
	memset(b, 0, sizeof(*b));
	if (i == sizeof(depths) / sizeof(depths[0]))
		return model_builder_failf(b, DLSIM_ERANGE, "model '%s': key "
					   "'depth' must be 18, 34, 50, 101 "
					   "or 152 (got %lld)", s->name,
					   (long long)depth);
	if (depth < 50 && width != 1)
		return model_builder_failf(b, DLSIM_EINVAL, "model '%s': key "
					   "'width' needs depth 50, 101 or 152 "
					   "(torchvision's BasicBlock has no "
					   "width)", s->name);
	if (depth < 50 && v1)
		return model_builder_failf(b, DLSIM_EINVAL, "model '%s': key "
					   "'v1' needs depth 50, 101 or 152 "
					   "(it moves a bottleneck's stride)",
					   s->name);
	return resnet(b, s->name, depths[i].blocks, depth < 50 ?
		      MODEL_RESNET_BASIC : v1 ? MODEL_RESNET_BOTTLENECK_V1 :
		      MODEL_RESNET_BOTTLENECK, width, s->batch);
}
