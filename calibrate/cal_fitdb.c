/*
 * cal_fitdb.c -- fit the samples stored for one piece of hardware and
 * keep the fits in the database (dlsim calibrate fit), and read the
 * newest of them back (dlsim calibrate show).
 *
 * HOW IT WORKS
 * Every sample of every run for the hardware is read once as a point
 * with its group (cal_points.c: the size, the kernel's bytes, and the
 * key "benchmark|everything but the size", so configurations that
 * differ in anything but size are never fitted together).  Points are sorted by group, then size; where a group holds
 * the tools' own summaries (rep -1) its repetitions are left out, so
 * that no measurement counts twice.  Each group is fitted on its own:
 *   collectives, p2p_latency  cal_fit_lines, 1 to 3 segments (LogGP's
 *                             alpha and beta per protocol regime);
 *   gemm, conv                cal_fit_roofline of the time against
 *                             FLOPs and bytes (a conv group: filter
 *                             class, dtype, math, setting, device);
 *   rnn                       the same with the passes' dependent
 *                             calls, the per-call term (a group:
 *                             dtype, math, setting, device);
 *   stream                    two fits.  The plateau: the median rate
 *                             of the working sets at least half the
 *                             largest one, which are past the last
 *                             cache (the DRAM plateau), sigma their
 *                             standard error.  The bandwidth curve:
 *                             1 to 4 levels of constant rate (cache
 *                             levels) over working-set bytes, cut
 *                             exactly by dynamic programming on log
 *                             rate, one more level kept only when the
 *                             F-test of nested models passes at 0.1%
 *                             (fit_levels; cal_fit_lines's rule with
 *                             two parameters a level instead of
 *                             three); each level's rate is the
 *                             geometric mean of its points, sigma by
 *                             the delta method.
 * Groups with fewer than 3 points (stream: 1, its curve 2) are skipped
 * and named in the report with the reason, as are benchmarks without a
 * model (p2p_bw), recurrent weight gradients (one GEMM, not a recurrent
 * pass) and samples in another unit.
 *
 * WHAT A FIT ROW HOLDS
 * kind "alphabeta:<benchmark>:<ranks>", "gemm:<dtype>", "conv:<dtype>",
 * "conv3x3:<dtype>" (class 3x3s1), "conv1x1:<dtype>" (class 1x1s1),
 * "conv1x1s:<dtype>" (class 1x1strided), "conv_nonsquare:<dtype>"
 * (class nonsquare), "conv_unaligned:<dtype>" (class unaligned: 16-bit
 * convolutions off 8 channels), "rnn_lstm:<dtype>",
 * "rnn_gru:<dtype>", "rnn_tanh:<dtype>" (each cell; "rnn:<dtype>", every
 * cell together, is what earlier versions stored and is still read),
 * "gemm_unaligned:<dtype>" (class unaligned: the gemm fit times one
 * factor, cal_model_scaled), "stream:<kernel>" or "bwcurve:<kernel>" (at
 * most 31 characters);
 * params_json always has
 * "benchmark" and "group" (kind alone does not tell in-place from
 * out-of-place, or one DeepBench device from another), then
 *   lines     "segments": [{"x_lo", "x_hi", "alpha_s",
 *             "beta_s_per_byte", "n", "rel_rms"}, ...], covariance
 *             [[[aa, ab], [ab, bb]], ...] one 2x2 per segment;
 *   gemm,     "fixed_s", "s_per_flop", "s_per_byte", "flops_per_s"
 *   conv      (1 / s_per_flop, for people), "device", "dtype",
 *             covariance the 3x3 over (fixed_s, s_per_flop, s_per_byte);
 *   rnn       the same and "s_per_call", covariance the 4x4 with it;
 *   stream    "bw_Bps", "from_bytes", covariance [[sigma^2]];
 *   bwcurve   "levels": [{"bytes_lo", "bytes_hi", "Bps", "sigma_Bps",
 *             "n", "rel_rms"}, ...] in order of size (bytes_lo, bytes_hi
 *             the first and last working set measured in the level: a
 *             cache boundary lies between one level's bytes_hi and the
 *             next one's bytes_lo), covariance the diagonal matrix of
 *             the levels' variances sigma_Bps^2;
 * residual_rms relative to the measured values for all of them.
 *
 * LIMITATIONS
 * - Each fit is stored in its own transaction (db_fit_insert): a
 *   failure part-way keeps the fits before it.
 * - The GEMM and conv rooflines see a shape only through its FLOPs and
 *   bytes: wave quantization and a library's algorithm switches show up
 *   as residuals.  Conv FLOPs are the direct algorithm's, so a library
 *   that runs Winograd or FFT convolutions reaches an "achieved" rate
 *   above the device's peak (DeepBench's V100 fp32 3x3s1: about 3.3e13
 *   against a 1.57e13 peak).
 * - A bandwidth level needs 2 points, and a cut never falls between two
 *   points of the same size; the levels are steps, so a gradual fall
 *   between caches becomes extra levels or residual.
 * - show draws the points stored now, which may be more than the fit
 *   used if runs were added since.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/core.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* The report's lists                                                */
/* ---------------------------------------------------------------- */

static void fitted_free_points(struct cal_fitted *f)
{
	free(f->x);
	free(f->y);
	free(f->q);
	free(f->l);
	f->x = f->y = f->q = f->l = NULL;
}

void cal_fit_report_release(struct cal_fit_report *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < r->n_fit; i++)
		fitted_free_points(&r->fit[i]);
	free(r->fit);
	free(r->skip);
	memset(r, 0, sizeof(*r));
}

static struct cal_fitted *fit_add(struct cal_fit_report *r)
{
	if (r->n_fit == r->cap_fit) {
		int cap = r->cap_fit ? 2 * r->cap_fit : 16;
		struct cal_fitted *v = realloc(r->fit, (size_t)cap *
					       sizeof(*v));

		if (!v)
			return NULL;
		r->fit = v;
		r->cap_fit = cap;
	}
	memset(&r->fit[r->n_fit], 0, sizeof(r->fit[0]));
	return &r->fit[r->n_fit++];
}

static int skip_add(struct cal_fit_report *r, const char *what,
		    const char *why)
{
	if (r->n_skip == r->cap_skip) {
		int cap = r->cap_skip ? 2 * r->cap_skip : 16;
		struct cal_skipped *v = realloc(r->skip, (size_t)cap *
						sizeof(*v));

		if (!v)
			return -1;
		r->skip = v;
		r->cap_skip = cap;
	}
	snprintf(r->skip[r->n_skip].what, sizeof(r->skip[0].what), "%s",
		 what);
	snprintf(r->skip[r->n_skip].why, sizeof(r->skip[0].why), "%s", why);
	r->n_skip++;
	return 0;
}

/* The kind, dtype and device of a fit from its group's parameters: 0; 1
 * when the kind does not fit its 31 characters, 2 for a roofline group
 * whose class has no fit name (model_kernel_of_class,
 * model_kernel_fit_kind). */
static int make_kind(struct cal_fitted *f, char *dtype, char *device,
		     size_t n)
{
	const char *name;
	char v[64];
	int w;

	cal_param_get(f->group, "dtype", dtype, n);
	cal_param_get(f->group, "device", device, n);
	if (f->model == CAL_MODEL_LINES)
		w = snprintf(f->kind, sizeof(f->kind), "alphabeta:%s:%s",
			     f->benchmark, cal_param_get(f->group, "ranks", v,
						     sizeof(v))[0] ? v : "0");
	else if (f->model == CAL_MODEL_ROOFLINE &&
		 (name = model_kernel_fit_kind(model_kernel_of_class(
			 f->benchmark, cal_param_get(f->group, "class", v,
						     sizeof(v))))))
		w = snprintf(f->kind, sizeof(f->kind), "%s:%s", name,
			     dtype[0] ? dtype : "unknown");
	else if (f->model == CAL_MODEL_ROOFLINE)
		return 2;
	else
		w = snprintf(f->kind, sizeof(f->kind), "stream:%s",
			     cal_param_get(f->group, "kernel", v,
				       sizeof(v))[0] ? v : "unknown");
	return w < 0 || (size_t)w >= sizeof(f->kind);
}

/* Store f; its run ids as "[3, 4]" from the group's points. */
static int store(struct db *db, const char *hw, struct cal_fitted *f,
		 const struct cal_point *p, int64_t np, const char *dtype,
		 const char *device, struct dlsim_err *err)
{
	char *pj = NULL, *cj = NULL, *ids = NULL;
	size_t lp = 0, lc = 0, li = 0;
	FILE *a = open_memstream(&pj, &lp), *b = open_memstream(&cj, &lc);
	FILE *c = open_memstream(&ids, &li);
	int64_t *run = malloc((size_t)np * sizeof(int64_t)), i, k = 0;
	struct db_fit row;
	int rc = DLSIM_OK, bad;

	if (a)
		cal_fit_params_json(a, f, dtype, device);
	if (b)
		cal_fit_covariance_json(b, f);
	if (c && run) {
		for (i = 0; i < np; i++) {
			int64_t j;

			for (j = 0; j < k && run[j] != p[i].run_id; j++)
				;
			if (j == k)
				run[k++] = p[i].run_id;
		}
		fputc('[', c);
		for (i = 0; i < k; i++)
			fprintf(c, "%s%lld", i ? ", " : "", (long long)run[i]);
		fputc(']', c);
	}
	bad = !a || !b || !c || !run;
	if (a)
		bad |= ferror(a) | fclose(a);
	if (b)
		bad |= ferror(b) | fclose(b);
	if (c)
		bad |= ferror(c) | fclose(c);
	if (bad) {
		rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
		goto cleanup;
	}
	memset(&row, 0, sizeof(row));
	snprintf(row.hw, sizeof(row.hw), "%s", hw);
	memcpy(row.kind, f->kind, sizeof(row.kind));
	row.params_json = pj;
	row.covariance_json = cj;
	row.residual_rms = f->residual_rms;
	row.n_samples = f->n_samples;
	row.sample_run_ids = ids;
	if (!(rc = db_fit_insert(db, &row, err))) {
		f->fit_id = row.id;
		f->created_s = row.created_s;
	}
cleanup:
	free(pj);
	free(cj);
	free(ids);
	free(run);
	return rc;
}

/* The points of group [lo, hi) into f->x, f->y, f->q (and f->l for a
 * recurrent kernel's, whose points count dependent calls): summaries
 * only if the group has any.  Returns -1 when memory runs out. */
static int take_points(struct cal_fitted *f, const struct cal_point *p,
		       int64_t lo, int64_t hi, unsigned char **off_rows)
{
	int64_t i, any = 0;
	int n = 0, calls = hi > lo && strncmp(p[lo].key, "rnn|", 4) == 0;

	for (i = lo; i < hi; i++)
		any |= p[i].summary;
	f->x = malloc((size_t)(hi - lo) * sizeof(double));
	f->y = malloc((size_t)(hi - lo) * sizeof(double));
	f->q = malloc((size_t)(hi - lo) * sizeof(double));
	f->l = calls ? malloc((size_t)(hi - lo) * sizeof(double)) : NULL;
	if (off_rows && !(*off_rows = calloc((size_t)(hi - lo) + 1, 1)))
		return -1;
	if (!f->x || !f->y || !f->q || (calls && !f->l))
		return -1;
	for (i = lo; i < hi; i++)
		if (!any || p[i].summary) {
			f->x[n] = p[i].x;
			f->q[n] = p[i].q;
			if (f->l)
				f->l[n] = p[i].l;
			if (off_rows)
				(*off_rows)[n] = (unsigned char)p[i].off_rows;
			f->y[n++] = p[i].y;
		}
	f->n_points = n;
	f->n_samples = n;
	return 0;
}

/* Split "benchmark|group" into f. */
static void split_key(struct cal_fitted *f, const char *key)
{
	const char *bar = strchr(key, '|');

	snprintf(f->benchmark, sizeof(f->benchmark), "%.*s",
		 (int)(bar - key), key);
	snprintf(f->group, sizeof(f->group), "%s", bar + 1);
}

/* A stream group's second fit: bandwidth against working set,
 * "bwcurve:<kernel>". */
static int fit_bwcurve(struct db *db, const char *hw,
		       struct cal_fit_report *r, const struct cal_point *p,
		       int64_t lo, int64_t hi, struct dlsim_err *err)
{
	struct cal_fitted *f = fit_add(r);
	char why[160], what[CAL_KEY_LEN], v[64];
	int w, rc = 1;

	if (!f || take_points(f, p, lo, hi, NULL))
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	split_key(f, p[lo].key);
	f->model = CAL_MODEL_PLATEAU;
	snprintf(what, sizeof(what), "%s %s (bwcurve)", f->benchmark,
		 f->group);
	w = snprintf(f->kind, sizeof(f->kind), "bwcurve:%s",
		     cal_param_get(f->group, "kernel", v, sizeof(v))[0] ? v :
		     "unknown");
	if (f->n_points < CAL_BW_MIN_RUN)
		snprintf(why, sizeof(why), "%d point: the curve needs %d",
			 f->n_points, CAL_BW_MIN_RUN);
	else if (w < 0 || (size_t)w >= sizeof(f->kind))
		snprintf(why, sizeof(why), "its kind is longer than 31 "
			 "characters");
	else
		rc = cal_model_levels(f, why, sizeof(why));
	if (rc) {
		fitted_free_points(f);
		r->n_fit--;
		if (skip_add(r, what, why))
			return dlsim_err_set(err, DLSIM_ENOMEM,
					     "out of memory");
		return DLSIM_OK;
	}
	return store(db, hw, f, p + lo, hi - lo, "", "", err);
}

/*
 * The classes fitted as another group's roofline times one factor
 * (cal_model_scaled): GEMMs off 16-byte rows on their dtype's GEMM fit
 * (the same group without a class), always; convolutions whose window is
 * not square, and 16-bit ones off 8 channels, on the fit of every other
 * window (class other) when their points are of fewer than two shapes
 * (cal_point.shape: batch sizes of one shape cannot tell a roofline's
 * fixed, FLOP and byte terms apart; DeepBench's 16-bit rows have one
 * non-square shape, its 5x20 filter on one channel being in class
 * unaligned there), their own roofline otherwise.
 */
static const struct {
	enum model_kernel k, base;      /* of one benchmark */
	int own_from_shapes;            /* 0: always scaled */
} scaled_classes[] = {
	{ MODEL_KERNEL_GEMM_UNALIGNED, MODEL_KERNEL_GEMM, 0 },
	{ MODEL_KERNEL_CONV_NONSQUARE, MODEL_KERNEL_CONV, 2 },
	{ MODEL_KERNEL_CONV_UNALIGNED, MODEL_KERNEL_CONV, 2 },
};

#define N_SCALED (sizeof(scaled_classes) / sizeof(scaled_classes[0]))

/* The last word of a group of kernel class k: "class=C", "" for a group
 * without a class (model_kernel_name spells C). */
static const char *class_word(enum model_kernel k, char *buf, size_t n)
{
	const char *cls = model_kernel_name(k)->cls;

	snprintf(buf, n, "%s%s", cls[0] ? "class=" : "", cls);
	return buf;
}

/* The length of s before its last word when that word is cls ("... cls"
 * or s == cls), -1 otherwise. */
static long stem_before(const char *s, const char *cls)
{
	size_t n = strlen(s), t = strlen(cls);

	if (n < t || strcmp(s + n - t, cls))
		return -1;
	if (n == t)
		return 0;
	return s[n - t - 1] == ' ' || s[n - t - 1] == '|' ?
	       (long)(n - t - 1) : -1;
}

/* 1 when a group key names a scaled class: fitted in the second pass,
 * after its base. */
static int scaled_key(const char *key)
{
	char word[48];
	size_t k;

	for (k = 0; k < N_SCALED; k++)
		if (stem_before(key, class_word(scaled_classes[k].k, word,
						sizeof(word))) >= 0)
			return 1;
	return 0;
}

/* The distinct shapes (cal_point.shape) of points [lo, hi), up to 2. */
static int few_shapes(const struct cal_point *p, int64_t lo, int64_t hi)
{
	int64_t i;

	for (i = lo + 1; i < hi; i++)
		if (p[i].shape != p[lo].shape)
			return 2;
	return hi > lo ? 1 : 0;
}

/* The fit f (group [lo, hi) of p) is scaled from when f's group is of a
 * scaled class and is to be scaled: the group with the base's class in
 * place of f's, fitted before it; NULL otherwise. */
static const struct cal_fitted *scaled_base(const struct cal_fit_report *r,
					    const struct cal_fitted *f,
					    const struct cal_point *p,
					    int64_t lo, int64_t hi)
{
	char want[CAL_KEY_LEN], word[48], base[48];
	size_t k;
	long stem;
	int i;

	for (k = 0; k < N_SCALED; k++) {
		if (strcmp(f->benchmark,
			   model_kernel_name(scaled_classes[k].k)->benchmark) ||
		    (stem = stem_before(f->group, class_word(
			    scaled_classes[k].k, word, sizeof(word)))) < 0)
			continue;
		if (scaled_classes[k].own_from_shapes &&
		    few_shapes(p, lo, hi) >= scaled_classes[k].own_from_shapes)
			return NULL;
		class_word(scaled_classes[k].base, base, sizeof(base));
		snprintf(want, sizeof(want), "%.*s%s%s", (int)stem, f->group,
			 stem && base[0] ? " " : "", base);
		for (i = 0; i < r->n_fit - 1; i++)
			if (r->fit[i].model == CAL_MODEL_ROOFLINE &&
			    !strcmp(r->fit[i].benchmark, f->benchmark) &&
			    !strcmp(r->fit[i].group, want))
				return &r->fit[i];
		return NULL;
	}
	return NULL;
}

static int fit_group(struct db *db, const char *hw, struct cal_fit_report *r,
		     const struct cal_point *p, int64_t lo, int64_t hi,
		     struct dlsim_err *err)
{
	static const int min_points[] = { 3, 3, 1 };
	const struct cal_fitted *base;
	struct cal_fitted *f = fit_add(r);
	char why[160], what[CAL_KEY_LEN], dtype[64], device[128];
	unsigned char *off_rows = NULL;
	int rc;

	if (!f || take_points(f, p, lo, hi, &off_rows)) {
		free(off_rows);
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	}
	split_key(f, p[lo].key);
	f->model = cal_benchmark_model(f->benchmark);
	snprintf(what, sizeof(what), "%s %s", f->benchmark, f->group);
	if (f->n_points < min_points[f->model]) {
		snprintf(why, sizeof(why), "%d point%s: the fit needs %d",
			 f->n_points, f->n_points == 1 ? "" : "s",
			 min_points[f->model]);
		rc = 1;
	} else if ((rc = make_kind(f, dtype, device, sizeof(dtype)))) {
		snprintf(why, sizeof(why), "%s", rc == 2 ? "no kernel class "
			 "has a fit of this benchmark and class" : "its kind "
			 "is longer than 31 characters");
		rc = 1;
	} else if (f->model == CAL_MODEL_LINES) {
		rc = cal_model_lines(f, why, sizeof(why));
	} else if (f->model == CAL_MODEL_ROOFLINE &&
		   (base = scaled_base(r, f, p, lo, hi))) {
		rc = cal_model_scaled(f, base, why, sizeof(why));
	} else if (f->model == CAL_MODEL_ROOFLINE) {
		rc = cal_model_roofline_off_rows(f, off_rows, why,
						 sizeof(why));
	} else {
		rc = cal_model_plateau(f, why, sizeof(why));
	}
	free(off_rows);
	if (rc) {
		fitted_free_points(f);
		r->n_fit--;
		if (skip_add(r, what, why))
			return dlsim_err_set(err, DLSIM_ENOMEM,
					     "out of memory");
		return DLSIM_OK;
	}
	if ((rc = store(db, hw, f, p + lo, hi - lo, dtype, device, err)) ||
	    f->model != CAL_MODEL_PLATEAU)
		return rc;
	return fit_bwcurve(db, hw, r, p, lo, hi, err);
}

/* The samples the reading passed over, "conv (20 samples)" and why,
 * into the report's skipped list. */
static int report_passed_over(struct cal_fit_report *out,
			      const struct cal_points *rd,
			      struct dlsim_err *err)
{
	int i;

	for (i = 0; i < rd->n_pass; i++) {
		char what[64];

		snprintf(what, sizeof(what), "%s (%lld sample%s)",
			 rd->pass[i].what, (long long)rd->pass[i].n,
			 rd->pass[i].n == 1 ? "" : "s");
		if (skip_add(out, what, rd->pass[i].why))
			return dlsim_err_set(err, DLSIM_ENOMEM,
					     "out of memory");
	}
	return DLSIM_OK;
}

/* Fit every group of rd whose class is scaled (pass 1) or not (0). */
static int fit_pass(struct db *db, const char *hw, struct cal_fit_report *out,
		    const struct cal_points *rd, int pass,
		    struct dlsim_err *err)
{
	int64_t i, j;
	int rc;

	for (i = 0; i < rd->n; i = j) {
		for (j = i + 1; j < rd->n &&
		     strcmp(rd->v[j].key, rd->v[i].key) == 0; j++)
			;
		if (scaled_key(rd->v[i].key) == pass &&
		    (rc = fit_group(db, hw, out, rd->v, i, j, err)))
			return rc;
	}
	return 0;
}

int cal_fit_hw(struct db *db, const char *hw, struct cal_fit_report *out,
	       struct dlsim_err *err)
{
	struct cal_points rd;
	int rc, pass;

	memset(out, 0, sizeof(*out));
	snprintf(out->hw, sizeof(out->hw), "%s", hw);
	if ((rc = cal_points_read(db, hw, &rd, err)))
		return rc;
	out->n_read = rd.n_read;
	if (rd.n_read == 0) {
		free(rd.v);
		return dlsim_err_set(err, DLSIM_ENOTFOUND, "no samples for "
				     "hardware '%s'", hw);
	}
	if ((rc = report_passed_over(out, &rd, err))) {
		free(rd.v);
		return rc;
	}
	/* two passes: a scaled class's group after every group it may be
	 * scaled from */
	for (pass = 0, rc = 0; pass < 2 && !rc; pass++)
		rc = fit_pass(db, hw, out, &rd, pass, err);
	free(rd.v);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Reading fits back                                                 */
/* ---------------------------------------------------------------- */

/* The fits read back, gathered into a report. */
struct loader {
	struct cal_fit_report *r;
	int nomem;
};

static int load_row(void *ctx, const struct db_fit *row)
{
	struct loader *ld = ctx;
	struct cal_fitted f, *slot;
	char what[64];
	int i, rc = cal_fit_from_row(&f, row);

	if (rc > 0)
		return 0;     /* a kind this dlsim does not know: not shown */
	if (rc < 0) {         /* damaged: named, never used */
		snprintf(what, sizeof(what), "fit %lld (%s)",
			 (long long)row->id, row->kind);
		if (skip_add(ld->r, what, "its stored parameters are damaged "
			     "or out of range; not used"))
			ld->nomem = 1;
		return 0;
	}
	for (i = 0; i < ld->r->n_fit; i++)
		if (strcmp(ld->r->fit[i].kind, f.kind) == 0 &&
		    strcmp(ld->r->fit[i].group, f.group) == 0)
			return 0;     /* an older fit of the same */
	if (!(slot = fit_add(ld->r))) {
		ld->nomem = 1;
		return 1;
	}
	*slot = f;
	return 0;
}

/* Give each fit the points of its group, as the fit would read them,
 * and the report the samples a fit would pass over now. */
static int attach_points(struct db *db, struct cal_fit_report *r,
			 struct dlsim_err *err)
{
	struct cal_points rd;
	char key[CAL_KEY_LEN];
	int64_t i, j;
	int k, rc;

	if ((rc = cal_points_read(db, r->hw, &rd, err)))
		return rc;
	r->n_read = rd.n_read;
	if ((rc = report_passed_over(r, &rd, err))) {
		free(rd.v);
		return rc;
	}
	for (i = 0; i < rd.n; i = j) {
		for (j = i + 1; j < rd.n &&
		     strcmp(rd.v[j].key, rd.v[i].key) == 0; j++)
			;
		for (k = 0; k < r->n_fit; k++) {
			struct cal_fitted *f = &r->fit[k];
			int64_t n = f->n_samples;

			snprintf(key, sizeof(key), "%s|%s", f->benchmark,
				 f->group);
			if (f->x || strcmp(key, rd.v[i].key) != 0)
				continue;
			if (take_points(f, rd.v, i, j, NULL)) {
				free(rd.v);
				return dlsim_err_set(err, DLSIM_ENOMEM,
						     "out of memory");
			}
			f->n_samples = n;
		}
	}
	free(rd.v);
	return DLSIM_OK;
}

static int by_id(const void *a, const void *b)
{
	const struct cal_fitted *x = a, *y = b;

	return (x->fit_id > y->fit_id) - (x->fit_id < y->fit_id);
}

int cal_fit_load(struct db *db, const char *hw, struct cal_fit_report *out,
		 struct dlsim_err *err)
{
	struct loader ld = { out, 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(out->hw, sizeof(out->hw), "%s", hw);
	if ((rc = db_each_fit(db, hw, NULL, load_row, &ld, err)))
		return rc;
	if (ld.nomem)
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	if (out->n_fit == 0 && out->n_skip > 0) {   /* damaged ones only */
		rc = dlsim_err_set(err, DLSIM_ENOTFOUND, "no readable fits "
				   "for hardware '%s': %s: %s", hw,
				   out->skip[0].what, out->skip[0].why);
		cal_fit_report_release(out);
		return rc;
	}
	if (out->n_fit == 0)
		return dlsim_err_set(err, DLSIM_ENOTFOUND, "no fits for "
				     "hardware '%s'", hw);
	/* in the order they were made, as fit printed them */
	qsort(out->fit, (size_t)out->n_fit, sizeof(*out->fit), by_id);
	return attach_points(db, out, err);
}
