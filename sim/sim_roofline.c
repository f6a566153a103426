/*
 * sim_roofline.c -- the time of one layer pass on one device.
 *
 * MODEL
 *   t = max(W/P + D, bytes / B) + launch
 * The first term is Brent's bound on P processors (Ben-Nun & Hoefler,
 * shared/seeds/002 Sec. 2.5: T_p <= W/p + D), written in seconds: W/P is
 * FLOPs over attainable FLOP/s, D is the pass's depth in clock cycles.
 * The unit of D is one clock because a vertex of the work-depth DAG is
 * one fused multiply-add (or one element-wise operation), which a lane
 * retires per cycle; p is then the device's lanes, peak / (2 x clock).
 * For the layers of today's networks D is a few dozen cycles, so the term
 * matters only for very small passes, where the launch overhead already
 * dominates: it is kept so that depth-bound work (long reductions, the
 * recurrent layers of a later issue) is never costed below its depth.
 * The max with bytes over attainable bandwidth is the roofline (Williams
 * et al., CACM 2009; the kernel-time form of shared/reference/
 * seed-000-004-lim-banerjee.md line 286: max(FLOPs / (eta_c P_peak),
 * bytes / (eta_m B_mem)) + launch overhead).
 *
 * Attainable = peak x efficiency, both from the hardware catalog, for the
 * pass's kernel class (model_kernel.c): GEMMs, convolutions, 3x3
 * stride-1 convolutions, and 1x1 convolutions at stride 1 and strided
 * each have an efficiency measured by microbenchmarks at that precision
 * (DeepBench's compute-bound kernels; see each device's eff_source); a
 * recurrent pass takes the GEMM one.
 * Only those classes run on matrix (tensor) units;
 * element-wise layers use the vector peak and are in practice bound by
 * memory.
 *
 * LIMITATIONS
 * - A pass with less parallel work than the device has lanes still runs
 *   at the attainable rate; occupancy and wave quantization come with the
 *   calibrated curves of the calibration issue.
 * - One efficiency per kernel class and precision, whatever the shape:
 *   small or oddly shaped GEMMs (wave quantization) are too optimistic.
 *   The calibration issue replaces these scalars with fitted curves.
 * - Caches are ignored: every pass streams its tensors from memory.
 *
 * CALIBRATED
 *   With a system calibration (struct hw_calib), a matrix pass whose
 *   class and precision have a fitted kernel roofline takes
 *   fixed + F s_per_flop + Q s_per_byte (cal_fit.c) for its F FLOPs and
 *   Q bytes, instead of the max above.  The fit measured whole kernels,
 *   back to back as a training step issues them, so its fixed term
 *   stands for the launch overhead and the depth term: neither is added.
 *   A class without a fit of its own takes sim_calib_kernel's: a 1x1 or
 *   non-square convolution the convolution roofline (a calibration made
 *   before the classes were split fitted them there), any convolution the GEMM
 *   roofline (convolutions run as GEMMs; so does a GEMM off 16-byte rows
 *   without a "gemm_unaligned" fit of its own), a fused attention on
 *   4-byte values the fp32 GEMM roofline, at TF32 too (dlsim.h,
 *   MODEL_KERNEL_ATTENTION_F32).  A 16-bit convolution off 8 input
 *   channels (model_pass_cost.channel_pad) takes the fit of that
 *   population, "conv_unaligned:<dtype>", at its work with the channels
 *   padded to 8 (as the fit was sized), where the device has one, else
 *   its window's class as any other convolution: nothing else stands
 *   for fallback kernels.  A fitted STREAM plateau replaces the
 *   attainable bandwidth; a fitted bandwidth curve gives an element-wise
 *   pass the rate of the cache level its bytes fit in (a pass reading
 *   what the pass before it wrote finds it in cache when it fits).
 *   Element-wise passes keep the vector peak.
 *
 * DEPENDENT CALLS
 *   A pass that makes k kernel calls one after the other (a recurrent
 *   layer's 2T + 1, an unfused attention's 3-6:
 *   model_pass_cost.launches)
 *   pays k launches, or with a fitted roofline k fixed costs: each waits
 *   for the last, so neither hides behind the others' work.  A recurrent
 *   pass with a fit of its cell's ("rnn_lstm:<dtype>" and so on, or
 *   every cell's, "rnn:<dtype>", measured on such chains)
 *   pays that fit's fixed cost once and its per-call cost k times.  A
 *   pass fused into the kernel before it (model_pass_cost.fused) pays
 *   none.  A pass with a matrix part of its own (model_pass_cost.
 *   gemm_flops: a recurrent layer's input GEMM, a biased convolution's
 *   convolution) is two: that part in its class, one of the pass's
 *   launches, and the rest (the recurrence, the bias) in the pass's.
 */
#include <math.h>
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

/* A fit without the per-call term measured single calls: its fixed
 * cost is each dependent call's.  A recurrent fit's is once a pass, and
 * its per-call term each call's. */
static void roof_take(struct sim_roof *r, enum model_kernel k,
		      const struct hw_calib_kernel *c)
{
	r->fitted[k] = 1;
	r->once_s[k] = c->per_call ? c->fixed_s : 0.0;
	r->call_s[k] = c->per_call ? c->s_per_call : c->fixed_s;
	r->s_per_flop[k] = c->s_per_flop;
	r->s_per_byte[k] = c->s_per_byte;
}

const struct hw_calib_kernel *sim_calib_kernel(const struct hw_calib *cal,
					       enum model_kernel k,
					       enum dlsim_precision p)
{
	if (k <= MODEL_KERNEL_VECTOR || k >= MODEL_KERNEL_COUNT)
		return NULL;
	/* only its own fit: without one, a pass keeps its window's class */
	if (k == MODEL_KERNEL_CONV_UNALIGNED)
		return cal->kernel[k][p].fit.id ? &cal->kernel[k][p] : NULL;
	/* fp32 and fp64 GEMMs run on the ordinary cores, aligned or not
	 * (cal_points.c fits them as one) */
	if (k == MODEL_KERNEL_GEMM_UNALIGNED &&
	    (p == DLSIM_FP32 || p == DLSIM_FP64))
		k = MODEL_KERNEL_GEMM;
	/* fp32 math whatever the TF32 setting: the fp32 GEMM's */
	if (k == MODEL_KERNEL_ATTENTION_F32) {
		if (p == DLSIM_TF32)
			p = DLSIM_FP32;
		k = MODEL_KERNEL_GEMM;
	}
	if (cal->kernel[k][p].fit.id)
		return &cal->kernel[k][p];
	if ((k == MODEL_KERNEL_CONV1X1 || k == MODEL_KERNEL_CONV1X1_STRIDED ||
	     k == MODEL_KERNEL_CONV_NONSQUARE) &&
	    cal->kernel[MODEL_KERNEL_CONV][p].fit.id)
		return &cal->kernel[MODEL_KERNEL_CONV][p];
	/* a cell without a fit of its own: every cell's, where an earlier
	 * version stored one */
	if (model_kernel_is_recurrent(k) &&
	    cal->kernel[MODEL_KERNEL_RECURRENT][p].fit.id)
		return &cal->kernel[MODEL_KERNEL_RECURRENT][p];
	/* convolutions run as GEMMs, a recurrent layer's steps are GEMMs */
	return cal->kernel[MODEL_KERNEL_GEMM][p].fit.id ?
	       &cal->kernel[MODEL_KERNEL_GEMM][p] : NULL;
}

const struct hw_calib_kernel *sim_device_kernel(const struct hw_device *d,
						const struct hw_calib *cal,
						enum model_kernel k,
						enum dlsim_precision p)
{
	if (k == MODEL_KERNEL_CONV_UNALIGNED &&
	    !(d->peak[p].matrix_flops > d->peak[p].vector_flops))
		return NULL;
	return sim_calib_kernel(cal, k, p);
}

void sim_roof_init(struct sim_roof *r, const struct hw_device *d,
		   enum dlsim_precision p, const struct hw_calib *cal)
{
	const struct hw_peak *pk = &d->peak[p];
	double clock = d->clock_avx512_hz > 0.0 ? d->clock_avx512_hz :
		       d->clock_boost_hz;
	int k;

	memset(r, 0, sizeof(*r));
	r->rate[MODEL_KERNEL_VECTOR] = pk->vector_flops;
	r->rate[MODEL_KERNEL_GEMM] = pk->matrix_flops * pk->eff_gemm;
	r->rate[MODEL_KERNEL_CONV] = pk->matrix_flops * pk->eff_conv;
	r->rate[MODEL_KERNEL_CONV3X3] = pk->matrix_flops * pk->eff_conv3x3;
	r->rate[MODEL_KERNEL_CONV1X1] = pk->matrix_flops * pk->eff_conv1x1;
	r->rate[MODEL_KERNEL_CONV1X1_STRIDED] =
		pk->matrix_flops * pk->eff_conv1x1s;
	r->rate[MODEL_KERNEL_RECURRENT] = pk->matrix_flops * pk->eff_gemm;
	r->rate[MODEL_KERNEL_LSTM] = r->rate[MODEL_KERNEL_RECURRENT];
	r->rate[MODEL_KERNEL_GRU] = r->rate[MODEL_KERNEL_RECURRENT];
	r->rate[MODEL_KERNEL_RNN_TANH] = r->rate[MODEL_KERNEL_RECURRENT];
	/* no catalog figure: only a fit tells the fallback kernels apart */
	r->rate[MODEL_KERNEL_GEMM_UNALIGNED] = r->rate[MODEL_KERNEL_GEMM];
	r->rate[MODEL_KERNEL_CONV_NONSQUARE] = r->rate[MODEL_KERNEL_CONV];
	r->rate[MODEL_KERNEL_CONV_UNALIGNED] = r->rate[MODEL_KERNEL_CONV];
	r->rate[MODEL_KERNEL_ATTENTION_F32] = r->rate[MODEL_KERNEL_GEMM];
	/* a device without an fp32 figure keeps the GEMM's */
	if (p == DLSIM_TF32 && d->peak[DLSIM_FP32].matrix_flops *
			       d->peak[DLSIM_FP32].eff_gemm > 0.0)
		r->rate[MODEL_KERNEL_ATTENTION_F32] =
			d->peak[DLSIM_FP32].matrix_flops *
			d->peak[DLSIM_FP32].eff_gemm;
	r->bandwidth_Bps = d->mem[0].bandwidth_Bps * d->eff_memory;
	r->cycle_s = clock > 0.0 ? 1.0 / clock : 0.0;
	r->launch_s = d->launch_overhead_s;
	if (!cal)
		return;
	for (k = MODEL_KERNEL_GEMM; k < MODEL_KERNEL_COUNT; k++) {
		const struct hw_calib_kernel *c =
			sim_device_kernel(d, cal, (enum model_kernel)k, p);

		if (c)
			roof_take(r, (enum model_kernel)k, c);
	}
	if (cal->stream.id)
		r->bandwidth_Bps = cal->mem_bw_Bps;
	r->n_levels = cal->bwcurve.id ? cal->n_levels : 0;
	memcpy(r->level_upto_bytes, cal->level_upto_bytes,
	       sizeof(r->level_upto_bytes));
	memcpy(r->level_Bps, cal->level_Bps, sizeof(r->level_Bps));
}

/* The bandwidth a pass moving bytes attains: its cache level's. */
static double roof_bandwidth(const struct sim_roof *r, double bytes)
{
	int i;

	for (i = 0; i < r->n_levels; i++)
		if (bytes <= r->level_upto_bytes[i] || i == r->n_levels - 1)
			return r->level_Bps[i];
	return r->bandwidth_Bps;
}

/* The kernels a pass calls one after the other (a recurrent layer's
 * steps), at least one. */
static double launches_of(const struct model_pass_cost *c)
{
	return c->launches > 1.0 ? c->launches : 1.0;
}

/* A fitted kernel's pass: once + calls x per call + F / R + Q / B;
 * bound by the largest. */
static double fitted_time(const struct sim_roof *r,
			  const struct model_pass_cost *c,
			  enum sim_bound *bound)
{
	double t0 = r->once_s[c->kernel] +
		    r->call_s[c->kernel] * launches_of(c);
	double tc = c->flops * r->s_per_flop[c->kernel];
	double tm = c->bytes * r->s_per_byte[c->kernel];

	if (t0 > tc && t0 > tm)
		*bound = SIM_BOUND_LATENCY;
	else
		*bound = tc >= tm ? SIM_BOUND_COMPUTE : SIM_BOUND_MEMORY;
	return t0 + tc + tm;
}

/* A pass whose part is one matrix kernel (a recurrent layer's input
 * projection, a biased convolution's convolution: model_pass_cost.
 * gemm_flops): that part in its class, with the pass's channel padding,
 * then the rest in the pass's; bound by the longer. */
static double split_time(const struct sim_roof *r,
			 const struct model_pass_cost *c,
			 enum sim_bound *bound)
{
	struct model_pass_cost rest = *c, gemm;
	enum sim_bound gb;
	double tr, tg;

	memset(&gemm, 0, sizeof(gemm));
	gemm.flops = c->gemm_flops;
	gemm.bytes = c->gemm_bytes;
	gemm.work = c->gemm_flops / 2.0;
	gemm.kernel = c->gemm_kernel;
	gemm.channel_pad = c->channel_pad;   /* a convolution's padding */
	rest.flops -= c->gemm_flops;
	rest.bytes -= c->gemm_bytes;
	rest.work -= gemm.work;
	rest.gemm_flops = rest.gemm_bytes = 0.0;
	rest.channel_pad = 0.0;
	/* the pass's launches count the GEMM's one */
	if (rest.launches > 1.0)
		rest.launches -= 1.0;
	tr = sim_pass_time(r, &rest, bound);
	tg = sim_pass_time(r, &gemm, &gb);
	if (tg > tr)
		*bound = gb;
	return tr + tg;
}

double sim_pass_time(const struct sim_roof *r,
		     const struct model_pass_cost *c, enum sim_bound *bound)
{
	double tc, tm, t, launch;

	if (c->flops <= 0.0 && c->bytes <= 0.0) {
		*bound = SIM_BOUND_NONE;
		return 0.0;
	}
	if (c->gemm_flops > 0.0 && c->gemm_flops < c->flops)
		return split_time(r, c, bound);
	if (c->channel_pad > 0.0 && r->fitted[MODEL_KERNEL_CONV_UNALIGNED]) {
		struct model_pass_cost own = *c;

		own.kernel = MODEL_KERNEL_CONV_UNALIGNED;
		own.flops *= c->channel_pad;
		own.channel_pad = 0.0;
		return sim_pass_time(r, &own, bound);
	}
	if (r->fitted[c->kernel] && c->flops > 0.0)
		return fitted_time(r, c, bound);
	tc = c->flops / r->rate[c->kernel] + c->depth * r->cycle_s;
	tm = c->bytes / roof_bandwidth(r, c->bytes);
	t = tc > tm ? tc : tm;
	launch = c->fused ? 0.0 : r->launch_s * launches_of(c);
	if (launch > t)
		*bound = SIM_BOUND_LATENCY;
	else
		*bound = tc >= tm ? SIM_BOUND_COMPUTE : SIM_BOUND_MEMORY;
	return t + launch;
}

double sim_kernel_time(const struct hw_system *s, enum dlsim_precision p,
		       const struct model_pass_cost *c)
{
	struct sim_roof r;
	enum sim_bound b;

	sim_roof_init(&r, s->device, p, s->calib);
	return sim_pass_time(&r, c, &b);
}
