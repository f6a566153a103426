/*
 * test_calrun.c -- `dlsim calibrate run` (calibrate/cal_run*.c): the
 * runner with a fake clock, fake kernels and a fake mpirun through its
 * table of function pointers (sample counts, medians and bests, params
 * strings, batches), the interruption path, MPI skipped or read, --only
 * parsing and its errors, and one real tiny run through the CLI.
 *
 * Hand values: with DLSIM_CALIBRATE_TINY sizes every point is one
 * warm-up call and 2 repetitions, so 3 calls; the fake kernels advance
 * the fake clock by 5, 1 and 3 ms on the three calls of a point, so each
 * gemm repetition is 1 and 3 ms, their median 2 ms, and a stream
 * repetition moves bytes in 1 or 3 ms, the best bytes / 1 ms.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
#include "db_util.h"
#include "dlsim.h"
#include "calibrate/cal_run.h"

/* ---------------------------------------------------------------- */
/* Fakes                                                             */
/* ---------------------------------------------------------------- */

struct fake {
	double t;               /* the fake clock, s */
	int64_t calls;
	int64_t stop_after;     /* set *stop on this call (0: never) */
	volatile sig_atomic_t *stop;
	const char *const *lines;  /* what the fake mpirun prints */
	char argv0[256], argv_all[1024];
	int threads_set;
};

static const double step_s[3] = { 5e-3, 1e-3, 3e-3 };

static double f_now(void *ctx)
{
	return ((struct fake *)ctx)->t;
}

static int f_cores(void *ctx)
{
	(void)ctx;
	return 2;
}

static int64_t f_llc(void *ctx, char *src, size_t n)
{
	(void)ctx;
	snprintf(src, n, "fake");
	return 1 << 20;
}

static const char *f_config(void *ctx)
{
	(void)ctx;
	return "FakeBLAS 1.0";
}

static void f_threads(void *ctx, int threads)
{
	((struct fake *)ctx)->threads_set = threads;
}

static void tick(struct fake *f)
{
	f->t += step_s[f->calls % 3];
	f->calls++;
	if (f->stop_after && f->calls == f->stop_after)
		*f->stop = 1;
}

static void f_gemm(void *ctx, int fp64, int m, int n, int k, const void *a,
		   const void *b, void *c)
{
	(void)fp64, (void)m, (void)n, (void)k, (void)a, (void)b, (void)c;
	tick(ctx);
}

static void f_stream(void *ctx, enum cal_stream_kernel kernel, int64_t n,
		     double *a, double *b, double *c)
{
	(void)kernel, (void)n, (void)a, (void)b, (void)c;
	tick(ctx);
}

static int f_spawn(void *ctx, char *const argv[],
		   int (*line)(void *lctx, const char *text), void *lctx,
		   struct dlsim_err *err)
{
	struct fake *f = ctx;
	size_t used = 0;
	int i;

	(void)err;
	snprintf(f->argv0, sizeof(f->argv0), "%s", argv[0]);
	for (i = 0; argv[i]; i++)
		used += (size_t)snprintf(f->argv_all + used,
					 sizeof(f->argv_all) - used, " %s",
					 argv[i]);
	for (i = 0; f->lines && f->lines[i]; i++)
		if (line(lctx, f->lines[i]))
			break;
	return DLSIM_OK;
}

static struct cal_run_ops fake_ops(struct fake *f)
{
	struct cal_run_ops o = {
		f_now, f_cores, f_llc, f_config, f_threads, f_gemm, f_stream,
		f_spawn, NULL
	};

	o.ctx = f;
	return o;
}

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

struct tmpdb {
	char dir[64], path[96];
	struct db *db;
};

static void tmpdb_open(struct tmpdb *t)
{
	struct dlsim_err err = { 0, "" };

	snprintf(t->dir, sizeof(t->dir), "/tmp/dlsim-calrun-XXXXXX");
	ck_assert(mkdtemp(t->dir) != NULL);
	snprintf(t->path, sizeof(t->path), "%s/r.db", t->dir);
	ck_assert_msg(db_open(t->path, &t->db, &err) == DLSIM_OK, "%s",
		      err.msg);
}

static void tmpdb_close(struct tmpdb *t)
{
	db_close(t->db);
	dir_remove(t->dir);
}

#define MAX_SEEN 256

struct seen {
	struct db_sample s[MAX_SEEN];
	int n;
};

static int see(void *ctx, int64_t run_id, const struct db_sample *s)
{
	struct seen *v = ctx;

	(void)run_id;
	if (v->n < MAX_SEEN)
		v->s[v->n] = *s;
	v->n++;
	return 0;
}

static void samples_of(struct db *db, int64_t run_id, struct seen *v)
{
	struct dlsim_err err = { 0, "" };

	memset(v, 0, sizeof(*v));
	ck_assert_int_eq(db_each_sample(db, run_id, see, v, &err), DLSIM_OK);
}

static struct cal_run_opts tiny_opts(unsigned only)
{
	struct cal_run_opts o;

	memset(&o, 0, sizeof(o));
	o.tiny = 1;
	o.only = only;
	o.hw = "local";
	o.cmdline = "dlsim calibrate run (test)";
	o.mpirun = "/nonexistent/mpirun";
	return o;
}

static void notes(void *ctx, const char *msg)
{
	char *buf = ctx;
	size_t used = strlen(buf);

	snprintf(buf + used, 1024 - used, "%s\n", msg);
}

/* ---------------------------------------------------------------- */
/* The runner                                                        */
/* ---------------------------------------------------------------- */

/* tiny gemm: shapes 8^3, 16^3, 16x4x16; fp32, fp64; 1 and 2 threads:
 * 12 points; stream: 16 and 64 KiB x 4 kernels: 8 points; 3 samples
 * each (2 repetitions and the summary). */
START_TEST(calrun_fake_gemm_stream_counts_medians_params)
{
	struct dlsim_err err = { 0, "" };
	struct fake f = { 0 };
	struct cal_run_ops ops = fake_ops(&f);
	struct cal_run_opts o = tiny_opts((1u << CAL_BENCH_GEMM) |
					  (1u << CAL_BENCH_STREAM));
	struct cal_run_result res;
	struct db_run run;
	struct tmpdb t;
	struct seen v;
	int i;

	tmpdb_open(&t);
	ck_assert_msg(cal_run_with(t.db, &o, &ops, &res, &err) == DLSIM_OK,
		      "%s", err.msg);
	ck_assert_str_eq(res.status, "done");
	ck_assert_int_eq(res.n_samples, 60);
	ck_assert_int_eq(f.calls, 60);
	ck_assert_rel(res.elapsed_s, 20 * 9e-3, 1e-9);
	ck_assert_int_eq(db_run_get(t.db, res.run_id, &run, &err), DLSIM_OK);
	ck_assert_str_eq(run.status, "done");
	ck_assert_str_eq(run.tool, "calibrate");
	ck_assert_str_eq(run.hw, "local");
	ck_assert_int_eq(run.n_samples, 60);
	ck_assert(run.end_s >= run.start_s);
	samples_of(t.db, res.run_id, &v);
	ck_assert_int_eq(v.n, 60);
	ck_assert_str_eq(v.s[0].benchmark, "gemm");
	ck_assert_str_eq(v.s[0].params, "m=8 n=8 k=8 dtype=fp32 threads=1");
	ck_assert_str_eq(v.s[0].unit, "s");
	ck_assert_int_eq(v.s[0].rep, 0);
	ck_assert_int_eq(v.s[1].rep, 1);
	ck_assert_int_eq(v.s[2].rep, -1);
	ck_assert_rel(v.s[0].value, 1e-3, 1e-9);
	ck_assert_rel(v.s[1].value, 3e-3, 1e-9);
	ck_assert_rel(v.s[2].value, 2e-3, 1e-9);    /* median of 1, 3 ms */
	ck_assert_str_eq(v.s[6].params, "m=16 n=4 k=16 dtype=fp32 threads=1");
	ck_assert_str_eq(v.s[9].params, "m=8 n=8 k=8 dtype=fp32 threads=2");
	ck_assert_str_eq(v.s[18].params, "m=8 n=8 k=8 dtype=fp64 threads=1");
	/* stream starts after 12 gemm points: copy of 16 KiB = 2 arrays of
	 * 1024 doubles; add of 3 arrays of 682 doubles = 16368 bytes */
	ck_assert_str_eq(v.s[36].benchmark, "stream");
	ck_assert_str_eq(v.s[36].params,
			 "bytes=16384 kernel=copy threads=1");
	ck_assert_str_eq(v.s[36].unit, "B/s");
	ck_assert_rel(v.s[36].value, 16384 / 1e-3, 1e-9);
	ck_assert_rel(v.s[37].value, 16384 / 3e-3, 1e-9);
	ck_assert_rel(v.s[38].value, 16384 / 1e-3, 1e-9);   /* the best */
	ck_assert_str_eq(v.s[42].params, "bytes=16368 kernel=add threads=1");
	ck_assert_str_eq(v.s[57].params,
			 "bytes=65520 kernel=triad threads=1");
	for (i = 0; i < v.n; i++)
		ck_assert(v.s[i].value > 0 && isfinite(v.s[i].value));
	tmpdb_close(&t);
}
END_TEST

/* Stop set during the last call of point k: k whole points kept. */
START_TEST(calrun_interrupted_keeps_k_points)
{
	struct dlsim_err err = { 0, "" };
	volatile sig_atomic_t stop = 0;
	struct fake f = { 0 };
	struct cal_run_ops ops = fake_ops(&f);
	struct cal_run_opts o = tiny_opts(CAL_BENCH_ALL);
	struct cal_run_result res;
	struct db_run run;
	struct tmpdb t;
	struct seen v;
	const int k = 5;

	f.stop = &stop;
	f.stop_after = 3 * k;
	o.stop = &stop;
	tmpdb_open(&t);
	ck_assert_msg(cal_run_with(t.db, &o, &ops, &res, &err) == DLSIM_OK,
		      "%s", err.msg);
	ck_assert_str_eq(res.status, "interrupted");
	ck_assert_int_eq(res.n_samples, 3 * k);
	ck_assert_int_eq(f.calls, 3 * k);
	ck_assert_int_eq(db_run_get(t.db, res.run_id, &run, &err), DLSIM_OK);
	ck_assert_str_eq(run.status, "interrupted");
	ck_assert_int_eq(run.n_samples, 3 * k);
	samples_of(t.db, res.run_id, &v);
	ck_assert_int_eq(v.n, 3 * k);
	ck_assert_int_eq(v.s[3 * k - 1].rep, -1);
	tmpdb_close(&t);
}
END_TEST

/* Stop set during point k + 1 (its warm-up and first repetition): that
 * point is dropped, the k before it kept. */
START_TEST(calrun_interrupted_mid_point_drops_that_point)
{
	struct dlsim_err err = { 0, "" };
	volatile sig_atomic_t stop = 0;
	struct fake f = { 0 };
	struct cal_run_ops ops = fake_ops(&f);
	struct cal_run_opts o = tiny_opts(CAL_BENCH_ALL);
	struct cal_run_result res;
	struct tmpdb t;
	const int k = 4;

	f.stop = &stop;
	f.stop_after = 3 * k + 2;
	o.stop = &stop;
	tmpdb_open(&t);
	ck_assert_int_eq(cal_run_with(t.db, &o, &ops, &res, &err), DLSIM_OK);
	ck_assert_str_eq(res.status, "interrupted");
	ck_assert_int_eq(res.n_samples, 3 * k);
	ck_assert_int_eq(f.calls, 3 * k + 2);
	tmpdb_close(&t);
}
END_TEST

/* Stop before anything: a run with no samples, interrupted. */
START_TEST(calrun_interrupted_before_the_first_point)
{
	struct dlsim_err err = { 0, "" };
	volatile sig_atomic_t stop = 1;
	struct fake f = { 0 };
	struct cal_run_ops ops = fake_ops(&f);
	struct cal_run_opts o = tiny_opts(CAL_BENCH_ALL);
	struct cal_run_result res;
	struct tmpdb t;

	o.stop = &stop;
	tmpdb_open(&t);
	ck_assert_int_eq(cal_run_with(t.db, &o, &ops, &res, &err), DLSIM_OK);
	ck_assert_str_eq(res.status, "interrupted");
	ck_assert_int_eq(res.n_samples, 0);
	ck_assert_int_eq(f.calls, 0);
	tmpdb_close(&t);
}
END_TEST

/* No mpirun: p2p and allreduce are skipped with a note, not an error. */
START_TEST(calrun_mpi_missing_is_a_note)
{
	struct dlsim_err err = { 0, "" };
	struct fake f = { 0 };
	struct cal_run_ops ops = fake_ops(&f);
	struct cal_run_opts o = tiny_opts((1u << CAL_BENCH_P2P) |
					  (1u << CAL_BENCH_ALLREDUCE));
	struct cal_run_result res;
	char buf[1024] = "";
	struct tmpdb t;

	o.note = notes;
	o.note_ctx = buf;
	tmpdb_open(&t);
	ck_assert_int_eq(cal_run_with(t.db, &o, &ops, &res, &err), DLSIM_OK);
	ck_assert_str_eq(res.status, "done");
	ck_assert_int_eq(res.n_samples, 0);
	ck_assert_msg(strstr(buf, "p2p and allreduce skipped: "
			     "/nonexistent/mpirun not found") != NULL, "%s",
		      buf);
	ck_assert_str_eq(f.argv0, "");
	tmpdb_close(&t);
}
END_TEST

/* The fake mpirun's lines: noise skipped, each point's repetitions and
 * their median stored; the command line as documented. */
START_TEST(calrun_mpi_lines_grouped_with_median)
{
	static const char *const lines[] = {
		"Warning: something mpirun says",
		"sample p2p_latency 0 3e-06 s bytes=8 ranks=2 dtype=int8",
		"sample p2p_latency 1 1e-06 s bytes=8 ranks=2 dtype=int8",
		"sample allreduce 0 2e-06 s bytes=8 ranks=2 op=sum inplace=0 "
		"dtype=fp32",
		"sample allreduce 1 4e-06 s bytes=8 ranks=2 op=sum inplace=0 "
		"dtype=fp32",
		NULL
	};
	struct dlsim_err err = { 0, "" };
	struct fake f = { 0 };
	struct cal_run_ops ops = fake_ops(&f);
	struct cal_run_opts o = tiny_opts((1u << CAL_BENCH_P2P) |
					  (1u << CAL_BENCH_ALLREDUCE));
	struct cal_run_result res;
	struct tmpdb t;
	struct seen v;

	f.lines = lines;
	o.mpirun = "/bin/sh";
	o.mpibench = "/bin/sh";
	tmpdb_open(&t);
	ck_assert_msg(cal_run_with(t.db, &o, &ops, &res, &err) == DLSIM_OK,
		      "%s", err.msg);
	ck_assert_str_eq(f.argv0, "/bin/sh");
	ck_assert_msg(strstr(f.argv_all, " -np 2 --oversubscribe /bin/sh "
			     "--only p2p,allreduce --max-bytes 64 --reps 2")
		      != NULL, "%s", f.argv_all);
	ck_assert_int_eq(res.n_samples, 6);
	samples_of(t.db, res.run_id, &v);
	ck_assert_str_eq(v.s[0].benchmark, "p2p_latency");
	ck_assert_str_eq(v.s[0].params, "bytes=8 ranks=2 dtype=int8");
	ck_assert_int_eq(v.s[2].rep, -1);
	ck_assert_rel(v.s[2].value, 2e-6, 1e-12);
	ck_assert_str_eq(v.s[3].benchmark, "allreduce");
	ck_assert_str_eq(v.s[5].params,
			 "bytes=8 ranks=2 op=sum inplace=0 dtype=fp32");
	ck_assert_rel(v.s[5].value, 3e-6, 1e-12);
	tmpdb_close(&t);
}
END_TEST

START_TEST(calrun_mpi_damaged_line_fails_the_run)
{
	static const char *const lines[] = {
		"sample p2p_latency 0 3e-06 s bytes=8 ranks=2 dtype=int8",
		"sample p2p_latency 1 1e-06 s bytes=8 ranks=2 dtype=int8",
		"sample p2p_bw zero nan B/s bytes=8",
		NULL
	};
	struct dlsim_err err = { 0, "" };
	struct fake f = { 0 };
	struct cal_run_ops ops = fake_ops(&f);
	struct cal_run_opts o = tiny_opts(1u << CAL_BENCH_P2P);
	struct cal_run_result res;
	struct db_run run;
	struct tmpdb t;

	f.lines = lines;
	o.mpirun = "/bin/sh";
	o.mpibench = "/bin/sh";
	tmpdb_open(&t);
	ck_assert_int_eq(cal_run_with(t.db, &o, &ops, &res, &err),
			 DLSIM_EPARSE);
	ck_assert(strstr(err.msg, "damaged line 'sample p2p_bw") != NULL);
	ck_assert_str_eq(res.status, "failed");
	ck_assert_int_eq(db_run_get(t.db, res.run_id, &run, &err), DLSIM_OK);
	ck_assert_str_eq(run.status, "failed");
	ck_assert_int_eq(run.n_samples, 3);     /* the whole first point */
	tmpdb_close(&t);
}
END_TEST

START_TEST(calrun_bad_hw_refused_before_anything)
{
	struct dlsim_err err = { 0, "" };
	struct fake f = { 0 };
	struct cal_run_ops ops = fake_ops(&f);
	struct cal_run_opts o = tiny_opts(CAL_BENCH_ALL);
	struct cal_run_result res;
	struct db_info info;
	struct tmpdb t;

	o.hw = "two words";
	tmpdb_open(&t);
	ck_assert_int_eq(cal_run_with(t.db, &o, &ops, &res, &err),
			 DLSIM_EINVAL);
	/* import's rule: the catalog's names are lowercase */
	o.hw = "V100";
	ck_assert_int_eq(cal_run_with(t.db, &o, &ops, &res, &err),
			 DLSIM_EINVAL);
	ck_assert_int_eq(res.run_id, 0);
	ck_assert_int_eq(db_info(t.db, &info, &err), DLSIM_OK);
	ck_assert_int_eq(info.runs, 0);
	tmpdb_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* --only                                                            */
/* ---------------------------------------------------------------- */

START_TEST(calrun_only_parses_lists_and_refuses_the_rest)
{
	struct dlsim_err err = { 0, "" };
	unsigned m = 99;

	ck_assert_int_eq(cal_bench_parse("gemm", &m, &err), DLSIM_OK);
	ck_assert_uint_eq(m, 1u << CAL_BENCH_GEMM);
	ck_assert_int_eq(cal_bench_parse("allreduce,stream", &m, &err),
			 DLSIM_OK);
	ck_assert_uint_eq(m, (1u << CAL_BENCH_ALLREDUCE) |
			  (1u << CAL_BENCH_STREAM));
	ck_assert_int_eq(cal_bench_parse("gemm,stream,p2p,allreduce", &m,
					 &err), DLSIM_OK);
	ck_assert_uint_eq(m, CAL_BENCH_ALL);
	m = 7;
	ck_assert_int_eq(cal_bench_parse("gemm,nccl", &m, &err),
			 DLSIM_ENOTFOUND);
	ck_assert(strstr(err.msg, "unknown benchmark 'nccl'") != NULL);
	ck_assert_uint_eq(m, 7);
	ck_assert_int_eq(cal_bench_parse("gemm,", &m, &err), DLSIM_EINVAL);
	ck_assert_int_eq(cal_bench_parse("", &m, &err), DLSIM_EINVAL);
	ck_assert_int_eq(cal_bench_parse(",gemm", &m, &err), DLSIM_EINVAL);
	ck_assert_uint_eq(m, 7);
}
END_TEST

START_TEST(calrun_cli_errors)
{
	struct run r;

	run(&r, "calibrate run --only gemm,frob");
	assert_one_error(&r, 2, "unknown benchmark 'frob'");
	run(&r, "calibrate run --only gemm,,stream");
	assert_one_error(&r, 2, "empty item");
	run(&r, "calibrate run --frob");
	ck_assert_int_eq(r.status, 2);
	run(&r, "calibrate run extra");
	ck_assert_int_eq(r.status, 2);
	run(&r, "calibrate run --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "--quick") && strstr(r.out, "--only LIST") &&
		  strstr(r.out, "--hw NAME") && strstr(r.out, "--db PATH"));
}
END_TEST

/* ---------------------------------------------------------------- */
/* One real run                                                      */
/* ---------------------------------------------------------------- */

/* The real kernels and clock at tiny sizes (DLSIM_CALIBRATE_TINY=1):
 * 8 stream points of 3 samples, no progress bar (stderr is a file). */
START_TEST(calrun_cli_real_tiny_stream_into_temporary_db)
{
	char dir[] = "/tmp/dlsim-calrun-XXXXXX", args[256], db[96];
	struct dlsim_err err = { 0, "" };
	struct db *h = NULL;
	struct run r;
	struct seen v;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(db, sizeof(db), "%s/c.db", dir);
	snprintf(args, sizeof(args), "calibrate run --quick --only stream "
		 "--db %s", db);
	setenv("DLSIM_CALIBRATE_TINY", "1", 1);
	run(&r, args);
	unsetenv("DLSIM_CALIBRATE_TINY");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "stored 24 samples as run 1 (hardware "
			     "local)") != NULL, "%s", r.out);
	ck_assert_str_eq(r.err, "");
	ck_assert(db_open(db, &h, &err) == DLSIM_OK);
	samples_of(h, 1, &v);
	ck_assert_int_eq(v.n, 24);
	ck_assert_str_eq(v.s[0].params, "bytes=16384 kernel=copy threads=1");
	ck_assert(v.s[2].value >= v.s[0].value &&
		  v.s[2].value >= v.s[1].value);
	db_close(h);
	dir_remove(dir);
}
END_TEST

Suite *suite_calrun(void)
{
	Suite *s = suite_create("calrun");
	TCase *tc = tcase_create("calrun");

	tcase_add_test(tc, calrun_fake_gemm_stream_counts_medians_params);
	tcase_add_test(tc, calrun_interrupted_keeps_k_points);
	tcase_add_test(tc, calrun_interrupted_mid_point_drops_that_point);
	tcase_add_test(tc, calrun_interrupted_before_the_first_point);
	tcase_add_test(tc, calrun_mpi_missing_is_a_note);
	tcase_add_test(tc, calrun_mpi_lines_grouped_with_median);
	tcase_add_test(tc, calrun_mpi_damaged_line_fails_the_run);
	tcase_add_test(tc, calrun_bad_hw_refused_before_anything);
	tcase_add_test(tc, calrun_only_parses_lists_and_refuses_the_rest);
	tcase_add_test(tc, calrun_cli_errors);
	tcase_add_test(tc, calrun_cli_real_tiny_stream_into_temporary_db);
	suite_add_tcase(s, tc);
	return s;
}
