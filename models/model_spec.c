/*
 * model_spec.c -- the keys of a parameterised model string,
 * "NAME:key=value,key=value" (gpt:layers=2,hidden=64,...,
 * resnet:depth=50,width=2, gpt3-175b:seq=1024).
 *
 * The family (model_zoo.c) says which keys it takes, each a whole number
 * with a range; this file splits the text at commas and '=' and checks
 * each pair.  Every failure is one line that names the whole string and
 * the key, so a typo in a sweep of many strings is found at once:
 *   model 'gpt:layerz=2': unknown key 'layerz' (gpt takes layers, ...)
 *   model 'gpt:layers=2': missing key 'hidden'
 *   model 'gpt:layers=x': key 'layers' must be a positive integer (got 'x')
 *   model 'gpt:layers=5000': key 'layers' is too large (got '5000', at
 *     most 1024)
 * Values go through core_parse_count(), the one integer parser of the
 * command line, so "2abc", "1e3", "-1" and "0x10" are refused alike.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "core/core.h"
#include "core/banned.h"

/* The longest key=value pair read; longer is refused, not cut. */
#define PAIR_LEN 64

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

static int key_index(const struct model_key *keys, const char *name)
{
	int i;

	for (i = 0; keys[i].name; i++)
		if (strcmp(keys[i].name, name) == 0)
			return i;
	return -1;
}

/* "layers, hidden, heads" into buf. */
static void key_list(const struct model_key *keys, char *buf, size_t n)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; keys[i].name && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%s",
					 i ? ", " : "", keys[i].name);
}

/* One "key=value" pair of len bytes at p. */
static int parse_pair(const char *spec, const char *p, size_t len,
		      const struct model_key *keys, struct model_args *a,
		      unsigned *seen, struct dlsim_err *err)
{
	char pair[PAIR_LEN], what[DLSIM_ERR_LEN / 2], list[96];
	const struct model_key *k;
	char *eq;
	int i, rc;

	if (len >= sizeof(pair))
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': key=value "
				     "pair too long", spec);
	memcpy(pair, p, len);
	pair[len] = '\0';
	eq = strchr(pair, '=');
	if (!eq || eq == pair)
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': expected "
				     "key=value (got '%s')", spec, pair);
	*eq = '\0';
	i = key_index(keys, pair);
	if (i < 0) {
		key_list(keys, list, sizeof(list));
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': unknown "
				     "key '%s' (takes %s)", spec, pair, list);
	}
	if (*seen & (1u << i))
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': key '%s' "
				     "given twice", spec, pair);
	*seen |= 1u << i;
	k = &keys[i];
	snprintf(what, sizeof(what), "model '%s': key '%s'", spec, k->name);
	rc = core_parse_count(eq + 1, k->max, &a->v[i], err, what);
	if (rc)
		return rc;
	if (a->v[i] < k->min)
		return dlsim_err_set(err, DLSIM_ERANGE, "%s must be at least "
				     "%lld (got %s)", what, (long long)k->min,
				     eq + 1);
	return DLSIM_OK;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int model_args_parse(const char *spec, const char *text,
		     const struct model_key *keys, struct model_args *a,
		     struct dlsim_err *err)
{
	unsigned seen = 0;
	const char *p = text;
	int rc;

	if (!text || !*text)
		return DLSIM_OK;
	for (;;) {
		size_t len = strcspn(p, ",");

		rc = parse_pair(spec, p, len, keys, a, &seen, err);
		if (rc)
			return rc;
		if (!p[len])
			return DLSIM_OK;
		p += len + 1;
	}
}

int model_args_check_required(const char *spec,
			      const struct model_key *keys,
			      const struct model_args *a,
			      struct dlsim_err *err)
{
	int i;

	for (i = 0; keys[i].name; i++)
		if (keys[i].required && a->v[i] == 0)
			return dlsim_err_set(err, DLSIM_EINVAL, "model '%s': "
					     "missing key '%s'", spec,
					     keys[i].name);
	return DLSIM_OK;
}
