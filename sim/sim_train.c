/*
 * sim_train.c -- from one step to a whole training run: time, energy and
 * money.
 *
 * MODEL
 *   steps   = epochs x ceil(samples per epoch / global batch) (a data
 *             loader's last, partial batch is a step too: PyTorch's
 *             DataLoader with drop_last=False)
 *   time    = steps x step time
 *   power   = devices x TDP + the node's own draw (CPUs, NICs, fans:
 *             the node's overhead_W in the catalog, 0 if the node states
 *             none, which the result says) for each node, in the share of
 *             the node the system uses (one GPU of eight pays an eighth)
 *   energy  = power x time (TDP is the board's limit: this is an upper
 *             bound on what the devices draw, as the issue asks)
 *   cost    = price per device-hour x devices x hours, or, without one,
 *             the catalog's list price amortized straight-line over the
 *             given years of continuous use.
 * Every figure that is missing (no TDP, no list price, no years) leaves
 * its result unknown and says why, rather than guessing.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
#include "core/banned.h"

void sim_train_options_init(struct sim_train_options *t)
{
	memset(t, 0, sizeof(*t));
}

static void energy(const struct hw_system *s, struct sim_train *out)
{
	double node_w = s->node ? s->node->overhead_w : 0.0;
	double share = s->node && s->node->devices_per_node > 0 ?
		       (double)s->devices_per_node /
		       (double)s->node->devices_per_node : 1.0;

	if (s->device->tdp_w <= 0.0) {
		snprintf(out->energy_note, sizeof(out->energy_note),
			 "unknown: the catalog gives no TDP for %s",
			 s->device->name);
		return;
	}
	out->power_w = (double)s->n_devices * s->device->tdp_w +
		       (double)s->n_nodes * share * node_w;
	out->energy_j = out->power_w * out->time_s;
	out->energy_known = 1;
	snprintf(out->energy_note, sizeof(out->energy_note),
		 "%lld x %.0f W TDP + %lld x %.3g of a %.0f W node "
		 "overhead%s", (long long)s->n_devices, s->device->tdp_w,
		 (long long)s->n_nodes, share, node_w,
		 node_w > 0.0 ? "" : " (none stated for this node)");
}

static void cost(const struct hw_system *s, const struct sim_train_options *t,
		 struct sim_train *out)
{
	double device_hours = (double)s->n_devices * out->time_s / 3600.0;

	if (t->price_per_device_hour > 0.0) {
		out->cost_usd = t->price_per_device_hour * device_hours;
		out->cost_known = isfinite(out->cost_usd);
		snprintf(out->cost_note, sizeof(out->cost_note),
			 "%.0f device-hours at %.4g USD each (given)",
			 device_hours, t->price_per_device_hour);
	} else if (t->years > 0.0 && s->device->price_usd > 0.0) {
		double per_hour = s->device->price_usd / (t->years * 8760.0);

		out->cost_usd = per_hour * device_hours;
		out->cost_known = isfinite(out->cost_usd);
		snprintf(out->cost_note, sizeof(out->cost_note),
			 "list price %.0f USD over %.3g years of continuous "
			 "use = %.4g USD per device-hour", s->device->price_usd,
			 t->years, per_hour);
	} else if (t->years > 0.0) {
		snprintf(out->cost_note, sizeof(out->cost_note),
			 "unknown: the catalog gives no list price for %s",
			 s->device->name);
	} else {
		snprintf(out->cost_note, sizeof(out->cost_note),
			 "unknown: give --price-per-device-hour or --years");
	}
}

int sim_train_estimate(const struct model *m, const struct hw_system *s,
		       const struct sim_result *r,
		       const struct sim_train_options *t,
		       struct sim_train *out, struct dlsim_err *err)
{
	memset(out, 0, sizeof(*out));
	if (t->price_per_device_hour > 0.0 && t->years > 0.0)
		return dlsim_err_set(err, DLSIM_EINVAL, "give a price per "
				     "device-hour or years to amortize the "
				     "list price over, not both");
	if (!(t->price_per_device_hour >= 0.0 &&
	      t->price_per_device_hour <= SIM_MAX_PRICE))
		return dlsim_err_set(err, DLSIM_EINVAL, "a price per "
				     "device-hour must be in [0, %g] USD (got "
				     "%g)", SIM_MAX_PRICE,
				     t->price_per_device_hour);
	if (t->years != 0.0 && !(t->years >= SIM_MIN_YEARS &&
				 t->years <= SIM_MAX_YEARS))
		return dlsim_err_set(err, DLSIM_EINVAL, "years to amortize "
				     "over must be from an hour (1/8760) to "
				     "%g (got %g)", SIM_MAX_YEARS, t->years);
	out->epochs = t->epochs ? t->epochs : m->epochs;
	out->dataset_size = t->dataset_size ? t->dataset_size :
			    m->dataset_size;
	if (out->epochs <= 0 || out->dataset_size <= 0) {
		memset(out, 0, sizeof(*out));
		return dlsim_err_set(err, DLSIM_EINVAL, "model '%s' has no "
				     "default %s; give --epochs and "
				     "--dataset-size", m->name,
				     out->epochs <= 0 ? "epoch count" :
				     "dataset size");
	}
	out->steps = (double)out->epochs *
		     ceil((double)out->dataset_size / (double)r->global_batch);
	out->time_s = out->steps * r->step_time_s;
	energy(s, out);
	cost(s, t, out);
	return DLSIM_OK;
}
