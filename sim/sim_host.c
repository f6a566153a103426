/*
 * sim_host.c -- the weights and the optimizer in the host's memory: a
 * parameter server on the host CPUs.
 *
 * HOW IT WORKS
 * TensorFlow 1.x's tf_cnn_benchmarks runs its parameter_server mode with
 * --local_parameter_device=cpu: the variables live in host memory, every
 * GPU reads them at the start of a step and sends its gradients back, and
 * the host sums the GPUs' gradients and applies the optimizer (tensorflow
 * benchmarks scripts/tf_cnn_benchmarks/variable_mgr.py,
 * VariableMgrLocalFetchFromPS; the configuration of its published DGX-1
 * and K80 runs, tensorflow/docs site/en/r1/guide/performance/
 * benchmarks.md).  A step then has, after backward, three phases that no
 * pass overlaps, as sim_options.update_on_host costs them:
 *   push    each device's gradients to the host over its host link;
 *   update  the host reads the devices' gradients, writes their sum, and
 *           runs the optimizer over the weights, all of it element-wise
 *           and so bound by the host's memory bandwidth (the roofline's
 *           memory side: the CPUs' sockets x their DDR bandwidth x the
 *           STREAM efficiency the catalog gives them);
 *   pull    the new weights back to each device.
 * Devices behind one host link (two GPUs on a PCIe switch's uplink:
 * hw_system_host_sharing) share its bandwidth; each direction pays the
 * link's latency once.  The sizes are the device step's: the gradients
 * at their width, the weights at their compute width (fp32 under
 * autocast), the optimizer's traffic as sim_optimizer_cost counts it,
 * one kernel or torch.optim's foreach kernels as asked.
 *
 * ZERO-OFFLOAD
 * Under a hybrid-parallel strategy (sim_parallel.c) the same three
 * phases are ZeRO-Offload's (Ren et al., "ZeRO-Offload: Democratizing
 * Billion-Scale Model Training", USENIX ATC 2021, Sec. 4): built on
 * ZeRO's partitioning, each device sends only its shard of the
 * gradients, which the data-parallel reduce-scatter has already summed,
 * the host runs the optimizer on every local device's shard (the fp32
 * master weights and the state live there), and each device reads its
 * shard's weights back for the allgather (sim_host_offload_time; the
 * busiest node's shards, sim_parallel.c).  The gradients travel at
 * dlsim's gradient width (fp32, as the data-parallel reduction moves
 * them), where the paper's fp16 gradients move half.  The
 * paper's CPU-Adam is vectorised and bound by memory, as costed here;
 * its one-step delayed update, which hides the host's time behind the
 * next step, is not modelled, nor the gradients' trip overlapping
 * backward.
 *
 * LIMITATIONS
 * - Nothing overlaps: TensorFlow could start a layer's weights' copy
 *   early, or send gradients as backward makes them; the step waits for
 *   the whole trip instead.  (On one P100 the published ResNet-50 and
 *   Inception v3 steps exceed the device's by a constant of 19-24 ms at
 *   batch 32 and 64, which an overlapped trip would shrink as the batch
 *   grows.)
 * - Data parallel alone: one node; parameter servers across nodes
 *   (TensorFlow's distributed_replicated) are not this.  Under a
 *   strategy (ZeRO-Offload) each node's host serves its own devices.
 * - The host's update runs at its memory bandwidth with every core
 *   working; the DMA traffic of the push and pull also lands in host
 *   memory but during the link's time, which is longer.
 * - The host's memory must hold what the update puts there (the node's
 *   host_memory_GiB; a prediction that exceeds it does not fit), but
 *   nothing else the host runs (the framework, the input pipeline).
 * - The host CPUs take the catalog's figures, not a calibration, and
 *   their first memory tier (DDR; no CPU of the catalog has another).
 * - The binned and scale reports say nothing of it beyond the step:
 *   predict's table and JSON do.
 */
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

int sim_host_present(const struct hw_system *s, struct dlsim_err *err)
{
	const char *node = s->node ? s->node->name : s->device->name;

	if (!s->host)
		return dlsim_err_set(err, DLSIM_EINVAL, "--update-on host: "
				     "node '%s' states no host link "
				     "(host_link)", node);
	if (!s->host_cpu)
		return dlsim_err_set(err, DLSIM_EINVAL, "--update-on host: "
				     "node '%s' states no host CPU (host_cpu)",
				     node);
	return DLSIM_OK;
}

int sim_host_update_check(const struct hw_system *s,
			  const struct sim_options *o, struct dlsim_err *err)
{
	int rc;

	if (!o->update_on_host)
		return DLSIM_OK;
	if ((rc = sim_host_present(s, err)))
		return rc;
	if (s->n_nodes > 1)
		return dlsim_err_set(err, DLSIM_EINVAL, "--update-on host "
				     "runs within one node: %lld devices span "
				     "%lld nodes (with a strategy and --zero "
				     "1 or more it is ZeRO-Offload, on any "
				     "number)", (long long)s->n_devices,
				     (long long)s->n_nodes);
	if (o->allreduce != SIM_ALGO_AUTO)
		return dlsim_err_set(err, DLSIM_EINVAL, "--update-on host "
				     "sends the gradients to the host, not "
				     "through an allreduce: drop --allreduce");
	if (o->compression != SIM_COMPRESS_NONE)
		return dlsim_err_set(err, DLSIM_EINVAL, "--update-on host "
				     "sends the gradients whole: drop "
				     "--compression");
	if (!o->overlap)
		return dlsim_err_set(err, DLSIM_EINVAL, "--update-on host "
				     "overlaps nothing already: drop "
				     "--no-overlap");
	return DLSIM_OK;
}

/* Bytes per second of the host's memory: every socket's. */
static double host_memory_Bps(const struct hw_system *s)
{
	const struct hw_device *cpu = s->host_cpu;

	return (double)s->node->host_cpus * cpu->mem[0].bandwidth_Bps *
	       cpu->eff_memory;
}

/* The trip of `params` parameters a device, `on_link` devices of the
 * node's sharing each link, and the host's update of host_bytes. */
static void phases(const struct hw_system *s, const struct sim_sizes *sz,
		   double params, int64_t on_link, double host_bytes,
		   struct sim_host_update *out)
{
	int64_t per_link = hw_system_host_sharing(s);
	double share = (double)(on_link < per_link ? on_link : per_link);
	double link_Bps = s->host->bandwidth_Bps / share;

	memset(out, 0, sizeof(*out));
	out->push_bytes = params * sz->grad;
	out->pull_bytes = params * sz->weight;
	out->host_bytes = host_bytes;
	out->push_s = s->host->latency_s + out->push_bytes / link_Bps;
	out->update_s = host_bytes / host_memory_Bps(s);
	out->pull_s = s->host->latency_s + out->pull_bytes / link_Bps;
}

void sim_host_update_time(const struct hw_system *s,
			  const struct sim_sizes *sz, enum sim_optimizer opt,
			  int foreach, double params, int64_t devices,
			  struct sim_host_update *out)
{
	struct model_pass_cost c;
	/* one device's gradients are the sum; more are read and summed */
	double sum = devices > 1 ? (double)(devices + 1) * params * sz->grad :
		     0.0;

	sim_optimizer_cost(sz, opt, foreach, params, &c);
	phases(s, sz, params, devices, c.bytes + sum, out);
}

void sim_host_offload_time(const struct hw_system *s,
			   const struct sim_sizes *sz, enum sim_optimizer opt,
			   int foreach, double shard, double on_node,
			   struct sim_host_update *out)
{
	struct model_pass_cost c;

	sim_optimizer_cost(sz, opt, foreach, on_node, &c);
	phases(s, sz, shard, s->devices_per_node, c.bytes, out);
}
