/*
 * cmd_comm.c -- `dlsim comm COLLECTIVE --hw HW`: the predicted time,
 * algorithm bandwidth and bus bandwidth of one collective at each message
 * size of a sweep, in nccl-tests' conventions, as a table, CSV, JSON or a
 * gnuplot figure.
 *
 * SIZES
 * --sizes FROM:TO[:FACTOR] as nccl-tests' -b FROM -e TO -f FACTOR: FROM,
 * FROM x FACTOR, FROM x FACTOR^2, ... up to TO, FACTOR 2 by default, each
 * rounded to whole bytes (sizes that round to the one before are left
 * out).  A single SIZE is one size.  Sizes take binary suffixes K, M, G,
 * T (K = 1024, as nccl-tests' parsesize), case-insensitive.  A sweep has
 * at most COMM_MAX_SIZES sizes and no size above COMM_MAX_BYTES: bounds
 * on user input, so that a typo fails instead of running for hours.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/core.h"
#include "core/banned.h"

#define COMM_MAX_SIZES 4096
#define COMM_MAX_BYTES ((uint64_t)1 << 50)   /* 1 PiB */
#define COMM_DEFAULT_SIZES "8:1G"

/* ---------------------------------------------------------------- */
/* Types                                                             */
/* ---------------------------------------------------------------- */

static const struct cli_option options[] = {
	{ "hw", "HW", CLI_STRING,
	  "system: DEVICE, DEVICExN, NODExN or FILE.yaml (required)" },
	{ "sizes", "FROM:TO[:F]", CLI_STRING,
	  "bytes, FROM to TO by factor F; K = 1024 (default 8:1G:2)" },
	{ "algo", "A", CLI_STRING, "auto (default: the cheapest), ring, "
	  "tree, halving-doubling, ..." },
	CLI_CALIB_OPTIONS,
	{ "format", "F", CLI_STRING, "table, csv, json (default table)" },
	{ "plot", "FILE", CLI_STRING, "also plot busbw against size with "
	  "gnuplot (.png or .svg)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

const struct cli_command cli_comm = {
	"comm", "COLLECTIVE --hw HW [OPTIONS]",
	"Predict a collective's time and bandwidth over message sizes.",
	1, 1, options, cmd_comm
};

/* What the command line asks for. */
struct comm_request {
	enum sim_collective collective;
	enum sim_algo algo;
	enum report_format fmt;
	const char *hw;
	const char *plot;       /* NULL: no plot */
	double *bytes;          /* n sizes, heap */
	int n;
};

/* ---------------------------------------------------------------- */
/* Private helpers                                                   */
/* ---------------------------------------------------------------- */

/* One size: digits, then at most one of K, M, G, T (binary). */
static int parse_size(const char *s, double *out, struct dlsim_err *err)
{
	static const char suffix[] = "KkMmGgTt";
	const char *p = s, *k;
	uint64_t v = 0;
	int shift = 0;

	/* saturate above the limit: no overflow, and the message below */
	for (; isdigit((unsigned char)*p); p++)
		if (v <= COMM_MAX_BYTES)
			v = v * 10 + (uint64_t)(*p - '0');
	if (*p && (k = strchr(suffix, *p)) && p[1] == '\0') {
		shift = 10 * (1 + (int)(k - suffix) / 2);
		p++;
	}
	if (p == s || *p || !isdigit((unsigned char)s[0]))
		return dlsim_err_set(err, DLSIM_EINVAL, "comm: --sizes: bad "
				     "size '%s' (expected bytes with an "
				     "optional K, M, G or T, as 64M)", s);
	if (v == 0)
		return dlsim_err_set(err, DLSIM_EINVAL, "comm: --sizes: bad "
				     "size '%s' (must be at least 1 byte)", s);
	if (v > COMM_MAX_BYTES >> shift)
		return dlsim_err_set(err, DLSIM_EINVAL, "comm: --sizes: bad "
				     "size '%s' (above the limit, 1024T)", s);
	*out = (double)(v << shift);
	return DLSIM_OK;
}

/* Split spec at ':' into at most 3 parts in buf; returns how many, or
 * 0 if there are more or one is empty. */
static int split_sizes(const char *spec, char *buf, size_t n,
		       const char *part[3])
{
	int k = 0;
	char *p;

	if (snprintf(buf, n, "%s", spec) >= (int)n)
		return 0;
	for (p = buf; k < 3; k++) {
		char *colon = strchr(p, ':');

		part[k] = p;
		if (!colon)
			return *p ? k + 1 : 0;
		*colon = '\0';
		if (!*p)
			return 0;
		p = colon + 1;
	}
	return 0;
}

/* The sweep FROM:TO:FACTOR into r->bytes (heap). */
static int parse_sizes(const char *spec, struct comm_request *r,
		       struct dlsim_err *err)
{
	const char *part[3];
	char buf[128];
	double from, to, factor = 2.0, count;
	int k, n = split_sizes(spec, buf, sizeof(buf), part);

	if (n == 0)
		return dlsim_err_set(err, DLSIM_EINVAL, "comm: --sizes: "
				     "expected FROM:TO[:FACTOR] or SIZE "
				     "(got '%s')", spec);
	if (parse_size(part[0], &from, err) ||
	    parse_size(part[n > 1], &to, err))
		return DLSIM_EINVAL;
	if (from > to)
		return dlsim_err_set(err, DLSIM_EINVAL, "comm: --sizes: FROM "
				     "'%s' is larger than TO '%s'", part[0],
				     part[1]);
	if (n == 3 && dlsim_parse_number(part[2], &factor,
					 "comm: --sizes: the factor", err))
		return DLSIM_EINVAL;
	if (!(factor > 1.0))
		return dlsim_err_set(err, DLSIM_EINVAL, "comm: --sizes: the "
				     "factor must be greater than 1 (got "
				     "'%s')", part[2]);
	/* how many FROM x FACTOR^k fit under TO; the slack keeps an exact
	 * power (8:1G:2) from losing its last size to rounding */
	count = floor(log(to / from) / log(factor) * (1.0 + 1e-12) + 1e-9) +
		1.0;
	if (count > COMM_MAX_SIZES)
		return dlsim_err_set(err, DLSIM_EINVAL, "comm: --sizes: '%s' "
				     "gives %.0f sizes, more than %d", spec,
				     count, COMM_MAX_SIZES);
	r->bytes = malloc((size_t)count * sizeof(*r->bytes));
	if (!r->bytes)
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");
	for (k = 0, r->n = 0; k < (int)count; k++) {
		double b = fmin(nearbyint(from * pow(factor, k)), to);

		if (r->n == 0 || b > r->bytes[r->n - 1])
			r->bytes[r->n++] = b;
	}
	return DLSIM_OK;
}

/* Turn the parsed values into a request; 0 or an error code. */
static int request_from(const struct cli_command *cmd,
			const struct cli_values *v, struct comm_request *r,
			struct dlsim_err *err)
{
	struct cli_input in = { NULL, "the hardware file (--hw)" };
	int i, rc;

	memset(r, 0, sizeof(*r));
	r->algo = SIM_ALGO_AUTO;
	r->fmt = REPORT_TABLE;
	if ((rc = sim_collective_parse(v->positional[0], &r->collective,
				       err)))
		return rc;
	if (!v->set[i = cli_opt(cmd, "hw")])
		return dlsim_err_set(err, DLSIM_EINVAL,
				     "comm: --hw is required");
	r->hw = v->str[i];
	if (v->set[i = cli_opt(cmd, "algo")] &&
	    (rc = sim_algo_parse(v->str[i], &r->algo, err)))
		return rc;
	if (v->set[i = cli_opt(cmd, "format")] &&
	    (rc = report_format_parse(v->str[i], &r->fmt, err)))
		return rc;
	if (v->set[i = cli_opt(cmd, "plot")] &&
	    (rc = report_plot_check(r->plot = v->str[i], err)))
		return rc;
	/* the plot's files over the --hw file or the database */
	in.path = core_is_yaml_path(r->hw) ? r->hw : NULL;
	if ((rc = cli_outputs_check(cmd, v, &in, 1, err)))
		return rc;
	i = cli_opt(cmd, "sizes");
	return parse_sizes(v->set[i] ? v->str[i] : COMM_DEFAULT_SIZES, r,
			   err);
}

/* Cost every size; the first size the library refuses stops it. */
static int sweep(const struct hw_system *s, const struct comm_request *r,
		 struct sim_comm_result *res, struct dlsim_err *err)
{
	int i, rc;

	for (i = 0; i < r->n; i++)
		if ((rc = sim_collective_time(s, r->collective, r->bytes[i],
					      r->algo, &res[i], err)))
			return rc;
	return DLSIM_OK;
}

/* Draw the plot; a missing gnuplot is a warning, not a failure. */
static int plot(const char *image, const struct report_comm_sweep *sw,
		struct dlsim_err *err)
{
	struct report_plot p;
	int rc = report_comm_plot(image, sw, &p, err);

	if (!rc && !p.drawn)
		fprintf(stderr, "dlsim: comm: warning: gnuplot not found; wrote %s "
			"and %s\n", p.dat, p.gp);
	return rc;
}

/* ---------------------------------------------------------------- */
/* Public API                                                        */
/* ---------------------------------------------------------------- */

int cmd_comm(const struct cli_command *cmd, int argc, char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct sim_comm_result *res = NULL;
	struct report_comm_sweep sw;
	struct comm_request r;
	struct cli_system *cs = NULL;
	struct cli_calib_src src = { NULL };
	struct cli_values v;
	int rc = cli_parse(cmd, argc, argv, &v);

	if (rc >= 0)
		return rc;
	if (request_from(cmd, &v, &r, &err)) {
		rc = cli_fail(cmd, &err);
		goto cleanup;
	}
	if ((rc = cli_catalog(cmd, &cat)) >= 0)
		goto cleanup;
	res = calloc((size_t)r.n, sizeof(*res));
	cs = malloc(sizeof(*cs));
	if (!res || !cs)
		dlsim_err_set(&err, DLSIM_ENOMEM, "out of memory");
	else
		sw = (struct report_comm_sweep){ &cs->sys, r.collective,
						 r.algo, r.n, r.bytes, res };
	if (!res || !cs || cli_calib_open(cmd, &v, 0, &src, &err) ||
	    cli_system_resolve(&src, cat, r.hw, cs, &err) ||
	    sweep(&cs->sys, &r, res, &err) ||
	    (r.plot && plot(r.plot, &sw, &err)) ||
	    report_comm(stdout, r.fmt, &sw, &err))
		rc = cli_fail(cmd, &err);
	else
		rc = cli_finish(cmd, CLI_OK);
cleanup:
	cli_calib_close(&src);
	free(cs);
	free(res);
	free(r.bytes);
	hw_catalog_free(cat);
	return rc;
}
