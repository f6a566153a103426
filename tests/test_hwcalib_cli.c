/*
 * test_hwcalib_cli.c -- the command line with a calibration: predict,
 * comm and scale name the fits they use and carry the prediction's
 * interval into CSV, JSON and scale's plot (error bars); predict
 * --record stores the prediction.  The fits are test_hwcalib.c's,
 * worked out by hand in its head comment (hwcalib_util.c stores them).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
#include "hwcalib_util.h"
#include "dlsim.h"

/* ---------------------------------------------------------------- */
/* The command line                                                  */
/* ---------------------------------------------------------------- */

/* The fits of the file comment for "local" and "v100", and a host with
 * 8 cores and 16 GiB that ran benchmarks for "local". */
static void cli_db(struct tmpdb *t)
{
	struct dlsim_err err = { 0, "" };
	struct db_host h;
	struct db_run r;

	tmpdb_open(t);
	put_fits(t->db, "local");
	put_fits(t->db, "v100");
	memset(&h, 0, sizeof(h));
	snprintf(h.name, sizeof(h.name), "box");
	snprintf(h.hw, sizeof(h.hw), "local");
	snprintf(h.cpu, sizeof(h.cpu), "Test CPU");
	h.cores = 8;
	h.mem_bytes = 16.0 * 1073741824.0;
	memset(&r, 0, sizeof(r));
	ck_assert_msg(db_host_upsert(t->db, &h, &r.host_id, &err) ==
		      DLSIM_OK, "%s", err.msg);
	snprintf(r.tool, sizeof(r.tool), "calibrate");
	snprintf(r.hw, sizeof(r.hw), "local");
	r.start_s = 1000.0;
	ck_assert_msg(db_run_insert(t->db, &r, NULL, 0, &err) == DLSIM_OK,
		      "%s", err.msg);
}

START_TEST(hwcalib_cli_local_predicts_with_fits)
{
	struct tmpdb t;
	struct run r;
	char args[256];
	double lo, mid, hi;

	cli_db(&t);
	snprintf(args, sizeof(args), "predict resnet18 --hw local --db %s "
		 "--format json", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert(strstr(r.out, "\"kind\": \"gemm:fp32\"") != NULL);
	ck_assert(strstr(r.out, "\"kind\": \"stream:triad\"") != NULL);
	ck_assert(strstr(r.out, "\"precision\": \"fp32\"") != NULL);
	lo = json_number(r.out, "step_time_s_low");
	mid = json_number(r.out, "step_time_s");
	hi = json_number(r.out, "step_time_s_high");
	ck_assert(lo < mid && mid < hi);
	/* the CPU's name and 16 GiB from the host record */
	ck_assert_rel(json_number(r.out, "memory_capacity_bytes"),
		      16.0 * 1073741824.0, 1e-12);
	snprintf(args, sizeof(args), "predict resnet18 --hw local --db %s",
		 t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "\nhardware        local: 1 x Test CPU\n") !=
		  NULL);
	ck_assert(strstr(r.out, "calibrated      gemm:fp32 fit #") != NULL);
	ck_assert(strstr(r.out, "20 samples") != NULL);
	tmpdb_close(&t);
}
END_TEST

START_TEST(hwcalib_cli_catalog_device_uses_and_ignores_fits)
{
	struct tmpdb t;
	struct run r;
	char args[256];
	double cal, plain;

	cli_db(&t);
	snprintf(args, sizeof(args), "predict resnet18 --hw v100 "
		 "--precision fp32 --db %s --format json", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "\"calibration\": {\"hw\": \"v100\"")
		  != NULL);
	cal = json_number(r.out, "step_time_s");
	snprintf(args, sizeof(args), "predict resnet18 --hw v100 "
		 "--precision fp32 --db %s --format json --uncalibrated",
		 t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "\"calibration\": null") != NULL);
	plain = json_number(r.out, "step_time_s");
	ck_assert(json_number(r.out, "step_time_s_low") == plain);
	/* 2e11 FLOP/s against V100's ~14 TFLOP/s: far slower */
	ck_assert(cal > 10.0 * plain);
	tmpdb_close(&t);
	/* one fp32 GEMM fit alone (the seed's DeepBench fits give no
	 * STREAM fit, which every precision would use): an fp64 step is
	 * the catalog's, says so, and has no interval line */
	tmpdb_open(&t);
	put_fit(t.db, "v100", "gemm:fp32", "{\"benchmark\": \"gemm\", "
		"\"group\": \"dtype=fp32\", \"fixed_s\": 1e-5, "
		"\"s_per_flop\": 1e-13, \"s_per_byte\": 0}",
		"[[0, 0, 0], [0, 0, 0], [0, 0, 0]]", 2000.0);
	snprintf(args, sizeof(args), "predict resnet18 --hw v100 "
		 "--precision fp64 --db %s", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "\ncalibrated      no: the fits of v100 are "
			 "for other precisions or kernels than this step's "
			 "(fp64); the catalog's figures are used\n") != NULL);
	ck_assert(strstr(r.out, "interval") == NULL);
	snprintf(args, sizeof(args), "predict resnet18 --hw v100 "
		 "--precision fp64 --db %s --format json", t.path);
	run(&r, args);
	ck_assert(strstr(r.out, "\"calibration\": null") != NULL);
	tmpdb_close(&t);
}
END_TEST

/* validate --file predicts its rows with t's fits as predict does, and
 * names each damaged fit once for the set, with the rows it touched: two
 * on v100 (id), and, once p100 has a damaged fit too, one on p100. */
static void validate_names_damaged_fit(const struct tmpdb *t, int64_t id)
{
	char dir[] = "/tmp/dlsim-hwcal-XXXXXX", path[128], args[512];
	char want[512];
	struct run r;
	int64_t id2;
	FILE *f;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/mine.csv", dir);
	ck_assert((f = fopen(path, "w")) != NULL);
	ck_assert(fputs("model,hw,precision,metric,measured\n"
			"resnet18,v100,fp16,step_s,0.1\n"
			"resnet18,p100,fp32,step_s,0.1\n"
			"resnet18,v100,fp32,step_s,0.2\n", f) >= 0);
	ck_assert(fclose(f) == 0);
	snprintf(args, sizeof(args), "validate --file %s --db %s", path,
		 t->path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	snprintf(want, sizeof(want), "dlsim: validate: warning: mine: v100: "
		 "fit %lld (gemm:fp16) in the calibration database cannot be "
		 "used (damaged or out of range) and is left out (2 rows)\n",
		 (long long)id);
	ck_assert_str_eq(r.err, want);
	ck_assert(strstr(r.out, "\nmine ") != NULL);
	id2 = put_fit(t->db, "p100", "stream:triad", "{\"benchmark\": "
		      "\"stream\", \"group\": \"kernel=triad\", "
		      "\"bw_Bps\": -1, \"from_bytes\": 1e8}", "[[1e16]]",
		      2000.0);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	snprintf(want, sizeof(want), "dlsim: validate: warning: mine: v100: "
		 "fit %lld (gemm:fp16) in the calibration database cannot be "
		 "used (damaged or out of range) and is left out (2 rows)\n"
		 "dlsim: validate: warning: mine: p100: fit %lld "
		 "(stream:triad) in the calibration database cannot be used "
		 "(damaged or out of range) and is left out (1 row)\n",
		 (long long)id, (long long)id2);
	ck_assert_str_eq(r.err, want);
	/* predict names the first of two and counts the other */
	put_fit(t->db, "p100", "gemm:fp32", "{\"benchmark\": \"gemm\", "
		"\"group\": \"dtype=fp32\", \"fixed_s\": -1e-5, "
		"\"s_per_flop\": 1e-13, \"s_per_byte\": 0}",
		"[[0, 0, 0], [0, 0, 0], [0, 0, 0]]", 2000.0);
	snprintf(args, sizeof(args), "predict resnet18 --hw p100 --db %s",
		 t->path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_msg(strstr(r.err, ") and 1 more in the calibration "
			     "database cannot be used (damaged or out of "
			     "range) and are left out\n") != NULL, "%s", r.err);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}

/* A damaged fit (a GEMM roofline whose FLOP term is text) is not used,
 * and predict says which on one line of stderr; the prediction goes on
 * with the rest, and the exit is 0.  calibrate show lists it under what
 * it skipped.  A fit of a kind this dlsim does not read (a later
 * version's) is passed over without a word. */
START_TEST(hwcalib_cli_damaged_fit_is_named_not_used)
{
	struct tmpdb t;
	struct run r;
	char args[256];
	int64_t id;

	tmpdb_open(&t);
	id = put_fit(t.db, "v100", "gemm:fp16", "{\"benchmark\": \"gemm\", "
		     "\"group\": \"dtype=fp16\", \"fixed_s\": 1e-5, "
		     "\"s_per_flop\": \"fast\", \"s_per_byte\": 0}",
		     "[[0, 0, 0], [0, 0, 0], [0, 0, 0]]", 2000.0);
	put_fit(t.db, "v100", "future:fp16", "{\"benchmark\": \"x\", "
		"\"group\": \"\"}", "[]", 2000.0);
	snprintf(args, sizeof(args), "predict resnet18 --hw v100 "
		 "--precision fp16 --db %s", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	snprintf(args, sizeof(args), "dlsim: predict: warning: v100: fit %lld "
		 "(gemm:fp16) in the calibration database cannot be used "
		 "(damaged or out of range) and is left out\n",
		 (long long)id);
	ck_assert_str_eq(r.err, args);
	ck_assert(strstr(r.out, "calibrated") == NULL);
	validate_names_damaged_fit(&t, id);
	snprintf(args, sizeof(args), "calibrate show --hw v100 --db %s",
		 t.path);
	run(&r, args);
	ck_assert_int_eq(r.status, 1);
	snprintf(args, sizeof(args), "dlsim: calibrate show: no readable "
		 "fits for hardware 'v100': fit %lld (gemm:fp16): its stored "
		 "parameters are damaged or out of range; not used\n",
		 (long long)id);
	ck_assert_str_eq(r.err, args);
	/* beside a readable fit, show lists it under what it skipped */
	put_fits(t.db, "v100");
	snprintf(args, sizeof(args), "calibrate show --hw v100 --db %s",
		 t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	snprintf(args, sizeof(args), "fit %lld (gemm:fp16): its stored "
		 "parameters are damaged or out of range; not used",
		 (long long)id);
	ck_assert_msg(strstr(r.out, args) != NULL, "%s", r.out);
	ck_assert(strstr(r.out, "future") == NULL);
	tmpdb_close(&t);
}
END_TEST

START_TEST(hwcalib_cli_local_without_fits_says_what_to_run)
{
	struct tmpdb t;
	struct run r;
	char args[256];

	tmpdb_open(&t);
	put_fits(t.db, "v100");
	snprintf(args, sizeof(args), "predict resnet18 --hw local --db %s",
		 t.path);
	run(&r, args);
	assert_one_error(&r, 2, "run 'dlsim calibrate run' and 'dlsim "
			 "calibrate fit --hw local' first");
	snprintf(args, sizeof(args), "predict resnet18 --hw local --db %s "
		 "--uncalibrated", t.path);
	run(&r, args);
	/* 'local' is its fits alone: no datasheet figures to fall back on */
	assert_one_error(&r, 2, "--hw local is this machine as its fits "
			 "describe it, with no datasheet figures: not with "
			 "--uncalibrated");
	tmpdb_close(&t);
	/* a --db that names no file is one that cannot be read (exit 1),
	 * not a database silently left out */
	run(&r, "predict resnet18 --hw v100 --db /nonexistent/dlsim.db");
	assert_one_error(&r, 1, "--db /nonexistent/dlsim.db: No such file "
			 "or directory");
}
END_TEST

START_TEST(hwcalib_cli_comm_and_scale_use_fits)
{
	struct tmpdb t;
	struct run r;
	char args[256];
	double step;

	cli_db(&t);
	/* ring allreduce of 1 MiB over the 4 ranks fitted: 6e-5 + 3e-10 x
	 * 1048576 = 374.573 us */
	snprintf(args, sizeof(args), "comm allreduce --hw v100x4 --db %s "
		 "--sizes 1M:1M --algo ring --format json", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_rel(json_number(r.out, "time_s"), 374.5728e-6, 1e-9);
	ck_assert(strstr(r.out, "\"kind\": \"alphabeta:allreduce:4\"") !=
		  NULL);
	snprintf(args, sizeof(args), "comm allreduce --hw v100x4 --db %s "
		 "--sizes 1M:1M --algo ring --format json --uncalibrated",
		 t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	/* the catalog's instead: v100x4 is 4 of a dgx1's V100s, whose rings
	 * use 4 NVLink2 links of 25 GB/s x 0.82 (its ring_links), 82 GB/s,
	 * with 0.6 us a step: 2 x 3 x (0.6 us + 262144 B / 82 GB/s) =
	 * 22.781268 us */
	ck_assert_rel(json_number(r.out, "time_s"), 22.781268e-6, 1e-7);
	ck_assert(strstr(r.out, "\"calibration\": null") != NULL);
	/* scale's one device is predict's calibrated step on the fits */
	snprintf(args, sizeof(args), "predict resnet18 --hw local --db %s "
		 "--format json", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	step = json_number(r.out, "step_time_s");
	snprintf(args, sizeof(args), "scale resnet18 --hw local --devices 1 "
		 "--db %s --format json", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert(strstr(r.out, "\"calibrated\": true") != NULL);
	ck_assert_rel(json_number(r.out, "step_time_s"), step, 1e-8);
	tmpdb_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* The interval in CSV, JSON and plots; --record                     */
/* ---------------------------------------------------------------- */

/* The last two comma-separated fields of the line after the header of
 * csv: the interval columns (empty strings when empty). */
static void csv_tail(const char *csv, char *lo, char *hi, size_t n)
{
	const char *line = strchr(csv, '\n'), *end, *c1, *c2;

	ck_assert(line != NULL);
	line++;
	end = strchr(line, '\n');
	ck_assert(end != NULL);
	for (c2 = end - 1; c2 > line && *c2 != ','; c2--)
		;
	for (c1 = c2 - 1; c1 > line && *c1 != ','; c1--)
		;
	ck_assert(*c1 == ',' && *c2 == ',' && c1 < c2);
	snprintf(lo, n, "%.*s", (int)(c2 - c1 - 1), c1 + 1);
	snprintf(hi, n, "%.*s", (int)(end - c2 - 1), c2 + 1);
}

START_TEST(hwcalib_cli_predict_csv_interval_columns)
{
	struct tmpdb t;
	struct run r;
	char args[256], lo[64], hi[64];

	cli_db(&t);
	snprintf(args, sizeof(args), "predict resnet18 --hw v100 "
		 "--precision fp32 --db %s --format csv --uncalibrated",
		 t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, ",step_time_s_low,step_time_s_high\n") !=
		  NULL);
	csv_tail(r.out, lo, hi, sizeof(lo));
	ck_assert_str_eq(lo, "");
	ck_assert_str_eq(hi, "");
	snprintf(args, sizeof(args), "predict resnet18 --hw v100 "
		 "--precision fp32 --db %s --format csv", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	csv_tail(r.out, lo, hi, sizeof(lo));
	ck_assert(strtod(lo, NULL) > 0.0);
	ck_assert(strtod(lo, NULL) < strtod(hi, NULL));
	tmpdb_close(&t);
}
END_TEST

START_TEST(hwcalib_cli_scale_carries_the_interval)
{
	struct tmpdb t;
	struct run r;
	char args[256], lo[64], hi[64];
	double step;

	cli_db(&t);
	snprintf(args, sizeof(args), "scale resnet18 --hw v100 --devices 1 "
		 "--precision fp32 --db %s --format json", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_valid(r.out));
	ck_assert(strstr(r.out, "\"calibrated\": true") != NULL);
	step = json_number(r.out, "step_time_s");
	ck_assert(json_number(r.out, "step_time_s_low") < step);
	ck_assert(json_number(r.out, "step_time_s_high") > step);
	snprintf(args, sizeof(args), "scale resnet18 --hw v100 --devices 1 "
		 "--precision fp32 --db %s --format csv", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, ",fits,step_time_s_low,step_time_s_high\n")
		  != NULL);
	csv_tail(r.out, lo, hi, sizeof(lo));
	ck_assert(strtod(lo, NULL) > 0.0 && strtod(lo, NULL) < step);
	ck_assert(strtod(hi, NULL) > step);
	snprintf(args, sizeof(args), "scale resnet18 --hw v100 --devices 1 "
		 "--precision fp32 --db %s --format csv --uncalibrated",
		 t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	csv_tail(r.out, lo, hi, sizeof(lo));
	ck_assert_str_eq(lo, "");
	ck_assert_str_eq(hi, "");
	tmpdb_close(&t);
}
END_TEST

/* The data row of devices d in a scale plot's .dat: its 9 columns. */
static int dat_row(const char *dat, int d, double *col)
{
	const char *line = dat;

	for (; line && *line; line = strchr(line, '\n'), line += !!line) {
		char a[16], b[16];
		int n = sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %15s %15s",
			       &col[0], &col[1], &col[2], &col[3], &col[4],
			       &col[5], &col[6], a, b);

		if (n == 9 && (int)col[0] == d) {
			col[7] = strtod(a, NULL);
			col[8] = strtod(b, NULL);
			return 1;
		}
	}
	return 0;
}

START_TEST(hwcalib_cli_scale_plot_has_error_bars_when_calibrated)
{
	struct tmpdb t;
	struct run r;
	char args[320], path[160], buf[8192];
	double col[9];

	cli_db(&t);
	snprintf(args, sizeof(args), "scale resnet18 --hw v100 --devices 1 "
		 "--precision fp32 --db %s --plot %s/cal.svg", t.path, t.dir);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	snprintf(path, sizeof(path), "%s/cal.dat", t.dir);
	slurp(path, buf, sizeof(buf));
	ck_assert(strstr(buf, "throughput_low throughput_high") != NULL);
	ck_assert(dat_row(buf, 1, col));
	/* throughput's low end from the slow end of the step */
	ck_assert(col[7] < col[1] && col[1] < col[8]);
	unlink(path);
	snprintf(path, sizeof(path), "%s/cal.gp", t.dir);
	slurp(path, buf, sizeof(buf));
	ck_assert(strstr(buf, "using 1:2:8:9 with yerrorbars") != NULL);
	unlink(path);
	snprintf(path, sizeof(path), "%s/cal.svg", t.dir);
	unlink(path);
	snprintf(args, sizeof(args), "scale resnet18 --hw v100 --devices 1 "
		 "--precision fp32 --db %s --plot %s/raw.svg --uncalibrated",
		 t.path, t.dir);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	snprintf(path, sizeof(path), "%s/raw.dat", t.dir);
	slurp(path, buf, sizeof(buf));
	ck_assert(strstr(buf, " NaN NaN\n") != NULL);
	unlink(path);
	snprintf(path, sizeof(path), "%s/raw.gp", t.dir);
	slurp(path, buf, sizeof(buf));
	ck_assert(strstr(buf, "yerrorbars") == NULL);
	unlink(path);
	snprintf(path, sizeof(path), "%s/raw.svg", t.dir);
	unlink(path);
	tmpdb_close(&t);
}
END_TEST

static int count_one(void *ctx, const struct db_prediction *p)
{
	(void)p;
	++*(int *)ctx;
	return 0;
}

/* The stored predictions whose inputs match the LIKE pattern. */
static int count_predictions(struct db *db, const char *like)
{
	struct dlsim_err err = { 0, "" };
	int n = 0;

	ck_assert_msg(db_each_prediction(db, like, count_one, &n, &err) ==
		      DLSIM_OK, "%s", err.msg);
	return n;
}

START_TEST(hwcalib_cli_predict_record_stores_one_row)
{
	struct tmpdb t;
	struct run r;
	char args[640], fresh[160];

	cli_db(&t);
	snprintf(args, sizeof(args), "predict resnet18 --hw v100 --db %s "
		 "--format json", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	snprintf(args, sizeof(args), "db info --db %s --format json", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_number(r.out, "predictions") == 0.0);
	snprintf(args, sizeof(args), "predict resnet18 --hw v100 --db %s "
		 "--record", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.err, "dlsim: recorded prediction 1\n") != NULL);
	snprintf(args, sizeof(args), "db info --db %s --format json", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_number(r.out, "predictions") == 1.0);
	/* the inputs it stores are the options given, read back */
	snprintf(args, sizeof(args), "predict resnet50 --hw v100x8 --db %s "
		 "--update-on host --fuse-conv-bn --record", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq(count_predictions(t.db, "%\"fuse_elementwise\": true, "
			 "\"fuse_conv_bn\": true,%\"update_on_host\": true%"),
			 1);
	ck_assert_int_eq(count_predictions(t.db, "%\"fuse_conv_bn\": false,%"
			 "\"update_on_host\": false%"), 1);
	/* element-wise fusion alone is not the convolution's */
	snprintf(args, sizeof(args), "predict resnet18 --hw v100 --db %s "
		 "--fuse-elementwise --record", t.path);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq(count_predictions(t.db, "%\"fuse_elementwise\": true, "
			 "\"fuse_conv_bn\": false,%"), 1);
	/* --db naming no file: --record creates it */
	snprintf(fresh, sizeof(fresh), "%s/fresh.db", t.dir);
	snprintf(args, sizeof(args), "predict resnet18 --hw v100 --db %s "
		 "--record --uncalibrated", fresh);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	snprintf(args, sizeof(args), "db info --db %s --format json", fresh);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(json_number(r.out, "predictions") == 1.0);
	snprintf(args, sizeof(args), "rm -f %s %s-wal %s-shm", fresh, fresh,
		 fresh);
	ck_assert(system(args) == 0);
	tmpdb_close(&t);
}
END_TEST

/* --record with no database to hand fails, and creates none. */
START_TEST(hwcalib_cli_predict_record_without_database_fails)
{
	struct tmpdb t;
	struct run r;
	char none[160], *old = getenv("DLSIM_DB");
	char saved[512] = "";

	if (old)
		snprintf(saved, sizeof(saved), "%s", old);
	cli_db(&t);
	snprintf(none, sizeof(none), "%s/none.db", t.dir);
	setenv("DLSIM_DB", none, 1);
	run(&r, "predict resnet18 --hw v100 --record");
	assert_one_error(&r, 2, "no database to record into");
	run(&r, "predict resnet18 --hw v100 --record --uncalibrated");
	assert_one_error(&r, 2, "no database to record into");
	ck_assert(access(none, F_OK) != 0);
	if (old)
		setenv("DLSIM_DB", saved, 1);
	else
		unsetenv("DLSIM_DB");
	tmpdb_close(&t);
}
END_TEST

Suite *suite_hwcalib_cli(void)
{
	Suite *s = suite_create("hwcalib_cli");
	TCase *tc = tcase_create("hwcalib_cli");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, hwcalib_cli_local_predicts_with_fits);
	tcase_add_test(tc, hwcalib_cli_catalog_device_uses_and_ignores_fits);
	tcase_add_test(tc, hwcalib_cli_damaged_fit_is_named_not_used);
	tcase_add_test(tc, hwcalib_cli_local_without_fits_says_what_to_run);
	tcase_add_test(tc, hwcalib_cli_comm_and_scale_use_fits);
	tcase_add_test(tc, hwcalib_cli_predict_csv_interval_columns);
	tcase_add_test(tc, hwcalib_cli_scale_carries_the_interval);
	tcase_add_test(tc, hwcalib_cli_scale_plot_has_error_bars_when_calibrated);
	tcase_add_test(tc, hwcalib_cli_predict_record_stores_one_row);
	tcase_add_test(tc, hwcalib_cli_predict_record_without_database_fails);
	suite_add_tcase(s, tc);
	return s;
}
