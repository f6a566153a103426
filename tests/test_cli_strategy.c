/*
 * test_cli_strategy.c -- the real dlsim binary ($DLSIM_BIN) end to end on
 * how a step is run: hybrid strategies set by hand or by --strategy auto,
 * plan's search over them, and the options that change the modelled
 * step (element-wise and convolution + BatchNorm fusion, embedding tables
 * in host memory, the host's dispatch time, foreach optimizer kernels,
 * autocast) on the data-parallel and the strategy paths alike, with the
 * input each refuses.  The command line's contract (help, formats,
 * generic bad input) is test_cli.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests.h"
#include "cli_util.h"

/* ---------------------------------------------------------------- */
/* Hybrid parallelism and plan                                       */
/* ---------------------------------------------------------------- */

#define TINY_GPT "gpt:layers=4,hidden=64,heads=4,seq=32,vocab=100"

START_TEST(cli_predict_strategy_and_plan)
{
	const char *p, *q;
	char want[96];
	double best;
	struct run r;
	int n;

	run(&r, "predict " TINY_GPT " --hw a100x8 --tp 2 --pp 2 "
	    "--global-batch 16 --micro-batch 2 --recompute full --zero 1 "
	    "--format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert_int_eq((int)json_number(r.out, "dp"), 2);
	ck_assert_int_eq((int)json_number(r.out, "micro_batches"), 4);
	ck_assert(json_number(r.out, "step_time_s") > 0.0);
	/* one plan a system, --top 3 entries each, every candidate
	 * counted once; --strategy auto is the best of a100x8's */
	run(&r, "plan " TINY_GPT " --hw a100x8,a100x16 --global-batch 16 "
	    "--top 3 --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out) && strstr(r.out, "{\"plans\": ["));
	p = strstr(r.out, "\"hardware\": \"a100x8\"");
	ck_assert(p != NULL && strstr(p, "\"hardware\": \"a100x16\""));
	for (n = 0, q = strstr(r.out, "{\"strategy\": "); q;
	     q = strstr(q + 1, "{\"strategy\": "))
		n++;
	ck_assert_int_eq(n, 2 * 3);
	ck_assert(json_number(p, "evaluated") ==
		  json_number(p, "feasible") + json_number(p, "out_of_memory") +
		  json_number(p, "invalid"));
	best = json_number(p, "step_time_s");
	snprintf(want, sizeof(want), "strategy        tp %d x pp %d x dp %d,",
		 (int)json_number(p, "tp"), (int)json_number(p, "pp"),
		 (int)json_number(p, "dp"));
	run(&r, "predict " TINY_GPT " --hw a100x8 --strategy auto "
	    "--global-batch 16 --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_rel(json_number(r.out, "step_time_s"), best, 1e-12);
	run(&r, "predict " TINY_GPT " --hw a100x8 --strategy auto "
	    "--global-batch 16");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.out, want) != NULL, "no '%s' in %s", want,
		      r.out);
	/* --max-devices doubles from one device: 1, 2, 4, 8, 16 */
	run(&r, "plan " TINY_GPT " --hw a100 --max-devices 16 "
	    "--global-batch 16 --top 1");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, " on a100x1, ") && strstr(r.out, " on a100x2, ")
		  && strstr(r.out, " on a100x4, ") &&
		  strstr(r.out, " on a100x8, ") &&
		  strstr(r.out, " on a100x16, ") &&
		  !strstr(r.out, " on a100x32"));
	ck_assert(strstr(r.out, "\nbest system     a100x") != NULL);
	/* a node name counts nodes: 8, 16, 32 A100s are 1, 2, 4 DGX A100 */
	run(&r, "plan " TINY_GPT " --hw dgx-a100 --max-devices 32 "
	    "--global-batch 16 --top 1 --format csv");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, ",dgx-a100x1,8,") &&
		  strstr(r.out, ",dgx-a100x2,16,") &&
		  strstr(r.out, ",dgx-a100x4,32,") &&
		  !strstr(r.out, "dgx-a100x8"));
	run(&r, "plan " TINY_GPT " --hw a100x8 --global-batch 16 --format "
	    "csv --top 2");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strncmp(r.out, "rank,hardware,devices,tp,", 25) == 0);
}
END_TEST

/*
 * --fuse-elementwise on ResNet-50: each of the 16 bottlenecks keeps bn1 ->
 * relu1, bn2 -> relu2, bn3 -> add and add -> relu on chip (add takes one
 * fused input), and the stem bn -> relu: 16 x 4 + 1 = 65 edges; the step
 * is shorter.
 */
START_TEST(cli_predict_fuses_resnet50)
{
	struct run r;
	double plain, fused;

	run(&r, "predict resnet50 --hw v100 --format json --uncalibrated");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq((int)json_number(r.out, "fused_edges"), 0);
	plain = json_number(r.out, "step_time_s");
	run(&r, "predict resnet50 --hw v100 --format json --uncalibrated "
	    "--fuse-elementwise");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq((int)json_number(r.out, "fused_edges"), 65);
	ck_assert(json_valid(r.out));
	fused = json_number(r.out, "step_time_s");
	ck_assert(fused < plain);
	run(&r, "predict resnet50 --hw v100 --fuse-elementwise");
	ck_assert(strstr(r.out, "fusion          65 element-wise edges") !=
		  NULL);
}
END_TEST

/*
 * --fuse-conv-bn on ResNet-50: in each of the 16 bottlenecks bn1 -> relu1
 * and bn2 -> relu2 lie between two convolutions; bn3 goes into the add
 * and the stem's pair into the max pool: 32 pairs.  It implies the
 * element-wise fusion (65 edges) and shortens that step.
 */
START_TEST(cli_predict_fuses_batchnorm_into_convolutions)
{
	struct run r;
	double fused;

	run(&r, "predict resnet50 --hw v100 --format json --uncalibrated "
	    "--fuse-elementwise");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq((int)json_number(r.out, "conv_bn_pairs"), 0);
	fused = json_number(r.out, "step_time_s");
	run(&r, "predict resnet50 --hw v100 --format json --uncalibrated "
	    "--fuse-conv-bn");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert_int_eq((int)json_number(r.out, "conv_bn_pairs"), 32);
	ck_assert_int_eq((int)json_number(r.out, "fused_edges"), 65);
	ck_assert(json_number(r.out, "step_time_s") < fused);
	run(&r, "predict resnet50 --hw v100 --fuse-conv-bn");
	ck_assert(strstr(r.out, "32 BatchNorm + ReLU pairs run inside "
			 "convolutions") != NULL);
	run(&r, "predict " TINY_GPT " --hw a100x8 --tp 2 --fuse-conv-bn");
	assert_one_error(&r, 2, "--fuse-conv-bn is not available with a "
			 "parallel strategy");
}
END_TEST

/*
 * DLRM's 24.0 G parameters take, under AMP with momentum (the default),
 * 2 + 4 + 4 + 4 = 14 B each: 336 GB, far past a
 * 16 GiB V100.  Its embedding tables go to host memory over the DGX-1's
 * PCIe gen3 link (nodes.yaml host_link) until the rest fits; the host
 * holds nearly all of it.
 */
START_TEST(cli_dlrm_tables_go_to_host_memory)
{
	struct run r;
	double host, total, cap;

	run(&r, "predict dlrm --hw v100 --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	host = json_number(r.out, "host");
	total = json_number(r.out, "memory_per_device_bytes");
	cap = json_number(r.out, "memory_capacity_bytes");
	ck_assert(strstr(r.out, "\"fits\": true") != NULL);
	ck_assert(total <= cap);
	/* at least the largest tables moved: over 300 GB of 336 */
	ck_assert(host > 3e11 && host < 14.0 * 24036595969.0);
	run(&r, "predict dlrm --hw v100");
	ck_assert(strstr(r.out, "over pcie3") != NULL);
	/* a CNN never moves anything */
	run(&r, "predict resnet50 --hw v100 --format json");
	ck_assert(json_number(r.out, "host") == 0.0);
}
END_TEST

START_TEST(cli_strategy_rejects_bad_input)
{
	struct run r;

	run(&r, "predict resnet18 --hw a100x2 --tp 2");
	assert_one_error(&r, 2, "model 'resnet18' is not a transformer: "
			 "tensor and pipeline parallelism need one (gpt:, "
			 "bert:, llama:, t5:)");
	run(&r, "predict " TINY_GPT " --hw a100x8 --sequence-parallel");
	assert_one_error(&r, 2, "sequence parallelism splits over the "
			 "tensor-parallel devices: it needs tp 2 or more");
	run(&r, "predict " TINY_GPT " --hw a100x8 --tp 2 --zero 5");
	assert_one_error(&r, 2, "--zero must be 0, 1, 2 or 3 (got '5')");
	run(&r, "predict " TINY_GPT " --hw a100x8 --recompute most");
	assert_one_error(&r, 2, "unknown recompute 'most' (expected none, "
			 "selective, full)");
	run(&r, "predict " TINY_GPT " --hw a100x8 --strategy best");
	assert_one_error(&r, 2, "--strategy takes 'auto' (got 'best')");
	run(&r, "predict " TINY_GPT " --hw a100x8 --tp 3");
	assert_one_error(&r, 2, "tp 3 x pp 1 does not divide the 8 devices");
	run(&r, "predict " TINY_GPT " --hw a100x8 --tp 2 --layers");
	assert_one_error(&r, 2, "--layers is not available with a parallel "
			 "strategy");
	run(&r, "predict " TINY_GPT " --hw a100x8 --tp 2 --fuse-elementwise");
	assert_one_error(&r, 2, "--fuse-elementwise is not available with a "
			 "parallel strategy");
	run(&r, "plan " TINY_GPT " --hw a100x8 --global-batch 8 "
	    "--dispatch-us 2e6");
	assert_one_error(&r, 2, "--dispatch-us must be at least 0 and below "
			 "1e6");
	run(&r, "plan " TINY_GPT " --hw a100x8");
	assert_one_error(&r, 2, "--hw and --global-batch are required");
	run(&r, "plan " TINY_GPT " --hw a100x8 --global-batch 8 "
	    "--objective speed");
	assert_one_error(&r, 2, "unknown objective 'speed'");
	/* no made-up price or power: an unpriced device is not compared by
	 * cost with another device, an unknown TDP not ranked by energy
	 * (rtx4090 is the catalog's one priced GPU, tpu-v5e has no TDP) */
	run(&r, "plan " TINY_GPT " --hw rtx4090x8,a100x8 --global-batch 8 "
	    "--objective cost");
	assert_one_error(&r, 2, "--objective cost: device 'a100' has no "
			 "price in the catalog, so 'rtx4090' and 'a100' "
			 "cannot be ranked by cost");
	ck_assert_str_eq(r.out, "");
	run(&r, "plan " TINY_GPT " --hw tpu-v5ex8 --global-batch 8 "
	    "--objective energy");
	assert_one_error(&r, 2, "--objective energy: device 'tpu-v5e' has "
			 "no TDP in the catalog");
	/* a global batch above the limit is said to be one, not a batch
	 * that does not divide (1000008 is a multiple of dp 8) */
	run(&r, "predict " TINY_GPT " --hw a100x8 --tp 1 --global-batch "
	    "1000008");
	assert_one_error(&r, 2, "global batch 1000008 is outside "
			 "1..1000000");
	run(&r, "predict " TINY_GPT " --hw a100x8 --global-batch 2000000 "
	    "--strategy auto");
	assert_one_error(&r, 2, "global batch 2000000 is outside "
			 "1..1000000");
	/* no strategy at all is not "none fits in memory": 3 sequences
	 * over 64 devices of a 4-head, 4-block model cannot be split */
	run(&r, "predict " TINY_GPT " --hw a100x64 --global-batch 3 "
	    "--strategy auto");
	assert_one_error(&r, 2, "--strategy auto: no strategy splits the "
			 "model and the global batch of 3 over the devices");
	run(&r, "plan " TINY_GPT " --hw a100x64 --global-batch 3");
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "nothing fits: no strategy "
				    "splits the model and 3 sequences over 64 "
				    "devices"));
	/* one device, several sizes: device-seconds rank as cost would */
	run(&r, "plan " TINY_GPT " --hw a100x8,a100x16 --global-batch 16 "
	    "--objective cost");
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "best system     a100x8 (by "
					    "cost)"));
	run(&r, "plan " TINY_GPT " --hw a100x8 --global-batch 8 "
	    "--max-devices 64");
	assert_one_error(&r, 2, "--max-devices takes device or node names, "
			 "not counts or files ('a100x8')");
	run(&r, "plan resnet50 --hw a100x8 --global-batch 8");
	assert_one_error(&r, 2, "dlsim: plan: model 'resnet50' is not a "
			 "transformer");
	/* too many devices: refused before anything is printed */
	run(&r, "plan " TINY_GPT " --hw a100 --global-batch 8 --max-devices "
	    "1000000000");
	assert_one_error(&r, 2, "--max-devices 1000000000: 134217728 devices "
			 "of 'a100' is more than a system can have");
	ck_assert_str_eq(r.out, "");
	run(&r, "plan " TINY_GPT " --hw a100x8 --global-batch 8 --precision "
	    "int8");
	assert_one_error(&r, 2, "int8 is an inference precision; training "
			 "needs fp64, fp32, tf32, fp16, bf16 or fp8");
	/* the names an unknown precision is told are the help's */
	run(&r, "predict resnet18 --hw v100 --precision fp9");
	assert_one_error(&r, 2, "unknown precision 'fp9' (expected auto, "
			 "fp64, fp32, tf32, fp16, bf16, fp8)");
	run(&r, "plan " TINY_GPT " --hw a100x8 --global-batch 8 --precision "
	    "int4");
	assert_one_error(&r, 2, "unknown precision 'int4' (expected auto, "
			 "fp64, fp32, tf32, fp16, bf16, fp8)");
	/* each line names the subcommand, whichever layer wrote it */
	run(&r, "predict " TINY_GPT " --hw a100x8 --dispatch-us 1e6");
	assert_one_error(&r, 2, "dlsim: predict: --dispatch-us must be at "
			 "least 0 and below 1e6");
	run(&r, "predict resnet18 --hw a100 --dispatch-us -3");
	assert_one_error(&r, 2, "dlsim: predict: --dispatch-us must be 0 or "
			 "more (got '-3'); try 'dlsim predict --help'");
	run(&r, "predict resnet18 --hw a100x2 --dispatch-us 30 --tp 2");
	assert_one_error(&r, 2, "model 'resnet18' is not a transformer");
}
END_TEST

/* The step time `dlsim predict ARGS --uncalibrated --format json` gives. */
static double predicted_step(const char *args)
{
	char cmd[512];
	struct run r;

	snprintf(cmd, sizeof(cmd), "predict %s --uncalibrated --format json",
		 args);
	run(&r, cmd);
	ck_assert_msg(r.status == 0, "%s: %s", cmd, r.err);
	return json_number(r.out, "step_time_s");
}

/* The best step `dlsim plan ARGS --uncalibrated --top 1 --format json`
 * finds: each candidate costs more with an option that slows every step,
 * so the best does too. */
static double planned_step(const char *args)
{
	char cmd[512];
	struct run r;

	snprintf(cmd, sizeof(cmd), "plan %s --uncalibrated --top 1 --format "
		 "json", args);
	run(&r, cmd);
	ck_assert_msg(r.status == 0, "%s: %s", cmd, r.err);
	return json_number(r.out, "step_time_s");
}

/*
 * --dispatch-us alone on a CNN is the data-parallel step's host time per
 * kernel (sim_options.dispatch_s), not a strategy: the step takes its
 * other options (--fuse-elementwise) and grows with a host slower than
 * the device (the rule itself is worked by hand in test_sim.c).  0 is
 * the default's meaning and changes nothing, on a transformer too (it
 * asks for no strategy).
 */
START_TEST(cli_predict_dispatch_on_a_cnn)
{
	double base = predicted_step("resnet18 --hw v100 --batch 4");

	ck_assert(predicted_step("resnet18 --hw v100 --batch 4 "
				 "--dispatch-us 0") == base);
	ck_assert(predicted_step("resnet18 --hw v100 --batch 4 "
				 "--dispatch-us 300 --fuse-elementwise") >
		  base);
	/* on a transformer too, 0 keeps the data-parallel step as it was */
	ck_assert(predicted_step(TINY_GPT " --hw a100x8 --dispatch-us 0") ==
		  predicted_step(TINY_GPT " --hw a100x8"));
}
END_TEST

/*
 * --optimizer-foreach reaches both steps and plan (and is refused with
 * --optimizer lamb): torch.optim's foreach
 * kernels move more bytes than one fused kernel (sim_optimizer.c), so
 * each step is longer with it, on ResNet-18 data-parallel and on a GPT
 * with --tp 2; plan takes it too.
 */
START_TEST(cli_optimizer_foreach_reaches_every_step)
{
	struct run r;

	ck_assert(predicted_step("resnet18 --hw v100 --batch 4 "
				 "--optimizer-foreach") >
		  predicted_step("resnet18 --hw v100 --batch 4"));
	ck_assert(predicted_step(TINY_GPT " --hw a100x8 --tp 2 "
				 "--optimizer-foreach") >
		  predicted_step(TINY_GPT " --hw a100x8 --tp 2"));
	ck_assert(planned_step(TINY_GPT " --hw a100x8 --global-batch 8 "
			       "--optimizer-foreach") >
		  planned_step(TINY_GPT " --hw a100x8 --global-batch 8"));
	/* LAMB: apex's five passes cost more than Adam's one; torch.optim
	 * has none to run as foreach kernels */
	ck_assert(predicted_step("resnet18 --hw v100 --batch 4 --optimizer "
				 "lamb") >
		  predicted_step("resnet18 --hw v100 --batch 4 --optimizer "
				 "adam"));
	run(&r, "predict resnet18 --hw v100 --optimizer lamb "
	    "--optimizer-foreach");
	assert_one_error(&r, 2, "dlsim: predict: torch.optim has no LAMB, so "
			 "no foreach kernels of it: drop --optimizer-foreach, "
			 "or take sgd, momentum or adam");
}
END_TEST

/*
 * --autocast reaches the data-parallel step, a strategy and plan (the
 * casts cost time: test_sim_autocast.c counts them), and is refused
 * with one line at fp32.
 */
START_TEST(cli_autocast_reaches_every_step)
{
	struct run r;

	ck_assert(predicted_step("resnet18 --hw v100 --batch 4 --precision "
				 "fp16 --autocast") >
		  predicted_step("resnet18 --hw v100 --batch 4 --precision "
				 "fp16"));
	ck_assert(predicted_step(TINY_GPT " --hw a100x8 --tp 2 --precision "
				 "bf16 --autocast") >
		  predicted_step(TINY_GPT " --hw a100x8 --tp 2 --precision "
				 "bf16"));
	ck_assert(planned_step(TINY_GPT " --hw a100x8 --global-batch 8 "
			       "--precision bf16 --autocast") >
		  planned_step(TINY_GPT " --hw a100x8 --global-batch 8 "
			       "--precision bf16"));
	run(&r, "predict resnet18 --hw v100 --precision fp32 --autocast");
	assert_one_error(&r, 2, "dlsim: predict: autocast runs fp16 or bf16, "
			 "not fp32 (the precision asked for, or auto's pick "
			 "for the device): ask for fp16 or bf16");
}
END_TEST

Suite *suite_cli_strategy(void)
{
	Suite *s = suite_create("cli_strategy");
	TCase *c = tcase_create("cli_strategy");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, cli_predict_strategy_and_plan);
	tcase_add_test(c, cli_strategy_rejects_bad_input);
	tcase_add_test(c, cli_predict_dispatch_on_a_cnn);
	tcase_add_test(c, cli_optimizer_foreach_reaches_every_step);
	tcase_add_test(c, cli_autocast_reaches_every_step);
	tcase_add_test(c, cli_predict_fuses_resnet50);
	tcase_add_test(c, cli_predict_fuses_batchnorm_into_convolutions);
	tcase_add_test(c, cli_dlrm_tables_go_to_host_memory);
	suite_add_tcase(s, c);
	return s;
}
