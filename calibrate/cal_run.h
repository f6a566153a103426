/*
 * cal_run.h -- the calibration runner inside the library: the table of
 * function pointers through which it reaches the clock, the kernels and
 * MPI (SQLite's os_unix.c aSyscall[]: tests put fakes in it), the real
 * implementations of each, and the parsing of dlsim-mpibench's lines.
 *
 * cal_run.c plans and runs the measurements and stores them;
 * cal_run_gemm.c is the only file that includes <cblas.h>;
 * cal_run_stream.c holds McCalpin's four kernels and the cache size;
 * cal_run_mpi.c launches mpirun and reads what dlsim-mpibench prints.
 */
#ifndef DLSIM_CALIBRATE_CAL_RUN_H
#define DLSIM_CALIBRATE_CAL_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "dlsim.h"

#define CAL_RUN_BATCH 256       /* samples per db_run_append */
#define CAL_RUN_MAX_REPS 16

/* The stream kernels, in McCalpin's order. */
enum cal_stream_kernel {
	CAL_STREAM_COPY = 0,    /* c = a          2 arrays */
	CAL_STREAM_SCALE,       /* b = q c        2 arrays */
	CAL_STREAM_ADD,         /* c = a + b      3 arrays */
	CAL_STREAM_TRIAD,       /* a = b + q c    3 arrays */
	CAL_STREAM_KERNELS
};

/* ---------------------------------------------------------------- */
/* The seams                                                         */
/* ---------------------------------------------------------------- */

/*
 * Everything the runner does to the machine.  ctx is passed to each
 * call.  The real table (cal_run_real_ops) has ctx NULL; a test's fakes
 * keep a fake clock in theirs.
 */
struct cal_run_ops {
	/* A monotonic clock, in s. */
	double (*now)(void *ctx);
	/* Online cores (>= 1): the multi-threaded GEMM uses them all. */
	int (*cores)(void *ctx);
	/* The last-level cache in bytes (0: unknown); what it was read from
	 * ("sysconf", "/sys/.../index3/size") goes into src. */
	int64_t (*llc_bytes)(void *ctx, char *src, size_t n);
	/* The BLAS's own description ("OpenBLAS 0.3.21 ..."), static. */
	const char *(*blas_config)(void *ctx);
	/* Threads the next gemm calls use. */
	void (*blas_threads)(void *ctx, int threads);
	/* C = A B, column-major, A m x k, B k x n, C m x n; float or double
	 * arrays as fp64 says. */
	void (*gemm)(void *ctx, int fp64, int m, int n, int k, const void *a,
		     const void *b, void *c);
	/* One pass of a stream kernel over arrays of n doubles. */
	void (*stream)(void *ctx, enum cal_stream_kernel kernel, int64_t n,
		       double *a, double *b, double *c);
	/* Run argv (argv[0] a path or a name on PATH) with its stdout and
	 * stderr on a pipe, calling line(lctx, text) for each line (without
	 * "\n"); line returns non-zero to have the program stopped
	 * (SIGTERM) and the rest read and dropped.  DLSIM_EIO if it cannot
	 * start or exits non-zero (not when it was stopped), naming the
	 * last line that was not a sample. */
	int (*spawn)(void *ctx, char *const argv[],
		     int (*line)(void *lctx, const char *text), void *lctx,
		     struct dlsim_err *err);
	void *ctx;
};

/* The real ones: CLOCK_MONOTONIC, OpenBLAS, the C loops, fork/exec. */
const struct cal_run_ops *cal_run_real_ops(void);

/* cal_run with the given table (tests pass fakes). */
int cal_run_with(struct db *db, const struct cal_run_opts *o,
		 const struct cal_run_ops *ops, struct cal_run_result *out,
		 struct dlsim_err *err);

/* ---------------------------------------------------------------- */
/* The pieces of the real table                                      */
/* ---------------------------------------------------------------- */

/* cal_run_gemm.c */
const char *cal_gemm_blas_config(void *ctx);
void cal_gemm_blas_threads(void *ctx, int threads);
void cal_gemm_blas(void *ctx, int fp64, int m, int n, int k, const void *a,
		   const void *b, void *c);

/* cal_run_stream.c */
void cal_stream_kernel(void *ctx, enum cal_stream_kernel kernel, int64_t n,
		       double *a, double *b, double *c);
int64_t cal_stream_llc_bytes(void *ctx, char *src, size_t n);
/* "copy", "scale", "add", "triad"; arrays each kernel moves (2 or 3). */
const char *cal_stream_kernel_name(enum cal_stream_kernel kernel);
int cal_stream_kernel_arrays(enum cal_stream_kernel kernel);

/* cal_run_host.c: *h describes this host for hardware name hw, its
 * cores and BLAS from ops. */
void cal_run_host(const struct cal_run_ops *ops, const char *hw,
		  struct db_host *h);

/* cal_run_mpi.c */
int cal_mpi_spawn(void *ctx, char *const argv[],
		  int (*line)(void *lctx, const char *text), void *lctx,
		  struct dlsim_err *err);

/* A program on PATH (or a path with a '/'), as execvp would find it:
 * 1 and its path in buf, else 0. */
int cal_mpi_find_program(const char *name, char *buf, size_t n);

/*
 * One line of dlsim-mpibench:
 *
 *   sample BENCHMARK REP VALUE UNIT PARAMS...
 *
 * e.g. "sample p2p_latency 0 1.5e-06 s bytes=8 ranks=2 dtype=int8".
 * *is_sample is 1 and *s filled for a sample line, 0 for any other line
 * (mpirun's noise).  DLSIM_EPARSE for a sample line that is damaged.
 */
int cal_mpi_parse_line(const char *text, struct db_sample *s,
		       int *is_sample, struct dlsim_err *err);

#endif /* DLSIM_CALIBRATE_CAL_RUN_H */
