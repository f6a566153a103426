/*
 * sim_optimizer.c -- the optimizer update: its names, and what one step
 * of it reads, writes and launches, for the data-parallel step
 * (sim_step.c) and the hybrid-parallel one (sim_parallel.c).
 *
 * Per parameter, by default one fused kernel (apex's FusedSGD and
 * FusedAdam, Megatron-LM's and DeepSpeed's, torch.optim's fused=True):
 *   bytes: read gradient, read and write the fp32 master weight, and in
 *          mixed precision write the 16-bit copy; plus state read and
 *          written: momentum 4+4, Adam (m, v) 8+8 (fp64: twice that,
 *          the state at the master width).
 *   flops: SGD 2 (scale, add), momentum 4, Adam 12 (m: 3, v: 4,
 *          update with sqrt and divide: 4, weight decay: 1).
 * LAMB (You et al., "Large Batch Optimization for Deep Learning: Training
 * BERT in 76 minutes", ICLR 2020) scales each tensor's Adam update by the
 * ratio of the weight's norm to the update's, so its fused form, apex's
 * FusedLAMB (csrc/multi_tensor_lamb.cu, which NVIDIA's BERT pre-training
 * runs), is not one pass but five over the parameters: the gradients'
 * global norm (read g), the weights' norms (read p), stage 1 (read g, p,
 * m, v; write the update into g's buffer, m and v), the updates' norms
 * (read g), stage 2 (read the update and p, write p).  At the widths
 * above that is 5 gradient and 4 master-weight accesses and the state's
 * 16 bytes, 52 bytes a parameter in fp32 (plus the 16-bit copy), in 8
 * kernels: each norm is apex's multi-tensor L2 kernel and its cleanup
 * kernel, and the two stages; 20 FLOPs (Adam's 12, three squares and
 * sums, the scaled subtraction).  torch.optim has no LAMB: with the
 * foreach kernels it is refused (sim_optimizer_check).  Under ZeRO each
 * rank's shard of a tensor would need its norms summed over the ranks:
 * that reduction is not costed.
 * sim_options.optimizer_foreach runs it as torch.optim does by default
 * on CUDA (foreach=True, PyTorch 2: torch/optim/sgd.py
 * _multi_tensor_sgd, adam.py _multi_tensor_adam), one multi-tensor
 * kernel per operation, each reading and writing whole tensors of the
 * master width w (4 bytes; the weights, gradients and state are fp32
 * under autocast), with weight decay:
 *   SGD       grad + wd p (3w), p - lr g (3w): 6w, 2 kernels
 *   momentum  that, with buf x momentum (2w) and buf + g (3w) between:
 *             11w, 4 kernels
 *   AdamW     p x (1 - lr wd) (2w), lerp of m to g (3w), v x beta2
 *             (2w), v + (1 - beta2) g g (3w), sqrt v (2w), over the bias
 *             correction (2w), plus eps (2w), p + step m / that (4w):
 *             20w, 8 kernels
 * (80 bytes a parameter for AdamW where the fused kernel moves 28-30:
 * dlsim's H100 profile, data/measurements/h100/profile.txt, times
 * torch's AdamW at 9.8 ms a step for BERT-Large's 336 M parameters and
 * 3.7 ms for GPT-2's 124 M, 27 and 10 GB at 2.7 TB/s).
 */
#include <string.h>

#include "sim/sim.h"
#include "core/core.h"
#include "core/banned.h"

static const char *const optimizer_names[] = {
	"sgd", "momentum", "adam", "lamb", NULL
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

int sim_optimizer_cost(const struct sim_sizes *sz, enum sim_optimizer opt,
		       int foreach, double params, struct model_pass_cost *c)
{
	static const double state_bytes[] = { 0.0, 8.0, 16.0, 16.0 };
	static const double flops[] = { 2.0, 4.0, 12.0, 20.0 };
	/* LAMB has none (sim_optimizer_check refuses the pair): 0, so
	 * that a caller that skipped the check costs nothing, not AdamW */
	static const double foreach_values[] = { 6.0, 11.0, 20.0, 0.0 };
	static const int foreach_kernels[] = { 2, 4, 8, 0 };

	memset(c, 0, sizeof(*c));
	c->kernel = MODEL_KERNEL_VECTOR;
	c->flops = params * flops[opt];
	c->launches = foreach ? foreach_kernels[opt] : 1;
	if (foreach) {
		c->bytes = params * foreach_values[opt] * sz->master;
		return foreach_kernels[opt];
	}
	if (opt == SIM_OPT_LAMB) {
		c->launches = 8;
		c->bytes = params * (5.0 * sz->grad + 4.0 * sz->master +
				     state_bytes[opt] * sz->master / 4.0 +
				     (sim_mixed(sz) ? sz->weight : 0.0));
		return 8;
	}
	/* the state at the master width: fp64 training keeps it in fp64 */
	c->bytes = params * (sz->grad + 2.0 * sz->master +
			     state_bytes[opt] * sz->master / 4.0 +
			     (sim_mixed(sz) ? sz->weight : 0.0));
	return 1;
}

double sim_optimizer_time(const struct sim_roof *roof,
			  const struct hw_device *d,
			  const struct sim_sizes *sz, enum sim_optimizer opt,
			  int foreach, double params)
{
	struct model_pass_cost c;
	double rate = d->peak[DLSIM_FP32].vector_flops > 0.0 ?
		      d->peak[DLSIM_FP32].vector_flops :
		      roof->rate[MODEL_KERNEL_VECTOR];
	double tc, tm;
	int k;

	if (params <= 0.0)
		return 0.0;
	k = sim_optimizer_cost(sz, opt, foreach, params, &c);
	tc = c.flops / rate;
	tm = c.bytes / roof->bandwidth_Bps;
	return (tc > tm ? tc : tm) + k * roof->launch_s;
}

int sim_optimizer_check(enum sim_optimizer opt, int foreach,
			struct dlsim_err *err)
{
	if (foreach && opt == SIM_OPT_LAMB)
		return dlsim_err_set(err, DLSIM_EINVAL, "torch.optim has no "
				     "LAMB, so no foreach kernels of it: drop "
				     "--optimizer-foreach, or take sgd, "
				     "momentum or adam");
	return DLSIM_OK;
}
