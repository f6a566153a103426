/*
 * cal_fit.c -- the fits calibration makes from measurements, with GSL:
 * piecewise alpha-beta (LogGP's L and G) lines over message size with
 * their breakpoints found, and the calibrated roofline of a kernel over its
 * FLOPs and bytes.
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
 * CALIBRATED KERNEL ROOFLINE (time of a GEMM or convolution)
 * t = t0 + F / R + Q / B for a kernel of F FLOPs moving Q bytes (its
 * operands and result once).  t0 is the fixed cost of a call (launch,
 * tail of the last wave), R the attainable FLOP rate, B the bandwidth the
 * kernel attains on what it cannot hide behind compute.  A recurrent
 * pass is a chain of L dependent calls (each step's GEMM and element-
 * wise kernel, each waiting for the one before: Appleyard et al.,
 * arXiv:1604.01946, Sec. 2), so its fit has a fourth term, t0 + L c +
 * F / R + Q / B: c each call's fixed cost, t0 the pass's own (the
 * library's set-up of the chain).  A GEMM fit, whose points are single
 * calls, cannot tell t0 from c; the simulator charges its t0 per call.  The additive
 * form is the "roofline with overheads" of Lim, Banerjee et al. (shared/
 * reference/seed-000-004-lim-banerjee.md, line 286) with the max
 * replaced by a sum, which is what a single kernel measures when
 * its loads do not fully overlap its math.
 *
 * The fit minimises sum (log (predicted / measured))^2: kernel times span
 * four decades and their scatter is multiplicative (a library picks
 * another algorithm, another tile), and the error dlsim reports is a
 * ratio.  The model is linear in (t0, 1/R, 1/B), so the linear least
 * squares of the relative error (gsl_multifit_linear on rows divided by
 * t) starts it, and Gauss-Newton on the log residuals finishes it.  That
 * start alone, the first-order form, is biased: squared relative error
 * punishes over-predicting a short time more than under-predicting a long
 * one, and DeepBench's convolutions came out 13% fast on their own data
 * (median signed error), the CNN rows that use them as much; in log space
 * the in-sample bias is 1.5%.  Covariance sigma^2 (J'J)^-1, J the
 * Jacobian of the log residuals, sigma^2 their variance (a Huber fit's:
 * roof_huber_cov).
 * Non-negativity: every subset of the terms that keeps 1/R is fitted and
 * the feasible one with the least error wins (with calls, every subset
 * of the four).  That is the non-negative
 * optimum among fits with a FLOP term (the optimum is the unconstrained
 * fit on its own free terms); a purely memory-bound kernel set, which
 * would be better fitted without one, is not what this roofline is for.  On DeepBench's 160 GEMM
 * shapes per device this gives a median error of 5-10% where a curve over
 * size alone gave 10-15% (skinny shapes are bound by Q/B, which size
 * alone cannot see).
 *
 * Huber's loss (CAL_ROOF_HUBER) goes on from that fit: squares of the log
 * residuals within k of 0, k |r| - k^2 / 2 beyond, so that a few shapes
 * on which the library took another algorithm (DeepBench's GEMMs at
 * batch 8 or 16, a recurrent pass at batch 32 on Pascal) pull the rest
 * no more than in proportion to their distance.  k is 1.345 robust
 * standard deviations of the least-squares fit's log residuals (1.4826
 * times their median absolute deviation), Huber's constant for 95%
 * efficiency at normal errors, held fixed so that every subset of the
 * terms is judged by the same loss; iteratively reweighted least squares
 * (weights 1 within k, k / |r| beyond: Holland & Welsch 1977) finds
 * each subset's minimum.  cal_fitmodels.c says where it is used, and
 * what it did on DeepBench.
 *
 * LIMITATIONS
 * - Runs need at least three points each; a breakpoint is placed between
 *   measured sizes, not interpolated.
 * - The kernel roofline has no tile or wave term: wave quantization on
 *   small GEMMs and a library's algorithm switches show up as residuals.
 *   (A wave term at fixed 64-256 tiles, 1-4 per SM, was tried on
 *   DeepBench: held out, GEMM went from 10.8% to 11.1-12.0% and
 *   convolution from 15.5% to 16.4-17.7%; libraries pick the tile.)
 * - A recurrent fit describes its chains rather than the device: its
 *   terms trade against each other (DeepBench's Pascal rows give FLOP
 *   rates above the peak, the bytes term carrying the steps' weight
 *   reads), and where every point has one step count its fixed and
 *   per-call terms cannot be told apart.  It is judged by the held-out
 *   rows (dlsim validate --set deepbench_rnn_heldout), not by its
 *   parameters.
 */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_multifit.h>
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
/* The calibrated kernel roofline                                    */
/* ---------------------------------------------------------------- */

/* The points of a fit: FLOPs, bytes and dependent calls (NULL: one). */
struct roof_points {
	const double *F, *Q, *L;
};

/* The basis of term j at point i: 1, F, Q, L. */
static double roof_basis(const struct roof_points *x, int i, int j)
{
	return j == 0 ? 1.0 : j == 1 ? x->F[i] : j == 2 ? x->Q[i] :
	       x->L ? x->L[i] : 1.0;
}

/* Gauss-Newton iterations of the log-space fit, and the least step
 * halving it tries before it stops. */
#define ROOF_GN_ITER 60
#define ROOF_GN_MIN_STEP (1.0 / 1024.0)

/* Huber's tuning constant in units of the residuals' scale: 95%
 * efficiency at normal errors (Huber 1964, Ann. Math. Statist. 35(1);
 * Holland & Welsch 1977, Commun. Statist. A6(9), who give the IRLS);
 * the median absolute deviation over this is sigma at normal errors
 * (1 / 0.6745).  A scale below ROOF_EXACT (a log residual: 1e-9
 * relative) means half the residuals sit at their median: nothing to be
 * robust about. */
#define ROOF_HUBER_K 1.345
#define ROOF_MAD_SIGMA 1.4826
#define ROOF_EXACT 1e-9

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The loss of a log residual r: r^2 for least squares (k 0), Huber's
 * otherwise, r^2 / 2 within k of 0 and k |r| - k^2 / 2 beyond. */
static double roof_rho(double r, double k)
{
	double a = fabs(r);

	return k <= 0.0 ? r * r : a <= k ? 0.5 * a * a : k * (a - 0.5 * k);
}

/* sum over rows of roof_rho(log(x_i . b), k) into *loss; -1 when a
 * prediction is not positive (the logarithm does not exist there). */
static int roof_loss(const gsl_matrix *X, const gsl_vector *b, double k,
		     double *loss)
{
	size_t i, j;

	*loss = 0.0;
	for (i = 0; i < X->size1; i++) {
		double r = 0.0;

		for (j = 0; j < X->size2; j++)
			r += gsl_matrix_get(X, i, j) * gsl_vector_get(b, j);
		if (!(r > 0.0))
			return -1;
		*loss += roof_rho(log(r), k);
	}
	return 0;
}

/* At b: J_ik = x_ik / (x_i . b) and rho_i = -log(x_i . b) (every x_i . b
 * positive: roof_loss has checked b). */
static void roof_jacobian(const gsl_matrix *X, const gsl_vector *b,
			  gsl_matrix *J, gsl_vector *rho)
{
	size_t i, k;

	for (i = 0; i < X->size1; i++) {
		double r = 0.0;

		for (k = 0; k < X->size2; k++)
			r += gsl_matrix_get(X, i, k) * gsl_vector_get(b, k);
		gsl_vector_set(rho, i, -log(r));
		for (k = 0; k < X->size2; k++)
			gsl_matrix_set(J, i, k, gsl_matrix_get(X, i, k) / r);
	}
}

/* One Gauss-Newton step on the loss at k from b: the step d solves J d =
 * -log(x_i . b) in weighted least squares, each row weighted 1 (least
 * squares, or Huber's within k of 0) or k / |r| (Huber's beyond: the
 * iteratively reweighted least squares of Holland & Welsch), and is
 * halved until the loss falls.  0 moved, 1 at the minimum (no smaller
 * loss along d), -1 GSL failed. */
static int roof_step(const gsl_matrix *X, gsl_vector *b, double k,
		     gsl_matrix *J, gsl_vector *rho, gsl_vector *wt,
		     gsl_vector *d, gsl_vector *trial, gsl_matrix *C,
		     gsl_multifit_linear_workspace *w, double *loss)
{
	double chi2, step, next;
	size_t i;

	roof_jacobian(X, b, J, rho);
	for (i = 0; i < X->size1; i++) {
		double a = fabs(gsl_vector_get(rho, i));

		gsl_vector_set(wt, i, k <= 0.0 || a <= k ? 1.0 : k / a);
	}
	if (gsl_multifit_wlinear(J, wt, rho, d, C, &chi2, w) != GSL_SUCCESS)
		return -1;
	for (step = 1.0; step >= ROOF_GN_MIN_STEP; step /= 2.0) {
		gsl_vector_memcpy(trial, b);
		gsl_blas_daxpy(step, d, trial);
		if (roof_loss(X, trial, k, &next) == 0 && next < *loss) {
			gsl_vector_memcpy(b, trial);
			*loss = next;
			return 0;
		}
	}
	return 1;
}

/* Gauss-Newton steps at k from b until none lowers the loss (at most
 * ROOF_GN_ITER); *loss the loss reached.  0, or -1 when GSL fails or a
 * prediction at b is not positive. */
static int roof_descend(const gsl_matrix *X, gsl_vector *b, double k,
			gsl_matrix *J, gsl_vector *rho, gsl_vector *wt,
			gsl_vector *d, gsl_vector *trial, gsl_matrix *C,
			gsl_multifit_linear_workspace *w, double *loss)
{
	int it, moved = 0;

	if (roof_loss(X, b, k, loss))
		return -1;
	for (it = 0; it < ROOF_GN_ITER && moved == 0; it++)
		moved = roof_step(X, b, k, J, rho, wt, d, trial, C, w, loss);
	return moved < 0 ? -1 : 0;
}

/*
 * C, sigma^2 (J'J)^-1 with sigma^2 = chi2 / (n - p) as least squares
 * gives it, made the covariance of Huber's estimate at tuning constant k
 * from the residuals -rho: Huber's (1981, Robust Statistics, ch. 7;
 * statsmodels' RLM calls it H1) K^2 [sum psi(r)^2 / (n - p)] / f^2
 * (J'J)^-1, psi(r) r
 * clipped to +-k, f the share of residuals within k, K = 1 + p (1 - f) /
 * (n f) (the finite-sample factor).  The outliers count for k each, not
 * for what least squares would charge them.  Unchanged when no residual
 * is within k or chi2 is 0.
 */
static void roof_huber_cov(const gsl_vector *rho, double k, int p,
			   double chi2, gsl_matrix *C)
{
	size_t i, n = rho->size;
	double s = 0.0, m = 0.0, f, kf;

	for (i = 0; i < n; i++) {
		double r = fabs(gsl_vector_get(rho, i));

		s += r <= k ? r * r : k * k;
		m += r <= k;
	}
	if (!(m > 0.0) || !(chi2 > 0.0) || (double)n <= (double)p)
		return;
	f = m / (double)n;
	kf = 1.0 + (double)p * (1.0 - f) / ((double)n * f);
	gsl_matrix_scale(C, kf * kf * s / (f * f) / chi2);
}

/*
 * The fit over the terms in mask (bit j: term j): the least squares of
 * sum (log (sum_j c_j basis_j / t))^2, by Gauss-Newton from the linear
 * least squares of the relative error (its first-order form); with hk
 * above 0, then Huber's loss of the same log residuals at tuning
 * constant hk, by iteratively reweighted least squares from there.
 * Fills c (0 for the terms left out), cov (0 likewise: sigma^2 (J'J)^-1
 * at c, J the Jacobian of the log residuals), *obj (the sum of squared
 * log residuals, or of their Huber losses); -1 when GSL fails, a
 * prediction is not positive, or there are too few points.
 */
static int roof_subset(const struct roof_points *x, const double *t,
		       int n, unsigned mask, double hk,
		       double c[CAL_ROOF_TERMS],
		       double cov[CAL_ROOF_TERMS][CAL_ROOF_TERMS], double *obj)
{
	int col[CAL_ROOF_TERMS], p = 0, i, j, k, rc = -1;
	gsl_matrix *X, *C, *J;
	gsl_vector *y, *b, *d, *trial, *wt;
	gsl_multifit_linear_workspace *w;
	double chi2;

	for (j = 0; j < CAL_ROOF_TERMS; j++)
		if (mask & (1u << j))
			col[p++] = j;
	memset(c, 0, CAL_ROOF_TERMS * sizeof(double));
	memset(cov, 0, CAL_ROOF_TERMS * CAL_ROOF_TERMS * sizeof(double));
	if (n <= p)
		return -1;
	X = gsl_matrix_alloc((size_t)n, (size_t)p);
	J = gsl_matrix_alloc((size_t)n, (size_t)p);
	C = gsl_matrix_alloc((size_t)p, (size_t)p);
	y = gsl_vector_alloc((size_t)n);
	b = gsl_vector_alloc((size_t)p);
	d = gsl_vector_alloc((size_t)p);
	trial = gsl_vector_alloc((size_t)p);
	wt = gsl_vector_alloc((size_t)n);
	w = gsl_multifit_linear_alloc((size_t)n, (size_t)p);
	if (!X || !J || !C || !y || !b || !d || !trial || !wt || !w)
		goto done;
	for (i = 0; i < n; i++) {
		gsl_vector_set(y, (size_t)i, 1.0);
		for (k = 0; k < p; k++)
			gsl_matrix_set(X, (size_t)i, (size_t)k,
				       roof_basis(x, i, col[k]) / t[i]);
	}
	if (gsl_multifit_linear(X, y, b, C, &chi2, w) != GSL_SUCCESS ||
	    roof_descend(X, b, 0.0, J, y, wt, d, trial, C, w, obj) ||
	    (hk > 0.0 &&
	     roof_descend(X, b, hk, J, y, wt, d, trial, C, w, obj)))
		goto done;
	/* the covariance at the point reached: the linearisation there */
	roof_jacobian(X, b, J, y);
	if (gsl_multifit_linear(J, y, d, C, &chi2, w) != GSL_SUCCESS)
		goto done;
	if (hk > 0.0)
		roof_huber_cov(y, hk, p, chi2, C);
	for (k = 0; k < p; k++) {
		c[col[k]] = gsl_vector_get(b, (size_t)k);
		for (j = 0; j < p; j++)
			cov[col[k]][col[j]] = gsl_matrix_get(C, (size_t)k,
							     (size_t)j);
	}
	rc = 0;
done:
	gsl_multifit_linear_free(w);
	gsl_vector_free(wt);
	gsl_vector_free(trial);
	gsl_vector_free(d);
	gsl_vector_free(b);
	gsl_vector_free(y);
	gsl_matrix_free(C);
	gsl_matrix_free(J);
	gsl_matrix_free(X);
	return rc;
}

/* The log residuals' robust scale at fit c: the median absolute
 * deviation from their median, times 1.4826 (sigma under normal errors). */
static double roof_scale(const struct roof_points *x, const double *t,
			 int n, const double c[CAL_ROOF_TERMS])
{
	double *r = malloc((size_t)n * sizeof(double)), med, s;
	int i, j;

	if (!r)
		return -1.0;    /* out of memory */
	for (i = 0; i < n; i++) {
		double p = 0.0;

		for (j = 0; j < CAL_ROOF_TERMS; j++)
			p += c[j] * roof_basis(x, i, j);
		r[i] = log(p / t[i]);
	}
	qsort(r, (size_t)n, sizeof(double), cmp_double);
	med = n % 2 ? r[n / 2] : 0.5 * (r[n / 2 - 1] + r[n / 2]);
	for (i = 0; i < n; i++)
		r[i] = fabs(r[i] - med);
	qsort(r, (size_t)n, sizeof(double), cmp_double);
	s = ROOF_MAD_SIGMA * (n % 2 ? r[n / 2] :
			      0.5 * (r[n / 2 - 1] + r[n / 2]));
	free(r);
	return s;
}

/* The rms of the log residuals at fit c. */
static double roof_rms(const struct roof_points *x, const double *t, int n,
		       const double c[CAL_ROOF_TERMS])
{
	double ss = 0.0;
	int i, j;

	for (i = 0; i < n; i++) {
		double p = 0.0;

		for (j = 0; j < CAL_ROOF_TERMS; j++)
			p += c[j] * roof_basis(x, i, j);
		ss += log(p / t[i]) * log(p / t[i]);
	}
	return sqrt(ss / n);
}

/*
 * Of the masks' fits at tuning constant k (0: least squares), but those
 * with a term in skip, the feasible one (every term not below 0, the
 * FLOP term above) with the least objective into out; 0, or -1 when none
 * is feasible.
 */
static int roof_best(const struct roof_points *x, const double *t, int n,
		     double k, unsigned skip, struct cal_roof_fit *out)
{
	/* every subset with the FLOP term: {F}, {1,F}, {F,Q}, {1,F,Q}, and
	 * with calls the same with L; without them L is 1, the constant */
	static const unsigned masks[] = { 2u, 3u, 6u, 7u, 10u, 11u, 14u, 15u };
	double best = INFINITY;
	int s, n_masks = x->L ? 8 : 4;

	for (s = 0; s < n_masks; s++) {
		double c[CAL_ROOF_TERMS], obj;
		double cov[CAL_ROOF_TERMS][CAL_ROOF_TERMS];

		if ((masks[s] & skip) ||
		    roof_subset(x, t, n, masks[s], k, c, cov, &obj) ||
		    c[0] < 0.0 || !(c[1] > 0.0) || c[2] < 0.0 || c[3] < 0.0 ||
		    !(obj < best))
			continue;
		best = obj;
		out->fixed_s = c[0];
		out->s_per_flop = c[1];
		out->s_per_byte = c[2];
		out->s_per_call = c[3];
		memcpy(out->cov, cov, sizeof(cov));
		out->terms = masks[s];
	}
	return isfinite(best) ? 0 : -1;
}

int cal_fit_roofline(const double *F, const double *Q, const double *L,
		     const double *t, int n, unsigned opts,
		     struct cal_roof_fit *out, struct dlsim_err *err)
{
	/* the terms left out: the fixed one is bit 0 of a mask */
	unsigned skip = opts & CAL_ROOF_NO_FIXED ? 1u : 0u;
	struct roof_points x;
	struct cal_roof_fit robust;
	gsl_error_handler_t *old;
	double c[CAL_ROOF_TERMS], k;
	int i, rc;

	memset(out, 0, sizeof(*out));
	if (n < 3)
		return dlsim_err_set(err, DLSIM_EINVAL, "a roofline needs at "
				     "least 3 points (got %d)", n);
	for (i = 0; i < n; i++)
		if (!(F[i] > 0.0) || !(Q[i] > 0.0) || !(t[i] > 0.0) ||
		    !isfinite(F[i]) || !isfinite(Q[i]) || !isfinite(t[i]) ||
		    (L && !(L[i] >= 1.0 && isfinite(L[i]))))
			return dlsim_err_set(err, DLSIM_EINVAL, "point %d: "
					     "FLOPs, bytes and time must be "
					     "positive%s", i, L ? ", calls at "
					     "least 1" : "");
	x.F = F;
	x.Q = Q;
	x.L = L;
	/* GSL's default handler aborts; report its codes instead */
	old = gsl_set_error_handler_off();
	rc = roof_best(&x, t, n, 0.0, skip, out);
	/* Huber's: k from the least-squares fit's scale, held fixed so
	 * that every mask is judged by one loss; below CAL_ROOF_HUBER_MIN
	 * points the median absolute deviation is one or two of them, too
	 * coarse a scale to trust */
	if (!rc && (opts & CAL_ROOF_HUBER) && n >= CAL_ROOF_HUBER_MIN) {
		c[0] = out->fixed_s;
		c[1] = out->s_per_flop;
		c[2] = out->s_per_byte;
		c[3] = out->s_per_call;
		k = ROOF_HUBER_K * roof_scale(&x, t, n, c);
		memset(&robust, 0, sizeof(robust));
		if (k < 0.0)
			rc = -2;
		else if (k > ROOF_EXACT &&
			 roof_best(&x, t, n, k, skip, &robust) == 0) {
			*out = robust;
			out->huber = 1;
		}
	}
	gsl_set_error_handler(old);
	if (rc == -2)
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	if (rc)
		return dlsim_err_set(err, DLSIM_EINVAL, "no roofline with a "
				     "positive FLOP rate fits these %d "
				     "points", n);
	c[0] = out->fixed_s;
	c[1] = out->s_per_flop;
	c[2] = out->s_per_byte;
	c[3] = out->s_per_call;
	out->rms = roof_rms(&x, t, n, c);
	out->n = n;
	return DLSIM_OK;
}

double cal_roof_time(const struct cal_roof_fit *f, double flops,
		     double bytes, double calls)
{
	return f->fixed_s + flops * f->s_per_flop + bytes * f->s_per_byte +
	       calls * f->s_per_call;
}
