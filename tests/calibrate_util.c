/*
 * calibrate_util.c -- helpers of the importer test suites
 * (test_calibrate.c, test_calibrate_refusals.c): a parse of text held
 * in memory, as the made-up tables of both are.
 */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "calibrate_util.h"

int parse_text(enum cal_format f, const char *text, int64_t max,
	       struct db_sample **s, int64_t *n, struct dlsim_err *err)
{
	size_t len = strlen(text);
	char *copy = malloc(len + 1);
	int rc;

	ck_assert(copy != NULL);
	memcpy(copy, text, len + 1);
	rc = cal_parse_text(f, "mem.txt", copy, len, max, s, n, err);
	free(copy);
	return rc;
}
