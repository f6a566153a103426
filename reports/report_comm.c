/*
 * report_comm.c -- a collective's predicted cost over a range of message
 * sizes (dlsim comm), in nccl-tests' conventions, as a table, CSV, JSON
 * or a gnuplot figure.
 *
 * CONVENTIONS
 * As nccl-tests prints them (NVIDIA/nccl-tests doc/PERFORMANCE.md): the
 * size is the buffer in bytes (sim_collective's meaning per collective),
 * count is that many float elements (size / 4), time is in microseconds,
 * algbw = size / time and busbw = algbw x the collective's bus factor,
 * both in GB/s of 10^9 bytes.  JSON keeps seconds (time_s), as every
 * dlsim JSON does.
 *
 * The JSON keys collective, hardware, ranks and rows [{size_bytes,
 * time_s, algbw_GBps, busbw_GBps, algorithm, hierarchical}] are a
 * contract: new keys may be added, these are never renamed.
 *
 * THE PLOT
 * busbw against size, log-log, one line through every size and a point
 * per size coloured by the algorithm used, so the switch points of AUTO
 * show.  The .dat file holds every column; the .gp script picks the
 * algorithm out of column 6 (and 7, hierarchical), so it can be restyled
 * without dlsim.
 *
 * LIMITATIONS
 * - x tics are labelled at powers of two only; a sweep between two
 *   neighbouring powers of two gets gnuplot's own tics.
 */
#include "reports/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/banned.h"

#define FLOAT_BYTES 4.0
#define GB 1e9

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static double count_of(double bytes)
{
	return floor(bytes / FLOAT_BYTES);
}

/* "ring" or "hierarchical ring", for the table and the plot's legend. */
static const char *algo_label(const struct sim_comm_result *r, char *buf,
			      size_t n)
{
	snprintf(buf, n, "%s%s", r->hierarchical ? "hierarchical " : "",
		 sim_algo_name(r->algo));
	return buf;
}

/* "12 x nvlink3 inside the node (nvswitch); 8 x ib-hdr per node" */
static void links_line(FILE *f, const struct hw_system *s)
{
	const struct hw_node *node = s->node;

	if (s->intra && node)
		fprintf(f, "%lld x %s inside each node (%s)",
			(long long)(node->intra_links_per_device > 0 ?
				    node->intra_links_per_device : 1),
			s->intra->name,
			hw_topology_name(node->intra_topology));
	if (s->nic && node)
		fprintf(f, "%s%lld x %s per node across nodes (%s)",
			s->intra ? "; " : "", (long long)node->nics_per_node,
			s->nic->name, s->network ? s->network->name :
			"network");
	if (!s->intra && !s->nic)
		fputs("none (one device)", f);
	fputc('\n', f);
}

static void system_line(FILE *f, const struct hw_system *s)
{
	fprintf(f, "%s: %lld x %s", s->spec, (long long)s->n_devices,
		s->device->model);
	if (s->node && s->n_devices > 1)
		fprintf(f, " in %lld %s node%s", (long long)s->n_nodes,
			s->node->name, s->n_nodes > 1 ? "s" : "");
}

/* ---------------------------------------------------------------- */
/* Table                                                             */
/* ---------------------------------------------------------------- */

/* The calibrated rings the system's collectives use: the intra-node one
 * when devices share a node, the inter-node one across nodes (NULL:
 * none; i 0 intra, 1 inter). */
static const struct hw_calib_ring *comm_ring(const struct hw_system *s,
					     int i)
{
	const struct hw_calib_ring *r;

	if (!s->calib)
		return NULL;
	r = i ? &s->calib->inter : &s->calib->intra;
	if (!r->fit.id || (i ? s->n_nodes : s->devices_per_node) <= 1)
		return NULL;
	return r;
}

static void table(FILE *f, const struct report_comm_sweep *sw)
{
	int i;

	fprintf(f, "collective      %s (algorithm: %s)\n",
		sim_collective_name(sw->collective),
		sw->requested == SIM_ALGO_AUTO ? "auto, the cheapest" :
		sim_algo_name(sw->requested));
	fputs("hardware        ", f);
	system_line(f, sw->system);
	fprintf(f, "\nranks           %lld\nlinks           ",
		(long long)sw->system->n_devices);
	links_line(f, sw->system);
	for (i = 0; i < 2; i++) {
		const struct hw_calib_ring *c = comm_ring(sw->system, i);

		char age[32];

		if (c)
			fprintf(f, "\ncalibrated      %s fit #%lld, %lld "
				"samples, %s old: alpha %.3g s, beta %.3g s/B "
				"per ring step (%s)", c->fit.kind,
				(long long)c->fit.id,
				(long long)c->fit.n_samples,
				report_age((double)time(NULL) -
					   c->fit.created_s, age, sizeof(age)),
				c->alpha_s, c->beta_s_per_byte,
				i ? "across nodes" : "inside a node");
	}
	fprintf(f, "\n%12s %11s %11s %8s %8s  %-18s %s\n", "size", "count",
		"time", "algbw", "busbw", "algorithm", "hierarchical");
	fprintf(f, "%12s %11s %11s %8s %8s\n", "(B)", "(elements)", "(us)",
		"(GB/s)", "(GB/s)");
	for (i = 0; i < sw->n; i++) {
		const struct sim_comm_result *r = &sw->result[i];

		fprintf(f, "%12.0f %11.0f %11.2f %8.2f %8.2f  %-18s %s\n",
			sw->bytes[i], count_of(sw->bytes[i]), r->time_s * 1e6,
			r->algbw_Bps / GB, r->busbw_Bps / GB,
			sim_algo_name(r->algo), r->hierarchical ? "yes" : "no");
	}
}

/* ---------------------------------------------------------------- */
/* CSV                                                               */
/* ---------------------------------------------------------------- */

static void csv(FILE *f, const struct report_comm_sweep *sw)
{
	int i;

	fputs("collective,hardware,ranks,size_bytes,count,time_us,"
	      "algbw_GBps,busbw_GBps,algorithm,hierarchical\n", f);
	for (i = 0; i < sw->n; i++) {
		const struct sim_comm_result *r = &sw->result[i];

		fprintf(f, "%s,", sim_collective_name(sw->collective));
		report_csv_field(f, sw->system->spec);
		fprintf(f, ",%lld,%.0f,%.0f,%.9g,%.9g,%.9g,%s,%s\n",
			(long long)sw->system->n_devices, sw->bytes[i],
			count_of(sw->bytes[i]), r->time_s * 1e6,
			r->algbw_Bps / GB, r->busbw_Bps / GB,
			sim_algo_name(r->algo),
			r->hierarchical ? "true" : "false");
	}
}

/* ---------------------------------------------------------------- */
/* JSON                                                              */
/* ---------------------------------------------------------------- */

static void json_kv(FILE *f, const char *key, double v)
{
	fprintf(f, "\"%s\": ", key);
	report_json_number(f, v);
	fputs(", ", f);
}

static void json_ring(FILE *f, const struct hw_calib_ring *c, int inter)
{
	fprintf(f, "{\"fit_id\": %lld, \"kind\": ", (long long)c->fit.id);
	report_json_string(f, c->fit.kind);
	fprintf(f, ", \"scope\": \"%s\", \"n_samples\": %lld, "
		"\"alpha_s\": %.17g, \"beta_s_per_byte\": %.17g}",
		inter ? "inter" : "intra", (long long)c->fit.n_samples,
		c->alpha_s, c->beta_s_per_byte);
}

/* "calibration": the first calibrated ring (intra before inter) or null,
 * the object it has always been; "calibrations": every one used. */
static void json_calibration(FILE *f, const struct hw_system *s)
{
	int i, n = 0;

	for (i = 0; i < 2 && !comm_ring(s, i); i++)
		;
	if (i < 2)
		json_ring(f, comm_ring(s, i), i);
	else
		fputs("null", f);
	fputs(",\n  \"calibrations\": [", f);
	for (i = 0; i < 2; i++)
		if (comm_ring(s, i)) {
			fputs(n++ ? ", " : "", f);
			json_ring(f, comm_ring(s, i), i);
		}
	fputc(']', f);
}

static void json(FILE *f, const struct report_comm_sweep *sw)
{
	const struct hw_system *s = sw->system;
	int i;

	fprintf(f, "{\n  \"dlsim_version\": \"%s\",\n"
		"  \"collective\": \"%s\",\n  \"hardware\": ",
		dlsim_version(), sim_collective_name(sw->collective));
	report_json_string(f, s->spec);
	fputs(",\n  \"device\": ", f);
	report_json_string(f, s->device->name);
	fprintf(f, ",\n  \"ranks\": %lld, \"nodes\": %lld,\n"
		"  \"algorithm_requested\": \"%s\",\n  \"calibration\": ",
		(long long)s->n_devices, (long long)s->n_nodes,
		sim_algo_name(sw->requested));
	json_calibration(f, s);
	fputs(",\n  \"rows\": [", f);
	for (i = 0; i < sw->n; i++) {
		const struct sim_comm_result *r = &sw->result[i];

		fputs(i ? ",\n    {" : "\n    {", f);
		json_kv(f, "size_bytes", sw->bytes[i]);
		json_kv(f, "count", count_of(sw->bytes[i]));
		json_kv(f, "time_s", r->time_s);
		json_kv(f, "algbw_GBps", r->algbw_Bps / GB);
		json_kv(f, "busbw_GBps", r->busbw_Bps / GB);
		fprintf(f, "\"algorithm\": \"%s\", \"hierarchical\": %s}",
			sim_algo_name(r->algo),
			r->hierarchical ? "true" : "false");
	}
	fputs("\n  ]\n}\n", f);
}

/* ---------------------------------------------------------------- */
/* Plot                                                              */
/* ---------------------------------------------------------------- */

/* s as a gnuplot double-quoted string: a newline stays a line break,
 * other control characters become spaces. */
/* "8", "512", "4K", "32M", "1G": bytes with nccl-tests' binary suffix
 * (exact: called with powers of two). */
static const char *size_label(double bytes, char *buf, size_t n)
{
	static const char *const unit[] = { "", "K", "M", "G", "T", "P" };
	int i = 0;

	while (i < 5 && bytes >= 1024.0 && fmod(bytes, 1024.0) == 0.0) {
		bytes /= 1024.0;
		i++;
	}
	snprintf(buf, n, "%.0f%s", bytes, unit[i]);
	return buf;
}

/* x tics at powers of two inside [lo, hi], at most eleven, at exponents
 * that are multiples of the step (so 8 B and 1 GiB both get one with a
 * step of 3); a step of 5 covers the widest sweep, 2^0 to 2^50.  No
 * power of two inside: gnuplot's own tics. */
static void x_tics(FILE *f, double lo, double hi)
{
	static const int steps[] = { 1, 2, 3, 5, 10 };
	int e_lo = (int)ceil(log2(lo)), e_hi = (int)floor(log2(hi));
	int i, e, step = 10, first = 1;
	char buf[32];

	if (e_hi < e_lo)
		return;
	for (i = 0; i < 5; i++)
		if ((e_hi - e_lo) / steps[i] <= 10) {
			step = steps[i];
			break;
		}
	fputs("set xtics (", f);
	for (e = e_lo; e <= e_hi; e++) {
		if (e % step != 0 && step > 1)
			continue;
		fprintf(f, "%s\"%s\" %.0f", first ? "" : ", ",
			size_label(ldexp(1.0, e), buf, sizeof(buf)),
			ldexp(1.0, e));
		first = 0;
	}
	fputs(")\n", f);
}

static void plot_data(FILE *f, const struct report_comm_sweep *sw)
{
	int i;

	fprintf(f, "# dlsim %s: %s on %s, %lld ranks\n"
		"# size_bytes count time_us algbw_GBps busbw_GBps algorithm "
		"hierarchical\n", dlsim_version(),
		sim_collective_name(sw->collective), sw->system->spec,
		(long long)sw->system->n_devices);
	for (i = 0; i < sw->n; i++) {
		const struct sim_comm_result *r = &sw->result[i];

		fprintf(f, "%.0f %.0f %.9g %.9g %.9g %s %d\n", sw->bytes[i],
			count_of(sw->bytes[i]), r->time_s * 1e6,
			r->algbw_Bps / GB, r->busbw_Bps / GB,
			sim_algo_name(r->algo), r->hierarchical);
	}
}

/* The (algorithm, hierarchical) pairs the sweep uses, in order of first
 * use; returns how many (at most 2 x SIM_ALGO_COUNT). */
static int used_algos(const struct report_comm_sweep *sw,
		      struct sim_comm_result *used)
{
	int i, k, n = 0;

	for (i = 0; i < sw->n; i++) {
		const struct sim_comm_result *r = &sw->result[i];

		for (k = 0; k < n; k++)
			if (used[k].algo == r->algo &&
			    used[k].hierarchical == r->hierarchical)
				break;
		if (k == n && n < 2 * SIM_ALGO_COUNT)
			used[n++] = *r;
	}
	return n;
}

static void plot_title(FILE *f, const struct report_comm_sweep *sw)
{
	const struct hw_system *s = sw->system;
	char line[640];
	int w;

	w = snprintf(line, sizeof(line), "%s bus bandwidth on %s (%lld "
		     "ranks)\n%lld x %s", sim_collective_name(sw->collective),
		     s->spec, (long long)s->n_devices,
		     (long long)s->n_devices, s->device->model);
	if (w > 0 && (size_t)w < sizeof(line) && s->node &&
	    s->n_devices > 1)
		snprintf(line + w, sizeof(line) - (size_t)w, " in %lld %s "
			 "node%s", (long long)s->n_nodes, s->node->name,
			 s->n_nodes > 1 ? "s" : "");
	fputs("set title ", f);
	report_gp_string(f, line);
	fputs(" font \",14\"\n", f);
}

static void plot_script(FILE *f, const char *image, const char *terminal,
			const struct report_plot *p,
			const struct report_comm_sweep *sw)
{
	static const char *const colour[] = {
		"#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e",
		"#e6ab02", "#a6761d", "#666666"
	};
	struct sim_comm_result used[2 * SIM_ALGO_COUNT];
	double lo = sw->bytes[0] / sqrt(2.0);
	double hi = sw->bytes[sw->n - 1] * sqrt(2.0);
	int k, n = used_algos(sw, used);
	char label[64];

	fprintf(f, "# dlsim %s: %s bus bandwidth against message size.\n"
		"# Restyle and redraw, in this file's directory, with: "
		"gnuplot %s\n", dlsim_version(),
		sim_collective_name(sw->collective), report_basename(p->gp));
	fprintf(f, "set terminal %s\nset termoption noenhanced\n"
		"set output ", terminal);
	report_gp_string(f, report_basename(image));
	fputc('\n', f);
	plot_title(f, sw);
	fputs("set xlabel \"message size (bytes; K, M, G = 2^10, 2^20, "
	      "2^30)\"\n"
	      "set ylabel \"bus bandwidth (GB/s, 10^9 bytes/s)\"\n"
	      "set logscale xy\nset format y \"%g\"\n", f);
	fprintf(f, "set xrange [%.9g:%.9g]\n", lo, hi);
	x_tics(f, lo, hi);
	fputs("set mytics 10\nset grid xtics ytics mytics back lt 1 lw 1 "
	      "lc rgb \"#c8c8c8\", lt 1 lw 1 lc rgb \"#ececec\"\n"
	      "set key top left Left reverse box opaque spacing 1.3 width 1\n"
	      "set border lw 1.2\nset lmargin 12\n", f);
	fputs("plot ", f);
	report_gp_string(f, report_basename(p->dat));
	fprintf(f, " using 1:5 with lines lw 2.5 lc rgb \"#1f4e79\" "
		"title \"busbw predicted by dlsim %s\"", dlsim_version());
	for (k = 0; k < n; k++) {
		fputs(", \\\n     '' using 1:(strcol(6) eq \"", f);
		fprintf(f, "%s\" && $7 == %d ? $5 : 1/0) with points pt 7 "
			"ps 1.3 lc rgb \"%s\" title ",
			sim_algo_name(used[k].algo), used[k].hierarchical,
			colour[k % 8]);
		snprintf(label, sizeof(label), "algorithm: ");
		algo_label(&used[k], label + strlen(label),
			   sizeof(label) - strlen(label));
		report_gp_string(f, label);
	}
	fputc('\n', f);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int report_comm(FILE *f, enum report_format fmt,
		const struct report_comm_sweep *sw, struct dlsim_err *err)
{
	if (fmt == REPORT_CSV)
		csv(f, sw);
	else if (fmt == REPORT_JSON)
		json(f, sw);
	else
		table(f, sw);
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

int report_comm_plot(const char *image, const struct report_comm_sweep *sw,
		     struct report_plot *out, struct dlsim_err *err)
{
	const struct report_figure fig = { fig_data, fig_script, sw };
	const char *terminal;
	int i, rc, any = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < sw->n; i++)
		any |= sw->result[i].busbw_Bps > 0.0;
	if ((rc = report_plot_terminal(image, &terminal, err)))
		return rc;
	if (!any)
		return dlsim_err_set(err, DLSIM_EINVAL, "nothing to plot: "
				     "%s on %s moves no data between ranks",
				     sim_collective_name(sw->collective),
				     sw->system->spec);
	return report_draw(image, &fig, out, err);
}
