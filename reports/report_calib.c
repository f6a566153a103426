/*
 * report_calib.c -- a calibration's fits (dlsim calibrate fit and show)
 * as a table or JSON, and the collectives' measured times over their
 * fitted lines as a gnuplot figure.
 *
 * CONVENTIONS
 * Every parameter is printed with its 95% interval, value +- 1.96 sigma
 * (the normal approximation: the fits' sigmas come from the least-squares
 * covariance scaled by the residual variance, or for a Huber fit by its
 * clipped residuals', cal_fit.c).  Times stay in
 * seconds and sizes in bytes, as stored; the table adds the bandwidth
 * 1/beta in GB/s (10^9 bytes/s) because that is how people read a beta.
 * residual_rms is relative to the measured values for every kind (for a
 * kernel roofline the rms of log(predicted / measured), which is about
 * that).
 *
 * The JSON keys hardware, samples_read, fits [{id, kind, benchmark,
 * group, n_samples, residual_rms, params, ci95, segments}] and skipped
 * [{what, why}] are a contract: keys may be added, never renamed.  A
 * bandwidth curve (kind "bwcurve:<kernel>") has empty params and ci95
 * and its cache levels as "levels": [{bytes_lo, bytes_hi, Bps, n,
 * rel_rms, ci95: {Bps}}]; the table prints each level's working sets
 * and rate.
 *
 * THE PLOT
 * One log-log panel per kind of fit present, stacked: collectives (time
 * against bytes: each group's measured points and its segments, a + b m
 * over each segment's range), kernels (attained FLOP/s against FLOPs:
 * measured filled, the roofline's figure for the same shapes open, since
 * a roofline over two variables is no curve over one), memory
 * (bandwidth against working set: the measured points and each cache
 * level as a flat step over the sets it covers).  The .dat file holds
 * two gnuplot data blocks per fit drawn (measured, then fitted; the
 * segments or levels of one split by a blank line), so the script picks
 * them by index.
 *
 * LIMITATIONS
 * - The DRAM plateau ("stream:") is not drawn: its curve is.
 * - Eight colours per panel; a ninth fit repeats the first.
 */
#include "reports/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/banned.h"

#define Z95 1.96
#define CURVE_POINTS 24

/* ---------------------------------------------------------------- */
/* Table                                                             */
/* ---------------------------------------------------------------- */

static void table_lines(FILE *f, const struct cal_fitted *x)
{
	char lo[32], hi[32];
	int i;

	for (i = 0; i < x->n_segments; i++) {
		const struct cal_line_fit *s = &x->seg[i];

		fprintf(f, "  %s .. %s (%d points, rms %.2g%%)\n",
			report_bytes(s->x_lo, lo, sizeof(lo)),
			report_bytes(s->x_hi, hi, sizeof(hi)), s->n,
			100.0 * s->rel_rms);
		fprintf(f, "    alpha_s          %.4g +- %.2g\n", s->a,
			Z95 * sqrt(s->cov_aa >= 0.0 ? s->cov_aa : 0.0));
		fprintf(f, "    beta_s_per_byte  %.4g +- %.2g", s->b,
			Z95 * sqrt(s->cov_bb >= 0.0 ? s->cov_bb : 0.0));
		if (s->b > 0.0)
			fprintf(f, "  (%.4g GB/s)", 1.0 / s->b / 1e9);
		fputc('\n', f);
	}
}

/* A bandwidth curve (kind "bwcurve:"): its levels are in seg, a the
 * rate in B/s and cov_aa its variance. */
static int is_curve(const struct cal_fitted *x)
{
	return x->model == CAL_MODEL_PLATEAU && x->n_segments > 0;
}

static void table_levels(FILE *f, const struct cal_fitted *x)
{
	char lo[32], hi[32];
	int i;

	for (i = 0; i < x->n_segments; i++) {
		const struct cal_line_fit *s = &x->seg[i];

		fprintf(f, "  %s .. %s (%d points, rms %.2g%%)\n",
			report_bytes(s->x_lo, lo, sizeof(lo)),
			report_bytes(s->x_hi, hi, sizeof(hi)), s->n,
			100.0 * s->rel_rms);
		fprintf(f, "    Bps         %.4g +- %.2g  (%.4g GB/s)\n", s->a,
			Z95 * sqrt(s->cov_aa >= 0.0 ? s->cov_aa : 0.0),
			s->a / 1e9);
	}
}

/* t = fixed + F s_per_flop + Q s_per_byte (+ L s_per_call for a
 * recurrent kernel), each with its interval, and the rates people
 * read: 1 / s_per_flop and 1 / s_per_byte. */
static void table_roofline(FILE *f, const struct cal_fitted *x)
{
	const struct cal_roof_fit *r = &x->roof;
	double v[CAL_ROOF_TERMS] = { r->fixed_s, r->s_per_flop, r->s_per_byte,
				     r->s_per_call };
	static const char *const name[CAL_ROOF_TERMS] = {
		"fixed_s", "s_per_flop", "s_per_byte", "s_per_call"
	};
	int i, m = cal_fitted_has_calls(x) ? CAL_ROOF_TERMS : 3;

	for (i = 0; i < m; i++) {
		double h = Z95 * sqrt(r->cov[i][i] > 0.0 ? r->cov[i][i] : 0.0);

		if (!(r->terms & (1u << i))) {
			fprintf(f, "    %-11s 0 (not in the best non-negative "
				"fit)\n",
				name[i]);
			continue;
		}
		fprintf(f, "    %-11s %.4g +- %.2g", name[i], v[i], h);
		if (i == 1 && v[i] < 1e-12)
			fprintf(f, "  (%.4g TFLOP/s)", 1e-12 / v[i]);
		else if (i == 1)
			fprintf(f, "  (%.4g GFLOP/s)", 1e-9 / v[i]);
		if (i == 2)
			fprintf(f, "  (%.4g GB/s)", 1e-9 / v[i]);
		fputc('\n', f);
	}
}

static void table(FILE *f, const struct cal_fit_report *r)
{
	int i;

	fprintf(f, "Fits for %s (%lld samples stored)\n", r->hw,
		(long long)r->n_read);
	for (i = 0; i < r->n_fit; i++) {
		const struct cal_fitted *x = &r->fit[i];

		fprintf(f, "\n%s  fit %lld, %lld samples, residual %.2g%% "
			"rms\n  group: %s\n", x->kind, (long long)x->fit_id,
			(long long)x->n_samples, 100.0 * x->residual_rms,
			x->group);
		if (x->model == CAL_MODEL_LINES) {
			table_lines(f, x);
		} else if (is_curve(x)) {
			table_levels(f, x);
		} else if (x->model == CAL_MODEL_ROOFLINE) {
			table_roofline(f, x);
		} else {
			char b[32];

			fprintf(f, "    bw_Bps      %.4g +- %.2g (working sets "
				"from %s)\n", x->plateau_Bps,
				Z95 * x->plateau_sigma_Bps,
				report_bytes(x->plateau_from_bytes, b,
					     sizeof(b)));
		}
	}
	if (r->n_skip)
		fputs("\nSkipped:\n", f);
	for (i = 0; i < r->n_skip; i++)
		fprintf(f, "  %s: %s\n", r->skip[i].what, r->skip[i].why);
}

/* ---------------------------------------------------------------- */
/* JSON                                                              */
/* ---------------------------------------------------------------- */

static void json_ci(FILE *f, const char *key, double v, double var)
{
	double h = Z95 * sqrt(var > 0.0 ? var : 0.0);

	report_json_string(f, key);
	fputs(": [", f);
	report_json_number(f, v - h);
	fputs(", ", f);
	report_json_number(f, v + h);
	fputc(']', f);
}

static void json_param(FILE *f, const char *key, double v, int first)
{
	if (!first)
		fputs(", ", f);
	report_json_string(f, key);
	fputs(": ", f);
	report_json_number(f, v);
}

static void json_segments(FILE *f, const struct cal_fitted *x)
{
	int i;

	fputs(", \"segments\": [", f);
	for (i = 0; i < x->n_segments; i++) {
		const struct cal_line_fit *s = &x->seg[i];

		fputs(i ? ", {" : "{", f);
		json_param(f, "x_lo", s->x_lo, 1);
		json_param(f, "x_hi", s->x_hi, 0);
		json_param(f, "alpha_s", s->a, 0);
		json_param(f, "beta_s_per_byte", s->b, 0);
		fprintf(f, ", \"n\": %d", s->n);
		json_param(f, "rel_rms", s->rel_rms, 0);
		fputs(", \"ci95\": {", f);
		json_ci(f, "alpha_s", s->a, s->cov_aa);
		fputs(", ", f);
		json_ci(f, "beta_s_per_byte", s->b, s->cov_bb);
		fputs("}}", f);
	}
	fputc(']', f);
}

static void json_levels(FILE *f, const struct cal_fitted *x)
{
	int i;

	fputs(", \"levels\": [", f);
	for (i = 0; i < x->n_segments; i++) {
		const struct cal_line_fit *s = &x->seg[i];

		fputs(i ? ", {" : "{", f);
		json_param(f, "bytes_lo", s->x_lo, 1);
		json_param(f, "bytes_hi", s->x_hi, 0);
		json_param(f, "Bps", s->a, 0);
		fprintf(f, ", \"n\": %d", s->n);
		json_param(f, "rel_rms", s->rel_rms, 0);
		fputs(", \"ci95\": {", f);
		json_ci(f, "Bps", s->a, s->cov_aa);
		fputs("}}", f);
	}
	fputc(']', f);
}

static void json_fit(FILE *f, const struct cal_fitted *x)
{
	fprintf(f, "{\"id\": %lld, \"kind\": ", (long long)x->fit_id);
	report_json_string(f, x->kind);
	fputs(", \"benchmark\": ", f);
	report_json_string(f, x->benchmark);
	fputs(", \"group\": ", f);
	report_json_string(f, x->group);
	fprintf(f, ", \"n_samples\": %lld, \"residual_rms\": ",
		(long long)x->n_samples);
	report_json_number(f, x->residual_rms);
	fputs(", \"params\": {", f);
	if (x->model == CAL_MODEL_ROOFLINE) {
		const struct cal_roof_fit *r = &x->roof;

		json_param(f, "fixed_s", r->fixed_s, 1);
		json_param(f, "s_per_flop", r->s_per_flop, 0);
		json_param(f, "s_per_byte", r->s_per_byte, 0);
		if (cal_fitted_has_calls(x))
			json_param(f, "s_per_call", r->s_per_call, 0);
		json_param(f, "flops_per_s", 1.0 / r->s_per_flop, 0);
		fputs("}, \"ci95\": {", f);
		json_ci(f, "fixed_s", r->fixed_s, r->cov[0][0]);
		fputs(", ", f);
		json_ci(f, "s_per_flop", r->s_per_flop, r->cov[1][1]);
		fputs(", ", f);
		json_ci(f, "s_per_byte", r->s_per_byte, r->cov[2][2]);
		if (cal_fitted_has_calls(x)) {
			fputs(", ", f);
			json_ci(f, "s_per_call", r->s_per_call, r->cov[3][3]);
		}
		fputc('}', f);
	} else if (is_curve(x)) {
		fputs("}, \"ci95\": {}", f);
		json_levels(f, x);
	} else if (x->model == CAL_MODEL_PLATEAU) {
		json_param(f, "bw_Bps", x->plateau_Bps, 1);
		json_param(f, "from_bytes", x->plateau_from_bytes, 0);
		fputs("}, \"ci95\": {", f);
		json_ci(f, "bw_Bps", x->plateau_Bps,
			x->plateau_sigma_Bps * x->plateau_sigma_Bps);
		fputc('}', f);
	} else {
		fputs("}, \"ci95\": {}", f);
		json_segments(f, x);
	}
	fputc('}', f);
}

static void json(FILE *f, const struct cal_fit_report *r)
{
	int i;

	fputs("{\"hardware\": ", f);
	report_json_string(f, r->hw);
	fprintf(f, ", \"samples_read\": %lld, \"fits\": [",
		(long long)r->n_read);
	for (i = 0; i < r->n_fit; i++) {
		fputs(i ? ",\n  " : "\n  ", f);
		json_fit(f, &r->fit[i]);
	}
	fputs("], \"skipped\": [", f);
	for (i = 0; i < r->n_skip; i++) {
		fputs(i ? ",\n  {\"what\": " : "\n  {\"what\": ", f);
		report_json_string(f, r->skip[i].what);
		fputs(", \"why\": ", f);
		report_json_string(f, r->skip[i].why);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

/* ---------------------------------------------------------------- */
/* Plot                                                              */
/* ---------------------------------------------------------------- */

/* Which panel a fit is drawn in; PANEL_NONE: not drawn (no points). */
enum panel { PANEL_COMM = 0, PANEL_KERNEL, PANEL_BW, PANEL_NONE };

static const struct {
	const char *title, *xlabel, *ylabel, *key;
} panels[] = {
	{ "collectives: measured times and fitted lines",
	  "message size (bytes)", "time (s)", "top left" },
	{ "kernels: measured (filled) and fitted roofline (open)",
	  "FLOPs (direct count)", "attained FLOP/s", "bottom right" },
	{ "memory: measured bandwidth and fitted cache levels",
	  "working set (bytes)", "bandwidth (B/s)", "bottom left" },
};

static enum panel panel_of(const struct cal_fitted *x)
{
	if (x->n_points <= 0)
		return PANEL_NONE;
	if (x->model == CAL_MODEL_LINES && x->n_segments > 0)
		return PANEL_COMM;
	if (x->model == CAL_MODEL_ROOFLINE && x->q)
		return PANEL_KERNEL;
	if (is_curve(x))
		return PANEL_BW;
	return PANEL_NONE;
}

/* The fitted side of one fit: lines over each segment, the roofline at
 * each measured shape, or each cache level as a flat step. */
static void plot_fitted(FILE *f, const struct cal_fitted *x)
{
	int j, k;

	for (k = 0; x->model == CAL_MODEL_LINES && k < x->n_segments; k++) {
		const struct cal_line_fit *s = &x->seg[k];
		double lo = s->x_lo > 0.0 ? s->x_lo : 1.0;
		double hi = s->x_hi > lo ? s->x_hi : lo;

		for (j = 0; j < CURVE_POINTS; j++) {
			double m = lo * pow(hi / lo, (double)j /
					    (CURVE_POINTS - 1));

			fprintf(f, "%.9g %.9g\n", m, s->a + s->b * m);
		}
		fputc('\n', f);
	}
	for (j = 0; x->model == CAL_MODEL_ROOFLINE && j < x->n_points; j++)
		fprintf(f, "%.9g %.9g\n", x->x[j], x->x[j] /
			cal_roof_time(&x->roof, x->x[j], x->q[j],
				      x->l ? x->l[j] : 1.0));
	for (k = 0; is_curve(x) && k < x->n_segments; k++)
		fprintf(f, "%.9g %.9g\n%.9g %.9g\n\n", x->seg[k].x_lo,
			x->seg[k].a, x->seg[k].x_hi, x->seg[k].a);
}

static void plot_data(FILE *f, const struct cal_fit_report *r)
{
	int i, j;

	fprintf(f, "# dlsim %s: measured points and fitted models for %s\n",
		dlsim_version(), r->hw);
	for (i = 0; i < r->n_fit; i++) {
		const struct cal_fitted *x = &r->fit[i];
		enum panel p = panel_of(x);

		if (p == PANEL_NONE)
			continue;
		fprintf(f, "# %s %s: measured (%s, %s)\n", x->kind, x->group,
			panels[p].xlabel, panels[p].ylabel);
		for (j = 0; j < x->n_points; j++)
			fprintf(f, "%.9g %.9g\n", x->x[j], x->y[j]);
		fprintf(f, "\n\n# %s %s: fitted\n", x->kind, x->group);
		plot_fitted(f, x);
		fputs("\n\n", f);
	}
}

/* One panel's plot command over the fits drawn in it; *block counts the
 * data blocks of every fit drawn before (two each). */
static void plot_panel(FILE *f, const struct report_plot *p,
		       const struct cal_fit_report *r, enum panel which)
{
	static const char *const colour[] = {
		"#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e",
		"#e6ab02", "#a6761d", "#666666"
	};
	char label[320];
	int i, block = 0, n = 0;

	fputs("set title ", f);
	report_gp_string(f, panels[which].title);
	fputs("\nset xlabel ", f);
	report_gp_string(f, panels[which].xlabel);
	fputs("\nset ylabel ", f);
	report_gp_string(f, panels[which].ylabel);
	fprintf(f, "\nset key %s Left reverse box opaque spacing 1.1\nplot ",
		panels[which].key);
	for (i = 0; i < r->n_fit; i++) {
		const struct cal_fitted *x = &r->fit[i];
		enum panel q = panel_of(x);
		const char *c = colour[n % 8];

		if (q == PANEL_NONE)
			continue;
		block += 2;
		if (q != which)
			continue;
		if (n++)
			fputs(", \\\n     ", f);
		report_gp_string(f, report_basename(p->dat));
		fprintf(f, " index %d with points pt 7 ps 1.0 lc rgb \"%s\" "
			"title ", block - 2, c);
		snprintf(label, sizeof(label), "%s %s", x->kind, x->group);
		report_gp_string(f, label);
		fprintf(f, ", \\\n     '' index %d with %s lc rgb \"%s\" "
			"notitle", block - 1, which == PANEL_KERNEL ?
			"points pt 6 ps 1.3" : "lines lw 2", c);
	}
	fputc('\n', f);
}

static void plot_script(FILE *f, const char *image, const char *terminal,
			const struct report_plot *p,
			const struct cal_fit_report *r)
{
	int used[PANEL_NONE] = { 0 }, i, n = 0;
	char title[160];

	for (i = 0; i < r->n_fit; i++)
		if (panel_of(&r->fit[i]) != PANEL_NONE)
			used[panel_of(&r->fit[i])] = 1;
	for (i = 0; i < PANEL_NONE; i++)
		n += used[i];
	fprintf(f, "# dlsim %s: measured points over their fitted models.\n"
		"# Restyle and redraw, in this file's directory, with: "
		"gnuplot %s\n", dlsim_version(), report_basename(p->gp));
	fprintf(f, "set terminal %s\nset termoption noenhanced\n"
		"set output ", terminal);
	report_gp_string(f, report_basename(image));
	snprintf(title, sizeof(title), "calibration of %s", r->hw);
	fputs("\nset logscale xy\nset format x \"%g\"\nset format y \"%g\"\n"
	      "set grid xtics ytics back lt 1 lw 1 lc rgb \"#c8c8c8\"\n", f);
	fprintf(f, "set multiplot layout %d,1 title ", n);
	report_gp_string(f, title);
	fputs(" font \",14\"\n", f);
	for (i = 0; i < PANEL_NONE; i++)
		if (used[i])
			plot_panel(f, p, r, (enum panel)i);
	fputs("unset multiplot\n", f);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int report_cal_fits(FILE *f, enum report_format fmt,
		    const struct cal_fit_report *r, struct dlsim_err *err)
{
	if (fmt == REPORT_CSV)
		return dlsim_err_set(err, DLSIM_EINVAL, "fits are not one "
				     "table: use --format table or json");
	if (fmt == REPORT_JSON)
		json(f, r);
	else
		table(f, r);
	return report_check(f, err);
}

static void fig_data(FILE *f, const void *ctx)
{
	plot_data(f, ctx);
}

static void fig_script(FILE *f, const char *image, const char *terminal,
		       const struct report_plot *p, const void *ctx)
{
	plot_script(f, image, terminal, p, ctx);
}

int report_cal_plot(const char *image, const struct cal_fit_report *r,
		    struct report_plot *out, struct dlsim_err *err)
{
	const struct report_figure fig = { fig_data, fig_script, r };
	const char *terminal;
	int i, rc, any = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < r->n_fit; i++)
		any |= panel_of(&r->fit[i]) != PANEL_NONE;
	if ((rc = report_plot_terminal(image, &terminal, err)))
		return rc;
	if (!any)
		return dlsim_err_set(err, DLSIM_EINVAL, "nothing to plot: no "
				     "fit with measured points for %s",
				     r->hw);
	return report_draw(image, &fig, out, err);
}
