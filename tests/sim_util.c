/*
 * sim_util.c -- fixtures of the simulator test suites (test_sim.c,
 * test_sim_step.c, test_sim_fuse.c and others): hardware built in code,
 * so that every figure in an expected value is visible in the test, and
 * a two-layer model whose counts are worked by hand.
 */
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "models/model.h"
#include "sim_util.h"

/* A device so fast that only launch overheads take time. */
void sim_rig_init(struct sim_rig *r, int64_t per_node, int64_t nodes)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->dev.name, sizeof(r->dev.name), "fast");
	snprintf(r->dev.model, sizeof(r->dev.model), "Fast");
	r->dev.peak[DLSIM_FP32].matrix_flops = 1e20;
	r->dev.peak[DLSIM_FP32].vector_flops = 1e20;
	r->dev.peak[DLSIM_FP32].eff_gemm = 1.0;
	r->dev.peak[DLSIM_FP32].eff_conv = 1.0;
	r->dev.peak[DLSIM_FP32].eff_conv3x3 = 1.0;
	r->dev.peak[DLSIM_FP32].eff_conv1x1 = 1.0;
	r->dev.peak[DLSIM_FP32].eff_conv1x1s = 1.0;
	r->dev.peak[DLSIM_FP16] = r->dev.peak[DLSIM_FP32];
	r->dev.mem[0].bandwidth_Bps = 1e20;
	r->dev.mem[0].capacity_bytes = 16.0 * 1073741824.0;
	r->dev.mem_capacity_bytes = r->dev.mem[0].capacity_bytes;
	r->dev.n_mem = 1;
	r->dev.eff_memory = 1.0;
	r->dev.clock_boost_hz = 1e15;
	r->dev.launch_overhead_s = 1e-3;
	snprintf(r->node.name, sizeof(r->node.name), "box");
	r->node.devices_per_node = per_node;
	r->node.intra_links_per_device = 1;
	r->node.nics_per_node = 1;
	r->intra.bandwidth_Bps = 1e9;
	r->intra.latency_s = 0.0;
	r->nic.bandwidth_Bps = 1e9;
	r->nic.latency_s = 0.0;
	r->sys.device = &r->dev;
	r->sys.node = &r->node;
	r->sys.intra = per_node > 1 ? &r->intra : NULL;
	r->sys.nic = nodes > 1 ? &r->nic : NULL;
	r->sys.devices_per_node = per_node;
	r->sys.n_nodes = nodes;
	r->sys.n_devices = per_node * nodes;
	snprintf(r->sys.spec, sizeof(r->sys.spec), "test");
}

/* input 1x1x1 -> fc 1000 -> fc 1000 -> loss.
 * params: fc1 1*1000 + 1000 = 2,000; fc2 1000*1000 + 1000 = 1,001,000. */
struct model *sim_two_fc(void)
{
	struct model_builder b;
	struct model_shape in = { 1, 1, 1 };
	struct model *m = NULL;
	int x;

	model_builder_init(&b, "two_fc", in, 2, "test");
	x = model_add_fc(&b, MODEL_IN, "fc1", 1000, 1);
	x = model_add_fc(&b, x, "fc2", 1000, 1);
	model_add_simple(&b, MODEL_SOFTMAX_XENT, x, "loss");
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	ck_assert_int_eq(m->params, 1003000);
	return m;
}
