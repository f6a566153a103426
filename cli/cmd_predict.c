/*
 * cmd_predict.c -- `dlsim predict MODEL --hw HW`: one step's time, where
 * it goes, and the memory it needs.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/banned.h"

static const struct cli_option options[] = {
	{ "hw", "HW", CLI_STRING,
	  "system: DEVICE, DEVICExN, NODExN or FILE.yaml (required)" },
	{ "batch", "N", CLI_COUNT, "samples per device per step" },
	{ "global-batch", "N", CLI_COUNT,
	  "samples per step over all devices" },
	{ "precision", "P", CLI_STRING,
	  "auto, fp64, fp32, tf32, fp16, bf16, fp8 (default auto)" },
	{ "optimizer", "O", CLI_STRING, "sgd, momentum, adam (default "
	  "momentum)" },
	{ "allreduce", "A", CLI_STRING, "auto, ring, tree, halving-doubling, "
	  "parameter-server" },
	{ "bucket-mb", "MB", CLI_NUMBER, "gradient bucket size in MiB "
	  "(default 25)" },
	{ "no-overlap", NULL, CLI_FLAG,
	  "reduce gradients after backward, not during it" },
	{ "format", "F", CLI_STRING, "table, csv, json (default table)" },
	{ "layers", NULL, CLI_FLAG, "add the per-layer table" },
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
	int i, rc = DLSIM_OK;

	sim_options_init(o);
	*fmt = REPORT_TABLE;
	if (v->set[i = cli_opt(cmd, "batch")])
		o->batch_per_device = v->count[i];
	if (v->set[i = cli_opt(cmd, "global-batch")])
		o->global_batch = v->count[i];
	if (o->batch_per_device && o->global_batch)
		return dlsim_err_set(err, DLSIM_EINVAL, "--batch and "
				     "--global-batch exclude each other");
	if (v->set[i = cli_opt(cmd, "precision")] &&
	    strcmp(v->str[i], "auto") != 0) {
		o->precision_auto = 0;
		rc = dlsim_precision_parse(v->str[i], &o->precision, err);
	}
	if (!rc && v->set[i = cli_opt(cmd, "optimizer")])
		rc = sim_optimizer_parse(v->str[i], &o->optimizer, err);
	if (!rc && v->set[i = cli_opt(cmd, "allreduce")])
		rc = sim_algo_parse(v->str[i], &o->allreduce, err);
	if (!rc && v->set[i = cli_opt(cmd, "format")])
		rc = report_format_parse(v->str[i], fmt, err);
	if (v->set[i = cli_opt(cmd, "bucket-mb")])
		o->bucket_bytes = v->num[i] * 1048576.0;
	o->overlap = !v->set[cli_opt(cmd, "no-overlap")];
	o->want_layers = v->set[cli_opt(cmd, "layers")];
	return rc;
}

int cmd_predict(const struct cli_command *cmd, int argc, char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct model *m = NULL;
	struct sim_result r;
	struct sim_options o;
	struct hw_system sys;
	struct cli_values v;
	enum report_format fmt;
	int rc = cli_parse(cmd, argc, argv, &v);

	if (rc >= 0)
		return rc;
	memset(&r, 0, sizeof(r));
	if (!v.set[cli_opt(cmd, "hw")]) {
		dlsim_err_set(&err, DLSIM_EINVAL, "predict: --hw is required");
		return cli_fail(cmd, &err);
	}
	if (options_from(cmd, &v, &o, &fmt, &err))
		return cli_fail(cmd, &err);
	if ((rc = cli_catalog(cmd, &cat)) >= 0)
		return rc;
	if (model_resolve(v.positional[0], &m, &err) ||
	    hw_system_resolve(cat, v.str[cli_opt(cmd, "hw")], &sys, &err) ||
	    sim_predict(m, &sys, &o, &r, &err) ||
	    report_prediction(stdout, fmt, m, &sys, &r, o.want_layers, &err))
		rc = cli_fail(cmd, &err);
	else
		rc = cli_finish(CLI_OK);
	sim_result_release(&r);
	model_free(m);
	hw_catalog_free(cat);
	return rc;
}
