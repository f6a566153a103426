/*
 * test_seed.c -- seeding a database with the shipped calibration data
 * (calibrate/cal_seed.c): the runs and samples each file gives, the
 * fits that follow, idempotence, a damaged file storing nothing, and
 * `dlsim calibrate seed` with the automatic seed of a new default
 * database.  Every database here is a temporary one.
 *
 * The expected counts were taken by hand from data/calibration/ (a
 * sample per time cell that is not empty or N/A):
 *   deepbench_gemm.csv       160 rows per precision: v100 2 x 160,
 *                            p100 2 x 160, phi-7250 160 (time_ms)
 *   deepbench_conv.csv       94 rows per precision, three passes each
 *                            less the N/A cells: v100 544, p100 564,
 *                            phi-7250 273
 *   deepbench_allreduce.csv  p100 28, phi-7250 35 (mean_time_ms)
 *   vtrain_allreduce.csv     22 sizes x 7 GPU counts x 2 GPUs, two
 *                            samples (out of place, in place) per row:
 *                            7 runs of 44 per GPU
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
#include "db_util.h"
#include "hwcalib_util.h"
#include "dlsim.h"
#include "calibrate/cal.h"
#include "hw/hw.h"

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

/* Runs and samples per (tool, hw). */
struct tally {
	const char *tool, *hw;
	int64_t runs, samples;
};

static struct tally expected[] = {
	{ "seed:deepbench_gemm.csv", "v100", 1, 320 },
	{ "seed:deepbench_gemm.csv", "p100", 1, 320 },
	{ "seed:deepbench_gemm.csv", "phi-7250", 1, 160 },
	{ "seed:deepbench_conv.csv", "v100", 1, 544 },
	{ "seed:deepbench_conv.csv", "p100", 1, 564 },
	{ "seed:deepbench_conv.csv", "phi-7250", 1, 273 },
	{ "seed:deepbench_gemm.csv", "m40", 1, 160 },
	{ "seed:deepbench_gemm.csv", "t4", 1, 320 },
	{ "seed:deepbench_gemm.csv", "titan-x-maxwell", 1, 160 },
	{ "seed:deepbench_gemm.csv", "titan-x-pascal", 1, 160 },
	{ "seed:deepbench_gemm.csv", "titan-xp", 1, 160 },
	{ "seed:deepbench_gemm.csv", "gtx-1080-ti", 1, 160 },
	{ "seed:deepbench_conv.csv", "m40", 1, 272 },
	{ "seed:deepbench_conv.csv", "t4", 1, 544 },
	{ "seed:deepbench_conv.csv", "titan-x-maxwell", 1, 272 },
	{ "seed:deepbench_conv.csv", "titan-x-pascal", 1, 273 },
	{ "seed:deepbench_conv.csv", "titan-xp", 1, 282 },
	{ "seed:deepbench_conv.csv", "gtx-1080-ti", 1, 282 },
	{ "seed:deepbench_allreduce.csv", "deepbench-p100-ib", 1, 28 },
	{ "seed:deepbench_allreduce.csv", "stampede2-knl", 1, 35 },
	{ "seed:deepbench_rnn.csv", "v100", 1, 318 },
	{ "seed:deepbench_rnn.csv", "p100", 1, 265 },
	{ "seed:deepbench_rnn.csv", "m40", 1, 159 },
	{ "seed:deepbench_rnn.csv", "titan-x-maxwell", 1, 159 },
	{ "seed:deepbench_rnn.csv", "titan-x-pascal", 1, 159 },
	{ "seed:deepbench_rnn.csv", "titan-xp", 1, 159 },
	{ "seed:deepbench_rnn.csv", "gtx-1080-ti", 1, 159 },
	{ "seed:vtrain_allreduce.csv", "dgx-a100", 7, 308 },
	{ "seed:vtrain_allreduce.csv", "dgx1", 7, 308 },
	/* dlsim's own H100 runs: 92 shapes x 4 dtypes + 64 fp8 GEMMs; 90
	 * convolutions x 3 passes x 4 dtypes; STREAM's four kernels */
	{ "seed:h100_gemm.csv", "h100", 1, 432 },
	{ "seed:h100_conv.csv", "h100", 1, 1080 },
	{ "seed:h100_stream.txt", "h100", 1, 4 },
};

#define N_EXPECTED ((int)(sizeof(expected) / sizeof(expected[0])))
#define SEED_RUNS 44
#define SEED_SAMPLES 8799

struct count_ctx {
	struct tally got[N_EXPECTED];
	int other;
};

static int count_run(void *ctx, const struct db_run *r)
{
	struct count_ctx *c = ctx;

	for (int i = 0; i < N_EXPECTED; i++)
		if (!strcmp(r->tool, c->got[i].tool) &&
		    !strcmp(r->hw, c->got[i].hw)) {
			c->got[i].runs++;
			c->got[i].samples += r->n_samples;
			ck_assert_str_eq(r->status, "done");
			/* published data name repo@commit:path, dlsim's
			 * own runs the folder of their raw output */
			ck_assert_msg(strstr(r->source, "@") != NULL ||
				      strstr(r->source, "data/measurements/"),
				      "run %lld: source '%s' is no "
				      "repo@commit:path", (long long)r->id,
				      r->source);
			return 0;
		}
	c->other++;
	return 0;
}

static int count_fit(void *ctx, const struct db_fit *f)
{
	(void)f;
	(*(int *)ctx)++;
	return 0;
}

static int n_fits(struct db *db, const char *hw, const char *kind)
{
	struct dlsim_err err = { 0, "" };
	int n = 0;

	ck_assert_msg(db_each_fit(db, hw, kind, count_fit, &n, &err) == 0,
		      "%s", err.msg);
	return n;
}

static void info(struct db *db, struct db_info *i)
{
	struct dlsim_err err = { 0, "" };

	ck_assert_msg(db_info(db, i, &err) == DLSIM_OK, "%s", err.msg);
}

static void seed_ok(struct db *db, int64_t *runs, int64_t *samples)
{
	struct dlsim_err err = { 0, "" };

	ck_assert_msg(cal_seed(db, runs, samples, &err) == DLSIM_OK, "%s",
		      err.msg);
}

/* ---------------------------------------------------------------- */
/* Tests                                                             */
/* ---------------------------------------------------------------- */

START_TEST(test_seed_counts)
{
	struct count_ctx c;
	struct dlsim_err err = { 0, "" };
	struct tmpdb t;
	int64_t runs, samples;

	tmpdb_open(&t);
	seed_ok(t.db, &runs, &samples);
	ck_assert_int_eq(runs, SEED_RUNS);
	ck_assert_int_eq(samples, SEED_SAMPLES);
	memset(&c, 0, sizeof(c));
	for (int i = 0; i < N_EXPECTED; i++) {
		c.got[i].tool = expected[i].tool;
		c.got[i].hw = expected[i].hw;
	}
	ck_assert(db_each_run(t.db, count_run, &c, &err) == DLSIM_OK);
	ck_assert_int_eq(c.other, 0);
	for (int i = 0; i < N_EXPECTED; i++) {
		ck_assert_msg(c.got[i].runs == expected[i].runs &&
			      c.got[i].samples == expected[i].samples,
			      "%s %s: %lld runs, %lld samples; expected "
			      "%lld, %lld", expected[i].tool, expected[i].hw,
			      (long long)c.got[i].runs,
			      (long long)c.got[i].samples,
			      (long long)expected[i].runs,
			      (long long)expected[i].samples);
	}
	tmpdb_close(&t);
}
END_TEST

START_TEST(test_seed_fits)
{
	struct tmpdb t;
	int64_t runs, samples;

	tmpdb_open(&t);
	seed_ok(t.db, &runs, &samples);
	for (int i = 0; cal_seed_hw(i); i++)
		ck_assert_msg(n_fits(t.db, cal_seed_hw(i), NULL) > 0,
			      "no fits for %s", cal_seed_hw(i));
	ck_assert_int_eq(n_fits(t.db, "v100", "gemm:fp32"), 1);
	ck_assert_int_eq(n_fits(t.db, "v100", "gemm:fp16"), 1);
	ck_assert_int_eq(n_fits(t.db, "p100", "gemm:fp32"), 1);
	ck_assert_int_eq(n_fits(t.db, "phi-7250", "gemm:fp32"), 1);
	/* collectives under the machines that ran them, not the chips, one
	 * fit per implementation timed at that rank count: Intel MLSL on
	 * the KNLs; at 16 P100s Baidu's ring (3 sizes) and NCCL 2.0 over
	 * MPI (4 sizes) */
	ck_assert_int_eq(n_fits(t.db, "stampede2-knl",
				"alphabeta:allreduce:8"), 1);
	ck_assert_int_eq(n_fits(t.db, "phi-7250", "alphabeta:allreduce:8"),
			 0);
	ck_assert_int_eq(n_fits(t.db, "deepbench-p100-ib",
				"alphabeta:allreduce:16"), 2);
	/* vTrain: out of place and in place, for each GPU count. */
	ck_assert_int_eq(n_fits(t.db, "dgx-a100", "alphabeta:allreduce:8"), 2);
	ck_assert_int_eq(n_fits(t.db, "dgx-a100", "alphabeta:allreduce:2"), 2);
	ck_assert_int_eq(n_fits(t.db, "dgx1", "alphabeta:allreduce:8"), 2);
	ck_assert_int_eq(n_fits(t.db, "v100", "alphabeta:allreduce:8"), 0);
	ck_assert_int_eq(n_fits(t.db, "gtx-1080-ti", "gemm:fp32"), 1);
	ck_assert_int_eq(n_fits(t.db, "t4", "conv3x3:fp16"), 1);
	/* DeepBench's 1x1 convolutions are classes of their own */
	ck_assert_int_eq(n_fits(t.db, "m40", "conv1x1:fp32"), 1);
	ck_assert_int_eq(n_fits(t.db, "v100", "conv1x1:fp16"), 1);
	ck_assert_int_eq(n_fits(t.db, "v100", "conv1x1s:fp16"), 1);
	/* and so are its non-square windows (DeepSpeech's 5x20 and 5x10) */
	ck_assert_int_eq(n_fits(t.db, "v100", "conv_nonsquare:fp16"), 1);
	ck_assert_int_eq(n_fits(t.db, "v100", "conv_nonsquare:fp32"), 1);
	/* the H100's own: every precision it was timed in, the STREAM
	 * plateau (2 GiB arrays), and no bandwidth curve from one size */
	ck_assert_int_eq(n_fits(t.db, "h100", "gemm:tf32"), 1);
	ck_assert_int_eq(n_fits(t.db, "h100", "gemm:fp8"), 1);
	/* GEMMs off 16-byte rows: 21 of the 92 shapes in 16 bits */
	ck_assert_int_eq(n_fits(t.db, "h100", "gemm_unaligned:bf16"), 1);
	ck_assert_int_eq(n_fits(t.db, "h100", "gemm_unaligned:fp32"), 0);
	ck_assert_int_eq(n_fits(t.db, "h100", "conv3x3:bf16"), 1);
	ck_assert_int_eq(n_fits(t.db, "h100", "stream:triad"), 1);
	ck_assert_int_eq(n_fits(t.db, "h100", "bwcurve:triad"), 0);
	/* the 14 names of the table above, no more */
	ck_assert_ptr_nonnull(cal_seed_hw(13));
	ck_assert_ptr_null(cal_seed_hw(14));
	tmpdb_close(&t);
}
END_TEST

START_TEST(test_seed_twice)
{
	struct db_info a, b;
	struct tmpdb t;
	int64_t runs, samples;

	tmpdb_open(&t);
	seed_ok(t.db, &runs, &samples);
	info(t.db, &a);
	ck_assert_int_eq(a.runs, SEED_RUNS);
	ck_assert_int_eq(a.samples, SEED_SAMPLES);
	ck_assert_int_gt(a.fits, 0);
	seed_ok(t.db, &runs, &samples);
	ck_assert_int_eq(runs, 0);
	ck_assert_int_eq(samples, 0);
	info(t.db, &b);
	ck_assert_int_eq(b.runs, a.runs);
	ck_assert_int_eq(b.samples, a.samples);
	ck_assert_int_eq(b.fits, a.fits);
	tmpdb_close(&t);
}
END_TEST

/* A good file, then a damaged one: the whole seed stores nothing. */
START_TEST(test_seed_damaged_stores_nothing)
{
	static const char good[] =
		"gpu,num_gpus,size_bytes,count,type,time_oop_ns,"
		"busbw_oop_GBps,time_ip_ns,busbw_ip_GBps,source\n"
		"A100,2,1048576,262144,float,44210,23.72,45100,23.25,x@y:z\n";
	static const char bad_vtrain[] =
		"gpu,num_gpus,size_bytes,count,type,time_oop_ns,"
		"busbw_oop_GBps,time_ip_ns,busbw_ip_GBps,source\n"
		"A100,2,1048576,262144,float,44210,23.72,45100,23.25,x@y:z\n"
		"A100,2,2097152,524288,float,-5,39.25,51130,41.01,x@y:z\n";
	static const char bad_deepbench[] =
		"hardware,setting,sheet,precision,application,size_floats,"
		"ranks,mean_time_ms,reported_GBps,algorithm,std_ms,source\n"
		"NVIDIA Tesla P100,training,Results FP32,Float,,100000,2,"
		"0.09,8.8,NCCL,0,x@y:z\n"
		"NVIDIA Tesla P100,training,Results FP32,Float,,100000\n";
	static const char other_device[] =
		"hardware,setting,sheet,precision,application,size_floats,"
		"ranks,mean_time_ms,reported_GBps,algorithm,std_ms,source\n"
		"AMD MI25,training,Results FP32,Float,,100000,2,"
		"0.09,8.8,NCCL,0,x@y:z\n";
	/* a catalog GPU whose DeepBench machine is unknown: its all-reduce
	 * rows have nowhere to go */
	static const char no_machine[] =
		"hardware,setting,sheet,precision,application,size_floats,"
		"ranks,mean_time_ms,reported_GBps,algorithm,std_ms,source\n"
		"Nvidia TitanX,training,Results FP32,Float,,100000,2,"
		"0.09,8.8,NCCL,0,x@y:z\n";
	struct hw_builtin_file cases[][3] = {
		{ { "t/vtrain_good.csv", good, sizeof(good) - 1 },
		  { "t/vtrain_allreduce.csv", bad_vtrain,
		    sizeof(bad_vtrain) - 1 },
		  { NULL, NULL, 0 } },
		{ { "t/vtrain_good.csv", good, sizeof(good) - 1 },
		  { "t/deepbench_allreduce.csv", bad_deepbench,
		    sizeof(bad_deepbench) - 1 },
		  { NULL, NULL, 0 } },
		{ { "t/vtrain_good.csv", good, sizeof(good) - 1 },
		  { "t/deepbench_allreduce.csv", other_device,
		    sizeof(other_device) - 1 },
		  { NULL, NULL, 0 } },
		{ { "t/vtrain_good.csv", good, sizeof(good) - 1 },
		  { "t/deepbench_allreduce.csv", no_machine,
		    sizeof(no_machine) - 1 },
		  { NULL, NULL, 0 } },
	};
	static const char *const where[] = {
		"t/vtrain_allreduce.csv:3", "t/deepbench_allreduce.csv:3",
		"no catalog hardware", "no machine known",
	};
	struct dlsim_err err = { 0, "" };
	struct db_info i;
	struct tmpdb t;
	int64_t runs, samples;

	tmpdb_open(&t);
	for (int c = 0; c < 4; c++) {
		dlsim_err_clear(&err);
		ck_assert_int_eq(cal_seed_from(t.db, cases[c], &runs, &samples,
					       &err), DLSIM_EPARSE);
		ck_assert_msg(strstr(err.msg, where[c]) != NULL,
			      "case %d: '%s' lacks '%s'", c, err.msg,
			      where[c]);
		ck_assert_int_eq(runs, 0);
		ck_assert_int_eq(samples, 0);
		info(t.db, &i);
		ck_assert_int_eq(i.runs, 0);
		ck_assert_int_eq(i.samples, 0);
		ck_assert_int_eq(i.fits, 0);
	}
	/* The good file alone seeds: one dgx-a100 run of two samples. */
	cases[0][1] = (struct hw_builtin_file){ NULL, NULL, 0 };
	ck_assert_msg(cal_seed_from(t.db, cases[0], &runs, &samples, &err) ==
		      DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(runs, 1);
	ck_assert_int_eq(samples, 2);
	tmpdb_close(&t);
}
END_TEST

/* Runs per hardware name: v100 and titan-x-maxwell, anything else. */
struct hw_runs {
	int v100, titanx, other;
};

static int count_hw_run(void *ctx, const struct db_run *r)
{
	struct hw_runs *c = ctx;

	if (!strcmp(r->hw, "v100"))
		c->v100++;
	else if (!strcmp(r->hw, "titan-x-maxwell"))
		c->titanx++;
	else
		c->other++;
	return 0;
}

/*
 * A database seeded before a shipped file gained a device: seeding again
 * stores that device's run alone (1 run, its 1 sample, under
 * titan-x-maxwell; v100 keeps its one run), and a third time nothing.
 */
START_TEST(test_seed_adds_new_hardware_only)
{
#define GEMM_HEAD "hardware,setting,sheet,precision,application,M,N,K," \
	"transA,transB,time_ms,tflops,flops_unit,source\n"
#define GEMM_V100 "NVIDIA V100,training,Results FP32,Float,,1760,16," \
	"1760,N,N,0.038,2.6,TFLOPS,x@y:z\n"
	static const char old_file[] = GEMM_HEAD GEMM_V100;
	static const char new_file[] = GEMM_HEAD GEMM_V100
		"Nvidia TitanX,training,Results - FP32,Float,,1760,16,1760,N,"
		"N,0.182,0.54,TFLOPS,x@y:z\n";
	struct hw_builtin_file older[] = {
		{ "t/deepbench_gemm.csv", old_file, sizeof(old_file) - 1 },
		{ NULL, NULL, 0 } };
	struct hw_builtin_file newer[] = {
		{ "t/deepbench_gemm.csv", new_file, sizeof(new_file) - 1 },
		{ NULL, NULL, 0 } };
	struct hw_runs hw = { 0, 0, 0 };
	struct dlsim_err err = { 0, "" };
	struct tmpdb t;
	int64_t runs, samples;

	tmpdb_open(&t);
	ck_assert_msg(cal_seed_from(t.db, older, &runs, &samples, &err) ==
		      DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(runs, 1);
	ck_assert_msg(cal_seed_from(t.db, newer, &runs, &samples, &err) ==
		      DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(runs, 1);
	ck_assert_int_eq(samples, 1);
	ck_assert(db_each_run(t.db, count_hw_run, &hw, &err) == DLSIM_OK);
	ck_assert_int_eq(hw.v100, 1);
	ck_assert_int_eq(hw.titanx, 1);
	ck_assert_int_eq(hw.other, 0);
	ck_assert_msg(cal_seed_from(t.db, newer, &runs, &samples, &err) ==
		      DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(runs, 0);
	tmpdb_close(&t);
#undef GEMM_HEAD
#undef GEMM_V100
}
END_TEST

START_TEST(test_seed_cli)
{
	struct tmpdb t;
	struct run r;
	char args[256];

	tmpdb_seed_cli(&t, &r);
	ck_assert_msg(strstr(r.out, "44 runs, 8799 samples") != NULL, "%s",
		      r.out);
	snprintf(args, sizeof(args), "calibrate seed --db %s", t.path);
	ck_assert_msg(strstr(r.out, "phi-7250") != NULL, "%s", r.out);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "already seeded") != NULL, "%s", r.out);
	/* a P100 PCIe, which no seed measured, takes the SXM2's fits scaled
	 * by the two FP16 peaks (21.2 / 18.7 TFLOPS) and bandwidths (732 /
	 * 732 GB/s), and says so */
	snprintf(args, sizeof(args), "predict resnet50 --hw p100-pcie "
		 "--db %s", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "with the fits of p100 (time per FLOP x "
			     "1.134, per byte x 1.000)") != NULL, "%s", r.out);
	snprintf(args, sizeof(args), "predict resnet50 --hw p100-pcie "
		 "--db %s --format json", t.path);
	run(&r, args);
	ck_assert_rel(json_number(r.out, "flop_scale"), 21.2 / 18.7, 1e-5);
	ck_assert(json_number(r.out, "byte_scale") == 1.0);
	tmpdb_close(&t);
}
END_TEST

/* The default database in dir: no $DLSIM_DB, $XDG_DATA_HOME = dir, the
 * caller's values kept to be put back by default_env_end. */
struct default_env {
	char *dlsim_db, *xdg;
};

static void default_env_begin(struct default_env *e, const char *dir)
{
	e->dlsim_db = getenv("DLSIM_DB") ? strdup(getenv("DLSIM_DB")) : NULL;
	e->xdg = getenv("XDG_DATA_HOME") ? strdup(getenv("XDG_DATA_HOME"))
					 : NULL;
	unsetenv("DLSIM_DB");
	setenv("XDG_DATA_HOME", dir, 1);
}

static void default_env_end(struct default_env *e)
{
	if (e->dlsim_db)
		setenv("DLSIM_DB", e->dlsim_db, 1);
	/* with none before, XDG_DATA_HOME stays at the removed folder:
	 * no later test reaches the user's own database */
	if (e->xdg)
		setenv("XDG_DATA_HOME", e->xdg, 1);
	free(e->dlsim_db);
	free(e->xdg);
}

/* A new database at the default place is seeded by its first calibrate
 * command; one named by $DLSIM_DB (every other test's) is not. */
START_TEST(test_seed_default_db)
{
	struct default_env env;
	struct dlsim_err err = { 0, "" };
	struct db_info i;
	struct tmpdb t;
	struct run r;

	tmpdb_open(&t);
	db_close(t.db);
	unlink(t.path);
	snprintf(t.path, sizeof(t.path), "%s/dlsim/dlsim.db", t.dir);
	default_env_begin(&env, t.dir);
	run(&r, "calibrate fit --hw v100");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, "seeded") != NULL, "%s", r.err);
	run(&r, "calibrate fit --hw v100");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, "seeded") == NULL, "%s", r.err);
	ck_assert_msg(db_open(t.path, &t.db, &err) == DLSIM_OK, "%s",
		      err.msg);
	info(t.db, &i);
	ck_assert_int_eq(i.runs, SEED_RUNS);
	default_env_end(&env);
	tmpdb_close(&t);
}
END_TEST

/* calibrate show, which only reads, still makes and seeds the default
 * database on its first use (as the man page says), and then reads it
 * read-only: a second show leaves the file byte for byte as it was. */
START_TEST(test_seed_show_first_use)
{
	struct default_env env;
	struct file_state fs;
	struct tmpdb t;
	struct run r;

	tmpdb_open(&t);
	db_close(t.db);
	t.db = NULL;
	unlink(t.path);
	snprintf(t.path, sizeof(t.path), "%s/dlsim/dlsim.db", t.dir);
	default_env_begin(&env, t.dir);
	run(&r, "calibrate show --hw v100");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, "seeded") != NULL, "%s", r.err);
	file_state_take(&fs, t.path);
	run(&r, "calibrate show --hw v100");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, "seeded") == NULL, "%s", r.err);
	file_state_same(&fs);
	default_env_end(&env);
	tmpdb_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Suite                                                             */
/* ---------------------------------------------------------------- */

Suite *suite_seed(void)
{
	Suite *s = suite_create("seed");
	TCase *tc = tcase_create("seed");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_seed_counts);
	tcase_add_test(tc, test_seed_fits);
	tcase_add_test(tc, test_seed_twice);
	tcase_add_test(tc, test_seed_damaged_stores_nothing);
	tcase_add_test(tc, test_seed_adds_new_hardware_only);
	tcase_add_test(tc, test_seed_cli);
	tcase_add_test(tc, test_seed_default_db);
	tcase_add_test(tc, test_seed_show_first_use);
	suite_add_tcase(s, tc);
	return s;
}
