/*
 * test_topology.c -- where a collective's steps go (sim/sim_topology.c):
 * oversubscribed fat trees, tori in all their dimensions, NVLink's
 * hybrid cube mesh below an NVSwitch, the rings a node's links allow a
 * subset of its devices, and GPUs that share a PCIe switch, on systems
 * built in code with unit links (collective_util.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "sim/sim.h"
#include "collective_util.h"

/* ---------------------------------------------------------------- */
/* Topology                                                          */
/* ---------------------------------------------------------------- */

/*
 * 4 nodes of one device, NIC 1 B/s and 1 s, m = 8 B, a 2:1 fat tree
 * with 2 nodes per leaf.  Rabenseifner's steps: distance 2 crosses the
 * leaves (4 B at 2 s/B: 1 + 8 = 9), distance 1 does not (2 B: 1 + 2 =
 * 3): reduce-scatter 12, allreduce 24; at 1:1 the far step is 1 + 4 =
 * 5, 16 in all.  The ring crosses each leaf boundary with one flow,
 * within the 2 uplinks' worth the leaf has: 6 (1 + 2) = 18 either way.
 * Leaf size not stated: all traffic pays, ring 6 (1 + 4) = 30,
 * Rabenseifner 2 (9 + 5) = 28.  All four nodes under one leaf: nothing
 * crosses, 16 and 18.
 */
START_TEST(oversubscription_slows_only_cross_leaf_traffic)
{
	struct coll_rig r;

	coll_rig_init(&r, 1, 4, HW_TOPO_SINGLE);
	r.net.oversubscription = 2.0;
	r.net.nodes_per_leaf = 2;
	ck_assert_rel(coll_cost(&r, SIM_COLL_REDUCE_SCATTER, 8.0,
			   SIM_ALGO_HALVING_DOUBLING).time_s, 12.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_HALVING_DOUBLING).time_s, 24.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_RING).time_s, 18.0, 1e-12);
	r.net.oversubscription = 1.0;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_HALVING_DOUBLING).time_s, 16.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_RING).time_s, 18.0, 1e-12);
	r.net.oversubscription = 2.0;
	r.net.nodes_per_leaf = 0;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_RING).time_s, 30.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_HALVING_DOUBLING).time_s, 28.0, 1e-12);
	r.net.nodes_per_leaf = 4;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_HALVING_DOUBLING).time_s, 16.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_RING).time_s, 18.0, 1e-12);
}
END_TEST

/*
 * TPU-like: 4 hosts of 4 chips, each chip 4 ICI links of 1 B/s (2 per
 * dimension) and 1 s, on a torus network of dims 4x4: one torus of 16
 * chips.  The allreduce splits m = 64 B in two shards, each reducing
 * along one dimension then the other, both links of a dimension carrying
 * half of each chunk: phase 1: 3 (1 + (32/4)/2) = 15, phase 2 on 8 B:
 * 3 (1 + (8/4)/2) = 6; reduce-scatter 21, allreduce 42 = 2 x 2 x 3
 * alpha + 2 x 15/16 x 64/4 beta.  Had it used one dimension's two links
 * only (a ring of 16): 2 x 15 (1 + 64/32) = 90.  AUTO keeps the torus
 * rings: Rabenseifner pays the hops (partners 8 and 2 ranks away are
 * 2 hops), 2 (65 + 17 + 17 + 5) = 208.
 */
START_TEST(torus_uses_all_its_dimensions)
{
	struct coll_rig r;
	struct sim_comm_result res;
	struct sim_level l;
	struct sim_loggp link;
	int64_t ring16[1] = { 16 }, cube[3] = { 4, 4, 4 };
	double t;

	coll_rig_init(&r, 4, 4, HW_TOPO_TORUS);
	r.node.intra_links_per_device = 4;
	r.node.nics_per_node = 8;
	r.sys.nic = &r.intra;
	r.net.topology = HW_TOPO_TORUS;
	r.net.n_dims = 2;
	r.net.dims[0] = 4;
	r.net.dims[1] = 4;
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 64.0, SIM_ALGO_RING);
	ck_assert_rel(res.time_s, 42.0, 1e-12);
	ck_assert_int_eq(res.hierarchical, 0);
	ck_assert_rel(coll_cost(&r, SIM_COLL_REDUCE_SCATTER, 64.0,
			   SIM_ALGO_RING).time_s, 21.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 64.0,
			   SIM_ALGO_HALVING_DOUBLING).time_s, 208.0, 1e-12);
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 64.0, SIM_ALGO_AUTO);
	ck_assert_int_eq(res.algo, SIM_ALGO_RING);
	ck_assert_rel(res.time_s, 42.0, 1e-12);
	sim_loggp_alpha_beta(&link, 1.0, 1.0);
	sim_level_torus(&l, 1, ring16, &link);
	sim_level_cost(&l, SIM_COLL_ALLREDUCE, SIM_ALGO_RING, 64.0, &t);
	ck_assert_rel(t, 90.0, 1e-12);
	/* 4x4x4, m = 384: shards of 128 B, phases 3 (1 + 16) = 51,
	 * 3 (1 + 4) = 15, 3 (1 + 1) = 6: 72 each way, 144 = 2 x 3 x 3 +
	 * 2 x 63/64 x 384/6 */
	sim_level_torus(&l, 3, cube, &link);
	ck_assert_int_eq(l.ranks, 64);
	sim_level_cost(&l, SIM_COLL_ALLREDUCE, SIM_ALGO_RING, 384.0, &t);
	ck_assert_rel(t, 144.0, 1e-12);
}
END_TEST

/*
 * The DGX-1 graph: two faces of a cube with both diagonals (two K4s,
 * GPUs 0-3 and 4-7) and the four cube edges between them (i to i+4).
 * With one link per edge (P100) it splits into two edge-disjoint rings,
 * 0-1-2-3-7-6-5-4-0 and 0-2-6-4-7-5-1-3-0, so rings use all 4 links;
 * V100 doubles some edges and makes "three interwoven rings" of its 6.
 * 8 GPUs of 6 links of 1 B/s, 1 s, m = 48 B:
 *   ring allreduce, hybrid cube mesh or NVSwitch: 14 (1 + 6/6) = 28
 *   Rabenseifner: a partner gets 6/4 links on the mesh (beta 2/3):
 *     2 [(1 + 24 x 2/3) + (1 + 12 x 2/3) + (1 + 6 x 2/3)] = 62;
 *     all 6 through NVSwitch: 2 [(1 + 4) + (1 + 2) + (1 + 1)] = 20
 *   pairwise all-to-all: 7 (1 + 6 x 2/3) = 35 against 7 (1 + 1) = 14
 *   AUTO: the mesh takes the ring (28), NVSwitch Rabenseifner (20)
 * Fewer than 8 GPUs without ring_links: a ring gets one partner's 6/4
 * links, a quad 6 (1 + 12/1.5) = 54 against NVSwitch's 6 (1 + 12/6) =
 * 18; with the V100 DGX-1's ring_links [1, 1, 2, 4] the quad's 4 rings
 * give 6 (1 + 12/4) = 24.  A pair without them: 2 (1 + 24/1.5) = 34
 * against 2 (1 + 4) = 10.  P100's 4 links: 14 (1 + 6/4) = 35.
 */
START_TEST(hybrid_cube_mesh_below_nvswitch)
{
	struct coll_rig m, s;
	struct sim_comm_result res;

	coll_rig_init(&m, 8, 1, HW_TOPO_HYBRID_CUBE_MESH);
	coll_rig_init(&s, 8, 1, HW_TOPO_NVSWITCH);
	m.node.intra_links_per_device = 6;
	s.node.intra_links_per_device = 6;
	ck_assert_rel(coll_cost(&m, SIM_COLL_ALLREDUCE, 48.0,
			   SIM_ALGO_RING).time_s, 28.0, 1e-12);
	ck_assert_rel(coll_cost(&s, SIM_COLL_ALLREDUCE, 48.0,
			   SIM_ALGO_RING).time_s, 28.0, 1e-12);
	ck_assert_rel(coll_cost(&m, SIM_COLL_ALLREDUCE, 48.0,
			   SIM_ALGO_HALVING_DOUBLING).time_s, 62.0, 1e-12);
	ck_assert_rel(coll_cost(&s, SIM_COLL_ALLREDUCE, 48.0,
			   SIM_ALGO_HALVING_DOUBLING).time_s, 20.0, 1e-12);
	ck_assert_rel(coll_cost(&m, SIM_COLL_ALLTOALL, 48.0,
			   SIM_ALGO_RING).time_s, 35.0, 1e-12);
	ck_assert_rel(coll_cost(&s, SIM_COLL_ALLTOALL, 48.0,
			   SIM_ALGO_RING).time_s, 14.0, 1e-12);
	res = coll_cost(&m, SIM_COLL_ALLREDUCE, 48.0, SIM_ALGO_AUTO);
	ck_assert_int_eq(res.algo, SIM_ALGO_RING);
	ck_assert_rel(res.time_s, 28.0, 1e-12);
	res = coll_cost(&s, SIM_COLL_ALLREDUCE, 48.0, SIM_ALGO_AUTO);
	ck_assert_int_eq(res.algo, SIM_ALGO_HALVING_DOUBLING);
	ck_assert_rel(res.time_s, 20.0, 1e-12);
	coll_rig_init(&m, 4, 1, HW_TOPO_HYBRID_CUBE_MESH);
	coll_rig_init(&s, 4, 1, HW_TOPO_NVSWITCH);
	m.node.intra_links_per_device = 6;
	s.node.intra_links_per_device = 6;
	ck_assert_rel(coll_cost(&m, SIM_COLL_ALLREDUCE, 48.0,
			   SIM_ALGO_RING).time_s, 54.0, 1e-12);
	ck_assert_rel(coll_cost(&s, SIM_COLL_ALLREDUCE, 48.0,
			   SIM_ALGO_RING).time_s, 18.0, 1e-12);
	m.node.n_ring_links = 4;
	m.node.ring_links[0] = 1;
	m.node.ring_links[1] = 1;
	m.node.ring_links[2] = 2;
	m.node.ring_links[3] = 4;
	ck_assert_rel(coll_cost(&m, SIM_COLL_ALLREDUCE, 48.0,
			   SIM_ALGO_RING).time_s, 24.0, 1e-12);
	coll_rig_init(&m, 2, 1, HW_TOPO_HYBRID_CUBE_MESH);
	coll_rig_init(&s, 2, 1, HW_TOPO_NVSWITCH);
	m.node.intra_links_per_device = 6;
	s.node.intra_links_per_device = 6;
	ck_assert_rel(coll_cost(&m, SIM_COLL_ALLREDUCE, 48.0,
			   SIM_ALGO_RING).time_s, 34.0, 1e-12);
	ck_assert_rel(coll_cost(&s, SIM_COLL_ALLREDUCE, 48.0,
			   SIM_ALGO_RING).time_s, 10.0, 1e-12);
	coll_rig_init(&m, 8, 1, HW_TOPO_HYBRID_CUBE_MESH);
	m.node.intra_links_per_device = 4;
	ck_assert_rel(coll_cost(&m, SIM_COLL_ALLREDUCE, 48.0,
			   SIM_ALGO_RING).time_s, 35.0, 1e-12);
}
END_TEST

/*
 * A node's ring_links, by hand: 3 GPUs of 2 links at 1 B/s and 1 s,
 * m = 24 B (m/P = 8).  Hybrid cube mesh without ring_links: the ring
 * gets one partner's 2/4 links, 2 x 2 (1 + 8/0.5) = 68; with [1, 1, 2],
 * 2 links: 4 (1 + 8/2) = 20.  A list too short for 3 GPUs ([1, 2])
 * leaves 3 GPUs as without it, 68.  On all-to-all links the ring gets
 * all 2 links, 4 (1 + 4) = 20, and a stated [1, 1, 1] one: 4 (1 + 8) =
 * 36.  Two GPUs, [1, 2]: the pair's ring and exchange both get 2 links,
 * ring 2 (1 + 12/2) = 14, recursive doubling 1 + 24/2 = 13 (AUTO);
 * without it each gets 2/4: 2 (1 + 24) = 50 and 1 + 48 = 49.
 */
START_TEST(ring_links_set_the_ring_of_a_subset)
{
	struct coll_rig r;
	struct sim_comm_result res;

	coll_rig_init(&r, 3, 1, HW_TOPO_HYBRID_CUBE_MESH);
	r.node.intra_links_per_device = 2;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0,
			   SIM_ALGO_RING).time_s, 68.0, 1e-12);
	r.node.n_ring_links = 3;
	r.node.ring_links[0] = 1;
	r.node.ring_links[1] = 1;
	r.node.ring_links[2] = 2;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0,
			   SIM_ALGO_RING).time_s, 20.0, 1e-12);
	r.node.n_ring_links = 2;
	r.node.ring_links[1] = 2;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0,
			   SIM_ALGO_RING).time_s, 68.0, 1e-12);
	r.node.intra_topology = HW_TOPO_ALL_TO_ALL;
	r.node.n_ring_links = 0;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0,
			   SIM_ALGO_RING).time_s, 20.0, 1e-12);
	r.node.n_ring_links = 3;
	r.node.ring_links[1] = 1;
	r.node.ring_links[2] = 1;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0,
			   SIM_ALGO_RING).time_s, 36.0, 1e-12);

	coll_rig_init(&r, 2, 1, HW_TOPO_HYBRID_CUBE_MESH);
	r.node.intra_links_per_device = 2;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0,
			   SIM_ALGO_RING).time_s, 50.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0,
			   SIM_ALGO_RECURSIVE_DOUBLING).time_s, 49.0, 1e-12);
	r.node.n_ring_links = 2;
	r.node.ring_links[0] = 1;
	r.node.ring_links[1] = 2;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0,
			   SIM_ALGO_RING).time_s, 14.0, 1e-12);
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0, SIM_ALGO_AUTO);
	ck_assert_int_eq(res.algo, SIM_ALGO_RECURSIVE_DOUBLING);
	ck_assert_rel(res.time_s, 13.0, 1e-12);
}
END_TEST

/*
 * 4 GPUs on PCIe at 1 B/s and 1 s, two per switch, m = 8 B.  A partner
 * under the other switch shares the uplink with its neighbour: half the
 * bandwidth.  Rabenseifner: (1 + 4 x 2) + (1 + 2) = 12 each way, 24;
 * each GPU on its own root port: (1 + 4) + (1 + 2) = 8, 16.  Binomial
 * broadcast: (1 + 8) + (1 + 16) = 26 against 18.  The ring enters and
 * leaves each switch once and keeps full speed: 6 (1 + 2) = 18.
 */
START_TEST(shared_pcie_switch_halves_bandwidth)
{
	struct coll_rig r;

	coll_rig_init(&r, 4, 1, HW_TOPO_PCIE_TREE);
	r.node.devices_per_pcie_switch = 2;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_HALVING_DOUBLING).time_s, 24.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_BROADCAST, 8.0,
			   SIM_ALGO_TREE).time_s, 26.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_RING).time_s, 18.0, 1e-12);
	r.node.devices_per_pcie_switch = 0;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_HALVING_DOUBLING).time_s, 16.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_BROADCAST, 8.0,
			   SIM_ALGO_TREE).time_s, 18.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_RING).time_s, 18.0, 1e-12);
}
END_TEST

Suite *suite_topology(void)
{
	Suite *s = suite_create("topology");
	TCase *c = tcase_create("topology");

	tcase_add_test(c, oversubscription_slows_only_cross_leaf_traffic);
	tcase_add_test(c, torus_uses_all_its_dimensions);
	tcase_add_test(c, hybrid_cube_mesh_below_nvswitch);
	tcase_add_test(c, ring_links_set_the_ring_of_a_subset);
	tcase_add_test(c, shared_pcie_switch_halves_bandwidth);
	suite_add_tcase(s, c);
	return s;
}
