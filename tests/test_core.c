/*
 * test_core.c -- the shared helpers of core/: the error record, status
 * texts, precisions, checked number parsing, ceil(log2), bounded copies,
 * whole-file reads, and the YAML line finder the loaders' messages use.
 *
 * These are the pieces every message and count in the library rests on,
 * so each is pinned to exact values worked out by hand.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "dlsim.h"
#include "core/core.h"
#include "core/yaml.h"

/* ---------------------------------------------------------------- */
/* Errors                                                            */
/* ---------------------------------------------------------------- */

START_TEST(err_set_keeps_first_message_and_returns_code)
{
	struct dlsim_err err = { 0 };

	ck_assert_int_eq(dlsim_err_set(&err, DLSIM_ENOTFOUND, "no '%s' (%d)",
				       "v100", 7), DLSIM_ENOTFOUND);
	ck_assert_int_eq(err.code, DLSIM_ENOTFOUND);
	ck_assert_str_eq(err.msg, "no 'v100' (7)");
	/* a later failure on the way out must not hide the root cause, but
	 * its code still comes back so that `return dlsim_err_set(...)`
	 * propagates it */
	ck_assert_int_eq(dlsim_err_set(&err, DLSIM_EIO, "outer"), DLSIM_EIO);
	ck_assert_int_eq(err.code, DLSIM_ENOTFOUND);
	ck_assert_str_eq(err.msg, "no 'v100' (7)");
	dlsim_err_clear(&err);
	ck_assert_int_eq(err.code, DLSIM_OK);
	ck_assert_str_eq(err.msg, "");
	/* after a clear the next failure is recorded again */
	dlsim_err_set(&err, DLSIM_ERANGE, "second");
	ck_assert_int_eq(err.code, DLSIM_ERANGE);
	ck_assert_str_eq(err.msg, "second");
}
END_TEST

START_TEST(err_set_accepts_null_err)
{
	ck_assert_int_eq(dlsim_err_set(NULL, DLSIM_EPARSE, "x %d", 1),
			 DLSIM_EPARSE);
	dlsim_err_clear(NULL);    /* must not crash */
}
END_TEST

START_TEST(err_set_truncates_long_message)
{
	struct dlsim_err err = { 0 };
	char big[3 * DLSIM_ERR_LEN];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	dlsim_err_set(&err, DLSIM_EINVAL, "%s", big);
	/* DLSIM_ERR_LEN bytes including the terminator */
	ck_assert_uint_eq(strlen(err.msg), DLSIM_ERR_LEN - 1);
}
END_TEST

START_TEST(strerror_has_text_for_every_code)
{
	const char *unknown = dlsim_strerror(-1);
	int i, j;

	/* the header's own example */
	ck_assert_str_eq(dlsim_strerror(DLSIM_EINVAL), "invalid argument");
	for (i = DLSIM_OK; i <= DLSIM_EDB; i++) {
		ck_assert_ptr_nonnull(dlsim_strerror(i));
		ck_assert_uint_gt(strlen(dlsim_strerror(i)), 0);
		ck_assert_str_ne(dlsim_strerror(i), unknown);
		for (j = DLSIM_OK; j < i; j++)
			ck_assert_str_ne(dlsim_strerror(i), dlsim_strerror(j));
	}
	/* never NULL, even for codes that do not exist */
	ck_assert_ptr_nonnull(unknown);
	ck_assert_str_eq(dlsim_strerror(DLSIM_EDB + 1), unknown);
	ck_assert_str_eq(dlsim_strerror(INT_MAX), unknown);
	ck_assert_str_eq(dlsim_strerror(INT_MIN), unknown);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Precisions                                                        */
/* ---------------------------------------------------------------- */

START_TEST(precision_names_bytes_and_parse_round_trip)
{
	static const char *const names[DLSIM_PRECISION_COUNT] = {
		"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8"
	};
	/* IEEE 754 binary64/32/16, bfloat16, 8-bit formats; tf32 is stored
	 * as fp32 (dlsim.h), so 4 bytes */
	static const int bytes[DLSIM_PRECISION_COUNT] = {
		8, 4, 4, 2, 2, 1, 1
	};
	int p;

	for (p = 0; p < DLSIM_PRECISION_COUNT; p++) {
		enum dlsim_precision got = DLSIM_PRECISION_COUNT;
		struct dlsim_err err = { 0 };

		ck_assert_str_eq(dlsim_precision_name(p), names[p]);
		ck_assert_int_eq(dlsim_precision_bytes(p), bytes[p]);
		ck_assert_int_eq(dlsim_precision_parse(names[p], &got, &err),
				 DLSIM_OK);
		ck_assert_int_eq(got, p);
		ck_assert_int_eq(err.code, DLSIM_OK);
	}
	ck_assert_ptr_null(dlsim_precision_name(DLSIM_PRECISION_COUNT));
	ck_assert_ptr_null(dlsim_precision_name((enum dlsim_precision)-1));
	ck_assert_int_eq(dlsim_precision_bytes(DLSIM_PRECISION_COUNT), 0);
}
END_TEST

START_TEST(precision_parse_unknown_lists_valid_names)
{
	struct dlsim_err err = { 0 };
	enum dlsim_precision got = DLSIM_FP32;

	ck_assert_int_eq(dlsim_precision_parse("fp128", &got, &err),
			 DLSIM_ENOTFOUND);
	ck_assert_int_eq(err.code, DLSIM_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(err.msg, "fp128"));
	ck_assert_ptr_nonnull(strstr(err.msg, "fp64, fp32, tf32, fp16, "
				     "bf16, fp8, int8"));
	dlsim_err_clear(&err);
	ck_assert_int_eq(dlsim_precision_parse(NULL, &got, &err),
			 DLSIM_ENOTFOUND);
	ck_assert_int_eq(dlsim_precision_parse("", &got, NULL),
			 DLSIM_ENOTFOUND);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Numbers                                                           */
/* ---------------------------------------------------------------- */

START_TEST(parse_count_accepts_plain_positive_integer)
{
	struct dlsim_err err = { 0 };
	int64_t v = 0;

	ck_assert_int_eq(core_parse_count("64", 100, &v, &err, "batch"),
			 DLSIM_OK);
	ck_assert_int_eq(v, 64);
	/* the bound is inclusive */
	ck_assert_int_eq(core_parse_count("100", 100, &v, &err, "batch"),
			 DLSIM_OK);
	ck_assert_int_eq(v, 100);
	ck_assert_int_eq(core_parse_count("9223372036854775807", INT64_MAX,
					  &v, &err, "n"), DLSIM_OK);
	ck_assert_int_eq(v, INT64_MAX);
	ck_assert_int_eq(err.code, DLSIM_OK);
}
END_TEST

/* Each bad string with the code it must give: not a positive integer at
 * all is EINVAL; a well-formed integer that is too big is ERANGE. */
static const struct {
	const char *s;
	int code;
} bad_counts[] = {
	{ "", DLSIM_EINVAL },
	{ "0", DLSIM_EINVAL },
	{ "-3", DLSIM_EINVAL },
	{ "+3", DLSIM_EINVAL },
	{ " 3", DLSIM_EINVAL },
	{ "12abc", DLSIM_EINVAL },
	{ "1e99", DLSIM_EINVAL },
	{ "3.0", DLSIM_EINVAL },
	{ "101", DLSIM_ERANGE },                  /* max is 100 below */
	{ "99999999999999999999", DLSIM_ERANGE }, /* > 2^63 - 1 */
};

START_TEST(parse_count_rejects_bad_strings)
{
	struct dlsim_err err = { 0 };
	int64_t v = 0;

	ck_assert_int_eq(core_parse_count(bad_counts[_i].s, 100, &v, &err,
					  "the batch"), bad_counts[_i].code);
	ck_assert_int_eq(err.code, bad_counts[_i].code);
	/* the message says what was being parsed and what was given */
	ck_assert_ptr_nonnull(strstr(err.msg, "the batch"));
	ck_assert_ptr_nonnull(strstr(err.msg, bad_counts[_i].s));
}
END_TEST

START_TEST(parse_count_rejects_null)
{
	int64_t v = 0;

	ck_assert_int_eq(core_parse_count(NULL, 100, &v, NULL, "n"),
			 DLSIM_EINVAL);
}
END_TEST

START_TEST(parse_double_accepts_finite_numbers)
{
	struct dlsim_err err = { 0 };
	double v = 0.0;

	ck_assert_int_eq(core_parse_double("1.5", &v, &err, "x"), DLSIM_OK);
	ck_assert(v == 1.5);
	ck_assert_int_eq(core_parse_double("-2e3", &v, &err, "x"), DLSIM_OK);
	ck_assert(v == -2000.0);
	ck_assert_int_eq(core_parse_double("25", &v, &err, "x"), DLSIM_OK);
	ck_assert(v == 25.0);
	ck_assert_int_eq(core_parse_double(".5", &v, &err, "x"), DLSIM_OK);
	ck_assert(v == 0.5);
	ck_assert_int_eq(core_parse_double("+1.E2", &v, &err, "x"), DLSIM_OK);
	ck_assert(v == 100.0);
	ck_assert_int_eq(err.code, DLSIM_OK);
}
END_TEST

/* The mark every CSV reader skips, and only at the start. */
START_TEST(utf8_bom_is_three_bytes_at_the_start)
{
	ck_assert_uint_eq(core_utf8_bom("\xef\xbb\xbfm,n", 6), 3);
	ck_assert_uint_eq(core_utf8_bom("\xef\xbb\xbf", 3), 3);
	ck_assert_uint_eq(core_utf8_bom("\xef\xbb\xbf", 2), 0);
	ck_assert_uint_eq(core_utf8_bom("m,\xef\xbb\xbf", 5), 0);
	ck_assert_uint_eq(core_utf8_bom("", 0), 0);
}
END_TEST

/* strtod reads hexadecimal and skips leading blanks; the one number
 * parser of flags and files does not, and says which it saw. */
START_TEST(parse_double_refuses_hex_and_blanks)
{
	static const struct {
		const char *s, *says;
	} bad[] = {
		{ "0x10", "x must be a decimal number, not hexadecimal (got "
		  "'0x10')" },
		{ "0x1p-8", "not hexadecimal (got '0x1p-8')" },
		{ "-0X1P3", "not hexadecimal (got '-0X1P3')" },
		{ " 5", "x must be a number without blanks around it (got "
		  "' 5')" },
		{ "5\t", "without blanks around it" },
		{ "\t0x10", "without blanks around it" },
		{ "infinity", "x must be a finite number (got 'infinity')" },
		{ "NaN", "x must be a finite number (got 'NaN')" },
		{ "-inf", "x must be a finite number (got '-inf')" },
		{ "5e", "x must be a finite number (got '5e')" },
		{ ".", "x must be a finite number (got '.')" },
		{ "1e5x", "x must be a finite number (got '1e5x')" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct dlsim_err err = { 0 };
		double v = 7.0;

		ck_assert_msg(core_parse_double(bad[i].s, &v, &err, "x") ==
			      DLSIM_EINVAL, "'%s' accepted", bad[i].s);
		ck_assert_msg(strstr(err.msg, bad[i].says) != NULL,
			      "'%s' lacks '%s'", err.msg, bad[i].says);
		ck_assert(v == 7.0);
	}
}
END_TEST

START_TEST(parse_double_rejects_non_numbers_and_infinities)
{
	static const char *const bad[] = {
		"", "abc", "1.5x", "1e999", "inf", "-inf", "nan", "1,5"
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct dlsim_err err = { 0 };
		double v = 0.0;

		ck_assert_msg(core_parse_double(bad[i], &v, &err,
						"the bucket size") ==
			      DLSIM_EINVAL, "'%s' accepted", bad[i]);
		ck_assert_ptr_nonnull(strstr(err.msg, "the bucket size"));
	}
	ck_assert_int_eq(core_parse_double(NULL, &(double){ 0 }, NULL, "x"),
			 DLSIM_EINVAL);
	/* strtod underflows below about 2.2e-308: said so, not "finite" */
	{
		struct dlsim_err err = { 0 };

		ck_assert_int_eq(core_parse_double("1e-400", &(double){ 0 },
						   &err, "time_s"),
				 DLSIM_EINVAL);
		ck_assert_str_eq(err.msg, "time_s is too close to zero for a "
				 "double (got '1e-400')");
	}
}
END_TEST

START_TEST(ceil_log2_small_values)
{
	/* 2^0 = 1, 2^1 = 2, 2^1 < 3 <= 2^2, 2^10 = 1024, 2^10 < 1025 */
	ck_assert(core_ceil_log2(1.0) == 0.0);
	ck_assert(core_ceil_log2(2.0) == 1.0);
	ck_assert(core_ceil_log2(3.0) == 2.0);
	ck_assert(core_ceil_log2(4.0) == 2.0);
	ck_assert(core_ceil_log2(5.0) == 3.0);
	ck_assert(core_ceil_log2(1024.0) == 10.0);
	ck_assert(core_ceil_log2(1025.0) == 11.0);
	/* x <= 1 gives 0 (header) */
	ck_assert(core_ceil_log2(0.5) == 0.0);
	ck_assert(core_ceil_log2(0.0) == 0.0);
	ck_assert(core_ceil_log2(-8.0) == 0.0);
	/* not finite: 0 (header) */
	ck_assert(core_ceil_log2(INFINITY) == 0.0);
	ck_assert(core_ceil_log2(NAN) == 0.0);
	/* the fraction decides: 2^1023 (the largest power), 3 x 2^1022 */
	ck_assert(core_ceil_log2(ldexp(1.0, 1023)) == 1023.0);
	ck_assert(core_ceil_log2(ldexp(1.5, 1023)) == 1024.0);
	ck_assert(core_ceil_log2(DBL_MAX) == 1024.0);
	/* just above 1: 1 + 2^-52 needs one doubling */
	ck_assert(core_ceil_log2(1.0 + DBL_EPSILON) == 1.0);
}
END_TEST

/*
 * Depths take ceil log2 of reduction sizes such as N H' W' (a weight
 * gradient) which, for large batches, exceed 2^40.  2^41 + 1 =
 * 2,199,023,255,553 is exact in a double and lies above 2^41, so its
 * ceil log2 is 42; likewise 2^52 + 1 needs 53.  Exact powers of two
 * stay put.
 */
START_TEST(ceil_log2_exact_above_two_to_the_forty)
{
	ck_assert(core_ceil_log2(ldexp(1.0, 41)) == 41.0);
	ck_assert_msg(core_ceil_log2(ldexp(1.0, 41) + 1.0) == 42.0,
		      "ceil_log2(2^41 + 1) = %g, expected 42",
		      core_ceil_log2(ldexp(1.0, 41) + 1.0));
	ck_assert_msg(core_ceil_log2(ldexp(1.0, 52) + 1.0) == 53.0,
		      "ceil_log2(2^52 + 1) = %g, expected 53",
		      core_ceil_log2(ldexp(1.0, 52) + 1.0));
	ck_assert(core_ceil_log2(ldexp(1.0, 60)) == 60.0);
}
END_TEST

/* ---------------------------------------------------------------- */
/* Strings and name tables                                           */
/* ---------------------------------------------------------------- */

START_TEST(strlcpy_truncates_and_reports_it)
{
	char buf[4];

	/* "abc" and its terminator fill 4 bytes exactly: not cut */
	ck_assert_int_eq(core_strlcpy(buf, "abc", sizeof(buf)), 0);
	ck_assert_str_eq(buf, "abc");
	ck_assert_int_eq(core_strlcpy(buf, "abcd", sizeof(buf)), 1);
	ck_assert_str_eq(buf, "abc");
	ck_assert_int_eq(core_strlcpy(buf, "abcdefgh", sizeof(buf)), 1);
	ck_assert_str_eq(buf, "abc");
	ck_assert_int_eq(core_strlcpy(buf, "", sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(core_strlcpy(buf, NULL, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	/* a zero-sized destination is not touched */
	buf[0] = 'z';
	ck_assert_int_eq(core_strlcpy(buf, "abc", 0), 1);
	ck_assert_int_eq(buf[0], 'z');
}
END_TEST

START_TEST(name_index_and_list)
{
	static const char *const table[] = { "ring", "tree", "ps", NULL };
	char buf[64];

	ck_assert_int_eq(core_name_index(table, "ring"), 0);
	ck_assert_int_eq(core_name_index(table, "ps"), 2);
	ck_assert_int_eq(core_name_index(table, "Ring"), -1);
	ck_assert_int_eq(core_name_index(table, ""), -1);
	ck_assert_int_eq(core_name_index(table, NULL), -1);
	core_name_list(table, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ring, tree, ps");
	/* "ring, tree, ps" cut to 7 bytes and a terminator */
	core_name_list(table, buf, 8);
	ck_assert_str_eq(buf, "ring, t");
}
END_TEST

/* ---------------------------------------------------------------- */
/* Files                                                             */
/* ---------------------------------------------------------------- */

START_TEST(read_file_missing_names_path)
{
	struct dlsim_err err = { 0 };
	char *text = (char *)&err;     /* must come back NULL */
	size_t len = 99;

	ck_assert_int_eq(core_read_file("tests/data/no-such-file.yaml", &text,
					&len, &err), DLSIM_EIO);
	ck_assert_int_eq(err.code, DLSIM_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "tests/data/no-such-file.yaml"));
	ck_assert_ptr_null(text);
	ck_assert_uint_eq(len, 0);
}
END_TEST

/* A directory opens on Linux but cannot be read: still DLSIM_EIO. */
START_TEST(read_file_directory_is_eio)
{
	struct dlsim_err err = { 0 };
	char *text = NULL;
	size_t len = 0;

	ck_assert_int_eq(core_read_file("tests/data", &text, &len, &err),
			 DLSIM_EIO);
	ck_assert_ptr_nonnull(strstr(err.msg, "tests/data"));
	ck_assert_ptr_null(text);
}
END_TEST

/* A file larger than the first buffer (8 KiB) comes back whole and
 * NUL-terminated, embedded NULs included. */
START_TEST(read_file_reads_whole_file)
{
	char path[] = "/tmp/dlsim-test-core-XXXXXX";
	struct dlsim_err err = { 0 };
	size_t n = 20000, len = 0, i;
	char *want = malloc(n), *text = NULL;
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_ptr_nonnull(want);
	ck_assert_int_ge(fd, 0);
	for (i = 0; i < n; i++)
		want[i] = (char)(i % 251);   /* includes 0 bytes */
	f = fdopen(fd, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(want, 1, n, f), n);
	fclose(f);
	ck_assert_int_eq(core_read_file(path, &text, &len, &err), DLSIM_OK);
	unlink(path);
	ck_assert_uint_eq(len, n);
	ck_assert_int_eq(memcmp(text, want, n), 0);
	ck_assert_int_eq(text[n], '\0');
	free(text);
	free(want);
}
END_TEST

/* ---------------------------------------------------------------- */
/* YAML lines                                                        */
/* ---------------------------------------------------------------- */

static const char doc[] =
	"# a comment\n"          /* 1 */
	"a:\n"                   /* 2 */
	"  - x: 1\n"             /* 3 */
	"  - b: 2\n"             /* 4 */
	"    c:\n"               /* 5 */
	"      d: 3\n"           /* 6 */
	"e: [4, 5]\n";           /* 7 */

START_TEST(yaml_line_follows_nested_paths)
{
	size_t n = strlen(doc);

	ck_assert_int_eq(core_yaml_line(doc, n, "a.0.x"), 3);
	ck_assert_int_eq(core_yaml_line(doc, n, "a.1.b"), 4);
	ck_assert_int_eq(core_yaml_line(doc, n, "a.1.c.d"), 6);
	ck_assert_int_eq(core_yaml_line(doc, n, "e"), 7);
	ck_assert_int_eq(core_yaml_line(doc, n, "e.1"), 7);
	/* the sequence under a starts at its first "-" */
	ck_assert_int_eq(core_yaml_line(doc, n, "a"), 3);
}
END_TEST

/*
 * Nesting: doc's deepest collection is 4 levels down (the document's
 * mapping, a's sequence, its second entry, c's mapping): allowed.  A
 * flow mapping nested k deep on line 2 under a top-level mapping is
 * k + 1 levels: CORE_YAML_MAX_DEPTH - 1 of them pass, one more is
 * refused on its line; text that does not parse is left to the loader.
 */
static int nested(int k)
{
	char text[1024];      /* 5 k + 12 bytes: k up to 200 */
	int i, w;

	w = snprintf(text, sizeof(text), "name: x\nx: ");
	for (i = 0; i < k; i++)
		w += snprintf(text + w, sizeof(text) - (size_t)w, "{a: ");
	w += snprintf(text + w, sizeof(text) - (size_t)w, "1");
	for (i = 0; i < k; i++)
		w += snprintf(text + w, sizeof(text) - (size_t)w, "}");
	return core_yaml_too_deep(text, (size_t)w);
}

START_TEST(yaml_too_deep_refuses_deep_nesting)
{
	ck_assert_int_eq(core_yaml_too_deep(doc, strlen(doc)), 0);
	ck_assert_int_eq(nested(CORE_YAML_MAX_DEPTH - 1), 0);
	ck_assert_int_eq(nested(CORE_YAML_MAX_DEPTH), 2);
	ck_assert_int_eq(nested(100), 2);
	ck_assert_int_eq(core_yaml_too_deep("a: [1\n", 6), 0);
}
END_TEST

START_TEST(yaml_line_missing_tail_gives_deepest_node)
{
	size_t n = strlen(doc);

	/* b's value (line 4) is a scalar: nothing below it */
	ck_assert_int_eq(core_yaml_line(doc, n, "a.1.b.zz"), 4);
	/* a has two entries; entry 7 is not there: a itself (line 3) */
	ck_assert_int_eq(core_yaml_line(doc, n, "a.7.b"), 3);
	/* entry 1 exists (line 4) but has no key q */
	ck_assert_int_eq(core_yaml_line(doc, n, "a.1.q"), 4);
	/* nothing of the path exists: the root mapping, after the
	 * comment */
	ck_assert_int_eq(core_yaml_line(doc, n, "nope"), 2);
	ck_assert_int_eq(core_yaml_line(doc, n, ""), 2);
	ck_assert_int_eq(core_yaml_line(doc, n, NULL), 2);
}
END_TEST

START_TEST(yaml_line_unparsable_text_is_zero)
{
	static const char broken[] = "a: [1, 2\nb: 3\n";

	ck_assert_int_eq(core_yaml_line(broken, strlen(broken), "b"), 0);
}
END_TEST

Suite *suite_core(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("errors");

	tcase_add_test(tc, err_set_keeps_first_message_and_returns_code);
	tcase_add_test(tc, err_set_accepts_null_err);
	tcase_add_test(tc, err_set_truncates_long_message);
	tcase_add_test(tc, strerror_has_text_for_every_code);
	suite_add_tcase(s, tc);

	tc = tcase_create("precision");
	tcase_add_test(tc, precision_names_bytes_and_parse_round_trip);
	tcase_add_test(tc, precision_parse_unknown_lists_valid_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("numbers");
	tcase_add_test(tc, parse_count_accepts_plain_positive_integer);
	tcase_add_loop_test(tc, parse_count_rejects_bad_strings, 0,
			    (int)(sizeof(bad_counts) / sizeof(bad_counts[0])));
	tcase_add_test(tc, parse_count_rejects_null);
	tcase_add_test(tc, parse_double_accepts_finite_numbers);
	tcase_add_test(tc, parse_double_rejects_non_numbers_and_infinities);
	tcase_add_test(tc, parse_double_refuses_hex_and_blanks);
	tcase_add_test(tc, utf8_bom_is_three_bytes_at_the_start);
	tcase_add_test(tc, ceil_log2_small_values);
	tcase_add_test(tc, ceil_log2_exact_above_two_to_the_forty);
	suite_add_tcase(s, tc);

	tc = tcase_create("strings_files_yaml");
	tcase_add_test(tc, strlcpy_truncates_and_reports_it);
	tcase_add_test(tc, name_index_and_list);
	tcase_add_test(tc, read_file_missing_names_path);
	tcase_add_test(tc, read_file_directory_is_eio);
	tcase_add_test(tc, read_file_reads_whole_file);
	tcase_add_test(tc, yaml_line_follows_nested_paths);
	tcase_add_test(tc, yaml_too_deep_refuses_deep_nesting);
	tcase_add_test(tc, yaml_line_missing_tail_gives_deepest_node);
	tcase_add_test(tc, yaml_line_unparsable_text_is_zero);
	suite_add_tcase(s, tc);
	return s;
}
