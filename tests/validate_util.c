/*
 * validate_util.c -- what the validate suites share (validate_util.h).
 */
#include <string.h>

#include "tests.h"
#include "validate_util.h"

const struct cal_val_set_def val_user_def = {
	"mine", "t.csv", "t", "", cal_val_row_user, 0, cal_val_user_head
};

int val_run_user(const char *text, struct cal_val_set *out,
		 struct dlsim_err *err)
{
	struct hw_catalog *cat = NULL;
	int rc;

	ck_assert_int_eq(hw_catalog_load(NULL, &cat, err), DLSIM_OK);
	rc = cal_val_run_text(&val_user_def, "t.csv", text, strlen(text), cat,
			      NULL, out, err);
	hw_catalog_free(cat);
	return rc;
}

int val_has_reason(const struct cal_val_set *s, const char *needle,
		   int64_t n)
{
	int i;

	for (i = 0; i < s->n_reasons; i++)
		if (strstr(s->reason[i].why, needle) && s->reason[i].n == n)
			return 1;
	return 0;
}
