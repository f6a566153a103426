/*
 * test_calfit_conv.c -- convolution fits of stored runs
 * (calibrate/cal_points.c, cal_fitdb.c): synthetic convolutions with
 * known rooflines come back within three standard deviations in their
 * classes (3x3 at stride 1, 1x1 at stride 1 and strided, non-square
 * windows, 16-bit ones off 8 input channels at their padded work, the
 * rest), a class of one shape is its base's fit times one factor, and
 * `dlsim calibrate fit` prints them.  Split from test_calfit.c, whose
 * GEMM, collective and bandwidth-curve fits share its helpers
 * (hwcalib_util.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "cli_util.h"
#include "hwcalib_util.h"
#include "dlsim.h"
#include "calibrate/cal.h"

/* ---------------------------------------------------------------- */
/* The classes                                                       */
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

	return (2e-5 + F / 5e13 + Q / 4e11) * (1.0 + 0.02 * calib_noise(st));
}

static double conv1x1_time(double n, double c, double h, double k,
			    unsigned long *st)
{
	double F = 2.0 * n * k * h * h * c;
	double Q = 2.0 * (n * c * h * h + k * c + n * k * h * h);

	return (5e-6 + F / 1e14 + Q / 8e11) * (1.0 + 0.02 * calib_noise(st));
}

/* A fallback kernel's time: as conv_time, its FLOPs at c padded to 8. */
static double unaligned_time(double n, double c, double h, double k,
			     double r, double p, unsigned long *st)
{
	double F = 2.0 * n * k * p * p * 8.0 * r * r;
	double Q = 2.0 * (n * c * h * h + k * c * r * r + n * k * p * p);

	return (3e-5 + F / 5e12 + Q / 4e11) * (1.0 + 0.02 * calib_noise(st));
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
		calib_sample(&s[n++], "conv", params,
		       conv_time(b, c, 28, 64, 3, 28, &st), "s");
	}
	for (i = 0; i < 7; i++) {
		double b = pow(4.0, i < 4 ? i : i - 4);
		double c = i < 4 ? 16.0 : 3.0;

		snprintf(params, sizeof(params), "n=%.0f c=%.0f h=224 w=224 "
			 "k=64 r=7 s=7 stride=2 pad=3 pass=fwd dtype=fp16 "
			 "math=fp32 device=Synth", b, c);
		calib_sample(&s[n++], "conv", params, i < 4 ?
		       conv_time(b, c, 224, 64, 7, 112, &st) :
		       unaligned_time(b, c, 224, 64, 7, 112, &st), "s");
	}
	for (i = 0; i < 3; i++) {
		snprintf(params, sizeof(params), "n=%d c=1 h=56 w=56 k=16 "
			 "r=3 s=3 pad_h=1 pad_w=1 stride_h=1 stride_w=1 "
			 "pass=fwd dtype=fp16 math=fp32 device=Synth",
			 1 << (3 * i));
		calib_sample(&s[n++], "conv", params,
		       unaligned_time(1 << (3 * i), 1, 56, 16, 3, 56, &st),
		       "s");
	}
	for (i = 0; i < 3; i++) {
		snprintf(params, sizeof(params), "n=%d c=64 h=28 w=28 k=64 "
			 "r=3 s=3 pad_h=1 pad_w=1 stride_h=1 stride_w=1 "
			 "pass=bwd_data dtype=fp16 math=fp32 device=Synth",
			 1 << (i + 6));
		calib_sample(&s[n++], "conv", params,
		       conv_time(1 << (i + 6), 64, 28, 64, 3, 28, &st), "s");
	}
	for (i = 0; i < 3; i++) {
		snprintf(params, sizeof(params), "n=%d c=64 h=56 w=56 k=128 "
			 "r=1 s=1 stride=2 pad=0 pass=fwd dtype=fp16 "
			 "math=fp32 device=Synth", 8 << i);
		calib_sample(&s[n++], "conv", params,
		       conv_time(8 << i, 64, 56, 128, 1, 28, &st), "s");
	}
	for (i = 0; i < 3; i++) {
		snprintf(params, sizeof(params), "n=%d c=3 h=224 w=224 k=64 "
			 "r=7 s=7 stride=2 pad=3 pass=fwd dtype=fp32 "
			 "math=fp32 device=Synth", 1 << (2 * i));
		calib_sample(&s[n++], "conv", params,
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
		calib_sample(&s[n++], "conv", params,
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

	return (t0 + F / rate + Q / bw) * (1.0 + 0.02 * calib_noise(st));
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
		calib_sample(&s[n++], "conv", params,
		       ns_time(b, c, 161, 700, 32, 5, 20, 79, 341, 3e-5, 2e12,
			       2e11, &st), "s");
	}
	for (i = 0; i < 8; i++) {
		double b = 2 << i, c = i % 2 ? 64.0 : 192.0;

		snprintf(params, sizeof(params), "n=%.0f c=%.0f h=28 w=28 "
			 "k=64 r=5 s=5 stride=1 pad=2 pass=fwd dtype=fp32 "
			 "math=fp32 device=Synth", b, c);
		calib_sample(&s[n++], "conv", params,
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
		calib_sample(&s[n++], "conv", params,
		       1.5 * ns_time(b, 32, 79, 341, 32, 5, 10, 38, 166, 2e-5,
				     5e12, 4e11, &st), "s");
	}
	for (i = 0; i < 12; i++) {
		double b = 2 << (i % 6), c = i < 6 ? 64.0 : 192.0;

		snprintf(params, sizeof(params), "n=%.0f c=%.0f h=28 w=28 "
			 "k=64 r=5 s=5 stride=1 pad=2 pass=fwd dtype=fp16 "
			 "math=fp32 device=Synth", b, c);
		calib_sample(&s[n++], "conv", params,
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

/* `dlsim calibrate fit` prints every class's kind and its byte term. */
START_TEST(cal_cli_fit_prints_conv_classes)
{
	char args[512];
	struct tmpdb t;
	struct run r;

	tmpdb_open(&t);
	store_conv(t.db);
	snprintf(args, sizeof(args), "calibrate fit --hw conv --db %s",
		 t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, "conv3x3:fp16") &&
		      strstr(r.out, "conv:fp16") &&
		      strstr(r.out, "conv1x1:fp16") &&
		      strstr(r.out, "conv_unaligned:fp16") &&
		      strstr(r.out, "s_per_byte"), "%s", r.out);
	tmpdb_close(&t);
}
END_TEST

/*
 * The fit a roofline group makes, by its benchmark and class parameter
 * (model_kernel_name's table): each class its own, a class the list does not
 * have the benchmark's plain one (GEMM, convolution, the pooled
 * recurrent fit), a benchmark no roofline has no class's.
 */
START_TEST(model_kernel_of_class_names_each_group)
{
	ck_assert_int_eq(model_kernel_of_class("gemm", ""), MODEL_KERNEL_GEMM);
	ck_assert_int_eq(model_kernel_of_class("gemm", "unaligned"),
			 MODEL_KERNEL_GEMM_UNALIGNED);
	ck_assert_int_eq(model_kernel_of_class("conv", "other"),
			 MODEL_KERNEL_CONV);
	ck_assert_int_eq(model_kernel_of_class("conv", "3x3s1"),
			 MODEL_KERNEL_CONV3X3);
	ck_assert_int_eq(model_kernel_of_class("conv", "1x1s1"),
			 MODEL_KERNEL_CONV1X1);
	ck_assert_int_eq(model_kernel_of_class("conv", "1x1strided"),
			 MODEL_KERNEL_CONV1X1_STRIDED);
	ck_assert_int_eq(model_kernel_of_class("conv", "nonsquare"),
			 MODEL_KERNEL_CONV_NONSQUARE);
	ck_assert_int_eq(model_kernel_of_class("conv", "unaligned"),
			 MODEL_KERNEL_CONV_UNALIGNED);
	ck_assert_int_eq(model_kernel_of_class("rnn", "lstm"),
			 MODEL_KERNEL_LSTM);
	ck_assert_int_eq(model_kernel_of_class("rnn", "gru"), MODEL_KERNEL_GRU);
	ck_assert_int_eq(model_kernel_of_class("rnn", "vanilla"),
			 MODEL_KERNEL_RNN_TANH);
	/* not listed: the plain class */
	ck_assert_int_eq(model_kernel_of_class("conv", ""), MODEL_KERNEL_CONV);
	ck_assert_int_eq(model_kernel_of_class("conv", "5x5s1"),
			 MODEL_KERNEL_CONV);
	ck_assert_int_eq(model_kernel_of_class("rnn", ""),
			 MODEL_KERNEL_RECURRENT);
	ck_assert_int_eq(model_kernel_of_class("gemm", "3x3s1"),
			 MODEL_KERNEL_GEMM);
	/* a cell is spelled as DeepBench does: "tanh" is no cell's */
	ck_assert_int_eq(model_kernel_of_class("rnn", "tanh"),
			 MODEL_KERNEL_RECURRENT);
	/* another benchmark's class is this one's plain class */
	ck_assert_int_eq(model_kernel_of_class("conv", "lstm"),
			 MODEL_KERNEL_CONV);
	ck_assert_int_eq(model_kernel_of_class("rnn", "unaligned"),
			 MODEL_KERNEL_RECURRENT);
	ck_assert_int_eq(model_kernel_of_class("stream", ""),
			 MODEL_KERNEL_VECTOR);
	ck_assert_int_eq(model_kernel_of_class("allreduce", ""),
			 MODEL_KERNEL_VECTOR);
}
END_TEST

Suite *suite_calfit_conv(void)
{
	Suite *s = suite_create("calfit_conv");
	TCase *c = tcase_create("calfit_conv");

	tcase_set_timeout(c, 30);
	tcase_add_test(c, cal_fit_conv_recovers_roofline_per_class);
	tcase_add_test(c, cal_fit_conv_fits_nonsquare_windows_apart);
	tcase_add_test(c, cal_fit_conv_scales_one_nonsquare_shape);
	tcase_add_test(c, cal_cli_fit_prints_conv_classes);
	tcase_add_test(c, model_kernel_of_class_names_each_group);
	suite_add_tcase(s, c);
	return s;
}
