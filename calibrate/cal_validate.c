/*
 * cal_validate.c -- `dlsim validate`: every row of the measurement sets
 * dlsim ships (data/validation/, compiled in as cal_validation_files),
 * predicted and compared.
 *
 * HOW IT WORKS
 * A set is a file and a row function.  The function reads one row's
 * columns (by header name, so a reordered file still reads) into the
 * inputs of one prediction -- model, system, batch, precision, strategy
 * -- makes it with the library's own calls (sim_predict,
 * sim_parallel_predict), and returns the measured and predicted value of
 * the same quantity (throughput, step time, or TFLOP/s per device), or
 * the reason the row is skipped (a device the catalog lacks, a column
 * left empty).  Error is predicted / measured - 1.  A set's figures are
 * the median and P90 (nearest rank) of |error|, the median of the signed
 * error (bias), and its five worst rows.  Rows that repeat an earlier
 * row's inputs and value (the files keep every transcription) are read
 * once.
 *
 * THE RULE THAT KEEPS THE RECORD HONEST (issue 6): nothing here is
 * fitted to these rows; the predictions use the catalog and, when the
 * caller passes a database, its fits (microbenchmarks only).
 *
 * LIMITATIONS
 * - The sets are those whose inputs map onto dlsim's without guessing:
 *   vTrain's GPT runs, tf_cnn_benchmarks (P100, K80), NVIDIA's
 *   DeepLearningExamples ResNet-50 (TensorFlow rows that state their
 *   batch), and Megatron-LM's Table 1 (micro-batch 1, 1F1B, full
 *   recomputation assumed: the paper gives neither).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/cal.h"
#include "core/core.h"
#include "hw/hw.h"
#include "core/banned.h"

/* build/gen/validation_builtin.c (tools/embed.sh). */
extern const struct hw_builtin_file cal_validation_files[];

/* ---------------------------------------------------------------- */
/* Rows                                                              */
/* ---------------------------------------------------------------- */

struct vctx {
	struct hw_catalog *cat;
	struct db *db;
	char **f;               /* the row's fields */
	int n;
	const char *const *head;
	int n_head;
};

/* The field under header name key, "" when absent. */
static const char *col(const struct vctx *v, const char *key)
{
	int i;

	for (i = 0; i < v->n_head && i < v->n; i++)
		if (strcmp(v->head[i], key) == 0)
			return v->f[i];
	return "";
}

static int64_t col_int(const struct vctx *v, const char *key)
{
	const char *s = col(v, key);
	char *end;
	long long x = strtoll(s, &end, 10);

	return *s && !*end && x > 0 ? (int64_t)x : 0;
}

static double col_num(const struct vctx *v, const char *key)
{
	const char *s = col(v, key);
	char *end;
	double x = strtod(s, &end);

	return *s && !*end && isfinite(x) && x > 0.0 ? x : NAN;
}

/* One row's outcome: 0 and the two values, or 1 and why it was skipped. */
struct vrow {
	char what[160];
	double measured, predicted;
	char why[128];
};

static int skip(struct vrow *r, const char *why)
{
	snprintf(r->why, sizeof(r->why), "%s", why);
	return 1;
}

/* The system spec with its calibration, if the database has one. */
static int system_for(const struct vctx *v, const char *spec,
		      struct hw_system *s, struct hw_calib *cal)
{
	if (hw_system_resolve(v->cat, spec, s, NULL))
		return -1;
	if (v->db && hw_calib_load_system(v->db, s, cal, NULL) == DLSIM_OK)
		s->calib = cal;
	return 0;
}

/* A data-parallel CNN row: throughput in samples/s. */
static int cnn_row(const struct vctx *v, const char *model, const char *dev,
		   int64_t n, int64_t batch, enum dlsim_precision p,
		   double measured, struct vrow *r)
{
	struct model *m = NULL;
	struct hw_system s;
	struct hw_calib cal;
	struct sim_options o;
	struct sim_result res;
	char spec[64];
	int rc;

	snprintf(spec, sizeof(spec), "%sx%lld", dev, (long long)n);
	snprintf(r->what, sizeof(r->what), "%s %s batch %lld %s", model, spec,
		 (long long)batch, dlsim_precision_name(p));
	if (system_for(v, spec, &s, &cal))
		return skip(r, "no such system in the catalog");
	if (model_zoo_build(model, &m, NULL))
		return skip(r, "no such model in the zoo");
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = p;
	o.batch_per_device = batch;
	rc = sim_predict(m, &s, &o, &res, NULL);
	model_free(m);
	if (rc)
		return skip(r, "the prediction failed (precision or batch)");
	r->measured = measured;
	r->predicted = res.throughput;
	sim_result_release(&res);
	return 0;
}

static const struct {
	const char *file_name, *zoo;
} tf_models[] = {
	{ "InceptionV3", "inception_v3" }, { "ResNet-50", "resnet50" },
	{ "ResNet-152", "resnet152" }, { "AlexNet", "alexnet" },
	{ "VGG16", "vgg16" },
};

static int tf_cnn_row(const struct vctx *v, const char *gpu, const char *dev,
		      struct vrow *r)
{
	const char *name = col(v, "model");
	size_t i;

	if (!strstr(col(v, "gpu"), gpu))
		return -1;      /* the other set's row */
	for (i = 0; i < sizeof(tf_models) / sizeof(tf_models[0]); i++)
		if (strcmp(tf_models[i].file_name, name) == 0)
			return cnn_row(v, tf_models[i].zoo, dev,
				       col_int(v, "num_gpus"),
				       col_int(v, "batch_per_gpu"), DLSIM_FP32,
				       col_num(v, "throughput"), r);
	snprintf(r->what, sizeof(r->what), "%s", name);
	return skip(r, "model not in the zoo");
}

static int row_tf_p100(const struct vctx *v, struct vrow *r)
{
	return tf_cnn_row(v, "P100", "p100", r);
}

static int row_tf_k80(const struct vctx *v, struct vrow *r)
{
	return tf_cnn_row(v, "K80", "k80", r);
}

static int row_dle(const struct vctx *v, struct vrow *r)
{
	const char *gpu = col(v, "gpu_type");
	const char *dev = strcmp(gpu, "V100-16GB") == 0 ? "v100" :
			  strcmp(gpu, "V100-SXM3-32GB") == 0 ?
			  "v100-sxm3-32gb" : NULL;

	if (!dev) {
		snprintf(r->what, sizeof(r->what), "resnet50 on %s", gpu);
		return skip(r, "GPU not mapped to the catalog");
	}
	return cnn_row(v, "resnet50", dev, col_int(v, "gpus"),
		       col_int(v, "batch_per_gpu"),
		       strcmp(col(v, "precision"), "mixed") ? DLSIM_FP32 :
		       DLSIM_FP16, col_num(v, "value"), r);
}

/* A GPT run under a hybrid strategy; *value: step time or TFLOP/s. */
static int gpt_row(const struct vctx *v, const char *model, int64_t n,
		   const struct sim_strategy *st, int tflops, double measured,
		   struct vrow *r)
{
	struct model *m = NULL;
	struct hw_system s;
	struct hw_calib cal;
	struct sim_par_result res;
	char spec[64];
	int rc;

	snprintf(spec, sizeof(spec), "a100x%lld", (long long)n);
	snprintf(r->what, sizeof(r->what), "%s on %s tp %lld pp %lld dp %lld "
		 "mb %lld gb %lld", model, spec, (long long)st->tp,
		 (long long)st->pp, (long long)st->dp,
		 (long long)st->micro_batch, (long long)st->global_batch);
	if (system_for(v, spec, &s, &cal))
		return skip(r, "no such system in the catalog");
	if (model_resolve(model, &m, NULL))
		return skip(r, "the model does not build");
	rc = sim_parallel_predict(m, &s, DLSIM_FP16, SIM_OPT_ADAM, st, &res,
				  NULL);
	model_free(m);
	if (rc)
		return skip(r, "the strategy is refused");
	r->measured = measured;
	r->predicted = tflops ? res.tflops_per_device : res.step_time_s;
	return 0;
}

/* vTrain: fp16, full recomputation, 1F1B (the file's framework column);
 * vocab 50257, vTrain's default (src/config.py). */
static int row_vtrain(const struct vctx *v, struct vrow *r)
{
	struct sim_strategy st;
	char model[160];

	snprintf(model, sizeof(model), "gpt:layers=%lld,hidden=%lld,heads="
		 "%lld,seq=%lld,vocab=50257", (long long)col_int(v, "# layers"),
		 (long long)col_int(v, "hidden size"),
		 (long long)col_int(v, "attention heads"),
		 (long long)col_int(v, "sequence length"));
	sim_strategy_init(&st);
	st.tp = col_int(v, "tensor parallelism");
	st.pp = col_int(v, "pipeline parallelism");
	st.dp = col_int(v, "data parallelism");
	st.micro_batch = col_int(v, "micro batch");
	st.global_batch = col_int(v, "global batch");
	st.recompute = SIM_RECOMPUTE_FULL;
	return gpt_row(v, model, col_int(v, "# GPUs"), &st, 0,
		       col_num(v, "iteration time (ms)") * 1e-3, r);
}

/* Megatron-LM Table 1: the model column's heads, hidden, layers; seq
 * 2048, vocab 51200 (the row's text); TP, PP, DP from parallelism. */
static int row_megatron(const struct vctx *v, struct vrow *r)
{
	struct sim_strategy st;
	long long a = 0, h = 0, l = 0, tp = 0, pp = 0, dp = 0;
	char model[160];

	if (sscanf(strstr(col(v, "model"), "heads=") ?
		   strstr(col(v, "model"), "heads=") : "", "heads=%lld, "
		   "hidden=%lld, layers=%lld", &a, &h, &l) != 3 ||
	    sscanf(col(v, "parallelism"), "TP=%lld,PP=%lld,DP=%lld", &tp,
		   &pp, &dp) != 3) {
		snprintf(r->what, sizeof(r->what), "%.150s", col(v, "model"));
		return skip(r, "model or parallelism not in the expected form");
	}
	snprintf(model, sizeof(model), "gpt:layers=%lld,hidden=%lld,heads="
		 "%lld,seq=2048,vocab=51200", l, h, a);
	sim_strategy_init(&st);
	st.tp = tp;
	st.pp = pp;
	st.dp = dp;
	st.global_batch = col_int(v, "global_batch");
	st.recompute = SIM_RECOMPUTE_FULL;
	return gpt_row(v, model, col_int(v, "num_accelerators"), &st, 1,
		       col_num(v, "value"), r);
}

/* ---------------------------------------------------------------- */
/* The sets                                                          */
/* ---------------------------------------------------------------- */

static const struct {
	const char *name, *file, *title, *unit;
	int (*row)(const struct vctx *v, struct vrow *r);
} sets[] = {
	{ "vtrain", "vtrain_single.csv", "vTrain: Megatron GPT iteration "
	  "time with TP/PP/DP on 2-8 A100", "s", row_vtrain },
	{ "tf_cnn_p100", "tf_cnn_2017.csv", "tf_cnn_benchmarks 2017: five "
	  "CNNs on P100 (DGX-1), 1-8 GPUs", "samples/s", row_tf_p100 },
	{ "tf_cnn_k80", "tf_cnn_2017.csv", "tf_cnn_benchmarks 2017: five "
	  "CNNs on K80, 1-64 GPUs", "samples/s", row_tf_k80 },
	{ "dle", "dle_resnet50.csv", "NVIDIA DeepLearningExamples: "
	  "ResNet-50 (TensorFlow) on V100, 1-16 GPUs", "samples/s", row_dle },
	{ "megatron", "megatron.csv", "Megatron-LM Table 1: GPT 1.7B-1T on "
	  "32-3072 A100", "TFLOP/s/device", row_megatron },
};

#define N_SETS ((int)(sizeof(sets) / sizeof(sets[0])))

const char *cal_validation_set(int i)
{
	return i >= 0 && i < N_SETS ? sets[i].name : NULL;
}

static const struct hw_builtin_file *file_of(const char *name)
{
	const struct hw_builtin_file *f;
	size_t n = strlen(name);

	for (f = cal_validation_files; f->name; f++)
		if (strlen(f->name) >= n &&
		    strcmp(f->name + strlen(f->name) - n, name) == 0)
			return f;
	return NULL;
}

static char *dup_line(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

static int by_abs(const void *a, const void *b)
{
	double x = fabs(*(const double *)a), y = fabs(*(const double *)b);

	return (x > y) - (x < y);
}

static int by_signed(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Keep r among the five worst by |error|. */
static void worst_add(struct cal_val_set *s, const struct vrow *r, double e)
{
	int i = s->n_worst < CAL_VAL_WORST ? s->n_worst++ : CAL_VAL_WORST;

	if (i == CAL_VAL_WORST && !(fabs(e) > fabs(s->worst[i - 1].error)))
		return;
	if (i == CAL_VAL_WORST)
		i--;
	while (i > 0 && fabs(e) > fabs(s->worst[i - 1].error)) {
		s->worst[i] = s->worst[i - 1];
		i--;
	}
	snprintf(s->worst[i].what, sizeof(s->worst[i].what), "%s", r->what);
	s->worst[i].measured = r->measured;
	s->worst[i].predicted = r->predicted;
	s->worst[i].error = e;
}

static void skip_add(struct cal_val_set *s, const char *why)
{
	int i;

	s->skipped++;
	for (i = 0; i < s->n_reasons; i++)
		if (strcmp(s->reason[i].why, why) == 0) {
			s->reason[i].n++;
			return;
		}
	if (s->n_reasons == CAL_VAL_REASONS)
		return;
	snprintf(s->reason[s->n_reasons].why, sizeof(s->reason[0].why), "%s",
		 why);
	s->reason[s->n_reasons++].n = 1;
}

/* Keep row n's two values in out's arrays (grown by doubling). */
static int keep_row(struct cal_val_set *out, int64_t n, const struct vrow *r)
{
	if ((n & (n - 1)) == 0) {    /* 0, 1, 2, 4, ...: grow */
		size_t cap = n ? 2 * (size_t)n : 1;
		double *a = realloc(out->measured, cap * sizeof(double));
		double *b;

		if (!a)
			return -1;
		out->measured = a;
		if (!(b = realloc(out->predicted, cap * sizeof(double))))
			return -1;
		out->predicted = b;
	}
	out->measured[n] = r->measured;
	out->predicted[n] = r->predicted;
	return 0;
}

/* The set's statistics from its errors (sorted here). */
static void stats(struct cal_val_set *s, double *e, int64_t n)
{
	int64_t k;

	s->rows = n;
	if (n == 0)
		return;
	qsort(e, (size_t)n, sizeof(double), by_signed);
	s->median_signed_error = n % 2 ? e[n / 2] :
				 0.5 * (e[n / 2 - 1] + e[n / 2]);
	qsort(e, (size_t)n, sizeof(double), by_abs);
	s->median_abs_error = n % 2 ? fabs(e[n / 2]) :
			      0.5 * (fabs(e[n / 2 - 1]) + fabs(e[n / 2]));
	k = (int64_t)ceil(0.9 * (double)n) - 1;
	s->p90_abs_error = fabs(e[k < 0 ? 0 : k]);
}

static int run_set(int i, struct hw_catalog *cat, struct db *db,
		   struct cal_val_set *out, struct dlsim_err *err)
{
	const struct hw_builtin_file *file = file_of(sets[i].file);
	char *text, *line, *head[CAL_MAX_FIELDS], *f[CAL_MAX_FIELDS];
	char **seen = NULL;
	double *e = NULL;
	int64_t n = 0, cap = 0, n_seen = 0;
	struct cal_in in;
	struct vctx v;
	int nh, rc = DLSIM_OK;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", sets[i].name);
	snprintf(out->title, sizeof(out->title), "%s", sets[i].title);
	snprintf(out->unit, sizeof(out->unit), "%s", sets[i].unit);
	if (!file)
		return dlsim_err_set(err, DLSIM_ENOTFOUND, "validation file "
				     "%s is not compiled in", sets[i].file);
	if (!(text = malloc(file->size + 1)))
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	memcpy(text, file->data, file->size + 1);
	cal_in_init(&in, file->name, text, file->size);
	line = cal_in_next(&in);
	nh = line ? cal_split_csv(line, head, CAL_MAX_FIELDS) : -1;
	if (nh < 1 || nh > CAL_MAX_FIELDS) {
		free(text);
		return cal_fail(&in, err, "not a CSV header");
	}
	v.cat = cat;
	v.db = db;
	v.head = (const char *const *)head;
	v.n_head = nh;
	while ((line = cal_in_next(&in)) != NULL) {
		struct vrow r;
		char *copy = dup_line(line);
		int64_t k;
		int got;

		if (cal_blank(line) || !copy) {
			free(copy);
			continue;
		}
		for (k = 0; k < n_seen && strcmp(seen[k], copy); k++)
			;
		if (k < n_seen) {      /* a repeated transcription */
			free(copy);
			continue;
		}
		if (n_seen % 64 == 0) {
			char **s2 = realloc(seen, (size_t)(n_seen + 64) *
					    sizeof(*seen));

			if (!s2) {
				free(copy);
				rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of "
						   "memory");
				break;
			}
			seen = s2;
		}
		seen[n_seen++] = copy;
		v.n = cal_split_csv(line, f, CAL_MAX_FIELDS);
		if (v.n < 1 || v.n > CAL_MAX_FIELDS) {
			rc = cal_fail(&in, err, "not a CSV record");
			break;
		}
		v.f = f;
		memset(&r, 0, sizeof(r));
		got = sets[i].row(&v, &r);
		if (got < 0)
			continue;       /* the row is another set's */
		if (got == 0 && !(isfinite(r.measured) && r.measured > 0.0))
			got = skip(&r, "no measured value");
		if (got == 0 && !(isfinite(r.predicted) && r.predicted > 0.0))
			got = skip(&r, "no prediction");
		if (got) {
			skip_add(out, r.why);
			continue;
		}
		if (n == cap) {
			double *e2 = realloc(e, (size_t)(cap ? 2 * cap : 256) *
					     sizeof(double));

			if (!e2) {
				rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of "
						   "memory");
				break;
			}
			e = e2;
			cap = cap ? 2 * cap : 256;
		}
		if (keep_row(out, n, &r)) {
			rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
			break;
		}
		e[n] = r.predicted / r.measured - 1.0;
		worst_add(out, &r, e[n]);
		n++;
	}
	if (!rc)
		stats(out, e, n);
	while (n_seen > 0)
		free(seen[--n_seen]);
	free(seen);
	free(e);
	free(text);
	return rc;
}

void cal_val_report_release(struct cal_val_report *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < r->n_sets; i++) {
		free(r->set[i].measured);
		free(r->set[i].predicted);
	}
	memset(r, 0, sizeof(*r));
}

int cal_validate(struct hw_catalog *cat, struct db *db,
		 const char *const *names, struct cal_val_report *out,
		 struct dlsim_err *err)
{
	int i, j, rc;

	memset(out, 0, sizeof(*out));
	out->calibrated = db != NULL;
	for (j = 0; names && names[j]; j++) {
		for (i = 0; i < N_SETS && strcmp(sets[i].name, names[j]); i++)
			;
		if (i == N_SETS)
			return dlsim_err_set(err, DLSIM_ENOTFOUND, "unknown "
					     "validation set '%s' (dlsim "
					     "validate --help lists them)",
					     names[j]);
	}
	for (i = 0; i < N_SETS; i++) {
		if (names) {
			for (j = 0; names[j] && strcmp(names[j],
						       sets[i].name); j++)
				;
			if (!names[j])
				continue;
		}
		rc = run_set(i, cat, db, &out->set[out->n_sets], err);
		out->n_sets++;      /* so that release frees its rows */
		if (rc)
			return rc;
	}
	return DLSIM_OK;
}
