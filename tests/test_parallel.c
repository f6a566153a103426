/*
 * test_parallel.c -- hybrid parallelism (sim/sim_parallel.c, its layer
 * costs sim/sim_par_cost.c) and the strategy search (sim/sim_plan.c) on
 * small GPTs and the shipped catalog's A100 nodes.
 *
 * The activation and ZeRO figures are worked out here by hand from the
 * published formulas (Korthikanti et al. 2022 Table 2; Rajbhandari et al.
 * 2020 Sec. 5); the pipeline's step is checked against the schedule
 * formulas (Narayanan et al. 2021 Sec. 2.2) on the costs the context
 * reports; the search against a brute-force loop written here.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "sim_util.h"

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

struct rig {
	struct hw_catalog *cat;
	struct hw_system sys;
	struct model *m;
};

/* A GPT of L blocks, hidden 64, 4 heads, seq 32, vocab 100, on spec. */
static void rig_open(struct rig *r, const char *spec, int L)
{
	struct dlsim_err err = { 0, "" };
	char name[128];

	memset(r, 0, sizeof(*r));
	ck_assert_msg(hw_catalog_load(NULL, &r->cat, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_msg(hw_system_resolve(r->cat, spec, &r->sys, &err) ==
		      DLSIM_OK, "%s", err.msg);
	snprintf(name, sizeof(name), "gpt:layers=%d,hidden=64,heads=4,"
		 "seq=32,vocab=100", L);
	ck_assert_msg(model_resolve(name, &r->m, &err) == DLSIM_OK, "%s",
		      err.msg);
}

static void rig_close(struct rig *r)
{
	model_free(r->m);
	hw_catalog_free(r->cat);
}

static void eval(struct rig *r, const struct sim_strategy *st,
		 enum dlsim_precision p, struct sim_par_result *out)
{
	struct dlsim_err err = { 0, "" };

	ck_assert_msg(sim_parallel_predict(r->m, &r->sys, p, SIM_OPT_ADAM, st,
					   out, &err) == DLSIM_OK, "%s",
		      err.msg);
}

/* ---------------------------------------------------------------- */
/* One strategy                                                      */
/* ---------------------------------------------------------------- */

/* Swap the rig's model for the same GPT with unfused=1 (scores stored). */
static void rig_unfused(struct rig *r, int L)
{
	struct dlsim_err err = { 0, "" };
	char name[128];

	model_free(r->m);
	snprintf(name, sizeof(name), "gpt:layers=%d,hidden=64,heads=4,"
		 "seq=32,vocab=100,unfused=1", L);
	ck_assert_msg(model_resolve(name, &r->m, &err) == DLSIM_OK, "%s",
		      err.msg);
}

/*
 * Activations, fp16, micro-batch 2, s = 32, h = 64, a = 4: s b h = 4096.
 * Unfused attention, per block without tp: 4096 (34 + 5 x 4 x 32 / 64) =
 * 4096 x 44 = 180,224 B.  One device, one micro-batch in flight, 2
 * blocks, plus the fp32 logits 32 x 2 x 100 x 4 = 25,600 B: 386,048 B.
 * Selective drops the 5as/h term: 2 x 4096 x 34 + 25,600 = 304,128, as
 * a fused attention does without recomputing anything.  Full keeps 2 s
 * b h per block: 2 x 8192 + 25,600 = 41,984.
 */
START_TEST(parallel_activations_by_hand)
{
	struct sim_strategy st;
	struct sim_par_result r;
	struct rig g;

	rig_open(&g, "a100", 2);
	sim_strategy_init(&st);
	st.micro_batch = 2;
	st.global_batch = 2;
	eval(&g, &st, DLSIM_FP16, &r);
	ck_assert_rel(r.memory.activations_bytes, 304128.0, 1e-12);
	rig_unfused(&g, 2);
	eval(&g, &st, DLSIM_FP16, &r);
	ck_assert_rel(r.memory.activations_bytes, 386048.0, 1e-12);
	st.recompute = SIM_RECOMPUTE_SELECTIVE;
	eval(&g, &st, DLSIM_FP16, &r);
	ck_assert_rel(r.memory.activations_bytes, 304128.0, 1e-12);
	st.recompute = SIM_RECOMPUTE_FULL;
	eval(&g, &st, DLSIM_FP16, &r);
	ck_assert_rel(r.memory.activations_bytes, 41984.0, 1e-12);
	rig_close(&g);
}
END_TEST

/*
 * Unfused attention, tp = 2 on two A100s, no sequence parallelism: per
 * block 4096 (10 + 24/2 + 5 x 4 x 32 / (64 x 2)) = 4096 x 27 = 110,592;
 * logits halve:
 * 12,800.  Two blocks: 233,984.  With sequence parallelism: 4096 / 2
 * (34 + 10) = 90,112 a block: 193,024.
 */
START_TEST(parallel_activations_with_tp)
{
	struct sim_strategy st;
	struct sim_par_result r;
	struct rig g;

	rig_open(&g, "a100x2", 2);
	rig_unfused(&g, 2);
	sim_strategy_init(&st);
	st.tp = 2;
	st.dp = 1;
	st.micro_batch = 2;
	st.global_batch = 2;
	eval(&g, &st, DLSIM_FP16, &r);
	ck_assert_rel(r.memory.activations_bytes, 233984.0, 1e-12);
	ck_assert(r.tp_in_node && r.tp_comm_s > 0.0);
	st.sequence_parallel = 1;
	eval(&g, &st, DLSIM_FP16, &r);
	ck_assert_rel(r.memory.activations_bytes, 193024.0, 1e-12);
	rig_close(&g);
}
END_TEST

/*
 * ZeRO on dp = 4, Adam, fp16 mixed: per parameter 2 (fp16 weights) + 4
 * (fp32 master) + 4 (fp32 gradients) + 8 (Adam) = 18 B.  Stage 1 divides
 * master and Adam by 4: 2 + 1 + 4 + 2 = 9; stage 2 also the gradients:
 * 2 + 1 + 1 + 2 = 6; stage 3 also the fp16 weights: 0.5 + 1 + 1 + 2 =
 * 4.5 B (Rajbhandari et al. 2020, Sec. 5: 16 B with fp16 gradients).
 */
START_TEST(parallel_zero_memory_by_hand)
{
	static const double per_param[] = { 18.0, 9.0, 6.0, 4.5 };
	struct sim_strategy st;
	struct sim_par_result r;
	struct rig g;
	double P;
	int z;

	rig_open(&g, "a100x4", 2);
	P = (double)g.m->params;
	sim_strategy_init(&st);
	st.dp = 4;
	st.global_batch = 4;
	for (z = 0; z <= 3; z++) {
		st.zero = z;
		eval(&g, &st, DLSIM_FP16, &r);
		ck_assert_rel(r.memory.weights_bytes + r.memory.gradients_bytes +
			      r.memory.optimizer_bytes, per_param[z] * P, 1e-12);
	}
	rig_close(&g);
}
END_TEST

/*
 * torch.optim's foreach AdamW moves 80 bytes a parameter in 8 kernels
 * where the fused one moves 30 (fp16 mixed: 4 + 8 + 16 + 2) in one
 * (sim_optimizer.c's head comment): less the launches, the update takes 8/3
 * as long, the rest of the step the same.
 */
START_TEST(parallel_optimizer_foreach)
{
	struct sim_strategy st;
	struct sim_par_result a, b;
	struct rig g;
	double launch;

	rig_open(&g, "a100x8", 8);
	launch = g.sys.device->launch_overhead_s;
	sim_strategy_init(&st);
	st.dp = 8;
	st.global_batch = 8;
	eval(&g, &st, DLSIM_FP16, &a);
	st.optimizer_foreach = 1;
	eval(&g, &st, DLSIM_FP16, &b);
	ck_assert(a.optimizer_s > launch);
	ck_assert_rel(b.optimizer_s - 8.0 * launch,
		      (a.optimizer_s - launch) * 80.0 / 30.0, 1e-9);
	ck_assert_rel(b.step_time_s - b.optimizer_s,
		      a.step_time_s - a.optimizer_s, 1e-12);
	rig_close(&g);
}
END_TEST

/*
 * The schedule: with m micro-batches on p stages the step is (m + p - 1)
 * x (the slowest stage's forward, backward and sends) plus the reduction
 * and the optimizer; GPipe costs what 1F1B does but holds all m micro-
 * batches' activations (1F1B: p on the first stage); interleaving with v
 * chunks shrinks the bubble to (p - 1)/v of a micro-batch's time.  8
 * blocks over 4 stages of an 8-A100 node (tp 1, dp 2), 8 micro-batches.
 */
START_TEST(parallel_pipeline_schedules)
{
	struct sim_strategy st;
	struct sim_par_result a, gp, il;
	struct rig g;
	double unit;

	rig_open(&g, "a100x8", 8);
	sim_strategy_init(&st);
	st.pp = 4;
	st.dp = 2;
	st.micro_batch = 1;
	st.global_batch = 16;
	eval(&g, &st, DLSIM_FP16, &a);
	ck_assert_int_eq(a.micro_batches, 8);
	unit = a.bubble_s / 3.0;       /* one micro-batch's slot */
	ck_assert_rel(a.step_time_s, (8.0 + 3.0) * unit + a.dp_comm_s +
		      a.optimizer_s, 1e-12);
	ck_assert_rel(unit, a.stage_fwd_s + a.stage_bwd_s +
		      a.pp_comm_s / 8.0, 1e-12);
	st.schedule = SIM_SCHED_GPIPE;
	eval(&g, &st, DLSIM_FP16, &gp);
	ck_assert_rel(gp.step_time_s, a.step_time_s, 1e-12);
	/* the first stage: 8 micro-batches in flight against 4 */
	ck_assert(gp.memory.activations_bytes > a.memory.activations_bytes);
	st.schedule = SIM_SCHED_INTERLEAVED;
	st.chunks = 2;
	eval(&g, &st, DLSIM_FP16, &il);
	ck_assert_rel(il.bubble_s, 1.5 * (il.stage_fwd_s + il.stage_bwd_s +
					  il.pp_comm_s / 8.0), 1e-12);
	ck_assert(il.bubble_s < a.bubble_s);
	rig_close(&g);
}
END_TEST

/*
 * Uneven stages: 10 blocks over 4 stages are 3, 3, 2, 2 (sim_parallel.c:
 * the first L mod pp stages take one more), so the first stage, its 3
 * blocks and the embedding, is the slowest.  On the launch-only rig of
 * sim_util.c (1 ms a kernel, nothing else takes time) a stage's forward
 * is its kernel count in ms: a block's 12 layers (attn norm, qkv, core,
 * proj, drop, add; mlp norm, fc1, act, fc2, drop, add) one kernel each,
 * the embedding 2 (embed, its dropout), the head 3 (norm, lm_head,
 * loss).  10 blocks: first stage 2 + 3 x 12 = 38 ms, the last 2 x 12 +
 * 3 = 27.  12 blocks (3, 3, 3, 3): the last, 3 x 12 + 3 = 39 ms.  A
 * split that gave the remainder to the last stages (2, 2, 3, 3) would
 * make the 10-block pipeline's slowest stage 39 ms too, and one that
 * gave it all to the first (4, 2, 2, 2) 50 ms.
 */
START_TEST(parallel_uneven_stages)
{
	struct sim_strategy st;
	struct sim_par_result r;
	struct sim_rig rig;
	struct model *m;
	int L;

	sim_rig_init(&rig, 4, 1);
	sim_strategy_init(&st);
	st.pp = 4;
	st.global_batch = 4;
	for (L = 10; L <= 12; L += 2) {
		char name[128];
		struct dlsim_err err = { 0, "" };

		snprintf(name, sizeof(name), "gpt:layers=%d,hidden=64,heads=4,"
			 "seq=32,vocab=100", L);
		ck_assert_msg(model_resolve(name, &m, &err) == DLSIM_OK, "%s",
			      err.msg);
		ck_assert_msg(sim_parallel_predict(m, &rig.sys, DLSIM_FP32,
						   SIM_OPT_ADAM, &st, &r,
						   &err) == DLSIM_OK, "%s",
			      err.msg);
		ck_assert_rel(r.stage_fwd_s, L == 10 ? 38e-3 : 39e-3, 1e-9);
		model_free(m);
	}
}
END_TEST

/* Bad strategies name the constraint they break. */
START_TEST(parallel_rejects_bad_strategies)
{
	static const struct {
		int64_t tp, pp, dp, mb, gb;
		int zero;
		enum sim_schedule sch;
		int64_t chunks;
		const char *want;
	} bad[] = {
		{ 2, 2, 1, 1, 4, 0, SIM_SCHED_1F1B, 1, "must equal the 8" },
		{ 1, 16, 1, 1, 16, 0, SIM_SCHED_1F1B, 1, "must equal" },
		{ 1, 1, 8, 2, 12, 0, SIM_SCHED_1F1B, 1, "not a multiple" },
		{ 1, 2, 4, 1, 8, 3, SIM_SCHED_1F1B, 1, "ZeRO stage 3" },
		{ 1, 2, 4, 1, 8, 0, SIM_SCHED_INTERLEAVED, 3,
		  "interleaved" },
		{ 8, 1, 1, 1, 8, 0, SIM_SCHED_1F1B, 1,
		  "does not divide the 4 attention heads" },
		{ 1, 2, 4, 1, 8, 0, SIM_SCHED_1F1B, 2,
		  "needs the interleaved schedule" },
		/* dp x micro-batch would overflow int64 if multiplied */
		{ 1, 1, 8, INT64_MAX / 4, 8, 0, SIM_SCHED_1F1B, 1,
		  "not a multiple" },
		/* a multiple of dp, but above the limit: said so */
		{ 1, 1, 8, 1, MODEL_MAX_BATCH * 8, 0, SIM_SCHED_1F1B, 1,
		  "global batch 8000000 is outside 1..1000000" },
	};
	struct dlsim_err err;
	struct sim_strategy st;
	struct sim_par_result r;
	struct rig g;
	size_t i;

	rig_open(&g, "a100x8", 4);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sim_strategy_init(&st);
		st.tp = bad[i].tp;
		st.pp = bad[i].pp;
		st.dp = bad[i].dp;
		st.micro_batch = bad[i].mb;
		st.global_batch = bad[i].gb;
		st.zero = bad[i].zero;
		st.schedule = bad[i].sch;
		st.chunks = bad[i].chunks;
		memset(&err, 0, sizeof(err));
		ck_assert_int_eq(sim_parallel_predict(g.m, &g.sys, DLSIM_FP16,
						      SIM_OPT_ADAM, &st, &r,
						      &err), DLSIM_EINVAL);
		ck_assert_msg(strstr(err.msg, bad[i].want) != NULL,
			      "case %zu: %s", i, err.msg);
	}
	rig_close(&g);
}
END_TEST

/* A strategy trains as one device does: int8 (inference) and a precision
 * the device has no peak for are refused, with predict's words. */
START_TEST(parallel_refuses_what_predict_refuses)
{
	struct dlsim_err err = { 0, "" };
	struct sim_strategy st;
	struct sim_par_result r;
	struct rig g;

	rig_open(&g, "a100x8", 4);
	sim_strategy_init(&st);
	st.tp = 2;
	st.dp = 4;
	st.global_batch = 4;
	ck_assert_int_eq(sim_parallel_predict(g.m, &g.sys, DLSIM_INT8,
					      SIM_OPT_ADAM, &st, &r, &err),
			 DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "int8 is an inference precision")
		      != NULL, "%s", err.msg);
	rig_close(&g);
	rig_open(&g, "v100x8", 4);	/* Volta: no bf16 peak */
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(sim_parallel_predict(g.m, &g.sys, DLSIM_BF16,
					      SIM_OPT_ADAM, &st, &r, &err),
			 DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "has no bf16 peak") != NULL, "%s",
		      err.msg);
	eval(&g, &st, DLSIM_FP16, &r);
	rig_close(&g);
}
END_TEST

/* Grouped-query attention: tp must split the key/value heads too. */
START_TEST(parallel_rejects_tp_over_kv_heads)
{
	struct dlsim_err err = { 0, "" };
	struct sim_strategy st;
	struct sim_par_result r;
	struct rig g;

	rig_open(&g, "a100x4", 4);
	model_free(g.m);
	ck_assert(model_resolve("gpt:layers=4,hidden=64,heads=4,kv_heads=2,"
				"seq=32,vocab=100", &g.m, &err) == DLSIM_OK);
	sim_strategy_init(&st);
	st.tp = 4;
	st.global_batch = 4;
	ck_assert_int_eq(sim_parallel_predict(g.m, &g.sys, DLSIM_FP16,
					      SIM_OPT_ADAM, &st, &r, &err),
			 DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "does not divide the 2 key/value heads")
		      != NULL, "%s", err.msg);
	st.tp = 2;		/* 2 kv heads over 2 ranks is fine */
	st.dp = 2;
	eval(&g, &st, DLSIM_FP16, &r);
	rig_close(&g);
}
END_TEST

/*
 * Placement, ranks ordered tp, dp, pp (Megatron's): on two 8-GPU nodes,
 * tp 4 x dp 2 fills one node, so pp's two stages are the two nodes; tp 2
 * x dp 8 spans both nodes.
 */
START_TEST(parallel_placement)
{
	struct sim_strategy st;
	struct sim_par_result r;
	struct rig g;

	rig_open(&g, "a100x16", 4);
	sim_strategy_init(&st);
	st.tp = 4;
	st.dp = 2;
	st.pp = 2;
	st.global_batch = 8;
	eval(&g, &st, DLSIM_FP16, &r);
	ck_assert(r.tp_in_node && r.dp_in_node && !r.pp_in_node);
	ck_assert(r.pp_comm_s > 0.0);
	st.tp = 2;
	st.dp = 8;
	st.pp = 1;
	eval(&g, &st, DLSIM_FP16, &r);
	ck_assert(r.tp_in_node && !r.dp_in_node && r.dp_comm_s > 0.0);
	rig_close(&g);
}
END_TEST

/*
 * A software stack's dispatch time h queues launches (sim_parallel.c's
 * head comment): a sequence of n kernels taking g on the device ends
 * after max(g, n h) + h.  A 4-block GPT of width 64 on one A100 runs
 * microseconds of work per kernel, so at h = 1 ms the step, less the
 * optimizer (not host-paced), is (n_fwd + 1 + n_bwd + 1) h: a whole
 * number of milliseconds, exactly twice as many at 2 ms, with at least
 * the blocks' 12 layers each way.  At h = 1 ns the device sets the pace
 * and the step grows by the two sequences' first launch, 2 ns.
 */
START_TEST(parallel_dispatch_queues_launches)
{
	struct sim_strategy st;
	struct sim_par_result a, b, z, t;
	struct rig g;
	double n;

	rig_open(&g, "a100", 4);
	sim_strategy_init(&st);
	st.global_batch = 1;
	eval(&g, &st, DLSIM_FP16, &z);
	st.dispatch_s = 1e-3;
	eval(&g, &st, DLSIM_FP16, &a);
	st.dispatch_s = 2e-3;
	eval(&g, &st, DLSIM_FP16, &b);
	st.dispatch_s = 1e-9;
	eval(&g, &st, DLSIM_FP16, &t);
	n = (a.step_time_s - a.optimizer_s) / 1e-3;
	ck_assert_msg(fabs(n - floor(n + 0.5)) < 1e-9, "%.12g", n);
	ck_assert(n >= 2.0 + 2.0 * 4.0 * 12.0);
	ck_assert_rel(b.step_time_s - b.optimizer_s, 2.0 * n * 1e-3, 1e-12);
	ck_assert_rel(t.step_time_s - z.step_time_s, 2e-9, 1e-6);
	rig_close(&g);
}
END_TEST

START_TEST(parallel_needs_a_transformer)
{
	struct dlsim_err err = { 0, "" };
	struct sim_strategy st;
	struct sim_par_result r;
	struct rig g;
	struct model *cnn = NULL;

	rig_open(&g, "a100", 2);
	ck_assert_int_eq(model_zoo_build("resnet18", &cnn, &err), DLSIM_OK);
	sim_strategy_init(&st);
	st.global_batch = 1;
	ck_assert_int_eq(sim_parallel_predict(cnn, &g.sys, DLSIM_FP16,
					      SIM_OPT_ADAM, &st, &r, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "not a transformer") != NULL);
	model_free(cnn);
	rig_close(&g);
}
END_TEST

/* ---------------------------------------------------------------- */
/* The search                                                        */
/* ---------------------------------------------------------------- */

/*
 * sim_plan against a brute-force loop over the same space, written here
 * without the search's loop order or pruning: same count of strategies
 * costed, same best.  4 blocks of 4 heads on 8 A100s, global batch 16.
 */
START_TEST(plan_matches_brute_force)
{
	struct dlsim_err err = { 0, "" };
	struct sim_plan_options o;
	struct sim_plan_result p;
	struct sim_strategy st;
	struct sim_par_result r;
	struct rig g;
	int64_t tp, pp, mb, n = 8, count = 0, fit = 0, L = 4;
	int sp, rc, z, sch;
	double best = HUGE_VAL;

	rig_open(&g, "a100x8", 4);
	sim_plan_options_init(&o);
	o.global_batch = 16;
	o.top_k = 3;
	ck_assert_msg(sim_plan(g.m, &g.sys, DLSIM_FP16, SIM_OPT_ADAM, &o, &p,
			       &err) == DLSIM_OK, "%s", err.msg);
	for (tp = 1; tp <= 8; tp *= 2)
		for (pp = 1; pp <= L && tp * pp <= n; pp *= 2)
			for (mb = 1; mb <= 16; mb *= 2)
				for (sp = 0; sp <= (tp > 1); sp++)
					for (rc = 0; rc < 3; rc++)
						for (z = 0; z <= 3; z++)
							for (sch = 0; sch < 3 + 2; sch++) {
		int64_t dp = n / (tp * pp);

		/* 4 heads: tp must divide them */
		if (4 % tp || 16 % (dp * mb) || (z > 0 && dp == 1) ||
		    (z == 3 && pp > 1) || (pp == 1 && sch > 0) ||
		    (sch >= 2 && (L / pp) < sch))
			continue;
		if (sch >= 2 && (L / pp) % sch)
			continue;
		sim_strategy_init(&st);
		st.tp = tp;
		st.pp = pp;
		st.dp = dp;
		st.micro_batch = mb;
		st.global_batch = 16;
		st.sequence_parallel = sp;
		st.recompute = (enum sim_recompute)rc;
		st.zero = z;
		st.schedule = sch == 0 ? SIM_SCHED_1F1B : sch == 1 ?
			      SIM_SCHED_GPIPE : SIM_SCHED_INTERLEAVED;
		st.chunks = sch >= 2 ? sch : 1;
		count++;
		if (sim_parallel_predict(g.m, &g.sys, DLSIM_FP16, SIM_OPT_ADAM,
					 &st, &r, NULL) || !r.fits)
			continue;
		fit++;
		if (r.step_time_s < best)
			best = r.step_time_s;
	}
	ck_assert_int_eq(p.n_evaluated, count);
	ck_assert_int_eq(p.n_feasible, fit);
	ck_assert(p.n_top == 3);
	ck_assert_rel(p.top[0].step_time_s, best, 1e-12);
	ck_assert(p.top[0].step_time_s <= p.top[1].step_time_s &&
		  p.top[1].step_time_s <= p.top[2].step_time_s);
	sim_plan_release(&p);
	rig_close(&g);
}
END_TEST

Suite *suite_parallel(void)
{
	Suite *s = suite_create("parallel");
	TCase *c = tcase_create("parallel");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, parallel_optimizer_foreach);
	tcase_add_test(c, parallel_activations_by_hand);
	tcase_add_test(c, parallel_activations_with_tp);
	tcase_add_test(c, parallel_zero_memory_by_hand);
	tcase_add_test(c, parallel_pipeline_schedules);
	tcase_add_test(c, parallel_uneven_stages);
	tcase_add_test(c, parallel_rejects_bad_strategies);
	tcase_add_test(c, parallel_rejects_tp_over_kv_heads);
	tcase_add_test(c, parallel_refuses_what_predict_refuses);
	tcase_add_test(c, parallel_placement);
	tcase_add_test(c, parallel_dispatch_queues_launches);
	tcase_add_test(c, parallel_needs_a_transformer);
	tcase_add_test(c, plan_matches_brute_force);
	suite_add_tcase(s, c);
	return s;
}
