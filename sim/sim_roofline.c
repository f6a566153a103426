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
 * pass's kernel class (model_layer.c): GEMMs, convolutions, and 3x3
 * stride-1 convolutions each have an efficiency measured by
 * microbenchmarks at that precision (DeepBench; see each device's
 * eff_source).  Only those classes run on matrix (tensor) units;
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
 *   With a system calibration (struct hw_calib) holding a GEMM curve at
 *   the pass's precision, every matrix pass -- GEMM and convolution alike,
 *   since the fits are of GEMMs and convolutions run as GEMMs -- runs at
 *   flops_max F / (F + flops_half), i.e. takes (F + flops_half) /
 *   flops_max: small passes pay the curve's ramp, the wave quantization
 *   the catalog's scalars miss.  A fitted STREAM plateau replaces the
 *   attainable bandwidth.  Element-wise passes keep the vector peak.
 */
#include <math.h>
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

void sim_roof_init(struct sim_roof *r, const struct hw_device *d,
		   enum dlsim_precision p, const struct hw_calib *cal)
{
	const struct hw_peak *pk = &d->peak[p];
	double clock = d->clock_avx512_hz > 0.0 ? d->clock_avx512_hz :
		       d->clock_boost_hz;

	r->rate[MODEL_KERNEL_VECTOR] = pk->vector_flops;
	r->rate[MODEL_KERNEL_GEMM] = pk->matrix_flops * pk->eff_gemm;
	r->rate[MODEL_KERNEL_CONV] = pk->matrix_flops * pk->eff_conv;
	r->rate[MODEL_KERNEL_CONV3X3] = pk->matrix_flops * pk->eff_conv3x3;
	r->bandwidth_Bps = d->mem[0].bandwidth_Bps * d->eff_memory;
	r->cycle_s = clock > 0.0 ? 1.0 / clock : 0.0;
	r->launch_s = d->launch_overhead_s;
	memset(r->half, 0, sizeof(r->half));
	if (!cal)
		return;
	if (cal->gemm[p].id) {
		r->rate[MODEL_KERNEL_GEMM] = cal->gemm_flops_max[p];
		r->rate[MODEL_KERNEL_CONV] = cal->gemm_flops_max[p];
		r->rate[MODEL_KERNEL_CONV3X3] = cal->gemm_flops_max[p];
		r->half[MODEL_KERNEL_GEMM] = cal->gemm_flops_half[p];
		r->half[MODEL_KERNEL_CONV] = cal->gemm_flops_half[p];
		r->half[MODEL_KERNEL_CONV3X3] = cal->gemm_flops_half[p];
	}
	if (cal->stream.id)
		r->bandwidth_Bps = cal->mem_bw_Bps;
}

double sim_pass_time(const struct sim_roof *r,
		     const struct model_pass_cost *c, enum sim_bound *bound)
{
	double tc, tm, t;

	if (c->flops <= 0.0 && c->bytes <= 0.0) {
		*bound = SIM_BOUND_NONE;
		return 0.0;
	}
	tc = (c->flops > 0.0 ? c->flops + r->half[c->kernel] : 0.0) /
	     r->rate[c->kernel] + c->depth * r->cycle_s;
	tm = c->bytes / r->bandwidth_Bps;
	t = tc > tm ? tc : tm;
	if (r->launch_s > t)
		*bound = SIM_BOUND_LATENCY;
	else
		*bound = tc >= tm ? SIM_BOUND_COMPUTE : SIM_BOUND_MEMORY;
	return t + r->launch_s;
}
