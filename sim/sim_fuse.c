/*
 * sim_fuse.c -- element-wise fusion (sim_options.fuse_elementwise): which
 * edges between element-wise layers stay on chip, and what that takes
 * off a pass.
 *
 * THE MODEL
 * A chain of element-wise layers can run as one kernel, as XLA fuses
 * them and as NVIDIA's MLPerf ResNet-50 runs BatchNorm + ReLU and
 * BatchNorm + Add + ReLU (MXNet's NHWC BatchNormAddRelu operator, which
 * keeps a 1-bit ReLU mask for the backward pass).  An edge j -> i is
 * fused when
 * - both are element-wise kinds (BatchNorm, ReLU, sigmoid, tanh,
 *   dropout, GELU, add) and i is j's only consumer;
 * - i's backward pass does not read i's input (BatchNorm and GELU do:
 *   the tensor must be written for them) and j's backward does not read
 *   j's output (sigmoid and tanh do; ReLU's mask is a bit).
 * Forward, j does not write the tensor and i does not read it, and i pays
 * no launch of its own.  Backward the same holds for the gradient on the
 * edge, j continuing i's kernel, except where either end is an add: an
 * add runs no backward kernel, and the gradient it passes on is read by
 * its other input as well, so it is written all the same.  Reductions
 * inside a chain (BatchNorm's statistics) keep their own reads;
 * convolutions and GEMMs are not fused with their neighbours, but for
 * what follows.
 *
 * CONVOLUTION + BATCHNORM (sim_options.fuse_conv_bn)
 * cuDNN's fused operations (cudnnFusedOps_t, cuDNN 7.6 on:
 * CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS, _ACTIVATION_WGRAD,
 * CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING) take a BatchNorm + ReLU
 * that sits between two convolutions into them: the first convolution's
 * epilogue sums its output and its squares per channel as it writes it,
 * a finalize kernel turns the sums into a scale and shift per channel,
 * and the second convolution's prologue normalizes, scales, shifts and
 * rectifies its input as it reads it.  NVIDIA's MXNet ResNet-50 runs
 * them as NormConvolution (MLPerf Training v0.6-v2.0, symbols/
 * resnet-v1b-normconv-fl.py: "Stats-Apply Relu Convolution Stats-Gen",
 * and BNStatsFinalize in resnet-v1b-dbar-fl.py), PaddlePaddle as
 * ResNetUnit (Baidu's MLPerf v1.1 models/resnet.py).  So, forward, the
 * BatchNorm is its finalize alone (a launch, 16 B a channel) and the ReLU
 * nothing (its arithmetic runs on the vector units beside the
 * convolution's matrix units).  It applies where a BatchNorm reads an
 * ungrouped convolution's output and is its only consumer, feeds a ReLU
 * alone, that edge is fused as above, and every consumer of the ReLU is
 * an ungrouped convolution.  Backward, the second convolution's weight
 * gradient reapplies the pair to the saved convolution output as it
 * reads it (..._ACTIVATION_WGRAD), the same bytes as reading the ReLU's
 * output; the pair's own backward (BatchNorm's reductions and dx) still
 * reads and writes its tensors, except the ReLU's output, which was
 * never written: the ReLU's mask is recomputed from the BatchNorm's
 * input, read by the BatchNorm's part of the same kernel.
 * Not modelled: a BatchNorm that ends a residual block keeps its
 * statistics read, as resnet-v1b-normconv-fl's BatchNormAddRelu does
 * (the later networks take them from the convolution's epilogue too);
 * the activation memory still counts the pair's outputs.
 * sim_fuse_check refuses the option where those kernels do not run:
 * off NVIDIA GPUs, without tensor cores, above 16 bits, and in eager
 * execution.
 */
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

int sim_fuse_check(const struct model *m, const struct hw_system *s,
		   const struct sim_options *o, enum dlsim_precision p,
		   struct dlsim_err *err)
{
	/* a compiler fuses the chain an eager GELU spells out */
	if (o->fuse_elementwise && !o->fuse_conv_bn &&
	    (m->tf.flags & MODEL_TF_EAGER_GELU))
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': "
				     "eager_gelu=1 is eager execution, "
				     "element-wise fusion a compiler's: drop "
				     "one of them", m->name);
	if (!o->fuse_conv_bn)
		return DLSIM_OK;
	/* the fused kernels are cuDNN's, of 16-bit tensors, in a graph
	 * that runs the element-wise fusion too, not eager execution
	 * (autocast's casts, an eager GELU) */
	if (!o->fuse_elementwise)
		return dlsim_err_set(err, DLSIM_EINVAL, "convolution + "
				     "BatchNorm fusion runs on element-wise "
				     "fusion: set fuse_elementwise too");
	if (s->device->kind != HW_GPU || strcmp(s->device->vendor, "NVIDIA"))
		return dlsim_err_set(err, DLSIM_EINVAL, "convolution + "
				     "BatchNorm fusion is cuDNN's, on NVIDIA "
				     "GPUs, not on %s (%s)", s->device->name,
				     s->device->model);
	if (p != DLSIM_FP16 && p != DLSIM_BF16)
		return dlsim_err_set(err, DLSIM_EINVAL, "convolution + "
				     "BatchNorm fusion runs 16-bit "
				     "convolutions (cuDNN's fused operations), "
				     "not %s: ask for fp16 or bf16",
				     dlsim_precision_name(p));
	/* the fused operations are tensor-core kernels (Volta on): a
	 * device whose matrix units do not outrun its vector ones at the
	 * precision has none (a P100) */
	if (!(s->device->peak[p].matrix_flops >
	      s->device->peak[p].vector_flops))
		return dlsim_err_set(err, DLSIM_EINVAL, "convolution + "
				     "BatchNorm fusion runs on tensor cores, "
				     "which %s (%s) has none of at %s",
				     s->device->name, s->device->model,
				     dlsim_precision_name(p));
	if (o->autocast)
		return dlsim_err_set(err, DLSIM_EINVAL, "convolution + "
				     "BatchNorm fusion is a fused graph's, "
				     "autocast eager execution's casts: drop "
				     "one of them");
	if (m->tf.flags & MODEL_TF_EAGER_GELU)
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': "
				     "eager_gelu=1 is eager execution, "
				     "convolution + BatchNorm fusion a fused "
				     "graph's: drop one of them", m->name);
	return DLSIM_OK;
}

static int fusable(enum model_layer_kind k)
{
	switch (k) {
	case MODEL_BATCHNORM:
	case MODEL_RELU:
	case MODEL_SIGMOID:
	case MODEL_TANH:
	case MODEL_DROPOUT:
	case MODEL_GELU:
	case MODEL_ADD:
		return 1;
	default:
		return 0;
	}
}

/* May the edge from producer j into consumer i stay on chip? */
static int edge_fuses(const struct model_layer *j, const struct model_layer *i)
{
	return fusable(j->kind) && fusable(i->kind) && j->n_consumers == 1 &&
	       i->kind != MODEL_BATCHNORM && i->kind != MODEL_GELU &&
	       j->kind != MODEL_SIGMOID && j->kind != MODEL_TANH;
}

/* cuDNN's fused operations take ungrouped convolutions only. */
static int dense_conv(const struct model_layer *l)
{
	return l->kind == MODEL_CONV2D && l->groups <= 1;
}

/* Mark the BatchNorm + ReLU pairs that run inside their neighbouring
 * convolutions (SIM_FUSE_CONV), once the element-wise edges are marked.
 * SIM_FUSE_FEEDS_OTHER, set on a layer read by anything but a
 * convolution, lives only inside this function. */
static void mark_conv_bn(const struct model *m, unsigned char *fused)
{
	int i, k;

	for (i = 1; i < m->n_layers; i++)
		for (k = 0; k < m->layers[i].n_inputs; k++)
			if (!dense_conv(&m->layers[i]) &&
			    m->layers[i].inputs[k] > 0)
				fused[m->layers[i].inputs[k]] |=
					SIM_FUSE_FEEDS_OTHER;
	for (i = 1; i < m->n_layers; i++) {
		const struct model_layer *r = &m->layers[i];
		const struct model_layer *b, *c;
		int j;

		if (r->kind != MODEL_RELU || r->n_inputs != 1 ||
		    !(fused[i] & SIM_FUSE_IN) || r->n_consumers < 1 ||
		    (fused[i] & SIM_FUSE_FEEDS_OTHER))
			continue;
		j = r->inputs[0];
		b = &m->layers[j];
		if (j <= 0 || b->kind != MODEL_BATCHNORM || b->n_inputs != 1 ||
		    b->n_consumers != 1 || b->inputs[0] <= 0)
			continue;
		c = &m->layers[b->inputs[0]];
		if (!dense_conv(c) || c->n_consumers != 1)
			continue;
		fused[i] |= SIM_FUSE_CONV;
		fused[j] |= SIM_FUSE_CONV;
	}
	for (i = 0; i < m->n_layers; i++)
		fused[i] &= (unsigned char)~SIM_FUSE_FEEDS_OTHER;
}

void sim_fuse_mark(const struct model *m, int on, int conv_bn,
		   unsigned char *fused)
{
	int i, k;

	memset(fused, 0, (size_t)m->n_layers);
	for (i = 1; on && i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];

		for (k = 0; k < l->n_inputs; k++) {
			int j = l->inputs[k];
			const struct model_layer *p = &m->layers[j];

			if (j <= 0 || (fused[j] & SIM_FUSE_OUT) ||
			    !edge_fuses(p, l))
				continue;
			fused[i] |= SIM_FUSE_IN;
			fused[j] |= SIM_FUSE_OUT;
			if (l->kind != MODEL_ADD && p->kind != MODEL_ADD) {
				fused[i] |= SIM_FUSE_IN_BWD;
				fused[j] |= SIM_FUSE_OUT_BWD;
			}
			break;
		}
	}
	if (on && conv_bn)
		mark_conv_bn(m, fused);
}

int sim_fuse_edges(const struct model *m, const unsigned char *fused)
{
	int i, n = 0;

	for (i = 0; i < m->n_layers; i++)
		n += (fused[i] & SIM_FUSE_IN) != 0;
	return n;
}

int sim_fuse_conv_pairs(const struct model *m, const unsigned char *fused)
{
	int i, n = 0;

	for (i = 0; i < m->n_layers; i++)
		n += m->layers[i].kind == MODEL_BATCHNORM &&
		     (fused[i] & SIM_FUSE_CONV);
	return n;
}

static double out_elems(const struct model_layer *l)
{
	return (double)l->out.c * (double)l->out.h * (double)l->out.w;
}

/* The fused input edge's values per sample (its producer's output). */
static double in_edge(const struct model *m, const unsigned char *fused,
		      int i)
{
	const struct model_layer *l = &m->layers[i];
	int k;

	for (k = 0; k < l->n_inputs; k++) {
		int j = l->inputs[k];

		if (j > 0 && (fused[j] & SIM_FUSE_OUT) &&
		    m->layers[j].n_consumers == 1)
			return out_elems(&m->layers[j]);
	}
	return 0.0;
}

void sim_fuse_pass(const struct model *m, const unsigned char *fused, int i,
		   enum model_pass p, int64_t batch, int act_bytes,
		   struct model_pass_cost *c)
{
	double per = (double)batch * (double)act_bytes;
	int in = p == MODEL_PASS_FWD ? SIM_FUSE_IN : SIM_FUSE_IN_BWD;
	int out = p == MODEL_PASS_FWD ? SIM_FUSE_OUT : SIM_FUSE_OUT_BWD;

	if (p != MODEL_PASS_FWD && p != MODEL_PASS_BWD_DATA)
		return;
	/* forward, the ReLU runs in the next convolution's prologue and the
	 * BatchNorm's kernel is its finalize alone: per channel it reads
	 * the two fp32 sums and writes a scale and a shift (mean, variance,
	 * 1/sigma, scale, shift: 7 operations) */
	if (p == MODEL_PASS_FWD && (fused[i] & SIM_FUSE_CONV)) {
		double ch = (double)m->layers[i].out.c;
		int relu = m->layers[i].kind == MODEL_RELU;

		c->flops = c->work = relu ? 0.0 : 7.0 * ch;
		c->bytes = relu ? 0.0 : 16.0 * ch;
		c->depth = relu ? 0.0 : 1.0;
		c->fused = relu;
		return;
	}
	/* the ReLU's output was never written: its mask is recomputed from
	 * the BatchNorm's input, which the BatchNorm's backward, continuing
	 * this kernel, reads anyway */
	if ((fused[i] & SIM_FUSE_CONV) && m->layers[i].kind == MODEL_RELU)
		c->bytes -= per * out_elems(&m->layers[i]);
	if (fused[i] & in)
		c->bytes -= per * in_edge(m, fused, i);
	if (fused[i] & out)
		c->bytes -= per * out_elems(&m->layers[i]);
	/* forward the consumer continues its producer's kernel; backward
	 * the producer continues its consumer's */
	if (fused[i] & (p == MODEL_PASS_FWD ? in : out))
		c->fused = 1;
	if (c->bytes < 0.0)
		c->bytes = 0.0;
}
