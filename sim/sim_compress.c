/*
 * sim_compress.c -- gradient compression for the data-parallel exchange:
 * what goes on the wire, which collective carries it, and what the
 * (de)compression kernels cost.
 *
 * MODEL, per bucket of n gradient values of w bytes (4: fp32, as AMP
 * keeps them; 8 under fp64):
 *   fp16 / bf16  cast to 16 bits before the allreduce and back after
 *                (Horovod's fp16 Compression, PyTorch DDP's
 *                fp16_compress_hook): 2n bytes on the wire; kernels read
 *                wn and write 2n, then read 2n and write wn.
 *   int8         scale by the bucket's largest magnitude and round
 *                (Dettmers, "8-Bit Approximations for Parallelism in Deep
 *                Learning", ICLR 2016): n bytes on the wire; kernels read
 *                wn twice (max, then quantize) and write n; read n and
 *                write wn after.
 *   top-k        keep the fraction r of largest magnitudes, chosen by a
 *                threshold estimated from a sample (Aji & Heafield,
 *                "Sparse Communication for Distributed Gradient Descent",
 *                EMNLP 2017): each rank sends k = r n (value, index) pairs
 *                of 4 + 4 bytes; sparse vectors do not sum in place, so
 *                they travel by an allgather of P k 8 bytes in all; kernels
 *                read wn and write 8k, then scatter-add the P k received
 *                pairs (read 8, read-modify-write w each).
 * Without compression the n values go as they are: wn bytes.
 * Kernel times are memory-bound element-wise passes at the device's
 * attainable bandwidth, each with one launch.  They run on the compute
 * stream, as DDP comm hooks and Horovod launch them: compressing delays
 * the rest of backward, decompressing delays the optimizer.
 *
 * LIMITATIONS
 * - int8 gradients are reduced as 1-byte values; real schemes re-scale
 *   per step of the ring, which costs a little more compute.
 * - Error feedback (the residual kept by top-k and int8 schemes) adds a
 *   read and a write of n values that are not counted.
 */
#include <math.h>

#include "sim/sim.h"
#include "core/core.h"
#include "core/banned.h"

static const char *const compression_names[] = {
	"none", "fp16", "bf16", "int8", "topk", NULL
};

const char *sim_compression_name(enum sim_compression c)
{
	if ((int)c < 0 || c >= SIM_COMPRESSION_COUNT)
		return NULL;
	return compression_names[c];
}

int sim_compression_parse(const char *name, enum sim_compression *out,
			  struct dlsim_err *err)
{
	int i = core_name_parse(compression_names, name, "compression", err);

	if (i < 0)
		return DLSIM_ENOTFOUND;
	*out = (enum sim_compression)i;
	return DLSIM_OK;
}

/* One memory-bound pass moving `bytes`. */
static double stream_pass(const struct sim_roof *roof, double bytes)
{
	return bytes / roof->bandwidth_Bps + roof->launch_s;
}

void sim_compress_plan(const struct sim_roof *roof, enum sim_compression c,
		       double n, int width, int64_t ranks, double topk_ratio,
		       struct sim_compress_plan *out)
{
	double k = topk_ratio * n, p = (double)ranks, w = (double)width;

	/* top-k of a bucket keeps at least its largest value: a ratio of
	 * 1e-300 sends one pair, not nothing */
	if (k < 1.0 && n >= 1.0)
		k = 1.0;
	out->coll = SIM_COLL_ALLREDUCE;
	out->compress_s = out->decompress_s = 0.0;
	switch (c) {
	case SIM_COMPRESS_FP16:
	case SIM_COMPRESS_BF16:
		out->wire_bytes = 2.0 * n;
		out->compress_s = stream_pass(roof, (w + 2.0) * n);
		out->decompress_s = stream_pass(roof, (w + 2.0) * n);
		break;
	case SIM_COMPRESS_INT8:
		out->wire_bytes = n;
		out->compress_s = stream_pass(roof, w * n) +
				  stream_pass(roof, (w + 1.0) * n);
		out->decompress_s = stream_pass(roof, (w + 1.0) * n);
		break;
	case SIM_COMPRESS_TOPK:
		out->coll = SIM_COLL_ALLGATHER;
		out->wire_bytes = p * k * 8.0;
		out->compress_s = stream_pass(roof, w * n + 8.0 * k);
		out->decompress_s = stream_pass(roof, p * k * (8.0 + 2.0 * w));
		break;
	default:
		out->wire_bytes = w * n;
		break;
	}
}
