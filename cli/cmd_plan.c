/*
 * cmd_plan.c -- `dlsim plan MODEL --hw HW[,HW...] --global-batch N`:
 * every data, tensor and pipeline split of a transformer over each
 * candidate system (sim_plan), the best K of each, and with several
 * systems which one wins.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/banned.h"

#define PLAN_MAX_HW 16
#define PLAN_MAX_SPECS 256

static const struct cli_option options[] = {
	{ "hw", "HW[,HW...]", CLI_STRING,
	  "candidate systems, e.g. a100x1024,h100x512 (required)" },
	{ "global-batch", "N", CLI_COUNT, "sequences per step (required)" },
	{ "top", "K", CLI_COUNT, "strategies to show per system (default "
	  "10)" },
	{ "objective", "O", CLI_STRING, "time, cost or energy (default "
	  "time)" },
	{ "max-micro-batch", "N", CLI_COUNT,
	  "largest micro-batch to try (default: every divisor)" },
	{ "max-devices", "N", CLI_COUNT,
	  "plan each --hw device or node at every count of whole nodes, "
	  "doubling, up to N" },
	{ "tp-across-nodes", NULL, CLI_FLAG,
	  "let tensor parallelism span nodes" },
	{ "dispatch-us", "US", CLI_NONNEG, "the software stack's host time "
	  "per kernel launch, launches queued (predict's; default 0)" },
	{ "precision", "P", CLI_STRING,
	  "auto, fp64, fp32, tf32, fp16, bf16, fp8 (default auto)" },
	{ "optimizer", "O", CLI_STRING, "sgd, momentum, adam, lamb (default adam)" },
	{ "optimizer-foreach", NULL, CLI_FLAG, "run the optimizer as "
	  "torch.optim's default foreach kernels (predict's)" },
	{ "autocast", NULL, CLI_FLAG, "fp16 or bf16 as torch.autocast runs "
	  "it (predict's)" },
	{ "update-on", "WHERE", CLI_STRING, "device, or host: every strategy "
	  "with ZeRO-Offload, the optimizer on the host CPUs (predict's; "
	  "default device)" },
	{ "seq-lengths", "CSV", CLI_STRING,
	  "sequences of many lengths (predict's histogram): each strategy "
	  "costed at every bin and ranked by the mix" },
	{ "seq-bin", "W", CLI_COUNT,
	  "with --seq-lengths: tokens a bin spans (default 64, LDDL's)" },
	CLI_CALIB_OPTIONS,
	{ "format", "F", CLI_STRING, "table, csv, json (default table)" },
	{ "help", NULL, CLI_FLAG, "this text" },
	{ NULL, NULL, CLI_FLAG, NULL }
};

const struct cli_command cli_plan = {
	"plan", "MODEL --hw HW[,HW...] --global-batch N [OPTIONS]",
	"Search every parallel strategy for a transformer and rank them.",
	1, 1, options, cmd_plan
};

struct plan_args {
	struct sim_plan_options po;
	enum dlsim_precision precision;
	int precision_auto;
	enum sim_optimizer optimizer;
	enum report_format fmt;
	const char *model_arg;              /* as given, for the bins */
	const struct model_seq_bins *bins;  /* --seq-lengths; NULL: none */
};

static int args_from(const struct cli_command *cmd, const struct cli_values *v,
		     struct plan_args *a, struct dlsim_err *err)
{
	int i, rc = DLSIM_OK;

	sim_plan_options_init(&a->po);
	a->precision_auto = 1;
	a->optimizer = SIM_OPT_ADAM;
	if (!v->set[cli_opt(cmd, "hw")] ||
	    !v->set[i = cli_opt(cmd, "global-batch")])
		return dlsim_err_set(err, DLSIM_EINVAL, "plan: --hw and "
				     "--global-batch are required");
	a->po.global_batch = v->count[i];
	if (a->po.global_batch > MODEL_MAX_BATCH)
		return dlsim_err_set(err, DLSIM_EINVAL, "--global-batch must "
				     "be at most %lld (got %lld)",
				     (long long)MODEL_MAX_BATCH,
				     (long long)a->po.global_batch);
	if (v->set[i = cli_opt(cmd, "top")]) {
		if (v->count[i] > 1000)
			return dlsim_err_set(err, DLSIM_EINVAL, "--top must be "
					     "at most 1000 (got %lld)",
					     (long long)v->count[i]);
		a->po.top_k = (int)v->count[i];
	}
	if (v->set[i = cli_opt(cmd, "max-micro-batch")])
		a->po.max_micro_batch = v->count[i];
	a->po.tp_across_nodes = v->set[cli_opt(cmd, "tp-across-nodes")];
	a->po.optimizer_foreach = v->set[cli_opt(cmd, "optimizer-foreach")];
	a->po.autocast = v->set[cli_opt(cmd, "autocast")];
	if ((rc = cli_dispatch_s(cmd, v, &a->po.dispatch_s, err)) ||
	    (rc = cli_update_on(cmd, v, &a->po.update_on_host, err)))
		return rc;
	if (v->set[i = cli_opt(cmd, "objective")])
		rc = sim_objective_parse(v->str[i], &a->po.objective, err);
	if (!rc)
		rc = cli_precision(cmd, v, &a->precision, &a->precision_auto,
				   err);
	if (!rc && v->set[i = cli_opt(cmd, "optimizer")])
		rc = sim_optimizer_parse(v->str[i], &a->optimizer, err);
	if (!rc)
		rc = cli_format(cmd, v, &a->fmt, err);
	return rc;
}

/* One candidate system and its precision, or what it cannot plan with:
 * no peak at the precision, no host to update on.  Every candidate is
 * so checked before anything is printed (cmd_plan). */
static int plan_system(struct cli_calib_src *src, struct hw_catalog *cat,
		       const char *spec, const struct plan_args *a,
		       struct cli_system *cs, enum dlsim_precision *prec,
		       struct dlsim_err *err)
{
	int rc;

	if ((rc = cli_system_resolve(src, cat, spec, cs, err)))
		return rc;
	*prec = a->precision_auto ? hw_device_auto_precision(cs->sys.device) :
		a->precision;
	if (!hw_device_supports(cs->sys.device, *prec))
		return dlsim_err_set(err, DLSIM_EINVAL, "device '%s' has no "
				     "%s peak in the catalog",
				     cs->sys.device->name,
				     dlsim_precision_name(*prec));
	return a->po.update_on_host ? sim_host_present(&cs->sys, err) :
	       DLSIM_OK;
}

/*
 * What --objective needs of a candidate's device, before anything is
 * printed: energy its TDP; cost its catalog price, except that
 * candidates all of one device rank the same by device-seconds (the
 * price a constant factor), so there an unpriced device is ranked by
 * those.  *first is a copy of the first candidate's device (a system's
 * device may live in its struct cli_system, which the next candidate
 * reuses: "local"); have_first says whether it is set.
 */
static int objective_known(const struct hw_system *s, enum sim_objective o,
			   struct hw_device *first, int *have_first,
			   struct dlsim_err *err)
{
	const struct hw_device *d = s->device;

	if (!*have_first) {
		*first = *d;
		*have_first = 1;
	}
	if (o == SIM_OBJ_ENERGY && !(d->tdp_w > 0.0))
		return dlsim_err_set(err, DLSIM_EINVAL, "--objective energy: "
				     "device '%s' has no TDP in the catalog",
				     d->name);
	if (o != SIM_OBJ_COST)
		return DLSIM_OK;
	if (strcmp(d->name, first->name) != 0 &&
	    (!(d->price_usd > 0.0) || !(first->price_usd > 0.0)))
		return dlsim_err_set(err, DLSIM_EINVAL, "--objective cost: "
				     "device '%s' has no price in the catalog, "
				     "so '%s' and '%s' cannot be ranked by cost",
				     first->price_usd > 0.0 ? d->name :
				     first->name, first->name, d->name);
	return DLSIM_OK;
}

/* Plan one system and print it; its best's score into *best (HUGE_VAL
 * when nothing fits). */
static int plan_one(struct cli_calib_src *src, struct hw_catalog *cat,
		    const char *spec, const struct model *m,
		    const struct plan_args *a, int first, double *best,
		    struct dlsim_err *err)
{
	struct sim_plan_result p;
	struct cli_system cs;
	enum dlsim_precision prec;
	int rc;

	if ((rc = plan_system(src, cat, spec, a, &cs, &prec, err)))
		return rc;
	if ((rc = a->bins ? sim_plan_binned(a->model_arg, a->bins, &cs.sys,
					    prec, a->optimizer, &a->po, &p,
					    err) :
		  sim_plan(m, &cs.sys, prec, a->optimizer, &a->po, &p, err)))
		return rc;
	if (a->fmt == REPORT_JSON && !first)
		fputs(",\n", stdout);
	if (a->fmt == REPORT_TABLE && !first)
		fputc('\n', stdout);
	rc = report_plan(stdout, a->fmt, m, &cs.sys, &p, a->po.objective,
			 first || a->fmt != REPORT_CSV, err);
	*best = p.n_top ? sim_plan_score(&p.top[0], &cs.sys,
					 a->po.objective) : HUGE_VAL;
	sim_plan_release(&p);
	return rc;
}

/*
 * --max-devices N: each candidate becomes the systems of g, 2g, 4g, ...
 * up to N devices, g its node's devices (so every count fills whole
 * nodes): DEVICExC, or NODEx(C/g) for a node name, whose count is of
 * nodes; without it, the candidates as given.  Every system is resolved
 * here, before anything is printed.  specs point into buf.
 */
static int expand(struct cli_calib_src *src, struct hw_catalog *cat,
		  char **hw, int n_hw, int64_t max_devices, char *buf,
		  size_t n_buf, char **specs, struct dlsim_err *err)
{
	size_t used = 0;
	int i, n = 0;

	for (i = 0; i < n_hw; i++) {
		struct cli_system cs;
		int64_t c;

		if (!max_devices) {
			specs[n++] = hw[i];
			continue;
		}
		if (!hw_device_find(cat, hw[i]) && !hw_node_find(cat, hw[i]))
			return dlsim_err_set(err, DLSIM_EINVAL, "--max-devices "
					     "takes device or node names, not "
					     "counts or files ('%s')", hw[i]),
			       -1;
		if (cli_system_resolve(src, cat, hw[i], &cs, err))
			return -1;
		for (c = cs.sys.devices_per_node; c <= max_devices; c *= 2) {
			int64_t count = hw_node_find(cat, hw[i]) ?
					c / cs.sys.devices_per_node : c;
			struct hw_system check;
			struct dlsim_err why = { 0, "" };
			int w = snprintf(buf + used, n_buf - used, "%sx%lld",
					 hw[i], (long long)count);

			if (n == PLAN_MAX_SPECS || w < 0 ||
			    (size_t)w >= n_buf - used)
				return dlsim_err_set(err, DLSIM_EINVAL, "--max-"
						     "devices: too many "
						     "systems to plan"), -1;
			if (hw_system_resolve(cat, buf + used, &check, &why))
				return dlsim_err_set(err, DLSIM_EINVAL,
						     "--max-devices %lld: %lld "
						     "devices of '%s' is more "
						     "than a system can have",
						     (long long)max_devices,
						     (long long)c, hw[i]), -1;
			specs[n++] = buf + used;
			used += (size_t)w + 1;
		}
		if (c == cs.sys.devices_per_node)
			return dlsim_err_set(err, DLSIM_EINVAL, "--max-devices "
					     "%lld is less than one node of "
					     "'%s' (%lld devices)",
					     (long long)max_devices, hw[i],
					     (long long)cs.sys.devices_per_node),
			       -1;
	}
	return n;
}

int cmd_plan(const struct cli_command *cmd, int argc, char **argv)
{
	struct dlsim_err err = { 0, "" };
	struct hw_catalog *cat = NULL;
	struct model *m = NULL;
	struct cli_calib_src src = { NULL };
	struct cli_values v;
	struct plan_args a;
	struct model_seq_bins *bins = NULL;
	char hwbuf[1024], *hw[PLAN_MAX_HW], specbuf[8192];
	char *spec[PLAN_MAX_SPECS];
	double score[PLAN_MAX_SPECS];
	int rc = cli_parse(cmd, argc, argv, &v), n_hw = 0, n = 0, i, win = 0;
	int64_t max_devices = 0;
	struct hw_device first_dev;
	int have_first = 0;

	if (rc >= 0)
		return rc;
	if (args_from(cmd, &v, &a, &err))
		return cli_fail(cmd, &err);
	a.model_arg = v.positional[0];
	a.bins = NULL;
	snprintf(hwbuf, sizeof(hwbuf), "%s", v.str[cli_opt(cmd, "hw")]);
	if ((n_hw = cli_split(hwbuf, hw, PLAN_MAX_HW, "--hw", &err)) < 0)
		return cli_fail(cmd, &err);
	if ((rc = cli_catalog(cmd, &cat)) >= 0)
		return rc;
	if (v.set[i = cli_opt(cmd, "max-devices")])
		max_devices = v.count[i];
	rc = model_resolve(v.positional[0], &m, &err) ||
	     cli_seq_bins(cmd, &v, a.model_arg, &bins, &err) ||
	     cli_calib_open(cmd, &v, 0, &src, &err);
	a.bins = bins;
	if (!rc && (n = expand(&src, cat, hw, n_hw, max_devices, specbuf,
			       sizeof(specbuf), spec, &err)) < 0)
		rc = 1;
	for (i = 0; !rc && i < n; i++) {
		struct cli_system cs;
		enum dlsim_precision prec;

		rc = plan_system(&src, cat, spec[i], &a, &cs, &prec, &err) ||
		     objective_known(&cs.sys, a.po.objective, &first_dev,
				     &have_first, &err);
	}
	if (!rc && a.fmt == REPORT_JSON)
		fputs("{\"plans\": [\n", stdout);
	for (i = 0; !rc && i < n; i++) {
		rc = plan_one(&src, cat, spec[i], m, &a, i == 0, &score[i],
			      &err);
		if (!rc && score[i] < score[win])
			win = i;
	}
	if (!rc && a.fmt == REPORT_JSON)
		fputs("]}\n", stdout);
	if (!rc && a.fmt == REPORT_TABLE && n > 1) {
		if (isfinite(score[win]))
			printf("\nbest system     %s (by %s)\n", spec[win],
			       sim_objective_name(a.po.objective));
		else
			puts("\nbest system     none: nothing fits on any");
	}
	rc = rc ? cli_fail(cmd, &err) : cli_finish(cmd, CLI_OK);
	cli_calib_close(&src);
	model_free(m);
	hw_catalog_free(cat);
	free(bins);
	return rc;
}
