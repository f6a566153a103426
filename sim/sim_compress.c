/*
 * sim_compress.c -- gradient compression for the data-parallel exchange:
 * what goes on the wire, which collective carries it, and what the
 * (de)compression kernels cost.
 *
 * MODEL, per bucket of n gradient values (fp32 on the device, AMP):
 *   fp16 / bf16  cast to 16 bits before the allreduce and back after
 *                (Horovod's fp16 Compression, PyTorch DDP's
 *                fp16_compress_hook): 2n bytes on the wire; kernels read
 *                4n and write 2n, then read 2n and write 4n.
 *   int8         scale by the bucket's largest magnitude and round
 *                (Dettmers, "8-Bit Approximations for Parallelism in Deep
 *                Learning", ICLR 2016): n bytes on the wire; kernels read
 *                4n twice (max, then quantize) and write n; read n and
 *                write 4n after.
 *   top-k        keep the fraction r of largest magnitudes, chosen by a
 *                threshold estimated from a sample (Aji & Heafield,
 *                "Sparse Communication for Distributed Gradient Descent",
 *                EMNLP 2017): each rank sends k = r n (value, index) pairs
 *                of 4 + 4 bytes; sparse vectors do not sum in place, so
 *                they travel by an allgather of P k 8 bytes in all; kernels
 *                read 4n and write 8k, then scatter-add the P k received
 *                pairs (read 8, read-modify-write 4 each).
 * Kernel times are memory-bound element-wise passes at the device's
 * attainable bandwidth, each with one launch.  They run on the
 * communication stream, ahead of and after the bucket's collective.
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

double sim_compress_plan(const struct sim_roof *roof,
			 enum sim_compression c, double n, int64_t ranks,
			 double topk_ratio, double *wire_bytes,
			 enum sim_collective *coll)
{
	double k = topk_ratio * n, p = (double)ranks;

	*coll = SIM_COLL_ALLREDUCE;
	switch (c) {
	case SIM_COMPRESS_FP16:
	case SIM_COMPRESS_BF16:
		*wire_bytes = 2.0 * n;
		return stream_pass(roof, 6.0 * n) + stream_pass(roof, 6.0 * n);
	case SIM_COMPRESS_INT8:
		*wire_bytes = n;
		return stream_pass(roof, 4.0 * n) + stream_pass(roof, 5.0 * n) +
		       stream_pass(roof, 5.0 * n);
	case SIM_COMPRESS_TOPK:
		*coll = SIM_COLL_ALLGATHER;
		*wire_bytes = p * k * 8.0;
		return stream_pass(roof, 4.0 * n + 8.0 * k) +
		       stream_pass(roof, p * k * 16.0);
	default:
		*wire_bytes = 4.0 * n;
		return 0.0;
	}
}
