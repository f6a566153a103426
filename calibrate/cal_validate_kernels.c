/*
 * cal_validate_kernels.c -- the kernel and collective validation sets:
 * DeepBench's GEMM, convolution and recurrent-layer times, nccl-tests'
 * and DeepBench's allreduce times.  Each row is one call of the
 * library's kernel or collective model on one catalog device or system,
 * against the time the file gives (cal_validate_rows.c's conventions:
 * 0 with both values, 1 skipped with the reason).
 *
 * These files are also the calibration data dlsim seeds
 * (data/calibration/): with the shipped calibration their figures are
 * in-sample; --uncalibrated gives the catalog's out-of-sample figures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "models/model.h"
#include "core/banned.h"

/* DeepBench's hardware column and the catalog device. */
static const char *deepbench_device(const char *hw)
{
	static const struct {
		const char *column, *device;
	} map[] = {
		{ "NVIDIA V100", "v100" }, { "NVIDIA Tesla P100", "p100" },
		{ "Nvidia Tesla M40", "m40" }, { "NVIDIA T4", "t4" },
		{ "Nvidia TitanX", "titan-x-maxwell" },
		{ "Nvidia TitanX Pascal", "titan-x-pascal" },
		{ "NVIDIA GTX TitanXp", "titan-xp" },
		{ "NVIDIA GTX 1080 Ti", "gtx-1080-ti" },
		{ "Intel(R) Xeon Phi(TM)\xc2\xa0" "7250F", "phi-7250" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(map[i].column, hw) == 0)
			return map[i].device;
	return NULL;
}

/* DeepBench's precision text: fp32, or 16-bit inputs. */
static int deepbench_precision(const char *text, enum dlsim_precision *p)
{
	if (strcmp(text, "Float") == 0)
		*p = DLSIM_FP32;
	else if (strncmp(text, "16 bit inputs", 13) == 0)
		*p = DLSIM_FP16;
	else
		return -1;
	return 0;
}

/* One device of the catalog with its calibration, for kernel rows. */
static int kernel_system(const struct cal_vctx *v, struct cal_vrow *r,
			 struct hw_system *s, struct hw_calib *cal,
			 enum dlsim_precision *p)
{
	const char *dev = deepbench_device(cal_val_col(v, "hardware"));

	if (!dev)
		return cal_val_skip(r, "device not in the catalog");
	if (deepbench_precision(cal_val_col(v, "precision"), p))
		return cal_val_skip(r, "precision not a training one");
	if (cal_val_system(v, dev, s, cal))
		return cal_val_skip(r, "no such system in the catalog");
	return 0;
}

/* A GEMM: 2mnk FLOPs over its operands and result once. */
int cal_val_row_gemm(const struct cal_vctx *v, struct cal_vrow *r)
{
	double m = (double)cal_val_int(v, "M"), n = (double)cal_val_int(v, "N");
	double k = (double)cal_val_int(v, "K");
	struct model_pass_cost c;
	struct hw_system s;
	struct hw_calib cal;
	enum dlsim_precision p;
	int rc;

	snprintf(r->what, sizeof(r->what), "%s gemm %.0fx%.0fx%.0f %s%s %s",
		 cal_val_col(v, "hardware"), m, n, k, cal_val_col(v, "transA"),
		 cal_val_col(v, "transB"), cal_val_col(v, "precision"));
	if ((rc = kernel_system(v, r, &s, &cal, &p)))
		return rc;
	if (!(m > 0 && n > 0 && k > 0))
		return cal_val_skip(r, "M, N or K missing or not positive");
	memset(&c, 0, sizeof(c));
	c.flops = 2.0 * m * n * k;
	c.bytes = (double)dlsim_precision_bytes(p) * (m * k + k * n + m * n);
	c.kernel = model_gemm_unaligned(m, n, k, dlsim_precision_bytes(p)) ?
		   MODEL_KERNEL_GEMM_UNALIGNED : MODEL_KERNEL_GEMM;
	r->measured = cal_val_num(v, "time_ms") * 1e-3;
	r->predicted = sim_kernel_time(&s, p, &c);
	return 0;
}

/* A pad column: 0 is a real value here, so an empty or malformed cell
 * is NAN rather than cal_val_num's "not positive". */
static double pad(const char *s)
{
	char *end;
	double x = strtod(s, &end);

	return *s && !*end && isfinite(x) ? x : NAN;
}

/* A convolution's three passes, each of the direct count's FLOPs over
 * input, filter and output once (cal_points.c's rule); the passes the
 * row times are summed on both sides. */
int cal_val_row_conv(const struct cal_vctx *v, struct cal_vrow *r)
{
	static const char *const pass[] = { "fwd_ms", "bwd_inputs_ms",
					    "bwd_params_ms" };
	double w = (double)cal_val_int(v, "W"), h = (double)cal_val_int(v, "H");
	double ch = (double)cal_val_int(v, "C"), n = (double)cal_val_int(v, "N");
	double k = (double)cal_val_int(v, "K");
	double fs = (double)cal_val_int(v, "S_filter_w");
	double fr = (double)cal_val_int(v, "R_filter_h");
	double pw = pad(cal_val_col(v, "pad_w"));
	double ph = pad(cal_val_col(v, "pad_h"));
	double sw = (double)cal_val_int(v, "stride_w");
	double sh = (double)cal_val_int(v, "stride_h");
	double oq = floor((w + 2.0 * pw - fs) / (sw > 0 ? sw : 1)) + 1.0;
	double op = floor((h + 2.0 * ph - fr) / (sh > 0 ? sh : 1)) + 1.0;
	struct model_pass_cost c;
	struct hw_system s;
	struct hw_calib cal;
	enum dlsim_precision p;
	int i, rc, any = 0;

	snprintf(r->what, sizeof(r->what), "%s conv N%.0f C%.0f %.0fx%.0f "
		 "K%.0f %.0fx%.0f/%.0f", cal_val_col(v, "hardware"), n, ch, h,
		 w, k, fr, fs, sh);
	if ((rc = kernel_system(v, r, &s, &cal, &p)))
		return rc;
	if (!(n > 0 && ch > 0 && h > 0 && w > 0 && k > 0 && fs > 0 &&
	      fr > 0 && sw > 0 && sh > 0) || !(pw >= 0 && ph >= 0))
		return cal_val_skip(r, "a dimension, stride or pad missing "
				    "or out of range");
	if (!(op >= 1.0 && oq >= 1.0))
		return cal_val_skip(r, "a filter larger than its input");
	memset(&c, 0, sizeof(c));
	c.flops = 2.0 * n * k * op * oq * ch * fr * fs;
	c.bytes = (double)dlsim_precision_bytes(p) *
		  (n * ch * h * w + k * ch * fr * fs + n * k * op * oq);
	c.kernel = model_conv_class(fr, fs, sh, sw, 1.0);
	c.channel_pad = model_conv_channel_pad(ch, dlsim_precision_bytes(p));
	r->measured = r->predicted = 0.0;
	for (i = 0; i < 3; i++) {
		double t = cal_val_num(v, pass[i]);

		if (!isfinite(t))
			continue;
		any = 1;
		r->measured += t * 1e-3;
		r->predicted += sim_kernel_time(&s, p, &c);
	}
	return any ? 0 : cal_val_skip(r, "no pass timed");
}

/* An allreduce of bytes over spec's devices; time in s. */
static int allreduce_row(const struct cal_vctx *v, const char *spec,
			 double bytes, double measured, struct cal_vrow *r)
{
	struct sim_comm_result res;
	struct hw_system s;
	struct hw_calib cal;

	snprintf(r->what, sizeof(r->what), "allreduce %.0f B on %s", bytes,
		 spec);
	if (cal_val_system(v, spec, &s, &cal))
		return cal_val_skip(r, "no such system in the catalog");
	if (sim_collective_time(&s, SIM_COLL_ALLREDUCE, bytes, SIM_ALGO_AUTO,
				&res, NULL))
		return cal_val_skip(r, "the collective is refused");
	r->measured = measured;
	r->predicted = res.time_s;
	return 0;
}

/* vTrain's nccl-tests all_reduce_perf, out of place (the seed fits the
 * dgx-a100 and dgx1 collectives from this file: in-sample when
 * calibrated). */
int cal_val_row_nccl(const struct cal_vctx *v, struct cal_vrow *r)
{
	const char *gpu = cal_val_col(v, "gpu");
	char spec[64];

	snprintf(spec, sizeof(spec), "%sx%lld", strcmp(gpu, "A100") ? "v100" :
		 "a100", (long long)cal_val_int(v, "num_gpus"));
	return allreduce_row(v, spec, cal_val_num(v, "size_bytes"),
			     cal_val_num(v, "time_oop_ns") * 1e-9, r);
}

/* DeepBench's Xeon Phi all-reduce (Intel MLSL on Omni-Path), one KNL per
 * node (stampede2-knl; seeded from this file: in-sample calibrated). */
int cal_val_row_deepbench_allreduce(const struct cal_vctx *v,
				   struct cal_vrow *r)
{
	char spec[64];

	snprintf(spec, sizeof(spec), "stampede2-knlx%lld",
		 (long long)cal_val_int(v, "ranks"));
	return allreduce_row(v, spec, 4.0 * cal_val_num(v, "size_floats"),
			     cal_val_num(v, "mean_time_ms") * 1e-3, r);
}

/* One pass of DeepBench's recurrent layer on s's device, at p. */
static double rnn_pass(enum model_layer_kind kind, int64_t h, int64_t n,
		       int64_t t, enum model_pass pass,
		       const struct hw_system *s, enum dlsim_precision p)
{
	struct model_pass_cost c;

	if (cal_rnn_pass_cost(kind, h, n, t, pass, dlsim_precision_bytes(p),
			      &c))
		return NAN;
	return sim_kernel_time(s, p, &c);
}

/*
 * DeepBench's recurrent layers (code/nvidia/rnn_bench.cu): one LSTM or GRU
 * of hidden H over T steps, batch N, set up with CUDNN_SKIP_INPUT, so no
 * input GEMM runs and only the recurrence is timed.  dlsim's layer with a
 * 1-wide input, less its input GEMM (cal_rnn_pass_cost), is that
 * recurrence.  Compared: forward
 * plus backward-data (cudnnRNNBackwardData, the bwd column), plus the
 * weight gradient where the sheet times it (bwd_weights), the same
 * passes on both sides.  DeepBench's vanilla RNN is dlsim's MODEL_RNN.
 */
int cal_val_row_rnn(const struct cal_vctx *v, struct cal_vrow *r)
{
	const char *type = cal_val_col(v, "rnn_type");
	int64_t h = cal_val_int(v, "hidden"), n = cal_val_int(v, "N");
	int64_t t = cal_val_int(v, "timesteps");
	double fwd = cal_val_num(v, "fwd_ms"), bwd = cal_val_num(v, "bwd_ms");
	double bww = cal_val_num(v, "bwd_weights_ms");
	enum model_layer_kind kind = strcmp(type, "LSTM") == 0 ? MODEL_LSTM :
				     strcmp(type, "GRU") == 0 ? MODEL_GRU :
				     MODEL_RNN;
	struct hw_system s;
	struct hw_calib cal;
	enum dlsim_precision p;
	int rc;

	snprintf(r->what, sizeof(r->what), "%s %s H%lld N%lld T%lld %s",
		 cal_val_col(v, "hardware"), type, (long long)h, (long long)n,
		 (long long)t, cal_val_col(v, "precision"));
	if ((rc = kernel_system(v, r, &s, &cal, &p)))
		return rc;
	if (strcmp(type, "LSTM") && strcmp(type, "GRU") &&
	    strcmp(type, "Vanilla"))
		return cal_val_skip(r, "not an LSTM, GRU or vanilla RNN");
	if (!(h > 0 && n > 0 && t > 0))
		return cal_val_skip(r, "hidden, N or timesteps missing or not "
				    "positive");
	if (!(isfinite(fwd) && isfinite(bwd)))
		return cal_val_skip(r, "forward or backward not timed");
	if (h > CAL_RNN_MAX || n > CAL_RNN_MAX || t > CAL_RNN_MAX_STEPS)
		return cal_val_skip(r, "hidden, N or timesteps too large");
	r->measured = (fwd + bwd + (isfinite(bww) ? bww : 0.0)) * 1e-3;
	r->predicted = rnn_pass(kind, h, n, t, MODEL_PASS_FWD, &s, p) +
		       rnn_pass(kind, h, n, t, MODEL_PASS_BWD_DATA, &s, p) +
		       (isfinite(bww) ? rnn_pass(kind, h, n, t,
				MODEL_PASS_BWD_WEIGHT, &s, p) : 0.0);
	if (!isfinite(r->predicted))
		return cal_val_skip(r, "the layer does not build");
	return 0;
}
