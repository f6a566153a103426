/*
 * sim_step.c -- one data-parallel training step: forward, backward with
 * the gradient allreduce overlapped, optimizer update, as a schedule on
 * two streams that also yields the timeline (sim_event) when asked.
 *
 * HOW IT WORKS
 * Two streams, as PyTorch DDP runs them (Li et al., "PyTorch Distributed",
 * VLDB 2020, Sec. 3.2):
 *   compute  forward of every layer in order, then backward in reverse
 *            order (dx and dw per layer), then the optimizer;
 *   comm     gradients are grouped into buckets of --bucket-mb (25 MiB by
 *            default, DDP's bucket_cap_mb) in the order backward produces
 *            them; a bucket's allreduce starts when its last gradient is
 *            ready and the previous allreduce has finished.
 * The optimizer waits for the last allreduce.  Exposed communication is
 * the step time minus the compute stream's busy time.  With --no-overlap
 * the same buckets are reduced one after another once backward ends.
 *
 * Which passes run follows autograd: a layer computes dx only if one of
 * its inputs needs a gradient (so the first convolution computes no dx),
 * and dw only if it has parameters; a layer whose output feeds several
 * others first sums their gradients (one element-wise add per extra
 * consumer, model_grad_accum_cost).
 *
 * PRECISION
 * fp32/tf32/fp64: weights, gradients and activations at 4 (8) bytes.
 * fp16/bf16/fp8: mixed precision as automatic mixed precision runs it
 * (torch.cuda.amp, TensorFlow's AMP graph rewrite; the scheme of
 * Micikevicius et al., "Mixed Precision Training", ICLR 2018, and of
 * Rodriguez, shared/reference/seed-001-rodriguez-part1.md sec. 2.6):
 * fp32 master weights and optimizer state, a 16-bit (fp8: 8-bit) copy of
 * the weights and 16-bit activations for compute, and fp32 gradients on
 * the weights, which is what the data-parallel allreduce moves (16-bit
 * gradient compression is an option of the communication issue, not the
 * default).
 *
 * OPTIMIZER UPDATE
 * One kernel, or torch.optim's foreach kernels: sim_optimizer.c.
 *
 * HOST DISPATCH
 * A software stack whose host takes h = sim_options.dispatch_s to issue
 * one kernel (PyTorch eager, Torch7's Lua modules) queues launches
 * ahead of the device, as in sim_parallel.c's stages, which cost a whole
 * stage-and-micro-batch sequence at once (max(G, n h) + h); here each
 * pass is paced as it comes, so that the gradient buckets see when the
 * backward pass really reaches them: the host issues
 * kernel j of a pass at H + j h (H its clock when the pass begins; it
 * never waits, a training step synchronises only at its end), and the
 * device starts a kernel when both it and the launch are ready.  A pass
 * of k kernels of device time g / k each, the device free at D, then
 * ends at max(D + g, H + h + g, H + k h + g / k): the latest of its
 * kernels' chains is the first's or the last's, since the end is linear
 * in j.  A pass fused into the one before it issues nothing.  So a
 * device ahead of the host waits, and a host ahead of the device costs
 * nothing; small kernels become host-bound only where the host falls
 * behind the whole queue, not one by one.
 *
 * LIMITATIONS
 * - No input pipeline; host time per kernel only as dispatch_s gives it.
 * - The optimizer's and the collectives' launches take no host time.
 * - Per-layer results (--layers) hold device time: a pass's wait for the
 *   host shows in the forward and backward totals only.
 * - A recurrent pass is paced as 2T + 1 kernels of equal time, though
 *   its input GEMM is one large kernel (first in fwd, last in dx): a
 *   host-bound dx ends early by about that GEMM's time less a kernel's
 *   share.  A biased convolution's forward and weight passes are paced
 *   the same way, as two equal kernels (the convolution and its much
 *   shorter bias kernel).
 * - The allreduce's use of memory bandwidth and SMs does not slow the
 *   backward pass it overlaps with.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static int pick_precision(const struct hw_device *d,
			  const struct sim_options *o,
			  enum dlsim_precision *out, struct dlsim_err *err)
{
	enum dlsim_precision p = o->precision_auto ?
				 hw_device_auto_precision(d) : o->precision;
	int rc = sim_training_precision(d, p, err);

	if (!rc)
		*out = p;
	return rc;
}

static int pick_batch(const struct model *m, const struct hw_system *s,
		      const struct sim_options *o, struct sim_result *r,
		      struct dlsim_err *err)
{
	int64_t b = o->batch_per_device;

	if (o->global_batch > 0) {
		if (o->global_batch % s->n_devices)
			return dlsim_err_set(err, DLSIM_EINVAL,
					     "global batch %lld does not "
					     "divide over %lld devices",
					     (long long)o->global_batch,
					     (long long)s->n_devices);
		b = o->global_batch / s->n_devices;
	}
	if (b <= 0)
		b = m->default_batch;
	if (b <= 0 || b > MODEL_MAX_BATCH)
		return dlsim_err_set(err, DLSIM_ERANGE,
				     "batch per device must be in 1..%lld "
				     "(got %lld)", (long long)MODEL_MAX_BATCH,
				     (long long)b);
	r->batch_per_device = b;
	r->global_batch = b * s->n_devices;
	return DLSIM_OK;
}

/* needs[i]: does layer i's output need a gradient (autograd's
 * requires_grad)?  Set when it or anything before it has parameters. */
static void mark_requires_grad(const struct model *m, unsigned char *needs)
{
	int i, j;

	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];

		needs[i] = l->params > 0 || l->tied_to > 0;
		for (j = 0; j < l->n_inputs && !needs[i]; j++)
			needs[i] = needs[l->inputs[j]];
	}
}

static int input_needs_grad(const struct model_layer *l,
			    const unsigned char *needs)
{
	int j;

	for (j = 0; j < l->n_inputs; j++)
		if (needs[l->inputs[j]])
			return 1;
	return 0;
}

/*
 * Everything one prediction carries through the schedule: what the
 * passes cost, where the compute stream is, the comm stream's state, and
 * the optional per-layer and timeline records.
 */
struct step {
	const struct model *m;
	const struct hw_system *sys;
	const struct sim_options *o;
	struct sim_roof roof;
	struct sim_sizes sz;
	int64_t batch;
	const unsigned char *needs;
	const unsigned char *on_host;   /* tables in host memory */
	const unsigned char *fused;     /* SIM_FUSE_* per layer */
	const unsigned char *wide;      /* autocast's fp32 outputs; NULL:
					   no autocast (sim_autocast.c) */
	double host_Bps;                /* the host link's bandwidth */
	struct sim_layer_time *rec;     /* NULL unless layers are wanted */
	struct sim_event *ev;           /* NULL unless a trace is wanted */
	int n_ev, cap_ev, ev_failed;
	double t;                       /* compute stream clock */
	double host;                    /* host clock: launches issued */
	/* the comm stream */
	double bucket;                  /* gradient bytes (fp32) waiting */
	double free_at;                 /* when it is next idle */
	double total;                   /* busy time */
	double compress, decompress;    /* kernels on the compute stream */
	enum sim_collective coll;
	struct dlsim_err *err;          /* the first failure, if any */
	int failed;
	double wire;                    /* bytes put on the network */
	int n_buckets;
	double largest;                 /* largest bucket, whose algorithm */
	enum sim_algo used;             /* is the one reported */
	int hierarchical;
	double tail;                    /* comm after the optimizer: the
					   weights' pull from the host */
	double single;                  /* the step on one device, when
					   it is not the compute time */
	double host_bytes;              /* the host's update's traffic */
	double host_params;             /* in tables in host memory */
};

/* Append a span to the timeline (no-op unless one is wanted). */
static void emit(struct step *st, enum sim_stream stream, int layer,
		 int pass, int bucket, double start, double dur,
		 const struct model_pass_cost *c, enum sim_bound b)
{
	struct sim_event *e;

	if (!st->o->want_trace || st->ev_failed || dur <= 0.0)
		return;
	if (st->n_ev == st->cap_ev) {
		int cap = st->cap_ev ? 2 * st->cap_ev : 256;
		struct sim_event *p = realloc(st->ev, (size_t)cap * sizeof(*p));

		if (!p) {
			st->ev_failed = 1;
			return;
		}
		st->ev = p;
		st->cap_ev = cap;
	}
	e = &st->ev[st->n_ev++];
	e->stream = stream;
	e->layer = layer;
	e->pass = pass;
	e->bucket = bucket;
	e->start_s = start;
	e->dur_s = dur;
	e->flops = c ? c->flops : 0.0;
	e->bytes = c ? c->bytes : 0.0;
	e->bound = b;
}

/*
 * When a pass of device time t starts, with the host's launches queued
 * (HOST DISPATCH above); advances the host clock by the pass's launches.
 * Without a dispatch time, or for a fused pass, when the stream is free.
 */
static double host_paced_start(struct step *st, const struct model_pass_cost *c,
			       double t)
{
	double h = st->o->dispatch_s, k, end, x;

	if (h <= 0.0 || c->fused || t <= 0.0)
		return st->t;
	k = c->launches > 1.0 ? c->launches : 1.0;
	end = st->t + t;
	if ((x = st->host + h + t) > end)
		end = x;
	if ((x = st->host + k * h + t / k) > end)
		end = x;
	st->host += k * h;
	return end - t;
}

/* Run one costed pass on the compute stream: clock, record, timeline. */
static void run_pass(struct step *st, int i, enum model_pass p,
		     const struct model_pass_cost *c)
{
	struct sim_layer_time *rec = st->rec ? &st->rec[i] : NULL;
	enum sim_bound b;
	double t = sim_pass_time(&st->roof, c, &b);
	double start = host_paced_start(st, c, t);

	if (rec) {
		/* += : a dx pass may already hold the gradient sum */
		rec->time_s[p] += t;
		rec->flops[p] += c->flops;
		rec->bytes[p] += c->bytes;
		if (t > 0.0)    /* an empty pass keeps what the sum set */
			rec->bound[p] = b;
	}
	emit(st, SIM_STREAM_COMPUTE, i, (int)p, -1, start, t, c, b);
	st->t = start + t;
}

/* Cost layer i's pass p at activation and weight widths act and weight,
 * and run it. */
static void run_layer(struct step *st, int i, enum model_pass p, int act,
		      int weight)
{
	struct model_pass_cost c;

	model_layer_cost(&st->m->layers[i], p, st->batch, act, weight, &c);
	if (st->fused[i])
		sim_fuse_pass(st->m, st->fused, i, p, st->batch, act, &c);
	/* a table in host memory is read and updated over the host link:
	 * its bytes count at that link's rate, not the device memory's */
	if (st->on_host[i] && st->host_Bps > 0.0)
		c.bytes *= st->roof.bandwidth_Bps / st->host_Bps;
	run_pass(st, i, p, &c);
}

/* Under autocast: the casts layer i's pass p issues, run just before it
 * (so that the layer's own pass sets its bound in the record), then the
 * pass at the widths autocast leaves it (sim_autocast.c).  Kept out of
 * pass(), the hot path of every other prediction. */
static void pass_autocast(struct step *st, int i, enum model_pass p)
{
	struct model_pass_cost c;
	struct sim_casts k;

	sim_autocast_casts(st->m, st->wide, i, p, st->batch, &k);
	if (k.launches > 0.0) {
		sim_autocast_cost(&k, 1.0, 1.0, &c);
		run_pass(st, i, p, &c);
	}
	run_layer(st, i, p, sim_autocast_act(st->wide, i, st->sz.act),
		  sim_autocast_weight(st->wide, &st->m->layers[i],
				      st->sz.weight, st->sz.master));
}

static void pass(struct step *st, int i, enum model_pass p)
{
	if (st->wide)
		pass_autocast(st, i, p);
	else
		run_layer(st, i, p, st->sz.act, st->sz.weight);
}

/*
 * Summing the gradients a layer's output gets from its several consumers
 * (model_grad_accum_cost): autograd does it before the layer's own
 * backward can start.  Counted with the layer's dx pass in the record.
 */
static void accumulate(struct step *st, int i)
{
	struct model_pass_cost c;

	if (st->m->layers[i].n_consumers <= 1)
		return;
	model_grad_accum_cost(&st->m->layers[i], st->batch,
			      sim_autocast_act(st->wide, i, st->sz.act), &c);
	run_pass(st, i, MODEL_PASS_BWD_DATA, &c);
}

/*
 * Send the waiting bucket once it is ready at time `ready`: compress it on
 * the compute stream (sim_compress.c), then reduce it on the comm stream
 * (or gather it, for top-k); its decompression waits for the end of
 * backward, before the optimizer.  An algorithm the user asked for that
 * cannot run this collective fails the prediction.
 */
static void flush(struct step *st, double ready)
{
	struct sim_compress_plan plan;
	struct sim_comm_result cr;
	double start;

	if (st->bucket <= 0.0 || st->sys->n_devices <= 1 || st->failed ||
	    st->o->update_on_host) {
		st->bucket = 0.0;
		return;
	}
	sim_compress_plan(&st->roof, st->o->compression,
			  st->bucket / (double)st->sz.grad, st->sz.grad,
			  st->sys->n_devices, st->o->topk_ratio, &plan);
	if (sim_collective_time(st->sys, plan.coll, plan.wire_bytes,
				st->o->allreduce, &cr, st->err) != DLSIM_OK) {
		st->failed = 1;
		return;
	}
	if (plan.compress_s > 0.0) {
		emit(st, SIM_STREAM_COMPUTE, -1, -1, st->n_buckets, st->t,
		     plan.compress_s, NULL, SIM_BOUND_MEMORY);
		st->t += plan.compress_s;
		ready = st->t;
	}
	st->compress += plan.compress_s;
	st->decompress += plan.decompress_s;
	st->coll = plan.coll;
	if (st->bucket > st->largest) {
		st->largest = st->bucket;
		st->used = cr.algo;
		st->hierarchical = cr.hierarchical;
	}
	start = ready > st->free_at ? ready : st->free_at;
	{
		struct model_pass_cost c = { .bytes = plan.wire_bytes,
					     .kernel = MODEL_KERNEL_VECTOR };

		emit(st, SIM_STREAM_COMM, -1, -1, st->n_buckets, start,
		     cr.time_s, &c, SIM_BOUND_NONE);
	}
	st->free_at = start + cr.time_s;
	st->total += cr.time_s;
	st->wire += plan.wire_bytes;
	st->bucket = 0.0;
	st->n_buckets++;
}

/* Backward in reverse layer order, handing gradients to the buckets. */
static void backward(struct step *st)
{
	int i;

	for (i = st->m->n_layers - 1; i > 0; i--) {
		const struct model_layer *l = &st->m->layers[i];

		if (!st->needs[i])
			continue;
		accumulate(st, i);
		if (input_needs_grad(l, st->needs))
			pass(st, i, MODEL_PASS_BWD_DATA);
		if (l->params > 0 || l->tied_to > 0) {
			/* a tied layer's weight gradient is added into the
			 * table's (its bytes are counted there); a host
			 * table is updated on the host, never reduced */
			pass(st, i, MODEL_PASS_BWD_WEIGHT);
			if (!st->on_host[i])
				st->bucket += (double)l->params * st->sz.grad;
			if (st->o->overlap &&
			    st->bucket >= st->o->bucket_bytes)
				flush(st, st->t);
		}
	}
}

/* No-overlap: the buckets DDP would form, reduced after backward. */
static void reduce_after(struct step *st)
{
	int i;

	st->bucket = 0.0;
	st->free_at = st->t;
	for (i = st->m->n_layers - 1; i > 0; i--) {
		if (st->on_host[i])
			continue;
		st->bucket += (double)st->m->layers[i].params * st->sz.grad;
		if (st->bucket >= st->o->bucket_bytes)
			flush(st, st->t);
	}
	flush(st, st->t);
}

static void step_release(struct step *st, unsigned char *needs,
			 unsigned char *stack_needs)
{
	if (needs != stack_needs)
		free(needs);
	free(st->rec);
	free(st->ev);
}

/* Fill the result from a finished schedule. */
static void finish(struct step *st, double fwd, double bwd_end,
		   double opt, struct sim_result *r)
{
	double compute = bwd_end + st->decompress + opt;

	r->step_time_s = (st->free_at > bwd_end ? st->free_at : bwd_end) +
			 st->decompress + opt + st->tail;
	r->breakdown.forward_s = fwd;
	r->breakdown.backward_s = bwd_end - fwd;
	r->breakdown.optimizer_s = opt;
	r->breakdown.comm_s = st->total;
	r->breakdown.compress_s = st->compress + st->decompress;
	r->breakdown.comm_exposed_s = r->step_time_s - compute;
	/* what the comm stream adds after backward is at most all of it;
	 * as a difference of two long times (at a step of hours its
	 * rounding is microseconds) it can come out above that, or below
	 * nothing, so it is held to [0, total] */
	if (r->breakdown.comm_exposed_s > st->total)
		r->breakdown.comm_exposed_s = st->total;
	if (r->breakdown.comm_exposed_s < 0.0)
		r->breakdown.comm_exposed_s = 0.0;
	r->single_device_step_s = st->single > 0.0 ? st->single : compute;
	r->devices = st->sys->n_devices;
	r->throughput = (double)r->global_batch / r->step_time_s;
	r->throughput_per_device = r->throughput /
				   (double)st->sys->n_devices;
	r->scaling_efficiency = r->single_device_step_s / r->step_time_s;
	r->allreduce_used = st->n_buckets ? st->used : st->o->allreduce;
	r->allreduce_hierarchical = st->hierarchical;
	/* a table in host memory is updated there, never reduced */
	r->gradient_bytes = ((double)st->m->params - st->host_params) *
			    st->sz.grad;
	r->comm_bytes = st->wire;
	r->n_buckets = st->n_buckets;
	r->compression = st->o->compression;
	r->grad_collective = st->coll;
	r->update_on_host = st->o->update_on_host;
}

/*
 * The host's parameter server (sim_host.c) after backward ends at
 * bwd_end: the gradients' push on the comm stream, the host's update as
 * the optimizer, the weights' pull after it (st->tail); the one-device
 * step for the scaling efficiency pays the same trip alone.  Returns the
 * update's time.
 */
static double host_update(struct step *st, const struct sim_sizes *sz,
			  double params, double bwd_end)
{
	struct sim_host_update h, one;
	struct model_pass_cost c = { .kernel = MODEL_KERNEL_VECTOR };

	sim_host_update_time(st->sys, sz, st->o->optimizer,
			     st->o->optimizer_foreach, params,
			     st->sys->n_devices, &h);
	sim_host_update_time(st->sys, sz, st->o->optimizer,
			     st->o->optimizer_foreach, params, 1, &one);
	c.bytes = h.push_bytes;
	emit(st, SIM_STREAM_COMM, -1, MODEL_PASS_BWD_WEIGHT, 0, bwd_end,
	     h.push_s, &c, SIM_BOUND_NONE);
	c.bytes = h.pull_bytes;
	emit(st, SIM_STREAM_COMM, -1, MODEL_PASS_FWD, 1,
	     bwd_end + h.push_s + h.update_s, h.pull_s, &c, SIM_BOUND_NONE);
	st->free_at = bwd_end + h.push_s;
	st->tail = h.pull_s;
	st->total = h.push_s + h.pull_s;
	st->wire = h.push_bytes + h.pull_bytes;
	st->host_bytes = h.host_bytes;
	st->single = bwd_end + st->decompress + one.push_s + one.update_s +
		     one.pull_s;
	return h.update_s;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

static int predict_one(const struct model *m, const struct hw_system *s,
		       const struct sim_options *o, int baseline,
		       struct sim_result *r, struct dlsim_err *err);

/*
 * The scaling efficiency's one-device step where the many-device step's
 * own parts do not give it: compression kernels, which one device does
 * not run (it sends nothing), and tables in host memory, whose uplink
 * one device has to itself.  Elsewhere the compute stream's time is the
 * one-device step (finish), and this second prediction, as `dlsim scale`
 * makes at one device, would cost a prediction's time again.
 */
static int one_device_baseline(const struct model *m,
			       const struct hw_system *s,
			       const struct sim_options *o,
			       struct sim_result *r, struct dlsim_err *err)
{
	struct hw_system one = *s;
	struct sim_options oo = *o;
	struct sim_result r1;
	int rc;

	one.n_devices = 1;
	one.n_nodes = 1;
	oo.compression = SIM_COMPRESS_NONE;
	oo.global_batch = 0;
	oo.batch_per_device = r->batch_per_device;
	oo.want_layers = 0;
	oo.want_trace = 0;
	if ((rc = predict_one(m, &one, &oo, 0, &r1, err)))
		return rc;
	r->single_device_step_s = r1.step_time_s;
	r->scaling_efficiency = r->single_device_step_s / r->step_time_s;
	sim_result_release(&r1);
	return DLSIM_OK;
}

/* One step; baseline 0 leaves out the second prediction
 * one_device_baseline may make (the interval's runs keep the step time
 * alone). */
static int predict_one(const struct model *m, const struct hw_system *s,
		       const struct sim_options *o, int baseline,
		       struct sim_result *r, struct dlsim_err *err)
{
	/* needs[], on_host[], fused[] and wide[], n_layers each, in one
	 * buffer */
	unsigned char stack_needs[2048], *needs = stack_needs, *on_host;
	unsigned char *fused, *wide;
	struct sim_sizes opt_sz;
	struct step st;
	double fwd, bwd_end, opt, host_params = 0.0;
	int i, rc;

	memset(r, 0, sizeof(*r));
	memset(&st, 0, sizeof(st));
	if ((rc = pick_precision(s->device, o, &r->precision, err)) ||
	    (rc = pick_batch(m, s, o, r, err))) {
		memset(r, 0, sizeof(*r));
		return rc;
	}
	if (o->compression == SIM_COMPRESS_TOPK &&
	    !(o->topk_ratio > 0.0 && o->topk_ratio <= 1.0)) {
		memset(r, 0, sizeof(*r));
		return dlsim_err_set(err, DLSIM_EINVAL, "top-k ratio must be "
				     "in (0, 1] (got %g)", o->topk_ratio);
	}
	if (!(o->dispatch_s >= 0.0 && o->dispatch_s < 1.0)) {
		memset(r, 0, sizeof(*r));
		return dlsim_err_set(err, DLSIM_EINVAL, "the dispatch time per "
				     "kernel must be at least 0 and below 1 s "
				     "(got %g s)", o->dispatch_s);
	}
	/* the fusion's refusals first: they name the option given */
	if ((rc = sim_fuse_check(m, s, o, r->precision, err)) ||
	    (rc = sim_host_update_check(s, o, err)) ||
	    (rc = sim_autocast_check(r->precision, o->autocast,
				     o->fuse_elementwise, err)) ||
	    (rc = sim_optimizer_check(o->optimizer, o->optimizer_foreach,
				      err))) {
		memset(r, 0, sizeof(*r));
		return rc;
	}
	if ((4 * m->n_layers > (int)sizeof(stack_needs) &&
	     !(needs = malloc(4 * (size_t)m->n_layers))) ||
	    (o->want_layers &&
	     !(st.rec = calloc((size_t)m->n_layers, sizeof(*st.rec))))) {
		step_release(&st, needs, stack_needs);
		memset(r, 0, sizeof(*r));
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	}
	st.m = m;
	st.sys = s;
	st.o = o;
	st.err = err;
	st.coll = o->compression == SIM_COMPRESS_TOPK ? SIM_COLL_ALLGATHER :
		  SIM_COLL_ALLREDUCE;
	st.batch = r->batch_per_device;
	st.used = o->allreduce;
	sim_sizes_for(r->precision, &st.sz);
	sim_roof_init(&st.roof, s->device, r->precision, s->calib);
	mark_requires_grad(m, needs);
	st.needs = needs;
	on_host = needs + m->n_layers;
	sim_place_tables(m, s, o, &st.sz, r, on_host);
	st.on_host = on_host;
	fused = on_host + m->n_layers;
	sim_fuse_mark(m, o->fuse_elementwise, o->fuse_conv_bn, fused);
	st.fused = fused;
	r->fused_edges = sim_fuse_edges(m, fused);
	r->conv_bn_pairs = sim_fuse_conv_pairs(m, fused);
	r->autocast = o->autocast != 0;
	wide = fused + m->n_layers;
	if (o->autocast) {
		sim_autocast_mark(m, wide);
		st.wide = wide;
	}
	/* autocast keeps no 16-bit copy for the optimizer to write */
	opt_sz = st.sz;
	if (o->autocast)
		opt_sz.weight = opt_sz.master;
	/* devices behind one uplink share it (hw_system_host_sharing) */
	if (s->host) {
		int64_t share = hw_system_host_sharing(s);

		st.host_Bps = s->host->bandwidth_Bps /
			      (double)(s->n_devices < share ? s->n_devices :
				       share);
	}
	for (i = 0; i < m->n_layers; i++)
		host_params += on_host[i] ? (double)m->layers[i].params : 0.0;
	st.host_params = host_params;
	for (i = 1; i < m->n_layers; i++)
		pass(&st, i, MODEL_PASS_FWD);
	fwd = st.t;
	backward(&st);
	/* with the update on the host nothing went into a bucket */
	if (!o->update_on_host && o->overlap)
		flush(&st, st.t);
	else if (!o->update_on_host)
		reduce_after(&st);
	bwd_end = st.t;   /* with any compression kernels */
	opt = o->update_on_host ?
	      host_update(&st, &opt_sz, (double)m->params - host_params,
			  bwd_end) :
	      sim_optimizer_time(&st.roof, s->device, &opt_sz, o->optimizer,
				 o->optimizer_foreach,
				 (double)m->params - host_params);
	st.t = st.free_at > bwd_end ? st.free_at : bwd_end;
	emit(&st, SIM_STREAM_COMPUTE, -1, -1, -2, st.t, st.decompress, NULL,
	     SIM_BOUND_MEMORY);
	st.t += st.decompress;
	{
		struct model_pass_cost c;

		sim_optimizer_cost(&opt_sz, o->optimizer, o->optimizer_foreach,
				   (double)m->params - host_params, &c);
		if (o->update_on_host)
			c.bytes = st.host_bytes;
		emit(&st, o->update_on_host ? SIM_STREAM_HOST :
		     SIM_STREAM_COMPUTE, -1, MODEL_PASS_UPDATE, -1, st.t, opt,
		     &c, SIM_BOUND_MEMORY);
	}
	if (!(bwd_end + opt > 0.0) || st.ev_failed || st.failed) {
		step_release(&st, needs, stack_needs);
		memset(r, 0, sizeof(*r));
		if (st.failed)
			return err ? err->code : DLSIM_EINVAL;
		if (st.ev_failed)
			return dlsim_err_set(err, DLSIM_ENOMEM,
					     "out of memory");
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "model '%s' does no work in a step",
				     m->name);
	}
	finish(&st, fwd, bwd_end, opt, r);
	sim_memory(m, s, o, &st.sz, on_host, r);
	if (needs != stack_needs)
		free(needs);
	if (baseline && s->n_devices > 1 &&
	    (o->compression != SIM_COMPRESS_NONE ||
	     (host_params > 0.0 && hw_system_host_sharing(s) > 1)) &&
	    (rc = one_device_baseline(m, s, o, r, err))) {
		free(st.rec);
		free(st.ev);
		memset(r, 0, sizeof(*r));
		return rc;
	}
	r->layers = st.rec;
	r->n_layers = st.rec ? m->n_layers : 0;
	r->events = st.ev;
	r->n_events = st.n_ev;
	return DLSIM_OK;
}

/*
 * predict_one, and a step that is a finite, positive time.  Every input
 * is bounded where it is read (the catalog's numbers, the fits'
 * roof_in_bounds, the counts), so this only catches what those bounds
 * let through together: never a printed inf or nan.
 */
static int predict_finite(const struct model *m, const struct hw_system *s,
			  const struct sim_options *o, int baseline,
			  struct sim_result *r, struct dlsim_err *err)
{
	int rc = predict_one(m, s, o, baseline, r, err);

	if (rc || (isfinite(r->step_time_s) && r->step_time_s > 0.0))
		return rc;
	rc = dlsim_err_set(err, DLSIM_ERANGE, "the step of '%s' on '%s' "
			   "comes out as %g s: a figure of the system or of "
			   "its calibration is out of range", m->name,
			   s->spec, r->step_time_s);
	sim_result_release(r);
	memset(r, 0, sizeof(*r));
	return rc;
}


/*
 * The interval of a calibrated prediction: the same step at the fits'
 * 95% bounds, every rate moved +-1.96 sigma together (hw_calib_shift),
 * without per-layer results or a timeline.  Moving all of them the same
 * way bounds the step, which is monotone in each rate.  Uncalibrated,
 * there is one run and the bounds are the point.
 */
int sim_predict(const struct model *m, const struct hw_system *s,
		const struct sim_options *o, struct sim_result *r,
		struct dlsim_err *err)
{
	struct hw_system b = *s;
	struct hw_calib cb;
	struct sim_options ob = *o;
	struct sim_result rb;
	int rc, k;

	if ((rc = predict_finite(m, s, o, 1, r, err)))
		return rc;
	r->step_time_s_low = r->step_time_s_high = r->step_time_s;
	if (hw_calib_count(s->calib) == 0)
		return DLSIM_OK;
	sim_list_calib_used(m, s, r);
	/* fits of other precisions, classes or node sizes only: the
	 * datasheet figures made this step, and it has no interval */
	if (r->n_calib_used == 0)
		return DLSIM_OK;
	r->calibrated = 1;
	ob.want_layers = 0;
	ob.want_trace = 0;
	b.calib = &cb;
	for (k = 0; k < 2; k++) {
		hw_calib_shift(s->calib, k ? -1.96 : 1.96, &cb);
		if ((rc = predict_finite(m, &b, &ob, 0, &rb, err))) {
			sim_result_release(r);
			memset(r, 0, sizeof(*r));
			return rc;
		}
		if (k)
			r->step_time_s_high = rb.step_time_s;
		else
			r->step_time_s_low = rb.step_time_s;
		sim_result_release(&rb);
	}
	return DLSIM_OK;
}
