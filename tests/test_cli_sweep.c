/*
 * test_cli_sweep.c -- the sweeping commands end to end: `dlsim comm`
 * (collectives over message sizes) and `dlsim scale` (device counts),
 * and predict's timeline (--trace) and training estimate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
#include "dlsim.h"

/* ---------------------------------------------------------------- */
/* dlsim comm                                                        */
/* ---------------------------------------------------------------- */

/* How many times needle occurs in s. */
static int count_of(const char *s, const char *needle)
{
	int n = 0;

	for (s = strstr(s, needle); s; s = strstr(s + 1, needle))
		n++;
	return n;
}

/* Lines of text (each ends in '\n'). */
static int lines_of(const char *s)
{
	return count_of(s, "\n");
}

/* The JSON has the contract keys, one row per size of 1K:1M (2^10 to
 * 2^20 doubling: 11 sizes, as nccl-tests -b 1K -e 1M -f 2), ascending. */
START_TEST(cli_comm_json_has_the_contract_keys_and_rows)
{
	static const char *const keys[] = {
		"collective", "hardware", "ranks", "rows", "size_bytes",
		"time_s", "algbw_GBps", "busbw_GBps", "algorithm",
		"hierarchical", NULL
	};
	const char *row;
	double last = 0.0;
	struct run r;
	int i;

	run(&r, "comm allreduce --hw a100x8 --sizes 1K:1M --format json");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert_msg(r.err[0] == '\0', "stderr: %s", r.err);
	ck_assert_msg(json_valid(r.out), "invalid JSON: %s", r.out);
	for (i = 0; keys[i]; i++)
		ck_assert_msg(json_has(r.out, keys[i]), "no %s", keys[i]);
	ck_assert(strstr(r.out, "\"collective\": \"allreduce\"") != NULL);
	ck_assert(strstr(r.out, "\"hardware\": \"a100x8\"") != NULL);
	ck_assert(json_number(r.out, "ranks") == 8.0);
	ck_assert_int_eq(count_of(r.out, "\"size_bytes\": "), 11);
	for (row = strstr(r.out, "{\"size_bytes\""), i = 0; row;
	     row = strstr(row + 1, "{\"size_bytes\""), i++) {
		double size = json_number(row, "size_bytes");

		ck_assert(size == ldexp(1.0, 10 + i));
		ck_assert(size > last);
		ck_assert(json_number(row, "time_s") > 0.0);
		last = size;
	}
	/* a single size is one row; a factor of 4 skips every other */
	run(&r, "comm allreduce --hw a100x8 --sizes 64M --format json");
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(count_of(r.out, "\"size_bytes\": "), 1);
	ck_assert(json_number(r.out, "size_bytes") == 67108864.0);
	run(&r, "comm allreduce --hw a100x8 --sizes 8:1G:4 --format json");
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(count_of(r.out, "\"size_bytes\": "), 14);
}
END_TEST

/* nccl-tests doc/PERFORMANCE.md: algbw = S / t and, for allreduce,
 * busbw = algbw x 2(n-1)/n; checked on the printed numbers for one node
 * (n = 8: 1.75) and two (n = 16: 1.875). */
START_TEST(cli_comm_busbw_is_algbw_times_allreduce_factor)
{
	static const char *const hw[] = { "a100x8", "v100x16" };
	static const double n[] = { 8.0, 16.0 };
	char args[128];
	struct run r;
	int k;

	for (k = 0; k < 2; k++) {
		const char *row;
		int rows = 0;

		snprintf(args, sizeof(args), "comm allreduce --hw %s "
			 "--sizes 8:1G:8 --format json", hw[k]);
		run(&r, args);
		ck_assert_msg(r.status == 0, "stderr: %s", r.err);
		ck_assert(json_number(r.out, "ranks") == n[k]);
		for (row = strstr(r.out, "{\"size_bytes\""); row;
		     row = strstr(row + 1, "{\"size_bytes\""), rows++) {
			double size = json_number(row, "size_bytes");
			double t = json_number(row, "time_s");
			double alg = json_number(row, "algbw_GBps");

			ck_assert_rel(alg, size / t / 1e9, 1e-9);
			ck_assert_rel(json_number(row, "busbw_GBps"),
				      alg * 2.0 * (n[k] - 1.0) / n[k], 1e-9);
		}
		ck_assert_int_eq(rows, 10);
	}
}
END_TEST

/* The table names collective, system and ranks and has one line per
 * size; CSV has its header and one row per size; the default sweep is
 * nccl-tests' 8 B to 1 GiB doubling, 28 sizes. */
START_TEST(cli_comm_table_and_csv)
{
	static const char head[] = "collective,hardware,ranks,size_bytes,"
		"count,time_us,algbw_GBps,busbw_GBps,algorithm,hierarchical\n";
	const char *p;
	struct run r;

	run(&r, "comm allreduce --hw a100x8 --sizes 1K:1M");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert(strstr(r.out, "allreduce") && strstr(r.out, "a100x8"));
	ck_assert(strstr(r.out, "ranks           8\n") != NULL);
	ck_assert(strstr(r.out, "busbw") && strstr(r.out, "(GB/s)") &&
		  strstr(r.out, "(us)") && strstr(r.out, "(B)"));
	p = strstr(r.out, "(elements)");
	ck_assert(p != NULL);
	/* after the units line: 11 rows, the first 1024 bytes = 256
	 * floats, the last 1 MiB */
	p = strchr(p, '\n') + 1;
	ck_assert_int_eq(lines_of(p), 11);
	ck_assert(strncmp(p, "        1024         256 ", 25) == 0);
	ck_assert(strstr(p, "     1048576      262144 ") != NULL);

	run(&r, "comm allreduce --hw a100x8 --sizes 1K:1M --format csv");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert(strncmp(r.out, head, strlen(head)) == 0);
	ck_assert_int_eq(lines_of(r.out), 12);
	ck_assert_int_eq(count_of(r.out, "\nallreduce,a100x8,8,"), 11);
	ck_assert(strstr(r.out, "\nallreduce,a100x8,8,1024,256,") != NULL);

	run(&r, "comm allreduce --hw a100x8 --format csv");
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(lines_of(r.out), 29);
	ck_assert(strstr(r.out, "\nallreduce,a100x8,8,8,2,") != NULL);
	ck_assert(strstr(r.out, ",1073741824,268435456,") != NULL);
}
END_TEST

/* Every bad input: one line on stderr, nothing on stdout, exit 2. */
START_TEST(cli_comm_rejects_bad_input)
{
	static const struct {
		const char *args, *needle;
	} bad[] = {
		{ "comm allreduce --hw a100x8 --sizes 12x", "bad size '12x'" },
		{ "comm allreduce --hw a100x8 --sizes 8KB", "bad size '8KB'" },
		{ "comm allreduce --hw a100x8 --sizes -8", "bad size '-8'" },
		{ "comm allreduce --hw a100x8 --sizes 0", "bad size '0'" },
		{ "comm allreduce --hw a100x8 --sizes 2000T",
		  "bad size '2000T' (above the limit, 1024T)" },
		{ "comm allreduce --hw a100x8 --sizes 1G:8",
		  "FROM '1G' is larger than TO '8'" },
		{ "comm allreduce --hw a100x8 --sizes 8:1G:1",
		  "factor must be greater than 1" },
		{ "comm allreduce --hw a100x8 --sizes 8:1G:0.5",
		  "factor must be greater than 1" },
		{ "comm allreduce --hw a100x8 --sizes 8:1G:two",
		  "the factor must be a finite number (got 'two')" },
		/* 8 B to 2^30 B by 1.001: floor(ln 2^27 / ln 1.001) + 1 =
		 * floor(18.71497 / 0.00099950) + 1 = 18724 + 1 sizes */
		{ "comm allreduce --hw a100x8 --sizes 8:1G:1.001",
		  "--sizes: '8:1G:1.001' gives 18725 sizes, more than 4096" },
		{ "comm allreduce --hw a100x8 --sizes 1:8:2:3",
		  "--sizes: expected FROM:TO[:FACTOR] or SIZE (got "
		  "'1:8:2:3')" },
		{ "comm allreduce --hw a100x8 --sizes 8:",
		  "--sizes: expected FROM:TO[:FACTOR] or SIZE (got '8:')" },
		{ "comm frobnicate --hw a100x8",
		  "unknown collective 'frobnicate'" },
		{ "comm allreduce --hw a100x8 --algo nope",
		  "unknown collective algorithm 'nope' (expected auto, ring, "
		  "tree, halving-doubling, parameter-server, "
		  "double-binary-tree, recursive-doubling, butterfly)" },
		/* a tree implements reduce and broadcast, not all-to-all */
		{ "comm all-to-all --hw a100x8 --algo tree",
		  "tree does not implement all-to-all" },
		{ "comm allreduce --hw a100x8 --format xml",
		  "unknown format 'xml'" },
		{ "comm allreduce --hw a100x8 --plot bw.pdf",
		  "plot file 'bw.pdf' must end in .png or .svg" },
		{ "comm allreduce --hw nosuchgpu",
		  "unknown device or node 'nosuchgpu' in --hw 'nosuchgpu'" },
		{ "comm allreduce", "--hw is required" },
		{ "comm --hw a100x8",
		  "missing argument (usage: COLLECTIVE --hw HW [OPTIONS])" },
		{ "comm allreduce --hw a100x8 --frobnicate",
		  "unknown option '--frobnicate'" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run(&r, bad[i].args);
		assert_one_error(&r, 2, bad[i].needle);
	}
}
END_TEST

/* As run(), with "env VAR=VALUE" (trusted test text) before the binary. */
static void run_env(struct run *r, const char *env, const char *args)
{
	const char *bin = getenv("DLSIM_BIN");
	char dir[] = "/tmp/dlsim-cli-XXXXXX", cmd[2048], o[64], e[64];
	int st;

	ck_assert(bin != NULL);
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(o, sizeof(o), "%s/out", dir);
	snprintf(e, sizeof(e), "%s/err", dir);
	snprintf(cmd, sizeof(cmd), "env %s %s %s >%s 2>%s </dev/null", env,
		 bin, args, o, e);
	st = system(cmd);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	slurp(o, r->out, sizeof(r->out));
	slurp(e, r->err, sizeof(r->err));
	unlink(o);
	unlink(e);
	rmdir(dir);
}

/* --plot writes IMAGE's .dat and .gp beside it (and the image where
 * gnuplot is installed); without gnuplot a one-line warning, exit 0. */
START_TEST(cli_comm_plot_writes_data_and_script)
{
	char dir[] = "/tmp/dlsim-plot-XXXXXX", args[256], path[128];
	char text[8192];
	struct run r;
	int have_gnuplot = system("command -v gnuplot >/dev/null 2>&1") == 0;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(args, sizeof(args), "comm allreduce --hw v100x16 --sizes "
		 "1K:1M --plot %s/bw.png", dir);
	run(&r, args);
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert(strstr(r.out, "busbw") != NULL);
	snprintf(path, sizeof(path), "%s/bw.dat", dir);
	slurp(path, text, sizeof(text));
	/* two comment lines, then one line per size */
	ck_assert_int_eq(lines_of(text), 2 + 11);
	ck_assert(strncmp(text, "# ", 2) == 0);
	snprintf(path, sizeof(path), "%s/bw.gp", dir);
	slurp(path, text, sizeof(text));
	ck_assert(strstr(text, "set logscale xy") != NULL);
	ck_assert(strstr(text, "bw.dat") && strstr(text, "bw.png"));
	ck_assert(strstr(text, "set xlabel \"message size (bytes") != NULL);
	ck_assert(strstr(text, "set ylabel \"bus bandwidth (GB/s") != NULL);
	ck_assert(strstr(text, "allreduce bus bandwidth on v100x16 (16 "
			 "ranks)") != NULL);
	ck_assert(strstr(text, "title \"busbw predicted") != NULL);
	snprintf(path, sizeof(path), "%s/bw.png", dir);
	if (have_gnuplot) {
		slurp(path, text, sizeof(text));
		ck_assert_msg(memcmp(text, "\x89PNG", 4) == 0, "no PNG");
		ck_assert(r.err[0] == '\0');
	}
	unlink(path);

	/* no gnuplot on PATH: the data and script, a warning, exit 0 */
	snprintf(args, sizeof(args), "comm allreduce --hw a100x8 --sizes "
		 "1M --plot %s/nognu.svg", dir);
	run_env(&r, "PATH=/nonexistent", args);
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	snprintf(text, sizeof(text), "dlsim: comm: warning: gnuplot not found; "
		 "wrote %s/nognu.dat and %s/nognu.gp\n", dir, dir);
	ck_assert_str_eq(r.err, text);
	snprintf(path, sizeof(path), "%s/nognu.svg", dir);
	ck_assert(access(path, F_OK) != 0);
	snprintf(path, sizeof(path), "%s/nognu.dat", dir);
	ck_assert(access(path, F_OK) == 0);
	unlink(path);
	snprintf(path, sizeof(path), "%s/nognu.gp", dir);
	ck_assert(access(path, F_OK) == 0);
	unlink(path);
	snprintf(path, sizeof(path), "%s/bw.dat", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/bw.gp", dir);
	unlink(path);
	ck_assert_msg(rmdir(dir) == 0, "%s not empty", dir);
}
END_TEST

/* ---------------------------------------------------------------- */
/* scale                                                             */
/* ---------------------------------------------------------------- */

/* Weak scaling of resnet50 on v100: three points, speedup against the
 * first, efficiency = speedup / (devices / 1), global batch grows. */
START_TEST(cli_scale_json_points_and_derived_figures)
{
	struct run r;
	const char *p;
	double last = 0.0;
	int n = 0;

	run(&r, "scale resnet50 --hw v100 --devices 1,8,64 --batch 64 "
	    "--format json");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert(strstr(r.out, "\"mode\": \"weak\"") != NULL);
	for (p = strstr(r.out, "\"series\""); p;
	     p = strstr(p + 1, "\"series\"")) {
		double dev = json_number(p, "devices");
		double speedup = json_number(p, "speedup");
		double eff = json_number(p, "efficiency");

		ck_assert(json_number(p, "batch_per_device") == 64.0);
		ck_assert(json_number(p, "global_batch") == 64.0 * dev);
		ck_assert_rel(eff, speedup / dev, 1e-6);
		ck_assert(eff > 0.0 && eff <= 1.0 + 1e-12);
		ck_assert(json_number(p, "throughput") > last);
		last = json_number(p, "throughput");
		n++;
	}
	ck_assert_int_eq(n, 3);
}
END_TEST

/*
 * scale with --fuse-conv-bn and --update-on host: the table says so on
 * its options line, CSV's columns give ResNet-50's 65 fused edges and 32
 * BatchNorm + ReLU pairs, the update on the host and no bins, and JSON
 * the same at its top.
 */
START_TEST(cli_scale_says_its_options)
{
	struct run r;

	run(&r, "scale resnet50 --hw v100 --devices 1,8 --batch 64 "
	    "--uncalibrated --update-on host --fuse-conv-bn");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "options: 65 element-wise edges "
				     "kept on chip, 32 BatchNorm + ReLU pairs "
				     "inside the convolutions; the update "
				     "on the host CPUs"));
	run(&r, "scale resnet50 --hw v100 --devices 1,8 --batch 64 "
	    "--uncalibrated --update-on host --fuse-conv-bn --format csv");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, ",65,32,1,0,true,,\n"));
	run(&r, "scale resnet50 --hw v100 --devices 1,8 --batch 64 "
	    "--uncalibrated --update-on host --fuse-conv-bn --format json");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert(json_number(r.out, "conv_bn_pairs") == 32.0);
	ck_assert_ptr_nonnull(strstr(r.out, "\"update_on_host\": true"));
	run(&r, "scale resnet50 --hw v100 --devices 1 --uncalibrated");
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_ptr_null(strstr(r.out, "options:"));
}
END_TEST

/* Strong scaling divides one global batch; a count it does not divide
 * over, or one that does not fill whole nodes, is refused. */
START_TEST(cli_scale_strong_and_bad_input)
{
	struct run r;

	run(&r, "scale resnet50 --hw v100 --devices 1,2,4 --strong "
	    "--global-batch 256 --format csv");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert(strstr(r.out, ",strong,v100,v100x4,4,1,64,256,") != NULL);
	run(&r, "scale resnet50 --hw v100 --devices 1,3 --strong "
	    "--global-batch 256");
	assert_one_error(&r, 2, "global batch 256 does not divide over 3 "
			 "devices");
	/* 12 V100s are one and a half DGX-1s of 8 */
	run(&r, "scale resnet50 --hw v100 --devices 8,12");
	assert_one_error(&r, 2, "v100x12: 12 devices do not fill whole "
			 "'dgx1' nodes of 8; use at most 8 or a multiple of it "
			 "(8 or 16)");
	run(&r, "scale resnet50 --hw v100 --devices 4,2");
	assert_one_error(&r, 2, "--devices must increase (2 after 4)");
	run(&r, "scale resnet50 --hw v100 --devices 1,,2");
	assert_one_error(&r, 2, "--devices has an empty entry");
	run(&r, "scale resnet50 --hw v100 --strong");
	assert_one_error(&r, 2, "--strong needs --global-batch");
	run(&r, "scale resnet50 --hw v100 --weak --global-batch 64");
	assert_one_error(&r, 2, "--weak keeps the batch per device: use "
			 "--batch");
	run(&r, "scale resnet50 --hw v100 --strong --weak --global-batch 8");
	assert_one_error(&r, 2, "--strong and --weak exclude each other");
	run(&r, "scale resnet50 --devices 1,2");
	assert_one_error(&r, 2, "--hw is required");
	run(&r, "scale resnet50 --hw v100 --devices 1,2 --plot x.pdf");
	assert_one_error(&r, 2, "plot file 'x.pdf' must end in .png or .svg");
	run(&r, "scale resnet50 --hw v100,v100 --devices 1,2");
	assert_one_error(&r, 2, "--hw names 'v100' twice");
	run(&r, "scale resnet50 --hw my.yaml --devices 1,2");
	assert_one_error(&r, 2, "--hw takes device or node names, not files "
			 "('my.yaml')");
}
END_TEST

/* --dispatch-us is predict's host time per launch: a scale point takes
 * the step predict gives with it (a 300 us host is far slower than
 * ResNet-18's kernels at batch 4, so the step grows), and the same range
 * is refused, in a line that names scale. */
START_TEST(cli_scale_takes_the_dispatch_time)
{
	static const char *const opts = "resnet18 --hw v100 --batch 4 "
					"--uncalibrated --format json";
	char cmd[256];
	double base, slow, alone;
	struct run r;

	snprintf(cmd, sizeof(cmd), "scale %s --devices 1", opts);
	run(&r, cmd);
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	base = json_number(r.out, "step_time_s");
	snprintf(cmd, sizeof(cmd), "scale %s --devices 1 --dispatch-us 300",
		 opts);
	run(&r, cmd);
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	slow = json_number(r.out, "step_time_s");
	snprintf(cmd, sizeof(cmd), "predict %s --dispatch-us 300", opts);
	run(&r, cmd);
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	alone = json_number(r.out, "step_time_s");
	ck_assert(slow > base);
	ck_assert_rel(slow, alone, 1e-9);
	run(&r, "scale resnet18 --hw v100 --devices 1,2 --dispatch-us 1e6");
	assert_one_error(&r, 2, "scale: --dispatch-us must be at least 0 "
			 "and below 1e6");
}
END_TEST

/* The throughput and ideal columns of the row for `devices` in the
 * .dat block that follows `at`. */
static void dat_row(const char *at, int devices, double *tput,
		    double *ideal)
{
	char head[16];
	const char *row;

	snprintf(head, sizeof(head), "\n%d ", devices);
	row = strstr(at, head);
	ck_assert_msg(row != NULL, "no row for %d devices: %s", devices, at);
	ck_assert(sscanf(row + 1, "%*d %lf %lf", tput, ideal) == 2);
}

/*
 * --plot writes IMAGE.dat and IMAGE.gp beside the image (and the image
 * when gnuplot is installed): a block a system, a row a device count,
 * weak scaling's ideal 8 devices 8 times one's throughput; the script
 * reads that .dat and writes that image.
 */
START_TEST(cli_scale_plot_writes_data_and_script)
{
	char dir[] = "/tmp/dlsim-scale-XXXXXX", args[256], path[128];
	char text[8192];
	const char *v100, *a100;
	double one, ideal1, eight, ideal8;
	struct stat st;
	struct run r;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(args, sizeof(args), "scale resnet50 --hw v100,a100 "
		 "--devices 1,8 --plot %s/s.svg", dir);
	run(&r, args);
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	snprintf(path, sizeof(path), "%s/s.dat", dir);
	slurp(path, text, sizeof(text));
	v100 = strstr(text, "# v100\n");
	a100 = strstr(text, "# a100\n");
	ck_assert_msg(v100 == text && a100 != NULL, "%s", text);
	dat_row(v100, 1, &one, &ideal1);
	dat_row(v100, 8, &eight, &ideal8);
	ck_assert(ideal1 == one);
	ck_assert_rel(ideal8, 8.0 * one, 1e-5);       /* 6 digits printed */
	ck_assert(eight <= ideal8 && strstr(v100, "\n8 ") < a100);
	dat_row(a100, 1, &one, &ideal1);
	dat_row(a100, 8, &eight, &ideal8);
	ck_assert_rel(ideal8, 8.0 * one, 1e-5);
	unlink(path);
	snprintf(path, sizeof(path), "%s/s.gp", dir);
	slurp(path, text, sizeof(text));
	ck_assert(strstr(text, "set output \"s.svg\"\n") != NULL);
	ck_assert(strstr(text, "plot for [i=0:1] \"s.dat\" index i ") != NULL);
	ck_assert(strstr(text, "weak scaling of resnet50 on v100, a100") !=
		  NULL);
	unlink(path);
	snprintf(path, sizeof(path), "%s/s.svg", dir);
	if (system("command -v gnuplot >/dev/null 2>&1") == 0)
		ck_assert(stat(path, &st) == 0 && st.st_size > 0);
	unlink(path);
	ck_assert(rmdir(dir) == 0);
}
END_TEST

/* ---------------------------------------------------------------- */
/* predict --trace and the training estimate                         */
/* ---------------------------------------------------------------- */

START_TEST(cli_predict_trace_is_chrome_trace_json)
{
	char dir[] = "/tmp/dlsim-trace-XXXXXX", args[256], path[128];
	static char doc[1 << 20];
	struct run r;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/t.json", dir);
	snprintf(args, sizeof(args), "predict lenet5 --hw v100x2 --trace %s",
		 path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	slurp(path, doc, sizeof(doc));
	ck_assert(json_valid(doc));
	ck_assert(strstr(doc, "\"traceEvents\": [") != NULL);
	ck_assert(strstr(doc, "\"name\": \"compute\"") != NULL);
	ck_assert(strstr(doc, "\"name\": \"communication\"") != NULL);
	ck_assert(strstr(doc, "\"name\": \"allreduce bucket 0\"") != NULL);
	ck_assert(strstr(doc, "\"ph\": \"X\"") != NULL);
	unlink(path);
	rmdir(dir);
	run(&r, "predict lenet5 --hw v100 --trace /nonexistent-dir/t.json");
	assert_one_error(&r, 1, "/nonexistent-dir/t.json");
}
END_TEST

/*
 * --update-on host: LeNet-5's 61,706 parameters on two V100s of a DGX-1
 * (mixed precision by default there): the host holds the fp32 weights,
 * the gradients' sum, the momentum and the fp16 copy it sends, 14 B a
 * parameter (863,884 B);
 * each device moves its fp32 gradients out and the fp16 weights back,
 * 6 B a parameter (370,236 B), all of it exposed; the JSON names the
 * host where an allreduce would be, and the trace its trips.  What it
 * cannot run with is refused with exit 2.
 */
START_TEST(cli_predict_update_on_host)
{
	char dir[] = "/tmp/dlsim-host-XXXXXX", args[256], path[128];
	static char doc[1 << 20];
	static const struct {
		const char *args, *want;
	} bad[] = {
		{ "--hw v100x8 --update-on nowhere",
		  "--update-on takes device or host (got 'nowhere')" },
		{ "--hw h100x8 --update-on host",
		  "node 'dgx-h100' states no host CPU (host_cpu)" },
		{ "--hw v100x16 --update-on host",
		  "runs within one node: 16 devices span 2 nodes" },
		{ "--hw v100x8 --update-on host --allreduce ring",
		  "drop --allreduce" },
		{ "--hw v100x8 --update-on host --bucket-mb 50",
		  "--update-on host fills no gradient buckets: drop "
		  "--bucket-mb" },
		{ "--hw v100x8 --update-on host --no-overlap",
		  "overlaps nothing already: drop --no-overlap" },
	};
	struct run r;
	size_t i;

	run(&r, "predict lenet5 --hw v100x2 --update-on host --format json");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert(strstr(r.out, "\"allreduce\": \"host\"") != NULL);
	ck_assert(strstr(r.out, "\"gradient_collective\": \"none\"") != NULL);
	ck_assert(json_number(r.out, "host") == 863884.0);
	ck_assert(json_number(r.out, "comm_bytes") == 370236.0);
	ck_assert(json_number(r.out, "optimizer") == 0.0);   /* memory */
	ck_assert_rel(json_number(r.out, "comm_exposed"),
		      json_number(r.out, "comm"), 1e-9);
	run(&r, "predict lenet5 --hw v100x2 --update-on host");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert(strstr(r.out, "(gradients to the host and weights back "
			 "over pcie3, 361.56 KiB a device both ways") != NULL);
	ck_assert(strstr(r.out, "host memory     843.64 KiB of 512.00 GiB "
			 "(fits): the weights, gradients and optimizer state "
			 "the host's xeon-e5-2698v4 updates") != NULL);
	ck_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/t.json", dir);
	snprintf(args, sizeof(args), "predict lenet5 --hw v100x2 --update-on "
		 "host --trace %s", path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	slurp(path, doc, sizeof(doc));
	ck_assert(json_valid(doc));
	ck_assert(strstr(doc, "\"name\": \"gradients to the host\"") != NULL);
	ck_assert(strstr(doc, "\"name\": \"weights from the host\"") != NULL);
	ck_assert(strstr(doc, "\"name\": \"optimizer update on the host\"") !=
		  NULL);
	ck_assert(strstr(doc, "\"algorithm\": \"host\"") != NULL);
	/* the host's update on a track of its own */
	ck_assert(strstr(doc, "\"tid\": 3, \"args\": {\"name\": \"host\"}") !=
		  NULL);
	ck_assert(strstr(doc, "\"cat\": \"optimizer\", \"ph\": \"X\", "
			 "\"pid\": 1, \"tid\": 3,") != NULL);
	ck_assert(strstr(doc, "bucket") == NULL);
	unlink(path);
	rmdir(dir);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(args, sizeof(args), "predict lenet5 %s", bad[i].args);
		run(&r, args);
		assert_one_error(&r, 2, bad[i].want);
	}
	/* with a strategy it is ZeRO-Offload, which shards what the host
	 * updates */
	run(&r, "predict gpt2 --hw v100x8 --tp 2 --update-on host");
	assert_one_error(&r, 2, "--update-on host with data parallelism is "
			 "ZeRO-Offload, whose host updates each device's "
			 "shard: it needs --zero 1 or more");
	run(&r, "predict gpt2 --hw v100x8 --tp 2 --zero 1 --update-on host");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert(strstr(r.out, "(on the host, ZeRO-Offload: ") != NULL);
	ck_assert(strstr(r.out, "ZeRO 1 offloaded to the host") != NULL);
	ck_assert(strstr(r.out, "host memory ") != NULL);
	/* DLRM's tables on the host with the rest */
	run(&r, "predict dlrm --hw dgx1 --update-on host");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert(strstr(r.out, "updates, embedding tables with them, over "
			 "pcie3") != NULL);
	run(&r, "predict gpt2 --hw v100x8 --tp 2 --update-on device");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	run(&r, "plan gpt2 --hw v100x8 --global-batch 16 --update-on host "
	    "--top 2 --format json");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert(strstr(r.out, "\"update_on_host\": true") != NULL);
	ck_assert(json_number(r.out, "host_trip_s") > 0.0);
	/* the CSV says so too: the column before the trip's and the
	 * host's bytes, 1 */
	run(&r, "predict gpt2 --hw v100x8 --tp 2 --zero 1 --update-on host "
	    "--format csv");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	ck_assert(strstr(r.out, ",optimizer_s,update_on_host,host_trip_s,"
			 "host_bytes,why\n") != NULL);
	{
		const char *row = strchr(r.out, '\n') + 1;
		int commas = 0;

		/* update_on_host is the 27th column: after 26 commas */
		while (*row && commas < 26)
			commas += *row++ == ',';
		ck_assert(strncmp(row, "1,", 2) == 0);
	}
	/* every candidate is checked before anything is printed: the
	 * JSON is never left open */
	run(&r, "plan gpt2 --hw dgx-a100,h100x8 --global-batch 16 "
	    "--update-on host --format json");
	assert_one_error(&r, 2, "node 'dgx-h100' states no host CPU");
	run(&r, "plan gpt2 --hw h100x8 --global-batch 16 --update-on cpu");
	assert_one_error(&r, 2, "--update-on takes device or host (got "
			 "'cpu')");
	/* a sweep within one node takes it: its one-device point is
	 * predict's */
	run(&r, "scale lenet5 --hw v100 --devices 1,2 --update-on host "
	    "--format json");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	snprintf(doc, sizeof(doc), "%s", r.out);
	run(&r, "predict lenet5 --hw v100 --update-on host --format json");
	ck_assert_rel(json_number(doc, "step_time_s"),
		      json_number(r.out, "step_time_s"), 1e-6);
}
END_TEST

/* ImageNet models carry 90 epochs of 1,281,167 images: steps =
 * ceil(90 x 1281167 / global batch); a price per device-hour gives the
 * cost; lenet5 has no epoch count, so asking for it without --epochs is
 * an error. */
START_TEST(cli_predict_time_energy_cost_to_train)
{
	struct run r;
	const char *t;
	double steps, hours;

	run(&r, "predict resnet50 --hw v100x8 --batch 64 "
	    "--price-per-device-hour 2 --format json");
	ck_assert_msg(r.status == 0, "stderr: %s", r.err);
	t = strstr(r.out, "\"train\"");
	ck_assert(t != NULL);
	steps = json_number(t, "steps");
	ck_assert(steps == 90.0 * ceil(1281167.0 / 512.0));
	ck_assert_rel(json_number(t, "time_s"),
		      steps * json_number(r.out, "step_time_s"), 1e-9);
	hours = json_number(t, "time_s") / 3600.0;
	ck_assert_rel(json_number(t, "cost_usd"), 2.0 * 8.0 * hours, 1e-6);
	/* 8 V100s fill one DGX-1, whose datasheet gives 3,500 W at most
	 * (8 x 300 W TDP and 1,100 W for the rest, nodes.yaml) */
	ck_assert(json_number(t, "power_W") == 3500.0);
	ck_assert_rel(json_number(t, "energy_J"),
		      3500.0 * json_number(t, "time_s"), 1e-9);
	run(&r, "predict lenet5 --hw v100 --years 3");
	assert_one_error(&r, 2, "model 'lenet5' has no default epoch count; "
			 "give --epochs and --dataset-size");
	run(&r, "predict lenet5 --hw v100 --epochs 20");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "20 epochs x 60000 samples") != NULL);
}
END_TEST

Suite *suite_cli_sweep(void)
{
	Suite *s = suite_create("cli_sweep");
	TCase *c = tcase_create("cli_sweep");

	tcase_set_timeout(c, 120);
	tcase_add_test(c, cli_comm_json_has_the_contract_keys_and_rows);
	tcase_add_test(c, cli_comm_busbw_is_algbw_times_allreduce_factor);
	tcase_add_test(c, cli_comm_table_and_csv);
	tcase_add_test(c, cli_comm_rejects_bad_input);
	tcase_add_test(c, cli_comm_plot_writes_data_and_script);
	tcase_add_test(c, cli_scale_json_points_and_derived_figures);
	tcase_add_test(c, cli_scale_strong_and_bad_input);
	tcase_add_test(c, cli_scale_says_its_options);
	tcase_add_test(c, cli_scale_takes_the_dispatch_time);
	tcase_add_test(c, cli_scale_plot_writes_data_and_script);
	tcase_add_test(c, cli_predict_trace_is_chrome_trace_json);
	tcase_add_test(c, cli_predict_time_energy_cost_to_train);
	tcase_add_test(c, cli_predict_update_on_host);
	suite_add_tcase(s, c);
	return s;
}
