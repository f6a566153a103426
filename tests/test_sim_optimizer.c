/*
 * test_sim_optimizer.c -- the optimizer update (sim/sim_optimizer.c):
 * what one fused kernel and torch.optim's foreach kernels read, write
 * and launch per parameter, worked out by hand, and what they take on
 * the launch-only rig of sim_util.c in a whole step
 * (test_parallel.c checks the hybrid-parallel step's).
 */
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "models/model.h"
#include "sim/sim.h"
#include "sim_util.h"

/*
 * The optimizer's kernels (sim_optimizer.c's head comment), for 1000
 * parameters.  Fused, one kernel: fp32 momentum 4 + 2 x 4 + 8 = 20 B a
 * parameter, mixed fp16 Adam 4 + 8 + 16 + 2 = 30, fp64 Adam 8 + 16 + 32
 * = 56 (its state at the master width).  torch.optim's
 * foreach kernels, at the master width 4: SGD 6 x 4 = 24 B in 2
 * kernels, momentum 11 x 4 = 44 in 4, AdamW 20 x 4 = 80 in 8 (fp64: 160).
 * FLOPs either way: SGD 2, momentum 4, Adam 12 a parameter.  LAMB as
 * apex's FusedLAMB, 5 gradient and 4 master-weight accesses and the
 * state's 16 bytes: fp32 5 x 4 + 4 x 4 + 16 = 52 B, mixed fp16 that and
 * the 16-bit copy, 54, fp64 5 x 8 + 4 x 8 + 32 = 104; 8 kernels, 20
 * FLOPs a parameter.  On the
 * launch-only rig the update then takes 4 ms with momentum and 8 with
 * AdamW, where the fused kernel takes 1.
 */
START_TEST(step_optimizer_foreach_kernels)
{
	static const struct {
		enum dlsim_precision p;
		enum sim_optimizer opt;
		int foreach, kernels;
		double bytes, flops;
	} want[] = {
		{ DLSIM_FP32, SIM_OPT_MOMENTUM, 0, 1, 20e3, 4e3 },
		{ DLSIM_FP16, SIM_OPT_ADAM, 0, 1, 30e3, 12e3 },
		{ DLSIM_FP64, SIM_OPT_ADAM, 0, 1, 56e3, 12e3 },
		{ DLSIM_FP32, SIM_OPT_SGD, 1, 2, 24e3, 2e3 },
		{ DLSIM_FP32, SIM_OPT_MOMENTUM, 1, 4, 44e3, 4e3 },
		{ DLSIM_FP16, SIM_OPT_ADAM, 1, 8, 80e3, 12e3 },
		{ DLSIM_FP64, SIM_OPT_ADAM, 1, 8, 160e3, 12e3 },
		{ DLSIM_FP32, SIM_OPT_LAMB, 0, 8, 52e3, 20e3 },
		{ DLSIM_FP16, SIM_OPT_LAMB, 0, 8, 54e3, 20e3 },
		{ DLSIM_FP64, SIM_OPT_LAMB, 0, 8, 104e3, 20e3 },
	};
	struct model_pass_cost c;
	struct sim_sizes sz;
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		sim_sizes_for(want[i].p, &sz);
		ck_assert_int_eq(sim_optimizer_cost(&sz, want[i].opt,
						    want[i].foreach, 1000.0,
						    &c), want[i].kernels);
		ck_assert(c.bytes == want[i].bytes);
		ck_assert(c.flops == want[i].flops);
		ck_assert_int_eq(c.kernel, MODEL_KERNEL_VECTOR);
	}
	sim_rig_init(&r, 1, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	o.optimizer_foreach = 1;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.optimizer_s, 4e-3, 1e-9);
	ck_assert_rel(res.step_time_s, 11e-3, 1e-9);
	sim_result_release(&res);
	o.optimizer = SIM_OPT_ADAM;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.optimizer_s, 8e-3, 1e-9);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

/*
 * LAMB on a whole step: its 8 kernels take 8 ms on the launch-only rig
 * (the fused Adam 1), its state is Adam's two moments, 8 bytes a
 * parameter (sim_two_fc: 1,003,000 x 8), and with torch.optim's foreach
 * kernels, which have no LAMB, the step is refused with a line saying
 * so, on either path; the name parses and prints.
 */
START_TEST(step_optimizer_lamb)
{
	struct dlsim_err err = { 0, "" };
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct sim_strategy st;
	struct sim_par_result pr;
	struct model *m = sim_two_fc(), *g = NULL;
	enum sim_optimizer opt;

	ck_assert_int_eq(sim_optimizer_parse("lamb", &opt, NULL), DLSIM_OK);
	ck_assert_int_eq(opt, SIM_OPT_LAMB);
	ck_assert_str_eq(sim_optimizer_name(SIM_OPT_LAMB), "lamb");
	sim_rig_init(&r, 1, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	o.optimizer = SIM_OPT_LAMB;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.optimizer_s, 8e-3, 1e-9);
	ck_assert(res.memory.optimizer_bytes == 1003000.0 * 8.0);
	sim_result_release(&res);
	o.optimizer_foreach = 1;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, &err),
			 DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "no LAMB") != NULL, "%s", err.msg);
	ck_assert_int_eq(model_resolve("gpt:layers=1,hidden=64,heads=4,"
				       "seq=32,vocab=128", &g, NULL),
			 DLSIM_OK);
	sim_strategy_init(&st);
	st.global_batch = 2;
	st.optimizer_foreach = 1;
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(sim_parallel_predict(g, &r.sys, DLSIM_FP32,
					      SIM_OPT_LAMB, &st, &pr, &err),
			 DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "no LAMB") != NULL, "%s", err.msg);
	model_free(g);
	model_free(m);
}
END_TEST

Suite *suite_sim_optimizer(void)
{
	Suite *s = suite_create("sim_optimizer");
	TCase *c = tcase_create("optimizer");

	tcase_add_test(c, step_optimizer_foreach_kernels);
	tcase_add_test(c, step_optimizer_lamb);
	suite_add_tcase(s, c);
	return s;
}
