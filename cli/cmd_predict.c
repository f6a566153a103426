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
	CLI_SIM_OPTIONS,
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
	    report_prediction(stdout, fmt, m, &sys, &r, o.want_layers, &err) ||
	    (o.want_trace &&
	     report_trace(v.str[cli_opt(cmd, "trace")], m, &sys, &r, &err)))
		rc = cli_fail(cmd, &err);
	else
		rc = cli_finish(CLI_OK);
	sim_result_release(&r);
	model_free(m);
	hw_catalog_free(cat);
	return rc;
}
