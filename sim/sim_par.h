/*
 * sim_par.h -- what the two halves of the hybrid-parallel model share,
 * private to sim/: the context of layer costs cached per (tp, micro-
 * batch) and the sub-systems collectives run on (sim_par_cost.c), which
 * the strategy's check, memory and timing read (sim_parallel.c).  The
 * API (sim_par_ctx_new, sim_par_eval, sim_par_ctx_free) is dlsim.h's.
 */
#ifndef DLSIM_SIM_SIM_PAR_H
#define DLSIM_SIM_SIM_PAR_H

#include <stdint.h>

#include "sim/sim.h"

#define SIM_PAR_CACHE 64

/* A span of layers' device time and kernel launches, forward and
 * backward, and of the attention core's forward (what selective
 * recomputation repeats). */
struct sim_par_span {
	double fwd, bwd, attn;
	double n_fwd, n_bwd, n_attn;
};

/* One (tp, b, sp) pair's block times: prefix sums over blocks. */
struct sim_par_costs {
	int64_t tp, b;
	int sp;
	int autocast;
	struct sim_par_span *blk;   /* L + 1 prefix sums */
	struct sim_par_span pre, post;
	double tp_ar_s;         /* one allreduce of b s h over tp */
	double flops_fwd, flops_bwd, flops_attn;  /* whole model, per
						     micro-batch, / tp */
	double flops_block_fwd;  /* the blocks' forward (what full
				    recomputation repeats) */
};

struct sim_par_ctx {
	const struct model *m;
	const struct hw_system *s;
	struct sim_sizes sz;
	enum dlsim_precision precision;
	enum sim_optimizer optimizer;
	struct sim_roof roof;
	int64_t L;
	int first_block_layer;  /* layers before it run before the blocks */
	double *block_params;   /* L + 1 prefix sums of each block's params */
	double pre_params, post_params;
	unsigned char *wide;    /* autocast's fp32 outputs, per layer */
	struct sim_par_costs cache[SIM_PAR_CACHE];
	int n_cache;
};

/* s += one layer's forward f (nf launches) and backward b (nb). */
static inline void sim_par_span_add(struct sim_par_span *s, double f, double nf,
				    double b, double nb)
{
	s->fwd += f;
	s->n_fwd += nf;
	s->bwd += b;
	s->n_bwd += nb;
}

/* The costs of pair (tp, b, sp, autocast), from the cache or costed
 * now (a full cache recycles its oldest); NULL when out of memory. */
const struct sim_par_costs *sim_par_costs(struct sim_par_ctx *c, int64_t tp,
				      int64_t b, int sp, int autocast);

/*
 * The sub-system of n devices a collective runs on: g of them per node
 * (g 1: one per node), the node's NIC bandwidth shared by `share` such
 * groups at once.  link holds the copy of the NIC.
 */
void sim_par_sub_system(const struct hw_system *s, int64_t n, int64_t g,
			int64_t share, struct hw_link *link,
			struct hw_system *out);

/* Time of collective k of `bytes` on s (sim_collective_time, the
 * algorithm chosen); 0 on one device, for no bytes, or on an error. */
double sim_par_collective(const struct hw_system *s, enum sim_collective k,
			  double bytes);

#endif
