/*
 * sim_memory.c -- the memory one device needs for a training step.
 *
 * MEMORY per device: weights (the 16-bit compute copy and the fp32 master
 * under mixed precision), gradients, optimizer state (momentum 4 B, Adam
 * 8 B per parameter, fp32), activations kept for backward
 * (model_builder_finish says which), and workspace: the largest layer's
 * input and output gradients alive at once, plus, with more than one
 * device, DDP's gradient buckets (a copy of all gradients unless
 * gradient_as_bucket_view is set: PyTorch DistributedDataParallel docs).
 * Capacity is the device's largest memory tier (hw_device's
 * mem_capacity_bytes).
 *
 * UPDATE ON THE HOST
 * With sim_options.update_on_host (sim_host.c) the device holds the
 * compute copy of the weights and their gradients; the host holds the
 * weights it updates (the fp32 master under mixed precision), the
 * gradients' sum and the optimizer state, reported as host bytes.  No
 * DDP buckets: the gradients go to the host, not through an allreduce.
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
 * - Host memory's own capacity is not checked.
 */
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

/* Bytes one parameter takes with its gradient and optimizer state. */
static double param_bytes(const struct sim_options *o,
			  const struct sim_sizes *sz)
{
	static const double state_bytes[] = { 0.0, 4.0, 8.0, 8.0 };

	return sz->weight + (sim_mixed(sz) ? sz->master : 0) + sz->grad +
	       state_bytes[o->optimizer];
}

void sim_memory(const struct model *m, const struct hw_system *s,
		const struct sim_options *o, const struct sim_sizes *sz,
		const unsigned char *on_host, struct sim_result *r)
{
	static const double state_bytes[] = { 0.0, 4.0, 8.0, 8.0 };
	struct sim_memory *mem = &r->memory;
	double params = (double)m->params, batch = (double)r->batch_per_device;
	double widest = 0.0, host = 0.0;
	int i;

	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];
		double e = (double)l->in_elems +
			   (double)l->out.c * (double)l->out.h *
			   (double)l->out.w;
		if (e > widest)
			widest = e;
		if (on_host && on_host[i])
			host += (double)l->params;
	}
	params -= host;
	mem->host_bytes = host * param_bytes(o, sz);
	mem->weights_bytes = params * (sz->weight + (sim_mixed(sz) ?
						     sz->master : 0));
	mem->gradients_bytes = params * sz->grad;
	mem->optimizer_bytes = params * state_bytes[o->optimizer];
	mem->activations_bytes = (double)m->activation_elems * batch * sz->act;
	mem->workspace_bytes = widest * batch * sz->act +
			       (s->n_devices > 1 && !o->update_on_host ?
				params * sz->grad : 0.0);
	if (o->update_on_host) {
		/* the host keeps the weights it updates, the gradients'
		 * sum and the state; the device its compute copy */
		mem->host_bytes += params * ((sim_mixed(sz) ? sz->master :
					      sz->weight) + sz->grad +
					     state_bytes[o->optimizer]);
		mem->weights_bytes = params * sz->weight;
		mem->optimizer_bytes = 0.0;
	}
	mem->total_bytes = mem->weights_bytes + mem->gradients_bytes +
			   mem->optimizer_bytes + mem->activations_bytes +
			   mem->workspace_bytes;
	mem->capacity_bytes = s->device->mem_capacity_bytes;
	r->fits = mem->total_bytes <= mem->capacity_bytes;
}

int sim_place_tables(const struct model *m, const struct hw_system *s,
		     const struct sim_options *o, const struct sim_sizes *sz,
		     const struct sim_result *r, unsigned char *on_host)
{
	struct sim_result t = *r;
	/* a moved table also frees its share of DDP's gradient buckets */
	double over, per = param_bytes(o, sz) +
			   (s->n_devices > 1 ? sz->grad : 0.0);
	int i, moved = 0;

	memset(on_host, 0, (size_t)m->n_layers);
	if (!s->host)
		return 0;
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
