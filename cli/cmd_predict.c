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
	  "system: DEVICE, DEVICExN, NODExN, FILE.yaml or local "
	  "(required)" },
	CLI_SIM_OPTIONS,
	CLI_CALIB_OPTIONS,
	{ "format", "F", CLI_STRING, "table, csv, json (default table)" },
	{ "layers", NULL, CLI_FLAG, "add the per-layer table" },
	{ "trace", "FILE", CLI_STRING,
	  "write the step as a Chrome trace (Perfetto, chrome://tracing)" },
	{ "epochs", "E", CLI_COUNT, "epochs to train (zoo ImageNet: 90)" },
	{ "dataset-size", "N", CLI_COUNT,
	  "samples per epoch (zoo ImageNet: 1281167)" },
	{ "price-per-device-hour", "USD", CLI_NUMBER,
	  "what a device-hour costs, for the cost to train" },
	{ "years", "Y", CLI_NUMBER,
	  "amortize the catalog list price over Y years instead" },
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
	    cli_calib_open(cmd, &v, &src, &err) ||
	    cli_system_resolve(&src, cat, v.str[cli_opt(cmd, "hw")], &cs,
			       &err) ||
	    sim_predict(m, sys, &o, &r, &err) ||
	    train(cmd, &v, m, sys, &r, &tr, &shown, &err) ||
	    (o.want_trace &&
	     report_trace(v.str[cli_opt(cmd, "trace")], m, sys, &r, &err)) ||
	    report_prediction(stdout, fmt, m, sys, &r, shown, o.want_layers,
			      &err))
		rc = cli_fail(cmd, &err);
	else
		rc = cli_finish(CLI_OK);
	cli_calib_close(&src);
	sim_result_release(&r);
	model_free(m);
	hw_catalog_free(cat);
	return rc;
}
