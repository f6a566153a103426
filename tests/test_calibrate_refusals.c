/*
 * test_calibrate_refusals.c -- what every importer of calibrate/
 * refuses, whatever its format: each damaged fixture of
 * tests/data/calibrate/ at its line with nothing returned, a sample
 * above a day or below a nanosecond, one tool's output read as
 * another's, a missing file, more samples than the cap, and a header
 * with no rows.
 *
 * Apart from test_calibrate.c, which reads each format's good fixture
 * with its values checked by hand (and the refusals peculiar to one
 * format beside them): these are the limits all the parsers share
 * (cal_parse_file, cal_implausible, CAL_MAX_SAMPLES), checked across
 * the formats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "calibrate/cal.h"
#include "calibrate_util.h"

#define DIR "tests/data/calibrate/"

/* Refused with DLSIM_EPARSE at "DIR file:line: ...needle", nothing out. */
static void refused(const char *format, const char *file, int line,
		    const char *needle)
{
	struct dlsim_err err = { 0, "" };
	struct db_sample *s = (struct db_sample *)&err;
	enum cal_format f;
	char path[256], where[300];
	int64_t n = 7;

	snprintf(path, sizeof(path), DIR "%s", file);
	snprintf(where, sizeof(where), "%s:%d: ", path, line);
	ck_assert_int_eq(cal_format_parse(format, &f, &err), DLSIM_OK);
	ck_assert_msg(cal_parse_file(f, path, &s, &n, &err) == DLSIM_EPARSE,
		      "%s: code %d: %s", file, err.code, err.msg);
	ck_assert_int_eq(err.code, DLSIM_EPARSE);
	ck_assert_msg(strncmp(err.msg, where, strlen(where)) == 0,
		      "'%s' does not start with '%s'", err.msg, where);
	ck_assert_msg(strstr(err.msg, needle) != NULL, "'%s' not in '%s'",
		      needle, err.msg);
	ck_assert(s == NULL);
	ck_assert_int_eq(n, 0);
}

START_TEST(cal_damaged_files_are_refused_at_their_line)
{
	refused("nccl-tests", "empty.txt", 1, "the file is empty");
	refused("nccl-tests", "nccl_truncated.txt", 20,
		"the row has 7 columns, the header 13");
	refused("nccl-tests", "nccl_text_in_number.txt", 20,
		"'time' must be a finite number (got 'fast!')");
	refused("nccl-tests", "nccl_no_header.txt", 15,
		"a result row outside a table");
	refused("nccl-tests", "nccl_wrong.txt", 21, "3 wrong elements");
	refused("nccl-tests", "nccl_truncated.json", 1,
		"malformed JSON: unterminated string");
	refused("osu", "osu_bw_text.txt", 7, "got 'ERROR'");
	/* 1e308 MB/s is a double; in B/s it is not */
	refused("osu", "osu_bw_overflow.txt", 6, "the value overflows once "
		"converted to B/s");
	/* and 1e-305 us is a double; in s it is not a normal one */
	refused("osu", "osu_latency_underflow.txt", 5, "the value underflows "
		"once converted to s");
	/* 1e308 us is finite, but no sample of a microbenchmark: refused
	 * above a day (and a rate above 1e15 B/s) */
	refused("osu", "osu_latency_huge.txt", 5, "1e+302 s is implausibly "
		"large for one sample");
	/* nor is anything under a nanosecond */
	refused("osu", "osu_latency_tiny.txt", 5, "1e-12 s is implausibly "
		"small for one sample");
	refused("osu", "osu_latency_truncated.txt", 7,
		"the row has 1 columns, the header 2");
	refused("osu", "osu_no_header.txt", 2, "a result row outside a table");
	/* a row with a negative size is a damaged row, not noise */
	refused("osu", "osu_latency_negative.txt", 5,
		"'Size' must be a whole number 0..1152921504606846976 (got "
		"'-8')");
	refused("nccl-tests", "nccl_negative_size.txt", 19,
		"'size' must be a whole number 0..1152921504606846976 (got "
		"'-1024')");
	refused("stream", "stream_negative_size.txt", 6,
		"'Array size' must be a positive integer (got '-5')");
	refused("stream", "stream_truncated.txt", 30,
		"the row has 3 columns, expected 5");
	refused("deepbench", "deepbench_gemm_truncated.csv", 4,
		"the row has 10 fields, the DeepBench GEMM header 14");
	refused("deepbench", "deepbench_gemm_negative.csv", 3,
		"'time_ms' must be positive");
	refused("deepbench", "deepbench_unknown_header.csv", 1,
		"unknown header");
	refused("deepbench", "deepbench_bad_dtype.csv", 6,
		"unknown dtype: precision 'Double'");
	refused("gemm-csv", "gemm_bad_dtype.csv", 4, "unknown dtype 'fp13'");
	refused("gemm-csv", "gemm_no_header.csv", 1,
		"unknown header: expected 'm,n,k,dtype,time_s'");
	refused("conv-csv", "conv_text.csv", 3,
		"'h' must be a positive integer (got 'fourteen')");
	/* rows no device produces: 2e36 FLOPs in a millisecond, above
	 * 1e18 FLOP/s; an output of no pixels */
	refused("gemm-csv", "gemm_too_fast.csv", 3, "2e+36 FLOPs in 0.001 s "
		"is 2e+39 FLOP/s, above the 1e18 FLOP/s no device reaches");
	refused("conv-csv", "conv_filter_too_big.csv", 3, "a 30x30 filter "
		"is larger than the input, 5x5 padded by 0, 0");
	/* DeepBench's first MI25 row (341 x 79 outputs of a 20x5 filter, 32
	 * channels out, 4 images: 2 x 4 x 32 x 100 x 79 x 341 = 6.896e8
	 * FLOPs) in 1e-10 s */
	refused("deepbench", "deepbench_conv_too_fast.csv", 3, "6.896e+08 "
		"FLOPs in 1e-10 s is 6.9e+18 FLOP/s");
}
END_TEST

/* man dlsim: "a time above a day ... is refused" -- 86400 s, not the
 * 1e5 s it once was (86401 and 100000 s were imported). */
START_TEST(cal_a_day_is_the_longest_sample)
{
	static const struct {
		enum cal_format f;
		const char *text, *says;
	} bad[] = {
		{ CAL_GEMM_CSV, "m,n,k,dtype,time_s\n8,8,8,fp32,86401\n",
		  "mem.txt:2: 86401 s is implausibly large for one sample "
		  "(above a day, 86400 s)" },
		{ CAL_GEMM_CSV, "m,n,k,dtype,time_s\n8,8,8,fp32,1\n"
		  "8,8,8,fp32,100000\n", "mem.txt:3: 100000 s is implausibly "
		  "large for one sample (above a day, 86400 s)" },
		{ CAL_OSU, "# OSU MPI Latency Test v5.6.3\n# Size  Latency "
		  "(us)\n0  86400000001\n", "mem.txt:3: 86400 s is "
		  "implausibly large" },
		{ CAL_GEMM_CSV, "m,n,k,dtype,time_s\n8,8,8,fp32,9.9e-10\n",
		  "mem.txt:2: 9.9e-10 s is implausibly small for one sample "
		  "(below a nanosecond)" },
	};
	struct dlsim_err err = { 0, "" };
	struct db_sample *s;
	int64_t n;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		dlsim_err_clear(&err);
		ck_assert_msg(parse_text(bad[i].f, bad[i].text, 100, &s, &n,
					 &err) == DLSIM_EPARSE,
			      "case %zu accepted", i);
		ck_assert_msg(strstr(err.msg, bad[i].says) == err.msg,
			      "'%s' does not start '%s'", err.msg,
			      bad[i].says);
		ck_assert(s == NULL && n == 0);
	}
	ck_assert_msg(parse_text(CAL_GEMM_CSV, "m,n,k,dtype,time_s\n"
				 "8,8,8,fp32,86400\n8,8,8,fp32,1e-9\n", 100,
				 &s, &n, &err) == DLSIM_OK, "%s", err.msg);
	ck_assert_int_eq(n, 2);
	ck_assert(s[0].value == 86400.0);
	free(s);
	ck_assert(cal_implausible(86400.5, "s") && !cal_implausible(86400.0,
								    "s"));
}
END_TEST

START_TEST(cal_files_of_another_format_are_refused)
{
	refused("osu", "stream.txt", 33, "not OSU output");
	refused("stream", "osu_bw.txt", 9, "not STREAM output");
	refused("nccl-tests", "osu_bw.txt", 5, "a result row outside a table");
	refused("nccl-tests", "stream.txt", 33, "not nccl-tests output");
	refused("deepbench", "gemm.csv", 1, "unknown header");
	refused("gemm-csv", "conv.csv", 1, "unknown header");
	refused("conv-csv", "deepbench_conv.csv", 1, "unknown header");
}
END_TEST

START_TEST(cal_missing_file_is_an_io_error)
{
	struct dlsim_err err = { 0, "" };
	struct db_sample *s = (struct db_sample *)&err;
	int64_t n = 3;

	ck_assert_int_eq(cal_parse_file(CAL_OSU, DIR "no-such.txt", &s, &n,
					&err), DLSIM_EIO);
	ck_assert(strstr(err.msg, DIR "no-such.txt") != NULL);
	ck_assert(s == NULL && n == 0);
	dlsim_err_clear(&err);
	ck_assert_int_eq(cal_parse_file(CAL_FORMAT_COUNT, DIR "gemm.csv", &s,
					&n, &err), DLSIM_EINVAL);
}
END_TEST

START_TEST(cal_sample_cap_refuses_the_file)
{
	/* the cap is CAL_MAX_SAMPLES (10^7); here 2, on a 3-row table */
	struct dlsim_err err = { 0, "" };
	struct db_sample *s;
	int64_t n;

	ck_assert_int_eq(CAL_MAX_SAMPLES, 10000000);
	ck_assert_int_eq(parse_text(CAL_GEMM_CSV, "m,n,k,dtype,time_s\n"
				    "1,1,1,fp32,1\n2,2,2,fp32,1\n"
				    "3,3,3,fp32,1\n", 2, &s, &n, &err),
			 DLSIM_ENOMEM);
	ck_assert_str_eq(err.msg, "mem.txt:4: more than 2 samples in one "
			 "import; split the file");
	ck_assert(s == NULL && n == 0);
	ck_assert_int_eq(parse_text(CAL_GEMM_CSV, "m,n,k,dtype,time_s\n"
				    "1,1,1,fp32,1\n2,2,2,fp32,1\n", 2, &s, &n,
				    &err), DLSIM_OK);
	ck_assert_int_eq(n, 2);
	free(s);
}
END_TEST

START_TEST(cal_header_only_is_no_measurement)
{
	struct dlsim_err err = { 0, "" };
	struct db_sample *s;
	int64_t n;

	ck_assert_int_eq(parse_text(CAL_CONV_CSV, "n,c,h,w,k,r,s,stride,pad,"
				    "dtype,time_s\n", 10, &s, &n, &err),
			 DLSIM_EPARSE);
	ck_assert_str_eq(err.msg, "mem.txt:1: no measurements in the file");
	ck_assert(s == NULL && n == 0);
}
END_TEST

Suite *suite_calibrate_refusals(void)
{
	Suite *s = suite_create("calibrate_refusals");
	TCase *c = tcase_create("refusals");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, cal_damaged_files_are_refused_at_their_line);
	tcase_add_test(c, cal_a_day_is_the_longest_sample);
	tcase_add_test(c, cal_files_of_another_format_are_refused);
	tcase_add_test(c, cal_missing_file_is_an_io_error);
	tcase_add_test(c, cal_sample_cap_refuses_the_file);
	tcase_add_test(c, cal_header_only_is_no_measurement);
	suite_add_tcase(s, c);
	return s;
}
