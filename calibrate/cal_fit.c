/*
 * cal_fit.c -- the fits calibration makes from measurements, with GSL:
 * piecewise alpha-beta (LogGP's L and G) lines over message size with
 * their breakpoints found, and a saturating efficiency curve over problem
 * size.
 *
 * PIECEWISE LINES (message time against size)
 * Time t(m) = a + b m on each segment, a being the per-message latency
 * and 1/b the bandwidth (the alpha-beta form of LogGP, Alexandrov et al.
 * 1995).  Libraries switch protocols with size (eager to rendezvous in
 * MPI; LL, LL128 and Simple in NCCL), so one line rarely fits: the
 * points, sorted by size, are cut into 1 to max_segments runs by dynamic
 * programming over the least-squares cost of every run (exact, O(k n^2)
 * with prefix sums).  One more run is kept only if it explains
 * significantly more: the F-test of nested models, F = ((SSE_k -
 * SSE_k+1) / 3) / (SSE_k+1 / (n - 3(k+1) + 1)), three more parameters (a
 * line and a breakpoint), at the 0.1% level.  (The information criteria
 * let a run of 13 noisy points split in two; the F-test does not.)  Times span
 * decades, so each point is weighted by 1/t^2: the fit minimizes relative
 * error.  Each run is then fitted by gsl_fit_wlinear, which gives the
 * coefficients' covariance.
 *
 * SATURATING EFFICIENCY (attained / peak against problem size)
 * e(x) = e_max x / (x + x_half): small problems cannot fill the device,
 * large ones approach e_max (the Michaelis-Menten form roofline
 * calibrations use for occupancy).  Fitted by gsl_multifit_nlinear
 * (Levenberg-Marquardt); the covariance is GSL's, scaled by the residual
 * variance (chi^2 / dof).
 *
 * LIMITATIONS
 * - Runs need at least three points each; a breakpoint is placed between
 *   measured sizes, not interpolated.
 * - The efficiency curve has one shape parameter: shape effects beyond
 *   size (wave quantization, skinny GEMMs) show up as residuals.
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dlsim.h"
#include "calibrate/cal.h"
#include "core/banned.h"

#define CAL_MIN_RUN 3

/* ---------------------------------------------------------------- */
/* Piecewise lines                                                   */
/* ---------------------------------------------------------------- */

/* Prefix sums of the weighted normal equations, for any run's SSE. */
struct sums {
	double *w, *wx, *wy, *wxx, *wxy, *wyy;
};

static double run_sse(const struct sums *s, int i, int j)
{
	double w = s->w[j] - s->w[i], wx = s->wx[j] - s->wx[i];
	double wy = s->wy[j] - s->wy[i], wxx = s->wxx[j] - s->wxx[i];
	double wxy = s->wxy[j] - s->wxy[i], wyy = s->wyy[j] - s->wyy[i];
	double det = w * wxx - wx * wx, a, b, sse;

	if (det <= 0.0 || w <= 0.0)
		return HUGE_VAL;
	b = (w * wxy - wx * wy) / det;
	a = (wy - b * wx) / w;
	sse = wyy - 2.0 * a * wy - 2.0 * b * wxy + a * a * w +
	      2.0 * a * b * wx + b * b * wxx;
	return sse > 0.0 ? sse : 0.0;
}

static int sums_init(struct sums *s, const double *x, const double *y, int n)
{
	double *all = calloc(6 * ((size_t)n + 1), sizeof(double));
	int i;

	if (!all)
		return -1;
	s->w = all;
	s->wx = all + (n + 1);
	s->wy = all + 2 * (n + 1);
	s->wxx = all + 3 * (n + 1);
	s->wxy = all + 4 * (n + 1);
	s->wyy = all + 5 * (n + 1);
	for (i = 0; i < n; i++) {
		double w = 1.0 / (y[i] * y[i]);

		s->w[i + 1] = s->w[i] + w;
		s->wx[i + 1] = s->wx[i] + w * x[i];
		s->wy[i + 1] = s->wy[i] + w * y[i];
		s->wxx[i + 1] = s->wxx[i] + w * x[i] * x[i];
		s->wxy[i + 1] = s->wxy[i] + w * x[i] * y[i];
		s->wyy[i + 1] = s->wyy[i] + w * y[i] * y[i];
	}
	return 0;
}

/*
 * Best cut of points [0, n) into k runs: cost[k][j] is the least SSE of
 * the first j points in k runs, cut[k][j] where the last run starts.
 */
static double best_cut(const struct sums *s, int n, int k, int *starts,
		       double *cost, int *cut)
{
	int r, j, i;

	for (j = 0; j <= n; j++)
		cost[j] = j >= CAL_MIN_RUN ? run_sse(s, 0, j) : HUGE_VAL;
	for (r = 2; r <= k; r++) {
		double *prev = cost + (size_t)(r - 2) * (n + 1);
		double *cur = prev + (n + 1);
		int *c = cut + (size_t)(r - 1) * (n + 1);

		for (j = 0; j <= n; j++) {
			cur[j] = HUGE_VAL;
			for (i = CAL_MIN_RUN * (r - 1); i + CAL_MIN_RUN <= j;
			     i++) {
				double v = prev[i] + run_sse(s, i, j);

				if (v < cur[j]) {
					cur[j] = v;
					c[j] = i;
				}
			}
		}
	}
	j = n;
	for (r = k; r >= 1; r--) {
		starts[r - 1] = r == 1 ? 0 : cut[(size_t)(r - 1) * (n + 1) + j];
		j = starts[r - 1];
	}
	return cost[(size_t)(k - 1) * (n + 1) + n];
}

int cal_f_test_keeps(double sse_fewer, double sse_more, double extra,
		     double dof)
{
	double f;

	if (dof < 1.0)
		return 0;
	f = ((sse_fewer - sse_more) / extra) /
	    (sse_more > 1e-300 ? sse_more / dof : 1e-300);
	return gsl_cdf_fdist_Q(f, extra, dof) < 1e-3;
}

static int fit_run(const double *x, const double *y, int lo, int hi,
		   struct cal_line_fit *f)
{
	int n = hi - lo, i;
	double *w = malloc((size_t)n * sizeof(double)), sumsq;

	if (!w)
		return -1;
	for (i = 0; i < n; i++)
		w[i] = 1.0 / (y[lo + i] * y[lo + i]);
	gsl_fit_wlinear(x + lo, 1, w, 1, y + lo, 1, (size_t)n, &f->a, &f->b,
			&f->cov_aa, &f->cov_ab, &f->cov_bb, &sumsq);
	free(w);
	/* gsl's covariance assumes the weights are 1/sigma^2; ours are
	 * relative, so scale by the residual variance (chi^2 / dof) */
	if (n > 2) {
		double s2 = sumsq / (double)(n - 2);

		f->cov_aa *= s2;
		f->cov_ab *= s2;
		f->cov_bb *= s2;
	}
	f->rel_rms = sqrt(sumsq / (double)n);
	f->n = n;
	f->x_lo = x[lo];
	f->x_hi = x[hi - 1];
	return 0;
}

static int check_points(const double *x, const double *y, int n,
			struct dlsim_err *err)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!(y[i] > 0.0) || !isfinite(y[i]) || !isfinite(x[i]))
			return dlsim_err_set(err, DLSIM_EINVAL, "point %d: "
					     "times must be positive and "
					     "finite (got %g at %g)", i, y[i],
					     x[i]);
		if (i && x[i] < x[i - 1])
			return dlsim_err_set(err, DLSIM_EINVAL, "points must "
					     "be sorted by size (point %d)",
					     i);
	}
	return DLSIM_OK;
}

int cal_fit_lines(const double *x, const double *y, int n,
		  int max_segments, struct cal_line_fit *out, int *n_out,
		  struct dlsim_err *err)
{
	int starts[CAL_MAX_SEGMENTS + 1], best_starts[CAL_MAX_SEGMENTS];
	double *cost = NULL, best_sse = HUGE_VAL;
	int *cut = NULL, k, best_k = 0, rc;
	struct sums s;

	*n_out = 0;
	if (max_segments < 1 || max_segments > CAL_MAX_SEGMENTS)
		return dlsim_err_set(err, DLSIM_EINVAL, "1 to %d segments",
				     CAL_MAX_SEGMENTS);
	if (n < CAL_MIN_RUN)
		return dlsim_err_set(err, DLSIM_EINVAL, "a line needs at "
				     "least %d points (got %d)", CAL_MIN_RUN,
				     n);
	if ((rc = check_points(x, y, n, err)))
		return rc;
	cost = malloc((size_t)max_segments * ((size_t)n + 1) * sizeof(*cost));
	cut = calloc((size_t)max_segments * ((size_t)n + 1), sizeof(*cut));
	if (!cost || !cut || sums_init(&s, x, y, n)) {
		free(cost);
		free(cut);
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	}
	for (k = 1; k <= max_segments && k * CAL_MIN_RUN <= n; k++) {
		double sse = best_cut(&s, n, k, starts, cost, cut);
		double dof = (double)(n - 3 * k + 1);

		if (k > 1 && !cal_f_test_keeps(best_sse, sse, 3.0, dof))
			break;
		best_sse = sse;
		best_k = k;
		memcpy(best_starts, starts, (size_t)k * sizeof(int));
	}
	free(s.w);
	free(cost);
	free(cut);
	for (k = 0; k < best_k; k++) {
		int hi = k + 1 < best_k ? best_starts[k + 1] : n;

		if (fit_run(x, y, best_starts[k], hi, &out[k]))
			return dlsim_err_set(err, DLSIM_ENOMEM,
					     "out of memory");
	}
	*n_out = best_k;
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Saturating efficiency                                             */
/* ---------------------------------------------------------------- */

struct sat_data {
	const double *x, *y;
	size_t n;
};

/* residual_i = e x_i / (x_i + h) - y_i, with h = exp(q) kept positive */
static int sat_f(const gsl_vector *p, void *ctx, gsl_vector *f)
{
	const struct sat_data *d = ctx;
	double e = gsl_vector_get(p, 0), h = exp(gsl_vector_get(p, 1));
	size_t i;

	for (i = 0; i < d->n; i++)
		gsl_vector_set(f, i, e * d->x[i] / (d->x[i] + h) - d->y[i]);
	return GSL_SUCCESS;
}

static int sat_df(const gsl_vector *p, void *ctx, gsl_matrix *J)
{
	const struct sat_data *d = ctx;
	double e = gsl_vector_get(p, 0), h = exp(gsl_vector_get(p, 1));
	size_t i;

	for (i = 0; i < d->n; i++) {
		double den = d->x[i] + h;

		gsl_matrix_set(J, i, 0, d->x[i] / den);
		gsl_matrix_set(J, i, 1, -e * d->x[i] * h / (den * den));
	}
	return GSL_SUCCESS;
}

static double median_of(const double *v, size_t n)
{
	double *c = malloc(n * sizeof(double)), m;
	size_t i, j;

	if (!c)
		return v[n / 2];
	memcpy(c, v, n * sizeof(double));
	for (i = 1; i < n; i++)           /* n is small: insertion sort */
		for (j = i; j > 0 && c[j - 1] > c[j]; j--) {
			double t = c[j];

			c[j] = c[j - 1];
			c[j - 1] = t;
		}
	m = c[n / 2];
	free(c);
	return m;
}

int cal_fit_saturating(const double *x, const double *y, int n,
		       struct cal_sat_fit *out, struct dlsim_err *err)
{
	struct sat_data d = { x, y, (size_t)n };
	gsl_multifit_nlinear_parameters params =
		gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_fdf fdf;
	gsl_multifit_nlinear_workspace *w;
	gsl_matrix *cov;
	gsl_error_handler_t *old;
	double p0[2], ymax = 0.0, chi2;
	gsl_vector_view pv = gsl_vector_view_array(p0, 2);
	int i, info, status;

	memset(out, 0, sizeof(*out));
	if (n < 3)
		return dlsim_err_set(err, DLSIM_EINVAL, "a curve needs at "
				     "least 3 points (got %d)", n);
	for (i = 0; i < n; i++) {
		if (!(x[i] > 0.0) || !isfinite(x[i]) || !isfinite(y[i]) ||
		    y[i] < 0.0)
			return dlsim_err_set(err, DLSIM_EINVAL, "point %d: "
					     "sizes must be positive and "
					     "efficiencies not negative", i);
		if (y[i] > ymax)
			ymax = y[i];
	}
	p0[0] = ymax;
	p0[1] = log(median_of(x, (size_t)n));
	fdf.f = sat_f;
	fdf.df = sat_df;
	fdf.fvv = NULL;
	fdf.n = (size_t)n;
	fdf.p = 2;
	fdf.params = &d;
	w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params,
				       (size_t)n, 2);
	cov = gsl_matrix_alloc(2, 2);
	if (!w || !cov) {
		gsl_multifit_nlinear_free(w);
		gsl_matrix_free(cov);
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	}
	/* GSL's default handler aborts; report its codes instead, and put
	 * the caller's handler back */
	old = gsl_set_error_handler_off();
	gsl_multifit_nlinear_init(&pv.vector, &fdf, w);
	status = gsl_multifit_nlinear_driver(200, 1e-10, 1e-10, 0.0, NULL,
					     NULL, &info, w);
	if (status == GSL_SUCCESS || status == GSL_EMAXITER) {
		gsl_vector *f = gsl_multifit_nlinear_residual(w);
		gsl_vector *p = gsl_multifit_nlinear_position(w);
		double h, dof = (double)(n - 2);

		gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0,
					   cov);
		chi2 = 0.0;
		for (i = 0; i < n; i++)
			chi2 += gsl_vector_get(f, (size_t)i) *
				gsl_vector_get(f, (size_t)i);
		h = exp(gsl_vector_get(p, 1));
		out->e_max = gsl_vector_get(p, 0);
		out->x_half = h;
		/* the fit is in q = ln h: var(h) = h^2 var(q) */
		out->var_e_max = gsl_matrix_get(cov, 0, 0) * chi2 / dof;
		out->var_x_half = h * h * gsl_matrix_get(cov, 1, 1) * chi2 /
				  dof;
		out->rms = sqrt(chi2 / (double)n);
		out->n = n;
	}
	gsl_multifit_nlinear_free(w);
	gsl_matrix_free(cov);
	gsl_set_error_handler(old);
	if (status != GSL_SUCCESS && status != GSL_EMAXITER)
		return dlsim_err_set(err, DLSIM_EINVAL, "the efficiency fit "
				     "did not converge: %s",
				     gsl_strerror(status));
	return DLSIM_OK;
}
