/*
 * test_cli.c -- the real dlsim binary ($DLSIM_BIN) end to end, its
 * contract: the version, help and the man page; predict's data-parallel
 * step in each format (table, CSV, JSON, --layers), models and hw; and
 * every class of bad input (one line on stderr naming what and where,
 * nothing on stdout, the right exit), file errors and write errors.
 * Strategies, plan and the options that change the modelled step are in
 * test_cli_strategy.c; the sweeping commands (comm, scale) in
 * test_cli_sweep.c.
 */
#include <errno.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
#include "dlsim.h"

/* ---------------------------------------------------------------- */
/* Success                                                           */
/* ---------------------------------------------------------------- */

/*
 * The version is DLSIM_VERSION, then, built in a git checkout, "+" and
 * the commit's abbreviated hash (7 lower-case hex digits, more where 7
 * are ambiguous, at most 12 here), then ".dirty" if the tree had
 * changes.  in_checkout: the commit must be there.
 */
static int version_well_formed(const char *v, int in_checkout)
{
	size_t n = strlen(DLSIM_VERSION), i;

	if (strncmp(v, DLSIM_VERSION, n) != 0)
		return 0;
	v += n;
	if (!*v)
		return !in_checkout;
	if (*v++ != '+')
		return 0;
	for (i = 0; isxdigit((unsigned char)v[i]) &&
		    !isupper((unsigned char)v[i]); i++)
		;
	return i >= 7 && i <= 12 && (!v[i] || strcmp(v + i, ".dirty") == 0);
}

START_TEST(cli_version_and_help)
{
	char want[64];
	struct run r;

	/* the tests run at the top of the tree; a .git there is a checkout
	 * (tools/build_id.sh warns if git cannot read it) */
	ck_assert_msg(version_well_formed(dlsim_version(),
					  access(".git", F_OK) == 0),
		      "'%s'", dlsim_version());
	ck_assert(version_well_formed(DLSIM_VERSION, 0));
	ck_assert(!version_well_formed(DLSIM_VERSION, 1));
	ck_assert(!version_well_formed(DLSIM_VERSION "+12345", 1));
	ck_assert(!version_well_formed(DLSIM_VERSION "+1234567-dirty", 1));
	ck_assert(!version_well_formed(DLSIM_VERSION "+1234ABC", 1));
	ck_assert(!version_well_formed(DLSIM_VERSION "+1234567890abc", 1));
	ck_assert(version_well_formed(DLSIM_VERSION "+1234abc.dirty", 1));
	ck_assert(version_well_formed(DLSIM_VERSION "+1234abcd", 1));
	ck_assert(strlen(dlsim_version()) < DLSIM_VERSION_LEN);
	run(&r, "--version");
	ck_assert_int_eq(r.status, 0);
	snprintf(want, sizeof(want), "dlsim %s\n", dlsim_version());
	ck_assert_str_eq(r.out, want);
	run(&r, "--help");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "predict") && strstr(r.out, "models") &&
		  strstr(r.out, "hw"));
	run(&r, "predict --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "--global-batch") != NULL);
	ck_assert(r.err[0] == '\0');
	run(&r, "models --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strncmp(r.out, "Usage: dlsim models ", 20) == 0, "%s",
		      r.out);
	run(&r, "hw --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strncmp(r.out, "Usage: dlsim hw ", 16) == 0, "%s",
		      r.out);
	/* "dlsim help CMD" is CMD's --help, as git's */
	run(&r, "help predict");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "Usage: dlsim predict MODEL") == r.out);
	run(&r, "help nosuch");
	assert_one_error(&r, 2, "dlsim: help: unknown command 'nosuch'");
	run(&r, "help predict extra");
	assert_one_error(&r, 2, "dlsim: help takes one COMMAND at most (got "
			 "'extra')");
	/* --version and --help take nothing after them */
	run(&r, "--version extra");
	assert_one_error(&r, 2, "dlsim: --version takes no argument (got "
			 "'extra')");
	ck_assert_str_eq(r.out, "");
	/* no command: the usage on stderr, as a misuse */
	run(&r, "");
	ck_assert_int_eq(r.status, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_msg(strncmp(r.err, "Usage: dlsim COMMAND [ARGS]\n", 28) ==
		      0, "%s", r.err);
}
END_TEST

START_TEST(cli_predict_json_has_the_contract_keys)
{
	static const char *const keys[] = {
		"model", "hardware", "devices", "precision",
		"batch_per_device", "global_batch", "step_time_s",
		"throughput", "throughput_per_device", "scaling_efficiency",
		"memory_per_device_bytes", "memory_capacity_bytes", "fits",
		"breakdown_s", "forward", "backward", "optimizer", "comm",
		"comm_exposed", NULL
	};
	struct run r;
	double step, tput, b, fwd, bwd, opt, exposed;
	const char *bd;
	int i;

	run(&r, "predict resnet50 --hw v100x16 --batch 64 --precision fp16 "
	    "--format json");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert_msg(json_valid(r.out), "invalid JSON: %s", r.out);
	for (i = 0; keys[i]; i++)
		ck_assert_msg(json_has(r.out, keys[i]), "no %s", keys[i]);
	ck_assert(strstr(r.out, "\"precision\": \"fp16\"") != NULL);
	ck_assert(json_number(r.out, "devices") == 16.0);
	ck_assert(json_number(r.out, "batch_per_device") == 64.0);
	ck_assert(json_number(r.out, "global_batch") == 1024.0);
	step = json_number(r.out, "step_time_s");
	tput = json_number(r.out, "throughput");
	ck_assert_rel(tput, 1024.0 / step, 1e-9);
	ck_assert_rel(json_number(r.out, "throughput_per_device"),
		      tput / 16.0, 1e-9);
	/* the step is compute plus what communication leaves exposed */
	bd = strstr(r.out, "\"breakdown_s\"");
	ck_assert(bd != NULL);
	fwd = json_number(bd, "forward");
	bwd = json_number(bd, "backward");
	opt = json_number(bd, "optimizer");
	exposed = json_number(bd, "comm_exposed");
	ck_assert_rel(fwd + bwd + opt + exposed, step, 1e-9);
	ck_assert(json_number(r.out, "memory_capacity_bytes") ==
		  16.0 * 1073741824.0);
	/* scaling efficiency is throughput over 16 x one device's at the
	 * same batch, 1024/t16 / (16 x 64/t1) = t1 / t16: below 1, as the
	 * allreduce is partly exposed */
	b = json_number(r.out, "scaling_efficiency");
	run(&r, "predict resnet50 --hw v100 --batch 64 --precision fp16 "
	    "--format json");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert_rel(b, json_number(r.out, "step_time_s") / step, 1e-9);
	ck_assert(b < 1.0);
}
END_TEST

START_TEST(cli_predict_layers_in_all_formats)
{
	struct run r;
	const char *p, *flops;
	int n;

	/* AlexNet has 22 layers after its input (models show alexnet);
	 * the first, conv2d1, does 140,747,200 FLOP a sample forward and
	 * as many for its weight gradient (no input gradient: it is the
	 * first): 2 x 140747200 x 128 = 3.60312832e10 FLOP at batch 128 */
	run(&r, "predict alexnet --hw v100 --layers --format json");
	ck_assert_int_eq(r.status, 0);
	ck_assert(json_valid(r.out));
	p = strstr(r.out, "\"layers\": [");
	ck_assert(p != NULL);
	for (n = 0, p = strstr(p, "{\"name\": "); p;
	     p = strstr(p + 1, "{\"name\": "))
		n++;
	ck_assert_int_eq(n, 22);
	run(&r, "predict alexnet --hw v100 --layers --format csv");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strncmp(r.out, "model,hardware,precision,batch_per_device,"
			  "layer,name,kind,", 58) == 0);
	for (n = 0, p = r.out; *p; p++)
		n += *p == '\n';
	ck_assert_int_eq(n, 1 + 22);
	p = strchr(r.out, '\n') + 1;
	ck_assert_msg(strncmp(p, "alexnet,v100,fp16,128,1,conv2d1,conv2d,",
			      39) == 0, "%s", p);
	flops = strstr(p, ",3.60312832e+10,");
	ck_assert(flops && flops < strchr(p, '\n'));
	ck_assert(strstr(r.out, "\nalexnet,v100,fp16,128,22,loss,"
			 "softmax_xent,") != NULL);
	run(&r, "predict alexnet --hw v100 --format csv");
	ck_assert_int_eq(r.status, 0);
	/* a header and exactly one row */
	ck_assert(strchr(strchr(r.out, '\n') + 1, '\n')[1] == '\0');
	run(&r, "predict alexnet --hw v100 --layers");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "step time") && strstr(r.out, "bound"));
	ck_assert(strstr(r.out, "\n1    conv2d1                  conv2d ") &&
		  strstr(r.out, "\n22   loss                     "
			 "softmax_xent "));
}
END_TEST

START_TEST(cli_predict_yaml_model_and_listing)
{
	struct run r;

	/* the file's name and batch (128 a device, 8 devices), not its
	 * path echoed */
	run(&r, "predict configs/models/cifar-resnet8.yaml --hw a100x8");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert_msg(strncmp(r.out, "model           cifar-resnet8 (", 31) ==
		      0, "%s", r.out);
	ck_assert(strstr(r.out, "\nbatch           128 per device, 1024 "
			 "global\n") != NULL);
	run(&r, "models");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "squeezenet1_0") != NULL);
	run(&r, "models show resnet50 --format json");
	ck_assert_int_eq(r.status, 0);
	ck_assert(json_valid(r.out));
	ck_assert(json_number(r.out, "params") == 25557032.0);
	run(&r, "hw");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "h100") && strstr(r.out, "dgx1"));
	run(&r, "hw show v100x64 --format json");
	ck_assert_int_eq(r.status, 0);
	ck_assert(json_valid(r.out));
	ck_assert(json_number(r.out, "devices") == 64.0);
	ck_assert(json_number(r.out, "nodes") == 8.0);
	/* the figures a prediction takes, with their sources: the V100's
	 * first precision is fp64, whose 1x1 figure is the GPU vector
	 * class's (0.407, tools/deepbench_efficiency.py) */
	ck_assert(json_has(r.out, "peaks") && json_has(r.out, "eff_source") &&
		  json_has(r.out, "eff_memory_source"));
	ck_assert(json_number(r.out, "eff_conv1x1") == 0.407);
	ck_assert(json_number(r.out, "matrix_flops") == 7.8e12);
	ck_assert(!json_has(r.out, "calibration_from"));
	/* a P100 PCIe takes the SXM2's fits, its time per FLOP scaled by
	 * the two datasheet peaks (FP64 first: 5.3 / 4.7 TFLOPS), its time
	 * per byte by the bandwidths (732 / 732 GB/s) */
	run(&r, "hw show p100-pcie --format json");
	ck_assert_int_eq(r.status, 0);
	ck_assert(json_valid(r.out) && json_has(r.out, "calibration_from"));
	ck_assert_rel(json_number(r.out, "flop_scale\": {\"fp64"), 5.3 / 4.7,
		      1e-5);
	ck_assert(json_number(r.out, "byte_scale") == 1.0);
	run(&r, "hw show p100-pcie");
	ck_assert(strstr(r.out, "calibration  p100's fits when it has none: "
			 "time per FLOP x 1.140 (FP32), per byte x 1.000") !=
		  NULL);
	/* the DGX-1's host: two GPUs to a PCIe switch's uplink, two Xeon
	 * E5-2698 v4 of 4 x DDR4-2133 x 8 B = 68.3 GB/s; the H100 node
	 * states its link alone */
	run(&r, "hw show dgx1-p100");
	ck_assert(strstr(r.out, "host link    pcie3, 15.8 GB/s/dir, shared "
			 "by 2 devices\nhost CPU     2 x xeon-e5-2698v4, 68.3 "
			 "GB/s each (x 0.81 attainable), 512 GiB in all\n") !=
		  NULL);
	run(&r, "hw show dgx1-p100 --format json");
	ck_assert(json_valid(r.out));
	ck_assert(strstr(r.out, "\"host_cpu\": \"xeon-e5-2698v4\"") != NULL);
	ck_assert(json_number(r.out, "host_cpus") == 2.0);
	ck_assert(json_number(r.out, "devices_per_host_link") == 2.0);
	/* a pcie-tree node's host link is its switches' uplinks */
	run(&r, "hw show ec2-p2-8xlarge");
	ck_assert(strstr(r.out, "host link    pcie3, 15.8 GB/s/dir, shared "
			 "by 2 devices\n") != NULL);
	run(&r, "hw show dgx-h100");
	ck_assert(strstr(r.out, "host link    pcie5, 63.0 GB/s/dir, one a "
			 "device\n") != NULL);
	ck_assert(strstr(r.out, "host CPU") == NULL);
}
END_TEST

/* More devices never make a step faster at fixed per-device batch, and
 * the allreduce shows up only with more than one device. */
START_TEST(cli_predict_scaling_is_monotone)
{
	static const char *const hw[] = { "v100", "v100x8", "v100x64",
					  "v100x512" };
	double last = 0.0;
	struct run r;
	char args[128];
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(args, sizeof(args), "predict resnet50 --hw %s "
			 "--batch 64 --format json", hw[i]);
		run(&r, args);
		ck_assert_int_eq(r.status, 0);
		ck_assert(json_number(r.out, "step_time_s") >= last);
		last = json_number(r.out, "step_time_s");
		if (i == 0)
			ck_assert(json_number(r.out, "comm") == 0.0);
		else
			ck_assert(json_number(r.out, "comm") > 0.0);
	}
}
END_TEST

/* ---------------------------------------------------------------- */
/* Bad input: one line on stderr, nothing on stdout, the right exit  */
/* ---------------------------------------------------------------- */

START_TEST(cli_rejects_bad_arguments)
{
	struct run r;

	run(&r, "predict nosuchnet --hw v100");
	assert_one_error(&r, 2, "unknown model 'nosuchnet'");
	run(&r, "predict resnet50 --hw nosuchgpu");
	assert_one_error(&r, 2, "unknown device or node 'nosuchgpu' in --hw "
			 "'nosuchgpu'");
	run(&r, "predict resnet50 --hw v100x0");
	assert_one_error(&r, 2, "the count after 'x' in --hw must be a "
			 "positive integer (got '0')");
	run(&r, "predict resnet50 --hw x64");
	assert_one_error(&r, 2, "no device or node name");
	run(&r, "predict resnet50 --hw v100x-3");
	assert_one_error(&r, 2, "the count after 'x' in --hw must be a "
			 "positive integer (got '-3')");
	/* a DGX-1 holds 8 V100s: 12 is one and a half nodes */
	run(&r, "predict resnet50 --hw v100x12");
	assert_one_error(&r, 2, "v100x12: 12 devices do not fill whole "
			 "'dgx1' nodes of 8; use at most 8 or a multiple of it "
			 "(8 or 16)");
	run(&r, "predict resnet50 --hw v100 --batch 0");
	assert_one_error(&r, 2, "--batch must be a positive integer (got "
			 "'0')");
	run(&r, "predict resnet50 --hw v100 --batch -3");
	assert_one_error(&r, 2, "--batch must be a positive integer (got "
			 "'-3')");
	run(&r, "predict resnet50 --hw v100 --batch 12abc");
	assert_one_error(&r, 2, "--batch must be a positive integer (got "
			 "'12abc')");
	run(&r, "predict resnet50 --hw v100 --batch 99999999999");
	assert_one_error(&r, 2, "batch per device must be in 1..1000000 (got "
			 "99999999999)");
	run(&r, "predict resnet50 --hw v100 --precision fp7");
	assert_one_error(&r, 2, "unknown precision 'fp7'");
	run(&r, "predict resnet50 --hw v100 --precision bf16");
	assert_one_error(&r, 2, "device 'v100' has no bf16 peak in the "
			 "catalog");
	run(&r, "predict resnet50 --hw v100 --format xml");
	assert_one_error(&r, 2, "unknown format 'xml'");
	run(&r, "predict resnet50 --hw v100 --frobnicate");
	assert_one_error(&r, 2, "unknown option '--frobnicate'");
	run(&r, "predict resnet50");
	assert_one_error(&r, 2, "--hw is required");
	run(&r, "predict resnet50 --hw v100x8 --global-batch 12");
	assert_one_error(&r, 2, "global batch 12 does not divide over 8 "
			 "devices");
	run(&r, "predict resnet50 --hw v100 --batch 8 --global-batch 8");
	assert_one_error(&r, 2, "--batch and --global-batch exclude each "
			 "other");
	run(&r, "frobnicate");
	assert_one_error(&r, 2, "dlsim: unknown command 'frobnicate'; try "
			 "'dlsim --help'");
	/* a command name with a newline is quoted on one line */
	run(&r, "\"$(printf 'fro\\nb')\"");
	assert_one_error(&r, 2, "unknown command 'fro\\nb'");
	run(&r, "predict resnet18 --hw nonexist");
	assert_one_error(&r, 2, "unknown device or node 'nonexist'");
	run(&r, "predict resnet18 --hw mi300x2");
	assert_one_error(&r, 2, "'mi300x' is one: a count of it is "
			 "'mi300xx2'");
	run(&r, "calibrate import nccl-tests tests/data/calibrate/"
	    "nccl_all_reduce.txt --hw v100x8 --db /nonexistent/x.db");
	assert_one_error(&r, 2, "--hw 'v100x8' is a system: fits are stored "
			 "under and looked up by names, here 'v100' (its "
			 "device: kernel fits) or 'dgx1' (its node: collective "
			 "fits)");
	run(&r, "scale resnet50 --hw v100x8 --devices 1,2");
	assert_one_error(&r, 2, "'v100x8' has a count: give its name and the "
			 "counts in --devices");
	/* bytes that are not UTF-8 are escaped, a name in UTF-8 is not */
	run(&r, "predict \"$(printf 'r\\351s')\" --hw v100");
	assert_one_error(&r, 2, "unknown model 'r\\xe9s'");
	run(&r, "predict \"$(printf 'r\\303\\251s')\" --hw v100");
	assert_one_error(&r, 2, "unknown model 'r\xc3\xa9s'");
	run(&r, "db info --db ''");
	assert_one_error(&r, 2, "--db needs a value, not an empty string");
	run(&r, "predict resnet18 --hw a100 --price-per-device-hour 0");
	assert_one_error(&r, 2, "dlsim: predict: --price-per-device-hour "
			 "must be positive (got '0'); try 'dlsim predict "
			 "--help'");
}
END_TEST

START_TEST(cli_reports_file_errors_with_place)
{
	struct run r;

	run(&r, "predict tests/data/no-such-file.yaml --hw v100");
	assert_one_error(&r, 1, "tests/data/no-such-file.yaml");
	run(&r, "predict resnet50 --hw tests/data/no-such-hw.yaml");
	assert_one_error(&r, 1, "tests/data/no-such-hw.yaml");
	/* what is wrong inside a --hw file is a file error (1), with its
	 * line, not a usage error (2) */
	run(&r, "predict resnet50 --hw tests/data/hw/sys_unknown_device.yaml");
	assert_one_error(&r, 1, "sys_unknown_device.yaml:10: unknown device");
	run(&r, "predict resnet50 --hw tests/data/hw/no_system.yaml");
	assert_one_error(&r, 1, "no_system.yaml:1: no 'system:' entry");
	/* a message quoting a value that spans lines stays one line: its
	 * newline is written as \n */
	run(&r, "predict tests/data/models/multiline_type.yaml --hw v100");
	assert_one_error(&r, 1, "multiline_type.yaml:8: invalid ENUM value: "
			 "softmax_xent\\ngroups");
	/* nesting past CORE_YAML_MAX_DEPTH is refused before libyaml's
	 * quadratic scan, on the line where it passes the limit */
	run(&r, "predict resnet50 --hw tests/data/hw/too_deep.yaml");
	assert_one_error(&r, 1, "too_deep.yaml:4: nested deeper than 32 "
			 "levels");
	run(&r, "predict tests/data/models/too_deep.yaml --hw v100");
	assert_one_error(&r, 1, "too_deep.yaml:7: nested deeper than 32 "
			 "levels");
}
END_TEST

/* A write error on stdout is an error, not a silent success. */
START_TEST(cli_write_error_fails)
{
	struct run r;

	/* as test_report's: a Linux without /dev/full fails, not skips */
	ck_assert_msg(access("/dev/full", W_OK) == 0, "/dev/full: %s",
		      strerror(errno));
	run_to(&r, "models", "/dev/full");
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.err, "dlsim: models: write error on standard "
			 "output\n");
	run_to(&r, "calibrate show --help", "/dev/full");
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.err, "dlsim: calibrate show: write error on "
			 "standard output\n");
	run_to(&r, "--version", "/dev/full");
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.err, "dlsim: write error on standard output\n");
}
END_TEST

/* Every option --help lists is in the man page (curl's test1139). */
START_TEST(cli_help_and_man_page_agree)
{
	static const char *const cmds[] = { "predict", "models", "hw", "comm",
					    "scale", "db", "calibrate", "plan",
					    "validate", NULL };
	char man[65536], want[64];
	struct run r;
	int i;

	slurp("man/dlsim.1", man, sizeof(man));
	ck_assert(man[0] != '\0');
	for (i = 0; cmds[i]; i++) {
		const char *p;
		char args[64];
		int listed = 0;

		snprintf(args, sizeof(args), "%s --help", cmds[i]);
		run(&r, args);
		ck_assert_int_eq(r.status, 0);
		for (p = strstr(r.out, "\n  --"); p; p = strstr(p + 1,
							       "\n  --"),
		     listed++) {
			size_t n = strcspn(p + 5, " \n");
			char name[40];
			size_t k, j = 0;

			ck_assert(n < sizeof(name));
			memcpy(name, p + 5, n);
			name[n] = '\0';
			/* man source writes each '-' as '\-' */
			j = (size_t)snprintf(want, sizeof(want), "\\-\\-");
			for (k = 0; k < n && j + 3 < sizeof(want); k++) {
				if (name[k] == '-')
					want[j++] = '\\';
				want[j++] = name[k];
			}
			want[j] = '\0';
			ck_assert_msg(strstr(man, want) != NULL,
				      "%s --%s is not in man/dlsim.1", cmds[i],
				      name);
		}
		/* every command lists --help at least: none read means the
		 * layout changed, and nothing was compared */
		ck_assert_msg(listed >= 1, "%s --help: %d options read",
			      cmds[i], listed);
	}
}
END_TEST

/* ...and every option the man page names is one some command takes. */
START_TEST(cli_man_page_options_exist)
{
	static const char *const cmds[] = { "predict --help", "models --help",
					    "hw --help", "comm --help",
					    "scale --help", "db --help",
					    "calibrate --help", "plan --help",
					    "validate --help", "--help", NULL };
	char man[65536], helps[32768] = "";
	const char *p;
	struct run r;
	int i, named = 0;

	slurp("man/dlsim.1", man, sizeof(man));
	ck_assert(man[0] != '\0');
	for (i = 0; cmds[i]; i++) {
		size_t used = strlen(helps), n;

		run(&r, cmds[i]);
		n = strlen(r.out);
		ck_assert(used + n < sizeof(helps));
		memcpy(helps + used, r.out, n + 1);
	}
	for (p = strstr(man, "\\-\\-"); p; p = strstr(p + 1, "\\-\\-")) {
		char name[48] = "--";
		size_t j = 2;
		const char *q = p + 4;

		/* read [a-z] and escaped '\-' until anything else */
		while (j + 1 < sizeof(name)) {
			if (*q >= 'a' && *q <= 'z')
				name[j++] = *q++;
			else if (q[0] == '\\' && q[1] == '-' && q[2] >= 'a' &&
				 q[2] <= 'z')
				name[j++] = '-', q += 2;
			else
				break;
		}
		name[j] = '\0';
		ck_assert_msg(strstr(helps, name) != NULL,
			      "man/dlsim.1 names %s, which no --help lists",
			      name);
		named++;
	}
	/* the page names dozens; none read means nothing was compared */
	ck_assert_msg(named >= 20, "man/dlsim.1: %d options read", named);
}
END_TEST

Suite *suite_cli(void)
{
	Suite *s = suite_create("cli");
	TCase *c = tcase_create("cli");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, cli_version_and_help);
	tcase_add_test(c, cli_predict_json_has_the_contract_keys);
	tcase_add_test(c, cli_predict_layers_in_all_formats);
	tcase_add_test(c, cli_predict_yaml_model_and_listing);
	tcase_add_test(c, cli_predict_scaling_is_monotone);
	tcase_add_test(c, cli_rejects_bad_arguments);
	tcase_add_test(c, cli_reports_file_errors_with_place);
	tcase_add_test(c, cli_write_error_fails);
	tcase_add_test(c, cli_help_and_man_page_agree);
	tcase_add_test(c, cli_man_page_options_exist);
	suite_add_tcase(s, c);
	return s;
}
