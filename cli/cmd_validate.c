/*
 * cmd_validate.c -- `dlsim validate [--set NAME[,NAME...]]`: dlsim's
 * accuracy record against the published measurements it ships
 * (cal_validate).  By default the predictions are calibrated as a
 * first-time user's are: with the shipped calibration data, seeded into
 * a private in-memory database (so the record does not depend on what a
 * user has stored); --db uses that database's fits instead, and
 * --uncalibrated the catalog's figures alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/banned.h"

static const struct cli_option options[] = {
	{ "set", "NAME[,NAME...]", CLI_STRING,
	  "only these sets (vtrain, tf_cnn_p100, tf_cnn_k80, dle, megatron)" },
	{ "format", "F", CLI_STRING, "table, csv, json (default table)" },
	{ "db", "PATH", CLI_STRING,
	  "use this database's fits instead of the shipped calibration" },
	{ "uncalibrated", NULL, CLI_FLAG,
	  "use the catalog's datasheet figures alone" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

const struct cli_command cli_validate = {
	"validate", "[--set NAME[,NAME...]] [--format table|csv|json]",
	"Predict every row of the shipped measurement sets and report the "
	"error.",
	0, 0, options, cmd_validate
};

/* The database whose fits the predictions use; NULL: none. */
static int open_fits(const struct cli_command *cmd, const struct cli_values *v,
		     struct db **db, struct dlsim_err *err)
{
	int64_t runs, samples;
	int i = cli_opt(cmd, "db");

	*db = NULL;
	if (v->set[cli_opt(cmd, "uncalibrated")])
		return DLSIM_OK;
	if (v->set[i])
		return db_open(v->str[i], db, err);
	if (db_open(":memory:", db, err))
		return err->code;
	return cal_seed(*db, &runs, &samples, err);
}

int cmd_validate(const struct cli_command *cmd, int argc, char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct cal_val_report *rep = NULL;
	struct db *db = NULL;
	struct cli_values v;
	enum report_format fmt;
	char buf[256], *names[CAL_VAL_SETS + 1];
	int rc = cli_parse(cmd, argc, argv, &v), n, i = 0;

	if (rc >= 0)
		return rc;
	if (cli_format(cmd, &v, &fmt, &err))
		return cli_fail(cmd, &err);
	if (v.set[i = cli_opt(cmd, "set")]) {
		snprintf(buf, sizeof(buf), "%s", v.str[i]);
		if ((n = cli_split(buf, names, CAL_VAL_SETS, "--set",
				   &err)) < 0)
			return cli_fail(cmd, &err);
		names[n] = NULL;
	}
	if ((rc = cli_catalog(cmd, &cat)) >= 0)
		return rc;
	if (!(rep = calloc(1, sizeof(*rep))))
		dlsim_err_set(&err, DLSIM_ENOMEM, "out of memory");
	if (!rep || open_fits(cmd, &v, &db, &err) ||
	    cal_validate(cat, db, v.set[cli_opt(cmd, "set")] ?
			 (const char *const *)names : NULL, rep, &err) ||
	    report_validation(stdout, fmt, rep, &err))
		rc = cli_fail(cmd, &err);
	else
		rc = cli_finish(CLI_OK);
	free(rep);
	db_close(db);
	hw_catalog_free(cat);
	return rc;
}
