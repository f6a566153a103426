/*
 * report_binned.c -- a step over sequences of many lengths
 * (sim_binned_predict): what the histogram holds, the mixed step, and
 * each bin's step, as a table, CSV (one row a bin) or JSON.
 */
#include "reports/report.h"

#include <string.h>

#include "core/banned.h"

static void table(FILE *f, const char *model, const struct hw_system *s,
		  const char *hist, const struct sim_binned *r)
{
	char a[32], b[32], c[32];
	int i;

	fprintf(f, "model           %s (sequences of many lengths)\n", model);
	fprintf(f, "hardware        %s: %lld x %s\n", s->spec,
		(long long)s->n_devices, s->device->model);
	fprintf(f, "sequences       %.0f in %s, %.1f tokens on average\n",
		r->sequences, hist, r->mean_length);
	fprintf(f, "bins            %d of %lld tokens, each batch padded to "
		"its bin's longest: %.1f tokens a sequence computed, %.1f%% "
		"padding (%.1f%% padded to %lld)\n", r->n,
		(long long)r->width, r->mean_padded, 100.0 * r->padding,
		100.0 * (1.0 - r->mean_length / (double)r->padded[r->n - 1]),
		(long long)r->padded[r->n - 1]);
	if (r->has_strategy) {
		const struct sim_strategy *st = &r->strategy;

		fputs("strategy        ", f);
		report_strategy_line(f, st, st->global_batch /
				     (st->dp * st->micro_batch));
		fputc('\n', f);
	} else if (r->update_on_host) {
		fputs("update          on the host CPUs: each step's gradients "
		      "to them and the weights back\n", f);
	}
	report_fusion_lines(f, r->fused_edges, r->conv_bn_pairs);
	fprintf(f, "step time       %s (the bins' steps in their shares)\n",
		report_seconds(r->step_time_s, a, sizeof(a)));
	fprintf(f, "throughput      %s samples/s, %s tokens/s (unpadded), "
		"batch %lld\n", report_rate(r->samples_per_s, a, sizeof(a)),
		report_rate(r->tokens_per_s, b, sizeof(b)),
		(long long)r->global_batch);
	fprintf(f, "memory/device   %s of %s (%s), the longest bin's\n",
		report_bytes(r->memory_bytes, a, sizeof(a)),
		report_bytes(r->capacity_bytes, b, sizeof(b)),
		r->fits ? "fits" : "DOES NOT FIT");
	fprintf(f, "\n%-6s %8s %8s %12s\n", "bin", "padded", "share",
		"step");
	for (i = 0; i < r->n; i++)
		fprintf(f, "%-6d %8lld %7.2f%% %12s\n", i + 1,
			(long long)r->padded[i], 100.0 * r->share[i],
			report_seconds(r->bin_step_time_s[i], c, sizeof(c)));
}

static void csv(FILE *f, const struct sim_binned *r)
{
	int i;

	fprintf(f, "bin,padded_tokens,share,step_time_s\n");
	for (i = 0; i < r->n; i++)
		fprintf(f, "%d,%lld,%.17g,%.17g\n", i + 1,
			(long long)r->padded[i], r->share[i],
			r->bin_step_time_s[i]);
}

static void json(FILE *f, const char *model, const struct hw_system *s,
		 const char *hist, const struct sim_binned *r)
{
	const struct {
		const char *key;
		double value;
	} num[] = {
		{ "sequences", r->sequences },
		{ "bin_tokens", (double)r->width },
		{ "mean_length", r->mean_length },
		{ "mean_padded", r->mean_padded },
		{ "padding", r->padding },
		{ "global_batch", (double)r->global_batch },
		{ "step_time_s", r->step_time_s },
		{ "samples_per_s", r->samples_per_s },
		{ "tokens_per_s", r->tokens_per_s },
		{ "memory_bytes", r->memory_bytes },
	};
	size_t k;
	int i;

	fputs("{\"model\": ", f);
	report_json_string(f, model);
	fputs(", \"hardware\": ", f);
	report_json_string(f, s->spec);
	fputs(", \"histogram\": ", f);
	report_json_string(f, hist);
	for (k = 0; k < sizeof(num) / sizeof(num[0]); k++) {
		fprintf(f, ", \"%s\": ", num[k].key);
		report_json_number(f, num[k].value);
	}
	if (r->has_strategy) {
		fputs(", \"strategy\": ", f);
		report_json_strategy(f, &r->strategy);
	}
	fprintf(f, ", \"update_on_host\": %s, \"fused_edges\": %d, "
		"\"conv_bn_pairs\": %d, \"fits\": %s, \"bins\": [",
		r->update_on_host ? "true" : "false", r->fused_edges,
		r->conv_bn_pairs, r->fits ? "true" : "false");
	for (i = 0; i < r->n; i++) {
		fprintf(f, "%s{\"padded_tokens\": %lld, \"share\": ",
			i ? ", " : "", (long long)r->padded[i]);
		report_json_number(f, r->share[i]);
		fputs(", \"step_time_s\": ", f);
		report_json_number(f, r->bin_step_time_s[i]);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

/* ---------------------------------------------------------------- */
/* The histogram in words, for plan and scale                        */
/* ---------------------------------------------------------------- */

void report_json_seq_lengths(FILE *f, int bins, int64_t width,
			     int64_t longest, double mean_length,
			     double mean_padded)
{
	fprintf(f, "\"seq_lengths\": {\"bin_count\": %d, \"bin_tokens\": %lld, "
		"\"longest\": %lld, \"mean_length\": %.17g, "
		"\"mean_padded\": %.17g}, ", bins, (long long)width,
		(long long)longest, mean_length, mean_padded);
}

void report_seq_lengths(FILE *f, int bins, int64_t width, int64_t longest,
			double mean_length, double mean_padded)
{
	fprintf(f, "%d length bin%s of %lld tokens, the longest %lld, %.1f "
		"tokens a sample (%.1f padded)", bins, bins == 1 ? "" : "s",
		(long long)width, (long long)longest, mean_length,
		mean_padded);
}

int report_binned(FILE *f, enum report_format fmt, const char *model,
		  const struct hw_system *s, const char *histogram,
		  const struct sim_binned *r, struct dlsim_err *err)
{
	if (fmt == REPORT_CSV)
		csv(f, r);
	else if (fmt == REPORT_JSON)
		json(f, model, s, histogram, r);
	else
		table(f, model, s, histogram, r);
	return report_check(f, err);
}
