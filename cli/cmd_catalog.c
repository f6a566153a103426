/*
 * cmd_catalog.c -- the two browsing commands: `dlsim models [show NAME]`
 * and `dlsim hw [show HW]`.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/banned.h"

static const struct cli_option show_options[] = {
	{ "format", "F", CLI_STRING, "table, csv, json (default table)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

/* A resolved system is a tree, not rows: no csv for `hw show`. */
static const struct cli_option hw_options[] = {
	{ "format", "F", CLI_STRING,
	  "table, csv, json (default table; hw show: table or json)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

const struct cli_command cli_models = {
	"models", "[show NAME|FILE.yaml] [--format F]",
	"List the model zoo, or show one model's layers and counts.",
	0, 2, show_options, cmd_models
};

const struct cli_command cli_hw = {
	"hw", "[show HW] [--format F]",
	"List the hardware catalog, or show one resolved system.",
	0, 2, hw_options, cmd_hw
};

/* Common start: parse, check "show X", read --format.  -1 to go on. */
static int start(const struct cli_command *cmd, int argc, char **argv,
		 struct cli_values *v, enum report_format *fmt)
{
	struct dlsim_err err = { 0, "" };
	int rc = cli_parse(cmd, argc, argv, v), i;

	if (rc >= 0)
		return rc;
	*fmt = REPORT_TABLE;
	if (v->n_positional > 0 && (strcmp(v->positional[0], "show") != 0 ||
				    v->n_positional != 2)) {
		dlsim_err_set(&err, DLSIM_EINVAL, "%s: expected 'show NAME' "
			      "(got '%s')", cmd->name, v->positional[0]);
		return cli_fail(cmd, &err);
	}
	if (v->set[i = cli_opt(cmd, "format")] &&
	    report_format_parse(v->str[i], fmt, &err))
		return cli_fail(cmd, &err);
	return -1;
}

int cmd_models(const struct cli_command *cmd, int argc, char **argv)
{
	struct dlsim_err err = { 0, "" };
	enum report_format fmt;
	struct cli_values v;
	struct model *m = NULL;
	int rc = start(cmd, argc, argv, &v, &fmt);

	if (rc >= 0)
		return rc;
	if (v.n_positional == 2) {
		if (model_resolve(v.positional[1], &m, &err) ||
		    report_model(stdout, fmt, m, &err))
			rc = cli_fail(cmd, &err);
		else
			rc = cli_finish(cmd, CLI_OK);
		model_free(m);
		return rc;
	}
	if (report_zoo(stdout, fmt, &err))
		return cli_fail(cmd, &err);
	return cli_finish(cmd, CLI_OK);
}

int cmd_hw(const struct cli_command *cmd, int argc, char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	enum report_format fmt;
	struct hw_system sys;
	struct cli_values v;
	int rc = start(cmd, argc, argv, &v, &fmt);

	if (rc >= 0)
		return rc;
	if ((rc = cli_catalog(cmd, &cat)) >= 0)
		return rc;
	if (v.n_positional == 2) {
		if (hw_system_resolve(cat, v.positional[1], &sys, &err) ||
		    report_system(stdout, fmt, &sys, &err))
			rc = cli_fail(cmd, &err);
		else
			rc = cli_finish(cmd, CLI_OK);
	} else if (report_catalog(stdout, fmt, cat, &err)) {
		rc = cli_fail(cmd, &err);
	} else {
		rc = cli_finish(cmd, CLI_OK);
	}
	hw_catalog_free(cat);
	return rc;
}
