/*
 * cal_validate_ssd.c -- the DeepLearningExamples detection set: NVIDIA's
 * PyTorch SSD300 v1.1 (Detection/SSD) on COCO 2017, images per second on
 * one DGX-1 (V100 16 GB) or DGX A100 (40 or 80 GB), 1-8 GPUs, as the
 * READMEs of 2019-2023 published them (data/validation/dle_ssd.csv; the
 * seven rows the 2020 README copied from the 2019 one with the same
 * GPUs, batch, precision and value are in it once).
 *
 * A PYTORCH ROW
 * - Model: the zoo's ssd300 (model_zoo_ssd.c), the network of the
 *   repository's model.py, unchanged over those years.
 * - Batch: the row's images a GPU (main.py's --batch-size).
 * - Strategy: data parallel over the row's GPUs (apex's
 *   DistributedDataParallel, costed as dlsim's all-reduce in buckets);
 *   SGD with momentum (main.py: torch.optim.SGD, momentum 0.9); fp32,
 *   TF32, or mixed = fp16 math with fp32 weights (apex AMP until May
 *   2021, torch.cuda.amp after: the changelog).
 * - Throughput: the table's images per second over all the row's GPUs,
 *   "averaged over an entire training epoch" (the 2023 README).
 *
 * SKIPPED
 * - The TensorFlow rows: SSD320 v1.2, a ResNet-50 with a feature pyramid
 *   from the TensorFlow Object Detection API, not in the zoo.
 * - The six PyTorch rows of March 2019 that state no GPU: the README's
 *   first tables; its July copy repeats their figures under DGX-1.
 *
 * LIMITATIONS
 * - The input pipeline is not costed: DALI decodes, crops, flips and
 *   colour-jitters the JPEGs and encodes the boxes, partly on the GPU.
 * - One model serves every year: the November 2021 code switched to
 *   channels-last tensors (the changelog); every convolution fit dlsim
 *   ships was swept in NCHW.
 * - Mixed precision is dlsim's fp16 math with fp32 master weights for
 *   apex's O2 of 2019-2021 and the autocast of the 2021-2023 code alike
 *   (costed with autocast, a V100 at batch 32 moves by about 1%).
 */
#include <stdio.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/banned.h"

int cal_val_row_dle_ssd(const struct cal_vctx *v, struct cal_vrow *r)
{
	const char *gpu = cal_val_col(v, "gpu_type");
	const char *dev = cal_val_dle_device(gpu);
	int64_t gpus = cal_val_int(v, "gpus");
	int64_t batch = cal_val_int(v, "batch_per_gpu");
	enum dlsim_precision p = DLSIM_FP32;
	char what[sizeof(r->what)];
	int rc;

	snprintf(what, sizeof(what), "ssd300 on %s x%lld batch %s %s",
		 *gpu ? gpu : "(no GPU stated)", (long long)gpus,
		 cal_val_col(v, "batch_per_gpu"), cal_val_col(v, "precision"));
	snprintf(r->what, sizeof(r->what), "%s", what);
	if (strcmp(cal_val_col(v, "framework"), "PyTorch") != 0)
		return cal_val_skip(r, "SSD320 v1.2 with a feature pyramid "
				    "(TensorFlow) is not in the zoo");
	if (!*gpu)
		return cal_val_skip(r, "no GPU stated (the July 2019 README "
				    "repeats these figures on DGX-1)");
	if (!dev)
		return cal_val_skip(r, "GPU not mapped to the catalog");
	if (cal_val_dle_precision(cal_val_col(v, "precision"), &p))
		return cal_val_skip(r, "precision not fp32, tf32 or mixed");
	if (!(gpus > 0 && batch > 0))
		return cal_val_skip(r, "GPUs or batch not usable");
	rc = cal_val_dp_row(v, "ssd300", dev, gpus, batch, p, 0,
			    CAL_REDUCE_DEFAULT,
			    SIM_OPT_MOMENTUM, cal_val_num(v, "value"), r);
	/* the row's own words, not the data-parallel helper's */
	snprintf(r->what, sizeof(r->what), "%s", what);
	return rc;
}
