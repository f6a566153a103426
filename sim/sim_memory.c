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
 * LIMITATIONS
 * - No allocator fragmentation, no framework context (CUDA context,
 *   cuDNN workspaces beyond the gradient buffers).
 */
#include "sim/sim.h"
#include "core/banned.h"

void sim_memory(const struct model *m, const struct hw_system *s,
		const struct sim_options *o, const struct sim_sizes *sz,
		struct sim_result *r)
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
	mem->weights_bytes = params * (sz->weight + (sim_mixed(sz) ?
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
