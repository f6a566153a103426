/*
 * model_zoo_ssd.c -- SSD300 v1.1, the object detector of NVIDIA's
 * DeepLearningExamples (PyTorch/Detection/SSD, src/model.py): Liu et
 * al.'s Single Shot MultiBox Detector (ECCV 2016, arXiv:1512.02325) on a
 * ResNet-50 backbone in place of VGG-16, over 300x300 images and COCO's
 * 80 classes plus background.
 *
 * The network, as model.py builds it:
 * - Backbone: torchvision's ResNet-50 (model_zoo_resnet.c) up to and
 *   including layer3 ("children()[:7]": conv1, bn1, relu, maxpool,
 *   layer1-3), with the strides of layer3's first block set to 1 (its
 *   conv1, conv2 and downsample), so layer3 keeps layer2's 38x38: 1024
 *   channels at 38x38 (300 -> 150 -> 75 -> 75 -> 38 -> 38).
 * - Five extra blocks, each conv 1x1 (no bias), BN, ReLU, conv 3x3 (no
 *   bias), BN, ReLU; inner widths 256, 256, 128, 128, 128, outputs 512,
 *   512, 256, 256, 256; the first three stride 2 with padding 1, the last
 *   two stride 1 without: 19x19, 10x10, 5x5, 3x3, 1x1.
 * - Six heads, one on each of the six maps (38, 19, 10, 5, 3, 1) with 4,
 *   6, 6, 6, 4, 4 default boxes a position (8,732 boxes in all): a 3x3
 *   conv with bias to 4 box offsets a box (loc) and one to 81 class
 *   scores a box (conf).
 * - bbox_view reshapes and concatenates the six heads' outputs
 *   (torch.cat, then .contiguous()): two concat layers here, of the
 *   flattened heads.
 * - Loss (model.py's Loss): cross-entropy over the 81 scores of each of
 *   the 8,732 boxes, costed as one softmax cross-entropy over the
 *   concatenated scores (the builder has no reshape): cost_loss in
 *   model_layer.c counts the same values, FLOPs (but 8,731 row logs a
 *   sample) and bytes however they are grouped into rows, while its
 *   depth is that of one row of 707,292 values (40 levels, where rows of
 *   81 give 14), computed in fp32 as train.py casts them (ploc.float(),
 *   plabel.float()).  Not
 *   costed: the smooth-L1 loss on the 34,928 box offsets a sample, and
 *   the two sorts of the hard-negative mining (8,732 values a sample
 *   each), small element-wise and sort kernels next to the convolutions.
 *
 * Parameters, by hand: backbone 8,543,296 (torchvision's ResNet-50,
 * 25,557,032, less layer4's 14,964,736 and fc's 2,049,000); extras
 * 3,773,696; loc heads 497,784; conf heads 10,080,126; 22,894,902 in all
 * (tests/test_model_zoo.c shows each sum).
 *
 * Default batch 32 per GPU: main.py's --batch-size default, which
 * examples/SSD300_FP32_8GPU.sh and the README's DGX-1 (V100 16 GB)
 * FP32 training tables use.
 */
#include <stdio.h>

#include "model.h"
#include "core/banned.h"

#define SSD_SOURCE "NVIDIA DeepLearningExamples PyTorch/Detection/SSD " \
	"src/model.py (SSD300 v1.1; Liu et al., ECCV 2016); batch: its " \
	"README's DGX-1 training tables"

#define SSD_MAPS 6
#define SSD_CLASSES 81

/* model.py's _build_additional_features, block i (0-4): the first three
 * halve the map (stride 2, pad 1: 38 -> 19 -> 10 -> 5), the last two
 * shrink it unpadded (5 -> 3 -> 1). */
static int extra_block(struct model_builder *b, int x, int i, int64_t mid,
		       int64_t out)
{
	x = model_conv_bn_relu(b, x, mid, 1, 1, 0);
	return i < 3 ? model_conv_bn_relu(b, x, out, 3, 2, 1) :
		       model_conv_bn_relu(b, x, out, 3, 1, 0);
}

/* One of model.py's loc or conf heads (3x3, padding 1, with bias),
 * flattened as bbox_view reshapes it before torch.cat. */
static int head(struct model_builder *b, int feed, int64_t boxes,
		int64_t per_box, const char *kind, int map)
{
	char name[MODEL_NAME_LEN];
	struct model_conv_spec s;

	model_conv_spec_init(&s, boxes * per_box, 3, 1, 1);
	s.bias = 1;
	snprintf(name, sizeof(name), "%s%d", kind, map);
	return model_add_simple(b, MODEL_FLATTEN,
				model_add_conv(b, feed, name, &s), NULL);
}

int model_zoo_ssd300(struct model_builder *b)
{
	static const int64_t feed_channels[SSD_MAPS] = {
		1024, 512, 512, 256, 256, 256
	};
	static const int64_t mid_channels[SSD_MAPS - 1] = {
		256, 256, 128, 128, 128
	};
	static const int64_t boxes[SSD_MAPS] = { 4, 6, 6, 6, 4, 4 };
	struct model_shape in = { 3, 300, 300 };
	int64_t channels = 64;
	int feed[SSD_MAPS], loc[SSD_MAPS], conf[SSD_MAPS];
	const enum model_resnet_block bottleneck = MODEL_RESNET_BOTTLENECK;
	const int64_t width = 1;
	int i, x;

	model_builder_init(b, "ssd300", in, 32, SSD_SOURCE);
	/* ResNet-50's stages 1-3 (3, 4 and 6 blocks), layer3 unstrided */
	x = model_resnet_stem(b);
	x = model_resnet_stage(b, x, &channels, 1, 3, 1, bottleneck, width);
	x = model_resnet_stage(b, x, &channels, 2, 4, 2, bottleneck, width);
	feed[0] = model_resnet_stage(b, x, &channels, 3, 6, 1, bottleneck,
				     width);
	for (i = 1; i < SSD_MAPS; i++)
		feed[i] = extra_block(b, feed[i - 1], i - 1,
				      mid_channels[i - 1], feed_channels[i]);
	for (i = 0; i < SSD_MAPS; i++) {
		loc[i] = head(b, feed[i], boxes[i], 4, "loc", i);
		conf[i] = head(b, feed[i], boxes[i], SSD_CLASSES, "conf", i);
	}
	model_add_merge(b, MODEL_CONCAT, SSD_MAPS, loc, "locs");
	x = model_add_merge(b, MODEL_CONCAT, SSD_MAPS, conf, "confs");
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}
