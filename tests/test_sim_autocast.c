/*
 * test_sim_autocast.c -- PyTorch's autocast (sim/sim_autocast.c): which
 * layers' outputs stay fp32, the casts each pass issues with their
 * bytes worked out by hand, and what they add to a whole step, on one
 * device and with a parallel strategy, on the launch-only rig of
 * sim_util.c (1 ms a launch, nothing else takes time).
 */
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "models/model.h"
#include "sim/sim.h"
#include "sim_util.h"

/* One block of GPT: hidden 64, 4 heads, seq 32, vocab 100. */
#define GPT1 "gpt:layers=1,hidden=64,heads=4,seq=32,vocab=100"

static struct model *gpt1(void)
{
	struct dlsim_err err = { 0, "" };
	struct model *m = NULL;

	ck_assert_msg(model_resolve(GPT1, &m, &err) == DLSIM_OK, "%s",
		      err.msg);
	return m;
}

static int find(const struct model *m, const char *name)
{
	int i;

	for (i = 0; i < m->n_layers; i++)
		if (strcmp(m->layers[i].name, name) == 0)
			return i;
	ck_abort_msg("no layer %s", name);
	return -1;
}

/*
 * The types autocast leaves (sim_autocast.c's rules): the embedding
 * returns its fp32 table's type and the residual stream stays fp32
 * through its dropout, adds and LayerNorms; the matrix layers (qkv,
 * attention, proj, fc1, fc2, the logits) return 16 bits, and so do the
 * dropouts and the GELU after them; the loss is fp32.
 */
START_TEST(autocast_types_of_gpt)
{
	static const struct {
		const char *name;
		int wide;
	} want[] = {
		{ "embed", 1 }, { "embed.drop", 1 },
		{ "block0.attn.norm", 1 }, { "block0.attn.qkv", 0 },
		{ "block0.attn.core", 0 }, { "block0.attn.proj", 0 },
		{ "block0.attn.drop", 0 }, { "block0.attn.add", 1 },
		{ "block0.mlp.norm", 1 }, { "block0.mlp.fc1", 0 },
		{ "block0.mlp.act", 0 }, { "block0.mlp.fc2", 0 },
		{ "block0.mlp.drop", 0 }, { "block0.mlp.add", 1 },
		{ "norm", 1 }, { "lm_head", 0 }, { "loss", 1 },
	};
	struct model *m = gpt1();
	unsigned char wide[64];
	size_t i;

	ck_assert_int_le(m->n_layers, (int)sizeof(wide));
	sim_autocast_mark(m, wide);
	ck_assert_int_eq(wide[0], 1);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int k = find(m, want[i].name);

		ck_assert_msg(wide[k] == want[i].wide, "%s: %d", want[i].name,
			      wide[k]);
		ck_assert_int_eq(sim_autocast_act(wide, k, 2),
				 want[i].wide ? 4 : 2);
	}
	/* fp32 and fp64 widths are left as they are; no marks, no change */
	ck_assert_int_eq(sim_autocast_act(wide, find(m, "norm"), 8), 8);
	ck_assert_int_eq(sim_autocast_act(NULL, find(m, "norm"), 2), 2);
	/* parameters: fp32 but where a matrix layer reads its cast */
	ck_assert_int_eq(sim_autocast_weight(wide, &m->layers[find(m,
			 "embed")], 2, 4), 4);
	ck_assert_int_eq(sim_autocast_weight(wide, &m->layers[find(m,
			 "norm")], 2, 4), 4);
	ck_assert_int_eq(sim_autocast_weight(wide, &m->layers[find(m,
			 "block0.attn.qkv")], 2, 4), 2);
	ck_assert_int_eq(sim_autocast_weight(NULL, &m->layers[find(m,
			 "embed")], 2, 4), 2);
	model_free(m);
}
END_TEST

static void casts_of(const struct model *m, const unsigned char *wide,
		     const char *name, enum model_pass p, double act,
		     double weight, double launches)
{
	struct sim_casts k;

	sim_autocast_casts(m, wide, find(m, name), p, 2, &k);
	ck_assert_msg(k.act_bytes == act && k.weight_bytes == weight &&
		      k.launches == launches, "%s pass %d: %g %g %g", name,
		      (int)p, k.act_bytes, k.weight_bytes, k.launches);
}

/*
 * The casts at batch 2, 6 bytes a value.  An activation of the block is
 * 2 x 32 tokens x 64 = 4096 values (24,576 bytes); the logits 2 x 32 x
 * 100 = 6400 (38,400 bytes).  Weights: qkv 64 x 192 + 192 = 12,480
 * values (74,880 bytes), proj 64 x 64 + 64 = 4160 (24,960), the tied
 * logits the table's 64 x 100 = 6400 (38,400; no bias).
 * - qkv casts its fp32 input (the LayerNorm's) and its weights forward,
 *   the input's gradient back, and its weight gradient;
 * - proj reads 16-bit attention: its weights alone;
 * - the add sends its 16-bit input (the dropout's) an fp32 gradient:
 *   cast back, backward only;
 * - the loss casts the 16-bit logits up, and their gradient down;
 * - LayerNorm reads the fp32 residual and the embedding casts nothing.
 */
START_TEST(autocast_casts_by_hand)
{
	struct model *m = gpt1();
	unsigned char wide[64];

	sim_autocast_mark(m, wide);
	ck_assert_int_eq(m->layers[find(m, "block0.attn.qkv")].params, 12480);
	ck_assert_int_eq(m->layers[find(m, "block0.attn.proj")].params, 4160);
	ck_assert_int_eq(m->layers[find(m, "lm_head")].has_bias, 0);
	casts_of(m, wide, "block0.attn.qkv", MODEL_PASS_FWD, 24576, 74880, 2);
	casts_of(m, wide, "block0.attn.qkv", MODEL_PASS_BWD_DATA, 24576, 0, 1);
	casts_of(m, wide, "block0.attn.qkv", MODEL_PASS_BWD_WEIGHT, 0, 74880,
		 1);
	casts_of(m, wide, "block0.attn.core", MODEL_PASS_FWD, 0, 0, 0);
	casts_of(m, wide, "block0.attn.proj", MODEL_PASS_FWD, 0, 24960, 1);
	casts_of(m, wide, "block0.attn.proj", MODEL_PASS_BWD_DATA, 0, 0, 0);
	casts_of(m, wide, "block0.attn.add", MODEL_PASS_FWD, 0, 0, 0);
	casts_of(m, wide, "block0.attn.add", MODEL_PASS_BWD_DATA, 24576, 0, 1);
	casts_of(m, wide, "block0.mlp.norm", MODEL_PASS_FWD, 0, 0, 0);
	casts_of(m, wide, "lm_head", MODEL_PASS_FWD, 24576, 38400, 2);
	casts_of(m, wide, "lm_head", MODEL_PASS_BWD_WEIGHT, 0, 38400, 1);
	casts_of(m, wide, "loss", MODEL_PASS_FWD, 38400, 0, 1);
	casts_of(m, wide, "loss", MODEL_PASS_BWD_DATA, 38400, 0, 1);
	casts_of(m, wide, "embed", MODEL_PASS_FWD, 0, 0, 0);
	casts_of(m, wide, "embed", MODEL_PASS_BWD_WEIGHT, 0, 0, 0);
	/* no marks: no casts */
	{
		struct sim_casts k;

		sim_autocast_casts(m, NULL, find(m, "lm_head"),
				   MODEL_PASS_FWD, 2, &k);
		ck_assert(k.launches == 0.0 && k.act_bytes == 0.0);
	}
	model_free(m);
}
END_TEST

static double step_on_rig(const struct model *m, struct sim_rig *r,
			  enum dlsim_precision p, int autocast,
			  struct dlsim_err *err, int *rc)
{
	struct sim_options o;
	struct sim_result res;
	double t;

	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = p;
	o.batch_per_device = 2;
	o.autocast = autocast;
	*rc = sim_predict(m, &r->sys, &o, &res, err);
	t = res.step_time_s;
	sim_result_release(&res);
	return t;
}

/*
 * On the launch-only rig each cast is one more millisecond.  sim_two_fc
 * (input -> fc1 -> fc2 -> loss): fc1 casts the fp32 input and its
 * weights forward and its weight gradient (the input needs no gradient:
 * 3); fc2 its weights and their gradient (2); the loss the logits up and
 * their gradient down (2): 7 ms more.  The one-block GPT: qkv 4, proj 2,
 * fc1 4, fc2 2, the two adds 1 each, the tied logits 4, the loss 2: 20.
 */
START_TEST(autocast_step_adds_its_casts)
{
	struct dlsim_err err = { 0, "" };
	struct model *two = sim_two_fc(), *g = gpt1();
	struct sim_rig r;
	int rc;
	double t0, t1;

	sim_rig_init(&r, 1, 1);
	t0 = step_on_rig(two, &r, DLSIM_FP16, 0, &err, &rc);
	ck_assert_int_eq(rc, DLSIM_OK);
	t1 = step_on_rig(two, &r, DLSIM_FP16, 1, &err, &rc);
	ck_assert_int_eq(rc, DLSIM_OK);
	ck_assert_rel(t1 - t0, 7e-3, 1e-9);
	t0 = step_on_rig(g, &r, DLSIM_FP16, 0, &err, &rc);
	t1 = step_on_rig(g, &r, DLSIM_FP16, 1, &err, &rc);
	ck_assert_int_eq(rc, DLSIM_OK);
	ck_assert_rel(t1 - t0, 20e-3, 1e-9);
	model_free(two);
	model_free(g);
}
END_TEST

/* The same 20 casts with a strategy (tp 1, pp 1, one micro-batch): the
 * hybrid-parallel step counts them as the data-parallel one does; and
 * the strategy's costs are cached apart with autocast and without. */
START_TEST(autocast_parallel_step_adds_its_casts)
{
	struct dlsim_err err = { 0, "" };
	struct model *g = gpt1();
	struct sim_strategy st;
	struct sim_par_result a, b;
	struct sim_par_ctx *c = NULL;
	struct sim_rig r;

	sim_rig_init(&r, 1, 1);
	sim_strategy_init(&st);
	st.global_batch = 2;
	st.micro_batch = 2;
	ck_assert_int_eq(sim_par_ctx_new(g, &r.sys, DLSIM_FP16, SIM_OPT_ADAM,
					 &c, &err), DLSIM_OK);
	ck_assert_msg(sim_par_eval(c, &st, &a, &err) == DLSIM_OK, "%s",
		      err.msg);
	st.autocast = 1;
	ck_assert_msg(sim_par_eval(c, &st, &b, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert_rel(b.step_time_s - a.step_time_s, 20e-3, 1e-9);
	st.autocast = 0;
	ck_assert_int_eq(sim_par_eval(c, &st, &b, &err), DLSIM_OK);
	ck_assert(b.step_time_s == a.step_time_s);
	sim_par_ctx_free(c);
	model_free(g);
}
END_TEST

/* A pipeline stage sends the residual stream, fp32 under autocast: two
 * stages of a two-block GPT on two rig devices (1 GB/s, no latency)
 * send 2 x 32 x 64 values a micro-batch, 8192 bytes at 2 bytes a value
 * and 16384 at 4, so the step's pipeline time doubles exactly. */
START_TEST(autocast_pipeline_sends_fp32)
{
	struct dlsim_err err = { 0, "" };
	struct model *g = NULL;
	struct sim_strategy st;
	struct sim_par_result a, b;
	struct sim_rig r;

	ck_assert_int_eq(model_resolve("gpt:layers=2,hidden=64,heads=4,"
				       "seq=32,vocab=100", &g, &err),
			 DLSIM_OK);
	sim_rig_init(&r, 2, 1);
	sim_strategy_init(&st);
	st.pp = 2;
	st.global_batch = 2;
	st.micro_batch = 2;
	ck_assert_msg(sim_parallel_predict(g, &r.sys, DLSIM_FP16, SIM_OPT_ADAM,
					   &st, &a, &err) == DLSIM_OK, "%s",
		      err.msg);
	st.autocast = 1;
	ck_assert_msg(sim_parallel_predict(g, &r.sys, DLSIM_FP16, SIM_OPT_ADAM,
					   &st, &b, &err) == DLSIM_OK, "%s",
		      err.msg);
	ck_assert(a.pp_comm_s > 0.0);
	ck_assert_rel(b.pp_comm_s, 2.0 * a.pp_comm_s, 1e-12);
	model_free(g);
}
END_TEST

/* Autocast runs fp16 or bf16 and eager kernels: fp32 and element-wise
 * fusion are refused with a line saying so, on either path. */
START_TEST(autocast_refusals)
{
	struct dlsim_err err = { 0, "" };
	struct model *g = gpt1();
	struct sim_strategy st;
	struct sim_par_result pr;
	struct sim_options o;
	struct sim_result res;
	struct sim_rig r;
	int rc;

	sim_rig_init(&r, 1, 1);
	step_on_rig(g, &r, DLSIM_FP32, 1, &err, &rc);
	ck_assert_int_eq(rc, DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "fp16 or bf16") != NULL, "%s", err.msg);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP16;
	o.autocast = 1;
	o.fuse_elementwise = 1;
	memset(&err, 0, sizeof(err));       /* it keeps the first error */
	ck_assert_int_eq(sim_predict(g, &r.sys, &o, &res, &err), DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "fusion") != NULL, "%s", err.msg);
	ck_assert(res.step_time_s == 0.0);
	sim_strategy_init(&st);
	st.global_batch = 2;
	st.autocast = 1;
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(sim_parallel_predict(g, &r.sys, DLSIM_FP32,
					      SIM_OPT_ADAM, &st, &pr, &err),
			 DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "not fp32") != NULL, "%s", err.msg);
	/* plan refuses it once, with the reason, not strategy by strategy */
	{
		struct sim_plan_options po;
		struct sim_plan_result plan;

		sim_plan_options_init(&po);
		po.global_batch = 2;
		po.autocast = 1;
		memset(&err, 0, sizeof(err));
		ck_assert_int_eq(sim_plan(g, &r.sys, DLSIM_FP32, SIM_OPT_ADAM,
					  &po, &plan, &err), DLSIM_EINVAL);
		ck_assert_msg(strstr(err.msg, "not fp32") != NULL, "%s",
			      err.msg);
	}
	model_free(g);
}
END_TEST

Suite *suite_sim_autocast(void)
{
	Suite *s = suite_create("sim_autocast");
	TCase *c = tcase_create("autocast");

	tcase_add_test(c, autocast_types_of_gpt);
	tcase_add_test(c, autocast_casts_by_hand);
	tcase_add_test(c, autocast_step_adds_its_casts);
	tcase_add_test(c, autocast_parallel_step_adds_its_casts);
	tcase_add_test(c, autocast_pipeline_sends_fp32);
	tcase_add_test(c, autocast_refusals);
	suite_add_tcase(s, c);
	return s;
}
