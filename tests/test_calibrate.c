/*
 * test_calibrate.c -- the importers of calibrate/: every format on its
 * good fixture with values checked by hand, the refusals peculiar to one
 * format, and the format names.  What every importer refuses (damaged
 * fixtures at their line, implausible samples, the sample cap) is
 * test_calibrate_refusals.c; imports into a database and `dlsim
 * calibrate import` end to end are test_calibrate_import.c.
 *
 * The fixtures are in tests/data/calibrate/: outputs written in each
 * tool's exact format (nccl-tests 2.17 and an older 2.10-era table, its
 * -J JSON, OSU 5.6 and 7.x, STREAM 5.10), the first rows of
 * shared/data/deepbench_*.csv with their source column, and damaged
 * copies of them.  Hand values: a time in us is 10^-6 s; OSU's and
 * STREAM's MB are 10^6 B; DeepBench's ms are 10^-3 s, cross-checked
 * against the TFLOPS or GB/s the same row reports.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "cli_util.h"
#include "dlsim.h"
#include "calibrate/cal.h"
#include "calibrate_util.h"

#define DIR "tests/data/calibrate/"

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

static struct db_sample *parse_ok(const char *format, const char *file,
				  int64_t want_n)
{
	struct dlsim_err err = { 0, "" };
	struct db_sample *s = NULL;
	enum cal_format f;
	char path[256];
	int64_t n = -1;

	snprintf(path, sizeof(path), DIR "%s", file);
	ck_assert_int_eq(cal_format_parse(format, &f, &err), DLSIM_OK);
	ck_assert_msg(cal_parse_file(f, path, &s, &n, &err) == DLSIM_OK,
		      "%s: %s", file, err.msg);
	ck_assert_msg(n == want_n, "%s: %lld samples, expected %lld", file,
		      (long long)n, (long long)want_n);
	return s;
}

static void check(const struct db_sample *s, const char *bench,
		  const char *params, double value, const char *unit)
{
	ck_assert_str_eq(s->benchmark, bench);
	ck_assert_str_eq(s->params, params);
	ck_assert_str_eq(s->unit, unit);
	ck_assert_int_eq(s->rep, -1);
	ck_assert_rel(s->value, value, 1e-12);
}

/* ---------------------------------------------------------------- */
/* Format names                                                      */
/* ---------------------------------------------------------------- */

START_TEST(cal_format_names_round_trip)
{
	static const char *const names[] = {
		"nccl-tests", "osu", "stream", "deepbench", "gemm-csv",
		"conv-csv"
	};
	struct dlsim_err err = { 0, "" };
	enum cal_format f = CAL_OSU;
	int i;

	for (i = 0; i < CAL_FORMAT_COUNT; i++) {
		ck_assert_str_eq(cal_format_name((enum cal_format)i),
				 names[i]);
		ck_assert_int_eq(cal_format_parse(names[i], &f, &err),
				 DLSIM_OK);
		ck_assert_int_eq(f, i);
	}
	ck_assert(cal_format_name(CAL_FORMAT_COUNT) == NULL);
	ck_assert(cal_format_name((enum cal_format)-1) == NULL);
	ck_assert_int_eq(cal_format_parse("nccl", &f, &err),
			 DLSIM_ENOTFOUND);
	ck_assert(strstr(err.msg, "unknown format 'nccl'") != NULL);
	ck_assert(strstr(err.msg, "conv-csv") != NULL);
	ck_assert_int_eq(f, CAL_CONV_CSV);      /* unchanged */
}
END_TEST

/* ---------------------------------------------------------------- */
/* nccl-tests                                                        */
/* ---------------------------------------------------------------- */

START_TEST(cal_nccl_text_times_in_seconds)
{
	/* all_reduce_perf, 8 ranks: 6 sizes x out-of-place, in-place */
	struct db_sample *s = parse_ok("nccl-tests", "nccl_all_reduce.txt",
				       12);

	check(&s[0], "allreduce", "bytes=8 ranks=8 op=sum inplace=0 "
	      "dtype=fp32", 36.65e-6, "s");
	check(&s[1], "allreduce", "bytes=8 ranks=8 op=sum inplace=1 "
	      "dtype=fp32", 36.39e-6, "s");
	check(&s[10], "allreduce", "bytes=134217728 ranks=8 op=sum "
	      "inplace=0 dtype=fp32", 1003.2e-6, "s");
	/* the row's own algbw, 133.79 GB/s = 134217728 B / 1003.2 us */
	ck_assert_rel(134217728.0 / s[10].value / 1e9, 133.79, 1e-4);
	check(&s[11], "allreduce", "bytes=134217728 ranks=8 op=sum "
	      "inplace=1 dtype=fp32", 1001.9e-6, "s");
	free(s);
}
END_TEST

START_TEST(cal_nccl_old_text_infers_reduce_scatter)
{
	/* no "Collective test starting" line: size = 4 x count x 4 B with
	 * 4 Rank lines is a reduce-scatter; NCCL INFO lines are skipped */
	struct db_sample *s = parse_ok("nccl-tests",
				       "nccl_reduce_scatter_old.txt", 8);

	check(&s[0], "reduce-scatter", "bytes=4096 ranks=4 op=sum inplace=0 "
	      "dtype=fp32", 21.04e-6, "s");
	check(&s[5], "reduce-scatter", "bytes=4194304 ranks=4 op=sum "
	      "inplace=1 dtype=fp32", 111.8e-6, "s");
	check(&s[6], "reduce-scatter", "bytes=67108864 ranks=4 op=sum "
	      "inplace=0 dtype=fp32", 1402.6e-6, "s");
	free(s);
}
END_TEST

START_TEST(cal_nccl_json_ranks_from_devices)
{
	/* -J of all_gather_perf over 2 processes x 4 GPUs: 2 device
	 * entries x nthreads 1 x ngpus 4 = 8 ranks; program from args[0],
	 * written "\/opt\/nccl-tests\/build\/all_gather_perf" */
	struct db_sample *s = parse_ok("nccl-tests", "nccl_all_gather.json",
				       10);

	check(&s[0], "allgather", "bytes=1024 ranks=8 op=none inplace=0 "
	      "dtype=fp32", 24.31e-6, "s");
	check(&s[9], "allgather", "bytes=67108864 ranks=8 op=none "
	      "inplace=1 dtype=fp32", 1209.8e-6, "s");
	free(s);
}
END_TEST

START_TEST(cal_nccl_infers_rooted_and_refuses_ambiguous)
{
	static const char head[] =
		"# nThread 1 nGpus 2 minBytes 8 maxBytes 8 step: 2(factor) "
		"warmup iters: 5 iters: 20 agg iters: 1 validation: 1 "
		"graph: 0\n"
		"#       size         count      type   redop    root     time"
		"   algbw   busbw  #wrong     time   algbw   busbw  #wrong\n";
	struct dlsim_err err = { 0, "" };
	struct db_sample *s;
	char text[1024];
	int64_t n;

	/* root 0 and no reduction: broadcast; 2 ranks from nGpus */
	snprintf(text, sizeof(text), "%s        4096          1024     "
		 "float    none       0    10.00    0.41    0.41       0    "
		 "9.50    0.43    0.43       0\n", head);
	ck_assert_int_eq(parse_text(CAL_NCCL_TESTS, text, 100, &s, &n, &err),
			 DLSIM_OK);
	ck_assert_int_eq(n, 2);
	check(&s[1], "broadcast", "bytes=4096 ranks=2 op=none inplace=1 "
	      "dtype=fp32", 9.5e-6, "s");
	free(s);
	/* size = count x 4 B with 2 ranks: allreduce; bfloat16 is bf16 */
	snprintf(text, sizeof(text), "%s        4096          2048  "
		 "bfloat16     sum      -1    10.00    0.41    0.41       0    "
		 "9.50    0.43    0.43     N/A\n", head);
	ck_assert_int_eq(parse_text(CAL_NCCL_TESTS, text, 100, &s, &n, &err),
			 DLSIM_OK);
	check(&s[0], "allreduce", "bytes=4096 ranks=2 op=sum inplace=0 "
	      "dtype=bf16", 10e-6, "s");
	free(s);
	/* all-gather and all-to-all print the same columns */
	snprintf(text, sizeof(text), "%s        4096           512     "
		 "float    none      -1    10.00    0.41    0.41       0    "
		 "9.50    0.43    0.43       0\n", head);
	ck_assert_int_eq(parse_text(CAL_NCCL_TESTS, text, 100, &s, &n, &err),
			 DLSIM_EPARSE);
	ck_assert(strstr(err.msg, "mem.txt:3: cannot tell which "
			 "collective") != NULL);
	ck_assert(s == NULL && n == 0);
}
END_TEST

START_TEST(cal_nccl_json_malformed_is_placed)
{
	struct dlsim_err err = { 0, "" };
	struct db_sample *s;
	int64_t n;

	/* a trailing comma on line 3 */
	ck_assert_int_eq(parse_text(CAL_NCCL_TESTS, "{\"version\": 3,\n"
				    "\"results\": [\n{\"size\": 8},\n]}\n",
				    100, &s, &n, &err), DLSIM_EPARSE);
	ck_assert_str_eq(err.msg, "mem.txt:4: malformed JSON: unexpected "
			 "character");
	ck_assert(s == NULL && n == 0);
	/* valid JSON, but not nccl-tests' */
	dlsim_err_clear(&err);
	ck_assert_int_eq(parse_text(CAL_NCCL_TESTS, "{\"a\": \"\\u00e9\"}",
				    100, &s, &n, &err), DLSIM_EPARSE);
	ck_assert(strstr(err.msg, "no 'results' list") != NULL);
	/* an unsupported program */
	dlsim_err_clear(&err);
	ck_assert_int_eq(parse_text(CAL_NCCL_TESTS, "{\"args\": "
				    "[\"./sendrecv_perf\"], \"results\": []}",
				    100, &s, &n, &err), DLSIM_EPARSE);
	ck_assert(strstr(err.msg, "unsupported nccl-tests program "
			 "'./sendrecv_perf'") != NULL);
	/* nccl-tests writes one line: the message names the result */
	dlsim_err_clear(&err);
	ck_assert_int_eq(parse_text(CAL_NCCL_TESTS, "{\"args\": "
				    "[\"all_reduce_perf\"], \"config\": "
				    "{\"nthreads\": 1, \"ngpus\": 2}, "
				    "\"results\": [{\"size\": 8, \"count\": 2, "
				    "\"type\": \"float\", \"redop\": \"sum\", "
				    "\"root\": \"    -1\", \"in_place\": "
				    "{\"time\": 5.5, \"nwrong\": 0}}, "
				    "{\"size\": 8, \"count\": 2, \"type\": "
				    "\"float16\"}]}", 100, &s, &n, &err),
			 DLSIM_EPARSE);
	ck_assert_str_eq(err.msg, "mem.txt:1: results[1]: 'root' must be a "
			 "string or number");
	ck_assert(s == NULL && n == 0);
}
END_TEST

/* A result that timed nothing, and an object naming a key twice (which
 * the first would win), refuse the file: "imported 1 samples" of 5
 * results, or 24.31 us of {"time":24.31,"time":-5}, say nothing of it. */
#define JSON_HEAD "{\"args\": [\"all_reduce_perf\"], \"config\": " \
	"{\"nthreads\": 1, \"ngpus\": 2}, \"results\": [{\"size\": 8, " \
	"\"count\": 2, \"type\": \"float\", \"redop\": \"sum\", " \
	"\"root\": \"    -1\", \"in_place\": {\"time\": 5.5}}, " \
	"{\"size\": 16, \"count\": 4, \"type\": \"float\", \"redop\": " \
	"\"sum\", \"root\": \"    -1\""

/* 50 and 42 letters */
#define KEY50 "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
#define KEY42 "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"

START_TEST(cal_nccl_json_refuses_empty_results_and_repeated_keys)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ JSON_HEAD "}]}", "mem.txt:1: results[1]: neither "
		  "'out_of_place' nor 'in_place' holds a time" },
		{ JSON_HEAD ", \"out_of_place\": null, \"in_place\": null}]}",
		  "mem.txt:1: results[1]: neither 'out_of_place' nor "
		  "'in_place' holds a time" },
		{ JSON_HEAD ", \"out_of_place\": {\"time\": 24.31, "
		  "\"time\": -5}}]}", "mem.txt:1: malformed JSON: the key "
		  "'time' appears twice in results[1].out_of_place" },
		{ JSON_HEAD ", \"in_place\": {\"time\": 7}, \"in_place\": "
		  "{\"time\": 8}}]}", "mem.txt:1: malformed JSON: the key "
		  "'in_place' appears twice in results[1]" },
		{ "{\"results\": [],\n\"results\": []}", "mem.txt:2: "
		  "malformed JSON: the key 'results' appears twice in the top "
		  "level" },
		{ "{\"a\": [{\"k\\n\": 1, \"b\": 2, \"k\\n\": 3}]}",
		  "mem.txt:1: malformed JSON: the key 'k?' appears twice in "
		  "a[0]" },
		/* a key longer than the message holds ends in "...", and
		 * bytes above ASCII (é here) are '?' */
		{ "{\"\xc3\xa9" KEY50 "\": 1, \"\xc3\xa9" KEY50 "\": 2}",
		  "mem.txt:1: malformed JSON: the key '??" KEY42 "...' "
		  "appears twice in the top level" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct dlsim_err err = { 0, "" };
		struct db_sample *s = (struct db_sample *)&err;
		int64_t n = 7;

		ck_assert_msg(parse_text(CAL_NCCL_TESTS, bad[i].text, 100, &s,
					 &n, &err) == DLSIM_EPARSE,
			      "case %zu accepted", i);
		ck_assert_str_eq(err.msg, bad[i].says);
		ck_assert(s == NULL && n == 0);
	}
	/* one placement of two is a result: the first size's in_place */
	{
		struct dlsim_err err = { 0, "" };
		struct db_sample *s;
		int64_t n;

		ck_assert_msg(parse_text(CAL_NCCL_TESTS, JSON_HEAD
					 ", \"out_of_place\": {\"time\": 7}}]}",
					 100, &s, &n, &err) == DLSIM_OK,
			      "%s", err.msg);
		ck_assert_int_eq(n, 2);
		free(s);
	}
}
END_TEST

START_TEST(cal_json_reader_unescapes_and_links)
{
	char text[] = "{\"k\": [1, -2.5e1, \"a\\\"\\/\\u00e9\\ud83d\\ude00\","
		      " true, null], \"e\": {}}";
	struct dlsim_err err = { 0, "" };
	const struct cal_json *k, *v;
	struct cal_json_doc d;
	struct cal_in in;

	cal_in_init(&in, "x.json", text, strlen(text));
	ck_assert_int_eq(cal_json_parse(&in, &d, &err), DLSIM_OK);
	k = cal_json_get(&d, &d.v[0], "k");
	ck_assert(k && k->type == CAL_JSON_ARRAY);
	v = cal_json_first(&d, k);
	ck_assert(v->type == CAL_JSON_NUMBER && v->num == 1.0);
	v = cal_json_next(&d, v);
	ck_assert(v->num == -25.0);
	v = cal_json_next(&d, v);
	ck_assert_str_eq(v->str, "a\"/\xc3\xa9\xf0\x9f\x98\x80");
	v = cal_json_next(&d, v);
	ck_assert(v->type == CAL_JSON_TRUE);
	v = cal_json_next(&d, v);
	ck_assert(v->type == CAL_JSON_NULL && cal_json_next(&d, v) == NULL);
	ck_assert(cal_json_first(&d, cal_json_get(&d, &d.v[0], "e")) == NULL);
	ck_assert(cal_json_get(&d, &d.v[0], "missing") == NULL);
	cal_json_release(&d);
}
END_TEST

/* ---------------------------------------------------------------- */
/* OSU, STREAM                                                       */
/* ---------------------------------------------------------------- */

START_TEST(cal_osu_latency_in_seconds)
{
	struct db_sample *s = parse_ok("osu", "osu_latency.txt", 6);

	check(&s[0], "p2p_latency", "bytes=0 ranks=2 dtype=int8", 0.21e-6,
	      "s");
	check(&s[5], "p2p_latency", "bytes=4194304 ranks=2 dtype=int8",
	      471.85e-6, "s");
	free(s);
}
END_TEST

START_TEST(cal_osu_bw_megabytes_are_ten_to_the_six)
{
	struct db_sample *s = parse_ok("osu", "osu_bw.txt", 5);

	check(&s[0], "p2p_bw", "bytes=1 ranks=2 dtype=int8", 3.12e6, "B/s");
	check(&s[4], "p2p_bw", "bytes=4194304 ranks=2 dtype=int8",
	      12305.76e6, "B/s");
	free(s);
}
END_TEST

START_TEST(cal_osu_allreduce_takes_the_average_column)
{
	/* -f adds Min, Max and Iterations; the Avg column is kept */
	struct db_sample *s = parse_ok("osu", "osu_allreduce.txt", 4);

	check(&s[0], "allreduce", "bytes=1 ranks=0 op=sum inplace=0 "
	      "dtype=int8", 1.82e-6, "s");
	check(&s[3], "allreduce", "bytes=1048576 ranks=0 op=sum inplace=0 "
	      "dtype=int8", 612.93e-6, "s");
	free(s);
}
END_TEST

START_TEST(cal_stream_rates_and_working_sets)
{
	/* 10^7 elements of 8 B: copy and scale move 2 arrays, add and
	 * triad 3 */
	struct db_sample *s = parse_ok("stream", "stream.txt", 4);

	check(&s[0], "stream", "bytes=160000000 kernel=copy threads=2",
	      30162.4e6, "B/s");
	check(&s[1], "stream", "bytes=160000000 kernel=scale threads=2",
	      20402.2e6, "B/s");
	check(&s[2], "stream", "bytes=240000000 kernel=add threads=2",
	      22703.0e6, "B/s");
	check(&s[3], "stream", "bytes=240000000 kernel=triad threads=2",
	      22788.6e6, "B/s");
	/* STREAM's MB is 10^6 B: the rate is bytes / min time, 0.005305 s */
	ck_assert_rel(1.6e8 / 0.005305, s[0].value, 1e-4);
	free(s);
}
END_TEST

/* ---------------------------------------------------------------- */
/* DeepBench and the generic CSVs                                    */
/* ---------------------------------------------------------------- */

START_TEST(cal_deepbench_gemm_tags_the_device)
{
	struct db_sample *s = parse_ok("deepbench", "deepbench_gemm.csv", 5);

	check(&s[0], "gemm", "m=5124 n=700 k=2048 transa=N transb=N "
	      "dtype=int8 math=int32 setting=inference device=NVIDIA_T4",
	      0.999e-3, "s");
	/* the row says 14.706 TFLOPS: 2 m n k / t */
	ck_assert_rel(2.0 * 5124 * 700 * 2048 / s[0].value / 1e12,
		      14.706239039039037, 1e-12);
	check(&s[4], "gemm", "m=5124 n=1500 k=2048 transa=N transb=N "
	      "dtype=int8 math=int32 setting=inference device=NVIDIA_T4",
	      1.431e-3, "s");
	free(s);
}
END_TEST

START_TEST(cal_deepbench_conv_skips_missing_passes)
{
	/* 4 MI25 rows x 3 passes, then an M40 row whose bwd_inputs_ms is
	 * DeepBench's "N/A*" (shared/data/deepbench_conv.csv line 378) */
	struct db_sample *s = parse_ok("deepbench", "deepbench_conv.csv", 14);

	check(&s[0], "conv", "n=4 c=1 h=161 w=700 k=32 r=5 s=20 pad_h=0 "
	      "pad_w=0 stride_h=2 stride_w=2 pass=fwd dtype=fp32 math=fp32 "
	      "setting=training device=AMD_MI25", 0.20799999999999999e-3,
	      "s");
	check(&s[2], "conv", "n=4 c=1 h=161 w=700 k=32 r=5 s=20 pad_h=0 "
	      "pad_w=0 stride_h=2 stride_w=2 pass=bwd_filter dtype=fp32 "
	      "math=fp32 setting=training device=AMD_MI25",
	      0.27400000000000002e-3, "s");
	check(&s[12], "conv", "n=4 c=1 h=161 w=700 k=32 r=5 s=20 pad_h=0 "
	      "pad_w=0 stride_h=2 stride_w=2 pass=fwd dtype=fp32 math=fp32 "
	      "setting=training device=Nvidia_Tesla_M40", 0.224e-3, "s");
	check(&s[13], "conv", "n=4 c=1 h=161 w=700 k=32 r=5 s=20 pad_h=0 "
	      "pad_w=0 stride_h=2 stride_w=2 pass=bwd_filter dtype=fp32 "
	      "math=fp32 setting=training device=Nvidia_Tesla_M40",
	      0.36899999999999999e-3, "s");
	free(s);
}
END_TEST

START_TEST(cal_deepbench_allreduce_bytes_from_floats)
{
	struct db_sample *s = parse_ok("deepbench", "deepbench_allreduce.csv",
				       5);

	check(&s[0], "allreduce", "bytes=400000 ranks=2 dtype=fp32 "
	      "impl=Intel_MLSL device=Intel(R)_Xeon_Phi(TM)_7250F", 0.09e-3,
	      "s");
	/* DeepBench's GB/s is size x ranks / time: 8.889 on this row */
	ck_assert_rel(400000.0 * 2 / s[0].value / 1e9, 8.8888888888888893,
		      1e-12);
	check(&s[4], "allreduce", "bytes=400000 ranks=32 dtype=fp32 "
	      "impl=Intel_MLSL device=Intel(R)_Xeon_Phi(TM)_7250F", 0.31e-3,
	      "s");
	free(s);
}
END_TEST

START_TEST(cal_deepbench_rnn_passes)
{
	/* 4 inference rows with a forward time only, a 1080 Ti training
	 * row with all three (line 315), a T4 row with none (line 527) */
	struct db_sample *s = parse_ok("deepbench", "deepbench_rnn.csv", 7);

	check(&s[0], "rnn", "cell=lstm hidden=512 n=1 timesteps=25 pass=fwd "
	      "dtype=int8 math=int32 setting=inference device=Nvidia_1080Ti",
	      0.89e-3, "s");
	check(&s[6], "rnn", "cell=vanilla hidden=1760 n=16 timesteps=50 "
	      "pass=bwd_weights dtype=fp32 math=fp32 setting=training "
	      "device=NVIDIA_GTX_1080_Ti", 0.624e-3, "s");
	free(s);
}
END_TEST

/* A recurrent row's sizes are refused at their line beyond what the
 * simulator's layer takes: 10^6 hidden units or samples, 65,536 steps
 * (cal.h's CAL_RNN_MAX, CAL_RNN_MAX_STEPS). */
START_TEST(cal_deepbench_rnn_sizes_have_bounds)
{
	static const char *const head =
		"hardware,setting,sheet,precision,application,rnn_type,"
		"hidden,N,timesteps,fwd_ms,bwd_ms,bwd_weights_ms,total_ms,"
		"fwd_tflops,source\n";
	static const struct {
		const char *sizes, *msg;
	} bad[] = {
		{ "1000001,16,50", "mem.txt:2: 'hidden'" },
		{ "1024,1000001,50", "mem.txt:2: 'N'" },
		{ "1024,16,65537", "mem.txt:2: 'timesteps'" },
	};
	struct dlsim_err err = { 0, "" };
	struct db_sample *s = NULL;
	char text[512];
	int64_t n;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%sV,training,FP32,Float,,LSTM,%s,"
			 "1.0,2.0,,,,src\n", head, bad[i].sizes);
		dlsim_err_clear(&err);
		ck_assert_int_eq(parse_text(CAL_DEEPBENCH, text, 100, &s, &n,
					    &err), DLSIM_EPARSE);
		ck_assert_msg(strncmp(err.msg, bad[i].msg,
				      strlen(bad[i].msg)) == 0, "%s", err.msg);
	}
	snprintf(text, sizeof(text), "%sV,training,FP32,Float,,LSTM,"
		 "1000000,1000000,65536,1.0,2.0,,,,src\n", head);
	ck_assert_int_eq(parse_text(CAL_DEEPBENCH, text, 100, &s, &n, &err),
			 DLSIM_OK);
	ck_assert_int_eq(n, 2);
	free(s);
}
END_TEST

START_TEST(cal_generic_gemm_and_conv)
{
	struct db_sample *s = parse_ok("gemm-csv", "gemm.csv", 4);

	check(&s[0], "gemm", "m=1024 n=1024 k=1024 dtype=fp32", 0.00231,
	      "s");
	check(&s[3], "gemm", "m=2048 n=512 k=8192 dtype=bf16", 0.000842,
	      "s");
	free(s);
	s = parse_ok("conv-csv", "conv.csv", 3);
	check(&s[1], "conv", "n=32 c=256 h=14 w=14 k=256 r=1 s=1 stride=1 "
	      "pad=0 dtype=fp32", 0.00194, "s");
	check(&s[2], "conv", "n=8 c=3 h=224 w=224 k=64 r=7 s=7 stride=2 "
	      "pad=3 dtype=fp16", 0.00305, "s");
	free(s);
}
END_TEST

/* The per-pass table keeps each axis's stride and pad, and its pass, in
 * DeepBench's order, so that both tables group alike (cal_points.c). */
START_TEST(cal_generic_conv_per_pass)
{
	static const char head[] = "n,c,h,w,k,r,s,stride_h,stride_w,pad_h,"
				   "pad_w,pass,dtype,time_s\n";
	struct dlsim_err err = { 0, "" };
	struct db_sample *s;
	char text[512];
	int64_t n;

	snprintf(text, sizeof(text), "%s4,1,161,700,32,5,20,2,2,0,0,"
		 "bwd_data,fp32,1.120032e-04\n16,64,56,56,64,3,3,1,1,1,1,fwd,"
		 "bf16,5e-5\n", head);
	ck_assert_int_eq(parse_text(CAL_CONV_CSV, text, 100, &s, &n, &err),
			 DLSIM_OK);
	ck_assert_int_eq(n, 2);
	check(&s[0], "conv", "n=4 c=1 h=161 w=700 k=32 r=5 s=20 pad_h=0 "
	      "pad_w=0 stride_h=2 stride_w=2 pass=bwd_data dtype=fp32",
	      1.120032e-4, "s");
	check(&s[1], "conv", "n=16 c=64 h=56 w=56 k=64 r=3 s=3 pad_h=1 "
	      "pad_w=1 stride_h=1 stride_w=1 pass=fwd dtype=bf16", 5e-5, "s");
	free(s);
	snprintf(text, sizeof(text), "%s4,1,161,700,32,5,20,2,2,0,0,bwd,"
		 "fp32,1e-4\n", head);
	ck_assert_int_eq(parse_text(CAL_CONV_CSV, text, 100, &s, &n, &err),
			 DLSIM_EPARSE);
	ck_assert_str_eq(err.msg, "mem.txt:2: unknown pass 'bwd' (expected "
			 "fwd, bwd_data, bwd_filter)");
	/* a 5x20 filter over 161 rows padded by 0 but only 8 columns */
	err = (struct dlsim_err){ 0, "" };
	snprintf(text, sizeof(text), "%s4,1,161,8,32,5,20,2,2,0,0,fwd,"
		 "fp32,1e-4\n", head);
	ck_assert_int_eq(parse_text(CAL_CONV_CSV, text, 100, &s, &n, &err),
			 DLSIM_EPARSE);
	ck_assert_msg(strstr(err.msg, "mem.txt:2: a 5x20 filter is larger "
			     "than the input, 161x8") != NULL, "%s", err.msg);
	/* 2 x 4 x 32 x 1 x 5 x 20 x 79 x 341 FLOPs in a femtosecond */
	snprintf(text, sizeof(text), "%s4,1,161,700,32,5,20,2,2,0,0,fwd,"
		 "fp32,1e-15\n", head);
	ck_assert_int_eq(parse_text(CAL_CONV_CSV, text, 100, &s, &n, &err),
			 DLSIM_EPARSE);
}
END_TEST

START_TEST(cal_csv_quotes_blanks_and_crlf)
{
	struct dlsim_err err = { 0, "" };
	struct db_sample *s;
	int64_t n;

	ck_assert_int_eq(parse_text(CAL_GEMM_CSV, "\xef\xbb\xbfm,n,k,dtype,"
				    "time_s\r\n 64 ,\"128\",256,\"fp16\","
				    "1.5e-6\r\n\r\n", 100, &s, &n, &err),
			 DLSIM_OK);
	ck_assert_int_eq(n, 1);
	check(&s[0], "gemm", "m=64 n=128 k=256 dtype=fp16", 1.5e-6, "s");
	free(s);
	ck_assert_int_eq(parse_text(CAL_GEMM_CSV, "m,n,k,dtype,time_s\n"
				    "64,128,256,\"fp16,1e-6\n", 100, &s, &n,
				    &err), DLSIM_EPARSE);
	ck_assert_str_eq(err.msg, "mem.txt:2: a quoted field is not closed "
			 "properly");
	/* which unquoted fields were trimmed: what validate --file's number
	 * columns refuse */
	{
		char line[] = " 64,128 ,\" 8\",\t,x,\t1\t";
		char *f[8];
		unsigned char padded[8];

		ck_assert_int_eq(cal_split_csv_padded(line, f, padded, 8), 6);
		ck_assert_str_eq(f[0], "64");
		ck_assert_str_eq(f[1], "128");
		ck_assert_str_eq(f[2], " 8");
		ck_assert_str_eq(f[3], "");
		ck_assert_str_eq(f[5], "1");
		ck_assert(padded[0] && padded[1] && !padded[2] && !padded[3] &&
			  !padded[4] && padded[5]);
	}
}
END_TEST

START_TEST(cal_params_are_single_words)
{
	struct cal_params p;

	cal_params_init(&p);
	cal_params_int(&p, "bytes", 1024);
	cal_params_str(&p, "device", "Intel(R) Xeon\tPhi=x\xc2\xa0" "7250F");
	ck_assert_str_eq(p.s, "bytes=1024 device=Intel(R)_Xeon_Phi_x_7250F");
	ck_assert_int_eq(p.cut, 0);
	while (!p.cut)
		cal_params_str(&p, "k", "vvvvvvvv");
	ck_assert_int_eq((int)strlen(p.s), (int)sizeof(p.s) - 1);
}
END_TEST

Suite *suite_calibrate(void)
{
	Suite *s = suite_create("calibrate");
	TCase *c = tcase_create("calibrate");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, cal_format_names_round_trip);
	tcase_add_test(c, cal_generic_conv_per_pass);
	tcase_add_test(c, cal_nccl_text_times_in_seconds);
	tcase_add_test(c, cal_nccl_old_text_infers_reduce_scatter);
	tcase_add_test(c, cal_nccl_json_ranks_from_devices);
	tcase_add_test(c, cal_nccl_infers_rooted_and_refuses_ambiguous);
	tcase_add_test(c, cal_nccl_json_malformed_is_placed);
	tcase_add_test(c,
		       cal_nccl_json_refuses_empty_results_and_repeated_keys);
	tcase_add_test(c, cal_json_reader_unescapes_and_links);
	tcase_add_test(c, cal_osu_latency_in_seconds);
	tcase_add_test(c, cal_osu_bw_megabytes_are_ten_to_the_six);
	tcase_add_test(c, cal_osu_allreduce_takes_the_average_column);
	tcase_add_test(c, cal_stream_rates_and_working_sets);
	tcase_add_test(c, cal_deepbench_gemm_tags_the_device);
	tcase_add_test(c, cal_deepbench_conv_skips_missing_passes);
	tcase_add_test(c, cal_deepbench_allreduce_bytes_from_floats);
	tcase_add_test(c, cal_deepbench_rnn_passes);
	tcase_add_test(c, cal_deepbench_rnn_sizes_have_bounds);
	tcase_add_test(c, cal_generic_gemm_and_conv);
	tcase_add_test(c, cal_csv_quotes_blanks_and_crlf);
	tcase_add_test(c, cal_params_are_single_words);
	suite_add_tcase(s, c);
	return s;
}
