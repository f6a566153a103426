/*
 * cal_validate_mlperf.c -- the MLPerf Training rows (data/validation/
 * mlperf_resnet_bert.csv): ResNet-50's steady throughput per accelerator
 * in rounds v0.5 to v2.0, each predicted as its submission ran it (the
 * system's accelerators and count, its global batch, element-wise
 * fusion, and the convolutions with BatchNorm + ReLU fused where its
 * code does so: mlperf_conv_bn).  Only ResNet-50 rows carry a steady
 * throughput; accelerators the catalog lacks are skipped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/banned.h"

/* MLPerf's accelerator column and the catalog device; NULL when the
 * text does not say which part (a bare "TPU") or the catalog lacks it. */
static const char *mlperf_device(const char *acc)
{
	char s[128];
	size_t i;

	for (i = 0; acc[i] && i + 1 < sizeof(s); i++)
		s[i] = (char)(acc[i] >= 'A' && acc[i] <= 'Z' ? acc[i] + 32 :
			      acc[i]);
	s[i] = '\0';
	if (strstr(s, "a100") && strstr(s, "pcie"))
		return strstr(s, "40") ? "a100-pcie-40gb" : "a100-pcie-80gb";
	if (strstr(s, "a100"))
		return strstr(s, "40gb") ? "a100-sxm4-40gb" : "a100";
	if (strstr(s, "v100"))
		return strstr(s, "sxm3") ? "v100-sxm3-32gb" : "v100";
	if (strstr(s, "tpu") && strstr(s, "v4"))
		return "tpu-v4";
	if (strstr(s, "tpu") && strstr(s, "v3"))
		return "tpu-v3";
	if (strstr(s, "gaudi2"))
		return "gaudi2";
	if (strstr(s, "a30"))
		return "a30";
	if (strstr(s, "a5000"))
		return "rtx-a5000";
	return NULL;
}

/*
 * Did the row's code run BatchNorm + ReLU inside its convolutions
 * (sim_fuse.c)?  What the submissions' code says (mlcommons/
 * training_results_v0.6-v2.0):
 * - NVIDIA's MXNet ResNet-50, which the OEMs rerun: every config read at
 *   204-408 images a GPU names a NormConvolution network (v0.6
 *   config_DGX1.sh, config_DGX2.sh: resnet-v1b-normconv-fl; v0.7
 *   config_DGXA100.sh, config_DGXA100_multi_2x8x204.sh:
 *   resnet-v1b-stats-fl, "Arch 80 NormConv fusion"; config_DGX1.sh,
 *   config_DGX2.sh: resnet-v1b-dbar-fl; v2.0 config_DGXA100.sh:
 *   resnet-v1b-stats-fl).  Below that the many-node configs differ: v0.6
 *   config_DGX1_multi.sh (130 nodes, 52 a GPU) and config_DGX2_multi.sh
 *   (96, 39) name resnet-v1b-normconv-fl, but v0.6
 *   config_DGX2_multi_32x16x65.sh, v0.7 config_DGXA100_multi_96x8x45.sh
 *   and _230x8x35.sh, v1.0 _128x8x35.sh and v1.1 _540x8x15.sh the plain
 *   resnet-v1b-fl.  So MXNet at 204 or more a GPU is fused, below it only
 *   the two v0.6 runs whose configs say so (the others, read or not, are
 *   taken as plain).
 * - PaddlePaddle (Baidu, v1.1, models/resnet.py): every bottleneck is
 *   paddle.incubate's ResNetUnit, convolution + BatchNorm + ReLU fused.
 * - TensorFlow, MosaicML's PyTorch and the TPUs and Gaudis: no
 *   convolution fusion of this kind in their code.
 * A row without a framework (one, Supermicro's v1.1) is taken as plain.
 */
static int mlperf_conv_bn(const char *framework, const char *system,
			  const char *dev, int64_t per_device)
{
	static const char *const fused_below[] = {
		"dgx1_n130_ngc19.05_mxnet", "dgx2h_n96_ngc19.05_mxnet",
	};
	char s[160];
	size_t i;

	if (!strncmp(dev, "tpu", 3) || !strcmp(dev, "gaudi2"))
		return 0;
	for (i = 0; framework[i] && i + 1 < sizeof(s); i++)
		s[i] = (char)(framework[i] >= 'A' && framework[i] <= 'Z' ?
			      framework[i] + 32 : framework[i]);
	s[i] = '\0';
	if (strstr(s, "paddlepaddle"))
		return 1;
	if (!strstr(s, "mxnet"))
		return 0;
	if (per_device >= 204)
		return 1;
	for (i = 0; i < sizeof(fused_below) / sizeof(fused_below[0]); i++)
		if (!strcmp(system, fused_below[i]))
			return 1;
	return 0;
}

/* MLPerf Training ResNet-50: the steady throughput per accelerator the
 * logs give (not the time to train, which adds evaluation and
 * convergence), at the submission's global batch and the device's
 * automatic precision. */
int cal_val_row_mlperf(const struct cal_vctx *v, struct cal_vrow *r)
{
	const char *dev = mlperf_device(cal_val_col(v, "accelerator"));
	int64_t n = cal_val_int(v, "total_accelerators");
	int64_t gb = cal_val_int(v, "global_batch_size");
	struct model *m = NULL;
	struct sim_options o;
	struct sim_result res;
	struct hw_system s;
	struct hw_calib cal;
	char spec[64];
	int rc;

	if (strcmp(cal_val_col(v, "benchmark"), "resnet"))
		return -1;
	snprintf(r->what, sizeof(r->what), "%s %s: resnet50 on %lld x %s, "
		 "batch %lld", cal_val_col(v, "round"),
		 cal_val_col(v, "submitter"), (long long)n,
		 cal_val_col(v, "accelerator"), (long long)gb);
	if (!isfinite(cal_val_num(v, "steady_throughput_per_accel")))
		return cal_val_skip(r, "no steady throughput in the logs");
	if (!dev)
		return cal_val_skip(r, "accelerator not in the catalog");
	if (n < 1 || gb < 1 || gb % n)
		return cal_val_skip(r, "batch does not divide over the devices");
	snprintf(spec, sizeof(spec), "%sx%lld", dev, (long long)n);
	if (cal_val_system(v, spec, &s, &cal) ||
	    model_zoo_build("resnet50", &m, NULL))
		return cal_val_skip(r, "no such system in the catalog");
	sim_options_init(&o);
	o.global_batch = gb;
	/* the submissions' stacks fuse their element-wise layers: NVIDIA's
	 * MXNet ResNet-50 (which the OEMs rerun) its BatchNorm + Add + ReLU
	 * (the NHWC BatchNormAddRelu operator), XLA on TPUs every chain */
	o.fuse_elementwise = 1;
	o.fuse_conv_bn = mlperf_conv_bn(cal_val_col(v, "framework"),
					cal_val_col(v, "system"), dev, gb / n);
	rc = sim_predict(m, &s, &o, &res, NULL);
	model_free(m);
	if (rc)
		return cal_val_skip(r, "the prediction failed");
	r->measured = cal_val_num(v, "steady_throughput_per_accel");
	r->predicted = res.throughput_per_device;
	sim_result_release(&res);
	return 0;
}
