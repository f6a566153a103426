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
 * Convolutions and bandwidth curves (the last section) have their own
 * synthetic data, described where it is made.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
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

/* Park & Miller's minimal standard, as test_fit.c: the same noise on
 * every run. */
static double noise(unsigned long *state)
{
	*state = (*state * 48271UL) % 2147483647UL;
	return (double)*state / 2147483647.0 - 0.5;
}

static void sample(struct db_sample *s, const char *bench,
		   const char *params, double value, const char *unit)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->benchmark, sizeof(s->benchmark), "%s", bench);
	snprintf(s->params, sizeof(s->params), "%s", params);
	snprintf(s->unit, sizeof(s->unit), "%s", unit);
	s->rep = -1;
	s->value = value;
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

		y *= 1.0 + 0.02 * noise(&st);
		snprintf(params, sizeof(params), "bytes=%.0f ranks=8 op=sum "
			 "inplace=0 dtype=fp32", x);
		sample(&s[n++], "allreduce", params, y, "s");
	}
	st = 777;
	for (i = 10; i <= 28; i++) {
		/* square and skinny (n = 16) shapes, t = 5 us + F / 1e13 + Q
		 * / 1e12, Q = 4 (mk + kn + mn) bytes */
		double m = floor(pow(2.0, i / 2.0)), nn = i % 2 ? 16.0 : m;
		double F = 2.0 * m * nn * m, Q = 4.0 * (m * m + 2.0 * m * nn);

		snprintf(params, sizeof(params), "m=%.0f n=%.0f k=%.0f "
			 "dtype=fp32", m, nn, m);
		sample(&s[n++], "gemm", params, (5e-6 + F / 1e13 + Q / 1e12) *
		       (1.0 + 0.02 * noise(&st)), "s");
	}
	sample(&s[n++], "allgather", "bytes=8 ranks=4 op=none inplace=0 "
	       "dtype=fp32", 1e-5, "s");
	sample(&s[n++], "allgather", "bytes=16 ranks=4 op=none inplace=0 "
	       "dtype=fp32", 1.1e-5, "s");
	sample(&s[n++], "conv", "n=1 c=3 h=224 w=224 k=64 r=7 s=7 stride=2 "
	       "pad=3 dtype=fp32", 1e-3, "s");
	put_samples(db, "synth", s, n);
}

#define WITHIN_3_SIGMA(v, want, var) \
	ck_assert_msg(fabs((v) - (want)) <= 3.0 * sqrt(var), \
		      "%s = %g +- %g, expected %g", #v, (v), sqrt(var), \
		      (double)(want))

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
 * place are two groups of one kind. */
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
		const struct cal_fitted *f = &r.fit[i];

		ck_assert_str_eq(f->kind, "alphabeta:allreduce:8");
		ck_assert_int_eq(f->n_samples, 6);
		ck_assert(f->n_segments >= 1 && f->seg[0].x_lo == 8.0);
		ck_assert(f->seg[f->n_segments - 1].x_hi == 134217728.0);
		/* 36.65 us at 8 B: alpha is tens of microseconds */
		ck_assert(f->seg[0].a > 1e-6 && f->seg[0].a < 1e-4);
		ck_assert(isfinite(f->residual_rms));
		ck_assert(f->fit_id > 0);
	}
	ck_assert(strstr(r.fit[0].group, "inplace=0") &&
		  strstr(r.fit[1].group, "inplace=1"));
	cal_fit_report_release(&r);
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
/* Convolution and bandwidth curves                                  */
/* ---------------------------------------------------------------- */

/*
 * Synthetic convolutions on hardware "conv", every time t = 20 us + F /
 * 5e13 + Q / 4e11 (+-1% noise) with F = 2 N K P Q C R S and Q = 2 (NCHW
 * + KCRS + NKPQ) bytes (fp16) worked out here by hand: 3x3 filters with
 * pad 1 and stride 1 keep P = h, Q = w (DeepBench's keys), and 7x7 with
 * pad 3 and stride 2 on 224 give P = Q = floor((224 + 6 - 7) / 2) + 1 =
 * 112 (the generic table's keys).  The 3x3 ones, forward and backward
 * passes together, are one group (class 3x3s1, kind conv3x3:fp16); the
 * four 7x7 ones (16 input channels) the other class; three 1x1 ones at
 * stride 2 (pad 0 on 56: P = floor(55 / 2) + 1 = 28) the strided 1x1
 * class (kind conv1x1s:fp16).  Eight 1x1 ones at stride 1 (P = h = 56)
 * follow a roofline of their own, t = 5 us + F / 1e14 + Q / 8e11, and
 * are their own group (class 1x1s1, kind conv1x1:fp16).  Three 7x7 ones
 * on 3 input channels and three 3x3 ones on 1, half precision, are a
 * class of their own whatever their window (class unaligned, kind
 * conv_unaligned:fp16: fallback kernels, cal_points.c), sized at their
 * channels padded to 8 (x 8/3 and x 8): t = 3e-5 + F' / 5e12 + Q / 4e11
 * in that F'; three 7x7 ones on 3 channels in fp32 are fitted with the
 * others (kind conv:fp32).
 */
static double conv_time(double n, double c, double h, double k, double r,
			double p, unsigned long *st)
{
	double F = 2.0 * n * k * p * p * c * r * r;
	double Q = 2.0 * (n * c * h * h + k * c * r * r + n * k * p * p);

	return (2e-5 + F / 5e13 + Q / 4e11) * (1.0 + 0.02 * noise(st));
}

static double conv1x1_time(double n, double c, double h, double k,
			    unsigned long *st)
{
	double F = 2.0 * n * k * h * h * c;
	double Q = 2.0 * (n * c * h * h + k * c + n * k * h * h);

	return (5e-6 + F / 1e14 + Q / 8e11) * (1.0 + 0.02 * noise(st));
}

/* A fallback kernel's time: as conv_time, its FLOPs at c padded to 8. */
static double unaligned_time(double n, double c, double h, double k,
			     double r, double p, unsigned long *st)
{
	double F = 2.0 * n * k * p * p * 8.0 * r * r;
	double Q = 2.0 * (n * c * h * h + k * c * r * r + n * k * p * p);

	return (3e-5 + F / 5e12 + Q / 4e11) * (1.0 + 0.02 * noise(st));
}

static void store_conv(struct db *db)
{
	struct db_sample s[64];
	unsigned long st = 4242;
	char params[256];
	int i, n = 0;

	for (i = 0; i < 18; i++) {
		double b = pow(2.0, i / 2), c = i % 2 ? 64.0 : 128.0;

		snprintf(params, sizeof(params), "n=%.0f c=%.0f h=28 w=28 "
			 "k=64 r=3 s=3 pad_h=1 pad_w=1 stride_h=1 stride_w=1 "
			 "pass=fwd dtype=fp16 math=fp32 device=Synth", b, c);
		sample(&s[n++], "conv", params,
		       conv_time(b, c, 28, 64, 3, 28, &st), "s");
	}
	for (i = 0; i < 7; i++) {
		double b = pow(4.0, i < 4 ? i : i - 4);
		double c = i < 4 ? 16.0 : 3.0;

		snprintf(params, sizeof(params), "n=%.0f c=%.0f h=224 w=224 "
			 "k=64 r=7 s=7 stride=2 pad=3 pass=fwd dtype=fp16 "
			 "math=fp32 device=Synth", b, c);
		sample(&s[n++], "conv", params, i < 4 ?
		       conv_time(b, c, 224, 64, 7, 112, &st) :
		       unaligned_time(b, c, 224, 64, 7, 112, &st), "s");
	}
	for (i = 0; i < 3; i++) {
		snprintf(params, sizeof(params), "n=%d c=1 h=56 w=56 k=16 "
			 "r=3 s=3 pad_h=1 pad_w=1 stride_h=1 stride_w=1 "
			 "pass=fwd dtype=fp16 math=fp32 device=Synth",
			 1 << (3 * i));
		sample(&s[n++], "conv", params,
		       unaligned_time(1 << (3 * i), 1, 56, 16, 3, 56, &st),
		       "s");
	}
	for (i = 0; i < 3; i++) {
		snprintf(params, sizeof(params), "n=%d c=64 h=28 w=28 k=64 "
			 "r=3 s=3 pad_h=1 pad_w=1 stride_h=1 stride_w=1 "
			 "pass=bwd_data dtype=fp16 math=fp32 device=Synth",
			 1 << (i + 6));
		sample(&s[n++], "conv", params,
		       conv_time(1 << (i + 6), 64, 28, 64, 3, 28, &st), "s");
	}
	for (i = 0; i < 3; i++) {
		snprintf(params, sizeof(params), "n=%d c=64 h=56 w=56 k=128 "
			 "r=1 s=1 stride=2 pad=0 pass=fwd dtype=fp16 "
			 "math=fp32 device=Synth", 8 << i);
		sample(&s[n++], "conv", params,
		       conv_time(8 << i, 64, 56, 128, 1, 28, &st), "s");
	}
	for (i = 0; i < 3; i++) {
		snprintf(params, sizeof(params), "n=%d c=3 h=224 w=224 k=64 "
			 "r=7 s=7 stride=2 pad=3 pass=fwd dtype=fp32 "
			 "math=fp32 device=Synth", 1 << (2 * i));
		sample(&s[n++], "conv", params,
		       2.0 * conv_time(1 << (2 * i), 3, 224, 64, 7, 112, &st),
		       "s");
	}
	for (i = 0; i < 8; i++) {
		double b = pow(2.0, i), c = i % 2 ? 64.0 : 512.0;
		double k = i % 4 < 2 ? 256.0 : 32.0;

		snprintf(params, sizeof(params), "n=%.0f c=%.0f h=56 w=56 "
			 "k=%.0f r=1 s=1 stride=1 pad=0 pass=%s dtype=fp16 "
			 "math=fp32 device=Synth", b, c, k,
			 i % 3 ? "fwd" : "bwd_filter");
		sample(&s[n++], "conv", params,
		       conv1x1_time(b, c, 56, k, &st), "s");
	}
	put_samples(db, "conv", s, n);
}

START_TEST(cal_fit_conv_recovers_roofline_per_class)
{
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r;
	const struct cal_fitted *c, *o, *u, *us, *f;
	struct tmpdb t;

	tmpdb_open(&t);
	store_conv(t.db);
	ck_assert_msg(cal_fit_hw(t.db, "conv", &r, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_int_eq(r.n_fit, 6);
	ck_assert_int_eq(r.n_skip, 0);
	ck_assert_int_eq(fit_find(&r, "conv:fp32")->n_samples, 3);
	c = fit_find(&r, "conv3x3:fp16");
	o = fit_find(&r, "conv:fp16");
	u = fit_find(&r, "conv1x1:fp16");
	us = fit_find(&r, "conv1x1s:fp16");
	ck_assert(c != NULL && o != NULL && u != NULL && us != NULL);
	ck_assert_int_eq(us->n_samples, 3);
	/* off 8 channels: the class alone, at the padded FLOPs */
	f = fit_find(&r, "conv_unaligned:fp16");
	ck_assert(f != NULL);
	ck_assert_str_eq(f->group, "dtype=fp16 math=fp32 device=Synth "
			 "class=unaligned");
	ck_assert_int_eq(f->n_samples, 6);
	WITHIN_3_SIGMA(f->roof.s_per_flop, 1.0 / 5e12, f->roof.cov[1][1]);
	ck_assert(f->residual_rms < 0.05);
	ck_assert_str_eq(c->group, "dtype=fp16 math=fp32 device=Synth "
			 "class=3x3s1");
	ck_assert_str_eq(o->group, "dtype=fp16 math=fp32 device=Synth "
			 "class=other");
	ck_assert_str_eq(u->group, "dtype=fp16 math=fp32 device=Synth "
			 "class=1x1s1");
	ck_assert_int_eq(c->n_samples, 21);
	ck_assert_int_eq(o->n_samples, 4);
	ck_assert_int_eq(u->n_samples, 8);
	WITHIN_3_SIGMA(u->roof.fixed_s, 5e-6, u->roof.cov[0][0]);
	WITHIN_3_SIGMA(u->roof.s_per_flop, 1.0 / 1e14, u->roof.cov[1][1]);
	WITHIN_3_SIGMA(u->roof.s_per_byte, 1.0 / 8e11, u->roof.cov[2][2]);
	WITHIN_3_SIGMA(c->roof.fixed_s, 2e-5, c->roof.cov[0][0]);
	WITHIN_3_SIGMA(c->roof.s_per_flop, 1.0 / 5e13, c->roof.cov[1][1]);
	WITHIN_3_SIGMA(c->roof.s_per_byte, 1.0 / 4e11, c->roof.cov[2][2]);
	ck_assert(c->residual_rms < 0.02);
	cal_fit_report_release(&r);
	ck_assert_int_eq(cal_fit_load(t.db, "conv", &r, &err), DLSIM_OK);
	c = fit_find(&r, "conv3x3:fp16");
	ck_assert(c != NULL && c->model == CAL_MODEL_ROOFLINE);
	ck_assert_int_eq(c->n_points, 21);
	WITHIN_3_SIGMA(c->roof.s_per_flop, 1.0 / 5e13, c->roof.cov[1][1]);
	ck_assert(fit_find(&r, "conv_unaligned:fp16") != NULL);
	cal_fit_report_release(&r);
	tmpdb_close(&t);
}
END_TEST

/*
 * Synthetic fp32 convolutions on hardware "ns": eight with a 5x20
 * window at stride 2 (DeepSpeech's first layer: 1 or 32 channels of
 * 161 x 700, P = floor((161 - 5) / 2) + 1 = 79, Q = floor((700 - 20) /
 * 2) + 1 = 341), t = 3e-5 + F / 2e12 + Q / 2e11, and eight 5x5 ones at
 * stride 1 and pad 2 on 28 x 28 (P = Q = 28), t = 2e-5 + F / 5e12 + Q /
 * 4e11, +-1% noise, F = 2 N K P Q C R S, Q = 4 (NCHW + KCRS + NKPQ).
 * The non-square ones are their own group (class nonsquare, kind
 * conv_nonsquare:fp32), which recovers their FLOP rate, and count in
 * the class of every other window too (kind conv:fp32, 16 samples).
 */
static double ns_time(double n, double c, double h, double w, double k,
		      double r, double s, double p, double q, double t0,
		      double rate, double bw, unsigned long *st)
{
	double F = 2.0 * n * k * p * q * c * r * s;
	double Q = 4.0 * (n * c * h * w + k * c * r * s + n * k * p * q);

	return (t0 + F / rate + Q / bw) * (1.0 + 0.02 * noise(st));
}

START_TEST(cal_fit_conv_fits_nonsquare_windows_apart)
{
	struct db_sample s[16];
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r;
	const struct cal_fitted *ns, *o;
	unsigned long st = 777;
	char params[256];
	struct tmpdb t;
	int i, n = 0;

	tmpdb_open(&t);
	for (i = 0; i < 8; i++) {
		double b = 4 << (i % 4), c = i < 4 ? 1.0 : 32.0;

		snprintf(params, sizeof(params), "n=%.0f c=%.0f h=161 w=700 "
			 "k=32 r=5 s=20 stride=2 pad=0 pass=fwd dtype=fp32 "
			 "math=fp32 device=Synth", b, c);
		sample(&s[n++], "conv", params,
		       ns_time(b, c, 161, 700, 32, 5, 20, 79, 341, 3e-5, 2e12,
			       2e11, &st), "s");
	}
	for (i = 0; i < 8; i++) {
		double b = 2 << i, c = i % 2 ? 64.0 : 192.0;

		snprintf(params, sizeof(params), "n=%.0f c=%.0f h=28 w=28 "
			 "k=64 r=5 s=5 stride=1 pad=2 pass=fwd dtype=fp32 "
			 "math=fp32 device=Synth", b, c);
		sample(&s[n++], "conv", params,
		       ns_time(b, c, 28, 28, 64, 5, 5, 28, 28, 2e-5, 5e12,
			       4e11, &st), "s");
	}
	put_samples(t.db, "ns", s, n);
	ck_assert_msg(cal_fit_hw(t.db, "ns", &r, &err) == DLSIM_OK, "%s",
		      err.msg);
	ns = fit_find(&r, "conv_nonsquare:fp32");
	o = fit_find(&r, "conv:fp32");
	ck_assert(ns != NULL && o != NULL);
	ck_assert_str_eq(ns->group, "dtype=fp32 math=fp32 device=Synth "
			 "class=nonsquare");
	ck_assert_int_eq(ns->n_samples, 8);
	ck_assert_int_eq(o->n_samples, 16);
	WITHIN_3_SIGMA(ns->roof.s_per_flop, 1.0 / 2e12, ns->roof.cov[1][1]);
	cal_fit_report_release(&r);
	tmpdb_close(&t);
}
END_TEST

/*
 * Non-square windows of one shape (DeepBench's 16-bit rows have one: a
 * 5x10 filter at stride 2 on 32 channels of 79 x 341, P = 38, Q = 166),
 * at four batches, on hardware "ns1", with twelve 5x5 ones as in the
 * test above: a roofline's terms cannot be told apart on one shape, so
 * the class is the fit of every other window (class other, which holds
 * the non-square points too: 16) times one factor, every term scaled
 * alike (cal_model_scaled), the factor the median of the four points'
 * measured time over that fit's, worked out here from their FLOPs and
 * bytes at 2 bytes a value (the dtype's).
 */
static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

START_TEST(cal_fit_conv_scales_one_nonsquare_shape)
{
	struct db_sample s[16];
	struct dlsim_err err = { 0, "" };
	struct cal_fit_report r;
	const struct cal_fitted *ns, *o;
	unsigned long st = 4711;
	char params[256];
	struct tmpdb t;
	double k, r4[4];
	int i, n = 0;

	tmpdb_open(&t);
	for (i = 0; i < 4; i++) {
		double b = 4 << i;

		snprintf(params, sizeof(params), "n=%.0f c=32 h=79 w=341 k=32 "
			 "r=5 s=10 stride=2 pad=0 pass=fwd dtype=fp16 "
			 "math=fp32 device=Synth", b);
		sample(&s[n++], "conv", params,
		       1.5 * ns_time(b, 32, 79, 341, 32, 5, 10, 38, 166, 2e-5,
				     5e12, 4e11, &st), "s");
	}
	for (i = 0; i < 12; i++) {
		double b = 2 << (i % 6), c = i < 6 ? 64.0 : 192.0;

		snprintf(params, sizeof(params), "n=%.0f c=%.0f h=28 w=28 "
			 "k=64 r=5 s=5 stride=1 pad=2 pass=fwd dtype=fp16 "
			 "math=fp32 device=Synth", b, c);
		sample(&s[n++], "conv", params,
		       ns_time(b, c, 28, 28, 64, 5, 5, 28, 28, 2e-5, 5e12,
			       4e11, &st), "s");
	}
	put_samples(t.db, "ns1", s, n);
	ck_assert_msg(cal_fit_hw(t.db, "ns1", &r, &err) == DLSIM_OK, "%s",
		      err.msg);
	ns = fit_find(&r, "conv_nonsquare:fp16");
	o = fit_find(&r, "conv:fp16");
	ck_assert(ns != NULL && o != NULL);
	ck_assert_int_eq(ns->n_samples, 4);
	ck_assert_int_eq(o->n_samples, 16);
	for (i = 0; i < 4; i++) {
		double b = 4 << i;
		double F = 2.0 * b * 32 * 38 * 166 * 32 * 5 * 10;
		double Q = 2.0 * (b * 32 * 79 * 341 + 32 * 32 * 5 * 10 +
				  b * 32 * 38 * 166);

		r4[i] = log(s[i].value / (o->roof.fixed_s +
					  F * o->roof.s_per_flop +
					  Q * o->roof.s_per_byte));
	}
	qsort(r4, 4, sizeof(double), dbl_cmp);
	k = exp(0.5 * (r4[1] + r4[2]));
	ck_assert_rel(ns->roof.s_per_flop, k * o->roof.s_per_flop, 1e-9);
	ck_assert_rel(ns->roof.fixed_s, k * o->roof.fixed_s, 1e-9);
	ck_assert_rel(ns->roof.s_per_byte, k * o->roof.s_per_byte, 1e-9);
	cal_fit_report_release(&r);
	tmpdb_close(&t);
}
END_TEST

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

		y *= 1.0 + 0.02 * noise(&st);
		snprintf(params, sizeof(params), "kernel=triad bytes=%.0f "
			 "threads=1", x);
		sample(&s[n++], "stream", params, y, "B/s");
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
		sample(&s[i], "stream", params,
		       50e9 * (1.0 + 0.02 * noise(&st)), "B/s");
	}
	sample(&s[16], "stream", "kernel=add bytes=1048576", 30e9, "B/s");
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

START_TEST(cal_cli_show_prints_levels_and_conv)
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
	store_conv(t.db);
	snprintf(args, sizeof(args), "calibrate fit --hw conv --db %s",
		 t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "conv3x3:fp16") && strstr(r.out, "conv:fp16") &&
		  strstr(r.out, "conv1x1:fp16") && strstr(r.out, "s_per_byte"));
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
	tcase_add_test(c, cal_cli_fit_and_show);
	tcase_add_test(c, cal_fit_conv_recovers_roofline_per_class);
	tcase_add_test(c, cal_fit_conv_fits_nonsquare_windows_apart);
	tcase_add_test(c, cal_fit_conv_scales_one_nonsquare_shape);
	tcase_add_test(c, cal_fit_bwcurve_finds_three_levels);
	tcase_add_test(c, cal_fit_bwcurve_flat_and_single);
	tcase_add_test(c, cal_cli_show_prints_levels_and_conv);
	suite_add_tcase(s, c);
	return s;
}
