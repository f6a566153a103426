/*
 * test_main.c -- runs every suite, or the ones named on the command line.
 *
 *   build/test_dlsim            all suites
 *   build/test_dlsim sim hw     just these
 *
 * The CLI suite runs the real binary named by $DLSIM_BIN (the Makefile
 * sets it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"

struct suite_entry {
	const char *name;
	Suite *(*make)(void);
};

static const struct suite_entry suites[] = {
	{ "core", suite_core },
	{ "model_layer", suite_model_layer },
	{ "model_kernel", suite_model_kernel },
	{ "model_build", suite_model_build },
	{ "model_zoo", suite_model_zoo },
	{ "model_yaml", suite_model_yaml },
	{ "model_transformer", suite_model_transformer },
	{ "model_eager", suite_model_eager },
	{ "model_spec", suite_model_spec },
	{ "model_rnn", suite_model_rnn },
	{ "model_seqhist", suite_model_seqhist },
	{ "hw", suite_hw },
	{ "hw_fields", suite_hw_fields },
	{ "hw_resolve", suite_hw_resolve },
	{ "catalog", suite_catalog },
	{ "catalog_files", suite_catalog_files },
	{ "calibrate", suite_calibrate },
	{ "calibrate_import", suite_calibrate_import },
	{ "calibrate_refusals", suite_calibrate_refusals },
	{ "fit", suite_fit },
	{ "calfit", suite_calfit },
	{ "calfit_conv", suite_calfit_conv },
	{ "gemm_align", suite_gemm_align },
	{ "conv_align", suite_conv_align },
	{ "calrnn", suite_calrnn },
	{ "calrun", suite_calrun },
	{ "sim", suite_sim },
	{ "sim_step", suite_sim_step },
	{ "sim_fuse", suite_sim_fuse },
	{ "sim_optimizer", suite_sim_optimizer },
	{ "sim_host", suite_sim_host },
	{ "sim_zero_offload", suite_sim_zero_offload },
	{ "sim_autocast", suite_sim_autocast },
	{ "collective", suite_collective },
	{ "topology", suite_topology },
	{ "collective_catalog", suite_collective_catalog },
	{ "report", suite_report },
	{ "cli", suite_cli },
	{ "cli_strategy", suite_cli_strategy },
	{ "cli_sweep", suite_cli_sweep },
	{ "cli_seqlen", suite_cli_seqlen },
	{ "cli_clobber", suite_cli_clobber },
	{ "db", suite_db },
	{ "db_schema", suite_db_schema },
	{ "db_cli", suite_db_cli },
	{ "hwcalib", suite_hwcalib },
	{ "hwcalib_sim", suite_hwcalib_sim },
	{ "hwcalib_cli", suite_hwcalib_cli },
	{ "seed", suite_seed },
	{ "parallel", suite_parallel },
	{ "validate", suite_validate },
	{ "validate_cli", suite_validate_cli },
	{ "validate_user", suite_validate_user },
	{ "validate_user_file", suite_validate_user_file },
	{ "validate_text", suite_validate_text },
};

#define N_SUITES ((int)(sizeof(suites) / sizeof(suites[0])))

static int wanted(int argc, char **argv, const char *name)
{
	int i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

/*
 * No test may touch the user's database: point $DLSIM_DB and
 * $XDG_DATA_HOME at a scratch directory for the whole run (tests that
 * want their own database still pass --db or set DLSIM_DB).
 */
static char scratch[] = "/tmp/dlsim-tests-XXXXXX";
static pid_t runner;   /* Check forks each test; only the runner cleans */

static void isolate_database(void)
{
	char db[64];

	runner = getpid();
	if (!mkdtemp(scratch))
		return;
	snprintf(db, sizeof(db), "%s/default.db", scratch);
	setenv("DLSIM_DB", db, 1);
	setenv("XDG_DATA_HOME", scratch, 1);
}

static void remove_scratch(void)
{
	char db[96];
	const char *const tails[] = { "", "-wal", "-shm" };
	int i;

	if (getpid() != runner)
		return;
	for (i = 0; i < 3; i++) {
		snprintf(db, sizeof(db), "%s/default.db%s", scratch, tails[i]);
		unlink(db);
	}
	snprintf(db, sizeof(db), "%s/dlsim", scratch);
	rmdir(db);
	rmdir(scratch);
}

int main(int argc, char **argv)
{
	SRunner *sr = NULL;
	int i, failed;

	isolate_database();
	atexit(remove_scratch);
	for (i = 0; i < N_SUITES; i++) {
		if (!wanted(argc, argv, suites[i].name))
			continue;
		if (!sr)
			sr = srunner_create(suites[i].make());
		else
			srunner_add_suite(sr, suites[i].make());
	}
	if (!sr) {
		fprintf(stderr, "test_dlsim: no such suite\n");
		return 2;
	}
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
