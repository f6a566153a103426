/*
 * model_zoo.c -- the built-in networks, found by name through one table.
 *
 * Each family lives in its own file (model_zoo_cnn.c, model_zoo_resnet.c,
 * ...) and offers one builder per member.  The list below (ZOO_MODELS)
 * is the only place that names them, so `dlsim models`, model_zoo_build()
 * and the tests that check every member's parameter count stay in step.
 *
 * Sources: the architectures are those of torchvision 0.x
 * (torchvision/models/<family>.py) where torchvision has them, so that
 * parameter counts match its published table exactly; LeNet-5 and
 * MobileNet v1 come from their papers (cited in their builders).
 */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "core/core.h"
#include "core/banned.h"

/*
 * The zoo, one X(name, summary, builder) per model in the order `dlsim
 * models` lists them.  Both tables below are expanded from this one list,
 * so the names model_zoo_names() returns cannot drift from the builders.
 */
#define ZOO_MODELS(X) \
	X("lenet5", "LeNet-5, 1x32x32 (LeCun et al. 1998)", \
	  model_zoo_lenet5) \
	X("alexnet", "AlexNet, 3x224x224 (torchvision)", model_zoo_alexnet) \
	X("vgg11", "VGG-11, 3x224x224 (torchvision)", model_zoo_vgg11) \
	X("vgg16", "VGG-16, 3x224x224 (torchvision)", model_zoo_vgg16) \
	X("vgg19", "VGG-19, 3x224x224 (torchvision)", model_zoo_vgg19) \
	X("googlenet", "GoogLeNet / Inception v1 without aux heads " \
	  "(+6.38 M params), 3x224x224 (torchvision)", model_zoo_googlenet) \
	X("inception_v3", "Inception v3 with aux head, 3x299x299 " \
	  "(torchvision)", model_zoo_inception_v3) \
	X("resnet18", "ResNet-18, 3x224x224 (torchvision)", \
	  model_zoo_resnet18) \
	X("resnet34", "ResNet-34, 3x224x224 (torchvision)", \
	  model_zoo_resnet34) \
	X("resnet50", "ResNet-50 v1.5, 3x224x224 (torchvision)", \
	  model_zoo_resnet50) \
	X("resnet101", "ResNet-101 v1.5, 3x224x224 (torchvision)", \
	  model_zoo_resnet101) \
	X("resnet152", "ResNet-152 v1.5, 3x224x224 (torchvision)", \
	  model_zoo_resnet152) \
	X("densenet121", "DenseNet-121, 3x224x224 (torchvision)", \
	  model_zoo_densenet121) \
	X("mobilenet_v1", "MobileNet v1 1.0, 3x224x224 (Howard et al. " \
	  "2017)", model_zoo_mobilenet_v1) \
	X("mobilenet_v2", "MobileNet v2 1.0, 3x224x224 (torchvision)", \
	  model_zoo_mobilenet_v2) \
	X("squeezenet1_0", "SqueezeNet 1.0, 3x224x224 (torchvision)", \
	  model_zoo_squeezenet1_0)

#define ZOO_ENTRY(name, summary, build) { name, summary, build },
#define ZOO_NAME(name, summary, build) name,

static const struct model_zoo_entry zoo[] = { ZOO_MODELS(ZOO_ENTRY) };
static const char *const zoo_names[] = { ZOO_MODELS(ZOO_NAME) NULL };

#define ZOO_SIZE ((int)(sizeof(zoo) / sizeof(zoo[0])))

static const struct model_zoo_entry *zoo_find(const char *name)
{
	int i;

	for (i = 0; i < ZOO_SIZE; i++)
		if (strcmp(zoo[i].name, name) == 0)
			return &zoo[i];
	return NULL;
}

const char *const *model_zoo_names(void)
{
	return zoo_names;
}

const char *model_zoo_summary(const char *name)
{
	const struct model_zoo_entry *e = name ? zoo_find(name) : NULL;

	return e ? e->summary : NULL;
}

/*
 * What each zoo model trains on, for time to train.  Every model but
 * LeNet-5 is an ImageNet-1k classifier: 1,281,167 training images
 * (Russakovsky et al., "ImageNet Large Scale Visual Recognition
 * Challenge", IJCV 2015, Table 2) for 90 epochs, the torchvision reference
 * recipe (references/classification/README.md) and Goyal et al. 2017.
 * LeNet-5 trains on MNIST's 60,000 images (LeCun et al. 1998, Sec. III.A);
 * its paper gives no epoch count we rely on, so --epochs is required.
 */
static void zoo_dataset(struct model *m)
{
	if (strcmp(m->name, "lenet5") == 0) {
		core_strlcpy(m->dataset, "MNIST", sizeof(m->dataset));
		m->dataset_size = 60000;
		core_strlcpy(m->recipe_source, "LeCun et al. 1998, Sec. III.A",
			     sizeof(m->recipe_source));
		return;
	}
	core_strlcpy(m->dataset, "ImageNet-1k", sizeof(m->dataset));
	m->dataset_size = 1281167;
	m->epochs = 90;
	core_strlcpy(m->recipe_source, "ILSVRC-2012 train set (Russakovsky "
		     "et al. 2015); 90 epochs (torchvision recipe)",
		     sizeof(m->recipe_source));
}

int model_zoo_build(const char *name, struct model **out,
		    struct dlsim_err *err)
{
	const struct model_zoo_entry *e = name ? zoo_find(name) : NULL;
	struct model_builder b;
	int rc;

	*out = NULL;
	if (!e)
		return dlsim_err_set(err, DLSIM_ENOTFOUND,
				     "unknown model '%s' (see 'dlsim models')",
				     name ? name : "");
	e->build(&b);
	if ((rc = model_builder_finish(&b, out, err)))
		return rc;
	zoo_dataset(*out);
	return DLSIM_OK;
}

int model_resolve(const char *arg, struct model **out, struct dlsim_err *err)
{
	if (core_is_yaml_path(arg))
		return model_load_yaml(arg, out, err);
	return model_zoo_build(arg, out, err);
}
