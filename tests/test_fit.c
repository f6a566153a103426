/*
 * test_fit.c -- the calibration fits on synthetic data with known
 * parameters: each must come back within its own interval (three
 * standard deviations), and the breakpoints where the data change.
 */
#include <math.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"

/* A fixed pseudo-random stream (Park & Miller's minimal standard), so
 * the "noise" is the same on every run. */
static double noise(unsigned long *state)
{
	*state = (*state * 48271UL) % 2147483647UL;
	return (double)*state / 2147483647.0 - 0.5;   /* in [-0.5, 0.5) */
}

/*
 * Two protocols: below 64 KiB t = 2 us + m / 10 GB/s, from 64 KiB on
 * t = 10 us + m / 20 GB/s, with +-1% multiplicative noise, sizes 8 B to
 * 64 MiB doubling (24 points).  The fit must find two runs split at
 * 64 KiB and recover both lines within 3 sigma.
 */
START_TEST(fit_lines_finds_the_protocol_switch)
{
	double x[24], y[24];
	struct cal_line_fit f[CAL_MAX_SEGMENTS];
	unsigned long st = 12345;
	int i, n;

	for (i = 0; i < 24; i++) {
		x[i] = 8.0 * pow(2.0, i);
		y[i] = x[i] < 65536.0 ? 2e-6 + x[i] / 10e9 :
		       10e-6 + x[i] / 20e9;
		y[i] *= 1.0 + 0.02 * noise(&st);
	}
	ck_assert_int_eq(cal_fit_lines(x, y, 24, 3, f, &n, NULL), DLSIM_OK);
	ck_assert_int_eq(n, 2);
	ck_assert(f[0].x_hi < 65536.0 && f[1].x_lo == 65536.0);
	ck_assert_msg(fabs(f[0].a - 2e-6) <= 3.0 * sqrt(f[0].cov_aa),
		      "a0 = %g +- %g", f[0].a, sqrt(f[0].cov_aa));
	ck_assert_msg(fabs(f[0].b - 1e-10) <= 3.0 * sqrt(f[0].cov_bb),
		      "b0 = %g +- %g", f[0].b, sqrt(f[0].cov_bb));
	ck_assert_msg(fabs(f[1].a - 10e-6) <= 3.0 * sqrt(f[1].cov_aa),
		      "a1 = %g +- %g", f[1].a, sqrt(f[1].cov_aa));
	ck_assert_msg(fabs(f[1].b - 5e-11) <= 3.0 * sqrt(f[1].cov_bb),
		      "b1 = %g +- %g", f[1].b, sqrt(f[1].cov_bb));
	ck_assert(f[0].rel_rms < 0.02 && f[1].rel_rms < 0.02);
}
END_TEST

/* One straight line is one run: the extra runs do not pay for their
 * parameters under the information criterion. */
START_TEST(fit_lines_keeps_one_line_for_one_protocol)
{
	double x[16], y[16];
	struct cal_line_fit f[CAL_MAX_SEGMENTS];
	unsigned long st = 777;
	int i, n;

	for (i = 0; i < 16; i++) {
		x[i] = 1024.0 * pow(2.0, i);
		y[i] = (5e-6 + x[i] / 12.5e9) * (1.0 + 0.01 * noise(&st));
	}
	ck_assert_int_eq(cal_fit_lines(x, y, 16, 4, f, &n, NULL), DLSIM_OK);
	ck_assert_int_eq(n, 1);
	ck_assert(fabs(1.0 / f[0].b - 12.5e9) < 0.02 * 12.5e9);
}
END_TEST

START_TEST(fit_lines_rejects_bad_points)
{
	double x[4] = { 1, 2, 3, 4 }, y[4] = { 1, 2, -3, 4 };
	double xs[4] = { 4, 3, 2, 1 }, ys[4] = { 1, 1, 1, 1 };
	struct cal_line_fit f[CAL_MAX_SEGMENTS];
	struct dlsim_err err = { 0, "" };
	int n;

	ck_assert_int_eq(cal_fit_lines(x, y, 4, 2, f, &n, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "point 2") != NULL);
	dlsim_err_clear(&err);
	ck_assert_int_eq(cal_fit_lines(xs, ys, 4, 2, f, &n, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "sorted") != NULL);
	ck_assert_int_eq(cal_fit_lines(x, ys, 2, 2, f, &n, NULL),
			 DLSIM_EINVAL);
	ck_assert_int_eq(cal_fit_lines(x, ys, 4, 9, f, &n, NULL),
			 DLSIM_EINVAL);
	ck_assert_int_eq(n, 0);
}
END_TEST

/*
 * Kernel times t = 5 us + F / 1e13 + Q / 1e12 over square GEMMs and
 * skinny ones (n = 16), m from 32 to 16384, so that the FLOP and byte
 * terms are told apart; +-1% relative noise.  All three terms must come
 * back within 3 sigma.
 */
START_TEST(fit_roofline_recovers_its_parameters)
{
	double F[20], Q[20], t[20];
	struct cal_roof_fit f;
	unsigned long st = 4242;
	int i;

	for (i = 0; i < 20; i++) {
		double m = floor(pow(2.0, 5.0 + i / 2)), n = i % 2 ? 16.0 : m;

		F[i] = 2.0 * m * n * m;
		Q[i] = 4.0 * (m * m + m * n + m * n);
		t[i] = (5e-6 + F[i] / 1e13 + Q[i] / 1e12) *
		       (1.0 + 0.02 * noise(&st));
	}
	ck_assert_int_eq(cal_fit_roofline(F, Q, NULL, t, 20, CAL_ROOF_SQUARES,
					  &f, NULL), DLSIM_OK);
	ck_assert_uint_eq(f.terms, 7u);
	ck_assert_msg(fabs(f.fixed_s - 5e-6) <= 3.0 * sqrt(f.cov[0][0]),
		      "fixed = %g +- %g", f.fixed_s, sqrt(f.cov[0][0]));
	ck_assert_msg(fabs(f.s_per_flop - 1e-13) <= 3.0 * sqrt(f.cov[1][1]),
		      "s/flop = %g +- %g", f.s_per_flop, sqrt(f.cov[1][1]));
	ck_assert_msg(fabs(f.s_per_byte - 1e-12) <= 3.0 * sqrt(f.cov[2][2]),
		      "s/byte = %g +- %g", f.s_per_byte, sqrt(f.cov[2][2]));
	ck_assert(f.rms > 0.002 && f.rms < 0.01);
	ck_assert_int_eq(f.n, 20);
	/* the time a fit gives is the sum of its terms: set by hand, 5 us
	 * + 1e12 FLOPs x 1e-13 + 1e9 B x 1e-12 + 4 calls x 2 us = 5e-6 +
	 * 0.1 + 1e-3 + 8e-6 = 0.101013 s */
	memset(&f, 0, sizeof(f));
	f.fixed_s = 5e-6;
	f.s_per_flop = 1e-13;
	f.s_per_byte = 1e-12;
	f.s_per_call = 2e-6;
	ck_assert_rel(cal_roof_time(&f, 1e12, 1e9, 4.0), 0.101013, 1e-12);
}
END_TEST

/* n shapes of F = f0 4^i FLOPs and Q = q0 2^i bytes, taking t = fixed +
 * F / 1e12 each. */
static void shapes(double *F, double *Q, double *t, int n, double f0,
		   double q0, double fixed)
{
	int i;

	for (i = 0; i < n; i++) {
		F[i] = f0 * pow(4.0, i);
		Q[i] = q0 * pow(2.0, i);
		t[i] = fixed + F[i] / 1e12;
	}
}

/*
 * t = F / 1e12 - 1 us, exactly: the unconstrained fit's fixed term is
 * -1 us, which no kernel has.  The fit drops it (and the byte term,
 * which only made things worse) and keeps the FLOP term alone.  That
 * term's least squares in log: F_i = 1e7 4^i, t_i / F_i = 1e-12 (1 -
 * 0.1 x 4^-i), so log s = log 1e-12 + mean_i log(1 - 0.1 x 4^-i), the
 * six logs -0.1053605, -0.0253178, -0.0062696, -0.0015637,
 * -0.0003907, -0.0000977: mean -0.0231667, s = 0.9770996e-12 (2.3%
 * fast), and the rms of the log residuals 0.0377791.
 */
START_TEST(fit_roofline_drops_a_negative_term)
{
	double F[6], Q[6], t[6];
	struct cal_roof_fit f;

	shapes(F, Q, t, 6, 1e7, 1e5, -1e-6);
	ck_assert_int_eq(cal_fit_roofline(F, Q, NULL, t, 6, CAL_ROOF_SQUARES,
					  &f, NULL), DLSIM_OK);
	ck_assert_uint_eq(f.terms & 1u, 0u);
	ck_assert(f.fixed_s == 0.0 && f.cov[0][0] == 0.0);
	ck_assert_uint_eq(f.terms, 2u);
	ck_assert(f.s_per_byte == 0.0);
	ck_assert_rel(f.s_per_flop, 0.97709961685e-12, 1e-10);
	ck_assert_rel(f.rms, 0.0377791333, 1e-8);
}
END_TEST

/* Three shapes, each timed at half and at twice t = F / 1e12. */
static void half_and_double(double F[6], double Q[6], double t[6])
{
	int i;

	for (i = 0; i < 6; i++) {
		F[i] = 1e9 * pow(4.0, i / 2);
		Q[i] = 1e6 * pow(3.0, i / 2);
		t[i] = F[i] / 1e12 * (i % 2 ? 2.0 : 0.5);
	}
}

/*
 * Multiplicative scatter: each shape timed twice, at half and at twice
 * t = F / 1e12.  A prediction for a shape is one value, and the one
 * nearest both in log is their geometric mean, F / 1e12 itself, which
 * the FLOP term alone reaches: the fit gives 1 / R = 1e-12 exactly, each
 * log residual +-log 2 (rms log 2).  The least squares of the relative
 * error would give 1e-12 (2 + 1/2) / (4 + 1/4) = 0.588e-12: 41% fast.
 */
START_TEST(fit_roofline_is_unbiased_in_log)
{
	double F[6], Q[6], t[6];
	struct cal_roof_fit f;

	half_and_double(F, Q, t);
	ck_assert_int_eq(cal_fit_roofline(F, Q, NULL, t, 6, CAL_ROOF_SQUARES,
					  &f, NULL), DLSIM_OK);
	ck_assert_uint_eq(f.terms, 2u);
	ck_assert_msg(fabs(f.s_per_flop / 1e-12 - 1.0) < 1e-9, "%.12g",
		      f.s_per_flop);
	ck_assert(fabs(f.rms - log(2.0)) < 1e-9);
}
END_TEST

/*
 * Huber's loss and two kernels ten times slow.  Ten shapes, t = F / 1e12
 * times e^r, r = +a, -a, ... (a = 0.05) for eight and log 10 for the two
 * largest.  With the FLOP term alone, u = log(1e12 s) and the log
 * residuals are u - r.  Least squares: u = mean r = log(10) / 5, s =
 * 10^(1/5) 1e-12 = 1.58489e-12, 58% slow on every good shape.  Its
 * residuals' median is u - a; their absolute deviations from it 0 (four),
 * 2a (four) and log 10 - a (two), median 2a: k = 1.345 x 1.4826 x 2a =
 * 0.199411.  Huber's minimum has the eight within k of u (the slow two
 * beyond): 8u - 2k = 0, u = k / 4, s = e^(k/4) 1e-12 = 1.051116e-12.
 * Where every residual is within k (the half-and-double case above: each
 * log 2 from their median, k 1.38) Huber's fit is the least-squares
 * one; so is any fit of fewer than CAL_ROOF_HUBER_MIN points.
 */
START_TEST(fit_roofline_huber_discounts_outliers)
{
	double F[10], Q[10], t[10], k = 1.345 * 1.4826 * 0.1, u = k / 4.0;
	double L = log(10.0), ss;
	struct cal_roof_fit f, g;
	int i;

	for (i = 0; i < 10; i++) {
		F[i] = 1e9 * pow(4.0, i);
		Q[i] = 1e6 * pow(2.0, i);
		t[i] = F[i] / 1e12 * exp(i >= 8 ? L : i % 2 ? -0.05 : 0.05);
	}
	ck_assert_int_eq(cal_fit_roofline(F, Q, NULL, t, 10, CAL_ROOF_SQUARES,
					  &f, NULL), DLSIM_OK);
	ck_assert_uint_eq(f.terms, 2u);
	ck_assert(!f.huber);
	ck_assert_double_eq_tol(f.s_per_flop / 1e-12, pow(10.0, 0.2), 1e-9);
	ck_assert_int_eq(cal_fit_roofline(F, Q, NULL, t, 10, CAL_ROOF_HUBER,
					  &g, NULL), DLSIM_OK);
	ck_assert_uint_eq(g.terms, 2u);
	ck_assert(g.huber);
	ck_assert_double_eq_tol(g.s_per_flop / 1e-12, exp(u), 1e-6);
	/* rms stays the rms of the log residuals, at Huber's fit */
	ss = 4.0 * pow(u - 0.05, 2) + 4.0 * pow(u + 0.05, 2);
	ck_assert_double_eq_tol(g.rms, sqrt((ss + 2.0 * pow(u - L, 2)) / 10.0),
				1e-6);
	/* Huber's covariance: J_i = 1 / s, so (J'J)^-1 = s^2 / 10; the slow
	 * two count k^2 each in sum psi^2, f = 8/10, K = 1 + 0.2 / 8 */
	ck_assert_double_eq_tol(g.cov[1][1] / (g.s_per_flop * g.s_per_flop),
				1.025 * 1.025 * (ss + 2.0 * k * k) / 9.0 /
				0.64 / 10.0, 1e-5);
	/* five points: least squares, however odd */
	ck_assert_int_eq(cal_fit_roofline(F + 5, Q + 5, NULL, t + 5, 5,
					  CAL_ROOF_HUBER, &g, NULL), DLSIM_OK);
	ck_assert(!g.huber);
	half_and_double(F, Q, t);
	for (i = 6; i < 10; i++) {
		F[i] = F[i - 6];
		Q[i] = Q[i - 6];
		t[i] = t[i - 6];
	}
	ck_assert_int_eq(cal_fit_roofline(F, Q, NULL, t, 10, CAL_ROOF_HUBER,
					  &g, NULL), DLSIM_OK);
	ck_assert_double_eq_tol(g.s_per_flop / 1e-12, 1.0, 1e-9);
}
END_TEST

/* CAL_ROOF_NO_FIXED leaves the fixed term out, though the times have
 * one (10 us).  Of the subsets left, FLOPs alone has the closed form s =
 * exp(mean log(t_i / F_i)) = 1.0022153e-12 at a log rms of 0.0035656;
 * FLOPs and bytes do better, the byte term (Q_i = 1e6 2^i, falling
 * against F_i = 1e9 4^i as the 10 us does) standing in for the fixed
 * one.  Their log least squares, by Gauss-Newton outside dlsim (200
 * steps from 1e-12, 1e-12): s = 0.99885657e-12, 1/B = 1.0254370e-11
 * s/byte, rms 0.00087385. */
START_TEST(fit_roofline_can_leave_the_fixed_term_out)
{
	double F[6], Q[6], t[6];
	struct cal_roof_fit f;

	shapes(F, Q, t, 6, 1e9, 1e6, 1e-5);
	ck_assert_int_eq(cal_fit_roofline(F, Q, NULL, t, 6, CAL_ROOF_SQUARES,
					  &f, NULL), DLSIM_OK);
	ck_assert(f.terms & 1u);
	ck_assert_double_eq_tol(f.fixed_s, 1e-5, 1e-12);
	ck_assert_int_eq(cal_fit_roofline(F, Q, NULL, t, 6, CAL_ROOF_NO_FIXED,
					  &f, NULL), DLSIM_OK);
	ck_assert(!(f.terms & 1u) && f.fixed_s == 0.0);
	ck_assert_double_eq_tol(f.s_per_flop / 1e-12, 0.99885657, 1e-7);
	ck_assert_double_eq_tol(f.s_per_byte / 1e-11, 1.0254370, 1e-6);
	ck_assert_double_eq_tol(f.rms, 0.00087385, 1e-8);
}
END_TEST

START_TEST(fit_roofline_rejects_bad_points)
{
	double F[3] = { 1e9, 2e9, 3e9 }, Q[3] = { 1e6, 0.0, 1e6 };
	double t[3] = { 1e-3, 2e-3, 3e-3 };
	struct cal_roof_fit f;
	struct dlsim_err err = { 0, "" };

	ck_assert_int_eq(cal_fit_roofline(F, Q, NULL, t, 3, CAL_ROOF_SQUARES,
					  &f, &err), DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "point 1") != NULL);
	ck_assert_int_eq(cal_fit_roofline(F, Q, NULL, t, 2, CAL_ROOF_SQUARES,
					  &f, NULL), DLSIM_EINVAL);
}
END_TEST

Suite *suite_fit(void)
{
	Suite *s = suite_create("fit");
	TCase *c = tcase_create("fit");

	tcase_add_test(c, fit_lines_finds_the_protocol_switch);
	tcase_add_test(c, fit_lines_keeps_one_line_for_one_protocol);
	tcase_add_test(c, fit_lines_rejects_bad_points);
	tcase_add_test(c, fit_roofline_recovers_its_parameters);
	tcase_add_test(c, fit_roofline_drops_a_negative_term);
	tcase_add_test(c, fit_roofline_is_unbiased_in_log);
	tcase_add_test(c, fit_roofline_huber_discounts_outliers);
	tcase_add_test(c, fit_roofline_can_leave_the_fixed_term_out);
	tcase_add_test(c, fit_roofline_rejects_bad_points);
	suite_add_tcase(s, c);
	return s;
}
