/*
 * report_scale.c -- a scaling sweep: table, CSV, JSON, and a plot of
 * three panels drawn by gnuplot (report_gnuplot.c).
 *
 * The plot's data file holds one block per series (gnuplot's `index`),
 * columns: devices, throughput, ideal throughput (the first point's per
 * device throughput times devices), efficiency %, compute ms (forward +
 * backward), optimizer ms, exposed communication ms, then the throughput
 * interval's low and high ends (global batch over step_time_s_high and
 * step_time_s_low; NaN, which gnuplot skips, when the point is not
 * calibrated).  When any point is calibrated the throughput panel draws
 * those two columns as error bars.  The breakdown panel stacks the first
 * series' three parts as boxes over its device counts.
 */
#include "reports/report.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Text                                                              */
/* ---------------------------------------------------------------- */

static double compute_s(const struct sim_result *r)
{
	return r->breakdown.forward_s + r->breakdown.backward_s;
}

/* Below the table: which points used fitted figures, and which fits
 * (a point is named when its series' previous one used fewer: the
 * collective's fit joins once devices share a node). */
static void table_calib(FILE *f, const struct sim_scale_point *p, int n)
{
	double now = (double)time(NULL);
	char age[32];
	int i, j;

	for (i = 0; i < n; i++) {
		const struct sim_result *r = &p[i].r;

		if (!r->calibrated || r->n_calib_used == 0 ||
		    (i > 0 && strcmp(p[i - 1].series, p[i].series) == 0 &&
		     p[i - 1].r.n_calib_used == r->n_calib_used))
			continue;
		fprintf(f, "calibrated: %s:", p[i].spec);
		for (j = 0; j < r->n_calib_used; j++)
			fprintf(f, "%s %s fit #%lld, %lld samples, %s old",
				j ? ";" : "", r->calib_used[j].kind,
				(long long)r->calib_used[j].id,
				(long long)r->calib_used[j].n_samples,
				report_age(now - r->calib_used[j].created_s,
					   age, sizeof(age)));
		fputc('\n', f);
	}
}

/* The step options every point shares that change what a column holds:
 * fusion, and the update on the host (whose trip is in comm). */
static void options_line(FILE *f, const struct sim_scale_point *p, int n)
{
	const struct sim_result *r = n > 0 ? &p[0].r : NULL;

	if (!r || (!r->fused_edges && !r->update_on_host))
		return;
	fputs("options:", f);
	if (r->fused_edges)
		fprintf(f, " %d element-wise edges kept on chip",
			r->fused_edges);
	if (r->conv_bn_pairs)
		fprintf(f, ", %d BatchNorm + ReLU pairs inside the "
			"convolutions", r->conv_bn_pairs);
	if (r->update_on_host)
		fprintf(f, "%sthe update on the host CPUs (comm is the trip "
			"to them and back)", r->fused_edges ? "; " : " ");
	fputc('\n', f);
}

static void table(FILE *f, const struct model *m, const char *mode,
		  const struct model_seq_bins *bins,
		  const struct sim_scale_point *p, int n)
{
	int i;

	fprintf(f, "model %s, %s scaling\n", m->name, mode);
	options_line(f, p, n);
	if (bins) {
		fputs("sequences: ", f);
		report_seq_lengths(f, bins->n, bins->width, bins->longest,
				   bins->mean_length, bins->mean_padded);
		fputs(": each point the model at each bin's length, its step "
		      "the bins' mean\n", f);
	}
	fprintf(f, "%-20s %8s %7s %9s %11s %13s %8s %7s %6s\n", "hardware",
		"devices", "batch", "global", "step", "samples/s", "speedup",
		"effic.", "comm");
	for (i = 0; i < n; i++) {
		const struct sim_result *r = &p[i].r;
		char step[32];

		fprintf(f, "%-20s %8lld %7lld %9lld %11s %13.1f %8.2f %6.1f%% "
			"%5.1f%%%s\n", p[i].spec, (long long)r->devices,
			(long long)r->batch_per_device,
			(long long)r->global_batch,
			report_seconds(r->step_time_s, step, sizeof(step)),
			r->throughput, p[i].speedup, 100.0 * p[i].efficiency,
			100.0 * p[i].comm_fraction, r->fits ? "" :
			"  (does not fit)");
	}
	table_calib(f, p, n);
}

static void csv(FILE *f, const struct model *m, const char *mode,
		const struct model_seq_bins *bins,
		const struct sim_scale_point *p, int n)
{
	int i;

	fputs("model,mode,series,hardware,devices,nodes,batch_per_device,"
	      "global_batch,step_time_s,throughput,speedup,efficiency,"
	      "comm_fraction,compute_s,optimizer_s,comm_s,comm_exposed_s,"
	      "fused_edges,conv_bn_pairs,update_on_host,seq_bins,"
	      "fits,step_time_s_low,step_time_s_high\n", f);
	for (i = 0; i < n; i++) {
		const struct sim_result *r = &p[i].r;

		report_csv_field(f, m->name);
		fprintf(f, ",%s,%s,%s,%lld,%lld,%lld,%lld,%.9g,%.9g,%.6f,%.6f,"
			"%.6f,%.9g,%.9g,%.9g,%.9g,%d,%d,%d,%d,%s,", mode,
			p[i].series,
			p[i].spec, (long long)r->devices,
			(long long)p[i].nodes, (long long)r->batch_per_device,
			(long long)r->global_batch, r->step_time_s,
			r->throughput, p[i].speedup, p[i].efficiency,
			p[i].comm_fraction, compute_s(r),
			r->breakdown.optimizer_s, r->breakdown.comm_s,
			r->breakdown.comm_exposed_s, r->fused_edges,
			r->conv_bn_pairs, r->update_on_host,
			bins ? bins->n : 0, r->fits ? "true" : "false");
		/* the interval only where a fit gives one */
		if (r->calibrated)
			fprintf(f, "%.9g,%.9g\n", r->step_time_s_low,
				r->step_time_s_high);
		else
			fputs(",\n", f);
	}
}

static void json(FILE *f, const struct model *m, const char *mode,
		 const struct model_seq_bins *bins,
		 const struct sim_scale_point *p, int n)
{
	int i;

	fputs("{\"model\": ", f);
	report_json_string(f, m->name);
	fprintf(f, ", \"mode\": \"%s\", \"fused_edges\": %d, "
		"\"conv_bn_pairs\": %d, \"update_on_host\": %s, ", mode,
		n > 0 ? p[0].r.fused_edges : 0,
		n > 0 ? p[0].r.conv_bn_pairs : 0,
		n > 0 && p[0].r.update_on_host ? "true" : "false");
	if (bins)
		report_json_seq_lengths(f, bins->n, bins->width, bins->longest,
					bins->mean_length, bins->mean_padded);
	fputs("\"points\": [", f);
	for (i = 0; i < n; i++) {
		const struct sim_result *r = &p[i].r;

		fputs(i ? ",\n  {\"series\": " : "\n  {\"series\": ", f);
		report_json_string(f, p[i].series);
		fputs(", \"hardware\": ", f);
		report_json_string(f, p[i].spec);
		fprintf(f, ", \"devices\": %lld, \"nodes\": %lld, "
			"\"batch_per_device\": %lld, \"global_batch\": %lld, "
			"\"step_time_s\": %.9g, \"throughput\": %.9g, "
			"\"speedup\": %.9g, \"efficiency\": %.9g, "
			"\"comm_fraction\": %.9g, \"comm_exposed_s\": %.9g, "
			"\"step_time_s_low\": %.9g, "
			"\"step_time_s_high\": %.9g, "
			"\"calibrated\": %s, "
			"\"fits\": %s}", (long long)r->devices,
			(long long)p[i].nodes, (long long)r->batch_per_device,
			(long long)r->global_batch, r->step_time_s,
			r->throughput, p[i].speedup, p[i].efficiency,
			p[i].comm_fraction, r->breakdown.comm_exposed_s,
			r->step_time_s_low, r->step_time_s_high,
			r->calibrated ? "true" : "false",
			r->fits ? "true" : "false");
	}
	fputs("\n]}\n", f);
}

int report_scaling(FILE *f, enum report_format fmt, const struct model *m,
		   const char *mode, const struct model_seq_bins *bins,
		   const struct sim_scale_point *p, int n,
		   struct dlsim_err *err)
{
	if (fmt == REPORT_CSV)
		csv(f, m, mode, bins, p, n);
	else if (fmt == REPORT_JSON)
		json(f, m, mode, bins, p, n);
	else
		table(f, m, mode, bins, p, n);
	return report_check(f, err);
}

/* ---------------------------------------------------------------- */
/* Plot                                                              */
/* ---------------------------------------------------------------- */

/* A point's throughput interval, columns 8 and 9: the slow end of the
 * step is the low end of the throughput. */
static void plot_interval(FILE *f, const struct sim_result *r)
{
	if (!r->calibrated || !(r->step_time_s_low > 0.0) ||
	    !(r->step_time_s_high > 0.0)) {
		fputs(" NaN NaN\n", f);
		return;
	}
	fprintf(f, " %.6g %.6g\n",
		(double)r->global_batch / r->step_time_s_high,
		(double)r->global_batch / r->step_time_s_low);
}

static int any_calibrated(const struct sim_scale_point *p, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (p[i].r.calibrated)
			return 1;
	return 0;
}

/* The data file: one block per series. */
static char *plot_data(const struct sim_scale_point *p, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	double per_dev = 0.0;
	int i;

	if (!f)
		return NULL;
	for (i = 0; i < n; i++) {
		const struct sim_result *r = &p[i].r;

		if (i == 0 || strcmp(p[i].series, p[i - 1].series) != 0) {
			if (i)
				fputs("\n\n", f);
			fprintf(f, "# %s\n# devices throughput ideal "
				"efficiency_pct compute_ms optimizer_ms "
				"comm_exposed_ms throughput_low "
				"throughput_high\n", p[i].series);
			per_dev = r->throughput / (double)r->devices;
		}
		fprintf(f, "%lld %.6g %.6g %.4f %.6g %.6g %.6g",
			(long long)r->devices, r->throughput,
			per_dev * (double)r->devices, 100.0 * p[i].efficiency,
			1e3 * compute_s(r), 1e3 * r->breakdown.optimizer_s,
			1e3 * r->breakdown.comm_exposed_s);
		plot_interval(f, r);
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Every series' name, for the title ("v100, a100"). */
static void series_list(const struct sim_scale_point *p, int n, char *buf,
			size_t size)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && used < size; i++)
		if (i == 0 || strcmp(p[i].series, p[i - 1].series) != 0)
			used += (size_t)snprintf(buf + used, size - used,
						 "%s%s", used ? ", " : "",
						 p[i].series);
}

static int n_series(const struct sim_scale_point *p, int n)
{
	int i, k = n ? 1 : 0;

	for (i = 1; i < n; i++)
		k += strcmp(p[i].series, p[i - 1].series) != 0;
	return k;
}

/* "bf16" when every point ran it, else "precision by device". */
static const char *precision_of(const struct sim_scale_point *p, int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (p[i].r.precision != p[0].r.precision)
			return "precision by device (auto)";
	return dlsim_precision_name(p[0].r.precision);
}

/* The throughput panel; bars: draw columns 8 and 9 as error bars. */
static void plot_throughput(FILE *f, const char *dat, int k, int bars)
{
	fprintf(f, "set title 'Throughput'\nset logscale y\n"
		"set ylabel 'samples per second'\n"
		"plot for [i=0:%d] %s index i using 1:2 with linespoints "
		"lw 2 pt 7 title word(names, i+1), \\\n"
		"     for [i=0:%d] %s index i using 1:3 with lines dt 2 lc "
		"'gray40' title (i == 0 ? 'ideal (linear)' : '')", k - 1,
		dat, k - 1, dat);
	if (bars)
		fprintf(f, ", \\\n     for [i=0:%d] %s index i using "
			"1:2:8:9 with yerrorbars lc 'black' pt 0 "
			"title (i == 0 ? '95%% interval (fits)' : '')", k - 1,
			dat);
	fputc('\n', f);
}

static void plot_panels(FILE *f, const char *dat, int k, const char *first,
			int bars)
{
	plot_throughput(f, dat, k, bars);
	fprintf(f, "set title 'Parallel efficiency'\nunset logscale y\n"
		"set ylabel 'efficiency (%%)'\nset yrange [0:105]\n"
		"set key bottom left box opaque\n"
		"plot for [i=0:%d] %s index i using 1:4 with linespoints "
		"lw 2 pt 7 title word(names, i+1)\n", k - 1, dat);
	fprintf(f, "set title 'Step time of %s'\nset autoscale y\n"
		"set yrange [0:*]\nset ylabel 'time per step (ms)'\n"
		"set style fill solid 0.8 border -1\n"
		"set key outside below vertical box\n"
		"plot %s index 0 using 1:($5+$6+$7):($1*0.3) with boxes "
		"lc 'orange-red' title 'exposed communication', \\\n"
		"     '' index 0 using 1:($5+$6):($1*0.3) with boxes "
		"lc 'goldenrod' title 'optimizer', \\\n"
		"     '' index 0 using 1:5:($1*0.3) with boxes lc "
		"'steelblue' title 'compute (forward + backward)'\n"
		"unset multiplot\n", first, dat);
}

static char *plot_script(const char *image, const char *datpath,
			 const char *terminal, const struct model *m,
			 const char *mode, const struct model_seq_bins *bins,
			 const struct sim_scale_point *p, int n)
{
	char *buf = NULL, *text = NULL, names[256], words[256], batch[96];
	char title[512], dat[1100], *c;
	size_t len = 0, tlen = 0;
	FILE *f = open_memstream(&buf, &len), *q;
	int k = n_series(p, n);

	if (!f)
		return NULL;
	series_list(p, n, names, sizeof(names));
	/* gnuplot's word() list: the same names, space separated */
	snprintf(words, sizeof(words), "%s", names);
	for (c = words; *c; c++)
		if (*c == ',')
			*c = ' ';
	if (strcmp(mode, "strong") == 0)
		snprintf(batch, sizeof(batch), "global batch %lld",
			 (long long)p[0].r.global_batch);
	else
		snprintf(batch, sizeof(batch), "batch %lld per device",
			 (long long)p[0].r.batch_per_device);
	snprintf(title, sizeof(title), "%s on %s: %s scaling, %s, %s%s",
		 m->name, names, mode, batch, precision_of(p, n),
		 bins ? ", lengths binned" : "");
	/* the data file, quoted, relative to the script's directory */
	q = open_memstream(&text, &tlen);
	if (q) {
		report_gp_string(q, report_basename(datpath));
		fclose(q);
	}
	snprintf(dat, sizeof(dat), "%s", text ? text : "''");
	free(text);
	fprintf(f, "# dlsim %s: %s scaling of %s on %s\n"
		"# Restyle and redraw, in this file's directory, with: "
		"gnuplot <this file>\n"
		"set terminal %s\nset termoption noenhanced\nset output ",
		dlsim_version(), mode, m->name, names, terminal);
	report_gp_string(f, report_basename(image));
	fputs("\nset multiplot layout 1,3 title ", f);
	report_gp_string(f, title);
	fputs(" font ',13'\nset grid\nset key top left box opaque\n"
	      "set logscale x 2\nset xlabel 'devices'\nnames = ", f);
	report_gp_string(f, words);
	fputc('\n', f);
	plot_panels(f, dat, k, p[0].series, any_calibrated(p, n));
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int report_scaling_plot(const char *image, const struct model *m,
			const char *mode, const struct model_seq_bins *bins,
			const struct sim_scale_point *p, int n, int *ran,
			struct dlsim_err *err)
{
	const char *terminal;
	char dat[1024], gp[1024], *data = NULL, *script = NULL;
	int rc;

	*ran = 0;
	if ((rc = report_plot_terminal(image, &terminal, err)) ||
	    (rc = report_plot_paths(image, dat, gp, sizeof(dat), err)))
		return rc;
	data = plot_data(p, n);
	script = data ? plot_script(image, dat, terminal, m, mode, bins, p,
				    n) : NULL;
	if (!data || !script)
		rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	else
		rc = report_gnuplot(image, data, script, ran, err);
	free(data);
	free(script);
	return rc;
}
