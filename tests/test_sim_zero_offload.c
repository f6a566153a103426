/*
 * test_sim_zero_offload.c -- ZeRO-Offload (sim_strategy.update_on_host,
 * sim/sim_parallel.c, sim_plan.c): each device's optimizer shard pushed
 * to its host and pulled back, the host's update of its node's shards
 * and the device and host memory it leaves, worked out by hand on the
 * shipped DGX A100s under data, tensor and pipeline parallelism, and the
 * plan that keeps only offloading strategies.
 *
 * Apart from test_sim_host.c, whose update on the host is the one
 * data-parallel step's (sim_predict on the launch-only rig of
 * sim_util.c): here ZeRO shards the update and the hybrid-parallel model
 * prices it, on the catalog's machines.
 */
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "hw_util.h"

/*
 * ZeRO-Offload under a strategy, on a DGX A100 (PCIe 4 x16 at 31.5
 * GB/s, 1 us, two GPUs to a switch; two EPYC 7742 of 8 x DDR4-3200 x 8
 * B = 204.8 GB/s at 0.81): a GPT of P parameters, dp 8, ZeRO 1, bf16,
 * Adam.  Each device's shard is P/8: its fp32 gradients out, 4 P/8 B at
 * 15.75 GB/s, its bf16 weights back, 2 P/8 B; the host runs Adam on the
 * eight shards, 30 B a parameter (gradient 4, master read and written
 * 8, state 16, the 16-bit copy 2), 30 P B at 2 x 204.8 GB/s x 0.81.  The
 * device keeps the bf16 weights (2 P) and no master or state; the
 * node's host 18 B a parameter (master, gradient, state, the copy).
 * ZeRO 0 with data parallelism is refused; on one device it is the
 * whole model's trip.
 */
START_TEST(zero_offload_under_a_strategy)
{
	struct hw_catalog *cat = hw_test_shipped();
	struct hw_system s;
	struct sim_strategy st;
	struct sim_par_result r, dev;
	struct model *m = NULL;
	struct dlsim_err err = { 0 };
	double P, shard, push, pull, host;

	ck_assert_int_eq(hw_system_resolve(cat, "dgx-a100", &s, &err), DLSIM_OK);
	ck_assert_int_eq(model_resolve("gpt:layers=2,hidden=256,heads=4,"
				       "seq=128,vocab=1024", &m, &err),
			 DLSIM_OK);
	P = (double)m->params;
	shard = P / 8.0;
	push = 1e-6 + 4.0 * shard / 15.75e9;
	pull = 1e-6 + 2.0 * shard / 15.75e9;
	host = 8.0 * 30.0 * shard / (2.0 * 204.8e9 * 0.81);
	sim_strategy_init(&st);
	st.dp = 8;
	st.global_batch = 8;
	st.zero = 1;
	st.update_on_host = 1;
	ck_assert_msg(sim_parallel_predict(m, &s, DLSIM_BF16, SIM_OPT_ADAM,
					   &st, &r, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_rel(r.host_trip_s, push + pull, 1e-9);
	ck_assert_rel(r.optimizer_s, push + pull + host, 1e-9);
	ck_assert_rel(r.memory.weights_bytes, 2.0 * P, 1e-12);
	ck_assert(r.memory.optimizer_bytes == 0.0);
	ck_assert_rel(r.memory.host_bytes, 18.0 * P, 1e-12);
	ck_assert(r.memory.host_capacity_bytes == 2048.0 * 1073741824.0);
	ck_assert(r.fits);
	/* the rest of the step is the device update's */
	st.update_on_host = 0;
	ck_assert_int_eq(sim_parallel_predict(m, &s, DLSIM_BF16, SIM_OPT_ADAM,
					      &st, &dev, &err), DLSIM_OK);
	ck_assert_rel(r.step_time_s - r.optimizer_s,
		      dev.step_time_s - dev.optimizer_s, 1e-9);
	ck_assert(dev.host_trip_s == 0.0 && dev.memory.host_bytes == 0.0);
	/* ZeRO 0 keeps every replica's whole state: not ZeRO-Offload */
	st.update_on_host = 1;
	st.zero = 0;
	dlsim_err_clear(&err);
	ck_assert_int_eq(sim_parallel_predict(m, &s, DLSIM_BF16, SIM_OPT_ADAM,
					      &st, &r, &err), DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "it needs --zero 1 or more") != NULL,
		      "%s", err.msg);
	model_free(m);
	hw_catalog_free(cat);
}
END_TEST

/*
 * ZeRO-Offload's trip and host update by hand beyond one node of dp 8,
 * all bf16 Adam on DGX A100s (links 15.75 GB/s shared by two, the host
 * 2 x 204.8 x 0.81 GB/s, 30 B a parameter of host traffic):
 *   a100x16, dp 16: a device's shard P/16; a node's host updates its
 *     eight devices' shards, P/2;
 *   tp 2 x dp 4: the shard P/2/4 of a tp rank; the node holds all eight;
 *   pp 4 x dp 2 (ZeRO 2): four stages on the node, each rank's shard its
 *     stage's half; the host updates all of them, P (the stages sum to
 *     the model); the trip is the largest stage's shard;
 *   dp 1 on one GPU: the whole model's trip, no ZeRO needed.
 */
START_TEST(zero_offload_shards_by_hand)
{
	static const struct {
		const char *hw;
		int64_t tp, pp, dp;
		int zero;
		double shard_div, node_frac;
	} cases[] = {
		{ "a100x16", 1, 1, 16, 1, 16.0, 0.5 },
		{ "dgx-a100", 2, 1, 4, 1, 8.0, 1.0 },
		{ "a100", 1, 1, 1, 0, 1.0, 1.0 },
	};
	struct hw_catalog *cat = hw_test_shipped();
	struct hw_system s;
	struct sim_strategy st;
	struct sim_par_result r;
	struct model *m = NULL;
	struct dlsim_err err = { 0 };
	const double link = 15.75e9, host_Bps = 2.0 * 204.8e9 * 0.81;
	double P;
	size_t i;

	ck_assert_int_eq(model_resolve("gpt:layers=4,hidden=256,heads=4,"
				       "seq=128,vocab=1024", &m, &err),
			 DLSIM_OK);
	P = (double)m->params;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double shard = P / cases[i].shard_div;
		/* one GPU has its link to itself */
		double bw = cases[i].dp * cases[i].tp > 1 ? link : 2.0 * link;

		ck_assert_int_eq(hw_system_resolve(cat, cases[i].hw, &s, &err),
				 DLSIM_OK);
		sim_strategy_init(&st);
		st.tp = cases[i].tp;
		st.pp = cases[i].pp;
		st.dp = cases[i].dp;
		st.zero = cases[i].zero;
		st.global_batch = 16;
		st.update_on_host = 1;
		ck_assert_msg(sim_parallel_predict(m, &s, DLSIM_BF16,
						   SIM_OPT_ADAM, &st, &r,
						   &err) == DLSIM_OK, "%s",
			      err.msg);
		ck_assert_rel(r.host_trip_s, 2e-6 + 6.0 * shard / bw, 1e-9);
		ck_assert_rel(r.optimizer_s - r.host_trip_s,
			      30.0 * P * cases[i].node_frac / host_Bps, 1e-9);
		ck_assert_rel(r.memory.host_bytes, 18.0 * P *
			      cases[i].node_frac, 1e-9);
	}
	/* pp 4 x dp 2: the stages differ (the first holds the embedding,
	 * the last the logits), and the node's host holds every one */
	ck_assert_int_eq(hw_system_resolve(cat, "dgx-a100", &s, &err),
			 DLSIM_OK);
	sim_strategy_init(&st);
	st.pp = 4;
	st.dp = 2;
	st.zero = 2;
	st.global_batch = 16;
	st.update_on_host = 1;
	ck_assert_int_eq(sim_parallel_predict(m, &s, DLSIM_BF16, SIM_OPT_ADAM,
					      &st, &r, &err), DLSIM_OK);
	ck_assert_rel(r.optimizer_s - r.host_trip_s, 30.0 * P / host_Bps,
		      1e-9);
	ck_assert_rel(r.memory.host_bytes, 18.0 * P, 1e-9);
	ck_assert(r.host_trip_s < 2e-6 + 6.0 * (P / 2.0) / link);
	model_free(m);
	hw_catalog_free(cat);
}
END_TEST

/*
 * What the device holds, offloading or not, dp 8 on a DGX A100, Adam:
 * in fp32 the device computes with its fp32 weights, whole below ZeRO 3
 * (4 P), under autocast with their cast cache too (6 P); in bf16 with
 * the 16-bit copy (2 P) and, updating on the device, the fp32 master
 * sharded from ZeRO 1 (4 P / 8).  Gradients shard from ZeRO 2, weights
 * from 3.  Offloading never needs more device memory than the device
 * update.
 */
START_TEST(zero_offload_device_memory)
{
	static const struct {
		enum dlsim_precision p;
		int autocast;
		double weights;      /* B a parameter, offloading, below 3 */
	} cases[] = {
		{ DLSIM_FP32, 0, 4.0 }, { DLSIM_BF16, 1, 6.0 },
		{ DLSIM_BF16, 0, 2.0 },
	};
	struct hw_catalog *cat = hw_test_shipped();
	struct hw_system s;
	struct sim_strategy st;
	struct sim_par_result off, dev;
	struct model *m = NULL;
	struct dlsim_err err = { 0 };
	double P;
	size_t i;
	int z;

	ck_assert_int_eq(hw_system_resolve(cat, "dgx-a100", &s, &err),
			 DLSIM_OK);
	ck_assert_int_eq(model_resolve("gpt:layers=4,hidden=256,heads=4,"
				       "seq=128,vocab=1024", &m, &err),
			 DLSIM_OK);
	P = (double)m->params;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (z = 1; z <= 3; z++) {
			sim_strategy_init(&st);
			st.dp = 8;
			st.zero = z;
			st.global_batch = 16;
			st.autocast = cases[i].autocast;
			st.update_on_host = 1;
			ck_assert_int_eq(sim_parallel_predict(m, &s,
				cases[i].p, SIM_OPT_ADAM, &st, &off, &err),
				DLSIM_OK);
			st.update_on_host = 0;
			ck_assert_int_eq(sim_parallel_predict(m, &s,
				cases[i].p, SIM_OPT_ADAM, &st, &dev, &err),
				DLSIM_OK);
			ck_assert_rel(off.memory.weights_bytes, cases[i].weights
				      * P / (z >= 3 ? 8.0 : 1.0), 1e-9);
			ck_assert_rel(off.memory.gradients_bytes, 4.0 * P /
				      (z >= 2 ? 8.0 : 1.0), 1e-9);
			ck_assert_rel(dev.memory.weights_bytes,
				      off.memory.weights_bytes +
				      (cases[i].p == DLSIM_BF16 &&
				       !cases[i].autocast ? 4.0 * P / 8.0 :
				       0.0), 1e-9);
			ck_assert_rel(dev.memory.optimizer_bytes, 8.0 * P / 8.0,
				      1e-9);
			ck_assert(off.memory.total_bytes <
				  dev.memory.total_bytes);
		}
	model_free(m);
	hw_catalog_free(cat);
}
END_TEST

/*
 * The host's memory bounds ZeRO-Offload: GPT-3 175B on 64 DGX A100s
 * (2 TiB a node) at tp 8 x dp 64: a node's eight devices are one
 * replica's tp ranks, each with its shard of 175 G / 8 / 64 parameters,
 * 2.7 G in all at 18 B, about 46 GiB on each host: it fits; on one node (tp 8, dp 1) the host would hold
 * the whole model, 175 G x 18 B, about 2.9 TiB: it does not, though the
 * devices would hold their compute weights.
 */
START_TEST(zero_offload_host_capacity)
{
	struct hw_catalog *cat = hw_test_shipped();
	struct hw_system s;
	struct sim_strategy st;
	struct sim_par_result r;
	struct model *m = NULL;
	struct dlsim_err err = { 0 };

	ck_assert_int_eq(model_resolve("gpt3-175b", &m, &err), DLSIM_OK);
	ck_assert_int_eq(hw_system_resolve(cat, "dgx-a100x64", &s, &err),
			 DLSIM_OK);
	sim_strategy_init(&st);
	st.tp = 8;
	st.dp = 64;
	st.zero = 3;
	st.global_batch = 64;
	st.recompute = SIM_RECOMPUTE_FULL;
	st.update_on_host = 1;
	ck_assert_int_eq(sim_parallel_predict(m, &s, DLSIM_BF16, SIM_OPT_ADAM,
					      &st, &r, &err), DLSIM_OK);
	ck_assert_rel(r.memory.host_bytes, (double)m->params / 64.0 * 18.0,
		      1e-9);
	ck_assert(r.memory.host_bytes <= r.memory.host_capacity_bytes);
	ck_assert_int_eq(hw_system_resolve(cat, "dgx-a100", &s, &err),
			 DLSIM_OK);
	st.dp = 1;
	st.global_batch = 1;
	ck_assert_int_eq(sim_parallel_predict(m, &s, DLSIM_BF16, SIM_OPT_ADAM,
					      &st, &r, &err), DLSIM_OK);
	ck_assert_rel(r.memory.host_bytes, (double)m->params * 18.0, 1e-9);
	ck_assert(r.memory.host_bytes > r.memory.host_capacity_bytes);
	ck_assert(!r.fits);
	model_free(m);
	hw_catalog_free(cat);
}
END_TEST

/* A plan with the update on the host tries no ZeRO 0 strategy with data
 * parallelism, and every one it keeps offloads. */
START_TEST(plan_with_zero_offload)
{
	struct hw_catalog *cat = hw_test_shipped();
	struct hw_system s;
	struct sim_plan_options po;
	struct sim_plan_result plan;
	struct model *m = NULL;
	struct dlsim_err err = { 0 };
	int i;

	ck_assert_int_eq(hw_system_resolve(cat, "dgx-a100", &s, &err), DLSIM_OK);
	ck_assert_int_eq(model_resolve("gpt:layers=2,hidden=256,heads=4,"
				       "seq=128,vocab=1024", &m, &err),
			 DLSIM_OK);
	sim_plan_options_init(&po);
	po.global_batch = 16;
	po.top_k = 50;
	po.update_on_host = 1;
	ck_assert_msg(sim_plan(m, &s, DLSIM_BF16, SIM_OPT_ADAM, &po, &plan,
			       &err) == DLSIM_OK, "%s", err.msg);
	ck_assert_int_gt(plan.n_top, 10);
	ck_assert_int_eq(plan.n_invalid, 0);
	for (i = 0; i < plan.n_top; i++) {
		ck_assert(plan.top[i].strategy.update_on_host);
		ck_assert(plan.top[i].strategy.dp == 1 ||
			  plan.top[i].strategy.zero >= 1);
		ck_assert(plan.top[i].host_trip_s > 0.0);
	}
	sim_plan_release(&plan);
	ck_assert_int_eq(hw_system_resolve(cat, "h100x8", &s, &err), DLSIM_OK);
	dlsim_err_clear(&err);
	ck_assert_int_eq(sim_plan(m, &s, DLSIM_BF16, SIM_OPT_ADAM, &po, &plan,
				  &err), DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "states no host CPU") != NULL, "%s",
		      err.msg);
	model_free(m);
	hw_catalog_free(cat);
}
END_TEST

Suite *suite_sim_zero_offload(void)
{
	Suite *s = suite_create("sim_zero_offload");
	TCase *c = tcase_create("core");

	tcase_add_test(c, zero_offload_under_a_strategy);
	tcase_add_test(c, plan_with_zero_offload);
	tcase_add_test(c, zero_offload_shards_by_hand);
	tcase_add_test(c, zero_offload_device_memory);
	tcase_add_test(c, zero_offload_host_capacity);
	suite_add_tcase(s, c);
	return s;
}
