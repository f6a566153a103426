/*
 * cmd_calibrate.c -- `dlsim calibrate import|run|fit|show`: fill
 * the measurement store and fit models from it.  (Being written.)
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

const struct cli_command cli_calibrate = {
	"calibrate", "import FORMAT FILE --hw NAME [OPTIONS]",
	"Measure this machine, import benchmark results, fit models.",
	1, 2, options, cmd_calibrate
};

int cmd_calibrate(const struct cli_command *cmd, int argc, char **argv)
{
	struct cli_values v;
	struct dlsim_err err = { 0, "" };
	int rc = cli_parse(cmd, argc, argv, &v);

	if (rc >= 0)
		return rc;
	dlsim_err_set(&err, DLSIM_EINVAL, "calibrate: not implemented yet");
	return cli_fail(cmd, &err);
}
