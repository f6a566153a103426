/*
 * test_report.c -- the report helpers: units, CSV quoting, JSON escaping,
 * format names, and that a write error is reported; and validate's
 * record in its three formats.
 */
#include <errno.h>
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

	ck_assert_msg(f != NULL, "/dev/full: %s", strerror(errno));
	setvbuf(f, NULL, _IONBF, 0);
	ck_assert_int_eq(model_zoo_build("lenet5", &m, NULL), DLSIM_OK);
	ck_assert_int_eq(report_model(f, REPORT_TABLE, m, &err), DLSIM_EIO);
	fclose(f);
	model_free(m);
}
END_TEST

/* What report_validation writes of r in format fmt (malloc'd). */
static char *capture_validation(enum report_format fmt,
				const struct cal_val_report *r)
{
	struct dlsim_err err = { 0, "" };
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ck_assert(f != NULL);
	ck_assert_int_eq(report_validation(f, fmt, r, &err), DLSIM_OK);
	fclose(f);
	return buf;
}

/*
 * validate's record of two sets, its figures binary fractions so that
 * every digit is known: "mine", 2 rows (1 skipped), median 0.125, P90
 * 0.5, bias -0.09375 (the table's -9.4%, 9.375 being nearer 9.4), worst
 * row a, 6 predicted against 4 measured (+50%); "empty", no row compared
 * (3 skipped), whose figures are n/a in the table, empty fields in
 * CSV (as predict's unknown figures) and null in JSON.  The JSON is the contract, compared whole.
 */
START_TEST(report_validation_writes_each_figure)
{
	static struct cal_val_report r;
	struct cal_val_set *mine = &r.set[0], *empty = &r.set[1];
	char want[1024], *out;

	memset(&r, 0, sizeof(r));
	r.n_sets = 2;
	snprintf(mine->name, sizeof(mine->name), "mine");
	snprintf(mine->title, sizeof(mine->title), "t");
	snprintf(mine->unit, sizeof(mine->unit), "s");
	mine->rows = 2;
	mine->skipped = 1;
	mine->median_abs_error = 0.125;
	mine->p90_abs_error = 0.5;
	mine->median_signed_error = -0.09375;
	mine->n_worst = 1;
	snprintf(mine->worst[0].what, sizeof(mine->worst[0].what), "a");
	mine->worst[0].measured = 4.0;
	mine->worst[0].predicted = 6.0;
	mine->worst[0].error = 0.5;
	mine->n_reasons = 1;
	snprintf(mine->reason[0].why, sizeof(mine->reason[0].why),
		 "no prediction");
	mine->reason[0].n = 1;
	snprintf(empty->name, sizeof(empty->name), "empty");
	snprintf(empty->title, sizeof(empty->title), "e");
	snprintf(empty->unit, sizeof(empty->unit), "s");
	empty->skipped = 3;
	empty->median_abs_error = NAN;
	empty->p90_abs_error = NAN;
	empty->median_signed_error = NAN;

	out = capture_validation(REPORT_TABLE, &r);
	ck_assert_msg(strstr(out, "\nmine                     2       1"
			     "    12.5%    50.0%    -9.4%  t\n") != NULL,
		      "%s", out);
	ck_assert_msg(strstr(out, "\nempty                    0       3"
			     "      n/a      n/a      n/a  e\n") != NULL,
		      "%s", out);
	ck_assert(strstr(out, "\nmine: worst rows (s, measured / predicted)\n"
			 "    +50.0%  4 / 6  a\n  skipped 1: no prediction\n"));
	free(out);

	out = capture_validation(REPORT_CSV, &r);
	ck_assert_str_eq(out, "set,rows,skipped,median_abs_error,"
			 "p90_abs_error,median_signed_error\n"
			 "mine,2,1,0.125,0.5,-0.09375\n"
			 "empty,0,3,,,\n");
	free(out);

	out = capture_validation(REPORT_JSON, &r);
	snprintf(want, sizeof(want), "{\"dlsim_version\": \"%s\", \"sets\": {"
		 "\n  \"mine\": {\"title\": \"t\", \"unit\": \"s\", "
		 "\"rows\": 2, \"skipped\": 1, \"median_abs_error\": 0.125, "
		 "\"p90_abs_error\": 0.5, \"median_signed_error\": -0.09375, "
		 "\"worst\": [{\"what\": \"a\", \"measured\": 4, "
		 "\"predicted\": 6, \"error\": 0.5}], \"skip_reasons\": "
		 "[{\"n\": 1, \"why\": \"no prediction\"}]},"
		 "\n  \"empty\": {\"title\": \"e\", \"unit\": \"s\", \"rows\": "
		 "0, \"skipped\": 3, \"median_abs_error\": null, "
		 "\"p90_abs_error\": null, \"median_signed_error\": null, "
		 "\"worst\": [], \"skip_reasons\": []}}}\n", dlsim_version());
	ck_assert_str_eq(out, want);
	free(out);
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
	tcase_add_test(c, report_validation_writes_each_figure);
	suite_add_tcase(s, c);
	return s;
}
