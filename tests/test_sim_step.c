/*
 * test_sim_step.c -- one training step (sim/sim_step.c, sim_memory.c,
 * sim_train.c) against hand-worked values: which passes autograd runs,
 * gradients summed at a fan-out, host dispatch, the overlap schedule of
 * bucketed allreduces, compression, the trace, time, energy and cost to
 * train, memory per device, bad inputs and extreme sizes, on hardware
 * built in code (sim_util.c).  Fusion, which rewrites the passes' bytes
 * and launches (sim_fuse.c), is test_sim_fuse.c.
 */
#include <math.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "models/model.h"
#include "sim/sim.h"
#include "sim_util.h"

/* ---------------------------------------------------------------- */
/* Step schedule                                                     */
/* ---------------------------------------------------------------- */

/*
 * On the launch-only rig (1 ms per kernel) two_fc runs:
 *   forward   fc1, fc2, loss                         3 ms
 *   backward  loss dx, fc2 dx, fc2 dw, fc1 dw         4 ms
 *             (fc1 needs no dx: its input is the data)
 *   optimizer one fused kernel                        1 ms
 */
START_TEST(step_single_device_counts_autograd_passes)
{
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();

	sim_rig_init(&r, 1, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.forward_s, 3e-3, 1e-9);
	ck_assert_rel(res.breakdown.backward_s, 4e-3, 1e-9);
	ck_assert_rel(res.breakdown.optimizer_s, 1e-3, 1e-9);
	ck_assert_rel(res.step_time_s, 8e-3, 1e-9);
	ck_assert(res.breakdown.comm_s == 0.0);
	ck_assert_rel(res.scaling_efficiency, 1.0, 1e-12);
	ck_assert_int_eq(res.batch_per_device, 2);  /* model default */
	ck_assert_rel(res.throughput, 2.0 / 8e-3, 1e-9);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

/*
 * Fan-out on the launch-only rig: input -> fc1 -> (fc2, fc3) -> add ->
 * loss.  fc1's output has two consumers, so backward sums two gradients
 * before fc1's dw:
 *   forward   fc1, fc2, fc3, add, loss                      5 ms
 *   backward  loss dx; add (a pass-through, no kernel);
 *             fc3 dx, dw; fc2 dx, dw; fc1 gradient sum, dw  7 ms
 *   optimizer                                               1 ms
 */
START_TEST(step_sums_gradients_at_a_fan_out)
{
	struct model_builder b;
	struct model_shape in = { 1, 1, 1 };
	struct model *m = NULL;
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	int x, y[2];

	model_builder_init(&b, "fan", in, 2, "test");
	x = model_add_fc(&b, MODEL_IN, "fc1", 8, 1);
	y[0] = model_add_fc(&b, x, "fc2", 8, 1);
	y[1] = model_add_fc(&b, x, "fc3", 8, 1);
	x = model_add_merge(&b, MODEL_ADD, 2, y, "sum");
	model_add_simple(&b, MODEL_SOFTMAX_XENT, x, "loss");
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	ck_assert_int_eq(m->layers[1].n_consumers, 2);
	sim_rig_init(&r, 1, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.want_layers = 1;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.forward_s, 5e-3, 1e-9);
	ck_assert_rel(res.breakdown.backward_s, 7e-3, 1e-9);
	ck_assert_rel(res.step_time_s, 13e-3, 1e-9);
	/* the sum is charged to fc1's dx column: 1 ms */
	ck_assert_rel(res.layers[1].time_s[MODEL_PASS_BWD_DATA], 1e-3, 1e-9);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

/*
 * Host dispatch on the launch-only rig (every kernel 1 ms on the device),
 * worked by hand from sim_step.c's rule: a pass of k kernels and device
 * time t, the device free at D and the host's clock at H, ends at
 * max(D + t, H + h + t, H + k h + t / k), and the host moves on k h.
 * two_fc, h = 2 ms (the host slower): forward fc1, fc2, loss end at 3, 5,
 * 7 ms (n h + 1); backward (loss dx, fc2 dx and dw, fc1 dw) at 9, 11,
 * 13, 15: 8 ms; the optimizer issues nothing: step 16 ms.  h = 0.5 ms
 * (the device slower): only the first launch shows, forward 3.5 ms,
 * backward 4 ms.  An LSTM of 4 steps runs 2 x 4 = 8 kernels forward and
 * its input GEMM, 9 ms, the loss 10 ms; with h = 2 ms its pass of 9
 * kernels ends at max(9, 2 + 9, 18 + 9 / 9) = 19 ms, the host at 18 ms,
 * and the loss at max(19 + 1, 18 + 2 + 1) = 21 ms.
 */
START_TEST(step_host_dispatch_queues_launches)
{
	struct model_builder b;
	struct model_shape in = { 1, 4, 1 };
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();
	int x;

	sim_rig_init(&r, 1, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.dispatch_s = 2e-3;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.forward_s, 7e-3, 1e-9);
	ck_assert_rel(res.breakdown.backward_s, 8e-3, 1e-9);
	ck_assert_rel(res.step_time_s, 16e-3, 1e-9);
	sim_result_release(&res);
	o.dispatch_s = 0.5e-3;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.forward_s, 3.5e-3, 1e-9);
	ck_assert_rel(res.breakdown.backward_s, 4e-3, 1e-9);
	sim_result_release(&res);
	o.dispatch_s = 1.0;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL),
			 DLSIM_EINVAL);
	model_free(m);

	model_builder_init(&b, "lstm4", in, 2, "test");
	x = model_add_rnn(&b, MODEL_LSTM, MODEL_IN, "rnn", 8, 0, 1);
	model_add_simple(&b, MODEL_SOFTMAX_XENT, x, "loss");
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	o.dispatch_s = 0.0;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.forward_s, 10e-3, 1e-9);
	sim_result_release(&res);
	o.dispatch_s = 2e-3;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.breakdown.forward_s, 21e-3, 1e-9);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

/*
 * Two devices in one box, ring allreduce at 1 GB/s, no latency: a
 * bucket of m bytes takes 2 x 1/2 x m / 1e9 = m ns.  Buckets of 1 MB:
 *   fc2's gradients 1,001,000 x 4 B = 4.004 MB fill bucket 1 when fc2's
 *   dw ends at 6 ms: allreduce 6 -> 10.004 ms;
 *   fc1's 8,000 B go when backward ends at 7 ms, but wait for the link:
 *   10.004 -> 10.012 ms; the optimizer then runs to 11.012 ms.
 * Compute is 8 ms, so 3.012 ms of 4.012 ms of communication is exposed.
 */
START_TEST(step_overlaps_buckets_with_backward)
{
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();

	sim_rig_init(&r, 2, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.bucket_bytes = 1e6;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_int_eq(res.n_buckets, 2);
	ck_assert_rel(res.breakdown.comm_s, 4.012e-3, 1e-9);
	ck_assert_rel(res.step_time_s, 11.012e-3, 1e-9);
	ck_assert_rel(res.breakdown.comm_exposed_s, 3.012e-3, 1e-9);
	ck_assert_rel(res.scaling_efficiency, 8.0 / 11.012, 1e-9);
	ck_assert_int_eq(res.global_batch, 4);
	sim_result_release(&res);
	/* without overlap both buckets wait for backward: 7 + 4.012 + 1 */
	o.overlap = 0;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.step_time_s, 12.012e-3, 1e-9);
	ck_assert_int_eq(res.n_buckets, 2);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

/*
 * fp16 gradient compression on the same two-device rig: each bucket's n
 * fp32 values travel as 2n bytes; a cast kernel (1 ms on the launch-only
 * rig) runs on the compute stream before the bucket goes, and a cast-back
 * kernel after backward, before the optimizer.
 *   fc2's dw ends at 6 ms; its cast: 6 -> 7; bucket 1 (2.002 MB at
 *   1 GB/s: m ns) on the comm stream 7 -> 9.002 ms;
 *   fc1's dw 7 -> 8; the last bucket's cast 8 -> 9; it waits for the
 *   link: 9.002 -> 9.006 ms (4,000 bytes);
 *   two cast-backs 9.006 -> 11.006, the optimizer to 12.006 ms.
 * Compute is 9 + 2 + 1 = 12 ms, so 6 us are exposed.
 * Top-k (1%) sends P k (value, index) pairs: 2 x 10,010 x 8 + 2 x 20 x 8
 * = 160,480 bytes in all.
 */
START_TEST(step_compression_costs_bytes_and_kernels)
{
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();

	sim_rig_init(&r, 2, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.bucket_bytes = 1e6;
	o.compression = SIM_COMPRESS_FP16;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.comm_bytes, 2006000.0, 1e-12);
	ck_assert_rel(res.breakdown.compress_s, 4e-3, 1e-9);
	ck_assert_rel(res.breakdown.comm_s, 2.006e-3, 1e-9);
	ck_assert_rel(res.step_time_s, 12.006e-3, 1e-9);
	ck_assert_rel(res.breakdown.comm_exposed_s, 6e-6, 1e-6);
	/* the efficiency's one device sends nothing, so casts nothing: its
	 * step is the 8 ms of the uncompressed rig, not the 12 ms of this
	 * compute stream */
	ck_assert_rel(res.single_device_step_s, 8e-3, 1e-9);
	ck_assert_rel(res.scaling_efficiency, 8.0 / 12.006, 1e-9);
	ck_assert_int_eq(res.compression, SIM_COMPRESS_FP16);
	ck_assert_int_eq(res.grad_collective, SIM_COLL_ALLREDUCE);
	sim_result_release(&res);
	o.compression = SIM_COMPRESS_TOPK;
	o.topk_ratio = 0.01;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.comm_bytes, 160480.0, 1e-12);
	ck_assert_int_eq(res.grad_collective, SIM_COLL_ALLGATHER);
	sim_result_release(&res);
	/* a ratio that keeps less than one value keeps one: each of the 2
	 * buckets gathers one 8-byte pair from each of the 2 ranks */
	o.topk_ratio = 1e-300;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_rel(res.comm_bytes, 32.0, 1e-12);
	sim_result_release(&res);
	o.topk_ratio = 0.01;
	/* an algorithm that cannot gather is refused, not replaced */
	o.allreduce = SIM_ALGO_PARAM_SERVER;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL),
			 DLSIM_EINVAL);
	o.allreduce = SIM_ALGO_AUTO;
	o.topk_ratio = 1.5;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL),
			 DLSIM_EINVAL);
	model_free(m);
}
END_TEST

/*
 * The timeline is the schedule: on two devices two_fc makes 3 forward
 * passes, 4 backward ones, the optimizer, and 2 buckets; compute spans
 * follow each other without overlap, and the last span ends the step.
 */
START_TEST(step_trace_is_the_schedule)
{
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();
	double end = 0.0, clock = 0.0;
	int i, compute = 0, comm = 0;

	sim_rig_init(&r, 2, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.bucket_bytes = 1e6;
	o.want_trace = 1;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_int_eq(res.n_events, 10);
	for (i = 0; i < res.n_events; i++) {
		const struct sim_event *e = &res.events[i];

		if (e->stream == SIM_STREAM_COMPUTE) {
			ck_assert(e->start_s >= clock - 1e-15);
			clock = e->start_s + e->dur_s;
			compute++;
		} else {
			ck_assert_int_eq(e->bucket, comm);
			comm++;
		}
		if (e->start_s + e->dur_s > end)
			end = e->start_s + e->dur_s;
	}
	ck_assert_int_eq(compute, 8);
	ck_assert_int_eq(comm, 2);
	ck_assert_rel(end, res.step_time_s, 1e-12);
	/* the first bucket starts when fc2's dw ends, at 6 ms */
	for (i = 0; i < res.n_events; i++)
		if (res.events[i].stream == SIM_STREAM_COMM) {
			ck_assert_rel(res.events[i].start_s, 6e-3, 1e-9);
			break;
		}
	sim_result_release(&res);
	ck_assert(res.events == NULL && res.n_events == 0);
	model_free(m);
}
END_TEST

/*
 * Time to train two_fc: 2 epochs of 10 samples at global batch 4 is
 * 2 x ceil(10 / 4) = 6 steps of 11.012 ms (the overlap case above) =
 * 66.072 ms.  Power: 2 devices x 100 W + the whole 2-device node's 50 W
 * = 250 W, so 16.518 J.  At 3 USD per device-hour:
 * 2 x 0.066072 / 3600 h x 3 USD.
 */
START_TEST(train_time_energy_and_cost)
{
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct sim_train_options t;
	struct sim_train tr;
	struct dlsim_err err = { 0, "" };
	struct model *m = sim_two_fc();

	sim_rig_init(&r, 2, 1);
	r.dev.tdp_w = 100.0;
	r.node.overhead_w = 50.0;
	sim_options_init(&o);
	o.precision_auto = 0;
	o.bucket_bytes = 1e6;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	sim_train_options_init(&t);
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, &err),
			 DLSIM_EINVAL);   /* two_fc has no recipe */
	t.epochs = 2;
	t.dataset_size = 10;
	t.price_per_device_hour = 3.0;
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_OK);
	ck_assert(tr.steps == 6.0);
	ck_assert_rel(tr.time_s, 66.072e-3, 1e-9);
	ck_assert_rel(tr.power_w, 250.0, 1e-12);
	ck_assert_rel(tr.energy_j, 16.518, 1e-9);
	ck_assert_rel(tr.cost_usd, 2.0 * 66.072e-3 / 3600.0 * 3.0, 1e-9);
	/* a price and years together are refused */
	t.years = 3.0;
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_EINVAL);
	/* amortized list price needs a price in the catalog */
	t.price_per_device_hour = 0.0;
	t.years = 3.0;
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_OK);
	ck_assert(!tr.cost_known && strstr(tr.cost_note, "list price"));
	r.dev.price_usd = 26280.0;  /* 1 USD per hour over 3 years */
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_OK);
	ck_assert_rel(tr.cost_usd, 2.0 * 66.072e-3 / 3600.0, 1e-9);
	/* amortized over an hour it is allowed, under it or past a
	 * thousand years refused; a price above 1e9 USD an hour too (a
	 * 1e300 one printed a 300-digit cost, 1e308 an unknown one) */
	t.years = 1.0 / 8760.0;
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_OK);
	t.years = 1e-300;
	{
		struct dlsim_err e = { 0, "" };

		ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr,
						    &e), DLSIM_EINVAL);
		ck_assert_ptr_nonnull(strstr(e.msg, "years to amortize over"));
	}
	t.years = 1001.0;
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_EINVAL);
	/* through the API a NaN or negative figure is refused too, not
	 * passed over as "cost unknown" */
	t.years = NAN;
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_EINVAL);
	t.years = -3.0;
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_EINVAL);
	t.years = 0.0;
	t.price_per_device_hour = -1.0;
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_EINVAL);
	t.years = 0.0;
	t.price_per_device_hour = 1e300;
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_EINVAL);
	t.price_per_device_hour = 1e9;
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_OK);
	/* one device of the two-device node pays half its overhead */
	r.sys.n_devices = r.sys.devices_per_node = 1;
	t.years = 0.0;
	t.price_per_device_hour = 1.0;
	ck_assert_int_eq(sim_train_estimate(m, &r.sys, &res, &t, &tr, NULL),
			 DLSIM_OK);
	ck_assert_rel(tr.power_w, 100.0 + 25.0, 1e-12);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

/*
 * Memory of two_fc at batch 2 (P = 1,003,000 parameters):
 * fp32 + momentum: weights 4P, gradients 4P, state 4P;
 *   activations (input 1 + 1000 + 1000 + 1000) x 2 x 4 B = 24,008 B;
 *   workspace: widest layer in+out 2000 x 2 x 4 = 16,000 B, plus DDP's
 *   bucket copy 4P with two devices.
 * fp16 (mixed, as AMP runs it): weights 2P + 4P master, fp32 gradients
 * 4P (the allreduced size), Adam state 8P, activations half.
 */
START_TEST(step_memory_matches_hand_count)
{
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();
	double p = 1003000.0;

	sim_rig_init(&r, 2, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert(res.memory.weights_bytes == 4 * p);
	ck_assert(res.memory.gradients_bytes == 4 * p);
	ck_assert(res.memory.optimizer_bytes == 4 * p);
	ck_assert(res.memory.activations_bytes == 24008.0);
	ck_assert(res.memory.workspace_bytes == 16000.0 + 4 * p);
	ck_assert(res.memory.total_bytes == 16 * p + 24008.0 + 16000.0);
	ck_assert(res.fits);
	sim_result_release(&res);
	o.precision = DLSIM_FP16;
	o.optimizer = SIM_OPT_ADAM;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert(res.memory.weights_bytes == 6 * p);
	ck_assert(res.memory.gradients_bytes == 4 * p);
	ck_assert(res.memory.optimizer_bytes == 8 * p);
	ck_assert(res.memory.activations_bytes == 12004.0);
	ck_assert_rel(res.gradient_bytes, 4 * p, 1e-15);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

/*
 * two_fc on one device of 1 MB: fp32 + momentum, 12 x 1,003,000 B of
 * weights, gradients and state, 24,008 B of activations and 16,000 of
 * workspace (no DDP bucket on one device; step_memory_matches_hand_count)
 * = 12,076,008 B, which does not fit; the step still gets its time, the
 * 8 ms of step_single_device_counts_autograd_passes.
 */
START_TEST(step_reports_memory_shortfall)
{
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct model *m = sim_two_fc();

	sim_rig_init(&r, 1, 1);
	r.dev.mem[0].capacity_bytes = 1e6;
	r.dev.mem_capacity_bytes = 1e6;
	sim_options_init(&o);
	o.precision_auto = 0;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert(!res.fits);
	ck_assert(res.memory.total_bytes == 12076008.0);
	ck_assert(res.memory.capacity_bytes == 1e6);
	ck_assert_rel(res.step_time_s, 8e-3, 1e-9);  /* still gets its time */
	sim_result_release(&res);
	model_free(m);
}
END_TEST

START_TEST(step_rejects_bad_batches_and_precisions)
{
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct dlsim_err err = { 0, "" };
	struct model *m = sim_two_fc();

	sim_rig_init(&r, 2, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	o.global_batch = 3;   /* does not divide over 2 devices */
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "does not divide") != NULL);
	ck_assert(res.step_time_s == 0.0);
	dlsim_err_clear(&err);
	o.global_batch = 0;
	o.batch_per_device = 2000000;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, &err),
			 DLSIM_ERANGE);
	dlsim_err_clear(&err);
	o.batch_per_device = 2;
	o.precision = DLSIM_BF16;  /* the rig has fp32 and fp16 only */
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "bf16") != NULL);
	dlsim_err_clear(&err);
	o.precision = DLSIM_INT8;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "inference") != NULL);
	model_free(m);
}
END_TEST

/* Auto precision on the rig: fp16 beats nothing (equal peaks), so fp32;
 * raise fp16 and it is chosen; add a faster bf16 and that wins. */
START_TEST(step_auto_precision_follows_device)
{
	struct sim_rig r;

	sim_rig_init(&r, 1, 1);
	ck_assert_int_eq(hw_device_auto_precision(&r.dev), DLSIM_FP32);
	r.dev.peak[DLSIM_FP16].matrix_flops = 2e20;
	ck_assert_int_eq(hw_device_auto_precision(&r.dev), DLSIM_FP16);
	r.dev.peak[DLSIM_BF16] = r.dev.peak[DLSIM_FP16];
	ck_assert_int_eq(hw_device_auto_precision(&r.dev), DLSIM_BF16);
}
END_TEST

/* 10^6 devices and a 10^13-parameter model stay finite. */
START_TEST(step_extreme_sizes_stay_finite)
{
	struct sim_rig r;
	double t;

	sim_rig_init(&r, 8, 125000);
	r.intra.latency_s = 1e-6;
	r.nic.latency_s = 1e-6;
	t = sim_allreduce_time(&r.sys, 2e13, SIM_ALGO_AUTO, NULL, NULL);
	ck_assert(isfinite(t) && t > 0.0);
	ck_assert_int_eq(r.sys.n_devices, 1000000);
}
END_TEST

/* A 10^13-parameter model on 10^6 devices: every figure stays finite,
 * and the memory it needs (16 B per parameter at least) does not fit. */
START_TEST(step_ten_trillion_parameters_on_a_million_devices)
{
	struct model_builder b;
	struct model_shape in = { 1, 1000, 1000 };
	struct model *m = NULL;
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	int x;

	model_builder_init(&b, "huge", in, 1, "test");
	x = model_add_fc(&b, MODEL_IN, "fc", 10000000, 0);
	model_add_simple(&b, MODEL_SOFTMAX_XENT, x, "loss");
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	ck_assert(m->params == (int64_t)10000000000000LL);
	sim_rig_init(&r, 8, 125000);
	r.intra.latency_s = 1e-6;
	r.nic.latency_s = 1e-6;
	sim_options_init(&o);
	o.precision_auto = 0;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_int_eq(res.devices, 1000000);
	ck_assert(isfinite(res.step_time_s) && res.step_time_s > 0.0);
	ck_assert(isfinite(res.breakdown.comm_s) && res.breakdown.comm_s > 0);
	ck_assert(isfinite(res.memory.total_bytes));
	ck_assert(res.memory.total_bytes >= 16e13);
	ck_assert(!res.fits);
	ck_assert_rel(res.gradient_bytes, 4e13, 1e-12);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

/*
 * A calibration no loader would pass (a GEMM at 1e306 s a FLOP: the
 * loader's roof_in_bounds refuses it) set by hand: the step is inf,
 * and sim_predict says so instead of returning it; the same fit at
 * 1e-9 s a FLOP predicts.  At batch 2 the fitted GEMM passes take their
 * FLOPs (an fc's bias in its forward and weight passes) x 1e-9 s and no
 * launch: fc2 4,002,000 forward, 4,000,000 dx, 4,002,000 dw; fc1 6,000
 * forward, 6,000 dw (no dx): 12.016 ms.  The loss forward and backward
 * and the fused optimizer stay on the rig's 1 ms a launch: 3 ms.  The
 * step is 15.016 ms.
 */
START_TEST(step_refuses_a_step_that_is_not_finite)
{
	struct model *m = sim_two_fc();
	struct dlsim_err err = { 0, "" };
	struct sim_options o;
	struct sim_result res;
	struct hw_calib cal;
	struct hw_calib_kernel *k;
	struct sim_rig r;

	sim_rig_init(&r, 1, 1);
	memset(&cal, 0, sizeof(cal));
	k = &cal.kernel[MODEL_KERNEL_GEMM][DLSIM_FP32];
	k->s_per_flop = 1e306;	/* x 4e6 FLOPs of fc2: inf */
	k->fit.id = 1;
	r.sys.calib = &cal;
	sim_options_init(&o);
	o.precision_auto = 0;
	o.precision = DLSIM_FP32;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, &err),
			 DLSIM_ERANGE);
	ck_assert_msg(strstr(err.msg, "comes out as inf s") != NULL, "%s",
		      err.msg);
	ck_assert(res.step_time_s == 0.0 && res.layers == NULL);
	k->s_per_flop = 1e-9;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_double_eq_tol(res.step_time_s, 15.016e-3, 1e-12);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

/* A model of views only does no work: refused, not divided by zero;
 * and one device forms no gradient buckets. */
START_TEST(step_refuses_a_model_without_work)
{
	struct model_builder b;
	struct model_shape in = { 3, 4, 4 };
	struct model *m = NULL;
	struct sim_rig r;
	struct sim_options o;
	struct sim_result res;
	struct dlsim_err err = { 0, "" };

	model_builder_init(&b, "views", in, 1, "test");
	model_add_simple(&b, MODEL_FLATTEN, MODEL_IN, NULL);
	ck_assert_int_eq(model_builder_finish(&b, &m, NULL), DLSIM_OK);
	sim_rig_init(&r, 1, 1);
	sim_options_init(&o);
	o.precision_auto = 0;
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, &err),
			 DLSIM_EINVAL);
	ck_assert(strstr(err.msg, "no work") != NULL);
	ck_assert(res.step_time_s == 0.0 && res.precision == 0);
	model_free(m);
	m = sim_two_fc();
	ck_assert_int_eq(sim_predict(m, &r.sys, &o, &res, NULL), DLSIM_OK);
	ck_assert_int_eq(res.n_buckets, 0);
	sim_result_release(&res);
	model_free(m);
}
END_TEST

Suite *suite_sim_step(void)
{
	Suite *s = suite_create("sim_step");
	TCase *c;

	c = tcase_create("step");
	tcase_add_test(c, step_single_device_counts_autograd_passes);
	tcase_add_test(c, step_sums_gradients_at_a_fan_out);
	tcase_add_test(c, step_host_dispatch_queues_launches);
	tcase_add_test(c, step_compression_costs_bytes_and_kernels);
	tcase_add_test(c, step_trace_is_the_schedule);
	tcase_add_test(c, train_time_energy_and_cost);
	tcase_add_test(c, step_overlaps_buckets_with_backward);
	tcase_add_test(c, step_memory_matches_hand_count);
	tcase_add_test(c, step_reports_memory_shortfall);
	tcase_add_test(c, step_rejects_bad_batches_and_precisions);
	tcase_add_test(c, step_auto_precision_follows_device);
	tcase_add_test(c, step_extreme_sizes_stay_finite);
	tcase_add_test(c, step_ten_trillion_parameters_on_a_million_devices);
	tcase_add_test(c, step_refuses_a_model_without_work);
	tcase_add_test(c, step_refuses_a_step_that_is_not_finite);
	suite_add_tcase(s, c);
	return s;
}
