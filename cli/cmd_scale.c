/*
 * cmd_scale.c -- `dlsim scale MODEL --hw H[,H...] --devices N,N,...`:
 * one prediction per device (or node) count, with speedup, efficiency and
 * the communication fraction, as a table and optionally a plot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/core.h"
#include "core/banned.h"

#define SCALE_MAX_HW 16
#define SCALE_MAX_COUNTS 64

static const struct cli_option options[] = {
	{ "hw", "H[,H...]", CLI_STRING,
	  "devices or nodes to sweep, comma-separated (required)" },
	{ "devices", "N,N,...", CLI_STRING,
	  "counts, increasing (nodes for a node); default 1,2,4,...,1024" },
	{ "strong", NULL, CLI_FLAG, "fixed --global-batch over all devices" },
	{ "weak", NULL, CLI_FLAG, "fixed --batch per device (the default)" },
	CLI_SIM_OPTIONS,
	{ "dispatch-us", "US", CLI_NONNEG, "the software stack's host time "
	  "per kernel launch, launches queued (predict's; default 0)" },
	{ "seq-lengths", "CSV", CLI_STRING,
	  "sequences of many lengths (predict's histogram): each point the "
	  "data-parallel step over the bins" },
	{ "seq-bin", "W", CLI_COUNT,
	  "with --seq-lengths: tokens a bin spans (default 64, LDDL's)" },
	CLI_CALIB_OPTIONS,
	{ "format", "F", CLI_STRING, "table, csv, json (default table)" },
	{ "plot", "FILE", CLI_STRING,
	  "draw FILE.png or FILE.svg with gnuplot (and FILE.dat, FILE.gp)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

const struct cli_command cli_scale = {
	"scale", "MODEL --hw H[,H...] [--devices N,...] [OPTIONS]",
	"Sweep device counts and report speedup and parallel efficiency.",
	1, 1, options, cmd_scale
};

static int parse_counts(const char *arg, int64_t *counts, int *n,
			struct dlsim_err *err)
{
	char buf[1024], *piece[SCALE_MAX_COUNTS];
	int i;

	if (!arg) {
		for (*n = 0; *n < 11; (*n)++)
			counts[*n] = (int64_t)1 << *n;
		return DLSIM_OK;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	if ((*n = cli_split(buf, piece, SCALE_MAX_COUNTS, "--devices",
			    err)) < 0)
		return err->code;
	for (i = 0; i < *n; i++) {
		if (dlsim_parse_count(piece[i], 100000000, &counts[i],
				      "each --devices entry", err))
			return err->code;
		if (i && counts[i] <= counts[i - 1])
			return dlsim_err_set(err, DLSIM_EINVAL, "--devices "
					     "must increase (%s after %lld)",
					     piece[i],
					     (long long)counts[i - 1]);
	}
	return DLSIM_OK;
}

/* What every point is predicted for: the model, or with bins the model
 * string rebuilt at each bin (sim_binned_result). */
struct scale_model {
	const struct model *m;
	const char *arg;
	const struct model_seq_bins *bins;   /* NULL: one length */
};

/* Predict one point: resolve NAMExCOUNT, predict, keep the result. */
static int point(struct cli_calib_src *src, struct hw_catalog *cat,
		 const struct scale_model *sm, const char *hw, int64_t count,
		 const struct sim_options *o, struct sim_scale_point *p,
		 struct dlsim_err *err)
{
	struct cli_system *cs = malloc(sizeof(*cs));
	int rc;

	if (!cs)
		return dlsim_err_set(err, DLSIM_ENOMEM, "out of memory");

	memset(p, 0, sizeof(*p));
	snprintf(p->series, sizeof(p->series), "%s", hw);
	if (count == 1)
		snprintf(p->spec, sizeof(p->spec), "%s", hw);
	else
		snprintf(p->spec, sizeof(p->spec), "%sx%lld", hw,
			 (long long)count);
	if (!(rc = cli_system_resolve(src, cat, p->spec, cs, err)) &&
	    !(rc = sm->bins ? sim_binned_result(sm->arg, &cs->sys, o,
						 sm->bins, &p->r, err) :
		   sim_predict(sm->m, &cs->sys, o, &p->r, err)))
		p->nodes = cs->sys.n_nodes;
	free(cs);
	return rc;
}

/* Series are device or node names, each once: a count is appended to
 * them, which a file path or a count (v100x8) cannot take. */
static int check_series(struct hw_catalog *cat, char **hw, int n,
			struct dlsim_err *err)
{
	struct hw_system s;
	int i, j;

	for (i = 0; i < n; i++) {
		size_t len = strlen(hw[i]);

		if (strchr(hw[i], '/') ||
		    (len > 5 && strcmp(hw[i] + len - 5, ".yaml") == 0) ||
		    (len > 4 && strcmp(hw[i] + len - 4, ".yml") == 0))
			return dlsim_err_set(err, DLSIM_EINVAL, "scale: --hw "
					     "takes device or node names, not "
					     "files ('%s')", hw[i]);
		/* "local", this machine, is a name cli_system_resolve knows */
		if (strcmp(hw[i], "local") != 0 &&
		    !hw_device_find(cat, hw[i]) && !hw_node_find(cat, hw[i])) {
			if (hw_system_resolve(cat, hw[i], &s, err))
				return err->code;
			return dlsim_err_set(err, DLSIM_EINVAL, "scale: --hw "
					     "takes device or node names, and "
					     "'%s' has a count: give its name "
					     "and the counts in --devices",
					     hw[i]);
		}
		for (j = 0; j < i; j++)
			if (strcmp(hw[i], hw[j]) == 0)
				return dlsim_err_set(err, DLSIM_EINVAL,
						     "scale: --hw names '%s' "
						     "twice", hw[i]);
	}
	return DLSIM_OK;
}

static int mode_of(const struct cli_command *cmd, const struct cli_values *v,
		   const struct sim_options *o, const char **mode,
		   struct dlsim_err *err)
{
	int strong = v->set[cli_opt(cmd, "strong")];
	int weak = v->set[cli_opt(cmd, "weak")];

	if (strong && weak)
		return dlsim_err_set(err, DLSIM_EINVAL, "--strong and --weak "
				     "exclude each other");
	if (strong && !o->global_batch)
		return dlsim_err_set(err, DLSIM_EINVAL, "--strong needs "
				     "--global-batch");
	if (weak && o->global_batch)
		return dlsim_err_set(err, DLSIM_EINVAL, "--weak keeps the "
				     "batch per device: use --batch");
	*mode = o->global_batch ? "strong" : "weak";
	return DLSIM_OK;
}

static int sweep(const struct cli_command *cmd, struct cli_values *v,
		 struct cli_calib_src *src,
		 struct hw_catalog *cat, const struct scale_model *sm,
		 struct sim_scale_point *pts, int *n, const char **mode,
		 struct dlsim_err *err)
{
	char hwbuf[1024], *hw[SCALE_MAX_HW];
	int64_t counts[SCALE_MAX_COUNTS];
	struct sim_options o;
	int n_hw, n_counts, i, j, rc;

	if ((rc = cli_sim_options(cmd, v, &o, err)) ||
	    (rc = cli_dispatch_s(cmd, v, &o.dispatch_s, err)) ||
	    (rc = mode_of(cmd, v, &o, mode, err)) ||
	    (rc = parse_counts(v->str[cli_opt(cmd, "devices")], counts,
			       &n_counts, err)))
		return rc;
	snprintf(hwbuf, sizeof(hwbuf), "%s", v->str[cli_opt(cmd, "hw")]);
	if ((n_hw = cli_split(hwbuf, hw, SCALE_MAX_HW, "--hw", err)) < 0)
		return err->code;
	if ((rc = check_series(cat, hw, n_hw, err)))
		return rc;
	*n = 0;
	for (i = 0; i < n_hw; i++)
		for (j = 0; j < n_counts; j++) {
			rc = point(src, cat, sm, hw[i], counts[j], &o,
				   &pts[*n], err);
			if (rc)
				return rc;
			(*n)++;
		}
	sim_scaling(pts, *n);
	return DLSIM_OK;
}

static int plot(const struct cli_command *cmd, const struct cli_values *v,
		const struct model *m, const char *mode,
		const struct model_seq_bins *bins,
		const struct sim_scale_point *pts, int n,
		struct dlsim_err *err)
{
	const char *image = v->str[cli_opt(cmd, "plot")];
	int ran, rc = report_scaling_plot(image, m, mode, bins, pts, n, &ran,
					  err);

	if (!rc && !ran)
		fprintf(stderr, "dlsim: %s: warning: gnuplot not found; wrote "
			"the data and script beside %s (run gnuplot on the "
			".gp)\n", cmd->name, image);
	return rc;
}

/* --plot's image, .dat or .gp over the model or the database. */
static int check_outputs(const struct cli_command *cmd,
			 const struct cli_values *v, struct dlsim_err *err)
{
	const char *model = v->positional[0];
	const struct cli_input in = {
		core_is_yaml_path(model) ? model : NULL,
		"the model file (MODEL)"
	};

	return cli_outputs_check(cmd, v, &in, 1, err);
}

int cmd_scale(const struct cli_command *cmd, int argc, char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct model *m = NULL;
	struct sim_scale_point *pts;
	struct model_seq_bins *bins = NULL;
	struct scale_model sm;
	struct cli_values v;
	struct cli_calib_src src = { NULL };
	enum report_format fmt;
	const char *mode = "weak";
	int rc = cli_parse(cmd, argc, argv, &v), n = 0, i;

	if (rc >= 0)
		return rc;
	if (!v.set[cli_opt(cmd, "hw")]) {
		dlsim_err_set(&err, DLSIM_EINVAL, "scale: --hw is required");
		return cli_fail(cmd, &err);
	}
	if (cli_format(cmd, &v, &fmt, &err) || check_outputs(cmd, &v, &err))
		return cli_fail(cmd, &err);
	pts = calloc(SCALE_MAX_HW * SCALE_MAX_COUNTS, sizeof(*pts));
	if (!pts) {
		dlsim_err_set(&err, DLSIM_ENOMEM, "out of memory");
		return cli_fail(cmd, &err);
	}
	if ((rc = cli_catalog(cmd, &cat)) >= 0) {
		free(pts);
		return rc;
	}
	sm.arg = v.positional[0];
	rc = model_resolve(v.positional[0], &m, &err) ||
	     cli_seq_bins(cmd, &v, sm.arg, &bins, &err) ||
	     cli_calib_open(cmd, &v, 0, &src, &err);
	sm.m = m;
	sm.bins = bins;
	if (rc ||
	    sweep(cmd, &v, &src, cat, &sm, pts, &n, &mode, &err) ||
	    (v.set[cli_opt(cmd, "plot")] &&
	     plot(cmd, &v, m, mode, bins, pts, n, &err)) ||
	    report_scaling(stdout, fmt, m, mode, bins, pts, n, &err))
		rc = cli_fail(cmd, &err);
	else
		rc = cli_finish(cmd, CLI_OK);
	cli_calib_close(&src);
	for (i = 0; i < n; i++)
		sim_result_release(&pts[i].r);
	free(pts);
	free(bins);
	model_free(m);
	hw_catalog_free(cat);
	return rc;
}
