/*
 * test_calfit.c -- fits of stored runs (calibrate/cal_fitdb.c) and
 * `dlsim calibrate fit|show`: synthetic samples with known parameters
 * stored in a temporary database come back within three standard
 * deviations under the right kinds; what cannot be fitted is named; a
 * hardware with no samples fails cleanly; the real importer's nccl-tests
 * fixture fits end to end.
 *
 * The synthetic collective is test_fit.c's: below 64 KiB t = 2 us +
 * m / 10 GB/s, from 64 KiB on t = 10 us + m / 20 GB/s, +-1% noise.  The
 * GEMM: achieved rate e_max x / (x + x_half) with e_max = 10^13 FLOP/s
 * and x_half = 10^9 FLOPs, +-1% noise, over m = n = k = 32 .. 16384 in
 * half octaves (19 sizes, so that the plateau has points enough).
 * Bandwidth curves (the last section) have their own synthetic data,
 * described where it is made; convolutions are test_calfit_conv.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
#include "db_util.h"
#include "hwcalib_util.h"
#include "dlsim.h"

#define DIR "tests/data/calibrate/"

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

static void plot_remove(const char *dir)
{
	static const char *const plot[] = { "p.png", "p.dat", "p.gp", NULL };
	char p[160];
	int i;

	for (i = 0; plot[i]; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, plot[i]);
		unlink(p);
	}
}

/* Store the synthetic runs for hardware "synth": 24 allreduce sizes, 19
 * GEMM sizes, 2 allgather sizes (too few) and one conv (too few). */
static void store_synthetic(struct db *db)
{
	struct db_sample s[64];
	unsigned long st = 12345;
	char params[256];
	int i, n = 0;

	for (i = 0; i < 24; i++) {
		double x = 8.0 * pow(2.0, i);
		double y = x < 65536.0 ? 2e-6 + x / 10e9 : 10e-6 + x / 20e9;

		y *= 1.0 + 0.02 * calib_noise(&st);
		snprintf(params, sizeof(params), "bytes=%.0f ranks=8 op=sum "
			 "inplace=0 dtype=fp32", x);
		calib_sample(&s[n++], "allreduce", params, y, "s");
	}
	st = 777;
	for (i = 10; i <= 28; i++) {
		/* square and skinny (n = 16) shapes, t = 5 us + F / 1e13 + Q
		 * / 1e12, Q = 4 (mk + kn + mn) bytes */
		double m = floor(pow(2.0, i / 2.0)), nn = i % 2 ? 16.0 : m;
		double F = 2.0 * m * nn * m, Q = 4.0 * (m * m + 2.0 * m * nn);

		snprintf(params, sizeof(params), "m=%.0f n=%.0f k=%.0f "
			 "dtype=fp32", m, nn, m);
		calib_sample(&s[n++], "gemm", params,
			     (5e-6 + F / 1e13 + Q / 1e12) *
			     (1.0 + 0.02 * calib_noise(&st)), "s");
	}
	calib_sample(&s[n++], "allgather", "bytes=8 ranks=4 op=none "
		     "inplace=0 dtype=fp32", 1e-5, "s");
	calib_sample(&s[n++], "allgather", "bytes=16 ranks=4 op=none "
		     "inplace=0 dtype=fp32", 1.1e-5, "s");
	calib_sample(&s[n++], "conv", "n=1 c=3 h=224 w=224 k=64 r=7 s=7 "
		     "stride=2 pad=3 dtype=fp32", 1e-3, "s");
	put_samples(db, "synth", s, n);
}

static int count_fit(void *ctx, const struct db_fit *f)
{
	(void)f;
	(*(int *)ctx)++;
	return 0;
}

/* ---------------------------------------------------------------- */
/* The library                                                       */
/* ---------------------------------------------------------------- */

START_TEST(cal_fit_hw_recovers_known_parameters)
{
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r;
	const struct cal_fitted *ab, *g;
	struct tmpdb t;
	int stored = 0, i, seen_conv = 0, seen_ag = 0;

	tmpdb_open(&t);
	store_synthetic(t.db);
	ck_assert_msg(cal_fit_hw(t.db, "synth", &r, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(r.n_read, 46);
	ck_assert_int_eq(r.n_fit, 2);
	ab = fit_find(&r, "alphabeta:allreduce:8");
	g = fit_find(&r, "gemm:fp32");
	ck_assert(ab != NULL && g != NULL);
	ck_assert_str_eq(ab->group, "ranks=8 op=sum inplace=0 dtype=fp32");
	ck_assert_int_eq(ab->n_samples, 24);
	ck_assert_int_eq(ab->n_segments, 2);
	ck_assert(ab->seg[0].x_hi < 65536.0 && ab->seg[1].x_lo == 65536.0);
	WITHIN_3_SIGMA(ab->seg[0].a, 2e-6, ab->seg[0].cov_aa);
	WITHIN_3_SIGMA(ab->seg[0].b, 1e-10, ab->seg[0].cov_bb);
	WITHIN_3_SIGMA(ab->seg[1].a, 10e-6, ab->seg[1].cov_aa);
	WITHIN_3_SIGMA(ab->seg[1].b, 5e-11, ab->seg[1].cov_bb);
	ck_assert(ab->residual_rms > 0.0 && ab->residual_rms < 0.02);
	ck_assert_int_eq(g->n_samples, 19);
	ck_assert_uint_eq(g->roof.terms, 7u);
	WITHIN_3_SIGMA(g->roof.fixed_s, 5e-6, g->roof.cov[0][0]);
	WITHIN_3_SIGMA(g->roof.s_per_flop, 1e-13, g->roof.cov[1][1]);
	WITHIN_3_SIGMA(g->roof.s_per_byte, 1e-12, g->roof.cov[2][2]);
	ck_assert(g->residual_rms < 0.02);
	for (i = 0; i < r.n_skip; i++) {
		seen_conv |= strstr(r.skip[i].what, "conv dtype=fp32") &&
			     strstr(r.skip[i].why, "1 point");
		seen_ag |= strstr(r.skip[i].what, "allgather ranks=4") &&
			   strstr(r.skip[i].why, "2 points");
	}
	ck_assert(seen_conv && seen_ag);
	/* both stored, and read back as they were fitted */
	ck_assert_int_eq(db_each_fit(t.db, "synth", NULL, count_fit, &stored,
				     &err), DLSIM_OK);
	ck_assert_int_eq(stored, 2);
	cal_fit_report_release(&r);
	ck_assert_msg(cal_fit_load(t.db, "synth", &r, &err) == DLSIM_OK,
		      "%s", err.msg);
	ck_assert_int_eq(r.n_fit, 2);
	ab = fit_find(&r, "alphabeta:allreduce:8");
	ck_assert(ab != NULL && ab->n_segments == 2 && ab->n_points == 24);
	WITHIN_3_SIGMA(ab->seg[1].b, 5e-11, ab->seg[1].cov_bb);
	g = fit_find(&r, "gemm:fp32");
	ck_assert(g != NULL && g->n_points == 19);
	WITHIN_3_SIGMA(g->roof.s_per_flop, 1e-13, g->roof.cov[1][1]);
	WITHIN_3_SIGMA(g->roof.s_per_byte, 1e-12, g->roof.cov[2][2]);
	cal_fit_report_release(&r);
	/* a second fit is newer: show keeps one of each */
	ck_assert_int_eq(cal_fit_hw(t.db, "synth", &r, &err), DLSIM_OK);
	cal_fit_report_release(&r);
	ck_assert_int_eq(cal_fit_load(t.db, "synth", &r, &err), DLSIM_OK);
	ck_assert_int_eq(r.n_fit, 2);
	ck_assert(r.fit[0].fit_id > 2 && r.fit[1].fit_id > 2);
	cal_fit_report_release(&r);
	tmpdb_close(&t);
}
END_TEST

START_TEST(cal_fit_hw_without_samples_fails_cleanly)
{
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r;
	struct tmpdb t;
	int stored = 0;

	tmpdb_open(&t);
	store_synthetic(t.db);
	ck_assert_int_eq(cal_fit_hw(t.db, "other", &r, &err),
			 DLSIM_ENOTFOUND);
	ck_assert_str_eq(err.msg, "no samples for hardware 'other'");
	ck_assert(r.n_fit == 0 && r.fit == NULL && r.n_skip == 0);
	cal_fit_report_release(&r);
	ck_assert_int_eq(db_each_fit(t.db, NULL, NULL, count_fit, &stored,
				     &err), DLSIM_OK);
	ck_assert_int_eq(stored, 0);
	dlsim_err_clear(&err);
	ck_assert_int_eq(cal_fit_load(t.db, "synth", &r, &err),
			 DLSIM_ENOTFOUND);
	ck_assert_str_eq(err.msg, "no fits for hardware 'synth'");
	cal_fit_report_release(&r);
	cal_fit_report_release(NULL);
	tmpdb_close(&t);
}
END_TEST

/* The real importer's nccl-tests table: 6 sizes out of place and 6 in
 * place are two groups of one kind.  Each is one line: a split into two
 * runs of 3 leaves one degree of freedom, and the F-test at 0.1% keeps
 * one.  The line is the weighted least squares of t = a + b m, weights
 * 1/t^2, worked from the table's times with the closed form
 * b = (W Sxy - Sx Sy) / (W Sxx - Sx^2), a = (Sy - b Sx) / W:
 *   out of place a = 42.2284 us, b = 6.91809e-12 s/B (144.5 GB/s),
 *                relative rms 0.182916;
 *   in place     a = 41.9076 us, b = 6.90973e-12 s/B, rms 0.182681. */
START_TEST(cal_fit_imported_nccl_tests)
{
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r;
	struct tmpdb t;
	int64_t id, n;
	int i;

	tmpdb_open(&t);
	ck_assert_int_eq(cal_import(t.db, CAL_NCCL_TESTS, DIR
				    "nccl_all_reduce.txt", "a100x8", &id, &n,
				    &err), DLSIM_OK);
	ck_assert_msg(cal_fit_hw(t.db, "a100x8", &r, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(r.n_fit, 2);
	ck_assert_int_eq(r.n_skip, 0);
	for (i = 0; i < 2; i++) {
		static const double a[2] = { 42.2284e-6, 41.9076e-6 },
				    b[2] = { 6.91809e-12, 6.90973e-12 },
				    rms[2] = { 0.182916, 0.182681 };
		const struct cal_fitted *f = &r.fit[i];

		ck_assert_str_eq(f->kind, "alphabeta:allreduce:8");
		ck_assert_int_eq(f->n_samples, 6);
		ck_assert_int_eq(f->n_segments, 1);
		ck_assert(f->seg[0].x_lo == 8.0);
		ck_assert(f->seg[0].x_hi == 134217728.0);
		ck_assert_double_eq_tol(f->seg[0].a, a[i], 1e-10);
		ck_assert_double_eq_tol(f->seg[0].b, b[i], 1e-17);
		ck_assert_double_eq_tol(f->residual_rms, rms[i], 1e-6);
		ck_assert(f->fit_id > 0);
	}
	ck_assert(strstr(r.fit[0].group, "inplace=0") &&
		  strstr(r.fit[1].group, "inplace=1"));
	cal_fit_report_release(&r);
	tmpdb_close(&t);
}
END_TEST

/* A sample import refuses (1e308 s, 1e-12 s) can reach the database
 * only by an edit; the fit passes over it and lists it with the other
 * samples it skips, rather than fit it silently. */
START_TEST(cal_fit_skips_implausible_samples)
{
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r;
	struct tmpdb t;
	char args[256];
	struct run cli;
	int64_t id, n;
	int i, listed = 0;

	tmpdb_open(&t);
	ck_assert_int_eq(cal_import(t.db, CAL_NCCL_TESTS, DIR
				    "nccl_all_reduce.txt", "lab", &id, &n,
				    &err), DLSIM_OK);
	raw_exec(t.path, "UPDATE samples SET value = 1e308 WHERE params = "
		 "'bytes=134217728 ranks=8 op=sum inplace=1 dtype=fp32'");
	raw_exec(t.path, "UPDATE samples SET value = 1e-12 WHERE params = "
		 "'bytes=8 ranks=8 op=sum inplace=1 dtype=fp32'");
	ck_assert_msg(cal_fit_hw(t.db, "lab", &r, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(r.n_fit, 2);
	ck_assert(strstr(r.fit[1].group, "inplace=1") != NULL);
	ck_assert_int_eq(r.fit[0].n_samples, 6);
	ck_assert_int_eq(r.fit[1].n_samples, 4);
	ck_assert(r.fit[1].seg[0].x_lo == 1024.0);
	ck_assert(r.fit[1].seg[r.fit[1].n_segments - 1].x_hi == 33554432.0);
	for (i = 0; i < r.n_skip; i++)
		listed += strcmp(r.skip[i].what, "allreduce (2 samples)") ==
			  0 && strstr(r.skip[i].why, "a value import refuses "
				      "(a time above a day or below a "
				      "nanosecond") != NULL;
	ck_assert_int_eq(r.n_skip, 1);
	ck_assert_int_eq(listed, 1);
	cal_fit_report_release(&r);
	/* and the commands say so under Skipped */
	db_close(t.db);
	t.db = NULL;
	snprintf(args, sizeof(args), "calibrate fit --hw lab --db %s",
		 t.path);
	run(&cli, args);
	ck_assert_msg(cli.status == 0, "%s", cli.err);
	ck_assert_msg(strstr(cli.out, "Skipped:\n  allreduce (2 samples): "
			     "a value import refuses") != NULL, "%s", cli.out);
	snprintf(args, sizeof(args), "calibrate show --hw lab --db %s",
		 t.path);
	run(&cli, args);
	ck_assert_msg(cli.status == 0, "%s", cli.err);
	ck_assert_msg(strstr(cli.out, "allreduce (2 samples): a value import "
			     "refuses") != NULL, "%s", cli.out);
	tmpdb_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* The command                                                       */
/* ---------------------------------------------------------------- */

START_TEST(cal_cli_fit_and_show)
{
	char args[512], buf[4096];
	struct tmpdb t;
	struct run r;

	tmpdb_open(&t);
	store_synthetic(t.db);
	snprintf(args, sizeof(args), "calibrate fit --hw synth --db %s "
		 "--format json", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_str_eq(r.err, "");
	ck_assert(json_valid(r.out));
	ck_assert(strstr(r.out, "\"kind\": \"alphabeta:allreduce:8\"") &&
		  strstr(r.out, "\"kind\": \"gemm:fp32\"") &&
		  strstr(r.out, "\"beta_s_per_byte\"") &&
		  strstr(r.out, "\"ci95\"") && strstr(r.out, "\"skipped\""));
	ck_assert_int_eq(json_number(r.out, "samples_read"), 46);
	snprintf(args, sizeof(args), "calibrate show --hw synth --db %s",
		 t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "Fits for synth") &&
		  strstr(r.out, "alphabeta:allreduce:8") &&
		  strstr(r.out, "alpha_s") && strstr(r.out, "+-") &&
		  strstr(r.out, "s_per_flop") && strstr(r.out, "TFLOP/s"));
	/* the plot: data and script beside the image, named relatively */
	snprintf(args, sizeof(args), "calibrate show --hw synth --db %s "
		 "--plot %s/p.png", t.path, t.dir);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	snprintf(args, sizeof(args), "%s/p.gp", t.dir);
	slurp(args, buf, sizeof(buf));
	ck_assert(strstr(buf, "set logscale xy") &&
		  strstr(buf, "\"p.dat\" index 0") &&
		  strstr(buf, "set output \"p.png\""));
	/* two panels: the allreduce's lines, the GEMM's roofline (blocks 2
	 * and 3, after the allreduce's two) */
	ck_assert(strstr(buf, "set multiplot layout 2,1") &&
		  strstr(buf, "kernels: measured") &&
		  strstr(buf, "\"p.dat\" index 2 with points") &&
		  strstr(buf, "'' index 3 with points pt 6"));
	snprintf(args, sizeof(args), "%s/p.dat", t.dir);
	slurp(args, buf, sizeof(buf));
	ck_assert(strstr(buf, "alphabeta:allreduce:8") != NULL);
	/* the plot's files out, for tmpdb_close to remove the directory */
	plot_remove(t.dir);
	/* errors: no samples (1), no fits (1), misuse (2) */
	snprintf(args, sizeof(args), "calibrate fit --hw nothing --db %s",
		 t.path);
	run(&r, args);
	assert_one_error(&r, 1, "no samples for hardware 'nothing'");
	snprintf(args, sizeof(args), "calibrate show --hw nothing --db %s",
		 t.path);
	run(&r, args);
	assert_one_error(&r, 1, "no fits for hardware 'nothing'");
	snprintf(args, sizeof(args), "calibrate show --hw synth --db %s "
		 "--plot x.pdf", t.path);
	run(&r, args);
	assert_one_error(&r, 2, "must end in .png or .svg");
	snprintf(args, sizeof(args), "calibrate fit --hw synth --db %s "
		 "--format csv", t.path);
	run(&r, args);
	assert_one_error(&r, 2, "--format is table or json");
	run(&r, "calibrate fit --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "Usage: dlsim calibrate fit --hw NAME") !=
		  NULL);
	tmpdb_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Bandwidth curves                                                  */
/* ---------------------------------------------------------------- */

/*
 * Synthetic triad on hardware "bw": 200 GB/s below 32 KiB, 100 GB/s
 * from 32 KiB to below 1 MiB, 20 GB/s from 1 MiB, +-1% noise, working
 * sets 4 KiB .. 256 MiB at four per octave (so 32 KiB and 1 MiB are
 * measured sizes: the 13th and 33rd).
 */
static void store_bw(struct db *db)
{
	struct db_sample s[80];
	unsigned long st = 99;
	char params[256];
	int i, n = 0;

	for (i = 0; i <= 64; i++) {
		double x = floor(4096.0 * pow(2.0, i / 4.0) + 0.5);
		double y = x < 32768.0 ? 200e9 : x < 1048576.0 ? 100e9 : 20e9;

		y *= 1.0 + 0.02 * calib_noise(&st);
		snprintf(params, sizeof(params), "kernel=triad bytes=%.0f "
			 "threads=1", x);
		calib_sample(&s[n++], "stream", params, y, "B/s");
	}
	put_samples(db, "bw", s, n);
}

static void assert_three_levels(const struct cal_fitted *b)
{
	ck_assert(b != NULL && b->model == CAL_MODEL_PLATEAU);
	ck_assert_int_eq(b->n_segments, 3);
	ck_assert(b->seg[0].x_lo == 4096.0 && b->seg[0].x_hi < 32768.0);
	ck_assert(b->seg[1].x_lo == 32768.0 && b->seg[1].x_hi < 1048576.0);
	ck_assert(b->seg[2].x_lo == 1048576.0);
	ck_assert(b->seg[2].x_hi == 268435456.0);
	ck_assert_int_eq(b->seg[0].n + b->seg[1].n + b->seg[2].n, 65);
	WITHIN_3_SIGMA(b->seg[0].a, 200e9, b->seg[0].cov_aa);
	WITHIN_3_SIGMA(b->seg[1].a, 100e9, b->seg[1].cov_aa);
	WITHIN_3_SIGMA(b->seg[2].a, 20e9, b->seg[2].cov_aa);
	ck_assert(b->residual_rms > 0.0 && b->residual_rms < 0.02);
}

START_TEST(cal_fit_bwcurve_finds_three_levels)
{
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r;
	const struct cal_fitted *p;
	struct tmpdb t;

	tmpdb_open(&t);
	store_bw(t.db);
	ck_assert_msg(cal_fit_hw(t.db, "bw", &r, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(r.n_fit, 2);
	p = fit_find(&r, "stream:triad");   /* the DRAM plateau stays */
	ck_assert(p != NULL && p->n_segments == 0);
	ck_assert(fabs(p->plateau_Bps - 20e9) < 0.01 * 20e9);
	assert_three_levels(fit_find(&r, "bwcurve:triad"));
	cal_fit_report_release(&r);
	ck_assert_int_eq(cal_fit_load(t.db, "bw", &r, &err), DLSIM_OK);
	ck_assert_int_eq(r.n_fit, 2);
	assert_three_levels(fit_find(&r, "bwcurve:triad"));
	ck_assert(fit_find(&r, "bwcurve:triad")->n_points == 65);
	cal_fit_report_release(&r);
	tmpdb_close(&t);
}
END_TEST

/* One plateau with nothing to cut stays one level; one point is no
 * curve, and is named. */
START_TEST(cal_fit_bwcurve_flat_and_single)
{
	struct dlsim_err err = { 0, "" };
	struct db_sample s[20];
	struct cal_fit_report r;
	const struct cal_fitted *b;
	struct db_run run;
	struct tmpdb t;
	unsigned long st = 5;
	char params[128];
	int i, seen = 0;

	tmpdb_open(&t);
	for (i = 0; i < 16; i++) {
		snprintf(params, sizeof(params), "kernel=copy bytes=%.0f",
			 16384.0 * pow(2.0, i));
		calib_sample(&s[i], "stream", params,
		       50e9 * (1.0 + 0.02 * calib_noise(&st)), "B/s");
	}
	calib_sample(&s[16], "stream", "kernel=add bytes=1048576", 30e9, "B/s");
	memset(&run, 0, sizeof(run));
	snprintf(run.tool, sizeof(run.tool), "test");
	snprintf(run.hw, sizeof(run.hw), "flat");
	ck_assert_int_eq(db_run_insert(t.db, &run, s, 17, &err), DLSIM_OK);
	ck_assert_msg(cal_fit_hw(t.db, "flat", &r, &err) == DLSIM_OK, "%s",
		      err.msg);
	b = fit_find(&r, "bwcurve:copy");
	ck_assert(b != NULL && b->n_segments == 1 && b->seg[0].n == 16);
	WITHIN_3_SIGMA(b->seg[0].a, 50e9, b->seg[0].cov_aa);
	ck_assert(fit_find(&r, "stream:add") != NULL);
	ck_assert(fit_find(&r, "bwcurve:add") == NULL);
	for (i = 0; i < r.n_skip; i++)
		seen |= strstr(r.skip[i].what, "kernel=add (bwcurve)") &&
			strstr(r.skip[i].why, "1 point");
	ck_assert(seen);
	cal_fit_report_release(&r);
	tmpdb_close(&t);
}
END_TEST

START_TEST(cal_cli_show_prints_levels)
{
	char args[512];
	struct tmpdb t;
	struct run r;

	tmpdb_open(&t);
	store_bw(t.db);
	snprintf(args, sizeof(args), "calibrate fit --hw bw --db %s "
		 "--format json", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert(strstr(r.out, "\"kind\": \"bwcurve:triad\"") &&
		  strstr(r.out, "\"levels\": [") &&
		  strstr(r.out, "\"bytes_lo\": 32768"));
	snprintf(args, sizeof(args), "calibrate show --hw bw --db %s",
		 t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "bwcurve:triad") &&
		  strstr(r.out, "Bps ") && strstr(r.out, "GB/s") &&
		  strstr(r.out, "bw_Bps"));
	tmpdb_close(&t);
}
END_TEST

Suite *suite_calfit(void)
{
	Suite *s = suite_create("calfit");
	TCase *c = tcase_create("calfit");

	tcase_set_timeout(c, 30);
	tcase_add_test(c, cal_fit_hw_recovers_known_parameters);
	tcase_add_test(c, cal_fit_hw_without_samples_fails_cleanly);
	tcase_add_test(c, cal_fit_imported_nccl_tests);
	tcase_add_test(c, cal_fit_skips_implausible_samples);
	tcase_add_test(c, cal_cli_fit_and_show);
	tcase_add_test(c, cal_fit_bwcurve_finds_three_levels);
	tcase_add_test(c, cal_fit_bwcurve_flat_and_single);
	tcase_add_test(c, cal_cli_show_prints_levels);
	suite_add_tcase(s, c);
	return s;
}
