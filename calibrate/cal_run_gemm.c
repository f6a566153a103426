/*
 * cal_run_gemm.c -- the real GEMM of `dlsim calibrate run`: CBLAS sgemm
 * and dgemm from OpenBLAS (Debian libopenblas-dev), its thread count and
 * its description.  The only file of dlsim that includes <cblas.h>, so
 * the rest of the runner can be tested with fakes.
 *
 * The calls are C = 1.0 A B + 0.0 C, column-major, no transposes: the
 * layout a framework's fully-connected layer runs.
 */
#include "calibrate/cal_run.h"

#include <cblas.h>

#include "core/banned.h"

const char *cal_gemm_blas_config(void *ctx)
{
	(void)ctx;
	return openblas_get_config();
}

void cal_gemm_blas_threads(void *ctx, int threads)
{
	(void)ctx;
	openblas_set_num_threads(threads);
}

void cal_gemm_blas(void *ctx, int fp64, int m, int n, int k, const void *a,
		   const void *b, void *c)
{
	(void)ctx;
	if (fp64)
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k,
			    1.0, a, m, b, k, 0.0, c, m);
	else
		cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k,
			    1.0f, a, m, b, k, 0.0f, c, m);
}
