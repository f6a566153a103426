/*
 * sim_options.c -- what every prediction starts from: the options'
 * defaults, the names of a pass's bound, the bytes a value takes at a
 * precision (activations and weights at the compute width; the fp32
 * master, its gradient and the optimizer state at 4 B, 8 B in fp64),
 * which precisions train, and a result's release.  Kept apart from the
 * step's schedule (sim_step.c), which is the simulator's hot path.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Names and options                                                 */
/* ---------------------------------------------------------------- */

static const char *const bound_names[] = {
	"compute", "memory", "latency", "none", NULL
};

const char *sim_bound_name(enum sim_bound b)
{
	if ((int)b < 0 || b > SIM_BOUND_NONE)
		return NULL;
	return bound_names[b];
}

void sim_options_init(struct sim_options *o)
{
	memset(o, 0, sizeof(*o));
	o->precision_auto = 1;
	o->precision = DLSIM_FP32;
	o->optimizer = SIM_OPT_MOMENTUM;
	o->allreduce = SIM_ALGO_AUTO;
	o->bucket_bytes = 25.0 * 1048576.0;
	o->overlap = 1;
	o->compression = SIM_COMPRESS_NONE;
	o->topk_ratio = 0.01;   /* Aji & Heafield 2017 keep 1% */
}

void sim_result_release(struct sim_result *r)
{
	if (!r)
		return;
	free(r->layers);
	free(r->events);
	r->layers = NULL;
	r->events = NULL;
	r->n_layers = 0;
	r->n_events = 0;
}

/* ---------------------------------------------------------------- */
/* Sizes and precisions                                              */
/* ---------------------------------------------------------------- */

void sim_sizes_for(enum dlsim_precision p, struct sim_sizes *s)
{
	s->act = dlsim_precision_bytes(p);
	s->weight = s->act;
	s->master = p == DLSIM_FP64 ? 8 : 4;
	s->grad = s->master;
}

int sim_training_precision(const struct hw_device *d,
			   enum dlsim_precision p, struct dlsim_err *err)
{
	if (p == DLSIM_INT8)
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "int8 is an inference precision; "
				     "training needs fp64, fp32, tf32, fp16, "
				     "bf16 or fp8");
	if (!hw_device_supports(d, p))
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "device '%s' has no %s peak in the "
				     "catalog", d->name,
				     dlsim_precision_name(p));
	return DLSIM_OK;
}
