/*
 * report_predict.c -- a prediction as a table for people, CSV for
 * spreadsheets, or JSON for programs.
 *
 * The JSON keys are a contract (issue 2): model, hardware, devices,
 * precision, batch_per_device, global_batch, step_time_s, throughput,
 * throughput_per_device, scaling_efficiency, memory_per_device_bytes,
 * memory_capacity_bytes, fits, breakdown_s {forward, backward, optimizer,
 * comm, comm_exposed}, and layers when asked for.  Issue 4 adds
 * step_time_s_low and step_time_s_high (the fits' 95% bounds; the point
 * when uncalibrated) and calibration: null, or {hw, fits: [{id, kind,
 * n_samples, created_s, age_s}]} (with flop_scale and byte_scale when hw
 * is the device's calibration_from); the CSV ends with the same two columns,
 * empty when uncalibrated.  New keys may be added;
 * these are never renamed.  Times are seconds, throughput samples/s.
 */
#include "reports/report.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "core/banned.h"

void report_fusion_lines(FILE *f, int fused_edges, int conv_bn_pairs)
{
	if (fused_edges)
		fprintf(f, "fusion          %d element-wise edges kept on chip\n",
			fused_edges);
	if (conv_bn_pairs)
		fprintf(f, "                %d BatchNorm + ReLU pairs run inside "
			"convolutions\n", conv_bn_pairs);
}

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static const char *algo_label(const struct sim_result *r, char *buf,
			      size_t n)
{
	if (r->update_on_host)
		return "host";
	if (r->devices <= 1)
		return "none";
	snprintf(buf, n, "%s%s", r->allreduce_hierarchical ?
		 "hierarchical " : "", sim_algo_name(r->allreduce_used));
	return buf;
}

/* "ring allreduce", "fp16-compressed ring allreduce", "topk ring
 * allgather" */
static const char *comm_label(const struct sim_result *r, char *buf,
			      size_t n)
{
	char algo[48];

	snprintf(buf, n, "%s%s%s %s",
		 r->compression ? sim_compression_name(r->compression) : "",
		 r->compression ? "-compressed " : "",
		 algo_label(r, algo, sizeof(algo)),
		 sim_collective_name(r->grad_collective));
	return buf;
}

static double layer_time(const struct sim_layer_time *t, int first,
			 int last)
{
	double s = 0.0;
	int p;

	for (p = first; p <= last; p++)
		s += t->time_s[p];
	return s;
}

static double layer_sum(const double *v)
{
	return v[MODEL_PASS_FWD] + v[MODEL_PASS_BWD_DATA] +
	       v[MODEL_PASS_BWD_WEIGHT];
}

/* The bound of the pass that takes longest. */
static enum sim_bound layer_bound(const struct sim_layer_time *t)
{
	int p, best = MODEL_PASS_FWD;

	for (p = MODEL_PASS_BWD_DATA; p <= MODEL_PASS_BWD_WEIGHT; p++)
		if (t->time_s[p] > t->time_s[best])
			best = p;
	return t->bound[best];
}

/* ---------------------------------------------------------------- */
/* Table                                                             */
/* ---------------------------------------------------------------- */

static void table_layers(FILE *f, const struct model *m,
			 const struct sim_result *r)
{
	char a[32], b[32];
	int i;

	fprintf(f, "\n%-4s %-24s %-12s %12s %12s %11s %11s %-8s\n", "#",
		"layer", "kind", "fwd", "bwd", "GFLOP", "MB", "bound");
	for (i = 1; i < r->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];
		const struct sim_layer_time *t = &r->layers[i];

		fprintf(f, "%-4d %-24.24s %-12s %12s %12s %11.3f %11.3f %-8s\n",
			i, l->name, model_layer_kind_name(l->kind),
			report_seconds(t->time_s[MODEL_PASS_FWD], a,
				       sizeof(a)),
			report_seconds(layer_time(t, MODEL_PASS_BWD_DATA,
						  MODEL_PASS_BWD_WEIGHT), b,
				       sizeof(b)),
			layer_sum(t->flops) / 1e9, layer_sum(t->bytes) / 1e6,
			sim_bound_name(layer_bound(t)));
	}
}

/* "host memory     X of Y (fits)" or "(DOES NOT FIT: Z short)", the
 * line's start; the caller says what the host holds. */
static void host_against_capacity(FILE *f, const struct sim_memory *mem)
{
	char a[32], b[32];

	fprintf(f, "host memory     %s of %s", report_bytes(mem->host_bytes,
		a, sizeof(a)), report_bytes(mem->host_capacity_bytes, b,
					    sizeof(b)));
	if (mem->host_bytes <= mem->host_capacity_bytes)
		fputs(" (fits)", f);
	else
		fprintf(f, " (DOES NOT FIT: %s short)", report_bytes(
				mem->host_bytes - mem->host_capacity_bytes, a,
				sizeof(a)));
}

static void table_memory(FILE *f, const struct hw_system *s,
			 const struct sim_result *r)
{
	const struct sim_memory *mem = &r->memory;
	int fits = mem->total_bytes <= mem->capacity_bytes;
	char a[32], b[32], c[32];

	fprintf(f, "memory/device   %s of %s", report_bytes(mem->total_bytes,
		a, sizeof(a)), report_bytes(mem->capacity_bytes, b,
					    sizeof(b)));
	if (fits)
		fputs(" (fits)\n", f);
	else
		fprintf(f, " (DOES NOT FIT: %s short)\n",
			report_bytes(mem->total_bytes - mem->capacity_bytes, c,
				     sizeof(c)));
	fprintf(f, "  weights       %s\n", report_bytes(mem->weights_bytes, a,
		sizeof(a)));
	fprintf(f, "  gradients     %s\n", report_bytes(mem->gradients_bytes,
		a, sizeof(a)));
	fprintf(f, "  optimizer     %s\n", report_bytes(mem->optimizer_bytes,
		a, sizeof(a)));
	fprintf(f, "  activations   %s\n",
		report_bytes(mem->activations_bytes, a, sizeof(a)));
	fprintf(f, "  workspace     %s\n", report_bytes(mem->workspace_bytes,
		a, sizeof(a)));
	if (mem->host_bytes > 0.0 && r->update_on_host) {
		host_against_capacity(f, mem);
		fprintf(f, ": the weights, gradients and optimizer state the "
			"host's %s updates%s, over %s\n",
			s->host_cpu ? s->host_cpu->name : "CPU",
			mem->host_tables ? ", embedding tables with them" : "",
			s->host ? s->host->name : "the host link");
	}
	else if (mem->host_bytes > 0.0 && mem->host_capacity_bytes > 0.0) {
		host_against_capacity(f, mem);
		fprintf(f, ": embedding tables, read and updated over %s\n",
			s->host ? s->host->name : "the host link");
	} else if (mem->host_bytes > 0.0)
		fprintf(f, "host memory     %s (embedding tables, read and "
			"updated over %s; the node states no host memory)\n",
			report_bytes(mem->host_bytes, a, sizeof(a)),
			s->host ? s->host->name : "the host link");
}

static void table_train(FILE *f, const struct sim_train *t)
{
	char a[32];

	fprintf(f, "to train        %lld epochs x %lld samples = %.0f steps: "
		"%s (%.2f %s)\n", (long long)t->epochs,
		(long long)t->dataset_size, t->steps,
		report_seconds(t->time_s, a, sizeof(a)),
		t->time_s < 172800.0 ? t->time_s / 3600.0 :
		t->time_s / 86400.0, t->time_s < 172800.0 ? "hours" : "days");
	if (t->energy_known)
		fprintf(f, "  energy        %.1f kWh at %.1f kW (%s)\n",
			t->energy_j / 3.6e6, t->power_w / 1e3, t->energy_note);
	else
		fprintf(f, "  energy        %s\n", t->energy_note);
	if (t->cost_known)
		fprintf(f, "  cost          %.0f USD (%s)\n", t->cost_usd,
			t->cost_note);
	else
		fprintf(f, "  cost          %s\n", t->cost_note);
}

/* "2 h", "3 d", "40 s": a fit's age for people. */
static void table_calib(FILE *f, const struct hw_system *s,
			const struct sim_result *r)
{
	const struct hw_calib_fit *fit = r->calib_used;
	double now = (double)time(NULL);
	char a[32], b[32];
	int i;

	if (!r->calibrated) {
		if (hw_calib_count(s->calib) > 0)
			fprintf(f, "calibrated      no: the fits of %s are for "
				"other precisions or kernels than this step's "
				"(%s); the catalog's figures are used\n",
				s->calib->hw, dlsim_precision_name(
					r->precision));
		return;
	}
	fputs("calibrated      ", f);
	/* fits of another name: a node's, or a same-chip device's */
	if (s->calib && strcmp(s->calib->hw, s->device->name) != 0) {
		fprintf(f, "with the fits of %s", s->calib->hw);
		/* a same-chip device's, scaled to this one (hw show) */
		if (strcmp(s->calib->hw, s->device->calib_from) == 0 &&
		    (s->device->calib_flop_scale[r->precision] != 1.0 ||
		     s->device->calib_byte_scale != 1.0))
			fprintf(f, " (time per FLOP x %.3f, per byte x %.3f)",
				s->device->calib_flop_scale[r->precision],
				s->device->calib_byte_scale);
		fputs(": ", f);
	}
	for (i = 0; i < r->n_calib_used; i++)
		fprintf(f, "%s%s fit #%lld, %lld samples, %s old",
			i ? "; " : "",
			fit[i].kind, (long long)fit[i].id,
			(long long)fit[i].n_samples,
			report_age(now - fit[i].created_s, a, sizeof(a)));
	fprintf(f, "\ninterval        %s .. ",
		report_seconds(r->step_time_s_low, a, sizeof(a)));
	fprintf(f, "%s (95%%, from the fits' covariance)\n",
		report_seconds(r->step_time_s_high, b, sizeof(b)));
}

static void table(FILE *f, const struct model *m, const struct hw_system *s,
		  const struct sim_result *r, const struct sim_train *train,
		  int layers)
{
	const struct sim_breakdown *bd = &r->breakdown;
	char a[32], b[48], c[32];

	fprintf(f, "model           %s (%.2f M parameters)\n", m->name,
		(double)m->params / 1e6);
	fprintf(f, "hardware        %s: %lld x %s", s->spec,
		(long long)s->n_devices, s->device->model);
	if (s->node && s->n_devices > 1)
		fprintf(f, " in %lld %s node%s", (long long)s->n_nodes,
			s->node->name, s->n_nodes > 1 ? "s" : "");
	fputc('\n', f);
	fprintf(f, "precision       %s%s\n", dlsim_precision_name(r->precision),
		r->autocast ? " (autocast: fp32 weights cast at each use, "
		"fp32 residual stream and norms)" :
		r->precision == DLSIM_FP16 || r->precision == DLSIM_BF16 ||
		r->precision == DLSIM_FP8 ?
		" (mixed: fp32 master weights)" : "");
	fprintf(f, "batch           %lld per device, %lld global\n",
		(long long)r->batch_per_device, (long long)r->global_batch);
	report_fusion_lines(f, r->fused_edges, r->conv_bn_pairs);
	fprintf(f, "step time       %s\n", report_seconds(r->step_time_s, a,
		sizeof(a)));
	table_calib(f, s, r);
	fprintf(f, "throughput      %s samples/s ", report_rate(r->throughput,
		a, sizeof(a)));
	fprintf(f, "(%s per device)\n", report_rate(r->throughput_per_device,
		a, sizeof(a)));
	fprintf(f, "scaling eff.    %.1f%% (vs. one device at the same "
		"batch)\n", 100.0 * r->scaling_efficiency);
	fprintf(f, "breakdown\n  forward       %s\n  backward      %s\n"
		"  optimizer     %s\n", report_seconds(bd->forward_s, a,
		sizeof(a)), report_seconds(bd->backward_s, c, sizeof(c)),
		report_seconds(bd->optimizer_s, b, sizeof(b)));
	fprintf(f, "  comm total    %s", report_seconds(bd->comm_s, a,
		sizeof(a)));
	if (r->update_on_host) {
		fprintf(f, " (gradients to the host and weights back over "
			"%s, %s a device both ways",
			s->host ? s->host->name : "the host link",
			report_bytes(r->comm_bytes, c, sizeof(c)));
		fputs("; the optimizer is the host's update)", f);
	} else if (r->devices > 1) {
		char label[96];

		fprintf(f, " (%s, %d bucket%s, %s of gradients",
			comm_label(r, label, sizeof(label)), r->n_buckets,
			r->n_buckets == 1 ? "" : "s",
			report_bytes(r->gradient_bytes, c, sizeof(c)));
		if (r->compression)
			fprintf(f, ", %s on the wire",
				report_bytes(r->comm_bytes, b, sizeof(b)));
		fputc(')', f);
	}
	if (r->breakdown.compress_s > 0.0)
		fprintf(f, "\n  compression   %s (kernels on the compute "
			"stream)", report_seconds(r->breakdown.compress_s, a,
						  sizeof(a)));
	fprintf(f, "\n  comm exposed  %s\n", report_seconds(bd->comm_exposed_s,
		a, sizeof(a)));
	table_memory(f, s, r);
	if (train)
		table_train(f, train);
	if (layers && r->layers)
		table_layers(f, m, r);
}

/* ---------------------------------------------------------------- */
/* CSV                                                               */
/* ---------------------------------------------------------------- */

static void csv(FILE *f, const struct model *m, const struct hw_system *s,
		const struct sim_result *r, const struct sim_train *train,
		int layers)
{
	const struct sim_breakdown *bd = &r->breakdown;
	int i;

	if (layers && r->layers) {
		fputs("model,hardware,precision,batch_per_device,layer,name,"
		      "kind,fwd_s,bwd_data_s,bwd_weight_s,flops,bytes,bound\n",
		      f);
		for (i = 1; i < r->n_layers; i++) {
			const struct sim_layer_time *t = &r->layers[i];

			report_csv_field(f, m->name);
			fputc(',', f);
			report_csv_field(f, s->spec);
			fprintf(f, ",%s,%lld,%d,",
				dlsim_precision_name(r->precision),
				(long long)r->batch_per_device, i);
			report_csv_field(f, m->layers[i].name);
			fprintf(f, ",%s,%.9g,%.9g,%.9g,%.9g,%.9g,%s\n",
				model_layer_kind_name(m->layers[i].kind),
				t->time_s[0], t->time_s[1], t->time_s[2],
				layer_sum(t->flops), layer_sum(t->bytes),
				sim_bound_name(layer_bound(t)));
		}
		return;
	}
	fputs("model,hardware,devices,precision,batch_per_device,"
	      "global_batch,step_time_s,throughput,throughput_per_device,"
	      "scaling_efficiency,forward_s,backward_s,optimizer_s,comm_s,"
	      "comm_exposed_s,memory_per_device_bytes,memory_capacity_bytes,"
	      "fits,train_time_s,train_energy_J,train_cost_usd,"
	      "step_time_s_low,step_time_s_high\n", f);
	report_csv_field(f, m->name);
	fputc(',', f);
	report_csv_field(f, s->spec);
	fprintf(f, ",%lld,%s,%lld,%lld,%.9g,%.9g,%.9g,%.6f,%.9g,%.9g,%.9g,"
		"%.9g,%.9g,%.0f,%.0f,%s,", (long long)r->devices,
		dlsim_precision_name(r->precision),
		(long long)r->batch_per_device, (long long)r->global_batch,
		r->step_time_s, r->throughput, r->throughput_per_device,
		r->scaling_efficiency, bd->forward_s, bd->backward_s,
		bd->optimizer_s, bd->comm_s, bd->comm_exposed_s,
		r->memory.total_bytes, r->memory.capacity_bytes,
		r->fits ? "true" : "false");
	/* unknown figures are empty fields */
	if (train)
		fprintf(f, "%.9g", train->time_s);
	fputc(',', f);
	if (train && train->energy_known)
		fprintf(f, "%.9g", train->energy_j);
	fputc(',', f);
	if (train && train->cost_known)
		fprintf(f, "%.9g", train->cost_usd);
	/* the interval only where a fit gives one */
	if (r->calibrated)
		fprintf(f, ",%.9g,%.9g", r->step_time_s_low,
			r->step_time_s_high);
	else
		fputs(",,", f);
	fputc('\n', f);
}

/* ---------------------------------------------------------------- */
/* JSON                                                              */
/* ---------------------------------------------------------------- */

static void json_kv(FILE *f, const char *key, double v, int last)
{
	fprintf(f, "\"%s\": ", key);
	report_json_number(f, v);
	fputs(last ? "" : ", ", f);
}

static void json_layers(FILE *f, const struct model *m,
			const struct sim_result *r)
{
	int i;

	fputs(",\n  \"layers\": [", f);
	for (i = 1; i < r->n_layers; i++) {
		const struct sim_layer_time *t = &r->layers[i];

		fputs(i > 1 ? ",\n    {" : "\n    {", f);
		fputs("\"name\": ", f);
		report_json_string(f, m->layers[i].name);
		fprintf(f, ", \"kind\": \"%s\", ",
			model_layer_kind_name(m->layers[i].kind));
		json_kv(f, "fwd_s", t->time_s[0], 0);
		json_kv(f, "bwd_data_s", t->time_s[1], 0);
		json_kv(f, "bwd_weight_s", t->time_s[2], 0);
		json_kv(f, "flops", layer_sum(t->flops), 0);
		json_kv(f, "bytes", layer_sum(t->bytes), 0);
		fprintf(f, "\"bound\": \"%s\"}",
			sim_bound_name(layer_bound(t)));
	}
	fputs("\n  ]", f);
}

static void json_train(FILE *f, const struct sim_train *t)
{
	fprintf(f, ",\n  \"train\": {\"epochs\": %lld, \"dataset_size\": %lld, ",
		(long long)t->epochs, (long long)t->dataset_size);
	json_kv(f, "steps", t->steps, 0);
	json_kv(f, "time_s", t->time_s, 0);
	json_kv(f, "energy_J", t->energy_known ? t->energy_j : NAN, 0);
	json_kv(f, "power_W", t->energy_known ? t->power_w : NAN, 0);
	fputs("\"energy_note\": ", f);
	report_json_string(f, t->energy_note);
	fputs(", ", f);
	json_kv(f, "cost_usd", t->cost_known ? t->cost_usd : NAN, 0);
	fputs("\"cost_note\": ", f);
	report_json_string(f, t->cost_note);
	fputc('}', f);
}

static void json_calib(FILE *f, const struct hw_system *s,
		       const struct sim_result *r)
{
	const struct hw_calib_fit *fit = r->calib_used;
	double now = (double)time(NULL);
	int i;

	if (!r->calibrated || !s->calib) {
		fputs("null", f);
		return;
	}
	fputs("{\"hw\": ", f);
	report_json_string(f, s->calib->hw);
	/* a same-chip device's fits, scaled to this one */
	if (strcmp(s->calib->hw, s->device->calib_from) == 0)
		fprintf(f, ", \"flop_scale\": %g, \"byte_scale\": %g",
			s->device->calib_flop_scale[r->precision],
			s->device->calib_byte_scale);
	fputs(", \"fits\": [", f);
	for (i = 0; i < r->n_calib_used; i++) {
		fprintf(f, "%s{\"id\": %lld, \"kind\": ", i ? ", " : "",
			(long long)fit[i].id);
		report_json_string(f, fit[i].kind);
		fprintf(f, ", \"n_samples\": %lld, ",
			(long long)fit[i].n_samples);
		json_kv(f, "created_s", fit[i].created_s, 0);
		json_kv(f, "age_s", now - fit[i].created_s, 1);
		fputc('}', f);
	}
	fputs("]}", f);
}

static void json(FILE *f, const struct model *m, const struct hw_system *s,
		 const struct sim_result *r, const struct sim_train *train,
		 int layers)
{
	const struct sim_breakdown *bd = &r->breakdown;
	const struct sim_memory *mem = &r->memory;
	char algo[48];

	fprintf(f, "{\n  \"dlsim_version\": \"%s\",\n  \"model\": ",
		dlsim_version());
	report_json_string(f, m->name);
	fputs(",\n  \"hardware\": ", f);
	report_json_string(f, s->spec);
	fputs(",\n  \"device\": ", f);
	report_json_string(f, s->device->name);
	fprintf(f, ",\n  \"devices\": %lld, \"nodes\": %lld,\n",
		(long long)r->devices, (long long)s->n_nodes);
	fprintf(f, "  \"precision\": \"%s\",\n",
		dlsim_precision_name(r->precision));
	fprintf(f, "  \"batch_per_device\": %lld, \"global_batch\": %lld,\n  ",
		(long long)r->batch_per_device, (long long)r->global_batch);
	json_kv(f, "step_time_s", r->step_time_s, 0);
	json_kv(f, "throughput", r->throughput, 0);
	fputs("\n  ", f);
	json_kv(f, "step_time_s_low", r->step_time_s_low, 0);
	json_kv(f, "step_time_s_high", r->step_time_s_high, 0);
	fputs("\n  \"calibration\": ", f);
	json_calib(f, s, r);
	fputs(",\n  ", f);
	json_kv(f, "throughput_per_device", r->throughput_per_device, 0);
	json_kv(f, "scaling_efficiency", r->scaling_efficiency, 0);
	fputs("\n  ", f);
	json_kv(f, "memory_per_device_bytes", mem->total_bytes, 0);
	json_kv(f, "memory_capacity_bytes", mem->capacity_bytes, 0);
	fprintf(f, "\"fits\": %s,\n  \"memory_bytes\": {",
		r->fits ? "true" : "false");
	json_kv(f, "weights", mem->weights_bytes, 0);
	json_kv(f, "gradients", mem->gradients_bytes, 0);
	json_kv(f, "optimizer", mem->optimizer_bytes, 0);
	json_kv(f, "activations", mem->activations_bytes, 0);
	json_kv(f, "workspace", mem->workspace_bytes, 0);
	json_kv(f, "host", mem->host_bytes, 0);
	json_kv(f, "host_capacity", mem->host_capacity_bytes, 1);
	fputs("},\n  \"breakdown_s\": {", f);
	json_kv(f, "forward", bd->forward_s, 0);
	json_kv(f, "backward", bd->backward_s, 0);
	json_kv(f, "optimizer", bd->optimizer_s, 0);
	json_kv(f, "comm", bd->comm_s, 0);
	json_kv(f, "comm_exposed", bd->comm_exposed_s, 0);
	json_kv(f, "compress", bd->compress_s, 1);
	fprintf(f, "},\n  \"fused_edges\": %d, \"conv_bn_pairs\": %d, "
		"\"autocast\": %s, "
		"\"allreduce\": \"%s\", \"buckets\": %d, "
		"\"compression\": \"%s\", \"gradient_collective\": \"%s\", ",
		r->fused_edges, r->conv_bn_pairs,
		r->autocast ? "true" : "false", algo_label(r, algo, sizeof(algo)), r->n_buckets,
		sim_compression_name(r->compression),
		r->update_on_host ? "none" :
		sim_collective_name(r->grad_collective));
	json_kv(f, "gradient_bytes", r->gradient_bytes, 0);
	json_kv(f, "comm_bytes", r->comm_bytes, 1);
	if (train)
		json_train(f, train);
	if (layers && r->layers)
		json_layers(f, m, r);
	fputs("\n}\n", f);
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int report_prediction(FILE *f, enum report_format fmt, const struct model *m,
		      const struct hw_system *s, const struct sim_result *r,
		      const struct sim_train *train, int layers,
		      struct dlsim_err *err)
{
	if (fmt == REPORT_CSV)
		csv(f, m, s, r, train, layers);
	else if (fmt == REPORT_JSON)
		json(f, m, s, r, train, layers);
	else
		table(f, m, s, r, train, layers);
	return report_check(f, err);
}
