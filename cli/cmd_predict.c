/*
 * cmd_predict.c -- `dlsim predict MODEL --hw HW`: one step's time, where
 * it goes, and the memory it needs.  With --record the prediction is kept
 * in the database (db_prediction_insert): its inputs, the JSON it prints
 * without the layers, and the ids of the fits it used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/core.h"
#include "core/banned.h"

static const struct cli_option options[] = {
	{ "hw", "HW", CLI_STRING,
	  "system: DEVICE, DEVICExN, NODExN, FILE.yaml or local "
	  "(required)" },
	CLI_SIM_OPTIONS,
	CLI_STRATEGY_OPTIONS,
	CLI_CALIB_OPTIONS,
	{ "format", "F", CLI_STRING, "table, csv, json (default table)" },
	{ "layers", NULL, CLI_FLAG, "add the per-layer table" },
	{ "trace", "FILE", CLI_STRING,
	  "write the step as a Chrome trace (Perfetto, chrome://tracing)" },
	{ "epochs", "E", CLI_COUNT,
	  "epochs to train (zoo ImageNet: 90; ssd300: 65)" },
	{ "dataset-size", "N", CLI_COUNT,
	  "samples per epoch (zoo ImageNet: 1281167; ssd300: 117266)" },
	{ "price-per-device-hour", "USD", CLI_NUMBER,
	  "what a device-hour costs, for the cost to train (at most 1e9)" },
	{ "years", "Y", CLI_NUMBER,
	  "amortize the catalog list price over Y years instead "
	  "(1/8760 to 1000)" },
	{ "record", NULL, CLI_FLAG,
	  "store the prediction in the database (an existing one, or --db)" },
	{ "seq-lengths", "CSV", CLI_STRING,
	  "sequences of many lengths: a histogram (length,count lines), "
	  "each batch from one bin, padded to its longest (a zoo model with "
	  "a seq key)" },
	{ "seq-bin", "W", CLI_COUNT,
	  "with --seq-lengths: tokens a bin spans (default 64, LDDL's)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

const struct cli_command cli_predict = {
	"predict", "MODEL --hw HW [OPTIONS]",
	"Predict one training step of MODEL (a zoo name or a YAML file).",
	1, 1, options, cmd_predict
};

/* Turn the parsed values into sim options; 0 or an error code. */
static int options_from(const struct cli_command *cmd,
			const struct cli_values *v, struct sim_options *o,
			enum report_format *fmt, struct dlsim_err *err)
{
	int rc = cli_sim_options(cmd, v, o, err);

	if (!rc)
		rc = cli_format(cmd, v, fmt, err);
	o->want_layers = v->set[cli_opt(cmd, "layers")];
	o->want_trace = v->set[cli_opt(cmd, "trace")];
	/* the data-parallel step's; a strategy takes its own (cli_strategy) */
	if (!rc)
		rc = cli_dispatch_s(cmd, v, &o->dispatch_s, err);
	return rc;
}

/* The training-run options; *asked is 1 if any was given. */
static void train_options(const struct cli_command *cmd,
			  const struct cli_values *v,
			  struct sim_train_options *t, int *asked)
{
	int i;

	sim_train_options_init(t);
	*asked = 0;
	if (v->set[i = cli_opt(cmd, "epochs")])
		t->epochs = v->count[i], *asked = 1;
	if (v->set[i = cli_opt(cmd, "dataset-size")])
		t->dataset_size = v->count[i], *asked = 1;
	if (v->set[i = cli_opt(cmd, "price-per-device-hour")])
		t->price_per_device_hour = v->num[i], *asked = 1;
	if (v->set[i = cli_opt(cmd, "years")])
		t->years = v->num[i], *asked = 1;
}

/*
 * Time to train: always when the model has a recipe (the zoo's ImageNet
 * models) or the user asked; an error only if the user asked and the
 * estimate cannot be made.
 */
static int train(const struct cli_command *cmd, const struct cli_values *v,
		 const struct model *m, const struct hw_system *sys,
		 const struct sim_result *r, struct sim_train *out,
		 const struct sim_train **shown, struct dlsim_err *err)
{
	struct sim_train_options t;
	struct dlsim_err quiet = { 0, "" };
	int asked, rc;

	train_options(cmd, v, &t, &asked);
	*shown = NULL;
	rc = sim_train_estimate(m, sys, r, &t, out, asked ? err : &quiet);
	if (rc == DLSIM_OK)
		*shown = out;
	return asked ? rc : DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* --record                                                          */
/* ---------------------------------------------------------------- */

/* --record --db PATH may create PATH, so that the calibration lookup
 * (which never creates) finds it. */
static int record_create(const struct cli_command *cmd,
			 const struct cli_values *v, struct dlsim_err *err)
{
	struct stat st;
	struct db *db = NULL;
	int i = cli_opt(cmd, "db"), rc;

	if (!v->set[cli_opt(cmd, "record")] || !v->set[i] ||
	    stat(v->str[i], &st) == 0)
		return DLSIM_OK;
	rc = db_open(v->str[i], &db, err);
	db_close(db);
	return rc;
}

/* The database to record into, found before anything is predicted or
 * printed: the calibration's, else (--uncalibrated) the one it would have
 * read; *owned is set when the caller must close it.  No database is
 * DLSIM_ENOTFOUND: --record never creates one at the default path. */
static int record_db(const struct cli_command *cmd,
		     const struct cli_values *v, struct cli_calib_src *src,
		     struct db **out, struct db **owned,
		     struct dlsim_err *err)
{
	struct cli_values w = *v;
	struct cli_calib_src s = { NULL };
	int rc;

	*out = src->db;
	*owned = NULL;
	if (src->db)
		return DLSIM_OK;
	w.set[cli_opt(cmd, "uncalibrated")] = 0;
	if ((rc = cli_calib_open(cmd, &w, 1, &s, err)))
		return rc;
	if (!s.db)
		return dlsim_err_set(err, DLSIM_ENOTFOUND, "--record: no "
				     "database to record into (name one "
				     "with --db)");
	*out = *owned = s.db;
	return DLSIM_OK;
}

/* inputs_json: what the prediction was asked. */
static void record_inputs(FILE *f, const struct cli_command *cmd,
			  const struct cli_values *v, const struct model *m,
			  const struct hw_system *sys,
			  const struct sim_options *o,
			  const struct sim_result *r)
{
	fputs("{\"model\": ", f);
	report_json_string(f, m->name);
	fputs(", \"model_arg\": ", f);
	report_json_string(f, v->positional[0]);
	fputs(", \"hardware\": ", f);
	report_json_string(f, sys->spec);
	fprintf(f, ", \"batch_per_device\": %lld, \"global_batch\": %lld, "
		"\"precision\": \"%s\", \"options\": {\"precision_auto\": "
		"%s, \"optimizer\": \"%s\", \"allreduce\": \"%s\", "
		"\"bucket_bytes\": %.17g, \"overlap\": %s, "
		"\"compression\": \"%s\", \"topk_ratio\": %.17g, "
		"\"fuse_elementwise\": %s, \"fuse_conv_bn\": %s, "
		"\"dispatch_s\": %.17g, "
		"\"optimizer_foreach\": %s, \"autocast\": %s, "
		"\"update_on_host\": %s, \"uncalibrated\": %s}}",
		(long long)r->batch_per_device, (long long)r->global_batch,
		dlsim_precision_name(r->precision),
		o->precision_auto ? "true" : "false",
		sim_optimizer_name(o->optimizer), sim_algo_name(o->allreduce),
		o->bucket_bytes, o->overlap ? "true" : "false",
		sim_compression_name(o->compression), o->topk_ratio,
		o->fuse_elementwise ? "true" : "false",
		o->fuse_conv_bn ? "true" : "false", o->dispatch_s,
		o->optimizer_foreach ? "true" : "false",
		o->autocast ? "true" : "false",
		o->update_on_host ? "true" : "false",
		v->set[cli_opt(cmd, "uncalibrated")] ? "true" : "false");
}

/* fit_ids: "[12, 13]", "[]" uncalibrated. */
static void record_fit_ids(FILE *f, const struct sim_result *r)
{
	int i;

	fputc('[', f);
	for (i = 0; r->calibrated && i < r->n_calib_used; i++)
		fprintf(f, "%s%lld", i ? ", " : "",
			(long long)r->calib_used[i].id);
	fputc(']', f);
}

/* The three JSON texts of the row, each caller-owned (free), NULL on
 * failure. */
static int record_texts(char **in, char **outj, char **ids,
			const struct cli_command *cmd,
			const struct cli_values *v, const struct model *m,
			const struct hw_system *sys,
			const struct sim_options *o, const struct sim_result *r,
			const struct sim_train *shown, struct dlsim_err *err)
{
	size_t n1 = 0, n2 = 0, n3 = 0;
	FILE *f1 = open_memstream(in, &n1);
	FILE *f2 = open_memstream(outj, &n2);
	FILE *f3 = open_memstream(ids, &n3);
	int rc = DLSIM_OK;

	if (f1)
		record_inputs(f1, cmd, v, m, sys, o, r);
	if (f2)
		rc = report_prediction(f2, REPORT_JSON, m, sys, r, shown, 0,
				       err);
	if (f3)
		record_fit_ids(f3, r);
	if ((!f1 || fclose(f1) != 0 || !f2 || fclose(f2) != 0 || !f3 ||
	     fclose(f3) != 0) && !rc)
		rc = dlsim_err_set(err, DLSIM_ENOMEM, "--record: out of "
				   "memory");
	return rc;
}

/* Store the prediction; says its id on stderr. */
static int record(struct db *db, const struct cli_command *cmd,
		  const struct cli_values *v, const struct model *m,
		  const struct hw_system *sys, const struct sim_options *o,
		  const struct sim_result *r, const struct sim_train *shown,
		  struct dlsim_err *err)
{
	struct db_prediction p;
	char *in = NULL, *outj = NULL, *ids = NULL;
	int rc;

	memset(&p, 0, sizeof(p));
	if ((rc = record_texts(&in, &outj, &ids, cmd, v, m, sys, o, r, shown,
			       err)))
		goto cleanup;
	p.inputs_json = in;
	p.outputs_json = outj;
	p.fit_ids = ids;
	if ((rc = db_prediction_insert(db, &p, err)))
		goto cleanup;
	fprintf(stderr, "dlsim: recorded prediction %lld\n", (long long)p.id);
cleanup:
	free(in);
	free(outj);
	free(ids);
	return rc;
}

/* ---------------------------------------------------------------- */
/* A hybrid-parallel strategy                                        */
/* ---------------------------------------------------------------- */

/* The precision and optimizer of a transformer's step: as asked, else
 * the device's automatic precision and Adam, which transformers train
 * with (Vaswani et al. 2017, Sec. 5.3; Megatron-LM). */
static int par_setup(const struct cli_command *cmd, const struct cli_values *v,
		     const struct sim_options *o, const struct hw_system *s,
		     enum dlsim_precision *p, enum sim_optimizer *opt,
		     struct dlsim_err *err)
{
	*p = o->precision_auto ? hw_device_auto_precision(s->device) :
	     o->precision;
	*opt = v->set[cli_opt(cmd, "optimizer")] ? o->optimizer :
	       SIM_OPT_ADAM;
	if (!hw_device_supports(s->device, *p))
		return dlsim_err_set(err, DLSIM_EINVAL, "device '%s' has no "
				     "%s peak in the catalog", s->device->name,
				     dlsim_precision_name(*p));
	return DLSIM_OK;
}

/* The options a hybrid-parallel step does not take, refused before
 * anything is opened or created (--record would make its database).
 * --dispatch-us asks for a strategy only above 0 and of a transformer m
 * (cli_asks_strategy). */
static int refuse_with_strategy(const struct cli_command *cmd,
				const struct cli_values *v,
				const struct model *m, struct dlsim_err *err)
{
	static const char *const strategy[] = {
		"tp", "pp", "dp", "micro-batch", "zero", "recompute",
		"schedule", "chunks", "sequence-parallel", "strategy",
		"dispatch-us", NULL
	};
	static const char *const single[] = {
		"layers", "trace", "record", "epochs", "dataset-size",
		"price-per-device-hour", "years", "allreduce", "bucket-mb",
		"no-overlap", "compression", "topk-ratio", "fuse-elementwise",
		"fuse-conv-bn", NULL
	};
	int i, asked = 0;

	for (i = 0; strategy[i]; i++)
		asked |= cli_asks_strategy(cmd, v, m, strategy[i]);
	for (i = 0; asked && single[i]; i++)
		if (v->set[cli_opt(cmd, single[i])])
			return dlsim_err_set(err, DLSIM_EINVAL, "--%s is not "
					     "available with a parallel "
					     "strategy", single[i]);
	return DLSIM_OK;
}

/* --strategy auto's search: the best one strategy for the batch and the
 * stack's settings st holds. */
static void auto_plan_options(const struct sim_strategy *st,
			      struct sim_plan_options *po)
{
	sim_plan_options_init(po);
	po->global_batch = st->global_batch;
	po->dispatch_s = st->dispatch_s;
	po->optimizer_foreach = st->optimizer_foreach;
	po->autocast = st->autocast;
	po->update_on_host = st->update_on_host;
	po->top_k = 1;
}

/* --strategy auto when the plan kept nothing. */
static int auto_none_fits(const struct sim_plan_result *plan,
			  struct dlsim_err *err)
{
	if (plan->n_evaluated == 0)
		return dlsim_err_set(err, DLSIM_EINVAL, "--strategy auto: no "
				     "strategy splits the model and the global "
				     "batch of %lld over the devices (tp x pp "
				     "x dp the devices, tp dividing the heads, "
				     "pp at most the blocks, dp x micro-batch "
				     "dividing the batch)",
				     (long long)plan->global_batch);
	return dlsim_err_set(err, DLSIM_EINVAL, "--strategy auto: none of "
			     "%lld strategies fits in memory (dlsim plan says "
			     "by how much)", (long long)plan->n_evaluated);
}

/* Cost the strategy asked for, or with --strategy auto the plan's best. */
static int predict_parallel(const struct cli_command *cmd,
			    const struct cli_values *v,
			    const struct sim_options *o,
			    const struct model *m, const struct hw_system *s,
			    struct sim_strategy *st, int auto_pick,
			    enum report_format fmt, struct dlsim_err *err)
{
	struct sim_plan_options po;
	struct sim_plan_result plan;
	struct sim_par_result r;
	enum dlsim_precision p;
	enum sim_optimizer opt;
	int rc;

	if ((rc = par_setup(cmd, v, o, s, &p, &opt, err)))
		return rc;
	if (!auto_pick) {
		if ((rc = sim_parallel_predict(m, s, p, opt, st, &r, err)))
			return rc;
		return report_parallel(stdout, fmt, m, s, &r, err);
	}
	auto_plan_options(st, &po);
	if ((rc = sim_plan(m, s, p, opt, &po, &plan, err)))
		return rc;
	if (plan.n_top == 0)
		rc = auto_none_fits(&plan, err);
	else
		rc = report_parallel(stdout, fmt, m, s, &plan.top[0], err);
	sim_plan_release(&plan);
	return rc;
}

/* ---------------------------------------------------------------- */
/* --seq-lengths                                                     */
/* ---------------------------------------------------------------- */

/* The options a step over many lengths does not take. */
static int refuse_with_lengths(const struct cli_command *cmd,
			       const struct cli_values *v,
			       struct dlsim_err *err)
{
	static const char *const no[] = {
		"layers", "trace", "record", "epochs", "dataset-size",
		"price-per-device-hour", "years", NULL
	};
	int i;

	if (!v->set[cli_opt(cmd, "seq-lengths")])
		return v->set[cli_opt(cmd, "seq-bin")] ?
		       dlsim_err_set(err, DLSIM_EINVAL, "--seq-bin needs "
				     "--seq-lengths") : DLSIM_OK;
	for (i = 0; no[i]; i++)
		if (v->set[cli_opt(cmd, no[i])])
			return dlsim_err_set(err, DLSIM_EINVAL, "--%s is not "
					     "available with --seq-lengths",
					     no[i]);
	return DLSIM_OK;
}

/* --strategy auto over bins: the best of sim_plan_binned (as `dlsim plan
 * --seq-lengths` ranks them) into *st, which holds the asked batch and
 * the stack's settings. */
static int best_binned(const char *model_arg, const struct hw_system *s,
		       const struct sim_options *o,
		       const struct model_seq_bins *bins,
		       struct sim_strategy *st, struct dlsim_err *err)
{
	struct sim_plan_options po;
	struct sim_plan_result plan;
	int rc;

	auto_plan_options(st, &po);
	if ((rc = sim_plan_binned(model_arg, bins, s, o->precision,
				  o->optimizer, &po, &plan, err)))
		return rc;
	if (plan.n_top == 0)
		rc = auto_none_fits(&plan, err);
	else
		*st = plan.top[0].strategy;
	sim_plan_release(&plan);
	return rc;
}

/* Predict over the histogram --seq-lengths names: the strategy's step
 * with par (with auto_pick the best over the bins), else the
 * data-parallel one. */
static int predict_binned(const struct cli_command *cmd,
			  const struct cli_values *v,
			  const struct sim_options *o,
			  const struct hw_system *s,
			  const struct sim_strategy *st, int par,
			  int auto_pick, enum report_format fmt,
			  struct dlsim_err *err)
{
	const char *path = v->str[cli_opt(cmd, "seq-lengths")];
	struct model_seq_bins *bins = NULL;
	struct sim_binned *r = malloc(sizeof(*r));
	struct sim_options po = *o;
	struct sim_strategy best = *st;
	int rc;

	if (!r)
		rc = dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	else if (!(rc = cli_seq_bins(cmd, v, v->positional[0], &bins,
				     err)) &&
		 !(rc = par ? par_setup(cmd, v, o, s, &po.precision,
					&po.optimizer, err) : DLSIM_OK) &&
		 !(rc = auto_pick ? best_binned(v->positional[0], s, &po,
						bins, &best, err) : DLSIM_OK) &&
		 !(rc = sim_binned_predict(v->positional[0], s, &po,
					   par ? &best : NULL, bins, r, err)))
		rc = report_binned(stdout, fmt, v->positional[0], s, path, r,
				   err);
	free(r);
	free(bins);
	return rc;
}

/* ---------------------------------------------------------------- */
/* The command                                                       */
/* ---------------------------------------------------------------- */

/* --trace over the model, the --hw file or the database (which --record
 * would then fail to write, "malformed") is refused before any is read. */
static int check_outputs(const struct cli_command *cmd,
			 const struct cli_values *v, struct dlsim_err *err)
{
	const char *model = v->positional[0];
	const char *hw = v->str[cli_opt(cmd, "hw")];
	const struct cli_input in[] = {
		{ core_is_yaml_path(model) ? model : NULL,
		  "the model file (MODEL)" },
		{ core_is_yaml_path(hw) ? hw : NULL,
		  "the hardware file (--hw)" },
	};

	return cli_outputs_check(cmd, v, in, 2, err);
}

int cmd_predict(const struct cli_command *cmd, int argc, char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct model *m = NULL;
	struct sim_result r;
	struct sim_options o;
	struct cli_system cs;
	struct cli_calib_src src = { NULL };
	const struct hw_system *sys = &cs.sys;
	struct cli_values v;
	struct sim_train tr;
	const struct sim_train *shown = NULL;
	struct db *rec = NULL, *rec_owned = NULL;
	enum report_format fmt;
	struct sim_strategy st;
	int rc = cli_parse(cmd, argc, argv, &v), want_record, par = 0;
	int auto_pick = 0;

	if (rc >= 0)
		return rc;
	memset(&r, 0, sizeof(r));
	if (!v.set[cli_opt(cmd, "hw")]) {
		dlsim_err_set(&err, DLSIM_EINVAL, "predict: --hw is required");
		return cli_fail(cmd, &err);
	}
	if (options_from(cmd, &v, &o, &fmt, &err) ||
	    check_outputs(cmd, &v, &err))
		return cli_fail(cmd, &err);
	if ((rc = cli_catalog(cmd, &cat)) >= 0)
		return rc;
	want_record = v.set[cli_opt(cmd, "record")];
	if (model_resolve(v.positional[0], &m, &err) ||
	    refuse_with_strategy(cmd, &v, m, &err) ||
	    refuse_with_lengths(cmd, &v, &err) ||
	    record_create(cmd, &v, &err) ||
	    cli_calib_open(cmd, &v, want_record, &src, &err) ||
	    (want_record &&
	     record_db(cmd, &v, &src, &rec, &rec_owned, &err)) ||
	    cli_system_resolve(&src, cat, v.str[cli_opt(cmd, "hw")], &cs,
			       &err) ||
	    cli_strategy(cmd, &v, &o, m, sys->n_devices, &st, &par,
			 &auto_pick, &err))
		rc = cli_fail(cmd, &err);
	else if (v.set[cli_opt(cmd, "seq-lengths")])
		rc = predict_binned(cmd, &v, &o, sys, &st, par, auto_pick, fmt,
				    &err) ?
		     cli_fail(cmd, &err) : cli_finish(cmd, CLI_OK);
	else if (par)
		rc = predict_parallel(cmd, &v, &o, m, sys, &st, auto_pick, fmt,
				      &err) ? cli_fail(cmd, &err) :
		     cli_finish(cmd, CLI_OK);
	else if (sim_predict(m, sys, &o, &r, &err) ||
	    train(cmd, &v, m, sys, &r, &tr, &shown, &err) ||
	    (o.want_trace &&
	     report_trace(v.str[cli_opt(cmd, "trace")], m, sys, &r, &err)) ||
	    report_prediction(stdout, fmt, m, sys, &r, shown, o.want_layers,
			      &err) ||
	    (want_record &&
	     record(rec, cmd, &v, m, sys, &o, &r, shown, &err)))
		rc = cli_fail(cmd, &err);
	else
		rc = cli_finish(cmd, CLI_OK);
	db_close(rec_owned);
	cli_calib_close(&src);
	sim_result_release(&r);
	model_free(m);
	hw_catalog_free(cat);
	return rc;
}
