/*
 * test_sim_host.c -- the weights and the optimizer in host memory
 * (sim/sim_host.c, sim_options.update_on_host): the three phases worked
 * out by hand on the launch-only rig of sim_util.c with a host link and
 * host CPU of round figures, the node fields that state them
 * (hw_convert.c, hw_catalog.c), the DGX-1's, the refusals, and DLRM's
 * embedding tables in host memory.  All of it is one data-parallel
 * step (sim_predict); ZeRO-Offload, the update sharded under a
 * hybrid-parallel strategy, is test_sim_zero_offload.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "hw/hw.h"
#include "models/model.h"
#include "sim/sim.h"
#include "sim_util.h"
#include "hw_util.h"

/* The rig with a host: a 1 GB/s host link of 1 us, shared by `share`
 * devices (0: not stated), and two sockets of a CPU whose 1 GB/s memory
 * attains half of it: 1 GB/s for the host. */
struct host_rig {
	struct sim_rig r;
	struct hw_link host;
	struct hw_device cpu;
};

static void host_rig_init(struct host_rig *h, int64_t per_node,
			  int64_t nodes, int64_t share)
{
	memset(h, 0, sizeof(*h));
	sim_rig_init(&h->r, per_node, nodes);
	h->host.bandwidth_Bps = 1e9;
	h->host.latency_s = 1e-6;
	snprintf(h->host.name, sizeof(h->host.name), "hlink");
	h->cpu.kind = HW_CPU;
	snprintf(h->cpu.name, sizeof(h->cpu.name), "hcpu");
	h->cpu.mem[0].bandwidth_Bps = 1e9;
	h->cpu.eff_memory = 0.5;
	h->cpu.n_mem = 1;
	h->r.node.devices_per_host_link = share;
	h->r.node.host_cpus = 2;
	h->r.node.host_memory_bytes = 1e12;
	h->r.sys.host = &h->host;
	h->r.sys.host_cpu = &h->cpu;
}

static void options_fp32_sgd(struct sim_options *o, int host)
{
	sim_options_init(o);
	o->precision_auto = 0;
	o->precision = DLSIM_FP32;
	o->batch_per_device = 1;
	o->optimizer = SIM_OPT_SGD;
	o->update_on_host = host;
}

/*
 * sim_two_fc's P = 1,003,000 parameters, fp32, plain SGD, one device:
 * push and pull 1 us + 4 P B / 1 GB/s = 4.013 ms each; the host's update
 * reads the gradient and reads and writes the weight, 12 P B at 2 x 1
 * GB/s x 0.5 = 12.036 ms.  The step is forward + backward + all three,
 * none overlapped; the device runs no optimizer kernel, and the
 * one-device step is this step (efficiency 1).
 */
START_TEST(host_update_one_device_by_hand)
{
	struct host_rig h;
	struct sim_options o;
	struct sim_result dev, res;
	struct model *m = sim_two_fc();
	const double P = 1003000.0;
	const double trip = 1e-6 + 4.0 * P / 1e9;

	host_rig_init(&h, 1, 1, 0);
	options_fp32_sgd(&o, 1);
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.optimizer_s, 12.0 * P / 1e9, 1e-12);
	ck_assert_rel(res.breakdown.comm_s, 2.0 * trip, 1e-12);
	ck_assert_rel(res.breakdown.comm_exposed_s, 2.0 * trip, 1e-12);
	ck_assert_rel(res.step_time_s, res.breakdown.forward_s +
		      res.breakdown.backward_s + 12.0 * P / 1e9 + 2.0 * trip,
		      1e-12);
	ck_assert_rel(res.single_device_step_s, res.step_time_s, 1e-12);
	ck_assert_rel(res.scaling_efficiency, 1.0, 1e-12);
	ck_assert_rel(res.comm_bytes, 8.0 * P, 1e-12);
	ck_assert_int_eq(res.update_on_host, 1);
	ck_assert_int_eq(res.n_buckets, 0);
	/* the same passes as on the device; its optimizer kernel (one 1 ms
	 * launch) is what the host's update replaces */
	options_fp32_sgd(&o, 0);
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &dev, NULL), DLSIM_OK);
	ck_assert_rel(dev.breakdown.forward_s, res.breakdown.forward_s, 1e-12);
	ck_assert_rel(dev.breakdown.backward_s, res.breakdown.backward_s,
		      1e-12);
	ck_assert(fabs(dev.breakdown.optimizer_s - 1e-3) < 1e-6);
	ck_assert_int_eq(dev.update_on_host, 0);
	model_free(m);
}
END_TEST

/*
 * Four devices, two to a host link: each direction 1 us + 2 x 4 P B /
 * 1 GB/s = 8.025 ms; the host reads four gradients and writes their sum
 * (5 x 4 P B) besides SGD's 12 P: 32 P B at 1 GB/s = 32.096 ms.  The
 * one-device step pays one device's trip (4.013 ms each way) and update
 * (12.036 ms).  Stated as each device on its own link, the trip is the
 * one device's.
 */
START_TEST(host_update_shares_the_link_and_sums_the_gradients)
{
	struct host_rig h;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();
	const double P = 1003000.0, one = 1e-6 + 4.0 * P / 1e9;
	const double two = 1e-6 + 8.0 * P / 1e9;
	double compute;

	host_rig_init(&h, 4, 1, 2);
	options_fp32_sgd(&o, 1);
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.comm_s, 2.0 * two, 1e-12);
	ck_assert_rel(res.breakdown.optimizer_s, 32.0 * P / 1e9, 1e-12);
	compute = res.breakdown.forward_s + res.breakdown.backward_s;
	ck_assert_rel(res.step_time_s, compute + 2.0 * two + 32.0 * P / 1e9,
		      1e-12);
	ck_assert_rel(res.single_device_step_s, compute + 2.0 * one +
		      12.0 * P / 1e9, 1e-12);
	ck_assert_rel(res.scaling_efficiency, res.single_device_step_s /
		      res.step_time_s, 1e-12);
	ck_assert(res.scaling_efficiency < 0.9);

	host_rig_init(&h, 4, 1, 0);
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.comm_s, 2.0 * one, 1e-12);
	model_free(m);
}
END_TEST

/*
 * Mixed precision: the gradients go at fp32 (4 B), the weights come back
 * as the 16-bit compute copy (2 B); the host's SGD reads the gradient,
 * reads and writes the fp32 master and writes the copy: 14 P B.
 */
START_TEST(host_update_mixed_precision_widths)
{
	struct host_rig h;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();
	const double P = 1003000.0;

	host_rig_init(&h, 1, 1, 0);
	options_fp32_sgd(&o, 1);
	o.precision = DLSIM_FP16;
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.comm_s, 2e-6 + 6.0 * P / 1e9, 1e-12);
	ck_assert_rel(res.breakdown.optimizer_s, 14.0 * P / 1e9, 1e-12);
	model_free(m);
}
END_TEST

/*
 * Memory: with momentum in fp32 the device keeps the weights and
 * gradients (4 P B each) and no optimizer state; the host holds the
 * weights, the gradients' sum and the momentum, 12 P B.  On two devices
 * DDP's bucket copy of the gradients (4 P B of workspace) is gone.
 */
START_TEST(host_update_moves_the_state_to_the_host)
{
	struct host_rig h;
	struct sim_options o;
	struct sim_result dev, res;
	struct model *m = sim_two_fc();
	const double P = 1003000.0;

	host_rig_init(&h, 2, 1, 0);
	options_fp32_sgd(&o, 1);
	o.optimizer = SIM_OPT_MOMENTUM;
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.memory.weights_bytes, 4.0 * P, 1e-12);
	ck_assert_rel(res.memory.gradients_bytes, 4.0 * P, 1e-12);
	ck_assert(res.memory.optimizer_bytes == 0.0);
	ck_assert_rel(res.memory.host_bytes, 12.0 * P, 1e-12);
	ck_assert(res.memory.host_capacity_bytes == 1e12);
	ck_assert(res.fits);
	/* a host a byte short of it does not hold the update */
	h.r.node.host_memory_bytes = 12.0 * P - 1.0;
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert(!res.fits);
	ck_assert(res.memory.total_bytes <= res.memory.capacity_bytes);
	h.r.node.host_memory_bytes = 1e12;
	o.update_on_host = 0;
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &dev, NULL), DLSIM_OK);
	ck_assert_rel(dev.memory.optimizer_bytes, 4.0 * P, 1e-12);
	ck_assert(dev.memory.host_bytes == 0.0);
	ck_assert_rel(dev.memory.workspace_bytes - res.memory.workspace_bytes,
		      4.0 * P, 1e-12);
	model_free(m);
}
END_TEST

/* The timeline: the push on the comm stream when backward ends, the
 * host's update after it, the pull last; each trip carries its bytes. */
START_TEST(host_update_trace_events)
{
	struct host_rig h;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();
	const double P = 1003000.0, trip = 1e-6 + 4.0 * P / 1e9;
	double bwd_end;
	int i, comm = 0;

	host_rig_init(&h, 1, 1, 0);
	options_fp32_sgd(&o, 1);
	o.want_trace = 1;
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	bwd_end = res.breakdown.forward_s + res.breakdown.backward_s;
	for (i = 0; i < res.n_events; i++) {
		const struct sim_event *e = &res.events[i];

		if (e->stream != SIM_STREAM_COMM)
			continue;
		ck_assert_rel(e->dur_s, trip, 1e-12);
		ck_assert_rel(e->bytes, 4.0 * P, 1e-12);
		ck_assert_rel(e->start_s, e->bucket ? bwd_end + trip +
			      12.0 * P / 1e9 : bwd_end, 1e-12);
		comm++;
	}
	ck_assert_int_eq(comm, 2);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

/* What the update on the host cannot run with, each refused by name. */
START_TEST(host_update_refusals)
{
	static const char *const want[] = {
		"states no host link", "states no host CPU",
		"runs within one node: 2 devices span 2 nodes",
		"drop --allreduce", "drop --compression",
		"overlaps nothing already: drop --no-overlap",
	};
	struct host_rig h;
	struct sim_options o;
	struct sim_result res;
	struct dlsim_err err;
	struct model *m = sim_two_fc();
	int i;

	for (i = 0; i < 6; i++) {
		host_rig_init(&h, 1, i == 2 ? 2 : 1, 0);
		options_fp32_sgd(&o, 1);
		if (i == 0)
			h.r.sys.host = NULL;
		if (i == 1)
			h.r.sys.host_cpu = NULL;
		if (i == 3)
			o.allreduce = SIM_ALGO_RING;
		if (i == 4)
			o.compression = SIM_COMPRESS_FP16;
		if (i == 5)
			o.overlap = 0;
		dlsim_err_clear(&err);
		ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, &err),
				 DLSIM_EINVAL);
		ck_assert_msg(strstr(err.msg, want[i]) != NULL, "%s", err.msg);
		ck_assert(res.step_time_s == 0.0);
	}
	model_free(m);
}
END_TEST

/*
 * The DGX-1 (P100) states its host: PCIe 3 x16 at 15.75 GB/s, two GPUs to
 * a switch, two Xeon E5-2698 v4 of DDR4-2133 (4 x 2133 MT/s x 8 B = 68.26
 * GB/s a socket) at 0.81 of it.  For 1e6 fp32 parameters under SGD on
 * one GPU: 1 us + 4e6 / 15.75e9 each way, 12e6 / (2 x 68.256e9 x 0.81)
 * on the host.  The H100 node states no host CPU.
 */
START_TEST(host_update_on_the_dgx1)
{
	struct hw_catalog *cat = hw_test_shipped();
	struct hw_system s;
	struct sim_sizes sz;
	struct sim_host_update u;
	struct sim_options o;
	struct dlsim_err err = { 0 };

	ck_assert_int_eq(hw_system_resolve(cat, "p100x1", &s, &err), DLSIM_OK);
	ck_assert_str_eq(s.node->name, "dgx1-p100");
	ck_assert_str_eq(s.host_cpu->name, "xeon-e5-2698v4");
	ck_assert_int_eq(s.node->host_cpus, 2);
	ck_assert_int_eq(s.node->devices_per_host_link, 2);
	sim_sizes_for(DLSIM_FP32, &sz);
	sim_host_update_time(&s, &sz, SIM_OPT_SGD, 0, 1e6, 1, &u);
	ck_assert_rel(u.push_s, 1e-6 + 4e6 / 15.75e9, 1e-3);
	ck_assert_rel(u.pull_s, u.push_s, 1e-12);
	ck_assert_rel(u.update_s, 12e6 / (2.0 * 68.256e9 * 0.81), 1e-3);
	sim_host_update_time(&s, &sz, SIM_OPT_SGD, 0, 1e6, 8, &u);
	ck_assert_rel(u.push_s, 1e-6 + 8e6 / 15.75e9, 1e-3);
	ck_assert_rel(u.update_s, 48e6 / (2.0 * 68.256e9 * 0.81), 1e-3);

	/* the DGX A100: two EPYC 7742, two GPUs to a PCIe 4 switch */
	ck_assert_int_eq(hw_system_resolve(cat, "dgx-a100", &s, &err),
			 DLSIM_OK);
	ck_assert_str_eq(s.host_cpu->name, "epyc-7742");
	ck_assert_int_eq(s.node->host_cpus, 2);
	ck_assert_int_eq(hw_system_host_sharing(&s), 2);
	/* a pcie-tree node's host link is its intra link, shared as its
	 * switches are: the p2.8xlarge's K80 boards, two GPUs a switch;
	 * it states no host CPU */
	ck_assert_int_eq(hw_system_resolve(cat, "ec2-p2-8xlarge", &s, &err),
			 DLSIM_OK);
	ck_assert_str_eq(s.host->name, "pcie3");
	ck_assert_int_eq(hw_system_host_sharing(&s), 2);
	ck_assert_ptr_null(s.host_cpu);

	ck_assert_int_eq(hw_system_resolve(cat, "h100x8", &s, &err), DLSIM_OK);
	sim_options_init(&o);
	o.update_on_host = 1;
	ck_assert_int_eq(sim_host_update_check(&s, &o, &err), DLSIM_EINVAL);
	ck_assert_msg(strstr(err.msg, "states no host CPU (host_cpu)"), "%s",
		      err.msg);
	hw_catalog_free(cat);
}
END_TEST

/* The node fields: all three of host_cpu, host_cpus and host_cpu_source
 * or none; devices_per_host_link needs a host link and at most the
 * node's devices; host_cpu names a CPU of the catalog. */
START_TEST(host_cpu_fields_are_read_and_checked)
{
	static const struct {
		const char *fields, *want;
		int at_check;
	} cases[] = {
		{ "    host_link: tlink\n    host_link_source: \"made up\"\n"
		  "    devices_per_host_link: 1\n    host_cpu: xeon-x8\n"
		  "    host_cpus: 2\n    host_memory_GiB: 256\n"
		  "    host_cpu_source: \"made up\"\n",
		  NULL, 0 },
		{ "    host_cpu: xeon-x8\n    host_memory_GiB: 256\n"
		  "    host_cpu_source: \"made up\"\n",
		  "h.yaml:6: node 'hbox': 'host_cpu' needs 'host_cpus' (1 to "
		  "64 sockets)", 0 },
		{ "    host_cpu: xeon-x8\n    host_cpus: 0\n"
		  "    host_memory_GiB: 256\n"
		  "    host_cpu_source: \"made up\"\n",
		  "h.yaml:6: node 'hbox': 'host_cpu' needs 'host_cpus' (1 to "
		  "64 sockets)", 0 },
		{ "    host_cpu: xeon-x8\n    host_cpus: 2\n"
		  "    host_cpu_source: \"made up\"\n",
		  "h.yaml:6: node 'hbox': 'host_cpu' needs 'host_memory_GiB'",
		  0 },
		{ "    host_cpu: xeon-x8\n    host_cpus: 2\n"
		  "    host_memory_GiB: 256\n",
		  "h.yaml:6: node 'hbox': 'host_cpu' needs a "
		  "'host_cpu_source'", 0 },
		{ "    host_cpus: 2\n",
		  "h.yaml:6: node 'hbox': 'host_cpus' needs a 'host_cpu'", 0 },
		{ "    host_memory_GiB: 256\n",
		  "h.yaml:6: node 'hbox': 'host_memory_GiB' needs a "
		  "'host_cpu'", 0 },
		{ "    host_cpu_source: \"made up\"\n",
		  "h.yaml:6: node 'hbox': 'host_cpu_source' needs a "
		  "'host_cpu'", 0 },
		{ "    host_cpu: xeon-x8\n    host_cpus: 2\n"
		  "    host_memory_GiB: 0\n    host_cpu_source: \"made up\"\n",
		  "h.yaml:8: 'host_memory_GiB' must be positive", 0 },
		{ "    devices_per_host_link: 1\n",
		  "h.yaml:6: 'devices_per_host_link' needs a 'host_link'", 0 },
		{ "    host_link: tlink\n    host_link_source: \"made up\"\n"
		  "    devices_per_host_link: 2\n",
		  "h.yaml:8: 'devices_per_host_link' must be in 0..1 (got 2)",
		  0 },
		{ "    host_cpus: 65\n    host_cpu: xeon-x8\n"
		  "    host_cpu_source: \"made up\"\n",
		  "h.yaml:6: 'host_cpus' must be in 0..64 (got 65)", 0 },
		{ "    host_cpu: nosuch\n    host_cpus: 2\n"
		  "    host_memory_GiB: 256\n"
		  "    host_cpu_source: \"made up\"\n",
		  "h.yaml:2: node 'hbox': host_cpu 'nosuch' is not in the "
		  "catalog", 1 },
		{ "    host_cpu: tgpu\n    host_cpus: 2\n"
		  "    host_memory_GiB: 256\n"
		  "    host_cpu_source: \"made up\"\n",
		  "h.yaml:2: node 'hbox': host_cpu 'tgpu' is not a CPU", 1 },
	};

	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hw_catalog *cat = hw_test_catalog();
		struct dlsim_err err = { 0 };
		char text[1024];
		int rc;

		snprintf(text, sizeof(text), "nodes:\n  - name: hbox\n"
			 "    device: tgpu\n    devices_per_node: 1\n"
			 "    intra_topology: single\n%s"
			 "    source: \"made up for tests\"\n", cases[i].fields);
		rc = hw_catalog_add_text(cat, "h.yaml", text, strlen(text),
					 &err);
		if (!cases[i].at_check && cases[i].want) {
			ck_assert_int_eq(rc, DLSIM_EPARSE);
		} else {
			ck_assert_msg(rc == DLSIM_OK, "%s", err.msg);
			rc = hw_catalog_check(cat, &err);
		}
		if (!cases[i].want) {
			const struct hw_node *n = hw_node_find(cat, "hbox");

			ck_assert_int_eq(rc, DLSIM_OK);
			ck_assert_str_eq(n->host_cpu, "xeon-x8");
			ck_assert_int_eq(n->host_cpus, 2);
			ck_assert_int_eq(n->devices_per_host_link, 1);
			ck_assert_str_eq(n->host_cpu_source, "made up");
			ck_assert(n->host_memory_bytes == 256.0 * 1073741824.0);
		} else {
			ck_assert_int_eq(rc, DLSIM_EPARSE);
			ck_assert_msg(strstr(err.msg, cases[i].want) != NULL,
				      "case %zu: %s", i, err.msg);
		}
		hw_catalog_free(cat);
	}
}
END_TEST

/* devices_per_host_link divides the node's devices: 3 of 4 would leave
 * a link half shared. */
START_TEST(host_link_sharing_divides_the_node)
{
	static const char text[] =
		"nodes:\n  - name: quad\n    device: tgpu\n"
		"    devices_per_node: 4\n    intra_link: tlink\n"
		"    intra_links_per_device: 1\n"
		"    intra_topology: all-to-all\n"
		"    host_link: tlink\n    host_link_source: \"made up\"\n"
		"    devices_per_host_link: 3\n"
		"    source: \"made up for tests\"\n";
	struct hw_catalog *cat = hw_test_catalog();
	struct dlsim_err err = { 0 };

	ck_assert_int_eq(hw_catalog_add_text(cat, "q.yaml", text,
					     strlen(text), &err), DLSIM_EPARSE);
	ck_assert_msg(strstr(err.msg, "q.yaml:10: 'devices_per_host_link' (3) "
			     "must divide 'devices_per_node' (4)") != NULL, "%s",
		      err.msg);
	hw_catalog_free(cat);
}
END_TEST

/*
 * The widths the trip and the host take.  Under autocast the device
 * keeps fp32 weights and their 16-bit cast cache (6 P B) and pulls fp32
 * (4 P each way); the host holds the weights, the gradients' sum and no
 * 16-bit copy (8 P with SGD).  Without autocast, mixed: the device keeps
 * the 16-bit copy (2 P), the host also the copy it sends (10 P).  fp64
 * SGD: 8 P B each way, the host's update reads the gradient and reads
 * and writes the weight, 24 P B at 1 GB/s; momentum's state is one
 * 8-byte word (8 P on the host).  torch.optim's foreach SGD moves 6
 * master words a parameter, 24 P B in fp32, where the fused kernel
 * moves 12 P.
 */
START_TEST(host_update_widths_autocast_fp64_foreach)
{
	struct host_rig h;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();
	const double P = 1003000.0;

	host_rig_init(&h, 1, 1, 0);
	h.r.dev.peak[DLSIM_FP64] = h.r.dev.peak[DLSIM_FP32];
	options_fp32_sgd(&o, 1);
	o.precision = DLSIM_FP16;
	o.autocast = 1;
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.memory.weights_bytes, 6.0 * P, 1e-12);
	ck_assert_rel(res.memory.host_bytes, 8.0 * P, 1e-12);
	ck_assert_rel(res.breakdown.comm_s, 2e-6 + 8.0 * P / 1e9, 1e-12);
	o.autocast = 0;
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.memory.weights_bytes, 2.0 * P, 1e-12);
	ck_assert_rel(res.memory.host_bytes, 10.0 * P, 1e-12);

	o.precision = DLSIM_FP64;
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.comm_s, 2e-6 + 16.0 * P / 1e9, 1e-12);
	ck_assert_rel(res.breakdown.optimizer_s, 24.0 * P / 1e9, 1e-12);
	o.optimizer = SIM_OPT_MOMENTUM;
	o.update_on_host = 0;
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.memory.optimizer_bytes, 8.0 * P, 1e-12);

	options_fp32_sgd(&o, 1);
	o.optimizer_foreach = 1;
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.optimizer_s, 24.0 * P / 1e9, 1e-12);
	model_free(m);
}
END_TEST

/*
 * The host's update in the timeline, on its own stream, with the host's
 * traffic: four devices two to a link, SGD in fp32, 32 P B (the fused
 * device kernel's 12 P plus the four gradients read and their sum
 * written), after the push.
 */
START_TEST(host_update_trace_carries_the_hosts_bytes)
{
	struct host_rig h;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();
	const double P = 1003000.0, two = 1e-6 + 8.0 * P / 1e9;
	int i, host = 0;

	host_rig_init(&h, 4, 1, 2);
	options_fp32_sgd(&o, 1);
	o.want_trace = 1;
	ck_assert_int_eq(sim_predict(m, &h.r.sys, &o, &res, NULL), DLSIM_OK);
	for (i = 0; i < res.n_events; i++) {
		const struct sim_event *e = &res.events[i];

		if (e->pass != MODEL_PASS_UPDATE)
			continue;
		ck_assert_int_eq(e->stream, SIM_STREAM_HOST);
		ck_assert_rel(e->bytes, 32.0 * P, 1e-12);
		ck_assert_rel(e->dur_s, 32.0 * P / 1e9, 1e-12);
		ck_assert_rel(e->start_s, res.breakdown.forward_s +
			      res.breakdown.backward_s + two, 1e-12);
		host++;
	}
	ck_assert_int_eq(host, 1);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

/*
 * DLRM's tables, too large for a V100, move to the host as on the
 * device step; with the update on the host a moved table frees only
 * its weights and gradient (its state was not on the device), so more
 * of them move, and the step still fits.
 */
START_TEST(host_update_with_tables_on_the_host)
{
	struct hw_catalog *cat = hw_test_shipped();
	struct hw_system s;
	struct sim_options o;
	struct sim_result dev, res;
	struct model *m = NULL;
	struct dlsim_err err = { 0 };

	ck_assert_int_eq(hw_system_resolve(cat, "v100x8", &s, &err), DLSIM_OK);
	ck_assert_int_eq(model_zoo_build("dlrm", &m, &err), DLSIM_OK);
	sim_options_init(&o);
	ck_assert_int_eq(sim_predict(m, &s, &o, &dev, &err), DLSIM_OK);
	o.update_on_host = 1;
	ck_assert_int_eq(sim_predict(m, &s, &o, &res, &err), DLSIM_OK);
	ck_assert(dev.fits && res.fits);
	ck_assert_int_ge(dev.memory.host_tables, 1);
	ck_assert_int_ge(res.memory.host_tables, dev.memory.host_tables);
	ck_assert(res.memory.total_bytes <= res.memory.capacity_bytes);
	ck_assert(res.memory.host_bytes > dev.memory.host_bytes);
	model_free(m);
	hw_catalog_free(cat);
}
END_TEST

/*
 * Tables in host memory are the host's to hold and to update: a DLRM of
 * embedding dimension 4096 in fp32 with momentum keeps 12 B a table
 * value there (weight, gradient, momentum: several TiB), which a
 * DGX-1's 512 GiB cannot hold, so it does not fit; and the tables'
 * gradients are not reduced, so the gradient bytes are the other
 * parameters' 4 B each, with overlap or without.
 */
START_TEST(host_tables_need_host_memory_and_are_not_reduced)
{
	struct hw_catalog *cat = hw_test_shipped();
	struct hw_system s;
	struct sim_options o;
	struct sim_result r, flat;
	struct model *m = NULL;
	struct dlsim_err err = { 0 };
	double host_params;

	ck_assert_int_eq(hw_system_resolve(cat, "v100x8", &s, &err), DLSIM_OK);
	ck_assert_int_eq(model_zoo_build("dlrm:dim=4096", &m, &err),
			 DLSIM_OK);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	ck_assert_int_eq(sim_predict(m, &s, &o, &r, &err), DLSIM_OK);
	ck_assert_int_ge(r.memory.host_tables, 1);
	ck_assert(r.memory.total_bytes <= r.memory.capacity_bytes);
	ck_assert_rel(r.memory.host_capacity_bytes, 512.0 * 1073741824.0,
		      1e-12);
	ck_assert(r.memory.host_bytes > r.memory.host_capacity_bytes);
	ck_assert(!r.fits);
	host_params = r.memory.host_bytes / 12.0;
	ck_assert(host_params > 0.5 * (double)m->params);
	ck_assert_rel(r.gradient_bytes, ((double)m->params - host_params) *
		      4.0, 1e-9);
	o.overlap = 0;
	ck_assert_int_eq(sim_predict(m, &s, &o, &flat, &err), DLSIM_OK);
	ck_assert_rel(flat.gradient_bytes, r.gradient_bytes, 1e-12);
	ck_assert_rel(flat.comm_bytes, r.comm_bytes, 1e-9);
	sim_result_release(&flat);
	sim_result_release(&r);
	/* a node that states no host memory (the DGX-2's entry) is not
	 * judged by it: the tables are there, the step still fits */
	ck_assert_int_eq(hw_system_resolve(cat, "dgx2", &s, &err), DLSIM_OK);
	ck_assert(!(s.node->host_memory_bytes > 0.0));
	o.overlap = 1;
	ck_assert_int_eq(sim_predict(m, &s, &o, &r, &err), DLSIM_OK);
	ck_assert_int_ge(r.memory.host_tables, 1);
	ck_assert(r.memory.host_bytes > 0.0);
	ck_assert(r.memory.host_capacity_bytes == 0.0);
	ck_assert(r.fits);
	sim_result_release(&r);
	model_free(m);
	hw_catalog_free(cat);
}
END_TEST

/*
 * DLRM's tables in host memory are read over the host link, which the
 * DGX-1's eight V100s share two to a PCIe switch (hw_system_host_sharing):
 * on all eight, at the same batch a device, a table on the host moves
 * the same bytes at half the link's rate, so its passes count twice the
 * device-memory-equivalent bytes of one V100 alone, whose link is its
 * own; a table on the device counts the same on both.
 */
START_TEST(host_tables_share_the_uplink)
{
	struct hw_catalog *cat = hw_test_shipped();
	struct hw_system one, eight;
	struct sim_options o;
	struct sim_result r1, r8;
	struct model *m = NULL;
	struct dlsim_err err = { 0 };
	int i, shared = 0;

	ck_assert_int_eq(hw_system_resolve(cat, "v100x1", &one, &err),
			 DLSIM_OK);
	ck_assert_int_eq(hw_system_resolve(cat, "v100x8", &eight, &err),
			 DLSIM_OK);
	ck_assert_int_eq(hw_system_host_sharing(&eight), 2);
	ck_assert_int_eq(model_zoo_build("dlrm", &m, &err), DLSIM_OK);
	sim_options_init(&o);
	o.batch_per_device = 2048;
	o.want_layers = 1;
	ck_assert_int_eq(sim_predict(m, &one, &o, &r1, &err), DLSIM_OK);
	ck_assert_int_eq(sim_predict(m, &eight, &o, &r8, &err), DLSIM_OK);
	ck_assert_int_ge(r1.memory.host_tables, 1);
	ck_assert_int_eq(r8.memory.host_tables, r1.memory.host_tables);
	for (i = 0; i < m->n_layers; i++) {
		double a = r1.layers[i].bytes[MODEL_PASS_FWD];
		double b = r8.layers[i].bytes[MODEL_PASS_FWD];

		if (m->layers[i].kind != MODEL_EMBEDDING_BAG)
			continue;
		ck_assert(a > 0.0);
		if (fabs(b / a - 2.0) < 1e-12)
			shared++;
		else
			ck_assert_rel(b, a, 1e-12);
	}
	ck_assert_int_eq(shared, r1.memory.host_tables);
	/* the efficiency's one device has its uplink to itself: its step
	 * is the one-device prediction's, not eight devices' compute
	 * stream with the shared link */
	ck_assert_rel(r8.single_device_step_s, r1.step_time_s, 1e-12);
	ck_assert_rel(r8.scaling_efficiency, r1.step_time_s / r8.step_time_s,
		      1e-12);
	sim_result_release(&r1);
	sim_result_release(&r8);
	model_free(m);
	hw_catalog_free(cat);
}
END_TEST

Suite *suite_sim_host(void)
{
	Suite *s = suite_create("sim_host");
	TCase *c = tcase_create("core");

	tcase_add_test(c, host_update_one_device_by_hand);
	tcase_add_test(c, host_update_shares_the_link_and_sums_the_gradients);
	tcase_add_test(c, host_update_mixed_precision_widths);
	tcase_add_test(c, host_update_moves_the_state_to_the_host);
	tcase_add_test(c, host_update_trace_events);
	tcase_add_test(c, host_update_refusals);
	tcase_add_test(c, host_update_on_the_dgx1);
	tcase_add_test(c, host_cpu_fields_are_read_and_checked);
	tcase_add_test(c, host_link_sharing_divides_the_node);
	tcase_add_test(c, host_update_widths_autocast_fp64_foreach);
	tcase_add_test(c, host_update_trace_carries_the_hosts_bytes);
	tcase_add_test(c, host_update_with_tables_on_the_host);
	tcase_add_test(c, host_tables_share_the_uplink);
	tcase_add_test(c, host_tables_need_host_memory_and_are_not_reduced);
	suite_add_tcase(s, c);
	return s;
}
