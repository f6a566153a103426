/*
 * collective_util.h -- fixtures of the collective test suites
 * (collective_util.c).
 */
#ifndef DLSIM_TESTS_COLLECTIVE_UTIL_H
#define DLSIM_TESTS_COLLECTIVE_UTIL_H

#include "dlsim.h"
#include "sim/sim.h"

/* A system built in code: per_node devices per node, `nodes` nodes. */
struct coll_rig {
	struct hw_device dev;
	struct hw_link intra, nic;
	struct hw_node node;
	struct hw_network net;
	struct hw_system sys;
};

/* A uniform level of p ranks with alpha = 1 s, beta = 1 s/B. */
void coll_unit_level(struct sim_level *l, int64_t p);

/* Links of 1 B/s and 1 s latency, one per device and one NIC per node,
 * a full-bisection fat tree: per_node devices per node, `nodes` nodes. */
void coll_rig_init(struct coll_rig *r, int64_t per_node, int64_t nodes,
		   enum hw_topology topo);

/* sim_collective_time() that must succeed. */
struct sim_comm_result coll_cost(const struct coll_rig *r,
				 enum sim_collective c, double bytes,
				 enum sim_algo a);

#endif /* DLSIM_TESTS_COLLECTIVE_UTIL_H */
