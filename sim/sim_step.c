/*
 * sim_step.c -- one data-parallel training step: forward, backward with
 * the gradient allreduce overlapped, optimizer update; and the memory a
 * device needs for it.
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
 * OPTIMIZER UPDATE, per parameter (one fused kernel, as apex's
 * FusedSGD/FusedAdam and torch's foreach optimizers run it):
 *   bytes: read gradient, read and write the fp32 master weight, and in
 *          mixed precision write the 16-bit copy; plus state read and
 *          written: momentum 4+4, Adam (m, v) 8+8.
 *   flops: SGD 2 (scale, add), momentum 4, Adam 12 (m: 3, v: 4,
 *          update with sqrt and divide: 4, weight decay: 1).
 *
 * MEMORY per device: weights (+ fp32 master), gradients, optimizer state
 * (momentum 4 B, Adam 8 B per parameter), activations kept for backward
 * (model_builder_finish says which), and workspace: the largest layer's
 * input and output gradients alive at once, plus, with more than one
 * device, DDP's gradient buckets (a copy of all gradients unless
 * gradient_as_bucket_view is set: PyTorch DistributedDataParallel docs).
 *
 * LIMITATIONS
 * - No input pipeline, no host-side framework time beyond the per-kernel
 *   launch overhead, no kernel fusion.
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
/* Names and options                                                 */
/* ---------------------------------------------------------------- */

static const char *const optimizer_names[] = {
	"sgd", "momentum", "adam", NULL
};

static const char *const bound_names[] = {
	"compute", "memory", "latency", "none", NULL
};

const char *sim_optimizer_name(enum sim_optimizer o)
{
	if ((int)o < 0 || o >= SIM_OPTIMIZER_COUNT)
		return NULL;
	return optimizer_names[o];
}

int sim_optimizer_parse(const char *name, enum sim_optimizer *out,
			struct dlsim_err *err)
{
	int i = core_name_parse(optimizer_names, name, "optimizer", err);

	if (i < 0)
		return DLSIM_ENOTFOUND;
	*out = (enum sim_optimizer)i;
	return DLSIM_OK;
}

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
}

void sim_result_release(struct sim_result *r)
{
	if (!r)
		return;
	free(r->layers);
	r->layers = NULL;
	r->n_layers = 0;
}

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/* Bytes per value of the weights used in compute and of the gradients. */
struct sim_sizes {
	int act, weight, grad, master;
};

static void sizes_for(enum dlsim_precision p, struct sim_sizes *s)
{
	s->act = dlsim_precision_bytes(p);
	s->weight = s->act;
	s->master = p == DLSIM_FP64 ? 8 : 4;
	s->grad = s->master;
}

static int mixed(const struct sim_sizes *s)
{
	return s->weight < s->master;
}

static int pick_precision(const struct hw_device *d,
			  const struct sim_options *o,
			  enum dlsim_precision *out, struct dlsim_err *err)
{
	enum dlsim_precision p = o->precision_auto ?
				 hw_device_auto_precision(d) : o->precision;

	if (p == DLSIM_INT8)
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "int8 is an inference precision; "
				     "training needs fp32, tf32, fp16, bf16 "
				     "or fp8");
	if (!hw_device_supports(d, p))
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "device '%s' has no %s peak in the "
				     "catalog", d->name,
				     dlsim_precision_name(p));
	*out = p;
	return DLSIM_OK;
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

		needs[i] = l->params > 0;
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

/* Cost one pass and record it if the caller wants layers. */
static double pass(const struct sim_roof *roof, const struct model_layer *l,
		   enum model_pass p, int64_t batch,
		   const struct sim_sizes *sz, struct sim_layer_time *rec)
{
	struct model_pass_cost c;
	enum sim_bound b;
	double t;

	model_layer_cost(l, p, batch, sz->act, sz->weight, &c);
	t = sim_pass_time(roof, &c, &b);
	if (rec) {
		/* += : a dx pass may already hold the gradient sum */
		rec->time_s[p] += t;
		rec->flops[p] += c.flops;
		rec->bytes[p] += c.bytes;
		rec->bound[p] = b;
	}
	return t;
}

/*
 * Summing the gradients a layer's output gets from its several consumers
 * (model_grad_accum_cost): autograd does it before the layer's own
 * backward can start.  Counted with the layer's dx pass in the record.
 */
static double accumulate(const struct sim_roof *roof,
			 const struct model_layer *l, int64_t batch,
			 const struct sim_sizes *sz, struct sim_layer_time *rec)
{
	struct model_pass_cost c;
	enum sim_bound b;
	double t;

	if (l->n_consumers <= 1)
		return 0.0;
	model_grad_accum_cost(l, batch, sz->act, &c);
	t = sim_pass_time(roof, &c, &b);
	if (rec) {
		rec->time_s[MODEL_PASS_BWD_DATA] += t;
		rec->flops[MODEL_PASS_BWD_DATA] += c.flops;
		rec->bytes[MODEL_PASS_BWD_DATA] += c.bytes;
		rec->bound[MODEL_PASS_BWD_DATA] = b;
	}
	return t;
}

static double optimizer_time(const struct sim_roof *roof,
			     const struct hw_device *d,
			     const struct sim_sizes *sz,
			     enum sim_optimizer opt, double params)
{
	static const double state_bytes[] = { 0.0, 8.0, 16.0 };
	static const double flops[] = { 2.0, 4.0, 12.0 };
	double bytes = sz->grad + 2.0 * sz->master + state_bytes[opt] +
		       (mixed(sz) ? sz->weight : 0.0);
	double rate = d->peak[DLSIM_FP32].vector_flops > 0.0 ?
		      d->peak[DLSIM_FP32].vector_flops :
		      roof->rate[MODEL_KERNEL_VECTOR];
	double tc = params * flops[opt] / rate;
	double tm = params * bytes / roof->bandwidth_Bps;

	if (params <= 0.0)
		return 0.0;
	return (tc > tm ? tc : tm) + roof->launch_s;
}

static void memory_for(const struct model *m, const struct hw_system *s,
		       const struct sim_options *o,
		       const struct sim_sizes *sz, struct sim_result *r)
{
	static const double state_bytes[] = { 0.0, 4.0, 8.0 };
	struct sim_memory *mem = &r->memory;
	double params = (double)m->params, batch = (double)r->batch_per_device;
	double widest = 0.0;
	int i;

	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];
		double e = (double)l->in_elems +
			   (double)l->out.c * (double)l->out.h *
			   (double)l->out.w;
		if (e > widest)
			widest = e;
	}
	mem->weights_bytes = params * (sz->weight + (mixed(sz) ?
						     sz->master : 0));
	mem->gradients_bytes = params * sz->grad;
	mem->optimizer_bytes = params * state_bytes[o->optimizer];
	mem->activations_bytes = (double)m->activation_elems * batch * sz->act;
	mem->workspace_bytes = widest * batch * sz->act +
			       (s->n_devices > 1 ? params * sz->grad : 0.0);
	mem->total_bytes = mem->weights_bytes + mem->gradients_bytes +
			   mem->optimizer_bytes + mem->activations_bytes +
			   mem->workspace_bytes;
	mem->capacity_bytes = s->device->mem_capacity_bytes;
	r->fits = mem->total_bytes <= mem->capacity_bytes;
}

/* State of the comm stream while backward produces gradients. */
struct comm_state {
	const struct hw_system *sys;
	const struct sim_options *o;
	double bucket;      /* bytes waiting */
	double free_at;     /* when the comm stream is next idle */
	double total;       /* sum of allreduce times */
	int n_buckets;
	double largest;     /* the largest bucket so far, whose choice of */
	enum sim_algo used;      /* algorithm is reported */
	int hierarchical;
};

static void flush(struct comm_state *c, double ready)
{
	enum sim_algo used;
	int hier;
	double t;

	if (c->bucket <= 0.0 || c->sys->n_devices <= 1) {
		c->bucket = 0.0;
		return;
	}
	t = sim_allreduce_time(c->sys, c->bucket, c->o->allreduce, &used,
			       &hier);
	if (c->bucket > c->largest) {
		c->largest = c->bucket;
		c->used = used;
		c->hierarchical = hier;
	}
	if (ready > c->free_at)
		c->free_at = ready;
	c->free_at += t;
	c->total += t;
	c->bucket = 0.0;
	c->n_buckets++;
}

/* Backward in reverse layer order; returns when compute finishes. */
static double backward(const struct model *m, const struct sim_roof *roof,
		       const struct sim_sizes *sz, int64_t batch,
		       const unsigned char *needs, double t,
		       struct comm_state *c, struct sim_layer_time *rec)
{
	int i;

	for (i = m->n_layers - 1; i > 0; i--) {
		const struct model_layer *l = &m->layers[i];
		struct sim_layer_time *lr = rec ? &rec[i] : NULL;

		if (!needs[i])
			continue;
		t += accumulate(roof, l, batch, sz, lr);
		if (input_needs_grad(l, needs))
			t += pass(roof, l, MODEL_PASS_BWD_DATA, batch, sz, lr);
		if (l->params > 0) {
			t += pass(roof, l, MODEL_PASS_BWD_WEIGHT, batch, sz,
				  lr);
			c->bucket += (double)l->params * sz->grad;
			if (c->o->overlap && c->bucket >= c->o->bucket_bytes)
				flush(c, t);
		}
	}
	return t;
}

/* No-overlap: the buckets DDP would form, reduced after backward. */
static void reduce_after(const struct model *m, const struct sim_sizes *sz,
			 double t, struct comm_state *c)
{
	int i;

	c->bucket = 0.0;
	c->free_at = t;
	for (i = m->n_layers - 1; i > 0; i--) {
		c->bucket += (double)m->layers[i].params * sz->grad;
		if (c->bucket >= c->o->bucket_bytes)
			flush(c, t);
	}
	flush(c, t);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int sim_predict(const struct model *m, const struct hw_system *s,
		const struct sim_options *o, struct sim_result *r,
		struct dlsim_err *err)
{
	struct comm_state comm = { s, o, 0.0, 0.0, 0.0, 0, 0.0, o->allreduce,
				   0 };
	unsigned char stack_needs[512], *needs = stack_needs;
	struct sim_layer_time *rec = NULL;
	struct sim_sizes sz;
	struct sim_roof roof;
	double t = 0.0, compute;
	int i, rc;

	memset(r, 0, sizeof(*r));
	if ((rc = pick_precision(s->device, o, &r->precision, err)) ||
	    (rc = pick_batch(m, s, o, r, err))) {
		memset(r, 0, sizeof(*r));
		return rc;
	}
	if (m->n_layers > (int)sizeof(stack_needs) &&
	    !(needs = malloc((size_t)m->n_layers)))
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	if (o->want_layers &&
	    !(rec = calloc((size_t)m->n_layers, sizeof(*rec)))) {
		if (needs != stack_needs)
			free(needs);
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	}
	sizes_for(r->precision, &sz);
	sim_roof_init(&roof, s->device, r->precision);
	mark_requires_grad(m, needs);
	for (i = 1; i < m->n_layers; i++)
		t += pass(&roof, &m->layers[i], MODEL_PASS_FWD,
			  r->batch_per_device, &sz, rec ? &rec[i] : NULL);
	r->breakdown.forward_s = t;
	t = backward(m, &roof, &sz, r->batch_per_device, needs, t, &comm,
		     rec);
	r->breakdown.backward_s = t - r->breakdown.forward_s;
	if (o->overlap)
		flush(&comm, t);
	else
		reduce_after(m, &sz, t, &comm);
	r->breakdown.optimizer_s = optimizer_time(&roof, s->device, &sz,
						  o->optimizer,
						  (double)m->params);
	compute = t + r->breakdown.optimizer_s;
	r->step_time_s = (comm.free_at > t ? comm.free_at : t) +
			 r->breakdown.optimizer_s;
	if (!(r->step_time_s > 0.0)) {
		if (needs != stack_needs)
			free(needs);
		free(rec);
		memset(r, 0, sizeof(*r));
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "model '%s' does no work in a step",
				     m->name);
	}
	r->breakdown.comm_s = comm.total;
	r->breakdown.comm_exposed_s = r->step_time_s - compute;
	r->single_device_step_s = compute;
	r->devices = s->n_devices;
	r->throughput = (double)r->global_batch / r->step_time_s;
	r->throughput_per_device = r->throughput / (double)s->n_devices;
	r->scaling_efficiency = compute / r->step_time_s;
	r->allreduce_used = comm.used;
	r->allreduce_hierarchical = comm.hierarchical;
	r->gradient_bytes = (double)m->params * sz.grad;
	r->n_buckets = comm.n_buckets;
	memory_for(m, s, o, &sz, r);
	if (needs != stack_needs)
		free(needs);
	r->layers = rec;
	r->n_layers = rec ? m->n_layers : 0;
	return DLSIM_OK;
}
