/*
 * model_zoo_cnn.c -- the plain (branch-free) CNNs of the zoo: LeNet-5,
 * AlexNet (torchvision's and tf_cnn_benchmarks' one-tower nets, Caffe's
 * two-tower one) and the VGG family.
 */
#include "model.h"
#include "core/banned.h"

/* torchvision's max pool: no padding, rounding down */
static int maxpool(struct model_builder *b, int in, int64_t kernel,
		   int64_t stride)
{
	return model_pool(b, MODEL_MAXPOOL, in, NULL, kernel, stride, 0, 0);
}

/*
 * LeNet-5 as usually trained today: conv 6@5x5, max pool 2, conv 16@5x5,
 * max pool 2, fc 120, fc 84, fc 10, with biases and ReLU (LeCun et al.,
 * "Gradient-based learning applied to document recognition", Proc. IEEE
 * 1998, Sec. II.B, with every C3 map connected to all S2 maps).
 * Parameters: 156 + 2,416 + 48,120 + 10,164 + 850 = 61,706.
 */
int model_zoo_lenet5(struct model_builder *b)
{
	struct model_shape in = { 1, 32, 32 };
	int x;

	model_builder_init(b, "lenet5", in, 64,
			   "LeCun et al., Proc. IEEE 86(11), 1998, Sec. II.B");
	x = model_conv_relu(b, MODEL_IN, 6, 5, 1, 0);
	x = maxpool(b, x, 2, 2);
	x = model_conv_relu(b, x, 16, 5, 1, 0);
	x = maxpool(b, x, 2, 2);
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	x = model_relu(b, model_add_fc(b, x, NULL, 120, 1));
	x = model_relu(b, model_add_fc(b, x, NULL, 84, 1));
	x = model_add_fc(b, x, NULL, 10, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}


/*
 * AlexNet as torchvision builds it (torchvision/models/alexnet.py): the
 * one-GPU variant of Krizhevsky, "One weird trick for parallelizing
 * convolutional neural networks", arXiv:1404.5997, with 64-192-384-256-256
 * channels and no LRN.  torchvision puts an AdaptiveAvgPool2d((6, 6))
 * between the features and the classifier; at a 224x224 input the
 * features are already 6x6, so it is the identity, and it is left out
 * here (no parameters, no work, and PyTorch returns its input's values).
 * Default batch 128, the batch of Krizhevsky et al., NIPS 2012, Sec. 5.
 */
int model_zoo_alexnet(struct model_builder *b)
{
	struct model_shape in = { 3, 224, 224 };
	int x;

	model_builder_init(b, "alexnet", in, 128,
			   "torchvision alexnet.py (Krizhevsky, "
			   "arXiv:1404.5997); batch: Krizhevsky et al., "
			   "NIPS 2012, Sec. 5");
	x = maxpool(b, model_conv_relu(b, MODEL_IN, 64, 11, 4, 2), 3, 2);
	x = maxpool(b, model_conv_relu(b, x, 192, 5, 1, 2), 3, 2);
	x = model_conv_relu(b, x, 384, 3, 1, 1);
	x = model_conv_relu(b, x, 256, 3, 1, 1);
	x = maxpool(b, model_conv_relu(b, x, 256, 3, 1, 1), 3, 2);
	/* 256 x 6 x 6 = 9216 features; torchvision drops out before each
	 * of the first two fc layers */
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	x = model_add_simple(b, MODEL_DROPOUT, x, NULL);
	x = model_relu(b, model_add_fc(b, x, NULL, 4096, 1));
	x = model_add_simple(b, MODEL_DROPOUT, x, NULL);
	x = model_relu(b, model_add_fc(b, x, NULL, 4096, 1));
	x = model_add_fc(b, x, "fc", 1000, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}

/* Caffe's and tf_cnn_benchmarks' AlexNet classifier: flatten, fc 4096,
 * ReLU, dropout (after the ReLU, where torchvision drops out before the
 * fc), twice, fc over classes, the loss. */
static int alexnet_head(struct model_builder *b, int x, int64_t classes)
{
	int i;

	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	for (i = 0; i < 2; i++)
		x = model_add_simple(b, MODEL_DROPOUT, model_relu(b,
				     model_add_fc(b, x, NULL, 4096, 1)), NULL);
	x = model_add_fc(b, x, "fc", classes, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}

/* A conv with bias in groups groups, then ReLU. */
static int grouped_conv_relu(struct model_builder *b, int in,
			     int64_t out_channels, int64_t kernel,
			     int64_t pad, int64_t groups)
{
	struct model_conv_spec s;

	model_conv_spec_init(&s, out_channels, kernel, 1, pad);
	s.groups = groups;
	s.bias = 1;
	return model_relu(b, model_add_conv(b, in, NULL, &s));
}

/* Caffe's max pool 3/2, which rounds its output size up. */
static int caffe_maxpool(struct model_builder *b, int in)
{
	return model_pool(b, MODEL_MAXPOOL, in, NULL, 3, 2, 0, 1);
}

/*
 * AlexNet as Krizhevsky et al. trained it on two GPUs (NIPS 2012, Sec.
 * 3.5 and Fig. 2) and as Caffe ships it (BVLC/caffe models/bvlc_alexnet/
 * deploy.prototxt): 96-256-384-384-256 channels, conv2, conv4 and conv5
 * in two groups (each tower's half of the channels), local response
 * normalisation (size 5) after conv1 and conv2, max pools of 3/2 that
 * round up, fc 4096-4096-1000 with dropout.  This is the AlexNet of
 * jcjohnson/cnn-benchmarks ("We use the BVLC AlexNet from Caffe", at a
 * 224x224 input: conv1 floor(213 / 4) + 1 = 54, pools 27, 13 and 6).
 * Parameters 34,944 + 307,456 + 885,120 + 663,936 + 442,624 + 37,752,832
 * + 16,781,312 + 4,097,000 = 60,965,224.  Default batch 128 as alexnet.
 */
int model_zoo_alexnet_bvlc(struct model_builder *b)
{
	struct model_shape in = { 3, 224, 224 };
	int x;

	model_builder_init(b, "alexnet_bvlc", in, 128,
			   "BVLC/caffe models/bvlc_alexnet/deploy.prototxt "
			   "(Krizhevsky et al., NIPS 2012, Fig. 2); batch: "
			   "Sec. 5");
	x = model_conv_relu(b, MODEL_IN, 96, 11, 4, 0);
	x = caffe_maxpool(b, model_add_lrn(b, x, NULL, 5));
	x = grouped_conv_relu(b, x, 256, 5, 2, 2);
	x = caffe_maxpool(b, model_add_lrn(b, x, NULL, 5));
	x = model_conv_relu(b, x, 384, 3, 1, 1);
	x = grouped_conv_relu(b, x, 384, 3, 1, 2);
	x = caffe_maxpool(b, grouped_conv_relu(b, x, 256, 3, 1, 2));
	return alexnet_head(b, x, 1000);
}

/*
 * AlexNet as tf_cnn_benchmarks builds it (tensorflow/benchmarks
 * scripts/tf_cnn_benchmarks/models/alexnet_model.py): the one-tower net
 * of 64-192-384-384-256 channels (torchvision's fourth conv has 256), no
 * LRN, on a 227x227 input ("224 + 3": its first conv is VALID, floor(216
 * / 4) + 1 = 55; pools 3/2 VALID to 27, 13 and 6), fc 4096-4096 with
 * dropout and a classifier over ImageNet's 1,001 labels (tf_cnn_
 * benchmarks counts a background class).  Parameters 23,296 + 307,392 +
 * 663,936 + 1,327,488 + 884,992 + 37,752,832 + 16,781,312 + 4,101,097 =
 * 61,842,345.  Default batch 512, the model's own.
 */
int model_zoo_alexnet_tf(struct model_builder *b)
{
	struct model_shape in = { 3, 227, 227 };
	int x;

	model_builder_init(b, "alexnet_tf", in, 512,
			   "tensorflow/benchmarks tf_cnn_benchmarks "
			   "models/alexnet_model.py; batch: its own");
	x = maxpool(b, model_conv_relu(b, MODEL_IN, 64, 11, 4, 0), 3, 2);
	x = maxpool(b, model_conv_relu(b, x, 192, 5, 1, 2), 3, 2);
	x = model_conv_relu(b, x, 384, 3, 1, 1);
	x = model_conv_relu(b, x, 384, 3, 1, 1);
	x = maxpool(b, model_conv_relu(b, x, 256, 3, 1, 1), 3, 2);
	return alexnet_head(b, x, 1001);
}

/* In a VGG configuration, a max pool 2/2 rather than a conv width. */
#define VGG_POOL 0

/*
 * VGG without batch norm as torchvision builds it (torchvision/models/
 * vgg.py, configurations "A", "D" and "E" of Simonyan & Zisserman, ICLR
 * 2015, Table 1): 3x3 convs with bias and padding 1, each followed by
 * ReLU, max pool 2/2 between stages.  torchvision's AdaptiveAvgPool2d((7,
 * 7)) is the identity at 224x224 (the features are 7x7) and is left out.
 * Default batch 32 per GPU (x 8 GPUs): the torchvision reference recipe
 * (references/classification/README.md, "AlexNet and VGG").
 */
static int vgg(struct model_builder *b, const char *name,
	       const int64_t *cfg, int n)
{
	struct model_shape in = { 3, 224, 224 };
	int i, x = MODEL_IN;

	model_builder_init(b, name, in, 32,
			   "torchvision vgg.py (Simonyan & Zisserman, ICLR "
			   "2015, Table 1); batch: torchvision references/"
			   "classification README");
	for (i = 0; i < n; i++)
		x = cfg[i] == VGG_POOL ? maxpool(b, x, 2, 2) :
			model_conv_relu(b, x, cfg[i], 3, 1, 1);
	/* 512 x 7 x 7 = 25088 features; dropout follows each ReLU */
	x = model_add_simple(b, MODEL_FLATTEN, x, NULL);
	x = model_relu(b, model_add_fc(b, x, NULL, 4096, 1));
	x = model_add_simple(b, MODEL_DROPOUT, x, NULL);
	x = model_relu(b, model_add_fc(b, x, NULL, 4096, 1));
	x = model_add_simple(b, MODEL_DROPOUT, x, NULL);
	x = model_add_fc(b, x, "fc", 1000, 1);
	return model_add_simple(b, MODEL_SOFTMAX_XENT, x, "loss");
}

#define VGG_N(cfg) ((int)(sizeof(cfg) / sizeof((cfg)[0])))

/* VGG-11, configuration "A" */
int model_zoo_vgg11(struct model_builder *b)
{
	static const int64_t cfg[] = {
		64, VGG_POOL, 128, VGG_POOL, 256, 256, VGG_POOL,
		512, 512, VGG_POOL, 512, 512, VGG_POOL
	};

	return vgg(b, "vgg11", cfg, VGG_N(cfg));
}

/* VGG-16, configuration "D" */
int model_zoo_vgg16(struct model_builder *b)
{
	static const int64_t cfg[] = {
		64, 64, VGG_POOL, 128, 128, VGG_POOL, 256, 256, 256, VGG_POOL,
		512, 512, 512, VGG_POOL, 512, 512, 512, VGG_POOL
	};

	return vgg(b, "vgg16", cfg, VGG_N(cfg));
}

/* VGG-19, configuration "E" */
int model_zoo_vgg19(struct model_builder *b)
{
	static const int64_t cfg[] = {
		64, 64, VGG_POOL, 128, 128, VGG_POOL,
		256, 256, 256, 256, VGG_POOL, 512, 512, 512, 512, VGG_POOL,
		512, 512, 512, 512, VGG_POOL
	};

	return vgg(b, "vgg19", cfg, VGG_N(cfg));
}
