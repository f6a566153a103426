/*
 * cal_validate_rows.c -- the validation sets: what one row of each file
 * becomes, a prediction by the library's own calls and the measured value
 * of the same quantity (cal_validate.c runs them and keeps the record).
 *
 * Each row function returns 0 with both values, 1 with the reason the row
 * is skipped, or -1 for a row that belongs to another set of the same
 * file.  Inputs the files do not state are assumed as the comments say.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/banned.h"

/* The field under header name key, "" when absent. */
const char *cal_val_col(const struct cal_vctx *v, const char *key)
{
	int i;

	for (i = 0; i < v->n_head && i < v->n; i++)
		if (strcmp(v->head[i], key) == 0)
			return v->f[i];
	return "";
}

int cal_val_padded(const struct cal_vctx *v, const char *key)
{
	int i;

	for (i = 0; v->padded && i < v->n_head && i < v->n; i++)
		if (strcmp(v->head[i], key) == 0)
			return v->padded[i];
	return 0;
}

int64_t cal_val_int(const struct cal_vctx *v, const char *key)
{
	const char *s = cal_val_col(v, key);
	char *end;
	long long x = strtoll(s, &end, 10);

	return *s && !*end && x > 0 ? (int64_t)x : 0;
}

double cal_val_num(const struct cal_vctx *v, const char *key)
{
	const char *s = cal_val_col(v, key);
	char *end;
	double x = strtod(s, &end);

	return *s && !*end && isfinite(x) && x > 0.0 ? x : NAN;
}

int cal_val_skip(struct cal_vrow *r, const char *why)
{
	snprintf(r->why, sizeof(r->why), "%s", why);
	return 1;
}

int cal_val_system(const struct cal_vctx *v, const char *spec,
		   struct hw_system *s, struct hw_calib *cal)
{
	if (hw_system_resolve(v->cat, spec, s, NULL))
		return -1;
	if (v->db) {
		/* cal is filled, damaged fits counted, whatever it returns */
		if (hw_calib_load_system(v->db, s, cal, NULL) == DLSIM_OK)
			s->calib = cal;
		cal_val_note_calib(v, spec, cal);
	}
	return 0;
}

void cal_val_note_calib(const struct cal_vctx *v, const char *spec,
			const struct hw_calib *cal)
{
	struct cal_val_set *set = v->set;
	int i;

	if (!set || !cal->n_unreadable)
		return;
	for (i = 0; i < set->n_damaged; i++)
		if (set->damaged[i].id == cal->unreadable_id) {
			set->damaged[i].rows++;
			return;
		}
	if (set->n_damaged == CAL_VAL_DAMAGED) {
		set->damaged_rows_other++;
		return;
	}
	set->damaged[i].id = cal->unreadable_id;
	snprintf(set->damaged[i].kind, sizeof(set->damaged[i].kind), "%s",
		 cal->unreadable_kind);
	snprintf(set->damaged[i].hw, sizeof(set->damaged[i].hw), "%s", spec);
	set->damaged[i].rows = 1;
	set->n_damaged++;
}

int cal_val_dp_row(const struct cal_vctx *v, const char *model,
		   const char *dev, int64_t n, int64_t batch,
		   enum dlsim_precision p, int fuse,
		   enum cal_val_reduce reduce, enum sim_optimizer opt,
		   double measured, struct cal_vrow *r)
{
	struct model *m = NULL;
	struct hw_system s;
	struct hw_calib cal;
	struct sim_options o;
	struct sim_result res;
	char spec[64];
	int rc;

	snprintf(spec, sizeof(spec), "%sx%lld", dev, (long long)n);
	snprintf(r->what, sizeof(r->what), "%s %s batch %lld %s%s%s", model,
		 spec, (long long)batch, dlsim_precision_name(p),
		 fuse ? " fused" : "",
		 reduce == CAL_REDUCE_HOST ? " update on host" : "");
	if (cal_val_system(v, spec, &s, &cal))
		return cal_val_skip(r, "no such system in the catalog");
	if (model_zoo_build(model, &m, NULL))
		return cal_val_skip(r, "no such model in the zoo");
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = p;
	o.batch_per_device = batch;
	o.fuse_elementwise = fuse;
	o.optimizer = opt;
	if (reduce == CAL_REDUCE_HOROVOD) {
		o.allreduce = SIM_ALGO_RING;
		o.bucket_bytes = 64.0 * 1024 * 1024;
	}
	o.update_on_host = reduce == CAL_REDUCE_HOST;
	rc = sim_predict(m, &s, &o, &res, NULL);
	model_free(m);
	if (rc)
		return cal_val_skip(r, "the prediction failed (precision or batch)");
	r->measured = measured;
	r->predicted = res.throughput;
	sim_result_release(&res);
	return 0;
}

/* The DGX-1 table's variable_update and local_parameter_device
 * (tensorflow/docs site/en/r1/guide/performance/benchmarks.md, "Details
 * for NVIDIA DGX-1"): InceptionV3 and the ResNets ran parameter_server
 * with the variables on the CPU, AlexNet and VGG16 replicated with
 * NCCL. */
static const struct {
	const char *file_name, *zoo;
	int dgx1_cpu_variables;
} tf_models[] = {
	{ "InceptionV3", "inception_v3", 1 },
	{ "ResNet-50", "resnet:depth=50,v1=1", 1 },
	{ "ResNet-152", "resnet:depth=152,v1=1", 1 },
	{ "AlexNet", "alexnet_tf", 0 },
	{ "VGG16", "vgg16", 0 },
};

/* tf_cnn_benchmarks 2017: every model ran plain SGD (tensorflow/docs
 * site/en/r1/guide/performance/benchmarks.md, each platform's table
 * "Optimizer | sgd"; tf_cnn_benchmarks' default), not dlsim's default
 * momentum.  On the DGX-1 the models whose variables lived on the CPU
 * are predicted with the update on the host (its two Xeon E5-2698 v4,
 * sim_host.c).  The K80 machines ran them so too (GCE: every model;
 * EC2: InceptionV3), but their hosts' CPUs have no public datasheet
 * (EC2's p2 runs a custom Xeon E5-2686 v4, GCE names no part): those
 * rows keep the allreduce (their interconnect column says how they
 * ran). */
static int tf_cnn_row(const struct cal_vctx *v, const char *gpu, const char *dev,
		      struct cal_vrow *r)
{
	const char *name = cal_val_col(v, "model");
	size_t i;

	if (!strstr(cal_val_col(v, "gpu"), gpu))
		return -1;      /* the other set's row */
	for (i = 0; i < sizeof(tf_models) / sizeof(tf_models[0]); i++)
		if (strcmp(tf_models[i].file_name, name) == 0)
			return cal_val_dp_row(v, tf_models[i].zoo, dev,
				       cal_val_int(v, "num_gpus"),
				       cal_val_int(v, "batch_per_gpu"), DLSIM_FP32,
				       0, strcmp(dev, "p100") == 0 &&
				       tf_models[i].dgx1_cpu_variables ?
				       CAL_REDUCE_HOST : CAL_REDUCE_DEFAULT,
				       SIM_OPT_SGD, cal_val_num(v, "throughput"),
				       r);
	snprintf(r->what, sizeof(r->what), "%s", name);
	return cal_val_skip(r, "model not in the zoo");
}

static int row_tf_p100(const struct cal_vctx *v, struct cal_vrow *r)
{
	return tf_cnn_row(v, "P100", "p100", r);
}

static int row_tf_k80(const struct cal_vctx *v, struct cal_vrow *r)
{
	return tf_cnn_row(v, "K80", "k80", r);
}

/*
 * DeepLearningExamples' TensorFlow ResNet-50 v1.5 rows that state a batch
 * per GPU: DGX-1 (V100 16 GB), DGX-2 (V100-SXM3 32 GB), DGX A100 (A100
 * 40 GB); fp32, TF32 or mixed precision (fp16 math).  A row whose column
 * says "+ XLA" ran with XLA, which fuses the element-wise chains
 * (sim_options.fuse_elementwise); the others ran TensorFlow's own kernels.
 * Their gradients are reduced as Horovod reduces them ("Our model uses
 * Horovod to implement efficient multi-GPU training with NCCL", the
 * README's Features; the 2020 rows ran Horovod 0.19-0.20, whose Tensor
 * Fusion buffer was 64 MB): NCCL's ring, 64 MB buckets.
 * The optimizer is SGD with momentum (the README's default
 * configuration), dlsim's momentum.
 */
static int row_dle(const struct cal_vctx *v, struct cal_vrow *r)
{
	static const struct {
		const char *gpu_type, *device;
	} gpus[] = {
		{ "V100-16GB", "v100" }, { "V100-SXM3-32GB", "v100-sxm3-32gb" },
		{ "A100-40GB", "a100-sxm4-40gb" },
	};
	static const struct {
		const char *name;
		enum dlsim_precision p;
	} precisions[] = {
		{ "fp32", DLSIM_FP32 }, { "tf32", DLSIM_TF32 },
		{ "mixed", DLSIM_FP16 },
	};
	const char *gpu = cal_val_col(v, "gpu_type");
	const char *prec = cal_val_col(v, "precision");
	size_t g, k;

	for (g = 0; g < sizeof(gpus) / sizeof(gpus[0]) &&
		    strcmp(gpus[g].gpu_type, gpu); g++)
		;
	for (k = 0; k < sizeof(precisions) / sizeof(precisions[0]) &&
		    strcmp(precisions[k].name, prec); k++)
		;
	snprintf(r->what, sizeof(r->what), "resnet50 on %s, %s", gpu, prec);
	if (g == sizeof(gpus) / sizeof(gpus[0]))
		return cal_val_skip(r, "GPU not mapped to the catalog");
	if (k == sizeof(precisions) / sizeof(precisions[0]))
		return cal_val_skip(r, "precision not fp32, tf32 or mixed");
	return cal_val_dp_row(v, "resnet50", gpus[g].device, cal_val_int(v, "gpus"),
		       cal_val_int(v, "batch_per_gpu"), precisions[k].p,
		       strstr(cal_val_col(v, "column"), "XLA") != NULL,
		       CAL_REDUCE_HOROVOD, SIM_OPT_MOMENTUM,
		       cal_val_num(v, "value"), r);
}

/*
 * Horovod's benchmark (docs/benchmarks.rst): 512 Pascal GPUs, 128 servers
 * of 4 on 25 Gbit/s RoCE (node horovod-p100-4), tf_cnn_benchmarks at the
 * batch of 64 a GPU its reproduction command gives, fp32, synthetic data;
 * the scaling efficiency in percent against one GPU at the same batch.
 * The software is the row's own: NCCL's ring allreduce (the file's
 * framework column; NCCL 2.0 to 2.3 had no other algorithm), and
 * Horovod's Tensor Fusion buffer of 64 MB as the gradient bucket
 * (docs/tensor-fusion.rst: "Default fusion buffer size is 64 MB", the
 * default until v0.21.0 raised it to 128 MB, #2468) where PyTorch DDP's
 * 25 MiB is the default.  Horovod fuses what is ready each 5 ms cycle up
 * to that size; fixed buckets of it are the closest form sim_step.c has.
 * The reproduction command sets no optimizer: tf_cnn_benchmarks' plain
 * SGD, as in tf_cnn_row.
 */
static int row_horovod(const struct cal_vctx *v, struct cal_vrow *r)
{
	static const struct {
		const char *file_name, *zoo;
	} models[] = {
		{ "Inception V3", "inception_v3" },
		{ "ResNet-101", "resnet:depth=101,v1=1" },
		{ "VGG-16", "vgg16" },
	};
	const char *name = cal_val_col(v, "model");
	struct model *m = NULL;
	struct hw_system s;
	struct hw_calib cal;
	struct sim_options o;
	struct sim_result res;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(models) / sizeof(models[0]) &&
		    strcmp(models[i].file_name, name); i++)
		;
	snprintf(r->what, sizeof(r->what), "%s on horovod-p100-4x128 batch 64 "
		 "fp32, ring, 64 MiB fusion", i < sizeof(models) / sizeof(models[0]) ?
		 models[i].zoo : name);
	if (i == sizeof(models) / sizeof(models[0]))
		return cal_val_skip(r, "model not in the zoo");
	if (cal_val_int(v, "num_accelerators") != 512)
		return cal_val_skip(r, "not the 512-GPU run");
	if (cal_val_system(v, "horovod-p100-4x128", &s, &cal))
		return cal_val_skip(r, "no such system in the catalog");
	if (model_zoo_build(models[i].zoo, &m, NULL))
		return cal_val_skip(r, "no such model in the zoo");
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	o.batch_per_device = 64;
	o.allreduce = SIM_ALGO_RING;
	o.bucket_bytes = 64.0 * 1024 * 1024;
	o.optimizer = SIM_OPT_SGD;      /* tf_cnn_benchmarks' default */
	rc = sim_predict(m, &s, &o, &res, NULL);
	model_free(m);
	if (rc)
		return cal_val_skip(r, "the prediction failed");
	r->measured = cal_val_num(v, "value");
	r->predicted = 100.0 * res.scaling_efficiency;
	sim_result_release(&res);
	return 0;
}

/* A GPT run under a hybrid strategy; *value: step time or TFLOP/s. */
static int gpt_row(const struct cal_vctx *v, const char *model,
		   const char *spec, const struct sim_strategy *st, int tflops,
		   double measured, struct cal_vrow *r)
{
	struct model *m = NULL;
	struct hw_system s;
	struct hw_calib cal;
	struct sim_par_result res;
	int rc;

	snprintf(r->what, sizeof(r->what), "%s on %s tp %lld pp %lld dp %lld "
		 "mb %lld gb %lld %s%s", model, spec, (long long)st->tp,
		 (long long)st->pp, (long long)st->dp,
		 (long long)st->micro_batch, (long long)st->global_batch,
		 sim_recompute_name(st->recompute),
		 st->sequence_parallel ? " sp" : "");
	if (cal_val_system(v, spec, &s, &cal))
		return cal_val_skip(r, "no such system in the catalog");
	if (model_resolve(model, &m, NULL))
		return cal_val_skip(r, "the model does not build");
	rc = sim_parallel_predict(m, &s, DLSIM_FP16, SIM_OPT_ADAM, st, &res,
				  NULL);
	model_free(m);
	if (rc)
		return cal_val_skip(r, "the strategy is refused");
	r->measured = measured;
	r->predicted = tflops ? res.tflops_per_device : res.step_time_s;
	return 0;
}

/*
 * Megatron-DeepSpeed's host time per kernel launch, the one software-stack
 * parameter issue 6 allows: fitted by tools/fit_dispatch.py on the
 * calibration subset written down before fitting, every fifth data row of
 * vtrain_single.csv (288 rows), as the median-|error| minimiser over 5-200
 * us; reported apart from the other 1,152 rows (sets vtrain_fit and
 * vtrain).  With launches queued asynchronously (sim_parallel.c's head
 * comment) and the attention these runs executed (unfused=1): 66 us,
 * 8.4% on its subset, 7.9% on the rest (catalog alone); refitted when
 * the vocabulary was padded as Megatron pads it and the loss ran in
 * fp32 (models/model_layer.c): 65 us, 7.8% and 7.5%.  The earlier
 * model, every pass paying the dispatch on top of its device time with
 * a fused attention, fitted 65 us at 11.2% and 10.9%.
 */
#define MEGATRON_DEEPSPEED_DISPATCH_S 65e-6

/* A100s n in their usual node (DGX A100), as Megatron-LM's and vTrain's
 * single-node rows ran. */
static const char *a100_spec(int64_t n, char *spec, size_t cap)
{
	snprintf(spec, cap, "a100x%lld", (long long)n);
	return spec;
}

/* Megatron-LM's vocabulary, padded to a multiple of 128 x TP
 * (_vocab_size_with_padding, megatron/tokenizer/tokenizer.py: its
 * --make-vocab-size-divisible-by 128 times the tensor-parallel size),
 * so that every GEMM of the projection is on 16-byte rows. */
static int64_t megatron_vocab(int64_t vocab, int64_t tp)
{
	int64_t q = 128 * (tp > 0 ? tp : 1);

	return (vocab + q - 1) / q * q;
}

/* vTrain: fp16, full recomputation, 1F1B (the file's framework column);
 * vocab 50257, vTrain's default (src/config.py), padded as
 * Megatron-DeepSpeed pads it (megatron_vocab).  subset: 1 for the
 * dispatch time's calibration subset (data rows 0, 5, 10, ...), 0 for
 * the rest, -1 for every row (the multi-node file, on which nothing was
 * fitted), whose n GPUs fill n / 8 of vTrain's own nodes (vtrain-a100:
 * 800 Gb/s each, not a DGX A100's 1,600). */
static int vtrain_row(const struct cal_vctx *v, struct cal_vrow *r,
		      int subset)
{
	struct sim_strategy st;
	char model[160], spec[64];
	int64_t n = cal_val_int(v, "# GPUs");

	sim_strategy_init(&st);
	st.tp = cal_val_int(v, "tensor parallelism");
	snprintf(model, sizeof(model), "gpt:layers=%lld,hidden=%lld,heads="
		 "%lld,seq=%lld,vocab=%lld,unfused=1",
		 (long long)cal_val_int(v, "# layers"),
		 (long long)cal_val_int(v, "hidden size"),
		 (long long)cal_val_int(v, "attention heads"),
		 (long long)cal_val_int(v, "sequence length"),
		 (long long)megatron_vocab(50257, st.tp));
	st.pp = cal_val_int(v, "pipeline parallelism");
	st.dp = cal_val_int(v, "data parallelism");
	st.micro_batch = cal_val_int(v, "micro batch");
	st.global_batch = cal_val_int(v, "global batch");
	st.recompute = SIM_RECOMPUTE_FULL;
	st.dispatch_s = MEGATRON_DEEPSPEED_DISPATCH_S;
	if (subset >= 0 && (v->row % 5 == 0) != subset)
		return -1;      /* the other subset's row */
	if (subset < 0)
		snprintf(spec, sizeof(spec), "vtrain-a100x%lld",
			 (long long)(n / 8));
	else
		a100_spec(n, spec, sizeof(spec));
	return gpt_row(v, model, spec, &st, 0,
		       cal_val_num(v, "iteration time (ms)") * 1e-3, r);
}

static int row_vtrain(const struct cal_vctx *v, struct cal_vrow *r)
{
	return vtrain_row(v, r, 0);
}

static int row_vtrain_fit(const struct cal_vctx *v, struct cal_vrow *r)
{
	return vtrain_row(v, r, 1);
}

static int row_vtrain_multi(const struct cal_vctx *v, struct cal_vrow *r)
{
	if (cal_val_int(v, "# GPUs") % 8)
		return cal_val_skip(r, "GPUs do not fill nodes of 8");
	return vtrain_row(v, r, -1);
}

/* Megatron-LM Table 1: the model column's heads, hidden, layers; seq
 * 2048, vocab 51200 (the row's text); TP, PP, DP from parallelism. */
static int row_megatron(const struct cal_vctx *v, struct cal_vrow *r)
{
	struct sim_strategy st;
	long long a = 0, h = 0, l = 0, tp = 0, pp = 0, dp = 0;
	char model[160], spec[64];

	if (sscanf(strstr(cal_val_col(v, "model"), "heads=") ?
		   strstr(cal_val_col(v, "model"), "heads=") : "", "heads=%lld, "
		   "hidden=%lld, layers=%lld", &a, &h, &l) != 3 ||
	    sscanf(cal_val_col(v, "parallelism"), "TP=%lld,PP=%lld,DP=%lld", &tp,
		   &pp, &dp) != 3) {
		snprintf(r->what, sizeof(r->what), "%.150s", cal_val_col(v, "model"));
		return cal_val_skip(r, "model or parallelism not in the expected form");
	}
	snprintf(model, sizeof(model), "gpt:layers=%lld,hidden=%lld,heads="
		 "%lld,seq=2048,vocab=51200,unfused=1", l, h, a);
	sim_strategy_init(&st);
	st.tp = tp;
	st.pp = pp;
	st.dp = dp;
	st.global_batch = cal_val_int(v, "global_batch");
	st.recompute = SIM_RECOMPUTE_FULL;
	return gpt_row(v, model, a100_spec(cal_val_int(v, "num_accelerators"),
					   spec, sizeof(spec)), &st, 1,
		       cal_val_num(v, "value"), r);
}

/* Korthikanti et al. 2022 Table 5: its Table 3 models (layers, hidden,
 * heads), micro-batch 1, seq 2048, vocab 51200; full recomputation, or
 * sequence parallelism with selective recomputation, as the row says. */
static int row_korthikanti(const struct cal_vctx *v, struct cal_vrow *r)
{
	static const struct {
		const char *name;
		int layers, hidden, heads;
	} models[] = {
		{ "22B", 48, 6144, 64 }, { "GPT-3 175B", 96, 12288, 96 },
		{ "MT-NLG 530B", 105, 20480, 128 }, { "1T", 128, 25600, 160 },
	};
	const char *name = cal_val_col(v, "model");
	const char *par = cal_val_col(v, "parallelism");
	struct sim_strategy st;
	long long tp = 0, pp = 0, dp = 0;
	char model[160], spec[64];
	size_t i;

	for (i = 0; i < sizeof(models) / sizeof(models[0]) &&
		    strcmp(models[i].name, name); i++)
		;
	if (i == sizeof(models) / sizeof(models[0]) ||
	    sscanf(par, "TP=%lld,PP=%lld,DP=%lld", &tp, &pp, &dp) != 3) {
		snprintf(r->what, sizeof(r->what), "%.150s", name);
		return cal_val_skip(r, "model or parallelism not in the "
				    "expected form");
	}
	snprintf(model, sizeof(model), "gpt:layers=%d,hidden=%d,heads=%d,"
		 "seq=2048,vocab=51200,unfused=1", models[i].layers,
		 models[i].hidden, models[i].heads);
	sim_strategy_init(&st);
	st.tp = tp;
	st.pp = pp;
	st.dp = dp;
	st.global_batch = cal_val_int(v, "global_batch");
	if (strstr(par, "selective")) {
		st.recompute = SIM_RECOMPUTE_SELECTIVE;
		st.sequence_parallel = strstr(par, "sequence parallel") != NULL;
	} else {
		st.recompute = SIM_RECOMPUTE_FULL;
	}
	return gpt_row(v, model, a100_spec(cal_val_int(v, "num_accelerators"),
					   spec, sizeof(spec)), &st, 0,
		       cal_val_num(v, "value"), r);
}

/* jcjohnson's device column (and its cloud fork's, cnn_cloud) and the
 * catalog system: one GPU alone, or the dual Xeon as its two-socket
 * node (8 samples a socket).  The fork's Tesla K80, Tesla M60 and GRID
 * K520 are one GPU of their two-GPU boards, as CUDA shows them; its
 * Xeon E5-2666 v3 (an AWS part with no public datasheet) is not in the
 * catalog. */
static const char *jcjohnson_system(const char *device)
{
	static const struct {
		const char *column, *system;
	} map[] = {
		{ "GTX 1080 Ti", "gtx-1080-ti" }, { "GTX 1080", "gtx-1080" },
		{ "Pascal Titan X", "titan-x-pascal" },
		{ "Maxwell Titan X", "titan-x-maxwell" },
		{ "CPU: Dual Xeon E5-2630 v3", "xeon-e5-2630v3-2s" },
		{ "Tesla K80", "k80" }, { "Tesla M60", "m60" },
		{ "Quadro P5000", "quadro-p5000" },
		{ "Quadro M4000", "quadro-m4000" },
		{ "GRID K520", "grid-k520" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(map[i].column, device) == 0)
			return map[i].system;
	return NULL;
}

/* jcjohnson/cnn-benchmarks: forward and backward of batch 16, Torch7
 * fp32.  The GPU rows whose cudnn column is "None" ran Torch's own nn
 * kernels (im2col + cuBLAS), which no calibration describes; the CPU
 * rows say "None" too and are predicted from the CPU's peaks.  Its
 * cloud fork (dmikushin/cnn-benchmarks, set cnn_cloud) ran the same
 * models with the same harness on cloud GPUs, one file in the same
 * columns. */
static int row_jcjohnson(const struct cal_vctx *v, struct cal_vrow *r)
{
	static const struct {
		const char *file_name, *zoo;
	} models[] = {
		{ "AlexNet", "alexnet_bvlc" },
		{ "Inception-V1", "googlenet_torch" },
		{ "VGG-16", "vgg16" }, { "VGG-19", "vgg19" },
		{ "ResNet-18", "resnet18" }, { "ResNet-34", "resnet34" },
		{ "ResNet-50", "resnet50" }, { "ResNet-101", "resnet101" },
		{ "ResNet-152", "resnet152" },
	};
	const char *name = cal_val_col(v, "model"), *sys;
	struct model *m = NULL;
	struct sim_options o;
	struct sim_result res;
	struct hw_system s;
	struct hw_calib cal;
	size_t i;
	int rc;

	snprintf(r->what, sizeof(r->what), "%s on %s", name,
		 cal_val_col(v, "device"));
	sys = jcjohnson_system(cal_val_col(v, "device"));
	if (!sys)
		return cal_val_skip(r, "device not in the catalog");
	if (strcmp(cal_val_col(v, "cudnn"), "None") == 0 &&
	    strncmp(sys, "xeon", 4) != 0)
		return cal_val_skip(r, "GPU without cuDNN (Torch nn kernels)");
	for (i = 0; i < sizeof(models) / sizeof(models[0]) &&
	     strcmp(models[i].file_name, name); i++)
		;
	if (i == sizeof(models) / sizeof(models[0]))
		return cal_val_skip(r, "model not in the zoo");
	if (cal_val_system(v, sys, &s, &cal) ||
	    model_zoo_build(models[i].zoo, &m, NULL))
		return cal_val_skip(r, "no such system or model");
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	o.global_batch = cal_val_int(v, "batch_size");
	rc = sim_predict(m, &s, &o, &res, NULL);
	model_free(m);
	if (rc)
		return cal_val_skip(r, "the prediction failed");
	r->measured = cal_val_num(v, "total_ms") * 1e-3;
	r->predicted = res.breakdown.forward_s + res.breakdown.backward_s;
	sim_result_release(&res);
	return 0;
}

/* ---------------------------------------------------------------- */
/* The sets                                                          */
/* ---------------------------------------------------------------- */

const struct cal_val_set_def cal_val_sets[] = {
	{ "vtrain", "vtrain_single.csv", "vTrain: Megatron GPT iteration "
	  "time with TP/PP/DP on 2-8 A100 (the rows not fitted on)", "s",
	  row_vtrain, 0, NULL },
	{ "vtrain_fit", "vtrain_single.csv", "vTrain: the fifth of its rows "
	  "the dispatch time was fitted on (reported apart)", "s",
	  row_vtrain_fit, 0, NULL },
	{ "vtrain_multi", "vtrain_multi.csv", "vTrain: Megatron GPT 3.6B-175B "
	  "iteration time with TP/PP/DP on 64-512 A100 (8 to a node)", "s",
	  row_vtrain_multi, 0, NULL },
	{ "tf_cnn_p100", "tf_cnn_2017.csv", "tf_cnn_benchmarks 2017: five "
	  "CNNs on P100 (DGX-1), 1-8 GPUs", "samples/s", row_tf_p100, 0, NULL },
	{ "tf_cnn_k80", "tf_cnn_2017.csv", "tf_cnn_benchmarks 2017: five "
	  "CNNs on K80, 1-64 GPUs", "samples/s", row_tf_k80, 0, NULL },
	{ "dle", "dle_resnet50.csv", "NVIDIA DeepLearningExamples: "
	  "ResNet-50 (TensorFlow, XLA or not) on V100 and A100, 1-16 GPUs",
	  "samples/s", row_dle, 0, NULL },
	{ "dle_bert", "dle_bert.csv", "NVIDIA DeepLearningExamples: BERT-Large "
	  "pre-training (PyTorch) on V100 and A100, 1-16 GPUs", "samples/s",
	  cal_val_row_dle_bert, 0, NULL },
	{ "dle_transformer", "dle_transformer.csv", "NVIDIA "
	  "DeepLearningExamples: Transformer big on WMT14 En-De (PyTorch, "
	  "fairseq) on V100 and A100, 1-16 GPUs", "tokens/s",
	  cal_val_row_dle_transformer, 0, NULL },
	{ "dle_gnmt", "dle_gnmt.csv", "NVIDIA DeepLearningExamples: GNMT v2 "
	  "on WMT16 En-De (PyTorch) on V100, 1-16 GPUs", "tokens/s",
	  cal_val_row_dle_gnmt, 0, NULL },
	{ "dle_ssd", "dle_ssd.csv", "NVIDIA DeepLearningExamples: SSD300 "
	  "v1.1 on COCO 2017 (PyTorch) on V100 and A100, 1-8 GPUs",
	  "samples/s", cal_val_row_dle_ssd, 0, NULL },
	{ "megatron", "megatron.csv", "Megatron-LM Table 1: GPT 1.7B-1T on "
	  "32-3072 A100", "TFLOP/s/device", row_megatron, 0, NULL },
	{ "korthikanti", "korthikanti.csv", "Korthikanti et al. 2022 Table 5: "
	  "GPT 22B-1T iteration time on 8-512 A100", "s", row_korthikanti, 0, NULL },
	{ "horovod", "horovod.csv", "Horovod: scaling efficiency of Inception "
	  "V3, ResNet-101, VGG-16 on 512 P100, 25 GbE", "%", row_horovod, 0, NULL },
	{ "imagenet", "imagenet.csv", "ImageNet time-to-train records: "
	  "ResNet-50 for 90 epochs on 256-1024 P100", "s",
	  cal_val_row_imagenet, 0, NULL },
	{ "mlperf", "mlperf_resnet_bert.csv", "MLPerf Training v0.5-v2.0: "
	  "ResNet-50 steady throughput per accelerator", "samples/s/device",
	  cal_val_row_mlperf, 0, NULL },
	{ "jcjohnson", "jcjohnson.csv", "cnn-benchmarks: forward and backward "
	  "of nine CNNs, batch 16, Maxwell and Pascal GPUs, dual Xeon", "s",
	  row_jcjohnson, 0, NULL },
	{ "cnn_cloud", "cnn_cloud.csv", "cnn-benchmarks' cloud fork: forward "
	  "and backward of nine CNNs, batch 16, Tesla K80, M60, GRID K520, "
	  "Quadro P5000, M4000 and GTX 1080",
	  "s", row_jcjohnson, 0, NULL },
	{ "h100_pytorch", "h100_pytorch.csv", "dlsim's own H100 runs: "
	  "ResNet-50 (torchvision), BERT-Large and GPT-2 (Hugging Face) "
	  "training steps in PyTorch 2.11 eager, fp32 to fp16, batch 4-256",
	  "s", cal_val_row_user, 0, NULL },
	{ "deepbench_gemm", "deepbench_gemm.csv", "DeepBench training GEMM "
	  "times (kernels; calibration data)", "s", cal_val_row_gemm, 0, NULL },
	{ "deepbench_conv", "deepbench_conv.csv", "DeepBench training "
	  "convolution times (kernels; calibration data)", "s", cal_val_row_conv,
	  0, NULL },
	{ "deepbench_gemm_heldout", "deepbench_gemm.csv", "DeepBench GEMM "
	  "times, each with rooflines fitted without its shape (two folds)",
	  "s", cal_val_row_gemm, 1, NULL },
	{ "deepbench_conv_heldout", "deepbench_conv.csv", "DeepBench "
	  "convolution times, each with rooflines fitted without its shape "
	  "(two folds)", "s", cal_val_row_conv, 1, NULL },
	{ "deepbench_rnn", "deepbench_rnn.csv", "DeepBench training LSTM, "
	  "GRU and vanilla RNN times (kernels; calibration data)", "s",
	  cal_val_row_rnn, 0, NULL },
	{ "deepbench_rnn_heldout", "deepbench_rnn.csv", "DeepBench recurrent "
	  "times, each with rooflines fitted without its shape (two folds)",
	  "s", cal_val_row_rnn, 1, NULL },
	{ "nccl", "nccl_vtrain.csv", "nccl-tests allreduce, 2-8 A100 and V100, "
	  "1 MiB-1 GiB (calibration data)", "s", cal_val_row_nccl, 0, NULL },
	{ "deepbench_allreduce", "deepbench_allreduce.csv", "DeepBench "
	  "allreduce, 2-32 Xeon Phi 7250 on Omni-Path (calibration data)",
	  "s", cal_val_row_deepbench_allreduce, 0, NULL },
};

/* A report holds CAL_VAL_SETS sets: a set more must raise it. */
_Static_assert(sizeof(cal_val_sets) / sizeof(cal_val_sets[0]) <=
	       CAL_VAL_SETS, "more validation sets than a report holds");

const int cal_val_n_sets = (int)(sizeof(cal_val_sets) /
				  sizeof(cal_val_sets[0]));
