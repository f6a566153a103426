/*
 * test_calibrate_import.c -- imports into a database (cal_import): one
 * run holding every sample of a file, a failed import that changes
 * nothing, and `dlsim calibrate import` end to end with its errors, on
 * the fixtures of tests/data/calibrate/ (test_calibrate.c checks what
 * each parser reads from them).
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
#include "db_util.h"
#include "hwcalib_util.h"

#define DIR "tests/data/calibrate/"

static void counts(struct db *db, int64_t *runs, int64_t *samples)
{
	struct dlsim_err err = { 0, "" };
	struct db_info info;

	ck_assert_msg(db_info(db, &info, &err) == DLSIM_OK, "%s", err.msg);
	*runs = info.runs;
	*samples = info.samples;
}

struct seen {
	int64_t n;
	struct db_sample last;
};

static int see_sample(void *ctx, int64_t run_id, const struct db_sample *s)
{
	struct seen *seen = ctx;

	(void)run_id;
	seen->n++;
	seen->last = *s;
	return 0;
}

static int see_run(void *ctx, const struct db_run *r)
{
	*(struct db_run *)ctx = *r;
	return 1;
}

START_TEST(cal_import_is_one_run_with_every_sample)
{
	struct dlsim_err err = { 0, "" };
	struct tmpdb t;
	struct seen seen = { 0 };
	struct db_run run;
	int64_t id = 0, n = 0, runs, samples;

	tmpdb_open(&t);
	ck_assert_msg(cal_import(t.db, CAL_NCCL_TESTS, DIR
				 "nccl_all_reduce.txt", "a100x8", &id, &n,
				 &err) == DLSIM_OK, "%s", err.msg);
	ck_assert(id > 0);
	ck_assert_int_eq(n, 12);
	counts(t.db, &runs, &samples);
	ck_assert_int_eq(runs, 1);
	ck_assert_int_eq(samples, 12);
	ck_assert_int_eq(db_each_sample(t.db, id, see_sample, &seen, &err),
			 DLSIM_OK);
	ck_assert_int_eq(seen.n, 12);
	ck_assert_str_eq(seen.last.params, "bytes=134217728 ranks=8 op=sum "
			 "inplace=1 dtype=fp32");
	ck_assert_rel(seen.last.value, 1001.9e-6, 1e-12);
	ck_assert_int_eq(seen.last.rep, -1);
	ck_assert_int_eq(db_each_run(t.db, see_run, &run, &err), DLSIM_OK);
	ck_assert_int_eq(run.id, id);
	ck_assert_str_eq(run.tool, "import:nccl-tests");
	ck_assert_str_eq(run.hw, "a100x8");
	ck_assert_str_eq(run.status, "done");
	ck_assert(strstr(run.source, "tests/data/calibrate/"
			 "nccl_all_reduce.txt") != NULL);
	ck_assert(run.end_s >= run.start_s && run.start_s > 1.5e9);
	/* a second import is a second run */
	ck_assert_int_eq(cal_import(t.db, CAL_STREAM, DIR "stream.txt",
				    "local", &id, &n, &err), DLSIM_OK);
	counts(t.db, &runs, &samples);
	ck_assert_int_eq(runs, 2);
	ck_assert_int_eq(samples, 16);
	tmpdb_close(&t);
}
END_TEST

START_TEST(cal_failed_import_changes_nothing)
{
	struct dlsim_err err = { 0, "" };
	struct tmpdb t;
	int64_t id = 0, n = 0, runs, samples;

	tmpdb_open(&t);
	ck_assert_int_eq(cal_import(t.db, CAL_OSU, DIR "osu_bw.txt", "ib-hdr",
				    &id, &n, &err), DLSIM_OK);
	/* damaged on line 20 of 27: the 2 good rows before it are not kept */
	ck_assert_int_eq(cal_import(t.db, CAL_NCCL_TESTS, DIR
				    "nccl_truncated.txt", "a100x8", &id, &n,
				    &err), DLSIM_EPARSE);
	ck_assert(id == 0 && n == 0);
	counts(t.db, &runs, &samples);
	ck_assert_int_eq(runs, 1);
	ck_assert_int_eq(samples, 5);
	/* a hardware name with a blank is refused before anything */
	dlsim_err_clear(&err);
	ck_assert_int_eq(cal_import(t.db, CAL_OSU, DIR "osu_bw.txt",
				    "ib hdr", &id, &n, &err), DLSIM_EINVAL);
	dlsim_err_clear(&err);
	ck_assert_int_eq(cal_import(t.db, CAL_OSU, DIR "osu_bw.txt", "", &id,
				    &n, &err), DLSIM_EINVAL);
	dlsim_err_clear(&err);
	ck_assert_int_eq(cal_import(t.db, CAL_OSU, DIR "no-such.txt", "x",
				    &id, &n, &err), DLSIM_EIO);
	counts(t.db, &runs, &samples);
	ck_assert_int_eq(runs, 1);
	ck_assert_int_eq(samples, 5);
	tmpdb_close(&t);
}
END_TEST

/* ---------------------------------------------------------------- */
/* The command                                                       */
/* ---------------------------------------------------------------- */

START_TEST(cal_cli_import_and_its_errors)
{
	char dir[] = "/tmp/dlsim-calcli-XXXXXX", args[512], db[64];
	struct run r;

	ck_assert(mkdtemp(dir) != NULL);
	snprintf(db, sizeof(db), "%s/c.db", dir);
	snprintf(args, sizeof(args), "calibrate import stream " DIR
		 "stream.txt --hw local --db %s", db);
	run(&r, args);
	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert(strstr(r.out, "imported 4 samples from " DIR "stream.txt "
			 "as run 1 (stream, hardware local)") != NULL);
	ck_assert_str_eq(r.err, "");
	snprintf(args, sizeof(args), "calibrate import stream " DIR
		 "stream_truncated.txt --hw local --db %s", db);
	run(&r, args);
	assert_one_error(&r, 1, DIR "stream_truncated.txt:30: the row has 3 "
			 "columns");
	ck_assert(strstr(r.err, "(nothing imported)") != NULL);
	snprintf(args, sizeof(args), "calibrate import streem " DIR
		 "stream.txt --hw local --db %s", db);
	run(&r, args);
	assert_one_error(&r, 2, "unknown format 'streem'");
	snprintf(args, sizeof(args), "calibrate import stream " DIR
		 "stream.txt --db %s", db);
	run(&r, args);
	assert_one_error(&r, 2, "--hw is required");
	run(&r, "calibrate import stream");
	assert_one_error(&r, 2, "missing argument");
	run(&r, "calibrate run --only frob");
	assert_one_error(&r, 2, "unknown benchmark 'frob'");
	run(&r, "calibrate fit");
	assert_one_error(&r, 2, "calibrate fit: --hw is required");
	run(&r, "calibrate show");
	assert_one_error(&r, 2, "calibrate show: --hw is required");
	run(&r, "calibrate frob");
	assert_one_error(&r, 2, "unknown subcommand 'frob'");
	run(&r, "calibrate");
	assert_one_error(&r, 2, "missing subcommand");
	run(&r, "calibrate --hw x import stream x.txt");
	assert_one_error(&r, 2, "comes before '--hw'");
	run(&r, "calibrate --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "--hw NAME") && strstr(r.out, "--db PATH") &&
		  strstr(r.out, "Subcommands:") && strstr(r.out, "conv-csv"));
	run(&r, "calibrate import --help");
	ck_assert_int_eq(r.status, 0);
	ck_assert(strstr(r.out, "Usage: dlsim calibrate import FORMAT FILE "
			 "--hw NAME") != NULL);
	dir_remove(dir);
}
END_TEST

Suite *suite_calibrate_import(void)
{
	Suite *s = suite_create("calibrate_import");
	TCase *c = tcase_create("import");

	tcase_set_timeout(c, 60);
	tcase_add_test(c, cal_import_is_one_run_with_every_sample);
	tcase_add_test(c, cal_failed_import_changes_nothing);
	tcase_add_test(c, cal_cli_import_and_its_errors);
	suite_add_tcase(s, c);
	return s;
}
