/*
 * model_zoo.c -- the built-in networks, found by name through three
 * tables: fixed CNNs, parameterised families, and presets of the
 * transformer and recurrent families.
 *
 * Each family lives in its own file (model_zoo_cnn.c, model_zoo_resnet.c,
 * model_zoo_transformer.c, ...).  The two lists below (ZOO_MODELS, the
 * CNNs with one builder each, and ZOO_PRESETS) are the only places that
 * name the zoo, so `dlsim models`, model_zoo_build() and the tests that
 * check every member's parameter count stay in step.
 *
 * A family is built from its keys, "gpt:layers=2,hidden=64,heads=4,
 * seq=32,vocab=100" or "resnet:depth=50,width=2" (model_spec.c parses
 * them).  A preset is a family with its keys written down, and takes
 * more keys that override them: "gpt3-175b:seq=1024".
 *
 * Sources: the CNNs are those of torchvision 0.x
 * (torchvision/models/<family>.py) where torchvision has them, so that
 * parameter counts match its published table exactly; LeNet-5 and
 * MobileNet v1 come from their papers, and alexnet_bvlc, alexnet_tf and
 * googlenet_torch from the code the measurements that use them ran
 * (Caffe's, tf_cnn_benchmarks', soumith/inception.torch's; cited in
 * their builders).  Each
 * preset's numbers come from the paper table or the official config file
 * cited above it.
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
	X("alexnet_bvlc", "AlexNet, two towers: grouped convs, LRN, " \
	  "3x224x224 (Caffe)", model_zoo_alexnet_bvlc) \
	X("alexnet_tf", "AlexNet, 64-192-384-384-256, 3x227x227 " \
	  "(tf_cnn_benchmarks)", model_zoo_alexnet_tf) \
	X("vgg11", "VGG-11, 3x224x224 (torchvision)", model_zoo_vgg11) \
	X("vgg16", "VGG-16, 3x224x224 (torchvision)", model_zoo_vgg16) \
	X("vgg19", "VGG-19, 3x224x224 (torchvision)", model_zoo_vgg19) \
	X("googlenet", "GoogLeNet / Inception v1 without aux heads " \
	  "(+6.38 M params), 3x224x224 (torchvision)", model_zoo_googlenet) \
	X("googlenet_torch", "GoogLeNet with 5x5 branches, no batch norm, " \
	  "3x224x224 (soumith/inception.torch)", model_zoo_googlenet_torch) \
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
	  model_zoo_squeezenet1_0) \
	X("ssd300", "SSD300 v1.1 on a ResNet-50 backbone, 3x300x300, 81 " \
	  "classes (NVIDIA DeepLearningExamples)", model_zoo_ssd300)

/*
 * Transformer presets, P(name, family, keys, batch, summary, source).
 *
 * GPT-2 (Radford et al. 2019, "Language Models are Unsupervised Multitask
 * Learners", Table 2 and Sec. 2.3: context 1024, vocab 50,257; the
 * released 124M and 1558M models' hparams.json: n_layer, n_embd, n_head
 * 12/768/12 and 48/1600/25).  Batch: gpt2 12 per GPU, nanoGPT's
 * config/train_gpt2.py (12 x 1024 tokens x 5 accumulation x 8 GPUs).
 *
 * GPT-3 (Brown et al. 2020, Table 2.1: n_layers, d_model, n_heads; Sec.
 * 2.1: n_ctx 2048, GPT-2's tokenizer).  The table's 1.3B row has 24 heads
 * of 128, which do not make d_model 2048: dlsim uses 16 heads of 128
 * (heads change no count).  Its 13B d_model 5140 is not 40 heads of 128:
 * dlsim uses 5120.  Vocab 50,257, the tokenizer's; Megatron-LM pads it to
 * 51,200 (a multiple of 128 x tensor-parallel size, for its
 * vocab-parallel split), a choice of the parallel layout, so it is left
 * to vocab=51200.  Batch 1 for GPT-3, GPT-2 XL and the Llamas: the
 * micro-batch of Megatron-LM's GPT-3 175B example
 * (examples/gpt3/train_gpt3_175b_distributed.sh, --micro-batch-size 1).
 *
 * BERT (Devlin et al. 2019, Sec. 3: L/H/A 12/768/12 and 24/1024/16, the
 * feed-forward size 4H; vocab 30,522, HF bert-base-uncased config.json).
 * seq 128: 90% of pre-training steps (App. A.2; the rest at 512).  Batch
 * 256 sequences on 16 TPU chips (base) or 64 (large), App. A.2: 16 and 4
 * per chip.
 *
 * Transformer (Vaswani et al. 2017, Table 3 "base" and "big": N, d_model,
 * d_ff, h; Sec. 5.1: a shared vocabulary of about 37,000 tokens, WMT
 * En-De).  seq 256 and batch 4,096 tokens per GPU (16 sequences):
 * tensor2tensor's transformer_base_v1 (max_length, batch_size).
 *
 * GNMT, DeepSpeech2 and DLRM follow the MLPerf training references
 * (model_zoo_rnn.c and model_zoo_dlrm.c give each figure's file): GNMT v2
 * 4 + 4 LSTM layers of 1024, sequences of at most 50 tokens, V 32,320
 * (32,000 BPE merges padded to a multiple of 8), batch 128 (train.py);
 * DeepSpeech2 (MLPerf v0.5) 5 bidirectional GRUs of 800, batch 5
 * (params.py), 1,500 spectrogram frames (15 s at the 10 ms stride): its
 * GRUs then run 735 steps, about the T = 750 of the DeepSpeech GRU
 * kernels DeepBench times (shared/data/deepbench_rnn.csv); DLRM on
 * Criteo Terabyte, embeddings of 128, batch 2048 (run_and_time.sh).
 *
 * Llama 2 (Touvron et al. 2023, Table 1: context 4k, GQA for 70B; HF
 * meta-llama/Llama-2-*-hf config.json: hidden_size, intermediate_size
 * 11008/13824/28672, num_attention_heads, num_key_value_heads 8 for 70B,
 * vocab_size 32000).  Llama 3 (Dubey et al. 2024, "The Llama 3 Herd of
 * Models", Table 3: layers, model dim, FFN dim, heads, 8 KV heads; Sec.
 * 3.4.1: 8K context in pre-training; vocab 128,256 from HF
 * meta-llama/Meta-Llama-3-8B, -70B and Llama-3.1-405B config.json).
 */
#define GPT2_SRC "Radford et al. 2019, Table 2; released hparams.json"
#define GPT3_SRC "Brown et al. 2020, Table 2.1, Sec. 2.1; batch: " \
	"Megatron-LM GPT-3 175B example micro-batch"
#define BERT_SRC "Devlin et al. 2019, Sec. 3, App. A.2; HF " \
	"bert-*-uncased config.json"
#define VASWANI_SRC "Vaswani et al. 2017, Table 3, Sec. 5.1; " \
	"tensor2tensor transformer_base_v1"
#define LLAMA2_SRC "Touvron et al. 2023, Table 1; HF Llama-2 config.json"
#define LLAMA3_SRC "Dubey et al. 2024, Table 3, Sec. 3.4.1; HF Llama-3 " \
	"config.json"
#define GNMT_SRC "MLPerf training reference rnn_translator (GNMT v2), " \
	"train.py defaults"
#define DS2_SRC "MLPerf v0.5 reference speech_recognition, model.py " \
	"and params.py"
#define DLRM_SRC "MLPerf DLRM, facebookresearch/dlrm run_and_time.sh " \
	"(Criteo Terabyte)"

#define ZOO_PRESETS(P) \
	P("transformer-base", "transformer", "layers=6,hidden=512,heads=8," \
	  "ffn=2048,seq=256,vocab=37000", 16, "Transformer base, 6+6 " \
	  "blocks, seq 256 (Vaswani et al. 2017)", VASWANI_SRC) \
	P("transformer-big", "transformer", "layers=6,hidden=1024,heads=16," \
	  "ffn=4096,seq=256,vocab=37000", 16, "Transformer big, 6+6 " \
	  "blocks, seq 256 (Vaswani et al. 2017)", VASWANI_SRC) \
	P("bert-base", "bert", "layers=12,hidden=768,heads=12,seq=128," \
	  "vocab=30522", 16, "BERT-Base with MLM head, seq 128 (Devlin " \
	  "et al. 2019)", BERT_SRC) \
	P("bert-large", "bert", "layers=24,hidden=1024,heads=16,seq=128," \
	  "vocab=30522", 4, "BERT-Large with MLM head, seq 128 (Devlin " \
	  "et al. 2019)", BERT_SRC) \
	P("gpt2", "gpt", "layers=12,hidden=768,heads=12,seq=1024," \
	  "vocab=50257", 12, "GPT-2 124M, seq 1024 (Radford et al. 2019)", \
	  GPT2_SRC "; batch: nanoGPT train_gpt2.py") \
	P("gpt2-xl", "gpt", "layers=48,hidden=1600,heads=25,seq=1024," \
	  "vocab=50257", 1, "GPT-2 1.5B, seq 1024 (Radford et al. 2019)", \
	  GPT2_SRC) \
	P("gpt3-125m", "gpt", "layers=12,hidden=768,heads=12,seq=2048," \
	  "vocab=50257", 1, "GPT-3 Small, seq 2048 (Brown et al. 2020)", \
	  GPT3_SRC) \
	P("gpt3-1.3b", "gpt", "layers=24,hidden=2048,heads=16,seq=2048," \
	  "vocab=50257", 1, "GPT-3 XL, seq 2048 (Brown et al. 2020)", \
	  GPT3_SRC) \
	P("gpt3-6.7b", "gpt", "layers=32,hidden=4096,heads=32,seq=2048," \
	  "vocab=50257", 1, "GPT-3 6.7B, seq 2048 (Brown et al. 2020)", \
	  GPT3_SRC) \
	P("gpt3-13b", "gpt", "layers=40,hidden=5120,heads=40,seq=2048," \
	  "vocab=50257", 1, "GPT-3 13B, seq 2048 (Brown et al. 2020)", \
	  GPT3_SRC) \
	P("gpt3-175b", "gpt", "layers=96,hidden=12288,heads=96,seq=2048," \
	  "vocab=50257", 1, "GPT-3 175B, seq 2048 (Brown et al. 2020)", \
	  GPT3_SRC) \
	P("llama2-7b", "llama", "layers=32,hidden=4096,heads=32,ffn=11008," \
	  "seq=4096,vocab=32000", 1, "Llama 2 7B, seq 4096 (Touvron et " \
	  "al. 2023)", LLAMA2_SRC) \
	P("llama2-13b", "llama", "layers=40,hidden=5120,heads=40," \
	  "ffn=13824,seq=4096,vocab=32000", 1, "Llama 2 13B, seq 4096 " \
	  "(Touvron et al. 2023)", LLAMA2_SRC) \
	P("llama2-70b", "llama", "layers=80,hidden=8192,heads=64," \
	  "kv_heads=8,ffn=28672,seq=4096,vocab=32000", 1, "Llama 2 70B, " \
	  "GQA 8, seq 4096 (Touvron et al. 2023)", LLAMA2_SRC) \
	P("llama3-8b", "llama", "layers=32,hidden=4096,heads=32,kv_heads=8," \
	  "ffn=14336,seq=8192,vocab=128256", 1, "Llama 3 8B, GQA 8, seq " \
	  "8192 (Dubey et al. 2024)", LLAMA3_SRC) \
	P("llama3-70b", "llama", "layers=80,hidden=8192,heads=64," \
	  "kv_heads=8,ffn=28672,seq=8192,vocab=128256", 1, "Llama 3 70B, " \
	  "GQA 8, seq 8192 (Dubey et al. 2024)", LLAMA3_SRC) \
	P("llama3-405b", "llama", "layers=126,hidden=16384,heads=128," \
	  "kv_heads=8,ffn=53248,seq=8192,vocab=128256", 1, "Llama 3 405B, " \
	  "GQA 8, seq 8192 (Dubey et al. 2024)", LLAMA3_SRC) \
	P("gnmt", "gnmt", "layers=4,hidden=1024,seq=50,vocab=32320", 128, \
	  "GNMT v2, 4+4 LSTM layers of 1024, seq 50 (MLPerf)", GNMT_SRC) \
	P("deepspeech2", "deepspeech2", "layers=5,hidden=800,seq=1500", 5, \
	  "DeepSpeech2, 2 convs + 5 bidirectional GRUs of 800, 1500 " \
	  "frames (MLPerf v0.5)", DS2_SRC) \
	P("dlrm", "dlrm", "dim=128", 2048, "DLRM, Criteo Terabyte, 26 " \
	  "tables (24.0 G params), dim 128 (MLPerf)", DLRM_SRC)

struct zoo_preset {
	const char *name, *family, *keys;
	int64_t batch;
	const char *summary, *source;
};

#define ZOO_ENTRY(name, summary, build) { name, summary, build },
#define ZOO_NAME(name, summary, build) name,
#define PRESET_ENTRY(name, family, keys, batch, summary, source) \
	{ name, family, keys, batch, summary, source },
#define PRESET_NAME(name, family, keys, batch, summary, source) name,

static const struct model_zoo_entry zoo[] = { ZOO_MODELS(ZOO_ENTRY) };
static const struct zoo_preset presets[] = { ZOO_PRESETS(PRESET_ENTRY) };
static const char *const zoo_names[] = {
	ZOO_MODELS(ZOO_NAME) ZOO_PRESETS(PRESET_NAME) NULL
};

#define ZOO_SIZE ((int)(sizeof(zoo) / sizeof(zoo[0])))
#define N_PRESETS ((int)(sizeof(presets) / sizeof(presets[0])))

/*
 * The families' keys.  Ranges are sanity bounds on input, far above any
 * published model (Llama 3 405B: 126 layers, hidden 16384, 128 heads,
 * FFN 53248, vocab 128256); the builder still refuses counts past 2^53.
 * 1024 layers of about 20 layers each stay under MODEL_MAX_LAYERS even
 * for an encoder-decoder's 2 x 1024 blocks.
 */
static const struct model_key tf_keys[] = {
	{ "layers", 1, 1024, 1 },
	{ "hidden", 1, 1 << 20, 1 },
	{ "heads", 1, 1 << 16, 1 },
	{ "seq", 1, 1 << 24, 1 },
	{ "vocab", 1, 1 << 24, 1 },
	{ "ffn", 1, 1 << 22, 0 },
	{ "kv_heads", 1, 1 << 16, 0 },
	{ "unfused", 1, 1, 0 },
	{ "eager_gelu", 1, 1, 0 },
	{ NULL, 0, 0, 0 }
};

static const struct model_key resnet_keys[] = {
	{ "depth", 1, 152, 1 },
	{ "width", 1, 64, 0 },
	{ "v1", 1, 1, 0 },
	{ NULL, 0, 0, 0 }
};

/* enum model_rnn_key.  GNMT's encoder always has its bidirectional and
 * its 2H -> H layer, so 2 layers at least; DeepSpeech2's convolutions
 * need 31 frames (41 x 11 and 21 x 11 kernels, 11 + 2 x 10 in time).
 * 65536 steps bound the depth (and the launches) of one pass. */
static const struct model_key gnmt_keys[] = {
	{ "layers", 2, 1024, 1 },
	{ "hidden", 1, 1 << 20, 1 },
	{ "seq", 1, 1 << 16, 1 },
	{ "vocab", 1, 1 << 24, 1 },
	{ NULL, 0, 0, 0 }
};

static const struct model_key ds2_keys[] = {
	{ "layers", 1, 1024, 1 },
	{ "hidden", 1, 1 << 20, 1 },
	{ "seq", 31, 1 << 17, 1 },
	{ NULL, 0, 0, 0 }
};

static const struct model_key dlrm_keys[] = {
	{ "dim", 1, 1 << 20, 1 },
	{ NULL, 0, 0, 0 }
};

/*
 * Families.  Batch, when no preset gives one: resnet 32 (the torchvision
 * recipe, model_zoo_resnet.c); bert 16 and transformer 16 (their base
 * presets' sources above); gpt, t5 and llama 1 (one sequence per device,
 * the micro-batch of Megatron-LM's GPT-3 example, above); gnmt,
 * deepspeech2 and dlrm their presets' (each is its family's preset of
 * the same name, so the family is always built from the preset's keys).
 */
struct zoo_family {
	const char *name;
	const struct model_key *keys;
	int (*build)(struct model_builder *b, const struct model_spec *s);
	int64_t batch;
	const char *source;
	int imagenet;          /* trains on ImageNet (zoo_dataset) */
};

static const struct zoo_family families[] = {
	{ "bert", tf_keys, model_zoo_bert, 16, "Devlin et al. 2019", 0 },
	{ "deepspeech2", ds2_keys, model_zoo_deepspeech2, 5, DS2_SRC, 0 },
	{ "dlrm", dlrm_keys, model_zoo_dlrm, 2048, DLRM_SRC, 0 },
	{ "gnmt", gnmt_keys, model_zoo_gnmt, 128, GNMT_SRC, 0 },
	{ "gpt", tf_keys, model_zoo_gpt, 1, "Radford et al. 2019 (GPT-2), "
	  "Brown et al. 2020 (GPT-3)", 0 },
	{ "llama", tf_keys, model_zoo_llama, 1, "Touvron et al. 2023", 0 },
	{ "resnet", resnet_keys, model_zoo_resnet, 32, "", 1 },
	{ "t5", tf_keys, model_zoo_t5, 1, "Raffel et al. 2020, Sec. 2.1", 0 },
	{ "transformer", tf_keys, model_zoo_vaswani, 16,
	  "Vaswani et al. 2017", 0 },
};

#define N_FAMILIES ((int)(sizeof(families) / sizeof(families[0])))

static const struct model_zoo_entry *zoo_find(const char *name)
{
	int i;

	for (i = 0; i < ZOO_SIZE; i++)
		if (strcmp(zoo[i].name, name) == 0)
			return &zoo[i];
	return NULL;
}

static const struct zoo_preset *preset_find(const char *name)
{
	int i;

	for (i = 0; i < N_PRESETS; i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	return NULL;
}

static const struct zoo_family *family_find(const char *name)
{
	int i;

	for (i = 0; i < N_FAMILIES; i++)
		if (strcmp(families[i].name, name) == 0)
			return &families[i];
	return NULL;
}

const char *const *model_zoo_names(void)
{
	return zoo_names;
}

const char *model_zoo_summary(const char *name)
{
	const struct model_zoo_entry *e = name ? zoo_find(name) : NULL;
	const struct zoo_preset *p = name ? preset_find(name) : NULL;

	return e ? e->summary : p ? p->summary : NULL;
}

/*
 * What each zoo model trains on, for time to train.  Every CNN but
 * LeNet-5 and SSD300 is an ImageNet-1k classifier: 1,281,167 training images
 * (Russakovsky et al., "ImageNet Large Scale Visual Recognition
 * Challenge", IJCV 2015, Table 2) for 90 epochs, the torchvision reference
 * recipe (references/classification/README.md) and Goyal et al. 2017.
 * LeNet-5 trains on MNIST's 60,000 images (LeCun et al. 1998, Sec. III.A);
 * its paper gives no epoch count we rely on, so --epochs is required.
 * SSD300 trains on COCO 2017's 118,287 training images less the 1,021
 * without annotations, which its loader skips (the DeepLearningExamples
 * README's "Data preprocessing"; Detectron2 logs the same 117,266 when
 * it drops them), for 65 epochs (the README's "Default configuration").
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
	if (strcmp(m->name, "ssd300") == 0) {
		core_strlcpy(m->dataset, "COCO 2017", sizeof(m->dataset));
		m->dataset_size = 117266;
		m->epochs = 65;
		core_strlcpy(m->recipe_source, "COCO 2017 train less the "
			     "images without annotations; 65 epochs "
			     "(DeepLearningExamples SSD README)",
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

/*
 * Build family f from spec's keys (text, after the ':'), on top of
 * preset p's when there is one.
 */
static int build_family(const char *spec, const struct zoo_family *f,
			const struct zoo_preset *p, const char *text,
			struct model **out, struct dlsim_err *err)
{
	struct model_args a;
	struct model_spec s = { spec, &a, f->batch, f->source };
	struct model_builder b;
	int rc;

	memset(&a, 0, sizeof(a));
	if (p) {
		rc = model_args_parse(p->name, p->keys, f->keys, &a, err);
		if (rc)
			return rc;    /* a preset's own keys: a bug */
		s.batch = p->batch;
		s.source = p->source;
	}
	if ((rc = model_args_parse(spec, text, f->keys, &a, err)) ||
	    (rc = model_args_check_required(spec, f->keys, &a, err)))
		return rc;
	f->build(&b, &s);
	if ((rc = model_builder_finish(&b, out, err)))
		return rc;
	if (f->imagenet)
		zoo_dataset(*out);
	return DLSIM_OK;
}

static int build_cnn(const struct model_zoo_entry *e, struct model **out,
		     struct dlsim_err *err)
{
	struct model_builder b;
	int rc;

	e->build(&b);
	if ((rc = model_builder_finish(&b, out, err)))
		return rc;
	zoo_dataset(*out);
	return DLSIM_OK;
}

int model_zoo_build(const char *name, struct model **out,
		    struct dlsim_err *err)
{
	char base[MODEL_NAME_LEN] = "";
	const char *colon = name ? strchr(name, ':') : NULL;
	size_t len = colon ? (size_t)(colon - name) : name ? strlen(name) : 0;
	const struct model_zoo_entry *e = NULL;
	const struct zoo_preset *p = NULL;
	const struct zoo_family *f = NULL;

	*out = NULL;
	if (name && len < sizeof(base)) {
		memcpy(base, name, len);
		base[len] = '\0';
		e = zoo_find(base);
		p = preset_find(base);
		f = family_find(p ? p->family : base);
	}
	if (e && colon)
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': '%s' "
				     "takes no keys (families do: resnet, "
				     "gpt, bert, t5, transformer, llama, "
				     "gnmt, deepspeech2, dlrm)",
				     name, base);
	if (e)
		return build_cnn(e, out, err);
	if (f)
		return build_family(name, f, p, colon ? colon + 1 : NULL, out,
				    err);
	return dlsim_err_set(err, DLSIM_ENOTFOUND,
			     "unknown model '%s' (see 'dlsim models')",
			     name ? name : "");
}

int model_resolve(const char *arg, struct model **out, struct dlsim_err *err)
{
	if (core_is_yaml_path(arg))
		return model_load_yaml(arg, out, err);
	return model_zoo_build(arg, out, err);
}
