/*
 * cmd_db.c -- `dlsim db info|runs|samples|fits|export|vacuum`: look at
 * and move what the measurement store holds.  (Being written.)
 */
#include <stdio.h>

#include "cli/cli.h"
#include "core/banned.h"

static const struct cli_option options[] = {
	{ "db", "PATH", CLI_STRING, "the database (default $DLSIM_DB, else "
	  "the XDG data directory)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

const struct cli_command cli_db = {
	"db", "info|runs|samples|fits|export|vacuum [OPTIONS]",
	"Show and manage the measurement database.",
	1, 2, options, cmd_db
};

int cmd_db(const struct cli_command *cmd, int argc, char **argv)
{
	struct cli_values v;
	struct dlsim_err err = { 0, "" };
	int rc = cli_parse(cmd, argc, argv, &v);

	if (rc >= 0)
		return rc;
	dlsim_err_set(&err, DLSIM_EINVAL, "db: not implemented yet");
	return cli_fail(cmd, &err);
}
