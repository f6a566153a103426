/*
 * sim_binned.c -- a step over sequences of many lengths: each bin of a
 * histogram (model_seqhist.c) costed at its padded length, and the bins
 * mixed in their shares.
 *
 * HOW
 * A loader that batches sequences of one bin together (NVIDIA's LDDL)
 * draws bin i's batch as often as bin i holds sequences, so over an
 * epoch the mean step is the shares' mean of the bins' steps, sum_i
 * share_i t_i, and a step still carries the global batch: samples/s is
 * that batch over the mean step, and the tokens it trains are the
 * histogram's mean length a sample (padding trains nothing).  Each bin's
 * step is a whole prediction of the model rebuilt at that length
 * (model_resolve_seq): the data-parallel step of sim_predict, or the
 * strategy's of sim_parallel_predict.  Memory is the longest bin's, which
 * a run must hold.  A plan over lengths (sim_plan_binned) ranks each
 * strategy by the same mix of its bins' results (sim_par_mix_add), so
 * that the strategy it picks is the best for the mix, not for one
 * length: a micro-batch that runs out of memory only at 512 tokens, or
 * a pipeline whose bubble only short sequences expose, counts as often
 * as its bin is drawn.  A sweep (dlsim scale) takes the data-parallel
 * mix as one whole result (sim_binned_result).
 *
 * LIMITATIONS
 * - Every bin's batch holds the same number of sequences, as LDDL's and
 *   BERT's do; fairseq's --max-tokens batches, which hold more of the
 *   short ones, are a fixed token count instead (one length, the mean).
 * - Pipeline stages see one bin at a time: a step's micro-batches do not
 *   mix lengths.
 */
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

/* What one bin's prediction gives the mix. */
struct bin_out {
	double step_s, memory_bytes, capacity_bytes;
	int64_t global_batch;
	int fits;
	int fused_edges, conv_bn_pairs;   /* the data-parallel step's */
};

/* Predict model_arg at seq tokens: the strategy's step with st, else the
 * data-parallel step of o. */
static int bin_step(const char *arg, int64_t seq, const struct hw_system *s,
		    const struct sim_options *o, const struct sim_strategy *st,
		    struct bin_out *b, struct dlsim_err *err)
{
	struct model *m = NULL;
	int rc;

	memset(b, 0, sizeof(*b));    /* a strategy's step has no fusion */
	if ((rc = model_resolve_seq(arg, seq, &m, err)))
		return rc;
	if (st) {
		struct sim_par_result r;

		rc = sim_parallel_predict(m, s, o->precision, o->optimizer, st,
					  &r, err);
		if (!rc) {
			b->step_s = r.step_time_s;
			b->memory_bytes = r.memory.total_bytes;
			b->capacity_bytes = r.memory.capacity_bytes;
			b->global_batch = r.strategy.global_batch;
			b->fits = r.fits;
		}
	} else {
		struct sim_result r;

		rc = sim_predict(m, s, o, &r, err);
		if (!rc) {
			b->step_s = r.step_time_s;
			b->memory_bytes = r.memory.total_bytes;
			b->capacity_bytes = r.memory.capacity_bytes;
			b->global_batch = r.global_batch;
			b->fits = r.fits;
			b->fused_edges = r.fused_edges;
			b->conv_bn_pairs = r.conv_bn_pairs;
		}
		sim_result_release(&r);
	}
	model_free(m);
	return rc;
}

int sim_seq_bins_check(const struct model_seq_bins *b,
		       struct dlsim_err *err)
{
	int i;

	if (b->n < 1 || b->n > MODEL_SEQ_MAX_BINS)
		return dlsim_err_set(err, DLSIM_EINVAL, "sequence bins: %d "
				     "bins (1 to %d)", b->n,
				     MODEL_SEQ_MAX_BINS);
	for (i = 0; i < b->n; i++)
		if (!(b->padded[i] >= 1 &&
		      b->padded[i] <= MODEL_SEQ_MAX_LENGTH &&
		      b->share[i] >= 0.0 && b->share[i] <= 1.0))
			return dlsim_err_set(err, DLSIM_EINVAL, "sequence "
					     "bins: bin %d has %lld tokens "
					     "and a share of %g", i + 1,
					     (long long)b->padded[i],
					     b->share[i]);
	if (!(b->mean_padded > 0.0 && b->mean_length > 0.0))
		return dlsim_err_set(err, DLSIM_EINVAL, "sequence bins: a mean "
				     "length of %g tokens, padded %g",
				     b->mean_length, b->mean_padded);
	return DLSIM_OK;
}

/*
 * A strategy's result over the bins, as sim_plan_binned ranks it: the
 * times and the FLOPs of a step are the shares' means (a step is one
 * bin's, drawn as often as its share), the memory and the fit the
 * longest bin's (a run must hold it), the rates of the mean step, and
 * the tokens those a sample really has (padding trains nothing).
 */
void sim_par_mix_add(struct sim_par_result *acc,
		     const struct sim_par_result *bin, double share, int first,
		     int longest)
{
	if (first) {
		*acc = *bin;
		acc->step_time_s = acc->stage_fwd_s = acc->stage_bwd_s = 0.0;
		acc->compute_s = acc->bubble_s = acc->tp_comm_s = 0.0;
		acc->pp_comm_s = acc->dp_comm_s = acc->optimizer_s = 0.0;
		acc->host_trip_s = 0.0;
		acc->model_flops = acc->hw_flops = 0.0;
	}
	acc->step_time_s += share * bin->step_time_s;
	acc->stage_fwd_s += share * bin->stage_fwd_s;
	acc->stage_bwd_s += share * bin->stage_bwd_s;
	acc->compute_s += share * bin->compute_s;
	acc->bubble_s += share * bin->bubble_s;
	acc->tp_comm_s += share * bin->tp_comm_s;
	acc->pp_comm_s += share * bin->pp_comm_s;
	acc->dp_comm_s += share * bin->dp_comm_s;
	acc->optimizer_s += share * bin->optimizer_s;
	acc->host_trip_s += share * bin->host_trip_s;
	acc->model_flops += share * bin->model_flops;
	acc->hw_flops += share * bin->hw_flops;
	if (longest) {
		acc->memory = bin->memory;
		acc->worst_stage = bin->worst_stage;
		acc->fits = bin->fits;
	}
}

/* The mix's rates, of its mean step: samples of the global batch,
 * tokens a sample has unpadded (mean_length), FLOPs a device. */
void sim_par_mix_finish(struct sim_par_result *acc, double mean_length)
{
	acc->samples_per_s = (double)acc->strategy.global_batch /
			     acc->step_time_s;
	acc->tokens_per_s = acc->samples_per_s * mean_length;
	acc->tflops_per_device = acc->hw_flops / acc->step_time_s /
				 (double)acc->devices / 1e12;
}

int sim_binned_predict(const char *model_arg, const struct hw_system *s,
		       const struct sim_options *o,
		       const struct sim_strategy *st,
		       const struct model_seq_bins *b, struct sim_binned *out,
		       struct dlsim_err *err)
{
	struct bin_out bo;
	double mean = 0.0;
	int64_t longest = 0;
	int i, rc;

	memset(out, 0, sizeof(*out));
	if ((rc = sim_seq_bins_check(b, err)))
		return rc;
	for (i = 0; i < b->n; i++)
		if (b->padded[i] > longest)
			longest = b->padded[i];
	for (i = 0; i < b->n; i++) {
		if ((rc = bin_step(model_arg, b->padded[i], s, o, st, &bo,
				   err))) {
			memset(out, 0, sizeof(*out));
			return rc;
		}
		out->padded[i] = b->padded[i];
		out->share[i] = b->share[i];
		out->bin_step_time_s[i] = bo.step_s;
		mean += b->share[i] * bo.step_s;
		if (b->padded[i] == longest) {
			out->memory_bytes = bo.memory_bytes;
			out->capacity_bytes = bo.capacity_bytes;
			out->fits = bo.fits;
		}
		out->global_batch = bo.global_batch;
	}
	if (st) {
		out->has_strategy = 1;
		out->strategy = *st;
	}
	out->update_on_host = st ? st->update_on_host : o->update_on_host;
	/* the fusion is the model's shape's, the same at every length */
	out->fused_edges = bo.fused_edges;
	out->conv_bn_pairs = bo.conv_bn_pairs;
	out->n = b->n;
	out->width = b->width;
	out->sequences = b->sequences;
	out->step_time_s = mean;
	out->samples_per_s = (double)out->global_batch / mean;
	out->tokens_per_s = out->samples_per_s * b->mean_length;
	out->mean_length = b->mean_length;
	out->mean_padded = b->mean_padded;
	out->padding = 1.0 - b->mean_length / b->mean_padded;
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* A data-parallel step over the bins as one result (dlsim scale)    */
/* ---------------------------------------------------------------- */

/* The fits of bin's result joined to *acc's, each once (bins of
 * different lengths can use different ones: a GEMM off 16-byte rows at
 * one length and not at another). */
static void join_fits(struct sim_result *acc, const struct sim_result *bin)
{
	int i, j;

	acc->calibrated |= bin->calibrated;
	for (i = 0; i < bin->n_calib_used; i++) {
		for (j = 0; j < acc->n_calib_used; j++)
			if (acc->calib_used[j].id == bin->calib_used[i].id)
				break;
		if (j == acc->n_calib_used && j < SIM_CALIB_USED)
			acc->calib_used[acc->n_calib_used++] =
				bin->calib_used[i];
	}
}

/* Add bin's result to *acc at share: the times (the step's, its bounds,
 * the one-device step's and the breakdown's) and the bytes reduced and
 * moved summed in the shares (a learned position table grows with the
 * length); the memory, fit and gradient buckets the longest bin's; the
 * fits every bin's; the rest the first bin's, with no layer table or
 * timeline (sim_binned_result asks for none). */
static void mix_result(struct sim_result *acc, const struct sim_result *bin,
		       double share, int first, int longest)
{
	struct sim_breakdown *a = &acc->breakdown;
	const struct sim_breakdown *b = &bin->breakdown;

	if (first) {
		*acc = *bin;
		acc->layers = NULL;
		acc->events = NULL;
		acc->n_layers = acc->n_events = 0;
		acc->step_time_s = acc->step_time_s_low = 0.0;
		acc->step_time_s_high = acc->single_device_step_s = 0.0;
		acc->comm_bytes = acc->gradient_bytes = 0.0;
		memset(a, 0, sizeof(*a));
	} else {
		join_fits(acc, bin);
	}
	acc->step_time_s += share * bin->step_time_s;
	acc->step_time_s_low += share * bin->step_time_s_low;
	acc->step_time_s_high += share * bin->step_time_s_high;
	acc->single_device_step_s += share * bin->single_device_step_s;
	acc->comm_bytes += share * bin->comm_bytes;
	acc->gradient_bytes += share * bin->gradient_bytes;
	a->forward_s += share * b->forward_s;
	a->backward_s += share * b->backward_s;
	a->optimizer_s += share * b->optimizer_s;
	a->comm_s += share * b->comm_s;
	a->comm_exposed_s += share * b->comm_exposed_s;
	a->compress_s += share * b->compress_s;
	if (longest) {
		acc->memory = bin->memory;
		acc->fits = bin->fits;
		acc->n_buckets = bin->n_buckets;
		acc->allreduce_used = bin->allreduce_used;
		acc->allreduce_hierarchical = bin->allreduce_hierarchical;
	}
}

int sim_binned_result(const char *model_arg, const struct hw_system *s,
		       const struct sim_options *o,
		       const struct model_seq_bins *b, struct sim_result *out,
		       struct dlsim_err *err)
{
	struct sim_options one = *o;
	struct sim_result r;
	struct model *m;
	int i, longest = 0, rc;

	memset(out, 0, sizeof(*out));
	if ((rc = sim_seq_bins_check(b, err)))
		return rc;
	/* a mix has no one layer table or timeline */
	one.want_layers = one.want_trace = 0;
	for (i = 1; i < b->n; i++)
		if (b->padded[i] > b->padded[longest])
			longest = i;
	for (i = 0; i < b->n; i++) {
		m = NULL;
		if ((rc = model_resolve_seq(model_arg, b->padded[i], &m,
					    err)) ||
		    (rc = sim_predict(m, s, &one, &r, err))) {
			model_free(m);
			memset(out, 0, sizeof(*out));
			return rc;
		}
		model_free(m);
		mix_result(out, &r, b->share[i], i == 0, i == longest);
		sim_result_release(&r);
	}
	out->throughput = (double)out->global_batch / out->step_time_s;
	out->throughput_per_device = out->throughput / (double)out->devices;
	out->scaling_efficiency = out->single_device_step_s /
				  out->step_time_s;
	return DLSIM_OK;
}
