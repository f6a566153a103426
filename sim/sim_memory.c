/*
 * sim_memory.c -- the memory one device needs for a training step.
 *
 * MEMORY per device: weights (the 16-bit compute copy and the fp32 master
 * under mixed precision), gradients, optimizer state (momentum one word,
 * Adam two per parameter, at the master width: 4 B, 8 B in fp64),
 * activations kept for backward (model_builder_finish says which), and
 * workspace: the largest layer's
 * input and output gradients alive at once, plus, with more than one
 * device, DDP's gradient buckets (a copy of all gradients unless
 * gradient_as_bucket_view is set: PyTorch DistributedDataParallel docs).
 * Capacity is the device's largest memory tier (hw_device's
 * mem_capacity_bytes).
 *
 * UPDATE ON THE HOST
 * With sim_options.update_on_host (sim_host.c) the device holds the
 * weights it pulls (the 16-bit copy; under autocast the fp32 weights
 * and their cast cache) and their gradients; the host holds the weights
 * it updates (the fp32 master under mixed precision), the gradients'
 * sum, the optimizer state and the 16-bit copy it sends, reported as
 * host bytes.  No DDP buckets: the gradients go to the host, not
 * through an allreduce.
 *
 * HOST TABLES
 * An embedding table too large for the device (DLRM's: 24 G parameters)
 * may live in host memory, as DLRM's reference code keeps its tables on
 * the CPU when they do not fit (Naumov et al. 2019, Sec. 4.1): the
 * weights, gradients and optimizer state of a table placed there leave
 * the device's total and are reported as host bytes.  sim_place_tables
 * moves the largest candidate first until the device fits.
 *
 * LIMITATIONS
 * - No allocator fragmentation, no framework context (CUDA context,
 *   cuDNN workspaces beyond the gradient buffers).
 * - Host memory's capacity (the node's host_memory_GiB, where the node
 *   states it) is checked against the update on the host's bytes or one
 *   copy of the tables: a node's devices share the copy in its host
 *   memory, which each updates in place (never reduced).  Nodes keep a
 *   copy each, and nothing here keeps those copies in step.
 */
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

/* What one parameter takes: on the device, its weights (the compute
 * copy and, under mixed precision, the fp32 master), gradient and
 * optimizer state; in host memory, with the update there, the weights
 * the host updates, the gradients' sum, the state and, under mixed
 * precision, the 16-bit copy it sends back.  The state at the master
 * width (fp64 training keeps it in fp64), as sim_optimizer_cost moves
 * it. */
struct param_widths {
	double weights, grad, state, host;
};

static void param_widths(const struct sim_options *o,
			 const struct sim_sizes *sz, struct param_widths *w)
{
	static const double state_words[] = { 0.0, 1.0, 2.0, 2.0 };
	double state = state_words[o->optimizer] * sz->master;

	w->grad = sz->grad;
	if (!o->update_on_host) {
		w->weights = sz->weight + (sim_mixed(sz) ? sz->master : 0);
		w->state = state;
		w->host = 0.0;
		return;
	}
	/* the device keeps the weights it pulls: the 16-bit copy, or under
	 * autocast the fp32 weights and their cast cache */
	w->weights = o->autocast ? sz->master + sz->weight : sz->weight;
	w->state = 0.0;
	w->host = sz->master + sz->grad + state +
		  (sim_mixed(sz) && !o->autocast ? sz->weight : 0);
}

/* What a table in host memory takes there, per parameter: its weights,
 * gradient and state, as on the device (DLRM's tables are updated where
 * they live). */
static double table_bytes(const struct sim_options *o,
			  const struct sim_sizes *sz)
{
	struct sim_options dev = *o;
	struct param_widths w;

	dev.update_on_host = 0;
	param_widths(&dev, sz, &w);
	return w.weights + w.grad + w.state;
}

void sim_memory(const struct model *m, const struct hw_system *s,
		const struct sim_options *o, const struct sim_sizes *sz,
		const unsigned char *on_host, struct sim_result *r)
{
	struct sim_memory *mem = &r->memory;
	struct param_widths w;
	double params = (double)m->params, batch = (double)r->batch_per_device;
	double widest = 0.0, host = 0.0;
	int i, tables = 0;

	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];
		double e = (double)l->in_elems +
			   (double)l->out.c * (double)l->out.h *
			   (double)l->out.w;
		if (e > widest)
			widest = e;
		if (on_host && on_host[i]) {
			host += (double)l->params;
			tables++;
		}
	}
	params -= host;
	param_widths(o, sz, &w);
	mem->host_tables = tables;
	mem->host_bytes = host * table_bytes(o, sz) + params * w.host;
	mem->weights_bytes = params * w.weights;
	mem->gradients_bytes = params * w.grad;
	mem->optimizer_bytes = params * w.state;
	mem->activations_bytes = (double)m->activation_elems * batch * sz->act;
	/* DDP's buckets; the update on the host has none */
	mem->workspace_bytes = widest * batch * sz->act +
			       (s->n_devices > 1 && !o->update_on_host ?
				params * sz->grad : 0.0);
	mem->total_bytes = mem->weights_bytes + mem->gradients_bytes +
			   mem->optimizer_bytes + mem->activations_bytes +
			   mem->workspace_bytes;
	mem->capacity_bytes = s->device->mem_capacity_bytes;
	r->fits = mem->total_bytes <= mem->capacity_bytes;
	/* the host that holds the update or the tables must hold them;
	 * a node that states no host memory is not judged (the update on
	 * the host needs one stated: sim_host_present) */
	if ((o->update_on_host || tables > 0) && s->node &&
	    s->node->host_memory_bytes > 0.0) {
		mem->host_capacity_bytes = s->node->host_memory_bytes;
		r->fits = r->fits &&
			  mem->host_bytes <= mem->host_capacity_bytes;
	}
}

int sim_place_tables(const struct model *m, const struct hw_system *s,
		     const struct sim_options *o, const struct sim_sizes *sz,
		     const struct sim_result *r, unsigned char *on_host)
{
	struct sim_result t = *r;
	struct param_widths w;
	double over, per;
	int i, moved = 0;

	memset(on_host, 0, (size_t)m->n_layers);
	if (!s->host)
		return 0;
	/* what a moved table frees on the device, with its share of DDP's
	 * gradient buckets */
	param_widths(o, sz, &w);
	per = w.weights + w.grad + w.state +
	      (s->n_devices > 1 && !o->update_on_host ? sz->grad : 0.0);
	for (i = 0; i < m->n_layers &&
	     !(m->layers[i].flags & MODEL_LAYER_HOST_CANDIDATE); i++)
		;
	if (i == m->n_layers)
		return 0;       /* nothing could move: skip the memory pass */
	sim_memory(m, s, o, sz, NULL, &t);
	over = t.memory.total_bytes - t.memory.capacity_bytes;
	while (over > 0.0) {
		int best = -1;

		for (i = 0; i < m->n_layers; i++)
			if (!on_host[i] && (m->layers[i].flags &
					    MODEL_LAYER_HOST_CANDIDATE) &&
			    (best < 0 || m->layers[i].params >
			     m->layers[best].params))
				best = i;
		if (best < 0)
			break;
		on_host[best] = 1;
		over -= (double)m->layers[best].params * per;
		moved++;
	}
	return moved;
}
