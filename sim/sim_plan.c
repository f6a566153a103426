/*
 * sim_plan.c -- `dlsim plan`: every strategy for a transformer on a
 * system, costed and ranked.
 *
 * HOW IT WORKS
 * The search is exhaustive over the strategy space of sim_parallel.c:
 *   tp      a divisor of the device count and of the attention heads
 *           (Megatron splits whole heads) that also divides a node's
 *           devices, so that no tp group straddles nodes (tensor
 *           parallelism stays on the fastest links, Narayanan et al. 2021
 *           Sec. 3.2), unless tp_across_nodes;
 *   pp      a divisor of the devices left, at most the model's blocks
 *           (uneven stages allowed: sim_parallel.c cuts them);
 *   dp      the rest, which with the micro-batch must divide the global
 *           batch;
 *   micro-batch  every divisor of global batch / dp (up to
 *           max_micro_batch when set);
 *   sequence parallelism on or off (with tp > 1), recomputation none,
 *   selective or full, ZeRO 0 to 3 (1 to 3 only with dp > 1, 3 only
 *   without pipelining; no 0 with dp > 1 when the update runs on the
 *   host, ZeRO-Offload), and the schedules: 1F1B, GPipe (with pp > 1)
 *   and interleaved 1F1B for every chunk count v >= 2 dividing the
 *   blocks per stage.
 * The loops run tp, micro-batch and sequence parallelism outermost, so
 * each (tp, micro-batch) pair's layers are costed once (the context's
 * cache) and every strategy inside costs O(pp).  Strategies that do not
 * fit in memory are counted, not ranked.  The best K by the objective
 * are kept in order (an insertion into a sorted array of K).
 *
 * SEQUENCES OF MANY LENGTHS (sim_plan_binned): the model is rebuilt at
 * each bin's padded length with a context of its own, every strategy is
 * costed at each bin in the same loops, and the mix of its bins' results
 * (sim_binned.c) is what is kept and ranked; the blocks and heads are
 * the same at every length, so the strategy space is too.
 *
 * OBJECTIVES: time ranks by step time (the global batch is fixed, so by
 * throughput); cost by step time x devices x the device's price (the
 * catalog's price_usd, or 1 when it has none, so device-seconds: the
 * same ranking within one system, and the command refuses to compare
 * systems of different devices unless both are priced); energy by step
 * time x devices x the device's TDP (the command refuses a device
 * without one).
 */
#include <stdlib.h>
#include <string.h>

/* The divisors of a global batch of at most MODEL_MAX_BATCH (10^6): at
 * most 240 (720,720 has 240), so 512 is room to spare. */
#define SIM_PLAN_MAX_DIVISORS 512

#include "core/core.h"
#include "sim/sim.h"
#include "core/banned.h"

void sim_plan_options_init(struct sim_plan_options *o)
{
	memset(o, 0, sizeof(*o));
	o->top_k = 10;
	o->objective = SIM_OBJ_TIME;
}

static const char *const objective_names[] = { "time", "cost", "energy",
					       NULL };

const char *sim_objective_name(enum sim_objective o)
{
	return (unsigned)o < SIM_OBJ_COUNT ? objective_names[o] : NULL;
}

int sim_objective_parse(const char *name, enum sim_objective *out,
			struct dlsim_err *err)
{
	int v = core_name_parse(objective_names, name, "objective", err);

	if (v < 0)
		return err ? err->code : DLSIM_ENOTFOUND;
	*out = (enum sim_objective)v;
	return DLSIM_OK;
}

double sim_plan_score(const struct sim_par_result *r,
		      const struct hw_system *s, enum sim_objective o)
{
	double n = (double)r->devices;

	switch (o) {
	case SIM_OBJ_COST:
		return r->step_time_s * n * (s->device->price_usd > 0.0 ?
					     s->device->price_usd : 1.0);
	case SIM_OBJ_ENERGY:
		return r->step_time_s * n * (s->device->tdp_w > 0.0 ?
					     s->device->tdp_w : 1.0);
	default:
		return r->step_time_s;
	}
}

void sim_plan_release(struct sim_plan_result *r)
{
	if (!r)
		return;
	free(r->top);
	memset(r, 0, sizeof(*r));
}

/* ---------------------------------------------------------------- */
/* The search                                                        */
/* ---------------------------------------------------------------- */

struct search {
	struct sim_par_ctx *const *ctx;  /* one, or one a length bin */
	const struct model_seq_bins *bins;   /* NULL: one ctx, no mix */
	int longest;            /* the bin whose memory a run must hold */
	const struct hw_system *s;
	const struct sim_plan_options *o;
	struct sim_plan_result *out;
	double *score;          /* of out->top[i] */
};

/* st's result: its one context's, or its bins' mix (sim_binned.c). */
static int eval_strategy(struct search *sr, const struct sim_strategy *st,
			 struct sim_par_result *r)
{
	struct sim_par_result b;
	int i;

	if (!sr->bins)
		return sim_par_eval(sr->ctx[0], st, r, NULL);
	for (i = 0; i < sr->bins->n; i++) {
		if (sim_par_eval(sr->ctx[i], st, &b, NULL))
			return -1;
		sim_par_mix_add(r, &b, sr->bins->share[i], i == 0,
				i == sr->longest);
	}
	sim_par_mix_finish(r, sr->bins->mean_length);
	return 0;
}

/* Keep r if it is among the best K so far. */
static void keep(struct search *sr, const struct sim_par_result *r)
{
	struct sim_plan_result *out = sr->out;
	double v = sim_plan_score(r, sr->s, sr->o->objective);
	int i = out->n_top;

	if (i == sr->o->top_k && !(v < sr->score[i - 1]))
		return;
	if (i == sr->o->top_k)
		i--;
	while (i > 0 && v < sr->score[i - 1]) {
		out->top[i] = out->top[i - 1];
		sr->score[i] = sr->score[i - 1];
		i--;
	}
	out->top[i] = *r;
	sr->score[i] = v;
	if (out->n_top < sr->o->top_k)
		out->n_top++;
}

static void evaluate(struct search *sr, const struct sim_strategy *st)
{
	struct sim_par_result r;

	sr->out->n_evaluated++;
	if (eval_strategy(sr, st, &r)) {
		sr->out->n_invalid++;
		return;
	}
	if (!r.fits) {
		sr->out->n_oom++;
		if (!sr->out->have_least_oom ||
		    r.memory.total_bytes < sr->out->least_oom.memory.total_bytes) {
			sr->out->least_oom = r;
			sr->out->have_least_oom = 1;
		}
		return;
	}
	sr->out->n_feasible++;
	keep(sr, &r);
}

/* The schedules and ZeRO stages of one (tp, pp, dp, b, sp, recompute). */
static void schedules(struct search *sr, struct sim_strategy st, int64_t L)
{
	int z, zmax = st.dp > 1 ? (st.pp > 1 ? 2 : 3) : 0;
	int64_t v, per = L / st.pp;

	/* ZeRO-Offload shards what the host updates: no stage 0 */
	for (z = st.update_on_host && st.dp > 1 ? 1 : 0; z <= zmax; z++) {
		st.zero = z;
		st.schedule = SIM_SCHED_1F1B;
		st.chunks = 1;
		evaluate(sr, &st);
		if (st.pp < 2)
			continue;
		st.schedule = SIM_SCHED_GPIPE;
		evaluate(sr, &st);
		st.schedule = SIM_SCHED_INTERLEAVED;
		for (v = 2; L % st.pp == 0 && v <= per; v++)
			if (per % v == 0) {
				st.chunks = v;
				evaluate(sr, &st);
			}
	}
}

static void pipelines(struct search *sr, struct sim_strategy st,
		      int64_t n, int64_t L)
{
	int64_t pp, gb = sr->o->global_batch;
	int rc;

	for (pp = 1; pp <= n / st.tp && pp <= L; pp++) {
		if ((n / st.tp) % pp)
			continue;
		st.pp = pp;
		st.dp = n / (st.tp * pp);
		if (gb % (st.dp * st.micro_batch))
			continue;
		for (rc = 0; rc < SIM_RECOMPUTE_COUNT; rc++) {
			st.recompute = (enum sim_recompute)rc;
			schedules(sr, st, L);
		}
	}
}

/*
 * The search of sim_plan over the contexts sr->ctx already holds (one, or
 * one a bin of sr->bins), for m's blocks and heads: the top K into out.
 */
static int plan_search(struct search *sr, const struct model *m,
		       const struct hw_system *s,
		       const struct sim_plan_options *o,
		       struct sim_plan_result *out, struct dlsim_err *err)
{
	struct sim_strategy st;
	int64_t n = s->n_devices, L = m->tf.blocks, tp, b, d;
	int64_t div[SIM_PLAN_MAX_DIVISORS];
	int sp, k, n_div = 0;

	/* the micro-batches: the global batch's divisors, in order, found in
	 * O(sqrt) */
	for (d = 1; d * d <= o->global_batch; d++)
		if (o->global_batch % d == 0 && n_div < SIM_PLAN_MAX_DIVISORS)
			div[n_div++] = d;
	for (k = n_div - 1; k >= 0; k--) {
		d = o->global_batch / div[k];
		if (d != div[k] && n_div < SIM_PLAN_MAX_DIVISORS)
			div[n_div++] = d;
	}
	out->top = calloc((size_t)o->top_k, sizeof(*out->top));
	sr->score = calloc((size_t)o->top_k, sizeof(double));
	if (!out->top || !sr->score) {
		free(sr->score);
		sim_plan_release(out);
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	}
	out->global_batch = o->global_batch;
	out->update_on_host = o->update_on_host;
	sr->s = s;
	sr->o = o;
	sr->out = out;
	sim_strategy_init(&st);
	st.global_batch = o->global_batch;
	st.dispatch_s = o->dispatch_s;
	st.optimizer_foreach = o->optimizer_foreach;
	st.autocast = o->autocast;
	st.update_on_host = o->update_on_host;
	for (tp = 1; tp <= n; tp++) {
		if (n % tp || m->tf.heads % tp ||
		    (m->tf.kv_heads > 0 && m->tf.kv_heads % tp) ||
		    (!o->tp_across_nodes && s->devices_per_node % tp))
			continue;
		st.tp = tp;
		for (k = 0; k < n_div; k++) {
			b = div[k];
			if (o->max_micro_batch > 0 && b > o->max_micro_batch)
				continue;
			st.micro_batch = b;
			for (sp = 0; sp <= (tp > 1); sp++) {
				st.sequence_parallel = sp;
				pipelines(sr, st, n, L);
			}
		}
	}
	free(sr->score);
	return DLSIM_OK;
}

/* What every strategy would refuse, refused once with its reason. */
static int plan_check(enum dlsim_precision p, enum sim_optimizer opt,
		      const struct sim_plan_options *o, struct dlsim_err *err)
{
	int rc;

	if (o->global_batch < 1 || o->global_batch > MODEL_MAX_BATCH)
		return dlsim_err_set(err, DLSIM_EINVAL, "global batch %lld "
				     "is outside 1..%lld",
				     (long long)o->global_batch,
				     (long long)MODEL_MAX_BATCH);
	if (o->top_k < 1)
		return dlsim_err_set(err, DLSIM_EINVAL, "a plan keeps top K "
				     "of at least 1 (got %d)", o->top_k);
	if ((rc = sim_autocast_check(p, o->autocast, 0, err)))
		return rc;
	return sim_optimizer_check(opt, o->optimizer_foreach, err);
}

/* plan_check, and a host to update on where one is asked for. */
static int plan_check_system(const struct hw_system *s, enum dlsim_precision p,
			     enum sim_optimizer opt,
			     const struct sim_plan_options *o,
			     struct dlsim_err *err)
{
	int rc = plan_check(p, opt, o, err);

	if (!rc && o->update_on_host)
		rc = sim_host_present(s, err);
	return rc;
}

int sim_plan(const struct model *m, const struct hw_system *s,
	     enum dlsim_precision p, enum sim_optimizer opt,
	     const struct sim_plan_options *o, struct sim_plan_result *out,
	     struct dlsim_err *err)
{
	struct search sr;
	struct sim_par_ctx *ctx;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&sr, 0, sizeof(sr));
	if ((rc = plan_check_system(s, p, opt, o, err)) ||
	    (rc = sim_par_ctx_new(m, s, p, opt, &ctx, err)))
		return rc;
	sr.ctx = &ctx;
	rc = plan_search(&sr, m, s, o, out, err);
	sim_par_ctx_free(ctx);
	return rc;
}

int sim_plan_binned(const char *model_arg, const struct model_seq_bins *b,
		    const struct hw_system *s, enum dlsim_precision p,
		    enum sim_optimizer opt, const struct sim_plan_options *o,
		    struct sim_plan_result *out, struct dlsim_err *err)
{
	struct model *m[MODEL_SEQ_MAX_BINS] = { NULL };
	struct sim_par_ctx *ctx[MODEL_SEQ_MAX_BINS] = { NULL };
	struct search sr;
	int i, rc;

	memset(out, 0, sizeof(*out));
	memset(&sr, 0, sizeof(sr));
	if ((rc = sim_seq_bins_check(b, err)) ||
	    (rc = plan_check_system(s, p, opt, o, err)))
		return rc;
	for (i = 0; i < b->n; i++)
		if (b->padded[i] > b->padded[sr.longest])
			sr.longest = i;
	for (i = 0; i < b->n && !rc; i++) {
		if ((rc = model_resolve_seq(model_arg, b->padded[i], &m[i],
					    err)))
			break;
		/* named as given, not as rebuilt for the bin */
		if (m[i]->tf.blocks <= 0 || m[i]->tf.hidden <= 0)
			rc = dlsim_err_set(err, DLSIM_EINVAL, "model '%s' is "
					   "not a transformer: tensor and "
					   "pipeline parallelism need one "
					   "(gpt:, bert:, llama:, t5:)",
					   model_arg);
		else
			rc = sim_par_ctx_new(m[i], s, p, opt, &ctx[i], err);
	}
	sr.ctx = ctx;
	sr.bins = b;
	if (!rc)
		rc = plan_search(&sr, m[sr.longest], s, o, out, err);
	if (!rc) {
		out->bins = b->n;
		out->bin_width = b->width;
		out->longest = b->padded[sr.longest];
		out->mean_length = b->mean_length;
		out->mean_padded = b->mean_padded;
	}
	for (i = 0; i < b->n; i++) {
		sim_par_ctx_free(ctx[i]);
		model_free(m[i]);
	}
	return rc;
}
