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
 * FLOPs either way: SGD 2, momentum 4, Adam 12 a parameter.  On the
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

Suite *suite_sim_optimizer(void)
{
	Suite *s = suite_create("sim_optimizer");
	TCase *c = tcase_create("optimizer");

	tcase_add_test(c, step_optimizer_foreach_kernels);
	suite_add_tcase(s, c);
	return s;
}
