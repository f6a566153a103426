/*
 * collective_util.c -- fixtures of the collective test suites
 * (test_collective.c, test_topology.c, test_collective_catalog.c):
 * levels and systems built in code with unit links (1 s latency, 1 B/s),
 * so that every expected value is a short sum worked by hand.
 */
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "sim/sim.h"
#include "collective_util.h"

/* A uniform level of p ranks with alpha = 1 s, beta = 1 s/B. */
void coll_unit_level(struct sim_level *l, int64_t p)
{
	struct sim_loggp ab;

	sim_loggp_alpha_beta(&ab, 1.0, 1.0);
	sim_level_uniform(l, p, &ab);
}


/* Links of 1 B/s and 1 s latency, one per device and one NIC per node,
 * a full-bisection fat tree: the units of the hand values below. */
void coll_rig_init(struct coll_rig *r, int64_t per_node, int64_t nodes,
		   enum hw_topology topo)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->dev.name, sizeof(r->dev.name), "unit");
	snprintf(r->node.name, sizeof(r->node.name), "box");
	r->node.devices_per_node = per_node;
	r->node.intra_links_per_device = 1;
	r->node.intra_topology = topo;
	r->node.nics_per_node = 1;
	r->intra.bandwidth_Bps = 1.0;
	r->intra.latency_s = 1.0;
	r->nic.bandwidth_Bps = 1.0;
	r->nic.latency_s = 1.0;
	r->net.topology = HW_TOPO_FAT_TREE;
	r->net.oversubscription = 1.0;
	r->sys.device = &r->dev;
	r->sys.node = &r->node;
	r->sys.intra = per_node > 1 ? &r->intra : NULL;
	r->sys.nic = nodes > 1 ? &r->nic : NULL;
	r->sys.network = nodes > 1 ? &r->net : NULL;
	r->sys.devices_per_node = per_node;
	r->sys.n_nodes = nodes;
	r->sys.n_devices = per_node * nodes;
	snprintf(r->sys.spec, sizeof(r->sys.spec), "rig");
}

/* sim_collective_time() that must succeed. */
struct sim_comm_result coll_cost(const struct coll_rig *r,
				 enum sim_collective c, double bytes,
				 enum sim_algo a)
{
	struct sim_comm_result res;
	struct dlsim_err err = { 0, "" };

	ck_assert_msg(sim_collective_time(&r->sys, c, bytes, a, &res, &err) ==
		      DLSIM_OK, "%s %s: %s", sim_collective_name(c),
		      sim_algo_name(a), err.msg);
	return res;
}
