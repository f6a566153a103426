/*
 * model_zoo_densenet.c -- DenseNet-121 as torchvision builds it
 * (torchvision/models/densenet.py, after Huang et al., "Densely Connected
 * Convolutional Networks", CVPR 2017, Table 1, DenseNet-BC).
 *
 * Each dense layer sees the concatenation of its block's input and of
 * every earlier layer's 32 new channels.  torchvision concatenates the
 * whole list afresh for each layer (and once more for the block's
 * output); the builder's concat takes at most MODEL_MAX_MERGE_INPUTS
 * inputs, so here each layer's output is appended to the running concat,
 * cat(previous concat, new features).  Every tensor has the same shape
 * and every conv and batch norm the same counts; the concat traffic is
 * the same too, less the copy of a one-tensor list that torchvision's
 * first layer of each block makes.
 */
#include <stdio.h>

#include "model.h"
#include "core/banned.h"

#define DENSENET_GROWTH 32
#define DENSENET_BN_SIZE 4

/* pre-activation unit: BN -> ReLU -> conv without bias */
static int bn_relu_conv(struct model_builder *b, int in,
			int64_t out_channels, int64_t kernel, int64_t pad)
{
	int x = model_relu(b, model_add_batchnorm(b, in, NULL));

	return model_conv(b, x, out_channels, kernel, 1, pad, 0);
}

/* _DenseLayer: bottleneck 1x1 to bn_size x growth = 128 channels, 3x3 to
 * growth = 32; returns the concat of its input and its new features */
static int dense_layer(struct model_builder *b, int in)
{
	int cat[2];

	cat[0] = in;
	cat[1] = bn_relu_conv(b, in, DENSENET_BN_SIZE * DENSENET_GROWTH, 1,
			      0);
	cat[1] = bn_relu_conv(b, cat[1], DENSENET_GROWTH, 3, 1);
	return model_add_merge(b, MODEL_CONCAT, 2, cat, NULL);
}

/* _Transition: BN -> ReLU -> 1x1 conv halving the channels -> avg pool
 * 2/2 halving the resolution */
static int transition(struct model_builder *b, int in, int64_t out_channels,
		      const char *name)
{
	int x = bn_relu_conv(b, in, out_channels, 1, 0);

	return model_pool(b, MODEL_AVGPOOL, x, name, 2, 2, 0, 0);
}

/*
 * DenseNet-121: stem (conv 7x7/2 pad 3, BN, ReLU, max pool 3/2 pad 1),
 * dense blocks of 6, 12, 24 and 16 layers with transitions between them,
 * final BN and ReLU, global average pool, fc 1000 with bias.  Channels:
 * 64 + 6 x 32 = 256 -> 128, + 12 x 32 = 512 -> 256, + 24 x 32 = 1024 ->
 * 512, + 16 x 32 = 1024.  Default batch 32 per GPU: the torchvision
 * reference recipe default (references/classification/README.md).
 */
int model_zoo_densenet121(struct model_builder *b)
{
	static const int blocks[4] = { 6, 12, 24, 16 };
	struct model_shape in = { 3, 224, 224 };
	int64_t channels = 64;
	char name[MODEL_NAME_LEN];
	int i, j, x;

	model_builder_init(b, "densenet121", in, 32,
			   "torchvision densenet.py (Huang et al., CVPR 2017, "
			   "Table 1); batch: torchvision references/"
			   "classification README");
	x = model_conv_bn_relu(b, MODEL_IN, channels, 7, 2, 3);
	x = model_pool(b, MODEL_MAXPOOL, x, "pool0", 3, 2, 1, 0);
	for (i = 0; i < 4; i++) {
		for (j = 0; j < blocks[i]; j++)
			x = dense_layer(b, x);
		channels += blocks[i] * DENSENET_GROWTH;
		if (i == 3)
			break;
		channels /= 2;
		snprintf(name, sizeof(name), "transition%d", i + 1);
		x = transition(b, x, channels, name);
	}
	x = model_relu(b, model_add_batchnorm(b, x, "norm5"));
	x = model_add_globalpool(b, x, "avgpool");
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	x = model_add_fc(b, x, "classifier", 1000, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}
