/*
 * sim_scale.c -- the derived figures of a scaling sweep.
 *
 * Speedup and parallel efficiency are taken against the first (smallest)
 * point of each series, as scaling studies report them (e.g. Goyal et
 * al. 2017, Fig. 7): with strong scaling the global batch is fixed, with
 * weak scaling the batch per device is, and the same formulas serve both
 * because throughput is samples per second.
 */
#include "sim/sim.h"
#include "core/banned.h"

#include <string.h>

void sim_scaling(struct sim_scale_point *p, int n)
{
	int i, first = 0;

	for (i = 0; i < n; i++) {
		struct sim_scale_point *b;

		if (i > 0 && strcmp(p[i].series, p[i - 1].series) != 0)
			first = i;
		b = &p[first];
		p[i].speedup = p[i].r.throughput / b->r.throughput;
		p[i].efficiency = p[i].speedup /
				  ((double)p[i].r.devices /
				   (double)b->r.devices);
		p[i].comm_fraction = p[i].r.breakdown.comm_exposed_s /
				     p[i].r.step_time_s;
	}
}
