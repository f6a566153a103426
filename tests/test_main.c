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

#include "tests.h"

struct suite_entry {
	const char *name;
	Suite *(*make)(void);
};

static const struct suite_entry suites[] = {
	{ "core", suite_core },
	{ "model_layer", suite_model_layer },
	{ "model_build", suite_model_build },
	{ "model_zoo", suite_model_zoo },
	{ "model_yaml", suite_model_yaml },
	{ "hw", suite_hw },
	{ "catalog", suite_catalog },
	{ "calibrate", suite_calibrate },
	{ "fit", suite_fit },
	{ "sim", suite_sim },
	{ "collective", suite_collective },
	{ "report", suite_report },
	{ "cli", suite_cli },
	{ "cli_sweep", suite_cli_sweep },
	{ "db", suite_db },
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

int main(int argc, char **argv)
{
	SRunner *sr = NULL;
	int i, failed;

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
