/*
 * cal_run.c -- `dlsim calibrate run`: measure this machine and store the
 * samples as one run (issue 4, "Runs on this machine").
 *
 * HOW IT WORKS
 * The run is planned first: a list of measurement points (one GEMM
 * shape, precision and thread count; one stream kernel and working set),
 * then the MPI sizes, so the progress bar knows its total.  Each point
 * of GEMM and stream is measured the same way:
 *
 *   1. one warm-up call, timed, which also sets the batch: the number
 *      of calls that together take at least min_batch_s (so a 16 KiB copy
 *      is not timed by a clock read that costs as much as it does);
 *   2. R repetitions, each one batch timed by the monotonic clock;
 *      the value of a repetition is the time of one call (gemm, s) or
 *      the bytes one pass moves over the time of one pass (stream, B/s);
 *   3. a sample per repetition (rep 0..R-1), then the summary (rep -1):
 *      the median for gemm, the best (the highest rate) for stream, as
 *      STREAM itself reports.
 *
 * p2p and allreduce run in a separate program, dlsim-mpibench
 * (tools/mpibench.c), started as `mpirun -np 2 --oversubscribe
 * dlsim-mpibench ...` (cal_run_mpi.c); it prints one line per repetition
 * and this file groups each point's R lines and adds their median.
 *
 * Sizes:            tiny (tests)   quick            full
 *   gemm squares    8, 16          64 .. 512        64 .. 2048 (x2)
 *   gemm skinny     16x4x16        512/16 shapes    2048 with 16, 128
 *   stream sets     16, 64 KiB     16 KiB .. 4 LLC  16 KiB .. 4 LLC
 *                                  (x4)             (x2)
 *   MPI messages    8 .. 64 B      8 B .. 1 MiB     8 B .. 64 MiB
 *   repetitions     2              3                3
 *   min_batch_s     0              2 ms             10 ms
 *
 * GEMM runs with 1 thread and with all online cores (one point each
 * when there is one core).  The stream top is 4x the last-level cache
 * (cal_run_stream.c says where that is read), 64 MiB if it is unknown,
 * and at most a quarter of the physical memory.
 *
 * INVARIANTS
 * 1. The run row exists from the start, status "running"; every sample
 *    is stored by db_run_append in batches of at most CAL_RUN_BATCH
 *    plus one point, each batch one transaction; a point's R+1 samples
 *    are never split across batches.  So at any time the database holds
 *    whole points only, and a crash leaves a "running" run whose samples
 *    are all good.
 * 2. *o->stop is read before every point and every repetition (and
 *    every MPI line); once seen, nothing more is measured, the point in
 *    progress is dropped, the batch in hand is stored and the run
 *    finishes "interrupted".
 * 3. The library never prints: progress and notes go to the caller's
 *    callbacks.
 *
 * LIMITATIONS
 * Timings are wall-clock on a machine that may be doing other work; the
 * median (gemm, MPI) and the best (stream) are what a fit should read.
 * GEMM is column-major without transposes only.
 */
#include "calibrate/cal_run.h"
#include "calibrate/cal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "core/banned.h"

#define MAX_POINTS 512
#define MAX_ITERS 1000000

/* ---------------------------------------------------------------- */
/* Types                                                             */
/* ---------------------------------------------------------------- */

static const char *const bench_names[] = {
	"gemm", "stream", "p2p", "allreduce", NULL
};

/* One thing measured: its params and what the call needs. */
struct point {
	enum cal_bench bench;   /* GEMM or STREAM */
	int fp64, m, n, k, threads;
	enum cal_stream_kernel kernel;
	int64_t elems;          /* stream: doubles per array */
	double bytes;           /* stream: bytes one pass moves */
	char params[128];
};

/* How big and how often, by mode. */
struct sizes {
	int reps;
	double min_batch_s;
	const int *square;      /* ends with 0 */
	const int (*skinny)[3]; /* ends with {0} */
	int stream_step;        /* working-set factor */
	int64_t mpi_max_bytes, mpi_iters_bytes, mpi_max_iters;
};

/* An MPI point being read: its repetitions so far. */
struct group {
	struct db_sample s[CAL_RUN_MAX_REPS];
	int n;
};

struct runner {
	struct db *db;
	const struct cal_run_opts *o;
	const struct cal_run_ops *ops;
	const struct sizes *z;
	int64_t run_id, stored, done, total;
	struct db_sample batch[CAL_RUN_BATCH + CAL_RUN_MAX_REPS + 1];
	int64_t n_batch;
	int stopped;
	struct group g;
	struct dlsim_err *err;
	int rc;                 /* the MPI line callback's failure */
	void *a, *b, *c;        /* gemm buffers */
	double *sa, *sb, *sc;   /* stream arrays */
};

static const int tiny_square[] = { 8, 16, 0 };
static const int tiny_skinny[][3] = { { 16, 4, 16 }, { 0, 0, 0 } };
static const int quick_square[] = { 64, 128, 256, 512, 0 };
static const int quick_skinny[][3] = {
	{ 512, 16, 512 }, { 512, 512, 16 }, { 16, 512, 512 }, { 0, 0, 0 }
};
/* The full sweep stops at 2048: a 4096^3 dgemm alone takes about 45 s on
 * one thread of a 2-core machine where OpenBLAS reaches 5.8 GFLOP/s,
 * which broke the ten-minute budget; large GEMMs sit on the fitted
 * curve's plateau anyway. */
static const int full_square[] = { 64, 128, 256, 512, 1024, 2048, 0 };
static const int full_skinny[][3] = {
	{ 2048, 16, 2048 }, { 2048, 2048, 16 }, { 16, 2048, 2048 },
	{ 2048, 128, 2048 }, { 2048, 2048, 128 }, { 128, 2048, 2048 },
	{ 0, 0, 0 }
};

static const struct sizes tiny_sizes = {
	2, 0.0, tiny_square, tiny_skinny, 4, 64, 64, 2
};
static const struct sizes quick_sizes = {
	3, 2e-3, quick_square, quick_skinny, 4, (int64_t)1 << 20,
	(int64_t)4 << 20, 100
};
static const struct sizes full_sizes = {
	3, 1e-2, full_square, full_skinny, 2, (int64_t)64 << 20,
	(int64_t)64 << 20, 1000
};

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static double wall_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return (double)time(NULL);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double real_now(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int real_cores(void *ctx)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	(void)ctx;
	return n > 0 ? (int)n : 1;
}

static const struct cal_run_ops real_ops = {
	real_now, real_cores, cal_stream_llc_bytes, cal_gemm_blas_config,
	cal_gemm_blas_threads, cal_gemm_blas, cal_stream_kernel,
	cal_mpi_spawn, NULL
};

static void note(const struct runner *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(const struct runner *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (!r->o->note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->o->note(r->o->note_ctx, msg);
}

static void progress(struct runner *r, const char *what)
{
	if (r->o->progress)
		r->o->progress(r->o->progress_ctx, r->done, r->total, what);
}

static int stop_asked(const struct runner *r)
{
	return r->o->stop && *r->o->stop;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The median of v[0..n-1] (n >= 1); v is left sorted. */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Store the batch in hand (one transaction). */
static int flush(struct runner *r)
{
	int rc;

	if (r->n_batch == 0)
		return DLSIM_OK;
	if ((rc = db_run_append(r->db, r->run_id, r->batch, r->n_batch,
				r->err)))
		return rc;
	r->stored += r->n_batch;
	r->n_batch = 0;
	return DLSIM_OK;
}

static void add(struct runner *r, const char *bench, const char *params,
		int64_t rep, double value, const char *unit)
{
	struct db_sample *s = &r->batch[r->n_batch++];

	memset(s, 0, sizeof(*s));
	core_strlcpy(s->benchmark, bench, sizeof(s->benchmark));
	core_strlcpy(s->params, params, sizeof(s->params));
	s->rep = rep;
	s->value = value;
	core_strlcpy(s->unit, unit, sizeof(s->unit));
}

/* A point is done: count it, and store the batch once it is full. */
static int point_done(struct runner *r, const char *what)
{
	r->done++;
	progress(r, what);
	return r->n_batch >= CAL_RUN_BATCH ? flush(r) : DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Planning                                                          */
/* ---------------------------------------------------------------- */

static int gemm_plan(const struct runner *r, struct point *p, int max)
{
	int cores = r->ops->cores(r->ops->ctx), n = 0, d, t, i;
	int threads[2] = { 1, cores > 1 ? cores : 0 };

	for (d = 0; d < 2; d++)
		for (t = 0; t < 2 && threads[t]; t++) {
			for (i = 0; r->z->square[i] && n < max; i++, n++) {
				p[n].m = p[n].n = p[n].k = r->z->square[i];
				p[n].fp64 = d;
				p[n].threads = threads[t];
			}
			for (i = 0; r->z->skinny[i][0] && n < max; i++, n++) {
				p[n].m = r->z->skinny[i][0];
				p[n].n = r->z->skinny[i][1];
				p[n].k = r->z->skinny[i][2];
				p[n].fp64 = d;
				p[n].threads = threads[t];
			}
		}
	for (i = 0; i < n; i++) {
		p[i].bench = CAL_BENCH_GEMM;
		snprintf(p[i].params, sizeof(p[i].params), "m=%d n=%d k=%d "
			 "dtype=%s threads=%d", p[i].m, p[i].n, p[i].k,
			 p[i].fp64 ? "fp64" : "fp32", p[i].threads);
	}
	return n;
}

/* The largest stream working set, in bytes. */
static int64_t stream_top(struct runner *r)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	int64_t llc, top, mem = pages > 0 && psize > 0 ?
		(int64_t)pages * psize : 0;
	char src[128];

	if (r->o->tiny)
		return (int64_t)64 << 10;
	llc = r->ops->llc_bytes(r->ops->ctx, src, sizeof(src));
	if (llc > 0) {
		top = 4 * llc;
		note(r, "stream: last-level cache %lld KiB (from %s); working "
		     "sets up to %lld MiB", (long long)(llc >> 10), src,
		     (long long)(top >> 20));
	} else {
		top = (int64_t)64 << 20;
		note(r, "stream: last-level cache unknown; working sets up "
		     "to 64 MiB");
	}
	if (mem > 0 && top > mem / 4) {
		top = mem / 4;
		note(r, "stream: working sets cut to %lld MiB, a quarter of "
		     "memory", (long long)(top >> 20));
	}
	return top;
}

static int stream_plan(const struct runner *r, int64_t top, struct point *p,
		       int max)
{
	int64_t ws = (int64_t)16 << 10;
	int n = 0, last = 0, k;

	while (!last) {
		if (ws >= top) {
			ws = top;
			last = 1;
		}
		for (k = 0; k < CAL_STREAM_KERNELS && n < max; k++, n++) {
			int arrays = cal_stream_kernel_arrays(
				(enum cal_stream_kernel)k);

			p[n].bench = CAL_BENCH_STREAM;
			p[n].kernel = (enum cal_stream_kernel)k;
			p[n].elems = ws / (8 * arrays);
			p[n].bytes = (double)(p[n].elems * 8 * arrays);
			p[n].threads = 1;
			snprintf(p[n].params, sizeof(p[n].params), "bytes=%lld "
				 "kernel=%s threads=1",
				 (long long)(p[n].elems * 8 * arrays),
				 cal_stream_kernel_name(p[n].kernel));
		}
		ws *= r->z->stream_step;
	}
	return n;
}

static int64_t mpi_sizes(const struct runner *r)
{
	int64_t b, n = 0;

	for (b = 8; b <= r->z->mpi_max_bytes; b *= 2)
		n++;
	return n;
}

/* ---------------------------------------------------------------- */
/* GEMM and stream                                                   */
/* ---------------------------------------------------------------- */

static void call(struct runner *r, const struct point *p)
{
	const struct cal_run_ops *ops = r->ops;

	if (p->bench == CAL_BENCH_GEMM)
		ops->gemm(ops->ctx, p->fp64, p->m, p->n, p->k, r->a, r->b,
			  r->c);
	else
		ops->stream(ops->ctx, p->kernel, p->elems, r->sa, r->sb,
			    r->sc);
}

/* The time of one call, averaged over a batch of iters. */
static double time_batch(struct runner *r, const struct point *p,
			 int64_t iters)
{
	double t0 = r->ops->now(r->ops->ctx);
	int64_t i;

	for (i = 0; i < iters; i++)
		call(r, p);
	return (r->ops->now(r->ops->ctx) - t0) / (double)iters;
}

static int measure(struct runner *r, const struct point *p)
{
	const char *bench = p->bench == CAL_BENCH_GEMM ? "gemm" : "stream";
	const char *unit = p->bench == CAL_BENCH_GEMM ? "s" : "B/s";
	double v[CAL_RUN_MAX_REPS], best = 0, t;
	int64_t iters = 1;
	int rep;

	if (p->bench == CAL_BENCH_GEMM)
		r->ops->blas_threads(r->ops->ctx, p->threads);
	t = time_batch(r, p, 1);
	if (t < r->z->min_batch_s)
		iters = t > 0 && r->z->min_batch_s / t < MAX_ITERS ?
			(int64_t)ceil(r->z->min_batch_s / t) : MAX_ITERS;
	for (rep = 0; rep < r->z->reps; rep++) {
		if (stop_asked(r)) {
			/* a long point (4096^3) is not waited for: its
			 * repetitions so far are dropped, whole points kept */
			r->n_batch -= rep;
			r->stopped = 1;
			return DLSIM_OK;
		}
		t = time_batch(r, p, iters);
		if (!(t > 0) || !isfinite(t))
			return dlsim_err_set(r->err, DLSIM_EIO, "%s %s: the "
					     "clock did not advance", bench,
					     p->params);
		v[rep] = p->bench == CAL_BENCH_GEMM ? t : p->bytes / t;
		add(r, bench, p->params, rep, v[rep], unit);
		if (v[rep] > best)
			best = v[rep];
	}
	add(r, bench, p->params, -1, p->bench == CAL_BENCH_GEMM ?
	    median(v, r->z->reps) : best, unit);
	return point_done(r, p->params);
}

static void fill(void *buf, int64_t n, int fp64)
{
	int64_t i;

	for (i = 0; i < n; i++) {
		double x = 1.0 / (double)(1 + i % 7);

		if (fp64)
			((double *)buf)[i] = x;
		else
			((float *)buf)[i] = (float)x;
	}
}

/* Buffers for every point: gemm's as doubles, big enough for floats. */
static int alloc_buffers(struct runner *r, const struct point *p, int n)
{
	int64_t ma = 0, mb = 0, mc = 0, ms = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (p[i].bench == CAL_BENCH_GEMM) {
			int64_t m = p[i].m, nn = p[i].n, k = p[i].k;

			ma = m * k > ma ? m * k : ma;
			mb = k * nn > mb ? k * nn : mb;
			mc = m * nn > mc ? m * nn : mc;
		} else if (p[i].elems > ms) {
			ms = p[i].elems;
		}
	}
	if (ma && (!(r->a = malloc((size_t)ma * 8)) ||
		   !(r->b = malloc((size_t)mb * 8)) ||
		   !(r->c = malloc((size_t)mc * 8))))
		return dlsim_err_set(r->err, DLSIM_ENOMEM, "gemm: cannot "
				     "allocate %lld MiB of matrices",
				     (long long)((ma + mb + mc) * 8 >> 20));
	if (ma) {
		fill(r->a, ma, 1);
		fill(r->b, mb, 1);
		fill(r->c, mc, 1);
	}
	if (ms && (!(r->sa = malloc((size_t)ms * 8)) ||
		   !(r->sb = malloc((size_t)ms * 8)) ||
		   !(r->sc = malloc((size_t)ms * 8))))
		return dlsim_err_set(r->err, DLSIM_ENOMEM, "stream: cannot "
				     "allocate 3 arrays of %lld MiB",
				     (long long)(ms * 8 >> 20));
	if (ms) {
		/* stream.c's start values; touching every page now keeps
		 * page faults out of the timings */
		for (i = 0; i < 3; i++) {
			double *x = i == 0 ? r->sa : i == 1 ? r->sb : r->sc;
			double v = i == 0 ? 1.0 : i == 1 ? 2.0 : 0.0;
			int64_t j;

			for (j = 0; j < ms; j++)
				x[j] = v;
		}
	}
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* MPI                                                               */
/* ---------------------------------------------------------------- */

/* A group is whole: its repetitions and their median go in the batch. */
static int group_done(struct runner *r)
{
	double v[CAL_RUN_MAX_REPS];
	int i;

	for (i = 0; i < r->g.n; i++) {
		const struct db_sample *s = &r->g.s[i];

		add(r, s->benchmark, s->params, i, s->value, s->unit);
		v[i] = s->value;
	}
	add(r, r->g.s[0].benchmark, r->g.s[0].params, -1, median(v, r->g.n),
	    r->g.s[0].unit);
	r->g.n = 0;
	return point_done(r, r->g.s[0].params);
}

static int mpi_line(void *ctx, const char *text)
{
	struct runner *r = ctx;
	struct db_sample s;
	int is_sample;

	if (stop_asked(r)) {
		r->stopped = 1;
		return 1;
	}
	if ((r->rc = cal_mpi_parse_line(text, &s, &is_sample, r->err)))
		return 1;
	if (!is_sample)
		return 0;
	if (r->g.n > 0 && (strcmp(s.benchmark, r->g.s[0].benchmark) != 0 ||
			   strcmp(s.params, r->g.s[0].params) != 0)) {
		r->rc = dlsim_err_set(r->err, DLSIM_EPARSE, "dlsim-mpibench: "
				      "%s %s after %d of %d repetitions of "
				      "%s %s", s.benchmark, s.params, r->g.n,
				      r->z->reps, r->g.s[0].benchmark,
				      r->g.s[0].params);
		return 1;
	}
	r->g.s[r->g.n++] = s;
	if (r->g.n == r->z->reps && (r->rc = group_done(r)))
		return 1;
	return 0;
}

static int run_mpi(struct runner *r, unsigned only)
{
	char mpirun[1024], maxb[32], reps[16], itb[32], maxit[32];
	const char *which = (only & (1u << CAL_BENCH_P2P)) &&
			    (only & (1u << CAL_BENCH_ALLREDUCE)) ?
			    "p2p,allreduce" : (only & (1u << CAL_BENCH_P2P)) ?
			    "p2p" : "allreduce";
	char *argv[16];
	int rc, n = 0;

	snprintf(maxb, sizeof(maxb), "%lld", (long long)r->z->mpi_max_bytes);
	snprintf(reps, sizeof(reps), "%d", r->z->reps);
	snprintf(itb, sizeof(itb), "%lld", (long long)r->z->mpi_iters_bytes);
	snprintf(maxit, sizeof(maxit), "%lld",
		 (long long)r->z->mpi_max_iters);
	cal_mpi_find_program(r->o->mpirun ? r->o->mpirun : "mpirun", mpirun,
			     sizeof(mpirun));
	argv[n++] = mpirun;
	argv[n++] = (char *)"-np";
	argv[n++] = (char *)"2";
	argv[n++] = (char *)"--oversubscribe";
	argv[n++] = (char *)r->o->mpibench;
	argv[n++] = (char *)"--only";
	argv[n++] = (char *)which;
	argv[n++] = (char *)"--max-bytes";
	argv[n++] = maxb;
	argv[n++] = (char *)"--reps";
	argv[n++] = reps;
	argv[n++] = (char *)"--iters-bytes";
	argv[n++] = itb;
	argv[n++] = (char *)"--max-iters";
	argv[n++] = maxit;
	argv[n] = NULL;
	r->rc = DLSIM_OK;
	rc = r->ops->spawn(r->ops->ctx, argv, mpi_line, r, r->err);
	if (r->rc)
		return r->rc;
	if (rc)
		return rc;
	if (!r->stopped && r->g.n > 0)
		return dlsim_err_set(r->err, DLSIM_EPARSE, "dlsim-mpibench: "
				     "ended after %d of %d repetitions of %s "
				     "%s", r->g.n, r->z->reps,
				     r->g.s[0].benchmark, r->g.s[0].params);
	return DLSIM_OK;
}

/* Whether MPI can run: mpirun and dlsim-mpibench both found. */
static int mpi_ready(const struct runner *r)
{
	char path[1024];

	if (!cal_mpi_find_program(r->o->mpirun ? r->o->mpirun : "mpirun",
				  path, sizeof(path))) {
		note(r, "p2p and allreduce skipped: %s not found (Debian: "
		     "openmpi-bin)", r->o->mpirun ? r->o->mpirun : "mpirun");
		return 0;
	}
	if (!r->o->mpibench || access(r->o->mpibench, X_OK) != 0) {
		note(r, "p2p and allreduce skipped: %s not found (make "
		     "builds it beside dlsim)", r->o->mpibench ?
		     r->o->mpibench : "dlsim-mpibench");
		return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

const struct cal_run_ops *cal_run_real_ops(void)
{
	return &real_ops;
}

int cal_bench_parse(const char *list, unsigned *mask,
		    struct dlsim_err *err)
{
	unsigned m = 0;
	const char *p = list;

	if (!list || !list[0])
		return dlsim_err_set(err, DLSIM_EINVAL, "--only: empty list "
				     "(expected gemm, stream, p2p, "
				     "allreduce)");
	for (;;) {
		size_t len = strcspn(p, ",");
		char word[32];
		int i;

		if (len == 0)
			return dlsim_err_set(err, DLSIM_EINVAL, "--only: "
					     "empty item in '%s'", list);
		snprintf(word, sizeof(word), "%.*s", (int)(len < 31 ? len :
							   31), p);
		if (len >= sizeof(word) ||
		    (i = core_name_index(bench_names, word)) < 0)
			return dlsim_err_set(err, DLSIM_ENOTFOUND, "--only: "
					     "unknown benchmark '%.*s' "
					     "(expected gemm, stream, p2p, "
					     "allreduce)", (int)(len < 64 ?
								 len : 64), p);
		m |= 1u << i;
		p += len;
		if (!*p)
			break;
		p++;
	}
	*mask = m;
	return DLSIM_OK;
}

int cal_run(struct db *db, const struct cal_run_opts *o,
	    struct cal_run_result *out, struct dlsim_err *err)
{
	return cal_run_with(db, o, &real_ops, out, err);
}

int cal_run_with(struct db *db, const struct cal_run_opts *o,
		 const struct cal_run_ops *ops, struct cal_run_result *out,
		 struct dlsim_err *err)
{
	unsigned only = o->only ? o->only : CAL_BENCH_ALL;
	const char *hw = o->hw ? o->hw : "local";
	struct runner *r = NULL;
	struct point *p = NULL;
	struct db_host h;
	struct db_run run;
	int64_t host_id = 0, top = 0;
	int n = 0, i, rc, want_mpi, fin;
	double t0;

	memset(out, 0, sizeof(*out));
	/* the rule import's names follow: fits are found by them */
	if (cal_hw_name_check(hw, err))
		return DLSIM_EINVAL;
	if (!(r = calloc(1, sizeof(*r))) ||
	    !(p = calloc(MAX_POINTS, sizeof(*p)))) {
		free(r);
		return dlsim_err_set(err, DLSIM_ENOMEM, "calibrate run: out "
				     "of memory");
	}
	r->db = db;
	r->o = o;
	r->ops = ops;
	r->err = err;
	r->z = o->tiny ? &tiny_sizes : o->quick ? &quick_sizes : &full_sizes;
	t0 = ops->now(ops->ctx);

	/* plan */
	if (only & (1u << CAL_BENCH_GEMM))
		n += gemm_plan(r, p + n, MAX_POINTS - n);
	if (only & (1u << CAL_BENCH_STREAM)) {
		top = stream_top(r);
		n += stream_plan(r, top, p + n, MAX_POINTS - n);
	}
	want_mpi = (only & ((1u << CAL_BENCH_P2P) |
			    (1u << CAL_BENCH_ALLREDUCE))) && mpi_ready(r);
	r->total = n;
	if (want_mpi)
		r->total += mpi_sizes(r) *
			    ((only & (1u << CAL_BENCH_P2P) ? 2 : 0) +
			     (only & (1u << CAL_BENCH_ALLREDUCE) ? 1 : 0));
	if ((rc = alloc_buffers(r, p, n)))
		goto cleanup;

	/* the host and the run row */
	cal_run_host(r->ops, hw, &h);
	if ((rc = db_host_upsert(db, &h, &host_id, err)))
		goto cleanup;
	memset(&run, 0, sizeof(run));
	run.host_id = host_id;
	core_strlcpy(run.tool, "calibrate", sizeof(run.tool));
	core_strlcpy(run.cmdline, o->cmdline ? o->cmdline : "",
		     sizeof(run.cmdline));
	run.start_s = wall_s();
	core_strlcpy(run.status, "running", sizeof(run.status));
	core_strlcpy(run.hw, hw, sizeof(run.hw));
	if ((rc = db_run_insert(db, &run, NULL, 0, err)))
		goto cleanup;
	r->run_id = out->run_id = run.id;
	progress(r, "starting");

	/* measure */
	for (i = 0; i < n && !rc && !r->stopped; i++) {
		if (stop_asked(r)) {
			r->stopped = 1;
			break;
		}
		rc = measure(r, &p[i]);
	}
	if (!rc && !r->stopped && want_mpi)
		rc = run_mpi(r, only);

	/* keep what was measured, and say how it ended */
	if (!rc)
		rc = flush(r);
	else
		flush(r);   /* a failure's own message is the one kept */
	core_strlcpy(out->status, rc ? "failed" : r->stopped ?
		     "interrupted" : "done", sizeof(out->status));
	fin = db_run_finish(db, r->run_id, out->status, wall_s(),
			    rc ? NULL : err);
	if (!rc)
		rc = fin;
	out->n_samples = r->stored;
	out->elapsed_s = ops->now(ops->ctx) - t0;
cleanup:
	free(r->a);
	free(r->b);
	free(r->c);
	free(r->sa);
	free(r->sb);
	free(r->sc);
	free(r);
	free(p);
	return rc;
}
