/*
 * report_plan.c -- a hybrid-parallel prediction (dlsim predict with a
 * strategy) and a plan's ranking (dlsim plan) as a table, CSV or JSON.
 *
 * CONVENTIONS
 * Times in the table are human units, in CSV and JSON seconds; memory in
 * GiB in the table, bytes elsewhere.  TFLOP/s per device counts the
 * FLOPs executed, recomputation included, as Megatron-LM reports them
 * (Narayanan et al. 2021, Sec. 5.1).  The JSON keys are a contract: keys
 * may be added, never renamed.
 *
 * WHY A STRATEGY LOSES
 * Each row after the best says which part of its step is furthest above
 * the best's (compute, bubble, pipeline sends, data-parallel reduction,
 * optimizer), so the ranking explains itself: "bubble +41 ms".
 */
#include "reports/report.h"

#include <math.h>
#include <string.h>

#include "core/banned.h"

#define GIB 1073741824.0

/* ---------------------------------------------------------------- */
/* Shared pieces                                                     */
/* ---------------------------------------------------------------- */

void report_strategy_line(FILE *f, const struct sim_strategy *st,
			  int64_t micro_batches)
{
	fprintf(f, "tp %lld x pp %lld x dp %lld, micro-batch %lld, %lld "
		"global (%lld micro-batches), %s", (long long)st->tp,
		(long long)st->pp, (long long)st->dp,
		(long long)st->micro_batch, (long long)st->global_batch,
		(long long)micro_batches, sim_schedule_name(st->schedule));
	if (st->schedule == SIM_SCHED_INTERLEAVED)
		fprintf(f, " (%lld chunks)", (long long)st->chunks);
	fprintf(f, ", recompute %s, ZeRO %d%s%s",
		sim_recompute_name(st->recompute), st->zero,
		st->update_on_host ? " offloaded to the host" : "",
		st->sequence_parallel ? ", sequence parallel" : "");
}

/* The part of r's step furthest above best's, into buf. */
static const char *why(const struct sim_par_result *r,
		       const struct sim_par_result *best, char *buf,
		       size_t n)
{
	const char *name[] = { "compute", "bubble", "pipeline sends",
			       "data-parallel reduction", "optimizer" };
	double d[5];
	char t[32];
	int i, k = 0;

	if (r == best)
		return "best";
	d[0] = r->compute_s - best->compute_s;
	d[1] = r->bubble_s - best->bubble_s;
	d[2] = r->pp_comm_s - best->pp_comm_s;
	d[3] = r->dp_comm_s - best->dp_comm_s;
	d[4] = r->optimizer_s - best->optimizer_s;
	for (i = 1; i < 5; i++)
		if (d[i] > d[k])
			k = i;
	if (!(d[k] > 0.0))
		return "ties the best";
	snprintf(buf, n, "%s +%s", name[k], report_seconds(d[k], t,
							  sizeof(t)));
	return buf;
}

static void json_num(FILE *f, const char *key, double v, int first)
{
	fprintf(f, "%s\"%s\": ", first ? "" : ", ", key);
	report_json_number(f, v);
}

void report_json_strategy(FILE *f, const struct sim_strategy *st)
{
	fprintf(f, "{\"tp\": %lld, \"pp\": %lld, \"dp\": %lld, "
		"\"micro_batch\": %lld, \"global_batch\": %lld, \"zero\": %d, "
		"\"recompute\": \"%s\", \"schedule\": \"%s\", \"chunks\": %lld, "
		"\"sequence_parallel\": %s, \"update_on_host\": %s}",
		(long long)st->tp, (long long)st->pp, (long long)st->dp,
		(long long)st->micro_batch, (long long)st->global_batch,
		st->zero, sim_recompute_name(st->recompute),
		sim_schedule_name(st->schedule), (long long)st->chunks,
		st->sequence_parallel ? "true" : "false",
		st->update_on_host ? "true" : "false");
}

static void json_result(FILE *f, const struct sim_par_result *r)
{
	fputs("{\"strategy\": ", f);
	report_json_strategy(f, &r->strategy);
	fprintf(f, ", \"precision\": \"%s\", \"autocast\": %s, "
		"\"devices\": %lld, \"micro_batches\": %lld, ",
		dlsim_precision_name(r->precision),
		r->strategy.autocast ? "true" : "false",
		(long long)r->devices, (long long)r->micro_batches);
	json_num(f, "step_time_s", r->step_time_s, 1);
	json_num(f, "samples_per_s", r->samples_per_s, 0);
	json_num(f, "tokens_per_s", r->tokens_per_s, 0);
	json_num(f, "tflops_per_device", r->tflops_per_device, 0);
	fputs(", \"breakdown\": {", f);
	json_num(f, "stage_fwd_s", r->stage_fwd_s, 1);
	json_num(f, "stage_bwd_s", r->stage_bwd_s, 0);
	json_num(f, "compute_s", r->compute_s, 0);
	json_num(f, "bubble_s", r->bubble_s, 0);
	json_num(f, "tp_comm_s", r->tp_comm_s, 0);
	json_num(f, "pp_comm_s", r->pp_comm_s, 0);
	json_num(f, "dp_comm_s", r->dp_comm_s, 0);
	json_num(f, "optimizer_s", r->optimizer_s, 0);
	json_num(f, "host_trip_s", r->host_trip_s, 0);
	fputs("}, \"memory\": {", f);
	json_num(f, "weights_bytes", r->memory.weights_bytes, 1);
	json_num(f, "gradients_bytes", r->memory.gradients_bytes, 0);
	json_num(f, "optimizer_bytes", r->memory.optimizer_bytes, 0);
	json_num(f, "activations_bytes", r->memory.activations_bytes, 0);
	json_num(f, "total_bytes", r->memory.total_bytes, 0);
	json_num(f, "capacity_bytes", r->memory.capacity_bytes, 0);
	json_num(f, "host_bytes", r->memory.host_bytes, 0);
	json_num(f, "host_capacity_bytes", r->memory.host_capacity_bytes, 0);
	fprintf(f, ", \"worst_stage\": %lld, \"fits\": %s}, \"placement\": "
		"{\"tp_in_node\": %s, \"dp_in_node\": %s, \"pp_in_node\": %s}}",
		(long long)r->worst_stage, r->fits ? "true" : "false",
		r->tp_in_node ? "true" : "false",
		r->dp_in_node ? "true" : "false",
		r->pp_in_node ? "true" : "false");
}

/* ---------------------------------------------------------------- */
/* CSV rows: a plan's, and one strategy's                            */
/* ---------------------------------------------------------------- */

static const char csv_header[] = "rank,hardware,devices,tp,pp,dp,"
	"micro_batch,global_batch,sequence_parallel,recompute,zero,schedule,"
	"chunks,step_time_s,samples_per_s,tokens_per_s,tflops_per_device,"
	"memory_bytes,capacity_bytes,fits,compute_s,bubble_s,tp_comm_s,"
	"pp_comm_s,dp_comm_s,optimizer_s,update_on_host,host_trip_s,"
	"host_bytes,why\n";

static void csv_row(FILE *f, int rank, const struct hw_system *s,
		    const struct sim_par_result *r, const char *w)
{
	const struct sim_strategy *st = &r->strategy;

	fprintf(f, "%d,%s,%lld,%lld,%lld,%lld,%lld,%lld,%d,%s,%d,%s,%lld,"
		"%.9g,%.9g,%.9g,%.6g,%.9g,%.9g,%d,%.9g,%.9g,%.9g,%.9g,%.9g,"
		"%.9g,%d,%.9g,%.9g,%s\n", rank, s->spec, (long long)r->devices,
		(long long)st->tp, (long long)st->pp, (long long)st->dp,
		(long long)st->micro_batch, (long long)st->global_batch,
		st->sequence_parallel, sim_recompute_name(st->recompute),
		st->zero, sim_schedule_name(st->schedule),
		(long long)st->chunks, r->step_time_s, r->samples_per_s,
		r->tokens_per_s, r->tflops_per_device, r->memory.total_bytes,
		r->memory.capacity_bytes, r->fits, r->compute_s, r->bubble_s,
		r->tp_comm_s, r->pp_comm_s, r->dp_comm_s, r->optimizer_s,
		st->update_on_host, r->host_trip_s, r->memory.host_bytes, w);
}

/* ---------------------------------------------------------------- */
/* One strategy                                                      */
/* ---------------------------------------------------------------- */

static void par_table(FILE *f, const struct model *m,
		      const struct hw_system *s,
		      const struct sim_par_result *r)
{
	const struct sim_memory *mm = &r->memory;
	char a[32];

	fprintf(f, "model           %s (%.4g B parameters)\n", m->name,
		(double)m->params / 1e9);
	fprintf(f, "hardware        %s: %lld x %s\n", s->spec,
		(long long)s->n_devices, s->device->model);
	fputs("strategy        ", f);
	report_strategy_line(f, &r->strategy, r->micro_batches);
	fprintf(f, "\nplacement       tp %s a node; dp %s; pp %s\n",
		r->tp_in_node ? "inside" : "across",
		r->dp_in_node ? "inside a node" : "across nodes",
		r->pp_in_node ? "inside a node" : "across nodes");
	fprintf(f, "precision       %s%s\n", dlsim_precision_name(r->precision),
		r->strategy.autocast ? " (autocast)" : "");
	fprintf(f, "step time       %s\n", report_seconds(r->step_time_s, a,
							sizeof(a)));
	fprintf(f, "throughput      %s samples/s, ", report_rate(
		r->samples_per_s, a, sizeof(a)));
	fprintf(f, "%.0f tokens/s, %.1f TFLOP/s per device\n",
		r->tokens_per_s, r->tflops_per_device);
	fputs("breakdown\n", f);
	fprintf(f, "  compute       %s (micro-batches x slowest stage)\n",
		report_seconds(r->compute_s, a, sizeof(a)));
	fprintf(f, "    forward     %s per micro-batch\n",
		report_seconds(r->stage_fwd_s, a, sizeof(a)));
	fprintf(f, "    backward    %s per micro-batch\n",
		report_seconds(r->stage_bwd_s, a, sizeof(a)));
	fprintf(f, "    tp comm     %s (in compute)\n",
		report_seconds(r->tp_comm_s, a, sizeof(a)));
	fprintf(f, "  bubble        %s\n", report_seconds(r->bubble_s, a,
							sizeof(a)));
	fprintf(f, "  pp sends      %s\n", report_seconds(r->pp_comm_s, a,
							sizeof(a)));
	fprintf(f, "  dp reduction  %s\n", report_seconds(r->dp_comm_s, a,
							sizeof(a)));
	fprintf(f, "  optimizer     %s", report_seconds(r->optimizer_s, a,
							sizeof(a)));
	if (r->strategy.update_on_host)
		fprintf(f, " (on the host, ZeRO-Offload: %s of it the "
			"shard's trip there and back)", report_seconds(
				r->host_trip_s, a, sizeof(a)));
	fputc('\n', f);
	fprintf(f, "memory/device   %.2f GiB of %.2f GiB (stage %lld, the "
		"fullest)", mm->total_bytes / GIB, mm->capacity_bytes / GIB,
		(long long)r->worst_stage);
	if (r->fits)
		fputs(" (fits)\n", f);
	else
		fprintf(f, " (short by %.2f GiB)\n",
			(mm->total_bytes - mm->capacity_bytes) / GIB);
	fprintf(f, "  weights       %.2f GiB\n  gradients     %.2f GiB\n"
		"  optimizer     %.2f GiB\n  activations   %.2f GiB\n",
		mm->weights_bytes / GIB, mm->gradients_bytes / GIB,
		mm->optimizer_bytes / GIB, mm->activations_bytes / GIB);
	if (r->strategy.update_on_host)
		fprintf(f, "host memory     %.2f GiB of %.2f GiB a node (%s; "
			"its devices' shards of the master weights, gradients "
			"and optimizer state)\n", mm->host_bytes / GIB,
			mm->host_capacity_bytes / GIB,
			mm->host_bytes <= mm->host_capacity_bytes ? "fits" :
			"DOES NOT FIT");
}

int report_parallel(FILE *f, enum report_format fmt, const struct model *m,
		    const struct hw_system *s, const struct sim_par_result *r,
		    struct dlsim_err *err)
{
	if (fmt == REPORT_JSON) {
		fprintf(f, "{\"dlsim_version\": \"%s\", \"model\": ",
			dlsim_version());
		report_json_string(f, m->name);
		fputs(", \"hardware\": ", f);
		report_json_string(f, s->spec);
		fputs(", \"result\": ", f);
		json_result(f, r);
		fputs("}\n", f);
	} else if (fmt == REPORT_CSV) {
		fputs(csv_header, f);
		csv_row(f, 1, s, r, "best");
	} else {
		par_table(f, m, s, r);
	}
	return report_check(f, err);
}

/* ---------------------------------------------------------------- */
/* A plan                                                            */
/* ---------------------------------------------------------------- */

static void plan_table(FILE *f, const struct model *m,
		       const struct hw_system *s,
		       const struct sim_plan_result *p, enum sim_objective o)
{
	char a[32], w[64];
	int i;

	fprintf(f, "plan            %s on %s, %lld sequences per step, "
		"ranked by %s\n", m->name, s->spec,
		(long long)p->global_batch,
		sim_objective_name(o));
	if (p->bins) {
		fputs("sequences       ", f);
		report_seq_lengths(f, p->bins, p->bin_width, p->longest,
				   p->mean_length, p->mean_padded);
		fputs(": the model at each bin's length, each strategy "
		      "ranked by the shares' mean step\n", f);
	}
	if (p->update_on_host)
		fputs("update          on the host CPUs (ZeRO-Offload): each "
		      "device's shard of the gradients out, the host's "
		      "optimizer, the weights back\n", f);
	fprintf(f, "searched        %lld strategies: %lld fit, %lld do not "
		"fit in memory, %lld invalid\n", (long long)p->n_evaluated,
		(long long)p->n_feasible, (long long)p->n_oom,
		(long long)p->n_invalid);
	if (p->n_evaluated == 0) {
		fprintf(f, "nothing fits: no strategy splits the model and "
			"%lld sequences over %lld devices (tp x pp x dp the "
			"devices, tp dividing the heads, pp at most the "
			"blocks, dp x micro-batch dividing the batch)\n",
			(long long)p->global_batch, (long long)s->n_devices);
		return;
	}
	if (p->n_top == 0) {
		fputs("nothing fits", f);
		if (p->have_least_oom)
			fprintf(f, ": the closest needs %.2f GiB of %.2f GiB "
				"per device", p->least_oom.memory.total_bytes /
				GIB, p->least_oom.memory.capacity_bytes / GIB);
		fputc('\n', f);
		return;
	}
	fprintf(f, "\n%4s %3s %3s %5s %3s %2s %-9s %4s %-14s %11s %10s %8s "
		"%9s  %s\n", "rank", "tp", "pp", "dp", "mb", "sp", "recompute",
		"zero", "schedule", "step", "samples/s", "TFLOP/s",
		"mem GiB", "why not first");
	for (i = 0; i < p->n_top; i++) {
		const struct sim_par_result *r = &p->top[i];
		const struct sim_strategy *st = &r->strategy;
		char sched[24];

		if (st->schedule == SIM_SCHED_INTERLEAVED)
			snprintf(sched, sizeof(sched), "interleaved/%lld",
				 (long long)st->chunks);
		else
			snprintf(sched, sizeof(sched), "%s",
				 sim_schedule_name(st->schedule));
		fprintf(f, "%4d %3lld %3lld %5lld %3lld %2s %-9s %4d %-14s "
			"%11s %10.1f %8.1f %9.2f  %s\n", i + 1,
			(long long)st->tp, (long long)st->pp,
			(long long)st->dp, (long long)st->micro_batch,
			st->sequence_parallel ? "y" : "n",
			sim_recompute_name(st->recompute), st->zero, sched,
			report_seconds(r->step_time_s, a, sizeof(a)),
			r->samples_per_s, r->tflops_per_device,
			r->memory.total_bytes / GIB,
			why(r, &p->top[0], w, sizeof(w)));
	}
}

int report_plan(FILE *f, enum report_format fmt, const struct model *m,
		const struct hw_system *s, const struct sim_plan_result *p,
		enum sim_objective o, int header, struct dlsim_err *err)
{
	char w[64];
	int i;

	if (fmt == REPORT_CSV) {
		if (header)
			fputs(csv_header, f);
		for (i = 0; i < p->n_top; i++)
			csv_row(f, i + 1, s, &p->top[i],
				why(&p->top[i], &p->top[0], w, sizeof(w)));
	} else if (fmt == REPORT_JSON) {
		fprintf(f, "{\"dlsim_version\": \"%s\", \"model\": ",
			dlsim_version());
		report_json_string(f, m->name);
		fputs(", \"hardware\": ", f);
		report_json_string(f, s->spec);
		fprintf(f, ", \"objective\": \"%s\", \"evaluated\": %lld, "
			"\"feasible\": %lld, \"out_of_memory\": %lld, "
			"\"invalid\": %lld, ", sim_objective_name(o),
			(long long)p->n_evaluated, (long long)p->n_feasible,
			(long long)p->n_oom, (long long)p->n_invalid);
		if (p->bins)
			report_json_seq_lengths(f, p->bins, p->bin_width,
						p->longest, p->mean_length,
						p->mean_padded);
		fputs("\"top\": [", f);
		for (i = 0; i < p->n_top; i++) {
			fputs(i ? ",\n  " : "\n  ", f);
			json_result(f, &p->top[i]);
		}
		fputs("]}\n", f);
	} else {
		plan_table(f, m, s, p, o);
	}
	return report_check(f, err);
}
