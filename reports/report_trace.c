/*
 * report_trace.c -- the simulated step as a Chrome trace-event file.
 *
 * Format: the Trace Event Format (Google, "Trace Event Format" document,
 * the JSON Object form): {"traceEvents": [...], "displayTimeUnit": "ms"}.
 * Each span is a complete event ("ph": "X") with "ts" and "dur" in
 * microseconds; "pid" 1 is the device, "tid" 1 the compute stream and 2
 * the communication stream, each named by a metadata event ("ph": "M",
 * "thread_name").  Perfetto and chrome://tracing open it.  The spans are
 * the ones the schedule produced (sim_result.events), so the picture and
 * the step time cannot disagree.
 */
#include "reports/report.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "core/banned.h"

static void event_name(FILE *f, const struct model *m,
		       const struct sim_result *r, const struct sim_event *e)
{
	char name[160];

	if (e->stream == SIM_STREAM_COMM && r->update_on_host)
		snprintf(name, sizeof(name), "%s", e->bucket ?
			 "weights from the host" : "gradients to the host");
	else if (e->stream == SIM_STREAM_COMM)
		snprintf(name, sizeof(name), "%s bucket %d",
			 sim_collective_name(r->grad_collective), e->bucket);
	else if (e->layer >= 0)
		snprintf(name, sizeof(name), "%s %s", m->layers[e->layer].name,
			 model_pass_name((enum model_pass)e->pass));
	else if (e->pass == MODEL_PASS_UPDATE)
		snprintf(name, sizeof(name), "optimizer update%s",
			 r->update_on_host ? " on the host" : "");
	else if (e->bucket >= 0)
		snprintf(name, sizeof(name), "%s compress bucket %d",
			 sim_compression_name(r->compression), e->bucket);
	else
		snprintf(name, sizeof(name), "%s decompress gradients",
			 sim_compression_name(r->compression));
	report_json_string(f, name);
}

/* The event's category: the layer kind, or what the span is. */
static const char *event_cat(const struct model *m, const struct sim_event *e)
{
	if (e->stream == SIM_STREAM_COMM)
		return "comm";
	if (e->stream == SIM_STREAM_HOST)
		return "optimizer";
	if (e->layer >= 0)
		return model_layer_kind_name(m->layers[e->layer].kind);
	return e->pass == MODEL_PASS_UPDATE ? "optimizer" : "compression";
}

static void write_events(FILE *f, const struct model *m,
			 const struct hw_system *s, const struct sim_result *r)
{
	int i;

	fputs("{\"traceEvents\": [\n", f);
	fputs("  {\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, "
	      "\"args\": {\"name\": ", f);
	report_json_string(f, s->spec);
	fputs("}},\n  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, "
	      "\"tid\": 1, \"args\": {\"name\": \"compute\"}},\n"
	      "  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, "
	      "\"tid\": 2, \"args\": {\"name\": \"communication\"}}", f);
	if (r->update_on_host)
		fputs(",\n  {\"name\": \"thread_name\", \"ph\": \"M\", "
		      "\"pid\": 1, \"tid\": 3, \"args\": {\"name\": "
		      "\"host\"}}", f);
	for (i = 0; i < r->n_events; i++) {
		const struct sim_event *e = &r->events[i];

		fputs(",\n  {\"name\": ", f);
		event_name(f, m, r, e);
		fprintf(f, ", \"cat\": \"%s\", \"ph\": \"X\", \"pid\": 1, "
			"\"tid\": %d, \"ts\": %.6f, \"dur\": %.6f, \"args\": "
			"{\"flops\": %.9g, \"bytes\": %.9g, \"bound\": \"%s\"",
			event_cat(m, e),
			e->stream == SIM_STREAM_HOST ? 3 :
			e->stream == SIM_STREAM_COMM ? 2 : 1, e->start_s * 1e6,
			e->dur_s * 1e6, e->flops, e->bytes,
			sim_bound_name(e->bound));
		if (e->layer >= 0)
			fprintf(f, ", \"layer\": %d", e->layer);
		if (e->stream == SIM_STREAM_COMM && r->update_on_host)
			fputs(", \"algorithm\": \"host\"", f);
		else if (e->stream == SIM_STREAM_COMM)
			fprintf(f, ", \"algorithm\": \"%s%s\"",
				r->allreduce_hierarchical ? "hierarchical " :
				"", sim_algo_name(r->allreduce_used));
		fputs("}}", f);
	}
	fprintf(f, "\n], \"displayTimeUnit\": \"ms\", \"otherData\": "
		"{\"dlsim_version\": \"%s\", \"model\": ", dlsim_version());
	report_json_string(f, m->name);
	fprintf(f, ", \"step_time_s\": %.9g}}\n", r->step_time_s);
}

int report_trace(const char *path, const struct model *m,
		 const struct hw_system *s, const struct sim_result *r,
		 struct dlsim_err *err)
{
	FILE *f;

	if (!path || !*path)
		return dlsim_err_set(err, DLSIM_EINVAL, "--trace needs a file "
				     "name");
	f = fopen(path, "w");
	if (!f)
		return dlsim_err_set(err, DLSIM_EIO, "%s: %s", path,
				     strerror(errno));
	write_events(f, m, s, r);
	if (ferror(f) | fclose(f)) {
		unlink(path);   /* no half-written trace left behind */
		return dlsim_err_set(err, DLSIM_EIO, "%s: write error", path);
	}
	return DLSIM_OK;
}
