/*
 * sim.h -- the simulator's parts as the library sees them: the roofline
 * cost of one layer pass, and the alpha-beta cost of one allreduce on a
 * given set of ranks.  sim_step.c puts them together into a step.
 */
#ifndef DLSIM_SIM_SIM_H
#define DLSIM_SIM_SIM_H

#include "dlsim.h"

/* What the roofline needs of a device at one precision, computed once per
 * prediction so that costing a layer is a handful of multiplies. */
struct sim_roof {
	double rate[MODEL_KERNEL_COUNT];  /* attainable FLOP/s per kernel
					     class (direct-count FLOPs) */
	double bandwidth_Bps;   /* attainable memory bandwidth */
	double cycle_s;         /* one clock: the unit of Brent's depth */
	double launch_s;        /* per kernel */
};

void sim_roof_init(struct sim_roof *r, const struct hw_device *d,
		   enum dlsim_precision p);

/* Time of one pass with cost c; sets *bound. */
double sim_pass_time(const struct sim_roof *r,
		     const struct model_pass_cost *c, enum sim_bound *bound);

/* One level of ranks joined by links: alpha (s) and beta (s/byte). */
struct sim_level {
	int64_t ranks;
	double alpha_s;
	double beta_s_per_byte;
};

/* Flat allreduce of `bytes` over one level with algorithm a (not AUTO). */
double sim_allreduce_flat(const struct sim_level *l, double bytes,
			  enum sim_algo a);

/* Bytes per value of the weights used in compute and of the gradients. */
struct sim_sizes {
	int act, weight, grad, master;
};

/* Mixed precision: the compute copy of the weights is narrower than the
 * master copy. */
static inline int sim_mixed(const struct sim_sizes *s)
{
	return s->weight < s->master;
}

/* Memory per device for result r (sim_memory.c); fills r->memory and
 * r->fits. */
void sim_memory(const struct model *m, const struct hw_system *s,
		const struct sim_options *o, const struct sim_sizes *sz,
		struct sim_result *r);

/*
 * Compression of a bucket of n fp32 gradient values across `ranks`
 * devices (sim_compress.c): returns the (de)compression kernel time and
 * sets the bytes the collective moves (nccl-tests' size) and which
 * collective carries them.
 */
double sim_compress_plan(const struct sim_roof *roof,
			 enum sim_compression c, double n, int64_t ranks,
			 double topk_ratio, double *wire_bytes,
			 enum sim_collective *coll);

#endif /* DLSIM_SIM_SIM_H */
