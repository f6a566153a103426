/*
 * test_collective.c -- collectives (sim/sim_collective.c), the LogGP
 * message (sim/sim_loggp.c) and topologies (sim/sim_topology.c) against
 * closed forms worked by hand.
 *
 * Levels and systems are built in code with tiny whole numbers (alpha =
 * 1 s, beta = 1 s per byte, buffers of a few dozen bytes) so that every
 * expected value is a short sum, worked in the comment above it.  The
 * formulas and their sources are in sim_collective.c's design comment.
 * Topologies are test_topology.c, the shipped catalog's systems
 * test_collective_catalog.c; the fixtures collective_util.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "sim/sim.h"
#include "collective_util.h"

/* ---------------------------------------------------------------- */
/* LogGP                                                             */
/* ---------------------------------------------------------------- */

/*
 * L = 2, o = 1, G = 0.5 s/B, m = 10 B: one message L + 2o + m G =
 * 2 + 2 + 5 = 9.  With g = 20 a step takes max(g, 9) = 20, and three
 * messages back to back 9 + 2 max(20, o + m G = 6) = 49; with g = 0,
 * 9 + 2 x 6 = 21.  An eager limit of 8 B and a handshake of 6: 10 B pay
 * it (15), 8 B do not (2 + 2 + 4 = 8).  Alpha-beta (3, 0.25): 8 B take
 * 3 + 2 = 5 alone, and four back to back 3 + 4 x 2 = 11.
 */
START_TEST(loggp_message_step_and_burst)
{
	struct sim_loggp p;

	memset(&p, 0, sizeof(p));
	p.L_s = 2.0;
	p.o_s = 1.0;
	p.G_s_per_byte = 0.5;
	ck_assert(sim_p2p_time(&p, 10.0) == 9.0);
	p.g_s = 20.0;
	ck_assert(sim_step_time(&p, 10.0) == 20.0);
	ck_assert(sim_msgs_time(&p, 3.0, 10.0) == 49.0);
	p.g_s = 0.0;
	ck_assert(sim_step_time(&p, 10.0) == 9.0);
	ck_assert(sim_msgs_time(&p, 3.0, 10.0) == 21.0);
	ck_assert(sim_msgs_time(&p, 0.0, 10.0) == 0.0);
	p.eager_bytes = 8.0;
	p.rndv_s = 6.0;
	ck_assert(sim_p2p_time(&p, 10.0) == 15.0);
	ck_assert(sim_p2p_time(&p, 8.0) == 8.0);
	sim_loggp_alpha_beta(&p, 3.0, 0.25);
	ck_assert(sim_p2p_time(&p, 8.0) == 5.0);
	ck_assert(sim_step_time(&p, 8.0) == 5.0);
	ck_assert(sim_msgs_time(&p, 4.0, 8.0) == 11.0);
}
END_TEST

/*
 * A link's figures become the path's: latency 2 us, overhead 1 us, gap
 * 5 us, eager limit 12288 B with a 6 us handshake, at 2 GB/s (two links
 * of 1 GB/s together).  12288 B: 2 + 2 + 12288 x 0.5 ns = 10.144 us;
 * one byte more pays the handshake too.
 */
START_TEST(loggp_from_a_link)
{
	struct hw_link l;
	struct sim_loggp p;

	memset(&l, 0, sizeof(l));
	l.bandwidth_Bps = 1e9;
	l.latency_s = 2e-6;
	l.overhead_s = 1e-6;
	l.gap_s = 5e-6;
	l.eager_limit_bytes = 12288.0;
	l.rendezvous_s = 6e-6;
	sim_loggp_link(&p, &l, 2e9);
	ck_assert(p.G_s_per_byte == 0.5e-9);
	ck_assert(p.g_s == 5e-6);
	ck_assert_rel(sim_p2p_time(&p, 12288.0), 10.144e-6, 1e-12);
	ck_assert_rel(sim_p2p_time(&p, 12289.0), 16.1445e-6, 1e-12);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Every collective and algorithm on one level                       */
/* ---------------------------------------------------------------- */

#define NO (-1.0)            /* DLSIM_EINVAL */

/*
 * Uniform levels of P = 2, 4, 8 and 6 ranks, alpha = beta = 1, m = 24 B
 * (m/P = 12, 6, 3, 4).  lg = ceil(log2 P) = 1, 2, 3, 3; fl = 1, 2, 3, 2.
 *
 * allreduce
 *   ring   2 (P-1)(1 + m/P):  2(13) = 26, 6(7) = 42, 14(4) = 56,
 *          10(5) = 50
 *   tree   2 lg (1 + m):      50, 100, 150, 150
 *   h-d    2 sum_i (1 + m/2^i) over fl halvings, P = 6 plus the fold
 *          2 (1 + 24):        2(13) = 26, 2(13+7) = 40, 2(13+7+4) = 48,
 *          50 + 40 = 90  (P = 8: 2 x 3 + 2 x 7/8 x 24 = 48, the closed
 *          form)
 *   p-s    2 (1 + (P-1) m):   50, 146, 338, 242
 *   dbt    2 min_k (D+k-1)(1 + m/k), D = fl:
 *          D = 1: k = 1, 25 -> 50; D = 2: (1+k)(1 + 24/k) = 25 + k +
 *          24/k, k = 5: 34.8 -> 69.6; D = 3: 26 + k + 48/k, k = 7:
 *          39.857 -> 79.714; P = 6 has D = 2: 69.6
 *   rd     fl (1 + m), P = 6 plus the fold 2 x 25: 25, 50, 75, 100
 *   bfly   log2 P (1 + m): 25, 50, 75, and not for P = 6
 * reduce-scatter
 *   ring   (P-1)(1 + m/P):    13, 21, 28, 25
 *   h-d    sum_i (1 + m/2^i), P = 6: fold (1 + 24) + halving on 4 (20)
 *          + the extras' part (1 + 4): 13, 20, 24, 50
 * allgather
 *   ring   as reduce-scatter: 13, 21, 28, 25
 *   r-d, h-d  sum_i (1 + min(2^i, P-2^i) m/P):  13, 7+13 = 20,
 *          4+7+13 = 24, 5+9+9 = 23 (P = 6: 3 + 5/6 x 24, the closed
 *          form lg alpha + (P-1)/P m beta)
 * broadcast (reduce: the same but h-d)
 *   ring   min_k (P-2+k)(1 + m/k): P = 2: 25; P = 4: 26 + k + 48/k,
 *          k = 7: 39.857; P = 8: 30 + k + 144/k, k = 12: 54; P = 6:
 *          28 + k + 96/k, k = 10: 47.6
 *   tree   lg (1 + m):        25, 50, 75, 75
 *   h-d    binomial scatter sum_i (1 + m/2^(i+1)) over lg steps (13,
 *          20, 24, 24) + allgather as above: 26, 40, 48, 47
 *          reduce: scatter + reduce-scatter: 26, 40, 48, 24 + 50 = 74
 *   p-s    1 + (P-1) m:       25, 73, 169, 121
 *   dbt    min_k (D+k-1)(1 + m/k): 25, 34.8, 39.857, 34.8
 * all-to-all
 *   ring   (P-1)(1 + m/P):    13, 21, 28, 25
 *   r-d    Bruck, step i sends the blocks with bit i of their index:
 *          P = 2: 1 + 12 = 13; P = 4: 2 x (1 + 12) = 26; P = 8:
 *          3 x (1 + 12) = 39; P = 6: 3, 2, 2 blocks of 4 B: 13 + 9 + 9
 *          = 31
 */
static const struct {
	enum sim_collective c;
	enum sim_algo a;
	double t[4];             /* P = 2, 4, 8, 6 */
} table[] = {
	{ SIM_COLL_ALLREDUCE, SIM_ALGO_RING, { 26, 42, 56, 50 } },
	{ SIM_COLL_ALLREDUCE, SIM_ALGO_TREE, { 50, 100, 150, 150 } },
	{ SIM_COLL_ALLREDUCE, SIM_ALGO_HALVING_DOUBLING, { 26, 40, 48, 90 } },
	{ SIM_COLL_ALLREDUCE, SIM_ALGO_PARAM_SERVER, { 50, 146, 338, 242 } },
	{ SIM_COLL_ALLREDUCE, SIM_ALGO_DOUBLE_BINARY_TREE,
	  { 50, 69.6, 558.0 / 7.0, 69.6 } },
	{ SIM_COLL_ALLREDUCE, SIM_ALGO_RECURSIVE_DOUBLING,
	  { 25, 50, 75, 100 } },
	{ SIM_COLL_ALLREDUCE, SIM_ALGO_BUTTERFLY, { 25, 50, 75, NO } },

	{ SIM_COLL_REDUCE_SCATTER, SIM_ALGO_RING, { 13, 21, 28, 25 } },
	{ SIM_COLL_REDUCE_SCATTER, SIM_ALGO_TREE, { NO, NO, NO, NO } },
	{ SIM_COLL_REDUCE_SCATTER, SIM_ALGO_HALVING_DOUBLING,
	  { 13, 20, 24, 50 } },
	{ SIM_COLL_REDUCE_SCATTER, SIM_ALGO_PARAM_SERVER, { NO, NO, NO, NO } },
	{ SIM_COLL_REDUCE_SCATTER, SIM_ALGO_DOUBLE_BINARY_TREE,
	  { NO, NO, NO, NO } },
	{ SIM_COLL_REDUCE_SCATTER, SIM_ALGO_RECURSIVE_DOUBLING,
	  { NO, NO, NO, NO } },
	{ SIM_COLL_REDUCE_SCATTER, SIM_ALGO_BUTTERFLY, { NO, NO, NO, NO } },

	{ SIM_COLL_ALLGATHER, SIM_ALGO_RING, { 13, 21, 28, 25 } },
	{ SIM_COLL_ALLGATHER, SIM_ALGO_TREE, { NO, NO, NO, NO } },
	{ SIM_COLL_ALLGATHER, SIM_ALGO_HALVING_DOUBLING, { 13, 20, 24, 23 } },
	{ SIM_COLL_ALLGATHER, SIM_ALGO_PARAM_SERVER, { NO, NO, NO, NO } },
	{ SIM_COLL_ALLGATHER, SIM_ALGO_DOUBLE_BINARY_TREE, { NO, NO, NO, NO } },
	{ SIM_COLL_ALLGATHER, SIM_ALGO_RECURSIVE_DOUBLING, { 13, 20, 24, 23 } },
	{ SIM_COLL_ALLGATHER, SIM_ALGO_BUTTERFLY, { NO, NO, NO, NO } },

	{ SIM_COLL_BROADCAST, SIM_ALGO_RING, { 25, 279.0 / 7.0, 54, 47.6 } },
	{ SIM_COLL_BROADCAST, SIM_ALGO_TREE, { 25, 50, 75, 75 } },
	{ SIM_COLL_BROADCAST, SIM_ALGO_HALVING_DOUBLING, { 26, 40, 48, 47 } },
	{ SIM_COLL_BROADCAST, SIM_ALGO_PARAM_SERVER, { 25, 73, 169, 121 } },
	{ SIM_COLL_BROADCAST, SIM_ALGO_DOUBLE_BINARY_TREE,
	  { 25, 34.8, 279.0 / 7.0, 34.8 } },
	{ SIM_COLL_BROADCAST, SIM_ALGO_RECURSIVE_DOUBLING, { NO, NO, NO, NO } },
	{ SIM_COLL_BROADCAST, SIM_ALGO_BUTTERFLY, { NO, NO, NO, NO } },

	{ SIM_COLL_REDUCE, SIM_ALGO_RING, { 25, 279.0 / 7.0, 54, 47.6 } },
	{ SIM_COLL_REDUCE, SIM_ALGO_TREE, { 25, 50, 75, 75 } },
	{ SIM_COLL_REDUCE, SIM_ALGO_HALVING_DOUBLING, { 26, 40, 48, 74 } },
	{ SIM_COLL_REDUCE, SIM_ALGO_PARAM_SERVER, { 25, 73, 169, 121 } },
	{ SIM_COLL_REDUCE, SIM_ALGO_DOUBLE_BINARY_TREE,
	  { 25, 34.8, 279.0 / 7.0, 34.8 } },
	{ SIM_COLL_REDUCE, SIM_ALGO_RECURSIVE_DOUBLING, { NO, NO, NO, NO } },
	{ SIM_COLL_REDUCE, SIM_ALGO_BUTTERFLY, { NO, NO, NO, NO } },

	{ SIM_COLL_ALLTOALL, SIM_ALGO_RING, { 13, 21, 28, 25 } },
	{ SIM_COLL_ALLTOALL, SIM_ALGO_TREE, { NO, NO, NO, NO } },
	{ SIM_COLL_ALLTOALL, SIM_ALGO_HALVING_DOUBLING, { NO, NO, NO, NO } },
	{ SIM_COLL_ALLTOALL, SIM_ALGO_PARAM_SERVER, { NO, NO, NO, NO } },
	{ SIM_COLL_ALLTOALL, SIM_ALGO_DOUBLE_BINARY_TREE, { NO, NO, NO, NO } },
	{ SIM_COLL_ALLTOALL, SIM_ALGO_RECURSIVE_DOUBLING, { 13, 26, 39, 31 } },
	{ SIM_COLL_ALLTOALL, SIM_ALGO_BUTTERFLY, { NO, NO, NO, NO } },
};

#define N_TABLE ((int)(sizeof(table) / sizeof(table[0])))

START_TEST(collective_matches_closed_form)
{
	static const int64_t ranks[4] = { 2, 4, 8, 6 };
	struct sim_level l;
	int i;

	for (i = 0; i < 4; i++) {
		double t = -7.0;
		int rc;

		coll_unit_level(&l, ranks[i]);
		rc = sim_level_cost(&l, table[_i].c, table[_i].a, 24.0, &t);
		if (table[_i].t[i] == NO) {
			ck_assert_msg(rc == DLSIM_EINVAL && t == -7.0,
				      "%s %s on %lld ranks: got %d (%g), "
				      "expected EINVAL",
				      sim_collective_name(table[_i].c),
				      sim_algo_name(table[_i].a),
				      (long long)ranks[i], rc, t);
			continue;
		}
		ck_assert_msg(rc == DLSIM_OK &&
			      fabs(t - table[_i].t[i]) <=
			      1e-12 * table[_i].t[i],
			      "%s %s on %lld ranks: %.12g, expected %.12g",
			      sim_collective_name(table[_i].c),
			      sim_algo_name(table[_i].a),
			      (long long)ranks[i], t, table[_i].t[i]);
	}
}
END_TEST

/* Every algorithm appears for every collective in the table. */
START_TEST(collective_table_is_complete)
{
	int c, a, i, seen;

	for (c = 0; c < SIM_COLLECTIVE_COUNT; c++)
		for (a = SIM_ALGO_RING; a < SIM_ALGO_COUNT; a++) {
			for (seen = 0, i = 0; i < N_TABLE; i++)
				seen += table[i].c == (enum sim_collective)c &&
					table[i].a == (enum sim_algo)a;
			ck_assert_msg(seen == 1, "%s %s",
				      sim_collective_name(c),
				      sim_algo_name(a));
		}
}
END_TEST

/*
 * P = 8, m = 8 B: the double binary tree's chunk count comes out whole,
 * (D + k - 1)(1 + m/k) = (2 + k)(1 + 8/k) = 10 + k + 16/k, k = 4: 18,
 * which is (sqrt((D-1) alpha) + sqrt(m beta))^2 = (sqrt 2 + sqrt 8)^2 =
 * 18; the allreduce is twice that.
 */
START_TEST(double_binary_tree_pipelines_at_the_best_chunk)
{
	struct sim_level l;
	double t;

	coll_unit_level(&l, 8);
	ck_assert_int_eq(sim_level_cost(&l, SIM_COLL_BROADCAST,
					SIM_ALGO_DOUBLE_BINARY_TREE, 8.0, &t),
			 DLSIM_OK);
	ck_assert_rel(t, 18.0, 1e-12);
	ck_assert_int_eq(sim_level_cost(&l, SIM_COLL_ALLREDUCE,
					SIM_ALGO_DOUBLE_BINARY_TREE, 8.0, &t),
			 DLSIM_OK);
	ck_assert_rel(t, 36.0, 1e-12);
}
END_TEST

/*
 * LogGP on the ring: P = 4, m = 24, alpha = beta = 1.  A gap of 10 holds
 * each of the 6 steps (1 + 6 = 7 of its own) to 10: 60.  An eager limit
 * of 5 B with a handshake of 2 makes each 6-byte chunk pay it: 6 x 9 =
 * 54.  One rank or no bytes: 0.
 */
START_TEST(loggp_gap_and_rendezvous_on_a_ring)
{
	struct sim_loggp p;
	struct sim_level l;
	double t;

	sim_loggp_alpha_beta(&p, 1.0, 1.0);
	p.g_s = 10.0;
	sim_level_uniform(&l, 4, &p);
	sim_level_cost(&l, SIM_COLL_ALLREDUCE, SIM_ALGO_RING, 24.0, &t);
	ck_assert(t == 60.0);
	p.g_s = 0.0;
	p.eager_bytes = 5.0;
	p.rndv_s = 2.0;
	sim_level_uniform(&l, 4, &p);
	sim_level_cost(&l, SIM_COLL_ALLREDUCE, SIM_ALGO_RING, 24.0, &t);
	ck_assert(t == 54.0);
	sim_level_cost(&l, SIM_COLL_ALLREDUCE, SIM_ALGO_RING, 0.0, &t);
	ck_assert(t == 0.0);
	coll_unit_level(&l, 1);
	sim_level_cost(&l, SIM_COLL_ALLTOALL, SIM_ALGO_RING, 24.0, &t);
	ck_assert(t == 0.0);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Hierarchy                                                         */
/* ---------------------------------------------------------------- */

/*
 * 2 nodes x 4 devices; inside 4 B/s (beta 0.25) and 1 s; one NIC of
 * 1 B/s and 2 s per node, so each device's share across is 1/4 B/s
 * (beta 4).  m = 32 B.
 *   inside ring reduce-scatter (or allgather): 3 (1 + 8 x 0.25) = 9
 *   hierarchical ring allreduce: 9 + 2 (2 + 4 x 4) across on m/4 = 8 B
 *     + 9 = 54
 *   flat ring: one ring per NIC at min(4, 1) = 1 B/s, latency 2:
 *     14 (2 + 4) = 84
 *   AUTO: across two nodes recursive doubling swaps the 8 B once,
 *     2 + 32 = 34: 9 + 34 + 9 = 52
 *   reduce-scatter, allgather: 9 + (2 + 4 x 4) = 27 (flat ring:
 *     7 (2 + 4) = 42)
 *   broadcast: scatter 9, chain across 2 + 8 x 4 = 34, allgather 9: 52
 *     (a flat chain: 44 + 2k + 192/k, k = 10: 83.2)
 *   all-to-all: pairwise inside 3 (1 + 8 x 0.25) = 9, then across the
 *     whole 32 B: 2 + 16 x 4 = 66: 75; flat, each device sends half its
 *     buffer off the node at 1/4 B/s: 7 (2 + 4 x 16/7) = 78
 */
START_TEST(hierarchical_inside_across_inside)
{
	struct coll_rig r;
	struct sim_comm_result res;

	coll_rig_init(&r, 4, 2, HW_TOPO_NVSWITCH);
	r.intra.bandwidth_Bps = 4.0;
	r.nic.latency_s = 2.0;
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 32.0, SIM_ALGO_RING);
	ck_assert_rel(res.time_s, 54.0, 1e-12);
	ck_assert_int_eq(res.hierarchical, 1);
	ck_assert_int_eq(res.algo, SIM_ALGO_RING);
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 32.0, SIM_ALGO_AUTO);
	ck_assert_rel(res.time_s, 52.0, 1e-12);
	ck_assert_int_eq(res.algo, SIM_ALGO_RECURSIVE_DOUBLING);
	ck_assert_int_eq(res.hierarchical, 1);
	res = coll_cost(&r, SIM_COLL_REDUCE_SCATTER, 32.0, SIM_ALGO_RING);
	ck_assert_rel(res.time_s, 27.0, 1e-12);
	ck_assert_int_eq(res.hierarchical, 1);
	res = coll_cost(&r, SIM_COLL_ALLGATHER, 32.0, SIM_ALGO_RING);
	ck_assert_rel(res.time_s, 27.0, 1e-12);
	res = coll_cost(&r, SIM_COLL_BROADCAST, 32.0, SIM_ALGO_RING);
	ck_assert_rel(res.time_s, 52.0, 1e-12);
	ck_assert_int_eq(res.hierarchical, 1);
	res = coll_cost(&r, SIM_COLL_ALLTOALL, 32.0, SIM_ALGO_RING);
	ck_assert_rel(res.time_s, 75.0, 1e-12);
	ck_assert_int_eq(res.hierarchical, 1);
	res = coll_cost(&r, SIM_COLL_ALLTOALL, 32.0, SIM_ALGO_AUTO);
	ck_assert_rel(res.time_s, 75.0, 1e-12);
	{
		struct sim_topo t;
		double flat;

		sim_topology(&r.sys, &t);
		ck_assert(t.can_hier);
		sim_level_cost(&t.flat, SIM_COLL_ALLREDUCE, SIM_ALGO_RING,
			       32.0, &flat);
		ck_assert_rel(flat, 84.0, 1e-12);
		sim_level_cost(&t.flat, SIM_COLL_ALLTOALL, SIM_ALGO_RING,
			       32.0, &flat);
		ck_assert_rel(flat, 78.0, 1e-12);
	}
}
END_TEST

/* ---------------------------------------------------------------- */
/* The algorithm switch                                              */
/* ---------------------------------------------------------------- */

/*
 * 8 devices behind a switch, 1 us and 1 GB/s.  Recursive doubling
 * 3 (alpha + m beta) against Rabenseifner 6 alpha + 7/4 m beta: they
 * cross where 3 alpha = 5/4 m beta, m = 2.4 alpha/beta = 2400 B.
 *   2000 B: doubling 3 (1 + 2) = 9 us, Rabenseifner 6 + 3.5 = 9.5 us
 *   3000 B: doubling 3 (1 + 3) = 12 us, Rabenseifner 6 + 5.25 = 11.25
 * (butterfly ties doubling and comes later; the ring, 14 alpha + 7/4 m
 * beta, never wins; the double tree at 2000 B is 2 x 4 x 2 = 16 us).
 * At 1 GB Rabenseifner stays: 6 us + 1.75 s.
 */
START_TEST(auto_switches_from_latency_to_bandwidth_optimal)
{
	struct coll_rig r;
	struct sim_comm_result res;

	coll_rig_init(&r, 8, 1, HW_TOPO_NVSWITCH);
	r.intra.latency_s = 1e-6;
	r.intra.bandwidth_Bps = 1e9;
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 2000.0, SIM_ALGO_AUTO);
	ck_assert_int_eq(res.algo, SIM_ALGO_RECURSIVE_DOUBLING);
	ck_assert_rel(res.time_s, 9e-6, 1e-9);
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 3000.0, SIM_ALGO_AUTO);
	ck_assert_int_eq(res.algo, SIM_ALGO_HALVING_DOUBLING);
	ck_assert_rel(res.time_s, 11.25e-6, 1e-9);
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 1e9, SIM_ALGO_AUTO);
	ck_assert_int_eq(res.algo, SIM_ALGO_HALVING_DOUBLING);
	ck_assert_rel(res.time_s, 1.75 + 6e-6, 1e-12);
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 2000.0,
		   SIM_ALGO_DOUBLE_BINARY_TREE);
	ck_assert_rel(res.time_s, 16e-6, 1e-9);
	/* an explicit choice is kept */
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 2000.0, SIM_ALGO_RING);
	ck_assert_int_eq(res.algo, SIM_ALGO_RING);
	ck_assert_rel(res.time_s, 14e-6 + 3.5e-6, 1e-9);
}
END_TEST

/*
 * AUTO never picks the parameter server, though with o = g = 0 its
 * incast of 8-byte pushes pays one latency: 1 s and 1 GB/s, 8 ranks,
 * 8 B: 2 (1 + 7 x 8 ns) s against recursive doubling's 3 (1 + 8 ns).
 */
START_TEST(auto_leaves_out_the_parameter_server)
{
	struct coll_rig r;
	struct sim_comm_result res;
	int c;

	coll_rig_init(&r, 8, 1, HW_TOPO_NVSWITCH);
	r.intra.bandwidth_Bps = 1e9;
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0,
			   SIM_ALGO_PARAM_SERVER).time_s, 2.0 + 112e-9, 1e-12);
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 8.0, SIM_ALGO_AUTO);
	ck_assert_int_eq(res.algo, SIM_ALGO_RECURSIVE_DOUBLING);
	ck_assert_rel(res.time_s, 3.0 + 24e-9, 1e-12);
	for (c = 0; c < SIM_COLLECTIVE_COUNT; c++)
		ck_assert(coll_cost(&r, (enum sim_collective)c, 8.0,
			       SIM_ALGO_AUTO).algo != SIM_ALGO_PARAM_SERVER);
}
END_TEST

/* ---------------------------------------------------------------- */
/* The parameter server's incast                                     */
/* ---------------------------------------------------------------- */

/*
 * 4 devices, alpha = beta = 1, m = 24 B.  One server: its link takes 3
 * pushes of 24 B in a row and sends 3 pulls: 2 (1 + 72) = 146, where
 * the seeds' tree equivalent says 2 x 2 (1 + 24) = 100.  Two servers of
 * 12 B each: 2 (1 + 36) = 74; four, a direct reduce-scatter and
 * allgather: 2 (1 + 18) = 38 (the ring allreduce: 42).  A gap of 30
 * spaces the single server's pushes: 2 (25 + 2 x 30) = 170.
 */
START_TEST(parameter_server_pays_its_incast)
{
	struct coll_rig r;
	struct sim_comm_result res;
	struct dlsim_err err = { 0, "" };

	coll_rig_init(&r, 4, 1, HW_TOPO_NVSWITCH);
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0, SIM_ALGO_PARAM_SERVER);
	ck_assert_rel(res.time_s, 146.0, 1e-12);
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0,
			   SIM_ALGO_TREE).time_s, 100.0, 1e-12);
	ck_assert_int_eq(sim_param_server_time(&r.sys, 24.0, 1, &res, &err),
			 DLSIM_OK);
	ck_assert_rel(res.time_s, 146.0, 1e-12);
	ck_assert_int_eq(res.algo, SIM_ALGO_PARAM_SERVER);
	sim_param_server_time(&r.sys, 24.0, 2, &res, &err);
	ck_assert_rel(res.time_s, 74.0, 1e-12);
	sim_param_server_time(&r.sys, 24.0, 4, &res, &err);
	ck_assert_rel(res.time_s, 38.0, 1e-12);
	ck_assert_rel(res.busbw_Bps, 24.0 / 38.0 * 1.5, 1e-12);
	ck_assert_int_eq(sim_param_server_time(&r.sys, 24.0, 5, &res, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "got 5") != NULL);
	ck_assert(res.time_s == 0.0);
	ck_assert_int_eq(sim_param_server_time(&r.sys, 24.0, 0, &res, NULL),
			 DLSIM_EINVAL);
	ck_assert_int_eq(sim_param_server_time(&r.sys, -1.0, 1, &res, NULL),
			 DLSIM_EINVAL);
	r.intra.gap_s = 30.0;
	sim_param_server_time(&r.sys, 24.0, 1, &res, &err);
	ck_assert_rel(res.time_s, 170.0, 1e-12);
}
END_TEST

/*
 * The parameter server runs flat, across nodes too: 2 nodes of 4
 * devices, inside 4 B/s and 1 s, one NIC of 1 B/s and 2 s per node (a
 * device's share 1/4 B/s), m = 32 B.  The server's pushes come over its
 * node's NIC share, at the slower latency: 2 (2 + 7 x 32 x 4) = 1796.
 * The hierarchical form (ring inside, 2 x 3 (1 + 8/4) = 18, a server of
 * the 2 node leaders on m/4 = 8 B, 2 (2 + 8 x 4) = 68) would be 86: not
 * offered, by name or by sim_hier_cost().
 */
START_TEST(parameter_server_runs_flat_across_nodes)
{
	struct coll_rig r;
	struct sim_comm_result res;
	struct sim_topo t;
	double h = -7.0;

	coll_rig_init(&r, 4, 2, HW_TOPO_NVSWITCH);
	r.intra.bandwidth_Bps = 4.0;
	r.nic.latency_s = 2.0;
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 32.0, SIM_ALGO_PARAM_SERVER);
	ck_assert_rel(res.time_s, 1796.0, 1e-12);
	ck_assert_int_eq(res.hierarchical, 0);
	ck_assert_int_eq(res.algo, SIM_ALGO_PARAM_SERVER);
	/* broadcast from one root: 2 + 7 x 32 x 4 = 898, flat too */
	res = coll_cost(&r, SIM_COLL_BROADCAST, 32.0, SIM_ALGO_PARAM_SERVER);
	ck_assert_rel(res.time_s, 898.0, 1e-12);
	ck_assert_int_eq(res.hierarchical, 0);
	sim_topology(&r.sys, &t);
	ck_assert(t.can_hier);
	ck_assert_int_eq(sim_hier_cost(&t, SIM_COLL_ALLREDUCE,
				       SIM_ALGO_PARAM_SERVER, 32.0, &h),
			 DLSIM_EINVAL);
	ck_assert(h == -7.0);
	ck_assert_int_eq(sim_hier_cost(&t, SIM_COLL_ALLREDUCE, SIM_ALGO_RING,
				       32.0, &h), DLSIM_OK);
	ck_assert_rel(h, 54.0, 1e-12);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Results and errors                                                */
/* ---------------------------------------------------------------- */

/*
 * nccl-tests' bus bandwidth (doc/PERFORMANCE.md): algbw = bytes / time
 * times 2 (n-1)/n for allreduce, (n-1)/n for reduce-scatter, allgather
 * and all-to-all, 1 for broadcast and reduce.  4 devices, 24 B, ring:
 * allreduce 42 s, busbw 24/42 x 3/2.
 */
START_TEST(bus_bandwidth_factors)
{
	static const double factor[SIM_COLLECTIVE_COUNT] = {
		1.5, 0.75, 0.75, 1.0, 1.0, 0.75
	};
	struct coll_rig r;
	int c;

	coll_rig_init(&r, 4, 1, HW_TOPO_NVSWITCH);
	for (c = 0; c < SIM_COLLECTIVE_COUNT; c++) {
		struct sim_comm_result res = coll_cost(&r, (enum sim_collective)c,
						  24.0, SIM_ALGO_AUTO);

		ck_assert(res.time_s > 0.0);
		ck_assert_rel(res.algbw_Bps, 24.0 / res.time_s, 1e-12);
		ck_assert_rel(res.busbw_Bps, res.algbw_Bps * factor[c],
			      1e-12);
	}
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0,
			   SIM_ALGO_RING).busbw_Bps, 24.0 / 42.0 * 1.5, 1e-12);
}
END_TEST

START_TEST(invalid_pairs_and_inputs_are_einval)
{
	struct coll_rig r;
	struct sim_comm_result res;
	struct dlsim_err err = { 0, "" };
	enum sim_algo used;

	coll_rig_init(&r, 6, 1, HW_TOPO_NVSWITCH);
	ck_assert_int_eq(sim_collective_time(&r.sys, SIM_COLL_ALLTOALL, 24.0,
					     SIM_ALGO_PARAM_SERVER, &res,
					     &err), DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "parameter-server") != NULL &&
		  strstr(err.msg, "all-to-all") != NULL);
	ck_assert(res.time_s == 0.0 && res.algo == SIM_ALGO_AUTO);
	dlsim_err_clear(&err);
	ck_assert_int_eq(sim_collective_time(&r.sys, SIM_COLL_REDUCE_SCATTER,
					     24.0, SIM_ALGO_TREE, &res, &err),
			 DLSIM_EINVAL);
	dlsim_err_clear(&err);
	/* butterfly needs a power of two: 6 devices in one node */
	ck_assert_int_eq(sim_collective_time(&r.sys, SIM_COLL_ALLREDUCE, 24.0,
					     SIM_ALGO_BUTTERFLY, &res, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "6 devices") != NULL);
	dlsim_err_clear(&err);
	ck_assert_int_eq(sim_collective_time(&r.sys, SIM_COLL_ALLREDUCE, -1.0,
					     SIM_ALGO_RING, &res, &err),
			 DLSIM_EINVAL);
	ck_assert_int_eq(sim_collective_time(&r.sys, SIM_COLL_ALLREDUCE, NAN,
					     SIM_ALGO_RING, &res, NULL),
			 DLSIM_EINVAL);
	ck_assert_int_eq(sim_collective_time(&r.sys, SIM_COLL_ALLREDUCE,
					     INFINITY, SIM_ALGO_RING, &res,
					     NULL), DLSIM_EINVAL);
	ck_assert_int_eq(sim_collective_time(&r.sys, SIM_COLL_ALLREDUCE, 1.0,
					     SIM_ALGO_COUNT, &res, NULL),
			 DLSIM_EINVAL);
	ck_assert_int_eq(sim_collective_time(&r.sys, SIM_COLLECTIVE_COUNT,
					     1.0, SIM_ALGO_RING, &res, NULL),
			 DLSIM_EINVAL);
	/* the allreduce wrapper gives way to AUTO: the ring, 50 */
	ck_assert_rel(sim_allreduce_time(&r.sys, 24.0, SIM_ALGO_BUTTERFLY,
					 &used, NULL), 50.0, 1e-12);
	ck_assert_int_eq(used, SIM_ALGO_RING);
	/* on 8 the butterfly is fine: 3 (1 + 24) = 75 */
	coll_rig_init(&r, 8, 1, HW_TOPO_NVSWITCH);
	ck_assert_rel(coll_cost(&r, SIM_COLL_ALLREDUCE, 24.0,
			   SIM_ALGO_BUTTERFLY).time_s, 75.0, 1e-12);
}
END_TEST

/* One device, or no bytes, costs nothing and moves nothing. */
START_TEST(one_device_or_no_bytes_is_free)
{
	struct coll_rig r;
	struct sim_comm_result res;

	coll_rig_init(&r, 1, 1, HW_TOPO_SINGLE);
	res = coll_cost(&r, SIM_COLL_ALLTOALL, 1e9, SIM_ALGO_AUTO);
	ck_assert(res.time_s == 0.0 && res.busbw_Bps == 0.0);
	coll_rig_init(&r, 4, 2, HW_TOPO_NVSWITCH);
	res = coll_cost(&r, SIM_COLL_ALLREDUCE, 0.0, SIM_ALGO_RING);
	ck_assert(res.time_s == 0.0 && res.algo == SIM_ALGO_RING);
	ck_assert(sim_allreduce_time(&r.sys, NAN, SIM_ALGO_AUTO, NULL,
				     NULL) == 0.0);
}
END_TEST

/* A million devices and a 10^13-byte buffer stay finite for every
 * collective. */
START_TEST(extreme_sizes_stay_finite)
{
	struct coll_rig r;
	int c;

	coll_rig_init(&r, 8, 125000, HW_TOPO_NVSWITCH);
	r.intra.bandwidth_Bps = 3e11;
	r.nic.bandwidth_Bps = 5e10;
	r.intra.latency_s = 1e-6;
	r.nic.latency_s = 1e-6;
	for (c = 0; c < SIM_COLLECTIVE_COUNT; c++) {
		struct sim_comm_result res = coll_cost(&r, (enum sim_collective)c,
						  1e13, SIM_ALGO_AUTO);

		ck_assert(isfinite(res.time_s) && res.time_s > 0.0);
		ck_assert(isfinite(res.busbw_Bps) && res.busbw_Bps > 0.0);
	}
}
END_TEST

Suite *suite_collective(void)
{
	Suite *s = suite_create("collective");
	TCase *c = tcase_create("loggp");

	tcase_add_test(c, loggp_message_step_and_burst);
	tcase_add_test(c, loggp_from_a_link);
	tcase_add_test(c, loggp_gap_and_rendezvous_on_a_ring);
	suite_add_tcase(s, c);
	c = tcase_create("closed_forms");
	tcase_add_loop_test(c, collective_matches_closed_form, 0, N_TABLE);
	tcase_add_test(c, collective_table_is_complete);
	tcase_add_test(c, double_binary_tree_pipelines_at_the_best_chunk);
	tcase_add_test(c, hierarchical_inside_across_inside);
	tcase_add_test(c, auto_switches_from_latency_to_bandwidth_optimal);
	tcase_add_test(c, auto_leaves_out_the_parameter_server);
	tcase_add_test(c, parameter_server_pays_its_incast);
	tcase_add_test(c, parameter_server_runs_flat_across_nodes);
	suite_add_tcase(s, c);
	c = tcase_create("api");
	tcase_add_test(c, bus_bandwidth_factors);
	tcase_add_test(c, invalid_pairs_and_inputs_are_einval);
	tcase_add_test(c, one_device_or_no_bytes_is_free);
	tcase_add_test(c, extreme_sizes_stay_finite);
	suite_add_tcase(s, c);
	return s;
}
