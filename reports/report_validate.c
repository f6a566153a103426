/*
 * report_validate.c -- dlsim validate's record: per set, rows compared
 * and skipped (with why), median and P90 |error|, the median signed
 * error, and the five worst rows, as a table, CSV or JSON.
 *
 * The JSON is the contract: {"sets": {NAME: {"rows", "skipped",
 * "median_abs_error", "p90_abs_error", "median_signed_error", "worst":
 * [{"what", "measured", "predicted", "error"}, ...]}}}, errors as
 * fractions; keys may be added ("title", "unit", "skip_reasons",
 * "dlsim_version"), never renamed.
 *
 * THE PLOT: predicted against measured, log-log, each set's rows in its
 * own colour, every value divided by its set's median measured value
 * (the sets' units differ: samples/s, seconds, TFLOP/s), with the lines
 * y = x, y = x (1 +- 0.1) and y = x (1 +- 0.25): a point between the
 * dashed lines is within 10%.  The .dat file holds one gnuplot block per
 * set.
 */
#include "reports/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/banned.h"

/* The set column's width: the longest set name reported, so that the
 * columns after it stay aligned. */
static int name_width(const struct cal_val_report *r)
{
	int i, w = 19;

	for (i = 0; i < r->n_sets; i++)
		if ((int)strlen(r->set[i].name) > w)
			w = (int)strlen(r->set[i].name);
	return w;
}

static void table(FILE *f, const struct cal_val_report *r)
{
	int i, k, w = name_width(r);

	fprintf(f, "%-*s %6s %7s %8s %8s %8s  %s\n", w, "set", "rows",
		"skipped", "median", "P90", "bias", "what");
	for (i = 0; i < r->n_sets; i++) {
		const struct cal_val_set *s = &r->set[i];

		if (s->rows == 0) {
			fprintf(f, "%-*s %6lld %7lld %8s %8s %8s  %s\n",
				w, s->name, 0LL, (long long)s->skipped, "n/a",
				"n/a", "n/a", s->title);
			continue;
		}
		fprintf(f, "%-*s %6lld %7lld %7.1f%% %7.1f%% %+7.1f%%  %s\n",
			w, s->name, (long long)s->rows, (long long)s->skipped,
			100.0 * s->median_abs_error, 100.0 * s->p90_abs_error,
			100.0 * s->median_signed_error, s->title);
	}
	for (i = 0; i < r->n_sets; i++) {
		const struct cal_val_set *s = &r->set[i];

		fprintf(f, "\n%s: worst rows (%s, measured / predicted)\n",
			s->name, s->unit);
		for (k = 0; k < s->n_worst; k++)
			fprintf(f, "  %+7.1f%%  %.6g / %.6g  %s\n",
				100.0 * s->worst[k].error, s->worst[k].measured,
				s->worst[k].predicted, s->worst[k].what);
		for (k = 0; k < s->n_reasons; k++)
			fprintf(f, "  skipped %lld: %s\n",
				(long long)s->reason[k].n, s->reason[k].why);
	}
}

/* ",x", or "," for a set without the figure (no row compared): an
 * empty field, as predict's CSV leaves its unknown figures */
static void csv_figure(FILE *f, double v)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, "%.6g", v);
}

static void csv(FILE *f, const struct cal_val_report *r)
{
	int i;

	fputs("set,rows,skipped,median_abs_error,p90_abs_error,"
	      "median_signed_error\n", f);
	for (i = 0; i < r->n_sets; i++) {
		const struct cal_val_set *s = &r->set[i];

		fprintf(f, "%s,%lld,%lld", s->name, (long long)s->rows,
			(long long)s->skipped);
		csv_figure(f, s->median_abs_error);
		csv_figure(f, s->p90_abs_error);
		csv_figure(f, s->median_signed_error);
		fputc('\n', f);
	}
}

/* ", \"median_abs_error\": x, \"p90_abs_error\": y,
 * \"median_signed_error\": z" */
static void json_errors(FILE *f, double median, double p90, double bias)
{
	fputs(", \"median_abs_error\": ", f);
	report_json_number(f, median);
	fputs(", \"p90_abs_error\": ", f);
	report_json_number(f, p90);
	fputs(", \"median_signed_error\": ", f);
	report_json_number(f, bias);
}

static void json_set(FILE *f, const struct cal_val_set *s)
{
	int k;

	report_json_string(f, s->name);
	fputs(": {\"title\": ", f);
	report_json_string(f, s->title);
	fputs(", \"unit\": ", f);
	report_json_string(f, s->unit);
	fprintf(f, ", \"rows\": %lld, \"skipped\": %lld",
		(long long)s->rows, (long long)s->skipped);
	json_errors(f, s->median_abs_error, s->p90_abs_error,
		    s->median_signed_error);
	fputs(", \"worst\": [", f);
	for (k = 0; k < s->n_worst; k++) {
		fputs(k ? ", {\"what\": " : "{\"what\": ", f);
		report_json_string(f, s->worst[k].what);
		fputs(", \"measured\": ", f);
		report_json_number(f, s->worst[k].measured);
		fputs(", \"predicted\": ", f);
		report_json_number(f, s->worst[k].predicted);
		fputs(", \"error\": ", f);
		report_json_number(f, s->worst[k].error);
		fputc('}', f);
	}
	fputs("], \"skip_reasons\": [", f);
	for (k = 0; k < s->n_reasons; k++) {
		fprintf(f, "%s{\"n\": %lld, \"why\": ", k ? ", " : "",
			(long long)s->reason[k].n);
		report_json_string(f, s->reason[k].why);
		fputc('}', f);
	}
	fputs("]}", f);
}

int report_validation(FILE *f, enum report_format fmt,
		      const struct cal_val_report *r, struct dlsim_err *err)
{
	int i;

	if (fmt == REPORT_JSON) {
		fprintf(f, "{\"dlsim_version\": \"%s\", \"sets\": {",
			dlsim_version());
		for (i = 0; i < r->n_sets; i++) {
			fputs(i ? ",\n  " : "\n  ", f);
			json_set(f, &r->set[i]);
		}
		fputs("}}\n", f);
	} else if (fmt == REPORT_CSV) {
		csv(f, r);
	} else {
		table(f, r);
	}
	return report_check(f, err);
}

/* ---------------------------------------------------------------- */
/* Every row                                                         */
/* ---------------------------------------------------------------- */

int report_validation_rows(FILE *f, enum report_format fmt,
			   const struct cal_val_report *r,
			   struct dlsim_err *err)
{
	int i, first = 1, width = name_width(r);
	int64_t k;

	if (fmt == REPORT_CSV)
		fputs("set,what,measured,predicted,error\n", f);
	else if (fmt == REPORT_JSON)
		fputs("{\"rows\": [", f);
	else
		fprintf(f, "%-*s %8s %12s %12s  %s\n", width, "set", "error",
			"measured", "predicted", "what");
	for (i = 0; i < r->n_sets; i++) {
		const struct cal_val_set *s = &r->set[i];

		for (k = 0; k < s->rows; k++) {
			const struct cal_val_row *w = &s->row[k];

			if (fmt == REPORT_CSV) {
				fprintf(f, "%s,", s->name);
				report_csv_field(f, w->what);
				fprintf(f, ",%.9g,%.9g,%.6g\n", w->measured,
					w->predicted, w->error);
			} else if (fmt == REPORT_JSON) {
				fputs(first ? "{\"set\": " : ", {\"set\": ", f);
				report_json_string(f, s->name);
				fputs(", \"what\": ", f);
				report_json_string(f, w->what);
				fputs(", \"measured\": ", f);
				report_json_number(f, w->measured);
				fputs(", \"predicted\": ", f);
				report_json_number(f, w->predicted);
				fputs(", \"error\": ", f);
				report_json_number(f, w->error);
				fputc('}', f);
			} else {
				fprintf(f, "%-*s %+7.1f%% %12.6g %12.6g  %s\n",
					width, s->name, 100.0 * w->error, w->measured,
					w->predicted, w->what);
			}
			first = 0;
		}
	}
	if (fmt == REPORT_JSON)
		fputs("]}\n", f);
	return report_check(f, err);
}

int report_validation_history(FILE *f, enum report_format fmt,
			      const struct cal_val_history *h,
			      struct dlsim_err *err)
{
	char when[32];
	int i;

	if (fmt == REPORT_JSON)
		fputs("{\"history\": [", f);
	else if (fmt == REPORT_CSV)
		fputs("version,created_s,set,calibrated,rows,median_abs_error,"
		      "p90_abs_error,median_signed_error\n", f);
	else
		fprintf(f, "%-19s %-20s %-22s %-7s %6s %8s %8s %8s\n",
			"version", "recorded (UTC)", "set", "fits", "rows",
			"median", "P90", "bias");
	for (i = 0; i < h->n; i++) {
		const struct cal_val_entry *e = &h->e[i];

		report_utc(e->created_s, when, sizeof(when));
		if (fmt == REPORT_JSON) {
			fprintf(f, "%s{\"version\": ", i ? ",\n  " : "\n  ");
			report_json_string(f, e->version);
			fputs(", \"set\": ", f);
			report_json_string(f, e->set);
			fprintf(f, ", \"created_s\": %.0f, \"calibrated\": %s, "
				"\"rows\": %lld", e->created_s,
				e->calibrated ? "true" : "false",
				(long long)e->rows);
			json_errors(f, e->median_abs_error, e->p90_abs_error,
				    e->median_signed_error);
			fputc('}', f);
		} else if (fmt == REPORT_CSV) {
			fprintf(f, "%s,%.0f,%s,%d,%lld,%.6g,%.6g,%.6g\n",
				e->version, e->created_s, e->set,
				e->calibrated, (long long)e->rows,
				e->median_abs_error,
				e->p90_abs_error, e->median_signed_error);
		} else {
			fprintf(f, "%-19s %-20s %-22s %-7s %6lld %7.1f%% "
				"%7.1f%% %+7.1f%%\n", e->version, when,
				e->set, e->calibrated ? "shipped" : "none",
				(long long)e->rows,
				100.0 * e->median_abs_error,
				100.0 * e->p90_abs_error,
				100.0 * e->median_signed_error);
		}
	}
	if (fmt == REPORT_JSON)
		fputs("]}\n", f);
	if (fmt == REPORT_TABLE && h->n == 0 && h->n_damaged == 0)
		fputs("nothing recorded yet: run dlsim validate --record\n", f);
	else if (fmt == REPORT_TABLE && h->n == 0)
		fputs("nothing readable recorded: the records stored are "
		      "damaged (stderr says which)\n", f);
	return report_check(f, err);
}

/* ---------------------------------------------------------------- */
/* Plot                                                              */
/* ---------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median measured value of s (its plot's unit). */
static double scale_of(const struct cal_val_set *s)
{
	double *c = malloc((size_t)s->rows * sizeof(double)), m = 1.0;
	int64_t k;

	if (!c || s->rows == 0) {
		free(c);
		return 1.0;
	}
	for (k = 0; k < s->rows; k++)
		c[k] = s->row[k].measured;
	qsort(c, (size_t)s->rows, sizeof(double), cmp_double);
	m = c[s->rows / 2];
	free(c);
	return m > 0.0 ? m : 1.0;
}

static void plot_data(FILE *f, const struct cal_val_report *r)
{
	int i;
	int64_t k;

	fprintf(f, "# dlsim %s validate: measured, predicted (each over the "
		"set's median measured value)\n", dlsim_version());
	for (i = 0; i < r->n_sets; i++) {
		const struct cal_val_set *s = &r->set[i];
		double m = scale_of(s);

		fprintf(f, "# %s (%s, / %.6g)\n", s->name, s->unit, m);
		for (k = 0; k < s->rows; k++)
			fprintf(f, "%.9g %.9g\n", s->row[k].measured / m,
				s->row[k].predicted / m);
		fputs("\n\n", f);
	}
}

static void plot_script(FILE *f, const char *image, const char *terminal,
			const struct report_plot *p,
			const struct cal_val_report *r)
{
	static const char *const colour[] = {
		"#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e",
		"#e6ab02", "#a6761d", "#666666", "#1f78b4", "#b2df8a",
		"#fb9a99", "#6a3d9a", "#b15928", "#000080", "#808000",
		"#008080"
	};
	char label[160];
	int i;

	fprintf(f, "# dlsim %s: predicted against measured.\n# Redraw, in "
		"this file's directory, with: gnuplot %s\n", dlsim_version(),
		report_basename(p->gp));
	fprintf(f, "set terminal %s\nset termoption noenhanced\nset output ",
		terminal);
	report_gp_string(f, report_basename(image));
	fputs("\nset title \"dlsim validate: predicted against measured "
	      "(each set over its median measured value)\" font \",13\"\n"
	      "set xlabel \"measured\"\nset ylabel \"predicted\"\n"
	      "set logscale xy\nset format x \"%g\"\nset format y \"%g\"\n"
	      "set grid xtics ytics back lt 1 lw 1 lc rgb \"#d0d0d0\"\n"
	      "set key top left Left reverse box opaque\n"
	      "set autoscale xy\n"
	      "plot x lw 2 lc rgb \"#000000\" title \"predicted = measured\", "
	      "\\\n     1.1*x dt 2 lc rgb \"#555555\" title \"+-10%\", "
	      "0.9*x dt 2 lc rgb \"#555555\" notitle, \\\n"
	      "     1.25*x dt 3 lc rgb \"#999999\" title \"+-25%\", "
	      "0.75*x dt 3 lc rgb \"#999999\" notitle", f);
	for (i = 0; i < r->n_sets; i++) {
		const struct cal_val_set *s = &r->set[i];

		fputs(", \\\n     ", f);
		report_gp_string(f, report_basename(p->dat));
		fprintf(f, " index %d with points pt %d ps 0.6 lc rgb \"%s\" "
			"title ", i, 5 + 2 * (i / 16), colour[i % 16]);
		snprintf(label, sizeof(label), "%s (%lld rows, median %.1f%%)",
			 s->name, (long long)s->rows,
			 100.0 * s->median_abs_error);
		report_gp_string(f, label);
	}
	fputc('\n', f);
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

int report_validation_plot(const char *image, const struct cal_val_report *r,
			   struct report_plot *out, struct dlsim_err *err)
{
	const struct report_figure fig = { fig_data, fig_script, r };

	memset(out, 0, sizeof(*out));
	return report_draw(image, &fig, out, err);
}
