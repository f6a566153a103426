/*
 * test_report.c -- the report helpers: units, CSV quoting, JSON escaping,
 * format names, and that a write error is reported.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "dlsim.h"
#include "reports/report.h"

/* Capture what fn writes to a memory stream. */
static char *capture_json_string(const char *s)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ck_assert(f != NULL);
	report_json_string(f, s);
	fclose(f);
	return buf;
}

START_TEST(report_units_pick_readable_scales)
{
	char b[32];

	ck_assert_str_eq(report_bytes(512.0, b, sizeof(b)), "512 B");
	ck_assert_str_eq(report_bytes(1536.0, b, sizeof(b)), "1.50 KiB");
	ck_assert_str_eq(report_bytes(16.0 * 1073741824.0, b, sizeof(b)),
			 "16.00 GiB");
	ck_assert_str_eq(report_seconds(2.5, b, sizeof(b)), "2.500 s");
	ck_assert_str_eq(report_seconds(0.0123, b, sizeof(b)), "12.300 ms");
	ck_assert_str_eq(report_seconds(4.5e-6, b, sizeof(b)), "4.500 us");
	/* a day and more: four significant digits, not a long number */
	ck_assert_str_eq(report_seconds(1.5e13, b, sizeof(b)), "1.5e+13 s");
	ck_assert_str_eq(report_seconds(99999.0, b, sizeof(b)), "99999.000 s");
	/* rates: one decimal, three significant digits below 0.1 */
	ck_assert_str_eq(report_rate(1209.74, b, sizeof(b)), "1209.7");
	ck_assert_str_eq(report_rate(8.0 / 308.0, b, sizeof(b)), "0.026");
	ck_assert_str_eq(report_rate(0.0, b, sizeof(b)), "0.0");
}
END_TEST

START_TEST(report_json_escapes_control_and_quotes)
{
	char *s = capture_json_string("a\"b\\c\nd");

	ck_assert_str_eq(s, "\"a\\\"b\\\\c\\u000ad\"");
	free(s);
}
END_TEST

START_TEST(report_json_numbers_round_trip_and_null)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	report_json_number(f, 0.1);
	fputc(' ', f);
	report_json_number(f, NAN);
	fclose(f);
	ck_assert(strtod(buf, NULL) == 0.1);
	ck_assert(strstr(buf, " null") != NULL);
	free(buf);
}
END_TEST

START_TEST(report_csv_quotes_only_when_needed)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	report_csv_field(f, "plain");
	fputc('|', f);
	report_csv_field(f, "a,b \"c\"");
	fclose(f);
	ck_assert_str_eq(buf, "plain|\"a,b \"\"c\"\"\"");
	free(buf);
}
END_TEST

START_TEST(report_format_names)
{
	enum report_format fmt;
	struct dlsim_err err = { 0, "" };

	ck_assert_int_eq(report_format_parse("json", &fmt, &err), DLSIM_OK);
	ck_assert_int_eq(fmt, REPORT_JSON);
	ck_assert_str_eq(report_format_name(REPORT_CSV), "csv");
	ck_assert_int_eq(report_format_parse("xml", &fmt, &err),
			 DLSIM_ENOTFOUND);
	ck_assert(strstr(err.msg, "xml") != NULL);
}
END_TEST

START_TEST(report_model_write_error_is_reported)
{
	struct model *m = NULL;
	struct dlsim_err err = { 0, "" };
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		return;
	setvbuf(f, NULL, _IONBF, 0);
	ck_assert_int_eq(model_zoo_build("lenet5", &m, NULL), DLSIM_OK);
	ck_assert_int_eq(report_model(f, REPORT_TABLE, m, &err), DLSIM_EIO);
	fclose(f);
	model_free(m);
}
END_TEST

Suite *suite_report(void)
{
	Suite *s = suite_create("report");
	TCase *c = tcase_create("report");

	tcase_add_test(c, report_units_pick_readable_scales);
	tcase_add_test(c, report_json_escapes_control_and_quotes);
	tcase_add_test(c, report_json_numbers_round_trip_and_null);
	tcase_add_test(c, report_csv_quotes_only_when_needed);
	tcase_add_test(c, report_format_names);
	tcase_add_test(c, report_model_write_error_is_reported);
	suite_add_tcase(s, c);
	return s;
}
