/*
 * cmd_calibrate.c -- `dlsim calibrate import|run|fit|show`: fill the
 * measurement store and fit models from it.
 *
 * The subcommands are a nested table in this file (git's
 * builtin/bundle.c): the first word picks one, which then parses the
 * rest against its own option table, so its --help and errors name it
 * ("dlsim calibrate import --help").  import is written; run, fit and
 * show have their place in the table and answer, for now, that they are
 * not yet available (exit 2).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/banned.h"

static int cmd_calibrate_import(const struct cli_command *cmd, int argc,
				char **argv);

/* ---------------------------------------------------------------- */
/* The subcommands                                                   */
/* ---------------------------------------------------------------- */

static const struct cli_option import_options[] = {
	{ "hw", "NAME", CLI_STRING,
	  "the hardware the results come from (required)" },
	{ "db", "PATH", CLI_STRING, "the database (default $DLSIM_DB, else "
	  "the XDG data directory)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

#define IMPORT_USAGE "FORMAT FILE --hw NAME [--db PATH]"
#define FORMATS "nccl-tests, osu, stream, deepbench, gemm-csv, conv-csv"

static const struct cli_command calibrate_import = {
	"calibrate import", IMPORT_USAGE,
	"Store a benchmark tool's results in the database as one run.\n"
	"FORMAT: " FORMATS ".\n"
	"A file in another format, or damaged anywhere, is refused whole.",
	2, 2, import_options, cmd_calibrate_import
};

static const struct {
	const char *name;
	const struct cli_command *cmd;   /* NULL: not yet available */
	const char *summary;
} subcommands[] = {
	{ "import", &calibrate_import,
	  "store nccl-tests, OSU, STREAM, DeepBench or CSV results" },
	{ "run", NULL, "measure this machine (not yet available)" },
	{ "fit", NULL, "fit models to the stored runs (not yet available)" },
	{ "show", NULL, "print fitted models (not yet available)" },
};

#define N_SUBCOMMANDS ((int)(sizeof(subcommands) / sizeof(subcommands[0])))

/* `dlsim calibrate --help` shows import's options, the only ones yet;
 * the positional counts are the subcommands' to check. */
const struct cli_command cli_calibrate = {
	"calibrate", "import " IMPORT_USAGE,
	"Measure this machine, import benchmark results, fit models.",
	1, 3, import_options, cmd_calibrate
};

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static int usage(const struct cli_command *cmd, const char *fmt,
		 const char *word)
{
	struct dlsim_err err = { 0, "" };

	dlsim_err_set(&err, DLSIM_EINVAL, fmt, word);
	return cli_fail(cmd, &err);
}

/* A failure after the arguments were read: say that nothing was kept. */
static int fail_nothing_imported(const struct cli_command *cmd,
				 const struct dlsim_err *err)
{
	struct dlsim_err e = { 0, "" };

	if (err->code == DLSIM_EINVAL || err->code == DLSIM_ENOTFOUND ||
	    err->code == DLSIM_ERANGE)
		return cli_fail(cmd, err);
	dlsim_err_set(&e, err->code, "%.200s (nothing imported)", err->msg);
	return cli_fail(cmd, &e);
}

static int help(const struct cli_command *cmd)
{
	int i;

	cli_help(cmd, stdout);
	fputs("\nSubcommands:\n", stdout);
	for (i = 0; i < N_SUBCOMMANDS; i++)
		printf("  %-10s %s\n", subcommands[i].name,
		       subcommands[i].summary);
	fputs("\nFormats: " FORMATS "\n", stdout);
	return cli_finish(CLI_OK);
}

static int cmd_calibrate_import(const struct cli_command *cmd, int argc,
				char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct cli_values v;
	struct db *db = NULL;
	enum cal_format f;
	int64_t run_id, n;
	char path[1024];
	int rc = cli_parse(cmd, argc, argv, &v), i;

	if (rc >= 0)
		return rc;
	if (!v.set[i = cli_opt(cmd, "hw")])
		return usage(cmd, "%s: --hw is required", cmd->name);
	if (cal_format_parse(v.positional[0], &f, &err))
		return cli_fail(cmd, &err);
	if (db_resolve_path(v.set[cli_opt(cmd, "db")] ?
			    v.str[cli_opt(cmd, "db")] : NULL, path,
			    sizeof(path), &err) ||
	    db_open(path, &db, &err) ||
	    cal_import(db, f, v.positional[1], v.str[i], &run_id, &n, &err)) {
		db_close(db);
		return fail_nothing_imported(cmd, &err);
	}
	printf("imported %lld samples from %s as run %lld (%s, hardware %s) "
	       "into %s\n", (long long)n, v.positional[1], (long long)run_id,
	       cal_format_name(f), v.str[i], path);
	db_close(db);
	return cli_finish(CLI_OK);
}

/* ---------------------------------------------------------------- */
/* The command                                                       */
/* ---------------------------------------------------------------- */

int cmd_calibrate(const struct cli_command *cmd, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return usage(cmd, "%s: missing subcommand (import, run, fit, "
			     "show)", cmd->name);
	if (strcmp(argv[1], "--help") == 0)
		return help(cmd);
	if (argv[1][0] == '-')
		return usage(cmd, "calibrate: the subcommand (import, run, "
			     "fit, show) comes before '%s'", argv[1]);
	for (i = 0; i < N_SUBCOMMANDS; i++)
		if (strcmp(argv[1], subcommands[i].name) == 0)
			break;
	if (i == N_SUBCOMMANDS)
		return usage(cmd, "calibrate: unknown subcommand '%s' "
			     "(expected import, run, fit, show)", argv[1]);
	if (!subcommands[i].cmd)
		return usage(cmd, "calibrate %s: not yet available", argv[1]);
	return subcommands[i].cmd->run(subcommands[i].cmd, argc - 1, argv + 1);
}
