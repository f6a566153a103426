/*
 * validate_util.c -- what the validate suites share (validate_util.h).
 */
#include <string.h>

#include "validate_util.h"

int val_has_reason(const struct cal_val_set *s, const char *needle,
		   int64_t n)
{
	int i;

	for (i = 0; i < s->n_reasons; i++)
		if (strstr(s->reason[i].why, needle) && s->reason[i].n == n)
			return 1;
	return 0;
}
