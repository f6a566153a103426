/*
 * sim_strategy.c -- a hybrid-parallel strategy as a value: its
 * vocabularies (schedules, recomputation), its defaults, and the
 * completion of what a caller left open (dp, the global batch) from the
 * device count, so that `dlsim predict`'s flags and a measurement file's
 * columns (cal_validate_user.c) mean the same strategy.  Costing one is
 * sim_parallel.c's.
 */
#include <stdint.h>
#include <string.h>

#include "core/core.h"
#include "sim/sim.h"
#include "core/banned.h"

/* ---------------------------------------------------------------- */
/* Names                                                             */
/* ---------------------------------------------------------------- */

static const char *const schedule_names[] = { "1f1b", "gpipe",
					      "interleaved", NULL };
static const char *const recompute_names[] = { "none", "selective",
					       "full", NULL };

const char *sim_schedule_name(enum sim_schedule s)
{
	return (unsigned)s < SIM_SCHED_COUNT ? schedule_names[s] : NULL;
}

const char *sim_recompute_name(enum sim_recompute r)
{
	return (unsigned)r < SIM_RECOMPUTE_COUNT ? recompute_names[r] : NULL;
}

int sim_schedule_parse(const char *name, enum sim_schedule *out,
		       struct dlsim_err *err)
{
	int v = core_name_parse(schedule_names, name, "schedule", err);

	if (v < 0)
		return err ? err->code : DLSIM_ENOTFOUND;
	*out = (enum sim_schedule)v;
	return DLSIM_OK;
}

int sim_recompute_parse(const char *name, enum sim_recompute *out,
			struct dlsim_err *err)
{
	int v = core_name_parse(recompute_names, name, "recompute", err);

	if (v < 0)
		return err ? err->code : DLSIM_ENOTFOUND;
	*out = (enum sim_recompute)v;
	return DLSIM_OK;
}

void sim_strategy_init(struct sim_strategy *st)
{
	memset(st, 0, sizeof(*st));
	st->tp = st->pp = st->dp = 1;
	st->micro_batch = 1;
	st->chunks = 1;
	st->schedule = SIM_SCHED_1F1B;
	st->recompute = SIM_RECOMPUTE_NONE;
}

int sim_strategy_complete(struct sim_strategy *st, int64_t n_devices,
			  int64_t batch, const struct model *m,
			  struct dlsim_err *err)
{
	int64_t tp = st->tp, pp = st->pp, b = batch ? batch : m->default_batch;

	/* divisions, not tp x pp: each may be as large as the device count */
	if (tp < 1 || pp < 1 || n_devices % tp || (n_devices / tp) % pp)
		return dlsim_err_set(err, DLSIM_EINVAL, "tp %lld x pp %lld "
				     "does not divide the %lld devices",
				     (long long)tp, (long long)pp,
				     (long long)n_devices);
	if (st->dp == 0)
		st->dp = n_devices / tp / pp;
	if (st->global_batch == 0) {
		if (b > DLSIM_MAX_COUNT / st->dp)
			return dlsim_err_set(err, DLSIM_ERANGE, "a batch of "
					     "%lld x dp %lld is above %lld "
					     "samples a step", (long long)b,
					     (long long)st->dp,
					     (long long)DLSIM_MAX_COUNT);
		st->global_batch = b * st->dp;
	}
	return DLSIM_OK;
}
