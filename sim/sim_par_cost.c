/*
 * sim_par_cost.c -- the layer costs a hybrid-parallel strategy is costed
 * from (sim_parallel.c), kept in a context (struct sim_par_ctx, sim_par.h)
 * so that the many strategies of `dlsim plan` (sim_plan.c) that share a
 * tensor-parallel degree and micro-batch share one costing of the layers.
 *
 * HOW IT WORKS
 * Layers are costed once per (tp, micro-batch) pair and kept: a context
 * (struct sim_par_ctx) holds, per pair, the forward and backward time of
 * every transformer block and of what lies outside the blocks (the
 * embedding before, the final norm, logits and loss after), with prefix
 * sums over blocks, so that a stage of any span costs two subtractions
 * and a strategy costs O(1) once its pair is cached.
 *
 * - Tensor parallelism as Megatron-LM (Shoeybi et al. 2019, Sec. 3):
 *   the linear layers, the attention heads, the MLP's activation and the
 *   vocabulary-parallel embedding, logits and loss divide their FLOPs
 *   and bytes by tp; norms, residual adds and dropout are replicated
 *   (with sequence parallelism, Korthikanti et al. 2022, they divide by
 *   tp too).
 * - Each layer pass is the roofline's (sim_roofline.c), with autocast's
 *   casts where the strategy asks for it (sim_autocast.c); a pair also
 *   keeps the model's FLOPs per micro-batch on one tp rank, and the time
 *   of one allreduce of b s h activations over its tp devices, which the
 *   strategy counts per block (sim_parallel.c).
 * - The context also holds what does not depend on the pair: the
 *   parameters per block (prefix sums), before and after the blocks, the
 *   precision's sizes and the device's roofline.
 *
 * LIMITATIONS
 * - The cache holds SIM_PAR_CACHE (64) pairs, keyed also by sequence
 *   parallelism and autocast; a full one recycles its oldest, so a
 *   caller that comes back to a pair after 64 others costs it again
 *   (sim_plan.c's loops keep each pair's strategies together).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/sim_par.h"
#include "core/banned.h"

/* Does a layer's work divide over the tp devices? */
static int tp_splits(const struct model_layer *l, int sp)
{
	switch (l->kind) {
	case MODEL_LINEAR:
	case MODEL_ATTENTION:
	case MODEL_EMBEDDING:
	case MODEL_GELU:
	case MODEL_SWIGLU:
	case MODEL_SOFTMAX_XENT:
		return 1;
	default:
		return sp;      /* norms, adds, dropout: replicated */
	}
}

/* One layer pass's device time, with autocast's casts (ac 1); adds its
 * FLOPs to *flops and its kernel launches to *launches.  On a tensor-
 * parallel rank a split layer casts its weights' shard, and its
 * activations' where the sequence is split (sp) or the layer splits its
 * input (the vocabulary-parallel loss's logits); a column-parallel
 * linear casts its whole replicated input. */
static double layer_time(const struct sim_par_ctx *c, int i,
			 enum model_pass p, int64_t b, int64_t tp, int sp,
			 int ac, double *flops, double *launches)
{
	const struct model_layer *l = &c->m->layers[i];
	struct model_pass_cost k;
	enum sim_bound bound;
	int act = c->sz.act, weight = c->sz.weight;
	double t;

	if (ac) {
		act = sim_autocast_act(c->wide, i, act);
		weight = sim_autocast_weight(c->wide, l, weight, c->sz.master);
	}
	model_layer_cost(l, p, b, act, weight, &k);
	if (tp > 1 && tp_splits(l, sp)) {
		k.flops /= (double)tp;
		k.bytes /= (double)tp;
		k.work /= (double)tp;
		k.gemm_flops /= (double)tp;
		k.gemm_bytes /= (double)tp;
	}
	*flops += k.flops;
	t = sim_pass_time(&c->roof, &k, &bound);
	if (t > 0.0)
		*launches += k.launches > 1.0 ? k.launches : 1.0;
	if (ac) {
		double share = tp > 1 && tp_splits(l, sp) ? 1.0 / (double)tp :
			       1.0;

		t += sim_autocast_time(&c->roof, c->m, c->wide, i, p, b,
				       sp || l->kind == MODEL_SOFTMAX_XENT ?
				       share : 1.0, share, launches);
	}
	return t;
}

void sim_par_sub_system(const struct hw_system *s, int64_t n, int64_t g,
			int64_t share, struct hw_link *link,
			struct hw_system *out)
{
	*out = *s;
	if (g > n)
		g = n;
	if (g < 1)
		g = 1;
	out->n_devices = n;
	out->devices_per_node = g;
	out->n_nodes = (n + g - 1) / g;
	if (out->n_nodes > 1 && s->nic && share > 1) {
		*link = *s->nic;
		link->bandwidth_Bps /= (double)share;
		out->nic = link;
	}
	if (out->n_nodes > 1 && !s->nic)
		out->n_nodes = 1;      /* no NIC: resolve never makes this */
}

double sim_par_collective(const struct hw_system *s, enum sim_collective k,
			  double bytes)
{
	struct sim_comm_result r;

	if (s->n_devices <= 1 || bytes <= 0.0)
		return 0.0;
	if (sim_collective_time(s, k, bytes, SIM_ALGO_AUTO, &r, NULL))
		return 0.0;
	return r.time_s;
}

static int costs_fill(struct sim_par_ctx *c, struct sim_par_costs *pc)
{
	const struct model *m = c->m;
	struct hw_system tsys;
	struct hw_link tlink;
	double ff = 0.0, fb = 0.0, fa = 0.0, fblk = 0.0, bsh;
	int i;

	if (!(pc->blk = calloc((size_t)c->L + 1, sizeof(*pc->blk))))
		return -1;
	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];
		double f0 = ff, nf = 0.0, nb = 0.0;
		double tf = layer_time(c, i, MODEL_PASS_FWD, pc->b, pc->tp,
				       pc->sp, pc->autocast, &ff, &nf);
		double tb = layer_time(c, i, MODEL_PASS_BWD_DATA, pc->b,
				       pc->tp, pc->sp, pc->autocast, &fb,
				       &nb) +
			    layer_time(c, i, MODEL_PASS_BWD_WEIGHT, pc->b,
				       pc->tp, pc->sp, pc->autocast, &fb,
				       &nb);

		if (l->block >= 0 && l->block < c->L) {
			struct sim_par_span *s = &pc->blk[l->block + 1];

			sim_par_span_add(s, tf, nf, tb, nb);
			fblk += ff - f0;
			if (l->kind == MODEL_ATTENTION) {
				s->attn += tf;
				s->n_attn += nf;
				fa += ff - f0;
			}
		} else {
			sim_par_span_add(i < c->first_block_layer ?
					 &pc->pre : &pc->post,
					 tf, nf, tb, nb);
		}
	}
	for (i = 1; i <= c->L; i++) {
		struct sim_par_span *s = &pc->blk[i];
		const struct sim_par_span *p = &pc->blk[i - 1];

		sim_par_span_add(s, p->fwd, p->n_fwd, p->bwd, p->n_bwd);
		s->attn += p->attn;
		s->n_attn += p->n_attn;
	}
	pc->flops_fwd = ff;
	pc->flops_bwd = fb;
	pc->flops_attn = fa;
	pc->flops_block_fwd = fblk;
	bsh = (double)pc->b * (double)m->tf.seq * (double)m->tf.hidden *
	      (double)c->sz.act;
	sim_par_sub_system(c->s, pc->tp, c->s->devices_per_node, 1, &tlink,
			   &tsys);
	pc->tp_ar_s = sim_par_collective(&tsys, SIM_COLL_ALLREDUCE, bsh);
	return 0;
}

const struct sim_par_costs *sim_par_costs(struct sim_par_ctx *c, int64_t tp,
				      int64_t b, int sp, int autocast)
{
	struct sim_par_costs *pc;
	int i;

	for (i = 0; i < c->n_cache; i++)
		if (c->cache[i].tp == tp && c->cache[i].b == b &&
		    c->cache[i].sp == sp && c->cache[i].autocast == autocast)
			return &c->cache[i];
	if (c->n_cache == SIM_PAR_CACHE) {
		/* full: recycle the oldest (a plan walks pairs in order) */
		pc = &c->cache[0];
		free(pc->blk);
		memmove(c->cache, c->cache + 1,
			(SIM_PAR_CACHE - 1) * sizeof(c->cache[0]));
		c->n_cache--;
	}
	pc = &c->cache[c->n_cache];
	memset(pc, 0, sizeof(*pc));
	pc->tp = tp;
	pc->b = b;
	pc->sp = sp;
	pc->autocast = autocast;
	if (costs_fill(c, pc)) {
		free(pc->blk);
		return NULL;
	}
	c->n_cache++;
	return pc;
}

int sim_par_ctx_new(const struct model *m, const struct hw_system *s,
		    enum dlsim_precision p, enum sim_optimizer opt,
		    struct sim_par_ctx **out, struct dlsim_err *err)
{
	struct sim_par_ctx *c;
	int i;

	*out = NULL;
	if (m->tf.blocks <= 0 || m->tf.hidden <= 0 || m->tf.seq <= 0)
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s' is not a "
				     "transformer: tensor and pipeline "
				     "parallelism need one (gpt:, bert:, "
				     "llama:, t5:)", m->name);
	if (sim_training_precision(s->device, p, err))
		return DLSIM_EINVAL;
	if (!(c = calloc(1, sizeof(*c))) ||
	    !(c->block_params = calloc((size_t)m->tf.blocks + 1,
				       sizeof(double))) ||
	    !(c->wide = malloc((size_t)m->n_layers))) {
		if (c)
			free(c->block_params);
		free(c);
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	}
	sim_autocast_mark(m, c->wide);
	c->m = m;
	c->s = s;
	c->L = m->tf.blocks;     /* an encoder-decoder pipelines both stacks */
	c->precision = p;
	c->optimizer = opt;
	sim_sizes_for(p, &c->sz);
	sim_roof_init(&c->roof, s->device, p, s->calib);
	for (i = 0; i < m->n_layers && m->layers[i].block < 0; i++)
		;
	c->first_block_layer = i;
	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];

		if (l->block >= 0 && l->block < c->L)
			c->block_params[l->block + 1] += (double)l->params;
		else if (i < c->first_block_layer)
			c->pre_params += (double)l->params;
		else
			c->post_params += (double)l->params;
	}
	for (i = 1; i <= c->L; i++)
		c->block_params[i] += c->block_params[i - 1];
	*out = c;
	return DLSIM_OK;
}

static void cache_clear(struct sim_par_ctx *c)
{
	int i;

	for (i = 0; i < c->n_cache; i++) {
		free(c->cache[i].blk);
	}
	c->n_cache = 0;
}

void sim_par_ctx_free(struct sim_par_ctx *c)
{
	if (!c)
		return;
	cache_clear(c);
	free(c->block_params);
	free(c->wide);
	free(c);
}
