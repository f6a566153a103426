/*
 * report_catalog.c -- a model's layers (dlsim models show) and a resolved
 * system (dlsim hw show), with units and sources.
 */
#include "reports/report.h"

#include <string.h>

#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Models                                                            */
/* ---------------------------------------------------------------- */

static void model_table(FILE *f, const struct model *m)
{
	struct model_pass_cost c;
	int i;

	fprintf(f, "model        %s\nsource       %s\nparameters   %lld\n"
		"forward MACs %.4f G per sample (a multiply-add counts once)\n"
		"batch        %lld (default)\n\n", m->name, m->source,
		(long long)m->params, model_forward_macs(m) / 1e9,
		(long long)m->default_batch);
	fprintf(f, "%-4s %-26s %-12s %-16s %12s %14s %8s\n", "#", "layer",
		"kind", "output", "params", "fwd FLOP/smp", "depth");
	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];
		char shape[48];

		model_layer_cost(l, MODEL_PASS_FWD, 1, 4, 4, &c);
		snprintf(shape, sizeof(shape), "%lldx%lldx%lld",
			 (long long)l->out.c, (long long)l->out.h,
			 (long long)l->out.w);
		fprintf(f, "%-4d %-26.26s %-12s %-16s %12lld %14.0f %8.0f\n",
			i, l->name, model_layer_kind_name(l->kind), shape,
			(long long)l->params, c.flops, c.depth);
	}
}

static void model_csv(FILE *f, const struct model *m)
{
	struct model_pass_cost c;
	int i;

	fputs("index,name,kind,out_c,out_h,out_w,params,fwd_flops,"
	      "fwd_bytes_fp32,work,depth\n", f);
	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];

		model_layer_cost(l, MODEL_PASS_FWD, 1, 4, 4, &c);
		fprintf(f, "%d,", i);
		report_csv_field(f, l->name);
		fprintf(f, ",%s,%lld,%lld,%lld,%lld,%.0f,%.0f,%.0f,%.0f\n",
			model_layer_kind_name(l->kind), (long long)l->out.c,
			(long long)l->out.h, (long long)l->out.w,
			(long long)l->params, c.flops, c.bytes, c.work,
			c.depth);
	}
}

static void model_json(FILE *f, const struct model *m)
{
	struct model_pass_cost c;
	int i;

	fputs("{\"name\": ", f);
	report_json_string(f, m->name);
	fputs(", \"source\": ", f);
	report_json_string(f, m->source);
	fprintf(f, ", \"params\": %lld, \"forward_macs\": %.0f, "
		"\"default_batch\": %lld,\n \"layers\": [",
		(long long)m->params, model_forward_macs(m),
		(long long)m->default_batch);
	for (i = 0; i < m->n_layers; i++) {
		const struct model_layer *l = &m->layers[i];

		model_layer_cost(l, MODEL_PASS_FWD, 1, 4, 4, &c);
		fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
		report_json_string(f, l->name);
		fprintf(f, ", \"kind\": \"%s\", \"out\": [%lld, %lld, %lld], "
			"\"params\": %lld, \"fwd_flops\": %.0f, "
			"\"work\": %.0f, \"depth\": %.0f}",
			model_layer_kind_name(l->kind), (long long)l->out.c,
			(long long)l->out.h, (long long)l->out.w,
			(long long)l->params, c.flops, c.work, c.depth);
	}
	fputs("\n]}\n", f);
}

int report_model(FILE *f, enum report_format fmt, const struct model *m,
		 struct dlsim_err *err)
{
	if (fmt == REPORT_CSV)
		model_csv(f, m);
	else if (fmt == REPORT_JSON)
		model_json(f, m);
	else
		model_table(f, m);
	return report_check(f, err);
}

/* ---------------------------------------------------------------- */
/* Systems                                                           */
/* ---------------------------------------------------------------- */

static void system_table(FILE *f, const struct hw_system *s)
{
	const struct hw_device *d = s->device;
	char a[32];
	int p;

	fprintf(f, "system       %s: %lld device%s, %lld node%s of %lld\n",
		s->spec, (long long)s->n_devices, s->n_devices > 1 ? "s" : "",
		(long long)s->n_nodes, s->n_nodes > 1 ? "s" : "",
		(long long)s->devices_per_node);
	fprintf(f, "device       %s (%s %s, %s, %lld units, %.0f MHz boost, "
		"%.0f W)\n  source     %s\n", d->name, d->vendor, d->model,
		hw_device_kind_name(d->kind), (long long)d->units,
		d->clock_boost_hz / 1e6, d->tdp_w, d->source);
	fprintf(f, "%-6s %14s %14s %9s %9s %9s %9s %9s\n", "prec",
		"matrix TFLOP/s", "vector TFLOP/s", "eff gemm", "eff conv",
		"eff 3x3", "eff 1x1", "eff 1x1/s");
	for (p = 0; p < DLSIM_PRECISION_COUNT; p++) {
		const struct hw_peak *pk = &d->peak[p];

		if (pk->matrix_flops <= 0.0)
			continue;
		fprintf(f, "%-6s %14.2f %14.2f %9.2f %9.2f %9.2f %9.2f %9.2f\n",
			dlsim_precision_name((enum dlsim_precision)p),
			pk->matrix_flops / 1e12, pk->vector_flops / 1e12,
			pk->eff_gemm, pk->eff_conv, pk->eff_conv3x3,
			pk->eff_conv1x1, pk->eff_conv1x1s);
	}
	fprintf(f, "memory       %s %s at %.1f GB/s (x %.2f attainable)\n",
		report_bytes(d->mem[0].capacity_bytes, a, sizeof(a)),
		d->mem[0].type, d->mem[0].bandwidth_Bps / 1e9, d->eff_memory);
	if (d->mem_capacity_bytes > d->mem[0].capacity_bytes)
		fprintf(f, "capacity     %s (the largest tier; the first "
			"caches it)\n", report_bytes(d->mem_capacity_bytes, a,
						     sizeof(a)));
	fprintf(f, "launch       %.2f us per kernel\n",
		d->launch_overhead_s * 1e6);
	if (d->calib_from[0])
		fprintf(f, "calibration  %s's fits when it has none: time per "
			"FLOP x %.3f (FP32), per byte x %.3f\n  source     %s\n",
			d->calib_from, d->calib_flop_scale[DLSIM_FP32],
			d->calib_byte_scale, d->calib_from_source);
	if (s->node)
		fprintf(f, "node         %s (%s)\n", s->node->name,
			hw_topology_name(s->node->intra_topology));
	if (s->intra)
		fprintf(f, "intra-node   %lld x %s, %.1f GB/s/dir each "
			"(%.1f line rate x %.2f), %.2f us\n",
			(long long)s->node->intra_links_per_device,
			s->intra->name, s->intra->bandwidth_Bps / 1e9,
			s->intra->line_rate_Bps / 1e9, s->intra->efficiency,
			s->intra->latency_s * 1e6);
	if (s->host && hw_system_host_sharing(s) > 1)
		fprintf(f, "host link    %s, %.1f GB/s/dir, shared by %lld "
			"devices\n", s->host->name,
			s->host->bandwidth_Bps / 1e9,
			(long long)hw_system_host_sharing(s));
	else if (s->host)
		fprintf(f, "host link    %s, %.1f GB/s/dir, one a device\n",
			s->host->name, s->host->bandwidth_Bps / 1e9);
	if (s->host_cpu)
		fprintf(f, "host CPU     %lld x %s, %.1f GB/s each (x %.2f "
			"attainable), %.0f GiB in all\n  source     %s\n",
			(long long)s->node->host_cpus, s->host_cpu->name,
			s->host_cpu->mem[0].bandwidth_Bps / 1e9,
			s->host_cpu->eff_memory,
			s->node->host_memory_bytes / 1073741824.0,
			s->node->host_cpu_source);
	if (s->node && s->node->overhead_w > 0.0)
		fprintf(f, "node power   %.0f W beyond the devices\n",
			s->node->overhead_w);
	if (s->nic)
		fprintf(f, "network      %lld x %s per node, %.1f GB/s/dir "
			"each, %.2f us, %s\n", (long long)s->node->nics_per_node,
			s->nic->name, s->nic->bandwidth_Bps / 1e9,
			s->nic->latency_s * 1e6,
			s->network ? hw_topology_name(s->network->topology) :
			"-");
}

/*
 * Every precision's peaks and efficiencies with their sources, and the
 * memory efficiency with its own: each figure a prediction takes from
 * the catalog, traceable to where it came from.
 */
static void peaks_json(FILE *f, const struct hw_device *d)
{
	int p, first = 1;

	fputs(", \"peaks\": {", f);
	for (p = 0; p < DLSIM_PRECISION_COUNT; p++) {
		const struct hw_peak *pk = &d->peak[p];

		if (pk->matrix_flops <= 0.0)
			continue;
		fprintf(f, "%s\"%s\": {\"matrix_flops\": %.0f, "
			"\"vector_flops\": %.0f, \"eff_gemm\": %g, "
			"\"eff_conv\": %g, \"eff_conv3x3\": %g, "
			"\"eff_conv1x1\": %g, \"eff_conv1x1s\": %g, "
			"\"source\": ", first ? "" : ", ",
			dlsim_precision_name((enum dlsim_precision)p),
			pk->matrix_flops, pk->vector_flops, pk->eff_gemm,
			pk->eff_conv, pk->eff_conv3x3, pk->eff_conv1x1,
			pk->eff_conv1x1s);
		report_json_string(f, pk->source);
		fputs(", \"eff_source\": ", f);
		report_json_string(f, pk->eff_source);
		fputc('}', f);
		first = 0;
	}
	fprintf(f, "}, \"eff_memory\": %g, \"eff_memory_source\": ",
		d->eff_memory);
	report_json_string(f, d->eff_memory_source);
	if (!d->calib_from[0])
		return;
	fputs(", \"calibration_from\": {\"device\": ", f);
	report_json_string(f, d->calib_from);
	fputs(", \"flop_scale\": {", f);
	for (p = 0, first = 1; p < DLSIM_PRECISION_COUNT; p++) {
		if (d->peak[p].matrix_flops <= 0.0)
			continue;
		fprintf(f, "%s\"%s\": %g", first ? "" : ", ",
			dlsim_precision_name((enum dlsim_precision)p),
			d->calib_flop_scale[p]);
		first = 0;
	}
	fprintf(f, "}, \"byte_scale\": %g, \"source\": ",
		d->calib_byte_scale);
	report_json_string(f, d->calib_from_source);
	fputc('}', f);
}

static void system_json(FILE *f, const struct hw_system *s)
{
	const struct hw_device *d = s->device;
	int p, first = 1;

	fputs("{\"spec\": ", f);
	report_json_string(f, s->spec);
	fputs(", \"device\": ", f);
	report_json_string(f, d->name);
	fprintf(f, ", \"devices\": %lld, \"nodes\": %lld, "
		"\"devices_per_node\": %lld, \"mem_capacity_bytes\": %.0f, "
		"\"mem_bandwidth_Bps\": %.0f, \"peak_flops\": {",
		(long long)s->n_devices, (long long)s->n_nodes,
		(long long)s->devices_per_node, d->mem_capacity_bytes,
		d->mem[0].bandwidth_Bps);
	for (p = 0; p < DLSIM_PRECISION_COUNT; p++) {
		if (d->peak[p].matrix_flops <= 0.0)
			continue;
		fprintf(f, "%s\"%s\": %.0f", first ? "" : ", ",
			dlsim_precision_name((enum dlsim_precision)p),
			d->peak[p].matrix_flops);
		first = 0;
	}
	fputc('}', f);
	peaks_json(f, d);
	fputs(", \"node\": ", f);
	report_json_string(f, s->node ? s->node->name : "");
	fputs(", \"intra_link\": ", f);
	report_json_string(f, s->intra ? s->intra->name : "");
	fputs(", \"nic_link\": ", f);
	report_json_string(f, s->nic ? s->nic->name : "");
	fputs(", \"host_link\": ", f);
	report_json_string(f, s->host ? s->host->name : "");
	fprintf(f, ", \"devices_per_host_link\": %lld, \"host_cpu\": ",
		(long long)(s->host ? hw_system_host_sharing(s) : 0));
	report_json_string(f, s->host_cpu ? s->host_cpu->name : "");
	fprintf(f, ", \"host_cpus\": %lld, \"host_memory_bytes\": %.0f",
		(long long)(s->host_cpu ? s->node->host_cpus : 0),
		s->host_cpu ? s->node->host_memory_bytes : 0.0);
	fputs("}\n", f);
}

int report_system(FILE *f, enum report_format fmt, const struct hw_system *s,
		  struct dlsim_err *err)
{
	if (fmt == REPORT_JSON)
		system_json(f, s);
	else if (fmt == REPORT_CSV)
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "hw show has no csv format (use table "
				     "or json)");
	else
		system_table(f, s);
	return report_check(f, err);
}
