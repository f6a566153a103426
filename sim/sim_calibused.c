/*
 * sim_calibused.c -- the fits a calibrated prediction used
 * (sim_result.calib_used), so that a prediction names the measurements
 * behind it: for every kernel class the model's passes run, the fit
 * sim_device_kernel gives that class (the one sim_roof_init takes), then
 * the STREAM plateau, the bandwidth curve and the links' fits where the
 * system has them.
 *
 * A class is named only when some pass runs it, so a model of 3x3
 * convolutions alone names no GEMM fit; a convolution off 8 channels
 * names its own population's fit where there is one, else its window's
 * (sim_roofline.c times it the same way).
 */
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

_Static_assert(MODEL_KERNEL_COUNT <= 32, "kernels_used has a bit a class");

/* The kernel classes m's passes run at batch b and act bytes a value,
 * bit k for class k (a GEMM's class depends on both: model_gemm_
 * unaligned).  Every training pass counts: a recurrent layer's forward
 * is recurrent, its input GEMM (model_pass_cost.gemm_kernel) a GEMM,
 * its weight gradient a GEMM; a biased convolution's matrix part is its
 * gemm_kernel, its bias the vector rest.  A convolution off 8 channels
 * (model_pass_cost.channel_pad) sets MODEL_KERNEL_CONV_UNALIGNED's bit
 * and its window's in *off, which sim_list_calib_used reads when that
 * class has no fit. */
static unsigned kernels_used(const struct model *m, int64_t b, int act,
			     unsigned *off)
{
	static const enum model_pass passes[] = {
		MODEL_PASS_FWD, MODEL_PASS_BWD_DATA, MODEL_PASS_BWD_WEIGHT
	};
	struct model_pass_cost c;
	unsigned used = 0;
	int i, j;

	for (i = 0; i < m->n_layers; i++) {
		for (j = 0; j < 3; j++) {
			int split;
			enum model_kernel mat;

			model_layer_cost(&m->layers[i], passes[j],
					 b > 0 ? b : 1, act, act, &c);
			split = c.gemm_flops > 0.0 && c.gemm_flops < c.flops;
			mat = split ? c.gemm_kernel : c.kernel;
			if (!(c.flops > 0.0))
				continue;
			if (split)
				used |= 1u << c.kernel;
			if (c.channel_pad > 0.0) {
				used |= 1u << MODEL_KERNEL_CONV_UNALIGNED;
				*off |= 1u << mat;
			} else {
				used |= 1u << mat;
			}
		}
	}
	return used;
}

static void use_fit(struct sim_result *r, const struct hw_calib_fit *f)
{
	int i;

	for (i = 0; i < r->n_calib_used; i++)
		if (r->calib_used[i].id == f->id)
			return;
	if (r->n_calib_used < SIM_CALIB_USED)
		r->calib_used[r->n_calib_used++] = *f;
}

/* The fits a calibrated prediction used, as sim_roof_init takes them:
 * for each matrix class m runs, the one sim_device_kernel names. */
void sim_list_calib_used(const struct model *m, const struct hw_system *s,
			 struct sim_result *r)
{
	const struct hw_calib *c = s->calib;
	struct sim_sizes sz;
	unsigned used, off = 0;
	int k;

	sim_sizes_for(r->precision, &sz);
	used = kernels_used(m, r->batch_per_device, sz.act, &off);
	if ((used & (1u << MODEL_KERNEL_CONV_UNALIGNED)) &&
	    !sim_device_kernel(s->device, c, MODEL_KERNEL_CONV_UNALIGNED,
			       r->precision))
		used |= off;

	for (k = MODEL_KERNEL_GEMM; k < MODEL_KERNEL_COUNT; k++) {
		const struct hw_calib_kernel *f =
			sim_device_kernel(s->device, c, (enum model_kernel)k,
					  r->precision);

		if (f && (used & (1u << k)))
			use_fit(r, &f->fit);
	}
	if (c->stream.id)
		use_fit(r, &c->stream);
	if (c->bwcurve.id)
		use_fit(r, &c->bwcurve);
	if (c->intra.fit.id && s->devices_per_node > 1)
		use_fit(r, &c->intra.fit);
	if (c->inter.fit.id && s->n_nodes > 1)
		use_fit(r, &c->inter.fit);
}
