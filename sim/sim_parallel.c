/*
 * sim_parallel.c -- one training step of a transformer under a hybrid
 * strategy: data (dp), tensor (tp) and pipeline (pp) parallelism, micro-
 * batches, ZeRO/FSDP sharding, activation recomputation and a pipeline
 * schedule.  `dlsim predict --tp/--pp/...` costs one strategy with it;
 * `dlsim plan` (sim_plan.c) costs hundreds of thousands.
 *
 * HOW IT WORKS
 * A strategy is checked, then costed from its (tp, micro-batch) pair's
 * layer costs, which a context keeps (sim_par_cost.c: which layers
 * divide their work by tp, and the time of a stage's blocks as two
 * subtractions of prefix sums).
 *
 * - Tensor parallelism as Megatron-LM (Shoeybi et al. 2019, Sec. 3):
 *   each block does two allreduces of b s h activations in the forward
 *   pass and two in the backward (Shoeybi et al. Fig. 4; with sequence
 *   parallelism a reduce-scatter and an allgather each, the same bytes),
 *   over the tp devices, which sit in one node (tp innermost, on the
 *   fastest links: Narayanan et al. 2021 Sec. 3.2).
 * - Pipeline parallelism: the blocks are cut into pp stages as evenly as
 *   they divide (the first L mod pp stages take one more); the first
 *   stage also runs the embedding, the last the final norm, logits and
 *   loss.  With m micro-batches and t_f, t_b the slowest stage's forward
 *   and backward time of one micro-batch, GPipe and 1F1B take
 *   (m + pp - 1)(t_f + t_b) and the interleaved 1F1B with v chunks per
 *   device (m + (pp - 1)/v)(t_f + t_b) (Narayanan et al. 2021, Sec.
 *   2.2.1-2.2.2: bubble fractions (p-1)/m and (p-1)/(vm)).  Every
 *   micro-batch sends its b s h activations forward and their gradient
 *   back across each stage boundary, v times more often interleaved
 *   (ibid. Sec. 2.2.2), each tp rank its 1/tp share (the scatter/gather
 *   optimization, ibid. Sec. 4.1); those sends sit on the critical
 *   path.
 * - Data parallelism: after the pipeline flushes, each stage's gradients
 *   (its parameters / tp) are reduced over the dp devices holding the
 *   same shard, not overlapped (Megatron-LM 2021 reduces after the
 *   flush).  ZeRO stages 1 and 2 reduce-scatter and allgather the same
 *   bytes as an allreduce; stage 3 moves 1.5 times as much (Rajbhandari
 *   et al. 2020, Sec. 7.2).  Rank order is tp, then dp, then pp
 *   (Megatron's): dp peers are tp apart, so they share a node when tp
 *   dp fits one, and the tp groups of a node share its NICs.
 * - Recomputation (Korthikanti et al. 2022): full recomputes each
 *   block's forward during backward, with its two tp allreduces (six a
 *   block in all: Rajbhandari et al. 2020, Sec. 8); selective recomputes
 *   only the attention core.
 * - The optimizer step runs on each device's parameter shard (divided by
 *   dp under ZeRO), memory-bound as in sim_step.c; with
 *   sim_strategy.update_on_host on the node's host CPUs instead, each
 *   shard's gradients out and weights back over the host link
 *   (ZeRO-Offload, sim_host.c), and the master weights and state leave
 *   the device's memory for the host's.
 * - A software stack whose host takes longer to issue a kernel than the
 *   device's launch overhead (PyTorch eager, a pipeline engine in
 *   Python) sets sim_strategy.dispatch_s, h.  Launches are asynchronous:
 *   the host queues kernel i at about i h while the device runs the
 *   queue, so a sequence of n kernels whose device times sum to G ends
 *   after max(G, n h) + h (the device cannot start before the first
 *   launch and cannot finish before the last; in between whichever of
 *   the two is slower sets the pace, the other's slack absorbed by the
 *   queue).  A sequence is one stage's forward or backward of one
 *   micro-batch: Megatron synchronises the host at each pipeline send
 *   and receive, so the queue drains there.  Small kernels thus become
 *   host-bound only when the whole sequence is, not one by one.
 *
 * MEMORY per device (the worst stage):
 * - weights, gradients and optimizer state at dlsim's mixed-precision
 *   sizes (sim_options.c: 16-bit weights, fp32 master weights, fp32
 *   gradients, Adam 8 B) over the stage's parameters / tp; ZeRO 1
 *   divides the master weights and Adam state by dp, 2 also the
 *   gradients, 3 also the 16-bit weights (Rajbhandari et al. 2020, Sec.
 *   5.1-5.3).
 * - activations of one block and micro-batch, in 16-bit bytes, from
 *   Korthikanti et al. 2022, Table 2: s b h (34 + 5 a s / h) without
 *   tensor parallelism; s b h (10 + 24/t + 5 a s/(h t)) with it;
 *   s b h/t (34 + 5 a s/h) with sequence parallelism; selective
 *   recomputation drops the 5 a s/h term (the attention scores' softmax,
 *   dropout mask and output), and so does a fused attention, which
 *   never stores them (only unfused=1 models keep it); full keeps only
 *   each block's
 *   input, 2 s b h.  Scaled by the activation width over 2.  Micro-
 *   batches in flight: GPipe m; 1F1B min(m, pp) on the first stage; the
 *   interleaved schedule 1 + (pp - 1)/(pp v) times that (ibid. Sec. 4.2).
 *   The last stage adds the fp32 logits, s b V / tp x 4 bytes.
 *
 * LIMITATIONS
 * - Blocks are costed from the model's layers, so GQA and SwiGLU cost
 *   what they do; but the activation formula is Megatron's GPT block.
 * - No overlap of data-parallel reduction with the last micro-batches'
 *   backward, and no overlap of p2p sends with compute.
 * - A stage's blocks run at its slowest stage's pace: no per-stage
 *   imbalance inside the schedule beyond taking the slowest.
 */
#include <math.h>
#include <string.h>

#include "core/core.h"
#include "sim/sim.h"
#include "sim/sim_par.h"
#include "core/banned.h"

/* Blocks [lo, hi) of stage k of pp: the first L mod pp take one more. */
static void stage_span(int64_t L, int64_t pp, int64_t k, int64_t *lo,
		       int64_t *hi)
{
	int64_t base = L / pp, extra = L % pp;

	*lo = k * base + (k < extra ? k : extra);
	*hi = *lo + base + (k < extra ? 1 : 0);
}

static int check(const struct sim_par_ctx *c, const struct sim_strategy *st,
		 struct dlsim_err *err)
{
	int64_t n = c->s->n_devices;

	if (!(st->dispatch_s >= 0.0 && st->dispatch_s < 1.0))
		return dlsim_err_set(err, DLSIM_EINVAL, "the dispatch time per "
				     "launch must be in [0, 1) s");
	if (sim_autocast_check(c->precision, st->autocast, 0, err) ||
	    sim_optimizer_check(c->optimizer, st->optimizer_foreach, err))
		return DLSIM_EINVAL;
	if (st->tp < 1 || st->pp < 1 || st->dp < 1 || st->micro_batch < 1 ||
	    st->chunks < 1 || st->zero < 0 || st->zero > 3)
		return dlsim_err_set(err, DLSIM_EINVAL, "tp, pp, dp, "
				     "micro-batch and chunks must be at least "
				     "1 and zero 0 to 3");
	if (st->tp > n || st->pp > n || st->dp > n ||
	    st->tp * st->pp * st->dp != n)
		return dlsim_err_set(err, DLSIM_EINVAL, "tp %lld x pp %lld x "
				     "dp %lld must equal the %lld devices",
				     (long long)st->tp, (long long)st->pp,
				     (long long)st->dp, (long long)n);
	if (st->chunks != 1 && st->schedule != SIM_SCHED_INTERLEAVED)
		return dlsim_err_set(err, DLSIM_EINVAL, "chunks %lld needs the "
				     "interleaved schedule",
				     (long long)st->chunks);
	/* Korthikanti et al. 2022 split the norms and dropouts over the
	 * tensor-parallel group: with no group there is nothing to split */
	if (st->sequence_parallel && st->tp < 2)
		return dlsim_err_set(err, DLSIM_EINVAL, "sequence parallelism "
				     "splits over the tensor-parallel "
				     "devices: it needs tp 2 or more");
	if (c->m->tf.heads % st->tp)
		return dlsim_err_set(err, DLSIM_EINVAL, "tp %lld does not "
				     "divide the %lld attention heads "
				     "(Megatron splits whole heads)",
				     (long long)st->tp,
				     (long long)c->m->tf.heads);
	if (c->m->tf.kv_heads > 0 && c->m->tf.kv_heads % st->tp)
		return dlsim_err_set(err, DLSIM_EINVAL, "tp %lld does not "
				     "divide the %lld key/value heads",
				     (long long)st->tp,
				     (long long)c->m->tf.kv_heads);
	if (st->update_on_host && st->zero < 1 && st->dp > 1)
		return dlsim_err_set(err, DLSIM_EINVAL, "--update-on host with "
				     "data parallelism is ZeRO-Offload, whose "
				     "host updates each device's shard: it "
				     "needs --zero 1 or more");
	if (st->update_on_host && sim_host_present(c->s, err))
		return DLSIM_EINVAL;
	if (st->pp > c->L)
		return dlsim_err_set(err, DLSIM_EINVAL, "pp %lld is more "
				     "stages than the model's %lld blocks",
				     (long long)st->pp, (long long)c->L);
	if (st->schedule == SIM_SCHED_INTERLEAVED &&
	    (st->chunks < 2 || st->pp < 2 || c->L % (st->pp * st->chunks)))
		return dlsim_err_set(err, DLSIM_EINVAL, "the interleaved "
				     "schedule needs pp > 1 and chunks > 1 "
				     "with pp x chunks dividing the %lld "
				     "blocks", (long long)c->L);
	if (st->global_batch < 1 || st->global_batch > MODEL_MAX_BATCH)
		return dlsim_err_set(err, DLSIM_EINVAL, "global batch %lld "
				     "is outside 1..%lld",
				     (long long)st->global_batch,
				     (long long)MODEL_MAX_BATCH);
	if (st->micro_batch > st->global_batch / st->dp ||
	    st->global_batch % (st->dp * st->micro_batch))
		return dlsim_err_set(err, DLSIM_EINVAL, "global batch %lld "
				     "is not a multiple of dp %lld x "
				     "micro-batch %lld",
				     (long long)st->global_batch,
				     (long long)st->dp,
				     (long long)st->micro_batch);
	if (st->zero == 3 && st->pp > 1)
		return dlsim_err_set(err, DLSIM_EINVAL, "ZeRO stage 3 shards "
				     "the weights over data-parallel ranks; "
				     "it is not combined with pipeline "
				     "parallelism (DeepSpeed refuses it)");
	return DLSIM_OK;
}

/* One block's activation bytes for one micro-batch (Korthikanti et al.
 * 2022, Table 2), at the activation width. */
static double block_activations(const struct sim_par_ctx *c,
				const struct sim_strategy *st)
{
	const struct model_transformer *tf = &c->m->tf;
	double s = (double)tf->seq, b = (double)st->micro_batch;
	double h = (double)tf->hidden, a = (double)tf->heads;
	double t = (double)st->tp, sbh = s * b * h;
	/* the scores' softmax, dropout mask and dropout output, which a
	 * fused attention (FlashAttention) never stores */
	double attn = tf->flags & MODEL_TF_UNFUSED_ATTENTION ?
		      5.0 * a * s / h : 0.0;
	double per;

	if (st->recompute == SIM_RECOMPUTE_FULL)
		per = 2.0 * sbh / (st->sequence_parallel ? t : 1.0);
	else if (st->sequence_parallel)
		per = sbh / t * (34.0 + (st->recompute ==
					SIM_RECOMPUTE_SELECTIVE ? 0.0 : attn));
	else
		per = sbh * (10.0 + 24.0 / t + (st->recompute ==
						SIM_RECOMPUTE_SELECTIVE ? 0.0 :
						attn / t));
	return per * (double)c->sz.act / 2.0;
}

/* Stage k's parameters on one tp rank. */
static double stage_params(const struct sim_par_ctx *c,
			   const struct sim_strategy *st, int64_t k)
{
	int64_t lo, hi;

	stage_span(c->L, st->pp, k, &lo, &hi);
	return (c->block_params[hi] - c->block_params[lo] +
		(k == 0 ? c->pre_params : 0.0) +
		(k == st->pp - 1 ? c->post_params : 0.0)) / (double)st->tp;
}

/*
 * ZeRO-Offload: the parameters whose update the busiest node's host runs,
 * the shards (stage parameters / dp) of the devices it holds.  Ranks go
 * tp, dp, pp (the head comment), so a node holds the first
 * devices-per-node / (tp dp) stages whole, or part of one stage's.
 */
static double node_offload_params(const struct sim_par_ctx *c,
				  const struct sim_strategy *st)
{
	int64_t per_node = c->s->devices_per_node, group = st->tp * st->dp;
	int64_t stages = group < per_node ? per_node / group : 1, k;
	double on_node = (double)(group < per_node ? group : per_node);
	double sum = 0.0;

	for (k = 0; k < stages && k < st->pp; k++)
		sum += stage_params(c, st, k) / (double)st->dp * on_node;
	return sum;
}

static void memory(const struct sim_par_ctx *c, const struct sim_strategy *st,
		   int64_t m_micro, struct sim_par_result *r)
{
	const struct model_transformer *tf = &c->m->tf;
	double t = (double)st->tp, d = (double)st->dp, worst = -1.0;
	double act = block_activations(c, st), inflight, host = 0.0;
	int own = !sim_mixed(&c->sz) || st->autocast;
	int64_t k, lo, hi;

	/* the node's host: its devices' shards of the master weights,
	 * gradients, state and the 16-bit copy it sends back */
	if (st->update_on_host)
		host = node_offload_params(c, st) *
		       (c->sz.master + c->sz.grad +
			(c->optimizer == SIM_OPT_ADAM ||
			 c->optimizer == SIM_OPT_LAMB ? 2.0 :
			 c->optimizer == SIM_OPT_MOMENTUM ? 1.0 : 0.0) *
			c->sz.master + (own ? 0.0 : c->sz.weight));

	if (st->schedule == SIM_SCHED_GPIPE)
		inflight = (double)m_micro;
	else
		inflight = (double)(m_micro < st->pp ? m_micro : st->pp);
	if (st->schedule == SIM_SCHED_INTERLEAVED)
		inflight *= 1.0 + (double)(st->pp - 1) /
			   (double)(st->pp * st->chunks);
	for (k = 0; k < st->pp; k++) {
		struct sim_memory mm;
		double params, w16, master, grad, adam, a, state;

		stage_span(c->L, st->pp, k, &lo, &hi);
		params = stage_params(c, st, k);
		/* the weights the device computes with: the 16-bit copy,
		 * or where there is none (fp32, tf32, fp64; autocast's
		 * fp32 parameters, with their cast cache) the weights
		 * themselves, whole below ZeRO 3; mixed precision adds the
		 * fp32 master, sharded from ZeRO 1 */
		w16 = params * (own ? c->sz.master : c->sz.weight) +
		      (st->autocast ? params * c->sz.weight : 0.0);
		master = own ? 0.0 : params * c->sz.master;
		grad = params * c->sz.grad;
		/* the state at the master width (fp64 keeps it in fp64) */
		state = (c->optimizer == SIM_OPT_ADAM ||
			 c->optimizer == SIM_OPT_LAMB ? 2.0 :
			 c->optimizer == SIM_OPT_MOMENTUM ? 1.0 : 0.0) *
			c->sz.master;
		adam = params * state;
		if (st->zero >= 1) {
			master /= d;
			adam /= d;
		}
		if (st->zero >= 2)
			grad /= d;
		if (st->zero >= 3)
			w16 /= d;
		if (st->update_on_host) {
			/* ZeRO-Offload: the master and the state leave
			 * the device for the host (host_bytes) */
			master = 0.0;
			adam = 0.0;
		}
		a = act * (double)(hi - lo) *
		    (k == 0 ? inflight : (double)(m_micro < st->pp - k ?
						  m_micro : st->pp - k));
		if (st->schedule == SIM_SCHED_GPIPE)
			a = act * (double)(hi - lo) * (double)m_micro;
		if (k == st->pp - 1)
			a += (double)tf->seq * (double)st->micro_batch *
			     (double)tf->vocab / t * 4.0;
		memset(&mm, 0, sizeof(mm));
		mm.weights_bytes = w16 + master;
		mm.gradients_bytes = grad;
		mm.optimizer_bytes = adam;
		mm.activations_bytes = a;
		mm.host_bytes = host;
		mm.total_bytes = w16 + master + grad + adam + a;
		if (mm.total_bytes > worst) {
			worst = mm.total_bytes;
			r->memory = mm;
			r->worst_stage = k;
		}
	}
	r->memory.capacity_bytes = c->s->device->mem_capacity_bytes;
	r->fits = r->memory.total_bytes <= r->memory.capacity_bytes;
	/* ZeRO-Offload's host holds its node's shards or it does not fit */
	if (st->update_on_host) {
		r->memory.host_bytes = host;
		r->memory.host_capacity_bytes = c->s->node->host_memory_bytes;
		r->fits = r->fits && host <= r->memory.host_capacity_bytes;
	}
}

/* A stage boundary's send of b s h / tp: over the intra link when the
 * whole pipeline sits in one node (tp dp pp <= devices per node), else
 * over the NIC shared by every device of the node, since at least one
 * boundary crosses nodes and the slowest sets the pace. */
static double p2p_time(const struct sim_par_ctx *c,
		       const struct sim_strategy *st)
{
	const struct hw_system *s = c->s;
	const struct model_transformer *tf = &c->m->tf;
	/* the scatter/gather optimization sends each tp rank's 1/tp share
	 * (Narayanan et al. 2021, Sec. 4.1); under autocast the residual
	 * stream is fp32 (sim_autocast.c) */
	double bytes = (double)st->micro_batch * (double)tf->seq *
		       (double)tf->hidden *
		       (double)(st->autocast ? 4 : c->sz.act) /
		       (double)st->tp;
	const struct hw_link *l;
	double bw;

	if (st->pp <= 1)
		return 0.0;
	if (st->tp * st->dp * st->pp <= s->devices_per_node && s->intra) {
		l = s->intra;
		bw = l->bandwidth_Bps * (double)(s->node &&
			s->node->intra_links_per_device > 0 ?
			s->node->intra_links_per_device : 1);
	} else if (s->nic) {
		l = s->nic;
		bw = l->bandwidth_Bps * (double)(s->node &&
			s->node->nics_per_node > 0 ? s->node->nics_per_node :
			1) / (double)s->devices_per_node;
	} else {
		return 0.0;
	}
	return l->latency_s + bytes / bw;
}

static double dp_time(const struct sim_par_ctx *c,
		      const struct sim_strategy *st, double params)
{
	const struct hw_system *s = c->s;
	struct hw_system ds;
	struct hw_link dl;
	int64_t g = st->tp < s->devices_per_node ?
		    s->devices_per_node / st->tp : 1;
	double bytes = params * (double)c->sz.grad;

	if (st->dp <= 1)
		return 0.0;
	sim_par_sub_system(s, st->dp, g, st->tp < s->devices_per_node ?
			   st->tp : s->devices_per_node, &dl, &ds);
	return sim_par_collective(&ds, SIM_COLL_ALLREDUCE, bytes) *
	       (st->zero >= 3 ? 1.5 : 1.0);
}

/*
 * Stage k's work for one micro-batch, blocks [lo, hi): each block's two
 * tp allreduces each way (NCCL kernels on the same stream), what
 * recomputation repeats of the blocks' forward, then the embedding on
 * the first stage and the final norm, logits and loss on the last
 * (Megatron checkpoints only the blocks).
 */
static void stage_work(const struct sim_par_costs *pc,
		       const struct sim_strategy *st, int64_t lo, int64_t hi,
		       int64_t k, struct sim_par_span *s)
{
	const struct sim_par_span *a = &pc->blk[lo], *z = &pc->blk[hi];
	double nb = (double)(hi - lo), ar = st->tp > 1 ? 2.0 * nb : 0.0;

	memset(s, 0, sizeof(*s));
	sim_par_span_add(s, z->fwd - a->fwd, z->n_fwd - a->n_fwd,
			 z->bwd - a->bwd, z->n_bwd - a->n_bwd);
	sim_par_span_add(s, ar * pc->tp_ar_s, ar, ar * pc->tp_ar_s, ar);
	if (st->recompute == SIM_RECOMPUTE_FULL)
		sim_par_span_add(s, 0.0, 0.0, s->fwd, s->n_fwd);
	else if (st->recompute == SIM_RECOMPUTE_SELECTIVE)
		sim_par_span_add(s, 0.0, 0.0, z->attn - a->attn,
				 z->n_attn - a->n_attn);
	if (k == 0)
		sim_par_span_add(s, pc->pre.fwd, pc->pre.n_fwd, pc->pre.bwd,
				 pc->pre.n_bwd);
	if (k == st->pp - 1)
		sim_par_span_add(s, pc->post.fwd, pc->post.n_fwd,
				 pc->post.bwd, pc->post.n_bwd);
}

/* A sequence of n kernels taking g on the device, issued by a host that
 * takes h a launch: max(g, n h) + h (the head comment's queue). */
static double host_paced(double g, double n, double h)
{
	if (h <= 0.0)
		return g;
	return (g > n * h ? g : n * h) + h;
}

int sim_par_eval(struct sim_par_ctx *c, const struct sim_strategy *st,
		 struct sim_par_result *r, struct dlsim_err *err)
{
	const struct sim_par_costs *pc;
	double tf_max = 0.0, tb_max = 0.0, params_max = 0.0, tp_s, p2p, v;
	double worst_blocks = 0.0;
	double n_micro, passes, bubble;
	struct sim_sizes opt_sz;
	int64_t k, lo, hi, L;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = check(c, st, err)))
		return rc;
	if (!(pc = sim_par_costs(c, st->tp, st->micro_batch,
				 st->sequence_parallel, st->autocast != 0)))
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	L = c->L;
	r->strategy = *st;
	r->precision = c->precision;
	r->devices = c->s->n_devices;
	r->micro_batches = st->global_batch / (st->dp * st->micro_batch);
	n_micro = (double)r->micro_batches;
	tp_s = st->tp > 1 ? pc->tp_ar_s : 0.0;
	v = st->schedule == SIM_SCHED_INTERLEAVED ? (double)st->chunks : 1.0;
	for (k = 0; k < st->pp; k++) {
		struct sim_par_span s;
		double f, b, nb, params;

		stage_span(L, st->pp, k, &lo, &hi);
		nb = (double)(hi - lo);
		stage_work(pc, st, lo, hi, k, &s);
		/* interleaved: v chunks a micro-batch, each a sequence of
		 * its own between two sends */
		f = v * host_paced(s.fwd / v, s.n_fwd / v, st->dispatch_s);
		b = v * host_paced(s.bwd / v, s.n_bwd / v, st->dispatch_s);
		params = stage_params(c, st, k);
		if (f + b > tf_max + tb_max) {
			tf_max = f;
			tb_max = b;
			worst_blocks = nb;
		}
		if (params > params_max)
			params_max = params;
	}
	p2p = p2p_time(c, st) * 2.0 * v;
	passes = n_micro + (double)(st->pp - 1) / v;
	bubble = (double)(st->pp - 1) / v * (tf_max + tb_max + p2p);
	r->stage_fwd_s = tf_max;
	r->stage_bwd_s = tb_max;
	r->compute_s = n_micro * (tf_max + tb_max);
	r->bubble_s = bubble;
	r->pp_comm_s = n_micro * p2p;
	r->tp_comm_s = n_micro * 4.0 * worst_blocks * tp_s *
		       (st->recompute == SIM_RECOMPUTE_FULL ? 1.5 : 1.0);
	r->dp_comm_s = dp_time(c, st, params_max);
	opt_sz = c->sz;
	if (st->autocast)       /* no 16-bit copy to write */
		opt_sz.weight = opt_sz.master;
	if (st->update_on_host) {
		struct sim_host_update h;

		sim_host_offload_time(c->s, &opt_sz, c->optimizer,
				      st->optimizer_foreach,
				      params_max / (double)st->dp,
				      node_offload_params(c, st), &h);
		r->host_trip_s = h.push_s + h.pull_s;
		r->optimizer_s = h.update_s + r->host_trip_s;
	} else {
		r->optimizer_s = sim_optimizer_time(&c->roof, c->s->device,
						    &opt_sz, c->optimizer,
						    st->optimizer_foreach,
						    st->zero >= 1 ?
						    params_max / (double)st->dp
						    : params_max);
	}
	r->step_time_s = passes * (tf_max + tb_max + p2p) + r->dp_comm_s +
			 r->optimizer_s;
	r->samples_per_s = (double)st->global_batch / r->step_time_s;
	r->tokens_per_s = r->samples_per_s * (double)c->m->tf.seq;
	/* FLOPs: the whole model's per micro-batch (pc holds one tp
	 * shard's), times tp, micro-batches and dp */
	r->model_flops = (pc->flops_fwd + pc->flops_bwd) * (double)st->tp *
			 (double)st->global_batch / (double)st->micro_batch;
	r->hw_flops = r->model_flops + (st->recompute == SIM_RECOMPUTE_FULL ?
		pc->flops_block_fwd : st->recompute == SIM_RECOMPUTE_SELECTIVE ?
		pc->flops_attn : 0.0) * (double)st->tp *
		(double)st->global_batch / (double)st->micro_batch;
	r->tflops_per_device = r->hw_flops / r->step_time_s /
			       (double)r->devices / 1e12;
	memory(c, st, r->micro_batches, r);
	r->tp_in_node = st->tp <= c->s->devices_per_node;
	r->dp_in_node = st->tp * st->dp <= c->s->devices_per_node;
	r->pp_in_node = st->tp * st->dp * st->pp <= c->s->devices_per_node;
	return DLSIM_OK;
}

int sim_parallel_predict(const struct model *m, const struct hw_system *s,
			 enum dlsim_precision p, enum sim_optimizer opt,
			 const struct sim_strategy *st,
			 struct sim_par_result *r, struct dlsim_err *err)
{
	struct sim_par_ctx *c;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = sim_par_ctx_new(m, s, p, opt, &c, err)))
		return rc;
	rc = sim_par_eval(c, st, r, err);
	sim_par_ctx_free(c);
	if (!rc && !(isfinite(r->step_time_s) && r->step_time_s > 0.0)) {
		rc = dlsim_err_set(err, DLSIM_ERANGE, "the step of '%s' on "
				   "'%s' comes out as %g s: a figure of the "
				   "system or of its calibration is out of "
				   "range", m->name, s->spec, r->step_time_s);
		memset(r, 0, sizeof(*r));
	}
	return rc;
}
